"""Benchmark of Sichuan scoring and valued waits, beside peers measured in the same run.

Run: ``.venv/bin/python bench/bench_sichuan.py [--hands N] [--seconds S]``.
Prints hands per CPU second (``time.process_time``: other jobs on the machine do not count)
for ``mjcore.rules.score`` and ``valued_waits`` on N distinct random Sichuan hands:

* cold - every memo cleared first, then each hand asked once (a hand never seen before):
         on the compiled path (the default), and on the Python path (``MJ_PURE_SCORING=1``'s,
         switched in-process), and the compiled core alone (``CompiledTable.score``, no API
         layer around it);
* cold, contexts at random - the cold loop with the context a server passes (the winner's
         seat, the discarder of a discard win, sometimes the seats still playing);
* warm - the same loop again: answers memoised per input (the compiled table's cache keeps an
         answer once a question is asked a second time, so the best pass is all hits);
* batch - ``CompiledTable.score_batch`` on the same hands as uint8 buffers (GIL released, no
          Python object per hand): one core in CPU time, and one and two threads by the wall
          clock (the two-thread figure needs the second core free: with other jobs on the
          machine both wall-clock rows fall well under the CPU-time one);

and, in the same run, two peers doing the same kind of work (decompose, find the patterns,
value the hand) on the concealed hands of the same generator, under riichi rules (riichi
declared so every hand has a yaku): the ``mahjong`` package's HandCalculator and, if it is
installed, ``riichienv``'s HandEvaluator (Rust), as ratios. Not a test: nothing here fails.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import threading
import time
from collections.abc import Callable

from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig
from mahjong.tile import TilesConverter

from mjcore import Hand, Meld
from mjcore.rules import resolve_options, score, valued_waits
from mjcore.rules.common import compiled
from mjcore.rules.sichuan import clear_caches
from mjcore.rules.sichuan.scoring import _DEFAULT_CTX, _compiled_context, _compiled_table


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
    """Items per CPU second of ``fn`` (which reports how many it did): the best pass, passes
    repeated for about ``seconds`` of CPU time."""
    best, spent = 0.0, 0.0
    while spent < seconds or best == 0.0:
        start = time.process_time()
        done = fn()
        elapsed = time.process_time() - start
        spent += elapsed
        best = max(best, done / max(elapsed, 1e-9))
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--seconds", type=float, default=1.5)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    raw, seen = [], set()
    while len(raw) < args.hands:  # distinct hands: a cold pass never meets one twice
        c, m, w = winning_hand(rng)
        key = (tuple(c), tuple(m), w)
        if key not in seen:
            seen.add(key)
            raw.append((c, m, w))
    hands = [(Hand(c, m), w) for c, m, w in raw]
    ready = []
    for c, m, w in raw:
        c2 = c[:]
        c2[w] -= 1
        ready.append(Hand(c2, m))
    n = len(hands)

    def score_all() -> int:
        for h, w in hands:
            score(h, win_tile=w, ruleset="sichuan")
        return n

    def score_cold() -> int:
        clear_caches()
        return score_all()

    # the same hands with the context a server passes: the winner's seat, the discarder of a
    # discard win, now and then the seats still playing or the missing suit
    in_context = []
    for h, w in hands:
        winner, sd = rng.randrange(4), rng.random() < 0.5
        ctx: dict[str, object] = {"winner": winner}
        if not sd:
            ctx["discarder"] = rng.choice([x for x in range(4) if x != winner])
        if rng.random() < 0.2:
            ctx["active_seats"] = sorted({winner, *rng.sample(range(4), 2),
                                          *([ctx["discarder"]] if not sd else [])})
        in_context.append((h, w, sd, ctx))

    def score_cold_in_context() -> int:
        clear_caches()
        for h, w, sd, ctx in in_context:
            score(h, win_tile=w, self_drawn=sd, context=ctx, ruleset="sichuan")
        return n

    def waits_all() -> int:
        for h in ready:
            valued_waits(h, ruleset="sichuan")
        return n

    def waits_cold() -> int:
        clear_caches()
        return waits_all()

    def python_path(fn: Callable[[], int]) -> Callable[[], int]:
        def run() -> int:
            compiled.PURE = True
            try:
                return fn()
            finally:
                compiled.PURE = False
        return run

    o = resolve_options("sichuan")
    table = _compiled_table(o)
    ctx = _DEFAULT_CTX[False]
    cctx = _compiled_context(table, ctx, o)

    def core_only() -> int:
        f = table.score
        for h, w in hands:
            f(h, w, cctx)
        return n

    # the batch entry point: the same hands as uint8 buffers, no Python object per hand
    kinds = {"chi": 1, "peng": 2, "gang": 3, "angang": 4, "bugang": 5}
    counts_buf = bytes(x for c, m, w in raw for x in c)
    wins_buf = bytes(w for c, m, w in raw)
    melds_ba = bytearray(8 * n)
    for i, (_, m, _) in enumerate(raw):
        for j, meld in enumerate(m):
            melds_ba[8 * i + 2 * j] = kinds[meld.kind]
            melds_ba[8 * i + 2 * j + 1] = meld.tiles[0]
    melds_buf = bytes(melds_ba)

    def batch_one_core() -> int:
        table.score_batch(counts_buf, wins_buf, melds_buf, cctx)
        return n

    def batch_wall(threads: int) -> float:
        """Hands per wall-clock second over ``threads`` threads (best of 5 passes)."""
        cv, wv, mv = memoryview(counts_buf), memoryview(wins_buf), memoryview(melds_buf)
        cuts = [n * k // threads for k in range(threads + 1)]
        best = 0.0
        for _ in range(5):
            workers = [threading.Thread(target=table.score_batch, args=(
                cv[34 * a:34 * b], wv[a:b], mv[8 * a:8 * b], cctx))
                for a, b in zip(cuts, cuts[1:], strict=False)]
            start = time.perf_counter()
            for w in workers:
                w.start()
            for w in workers:
                w.join()
            best = max(best, n / (time.perf_counter() - start))
        return best

    # the peers: the concealed hands of the same generator, in their 136-tile form
    peer = [(TilesConverter.to_136_array(c), w) for c, m, w in raw if not m]
    peer = [(tiles, next(x for x in tiles if x // 4 == w)) for tiles, w in peer]
    calc = HandCalculator()
    config = HandConfig(is_riichi=True)

    def mahjong_peer() -> int:
        for tiles, w in peer:
            calc.estimate_hand_value(tiles, w, config=config)
        return len(peer)

    peers: list[tuple[str, float]] = []
    s = args.seconds
    peers.append(("mahjong HandCalculator.estimate_hand_value", rate(mahjong_peer, s)))
    try:
        from riichienv import _riichienv as rv
    except ImportError:
        print("riichienv is not installed: its row is left out (pip install riichienv)")
    else:
        cond = rv.Conditions(riichi=True)

        def riichienv_peer() -> int:
            for tiles, w in peer:
                rv.HandEvaluator(tiles, []).calc(w, [], [], cond)
            return len(peer)

        peers.append(("riichienv HandEvaluator.calc (Rust)", rate(riichienv_peer, s)))

    rows = [
        ("score, cold, compiled (never-seen hands)", rate(score_cold, s)),
        ("score, cold, contexts at random (seats)", rate(score_cold_in_context, s)),
        ("score, cold, Python path", rate(python_path(score_cold), s)),
        ("score, compiled core alone (no API layer)", rate(core_only, s)),
        ("score, warm (memoised)", rate(score_all, s)),
        ("score_batch, one core (CPU time)", rate(batch_one_core, s)),
        ("score_batch, one thread (wall clock)", batch_wall(1)),
        ("score_batch, two threads (wall clock)", batch_wall(2)),
        ("valued_waits, cold, compiled", rate(waits_cold, s)),
        ("valued_waits, cold, Python path", rate(python_path(waits_cold), s)),
        ("valued_waits, warm (memoised)", rate(waits_all, s)),
    ]
    print(f"Python {platform.python_version()}, {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.1f} at the end; hands per CPU second, best pass")
    print(f"{n} distinct random Sichuan hands (seed {args.seed}); peers on the "
          f"{len(peer)} concealed ones (riichi rules)")
    for label, r in peers:
        print(f"peer: {label:<44} {r:>12,.0f} hands/s")
    for label, r in rows:
        ratios = "  ".join(f"x{r / p:,.2f}" for _, p in peers)
        print(f"{label:<50} {r:>12,.0f} hands/s  {ratios}")
    print("ratios: against " + ", ".join(label.split()[0] for label, _ in peers))


if __name__ == "__main__":
    main()
