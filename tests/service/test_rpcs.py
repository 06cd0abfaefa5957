"""Every RPC over the socket: happy paths, error codes with their details, bulk forms."""

from __future__ import annotations

import json

import grpc
import pytest
from svc_helpers import hand, tile

from mjcore import MahjongError, rules, tile_from_text
from mjcore.table import Win
from service import convert as cv
from service.convert import MAX_BATCH_ITEMS
from service.errors import decode_details
from service.pb import pb2, pb2_grpc

REGISTERED = set(rules.list_rulesets())


def sichuan_ctx(**kw: object) -> pb2.WinContext:
    return pb2.WinContext(sichuan=pb2.SichuanContext(**kw))  # type: ignore[arg-type]


def rich(err: grpc.RpcError) -> tuple[str, str, str]:
    d = decode_details(err)
    assert d is not None, "INVALID_ARGUMENT/NOT_FOUND must carry google.rpc details"
    return d


# ------------------------------------------------------------------ Score


def test_score_pinghu_text(stub: pb2_grpc.MahjongRulesStub) -> None:
    r = stub.Score(
        pb2.ScoreRequest(
            ruleset="sichuan",
            hand=hand("123m456m789m234p55p"),
            win_tile=tile("5p"),
            context=sichuan_ctx(winner=0, discarder=2),
        ),
        timeout=5,
    ).result
    assert [(p.id, p.value) for p in r.patterns] == [("pinghu", 0)]
    assert r.value == 0 and r.multiplier == 1 and r.shape == "standard"
    assert r.unit == pb2.VALUE_UNIT_FAN and r.liable == "" and not r.HasField("liable_seat")
    assert r.decomposition.pair_tile_id == 13
    assert list(r.decomposition.chow_tile_ids) == [0, 3, 6, 10]
    assert [(p.from_seat, p.to_seat, p.amount, p.reason) for p in r.payments] == [(2, 0, 1, "win")]
    assert r.total == 1


def test_score_structured_hand_equals_text(stub: pb2_grpc.MahjongRulesStub) -> None:
    # 123m789m456p99m peng:555p, 6p on a discard: pinghu + gen 1 (spec §7)
    ids = [0, 1, 2, 6, 7, 8, 12, 13, 14, 8, 8]
    structured = pb2.Hand(
        structured=pb2.StructuredHand(
            concealed_tile_ids=ids,
            melds=[pb2.Meld(kind=pb2.MELD_KIND_PENG, tile_ids=[13, 13, 13])],
        )
    )
    a = stub.Score(pb2.ScoreRequest(ruleset="sichuan", hand=structured, win_tile=pb2.Tile(id=14))).result
    b = stub.Score(
        pb2.ScoreRequest(ruleset="sichuan", hand=hand("123m789m456p99m peng:555p"), win_tile=tile("6p"))
    ).result
    assert a == b
    assert a.value == 1 and a.multiplier == 2
    assert sorted((p.id, p.value) for p in a.patterns) == [("gen", 1), ("pinghu", 0)]


def test_score_self_drawn_payments(stub: pb2_grpc.MahjongRulesStub) -> None:
    # spec §7: 345m678m345p99p angang:2222m, 9p self-drawn after the kong: fan 2, 3 x (4 + 1)
    r = stub.Score(
        pb2.ScoreRequest(
            ruleset="sichuan",
            hand=hand("345m678m345p99p angang:2222m"),
            win_tile=tile("9p"),
            self_drawn=True,
            context=sichuan_ctx(after_kong=True, winner=1),
        )
    ).result
    assert r.value == 2
    assert sorted(p.from_seat for p in r.payments) == [0, 2, 3]  # one payment per payer
    assert all(p.amount == 5 and p.to_seat == 1 for p in r.payments)
    assert r.total == 15
    # 血战: a seat that has won no longer pays
    req = pb2.ScoreRequest(
        ruleset="sichuan",
        hand=hand("345m678m345p99p angang:2222m"),
        win_tile=tile("9p"),
        self_drawn=True,
        context=sichuan_ctx(after_kong=True, winner=1, active_seats=pb2.SeatList(seats=[1, 2, 3])),
    )
    assert sorted(p.from_seat for p in stub.Score(req).result.payments) == [2, 3]


