"""The fast core against the slow reference (tests/reference.py) on large seeded samples.

Every operation is checked on at least ``MJ_CROSSCHECK_N`` hands (default 200,000, as
``make test-long`` runs it; ``make test`` sets 20,000): win test per shape and for the default
shapes, the set of decompositions, waits, shanten per shape and default, and the same with one
and two wild tiles. Hands come from ``reference.random_hand``:
plain draws from the 136-tile wall, one- and two-suit hands (wins are then frequent), hands
built from sets and a pair then perturbed, the special shapes perturbed, hands with declared
melds, 13/14 and 16/17 tiles.

The reference runs in a pool of worker processes (it is the slow side); the core side calls
the per-hand API (and the batch API for hands without melds).

Environment: ``MJ_CROSSCHECK_N`` (sample per operation), ``MJ_CROSSCHECK_SEED``,
``MJ_CROSSCHECK_WORKERS`` (default: the number of CPUs).
"""

from __future__ import annotations

import multiprocessing
import os
import random
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import pytest
import reference as R
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mjcore
from mjcore import Hand, MahjongError, Meld

N_SAMPLES = int(os.environ.get("MJ_CROSSCHECK_N", "200000"))
SEED = int(os.environ.get("MJ_CROSSCHECK_SEED", "20261130"))
# under pytest-xdist (make test) the suite is already spread over the cores: no pool of our own
_DEFAULT_WORKERS = 1 if "PYTEST_XDIST_WORKER" in os.environ else (os.cpu_count() or 1)
WORKERS = int(os.environ.get("MJ_CROSSCHECK_WORKERS", str(_DEFAULT_WORKERS)))
CHUNK = 2000

SHANTEN_SHAPES = R.SHANTEN_SHAPES  # every shape: mjcore.SHAPES

# stream name -> (jokers, sizes (total incl. melds and wilds), 3n+2?)
STREAMS: dict[str, tuple[int, tuple[int, ...], bool]] = {
    "win0": (0, (14, 14, 14, 17), True),
    "wait0": (0, (13, 13, 13, 16), False),
    "win1": (1, (14, 14, 14, 17), True),
    "wait1": (1, (13, 13, 13, 16), False),
    "win2": (2, (14, 14, 14, 17), True),
    "wait2": (2, (13, 13, 13, 16), False),
}


def _hands(stream: str, start: int, n: int) -> list[R.RandomHand]:
    jokers, sizes, _ = STREAMS[stream]
    rng = random.Random(f"{SEED}:{stream}:{start}")
    return [R.random_hand(rng, rng.choice(sizes), jokers) for _ in range(n)]


def _core_hand(h: R.RandomHand) -> Hand:
    return Hand(h.counts, tuple(Meld.of(k, t) for k, t in h.melds))


def _text(h: R.RandomHand) -> str:
    return _core_hand(h).to_text() + (f" +{h.jokers} jokers" if h.jokers else "")


class Tally:
    """Checks per operation: how many, how many disagreed, the first few examples."""

    def __init__(self) -> None:
        self.checked: dict[str, int] = {}
        self.failed: dict[str, int] = {}
        self.examples: dict[str, list[str]] = {}
        self.stats: dict[str, int] = {}

    def check(self, op: str, h: R.RandomHand, core: object, ref: object) -> None:
        self.checked[op] = self.checked.get(op, 0) + 1
        if core != ref:
            self.failed[op] = self.failed.get(op, 0) + 1
            ex = self.examples.setdefault(op, [])
            if len(ex) < 10:
                ex.append(f"{_text(h)}: core {core!r} reference {ref!r}")

    def stat(self, key: str, n: int = 1) -> None:
        self.stats[key] = self.stats.get(key, 0) + n

    def merge(self, other: Tally) -> None:
        for k, v in other.checked.items():
            self.checked[k] = self.checked.get(k, 0) + v
        for k, v in other.failed.items():
            self.failed[k] = self.failed.get(k, 0) + v
        for k, ex in other.examples.items():
            self.examples.setdefault(k, []).extend(ex[: 10 - len(self.examples[k])])
        for k, v in other.stats.items():
            self.stats[k] = self.stats.get(k, 0) + v


def _masked(mask: int) -> list[str]:
    return mjcore.mask_to_tiles(mask)


