"""Build and run the gRPC server.

``create_server(config) -> (server, port)`` builds a server without starting it (tests use it
directly); ``serve(server, config)`` starts it and blocks until SIGTERM/SIGINT, then stops
accepting calls, lets in-flight calls finish within the grace period and returns.
``main()`` is ``python -m service``: one process, or several worker processes sharing the
port through SO_REUSEPORT.
"""

from __future__ import annotations

import gc
import logging
import multiprocessing
import os
import signal
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from concurrent import futures
from pathlib import Path
from types import FrameType
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from .config import ServerConfig, parse_config
from .interceptors import Guard, GuardedRegistrar
from .observability import metrics, setup_logging, start_metrics_server
from .pb import SERVICE_NAME
from .servicer import MahjongRulesServicer, method_handlers

log = logging.getLogger("service")


class _Health(health.HealthServicer):
    """The standard health service, plus ending the open ``Watch`` calls at shutdown: a watch
    never ends by itself, so without this every shutdown would wait the whole grace period
    whenever a client checks health (as the recommended client config does). It reads the
    servicer's own record of open watches (grpcio-health-checking is pinned with grpcio)."""

    def end_watches(self) -> None:
        with self._lock:
            ends = [send for sends in self._send_response_callbacks.values() for send in sends]
        for send in ends:
            send(None)  # None closes the watch's response stream


_HEALTH: dict[int, _Health] = {}


def server_options(config: ServerConfig) -> list[tuple[str, int]]:
    return [
        ("grpc.so_reuseport", 1 if config.reuse_port else 0),
        ("grpc.max_receive_message_length", config.max_message_bytes),
        ("grpc.max_send_message_length", config.max_message_bytes),
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.min_ping_interval_without_data_ms", 10_000),
    ]


def _credentials(config: ServerConfig) -> grpc.ServerCredentials | None:
    if not config.tls_cert or not config.tls_key:
        return None
    cert = Path(config.tls_cert).read_bytes()
    key = Path(config.tls_key).read_bytes()
    if config.tls_client_ca:
        ca = Path(config.tls_client_ca).read_bytes()
        return grpc.ssl_server_credentials([(key, cert)], root_certificates=ca, require_client_auth=True)
    return grpc.ssl_server_credentials([(key, cert)])


def create_server(
    config: ServerConfig | None = None,
    *,
    extra_handlers: Sequence[grpc.GenericRpcHandler] = (),
    with_metrics: bool | None = None,
) -> tuple[grpc.Server, int]:
    """Build the server (not started). Returns it and the bound port (useful with port 0).

    ``extra_handlers`` are added behind the same guard (tests add a slow method).
    Metrics are recorded when ``config.metrics_port`` is set or ``with_metrics`` is true.
    """
    config = config or ServerConfig()
    record = with_metrics if with_metrics is not None else bool(config.metrics_port)
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=config.threads, thread_name_prefix="mahjong-rpc"),
        options=server_options(config),
        maximum_concurrent_rpcs=config.max_concurrent_calls,
    )
    # Every handler is wrapped by the guard once, here (no per-call interceptor pipeline).
    # One thread per open streaming call, at most one per call the server admits.
    stream_pool = futures.ThreadPoolExecutor(config.max_concurrent_calls, thread_name_prefix="mahjong-stream")
    guard = Guard(metrics() if record else None, config.auth_token, stream_pool)
    guarded: Any = GuardedRegistrar(server, guard)
    handlers = method_handlers(MahjongRulesServicer())
    guarded.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE_NAME, handlers),))
    guarded.add_registered_method_handlers(SERVICE_NAME, handlers)
    if extra_handlers:
        guarded.add_generic_rpc_handlers(tuple(extra_handlers))
    health_servicer = _Health()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, guarded)
    for name in ("", SERVICE_NAME):
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    if config.enable_reflection:
        names = (
            SERVICE_NAME,
            health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
            reflection.SERVICE_NAME,
        )
        reflection.enable_server_reflection(names, guarded)
    creds = _credentials(config)
    if creds is None:
        port = server.add_insecure_port(config.address)
    else:
        port = server.add_secure_port(config.address, creds)
    if port == 0:
        raise RuntimeError(f"could not bind {config.address}")
    _HEALTH[id(server)] = health_servicer
    return server, port


