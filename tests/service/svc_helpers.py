"""Helpers: a real server on a free 127.0.0.1 port (port 0, SO_REUSEPORT off)."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, replace

import grpc

from service.config import ServerConfig
from service.pb import pb2
from service.server import create_server, shutdown

SLOW_METHOD = "/test.Slow/Sleep"
BASE = ServerConfig(host="127.0.0.1", port=0, reuse_port=False, grace_seconds=5.0)


def varint(v: int) -> bytes:
    """A protobuf varint (for requests written byte by byte)."""
    out = bytearray()
    while v >= 0x80:
        out.append(v & 0x7F | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def key(number: int, wire_type: int) -> bytes:
    """A protobuf field key."""
    return varint(number << 3 | wire_type)


def ld(number: int, body: bytes) -> bytes:
    """A length-delimited protobuf field."""
    return key(number, 2) + varint(len(body)) + body


class _Held:
    """Calls of the test-only method asked to hold: how many are in, and their release."""

    def __init__(self) -> None:
        self.entered = threading.Condition()
        self.count = 0
        self.release = threading.Event()


_HELD = _Held()


def _sleep(request: bytes, context: grpc.ServicerContext) -> bytes:
    """Test-only method: sleeps the number of milliseconds in the request, or (``hold``)
    until ``release_held`` (10 s at most)."""
    arg = request.decode()
    if arg == "hold":
        with _HELD.entered:
            _HELD.count += 1
            _HELD.entered.notify_all()
        _HELD.release.wait(10)
        return b"ok"
    time.sleep(int(arg or "0") / 1000)
    return b"ok"


def hold_calls(channel: grpc.Channel, n: int) -> list[grpc.Future]:
    """``n`` calls of the test-only method, returned once the server runs all of them (they
    hold their threads until ``release_held``): no guess of how long a loaded machine
    takes to start them."""
    global _HELD
    _HELD.release.set()  # (any earlier test's held calls go)
    _HELD = _Held()
    calls = [slow_call(channel).future(b"hold", timeout=15) for _ in range(n)]
    with _HELD.entered:
        assert _HELD.entered.wait_for(lambda: _HELD.count >= n, timeout=10), _HELD.count
    return calls


def release_held() -> None:
    _HELD.release.set()


SLOW_HANDLER = grpc.method_handlers_generic_handler(
    "test.Slow", {"Sleep": grpc.unary_unary_rpc_method_handler(_sleep)}
)


@dataclass
class Running:
    server: grpc.Server
    port: int
    config: ServerConfig

    @property
    def target(self) -> str:
        return f"127.0.0.1:{self.port}"

    def stop(self, grace: float | None = None, drain: float = 0.0) -> None:
        g = self.config.grace_seconds if grace is None else grace
        shutdown(self.server, g, drain).wait()


def start(config: ServerConfig = BASE, **changes: object) -> Running:
    cfg = replace(config, **changes)  # type: ignore[arg-type]
    server, port = create_server(cfg, extra_handlers=[SLOW_HANDLER], with_metrics=True)
    server.start()
    return Running(server, port, cfg)


def slow_call(channel: grpc.Channel) -> grpc.UnaryUnaryMultiCallable:
    return channel.unary_unary(SLOW_METHOD)


def hand(text: str) -> pb2.Hand:
    return pb2.Hand(text=text)


def tile(text: str) -> pb2.Tile:
    return pb2.Tile(text=text)


class Counter:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.ok = 0
        self.errors: list[str] = []

    def add_ok(self) -> None:
        with self.lock:
            self.ok += 1

    def add_err(self, e: str) -> None:
        with self.lock:
            self.errors.append(e)
