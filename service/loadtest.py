"""Load generator: ``python -m service.loadtest`` (bounded in calls and seconds, 127.0.0.1 only).

By default it starts two server processes on free loopback ports: the real service
(``python -m service``, one worker, Prometheus metrics on as deployed) and a baseline, a plain
grpcio server with the same thread count whose handlers do no work: each parses the same
request and returns a constant reply of the same shape and about the same size (for Score a
result with patterns, decomposition and one payment; for Waits two waits; for the bulk forms
one outcome per item carrying the item's id and a constant result with one pattern and a
decomposition, copied from one prebuilt message). Each scenario then runs against both, in
the same run, for calls/s, items/s, p50/p95/p99 latency, errors by status code, reply bytes
and server CPU per item:

  unary Score, Waits, ValidateMove   (``--concurrency`` calls in flight, default 64)
  ScoreBatch                         (``--batch`` hands a message, default 1,000)
  ScoreStream                        (``--streams`` streams, ``--batch`` hands a message)
  batch-cold                         ScoreBatch over hands sent nowhere else, each once
                                     (the engine's memo tables cannot help: its own cost)
  stream-cold                        ScoreStream, the same, over hands of its own

The workload is ``--pool`` (default 50,000) distinct random winning Sichuan hands; every
message of the bulk scenarios holds different hands. Unary scenarios never send a hand twice
while the pool lasts (warm-up and rounds go on where the last run stopped), so each call is
one the engine has not memoized. Before the first bulk run the service gets one ScoreBatch
pass over the pool: ``batch`` and ``stream`` measure a server that has seen those hands (the
engine's memo tables warm: the warm rows), ``batch-cold`` and ``stream-cold`` one that has
not (the cold rows: each over its own hands, sent once). The client sends
pre-serialized requests and does not parse replies, so its cost is the same for both servers.
``--target HOST:PORT`` measures a running server instead (no baseline then), and
``--seconds 600 --scenarios score --rss-every 60`` is the soak (server RSS sampled).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent import futures
from dataclasses import dataclass, field
from typing import Any

import grpc

from .config import DEFAULT_THREADS
from .pb import pb2

SERVICE = "/mahjong.v1.MahjongRules/"
ALLOWED_HOSTS = ("127.0.0.1", "localhost", "[::1]")

# ------------------------------------------------------------------ data


def _random_hand(rng: random.Random) -> tuple[str, str, str]:
    """A random standard winning hand in one or two suits: (text, win tile, missing suit)."""
    while True:
        suits = rng.sample("mps", rng.choice((1, 2, 2, 2)))
        counts = {s: [0] * 9 for s in suits}
        for _ in range(4):
            s = rng.choice(suits)
            if rng.random() < 0.7:
                r = rng.randrange(7)
                for k in range(3):
                    counts[s][r + k] += 1
            else:
                counts[s][rng.randrange(9)] += 3
        s = rng.choice(suits)
        counts[s][rng.randrange(9)] += 2
        if all(c <= 4 for cs in counts.values() for c in cs):
            break
    text = "".join(
        "".join(str(r + 1) * c for r, c in enumerate(cs)) + s for s, cs in counts.items() if any(cs)
    )
    held = [f"{r + 1}{s}" for s, cs in counts.items() for r, c in enumerate(cs) if c]
    missing = next(x for x in "mps" if x not in suits)
    return text, rng.choice(held), missing


def distinct_hands(rng: random.Random, n: int, seen: set[str]) -> list[tuple[str, str, str]]:
    """``n`` random winning hands whose texts are all different and not in ``seen`` (updated)."""
    out: list[tuple[str, str, str]] = []
    tries = 0
    while len(out) < n:
        tries += 1
        if tries > 50 * n + 1000:
            raise SystemExit(f"could not draw {n} distinct hands")
        h = _random_hand(rng)
        if h[0] not in seen:
            seen.add(h[0])
            out.append(h)
    return out


def _minus(text: str, tile: str) -> str:
    """Remove one copy of ``tile`` from concealed suit-run text."""
    out, digits = [], ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        else:
            if ch == tile[1] and tile[0] in digits:
                digits = digits.replace(tile[0], "", 1)
            if digits:
                out.append(digits + ch)
            digits = ""
    return "".join(out)


@dataclass
class Workload:
    score: list[bytes]
    waits: list[bytes]
    validate: list[bytes]
    batch: list[bytes]
    stream: list[bytes]
    batch_size: int
    cold: list[bytes] = field(default_factory=list)
    cold_stream: list[bytes] = field(default_factory=list)


def _bulk_messages(hands: list[tuple[str, str, str]], batch_size: int) -> list[list[pb2.ScoreItem]]:
    msgs = []
    for m in range(max(1, len(hands) // batch_size)):
        items = []
        for j in range(batch_size):
            text, win, _ = hands[(m * batch_size + j) % len(hands)]
            items.append(pb2.ScoreItem(id=str(j), hand=pb2.Hand(text=text), win_tile=pb2.Tile(text=win)))
        msgs.append(items)
    return msgs


def build_workload(
    pool: int, batch_size: int, seed: int = 1, cold_pool: int = 0, cold_stream_pool: int = 0
) -> Workload:
    """``pool`` distinct hands for every scenario; the bulk messages split the pool (each
    message different hands); ``cold_pool`` and ``cold_stream_pool`` more distinct hands, in
    ScoreBatch and ScoreStream messages of their own."""
    rng = random.Random(seed)
    seen: set[str] = set()
    hands = distinct_hands(rng, pool, seen)
    suit = {"m": pb2.SUIT_M, "p": pb2.SUIT_P, "s": pb2.SUIT_S}
    score, waits, validate = [], [], []
    for i, (text, win, missing) in enumerate(hands):
        ctx = pb2.WinContext(sichuan=pb2.SichuanContext(winner=i % 4, discarder=(i + 1) % 4))
        score.append(
            pb2.ScoreRequest(
                ruleset="sichuan", hand=pb2.Hand(text=text), win_tile=pb2.Tile(text=win), context=ctx
            ).SerializeToString()
        )
        waits_request = pb2.WaitsRequest(ruleset="sichuan", hand=pb2.Hand(text=_minus(text, win)))
        waits.append(waits_request.SerializeToString())
        state = pb2.TableView(
            seat=0,
            hand=pb2.Hand(text=text),
            phase="turn",
            wall_count=30,
            sichuan=pb2.SichuanView(missing_suit=suit[missing]),
        )
        validate.append(
            pb2.ValidateMoveRequest(
                ruleset="sichuan", state=state, move=pb2.Move(kind="discard", tiles=[pb2.Tile(text=win)])
            ).SerializeToString()
        )
    batch, stream = [], []
    for items in _bulk_messages(hands, batch_size):
        batch.append(pb2.ScoreBatchRequest(ruleset="sichuan", items=items).SerializeToString())
        stream.append(pb2.ScoreStreamRequest(ruleset="sichuan", items=items).SerializeToString())
    cold, cold_stream = [], []
    if cold_pool:
        for items in _bulk_messages(distinct_hands(rng, cold_pool, seen), batch_size):
            cold.append(pb2.ScoreBatchRequest(ruleset="sichuan", items=items).SerializeToString())
    if cold_stream_pool:
        for items in _bulk_messages(distinct_hands(rng, cold_stream_pool, seen), batch_size):
            cold_stream.append(pb2.ScoreStreamRequest(ruleset="sichuan", items=items).SerializeToString())
    return Workload(score, waits, validate, batch, stream, batch_size, cold, cold_stream)


# ------------------------------------------------------------------ baseline server


def _pattern(pid: str, name: str, value: int) -> pb2.PatternScore:
    return pb2.PatternScore(id=pid, name=name, value=value)


def _constant_result(payment: bool) -> pb2.ScoreResult:
    """A typical ScoreResult of the workload: one pattern, a decomposition (pair, four sets)
    and, when the request says who discarded, one payment."""
    r = pb2.ScoreResult(
        value=2,
        multiplier=4,
        value_uncapped=2,
        shape="standard",
        unit=pb2.VALUE_UNIT_FAN,
        patterns=[_pattern("qingyise", "清一色", 2)],
        decomposition=pb2.Decomposition(pair_tile_id=4, chow_tile_ids=[0, 3, 6], pung_tile_ids=[8]),
    )
    if payment:
        r.payments.add(from_seat=1, to_seat=0, amount=4, reason="win", event_index=-1)
        r.total = 4
    return r


def _constant_waits() -> pb2.WaitsResponse:
    """Two waits with their patterns (the workload averages 2.2 waits a hand)."""
    out = pb2.WaitsResponse(max_discard_value=1)
    for tid, text in ((1, "2m"), (4, "5m")):
        out.waits.add(
            tile_id=tid,
            tile=text,
            discard_value=1,
            self_drawn_value=1,
            unseen=3,
            discard_patterns=[_pattern("pinghu", "平胡", 0), _pattern("gen", "根", 1)],
            self_drawn_patterns=[_pattern("pinghu", "平胡", 0), _pattern("gen", "根", 1)],
        )
    return out


BASELINE_DESCRIPTION = (
    "parses the request; unary: returns a prebuilt reply of the same type and typical size; "
    "bulk: one outcome per item (its id + a copy of one prebuilt ScoreResult)"
)


def serve_baseline(threads: int) -> None:
    """A grpcio server whose handlers do no work for the same methods and message types: each
    parses the request and returns a constant reply of the same shape (see the module doc)."""
    score_reply = pb2.ScoreResponse(result=_constant_result(payment=True))
    waits_reply = _constant_waits()
    validate_reply = pb2.ValidateMoveResponse(legal=True)
    item_result = _constant_result(payment=False)

    def unary(reply: Any) -> Callable[[Any, grpc.ServicerContext], Any]:
        def handler(request: Any, context: grpc.ServicerContext) -> Any:
            return reply

        return handler

    def outcomes(request: Any, out: Any) -> None:
        add = out.outcomes.add
        for item in request.items:
            add(id=item.id, result=item_result)

    def batch(request: Any, context: grpc.ServicerContext) -> Any:
        out = pb2.ScoreBatchResponse()
        outcomes(request, out)
        return out

    def stream(it: Iterator[Any], context: grpc.ServicerContext) -> Iterator[Any]:
        for request in it:
            out = pb2.ScoreStreamResponse()
            outcomes(request, out)
            yield out

    ser = lambda m: m.SerializeToString()  # noqa: E731
    uu = grpc.unary_unary_rpc_method_handler
    handlers = {
        "Score": uu(unary(score_reply), pb2.ScoreRequest.FromString, ser),
        "Waits": uu(unary(waits_reply), pb2.WaitsRequest.FromString, ser),
        "ValidateMove": uu(unary(validate_reply), pb2.ValidateMoveRequest.FromString, ser),
        "ScoreBatch": uu(batch, pb2.ScoreBatchRequest.FromString, ser),
        "ScoreStream": grpc.stream_stream_rpc_method_handler(stream, pb2.ScoreStreamRequest.FromString, ser),
    }
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=threads), options=[("grpc.so_reuseport", 0)])
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler("mahjong.v1.MahjongRules", handlers),)
    )
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    print(f"LISTENING 127.0.0.1:{port}", flush=True)
    try:
        server.wait_for_termination()
    except KeyboardInterrupt:
        server.stop(0)


# ------------------------------------------------------------------ driving load


@dataclass
class Result:
    name: str
    calls: int = 0
    items: int = 0
    seconds: float = 0.0
    reply_bytes: int = 0
    server_cpu: float = 0.0
    latencies: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)

    def pct(self, q: float) -> float:
        if not self.latencies:
            return float("nan")
        xs = sorted(self.latencies)
        return xs[min(len(xs) - 1, int(q * len(xs)))] * 1000

    @property
    def rate(self) -> float:
        return self.calls / self.seconds if self.seconds else 0.0

    @property
    def item_rate(self) -> float:
        return self.items / self.seconds if self.seconds else 0.0

    def add(self, other: Result) -> None:
        self.calls += other.calls
        self.items += other.items
        self.seconds += other.seconds
        self.reply_bytes += other.reply_bytes
        self.server_cpu += other.server_cpu
        self.latencies += other.latencies
        self.errors.update(other.errors)

    def row(self) -> dict[str, Any]:
        ok = len(self.latencies)
        return {
            "scenario": self.name,
            "calls": self.calls,
            "calls_per_s": round(self.rate, 1),
            "items_per_s": round(self.item_rate, 1),
            "p50_ms": round(self.pct(0.50), 3),
            "p95_ms": round(self.pct(0.95), 3),
            "p99_ms": round(self.pct(0.99), 3),
            "errors": dict(self.errors),
            "reply_bytes_per_item": round(self.reply_bytes / self.items, 1) if self.items else None,
            "server_cpu_us_per_item": round(self.server_cpu / self.items * 1e6, 2) if self.items else None,
            "ok_calls": ok,
        }


def run_unary(
    channel: grpc.Channel,
    name: str,
    method: str,
    payloads: list[bytes],
    items_per_call: int,
    concurrency: int,
    seconds: float,
    max_calls: int,
    start: int = 0,
) -> Result:
    """``concurrency`` calls in flight for ``seconds`` (at most ``max_calls``), sending
    ``payloads`` in turn from index ``start``."""
    call: Any = channel.unary_unary(SERVICE + method)
    res = Result(name)
    lock = threading.Lock()
    done = threading.Event()
    issued = 0
    inflight = 0
    stop_at = time.perf_counter() + seconds

    def issue() -> None:
        nonlocal issued, inflight
        with lock:
            if done.is_set() or issued >= max_calls or time.perf_counter() >= stop_at:
                if inflight == 0:
                    done.set()
                return
            payload = payloads[(start + issued) % len(payloads)]
            issued += 1
            inflight += 1
        t0 = time.perf_counter()
        fut = call.future(payload, timeout=30)

        def on_done(f: Any, t0: float = t0) -> None:
            finish(f, t0)

        fut.add_done_callback(on_done)

    def finish(f: Any, t0: float) -> None:
        nonlocal inflight
        dt = time.perf_counter() - t0
        err = f.exception()
        with lock:
            inflight -= 1
            res.calls += 1
            if err is None:
                res.items += items_per_call
                res.reply_bytes += len(f.result())
                res.latencies.append(dt)
            else:
                res.errors[err.code().name] += 1
        issue()

    t_start = time.perf_counter()
    for _ in range(concurrency):
        issue()
    done.wait(seconds + 60)
    res.seconds = time.perf_counter() - t_start
    return res


def run_stream(
    channel: grpc.Channel,
    name: str,
    payloads: list[bytes],
    items_per_msg: int,
    streams: int,
    window: int,
    seconds: float,
    max_calls: int,
    start: int = 0,
    once: bool = False,
) -> Result:
    """``streams`` streams, ``window`` messages in flight each; ``once``: the streams share one
    walk through ``payloads`` (no message sent twice), else each walks from its own offset."""
    call: Any = channel.stream_stream(SERVICE + "ScoreStream")
    res = Result(name)
    lock = threading.Lock()
    stop_at = time.perf_counter() + seconds
    budget = [max_calls]
    shared = [start]

    def one_stream(k: int) -> None:
        sent: list[float] = []
        credits = threading.Semaphore(window)

        def requests() -> Iterator[bytes]:
            i = start + k * len(payloads) // max(1, streams)
            while True:
                credits.acquire()
                with lock:
                    if time.perf_counter() >= stop_at or budget[0] <= 0:
                        break
                    budget[0] -= 1
                    if once:
                        i = shared[0]
                        shared[0] += 1
                    else:
                        i += 1
                sent.append(time.perf_counter())
                yield payloads[i % len(payloads)]

        got = 0
        try:
            for reply in call(requests(), timeout=seconds + 60):
                dt = time.perf_counter() - sent[got]
                got += 1
                with lock:
                    res.calls += 1
                    res.items += items_per_msg
                    res.reply_bytes += len(reply)
                    res.latencies.append(dt)
                credits.release()
        except grpc.RpcError as e:
            with lock:
                res.errors[e.code().name] += 1

    t_start = time.perf_counter()
    threads = [threading.Thread(target=one_stream, args=(k,)) for k in range(streams)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    res.seconds = time.perf_counter() - t_start
    return res


# ------------------------------------------------------------------ processes


def _spawn(args: list[str]) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith("LISTENING "):
        proc.kill()
        raise SystemExit(f"server did not start: {' '.join(args)}")
    return proc, line.split()[1]


def _rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def _cpu_seconds(pid: int | None) -> float:
    """User + system CPU time of process ``pid`` (all its threads) so far."""
    if pid is None:
        return 0.0
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _check_target(target: str) -> None:
    host = target.rsplit(":", 1)[0]
    if host not in ALLOWED_HOSTS:
        raise SystemExit(f"refusing to load {target}: the load generator targets 127.0.0.1 only")


class RssSampler:
    """Prints the server's RSS every ``every`` seconds while a run goes on (the soak)."""

    def __init__(self, pid: int | None, every: float) -> None:
        self.pid, self.every = pid, every
        self.samples: list[tuple[float, float]] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._t0 = time.perf_counter()

    def __enter__(self) -> RssSampler:
        if self.pid is not None and self.every > 0:
            self._thread = threading.Thread(target=self._run, daemon=True)
            self._thread.start()
        return self

    def _run(self) -> None:
        assert self.pid is not None
        while not self._stop.wait(self.every):
            t, rss = time.perf_counter() - self._t0, _rss_mb(self.pid)
            self.samples.append((t, rss))
            print(f"# t={t:6.0f}s server RSS {rss:7.1f} MB", flush=True)

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()


