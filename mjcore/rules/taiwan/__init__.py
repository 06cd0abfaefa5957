"""Taiwan 16-tile 台灣十六張麻將 (rule set ``taiwan``): docs/rulesets/taiwan.md is its
documentation, taiwan.md and shapes.md §4 its rules text.

``options`` declares the options and presets; ``table`` the 台 table; ``scoring`` the score,
its report and valued waits; ``moves`` move validation; ``settle`` the ledger of a hand.
"""

from __future__ import annotations

from collections.abc import Mapping

from mjcore.rules.common.claims import resolve_claims as _resolve_claims
from mjcore.rules.common.ruleset import Engine, Ruleset, register
from mjcore.rules.taiwan.moves import (
    MOVE_DESCRIPTIONS,
    REASON_CODES,
    TaiwanView,
    legal_moves,
    validate_move,
    win_context,
)
from mjcore.rules.taiwan.options import PRESETS, TaiwanOptions
from mjcore.rules.taiwan.scoring import (
    CONTEXT_KEYS,
    NAME,
    check_input,
    clear_caches,
    report,
    score,
    valued_waits,
)
from mjcore.rules.taiwan.settle import LEDGER_REASONS, settle
from mjcore.rules.taiwan.table import TABLE
from mjcore.table import Move


def resolve_claims(discarder: int, claims: Mapping[int, Move],
                   options: TaiwanOptions | None = None) -> tuple[tuple[int, Move], ...]:
    """Which claims on one discard (or bugang) take effect (§2, shapes.md §4): 胡 > 槓 > 碰 >
    吃; one ``hu``, the first in turn order from the discarder (every one with ``multi_ron:
    all``); else the ``gang`` or ``peng``; else the ``chi``; else none."""
    every_hu = options is not None and options.multi_ron == "all"
    return _resolve_claims(discarder, claims, multi_hu=every_hu)

RULESET = register(Ruleset(
    name=NAME,
    title="Taiwan 16-tile 台灣十六張麻將",
    summary="144 tiles with 8 flowers, 16-tile hands winning on five sets and a pair (17 tiles), "
    "chi from the left, the 台 table added up with its exclusions, 獨聽, flowers and flower "
    "wins, dealer 台 with 連莊/拉莊, each payment 底 + 台 × 台錢.",
    tiles=144,
    suits=("m", "p", "s"),
    honours=True,
    flowers=True,
    wild_tiles=False,
    liabilities=False,
    claims=("chi", "peng", "gang", "hu"),
    shapes=("standard",),
    hand_tiles=17,
    unit="tai",
    table=TABLE,
    options=TaiwanOptions,
    presets=PRESETS,
    context_keys=CONTEXT_KEYS,
    move_kinds=MOVE_DESCRIPTIONS,
    reason_codes=REASON_CODES,
    ledger_reasons=LEDGER_REASONS,
    engine=Engine(score, valued_waits, validate_move, legal_moves, settle),
    view=TaiwanView,
    input_check=check_input,
))

__all__ = ["RULESET", "TaiwanOptions", "TaiwanView", "clear_caches", "report", "resolve_claims",
           "win_context"]
