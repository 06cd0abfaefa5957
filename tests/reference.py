"""A slow, obviously correct pure-Python reference for the mahjong core.

Written from the definitions in the shapes spec (shapes.md §1-§2) and the API contract, NOT
from any fast algorithm. It exists only so that the fast Cython core can be checked against it
on large random samples (tests/test_reference_crosscheck.py). Nothing here is imported by the
package.

Representation
--------------
* ``counts``: a sequence of 34 ints, the CONCEALED tiles (tile ids 0-33: 1-9m = 0-8,
  1-9p = 9-17, 1-9s = 18-26, 1z-7z = 27-33).
* ``melds``: a tuple of declared melds, each a tuple of tile ids (3 for chi/peng, 4 for a kong).
  Every declared meld is a set; it only matters for the copy limit (a tile of which four copies
  are held is never a wait, and never drawn again) and for shapes that forbid melds.
* ``jokers``: number of wild tiles held in addition to the counts. A wild stands for any tile,
  with no copy limit (hangzhou.md §2: "a wild may stand for a fifth copy of a kind").

Method
------
Everything is brute force over the definitions; the only speed-ups are

1. per-suit caching (``functools.lru_cache`` keyed by a suit's count tuple): a standard shape is
   a split of every suit separately, because sets and pairs never cross suits;
2. for wild tiles, the multiset of tiles the wilds stand for is split by suit, and for each suit
   every multiset of that many tiles of the suit is tried (brute force, see ``_group_ok``).

Both are exact restatements of the definitions, and ``tests/test_reference_self.py``-style
self-checks in ``tests/test_shapes.py`` compare them with the fully naive forms (every joker
assignment over all 34 tiles; shanten by breadth-first search over tile exchanges) on small
inputs.

Shanten
-------
Definition used (for a hand whose concealed tiles plus wilds number 3n+1 or 3n+2):

    shanten(H) = min over complete target hands T of |T - H| - J - 1

where T is a multiset of 3n+2 concealed tiles (the declared melds stay as they are) forming a
winning shape, ``|T - H|`` counts the tiles of T not covered by H's real tiles, and every copy
of T beyond what four physical copies allow (``T[i] + melds[i] > 4``) must be supplied by a
wild (there are J of them). This equals the minimum number of tile exchanges (discard one,
draw one) needed to become ready, where "ready" means having at least one wait (a wait is
never a tile of which all four copies are held):

* if H is ready with k exchanges, the ready hand plus its wait is such a T with
  |T - H| - J - 1 <= k;
* given T, keep the covered tiles, draw the missing ones (all available, since the copy
  excess is covered by wilds) except one, which is then a legal wait.

For a complete 3n+2 hand, T = H gives -1. For an incomplete 3n+2 hand this is the minimum over
discards of the 3n+1 shanten. ``shanten_bfs`` implements the exchange definition literally for
small hands and the tests compare the two.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from functools import cache
from typing import NamedTuple

N = 34
# (first id, one past last id, sequences allowed)
GROUPS: tuple[tuple[int, int, bool], ...] = ((0, 9, True), (9, 18, True), (18, 27, True), (27, 34, False))
ORPHANS: tuple[int, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
HONOURS: tuple[int, ...] = tuple(range(27, 34))
SHAPES: tuple[str, ...] = ("standard", "qidui", "shisanyao", "quanbukao", "qixingbukao", "zuhelong")
DEFAULT_SHAPES: tuple[str, ...] = ("standard", "qidui")
SHANTEN_SHAPES: tuple[str, ...] = SHAPES  # shanten is defined for every shape
# every name a shapes argument may hold: qidui_distinct is qidui with option
# qidui_quad_as_two_pairs off (shapes.md §2, §6); a set of names means the union of the shapes
SHAPE_NAMES: tuple[str, ...] = SHAPES + ("qidui_distinct",)

Melds = tuple[tuple[int, ...], ...]


class Decomposition(NamedTuple):
    pair: int
    chows: tuple[int, ...]
    pungs: tuple[int, ...]


# --------------------------------------------------------------------------------------------
# notation (an independent, minimal parser used by the reference's own tests)

_SUIT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27}
_SUIT_SIZE = {"m": 9, "p": 9, "s": 9, "z": 7}


def parse_tiles(text: str) -> list[int]:
    """``"123m55z"`` -> tile ids. Raises ValueError on anything odd."""
    out: list[int] = []
    digits: list[int] = []
    for ch in text:
        if ch.isdigit():
            digits.append(int(ch))
        elif ch in _SUIT_BASE:
            if not digits:
                raise ValueError(text)
            for d in digits:
                if not 1 <= d <= _SUIT_SIZE[ch]:
                    raise ValueError(text)
                out.append(_SUIT_BASE[ch] + d - 1)
            digits = []
        else:
            raise ValueError(text)
    if digits:
        raise ValueError(text)
    return out


def parse_hand(text: str) -> tuple[list[int], Melds]:
    """``"123m55z peng:555p"`` -> (34 concealed counts, melds as tile tuples)."""
    parts = text.split()
    counts = [0] * N
    melds: list[tuple[int, ...]] = []
    for part in parts:
        if ":" in part:
            _kind, tiles = part.split(":", 1)
            melds.append(tuple(sorted(parse_tiles(tiles))))
        else:
            for t in parse_tiles(part):
                counts[t] += 1
    return counts, tuple(melds)


def tile_text(t: int) -> str:
    for suit, base in _SUIT_BASE.items():
        if base <= t < base + _SUIT_SIZE[suit]:
            return f"{t - base + 1}{suit}"
    raise ValueError(t)


# --------------------------------------------------------------------------------------------
# helpers

def meld_counts(melds: Melds) -> list[int]:
    mc = [0] * N
    for m in melds:
        for t in m:
            mc[t] += 1
    return mc


def all_counts(counts: Sequence[int], melds: Melds) -> list[int]:
    mc = meld_counts(melds)
    return [counts[i] + mc[i] for i in range(N)]


def _group_of(t: int) -> int:
    return 3 if t >= 27 else t // 9


# --------------------------------------------------------------------------------------------
# standard shape: sets (+ one pair), by recursion on the lowest tile

@cache
def _all_sets(group: tuple[int, ...], seq: bool) -> bool:
    """Can these counts (one suit, or the honours) be split entirely into sets?

    The lowest tile present must start a pung or a sequence (it cannot be in the middle or
    the end of a sequence, nothing lower is left); try both.
    """
    i = next((k for k, c in enumerate(group) if c), -1)
    if i < 0:
        return True
    c = list(group)
    if c[i] >= 3:
        c[i] -= 3
        if _all_sets(tuple(c), seq):
            return True
        c[i] += 3
    if seq and i + 2 < len(c) and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        if _all_sets(tuple(c), seq):
            return True
    return False


@cache
def _sets_and_pair(group: tuple[int, ...], seq: bool) -> bool:
    """Can these counts be split into sets plus exactly one pair? (try every pair)"""
    for i, ci in enumerate(group):
        if ci >= 2:
            c = list(group)
            c[i] -= 2
            if _all_sets(tuple(c), seq):
                return True
    return False


def _groups(counts: Sequence[int]) -> list[tuple[tuple[int, ...], bool]]:
    return [(tuple(counts[a:b]), seq) for a, b, seq in GROUPS]


@cache
def _group_ok(group: tuple[int, ...], seq: bool, wilds: int, pair: bool) -> bool:
    """Group + ``wilds`` wild tiles (each standing for some tile OF THIS GROUP, brute force over
    every multiset of such tiles, no copy limit) splits into sets (+ one pair if ``pair``)."""
    for extra in itertools.combinations_with_replacement(range(len(group)), wilds):
        c = list(group)
        for t in extra:
            c[t] += 1
        if (_sets_and_pair if pair else _all_sets)(tuple(c), seq):
            return True
    return False


@cache
def _feasible(group: tuple[int, ...], seq: bool, jokers: int) -> frozenset[tuple[int, int]]:
    """{(j, p)}: with j of the wilds standing for tiles of this group, the group splits into
    sets (p=0) or sets plus one pair (p=1)."""
    return frozenset((j, p) for j in range(jokers + 1) for p in (0, 1)
                     if _group_ok(group, seq, j, bool(p)))


def _combine(feas: Sequence[frozenset[tuple[int, int]]], jokers: int) -> bool:
    """Choose one (j, p) per group with the j adding up to ``jokers`` and exactly one pair."""
    reach = {(0, 0)}
    for f in feas:
        reach = {(a + j, b + p) for a, b in reach for j, p in f if a + j <= jokers and b + p <= 1}
    return (jokers, 1) in reach


def standard_win(counts: Sequence[int], jokers: int = 0) -> bool:
    """Concealed tiles (+ wilds) form sets and exactly one pair (declared melds aside).

    Sets and the pair never cross groups (suits / honours), and the multiset of tiles the wilds
    stand for splits by group: so the hand wins iff each group, with some number of the wilds,
    splits into sets (one group: sets plus the pair), the numbers adding up to all the wilds.
    """
    if (sum(counts) + jokers) % 3 != 2:
        return False
    return _combine([_feasible(g, seq, jokers) for g, seq in _groups(counts)], jokers)


@cache
def _group_decomps(group: tuple[int, ...], seq: bool) -> frozenset[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every way to split a group entirely into sets: set of (sorted chow starts, sorted pungs)
    with ids relative to the group. Lowest tile starts a pung or a sequence."""
    i = next((k for k, c in enumerate(group) if c), -1)
    if i < 0:
        return frozenset({((), ())})
    out: set[tuple[tuple[int, ...], tuple[int, ...]]] = set()
    c = list(group)
    if c[i] >= 3:
        c[i] -= 3
        for ch, pu in _group_decomps(tuple(c), seq):
            out.add((ch, tuple(sorted(pu + (i,)))))
        c[i] += 3
    if seq and i + 2 < len(c) and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        for ch, pu in _group_decomps(tuple(c), seq):
            out.add((tuple(sorted(ch + (i,))), pu))
    return frozenset(out)


