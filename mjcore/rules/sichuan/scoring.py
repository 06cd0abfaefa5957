"""Sichuan 血战到底 (rule set ``sichuan``): fan table, scoring, waits, moves, settlement.

The fan table and extras are data (``table.TABLE``); each pattern is a predicate
over one *reading* of the hand (a standard decomposition or the 七对 shape, summarised as a
few booleans) plus the win context. Scoring takes the best reading. The project's own
documentation of every rule and decision is docs/rulesets/sichuan.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple

from mjcore._core import (
    DEC_CHOW,
    DEC_SIMPLE,
    PROFILE_FOUR,
    PROFILE_HONOURS,
    PROFILE_KINDS4,
    PROFILE_ONLY258,
    PROFILE_QIDUI,
    PROFILE_SUITS,
    PROFILE_TERMINAL,
    _untrack,
    decomposition_for,
    hand_profile,
)
from mjcore._core import context_key as _ckey
from mjcore._core import waits as _core_waits
from mjcore.errors import MahjongError
from mjcore.hand import Hand
from mjcore.rules.common import compiled
from mjcore.rules.common.inputs import clear_caches as clear_inputs
from mjcore.rules.common.inputs import hand_of as _hand
from mjcore.rules.common.inputs import plus_tile as _plus
from mjcore.rules.common.inputs import tile_id as _tile
from mjcore.rules.common.inputs import tile_text as _text
from mjcore.rules.common.inputs import visible_counts as _visible_counts
from mjcore.rules.common.memo import Memo
from mjcore.rules.common.results import PatternHit, ScoreResult, ValuedWait
from mjcore.rules.common.ruleset import ContextKey
from mjcore.rules.common.table import PatternSpec
from mjcore.rules.sichuan.options import SichuanOptions
from mjcore.rules.sichuan.table import TABLE, Reading, _zimo_count

SUITS: tuple[str, ...] = ("m", "p", "s")
NAME = "sichuan"
_SUIT_INDEX = {"m": 0, "p": 1, "s": 2}
_ALL_SEATS = (0, 1, 2, 3)
# Memo size per cache (parsed texts, hand analyses, scores, wait lists): about 1 KB per
# distinct hand scored; a full cache is cleared at once (no LRU bookkeeping on the hot path).
_CACHE_LIMIT = 50_000


_Value = tuple[PatternSpec | None, object, str, tuple[PatternHit, ...], int]


class _Analysis(NamedTuple):
    """What the fan table needs from one hand, independent of the win context. Shared by
    every hand with the same ``hand_profile`` and meld summary (a few hundred of them), so a
    hand seen for the first time costs one core call and a dictionary look-up."""

    suits: int  # bit 0 m, 1 p, 2 s (tiles held anywhere)
    # (reading bits, mask of decomposition words (see ``_core.decomposition_features``) or
    # "qidui"), standard readings first
    readings: tuple[tuple[int, object], ...]
    gen: int
    has19: bool
    menqing: bool
    melds: int
    honours: bool
    # per options object (or (options, reading bits) once a tie is resolved):
    # (pattern spec or None when tied readings need the hand, word mask or "qidui", shape,
    # hits, total)
    values: dict[object, _Value]
    # per (context, options): (fan, total, multiplier, hits, amount, payments, value)
    results: dict[tuple[_Ctx, SichuanOptions], tuple[Any, ...]]


# Reading bits (the fan table's view of one reading; see ``Reading``)
_QIDUI, _QING, _PUNG, _YAOJIU, _JIANG, _LONG = 1, 2, 4, 8, 16, 32


def _reading(bits: int) -> Reading:
    return Reading(bool(bits & _QIDUI), bool(bits & _QING), bool(bits & _PUNG),
                   bool(bits & _YAOJIU), bool(bits & _JIANG), bool(bits & _LONG))


class _Ctx(NamedTuple):
    self_drawn: bool
    after_kong: bool
    after_kong_discard: bool
    robbing_kong: bool
    last_tile: bool
    heavenly: bool
    earthly: bool
    missing_suit: int
    winner: int
    discarder: int
    active: tuple[int, ...]
    kong_feeder: int
    flagged: bool  # any of the six context flags is set


_SHARED: Memo[int, _Analysis] = Memo(_CACHE_LIMIT)
_MELD_INFO: Memo[Any, int] = Memo(_CACHE_LIMIT)
# bits above the profile's: every meld a pung/kong, every meld holds a 1 or 9, menqing; then
# the number of melds
_M_PUNG, _M_YJ, _M_MENQING, _M_COUNT = 1 << 20, 1 << 21, 1 << 22, 23
_NO_MELDS = _M_PUNG | _M_YJ | _M_MENQING


def _meld_bits(melds: tuple[Any, ...]) -> int:
    """The meld bits of the shared-analysis key (one small table entry per distinct meld)."""
    out = _NO_MELDS | len(melds) << _M_COUNT
    for m in melds:
        bits = _MELD_INFO.get(m)
        if bits is None:
            kind = m.kind
            bits = _NO_MELDS
            if kind != "angang":
                bits &= ~_M_MENQING
            if kind == "chi":
                bits &= ~_M_PUNG
                if m.tiles[0] % 9 not in (0, 6):
                    bits &= ~_M_YJ
            elif m.tiles[0] % 9 not in (0, 8):
                bits &= ~_M_YJ
            _MELD_INFO.keep(m, bits)
        out &= bits | ~_NO_MELDS
    return out


def _shared(profile: int, melds: tuple[Any, ...]) -> _Analysis:
    """The analysis of every hand with this ``hand_profile`` and these melds' summary."""
    key = profile | (_meld_bits(melds) if melds else _NO_MELDS)
    a = _SHARED.get(key)
    if a is not None:
        return a
    meld_pung = bool(key & _M_PUNG)
    meld_yj = bool(key & _M_YJ)
    menqing = bool(key & _M_MENQING)
    suits = (profile >> PROFILE_SUITS) & 7
    qing = 2 if suits in (1, 2, 4) else 0
    jiang = bool(profile & PROFILE_ONLY258)
    # one reading per distinct bits; its decompositions are those whose word (``_core``
    # DEC_CHOW | DEC_SIMPLE) is in the reading's word mask, fetched only if the result needs one
    found: dict[int, object] = {}
    pung_bits = (_PUNG | _JIANG if jiang else _PUNG) if meld_pung else 0
    yj_bits = _YAOJIU if meld_yj else 0
    for w in range(4):
        if profile >> w & 1:
            bits = qing | (0 if w & DEC_CHOW else pung_bits) | (0 if w & DEC_SIMPLE else yj_bits)
            found[bits] = found.get(bits, 0) | 1 << w  # type: ignore[operator]
    if not melds and profile & PROFILE_QIDUI:
        found[_QIDUI | qing | (_LONG if profile & PROFILE_FOUR else 0)] = "qidui"
    a = _Analysis(
        suits,
        tuple(found.items()),
        (profile >> PROFILE_KINDS4) & 63,
        bool(profile & PROFILE_TERMINAL),
        menqing,
        len(melds),
        bool(profile & PROFILE_HONOURS),
        {},
        {},
    )
    _SHARED.keep(key, a)
    return a


