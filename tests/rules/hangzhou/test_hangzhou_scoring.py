"""Scoring, written from the rules text (the spec's section in each docstring)."""

from __future__ import annotations

from typing import Any

import pytest
from hangzhou_api import as_spec, baiban, describe, resolve_options, score

from mjcore import MahjongError
from mjcore.rules.common import compiled


def ids(result: Any) -> list[tuple[str, int]]:
    return [(h.id, h.fan) for h in result.patterns]


def code(hand: str, **kw: Any) -> str:
    with pytest.raises(MahjongError) as err:
        score(hand, **kw)
    return err.value.code


# ---------------------------------------------------------------- §2 the 财神


def test_flip_wild_is_the_context_kind_and_baiban_plays_as_it() -> None:
    """§2: the turned-up kind T is wild; every 白板 is a natural T. With T = 9s, 9s is the
    wild in 123m456p78s + 9s…, and 12m + 5z is a natural 123m run when T = 3m."""
    r = score("123m456p78s111z9s77p", win_tile="7p", self_drawn=True, context={"caishen": "9s"})
    assert ids(r) == [("pinghu", 0)]  # 9s stands for 9s/6s; 77p is the pair: no wild pair
    r = score("123m456p789s111z9s7p", win_tile="7p", self_drawn=True, context={"caishen": "9s"})
    assert ids(r) == [("baotou", 1)]  # the 9s is a wild held alone: 爆头
    # the same tiles with T = 3m: 9s is natural, nothing pairs the 7p
    assert code("123m456p789s111z9s7p", win_tile="7p", self_drawn=True,
                context={"caishen": "3m"}) == "not_a_win"
    # the 白板 is a natural 3m: 5z completes 12m, and a 5z never pairs as a wild
    assert ids(score("12m5z456p789s111z99m", win_tile="9m", self_drawn=True,
                     context={"caishen": "3m"})) == [("pinghu", 0)]
    assert code("123m456p789s111z5z7p", win_tile="7p", self_drawn=True,
                context={"caishen": "8p"}) == "not_a_win"  # the 5z is a natural 8p


def test_baiban_as_the_turned_up_kind_and_baiban_mode() -> None:
    """§2: T = 白板 in flip mode: the four 白板 are the wilds, nothing stands in; baiban mode
    is the same wild without a context (and refuses another 财神)."""
    hand = "123m456p789s111z5z7p"
    a = score(hand, win_tile="7p", self_drawn=True, context={"caishen": "5z"})
    b = score(hand, win_tile="7p", self_drawn=True, options=baiban())
    assert ids(a) == ids(b) == [("baotou", 1)]
    assert ids(score(hand, win_tile="7p", self_drawn=True, options=baiban(),
                     context={"caishen": "5z"})) == [("baotou", 1)]
    assert code(hand, win_tile="7p", self_drawn=True, options=baiban(),
                context={"caishen": "3m"}) == "bad_context"
    assert code(hand, win_tile="7p", self_drawn=True) == "bad_context"  # flip: caishen missing


def test_indicator_same_and_next() -> None:
    """§2: ``indicator`` instead of ``caishen``: its own kind (same) or the next kind; the two
    must agree when both are given."""
    hand = "123m456p789s111z9s7p"
    assert ids(score(hand, win_tile="7p", self_drawn=True,
                     context={"indicator": "9s"})) == [("baotou", 1)]
    nxt = {"caishen_from_indicator": "next"}
    assert ids(score(hand, win_tile="7p", self_drawn=True, context={"indicator": "8s"},
                     options=nxt)) == [("baotou", 1)]
    assert code(hand, win_tile="7p", self_drawn=True, context={"indicator": "9s"},
                options=nxt) == "not_a_win"  # 9s → 1s is wild, not 9s
    assert code(hand, win_tile="7p", self_drawn=True,
                context={"indicator": "8s", "caishen": "9s"}) == "bad_context"
    assert ids(score(hand, win_tile="7p", self_drawn=True,
                     context={"indicator": "8s", "caishen": "9s"}, options=nxt)) == [("baotou", 1)]


def test_next_kind_order() -> None:
    """§2: 1→2…9→1 within a suit; 东→南→西→北→中→发→白→东."""
    from mjcore.rules.hangzhou.scoring import next_kind
    from mjcore.tiles import tile_id, tile_to_text

    def nxt(t: str) -> str:
        return tile_to_text(next_kind(tile_id(t)))
    assert [nxt(t) for t in ("1m", "9m", "9p", "5s", "1z", "4z", "7z", "6z", "5z")] == [
        "2m", "1m", "1p", "6s", "2z", "7z", "6z", "5z", "1z"]


