"""An independent audit of guangdong.md, written from the spec's text (not the code): one
small case per rule, option, exclusion, floor, liability and error code. Each row names the
section it checks; expected values are worked out by hand from the section's words."""

from __future__ import annotations

from typing import Any

import pytest
from guangdong_api import (
    TableView,
    ctx,
    points,
    resolve_options,
    score,
    settle,
    validate_move,
    valued_waits,
)

from mjcore import Hand, MahjongError
from mjcore.rules.guangdong import resolve_claims
from mjcore.table import HandStart, Move, Win

JIHU = "123m456p777s234s99m"  # 鸡胡 on 9m
L = {"discarder": "left"}


def row(section: str, hand: str, win: str, self_drawn: bool, context: dict[str, Any],
        options: dict[str, Any] | None, fan: int, uncapped: int,
        patterns: list[list[Any]], paid: dict[str, int], liable: str = "") -> Any:
    return pytest.param(hand, win, self_drawn, context, options, fan, uncapped, patterns,
                        paid, liable, id=f"{section} {hand} {win}")


ROWS = [
    # §4 exclusions: one pattern a reading; specials flat; ties by §4's order
    row("§4 hunyise-all-seq", "123m456m789m234m11z", "1z", False, L, None, 2, 2,
        [["hunyise", 2]], {"left": 4}),
    row("§4 hunyise_pinghu_stack", "123m456m789m234m11z", "1z", False, L,
        {"hunyise_pinghu_stack": True}, 3, 3, [["hunyise", 2], ["pinghu", 1]], {"left": 8}),
    row("§4 hunpeng", "111m999m555m222z33z", "3z", False, L, None, 4, 4, [["hunpeng", 4]],
        {"left": 16}),
    row("§4 qingpeng", "111m999m555m222m33m", "3m", False, L, None, 5, 5, [["qingpeng", 5]],
        {"left": 32}),
    row("§4 hunyaojiu-over-hunpeng", "111m999m111z222z33z", "3z", False, L, None, 5, 5,
        [["hunyaojiu", 5]], {"left": 32}),
    row("§4 qingyaojiu-over-qingpeng", "111m999m111p999s11s", "1s", False, L, None, 6, 6,
        [["qingyaojiu", 6]], {"left": 64}),
    row("§4 xiaosixi", "111z222z333z44z123m", "4z", True, {}, None, 5, 5, [["xiaosixi", 5]],
        {"left": 32, "across": 32, "right": 32}),
    row("§4 ziyise-over-xiaosanyuan", "555z666z77z111z222z", "2z", False, L, None, 6, 6,
        [["ziyise", 6]], {"left": 64}),
    row("§4 dasixi-before-ziyise", "111z222z333z444z55z", "5z", False, L, None, 6, 6,
        [["dasixi", 6]], {"left": 64}),
    row("§4 dasanyuan-before-ziyise", "555z666z777z111z22z", "2z", False, L, None, 6, 6,
        [["dasanyuan", 6]], {"left": 64}),
    row("§4 jiulian-whatever-wait", "11123456789999m", "9m", False, L, None, 6, 6,
        [["jiulianbaodeng", 6]], {"left": 64}),
    row("§4 jiulian-needs-no-melds", "111234567m88m angang:9999m", "8m", False, L, None, 4,
        4, [["qingyise", 4]], {"left": 16}),
    row("§4 qingyise-special-no-zimo", "123p345p567p789p99p", "9p", True, {}, None, 4, 4,
        [["qingyise", 4]], {"left": 16, "across": 16, "right": 16}),
    # §4 composition patterns hold for 七对 (option qidui)
    row("§4 qidui", "11m33m55m22p44p66p77z", "7z", False, L, {"qidui": True}, 4, 4,
        [["qidui", 4]], {"left": 16}),
    row("§4 qidui-quad-two-pairs", "1111m33m55m22p44p77z", "7z", False, L, {"qidui": True}, 4,
        4, [["qidui", 4]], {"left": 16}),
    row("§4 qidui-hunyaojiu", "11m99m11p99p11z22z33z", "3z", False, L, {"qidui": True}, 5, 5,
        [["hunyaojiu", 5]], {"left": 32}),
    row("§4 qidui-ziyise", "11223344556677z", "7z", False, L, {"qidui": True}, 6, 6,
        [["ziyise", 6]], {"left": 64}),
    row("§4 qidui_fan-5-beats-qingyise", "11224455668899m", "9m", False, L,
        {"qidui": True, "qidui_fan": 5}, 5, 5, [["qidui", 5]], {"left": 32}),
    row("§4 qidui-hunyise-is-qidui", "11m33m55m77m99m11z22z", "2z", False, L, {"qidui": True},
        4, 4, [["qidui", 4]], {"left": 16}),
    # §5 extras, §6 cap
    row("§5 menfeng+quanfeng-east", "123m456p789s111z99m", "9m", False,
        {"discarder": "right", "seat_wind": "1z"}, None, 2, 2,
        [["jihu", 0], ["menfeng", 1], ["quanfeng", 1]], {"right": 4}),
    row("§5 quanfeng-only", "123m456p789s111z99m", "9m", False,
        {"discarder": "right", "seat_wind": "3z"}, None, 1, 1,
        [["jihu", 0], ["quanfeng", 1]], {"right": 2}),
    row("§5 sanyuanpai-two", "123m456p555z666z99m", "9m", False, L, None, 2, 2,
        [["jihu", 0], ["sanyuanpai", 2]], {"left": 4}),
    row("§5 menqing-angang-allowed", "123m456m789p55s angang:2222s", "5s", False, L,
        {"menqing_fan": 1}, 1, 1, [["jihu", 0], ["menqing", 1]], {"left": 2}),
    row("§5 menqing-not-with-chi", "456m789p234s55s chi:123m", "5s", False, L,
        {"menqing_fan": 1}, 1, 1, [["pinghu", 1]], {"left": 2}),
    row("§6 cap-3", "111m999p555z777z22m", "2m", True, {}, None, 3, 5,
        [["pengpenghu", 2], ["zimo", 1], ["sanyuanpai", 2]],
        {"left": 8, "across": 8, "right": 8}),
    row("§6 baohu_cap-5", "111m999p555z777z22m", "2m", True, {}, {"baohu_cap": 5}, 5, 5,
        [["pengpenghu", 2], ["zimo", 1], ["sanyuanpai", 2]],
        {"left": 32, "across": 32, "right": 32}),
    # §9 step 4: equal value 3, the higher raw (碰碰胡 reading, raw 5) beats 鸡胡 (raw 3)
    row("§9.4 tie-higher-raw", "111222333p111z77s", "7s", True, {"seat_wind": "1z"}, None, 3,
        5, [["pengpenghu", 2], ["zimo", 1], ["menfeng", 1], ["quanfeng", 1]],
        {"left": 8, "across": 8, "right": 8}),
    # §7 floors, reported [id, 0]
    row("§7 gangshangkaihua", "123m456p777s99m angang:2222s", "9m", True,
        {"gang_shang_kai_hua": True}, None, 3, 1,
        [["jihu", 0], ["zimo", 1], ["gangshangkaihua", 0]],
        {"left": 8, "across": 8, "right": 8}),
    row("§7 two-floors-in-order", "123m456p777s99m angang:2222s", "9m", True,
        {"gang_shang_kai_hua": True, "hai_di_lao_yue": True}, None, 3, 1,
        [["jihu", 0], ["zimo", 1], ["gangshangkaihua", 0], ["haidilaoyue", 0]],
        {"left": 8, "across": 8, "right": 8}),
    row("§15 haidi-on-discard-no-floor", JIHU, "9m", False, {**L, "hai_di_lao_yue": True},
        None, 0, 0, [["jihu", 0]], {"left": 1}),
    row("§7 two-winners-no-floor", JIHU, "9m", False, {**L, "winners_on_discard": 2}, None,
        0, 0, [["jihu", 0]], {"left": 1}),
    row("§7 sanxiang_min_winners-2", JIHU, "9m", False, {**L, "winners_on_discard": 2},
        {"sanxiang_min_winners": 2}, 3, 0, [["jihu", 0], ["yipaosanxiang", 0]], {"left": 8}),
    row("§10 sanxiang-pays-three", JIHU, "9m", False, {**L, "winners_on_discard": 3},
        {"discard_payment": "discarder_pays_three"}, 3, 0,
        [["jihu", 0], ["yipaosanxiang", 0]], {"left": 24}),
    row("§7 special-with-qianggang", "123p456p567p789p11p", "4p", False,
        {"qiang_gang": True, "robbed": "left"}, None, 4, 4,
        [["qingyise", 4], ["qianggang", 0]], {"left": 48}, "qianggang"),
    # §8 first-turn wins replace patterns, extras and floors
    row("§8 tianhe", JIHU, "9m", True, {"tianhe": True, "seat_wind": "1z"}, None, 6, 6,
        [["tianhe", 6]], {"left": 64, "across": 64, "right": 64}),
    row("§8 dihe-replaces-floor", JIHU, "9m", True, {"dihe": True, "hai_di_lao_yue": True},
        None, 6, 6, [["dihe", 6]], {"left": 64, "across": 64, "right": 64}),
    row("§15 renhe-in-sanxiang", JIHU, "9m", False,
        {**L, "renhe": True, "winners_on_discard": 3}, None, 6, 6, [["renhe", 6]],
        {"left": 64}),
    row("§15 renhe-pays-three", JIHU, "9m", False, {**L, "renhe": True},
        {"discard_payment": "discarder_pays_three"}, 6, 6, [["renhe", 6]], {"left": 192}),
    row("§8 tian_di_ren_he-off", JIHU, "9m", True, {"dihe": True},
        {"tian_di_ren_he": False}, 1, 1, [["jihu", 0], ["zimo", 1]],
        {"left": 2, "across": 2, "right": 2}),
    # §9 step 6: min_fan counts the other floors
    row("§9.6 min_fan-with-gangshangkaihua", "123m456p777s99m angang:2222s", "9m", True,
        {"gang_shang_kai_hua": True}, {"min_fan": 3}, 3, 1,
        [["jihu", 0], ["zimo", 1], ["gangshangkaihua", 0]],
        {"left": 8, "across": 8, "right": 8}),
    # §10 payment
    row("§10 fan_points-base_points", "123m456m789p234s55s", "5s", True, {},
        {"fan_points": [1, 1, 2, 3, 5, 8, 13], "base_points": 10}, 2, 2,
        [["pinghu", 1], ["zimo", 1]], {"left": 20, "across": 20, "right": 20}),
    # §11 liabilities
    row("§11 gangshangkaihua_baogang", "123m456p777s99m gang:2222s", "9m", True,
        {"gang_shang_kai_hua": True, "gang_fed_by": "across"}, None, 3, 1,
        [["jihu", 0], ["zimo", 1], ["gangshangkaihua_baogang", 0]], {"across": 24},
        "gangshangkaihua_baogang"),
    row("§11 dasixi-all-exposed", "99m peng:111z peng:222z peng:333z peng:444z", "9m", True,
        {"meld_from": ["left", "right", "across", "right"]}, None, 6, 6, [["dasixi", 6]],
        {"right": 192}, "dasixi"),
    row("§11 dasixi-one-concealed-no-bao", "99m444z peng:111z peng:222z peng:333z", "9m", True,
        {"meld_from": ["left", "right", "across"]}, None, 6, 6, [["dasixi", 6]],
        {"left": 64, "across": 64, "right": 64}),
    row("§11 dasanyuan-kongs-count", "123m99m peng:555z gang:6666z bugang:7777z", "9m", True,
        {"meld_from": ["left", "right", "across"]}, None, 6, 6, [["dasanyuan", 6]],
        {"across": 192}, "dasanyuan"),
    row("§11 dasanyuan-earlier-than-4th-meld", "99m peng:555z peng:666z peng:777z chi:123m",
        "9m", True, {"meld_from": ["left", "right", "across", "left"]}, None, 6, 6,
        [["dasanyuan", 6]], {"across": 192}, "dasanyuan"),
    row("§11 same-meld-names-dasanyuan", "99m chi:123m peng:555z peng:666z peng:777z", "9m",
        True, {"meld_from": ["left", "left", "right", "across"]}, None, 6, 6,
        [["dasanyuan", 6]], {"across": 192}, "dasanyuan"),
    row("§11 bao_dasixi_dasanyuan-off-leaves-shierzhang",
        "99m chi:123m peng:555z peng:666z peng:777z", "9m", True,
        {"meld_from": ["left", "left", "right", "across"]}, {"bao_dasixi_dasanyuan": False},
        6, 6, [["dasanyuan", 6]], {"across": 192}, "shierzhang_luodi"),
    row("§11 shierzhang-angang-no-bao", "55m chi:123p peng:777s angang:9999m chi:456s", "5m",
        True, {"meld_from": ["left", "right", None, "left"]}, None, 1, 1,
        [["jihu", 0], ["zimo", 1]], {"left": 2, "across": 2, "right": 2}),
    row("§11 shierzhang-discard-win-no-bao", "55m chi:123p peng:777s peng:999m chi:456s", "5m",
        False, {"meld_from": ["left", "right", "across", "left"], "discarder": "across"}, None,
        0, 0, [["jihu", 0]], {"across": 1}),
    row("§11 bao_exempt", "55m chi:123p peng:777s peng:999m chi:456s", "5m", True,
        {"meld_from": ["left", "right", "across", "left"], "bao_exempt": True}, None, 1, 1,
        [["jihu", 0], ["zimo", 1]], {"left": 2, "across": 2, "right": 2}),
]


