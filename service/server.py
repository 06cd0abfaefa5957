"""Build and run the gRPC server.

``create_server(config) -> (server, port)`` builds a server without starting it (tests use it
directly); ``serve(server, config)`` starts it and blocks until SIGTERM/SIGINT, then stops
accepting calls, lets in-flight calls finish within the grace period and returns.
``main()`` is ``python -m service`` (``python -m mjservice`` installed): one process, or
several worker processes sharing the port through SO_REUSEPORT, a dead one replaced.
"""

from __future__ import annotations

import gc
import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import socket
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Sequence
from concurrent import futures
from pathlib import Path
from types import FrameType
from typing import Any

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from .config import ServerConfig, parse_config
from .interceptors import HEALTH_CHECKS, Admission, CountedPool, Guard, GuardedRegistrar, StreamLimits
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


class BindError(RuntimeError):
    def __init__(self, address: str) -> None:
        super().__init__(
            f"cannot listen on {address}: the port is in use (another server? SO_REUSEPORT is only "
            "on with --workers > 1) or the address is not one of this machine's"
        )


def server_options(config: ServerConfig) -> list[tuple[str, int]]:
    options = [
        ("grpc.so_reuseport", 1 if config.effective_reuse_port else 0),
        ("grpc.max_receive_message_length", config.max_message_bytes),
        ("grpc.max_send_message_length", config.max_message_bytes),
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.min_ping_interval_without_data_ms", 10_000),
    ]
    if config.max_connection_age_seconds > 0:
        options += [
            ("grpc.max_connection_age_ms", int(config.max_connection_age_seconds * 1000)),
            ("grpc.max_connection_age_grace_ms", int(config.max_connection_age_grace_seconds * 1000)),
        ]
    return options


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
    m = metrics() if record else None
    # Three pools, each with its own cap, checked as a call arrives (interceptors.Admission):
    # unary calls, streams (one thread per open stream) and health checks, so neither idle
    # streams nor a burst of unary calls can refuse a probe. grpcio's own cap
    # (maximum_concurrent_rpcs) would count all three together: not used.
    unary_pool = CountedPool(
        config.threads,
        config.max_concurrent_calls,
        "concurrent_calls",
        f"more than {config.max_concurrent_calls} calls in progress (--max-concurrent-calls)",
    )
    stream_pool = CountedPool(
        config.max_streams,
        config.max_streams,
        "streams",
        f"more than {config.max_streams} streams open (--max-streams)",
    )
    health_pool = CountedPool(
        2, HEALTH_CHECKS, "health_checks", f"more than {HEALTH_CHECKS} health checks in progress"
    )
    refusal_pool = futures.ThreadPoolExecutor(1, thread_name_prefix="mahjong-refusal")
    server = grpc.server(
        unary_pool,
        options=server_options(config),
        interceptors=[Admission(unary_pool, refusal_pool, m)],
    )
    # Every handler is wrapped by the guard once, here: per call, grpcio's interceptor
    # pipeline runs only Admission's check.
    streams = StreamLimits(
        config.max_streams_per_connection, config.stream_idle_seconds, config.stream_max_seconds, m
    )
    guard = Guard(
        m,
        config.auth_token,
        stream_pool,
        health_pool=health_pool,
        streams=streams,
        max_message_bytes=config.max_message_bytes,
    )
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
    try:
        if creds is None:
            port = server.add_insecure_port(config.address)
        else:
            port = server.add_secure_port(config.address, creds)
    except RuntimeError:
        port = 0
    if port == 0:
        raise BindError(config.address)
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
    # A forked worker starts with the parent's signal handlers, which act on the parent's
    # workers: until ``serve`` installs its own, a signal just ends it.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    setup_logging(config.log_level, config.json_logs)
    server, port = create_server(config, with_metrics=bool(config.metrics_port))
    tune_gc(config)
    sys.exit(serve(server, config, port, parent_pid=parent_pid))


#: Seconds before replacing a dead worker: doubled for each death in the last minute.
RESTART_DELAY_S = 0.5
MAX_RESTART_DELAY_S = 10.0


