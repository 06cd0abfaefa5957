"""Taiwan settlement (taiwan.md §2 dealer rotation, §10 payments): only wins are paid, each
payment names its win event, the ledger is zero-sum, and the deal stays with a winning dealer
or (draw_keeps_dealer) a drawn hand."""

from __future__ import annotations

import pytest
from taiwan_api import settle

from mjcore import MahjongError
from mjcore.table import HandStart, Kong, WallEmpty, Win

PINGHU = "123m456m789m234p567p99s"
CTX = {"seat_wind": "2z", "round_wind": "1z"}


def test_discard_win_pays_from_the_discarder_with_dealer_tai() -> None:
    log = [HandStart(0), Kong(2, "angang", 5), Win(1, PINGHU, "4p", discarder=0, context=CTX)]
    ledger = settle(log)
    (p,) = ledger.payments
    assert (p.from_seat, p.to_seat, p.amount, p.reason, p.event) == (0, 1, 30 + 4 * 10, "win", 2)
    assert ledger.totals == (-70, 70, 0, 0) and ledger.winners == (1,)
    assert ledger.next_dealer == 1  # the dealer lost: the deal passes to his 下家


def test_dealer_self_draw_keeps_the_deal() -> None:
    ctx = {**CTX, "seat_wind": "1z", "dealer_streak": 1}
    ledger = settle([HandStart(2), Win(2, PINGHU, "4p", self_drawn=True, context=ctx)])
    assert sorted(p.amount for p in ledger.payments) == [30 + (3 + 3) * 10] * 3
    assert sum(ledger.totals) == 0 and ledger.next_dealer == 2 and ledger.notes


def test_drawn_hand() -> None:
    log = [HandStart(3), WallEmpty((None, None, None, None))]
    assert settle(log).next_dealer == 3 and not settle(log).payments
    assert settle(log, {"draw_keeps_dealer": False}).next_dealer == 0


def test_several_winners_only_with_multi_ron_all() -> None:
    log = [HandStart(0), Win(1, PINGHU, "4p", discarder=0, context=CTX, discard=7),
           Win(2, PINGHU, 12, discarder=0, context=CTX, discard=7)]
    with pytest.raises(MahjongError) as err:
        settle(log)
    assert err.value.code == "bad_event"
    ledger = settle(log, {"multi_ron": "all"})
    assert ledger.winners == (1, 2) and [p.event for p in ledger.payments] == [1, 2]
    assert ledger.totals == (-140, 70, 70, 0)


@pytest.mark.parametrize("log", [
    [Win(1, PINGHU, "4p", discarder=0, context={**CTX, "discarder": "right"})],
    [Win(1, PINGHU, "4p", discarder=1, context=CTX)],
    [Win(1, PINGHU, "4p", self_drawn=True, discarder=2, context=CTX)],
    [Win(1, PINGHU, "4p", self_drawn=True, context=CTX), Kong(2, "gang", 3, fed_by=1)],
    [Kong(2, "pung", 3)], [HandStart(0), HandStart(1)], ["win"],
])
def test_bad_logs(log: list[object]) -> None:
    with pytest.raises(MahjongError) as err:
        settle(log)
    assert err.value.code == "bad_event"


def test_a_win_that_does_not_score_is_refused_with_its_code() -> None:
    with pytest.raises(MahjongError) as err:
        settle([Win(1, PINGHU, "4p", discarder=0, context={"seat_wind": "2z"})])
    assert err.value.code == "bad_context"
