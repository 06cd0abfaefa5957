"""Field paths in error details, for every method over a real server (docs/service.md, "Field
paths"): the fields from the request down to the offending one as protobuf names them, a oneof
member by its field name (``events[3].kong.tile``, ``options.sichuan.cap_fan``), a repeated
element with its index; an error about how fields combine names the innermost message holding
them; a bulk item's error is relative to the item."""

from __future__ import annotations

from typing import Any

import grpc
import pytest
from svc_helpers import hand, tile

from service.errors import decode_details
from service.pb import pb2, pb2_grpc

H = hand("123m456m789m234p55p")
W = tile("5p")


def _sichuan_ctx(**kw: Any) -> pb2.WinContext:
    return pb2.WinContext(sichuan=pb2.SichuanContext(**kw))


def _view(**kw: Any) -> pb2.TableView:
    fields: dict[str, Any] = {
        "seat": 0,
        "hand": hand("123m456m789m234p5p9s"),
        "phase": "turn",
        "wall_count": 40,
    }
    fields.update(kw)
    return pb2.TableView(**fields)


def _kong(**kw: Any) -> pb2.Event:
    return pb2.Event(kong=pb2.KongEvent(**kw))


def _win(**kw: Any) -> pb2.Event:
    fields: dict[str, Any] = {"seat": 0, "hand": H, "win_tile": W}
    fields.update(kw)
    return pb2.Event(win=pb2.WinEvent(**fields))


def _opts(**kw: Any) -> pb2.RulesetOptions:
    return pb2.RulesetOptions(sichuan=pb2.SichuanOptions(**kw))


