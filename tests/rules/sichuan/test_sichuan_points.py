"""§8 the Chengdu points table (preset ``chengdu_points``): points added up, the first win ends
the hand (一炮多响 still allowed), no kong money, 查叫 pays the smallest possible win, no 查花猪;
next dealer: the winner, the discarder after 一炮多响, the dealer again after a draw."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest
from sichuan_api import score, settle

from mjcore import MahjongError
from mjcore.rules.sichuan import DingQue
from mjcore.table import HandStart, Kong, WallEmpty, Win

points_score = partial(score, preset="chengdu_points")
points_settle = partial(settle, preset="chengdu_points")


def entries(ledger: Any) -> list[tuple[int, int, int, str]]:
    return [(p.from_seat, p.to_seat, p.amount, p.reason) for p in ledger.payments]


def test_points_are_added_not_doubled() -> None:
    """§8: 清一色 3 + 2 根 = 5 points; the payer pays base × points."""
    r = points_score("123s567s678s888s77s", win_tile="7s", context={"discarder": 1})
    assert (r.unit, r.value, r.multiplier) == ("points", 5, 5)
    assert r.payments == ((1, 0, 5),)
    r = points_score("123s567s678s888s77s", win_tile="7s", context={"discarder": 1},
                     options={"base": 2})
    assert r.payments == ((1, 0, 10),)


def test_self_draw_each_other_seat_pays_the_value() -> None:
    """§8: zimo_bonus none: each of the three others pays the value (杠上花 +2)."""
    r = points_score("345m678m345p99p angang:2222m", win_tile="9p", self_drawn=True,
                     context={"after_kong": True})
    assert r.value == 4 and sorted(r.payments) == [(1, 0, 4), (2, 0, 4), (3, 0, 4)]


def test_options_of_the_points_table() -> None:
    from mjcore.rules import resolve_options

    o = resolve_options("sichuan", preset="chengdu_points")
    assert (o.scoring, o.xuezhan, o.kong_money, o.chajiao, o.chahuazhu, o.zimo_bonus) == (
        "points", False, False, "smallest", False, "none")
    assert o.cap_fan is None and o.guoshui and o.last_four_must_win
    assert o.dian_gang_hua == "dianpao"


def test_no_kong_money() -> None:
    """§8 kong_money false: a kong pays nothing when made; it adds a 根 to its owner's win."""
    led = points_settle([Kong(0, "gang", 4, fed_by=2), Kong(1, "angang", 6)])
    assert entries(led) == [] and led.totals == (0, 0, 0, 0)


def test_first_win_ends_the_hand() -> None:
    """§8 xuezhan false: nothing may follow the first win (or the wins on its discard)."""
    win = Win(2, "123m456m789m234p55p", "5p", self_drawn=True)
    led = points_settle([HandStart(0), win])
    assert led.winners == (2,) and led.next_dealer == 2
    with pytest.raises(MahjongError) as err:
        points_settle([win, Kong(0, "angang", 20)])
    assert err.value.code == "bad_event"


def test_yipao_duoxiang_still_allowed() -> None:
    """一炮多响: both winners on one discard win; the discarder deals next."""
    led = points_settle([
        HandStart(3),
        Win(0, "123m456m789m234p55p", "5p", discarder=2, discard=7),
        Win(1, "111m456m789m345p55p", "5p", discarder=2, discard=7),
    ])
    assert entries(led) == [(2, 0, 1, "win"), (2, 1, 1, "win")]
    assert led.next_dealer == 2


def test_wall_empty_smallest_chajiao_and_no_huazhu() -> None:
    """§8 chajiao smallest: a seat not ready pays each ready seat that seat's smallest possible
    win; no 查花猪 (a hand holding its 缺门 is just not ready); the dealer stays."""
    led = points_settle([
        HandStart(1),
        *[DingQue(s, "s") for s in range(4)],
        WallEmpty(("123m456m789m23p55p",   # ready on 1p/4p: 平胡 1 point
                   "111m555m777m33p66p",   # ready on 3p/6p: 对对胡 2 points (smallest 2)
                   "123m456m789m13p58p",   # not ready
                   "123m456m789m23p5s8s")),  # holds its 缺门: a 花猪, here just not ready
    ])
    assert sorted(entries(led)) == sorted([
        (2, 0, 1, "chadajiao"), (2, 1, 2, "chadajiao"),
        (3, 0, 1, "chadajiao"), (3, 1, 2, "chadajiao"),
    ])
    assert led.next_dealer == 1
