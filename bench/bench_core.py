"""Benchmark of the core: hands/s per call and batch, against the `mahjong` package in the same run.

Run: ``make bench`` (or ``.venv/bin/python bench/bench_core.py [--seconds S]``). Prints one line
per operation with mjcore's rate, the peer's rate and the ratio. Not a test: nothing here fails.

Hands: half are complete (or one tile short of complete, for waits) hands built from random
sets and a pair, half random draws from a 136-tile wall, so both answers occur often.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from mahjong.agari import Agari
from mahjong.shanten import Shanten

import mjcore

Counts = list[int]


def complete_hand(rng: random.Random) -> Counts:
    while True:
        c = [0] * 34
        for _ in range(4):
            if rng.random() < 0.5:
                t = rng.randrange(34)
                c[t] += 3
            else:
                s, r = rng.randrange(3), rng.randrange(7)
                for k in range(3):
                    c[s * 9 + r + k] += 1
        c[rng.randrange(34)] += 2
        if max(c) <= 4:
            return c


def random_hand(rng: random.Random, n: int) -> Counts:
    wall = [t for t in range(34) for _ in range(4)]
    c = [0] * 34
    for t in rng.sample(wall, n):
        c[t] += 1
    return c


def sample(rng: random.Random, n: int, size: int) -> list[Counts]:
    out = []
    for i in range(n):
        if i % 2 == 0:
            c = complete_hand(rng)
            if size == 13:
                c[rng.choice([t for t in range(34) if c[t]])] -= 1
        else:
            c = random_hand(rng, size)
        out.append(c)
    return out


def rate(fn: Callable[[Any], object], items: Sequence[Any], seconds: float) -> float:
    """Calls per second of fn over items, repeated for about ``seconds``."""
    done = 0
    start = time.perf_counter()
    while True:
        for x in items:
            fn(x)
        done += len(items)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def batch_rate(fn: Callable[[bytes], object], buf: bytes, n: int, seconds: float) -> float:
    done = 0
    start = time.perf_counter()
    while True:
        fn(buf)
        done += n
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def peer_waits(agari: Agari, c: Counts) -> int:
    mask = 0
    for t in range(34):
        if c[t] < 4:
            c[t] += 1
            if agari.is_agari(c):
                mask |= 1 << t
            c[t] -= 1
    return mask


def line(name: str, ours: float, peer: float | None, target: float | None = None) -> None:
    ratio = f"{ours / peer:8.1f}x" if peer else "        -"
    peer_s = f"{peer:>14,.0f}" if peer else f"{'-':>14}"
    tgt = f"   target {target:,.0f}" if target else ""
    print(f"{name:<34}{ours:>16,.0f}{peer_s}{ratio}{tgt}")


def import_cost() -> tuple[float, float, float]:
    """Seconds to import mjcore, and peak RSS (MB) of a bare interpreter and after the import."""
    code = (  # VmHWM: this process's peak resident set (ru_maxrss would include the parent's)
        "import re, time\n"
        "def hwm(): return int(re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read())[1]) / 1024\n"
        "r0 = hwm(); t = time.perf_counter(); import mjcore; dt = time.perf_counter() - t\n"
        "print(dt, r0, hwm())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    dt, bare, loaded = map(float, out.stdout.split())
    return dt, bare, loaded


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=1.0, help="time per measurement")
    ap.add_argument("--hands", type=int, default=20000)
    args = ap.parse_args()
    rng = random.Random(20261130)
    s = args.seconds
    win14 = sample(rng, args.hands, 14)
    wait13 = sample(rng, args.hands, 13)
    hands14 = [mjcore.Hand(c) for c in win14]
    hands13 = [mjcore.Hand(c) for c in wait13]
    agari, shanten = Agari(), Shanten()
    few = wait13[:2000]  # the peer's wait search is slow; a smaller sample keeps the run short

    dt, bare, loaded = import_cost()
    print(f"import mjcore (tables built): {dt:.2f} s, peak RSS {loaded:.0f} MB "
          f"({loaded - bare:.0f} MB over a bare interpreter's {bare:.0f} MB); targets < 1 s, < 64 MB")
    print(f"{'operation (hands/s)':<34}{'mjcore':>16}{'mahjong pkg':>14}{'ratio':>9}")
    print("per call, prepared Hand:")
    line("  is_win_fast (raw)", rate(mjcore.is_win_fast, hands14, s), None, 5e6)
    line("  is_win (object form)", rate(mjcore.is_win, hands14, s),
         rate(agari.is_agari, win14, s))
    line("  wait_mask_fast (raw)", rate(mjcore.wait_mask_fast, hands13, s), None, 2e6)
    line("  waits (Wait objects)", rate(mjcore.waits, hands13, s),
         rate(lambda c: peer_waits(agari, c), few, s))
    line("  shanten_fast (raw)", rate(mjcore.shanten_fast, hands13, s), None, 3e6)
    line("  shanten (std+qidui)", rate(mjcore.shanten, hands13, s),
         rate(shanten.calculate_shanten, wait13, s))
    print("per call from text (parse included):")
    texts = [h.to_text() for h in hands14[:5000]]
    line("  is_win(text)", rate(mjcore.is_win, texts, s), None)
    print("batch, one core (N x 34 uint8 counts, GIL released):")
    n = len(win14)
    buf14 = bytes(v for c in win14 for v in c) * 10
    buf13 = bytes(v for c in wait13 for v in c) * 10
    std = ("standard",)
    def win_std(b: bytes) -> bytes:
        return mjcore.is_win_batch(b, shapes=std)

    def waits_std(b: bytes) -> bytes:
        return mjcore.wait_mask_batch(b, shapes=std)

    line("  is_win_batch (standard)", batch_rate(win_std, buf14, n * 10, s), None, 5e7)
    line("  is_win_batch (std+qidui)", batch_rate(mjcore.is_win_batch, buf14, n * 10, s), None)
    line("  wait_mask_batch (standard)", batch_rate(waits_std, buf13, n * 10, s), None, 1e7)
    line("  wait_mask_batch (std+qidui)", batch_rate(mjcore.wait_mask_batch, buf13, n * 10, s), None)
    line("  shanten_batch (std+qidui)", batch_rate(mjcore.shanten_batch, buf13, n * 10, s), None)


if __name__ == "__main__":
    main()
