"""Schema-driven fuzzing of every ``MahjongRules`` method on a real server (127.0.0.1, port 0):
valid requests mutated at the byte level (flip, insert, delete) and through the descriptors
(a random field anywhere set to an extreme or unknown value). Whatever arrives, the answer is
never INTERNAL or UNKNOWN (those are for bugs) and the server stays healthy. Bounded: a fixed
seed (``MAHJONG_FUZZ_SEED`` to vary it), 3,000 requests, at most 60 s."""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable
from typing import Any

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from svc_helpers import hand, start, tile

from service.pb import pb2

RULES = "/mahjong.v1.MahjongRules/"
REQUESTS = 3000
BUDGET_SECONDS = 60.0
BAD = (grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN)

_H = hand("123m456m789m234p55p")
_VIEW = pb2.TableView(
    seat=0, hand=_H, phase="turn", wall_count=40, sichuan=pb2.SichuanView(missing_suit=pb2.SUIT_S)
)
_OPTS = pb2.RulesetOptions(sichuan=pb2.SichuanOptions(base=2, cap_fan=pb2.IntOrNone(value=3)))
_ITEM = pb2.ScoreItem(id="a", hand=_H, win_tile=tile("5p"))
_EVENTS = [
    pb2.Event(sichuan=pb2.SichuanEvent(ding_que=pb2.SichuanDingQue(seat=s, suit=pb2.SUIT_S)))
    for s in range(4)
] + [
    pb2.Event(kong=pb2.KongEvent(kind=pb2.KONG_KIND_ANGANG, seat=1, tile=tile("7m"))),
    pb2.Event(win=pb2.WinEvent(seat=0, hand=_H, win_tile=tile("5p"), discarder_seat=2)),
]

SEEDS: dict[str, Any] = {
    "Score": pb2.ScoreRequest(ruleset="sichuan", hand=_H, win_tile=tile("5p"), options=_OPTS),
    "Waits": pb2.WaitsRequest(ruleset="sichuan", hand=hand("123m456m789m234p5p"), visible_tile_ids=[13]),
    "ValidateMove": pb2.ValidateMoveRequest(
        ruleset="sichuan", state=_VIEW, move=pb2.Move(kind="discard", tiles=[tile("1m")])
    ),
    "LegalMoves": pb2.LegalMovesRequest(ruleset="sichuan", state=_VIEW, options=_OPTS),
    "Settle": pb2.SettleRequest(ruleset="sichuan", events=_EVENTS, dealer_seat=0, options=_OPTS),
    "ListRulesets": pb2.ListRulesetsRequest(),
    "DescribeRuleset": pb2.DescribeRulesetRequest(ruleset="sichuan"),
    "ScoreBatch": pb2.ScoreBatchRequest(ruleset="sichuan", items=[_ITEM, _ITEM], options=_OPTS),
    "ScoreStream": pb2.ScoreStreamRequest(ruleset="sichuan", items=[_ITEM], options=_OPTS),
}

RULESETS = [f.name for f in pb2.RulesetOptions.DESCRIPTOR.oneofs_by_name["options"].fields]
_INTS = [0, 1, -1, 3, 4, 33, 34, 99, 255, 2**31 - 1, 2**31, 2**32 - 1, 2**53, 2**62, 2**63 - 1, -(2**63)]
_UINTS = [0, 1, 3, 4, 33, 34, 99, 255, 2**31, 2**32 - 1, 2**63, 2**64 - 1]
_TEXTS = ["", "5p", "0m", "10m", "123m", "x" * 300, "\u4e2d", "sichuan", "guangdong", "wuhan", "turn"]

_FD = Any  # google.protobuf FieldDescriptor


def _scalar(fd: _FD, rng: random.Random) -> object:
    t = fd.type
    if fd.enum_type is not None:
        return rng.choice([0, 1, 2, 5, 99, -1, 2**31 - 1, -(2**31)])
    if t in (fd.TYPE_BOOL,):
        return rng.random() < 0.5
    if t in (fd.TYPE_STRING,):
        return rng.choice(_TEXTS)
    if t in (fd.TYPE_BYTES,):
        return bytes(rng.randrange(256) for _ in range(rng.randrange(8)))
    if t in (fd.TYPE_UINT32, fd.TYPE_FIXED32):
        return rng.choice([v for v in _UINTS if v < 2**32])
    if t in (fd.TYPE_UINT64, fd.TYPE_FIXED64):
        return rng.choice(_UINTS)
    if t in (fd.TYPE_INT32, fd.TYPE_SINT32, fd.TYPE_SFIXED32):
        return rng.choice([v for v in _INTS if -(2**31) <= v < 2**31])
    if t in (fd.TYPE_DOUBLE, fd.TYPE_FLOAT):
        return rng.choice([0.0, -1.0, 1e300, float("nan")])
    return rng.choice(_INTS)


