"""Settlement (the spec's §8): one win ends the hand, each payment names its event, 承包,
zero-sum, and the next dealer."""

from __future__ import annotations

import pytest
from hangzhou_api import settle

from mjcore import HandStart, Kong, MahjongError, WallEmpty, Win

BAI = {"caishen_mode": "baiban"}


def test_self_drawn_win_each_pays_and_dealer_moves_on() -> None:
    log = [HandStart(dealer=1), Kong(2, "angang", 5),
           Win(2, "123m456p789s111z5z7p", "7p", self_drawn=True)]
    led = settle(log, BAI)
    assert [(p.from_seat, p.to_seat, p.amount, p.reason, p.event) for p in led.payments] == [
        (1, 2, 2, "win", 2), (0, 2, 2, "win", 2), (3, 2, 2, "win", 2)]
    assert led.totals == (-2, -2, 6, -2) and sum(led.totals) == 0
    assert led.winners == (2,) and led.next_dealer == 2  # 下家 of dealer 1


def test_chengbao_and_discard_win() -> None:
    """承包: the seat claimed from three times pays all; a discard win: the discarder pays, and
    the dealer (HandStart) decides whether the discard may be won."""
    hand = "789s55m chi:123m peng:777p chi:456s"
    led = settle([HandStart(0), Win(0, hand, "5m", self_drawn=True, context={
        "caishen": "9p", "claims_from": {"right": 3}})])
    assert [(p.from_seat, p.amount, p.reason) for p in led.payments] == [(1, 3, "chengbao")]
    assert led.next_dealer == 0  # the dealer won: 连庄
    ctx = {"caishen": "9p", "dealer_streak": 2}
    led = settle([HandStart(2), Win(0, hand, "5m", discarder=2, context=ctx)])
    assert [(p.from_seat, p.to_seat, p.amount) for p in led.payments] == [(2, 0, 1)]
    with pytest.raises(MahjongError) as err:  # neither is the dealer
        settle([HandStart(3), Win(0, hand, "5m", discarder=2, context=ctx)])
    assert err.value.code == "xianjia_to_xianjia"


def test_one_win_ends_the_hand_and_bad_logs() -> None:
    win = Win(0, "123m456p789s111z5z7p", "7p", self_drawn=True)
    for log in ([win, win], [WallEmpty((None,) * 4), win], [Kong(0, "gang", 3), HandStart(1)],
                ["nonsense"], [Win(0, "123m456p789s111z5z7p", "7p", discarder=0)]):
        with pytest.raises(MahjongError) as err:
            settle(log, BAI)
        assert err.value.code in ("bad_event", "bad_context")
    led = settle([HandStart(3), WallEmpty((None,) * 4)], BAI)
    assert led.payments == () and led.next_dealer == 3  # 荒庄: the dealer stays
