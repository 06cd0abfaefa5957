"""The fast Sichuan scorer agrees with a slow, obviously-written one (written from §4 of the
rules text, with its own decomposition search) on thousands of random winning hands."""

from __future__ import annotations

import random
from typing import Any

from sichuan_api import score
from sichuan_sim import winning_hand

from mjcore import Hand, MahjongError


def sets_of(counts: list[int]) -> list[list[tuple[str, int]]]:
    """Every way to split ``counts`` into sets (('chow', start) or ('pung', tile))."""
    i = next((k for k, c in enumerate(counts) if c), None)
    if i is None:
        return [[]]
    out = []
    if counts[i] >= 3:
        counts[i] -= 3
        out += [[("pung", i), *rest] for rest in sets_of(counts)]
        counts[i] += 3
    if i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        for k in range(3):
            counts[i + k] -= 1
        out += [[("chow", i), *rest] for rest in sets_of(counts)]
        for k in range(3):
            counts[i + k] += 1
    return out


def reference_fan(hand: Hand, opts: dict[str, Any]) -> int:
    """Total fan before the cap, from the definitions of §4.1/§4.2 (discard win)."""
    held = list(hand.all_counts())
    suits = {t // 9 for t in range(34) if held[t]}
    qing = len(suits) == 1
    gen = sum(1 for c in held if c == 4)
    readings = []  # (pattern fan, 根 absorbed)
    meld_sets = [("pung", m.tiles[0]) for m in hand.melds]
    counts = list(hand.counts)
    for pair in range(27):
        if counts[pair] >= 2:
            counts[pair] -= 2
            for sets in sets_of(counts):
                all_sets = sets + meld_sets
                pung = all(k == "pung" for k, _ in all_sets)
                yj = pair % 9 in (0, 8) and all(
                    (t % 9 in (0, 8)) if k == "pung" else (t % 9 in (0, 6)) for k, t in all_sets)
                j258 = pung and all(held[t] == 0 for t in range(27) if t % 9 not in (1, 4, 7))
                cands = [0]
                if pung:
                    cands.append(1)
                if qing:
                    cands.append(2)
                if yj:
                    cands.append(2)
                if qing and pung:
                    cands.append(3)
                if j258:
                    cands.append(3)
                if qing and yj:
                    cands.append(4)
                readings += [(f, 0) for f in cands]
            counts[pair] += 2
    if not hand.melds and all(c % 2 == 0 for c in counts) and sum(counts) == 14:
        long = 4 in counts
        readings.append((2, 0))
        if qing:
            readings.append((4, 0))
        if long:
            readings.append((opts.get("longqidui_fan", 4), 1))
        if long and qing:
            readings.append((5, 1))
    total = max(f - absorbed for f, absorbed in readings) + gen
    if opts.get("jingoudiao") and len(hand.melds) == 4:
        total += 1
    if opts.get("menqing") and all(m.kind == "angang" for m in hand.melds):
        total += 1
    if opts.get("zhongzhang") and not any(held[t] for t in range(27) if t % 9 in (0, 8)):
        total += 1
    return total


def test_fast_scorer_matches_reference() -> None:
    rng = random.Random(11)
    checked = 0
    for _ in range(4000):
        counts, melds, win = winning_hand(rng)
        hand = Hand(counts, melds)
        opts = {k: rng.random() < 0.3 for k in ("jingoudiao", "menqing", "zhongzhang")}
        opts["longqidui_fan"] = rng.choice((3, 4))
        cap = rng.choice((None, None, 3, 5))
        try:
            r = score(hand, win_tile=win, options={**opts, "cap_fan": cap})
        except MahjongError as e:
            assert e.code == "not_a_win"
            assert len({t // 9 for t in range(27) if hand.all_counts()[t]}) == 3
            continue
        expected = reference_fan(hand, opts)
        assert r.fan_uncapped == expected, (hand, opts, r)
        assert r.fan == (expected if cap is None else min(cap, expected))
        assert r.multiplier == 2 ** r.fan
        assert sum(p.fan for p in r.patterns) == r.fan_uncapped
        checked += 1
    assert checked > 2000
