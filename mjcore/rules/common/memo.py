"""The rule sets' memos: dicts bounded by forgetting everything once full."""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Memo(dict[K, V]):
    """A dict that forgets every entry once it holds ``limit`` (keys come from input, so every
    memo has a bound; a full clear needs no bookkeeping per entry, and what is asked often is
    back at once)."""

    __slots__ = ("limit",)

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def keep(self, key: K, value: V) -> V:
        """``self[key] = value``, first forgetting everything when full; ``value``."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value
