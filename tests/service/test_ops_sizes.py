"""CPU bounded by what a real hand holds: repeated fields refused past their cap before any
conversion (INVALID_ARGUMENT naming the field), and requests of the methods other than
ScoreBatch/ScoreStream refused past 64 KiB. Real server on 127.0.0.1, bounded counts."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from svc_helpers import hand, start, tile

from service.errors import decode_details
from service.pb import pb2, pb2_grpc
from service.servicer import MAX_UNARY_REQUEST_BYTES

H = hand("123m456m789m234p55p")


@pytest.fixture(scope="module")
def stub() -> Iterator[pb2_grpc.MahjongRulesStub]:
    r = start()
    ch = grpc.insecure_channel(r.target)
    yield pb2_grpc.MahjongRulesStub(ch)
    ch.close()
    r.stop(0)


def _refused(call: object, request: object) -> tuple[grpc.StatusCode, str, str, str]:
    with pytest.raises(grpc.RpcError) as ei:
        call(request, timeout=10)  # type: ignore[operator]
    d = decode_details(ei.value)
    code, field = (d[0], d[1]) if d else ("", "")
    return ei.value.code(), code, field, ei.value.details() or ""


def _ding_que(seat: int) -> pb2.Event:
    return pb2.Event(sichuan=pb2.SichuanEvent(ding_que=pb2.SichuanDingQue(seat=seat % 4, suit=pb2.SUIT_S)))


def test_settle_refuses_too_many_events_before_converting(stub: pb2_grpc.MahjongRulesStub) -> None:
    req = pb2.SettleRequest(ruleset="sichuan", events=[_ding_que(i) for i in range(600)])
    assert req.ByteSize() < MAX_UNARY_REQUEST_BYTES
    status, code, field, _ = _refused(stub.Settle, req)
    assert (status, code, field) == (grpc.StatusCode.INVALID_ARGUMENT, "too_many_items", "events")


def test_waits_refuses_too_many_visible_tiles(stub: pb2_grpc.MahjongRulesStub) -> None:
    req = pb2.WaitsRequest(ruleset="sichuan", hand=hand("123m456m789m234p5p"), visible_tile_ids=[1] * 5000)
    status, code, field, _ = _refused(stub.Waits, req)
    assert (status, code, field) == (grpc.StatusCode.INVALID_ARGUMENT, "too_many_items", "visible_tile_ids")


def test_structured_hand_too_long_names_the_field(stub: pb2_grpc.MahjongRulesStub) -> None:
    big = pb2.Hand(structured=pb2.StructuredHand(concealed_tile_ids=[1] * 3000))
    status, code, field, _ = _refused(
        stub.Score, pb2.ScoreRequest(ruleset="sichuan", hand=big, win_tile=tile("5p"))
    )
    assert (status, code, field) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "too_many_items",
        "hand.structured.concealed_tile_ids",
    )
    # in a batch the item says so, the others are scored
    items = [
        pb2.ScoreItem(id="big", hand=big, win_tile=tile("5p")),
        pb2.ScoreItem(id="ok", hand=H, win_tile=tile("5p")),
    ]
    out = stub.ScoreBatch(pb2.ScoreBatchRequest(ruleset="sichuan", items=items), timeout=10)
    assert out.outcomes[0].error.code == "too_many_items"
    assert out.outcomes[0].error.field == "hand.structured.concealed_tile_ids"
    assert out.outcomes[1].result.value >= 0


def test_non_bulk_methods_have_a_smaller_receive_limit(stub: pb2_grpc.MahjongRulesStub) -> None:
    big_preset = pb2.RulesetOptions(preset="x" * (MAX_UNARY_REQUEST_BYTES + 10))
    for call, req in (
        (stub.Settle, pb2.SettleRequest(ruleset="sichuan", options=big_preset)),
        (stub.Score, pb2.ScoreRequest(ruleset="sichuan", hand=H, win_tile=tile("5p"), options=big_preset)),
        (stub.DescribeRuleset, pb2.DescribeRulesetRequest(ruleset="x" * (MAX_UNARY_REQUEST_BYTES + 10))),
    ):
        status, _, _, details = _refused(call, req)
        assert status == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert f"over the {MAX_UNARY_REQUEST_BYTES} byte limit" in details
    # the bulk methods take far more (--max-message-bytes)
    item = pb2.ScoreItem(id="a" * 40, hand=H, win_tile=tile("5p"))
    batch = pb2.ScoreBatchRequest(ruleset="sichuan", items=[item] * 2000)
    assert batch.ByteSize() > 2 * MAX_UNARY_REQUEST_BYTES
    assert len(stub.ScoreBatch(batch, timeout=30).outcomes) == 2000


def test_stream_message_over_the_item_cap_ends_the_stream(stub: pb2_grpc.MahjongRulesStub) -> None:
    """A ScoreStream message over MAX_BATCH_ITEMS ends the stream with INVALID_ARGUMENT
    (too_many_items, field items); the replies to the messages before it were sent."""
    from service.convert import MAX_BATCH_ITEMS

    item = pb2.ScoreItem(id="a", hand=H, win_tile=tile("5p"))
    msgs = [
        pb2.ScoreStreamRequest(ruleset="sichuan", items=[item]),
        pb2.ScoreStreamRequest(ruleset="sichuan", items=[item] * (MAX_BATCH_ITEMS + 1)),
        pb2.ScoreStreamRequest(ruleset="sichuan", items=[item]),
    ]
    replies = []
    with pytest.raises(grpc.RpcError) as ei:
        for reply in stub.ScoreStream(iter(msgs), timeout=30):
            replies.append(reply)
    assert len(replies) == 1 and len(replies[0].outcomes) == 1
    d = decode_details(ei.value)
    assert ei.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert d is not None and d[:2] == ("too_many_items", "items")


def test_settle_checks_the_deadline_before_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Settle whose deadline passed while its events were converted never reaches the
    engine (the client's DEADLINE_EXCEEDED alone would not show that: the ledger is what the
    engine's work ends in, so it is what is watched)."""
    import time

    import service.convert as cv

    real_events, real_ledger = cv.events_of, cv.ledger_pb
    ledgers: list[object] = []

    def slow(*a: object, **k: object) -> object:
        time.sleep(0.4)
        return real_events(*a, **k)  # type: ignore[arg-type]

    def ledger(x: object) -> object:
        ledgers.append(x)
        return real_ledger(x)

    monkeypatch.setattr(cv, "events_of", slow)
    monkeypatch.setattr(cv, "ledger_pb", ledger)
    r = start()
    ch = grpc.insecure_channel(r.target)
    try:
        req = pb2.SettleRequest(ruleset="sichuan", events=[_ding_que(s) for s in range(4)])
        with pytest.raises(grpc.RpcError) as ei:
            pb2_grpc.MahjongRulesStub(ch).Settle(req, timeout=0.2)
        assert ei.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        time.sleep(0.6)  # the handler has finished by now
        assert ledgers == []
        assert pb2_grpc.MahjongRulesStub(ch).Settle(req, timeout=5) is not None  # and without a rush
    finally:
        ch.close()
        r.stop(0)


