"""Guangdong scoring (docs/rulesets/guangdong.md §9-§11): the value of a winning hand by the fan
table (``table.TABLE``), and who pays whom.

The compiled table (``_core.CompiledTable``, built from the table's ``when`` data) values a
hand in one core call: readings, patterns, policy, the best reading, its decomposition, the
points and the payments of the context. What needs the melds' sources (the §15 checks, the
§11 liabilities) and ``min_fan`` is settled here. ``_score_python`` is the twin the compiled
path is held against (``MJ_PURE_SCORING=1``): the table's Python predicates on every reading
of the hand (``common.readings``), and the answer to every refusal.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, NamedTuple

from mjcore._core import _untrack
from mjcore._core import context_key as _ckey
from mjcore._core import waits as _core_waits
from mjcore.errors import MahjongError
from mjcore.hand import Hand, Meld
from mjcore.rules.common import compiled
from mjcore.rules.common.inputs import clear_caches as clear_inputs
from mjcore.rules.common.inputs import hand_of as _hand_of
from mjcore.rules.common.inputs import plus_tile as _plus
from mjcore.rules.common.inputs import tile_id as _tile
from mjcore.rules.common.inputs import tile_text as _text
from mjcore.rules.common.inputs import visible_counts as _visible_counts
from mjcore.rules.common.memo import Memo
from mjcore.rules.common.readings import Reading, concealed_decomposition, readings
from mjcore.rules.common.results import PatternHit, ScoreResult, ValuedWait
from mjcore.rules.common.table import Valued, best_reading
from mjcore.rules.guangdong.context import CONTEXT_KEYS
from mjcore.rules.guangdong.options import GuangdongOptions
from mjcore.rules.guangdong.table import SPECIAL_IDS, TABLE, WinFacts

NAME = "guangdong"
RELATIVE = ("left", "across", "right")
_REL_OFFSET = {"left": 3, "across": 2, "right": 1}  # absolute seat = (winner + offset) % 4
_WINDS = {"1z": 0, "2z": 1, "3z": 2, "4z": 3}
# Memo size per cache (melds, contexts, scores, wait lists); a full cache is cleared at
# once (no LRU bookkeeping on the hot path).
_CACHE_LIMIT = 50_000


def _bad(message: str) -> MahjongError:
    return MahjongError("bad_context", message)


# --------------------------------------------------------------------------- the hand

# The core's count errors carry its own codes; Guangdong reports the spec's one (§9).
_COUNT_CODES = frozenset(("too_many_copies", "wrong_tile_count"))


def hand_of(hand: object) -> Hand:
    """A ``Hand`` from a Hand or its text, with the core's count errors as ``tile_count``."""
    if type(hand) is Hand:
        return hand
    try:
        return _hand_of(hand)
    except MahjongError as exc:
        if exc.code in _COUNT_CODES:
            raise MahjongError("tile_count", exc.message) from None
        raise


def _check_count(h: Hand, want: int) -> None:
    n = h.concealed_count + 3 * len(h.melds)
    if n != want:
        raise MahjongError("tile_count", f"the hand has {h.concealed_count} concealed tiles and "
                           f"{len(h.melds)} melds: {want} tiles are needed (a kong counts 3)")


# Per-meld bits (a small table entry per distinct meld)
_M_CHI, _M_PUNG, _M_KONG, _M_GANG, _M_ANGANG, _M_BUGANG, _M_YAOJIU = 1, 2, 4, 8, 16, 32, 64
_M_HON = 7  # bits 7-13: the honour kind of an honour pung/kong
_MELD_BITS: Memo[Meld, int] = Memo(_CACHE_LIMIT)


def _meld_bits(m: Meld) -> int:
    """The meld's bits; ``bad_meld`` for a meld Guangdong does not have (a chi with a stand-in
    tile, a one-tile 痞子杠/赖子杠: Guangdong has no wild tiles)."""
    bits = _MELD_BITS.get(m)
    if bits is None:
        kind, t = m.kind, m.tiles[0]
        if not m.is_set or m.stand_in is not None:
            raise MahjongError("bad_meld", f"{m.to_text()} is not a Guangdong meld (a chi is three "
                               "consecutive tiles of one suit; no 痞子杠/赖子杠)")
        if kind == "chi":
            bits = _M_CHI
        else:
            bits = _M_PUNG
            if kind != "peng":
                bits |= _M_KONG | {"gang": _M_GANG, "angang": _M_ANGANG, "bugang": _M_BUGANG}[kind]
            if t >= 27 or t % 9 in (0, 8):
                bits |= _M_YAOJIU
            if t >= 27:
                bits |= 1 << (_M_HON + t - 27)
        _MELD_BITS.keep(m, bits)
    return bits


# --------------------------------------------------------------------------- the context


class Ctx(NamedTuple):
    """A parsed win context (seats absolute, 0-3)."""

    facts: WinFacts
    winner: int
    discarder: int  # -1: none (self-drawn)
    robbed: int
    gang_fed_by: int
    meld_from: tuple[int | None, ...] | None
    named: int  # bit i: meld_from names a seat for meld i (an angang must not have one)
    chi_bad: int  # bit i: a chi could not come from the seat meld_from names for meld i
    bao_exempt: bool
    flagged: bool  # 抢杠, 杠上开花 or a first-turn win: checks against the melds
    others: tuple[int, int, int]  # the three other seats
    cid: int  # a number per parsed context: its key in the memos and compiled tables


_CONTEXT_IDS = itertools.count()
_SEAT_KEYS = frozenset(("discarder", "robbed", "gang_fed_by"))
_FLAG_KEYS = frozenset(("qiang_gang", "gang_shang_kai_hua", "hai_di_lao_yue", "tianhe", "renhe",
                        "dihe", "bao_exempt"))