def _analyse(hand: Hand, plus: int = -1) -> _Analysis:
    """The shared analysis of ``hand`` (with one more concealed ``plus`` tile if given)."""
    if hand.concealed_count + (plus >= 0) + 3 * len(hand.melds) != 14:
        raise MahjongError(
            "wrong_tile_count",
            f"a winning hand has 14 tiles (kongs count 3), got {hand.concealed_count} concealed "
            f"and {len(hand.melds)} melds",
        )
    return _shared(hand_profile(hand, plus), hand.melds)


def _choose(bits: int, o: SichuanOptions) -> tuple[int, int, PatternSpec]:
    """Best ordinary pattern of one reading: (fan net of absorbed 根, fan, spec)."""
    best: tuple[int, int, PatternSpec] | None = None
    for _, p in TABLE.matching(_reading(bits), None, o):
        fan = o.pattern_fan[p.id]
        net = fan - sum(n for _, n in p.absorbs)
        if best is None or (net, fan) > (best[0], best[1]):
            best = (net, fan, p)
    assert best is not None  # pinghu always applies
    o.best[bits] = best
    return best


def _dec_word(d: Any) -> int:
    """The word (DEC_CHOW | DEC_SIMPLE) of one decomposition."""
    w = DEC_SIMPLE if d[0] < 27 and d[0] % 9 not in (0, 8) else 0
    for t in d[1]:
        w |= DEC_CHOW if t % 9 in (0, 6) else DEC_CHOW | DEC_SIMPLE
    for t in d[2]:
        if t < 27 and t % 9 not in (0, 8):
            w |= DEC_SIMPLE
    return w