def decompositions(counts: Sequence[int]) -> set[Decomposition]:
    """All distinct standard decompositions of the concealed counts (pair, chows, pungs)."""
    if sum(counts) % 3 != 2:
        return set()
    out: set[Decomposition] = set()
    for p in range(N):
        if counts[p] < 2:
            continue
        c = list(counts)
        c[p] -= 2
        per_group = []
        for a, b, seq in GROUPS:
            ds = _group_decomps(tuple(c[a:b]), seq)
            if not ds:
                break
            per_group.append([(tuple(x + a for x in ch), tuple(x + a for x in pu)) for ch, pu in ds])
        else:
            for combo in itertools.product(*per_group):
                chows = tuple(sorted(x for ch, _ in combo for x in ch))
                pungs = tuple(sorted(x for _, pu in combo for x in pu))
                out.add(Decomposition(p, chows, pungs))
    return out


# --------------------------------------------------------------------------------------------
# the other shapes

def qidui_win(counts: Sequence[int], melds: Melds, jokers: int = 0) -> bool:
    """Seven pairs: no melds, 14 tiles, four identical tiles = two pairs. A wild pairs with
    any tile or with another wild (so: the number of odd counts must be covered by wilds;
    the remaining wilds, an even number, pair with each other)."""
    if melds or sum(counts) + jokers != 14:
        return False
    odd = sum(1 for c in counts if c % 2)
    return odd <= jokers


