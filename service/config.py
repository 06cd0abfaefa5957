"""Server configuration: command-line flags, each with a matching environment variable.

A flag beats its environment variable, which beats the default. ``MAHJONG_`` prefixes every
variable (``--port`` <-> ``MAHJONG_PORT``).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 50051
DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024
DEFAULT_MAX_CONCURRENT = 256
DEFAULT_THREADS = 4
DEFAULT_GRACE_S = 10.0
DEFAULT_DRAIN_S = 1.0
DEFAULT_GC_GEN0 = 50_000
ENV_PREFIX = "MAHJONG_"


@dataclass(frozen=True)
class ServerConfig:
    """Everything ``create_server`` needs. All fields have working defaults."""

    host: str = DEFAULT_HOST
    #: TCP port; 0 picks a free one (create_server returns it).
    port: int = DEFAULT_PORT
    #: Worker processes sharing the port with SO_REUSEPORT; 0 = one per core.
    workers: int = 0
    #: Threads per worker process serving unary calls. The work is Python, on one core at a
    #: time, so more threads only pass the interpreter lock to each other (docs/service.md,
    #: "Threads"). Streaming calls (ScoreStream, health Watch) get threads of their own.
    threads: int = DEFAULT_THREADS
    #: Largest message accepted or sent, in bytes.
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES
    #: Calls in progress at once per process; beyond it calls fail with RESOURCE_EXHAUSTED.
    max_concurrent_calls: int = DEFAULT_MAX_CONCURRENT
    #: PEM files for TLS; both or neither.
    tls_cert: str | None = None
    tls_key: str | None = None
    #: PEM file of the CA that signs client certificates; set for mutual TLS.
    tls_client_ca: str | None = None
    #: When set, every call but health checks needs ``authorization: Bearer <token>``.
    auth_token: str | None = field(default=None, repr=False)
    log_level: str = "INFO"
    json_logs: bool = False
    #: Port of the Prometheus /metrics endpoint; 0 = off.
    metrics_port: int = 0
    #: Seconds in-flight calls get to finish after SIGTERM/SIGINT.
    grace_seconds: float = DEFAULT_GRACE_S
    #: Seconds between reporting NOT_SERVING and closing the port at shutdown, so clients and
    #: balancers that watch health stop sending first.
    drain_seconds: float = DEFAULT_DRAIN_S
    #: SO_REUSEPORT on the listening socket (on for workers; tests turn it off).
    reuse_port: bool = True
    #: Standard health service and server reflection.
    enable_reflection: bool = True
    #: Allocations between young-generation garbage collections (``gc.set_threshold``'s
    #: first value; 0 = Python's default, 700). The engine's memo tables hold hundreds of
    #: thousands of long-lived objects that every older-generation collection walks; at
    #: Python's default a call on a hand never seen spends about a quarter of its time there.
    gc_gen0: int = DEFAULT_GC_GEN0

    @property
    def address(self) -> str:
        host = f"[{self.host}]" if ":" in self.host and not self.host.startswith("[") else self.host
        return f"{host}:{self.port}"

    @property
    def effective_workers(self) -> int:
        return self.workers if self.workers > 0 else max(1, os.cpu_count() or 1)


def _bool(text: str) -> bool:
    v = text.strip().lower()
    if v in {"1", "true", "yes", "on"}:
        return True
    if v in {"0", "false", "no", "off", ""}:
        return False
    raise argparse.ArgumentTypeError(f"not a boolean: {text!r}")


def build_parser(env: Mapping[str, str] | None = None) -> argparse.ArgumentParser:
    env = os.environ if env is None else env
    d = ServerConfig()

    def ev(name: str, default: object) -> object:
        return env.get(ENV_PREFIX + name, default)

    p = argparse.ArgumentParser(
        prog=f"python -m {__package__}",
        description="Mahjong rules engine gRPC service (mahjong.v1.MahjongRules). Every flag "
        "has an environment variable MAHJONG_<FLAG> (e.g. MAHJONG_PORT).",
    )
    p.add_argument("--host", default=ev("HOST", d.host), help="address to bind [MAHJONG_HOST]")
    p.add_argument("--port", type=int, default=ev("PORT", d.port), help="port [MAHJONG_PORT]")
    p.add_argument(
        "--workers",
        type=int,
        default=ev("WORKERS", d.workers),
        help="processes sharing the port; 0 = one per core [MAHJONG_WORKERS]",
    )
    p.add_argument(
        "--threads",
        type=int,
        default=ev("THREADS", d.threads),
        help="threads per process for unary calls [MAHJONG_THREADS]",
    )
    p.add_argument(
        "--max-message-bytes",
        type=int,
        default=ev("MAX_MESSAGE_BYTES", d.max_message_bytes),
        help="largest message in or out, bytes [MAHJONG_MAX_MESSAGE_BYTES]",
    )
    p.add_argument(
        "--max-concurrent-calls",
        type=int,
        default=ev("MAX_CONCURRENT_CALLS", d.max_concurrent_calls),
        help="calls in progress per process before RESOURCE_EXHAUSTED [MAHJONG_MAX_CONCURRENT_CALLS]",
    )
    p.add_argument("--tls-cert", default=ev("TLS_CERT", None), help="PEM certificate [MAHJONG_TLS_CERT]")
    p.add_argument("--tls-key", default=ev("TLS_KEY", None), help="PEM private key [MAHJONG_TLS_KEY]")
    p.add_argument(
        "--tls-client-ca",
        default=ev("TLS_CLIENT_CA", None),
        help="PEM CA for client certificates: mutual TLS [MAHJONG_TLS_CLIENT_CA]",
    )
    p.add_argument(
        "--auth-token",
        default=ev("AUTH_TOKEN", None),
        help="require 'authorization: Bearer <token>' [MAHJONG_AUTH_TOKEN]",
    )
    p.add_argument("--log-level", default=ev("LOG_LEVEL", d.log_level), help="[MAHJONG_LOG_LEVEL]")
    p.add_argument(
        "--json-logs",
        type=_bool,
        nargs="?",
        const=True,
        default=_bool(str(ev("JSON_LOGS", "false"))),
        help="[MAHJONG_JSON_LOGS]",
    )
    p.add_argument(
        "--metrics-port",
        type=int,
        default=ev("METRICS_PORT", d.metrics_port),
        help="Prometheus /metrics port, 0 = off [MAHJONG_METRICS_PORT]",
    )
    p.add_argument(
        "--grace-seconds",
        type=float,
        default=ev("GRACE_SECONDS", d.grace_seconds),
        help="time in-flight calls get at shutdown [MAHJONG_GRACE_SECONDS]",
    )
    p.add_argument(
        "--reuse-port",
        type=_bool,
        nargs="?",
        const=True,
        default=_bool(str(ev("REUSE_PORT", "true"))),
        help="SO_REUSEPORT [MAHJONG_REUSE_PORT]",
    )
    p.add_argument(
        "--drain-seconds",
        type=float,
        default=ev("DRAIN_SECONDS", d.drain_seconds),
        help="seconds between reporting NOT_SERVING and closing the port at shutdown [MAHJONG_DRAIN_SECONDS]",
    )
    p.add_argument(
        "--gc-gen0",
        type=int,
        default=ev("GC_GEN0", d.gc_gen0),
        help="allocations between young garbage collections, 0 = Python's default [MAHJONG_GC_GEN0]",
    )
    return p


def parse_config(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> ServerConfig:
    ns = build_parser(env).parse_args(argv)
    cfg = ServerConfig(
        host=str(ns.host),
        port=int(ns.port),
        workers=int(ns.workers),
        threads=int(ns.threads),
        max_message_bytes=int(ns.max_message_bytes),
        max_concurrent_calls=int(ns.max_concurrent_calls),
        tls_cert=ns.tls_cert or None,
        tls_key=ns.tls_key or None,
        tls_client_ca=ns.tls_client_ca or None,
        auth_token=ns.auth_token or None,
        log_level=str(ns.log_level).upper(),
        json_logs=bool(ns.json_logs),
        metrics_port=int(ns.metrics_port),
        grace_seconds=float(ns.grace_seconds),
        drain_seconds=float(ns.drain_seconds),
        reuse_port=bool(ns.reuse_port),
        gc_gen0=int(ns.gc_gen0),
    )
    validate(cfg)
    return cfg


def validate(cfg: ServerConfig) -> None:
    if not 0 <= cfg.port <= 65535:
        raise SystemExit(f"--port {cfg.port} is not a port")
    if (cfg.tls_cert is None) != (cfg.tls_key is None):
        raise SystemExit("--tls-cert and --tls-key go together")
    if cfg.tls_client_ca and not cfg.tls_cert:
        raise SystemExit("--tls-client-ca needs --tls-cert and --tls-key")
    if cfg.threads < 1 or cfg.max_concurrent_calls < 1 or cfg.max_message_bytes < 1024:
        raise SystemExit("--threads and --max-concurrent-calls must be >= 1, --max-message-bytes >= 1024")
    if cfg.gc_gen0 < 0:
        raise SystemExit("--gc-gen0 must be >= 0")
