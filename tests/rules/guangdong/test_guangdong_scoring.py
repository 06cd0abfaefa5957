"""Guangdong scoring from the rules text (docs/rulesets/guangdong.md §3-§15): every pattern,
extra, floor, first-turn win, liability, option and error code."""

from __future__ import annotations

from typing import Any

import pytest
from guangdong_api import ctx, points, score

from mjcore import Hand, MahjongError
from mjcore.rules import describe_ruleset


def run(hand: str, win: str, self_drawn: bool = False, options: dict[str, Any] | None = None,
        **context: Any) -> Any:
    if not self_drawn and "discarder" not in context and not context.get("qiang_gang") \
            and not context.get("renhe"):
        context["discarder"] = "across"
    return score(hand, win_tile=win, self_drawn=self_drawn, context=ctx(**context),
                 options=options)


def pats(r: Any) -> list[list[Any]]:
    return [[p.id, p.fan] for p in r.patterns]


def error(hand: str, win: str, self_drawn: bool = False, options: dict[str, Any] | None = None,
          **context: Any) -> str:
    with pytest.raises(MahjongError) as err:
        run(hand, win, self_drawn, options, **context)
    return err.value.code


# ------------------------------------------------------------------ patterns (§4)

@pytest.mark.parametrize("hand,win,expected", [
    ("123m456p777s234s99m", "9m", [["jihu", 0]]),
    ("123m456m789p234s11z", "1z", [["pinghu", 1]]),  # any pair, honours included
    ("111m999p555s777s22m", "2m", [["pengpenghu", 2]]),
    ("11m peng:222m gang:3333p angang:4444s bugang:5555s", "1m", [["pengpenghu", 2]]),  # kongs
    ("123m456m789m444z99m", "9m", [["hunyise", 2]]),
    ("123m456m789m234m55z", "5z", [["hunyise", 2]]),  # no 平胡 beside it by default
    ("123p345p567p789p99p", "9p", [["qingyise", 4]]),
    ("456789p999p11p chi:123p", "1p", [["qingyise", 4]]),  # melds: not 九莲宝灯
    ("111m555m999m222z33z", "3z", [["hunpeng", 4]]),
    ("111s333s555s777s99s", "9s", [["qingpeng", 5]]),
    ("111m999p111z777z99m", "9m", [["hunyaojiu", 5]]),
    ("555z666z77z123m456m", "7z", [["xiaosanyuan", 5]]),
    ("555z666z77z111m999m", "7z", [["xiaosanyuan", 5]]),  # beats 混幺九 5 by the §4 order
    ("111z222z333z44z789m", "4z", [["xiaosixi", 5]]),
    ("111z222z333z44z999m", "4z", [["xiaosixi", 5]]),
    ("111z222z555z666z77z", "7z", [["ziyise", 6]]),
    ("111m999m111p999p99s", "9s", [["qingyaojiu", 6]]),
    ("555z666z777z123m99m", "9m", [["dasanyuan", 6]]),
    ("111z222z333z444z55m", "5m", [["dasixi", 6]]),
    ("111z222z333z444z55z", "5z", [["dasixi", 6]]),  # 字一色 too: no stacking, 大四喜 first
    ("11122345678999s", "9s", [["jiulianbaodeng", 6]]),
    ("11123456789999p", "5p", [["jiulianbaodeng", 6]]),
    ("19m19p19s11234567z", "1z", [["shisanyao", 6]]),
    ("19m19p19s12345677z", "7z", [["shisanyao", 6]]),
])
def test_patterns(hand: str, win: str, expected: list[list[Any]]) -> None:
    r = run(hand, win)
    assert pats(r) == expected
    assert r.fan == r.fan_uncapped == sum(f for _, f in expected)


def test_specials_take_no_extras() -> None:
    """A special stands alone: no 自摸, 门风, 三元牌 beside it (§4, §5)."""
    r = run("111m555m999m222z33z", "3z", True)
    assert pats(r) == [["hunpeng", 4]] and r.fan == 4
    r = run("555z666z77z123m456m", "7z", True)
    assert pats(r) == [["xiaosanyuan", 5]]


