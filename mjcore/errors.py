"""The one error type of the engine: a ValueError with a stable machine-readable code."""

from __future__ import annotations


class MahjongError(ValueError):
    """Bad input to the engine.

    ``code`` is stable and meant for programs (the gRPC service puts it in the error details);
    ``message`` names the problem and, where it has one, its place in the input.
    """

    code: str
    message: str

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

    def __reduce__(self) -> tuple[type[MahjongError], tuple[str, str]]:
        return (type(self), (self.code, self.message))
