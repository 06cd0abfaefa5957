"""Benchmark of Wuhan scoring and valued waits.

Run: ``.venv/bin/python bench/bench_wuhan.py [--hands N] [--seconds S]``.
Prints hands/s for ``mjcore.rules.score`` (ruleset ``wuhan``) on random opened winning hands,
a third of them holding one or two 赖子:

* per call   - one prepared hand scored again and again (the memoised answer);
* batch cold - a loop over N distinct prepared hands, every cache cleared first (each hand
               never seen before: read, every 赖子 placed, valued, paid);
* batch warm - the same loop again (answers memoised per input);
* contexts at random - the cold loop with the contexts a server passes, drawn at random: the
               winner's seat, the discarder and each claimed meld's source (``meld_from``),
               then also the other seats' melds (``payer_melds``, for their doublings);

and the same for ``valued_waits`` on the hands less their winning tile (cold also in a
context naming two other seats' melds).
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

from mjcore import Hand, MahjongError, Meld
from mjcore.rules import score, valued_waits
from mjcore.rules.wuhan import clear_caches

LAIZI = 17  # 9p
CONTEXT = {"laizi": "9p"}


def winning_hand(rng: random.Random) -> tuple[Hand, int, bool, dict[str, Any]]:
    """A random opened Wuhan win: sets (some claimed) and a 2/5/8 pair, maybe a 赖子 standing
    in for a tile and a 红中 laid aside."""
    plain = [t for t in range(33) if t != LAIZI]
    while True:
        counts = [0] * 34
        melds: list[Meld] = []
        for i in range(4):
            if rng.random() < 0.55:
                s, r = rng.randrange(3), rng.randrange(7)
                run = tuple(s * 9 + r + k for k in range(3))
                if LAIZI in run:
                    continue
                if i == 0 or rng.random() < 0.25:
                    melds.append(Meld("chi", run))
                else:
                    for t in run:
                        counts[t] += 1
            else:
                t = rng.choice(plain)
                if i == 0 or rng.random() < 0.25:
                    kind = rng.choice(("peng", "peng", "gang", "bugang"))
                    melds.append(Meld(kind, (t,) * (3 if kind == "peng" else 4)))
                else:
                    counts[t] += 3
        if len([m for m in melds if m.kind in ("chi", "peng", "gang", "bugang")]) + sum(
                counts) // 3 != 4:
            continue
        counts[rng.choice([1, 4, 7, 10, 13, 19, 22, 25])] += 2
        for _ in range(rng.choice((0, 0, 0, 0, 1, 2))):
            t = rng.choice([x for x in range(34) if counts[x] and x != LAIZI])
            counts[t] -= 1
            counts[LAIZI] += 1
        if rng.random() < 0.2:
            melds.append(Meld("pizigang", (33,)))
        held = counts[:]
        for m in melds:
            for t in m.tiles:
                held[t] += 1
        if max(held) > 4:
            continue
        hand = Hand(tuple(counts), tuple(melds))
        tile = rng.choice([t for t in range(34) if counts[t]])
        self_drawn = rng.random() < 0.5
        ctx = dict(CONTEXT) if self_drawn else {**CONTEXT, "discarder": "left"}
        try:
            score(hand, win_tile=tile, self_drawn=self_drawn, context=ctx, ruleset="wuhan")
        except MahjongError:
            continue
        return hand, tile, self_drawn, ctx


SEATS = ("left", "across", "right")
PAYER_MELDS = ("peng:111s", "peng:555m", "chi:234p", "angang:2222p", "gang:7777s", "peng:333z",
               "chi:678m", "gang:4444m peng:666p", "")


def drawn_context(rng: random.Random, hand: Hand, self_drawn: bool,
                  payers: bool) -> dict[str, Any]:
    """A context as a server passes it: the 赖子, the winner's seat, the discarder, where each
    claimed meld came from and, with ``payers``, some other seats' melds."""
    ctx: dict[str, Any] = {"laizi": "9p", "winner": rng.randrange(4)}
    if not self_drawn:
        ctx["discarder"] = rng.choice(SEATS)
    sets = [m for m in hand.melds if m.kind != "pizigang"]
    if sets:
        ctx["meld_from"] = [None if m.kind == "angang" else "left" if m.kind == "chi" else
                            rng.choice(SEATS) for m in sets]
    if payers:
        ctx["payer_melds"] = {s: rng.choice(PAYER_MELDS) for s in SEATS if rng.random() < 0.5}
    return ctx


