"""Wuhan scoring from the rules text (wuhan.md §2-§11): the 赖子 from the context, 痞子, the
2/5/8 pair, 小胡/大胡, 硬/软, doublings, payments and liabilities, every option and preset."""

from __future__ import annotations

from typing import Any

import pytest
from wuhan_api import SEAT, paid, resolve_options, score

from mjcore import MahjongError
from mjcore.rules import describe_ruleset, get_ruleset
from mjcore.rules.wuhan import next_kind

XIAOHU = "456p789s345s55m chi:123m"  # wuhan.md §10 row 1: 小胡 on 55m, opened by the chi
QINGPENG = "222m555m88m peng:333m peng:777m"  # §10 row 3: 清一色 + 碰碰胡


def s(hand: str, tile: str, self_drawn: bool = True, **ctx: Any) -> Any:
    options = ctx.pop("options", None)
    ctx.setdefault("laizi", "9p")
    return score(hand, win_tile=tile, self_drawn=self_drawn, context=ctx, options=options)


def code(hand: str, tile: str, self_drawn: bool = True, **ctx: Any) -> str:
    with pytest.raises(MahjongError) as err:
        s(hand, tile, self_drawn, **ctx)
    return err.value.code


def ids(r: Any) -> list[str]:
    return [p.id for p in r.patterns]


# --------------------------------------------------------------------------- 赖子 and 痞子

@pytest.mark.parametrize(("turned", "pizi", "laizi"), [
    (8, "hongzhong", 0),  # 9m -> 1m: a suit wraps
    (11, "hongzhong", 12),  # 3p -> 4p
    (26, "hongzhong", 18),  # 9s -> 1s
    (27, "hongzhong", 28),  # 东 -> 南
    (30, "hongzhong", 32),  # 北 -> 中 is the 痞子, skipped: 发
    (30, "hongzhong_facai", 31),  # 北 -> 中, 发 both 痞子: 白
    (33, "hongzhong", 32),  # 中 -> 发
    (33, "hongzhong_facai", 31),  # 中 -> 发 (痞子) -> 白
    (32, "hongzhong", 31),  # 发 -> 白
    (31, "hongzhong", 27),  # 白 -> 东: the cycle closes
])
def test_the_laizi_is_the_next_kind_skipping_pizi(turned: int, pizi: str, laizi: int) -> None:
    o = resolve_options({"pizi": pizi})
    assert next_kind(turned, o.pizi_kinds) == laizi


def test_indicator_gives_the_laizi() -> None:
    # turned-up 8p: the 赖子 is 9p, so this is §10 row 2 (软 小胡)
    r = score("456p789s345s5m9p chi:123m", win_tile="5m", self_drawn=True,
              context={"indicator": "8p"})
    assert ids(r) == ["xiaohu", "ruanhu"] and r.value == 2
    assert s("456p789s345s5m9p chi:123m", "5m", indicator="8p").value == 2  # agreeing: fine
    assert code("456p789s345s5m9p chi:123m", "5m", indicator="7p") == "bad_context"


def test_the_laizi_comes_from_the_context() -> None:
    hand = "456p789s345s5m9p chi:123m"
    assert s(hand, "5m").value == 2  # 9p wild: pairs with 5m
    assert code(hand, "5m", laizi="1z") == "not_a_win"  # 9p natural: 5m and 9p loose
    # 赖子 5m: the single 5m is wild; 9p stays natural and the tiles do not win
    assert code(hand, "5m", laizi="5m") == "not_a_win"


