"""The guard around every call and the admission of calls as they arrive.

The guard: the bearer-token check, refusal of calls whose deadline already passed while
queued, the reply-size check, the stream limits, metrics, and turning unexpected exceptions
into INTERNAL (logged with the request). It is not a ``grpc.ServerInterceptor``: grpcio runs an
interceptor pipeline on every call, so instead each method handler is wrapped once, when it is
registered (:class:`GuardedRegistrar` stands in for the server while the servicers add
themselves). Per call the guard costs a ``time_remaining()`` call, two clock reads and, with
metrics on, a counter increment and a histogram observation on children resolved once per
method.

Admission (:class:`Admission`, the one interceptor) must decide as a call arrives, before it
waits in a queue, and grpcio calls nothing else of ours then for registered methods. Every
call runs on one of three counted pools, each with its own cap, so no kind of call can lock
out another: unary calls (``--threads``, cap ``--max-concurrent-calls``), streams
(``ScoreStream``, health ``Watch``, reflection: one thread each, cap ``--max-streams``) and
health checks (cap :data:`HEALTH_CHECKS`, so probes answer whatever else is going on).
"""

from __future__ import annotations

import hmac
import logging
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent import futures
from typing import Any, cast

import grpc
from google.protobuf import descriptor_pool, message_factory

from .observability import Metrics

log = logging.getLogger("service")

EXEMPT_FROM_AUTH = ("/grpc.health.v1.Health/",)
HEALTH_CHECK = "/grpc.health.v1.Health/Check"
#: Health checks in progress at once (their own pool and cap: outside every other cap).
HEALTH_CHECKS = 64
MAX_LOGGED_REQUEST = 2000

_UNAUTHENTICATED = "missing or wrong 'authorization: Bearer <token>'"
_LATE = "deadline passed before the call started"


ERROR_LOGS_PER_SECOND = 5  # log lines per second per kind (method) for internal errors


class LogLimiter:
    """At most ``per_second`` lines a second for each kind; the lines dropped are counted
    (``dropped``, in total per kind) and the next line logged says how many it follows."""

    def __init__(self, per_second: int = ERROR_LOGS_PER_SECOND) -> None:
        self.per_second = per_second
        self.dropped: dict[str, int] = {}
        self._window: dict[str, tuple[int, int, int]] = {}  # kind -> (second, logged, dropped since)
        self._lock = threading.Lock()

    def admit(self, kind: str) -> int | None:
        """None: drop this line; else the number of lines dropped since the last one logged."""
        now = int(time.monotonic())
        with self._lock:
            second, logged, since = self._window.get(kind, (now, 0, 0))
            if second != now:
                second, logged = now, 0
            if logged >= self.per_second:
                self._window[kind] = (second, logged, since + 1)
                self.dropped[kind] = self.dropped.get(kind, 0) + 1
                return None
            self._window[kind] = (second, logged + 1, 0)
            return since


def _request_repr(request: Any, method: str) -> str:
    """The request for a log line; one that came as bytes (the methods that read the wire
    format themselves) is shown parsed, as its method's input message."""
    try:
        if isinstance(request, bytes):
            try:
                service, name = method.strip("/").split("/")
                found = descriptor_pool.Default().FindServiceByName(service).FindMethodByName(name)
                request = message_factory.GetMessageClass(found.input_type).FromString(request)
            except Exception:  # noqa: BLE001 - not parseable: show the bytes
                request = repr(request[:MAX_LOGGED_REQUEST])
        text = str(request)
    except Exception:  # noqa: BLE001 - logging must not fail
        text = repr(type(request))
    return text if len(text) <= MAX_LOGGED_REQUEST else text[:MAX_LOGGED_REQUEST] + "...(truncated)"


def _bearer_token(value: str | bytes) -> bytes | None:
    """The token of an ``authorization`` value; the scheme's letter case does not matter
    (RFC 7235: ``bearer``, ``BEARER``, ``Bearer`` are the same scheme)."""
    raw = value.encode() if isinstance(value, str) else value
    scheme, _, token = raw.strip().partition(b" ")
    return token.strip() if scheme.lower() == b"bearer" else None


# ------------------------------------------------------------------ admission