@pytest.mark.parametrize(("hand", "win", "self_drawn", "context", "options", "fan", "uncapped",
                          "patterns", "paid", "liable"), ROWS)
def test_spec_row(hand: str, win: str, self_drawn: bool, context: dict[str, Any],
                  options: dict[str, Any] | None, fan: int, uncapped: int,
                  patterns: list[list[Any]], paid: dict[str, int], liable: str) -> None:
    r = score(hand, win_tile=win, self_drawn=self_drawn, context=ctx(**context),
              options=options)
    assert (r.fan, r.fan_uncapped) == (fan, uncapped)
    assert [[p.id, p.fan] for p in r.patterns] == patterns
    got = points(r)
    assert got["from"] == paid and got["winner_total"] == sum(paid.values())
    assert got.get("liable", "") == liable == r.liable


ERRORS = [
    ("§3 qidui-off", "11m33m55m22p44p66p77z", "7z", False, L, None, "not_a_win"),
    ("§9.6 min_fan-ignores-sanxiang-floor", JIHU, "9m", False,
     {**L, "winners_on_discard": 3}, {"min_fan": 1}, "below_min_fan"),
    ("§15 first_only-two-winners", JIHU, "9m", False, {**L, "winners_on_discard": 2},
     {"multi_ron": "first_only"}, "bad_context"),
    ("§15 winners-on-self-draw", JIHU, "9m", True, {"winners_on_discard": 2}, None,
     "bad_context"),
    ("§15 qianggang-two-copies", "234m456m345p678p99p", "4m", False,
     {"qiang_gang": True, "robbed": "left"}, None, "bad_context"),
    ("§15 discarder-on-self-draw", JIHU, "9m", True, L, None, "bad_context"),
    ("§9 tianhe-not-east", JIHU, "9m", True, {"tianhe": True}, None, "bad_context"),
    ("§9 renhe-not-dealer", JIHU, "9m", False, {"renhe": True, "discarder": "right"}, None,
     "bad_context"),
    ("§15 first-turn-with-melds", "456p777s234s99m chi:123m", "9m", True, {"dihe": True},
     None, "bad_context"),
    ("§15 gskh-without-kong", JIHU, "9m", True, {"gang_shang_kai_hua": True}, None,
     "bad_context"),
    ("§15 gskh-gang-needs-feeder", "123m456p777s99m gang:2222s", "9m", True,
     {"gang_shang_kai_hua": True}, None, "bad_context"),
    ("§15 chi-not-from-left", "456m789p234s55s chi:123m", "5s", True,
     {"meld_from": ["across"]}, None, "bad_context"),
    ("§15 liability-needs-meld_from", "55m chi:123p peng:777s peng:999m chi:456s", "5m", True,
     {}, None, "bad_context"),
    ("§15 win-tile-not-in-hand", JIHU, "8m", False, L, None, "bad_context"),
    ("§1 five-copies", "11111m456p777s234s9m", "9m", False, L, None, "tile_count"),
    ("§1 short-hand", "123m456p777s234s9m", "9m", False, L, None, "tile_count"),
    ("§1 bad-chi", "456p777s234s99m chi:124m", "9m", False, L, None, "bad_meld"),
    ("§15 unknown-option", JIHU, "9m", False, L, {"no_such": 1}, "bad_option"),
    ("§12 fan_points-decreasing", JIHU, "9m", False, L,
     {"fan_points": [2, 1, 4, 8, 16, 32, 64]}, "bad_option"),
    ("§12 qidui_fan-3", JIHU, "9m", False, L, {"qidui_fan": 3}, "bad_option"),
]