def test_score_options_and_presets(stub: pb2_grpc.MahjongRulesStub) -> None:
    req = pb2.ScoreRequest(ruleset="sichuan", hand=hand("11223344556677m"), win_tile=tile("7m"))
    assert stub.Score(req).result.value == 4  # qingqidui
    req.options.sichuan.cap_fan.value = 3
    assert stub.Score(req).result.value == 3
    assert stub.Score(req).result.value_uncapped == 4
    req2 = pb2.ScoreRequest(ruleset="sichuan", hand=hand("11223344556677m"), win_tile=tile("7m"))
    req2.options.preset = "modern"  # cap 3
    assert stub.Score(req2).result.value == 3
    req2.options.sichuan.cap_fan.SetInParent()  # explicit "no cap" (none) over the preset
    assert stub.Score(req2).result.value == 4
    req3 = pb2.ScoreRequest(
        ruleset="sichuan", hand=hand("123m456m789m234p55p"), win_tile=tile("5p"), self_drawn=True
    )
    req3.options.sichuan.zimo_bonus = pb2.SichuanOptions.ZIMO_BONUS_FAN
    assert stub.Score(req3).result.value == 1


@pytest.mark.parametrize(
    ("request_", "code", "field"),
    [
        (
            pb2.ScoreRequest(ruleset="sichuan", hand=hand("11111m234m456p789p"), win_tile=tile("1m")),
            "too_many_copies",
            "hand.text",
        ),
        (
            pb2.ScoreRequest(ruleset="sichuan", hand=hand("123m456p789s234m55p"), win_tile=tile("5p")),
            "not_a_win",
            "hand",
        ),
        (
            pb2.ScoreRequest(ruleset="sichuan", hand=hand("123x"), win_tile=tile("5p")),
            "bad_notation",
            "hand.text",
        ),
        (
            pb2.ScoreRequest(
                ruleset="sichuan", hand=hand("123m456m789m234p55p pong:555p"), win_tile=tile("5p")
            ),
            "bad_meld",
            "hand.text",
        ),
        (
            pb2.ScoreRequest(ruleset="sichuan", hand=hand("123m456m789m234p55p"), win_tile=tile("0p")),
            "bad_tile",
            "win_tile",
        ),
        (
            pb2.ScoreRequest(ruleset="sichuan", hand=hand("123m456m789m234p55p"), win_tile=pb2.Tile(id=99)),
            "bad_tile",
            "win_tile",
        ),
        (pb2.ScoreRequest(ruleset="sichuan", hand=hand("123m456m789m234p55p")), "bad_tile", "win_tile"),
        (pb2.ScoreRequest(ruleset="sichuan", win_tile=tile("5p")), "bad_notation", "hand"),
        (
            pb2.ScoreRequest(
                ruleset="sichuan",
                hand=pb2.Hand(structured=pb2.StructuredHand(concealed_tile_ids=[1, 2, 40])),
                win_tile=tile("5p"),
            ),
            "bad_tile",
            "hand.structured",
        ),
        (
            pb2.ScoreRequest(
                ruleset="sichuan",
                hand=pb2.Hand(
                    structured=pb2.StructuredHand(
                        concealed_tile_ids=[1], melds=[pb2.Meld(kind=pb2.MELD_KIND_PENG, tile_ids=[1, 2, 3])]
                    )
                ),
                win_tile=tile("2m"),
            ),
            "bad_meld",
            "hand.structured.melds[0]",
        ),
        (
            pb2.ScoreRequest(
                ruleset="sichuan",
                hand=hand("123m456m789m234p55p"),
                win_tile=tile("5p"),
                context=sichuan_ctx(heavenly=True),
            ),
            "bad_context",
            "context.sichuan.heavenly",  # "heavenly/earthly wins are self-drawn"
        ),
        (
            pb2.ScoreRequest(
                ruleset="sichuan",
                hand=hand("123m456m789m234p55p"),
                win_tile=tile("5p"),
                context=pb2.WinContext(guangdong=pb2.GuangdongContext(seat_wind=pb2.WIND_EAST)),
            ),
            "bad_context",
            "context.guangdong",
        ),
        (
            pb2.ScoreRequest(
                ruleset="sichuan",
                hand=hand("123m456m789m234p55p"),
                win_tile=tile("5p"),
                options=pb2.RulesetOptions(guangdong=pb2.GuangdongOptions()),
            ),
            "bad_option",
            "options.guangdong",
        ),
        (
            pb2.ScoreRequest(
                ruleset="sichuan",
                hand=hand("123m456m789m234p55p"),
                win_tile=tile("5p"),
                options=pb2.RulesetOptions(sichuan=pb2.SichuanOptions(zimo_bonus=9)),  # type: ignore[arg-type]
            ),
            "bad_option",
            "options.sichuan.zimo_bonus",
        ),
        (
            pb2.ScoreRequest(
                ruleset="sichuan",
                hand=hand("123m456m789m234p55p"),
                win_tile=tile("5p"),
                options=pb2.RulesetOptions(preset="nosuchpreset"),
            ),
            "bad_option",
            "options.preset",
        ),
        (
            pb2.ScoreRequest(
                ruleset="sichuan",
                hand=hand("123m456m789m234p55p"),
                win_tile=tile("5p"),
                options=pb2.RulesetOptions(sichuan=pb2.SichuanOptions(longqidui_fan=7)),
            ),
            "bad_option",
            "options.sichuan.longqidui_fan",
        ),
    ],
)
def test_score_invalid_argument(
    stub: pb2_grpc.MahjongRulesStub, request_: pb2.ScoreRequest, code: str, field: str
) -> None:
    with pytest.raises(grpc.RpcError) as ei:
        stub.Score(request_, timeout=5)
    assert ei.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    got_code, got_field, desc = rich(ei.value)
    assert (got_code, got_field) == (code, field)
    assert desc and code in ei.value.details()


