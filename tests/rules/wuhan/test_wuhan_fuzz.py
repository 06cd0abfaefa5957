"""Bad input to Wuhan scoring and waits: each is a coded ``MahjongError``, never another
exception (wild counts beyond the tiles that exist, a 赖子 outside the tile set, contradictory
contexts, garbage hands and options)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from wuhan_api import score, valued_waits

from mjcore import MahjongError

XIAOHU = "456p789s345s55m chi:123m"
CODES = {"tile_count", "bad_meld", "bad_context", "bad_tile", "bad_notation", "bad_option",
         "not_a_win", "must_open", "pizi_in_hand", "below_min_points"}


def code(hand: Any, tile: Any = "5m", self_drawn: Any = True, context: Any = None,
         options: Any = None) -> str:
    with pytest.raises(MahjongError) as err:
        score(hand, win_tile=tile, self_drawn=self_drawn,
              context={"laizi": "9p"} if context is None else context, options=options)
    return err.value.code


@pytest.mark.parametrize("hand", [
    "456p789s345s5m99999p chi:123m",  # five 赖子
    "456p789s345s55m chi:123m laizigang:9p laizigang:9p laizigang:9p laizigang:9p "
    "laizigang:9p",
    "456p789s34s5m999p chi:123m laizigang:9p laizigang:9p",  # 3 held + 2 laid aside
    "456p789s345s55m chi:123m pizigang:7z pizigang:7z pizigang:7z pizigang:7z pizigang:7z",
])
def test_more_wilds_than_exist(hand: str) -> None:
    assert code(hand) == "tile_count"


def test_more_wilds_than_exist_over_the_payers() -> None:
    ctx = {"laizi": "9p", "payer_melds": {"left": "laizigang:9p laizigang:9p",
                                          "right": "laizigang:9p"}}
    assert code("456p789s34s5m99p chi:123m", context=ctx) == "tile_count"
    ctx = {"laizi": "9p", "payer_melds": {"left": "pizigang:7z pizigang:7z pizigang:7z",
                                          "right": "pizigang:7z pizigang:7z"}}
    assert code(XIAOHU, context=ctx) == "tile_count"
    ctx = {"laizi": "9p", "payer_melds": {"left": "laizigang:8p"}}  # not the 赖子
    assert code(XIAOHU, context=ctx) == "bad_meld"


@pytest.mark.parametrize("value", ["8z", "0p", "10m", "", "9", 34, -1, True, 3.5, [5],
                                   {"t": 1}, "7z"])
def test_a_wild_kind_outside_the_tile_set(value: Any) -> None:
    assert code(XIAOHU, context={"laizi": value}) == "bad_context"
    if value != "7z":  # 7z is a tile: the turned-up 红中 makes 发 the 赖子
        assert code(XIAOHU, context={"indicator": value}) == "bad_context"


@pytest.mark.parametrize("context", [
    {"laizi": "9p", "indicator": "9p"},  # the indicator's next kind is 1p
    {"laizi": "9p", "discarder": "left"},  # a self-drawn win
    {"laizi": "9p", "robbed": "across"},
    {"laizi": "9p", "hai_di": True, "gang_shang_hua": True},
    {"laizi": "9p", "gang_shang_hua": True},  # no kong in the hand
    {"laizi": "9p", "meld_from": "left"},
    {"laizi": "9p", "meld_from": [None]},  # a chi is claimed from the left
    {"laizi": "9p", "payer_melds": "peng:111s"},
    {"laizi": "9p", "payer_melds": {"left": 5}},
    {"laizi": "9p", "winner": "0"},
    {"laizi": "9p", "winner": True},
    {"laizi": "9p", "hai_di": 1},
    {"laizi": "9p", "discarder": None, "robbed": None, "extra": 1},
    ["laizi", "9p"],
])
def test_contradictory_contexts(context: Any) -> None:
    assert code(XIAOHU, context=context) == "bad_context"


def test_a_discard_win_names_exactly_one_seat() -> None:
    for ctx in ({}, {"discarder": "left", "robbed": "right"}, {"hai_di": True}):
        assert code(XIAOHU, self_drawn=False, context={"laizi": "9p", **ctx}) == "bad_context"


def test_random_garbage_is_always_a_coded_error() -> None:
    rng = random.Random(5)
    pieces = ["123m", "55m", "9p", "7z", "chi:123m", "peng:777z", "pizigang:7z", "laizigang:9p",
              "angang:9999p", "gang:1111s", "bugang:2222p", "x", "chi:135m", "99999p", "0z",
              "laizigang:1m", "pizigang:5z", "456p789s345s"]
    keys: dict[str, list[Any]] = {
        "laizi": ["9p", "5m", "1z", "7z", "nope", None, 40],
        "indicator": ["8p", "9s", "4z", None, "q"],
        "discarder": ["left", "right", "self", 1, None],
        "robbed": ["across", None, "x"],
        "gang_shang_hua": [True, False, "yes"],
        "hai_di": [True, False, None],
        "meld_from": [["left"], [None, "left"], "x", None],
        "payer_melds": [{"left": "peng:111s"}, {"left": "55m"}, {"me": "chi:123p"}, 3],
        "winner": [0, 3, 4, "x"],
        "nonsense": [1],
    }
    options_pool: list[Any] = [None, {"qidui": True}, {"cap_points": 0}, {"pizi": "fa"},
                               {"yise_any_shape": True, "must_open": False}, {"bogus": 1},
                               {"peichong_ratio": "3/2"}, {"min_points": 10**6}]
    seen = set()
    for _ in range(2500):
        hand = " ".join(rng.choice(pieces) for _ in range(rng.randint(1, 6)))
        ctx = {k: rng.choice(v) for k, v in keys.items() if rng.random() < 0.3}
        if rng.random() < 0.8:
            ctx.setdefault("laizi", "9p")
        for waits in (False, True):
            try:
                if waits:
                    valued_waits(hand, context=ctx, options=rng.choice(options_pool))
                else:
                    score(hand, win_tile=rng.choice(["5m", "9p", "7z", "zz", 99]),
                          self_drawn=rng.random() < 0.5, context=ctx,
                          options=rng.choice(options_pool))
            except MahjongError as err:
                assert err.code in CODES, err
                seen.add(err.code)
    assert {"tile_count", "bad_meld", "bad_context", "bad_option"} <= seen
