"""Taiwan scoring, written from the rules text (taiwan.md §1 input checks, §3-§7 the 台 table,
§8 dealer 台, §9 the order, §10 payments, §11-§12 options and presets, §13 the context)."""

from __future__ import annotations

from typing import Any

import pytest
from taiwan_api import BASE, DISCARD, ids, report, resolve_options, score, tai, valued_waits

from mjcore import Hand, MahjongError, describe_ruleset

PINGHU = "123m456m789m234p567p99s"  # §14: 門清 1 + 平胡 2 on 4p from across


def code(hand: str, win: str = "4p", self_drawn: bool = False, context: Any = None,
         **kw: Any) -> str:
    with pytest.raises(MahjongError) as err:
        score(hand, win_tile=win, self_drawn=self_drawn,
              context=DISCARD if context is None else context, **kw)
    return err.value.code


# --------------------------------------------------------------------------- §1 input checks

@pytest.mark.parametrize("hand", ["0m23m456m789m234p567p99s", "123m456m789m234p567p99s 8z",
                                  "123m456m789m234p567p99x", "123m456m789m234p567p99",
                                  "peng:555p 123m", "m123"])
def test_bad_notation(hand: str) -> None:
    assert code(hand) == "bad_notation"


def test_bad_notation_of_win_tile_and_flowers() -> None:
    assert code(PINGHU, win="0m") == "bad_notation"
    assert code(PINGHU, context={**DISCARD, "flowers": "9f"}) == "bad_notation"


@pytest.mark.parametrize("meld", ["pong:555p", "chi:135m", "chi:123z", "peng:556p", "gang:555p",
                                  "peng:111f", "pizigang:5p"])
def test_bad_meld(meld: str) -> None:
    assert code(f"123m456m789m99s {meld}", win="9s") == "bad_meld"


def test_bad_tile() -> None:
    assert code("123m456m789m234p567p9s1f") == "bad_tile"  # a flower in the hand
    assert code(PINGHU, context={**DISCARD, "flowers": "1m"}) == "bad_tile"
    assert code(PINGHU, context={**DISCARD, "flowers": "1f"},
                options={"flowers_in_play": False}) == "bad_tile"
    assert code(PINGHU, context={**DISCARD, "flowers": "2f"}, preset="taiwan_south") == "bad_tile"


def test_tile_count() -> None:
    assert code("11111m456m789m234p567p9s") == "tile_count"  # five 1m
    assert code("111m456m789m234p567p99s peng:111m") == "tile_count"
    assert code(PINGHU, context={**DISCARD, "flowers": "11f"}) == "tile_count"
    assert code("123m456m789p234s55s", win="5s") == "tile_count"  # 14 tiles (TW-30)
    assert code(PINGHU + "1m") == "tile_count"
    melds = " ".join(["chi:123m", "chi:456m", "chi:789m", "chi:123p", "chi:456p", "chi:789p"])
    assert code(f"9s {melds}", win="9s") == "tile_count"  # six melds
    # a flower win may be scored on the 16-tile holding, a normal win may not
    assert code("123m456m789m234p567p9s", win="9s") == "tile_count"


def test_errors_in_the_order_of_section_1() -> None:
    assert code("123m456m789m234p567p9s1f pong:555p 0m") == "bad_notation"
    assert code("123m456m789m234p567p9s1f pong:555p") == "bad_meld"
    assert code("11111m456m789m234p567p9s1f") == "bad_tile"
    assert code("11111m456m789m234p567p9s", options={"nope": 1}) == "tile_count"
    assert code("11111m456m789m234p567p9s", preset="tokyo") == "tile_count"
    assert code(PINGHU, context="x", options={"nope": 1}) == "bad_option"
    assert code(PINGHU, options={"di": -1}) == "bad_option"
    assert code(PINGHU, preset="tokyo") == "bad_option"
    assert code(PINGHU, win="1p") == "bad_context"  # the winning tile is not in the hand
    assert code("123m456m789m234p567p19s", win="9s") == "not_a_win"
    assert code(PINGHU, options={"min_tai": 4}) == "below_min_tai"
    # item 3 before item 4 across the inputs: a flower out of place before any count
    assert code("11111m456m789m234p567p9s", context={**DISCARD, "flowers": "1m"}) == "bad_tile"
    assert code(PINGHU, context={**DISCARD, "flowers": "11f"},
                options={"flowers_in_play": False}) == "bad_tile"
    assert code("12x3m456m789m234p567p9s", win="0z") == "bad_notation"
    assert code("pong:555p 123m456m789m234p9s", context={**DISCARD, "flowers": "9f"}) \
        == "bad_notation"


