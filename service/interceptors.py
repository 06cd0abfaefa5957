"""One server interceptor doing, around every call: the bearer-token check, refusal of calls
whose deadline already passed while queued, metrics, and turning unexpected exceptions into
INTERNAL (logged with the request)."""

from __future__ import annotations

import hmac
import logging
import time
from collections.abc import Callable, Iterator
from typing import Any, cast

import grpc

from service.observability import Metrics

log = logging.getLogger("service")

EXEMPT_FROM_AUTH = ("/grpc.health.v1.Health/",)
MAX_LOGGED_REQUEST = 2000


def _request_repr(request: Any) -> str:
    try:
        text = str(request) if not isinstance(request, bytes) else repr(request[:200])
    except Exception:  # noqa: BLE001 - logging must not fail
        text = repr(type(request))
    return text if len(text) <= MAX_LOGGED_REQUEST else text[:MAX_LOGGED_REQUEST] + "...(truncated)"


class GuardInterceptor(grpc.ServerInterceptor):
    def __init__(self, metrics: Metrics | None, token: str | None) -> None:
        self._metrics = metrics
        self._expected = f"Bearer {token}".encode() if token else None
        self._cache: dict[str, grpc.RpcMethodHandler[Any, Any]] = {}

    # -- checks -------------------------------------------------------------------------
    def _authorized(self, context: grpc.ServicerContext) -> bool:
        if self._expected is None:
            return True
        for key, value in context.invocation_metadata():
            if key == "authorization":
                got = value.encode() if isinstance(value, str) else value
                return hmac.compare_digest(got, self._expected)
        return False

    def _precheck(self, method: str, context: grpc.ServicerContext) -> None:
        if self._expected is not None and not method.startswith(EXEMPT_FROM_AUTH):
            if not self._authorized(context):
                context.abort(
                    grpc.StatusCode.UNAUTHENTICATED,
                    "missing or wrong 'authorization: Bearer <token>'",
                )
        remaining = context.time_remaining()
        if remaining is not None and remaining <= 0:
            context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, "deadline passed before the call started")

    def _finish(self, method: str, context: grpc.ServicerContext, start: float, failed: bool) -> None:
        if self._metrics is None:
            return
        code = cast(Any, context).code()
        if code is None:
            name = "UNKNOWN" if failed else "OK"
        else:
            name = code.name
        self._metrics.observe(method, name, time.perf_counter() - start)

    def _internal(self, method: str, context: grpc.ServicerContext, request: Any, exc: BaseException) -> None:
        if cast(Any, context).code() is not None:
            return  # an abort: the status is already set
        log.error(
            "internal error in %s: %r; request: %s",
            method,
            exc,
            _request_repr(request),
            exc_info=exc,
            extra={"fields": {"method": method, "request": _request_repr(request)}},
        )
        context.abort(grpc.StatusCode.INTERNAL, f"internal error in {method} (a bug; it was logged)")

    # -- wrapping -----------------------------------------------------------------------
    def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], grpc.RpcMethodHandler[Any, Any] | None],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler[Any, Any] | None:
        method = handler_call_details.method
        cached = self._cache.get(method)
        if cached is not None:
            return cached
        handler = continuation(handler_call_details)
        if handler is None:
            return None
        wrapped = self._wrap(method, handler)
        self._cache[method] = wrapped
        return wrapped

    def _wrap(self, method: str, h: grpc.RpcMethodHandler[Any, Any]) -> grpc.RpcMethodHandler[Any, Any]:
        deser, ser = h.request_deserializer, h.response_serializer
        if h.unary_unary is not None:
            inner_uu = h.unary_unary

            def uu(request: Any, context: grpc.ServicerContext) -> Any:
                start = time.perf_counter()
                failed = True
                try:
                    self._precheck(method, context)
                    try:
                        resp = inner_uu(request, context)
                    except Exception as exc:
                        self._internal(method, context, request, exc)
                        raise
                    failed = False
                    return resp
                finally:
                    self._finish(method, context, start, failed)

            return grpc.unary_unary_rpc_method_handler(uu, deser, ser)
        if h.unary_stream is not None:
            inner_us = h.unary_stream

            def us(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
                start = time.perf_counter()
                failed = True
                try:
                    self._precheck(method, context)
                    try:
                        yield from inner_us(request, context)
                    except Exception as exc:
                        self._internal(method, context, request, exc)
                        raise
                    failed = False
                finally:
                    self._finish(method, context, start, failed)

            return grpc.unary_stream_rpc_method_handler(us, deser, ser)
        if h.stream_unary is not None:
            inner_su = h.stream_unary

            def su(request_iterator: Iterator[Any], context: grpc.ServicerContext) -> Any:
                start = time.perf_counter()
                failed = True
                try:
                    self._precheck(method, context)
                    try:
                        resp = inner_su(request_iterator, context)
                    except Exception as exc:
                        self._internal(method, context, "<stream>", exc)
                        raise
                    failed = False
                    return resp
                finally:
                    self._finish(method, context, start, failed)

            return grpc.stream_unary_rpc_method_handler(su, deser, ser)
        inner_ss = h.stream_stream
        assert inner_ss is not None

        def ss(request_iterator: Iterator[Any], context: grpc.ServicerContext) -> Iterator[Any]:
            start = time.perf_counter()
            failed = True
            try:
                self._precheck(method, context)
                try:
                    yield from inner_ss(request_iterator, context)
                except Exception as exc:
                    self._internal(method, context, "<stream>", exc)
                    raise
                failed = False
            finally:
                self._finish(method, context, start, failed)

        return grpc.stream_stream_rpc_method_handler(ss, deser, ser)
