"""The proto contract: buf lint (STANDARD), stub generation location, documented fields."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

from service import _codegen
from service.pb import pb2

ROOT = Path(__file__).resolve().parents[2]
PROTOS = ROOT / "protos"


def _buf() -> str:
    cand = Path(sys.executable).parent / "buf"
    found = str(cand) if cand.exists() else shutil.which("buf")
    assert found, "buf not found: install buf-bin (a test dependency)"
    return found


def test_buf_lint_standard() -> None:
    out = subprocess.run([_buf(), "lint"], cwd=PROTOS, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    cfg = (PROTOS / "buf.yaml").read_text()
    assert "STANDARD" in cfg and "except" not in cfg


def test_stubs_live_under_service_not_top_level_mahjong() -> None:
    assert pb2.__name__ == "service._gen.mahjong.v1.mahjong_rules_pb2"
    assert pb2.DESCRIPTOR.name == "mahjong/v1/mahjong_rules.proto"
    assert not (ROOT / "mahjong").exists()
    spec = importlib.util.find_spec("mahjong")
    if spec is not None:  # the PyPI package, if installed, is not shadowed by our stubs
        assert spec.origin is None or "service" not in spec.origin
    grpc_mod = (_codegen.GEN_DIR / "mahjong" / "v1" / "mahjong_rules_pb2_grpc.py").read_text()
    assert "from ...mahjong.v1 import" in grpc_mod  # relative: works as service or mjservice
    assert "\nfrom mahjong" not in grpc_mod and "\nimport mahjong" not in grpc_mod
    assert _codegen.is_current()


def test_codegen_into_fresh_dir(tmp_path: Path) -> None:
    """Generation works from scratch (as at build time) and is idempotent."""
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    pkg = tmp_path / "service"
    shutil.copytree(ROOT / "service", pkg, ignore=shutil.ignore_patterns("_gen", "__pycache__"))
    shutil.copytree(PROTOS, tmp_path / "protos")
    for _ in range(2):
        out = subprocess.run(
            [sys.executable, "-m", "service._codegen"], cwd=tmp_path, env=env, capture_output=True, text=True
        )
        assert out.returncode == 0, out.stderr
    assert (pkg / "_gen" / "mahjong" / "v1" / "mahjong_rules_pb2.pyi").exists()


def test_every_field_and_value_documented() -> None:
    """Each message field, enum value and RPC carries a comment in the proto source."""
    from google.protobuf import descriptor_pb2

    fdp = descriptor_pb2.FileDescriptorProto()
    pb2.DESCRIPTOR.CopyToProto(fdp)
    # protoc does not keep source info in the runtime descriptor: check the text instead.
    lines = (PROTOS / "mahjong" / "v1" / "mahjong_rules.proto").read_text().splitlines()
    undocumented = []
    for i, line in enumerate(lines):
        s = line.strip()
        is_decl = (
            s.endswith(";") and "=" in s and not s.startswith(("//", "option", "syntax", "package"))
        ) or s.startswith(("rpc ", "message ", "enum ", "service "))
        if is_decl and not lines[i - 1].strip().startswith("//"):
            undocumented.append(f"{i + 1}: {s}")
    assert undocumented == []
    assert len(fdp.message_type) > 20