def _set_random(msg: Any, rng: random.Random, ruleset: str, depth: int = 0) -> None:
    """Set one random field somewhere in ``msg`` to a random (often extreme) value; a rule
    set's own member of a oneof is mostly ``ruleset``'s (another's is refused at once)."""
    fields = msg.DESCRIPTOR.fields
    if not fields:
        return
    fd = rng.choice(fields)
    if fd.name in RULESETS and fd.name != ruleset and rng.random() < 0.9:
        fd = msg.DESCRIPTOR.fields_by_name.get(ruleset, fd)
    repeated = bool(fd.is_repeated)
    if fd.message_type is not None:
        if fd.message_type.GetOptions().map_entry:
            return
        if repeated:
            items = getattr(msg, fd.name)
            sub = items[rng.randrange(len(items))] if len(items) and rng.random() < 0.6 else items.add()
        else:
            sub = getattr(msg, fd.name)
            sub.SetInParent()
        if depth < 6:
            _set_random(sub, rng, ruleset, depth + 1)
        return
    value = _scalar(fd, rng)
    try:
        if repeated:
            getattr(msg, fd.name).extend([value] * rng.randrange(1, 4))
        else:
            setattr(msg, fd.name, value)
    except (ValueError, TypeError):  # a value the field's type cannot hold: not sendable
        pass


def _mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    b = bytearray(data)
    for _ in range(rng.randrange(1, 4)):
        op = rng.randrange(3)
        if op == 0 and b:
            b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
        elif op == 1:
            b.insert(rng.randrange(len(b) + 1), rng.randrange(256))
        elif b:
            del b[rng.randrange(len(b))]
    return bytes(b)


def _request(method: str, rng: random.Random) -> bytes:
    seed = SEEDS[method]
    if rng.random() < 0.25:
        return _mutate_bytes(seed.SerializeToString(), rng)
    msg = type(seed)()
    msg.CopyFrom(seed)
    ruleset = "sichuan"
    if "ruleset" in msg.DESCRIPTOR.fields_by_name and rng.random() < 0.5:
        ruleset = msg.ruleset = rng.choice(RULESETS)
        if "options" in msg.DESCRIPTOR.fields_by_name and msg.HasField("options"):
            msg.options.Clear()
            getattr(msg.options, ruleset).SetInParent()
    for _ in range(rng.randrange(1, 4)):
        _set_random(msg, rng, ruleset)
    data: bytes = msg.SerializeToString()
    return _mutate_bytes(data, rng) if rng.random() < 0.1 else data


def _caller(channel: grpc.Channel, method: str) -> Callable[[bytes], None]:
    if method == "ScoreStream":
        call = channel.stream_stream(RULES + method)

        def stream(data: bytes) -> None:
            for _ in call(iter([data]), timeout=10):
                pass

        return stream
    unary = channel.unary_unary(RULES + method)
    return lambda data: unary(data, timeout=10)


def test_fuzzed_requests_never_internal() -> None:
    seed = int(os.environ.get("MAHJONG_FUZZ_SEED", "20261201"))
    rng = random.Random(seed)
    r = start()
    ch = grpc.insecure_channel(r.target)
    try:
        callers = {m: _caller(ch, m) for m in SEEDS}
        bad: list[str] = []
        sent = 0
        stop = time.monotonic() + BUDGET_SECONDS
        while sent < REQUESTS and time.monotonic() < stop:
            method = rng.choice(list(SEEDS))
            data = _request(method, rng)
            sent += 1
            try:
                callers[method](data)
            except grpc.RpcError as e:
                if e.code() in BAD:
                    bad.append(f"{method} {data.hex()} -> {e.code().name}: {e.details()}")
        assert sent >= 1000, f"only {sent} requests in {BUDGET_SECONDS} s"
        assert not bad, f"seed {seed}: {len(bad)} of {sent} bad:\n" + "\n".join(bad[:10])
        health = health_pb2_grpc.HealthStub(ch)
        assert health.Check(health_pb2.HealthCheckRequest(), timeout=5).status == 1
        ok = pb2.ScoreResponse.FromString(_score_bytes(ch))
        assert ok.result.value >= 0
    finally:
        ch.close()
        r.stop(0)


def _score_bytes(ch: grpc.Channel) -> bytes:
    out: bytes = ch.unary_unary(RULES + "Score")(SEEDS["Score"].SerializeToString(), timeout=5)
    return out


@pytest.mark.parametrize("method", sorted(SEEDS))
def test_seed_requests_are_valid(method: str) -> None:
    """The fuzzer's starting points are answered (so mutations start from accepted requests)."""
    r = start()
    ch = grpc.insecure_channel(r.target)
    try:
        _caller(ch, method)(SEEDS[method].SerializeToString())
    finally:
        ch.close()
        r.stop(0)
