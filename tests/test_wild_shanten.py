"""Shanten with wild tiles reaches targets that need a kind more than four times (a wild may
stand for a fifth copy), as honours do: the win test, waits and shanten then agree, and agree
with the reference (tests/reference.py) on seeded random hands built to need a kind five,
six or more times: few kinds, honours often, up to four wilds (sometimes up to eight)."""

from __future__ import annotations

import itertools
import os
import random

import pytest
import reference as R

import mjcore
from mjcore import Hand, Meld

# ``make test`` looks at a few hundred hands; MJ_CROSSCHECK_N=200000 (make test-long) at 2,000
N_HANDS = max(200, int(os.environ.get("MJ_CROSSCHECK_N", "20000")) // 100)


def test_honour_targets_past_four_copies() -> None:
    assert mjcore.is_win("11112222z", shapes="standard", jokers=3)
    assert mjcore.shanten("11112222z", shapes="standard", jokers=3) == -1
    assert mjcore.mask_to_tiles(mjcore.wait_mask("111122223z", shapes="standard", jokers=4)) == [
        "3z"]
    assert mjcore.shanten("111122223z", shapes="standard", jokers=4) == 0
    # many wilds: a kind's 5th-9th copies (any other kind serves as well, so never required)
    assert mjcore.shanten("1111z", shapes="standard", jokers=6) == 0
    assert mjcore.shanten("1111z2z", shapes="standard", jokers=6) == -1


_Melds = tuple[tuple[str, tuple[int, ...]], ...]


def _few_kinds_hand(rng: random.Random) -> tuple[tuple[int, ...], _Melds, int]:
    """(counts, melds, jokers): a hand on two to five distinct kinds (honours likely), so that
    targets need some kind more than four times; sometimes one declared pung caps a kind."""
    jokers = rng.choice((1, 2, 3, 4, 4, 3)) if rng.random() < 0.9 else rng.randint(5, 8)
    kinds = rng.sample(range(27, 34), rng.randint(1, 3)) + rng.sample(range(27), rng.randint(1, 2))
    melds: _Melds = ()
    if rng.random() < 0.2:
        t = rng.choice(kinds)
        melds = (("peng", (t, t, t)),)
    total = rng.choice((14, 13, 11, 10, 8, 7, 5, 4)) - 3 * len(melds)
    size = max(1, total - jokers)
    room = [4 - (3 if melds and k == melds[0][1][0] else 0) for k in kinds]
    size = min(size, sum(room))
    counts = [0] * 34
    while sum(counts) < size:
        i = rng.randrange(len(kinds))
        if counts[kinds[i]] < room[i]:
            counts[kinds[i]] += 1
    if (sum(counts) + jokers) % 3 == 0:  # shanten needs 3n+1 or 3n+2 tiles
        jokers = jokers - 1 if jokers > 1 else jokers + 1
    return tuple(counts), melds, jokers


def test_wild_win_waits_shanten_match_the_reference() -> None:
    """is_win and wait_mask against the reference's brute force over every multiset of stand-ins
    (per suit, no copy limit), shanten against its every-target definition (and, when the hand
    is ready or one from it, against the literal exchange search); shanten -1 exactly when the
    hand wins, 0 exactly when a 3n+1 hand has a wait."""
    rng = random.Random(20261201)
    for _ in range(N_HANDS):
        counts, melds, jokers = _few_kinds_hand(rng)
        hand = Hand(counts, tuple(Meld.of(k, t) for k, t in melds))
        mt = tuple(t for _, t in melds)
        what = (hand.to_text(), jokers)
        s = mjcore.shanten(hand, shapes="standard", jokers=jokers)
        assert s == R.shanten_standard(counts, mt, jokers, naive=True), what
        if s <= 1 and sum(counts) + jokers <= 11:
            assert s == R.shanten_bfs(counts, mt, ("standard",), jokers, max_depth=1), what
        if (sum(counts) + jokers) % 3 == 2:
            win = mjcore.is_win(hand, shapes="standard", jokers=jokers)
            assert win == R.standard_win(counts, jokers), what
            assert (s == -1) == win, what
        else:
            mask = mjcore.wait_mask(hand, shapes="standard", jokers=jokers)
            assert mask == R.wait_mask(counts, mt, ("standard",), jokers), what
            assert (s == 0) == bool(mask), what


def test_bad_wild_counts_are_coded_errors() -> None:
    """Jokers that are not a count 0..8, and more wilds than any hand holds (past 17 tiles
    once complete), are a coded error from every entry point, never an answer."""
    calls = {
        "is_win": lambda j, h: mjcore.is_win(h + "5m", jokers=j),
        "win_shapes": lambda j, h: mjcore.win_shapes(h + "5m", jokers=j),
        "wait_mask": lambda j, h: mjcore.wait_mask(h, jokers=j),
        "waits": lambda j, h: mjcore.waits(h, jokers=j),
        "shanten": lambda j, h: mjcore.shanten(h, jokers=j),
        "is_win_batch": lambda j, h: mjcore.is_win_batch(
            bytes(mjcore.Hand.parse(h + "5m").counts), jokers=j),
        "wait_mask_batch": lambda j, h: mjcore.wait_mask_batch(
            bytes(mjcore.Hand.parse(h).counts), jokers=j),
        "shanten_batch": lambda j, h: mjcore.shanten_batch(
            bytes(mjcore.Hand.parse(h).counts), jokers=j),
    }
    for name, call in calls.items():
        for bad in (9, -1, True, 2.0, "2", None):
            with pytest.raises(mjcore.MahjongError) as err:
                call(bad, "1112345678999m")
            assert err.value.code == "bad_argument", (name, bad)
        # 13 tiles and 6 wilds: 19 (20 once complete) tiles, more than a hand holds
        with pytest.raises(mjcore.MahjongError) as err:
            call(6, "1112345678999m")
        assert err.value.code == "wrong_tile_count", name
        call(3, "1112345678999m")  # 16 (17) tiles: the longest hand, answered


def test_the_sample_holds_wins_that_need_a_fifth_copy() -> None:
    """The random sample above is not all hands a copy-capped search would answer too: among
    its first complete-size hands, some win only with a wild standing for a 5th (or later)
    copy of a kind. Checked literally: no multiset of stand-ins within four copies wins."""
    rng = random.Random(20261201)
    need_fifth = 0
    for _ in range(250):
        counts, melds, jokers = _few_kinds_hand(rng)
        if melds or jokers > 3 or (sum(counts) + jokers) % 3 != 2 or not R.standard_win(
                counts, jokers):
            continue
        capped = False
        for extra in itertools.combinations_with_replacement(range(34), jokers):
            c = list(counts)
            for t in extra:
                c[t] += 1
            if max(c) <= 4 and R.standard_win(c, 0):
                capped = True
                break
        need_fifth += not capped
    assert need_fifth >= 5
