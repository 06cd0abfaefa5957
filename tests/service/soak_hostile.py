"""Mixed soak with hostile requests: ``python tests/service/soak_hostile.py --minutes 10``.

Starts the real service (``python -m service``, one worker, 127.0.0.1, port 0) and sends, from
``--clients`` threads for ``--minutes`` (at most 15) and at most ``--max-calls`` calls:

- valid traffic for every rule set and every method, built from the rules' worked cases
  (tests/cases/*.jsonl): Score, ScoreBatch and ScoreStream (the case and its neighbours), Waits
  (the case's hand without its winning tile), ValidateMove and LegalMoves (the hand on its turn),
  Settle (the win as an event log), DescribeRuleset, ListRulesets;
- ``--hostile`` (default 5 %) hostile requests: the fuzzer's mutations of every method
  (tests/service/test_fuzz_wire.py: bytes flipped, inserted, deleted, fields set to extreme or
  unknown values and enum numbers), oversized fields (a 1 MB unknown field in options, 600
  events, 5,000 visible tiles, a 5,500-character rule set name), options nesting 100 unknown
  groups, an unknown PendingKind, a 16 KiB hand text, deadline abuse (a 10,000-hand batch with a
  1 ms deadline) and idle streams (a ScoreStream and a health Watch opened and left idle for a
  second, then dropped).

Prints the calls by kind, method and status, the server's RSS every ``--rss-every`` seconds and
the RSS slope after warm-up (the first ``--warmup`` fraction of the run) by least squares.
Exits 1 if any call was INTERNAL or UNKNOWN."""

from __future__ import annotations

import argparse
import collections
import os
import random
import re
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [_HERE, os.path.dirname(os.path.dirname(_HERE))]  # the tests' helpers, the repository

import test_fuzz_wire as fz  # noqa: E402
import test_ops_cases as oc  # noqa: E402
from svc_helpers import ld, varint  # noqa: E402

from mjcore.tiles import format_tiles, parse_tiles  # noqa: E402
from service import convert as cv  # noqa: E402
from service.loadtest import _rss_mb, _spawn  # noqa: E402
from service.pb import pb2  # noqa: E402

MAX_MINUTES = 15.0
_Call = tuple[str, bytes]  # (method, serialized request)


def _without(hand_text: str, win_tile: str) -> str | None:
    """The case's hand without one copy of its winning tile (a hand to ask the waits of)."""
    concealed, *melds = hand_text.split(" ")
    try:
        tiles = list(parse_tiles(concealed))
        tiles.remove(parse_tiles(win_tile)[0])
    except Exception:  # a flower win, a tile not in the concealed part: no Waits request
        return None
    return " ".join([format_tiles(tiles), *melds])


def _view_part(ruleset: str, context: dict[str, Any]) -> Any:
    """The rule set's TableView part with the case's context keys the view also has."""
    view = pb2.TableView()
    part = getattr(view, ruleset)
    part.SetInParent()
    for key, value in context.items():
        if key in part.DESCRIPTOR.fields_by_name:
            try:
                cv.fill(part, {key: value})
            except Exception:  # another type in the view than in the context: left out
                part.ClearField(key)
    return part


