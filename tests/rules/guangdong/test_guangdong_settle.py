"""Guangdong settlement of a whole hand (§10-§11, docs "Settlement"): wins, 一炮三响, 包,
zero-sum ledger with event indices, dealer rotation, no kong money, bounded logs."""

from __future__ import annotations

from typing import Any

import pytest
from guangdong_api import settle

from mjcore import MahjongError
from mjcore.table import HandStart, Kong, WallEmpty, Win

EAST = {"round_wind": "1z"}
JIHU = "123m456p777s234s99m"


def win(seat: int, hand: str = JIHU, tile: str = "9m", **kw: Any) -> Win:
    kw.setdefault("context", EAST)
    return Win(seat=seat, hand=hand, win_tile=tile, **kw)


def test_self_drawn_win() -> None:
    """Seat 1 (南 with dealer 0) self-draws 平胡 + 自摸 = 2: each pays 4."""
    led = settle([HandStart(dealer=0), win(1, "123m456m789p234s55s", "5s", self_drawn=True)])
    assert led.totals == (-4, 12, -4, -4) and sum(led.totals) == 0
    assert {p.event for p in led.payments} == {1} and {p.reason for p in led.payments} == {"win"}
    assert led.winners == (1,) and led.next_dealer == 1


def test_discard_win_and_dealer_stays() -> None:
    led = settle([win(0, "123m456m789p234s55s", "5s", discarder=2)], dealer=0)
    assert led.totals == (2, 0, -2, 0) and led.next_dealer == 0  # the dealer won: stays


def test_yipaosanxiang_each_paid_by_discarder() -> None:
    """Three winners on one discard: each is scored with the floor, the discarder pays all."""
    events = [HandStart(dealer=3),
              win(0, discarder=3, discard=7),
              win(1, discarder=3, discard=7),
              win(2, "123m456m789m111z99m", discarder=3, discard=7)]
    led = settle(events)
    # seat 0 (南): 鸡胡 -> 3; seat 1 (西): 鸡胡 -> 3; seat 2 (北): 混一色 2 + 圈风 1 = 3
    assert [(p.from_seat, p.to_seat, p.amount, p.event) for p in led.payments] == \
        [(3, 0, 8, 1), (3, 1, 8, 2), (3, 2, 8, 3)]
    assert led.totals == (8, 8, 8, -24) and led.winners == (0, 1, 2)
    assert led.next_dealer == 0  # the dealer (3) did not win: the deal passes on
    # two winners: no floor
    led = settle([win(0, discarder=3, discard=1), win(1, discarder=3, discard=1)])
    assert led.totals == (1, 1, 0, -2)
    # first_only: several winners on one discard are refused
    with pytest.raises(MahjongError) as err:
        settle([win(0, discarder=3, discard=1), win(1, discarder=3, discard=1)],
               {"multi_ron": "first_only"})
    assert err.value.code == "bad_event"


def test_liability_in_ledger() -> None:
    """十二张落地: the feeder of the fourth meld pays for all three, as a 'bao' payment."""
    hand = "55m chi:123p peng:777s peng:999m chi:456s"
    ctx = {**EAST, "meld_from": ["left", "right", "across", "left"]}
    led = settle([HandStart(1), win(2, hand, "5m", self_drawn=True, context=ctx)])
    assert [(p.from_seat, p.to_seat, p.amount, p.reason) for p in led.payments] == \
        [(1, 2, 6, "bao")]
    assert led.notes and "shierzhang_luodi" in led.notes[0]
    # 杠上开花 after a 直杠: the Win's kong_feeder names the feeder
    led = settle([Kong(seat=2, kind="gang", tile=22, fed_by=0),
                  win(2, "123m456p789p99m gang:5555s", self_drawn=True, kong_feeder=0,
                      context={**EAST, "meld_from": ["across"]})])
    assert led.totals == (-24, 0, 24, 0)
    # 抢杠: the robbed seat is the Win's discarder
    led = settle([win(1, "234m567m345p678p99p", "4m", discarder=3,
                      context={**EAST, "qiang_gang": True})])
    assert led.totals == (0, 24, 0, -24) and led.payments[0].reason == "bao"


def test_no_kong_money_and_draws() -> None:
    led = settle([HandStart(2), Kong(0, "angang", 5), Kong(1, "bugang", 6),
                  Kong(3, "gang", 7, fed_by=1), WallEmpty((None, None, None, None))])
    assert led.payments == () and led.totals == (0, 0, 0, 0)
    assert led.next_dealer == 3  # a draw: the deal passes on
    assert settle([]).next_dealer == 0 and settle([], dealer=2).next_dealer == 2


@pytest.mark.parametrize("events", [
    [win(0, self_drawn=True), win(1, self_drawn=True)],  # the hand ended at the first win
    [WallEmpty((None,) * 4), win(0, self_drawn=True)],
    [win(0, discarder=0)],  # discards to itself
    [win(0, self_drawn=True, discarder=1)],
    [win(0)],  # a discard win that does not say whose discard
    [Kong(0, "gang", 5, fed_by=0)],
    [Kong(0, "chi", 5)],
    [win(0), HandStart(0)],
    [HandStart(0), HandStart(0)],
    [win(0, discarder=2, discard=1), win(0, discarder=2, discard=1)],
    ["not an event"],
    [win(0, discarder=2, context={**EAST, "winners_on_discard": 3})],
    [WallEmpty((None,))],
])
def test_bad_events(events: list[Any]) -> None:
    with pytest.raises(MahjongError) as err:
        settle(events)
    assert err.value.code in ("bad_event", "bad_context")


def test_bounded_log() -> None:
    with pytest.raises(MahjongError) as err:
        settle([Kong(0, "angang", 5)] * 600)
    assert err.value.code == "bad_event"
    with pytest.raises(MahjongError):
        settle("events")  # type: ignore[arg-type]


def test_scoring_errors_surface() -> None:
    with pytest.raises(MahjongError) as err:
        settle([win(0, "123m456p777s234s19m", discarder=1)])
    assert err.value.code == "not_a_win"
    with pytest.raises(MahjongError) as err:
        settle([win(0, "123m456p777s234s99m", discarder=1, context={})])  # no round wind
    assert err.value.code == "bad_context"
