"""Limits that keep one kind of traffic from locking out another: streams bounded apart from
unary calls (in total and per connection) and timed out, health checks outside every cap,
connections aged out, and every refusal counted. Real servers on 127.0.0.1, bounded counts."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from prometheus_client import REGISTRY
from svc_helpers import hand, hold_calls, release_held, start, tile

from service.pb import pb2, pb2_grpc

SCORE = pb2.ScoreRequest(ruleset="sichuan", hand=hand("123m456m789m234p55p"), win_tile=tile("5p"))
ITEM = pb2.ScoreItem(id="a", hand=hand("123m456m789m234p55p"), win_tile=tile("5p"))
RULES = "/mahjong.v1.MahjongRules/"


def _channel(target: str) -> grpc.Channel:
    # its own connection: channels in one process otherwise share one per target
    return grpc.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)])


def _sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def _limited(method: str, limit: str) -> float:
    return _sample("mahjong_grpc_limited_total", method=method, limit=limit)


def _calls(method: str, code: str) -> float:
    return _sample("mahjong_grpc_calls_total", method=method, code=code)


def _eventually(read: Callable[[], float], want: float, seconds: float = 2.0) -> float:
    """A metric the server writes as a stream's handler ends, which can come just after the
    client has its status: read until it reaches ``want`` or ``seconds`` pass."""
    end = time.monotonic() + seconds
    while (got := read()) < want and time.monotonic() < end:
        time.sleep(0.01)
    return got


def _watch(ch: grpc.Channel, timeout: float = 30) -> tuple[grpc.RpcError | None, object]:
    """Open a health Watch; (None, call) once its first reply came, (error, call) if refused."""
    call = health_pb2_grpc.HealthStub(ch).Watch(health_pb2.HealthCheckRequest(service=""), timeout=timeout)
    try:
        first = next(call)
        assert first.status == health_pb2.HealthCheckResponse.SERVING
        return None, call
    except grpc.RpcError as e:
        return e, call


def _quiet_stream(
    stub: pb2_grpc.MahjongRulesStub, release: threading.Event, timeout: float = 30
) -> Iterator[pb2.ScoreStreamResponse]:
    """A ScoreStream that sends one message and then nothing until ``release``."""

    def requests() -> Iterator[pb2.ScoreStreamRequest]:
        yield pb2.ScoreStreamRequest(ruleset="sichuan", items=[ITEM])
        release.wait(timeout)

    return stub.ScoreStream(requests(), timeout=timeout)  # type: ignore[no-any-return]


def test_idle_watches_leave_unary_calls_and_health_checks_alone() -> None:
    """The issue's attack with the default limits: 256 idle health Watch calls (no token
    needed) over 16 connections. Streams beyond --max-streams (128) are refused; unary calls
    and health checks are answered throughout."""
    r = start()
    channels = [_channel(r.target) for _ in range(16)]
    watches = []
    try:
        for ch in channels:
            for _ in range(16):
                watches.append(_watch(ch))
        stub = pb2_grpc.MahjongRulesStub(channels[0])
        health = health_pb2_grpc.HealthStub(channels[-1])
        for _ in range(20):
            assert stub.Score(SCORE, timeout=5).result.multiplier == 1
            assert health.Check(health_pb2.HealthCheckRequest(), timeout=5).status == 1
        refused = [e for e, _ in watches if e is not None]
        assert len(watches) - len(refused) == 128  # --max-streams
        assert {e.code() for e in refused} == {grpc.StatusCode.RESOURCE_EXHAUSTED}
        assert "--max-streams" in (refused[0].details() or "")
    finally:
        for _, call in watches:
            call.cancel()  # type: ignore[attr-defined]
        for ch in channels:
            ch.close()
        r.stop(0)


def test_health_checks_are_outside_the_call_cap() -> None:
    r = start(max_concurrent_calls=2, threads=4)
    try:
        ch = _channel(r.target)
        stub = pb2_grpc.MahjongRulesStub(ch)
        busy = hold_calls(ch, 2)
        score = RULES + "Score"
        before = (_calls(score, "RESOURCE_EXHAUSTED"), _limited(score, "concurrent_calls"))
        check = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=5)
        assert check.status == health_pb2.HealthCheckResponse.SERVING
        with pytest.raises(grpc.RpcError) as ei:
            stub.Score(SCORE, timeout=5)
        assert ei.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "--max-concurrent-calls" in (ei.value.details() or "")
        # the refusal is counted, with its status and the limit that refused it
        after = (_calls(score, "RESOURCE_EXHAUSTED"), _limited(score, "concurrent_calls"))
        assert after == (before[0] + 1, before[1] + 1)
        release_held()
        assert [f.result() for f in busy] == [b"ok", b"ok"]
        ch.close()
    finally:
        r.stop(0)


def test_streams_per_connection() -> None:
    r = start(max_streams=8, max_streams_per_connection=3)
    release = threading.Event()
    a, b = _channel(r.target), _channel(r.target)
    try:
        stub_a, stub_b = pb2_grpc.MahjongRulesStub(a), pb2_grpc.MahjongRulesStub(b)
        open_a = [_quiet_stream(stub_a, release) for _ in range(3)]
        assert all(next(s).outcomes[0].id == "a" for s in open_a)
        with pytest.raises(grpc.RpcError) as ei:
            next(_quiet_stream(stub_a, release))
        assert ei.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "on this connection" in (ei.value.details() or "")
        # another connection still has its share, and unary calls on the full one go on
        open_b = [_quiet_stream(stub_b, release) for _ in range(3)]
        assert all(next(s).outcomes[0].id == "a" for s in open_b)
        assert stub_a.Score(SCORE, timeout=5).result.multiplier == 1
        release.set()
        for s in open_a + open_b:
            assert list(s) == []
        # the share comes back once the streams have ended
        again = _quiet_stream(stub_a, release)
        assert next(again).outcomes[0].id == "a"
        assert list(again) == []
    finally:
        release.set()
        a.close()
        b.close()
        r.stop(0)


def test_idle_stream_is_ended_and_its_slot_freed() -> None:
    r = start(max_streams=2, stream_idle_seconds=0.5)
    release = threading.Event()
    ch = _channel(r.target)
    try:
        stub = pb2_grpc.MahjongRulesStub(ch)
        before = _limited(RULES + "ScoreStream", "stream_idle")
        quiet = _quiet_stream(stub, release)
        assert next(quiet).outcomes[0].id == "a"
        err, watch = _watch(ch)  # a Watch only listens: the idle limit is not for it
        assert err is None
        t0 = time.monotonic()
        with pytest.raises(grpc.RpcError) as ei:
            next(quiet)
        assert ei.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        assert "--stream-idle-seconds" in (ei.value.details() or "")
        assert time.monotonic() - t0 < 2.0
        assert _limited(RULES + "ScoreStream", "stream_idle") == before + 1
        assert _eventually(lambda: _calls(RULES + "ScoreStream", "DEADLINE_EXCEEDED"), 1) >= 1
        time.sleep(0.8)  # the watch outlives the idle limit
        assert watch.running()  # type: ignore[attr-defined]
        # the freed slot takes a new stream (the cap is 2: the watch holds the other)
        busy = _quiet_stream(stub, release)
        assert next(busy).outcomes[0].id == "a"
        release.set()
        assert list(busy) == []
        watch.cancel()  # type: ignore[attr-defined]
    finally:
        release.set()
        ch.close()
        r.stop(0)


def test_stream_lifetime() -> None:
    """A stream that keeps sending is still ended after --stream-max-seconds; so is a Watch."""
    r = start(stream_max_seconds=1.0, stream_idle_seconds=0)
    ch = _channel(r.target)
    stop = threading.Event()
    try:
        stub = pb2_grpc.MahjongRulesStub(ch)

        def busy_requests() -> Iterator[pb2.ScoreStreamRequest]:
            while not stop.wait(0.1):
                yield pb2.ScoreStreamRequest(ruleset="sichuan", items=[ITEM])

        t0 = time.monotonic()
        stream = stub.ScoreStream(busy_requests(), timeout=20)
        err, watch = _watch(ch, timeout=20)
        assert err is None
        with pytest.raises(grpc.RpcError) as ei:
            for _ in stream:
                pass
        assert ei.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        assert "--stream-max-seconds" in (ei.value.details() or "")
        assert 0.9 < time.monotonic() - t0 < 3.0
        with pytest.raises(grpc.RpcError) as ei:
            list(watch)  # type: ignore[call-overload]
        assert ei.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        assert time.monotonic() - t0 < 3.0
    finally:
        stop.set()
        ch.close()
        r.stop(0)


def test_connections_are_aged_out() -> None:
    """grpc.max_connection_age_ms: an old connection gets GOAWAY, and after the grace its open
    streams end; the channel reconnects for new calls."""
    r = start(
        max_connection_age_seconds=0.5,
        max_connection_age_grace_seconds=0.5,
        stream_idle_seconds=0,
        stream_max_seconds=0,
    )
    ch = _channel(r.target)
    try:
        t0 = time.monotonic()
        err, watch = _watch(ch, timeout=20)
        assert err is None
        with pytest.raises(grpc.RpcError) as ei:
            list(watch)  # type: ignore[call-overload]
        assert ei.value.code() == grpc.StatusCode.UNAVAILABLE
        assert time.monotonic() - t0 < 5.0
        assert pb2_grpc.MahjongRulesStub(ch).Score(SCORE, timeout=5).result.multiplier == 1
    finally:
        ch.close()
        r.stop(0)


def test_oversized_reply_is_refused_and_counted() -> None:
    """A reply over --max-message-bytes: RESOURCE_EXHAUSTED naming the limit, and the metrics
    say so too (they used to count the call OK while the client got the error)."""
    r = start(max_message_bytes=1024)
    ch = _channel(r.target)
    try:
        stub = pb2_grpc.MahjongRulesStub(ch)
        request = pb2.ScoreBatchRequest(ruleset="sichuan", items=[ITEM] * 29)
        assert request.ByteSize() < 1024
        method = RULES + "ScoreBatch"

        def counts() -> tuple[float, float, float]:
            ok, refused = _calls(method, "OK"), _calls(method, "RESOURCE_EXHAUSTED")
            return ok, refused, _limited(method, "message_size")

        before = counts()
        with pytest.raises(grpc.RpcError) as ei:
            stub.ScoreBatch(request, timeout=5)
        assert ei.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "--max-message-bytes" in (ei.value.details() or "")
        assert counts() == (before[0], before[1] + 1, before[2] + 1)
        # a reply that fits still goes
        assert (
            len(
                stub.ScoreBatch(
                    pb2.ScoreBatchRequest(ruleset="sichuan", items=[ITEM] * 2), timeout=5
                ).outcomes
            )
            == 2
        )
        # the same for a method answered with a message object (the rule set's description
        # is about 7.6 kB)
        describe = RULES + "DescribeRuleset"
        before_ok = _calls(describe, "OK")
        with pytest.raises(grpc.RpcError) as ei:
            stub.DescribeRuleset(pb2.DescribeRulesetRequest(ruleset="sichuan"), timeout=5)
        assert ei.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "--max-message-bytes" in (ei.value.details() or "")
        assert _calls(describe, "OK") == before_ok
        assert _limited(describe, "message_size") >= 1
    finally:
        ch.close()
        r.stop(0)