_CONTEXT_NAMES = frozenset(c.id for c in CONTEXT_KEYS)


def _relative(key: str, value: object) -> str:
    if isinstance(value, str) and value in _REL_OFFSET:
        return value
    raise _bad(f"{key!r} must be left, across or right (seen from the winner), got {value!r:.40}")


def parse_context(context: Mapping[str, object] | None, self_drawn: bool) -> Ctx:
    """Check a win context (§13, §15) and resolve its seats; ``bad_context`` if it is wrong or
    contradicts itself (the checks that need the hand come later)."""
    if context is None:
        context = {}
    if not isinstance(context, Mapping):
        raise _bad("context must be a mapping of key to value")
    if not isinstance(self_drawn, bool):
        raise _bad(f"self_drawn must be true or false, got {self_drawn!r:.40}")
    flags = dict.fromkeys(_FLAG_KEYS, False)
    rel: dict[str, str] = {}
    winds: dict[str, int] = {}
    winner, winners = 0, 1
    meld_from: tuple[str | None, ...] | None = None
    for key, value in context.items():
        if key in _FLAG_KEYS:
            if not isinstance(value, bool):
                raise _bad(f"{key!r} must be true or false, got {value!r:.40}")
            flags[key] = value
        elif key in _SEAT_KEYS:
            if value is not None:
                rel[key] = _relative(key, value)
        elif key in ("seat_wind", "round_wind"):
            if not isinstance(value, str) or value not in _WINDS:
                raise _bad(f"{key!r} must be a wind 1z-4z, got {value!r:.40}")
            winds[key] = _WINDS[value]
        elif key == "winner":
            if value is not None:
                if type(value) is not int or not 0 <= value < 4:
                    raise _bad(f"'winner' must be a seat 0-3, got {value!r:.40}")
                winner = value
        elif key == "winners_on_discard":
            if type(value) is not int or not 1 <= value <= 3:
                raise _bad(f"'winners_on_discard' must be 1-3, got {value!r:.40}")
            winners = value
        elif key == "meld_from":
            if value is None:
                continue
            if isinstance(value, str | bytes) or not isinstance(value, list | tuple):
                raise _bad("'meld_from' must be a list with one seat (or null) per meld")
            if len(value) > 4:
                raise _bad("'meld_from' lists at most four melds")
            meld_from = tuple(None if v is None else _relative("meld_from", v) for v in value)
        elif key not in _CONTEXT_NAMES:
            known = ", ".join(sorted(_CONTEXT_NAMES))
            raise _bad(f"unknown context key {key!r:.40} (known: {known})")
    for key in ("seat_wind", "round_wind"):
        if key not in winds:
            raise _bad(f"{key!r} is required (1z-4z)")
    seat_wind = winds["seat_wind"]
    qg, gsk = flags["qiang_gang"], flags["gang_shang_kai_hua"]
    firsts = [k for k in ("tianhe", "renhe", "dihe") if flags[k]]
    if len(firsts) > 1:
        raise _bad(f"a win is at most one of 天和/人和/地和, got {', '.join(firsts)}")
    flat = firsts[0] if firsts else ""
    if self_drawn and "discarder" in rel:
        raise _bad("a self-drawn win has no discarder")
    if qg and self_drawn:
        raise _bad("抢杠 (qiang_gang) wins on another player's tile: self_drawn must be false")
    if "robbed" in rel and not qg:
        raise _bad("'robbed' only goes with qiang_gang")
    if qg:
        if "robbed" not in rel:
            raise _bad("qiang_gang needs 'robbed': whose bugang was robbed pays")
        if rel.get("discarder", rel["robbed"]) != rel["robbed"]:
            raise _bad("on 抢杠 the discarder is the robbed player")
        rel["discarder"] = rel["robbed"]
    if gsk and not self_drawn:
        raise _bad("杠上开花 (gang_shang_kai_hua) is a self-draw")
    if "gang_fed_by" in rel and not gsk:
        raise _bad("'gang_fed_by' only goes with gang_shang_kai_hua")
    if winners > 1 and (self_drawn or qg):
        raise _bad("several winners only on one discard (not on a self-draw or 抢杠)")
    dealer_rel = ("", "left", "across", "right")[seat_wind]  # the 东 seat seen from the winner
    if flat in ("tianhe", "dihe") and not self_drawn:
        raise _bad(f"{flat} is self-drawn")
    if flat == "tianhe" and seat_wind != 0:
        raise _bad("天和 is the dealer's (seat wind 1z)")
    if flat in ("renhe", "dihe") and seat_wind == 0:
        raise _bad(f"{flat} is a non-dealer's win (seat wind 2z-4z)")
    if flat == "renhe":
        if self_drawn or qg:
            raise _bad("人和 is a win on the dealer's first discard")
        if rel.setdefault("discarder", dealer_rel) != dealer_rel:
            raise _bad(f"人和 is won on the dealer's discard: the dealer is {dealer_rel} of a "
                       f"seat with wind {seat_wind + 1}z")
    facts = WinFacts(self_drawn, self_drawn or qg, seat_wind, winds["round_wind"], qg, gsk,
                     "gang_fed_by" in rel, flags["hai_di_lao_yue"], winners, flat)

    def seat(key: str) -> int:
        r = rel.get(key)
        return -1 if r is None else (winner + _REL_OFFSET[r]) % 4

    abs_from = None if meld_from is None else tuple(
        None if r is None else (winner + _REL_OFFSET[r]) % 4 for r in meld_from)
    named = chi_bad = 0
    for i, r in enumerate(meld_from or ()):
        if r is not None:
            named |= 1 << i
            if r != "left":
                chi_bad |= 1 << i
    first, second, third = (s for s in range(4) if s != winner)
    others = (first, second, third)
    return _untrack(Ctx(_untrack(facts), winner, seat("discarder"), seat("robbed"),
                        seat("gang_fed_by"), abs_from, named, chi_bad, flags["bao_exempt"],
                        bool(qg or gsk or flat), others, next(_CONTEXT_IDS)))