def test_wild_may_stand_for_a_fifth_copy_unless_limited() -> None:
    """§2 Decision: no copy limit on what wilds stand for (option wild_copy_limit)."""
    hand = "1111m234p567s789s5z"  # 111m + 1m and the wild: pair of 1m = a fifth 1m
    assert ids(score(hand, win_tile="5z", self_drawn=True, options=baiban())) == [("pinghu", 0)]
    assert code(hand, win_tile="5z", self_drawn=True,
                options=baiban(wild_copy_limit=True)) == "not_a_win"


def test_wilds_never_in_melds_unless_option() -> None:
    """§2 Decision: a wild is never part of a declared meld (wild_in_meld); a natural T (a 5z
    in flip mode) is an ordinary tile, melds included; a malformed meld is bad_meld."""
    ctx = {"caishen": "3m"}
    assert code("456p789s111z77s chi:12m3m", win_tile="7s", self_drawn=True,
                context=ctx) == "wild_in_meld"
    assert ids(score("456p789s111z77s chi:12m5z", win_tile="7s", self_drawn=True,
                     context=ctx)) == [("pinghu", 0)]
    assert ids(score("456p789s111z77s peng:555z", win_tile="7s", self_drawn=True,
                     context=ctx)) == [("pinghu", 0)]  # a pung of natural 3m
    assert code("456p789s111z77s chi:12m5z", win_tile="7s", self_drawn=True,
                context={"caishen": "4m"}) == "bad_meld"  # 5z is a 4m: 1-2-4 is no run
    assert code("456p789s111z77s chi:13m7p", win_tile="7s", self_drawn=True,
                context={"caishen": "6z"}) == "bad_meld"
    assert ids(score("456p789s111z77s peng:11m3m", win_tile="7s", self_drawn=True, context=ctx,
                     options={"wild_in_melds": True})) == [("pinghu", 0)]
    assert code("456p789s111z77s peng:12m3m", win_tile="7s", self_drawn=True, context=ctx,
                options={"wild_in_melds": True}) == "bad_meld"


# ---------------------------------------------------------------- §5 爆头 and 飘


def test_baotou_is_self_drawn_only() -> None:
    """§5: a win on a discard is never 爆头."""
    ctx = {"dealer": "self", "dealer_streak": 2, "discarder": "left"}
    r = score("123m456p789s111z5z7p", win_tile="7p", context=ctx, options=baiban())
    assert ids(r) == [("pinghu", 0)] and r.payments == ((3, 0, 1),)


def test_baotou_drawn_wild_and_wilds_in_sets() -> None:
    """§5: the drawn tile may be a wild (two wilds pair); the four sets may hold wilds unless
    baotou_wilds_in_sets is off (HZ-16 is the other half)."""
    assert ids(score("123m456p789s111z5z5z", win_tile="5z", self_drawn=True,
                     options=baiban())) == [("baotou", 1)]
    hand = "13m456p789s111z5z5z7p"
    assert ids(score(hand, win_tile="7p", self_drawn=True, options=baiban())) == [("baotou", 1)]
    # the pair must hold the drawn tile: drawn 3m here pairs with nothing
    assert ids(score("13m456p789s111z5z77p", win_tile="3m", self_drawn=True,
                     options=baiban())) == [("pinghu", 0)]


def test_piao_counts_and_limits() -> None:
    """§5, §6: each consecutive 飘 doubles again; piao_max limits how many count; a 飘 count on
    a win that is not 爆头, or more 财神 than exist, is bad_context."""
    hand = "123m456p789s111z5z7p"
    fan = [score(hand, win_tile="7p", self_drawn=True, options=baiban(),
                 context={"piao_count": n}).fan for n in range(4)]
    assert fan == [1, 2, 3, 4]
    assert ids(score(hand, win_tile="7p", self_drawn=True, options=baiban(),
                     context={"piao_count": 3})) == [("san_caipiao", 4)]
    assert score(hand, win_tile="7p", self_drawn=True, options=baiban(piao_max=1),
                 context={"piao_count": 3}).fan == 2
    assert code("123m456m789p234s55s", win_tile="5s", self_drawn=True, options=baiban(),
                context={"piao_count": 1}) == "bad_context"
    assert code("123m456p789s111z5z5z", win_tile="5z", self_drawn=True, options=baiban(),
                context={"piao_count": 3}) == "bad_context"  # 3 飘 + 2 held = 5 财神
    ctx = {"piao_count": 1, "dealer": "self", "dealer_streak": 2, "discarder": "left"}
    assert code(hand, win_tile="7p", options=baiban(), context=ctx) == "bad_context"