def test_play_mode_options_are_accepted_and_change_nothing() -> None:
    plain = tai(PINGHU, "4p")
    for opts in ({"multi_ron": "all"}, {"ting_declaration": False}, {"draw_keeps_dealer": False}):
        assert tai(PINGHU, "4p", options=opts) == plain


# --------------------------------------------------------------------------- §13 context

@pytest.mark.parametrize("change", [
    {"seat_wind": None}, {"round_wind": "5z"}, {"dealer": None}, {"dealer": "north"},
    {"dealer_streak": -1}, {"dealer_streak": True}, {"discarder": None}, {"discarder": "self"},
    {"qiang_gang": 1}, {"unknown": True}, {"gang_shang_kai_hua": True},
    {"hai_di_lao_yue": True}, {"tianhu": True}, {"dihu": True}, {"ting": "ren"},
    {"flower_win": "baxian"}, {"replacement_after": "angang"}, {"replacement_after": "flower"},
    {"renhu": True, "dealer": "self"},
    {"he_di_lao_yu": True, "qiang_gang": True, "renhu": True, "dihu": True},
])
def test_bad_context_on_a_discard_win(change: dict[str, Any]) -> None:
    context = {k: v for k, v in {**DISCARD, **change}.items() if v is not None}
    assert code(PINGHU, context=context) == "bad_context"


@pytest.mark.parametrize("change", [
    {"discarder": "left"}, {"qiang_gang": True}, {"he_di_lao_yu": True}, {"renhu": True},
    {"gang_shang_kai_hua": True}, {"tianhu": True}, {"dihu": True, "dealer": "self"},
    {"tianhu": True, "dihu": True, "dealer": "self"}, {"ting": "tian", "dealer": "self"},
    {"flowers": "12345678f"},
])
def test_bad_context_on_a_self_draw(change: dict[str, Any]) -> None:
    assert code(PINGHU, self_drawn=True, context={**BASE, **change}) == "bad_context"


def test_context_with_melds() -> None:
    chi = "123m456m789m234p99s chi:567p"
    for flags in ({"dihu": True}, {"ting": "di"}):
        assert code(chi, self_drawn=True, context={**BASE, **flags}) == "bad_context"
    assert ids("123m456p789p345s55s angang:9999m", "5s", True, ting="di") == {
        "zimo": 1, "diting": 4}


def test_flower_win_context() -> None:
    h16 = "123m456m789m123p456p7s"
    base = {**BASE, "flowers": "12345678f", "flower_win": "baxian"}
    assert tai(h16, "8f", True, **{**base, "discarder": None})["tai"] == 8
    assert code(h16, win="8f", self_drawn=True, context={**base, "flowers": "1234567f"}) \
        == "bad_context"
    assert code(h16, win="8f", context={**base, "discarder": "left"}) == "bad_context"
    assert code(h16, win="8f", self_drawn=True, context=base,
                options={"flower_wins": False}) == "bad_context"
    assert code(h16, win="8f", self_drawn=True, context={**base, "hai_di_lao_yue": True}) \
        == "bad_context"
    qq = {**DISCARD, "flowers": "1234567f", "flower_win": "qiqiangyi", "discarder": "left"}
    assert code(h16, win="7f", context=qq) == "bad_context"  # the eighth is not the winner's
    assert code(h16, win="8f", self_drawn=True, context={**qq, "discarder": None}) \
        == "bad_context"
    # the holding of a flower win may also be 17 − 3 × melds
    assert tai(PINGHU, "8f", **{**qq, "discarder": "left"})["points"] == {
        "from": {"left": 30 + 9 * 10}, "winner_total": 120}