def test_unknown_ruleset_is_not_found(stub: pb2_grpc.MahjongRulesStub) -> None:
    for call in (
        lambda: stub.Score(pb2.ScoreRequest(ruleset="nosuch", hand=hand("55p"), win_tile=tile("5p"))),
        lambda: stub.DescribeRuleset(pb2.DescribeRulesetRequest(ruleset="nosuch")),
        lambda: stub.ScoreBatch(pb2.ScoreBatchRequest(ruleset="nosuch")),
    ):
        with pytest.raises(grpc.RpcError) as ei:
            call()
        assert ei.value.code() == grpc.StatusCode.NOT_FOUND
        assert rich(ei.value)[:2] == ("unknown_ruleset", "ruleset")


# ------------------------------------------------------------------ Waits


def test_waits_with_values_and_unseen(stub: pb2_grpc.MahjongRulesStub) -> None:
    # 111m555m777m222p8p + ... : waits on 8p (duiduihu) ; use a two-sided wait
    r = stub.Waits(
        pb2.WaitsRequest(ruleset="sichuan", hand=hand("123m456m789m234p5p"), visible_tile_ids=[13, 13]),
        timeout=5,
    )
    assert [(w.tile, w.tile_id) for w in r.waits] == [("2p", 10), ("5p", 13)]
    five = r.waits[1]
    assert five.unseen == 1  # one 5p in hand, two visible
    assert r.waits[0].unseen == 3
    assert five.discard_value == 0 and five.self_drawn_value >= 0
    assert [p.id for p in five.discard_patterns] == ["pinghu"]
    assert r.max_discard_value == 0


def test_waits_not_ready_and_errors(stub: pb2_grpc.MahjongRulesStub) -> None:
    r = stub.Waits(pb2.WaitsRequest(ruleset="sichuan", hand=hand("1357m2468p1357s9m")))
    assert list(r.waits) == [] and r.max_discard_value == -1
    with pytest.raises(grpc.RpcError) as ei:
        stub.Waits(
            pb2.WaitsRequest(ruleset="sichuan", hand=hand("123m456m789m234p5p"), visible_tile_ids=[34])
        )
    assert ei.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert rich(ei.value)[:2] == ("bad_tile", "visible_tile_ids[0]")
    with pytest.raises(grpc.RpcError) as ei:
        stub.Waits(pb2.WaitsRequest(ruleset="sichuan", hand=hand("123m456m789m234p55p")))
    assert ei.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert rich(ei.value)[1] == "hand.text"


# ------------------------------------------------------------------ moves


def _view(missing: object = pb2.SUIT_S, **kw: object) -> pb2.TableView:
    base: dict[str, object] = {
        "seat": 0,
        "hand": hand("123m456m789m234p55p"),
        "phase": "turn",
        "wall_count": 40,
        "sichuan": pb2.SichuanView(missing_suit=missing),  # type: ignore[arg-type]
    }
    base.update(kw)
    return pb2.TableView(**base)  # type: ignore[arg-type]


