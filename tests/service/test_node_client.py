"""The Node.js client (@grpc/grpc-js + @grpc/proto-loader) against a real server: Sichuan and
Guangdong hands, and Hangzhou and Wuhan with their wild tiles through every method (Score,
Waits, ValidateMove, LegalMoves, Settle, DescribeRuleset, ScoreBatch; tests/service/node/client.js)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from svc_helpers import Running

NODE_DIR = Path(__file__).resolve().parent / "node"


def test_node_client(running: Running) -> None:
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.fail("node and npm are needed for the Node.js client test")
    if not (NODE_DIR / "node_modules" / "@grpc" / "grpc-js").exists():
        out = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"], cwd=NODE_DIR, capture_output=True, text=True, timeout=600
        )
        assert out.returncode == 0, out.stdout + out.stderr
    out = subprocess.run(
        [node, "client.js", str(running.port)], cwd=NODE_DIR, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 failed" in out.stdout and "# SKIP" not in out.stdout, out.stdout