def _value(a: _Analysis, o: SichuanOptions, pick: int = -1) -> _Value:
    """The best reading and its context-free add-ons under options ``o`` (``pick``: the
    reading bits chosen among tied readings of different patterns, see ``_resolve``)."""
    # The best reading; among equal ones the first in ``decompose`` order of its first
    # decomposition, the 七对 reading last (the order the readings were once listed in).
    cache = o.best
    top: tuple[int, int] = (-1, -1)
    tied: list[tuple[tuple[int, int, PatternSpec], int, object]] = []
    for bits, reading_ref in a.readings:
        if pick >= 0 and bits != pick:
            continue
        chosen = cache.get(bits)
        if chosen is None:
            chosen = _choose(bits, o)
        nf = (chosen[0], chosen[1])
        if nf > top:
            top = nf
            tied = [(chosen, bits, reading_ref)]
        elif nf == top:
            tied.append((chosen, bits, reading_ref))
    ref: object
    if tied[0][2] == "qidui":
        best_chosen, best_bits, ref = tied[0]
    else:
        std = [t for t in tied if t[2] != "qidui"]
        union = 0
        for t in std:
            union |= t[2]  # type: ignore[operator]
        best_chosen, best_bits, _ = std[0]
        ref = union
        if any(t[0] != best_chosen for t in std):
            # which pattern depends on the hand's first decomposition: see ``_resolve``
            value: _Value = (None, union, "standard", (), 0)
            a.values[o] = value
            return value
    _, best_fan, best_spec = best_chosen
    hits = [_hit(best_spec.id, best_spec.name, best_fan)]
    total = best_fan
    absorbs = best_spec.absorbs
    for addon in o.hand_extras:
        n = addon.count(a, None, o)
        for aid, k in absorbs:
            if aid == addon.id:
                n -= k
        if n > 0 and o.extra_fan[addon.id]:
            fan = n * o.extra_fan[addon.id]
            hits.append(_hit(addon.id, addon.name, fan))
            total += fan
    value = (best_spec, ref, "qidui" if best_bits & _QIDUI else "standard", tuple(hits), total)
    a.values[o if pick < 0 else (o, pick)] = value
    return value


def _resolve(a: _Analysis, o: SichuanOptions, hand: Hand, union: int) -> tuple[int, _Value]:
    """Tied standard readings of different patterns: the one holding the hand's first
    decomposition among them wins. Returns (its reading bits, its value)."""
    w = _dec_word(decomposition_for(hand, union))
    for bits, ref in a.readings:
        if ref != "qidui" and ref >> w & 1:  # type: ignore[operator]
            value = a.values.get((o, bits))
            if value is None:
                value = _value(a, o, bits)
            return bits, value
    raise AssertionError("unreachable")  # pragma: no cover


# --------------------------------------------------------------------------- context

_FLAG_KEYS = ("after_kong", "after_kong_discard", "robbing_kong", "last_tile", "heavenly",
              "earthly")
_SEAT_KEYS = ("winner", "discarder", "kong_feeder")
CONTEXT_KEYS: tuple[ContextKey, ...] = (
    ContextKey("after_kong", "the winning tile is the replacement draw after the winner's own "
               "kong (杠上花; self-drawn only)"),
    ContextKey("after_kong_discard", "the winning discard came right after the discarder's "
               "kong (杠上炮; discard wins only)"),
    ContextKey("robbing_kong", "won on another seat's bugang tile (抢杠胡; not self-drawn)"),
    ContextKey("last_tile", "the wall is empty: the last draw, or the discard after it"),
    ContextKey("heavenly", "天胡 (dealer, self-drawn, dealt hand)"),
    ContextKey("earthly", "地胡 (non-dealer, self-drawn on the first draw)"),
    ContextKey("missing_suit", "the winner's 缺门: m, p or s (absent: the hand just must not "
               "hold all three suits)", "suit"),
    ContextKey("winner", "the winner's seat 0-3 (default 0), for payments", "seat"),
    ContextKey("discarder", "the seat whose discard (or robbed bugang) was won; without it a "
               "discard win has no payments listed", "seat"),
    ContextKey("active_seats", "seats that have not won yet (default all four); self-draw "
               "payers", "seats"),
    ContextKey("kong_feeder", "for 杠上花 after a 直杠: the seat that fed the kong (点杠花)",
               "seat"),
)
_CONTEXT_NAMES = frozenset(c.id for c in CONTEXT_KEYS)
_DEFAULT_CTX = {
    flag: _Ctx(flag, False, False, False, False, False, False, -1, 0, -1, _ALL_SEATS, -1, False)
    for flag in (False, True)
}


