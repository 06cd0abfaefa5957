"""Load generator: ``python -m service.loadtest`` (bounded in calls and seconds, 127.0.0.1 only).

By default it starts two server processes on free loopback ports: the real service
(``python -m service``, one worker) and a baseline, a plain grpcio server with the same
thread count whose handlers do nothing (they parse the request and return an empty reply of
the same message type; for the bulk forms, one empty outcome per item, so the message shapes
match). Each scenario then runs against both, in the same run, for calls/s, items/s,
p50/p95/p99 latency and errors by status code:

  unary Score, Waits, ValidateMove   (``--concurrency`` calls in flight, default 64)
  ScoreBatch                         (``--batch`` hands a message, default 1,000)
  ScoreStream                        (``--streams`` streams, ``--batch`` hands a message)

The client sends pre-serialized requests and does not parse replies, so its cost is the same
for both servers. ``--target HOST:PORT`` measures a running server instead (no baseline
then), and ``--seconds 600 --scenarios score`` with the server's RSS sampled is the soak.
"""

from __future__ import annotations

import argparse
import json
import os
import random
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

from service.pb import pb2

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


def build_workload(pool: int, batch_size: int, seed: int = 1) -> Workload:
    rng = random.Random(seed)
    hands = [_random_hand(rng) for _ in range(pool)]
    suit = {"m": pb2.SUIT_M, "p": pb2.SUIT_P, "s": pb2.SUIT_S}
    score, waits, validate = [], [], []
    for i, (text, win, missing) in enumerate(hands):
        ctx = pb2.WinContext(winner_seat=i % 4, discarder_seat=(i + 1) % 4)
        score.append(
            pb2.ScoreRequest(
                hand=pb2.Hand(text=text), win_tile=pb2.Tile(text=win), context=ctx
            ).SerializeToString()
        )
        waits.append(pb2.WaitsRequest(hand=pb2.Hand(text=_minus(text, win))).SerializeToString())
        state = pb2.TableView(
            seat=0, hand=pb2.Hand(text=text), phase=pb2.PHASE_TURN, missing_suit=suit[missing], wall_count=30
        )
        validate.append(
            pb2.ValidateMoveRequest(
                state=state, move=pb2.Move(kind=pb2.MOVE_KIND_DISCARD, tiles=[pb2.Tile(text=win)])
            ).SerializeToString()
        )
    batch, stream = [], []
    n_msgs = max(1, min(32, pool // batch_size))
    for m in range(n_msgs):
        items = []
        for j in range(batch_size):
            text, win, _ = hands[(m * batch_size + j) % pool]
            items.append(pb2.ScoreItem(id=str(j), hand=pb2.Hand(text=text), win_tile=pb2.Tile(text=win)))
        batch.append(pb2.ScoreBatchRequest(items=items).SerializeToString())
        stream.append(pb2.ScoreStreamRequest(items=items).SerializeToString())
    return Workload(score, waits, validate, batch, stream, batch_size)


# ------------------------------------------------------------------ baseline server


def _empty_unary(resp: Callable[[], Any], req_type: Any) -> grpc.RpcMethodHandler[Any, Any]:
    def handler(request: Any, context: grpc.ServicerContext) -> Any:
        return resp()

    return grpc.unary_unary_rpc_method_handler(
        handler, request_deserializer=req_type.FromString, response_serializer=lambda m: m.SerializeToString()
    )


def _empty_outcomes(request: Any) -> list[Any]:
    return [pb2.ScoreOutcome(id=item.id, result=pb2.ScoreResult()) for item in request.items]


def serve_baseline(threads: int) -> None:
    """A grpcio server with empty handlers for the same methods and message types."""

    def batch(request: Any, context: grpc.ServicerContext) -> Any:
        return pb2.ScoreBatchResponse(outcomes=_empty_outcomes(request))

    def stream(it: Iterator[Any], context: grpc.ServicerContext) -> Iterator[Any]:
        for request in it:
            yield pb2.ScoreStreamResponse(outcomes=_empty_outcomes(request))

    ser = lambda m: m.SerializeToString()  # noqa: E731
    handlers = {
        "Score": _empty_unary(pb2.ScoreResponse, pb2.ScoreRequest),
        "Waits": _empty_unary(pb2.WaitsResponse, pb2.WaitsRequest),
        "ValidateMove": _empty_unary(pb2.ValidateMoveResponse, pb2.ValidateMoveRequest),
        "ScoreBatch": grpc.unary_unary_rpc_method_handler(batch, pb2.ScoreBatchRequest.FromString, ser),
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

    def row(self) -> dict[str, Any]:
        return {
            "scenario": self.name,
            "calls": self.calls,
            "calls_per_s": round(self.rate, 1),
            "items_per_s": round(self.item_rate, 1),
            "p50_ms": round(self.pct(0.50), 3),
            "p95_ms": round(self.pct(0.95), 3),
            "p99_ms": round(self.pct(0.99), 3),
            "errors": dict(self.errors),
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
) -> Result:
    call: Any = channel.unary_unary(SERVICE + method)
    res = Result(name)
    lock = threading.Lock()
    done = threading.Event()
    issued = 0
    inflight = 0
    stop_at = time.perf_counter() + seconds
    warm = 0.0

    def issue() -> None:
        nonlocal issued, inflight
        with lock:
            if done.is_set() or issued >= max_calls or time.perf_counter() >= stop_at:
                if inflight == 0:
                    done.set()
                return
            issued += 1
            inflight += 1
            payload = payloads[issued % len(payloads)]
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
                res.latencies.append(dt)
            else:
                res.errors[err.code().name] += 1
        issue()

    t_start = time.perf_counter()
    for _ in range(concurrency):
        issue()
    done.wait(seconds + 60)
    res.seconds = time.perf_counter() - t_start
    del warm
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
) -> Result:
    call: Any = channel.stream_stream(SERVICE + "ScoreStream")
    res = Result(name)
    lock = threading.Lock()
    stop_at = time.perf_counter() + seconds
    budget = [max_calls]

    def one_stream(k: int) -> None:
        sent: list[float] = []
        credits = threading.Semaphore(window)
        finished = threading.Event()

        def requests() -> Iterator[bytes]:
            i = k
            while True:
                credits.acquire()
                with lock:
                    if time.perf_counter() >= stop_at or budget[0] <= 0:
                        break
                    budget[0] -= 1
                sent.append(time.perf_counter())
                i += 1
                yield payloads[i % len(payloads)]
            finished.set()

        got = 0
        try:
            for _reply in call(requests(), timeout=seconds + 60):
                dt = time.perf_counter() - sent[got]
                got += 1
                with lock:
                    res.calls += 1
                    res.items += items_per_msg
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


def _check_target(target: str) -> None:
    host = target.rsplit(":", 1)[0]
    if host not in ALLOWED_HOSTS:
        raise SystemExit(f"refusing to load {target}: the load generator targets 127.0.0.1 only")


SCENARIOS = ("score", "waits", "validate", "batch", "stream")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m service.loadtest", description=__doc__.split("\n\n")[0])
    p.add_argument("--target", help="a running server on 127.0.0.1:PORT (default: start one)")
    p.add_argument("--seconds", type=float, default=5.0, help="duration of each scenario (max 900)")
    p.add_argument("--max-calls", type=int, default=200_000, help="call cap per scenario")
    p.add_argument("--concurrency", type=int, default=64, help="unary calls in flight")
    p.add_argument("--batch", type=int, default=1000, help="hands per ScoreBatch/ScoreStream message")
    p.add_argument("--batch-concurrency", type=int, default=4, help="ScoreBatch calls in flight")
    p.add_argument("--streams", type=int, default=2, help="concurrent ScoreStream streams")
    p.add_argument("--window", type=int, default=2, help="stream messages in flight per stream")
    p.add_argument("--pool", type=int, default=20_000, help="distinct hands in the workload")
    p.add_argument("--scenarios", default=",".join(SCENARIOS), help="comma list of " + ",".join(SCENARIOS))
    p.add_argument("--no-baseline", action="store_true", help="skip the empty-handler baseline")
    p.add_argument("--threads", type=int, default=10, help="server threads (both servers)")
    p.add_argument("--json", action="store_true", help="print JSON rows")
    p.add_argument("--serve-baseline", action="store_true", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.serve_baseline:
        serve_baseline(a.threads)
        return 0
    seconds = min(max(a.seconds, 0.1), 900.0)
    scenarios = [s for s in a.scenarios.split(",") if s]
    for s in scenarios:
        if s not in SCENARIOS:
            raise SystemExit(f"unknown scenario {s!r}")
    procs: list[subprocess.Popen[str]] = []
    try:
        if a.target:
            _check_target(a.target)
            target, server_pid = a.target, None
        else:
            proc, target = _spawn(
                [
                    "-m",
                    "service",
                    "--port",
                    "0",
                    "--workers",
                    "1",
                    "--reuse-port",
                    "false",
                    "--threads",
                    str(a.threads),
                    "--log-level",
                    "WARNING",
                    "--max-concurrent-calls",
                    "10000",
                ]
            )
            procs.append(proc)
            server_pid = proc.pid
        base_target = None
        if not a.no_baseline and not a.target:
            bproc, base_target = _spawn(
                ["-m", "service.loadtest", "--serve-baseline", "--threads", str(a.threads)]
            )
            procs.append(bproc)
        wl = build_workload(a.pool, a.batch)
        opts = [("grpc.max_receive_message_length", 64 << 20), ("grpc.max_send_message_length", 64 << 20)]
        rows: list[dict[str, Any]] = []
        print(
            f"# loadtest: {seconds:g}s per scenario, {a.concurrency} unary in flight, "
            f"{a.batch} hands/message, {os.cpu_count()} cores shared by generator and servers",
            flush=True,
        )
        rss0 = _rss_mb(server_pid) if server_pid else float("nan")
        for scen in scenarios:
            pairs = [("service", target)] + ([("baseline", base_target)] if base_target else [])
            measured: dict[str, Result] = {}
            for who, tgt in pairs:
                with grpc.insecure_channel(tgt, options=opts) as ch:
                    grpc.channel_ready_future(ch).result(timeout=10)
                    if scen in ("score", "waits", "validate"):
                        method, data = {
                            "score": ("Score", wl.score),
                            "waits": ("Waits", wl.waits),
                            "validate": ("ValidateMove", wl.validate),
                        }[scen]
                        # a short warm-up, then the measured run
                        run_unary(ch, "", method, data, 1, a.concurrency, min(0.5, seconds), 1000)
                        r = run_unary(
                            ch, f"{scen}/{who}", method, data, 1, a.concurrency, seconds, a.max_calls
                        )
                    elif scen == "batch":
                        run_unary(ch, "", "ScoreBatch", wl.batch, a.batch, a.batch_concurrency, 0.5, 20)
                        r = run_unary(
                            ch,
                            f"batch/{who}",
                            "ScoreBatch",
                            wl.batch,
                            a.batch,
                            a.batch_concurrency,
                            seconds,
                            a.max_calls,
                        )
                    else:
                        r = run_stream(
                            ch, f"stream/{who}", wl.stream, a.batch, a.streams, a.window, seconds, a.max_calls
                        )
                measured[who] = r
                row = r.row()
                rows.append(row)
            if "baseline" in measured:
                s, b = measured["service"], measured["baseline"]
                rows[-2]["vs_baseline"] = round(s.item_rate / b.item_rate, 3) if b.item_rate else None
            for r in measured.values():
                row = r.row()
                if a.json:
                    print(json.dumps(row), flush=True)
                else:
                    ratio = ""
                    if r is measured.get("service") and "baseline" in measured:
                        b = measured["baseline"]
                        ratio = f"  = {r.item_rate / b.item_rate:.0%} of baseline" if b.item_rate else ""
                    print(
                        f"{row['scenario']:<18} {row['calls']:>8} calls {row['calls_per_s']:>10.1f} calls/s "
                        f"{row['items_per_s']:>11.1f} items/s  p50 {row['p50_ms']:.2f} "
                        f"p95 {row['p95_ms']:.2f} p99 {row['p99_ms']:.2f} ms  "
                        f"errors {row['errors'] or 0}{ratio}",
                        flush=True,
                    )
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
