"""An independent audit of wuhan.md, written from the spec's text (not the code): one small
case per hand, factor, option, liability and error code, each naming its section. Defaults:
赖子 9p, 痞子 红中; H × W per payer with F(payer) = 1 unless ``payer_melds`` says more."""

from __future__ import annotations

from typing import Any

import pytest
from wuhan_api import TableView, legal_moves, paid, score, validate_move

from mjcore import Hand, MahjongError
from mjcore.rules.wuhan import resolve_claims
from mjcore.table import Move

XIAO = "456p789s345s55m chi:123m"  # 小胡 on 55m, opened by the chi
QQR = "55m chi:123p peng:777s chi:456s peng:999m"  # 全求人 shape
QYS_PENG = "222m555m88m peng:333m peng:777m"  # 清一色 + 碰碰胡
R = {"discarder": "right"}
L = {"discarder": "left"}
EACH = ("left", "across", "right")


def each(n: int) -> dict[str, int]:
    return dict.fromkeys(EACH, n)


ROWS: list[tuple[str, str, str, bool, dict[str, Any], dict[str, Any], list[list[Any]], int,
                 int, dict[str, int], str]] = [
    # §5 hands and pairs
    ("§5 xiaohu-max-laizi-2", "456p789s34s9p5m9p chi:123m", "5m", True, {},
     {"xiaohu_max_laizi": 2}, [["xiaohu", 1], ["ruanhu", 1]], 1, 2, each(2), ""),
    ("§5 jiangyise+pengpenghu", "222m555p888s88p peng:222s", "8p", True, {}, {},
     [["pengpenghu", 10], ["jiangyise", 10], ["yinghu", 2]], 20, 4, each(80), ""),
    ("§5 fengyise+pengpenghu", "111z222z333z66z peng:444z", "6z", True, {}, {},
     [["pengpenghu", 10], ["fengyise", 10], ["yinghu", 2]], 20, 4, each(80), ""),
    ("§11 pizigang-out-of-yise", "111z222z333z66z peng:444z pizigang:7z", "6z", True, {}, {},
     [["pengpenghu", 10], ["fengyise", 10], ["yinghu", 2]], 20, 8, each(160), ""),
    ("§11 laizigang-out-of-qingyise", "123m456m789m11m chi:234m laizigang:9p", "1m", True, {},
     {}, [["qingyise", 10], ["yinghu", 2]], 10, 16, each(160), ""),
    ("§5 haidilao-any-pair-with-pengpenghu", "111s222s33m peng:444p peng:777p", "3m", True,
     {"hai_di": True}, {}, [["pengpenghu", 10], ["haidilao", 10], ["yinghu", 2]], 20, 4,
     each(80), ""),
    ("§5 situational_any_pair", "123s456s33m chi:234p peng:777p", "3m", True,
     {"hai_di": True}, {"situational_any_pair": True}, [["haidilao", 10], ["yinghu", 2]], 10,
     4, each(40), ""),
    ("§5 gangshanghua-angang-any-pair-pengpenghu", "111s222s33m peng:444p angang:7777p", "3m",
     True, {"gang_shang_hua": True}, {},
     [["pengpenghu", 10], ["gangshanghua", 10], ["yinghu", 2]], 20, 16, each(320), ""),
    ("§5 gangshanghua-laizigang", XIAO + " laizigang:9p", "5m", True, {"gang_shang_hua": True},
     {}, [["gangshanghua", 10], ["yinghu", 2]], 10, 16, each(160), ""),
    ("§6 gangshanghua_as-factor", XIAO + " laizigang:9p", "5m", True,
     {"gang_shang_hua": True}, {"gangshanghua_as": "factor"},
     [["xiaohu", 1], ["gangshanghua", 2], ["yinghu", 2]], 1, 32, each(32), ""),
    ("§5 quanqiuren-self-draw-is-xiaohu", QQR, "5m", True, {}, {},
     [["xiaohu", 1], ["yinghu", 2]], 1, 4, each(4), ""),
    ("§5 quanqiuren_self_draw", QQR, "5m", True, {}, {"quanqiuren_self_draw": True},
     [["quanqiuren", 10], ["yinghu", 2]], 10, 4, each(40), ""),
    ("§5 quanqiuren-with-gang", "55m chi:123p peng:777s chi:456s gang:9999m", "5m", False, R,
     {}, [["quanqiuren", 10], ["yinghu", 2]], 10, 8, {"right": 240}, "quanqiuren"),
    ("§5 quanqiuren-not-with-angang", "55m chi:123p peng:777s chi:456s angang:9999m", "5m",
     False, R, {}, [["xiaohu", 1], ["yinghu", 2]], 1, 16, {"right": 16}, ""),
    ("§5 quanqiuren-ruan", "5m9p chi:123p peng:777s chi:456s peng:999m", "5m", False, R, {},
     [["quanqiuren", 10], ["ruanhu", 1]], 10, 2, {"right": 60}, "quanqiuren"),
    ("§5 quanqiuren-pizigang-doubles", QQR + " pizigang:7z", "5m", False, R, {},
     [["quanqiuren", 10], ["yinghu", 2]], 10, 8, {"right": 240}, "quanqiuren"),
    ("§5 qianggang-qingyise-any-pair", "123m456m789m11m chi:234m", "6m", False,
     {"robbed": "left"}, {}, [["qingyise", 10], ["qianggang", 10], ["yinghu", 2]], 20, 4,
     {"left": 240}, "qianggang"),
    ("§4 qidui+qingyise", "11223344556677m", "7m", True, {}, {"qidui": True, "must_open": False},
     [["qingyise", 10], ["qidui", 10], ["yinghu", 2]], 20, 2, each(40), ""),
    ("§4 yise_any_shape", "11122334455661z", "1z", True, {},
     {"yise_any_shape": True, "must_open": False}, [["fengyise", 10], ["yinghu", 2]], 10, 2,
     each(20), ""),
    ("§11 tie-ying-before-ruan", "222m555m9p9p peng:333m peng:777m", "9p", True, {}, {},
     [["pengpenghu", 10], ["yinghu", 2]], 10, 4, each(40), ""),
    # §6 factors, options and payment
    ("§6 payer-factors", XIAO, "5s", False,
     {"robbed": "across", "payer_melds": {"across": "peng:555s", "left": "gang:1111p"}}, {},
     [["qianggang", 10], ["yinghu", 2]], 10, 4, {"across": 280}, "qianggang"),
    ("§6 gang-opens-and-doubles", "456p789s345s55m gang:1111m", "5m", True, {}, {},
     [["xiaohu", 1], ["yinghu", 2]], 1, 8, each(8), ""),
    ("§2 bapi-pizigang-6z", XIAO + " pizigang:6z", "5m", True, {},
     {"pizi": "hongzhong_facai"}, [["xiaohu", 1], ["yinghu", 2]], 1, 8, each(8), ""),
    ("§11 factors-off-keeps-yinghu", XIAO + " laizigang:9p", "5m", True,
     {"payer_melds": {"left": "peng:111s angang:2222p"}}, {"factors": False},
     [["xiaohu", 1], ["yinghu", 2]], 1, 2, each(2), ""),
    ("§9 yinghu_factor-1", XIAO, "5m", True, {}, {"yinghu_factor": 1},
     [["xiaohu", 1], ["yinghu", 1]], 1, 2, each(2), ""),
    ("§9 bases", XIAO, "5m", True, {}, {"base_xiaohu": 5, "base_dahu": 15, "base_points": 2},
     [["xiaohu", 5], ["yinghu", 2]], 5, 4, each(40), ""),
    ("§6 dahu_discard_all_pay-xiaohu-unchanged", XIAO, "5m", False, L,
     {"dahu_discard_all_pay": True}, [["xiaohu", 1], ["yinghu", 2]], 1, 4, {"left": 4}, ""),
    ("§6 peichong_ratio", QYS_PENG, "8m", False, L,
     {"dahu_discard_all_pay": True, "peichong_ratio": "1/4"},
     [["pengpenghu", 10], ["qingyise", 10], ["yinghu", 2]], 20, 4,
     {"left": 80, "across": 20, "right": 20}, ""),
    ("§11 liability-beats-all-pay", "55m peng:111p peng:777s peng:444s peng:999m", "5m", False,
     R, {"dahu_discard_all_pay": True},
     [["pengpenghu", 10], ["quanqiuren", 10], ["yinghu", 2]], 20, 4, {"right": 240},
     "quanqiuren"),
    ("§11 cap-before-ratio", QYS_PENG, "8m", False, L,
     {"cap_points": 50, "dahu_discard_all_pay": True},
     [["pengpenghu", 10], ["qingyise", 10], ["yinghu", 2]], 20, 4,
     {"left": 50, "across": 25, "right": 25}, ""),
    ("§11 cap-before-sum", "55m peng:111p peng:777s peng:444s peng:999m", "5m", False, R,
     {"cap_points": 50}, [["pengpenghu", 10], ["quanqiuren", 10], ["yinghu", 2]], 20, 4,
     {"right": 150}, "quanqiuren"),
    ("§6 fangsanpu-jiangyise", "888s88p peng:222m peng:555p peng:222s", "8p", True,
     {"meld_from": ["left", "left", "left"]}, {},
     [["pengpenghu", 10], ["jiangyise", 10], ["yinghu", 2]], 20, 4, {"left": 240},
     "fangsanpu"),
    ("§6 no-fangsanpu-without-yise", "888s88p peng:222m peng:555p peng:333s", "8p", True,
     {"meld_from": ["left", "left", "left"]}, {}, [["pengpenghu", 10], ["yinghu", 2]], 10, 4,
     each(40), ""),
    ("§11 fangsanpu-each-with-own-F", "789m55m chi:123m peng:444m chi:567m", "5m", True,
     {"meld_from": ["left", "left", "left"], "payer_melds": {"across": "angang:1111p"}}, {},
     [["qingyise", 10], ["yinghu", 2]], 10, 4, {"left": 240}, "fangsanpu"),
]


