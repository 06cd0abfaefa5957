"""Every worked case of every rule set (tests/cases/*.jsonl, written from the rules text) over a
real server, as a unary Score and as a one-item ScoreBatch: the patterns the case expects (or
its error code), never INTERNAL, and the engine's decomposition (a standard shape's split;
none for a special shape such as 七对), Hangzhou's with its wilds placed included."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import grpc
import pytest
from svc_helpers import hand, tile

from mjcore import rules
from service import convert as cv
from service.errors import decode_details
from service.pb import pb2, pb2_grpc

CASES_DIR = Path(__file__).resolve().parents[1] / "cases"
CASES: list[dict[str, Any]] = [
    json.loads(line)
    for name in sorted(rules.list_rulesets())
    for line in (CASES_DIR / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
    if line.strip()
]


def _tiles(text: str) -> list[str]:
    """Tiles text ("37f", "55p19m") as one text per tile: a TileList on the wire."""
    return [rank + suit for ranks, suit in re.findall(r"(\d+)([mpszf])", text) for rank in ranks]


def _item(case: dict[str, Any]) -> pb2.ScoreItem:
    item = pb2.ScoreItem(id=case["id"], hand=hand(case["hand"]), win_tile=tile(case["win_tile"]))
    item.self_drawn = case["self_drawn"]
    if case["context"]:
        typed = getattr(item.context, case["ruleset"])
        typed.SetInParent()
        fields = typed.DESCRIPTOR.fields_by_name
        values = {
            k: _tiles(v) if isinstance(v, str) and fields[k].message_type is pb2.TileList.DESCRIPTOR else v
            for k, v in case["context"].items()
        }
        cv.fill(typed, values)
    return item


def _options(case: dict[str, Any]) -> pb2.RulesetOptions | None:
    values = dict(case["options"])
    if not values:
        return None
    out = pb2.RulesetOptions(preset=values.pop("preset", ""))
    typed = getattr(out, case["ruleset"])
    typed.SetInParent()
    cv.fill(typed, values)
    return out


def _want(case: dict[str, Any]) -> tuple[str, list[list[Any]] | None]:
    """(error code or "", sorted [id, value] patterns or None when the case leaves them open)."""
    expected = case["expected"]
    if "error" in expected:
        return expected["error"].split(":")[0], None
    if expected.get("patterns_ambiguous"):
        return "", None
    return "", sorted(expected["patterns"])


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case_over_the_wire(stub: pb2_grpc.MahjongRulesStub, case: dict[str, Any]) -> None:
    item, options = _item(case), _options(case)
    code, patterns = _want(case)
    unary = pb2.ScoreRequest(
        ruleset=case["ruleset"], hand=item.hand, win_tile=item.win_tile, self_drawn=item.self_drawn
    )
    if item.HasField("context"):
        unary.context.CopyFrom(item.context)
    batch = pb2.ScoreBatchRequest(ruleset=case["ruleset"], items=[item])
    if options is not None:
        unary.options.CopyFrom(options)
        batch.options.CopyFrom(options)
    outcome = stub.ScoreBatch(batch, timeout=10).outcomes[0]
    if code:
        with pytest.raises(grpc.RpcError) as ei:
            stub.Score(unary, timeout=10)
        assert ei.value.code() == grpc.StatusCode.INVALID_ARGUMENT, ei.value.details()
        details = decode_details(ei.value)
        assert details is not None and details[0] == code, case["why"]
        assert outcome.WhichOneof("outcome") == "error" and outcome.error.code == code
        return
    result = stub.Score(unary, timeout=10).result
    assert outcome.result == result  # the two paths agree
    if patterns is not None:
        assert sorted([p.id, p.value] for p in result.patterns) == patterns, case["why"]
    engine = rules.score(case["hand"], win_tile=case["win_tile"], self_drawn=case["self_drawn"],
                         ruleset=case["ruleset"], context=case["context"] or None,
                         options={k: v for k, v in case["options"].items() if k != "preset"} or None,
                         preset=case["options"].get("preset"))
    d = engine.decomposition
    if isinstance(d, str):
        assert not result.HasField("decomposition")
    else:
        got = result.decomposition
        assert (got.pair_tile_id, list(got.chow_tile_ids), list(got.pung_tile_ids)) == (
            d.pair, list(d.chows), list(d.pungs))


def test_settle_notes_are_filled(stub: pb2_grpc.MahjongRulesStub) -> None:
    """SettleResponse.notes carries the rule set's notes: Taiwan's 連莊 when the dealer wins
    (TW-06, the dealer's self-draw, as a one-event log)."""
    case = next(c for c in CASES if c["id"] == "TW-06")
    item = _item(case)
    win = pb2.WinEvent(seat=0, hand=item.hand, win_tile=item.win_tile, self_drawn=True, context=item.context)
    r = stub.Settle(
        pb2.SettleRequest(ruleset="taiwan", events=[pb2.Event(win=win)], dealer_seat=0), timeout=10
    )
    assert r.winner_seats == [0] and r.next_dealer_seat == 0
    assert any("連莊" in n for n in r.notes), r.notes


def test_settle_dealer_streak_in_and_out(stub: pb2_grpc.MahjongRulesStub) -> None:
    """taiwan.md §2: the deal kept, the streak grows by one. SettleResponse.next_dealer_streak
    gives the next hand's (TW-06, the dealer's self-draw on a streak of 1 in its context: 2);
    SettleRequest.dealer_streak gives the streak at the hand's start (2: D = 5 instead of 3 on
    each payment, next 3), and must agree with a win's context; past the bound it names its
    field. Other rule sets leave the reply's field unset."""
    case = next(c for c in CASES if c["id"] == "TW-06")
    item = _item(case)
    win = pb2.WinEvent(seat=0, hand=item.hand, win_tile=item.win_tile, self_drawn=True, context=item.context)
    req = pb2.SettleRequest(ruleset="taiwan", events=[pb2.Event(win=win)], dealer_seat=0)
    plain = stub.Settle(req, timeout=10)
    assert plain.HasField("next_dealer_streak") and plain.next_dealer_streak == 2
    for bad, field in ((2, "events[0].win"), (10_001, "dealer_streak")):  # (the context says 1)
        req.dealer_streak = bad
        with pytest.raises(grpc.RpcError) as err:
            stub.Settle(req, timeout=10)
        assert err.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        details = decode_details(err.value)
        assert details is not None and details[:2] == ("bad_event", field), details
    req.events[0].win.context.taiwan.ClearField("dealer_streak")
    req.dealer_streak = 2
    r = stub.Settle(req, timeout=10)
    assert r.next_dealer_streak == 3
    assert [p.amount - q.amount for p, q in zip(r.payments, plain.payments, strict=True)] == [20] * 3
    win = pb2.WinEvent(seat=1, hand=hand("123m456m789m234p55p"), win_tile=tile("5p"),
                       discarder_seat=0)
    sc = pb2.SettleRequest(ruleset="sichuan", events=[pb2.Event(win=win)], dealer_streak=4)
    assert not stub.Settle(sc, timeout=10).HasField("next_dealer_streak")