def test_pizi_in_hand_and_the_two_pizi_options() -> None:
    assert code("456p789s34s55m7z chi:123m", "5m") == "pizi_in_hand"
    hand = "456p789s345s5m6z chi:123m"
    assert code(hand, "5m") == "not_a_win"  # 发 is a plain tile with 四痞四赖
    eight = {"pizi": "hongzhong_facai"}
    assert code(hand, "5m", options=eight) == "pizi_in_hand"
    assert code(XIAOHU, "5m", laizi="6z", options=eight) == "bad_context"  # 发 is a 痞子
    assert code("456p789s345s55m peng:666z", "5m", options=eight) == "bad_meld"
    assert code(XIAOHU + " pizigang:6z", "5m") == "bad_meld"  # not a 痞子 by default
    r = s(XIAOHU + " pizigang:6z", "5m", options=eight)  # 八痞四赖: a 发 kong doubles
    assert r.winner_factor == 2 * 2 * 2
    assert resolve_options(preset="bapi_silai").pizi == "hongzhong_facai"
    assert resolve_options(preset="sipi_silai").as_dict() == resolve_options().as_dict()


def test_pizi_and_laizi_are_never_in_a_set_meld() -> None:
    assert code("456p789s345s55m peng:777z", "5m") == "bad_meld"
    assert code("456p789s345s55m peng:999p", "5m") == "bad_meld"  # the 赖子
    assert code("456p789s345s55m chi:789p", "5m") == "bad_meld"
    assert code("456p789s345s55m angang:9999p", "5m") == "bad_meld"
    assert code(XIAOHU + " laizigang:8p", "5m") == "bad_meld"  # not the 赖子


# --------------------------------------------------------------------------- hands

def test_xiaohu_needs_a_258_pair_and_at_most_one_wild() -> None:
    assert code("456p789s345s33m chi:123m", "3m") == "not_a_win"
    r = s("456p789s345s88s chi:123m", "8s")
    assert ids(r) == ["xiaohu", "yinghu"] and r.decomposition.pair == 25
    assert code("456p789s34s5m99p chi:123m", "5m") == "not_a_win"  # WH-06
    r = s("456p789s34s5m99p chi:123m", "5m", options={"xiaohu_max_laizi": 2})
    assert ids(r) == ["xiaohu", "ruanhu"] and r.value == 2
    assert code("456p789s345s5m9p chi:123m", "5m", options={"xiaohu_max_laizi": 0}) == "not_a_win"
    # two 赖子 as a pair of wilds: only a 大胡 may have it
    assert code("456p789s345s99p chi:123m", "9p") == "not_a_win"
    r = s("456p789s345s99p chi:123m", "9p", hai_di=True)  # 99p as 55m: 海底捞
    assert ids(r) == ["haidilao", "ruanhu"] and r.value == 10 * 2


def test_dahu_add_up_and_take_any_pair() -> None:
    r = s(QINGPENG, "8m", False, discarder="left")
    assert ids(r) == ["pengpenghu", "qingyise", "yinghu"] and r.hand_base == 20
    r = s("123m456m789m11m chi:234m", "1m")  # 清一色 with runs on 11m
    assert ids(r) == ["qingyise", "yinghu"]
    r = s("11122233z peng:444z peng:666z", "3z", laizi="1m")
    assert ids(r) == ["pengpenghu", "fengyise", "yinghu"] and r.value == 80
    r = s("222m555p88s peng:555s peng:888p", "8s", False, laizi="1z", discarder="left")
    assert ids(r) == ["pengpenghu", "jiangyise", "yinghu"]
    # 清一色 + 碰碰胡 + 海底捞 in one hand: three 大胡
    r = s(QINGPENG, "8m", hai_di=True)
    assert ids(r) == ["pengpenghu", "qingyise", "haidilao", "yinghu"] and r.hand_base == 30
    r = s(QINGPENG, "8m", options={"base_dahu": 15})
    assert r.hand_base == 30 and r.patterns[0].fan == 15
    r = s(XIAOHU, "5m", options={"base_xiaohu": 5})
    assert r.hand_base == 5 and r.patterns[0].fan == 5


def test_situational_dahu_keep_the_258_pair_unless_freed() -> None:
    hand = "456p789s345s33m chi:123m"
    assert code(hand, "3m", hai_di=True) == "not_a_win"
    assert code(hand + " pizigang:7z", "3m", gang_shang_hua=True) == "not_a_win"
    assert code(hand, "3m", False, robbed="left") == "not_a_win"
    for ctx in ({"hai_di": True}, {"robbed": "left"}):
        r = s(hand, "3m", "hai_di" in ctx, options={"situational_any_pair": True}, **ctx)
        assert r.hand_base == 10
    # 清一色 frees the pair of 海底捞: 11m is fine
    r = s("123m456m789m11m chi:234m", "1m", hai_di=True)
    assert ids(r) == ["qingyise", "haidilao", "yinghu"] and r.hand_base == 20