def _seat(key: str, value: object) -> int:
    if value is None:
        return -1
    if type(value) is int and 0 <= value < 4:
        return value
    raise MahjongError("bad_context", f"context {key!r} must be a seat 0-3, got {value!r}")


def _parse_context(context: Mapping[str, object] | None, self_drawn: bool) -> _Ctx:
    if context is None or not context:
        return _DEFAULT_CTX[bool(self_drawn)]
    if not isinstance(context, Mapping):
        raise MahjongError("bad_context", "context must be a mapping of key to value")
    flags = dict.fromkeys(_FLAG_KEYS, False)
    missing = -1
    seats = {"winner": 0, "discarder": -1, "kong_feeder": -1}
    active: tuple[int, ...] = _ALL_SEATS
    for key, value in context.items():
        if key in flags:
            if not isinstance(value, bool):
                raise MahjongError("bad_context", f"context {key!r} must be true or false")
            flags[key] = value
        elif key == "missing_suit":
            if value is None or value == "":
                missing = -1
            elif isinstance(value, str) and value in _SUIT_INDEX:
                missing = _SUIT_INDEX[value]
            else:
                raise MahjongError("bad_context", f"missing_suit must be m, p or s, got {value!r}")
        elif key in seats:
            seats[key] = _seat(key, value)
            if key == "winner" and value is None:
                seats[key] = 0
        elif key == "active_seats":
            if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
                raise MahjongError("bad_context", "active_seats must be a list of seats")
            active = tuple(sorted({_seat(key, s) for s in value}))
        else:
            known = ", ".join(sorted(_CONTEXT_NAMES))
            raise MahjongError("bad_context", f"unknown context key {key!r} (known: {known})")
    sd = bool(self_drawn)
    if flags["after_kong"] and not sd:
        raise MahjongError("bad_context", "after_kong (杠上花) needs a self-drawn win")
    if (flags["after_kong_discard"] or flags["robbing_kong"]) and sd:
        raise MahjongError("bad_context", "after_kong_discard/robbing_kong need a win on another "
                           "seat's tile, not a self-draw")
    if flags["after_kong_discard"] and flags["robbing_kong"]:
        raise MahjongError("bad_context", "a robbed bugang tile is not a discard after a kong")
    if (flags["heavenly"] or flags["earthly"]) and not sd:
        raise MahjongError("bad_context", "heavenly/earthly wins are self-drawn")
    if flags["heavenly"] and flags["earthly"]:
        raise MahjongError("bad_context", "a win cannot be both heavenly and earthly")
    winner, discarder, feeder = seats["winner"], seats["discarder"], seats["kong_feeder"]
    if winner not in active:
        raise MahjongError("bad_context", f"winner {winner} is not among active_seats {active}")
    if discarder >= 0:
        if sd:
            raise MahjongError("bad_context", "a self-drawn win has no discarder")
        if discarder == winner or discarder not in active:
            raise MahjongError("bad_context", f"discarder {discarder} must be another active seat")
    if feeder >= 0:
        if not flags["after_kong"]:
            raise MahjongError("bad_context", "kong_feeder only applies to 杠上花 (after_kong)")
        if feeder == winner or feeder not in active:
            raise MahjongError("bad_context", f"kong_feeder {feeder} must be another active seat")
    return _Ctx(sd, flags["after_kong"], flags["after_kong_discard"], flags["robbing_kong"],
                flags["last_tile"], flags["heavenly"], flags["earthly"], missing, winner,
                discarder, active, feeder, any(flags.values()))


def _check_feeder(h: Hand) -> None:
    """点杠花's feeder fed a 直杠 (§4.3): a context naming one for a hand without a ``gang:``
    meld contradicts it (docs/rulesets/sichuan.md decision 22)."""
    if not any(m.kind == "gang" for m in h.melds):
        raise MahjongError("bad_context", "kong_feeder (点杠花) names who fed a 直杠, but the "
                           "hand holds no gang: meld")


