"""The local special hands of shapes.md §3 (mjcore/rules/common/special.py), each tested from
its definition and the examples of shapes.md §8, on 14-tile and 17-tile hands."""

from __future__ import annotations

from typing import Any

from mjcore import Hand
from mjcore.rules.common import special as S
from mjcore.rules.common.readings import readings


def reading(text: str, win: int = -1) -> Any:
    """The first standard reading of ``text`` (the winning tile: the first tile by default)."""
    h = Hand.parse(text)
    return readings(h, h.tiles()[0] if win < 0 else win)[0]


def every(text: str) -> list[Any]:
    h = Hand.parse(text)
    return list(readings(h, h.tiles()[0]))


def test_dragons_and_winds() -> None:
    assert S.dasanyuan(reading("555z666z777z123m11p"))
    assert not S.dasanyuan(reading("555z666z77z123m456p"))
    assert S.xiaosanyuan(reading("555z666z77z123m456p"))
    assert S.dasixi(reading("111z222z333z444z11p"))
    assert S.xiaosixi(reading("111z222z333z44z123p"))
    assert not S.xiaosixi(reading("111z222z333z55z123p"))
    assert S.dasixi(reading("111z222z333z99m peng:444z"))  # exposed pungs count
    assert S.ziyise(reading("111z222z333z555z77z"))


def test_concealed_pungs() -> None:
    r = reading("111m333p555s777s99s")  # four concealed pungs
    assert S.concealed_pungs(r) == 4 and S.sianke(r)
    slot = next(i for i, s in enumerate(r.sets) if s.tile == 0)
    assert not S.sianke(r, slot, self_drawn=False)  # a discard completed 111m
    assert S.sianke(r, slot, self_drawn=False, ron_pung_concealed=True)
    assert S.sianke(r, -1, self_drawn=False)  # won on the pair
    assert not S.sianke(reading("333p555s777s99s peng:111m"))
    assert S.sianke(reading("333p555s777s99s angang:1111m"))


def test_silianke_and_qinglaotou() -> None:
    assert any(S.silianke(r) for r in every("333m444m555m666m99p"))
    assert S.silianke(reading("555m666m99p peng:333m peng:444m"))
    assert not any(S.silianke(r) for r in every("777m888m999m111p22p"))
    assert not any(S.silianke(r) for r in every("888m999m111p222p33s"))  # not one suit
    assert S.qinglaotou(reading("111m999m111p999s11s"))
    assert not S.qinglaotou(reading("111m999m111p111z11s"))  # an honour


def test_composition_hands() -> None:
    assert S.baiwanshi(reading("999888777m789m66m"))  # shapes.md §8: 108
    assert not S.baiwanshi(reading("111222333m123m99m"))
    assert S.baiwanshi(reading("999888777m789m55m"), minimum=100)  # 106
    assert S.hongkongque(reading("111s555s777s999s77z"))
    assert S.hongkongque(reading("111s555s777s99s777z"), needs_zhong=True)
    assert not S.hongkongque(reading("111s555s777s99s666z"))
    assert S.lvyise(reading("234s234s666s888s66z"))
    assert not S.lvyise(reading("234s234s666s888s55z"))
    assert not S.lvyise(reading("234s234s666s888s33s"), needs_fa=True)


def test_dongbei_xinganxian() -> None:
    assert S.dongbei_xinganxian(reading("123456789m11144z"))  # shapes.md §8 (东东东 北北)
    assert S.dongbei_xinganxian(reading("123456789m11444z"))
    assert not S.dongbei_xinganxian(reading("123456789m11122z"))
    assert S.dongbei_xinganxian(reading("456789m11444z chi:123m"))
    assert not S.dongbei_xinganxian(reading("123456789m44z angang:1111z"))


def test_concealed_only_hands() -> None:
    assert S.jiulianbaodeng(reading("11123456789999m"))
    assert not S.jiulianbaodeng(reading("456789m99m chi:123m peng:111m"))  # melds
    assert S.dachelun(reading("22334455667788p"))  # shapes.md §8
    assert not S.dachelun(reading("22334455667788m"))
    assert S.dachelun(reading("22334455667788m"), any_suit=True)
    assert S.shibaluohan(reading("99s gang:1111m gang:2222p angang:3333s bugang:4444z"))
    assert not S.shibaluohan(reading("99s111m gang:2222p angang:3333s bugang:4444z"))


def test_ligu_seven_pairs_and_a_pung() -> None:
    assert S.ligu_pung(Hand.parse("11m22m33p44p55s66s77z999s").counts) == 26
    assert S.ligu_pung(Hand.parse("1111m33p44p55s66s77z999s").counts) == 26  # 4 = two pairs
    assert S.ligu_pung(Hand.parse("11m22m33p44p55s66s77z99s").counts) == -1  # 16 tiles
    assert S.ligu_pung(Hand.parse("11m22m33p44p55s66s777z9s").counts) == -1  # a single
    assert S.ligu_pung(Hand.parse("11m22m33p44p55s666s777z").counts) == -1  # two pungs