# --------------------------------------------------------------------------- §4.1 win method

def test_menqing_zimo_and_its_options() -> None:
    assert ids("123m456m789m123p456p77s", "7s", True) == {"menqing_zimo": 3, "duting": 1}
    assert ids("123m456m789m123p456p77s", "7s", True, options={"menqing_zimo_tai": 2}) == {
        "menqing_zimo": 2, "duting": 1}
    # an angang keeps 門清 (Decision), a chi does not
    assert ids("123m456p789p345s55s angang:9999m", "5s") == {"menqing": 1}
    assert ids("123m456m789m234p99s chi:567p", "4p", True) == {"zimo": 1}


def test_quanqiuren_banqiu_and_duting() -> None:
    hand = "55p chi:123m peng:777s chi:456p peng:999m chi:345s"
    assert ids(hand, "5p") == {"quanqiuren": 2}
    assert ids(hand, "5p", options={"quanqiu_plus_duting": True}) == {"quanqiuren": 2,
                                                                     "duting": 1}
    assert ids(hand, "5p", options={"quanqiuren_tai": 0}) == {"duting": 1}
    assert ids(hand, "5p", qiang_gang=True) == {"quanqiuren": 2, "qiangganghu": 1}
    assert ids(hand, "5p", True) == {"zimo": 1, "duting": 1}  # 自摸者不算
    assert ids(hand, "5p", True, preset="taiwan_association") == {
        "zimo": 1, "banqiu": 1, "duting": 1}
    # an angang among the five melds is not 全求人
    angang = "55p chi:123m peng:777s chi:456p angang:9999m chi:345s"
    assert "quanqiuren" not in ids(angang, "5p")


def test_tianting_diting() -> None:
    hand = "234m567m345p456s678s99s"  # TW-03's hand, waits 3s 6s 9s
    assert ids(hand, "9s", ting="tian") == {"tianting": 8}
    assert ids(hand, "9s", True, ting="tian") == {"zimo": 1, "tianting": 8}
    assert ids(hand, "9s", ting="di") == {"diting": 4}
    assert ids(hand, "9s", ting="tian", options={"tianting_diting": False}) == {"menqing": 1}


def test_duting_one_kind_and_shape() -> None:
    hand = "123p456p789p111s77888m"  # [WIKI-JA-DT]'s 7888m: waits 6m 7m 9m
    assert ids(hand, "7m") == {"menqing": 1}
    assert ids(hand, "7m", options={"duting": "shape"}) == {"menqing": 1, "duting": 1}
    assert ids(hand, "7m", preset="taiwan_south") == {"menqing": 1, "duting": 1}
    # edge 12 + 3, closed 4 6 + 5, and a 對碰 pung slot under shape
    assert ids("789m123p456p111s123s99s", "3s", options={"duting": "shape"})["duting"] == 1
    assert ids("123m789m456p111s99s chi:234s", "5p", options={"duting": "shape"}) == {
        "duting": 1}
    assert "duting" not in ids("111m444p234m777s99s chi:123p", "7s",
                               options={"duting": "shape"})
    # one kind whose other sides are all held: 1p is not a wait when four are held
    assert ids("234p456m789m123s99s angang:1111p", "4p") == {"menqing": 1, "duting": 1}


def test_pinghu() -> None:
    assert ids(PINGHU, "4p") == {"menqing": 1, "pinghu": 2}
    assert ids(PINGHU, "4p", True) == {"menqing_zimo": 3}  # not self-drawn
    assert ids(PINGHU, "4p", options={"pinghu_tai": 1}) == {"menqing": 1, "pinghu": 1}
    assert ids(PINGHU, "4p", options={"pinghu_tai": 0}) == {"menqing": 1}
    assert ids(PINGHU, "4p", flowers="5f") == {"menqing": 1}  # a flower kills it
    assert ids("123m456m789m234p567p11z", "4p") == {"menqing": 1}  # an honour pair
    assert ids("123m456m789m123p567p99s", "3p") == {"menqing": 1, "duting": 1}  # edge
    assert ids("123m456m789m234p567p99s", "9s") == {"menqing": 1, "duting": 1}  # 單吊
    # §9 step 6's tie: pinghu's reading and 三暗刻's are both 3; pinghu comes first
    assert ids("222m333m444m567p789p99s", "9p") == {"menqing": 1, "pinghu": 2}


