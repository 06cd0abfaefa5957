"""Fixtures: a real server on a free 127.0.0.1 port (port 0, SO_REUSEPORT off)."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from svc_helpers import Running, start

from service.pb import pb2_grpc


@pytest.fixture(scope="module")
def running() -> Iterator[Running]:
    r = start()
    yield r
    r.stop(0)


@pytest.fixture(scope="module")
def channel(running: Running) -> Iterator[grpc.Channel]:
    ch = grpc.insecure_channel(running.target)
    grpc.channel_ready_future(ch).result(timeout=10)
    yield ch
    ch.close()


@pytest.fixture(scope="module")
def stub(channel: grpc.Channel) -> pb2_grpc.MahjongRulesStub:
    return pb2_grpc.MahjongRulesStub(channel)
