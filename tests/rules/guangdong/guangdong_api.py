"""The generic rules API bound to ``ruleset="guangdong"``, a ``TableView`` builder that takes
Guangdong's own view fields (round_wind, meld_from, bao_exempt) beside the common ones, and a
``points`` view of a result as the worked cases write it."""

from __future__ import annotations

from functools import partial
from typing import Any

from mjcore import rules
from mjcore.rules.guangdong import GuangdongView, points
from mjcore.table import TableView as _TableView

score = partial(rules.score, ruleset="guangdong")
valued_waits = partial(rules.valued_waits, ruleset="guangdong")
largest_wait = partial(rules.largest_wait, ruleset="guangdong")
validate_move = partial(rules.validate_move, ruleset="guangdong")
legal_moves = partial(rules.legal_moves, ruleset="guangdong")
settle = partial(rules.settle, ruleset="guangdong")
resolve_options = partial(rules.resolve_options, "guangdong")

SOUTH = {"seat_wind": "2z", "round_wind": "1z"}  # the worked cases' default seat and round
_OWN = ("round_wind", "meld_from", "bao_exempt")


def ctx(**kw: Any) -> dict[str, Any]:
    """A win context: South seat in an East round unless overridden."""
    return {**SOUTH, **kw}


def TableView(*args: Any, **kwargs: Any) -> _TableView:  # noqa: N802  (reads like the class)
    own = {k: kwargs.pop(k) for k in _OWN if k in kwargs}
    kwargs.setdefault("wall_count", 55)
    return _TableView(*args, rules=GuangdongView(**own), **kwargs)


__all__ = ["SOUTH", "TableView", "ctx", "largest_wait", "legal_moves", "points",
           "resolve_options", "score", "settle", "validate_move", "valued_waits"]
