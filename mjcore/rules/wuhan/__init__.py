"""Wuhan 红中赖子杠 (rule set ``wuhan``): docs/rulesets/wuhan.md is its documentation.

``options`` declares the options; ``table`` the fan table; ``context`` the win context;
``scoring`` the score and valued waits; ``moves`` move validation; ``settle`` the ledger of a
hand.
"""

from __future__ import annotations

from collections.abc import Mapping

from mjcore.rules.common.claims import resolve_claims as _resolve_claims
from mjcore.rules.common.ruleset import Engine, Ruleset, register
from mjcore.rules.wuhan.context import CONTEXT_KEYS, next_kind
from mjcore.rules.wuhan.moves import (
    MOVE_DESCRIPTIONS,
    REASON_CODES,
    WuhanView,
    legal_moves,
    validate_move,
    win_context,
)
from mjcore.rules.wuhan.options import PRESETS, WuhanOptions
from mjcore.rules.wuhan.scoring import NAME, WuhanResult, clear_caches, score, valued_waits
from mjcore.rules.wuhan.settle import LEDGER_REASONS, settle
from mjcore.rules.wuhan.table import TABLE
from mjcore.table import Move


def resolve_claims(discarder: int, claims: Mapping[int, Move]) -> tuple[tuple[int, Move], ...]:
    """Which claim on one discard (or bugang) takes effect: one winner only, the first in turn
    order after the discarder; else the peng or gang; else the chi."""
    return _resolve_claims(discarder, claims, multi_hu=False)


RULESET = register(Ruleset(
    name=NAME,
    title="Wuhan 红中赖子杠",
    summary="136 tiles; a turned-up tile makes the next kind the 赖子 (wild); 红中 (and 发财) are "
    "痞子, laid aside as kongs; chi/peng/gang, must open; 小胡 on a 2/5/8 pair or 大胡 that add "
    "up; 硬胡 doubles; every kong and opening doubles what a player wins and pays.",
    tiles=136,
    suits=("m", "p", "s"),
    honours=True,
    flowers=False,
    wild_tiles=True,
    liabilities=True,
    claims=("chi", "peng", "gang", "hu"),
    shapes=("standard",),
    hand_tiles=14,
    unit="points",
    table=TABLE,
    options=WuhanOptions,
    presets=PRESETS,
    context_keys=CONTEXT_KEYS,
    move_kinds=MOVE_DESCRIPTIONS,
    reason_codes=REASON_CODES,
    ledger_reasons=LEDGER_REASONS,
    engine=Engine(score, valued_waits, validate_move, legal_moves, settle),
    view=WuhanView,
))

__all__ = ["RULESET", "WuhanOptions", "WuhanResult", "WuhanView", "clear_caches", "next_kind",
           "resolve_claims", "win_context"]