def test_best_reading() -> None:
    """111222333m reads as pungs or sequences: the pung reading is worth more (§9 step 4)."""
    r = run("111222333m456p77z", "7z")  # 平胡 1 (runs) beats 鸡胡 0 (pungs and a run)
    assert pats(r) == [["pinghu", 1]]
    r = run("111222333m444p55p", "5p")  # 碰碰胡 2 beats 平胡 1
    assert pats(r) == [["pengpenghu", 2]]
    assert r.shape == "standard" and r.decomposition.pungs == (0, 1, 2, 12)
    r = run("111222333m456p55p", "5p")  # sequences only, or 3 pungs + a run: 平胡 1 > 鸡胡 0
    assert pats(r) == [["pinghu", 1]] and r.decomposition.pungs == ()
    r = run("111222333p444p55p", "5p")  # 清碰 5 beats 清一色 4
    assert pats(r) == [["qingpeng", 5]]


def test_qidui_option() -> None:
    """七对 wins only with option qidui, as the special qidui (qidui_fan); composition
    patterns hold on it (§3, §4)."""
    assert error("11m33m55m22p44p66p77z", "7z") == "not_a_win"
    on = {"qidui": True}
    assert pats(run("11m33m55m22p44p66p77z", "7z", options=on)) == [["qidui", 4]]
    assert pats(run("1111m33m55m22p44p77z", "7z", options=on)) == [["qidui", 4]]  # 4 = 2 pairs
    assert pats(run("11m33m55m22p44p66p77z", "7z", options={**on, "qidui_fan": 6})) == \
        [["qidui", 6]]
    assert pats(run("11m99m11p99p11z22z33z", "3z", options=on)) == [["hunyaojiu", 5]]
    assert pats(run("11223344556677z", "7z", options=on)) == [["ziyise", 6]]
    # 11223344556677m is also four sequences: 清一色 4 either way; 七对 6 wins with qidui_fan 6
    assert pats(run("11223344556677m", "7m", options=on)) == [["qingyise", 4]]
    assert pats(run("11223344556677m", "7m", options={**on, "qidui_fan": 6})) == [["qidui", 6]]
    assert pats(run("11223344556677m", "7m", options={**on, "qidui_fan": 5})) == [["qidui", 5]]


def test_hunyise_needs_one_suit() -> None:
    """§15: 混一色 needs exactly one suit beside the honours."""
    assert pats(run("123m456m789m333z22z", "2z")) == [["hunyise", 2]]
    assert pats(run("123m456p789p333z99m", "9m")) == [["jihu", 0]]


def test_describe() -> None:
    d = describe_ruleset("guangdong")
    ids = [p["id"] for p in d["patterns"]]
    assert ids[:4] == ["jihu", "pinghu", "pengpenghu", "hunyise"] and len(ids) == 20
    klass = {p["id"]: p["class"] for p in d["patterns"]}
    assert klass["hunyise"] == "inside" and klass["qingyise"] == "special"
    sup = {p["id"]: p["supersedes"] for p in d["patterns"]}
    assert {"hunyise", "pengpenghu"} <= set(sup["hunpeng"])
    assert "hunyaojiu" in sup["xiaosanyuan"] and "ziyise" in sup["dasixi"]
    assert [e["id"] for e in d["extras"]] == ["pinghu", "zimo", "menfeng", "quanfeng",
                                               "sanyuanpai", "menqing"]
    assert [f["id"] for f in d["floors"]] == ["yipaosanxiang", "gangshangkaihua",
                                               "gangshangkaihua_baogang", "haidilaoyue",
                                               "qianggang"]
    assert d["policy"]["kind"] == "capped_base" and d["tiles"] == 136 and d["honours"]
    assert "chi" in d["claims"] and d["liabilities"]
    codes = {r["id"] for r in d["reason_codes"]}
    assert {"chi_not_from_left", "below_min_fan", "cannot_rob_angang"} <= codes


# ------------------------------------------------------------------ extras and cap (§5, §6)

