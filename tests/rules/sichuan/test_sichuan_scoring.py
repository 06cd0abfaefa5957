"""Sichuan scoring (§4): patterns, add-ons, options, caps, payments and input errors."""

from __future__ import annotations

from typing import Any

import pytest
from sichuan_api import score

from mjcore import Hand, MahjongError


def pats(result: Any) -> list[list[Any]]:
    return sorted([p.id, p.fan] for p in result.patterns)


def sc(hand: str, tile: str, **kw: Any) -> Any:
    return score(hand, win_tile=tile, **kw)


# ---------------------------------------------------------------- §7 worked examples


@pytest.mark.parametrize(
    "hand,tile,patterns,mult",
    [
        ("123m456m789m234p55p", "5p", [["pinghu", 0]], 1),
        ("111m123m456p789p55p", "5p", [["gen", 1], ["pinghu", 0]], 2),
        ("123m789m456p99m peng:555p", "6p", [["gen", 1], ["pinghu", 0]], 2),
        ("111m555m777m222p88p", "8p", [["duiduihu", 1]], 2),
        ("11122233344455m", "5m", [["qingdui", 3]], 8),
        ("222m555m888m555p22p", "2p", [["jiangdui", 3]], 8),
        ("11m33m55m22p44p66p88p", "8p", [["qidui", 2]], 4),
        ("1111m33m55m22p44p88p", "8p", [["longqidui", 4]], 16),
        ("1111m3333m55m22p44p", "4p", [["gen", 1], ["longqidui", 4]], 32),
        ("11223344556677m", "7m", [["qingqidui", 4]], 16),
        ("123s567s678s888s77s", "7s", [["gen", 2], ["qingyise", 2]], 16),
    ],
)
def test_worked_examples_section_7(hand: str, tile: str, patterns: list[Any], mult: int) -> None:
    """§7: the worked examples table, on a discard."""
    r = sc(hand, tile)
    assert pats(r) == sorted(patterns)
    assert r.multiplier == mult


def test_worked_example_gangshanghua_payment() -> None:
    """§7: 杠上花 after an angang: fan 2, each of 3 payers pays 4 + 1 (自摸加底)."""
    r = sc("345m678m345p99p angang:2222m", "9p", self_drawn=True, context={"after_kong": True})
    assert r.fan == 2
    assert r.amount == 5
    assert r.payments == ((1, 0, 5), (2, 0, 5), (3, 0, 5))


def test_worked_example_three_suits_refused() -> None:
    """§3/§7: a hand with three suits is not a win for any 缺门."""
    with pytest.raises(MahjongError) as err:
        sc("123m456p789s234m55p", "5p")
    assert err.value.code == "not_a_win"


# ---------------------------------------------------------------- §4.1 patterns


@pytest.mark.parametrize(
    "pattern,hand,tile,fan",
    [
        ("pinghu", "123m456m789m234p55p", "5p", 0),
        ("duiduihu", "111m666p22m peng:333p peng:999m", "2m", 1),
        ("qingyise", "123p456p789p234p55p", "5p", 2),
        ("daiyaojiu", "123m789m123p789p99p", "9p", 2),
        ("qidui", "22m44m66m33p55p77p99p", "9p", 2),
        ("qingdui", "111p333p555p777p99p", "9p", 3),
        ("jiangdui", "222m888m55m peng:222p peng:555p", "5m", 3),
        ("longqidui", "2222m44m66m33p55p77p", "7p", 4),
        ("qingqidui", "11p22p33p55p66p88p99p", "9p", 4),
        ("qingyaojiu", "123m123m123m789m99m", "9m", 4),
        ("qinglongqidui", "1111p22p33p55p66p88p", "8p", 5),
    ],
)
def test_pattern_table_4_1(pattern: str, hand: str, tile: str, fan: int) -> None:
    """§4.1: each pattern of the fan table, with its fan (exponent) value."""
    r = sc(hand, tile)
    assert r.patterns[0].id == pattern
    assert r.patterns[0].fan == fan
    assert r.pattern.name  # Chinese name carried with the hit


def test_only_one_pattern_counts() -> None:
    """§4.1 不重复计算: 清对 is not 清一色 + 对对胡 (exactly one pattern)."""
    r = sc("111p333p555p777p99p", "9p")
    assert [p.id for p in r.patterns] == ["qingdui"]