ANGANG = pb2.KONG_KIND_ANGANG
CASES: list[tuple[str, Any, str, str]] = [
    # Score
    ("Score", pb2.ScoreRequest(hand=H, win_tile=W), "missing_ruleset", "ruleset"),
    ("Score", pb2.ScoreRequest(ruleset="sichuan", hand=H, win_tile=tile("0p")), "bad_tile", "win_tile"),
    ("Score", pb2.ScoreRequest(ruleset="sichuan", hand=H), "bad_tile", "win_tile"),
    (
        "Score",
        pb2.ScoreRequest(ruleset="sichuan", hand=hand("123x"), win_tile=W),
        "bad_notation",
        "hand.text",
    ),
    (
        "Score",
        pb2.ScoreRequest(
            ruleset="sichuan",
            hand=pb2.Hand(
                structured=pb2.StructuredHand(melds=[pb2.Meld(kind=pb2.MELD_KIND_PENG, tile_ids=[1])])
            ),
            win_tile=W,
        ),
        "bad_meld",
        "hand.structured.melds[0]",
    ),
    (
        "Score",
        pb2.ScoreRequest(
            ruleset="sichuan", hand=H, win_tile=W, options=_opts(cap_fan=pb2.IntOrNone(value=0))
        ),
        "bad_option",
        "options.sichuan.cap_fan",
    ),
    (
        "Score",
        pb2.ScoreRequest(ruleset="sichuan", hand=H, win_tile=W, options=pb2.RulesetOptions(preset="nope")),
        "bad_option",
        "options.preset",
    ),
    (
        "Score",
        pb2.ScoreRequest(ruleset="sichuan", hand=H, win_tile=W, context=_sichuan_ctx(winner=7)),
        "bad_context",
        "context.sichuan.winner",
    ),
    (  # two fields that do not go together: the message holding both
        "Score",
        pb2.ScoreRequest(
            ruleset="sichuan", hand=H, win_tile=W, self_drawn=True, context=_sichuan_ctx(discarder=2)
        ),
        "bad_context",
        "context.sichuan",
    ),
    (
        "Score",
        pb2.ScoreRequest(
            ruleset="sichuan", hand=H, win_tile=W, context=pb2.WinContext(guangdong=pb2.GuangdongContext())
        ),
        "bad_context",
        "context.guangdong",
    ),
    (
        "Score",
        pb2.ScoreRequest(
            ruleset="guangdong",
            hand=H,
            win_tile=W,
            context=pb2.WinContext(guangdong=pb2.GuangdongContext(seat_wind=99)),  # type: ignore[arg-type]
        ),
        "bad_context",
        "context.guangdong.seat_wind",
    ),
    # Waits
    (
        "Waits",
        pb2.WaitsRequest(ruleset="sichuan", hand=hand("123m456m789m234p5p"), visible_tile_ids=[1, 40]),
        "bad_tile",
        "visible_tile_ids[1]",
    ),
    (
        "Waits",
        pb2.WaitsRequest(ruleset="sichuan", hand=hand("123m456m789m234p5p"), visible_tile_ids=[1] * 5),
        "bad_tile",
        "visible_tile_ids",
    ),
    ("Waits", pb2.WaitsRequest(ruleset="sichuan", hand=hand("123m45m")), "wrong_tile_count", "hand.text"),
    # ValidateMove and LegalMoves
    (
        "ValidateMove",
        pb2.ValidateMoveRequest(ruleset="sichuan", state=_view(seat=7), move=pb2.Move(kind="pass")),
        "bad_state",
        "state.seat",
    ),
    (
        "ValidateMove",
        pb2.ValidateMoveRequest(ruleset="sichuan", state=_view(won_seats=[1, 7]), move=pb2.Move(kind="pass")),
        "bad_state",
        "state.won_seats[1]",
    ),
    (
        "ValidateMove",
        pb2.ValidateMoveRequest(ruleset="sichuan", state=_view(pending_kind=99), move=pb2.Move(kind="pass")),
        "bad_state",
        "state.pending_kind",
    ),
    (
        "ValidateMove",
        pb2.ValidateMoveRequest(ruleset="sichuan", state=_view(phase="nope"), move=pb2.Move(kind="pass")),
        "bad_state",
        "state.phase",
    ),
    (
        "ValidateMove",
        pb2.ValidateMoveRequest(ruleset="sichuan", state=_view(dealer_seat=9), move=pb2.Move(kind="pass")),
        "bad_state",
        "state.dealer_seat",
    ),
    (
        "ValidateMove",
        pb2.ValidateMoveRequest(
            ruleset="sichuan", state=_view(), move=pb2.Move(kind="discard", tiles=[tile("1m"), tile("1x")])
        ),
        "bad_tile",
        "move.tiles[1]",
    ),
    (
        "ValidateMove",
        pb2.ValidateMoveRequest(
            ruleset="sichuan",
            state=_view(sichuan=pb2.SichuanView(missing_suit=99)),  # type: ignore[arg-type]
            move=pb2.Move(kind="pass"),
        ),
        "bad_state",
        "state.sichuan.missing_suit",
    ),
    (
        "ValidateMove",
        pb2.ValidateMoveRequest(ruleset="sichuan", state=_view(), move=pb2.Move()),
        "bad_move",
        "move.kind",
    ),
    (
        "LegalMoves",
        pb2.LegalMovesRequest(ruleset="sichuan", state=_view(wall_count=999)),
        "bad_state",
        "state.wall_count",
    ),
    (
        "LegalMoves",
        pb2.LegalMovesRequest(ruleset="sichuan", state=_view(hand=hand("1111m1111m"))),
        "too_many_copies",
        "state.hand.text",
    ),
    # Settle
    ("Settle", pb2.SettleRequest(ruleset="sichuan", dealer_seat=4), "bad_event", "dealer_seat"),
    (
        "Settle",
        pb2.SettleRequest(
            ruleset="sichuan", events=[_kong(kind=ANGANG, seat=1, tile=tile("7m")), _kong(kind=ANGANG)]
        ),
        "bad_event",
        "events[1].kong.tile",
    ),
    (
        "Settle",
        pb2.SettleRequest(ruleset="sichuan", events=[_kong(kind=ANGANG, seat=9, tile=tile("7m"))]),
        "bad_event",
        "events[0].kong.seat",
    ),
    (
        "Settle",
        pb2.SettleRequest(
            ruleset="sichuan", events=[_kong(kind=ANGANG, seat=1, tile=tile("7m")), _win(win_tile=None)]
        ),
        "bad_event",
        "events[1].win.win_tile",
    ),
    (  # the engine's own check, which names the event by its index
        "Settle",
        pb2.SettleRequest(ruleset="sichuan", events=[_win(seat=0, self_drawn=True, discarder_seat=2)]),
        "bad_event",
        "events[0].win",
    ),
    (
        "Settle",
        pb2.SettleRequest(
            ruleset="sichuan",
            events=[_win(seat=0, discarder_seat=2, context=_sichuan_ctx(missing_suit=99))],
        ),
        "bad_context",
        "events[0].win.context.sichuan.missing_suit",
    ),
    (  # refused while the engine scores a win, which it does not name: the log as a whole
        "Settle",
        pb2.SettleRequest(
            ruleset="sichuan", events=[_win(seat=0, discarder_seat=2, context=_sichuan_ctx(after_kong=True))]
        ),
        "bad_context",
        "events",
    ),
    (
        "Settle",
        pb2.SettleRequest(ruleset="guangdong", events=[pb2.Event(sichuan=pb2.SichuanEvent())]),
        "bad_event",
        "events[0].sichuan",
    ),
    # ScoreBatch (request level; item errors: test_score_batch_item_paths)
    (
        "ScoreBatch",
        pb2.ScoreBatchRequest(items=[pb2.ScoreItem(hand=H, win_tile=W)]),
        "missing_ruleset",
        "ruleset",
    ),
    (
        "ScoreBatch",
        pb2.ScoreBatchRequest(ruleset="sichuan", options=_opts(zimo_bonus=99)),
        "bad_option",
        "options.sichuan.zimo_bonus",
    ),
    # DescribeRuleset
    ("DescribeRuleset", pb2.DescribeRulesetRequest(), "missing_ruleset", "ruleset"),
    ("DescribeRuleset", pb2.DescribeRulesetRequest(ruleset="nope"), "unknown_ruleset", "ruleset"),
]


