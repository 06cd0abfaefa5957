"""Benchmark of 16-tile play: the core's win test, waits and shanten on 17-tile hands beside
14-tile ones, and Taiwan scoring.

Run: ``.venv/bin/python bench/bench_taiwan.py [--hands N] [--seconds S]``.

Figures are CPU µs per call (process time, best of three runs).

* core: ``mjcore.is_win`` on random 14- and 17-tile hands (drawn from a shuffled wall),
  ``mjcore.waits`` and ``mjcore.shanten`` on random 13- and 16-tile ones: µs per call and per
  tile, and the 17/14 ratio;
* score: ``mjcore.rules.score(ruleset="taiwan")`` on random winning 17-tile hands with a
  context, per call on never-seen hands (every memo cleared before the loop) and warm
  (answered from the memo), and ``valued_waits`` on their 16-tile hands: on the compiled
  path (the default) and on the Python path (``MJ_PURE_SCORING=1``'s, its twin) in the same
  run, and the compiled core alone (``CompiledTable.score`` in a compiled context); the cold
  rows of ``score`` and ``valued_waits`` again with contexts drawn at random (winds, dealer,
  streak, discarder, flowers: what a server meets, thousands of distinct contexts). No other
  library scores 16-tile Taiwan hands that we know of: the peers in the same run are the
  Python twin and, for the core calls, the same calls on 14-tile hands.
Not a test: nothing here fails.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time
from collections.abc import Callable
from typing import Any

import mjcore
from mjcore import Hand, Meld
from mjcore.rules import resolve_options, score, valued_waits
from mjcore.rules.common import compiled
from mjcore.rules.common.inputs import minus_tile
from mjcore.rules.taiwan import clear_caches
from mjcore.rules.taiwan import scoring as tw

BASE = {"seat_wind": "2z", "round_wind": "1z", "dealer": "left"}
DISCARD = {**BASE, "discarder": "across"}


def random_hand(rng: random.Random, size: int) -> Hand:
    wall = [t for t in range(34) for _ in range(4)]
    return Hand.from_tiles(rng.sample(wall, size))


def winning_hand(rng: random.Random, sets: int = 5) -> tuple[Hand, int]:
    """A random winning hand (``sets`` sets and a pair, some melds: 17 tiles for five) and its
    winning tile."""
    while True:
        suits = rng.sample(range(4), rng.randint(1, 3))
        kinds = [t for t in range(34) if (t // 9 if t < 27 else 3) in suits]
        counts = [0] * 34
        melds: list[Meld] = []
        for _ in range(sets):
            t = rng.choice(kinds)
            x = rng.random()
            if x < 0.5 and t < 27:
                t = t - t % 9 + rng.randrange(7)
                if rng.random() < 0.2:
                    melds.append(Meld("chi", (t, t + 1, t + 2)))
                else:
                    for k in range(3):
                        counts[t + k] += 1
            elif x < 0.65:
                kind = rng.choice(("peng", "gang", "angang", "bugang"))
                melds.append(Meld(kind, (t,) * (3 if kind == "peng" else 4)))
            else:
                counts[t] += 3
        counts[rng.choice(kinds)] += 2
        held = counts[:]
        for m in melds:
            for t in m.tiles:
                held[t] += 1
        if max(held) <= 4:
            return Hand(counts, melds), rng.choice([t for t in range(34) if counts[t]])


def per_call(fn: Callable[[], int], seconds: float) -> float:
    """CPU µs per item of ``fn`` (which reports how many items it did), best of 3 runs. CPU
    time (``process_time``), not wall time: the machine is shared, and a loaded one would
    otherwise charge other processes' time to these calls."""
    best = float("inf")
    for _ in range(3):
        done, start = 0, time.process_time()
        while True:
            done += fn()
            elapsed = time.process_time() - start
            if elapsed >= seconds / 3:
                break
        best = min(best, elapsed / done * 1e6)
    return best


