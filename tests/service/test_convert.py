"""The fast conversions (cached summary bytes, encoded decompositions, cached wait entries,
ListFields contexts, the bulk short path) give exactly what the plain message API gives."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterator
from concurrent import futures
from fractions import Fraction
from typing import Any

import grpc
import pytest

from mjcore import Decomposition, Hand, rules, tile_from_text
from mjcore.rules.common.options import OptionResolver
from service import convert as cv
from service import loadtest as lt
from service import protogen
from service.errors import FieldError
from service.pb import pb2
from service.servicer import MahjongRulesServicer

RS = rules.get_ruleset("sichuan")
OPTIONS = RS.resolve_options()


_UNITS = {"fan": pb2.VALUE_UNIT_FAN, "points": pb2.VALUE_UNIT_POINTS,
          "multiplier": pb2.VALUE_UNIT_MULTIPLIER, "tai": pb2.VALUE_UNIT_TAI}


def _reference_result(r: Any, summary_only: bool = False) -> pb2.ScoreResult:
    """Field by field through the message API."""
    out = pb2.ScoreResult(
        value=r.value,
        multiplier=r.multiplier,
        value_uncapped=r.value_uncapped,
        shape=r.shape,
        unit=_UNITS[r.unit],  # type: ignore[arg-type]
        liable=r.liable,
    )
    if r.liable_seat >= 0:
        out.liable_seat = r.liable_seat
    for p in r.patterns:
        out.patterns.add(id=p.id, value=p.fan, name=p.name)
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
        (31, (0, 3, 6, 9, 12), ()),  # 16-tile games have five sets
        (8, (0, 9), (18, 27, 28)),
    ]:
        value = Decomposition(*d)
        msg = pb2.ScoreResult()
        msg.MergeFromString(cv.decomposition_bytes(value))
        assert msg.HasField("decomposition")
        assert msg.decomposition.pair_tile_id == value.pair
        assert tuple(msg.decomposition.chow_tile_ids) == value.chows
        assert tuple(msg.decomposition.pung_tile_ids) == value.pungs
    for bad in [(128, (), ()), (0, (1,) * 9, ()), (0, (), (200,)), (0, (-1,), ())]:
        with pytest.raises(ValueError):
            cv.decomposition_bytes(Decomposition(*bad))


_SUIT_TEXT = {pb2.SUIT_M: "m", pb2.SUIT_P: "p", pb2.SUIT_S: "s"}
_WIND_TEXT = {pb2.WIND_EAST: "1z", pb2.WIND_SOUTH: "2z", pb2.WIND_WEST: "3z", pb2.WIND_NORTH: "4z"}
_REL_TEXT = {pb2.RELATIVE_SEAT_LEFT: "left", pb2.RELATIVE_SEAT_ACROSS: "across",
             pb2.RELATIVE_SEAT_RIGHT: "right"}


def _reference_context(msg: pb2.WinContext, ruleset: str = "sichuan") -> dict[str, object]:
    """context_of spelled out per rule set and key, in field order (not by descriptor)."""
    which = msg.WhichOneof("context")
    if which is None:
        return {}
    if which != ruleset:
        raise FieldError(f"context.{which}", "bad_context", "another rule set's context")
    ctx: dict[str, object] = {}
    if which == "sichuan":
        c = msg.sichuan
        for name in ("after_kong", "after_kong_discard", "robbing_kong", "last_tile", "heavenly", "earthly"):
            if c.HasField(name):
                ctx[name] = getattr(c, name)
        if c.missing_suit:
            if c.missing_suit not in _SUIT_TEXT:
                raise FieldError("context.sichuan.missing_suit", "bad_context", "suit")
            ctx["missing_suit"] = _SUIT_TEXT[c.missing_suit]
        for name in ("winner", "discarder"):
            if c.HasField(name):
                ctx[name] = getattr(c, name)
        if c.HasField("active_seats"):
            ctx["active_seats"] = tuple(None if s == -1 else s for s in c.active_seats.seats)
        if c.HasField("kong_feeder"):
            ctx["kong_feeder"] = c.kong_feeder
        return ctx
    g = msg.guangdong
    for name in ("seat_wind", "round_wind"):
        if getattr(g, name):
            ctx[name] = _WIND_TEXT[getattr(g, name)]
    keys = [("winner", "seat"), ("discarder", "rel"), ("qiang_gang", "flag"), ("robbed", "rel"),
            ("gang_shang_kai_hua", "flag"), ("gang_fed_by", "rel"), ("hai_di_lao_yue", "flag"),
            ("winners_on_discard", "int"), ("tianhe", "flag"), ("renhe", "flag"), ("dihe", "flag")]
    for name, kind in keys:
        if kind == "rel":
            if getattr(g, name):
                ctx[name] = _REL_TEXT[getattr(g, name)]
        elif g.HasField(name):
            ctx[name] = getattr(g, name)
    if g.HasField("meld_from"):
        ctx["meld_from"] = tuple(_REL_TEXT.get(s) for s in g.meld_from.seats)
    if g.HasField("bao_exempt"):
        ctx["bao_exempt"] = g.bao_exempt
    return ctx


def random_sichuan_context(rng: random.Random) -> pb2.SichuanContext:
    m = pb2.SichuanContext()
    for f in ("after_kong", "after_kong_discard", "robbing_kong", "last_tile", "heavenly", "earthly"):
        if rng.random() < 0.2:
            setattr(m, f, rng.random() < 0.8)
    if rng.random() < 0.4:
        m.missing_suit = rng.choice([pb2.SUIT_M, pb2.SUIT_P, pb2.SUIT_S])
    if rng.random() < 0.5:
        m.winner = rng.randrange(5)
    if rng.random() < 0.5:
        m.discarder = rng.randrange(4)
    if rng.random() < 0.3:
        m.active_seats.seats.extend(rng.sample(range(4), rng.randrange(5)))
    if rng.random() < 0.3:
        m.kong_feeder = rng.randrange(4)
    return m


def random_guangdong_context(rng: random.Random) -> pb2.GuangdongContext:
    m = pb2.GuangdongContext()
    winds = list(_WIND_TEXT)
    rels = list(_REL_TEXT)
    if rng.random() < 0.9:
        m.seat_wind = rng.choice(winds)
    if rng.random() < 0.9:
        m.round_wind = rng.choice(winds)
    if rng.random() < 0.5:
        m.winner = rng.randrange(4)
    for name in ("discarder", "robbed", "gang_fed_by"):
        if rng.random() < 0.3:
            setattr(m, name, rng.choice(rels))
    flags = ("qiang_gang", "gang_shang_kai_hua", "hai_di_lao_yue", "tianhe", "renhe", "dihe", "bao_exempt")
    for name in flags:
        if rng.random() < 0.1:
            setattr(m, name, rng.random() < 0.7)
    if rng.random() < 0.2:
        m.winners_on_discard = rng.randrange(1, 4)
    if rng.random() < 0.3:
        m.meld_from.seats.extend(rng.choice([0, *rels]) for _ in range(rng.randrange(5)))
    return m


def test_context_of_matches_reading_every_field() -> None:
    rng = random.Random(3)
    cases = [pb2.WinContext(), pb2.WinContext(sichuan=pb2.SichuanContext(discarder=0)),
             pb2.WinContext(sichuan=pb2.SichuanContext(winner=5)),
             pb2.WinContext(sichuan=pb2.SichuanContext(missing_suit=7))]  # type: ignore[arg-type]
    for _ in range(500):
        cases.append(pb2.WinContext(sichuan=random_sichuan_context(rng)))
        cases.append(pb2.WinContext(guangdong=random_guangdong_context(rng)))
    for ruleset in ("sichuan", "guangdong"):
        for m in cases:
            try:
                want: Any = _reference_context(m, ruleset)
            except FieldError as e:
                want = ("error", e.field, e.code)
            try:
                got: Any = cv.context_of(m, ruleset)
            except FieldError as e:
                got = ("error", e.field, e.code)
            assert got == want, str(m)
            if isinstance(got, dict):  # same key order: the engine memoizes on the items
                assert list(got) == list(want)


def _random_value(spec: Any, rng: random.Random) -> object:
    """A valid engine value of an option."""
    if spec.kind == "bool":
        return rng.random() < 0.5
    if spec.none_allowed and rng.random() < 0.3:
        return None
    if spec.kind == "enum":
        return rng.choice(spec.choices)
    if spec.kind == "int":
        if spec.none_allowed and rng.random() < 0.3:
            return None
        return rng.randint(spec.minimum or 0, spec.maximum if spec.maximum is not None else 10**6)
    if spec.kind == "int_list":
        items = sorted(rng.randint(spec.minimum or 0, spec.maximum or 10**6) for _ in range(spec.length or 3))
        return tuple(items)
    den = rng.randrange(1, 5)
    top = den * (spec.maximum if spec.maximum is not None else 4)
    return Fraction(rng.randrange(0, top + 1), den)


@pytest.mark.parametrize("ruleset", protogen.WIRE_RULESETS)
def test_typed_options_round_trip(ruleset: str) -> None:
    """Every option of every rule set on the wire goes engine value -> message -> engine value
    unchanged, and the engine resolves what the message says."""
    d = protogen.declared(ruleset)
    rng = random.Random(ruleset)
    msg_cls = getattr(pb2, f"{protogen.camel(ruleset)}Options")
    for _ in range(200):
        values = {s.name: _random_value(s, rng) for s in d.options.specs() if rng.random() < 0.5}
        msg = cv.fill(msg_cls(), values)
        back = cv.typed_dict(msg_cls.FromString(msg.SerializeToString()), "bad_option", "options")
        assert {k: (Fraction(*v) if isinstance(v, tuple) and isinstance(values[k], Fraction) else v)
                for k, v in back.items()} == values
        resolver = OptionResolver(ruleset, d.options, {})
        resolved = resolver.resolve(back)
        for name, value in values.items():
            assert getattr(resolved, name) == value, name


def random_typed(msg: Any, rng: random.Random, p: float = 0.5) -> Any:
    """Set about ``p`` of the fields of a rule set's typed message at random, by field type."""
    for fd in msg.DESCRIPTOR.fields:
        if rng.random() > p:
            continue
        if fd.enum_type is not None:
            setattr(msg, fd.name, rng.choice([v.number for v in fd.enum_type.values if v.number]))
        elif fd.message_type is None:
            value: Any
            if fd.type == fd.TYPE_BOOL:
                value = rng.random() < 0.5
            elif fd.type == fd.TYPE_STRING:
                value = rng.choice(["tian", "declared", "flower"])
            else:
                value = rng.randrange(4)
            setattr(msg, fd.name, value)
        else:
            sub = getattr(msg, fd.name)
            sub.SetInParent()
            kind = fd.message_type.name
            n = rng.randrange(5)
            if kind == "SeatList":
                sub.seats.extend(rng.choice([-1, 0, 1, 2, 3]) for _ in range(n))
            elif kind == "RelativeSeatList":
                sub.seats.extend(rng.randrange(4) for _ in range(n))  # type: ignore[misc]
            elif kind == "IntList":
                sub.values.extend(rng.randrange(100) for _ in range(n))
            elif kind == "IntOrNone" and rng.random() < 0.7:
                sub.value = rng.randrange(1, 14)
            elif kind == "Tile":
                _random_tile(sub, rng)
            elif kind == "TileList":
                for _ in range(n):
                    _random_tile(sub.tiles.add(), rng)
            elif kind == "RelativeSeatCounts":
                for seat in ("left", "across", "right"):
                    if rng.random() < 0.5:
                        setattr(sub, seat, rng.randrange(5))
            elif kind == "RelativeSeatMelds":
                for seat in ("left", "across", "right"):
                    if rng.random() < 0.5:
                        setattr(sub, seat, rng.choice(["", "peng:111s", "angang:2222p chi:123m"]))
            elif kind == "TextList":
                sub.values.extend(rng.choice(["", "peng:111s"]) for _ in range(n))
    return msg


