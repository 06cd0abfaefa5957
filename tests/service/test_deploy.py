"""The deployment files parse and agree with the server's flags and health service name."""

from __future__ import annotations

from pathlib import Path

from service.config import build_parser
from service.pb import SERVICE_NAME

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def test_k8s_manifest_probes_and_env() -> None:
    text = (DEPLOY / "k8s.yaml").read_text()
    assert "kind: Deployment" in text and "kind: Service" in text
    assert f"service: {SERVICE_NAME}" in text  # readiness = the service's health status
    assert text.count("grpc: {port: 50051") == 3
    assert "requests: {cpu:" in text
    flags = {a.dest.upper() for a in build_parser({})._actions}
    for line in text.splitlines():
        line = line.strip().lstrip("#- ").strip()
        if line.startswith("{name: MAHJONG_") or line.startswith("name: MAHJONG_"):
            var = line.split("MAHJONG_", 1)[1].split(",")[0].split("}")[0].strip()
            assert var in flags, var


def test_dockerfile_env_matches_flags() -> None:
    text = (DEPLOY / "Dockerfile").read_text()
    flags = {a.dest.upper() for a in build_parser({})._actions}
    for tok in text.replace("\\", " ").split():
        if tok.startswith("MAHJONG_") and "=" in tok:
            name = tok.split("=")[0][len("MAHJONG_"):]
            assert name in flags, name
    assert 'ENTRYPOINT ["python", "-m", "mjservice"]' in text  # the installed name