def test_kong_events() -> None:
    """§6: 杠开 any kong kind; 杠暴; 杠飘 (2 + n); 飘杠 when gang_kai holds, with or without
    piao_on_gang; a chain of kongs counts once; gang_kai needs a kong and a self-draw."""
    bao = "123m456p789s5z3p"
    for kong in ("angang:1111z", "gang:1111z", "bugang:1111z"):
        assert ids(score(f"123m456m789p55s {kong}", win_tile="5s", self_drawn=True,
                         options=baiban(), context={"gang_kai": True})) == [("gangkai", 1)]
    r = score(f"{bao} angang:1111z", win_tile="3p", self_drawn=True, options=baiban(),
              context={"piao_count": 2, "piao_on_gang": True})
    assert ids(r) == [("gangpiao", 4)] and r.multiplier == 16
    r = score(f"{bao} angang:1111z", win_tile="3p", self_drawn=True, options=baiban(),
              context={"piao_count": 1, "piao_on_gang": True, "gang_kai": True})
    assert ids(r) == [("piaogang", 3)]
    assert code("123m456m789p234s55s", win_tile="5s", self_drawn=True, options=baiban(),
                context={"gang_kai": True}) == "bad_context"
    assert code(f"{bao} angang:1111z", win_tile="3p", self_drawn=True, options=baiban(),
                context={"piao_on_gang": True}) == "bad_context"


# ---------------------------------------------------------------- §4, §6 七对


def test_qidui_with_wilds() -> None:
    """§4: a pair may be two naturals, a natural and a wild, or two wilds; §6 Decision: three
    naturals and a wild are two ordinary pairs unless haohua_with_wild."""
    assert ids(score("11m33m55m22p44p5z5z7z7z", win_tile="7z", self_drawn=True,
                     options=baiban())) == [("qidui", 1)]
    hand = "111m33m55m22p44p5z7z7z"
    assert ids(score(hand, win_tile="7z", self_drawn=True, options=baiban())) == [("qidui", 1)]
    assert ids(score(hand, win_tile="7z", self_drawn=True,
                     options=baiban(haohua_with_wild=True))) == [("haohua_qidui", 2)]
    # a natural 3m group of four in flip mode: 白板 are naturals
    assert ids(score("5z5z5z5z11m22p44p99s77z", win_tile="7z", self_drawn=True,
                     context={"caishen": "3m"})) == [("haohua_qidui", 2)]


def test_ties_report_the_pattern_first_in_the_table() -> None:
    """§12: equal multipliers: the reading whose highest pattern comes first in §6."""
    r = score("112233m445566p7p5z", win_tile="7p", self_drawn=True, options=baiban())
    assert ids(r) == [("qidui", 1)]  # 七对 ×2 beats 暴头 ×2
    hand = "1111m2222m3333m7p5z"
    assert ids(score(hand, win_tile="7p", self_drawn=True, options=baiban(),
                     context={"piao_count": 3})) == [("san_haohua_qidui", 4)]
    assert ids(score("112233m445566p7p5z", win_tile="7p", self_drawn=True, options=baiban(),
                     context={"piao_count": 1})) == [("caipiao", 2)]


def test_qidui_baotou_option() -> None:
    """§6 Decision, §12: with qidui_baotou a self-drawn 七对 whose drawn tile pairs with a wild
    is 爆头 too (飘 rules included); the drawn tile's group of four is no 豪华 group then."""
    o = baiban(qidui_baotou=True)
    assert ids(score("11m33m55m22p44p66p7z5z", win_tile="7z", self_drawn=True,
                     options=o, context={"piao_count": 1})) == [("qidui", 1), ("caipiao", 2)]
    # drawn 1m of a natural 1111m: either 豪华七对 ×4, or 七对 + 暴头 ×4 (the group broken):
    # a tie, and the second reading's highest pattern (七对) comes first in the table
    r = score("1111m33m55m22p44p5z5z", win_tile="1m", self_drawn=True, options=o)
    assert ids(r) == [("qidui", 1), ("baotou", 1)]
    assert ids(score("1111m33m55m22p44p5z5z", win_tile="1m", self_drawn=True,
                     options=baiban())) == [("haohua_qidui", 2)]


