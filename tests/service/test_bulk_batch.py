"""ScoreBatch and ScoreStream score a message's plain hands in one compiled call
(``CompiledTable.score_batch_detail``, service._wire) and give, byte for byte, the reply the
one-by-one path gives: the same servicer with the batch turned off. Random messages over the
rule sets, with valid and refused items (whose errors name their fields), options, contexts,
summary_only, more distinct contexts than one call takes, and deadlines.
"""

from __future__ import annotations

import random
from typing import Any

import grpc
import pytest
from test_wire import Aborted, FakeContext, random_bulk, random_item, random_options

from mjcore.rules import guangdong, sichuan
from mjcore.rules.common import compiled
from service import loadtest as lt
from service.pb import pb2
from service.servicer import MahjongRulesServicer

# the batch path is the compiled path's: with MJ_PURE_SCORING=1 every hand goes one by one
pytestmark = pytest.mark.skipif(compiled.PURE, reason="MJ_PURE_SCORING: no compiled tables")


class _CountingTable:
    """A compiled table that counts the hands it is asked to score in bulk."""

    def __init__(self, table: Any, seen: list[int]) -> None:
        self.table = table
        self.seen = seen

    def score_batch_detail(self, counts: Any, wins: Any, *rest: Any) -> Any:
        self.seen.append(len(wins))
        return self.table.score_batch_detail(counts, wins, *rest)


def _servicers() -> tuple[MahjongRulesServicer, MahjongRulesServicer, list[int]]:
    """(batching servicer, one-by-one servicer, hands the batching one scored in bulk)."""
    fast, slow = MahjongRulesServicer(), MahjongRulesServicer()
    slow._batch = lambda *a: None  # type: ignore[method-assign]
    seen: list[int] = []
    inner = fast._batch

    def counted(*args: Any) -> Any:
        got = inner(*args)
        return None if got is None else (_CountingTable(got[0], seen), *got[1:])

    fast._batch = counted  # type: ignore[method-assign]
    return fast, slow, seen


def _reply(svc: MahjongRulesServicer, data: bytes, stream: bool) -> bytes | tuple[Any, ...]:
    ctx = FakeContext()
    try:
        if stream:
            return b"".join(svc.ScoreStream(iter([data]), ctx))
        return svc.ScoreBatch(data, ctx)
    except Aborted:
        return ("aborted", ctx.status)


def _same_replies(msgs: list[bytes], stream: bool = False) -> tuple[int, int, list[pb2.ScoreOutcome]]:
    """Each message through both servicers: identical replies. (items, items scored in bulk,
    the error outcomes)."""
    fast, slow, seen = _servicers()
    items = 0
    errors = []
    for data in msgs:
        _clear()  # each path scores hands it has not seen
        got = _reply(fast, data, stream)
        _clear()
        want = _reply(slow, data, stream)
        assert got == want, data.hex()
        if isinstance(got, bytes):
            outcomes = pb2.ScoreBatchResponse.FromString(got).outcomes
            items += len(outcomes)
            errors += [o for o in outcomes if o.WhichOneof("outcome") == "error"]
    return items, sum(seen), errors


def _clear() -> None:
    sichuan.clear_caches()
    guangdong.clear_caches()


def _plain_item(rng: random.Random, n: int, ruleset: str) -> pb2.ScoreItem:
    """A valid item the batch takes (mostly): a plain hand text, a fitting context."""
    item = random_item(rng, n, ruleset)
    text, win, missing = lt._random_hand(rng)
    item.hand.Clear()
    item.hand.text = text
    item.win_tile.Clear()
    item.win_tile.text = win
    if ruleset == "sichuan" and rng.random() < 0.3:
        item.context.sichuan.missing_suit = {"m": pb2.SUIT_M, "p": pb2.SUIT_P, "s": pb2.SUIT_S}[missing]
    return item


def _message(rng: random.Random, cls: Any, ruleset: str, n: int, plain: float) -> bytes:
    req = cls(ruleset=ruleset, summary_only=rng.random() < 0.3)
    if rng.random() < 0.4:
        req.options.CopyFrom(random_options(rng, ruleset))
    for i in range(n):
        make = _plain_item if rng.random() < plain else random_item
        req.items.append(make(rng, i, ruleset))
    data: bytes = req.SerializeToString()
    return data


@pytest.mark.parametrize("stream", [False, True])
def test_random_messages_byte_identical(stream: bool) -> None:
    rng = random.Random(1201 + stream)
    cls = pb2.ScoreStreamRequest if stream else pb2.ScoreBatchRequest
    msgs = [random_bulk(rng, cls).SerializeToString() for _ in range(120)]
    msgs += [_message(rng, cls, rng.choice(["sichuan", "guangdong"]), rng.randint(1, 120), 0.7)
             for _ in range(60)]
    items, bulk, errors = _same_replies(msgs, stream)
    assert bulk > 0.25 * items, (bulk, items)  # the batch answered a good share
    fields = {e.error.field for e in errors}
    assert len(errors) > 500 and {"hand.text", "win_tile"} <= fields, fields


def test_every_rule_set_byte_identical() -> None:
    """Every rule set's worked cases (rule sets without a batch scorer answer one by one), and
    options that leave the batch off (Guangdong's min_fan), answer as before."""
    from test_ops_cases import CASES, _item, _options

    msgs = []
    for case in CASES:
        req = pb2.ScoreBatchRequest(ruleset=case["ruleset"], items=[_item(case)] * 3)
        options = _options(case)
        if options is not None:
            req.options.CopyFrom(options)
        msgs.append(req.SerializeToString())
    items, bulk, _ = _same_replies(msgs)
    assert items == 3 * len(CASES) and bulk > 0
    rng = random.Random(1203)
    g = pb2.RulesetOptions(guangdong=pb2.GuangdongOptions(min_fan=1))
    req = pb2.ScoreBatchRequest(ruleset="guangdong", options=g,
                                items=[_plain_item(rng, i, "guangdong") for i in range(50)])
    items, bulk, _ = _same_replies([req.SerializeToString()])
    assert items == 50 and bulk == 0


def test_more_contexts_than_one_call_takes() -> None:
    """Past 256 distinct (context, self_drawn) in a message, the rest go one by one."""
    rng = random.Random(1204)
    items = []
    for i in range(900):
        item = _plain_item(rng, i, "sichuan")
        item.context.Clear()
        s = item.context.sichuan
        s.winner = rng.randrange(4)
        s.kong_feeder = rng.randrange(4)
        s.active_seats.seats.extend(sorted(rng.sample(range(4), rng.randint(2, 4))))
        if not item.self_drawn:
            s.discarder = rng.randrange(4)
        items.append(item)
    data = pb2.ScoreBatchRequest(ruleset="sichuan", items=items).SerializeToString()
    distinct = {(it.context.SerializeToString(), it.self_drawn) for it in items}
    assert len(distinct) > 256
    n, _, _ = _same_replies([data])
    assert n == 900


class _Expired(FakeContext):
    def time_remaining(self) -> float | None:
        return 0.0


def test_deadline_checked_on_the_batch_path() -> None:
    rng = random.Random(1205)
    req = pb2.ScoreBatchRequest(ruleset="sichuan", items=[_plain_item(rng, i, "sichuan") for i in range(200)])
    fast, _, seen = _servicers()
    ctx = _Expired()
    with pytest.raises(Aborted):
        fast.ScoreBatch(req.SerializeToString(), ctx)
    assert ctx.status is not None and ctx.status[0] == grpc.StatusCode.DEADLINE_EXCEEDED
    assert seen