@pytest.mark.parametrize("hand,win,sd,context,expected,fan", [
    ("123m456m789p234s55s", "5s", True, {}, [["pinghu", 1], ["zimo", 1]], 2),
    ("123m456p789s222z99m", "9m", False, {}, [["jihu", 0], ["menfeng", 1]], 1),
    ("123m456p789s111z99m", "9m", False, {}, [["jihu", 0], ["quanfeng", 1]], 1),
    ("123m456p789s333z99m", "9m", False, {}, [["jihu", 0]], 0),
    ("123m456p789s111z99m", "9m", False, {"seat_wind": "1z"},
     [["jihu", 0], ["menfeng", 1], ["quanfeng", 1]], 2),
    ("123m456p789s555z99m", "9m", False, {}, [["jihu", 0], ["sanyuanpai", 1]], 1),
    ("123m456p555z666z99m", "9m", False, {}, [["jihu", 0], ["sanyuanpai", 2]], 2),
    ("111m999p555s777z22m", "2m", True, {}, [["pengpenghu", 2], ["zimo", 1],
                                              ["sanyuanpai", 1]], 3),
    ("123m456m789m111z99m", "9m", False, {"seat_wind": "1z"},
     [["hunyise", 2], ["menfeng", 1], ["quanfeng", 1]], 3),
])
def test_extras(hand: str, win: str, sd: bool, context: dict[str, Any],
                expected: list[list[Any]], fan: int) -> None:
    r = run(hand, win, sd, **context)
    assert pats(r) == expected
    assert r.fan_uncapped == sum(f for _, f in expected)
    assert r.fan == fan == min(r.fan_uncapped, 3)


def test_menqing_option() -> None:
    """门清 only with menqing_fan 1; an angang keeps the hand 门清, a peng does not."""
    on = {"menqing_fan": 1}
    assert pats(run("123m456m789p234s55s", "5s")) == [["pinghu", 1]]
    assert pats(run("123m456m789p234s55s", "5s", options=on)) == [["pinghu", 1], ["menqing", 1]]
    assert pats(run("123m456p789p99m angang:5555s", "9m", options=on, meld_from=[None])) == \
        [["jihu", 0], ["menqing", 1]]
    assert pats(run("123m456p789p99m peng:555s", "9m", options=on, meld_from=["right"])) == \
        [["jihu", 0]]


def test_hunyise_pinghu_stack() -> None:
    on = {"hunyise_pinghu_stack": True}
    r = run("123m456m789m234m55z", "5z", options=on)
    assert pats(r) == [["hunyise", 2], ["pinghu", 1]] and r.fan == 3
    # not on a 混一色 with a pung
    assert pats(run("123m456m789m444z99m", "9m", options=on)) == [["hunyise", 2]]


def test_baohu_cap_option() -> None:
    """baohu_cap caps inside hands and is the floor value (§6, §7); specials are not capped."""
    r = run("123m456m789p234s55s", "5s", True, options={"baohu_cap": 1})
    assert (r.fan, r.fan_uncapped) == (1, 2)
    r = run("123m456p777s234s99m", "9m", True, options={"baohu_cap": 2}, hai_di_lao_yue=True)
    assert (r.fan, r.fan_uncapped) == (2, 1)
    r = run("123p345p567p789p99p", "9p", options={"baohu_cap": 1})
    assert r.fan == 4


# ------------------------------------------------------------------ floors (§7)

def test_floors() -> None:
    r = run("123m456p777s234s99m", "9m", winners_on_discard=3)
    assert pats(r) == [["jihu", 0], ["yipaosanxiang", 0]] and r.fan == 3
    r = run("123m456p777s234s99m", "9m", winners_on_discard=2)  # two winners: no floor
    assert pats(r) == [["jihu", 0]] and r.fan == 0
    r = run("123m456p777s234s99m", "9m", options={"sanxiang_min_winners": 2}, winners_on_discard=2)
    assert pats(r) == [["jihu", 0], ["yipaosanxiang", 0]] and r.fan == 3
    r = run("123m456p777s234s99m", "9m", True, hai_di_lao_yue=True)
    assert pats(r) == [["jihu", 0], ["zimo", 1], ["haidilaoyue", 0]] and r.fan == 3
    r = run("123m456p777s234s99m", "9m", hai_di_lao_yue=True)  # on a discard: nothing (§15)
    assert pats(r) == [["jihu", 0]] and r.fan == 0
    r = run("123m456p789p99m bugang:5555s", "9m", True, gang_shang_kai_hua=True,
            meld_from=["right"])
    assert pats(r) == [["jihu", 0], ["zimo", 1], ["gangshangkaihua", 0]] and r.fan == 3
    r = run("111m555m999m222z33z", "3z", True, hai_di_lao_yue=True)  # above the floor
    assert pats(r) == [["hunpeng", 4], ["haidilaoyue", 0]] and r.fan == 4
    # two floors are both listed, still 3
    r = run("123m456p789p99m angang:5555s", "9m", True, gang_shang_kai_hua=True,
            hai_di_lao_yue=True, meld_from=[None])
    assert [p[0] for p in pats(r)] == ["jihu", "zimo", "gangshangkaihua", "haidilaoyue"]


