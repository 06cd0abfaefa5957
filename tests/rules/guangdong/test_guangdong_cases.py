"""Every worked case of tests/cases/guangdong.jsonl (a copy of the rules' cases), as data."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from guangdong_api import points, score

from mjcore import MahjongError

CASES_FILE = Path(__file__).resolve().parents[2] / "cases" / "guangdong.jsonl"
CASES: list[dict[str, Any]] = [
    json.loads(line) for line in CASES_FILE.read_text(encoding="utf-8").splitlines() if line.strip()
]


def test_cases_file_is_complete() -> None:
    """The copy holds the 39 worked cases of the Guangdong rules."""
    assert len(CASES) == 39
    assert all(c["ruleset"] == "guangdong" for c in CASES)
    assert len({c["id"] for c in CASES}) == 39


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case(case: dict[str, Any]) -> None:
    """Guangdong worked case: see the case's ``why``."""
    expected = case["expected"]
    kwargs: dict[str, Any] = dict(
        win_tile=case["win_tile"],
        self_drawn=case["self_drawn"],
        context=case["context"] or None,
        options=case["options"] or None,
    )
    if "error" in expected:
        with pytest.raises(MahjongError) as err:
            score(case["hand"], **kwargs)
        assert err.value.code == expected["error"].split(":")[0], case["why"]
        return
    result = score(case["hand"], **kwargs)
    assert result.fan == expected["fan"], case["why"]
    assert result.fan_uncapped == expected["uncapped_fan"], case["why"]
    if not expected.get("patterns_ambiguous"):
        got = sorted([p.id, p.fan] for p in result.patterns)
        assert got == sorted(expected["patterns"]), case["why"]
    assert points(result) == expected["points"], case["why"]
    assert result.unit == "fan" and result.ruleset == "guangdong"
    assert result.liable == expected["points"].get("liable", "")