def test_daiyaojiu_needs_the_pair_too() -> None:
    """§4.1 带幺九: every set AND the pair contains a 1 or a 9."""
    r = sc("123m789m123p789p55p", "5p")
    assert r.patterns[0].id == "pinghu"


def test_jiangdui_needs_every_tile_258() -> None:
    """§4.1 将对: the pair must be 2/5/8 as well."""
    assert sc("222m555m888m555p33p", "3p").patterns[0].id == "duiduihu"


def test_best_reading_over_decompositions() -> None:
    """§4.1: 111222333m may be triplets or sequences; the higher total is taken."""
    r = sc("111222333m456m99m", "9m")
    assert r.patterns[0].id == "qingyise"
    r = sc("111222333m555m99m", "9m")
    assert r.patterns[0].id == "qingdui"
    assert r.decomposition.pungs == (0, 1, 2, 4)


def test_tie_reports_higher_pattern() -> None:
    """§4.1: equal totals report the higher pattern: 龙七对 + 1 根 not 七对 + 2 根."""
    r = sc("1111m3333m55m22p44p", "4p", options={"longqidui_fan": 3})
    assert pats(r) == [["gen", 1], ["longqidui", 3]]
    assert r.fan == 4


def test_qidui_decomposition_is_the_shape() -> None:
    """The scored decomposition of a 七对 is the shape's id."""
    r = sc("11m33m55m22p44p66p88p", "8p")
    assert r.decomposition == "qidui"
    assert r.shape == "qidui"
    assert sc("123m456m789m234p55p", "5p").shape == "standard"


def test_tianhu_flat() -> None:
    """§4.1 Decision: 天胡 is flat, 5 fan, no 根 or other add-on."""
    r = sc("1111m23m456m789p99p", "9p", self_drawn=True, context={"heavenly": True})
    assert pats(r) == [["tianhu", 5]]


def test_dihu_flat() -> None:
    """§4.1: 地胡 5 fan flat."""
    r = sc("123m456m789m123p99p", "9p", self_drawn=True, context={"earthly": True})
    assert pats(r) == [["dihu", 5]]
    assert r.payments == ((1, 0, 33), (2, 0, 33), (3, 0, 33))


def test_tiandihu_option_off() -> None:
    """§6 tiandihu false: scored as an ordinary self-drawn hand."""
    r = sc("123m456m789m123p99p", "9p", self_drawn=True, context={"heavenly": True},
           options={"tiandihu": False})
    assert pats(r) == [["pinghu", 0]]


def test_tianhu_takes_a_bigger_ordinary_reading() -> None:
    """Decision: when the ordinary reading totals more than 5, it is taken instead."""
    r = sc("1111p2222p33p55p66p", "6p", self_drawn=True, context={"heavenly": True})
    assert r.patterns[0].id == "qinglongqidui"
    assert r.fan == 6


# ---------------------------------------------------------------- §4.2 add-ons


def test_gen_counts_four_copies_anywhere() -> None:
    """§4.2 根: peng + fourth in hand, kongs of every kind, four concealed."""
    assert pats(sc("123m789m456p99m peng:555p", "6p")) == [["gen", 1], ["pinghu", 0]]
    r = sc("222m55m gang:4444m bugang:6666p angang:9999p", "2m")
    assert ["gen", 3] in pats(r)
    assert [p.id for p in r.patterns].count("gen") == 1


def test_gangshangpao_and_qiangganghu() -> None:
    """§4.2 杠上炮 and 抢杠胡 each add 1 on a win on another seat's tile."""
    r = sc("234m567m345p678p99p", "9p", context={"after_kong_discard": True, "discarder": 2})
    assert pats(r) == [["gangshangpao", 1], ["pinghu", 0]]
    assert r.payments == ((2, 0, 2),)
    r = sc("234m567m345p678p99p", "9p", context={"robbing_kong": True, "discarder": 3})
    assert pats(r) == [["pinghu", 0], ["qiangganghu", 1]]
    assert r.payments == ((3, 0, 2),)


