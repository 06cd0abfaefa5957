"""Sichuan 血战到底 (rule set ``sichuan``): docs/rulesets/sichuan.md is its documentation.

``options`` declares the options; ``table`` the fan table; ``scoring`` the score and valued
waits; ``moves`` move validation; ``settle`` the ledger of a hand.
"""

from __future__ import annotations

from collections.abc import Mapping

from mjcore.rules.common.claims import resolve_claims as _resolve_claims
from mjcore.rules.common.ruleset import Described, Engine, Ruleset, register
from mjcore.rules.sichuan.batch import batch_scorer
from mjcore.rules.sichuan.moves import (
    MOVE_DESCRIPTIONS,
    PHASES,
    REASON_CODES,
    SichuanView,
    legal_moves,
    validate_move,
    win_context,
)
from mjcore.rules.sichuan.options import PRESETS, SichuanOptions
from mjcore.rules.sichuan.scoring import CONTEXT_KEYS, NAME, SUITS, clear_caches, score, valued_waits
from mjcore.rules.sichuan.settle import LEDGER_REASONS, DingQue, settle
from mjcore.rules.sichuan.table import TABLE
from mjcore.table import Move


def resolve_claims(discarder: int, claims: Mapping[int, Move]) -> tuple[tuple[int, Move], ...]:
    """Which claims on one discard (or bugang) take effect (§2): every ``hu`` (一炮多响) in
    turn order from the discarder; else the ``gang`` or ``peng``; else none."""
    return _resolve_claims(discarder, claims)


RULESET = register(Ruleset(
    name=NAME,
    title="Sichuan 血战到底",
    summary="108 suited tiles, 缺一门, peng/gang but no chi, 血战到底 (play goes on until three "
    "seats have won), fan doubles the base, 刮风下雨, 查花猪, 查大叫, 退税.",
    tiles=108,
    suits=SUITS,
    honours=False,
    flowers=False,
    wild_tiles=False,
    liabilities=False,
    claims=("peng", "gang", "hu"),
    shapes=("standard", "qidui"),
    hand_tiles=14,
    unit="fan",
    table=TABLE,
    options=SichuanOptions,
    presets=PRESETS,
    context_keys=CONTEXT_KEYS,
    move_kinds=MOVE_DESCRIPTIONS,
    reason_codes=REASON_CODES,
    ledger_reasons=LEDGER_REASONS,
    batch_scorer=batch_scorer,
    engine=Engine(score, valued_waits, validate_move, legal_moves, settle),
    view=SichuanView,
    events=(DingQue,),
    phases=PHASES,
))

__all__ = ["RULESET", "DingQue", "Described", "SichuanOptions", "SichuanView", "clear_caches",
           "resolve_claims", "win_context"]
