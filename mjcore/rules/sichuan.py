"""Sichuan 血战到底 (rule set ``sichuan``): fan table, scoring, waits, moves, settlement.

The fan table and add-ons are data (``PATTERNS``, ``ADDONS``); each pattern is a predicate
over one *reading* of the hand (a standard decomposition or the 七对 shape, summarised as a
few booleans) plus the win context. Scoring takes the best reading. The project's own
documentation of every rule and decision is docs/rulesets/sichuan.md.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from mjcore import Hand, MahjongError, is_win, wait_mask
from mjcore import waits as _core_waits
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
from mjcore._core import HandBase as _HandBase
from mjcore.rules._base import (
    AddOnSpec,
    Described,
    Ledger,
    MoveCheck,
    OptionSpec,
    OptionValue,
    PatternHit,
    PatternSpec,
    Payment,
    Ruleset,
    ScoreResult,
    ValuedWait,
    register,
)
from mjcore.table import (
    MOVE_KINDS,
    PHASES,
    SUITS,
    DingQue,
    HandStart,
    Kong,
    Move,
    TableView,
    WallEmpty,
    Win,
)

NAME = "sichuan"
_SUIT_INDEX = {"m": 0, "p": 1, "s": 2}
_ALL_SEATS = (0, 1, 2, 3)
# Memo size per cache (parsed texts, hand analyses, scores, wait lists): about 1 KB per
# distinct hand scored; a full cache is cleared at once (no LRU bookkeeping on the hot path).
_CACHE_LIMIT = 50_000


def _text(tile: int) -> str:
    return f"{tile % 9 + 1}{'mpsz'[tile // 9]}"


def _tile(tile: object) -> int:
    if type(tile) is int:
        if 0 <= tile < 34:
            return tile
    elif (
        isinstance(tile, str)
        and len(tile) == 2
        and tile[0] in "123456789"
        and tile[1] in "mpsz"
    ):
        return "mpsz".index(tile[1]) * 9 + int(tile[0]) - 1
    raise MahjongError("bad_tile", f"not a tile: {tile!r}")


_PARSED: dict[str, Hand] = {}


def _plus(hand: Hand, tile: int) -> Hand:
    """``hand`` with one more concealed ``tile``, built without re-validation: callers only
    add a tile of which fewer than four are held (``Hand.with_tile`` checks everything and
    costs several times more; this is the waits/claims hot path)."""
    counts = list(hand.counts)
    counts[tile] += 1
    held = list(hand.all_counts())
    held[tile] += 1
    new = Hand.__new__(Hand)
    _HandBase.__init__(new, tuple(counts), hand.melds, tuple(held))
    return new


def _hand(hand: object) -> Hand:
    if isinstance(hand, Hand):
        return hand
    if isinstance(hand, str):
        parsed = _PARSED.get(hand)
        if parsed is None:
            parsed = Hand.parse(hand)
            if len(_PARSED) > _CACHE_LIMIT:
                _PARSED.clear()
            _PARSED[hand] = parsed
        return parsed
    raise MahjongError("bad_notation", f"expected a Hand or hand text, got {type(hand).__name__}")


# --------------------------------------------------------------------------- options


@dataclass(frozen=True, slots=True, eq=False)
class SichuanOptions:
    """Resolved, validated options (identity-hashed: one object per distinct input)."""

    base: int
    cap_fan: int | None
    zimo_bonus: str
    dian_gang_hua: str
    hujiao_zhuanyi: bool
    longqidui_fan: int
    tiandihu: bool
    jingoudiao: bool
    haidilaoyue: bool
    haidipao: bool
    menqing: bool
    zhongzhang: bool
    zhigang_pay: int
    huazhu_pay: int
    guoshui: bool
    last_four_must_win: bool
    discard_missing_first: bool
    exchange_three: bool
    exchange_direction: str
    dealer_on_draw: str
    values: tuple[tuple[str, OptionValue], ...] = ()
    addons: tuple[AddOnSpec, ...] = ()
    hand_addons: tuple[AddOnSpec, ...] = ()
    context_addons: tuple[AddOnSpec, ...] = ()
    pattern_fan: dict[str, int] = field(default_factory=dict)
    best: dict[int, tuple[int, int, PatternSpec]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, OptionValue]:
        return dict(self.values)


OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("base", 1, "points for ×1 (一番)", minimum=1),
    OptionSpec(
        "cap_fan",
        None,
        "封顶: highest fan paid (none = no cap); applies to fan, the 自摸加底 base is added after",
        minimum=1,
        maximum=13,
        none_allowed=True,
    ),
    OptionSpec(
        "zimo_bonus",
        "base",
        "self-draw bonus: base = 自摸加底 (each payer pays one more base), "
        "fan = 自摸加番 (+1), none",
        choices=("base", "fan", "none"),
    ),
    OptionSpec(
        "dian_gang_hua",
        "dianpao",
        "点杠花 (杠上花 after a 直杠 fed by another seat): dianpao = the feeder alone pays as for "
        "a discard; zimo = everyone pays as for a self-draw",
        choices=("dianpao", "zimo"),
    ),
    OptionSpec(
        "hujiao_zhuanyi",
        False,
        "呼叫转移: on 杠上炮 the discarder also pays each winner what that kong earned it",
        choices=(False, True),
    ),
    OptionSpec(
        "longqidui_fan",
        4,
        "龙七对 value: 4 (the seeds' table, ×16) or 3 (七对 + its 根, ×8)",
        choices=(3, 4),
    ),
    OptionSpec("tiandihu", True, "天胡/地胡 score 5 fan flat", choices=(False, True)),
    OptionSpec("jingoudiao", False, "金钩钓 +1: four declared melds, won on the pair's single wait",
               choices=(False, True)),
    OptionSpec("haidilaoyue", False, "海底捞月 +1: self-draw of the last wall tile",
               choices=(False, True)),
    OptionSpec("haidipao", False, "海底炮 +1: win on the discard after the last wall tile",
               choices=(False, True)),
    OptionSpec("menqing", False, "门清 +1: no peng/gang/bugang (angang allowed)",
               choices=(False, True)),
    OptionSpec("zhongzhang", False, "中张 +1: no 1 or 9 anywhere", choices=(False, True)),
    OptionSpec("zhigang_pay", 1, "直杠 (刮风) pays this many base from the feeder",
               choices=(1, 2, 3)),
    OptionSpec("huazhu_pay", 16, "查花猪: a 花猪 pays each non-花猪 seat still playing this many "
               "base (at most 2^cap_fan with a cap)", minimum=1),
    OptionSpec("guoshui", True, "过水不胡: after declining a discard win, no discard win until the "
               "next draw unless it scores a higher fan", choices=(False, True)),
    OptionSpec("last_four_must_win", True, "with 4 or fewer wall tiles left a seat that can win "
               "must win", choices=(False, True)),
    OptionSpec("discard_missing_first", True, "tiles of the 缺门 must be discarded first",
               choices=(False, True)),
    OptionSpec("exchange_three", False, "换三张 before 定缺", choices=(False, True)),
    OptionSpec(
        "exchange_direction",
        "dice",
        "where the exchanged tiles go (the table decides the dice)",
        choices=("clockwise", "counterclockwise", "opposite", "dice"),
    ),
    OptionSpec("dealer_on_draw", "stay", "next dealer when nobody won: stay or rotate",
               choices=("stay", "rotate")),
)

PRESETS: dict[str, dict[str, OptionValue]] = {
    "chengdu": {},
    "modern": {
        "cap_fan": 3,
        "longqidui_fan": 3,
        "zhigang_pay": 2,
        "jingoudiao": True,
        "haidilaoyue": True,
        "haidipao": True,
        "exchange_three": True,
    },
}


# --------------------------------------------------------------------------- readings


class Reading(NamedTuple):
    """One way to read a winning hand, reduced to what the fan table looks at."""

    qidui: bool  # the 七对 shape (else a standard decomposition)
    qing: bool  # every tile in one suit
    pung: bool  # every set a triplet or kong (对对胡)
    yaojiu: bool  # every set and the pair hold a 1 or a 9
    jiang: bool  # 对对胡 of 2/5/8 only
    long: bool  # 七对 with four identical tiles


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


_SHARED: dict[int, _Analysis] = {}
_MELD_INFO: dict[Any, int] = {}
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
            if len(_MELD_INFO) > _CACHE_LIMIT:
                _MELD_INFO.clear()
            _MELD_INFO[m] = bits
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
    if len(_SHARED) > _CACHE_LIMIT:
        _SHARED.clear()
    _SHARED[key] = a
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


# --------------------------------------------------------------------------- fan table


def _p(
    id_: str,
    name: str,
    fan: int,
    description: str,
    predicate: Callable[[Reading, Any], bool],
    **kw: Any,
) -> PatternSpec:
    return PatternSpec(id_, name, fan, description, predicate, **kw)


PATTERNS: tuple[PatternSpec, ...] = (
    _p("pinghu", "平胡", 0, "any winning hand", lambda r, c: True, shape="any"),
    _p("duiduihu", "对对胡", 1, "every set is a triplet or kong (大对子)",
       lambda r, c: r.pung, supersedes=("pinghu",)),
    _p("qingyise", "清一色", 2, "every tile in one suit", lambda r, c: r.qing, shape="any",
       supersedes=("pinghu",)),
    _p("daiyaojiu", "带幺九", 2, "every set and the pair contains a 1 or a 9",
       lambda r, c: r.yaojiu, supersedes=("pinghu",)),
    _p("qidui", "七对", 2, "seven pairs, no declared melds (four identical tiles are two pairs)",
       lambda r, c: r.qidui, shape="qidui", supersedes=("pinghu",)),
    _p("qingdui", "清对", 3, "清一色 and 对对胡", lambda r, c: r.qing and r.pung,
       supersedes=("qingyise", "duiduihu")),
    _p("jiangdui", "将对", 3, "对对胡 in which every tile is a 2, 5 or 8",
       lambda r, c: r.jiang, supersedes=("duiduihu",)),
    _p("longqidui", "龙七对", 4, "七对 holding four identical tiles; one 根 is not counted again",
       lambda r, c: r.qidui and r.long, shape="qidui", supersedes=("qidui",),
       absorbs=(("gen", 1),), value_option="longqidui_fan"),
    _p("qingqidui", "清七对", 4, "清一色 七对", lambda r, c: r.qidui and r.qing, shape="qidui",
       supersedes=("qidui", "qingyise")),
    _p("qingyaojiu", "清幺九", 4, "清一色 and 带幺九", lambda r, c: r.qing and r.yaojiu,
       supersedes=("qingyise", "daiyaojiu")),
    _p("tianhu", "天胡", 5, "the dealer's first 14 tiles win before any discard (flat)",
       lambda r, c: bool(c.heavenly), shape="any", flat=True, enabled_by="tiandihu"),
    _p("dihu", "地胡", 5, "a non-dealer self-draws a win on its first draw, with no peng/gang by "
       "anyone before it (flat)", lambda r, c: bool(c.earthly), shape="any", flat=True,
       enabled_by="tiandihu"),
    _p("qinglongqidui", "清龙七对", 5, "清一色 龙七对; one 根 is not counted again",
       lambda r, c: r.qidui and r.qing and r.long, shape="qidui",
       supersedes=("longqidui", "qingqidui"), absorbs=(("gen", 1),)),
)
_PATTERN_BY_ID = {p.id: p for p in PATTERNS}
_ORDINARY = tuple(p for p in PATTERNS if not p.flat)


def _zimo_count(a: _Analysis, c: _Ctx, o: SichuanOptions) -> int:
    if not c.self_drawn or o.zimo_bonus != "fan":
        return 0
    if c.after_kong and c.kong_feeder >= 0 and o.dian_gang_hua == "dianpao":
        return 0  # 点杠花 scored as a discard win from the feeder
    return 1


ADDONS: tuple[AddOnSpec, ...] = (
    AddOnSpec("gen", "根", 1, "each tile kind of which the winner holds all four copies "
              "anywhere (four concealed, a peng plus the fourth in hand, or a kong)",
              lambda a, c, o: a.gen, each=True, context=False),
    AddOnSpec("gangshanghua", "杠上花", 1, "self-draw on the replacement tile after one's own kong",
              lambda a, c, o: 1 if c.after_kong else 0),
    AddOnSpec("gangshangpao", "杠上炮", 1, "win on a discard made right after the discarder's "
              "kong replacement draw", lambda a, c, o: 1 if c.after_kong_discard else 0),
    AddOnSpec("qiangganghu", "抢杠胡", 1, "win on a tile another seat adds as a bugang",
              lambda a, c, o: 1 if c.robbing_kong else 0),
    AddOnSpec("zimo", "自摸加番", 1, "self-drawn win, only when zimo_bonus is fan", _zimo_count),
    AddOnSpec("jingoudiao", "金钩钓", 1, "four declared melds, won on the pair's single wait",
              lambda a, c, o: 1 if a.melds == 4 else 0, enabled_by="jingoudiao",
              context=False),
    AddOnSpec("haidilaoyue", "海底捞月", 1, "self-draw of the last wall tile",
              lambda a, c, o: 1 if c.last_tile and c.self_drawn else 0, enabled_by="haidilaoyue"),
    AddOnSpec("haidipao", "海底炮", 1, "win on the discard after the last wall tile",
              lambda a, c, o: 1 if c.last_tile and not c.self_drawn else 0,
              enabled_by="haidipao"),
    AddOnSpec("menqing", "门清", 1, "no peng/gang/bugang (angang allowed)",
              lambda a, c, o: 1 if a.menqing else 0, enabled_by="menqing", context=False),
    AddOnSpec("zhongzhang", "中张", 1, "no 1 or 9 anywhere",
              lambda a, c, o: 0 if a.has19 else 1, enabled_by="zhongzhang", context=False),
)


def _make_options(values: dict[str, OptionValue]) -> SichuanOptions:
    fans = {p.id: p.fan for p in PATTERNS}
    fans["longqidui"] = int(values["longqidui_fan"])  # type: ignore[arg-type]
    enabled = tuple(a for a in ADDONS if a.enabled_by is None or values[a.enabled_by])
    cap = values["cap_fan"]
    return SichuanOptions(
        base=int(values["base"]),  # type: ignore[arg-type]
        cap_fan=None if cap is None else int(cap),
        zimo_bonus=str(values["zimo_bonus"]),
        dian_gang_hua=str(values["dian_gang_hua"]),
        hujiao_zhuanyi=bool(values["hujiao_zhuanyi"]),
        longqidui_fan=int(values["longqidui_fan"]),  # type: ignore[arg-type]
        tiandihu=bool(values["tiandihu"]),
        jingoudiao=bool(values["jingoudiao"]),
        haidilaoyue=bool(values["haidilaoyue"]),
        haidipao=bool(values["haidipao"]),
        menqing=bool(values["menqing"]),
        zhongzhang=bool(values["zhongzhang"]),
        zhigang_pay=int(values["zhigang_pay"]),  # type: ignore[arg-type]
        huazhu_pay=int(values["huazhu_pay"]),  # type: ignore[arg-type]
        guoshui=bool(values["guoshui"]),
        last_four_must_win=bool(values["last_four_must_win"]),
        discard_missing_first=bool(values["discard_missing_first"]),
        exchange_three=bool(values["exchange_three"]),
        exchange_direction=str(values["exchange_direction"]),
        dealer_on_draw=str(values["dealer_on_draw"]),
        values=tuple(values.items()),
        addons=enabled,
        hand_addons=tuple(a for a in enabled if not a.context),
        context_addons=tuple(a for a in enabled if a.context),
        pattern_fan=fans,
    )


def _choose(bits: int, o: SichuanOptions) -> tuple[int, int, PatternSpec]:
    """Best ordinary pattern of one reading: (fan net of absorbed 根, fan, spec)."""
    reading = _reading(bits)
    best: tuple[int, int, PatternSpec] | None = None
    for p in _ORDINARY:
        if p.enabled_by is not None and not getattr(o, p.enabled_by):
            continue
        if not p.predicate(reading, None):
            continue
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
    for addon in o.hand_addons:
        n = addon.count(a, None, o)
        for aid, k in absorbs:
            if aid == addon.id:
                n -= k
        if n > 0:
            fan = n * addon.fan
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
CONTEXT_KEYS: tuple[Described, ...] = (
    Described("after_kong", "the winning tile is the replacement draw after the winner's own "
              "kong (杠上花; self-drawn only)"),
    Described("after_kong_discard", "the winning discard came right after the discarder's "
              "kong (杠上炮; discard wins only)"),
    Described("robbing_kong", "won on another seat's bugang tile (抢杠胡; not self-drawn)"),
    Described("last_tile", "the wall is empty: the last draw, or the discard after it"),
    Described("heavenly", "天胡 (dealer, self-drawn, dealt hand)"),
    Described("earthly", "地胡 (non-dealer, self-drawn on the first draw)"),
    Described("missing_suit", "the winner's 缺门: m, p or s (absent: the hand just must not hold "
              "all three suits)"),
    Described("winner", "the winner's seat 0-3 (default 0), for payments"),
    Described("discarder", "the seat whose discard (or robbed bugang) was won; without it a "
              "discard win has no payments listed"),
    Described("active_seats", "seats that have not won yet (default all four); self-draw "
              "payers"),
    Described("kong_feeder", "for 杠上花 after a 直杠: the seat that fed the kong (点杠花)"),
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
        for addon in o.context_addons:
            n = addon.count(a, c, o)
            for aid, k in spec.absorbs:
                if aid == addon.id:
                    n -= k
            if n > 0:
                fan = n * addon.fan
                hits.append(_hit(addon.id, addon.name, fan))
                total += fan
        hits_t = tuple(hits)
    if o.tiandihu and (c.heavenly or c.earthly):
        flat = _PATTERN_BY_ID["tianhu" if c.heavenly else "dihu"]
        if flat.fan >= total:
            hits_t = (_hit(flat.id, flat.name, flat.fan),)
            total = flat.fan
    fan = total if o.cap_fan is None or total <= o.cap_fan else o.cap_fan
    mult = 1 << fan
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
    return (fan, total, mult, hits_t, amount, payments, value)


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
    return _new(ScoreResult, (NAME, fan, total, mult, hits_t,
                              ref if ref == "qidui" else decomposition_for(hand, ref),
                              value[2], c.self_drawn, amount, payments))


_RESULTS: dict[tuple[object, ...], ScoreResult] = {}
_CONTEXTS: dict[tuple[object, ...], _Ctx] = {}  # (self-drawn, *context key) -> parsed context


def score(
    hand: Hand | str,
    win_tile: int | str,
    self_drawn: bool,
    context: Mapping[str, object] | None,
    o: SichuanOptions,
) -> ScoreResult:
    """Score one winning hand (see ``mjcore.rules.score``). Memoised per input."""
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
            if len(_CONTEXTS) >= 4096:
                _CONTEXTS.clear()
            _CONTEXTS[ctx_key] = known
        ctx = known
    result = _evaluate(h, tile, ctx, o)
    if key is not None:
        if len(_RESULTS) > _CACHE_LIMIT:
            _RESULTS.clear()
        # memo key and answer are immutable and acyclic: kept out of the cycle collector
        _RESULTS[_untrack(key)] = _untrack(result)
    return result


def _context_key(context: Mapping[str, object]) -> tuple[object, ...]:
    """A context's part of a memo key: its items and the types of its values (``True``, ``1``
    and ``1.0`` are equal, but only some of them are valid where a flag or a seat goes)."""
    return (*context.items(), *map(type, context.values()))


def clear_caches() -> None:
    """Forget every memoised analysis, score and wait list (for cold benchmarks)."""
    _CONTEXTS.clear()
    _PARSED.clear()
    _SHARED.clear()
    _MELD_INFO.clear()
    _RESULTS.clear()
    _WAITS.clear()


# --------------------------------------------------------------------------- waits

_SELF_ONLY = frozenset(("after_kong", "heavenly", "earthly", "kong_feeder"))
_DISCARD_ONLY = frozenset(("after_kong_discard", "robbing_kong", "discarder"))


def _visible_counts(visible: object) -> tuple[int, ...]:
    if visible is None:
        return (0,) * 34
    if isinstance(visible, str):
        counts = [0] * 34
        digits: list[int] = []
        for ch in visible.replace(" ", ""):
            if ch.isdigit() and ch != "0":
                digits.append(int(ch) - 1)
            elif ch in "mpsz" and digits:
                for d in digits:
                    counts["mpsz".index(ch) * 9 + d] += 1
                digits = []
            else:
                raise MahjongError("bad_notation", f"bad visible tiles text {visible!r}")
        if digits:
            raise MahjongError("bad_notation", f"visible tiles text {visible!r} lacks a suit")
        return tuple(counts)
    if isinstance(visible, Sequence) and len(visible) == 34:
        if not all(type(x) is int and 0 <= x <= 4 for x in visible):
            raise MahjongError("bad_tile", "visible counts must be integers 0-4")
        return tuple(visible)
    raise MahjongError("bad_tile", "visible must be 34 counts or tiles text such as '55p19m'")


_WAITS: dict[tuple[object, ...], tuple[ValuedWait, ...]] = {}
_NO_VISIBLE = (0,) * 34


def valued_waits(
    hand: Hand | str,
    context: Mapping[str, object] | None,
    o: SichuanOptions,
    visible: object = None,
) -> tuple[ValuedWait, ...]:
    """Every winning tile of a ready hand with its fan on a discard and self-drawn."""
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
    else:
        dctx = _DEFAULT_CTX[False]
        sctx = _DEFAULT_CTX[True]
    allc = h.all_counts()
    profile = hand_profile(h)
    if profile & PROFILE_HONOURS:
        raise MahjongError("bad_tile", "sichuan uses only the m, p and s suits (no honours)")
    suits = (profile >> PROFILE_SUITS) & 7
    out: list[ValuedWait] = []
    ms = dctx.missing_suit
    if suits != 7 and not (ms >= 0 and (suits >> ms) & 1):
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
    result = tuple(out)
    if key is not None:
        if len(_WAITS) > _CACHE_LIMIT:
            _WAITS.clear()
        # memo key and answer are immutable and acyclic: kept out of the cycle collector
        _WAITS[_untrack(key)] = _untrack(result)
    return result


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


# --------------------------------------------------------------------------- moves

REASON_CODES: tuple[Described, ...] = (
    Described("not_your_turn", "discard/angang/bugang/self-drawn hu outside the seat's own turn, "
              "or a claim when no discard is pending"),
    Described("already_won", "the seat has won this hand (血战)"),
    Described("wrong_phase", "the move does not belong to the current phase (e.g. a discard "
              "before 定缺, peng on a bugang, peng on the last discard)"),
    Described("tile_not_held", "the tiles the move uses are not in the concealed hand"),
    Described("missing_suit_first", "the seat still holds tiles of its 缺门 and discards "
              "another suit"),
    Described("missing_suit_claim", "peng/gang/angang/hu using a tile of the seat's 缺门"),
    Described("not_a_win", "hu on tiles that do not form a winning shape or while the hand "
              "still holds a 缺门 tile"),
    Described("guoshui", "过水不胡: a discard win was declined since the last draw and this one "
              "does not score a higher fan"),
    Described("must_win", "a win is available and the wall has 4 or fewer tiles: every other "
              "move is refused"),
    Described("no_tiles_left", "a kong when the wall has no replacement tile"),
    Described("cannot_rob_angang", "only a bugang can be robbed (抢杠胡)"),
    Described("chi_not_allowed", "Sichuan has no chi"),
    Described("bad_move", "the move is malformed (unknown kind, wrong number of tiles, bad suit)"),
)

MOVE_DESCRIPTIONS: tuple[Described, ...] = (
    Described("exchange", "换三张: three tiles of one suit (option exchange_three)"),
    Described("ding_que", "定缺: declare the suit to void"),
    Described("discard", "discard one tile"),
    Described("peng", "claim a discard with two in hand"),
    Described("gang", "直杠: claim a discard with three in hand"),
    Described("angang", "暗杠: four in hand"),
    Described("bugang", "面下杠: add the fourth tile to one's own peng"),
    Described("hu", "win on a discard, a robbed bugang, or self-drawn"),
    Described("pass", "decline a claim"),
    Described("chi", "never legal in Sichuan"),
)


class _Refusal(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class _Probe:
    """Per-call memo of the win available to the acting seat."""

    __slots__ = ("state", "o", "_done", "_fan", "_why")

    def __init__(self, state: TableView, o: SichuanOptions) -> None:
        self.state = state
        self.o = o
        self._done = False
        self._fan: int | None = None
        self._why = ""

    def win(self) -> tuple[int | None, str]:
        """(fan of the available win or None, reason it is not a win)."""
        if not self._done:
            self._done = True
            try:
                self._fan = self._compute()
            except MahjongError as exc:
                if exc.code != "not_a_win":
                    raise
                self._fan, self._why = None, exc.message
        return self._fan, self._why

    def _compute(self) -> int | None:
        s = self.state
        if s.phase == "turn":
            if not s.drew or not is_win(s.hand):
                return None
        else:
            tile = s.pending_tile
            if tile is None or s.pending_kind == "angang":
                return None
            ms = s.missing_suit
            if ms is not None and tile // 9 == _SUIT_INDEX.get(ms, -1):
                raise MahjongError("not_a_win", f"{_text(tile)} is of the missing suit {ms}")
            if s.hand.all_counts()[tile] >= 4 or not (wait_mask(s.hand) >> tile) & 1:
                return None
        hand, tile, self_drawn, ctx = win_context(s)
        return score(hand, tile, self_drawn, ctx, self.o).fan


def win_context(state: TableView) -> tuple[Hand, int, bool, dict[str, object]]:
    """What a ``hu`` by the acting seat of ``state`` would be scored on:
    ``(hand incl. the winning tile, win_tile, self_drawn, context)``. A game server can pass
    these straight to ``score`` or into a ``Win`` event."""
    s = state
    ctx: dict[str, object] = {"winner": s.seat, "active_seats": s.active_seats}
    if s.missing_suit is not None:
        ctx["missing_suit"] = s.missing_suit
    if s.wall_count == 0:
        ctx["last_tile"] = True
    hand = s.hand
    if s.phase == "turn":
        if s.after_kong:
            ctx["after_kong"] = True
            if s.kong_feeder is not None:
                ctx["kong_feeder"] = s.kong_feeder
        if s.first_draw and not hand.melds:
            if s.seat == s.dealer:
                ctx["heavenly"] = True
            elif not s.any_meld:
                ctx["earthly"] = True
        tile = s.drawn_tile
        if tile is None or not hand.counts[tile]:
            tile = next((i for i, n in enumerate(hand.counts) if n), 0)
        return hand, tile, True, ctx
    tile = s.pending_tile
    if tile is None:
        raise MahjongError("bad_state", "no pending tile to win on")
    if s.phase == "rob":
        ctx["robbing_kong"] = True
    elif s.pending_after_kong:
        ctx["after_kong_discard"] = True
    if s.pending_from is not None and s.pending_from != s.seat and s.pending_from in s.active_seats:
        ctx["discarder"] = s.pending_from
    if hand.all_counts()[tile] >= 4:
        raise MahjongError("bad_state", f"all four {_text(tile)} are already held")
    return _plus(hand, tile), tile, False, ctx


def _must_win(p: _Probe) -> None:
    o, s = p.o, p.state
    if o.last_four_must_win and s.wall_count <= 4:
        fan, _ = p.win()
        if fan is not None and not _guoshui_blocks(s, o, fan):
            raise _Refusal("must_win", f"a win is available with {s.wall_count} wall tiles left: "
                           "the seat must win")


def _guoshui_blocks(s: TableView, o: SichuanOptions, fan: int) -> bool:
    return (
        o.guoshui
        and s.phase in ("claim", "rob")
        and s.guoshui_fan is not None
        and fan <= s.guoshui_fan
    )


def _one_tile(move: Move) -> int:
    if len(move.tiles) != 1:
        raise _Refusal("bad_move", f"{move.kind} names exactly one tile")
    t = move.tiles[0]
    if type(t) is not int or not 0 <= t < 27:
        raise _Refusal("bad_move", f"{move.kind}: not a Sichuan tile: {t!r}")
    return t


def _check(state: TableView, move: Move, o: SichuanOptions, probe: _Probe) -> None:
    kind = move.kind
    if kind not in MOVE_KINDS:
        raise _Refusal("bad_move", f"unknown move kind {kind!r}")
    if kind == "chi":
        raise _Refusal("chi_not_allowed", "Sichuan has no chi")
    if state.has_won:
        raise _Refusal("already_won", f"seat {state.seat} has already won this hand (血战)")
    phase = state.phase
    if phase == "ended":
        raise _Refusal("wrong_phase", "the hand is over")
    counts = state.hand.counts
    ms = _SUIT_INDEX.get(state.missing_suit or "", -1)
    if kind == "exchange":
        if phase != "exchange" or not o.exchange_three:
            raise _Refusal("wrong_phase", "no 换三张 now" if o.exchange_three
                           else "换三张 is off (option exchange_three)")
        if len(move.tiles) != 3 or any(type(t) is not int or not 0 <= t < 27
                                       for t in move.tiles):
            raise _Refusal("bad_move", "exchange passes exactly three suited tiles")
        if len({t // 9 for t in move.tiles}) != 1:
            raise _Refusal("bad_move", "the three exchanged tiles must be of one suit")
        for t in set(move.tiles):
            if counts[t] < move.tiles.count(t):
                raise _Refusal("tile_not_held", f"{_text(t)} is not held often enough")
        return
    if kind == "ding_que":
        if phase != "ding_que":
            raise _Refusal("wrong_phase", "定缺 is declared once, before play")
        if move.suit not in SUITS:
            raise _Refusal("bad_move", f"ding_que names a suit m, p or s, got {move.suit!r}")
        return
    if phase in ("exchange", "ding_que"):
        raise _Refusal("wrong_phase", f"{kind} before 定缺/换三张 is over")
    if kind in ("discard", "angang", "bugang"):
        t = _one_tile(move)
        if phase != "turn":
            raise _Refusal("not_your_turn", f"{kind} only on the seat's own turn")
        if kind == "discard":
            if not counts[t]:
                raise _Refusal("tile_not_held", f"{_text(t)} is not in the concealed hand")
            if o.discard_missing_first and ms >= 0 and t // 9 != ms and any(
                counts[ms * 9: ms * 9 + 9]
            ):
                raise _Refusal("missing_suit_first", f"discard the missing suit "
                               f"{SUITS[ms]} first")
            _must_win(probe)
            return
        if kind == "angang":
            if counts[t] != 4:
                raise _Refusal("tile_not_held", f"angang needs four {_text(t)} in hand")
            if t // 9 == ms:
                raise _Refusal("missing_suit_claim", f"{_text(t)} is of the missing suit")
        else:
            if not counts[t] or not any(m.kind == "peng" and m.tile == t
                                        for m in state.hand.melds):
                raise _Refusal("tile_not_held", f"bugang needs a peng of {_text(t)} and the "
                               "fourth tile in hand")
        if state.wall_count <= 0:
            raise _Refusal("no_tiles_left", "no replacement tile left in the wall")
        _must_win(probe)
        return
    if kind == "hu":
        if len(move.tiles) > 1 or any(type(t) is not int or not 0 <= t < 34
                                      for t in move.tiles):
            raise _Refusal("bad_move", "hu names at most the winning tile (a tile id)")
        if phase == "turn":
            if not state.drew:
                raise _Refusal("wrong_phase", "no self-drawn win without a draw (after a peng)")
            if move.tiles and not counts[move.tiles[0]]:
                raise _Refusal("bad_move", "the named winning tile is not in the hand")
            fan, why = probe.win()
            if fan is None:
                raise _Refusal("not_a_win", why or "the hand is not a win")
            return
        if phase not in ("claim", "rob"):
            raise _Refusal("not_your_turn", "no discard is pending")
        if state.pending_kind == "angang":
            raise _Refusal("cannot_rob_angang", "a concealed kong cannot be robbed")
        if move.tiles and move.tiles[0] != state.pending_tile:
            raise _Refusal("bad_move", "the named winning tile is not the pending tile")
        pt = state.pending_tile
        if pt is not None and pt // 9 == ms:
            raise _Refusal("missing_suit_claim", f"{_text(pt)} is of the missing suit")
        fan, why = probe.win()
        if fan is None:
            raise _Refusal("not_a_win", why or "the hand is not a win with this tile")
        if _guoshui_blocks(state, o, fan):
            raise _Refusal("guoshui", f"过水: a win of {state.guoshui_fan} fan was declined since "
                           f"the last draw; this one scores {fan}")
        return
    if kind in ("peng", "gang"):
        t = _one_tile(move)
        if phase == "rob":
            raise _Refusal("wrong_phase", "a bugang can only be robbed (hu) or passed")
        if phase != "claim":
            raise _Refusal("not_your_turn", "no discard is pending")
        if t != state.pending_tile:
            raise _Refusal("bad_move", f"{kind} names the pending tile")
        if t // 9 == ms:
            raise _Refusal("missing_suit_claim", f"{_text(t)} is of the missing suit")
        need = 2 if kind == "peng" else 3
        if counts[t] < need:
            raise _Refusal("tile_not_held", f"{kind} needs {need} {_text(t)} in hand")
        if state.wall_count <= 0:
            if kind == "gang":
                raise _Refusal("no_tiles_left", "no replacement tile left in the wall")
            raise _Refusal("wrong_phase", "the discard after the last tile may only be won")
        _must_win(probe)
        return
    # pass
    if move.tiles:
        raise _Refusal("bad_move", "pass names no tile")
    if phase not in ("claim", "rob"):
        raise _Refusal("not_your_turn", "nothing to pass on")
    _must_win(probe)


_PHASE_SET = frozenset(PHASES)


def _check_view(state: object) -> TableView:
    """Refuse a malformed view with ``MahjongError('bad_state')`` (the view is the input)."""
    if not isinstance(state, TableView):
        raise MahjongError("bad_state", "expected a TableView")
    if not isinstance(state.phase, str) or state.phase not in _PHASE_SET:
        raise MahjongError("bad_state", f"unknown phase {state.phase!r} (one of "
                           f"{', '.join(PHASES)})")
    if type(state.seat) is not int or not 0 <= state.seat < 4:
        raise MahjongError("bad_state", f"seat must be 0-3, got {state.seat!r}")
    if state.missing_suit is not None and (not isinstance(state.missing_suit, str)
                                           or state.missing_suit not in _SUIT_INDEX):
        raise MahjongError("bad_state", f"missing_suit must be m, p or s, got "
                           f"{state.missing_suit!r}")
    if not isinstance(state.pending_kind, str) or state.pending_kind not in (
            "discard", "bugang", "angang"):
        raise MahjongError("bad_state", f"pending_kind must be discard, bugang or angang, got "
                           f"{state.pending_kind!r}")
    if state.pending_tile is not None and not (type(state.pending_tile) is int
                                               and 0 <= state.pending_tile < 34):
        raise MahjongError("bad_state", f"pending_tile must be a tile id, got "
                           f"{state.pending_tile!r}")
    if not isinstance(state.hand, Hand):
        raise MahjongError("bad_state", "the view's hand must be a Hand")
    if type(state.wall_count) is not int or state.wall_count < 0:
        raise MahjongError("bad_state", f"wall_count must be a count, got {state.wall_count!r}")
    if state.phase in ("claim", "rob") and state.pending_tile is None:
        raise MahjongError("bad_state", f"phase {state.phase} needs a pending_tile")
    for name in ("dealer", "pending_from", "kong_feeder"):
        value = getattr(state, name)
        if value is not None and (type(value) is not int or not 0 <= value < 4):
            raise MahjongError("bad_state", f"{name} must be a seat 0-3, got {value!r}")
    if state.drawn_tile is not None and (type(state.drawn_tile) is not int
                                         or not 0 <= state.drawn_tile < 34):
        raise MahjongError("bad_state", f"drawn_tile must be a tile id, got "
                           f"{state.drawn_tile!r}")
    if state.guoshui_fan is not None and type(state.guoshui_fan) is not int:
        raise MahjongError("bad_state", f"guoshui_fan must be a fan, got {state.guoshui_fan!r}")
    active = state.active_seats
    if not isinstance(active, tuple | list) or not all(
            type(x) is int and 0 <= x < 4 for x in active):
        raise MahjongError("bad_state", f"active_seats must be seats 0-3, got {active!r}")
    return state


def validate_move(state: TableView, move: Move, o: SichuanOptions) -> MoveCheck:
    """Is ``move`` legal for the seat whose view is ``state``? (reason code if not).
    A malformed view raises ``MahjongError('bad_state')``."""
    _check_view(state)
    if not isinstance(move, Move):
        return MoveCheck(False, "bad_move", "not a Move")
    try:
        _check(state, move, o, _Probe(state, o))
    except _Refusal as r:
        return MoveCheck(False, r.code, r.message)
    return MoveCheck(True)


_OK = MoveCheck(True)


def legal_moves(state: TableView, o: SichuanOptions) -> tuple[Move, ...]:
    """Every legal move of the seat whose view is ``state``."""
    _check_view(state)
    phase = state.phase
    if state.has_won or phase in ("wait", "ended"):
        return ()
    counts = state.hand.counts
    candidates: list[Move]
    if phase == "ding_que":
        return tuple(Move("ding_que", (), s) for s in SUITS)
    if phase == "exchange":
        if not o.exchange_three:
            return ()
        out: list[Move] = []
        for suit in range(3):
            tiles = [t for t in range(suit * 9, suit * 9 + 9) for _ in range(counts[t])]
            out.extend(Move("exchange", combo)
                       for combo in sorted(set(itertools.combinations(tiles, 3))))
        return tuple(out)
    if phase == "turn":
        candidates = [Move("hu")]
        candidates += [Move("discard", (t,)) for t in range(27) if counts[t]]
        candidates += [Move("angang", (t,)) for t in range(27) if counts[t] == 4]
        candidates += [Move("bugang", (m.tile,)) for m in state.hand.melds
                       if m.kind == "peng" and counts[m.tile]]
    elif phase == "claim":
        t = state.pending_tile
        if t is None:
            return ()
        candidates = [Move("hu"), Move("gang", (t,)), Move("peng", (t,)), Move("pass")]
    elif phase == "rob":
        candidates = [Move("hu"), Move("pass")]
    else:
        return ()
    probe = _Probe(state, o)
    legal: list[Move] = []
    for move in candidates:
        try:
            _check(state, move, o, probe)
        except _Refusal:
            continue
        legal.append(move)
    return tuple(legal)


def resolve_claims(discarder: int, claims: Mapping[int, Move]) -> tuple[tuple[int, Move], ...]:
    """Which claims on one discard (or bugang) take effect (§2 claim priority): every ``hu``
    (一炮多响), in turn order from the discarder; else the one ``gang`` or ``peng``; else none.
    ``claims`` maps seat to its (already validated) move; passes may be included."""
    order = sorted(claims, key=lambda s: (s - discarder) % 4)
    hus = tuple((s, claims[s]) for s in order if claims[s].kind == "hu")
    if hus:
        return hus
    for kind in ("gang", "peng"):
        for s in order:
            if claims[s].kind == kind:
                return ((s, claims[s]),)
    return ()


# --------------------------------------------------------------------------- settlement

LEDGER_REASONS: tuple[Described, ...] = (
    Described("win", "payment for a win (§4.3)"),
    Described("gang", "直杠 (刮风): the feeder pays zhigang_pay × base"),
    Described("bugang", "面下杠 (刮风): each other active seat pays 1 × base"),
    Described("angang", "暗杠 (下雨): each other active seat pays 2 × base"),
    Described("hujiao_zhuanyi", "呼叫转移: the kong money of the 杠上炮 kong handed to the winner"),
    Described("huazhu", "查花猪 at a wall-empty end"),
    Described("chadajiao", "查大叫 at a wall-empty end"),
    Described("tuishui", "退税: kong money returned by a seat not ready at a wall-empty end"),
)


def _bad(message: str) -> MahjongError:
    return MahjongError("bad_event", message)


def _event_context(ctx: object) -> dict[str, object]:
    if isinstance(ctx, Mapping):
        return dict(ctx)
    try:
        out: dict[str, object] = dict(ctx)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        raise MahjongError("bad_context", "a win's context must be key/value pairs") from None
    return out


def _holds_missing(hand: Hand, missing: str | None) -> bool:
    allc = hand.all_counts()
    present = [any(allc[s * 9: s * 9 + 9]) for s in range(3)]
    if all(present):
        return True
    return missing is not None and present[_SUIT_INDEX[missing]]


def settle(events: Iterable[object], o: SichuanOptions, dealer: int | None = None) -> Ledger:
    """The whole hand's ledger from its event log (see docs/rulesets/sichuan.md §Settlement)."""
    if isinstance(events, (str, bytes)) or not isinstance(events, Iterable):
        raise _bad("events must be a list of events")
    log = list(events)
    pays: list[Payment] = []
    active = set(_ALL_SEATS)
    missing: list[str | None] = [None] * 4
    winners: list[int] = []
    groups: list[tuple[int, int, list[int]]] = []  # (discarder or -1, first index, winners)
    kong_income: dict[int, list[Payment]] = {}  # kong event index -> payments it earned
    transferred: set[int] = set()
    last_kong: dict[int, int] = {}
    the_dealer = 0 if dealer is None else dealer
    if type(the_dealer) is not int or not 0 <= the_dealer < 4:
        raise _bad(f"dealer must be a seat 0-3, got {the_dealer}")
    ended = False
    group_key: tuple[int, int] | None = None
    group_active: frozenset[int] = frozenset()
    base = o.base

    def seat_ok(seat: object, what: str) -> int:
        if type(seat) is not int or not 0 <= seat < 4:
            raise _bad(f"{what} must be a seat 0-3, got {seat!r}")
        return seat

    for i, ev in enumerate(log):
        if ended:
            raise _bad(f"event {i} comes after the hand ended")
        in_group = False
        if isinstance(ev, HandStart):
            if i != 0:
                raise _bad("HandStart must be the first event")
            the_dealer = seat_ok(ev.dealer, "dealer")
        elif isinstance(ev, DingQue):
            seat = seat_ok(ev.seat, "ding_que seat")
            if ev.suit not in SUITS:
                raise _bad(f"ding_que suit must be m, p or s, got {ev.suit!r}")
            missing[seat] = ev.suit
        elif isinstance(ev, Kong):
            seat = seat_ok(ev.seat, "kong seat")
            if seat not in active:
                raise _bad(f"event {i}: seat {seat} has already won and cannot kong")
            if ev.kind not in ("gang", "bugang", "angang"):
                raise _bad(f"event {i}: unknown kong kind {ev.kind!r}")
            earned: list[Payment] = []
            if not ev.robbed:
                if ev.kind == "gang":
                    feeder = seat_ok(ev.fed_by, "gang fed_by")
                    if feeder == seat or feeder not in active:
                        raise _bad(f"event {i}: the feeder must be another active seat")
                    earned.append(Payment(feeder, seat, o.zhigang_pay * base, "gang", i))
                else:
                    each = base * (2 if ev.kind == "angang" else 1)
                    earned.extend(Payment(s, seat, each, ev.kind, i)
                                  for s in sorted(active) if s != seat)
                pays.extend(earned)
                kong_income[i] = earned
                last_kong[seat] = i
        elif isinstance(ev, Win):
            seat = seat_ok(ev.seat, "winner")
            ctx = _event_context(ev.context)
            if "missing_suit" not in ctx and missing[seat] is not None:
                ctx["missing_suit"] = missing[seat]
            tile = _tile(ev.win_tile)
            if ev.self_drawn:
                if ev.discarder is not None:
                    raise _bad(f"event {i}: a self-drawn win has no discarder")
                group_key = None
                win_active = frozenset(active)
            else:
                discarder = seat_ok(ev.discarder, "discarder")
                key = (discarder, tile)
                prev = log[i - 1] if i else None
                if (group_key == key and isinstance(prev, Win) and not prev.self_drawn):
                    in_group = True
                else:
                    group_key = key
                    group_active = frozenset(active)
                win_active = group_active
                ctx["discarder"] = discarder
            if seat not in win_active or (in_group and seat in groups[-1][2]):
                raise _bad(f"event {i}: seat {seat} has already won")
            ctx["winner"] = seat
            ctx["active_seats"] = tuple(sorted(win_active))
            if ev.kong_feeder is not None:
                ctx["kong_feeder"] = ev.kong_feeder
            result = score(_hand(ev.hand), tile, ev.self_drawn, ctx, o)
            pays.extend(Payment(f, t, amt, "win", i) for f, t, amt in result.payments)
            if o.hujiao_zhuanyi and ctx.get("after_kong_discard") and not ev.self_drawn:
                discarder = int(ctx["discarder"])  # type: ignore[call-overload]
                k = last_kong.get(discarder)
                if k is not None:
                    income = sum(p.amount for p in kong_income.get(k, ()))
                    if income:
                        pays.append(Payment(discarder, seat, income, "hujiao_zhuanyi", i))
                        transferred.add(k)
            winners.append(seat)
            if in_group:
                groups[-1][2].append(seat)
            else:
                groups.append((-1 if ev.self_drawn else int(ctx["discarder"]),  # type: ignore[call-overload]
                               i, [seat]))
            active.discard(seat)
            if len(winners) >= 3 and not (
                i + 1 < len(log)
                and isinstance(log[i + 1], Win)
                and in_same_group(log[i + 1], group_key)  # type: ignore[arg-type]
            ):
                ended = True
        elif isinstance(ev, WallEmpty):
            if not isinstance(ev.hands, tuple | list) or len(ev.hands) != 4:
                raise _bad("WallEmpty lists four hands (None for seats that have won)")
            hands: dict[int, Hand] = {}
            for s in sorted(active):
                h = ev.hands[s]
                if h is None:
                    raise _bad(f"WallEmpty: seat {s} is still playing but has no hand")
                hand = _hand(h)
                if hand.concealed_count + 3 * len(hand.melds) != 13:
                    raise _bad(f"WallEmpty: seat {s} must hold 13 tiles (kongs count 3)")
                hands[s] = hand
            huazhu = {s for s, h in hands.items() if _holds_missing(h, missing[s])}
            ready: dict[int, int] = {}
            for s, h in hands.items():
                if s in huazhu:
                    continue
                ctx_w: dict[str, object] = {}
                if missing[s] is not None:
                    ctx_w["missing_suit"] = missing[s]
                best = largest_wait(h, ctx_w or None, o)
                if best is not None:
                    ready[s] = best.fan_discard
            per_pig = o.huazhu_pay if o.cap_fan is None else min(o.huazhu_pay, 1 << o.cap_fan)
            for pig in sorted(huazhu):
                for s in sorted(hands):
                    if s not in huazhu:
                        pays.append(Payment(pig, s, per_pig * base, "huazhu", i))
            for s in sorted(hands):
                if s in huazhu or s in ready:
                    continue
                for r, fan in sorted(ready.items()):
                    pays.append(Payment(s, r, base << fan, "chadajiao", i))
            for s in sorted(hands):
                if s in ready:
                    continue
                for k, earned in sorted(kong_income.items()):
                    if k in transferred:
                        continue
                    for p in earned:
                        if p.to_seat == s:
                            pays.append(Payment(s, p.from_seat, p.amount, "tuishui", i))
            ended = True
        else:
            raise _bad(f"event {i}: unknown event {type(ev).__name__}")
        if not in_group and not isinstance(ev, Win):
            group_key = None
    totals = [0, 0, 0, 0]
    for p in pays:
        totals[p.from_seat] -= p.amount
        totals[p.to_seat] += p.amount
    if sum(totals) != 0:  # pragma: no cover - every payment moves points between two seats
        raise MahjongError("internal", "settlement is not zero-sum")
    if groups:
        discarder, _, first = groups[0]
        next_dealer = discarder if discarder >= 0 and len(first) > 1 else first[0]
    elif o.dealer_on_draw == "rotate":
        next_dealer = (the_dealer + 1) % 4
    else:
        next_dealer = the_dealer
    return Ledger(tuple(pays), tuple(totals), next_dealer, tuple(winners))


