"""An independent audit of hangzhou.md, written from the spec's text: one small case per rule,
option or error code (each test names its section)."""

from __future__ import annotations

from typing import Any

import pytest
from hangzhou_api import as_spec, baiban, resolve_options, score

from mjcore import MahjongError

BAOTOU = "123m456p789s111z5z7p"  # four sets + a held 白板; 7p drawn pairs with it
PINGHU = "123m456m789p234s55s"
DEALER_DISCARDS = {"dealer": "left", "dealer_streak": 2, "discarder": "left"}


def spec(hand: str, win: str, self_drawn: bool, context: dict[str, Any] | None = None,
         **options: Any) -> dict[str, Any]:
    return as_spec(score(hand, win_tile=win, self_drawn=self_drawn, context=context,
                         options=baiban(**options)))


def code(hand: str, win: str, self_drawn: bool, context: dict[str, Any] | None = None,
         options: dict[str, Any] | None = None) -> str:
    with pytest.raises(MahjongError) as err:
        score(hand, win_tile=win, self_drawn=self_drawn, context=context, options=options)
    return err.value.code


def test_max_multiplier_takes_any_power_of_two() -> None:
    """§10: ``max_multiplier`` is "none or a power of two" (any power, 512 included; "none"
    written as text too, as every other option that may be none); 3 is not a power of two."""
    for cap in (1, 16, 256, 512, 1 << 20):
        assert resolve_options(baiban(max_multiplier=cap)).max_multiplier == cap
    assert resolve_options(baiban(max_multiplier="none")).max_multiplier is None
    for bad in (0, 3, 24, -2):
        with pytest.raises(MahjongError) as err:
            resolve_options(baiban(max_multiplier=bad))
        assert err.value.code == "bad_option"
    # a cap above the hand's multiplier changes nothing; patterns and fan are never capped
    r = spec(BAOTOU, "7p", True, {"piao_count": 3}, max_multiplier=512)
    assert (r["multiplier"], r["fan"], r["patterns"]) == (16, 4, [["san_caipiao", 4]])
