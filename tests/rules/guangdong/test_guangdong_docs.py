"""The Python examples of docs/rulesets/guangdong.md run, and every expression followed by a
``# value`` comment evaluates to that value (its repr)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[3] / "docs" / "rulesets" / "guangdong.md"


def blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_docs_examples_run_and_match_their_comments() -> None:
    found = blocks()
    assert found, "the doc has a runnable example"
    checked = 0
    for source in found:
        lines = source.splitlines()
        namespace: dict[str, object] = {}
        for stmt in ast.parse(source).body:
            code = ast.get_source_segment(source, stmt)
            assert code is not None and stmt.end_lineno is not None
            tail = lines[stmt.end_lineno - 1][stmt.end_col_offset:]
            comment = re.match(r"\s*#\s?(.*)$", tail)
            if isinstance(stmt, ast.Expr) and comment:
                value = eval(compile(ast.Expression(stmt.value), str(DOC), "eval"), namespace)
                assert repr(value) == comment.group(1).strip(), code
                checked += 1
            else:
                exec(compile(ast.Module([stmt], []), str(DOC), "exec"), namespace)
    assert checked >= 5
