"""Mixed soak with hostile requests: ``python tests/service/soak_hostile.py --seconds 120``.

Starts the real service (``python -m service``, one worker, 127.0.0.1, port 0) and sends,
from ``--clients`` threads for ``--seconds`` (at most 900), valid Score / Waits / Settle /
ScoreBatch calls mixed with ``--hostile`` (default 5 %) hostile ones: the fuzzer's mutations
(tests/service/test_fuzz_wire.py) and the known attacks (a 1 MB unknown field in options, too
many events, too many visible tiles, options nesting 100 unknown groups, a 5,500-character rule
set name). Prints the calls by status, the INTERNAL/UNKNOWN count and the server's RSS at
the start, every 30 s and at the end. Exits 1 if any call was INTERNAL or UNKNOWN."""

from __future__ import annotations

import argparse
import collections
import os
import random
import sys
import threading
import time

import grpc

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import test_fuzz_wire as fz  # noqa: E402

from service.loadtest import _rss_mb, _spawn  # noqa: E402
from service.pb import pb2  # noqa: E402

RULES = "/mahjong.v1.MahjongRules/"
VALID = ["Score", "Score", "Score", "Waits", "Settle", "ScoreBatch", "ValidateMove", "LegalMoves"]


def _attacks() -> list[tuple[str, bytes]]:
    score = fz.SEEDS["Score"].SerializeToString()
    opt_field = pb2.ScoreBatchRequest.DESCRIPTOR.fields_by_name["options"].number
    big = b"\x01" * (1 << 20)

    def ld(number: int, body: bytes) -> bytes:
        return fz_varint(number << 3 | 2) + fz_varint(len(body)) + body

    groups = fz_varint(1000 << 3 | 3) * 100 + fz_varint(1000 << 3 | 4) * 100
    batch = fz.SEEDS["ScoreBatch"]
    plain_batch = pb2.ScoreBatchRequest(ruleset="sichuan", items=batch.items).SerializeToString()
    many = pb2.SettleRequest(ruleset="sichuan", events=[fz._EVENTS[0]] * 600).SerializeToString()
    visible = pb2.WaitsRequest(ruleset="sichuan", hand=fz._H, visible_tile_ids=[1] * 5000).SerializeToString()
    return [
        ("ScoreBatch", plain_batch + ld(opt_field, ld(1000, big))),
        ("Score", score + ld(pb2.ScoreRequest.DESCRIPTOR.fields_by_name["options"].number, groups)),
        ("Settle", many),
        ("Waits", visible),
        ("DescribeRuleset", pb2.DescribeRulesetRequest(ruleset="x" * 5500).SerializeToString()),
    ]


def fz_varint(n: int) -> bytes:
    out = bytearray()
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    return bytes(out) + bytes([n])


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=120.0)
    p.add_argument("--clients", type=int, default=4)
    p.add_argument("--hostile", type=float, default=0.05)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    seconds = min(a.seconds, 900.0)
    proc, target = _spawn(
        ["-m", "service", "--host", "127.0.0.1", "--port", "0", "--workers", "1", "--reuse-port", "false"]
        + ["--log-level", "ERROR"]
    )
    counts: collections.Counter[tuple[str, str]] = collections.Counter()
    bad: list[str] = []
    lock = threading.Lock()
    attacks = _attacks()
    stop = time.monotonic() + seconds

    def client(k: int) -> None:
        rng = random.Random(a.seed * 1000 + k)
        ch = grpc.insecure_channel(target, options=[("grpc.max_send_message_length", 16 << 20)])
        callers = {m: fz._caller(ch, m) for m in fz.SEEDS}
        while time.monotonic() < stop:
            hostile = rng.random() < a.hostile
            if hostile and rng.random() < 0.3:
                method, data = rng.choice(attacks)
            elif hostile:
                method = rng.choice(list(fz.SEEDS))
                data = fz._request(method, rng)
            else:
                method = rng.choice(VALID)
                data = fz.SEEDS[method].SerializeToString()
            try:
                callers[method](data)
                code = "OK"
            except grpc.RpcError as e:
                code = e.code().name
                if e.code() in fz.BAD:
                    with lock:
                        bad.append(f"{method} {code} {e.details()} {data[:200].hex()}")
            with lock:
                counts[("hostile" if hostile else "valid", code)] += 1
        ch.close()

    try:
        rss0 = _rss_mb(proc.pid)
        print(f"start: server RSS {rss0:.1f} MB", flush=True)
        threads = [threading.Thread(target=client, args=(k,)) for k in range(a.clients)]
        for t in threads:
            t.start()
        while any(t.is_alive() for t in threads):
            time.sleep(min(30.0, max(0.1, stop - time.monotonic() + 0.1)))
            elapsed = seconds - max(0.0, stop - time.monotonic())
            print(f"t+{elapsed:.0f} s: RSS {_rss_mb(proc.pid):.1f} MB", flush=True)
        for t in threads:
            t.join()
        rss1 = _rss_mb(proc.pid)
    finally:
        proc.terminate()
        proc.wait(30)
    total = sum(counts.values())
    print(f"{total} calls in {seconds:.0f} s; by kind and status:")
    for (kind, code), n in sorted(counts.items()):
        print(f"  {kind:8} {code:20} {n}")
    print(f"INTERNAL/UNKNOWN: {len(bad)}; server RSS {rss0:.1f} -> {rss1:.1f} MB")
    for line in bad[:10]:
        print("  " + line)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