# ------------------------------------------------------------------ first-turn wins (§8)

def test_first_turn_wins() -> None:
    r = run("123m456p777s234s99m", "9m", True, seat_wind="1z", tianhe=True)
    assert pats(r) == [["tianhe", 6]] and points(r)["from"] == {"left": 64, "across": 64,
                                                                 "right": 64}
    r = run("123m456p777s234s99m", "9m", True, seat_wind="4z", dihe=True)
    assert pats(r) == [["dihe", 6]]
    r = run("123m456p777s234s99m", "9m", seat_wind="3z", renhe=True)  # the dealer is across
    assert pats(r) == [["renhe", 6]] and points(r)["from"] == {"across": 64}
    # 人和 replaces the 一炮三响 floor (§15)
    r = run("123m456p777s234s99m", "9m", discarder="left", renhe=True, winners_on_discard=3)
    assert pats(r) == [["renhe", 6]] and r.fan == 6
    # option off: scored as an ordinary hand
    off = {"tian_di_ren_he": False}
    r = run("123m456p777s234s99m", "9m", True, options=off, seat_wind="1z", tianhe=True)
    assert pats(r) == [["jihu", 0], ["zimo", 1]] and r.fan == 1


# ------------------------------------------------------------------ payments and liability

def test_payments_absolute_seats() -> None:
    """Payments name absolute seats from the winner (left = winner - 1)."""
    r = run("123m456m789p234s55s", "5s", True, winner=2)
    assert r.payments == ((0, 2, 4), (1, 2, 4), (3, 2, 4)) and r.multiplier == 4
    r = run("123m456m789p234s55s", "5s", winner=2, discarder="left")
    assert r.payments == ((1, 2, 2),) and r.total == 2
    r = run("55m chi:123p peng:777s peng:999m chi:456s", "5m", True, winner=2,
            meld_from=["left", "right", "across", "left"])
    assert r.payments == ((1, 2, 6),) and (r.liable, r.liable_seat) == ("shierzhang_luodi", 1)


def test_discard_win_without_discarder() -> None:
    """Decision: a discard win whose context names no discarder is scored, with no payment
    listed (who pays is unknown)."""
    r = score("123m456m789p234s55s", win_tile="5s", context=ctx())
    assert r.fan == 1 and r.payments == () and points(r) == {"from": {}, "winner_total": 0}


def test_fan_points_and_base() -> None:
    o = {"fan_points": [1, 1, 2, 3, 5, 8, 13], "base_points": 10}
    r = run("123m456m789p234s55s", "5s", True, options=o)  # 2 fan
    assert r.multiplier == 20 and points(r)["winner_total"] == 60
    r = run("123m456m789p234s55s", "5s", options={"discard_payment": "discarder_pays_three"})
    assert points(r) == {"from": {"across": 6}, "winner_total": 6}
    r = run("123m456p777s234s99m", "9m", options={"discard_payment": "discarder_pays_three"},
            winners_on_discard=3)
    assert points(r)["from"] == {"across": 24}
    r = run("123m456p777s234s99m", "9m", options={"discard_payment": "discarder_pays_three"},
            discarder="left", renhe=True)
    assert points(r)["from"] == {"left": 192}