# --------------------------------------------------------------------------- §4.2-§4.4

def test_concealed_pungs() -> None:
    # five concealed pungs won on the pair, and the same won on a pung from a discard
    assert ids("111m333m555p777p999s22s", "2s")["wuanke"] == 8
    assert ids("111m333m555p777p999s22s", "9s")["sianke"] == 5
    assert ids("111m333m555p777p999s22s", "9s", True)["wuanke"] == 8
    got = ids("111m333m555p999s22s peng:777p", "9s")  # the discard's pung is not concealed
    assert got == {"pengpenghu": 4, "sananke": 2}
    assert ids("111m333m555p999s22s angang:7777p", "2s")["wuanke"] == 8


def test_colours_and_options() -> None:
    allz = "111z222z333z55z peng:666z peng:777z"
    assert ids(allz, "5z", True)["ziyise"] == 16
    assert ids(allz, "5z", True, options={"ziyise_tai": 8})["ziyise"] == 8
    assert ids("111p234p567p99p chi:789p chi:345p", "6p")["qingyise"] == 8
    assert ids("123m345m456m789m111z22z", "9m")["hunyise"] == 4


def test_winds_and_dragons() -> None:
    assert ids("111z222z333z44z789m chi:123p", "4z", preset="taiwan_2005")["xiaosixi"] == 4
    assert ids("111z222z333z444z99m peng:555p", "9m", True, preset="taiwan_2005")["dasixi"] == 8
    # both 門風 and 圈風 for the 東 seat in the 東 round; 三元牌 per dragon pung
    got = ids("111z555z666z123m456m99p", "9p", seat_wind="1z", dealer="self")
    assert (got["menfeng"], got["quanfeng"], got["sanyuanpai"]) == (1, 1, 2)


# --------------------------------------------------------------------------- §4.5 flowers

def test_flowers() -> None:
    seat = {"seat_wind": "2z"}  # 南: 夏 2f and 蘭 6f
    assert ids(PINGHU, "4p", flowers="26f", **seat) == {"menqing": 1, "zhenghua": 2}
    assert ids(PINGHU, "4p", flowers="1348f", **seat) == {"menqing": 1}
    assert ids(PINGHU, "4p", flowers="1234f", **seat) == {"menqing": 1, "huagang": 2}
    assert ids(PINGHU, "4p", flowers="1234f", options={"huagang_replaces_zhenghua": False},
               **seat) == {"menqing": 1, "huagang": 2, "zhenghua": 1}
    assert ids(PINGHU, "4p", flowers="12345678f", options={"flower_wins": False},
               **seat) == {"menqing": 1, "huagang": 4}


def test_flower_wins_are_flat() -> None:
    h = "123m456m789m123p456p7s"
    got = tai(h, "8f", **{**DISCARD, "flowers": "1234567f", "flower_win": "qiqiangyi",
                          "discarder": "right"}, options={"flower_win_tai": 10})
    assert got["patterns"] == [["qiqiangyi", 10]] and got["points"]["from"] == {"right": 130}


# --------------------------------------------------------------------------- §4.6-§4.7

def test_situations() -> None:
    assert ids(PINGHU, "4p", he_di_lao_yu=True)["hedilaoyu"] == 1
    kong = "123m456p789p345s55s gang:9999m"
    after = {"gang_shang_kai_hua": True, "replacement_after": "gang"}
    assert ids(kong, "5s", True, **after) == {"zimo": 1, "gangshangkaihua": 1}
    assert ids(kong, "5s", True, preset="taiwan_association", **after) == {"zimo": 1}
    assert ids(PINGHU, "4p", True, gang_shang_kai_hua=True, replacement_after="flower",
               flowers="1f") == {"menqing_zimo": 3, "gangshangkaihua": 1}


