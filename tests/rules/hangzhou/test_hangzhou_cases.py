"""Every worked case of tests/cases/hangzhou.jsonl (a copy of the rules' cases), as data."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hangzhou_api import as_spec, score

from mjcore import MahjongError

CASES_FILE = Path(__file__).resolve().parents[2] / "cases" / "hangzhou.jsonl"
CASES: list[dict[str, Any]] = [
    json.loads(line) for line in CASES_FILE.read_text(encoding="utf-8").splitlines() if line.strip()
]


def test_cases_file_is_complete() -> None:
    assert len(CASES) == 23 and all(c["ruleset"] == "hangzhou" for c in CASES)
    assert len({c["id"] for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case(case: dict[str, Any]) -> None:
    """A worked case of the spec: see its ``why``."""
    options = dict(case["options"])
    preset = options.pop("preset", None)
    kwargs: dict[str, Any] = dict(win_tile=case["win_tile"], self_drawn=case["self_drawn"],
                                  context=case["context"] or None, options=options or None,
                                  preset=preset)
    expected = case["expected"]
    if "error" in expected:
        with pytest.raises(MahjongError) as err:
            score(case["hand"], **kwargs)
        assert err.value.code == expected["error"].split(":")[0], err.value
        return
    got = as_spec(score(case["hand"], **kwargs))
    if expected.get("patterns_ambiguous"):
        got.pop("patterns")
        expected = {k: v for k, v in expected.items() if k not in ("patterns", "patterns_ambiguous")}
    assert got == expected
