"""The servicer's ScoreBatch on never-seen hands, in-process (no gRPC): server CPU per hand,
against the empty handler's work on the same messages (what ``service.loadtest``'s baseline
does: parse the request, one outcome per item with a copy of one prebuilt result, serialize).

Run: ``.venv/bin/python bench/bench_service_bulk.py [--hands N] [--rounds R]``. Process CPU
time (the machine is shared), rounds alternating the three servicers on fresh messages of
``service.loadtest``'s workload: the batch path (``CompiledTable.score_batch_detail``), the
same servicer scoring one hand at a time (the batch turned off: the path before it), and
the empty handler. Every memo cleared before each round's messages; warm rows send the
round's messages a second time. Not a test: nothing here fails.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from mjcore.rules import guangdong, sichuan
from service import loadtest as lt
from service.pb import pb2
from service.servicer import MahjongRulesServicer


class _Call:
    def time_remaining(self) -> None:
        return None


def _empty_handler() -> Any:
    result = lt._constant_result(payment=False)

    def batch(data: bytes, _: Any) -> bytes:
        request = pb2.ScoreBatchRequest.FromString(data)
        out = pb2.ScoreBatchResponse()
        add = out.outcomes.add
        for item in request.items:
            add(id=item.id, result=result)
        reply: bytes = out.SerializeToString()
        return reply

    return batch


def _per_hand(fn: Any, msgs: list[bytes], hands: int) -> float:
    call = _Call()
    start = time.process_time()
    for m in msgs:
        fn(m, call)
    return (time.process_time() - start) / hands * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=40_000, help="never-seen hands per servicer and round")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--batch", type=int, default=1000, help="hands a message")
    a = ap.parse_args()
    per = a.hands // a.batch
    wl = lt.build_workload(1000, a.batch, cold_pool=3 * per * a.batch * a.rounds)
    msgs = wl.cold
    batching = MahjongRulesServicer()
    one_by_one = MahjongRulesServicer()
    one_by_one._batch = lambda *args: None  # type: ignore[method-assign]
    empty = _empty_handler()
    paths = {"batch path": batching.ScoreBatch, "one by one": one_by_one.ScoreBatch, "empty handler": empty}
    rows: dict[str, list[tuple[float, float]]] = {k: [] for k in paths}
    k = 0
    for _ in range(a.rounds):
        for name, fn in paths.items():
            part = msgs[k * per:(k + 1) * per]
            k += 1
            sichuan.clear_caches()
            guangdong.clear_caches()
            cold = _per_hand(fn, part, per * a.batch)
            warm = _per_hand(fn, part, per * a.batch)
            rows[name].append((cold, warm))
    base = sorted(c for c, _ in rows["empty handler"])
    print(f"ScoreBatch in-process, {a.batch} hands a message, {per * a.batch} never-seen hands a round, "
          f"{a.rounds} rounds; process CPU µs per hand (min-max over rounds)")
    for name, r in rows.items():
        cold = sorted(c for c, _ in r)
        warm = sorted(w for _, w in r)
        print(f"  {name:14s} cold {cold[0]:.2f}-{cold[-1]:.2f}  warm {warm[0]:.2f}-{warm[-1]:.2f}  "
              f"empty handler / cold (median) {base[len(base) // 2] / cold[len(cold) // 2]:.0%}")


if __name__ == "__main__":
    main()