@pytest.mark.parametrize(("section", "hand", "win", "self_drawn", "context", "options",
                          "patterns", "h", "w", "payments", "liable"), ROWS,
                         ids=[r[0] for r in ROWS])
def test_spec_row(section: str, hand: str, win: str, self_drawn: bool, context: dict[str, Any],
                  options: dict[str, Any], patterns: list[list[Any]], h: int, w: int,
                  payments: dict[str, int], liable: str) -> None:
    r = score(hand, win_tile=win, self_drawn=self_drawn, context={"laizi": "9p", **context},
              options=options or None)
    assert [[p.id, p.fan] for p in r.patterns] == patterns, section
    assert (r.hand_base, r.winner_factor, r.value) == (h, w, h * w), section
    assert paid(r) == payments and r.total == sum(payments.values()), section
    assert r.liable == liable, section


ERRORS: list[tuple[str, str, str, bool, dict[str, Any], dict[str, Any], str]] = [
    ("§7 pizi-before-must_open", "456p789s345s123m5m7z", "5m", True, {}, {}, "pizi_in_hand"),
    ("§7 must_open-before-not_a_win", "456p789s345s123m3m3m", "3m", True, {}, {}, "must_open"),
    ("§3 angang-does-not-open", "456p789s345s55m angang:1111m", "5m", True, {}, {},
     "must_open"),
    ("§5 two-wilds-in-xiaohu", "456p789s34s9p5m9p chi:123m", "5m", True, {}, {}, "not_a_win"),
    ("§9 xiaohu_max_laizi-0", "456p789s345s5m9p chi:123m", "5m", True, {},
     {"xiaohu_max_laizi": 0}, "not_a_win"),
    ("§5 quanqiuren-keeps-258", "33m chi:123p peng:777s chi:456s peng:999m", "3m", False, R, {},
     "not_a_win"),
    ("§5 haidilao-keeps-258", "123s456s33m chi:234p peng:777p", "3m", True, {"hai_di": True},
     {}, "not_a_win"),
    ("§11 factor-gangshanghua-keeps-one-wild", "456p789s34s9p5m9p chi:123m laizigang:9p", "5m",
     True, {"gang_shang_hua": True}, {"gangshanghua_as": "factor"}, "not_a_win"),
    ("§4 no-qidui-by-default", "11m33m55m22p44p66s2z9p", "2z", True, {}, {"must_open": False},
     "not_a_win"),
    ("§11 min_points", XIAO, "5m", True, {}, {"min_points": 5}, "below_min_points"),
    ("§11 laizi-in-peng", "456p789s345s55m peng:999p", "5m", True, {}, {}, "bad_meld"),
    ("§11 pizi-peng", "111z222z333z66z peng:777z", "6z", True, {}, {}, "bad_meld"),
    ("§11 laizigang-not-laizi", XIAO + " laizigang:8p", "5m", True, {}, {}, "bad_meld"),
    ("§11 pizigang-6z-not-pizi", XIAO + " pizigang:6z", "5m", True, {}, {}, "bad_meld"),
    ("§2 laizi-is-never-a-pizi", XIAO, "5m", True, {"laizi": "6z"},
     {"pizi": "hongzhong_facai"}, "bad_context"),
    ("§11 hai_di-on-discard", XIAO, "5m", False, {"hai_di": True, **L}, {}, "bad_context"),
    ("§11 hai_di-with-gangshanghua", "456p789s55m chi:123m angang:1111z", "5m", True,
     {"hai_di": True, "gang_shang_hua": True}, {}, "bad_context"),
    ("§11 gangshanghua-without-kong", XIAO, "5m", True, {"gang_shang_hua": True}, {},
     "bad_context"),
    ("§11 both-discarder-and-robbed", XIAO, "5s", False,
     {"robbed": "across", "discarder": "across"}, {}, "bad_context"),
    ("§11 neither-discarder-nor-robbed", XIAO, "5m", False, {}, {}, "bad_context"),
    ("§11 robbed-on-self-draw", XIAO, "5s", True, {"robbed": "across"}, {}, "bad_context"),
    ("§11 win-tile-not-in-hand", XIAO, "6m", True, {}, {}, "bad_context"),
    ("§1 five-copies", XIAO.replace("55m", "5m9p") + " laizigang:9p laizigang:9p laizigang:9p "
     "laizigang:9p", "5m", True, {}, {}, "tile_count"),
    ("§9 peichong_ratio-over-1", XIAO, "5m", True, {}, {"peichong_ratio": 1.5}, "bad_option"),
]


