"""Unknown fields inside ``options`` are refused (INVALID_ARGUMENT, bad_option, naming the
message and the field number) on every path: the bytes fast path (Score, ScoreBatch) and the
generated classes (the other methods, and whatever the fast path hands over) refuse the same
requests, e.g. options nesting 100 unknown groups. Real server on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from svc_helpers import hand, ld, start, tile, varint

from service.errors import decode_details
from service.pb import pb2

H = hand("123m456m789m234p55p")
RULES = "/mahjong.v1.MahjongRules/"
TYPED = pb2.RulesetOptions(sichuan=pb2.SichuanOptions(base=2))


UNKNOWN = varint(1000 << 3 | 0) + b"\x01"  # field 1000 = 1 (varint)
GROUPS = varint(1000 << 3 | 3) * 100 + varint(1000 << 3 | 4) * 100  # 100 nested groups
INNER = ld(  # sichuan { base: 5, 1000: 1 }
    pb2.RulesetOptions.DESCRIPTOR.fields_by_name["sichuan"].number,
    pb2.SichuanOptions(base=5).SerializeToString() + UNKNOWN,
)


def _requests(options: bytes) -> dict[str, bytes]:
    """Serialized requests of several methods whose ``options`` are ``options``."""
    item = pb2.ScoreItem(id="a", hand=H, win_tile=tile("5p"))
    parts = {
        "Score": pb2.ScoreRequest(ruleset="sichuan", hand=H, win_tile=tile("5p")),
        "ScoreBatch": pb2.ScoreBatchRequest(ruleset="sichuan", items=[item]),
        "Waits": pb2.WaitsRequest(ruleset="sichuan", hand=hand("123m456m789m234p5p")),
        "Settle": pb2.SettleRequest(ruleset="sichuan"),
    }
    out = {}
    for method, msg in parts.items():
        number = msg.DESCRIPTOR.fields_by_name["options"].number
        out[method] = msg.SerializeToString() + ld(number, options)
    return out


@pytest.fixture(scope="module")
def channel() -> Iterator[grpc.Channel]:
    r = start()
    ch = grpc.insecure_channel(r.target)
    yield ch
    ch.close()
    r.stop(0)


def _status(ch: grpc.Channel, method: str, data: bytes) -> tuple[grpc.StatusCode, str, str]:
    try:
        ch.unary_unary(RULES + method)(data, timeout=10)
    except grpc.RpcError as e:
        d = decode_details(e)
        return e.code(), (d[0] if d else ""), (d[1] if d else "")
    return grpc.StatusCode.OK, "", ""


def test_valid_options_still_answered(channel: grpc.Channel) -> None:
    for method, data in _requests(TYPED.SerializeToString()).items():
        assert _status(channel, method, data)[0] == grpc.StatusCode.OK, method


@pytest.mark.parametrize(
    ("where", "options", "field"),
    [
        ("top", TYPED.SerializeToString() + UNKNOWN, "options"),
        ("inside the rule set's message", INNER, "options.sichuan"),
    ],
)
def test_unknown_option_fields_are_refused(
    channel: grpc.Channel, where: str, options: bytes, field: str
) -> None:
    for method, data in _requests(options).items():
        assert _status(channel, method, data) == (grpc.StatusCode.INVALID_ARGUMENT, "bad_option", field), (
            method,
            where,
        )


def test_nested_unknown_groups_refused_by_both_paths(channel: grpc.Channel) -> None:
    """The fast path used to take options nesting 100 unknown groups that the classes refuse."""
    for method, data in _requests(TYPED.SerializeToString() + GROUPS).items():
        status, code, _ = _status(channel, method, data)
        assert status == grpc.StatusCode.INVALID_ARGUMENT, (method, status, code)
        assert code in ("bad_option", "bad_request"), (method, code)


def test_bad_option_value_names_the_option(channel: grpc.Channel) -> None:
    """An option value the engine refuses names the option's field, in every method."""
    bad = pb2.RulesetOptions(sichuan=pb2.SichuanOptions(cap_fan=pb2.IntOrNone(value=99), base=2))
    for method, data in _requests(bad.SerializeToString()).items():
        got = _status(channel, method, data)
        assert got == (grpc.StatusCode.INVALID_ARGUMENT, "bad_option", "options.sichuan.cap_fan"), method
