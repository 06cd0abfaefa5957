"""The bearer token: the scheme in any letter case, and the token from a file or the
environment instead of the command line (where every user of the machine can read it)."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest
from svc_helpers import hand, start, tile

from service.config import parse_config
from service.pb import pb2, pb2_grpc

SCORE = pb2.ScoreRequest(ruleset="sichuan", hand=hand("123m456m789m234p55p"), win_tile=tile("5p"))


def _code(stub: pb2_grpc.MahjongRulesStub, value: str) -> grpc.StatusCode:
    try:
        stub.Score(SCORE, timeout=5, metadata=[("authorization", value)])
    except grpc.RpcError as e:
        return e.code()  # type: ignore[no-any-return]
    return grpc.StatusCode.OK


def test_bearer_scheme_in_any_case(tmp_path: Path) -> None:
    secret = tmp_path / "token"
    secret.write_text("s3cret-token\n")  # as an editor or a Kubernetes secret leaves it
    cfg = parse_config(["--port", "0", "--token-file", str(secret)], env={})
    assert cfg.auth_token == "s3cret-token"
    r = start(auth_token=cfg.auth_token)
    try:
        with grpc.insecure_channel(r.target) as ch:
            stub = pb2_grpc.MahjongRulesStub(ch)
            for scheme in ("Bearer", "bearer", "BEARER", "bEaReR"):
                assert _code(stub, f"{scheme} s3cret-token") == grpc.StatusCode.OK, scheme
            for wrong in ("Bearer s3cret", "Basic s3cret-token", "s3cret-token", "Bearer", ""):
                assert _code(stub, wrong) == grpc.StatusCode.UNAUTHENTICATED, wrong
    finally:
        r.stop(0)


def test_token_from_file_or_environment(tmp_path: Path) -> None:
    secret = tmp_path / "token"
    secret.write_text("from-file\n")
    assert parse_config([], env={"MAHJONG_AUTH_TOKEN_FILE": str(secret)}).auth_token == "from-file"
    assert parse_config(["--auth-token-file", str(secret)], env={}).auth_token == "from-file"
    assert parse_config([], env={"MAHJONG_AUTH_TOKEN": "from-env"}).auth_token == "from-env"
    assert parse_config([], env={}).auth_token is None
    with pytest.raises(SystemExit, match="once"):
        parse_config(["--token-file", str(secret)], env={"MAHJONG_AUTH_TOKEN": "x"})
    (tmp_path / "empty").write_text("\n")
    with pytest.raises(SystemExit, match="empty"):
        parse_config(["--token-file", str(tmp_path / "empty")], env={})
    with pytest.raises(SystemExit, match="cannot read"):
        parse_config(["--token-file", str(tmp_path / "missing")], env={})


def test_new_flags_have_environment_variables() -> None:
    env = {
        "MAHJONG_MAX_STREAMS": "7",
        "MAHJONG_MAX_STREAMS_PER_CONNECTION": "3",
        "MAHJONG_STREAM_IDLE_SECONDS": "5",
        "MAHJONG_STREAM_MAX_SECONDS": "9",
        "MAHJONG_MAX_CONNECTION_AGE_SECONDS": "11",
        "MAHJONG_MAX_CONNECTION_AGE_GRACE_SECONDS": "2",
        "MAHJONG_METRICS_HOST": "0.0.0.0",
        "MAHJONG_MAX_RESTARTS_PER_MINUTE": "4",
    }
    cfg = parse_config([], env=env)
    got = (
        cfg.max_streams,
        cfg.max_streams_per_connection,
        cfg.stream_idle_seconds,
        cfg.stream_max_seconds,
        cfg.max_connection_age_seconds,
        cfg.max_connection_age_grace_seconds,
        cfg.metrics_host,
        cfg.max_restarts_per_minute,
    )
    assert got == (7, 3, 5.0, 9.0, 11.0, 2.0, "0.0.0.0", 4)
    d = parse_config([], env={})
    assert (d.metrics_host, d.reuse_port) == ("127.0.0.1", None)  # SO_REUSEPORT: by worker count
    assert parse_config(["--workers", "1"], env={}).effective_reuse_port is False
    assert parse_config(["--workers", "3"], env={}).effective_reuse_port is True
    with pytest.raises(SystemExit):
        parse_config(["--max-streams", "0"], env={})