def test_liabilities() -> None:
    shier = "55m chi:123p peng:777s peng:999m chi:456s"
    mf = ["left", "right", "across", "left"]
    r = run(shier, "5m", True, meld_from=mf)
    assert points(r) == {"from": {"left": 6}, "winner_total": 6, "liable": "shierzhang_luodi"}
    # 包先不包后: the feeder is exempt; and the option switches it off
    for r in (run(shier, "5m", True, meld_from=mf, bao_exempt=True),
              run(shier, "5m", True, options={"bao_shierzhang": False}, meld_from=mf)):
        assert points(r) == {"from": {"left": 2, "across": 2, "right": 2}, "winner_total": 6}
    # on a discard the discarder pays as usual
    r = run(shier, "5m", discarder="right", meld_from=mf)
    assert points(r) == {"from": {"right": 1}, "winner_total": 1}
    # an angang among the four melds: no 十二张落地
    r = run("55m chi:123p peng:777s angang:9999m chi:456s", "5m", True,
            meld_from=["left", "right", None, "left"])
    assert not r.liable
    # 大三元: the feeder of the third dragon pung; earlier than the fourth meld, so it wins
    r = run("99m peng:555z peng:666z peng:777z chi:123m", "9m", True,
            meld_from=["right", "right", "across", "left"])
    assert points(r)["from"] == {"across": 192} and r.liable == "dasanyuan"
    r = run("99m peng:555z peng:666z peng:777z chi:123m", "9m", True,
            options={"bao_dasixi_dasanyuan": False}, meld_from=["right", "right", "across", "left"])
    assert r.liable == "shierzhang_luodi" and points(r)["from"] == {"left": 192}
    # a dragon kong made concealed: no 大三元 liability
    r = run("123m99m peng:555z peng:666z angang:7777z", "9m", True,
            meld_from=["right", "across", None])
    assert not r.liable and r.total == 192
    # 大四喜 / 十二张落地 on the same meld: 大四喜 is named
    r = run("55m peng:111z peng:222z peng:333z peng:444z", "5m", True,
            meld_from=["right", "across", "right", "left"])
    assert points(r) == {"from": {"left": 192}, "winner_total": 192, "liable": "dasixi"}
    # 抢杠 and 杠上开花包杠 come first
    r = run("234m567m345p678p99p", "4m", qiang_gang=True, robbed="right")
    assert points(r) == {"from": {"right": 24}, "winner_total": 24, "liable": "qianggang"}
    r = run("123m456p789p99m gang:5555s", "9m", True, gang_shang_kai_hua=True,
            gang_fed_by="left", meld_from=["left"])
    assert points(r)["from"] == {"left": 24} and r.liable == "gangshangkaihua_baogang"


# ------------------------------------------------------------------ options and errors

def test_min_fan() -> None:
    assert error("123m456p777s234s99m", "9m", options={"min_fan": 1}) == "below_min_fan"
    assert run("123m456p777s234s99m", "9m", True, options={"min_fan": 1}).fan == 1
    assert error("123m456p777s234s99m", "9m", options={"min_fan": 3},
                 winners_on_discard=3) == "below_min_fan"
    # other floors count towards min_fan
    assert run("123m456p777s234s99m", "9m", True, options={"min_fan": 3},
               hai_di_lao_yue=True).fan == 3


@pytest.mark.parametrize("options", [
    {"baohu_cap": 0}, {"baohu_cap": 7}, {"min_fan": -1}, {"qidui": "yes"}, {"qidui_fan": 3},
    {"menqing_fan": 2}, {"multi_ron": "some"}, {"sanxiang_min_winners": 4},
    {"fan_points": [1, 2, 3]}, {"fan_points": [4, 2, 4, 8, 16, 32, 64]}, {"base_points": 0},
    {"discard_payment": "all"}, {"bao_scope": "global"}, {"nonsense": 1},
])
def test_bad_options(options: dict[str, Any]) -> None:
    assert error("123m456m789p234s55s", "5s", options=options) == "bad_option"


def test_bad_preset() -> None:
    with pytest.raises(MahjongError) as err:
        score("123m456m789p234s55s", win_tile="5s", context=ctx(discarder="left"),
              preset="hongkong")
    assert err.value.code == "bad_option"
    r = score("123m456m789p234s55s", win_tile="5s", context=ctx(discarder="left"),
              preset="jipinghu")
    assert r.fan == 1


def test_input_error_codes_exact() -> None:
    assert error("11111m234p567s999s", "1m", True) == "tile_count"
    assert error("123m456p777s234s9m", "9m") == "tile_count"
    assert error("123m456p777s99m chi:124s", "9m") == "bad_meld"  # no stand-in tiles
    assert error("123m456p777s99m chi:12s5z", "9m") == "bad_meld"
    assert error("123m456p777s234s99m pizigang:5z", "9m") == "bad_meld"
    assert error("123m456p777s99m pong:222s", "9m") == "bad_meld"
    assert error("123m456p777s234s19m", "9m") == "not_a_win"
    assert error("123m456p777s234s99m", "5z") == "bad_context"  # win tile not held
    with pytest.raises(MahjongError) as err:
        score(Hand.parse("123m456p777s234s9m"), win_tile="9m", context=ctx(discarder="left"))
    assert err.value.code == "tile_count"


