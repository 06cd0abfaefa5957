"""Every worked case of tests/cases/wuhan.jsonl (a copy of the rules' cases), as data."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from wuhan_api import paid, score

from mjcore import MahjongError

CASES_FILE = Path(__file__).resolve().parents[2] / "cases" / "wuhan.jsonl"
CASES: list[dict[str, Any]] = [
    json.loads(line) for line in CASES_FILE.read_text(encoding="utf-8").splitlines() if line.strip()
]


def test_cases_file_is_complete() -> None:
    assert len(CASES) == 30 and len({c["id"] for c in CASES}) == 30
    assert all(c["ruleset"] == "wuhan" for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case(case: dict[str, Any]) -> None:
    """A worked case of wuhan.md: see the case's ``why``."""
    expected = case["expected"]
    kwargs: dict[str, Any] = dict(win_tile=case["win_tile"], self_drawn=case["self_drawn"],
                                  context=case["context"], options=case["options"] or None)
    if "error" in expected:
        with pytest.raises(MahjongError) as err:
            score(case["hand"], **kwargs)
        assert err.value.code == expected["error"].split(":")[0], case["why"]
        return
    r = score(case["hand"], **kwargs)
    assert [[p.id, p.fan] for p in r.patterns] == expected["patterns"], case["why"]
    assert r.hand_base == expected["hand_base"], case["why"]
    assert r.winner_factor == expected["winner_factor"], case["why"]
    assert r.value == expected["value"] == r.hand_base * r.winner_factor, case["why"]
    points = expected["points"]
    assert paid(r) == points["from"], case["why"]
    assert r.total == points["winner_total"], case["why"]
    assert r.liable == points.get("liable", ""), case["why"]
    assert r.points == points, case["why"]
    assert r.unit == "points" and r.self_drawn == case["self_drawn"]
