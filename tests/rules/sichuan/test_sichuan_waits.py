"""Valued waits (which tiles complete a ready hand, and for how much) and 查大叫's value."""

from __future__ import annotations

import pytest
from sichuan_api import largest_wait, valued_waits

from mjcore import MahjongError


def by_tile(hand: str, **kw: object) -> dict[str, object]:
    return {w.tile: w for w in valued_waits(hand, **kw)}  # type: ignore[arg-type]


def test_design_example_two_waits() -> None:
    """DESIGN §1: waits on 3p (对对胡) and 6p (平胡)."""
    w = by_tile("111m555m777m33p66p")
    assert set(w) == {"3p", "6p"}
    assert w["3p"].fan_discard == 1 and w["6p"].fan_discard == 1  # type: ignore[attr-defined]
    w = by_tile("123m555m777m33p66p")
    assert w["3p"].fan_discard == 0


def test_fan_discard_and_self_drawn() -> None:
    """Self-drawn value includes 自摸加番 when zimo_bonus is fan."""
    w = by_tile("123m456m789m234p5p", options={"zimo_bonus": "fan"})
    assert w["5p"].fan_discard == 0 and w["5p"].fan_self_drawn == 1  # type: ignore[attr-defined]


def test_unseen_counts() -> None:
    """unseen = 4 - copies in hand/melds - copies visible; a wait counts at 0 unseen."""
    w = by_tile("123m456m789m234p5p")
    assert w["5p"].unseen == 3  # type: ignore[attr-defined]
    w = by_tile("123m456m789m234p5p", visible="555p")
    assert w["5p"].unseen == 0  # type: ignore[attr-defined]
    counts = [0] * 34
    counts[13] = 1
    w = by_tile("123m456m789m234p5p", visible=counts)
    assert w["5p"].unseen == 2  # type: ignore[attr-defined]


def test_missing_suit_filters_waits() -> None:
    """§3: a wait that would add the 缺门 (or a third suit) is no win."""
    w = by_tile("123m456m789m11p23s", context={"missing_suit": "p"})
    assert w == {}
    w = by_tile("12345m456m789m11p")
    assert set(w) == {"3m", "6m"}
    assert by_tile("12345m456m789m11p", context={"missing_suit": "m"}) == {}
    assert by_tile("123m456m789m11p23s") == {}  # three suits: never a win


def test_largest_wait_for_chadajiao() -> None:
    """§5.3 查大叫: the largest possible win over all waits, on a discard."""
    best = largest_wait("111m555m777m33p66p")
    assert best is not None and best.fan_discard == 1
    assert largest_wait("123m456m789m13p58s") is None
    best = largest_wait("1112345678999m")
    assert best is not None and best.fan_discard >= 2


def test_context_split_between_discard_and_self_draw() -> None:
    """after_kong applies to the self-drawn value only; after_kong_discard to the discard."""
    w = by_tile("123m456m789m234p5p", context={"after_kong": True})
    assert w["5p"].fan_self_drawn == 1 and w["5p"].fan_discard == 0  # type: ignore[attr-defined]


def test_wrong_size() -> None:
    with pytest.raises(MahjongError) as err:
        valued_waits("123m456m789m234p55p")
    assert err.value.code == "wrong_tile_count"
