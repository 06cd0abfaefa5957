"""Wuhan settlement: the win's payments (one amount per payer, each naming its event), the
liabilities, zero-sum, one winner per hand, a draw pays nothing."""

from __future__ import annotations

import pytest
from wuhan_api import settle

from mjcore import MahjongError
from mjcore.table import HandStart, Kong, WallEmpty, Win

XIAOHU = "456p789s345s55m chi:123m"
QINGPENG = "222m555m88m peng:333m peng:777m"
LAIZI = (("laizi", "9p"),)


def test_self_drawn_win() -> None:
    ctx = (("laizi", "9p"), ("payer_melds", {"left": "peng:111s angang:2222p"}))
    led = settle([HandStart(1), Kong(2, "pizigang", 33), Win(2, XIAOHU, "5m", True, None, ctx)])
    assert sorted((p.from_seat, p.amount) for p in led.payments) == [(0, 4), (1, 32), (3, 4)]
    assert all(p.to_seat == 2 and p.reason == "win" and p.event == 2 for p in led.payments)
    assert led.totals == (-4, -32, 40, -4) and sum(led.totals) == 0
    assert led.winners == (2,) and led.next_dealer == 2


def test_discard_win_and_peichong() -> None:
    led = settle([Win(0, QINGPENG, "8m", False, 3, LAIZI)])
    assert [(p.from_seat, p.amount, p.reason) for p in led.payments] == [(3, 80, "win")]
    led = settle([Win(0, QINGPENG, "8m", False, 2, LAIZI)], {"dahu_discard_all_pay": True})
    assert sorted((p.from_seat, p.amount, p.reason) for p in led.payments) == [
        (1, 40, "peichong"), (2, 80, "win"), (3, 40, "peichong")]
    assert sum(led.totals) == 0


def test_robbed_kong_and_liabilities() -> None:
    log = [HandStart(0), Kong(1, "bugang", 22, robbed=True), Win(3, XIAOHU, "5s", False, 1, LAIZI)]
    led = settle(log)
    assert [(p.from_seat, p.to_seat, p.amount, p.reason, p.event) for p in led.payments] == [
        (1, 3, 120, "qianggang", 2)]
    # the context may say it too
    led = settle([Win(3, XIAOHU, "5s", False, 1, LAIZI + (("robbed", "across"),))])
    assert led.payments[0].reason == "qianggang"
    led = settle([Win(0, "55m chi:123p peng:777s chi:456s peng:999m", "5m", False, 1,
                      (("laizi", "2z"),))])
    assert [(p.from_seat, p.amount, p.reason) for p in led.payments] == [(1, 120, "quanqiuren")]
    led = settle([Win(0, "789m55m chi:123m peng:444m chi:567m", "5m", True, None,
                      (("laizi", "1z"), ("meld_from", ["left", "left", "left"])))])
    assert [(p.from_seat, p.amount, p.reason) for p in led.payments] == [(3, 120, "fangsanpu")]


def test_a_draw_pays_nothing_and_the_dealer_stays() -> None:
    led = settle([HandStart(2), Kong(0, "laizigang", 17), Kong(1, "gang", 3, fed_by=0),
                  WallEmpty((None, None, None, None))])
    assert led.payments == () and led.totals == (0, 0, 0, 0) and led.next_dealer == 2


@pytest.mark.parametrize("log", [
    [Win(0, XIAOHU, "5m", True, None, LAIZI), Win(1, XIAOHU, "5m", True, None, LAIZI)],
    [Win(0, XIAOHU, "5m", True, 2, LAIZI)],  # self-drawn with a discarder
    [Win(0, XIAOHU, "5m", False, 0, LAIZI)],  # won on its own tile
    [Win(0, XIAOHU, "5m", False, 1, LAIZI + (("discarder", "left"),))],  # 1 is right of 0
    [Kong(0, "flowergang", 3)],
    [Kong(0, "gang", 3, fed_by=0)],
    [Win(0, XIAOHU, "5m", True, None, LAIZI), Kong(1, "angang", 3)],
    [WallEmpty((None,))],
    ["not an event"],
    [Kong(0, "angang", 3), HandStart(0)],
])
def test_bad_logs(log: list[object]) -> None:
    with pytest.raises(MahjongError) as err:
        settle(log)
    assert err.value.code == "bad_event"


def test_a_bad_win_is_the_scoring_error() -> None:
    with pytest.raises(MahjongError) as err:
        settle([Win(0, "456p789s345s33m chi:123m", "3m", True, None, LAIZI)])
    assert err.value.code == "not_a_win"


def test_robbed_kong_named_by_its_text() -> None:
    """A win on the tile of the discarder's robbed bugang just logged is 抢杠 (Settlement),
    the kong's tile given as an id or as text (tiles are taken either way everywhere)."""
    for tile in (22, "5s"):
        log = [HandStart(0), Kong(1, "bugang", tile, robbed=True),  # type: ignore[arg-type]
               Win(3, XIAOHU, "5s", False, 1, LAIZI)]
        assert [(p.from_seat, p.amount, p.reason) for p in settle(log).payments] == [
            (1, 120, "qianggang")]