def qidui_distinct_win(counts: Sequence[int], melds: Melds, jokers: int = 0) -> bool:
    """Seven pairs of seven different kinds (option qidui_quad_as_two_pairs off): as qidui, and
    no kind more than twice (a wild adds copies, it never takes one away)."""
    return qidui_win(counts, melds, jokers) and max(counts) <= 2


def qidui_win_naive(counts: Sequence[int], melds: Melds, jokers: int = 0,
                    distinct: bool = False) -> bool:
    """Every assignment of the wilds to tiles; then every count must be even (and at most 2
    when the seven pairs must be distinct)."""
    if melds or sum(counts) + jokers != 14:
        return False
    for extra in itertools.combinations_with_replacement(range(N), jokers):
        c = list(counts)
        for t in extra:
            c[t] += 1
        if all(x % 2 == 0 and (x <= 2 or not distinct) for x in c):
            return True
    return False


def shisanyao_win(counts: Sequence[int], melds: Melds, jokers: int = 0) -> bool:
    """One each of the 13 orphans plus a second copy of one of them: no melds, 14 tiles; every
    real tile an orphan, no orphan more than twice, at most one twice; wilds fill the rest."""
    if melds or sum(counts) + jokers != 14:
        return False
    if any(counts[t] for t in range(N) if t not in ORPHANS):
        return False
    if any(counts[t] > 2 for t in ORPHANS):
        return False
    return sum(1 for t in ORPHANS if counts[t] == 2) <= 1


def _knit_sets(perm: Sequence[int]) -> list[int]:
    """Tiles 147 of suit perm[0], 258 of perm[1], 369 of perm[2]."""
    out = []
    for r, suit in enumerate(perm):
        out += [suit * 9 + r + k for k in (0, 3, 6)]
    return out


KNIT_PERMS: tuple[tuple[int, ...], ...] = tuple(itertools.permutations(range(3)))
KNITS: tuple[tuple[int, ...], ...] = tuple(tuple(_knit_sets(p)) for p in KNIT_PERMS)


def quanbukao_win(counts: Sequence[int], melds: Melds, jokers: int = 0) -> bool:
    """14 different tiles from {147 of A, 258 of B, 369 of C, 7 honours} for some suit order."""
    if melds or sum(counts) + jokers != 14:
        return False
    if any(c > 1 for c in counts):
        return False
    for knit in KNITS:
        allowed = set(knit) | set(HONOURS)
        if all(counts[t] == 0 for t in range(N) if t not in allowed):
            return True  # 16 allowed tiles, real ones distinct, wilds fill distinct free slots
    return False


def qixingbukao_win(counts: Sequence[int], melds: Melds, jokers: int = 0) -> bool:
    """quanbukao holding all seven honours (so exactly 7 suited tiles)."""
    if not quanbukao_win(counts, melds, jokers):
        return False
    suited = sum(counts[:27])
    honours = sum(counts[27:])
    # wilds must fill the missing honours; the suited part then has 7 tiles (7 <= 9 slots)
    return suited <= 7 and honours <= 7


def quanbukao_win_naive(counts: Sequence[int], melds: Melds, jokers: int, seven_stars: bool) -> bool:
    """Literal definition with every wild assignment over all 34 tiles."""
    if melds or sum(counts) + jokers != 14:
        return False
    for extra in itertools.combinations_with_replacement(range(N), jokers):
        c = list(counts)
        for t in extra:
            c[t] += 1
        if any(x > 1 for x in c):
            continue
        if seven_stars and any(c[t] != 1 for t in HONOURS):
            continue
        # each suit's ranks one residue, three suits three residues
        residues = []
        ok = True
        for s in range(3):
            rs = {(r + 1) % 3 for r in range(9) if c[s * 9 + r]}
            if len(rs) > 1:
                ok = False
            residues.append(rs)
        if not ok:
            continue
        used = [next(iter(r)) for r in residues if r]
        if len(used) != len(set(used)):
            continue
        return True
    return False


def zuhelong_win(counts: Sequence[int], melds: Melds, jokers: int = 0) -> bool:
    """Knitted straight 147/258/369 (three suits, any order) concealed, the other five tiles
    one set and one pair; the set may be a declared meld (at most one meld)."""
    if len(melds) > 1:
        return False
    if sum(counts) + jokers + 3 * len(melds) != 14:
        return False
    for knit in KNITS:
        c = list(counts)
        missing = 0
        for t in knit:
            if c[t]:
                c[t] -= 1
            else:
                missing += 1
        if missing > jokers:
            continue
        if standard_win(c, jokers - missing):
            return True
    return False