def _context_key(context: Mapping[str, object]) -> tuple[object, ...]:
    """A context's part of a memo key: its items and the types of its values (``True`` and
    ``1`` are equal, but only one is a flag); lists (meld_from) as tuples."""
    items = tuple((k, tuple(v) if type(v) is list else v) for k, v in context.items())
    return (*items, *map(type, context.values()))


# --------------------------------------------------------------------------- analysis


class _Eval(NamedTuple):
    """The best reading's value under one WinFacts and options (the Python path)."""

    fan: int
    uncapped: int
    hits: tuple[PatternHit, ...]
    claim_total: int  # the total without the 一炮三响 floor (for min_fan)
    reading: Reading  # the reading scored
    points: int  # P: what one payer pays (§10)
    discard_amount: int  # what a discarder pays (P, or 3P with discarder_pays_three)


_SHAPES = ("standard", "qidui", "shisanyao")


def _evaluate(rs: tuple[Reading, ...], facts: WinFacts, o: GuangdongOptions) -> _Eval | None:
    """The best of the hand's readings ``rs`` (§9 steps 2-5; on a full tie the first in the
    core's order, §17 decision 11) and its value, or None when no reading wins."""
    valued: list[tuple[Valued, Reading]] = []
    for r in rs:
        if r.shape == "qidui" and not o.qidui:
            continue
        v = TABLE.evaluate(r, facts, o)
        if v is not None:
            valued.append((v, r))
    best = best_reading(valued)
    if best is None:
        return None
    v, r = best
    hits = tuple(_hit(x) for x in v.hits)
    p = o.base_points * o.fan_points[v.value]
    return _Eval(v.value, v.raw, hits, _claim(v.raw, hits, o), r, p,
                 3 * p if o.discard_payment == "discarder_pays_three" else p)


_FLOOR_IDS = frozenset(f.id for f in TABLE.floors)


def _claim(raw: int, hits: tuple[PatternHit, ...], o: GuangdongOptions) -> int:
    """The total ``min_fan`` is held against: capped unless the main pattern is special (or a
    first-turn win), a floor other than 一炮三响 lifting it to the cap."""
    claim = raw if hits[0].id in SPECIAL_IDS else min(raw, o.baohu_cap)
    if any(h.id != "yipaosanxiang" and h.fan == 0 and h.id in _FLOOR_IDS for h in hits):
        claim = max(claim, o.baohu_cap)
    return claim


# --------------------------------------------------------------------------- compiled path
# The table's value in one core call (``_core.CompiledTable.evaluate``, from its ``when``
# data): readings, features, patterns, extras, floors, the best reading and its decomposition.
# The payments and liabilities stay here. ``MJ_PURE_SCORING=1``: the Python path only.

_TABLES: Memo[GuangdongOptions, compiled.CompiledTable] = Memo(compiled.TABLES_KEPT)
_FACT_FLAGS = ("self_drawn", "zimo", "qiang_gang", "gang_shang_kai_hua", "gang_fed",
               "hai_di_lao_yue")


def _compiled_table(o: GuangdongOptions) -> compiled.CompiledTable:
    t = compiled.compile_table(TABLE, o, name=NAME, unit="fan", qidui=o.qidui, shisanyao=True,
                               multipliers=tuple(o.base_points * p for p in o.fan_points))
    assert t is not None  # every row of the table has its ``when``
    _TABLES.keep(o, t)
    return t


def _compiled_context(t: compiled.CompiledTable, c: Ctx,
                      o: GuangdongOptions) -> compiled.CompiledContext:
    """The context ``c`` compiled, kept in ``t`` under ``c.cid``, with its payments (§10)
    when no liability applies: on a self-draw every other seat pays the points, on a discard
    the discarder (three times with discarder_pays_three), none when it is not named; and
    what settles a result when the core's is not the whole answer (``_settle``)."""
    f = c.facts
    names = [n for n in _FACT_FLAGS if getattr(f, n)]
    if f.winners >= o.sanxiang_min_winners:
        names.append("sanxiang")
    if f.flat:
        names.append(f.flat)
    w = c.winner
    # Without checks only a self-draw's 包 by its melds is left (§11): the core's, from the
    # rules below (抢杠 and 杠上开花 are flagged: checked, and settled here)
    checks = c.flagged or f.winners > 1 and o.multi_ron == "first_only" or o.min_fan
    return t.add_context(c.cid, compiled.CompiledContext(
        compiled.context_bits(TABLE, names), f.self_drawn, partial(_pay, c, o), seat_wind=f.seat_wind,
        round_wind=f.round_wind, no_melds=bool(f.flat), plain_melds=True,
        meld_sources=None if c.meld_from is None else (len(c.meld_from), c.named, c.chi_bad),
        settle=(lambda r, h, tile: _settle(r, h, tile, c, o)) if checks else None,
        liabilities=() if checks or not f.zimo else _meld_liabilities(c, o),
        feeders=c.meld_from, winner=w, liable_pays=len(c.others)))