# --------------------------------------------------------------------------- scoring

_HITS: dict[tuple[str, int], PatternHit] = {}


def _hit(id_: str, name: str, fan: int) -> PatternHit:
    key = (id_, fan)
    hit = _HITS.get(key)
    if hit is None:
        hit = _HITS[key] = PatternHit(id_, name, fan)
    return hit


def _checks(a: _Analysis, c: _Ctx) -> None:
    """The win errors that depend on the analysis and the context only."""
    if c.missing_suit >= 0 and (a.suits >> c.missing_suit) & 1:
        raise MahjongError(
            "not_a_win", f"the hand still holds tiles of its missing suit {SUITS[c.missing_suit]}"
        )
    if a.suits == 7:
        raise MahjongError("not_a_win", "the hand holds all three suits (缺一门 required)")
    if not a.readings:
        raise MahjongError("not_a_win", "the tiles do not form four sets and a pair or 七对")
    if (c.heavenly or c.earthly) and a.melds:
        raise MahjongError("bad_context", "天胡/地胡 is the dealt hand: no melds possible")


def _in_context(a: _Analysis, value: _Value, c: _Ctx, o: SichuanOptions) -> tuple[Any, ...]:
    """(fan, total, multiplier, hits, amount, payments) of one value in context ``c``."""
    spec, _, _, hits_t, total = value
    assert spec is not None
    if c.flagged or (c.self_drawn and o.zimo_bonus == "fan"):
        hits = list(hits_t)
        for addon in o.context_extras:
            n = addon.count(a, c, o)
            for aid, k in spec.absorbs:
                if aid == addon.id:
                    n -= k
            if n > 0 and o.extra_fan[addon.id]:
                fan = n * o.extra_fan[addon.id]
                hits.append(_hit(addon.id, addon.name, fan))
                total += fan
        hits_t = tuple(hits)
    if o.tiandihu and (c.heavenly or c.earthly):
        flat = TABLE.pattern("tianhu" if c.heavenly else "dihu")
        if o.pattern_fan[flat.id] >= total:
            hits_t = (_hit(flat.id, flat.name, o.pattern_fan[flat.id]),)
            total = o.pattern_fan[flat.id]
    fan = total if o.cap_fan is None or total <= o.cap_fan else o.cap_fan
    mult = fan if o.scoring == "points" else 1 << fan  # points are paid as they are
    amount, payments = _payments(c, o, mult)
    return (fan, total, mult, hits_t, amount, payments, value)


def _payments(c: _Ctx, o: SichuanOptions, mult: int,
              ) -> tuple[int, tuple[tuple[int, int, int], ...]]:
    """(amount, payments) of a win paid ``mult`` times the base in context ``c``."""
    base = o.base
    winner = c.winner
    payments: tuple[tuple[int, int, int], ...]
    if c.self_drawn and not (c.after_kong and c.kong_feeder >= 0 and o.dian_gang_hua == "dianpao"):
        amount = base * mult + (base if o.zimo_bonus == "base" else 0)
        payments = tuple((s, winner, amount) for s in c.active if s != winner)
    elif c.self_drawn:
        amount = base * mult
        payments = ((c.kong_feeder, winner, amount),)
    else:
        amount = base * mult
        payments = ((c.discarder, winner, amount),) if c.discarder >= 0 else ()
    return amount, payments


def _result(a: _Analysis, c: _Ctx, o: SichuanOptions, hand: Hand | None,
            plus: int) -> tuple[Any, ...]:
    """The context result of a hand of analysis ``a`` (shared, except when tied readings of
    different patterns need the hand itself: then ``hand`` (+ ``plus``) decides)."""
    key = (c, o)
    r = a.results.get(key)
    if r is not None:
        return r
    _checks(a, c)
    value = a.values.get(o)
    if value is None:
        value = _value(a, o)
    if value[0] is not None:
        r = _in_context(a, value, c, o)
        a.results[key] = r
        return r
    assert hand is not None
    h = hand if plus < 0 else _plus(hand, plus)
    bits, value = _resolve(a, o, h, value[1])  # type: ignore[arg-type]
    return _in_context(a, value, c, o)


_new = tuple.__new__


