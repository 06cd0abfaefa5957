"""Seeded self-play of Hangzhou under its default options (flip mode, a random 财神 per hand,
wild discards not claimable, no wilds in melds) and under the 白板 mode, with the contract
suite's table simulator: every offered move validates, random moves are refused unless
offered, every hand settles zero-sum with each payment traced to its event."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "contract"))

from contract_profiles import PROFILES, Profile  # noqa: E402
from contract_sim import Simulator  # noqa: E402

from mjcore.rules.hangzhou import HangzhouView  # noqa: E402

HANDS = int(os.environ.get("MJ_HZ_SELFPLAY", "60"))


def profile(caishen: int | None, options: dict[str, Any]) -> Profile:
    base = PROFILES["hangzhou"]()

    def view_part(sim: Any, seat: int) -> HangzhouView:
        return HangzhouView(caishen=caishen, dealer_streak=2)

    return Profile(tiles=base.tiles, context={}, discard_context={}, view_part=view_part,
                   win_context=base.win_context, chi=True, extra=base.extra, options=options)


@pytest.mark.parametrize("mode", ["flip", "baiban"])
def test_selfplay(mode: str) -> None:
    wins = 0
    for seed in range(HANDS):
        caishen = (seed * 7) % 34 if mode == "flip" else None
        options = {} if mode == "flip" else {"caishen_mode": "baiban"}
        sim = Simulator("hangzhou", profile(caishen, options), seed, options or None)
        ledger = sim.play()
        assert sum(ledger.totals) == 0 and 0 <= ledger.next_dealer < 4
        for pay in ledger.payments:
            assert 0 <= pay.event < len(sim.events) and pay.reason in ("win", "chengbao")
        wins += len(ledger.winners)
    assert wins > HANDS // 3