def _port_taken(host: str, port: int) -> bool:
    """Whether another socket listens on ``host:port``. Probed without SO_REUSEPORT, which
    any listener refuses to share with (with SO_REUSEADDR, so closed connections still in
    TIME_WAIT do not count)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host.strip("[]"), port))
        except OSError:
            return True
    return False


def serve_workers(config: ServerConfig) -> int:
    """Run ``config.effective_workers`` processes sharing one port (SO_REUSEPORT). A worker
    that dies is replaced after a delay that doubles with each death in the last minute; past
    ``max_restarts_per_minute`` deaths the parent stops the rest and exits 1, so a crash loop
    shows (Kubernetes restarts the pod and reports CrashLoopBackOff) instead of hiding."""
    n = config.effective_workers
    if config.port == 0:
        config = _replace(config, port=_free_port(config.host))
    elif _port_taken(config.host, config.port):
        raise BindError(config.address)
    config = _replace(config, reuse_port=True)
    if config.metrics_port:
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="mahjong-metrics-")
    ctx = multiprocessing.get_context("fork")
    me = os.getpid()
    workers: dict[int, Any] = {}  # slot -> running process
    due: dict[int, float] = {slot: 0.0 for slot in range(n)}  # slot -> when to (re)start it
    deaths: deque[float] = deque()
    stop = threading.Event()
    stopped: set[int] = set()  # pids sent SIGTERM
    exit_code = 0

    def stop_workers() -> None:
        for p in workers.values():
            if p.pid not in stopped and p.is_alive():
                stopped.add(p.pid)
                os.kill(p.pid, signal.SIGTERM)

    def on_signal(signum: int, frame: FrameType | None) -> None:
        if os.getpid() != me:  # a worker forked a moment ago, before ``_worker`` set its own
            signal.signal(signum, signal.SIG_DFL)  # handlers (``stop_workers`` may signal it
            os.kill(os.getpid(), signum)  # then): the signal just ends it, as it would there
            return
        stop.set()
        stop_workers()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    if config.metrics_port:
        start_metrics_server(config.metrics_port, config.metrics_host)
    log.info("%d workers on %s", n, config.address)
    while workers or (due and not stop.is_set()):
        now = time.monotonic()
        for slot, when in list(due.items()):
            if now >= when and not stop.is_set():
                del due[slot]
                p = ctx.Process(target=_worker, args=(config, me), name=f"mahjong-worker-{slot}")
                p.start()
                workers[slot] = p
        if stop.is_set():
            stop_workers()  # again: a signal may have come while a worker was starting
        wait_s = min([0.5] + [max(0.0, when - now) for when in due.values()])
        multiprocessing.connection.wait([p.sentinel for p in workers.values()], wait_s)
        for slot, p in list(workers.items()):
            if p.exitcode is None:
                continue
            del workers[slot]
            if stop.is_set():  # stopped by our SIGTERM, in serve() or before it
                if p.exitcode not in (0, -signal.SIGTERM):
                    exit_code = 1
                continue
            now = time.monotonic()
            deaths.append(now)
            while deaths[0] < now - 60:
                deaths.popleft()
            if len(deaths) > config.max_restarts_per_minute:
                log.error(
                    "worker %d (pid %d) exited with %s: %d workers died in the last minute, "
                    "more than --max-restarts-per-minute %d; stopping",
                    slot, p.pid, p.exitcode, len(deaths), config.max_restarts_per_minute,
                )
                exit_code = 1
                on_signal(signal.SIGTERM, None)
                continue
            delay = min(MAX_RESTART_DELAY_S, RESTART_DELAY_S * 2 ** (len(deaths) - 1))
            log.error(
                "worker %d (pid %d) exited with %s; starting another in %.1f s",
                slot, p.pid, p.exitcode, delay,
            )
            due[slot] = now + delay
    return exit_code


def _replace(config: ServerConfig, **changes: object) -> ServerConfig:
    from dataclasses import replace

    return replace(config, **changes)  # type: ignore[arg-type]


def main(argv: Sequence[str] | None = None) -> int:
    config = parse_config(argv)
    setup_logging(config.log_level, config.json_logs)
    try:
        if config.effective_workers > 1:
            return serve_workers(config)
        server, port = create_server(config)
    except BindError as e:
        log.error("%s", e)
        return 2
    if config.metrics_port:
        start_metrics_server(config.metrics_port, config.metrics_host)
    tune_gc(config)
    return serve(server, config, port)
