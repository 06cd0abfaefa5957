"""mjcore: a mahjong rules engine.

The compiled core (``mjcore._core``) answers the shape questions over packed tile counts;
this module re-exports it under a typed API. Every function takes a :class:`Hand` or its text.
"""

from __future__ import annotations

from . import _core
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
from .tiles import tile_from_text, tile_to_text


def mask_to_tiles(mask: int) -> list[str]:
    """A 34-bit wait mask as tile texts."""
    return [tile_to_text(t) for t in range(34) if mask >> t & 1]


def _valued_waits(hand: object, **kwargs: object) -> object:
    from .rules import valued_waits  # the rule sets build on the core, so load them on demand

    return valued_waits(hand, **kwargs)  # type: ignore[arg-type]


_core._register_hand_type(Hand)
_core._register_decomposition_type(Decomposition)
_core._register_waits([Wait(tile_to_text(t), t) for t in range(34)], _valued_waits)

__all__ = [
    "DEFAULT_SHAPES",
    "SHAPES",
    "Decomposition",
    "Hand",
    "MahjongError",
    "Meld",
    "Wait",
    "decompose",
    "is_win",
    "is_win_batch",
    "is_win_fast",
    "mask_to_tiles",
    "shanten",
    "shanten_batch",
    "shanten_fast",
    "tile_from_text",
    "tile_to_text",
    "wait_mask",
    "wait_mask_batch",
    "wait_mask_fast",
    "waits",
    "win_shapes",
]

# --- rule sets (re-exported) ---
# Appended by the rule-set work (Sichuan issue); the rule sets build on the names above.
from .rules import (  # noqa: E402
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
    score,
    settle,
    validate_move,
    valued_waits,
)
from .table import DingQue, HandStart, Kong, Move, TableView, WallEmpty, Win  # noqa: E402

__all__ += [
    "DingQue",
    "HandStart",
    "Kong",
    "Ledger",
    "Move",
    "MoveCheck",
    "PatternHit",
    "Payment",
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
    "score",
    "settle",
    "validate_move",
    "valued_waits",
]
