"""The service answers what the library answers: every RPC on a real server (127.0.0.1, port
0) against ``mjcore.rules`` for the same question, every rule set on the wire.

Questions: the random legal hands, win contexts, options, views and logs of
tests/rules/test_waits_match_score.py and test_settle_moves_match_score.py (hands as text or
structured, tiles as text or id, presets now and then), plus hostile ones (a context key, an
option, a view field or a hand made out of range). Each question is put to the library with
the engine's values and to the service as the proto message the docs map to them (built here
by field type, not with ``service.convert``); the answers must be equal: values, patterns,
payments, liability, decomposition; waits with unseen; move checks with their codes; legal
moves; ledgers. A library error must be INVALID_ARGUMENT with the same reason (ErrorInfo).
``ScoreBatch``/``ScoreStream`` answer each item as ``Score`` does; ``DescribeRuleset`` and
``ListRulesets`` say what ``describe()`` and the registry say.

Seeded (``MAHJONG_FUZZ_SEED`` varies it); ``MJ_FUZZ_N`` sizes it (questions per rule set and
RPC: a two-hundredth, at least 20)."""

# ruff: noqa: B023  (each lambda is called at once, in its own iteration)
from __future__ import annotations

import dataclasses
import json
import os
import random
import sys
from collections.abc import Callable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import grpc
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rules"))

from test_settle_moves_match_score import _log, _view, _win_sample  # noqa: E402
from test_waits_match_score import _ready, _sample, _visible, _wild_of  # noqa: E402

from mjcore import Hand, MahjongError, rules, tile_to_text  # noqa: E402
from mjcore import table as tb  # noqa: E402
from service.errors import decode_details  # noqa: E402
from service.pb import pb2, pb2_grpc  # noqa: E402