def _pay(c: Ctx, o: GuangdongOptions, value: int, p: int) -> tuple[tuple[int, int, int], ...]:
    """The payments of a win worth ``p`` points in context ``c`` when no liability applies."""
    if c.facts.zimo:
        return _untrack(tuple(_untrack((s, c.winner, p)) for s in c.others))
    if c.discarder < 0:
        return ()
    amount = 3 * p if o.discard_payment == "discarder_pays_three" else p
    return _untrack(((c.discarder, c.winner, amount),))


_WIND_TILES = sum(1 << t for t in range(27, 31))  # (tile masks: bit t for tile id t)
_DRAGON_TILES = sum(1 << t for t in range(31, 34))
_ANY_TILE = (1 << 34) - 1


def _meld_liabilities(c: Ctx, o: GuangdongOptions,
                      ) -> tuple[tuple[tuple[str, ...], int, int, str], ...]:
    """§11's liabilities by melds as the core reads them (``CompiledContext``): (main
    patterns, tiles whose melds count, how many, id); ``_liability`` is their Python twin."""
    rules: list[tuple[tuple[str, ...], int, int, str]] = []
    if o.bao_dasixi_dasanyuan:
        rules += [(("dasixi",), _WIND_TILES, 4, "dasixi"),
                  (("dasanyuan",), _DRAGON_TILES, 3, "dasanyuan")]
    if o.bao_shierzhang and not c.bao_exempt:
        rules.append(((), _ANY_TILE, 4, "shierzhang_luodi"))
    return tuple(rules)
_HITS: dict[PatternHit, PatternHit] = {}


def _hit(h: PatternHit) -> PatternHit:
    """One shared object per distinct hit (results hold many of them)."""
    return _HITS.setdefault(h, h)


# --------------------------------------------------------------------------- payments


def _meld_kinds(melds: tuple[Meld, ...]) -> tuple[int, int]:
    """(angangs, chis): bit i for meld i of that kind; ``bad_meld`` for a meld Guangdong does
    not have."""
    angangs = chis = 0
    for i, m in enumerate(melds):
        b = _MELD_BITS.get(m) or _meld_bits(m)
        if b & _M_ANGANG:
            angangs |= 1 << i
        elif b & _M_CHI:
            chis |= 1 << i
    return angangs, chis


def _meld_checks(melds: tuple[Meld, ...], angangs: int, chis: int, c: Ctx) -> None:
    """meld_from against the melds (§15): one entry per meld, none named for an angang, a chi
    only from the left seat (``angangs``, ``chis``: bit i for meld i of that kind)."""
    assert c.meld_from is not None
    if len(c.meld_from) != len(melds):
        raise _bad(f"'meld_from' has {len(c.meld_from)} entries for {len(melds)} melds")
    if angangs & c.named:
        raise _bad("an angang is claimed from nobody: its meld_from entry is null")
    if chis & c.chi_bad:
        raise _bad("a chi only comes from the left seat")


def _flag_checks(h: Hand, tile: int, c: Ctx) -> None:
    """抢杠, 杠上开花 and first-turn wins against the hand (§15)."""
    f = c.facts
    melds = h.melds
    if f.qiang_gang and h.held[tile] > 1:
        raise _bad(f"抢杠 of {_text(tile)}: the robbed bugang holds the other three copies, but "
                   f"the winner holds {h.held[tile]}")
    if f.flat and melds:
        raise _bad(f"{f.flat} is a first-turn win: no melds")
    if f.gang_shang_kai_hua:
        kinds = {m.kind for m in melds}
        if f.gang_fed:
            if "gang" not in kinds:
                raise _bad("杠上开花 after a 直杠 (gang_fed_by) needs a gang meld")
            if c.meld_from is not None and not any(
                    m.kind == "gang" and src == c.gang_fed_by
                    for m, src in zip(melds, c.meld_from)):
                raise _bad("gang_fed_by names a seat no gang meld was claimed from")
        elif not kinds & {"angang", "bugang"}:
            raise _bad("杠上开花 needs an angang or bugang (after a 直杠: name gang_fed_by)")


_BAO_MAINS = ("dasixi", "dasanyuan")  # main patterns that can make a 包 (§11)


def _liability(h: Hand, main: str, c: Ctx, o: GuangdongOptions) -> tuple[str, int]:
    """§11: (liability id, liable seat) of a self-drawn win, or ("", -1)."""
    f = c.facts
    if f.qiang_gang:
        return "qianggang", c.robbed
    if f.gang_fed:
        return "gangshangkaihua_baogang", c.gang_fed_by
    melds = h.melds
    if not melds or not f.self_drawn or f.flat:
        return "", -1
    found: tuple[int, int, str] | None = None  # (meld index, order, id)
    if o.bao_dasixi_dasanyuan and main in _BAO_MAINS:
        tiles = range(27, 31) if main == "dasixi" else range(31, 34)
        idx = [i for i, m in enumerate(melds) if m.kind != "chi" and m.tiles[0] in tiles]
        if len(idx) == len(tiles) and all(melds[i].kind != "angang" for i in idx):
            found = (idx[-1], 0, main)
    if (o.bao_shierzhang and not c.bao_exempt and len(melds) == 4
            and all(m.kind != "angang" for m in melds)):
        candidate = (3, 1, "shierzhang_luodi")
        if found is None or candidate < found:
            found = candidate
    if found is None:
        return "", -1
    i, _, id_ = found
    src = None if c.meld_from is None else c.meld_from[i]
    if src is None:
        raise _bad(f"{id_}: meld_from must say who fed meld {i + 1} ({melds[i].to_text()})")
    return id_, src