def test_first_turn_wins() -> None:
    hand = "111m234p567s789s345m66z"
    assert ids(hand, "6z", True, tianhu=True, dealer="self") == {"tianhu": 24}
    # not flat: every pattern but the win-method ones (門清自摸, 獨聽)
    assert ids(hand, "6z", True, tianhu=True, dealer="self",
               options={"tiandihu_flat": False}) == {"tianhu": 24}
    got = ids("111z234p567p789p345p66p", "6p", True, dihu=True, options={"tiandihu_flat": False})
    assert got == {"dihu": 16, "hunyise": 4, "quanfeng": 1}
    # flat: the value alone even when the ordinary total is higher
    allz = "111z222z333z555z666z77z"
    assert ids(allz, "7z", True, dihu=True) == {"dihu": 16}


# --------------------------------------------------------------------------- §8-§10

def test_dealer_tai_and_payments() -> None:
    got = tai(PINGHU, "4p", True, dealer="self", seat_wind="1z", dealer_streak=2)
    assert got["dealer_tai"] == [["zhuangjia", 1], ["lianzhuang", 2], ["lazhuang", 2]]
    assert got["points"]["from"] == {"left": 30 + 8 * 10, "across": 110, "right": 110}
    got = tai(PINGHU, "4p", True, dealer="self", seat_wind="1z", dealer_streak=2,
              options={"lazhuang": False})
    assert got["dealer_tai"] == [["zhuangjia", 1], ["lianzhuang", 2]]
    assert got["points"]["winner_total"] == 3 * (30 + 6 * 10)
    # a discard between two non-dealers carries no dealer 台
    assert tai(PINGHU, "4p", discarder="right")["dealer_tai"] == []
    got = tai(PINGHU, "4p", options={"di": 100, "tai_value": 50})
    assert got["points"]["from"] == {"across": 100 + 3 * 50}


def test_cap_and_min() -> None:
    allz = "111z222z333z55z peng:666z peng:777z"
    got = tai(allz, "5z", True, options={"cap_tai": 10})
    assert got["tai"] == 10 and got["points"]["from"]["left"] == 30 + 11 * 10
    r = score(allz, win_tile="5z", self_drawn=True, context=BASE, options={"cap_tai": 10})
    assert (r.value, r.value_uncapped, r.unit) == (10, 30, "tai")
    assert tai(PINGHU, "4p", options={"min_tai": 3})["tai"] == 3
    # 0 台 wins (TW-10), paid 底
    assert tai("111m444p234m777s99s chi:123p", "7s")["points"]["winner_total"] == 30


def test_payments_name_absolute_seats_from_the_winner() -> None:
    r = score(PINGHU, win_tile="4p", self_drawn=True, context={**BASE, "winner": 2})
    assert sorted(r.payments) == [(0, 2, 60), (1, 2, 70), (3, 2, 60)]  # left of 2 is 1
    r = score(PINGHU, win_tile="4p", context={**DISCARD, "winner": 3})
    assert r.payments == ((1, 3, 60),)


# --------------------------------------------------------------------------- §3 嚦咕嚦咕, §6 waits

def test_ligu() -> None:
    hand = "11m22m33p44p55s66s77z999s"
    assert code(hand, win="7z") == "not_a_win"
    assert ids(hand, "7z", options={"ligu": True}) == {"menqing": 1, "duting": 1, "ligu": 8}
    got = ids(hand, "9s", options={"ligu": True, "ligu_tai": 6, "duting": "shape"})
    assert got == {"menqing": 1, "ligu": 6}  # it completes the pung: not 單吊
    assert ids("1111m22m33p44p55s66s999s", "9s", options={"ligu": True})["ligu"] == 8


def test_valued_waits() -> None:
    waits = valued_waits("123m456m789m23p567p99s", context=BASE)
    assert [(w.tile, w.fan_discard, w.fan_self_drawn) for w in waits] == [
        ("1p", 3, 3), ("4p", 3, 3)]
    assert waits[0].unseen == 4
    (w,) = valued_waits("123m456m789m13p567p99s", context=BASE, visible="2p2p")
    assert (w.tile, w.fan_discard, w.fan_self_drawn, w.unseen) == ("2p", 2, 4, 2)
    assert valued_waits("123m456m789m13p567p19s", context=BASE) == ()
    # a kind whose four copies are held is not a wait (§6)
    assert [w.tile for w in valued_waits("23p456m789m123s99s angang:1111p", context=BASE)] == [
        "4p"]
    with pytest.raises(MahjongError) as err:
        valued_waits(PINGHU, context=BASE)
    assert err.value.code == "tile_count"


