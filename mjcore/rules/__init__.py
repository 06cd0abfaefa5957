"""Rule sets: registry, scoring, valued waits, move checks and settlement.

Every function takes the rule set by name (``ruleset="sichuan"``) and its options as a
plain mapping (validated, ``MahjongError('bad_option')``) and/or a named ``preset``.
Resolved options are cached, so passing ``options=None`` costs nothing per call.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from mjcore.rules import sichuan as _sichuan  # noqa: F401  (registers "sichuan")
from mjcore.rules._base import (
    AddOnSpec,
    Described,
    Ledger,
    MoveCheck,
    OptionSpec,
    OptionValue,
    PatternHit,
    PatternSpec,
    Payment,
    Ruleset,
    ScoreResult,
    ValuedWait,
    describe_ruleset,
    get_ruleset,
    list_rulesets,
    register,
)
from mjcore.rules.sichuan import resolve_claims, win_context
from mjcore.table import DingQue, HandStart, Kong, Move, TableView, WallEmpty, Win

__all__ = [
    "AddOnSpec",
    "Described",
    "DingQue",
    "HandStart",
    "Kong",
    "Ledger",
    "Move",
    "MoveCheck",
    "OptionSpec",
    "OptionValue",
    "PatternHit",
    "PatternSpec",
    "Payment",
    "Ruleset",
    "ScoreResult",
    "TableView",
    "ValuedWait",
    "WallEmpty",
    "Win",
    "describe_ruleset",
    "get_ruleset",
    "largest_wait",
    "legal_moves",
    "list_rulesets",
    "register",
    "resolve_claims",
    "resolve_options",
    "score",
    "settle",
    "validate_move",
    "valued_waits",
    "win_context",
]

_rulesets: dict[str, Ruleset] = {}


def _rs(name: str) -> Ruleset:
    try:
        rs = _rulesets.get(name)
    except TypeError:  # unhashable: get_ruleset explains
        return get_ruleset(name)
    if rs is None:
        rs = _rulesets[name] = get_ruleset(name)
    return rs


def resolve_options(
    ruleset: str = "sichuan",
    options: Mapping[str, object] | None = None,
    preset: str | None = None,
) -> Any:
    """The validated options object a rule set computes with (cached per input)."""
    return _rs(ruleset).resolve_options(options, preset)


def score(
    hand: Any,
    *,
    win_tile: int | str,
    ruleset: str = "sichuan",
    self_drawn: bool = False,
    context: Mapping[str, object] | None = None,
    options: Mapping[str, object] | None = None,
    preset: str | None = None,
) -> ScoreResult:
    """Score a winning hand (concealed tiles including ``win_tile``, plus melds).

    Raises ``MahjongError`` with ``not_a_win``, ``bad_context``, ``bad_option``,
    ``unknown_ruleset`` or the hand's notation/count codes."""
    rs = _rs(ruleset)
    if options is None and preset is None:
        o = rs._cache.get(None) or rs.resolve_options()
    else:
        o = rs.resolve_options(options, preset)
    return rs.engine.score(hand, win_tile, self_drawn, context, o)


def valued_waits(
    hand: Any,
    *,
    ruleset: str = "sichuan",
    context: Mapping[str, object] | None = None,
    options: Mapping[str, object] | None = None,
    preset: str | None = None,
    visible: Any = None,
) -> tuple[ValuedWait, ...]:
    """The winning tiles of a ready hand, each with its fan on a discard and self-drawn and
    how many copies are unseen (4 minus those in the hand/melds and in ``visible``: 34
    counts or tiles text). A wait counts even when no copy is unseen."""
    rs = _rs(ruleset)
    if options is None and preset is None:
        o = rs._cache.get(None) or rs.resolve_options()
    else:
        o = rs.resolve_options(options, preset)
    return rs.engine.valued_waits(hand, context, o, visible)


def largest_wait(
    hand: Any,
    *,
    ruleset: str = "sichuan",
    context: Mapping[str, object] | None = None,
    options: Mapping[str, object] | None = None,
    preset: str | None = None,
    visible: Any = None,
) -> ValuedWait | None:
    """The wait worth most on a discard (查大叫), or ``None`` when the hand is not ready."""
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
    ruleset: str = "sichuan",
    preset: str | None = None,
) -> MoveCheck:
    """Is ``move`` legal for the acting seat of ``state``? ``MoveCheck(ok, code, message)``."""
    rs = _rs(ruleset)
    return rs.engine.validate_move(state, move, rs.resolve_options(options, preset))


def legal_moves(
    state: TableView,
    options: Mapping[str, object] | None = None,
    *,
    ruleset: str = "sichuan",
    preset: str | None = None,
) -> tuple[Move, ...]:
    """Every legal move of the acting seat of ``state``."""
    rs = _rs(ruleset)
    return rs.engine.legal_moves(state, rs.resolve_options(options, preset))


def settle(
    events: Iterable[object],
    options: Mapping[str, object] | None = None,
    *,
    ruleset: str = "sichuan",
    preset: str | None = None,
    dealer: int | None = None,
) -> Ledger:
    """The ledger of a whole hand from its event log (kongs, wins, wall-empty end)."""
    rs = _rs(ruleset)
    return rs.engine.settle(events, rs.resolve_options(options, preset), dealer)
