"""An independent audit of hangzhou.md, written from the spec's text: one small case per rule,
option or error code (each test names its section)."""

from __future__ import annotations

from typing import Any

import pytest
from hangzhou_api import (
    TableView,
    as_spec,
    baiban,
    legal_moves,
    resolve_options,
    score,
    settle,
    validate_move,
)

from mjcore import Hand, MahjongError
from mjcore.rules.hangzhou import resolve_claims
from mjcore.table import HandStart, Move, Win

BAOTOU = "123m456p789s111z5z7p"  # four sets + a held 白板; 7p drawn pairs with it
PINGHU = "123m456m789p234s55s"
DEALER_DISCARDS = {"dealer": "left", "dealer_streak": 2, "discarder": "left"}


def spec(hand: str, win: str, self_drawn: bool, context: dict[str, Any] | None = None,
         **options: Any) -> dict[str, Any]:
    return as_spec(score(hand, win_tile=win, self_drawn=self_drawn, context=context,
                         options=baiban(**options)))


def code(hand: str, win: str, self_drawn: bool, context: dict[str, Any] | None = None,
         options: dict[str, Any] | None = None) -> str:
    with pytest.raises(MahjongError) as err:
        score(hand, win_tile=win, self_drawn=self_drawn, context=context, options=options)
    return err.value.code


def test_max_multiplier_takes_any_power_of_two() -> None:
    """§10: ``max_multiplier`` is "none or a power of two" (any power, 512 included; "none"
    written as text too, as every other option that may be none); 3 is not a power of two."""
    for cap in (1, 16, 256, 512, 1 << 20):
        assert resolve_options(baiban(max_multiplier=cap)).max_multiplier == cap
    assert resolve_options(baiban(max_multiplier="none")).max_multiplier is None
    for bad in (0, 3, 24, -2):
        with pytest.raises(MahjongError) as err:
            resolve_options(baiban(max_multiplier=bad))
        assert err.value.code == "bad_option"
    # a cap above the hand's multiplier changes nothing; patterns and fan are never capped
    r = spec(BAOTOU, "7p", True, {"piao_count": 3}, max_multiplier=512)
    assert (r["multiplier"], r["fan"], r["patterns"]) == (16, 4, [["san_caipiao", 4]])


