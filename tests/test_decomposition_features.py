"""decomposition_features / decomposition_for / hand_profile against mjcore.decompose."""

from __future__ import annotations

import random

import mjcore
from mjcore import Hand, Meld, _core


def _word(d: mjcore.Decomposition) -> int:
    w = 0
    if d.pair < 27 and d.pair % 9 not in (0, 8):
        w |= _core.DEC_SIMPLE
    for t in d.chows:
        w |= _core.DEC_CHOW
        if t % 9 not in (0, 6):
            w |= _core.DEC_SIMPLE
    for t in d.pungs:
        if t < 27 and t % 9 not in (0, 8):
            w |= _core.DEC_SIMPLE
    return w


def _random_hand(rng: random.Random) -> list[int]:
    c = [0] * 34
    suits = rng.sample(range(4), rng.choice((1, 2, 3)))
    if rng.random() < 0.5:  # a winning shape: sets + pair
        for _ in range(4):
            s = rng.choice(suits)
            if s < 3 and rng.random() < 0.6:
                r = rng.randrange(7)
                if all(c[s * 9 + r + k] < 4 for k in range(3)):
                    for k in range(3):
                        c[s * 9 + r + k] += 1
                    continue
            t = s * 9 + rng.randrange(7 if s == 3 else 9)
            if c[t] <= 1:
                c[t] += 3
        t = rng.choice(suits) * 9 + rng.randrange(7)
        if c[t] <= 2:
            c[t] += 2
        return c
    size = rng.choice((14, 11, 8, 5, 2, 17))
    k = 0
    while k < size:
        s = rng.choice(suits)
        t = s * 9 + rng.randrange(7 if s == 3 else 9)
        if c[t] < 4:
            c[t] += 1
            k += 1
    return c


def test_features_and_first_decomposition() -> None:
    rng = random.Random(11)
    wins = 0
    for _ in range(20_000):
        c = _random_hand(rng)
        if sum(c) % 3 != 2:
            continue
        h = Hand(c)
        ds = mjcore.decompose(h)
        wins += bool(ds)
        expected = 0
        for d in ds:
            expected |= 1 << _word(d)
        assert _core.decomposition_features(h) == expected, c
        for mask in range(16):
            first = next((d for d in ds if mask >> _word(d) & 1), None)
            assert _core.decomposition_for(h, mask) == first, (c, mask)
    assert wins > 5_000


def test_hand_profile() -> None:
    rng = random.Random(5)
    for _ in range(5_000):
        c = _random_hand(rng)
        melds: list[Meld] = []
        if rng.random() < 0.3:
            t = rng.randrange(27)
            if c[t] == 0:
                melds.append(Meld("peng", (t, t, t)))
        h = Hand(c, melds)
        held = h.all_counts()
        for plus in [-1] + [t for t in range(34) if held[t] < 4][:5]:
            cc = list(c)
            hh = list(held)
            if plus >= 0:
                cc[plus] += 1
                hh[plus] += 1
            p = _core.hand_profile(h, plus)
            h2 = Hand(cc, melds)
            if sum(cc) % 3 == 2:
                assert p & 15 == _core.decomposition_features(h2)
                assert bool(p & _core.PROFILE_QIDUI) == (
                    not melds and mjcore.is_win(h2, shapes=("qidui",)))
            assert bool(p & _core.PROFILE_FOUR) == (4 in cc)
            suits = sum(1 << s for s in range(3) if any(hh[s * 9:s * 9 + 9]))
            assert (p >> _core.PROFILE_SUITS) & 7 == suits
            assert bool(p & _core.PROFILE_HONOURS) == any(hh[27:])
            assert bool(p & _core.PROFILE_TERMINAL) == any(hh[s * 9 + r] for s in range(3)
                                                           for r in (0, 8))
            assert bool(p & _core.PROFILE_ONLY258) == (
                not any(hh[t] for t in range(27) if t % 9 not in (1, 4, 7)))
            assert (p >> _core.PROFILE_KINDS4) & 63 == hh.count(4)