def in_same_group(ev: Win, key: tuple[int, int] | None) -> bool:
    """Is ``ev`` another win on the discard identified by ``key`` (discarder, tile)?"""
    if key is None or ev.self_drawn or ev.discarder is None:
        return False
    try:
        return (ev.discarder, _tile(ev.win_tile)) == key
    except MahjongError:
        return False


# --------------------------------------------------------------------------- registration


class SichuanEngine:
    """The five functions of the rule set, bound to resolved ``SichuanOptions``."""

    def score(self, hand: Any, win_tile: int | str, self_drawn: bool,
              context: Mapping[str, object] | None, options: Any) -> ScoreResult:
        return score(hand, win_tile, self_drawn, context, options)

    def valued_waits(self, hand: Any, context: Mapping[str, object] | None, options: Any,
                     visible: Any) -> tuple[ValuedWait, ...]:
        return valued_waits(hand, context, options, visible)

    def validate_move(self, state: Any, move: Any, options: Any) -> MoveCheck:
        return validate_move(state, move, options)

    def legal_moves(self, state: Any, options: Any) -> tuple[Any, ...]:
        return legal_moves(state, options)

    def settle(self, events: Any, options: Any, dealer: int | None) -> Ledger:
        return settle(events, options, dealer)


RULESET = register(
    Ruleset(
        name=NAME,
        title="Sichuan 血战到底",
        summary="108 suited tiles, 缺一门, peng/gang but no chi, 血战到底 (play goes on until "
        "three seats have won), fan doubles the base, 刮风下雨, 查花猪, 查大叫, 退税.",
        tiles=108,
        suits=SUITS,
        honours=False,
        flowers=False,
        wild_tiles=False,
        liabilities=False,
        claims=("peng", "gang"),
        shapes=("standard", "qidui"),
        value_unit="fan: payment per payer = base × 2^fan",
        patterns=PATTERNS,
        addons=ADDONS,
        options=OPTIONS,
        presets=PRESETS,
        context_keys=CONTEXT_KEYS,
        move_kinds=MOVE_DESCRIPTIONS,
        reason_codes=REASON_CODES,
        ledger_reasons=LEDGER_REASONS,
        engine=SichuanEngine(),
        make_options=_make_options,
    )
)