def _score(h: Hand, tile: int, c: Ctx, o: GuangdongOptions) -> ScoreResult:
    """The cold path of ``score``: the compiled table's result (value, hits, decomposition
    and the payments of its context, settled by ``_settle``); else (a refusal, no win,
    ``MJ_PURE_SCORING``) ``_score_python``."""
    if compiled.PURE:
        return _score_python(h, tile, c, o)
    t = _TABLES.get(o) or _compiled_table(o)
    r = t.score_cached(h, tile, c.cid)  # (a first ask: its fingerprint, for ``_ENTRY``)
    if r is False:
        _compiled_context(t, c, o)
        r = t.score_cached(h, tile, c.cid)
    if r is None:  # the Python path raises the error (the core checked counts, tile, melds
        return _score_python(h, tile, c, o)  # and meld_from)
    return r  # type: ignore[no-any-return]


def _settle(r: ScoreResult, h: Hand, tile: int, c: Ctx, o: GuangdongOptions) -> ScoreResult:
    """The core's result ``r`` settled (called by the core before it answers or keeps it):
    the checks of 抢杠, 杠上开花 and first-turn wins against the hand, ``multi_ron``,
    ``min_fan`` and a liability (§11, §15)."""
    if c.flagged:
        _flag_checks(h, tile, c)
    f = c.facts
    if f.winners > 1 and o.multi_ron == "first_only":
        raise _bad("with multi_ron first_only only one player wins on a discard")
    if o.min_fan and _claim(r.value_uncapped, r.patterns, o) < o.min_fan:
        raise MahjongError("below_min_fan", f"the hand is worth "
                           f"{_claim(r.value_uncapped, r.patterns, o)} fan (without the "
                           f"一炮三响 floor), below min_fan {o.min_fan}")
    if f.zimo and (f.qiang_gang or f.gang_fed or h.melds):
        return _bao(r, h, c, o)
    return r


def _bao(r: ScoreResult, h: Hand, c: Ctx, o: GuangdongOptions) -> ScoreResult:
    """``r`` of a self-drawn win with its liability (§11), if one applies: it needs 抢杠, a 直杠
    before 杠上开花, four melds (no angang) or a 大四喜/大三元 with melds."""
    f = c.facts
    melds = h.melds
    main = r.patterns[0].id
    if f.qiang_gang or f.gang_fed or melds and (
            len(melds) == 4 and not _meld_kinds(melds)[0] or main in _BAO_MAINS):
        liable, seat = _liability(h, main, c, o)
        if liable:
            return _untrack(_new(ScoreResult, (*r[:9], ((seat, c.winner, 3 * r.multiplier),),
                                               liable, seat)))
    return r


def _score_python(h: Hand, tile: int, c: Ctx, o: GuangdongOptions) -> ScoreResult:
    """``_score`` by the table's Python predicates on every reading of the hand, the twin of
    the compiled path; also what answers every refusal."""
    melds = h.melds
    angangs, chis = _meld_kinds(melds)  # refuses a meld Guangdong does not have
    if h.concealed_count + 3 * len(melds) != 14:
        _check_count(h, 14)
    if not h.counts[tile]:
        raise _bad(f"the winning tile {_text(tile)} is not in the concealed hand")
    if c.meld_from is not None:
        _meld_checks(melds, angangs, chis, c)
    if c.flagged:
        _flag_checks(h, tile, c)
    f = c.facts
    if f.winners > 1 and o.multi_ron == "first_only":
        raise _bad("with multi_ron first_only only one player wins on a discard")
    rs = readings(h, tile, _SHAPES)
    e = _evaluate(rs, f, o)
    if e is None:
        if any(r.shape == "qidui" for r in rs):
            raise MahjongError("not_a_win", "七对 is not a winning shape unless option qidui is on")
        raise MahjongError("not_a_win", "the tiles are not four sets and a pair or 十三幺")
    if e.claim_total < o.min_fan:
        raise MahjongError("below_min_fan", f"the hand is worth {e.claim_total} fan (without the "
                           f"一炮三响 floor), below min_fan {o.min_fan}")
    # payments (§10, §11)
    p = e.points
    w = c.winner
    main = e.hits[0].id
    liable, seat = "", -1
    payments: tuple[tuple[int, int, int], ...]
    if f.zimo:
        # a liability needs 抢杠, a 直杠 before 杠上开花, four melds or a 大四喜/大三元
        if f.qiang_gang or f.gang_fed or len(melds) == 4 and not angangs or (
                melds and main in _BAO_MAINS):
            liable, seat = _liability(h, main, c, o)
        if liable:
            payments = ((seat, w, 3 * p),)
        else:  # few distinct values: shared (and kept out of the cycle collector)
            pkey = p << 5 | w << 3 | 4  # 4: every other seat pays
            payments = _PAYMENTS.get(pkey) or _payments_of(pkey, c.others, w, p)
    elif c.discarder < 0:  # the context does not say who discarded: no payment to list
        payments = ()
    else:
        pkey = e.discard_amount << 5 | w << 3 | (c.discarder - w) & 3
        payments = _PAYMENTS.get(pkey) or _payments_of(pkey, (c.discarder,), w,
                                                       e.discard_amount)
    r = e.reading
    dec = concealed_decomposition(r) if r.shape == "standard" else r.shape
    return _new(ScoreResult, (NAME, "fan", e.fan, e.uncapped, p, e.hits, dec, r.shape,
                              f.self_drawn, payments, liable, seat))


_new = tuple.__new__
_RESULTS: Memo[tuple[object, ...], ScoreResult] = Memo(_CACHE_LIMIT)
_PAYMENTS: Memo[int, tuple[tuple[int, int, int], ...]] = Memo(4096)