def _random_tile(tile: Any, rng: random.Random) -> None:
    if rng.random() < 0.5:
        tile.text = rng.choice(["5p", "1z", "3f", "9m"])
    else:
        tile.id = rng.randrange(42)


@pytest.mark.parametrize("ruleset", protogen.WIRE_RULESETS)
def test_view_and_context_round_trip(ruleset: str) -> None:
    """Every typed context and view message reads as engine values that write back as the
    same message (by field name, whatever the field's type)."""
    d = protogen.declared(ruleset)
    rng = random.Random(7)
    ctx_cls = getattr(pb2, f"{protogen.camel(ruleset)}Context")
    view_cls = getattr(pb2, f"{protogen.camel(ruleset)}View") if d.view is not None else None
    for _ in range(300):
        for cls in (ctx_cls, view_cls):
            if cls is None:
                continue
            msg = random_typed(cls(), rng)
            values = cv.typed_dict(msg, "bad_context", "context")
            assert cv.fill(cls(), values) == msg, str(msg)
    if d.view is not None:  # the view's defaults survive the trip
        assert view_cls is not None
        default = d.view()
        values = {f.name: getattr(default, f.name) for f in dataclasses.fields(d.view)}
        msg = cv.fill(view_cls(), {k: v for k, v in values.items() if v is not None})
        assert d.view(**cv.typed_dict(msg, "bad_state", "state")) == default


