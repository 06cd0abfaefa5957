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


def test_preset_is_an_option() -> None:
    """§11: `preset` is in the option table ("a named bundle; explicit options override it");
    an unknown one is `bad_option` (§1 item 5)."""
    dasixi = "111z222z333z444z55z789m"  # 大四喜 won on 5z from a discard
    assert report(dasixi, win_tile="5z", context=DISCARD,
                  options={"preset": "taiwan_2005"})["patterns"][-1] == ["dasixi", 8]
    assert report(dasixi, win_tile="5z", context=DISCARD,
                  options={"preset": "taiwan_2005", "dasixi_tai": 16})["patterns"][-1] == [
        "dasixi", 16]
    assert report(dasixi, win_tile="5z", context=DISCARD,
                  options={"preset": "taiwan"})["patterns"][-1] == ["dasixi", 16]
    with pytest.raises(MahjongError) as err:
        report(dasixi, win_tile="5z", context=DISCARD, options={"preset": "nope"})
    assert err.value.code == "bad_option"