def _move(kind: str, *tiles: str) -> pb2.Move:
    return pb2.Move(kind=kind, tiles=[tile(t) for t in tiles])


def test_validate_move_legal_and_refused(stub: pb2_grpc.MahjongRulesStub) -> None:
    ok = stub.ValidateMove(
        pb2.ValidateMoveRequest(ruleset="sichuan", state=_view(), move=_move("discard", "1m"))
    )
    assert ok.legal and ok.reason == ""
    hu = stub.ValidateMove(pb2.ValidateMoveRequest(ruleset="sichuan", state=_view(), move=_move("hu")))
    assert hu.legal
    # 缺门 s: holding an s tile and discarding another suit is refused
    st = _view(hand=hand("123m456m789m234p5p9s"))
    bad = stub.ValidateMove(pb2.ValidateMoveRequest(ruleset="sichuan", state=st, move=_move("discard", "1m")))
    assert not bad.legal and bad.reason == "missing_suit_first" and bad.message
    chi = stub.ValidateMove(
        pb2.ValidateMoveRequest(ruleset="sichuan", state=_view(), move=_move("chi", "1m", "2m", "3m"))
    )
    assert not chi.legal and chi.reason == "chi_not_allowed"
    not_held = stub.ValidateMove(
        pb2.ValidateMoveRequest(ruleset="sichuan", state=_view(), move=_move("discard", "9p"))
    )
    assert not not_held.legal and not_held.reason == "tile_not_held"
    # the Sichuan part of the view: a seat that has won plays no more
    won = _view(sichuan=pb2.SichuanView(missing_suit=pb2.SUIT_S, has_won=True))
    done = stub.ValidateMove(
        pb2.ValidateMoveRequest(ruleset="sichuan", state=won, move=_move("discard", "1m"))
    )
    assert not done.legal and done.reason == "already_won"


def test_validate_move_bad_input(stub: pb2_grpc.MahjongRulesStub) -> None:
    cases = [
        (
            pb2.ValidateMoveRequest(ruleset="sichuan", state=_view(), move=pb2.Move()),
            ("bad_move", "move.kind"),
        ),
        (
            pb2.ValidateMoveRequest(ruleset="sichuan", state=_view(phase=""), move=_move("pass")),
            ("bad_state", "state.phase"),
        ),
        (
            pb2.ValidateMoveRequest(
                ruleset="sichuan", state=_view(hand=hand("5555555p")), move=_move("pass")
            ),
            ("too_many_copies", "state.hand.text"),
        ),
        (  # another rule set's part of the view
            pb2.ValidateMoveRequest(
                ruleset="sichuan",
                state=_view(guangdong=pb2.GuangdongView(round_wind=pb2.WIND_EAST)),
                move=_move("pass"),
            ),
            ("bad_state", "state.guangdong"),
        ),
        (
            pb2.ValidateMoveRequest(ruleset="sichuan", state=_view(phase="nope"), move=_move("pass")),
            ("bad_state", "state.phase"),
        ),
    ]
    for request, want in cases:
        with pytest.raises(grpc.RpcError) as ei:
            stub.ValidateMove(request)
        assert ei.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert rich(ei.value)[:2] == want


def test_legal_moves(stub: pb2_grpc.MahjongRulesStub) -> None:
    r = stub.LegalMoves(pb2.LegalMovesRequest(ruleset="sichuan", state=_view()))
    texts = {m.text for m in r.moves}
    assert "hu" in texts and {m.kind for m in r.moves} <= {"discard", "hu", "angang", "bugang"}
    assert "discard 1m" in texts and "discard 5p" in texts
    for m in r.moves:
        for t in m.tiles:
            assert t.text and 0 <= t.id < 34
    # every listed move validates as legal
    for m in r.moves:
        assert stub.ValidateMove(pb2.ValidateMoveRequest(ruleset="sichuan", state=_view(), move=m)).legal, (
            m.text
        )
    dq = stub.LegalMoves(
        pb2.LegalMovesRequest(ruleset="sichuan", state=_view(phase="ding_que", missing=pb2.SUIT_UNSPECIFIED))
    )
    assert {m.kind for m in dq.moves} == {"ding_que"}
    assert {m.suit for m in dq.moves} == {pb2.SUIT_M, pb2.SUIT_P, pb2.SUIT_S}