def test_quanqiuren() -> None:
    hand = "55m chi:123p peng:777s chi:456s peng:999m"
    r = s(hand, "5m", False, laizi="2z", discarder="right")
    assert ids(r) == ["quanqiuren", "yinghu"] and paid(r) == {"right": 120}
    assert r.liable == "quanqiuren" and r.liable_seat == SEAT["right"]
    assert ids(s(hand, "5m", laizi="2z")) == ["xiaohu", "yinghu"]  # self-drawn: 小胡
    r = s(hand, "5m", laizi="2z", options={"quanqiuren_self_draw": True})
    assert ids(r) == ["quanqiuren", "yinghu"] and r.liable == ""  # nobody fed it
    # a robbed kong is 抢杠, not 全求人 (and the robbed seat pays)
    r = s(hand, "5m", False, laizi="2z", robbed="across")
    assert ids(r) == ["qianggang", "yinghu"] and r.liable == "qianggang"
    # an angang is not 求人; a 3m pair keeps no 2/5/8
    assert ids(s("55m chi:123p peng:777s chi:456s angang:9999m", "5m", False, laizi="2z",
                 discarder="left")) == ["xiaohu", "yinghu"]
    assert code("33m chi:123p peng:777s chi:456s peng:999m", "3m", False, laizi="2z",
                discarder="left") == "not_a_win"
    # the 赖子 completes the pair: 软 全求人
    r = s("5m9p chi:123p peng:777s chi:456s peng:999m", "5m", False, discarder="left")
    assert ids(r) == ["quanqiuren", "ruanhu"]


def test_gangshanghua_any_kong_and_as_a_factor() -> None:
    for kong in ("pizigang:7z", "laizigang:9p"):
        r = s(XIAOHU + " " + kong, "5m", gang_shang_hua=True)
        assert ids(r) == ["gangshanghua", "yinghu"] and r.hand_base == 10, kong
    for kong in ("angang:1111z", "gang:1111z", "bugang:1111z"):
        r = s("456p789s55m chi:123m " + kong, "5m", gang_shang_hua=True)
        assert ids(r) == ["gangshanghua", "yinghu"] and r.hand_base == 10, kong
    r = s("456p789s55m chi:123m gang:2222p", "5m", gang_shang_hua=True,
          options={"gangshanghua_as": "factor"})
    assert [(p.id, p.fan) for p in r.patterns] == [("xiaohu", 1), ("gangshanghua", 2),
                                                   ("yinghu", 2)]
    assert (r.hand_base, r.winner_factor) == (1, 16)
    # as a factor it is no 大胡: the one-wild limit of 小胡 stays
    assert code("456p789s34s5m99p chi:123m pizigang:7z", "5m", gang_shang_hua=True,
                options={"gangshanghua_as": "factor"}) == "not_a_win"
    r = s("456p789s34s5m99p chi:123m pizigang:7z", "5m", gang_shang_hua=True)
    assert ids(r) == ["gangshanghua", "ruanhu"]


def test_yise_reads_the_tiles_as_placed_and_ignores_the_laid_aside() -> None:
    # a 清一色 with a 红中杠 aside: the 7z is out of the hand
    r = s("123m456m789m11m chi:234m pizigang:7z", "1m")
    assert ids(r) == ["qingyise", "yinghu"] and r.winner_factor == 2 * 2 * 2
    # 赖子 5m standing for a 筒 pair makes 清一色 (WH-19)
    r = s("123p456p789p55m chi:123p", "5m", laizi="5m")
    assert ids(r) == ["qingyise", "ruanhu"] and r.value == 20


