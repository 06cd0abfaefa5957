"""The rule-set framework: registry, options (validated), presets, description."""

from __future__ import annotations

import json

import pytest

import mjcore
from mjcore import MahjongError
from mjcore.rules import (
    describe_ruleset,
    get_ruleset,
    list_rulesets,
    resolve_options,
    score,
)


def test_registry_lists_sichuan() -> None:
    assert "sichuan" in list_rulesets()
    assert get_ruleset("sichuan").name == "sichuan"


def test_unknown_ruleset() -> None:
    for call in (
        lambda: get_ruleset("mars"),
        lambda: describe_ruleset("mars"),
        lambda: score("123m456m789m234p55p", win_tile="5p", ruleset="mars"),
    ):
        with pytest.raises(MahjongError) as err:
            call()
        assert err.value.code == "unknown_ruleset"


@pytest.mark.parametrize(
    "options",
    [
        {"cap_fan": 0},
        {"cap_fan": 14},
        {"cap_fan": "x"},
        {"zimo_bonus": "double"},
        {"base": 0},
        {"base": True},
        {"longqidui_fan": 5},
        {"menqing": "yes"},
        {"zhigang_pay": 4},
        {"nonsense": 1},
        {"exchange_direction": "up"},
        {"dealer_on_draw": None},
    ],
)
def test_bad_options(options: dict[str, object]) -> None:
    """§6: every option is validated; a bad one raises bad_option with its name."""
    with pytest.raises(MahjongError) as err:
        score("123m456m789m234p55p", win_tile="5p", ruleset="sichuan", options=options)
    assert err.value.code == "bad_option"
    assert next(iter(options)) in err.value.message


def test_option_values_accepted() -> None:
    """§6: allowed values, including none for the cap and text numbers."""
    o = resolve_options("sichuan", {"cap_fan": "none", "longqidui_fan": "3", "base": 2})
    assert o.cap_fan is None and o.longqidui_fan == 3 and o.base == 2


def test_defaults_and_caching() -> None:
    """Resolved options are cached: the same object for the same input."""
    assert resolve_options("sichuan") is resolve_options("sichuan")
    assert resolve_options("sichuan", {"base": 2}) is resolve_options("sichuan", {"base": 2})
    d = resolve_options("sichuan").as_dict()
    assert d["cap_fan"] is None and d["zimo_bonus"] == "base" and d["huazhu_pay"] == 16


def test_presets() -> None:
    """§6: chengdu = defaults; modern = cap 3, 龙七对 3, 直杠 2, 金钩钓/海底/换三张 on."""
    assert resolve_options("sichuan", preset="chengdu").as_dict() == resolve_options("sichuan").as_dict()
    m = resolve_options("sichuan", preset="modern")
    assert (m.cap_fan, m.longqidui_fan, m.zhigang_pay) == (3, 3, 2)
    assert m.jingoudiao and m.haidilaoyue and m.haidipao and m.exchange_three
    # explicit options override the preset
    assert resolve_options("sichuan", {"cap_fan": 5}, "modern").cap_fan == 5
    with pytest.raises(MahjongError) as err:
        resolve_options("sichuan", preset="tokyo")
    assert err.value.code == "bad_option"
    r = score("1111m2222m55m66m88m", win_tile="5m", ruleset="sichuan", preset="modern")
    assert r.fan == 3


def test_describe_is_plain_data() -> None:
    """§4 (DESIGN): DescribeRuleset returns patterns, add-ons, options and presets as data."""
    d = describe_ruleset("sichuan")
    json.dumps(d, ensure_ascii=False)  # plain data only
    ids = [p["id"] for p in d["patterns"]]
    assert ids[0] == "pinghu" and "qinglongqidui" in ids and len(ids) == 13
    lqd = next(p for p in d["patterns"] if p["id"] == "longqidui")
    assert lqd["name"] == "龙七对" and lqd["fan"] == 4 and lqd["value_option"] == "longqidui_fan"
    assert [a["id"] for a in d["extras"]][:2] == ["gen", "gangshanghua"]
    opts = {o["name"]: o for o in d["options"]}
    assert opts["zimo_bonus"]["values"] == ["base", "fan", "none"]
    assert opts["cap_fan"]["none_allowed"] and opts["cap_fan"]["default"] is None
    assert all(o["description"] for o in d["options"])
    assert set(d["presets"]) == {"chengdu", "modern", "chengdu_points"}
    assert d["tiles"] == 108 and d["claims"] == ["peng", "gang", "hu"] and not d["honours"]
    codes = {r["id"] for r in d["reason_codes"]}
    assert {"guoshui", "must_win", "cannot_rob_angang", "chi_not_allowed"} <= codes


def test_reexported_from_mjcore() -> None:
    for name in ("score", "valued_waits", "validate_move", "legal_moves", "settle",
                 "list_rulesets", "describe_ruleset", "get_ruleset", "TableView", "Move"):
        assert hasattr(mjcore, name), name
        assert name in mjcore.__all__