N = max(20, int(os.environ.get("MJ_FUZZ_N", "20000")) // 200)
SEED = int(os.environ.get("MAHJONG_FUZZ_SEED", "9090"))
RULESETS = [f.name for f in pb2.RulesetOptions.DESCRIPTOR.oneofs_by_name["options"].fields]
HOSTILE = 0.2  # share of questions made hostile

_MELD_KIND = {"chi": pb2.MELD_KIND_CHI, "peng": pb2.MELD_KIND_PENG, "gang": pb2.MELD_KIND_GANG,
              "angang": pb2.MELD_KIND_ANGANG, "bugang": pb2.MELD_KIND_BUGANG}
_WIND = {"1z": pb2.WIND_EAST, "2z": pb2.WIND_SOUTH, "3z": pb2.WIND_WEST, "4z": pb2.WIND_NORTH}
_SUIT = {"m": pb2.SUIT_M, "p": pb2.SUIT_P, "s": pb2.SUIT_S}
_PENDING = {"discard": pb2.PENDING_KIND_DISCARD, "bugang": pb2.PENDING_KIND_BUGANG,
            "angang": pb2.PENDING_KIND_ANGANG}
_KONG = {"gang": pb2.KONG_KIND_GANG, "bugang": pb2.KONG_KIND_BUGANG, "angang": pb2.KONG_KIND_ANGANG}
_UNIT = {"fan": pb2.VALUE_UNIT_FAN, "points": pb2.VALUE_UNIT_POINTS,
         "multiplier": pb2.VALUE_UNIT_MULTIPLIER, "tai": pb2.VALUE_UNIT_TAI}

# --------------------------------------------------------------------------- engine -> proto
# (written from docs/service.md's table, apart from service.convert)


def _enum_number(enum: Any, text: str) -> int:
    if enum.full_name == "mahjong.v1.Wind":
        return _WIND[text]
    for v in enum.values:
        if v.number and v.name.lower().endswith("_" + text.lower()) and (
                v.name.lower().removesuffix("_" + text.lower()) == "".join(
                    "_" + c.lower() if c.isupper() and i else c.lower()
                    for i, c in enumerate(enum.name))):
            return int(v.number)
    raise KeyError(f"{enum.name} has no value for {text!r}")


def _tile_into(msg: Any, value: object, rng: random.Random) -> None:
    """A tile (an id or text) as a Tile: text, or (now and then, a suit or honour) its id."""
    if isinstance(value, str):
        if value[-1] in "mpsz" and len(value) == 2 and rng.random() < 0.3:
            msg.id = ("mpsz".index(value[1])) * 9 + int(value[0]) - 1
        else:
            msg.text = value
    else:
        msg.id = int(value)  # type: ignore[call-overload]


def _tiles_of(value: object) -> list[object]:
    """A tile list: a text such as "1234f" or "5p6p" split into tiles, else its items."""
    if isinstance(value, str):
        out: list[object] = []
        digits = ""
        for c in value:
            if c.isdigit():
                digits += c
            else:
                out += [d + c for d in digits]
                digits = ""
        return out
    return list(value)  # type: ignore[call-overload]


def put(msg: Any, values: Mapping[str, object], rng: random.Random) -> Any:
    """Set a rule set's typed message (options, context, view part, event) from engine values."""
    for name, value in values.items():
        fd = msg.DESCRIPTOR.fields_by_name[name]
        if fd.enum_type is not None:
            setattr(msg, name, _enum_number(fd.enum_type, str(value)))
            continue
        if fd.message_type is None:
            setattr(msg, name, value)
            continue
        sub = getattr(msg, name)
        sub.SetInParent()
        kind = fd.message_type.name
        if kind == "IntOrNone":
            if value is not None:
                sub.value = value
        elif kind in ("IntList", "TextList"):
            sub.values.extend(value)
        elif kind == "Ratio":
            f = Fraction(value)  # type: ignore[arg-type]
            sub.numerator, sub.denominator = f.numerator, f.denominator
        elif kind == "SeatList":
            sub.seats.extend(-1 if s is None else s for s in value)  # type: ignore[attr-defined]
        elif kind == "Tile":
            _tile_into(sub, value, rng)
        elif kind == "TileList":
            for t in _tiles_of(value):
                _tile_into(sub.tiles.add(), t, rng)
        elif kind in ("RelativeSeatCounts", "RelativeSeatMelds"):
            for seat, item in value.items():  # type: ignore[attr-defined]
                setattr(sub, seat, item)
        elif kind == "RelativeSeatList":
            sub.seats.extend(pb2.RELATIVE_SEAT_UNSPECIFIED if s is None else
                             _enum_number(pb2.RelativeSeat.DESCRIPTOR, s) for s in value)  # type: ignore[attr-defined]
        else:
            raise AssertionError(f"no proto for a {kind}")
    return msg


def hand_pb(h: Hand | str, rng: random.Random) -> pb2.Hand:
    if isinstance(h, str):
        return pb2.Hand(text=h)
    kinds = {m.kind for m in h.melds}
    if rng.random() < 0.5 or not kinds <= set(_MELD_KIND):  # (Wuhan's 痞子杠/赖子杠: text only)
        return pb2.Hand(text=h.to_text())
    s = pb2.StructuredHand(concealed_tile_ids=[t for t in range(34) for _ in range(h.counts[t])])
    for m in h.melds:
        s.melds.add(kind=_MELD_KIND[m.kind], tile_ids=list(m.tiles))
    return pb2.Hand(structured=s)


def tile_pb(t: int | str, rng: random.Random) -> pb2.Tile:
    msg = pb2.Tile()
    if isinstance(t, int) and t < 34 and rng.random() < 0.5:
        t = tile_to_text(t)
    _tile_into(msg, t, rng)
    return msg


def options_pb(ruleset: str, o: Mapping[str, object], preset: str | None,
               rng: random.Random) -> pb2.RulesetOptions | None:
    if not o and preset is None and rng.random() < 0.5:
        return None
    out = pb2.RulesetOptions(preset=preset or "")
    if o or rng.random() < 0.5:
        put(getattr(out, ruleset), o, rng).SetInParent()
    return out


def context_pb(ruleset: str, cx: Mapping[str, object] | None, rng: random.Random
               ) -> pb2.WinContext | None:
    if cx is None:
        return None
    out = pb2.WinContext()
    if cx or rng.random() < 0.5:
        put(getattr(out, ruleset), cx, rng).SetInParent()
    return out


def view_pb(ruleset: str, v: tb.TableView, rng: random.Random) -> pb2.TableView:
    out = pb2.TableView(seat=v.seat, hand=hand_pb(v.hand, rng), phase=v.phase,
                        dealer_seat=v.dealer, pending_after_kong=v.pending_after_kong,
                        after_kong=v.after_kong, first_draw=v.first_draw, any_meld=v.any_meld,
                        pending_kind=_PENDING[v.pending_kind])
    if v.pending_kind == "discard" and rng.random() < 0.5:
        out.pending_kind = pb2.PENDING_KIND_UNSPECIFIED
    if v.pending_tile is not None:
        out.pending_tile.CopyFrom(tile_pb(v.pending_tile, rng))
    if v.drawn_tile is not None:
        out.drawn_tile.CopyFrom(tile_pb(v.drawn_tile, rng))
    for name, proto in (("pending_from", "pending_from_seat"), ("kong_feeder", "kong_feeder_seat"),
                        ("wall_count", "wall_count")):
        if getattr(v, name) is not None:
            setattr(out, proto, getattr(v, name))
    if not v.drew or rng.random() < 0.3:
        out.drew = v.drew
    out.won_seats.extend(s for s in range(4) if s not in v.active_seats)
    if v.rules is not None:
        values = {f.name: getattr(v.rules, f.name) for f in dataclasses.fields(v.rules)}
        put(getattr(out, ruleset), {k: x for k, x in values.items() if x is not None}, rng
            ).SetInParent()
    return out


def move_pb(m: tb.Move, rng: random.Random) -> pb2.Move:
    out = pb2.Move(kind=m.kind, tiles=[tile_pb(t, rng) for t in m.tiles])
    if m.suit:
        out.suit = _SUIT[m.suit]
    return out


def events_pb(ruleset: str, log: list[object], rng: random.Random) -> list[pb2.Event]:
    out = []
    for e in log:
        if isinstance(e, tb.Kong):
            k = pb2.KongEvent(seat=e.seat, kind=_KONG[e.kind], tile=tile_pb(e.tile, rng),
                              robbed=e.robbed)
            if e.fed_by is not None:
                k.fed_by_seat = e.fed_by
            out.append(pb2.Event(kong=k))
        elif isinstance(e, tb.Win):
            w = pb2.WinEvent(seat=e.seat, hand=hand_pb(e.hand, rng), win_tile=tile_pb(e.win_tile, rng),
                             self_drawn=e.self_drawn)
            for name, proto in (("discarder", "discarder_seat"), ("kong_feeder", "kong_feeder_seat"),
                                ("discard", "discard")):
                if getattr(e, name) is not None:
                    setattr(w, proto, getattr(e, name))
            ctx = context_pb(ruleset, e.context, rng)
            if ctx is not None:
                w.context.CopyFrom(ctx)
            out.append(pb2.Event(win=w))
        elif isinstance(e, tb.WallEmpty):
            we = pb2.WallEmptyEvent()
            for seat, h in enumerate(e.hands):
                if h is not None:
                    we.final_hands.add(seat=seat, hand=hand_pb(h, rng))
            out.append(pb2.Event(wall_empty=we))
        else:
            raise AssertionError(f"no proto for {e!r}")
    return out


# --------------------------------------------------------------------------- answers compared


def _lib(call: Callable[[], Any]) -> Any:
    """The library's answer: its value, or ("error", code)."""
    try:
        return call()
    except MahjongError as e:
        return ("error", e.code)


def _svc(call: Callable[[], Any]) -> Any:
    """The service's answer: the response, or ("error", reason) for INVALID_ARGUMENT (any other
    status as ("status", name, details))."""
    try:
        return call()
    except grpc.RpcError as e:
        d = decode_details(e)
        if e.code() == grpc.StatusCode.INVALID_ARGUMENT and d is not None:
            return ("error", d[0])
        return ("status", e.code().name, e.details(), d)


def _is_error(x: Any) -> bool:
    return isinstance(x, tuple) and len(x) >= 2 and x[0] in ("error", "status")


def score_view(r: Any) -> dict[str, Any]:
    """A library ScoreResult as the wire has it."""
    d = r.decomposition
    out: dict[str, Any] = {
        "value": r.value, "value_uncapped": r.value_uncapped, "multiplier": r.multiplier,
        "patterns": [(p.id, p.fan, p.name) for p in r.patterns], "shape": r.shape,
        "unit": _UNIT[r.unit], "liable": r.liable,
        "liable_seat": r.liable_seat if r.liable_seat >= 0 else None,
        "payments": [(f, t, a) for f, t, a in r.payments], "total": r.total,
        "decomposition": (d.pair, list(d.chows), list(d.pungs)) if hasattr(d, "pair") else None,
    }
    return out


def score_view_pb(r: pb2.ScoreResult) -> dict[str, Any]:
    d = r.decomposition
    return {
        "value": r.value, "value_uncapped": r.value_uncapped, "multiplier": r.multiplier,
        "patterns": [(p.id, p.value, p.name) for p in r.patterns], "shape": r.shape,
        "unit": r.unit, "liable": r.liable,
        "liable_seat": r.liable_seat if r.HasField("liable_seat") else None,
        "payments": [(p.from_seat, p.to_seat, p.amount) for p in r.payments], "total": r.total,
        "decomposition": (d.pair_tile_id, list(d.chow_tile_ids), list(d.pung_tile_ids))
        if r.HasField("decomposition") else None,
    }


def waits_view(ws: Any) -> Any:
    return [(w.id, w.tile, w.fan_discard, w.fan_self_drawn, w.unseen,
             [(p.id, p.fan, p.name) for p in w.patterns_discard],
             [(p.id, p.fan, p.name) for p in w.patterns_self_drawn]) for w in ws]


def waits_view_pb(r: pb2.WaitsResponse) -> Any:
    return [(w.tile_id, w.tile, w.discard_value, w.self_drawn_value, w.unseen,
             [(p.id, p.value, p.name) for p in w.discard_patterns],
             [(p.id, p.value, p.name) for p in w.self_drawn_patterns]) for w in r.waits]


def moves_view(ms: Any) -> Any:
    return [(m.kind, list(m.tiles), m.suit or "", m.to_text()) for m in ms]


def moves_view_pb(r: pb2.LegalMovesResponse) -> Any:
    inv = {v: k for k, v in _SUIT.items()}
    return [(m.kind, [t.id for t in m.tiles], inv.get(m.suit, ""), m.text) for m in r.moves]


def ledger_view(lg: Any) -> Any:
    return {"payments": [(p.from_seat, p.to_seat, p.amount, p.reason,
                          -1 if p.event is None else p.event) for p in lg.payments],
            "totals": list(lg.totals), "next_dealer": lg.next_dealer, "winners": list(lg.winners),
            "notes": list(lg.notes), "streak": lg.next_dealer_streak}


def ledger_view_pb(r: pb2.SettleResponse) -> Any:
    return {"payments": [(p.from_seat, p.to_seat, p.amount, p.reason, p.event_index)
                         for p in r.payments],
            "totals": list(r.totals), "next_dealer": r.next_dealer_seat,
            "winners": list(r.winner_seats), "notes": list(r.notes),
            "streak": r.next_dealer_streak if r.HasField("next_dealer_streak") else None}


class Mismatches:
    """Collects disagreements (the first few, with the request and both answers)."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self.count = 0

    def check(self, rpc: str, request: Any, lib: Any, svc: Any, question: Any = None) -> None:
        if lib == svc:
            return
        self.count += 1
        if len(self.items) < 8:
            req = request if isinstance(request, str) else str(request).replace("\n", " ")
            self.items.append(f"{rpc}: request {req[:1500]}\n  library question: {question}\n"
                              f"  library: {lib}\n  service: {svc}")

    def assert_none(self) -> None:
        assert not self.items, f"{self.count} answers differ:\n" + "\n".join(self.items)


@pytest.fixture(scope="module")
def stub_(stub: pb2_grpc.MahjongRulesStub) -> pb2_grpc.MahjongRulesStub:
    return stub


# --------------------------------------------------------------------------- hostile changes

_BAD_SEATS = (4, 5, 99, 2**32 - 1)
_BAD_INTS = (-1, -(2**40), 10**6, 2**62)
_TILES = ("1m", "5p", "9s", "1z", "7z", "3f", "8f")


def _hostile_value(fd: Any, rng: random.Random) -> object:
    """An engine value of field ``fd``'s kind, often out of its range."""
    if fd.enum_type is not None:
        if fd.enum_type.full_name == "mahjong.v1.Wind":
            return rng.choice(tuple(_WIND))
        v = rng.choice([v for v in fd.enum_type.values if v.number])
        prefix = "".join("_" + c if c.isupper() and i else c for i, c in enumerate(
            fd.enum_type.name)).upper() + "_"
        return v.name.removeprefix(prefix).lower()
    if fd.message_type is None:
        if fd.type == fd.TYPE_BOOL:
            return rng.random() < 0.5
        if fd.type == fd.TYPE_UINT32:
            return rng.choice(_BAD_SEATS)
        if fd.type == fd.TYPE_STRING:
            return rng.choice(("tian", "di", "x", "", "gang"))
        return rng.choice(_BAD_INTS)
    kind = fd.message_type.name
    n = rng.randrange(1, 4)
    if kind == "IntOrNone":
        return rng.choice((None, -1, 0, 10**6))
    if kind == "IntList":
        return tuple(rng.choice((-1, 0, 5, 10**6)) for _ in range(n))
    if kind == "Ratio":
        return Fraction(rng.choice((0, 1, 7, 100)), rng.choice((1, 3)))
    if kind == "SeatList":
        return tuple(rng.choice((None, 0, 1, 3, 4, 9)) for _ in range(n))
    if kind == "Tile":
        return rng.choice(_TILES)
    if kind == "TileList":
        return tuple(rng.choice(_TILES) for _ in range(n))
    if kind == "RelativeSeatCounts":
        return {rng.choice(("left", "across", "right")): rng.choice((0, 4, 9))}
    if kind == "RelativeSeatMelds":
        return {rng.choice(("left", "across", "right")): rng.choice(
            ("peng:111s peng:111s", "chi:999m", "x", ""))}
    if kind == "RelativeSeatList":
        return tuple(rng.choice((None, "left", "across", "right")) for _ in range(n))
    if kind == "TextList":
        return tuple(rng.choice(("", "peng:111s", "x")) for _ in range(n))
    raise AssertionError(kind)


def hostile_typed(msg_cls: Any, values: dict[str, object], rng: random.Random,
                  skip: tuple[str, ...] = ()) -> dict[str, object]:
    """``values`` with one field of the typed message (not of a kind in ``skip``) set to a
    hostile value."""
    fd = rng.choice([f for f in msg_cls.DESCRIPTOR.fields
                     if f.message_type is None or f.message_type.name not in skip])
    out = dict(values)
    out[fd.name] = _hostile_value(fd, rng)
    return out


def hostile_options(ruleset: str, o: dict[str, object], rng: random.Random) -> dict[str, object]:
    cls = getattr(pb2, f"{ruleset.capitalize()}Options")
    return hostile_typed(cls, o, rng)


def hostile_hand(h: Hand, rng: random.Random) -> Hand | str:
    text = h.to_text()
    r = rng.random()
    if r < 0.3:  # a tile more or less
        counts = list(h.counts)
        held = [t for t in range(34) if counts[t]]
        if rng.random() < 0.5 and held:
            counts[rng.choice(held)] -= 1
        else:
            counts[rng.randrange(34)] += 1
        try:
            return Hand(counts, h.melds)
        except MahjongError:
            return text
    if r < 0.5:
        return text + " " + rng.choice(("5p", "peng:555p", "chi:124m", "angang:1111z"))
    if r < 0.6:
        return rng.choice(("", "xyz", "0m123m", "123m" * 6, "11112m"))
    extra = rng.randrange(34)  # a fifth copy over the melds, as text (no Hand holds it)
    return text + " " + tile_to_text(extra) * rng.randrange(1, 3)


# --------------------------------------------------------------------------- the tests


def _preset(ruleset: str, rng: random.Random, hostile: bool = False) -> str | None:
    """A preset now and then; an unknown one now and then where nothing else is wrong (the
    service resolves options first, the library may find another fault first)."""
    presets = list(rules.get_ruleset(ruleset).presets)
    r = rng.random()
    if r < 0.15 and presets:
        return rng.choice(presets)
    if r < 0.17 and not hostile:
        return "no_such_preset"
    return None


def _score_question(ruleset: str, rng: random.Random, hostile: bool
                    ) -> tuple[Hand | str, int | str, bool, dict[str, object] | None,
                               dict[str, object], str | None]:
    h, t, sd, cx, o, _ = _win_sample(rng, ruleset)
    hand: Hand | str = h
    win: int | str = t
    ctx: dict[str, object] | None = cx if cx or rng.random() < 0.5 else None
    preset = _preset(ruleset, rng, hostile)
    if hostile:
        what = rng.randrange(4)
        if what == 0:
            ctx = hostile_typed(getattr(pb2, f"{ruleset.capitalize()}Context"), cx, rng)
        elif what == 1:
            o = hostile_options(ruleset, o, rng)
        elif what == 2:
            hand = hostile_hand(h, rng)
        else:
            # (a tile that is none, e.g. id 40 outside Taiwan: the service refuses it as
            # bad_tile before the engine, which may name another fault first: not asked)
            win = rng.choice((rng.randrange(34), "5z", "1f" if ruleset == "taiwan" else "7z"))
    return hand, win, sd, ctx, o, preset


def _lib_score(ruleset: str, q: tuple[Any, ...]) -> Any:
    hand, win, sd, ctx, o, preset = q
    return _lib(lambda: score_view(rules.score(hand, win_tile=win, self_drawn=sd, context=ctx,
                                               ruleset=ruleset, options=o or None, preset=preset)))


def _score_request(ruleset: str, q: tuple[Any, ...], rng: random.Random) -> pb2.ScoreRequest:
    hand, win, sd, ctx, o, preset = q
    req = pb2.ScoreRequest(ruleset=ruleset, hand=hand_pb(hand, rng), win_tile=tile_pb(win, rng),
                           self_drawn=sd)
    opts = options_pb(ruleset, o, preset, rng)
    if opts is not None:
        req.options.CopyFrom(opts)
    c = context_pb(ruleset, ctx, rng)
    if c is not None:
        req.context.CopyFrom(c)
    return req


@pytest.mark.parametrize("ruleset", RULESETS)
def test_score_and_bulk_match_library(stub_: pb2_grpc.MahjongRulesStub, ruleset: str) -> None:
    """Score, ScoreBatch and ScoreStream answer each hand as ``rules.score`` does."""
    rng = random.Random(f"{SEED}-score-{ruleset}")
    bad = Mismatches()
    wins = 0
    batches: dict[bytes, tuple[pb2.RulesetOptions | None, list[tuple[pb2.ScoreItem, Any]]]] = {}
    for i in range(N):
        q = _score_question(ruleset, rng, rng.random() < HOSTILE)
        want = _lib_score(ruleset, q)
        req = _score_request(ruleset, q, rng)
        got = _svc(lambda: score_view_pb(stub_.Score(req).result))
        bad.check("Score", req, want, got, q)
        wins += not _is_error(want)
        # the same question as a bulk item, grouped by options
        key = req.options.SerializeToString() if req.HasField("options") else b""
        item = pb2.ScoreItem(id=f"i{i}", hand=req.hand, win_tile=req.win_tile,
                             self_drawn=req.self_drawn)
        if req.HasField("context"):
            item.context.CopyFrom(req.context)
        batches.setdefault(key, (req.options if req.HasField("options") else None, []))[1].append(
            (item, want))
    for opts, items in batches.values():
        for method in ("ScoreBatch", "ScoreStream"):
            kw: dict[str, Any] = {"ruleset": ruleset, "items": [it for it, _ in items]}
            if opts is not None:
                kw["options"] = opts
            if method == "ScoreBatch":
                breq = pb2.ScoreBatchRequest(**kw)
                resp = _svc(lambda: stub_.ScoreBatch(breq))
                sent: Any = breq
            else:
                sreq = pb2.ScoreStreamRequest(**kw)
                resp = _svc(lambda: list(stub_.ScoreStream(iter([sreq])))[0])
                sent = sreq
            # (the whole call is refused for its options, the items each for their first fault)
            lib_item_errors = all(_is_error(w) for _, w in items)
            if _is_error(resp):  # the whole call refused: only for what every item shares
                bad.check(method, sent, ("all items refused", True),
                          ("all items refused", lib_item_errors), resp)
                continue
            for (it, w), out in zip(items, resp.outcomes, strict=True):
                got = (score_view_pb(out.result) if out.WhichOneof("outcome") == "result"
                       else ("error", out.error.code))
                bad.check(method, it, w, (got if out.id == it.id else ("id", out.id)))
    bad.assert_none()
    assert wins > N // 10, (ruleset, wins)  # (the sample is not all errors)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_waits_match_library(stub_: pb2_grpc.MahjongRulesStub, ruleset: str) -> None:
    rng = random.Random(f"{SEED}-waits-{ruleset}")
    bad = Mismatches()
    waiting = 0
    for h, ctx, o, _ in _sample(ruleset, rng.randrange(10**9), N):
        seen = _visible(rng, h)
        visible = None
        if seen is not None:  # (the wire takes ids)
            visible = [t for t in range(34) for _ in range(seen[t])] if len(seen) == 34 and \
                not isinstance(seen, str) else list(seen) if not isinstance(seen, str) else None
        hand: Hand | str = h
        c: dict[str, object] | None = ctx
        hostile = rng.random() < HOSTILE
        preset = _preset(ruleset, rng, hostile)
        if hostile:
            what = rng.randrange(4)
            if what == 0:
                c = hostile_typed(getattr(pb2, f"{ruleset.capitalize()}Context"), ctx, rng)
            elif what == 1:
                o = hostile_options(ruleset, o, rng)
            elif what == 2:
                hand = hostile_hand(h, rng)
            else:
                visible = [rng.randrange(34) for _ in range(rng.randrange(1, 30))]
        want = _lib(lambda: waits_view(rules.valued_waits(
            hand, context=c, ruleset=ruleset, options=o or None, preset=preset,
            visible=tuple(visible) if visible is not None else None)))
        req = pb2.WaitsRequest(ruleset=ruleset, hand=hand_pb(hand, rng),
                               visible_tile_ids=visible or [])
        opts = options_pb(ruleset, o, preset, rng)
        if opts is not None:
            req.options.CopyFrom(opts)
        cpb = context_pb(ruleset, c, rng)
        if cpb is not None:
            req.context.CopyFrom(cpb)

        def ask() -> Any:
            r = stub_.Waits(req)
            best = max((w.discard_value for w in r.waits), default=-1)
            assert r.max_discard_value == best, r
            return waits_view_pb(r)

        got = _svc(ask)
        bad.check("Waits", req, want, got, (hand, c, o, preset, visible))
        waiting += bool(want) and not _is_error(want)
    bad.assert_none()
    assert waiting > N // 10, (ruleset, waiting)


def _hostile_view(ruleset: str, v: tb.TableView, rng: random.Random) -> tb.TableView:
    what = rng.randrange(4)
    if what == 0:
        name = rng.choice(("seat", "dealer", "pending_from", "kong_feeder", "wall_count"))
        return dataclasses.replace(v, **{name: rng.choice(_BAD_SEATS[:3])})
    if what == 1 and v.rules is not None:
        cls = getattr(pb2, f"{ruleset.capitalize()}View")
        current = {f.name: getattr(v.rules, f.name) for f in dataclasses.fields(v.rules)}
        # (a view's tile lists are ids in the library, text or ids on the wire: see the report)
        values = hostile_typed(cls, {k: x for k, x in current.items() if x is not None}, rng,
                               skip=("TileList",))
        try:
            return dataclasses.replace(v, rules=type(v.rules)(**values))
        except (MahjongError, TypeError, ValueError):
            return v
    if what == 2:
        return dataclasses.replace(v, phase=rng.choice(("turn", "claim", "rob", "wait", "ended",
                                                        "exchange", "ding_que", "nope")))
    try:
        return dataclasses.replace(v, hand=hostile_hand(v.hand, rng))  # type: ignore[arg-type]
    except MahjongError:  # (a view of a hand that does not parse cannot be made)
        return v


def _moves_to_try(v: tb.TableView, legal: Any, rng: random.Random) -> list[tb.Move]:
    out = list(rng.sample(list(legal), min(3, len(legal)))) if not _is_error(legal) else []
    kinds = ("discard", "chi", "peng", "gang", "angang", "bugang", "hu", "pass", "ding_que",
             "exchange", "nope")
    for _ in range(2):
        kind = rng.choice(kinds)
        n = {"chi": 3, "exchange": 3, "pass": 0, "hu": rng.choice((0, 1))}.get(kind, 1)
        tiles = tuple(rng.randrange(34) for _ in range(n))
        out.append(tb.Move(kind, tiles, rng.choice("mps") if kind == "ding_que" else None))
    return out


@pytest.mark.parametrize("ruleset", RULESETS)
def test_moves_match_library(stub_: pb2_grpc.MahjongRulesStub, ruleset: str) -> None:
    """LegalMoves lists what ``legal_moves`` lists; ValidateMove answers each move (legal ones
    and others) as ``validate_move`` does, code included."""
    rng = random.Random(f"{SEED}-moves-{ruleset}")
    bad = Mismatches()
    legal_hu = 0
    for _ in range(N):
        h, t, sd, cx, o, wild = _win_sample(rng, ruleset)
        v = _view(rng, ruleset, h, t, sd, cx, wild)
        hostile = rng.random() < HOSTILE
        if hostile:
            v = _hostile_view(ruleset, v, rng)
        preset = _preset(ruleset, rng, hostile)
        legal = _lib(lambda: rules.legal_moves(v, o or None, ruleset=ruleset, preset=preset))
        state = view_pb(ruleset, v, rng)
        opts = options_pb(ruleset, o, preset, rng)
        lreq = pb2.LegalMovesRequest(ruleset=ruleset, state=state)
        if opts is not None:
            lreq.options.CopyFrom(opts)
        want = legal if _is_error(legal) else moves_view(legal)
        bad.check("LegalMoves", lreq, want, _svc(lambda: moves_view_pb(stub_.LegalMoves(lreq))), v)
        for m in _moves_to_try(v, legal, rng):
            check = _lib(lambda: rules.validate_move(v, m, o or None, ruleset=ruleset, preset=preset))
            want = check if _is_error(check) else (check.ok, check.code, check.message[:256])
            vreq = pb2.ValidateMoveRequest(ruleset=ruleset, state=state, move=move_pb(m, rng))
            if opts is not None:
                vreq.options.CopyFrom(opts)

            def ask() -> Any:
                r = stub_.ValidateMove(vreq)
                return (r.legal, r.reason, r.message[:256])

            bad.check("ValidateMove", vreq, want, _svc(ask), (v, m))
            legal_hu += m.kind == "hu" and not _is_error(check) and check.ok
    bad.assert_none()


def _wall_empty_log(rng: random.Random, ruleset: str) -> list[object]:
    hands: list[Hand | None] = []
    for _ in range(4):
        h = None
        if rng.random() < 0.7:
            o: dict[str, Any] = {}
            h = _ready(rng, ruleset, _wild_of(rng, ruleset, o))
        hands.append(h)
    return [tb.WallEmpty(tuple(hands))]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_settle_matches_library(stub_: pb2_grpc.MahjongRulesStub, ruleset: str) -> None:
    """Settle's ledger is ``rules.settle``'s (payments with reasons and event indexes, totals,
    next dealer and streak, winners, notes)."""
    rng = random.Random(f"{SEED}-settle-{ruleset}")
    bad = Mismatches()
    ok = 0
    for _ in range(N):
        h, t, sd, cx, o, _ = _win_sample(rng, ruleset)
        log, _, (dealer, streak) = _log(rng, ruleset, h, t, sd, cx)
        if log and isinstance(log[0], tb.HandStart):  # (not on the wire: the request says it)
            start = log.pop(0)
            dealer, streak = start.dealer, start.dealer_streak  # type: ignore[attr-defined]
        if rng.random() < 0.15:
            log = log[:-1] + _wall_empty_log(rng, ruleset)
        hostile = rng.random() < HOSTILE
        if hostile:
            what = rng.randrange(3)
            win = log[-1]
            if what == 0 and isinstance(win, tb.Win):
                ctx = hostile_typed(getattr(pb2, f"{ruleset.capitalize()}Context"),
                                    dict(win.context or {}), rng)
                log[-1] = dataclasses.replace(win, context=ctx)
            elif what == 1:
                o = hostile_options(ruleset, o, rng)
            elif isinstance(win, tb.Win):
                log[-1] = dataclasses.replace(win, hand=hostile_hand(win.hand, rng))  # type: ignore[arg-type]
        if dealer is None:
            dealer = rng.randrange(4)
        preset = _preset(ruleset, rng, hostile)
        want = _lib(lambda: ledger_view(rules.settle(log, o or None, ruleset=ruleset, preset=preset,
                                                     dealer=dealer, dealer_streak=streak)))
        req = pb2.SettleRequest(ruleset=ruleset, events=events_pb(ruleset, log, rng),
                                dealer_seat=dealer)
        if streak is not None:
            req.dealer_streak = streak
        opts = options_pb(ruleset, o, preset, rng)
        if opts is not None:
            req.options.CopyFrom(opts)
        bad.check("Settle", req, want, _svc(lambda: ledger_view_pb(stub_.Settle(req))),
                  (log, o, preset, dealer, streak))
        ok += not _is_error(want)
    bad.assert_none()
    assert ok > N // 4, (ruleset, ok)


def _json_of(text: str) -> object:
    return json.loads(text)


def _typed_values(msg: Any) -> dict[str, object]:
    """A typed options message's set fields as plain values (for presets)."""
    out: dict[str, object] = {}
    for fd, value in msg.ListFields():
        if fd.enum_type is not None:
            out[fd.name] = value
        elif fd.message_type is None:
            out[fd.name] = value
        else:
            out[fd.name] = value.SerializeToString(deterministic=True)
    return out


def test_describe_and_list_match_library(stub_: pb2_grpc.MahjongRulesStub) -> None:
    listed = stub_.ListRulesets(pb2.ListRulesetsRequest())
    want = [(rules.get_ruleset(n).name, rules.get_ruleset(n).title, rules.get_ruleset(n).summary)
            for n in rules.list_rulesets()]
    assert [(r.name, r.title, r.summary) for r in listed.rulesets] == want
    rng = random.Random(SEED)
    for name in rules.list_rulesets():
        rs = rules.get_ruleset(name)
        d = rs.describe()
        got = stub_.DescribeRuleset(pb2.DescribeRulesetRequest(ruleset=name))
        where = f"DescribeRuleset {name}"
        assert (got.name, got.title, got.summary, got.unit, got.hand_tiles) == (
            d["name"], d["title"], d["summary"], _UNIT[d["unit"]], d["hand_tiles"]), where
        assert list(got.claims) == list(d["claims"]) and list(got.phases) == list(d["phases"]), where
        p = d["policy"]
        assert (got.policy.kind, got.policy.description, got.policy.cap_option,
                got.policy.floor_option) == (p["kind"], p["description"], p["cap_option"] or "",
                                             p["floor_option"] or ""), where
        assert [(x.id, x.name, x.value, x.description, x.shape, x.pattern_class, list(x.supersedes),
                 x.flat, x.cap_exempt, [(a.extra_id, a.count) for a in x.absorbs],
                 x.value_option, x.enabled_by) for x in got.patterns] == [
            (x["id"], x["name"], x["fan"], x["description"], x["shape"], x["class"],
             list(x["supersedes"]), x["flat"], x["cap_exempt"],
             [(a["id"], a["count"]) for a in x["absorbs"]], x["value_option"] or "",
             x["enabled_by"] or "") for x in d["patterns"]], where
        assert [(x.id, x.name, x.value, x.description, x.enabled_by, x.value_option,
                 x.per_occurrence, x.depends_on_context) for x in got.extras] == [
            (x["id"], x["name"], x["fan"], x["description"], x["enabled_by"] or "",
             x["value_option"] or "", x["per_occurrence"], x["depends_on_context"])
            for x in d["extras"]], where
        assert [(x.id, x.name, x.description, x.enabled_by) for x in got.floors] == [
            (x["id"], x["name"], x["description"], x["enabled_by"] or "") for x in d["floors"]], where
        assert [(x.name, x.kind, x.description, _json_of(x.default_json),
                 [_json_of(c) for c in x.choices_json],
                 x.minimum if x.HasField("minimum") else None,
                 x.maximum if x.HasField("maximum") else None, x.none_allowed,
                 x.length if x.HasField("length") else None, x.nondecreasing)
                for x in got.options] == [
            (x["name"], x["kind"], x["description"], json.loads(json.dumps(x["default"])),
             json.loads(json.dumps(list(x.get("values", ())))), x.get("minimum"), x.get("maximum"),
             x["none_allowed"], x.get("length"), x.get("nondecreasing", False))
            for x in d["options"]], where
        assert [(k.id, k.description, k.kind, k.minimum if k.HasField("minimum") else None,
                 k.maximum if k.HasField("maximum") else None) for k in got.context_keys] == [
            (k["id"], k["description"], k["kind"], k.get("minimum"), k.get("maximum"))
            for k in d["context_keys"]], where
        for field in ("move_kinds", "reason_codes", "ledger_reasons"):
            assert [(c.id, c.description) for c in getattr(got, field)] == [
                (c["id"], c["description"]) for c in d[field]], (where, field)
        # each preset names its rule set and sets exactly the preset's values
        assert [p.name for p in got.presets] == list(rs.presets), where
        for p in got.presets:
            assert p.options.WhichOneof("options") == name, (where, p.name)
            want_msg = put(type(getattr(p.options, name))(), rs.presets[p.name], rng)
            assert _typed_values(getattr(p.options, name)) == _typed_values(want_msg), (where, p)


def test_unknown_and_missing_ruleset(stub_: pb2_grpc.MahjongRulesStub) -> None:
    """Every RPC naming no rule set, or one the library does not know, is refused as the
    library refuses it."""
    with pytest.raises(MahjongError) as lib:
        rules.get_ruleset("nosuch")
    calls: list[Callable[[str], Any]] = [
        lambda n: stub_.Score(pb2.ScoreRequest(ruleset=n, hand=pb2.Hand(text="123m456m789m234p55p"),
                                               win_tile=pb2.Tile(text="5p"))),
        lambda n: stub_.Waits(pb2.WaitsRequest(ruleset=n, hand=pb2.Hand(text="123m456m789m234p5p"))),
        lambda n: stub_.LegalMoves(pb2.LegalMovesRequest(ruleset=n, state=pb2.TableView(
            phase="turn", hand=pb2.Hand(text="123m456m789m234p55p")))),
        lambda n: stub_.ValidateMove(pb2.ValidateMoveRequest(ruleset=n, state=pb2.TableView(
            phase="turn", hand=pb2.Hand(text="123m456m789m234p55p")), move=pb2.Move(kind="pass"))),
        lambda n: stub_.Settle(pb2.SettleRequest(ruleset=n)),
        lambda n: stub_.DescribeRuleset(pb2.DescribeRulesetRequest(ruleset=n)),
        lambda n: stub_.ScoreBatch(pb2.ScoreBatchRequest(ruleset=n)),
        lambda n: list(stub_.ScoreStream(iter([pb2.ScoreStreamRequest(ruleset=n)]))),
    ]
    for i, call in enumerate(calls):
        for name, status, code in (("nosuch", grpc.StatusCode.NOT_FOUND, lib.value.code),
                                   ("", grpc.StatusCode.INVALID_ARGUMENT, "missing_ruleset")):
            with pytest.raises(grpc.RpcError) as err:
                call(name)
            d = decode_details(err.value)
            assert (err.value.code(), d and d[0]) == (status, code), (i, name, d)
