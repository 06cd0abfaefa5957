"""Every worked case of tests/cases/sichuan.jsonl (a copy of the rules' cases), as data."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sichuan_api import score

from mjcore import MahjongError

CASES_FILE = Path(__file__).resolve().parents[2] / "cases" / "sichuan.jsonl"
CASES: list[dict[str, Any]] = [
    json.loads(line) for line in CASES_FILE.read_text(encoding="utf-8").splitlines() if line.strip()
]


def test_cases_file_is_complete() -> None:
    """The copy holds the 62 worked cases of the Sichuan rules (12 of them, ``CP-``, of the
    Chengdu points table)."""
    assert len(CASES) == 62
    assert all(c["ruleset"] == "sichuan" for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case(case: dict[str, Any]) -> None:
    """Sichuan §3-§4 worked case: see the case's ``why``."""
    expected = case["expected"]
    options = dict(case["options"])
    preset = options.pop("preset", None)
    kwargs: dict[str, Any] = dict(
        win_tile=case["win_tile"],
        self_drawn=case["self_drawn"],
        context=case["context"] or None,
        options=options or None,
        preset=preset,
    )
    if "error" in expected:
        with pytest.raises(MahjongError) as err:
            score(case["hand"], **kwargs)
        assert err.value.code == expected["error"], case["why"]
        return
    result = score(case["hand"], **kwargs)
    assert result.fan == expected["fan"], case["why"]
    if "points" in expected:
        assert result.unit == "points" and result.value == expected["points"], case["why"]
    assert result.multiplier == expected["multiplier"], case["why"]
    if not expected.get("patterns_ambiguous"):
        got = sorted([p.id, p.fan] for p in result.patterns)
        assert got == sorted(expected["patterns"]), case["why"]
    # gen appears once, with its count as fan
    assert [p.id for p in result.patterns].count("gen") <= 1