@pytest.mark.parametrize(("section", "hand", "win", "self_drawn", "context", "options",
                          "error"), ERRORS, ids=[e[0] for e in ERRORS])
def test_spec_error(section: str, hand: str, win: str, self_drawn: bool,
                    context: dict[str, Any], options: dict[str, Any] | None,
                    error: str) -> None:
    with pytest.raises(MahjongError) as err:
        score(hand, win_tile=win, self_drawn=self_drawn, context=ctx(**context),
              options=options)
    assert err.value.code == error, section


def test_unknown_preset() -> None:
    """§15: an unknown preset is bad_option; ``jipinghu`` is the defaults."""
    with pytest.raises(MahjongError) as err:
        score(JIHU, win_tile="9m", context=ctx(**L), preset="no_such")
    assert err.value.code == "bad_option"
    assert score(JIHU, win_tile="9m", context=ctx(**L), preset="jipinghu").fan == 0


def test_waits_with_min_fan() -> None:
    """§15: with min_fan a tile counts when either way reaches it (鸡胡 on 9m: 0 on a
    discard, 1 self-drawn); min_fan 2 leaves no wait."""
    assert [(w.tile, w.fan_self_drawn) for w in
            valued_waits("123m456p777s234s9m", context=ctx(), options={"min_fan": 1})] == \
        [("9m", 1)]
    assert valued_waits("123m456p777s234s9m", context=ctx(), options={"min_fan": 2}) == ()