# ---------------------------------------------------------------- §7, §8 payments


def test_discard_payments_and_claim_refusals() -> None:
    """§3, §7 step 2, §8: the discarder alone pays P (or 3P); the refusals in their order."""
    hand = "123m456m789p234s55s"
    ctx = {"dealer": "self", "dealer_streak": 2, "discarder": "across"}
    r = score(hand, win_tile="5s", context=ctx, options=baiban(base_points=5))
    assert r.payments == ((2, 0, 5),) and r.liable == ""
    r = score(hand, win_tile="5s", context=ctx,
              options=baiban(discard_payment="discarder_pays_three"))
    assert as_spec(r)["points"] == {"from": {"across": 3}, "winner_total": 3}
    # 放冲 to the dealer's discard is fine; 闲家 to 闲家 is not; streak 1 with the option
    assert score(hand, win_tile="5s", options=baiban(), context={
        "dealer": "left", "dealer_streak": 2, "discarder": "left"}).fan == 0
    assert code(hand, win_tile="5s", options=baiban(fangchong_min_streak=1), context={
        "dealer": "across", "dealer_streak": 1, "discarder": "left"}) == "xianjia_to_xianjia"
    assert score(hand, win_tile="5s", options=baiban(fangchong_min_streak=1), context={
        "dealer": "self", "dealer_streak": 1, "discarder": "left"}).fan == 0
    # order: a wild discard first, then the lock, then 平庄
    wild = "123m456m789p234s5s5z"
    assert code(wild, win_tile="5z", options=baiban(), context={
        "dealer": "right", "dealer_streak": 0, "discarder": "left",
        "piao_lock": True}) == "caishen_not_claimable"
    assert code(hand, win_tile="5s", options=baiban(), context={
        "dealer": "right", "dealer_streak": 0, "discarder": "left",
        "piao_lock": True}) == "piao_lock"
    assert code(hand, win_tile="5s", options=baiban(piao_lock=False), context={
        "dealer": "right", "dealer_streak": 0, "discarder": "left",
        "piao_lock": True}) == "pingzhuang"
    assert score(wild, win_tile="5z", options=baiban(wild_discard_claimable=True), context={
        "dealer": "self", "dealer_streak": 2, "discarder": "left"}).fan == 0
    # a claim refusal comes before not_a_win; the discard context must name both seats
    assert code("123m456m789p234s59s", win_tile="5s", options=baiban(), context={
        "dealer": "right", "dealer_streak": 0, "discarder": "left"}) == "pingzhuang"
    assert code(hand, win_tile="5s", options=baiban(), context={"dealer": "self"}) == "bad_context"


def test_chengbao() -> None:
    """§8: three chi/peng claims on one seat, then a self-draw: that seat pays 3P alone; a
    discard win is paid as usual; §12 ties: most claims, then left, across, right."""
    hand = "789s55m chi:123m peng:777p chi:456s"
    ctx: dict[str, Any] = {"caishen": "9p", "claims_from": {"left": 3}, "winner": 2}
    r = score(hand, win_tile="5m", self_drawn=True, context=ctx)
    assert r.payments == ((1, 2, 3),) and (r.liable, r.liable_seat) == ("chengbao", 1)
    r = score(hand, win_tile="5m", self_drawn=True, context={**ctx, "claims_from": {"left": 2}})
    assert r.liable == "" and sorted(r.payments) == [(0, 2, 1), (1, 2, 1), (3, 2, 1)]
    r = score(hand, win_tile="5m", context={**ctx, "dealer": "across", "dealer_streak": 2,
                                            "discarder": "across"})
    assert r.liable == "" and r.payments == ((0, 2, 1),)
    low = {"chengbao_threshold": 1}
    seat = score(hand, win_tile="5m", self_drawn=True, options=low, context={
        **ctx, "claims_from": {"right": 1, "left": 1, "across": 1}}).liable_seat
    assert seat == 1  # left of seat 2
    seat = score(hand, win_tile="5m", self_drawn=True, options=low, context={
        **ctx, "claims_from": {"right": 2, "left": 1}}).liable_seat
    assert seat == 3  # right of seat 2
    assert score(hand, win_tile="5m", self_drawn=True, options={"chengbao_threshold": 0},
                 context=ctx).liable == ""