def _evaluate(hand: Hand, tile: int, c: _Ctx, o: SichuanOptions) -> ScoreResult:
    # the cold path of ``score``: one core call, a few look-ups, the decomposition if standard
    melds = hand.melds
    a = _SHARED.get(hand_profile(hand) | (_meld_bits(melds) if melds else _NO_MELDS))
    if a is None or hand.concealed_count + 3 * len(melds) != 14:
        a = _analyse(hand)
    if a.honours:
        raise MahjongError("bad_tile", "sichuan uses only the m, p and s suits (no honours)")
    if hand.counts[tile] == 0:
        raise MahjongError("bad_context", f"win tile {_text(tile)} is not in the concealed hand")
    r = a.results.get((c, o))
    if r is None:
        r = _result(a, c, o, hand, -1)
    fan, total, mult, hits_t, amount, payments, value = r
    ref = value[1]
    return _new(ScoreResult, (NAME, o.scoring, fan, total, mult, hits_t,
                              ref if ref == "qidui" else decomposition_for(hand, ref),
                              value[2], c.self_drawn, payments, "", -1))


# --------------------------------------------------------------------------- compiled path
# The whole cold path in one core call (``_core.CompiledTable.score``, from the table's
# ``when`` data); ``MJ_PURE_SCORING=1`` keeps everything on the Python path above.

_TABLES: dict[SichuanOptions, compiled.CompiledTable] = {}
_CTX_FLAGS = ("self_drawn", "after_kong", "after_kong_discard", "robbing_kong", "last_tile",
              "heavenly", "earthly")


def _compiled_table(o: SichuanOptions) -> compiled.CompiledTable:
    t = compiled.compile_table(TABLE, o, name=NAME, unit=o.scoring, max_suits=2,
                               no_honours=True, tie_by_value=True, flat_after=True,
                               mult_pow2=o.scoring != "points", hand_extras_first=True)
    assert t is not None  # every row of the table has its ``when``
    if len(_TABLES) >= compiled.TABLES_KEPT:
        _TABLES.clear()
        _WAIT_CONTEXTS.clear()
    _TABLES[o] = t
    for c in _DEFAULT_CTX.values():  # score's context-free ones: there from the start
        _compiled_context(t, c, o)
    return t


def _compiled_context(t: compiled.CompiledTable, c: _Ctx,
                      o: SichuanOptions) -> compiled.CompiledContext:
    names = [n for n in _CTX_FLAGS if getattr(c, n)]
    if _zimo_count(None, c, o):
        names.append("zimo_fan")
    return t.add_context(c, compiled.CompiledContext(
        compiled.context_bits(TABLE, names), c.self_drawn,
        lambda fan, mult: _untrack(_payments(c, o, mult)[1]),
        missing_suit=c.missing_suit, no_melds=c.heavenly or c.earthly))


def _score_compiled(h: Hand, tile: int, c: _Ctx, o: SichuanOptions) -> ScoreResult:
    """``_evaluate`` in one core call; the Python path answers what the core leaves (every
    refusal, and hands past the core's bounds)."""
    t = _TABLES.get(o) or _compiled_table(o)
    result = t.score_in(h, tile, c)
    if result is False:
        _compiled_context(t, c, o)
        result = t.score_in(h, tile, c)
    return _evaluate(h, tile, c, o) if result is None else result


_RESULTS: Memo[tuple[object, ...], ScoreResult] = Memo(_CACHE_LIMIT)
_CONTEXTS: Memo[tuple[object, ...], _Ctx] = Memo(4096)  # (self-drawn, *context key) -> parsed context