GANG = "123m456p789s5z3p angang:1111z"  # 爆头 on a kong replacement
CHENGBAO = "123m55s chi:123p peng:777s chi:345s"
ROWS: list[tuple[str, str, str, bool, dict[str, Any], dict[str, Any], list[list[Any]], int,
                 dict[str, int]]] = [
    # §5/§6 events: b + n + g
    ("§5 baotou-drawn-wild", "123m456p789s111z5z5z", "5z", True, {}, {}, [["baotou", 1]], 2,
     {"left": 2, "across": 2, "right": 2}),
    ("§5 drawn-wild-without-held-wild", "123m456p789s111z7p5z", "5z", True, {}, {},
     [["pinghu", 0]], 1, {"left": 1, "across": 1, "right": 1}),
    ("§5 no-baotou-on-discard", BAOTOU, "7p", False, {"dealer": "self", "dealer_streak": 2,
                                                      "discarder": "left"}, {},
     [["pinghu", 0]], 1, {"left": 1}),
    ("§6 shuang_caipiao", BAOTOU, "7p", True, {"piao_count": 2}, {}, [["shuang_caipiao", 3]],
     8, {"left": 8, "across": 8, "right": 8}),
    ("§6 piao_max-1", BAOTOU, "7p", True, {"piao_count": 3}, {"piao_max": 1},
     [["caipiao", 2]], 4, {"left": 4, "across": 4, "right": 4}),
    ("§6 gangkai-any-kong", "123m456p789s55s gang:1111z", "5s", True, {"gang_kai": True}, {},
     [["gangkai", 1]], 2, {"left": 2, "across": 2, "right": 2}),
    ("§6 gangbao", GANG, "3p", True, {"gang_kai": True}, {}, [["gangbao", 2]], 4,
     {"left": 4, "across": 4, "right": 4}),
    ("§6 gangpiao-n2", GANG, "3p", True, {"piao_count": 2, "piao_on_gang": True}, {},
     [["gangpiao", 4]], 16, {"left": 16, "across": 16, "right": 16}),
    ("§6 piaogang-both-flags-g1", GANG, "3p", True,
     {"piao_count": 1, "gang_kai": True, "piao_on_gang": True}, {}, [["piaogang", 3]], 8,
     {"left": 8, "across": 8, "right": 8}),
    ("§5 baotou_wilds_in_sets-false", "123m456p78s5z111z5z7p", "7p", True, {},
     {"baotou_wilds_in_sets": False}, [["pinghu", 0]], 1,
     {"left": 1, "across": 1, "right": 1}),
    # §6 七对 shapes; 豪华 needs four naturals
    ("§6 shuang_haohua", "1111m3333m22p44p77z", "7z", True, {}, {},
     [["shuang_haohua_qidui", 3]], 8, {"left": 8, "across": 8, "right": 8}),
    ("§6 haohua-not-with-wild", "111m5z33m55m22p44p77z", "7z", True, {}, {}, [["qidui", 1]], 2,
     {"left": 2, "across": 2, "right": 2}),
    ("§6 haohua_with_wild", "111m5z33m55m22p44p77z", "7z", True, {},
     {"haohua_with_wild": True}, [["haohua_qidui", 2]], 4,
     {"left": 4, "across": 4, "right": 4}),
    ("§6 qidui_baotou+caipiao", "11m33m55m22p44p66p5z7z", "7z", True, {"piao_count": 1},
     {"qidui_baotou": True}, [["qidui", 1], ["caipiao", 2]], 8,
     {"left": 8, "across": 8, "right": 8}),
    ("§12 tie-qidui-before-baotou", "112233m445566p5z7z", "7z", True, {}, {}, [["qidui", 1]],
     2, {"left": 2, "across": 2, "right": 2}),
    # §2 wilds
    ("§2 fifth-copy-allowed", "1111m5z234p567s789s", "9s", True, {}, {}, [["pinghu", 0]], 1,
     {"left": 1, "across": 1, "right": 1}),
    ("§2 wild_in_melds", "123m55s chi:12p5z peng:777s chi:345s", "5s", True, {},
     {"wild_in_melds": True}, [["pinghu", 0]], 1, {"left": 1, "across": 1, "right": 1}),
    # §8 payment and 承包
    ("§8 discarder_pays_three", PINGHU, "5s", False, DEALER_DISCARDS,
     {"discard_payment": "discarder_pays_three"}, [["pinghu", 0]], 1, {"left": 3}),
    ("§8 chengbao", CHENGBAO, "5s", True, {"claims_from": {"left": 3}}, {}, [["pinghu", 0]], 1,
     {"left": 3}),
    ("§8 chengbao-not-on-discard", CHENGBAO, "5s", False,
     {**DEALER_DISCARDS, "claims_from": {"left": 3}}, {}, [["pinghu", 0]], 1, {"left": 1}),
    ("§8 chengbao_threshold-0-off", CHENGBAO, "5s", True, {"claims_from": {"left": 3}},
     {"chengbao_threshold": 0}, [["pinghu", 0]], 1, {"left": 1, "across": 1, "right": 1}),
    ("§12 chengbao-more-claims-pays", CHENGBAO, "5s", True,
     {"claims_from": {"across": 2, "right": 3}}, {"chengbao_threshold": 2}, [["pinghu", 0]], 1,
     {"right": 3}),
    ("§12 chengbao-equal-claims-left-first", CHENGBAO, "5s", True,
     {"claims_from": {"across": 2, "left": 2}}, {"chengbao_threshold": 2}, [["pinghu", 0]], 1,
     {"left": 3}),
    ("§3 fangchong_min_streak-1", PINGHU, "5s", False,
     {"dealer": "self", "dealer_streak": 1, "discarder": "left"}, {"fangchong_min_streak": 1},
     [["pinghu", 0]], 1, {"left": 1}),
    ("§3 louhu-self-draw-stays-legal", PINGHU, "5s", True, {"passed_win_tiles": ["5s"]}, {},
     [["pinghu", 0]], 1, {"left": 1, "across": 1, "right": 1}),
]


@pytest.mark.parametrize(("section", "hand", "win", "self_drawn", "context", "options",
                          "patterns", "multiplier", "paid"), ROWS, ids=[r[0] for r in ROWS])
def test_spec_row(section: str, hand: str, win: str, self_drawn: bool,
                  context: dict[str, Any], options: dict[str, Any], patterns: list[list[Any]],
                  multiplier: int, paid: dict[str, int]) -> None:
    r = spec(hand, win, self_drawn, context, **options)
    assert (r["patterns"], r["multiplier"]) == (patterns, multiplier), section
    assert r["points"]["from"] == paid, section
    assert r["points"]["winner_total"] == sum(paid.values()), section


