"""Bad input is a coded MahjongError, never a crash: wild counts beyond the tiles that exist,
a wild kind outside the tile set, contradictory contexts, random garbage."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hangzhou_api import score, valued_waits

from mjcore import MahjongError

HAND = "123m456p789s111z5z7p"
BAI = {"caishen_mode": "baiban"}


def code(hand: Any = HAND, tile: Any = "7p", self_drawn: bool = True, context: Any = None,
         options: Any = BAI) -> str:
    with pytest.raises(MahjongError) as err:
        score(hand, win_tile=tile, self_drawn=self_drawn, context=context, options=options)
    return err.value.code


@pytest.mark.parametrize("hand", [
    "123m456p789s5z5z5z5z5z", "123m456p789s11z5z5z peng:555z", "11111m456p789s11z5z",
    "123m456p789s111z7p", "123m456p789s111z5z7p7p", "123m456p789s5z7p angang:5555z",
])
def test_counts_beyond_the_tiles_that_exist(hand: str) -> None:
    """Five 白板, a sixth copy across melds, a concealed part of the wrong size."""
    assert code(hand, tile="7p" if "7p" in hand else "5z") in ("tile_count", "wild_in_meld")


@pytest.mark.parametrize("wild", ["0m", "8z", "1f", 34, -1, True, "", "5zz", 3.0, ["3m"]])
def test_wild_kind_outside_the_tile_set(wild: Any) -> None:
    assert code(context={"caishen": wild}, options=None) == "bad_context"
    assert code(context={"indicator": wild}, options=None) == "bad_context"


@pytest.mark.parametrize("context,self_drawn", [
    ({"discarder": "left", "dealer": "self", "dealer_streak": 2}, True),
    ({"gang_kai": True, "discarder": "left", "dealer": "self"}, False),
    ({"piao_on_gang": True}, True),
    ({"piao_count": 4}, True),
    ({"piao_count": -1}, True),
    ({"gang_kai": 1}, True),
    ({"dealer": "middle"}, True),
    ({"discarder": "self", "dealer": "self"}, False),
    ({"dealer": "self", "dealer_streak": 2}, False),
    ({"claims_from": {"north": 3}}, True),
    ({"claims_from": [3]}, True),
    ({"passed_win_tiles": "5s"}, True),
    ({"winner": 4}, True),
    ({"nonsense": True}, True),
    ({"caishen": "3m"}, True),  # baiban mode: the 财神 is 5z
    ("not a mapping", True),
])
def test_contradictory_contexts(context: Any, self_drawn: bool) -> None:
    assert code(context=context, self_drawn=self_drawn) == "bad_context"


def test_random_garbage_is_coded() -> None:
    rng = random.Random(5)
    alphabet = "123456789mpsz :chipenganbu"
    known = {"tile_count", "bad_meld", "wild_in_meld", "bad_context", "not_a_win", "bad_tile",
             "bad_notation", "caishen_not_claimable", "bad_option", "louhu", "pingzhuang",
             "xianjia_to_xianjia", "piao_lock"}
    for _ in range(400):
        hand = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        ctx = rng.choice([None, {"caishen": rng.choice(["3m", "5z", "9z"])},
                          {"piao_count": rng.randint(0, 5)}])
        try:
            score(hand, win_tile=rng.choice(["1m", "5z", "7p", "x"]), self_drawn=True,
                  context=ctx, options=rng.choice([BAI, None]))
        except MahjongError as err:
            assert err.code in known, err
        try:
            valued_waits(hand, context=ctx, options=BAI)
        except MahjongError as err:
            assert err.code in known, err


def test_waits_refuse_a_contradictory_context() -> None:
    for ctx in ({"gang_kai": True}, {"piao_on_gang": True}, {"caishen": "0m"}, {"x": 1}):
        with pytest.raises(MahjongError) as err:
            valued_waits("123m456p789s111z5z", context=ctx, options=BAI if "caishen" not in ctx
                         else None)
        assert err.value.code == "bad_context"