def _payments_of(key: int, payers: tuple[int, ...], to: int, amount: int,
                 ) -> tuple[tuple[int, int, int], ...]:
    return _PAYMENTS.keep(key, _untrack(tuple(_untrack((s, to, amount)) for s in payers)))


_CONTEXTS: dict[tuple[object, ...], Ctx] = {}
# the same keys (of dict contexts and of none) -> the parsed context's ``cid``: what
# ``_ENTRY`` reads to answer a call from the compiled table's cache
_CIDS: dict[tuple[object, ...], int] = {}


def _remember(ck: tuple[object, ...], c: Ctx, context: object) -> None:
    """The parsed context ``c`` kept under its key ``ck`` (and its ``cid`` for ``_ENTRY`` when
    ``ck`` is ``context_key``'s: a dict context or none)."""
    if len(_CONTEXTS) >= 4096:
        _CONTEXTS.clear()
        _ENTRY.forget_contexts()
    _CONTEXTS[ck] = c
    if context is None or type(context) is dict:
        _ENTRY.remember_context(ck, c.cid)


def _general_score(
    hand: Hand | str,
    win_tile: int | str,
    self_drawn: bool,
    context: Mapping[str, object] | None,
    o: GuangdongOptions,
) -> ScoreResult:
    """``score``'s every call ``_ENTRY`` does not answer from the compiled table's cache:
    memoised per input (bounded), except a ``Hand`` with a tile id in a context seen for the
    first time (the table's cache keeps those from their second time)."""
    # The context's part of the memo keys, one flat tuple (few allocations: the cycle collector
    # runs less): self_drawn, the keys, the values (a meld_from list as a tuple) and the
    # values' types (True == 1, but only one of them is a flag).
    if context is None:
        ck: tuple[object, ...] = (self_drawn,)
    elif type(context) is dict:
        ck = _ckey(self_drawn, context)
    elif isinstance(context, Mapping):
        ck = (self_drawn, *_context_key(context))
    else:
        raise _bad("context must be a mapping of key to value")
    # The memo keys: the context's tuple finds its parsed Ctx, whose number keys the results.
    memo = True
    try:
        c = _CONTEXTS.get(ck)
    except TypeError:  # an unhashable value somewhere (an error below)
        ck = (self_drawn, *_context_key(context)) if context is not None else (self_drawn,)
        try:
            c = _CONTEXTS.get(ck)
        except TypeError:
            memo, c = False, None
    key: tuple[object, ...] | None = None
    if c is not None:
        key = (hand, win_tile, type(win_tile), o, c.cid)
        try:
            hit = _RESULTS.get(key)
        except TypeError:  # an unhashable hand or tile (an error below)
            key, hit = None, None
        if hit:
            return hit
    h = hand if type(hand) is Hand else hand_of(hand)
    tile = win_tile if type(win_tile) is int and 0 <= win_tile < 34 else _tile(win_tile)
    if c is None:
        c = parse_context(context, self_drawn)  # raises for a bad context: not kept
        if memo:
            _remember(ck, c, context)
            if not (type(hand) is Hand and type(win_tile) is int and ck in _CIDS):
                key = _results_key(hand, win_tile, o, c)
    result = _score(h, tile, c, o)
    return result if key is None else _keep(key, result)


def _keep(key: tuple[object, ...], result: ScoreResult) -> ScoreResult:
    """``result`` kept in the results memo under ``key``."""
    # memo key and answer are immutable and acyclic: kept out of the cycle collector
    _RESULTS.keep(_untrack(key), _untrack(result))
    return result


def parsed_context(context: Mapping[str, object] | None, self_drawn: bool) -> Ctx:
    """``parse_context`` through the contexts memo of ``score`` (one ``Ctx``, so one compiled
    context, per distinct context)."""
    try:
        ck = _ckey(self_drawn, context) if type(context) is dict else (
            self_drawn, *_context_key(context or {}))
        c = _CONTEXTS.get(ck)
    except TypeError:  # an unhashable value (an error of parse_context)
        return parse_context(context, self_drawn)
    if c is None:
        c = parse_context(context, self_drawn)
        _remember(ck, c, context)
    return c


def _results_key(hand: object, win_tile: object, o: GuangdongOptions,
                 c: Ctx) -> tuple[object, ...] | None:
    """The results memo's key, or None when the hand cannot be one (unhashable)."""
    key = (hand, win_tile, type(win_tile), o, c.cid)
    try:
        hash(key)
    except TypeError:
        return None
    return key


def points(result: ScoreResult) -> dict[str, Any]:
    """The worked cases' view of a result's payments: ``{"from": {relative seat: amount},
    "winner_total": n}`` plus ``"liable": id`` when a liability applied (seats relative to the
    winner, the seat every payment goes to)."""
    out: dict[str, Any] = {"from": {}, "winner_total": result.total}
    for frm, to, amount in result.payments:
        out["from"][RELATIVE[3 - (frm - to) % 4]] = amount
    if result.liable:
        out["liable"] = result.liable
    return out


def clear_caches() -> None:
    """Forget every memoised analysis, context, score and wait list (for cold benchmarks)."""
    clear_inputs()
    _ENTRY.forget_contexts()
    for memo in (_RESULTS, _CONTEXTS, _MELD_BITS, _WAITS, _HITS, _PAYMENTS, _WAIT_PAIRS):
        memo.clear()
    compiled.CompiledTable.clear_cache()


# --------------------------------------------------------------------------- waits

