"""Map engine errors to gRPC statuses users can act on.

- ``MahjongError`` -> ``INVALID_ARGUMENT`` with a ``google.rpc.BadRequest`` field violation
  naming the request field and a ``google.rpc.ErrorInfo`` whose ``reason`` is the engine's
  stable code (``too_many_copies``, ``not_a_win``, ``bad_option``, ...).
- code ``unknown_ruleset`` -> ``NOT_FOUND`` (same details, field ``ruleset``).
- anything else -> ``INTERNAL``: a bug in us, logged with the request.
"""

from __future__ import annotations

from typing import Any, NoReturn, cast

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

ERROR_DOMAIN = "mahjong.v1"
#: Longest message sent back: messages quote the client's input, which must not come back
#: whole (a long name in a message and its details grew a reply past the client's limit).
MAX_MESSAGE_CHARS = 256


def clip(message: str) -> str:
    """``message`` cut to MAX_MESSAGE_CHARS."""
    return message if len(message) <= MAX_MESSAGE_CHARS else message[: MAX_MESSAGE_CHARS - 1] + "…"

# Engine codes that point at a request field other than the one being converted.
CODE_FIELDS = {
    "bad_option": "options",
    "unknown_ruleset": "ruleset",
    "bad_context": "context",
    "bad_move": "move",
}


class FieldError(Exception):
    """A request field the service itself refuses (missing, wrong form)."""

    def __init__(self, field: str, code: str, message: str) -> None:
        super().__init__(f"{field}: {code}: {message}")
        self.field = field
        self.code = code
        self.message = message


def rich_status(grpc_code: grpc.StatusCode, code: str, message: str, field: str) -> grpc.Status:
    message = clip(message)
    bad = error_details_pb2.BadRequest(
        field_violations=[error_details_pb2.BadRequest.FieldViolation(field=field, description=message)]
    )
    info = error_details_pb2.ErrorInfo(reason=code, domain=ERROR_DOMAIN, metadata={"field": field})
    details = []
    for msg in (bad, info):
        a = any_pb2.Any()
        a.Pack(msg)
        details.append(a)
    proto_code = getattr(code_pb2, grpc_code.name)
    st = status_pb2.Status(code=proto_code, message=f"{code}: {message}", details=details)
    return rpc_status.to_status(st)


def abort_invalid(context: grpc.ServicerContext, code: str, message: str, field: str) -> NoReturn:
    grpc_code = grpc.StatusCode.NOT_FOUND if code == "unknown_ruleset" else grpc.StatusCode.INVALID_ARGUMENT
    if code == "unknown_ruleset":
        field = "ruleset"
    context.abort_with_status(rich_status(grpc_code, code, message, field))
    raise AssertionError("unreachable")  # abort_with_status raises


def decode_details(call_error: grpc.RpcError) -> tuple[str, str, str] | None:
    """Client-side helper: (engine code, field, description) of a rich error, or None."""
    st = rpc_status.from_call(cast(Any, call_error))
    if st is None:
        return None
    code = field = desc = ""
    for d in st.details:
        if d.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            d.Unpack(info)
            code = info.reason
        elif d.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            d.Unpack(bad)
            if bad.field_violations:
                field = bad.field_violations[0].field
                desc = bad.field_violations[0].description
    return code, field, desc