@pytest.mark.parametrize("self_drawn,context,hand", [
    (False, {"seat_wind": None}, None),
    (False, {"round_wind": "5z"}, None),
    (False, {"nonsense": True}, None),
    (True, {"discarder": "left"}, None),
    (False, {"discarder": "north"}, None),
    (True, {"qiang_gang": True, "robbed": "left"}, None),
    (False, {"robbed": "left"}, None),
    (False, {"qiang_gang": True}, None),
    (False, {"qiang_gang": True, "robbed": "left"}, "123m456p777s234s99m"),  # holds two 9m
    (False, {"gang_shang_kai_hua": True}, None),
    (True, {"gang_shang_kai_hua": True}, None),  # no kong at all
    (True, {"gang_fed_by": "left"}, None),
    (True, {"winners_on_discard": 2}, None),
    (False, {"winners_on_discard": 4}, None),
    (True, {"tianhe": True, "seat_wind": "2z"}, None),
    (False, {"tianhe": True, "seat_wind": "1z"}, None),
    (False, {"renhe": True, "discarder": "across"}, None),  # the dealer is left of South
    (False, {"renhe": True, "seat_wind": "1z"}, None),
    (True, {"dihe": True, "seat_wind": "1z"}, None),
    (True, {"tianhe": True, "dihe": True, "seat_wind": "1z"}, None),
    (False, {"winner": 4}, None),
    (False, {"bao_exempt": "yes"}, None),
    (False, {"meld_from": "left"}, None),
    (False, {"meld_from": ["left"]}, None),  # one entry for no meld
])
def test_bad_context(self_drawn: bool, context: dict[str, Any], hand: str | None) -> None:
    c = ctx(**context)
    for k, v in list(c.items()):
        if v is None:
            del c[k]
    if not self_drawn and "discarder" not in c and not c.get("qiang_gang") \
            and not c.get("renhe") and not c.get("robbed"):
        c["discarder"] = "right"
    with pytest.raises(MahjongError) as err:
        score(hand or "123m456p777s234s99m", win_tile="9m" if hand else "3m",
              self_drawn=self_drawn, context=c)
    assert err.value.code == "bad_context", context


@pytest.mark.parametrize("hand,self_drawn,context", [
    # a chi not from the left seat
    ("345p99s chi:123m chi:678s chi:234p", False,
     {"discarder": "across", "meld_from": ["left", "right", "left"]}),
    # an angang claimed from someone
    ("123m456p789p99m angang:5555s", True, {"meld_from": ["left"]}),
    # 杠上开花 after a 直杠 without gang_fed_by, or naming a seat no gang came from
    ("123m456p789p99m gang:5555s", True, {"gang_shang_kai_hua": True, "meld_from": ["left"]}),
    ("123m456p789p99m gang:5555s", True, {"gang_shang_kai_hua": True, "gang_fed_by": "right",
                                         "meld_from": ["left"]}),
    ("123m456p789p99m angang:5555s", True, {"gang_shang_kai_hua": True, "gang_fed_by": "right"}),
    # first-turn wins with melds
    ("123m456p789p99m angang:5555s", True, {"dihe": True, "seat_wind": "3z"}),
    # a liability that needs meld_from without it
    ("55m chi:123p peng:777s peng:999m chi:456s", True, {}),
    ("55m chi:123p peng:777s peng:999m chi:456s", True, {"meld_from": ["left", None, None, None]}),
    # several winners with first_only
    ("123m456p777s234s99m", False, {"discarder": "left", "winners_on_discard": 3,
                                    "options": {"multi_ron": "first_only"}}),
])
def test_bad_context_with_hand(hand: str, self_drawn: bool, context: dict[str, Any]) -> None:
    options = context.pop("options", None)
    with pytest.raises(MahjongError) as err:
        score(hand, win_tile="9m" if "9m" in hand.split()[0] else "9s" if "99s" in hand
              else "5m", self_drawn=self_drawn, context=ctx(**context), options=options)
    assert err.value.code == "bad_context"


