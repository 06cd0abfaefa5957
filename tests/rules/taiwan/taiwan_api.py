"""The generic rules API bound to ``ruleset="taiwan"``, the §9 step 8 report, and a
``TableView`` builder that takes Taiwan's own view fields beside the common ones."""

from __future__ import annotations

from functools import partial
from typing import Any

from mjcore import rules
from mjcore.rules.taiwan import TaiwanView, report
from mjcore.table import TableView as _TableView

score = partial(rules.score, ruleset="taiwan")
valued_waits = partial(rules.valued_waits, ruleset="taiwan")
validate_move = partial(rules.validate_move, ruleset="taiwan")
legal_moves = partial(rules.legal_moves, ruleset="taiwan")
settle = partial(rules.settle, ruleset="taiwan")
resolve_options = partial(rules.resolve_options, "taiwan")

# 南 seat in the 東 round, the dealer on the winner's left (taiwan.md §14's usual table)
BASE = {"seat_wind": "2z", "round_wind": "1z", "dealer": "left"}
DISCARD = {**BASE, "discarder": "across"}

_OWN = ("seat_wind", "round_wind", "dealer_streak", "flowers", "new_flowers", "ting", "guoshui",
        "replacement_after")


def TableView(*args: Any, **kwargs: Any) -> _TableView:  # noqa: N802  (reads like the class)
    own = {k: kwargs.pop(k) for k in _OWN if k in kwargs}
    kwargs.setdefault("wall_count", 50)
    return _TableView(*args, rules=TaiwanView(**own), **kwargs)


def tai(hand: str, win: str, self_drawn: bool = False, **ctx: Any) -> dict[str, Any]:
    """The report of a win with the usual table's context (``discarder`` across on a discard)
    and ``options``/``preset`` taken from ``ctx``."""
    options = ctx.pop("options", None)
    preset = ctx.pop("preset", None)
    context = {**(BASE if self_drawn else DISCARD), **ctx}
    context = {k: v for k, v in context.items() if v is not None}
    return report(hand, win_tile=win, self_drawn=self_drawn, context=context, options=options,
                  preset=preset)


def ids(hand: str, win: str, self_drawn: bool = False, **ctx: Any) -> dict[str, int]:
    """The patterns of a win as {id: 台}."""
    return {k: v for k, v in tai(hand, win, self_drawn, **ctx)["patterns"]}


__all__ = ["BASE", "DISCARD", "TableView", "ids", "legal_moves", "report", "resolve_options",
           "score", "settle", "tai", "validate_move", "valued_waits"]