def loop(items: list[Any], call: Callable[[Any], object]) -> Callable[[], int]:
    def run() -> int:
        for x in items:
            call(x)
        return len(items)
    return run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=5_000)
    ap.add_argument("--seconds", type=float, default=1.5)
    ap.add_argument("--seed", type=int, default=16)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    s, n = args.seconds, args.hands
    print(f"Python {platform.python_version()}, {os.cpu_count()} cores, seed {args.seed}, "
          f"{n} hands a loop")
    print(f"{'core call':<30}{'14-tile µs':>12}{'µs/tile':>9}{'17-tile µs':>12}{'µs/tile':>9}"
          f"{'17/14':>7}")
    for name, fn, sizes in (("is_win (14 / 17 tiles)", mjcore.is_win, (14, 17)),
                            ("waits (13 / 16 tiles)", mjcore.waits, (13, 16)),
                            ("shanten (13 / 16 tiles)", mjcore.shanten, (13, 16))):
        us = []
        for size in sizes:
            hands = [random_hand(rng, size) for _ in range(n)]
            us.append(per_call(loop(hands, fn), s))
        print(f"{name:<30}{us[0]:>12.2f}{us[0] / sizes[0]:>9.3f}{us[1]:>12.2f}"
              f"{us[1] / sizes[1]:>9.3f}{us[1] / us[0]:>7.2f}")
    # the same on winning hands and on the ready hands they come from (one tile less)
    won = {sets: [winning_hand(rng, sets) for _ in range(n)] for sets in (4, 5)}
    ready = {sets: [minus_tile(h, w) for h, w in won[sets]] for sets in (4, 5)}
    rows: list[tuple[str, Callable[..., object], Callable[[int], list[Hand]]]] = [
        ("is_win, winning hands", mjcore.is_win, lambda k: [h for h, _ in won[k]]),
        ("waits, ready hands", mjcore.waits, lambda k: ready[k]),
        ("shanten, ready hands", mjcore.shanten, lambda k: ready[k])]
    for name, fn, pick in rows:
        us = [per_call(loop(pick(k), fn), s) for k in (4, 5)]
        size = (14, 17) if name.startswith("is_win") else (13, 16)
        print(f"{name:<30}{us[0]:>12.2f}{us[0] / size[0]:>9.3f}{us[1]:>12.2f}"
              f"{us[1] / size[1]:>9.3f}{us[1] / us[0]:>7.2f}")

    wins = [winning_hand(rng) for _ in range(n)]
    calls = [(h, w, i % 2 == 0) for i, (h, w) in enumerate(wins)]

    def one(x: tuple[Hand, int, bool]) -> object:
        h, w, sd = x
        return score(h, win_tile=w, self_drawn=sd, context=BASE if sd else DISCARD,
                     ruleset="taiwan")

    def cold() -> int:
        clear_caches()
        return loop(calls, one)()

    # the same hands in the contexts a server passes: winds, dealer, dealer streak, the
    # discarder and the winner's flowers drawn at random (thousands of distinct contexts)
    winds, seats = ("1z", "2z", "3z", "4z"), ("left", "across", "right")
    drawn = []
    for h, w, sd in calls:
        ctx: dict[str, object] = {"seat_wind": rng.choice(winds), "round_wind": rng.choice(winds),
                                  "dealer": rng.choice(("self", *seats))}
        if rng.random() < 0.5:
            ctx["dealer_streak"] = rng.randrange(3)
        if not sd:
            ctx["discarder"] = rng.choice(seats)
        flowers = "".join(str(k) for k in range(1, 9) if rng.random() < 0.15)
        if flowers:
            ctx["flowers"] = flowers + "f"
        drawn.append((h, w, sd, ctx))

    def one_drawn(x: tuple[Hand, int, bool, dict[str, object]]) -> object:
        h, w, sd, ctx = x
        return score(h, win_tile=w, self_drawn=sd, context=ctx, ruleset="taiwan")

    def cold_drawn() -> int:
        clear_caches()
        return loop(drawn, one_drawn)()

    ready = []
    for h, w in wins:
        c = list(h.counts)
        c[w] -= 1
        ready.append(Hand(c, h.melds))

    def waits_cold() -> int:
        clear_caches()
        return loop(ready, lambda h: valued_waits(h, context=BASE, ruleset="taiwan"))()

    # the same ready hands in the drawn contexts (a waits question names no discarder)
    ready_drawn = [(h, {k: v for k, v in d[3].items() if k != "discarder"})
                   for h, d in zip(ready, drawn, strict=True)]

    def waits_cold_drawn() -> int:
        clear_caches()
        return loop(ready_drawn, lambda x: valued_waits(x[0], context=x[1], ruleset="taiwan"))()

    o = resolve_options("taiwan")
    table = tw._TABLES.get(o) or tw._compiled_table(o)
    ready17 = Hand.parse("123m456m789m234p567p99s")
    contexts = {sd: tw._compiled_context(table, tw.analyse(
        ready17, 0, sd, BASE if sd else DISCARD, o)[2], o) for sd in (False, True)}

    def core() -> int:
        for h, w, sd in calls:
            table.score(h, w, contexts[sd])
        return len(calls)

    rows2: list[tuple[str, Callable[[], int], bool]] = [
        ("score, never-seen (cold)", cold, False),
        ("score, cold, contexts at random", cold_drawn, False),
        ("score, memoised (warm)", loop(calls, one), False),
        ("score, compiled core alone", core, False),
        ("valued_waits, never-seen", waits_cold, False),
        ("valued_waits, contexts random", waits_cold_drawn, False)]
    print(f"{'taiwan, ' + str(n) + ' hands':<30}{'compiled/s':>12}{'µs':>7}{'Python/s':>12}"
          f"{'µs':>8}{'ratio':>7}")
    for name, fn, _ in rows2:
        rate = 1e6 / per_call(fn, s)
        if fn is core:
            print(f"{name:<30}{rate:>12,.0f}{1e6 / rate:>7.2f}")
            continue
        compiled.PURE = True
        try:
            twin = 1e6 / per_call(fn, s)
        finally:
            compiled.PURE = False
        print(f"{name:<30}{rate:>12,.0f}{1e6 / rate:>7.2f}{twin:>12,.0f}{1e6 / twin:>8.1f}"
              f"{rate / twin:>6.1f}×")
    print("(compiled path's figure vs the Python path's on the same hands, same run; target: "
          "500,000 never-seen hands a second)")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
