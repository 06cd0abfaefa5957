"""Every ```python block of README.md and docs/**/*.md runs, and shows what it says it shows.

A block's statements run in order, one namespace per file (a reader runs a page top to bottom).
A statement whose last line ends in a comment that begins like a Python value shows its output:

    mjcore.is_win("123m456m789m234p55p")     # True (anything after the literal is prose)
    mjcore.waits("1112345678999m")           # (Wait(tile='1m', id=0), ...)

* a comment whose longest prefix is a literal (``ast.literal_eval``) must equal the value;
* a comment with ``...`` shows an abbreviated repr: the text before ``...`` must start the
  value's repr;
* any other comment that begins like a value (a digit, a quote, a bracket, ``True``/``False``/
  ``None``, or ``Name(``) must be the value's repr.
Comments that begin with a word (``# every sets+pair split``) are prose and not checked. For
an assignment, the value is the assigned name's. A block preceded by the line
``<!-- not-run -->`` is skipped (for snippets that start a server or need a network).
New pages under docs/ are picked up without changing this file.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path
from typing import Any, NamedTuple

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOT_RUN = "<!-- not-run -->"
FENCE = re.compile(r"^\s*```\s*(\w*)")
LOOKS_LIKE_VALUE = re.compile(r"""^(?:[-+\d'"(\[{]|(?:True|False|None)\b|[A-Za-z_][\w.]*\()""")


class Block(NamedTuple):
    path: Path
    line: int  # 1-based line of the first code line in the file
    code: str


def doc_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def python_blocks(path: Path) -> tuple[list[Block], list[Block]]:
    """(blocks to run, blocks marked not-run) of one Markdown file."""
    run: list[Block] = []
    skipped: list[Block] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        lang, start = m.group(1).lower(), i + 1
        end = start
        while end < len(lines) and not FENCE.match(lines[end]):
            end += 1
        if lang in ("python", "py"):
            prev = next((x.strip() for x in reversed(lines[:i]) if x.strip()), "")
            block = Block(path, start + 1, "\n".join(lines[start:end]) + "\n")
            (skipped if prev == NOT_RUN else run).append(block)
        i = end + 1
    return run, skipped


def comments(code: str) -> dict[int, str]:
    """Line number -> text of the comment ending that line."""
    out = {}
    for tok in tokenize.generate_tokens(io.StringIO(code).readline):
        if tok.type == tokenize.COMMENT:
            out[tok.start[0]] = tok.string[1:].strip()
    return out


_NO_LITERAL = object()


def _literal_prefix(text: str) -> Any:
    for end in range(len(text), 0, -1):
        try:
            return ast.literal_eval(text[:end])
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue
    return _NO_LITERAL


def check_shown(value: Any, shown: str) -> str | None:
    """None if ``value`` is what the comment ``shown`` says, else what is wrong."""
    if not LOOKS_LIKE_VALUE.match(shown):
        return None  # prose
    if "..." in shown:
        prefix = shown.split("...", 1)[0].rstrip()
        if repr(value).startswith(prefix):
            return None
        return f"shows {shown!r}, but the value is {value!r}"
    expected = _literal_prefix(shown)
    if expected is not _NO_LITERAL:
        # True is not shown as 1, nor 1 as True
        bools = isinstance(expected, bool) or isinstance(value, bool)
        if value == expected and (not bools or type(expected) is type(value)):
            return None
        return f"shows {expected!r}, but the value is {value!r}"
    if repr(value) == shown:
        return None
    return f"shows {shown!r}, but the value's repr is {value!r}"


def run_block(block: Block, ns: dict[str, Any]) -> list[str]:
    """Run the block in ``ns``; the list of wrong shown outputs."""
    name = str(block.path.relative_to(ROOT))
    tree = ast.parse(block.code, filename=name)
    shown = comments(block.code)
    problems = []
    for stmt in tree.body:
        last = stmt.end_lineno or stmt.lineno
        where = f"{name}:{block.line + last - 1}"
        comment = shown.get(last)
        source = ast.get_source_segment(block.code, stmt)
        ast.increment_lineno(stmt, block.line - 1)  # tracebacks name the Markdown file's lines
        if isinstance(stmt, ast.Expr):
            value = eval(compile(ast.Expression(stmt.value), name, "eval"), ns)
        else:
            exec(compile(ast.Module([stmt], []), name, "exec"), ns)
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                    and isinstance(stmt.targets[0], ast.Name)):
                continue
            value = ns[stmt.targets[0].id]
        if comment is not None:
            wrong = check_shown(value, comment)
            if wrong:
                problems.append(f"{where}: {source}  # {wrong}")
    return problems


FILES = [p for p in doc_files() if p.exists()]


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_python_examples_run_and_show_their_output(path: Path) -> None:
    blocks, _ = python_blocks(path)
    ns: dict[str, Any] = {"__name__": "__doc_example__"}
    problems = []
    for block in blocks:
        problems += run_block(block, ns)
    assert not problems, "\n".join(problems)


def test_the_readme_has_examples_and_few_are_skipped() -> None:
    run, skipped = python_blocks(ROOT / "README.md")
    assert run, "README.md has no ```python block to check"
    total_skipped = sum(len(python_blocks(p)[1]) for p in FILES)
    total_run = sum(len(python_blocks(p)[0]) for p in FILES)
    assert total_skipped <= total_run, "<!-- not-run --> is for the odd server snippet, not the rule"


# --------------------------------------------------------------------------- the checker itself

def test_checker_reads_shown_outputs() -> None:
    assert check_shown(True, "True (standard + qidui by default)") is None
    assert check_shown(1, "True") is not None          # 1 is not shown as True
    assert check_shown(0, "0") is None
    assert check_shown(-1, "-1: complete") is None
    assert check_shown(2, "0") is not None
    assert check_shown((1, 2, 3), "(1, 2, ...)") is None
    assert check_shown((1, 3), "(1, 2, ...)") is not None
    assert check_shown(frozenset({"qidui"}), "frozenset({'qidui'})") is None
    assert check_shown(frozenset(), "frozenset({'qidui'})") is not None
    assert check_shown(None, "every sets+pair split of the tiles") is None  # prose


def test_checker_finds_blocks_and_the_not_run_marker(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("text\n```python\nx = 1 + 1  # 2\nx  # 2\n```\n\n" + NOT_RUN
                    + "\n\n```python\nraise SystemExit\n```\n```sh\nmake test\n```\n")
    run, skipped = python_blocks(page)
    assert [b.code for b in run] == ["x = 1 + 1  # 2\nx  # 2\n"]
    assert [b.code for b in skipped] == ["raise SystemExit\n"]
    global ROOT
    old, ROOT = ROOT, tmp_path
    try:
        assert run_block(run[0], {}) == []
        bad = Block(page, 3, "y = 3  # 4\n")
        assert len(run_block(bad, {})) == 1
    finally:
        ROOT = old
