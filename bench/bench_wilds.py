"""Benchmark of wild tiles: the core's win test and waits with wilds, and Hangzhou / Wuhan
scoring of hands holding wilds, each beside a peer measured in the same run.

Run: ``make bench`` (or ``.venv/bin/python bench/bench_wilds.py [--seconds S] [--hands N]``).
Prints hands/s (per CPU second of this process: the machine is shared) for mjcore, the peer
and the ratio. Not a test: nothing here fails.

The peers. No library on PyPI answers questions with wild tiles, so the peer is what a
program would do with one that does not know them:
* win test, waits: the ``mahjong`` package's ``Agari.is_agari`` tried over the substitutions
  of the wilds - every multiset of kinds among those that can matter (the kinds held and
  their suit neighbours within two, plus one kind nothing holds, for a set or pair of wilds
  alone). The run counts the hands the peer and mjcore agree on: they differ only where the
  rules do (riichi's 七对 never takes four of a kind as two pairs; mjcore's ``qidui`` does).
* score: the ``mahjong`` package's ``HandCalculator.estimate_hand_value`` (riichi scoring of
  a concealed hand) on the same hands with each wild replaced by what it stands for in one
  reading: a pure-Python scorer of 14-tile hands, not the same rules; it shows the scale.

Hands: 14 tiles (13 for waits) built from random sets and a pair, or drawn at random, with
one to four tiles turned into wilds (the core takes the naturals and the number of wilds).
"Never seen": every memo of the rule set is cleared before each pass over the sample.
"""

from __future__ import annotations

import argparse
import itertools
import platform
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from bench_hangzhou import winning_hand as hangzhou_hand
from bench_wuhan import winning_hand as wuhan_hand
from mahjong.agari import Agari
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig
from mahjong.tile import TilesConverter

import mjcore
from mjcore import Hand
from mjcore.rules import hangzhou, score, wuhan
from mjcore.rules.common.wilds import wild_readings

Counts = list[int]


def wild_hand(rng: random.Random, size: int) -> tuple[Counts, int]:
    """(natural counts, wilds): a complete hand (less one tile for 13) or random draws."""
    while True:
        c = [0] * 34
        if rng.random() < 0.5:
            for _ in range(4):
                if rng.random() < 0.5:
                    c[rng.randrange(34)] += 3
                else:
                    s, r = rng.randrange(3), rng.randrange(7)
                    for k in range(3):
                        c[s * 9 + r + k] += 1
            c[rng.randrange(34)] += 2
        else:
            for t in rng.sample([t for t in range(34) for _ in range(4)], 14):
                c[t] += 1
        if max(c) > 4:
            continue
        tiles = [t for t in range(34) for _ in range(c[t])]
        rng.shuffle(tiles)
        wilds = rng.randint(1, 4)
        naturals = tiles[wilds + (14 - size):]
        out = [0] * 34
        for t in naturals:
            out[t] += 1
        return out, wilds


