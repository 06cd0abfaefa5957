"""Settlement of a whole hand (§5): kong money, wins, 血战, wall-empty end, ledger."""

from __future__ import annotations

from typing import Any

import pytest
from sichuan_api import settle

from mjcore import MahjongError
from mjcore.rules.sichuan import DingQue
from mjcore.table import HandStart, Kong, WallEmpty, Win

READY_P = "123m456m789m23p55p"  # ready on 1p/4p (pinghu), no s tiles
READY_BIG = "111m555m777m33p66p"  # ready on 3p/6p, 对对胡 1
NOT_READY = "123m456m789m13p58p"  # not ready, no s tiles
PIG = "123m456m789m23p5s8s"  # holds s (its 缺门) -> 花猪


def entries(ledger: Any, reason: str | None = None) -> list[tuple[int, int, int, str]]:
    return [(p.from_seat, p.to_seat, p.amount, p.reason) for p in ledger.payments
            if reason is None or p.reason == reason]


def dq(*suits: str) -> list[object]:
    return [DingQue(s, suit) for s, suit in enumerate(suits)]


def test_kong_money_guafeng_xiayu() -> None:
    """§5.1 刮风下雨: 直杠 paid by the feeder, 面下杠 1 and 暗杠 2 by each other seat."""
    led = settle([Kong(0, "gang", 4, fed_by=2), Kong(1, "bugang", 5), Kong(3, "angang", 6)])
    assert entries(led) == [
        (2, 0, 1, "gang"),
        (0, 1, 1, "bugang"), (2, 1, 1, "bugang"), (3, 1, 1, "bugang"),
        (0, 3, 2, "angang"), (1, 3, 2, "angang"), (2, 3, 2, "angang"),
    ]
    assert sum(led.totals) == 0
    assert led.totals == (-2, 1, -4, 5)


def test_zhigang_pay_option() -> None:
    """§5.1 zhigang_pay 1/2/3."""
    led = settle([Kong(0, "gang", 4, fed_by=2)], {"zhigang_pay": 3})
    assert entries(led) == [(2, 0, 3, "gang")]


def test_robbed_bugang_pays_nothing() -> None:
    """§5.1/§2: a robbed bugang pays nothing; the robber is paid as for a discard."""
    led = settle([
        Kong(1, "bugang", 12, robbed=True),
        Win(0, READY_P + "4p", "4p", discarder=1, context={"robbing_kong": True}),
    ])
    assert entries(led) == [(1, 0, 2, "win")]  # pinghu 0 + 抢杠胡 1


def test_winner_leaves_play() -> None:
    """§1.5/§5.2 血战: a seat that has won neither pays nor collects afterwards."""
    led = settle([
        Win(2, "123m456m789m234p55p", "5p", self_drawn=True),
        Kong(0, "angang", 20),
        Win(1, READY_P + "1p", "1p", self_drawn=True),
    ])
    assert entries(led, "angang") == [(1, 0, 2, "angang"), (3, 0, 2, "angang")]
    assert entries(led, "win") == [
        (0, 2, 2, "win"), (1, 2, 2, "win"), (3, 2, 2, "win"),
        (0, 1, 2, "win"), (3, 1, 2, "win"),
    ]
    assert led.next_dealer == 2
    with pytest.raises(MahjongError) as err:
        settle([Win(2, "123m456m789m234p55p", "5p", self_drawn=True), Kong(2, "angang", 20)])
    assert err.value.code == "bad_event"


def test_yipao_duoxiang() -> None:
    """§4.3 一炮多响: the discarder pays each winner; §1.7 the discarder deals next."""
    led = settle([
        HandStart(dealer=0),
        Win(1, "11m33m55m22p44p66p88p", "2p", discarder=3),
        Win(2, "123m456m789m234p55p", "2p", discarder=3),
    ])
    assert entries(led) == [(3, 1, 4, "win"), (3, 2, 1, "win")]
    assert led.next_dealer == 3
    assert led.winners == (1, 2)


def test_next_dealer() -> None:
    """§1.7: first winner deals; nobody won: dealer stays (dealer_on_draw rotate moves on)."""
    wall = WallEmpty((NOT_READY, NOT_READY, NOT_READY, NOT_READY))
    assert settle([HandStart(2), Win(1, "123m456m789m234p55p", "5p", discarder=0)]).next_dealer \
        == 1
    assert settle([HandStart(2), wall]).next_dealer == 2
    assert settle([HandStart(2), wall], {"dealer_on_draw": "rotate"}).next_dealer == 3
    assert settle([wall], dealer=3).next_dealer == 3


def test_dian_gang_hua_in_settlement() -> None:
    """§4.3 点杠花: the feeder of the 直杠 pays alone (default)."""
    led = settle([
        Kong(0, "gang", 14, fed_by=3),
        Win(0, "123m456m789m11p gang:6666p", "1p", self_drawn=True,
            context={"after_kong": True}, kong_feeder=3),
    ])
    assert entries(led) == [(3, 0, 1, "gang"), (3, 0, 4, "win")]


def test_hujiao_zhuanyi() -> None:
    """§4.3 呼叫转移: on 杠上炮 the discarder hands each winner that kong's money."""
    events = [
        Kong(3, "angang", 26),
        Win(0, "234m567m345p678p99p", "9p", discarder=3, context={"after_kong_discard": True}),
    ]
    assert entries(settle(events), "hujiao_zhuanyi") == []
    led = settle(events, {"hujiao_zhuanyi": True})
    assert entries(led, "hujiao_zhuanyi") == [(3, 0, 6, "hujiao_zhuanyi")]
    assert led.totals == (6, -2, -2, -2)


