"""Memory bounded through the options and context caches: they are keyed on the parsed value
with unknown fields dropped, and a key over CACHE_KEY_BYTES is not kept. 100 calls each
carrying a distinct ~1 MB unknown field (in ``options`` or in an item's ``context``) leave the
server's RSS within a few MB (in options such a field is now refused; in a context it is
ignored and the key is not kept). Real server on 127.0.0.1 (in this process: its RSS is ours)."""

from __future__ import annotations

import gc
import os

import grpc
from svc_helpers import hand, start, tile, varint

from service.pb import pb2, pb2_grpc

H = hand("123m456m789m234p55p")
MB = 1 << 20


def _unknown(i: int, size: int = MB) -> bytes:
    """Field 1000 (length-delimited), unknown to every message here, ``size`` bytes unique to ``i``."""
    body = i.to_bytes(4, "little") * (size // 4)
    return varint(1000 << 3 | 2) + varint(len(body)) + body


def _rss() -> int:
    gc.collect()
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_distinct_unknown_fields_do_not_grow_the_caches() -> None:
    r = start()
    ch = grpc.insecure_channel(r.target, options=[("grpc.max_send_message_length", 16 * MB)])
    stub = pb2_grpc.MahjongRulesStub(ch)
    typed = pb2.RulesetOptions(sichuan=pb2.SichuanOptions(base=2)).SerializeToString()
    ctx = pb2.WinContext(sichuan=pb2.SichuanContext()).SerializeToString()

    def call(i: int) -> None:
        if i % 2:
            options = pb2.RulesetOptions.FromString(typed + _unknown(i))
            item = pb2.ScoreItem(id="a", hand=H, win_tile=tile("5p"))
        else:
            options = pb2.RulesetOptions.FromString(typed)
            item = pb2.ScoreItem(
                id="a", hand=H, win_tile=tile("5p"), context=pb2.WinContext.FromString(ctx + _unknown(i))
            )
        batch = pb2.ScoreBatchRequest(ruleset="sichuan", options=options, items=[item])
        if i % 2:  # an unknown field in options is refused (test_ops_options.py)
            try:
                stub.ScoreBatch(batch, timeout=30)
            except grpc.RpcError as e:
                assert e.code() == grpc.StatusCode.INVALID_ARGUMENT
            else:
                raise AssertionError("unknown option field accepted")
        else:  # one in a context is ignored, and not kept
            assert stub.ScoreBatch(batch, timeout=30).outcomes[0].result.value >= 0
        if not i % 2:
            return
        # Score (a non-bulk method) is refused at 64 KiB before it is read
        try:
            stub.Score(
                pb2.ScoreRequest(ruleset="sichuan", hand=H, win_tile=tile("5p"), options=options), timeout=30
            )
        except grpc.RpcError as e:
            assert e.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        else:
            raise AssertionError("a 1 MB Score request was answered")

    try:
        for i in range(6):  # warm up: channel buffers, allocator arenas
            call(10_000 + i)
        before = _rss()
        for i in range(100):
            call(i)
        grown = _rss() - before
        # kept keys would hold 50 MB and more (105 MB before); the client's 1 MB messages in
        # this same long-lived process leave allocator noise (9.7 MB once in a full run)
        assert grown < 24 * MB, f"RSS grew by {grown / MB:.1f} MB"
    finally:
        ch.close()
        r.stop(0)
