"""Wuhan valued waits (wuhan.md §11): the tiles that win self-drawn or on a discard from the
left seat, with H × W each way; a drawn 赖子 is a wild."""

from __future__ import annotations

import pytest
from wuhan_api import largest_wait, score, valued_waits

from mjcore import MahjongError
from mjcore.tiles import tile_to_text

CTX = {"laizi": "9p"}


def test_waits_of_a_ready_hand() -> None:
    waits = valued_waits("456p789s345s5m chi:123m", context=CTX)
    got = {w.tile: (w.fan_discard, w.fan_self_drawn) for w in waits}
    # 5m: 硬 小胡 (2 x 2 = 4 each way); 9p drawn is the 赖子 standing for 5m: 软 (2);
    # on a discard a 9p is not claimable by the rules of play but scores as a wild
    assert got == {"5m": (4, 4), "9p": (2, 2)}
    five = next(w for w in waits if w.tile == "5m")
    assert [p.id for p in five.patterns_self_drawn] == ["xiaohu", "yinghu"]
    assert five.unseen == 4 - 1


def test_waits_are_exactly_the_tiles_that_score() -> None:
    for hand, ctx in (("456p789s4s55m9p chi:123m", CTX),
                      ("222m555m8m peng:333m peng:777m", CTX),
                      ("5m chi:123p peng:777s chi:456s peng:888m", {"laizi": "2z"}),
                      ("1133m55779p22s11z", CTX)):
        for options in (None, {"qidui": True, "must_open": False}, {"yise_any_shape": True}):
            waits = {w.id: w for w in valued_waits(hand, context=ctx, options=options)}
            for t in range(34):
                values = []
                for self_drawn, extra in ((False, {"discarder": "left"}), (True, {})):
                    try:
                        r = score(_plus(hand, t), win_tile=t, self_drawn=self_drawn,
                                  context={**ctx, **extra}, options=options)
                    except MahjongError:
                        values.append(0)
                    else:
                        values.append(r.value)
                if any(values):
                    assert (waits[t].fan_discard, waits[t].fan_self_drawn) == tuple(values)
                else:
                    assert t not in waits, (hand, t)


def test_quanqiuren_waits_on_a_discard_only() -> None:
    (w,) = [w for w in valued_waits("5m chi:123p peng:777s chi:456s peng:888m",
                                    context={"laizi": "2z"}) if w.tile == "5m"]
    assert (w.fan_discard, w.fan_self_drawn) == (40, 4)
    best = largest_wait("5m chi:123p peng:777s chi:456s peng:888m", context={"laizi": "2z"})
    assert best is not None and best.tile == "5m"


def test_unopened_and_pizi_hands_wait_on_nothing() -> None:
    assert valued_waits("123m456p789s345s5m", context=CTX) == ()
    assert valued_waits("456p789s34s5m7z chi:123m", context=CTX) == ()


def test_bad_waiting_hands() -> None:
    for hand, ctx, code in (("456p789s345s55m chi:123m", CTX, "tile_count"),
                            ("456p789s345s5m chi:123m", {}, "bad_context"),
                            ("456p789s345s5m chi:123m", {"laizi": "7z"}, "bad_context")):
        with pytest.raises(MahjongError) as err:
            valued_waits(hand, context=ctx)
        assert err.value.code == code


def _plus(hand: str, t: int) -> str:
    concealed, _, melds = hand.partition(" ")
    return (concealed + tile_to_text(t) + " " + melds).strip()


def test_a_kind_the_payers_melds_complete_is_no_wait() -> None:
    # the hand holds one 5m and the left seat's peng the other three: a drawn 5m would be a
    # fifth copy, which ``score`` refuses, so only the 赖子 wins (a 软 小胡, 2 each way)
    ready = "456p789s345s5m chi:123m"
    waits = valued_waits(ready, context={**CTX, "payer_melds": {"left": "peng:555m"}})
    assert {w.tile: (w.fan_discard, w.fan_self_drawn) for w in waits} == {"9p": (2, 2)}
    with pytest.raises(MahjongError) as err:
        score(_plus(ready, 4), win_tile="5m", self_drawn=True,
              context={**CTX, "payer_melds": {"left": "peng:555m"}})
    assert err.value.code == "tile_count"
    # melds of other kinds take nothing away, and change no value (H x W is the winner's)
    waits = valued_waits(ready, context={**CTX, "payer_melds": {"left": "peng:444m"}})
    assert {w.tile: (w.fan_discard, w.fan_self_drawn) for w in waits} == {"5m": (4, 4),
                                                                       "9p": (2, 2)}


def test_waits_refuse_a_fifth_copy_over_the_hand_and_the_payers_melds() -> None:
    with pytest.raises(MahjongError) as err:  # two 5m held, three in the left seat's peng
        valued_waits("456p789s34s55m chi:123m",
                     context={**CTX, "payer_melds": {"left": "peng:555m"}})
    assert err.value.code == "tile_count" and "5m appears 5 times" in str(err.value)