def test_description_and_presets() -> None:
    d = describe_ruleset("taiwan")
    assert d["unit"] == "tai" and d["hand_tiles"] == 17 and d["flowers"] and d["tiles"] == 144
    assert d["claims"] == ["chi", "peng", "gang", "hu"]
    order = ("tianhu dihu renhu baxian qiqiangyi menqing_zimo menqing zimo quanqiuren banqiu "
             "tianting diting duting pinghu pengpenghu wuanke sianke sananke ligu ziyise qingyise "
             "hunyise dasixi xiaosixi dasanyuan xiaosanyuan menfeng quanfeng sanyuanpai huagang "
             "zhenghua haidilaoyue hedilaoyu gangshangkaihua qiangganghu").split()
    assert [p["id"] for p in d["patterns"]] == order
    assert d["policy"]["kind"] == "additive" and d["policy"]["flat_rule"] == "alone"
    tianhu = d["patterns"][0]
    assert tianhu["flat_option"] == "tiandihu_flat" and "menqing_zimo" in tianhu["supersedes"]
    assert set(d["presets"]) == {"taiwan", "taiwan_association", "taiwan_2005", "taiwan_south"}
    assert resolve_options(preset="taiwan").draw_keeps_dealer
    south = resolve_options(preset="taiwan_south")
    assert south.duting == "shape" and not south.flowers_in_play
    codes = {r["id"] for r in d["reason_codes"]}
    assert {"not_your_turn", "tile_not_held", "chi_not_from_left", "no_discard_bugang",
            "flower_not_playable", "guoshui", "ting_locked", "no_tiles_left",
            "cannot_rob_angang", "not_a_win"} <= codes
    assert report(PINGHU, win_tile="4p", context=DISCARD)["tai"] == 3


def test_memos_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    from mjcore.rules.common import compiled
    from mjcore.rules.taiwan import scoring

    for memo in (scoring._READINGS, scoring._IDS):
        monkeypatch.setattr(memo, "limit", 5)
    for pure in (False, True):  # (the Python path keeps readings, the compiled one contexts)
        monkeypatch.setattr(compiled, "PURE", pure)
        scoring.clear_caches()
        for seat in range(1, 5):
            for dealer in ("self", "left", "across", "right"):
                for tile in ("1p", "4p"):
                    hand = "123m456m789m23p567p99s" + tile
                    score(hand, win_tile=tile, self_drawn=True,
                          context={**BASE, "seat_wind": f"{seat}z", "dealer": dealer})
                    valued_waits(Hand.parse("123m456m789m23p567p99s"),
                                 context={**BASE, "seat_wind": f"{seat}z", "dealer": dealer})
        assert len(scoring._READINGS) <= 5
        assert len(scoring._IDS) <= 5
        assert pure or len(scoring._CIDS) > 0  # (the compiled path did keep some)
    scoring.clear_caches()


def test_valued_waits_with_min_tai_and_ligu() -> None:
    (w,) = valued_waits("123m456m789m12p567p99s", context=BASE, options={"min_tai": 3})
    assert (w.tile, w.fan_discard, w.fan_self_drawn) == ("3p", -1, 4)  # 門清+獨聽 is 2
    assert w.patterns_discard == () and [p.id for p in w.patterns_self_drawn] == [
        "menqing_zimo", "duting"]
    assert valued_waits("123m456m789m12p567p99s", context=BASE, options={"min_tai": 5}) == ()
    ligu16 = "11m22m33p44p55s66s7z999s"  # seven pairs and a pung less the 7z
    assert valued_waits(ligu16, context=BASE) == ()
    (w,) = valued_waits(ligu16, context=BASE, options={"ligu": True})
    assert (w.tile, w.fan_discard) == ("7z", 1 + 1 + 8)
