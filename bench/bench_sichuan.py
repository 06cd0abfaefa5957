"""Benchmark of Sichuan scoring and valued waits, with the `mahjong` package as a peer.

Run: ``.venv/bin/python bench/bench_sichuan.py [--hands N] [--seconds S]``.
Prints hands/s for ``mjcore.rules.score`` and ``valued_waits`` on random Sichuan hands:

* per call   - one prepared hand scored again and again (the memoised answer);
* batch cold - a loop over N distinct prepared hands, every cache cleared first
               (each hand analysed for the first time);
* batch warm - the same loop again (answers memoised per Hand);

and, in the same run, the `mahjong` package's HandCalculator.estimate_hand_value on
comparable winning hands (riichi rules, riichi declared so every hand has a yaku: different
rules, the same kind of work: decompose, find patterns, value the hand), as a ratio.
Not a test: nothing here fails.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from collections.abc import Callable

from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig
from mahjong.tile import TilesConverter

from mjcore import Hand, Meld
from mjcore.rules import score, valued_waits
from mjcore.rules.sichuan import clear_caches


def winning_hand(rng: random.Random) -> tuple[list[int], list[Meld], int]:
    """A random two-suit Sichuan winning hand: counts, melds, winning tile."""
    while True:
        suits = rng.sample((0, 1, 2), rng.choice((1, 2, 2, 2)))
        counts = [0] * 34
        melds: list[Meld] = []
        if rng.random() < 0.08:  # 七对
            for _ in range(7):
                counts[rng.choice(suits) * 9 + rng.randrange(9)] += 2
        else:
            for _ in range(4):
                s = rng.choice(suits)
                x = rng.random()
                if x < 0.55:
                    r = rng.randrange(7)
                    for k in range(3):
                        counts[s * 9 + r + k] += 1
                elif x < 0.8 or melds and len(melds) >= 2:
                    counts[s * 9 + rng.randrange(9)] += 3
                else:
                    t = s * 9 + rng.randrange(9)
                    kind = rng.choice(("peng", "peng", "gang", "angang", "bugang"))
                    melds.append(Meld(kind, (t,) * (3 if kind == "peng" else 4)))
            counts[rng.choice(suits) * 9 + rng.randrange(9)] += 2
        held = counts[:]
        for m in melds:
            held[m.tiles[0]] += len(m.tiles)
        if max(held) <= 4:
            win = rng.choice([t for t in range(34) if counts[t]])
            return counts, melds, win


def rate(fn: Callable[[], int], seconds: float) -> float:
    """Calls per second of ``fn`` (which reports how many items it did), best of 3 runs."""
    best = 0.0
    for _ in range(3):
        done, start = 0, time.perf_counter()
        while True:
            done += fn()
            elapsed = time.perf_counter() - start
            if elapsed >= seconds / 3:
                break
        best = max(best, done / elapsed)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--seconds", type=float, default=1.5)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    raw = [winning_hand(rng) for _ in range(args.hands)]
    hands = [(Hand(c, m), w) for c, m, w in raw]
    ready = []
    for c, m, w in raw:
        c2 = c[:]
        c2[w] -= 1
        ready.append(Hand(c2, m))
    n = len(hands)

    one_hand, one_tile = hands[0]

    def score_one() -> int:
        for _ in range(1000):
            score(one_hand, win_tile=one_tile, ruleset="sichuan")
        return 1000

    def score_batch() -> int:
        for h, w in hands:
            score(h, win_tile=w, ruleset="sichuan")
        return n

    def score_cold() -> int:
        clear_caches()
        return score_batch()

    one_ready = ready[0]

    def waits_one() -> int:
        for _ in range(1000):
            valued_waits(one_ready, ruleset="sichuan")
        return 1000

    def waits_batch() -> int:
        for h in ready:
            valued_waits(h, ruleset="sichuan")
        return n

    def waits_cold() -> int:
        clear_caches()
        return waits_batch()

    # the peer: concealed riichi hands (no melds) of the same generator
    calc = HandCalculator()
    config = HandConfig(is_riichi=True)
    peer: list[tuple[list[int], int]] = []
    for c, m, w in raw:
        if m:
            continue
        tiles = TilesConverter.to_136_array(c)
        peer.append((tiles, w * 4))
    peer_n = len(peer)

    def peer_batch() -> int:
        for tiles, w in peer:
            calc.estimate_hand_value(tiles, w, config=config)
        return peer_n

    def peer_one() -> int:
        tiles, w = peer[0]
        for _ in range(100):
            calc.estimate_hand_value(tiles, w, config=config)
        return 100

    s = args.seconds
    rows: list[tuple[str, float, float | None]] = []
    peer_rate = rate(peer_batch, s)
    peer_one_rate = rate(peer_one, s)
    rows.append(("score: per call (same prepared hand)", rate(score_one, s), peer_one_rate))
    rows.append(("score: batch loop, cold (caches cleared)", rate(score_cold, s), peer_rate))
    rows.append(("score: batch loop, warm (memoised)", rate(score_batch, s), peer_rate))
    rows.append(("valued_waits: per call (same hand)", rate(waits_one, s), None))
    rows.append(("valued_waits: batch loop, cold", rate(waits_cold, s), None))
    rows.append(("valued_waits: batch loop, warm", rate(waits_batch, s), None))
    print(f"Python {platform.python_version()}, {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.1f} at the end")
    print(f"{n} random Sichuan hands (seed {args.seed}); peer: mahjong "
          f"HandCalculator.estimate_hand_value on {peer_n} concealed ones (riichi)")
    print(f"peer: {peer_rate:,.0f} hands/s batch, {peer_one_rate:,.0f} per call (same hand)")
    for label, r, p in rows:
        ratio = f"  x{r / p:,.1f} vs peer" if p else ""
        print(f"{label:<44} {r:>12,.0f} hands/s{ratio}")


if __name__ == "__main__":
    main()