def _score(
    hand: Hand | str,
    win_tile: int | str,
    self_drawn: bool,
    context: Mapping[str, object] | None,
    o: SichuanOptions,
) -> ScoreResult:
    """``score``'s every call but the common one (memoised per input): the Python path
    (``_evaluate``) where the compiled table leaves the answer, or always with
    ``MJ_PURE_SCORING``."""
    key: tuple[object, ...] | None
    if context is None:
        key = (hand, win_tile, type(win_tile), self_drawn, o)
    elif type(context) is dict or isinstance(context, Mapping):  # (the ABC check is slow)
        key = (hand, win_tile, type(win_tile), self_drawn, o, *_context_key(context))
    else:
        raise MahjongError("bad_context", "context must be a mapping of key to value")
    try:
        hit = _RESULTS.get(key)
    except TypeError:  # an unhashable argument: no memo (and an error just below)
        key, hit = None, None
    if hit is not None:
        return hit
    h = hand if type(hand) is Hand else _hand(hand)
    tile = win_tile if type(win_tile) is int and 0 <= win_tile < 34 else _tile(win_tile)
    if not context:
        ctx = _DEFAULT_CTX[bool(self_drawn)]
    elif key is None:
        ctx = _parse_context(context, self_drawn)
    else:
        ctx_key = (bool(self_drawn), *key[5:])  # key[5:]: the context's part (_context_key)
        known = _CONTEXTS.get(ctx_key)
        if known is None:
            known = _parse_context(context, self_drawn)  # raises for a bad context: not kept
            _CONTEXTS.keep(ctx_key, known)
        if type(context) is dict and (self_drawn is True or self_drawn is False) and \
                known.kong_feeder < 0:  # (a kong_feeder is checked against the hand here)
            _ENTRY.remember_context(_ckey(self_drawn, context), known)  # (the entry's next)
        ctx = known
    if ctx.kong_feeder >= 0:
        _check_feeder(h)
    result = None
    if not compiled.PURE:  # (``_score_compiled``, inlined: this is the hot path)
        t = _TABLES.get(o) or _compiled_table(o)
        result = t.score_in(h, tile, ctx)
        if result is False:
            _compiled_context(t, ctx, o)
            result = t.score_in(h, tile, ctx)
    if result is None:
        result = _evaluate(h, tile, ctx, o)
    if key is not None:
        # memo key and answer are immutable and acyclic: kept out of the cycle collector
        _RESULTS.keep(_untrack(key), _untrack(result))
    return result


def _context_key(context: Mapping[str, object]) -> tuple[object, ...]:
    """A context's part of a memo key: its items and the types of its values (``True``, ``1``
    and ``1.0`` are equal, but only some of them are valid where a flag or a seat goes); a
    list (active_seats) as a tuple, so such a context is parsed once too."""
    return (*((k, tuple(v) if type(v) is list else v) for k, v in context.items()),
            *map(type, context.values()))


def clear_caches() -> None:
    """Forget every memoised analysis, score and wait list (for cold benchmarks)."""
    _CONTEXTS.clear()
    _ENTRY.forget_contexts()
    clear_inputs()
    _SHARED.clear()
    _MELD_INFO.clear()
    _RESULTS.clear()
    _WAITS.clear()
    compiled.CompiledTable.clear_cache()


# --------------------------------------------------------------------------- waits

_SELF_ONLY = frozenset(("after_kong", "heavenly", "earthly", "kong_feeder"))
_DISCARD_ONLY = frozenset(("after_kong_discard", "robbing_kong", "discarder"))


_WAITS: Memo[tuple[object, ...], tuple[ValuedWait, ...]] = Memo(_CACHE_LIMIT)
_NO_VISIBLE = (0,) * 34
# per options: the compiled (discard, self-drawn) contexts of a context-free wait question
_WAIT_CONTEXTS: Memo[SichuanOptions, tuple[compiled.CompiledContext, compiled.CompiledContext]] = Memo(4096)


def _default_wait_contexts(table: compiled.CompiledTable, o: SichuanOptions,
                           ) -> tuple[compiled.CompiledContext, compiled.CompiledContext]:
    pair = (table.context(_DEFAULT_CTX[False]) or
            _compiled_context(table, _DEFAULT_CTX[False], o),
            table.context(_DEFAULT_CTX[True]) or _compiled_context(table, _DEFAULT_CTX[True], o))
    _WAIT_CONTEXTS.keep(o, pair)
    return pair


