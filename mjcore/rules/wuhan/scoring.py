"""Wuhan 红中赖子杠 scoring and valued waits (docs/rulesets/wuhan.md).

A hand is read every way its 赖子 allow (``common.wilds``), each reading reduced to a
``table.Shape`` by the common predicates; the fan table values each shape (小胡 or the 大胡
that add up to H, times 硬胡 and the like) and the reading worth most is taken. W is that
product times the winner's doublings F(winner); each payer L owes base × H × W × F(L).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from mjcore._core import HandBase, decompose, is_win, wait_mask
from mjcore.errors import MahjongError
from mjcore.hand import Decomposition, Hand, Meld
from mjcore.rules.common import compiled
from mjcore.rules.common.inputs import clear_caches as clear_inputs
from mjcore.rules.common.inputs import plus_tile, tile_id, visible_counts
from mjcore.rules.common.inputs import tile_text as _text
from mjcore.rules.common.memo import Memo
from mjcore.rules.common.patterns import all_258, all_pungs, is_258, qingyise, ziyise
from mjcore.rules.common.readings import Reading, concealed_decomposition, readings
from mjcore.rules.common.results import PatternHit, ScoreResult, ValuedWait
from mjcore.rules.common.wilds import has_wild_reading, wild_readings
from mjcore.rules.wuhan.context import (
    NO_KEY,
    OFFSET,
    OPENING,
    RELATIVE,
    Context,
    bad_context,
    cached_context,
    check_melds,
    clear_contexts,
    doublings,
    freeze,
    parse_context,
    parse_hand,
    relative_of,
)
from mjcore.rules.wuhan.options import WuhanOptions
from mjcore.rules.wuhan.table import DAHU_ORDER, TABLE, Ctx, Shape

NAME = "wuhan"
_KONGS = frozenset(("gang", "angang", "bugang", "pizigang", "laizigang"))
_CACHE_LIMIT = 50_000


class WuhanResult(ScoreResult):
    """A ``ScoreResult`` that also names Wuhan's two factors: ``value`` is H × W and
    ``multiplier`` is W, so a payer with no doublings pays ``base_points × value``."""

    __slots__ = ()

    @property
    def hand_base(self) -> int:
        """H: 1 for a 小胡, 10 × the number of 大胡 (by default)."""
        return self.value // self.multiplier

    @property
    def winner_factor(self) -> int:
        """W: F(winner) × 硬胡 (× 杠上花 as a factor)."""
        return self.multiplier

    @property
    def points(self) -> dict[str, Any]:
        """The payments as the worked cases write them: ``from`` (relative seat → amount),
        ``winner_total`` and, when one seat pays for all, ``liable``."""
        out: dict[str, Any] = {"from": {relative_of(to, frm): amount
                                        for frm, to, amount in self.payments},
                               "winner_total": self.total}
        if self.liable:
            out["liable"] = self.liable
        return out


# --------------------------------------------------------------------------- readings

_SHAPES: Memo[tuple[object, ...], tuple[tuple[Shape, Any], ...]] = Memo(_CACHE_LIMIT)


_NO_YISE = (False, False, False)


def _shape_of(r: Reading, laizi: int,
              tiles: dict[tuple[tuple[int, int], ...], tuple[bool, bool, bool]] | None) -> Shape:
    """A reading with every 赖子 placed, seen by the common predicates. ``tiles`` memoises
    the 一色 predicates per placement of the 赖子 (every reading without them shares one);
    None when no placement can make any of them (see ``_yise_possible``)."""
    yise = tiles.get(r.wilds) if tiles is not None else _NO_YISE
    if yise is None:
        assert tiles is not None
        placed = r
        if r.wilds:
            held = list(r.held)
            held[laizi] -= len(r.wilds)
            for _, k in r.wilds:
                held[k] += 1
            placed = Reading(r.shape, r.sets, r.pair, r.pairs, tuple(held), r.melds, r.win_tile,
                             r.wilds)
        yise = tiles[r.wilds] = (qingyise(placed), ziyise(placed), all_258(placed))
    used = sum(1 for _, k in r.wilds if k != laizi)
    return Shape(r.shape, all_pungs(r), r.pair >= 0 and is_258(r.pair), used, *yise)


def _yise_possible(core: Hand, laizi: int) -> bool:
    """Whether some placement of the 赖子 may make 清一色, 字一色 or 将一色 true. Each holds
    when every kind held has a property (one suit, honour, 2/5/8), so adding the kinds the
    赖子 stand for never turns one true that the natural tiles alone make false: with a
    natural tile held and all three false on the naturals, no reading needs them computed."""
    nat = list(core.held)
    nat[laizi] -= core.counts[laizi]
    if not any(nat):
        return True
    one = Reading("standard", (), -1, (), tuple(nat), 0, -1)  # tiles only
    return qingyise(one) or ziyise(one) or all_258(one)


def _shapeless(core: Hand, laizi: int) -> list[Shape]:
    """yise_any_shape: 风一色 / 将一色 of any 14 tiles; the 赖子 stand for themselves (硬)
    when their kind fits, or for another fitting kind (软)."""
    k = core.counts[laizi]
    nat = list(core.held)
    nat[laizi] -= k
    kinds = [t for t in range(34) if nat[t]]
    out = []
    if all(t >= 27 for t in kinds):
        if not k or laizi >= 27:
            out.append(Shape("yise", False, False, 0, False, True, False))
        if k:
            out.append(Shape("yise", False, False, k, False, True, False))
    if all(is_258(t) for t in kinds):
        suits = {t // 9 for t in kinds}
        if not k or is_258(laizi):
            hard = suits | ({laizi // 9} if k else set())
            out.append(Shape("yise", False, False, 0, len(hard) == 1, False, True))
        if k:
            out.append(Shape("yise", False, False, k, len(suits) <= 1, False, True))
    return out


def shapes(core: Hand, laizi: int, o: WuhanOptions) -> tuple[tuple[Shape, Any], ...]:
    """Every distinct shape of ``core`` (concealed tiles and set melds) with a reading that
    makes it (None for the shapeless 一色). Memoised per hand, 赖子 and shape options."""
    key = (core, laizi, o.qidui, o.yise_any_shape)
    hit = _SHAPES.get(key)
    if hit is not None:
        return hit
    kinds = ("standard", "qidui") if o.qidui else ("standard",)
    out: dict[Shape, Any] = {}
    if not core.counts[laizi] and not o.qidui:
        # no wild and no special shape: the core's decompositions are the readings; the 一色
        # predicates see the same tiles in every one of them
        one = Reading("standard", (), -1, (), core.held, len(core.melds), -1)  # tiles only
        yise = (qingyise(one), ziyise(one), all_258(one))
        chi = any(m.kind == "chi" for m in core.melds)
        for d in decompose(core):
            out.setdefault(Shape("standard", not (chi or d.chows), is_258(d.pair), 0, *yise), d)
    elif core.counts[laizi] and not o.qidui and not has_wild_reading(core.counts, laizi):
        pass  # no standard reading at all: one core call instead of the search (move probes)
    else:
        found = wild_readings(core, -1, laizi, kinds) if core.counts[laizi] else readings(
            core, -1, kinds)
        tiles: dict[tuple[tuple[int, int], ...], tuple[bool, bool, bool]] | None = (
            {} if _yise_possible(core, laizi) else None)
        for r in found:
            out.setdefault(_shape_of(r, laizi, tiles), r)
    if o.yise_any_shape:
        for s in _shapeless(core, laizi):
            out.setdefault(s, None)
    result = tuple(out.items())
    _SHAPES.keep(key, result)
    return result


class _Value(NamedTuple):
    """One shape's worth in one context: its rank among readings, the hits, H, the product
    of the extras (W before the winner's doublings) and the ids making up H."""

    rank: tuple[Any, ...]
    hits: tuple[PatternHit, ...]
    hand_base: int
    extras: int
    ids: frozenset[str]


_VALUED: Memo[tuple[Shape, Ctx, WuhanOptions], _Value | None] = Memo(_CACHE_LIMIT)


def _valued(s: Shape, c: Ctx, o: WuhanOptions) -> _Value | None:
    """The value of one shape in one context (few distinct ones: memoised)."""
    key = (s, c, o)
    if key in _VALUED:
        return _VALUED[key]
    v = TABLE.evaluate(s, c, o)
    out = None
    if v is not None:
        base = [h for h in v.hits if h.id == "xiaohu" or _is_dahu(h, o)]
        dahu = sorted(DAHU_ORDER[h.id] for h in base if h.id != "xiaohu")
        h_base = sum(h.fan for h in base)
        # 硬 before 软, then more 大胡, then the 大胡 earlier in §5 (docs: ties)
        out = _Value((v.value, not s.wilds, len(dahu), tuple(-i for i in dahu)), v.hits,
                     h_base, v.value // h_base, frozenset(h.id for h in base))
    _VALUED.keep(key, out)
    return out


def _decomposition(r: Any, shape: str) -> Any:
    """The concealed sets and pair of a standard reading (the core's own decomposition when
    there was no wild), else the shape's id."""
    if r is None or shape != "standard":
        return shape
    if isinstance(r, Decomposition):
        return r
    return concealed_decomposition(r)  # each 赖子 counted as the kind it stands for


def _why_not(found: tuple[tuple[Shape, Any], ...], c: Ctx, o: WuhanOptions) -> str:
    if not found:
        return "the tiles do not form four sets and a pair" + (" or 七对" if o.qidui else "")
    for flag, name in ((c.haidi, "海底捞"), (c.gsh and o.gangshanghua_as == "dahu", "杠上花"),
                       (c.robbed, "抢杠"), (c.quanqiu and c.discard, "全求人")):
        if flag:
            return f"{name} keeps the 2/5/8 pair"
    if any(s.pair258 for s, _ in found):
        return f"a 小胡 may use at most {_count(o.xiaohu_max_laizi)} 赖子 as a wild"
    return "a 小胡 needs a 2/5/8 pair"


def _count(n: int) -> str:
    return ("no", "one", "two", "three", "four")[n]


# --------------------------------------------------------------------------- scoring

_RESULTS: Memo[tuple[object, ...], ScoreResult] = Memo(_CACHE_LIMIT)




def _general_score(hand: Hand | str, win_tile: int | str, self_drawn: bool,
                   context: Mapping[str, object] | None, o: WuhanOptions) -> ScoreResult:
    """``score``'s every call ``_ENTRY`` does not answer from the compiled table's cache: the
    compiled table for a text (parsed first, as the Python path does: its errors come first)
    or in a context met for the first time, else the Python path, memoised per input
    (bounded)."""
    key: tuple[object, ...] | None
    frozen: object = None
    try:
        frozen = None if context is None else freeze(context)
        key = (hand, win_tile, type(win_tile), bool(self_drawn), o, frozen)
        hit = _RESULTS.get(key)
        if hit is not None:
            return hit
        if not compiled.PURE and (type(hand) is Hand or type(hand) is str) and (
                context is None or type(context) is dict):
            t = _TABLES.get(o, _UNSET)
            if t is _UNSET:
                t = _compiled_table(o)
            if t is not None:
                ck = _table_key(t, self_drawn, context, o, frozen)
                got = None if ck is None else t.score_cached(parse_hand(hand), win_tile, ck)
                if got:
                    return got  # type: ignore[no-any-return]
    except TypeError:
        key, frozen = None, NO_KEY
    result = _score(hand, win_tile, bool(self_drawn), context, o, frozen)
    if key is not None:
        _RESULTS.keep(key, result)
    return result


class _MeldInfo(NamedTuple):
    """What scoring needs of a hand's melds (checked once per melds, 赖子 and options)."""

    sets: tuple[Meld, ...]  # the set melds (not the one-tile kongs)
    opened: bool  # a chi, peng, gang or bugang (开口)
    quanqiu: bool  # four set melds, all chi/peng/gang/bugang (全求人)
    kong: bool  # a kong of any kind (杠上花)
    factor: int  # F(winner)


_MELD_INFO: Memo[tuple[object, ...], _MeldInfo] = Memo(_CACHE_LIMIT)


def _meld_info(melds: tuple[Meld, ...], laizi: int, o: WuhanOptions) -> _MeldInfo:
    key = (melds, laizi, o)
    mi = _MELD_INFO.get(key)
    if mi is None:
        check_melds(melds, laizi, o, "the hand")
        sets = tuple(m for m in melds if m.is_set)
        mi = _MeldInfo(sets, any(m.kind in OPENING for m in melds),
                       len(sets) == 4 and all(m.kind in OPENING for m in sets),
                       any(m.kind in _KONGS for m in melds), doublings(melds, o))
        _MELD_INFO.keep(key, mi)
    return mi


def _payers_tiles(c: Context) -> list[int]:
    """34 counts of the tiles in the payers' melds."""
    out = [0] * 34
    for _, melds in c.payers:
        for m in melds:
            for t in m.tiles:
                out[t] += 1
    return out


def _held_in_view(hand: Hand, c: Context) -> list[int]:
    """The copies of each kind over the hand and the payers' melds; ``tile_count`` past four
    (the hand alone was checked when it was built)."""
    held = [a + b for a, b in zip(hand.all_counts(), _payers_tiles(c), strict=True)]
    if max(held) > 4:
        t = held.index(max(held))
        raise MahjongError("tile_count", f"{_text(t)} appears {held[t]} times over the "
                           "hand and the payers' melds")
    return held


def _score(hand_arg: object, win_tile: object, sd: bool, context: Mapping[str, object] | None,
           o: WuhanOptions, frozen: object) -> ScoreResult:
    hand = parse_hand(hand_arg)
    if type(win_tile) is not int or not 0 <= win_tile < 34:
        tile = tile_id(win_tile, "the winning tile")
    else:
        tile = win_tile
    c = cached_context(context, sd, o, frozen)
    laizi = c.laizi
    melds = hand.melds
    mi = _meld_info(melds, laizi, o)
    set_melds = mi.sets
    if hand.concealed_count + 3 * len(set_melds) != 14 or len(set_melds) > 4:
        raise MahjongError("tile_count", f"a winning hand has 14 tiles besides one-tile kongs "
                           f"(kongs count 3), got {hand.concealed_count} concealed and "
                           f"{len(set_melds)} set melds")
    if c.payers:  # the hand alone was checked when it was built
        _held_in_view(hand, c)
    if not hand.counts[tile]:
        raise bad_context(f"the winning tile {_text(tile)} is not in the concealed hand")
    if c.gsh and not mi.kong:
        raise bad_context("gang_shang_hua (杠上花) needs a kong among the winner's melds")
    if c.meld_from is not None:
        if len(c.meld_from) != len(set_melds):
            raise bad_context(f"meld_from lists {len(c.meld_from)} seats for {len(set_melds)} set melds")
        for m, src in zip(set_melds, c.meld_from):
            # an angang comes from nobody, a chi from the left, the others from some seat
            if (src is None) != (m.kind == "angang") or (m.kind == "chi" and src != "left"):
                raise bad_context(f"meld_from: {m.to_text()} cannot come from {src}")
    for t in o.pizi_kinds:
        if hand.counts[t]:
            raise MahjongError("pizi_in_hand", f"a hand holding a 痞子 ({_text(t)}) cannot win")
    if o.must_open and not mi.opened:
        raise MahjongError("must_open", "no chi, peng, gang or bugang")
    tctx = Ctx(sd, c.discarder is not None, c.robbed is not None, c.gsh, c.haidi, mi.quanqiu)
    if len(set_melds) == len(melds):
        core = hand
    else:  # the one-tile kongs laid aside: built without re-validation (checked above)
        held_ = list(hand.all_counts())
        for m in melds:
            if not m.is_set:
                held_[m.tiles[0]] -= 1
        core = Hand.__new__(Hand)
        HandBase.__init__(core, hand.counts, set_melds, tuple(held_))
    found = shapes(core, laizi, o)
    best: tuple[_Value, Shape, Any] | None = None
    for s, r in found:
        v = _valued(s, tctx, o)
        if v is not None and (best is None or v.rank > best[0].rank):
            best = (v, s, r)
    if best is None:
        raise MahjongError("not_a_win", _why_not(found, tctx, o))
    v, s, r = best
    h_base = v.hand_base
    w = v.extras * mi.factor
    per = o.base_points * h_base * w
    if per < o.min_points:
        raise MahjongError("below_min_points", f"base × H × W = {per} is below min_points "
                           f"{o.min_points}")
    pay_key = (c, sd, h_base, w, v.ids, o)
    paid = _PAID.get(pay_key)
    if paid is None:
        paid = _payments(c, sd, h_base, w, v.ids, o)
        _PAID.keep(pay_key, paid)
    payments, liable, liable_seat = paid
    return WuhanResult(NAME, "points", h_base * w, h_base * w, w, v.hits,
                       _decomposition(r, s.shape), s.shape, sd, payments, liable, liable_seat)


# --------------------------------------------------------------------------- compiled path
# The table's ``when`` data run by the core (``CompiledTable.score_placed``: every placement of
# the 赖子, the doublings of the melds, the best reading, the result); the options with shapes
# the core does not list (qidui, yise_any_shape) stay on the Python path above, as does
# everything the core hands back (every refusal, a hand that makes a fifth copy with the
# payers' melds, hands past its bounds).
# ``MJ_PURE_SCORING=1``: the Python path only.

_UNSET: Any = object()
_TABLES: Memo[WuhanOptions, compiled.CompiledTable | None] = Memo(compiled.TABLES_KEPT)
_DOUBLINGS = {"gang": 2, "bugang": 2, "pizigang": 2, "angang": 4, "laizigang": 4}


def _compiled_table(o: WuhanOptions) -> compiled.CompiledTable | None:
    t = None
    if not (o.qidui or o.yise_any_shape):
        t = compiled.compile_table(
            TABLE, o, name=NAME, unit="points", qidui=False, placed=True,
            meld_factors=_DOUBLINGS if o.factors else {}, open_factor=2 if o.factors else 1,
            open_kinds=tuple(OPENING), no_kinds=tuple(o.pizi_kinds), must_open=o.must_open,
            one_tile_melds={"pizigang": "no_kinds", "laizigang": "wild"},
            tie_patterns=tuple(DAHU_ORDER), result_type=WuhanResult)
    _TABLES.keep(o, t)
    return t


def _context_names(c: Context, sd: bool, o: WuhanOptions) -> list[str]:
    """The table's context features that hold in ``c`` (``table.CONTEXT_FEATURES``)."""
    return [n for n, on in (
        ("robbed", c.robbed is not None), ("gsh_dahu", c.gsh and o.gangshanghua_as == "dahu"),
        ("gsh_factor", c.gsh and o.gangshanghua_as == "factor"), ("haidi", c.haidi),
        ("quanqiu_claim", c.discarder is not None or (sd and o.quanqiuren_self_draw)),
        ("any_pair", o.situational_any_pair)) if on]


# ``context_key(self_drawn, context)`` of a dict context (or none) -> that same tuple: the key
# of its compiled form in every table (``compiled.entry_key``), ``_ENTRY``'s contexts
_KEYS_OF: dict[tuple[object, ...], tuple[object, ...]] = {}


def _table_key(t: compiled.CompiledTable, sd: bool, context: dict[str, object] | None,
               o: WuhanOptions, frozen: object = _UNSET) -> tuple[object, ...] | None:
    """``compiled.entry_key``: None for a context the Python path refuses (it says why, in
    its order). TypeError for an unhashable context value. ``frozen``: ``freeze(context)``
    when the caller has it."""
    def make() -> compiled.CompiledContext | None:  # (a context met before needs no freeze)
        key = frozen
        if key is _UNSET:
            key = None if context is None else freeze(context)
        try:
            c = cached_context(context, bool(sd), o, key)
        except MahjongError:
            return None
        return _context_of(t, c, bool(sd), o)

    return compiled.entry_key(t, _ENTRY, sd, context, make)


def _context_of(t: compiled.CompiledTable, c: Context, sd: bool,
                o: WuhanOptions) -> compiled.CompiledContext:
    ids = t.pattern_ids()

    def pay(h_base: int, w: int, found: int) -> _Paid | None:
        if o.base_points * h_base * w < o.min_points:
            return None  # below_min_points: the Python path says so
        chosen = frozenset(ids[i] for i in range(len(ids)) if found >> i & 1)
        return _payments(c, sd, h_base, w, chosen, o)

    sources = None
    if c.meld_from is not None:  # one seat per set meld, none for an angang, a chi from the left
        sources = (len(c.meld_from), sum(1 << i for i, s in enumerate(c.meld_from) if s),
                   sum(1 << i for i, s in enumerate(c.meld_from) if s and s != "left"))
    # the payers' melds: the core hands back a hand they make a fifth of
    elsewhere = _payers_tiles(c)
    return compiled.CompiledContext(
        compiled.context_bits(TABLE, _context_names(c, sd, o)), sd, pay, wild=c.laizi,
        meld_sources=sources, sources_complete=True, needs_kong=c.gsh,
        elsewhere=tuple(elsewhere) if c.payers else (),
        # pay refuses base_points x H x W below min_points: H x W below this
        pays_from=max(0, -(-o.min_points // o.base_points)) if o.base_points > 0 else -1)


def _is_dahu(h: PatternHit, o: WuhanOptions) -> bool:
    """A 大胡 hit (杠上花 as a factor shares its id but is an extra)."""
    return h.id in DAHU_ORDER and not (h.id == "gangshanghua" and o.gangshanghua_as == "factor")


_Paid = tuple[tuple[tuple[int, int, int], ...], str, int]
_PAID: Memo[tuple[object, ...], _Paid] = Memo(_CACHE_LIMIT)


def _payments(c: Context, sd: bool, h_base: int, w: int, ids: frozenset[str],
              o: WuhanOptions) -> _Paid:
    """One amount per payer (each with its own doublings, capped), and the liability."""
    given = dict(c.payers)
    cap = o.cap_points

    def amount(rel: str) -> int:
        a = o.base_points * h_base * w * doublings(given.get(rel, ()), o)
        return a if cap is None or a <= cap else cap

    def seat(rel: str) -> int:
        return (c.winner + OFFSET[rel]) % 4

    liable, liable_rel = "", None
    if c.robbed is not None:
        liable, liable_rel = "qianggang", c.robbed
    elif "quanqiuren" in ids and c.discarder is not None:
        liable, liable_rel = "quanqiuren", c.discarder
    elif ids & {"qingyise", "jiangyise"} and c.meld_from:
        for rel in RELATIVE:
            if c.meld_from.count(rel) >= 3:
                liable, liable_rel = "fangsanpu", rel
    if liable_rel is not None:
        total = sum(amount(rel) for rel in RELATIVE)
        return ((seat(liable_rel), c.winner, total),), liable, seat(liable_rel)
    if sd:
        return tuple((seat(rel), c.winner, amount(rel)) for rel in RELATIVE), "", -1
    assert c.discarder is not None
    out = [(seat(c.discarder), c.winner, amount(c.discarder))]
    if o.dahu_discard_all_pay and ids & DAHU_ORDER.keys():
        for rel in RELATIVE:
            share = int(amount(rel) * o.peichong_ratio)  # rounded down
            if rel != c.discarder and share:
                out.append((seat(rel), c.winner, share))
        out.sort(key=lambda p: RELATIVE.index(relative_of(c.winner, p[0])))
    return tuple(out), "", -1


def clear_caches() -> None:
    """Forget every memoised reading, score and wait list (for cold benchmarks)."""
    clear_inputs()
    clear_contexts()
    _VALUED.clear()
    _SHAPES.clear()
    _MELD_INFO.clear()
    _PAID.clear()
    _RESULTS.clear()
    _WAITS.clear()
    _ENTRY.forget_contexts()
    compiled.CompiledTable.clear_cache()


# --------------------------------------------------------------------------- waits

_SELF_ONLY = ("gang_shang_hua", "hai_di")
_DISCARD_ONLY = ("discarder", "robbed")
_WAITS: Memo[tuple[object, ...], tuple[ValuedWait, ...]] = Memo(_CACHE_LIMIT)


def _general_waits(hand: Hand | str, context: Mapping[str, object] | None, o: WuhanOptions,
                   visible: object = None) -> tuple[ValuedWait, ...]:
    """``valued_waits``'s every call ``_ENTRY`` does not answer from the compiled table (a
    context met for the first time is served from then on: ``compiled.serve_waits``),
    memoised per input (bounded)."""
    if context is not None and not isinstance(context, Mapping):
        raise bad_context("context must be a mapping of key to value")
    key: tuple[object, ...] | None
    try:
        key = (hand, o, None if context is None else freeze(context),
               visible if visible is None or isinstance(visible, str) else freeze(visible))
        hit = _WAITS.get(key)
    except TypeError:
        key, hit = None, None
    if hit is not None:
        return hit
    h = parse_hand(hand)
    ctx = dict(context or {})
    set_melds = tuple(m for m in h.melds if m.is_set)
    if h.concealed_count + 3 * len(set_melds) != 13:
        raise MahjongError("tile_count", "a waiting hand has 13 tiles besides one-tile kongs "
                           "(kongs count 3) before the winning tile")
    vis = visible_counts(visible)
    self_ctx = {k: v for k, v in ctx.items() if k not in _DISCARD_ONLY}
    discard_ctx = {k: v for k, v in ctx.items() if k not in _SELF_ONLY}
    if "discarder" not in discard_ctx and "robbed" not in discard_ctx:
        discard_ctx["discarder"] = "left"
    parsed = parse_context(self_ctx, True, o)
    laizi = parsed.laizi
    parse_context(discard_ctx, False, o)  # a bad context is refused even with no wait
    # a kind whose four copies the hand and the payers' melds hold is no wait (a fifth copy
    # does not score); more than four of one is refused, as ``score`` refuses it
    held = _held_in_view(h, parsed)
    mi = _meld_info(h.melds, laizi, o)
    out: list[ValuedWait] = []
    if any(h.counts[t] for t in o.pizi_kinds) or (o.must_open and not mi.opened):
        return ()  # no tile can make it a win
    if not compiled.PURE:  # the core values every wait (``valued_waits_placed``)
        table = _TABLES.get(o, _UNSET)
        if table is _UNSET:
            table = _compiled_table(o)
        if table is not None:
            try:
                ks = _table_key(table, True, self_ctx, o)
                kd = _table_key(table, False, discard_ctx, o)
                cs = None if ks is None else table.context(ks)
                cd = None if kd is None else table.context(kd)
            except TypeError:  # an unhashable context value: the Python path
                cs = cd = None
            if cs is not None and cd is not None:
                if context is None or type(context) is dict:
                    compiled.serve_waits(_ENTRY, context, o, (cd, cs))
                fast = table.valued_waits_placed(h, cd, cs, vis)
                if fast is not None:
                    if key is not None:
                        _WAITS.keep(key, fast)
                    return fast  # type: ignore[no-any-return]
    shapes_ = ("standard", "qidui") if o.qidui else ("standard",)
    naturals = list(h.counts)
    jokers = naturals[laizi]
    naturals[laizi] = 0
    allc = h.all_counts()
    candidates: Sequence[int]
    if o.yise_any_shape:  # shapeless wins: every tile is a candidate
        candidates = range(34)
    else:  # the core's joker wait test: naturals + t with the 赖子 as jokers (a drawn 赖子
        # is one more joker)
        nat = Hand(naturals, set_melds)
        mask = wait_mask(nat, shapes=shapes_, jokers=jokers)
        if is_win(nat, shapes=shapes_, jokers=jokers + 1):
            mask |= 1 << laizi
        candidates = [t for t in range(34) if mask >> t & 1]
    for t in candidates:
        if held[t] >= 4 or t in o.pizi_kinds:
            continue
        full = plus_tile(h, t)
        got: list[ScoreResult | None] = []
        for sd, cx in ((False, discard_ctx), (True, self_ctx)):
            try:
                got.append(score(full, t, sd, cx, o))
            except MahjongError as err:
                if err.code not in ("not_a_win", "must_open", "pizi_in_hand",
                                    "below_min_points"):
                    raise
                got.append(None)
        d, s = got
        if d is None and s is None:
            continue
        out.append(ValuedWait(_text(t), t, d.value if d else 0, s.value if s else 0,
                              max(0, 4 - allc[t] - vis[t]), d.patterns if d else (),
                              s.patterns if s else ()))
    result = tuple(out)
    if key is not None:
        _WAITS.keep(key, result)
    return result


_ENTRY = compiled.CompiledEntry(_TABLES, _compiled_table, None, None, {}, None,
                                _general_score, _general_waits, contexts=_KEYS_OF)
# A ``Hand`` and a tile (an id or its text) in a context already compiled (a dict or none) is
# answered in one core call (the options' compiled table and its cache), and so are a ready
# ``Hand``'s waits in a context already served (``compiled.serve_waits``) with nothing
# visible; every other call by ``_general_score`` and ``_general_waits``.
score: Callable[[Hand | str, int | str, bool, Mapping[str, object] | None, WuhanOptions],
                ScoreResult] = _ENTRY.score
"""Score one winning hand (see ``mjcore.rules.score``). Memoised per input (bounded)."""
valued_waits: Callable[..., tuple[ValuedWait, ...]] = _ENTRY.valued_waits
"""Every tile that wins self-drawn or on a discard (from the left seat unless the context names
a discarder or a robbed kong), with its H × W each way (0 when it does not win that way)."""
