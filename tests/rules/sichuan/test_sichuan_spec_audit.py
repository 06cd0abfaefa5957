"""Checks written from sichuan.md's text during an audit of the rule set against its
specification: each test cites the section it checks."""

from __future__ import annotations

import pytest
from sichuan_api import TableView, legal_moves, resolve_options, score, settle, validate_move, valued_waits

from mjcore import Hand
from mjcore.errors import MahjongError
from mjcore.rules.sichuan import RULESET, DingQue, SichuanView
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


def test_kong_feeder_needs_a_zhigang_in_the_hand() -> None:
    """§4.3 点杠花 is "杠上花 after a `gang` (直杠) fed by another seat": a context naming the
    feeder of a hand holding no `gang:` meld (its replacement followed an angang or a bugang,
    or no kong at all) contradicts the hand: bad_context (decision 22 of
    docs/rulesets/sichuan.md), on score, valued_waits and the service's bulk path alike (a
    table view saying so is bad_state); with the 直杠 the feeder alone pays."""
    ctx = {"after_kong": True, "kong_feeder": 2}
    r = score("123m456m789m11p gang:6666p", win_tile="1p", self_drawn=True, context=ctx)
    assert r.payments == ((2, 0, 4),)
    for hand in ("123m456m789m11p angang:6666p", "123m456m789m11p bugang:6666p",
                 "123m456m789m666p11p"):
        with pytest.raises(MahjongError) as err:
            score(hand, win_tile="1p", self_drawn=True, context=ctx)
        assert err.value.code == "bad_context", hand
    with pytest.raises(MahjongError) as err:
        valued_waits("123m456m789m1p angang:6666p", context=ctx)
    assert err.value.code == "bad_context"
    assert valued_waits("123m456m789m1p gang:6666p", context=ctx)[0].tile == "1p"
    # a table view saying so is malformed (bad_state); with the 直杠 the hu is legal
    view = TableView(seat=1, hand="123m456m789m11p angang:6666p", phase="turn",
                     missing_suit="s", drawn_tile=9, after_kong=True, kong_feeder=2)
    with pytest.raises(MahjongError) as err:
        validate_move(view, Move("hu", (9,)))
    assert err.value.code == "bad_state"
    assert validate_move(view.replace(hand=Hand.parse("123m456m789m11p gang:6666p")),
                         Move("hu", (9,))).ok
    scorer = RULESET.batch_scorer(resolve_options("sichuan"))  # (None: MJ_PURE_SCORING)
    if scorer is not None:
        assert scorer.context(ctx, True) is None  # each hand scored by ``score``
        assert scorer.context({"after_kong": True}, True) is not None


def test_a_named_feeder_must_agree_with_the_logged_kong() -> None:
    """§4.3 and §5.1: a Win naming a `kong_feeder` right after the winner's own kong in the
    log must name the seat that fed that 直杠; after an angang there is no feeder (bad_event)."""
    base = [*[DingQue(s, "s") for s in range(4)]]
    win = Win(1, "123m456m789m11p gang:6666p", "1p", self_drawn=True,
              context={"after_kong": True}, kong_feeder=3)
    with pytest.raises(MahjongError) as err:
        settle([*base, Kong(1, "gang", 15, fed_by=2), win])
    assert err.value.code == "bad_event"
    with pytest.raises(MahjongError) as err:
        settle([*base, Kong(1, "angang", 15), win])
    assert err.value.code == "bad_event"
    ok = settle([*base, Kong(1, "gang", 15, fed_by=3), win]).payments
    assert [(p.from_seat, p.amount, p.reason) for p in ok] == [(3, 1, "gang"), (3, 4, "win")]


def test_tianhu_against_an_equal_qinglongqidui() -> None:
    """§4.1: 天胡 (5) is flat and 清龙七对 (5, its one 根 absorbed) ties it; the spec's tie
    rule ("the higher pattern is reported") does not separate two 5-fan patterns, so the
    engine reports 天胡/地胡, which "replaces the hand pattern" (case SC-018) — decision 23 of
    docs/rulesets/sichuan.md. The payment is the same either way. A better ordinary total
    (a second 根, or 自摸加番 that a flat 天胡 does not take) keeps the ordinary reading
    (decision 1); in points (§8) 天胡 8 and 清七对 8 tie and 天胡, the higher row of the fan
    table, is reported, while 清龙七对 9 beats it."""
    quad = "11112233445566m"
    r = score(quad, win_tile="6m", self_drawn=True, context={"heavenly": True})
    assert ([(p.id, p.fan) for p in r.patterns], r.amount) == ([("tianhu", 5)], 33)
    plain = score(quad, win_tile="6m", self_drawn=True)
    assert ([(p.id, p.fan) for p in plain.patterns], plain.amount) == ([("qinglongqidui", 5)], 33)
    r = score(quad, win_tile="6m", self_drawn=True, context={"earthly": True, "winner": 1})
    assert [p.id for p in r.patterns] == ["dihu"]
    r = score(quad, win_tile="6m", self_drawn=True, context={"heavenly": True},
              options={"zimo_bonus": "fan"})
    assert [(p.id, p.fan) for p in r.patterns] == [("qinglongqidui", 5), ("zimo", 1)]
    r = score("11112222334455m", win_tile="5m", self_drawn=True, context={"heavenly": True})
    assert [(p.id, p.fan) for p in r.patterns] == [("qinglongqidui", 5), ("gen", 1)]
    pts = {"preset": "chengdu_points"}
    r = score("11223344556677m", win_tile="7m", self_drawn=True, context={"heavenly": True},
              options=pts)
    assert [(p.id, p.fan) for p in r.patterns] == [("tianhu", 8)]
    r = score(quad, win_tile="6m", self_drawn=True, context={"heavenly": True}, options=pts)
    assert [(p.id, p.fan) for p in r.patterns] == [("qinglongqidui", 9)]