def test_zimo_bonus_options() -> None:
    """§4.4 zimo_bonus: base adds one base per payer, fan adds 1 fan, none nothing."""
    hand = "123m456m789m234p55p"
    assert sc(hand, "5p", self_drawn=True).amount == 2
    r = sc(hand, "5p", self_drawn=True, options={"zimo_bonus": "fan"})
    assert pats(r) == [["pinghu", 0], ["zimo", 1]] and r.amount == 2
    assert sc(hand, "5p", self_drawn=True, options={"zimo_bonus": "none"}).amount == 1
    assert sc(hand, "5p", options={"zimo_bonus": "fan"}).fan == 0  # not on a discard


def test_optional_addons_off_by_default() -> None:
    """§4.2: 金钩钓, 海底捞月, 海底炮, 门清, 中张 are off by default."""
    assert pats(sc("88p peng:111m peng:555m peng:222p peng:777p", "8p")) == [["duiduihu", 1]]
    assert sc("123m456m789m456p88p", "8p", context={"last_tile": True}).fan == 0
    assert sc("234m456m678m345p88p", "8p").fan == 0


def test_haidilaoyue_haidipao() -> None:
    """§4.2: 海底捞月 on the self-drawn last tile, 海底炮 on the discard after it."""
    opts = {"haidilaoyue": True, "haidipao": True}
    h = "123m456m789m456p88p"
    assert ["haidilaoyue", 1] in pats(sc(h, "8p", self_drawn=True, context={"last_tile": True},
                                         options=opts))
    assert ["haidipao", 1] in pats(sc(h, "8p", context={"last_tile": True}, options=opts))


def test_menqing_and_zhongzhang() -> None:
    """§4.2 门清: no peng/gang/bugang (angang ok); 中张: no 1 or 9 anywhere."""
    opts = {"menqing": True, "zhongzhang": True}
    r = sc("234m456m678m345p88p", "8p", options=opts)
    assert pats(r) == [["menqing", 1], ["pinghu", 0], ["zhongzhang", 1]]
    r = sc("234m456m345p88p peng:777m", "8p", options=opts)
    assert pats(r) == [["pinghu", 0], ["zhongzhang", 1]]


def test_jingoudiao_needs_four_melds() -> None:
    """§4.2 金钩钓: four declared melds and the pair's single wait."""
    opts = {"jingoudiao": True}
    assert ["jingoudiao", 1] in pats(sc("88p peng:111m peng:555m peng:222p peng:777p", "8p",
                                        options=opts))
    assert "jingoudiao" not in [p.id for p in sc("111m88p peng:555m peng:222p peng:777p", "8p",
                                                  options=opts).patterns]


# ---------------------------------------------------------------- §4.4 cap, base


def test_cap_applies_to_fan_then_base_bonus() -> None:
    """§4.4: the cap limits fan; the 自摸加底 base is added after capping."""
    r = sc("1111m2222m55m66m88m", "5m", self_drawn=True, options={"cap_fan": 3})
    assert r.fan_uncapped == 6 and r.fan == 3 and r.multiplier == 8
    assert r.amount == 9


def test_base_option() -> None:
    """§4.4 base: points for ×1."""
    r = sc("111m123m456p789p55p", "5p", context={"discarder": 1}, options={"base": 5})
    assert r.amount == 10 and r.payments == ((1, 0, 10),)


# ---------------------------------------------------------------- §4.3 payments


def test_discard_win_discarder_pays() -> None:
    """§4.3: on a discard the discarder alone pays."""
    r = sc("111m123m456p789p55p", "5p", context={"winner": 2, "discarder": 0})
    assert r.payments == ((0, 2, 2),)


def test_self_draw_active_seats_pay() -> None:
    """§4.3/§1.5: a self-draw is paid by every seat that has not yet won."""
    r = sc("111m123m456p789p55p", "5p", self_drawn=True,
           context={"winner": 1, "active_seats": [1, 2, 3]})
    assert r.payments == ((2, 1, 3), (3, 1, 3))