_SELF_ONLY = frozenset(("gang_shang_kai_hua", "gang_fed_by", "hai_di_lao_yue", "tianhe", "dihe"))
_DISCARD_ONLY = frozenset(("discarder", "qiang_gang", "robbed", "winners_on_discard", "renhe"))
_WAITS: Memo[tuple[object, ...], tuple[ValuedWait, ...]] = Memo(_CACHE_LIMIT)
_NO_VISIBLE = (0,) * 34


def _wait_value(h: Hand, t: int, self_drawn: bool, context: Mapping[str, object],
                o: GuangdongOptions) -> tuple[int, tuple[PatternHit, ...]] | None:
    """(fan, patterns) of winning on ``t``, or None when it is no win at or above min_fan."""
    try:
        r = score(_plus(h, t), t, self_drawn, context, o)
    except MahjongError as exc:
        if exc.code in ("not_a_win", "below_min_fan"):
            return None
        raise
    return r.fan, r.patterns


def _general_waits(
    hand: Hand | str,
    context: Mapping[str, object] | None,
    o: GuangdongOptions,
    visible: object = None,
) -> tuple[ValuedWait, ...]:
    """``valued_waits``'s every call ``_ENTRY`` does not answer from the compiled table
    (memoised per input, bounded)."""
    if type(context) is dict:
        ctx = context
    elif context is None or isinstance(context, Mapping):
        ctx = dict(context or {})
    else:
        raise _bad("context must be a mapping of key to value")
    key: tuple[object, ...] | None
    try:
        seen: object = visible if visible is None or isinstance(visible, str) else tuple(
            visible)  # type: ignore[arg-type]
        ck = _ckey(False, ctx)
        key = (hand, o, seen, ck)
        hit = _WAITS.get(key)
    except TypeError:
        key, hit = None, None
    if hit is not None:
        return hit
    got = pair = None
    if key is not None and not compiled.PURE:
        pair = _WAIT_PAIRS.get(ck)
        if pair is None:
            pair = _wait_pair(ck, ctx)
        if pair and type(context) is dict:
            _serve(ctx, pair, o)
        if pair and visible is None and type(hand) is Hand:
            got = _compiled_waits(hand, pair, o, None)  # (None: the checks below answer)
    if got is None:
        h = hand if type(hand) is Hand else hand_of(hand)
        _meld_kinds(h.melds)  # refuses a meld Guangdong does not have
        _check_count(h, 13)
        vis = _NO_VISIBLE if visible is None else _visible_counts(visible)
        if pair:
            got = _compiled_waits(h, pair, o, vis)
        if got is None:
            got = _python_waits(h, ctx, o, vis)
    if key is not None:
        _WAITS.keep(_untrack(key), _untrack(got))
    return got


def _split_context(ctx: dict[str, object]) -> tuple[dict[str, object], dict[str, object]]:
    """The context of a win on a discard and of a self-draw: keys that only fit one of the two
    are left out of the other; a discarder is named when none is (it does not change the fan)."""
    discard_ctx = {k: v for k, v in ctx.items() if k not in _SELF_ONLY}
    if "discarder" not in ctx and not ctx.get("qiang_gang") and not ctx.get("renhe"):
        discard_ctx["discarder"] = "across"
    return discard_ctx, {k: v for k, v in ctx.items() if k not in _DISCARD_ONLY}


# a waits context (its memo key part) -> its parsed (discard, self-drawn) pair, or () when the
# Python path must answer: a context that is wrong (its errors come from ``score``)
_WAIT_PAIRS: Memo[tuple[object, ...], tuple[Ctx, Ctx] | tuple[()]] = Memo(4096)


def _wait_pair(ck: tuple[object, ...], ctx: dict[str, object]) -> tuple[Ctx, Ctx] | tuple[()]:
    discard_ctx, self_ctx = _split_context(ctx)
    pair: tuple[Ctx, Ctx] | tuple[()]
    try:
        pair = (parse_context(discard_ctx, False), parse_context(self_ctx, True))
    except MahjongError:
        pair = ()
    _WAIT_PAIRS.keep(ck, pair)
    return pair


def _serve(ctx: dict[str, object], pair: tuple[Ctx, Ctx], o: GuangdongOptions) -> None:
    """The waits context ``ctx`` served by ``_ENTRY`` under ``o`` (its compiled pair kept in
    the entry's contexts, under ``context_key(None, ctx)``, by options), unless its waits need
    what ``_compiled_waits`` settles beyond the table's values and who fed the melds:
    ``min_fan``, ``multi_ron``'s refusal, the checks of 抢杠, 杠上开花 and first-turn wins."""
    d, s = pair
    if d.flagged or s.flagged or o.min_fan or (o.multi_ron == "first_only"
                                               and d.facts.winners > 1):
        return
    wk = _ckey(None, ctx)
    assert _ENTRY.contexts is not None
    served = _ENTRY.contexts.get(wk)
    if served is not None and o in served:
        return
    t = _TABLES.get(o) or _compiled_table(o)
    compiled.serve_waits(_ENTRY, ctx, o, (t.context(d.cid) or _compiled_context(t, d, o),
                                          t.context(s.cid) or _compiled_context(t, s, o)))


