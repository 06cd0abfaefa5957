"""Checks written from sichuan.md's text during an audit of the rule set against its
specification: each test cites the section it checks."""

from __future__ import annotations

from sichuan_api import TableView, legal_moves, score, settle, validate_move

from mjcore.rules.sichuan import DingQue, SichuanView
from mjcore.table import HandStart, Kong, Move, WallEmpty, Win


def test_a_preset_may_be_named_among_the_options() -> None:
    """§8 (`chengdu_points` is a preset) and the worked cases' form, whose `options` name it
    (`{"preset": "chengdu_points"}`): the preset applies as if passed by name."""
    r = score("123s567s678s888s77s", win_tile="7s", options={"preset": "chengdu_points"})
    assert (r.unit, r.value) == ("points", 5)  # 清一色 3 + 2 根
    r = score("1111m3333m55m22p44p", win_tile="4p", options={"preset": "modern"})
    assert r.value == 3  # cap_fan 3
    r = score("1111m3333m55m22p44p", win_tile="4p", options={"preset": "modern", "cap_fan": 5})
    assert r.value == 4  # longqidui 3 + 根 1: explicit options override the preset
    log = [HandStart(2), *[DingQue(s, "s") for s in range(4)],
           WallEmpty(("123m456m789m13p58p", "123m456m789m23p55p", "123m456m789m13p58p",
                      "123m456m789m13p58p"))]
    led = settle(log, {"preset": "chengdu_points"})
    assert [(p.from_seat, p.to_seat, p.amount, p.reason) for p in led.payments] == [
        (0, 1, 1, "chadajiao"), (2, 1, 1, "chadajiao"), (3, 1, 1, "chadajiao")]
    win = Win(1, "123m456m789m234p55p", "5p", discarder=0)
    assert settle([HandStart(2), *[DingQue(s, "s") for s in range(4)], win],
                  {"preset": "chengdu_points"}).next_dealer == 1


def test_ding_que_is_declared_once() -> None:
    """§1.3 定缺: the suit is "fixed for the hand": a seat that has declared may not declare
    again (wrong_phase), and legal_moves offers it nothing more in that phase."""
    v = TableView(seat=0, hand="123m456m789m23p55p9m", phase="ding_que", missing_suit="s")
    assert validate_move(v, Move("ding_que", (), "m")).code == "wrong_phase"
    assert legal_moves(v) == ()
    fresh = v.replace(rules=SichuanView())
    assert validate_move(fresh, Move("ding_que", (), "m")).ok
    assert len(legal_moves(fresh)) == 3


def test_dian_gang_hua_feeder_taken_from_the_log() -> None:
    """§4.3 点杠花: a 杠上花 after a 直杠 fed by another seat is paid by the feeder alone (default
    `dian_gang_hua: dianpao`) when the log's kong just before the win names the feeder, as
    when the Win names it; `dian_gang_hua: zimo` keeps the self-draw payment."""
    log = [*[DingQue(s, "s") for s in range(4)], Kong(1, "gang", 15, fed_by=2),
           Win(1, "123m456m789m11p gang:6666p", "1p", self_drawn=True,
               context={"after_kong": True})]
    entries = [(p.from_seat, p.to_seat, p.amount, p.reason) for p in settle(log).payments]
    assert entries == [(2, 1, 1, "gang"), (2, 1, 4, "win")]  # 杠上花 1 + 根 1: 2^2, no 自摸加底
    named = [*log[:-1], Win(1, "123m456m789m11p gang:6666p", "1p", self_drawn=True,
                            context={"after_kong": True}, kong_feeder=2)]
    assert settle(named).payments == settle(log).payments
    zimo = settle(log, {"dian_gang_hua": "zimo"}).payments
    assert [(p.from_seat, p.amount) for p in zimo if p.reason == "win"] == [(0, 5), (2, 5), (3, 5)]
    # an angang's replacement is an ordinary 杠上花 (everyone pays)
    own = [*log[:-2], Kong(1, "angang", 15), Win(1, "123m456m789m11p angang:6666p", "1p",
                                                  self_drawn=True, context={"after_kong": True})]
    assert len([p for p in settle(own).payments if p.reason == "win"]) == 3


def test_robbing_a_logged_bugang_is_qiangganghu() -> None:
    """§4.2/§4.3 抢杠胡: a win on the tile of a bugang the log shows as robbed adds 抢杠胡 +1 and
    the robbed seat pays, also for each winner when several rob it, as when the context says
    `robbing_kong`; the robbed bugang pays nothing (§5.1)."""
    ready = "123m456m789m23p55p"
    log = [*[DingQue(s, "s") for s in range(4)], Kong(1, "bugang", 12, robbed=True),
           Win(0, ready + "4p", "4p", discarder=1), Win(2, ready + "4p", "4p", discarder=1)]
    entries = [(p.from_seat, p.to_seat, p.amount, p.reason) for p in settle(log).payments]
    assert entries == [(1, 0, 2, "win"), (1, 2, 2, "win")]  # pinghu 0 + 抢杠胡 1
    flagged = [*log[:4], Kong(1, "bugang", 12, robbed=True),
               Win(0, ready + "4p", "4p", discarder=1, context={"robbing_kong": True}),
               Win(2, ready + "4p", "4p", discarder=1, context={"robbing_kong": True})]
    assert settle(flagged).payments == settle(log).payments