def zuhelong_win_naive(counts: Sequence[int], melds: Melds, jokers: int = 0) -> bool:
    if len(melds) > 1 or sum(counts) + jokers + 3 * len(melds) != 14:
        return False
    for extra in itertools.combinations_with_replacement(range(N), jokers):
        c = list(counts)
        for t in extra:
            c[t] += 1
        for perm in KNIT_PERMS:
            knit = _knit_sets(perm)
            if all(c[t] for t in knit):
                rest = list(c)
                for t in knit:
                    rest[t] -= 1
                if standard_win(rest, 0):
                    return True
    return False


def standard_win_naive(counts: Sequence[int], jokers: int = 0) -> bool:
    """Every assignment of the wilds over all 34 tiles, then the plain recursion."""
    if (sum(counts) + jokers) % 3 != 2:
        return False
    for extra in itertools.combinations_with_replacement(range(N), jokers):
        c = list(counts)
        for t in extra:
            c[t] += 1
        gs = _groups(c)
        if any(_sets_and_pair(g, seq)
               and all(_all_sets(h, s2) for j, (h, s2) in enumerate(gs) if j != k)
               for k, (g, seq) in enumerate(gs)):
            return True
    return False


# --------------------------------------------------------------------------------------------
# public-style reference API

SHAPE_TESTS = {
    "qidui": qidui_win,
    "qidui_distinct": qidui_distinct_win,
    "shisanyao": shisanyao_win,
    "quanbukao": quanbukao_win,
    "qixingbukao": qixingbukao_win,
    "zuhelong": zuhelong_win,
}

def win_shapes(counts: Sequence[int], melds: Melds = (), shapes: Iterable[str] = SHAPES,
               jokers: int = 0) -> frozenset[str]:
    """The names in ``shapes`` whose shape the hand forms, each tested on its own."""
    counts = list(counts)
    out = set()
    for s in shapes:
        if s == "standard":
            ok = standard_win(counts, jokers)
        elif s in SHAPE_TESTS:
            ok = SHAPE_TESTS[s](counts, melds, jokers)
        else:
            raise ValueError(s)
        if ok:
            out.add(s)
    return frozenset(out)


def is_win(counts: Sequence[int], melds: Melds = (), shapes: Iterable[str] = DEFAULT_SHAPES,
           jokers: int = 0) -> bool:
    return bool(win_shapes(counts, melds, shapes, jokers))


def waits_naive(counts: Sequence[int], melds: Melds = (), shapes: Iterable[str] = DEFAULT_SHAPES,
                jokers: int = 0) -> list[int]:
    """Tiles t (fewer than four copies held, concealed + melds) such that hand + t wins."""
    shapes = tuple(shapes)
    ac = all_counts(counts, melds)
    out = []
    c = list(counts)
    for t in range(N):
        if ac[t] >= 4:
            continue
        c[t] += 1
        if is_win(c, melds, shapes, jokers):
            out.append(t)
        c[t] -= 1
    return out


def _hopeless(shape: str, counts: Sequence[int], melds: Melds, jokers: int) -> bool:
    """True when no single added tile can make ``shape``: conditions that adding a tile cannot
    repair (so skipping them changes no answer; ``waits_naive`` is the check)."""
    if shape in ("qidui", "qidui_distinct"):  # one more tile changes the odd counts by one
        return (bool(melds) or sum(1 for c in counts if c % 2) - 1 > jokers
                or (shape == "qidui_distinct" and max(counts) > 2))
    if shape == "shisanyao":
        return bool(melds) or any(counts[t] for t in range(N) if t not in ORPHANS)
    if shape in ("quanbukao", "qixingbukao"):
        return bool(melds) or any(c > 1 for c in counts)
    if shape == "zuhelong":
        return len(melds) > 1 or min(sum(1 for t in k if not counts[t]) for k in KNITS) > jokers + 1
    return False


def waits(counts: Sequence[int], melds: Melds = (), shapes: Iterable[str] = DEFAULT_SHAPES,
          jokers: int = 0) -> list[int]:
    """Same as ``waits_naive``; the standard test reuses the groups that t does not touch, and
    special shapes that no tile can complete are not tried."""
    shapes = tuple(shapes)
    ac = all_counts(counts, melds)
    other = tuple(s for s in shapes if s != "standard" and not _hopeless(s, counts, melds, jokers))
    std = "standard" in shapes and (sum(counts) + 1 + jokers) % 3 == 2
    base = [_feasible(g, seq, jokers) for g, seq in _groups(counts)] if std else []
    out = []
    c = list(counts)
    for t in range(N):
        if ac[t] >= 4:
            continue
        c[t] += 1
        win = False
        if std:
            gi = _group_of(t)
            lo, hi, seq = GROUPS[gi]
            feas = list(base)
            feas[gi] = _feasible(tuple(c[lo:hi]), seq, jokers)
            win = _combine(feas, jokers)
        if not win:
            win = any(SHAPE_TESTS[s](c, melds, jokers) for s in other)
        if win:
            out.append(t)
        c[t] -= 1
    return out


def wait_mask(counts: Sequence[int], melds: Melds = (), shapes: Iterable[str] = DEFAULT_SHAPES,
              jokers: int = 0) -> int:
    m = 0
    for t in waits(counts, melds, shapes, jokers):
        m |= 1 << t
    return m


# --------------------------------------------------------------------------------------------
# shanten

INF = 10**6