def valid_calls() -> list[_Call]:
    """Valid requests (mostly answered OK; a case's expected refusal stays a refusal) of every
    method for every rule set, from the rules' worked cases."""
    out: list[_Call] = []
    by_ruleset: dict[str, list[dict[str, Any]]] = collections.defaultdict(list)
    for case in oc.CASES:
        by_ruleset[case["ruleset"]].append(case)
    for ruleset, cases in sorted(by_ruleset.items()):
        out.append(("DescribeRuleset", pb2.DescribeRulesetRequest(ruleset=ruleset).SerializeToString()))
        out.append(("ListRulesets", b""))
        for n, case in enumerate(cases):
            item, options = oc._item(case), oc._options(case)
            score = pb2.ScoreRequest(
                ruleset=ruleset, hand=item.hand, win_tile=item.win_tile, self_drawn=item.self_drawn
            )
            if item.HasField("context"):
                score.context.CopyFrom(item.context)
            if options is not None:
                score.options.CopyFrom(options)
            out.append(("Score", score.SerializeToString()))
            same = [c for c in cases if c["options"] == case["options"]][:8]
            for cls, method in (
                (pb2.ScoreBatchRequest, "ScoreBatch"),
                (pb2.ScoreStreamRequest, "ScoreStream"),
            ):
                bulk = cls(ruleset=ruleset, items=[oc._item(c) for c in same])
                if options is not None:
                    bulk.options.CopyFrom(options)
                if n % 2 == (method == "ScoreStream"):
                    out.append((method, bulk.SerializeToString()))
            rest = _without(case["hand"], case["win_tile"])
            if rest is not None:
                waits = pb2.WaitsRequest(ruleset=ruleset, hand=pb2.Hand(text=rest))
                if item.HasField("context"):
                    waits.context.CopyFrom(item.context)
                if options is not None:
                    waits.options.CopyFrom(options)
                out.append(("Waits", waits.SerializeToString()))
            view = pb2.TableView(
                seat=0, hand=item.hand, phase="turn", drawn_tile=item.win_tile, wall_count=40
            )
            getattr(view, ruleset).CopyFrom(_view_part(ruleset, case["context"]))
            first = re.match(r"\d", case["hand"]) and parse_tiles(case["hand"].split(" ")[0])[0]
            move = pb2.Move(kind="discard", tiles=[pb2.Tile(id=first or 0)])
            for method, req in (
                ("ValidateMove", pb2.ValidateMoveRequest(ruleset=ruleset, state=view, move=move)),
                (
                    "ValidateMove",
                    pb2.ValidateMoveRequest(ruleset=ruleset, state=view, move=pb2.Move(kind="hu")),
                ),
                ("LegalMoves", pb2.LegalMovesRequest(ruleset=ruleset, state=view)),
            ):
                if options is not None:
                    req.options.CopyFrom(options)
                out.append((method, req.SerializeToString()))
            win = pb2.WinEvent(seat=0, hand=item.hand, win_tile=item.win_tile, self_drawn=item.self_drawn)
            if not item.self_drawn:
                win.discarder_seat = 3  # the left seat of seat 0
            if item.HasField("context"):
                win.context.CopyFrom(item.context)
            settle = pb2.SettleRequest(ruleset=ruleset, events=[pb2.Event(win=win)], dealer_seat=0)
            if options is not None:
                settle.options.CopyFrom(options)
            out.append(("Settle", settle.SerializeToString()))
    return out


def attacks() -> list[_Call]:
    """The known attacks (each a test in tests/service/test_ops_*.py)."""
    score = fz.SEEDS["Score"].SerializeToString()
    batch = fz.SEEDS["ScoreBatch"]
    opt_field = pb2.ScoreBatchRequest.DESCRIPTOR.fields_by_name["options"].number
    plain_batch = pb2.ScoreBatchRequest(ruleset="sichuan", items=batch.items).SerializeToString()
    groups = varint(1000 << 3 | 3) * 100 + varint(1000 << 3 | 4) * 100
    many = pb2.SettleRequest(ruleset="sichuan", events=[fz._EVENTS[0]] * 600).SerializeToString()
    visible = pb2.WaitsRequest(ruleset="sichuan", hand=fz._H, visible_tile_ids=[1] * 5000)
    long_hand = pb2.ScoreRequest(
        ruleset="sichuan", hand=pb2.Hand(text="1m" * 8192), win_tile=pb2.Tile(text="1m")
    )
    return [
        ("ScoreBatch", plain_batch + ld(opt_field, ld(1000, b"\x01" * (1 << 20)))),
        ("Score", score + ld(pb2.ScoreRequest.DESCRIPTOR.fields_by_name["options"].number, groups)),
        ("Settle", many),
        ("Waits", visible.SerializeToString()),
        ("DescribeRuleset", pb2.DescribeRulesetRequest(ruleset="x" * 5500).SerializeToString()),
        ("ValidateMove", bytes.fromhex("1a0a12040a02316d18034804")),  # PendingKind 4 (the bytes)
        ("Score", long_hand.SerializeToString()),
        (
            "Score",
            pb2.ScoreRequest(hand=fz._H, win_tile=pb2.Tile(text="5p")).SerializeToString(),
        ),  # no rule set
    ]


def _deadline_abuse(ch: grpc.Channel) -> None:
    items = [pb2.ScoreItem(id=str(i), hand=fz._H, win_tile=pb2.Tile(text="5p")) for i in range(10_000)]
    data = pb2.ScoreBatchRequest(ruleset="sichuan", items=items).SerializeToString()
    ch.unary_unary(fz.RULES + "ScoreBatch")(data, timeout=0.001)


def _idle_streams(ch: grpc.Channel) -> None:
    """A ScoreStream and a health Watch left idle for a second, then dropped."""
    release = threading.Event()

    def idle() -> Any:
        release.wait(1.0)
        return
        yield  # an iterator that sends nothing

    stream = ch.stream_stream(fz.RULES + "ScoreStream")(idle(), timeout=5)
    watch = health_pb2_grpc.HealthStub(ch).Watch(health_pb2.HealthCheckRequest(), timeout=5)
    time.sleep(1.0)
    stream.cancel()
    watch.cancel()