def test_hard_and_soft_and_the_tie_rule() -> None:
    # 99p as themselves: 硬 碰碰胡 10 x 4; as a wild 2/5/8 pair: 软 碰碰胡 + 将一色 20 x 2.
    # Equal: the 硬 reading is reported (wuhan.md §11)
    r = s("555m888p222s99p peng:555p", "5m")
    assert ids(r) == ["pengpenghu", "yinghu"] and r.value == 40
    assert r.decomposition.pair == 17
    r = s("555m888p222s99p peng:555p", "5m", options={"yinghu_factor": 1})
    assert ids(r) == ["pengpenghu", "jiangyise", "ruanhu"] and r.value == 40  # 20 x 2 > 10 x 2
    r = s(XIAOHU, "5m", options={"yinghu_factor": 1})
    assert [(p.id, p.fan) for p in r.patterns] == [("xiaohu", 1), ("yinghu", 1)]
    assert r.winner_factor == 2


def test_qidui_option() -> None:
    hand = "1133m55779p22s112z"
    assert code(hand, "2z", options={"must_open": False}) == "not_a_win"
    r = s(hand, "2z", options={"qidui": True, "must_open": False})
    assert ids(r) == ["qidui", "ruanhu"] and r.shape == "qidui" and r.value == 10
    r = s("11223344556677m", "7m", options={"qidui": True, "must_open": False})
    assert ids(r) == ["qingyise", "qidui", "yinghu"] and r.hand_base == 20
    # 七对 with a 红中杠 aside: the one-tile kong is not a set
    r = s("1133m55779p22s112z pizigang:7z", "2z", gang_shang_hua=True,
          options={"qidui": True, "must_open": False})
    assert ids(r) == ["gangshanghua", "qidui", "ruanhu"]


def test_yise_any_shape() -> None:
    hand = "28m258p258s258s peng:555m"
    assert code(hand, "2m") == "not_a_win"
    r = s(hand, "2m", options={"yise_any_shape": True})
    assert ids(r) == ["jiangyise", "yinghu"] and r.shape == "yise" and r.value == 40
    r = s("22228888m5m99p peng:555m", "2m", options={"yise_any_shape": True})
    assert ids(r) == ["jiangyise", "qingyise", "ruanhu"]  # the 赖子 as a 万 2/5/8
    r = s("1122334z666z9p peng:555z", "9p", options={"yise_any_shape": True})
    assert ids(r) == ["fengyise", "ruanhu"]


def test_must_open() -> None:
    assert code("456p789s345s55m angang:1111m", "5m") == "must_open"
    assert code("123m456p789s345s55m", "5m") == "must_open"
    assert code("123m456p789s345s55m pizigang:7z laizigang:9p", "5m") == "must_open"
    r = s("123m456p789s345s55m", "5m", options={"must_open": False})
    assert r.winner_factor == 2  # F(winner) 1: not opened; 硬胡 x 2


# --------------------------------------------------------------------------- value and payment

def test_doublings_of_winner_and_payers() -> None:
    r = s(XIAOHU + " laizigang:9p", "5m")  # 赖子杠 x 4
    assert r.winner_factor == 2 * 4 * 2
    r = s("789s55m chi:123m bugang:2222p angang:1111z pizigang:7z", "5m")
    assert r.winner_factor == 2 * 2 * 4 * 2 * 2
    r = s(XIAOHU, "5m", payer_melds={"left": "peng:111s angang:2222p", "right": "pizigang:7z",
                                     "across": "chi:678m gang:6666s"})
    assert paid(r) == {"left": 4 * 8, "right": 4 * 2, "across": 4 * 4}
    r = s(XIAOHU, "5m", payer_melds={"left": "peng:111s"}, options={"factors": False})
    assert r.winner_factor == 2 and paid(r) == {"left": 2, "across": 2, "right": 2}


