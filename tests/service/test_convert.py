"""The fast conversions (cached summary bytes, encoded decompositions, cached wait entries,
ListFields contexts, the bulk short path) give exactly what the plain message API gives."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from mjcore import Decomposition, Hand, rules, tile_from_text
from service import convert as cv
from service import loadtest as lt
from service.errors import FieldError
from service.pb import pb2
from service.servicer import MahjongRulesServicer

RS = rules.get_ruleset("sichuan")
OPTIONS = RS.resolve_options()


def _reference_result(r: Any, summary_only: bool = False) -> pb2.ScoreResult:
    """Field by field through the message API (what the service did before)."""
    out = pb2.ScoreResult(
        fan=r.fan,
        multiplier=r.multiplier,
        fan_uncapped=r.fan_uncapped,
        shape=r.shape,
        amount_per_payer=r.amount,
    )
    for p in r.patterns:
        out.patterns.add(id=p.id, fan=p.fan, name=p.name)
    if summary_only:
        return out
    d = r.decomposition
    if d is not None and not isinstance(d, str):
        out.decomposition.pair_tile_id = d.pair
        out.decomposition.chow_tile_ids.extend(d.chows)
        out.decomposition.pung_tile_ids.extend(d.pungs)
    for frm, to, amount in r.payments:
        out.payments.add(from_seat=frm, to_seat=to, amount=amount, reason="win", event_index=-1)
    if r.payments:
        out.total = sum(a for _, _, a in r.payments)
    return out


def _hands(n: int) -> list[tuple[str, str, str]]:
    hands = lt.distinct_hands(random.Random(5), n, set())
    hands += [
        ("11m33m55m22p44p66p88p", "8p", "s"),  # seven pairs: no decomposition
        ("11112222333344m", "4m", "p"),  # four-of-a-kind in seven pairs / pungs
        ("111m999m111p999p11s", "1s", "s"),
        ("123m123m123m123m55m", "5m", "p"),
    ]
    return hands


@pytest.mark.parametrize("summary_only", [False, True])
def test_score_result_bytes_match_message_api(summary_only: bool) -> None:
    seen = 0
    for i, (text, win, _) in enumerate(_hands(400)):
        ctx: dict[str, object] | None = None
        if i % 3 == 1:
            ctx = {"winner": i % 4, "discarder": (i + 1) % 4, "active_seats": (0, 1, 2, 3)}
        self_drawn = i % 3 == 2
        if self_drawn:
            ctx = {"winner": i % 4, "active_seats": (0, 1, 2, 3), "after_kong": True}
        try:
            r = RS.engine.score(text, win, self_drawn, ctx, OPTIONS)
        except Exception:  # noqa: BLE001 - a random hand the rule set refuses
            continue
        got = pb2.ScoreResult.FromString(cv.score_result_bytes(r, summary_only))
        want = _reference_result(r, summary_only)
        assert got == want, (text, win)
        assert got.SerializeToString(deterministic=True) == want.SerializeToString(deterministic=True)
        assert got.HasField("decomposition") == want.HasField("decomposition")
        seen += 1
    assert seen > 300


def test_decomposition_bytes_edge_values() -> None:
    for d in [
        (0, (), ()),
        (33, (0, 6, 18, 24), ()),
        (26, (), (0, 9, 18, 33)),
        (5, (1, 1, 1, 1), ()),
    ]:
        value = Decomposition(*d)
        msg = pb2.ScoreResult()
        msg.MergeFromString(cv.decomposition_bytes(value))
        assert msg.HasField("decomposition")
        assert msg.decomposition.pair_tile_id == value.pair
        assert tuple(msg.decomposition.chow_tile_ids) == value.chows
        assert tuple(msg.decomposition.pung_tile_ids) == value.pungs


def _reference_context(msg: pb2.WinContext, field: str = "context") -> dict[str, object]:
    """context_of as it was: every field read."""
    ctx: dict[str, object] = {}
    for name in ("after_kong", "after_kong_discard", "robbing_kong", "last_tile", "heavenly", "earthly"):
        if getattr(msg, name):
            ctx[name] = True
    suit = {pb2.SUIT_M: "m", pb2.SUIT_P: "p", pb2.SUIT_S: "s"}.get(msg.missing_suit)
    if suit is not None:
        ctx["missing_suit"] = suit
    if msg.winner_seat or msg.HasField("discarder_seat") or msg.won_seats or msg.HasField("kong_feeder_seat"):
        if msg.winner_seat > 3:
            raise FieldError(f"{field}.winner_seat", "bad_context", "seat")
        ctx["winner"] = msg.winner_seat
        if msg.HasField("discarder_seat"):
            ctx["discarder"] = msg.discarder_seat
        won = set(msg.won_seats)
        if any(s > 3 for s in won):
            raise FieldError(f"{field}.won_seats", "bad_context", "seat")
        ctx["active_seats"] = tuple(s for s in range(4) if s not in won)
        if msg.HasField("kong_feeder_seat"):
            ctx["kong_feeder"] = msg.kong_feeder_seat
    return ctx


def test_context_of_matches_reading_every_field() -> None:
    rng = random.Random(3)
    flags = ("after_kong", "after_kong_discard", "robbing_kong", "last_tile", "heavenly", "earthly")
    cases = [pb2.WinContext(), pb2.WinContext(discarder_seat=0), pb2.WinContext(winner_seat=5)]
    for _ in range(500):
        m = pb2.WinContext()
        for f in flags:
            if rng.random() < 0.2:
                setattr(m, f, True)
        if rng.random() < 0.4:
            m.missing_suit = rng.choice([pb2.SUIT_M, pb2.SUIT_P, pb2.SUIT_S])
        if rng.random() < 0.5:
            m.winner_seat = rng.randrange(5)
        if rng.random() < 0.5:
            m.discarder_seat = rng.randrange(4)
        if rng.random() < 0.3:
            m.won_seats.extend(rng.sample(range(5), rng.randrange(3)))
        if rng.random() < 0.3:
            m.kong_feeder_seat = rng.randrange(4)
        cases.append(m)
    for m in cases:
        try:
            want: Any = _reference_context(m)
        except FieldError as e:
            want = ("error", e.field, e.code)
        try:
            got: Any = cv.context_of(m)
        except FieldError as e:
            got = ("error", e.field, e.code)
        assert got == want, str(m)
        if isinstance(got, dict):  # same key order: the engine memoizes on the items
            assert list(got) == list(want)


def test_waits_response_matches_message_api() -> None:
    for text, win, _ in _hands(200):
        ready = lt._minus(text, win)
        waits = RS.engine.valued_waits(ready, None, OPTIONS, None)
        want = pb2.WaitsResponse(waits=[cv.wait_pb(w) for w in waits])
        want.max_discard_fan = max((w.fan_discard for w in waits), default=-1)
        assert cv.waits_response(waits) == want
        assert cv.waits_response(waits) == want  # from the cache too


class _Ctx:
    def time_remaining(self) -> float | None:
        return None


def test_bulk_short_path_equals_general_path() -> None:
    """The same hands as text + tile text (short path) and structured + tile id (general
    path) give the same outcomes; errors come out of the general path as before."""
    svc = MahjongRulesServicer()
    hands = _hands(150)
    fast, slow = [], []
    for i, (text, win, _) in enumerate(hands):
        ctx = pb2.WinContext(winner_seat=1, discarder_seat=2) if i % 2 else None
        h = pb2.Hand(text=text)
        fast.append(pb2.ScoreItem(id=f"f{i}", hand=h, win_tile=pb2.Tile(text=win), context=ctx))
        parsed = Hand.parse(text)
        ids = [t for t in range(34) for _ in range(parsed.counts[t])]
        structured = pb2.Hand(structured=pb2.StructuredHand(concealed_tile_ids=ids))
        slow.append(
            pb2.ScoreItem(id=f"f{i}", hand=structured, win_tile=pb2.Tile(id=tile_from_text(win)), context=ctx)
        )
    bad = [
        pb2.ScoreItem(id="e1", hand=pb2.Hand(text="123m456p789s234m55p"), win_tile=pb2.Tile(text="5p")),
        pb2.ScoreItem(id="e2", hand=pb2.Hand(text="123m"), win_tile=pb2.Tile(text="9z")),
        pb2.ScoreItem(id="e3", hand=pb2.Hand(text="123m456m789m234p55p")),
        pb2.ScoreItem(id="e4", hand=pb2.Hand(text="123m456m789m234p55x"), win_tile=pb2.Tile(text="5p")),
        pb2.ScoreItem(
            id="e5",
            hand=pb2.Hand(text="123m456m789m234p55p"),
            win_tile=pb2.Tile(text="5p"),
            context=pb2.WinContext(winner_seat=7),
        ),
    ]
    call: Any = _Ctx()
    a = pb2.ScoreBatchResponse.FromString(
        svc.ScoreBatch(pb2.ScoreBatchRequest(items=fast + bad).SerializeToString(), call)
    )
    b = pb2.ScoreBatchResponse.FromString(
        svc.ScoreBatch(pb2.ScoreBatchRequest(items=slow).SerializeToString(), call)
    )
    for x, y in zip(a.outcomes[: len(slow)], b.outcomes, strict=True):
        assert x == y
    errors = {o.id: (o.error.code, o.error.field) for o in a.outcomes[len(slow) :]}
    assert errors["e1"] == ("not_a_win", "hand")
    assert errors["e2"] == ("bad_tile", "win_tile")
    assert errors["e3"] == ("bad_tile", "win_tile")
    assert errors["e4"][1] == "hand.text"
    assert errors["e5"] == ("bad_context", "context.winner_seat")


def test_loadtest_workload_and_refusals() -> None:
    wl = lt.build_workload(3000, 500, cold_pool=1000)
    texts = {pb2.ScoreRequest.FromString(b).hand.text for b in wl.score}
    assert len(texts) == 3000  # distinct hands
    bulk = [pb2.ScoreBatchRequest.FromString(b) for b in wl.batch]
    assert len(bulk) == 6 and {len(m.items) for m in bulk} == {500}
    bulk_texts = {it.hand.text for m in bulk for it in m.items}
    assert bulk_texts == texts  # the messages split the pool: no hand twice
    cold_texts = {it.hand.text for b in wl.cold for it in pb2.ScoreBatchRequest.FromString(b).items}
    assert len(cold_texts) == 1000 and not cold_texts & texts
    with pytest.raises(SystemExit):
        lt._check_target("10.0.0.5:50051")
    lt._check_target("127.0.0.1:50051")


def test_loadtest_short_run_against_baseline(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--seconds", "0.3", "--pool", "2000", "--batch", "100", "--scenarios", "score,stream", "--json"]
    assert lt.main(argv) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    by = {r["scenario"]: r for r in rows}
    assert set(by) == {"score/service", "score/baseline", "stream/service", "stream/baseline"}
    for r in rows:
        assert r["errors"] == {} and r["calls"] > 0 and r["server_cpu_us_per_item"] is not None
    assert by["score/service"]["vs_baseline"] > 0
    # the baseline's replies are about the size of the service's
    for s in ("score", "stream"):
        ours, base = by[f"{s}/service"]["reply_bytes_per_item"], by[f"{s}/baseline"]["reply_bytes_per_item"]
        assert 0.7 < base / ours < 1.4
