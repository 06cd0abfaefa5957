"""The generic rules API bound to ``ruleset="wuhan"``, a ``TableView`` builder that takes
Wuhan's own view fields (laizi, indicator, meld_from, seat_melds) beside the common ones, and
the worked cases' seat names."""

from __future__ import annotations

from functools import partial
from typing import Any

from mjcore import rules
from mjcore.rules.wuhan import WuhanView
from mjcore.table import TableView as _TableView

score = partial(rules.score, ruleset="wuhan")
valued_waits = partial(rules.valued_waits, ruleset="wuhan")
largest_wait = partial(rules.largest_wait, ruleset="wuhan")
validate_move = partial(rules.validate_move, ruleset="wuhan")
legal_moves = partial(rules.legal_moves, ruleset="wuhan")
settle = partial(rules.settle, ruleset="wuhan")
resolve_options = partial(rules.resolve_options, "wuhan")

SEAT = {"right": 1, "across": 2, "left": 3}
"""Absolute seats of the relative ones when the winner is seat 0 (the default)."""

_OWN = ("laizi", "indicator", "meld_from", "seat_melds")


def TableView(*args: Any, **kwargs: Any) -> _TableView:  # noqa: N802  (reads like the class)
    own = {k: kwargs.pop(k) for k in _OWN if k in kwargs}
    own.setdefault("laizi", "9p")
    kwargs.setdefault("wall_count", 40)
    return _TableView(*args, rules=WuhanView(**own), **kwargs)


def paid(result: Any) -> dict[str, int]:
    """A result's payments as relative seat -> amount (winner seat 0)."""
    names = {v: k for k, v in SEAT.items()}
    return {names[f]: a for f, t, a in result.payments}
