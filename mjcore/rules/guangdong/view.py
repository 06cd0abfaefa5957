"""Guangdong's part of a ``TableView`` (what a move check needs beyond the common part)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class GuangdongView:
    """round_wind:  the round wind 圈风 (``1z``-``4z``); the seat wind follows from the dealer
    meld_from:   for each of the acting seat's melds, in the order made, the seat (0-3) it was
                 claimed from (``None`` for an angang); scoring uses it for 包 liabilities
    bao_exempt:  包先不包后: the feeder of this seat's fourth exposed meld is already liable
                 for another player's 十二张落地"""

    round_wind: str = "1z"
    meld_from: tuple[int | None, ...] = ()
    bao_exempt: bool = False
