"""Readings of a hand holding wild tiles (财神, 赖子), exactly.

Every copy of the wild kind held in the concealed tiles may stand for any tile kind, itself
included (财神归位). ``wild_readings`` lists every way to read the hand as a winning shape with
a choice of what each wild stands for, each reading reporting the choices in
``Reading.wilds`` as ``(wild kind, kind it stands for)`` pairs. Readings that differ only in
the order of identical choices are listed once.

The search: the natural tiles are placed lowest kind first, each kind into a pair, a pung or a
sequence that covers it, wilds filling the missing tiles; the wilds left over then form sets
and the pair on their own, and those stand for every kind (and, when the option allows, a
fifth copy). Declared melds never hold wilds here: rule sets that allow it pass them as melds.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from mjcore._core import first_wild_decomposition, has_wild_standard, wild_standard_readings
from mjcore.errors import MahjongError
from mjcore.hand import Decomposition, Hand
from mjcore.rules.common.readings import Reading, TileSet, meld_sets

MAX_READINGS = 20_000
"""A hand with four wilds has at most a few thousand readings; the bound keeps a hostile
input from costing more."""

# the objects the core's search hands back (one of each, shared by every reading)
_PUNGS = tuple(TileSet("pung", t, True) for t in range(34))
_CHOWS = tuple(TileSet("chow", t, True) for t in range(34))
_STAND_INS = {w: tuple((w, k) for k in range(34)) for w in range(34)}

# a group: (kind of set or "pair", first tile, tiles the wilds stand for in it)
_Group = tuple[str, int, tuple[int, ...]]


def _runs_through(t: int) -> Iterator[int]:
    """First tiles of the sequences that contain suited tile ``t``."""
    if t >= 27:
        return
    r = t % 9
    for start in range(max(0, r - 2), min(r, 6) + 1):
        yield t - r + start


def _natural_groups(n: list[int], wilds: int, sets: int, pair: bool, out: list[_Group],
                    start: int = 0) -> Iterator[tuple[list[_Group], int, int, bool]]:
    """Place every natural tile of ``n`` (none below kind ``start`` is left); yields (groups,
    wilds left, sets still needed, pair still needed)."""
    t = start
    while t < 34 and not n[t]:
        t += 1
    if t == 34:
        yield out, wilds, sets, pair
        return
    if pair:  # the pair: two naturals, or one and a wild
        for nat in (2, 1):
            if n[t] >= nat and wilds >= 2 - nat:
                n[t] -= nat
                yield from _natural_groups(n, wilds - (2 - nat), sets, False,
                                           out + [("pair", t, (t,) * (2 - nat))], t)
                n[t] += nat
    if sets:
        for nat in (3, 2, 1):  # a pung
            if n[t] >= nat and wilds >= 3 - nat:
                n[t] -= nat
                yield from _natural_groups(n, wilds - (3 - nat), sets - 1, pair,
                                           out + [("pung", t, (t,) * (3 - nat))], t)
                n[t] += nat
        for start_ in _runs_through(t):  # a sequence holding t; tiles below t are wilds
            need = 0
            stood: list[int] = []
            taken: list[int] = []
            for k in (start_, start_ + 1, start_ + 2):
                if k == t or (k > t and n[k]):
                    taken.append(k)
                else:
                    need += 1
                    stood.append(k)
            if need > wilds:
                continue
            for k in taken:
                n[k] -= 1
            yield from _natural_groups(n, wilds - need, sets - 1, pair,
                                       out + [("chow", start_, tuple(stood))], t)
            for k in taken:
                n[k] += 1


def _wild_only(wilds: int, sets: int, pair: bool, kinds: range) -> Iterator[list[_Group]]:
    """Sets and the pair made of wilds alone, standing for every kind."""
    if wilds != 3 * sets + 2 * pair:
        return
    pair_choices: list[list[_Group]] = [[("pair", k, (k, k))] for k in kinds] if pair else [[]]
    options: list[_Group] = [("pung", k, (k,) * 3) for k in kinds]
    options += [("chow", k, (k, k + 1, k + 2)) for k in kinds if k < 27 and k % 9 <= 6]
    if sets == 0:
        yield from pair_choices
    elif sets == 1:
        for p in pair_choices:
            for o in options:
                yield p + [o]
    else:  # two or more wild-only sets cannot happen with four wilds of one kind
        raise ValueError("more than one set of wilds alone")  # the core's raises the same


def wild_readings(hand: Hand, win_tile: int, wild: int, shapes: Sequence[str] = ("standard",),
                  meld_from: Sequence[int | str | None] | None = None,
                  copy_limit: bool = False, pair: bool = True) -> tuple[Reading, ...]:
    """Every reading of ``hand`` with the concealed copies of kind ``wild`` as wilds, among
    ``shapes`` (``standard``, ``qidui``). ``copy_limit``: a wild may not stand for a fifth copy
    of a kind (counting every tile held). ``pair=False``: the concealed tiles (3n of them)
    form sets only, no pair (``Reading.pair`` is -1): what is left of a hand once a known pair
    is taken out, e.g. Hangzhou's 爆头 (the drawn tile and a wild). The standard readings come
    from the core's search (``_core.wild_standard_readings``)."""
    return _wild_readings(hand, win_tile, wild, shapes, meld_from, copy_limit, pair, True)


def wild_readings_reference(hand: Hand, win_tile: int, wild: int,
                            shapes: Sequence[str] = ("standard",),
                            meld_from: Sequence[int | str | None] | None = None,
                            copy_limit: bool = False, pair: bool = True) -> tuple[Reading, ...]:
    """``wild_readings`` by the search written out in Python above: the twin the tests hold the
    core's search equal to."""
    return _wild_readings(hand, win_tile, wild, shapes, meld_from, copy_limit, pair, False)


