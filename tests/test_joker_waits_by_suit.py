"""The standard waits with wilds (``wait_mask(..., jokers=j)``, worked out suit by suit in
the core, skipping suits one tile cannot help) against the plain statement: a tile waits when
the hand with it added wins (``is_win`` with the same wilds), tried tile by tile. One to four
wilds (the reference cross-check covers one and two over random hands); hands near a win, where
the waits are many and the suit skipping matters."""

from __future__ import annotations

import random

import mjcore

N = 1200


def _near_win(rng: random.Random, jokers: int) -> list[int]:
    """13 - jokers natural tiles: a random winning shape less one tile and ``jokers`` more,
    now and then a tile swapped at random (the hand may wait on nothing)."""
    while True:
        counts = [0] * 34
        for _ in range(4):
            if rng.random() < 0.6:
                k = rng.randrange(27)
                k -= max(0, k % 9 - 6)
                for j in range(3):
                    counts[k + j] += 1
            else:
                counts[rng.randrange(34)] += 3
        counts[rng.randrange(34)] += 2
        tiles = [t for t in range(34) for _ in range(counts[t])]
        rng.shuffle(tiles)
        tiles = tiles[: 13 - jokers]
        if rng.random() < 0.3:
            tiles[0] = rng.randrange(34)
        if max(tiles.count(t) for t in tiles) <= 4:
            return tiles


def test_joker_waits_are_the_tiles_that_win() -> None:
    rng = random.Random(12)
    ready = 0
    for i in range(N):
        jokers = 1 + i % 4
        tiles = _near_win(rng, jokers)
        counts = [tiles.count(t) for t in range(34)]
        hand = mjcore.Hand(tuple(counts))
        want = 0
        for t in range(34):
            if counts[t] < 4:
                counts[t] += 1
                if mjcore.is_win(mjcore.Hand(tuple(counts)), shapes="standard", jokers=jokers):
                    want |= 1 << t
                counts[t] -= 1
        got = mjcore.wait_mask(hand, shapes="standard", jokers=jokers)
        assert got == want, (tiles, jokers, got, want)
        ready += want != 0
    assert ready > N // 2  # (most hands wait on something: the suit skipping is exercised)


def test_waits_leave_out_every_kind_held_four_times() -> None:
    """A kind held four times is never a wait (there is no fifth copy), though a fifth would
    complete the shape (four of it and three sets: a pung and a pair), at every position of
    the 34 (the core finds such kinds eight counts at a time, the last two alone)."""
    rng = random.Random(13)
    for k in range(34):
        for _ in range(20):
            counts = [0] * 34
            counts[k] = 4
            while sum(counts) < 13:
                s = rng.randrange(34)
                if rng.random() < 0.5 and s < 27 and s % 9 < 7:
                    run = (s, s + 1, s + 2)
                else:
                    run = (s, s, s)
                if k not in run and all(counts[t] + run.count(t) <= 4 for t in run):
                    for t in run:
                        counts[t] += 1
            got = mjcore.wait_mask(mjcore.Hand(tuple(counts)), shapes="standard")
            want = 0
            for t in range(34):
                if counts[t] < 4:
                    counts[t] += 1
                    if mjcore.is_win(mjcore.Hand(tuple(counts)), shapes="standard"):
                        want |= 1 << t
                    counts[t] -= 1
            assert not got >> k & 1 and got == want, (counts, k)