SCENARIOS = ("score", "waits", "validate", "batch", "stream", "batch-cold", "stream-cold")
COLD = ("batch-cold", "stream-cold")  # each message sent once: one run, not rounds
DEFAULT_SCENARIOS = SCENARIOS


class _Cursor:
    """Where each (scenario, server) goes on in its payload list, so that warm-up and rounds
    do not repeat what was already sent (unary: no hand twice while the pool lasts)."""

    def __init__(self) -> None:
        self.at: dict[tuple[str, str], int] = {}
        self.warmed: set[str] = set()


def _measure(
    scen: str,
    ch: grpc.Channel,
    who: str,
    wl: Workload,
    a: argparse.Namespace,
    seconds: float,
    cur: _Cursor,
    cpu: Callable[[], float],
) -> Result:
    """Warm up (first round only), then measure one run; the server CPU of the measured run
    only is recorded."""
    name = f"{scen}/{who}"
    key = (scen, who)
    first = key not in cur.at
    start = cur.at.setdefault(key, 0)
    unary = {
        "score": ("Score", wl.score),
        "waits": ("Waits", wl.waits),
        "validate": ("ValidateMove", wl.validate),
    }
    if scen in unary:
        method, data = unary[scen]
        if first:  # a short warm-up on hands of its own, then the measured run on new ones
            start += run_unary(ch, "", method, data, 1, a.concurrency, min(0.5, seconds), 1000, start).calls
        c0 = cpu()
        r = run_unary(ch, name, method, data, 1, a.concurrency, seconds, a.max_calls, start)
    elif scen == "batch-cold":  # every message once: hands no server has seen
        c0 = cpu()
        n = len(wl.cold)
        r = run_unary(ch, name, "ScoreBatch", wl.cold, a.batch, a.batch_concurrency, seconds, n, start)
    elif scen == "stream-cold":  # the same for ScoreStream: every message once
        c0 = cpu()
        n = len(wl.cold_stream)
        r = run_stream(ch, name, wl.cold_stream, a.batch, a.streams, a.window, seconds, n, start, once=True)
    else:
        if who not in cur.warmed:
            # one pass over the pool first: the bulk figures are the steady state of a server
            # that has seen these hands (batch-cold is the other extreme)
            run_unary(ch, "", "ScoreBatch", wl.batch, a.batch, a.batch_concurrency, 120, len(wl.batch))
            cur.warmed.add(who)
        c0 = cpu()
        if scen == "batch":
            r = run_unary(
                ch, name, "ScoreBatch", wl.batch, a.batch, a.batch_concurrency, seconds, a.max_calls, start
            )
        else:
            r = run_stream(ch, name, wl.stream, a.batch, a.streams, a.window, seconds, a.max_calls, start)
    r.server_cpu = cpu() - c0
    cur.at[key] = start + r.calls
    return r


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m service.loadtest", description=__doc__.split("\n\n")[0])
    p.add_argument("--target", help="a running server on 127.0.0.1:PORT (default: start one)")
    p.add_argument("--seconds", type=float, default=5.0, help="duration of each scenario (max 900)")
    p.add_argument("--max-calls", type=int, default=2_000_000, help="call cap per scenario")
    p.add_argument("--concurrency", type=int, default=64, help="unary calls in flight")
    p.add_argument("--batch", type=int, default=1000, help="hands per ScoreBatch/ScoreStream message")
    p.add_argument("--batch-concurrency", type=int, default=4, help="ScoreBatch calls in flight")
    p.add_argument("--streams", type=int, default=2, help="concurrent ScoreStream streams")
    p.add_argument("--window", type=int, default=2, help="stream messages in flight per stream")
    p.add_argument("--pool", type=int, default=50_000, help="distinct hands in the workload")
    p.add_argument(
        "--cold-pool", type=int, default=100_000, help="distinct hands for batch-cold, and for stream-cold"
    )
    p.add_argument("--rounds", type=int, default=1, help="alternate service/baseline this many times")
    p.add_argument(
        "--scenarios", default=",".join(DEFAULT_SCENARIOS), help="comma list of " + ",".join(SCENARIOS)
    )
    p.add_argument("--no-baseline", action="store_true", help="skip the empty-handler baseline")
    p.add_argument("--no-metrics", action="store_true", help="start the service without /metrics")
    p.add_argument(
        "--threads", type=int, default=DEFAULT_THREADS, help="server threads for unary calls (both servers)"
    )
    p.add_argument("--rss-every", type=float, default=0.0, help="print the server's RSS every N seconds")
    p.add_argument("--json", action="store_true", help="print JSON rows")
    p.add_argument("--serve-baseline", action="store_true", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.serve_baseline:
        serve_baseline(a.threads)
        return 0
    seconds = min(max(a.seconds, 0.1), 900.0)
    rounds = min(max(a.rounds, 1), 20)
    scenarios = [s for s in a.scenarios.split(",") if s]
    for s in scenarios:
        if s not in SCENARIOS:
            raise SystemExit(f"unknown scenario {s!r}")
    procs: list[subprocess.Popen[str]] = []
    pids: dict[str, int | None] = {}
    try:
        if a.target:
            _check_target(a.target)
            target = a.target
            pids["service"] = None
        else:
            args = ["-m", "service", "--port", "0", "--workers", "1", "--reuse-port", "false"]
            args += ["--threads", str(a.threads), "--log-level", "WARNING", "--max-concurrent-calls", "10000"]
            if not a.no_metrics:
                args += ["--metrics-port", str(_free_port())]
            proc, target = _spawn(args)
            procs.append(proc)
            pids["service"] = proc.pid
        base_target = None
        if not a.no_baseline and not a.target:
            bproc, base_target = _spawn(
                ["-m", "service.loadtest", "--serve-baseline", "--threads", str(a.threads)]
            )
            procs.append(bproc)
            pids["baseline"] = bproc.pid
        cold = a.cold_pool if "batch-cold" in scenarios else 0
        cold_stream = a.cold_pool if "stream-cold" in scenarios else 0
        wl = build_workload(a.pool, a.batch, cold_pool=cold, cold_stream_pool=cold_stream)
        opts = [("grpc.max_receive_message_length", 64 << 20), ("grpc.max_send_message_length", 64 << 20)]
        rows: list[dict[str, Any]] = []
        print(
            f"# loadtest: {seconds:g}s per scenario x {rounds} round(s), {a.concurrency} unary in flight, "
            f"{a.batch} hands/message, {len(wl.score)} distinct hands, "
            f"service metrics {'off' if a.no_metrics else 'on'}, "
            f"{os.cpu_count()} cores shared by generator and servers",
            flush=True,
        )
        print(f"# baseline: {BASELINE_DESCRIPTION}", flush=True)
        server_pid = pids["service"]
        rss0 = _rss_mb(server_pid) if server_pid else float("nan")
        targets = [("service", target)] + ([("baseline", base_target)] if base_target else [])
        channels = {who: grpc.insecure_channel(tgt, options=opts) for who, tgt in targets}
        for ch in channels.values():
            grpc.channel_ready_future(ch).result(timeout=10)
        cursor = _Cursor()
        with RssSampler(server_pid, a.rss_every):
            for scen in scenarios:
                measured = {who: Result(f"{scen}/{who}") for who, _ in targets}
                paired: list[float] = []  # service / baseline in each round (same conditions)
                for _ in range(rounds if scen not in COLD else 1):
                    rates = {}
                    for who, _ in targets:
                        cpu = functools.partial(_cpu_seconds, pids.get(who))
                        span = seconds if scen in COLD else seconds / rounds
                        r = _measure(scen, channels[who], who, wl, a, span, cursor, cpu)
                        measured[who].add(r)
                        rates[who] = r.item_rate
                    if rates.get("baseline"):
                        paired.append(rates["service"] / rates["baseline"])
                ratio = None
                if "baseline" in measured and measured["baseline"].item_rate:
                    ratio = measured["service"].item_rate / measured["baseline"].item_rate
                for who, r in measured.items():
                    row = r.row()
                    if who == "service" and ratio is not None:
                        row["vs_baseline"] = round(ratio, 3)
                        row["vs_baseline_rounds"] = [round(x, 3) for x in paired]
                    rows.append(row)
                    if a.json:
                        print(json.dumps(row), flush=True)
                        continue
                    shown = ""
                    if who == "service" and ratio is not None:
                        shown = f"  = {ratio:.0%} of baseline"
                        if len(paired) > 1:
                            each = " ".join(f"{x:.0%}" for x in paired)
                            shown += f" (rounds: {each}; median {statistics.median(paired):.0%})"
                    cpu = row["server_cpu_us_per_item"]
                    print(
                        f"{row['scenario']:<20} {row['calls']:>8} calls {row['calls_per_s']:>9.1f} calls/s "
                        f"{row['items_per_s']:>10.1f} items/s  p50 {row['p50_ms']:.2f} "
                        f"p95 {row['p95_ms']:.2f} p99 {row['p99_ms']:.2f} ms  "
                        f"errors {row['errors'] or 0}  {row['reply_bytes_per_item']} B/item"
                        + (f"  server {cpu} us CPU/item" if cpu is not None and pids.get(who) else "")
                        + shown,
                        flush=True,
                    )
        for ch in channels.values():
            ch.close()
        if server_pid:
            print(f"# server RSS: {rss0:.1f} MB at start, {_rss_mb(server_pid):.1f} MB at end", flush=True)
        return 0
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()


if __name__ == "__main__":
    raise SystemExit(main())