@pytest.mark.parametrize(("section", "hand", "win", "self_drawn", "context", "options",
                          "error"), ERRORS, ids=[e[0] for e in ERRORS])
def test_spec_error(section: str, hand: str, win: str, self_drawn: bool,
                    context: dict[str, Any], options: dict[str, Any], error: str) -> None:
    with pytest.raises(MahjongError) as err:
        score(hand, win_tile=win, self_drawn=self_drawn, context={"laizi": "9p", **context},
              options=options or None)
    assert err.value.code == error, section


@pytest.mark.parametrize(("indicator", "pizi", "laizi"), [
    ("8p", "hongzhong", "9p"), ("9m", "hongzhong", "1m"), ("4z", "hongzhong", "6z"),
    ("4z", "hongzhong_facai", "5z"), ("5z", "hongzhong", "1z"), ("7z", "hongzhong", "6z"),
])
def test_indicator_gives_the_next_kind_skipping_pizi(indicator: str, pizi: str,
                                                     laizi: str) -> None:
    """§2: the 赖子 is the kind after the turned-up tile (1→…→9→1; 东→南→西→北→中→发→白→东),
    a 痞子 skipped; the 赖子 then pairs with 5m as a wild (软 小胡)."""
    r = score(f"456p789s345s5m{laizi} chi:234m", win_tile="5m", self_drawn=True,
              context={"indicator": indicator}, options={"pizi": pizi})
    assert [[p.id, p.fan] for p in r.patterns] == [["xiaohu", 1], ["ruanhu", 1]]