def test_moves_from_the_rules_text() -> None:
    """§2: an angang is never robbed (not even for 十三幺); chi only from the left; a win on
    the last discard is allowed; min_fan refuses a hu below it; every hu claimant wins, or the
    first after the discarder with multi_ron first_only; 胡 > 碰/杠 > 吃."""
    def check(view: Any, move: str, options: dict[str, Any] | None = None) -> str:
        c = validate_move(view, Move.parse(move), options)
        return "ok" if c.ok else c.code

    def claim(hand: str, tile: str, frm: int, **kw: Any) -> Any:
        return TableView(seat=1, hand=Hand.parse(hand), phase="claim", pending_tile=tile,
                         pending_from=frm, round_wind="1z", **kw)

    rob = TableView(seat=1, hand=Hand.parse("19m19p19s1234567z"), phase="rob",
                    pending_tile="7z", pending_from=2, pending_kind="angang", round_wind="1z")
    assert check(rob, "hu") == "cannot_rob_angang"
    ready = "123m456p777s234s9m"
    assert check(claim(ready, "9m", 0, wall_count=0), "hu") == "ok"
    assert check(claim(ready, "9m", 0), "hu", {"min_fan": 1}) == "below_min_fan"
    assert check(claim("13m456m789p234s55s", "2m", 3), "chi 1m 2m 3m") == "chi_not_from_left"
    hu, peng, chi = Move.parse("hu"), Move.parse("peng 5s"), Move.parse("chi 3s 4s 5s")
    assert [s for s, _ in resolve_claims(0, {1: peng, 3: hu, 2: hu})] == [2, 3]
    first = resolve_options({"multi_ron": "first_only"})
    assert [s for s, _ in resolve_claims(2, {1: hu, 3: hu}, first)] == [3]
    assert resolve_claims(0, {1: chi, 3: peng}) == ((3, peng),)


def test_settle_refuses_a_context_that_contradicts_its_event() -> None:
    """§10 (who pays): the event's discarder pays a discard win. A context naming another
    seat as discarder, robbed or kong feeder contradicts the log: ``bad_event``, never a
    payment by a seat that did not discard."""
    hand, east = "123m456m789p234s55s", {"round_wind": "1z"}
    led = settle([HandStart(dealer=0), Win(seat=1, hand=hand, win_tile="5s", discarder=0,
                                           context={**east, "discarder": "left"})])
    assert led.totals == (-2, 2, 0, 0)  # seat 0 is seat 1's left: the two agree
    for extra in ({"discarder": "across"}, {"qiang_gang": True, "robbed": "right"}):
        with pytest.raises(MahjongError) as err:
            settle([HandStart(dealer=0), Win(seat=1, hand=hand, win_tile="5s", discarder=0,
                                             context={**east, **extra})])
        assert err.value.code == "bad_event"
    with pytest.raises(MahjongError) as err:
        settle([Win(seat=1, hand="123m456p777s99m gang:2222s", win_tile="9m", self_drawn=True,
                    kong_feeder=3, context={**east, "gang_fed_by": "left"})])
    assert err.value.code == "bad_event"
