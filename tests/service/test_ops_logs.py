"""Echoed input and logs stay small: a long rule-set name is not echoed whole, and internal
errors are logged at most ERROR_LOGS_PER_SECOND lines a second per method, the dropped lines
counted. Real server on 127.0.0.1, bounded counts."""

from __future__ import annotations

import logging
import time

import grpc
import pytest
from svc_helpers import hand, start, tile

from service import convert
from service.errors import MAX_MESSAGE_CHARS, clip
from service.interceptors import ERROR_LOGS_PER_SECOND
from service.pb import pb2, pb2_grpc

SCORE = pb2.ScoreRequest(ruleset="sichuan", hand=hand("123m456m789m234p55p"), win_tile=tile("5p"))


def test_long_ruleset_name_is_not_echoed_whole() -> None:
    r = start()
    ch = grpc.insecure_channel(r.target)
    try:
        with pytest.raises(grpc.RpcError) as ei:
            pb2_grpc.MahjongRulesStub(ch).DescribeRuleset(
                pb2.DescribeRulesetRequest(ruleset="x" * 5500), timeout=5
            )
        assert ei.value.code() == grpc.StatusCode.NOT_FOUND
        assert len(ei.value.details() or "") < 300
    finally:
        ch.close()
        r.stop(0)


def test_echoed_input_is_clipped_in_replies_and_details() -> None:
    """A 5,000-character move kind came back whole in ValidateMove's message (the engine quotes
    it); every message and error detail the service sends is cut to MAX_MESSAGE_CHARS."""
    r = start()
    ch = grpc.insecure_channel(r.target)
    try:
        stub = pb2_grpc.MahjongRulesStub(ch)
        view = pb2.TableView(seat=0, hand=hand("123m456m789m234p5p9s"), phase="turn")
        reply = stub.ValidateMove(
            pb2.ValidateMoveRequest(ruleset="sichuan", state=view, move=pb2.Move(kind="k" * 5000)), timeout=5
        )
        assert not reply.legal and reply.reason == "bad_move"
        assert len(reply.message) <= MAX_MESSAGE_CHARS
        batch = pb2.ScoreBatchRequest(
            ruleset="sichuan",
            items=[pb2.ScoreItem(id="a", hand=hand("123m456m789m234p55p"), win_tile=tile("5p" * 2000))],
        )
        item = stub.ScoreBatch(batch, timeout=5).outcomes[0]
        assert item.error.code == "bad_tile" and len(item.error.message) <= MAX_MESSAGE_CHARS
    finally:
        ch.close()
        r.stop(0)
    assert len(clip("x" * 10_000)) == MAX_MESSAGE_CHARS and clip("short") == "short"


def test_internal_error_logs_are_rate_limited(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def boom(*a: object, **k: object) -> None:
        raise RuntimeError("simulated bug")

    r = start()
    ch = grpc.insecure_channel(r.target)
    stub = pb2_grpc.MahjongRulesStub(ch)
    monkeypatch.setattr(convert, "score_result_bytes", boom)
    try:
        with caplog.at_level(logging.ERROR, logger="service"):
            start_t = time.monotonic()
            for _ in range(60):
                with pytest.raises(grpc.RpcError) as ei:
                    stub.Score(SCORE, timeout=5)
                assert ei.value.code() == grpc.StatusCode.INTERNAL
            seconds = int(time.monotonic() - start_t) + 2  # windows touched
            lines = [rec for rec in caplog.records if "internal error in" in rec.getMessage()]
            assert 1 <= len(lines) <= seconds * ERROR_LOGS_PER_SECOND, len(lines)
            time.sleep(1.05)  # a new window: the next line says how many were dropped
            with pytest.raises(grpc.RpcError):
                stub.Score(SCORE, timeout=5)
        last = [rec.getMessage() for rec in caplog.records if "internal error in" in rec.getMessage()][-1]
        assert "similar lines dropped before this one" in last, last
    finally:
        ch.close()
        r.stop(0)