def test_flip_mode_stand_in_and_indicator() -> None:
    """§2: with T = 3m the physical 3m is wild and a 5z plays as a natural 3m; 爆头 needs the
    drawn tile to pair with a held wild (a drawn 5z is a natural, so not 爆头); ``indicator``
    with ``next`` skips nothing: 北 → 中, 白 → 东 (wuhan.md's honour order)."""
    hand = "123m456p789s111z9s5z"  # 12m + 5z = 123m; the 3m wild pairs with 9s
    assert as_spec(score(hand, win_tile="9s", self_drawn=True,
                         context={"caishen": "3m"}))["patterns"] == [["baotou", 1]]
    assert as_spec(score(hand, win_tile="5z", self_drawn=True,
                         context={"caishen": "3m"}))["patterns"] == [["pinghu", 0]]
    nxt = {"caishen_from_indicator": "next"}
    for indicator, wild in (("4z", "7z"), ("7z", "6z"), ("5z", "1z"), ("9m", "1m")):
        r = score(f"123p456p789s111s{wild}7p", win_tile="7p", self_drawn=True,
                  context={"indicator": indicator}, options=nxt)
        assert as_spec(r)["patterns"] == [["baotou", 1]], indicator


ERRORS: list[tuple[str, str, str, bool, dict[str, Any], dict[str, Any], str]] = [
    ("§7 order-piao_count-before-refusals", BAOTOU, "7p", False,
     {"piao_count": 1, "dealer": "self", "dealer_streak": 0, "discarder": "left"}, {},
     "bad_context"),
    ("§1 piao_on_gang-without-count", BAOTOU, "7p", True, {"piao_on_gang": True}, {},
     "bad_context"),
    ("§1 gang_kai-without-kong", PINGHU, "5s", True, {"gang_kai": True}, {}, "bad_context"),
    ("§7 wild-discard-first", "123m456m789p234s5z5s", "5z", False,
     {"dealer": "left", "dealer_streak": 0, "discarder": "left"}, {}, "caishen_not_claimable"),
    ("§7 lock-before-pingzhuang", PINGHU, "5s", False,
     {"dealer": "across", "dealer_streak": 0, "discarder": "left", "piao_lock": True}, {},
     "piao_lock"),
    ("§7 pingzhuang-before-xianjia", PINGHU, "5s", False,
     {"dealer": "across", "dealer_streak": 0, "discarder": "left"}, {}, "pingzhuang"),
    ("§3 xianjia_to_xianjia", PINGHU, "5s", False,
     {"dealer": "across", "dealer_streak": 3, "discarder": "left"}, {}, "xianjia_to_xianjia"),
    ("§3 louhu", PINGHU, "5s", False, {**DEALER_DISCARDS, "passed_win_tiles": ["5s"]}, {},
     "louhu"),
    ("§3 lock-on-qidui", "11m33m55m22p44p66p77z", "7z", False,
     {**DEALER_DISCARDS, "piao_lock": True}, {}, "piao_lock"),
    ("§2 5th-copy-with-wild_copy_limit", "1111m5z234p567s789s", "9s", True, {},
     {"wild_copy_limit": True}, "not_a_win"),
    ("§1 wild-in-meld", CHENGBAO.replace("chi:123p", "chi:12p5z"), "5s", True, {}, {},
     "wild_in_meld"),
    ("§12 caishen-not-5z-in-baiban", PINGHU, "5s", True, {"caishen": "3m"}, {}, "bad_context"),
    ("§12 discard-without-dealer", PINGHU, "5s", False, {"discarder": "left",
                                                         "dealer_streak": 3}, {},
     "bad_context"),
]


@pytest.mark.parametrize(("section", "hand", "win", "self_drawn", "context", "options",
                          "error"), ERRORS, ids=[e[0] for e in ERRORS])
def test_spec_error(section: str, hand: str, win: str, self_drawn: bool,
                    context: dict[str, Any], options: dict[str, Any], error: str) -> None:
    assert code(hand, win, self_drawn, context, baiban(**options)) == error, section


def test_flip_mode_needs_a_caishen_and_indicators_must_agree() -> None:
    """§12: flip mode without caishen/indicator, or the two disagreeing, is bad_context."""
    assert code(PINGHU, "5s", True, {}, {}) == "bad_context"
    assert code("123m456p789s111z3m7p", "7p", True, {"indicator": "3m", "caishen": "3m"},
                {"caishen_from_indicator": "next"}) == "bad_context"