def test_unknown_enum_numbers_are_refused_with_the_field() -> None:
    opts = pb2.SichuanOptions(zimo_bonus=9)  # type: ignore[arg-type]
    with pytest.raises(FieldError) as e:
        cv.typed_dict(opts, "bad_option", "options.sichuan")
    assert (e.value.field, e.value.code) == ("options.sichuan.zimo_bonus", "bad_option")
    ctx = pb2.GuangdongContext(meld_from=pb2.RelativeSeatList(seats=[1, 8]))  # type: ignore[list-item]
    with pytest.raises(FieldError) as e:
        cv.typed_dict(ctx, "bad_context", "context.guangdong")
    assert e.value.field == "context.guangdong.meld_from.seats[1]"


def test_waits_response_matches_message_api() -> None:
    for text, win, _ in _hands(200):
        ready = lt._minus(text, win)
        waits = RS.engine.valued_waits(ready, None, OPTIONS, None)
        want = pb2.WaitsResponse(waits=[cv.wait_pb(w) for w in waits])
        want.max_discard_value = max((w.fan_discard for w in waits), default=-1)
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
        ctx = pb2.WinContext(sichuan=pb2.SichuanContext(winner=1, discarder=2)) if i % 2 else None
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
            context=pb2.WinContext(sichuan=pb2.SichuanContext(winner=7)),
        ),
        pb2.ScoreItem(
            id="e6",
            hand=pb2.Hand(text="123m456m789m234p55p"),
            win_tile=pb2.Tile(text="5p"),
            context=pb2.WinContext(guangdong=pb2.GuangdongContext()),
        ),
    ]
    call: Any = _Ctx()
    a = pb2.ScoreBatchResponse.FromString(
        svc.ScoreBatch(pb2.ScoreBatchRequest(ruleset="sichuan", items=fast + bad).SerializeToString(), call)
    )
    b = pb2.ScoreBatchResponse.FromString(
        svc.ScoreBatch(pb2.ScoreBatchRequest(ruleset="sichuan", items=slow).SerializeToString(), call)
    )
    for x, y in zip(a.outcomes[: len(slow)], b.outcomes, strict=True):
        assert x == y
    errors = {o.id: (o.error.code, o.error.field) for o in a.outcomes[len(slow) :]}
    assert errors["e1"] == ("not_a_win", "hand")
    assert errors["e2"] == ("bad_tile", "win_tile")
    assert errors["e3"] == ("bad_tile", "win_tile")
    assert errors["e4"][1] == "hand.text"
    assert errors["e5"] == ("bad_context", "context.sichuan.winner")  # the engine's check: seat 0-3
    assert errors["e6"] == ("bad_context", "context.guangdong")


