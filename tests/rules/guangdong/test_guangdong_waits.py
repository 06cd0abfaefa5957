"""Guangdong valued waits: each winning tile of a ready hand with its fan on a discard and
self-drawn, unseen copies, min_fan (§15) and the shapes that win."""

from __future__ import annotations

import pytest
from compiled_twins import both_paths
from guangdong_api import SOUTH, largest_wait, valued_waits

from mjcore import MahjongError
from mjcore.rules import guangdong


def table(hand: str, **kw: object) -> dict[str, tuple[int, int, int]]:
    kw.setdefault("context", SOUTH)
    return {w.tile: (w.fan_discard, w.fan_self_drawn, w.unseen)
            for w in valued_waits(hand, **kw)}  # type: ignore[arg-type]


def test_waits_and_values() -> None:
    assert table("123m456m789p234s5s") == {"2s": (1, 2, 3), "5s": (1, 2, 3)}
    assert table("123m456m789p23s55s") == {"1s": (1, 2, 4), "4s": (1, 2, 4)}
    # honours: 2z is South's seat wind, 1z the round wind
    assert table("123m456m789p11z22z") == {"1z": (1, 2, 2), "2z": (1, 2, 2)}
    assert table("123m456m789p11z22z", context={"seat_wind": "1z", "round_wind": "1z"}) == \
        {"1z": (2, 3, 2), "2z": (0, 1, 2)}


def test_visible_and_unseen() -> None:
    w = valued_waits("123m456m789p23s55s", context=SOUTH, visible="1s1s1s1s4s")
    assert {x.tile: x.unseen for x in w} == {"1s": 0, "4s": 3}  # kept, flagged by unseen 0


def test_special_shapes() -> None:
    w = table("19m19p19s1234567z")
    assert len(w) == 13 and set(w.values()) == {(6, 6, 3)}
    assert table("11m33m55m22p44p66p7z") == {}  # 七对 off
    assert table("11m33m55m22p44p66p7z", options={"qidui": True}) == {"7z": (4, 4, 3)}
    assert table("1112345678999s") == {f"{r}s": (6, 6, 1 if r in (1, 9) else 3)
                                       for r in range(1, 10)}


def test_min_fan_waits() -> None:
    """A tile counts when it wins at or above min_fan either way; the way it does not is -1."""
    assert table("123m456m789p23s55s", options={"min_fan": 2}) == {"1s": (-1, 2, 4),
                                                                   "4s": (-1, 2, 4)}
    assert table("123m456p777s23s99m", options={"min_fan": 2}) == {}


def test_largest_wait_and_errors() -> None:
    assert largest_wait("123m456m789m23s5z1z", context=SOUTH) is None
    # 1m: 混一色 + 圈风 (东 pung); 2z: 混一色 + 门风 (南 pung): both 3, capped from 3
    best = largest_wait("11m456m789m111z22z", context=SOUTH)
    assert best is not None and (best.tile, best.fan_discard) == ("1m", 3)
    with pytest.raises(MahjongError) as err:
        valued_waits("123m456m789p234s55s", context=SOUTH)
    assert err.value.code == "tile_count"
    with pytest.raises(MahjongError) as err:
        valued_waits("123m456m789p23s55s", context={"round_wind": "1z"})
    assert err.value.code == "bad_context"


def test_robbed_kong_waits_leave_out_the_kinds_held(monkeypatch: pytest.MonkeyPatch) -> None:
    """抢杠 wins on the tile another seat adds to its pung: the robbed bugang holds the other
    three copies, so a kind the ready hand holds cannot be robbed (``score`` refuses such a
    hand). In a 抢杠 waits context that kind's discard way is no win (−1, §15), its self-draw
    is valued as usual; a kind not held is valued with 抢杠 on a discard. It raised
    ``bad_context`` for the whole hand on both paths."""
    ctx = {**SOUTH, "qiang_gang": True, "robbed": "across"}

    def robbing(hand: str) -> dict[str, tuple[int, int, int]]:
        return table(hand, context=ctx)

    python, core = both_paths(monkeypatch, guangdong.clear_caches, robbing, "123m456m789p3455s")
    assert python == core == {"2s": (3, 2, 4), "5s": (-1, 2, 2)}
    # every wait held: still ready, each valued self-drawn only
    python, core = both_paths(monkeypatch, guangdong.clear_caches, robbing, "123m456m789p2345s")
    assert python == core == {"2s": (-1, 2, 3), "5s": (-1, 2, 3)}
