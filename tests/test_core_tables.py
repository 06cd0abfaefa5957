"""The table generator of the core, checked entry by entry against brute force.

``mjcore._core.table_entry(key)`` returns what the generator stored for one packed suit (base-5
counts). Each field is recomputed here from its definition by exhaustive search.
"""

from __future__ import annotations

import functools
import itertools
import random

import pytest

from mjcore import MahjongError
from mjcore._core import capped_distances, table_entry


def key_of(counts: tuple[int, ...]) -> int:
    return sum(c * 5**i for i, c in enumerate(counts))


def set_shapes(n: int, runs: bool) -> list[tuple[int, ...]]:
    """Every set of an n-rank suit as a count vector (pungs, and runs when allowed)."""
    out = [tuple(3 if i == r else 0 for i in range(n)) for r in range(n)]
    if runs:
        out += [tuple(1 if r <= i <= r + 2 else 0 for i in range(n)) for r in range(n - 2)]
    return out


@functools.cache
def splits(counts: tuple[int, ...], runs: bool, pairs: int) -> bool:
    """Do the counts split exactly into sets plus ``pairs`` pairs? (tries every first set)"""
    if not any(counts):
        return pairs == 0
    n = len(counts)
    if pairs:
        for r in range(n):
            if counts[r] >= 2:
                rest = counts[:r] + (counts[r] - 2,) + counts[r + 1:]
                if splits(rest, runs, pairs - 1):
                    return True
    for s in set_shapes(n, runs):
        if all(c >= k for c, k in zip(counts, s)):
            if splits(tuple(c - k for c, k in zip(counts, s)), runs, pairs):
                return True
    return False


def fewest_wilds(counts: tuple[int, ...], runs: bool, pairs: int, limit: int = 4) -> int:
    """Fewest added tiles of any rank (no copy limit) that make the counts split; > limit -> limit+1."""
    n = len(counts)
    for j in range(limit + 1):
        for added in itertools.combinations_with_replacement(range(n), j):
            c = list(counts)
            for r in added:
                c[r] += 1
            if splits(tuple(c), runs, pairs):
                return j
    return limit + 1


@functools.cache
def targets(n: int, runs: bool, m: int, h: int) -> list[tuple[int, ...]]:
    """Every count vector (copies <= 4) made of m sets and h pairs."""
    out = set()
    pair_shapes = [tuple(2 if i == r else 0 for i in range(n)) for r in range(n)]
    for sets in itertools.combinations_with_replacement(set_shapes(n, runs), m):
        for pair in itertools.combinations_with_replacement(pair_shapes, h):
            t = tuple(sum(v) for v in zip(*(sets + pair))) if m + h else (0,) * n
            if max(t) <= 4:
                out.add(t)
    return sorted(out)


def distance(counts: tuple[int, ...], runs: bool, m: int, h: int) -> int:
    """Fewest tiles to add so that the counts contain m sets and h pairs (four-copy limit)."""
    return min(sum(max(0, t - c) for t, c in zip(tgt, counts)) for tgt in targets(len(counts), runs, m, h))


def random_counts(rng: random.Random, n: int, total: int) -> tuple[int, ...]:
    c = [0] * n
    while sum(c) < total:
        r = rng.randrange(n)
        if c[r] < 4:
            c[r] += 1
    return tuple(c)


def sample_keys(n: int, count: int, seed: int) -> list[tuple[int, ...]]:
    rng = random.Random(seed)
    return [random_counts(rng, n, rng.randrange(0, 15)) for _ in range(count)]


@pytest.mark.parametrize("honours", [False, True])
def test_flags_waits_and_wilds_match_brute_force(honours: bool) -> None:
    n, runs = (7, False) if honours else (9, True)
    for counts in sample_keys(n, 600, 7 + honours):
        m_ok, p_ok, wait_m, wait_p, jm, jp, _ = table_entry(key_of(counts), honours)
        assert m_ok == splits(counts, runs, 0), counts
        assert p_ok == splits(counts, runs, 1), counts
        for r in range(n):
            grown = counts[:r] + (counts[r] + 1,) + counts[r + 1:]
            can = counts[r] < 4
            assert bool(wait_m >> r & 1) == (can and splits(grown, runs, 0)), (counts, r)
            assert bool(wait_p >> r & 1) == (can and splits(grown, runs, 1)), (counts, r)
        assert min(jm, 5) == fewest_wilds(counts, runs, 0), counts
        assert min(jp, 5) == fewest_wilds(counts, runs, 1), counts


@pytest.mark.parametrize("honours", [False, True])
def test_shanten_distances_match_brute_force(honours: bool) -> None:
    n, runs = (7, False) if honours else (9, True)
    for counts in sample_keys(n, 120, 11 + honours):
        dist = table_entry(key_of(counts), honours)[6]
        for m in range(4):
            for h in range(2):
                assert dist[m * 2 + h] == distance(counts, runs, m, h), (counts, m, h)


def test_distance_respects_the_four_copy_limit() -> None:
    # 1111 in one suit: a pung and a pair of the same rank would need a fifth copy
    dist = table_entry(key_of((4, 0, 0, 0, 0, 0, 0, 0, 0)))[6]
    assert dist[1 * 2 + 1] == 2  # e.g. 11 + 123 (add 2, 3) or 111 + 22
    assert dist[0 * 2 + 1] == 0 and dist[1 * 2 + 0] == 0
    # five sets and a pair (16-tile play) are in the table too
    assert table_entry(0)[6][5 * 2 + 1] == 17


def test_table_entry_rejects_keys_outside_the_table() -> None:
    with pytest.raises(MahjongError):
        table_entry(5**9)
    with pytest.raises(MahjongError):
        table_entry(-1)
    with pytest.raises(MahjongError):
        table_entry(5**7, True)


@pytest.mark.parametrize("honours", [False, True])
def test_capped_search_matches_brute_force(honours: bool) -> None:
    """With copies in melds, shanten searches the suit rank by rank under per-tile caps."""
    n, runs = (7, False) if honours else (9, True)
    rng = random.Random(23 + honours)
    for counts in sample_keys(n, 150, 29 + honours):
        caps = tuple(rng.choice([c, 4, 4]) if c else rng.choice([0, 1, 3, 4]) for c in counts)
        row = capped_distances(counts, caps, honours)
        for m in range(4):
            for h in range(2):
                want = min(
                    (sum(max(0, t - c) for t, c in zip(tgt, counts))
                     for tgt in targets(n, runs, m, h) if all(t <= k for t, k in zip(tgt, caps))),
                    default=99,
                )
                assert row[m * 2 + h] == want, (counts, caps, m, h)
        assert capped_distances(counts, (4,) * n, honours) == table_entry(key_of(counts), honours)[6]


def test_shanten_refuses_shapes_that_cannot_apply() -> None:
    """qidui needs 13/14 concealed tiles and no melds: asking for it alone is a bad_shape."""
    import mjcore

    with pytest.raises(MahjongError) as e:
        mjcore.shanten("123m456m789m12p peng:111s", shapes=("qidui",))
    assert e.value.code == "bad_shape"
    counts = bytes(mjcore.Hand.parse("123m456m789m12p").counts)
    with pytest.raises(MahjongError):
        mjcore.shanten_batch(counts, shapes=("qidui",))
