"""Hangzhou 财神 mahjong (rule set ``hangzhou``): docs/rulesets/hangzhou.md is its
documentation.

``options`` declares the options; ``table`` the multiplier table; ``scoring`` the score and
valued waits; ``moves`` move validation; ``settle`` the ledger of a hand.
"""

from __future__ import annotations

from collections.abc import Mapping

from mjcore.rules.common.claims import resolve_claims as _resolve_claims
from mjcore.rules.common.ruleset import Engine, Ruleset, register
from mjcore.rules.hangzhou.moves import (
    MOVE_DESCRIPTIONS,
    REASON_CODES,
    HangzhouView,
    legal_moves,
    validate_move,
    win_context,
)
from mjcore.rules.hangzhou.options import PRESETS, HangzhouOptions
from mjcore.rules.hangzhou.scoring import (
    CONTEXT_KEYS,
    NAME,
    clear_caches,
    is_piao,
    relative_points,
    score,
    valued_waits,
    wild_kind,
)
from mjcore.rules.hangzhou.settle import LEDGER_REASONS, settle
from mjcore.rules.hangzhou.table import TABLE
from mjcore.table import Move


def resolve_claims(dealer: int, discarder: int,
                   claims: Mapping[int, Move]) -> tuple[tuple[int, Move], ...]:
    """Which claim on one discard takes effect (§3): one ``hu`` only, the first counting from
    the dealer in turn order (dealer, 下家, 对家, 上家); else the ``gang``/``peng``; else the
    ``chi``."""
    chosen = _resolve_claims(discarder, claims, multi_hu=False)
    hus = [s for s, m in claims.items() if m.kind == "hu"]
    if hus:
        first = min(hus, key=lambda s: (s - dealer) % 4)
        return ((first, claims[first]),)
    return chosen


RULESET = register(Ruleset(
    name=NAME,
    title="Hangzhou 财神",
    summary="136 tiles, a 财神 (wild) turned up or the 白板, chi/peng/gang, 爆头 and 飘 (财飘), "
    "杠开/杠暴/杠飘/飘杠, 七对 and 豪华七对; multipliers as powers of two; discard wins only "
    "after 连庄 twice and only to or from the dealer; 漏胡, 承包.",
    tiles=136,
    suits=("m", "p", "s"),
    honours=True,
    flowers=False,
    wild_tiles=True,
    liabilities=True,
    claims=("chi", "peng", "gang", "hu"),
    shapes=("standard", "qidui"),
    hand_tiles=14,
    unit="fan",
    table=TABLE,
    options=HangzhouOptions,
    presets=PRESETS,
    context_keys=CONTEXT_KEYS,
    move_kinds=MOVE_DESCRIPTIONS,
    reason_codes=REASON_CODES,
    ledger_reasons=LEDGER_REASONS,
    engine=Engine(score, valued_waits, validate_move, legal_moves, settle),
    view=HangzhouView,
))

__all__ = ["RULESET", "HangzhouOptions", "HangzhouView", "clear_caches", "is_piao",
           "relative_points", "resolve_claims", "wild_kind", "win_context"]
