"""The guard around every call: the bearer-token check, refusal of calls whose deadline already
passed while queued, metrics, and turning unexpected exceptions into INTERNAL (logged with the
request).

It is not a ``grpc.ServerInterceptor``: grpcio runs an interceptor pipeline on every call, so
instead each method handler is wrapped once, when it is registered (:class:`GuardedRegistrar`
stands in for the server while the servicers add themselves). Per call the guard costs a
``time_remaining()`` call, two clock reads and, with metrics on, a counter increment and a
histogram observation on children resolved once per method.
"""

from __future__ import annotations

import hmac
import logging
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent import futures
from typing import Any, cast

import grpc
from google.protobuf import descriptor_pool, message_factory

from .observability import Metrics

log = logging.getLogger("service")

EXEMPT_FROM_AUTH = ("/grpc.health.v1.Health/",)
MAX_LOGGED_REQUEST = 2000

_UNAUTHENTICATED = "missing or wrong 'authorization: Bearer <token>'"
_LATE = "deadline passed before the call started"


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


class Guard:
    """Wraps method handlers with the checks, the metrics and the INTERNAL mapping."""

    def __init__(
        self,
        metrics: Metrics | None,
        token: str | None,
        stream_pool: futures.ThreadPoolExecutor | None = None,
    ) -> None:
        self._metrics = metrics
        self._expected = f"Bearer {token}".encode() if token else None
        # Calls with a streaming response hold a thread while they stay open; grpcio runs a
        # behaviour that carries ``experimental_thread_pool`` on that pool instead of the
        # server's, so open streams never take the threads unary calls need.
        self._stream_pool = stream_pool

    # -- checks -------------------------------------------------------------------------
    def _authorized(self, context: grpc.ServicerContext) -> bool:
        expected = self._expected
        if expected is None:
            return True
        for key, value in context.invocation_metadata():
            if key == "authorization":
                got = value.encode() if isinstance(value, str) else value
                return hmac.compare_digest(got, expected)
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
        log.error(
            "internal error in %s: %r; request: %s",
            method,
            exc,
            _request_repr(request, method),
            exc_info=exc,
            extra={"fields": {"method": method, "request": _request_repr(request, method)}},
        )
        context.abort(grpc.StatusCode.INTERNAL, f"internal error in {method} (a bug; it was logged)")

    # -- wrapping -----------------------------------------------------------------------
    def _on_stream_pool(self, behavior: Any) -> None:
        if self._stream_pool is not None:
            behavior.experimental_thread_pool = self._stream_pool

    def wrap(self, method: str, h: grpc.RpcMethodHandler[Any, Any]) -> grpc.RpcMethodHandler[Any, Any]:
        """``h`` with the guard around its behaviour (same (de)serializers)."""
        deser, ser = h.request_deserializer, h.response_serializer
        check_auth = self._expected is not None and not method.startswith(EXEMPT_FROM_AUTH)
        authorized = self._authorized
        failed = self._failed
        internal = self._internal
        perf = time.perf_counter
        ok: Callable[[float], None] = self._metrics.ok_recorder(method) if self._metrics else _no_record

        def done(context: grpc.ServicerContext, start: float) -> None:
            # a handler may set a status without raising (the health service's NOT_FOUND)
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
                except BaseException:
                    failed(method, context, start)
                    raise
                done(context, start)
                return resp

            return grpc.unary_unary_rpc_method_handler(uu, deser, ser)
        if h.unary_stream is not None:
            inner_us = h.unary_stream

            def us(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
                start = perf()
                try:
                    precheck(context)
                    try:
                        yield from inner_us(request, context)
                    except Exception as exc:
                        internal(method, context, request, exc)
                        raise
                except BaseException:
                    failed(method, context, start)
                    raise
                done(context, start)

            self._on_stream_pool(us)
            return grpc.unary_stream_rpc_method_handler(us, deser, ser)
        if h.stream_unary is not None:
            inner_su = h.stream_unary

            def su(request_iterator: Iterator[Any], context: grpc.ServicerContext) -> Any:
                start = perf()
                try:
                    precheck(context)
                    try:
                        resp = inner_su(request_iterator, context)
                    except Exception as exc:
                        internal(method, context, "<stream>", exc)
                        raise
                except BaseException:
                    failed(method, context, start)
                    raise
                done(context, start)
                return resp

            return grpc.stream_unary_rpc_method_handler(su, deser, ser)
        inner_ss = h.stream_stream
        assert inner_ss is not None

        def ss(request_iterator: Iterator[Any], context: grpc.ServicerContext) -> Iterator[Any]:
            start = perf()
            try:
                precheck(context)
                try:
                    yield from inner_ss(request_iterator, context)
                except Exception as exc:
                    internal(method, context, "<stream>", exc)
                    raise
            except BaseException:
                failed(method, context, start)
                raise
            done(context, start)

        self._on_stream_pool(ss)
        return grpc.stream_stream_rpc_method_handler(ss, deser, ser)


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