def _check_chunk(args: tuple[str, int, int]) -> Tally:
    """Core vs reference on one chunk of a stream (runs in a worker process)."""
    stream, start, n = args
    jokers, _, complete = STREAMS[stream]
    tally = Tally()
    hands = _hands(stream, start, n)
    plain: list[tuple[R.RandomHand, Any]] = []  # hands without melds, for the batch forms
    for i, h in enumerate(hands):
        mt = h.meld_tiles
        ch = _core_hand(h)
        want_default: Any
        if complete:
            shapes = R.win_shapes(h.counts, mt, R.SHAPES, jokers)
            tally.check("win_shapes", h, sorted(mjcore.win_shapes(ch, shapes=mjcore.SHAPES,
                                                                   jokers=jokers)), sorted(shapes))
            want_default = bool(shapes & {"standard", "qidui"})
            tally.check("is_win default", h, mjcore.is_win(ch, jokers=jokers), want_default)
            for s in R.SHAPES:
                tally.check(f"is_win {s}", h, mjcore.is_win(ch, shapes=(s,), jokers=jokers),
                            s in shapes)
                tally.stat(f"wins {s}", s in shapes)
            tally.stat("wins default", want_default)
            if jokers == 0:
                decs = R.decompositions(h.counts)
                got = mjcore.decompose(ch)
                gs = {R.Decomposition(d.pair, tuple(d.chows), tuple(d.pungs)) for d in got}
                tally.check("decompose (set)", h, sorted(gs), sorted(decs))
                tally.check("decompose (count, distinct)", h, len(got), len(decs))
                tally.stat("several decompositions", len(decs) > 1)
        else:
            mask = R.wait_mask(h.counts, mt, R.DEFAULT_SHAPES, jokers)
            want_default = mask
            tally.check("wait_mask default", h, _masked(mjcore.wait_mask(ch, jokers=jokers)),
                        _masked(mask))
            tally.stat("ready", mask != 0)
            if i % 10 == 0:
                ws = mjcore.waits(ch, jokers=jokers)
                tally.check("waits objects", h, [(w.id, w.tile) for w in ws],
                            [(t, R.tile_text(t)) for t in range(34) if mask >> t & 1])
            if jokers == 0:
                mask_all = R.wait_mask(h.counts, mt, R.SHAPES, jokers)
                tally.check("wait_mask all shapes", h,
                            _masked(mjcore.wait_mask(ch, shapes=mjcore.SHAPES, jokers=jokers)),
                            _masked(mask_all))
        # shanten: every other hand of each stream (the 3n+2 and 3n+1 streams of one wild
        # count together give N hands per shanten operation)
        want_sh: int | None = None
        if i % 2 == 0:
            sh = {s: R.shanten(h.counts, mt, (s,), jokers) for s in SHANTEN_SHAPES}
            for s in SHANTEN_SHAPES:
                if sh[s] < R.INF:  # the shape is possible for this hand (no melds, 13/14)
                    tally.check(f"shanten {s}", h, mjcore.shanten(ch, shapes=(s,),
                                                                  jokers=jokers), sh[s])
            want_sh = min(sh["standard"], sh["qidui"])
            tally.check("shanten default", h, mjcore.shanten(ch, jokers=jokers), want_sh)
            want3 = min(sh["standard"], sh["qidui"], sh["shisanyao"])
            tally.check("shanten standard+qidui+shisanyao", h,
                        mjcore.shanten(ch, shapes=("standard", "qidui", "shisanyao"),
                                       jokers=jokers), want3)
            tally.check("shanten all shapes", h,
                        mjcore.shanten(ch, shapes=SHANTEN_SHAPES, jokers=jokers),
                        min(sh.values()))
        if not h.melds:
            plain.append((h, (want_default, want_sh)))
    # the batch forms on the hands without melds
    buf = bytes(c for h, _ in plain for c in h.counts)
    if complete:
        wins = mjcore.is_win_batch(buf, jokers=jokers)
        for (h, (want, _)), got in zip(plain, wins, strict=True):
            tally.check("is_win_batch", h, bool(got), want)
    else:
        out = mjcore.wait_mask_batch(buf, jokers=jokers)
        for k, (h, (want, _)) in enumerate(plain):
            got = int.from_bytes(out[8 * k:8 * k + 8], sys.byteorder)
            tally.check("wait_mask_batch", h, _masked(got), _masked(want))
    shs = mjcore.shanten_batch(buf, jokers=jokers)
    for (h, (_, want_s)), got in zip(plain, shs, strict=True):
        if want_s is not None:
            tally.check("shanten_batch", h, got - 256 if got > 127 else got, want_s)
    return tally


