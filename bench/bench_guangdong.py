"""Benchmark of Guangdong scoring, with PyMahjongGB's fan calculator as a peer.

Run: ``.venv/bin/python bench/bench_guangdong.py [--hands N] [--seconds S]``.
Prints hands/s for ``mjcore.rules.score(..., ruleset="guangdong")`` on random Guangdong winning
hands (honours, melds, self-drawn and discard wins, contexts with meld sources):

* per call    - one prepared hand scored again and again (the memoised answer);
* batch cold  - a loop over N distinct prepared hands never scored before: every cache of the
                rule set cleared first (so the per-hand memo never answers);
* batch warm  - the same loop again (answers memoised per hand and context);
* contexts known - the cold loop with the answers' cache cleared but the parsed contexts kept
                (what a server meets once its tables' contexts were seen: new hands, known
                contexts);
* cold, contexts at random - the cold loop on the same hands with the contexts a server
                meets: seat and round winds, the discarder and who fed each meld drawn at
                random (thousands of distinct contexts, where the rows above have 225);
* the compiled core alone: ``CompiledTable.score`` on the same hands, contexts parsed and
  compiled beforehand, one per distinct context as the real path shares them (no API layer,
  no memo, no liability: what a cold call costs beside its glue);
* the cold loop on the Python path too (``MJ_PURE_SCORING=1``'s, switched in-process), and
  ``valued_waits`` cold (compiled, contexts at random, Python) and warm on the same hands less
  the winning tile;

and, in the same run, PyMahjongGB's ``MahjongFanCalculator`` (the Chinese Official rules'
fan calculator, C++: decompose, find fans, value the hand) on the same hands, as a ratio. If
PyMahjongGB is not installed the ``mahjong`` package's HandCalculator is the peer.
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

from mjcore import Hand, Meld
from mjcore._core import context_key
from mjcore.rules import resolve_options, score, valued_waits
from mjcore.rules.common import compiled
from mjcore.rules.guangdong import clear_caches
from mjcore.rules.guangdong import scoring as gd

ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def winning_hand(rng: random.Random) -> tuple[list[int], list[tuple[str, int]], int]:
    """A random Guangdong winning hand: concealed counts (incl. the winning tile), melds as
    (kind, lowest tile), the winning tile."""
    while True:
        counts = [0] * 34
        melds: list[tuple[str, int]] = []
        if rng.random() < 0.01:
            for t in ORPHANS:
                counts[t] += 1
            counts[rng.choice(ORPHANS)] += 1
        else:
            suits = rng.sample((0, 1, 2), rng.choice((1, 2, 2, 3)))
            n_melds = rng.choice((0, 0, 1, 1, 2, 3, 4))
            for k in range(4):
                if rng.random() < 0.2:
                    t, chow = 27 + rng.randrange(7), False
                else:
                    s = rng.choice(suits)
                    chow = rng.random() < 0.6
                    t = s * 9 + rng.randrange(7 if chow else 9)
                if k < n_melds:
                    melds.append(("chi" if chow else rng.choice(
                        ("peng", "peng", "gang", "angang", "bugang")), t))
                elif chow:
                    for x in range(3):
                        counts[t + x] += 1
                else:
                    counts[t] += 3
            pair = 27 + rng.randrange(7) if rng.random() < 0.2 else \
                rng.choice(suits) * 9 + rng.randrange(9)
            counts[pair] += 2
        held = counts[:]
        for kind, t in melds:
            for x in ((t, t + 1, t + 2) if kind == "chi" else (t,) * (3 if kind == "peng" else 4)):
                held[x] += 1
        if max(held) <= 4:
            return counts, melds, rng.choice([t for t in range(34) if counts[t]])


def rate(fn: Callable[[], int], seconds: float) -> tuple[float, float]:
    """Items per second of ``fn`` (which reports how many items it did), best of 3 runs: by
    the wall clock, and by this process's CPU time (steadier when other processes load the
    machine)."""
    best, best_cpu = 0.0, 0.0
    for _ in range(3):
        done, start, cpu = 0, time.perf_counter(), time.process_time()
        while True:
            done += fn()
            elapsed = time.perf_counter() - start
            if elapsed >= seconds / 3:
                break
        best = max(best, done / elapsed)
        best_cpu = max(best_cpu, done / max(time.process_time() - cpu, 1e-9))
    return best, best_cpu


def _gb_tile(t: int) -> str:
    return ("W", "B", "T")[t // 9] + str(t % 9 + 1) if t < 27 else \
        ("F1", "F2", "F3", "F4", "J1", "J2", "J3")[t - 27]


def peer(raw: list[tuple[list[int], list[tuple[str, int]], int, bool]],
         ) -> tuple[str, Callable[[], int], Callable[[], int]]:
    """The peer's name and its batch / per-call loops over the same hands."""
    try:
        from MahjongGB import MahjongFanCalculator
    except ImportError:
        MahjongFanCalculator = None  # noqa: N806
    if MahjongFanCalculator is not None:
        items = []
        for counts, melds, win, sd in raw:
            c = counts[:]
            c[win] -= 1
            pack = tuple(("CHI", _gb_tile(t + 1), 2) if k == "chi" else
                         ("PENG", _gb_tile(t), 1) if k == "peng" else
                         ("GANG", _gb_tile(t), 0 if k == "angang" else 1) for k, t in melds)
            hand = tuple(_gb_tile(t) for t in range(34) for _ in range(c[t]))
            items.append((pack, hand, _gb_tile(win), sd))

        def one(item: Any) -> None:
            pack, hand, win, sd = item
            try:
                MahjongFanCalculator(pack=pack, hand=hand, winTile=win, flowerCount=0,
                                     isSelfDrawn=sd, is4thTile=False, isAboutKong=False,
                                     isWallLast=False, seatWind=1, prevalentWind=0)
            except TypeError:  # hands the Chinese Official rules do not accept
                pass

        def batch() -> int:
            for item in items:
                one(item)
            return len(items)

        def per_call() -> int:
            for _ in range(1000):
                one(items[0])
            return 1000

        return "PyMahjongGB MahjongFanCalculator", batch, per_call
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig
    from mahjong.tile import TilesConverter

    calc, config = HandCalculator(), HandConfig(is_riichi=True)
    concealed = [(TilesConverter.to_136_array(c), w * 4) for c, m, w, _ in raw if not m]

    def m_batch() -> int:
        for tiles, w in concealed:
            calc.estimate_hand_value(tiles, w, config=config)
        return len(concealed)

    def m_per_call() -> int:
        for _ in range(100):
            calc.estimate_hand_value(*concealed[0], config=config)
        return 100

    return "mahjong HandCalculator (riichi, concealed hands)", m_batch, m_per_call


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--seconds", type=float, default=1.5)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    raw = []
    seen = set()
    while len(raw) < args.hands:
        counts, melds, win = winning_hand(rng)
        key = (tuple(counts), tuple(melds), win)
        if key not in seen:  # distinct hands: the per-hand memo never answers a cold pass
            seen.add(key)
            raw.append((counts, melds, win, rng.random() < 0.5))
    items = []
    for counts, melds, win, sd in raw:
        hand = Hand(counts, [Meld.of(k, (t, t + 1, t + 2) if k == "chi" else
                                     (t,) * (3 if k == "peng" else 4)) for k, t in melds])
        ctx: dict[str, object] = {"seat_wind": "2z", "round_wind": "1z"}
        if not sd:
            ctx["discarder"] = "across"
        if melds:
            ctx["meld_from"] = [None if k == "angang" else "left" if k == "chi" else "right"
                                for k, _ in melds]
        items.append((hand, win, sd, ctx))
    n = len(items)
    winds, seats = ("1z", "2z", "3z", "4z"), ("left", "across", "right")
    drawn = []  # the same hands in contexts drawn at random
    for hand, win, sd, _ in items:
        ctx = {"seat_wind": rng.choice(winds), "round_wind": rng.choice(winds)}
        if not sd:
            ctx["discarder"] = rng.choice(seats)
        if hand.melds:
            ctx["meld_from"] = [None if m.kind == "angang" else "left" if m.kind == "chi" else
                                rng.choice(seats) for m in hand.melds]
        drawn.append((hand, win, sd, ctx))

    def score_batch() -> int:
        for hand, win, sd, ctx in items:
            score(hand, win_tile=win, self_drawn=sd, context=ctx, ruleset="guangdong")
        return n

    def score_cold() -> int:
        clear_caches()
        return score_batch()

    def score_cold_drawn() -> int:
        clear_caches()
        for hand, win, sd, ctx in drawn:
            score(hand, win_tile=win, self_drawn=sd, context=ctx, ruleset="guangdong")
        return n

    def score_known_contexts() -> int:
        compiled.CompiledTable.clear_cache()  # (the answers only: parsed contexts stay)
        return score_batch()

    one = items[0]

    def score_one() -> int:
        hand, win, sd, ctx = one
        for _ in range(1000):
            score(hand, win_tile=win, self_drawn=sd, context=ctx, ruleset="guangdong")
        return 1000

    s = args.seconds
    peer_name, peer_batch, peer_one = peer(raw)
    peer_rate, peer_one_rate = rate(peer_batch, s)[1], rate(peer_one, s)[1]
    def python_path(fn: Callable[[], int]) -> Callable[[], int]:
        def run() -> int:
            compiled.PURE = True
            try:
                return fn()
            finally:
                compiled.PURE = False
        return run

    ready = []
    for hand, win, _, ctx in items:
        counts = list(hand.counts)
        counts[win] -= 1
        ready.append((Hand(counts, hand.melds), {k: v for k, v in ctx.items()
                                                 if k != "discarder"}))

    def waits_batch() -> int:
        for hand, ctx in ready:
            valued_waits(hand, context=ctx, ruleset="guangdong")
        return n

    def waits_cold() -> int:
        clear_caches()
        return waits_batch()

    ready_drawn = [(hand, {k: v for k, v in d[3].items() if k != "discarder"})
                   for (hand, _), d in zip(ready, drawn)]

    def waits_cold_drawn() -> int:
        clear_caches()
        for hand, ctx in ready_drawn:
            valued_waits(hand, context=ctx, ruleset="guangdong")
        return n

    # one compiled context per distinct context, shared by its hands as the real path shares
    # it (CompiledEntry's contexts, by context_key): what a cold call meets
    table = gd._compiled_table(resolve_options("guangdong"))
    shared: dict[tuple[object, ...], Any] = {}
    cores = []
    for hand, win, sd, ctx in items:
        key = context_key(sd, ctx)
        if key not in shared:
            shared[key] = gd._compiled_context(table, gd.parse_context(ctx, sd),
                                               resolve_options("guangdong"))
        cores.append((hand, win, shared[key]))

    def core_only() -> int:
        for hand, win, c in cores:
            table.score(hand, win, c)
        return n

    rows: list[tuple[str, tuple[float, float], float]] = [
            ("score: per call (same prepared hand)", rate(score_one, s), peer_one_rate),
            ("score: batch loop, cold, Python path", rate(python_path(score_cold), s),
             peer_rate)]
    rows += [("score: batch loop, cold (never-seen hands)", rate(score_cold, s), peer_rate),
             ("score: cold hands, contexts known", rate(score_known_contexts, s), peer_rate),
             ("score: cold, contexts at random", rate(score_cold_drawn, s), peer_rate),
             ("score: compiled core alone (no API layer)", rate(core_only, s), peer_rate),
             ("score: batch loop, warm (memoised)", rate(score_batch, s), peer_rate),
             ("valued_waits: cold, compiled", rate(waits_cold, s), peer_rate),
             ("valued_waits: cold, contexts at random", rate(waits_cold_drawn, s), peer_rate),
             ("valued_waits: cold, Python path", rate(python_path(waits_cold), s), peer_rate),
             ("valued_waits: warm (memoised)", rate(waits_batch, s), peer_rate)]
    print(f"Python {platform.python_version()}, {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.1f} at the end")
    print(f"{n} distinct random Guangdong winning hands (seed {args.seed}); peer: {peer_name} "
          "on the same hands")
    print(f"peer: {peer_rate:,.0f} hands/s batch, {peer_one_rate:,.0f} per call (same hand), "
          "per CPU second")
    print(f"{'':<46} {'per CPU second':>22} {'wall clock':>14}")
    for label, (wall, cpu), p in rows:
        print(f"{label:<46} {cpu:>12,.0f} hands/s {1e6 / cpu:6.2f} us {wall:>12,.0f}/s"
              f"  x{cpu / p:,.1f} vs peer (CPU)")


if __name__ == "__main__":
    main()
