"""Checks written from taiwan.md's text during an audit of the rule set against its
specification: each test cites the section it checks."""

from __future__ import annotations

import pytest
from taiwan_api import DISCARD, report

from mjcore import MahjongError


@pytest.mark.parametrize(("hand", "code"), [
    ("123m456m789m234p99s1f chi:567p", "bad_tile"),       # item 3: a flower in the hand
    ("1111m456m789m234p99s chi:567p", "tile_count"),      # item 4: 18 tiles
    ("123m456m789m234p99s chi:124p", "bad_meld"),         # item 2: not a run
])
@pytest.mark.parametrize(("options", "preset"), [({"bogus": 1}, None), (None, "nope")])
def test_report_refuses_a_bad_hand_before_a_bad_option(
        hand: str, code: str, options: dict[str, object] | None, preset: str | None) -> None:
    """§1: the checks run in order, items 1-4 (the hand) before item 5 (`bad_option`), in the
    §9 report as in `score`."""
    with pytest.raises(MahjongError) as err:
        report(hand, win_tile="4p", context=DISCARD, options=options, preset=preset)
    assert err.value.code == code
