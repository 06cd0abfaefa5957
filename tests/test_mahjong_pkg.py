"""The core against the PyPI ``mahjong`` package (an independent oracle, test-only dependency)
on what both define the same way:

* win test: four sets and a pair, seven *distinct* pairs (the package does not count four
  identical tiles as two pairs: that is the core's ``qidui_distinct``), thirteen orphans;
* waits: tiles that complete the hand (the package has no four-copy rule for waits, so the
  oracle side drops tiles held four times, as the contract says);
* shanten: regular, seven pairs (distinct), thirteen orphans and their minimum; 13/14 tiles.

Hands come from ``reference.random_hand`` (wall draws, one/two-suit hands, built and special
hands). Several thousand of each; ``MJ_PKG_N`` overrides.
"""

from __future__ import annotations

import os
import random

import pytest
import reference as R

import mjcore
from mjcore import Hand, Meld

mahjong_agari = pytest.importorskip("mahjong.agari")
mahjong_shanten = pytest.importorskip("mahjong.shanten")
Agari = mahjong_agari.Agari
Shanten = mahjong_shanten.Shanten

N = int(os.environ.get("MJ_PKG_N", "20000"))
SAME = ("standard", "qidui_distinct", "shisanyao")  # the package's three shapes


def _hands(seed: int, sizes: tuple[int, ...], melds: bool, n: int = N) -> list[R.RandomHand]:
    rng = random.Random(seed)
    return [R.random_hand(rng, rng.choice(sizes), 0, melds_ok=melds) for _ in range(n)]


def _core(h: R.RandomHand) -> Hand:
    return Hand(h.counts, tuple(Meld.of(k, t) for k, t in h.melds))


def _fail(what: str, bad: list[str]) -> None:
    if bad:
        pytest.fail(f"{what}: {len(bad)} disagreements, e.g.\n  " + "\n  ".join(bad[:10]))


def test_win_test_agrees() -> None:
    bad: list[str] = []
    wins = 0
    for h in _hands(1, (14,), melds=False):
        tiles = list(h.counts)
        want = bool(Agari.is_agari(tiles))
        ch = _core(h)
        got = mjcore.is_win(ch, shapes=SAME)
        wins += want
        if got != want:
            bad.append(f"{ch.to_text()}: core {got} mahjong {want}")
        if max(tiles) < 4:  # without four identical tiles the default qidui is the same shape
            got2 = mjcore.is_win(ch, shapes=("standard", "qidui", "shisanyao"))
            if got2 != want:
                bad.append(f"{ch.to_text()} (qidui): core {got2} mahjong {want}")
    _fail("win test", bad)
    assert wins > N // 20


def test_win_test_with_melds_agrees() -> None:
    """The package subtracts declared melds and checks the concealed rest."""
    bad: list[str] = []
    checked = 0
    for h in _hands(2, (14, 14, 17), melds=True):
        if not h.melds:
            continue
        if sum(h.counts) > 14:
            continue
        checked += 1
        all34 = R.all_counts(h.counts, h.meld_tiles)
        want = bool(Agari.is_agari(all34, [list(t) for t in h.meld_tiles]))
        ch = _core(h)
        got = mjcore.is_win(ch, shapes=("standard",))
        if got != want:
            bad.append(f"{ch.to_text()}: core {got} mahjong {want}")
    _fail("win test with melds", bad)
    assert checked > N // 10


def test_waits_agree() -> None:
    bad: list[str] = []
    ready = 0
    for h in _hands(3, (13,), melds=True, n=N // 2):
        ch = _core(h)
        held = ch.all_counts()
        concealed_all = list(h.counts)
        want = 0
        for t in range(34):
            if held[t] >= 4:
                continue  # contract: a tile held four times (hand + melds) is never a wait
            concealed_all[t] += 1
            if h.melds:
                # the package subtracts the melds; a concealed part of at most 11 tiles can
                # only be four sets and a pair, as in the core's standard shape
                ok = Agari.is_agari(R.all_counts(concealed_all, h.meld_tiles),
                                    [list(x) for x in h.meld_tiles])
            else:
                ok = Agari.is_agari(concealed_all)
            if ok:
                want |= 1 << t
            concealed_all[t] -= 1
        shapes = ("standard",) if h.melds else SAME
        got = mjcore.wait_mask(ch, shapes=shapes)
        ready += want != 0
        if got != want:
            bad.append(f"{ch.to_text()}: core {mjcore.mask_to_tiles(got)} "
                       f"mahjong {mjcore.mask_to_tiles(want)}")
    _fail("waits", bad)
    assert ready > N // 40


@pytest.mark.parametrize("size", [13, 14])
def test_shanten_agrees(size: int) -> None:
    bad: list[str] = []
    for h in _hands(4 + size, (size,), melds=False):
        tiles = list(h.counts)
        ch = _core(h)
        pairs = [
            ("standard", Shanten.calculate_shanten_for_regular_hand(tiles)),
            ("qidui_distinct", Shanten.calculate_shanten_for_chiitoitsu_hand(tiles)),
            ("shisanyao", Shanten.calculate_shanten_for_kokushi_hand(tiles)),
        ]
        for shape, want in pairs:
            got = mjcore.shanten(ch, shapes=(shape,))
            if got != want:
                bad.append(f"{ch.to_text()} {shape}: core {got} mahjong {want}")
        want_all = Shanten.calculate_shanten(tiles)
        got_all = mjcore.shanten(ch, shapes=SAME)
        if got_all != want_all:
            bad.append(f"{ch.to_text()} all: core {got_all} mahjong {want_all}")
    _fail(f"shanten ({size} tiles)", bad)


def test_shanten_agrees_for_smaller_concealed_parts() -> None:
    """Regular shanten of 1 to 11 concealed tiles (as after declaring melds; no melds are given
    to either side, so no declared copy limits the targets)."""
    bad: list[str] = []
    rng = random.Random(9)
    for _ in range(N // 2):
        n = rng.choice([1, 2, 4, 5, 7, 8, 10, 11])
        h = R.random_hand(rng, n, 0, melds_ok=False)
        tiles = list(h.counts)
        want = Shanten.calculate_shanten_for_regular_hand(tiles)
        got = mjcore.shanten(_core(h), shapes=("standard",))
        if got != want:
            bad.append(f"{_core(h).to_text()}: core {got} mahjong {want}")
    _fail("shanten of small hands", bad)
