"""Guangdong 鸡平胡 with the 3-fan 爆胡 cap (rule set ``guangdong``): docs/rulesets/guangdong.md
is its documentation.

``options`` declares the options; ``context`` the win context keys; ``view`` its part of a
TableView; ``table`` the fan table; ``scoring`` the score and valued waits; ``moves`` move
validation; ``settle`` the ledger of a hand.
"""

from __future__ import annotations

from collections.abc import Mapping

from mjcore.rules.common.claims import resolve_claims as _resolve_claims
from mjcore.rules.common.ruleset import Engine, Ruleset, register
from mjcore.rules.guangdong.batch import batch_scorer
from mjcore.rules.guangdong.context import CONTEXT_KEYS
from mjcore.rules.guangdong.moves import (
    MOVE_DESCRIPTIONS,
    REASON_CODES,
    bao_exempt,
    legal_moves,
    validate_move,
    win_context,
)
from mjcore.rules.guangdong.options import PRESETS, GuangdongOptions
from mjcore.rules.guangdong.scoring import NAME, clear_caches, points, score, valued_waits
from mjcore.rules.guangdong.settle import LEDGER_REASONS, settle
from mjcore.rules.guangdong.table import TABLE
from mjcore.rules.guangdong.view import GuangdongView
from mjcore.table import Move


def resolve_claims(discarder: int, claims: Mapping[int, Move],
                   options: GuangdongOptions | None = None) -> tuple[tuple[int, Move], ...]:
    """Which claims on one discard (or bugang) take effect (§2): every ``hu`` in turn order
    from the discarder (only the first with ``multi_ron: first_only``); else the ``gang`` or
    ``peng``; else the ``chi``; else none."""
    first_only = options is not None and options.multi_ron == "first_only"
    return _resolve_claims(discarder, claims, multi_hu=not first_only)


RULESET = register(Ruleset(
    name=NAME,
    title="Guangdong 鸡平胡 (爆胡 cap)",
    summary="136 tiles with honours, no flowers; chi from the left seat, peng, gang; 鸡胡 wins; "
    "inside patterns plus extras capped at 3 fan (爆胡), specials flat up to 6; 3-fan floors for "
    "一炮三响, 杠上开花, 海底捞月 and 抢杠; 包 liabilities; points double per fan.",
    tiles=136,
    suits=("m", "p", "s"),
    honours=True,
    flowers=False,
    wild_tiles=False,
    liabilities=True,
    claims=("chi", "peng", "gang", "hu"),
    shapes=("standard", "shisanyao", "qidui"),
    hand_tiles=14,
    unit="fan",
    table=TABLE,
    options=GuangdongOptions,
    presets=PRESETS,
    context_keys=CONTEXT_KEYS,
    move_kinds=MOVE_DESCRIPTIONS,
    reason_codes=REASON_CODES,
    ledger_reasons=LEDGER_REASONS,
    batch_scorer=batch_scorer,
    engine=Engine(score, valued_waits, validate_move, legal_moves, settle),
    view=GuangdongView,
))

__all__ = ["RULESET", "GuangdongOptions", "bao_exempt", "GuangdongView", "clear_caches", "points",
           "resolve_claims", "win_context"]