def test_legal_moves_checks_the_deadline_before_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """As for Settle: the table view took past the deadline, the engine is not asked."""
    import time

    import service.convert as cv

    real_view, real_move = cv.table_view_of, cv.move_pb
    moves: list[object] = []

    def slow(*a: object, **k: object) -> object:
        time.sleep(0.4)
        return real_view(*a, **k)  # type: ignore[arg-type]

    def move(m: object) -> object:
        moves.append(m)
        return real_move(m)

    monkeypatch.setattr(cv, "table_view_of", slow)
    monkeypatch.setattr(cv, "move_pb", move)
    view = pb2.TableView(
        seat=0, hand=H, phase="turn", wall_count=40, sichuan=pb2.SichuanView(missing_suit=pb2.SUIT_S)
    )
    req = pb2.LegalMovesRequest(ruleset="sichuan", state=view)
    r = start()
    ch = grpc.insecure_channel(r.target)
    try:
        with pytest.raises(grpc.RpcError) as ei:
            pb2_grpc.MahjongRulesStub(ch).LegalMoves(req, timeout=0.2)
        assert ei.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        time.sleep(0.6)
        assert moves == []
        assert pb2_grpc.MahjongRulesStub(ch).LegalMoves(req, timeout=5).moves  # and without a rush
    finally:
        ch.close()
        r.stop(0)
