"""The generic rules API bound to ``ruleset="sichuan"``, and a ``TableView`` builder that takes
Sichuan's own view fields (missing_suit, has_won, guoshui_fan) beside the common ones."""

from __future__ import annotations

from functools import partial
from typing import Any

from mjcore import rules
from mjcore.rules.sichuan import SichuanView
from mjcore.table import TableView as _TableView

score = partial(rules.score, ruleset="sichuan")
valued_waits = partial(rules.valued_waits, ruleset="sichuan")
largest_wait = partial(rules.largest_wait, ruleset="sichuan")
validate_move = partial(rules.validate_move, ruleset="sichuan")
legal_moves = partial(rules.legal_moves, ruleset="sichuan")
settle = partial(rules.settle, ruleset="sichuan")
resolve_options = rules.resolve_options

_OWN = ("missing_suit", "has_won", "guoshui_fan")


def TableView(*args: Any, **kwargs: Any) -> _TableView:  # noqa: N802  (reads like the class)
    own = {k: kwargs.pop(k) for k in _OWN if k in kwargs}
    kwargs.setdefault("wall_count", 55)
    return _TableView(*args, rules=SichuanView(**own), **kwargs)