def test_discard_payments_peichong_cap_min_and_stake() -> None:
    r = s(QINGPENG, "8m", False, discarder="left")
    assert paid(r) == {"left": 80}
    all_pay = {"dahu_discard_all_pay": True}
    r = s(QINGPENG, "8m", False, discarder="across", options=all_pay)
    assert paid(r) == {"across": 80, "left": 40, "right": 40}
    r = s(QINGPENG, "8m", False, discarder="left", options={**all_pay, "peichong_ratio": "1/4"})
    assert paid(r) == {"left": 80, "across": 20, "right": 20}
    r = s(XIAOHU, "5m", False, discarder="left", options=all_pay)  # a 小胡: discarder only
    assert paid(r) == {"left": 4}
    # the cap limits each amount, before the 陪冲 share
    r = s(QINGPENG, "8m", False, discarder="left", options={**all_pay, "cap_points": 50})
    assert paid(r) == {"left": 50, "across": 25, "right": 25}
    r = s(XIAOHU, "5m", payer_melds={"left": "peng:111s angang:2222p"},
          options={"cap_points": 10})
    assert paid(r) == {"left": 10, "across": 4, "right": 4} and r.value == 4
    assert code(XIAOHU, "5m", options={"min_points": 5}) == "below_min_points"
    assert s(XIAOHU, "5m", options={"min_points": 4}).value == 4
    r = s(XIAOHU, "5m", options={"base_points": 5})
    assert paid(r) == {"left": 20, "across": 20, "right": 20}
    assert code(XIAOHU, "5m", options={"base_points": 5, "min_points": 21}) == "below_min_points"


def test_liabilities_and_their_order() -> None:
    hand = "789m55m chi:123m peng:444m chi:567m"  # 清一色 from three melds
    r = s(hand, "5m", laizi="1z", meld_from=["left", "left", "left"])
    assert paid(r) == {"left": 120} and r.liable == "fangsanpu"
    r = s(hand, "5m", False, laizi="1z", discarder="right", meld_from=["left", "left", "left"])
    assert paid(r) == {"left": 120} and r.liable == "fangsanpu"  # beats the discarder
    r = s(hand, "5m", laizi="1z", meld_from=["left", "across", "left"])  # only two
    assert paid(r) == {"left": 40, "across": 40, "right": 40} and r.liable == ""
    # 放三浦 is for 清一色 / 将一色 only: a 小胡 from three melds of one seat is not
    r = s("789p55m chi:123m peng:444s chi:567m", "5m", laizi="1z",
          meld_from=["left", "left", "left"])
    assert r.liable == "" and len(r.payments) == 3
    # 抢杠 first: the robbed seat pays even for a 清一色 fed by another
    r = s(hand, "5m", False, laizi="1z", robbed="across", meld_from=["left", "left", "left"])
    assert r.liable == "qianggang" and paid(r) == {"across": 3 * 80}
    # liability beats 陪冲; each of the three amounts carries its own F(L)
    r = s(hand, "5m", False, laizi="1z", robbed="across", payer_melds={"left": "peng:111s"},
          options={"dahu_discard_all_pay": True})
    assert paid(r) == {"across": 80 + 80 + 160}


def test_payments_name_absolute_seats_from_the_winner() -> None:
    r = s(XIAOHU, "5m", winner=2, payer_melds={"left": "peng:111s"})
    assert sorted(r.payments) == [(0, 2, 4), (1, 2, 8), (3, 2, 4)]  # left of 2 is 1
    r = s(QINGPENG, "8m", False, winner=1, discarder="right")
    assert r.payments == ((2, 1, 80),)


# --------------------------------------------------------------------------- errors