@cache
def _group_overlap_all(group: tuple[int, ...], caps: tuple[int, ...], seq: bool, kmax: int,
                   jokers: int) -> dict[tuple[int, int, int], int]:
    """For a group, the best overlap sum(min(T_i, H_i)) over every target T made of k sets and
    p pairs (p in 0/1) of this group, keyed by (k, p, e) where e = copies of T beyond the
    four-copy cap (which only wilds can supply).

    Exhaustive: a multiset of sets is exactly "how many sequences start at each rank, how many
    pungs at each rank"; walk the ranks choosing those numbers (plus where the pair is) and
    track the sequences still running into the next two ranks.
    """
    n = len(group)
    lim = [caps[r] + jokers for r in range(n)] + [0, 0]  # most copies a target can hold
    # state: (seq started at r-1, seq started at r-2, k, p, e) -> best overlap
    states: dict[tuple[int, int, int, int, int], int] = {(0, 0, 0, 0, 0): 0}
    for r in range(n):
        nxt: dict[tuple[int, int, int, int, int], int] = {}
        hr, cap, limit = group[r], caps[r], lim[r]
        for (c1, c2, k, p, e), ov in states.items():
            carried = c1 + c2
            if carried > limit:
                continue
            # sequences starting here: also bounded by what ranks r+1, r+2 may hold
            max_a = 0
            if seq and r + 2 < n:
                max_a = min(limit - carried, lim[r + 1] - c1, lim[r + 2], kmax - k)
            for a in range(max_a + 1):
                for b in range(kmax + 1):  # with wilds a kind may be needed 9+ times
                    if k + a + b > kmax:
                        break
                    for pr in range(2 - p):
                        t = carried + a + 3 * b + 2 * pr
                        if t > limit:
                            break
                        ex = e + (t - cap if t > cap else 0)
                        if ex > jokers:
                            break
                        key = (a, c1, k + a + b, p + pr, ex)
                        val = ov + (t if t < hr else hr)
                        if nxt.get(key, -1) < val:
                            nxt[key] = val
        states = nxt
    out: dict[tuple[int, int, int], int] = {}
    for (c1, c2, k, p, e), ov in states.items():
        if c1 or c2:
            continue
        key2 = (k, p, e)
        if out.get(key2, -1) < ov:
            out[key2] = ov
    return out


@cache
def _group_overlap(group: tuple[int, ...], caps: tuple[int, ...], seq: bool, kmax: int,
                   jokers: int) -> dict[tuple[int, int, int], int]:
    """``_group_overlap_all`` restricted to targets without useless sets.

    A set (or the pair) of a target is *useless* when removing it loses no overlap. Every
    useless set can be moved to a tile kind that nobody holds, has no declared copies and that
    no other set of the target uses ("fresh"), keeping the overlap and the copy limits: at most
    17 kinds are held or declared and the at most 5 sets touch at most 10 more kinds, so at
    least 7 of the 34 kinds stay free for the at most 6 sets and pair. ``shanten_standard``
    adds such fresh sets (overlap 0) to make up the count, so dropping useless sets here loses
    nothing. Three consequences bound the search:
      * a pung (the pair) at rank r is useless when T[r] - 3 (T[r] - 2) >= group[r], in
        particular when group[r] == 0;
      * ``a`` identical sequences at r need a <= max(group[r:r+3]) (else every one of the three
        ranks holds T > group, and removing one sequence loses nothing).
    """
    n = len(group)
    lim = [caps[r] + jokers for r in range(n)] + [0, 0]
    gx = list(group) + [0, 0]
    states: dict[tuple[int, int, int, int, int], int] = {(0, 0, 0, 0, 0): 0}
    for r in range(n):
        nxt: dict[tuple[int, int, int, int, int], int] = {}
        hr, cap, limit = group[r], caps[r], lim[r]
        max_b = 2 if hr else 0
        max_pr = 1 if hr else 0
        top = max(hr, gx[r + 1], gx[r + 2])
        for (c1, c2, k, p, e), ov in states.items():
            carried = c1 + c2
            if carried > limit:
                continue
            max_a = 0
            if seq and r + 2 < n:
                max_a = min(limit - carried, lim[r + 1] - c1, lim[r + 2], kmax - k, top)
            for a in range(max_a + 1):
                for b in range(max_b + 1):
                    if k + a + b > kmax:
                        break
                    for pr in range(min(1 - p, max_pr) + 1):
                        t = carried + a + 3 * b + 2 * pr
                        if t > limit:
                            break
                        ex = e + (t - cap if t > cap else 0)
                        if ex > jokers:
                            break
                        # a pung (pair) here is useless when T[r] - 3 (- 2) >= group[r]
                        if (b and t >= hr + 3) or (pr and t >= hr + 2):
                            continue
                        key = (a, c1, k + a + b, p + pr, ex)
                        val = ov + (t if t < hr else hr)
                        if nxt.get(key, -1) < val:
                            nxt[key] = val
        states = nxt
    out: dict[tuple[int, int, int], int] = {}
    for (c1, c2, k, p, e), ov in states.items():
        if c1 or c2:
            continue
        key2 = (k, p, e)
        if out.get(key2, -1) < ov:
            out[key2] = ov
    return out


def _target_size(counts: Sequence[int], jokers: int) -> int:
    total = sum(counts) + jokers
    if total % 3 == 0:
        raise ValueError("tile count 3n")
    return total + 1 if total % 3 == 1 else total