def shutdown(server: grpc.Server, grace: float, drain: float = 0.0) -> threading.Event:
    """Graceful stop: report NOT_SERVING (clients and balancers watching health move away),
    keep serving for ``drain`` seconds, then stop accepting calls and give in-flight calls
    ``grace`` seconds to finish."""
    hs = _HEALTH.pop(id(server), None)
    if hs is not None:
        hs.enter_graceful_shutdown()
        if drain > 0:
            time.sleep(drain)
        hs.end_watches()
    stopped: threading.Event = server.stop(grace)
    return stopped


def serve(
    server: grpc.Server, config: ServerConfig, port: int | None = None, parent_pid: int | None = None
) -> int:
    """Start ``server`` and block until SIGTERM/SIGINT (or, for a worker, until its parent
    process ``parent_pid`` is gone: a killed parent leaves no orphan workers on the port); then
    shut down gracefully. Returns 0."""
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        log.info(
            "signal %s: draining for up to %.1f s",
            signal.Signals(signum).name,
            config.grace_seconds,
        )
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    server.start()
    shown = f"{config.host}:{port if port is not None else config.port}"
    log.info(
        "serving %s on %s (tls=%s, token=%s, threads=%d)",
        SERVICE_NAME,
        shown,
        bool(config.tls_cert),
        bool(config.auth_token),
        config.threads,
        extra={"fields": {"address": shown}},
    )
    # Print the address on stdout too, so scripts and tests can read it.
    print(f"LISTENING {shown}", flush=True)
    while not stop.wait(0.5):
        if parent_pid is not None and os.getppid() != parent_pid:
            log.warning("parent process %d is gone: stopping", parent_pid)
            break
    shutdown(server, config.grace_seconds, config.drain_seconds).wait()
    log.info("stopped")
    return 0


def tune_gc(config: ServerConfig) -> None:
    """Collect young garbage less often (see ``ServerConfig.gc_gen0``) and move what startup
    allocated (modules, tables) out of the collector's sight. Process-wide: called by
    ``main`` and by each worker, not by ``create_server``."""
    if config.gc_gen0 > 0:
        _, gen1, gen2 = gc.get_threshold()
        gc.set_threshold(config.gc_gen0, gen1, gen2)
    gc.freeze()


def _free_port(host: str) -> int:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        s.bind((host, 0))
        return int(s.getsockname()[1])


def _worker(config: ServerConfig, parent_pid: int) -> None:
    setup_logging(config.log_level, config.json_logs)
    server, port = create_server(config, with_metrics=bool(config.metrics_port))
    tune_gc(config)
    sys.exit(serve(server, config, port, parent_pid=parent_pid))


def serve_workers(config: ServerConfig) -> int:
    """Run ``config.effective_workers`` processes sharing one port (SO_REUSEPORT)."""
    n = config.effective_workers
    if config.port == 0:
        config = _replace(config, port=_free_port(config.host))
    config = _replace(config, reuse_port=True)
    if config.metrics_port:
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="mahjong-metrics-")
    ctx = multiprocessing.get_context("fork")
    me = os.getpid()
    procs = [ctx.Process(target=_worker, args=(config, me), name=f"mahjong-worker-{i}") for i in range(n)]
    for p in procs:
        p.start()
    if config.metrics_port:
        start_metrics_server(config.metrics_port)
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()
        for p in procs:
            if p.pid is not None and p.is_alive():
                os.kill(p.pid, signal.SIGTERM)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    log.info("%d workers on %s", n, config.address)
    while any(p.is_alive() for p in procs):
        for p in procs:
            p.join(0.5)
        if not stop.is_set() and any(p.exitcode not in (None, 0) for p in procs):
            log.error("a worker died; stopping the others")
            on_signal(signal.SIGTERM, None)
    return 0 if all(p.exitcode == 0 for p in procs) else 1


def _replace(config: ServerConfig, **changes: object) -> ServerConfig:
    from dataclasses import replace

    return replace(config, **changes)  # type: ignore[arg-type]


def main(argv: Sequence[str] | None = None) -> int:
    config = parse_config(argv)
    setup_logging(config.log_level, config.json_logs)
    if config.effective_workers > 1:
        return serve_workers(config)
    if config.metrics_port:
        start_metrics_server(config.metrics_port)
    server, port = create_server(config)
    tune_gc(config)
    return serve(server, config, port)