@pytest.mark.parametrize(("method", "request_", "code", "field"), CASES, ids=[c[3] for c in CASES])
def test_field_path(
    stub: pb2_grpc.MahjongRulesStub, method: str, request_: Any, code: str, field: str
) -> None:
    with pytest.raises(grpc.RpcError) as ei:
        getattr(stub, method)(request_, timeout=10)
    want = grpc.StatusCode.NOT_FOUND if code == "unknown_ruleset" else grpc.StatusCode.INVALID_ARGUMENT
    assert ei.value.code() == want, ei.value.details()
    details = decode_details(ei.value)
    assert details is not None and details[:2] == (code, field), (details, ei.value.details())


def test_score_batch_item_paths(stub: pb2_grpc.MahjongRulesStub) -> None:
    """An ItemError's field is relative to its item, the same paths as Score's."""
    items = [
        pb2.ScoreItem(id="tile", hand=H, win_tile=tile("0p")),
        pb2.ScoreItem(id="text", hand=hand("123x"), win_tile=W),
        pb2.ScoreItem(id="winner", hand=H, win_tile=W, context=_sichuan_ctx(winner=7)),
        pb2.ScoreItem(id="both", hand=H, win_tile=W, self_drawn=True, context=_sichuan_ctx(discarder=2)),
        pb2.ScoreItem(id="ok", hand=H, win_tile=W),
    ]
    want = {
        "tile": "win_tile",
        "text": "hand.text",
        "winner": "context.sichuan.winner",
        "both": "context.sichuan",
        "ok": "",
    }
    for method in ("ScoreBatch", "ScoreStream"):
        if method == "ScoreBatch":
            reply = stub.ScoreBatch(pb2.ScoreBatchRequest(ruleset="sichuan", items=items), timeout=10)
        else:
            msgs = iter([pb2.ScoreStreamRequest(ruleset="sichuan", items=items)])
            reply = next(iter(stub.ScoreStream(msgs, timeout=10)))
        got = {o.id: o.error.field for o in reply.outcomes}
        assert got == want, method


def test_wrong_input_is_invalid_argument_not_internal(
    channel: grpc.Channel, stub: pb2_grpc.MahjongRulesStub
) -> None:
    """The issue's two INTERNAL answers to wrong input: an unknown PendingKind (its bytes, with a
    rule set named) and Settle amounts at 2^32-1 (the int64 overflow)."""
    rules = "/mahjong.v1.MahjongRules/"
    data = pb2.ValidateMoveRequest(ruleset="sichuan").SerializeToString() + bytes.fromhex(
        "1a0a12040a02316d18034804"
    )
    with pytest.raises(grpc.RpcError) as ei:
        channel.unary_unary(rules + "ValidateMove")(data, timeout=10)
    assert ei.value.code() == grpc.StatusCode.INVALID_ARGUMENT, ei.value.details()
    big = pb2.SettleRequest(
        ruleset="sichuan",
        options=_opts(base=2**32 - 1, huazhu_pay=2**32 - 1),
        events=[_win(seat=0, discarder_seat=2)],
    )
    with pytest.raises(grpc.RpcError) as ei:
        stub.Settle(big, timeout=10)
    details = decode_details(ei.value)
    assert ei.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert details is not None and details[:2] == ("bad_option", "options.sichuan.base"), details