class CountedPool(futures.ThreadPoolExecutor):
    """A thread pool that knows how many calls it holds, queued or running: what admission
    compares with its cap. grpcio submits a call as it arrives, so the count includes calls
    still waiting for a thread; it drops when the call's work is done."""

    def __init__(self, threads: int, cap: int, limit: str, refusal: str) -> None:
        super().__init__(threads, thread_name_prefix=f"mahjong-{limit}")
        self.cap = cap
        self.limit = limit  #: the metrics' name for the cap
        self.refusal = refusal  #: what a refused client reads
        self.pending = 0
        self._count_lock = threading.Lock()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> futures.Future[Any]:
        fut = super().submit(fn, *args, **kwargs)
        with self._count_lock:
            self.pending += 1
        fut.add_done_callback(self._done)
        return fut

    def _done(self, fut: futures.Future[Any]) -> None:
        with self._count_lock:
            self.pending -= 1


class Admission(grpc.ServerInterceptor):
    """Refuses a call as it arrives when the pool it would run on holds its cap: the client
    gets RESOURCE_EXHAUSTED at once, naming the limit, instead of waiting in a queue. The
    refusal runs on a pool of its own and never parses the request."""

    def __init__(
        self, default_pool: CountedPool, refusal_pool: futures.ThreadPoolExecutor, metrics: Metrics | None
    ) -> None:
        self._default = default_pool
        self._refusal_pool = refusal_pool
        self._metrics = metrics
        self._refusals: dict[tuple[str, str], grpc.RpcMethodHandler[Any, Any]] = {}

    def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], grpc.RpcMethodHandler[Any, Any] | None],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler[Any, Any] | None:
        h = continuation(handler_call_details)
        if h is None:
            return None
        behavior = h.unary_unary or h.unary_stream or h.stream_unary or h.stream_stream
        pool = getattr(behavior, "experimental_thread_pool", None) or self._default
        # grpcio calls this on its one polling thread, which also does every submit: the
        # count cannot grow between this check and the call's submit.
        if not isinstance(pool, CountedPool) or pool.pending < pool.cap:
            return h
        return self._refusal(handler_call_details.method, h, pool)

    def _refusal(self, method: str, h: grpc.RpcMethodHandler[Any, Any], pool: CountedPool) -> Any:
        key = (method, pool.limit)
        found = self._refusals.get(key)
        if found is not None:
            return found
        metrics = self._metrics

        def refuse(request: Any, context: grpc.ServicerContext) -> Any:
            if metrics is not None:
                metrics.refused(method, pool.limit)
            context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, pool.refusal)

        refuse.experimental_thread_pool = self._refusal_pool  # type: ignore[attr-defined]
        make = {
            (False, False): grpc.unary_unary_rpc_method_handler,
            (False, True): grpc.unary_stream_rpc_method_handler,
            (True, False): grpc.stream_unary_rpc_method_handler,
            (True, True): grpc.stream_stream_rpc_method_handler,
        }[(bool(h.request_streaming), bool(h.response_streaming))]
        handler = make(refuse)  # no deserializer: a refused request is not even parsed
        if len(self._refusals) < 1024:  # method names come from clients: bounded
            self._refusals[key] = handler
        return handler


# ------------------------------------------------------------------ stream limits


class _Open:
    """One open stream, as the watchdog sees it."""

    __slots__ = ("method", "context", "peer", "started", "last", "idle_applies", "ending", "closed")

    def __init__(self, method: str, context: grpc.ServicerContext, peer: str, idle_applies: bool) -> None:
        self.method = method
        self.context = context
        self.peer = peer
        self.started = self.last = time.monotonic()
        self.idle_applies = idle_applies
        self.ending = False
        self.closed = False