SPECIAL: dict[str, Callable[[grpc.Channel], None]] = {
    "deadline": _deadline_abuse,
    "idle_streams": _idle_streams,
}


def _slope(samples: list[tuple[float, float]]) -> float:
    """Least-squares slope of (seconds, MB) samples, in MB a minute."""
    n = len(samples)
    if n < 2:
        return float("nan")
    mt = sum(t for t, _ in samples) / n
    mr = sum(r for _, r in samples) / n
    var = sum((t - mt) ** 2 for t, _ in samples)
    return 60.0 * sum((t - mt) * (r - mr) for t, r in samples) / var if var else float("nan")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--minutes", type=float, default=2.0)
    p.add_argument("--max-calls", type=int, default=5_000_000)
    p.add_argument("--clients", type=int, default=4)
    p.add_argument("--hostile", type=float, default=0.05)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rss-every", type=float, default=30.0, help="seconds between RSS samples")
    p.add_argument("--warmup", type=float, default=0.25, help="fraction of the run before the slope")
    a = p.parse_args(argv)
    seconds = 60.0 * min(a.minutes, MAX_MINUTES)
    proc, target = _spawn(
        ["-m", "service", "--host", "127.0.0.1", "--port", "0", "--workers", "1", "--reuse-port", "false"]
        + ["--log-level", "ERROR"]
    )
    counts: collections.Counter[tuple[str, str, str]] = collections.Counter()
    bad: list[str] = []
    lock = threading.Lock()
    valid, known = valid_calls(), attacks()
    stop = time.monotonic() + seconds
    sent = [0]

    def client(k: int) -> None:
        rng = random.Random(a.seed * 1000 + k)
        ch = grpc.insecure_channel(target, options=[("grpc.max_send_message_length", 16 << 20)])
        callers = {m: fz._caller(ch, m) for m in fz.SEEDS}
        while time.monotonic() < stop:
            with lock:
                if sent[0] >= a.max_calls:
                    break
                sent[0] += 1
            hostile = rng.random() < a.hostile
            data = b""
            if hostile and rng.random() < 0.02:
                method = rng.choice(sorted(SPECIAL))
            elif hostile and rng.random() < 0.3:
                method, data = rng.choice(known)
            elif hostile:
                method = rng.choice(list(fz.SEEDS))
                data = fz._request(method, rng)
            else:
                method, data = rng.choice(valid)
            try:
                if method in SPECIAL:
                    SPECIAL[method](ch)
                else:
                    callers[method](data)
                code = "OK"
            except grpc.RpcError as e:
                code = e.code().name
                if e.code() in fz.BAD:
                    with lock:
                        bad.append(f"{method} {code} {e.details()} {data[:200].hex()}")
            with lock:
                counts[("hostile" if hostile else "valid", method, code)] += 1
        ch.close()

    samples: list[tuple[float, float]] = []
    t0 = time.monotonic()
    try:
        samples.append((0.0, _rss_mb(proc.pid)))
        print(f"start: server RSS {samples[0][1]:.1f} MB; {len(valid)} valid requests in the mix", flush=True)
        threads = [threading.Thread(target=client, args=(k,)) for k in range(a.clients)]
        for t in threads:
            t.start()
        while any(t.is_alive() for t in threads):
            threads[0].join(max(0.1, min(a.rss_every, stop - time.monotonic() + 0.1)))
            if time.monotonic() < stop or not samples[-1][0]:
                samples.append((time.monotonic() - t0, _rss_mb(proc.pid)))
                print(f"t+{samples[-1][0]:.0f} s: RSS {samples[-1][1]:.1f} MB, {sent[0]} calls", flush=True)
        for t in threads:
            t.join()
        samples.append((time.monotonic() - t0, _rss_mb(proc.pid)))
    finally:
        proc.terminate()
        proc.wait(30)
    elapsed = time.monotonic() - t0
    total = sum(counts.values())
    print(f"{total} calls in {elapsed:.0f} s; by kind, method and status:")
    for (kind, method, code), n in sorted(counts.items()):
        print(f"  {kind:8} {method:16} {code:20} {n}")
    after = [s for s in samples if s[0] >= a.warmup * elapsed]
    rss = ", ".join(f"{t:.0f}s {r:.1f}" for t, r in samples)
    print(f"RSS samples (s MB): {rss}")
    since = a.warmup * elapsed
    print(f"RSS slope after warm-up ({len(after)} samples from {since:.0f} s): {_slope(after):+.2f} MB/min")
    print(f"INTERNAL/UNKNOWN: {len(bad)}")
    for line in bad[:10]:
        print("  " + line)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