@pytest.mark.parametrize(("hand", "tile", "self_drawn", "ctx", "expected"), [
    (XIAOHU, "5m", True, {"laizi": None}, "bad_context"),  # no 赖子
    (XIAOHU, "5m", True, {"laizi": "7z"}, "bad_context"),  # a 痞子
    (XIAOHU, "1m", True, {}, "bad_context"),  # the winning tile is not in the hand
    (XIAOHU, "5m", True, {"discarder": "left"}, "bad_context"),  # self-drawn with a discarder
    (XIAOHU, "5m", False, {}, "bad_context"),  # a discard win names no discarder
    (XIAOHU, "5m", False, {"discarder": "left", "robbed": "left"}, "bad_context"),
    (XIAOHU, "5m", False, {"discarder": "self"}, "bad_context"),
    (XIAOHU, "5m", True, {"gang_shang_hua": True}, "bad_context"),  # no kong
    (XIAOHU + " pizigang:7z", "5m", False, {"gang_shang_hua": True, "discarder": "left"},
     "bad_context"),
    (XIAOHU + " pizigang:7z", "5m", True, {"gang_shang_hua": True, "hai_di": True},
     "bad_context"),
    (XIAOHU, "5m", False, {"hai_di": True, "discarder": "left"}, "bad_context"),
    (XIAOHU, "5m", True, {"meld_from": ["left", "left"]}, "bad_context"),  # one set meld
    (XIAOHU, "5m", True, {"meld_from": ["right"]}, "bad_context"),  # a chi is from the left
    (XIAOHU, "5m", True, {"payer_melds": {"left": "11m"}}, "bad_context"),
    (XIAOHU, "5m", True, {"payer_melds": {"self": "peng:111s"}}, "bad_context"),
    (XIAOHU, "5m", True, {"payer_melds": {"left": "peng:777z"}}, "bad_meld"),
    (XIAOHU, "5m", True, {"payer_melds": {"left": "peng:555m"}}, "tile_count"),  # 3 + 2 5m
    (XIAOHU, "5m", True, {"winner": 4}, "bad_context"),
    (XIAOHU, "5m", True, {"gang_shang_hua": "yes"}, "bad_context"),
    (XIAOHU, "5m", True, {"bonus": 1}, "bad_context"),
    ("456p789s345s55m", "5m", True, {}, "tile_count"),  # 11 tiles
    ("456p789s345s555m chi:123m", "5m", True, {}, "tile_count"),
])
def test_errors(hand: str, tile: str, self_drawn: bool, ctx: dict[str, Any],
                expected: str) -> None:
    assert code(hand, tile, self_drawn, **ctx) == expected


def test_description() -> None:
    d = describe_ruleset("wuhan")
    assert d["unit"] == "points" and d["wild_tiles"] and d["claims"] == ["chi", "peng", "gang", "hu"]
    assert d["policy"]["kind"] == "sum_times_extras"
    assert [p["id"] for p in d["patterns"]] == [
        "xiaohu", "pengpenghu", "quanqiuren", "fengyise", "jiangyise", "qingyise", "haidilao",
        "gangshanghua", "qianggang", "qidui"]
    assert {o["name"] for o in d["options"]} == {
        "pizi", "base_xiaohu", "base_dahu", "factors", "yinghu_factor", "gangshanghua_as",
        "must_open", "xiaohu_max_laizi", "situational_any_pair", "quanqiuren_self_draw",
        "yise_any_shape", "qidui", "dahu_discard_all_pay", "peichong_ratio", "min_points",
        "cap_points", "base_points"}
    kinds = {c["id"]: c["kind"] for c in d["context_keys"]}
    assert kinds["laizi"] == "tile" and kinds["payer_melds"] == "seat_melds"
    assert get_ruleset("wuhan").allows_chi


def test_decomposition_places_each_laizi_where_it_stands() -> None:
    """The decomposition is the split of the reading scored, each 赖子 counted as the kind it
    stands for (as Hangzhou's 财神), the declared melds left out (WH-02: the 9p is the 5m of
    the pair; the soft 碰碰胡 + 将一色: the two 9p are a 5m pair)."""
    r = s("456p789s345s5m9p chi:123m", "5m")
    assert ids(r) == ["xiaohu", "ruanhu"]
    assert (r.decomposition.pair, r.decomposition.chows, r.decomposition.pungs) == (
        4, (12, 20, 24), ())
    r = s("555m888p222s99p peng:555p", "5m", options={"yinghu_factor": 1})
    assert "jiangyise" in ids(r)
    assert (r.decomposition.pair, r.decomposition.pungs) == (4, (4, 16, 19))