def rate(fn: Callable[[], int], seconds: float) -> str:
    """Items per second of ``fn`` (which reports how many it did), best of 3 runs, by the wall
    clock and by this process's CPU time (the machine may be shared)."""
    best_wall = best_cpu = 0.0
    for _ in range(3):
        done, start, cpu = 0, time.perf_counter(), time.process_time()
        while True:
            done += fn()
            elapsed = time.perf_counter() - start
            if elapsed >= seconds / 3:
                break
        best_wall = max(best_wall, done / elapsed)
        best_cpu = max(best_cpu, done / max(time.process_time() - cpu, 1e-9))
    return f"{best_wall:10,.0f} hands/s wall {best_cpu:10,.0f} hands/s cpu"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=5000)
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    rng = random.Random(7)
    hands = [winning_hand(rng) for _ in range(args.hands)]
    wild = sum(1 for h, *_ in hands if h.counts[LAIZI])
    ready = []
    for h, t, _, _ in hands:
        c = list(h.counts)
        c[t] -= 1
        ready.append(Hand(tuple(c), h.melds))

    def one() -> int:
        h, t, sd, ctx = hands[0]
        score(h, win_tile=t, self_drawn=sd, context=ctx, ruleset="wuhan")
        return 1

    def batch() -> int:
        for h, t, sd, ctx in hands:
            score(h, win_tile=t, self_drawn=sd, context=ctx, ruleset="wuhan")
        return len(hands)

    def cold() -> int:
        clear_caches()
        return batch()

    plain = [x for x in hands if not x[0].counts[LAIZI]]
    wilds = [x for x in hands if x[0].counts[LAIZI]]

    def cold_of(group: list[tuple[Hand, int, bool, dict[str, Any]]]) -> Callable[[], int]:
        def run() -> int:
            clear_caches()
            for h, t, sd, ctx in group:
                score(h, win_tile=t, self_drawn=sd, context=ctx, ruleset="wuhan")
            return len(group)
        return run

    def drawn(payers: bool) -> list[tuple[Hand, int, bool, dict[str, Any]]]:
        out = []
        for h, t, sd, _ in hands:
            ctx = drawn_context(rng, h, sd, payers)
            try:  # (a payer's melds may hold a fifth copy of a tile of the hand)
                score(h, win_tile=t, self_drawn=sd, context=ctx, ruleset="wuhan")
            except MahjongError:
                continue
            out.append((h, t, sd, ctx))
        return out

    drawn_sources, drawn_payers = drawn(False), drawn(True)

    def waits_batch() -> int:
        for h in ready:
            valued_waits(h, context=CONTEXT, ruleset="wuhan")
        return len(ready)

    def waits_cold() -> int:
        clear_caches()
        return waits_batch()

    ready_wild = [h for h in ready if h.counts[LAIZI]]

    # the other seats' melds named (their doublings, their tiles out of the wall): the
    # ready hands that make no fifth copy with them
    payers_ctx = {**CONTEXT, "payer_melds": {"left": "peng:111s", "right": "chi:234p gang:7777s"}}
    ready_payers = []
    for h in ready:
        try:
            valued_waits(h, context=payers_ctx, ruleset="wuhan")
        except MahjongError:
            continue
        ready_payers.append(h)

    def waits_cold_payers() -> int:
        clear_caches()
        for h in ready_payers:
            valued_waits(h, context=payers_ctx, ruleset="wuhan")
        return len(ready_payers)

    def waits_cold_wild() -> int:
        clear_caches()
        for h in ready_wild:
            valued_waits(h, context=CONTEXT, ruleset="wuhan")
        return len(ready_wild)

    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cpus; "
          f"{len(hands)} hands, {wild} holding a 赖子")
    print(f"score per call (memoised)   {rate(one, args.seconds)}")
    print(f"score batch cold (new)      {rate(cold, args.seconds)}")
    print(f"  cold, no 赖子 held         {rate(cold_of(plain), args.seconds)}")
    print(f"  cold, 赖子 held            {rate(cold_of(wilds), args.seconds)}")
    print(f"score batch warm            {rate(batch, args.seconds)}")
    print(f"score cold, contexts at random (winner, discarder, meld_from)\n"
          f"                            {rate(cold_of(drawn_sources), args.seconds)}")
    print(f"  and payer_melds ({len(drawn_payers)} hands)\n"
          f"                            {rate(cold_of(drawn_payers), args.seconds)}")
    print(f"valued_waits batch cold     {rate(waits_cold, args.seconds)}")
    print(f"  cold, 赖子 held            {rate(waits_cold_wild, args.seconds)}")
    print(f"  cold, payer_melds named ({len(ready_payers)} hands)\n"
          f"                            {rate(waits_cold_payers, args.seconds)}")
    print(f"valued_waits batch warm     {rate(waits_batch, args.seconds)}")


if __name__ == "__main__":
    main()
