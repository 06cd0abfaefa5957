"""The mixed soak (tests/service/soak_hostile.py) for a few seconds, so the script and its mix
stay runnable: every method of every rule set with hostile requests, no INTERNAL. The
10-minute run and its figures: docs/service.md (Soak)."""

from __future__ import annotations

import pytest
import soak_hostile


def test_short_soak_has_no_internal(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--minutes", "0.05", "--clients", "2", "--hostile", "0.2", "--rss-every", "2"]
    assert soak_hostile.main(argv) == 0
    out = capsys.readouterr().out
    assert "INTERNAL/UNKNOWN: 0" in out
    methods = {line.split()[1] for line in out.splitlines() if line.startswith("  valid ")}
    assert {"Score", "Waits", "ValidateMove", "LegalMoves", "Settle", "ScoreBatch", "ScoreStream"} <= methods