def _wild_readings(hand: Hand, win_tile: int, wild: int, shapes: Sequence[str],
                   meld_from: Sequence[int | str | None] | None, copy_limit: bool, pair: bool,
                   in_core: bool) -> tuple[Reading, ...]:
    if not 0 <= wild < 34:
        raise MahjongError("bad_tile", f"the wild kind must be a tile 0..33, got {wild!r}")
    held = hand.all_counts()
    nmelds = len(hand.melds)
    fixed = meld_sets(hand, meld_from) if nmelds else ()
    size = sum(hand.counts)
    pair_tiles = 2 if pair else 0
    nsets = 4 - len(fixed) if size + 3 * len(fixed) == 12 + pair_tiles else (size - pair_tiles) // 3
    standard = "standard" in shapes and size == 3 * nsets + pair_tiles
    qidui = "qidui" in shapes and pair and not nmelds and size == 14
    if in_core and not qidui:  # the common call: the core's rows straight into readings
        if not standard:
            return ()
        rows = wild_standard_readings(hand.counts, wild, nsets, pair,
                                      held if copy_limit else None, _PUNGS, _CHOWS,
                                      _STAND_INS[wild])
        if len(rows) > MAX_READINGS:
            raise MahjongError("too_complex", "too many wild readings")
        return tuple([Reading("standard", fixed + sets, p, (), held, nmelds, win_tile, stood)
                      for sets, p, stood in rows])
    n = list(hand.counts)
    wilds = n[wild]
    n[wild] = 0
    seen: set[tuple[object, ...]] = set()
    out: list[Reading] = []

    def add(shape: str, sets: tuple[TileSet, ...], pair: int, pairs: tuple[int, ...],
            stood: tuple[int, ...]) -> None:
        if copy_limit:
            c = list(held)
            c[wild] -= len(stood)
            for k in stood:
                c[k] += 1
            if max(c) > 4:
                return
        key = (shape, tuple(sorted(sets[len(fixed):])), pair, pairs, tuple(sorted(stood)))
        if key in seen:
            return
        seen.add(key)
        if len(out) >= MAX_READINGS:
            raise MahjongError("too_complex", "too many wild readings")
        out.append(Reading(shape, sets, pair, pairs, held, nmelds, win_tile,
                           tuple((wild, k) for k in sorted(stood))))

    if standard and in_core:
        out.extend(_wild_readings(hand, win_tile, wild, ("standard",), meld_from, copy_limit,
                                  pair, True))
    elif standard:
        for groups, left, sets, need_pair in _natural_groups(n, wilds, nsets, pair, []):
            for extra in _wild_only(left, sets, need_pair, range(34)):
                allg = groups + extra
                sets_t = fixed + tuple(TileSet(g[0], g[1], True) for g in allg if g[0] != "pair")
                pair_t = next((g[1] for g in allg if g[0] == "pair"), -1)
                add("standard", sets_t, pair_t, (), tuple(k for g in allg for k in g[2]))
    if qidui:
        single = [k for k in range(34) if n[k] % 2]
        left = wilds - len(single)
        if left >= 0 and left % 2 == 0:
            base = [k for k in range(34) for _ in range(n[k] // 2)] + single
            # the wild pairs stand for every kind (a kind already paired makes four of a kind)
            for choice in _multisets(range(34), left // 2):
                pairs = tuple(sorted(base + list(choice)))
                add("qidui", (), -1, pairs, tuple(single) + tuple(k for k in choice for _ in "ab"))
    return tuple(out)


def has_wild_reading(counts: Sequence[int], wild: int, pair: bool = True) -> bool:
    """Whether ``wild_readings(Hand(counts), _, wild, pair=pair)`` is not empty (standard
    shape, no copy limit), from the core's joker tables: one C call, no reading built.

    Sets only (``pair=False``): the counts plus two copies of an honour no natural holds win
    with the wilds as jokers exactly when the counts form sets: the two added tiles (never in
    a run) are the pair, or a pung with a wild (the pair elsewhere then makes a pung with
    that wild), or a pair and a pung with wilds (three wilds of the counts are then a set)."""
    found = has_wild_standard(counts, wild, pair)
    if found is None:  # every honour held: no split into sets of a hand this small
        return bool(wild_readings(Hand(counts), -1, wild, pair=False))
    return bool(found)


def one_wild_split(counts: Sequence[int], wild: int, home: int, pair: bool = True,
                   held: Sequence[int] | None = None
                   ) -> tuple[Decomposition, tuple[int, ...]] | None:
    """One split of the concealed ``counts`` (no melds; 3n + 2 tiles with ``pair``, else 3n)
    with the copies of ``wild`` as wilds, the same every time: of the readings with the most
    wilds standing alone (a pung or the pair of wilds only), the first in ``wild_readings``
    order, wilds alone standing for ``home`` first (e.g. the wild's own kind: 财神归位). The
    ``Decomposition`` (pair -1 without ``pair``), each wild counted as the kind it stands for,
    and those kinds (sorted); None when there is none. With ``held`` (34 counts) no kind is
    stood for more often than ``4 - held[kind]`` (the wild kind itself excepted). One core
    call that stops at that reading: listing every reading costs tens of µs with three or
    four wilds."""
    found = first_wild_decomposition(counts, wild, pair, held, home)
    return None if found is None else (Decomposition(*found[:3]), found[3])


def _multisets(kinds: range, size: int) -> Iterator[tuple[int, ...]]:
    if size == 0:
        yield ()
        return
    for i, k in enumerate(kinds):
        for rest in _multisets(kinds[i:], size - 1):
            yield (k, *rest)