# ------------------------------------------------------------------ Settle


def _ding_que(seat: int, suit: int) -> pb2.Event:
    return pb2.Event(sichuan=pb2.SichuanEvent(ding_que=pb2.SichuanDingQue(seat=seat, suit=suit)))  # type: ignore[arg-type]


def test_settle_kongs_win_and_draw(stub: pb2_grpc.MahjongRulesStub) -> None:
    ev = [_ding_que(s, pb2.SUIT_S) for s in range(4)] + [
        pb2.Event(kong=pb2.KongEvent(kind=pb2.KONG_KIND_ANGANG, seat=1, tile=tile("7m"))),
        pb2.Event(
            win=pb2.WinEvent(seat=0, hand=hand("123m456m789m234p55p"), win_tile=tile("5p"), discarder_seat=2)
        ),
    ]
    r = stub.Settle(pb2.SettleRequest(ruleset="sichuan", events=ev, dealer_seat=0))
    assert sum(r.totals) == 0 and len(r.totals) == 4
    reasons = [(p.reason, p.from_seat, p.to_seat, p.amount, p.event_index) for p in r.payments]
    assert ("angang", 0, 1, 2, 4) in reasons
    assert ("win", 2, 0, 1, 5) in reasons
    assert list(r.winner_seats) == [0]


def test_settle_discard_ids(stub: pb2_grpc.MahjongRulesStub) -> None:
    """Two wins on one discard (一炮多响, the same discard id) settle; the id reaches the
    engine's Win event (unset: None)."""
    wins = [
        pb2.Event(
            win=pb2.WinEvent(
                seat=s, hand=hand("123m456m789m234p55p"), win_tile=tile("5p"), discarder_seat=2, discard=7
            )
        )
        for s in (0, 1)
    ]
    r = stub.Settle(pb2.SettleRequest(ruleset="sichuan", events=wins))
    assert list(r.winner_seats) == [0, 1] and sum(r.totals) == 0
    events = cv.events_of([*wins, pb2.Event(win=pb2.WinEvent(seat=3, hand=hand("55p"), win_tile=tile("5p")))],
                          rules.get_ruleset("sichuan"))
    assert [e.discard for e in events] == [7, 7, None]


def test_settle_bad_event(stub: pb2_grpc.MahjongRulesStub) -> None:
    cases = [
        (pb2.Event(kong=pb2.KongEvent(kind=pb2.KONG_KIND_GANG, seat=1)), "events[0].kong.tile"),
        (_ding_que(7, pb2.SUIT_S), "events"),  # the engine refuses the seat
        (  # a ding_que without its suit
            pb2.Event(sichuan=pb2.SichuanEvent(ding_que=pb2.SichuanDingQue(seat=1))),
            "events[0].sichuan.ding_que",
        ),
        (pb2.Event(), "events[0]"),
        (pb2.Event(win=pb2.WinEvent(seat=0, hand=hand("55p"))), "events[0].win.win_tile"),
    ]
    for event, field in cases:
        with pytest.raises(grpc.RpcError) as ei:
            stub.Settle(pb2.SettleRequest(ruleset="sichuan", events=[event]))
        assert ei.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert rich(ei.value)[1] == field, event


def test_settle_hand_text_read_by_the_rule_set(stub: pb2_grpc.MahjongRulesStub) -> None:
    """A win's hand text goes to the engine as it came (as in Score): a bad hand is refused
    with the library's code, not that of a parse the rule set does not make."""
    for ruleset, text, tile_text in (
        ("hangzhou", "123m123m123m123m123m123m", "1m"),
        ("taiwan", "444789s11133555z chi:456s chi:124m", "1z"),
    ):
        win = rules.get_ruleset(ruleset)  # (the library's answer for the same log)
        log = [Win(0, text, tile_from_text(tile_text), False, 1, {"winner": 0})]
        with pytest.raises(MahjongError) as lib:
            rules.settle(log, ruleset=win.name, dealer=2)
        event = pb2.Event(win=pb2.WinEvent(seat=0, hand=hand(text), win_tile=tile(tile_text),
                                           discarder_seat=1))
        with pytest.raises(grpc.RpcError) as ei:
            stub.Settle(pb2.SettleRequest(ruleset=ruleset, events=[event], dealer_seat=2))
        assert ei.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert rich(ei.value)[0] == lib.value.code, (ruleset, text)


