"""mjcore: a mahjong rules engine.

The compiled core (``mjcore._core``) answers the shape questions over packed tile counts;
this module re-exports it under a typed API. Every function takes a :class:`Hand` or its text.
The rule sets (``mjcore.rules``) build on it: scoring, valued waits, moves and settlement.
"""

from __future__ import annotations

from ._core import (
    DEFAULT_SHAPES,
    SHAPES,
    decompose,
    is_win,
    is_win_batch,
    is_win_fast,
    shanten,
    shanten_batch,
    shanten_fast,
    wait_mask,
    wait_mask_batch,
    wait_mask_fast,
    waits,
    win_shapes,
)
from .errors import MahjongError
from .hand import Decomposition, Hand, Meld, Wait
from .rules import (
    Ledger,
    MoveCheck,
    PatternHit,
    Payment,
    ScoreResult,
    ValuedWait,
    describe_ruleset,
    get_ruleset,
    largest_wait,
    legal_moves,
    list_rulesets,
    resolve_options,
    score,
    settle,
    validate_move,
    valued_waits,
)
from .table import HandStart, Kong, Move, TableView, WallEmpty, Win
from .tiles import tile_from_text, tile_id, tile_to_text


def mask_to_tiles(mask: int) -> list[str]:
    """A 34-bit wait mask as tile texts."""
    return [tile_to_text(t) for t in range(34) if mask >> t & 1]


__all__ = [
    "DEFAULT_SHAPES", "SHAPES", "Decomposition", "Hand", "HandStart", "Kong", "Ledger",
    "MahjongError", "Meld", "Move", "MoveCheck", "PatternHit", "Payment", "ScoreResult",
    "TableView", "ValuedWait", "Wait", "WallEmpty", "Win", "decompose", "describe_ruleset",
    "get_ruleset", "is_win", "is_win_batch", "is_win_fast", "largest_wait", "legal_moves",
    "list_rulesets", "mask_to_tiles", "resolve_options", "score", "settle", "shanten",
    "shanten_batch", "shanten_fast", "tile_from_text", "tile_id", "tile_to_text",
    "validate_move", "valued_waits", "wait_mask", "wait_mask_batch", "wait_mask_fast", "waits",
    "win_shapes",
]
