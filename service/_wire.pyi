"""Types of the compiled ``service._wire`` (see ``_wire.pyx``)."""

from collections.abc import Callable
from typing import Any

def read_score_request(
    data: bytes,
) -> tuple[str, bytes | None, str, int, bool, bytes | None] | None: ...
def read_bulk_head(data: bytes) -> tuple[str, bytes | None, bool, int] | None: ...
def field_bytes(field: int, payload: bytes) -> bytes: ...
def score_bulk(
    data: bytes,
    score: Callable[..., Any],
    options: Any,
    context_of: Callable[[bytes], Any],
    contexts: dict[bytes, Any],
    encode: Callable[[Any], bytes],
    encoded: dict[int, Any],
    fallback: Callable[[bytes], bytes],
    hand_of_counts: Callable[[tuple[int, ...]], Any],
    hands: dict[str, Any],
    refused: tuple[type[BaseException], ...],
    check_deadline: Callable[[int], None],
    check_every: int,
    batch: tuple[Any, Callable[[bytes | None, bool], Any], Callable[..., tuple[bytes, bytes]], bool]
    | None = None,
) -> bytes | None: ...

DETAIL_DEC_WIDTH: int
def decomposition_bytes(d: tuple[int, tuple[int, ...], tuple[int, ...]]) -> bytes: ...
