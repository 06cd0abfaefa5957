"""Checks written from taiwan.md's text during an audit of the rule set against its
specification: each test cites the section it checks."""

from __future__ import annotations

import pytest
from taiwan_api import DISCARD, report

from mjcore import MahjongError


@pytest.mark.parametrize(("hand", "code"), [
    ("123m456m789m234p99s1f chi:567p", "bad_tile"),       # item 3: a flower in the hand
    ("1111m456m789m234p99s chi:567p", "tile_count"),      # item 4: 18 tiles
    ("123m456m789m234p99s chi:124p", "bad_meld"),         # item 2: not a run
])
@pytest.mark.parametrize(("options", "preset"), [({"bogus": 1}, None), (None, "nope")])
def test_report_refuses_a_bad_hand_before_a_bad_option(
        hand: str, code: str, options: dict[str, object] | None, preset: str | None) -> None:
    """§1: the checks run in order, items 1-4 (the hand) before item 5 (`bad_option`), in the
    §9 report as in `score`."""
    with pytest.raises(MahjongError) as err:
        report(hand, win_tile="4p", context=DISCARD, options=options, preset=preset)
    assert err.value.code == code


def test_preset_is_an_option() -> None:
    """§11: `preset` is in the option table ("a named bundle; explicit options override it");
    an unknown one is `bad_option` (§1 item 5)."""
    dasixi = "111z222z333z444z55z789m"  # 大四喜 won on 5z from a discard
    assert report(dasixi, win_tile="5z", context=DISCARD,
                  options={"preset": "taiwan_2005"})["patterns"][-1] == ["dasixi", 8]
    assert report(dasixi, win_tile="5z", context=DISCARD,
                  options={"preset": "taiwan_2005", "dasixi_tai": 16})["patterns"][-1] == [
        "dasixi", 16]
    assert report(dasixi, win_tile="5z", context=DISCARD,
                  options={"preset": "taiwan"})["patterns"][-1] == ["dasixi", 16]
    with pytest.raises(MahjongError) as err:
        report(dasixi, win_tile="5z", context=DISCARD, options={"preset": "nope"})
    assert err.value.code == "bad_option"


def test_robbing_a_logged_bugang_is_qiangganghu() -> None:
    """§4.6 搶槓胡 +1 and §10 (the robbed player pays as a discarder): a win on the tile of a
    bugang the log records as robbed is a 搶槓 also when its context does not say so."""
    from taiwan_api import settle

    from mjcore.table import HandStart, Kong, Win

    ctx = {"seat_wind": "2z", "round_wind": "1z"}
    hand = "123m456m789m234p567p99s"
    log = [HandStart(0), Kong(3, "bugang", "4p", robbed=True),
           Win(1, hand, "4p", discarder=3, context=ctx)]
    # menqing 1 + pinghu 2 + qiangganghu 1 = 4 台, the dealer (seat 0) not involved
    assert [(p.from_seat, p.to_seat, p.amount) for p in settle(log).payments] == [(3, 1, 70)]
    flagged = [*log[:2], Win(1, hand, "4p", discarder=3, context={**ctx, "qiang_gang": True})]
    assert settle(flagged).payments == settle(log).payments
    not_robbed = [log[0], Kong(3, "bugang", "4p"), log[2]]
    assert [p.amount for p in settle(not_robbed).payments] == [60]


def test_claim_priority() -> None:
    """§2 (shapes.md §4): 胡 > 槓 > 碰 > 吃; one winner per discard, the first in turn order
    after the discarder, unless `multi_ron: all`."""
    from taiwan_api import resolve_options

    from mjcore import Move
    from mjcore.rules.taiwan import resolve_claims

    hu, peng, gang, chi = Move("hu"), Move("peng", (4,)), Move("gang", (4,)), Move.parse(
        "chi 3m 4m 5m")
    assert resolve_claims(1, {3: hu, 2: hu, 0: peng}) == ((2, hu),)
    assert resolve_claims(1, {3: hu, 2: hu}, resolve_options({"multi_ron": "all"})) == (
        (2, hu), (3, hu))
    assert resolve_claims(1, {2: chi, 3: gang}) == ((3, gang),)
    assert resolve_claims(1, {2: chi, 0: peng}) == ((0, peng),)
    assert resolve_claims(1, {2: chi, 3: Move("pass")}) == ((2, chi),)


def test_settle_reports_the_next_dealer_streak() -> None:
    """§2 Dealer: "a dealer who wins or a hand that ends drawn keeps the deal, and the streak
    grows by one … Otherwise the deal passes to the dealer's 下家 with a streak of 0" — the
    ledger reports both (`next_dealer`, `next_dealer_streak`). The streak at the start comes
    from `dealer_streak` / `HandStart`, else the first win's context (§13, default 0); a win's
    context that disagrees with the given one is bad_event."""
    from taiwan_api import settle

    from mjcore.table import HandStart, WallEmpty, Win

    ctx = {"seat_wind": "1z", "round_wind": "1z"}
    hand = "123m456m789m234p567p99s"
    dealer_wins = [HandStart(2, dealer_streak=2), Win(2, hand, "4p", discarder=1, context=ctx)]
    led = settle(dealer_wins)
    assert (led.next_dealer, led.next_dealer_streak) == (2, 3)
    # D = 1 + 2 + 2 (§8) on the dealer's win: 30 + (3 + 5) × 10
    assert [p.amount for p in led.payments] == [110]
    by_context = [Win(2, hand, "4p", discarder=1, context={**ctx, "dealer_streak": 2})]
    told = settle(by_context, dealer=2)
    assert ([p.amount for p in told.payments], told.next_dealer_streak) == ([110], 3)
    given = settle([Win(2, hand, "4p", discarder=1, context=ctx)], dealer=2, dealer_streak=2)
    assert ([p.amount for p in given.payments], given.next_dealer_streak) == ([110], 3)
    other = settle([HandStart(2, dealer_streak=2),
                    Win(1, hand, "4p", discarder=0, context={**ctx, "seat_wind": "4z"})])
    assert (other.next_dealer, other.next_dealer_streak) == (3, 0)
    drawn = [HandStart(2, dealer_streak=1), WallEmpty((None, None, None, None))]
    assert (settle(drawn).next_dealer, settle(drawn).next_dealer_streak) == (2, 2)
    assert settle(drawn[1:], dealer=2).next_dealer_streak == 1  # not told: 0, kept
    passes = settle(drawn, {"draw_keeps_dealer": False})
    assert (passes.next_dealer, passes.next_dealer_streak) == (3, 0)
    for log, streak in (([HandStart(2, dealer_streak=1), *by_context], None),
                        (by_context, -1), (by_context, 10_001), (by_context, True)):
        with pytest.raises(MahjongError) as err:
            settle(log, dealer=2, dealer_streak=streak)
        assert err.value.code == "bad_event", (log, streak)