def test_moves_from_the_rules_text() -> None:
    """§2-§3: 痞子 and 赖子 are never claimed and never in a chi; a hu needs an opened hand;
    in the 海底 (fewer than 4 drawable tiles after the draw) only a self-drawn hu or a pass;
    only a bugang is robbed; one winner per discard, the first after the discarder."""
    def check(view: Any, move: str) -> str:
        c = validate_move(view, Move.parse(move))
        return "ok" if c.ok else c.code

    def view(hand: str, phase: str = "turn", **kw: Any) -> Any:
        return TableView(seat=1, hand=Hand.parse(hand), phase=phase, **kw)

    def claim(hand: str, tile: str, frm: int = 0) -> Any:
        return view(hand, "claim", pending_tile=tile, pending_from=frm)

    assert check(claim("77z456p789s34s5m chi:123m", "7z"), "peng 7z") == "not_claimable"
    assert check(claim("9p9p456p789s34s5m chi:123m", "9p"), "peng 9p") == "not_claimable"
    assert check(claim("89p456p789s34s5m chi:123m", "7p"), "chi 7p 8p 9p") == "laizi_in_meld"
    assert check(claim("456p789s345s123m5m", "5m"), "hu") == "must_open"
    assert check(claim("456p789s345s5m chi:123m", "5m"), "hu") == "ok"
    haidi = view("456p789s345s55m chi:123m", drawn_tile="5m", wall_count=3)
    assert sorted(m.to_text() for m in legal_moves(haidi)) == ["hu", "pass"]
    assert check(view("456p789s345s55m1z chi:123m", drawn_tile="1z", wall_count=3),
                 "discard 1z") == "haidi"
    rob = view("456p789s345s5m chi:123m", "rob", pending_tile="5m", pending_from=2,
               pending_kind="angang")
    assert check(rob, "hu") == "cannot_rob"
    hu = Move.parse("hu")
    assert resolve_claims(2, {1: hu, 3: hu}) == ((3, hu),)
