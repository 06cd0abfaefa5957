"""The wheel is what users get: build it from the sources, install it into a fresh virtual
environment and run ``python -m mjservice`` from a directory outside the repository."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from service.pb import pb2, pb2_grpc

ROOT = Path(__file__).resolve().parents[2]
_ABSOLUTE = re.compile(r"^\s*(from|import) service[.\s]", re.MULTILINE)
# what a fresh clone would not have: built files, environments, caches
_NOT_SOURCE = shutil.ignore_patterns(
    ".git", ".venv", "build", "dist", "*.egg-info", "_gen", "*.so", "*.c", "__pycache__",
    ".pytest_cache", ".mypy_cache", ".ruff_cache", "node_modules",
)


def _pip(python: Path | str, *args: str, timeout: float) -> subprocess.CompletedProcess[str]:
    # pip's own cache is used (no --no-cache-dir): a second run installs without downloading
    return subprocess.run(
        [str(python), "-m", "pip", "--disable-pip-version-check", *args],
        capture_output=True, text=True, timeout=timeout,
    )


@pytest.mark.network
@pytest.mark.timeout(300)
def test_wheel_installs_and_serves_as_mjservice(tmp_path: Path) -> None:
    probe = _pip(sys.executable, "download", "--no-deps", "-d", str(tmp_path / "probe"), "wheel", timeout=60)
    if probe.returncode != 0:
        pytest.skip(f"pip cannot reach the package index: {probe.stderr[-300:]}")
    t0 = time.monotonic()
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=_NOT_SOURCE)
    built = _pip(sys.executable, "wheel", "--no-deps", "-w", str(tmp_path / "dist"), str(src), timeout=240)
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    (wheel,) = (tmp_path / "dist").glob("mjcore-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
    assert "mjservice/_gen/mahjong/v1/mahjong_rules_pb2.py" in names  # stubs built into the wheel
    assert any(n.startswith("mjservice/_wire.") and n.endswith(".so") for n in names)
    assert not [n for n in names if n.startswith("service/")], "no top-level 'service' package"
    # every module of service/ goes in, found rather than listed (a new one needs no change)
    missing = [f.name for f in (ROOT / "service").glob("*.py") if f"mjservice/{f.name}" not in names]
    assert missing == []
    with zipfile.ZipFile(wheel) as z:  # nothing imports the package by its folder's name
        absolute = [n for n in names if n.endswith(".py") and _ABSOLUTE.search(z.read(n).decode())]
    assert absolute == []
    t_build = time.monotonic() - t0

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=60)
    py = venv / "bin" / "python"
    inst = _pip(py, "install", str(wheel), timeout=240)
    assert inst.returncode == 0, inst.stdout[-2000:] + inst.stderr[-2000:]
    t_install = time.monotonic() - t0 - t_build

    away = tmp_path / "elsewhere"  # no repository, no protos on any path
    away.mkdir()
    env = {"PATH": f"{venv / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path)}
    helped = subprocess.run(  # the console script
        [str(venv / "bin" / "mjservice"), "--help"], cwd=away, env=env, capture_output=True, text=True,
        timeout=60,
    )
    assert helped.returncode == 0 and "MAHJONG_PORT" in helped.stdout, helped.stderr
    proc = subprocess.Popen(
        [str(py), "-m", "mjservice", "--port", "0", "--workers", "1", "--reuse-port", "false"],
        cwd=away, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("LISTENING "), line + proc.stderr.read() if proc.stderr else ""
        target = "127.0.0.1:" + line.rsplit(":", 1)[1].strip()
        with grpc.insecure_channel(target) as ch:
            req = pb2.ScoreRequest(
                ruleset="sichuan", hand=pb2.Hand(text="123m456m789m234p55p"), win_tile=pb2.Tile(text="5p")
            )
            assert pb2_grpc.MahjongRulesStub(ch).Score(req, timeout=20).result.multiplier == 1
            check = health_pb2_grpc.HealthStub(ch).Check(health_pb2.HealthCheckRequest(), timeout=10)
            assert check.status == health_pb2.HealthCheckResponse.SERVING
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout:
            proc.stdout.close()
        if proc.stderr:
            proc.stderr.close()
    print(f"wheel built in {t_build:.1f} s, installed in {t_install:.1f} s")
