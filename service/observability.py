"""Logging (plain or JSON lines) and Prometheus metrics for the service.

Metrics (per method, labelled with the full gRPC method name):
- ``mahjong_grpc_calls_total{method,code}``: finished calls by status code;
- ``mahjong_grpc_errors_total{method,code}``: the non-OK ones;
- ``mahjong_grpc_latency_seconds{method}``: histogram of handler time;
- ``mahjong_grpc_limited_total{method,limit}``: calls a limit refused or ended (``limit`` is
  ``concurrent_calls``, ``streams``, ``streams_per_connection``, ``health_checks``,
  ``stream_idle``, ``stream_lifetime`` or ``message_size``); the refused ones also count in the
  two counters above, with their status code.
With several worker processes the metrics are aggregated through prometheus_client's
multiprocess mode and served once by the parent process. The endpoint binds 127.0.0.1 unless
told otherwise (``--metrics-host``): it has no authentication.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable
from typing import Any

_METRICS: Metrics | None = None


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": round(record.created, 6),
            "level": record.levelname,
            "logger": record.name,
            "pid": record.process,
            "msg": record.getMessage(),
        }
        extra = getattr(record, "fields", None)
        if isinstance(extra, dict):
            out.update(extra)
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)


def setup_logging(level: str = "INFO", json_logs: bool = False) -> None:
    handler = logging.StreamHandler()
    if json_logs:
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s[%(process)d] %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())


class Metrics:
    """The service's Prometheus metrics, with per-(method, code) children cached."""

    def __init__(self) -> None:
        from prometheus_client import Counter, Histogram

        self.calls = Counter("mahjong_grpc_calls_total", "Finished gRPC calls", ["method", "code"])
        self.errors = Counter(
            "mahjong_grpc_errors_total", "gRPC calls that ended with an error", ["method", "code"]
        )
        self.latency = Histogram(
            "mahjong_grpc_latency_seconds",
            "Handler time per gRPC call",
            ["method"],
            buckets=(
                0.0001,
                0.00025,
                0.0005,
                0.001,
                0.0025,
                0.005,
                0.01,
                0.025,
                0.05,
                0.1,
                0.25,
                0.5,
                1,
                2.5,
                5,
                10,
            ),
        )
        self.limits = Counter(
            "mahjong_grpc_limited_total", "gRPC calls a limit refused or ended", ["method", "limit"]
        )
        self._calls: dict[tuple[str, str], Any] = {}
        self._errors: dict[tuple[str, str], Any] = {}
        self._latency: dict[str, Any] = {}

    def ok_recorder(self, method: str) -> Callable[[float], None]:
        """A function recording one OK call of ``method`` and its latency (children resolved
        once, here, not per call)."""
        calls = self._calls.get((method, "OK"))
        if calls is None:
            calls = self._calls[(method, "OK")] = self.calls.labels(method, "OK")
        lat = self._latency.get(method)
        if lat is None:
            lat = self._latency[method] = self.latency.labels(method)
        inc, observe = calls.inc, lat.observe

        def record(seconds: float) -> None:
            inc()
            observe(seconds)

        return record

    def observe(self, method: str, code: str, seconds: float) -> None:
        key = (method, code)
        child = self._calls.get(key)
        if child is None:
            child = self._calls[key] = self.calls.labels(method, code)
        child.inc()
        if code != "OK":
            err = self._errors.get(key)
            if err is None:
                err = self._errors[key] = self.errors.labels(method, code)
            err.inc()
        lat = self._latency.get(method)
        if lat is None:
            lat = self._latency[method] = self.latency.labels(method)
        lat.observe(seconds)


    def limited(self, method: str, limit: str) -> None:
        self.limits.labels(method, limit).inc()

    def refused(self, method: str, limit: str) -> None:
        """A call refused on arrival: counted with its status, without a latency (it never ran)."""
        self.limited(method, limit)
        for counter in (self.calls, self.errors):
            counter.labels(method, "RESOURCE_EXHAUSTED").inc()


def metrics() -> Metrics:
    """The process's metrics (created on first use, so multiprocess mode can be set first)."""
    global _METRICS
    if _METRICS is None:
        _METRICS = Metrics()
    return _METRICS


def start_metrics_server(port: int, host: str = "127.0.0.1") -> None:
    """Serve /metrics; in multiprocess mode aggregate every worker's files."""
    from prometheus_client import CollectorRegistry, start_http_server

    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        start_http_server(port, addr=host, registry=registry)
    else:
        metrics()
        start_http_server(port, addr=host)


def now() -> float:
    return time.perf_counter()