_CACHE: dict[str, Tally] = {}
_POOL: list[Any] = []  # one worker pool for the module, so the reference's caches carry over


@pytest.fixture(scope="module", autouse=True)
def _pool_lifetime() -> Iterator[None]:
    yield
    for pool in _POOL:
        pool.close()
        pool.join()
    _POOL.clear()


_REPORT: list[Callable[[str], object]] = []  # the terminal, in verbose runs


@pytest.fixture(autouse=True)
def _progress(pytestconfig: pytest.Config) -> Iterator[None]:
    """A stream takes minutes at full size: in verbose runs (``make test``) its progress goes
    on the running test's line, so a long run is never silent."""
    reporter = pytestconfig.pluginmanager.get_plugin("terminalreporter")
    capture = pytestconfig.pluginmanager.get_plugin("capturemanager")
    if reporter is not None and capture is not None and pytestconfig.get_verbosity() > 0:

        def write(text: str) -> None:
            with capture.global_and_fixture_disabled():  # the test's output is captured
                reporter.write(text, flush=True)

        _REPORT.append(write)
    yield
    _REPORT.clear()


def _run(stream: str) -> Tally:
    if stream not in _CACHE:
        jobs = [(stream, s, min(CHUNK, N_SAMPLES - s)) for s in range(0, N_SAMPLES, CHUNK)]
        if WORKERS > 1:
            if not _POOL:
                _POOL.append(multiprocessing.get_context("fork").Pool(WORKERS))
            parts: Iterable[Tally] = _POOL[0].imap(_check_chunk, jobs, chunksize=1)
        else:
            parts = map(_check_chunk, jobs)
        total = Tally()
        for k, p in enumerate(parts, 1):
            total.merge(p)
            if _REPORT and k == 1:
                _REPORT[0](f"{stream} {N_SAMPLES:,} hands:")
            if _REPORT and k * 10 // len(jobs) > (k - 1) * 10 // len(jobs):  # every tenth
                _REPORT[0](f" {k * 10 // len(jobs) * 10}%" + (" " if k == len(jobs) else ""))
        _CACHE[stream] = total
    return _CACHE[stream]


def _assert_ops(tally: Tally, ops: list[str], minimum: int) -> None:
    lines = []
    for op in ops:
        n = tally.checked.get(op, 0)
        bad = tally.failed.get(op, 0)
        if bad:
            lines.append(f"{op}: {bad} of {n} disagree, e.g.\n    "
                         + "\n    ".join(tally.examples[op]))
        elif n < minimum:
            lines.append(f"{op}: only {n} hands checked, want {minimum}")
    if lines:
        pytest.fail("\n".join(lines))


SHANTEN_OPS = [f"shanten {s}" for s in SHANTEN_SHAPES] + [
    "shanten default", "shanten standard+qidui+shisanyao", "shanten all shapes"]


@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_is_win(jokers: int) -> None:
    t = _run(f"win{jokers}")
    _assert_ops(t, ["win_shapes", "is_win default"] + [f"is_win {s}" for s in R.SHAPES],
                N_SAMPLES)
    # the sample really exercises every shape
    assert t.stats["wins default"] > N_SAMPLES // 20, t.stats
    for s in R.SHAPES:
        assert t.stats[f"wins {s}"] > N_SAMPLES // 500, t.stats


def test_decompose() -> None:
    t = _run("win0")
    _assert_ops(t, ["decompose (set)", "decompose (count, distinct)"], N_SAMPLES)
    assert t.stats["several decompositions"] > N_SAMPLES // 1000, t.stats


