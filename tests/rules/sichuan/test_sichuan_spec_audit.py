"""Checks written from sichuan.md's text during an audit of the rule set against its
specification: each test cites the section it checks."""

from __future__ import annotations

from sichuan_api import TableView, legal_moves, score, settle, validate_move

from mjcore.rules.sichuan import DingQue, SichuanView
from mjcore.table import HandStart, Move, WallEmpty, Win


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