def candidates(c: Counts) -> list[int]:
    """Kinds a wild of ``c`` may usefully stand for (the peer's search space)."""
    kinds = set()
    for t in range(34):
        if c[t]:
            kinds.add(t)
            if t < 27:
                kinds.update(k for k in range(t - 2, t + 3) if k // 9 == t // 9 and 0 <= k < 27)
    kinds.add(next(t for t in range(34) if not c[t] and t not in kinds))
    return sorted(kinds)


def peer_win(agari: Agari, c: Counts, wilds: int) -> bool:
    kinds = candidates(c)
    for extra in itertools.combinations_with_replacement(kinds, wilds):
        x = list(c)
        for t in extra:
            x[t] += 1
        if agari.is_agari(x):
            return True
    return False


def peer_waits(agari: Agari, c: Counts, wilds: int) -> int:
    mask = 0
    for t in range(34):
        if c[t] < 4:
            c[t] += 1
            if peer_win(agari, c, wilds):
                mask |= 1 << t
            c[t] -= 1
    return mask


def cpu_rate(fn: Callable[[], int], seconds: float) -> float:
    """Items per CPU second of this process, repeating ``fn`` (returns items done)."""
    n, start, cpu = 0, time.perf_counter(), time.process_time()
    while True:
        n += fn()
        if time.perf_counter() - start >= seconds:
            return n / (time.process_time() - cpu)


def over(fn: Callable[[Any], object], items: Sequence[Any]) -> Callable[[], int]:
    def run() -> int:
        for x in items:
            fn(x)
        return len(items)
    return run


def line(name: str, ours: float, peer: float | None, target: float | None = None) -> None:
    ratio = f"{ours / peer:9.1f}x" if peer else f"{'-':>10}"
    peer_s = f"{peer:>14,.0f}" if peer else f"{'-':>14}"
    tgt = f"   target {target:,.0f}" if target else ""
    print(f"{name:<40}{ours:>14,.0f}{peer_s}{ratio}{tgt}")


def riichi_peer(raw: list[tuple[Hand, int, int]]) -> Callable[[], int]:
    """The score peer on the hands given as (hand, winning tile, wild kind): each wild
    replaced by its stand-in in the hand's first reading; hands with melds, or whose
    replacement makes a fifth copy, left out."""
    calc, config = HandCalculator(), HandConfig(is_riichi=True)
    peer: list[tuple[list[int], int]] = []
    for hand, tile, wild in raw:
        if hand.melds:
            continue
        found = wild_readings(hand, tile, wild, ("standard",))
        if not found:
            continue
        c = list(hand.counts)
        for _, k in found[0].wilds:
            c[wild] -= 1
            c[k] += 1
        if max(c) > 4 or not c[tile]:
            continue
        peer.append((TilesConverter.to_136_array(c), tile * 4 + c[tile] - 1))

    def run() -> int:
        for tiles, w in peer:
            calc.estimate_hand_value(tiles, w, config=config)
        return len(peer)
    return run


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    ap.add_argument("--hands", type=int, default=5000)
    args = ap.parse_args()
    s = args.seconds
    rng = random.Random(20261201)
    agari = Agari()
    print(f"python {platform.python_version()}, {args.hands} hands a sample, 1-4 wilds each; "
          "rates per CPU second")
    print(f"{'operation (hands/s)':<40}{'mjcore':>14}{'peer':>14}{'ratio':>10}")

    win = [wild_hand(rng, 14) for _ in range(args.hands)]
    wins = [(Hand(tuple(c)), j) for c, j in win]
    few = win[:300]  # the peer is slow: a smaller sample
    agree = sum(mjcore.is_win(Hand(tuple(c)), jokers=j, shapes="standard") == peer_win(agari, c, j)
                for c, j in few)
    print(f"win test: {sum(mjcore.is_win(h, jokers=j) for h, j in wins)} of {len(wins)} win; "
          f"peer agrees on {agree} of {len(few)}")
    line("is_win(hand, jokers=j) per call",
         cpu_rate(over(lambda x: mjcore.is_win(x[0], jokers=x[1]), wins), s),
         cpu_rate(over(lambda x: peer_win(agari, x[0], x[1]), few), s), 2e6)

    wait = [wild_hand(rng, 13) for _ in range(args.hands)]
    waits = [(Hand(tuple(c)), j) for c, j in wait]
    few = wait[:40]
    agree = sum(mjcore.wait_mask(Hand(tuple(c)), jokers=j, shapes="standard")
                == peer_waits(agari, c, j) for c, j in few)
    print(f"waits: {sum(bool(mjcore.wait_mask(h, jokers=j)) for h, j in waits)} of {len(waits)} "
          f"ready; peer agrees on {agree} of {len(few)}")
    line("wait_mask(hand, jokers=j) per call",
         cpu_rate(over(lambda x: mjcore.wait_mask(x[0], jokers=x[1]), waits), s),
         cpu_rate(over(lambda x: peer_waits(agari, x[0], x[1]), few), s), 1e6)

    for name, module, make in (("hangzhou", hangzhou, hangzhou_hand), ("wuhan", wuhan, wuhan_hand)):
        sample: list[tuple[Any, ...]] = []
        raw: list[tuple[Hand, int, int]] = []
        while len(sample) < args.hands:
            if name == "hangzhou":
                text, tile, ctx, opts = make(rng)
                h = Hand.parse(text)
                wild = mjcore.tile_id(ctx["caishen"]) if ctx else 31
                if not h.counts[wild]:
                    continue
                sample.append((text, tile, True, ctx, opts))
                raw.append((h, mjcore.tile_id(tile), wild))
            else:
                h, tile, self_drawn, ctx = make(rng)
                wild = mjcore.tile_id(ctx["laizi"])
                if not h.counts[wild]:
                    continue
                sample.append((h, tile, self_drawn, ctx, {}))
                raw.append((Hand(h.counts), tile, wild))

        def loop(sample: list[tuple[Any, ...]] = sample, name: str = name) -> int:
            for hand, tile, self_drawn, ctx, opts in sample:
                score(hand, win_tile=tile, self_drawn=self_drawn, context=ctx, options=opts,
                      ruleset=name)
            return len(sample)

        def cold(loop: Callable[[], int] = loop, module: Any = module) -> int:
            module.clear_caches()
            return loop()

        peer = cpu_rate(riichi_peer(raw), s)
        line(f"{name} score, wilds held, never seen", cpu_rate(cold, s), peer, 2e5)
        loop()
        line(f"{name} score, wilds held, warm", cpu_rate(loop, s), peer)


if __name__ == "__main__":
    main()