def shanten_standard(counts: Sequence[int], melds: Melds = (), jokers: int = 0,
                     naive: bool = False) -> int:
    """Exact, by the target definition (module docstring). With ``naive`` every target is
    enumerated per group; otherwise useless sets are left out and made up by fresh sets (see
    ``_group_overlap``); the tests check the two agree."""
    size = _target_size(counts, jokers)
    caps = [4 - c for c in meld_counts(melds)]
    return size - _standard_cover(counts, caps, (size - 2) // 3, jokers, naive) - jokers - 1


def _standard_cover(counts: Sequence[int], caps: Sequence[int], nsets: int, jokers: int,
                    naive: bool = False) -> int:
    """Most of the real tiles ``counts`` that a target of ``nsets`` sets and one pair can cover
    (sum of min(T[t], counts[t])), where a target holds at most caps[t] copies of tile t, but
    for at most ``jokers`` copies beyond the caps in all (those only wilds can be)."""
    tables = []
    for a, b, seq in GROUPS:
        g = tuple(counts[a:b])
        gcaps = tuple(caps[a:b])
        if naive:
            tables.append(_group_overlap_all(g, gcaps, seq, nsets, jokers))
        else:
            # one table for every hand size (at most 5 sets) and wild count (at most 2 beyond
            # the cap), shared by most hands: entries with e <= jokers are exactly the targets
            # ``jokers`` allows. A target of at most one set (zuhelong's rest, whose caps are
            # seldom seen twice) is cheaper on its own.
            kmax, big = (5, max(jokers, 2)) if nsets > 1 else (nsets, jokers)
            tab = _group_overlap(g, gcaps, seq, kmax, big)
            tables.append({key: v for key, v in tab.items() if key[0] <= nsets and key[2] <= jokers}
                          if big != jokers or nsets != kmax else tab)
    best = -1
    # combine: total sets nsets, total pairs 1, total excess <= jokers
    acc: dict[tuple[int, int, int], int] = {(0, 0, 0): 0}
    for tab in tables:
        nacc: dict[tuple[int, int, int], int] = {}
        for (k1, p1, e1), v1 in acc.items():
            for (k2, p2, e2), v2 in tab.items():
                k, p, e = k1 + k2, p1 + p2, e1 + e2
                if k > nsets or p > 1 or e > jokers:
                    continue
                if nacc.get((k, p, e), -1) < v1 + v2:
                    nacc[(k, p, e)] = v1 + v2
        acc = nacc
    for (k, p, _e), v in acc.items():
        # naive: exactly nsets sets and the pair; otherwise fresh sets/pair make up the rest
        if (k == nsets and p == 1 or not naive) and v > best:
            best = v
    assert best >= 0
    return best


def shanten_qidui(counts: Sequence[int], melds: Melds = (), jokers: int = 0) -> int:
    """Targets: seven pairs, each tile count 0, 2 or 4 (four identical = two pairs).
    Returns INF when the shape does not apply (melds, or not 13/14 tiles)."""
    if melds or sum(counts) + jokers not in (13, 14):
        return INF
    # best[p] = best overlap with p pairs placed on held tiles (each held tile: 0, 1 or 2
    # pairs, i.e. 0, 2 or 4 copies); the other 7 - p pairs go on kinds not held (there are
    # always at least 20 of them) and cover nothing.
    best = [-1] * 8
    best[0] = 0
    for t in range(N):
        if not counts[t]:
            continue
        nb = list(best)
        for p in range(8):
            if best[p] < 0:
                continue
            for take in (1, 2):
                if p + take <= 7:
                    v = best[p] + min(2 * take, counts[t])
                    if v > nb[p + take]:
                        nb[p + take] = v
        best = nb
    return 14 - max(best) - jokers - 1


def shanten_qidui_distinct(counts: Sequence[int], melds: Melds = (), jokers: int = 0) -> int:
    """Targets: seven pairs of seven different kinds. A target covers at most min(2, H[t]) of
    each kind it uses, so the best target takes the seven kinds with the most such tiles (kinds
    not held cover nothing, and at least 20 are free). INF when the shape does not apply."""
    if melds or sum(counts) + jokers not in (13, 14):
        return INF
    best = sum(sorted((min(2, c) for c in counts), reverse=True)[:7])
    return 14 - best - jokers - 1


def shanten_shisanyao(counts: Sequence[int], melds: Melds = (), jokers: int = 0) -> int:
    """Targets: the 13 orphans once each plus one of them twice."""
    if melds or sum(counts) + jokers not in (13, 14):
        return INF
    best = -1
    for dup in ORPHANS:
        ov = sum(min(1 + (t == dup), counts[t]) for t in ORPHANS)
        best = max(best, ov)
    return 14 - best - jokers - 1


def shanten_bukao(counts: Sequence[int], melds: Melds = (), jokers: int = 0,
                  seven_stars: bool = False) -> int:
    """Targets: 14 different tiles from the 16 knitted+honour tiles of some suit order (for
    qixingbukao: all 7 honours plus 7 of the 9 knitted tiles). No copy limit can bind (one
    copy of each)."""
    if melds or sum(counts) + jokers not in (13, 14):
        return INF
    best = -1
    for knit in KNITS:
        suited = sum(1 for t in knit if counts[t])
        honours = sum(1 for t in HONOURS if counts[t])
        ov = min(7, honours) + min(7, suited) if seven_stars else min(14, honours + suited)
        best = max(best, ov)
    return 14 - best - jokers - 1


def shanten_zuhelong(counts: Sequence[int], melds: Melds = (), jokers: int = 0) -> int:
    """Targets: one suit order's nine knitted tiles K (one each) plus a rest R of one set and a
    pair, or a pair alone when a declared meld is the set (shapes.md §2 Decision; at most one
    meld). Per tile min(K + R, H) = min(K, H) + min(R, H - min(K, H)), so the best target for
    a suit order takes K out of the hand and the copy limits (a fifth copy only as a wild),
    then covers what is left with the best R (``_standard_cover``). ``shanten_zuhelong_naive``
    tries every target; the tests compare the two. INF when the shape does not apply."""
    if len(melds) > 1 or sum(counts) + jokers + 3 * len(melds) not in (13, 14):
        return INF
    nsets = 1 - len(melds)
    best = INF
    for knit in KNITS:
        rest, caps = list(counts), [4 - c for c in meld_counts(melds)]
        missing = over = 0
        for t in knit:
            if rest[t]:
                rest[t] -= 1
            else:
                missing += 1
            if caps[t]:
                caps[t] -= 1
            else:
                over += 1  # all four copies in a declared kong: only a wild can be this tile
        if over > jokers:
            continue
        need = 3 * nsets + 2 - _standard_cover(rest, caps, nsets, jokers - over)
        best = min(best, missing + need)
    return best - jokers - 1 if best < INF else INF


def shanten_zuhelong_naive(counts: Sequence[int], melds: Melds = (), jokers: int = 0) -> int:
    """Every 组合龙 target literally: each suit order's knitted tiles, each set (none when a meld
    is the set), each pair; the copies beyond four less the melds' must be wilds."""
    if len(melds) > 1 or sum(counts) + jokers + 3 * len(melds) not in (13, 14):
        return INF
    caps = [4 - c for c in meld_counts(melds)]
    sets: list[list[int]] = [[t] * 3 for t in range(N)]
    sets += [[t, t + 1, t + 2] for a, b, seq in GROUPS if seq for t in range(a, b - 2)]
    best = INF
    for knit in KNITS:
        for one_set in (sets if not melds else [[]]):
            for p in range(N):
                target: dict[int, int] = {}
                for t in [*knit, *one_set, p, p]:
                    target[t] = target.get(t, 0) + 1
                if sum(max(0, c - caps[t]) for t, c in target.items()) > jokers:
                    continue
                best = min(best, sum(max(0, c - counts[t]) for t, c in target.items()))
    return best - jokers - 1 if best < INF else INF


def shanten(counts: Sequence[int], melds: Melds = (), shapes: Iterable[str] = DEFAULT_SHAPES,
            jokers: int = 0) -> int:
    vals = []
    for s in shapes:
        if s == "standard":
            vals.append(shanten_standard(counts, melds, jokers))
        elif s == "qidui":
            vals.append(shanten_qidui(counts, melds, jokers))
        elif s == "qidui_distinct":
            vals.append(shanten_qidui_distinct(counts, melds, jokers))
        elif s == "shisanyao":
            vals.append(shanten_shisanyao(counts, melds, jokers))
        elif s == "quanbukao":
            vals.append(shanten_bukao(counts, melds, jokers, False))
        elif s == "qixingbukao":
            vals.append(shanten_bukao(counts, melds, jokers, True))
        elif s == "zuhelong":
            vals.append(shanten_zuhelong(counts, melds, jokers))
        else:
            raise ValueError(s)
    best = min(vals) if vals else INF
    return best


def shanten_bfs(counts: Sequence[int], melds: Melds = (), shapes: Iterable[str] = DEFAULT_SHAPES,
                jokers: int = 0, max_depth: int = 8) -> int:
    """The literal definition, for small hands: -1 if complete (3n+2); otherwise the fewest
    exchanges (discard a real tile, draw one with fewer than four copies held incl. melds) after
    which the 3n+1 hand has a wait. A 3n+2 hand first discards (free)."""
    shapes = tuple(shapes)
    total = sum(counts) + jokers
    start = tuple(counts)
    if total % 3 == 2:
        if is_win(start, melds, shapes, jokers):
            return -1
        frontier = set()
        for t in range(N):
            if start[t]:
                c = list(start)
                c[t] -= 1
                frontier.add(tuple(c))
    else:
        frontier = {start}
    mc = meld_counts(melds)
    seen = set(frontier)
    for depth in range(max_depth + 1):
        for h in frontier:
            if waits(h, melds, shapes, jokers):
                return depth
        nxt = set()
        for h in frontier:
            for d in range(N):
                if not h[d]:
                    continue
                for t in range(N):
                    if t == d or h[t] + mc[t] + (0 if t != d else -1) >= 4:
                        continue
                    c = list(h)
                    c[d] -= 1
                    c[t] += 1
                    key = tuple(c)
                    if key not in seen:
                        seen.add(key)
                        nxt.add(key)
        frontier = nxt
    return INF


# --------------------------------------------------------------------------------------------
# random hands for the tests (not part of the reference definitions)

MELD_KINDS = ("chi", "peng", "gang", "angang", "bugang")


class RandomHand(NamedTuple):
    counts: tuple[int, ...]
    melds: tuple[tuple[str, tuple[int, ...]], ...]  # (kind, tiles)
    jokers: int

    @property
    def meld_tiles(self) -> Melds:
        return tuple(t for _, t in self.melds)


def _random_meld(rng: random.Random, avail: list[int],
                 groups: Sequence[int]) -> tuple[str, tuple[int, ...]] | None:
    for _ in range(30):
        kind = rng.choice(MELD_KINDS + ("chi", "peng"))
        g = rng.choice(groups)
        lo, hi, seq = GROUPS[g]
        if kind == "chi":
            if not seq:
                continue
            s = rng.randrange(lo, hi - 2)
            tiles: tuple[int, ...] = (s, s + 1, s + 2)
        else:
            t = rng.randrange(lo, hi)
            tiles = (t,) * (3 if kind == "peng" else 4)
        need = [0] * N
        for t in tiles:
            need[t] += 1
        if all(avail[t] >= need[t] for t in tiles):
            for t in tiles:
                avail[t] -= 1
            return kind, tiles
    return None


def _random_set(rng: random.Random, avail: list[int], groups: Sequence[int]) -> list[int] | None:
    for _ in range(30):
        g = rng.choice(groups)
        lo, hi, seq = GROUPS[g]
        if seq and rng.random() < 0.6:
            s = rng.randrange(lo, hi - 2)
            tiles = [s, s + 1, s + 2]
        else:
            tiles = [rng.randrange(lo, hi)] * 3
        if all(avail[t] >= tiles.count(t) for t in tiles):
            for t in tiles:
                avail[t] -= 1
            return tiles
    return None


def _draw(rng: random.Random, avail: list[int], groups: Sequence[int], n: int) -> list[int] | None:
    pool = [t for g in groups for t in range(GROUPS[g][0], GROUPS[g][1]) for _ in range(avail[t])]
    if len(pool) < n:
        return None
    got = rng.sample(pool, n)
    for t in got:
        avail[t] -= 1
    return got


def _special_tiles(rng: random.Random, avail: list[int]) -> list[int]:
    kind = rng.randrange(4)
    if kind == 0:  # seven pairs, maybe with a quad
        kinds = rng.sample(range(N), 7)
        tiles = [t for t in kinds for _ in range(2)]
        if rng.random() < 0.3:
            tiles = tiles[:-2] + [kinds[0], kinds[0]]
    elif kind == 1:  # thirteen orphans
        tiles = list(ORPHANS) + [rng.choice(ORPHANS)]
    elif kind == 2:  # knitted tiles + honours (quanbukao / qixingbukao)
        perm = rng.choice(KNIT_PERMS)
        pool = _knit_sets(perm) + list(HONOURS)
        tiles = rng.sample(pool, 14)
    else:  # zuhelong: knitted straight + set + pair
        perm = rng.choice(KNIT_PERMS)
        tiles = _knit_sets(perm)
        a2 = list(avail)
        for t in tiles:
            a2[t] -= 1
        s = _random_set(rng, a2, (0, 1, 2, 3))
        p = rng.randrange(N)
        tiles = tiles + (s or []) + [p, p]
    for t in tiles:
        avail[t] -= 1
    return tiles


def random_hand(rng: random.Random, size: int, jokers: int = 0, melds_ok: bool = True) -> RandomHand:
    """A random, valid hand: ``size`` = concealed + 3 per meld + jokers (13, 14, 16 or 17).

    Mix: plain draws from the wall, draws from one or two suits (wins are then frequent),
    hands built from sets and a pair then perturbed, and the special shapes perturbed.
    """
    while True:
        avail = [4] * N
        mode = rng.random()
        groups: tuple[int, ...] = (0, 1, 2, 3)
        if mode < 0.2:
            groups = (0, 1, 2, 3)
        elif mode < 0.35:
            groups = (rng.randrange(3),)
        elif mode < 0.5:
            groups = tuple(rng.sample(range(4), 2))
        nmelds = 0
        melds: list[tuple[str, tuple[int, ...]]] = []
        special = 0.85 <= mode and size in (13, 14)
        if melds_ok and not special and size - jokers >= 4 and rng.random() < 0.3:
            nmelds = rng.randint(1, min(4, (size - jokers - 1) // 3))
            for _ in range(nmelds):
                m = _random_meld(rng, avail, groups)
                if m:
                    melds.append(m)
        nconc = size - 3 * len(melds) - jokers
        if nconc < 1:
            continue
        tiles: list[int] = []
        if mode < 0.5:
            got = _draw(rng, avail, groups, nconc)
            if got is None:
                continue
            tiles = got
        else:
            if special:
                tiles = _special_tiles(rng, avail)
            else:
                full = nconc + jokers
                nsets = (full - 2 + 2) // 3  # enough sets to cover the size
                ok = True
                for _ in range(nsets):
                    s = _random_set(rng, avail, groups)
                    if s is None:
                        ok = False
                        break
                    tiles += s
                pr = [t for t in range(N) if avail[t] >= 2 and GROUPS[_group_of(t)] and
                      _group_of(t) in groups]
                if not ok or not pr:
                    continue
                p = rng.choice(pr)
                avail[p] -= 2
                tiles += [p, p]
            rng.shuffle(tiles)
            while len(tiles) > nconc:
                avail[tiles.pop()] += 1
            if len(tiles) < nconc:
                more = _draw(rng, avail, (0, 1, 2, 3), nconc - len(tiles))
                if more is None:
                    continue
                tiles += more
            # perturb: swap 0-2 tiles for random ones
            for _ in range(rng.choice((0, 0, 1, 1, 2))):
                i = rng.randrange(len(tiles))
                new = _draw(rng, avail, (0, 1, 2, 3), 1)
                if new:
                    avail[tiles[i]] += 1
                    tiles[i] = new[0]
        counts = [0] * N
        for t in tiles:
            counts[t] += 1
        held = all_counts(counts, tuple(t for _, t in melds))
        if max(held) > 4 or sum(counts) != nconc:
            continue
        return RandomHand(tuple(counts), tuple(melds), jokers)