# ------------------------------------------------------------------ describe


def test_list_and_describe(stub: pb2_grpc.MahjongRulesStub) -> None:
    names = [r.name for r in stub.ListRulesets(pb2.ListRulesetsRequest()).rulesets]
    assert "sichuan" in names
    d = stub.DescribeRuleset(pb2.DescribeRulesetRequest(ruleset="sichuan"))
    assert d.unit == pb2.VALUE_UNIT_FAN and d.hand_tiles == 14
    assert d.policy.kind == "highest_plus_extras" and d.policy.cap_option == "cap_fan"
    ids = {p.id: p for p in d.patterns}
    assert ids["qingyise"].value == 2 and ids["qingyise"].name == "清一色"
    assert ids["qingyise"].pattern_class == "inside" and list(ids["qingyise"].supersedes) == ["pinghu"]
    assert ids["longqidui"].value_option == "longqidui_fan"
    assert [(a.extra_id, a.count) for a in ids["longqidui"].absorbs] == [("gen", 1)]
    assert ids["tianhu"].flat and ids["tianhu"].enabled_by == "tiandihu"
    extras = {e.id: e for e in d.extras}
    assert {"gen", "gangshanghua"} <= set(extras) and extras["gen"].per_occurrence
    assert not extras["gen"].depends_on_context and extras["gangshanghua"].depends_on_context
    opts = {o.name: o for o in d.options}
    assert json.loads(opts["huazhu_pay"].default_json) == 16
    assert (opts["huazhu_pay"].minimum, opts["huazhu_pay"].maximum) == (1, 8192)
    assert json.loads(opts["cap_fan"].default_json) is None and opts["cap_fan"].none_allowed
    assert [json.loads(c) for c in opts["zimo_bonus"].choices_json] == ["base", "fan", "none"]
    assert opts["zimo_bonus"].kind == "enum" and not opts["zimo_bonus"].HasField("minimum")
    # every option of the rule set has a field in the typed options message, in order
    assert [o.name for o in d.options] == [f.name for f in pb2.SichuanOptions.DESCRIPTOR.fields]
    presets = {p.name: p.options for p in d.presets}
    assert presets["modern"].sichuan.cap_fan.value == 3
    assert presets["chengdu"].WhichOneof("options") == "sichuan"
    keys = {k.id: k.kind for k in d.context_keys}
    assert keys["missing_suit"] == "suit" and keys["active_seats"] == "seats" and keys["heavenly"] == "bool"
    assert list(keys) == [f.name for f in pb2.SichuanContext.DESCRIPTOR.fields]
    assert {"exchange", "ding_que", "turn", "claim"} <= set(d.phases)
    assert "guoshui" in {c.id for c in d.reason_codes}
    assert "huazhu" in {c.id for c in d.ledger_reasons}
    assert "ding_que" in {c.id for c in d.move_kinds}
    for name in names:
        assert stub.DescribeRuleset(pb2.DescribeRulesetRequest(ruleset=name)).name == name


@pytest.mark.parametrize("ruleset", sorted(REGISTERED))
def test_describe_every_rule_set(stub: pb2_grpc.MahjongRulesStub, ruleset: str) -> None:
    """Each registered rule set describes itself in the terms of its typed messages: options,
    context keys and presets by the fields of its generated messages."""
    d = stub.DescribeRuleset(pb2.DescribeRulesetRequest(ruleset=ruleset))
    rs = rules.get_ruleset(ruleset)
    title = "".join(p.capitalize() for p in ruleset.split("_"))
    options, context = getattr(pb2, f"{title}Options"), getattr(pb2, f"{title}Context")
    assert [o.name for o in d.options] == [f.name for f in options.DESCRIPTOR.fields]
    assert [k.id for k in d.context_keys] == [f.name for f in context.DESCRIPTOR.fields]
    assert d.unit == cv.UNITS[rs.unit] and d.hand_tiles == rs.hand_tiles and list(d.phases) == list(rs.phases)
    for preset in d.presets:  # a typed preset reads back as the rule set's own values
        typed = getattr(preset.options, ruleset)
        values = cv.typed_dict(typed, "bad_option", "options")
        assert rs.resolve_options(values).as_dict() == rs.resolve_options(preset=preset.name).as_dict()


# Which rule sets have chi (a claim on the discard of the seat before).
CHI = {"sichuan": False, "guangdong": True}


