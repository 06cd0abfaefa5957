"""Shanten with wild tiles reaches targets that need a kind more than four times (a wild may
stand for a fifth copy), as honours do: the win test, waits and shanten then agree."""

from __future__ import annotations

import random

import mjcore


def test_honour_targets_past_four_copies() -> None:
    assert mjcore.is_win("11112222z", shapes="standard", jokers=3)
    assert mjcore.shanten("11112222z", shapes="standard", jokers=3) == -1
    assert mjcore.mask_to_tiles(mjcore.wait_mask("111122223z", shapes="standard", jokers=4)) == [
        "3z"]
    assert mjcore.shanten("111122223z", shapes="standard", jokers=4) == 0


def test_shanten_agrees_with_win_and_waits_under_wilds() -> None:
    """On random honour-heavy hands with wilds: shanten -1 exactly when the hand wins, and 0
    exactly when a 3n+1 hand has a wait."""
    rng = random.Random(5)
    for _ in range(200):
        jokers = rng.randint(1, 4)
        size = rng.choice((14, 13, 11, 10, 8, 7)) - jokers
        kinds = rng.sample(range(34), 3) + rng.sample(range(27, 34), 2)
        tiles: list[int] = []
        while len(tiles) < size:
            t = rng.choice(kinds)
            if tiles.count(t) < 4:
                tiles.append(t)
        hand = mjcore.Hand.from_tiles(tiles)
        s = mjcore.shanten(hand, shapes="standard", jokers=jokers)
        if (size + jokers) % 3 == 2:
            assert (s == -1) == mjcore.is_win(hand, shapes="standard", jokers=jokers), hand
        else:
            assert (s == 0) == bool(mjcore.wait_mask(hand, shapes="standard", jokers=jokers)), hand
