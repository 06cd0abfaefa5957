"""Self-play: complete random Sichuan hands driven through legal_moves and settled.

Each hand is seeded (reproducible). At every step the simulator checks that the 108 tiles
are accounted for, that validate_move accepts every move legal_moves offers and refuses
random moves that are not offered (with a reason code), and at the end that the ledger
sums to zero."""

from __future__ import annotations

import os
from collections import Counter

import pytest
from sichuan_sim import Simulator

HANDS = int(os.environ.get("MJ_SELFPLAY_HANDS", "2000"))


def test_selfplay_uniform_random_hands() -> None:
    """≥ 2,000 hands, each move uniform among legal_moves, default (chengdu) options."""
    reasons: Counter[str] = Counter()
    winners: Counter[int] = Counter()
    checks = 0
    for seed in range(HANDS):
        sim = Simulator(seed, probes=1)
        ledger = sim.play()
        assert sum(ledger.totals) == 0
        assert ledger.next_dealer in range(4)
        checks += sim.checks
        winners[len(sim.winners)] += 1
        reasons.update(p.reason for p in ledger.payments)
    assert checks > HANDS * 50
    # random play still reaches the end-of-hand rules
    assert reasons["huazhu"] and reasons["tuishui"] and reasons["gang"] and reasons["angang"]


OPTION_SETS = [
    {"exchange_three": True, "exchange_direction": "clockwise", "hujiao_zhuanyi": True},
    {"cap_fan": 3, "zimo_bonus": "fan", "dian_gang_hua": "zimo", "guoshui": False},
    {"last_four_must_win": False, "discard_missing_first": False, "longqidui_fan": 3},
]


@pytest.mark.parametrize("options", OPTION_SETS, ids=["exchange", "cap", "lax"])
def test_selfplay_options(options: dict[str, object]) -> None:
    """Other option sets keep every invariant (uniform random moves)."""
    for seed in range(60):
        ledger = Simulator(10_000 + seed, options, probes=1).play()
        assert sum(ledger.totals) == 0


def test_selfplay_greedy_winners_reproducible() -> None:
    """A livelier table (always take a win, void the shortest suit) exercises 血战 wins,
    一炮多响, 抢杠, 查大叫 and 退税; the same seed gives the same ledger."""
    reasons: Counter[str] = Counter()
    wins = 0
    for seed in range(150):
        sim = Simulator(20_000 + seed, greedy=True, probes=1)
        ledger = sim.play()
        assert sum(ledger.totals) == 0
        wins += len(sim.winners)
        reasons.update(p.reason for p in ledger.payments)
    assert wins > 50
    assert reasons["win"] and reasons["chadajiao"] and reasons["tuishui"]
    again = Simulator(20_007, greedy=True, probes=1).play()
    assert again == Simulator(20_007, greedy=True, probes=1).play()
