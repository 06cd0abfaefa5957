"""Server configuration: command-line flags, each with a matching environment variable.

A flag beats its environment variable, which beats the default. ``MAHJONG_`` prefixes every
variable (``--port`` <-> ``MAHJONG_PORT``).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 50051
DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024
DEFAULT_MAX_CONCURRENT = 256
DEFAULT_THREADS = 4
DEFAULT_GRACE_S = 10.0
DEFAULT_DRAIN_S = 1.0
DEFAULT_GC_GEN0 = 50_000
DEFAULT_MAX_STREAMS = 128
DEFAULT_MAX_STREAMS_PER_CONNECTION = 16
DEFAULT_STREAM_IDLE_S = 60.0
DEFAULT_STREAM_MAX_S = 600.0
DEFAULT_CONNECTION_AGE_S = 1800.0
DEFAULT_CONNECTION_AGE_GRACE_S = 30.0
DEFAULT_MAX_RESTARTS_PER_MINUTE = 5
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
    #: Unary calls in progress or waiting for a thread, per process; beyond it calls fail
    #: with RESOURCE_EXHAUSTED. Streams and health checks have caps of their own.
    max_concurrent_calls: int = DEFAULT_MAX_CONCURRENT
    #: Open streaming calls (ScoreStream, health Watch, reflection) per process, one thread
    #: each, and per connection.
    max_streams: int = DEFAULT_MAX_STREAMS
    max_streams_per_connection: int = DEFAULT_MAX_STREAMS_PER_CONNECTION
    #: A stream whose client sends nothing this long is ended (DEADLINE_EXCEEDED); 0 = never.
    stream_idle_seconds: float = DEFAULT_STREAM_IDLE_S
    #: A stream open this long is ended (DEADLINE_EXCEEDED); 0 = never.
    stream_max_seconds: float = DEFAULT_STREAM_MAX_S
    #: A connection this old is asked to go away (GOAWAY; clients reconnect, which also
    #: rebalances them), then closed after the grace; 0 = never.
    max_connection_age_seconds: float = DEFAULT_CONNECTION_AGE_S
    max_connection_age_grace_seconds: float = DEFAULT_CONNECTION_AGE_GRACE_S
    #: PEM files for TLS; both or neither.
    tls_cert: str | None = None
    tls_key: str | None = None
    #: PEM file of the CA that signs client certificates; set for mutual TLS.
    tls_client_ca: str | None = None
    #: When set, every call but health checks needs ``authorization: Bearer <token>``.
    #: From ``--auth-token``, ``--token-file`` or their environment variables.
    auth_token: str | None = field(default=None, repr=False)
    log_level: str = "INFO"
    json_logs: bool = False
    #: Port of the Prometheus /metrics endpoint; 0 = off.
    metrics_port: int = 0
    #: Address the metrics endpoint binds: loopback unless asked, as it has no authentication.
    metrics_host: str = DEFAULT_HOST
    #: Dead workers replaced per minute before the parent gives up and exits 1 (a crash loop
    #: shows as a failed process, not as a service quietly restarting forever).
    max_restarts_per_minute: int = DEFAULT_MAX_RESTARTS_PER_MINUTE
    #: Seconds in-flight calls get to finish after SIGTERM/SIGINT.
    grace_seconds: float = DEFAULT_GRACE_S
    #: Seconds between reporting NOT_SERVING and closing the port at shutdown, so clients and
    #: balancers that watch health stop sending first.
    drain_seconds: float = DEFAULT_DRAIN_S
    #: SO_REUSEPORT on the listening socket: only with more than one worker, so a second
    #: single-worker server on a taken port fails instead of silently sharing it.
    #: None (the default) = on exactly when there are several workers.
    reuse_port: bool | None = None
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

    @property
    def effective_reuse_port(self) -> bool:
        return self.reuse_port if self.reuse_port is not None else self.effective_workers > 1


def _bool(text: str) -> bool:
    v = text.strip().lower()
    if v in {"1", "true", "yes", "on"}:
        return True
    if v in {"0", "false", "no", "off", ""}:
        return False
    raise argparse.ArgumentTypeError(f"not a boolean: {text!r}")


def _maybe_bool(text: str | None) -> bool | None:
    return None if text is None or not text.strip() else _bool(text)


def _token(ns: argparse.Namespace) -> str | None:
    if ns.auth_token and ns.auth_token_file:
        raise SystemExit("give the token once: --auth-token or --auth-token-file")
    if not ns.auth_token_file:
        return ns.auth_token or None
    try:
        token = Path(ns.auth_token_file).read_text().strip()
    except OSError as e:
        raise SystemExit(f"--auth-token-file: cannot read {ns.auth_token_file}: {e.strerror}") from None
    if not token:
        raise SystemExit(f"--auth-token-file: {ns.auth_token_file} is empty")
    return token


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
    p.add_argument(
        "--max-streams",
        type=int,
        default=ev("MAX_STREAMS", d.max_streams),
        help="open streaming calls per process (ScoreStream, health Watch, reflection) [MAHJONG_MAX_STREAMS]",
    )
    p.add_argument(
        "--max-streams-per-connection",
        type=int,
        default=ev("MAX_STREAMS_PER_CONNECTION", d.max_streams_per_connection),
        help="open streaming calls per client connection [MAHJONG_MAX_STREAMS_PER_CONNECTION]",
    )
    p.add_argument(
        "--stream-idle-seconds",
        type=float,
        default=ev("STREAM_IDLE_SECONDS", d.stream_idle_seconds),
        help="end a stream whose client sends nothing this long, 0 = never [MAHJONG_STREAM_IDLE_SECONDS]",
    )
    p.add_argument(
        "--stream-max-seconds",
        type=float,
        default=ev("STREAM_MAX_SECONDS", d.stream_max_seconds),
        help="end a stream open this long, 0 = never [MAHJONG_STREAM_MAX_SECONDS]",
    )
    p.add_argument(
        "--max-connection-age-seconds",
        type=float,
        default=ev("MAX_CONNECTION_AGE_SECONDS", d.max_connection_age_seconds),
        help="send GOAWAY to connections this old, 0 = never [MAHJONG_MAX_CONNECTION_AGE_SECONDS]",
    )
    p.add_argument(
        "--max-connection-age-grace-seconds",
        type=float,
        default=ev("MAX_CONNECTION_AGE_GRACE_SECONDS", d.max_connection_age_grace_seconds),
        help="then close them after this long [MAHJONG_MAX_CONNECTION_AGE_GRACE_SECONDS]",
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
        help="require 'authorization: Bearer <token>' (prefer the variable or --token-file: "
        "arguments are visible to every user of the machine) [MAHJONG_AUTH_TOKEN]",
    )
    p.add_argument(
        "--auth-token-file",
        "--token-file",
        default=ev("AUTH_TOKEN_FILE", None),
        help="read the token from this file (e.g. a mounted secret) [MAHJONG_AUTH_TOKEN_FILE]",
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
        "--metrics-host",
        default=ev("METRICS_HOST", d.metrics_host),
        help="address /metrics binds; it has no authentication [MAHJONG_METRICS_HOST]",
    )
    p.add_argument(
        "--max-restarts-per-minute",
        type=int,
        default=ev("MAX_RESTARTS_PER_MINUTE", d.max_restarts_per_minute),
        help="dead workers replaced per minute before exiting 1 [MAHJONG_MAX_RESTARTS_PER_MINUTE]",
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
        default=_maybe_bool(env.get(ENV_PREFIX + "REUSE_PORT")),
        help="SO_REUSEPORT; default: on with more than one worker only [MAHJONG_REUSE_PORT]",
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
        max_streams=int(ns.max_streams),
        max_streams_per_connection=int(ns.max_streams_per_connection),
        stream_idle_seconds=float(ns.stream_idle_seconds),
        stream_max_seconds=float(ns.stream_max_seconds),
        max_connection_age_seconds=float(ns.max_connection_age_seconds),
        max_connection_age_grace_seconds=float(ns.max_connection_age_grace_seconds),
        tls_cert=ns.tls_cert or None,
        tls_key=ns.tls_key or None,
        tls_client_ca=ns.tls_client_ca or None,
        auth_token=_token(ns),
        log_level=str(ns.log_level).upper(),
        json_logs=bool(ns.json_logs),
        metrics_port=int(ns.metrics_port),
        metrics_host=str(ns.metrics_host),
        max_restarts_per_minute=int(ns.max_restarts_per_minute),
        grace_seconds=float(ns.grace_seconds),
        drain_seconds=float(ns.drain_seconds),
        reuse_port=ns.reuse_port,
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
    if cfg.max_streams < 1 or cfg.max_streams_per_connection < 1:
        raise SystemExit("--max-streams and --max-streams-per-connection must be >= 1")
    lifetimes = (
        cfg.stream_idle_seconds,
        cfg.stream_max_seconds,
        cfg.max_connection_age_seconds,
        cfg.max_connection_age_grace_seconds,
    )
    if min(lifetimes) < 0 or cfg.max_restarts_per_minute < 0:
        raise SystemExit("stream and connection lifetimes and --max-restarts-per-minute must be >= 0")