@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_waits(jokers: int) -> None:
    t = _run(f"wait{jokers}")
    ops = ["wait_mask default"] + (["wait_mask all shapes"] if jokers == 0 else [])
    _assert_ops(t, ops, N_SAMPLES)
    _assert_ops(t, ["waits objects"], N_SAMPLES // 10)
    assert t.stats["ready"] > N_SAMPLES // 10, t.stats


@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_shanten(jokers: int) -> None:
    both = Tally()
    both.merge(_run(f"win{jokers}"))
    both.merge(_run(f"wait{jokers}"))
    # the special shapes only apply to 13/14-tile hands without melds: fewer samples
    _assert_ops(both, ["shanten standard", "shanten default", "shanten standard+qidui+shisanyao",
                       "shanten all shapes"], N_SAMPLES)
    _assert_ops(both, [f"shanten {s}" for s in SHANTEN_SHAPES[1:]], N_SAMPLES // 3)


@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_batch_forms(jokers: int) -> None:
    t_win, t_wait = _run(f"win{jokers}"), _run(f"wait{jokers}")
    _assert_ops(t_win, ["is_win_batch"], N_SAMPLES // 2)
    _assert_ops(t_wait, ["wait_mask_batch"], N_SAMPLES // 2)
    both = Tally()
    both.merge(t_win)
    both.merge(t_wait)
    _assert_ops(both, ["shanten_batch"], N_SAMPLES // 2)


def test_bad_hand_in_batch_raises() -> None:
    with pytest.raises(MahjongError):
        mjcore.is_win_batch(bytes([5] + [0] * 33))


# ---------------------------------------------------------------------------------------------
# hypothesis properties

TILE = st.integers(0, 33)


@st.composite
def hands13(draw: st.DrawFn, size: int = 13) -> Hand:
    """A valid concealed hand of ``size`` tiles (often from few suits so waits exist)."""
    suits = draw(st.sampled_from([(0,), (1,), (0, 3), (0, 1), (0, 1, 2, 3)]))
    pool = [t for t in range(34) if R._group_of(t) in suits for _ in range(4)]
    idx = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size, unique=True))
    return Hand.from_tiles([pool[i] for i in idx])


PROP = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROP
@given(hands13())
def test_prop_wait_completes(h: Hand) -> None:
    for w in mjcore.waits(h):
        h2 = h.with_tile(w.id)
        assert mjcore.is_win(h2)
        assert mjcore.shanten(h2) == -1
        assert h.all_counts()[w.id] < 4


@PROP
@given(hands13())
def test_prop_ready_iff_waits(h: Hand) -> None:
    assert (mjcore.shanten(h) == 0) == bool(mjcore.waits(h))
    assert mjcore.shanten(h) == R.shanten(h.counts, (), R.DEFAULT_SHAPES)


@PROP
@given(hands13(), TILE)
def test_prop_draw_lowers_shanten_by_at_most_one(h: Hand, t: int) -> None:
    if h.all_counts()[t] >= 4:
        return
    s13 = mjcore.shanten(h)
    s14 = mjcore.shanten(h.with_tile(t))
    assert s14 >= s13 - 1
    assert s14 <= s13  # drawing never hurts: discard the drawn tile again
    # a 14-tile hand's shanten is the best over its discards
    best = min(mjcore.shanten(Hand([c - (i == d) for i, c in enumerate(h.with_tile(t).counts)]))
               for d in range(34) if h.with_tile(t).counts[d])
    if s14 >= 0:
        assert s14 == best


@PROP
@given(hands13(14))
def test_prop_text_round_trip(h: Hand) -> None:
    assert Hand.parse(h.to_text()) == h
    assert Hand.parse(h.to_text()).to_text() == h.to_text()


@PROP
@given(hands13(), st.data())
def test_prop_jokers_never_hurt(h: Hand, data: st.DataObject) -> None:
    """A wild is at least as good as any real tile: replacing a tile by a wild never hurts,
    and every wait of the real hand stays a wait (wilds have no copy limit)."""
    held = [i for i in range(34) if h.counts[i]]
    t = data.draw(st.sampled_from(held))
    h2 = Hand([c - (i == t) for i, c in enumerate(h.counts)])
    assert mjcore.shanten(h2, jokers=1) <= mjcore.shanten(h)
    assert mjcore.wait_mask(h) & ~mjcore.wait_mask(h2, jokers=1) == 0
    assert mjcore.shanten(h2, jokers=1) == R.shanten(h2.counts, (), R.DEFAULT_SHAPES, 1)
