"""What every rule set's move checks share: the refusal a check raises, the view's common
checks and rules part, and ``validate_move``/``legal_moves`` built on one check function.

A rule set writes one function ``check(move)`` that raises ``Refusal(code, message)`` for an
illegal move; ``answer`` turns it into a ``MoveCheck`` and ``legal_among`` keeps the
candidates it lets through, so the two entry points can never disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from mjcore.errors import MahjongError
from mjcore.rules.common.results import MoveCheck
from mjcore.table import Move, TableView

Part = TypeVar("Part")


class Refusal(Exception):
    """A move is illegal: ``code`` is one of the rule set's reason codes."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def unscorable_view(err: MahjongError) -> MahjongError:
    """``bad_state`` for a view whose own win the rule set's ``score`` refuses for another
    reason than no win (``err``): the view contradicts itself."""
    return MahjongError("bad_state", f"the view cannot be scored: {err.code}: {err.message}")


def check_table_view(state: object, phases: tuple[str, ...]) -> TableView:
    """The common part of a view check: a ``TableView`` whose phase is one of ``phases``
    (``MahjongError('bad_state')`` otherwise: the view is the input)."""
    if not isinstance(state, TableView):
        raise MahjongError("bad_state", "expected a TableView")
    state.check(phases)
    return state


def rules_part(state: TableView, view_type: type[Part], default: Part | None) -> Part:
    """The rule set's part of the view, ``default`` when the view has none (``None``: the
    part is required); ``bad_state`` when it is another rule set's."""
    part = state.rules
    if part is None:
        if default is None:
            raise MahjongError("bad_state", f"the view needs its rules part, a {view_type.__name__}")
        return default
    if not isinstance(part, view_type):
        raise MahjongError("bad_state", f"the view's rules part must be a {view_type.__name__}, "
                           f"got {type(part).__name__}")
    return part


_LEGAL = MoveCheck(True)


def answer(check: Callable[[Move], None], move: object) -> MoveCheck:
    """``validate_move``'s answer: legal, or the refusal's code and message."""
    if not isinstance(move, Move):
        return MoveCheck(False, "bad_move", "not a Move")
    try:
        check(move)
    except Refusal as r:
        return MoveCheck(False, r.code, r.message)
    return _LEGAL


def legal_among(candidates: Iterable[Move], check: Callable[[Move], None]) -> tuple[Move, ...]:
    """The candidates ``check`` lets through, in order."""
    legal = []
    for move in candidates:
        try:
            check(move)
        except Refusal:
            continue
        legal.append(move)
    return tuple(legal)