def test_chahuazhu() -> None:
    """§5.3.1 查花猪: a 花猪 pays each non-花猪 seat still playing 16 × base (capped 2^cap)."""
    events = [*dq("s", "s", "s", "s"), WallEmpty((PIG, NOT_READY, NOT_READY, PIG))]
    led = settle(events)
    assert entries(led, "huazhu") == [
        (0, 1, 16, "huazhu"), (0, 2, 16, "huazhu"), (3, 1, 16, "huazhu"), (3, 2, 16, "huazhu")]
    led = settle(events, {"cap_fan": 3})
    assert {p.amount for p in led.payments if p.reason == "huazhu"} == {8}
    led = settle(events, {"huazhu_pay": 9})
    assert {p.amount for p in led.payments if p.reason == "huazhu"} == {9}


def test_three_suits_is_huazhu_without_ding_que() -> None:
    """§5.3.1: holding all three suits makes a 花猪 even with no 定缺 recorded."""
    led = settle([
        Win(2, "123m456m789m234p55p", "5p", discarder=1),
        WallEmpty((PIG, NOT_READY, None, NOT_READY)),
    ])
    assert entries(led, "huazhu") == [(0, 1, 16, "huazhu"), (0, 3, 16, "huazhu")]


def test_chadajiao() -> None:
    """§5.3.2 查大叫: not ready (and not 花猪) pays each ready seat its largest win."""
    led = settle([*dq("s", "s", "s", "s"),
                  WallEmpty((READY_BIG, NOT_READY, READY_P, PIG))])
    assert entries(led, "chadajiao") == [(1, 0, 2, "chadajiao"), (1, 2, 1, "chadajiao")]
    # the 花猪 pays huazhu to all three, not chadajiao
    assert [p.from_seat for p in led.payments if p.reason == "chadajiao"] == [1, 1]
    led = settle([*dq("s", "s", "s", "s"),
                  WallEmpty(("1111m2222m55m66m8m", NOT_READY, NOT_READY, NOT_READY))],
                 {"cap_fan": 2})
    assert {p.amount for p in led.payments if p.reason == "chadajiao"} == {4}


def test_tuishui() -> None:
    """§5.3.3 退税: a seat not ready (花猪 included) returns its kong money to the payers."""
    events = [
        *dq("s", "s", "s", "s"),
        Kong(1, "angang", 0),
        Kong(0, "gang", 2, fed_by=3),
        WallEmpty(("456m789m23p55p gang:3333m", "456m789m23p5p9s angang:1111m", NOT_READY,
                   NOT_READY)),
    ]
    led = settle(events)
    # seat 1 is a 花猪 (holds 9s) and not ready: returns its 下雨 money; seat 0 is ready
    assert entries(led, "tuishui") == [(1, 0, 2, "tuishui"), (1, 2, 2, "tuishui"),
                                       (1, 3, 2, "tuishui")]
    assert sum(led.totals) == 0


def test_wall_empty_after_three_winners_is_refused() -> None:
    with pytest.raises(MahjongError) as err:
        settle([
            Win(1, "123m456m789m234p55p", "5p", self_drawn=True),
            Win(2, "123m456m789m234p55p", "5p", self_drawn=True),
            Win(3, "123m456m789m234p55p", "5p", self_drawn=True),
            WallEmpty((NOT_READY, None, None, None)),
        ])
    assert err.value.code == "bad_event"


def test_bad_events() -> None:
    for events in (
        [Kong(0, "gang", 3)],  # no feeder
        [Kong(0, "pong", 3)],
        [Win(0, "123m456m789m234p55p", "5p", discarder=0)],
        [Win(0, "123m456m789m234p55p", "5p", self_drawn=True, discarder=1)],
        [WallEmpty((NOT_READY,))],
        [WallEmpty(("123m456m789m234p55p", NOT_READY, NOT_READY, NOT_READY))],
        ["nonsense"],
    ):
        with pytest.raises(MahjongError) as err:
            settle(events)  # type: ignore[arg-type]
        assert err.value.code in ("bad_event", "bad_context"), events


def test_win_context_missing_suit_from_ding_que() -> None:
    """A Win is checked against the seat's declared 缺门."""
    with pytest.raises(MahjongError) as err:
        settle([DingQue(0, "p"), Win(0, "123m456m789m234p55p", "5p", discarder=1)])
    assert err.value.code == "not_a_win"


def test_ledger_indexes_events() -> None:
    """§5.4: every entry names its reason and the event it came from."""
    led = settle([HandStart(0), Kong(0, "angang", 1), Win(2, READY_P + "1p", "1p", discarder=0)])
    assert [(p.reason, p.event) for p in led.payments] == [
        ("angang", 1), ("angang", 1), ("angang", 1), ("win", 2)]


def test_two_discards_of_one_tile_are_two_wins() -> None:
    """Win.discard says which discard a win answers: two wins on two separate discards of the
    same tile are not one 一炮多响 (the first winner deals next, not the discarder)."""
    a = Win(0, "123m456m789m234p55p", "5p", discarder=2, discard=5)
    b = Win(1, "111m456m789m345p55p", "5p", discarder=2, discard=9)
    assert settle([HandStart(3), a, b]).next_dealer == 0
    same = Win(1, "111m456m789m345p55p", "5p", discarder=2, discard=5)
    assert settle([HandStart(3), a, same]).next_dealer == 2  # 一炮多响: the discarder deals
