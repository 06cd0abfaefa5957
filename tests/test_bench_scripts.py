"""`make bench` runs every script in bench/: each one's imports resolve the way its Makefile line
runs it (its environment, from the checkout), shown by its ``--help``, which exits after them."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def bench_lines() -> list[tuple[dict[str, str], str]]:
    """The bench recipe's script lines: (their environment assignments, the script)."""
    recipe = re.search(r"^bench:.*\n((?:\t.*\n)+)", (ROOT / "Makefile").read_text(), re.M)
    assert recipe, "the Makefile has a bench target"
    out = []
    for line in recipe.group(1).splitlines():
        m = re.fullmatch(r"\t((?:\w+=\S+ )*)\$\(BIN\)/python (bench/\w+\.py)", line)
        if m:
            env = dict(a.split("=", 1) for a in m.group(1).split())
            out.append((env, m.group(2)))
    return out


def test_make_bench_runs_every_bench_script() -> None:
    listed = {script for _, script in bench_lines()}
    assert listed == {f"bench/{p.name}" for p in (ROOT / "bench").glob("bench_*.py")}


@pytest.mark.parametrize("env, script", bench_lines(), ids=[s for _, s in bench_lines()])
def test_bench_script_imports_as_make_runs_it(env: dict[str, str], script: str) -> None:
    run_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run_env.update(env)
    done = subprocess.run([sys.executable, script, "--help"], cwd=ROOT, env=run_env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("usage:")