def test_loadtest_workload_and_refusals() -> None:
    wl = lt.build_workload(3000, 500, cold_pool=1000, cold_stream_pool=1000)
    texts = {pb2.ScoreRequest.FromString(b).hand.text for b in wl.score}
    assert len(texts) == 3000  # distinct hands
    bulk = [pb2.ScoreBatchRequest.FromString(b) for b in wl.batch]
    assert len(bulk) == 6 and {len(m.items) for m in bulk} == {500}
    bulk_texts = {it.hand.text for m in bulk for it in m.items}
    assert bulk_texts == texts  # the messages split the pool: no hand twice
    cold_texts = {it.hand.text for b in wl.cold for it in pb2.ScoreBatchRequest.FromString(b).items}
    assert len(cold_texts) == 1000 and not cold_texts & texts
    stream_texts = {it.hand.text for b in wl.cold_stream for it in pb2.ScoreStreamRequest.FromString(b).items}
    assert len(stream_texts) == 1000 and not stream_texts & (texts | cold_texts)
    with pytest.raises(SystemExit):
        lt._check_target("10.0.0.5:50051")
    lt._check_target("127.0.0.1:50051")


def test_loadtest_cold_stream_sends_each_message_once() -> None:
    """stream-cold: the streams share one walk, so no message (no hand) reaches the server twice."""
    seen: list[bytes] = []

    def serve(it: Iterator[bytes], context: grpc.ServicerContext) -> Iterator[bytes]:
        for data in it:
            seen.append(data)
            yield b""

    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    handler = grpc.stream_stream_rpc_method_handler(serve)
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler("mahjong.v1.MahjongRules", {"ScoreStream": handler}),)
    )
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        payloads = [bytes([i]) for i in range(40)]
        with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
            r = lt.run_stream(ch, "x", payloads, 1, 3, 2, 10.0, len(payloads), once=True)
    finally:
        server.stop(0)
    assert r.calls == 40 and sorted(seen) == payloads


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