@pytest.mark.parametrize("ruleset", sorted(CHI))
def test_describe_says_which_rule_sets_have_chi(stub: pb2_grpc.MahjongRulesStub, ruleset: str) -> None:
    d = stub.DescribeRuleset(pb2.DescribeRulesetRequest(ruleset=ruleset))
    assert ("chi" in d.claims) == CHI[ruleset]
    assert {"peng", "gang", "hu"} <= set(d.claims)
    assert ("chi" in {m.id for m in d.move_kinds}) is True  # a chi is always a move kind: refused or not
    assert set(d.claims) <= {"chi", "peng", "gang", "hu"}


# ------------------------------------------------------------------ Guangdong


def _gd_ctx(**kw: object) -> pb2.WinContext:
    return pb2.WinContext(guangdong=pb2.GuangdongContext(**kw))  # type: ignore[arg-type]


def test_score_guangdong_winds_relative_seats_and_liability(stub: pb2_grpc.MahjongRulesStub) -> None:
    """Winds and relative seats reach the engine as its own values (the result equals the
    engine's), and the payer is the seat the relative seat names."""
    cases = [
        # east pung as seat and round wind; discarded by the left seat (上家) of seat 0: seat 3
        ("123m456m789m111z55p", "5p", _gd_ctx(seat_wind=pb2.WIND_EAST, round_wind=pb2.WIND_EAST, winner=0,
                                                discarder=pb2.RELATIVE_SEAT_LEFT),
         {"seat_wind": "1z", "round_wind": "1z", "winner": 0, "discarder": "left"}),
        # 抢杠 of the seat across from seat 3 (seat 1): it is liable and pays for all
        ("123m456m789p234s55s", "4s", _gd_ctx(seat_wind=pb2.WIND_NORTH, round_wind=pb2.WIND_EAST, winner=3,
                                                qiang_gang=True, robbed=pb2.RELATIVE_SEAT_ACROSS),
         {"seat_wind": "4z", "round_wind": "1z", "winner": 3, "qiang_gang": True, "robbed": "across"}),
    ]
    for text, win, ctx, engine_ctx in cases:
        request = pb2.ScoreRequest(ruleset="guangdong", hand=hand(text), win_tile=tile(win), context=ctx)
        got = stub.Score(request)
        want = rules.score(text, win_tile=win, ruleset="guangdong", context=engine_ctx)
        r = got.result
        assert (r.value, r.value_uncapped, r.multiplier, r.unit) == (
            want.value, want.value_uncapped, want.multiplier, pb2.VALUE_UNIT_FAN
        )
        assert [(p.id, p.value) for p in r.patterns] == [(p.id, p.fan) for p in want.patterns]
        assert [(p.from_seat, p.to_seat, p.amount) for p in r.payments] == list(want.payments)
        assert r.liable == want.liable
        assert (r.liable_seat if r.HasField("liable_seat") else -1) == want.liable_seat
    first = stub.Score(pb2.ScoreRequest(ruleset="guangdong", hand=hand(cases[0][0]), win_tile=tile("5p"),
                                        context=cases[0][2])).result
    assert [p.from_seat for p in first.payments] == [3] and list(first.decomposition.pung_tile_ids) == [27]
    robbed = stub.Score(pb2.ScoreRequest(ruleset="guangdong", hand=hand(cases[1][0]), win_tile=tile("4s"),
                                         context=cases[1][2])).result
    assert robbed.liable == "qianggang" and robbed.liable_seat == 1
    assert [p.from_seat for p in robbed.payments] == [1]


def test_guangdong_moves_with_its_view(stub: pb2_grpc.MahjongRulesStub) -> None:
    def claim(frm: int) -> pb2.TableView:
        return pb2.TableView(
            seat=0,
            hand=hand("23m456m789m111z55p"),
            phase="claim",
            pending_tile=tile("1m"),
            pending_from_seat=frm,
            guangdong=pb2.GuangdongView(round_wind=pb2.WIND_SOUTH, meld_from=pb2.SeatList(seats=[])),
        )

    chi = _move("chi", "1m", "2m", "3m")
    assert stub.ValidateMove(pb2.ValidateMoveRequest(ruleset="guangdong", state=claim(3), move=chi)).legal
    across = stub.ValidateMove(pb2.ValidateMoveRequest(ruleset="guangdong", state=claim(2), move=chi))
    assert not across.legal and across.reason == "chi_not_from_left"
    moves = stub.LegalMoves(pb2.LegalMovesRequest(ruleset="guangdong", state=claim(3))).moves
    assert {m.kind for m in moves} >= {"chi", "hu", "pass"}
    # Sichuan's part of the view is refused for Guangdong
    wrong = claim(3)
    wrong.sichuan.has_won = True
    with pytest.raises(grpc.RpcError) as ei:
        stub.ValidateMove(pb2.ValidateMoveRequest(ruleset="guangdong", state=wrong, move=chi))
    assert rich(ei.value)[:2] == ("bad_state", "state.sichuan")