def _valued_waits(
    hand: Hand | str,
    context: Mapping[str, object] | None,
    o: SichuanOptions,
    visible: object = None,
) -> tuple[ValuedWait, ...]:
    """``valued_waits``'s every call but the common one (memoised per input)."""
    if context is not None and not isinstance(context, Mapping):
        raise MahjongError("bad_context", "context must be a mapping of key to value")
    key: tuple[object, ...] | None
    try:
        if visible is None and not context:
            key = (hand, o, None)
        else:
            key = (
                hand, o,
                visible if visible is None or isinstance(visible, str)
                else tuple(visible),  # type: ignore[arg-type]
                *(_context_key(context) if context else ()),
            )
        hit = _WAITS.get(key)
    except TypeError:
        key, hit = None, None
    if hit is not None:
        return hit
    h = hand if type(hand) is Hand else _hand(hand)
    if h.concealed_count + 3 * len(h.melds) != 13:
        raise MahjongError("wrong_tile_count",
                           "a waiting hand has 13 tiles (kongs count 3) before the winning tile")
    vis = _NO_VISIBLE if visible is None else _visible_counts(visible)
    if context:
        dctx = _parse_context({k: v for k, v in context.items() if k not in _SELF_ONLY}, False)
        sctx = _parse_context({k: v for k, v in context.items() if k not in _DISCARD_ONLY}, True)
        if sctx.kong_feeder >= 0:
            _check_feeder(h)
    else:
        dctx = _DEFAULT_CTX[False]
        sctx = _DEFAULT_CTX[True]
    got = None
    if not compiled.PURE:  # the core answers, or hands back what the Python path raises
        table = _TABLES.get(o) or _compiled_table(o)
        if context:
            cd = table.context(dctx) or _compiled_context(table, dctx, o)
            cs = table.context(sctx) or _compiled_context(table, sctx, o)
        else:
            cd, cs = _WAIT_CONTEXTS.get(o) or _default_wait_contexts(table, o)
        got = table.valued_waits(h, cd, cs, None if visible is None else vis)
    profile = hand_profile(h) if got is None else 0
    if profile & PROFILE_HONOURS:
        raise MahjongError("bad_tile", "sichuan uses only the m, p and s suits (no honours)")
    suits = (profile >> PROFILE_SUITS) & 7
    out: list[ValuedWait] = []
    ms = dctx.missing_suit
    if got is None and suits != 7 and not (ms >= 0 and (suits >> ms) & 1):
        allc = h.all_counts()
        melds = h.melds
        meld_key = _meld_bits(melds) if melds else _NO_MELDS
        for w in _core_waits(h):
            t = w.id
            bit = 1 << (t // 9)
            if (suits | bit) == 7 or (ms >= 0 and t // 9 == ms):
                continue
            a = _SHARED.get(hand_profile(h, t) | meld_key)
            if a is None:
                a = _analyse(h, t)
            try:
                rd = a.results.get((dctx, o)) or _result(a, dctx, o, h, t)
                rs = a.results.get((sctx, o)) or _result(a, sctx, o, h, t)
            except MahjongError as exc:
                if exc.code == "not_a_win":
                    continue
                raise
            unseen = 4 - allc[t] - vis[t]
            out.append(_untrack(_new(ValuedWait, (w.tile, t, rd[0], rs[0],
                                                  unseen if unseen > 0 else 0, rd[3], rs[3]))))
    result = tuple(out) if got is None else got
    if key is not None:
        # memo key and answer are immutable and acyclic: kept out of the cycle collector
        _WAITS.keep(_untrack(key), _untrack(result))
    return result


_ENTRY = compiled.CompiledEntry(_TABLES, _compiled_table, _DEFAULT_CTX[False], _DEFAULT_CTX[True],
                                _WAIT_CONTEXTS, _default_wait_contexts, _score, _valued_waits,
                                contexts={})
# The common calls (a ``Hand``, a tile id, no context or a dict context ``_score`` parsed
# before and the core checks by itself: every one but a kong_feeder's; a ``Hand``, no
# context, nothing visible) are answered in one core call (the options' compiled table and
# its cache); every other by ``_score`` and ``_valued_waits``.
score: Callable[[Hand | str, int | str, bool, Mapping[str, object] | None, SichuanOptions],
                ScoreResult] = _ENTRY.score
"""Score one winning hand (see ``mjcore.rules.score``). Memoised per input."""
valued_waits: Callable[..., tuple[ValuedWait, ...]] = _ENTRY.valued_waits
"""Every winning tile of a ready hand with its fan on a discard and self-drawn."""


def largest_wait(
    hand: Hand | str,
    context: Mapping[str, object] | None,
    o: SichuanOptions,
    visible: object = None,
) -> ValuedWait | None:
    """The wait worth most on a discard (查大叫), ties by self-draw value; None if not ready."""
    best: ValuedWait | None = None
    for w in valued_waits(hand, context, o, visible):
        if best is None or (w.fan_discard, w.fan_self_drawn) > (best.fan_discard,
                                                                 best.fan_self_drawn):
            best = w
    return best
