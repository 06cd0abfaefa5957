"""Benchmark of Hangzhou scoring on hands with 财神 (wild tiles).

Run: ``.venv/bin/python bench/bench_hangzhou.py [--hands N] [--seconds S]``.
Prints hands/s for ``mjcore.rules.score`` (ruleset ``hangzhou``) on random winning hands,
most holding one to three wilds (flip mode with a random 财神, or 白板 mode):

* never seen - a loop over N distinct hands, every memo cleared first (each hand parsed,
               mapped and read for the first time);
* warm       - the same loop again (answers memoised per input);
* per call   - one hand scored again and again;
* waits      - valued_waits on the N hands less their winning tile (distinct ready hands),
               memos cleared first; then only those holding a 财神.

Not a test: nothing here fails.
"""

from __future__ import annotations

import argparse
import platform
import random
import time
from collections.abc import Callable
from typing import Any

from mjcore.rules import score, valued_waits
from mjcore.rules.hangzhou import clear_caches

SUITS = "mpsz"


def text(t: int) -> str:
    return f"{t % 9 + 1}{SUITS[t // 9]}"


def winning_hand(rng: random.Random) -> tuple[str, str, dict[str, Any], dict[str, Any]]:
    """A random winning hand as text, its winning tile, context and options."""
    while True:
        flip = rng.random() < 0.6
        wild = rng.randrange(34) if flip else 31
        counts = [0] * 34
        if rng.random() < 0.1:  # 七对
            for k in rng.sample(range(34), 7):
                counts[k] += 2
        else:
            for _ in range(4):
                if rng.random() < 0.6:
                    k = rng.randrange(27)
                    k -= max(0, k % 9 - 6)
                    for j in range(3):
                        counts[k + j] += 1
                else:
                    counts[rng.randrange(34)] += 3
            counts[rng.randrange(34)] += 2
        if max(counts) > 4:
            continue
        tiles = [t for t in range(34) for _ in range(counts[t])]
        for i in rng.sample(range(14), rng.choice((0, 1, 1, 2, 2, 3))):
            tiles[i] = wild
        if max(tiles.count(t) for t in tiles) > 4:
            continue
        ctx = {"caishen": text(wild)} if flip else {}
        return ("".join(text(t) for t in sorted(tiles)), text(rng.choice(tiles)), ctx,
                {} if flip else {"caishen_mode": "baiban"})


def rate(fn: Callable[[], int], seconds: float) -> str:
    """Calls per wall second, and per CPU second of this process (the fairer figure on a
    shared machine)."""
    n, start, cpu = 0, time.perf_counter(), time.process_time()
    while True:
        n += fn()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return f"{n / elapsed:>10,.0f} /s wall {n / (time.process_time() - cpu):>10,.0f} /s cpu"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=5000)
    ap.add_argument("--seconds", type=float, default=2.0)
    args = ap.parse_args()
    rng = random.Random(1)
    hands = [winning_hand(rng) for _ in range(args.hands)]
    print(f"python {platform.python_version()}, {args.hands} hands "
          f"({sum(1 for h in hands if 'caishen_mode' in h[3])} in 白板 mode)")

    def loop() -> int:
        for hand, tile, ctx, opts in hands:
            score(hand, win_tile=tile, self_drawn=True, context=ctx, options=opts,
                  ruleset="hangzhou")
        return len(hands)

    def cold() -> int:
        clear_caches()
        return loop()

    print(f"score never seen : {rate(cold, args.seconds)}")
    loop()
    print(f"score warm       : {rate(loop, args.seconds)}")
    hand, tile, ctx, opts = hands[0]

    def one() -> int:
        for _ in range(1000):
            score(hand, win_tile=tile, self_drawn=True, context=ctx, options=opts,
                  ruleset="hangzhou")
        return 1000

    print(f"score per call   : {rate(one, args.seconds)}")
    ready = []
    for hand, tile, ctx, opts in hands:
        i = hand.index(tile[0])  # drop one copy of the winning tile: a ready hand
        rest = hand.replace(tile, "", 1) if tile in hand else hand[:i] + hand[i + 2:]
        ready.append((rest, ctx, opts))
    held = [x for x in ready if text_holds(x[0], x[1].get("caishen", "5z"))]

    def waits_of(group: list[tuple[str, dict[str, Any], dict[str, Any]]]) -> Callable[[], int]:
        def run() -> int:
            clear_caches()
            for rest, ctx, opts in group:
                valued_waits(rest, context=ctx, options=opts, ruleset="hangzhou")
            return len(group)
        return run

    print(f"waits never seen : {rate(waits_of(ready), args.seconds)}")
    print(f"  a 财神 held ({len(held)}): {rate(waits_of(held), args.seconds)}")


def text_holds(hand: str, tile: str) -> bool:
    """Whether hand text written tile by tile (``1m2m3m``) holds ``tile``."""
    return any(hand[i:i + 2] == tile for i in range(0, len(hand), 2))


if __name__ == "__main__":
    main()