def test_dian_gang_hua_options() -> None:
    """§4.3 点杠花: dianpao (default) the feeder pays as a discard; zimo all pay."""
    ctx = {"after_kong": True, "kong_feeder": 3}
    h = "123m456m789m11p gang:6666p"
    r = sc(h, "1p", self_drawn=True, context=ctx)
    assert r.fan == 2 and r.payments == ((3, 0, 4),)
    r = sc(h, "1p", self_drawn=True, context=ctx, options={"dian_gang_hua": "zimo"})
    assert r.payments == ((1, 0, 5), (2, 0, 5), (3, 0, 5))
    r = sc(h, "1p", self_drawn=True, context=ctx, options={"zimo_bonus": "fan"})
    assert r.fan == 2  # scored as a discard: no 自摸加番


def test_no_discarder_no_payments() -> None:
    """Decision: a discard win without a discarder in the context lists no payments."""
    r = sc("111m123m456p789p55p", "5p")
    assert r.payments == () and r.multiplier == 2


# ---------------------------------------------------------------- inputs


def test_missing_suit_context() -> None:
    """§3: the hand holds no tile of the seat's 缺门."""
    with pytest.raises(MahjongError) as err:
        sc("123m456m789m234p55p", "5p", context={"missing_suit": "p"})
    assert err.value.code == "not_a_win"
    assert sc("123m456m789m234p55p", "5p", context={"missing_suit": "s"}).fan == 0


@pytest.mark.parametrize(
    "context,self_drawn",
    [
        ({"unknown": True}, False),
        ({"after_kong": True}, False),
        ({"after_kong_discard": True}, True),
        ({"robbing_kong": True}, True),
        ({"heavenly": True}, False),
        ({"missing_suit": "z"}, False),
        ({"winner": 4}, False),
        ({"discarder": 0}, False),
        ({"last_tile": "yes"}, False),
        ({"kong_feeder": 1}, True),
    ],
)
def test_bad_context(context: dict[str, Any], self_drawn: bool) -> None:
    """Unknown or contradictory context keys are refused with bad_context."""
    with pytest.raises(MahjongError) as err:
        sc("123m456m789m234p55p", "5p", self_drawn=self_drawn, context=context)
    assert err.value.code == "bad_context"


def test_not_a_win_shapes() -> None:
    """§3: tiles that do not form sets + pair or 七对 are not a win."""
    with pytest.raises(MahjongError) as err:
        sc("123m456m789m235p55p", "5p")
    assert err.value.code == "not_a_win"


def test_wrong_tile_count() -> None:
    with pytest.raises(MahjongError) as err:
        sc("123m456m789m55p", "5p")
    assert err.value.code == "wrong_tile_count"


def test_win_tile_must_be_in_hand() -> None:
    with pytest.raises(MahjongError) as err:
        sc("123m456m789m234p55p", "9s")
    assert err.value.code == "bad_context"


def test_honours_refused() -> None:
    with pytest.raises(MahjongError) as err:
        sc("123m456m789m234p11z", "1z")
    assert err.value.code in ("bad_tile", "not_a_win")


def test_hand_object_and_text_agree() -> None:
    h = Hand.parse("111m123m456p789p55p")
    assert sc("111m123m456p789p55p", "5p") == score(h, win_tile=13)


def test_result_is_frozen() -> None:
    r = sc("123m456m789m234p55p", "5p")
    with pytest.raises(AttributeError):
        r.fan = 3  # type: ignore[misc]


def test_memo_does_not_confuse_equal_values_of_other_types() -> None:
    """True == 1 == 1.0, but a seat must be an int and a flag a bool: a memoised answer for
    one must not be given for the other."""
    import sichuan_api as rules

    hand = "123m456m789m234p55p"
    ctx = {"winner": 1, "discarder": 2}
    assert rules.score(hand, win_tile="5p", context=ctx).payments
    for bad in ({"winner": True, "discarder": 2}, {"winner": 1.0, "discarder": 2}):
        with pytest.raises(MahjongError) as ei:
            rules.score(hand, win_tile="5p", context=bad)
        assert ei.value.code == "bad_context"
    rules.score(hand, win_tile=13, context={"last_tile": True})
    with pytest.raises(MahjongError) as ei:
        rules.score(hand, win_tile=13, context={"last_tile": 1})
    assert ei.value.code == "bad_context"
    rules.score(hand, win_tile=13)
    with pytest.raises(MahjongError):
        rules.score(hand, win_tile=13.0)  # type: ignore[arg-type]