def _compiled_waits(h: Hand, pair: tuple[Ctx, Ctx], o: GuangdongOptions,
                    vis: tuple[int, ...] | None) -> tuple[ValuedWait, ...] | None:
    """The waits valued by the core's ``valued_waits`` in the two contexts (it checks the
    count, the melds and ``meld_from``), or None when the Python path must answer: a refusal,
    ``multi_ron``'s, a self-drawn 包 that ``meld_from`` does not source (errors of ``score``,
    tile by tile). With ``min_fan`` a way below it is -1 with no patterns (§15)."""
    if o.multi_ron == "first_only" and pair[0].facts.winners > 1:
        return None
    melds = h.melds
    if melds:  # a self-drawn 包 (§11) that meld_from does not source is an error of ``score``
        full = (1 << len(melds)) - 1
        named = pair[1].named if pair[1].meld_from is not None else 0
        if named != full:
            angangs = _meld_kinds(melds)[0]
            if (named | angangs) != full and (len(melds) == 4 and not angangs or any(
                    m.tiles[0] >= 27 for m in melds)):
                return None
    t = _TABLES.get(o) or _compiled_table(o)
    d, s = pair
    got = t.valued_waits(h, t.context(d.cid) or _compiled_context(t, d, o),
                         t.context(s.cid) or _compiled_context(t, s, o), vis)
    if got and (d.flagged or s.flagged) and not _flags_fit(h, got, d, s):
        return None
    if got is None or not o.min_fan:
        return got
    out = []
    for w in got:  # the claim of each way against min_fan (as ``score`` holds it)
        on_d = _claim(sum(x.fan for x in w.patterns_discard), w.patterns_discard,
                      o) >= o.min_fan
        on_s = _claim(sum(x.fan for x in w.patterns_self_drawn), w.patterns_self_drawn,
                      o) >= o.min_fan
        if on_d and on_s:
            out.append(w)
        elif on_d or on_s:
            out.append(_untrack(_new(ValuedWait, (
                w.tile, w.id, w.fan_discard if on_d else -1, w.fan_self_drawn if on_s else -1,
                w.unseen, w.patterns_discard if on_d else (),
                w.patterns_self_drawn if on_s else ()))))
    return tuple(out)


def _flags_fit(h: Hand, waits: tuple[ValuedWait, ...], d: Ctx, s: Ctx) -> bool:
    """抢杠, 杠上开花 and first-turn wins fit the hand for every wait (else ``score``'s error,
    tile by tile, is the answer). On a discard only 抢杠 is tile by tile (the robbed bugang
    holds the other three copies); 人和's no-melds rule the core has checked. Self-drawn, the
    checks read the melds only (抢杠 is not in that context)."""
    if d.facts.qiang_gang and any(h.held[w.id] for w in waits):
        return False
    if s.flagged:
        try:
            _flag_checks(h, -1, s)
        except MahjongError:
            return False
    return True


def _python_waits(h: Hand, ctx: dict[str, object], o: GuangdongOptions,
                  vis: tuple[int, ...]) -> tuple[ValuedWait, ...]:
    """The waits valued by ``score`` tile by tile (the twin of ``_compiled_waits``)."""
    discard_ctx, self_ctx = _split_context(ctx)
    held = h.held
    # 抢杠: the robbed bugang holds the other three copies, so a kind the hand holds cannot
    # be robbed (no win on a discard; ``score`` refuses the hand)
    robbing = bool(discard_ctx.get("qiang_gang"))
    out: list[ValuedWait] = []
    for w in _core_waits(h, shapes=("standard", "qidui", "shisanyao") if o.qidui
                         else ("standard", "shisanyao")):
        t = w.id
        if held[t] >= 4:
            continue
        d = None if robbing and held[t] else _wait_value(h, t, False, discard_ctx, o)
        s = _wait_value(h, t, True, self_ctx, o)
        if d is None and s is None:
            continue
        unseen = 4 - held[t] - vis[t]
        out.append(_untrack(_new(ValuedWait, (
            w.tile, t, -1 if d is None else d[0], -1 if s is None else s[0],
            unseen if unseen > 0 else 0, () if d is None else d[1], () if s is None else s[1]))))
    return tuple(out)


def _situation(self_drawn: bool | None, context: dict[str, object],
               o: GuangdongOptions) -> int | None:
    """The ``cid`` of a context without meld_from, compiled in the options' table: what
    ``_ENTRY`` derives the contexts that add a meld_from from (a new meld_from costs no parse
    and no Python call). A waits context (``self_drawn`` None) is served instead, if it
    may be (``_serve``)."""
    if self_drawn is None:
        ck = _ckey(False, context)
        pair = _WAIT_PAIRS.get(ck)
        if pair is None:
            pair = _wait_pair(ck, context)
        if pair:
            _serve(context, pair, o)
        return None
    c = parsed_context(context, self_drawn)
    _compiled_context(_TABLES.get(o) or _compiled_table(o), c, o)
    return c.cid


_ENTRY = compiled.CompiledEntry(_TABLES, _compiled_table, None, None, {}, None,
                                _general_score, _general_waits, contexts=_CIDS,
                                sources_key="meld_from", source_offsets=_REL_OFFSET,
                                situation=_situation)
# A ``Hand`` and a tile id in a context already parsed (a dict or none) is answered in one
# core call (the options' compiled table, the context's ``cid`` and the table's cache), and
# so is a ``Hand``'s waits in a context already served (``_serve``) with nothing visible;
# every other call by ``_general_score`` and ``_general_waits``.
score: Callable[[Hand | str, int | str, bool, Mapping[str, object] | None, GuangdongOptions],
                ScoreResult] = _ENTRY.score
"""Score one winning hand (see ``mjcore.rules.score`` and docs/rulesets/guangdong.md §9).
Memoised per input (bounded)."""
valued_waits: Callable[..., tuple[ValuedWait, ...]] = _ENTRY.valued_waits
"""Every tile that completes the 13-tile ``hand``, with its fan on a discard and self-drawn
(the context's winds and other keys; keys that only fit one of the two are left out of the
other). With ``min_fan`` a tile counts when it wins at or above it either way (§15); the way
it does not is reported with fan -1 and no patterns."""