def test_moves_from_the_rules_text() -> None:
    """§3: the 财飘 lock stops every claim (a pass stays legal); a discarded 财神 is never
    claimed; a wild may not go into a chi; in flip mode a 5z is a natural T in melds; discard
    wins need the streak and the dealer; one winner per discard, counting from the dealer."""
    def check(view: Any, move: str, options: dict[str, Any] | None = None) -> str:
        c = validate_move(view, Move.parse(move), baiban() if options is None else options)
        return "ok" if c.ok else c.code

    def claim(hand: str, tile: str, frm: int = 0, **kw: Any) -> Any:
        return TableView(seat=1, hand=Hand.parse(hand), phase="claim", pending_tile=tile,
                         pending_from=frm, dealer=0, **kw)

    locked = claim("55s123m456m789p23s", "5s", piao_lock=True)
    assert [check(locked, m) for m in ("peng 5s", "pass")] == ["piao_lock", "ok"]
    assert [m.to_text() for m in legal_moves(locked, baiban())] == ["pass"]
    assert check(locked, "peng 5s", baiban(piao_lock=False)) == "ok"
    assert check(claim("5z5z123m456m789p23s", "5z"), "peng 5z") == "caishen_not_claimable"
    assert check(claim("1m5z456m789p234s55s", "3m"), "chi 1m 5z 3m") == "wild_in_meld"
    assert check(claim("2m5z456m789p234s55s", "4m", caishen="3m"), "chi 2m 5z 4m", {}) == "ok"
    ready = "123m456m789p234s5s"
    assert check(claim(ready, "5s"), "hu") == "pingzhuang"
    assert check(claim(ready, "5s", dealer_streak=2), "hu") == "ok"
    assert check(claim(ready, "5s", frm=2, dealer_streak=2), "hu") == "xianjia_to_xianjia"
    hu = Move.parse("hu")
    assert resolve_claims(2, 2, {1: hu, 3: hu}) == ((3, hu),)  # dealer 2: 3 comes first


def test_settle_refuses_a_context_that_contradicts_its_event() -> None:
    """§8 (the discarder pays a discard win; the dealer decides 放冲): a Win's context that
    names another discarder or dealer than the log is ``bad_event``, not silently replaced."""
    ctx = {"caishen": "5z", "dealer_streak": 2}
    led = settle([HandStart(dealer=0), Win(seat=1, hand=PINGHU, win_tile="5s", discarder=0,
                                           context={**ctx, "discarder": "left",
                                                    "dealer": "left"})])
    assert led.totals == (-1, 1, 0, 0)
    for extra in ({"discarder": "across"}, {"dealer": "right"}):
        with pytest.raises(MahjongError) as err:
            settle([HandStart(dealer=0), Win(seat=1, hand=PINGHU, win_tile="5s", discarder=0,
                                             context={**ctx, **extra})])
        assert err.value.code == "bad_event", extra


def test_piao_count_is_at_most_the_wilds_discarded() -> None:
    """§5: each 飘 discards a wild and the player stays in 爆头 (one wild still held), so "with
    four wilds at most three 飘 are possible": a `piao_count` above 3, or one that with the
    wilds still held makes more than four wilds, is an inconsistent context (§1, §7:
    bad_context), whatever `piao_max` (which only limits how many double, §10)."""
    assert spec(BAOTOU, "7p", True, {"piao_count": 3})["patterns"] == [["san_caipiao", 4]]
    assert spec(BAOTOU, "7p", True, {"piao_count": 3}, piao_max=1)["patterns"] == [["caipiao", 2]]
    two_held = "123m456p789s11z5z5z7p"  # 11z + a wild is the fourth set, 7p pairs the other
    assert spec(two_held, "7p", True, {"piao_count": 2})["patterns"] == [["shuang_caipiao", 3]]
    assert code(two_held, "7p", True, {"piao_count": 3}, baiban()) == "bad_context"
    for n in (4, 5, 100):
        assert code(BAOTOU, "7p", True, {"piao_count": n}, baiban()) == "bad_context"
        assert code(BAOTOU, "7p", True, {"piao_count": n}, baiban(piao_max=1)) == "bad_context"


def test_piao_counts_the_wilds_in_melds_too() -> None:
    """§5 and decision 3: a 飘 discards a 财神 and only four exist, so with ``wild_in_melds``
    the 财神 standing in a declared meld count beside the concealed ones: two in the peng of
    1m and two concealed leave none for a 飘 (both paths hand such a hand to the rules)."""
    hand = "123p456p789s3m3m peng:13m3m"  # 财神 3m: two in the peng, two concealed
    options = {"wild_in_melds": True}
    r = score(hand, win_tile="3m", self_drawn=True, context={"caishen": "3m"}, options=options)
    assert [p.id for p in r.patterns] == ["baotou"]
    assert code(hand, "3m", True, {"caishen": "3m", "piao_count": 1}, options) == "bad_context"
