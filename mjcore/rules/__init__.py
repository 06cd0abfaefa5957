"""Rule sets: registry, scoring, valued waits, move checks and settlement.

Every function takes the rule set by name (``ruleset="guangdong"``) and its options as a plain
mapping (validated, ``MahjongError('bad_option')``) and/or a named ``preset``. Resolved options
are memoised, so passing the same options again costs a dictionary look-up.

``RULESETS`` is the one list of rule sets: each names a package ``mjcore.rules.<name>`` that
registers itself when imported. Nothing else here knows any rule set.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from mjcore import _core
from mjcore.errors import MahjongError
from mjcore.rules.common.options import OptionSpec, OptionValue
from mjcore.rules.common.results import (
    Ledger,
    MoveCheck,
    PatternHit,
    Payment,
    ScoreResult,
    ValuedWait,
)
from mjcore.rules.common.ruleset import (
    _REGISTRY,
    Described,
    Ruleset,
    get_ruleset,
    list_rulesets,
    register,
)
from mjcore.rules.common.table import ExtraSpec, FanTable, FloorSpec, PatternSpec, Policy
from mjcore.table import HandStart, Kong, Move, TableView, WallEmpty, Win

RULESETS: tuple[str, ...] = ("sichuan", "guangdong", "hangzhou", "taiwan", "wuhan")

for _name in RULESETS:
    importlib.import_module(f"mjcore.rules.{_name}")

__all__ = [
    "RULESETS", "Described", "ExtraSpec", "FanTable", "FloorSpec", "HandStart", "Kong", "Ledger",
    "Move", "MoveCheck", "OptionSpec", "OptionValue", "PatternHit", "PatternSpec", "Payment",
    "Policy", "Ruleset", "ScoreResult", "TableView", "ValuedWait", "WallEmpty", "Win",
    "describe_ruleset", "get_ruleset", "largest_wait", "legal_moves", "list_rulesets", "register",
    "resolve_options", "score", "settle", "validate_move", "valued_waits",
]


def describe_ruleset(name: str) -> dict[str, Any]:
    """Everything a client needs to show a rule set (table, options, presets …) as plain data."""
    return get_ruleset(name).describe()


def resolve_options(ruleset: str, options: Mapping[str, object] | None = None,
                    preset: str | None = None) -> Any:
    """The validated options object a rule set computes with (memoised per input)."""
    return get_ruleset(ruleset).resolver.resolve(options, preset)


def score(
    hand: Any,
    *,
    win_tile: int | str,
    ruleset: str,
    self_drawn: bool = False,
    context: Mapping[str, object] | None = None,
    options: Mapping[str, object] | None = None,
    preset: str | None = None,
) -> ScoreResult:
    """Score a winning hand (concealed tiles including ``win_tile``, plus melds).

    Raises ``MahjongError`` with ``not_a_win``, ``bad_context``, ``bad_option``,
    ``unknown_ruleset`` or the hand's notation/count codes."""
    rs = _REGISTRY.get(ruleset) if type(ruleset) is str else None
    if rs is None:
        rs = get_ruleset(ruleset)  # (raises unknown_ruleset)
    if options is None and preset is None:  # the common call: no option look-up at all
        return rs.engine.score(hand, win_tile, self_drawn, context, rs.resolver.default)
    try:
        o = rs.resolver.resolve(options, preset)
    except MahjongError:
        if rs.input_check is not None:  # its hand checks come before the options' (Taiwan)
            rs.input_check(hand, win_tile, context)
        raise
    return rs.engine.score(hand, win_tile, self_drawn, context, o)


def valued_waits(
    hand: Any,
    *,
    ruleset: str,
    context: Mapping[str, object] | None = None,
    options: Mapping[str, object] | None = None,
    preset: str | None = None,
    visible: Any = None,
) -> tuple[ValuedWait, ...]:
    """The winning tiles of a ready hand, each with its value on a discard and self-drawn and
    how many copies are unseen (4 minus those in the hand/melds and in ``visible``: 34
    counts, a list of tiles or tiles text). A wait counts even when no copy is unseen."""
    rs = _REGISTRY.get(ruleset) if type(ruleset) is str else None
    if rs is None:
        rs = get_ruleset(ruleset)  # (raises unknown_ruleset)
    o = rs.resolver.default if options is None and preset is None else rs.resolver.resolve(
        options, preset)
    return rs.engine.valued_waits(hand, context, o, visible)


def _text_signature(fn: Any) -> str:
    """``fn``'s name and signature without annotations, then its doc: a C function's doc."""
    sig = inspect.signature(fn)
    sig = sig.replace(parameters=[p.replace(annotation=p.empty) for p in
                                  sig.parameters.values()], return_annotation=sig.empty)
    return f"{fn.__name__}{sig}\n--\n\n{inspect.getdoc(fn)}"


# The calls go straight from C to the rule set's engine (``_core._front_functions``: no
# Python frame) with the default options or options the resolver accepted lately (found by
# their content); every other call (new or bad options, an unknown rule set) to the functions
# above.
_python_score, _python_valued_waits = score, valued_waits  # (the tests compare with them)
_core._set_general(score, valued_waits)
if not TYPE_CHECKING:
    score, valued_waits = _core._front_functions(__name__, _text_signature(score),
                                                 _text_signature(valued_waits))


def largest_wait(
    hand: Any,
    *,
    ruleset: str,
    context: Mapping[str, object] | None = None,
    options: Mapping[str, object] | None = None,
    preset: str | None = None,
    visible: Any = None,
) -> ValuedWait | None:
    """The wait worth most on a discard (ties: self-drawn), or ``None`` when not ready."""
    best: ValuedWait | None = None
    for w in valued_waits(hand, ruleset=ruleset, context=context, options=options,
                          preset=preset, visible=visible):
        if best is None or (w.fan_discard, w.fan_self_drawn) > (best.fan_discard,
                                                                 best.fan_self_drawn):
            best = w
    return best


def validate_move(
    state: TableView,
    move: Move,
    options: Mapping[str, object] | None = None,
    *,
    ruleset: str,
    preset: str | None = None,
) -> MoveCheck:
    """Is ``move`` legal for the acting seat of ``state``? ``MoveCheck(ok, code, message)``."""
    rs = get_ruleset(ruleset)
    return rs.engine.validate_move(state, move, rs.resolver.resolve(options, preset))


def legal_moves(
    state: TableView,
    options: Mapping[str, object] | None = None,
    *,
    ruleset: str,
    preset: str | None = None,
) -> tuple[Move, ...]:
    """Every legal move of the acting seat of ``state``."""
    rs = get_ruleset(ruleset)
    return rs.engine.legal_moves(state, rs.resolver.resolve(options, preset))


def settle(
    events: Iterable[object],
    options: Mapping[str, object] | None = None,
    *,
    ruleset: str,
    preset: str | None = None,
    dealer: int | None = None,
    dealer_streak: int | None = None,
) -> Ledger:
    """The ledger of a whole hand from its event log (kongs, wins, the end). ``dealer`` and
    ``dealer_streak`` (the dealer's 連莊 count, Taiwan) are the hand's; a ``HandStart`` event
    may give them instead."""
    rs = get_ruleset(ruleset)
    return rs.engine.settle(events, rs.resolver.resolve(options, preset), dealer, dealer_streak)
