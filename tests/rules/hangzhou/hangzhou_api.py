"""The generic rules API bound to ``ruleset="hangzhou"``, a ``TableView`` builder that takes
Hangzhou's own view fields beside the common ones, and the spec's way of writing a result."""

from __future__ import annotations

from functools import partial
from typing import Any

from mjcore import rules
from mjcore.rules.hangzhou import HangzhouView, relative_points
from mjcore.table import TableView as _TableView

score = partial(rules.score, ruleset="hangzhou")
valued_waits = partial(rules.valued_waits, ruleset="hangzhou")
validate_move = partial(rules.validate_move, ruleset="hangzhou")
legal_moves = partial(rules.legal_moves, ruleset="hangzhou")
settle = partial(rules.settle, ruleset="hangzhou")
describe = partial(rules.describe_ruleset, "hangzhou")
resolve_options = partial(rules.resolve_options, "hangzhou")

_OWN = ("caishen", "dealer_streak", "piao_count", "piao_on_gang", "piao_lock",
        "passed_win_tiles", "passed_win_tiles_hand", "claims_from", "gangs_from")


def TableView(*args: Any, **kwargs: Any) -> _TableView:  # noqa: N802  (reads like the class)
    own = {k: kwargs.pop(k) for k in _OWN if k in kwargs}
    kwargs.setdefault("wall_count", 55)
    return _TableView(*args, rules=HangzhouView(**own), **kwargs)


def as_spec(result: Any, winner: int = 0) -> dict[str, Any]:
    """A ``ScoreResult`` written like the worked cases' ``expected`` (§7 step 7)."""
    return {"patterns": [[h.id, h.fan] for h in result.patterns],
            "multiplier": result.multiplier, "points": relative_points(result, winner),
            "fan": result.fan}


def baiban(**extra: Any) -> dict[str, Any]:
    """Options with the 白板 as the 财神."""
    return {"caishen_mode": "baiban", **extra}