class StreamLimits:
    """Open streams per connection, and their lifetimes: a stream whose client has sent
    nothing for ``idle_s`` (streams the client writes to: ScoreStream, reflection; a health
    Watch only listens) or that has been open ``max_s`` is ended with DEADLINE_EXCEEDED, so an
    abandoned or hostile stream gives its thread back. A watchdog thread does the ending; it
    runs only while streams are open. 0 turns a lifetime off."""

    def __init__(self, per_connection: int, idle_s: float, max_s: float, metrics: Metrics | None) -> None:
        self.per_connection = per_connection
        self.idle_s = idle_s
        self.max_s = max_s
        self._metrics = metrics
        self._lock = threading.Lock()
        self._open: set[_Open] = set()
        self._per_peer: dict[str, int] = {}
        self._watchdog: threading.Thread | None = None
        lifetimes = [s for s in (idle_s, max_s) if s > 0]
        self._tick = min(1.0, max(0.02, min(lifetimes) / 5)) if lifetimes else 0.0

    def open(self, method: str, context: grpc.ServicerContext, idle_applies: bool) -> _Open | None:
        """Record a stream starting; None when its connection already has its share."""
        peer = context.peer()
        with self._lock:
            n = self._per_peer.get(peer, 0)
            if n >= self.per_connection:
                return None
            self._per_peer[peer] = n + 1
            rec = _Open(method, context, peer, idle_applies)
            self._open.add(rec)
            if self._watchdog is None and self._tick:
                self._watchdog = threading.Thread(target=self._watch, name="mahjong-streams", daemon=True)
                self._watchdog.start()
        # released when the call ends, however it ends (grpcio runs the callback then)
        if not context.add_callback(lambda: self._close(rec)):
            self._close(rec)
        return rec

    def open_count(self) -> int:
        with self._lock:
            return len(self._open)

    def _close(self, rec: _Open) -> None:
        with self._lock:
            if rec.closed:
                return
            rec.closed = True
            self._open.discard(rec)
            n = self._per_peer.pop(rec.peer) - 1
            if n:
                self._per_peer[rec.peer] = n

    def _watch(self) -> None:
        while True:
            time.sleep(self._tick)
            now = time.monotonic()
            with self._lock:
                if not self._open:
                    self._watchdog = None
                    return
                due = [(rec, why) for rec in self._open if (why := self._expired(rec, now))]
                for rec, _ in due:
                    rec.ending = True
            for rec, (limit, text) in due:
                if self._metrics is not None:
                    self._metrics.limited(rec.method, limit)
                _end_call(rec.context, grpc.StatusCode.DEADLINE_EXCEEDED, text)

    def _expired(self, rec: _Open, now: float) -> tuple[str, str] | None:
        if rec.ending:
            return None
        if self.max_s and now - rec.started > self.max_s:
            return "stream_lifetime", f"stream open longer than {self.max_s:g} s (--stream-max-seconds)"
        if self.idle_s and rec.idle_applies and now - rec.last > self.idle_s:
            return "stream_idle", f"no message on the stream for {self.idle_s:g} s (--stream-idle-seconds)"
        return None


def _end_call(context: grpc.ServicerContext, code: grpc.StatusCode, details: str) -> None:
    """End a call from another thread than its handler's, with a status the client can read.
    ``ServicerContext.cancel()`` would only say CANCELLED; grpcio (pinned) keeps the core call
    on the context, whose ``cancel`` takes a status."""
    context.set_code(code)  # what the guard's metrics read when the handler returns
    context.set_details(details)
    call = getattr(getattr(context, "_rpc_event", None), "call", None)
    try:
        call.cancel(code.value[0], details)  # type: ignore[union-attr]
    except Exception:  # noqa: BLE001 - another grpcio: end it without the reason
        context.cancel()


def _touching(requests: Iterator[Any], rec: _Open) -> Iterator[Any]:
    """The request stream, noting when each message came (for the idle limit)."""
    for r in requests:
        rec.last = time.monotonic()
        yield r


# ------------------------------------------------------------------ the guard