# ------------------------------------------------------------------ bulk


def _items(n: int) -> list[pb2.ScoreItem]:
    hands = [
        ("123m456m789m234p55p", "5p", 0),
        ("11122233344455m", "5m", 3),
        ("11m33m55m22p44p66p88p", "8p", 2),
    ]
    out = []
    for i in range(n):
        h, t, _ = hands[i % 3]
        out.append(pb2.ScoreItem(id=f"h{i}", hand=hand(h), win_tile=tile(t)))
    return out


def test_score_batch_in_order_with_item_errors(stub: pb2_grpc.MahjongRulesStub) -> None:
    items = _items(30)
    items.insert(5, pb2.ScoreItem(id="bad", hand=hand("123m456p789s234m55p"), win_tile=tile("5p")))
    items.insert(9, pb2.ScoreItem(id="bad2", hand=hand("123m"), win_tile=tile("9z")))
    r = stub.ScoreBatch(pb2.ScoreBatchRequest(ruleset="sichuan", items=items), timeout=10)
    assert [o.id for o in r.outcomes] == [i.id for i in items]
    assert r.outcomes[5].WhichOneof("outcome") == "error"
    assert (r.outcomes[5].error.code, r.outcomes[5].error.field) == ("not_a_win", "hand")
    assert r.outcomes[9].error.code == "bad_tile" and r.outcomes[9].error.field == "win_tile"
    good = [o for o in r.outcomes if o.WhichOneof("outcome") == "result"]
    assert len(good) == 30
    values = [o.result.value for o in good]
    assert values == [0, 3, 2] * 10
    summary = stub.ScoreBatch(pb2.ScoreBatchRequest(ruleset="sichuan", items=_items(3), summary_only=True))
    assert summary.outcomes[0].result.value == 0 and not summary.outcomes[0].result.payments
    assert not summary.outcomes[0].result.HasField("decomposition")


def test_score_batch_cap(stub: pb2_grpc.MahjongRulesStub) -> None:
    items = [
        pb2.ScoreItem(id=str(i), hand=hand("55p"), win_tile=tile("5p")) for i in range(MAX_BATCH_ITEMS + 1)
    ]
    with pytest.raises(grpc.RpcError) as ei:
        stub.ScoreBatch(pb2.ScoreBatchRequest(ruleset="sichuan", items=items), timeout=20)
    assert ei.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert rich(ei.value)[:2] == ("too_many_items", "items")


def test_score_stream_one_response_per_message_in_order(stub: pb2_grpc.MahjongRulesStub) -> None:
    msgs = [pb2.ScoreStreamRequest(ruleset="sichuan", items=_items(n)) for n in (1, 7, 0, 50, 3)]
    for i, m in enumerate(msgs):
        for it in m.items:
            it.id = f"m{i}-{it.id}"
    replies = list(stub.ScoreStream(iter(msgs), timeout=20))
    assert len(replies) == len(msgs)
    for m, r in zip(msgs, replies, strict=True):
        assert [o.id for o in r.outcomes] == [i.id for i in m.items]
        assert all(o.WhichOneof("outcome") == "result" for o in r.outcomes)


def test_score_stream_error_in_message(stub: pb2_grpc.MahjongRulesStub) -> None:
    msgs = [
        pb2.ScoreStreamRequest(ruleset="sichuan", items=_items(2)),
        pb2.ScoreStreamRequest(items=_items(2), ruleset="nosuch"),
    ]
    it = stub.ScoreStream(iter(msgs), timeout=20)
    first = next(it)
    assert len(first.outcomes) == 2
    with pytest.raises(grpc.RpcError) as ei:
        next(it)
    assert ei.value.code() == grpc.StatusCode.NOT_FOUND