def test_cap_and_fan_reporting() -> None:
    """§7 step 5: the multiplier is limited by max_multiplier; patterns and fan are not."""
    r = score("1111m2222m3333m44p", win_tile="4p", self_drawn=True,
              options=baiban(max_multiplier=4, base_points=2))
    assert (r.fan, r.value_uncapped, r.multiplier, r.amount) == (4, 4, 4, 8)
    assert r.unit == "fan" and r.ruleset == "hangzhou"


def test_description_and_presets() -> None:
    """The table, options and presets as data (§6, §10)."""
    d = describe()
    assert [p["id"] for p in d["patterns"]] == ["pinghu", "qidui", "haohua_qidui",
                                               "shuang_haohua_qidui", "san_haohua_qidui"]
    assert [e["id"] for e in d["extras"]] == ["baotou", "caipiao", "shuang_caipiao",
                                             "san_caipiao", "gangkai", "gangbao", "gangpiao",
                                             "piaogang"]
    assert d["policy"]["kind"] == "shape_times_event" and d["policy"]["exponent"]
    assert d["policy"]["cap_option"] == "max_multiplier" and d["unit"] == "fan"
    assert {o["name"] for o in d["options"]} == {
        "caishen_mode", "caishen_from_indicator", "wild_copy_limit", "wild_in_melds",
        "wild_discard_claimable", "baotou_wilds_in_sets", "piao_max", "qidui_baotou",
        "haohua_with_wild", "fangchong_min_streak", "louhu_scope", "piao_lock",
        "chengbao_threshold", "chengbao_counts_gang", "discard_payment", "max_multiplier",
        "base_points"}
    o = resolve_options(preset="baiban_capped")
    assert (o.caishen_mode, o.max_multiplier) == ("baiban", 16)
    assert resolve_options(preset="hangzhou").as_dict() == resolve_options().as_dict()
    assert {c["id"] for c in d["reason_codes"]} >= {
        "caishen_not_claimable", "piao_lock", "pingzhuang", "xianjia_to_xianjia", "louhu",
        "chi_not_from_left", "not_your_turn"}


def test_is_piao() -> None:
    """§5: 2 财神 + 四比牌 that could win as 爆头, a wild discarded instead, still 爆头 state."""
    from mjcore.rules.hangzhou import is_piao

    o = resolve_options(baiban())
    assert is_piao("123m456p789s111z5z5z", "5z", "5z", None, o)  # drew the second wild
    assert is_piao("123m456p789s111z5z7p", "7p", "5z", None, o) is False  # nothing left alone
    assert is_piao("123m456p789s111z5z7p", "7p", "7p", None, o) is False  # not a wild
    assert is_piao("13m456p789s111z5z5z7p", "7p", "5z", None, o) is False  # 13m needs it
    assert is_piao("123m456p789s9s5z5z7p", "7p", "5z", {"caishen": "9s"},
                   resolve_options()) is False  # flip 9s: the 5z are natural 9s
    assert is_piao("123m456p789s111z9s9s", "9s", "9s", {"caishen": "9s"}, resolve_options())


def test_resolve_claims_first_from_the_dealer() -> None:
    """§3: one winner per discard, the first counting from the dealer; else 碰/杠, else 吃."""
    from mjcore import Move
    from mjcore.rules.hangzhou import resolve_claims

    hu, peng, chi = Move("hu"), Move.make("peng", "5s"), Move.make("chi", "4s", "5s", "6s")
    assert resolve_claims(2, 2, {0: hu, 3: hu, 1: peng}) == ((3, hu),)
    assert resolve_claims(0, 2, {3: hu, 1: hu}) == ((1, hu),)
    assert resolve_claims(0, 2, {3: chi, 1: peng}) == ((1, peng),)
    assert resolve_claims(0, 2, {3: chi, 1: Move("pass")}) == ((3, chi),)


def test_memos_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every memo of the scorer is cleared when full: a stream of distinct hands never grows
    them past the limit."""
    from mjcore.rules.hangzhou import scoring

    memos = (scoring._PARSED, scoring._ANALYSES, scoring._RESULTS)
    for memo in memos:
        monkeypatch.setattr(memo, "limit", 8)
    scoring.clear_caches()
    for suit in "mps":
        for k in range(1, 10):  # 27 distinct 爆头 wins
            score(f"123m456p789s111z5z{k}{suit}", win_tile=f"{k}{suit}", self_drawn=True,
                  options=baiban())
    # the Python path's memos; the compiled path keeps answers only in the compiled tables'
    # cache, of fixed size (MJ_PURE_SCORING decides which path runs)
    assert all(len(memo) <= 8 for memo in memos) and any(memos) == compiled.PURE
