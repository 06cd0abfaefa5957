"""Every worked case of tests/cases/taiwan.jsonl (a copy of the rules' cases), as data: the
report of §9 step 8 must equal ``expected`` exactly (an error: its code)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from taiwan_api import report

from mjcore import MahjongError

CASES_FILE = Path(__file__).resolve().parents[2] / "cases" / "taiwan.jsonl"
CASES: list[dict[str, Any]] = [
    json.loads(line) for line in CASES_FILE.read_text(encoding="utf-8").splitlines() if line.strip()
]


def test_cases_file_is_complete() -> None:
    assert len(CASES) == 30 and all(c["ruleset"] == "taiwan" for c in CASES)
    assert len({c["id"] for c in CASES}) == 30


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case(case: dict[str, Any]) -> None:
    """A worked case of taiwan.md §14: see its ``why``."""
    options = dict(case["options"])
    preset = options.pop("preset", None)
    kwargs: dict[str, Any] = dict(win_tile=case["win_tile"], self_drawn=case["self_drawn"],
                                  context=case["context"], options=options or None, preset=preset)
    expected = case["expected"]
    if "error" in expected:
        with pytest.raises(MahjongError) as err:
            report(case["hand"], **kwargs)
        assert err.value.code == expected["error"].split(":")[0], case["why"]
        return
    assert report(case["hand"], **kwargs) == expected, case["why"]
