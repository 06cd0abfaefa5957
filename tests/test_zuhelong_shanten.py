"""Shanten for 组合龙 (`zuhelong`, rules/shapes.md §2): the nine knitted tiles 147/258/369 of
three different suits, concealed, plus one set and a pair; the set may be one declared meld.

The core against the reference (tests/reference.py ``shanten_zuhelong``), the reference against
its literal form (every target tried, ``shanten_zuhelong_naive``), and shanten against the
win test and the waits of the same shape, on hands built near the shape.
"""

from __future__ import annotations

import random

import pytest
import reference as R

import mjcore
from mjcore import Hand, MahjongError, Meld

ZHL = ("zuhelong",)


def both(text: str, jokers: int = 0) -> int:
    got = mjcore.shanten(text, shapes=ZHL, jokers=jokers)
    c, m = R.parse_hand(text)
    assert got == R.shanten_zuhelong(c, m, jokers) == R.shanten_zuhelong_naive(c, m, jokers), text
    return got


def test_readme_example_all_shapes() -> None:
    # 十三幺 one tile short: ready over every shape, zuhelong included
    assert mjcore.shanten("19m19p19s1234567z", shapes=mjcore.SHAPES) == 0


def test_seed_example_and_one_tile_less() -> None:
    # shapes.md §8: 369m147p258s + 33p + 西西西 is zuhelong
    assert both("369m147p258s33p333z") == -1
    assert both("369m147p258s3p333z") == 0     # waits on 3p
    assert both("369m147p25s33p333z") == 0     # waits on 8s, the missing knitted tile
    assert both("369m147p25s3p333z1z") == 1


def test_the_set_may_be_a_declared_meld() -> None:
    # §2 Decision: the nine knitted tiles concealed, the other set may be a meld
    assert both("369m147p258s33p peng:333z") == -1
    assert both("369m147p258s3p peng:333z") == 0
    assert both("369m147p258s3p chi:789m") == 0
    assert [w.tile for w in mjcore.waits("369m147p258s3p chi:789m", shapes=ZHL)] == ["3p"]


def test_two_melds_leave_too_few_concealed_tiles() -> None:
    with pytest.raises(MahjongError) as e:
        mjcore.shanten("147m258p3s peng:111z peng:222z", shapes=ZHL)
    assert e.value.code == "bad_shape"
    # with standard in the set, standard answers
    assert mjcore.shanten("147m258p3s peng:111z peng:222z", shapes=("standard", "zuhelong")) >= 0


def test_knitted_tile_all_in_a_kong_only_as_a_wild() -> None:
    # all four 1m in a kong: 147m is out without a wild (another suit order may still fit)
    assert both("47m258p369s55z gang:1111m") > 0
    assert both("47m258p369s55z gang:1111m", jokers=1) == -1
    assert mjcore.is_win("47m258p369s55z gang:1111m", shapes=ZHL, jokers=1)


def test_wilds_fill_knitted_tiles() -> None:
    assert both("369m147p25s33p333z", jokers=1) == -1
    assert both("369m14p25s33p333z", jokers=1) == 0
    assert both("369m14p25s33p333z", jokers=2) == -1


def _near_zuhelong(rng: random.Random) -> R.RandomHand:
    """The knitted tiles of a random suit order, a set (or a meld) and a pair, cut to 13 or 14
    tiles with wilds, then 0-3 tiles replaced by random ones."""
    while True:
        jokers = rng.choice((0, 0, 1, 2))
        avail = [4] * R.N
        tiles = list(rng.choice(R.KNITS))
        for t in tiles:
            avail[t] -= 1
        melds = []
        if rng.random() < 0.35:
            m = R._random_meld(rng, avail, (0, 1, 2, 3))
            if m:
                melds.append(m)
        if not melds:
            tiles += R._random_set(rng, avail, (0, 1, 2, 3)) or []
        pair = rng.choice([t for t in range(R.N) if avail[t] >= 2])
        avail[pair] -= 2
        tiles += [pair, pair]
        rng.shuffle(tiles)
        size = rng.choice((13, 14))
        while tiles and len(tiles) + 3 * len(melds) + jokers > size:
            avail[tiles.pop()] += 1
        for _ in range(rng.choice((0, 1, 1, 2, 3))):
            if tiles:
                avail[tiles.pop(rng.randrange(len(tiles)))] += 1
        while len(tiles) + 3 * len(melds) + jokers < size:
            t = rng.choice([t for t in range(R.N) if avail[t]])
            avail[t] -= 1
            tiles.append(t)
        counts = [0] * R.N
        for t in tiles:
            counts[t] += 1
        if min(avail) >= 0 and sum(counts) >= 1:
            return R.RandomHand(tuple(counts), tuple(melds), jokers)


def _core(h: R.RandomHand) -> Hand:
    return Hand(h.counts, tuple(Meld.of(k, t) for k, t in h.melds))


@pytest.mark.parametrize("seed", range(4))
def test_core_matches_reference_near_the_shape(seed: int) -> None:
    rng = random.Random(seed)
    seen = set()
    for _ in range(500):
        h = _near_zuhelong(rng)
        hand, j = _core(h), h.jokers
        want = R.shanten_zuhelong(h.counts, h.meld_tiles, j)
        got = mjcore.shanten(hand, shapes=ZHL, jokers=j)
        assert got == want, h
        seen.add(got)
        # shanten agrees with the shape's own win test and waits
        if (sum(h.counts) + j) % 3 == 2:
            assert (got == -1) == mjcore.is_win(hand, shapes=ZHL, jokers=j), h
        else:
            assert (got == 0) == bool(mjcore.wait_mask(hand, shapes=ZHL, jokers=j)), h
        # and over all shapes it is the smallest of each shape's shanten
        each = [R.shanten(h.counts, h.meld_tiles, (s,), j) for s in R.SHAPES]
        assert mjcore.shanten(hand, shapes=mjcore.SHAPES, jokers=j) == min(each), h
    assert {-1, 0, 1, 2} <= seen


def test_reference_matches_every_target() -> None:
    rng = random.Random(11)
    for _ in range(50):
        h = _near_zuhelong(rng)
        assert R.shanten_zuhelong(h.counts, h.meld_tiles, h.jokers) == R.shanten_zuhelong_naive(
            h.counts, h.meld_tiles, h.jokers), h


def test_batch_form() -> None:
    rng = random.Random(5)
    hands = [h for h in (_near_zuhelong(rng) for _ in range(300)) if not h.melds and not h.jokers]
    buf = b"".join(bytes(h.counts) for h in hands)
    out = mjcore.shanten_batch(buf, shapes=mjcore.SHAPES)
    for h, got in zip(hands, out, strict=True):
        assert (got - 256 if got > 127 else got) == R.shanten(h.counts, (), R.SHAPES), h