def test_honour_hands_and_unit() -> None:
    r = run("111z222z555z666z77z", "7z", True)
    assert r.unit == "fan" and r.multiplier == 64 and r.shape == "standard"
    r = run("19m19p19s11234567z", "1z")
    assert r.shape == "shisanyao" and r.decomposition == "shisanyao"
    r = run("11m33m55m22p44p66p77z", "7z", options={"qidui": True})
    assert r.shape == "qidui"


def test_memo_returns_equal_answers() -> None:
    a = run("123m456m789p234s55s", "5s", True, meld_from=None)
    b = run("123m456m789p234s55s", "5s", True, meld_from=None)
    assert a == b and a.fan == 2


# ------------------------------------------------------------------ ties across readings (§9)

# 33666777888s is three pungs or three sequences beside the 南 kong; 33555777888s only pungs
BOTH_WAYS = "33666777888s bugang:2222z"
PUNGS_ONLY = "33555777888s bugang:2222z"


@pytest.mark.parametrize("pure", [True, False])
@pytest.mark.parametrize("first", [BOTH_WAYS, PUNGS_ONLY])
def test_each_hand_is_valued_on_its_own_readings(pure: bool, first: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The answer does not depend on what was scored before (both paths, fresh state): §9
    step 4 over the hand's own readings, the tie by §4's table order."""
    from mjcore.rules.common import compiled
    from mjcore.rules.guangdong import clear_caches

    monkeypatch.setattr(compiled, "PURE", pure)
    clear_caches()
    order = [first, PUNGS_ONLY if first == BOTH_WAYS else BOTH_WAYS]
    got = {}
    for hand in order:  # 杠上开花 after the bugang, baohu_cap 5: every reading is worth 5
        got[hand] = run(hand, "7s" if hand == BOTH_WAYS else "5s", True, {"baohu_cap": 5},
                        gang_shang_kai_hua=True)
    # 混碰 (4, raw 4) against 混一色 + 自摸 + 门风 (raw 4): a tie on value and raw, and 混一色
    # comes first in the table
    assert pats(got[BOTH_WAYS]) == [["hunyise", 2], ["zimo", 1], ["menfeng", 1],
                                    ["gangshangkaihua", 0]]
    assert got[BOTH_WAYS].decomposition.chows == (23, 23, 23)
    assert pats(got[PUNGS_ONLY]) == [["hunpeng", 4], ["gangshangkaihua", 0]]
    assert got[BOTH_WAYS].fan == got[PUNGS_ONLY].fan == 5
    clear_caches()
    got = {}
    for hand in order:  # South round, cap 6: the sequences' 混一色 + 自摸 + 门风 + 圈风 is 5
        got[hand] = run(hand, "7s" if hand == BOTH_WAYS else "5s", True, {"baohu_cap": 6},
                        round_wind="2z")
    assert (got[BOTH_WAYS].fan, pats(got[BOTH_WAYS])[0]) == (5, ["hunyise", 2])
    assert (got[PUNGS_ONLY].fan, pats(got[PUNGS_ONLY])) == (4, [["hunpeng", 4]])


@pytest.mark.parametrize("win", [2 ** 70, -1, 34, True, 9.0])
@pytest.mark.parametrize("self_drawn", [False, True])
@pytest.mark.parametrize("hand", ["123m456p777s234s99m", "123m234s99m peng:777s chi:456p"])
def test_a_win_tile_out_of_range_is_bad_tile(win: Any, self_drawn: bool, hand: str) -> None:
    h = Hand.parse(hand)
    run(h, "9m", self_drawn)  # the context is known: the memo's way is taken next
    assert error(h, win, self_drawn) == "bad_tile"


@pytest.mark.parametrize("parse", [False, True])
def test_dasanyuan_liability_with_three_melds(parse: bool) -> None:
    """A 包 on a self-draw with fewer than four melds (the core settles it by the main
    pattern), for a hand as text and as a Hand (the memo's one-call way)."""
    hand = "123m99m peng:555z peng:666z peng:777z"
    r = run(Hand.parse(hand) if parse else hand, "9m", True,
            meld_from=["right", "across", "left"])
    assert points(r) == {"from": {"left": 192}, "winner_total": 192, "liable": "dasanyuan"}
    r = run(Hand.parse(hand) if parse else hand, "9m", True,
            meld_from=["right", "across", "left"], bao_exempt=True)
    assert r.liable == "dasanyuan"  # 包先不包后 only limits 十二张落地