class Guard:
    """Wraps method handlers with the checks, the limits, the metrics and the INTERNAL mapping."""

    def __init__(
        self,
        metrics: Metrics | None,
        token: str | None,
        stream_pool: futures.ThreadPoolExecutor | None = None,
        *,
        health_pool: futures.ThreadPoolExecutor | None = None,
        streams: StreamLimits | None = None,
        max_message_bytes: int | None = None,
    ) -> None:
        self._metrics = metrics
        self._token = token.encode() if token else None
        # A streaming call holds a thread while it stays open; grpcio runs a behaviour that
        # carries ``experimental_thread_pool`` on that pool instead of the server's, so open
        # streams never take the threads unary calls need. Health checks get theirs too.
        self._stream_pool = stream_pool
        self._health_pool = health_pool
        self._streams = streams
        self._max_reply = max_message_bytes
        self._log_limiter = LogLimiter()

    # -- checks -------------------------------------------------------------------------
    def _authorized(self, context: grpc.ServicerContext) -> bool:
        expected = self._token
        if expected is None:
            return True
        for key, value in context.invocation_metadata():
            if key == "authorization":
                got = _bearer_token(value)
                return got is not None and hmac.compare_digest(got, expected)
        return False

    def _failed(self, method: str, context: grpc.ServicerContext, start: float) -> None:
        """Record a call that ended with an exception (an abort or a bug)."""
        if self._metrics is None:
            return
        code = cast(Any, context).code()
        self._metrics.observe(method, "UNKNOWN" if code is None else code.name, time.perf_counter() - start)

    def _internal(self, method: str, context: grpc.ServicerContext, request: Any, exc: BaseException) -> None:
        if cast(Any, context).code() is not None:
            return  # an abort: the status is already set
        dropped = self._log_limiter.admit(method)
        if dropped is not None:
            shown = _request_repr(request, method)
            log.error(
                "internal error in %s: %r; request: %s%s",
                method,
                exc,
                shown,
                f" ({dropped} similar lines dropped before this one)" if dropped else "",
                exc_info=exc,
                extra={"fields": {"method": method, "request": shown, "dropped": dropped}},
            )
        context.abort(grpc.StatusCode.INTERNAL, f"internal error in {method} (a bug; it was logged)")

    def _limited(self, method: str, limit: str, context: grpc.ServicerContext, text: str) -> None:
        if self._metrics is not None:
            self._metrics.limited(method, limit)
        context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, text)

    def _open_stream(self, method: str, context: grpc.ServicerContext, idle_applies: bool) -> _Open | None:
        if self._streams is None:
            return None
        rec = self._streams.open(method, context, idle_applies)
        if rec is None:
            n = self._streams.per_connection
            text = f"more than {n} streams open on this connection (--max-streams-per-connection)"
            self._limited(method, "streams_per_connection", context, text)
        return rec

    # -- wrapping -----------------------------------------------------------------------
    def wrap(self, method: str, h: grpc.RpcMethodHandler[Any, Any]) -> grpc.RpcMethodHandler[Any, Any]:
        """``h`` with the guard around its behaviour (same deserializer; the guard serializes
        the reply itself, to refuse one over the size limit with a status that says so and
        count it, where grpcio would fail it after the handler had reported success)."""
        deser, ser = h.request_deserializer, h.response_serializer
        check_auth = self._token is not None and not method.startswith(EXEMPT_FROM_AUTH)
        authorized = self._authorized
        failed = self._failed
        internal = self._internal
        limited = self._limited
        open_stream = self._open_stream
        max_reply = self._max_reply
        perf = time.perf_counter
        ok: Callable[[float], None] = self._metrics.ok_recorder(method) if self._metrics else _no_record

        def done(context: grpc.ServicerContext, start: float) -> None:
            # a handler may set a status without raising (the health service's NOT_FOUND);
            # the stream watchdog sets one on the streams it ends
            if cast(Any, context).code() is None:
                ok(perf() - start)
            else:
                failed(method, context, start)

        def precheck(context: grpc.ServicerContext) -> None:
            if check_auth and not authorized(context):
                context.abort(grpc.StatusCode.UNAUTHENTICATED, _UNAUTHENTICATED)
            remaining = context.time_remaining()
            if remaining is not None and remaining <= 0:
                context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, _LATE)

        def sized(resp: Any, context: grpc.ServicerContext) -> bytes:
            data: bytes = ser(resp) if ser is not None else resp
            if max_reply is not None and len(data) > max_reply:
                text = f"reply of {len(data)} bytes is over the {max_reply} byte limit (--max-message-bytes)"
                limited(method, "message_size", context, text)
            return data

        if h.unary_unary is not None:
            inner_uu = h.unary_unary

            def uu(request: Any, context: grpc.ServicerContext) -> Any:
                start = perf()
                try:
                    precheck(context)
                    try:
                        resp = inner_uu(request, context)
                    except Exception as exc:
                        internal(method, context, request, exc)
                        raise
                    data = sized(resp, context)
                except BaseException:
                    failed(method, context, start)
                    raise
                done(context, start)
                return data

            if method == HEALTH_CHECK and self._health_pool is not None:
                uu.experimental_thread_pool = self._health_pool  # type: ignore[attr-defined]
            return grpc.unary_unary_rpc_method_handler(uu, deser, None)
        if h.unary_stream is not None:
            inner_us = h.unary_stream

            def us(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
                start = perf()
                try:
                    precheck(context)
                    open_stream(method, context, False)
                    try:
                        for resp in inner_us(request, context):
                            yield sized(resp, context)
                    except Exception as exc:
                        internal(method, context, request, exc)
                        raise
                except BaseException:
                    failed(method, context, start)
                    raise
                done(context, start)

            self._on_stream_pool(us)
            return grpc.unary_stream_rpc_method_handler(us, deser, None)
        if h.stream_unary is not None:
            inner_su = h.stream_unary

            def su(request_iterator: Iterator[Any], context: grpc.ServicerContext) -> Any:
                start = perf()
                try:
                    precheck(context)
                    rec = open_stream(method, context, True)
                    requests = request_iterator if rec is None else _touching(request_iterator, rec)
                    try:
                        resp = inner_su(requests, context)
                    except Exception as exc:
                        internal(method, context, "<stream>", exc)
                        raise
                    data = sized(resp, context)
                except BaseException:
                    failed(method, context, start)
                    raise
                done(context, start)
                return data

            self._on_stream_pool(su)
            return grpc.stream_unary_rpc_method_handler(su, deser, None)
        inner_ss = h.stream_stream
        assert inner_ss is not None

        def ss(request_iterator: Iterator[Any], context: grpc.ServicerContext) -> Iterator[Any]:
            start = perf()
            try:
                precheck(context)
                rec = open_stream(method, context, True)
                requests = request_iterator if rec is None else _touching(request_iterator, rec)
                try:
                    for resp in inner_ss(requests, context):
                        yield sized(resp, context)
                except Exception as exc:
                    internal(method, context, "<stream>", exc)
                    raise
            except BaseException:
                failed(method, context, start)
                raise
            done(context, start)

        self._on_stream_pool(ss)
        return grpc.stream_stream_rpc_method_handler(ss, deser, None)

    def _on_stream_pool(self, behavior: Any) -> None:
        if self._stream_pool is not None:
            behavior.experimental_thread_pool = self._stream_pool


def _no_record(seconds: float) -> None:
    return None


class _GuardedGenericHandler(grpc.GenericRpcHandler):
    """A generic handler whose handlers come out wrapped (once per method)."""

    def __init__(self, inner: grpc.GenericRpcHandler, guard: Guard) -> None:
        self._inner = inner
        self._guard = guard
        self._cache: dict[str, grpc.RpcMethodHandler[Any, Any] | None] = {}

    def service(
        self, handler_call_details: grpc.HandlerCallDetails
    ) -> grpc.RpcMethodHandler[Any, Any] | None:
        method = handler_call_details.method
        try:
            return self._cache[method]
        except KeyError:
            pass
        h = self._inner.service(handler_call_details)
        wrapped = None if h is None else self._guard.wrap(method, h)
        if len(self._cache) < 1024:  # method names come from clients: bounded
            self._cache[method] = wrapped
        return wrapped


class GuardedRegistrar:
    """Stands in for a ``grpc.Server`` while servicers register: every handler added through
    it reaches the server wrapped by the guard."""

    def __init__(self, server: grpc.Server, guard: Guard) -> None:
        self._server = server
        self._guard = guard

    def add_generic_rpc_handlers(self, generic_rpc_handlers: Sequence[grpc.GenericRpcHandler]) -> None:
        self._server.add_generic_rpc_handlers(
            tuple(_GuardedGenericHandler(h, self._guard) for h in generic_rpc_handlers)
        )

    def add_registered_method_handlers(
        self, service_name: str, method_handlers: dict[str, grpc.RpcMethodHandler[Any, Any]]
    ) -> None:
        wrapped = {
            name: self._guard.wrap(f"/{service_name}/{name}", h) for name, h in method_handlers.items()
        }
        self._server.add_registered_method_handlers(service_name, wrapped)
