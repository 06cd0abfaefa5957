"""The bytes fast path of Score, ScoreBatch and ScoreStream (service._wire) gives exactly the
answers the generated classes define.

The reference never touches the code under test: the request bytes are parsed with the
generated classes (``FromString``), each hand is scored with the engine directly and the
expected reply is built with the message API. Replies are compared as parsed messages (field
order on the wire may differ). A request the classes refuse (DecodeError) must be
INVALID_ARGUMENT ``bad_request``; the servicer must never raise anything but the abort.

Requests are random (seeded) and also re-encoded by a small wire encoder below, so that the
same message can be sent with its fields shuffled, with unknown fields, with singular fields
repeated, or broken on purpose.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import grpc
import pytest
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import DecodeError, Message
from google.protobuf.unknown_fields import UnknownFieldSet
from google.rpc import error_details_pb2, status_pb2
from svc_helpers import key, ld, varint
from test_convert import (
    _reference_context,
    _reference_result,
    random_guangdong_context,
    random_sichuan_context,
)

import service.servicer as servicer_module
from mjcore import Hand, MahjongError, Meld, rules, tile_from_text, tile_to_text
from service import convert as cv
from service import loadtest as lt
from service.errors import FieldError
from service.pb import pb2
from service.servicer import MahjongRulesServicer

INVALID = grpc.StatusCode.INVALID_ARGUMENT
NOT_FOUND = grpc.StatusCode.NOT_FOUND

# --------------------------------------------------------------------------- fake call context


class Aborted(Exception):
    """What the fake context raises on abort (grpc raises its own exception there)."""


class FakeContext:
    """Records the status of an abort: (grpc status code, ErrorInfo reason or None)."""

    def __init__(self) -> None:
        self.status: tuple[grpc.StatusCode, str | None] | None = None

    def time_remaining(self) -> float | None:
        return None

    def abort(self, code: grpc.StatusCode, details: str) -> None:
        self.status = (code, None)
        raise Aborted(code, details)

    def abort_with_status(self, status: grpc.Status) -> None:
        reason = None
        for name, value in status.trailing_metadata:
            if name == "grpc-status-details-bin":
                for detail in status_pb2.Status.FromString(value).details:
                    if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                        info = error_details_pb2.ErrorInfo()
                        detail.Unpack(info)
                        reason = info.reason
        self.status = (status.code, reason)
        raise Aborted(status.code, status.details)


class Counting:
    """A servicer that counts how many items the generated classes answered (fallback and
    general path both go through ``_score_item``) and how many requests were parsed whole."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.svc = MahjongRulesServicer()
        self.slow_items = 0
        self.parsed = 0
        self.items = 0  # items answered (replies that were not aborts)
        self.calls = 0
        inner = self.svc._score_item
        parse = servicer_module._parse

        def score_item(*args: Any) -> bytes:
            self.slow_items += 1
            return inner(*args)

        def counted_parse(*args: Any) -> Any:
            self.parsed += 1
            return parse(*args)

        self.svc._score_item = score_item  # type: ignore[method-assign,assignment]
        monkeypatch.setattr(servicer_module, "_parse", counted_parse)

    @property
    def fast_items(self) -> int:
        return self.items - self.slow_items


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> Counting:
    return Counting(monkeypatch)


# --------------------------------------------------------------------------- the reference


@dataclass(frozen=True)
class Abort:
    code: grpc.StatusCode
    reason: str


class _Refused(Exception):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def _abort_for(code: str) -> Abort:
    return Abort(NOT_FOUND if code == "unknown_ruleset" else INVALID, code)


BAD_REQUEST = Abort(INVALID, "bad_request")
_MELD_KINDS = {
    pb2.MELD_KIND_CHI: "chi",
    pb2.MELD_KIND_PENG: "peng",
    pb2.MELD_KIND_GANG: "gang",
    pb2.MELD_KIND_ANGANG: "angang",
    pb2.MELD_KIND_BUGANG: "bugang",
}


def _enum_value(fd: FieldDescriptor, value: int) -> str:
    """ZIMO_BONUS_FAN -> "fan"."""
    prefix = re.sub(r"(?<!^)(?=[A-Z])", "_", fd.enum_type.name).upper() + "_"
    known = fd.enum_type.values_by_number.get(value)
    if known is None:
        raise _Refused("bad_option")
    name: str = known.name
    return name.removeprefix(prefix).lower()


def _ref_option(fd: FieldDescriptor, v: Any) -> object:
    if fd.enum_type is not None:
        return _enum_value(fd, v)
    if fd.message_type is None:
        return v
    kind = fd.message_type.name
    if kind == "IntOrNone":
        return v.value if v.HasField("value") else None
    if kind == "IntList":
        return tuple(v.values)
    assert kind == "Ratio", kind
    return (v.numerator, v.denominator)


def _has_unknown(msg: Message) -> bool:
    if len(UnknownFieldSet(msg)):
        return True
    for fd, value in msg.ListFields():
        if fd.message_type is not None:
            if any(_has_unknown(v) for v in (value if fd.is_repeated else [value])):
                return True
    return False


def _ref_setup(request: Any) -> tuple[Any, Any]:
    """The rule set and resolved options of a request, or _Refused."""
    try:
        if not request.ruleset:
            raise MahjongError("missing_ruleset", "ruleset not set")
        ruleset = rules.get_ruleset(request.ruleset)
    except MahjongError as e:
        raise _Refused(e.code) from None
    if not request.HasField("options"):
        return ruleset, ruleset.resolve_options()
    msg = request.options
    if _has_unknown(msg):  # an unknown field anywhere in the options is refused
        raise _Refused("bad_option")
    which = msg.WhichOneof("options")
    if which is not None and which != ruleset.name:
        raise _Refused("bad_option")
    values: dict[str, object] | None = None
    if which is not None:
        values = {fd.name: _ref_option(fd, v) for fd, v in getattr(msg, which).ListFields()}
    try:
        return ruleset, ruleset.resolve_options(values, msg.preset or None)
    except MahjongError as e:
        raise _Refused(e.code) from None


def _ref_hand(msg: pb2.Hand) -> Hand | str:
    form = msg.WhichOneof("form")
    if form == "text":
        return msg.text  # the engine parses text itself
    if form is None:
        raise _Refused("bad_notation")
    melds = []
    for m in msg.structured.melds:
        kind = _MELD_KINDS.get(m.kind)
        if kind is None:
            raise _Refused("bad_meld")
        melds.append(Meld.of(kind, list(m.tile_ids)))
    return Hand.from_tiles(list(msg.structured.concealed_tile_ids), melds)


def _ref_score(
    ruleset: Any,
    options: Any,
    hand: pb2.Hand,
    has_tile: bool,
    tile: pb2.Tile,
    self_drawn: bool,
    has_ctx: bool,
    ctx: pb2.WinContext,
) -> Any:
    """The engine's result, or _Refused/MahjongError/FieldError with the code."""
    arg = _ref_hand(hand)
    if not has_tile:
        raise _Refused("bad_tile")
    if tile.text:
        win: int = tile_from_text(tile.text)
    elif tile.id >= 34:
        raise _Refused("bad_tile")
    else:
        win = tile.id
    context = _reference_context(ctx, ruleset.name) if has_ctx else None
    return ruleset.engine.score(arg, win, self_drawn, context, options)


Expected = pb2.ScoreOutcome | tuple[str, str]  # a result outcome, or (id, error code)


def _ref_item(item: pb2.ScoreItem, ruleset: Any, options: Any, summary_only: bool) -> Expected:
    try:
        r = _ref_score(
            ruleset,
            options,
            item.hand,
            item.HasField("win_tile"),
            item.win_tile,
            item.self_drawn,
            item.HasField("context"),
            item.context,
        )
    except (_Refused, MahjongError, FieldError) as e:
        return (item.id, e.code)
    return pb2.ScoreOutcome(id=item.id, result=_reference_result(r, summary_only))


def ref_bulk(data: bytes, request_cls: Any) -> Abort | list[Expected]:
    try:
        req = request_cls.FromString(data)
    except DecodeError:
        return BAD_REQUEST
    try:
        ruleset, options = _ref_setup(req)
    except _Refused as e:
        return _abort_for(e.code)
    if len(req.items) > cv.MAX_BATCH_ITEMS:
        return Abort(INVALID, "too_many_items")
    return [_ref_item(item, ruleset, options, req.summary_only) for item in req.items]


def ref_unary(data: bytes) -> Abort | pb2.ScoreResponse:
    try:
        req = pb2.ScoreRequest.FromString(data)
    except DecodeError:
        return BAD_REQUEST
    try:
        ruleset, options = _ref_setup(req)
        r = _ref_score(
            ruleset,
            options,
            req.hand,
            req.HasField("win_tile"),
            req.win_tile,
            req.self_drawn,
            req.HasField("context"),
            req.context,
        )
    except (_Refused, MahjongError, FieldError) as e:
        return _abort_for(e.code)
    return pb2.ScoreResponse(result=_reference_result(r))


# --------------------------------------------------------------------------- checks


def _same(got: Message, want: Message) -> bool:
    same = got == want
    return bool(same) and got.SerializeToString(deterministic=True) == want.SerializeToString(
        deterministic=True
    )


def _compare_outcomes(got: Any, want: list[Expected], data: bytes) -> None:
    assert len(got.outcomes) == len(want), data.hex()
    for i, (g, w) in enumerate(zip(got.outcomes, want, strict=True)):
        if isinstance(w, tuple):
            assert g.WhichOneof("outcome") == "error", (i, w, str(g), data.hex())
            assert (g.id, g.error.code) == w, (i, data.hex())
        else:
            assert _same(g, w), (i, str(g), str(w), data.hex())


def check_bulk(c: Counting, data: bytes, stream: bool = False) -> Abort | list[Expected]:
    """One ScoreBatch (or one-message ScoreStream) call against the reference."""
    req_cls = pb2.ScoreStreamRequest if stream else pb2.ScoreBatchRequest
    resp_cls = pb2.ScoreStreamResponse if stream else pb2.ScoreBatchResponse
    want = ref_bulk(data, req_cls)
    ctx = FakeContext()
    c.calls += 1
    try:
        if stream:
            replies = list(c.svc.ScoreStream(iter([data]), ctx))
            assert len(replies) == 1
            out = replies[0]
        else:
            out = c.svc.ScoreBatch(data, ctx)
    except Aborted:
        assert isinstance(want, Abort), (ctx.status, data.hex())
        assert ctx.status == (want.code, want.reason), data.hex()
        return want
    assert not isinstance(want, Abort), (want, data.hex())
    c.items += len(want)
    _compare_outcomes(resp_cls.FromString(out), want, data)
    return want


def check_unary(c: Counting, data: bytes) -> Abort | pb2.ScoreResponse:
    want = ref_unary(data)
    ctx = FakeContext()
    c.calls += 1
    try:
        out = c.svc.Score(data, ctx)
    except Aborted:
        assert isinstance(want, Abort), (ctx.status, data.hex())
        assert ctx.status == (want.code, want.reason), (want, data.hex())
        return want
    assert not isinstance(want, Abort), (want, data.hex())
    got = pb2.ScoreResponse.FromString(out)
    assert _same(got, want), (str(got), str(want), data.hex())
    return want


# --------------------------------------------------------------------------- random requests

_BAD_TEXTS = [
    "123m45x",
    "12",
    "1111m1111m2222m33m",
    "123m456m789m234p55",
    "peng:555p 123m",
    "一二三",
    " ",
    "123m456m789m234p55p peng:556p",
    "123m456m789m234p5p5p",
    "11m22m33m44m55m66m7z7z",
    "123m456m789m234p55p chi:123s",
]
_ODD_TILE_TEXTS = ["7z", "1z", "0m", "5x", "55p", "p5", "局", "10m", "5P"]


def _concealed_text(counts: list[int]) -> str:
    parts = []
    for s, letter in enumerate("mpsz"):
        digits = "".join(str(r + 1) * counts[9 * s + r] for r in range(9 if s < 3 else 7))
        if digits:
            parts.append(digits + letter)
    return "".join(parts)


def _meld_of(rng: random.Random, counts: list[int], win: int) -> tuple[str, int] | None:
    """Take a triplet out of ``counts`` for a declared meld: (kind, tile), or None."""
    options = [t for t in range(34) if counts[t] >= 3 and (t != win or counts[t] >= 4)]
    if not options:
        return None
    t = rng.choice(options)
    kinds = ["peng", "peng", "chi"] + (["gang", "angang", "bugang"] if counts[t] == 3 else [])
    counts[t] -= 3
    return rng.choice(kinds), t


def _random_hand(rng: random.Random, win_id: int, text: str) -> pb2.Hand | None:
    """A hand built from the winning hand ``text``: as it is, with a meld, no longer winning,
    invalid, structured, or none."""
    counts = list(Hand.parse(text).counts)
    kind = rng.choices(["text", "meld", "nonwin", "bad", "structured", "none"], [50, 10, 10, 7, 18, 5])[0]
    if kind == "text":
        return pb2.Hand(text=text)
    if kind == "meld":
        meld = _meld_of(rng, counts, win_id)
        if meld is None:
            return pb2.Hand(text=text)
        mk, t = meld
        size = 4 if mk in ("gang", "angang", "bugang") else 3
        tiles = str(t % 9 + 1) * size if mk != "chi" else "".join(str(t % 9 + 1 + k) for k in range(3))
        return pb2.Hand(text=f"{_concealed_text(counts)} {mk}:{tiles}{'mpsz'[t // 9]}")
    if kind == "nonwin":
        held = [t for t in range(34) if counts[t]]
        counts[rng.choice(held)] -= 1
        counts[rng.randrange(34 if rng.random() < 0.2 else 27)] += 1
        return pb2.Hand(text=_concealed_text(counts))
    if kind == "bad":
        return pb2.Hand(text=rng.choice(_BAD_TEXTS))
    if kind == "structured":
        melds = []
        if rng.random() < 0.4:
            meld = _meld_of(rng, counts, win_id)
            if meld is not None:
                mk, t = meld
                pb_kind = {v: k for k, v in _MELD_KINDS.items()}[mk]
                if rng.random() < 0.1:
                    pb_kind = pb2.MELD_KIND_UNSPECIFIED
                ids = [t] * (4 if mk in ("gang", "angang", "bugang") else 3)
                if mk == "chi":
                    ids = [t, t + 1, t + 2]
                melds.append(pb2.Meld(kind=pb_kind, tile_ids=ids))
        concealed = [t for t in range(34) for _ in range(counts[t])]
        rng.shuffle(concealed)
        if rng.random() < 0.05:
            concealed.append(rng.choice([34, 40, 1000]))
        return pb2.Hand(structured=pb2.StructuredHand(concealed_tile_ids=concealed, melds=melds))
    return None


_SUIT_PB = {"m": pb2.SUIT_M, "p": pb2.SUIT_P, "s": pb2.SUIT_S}
_FLAGS = ("after_kong", "after_kong_discard", "robbing_kong", "last_tile", "heavenly", "earthly")
# The rule sets these tests send requests for (a request without one: test_request_level_errors).
RULESETS = ["sichuan", "guangdong"]


def _random_context(
    rng: random.Random, ruleset: str, self_drawn: bool, missing: str
) -> pb2.WinContext | None:
    """Mostly a context that fits the win (seats, flags, the hand's missing suit); some random
    ones, some with a seat out of range and some of another rule set."""
    c = rng.random()
    if ruleset == "guangdong":  # its context is required (the winds): mostly one that fits
        if c < 0.1:
            return None if c < 0.05 else pb2.WinContext()
        if c < 0.15:
            return pb2.WinContext(sichuan=random_sichuan_context(rng))
        if c < 0.3:
            return pb2.WinContext(guangdong=random_guangdong_context(rng))
        winds = [pb2.WIND_EAST, pb2.WIND_SOUTH, pb2.WIND_WEST, pb2.WIND_NORTH]
        g = pb2.GuangdongContext(seat_wind=rng.choice(winds), round_wind=rng.choice(winds))
        if rng.random() < 0.7:
            g.winner = rng.randrange(4)
        if not self_drawn:
            g.discarder = rng.choice(
                [pb2.RELATIVE_SEAT_LEFT, pb2.RELATIVE_SEAT_ACROSS, pb2.RELATIVE_SEAT_RIGHT]
            )
        return pb2.WinContext(guangdong=g)
    if c < 0.3:
        return None
    if c < 0.4:
        return pb2.WinContext()
    if c < 0.45:  # another rule set's context: refused
        return pb2.WinContext(guangdong=random_guangdong_context(rng))
    if 0.8 <= c < 0.95:
        return pb2.WinContext(sichuan=random_sichuan_context(rng))
    if c >= 0.95:
        return rng.choice(
            [
                pb2.WinContext(sichuan=pb2.SichuanContext(winner=7)),
                pb2.WinContext(sichuan=pb2.SichuanContext(active_seats=pb2.SeatList(seats=[5]))),
                pb2.WinContext(sichuan=pb2.SichuanContext(winner=4)),
            ]
        )
    m = pb2.SichuanContext()
    fits = ("after_kong", "last_tile", "heavenly") if self_drawn else ("after_kong_discard", "robbing_kong")
    for f in fits:
        if rng.random() < 0.1:
            setattr(m, f, True)
    if rng.random() < 0.5:
        m.missing_suit = _SUIT_PB[missing]
    if rng.random() < 0.7:
        seats = list(range(4))
        rng.shuffle(seats)
        m.winner = seats[0]
        if not self_drawn:
            m.discarder = seats[1]
        if rng.random() < 0.3:
            m.active_seats.seats.extend(s for s in range(4) if s not in seats[2 : rng.randint(3, 4)])
    return pb2.WinContext(sichuan=m)


def _random_id(rng: random.Random, n: int) -> str:
    r = rng.random()
    if r < 0.2:
        return ""
    if r < 0.6:
        return f"h{n}"
    if r < 0.9:
        return f"局一{n}"
    return "x" * rng.randrange(100, 300)  # a two-byte length prefix


def _random_honours_hand(rng: random.Random) -> tuple[str, str, str]:
    """A winning hand with honour pungs or an honour pair (Guangdong scores honours)."""
    text, win, missing = lt._random_hand(rng)
    counts = list(Hand.parse(text).counts)
    pungs = [t for t in range(27) if counts[t] >= 3]
    if pungs:
        counts[rng.choice(pungs)] -= 3
        counts[27 + rng.randrange(7)] += 3
    held = [t for t in range(34) if counts[t]]
    return _concealed_text(counts), tile_to_text(rng.choice(held)), missing


def random_item(rng: random.Random, n: int, ruleset: str = "sichuan") -> pb2.ScoreItem:
    item = pb2.ScoreItem(id=_random_id(rng, n))
    honours = ruleset == "guangdong" and rng.random() < 0.5
    text, win_text, missing = _random_honours_hand(rng) if honours else lt._random_hand(rng)
    win = tile_from_text(win_text)
    hand = _random_hand(rng, win, text)
    if hand is not None:
        item.hand.CopyFrom(hand)
    mode = rng.choices(["text", "id", "both", "absent", "empty", "odd"], [50, 15, 10, 7, 5, 13])[0]
    if mode == "text":
        item.win_tile.text = tile_to_text(win)
    elif mode == "id":
        item.win_tile.id = win
    elif mode == "both":
        item.win_tile.text = tile_to_text(win)
        item.win_tile.id = rng.choice([win, rng.randrange(34), 40])
    elif mode == "empty":
        item.win_tile.SetInParent()
    elif mode == "odd":
        if rng.random() < 0.6:
            item.win_tile.text = rng.choice(_ODD_TILE_TEXTS)
        else:
            item.win_tile.id = rng.choice([34, 41, 1000])
    item.self_drawn = rng.random() < 0.4
    ctx = _random_context(rng, ruleset, item.self_drawn, missing)
    if ctx is not None:
        item.context.CopyFrom(ctx)
    return item


def random_options(rng: random.Random, ruleset: str = "sichuan") -> pb2.RulesetOptions:
    """Valid options of ``ruleset`` (tests of refused options are below)."""
    if ruleset == "guangdong":
        g = pb2.GuangdongOptions(baohu_cap=rng.randrange(1, 7))
        if rng.random() < 0.3:
            g.multi_ron = rng.choice([g.MULTI_RON_ALL, g.MULTI_RON_FIRST_ONLY])
        if rng.random() < 0.2:
            g.fan_points.values.extend(sorted(rng.randrange(0, 100) for _ in range(7)))
        if rng.random() < 0.2:
            g.qidui = True
        opts = pb2.RulesetOptions(guangdong=g)
        if rng.random() < 0.15:
            opts.preset = "jipinghu"
        return opts
    sichuan = pb2.SichuanOptions(cap_fan=pb2.IntOrNone(value=rng.randrange(1, 14)))
    if rng.random() < 0.1:
        sichuan.cap_fan.ClearField("value")  # no cap
    if rng.random() < 0.2:
        sichuan.zimo_bonus = rng.choice(
            [sichuan.ZIMO_BONUS_BASE, sichuan.ZIMO_BONUS_FAN, sichuan.ZIMO_BONUS_NONE]
        )
    if rng.random() < 0.1:
        sichuan.base = rng.randrange(1, 5)
    opts = pb2.RulesetOptions(sichuan=sichuan)
    if rng.random() < 0.15:
        opts.preset = rng.choice(["chengdu", "modern"])
    return opts


def _random_ruleset(rng: random.Random) -> tuple[str, str]:
    """(the request's ruleset field, the rule set it means)."""
    name = rng.choice(["sichuan", *RULESETS])  # mostly Sichuan, whose items the fast path takes more often
    return name, name


def random_bulk(rng: random.Random, cls: Any, max_items: int = 50) -> Any:
    field, ruleset = _random_ruleset(rng)
    req = cls(ruleset=field, summary_only=rng.random() < 0.4)
    if rng.random() < 0.4:
        req.options.CopyFrom(random_options(rng, ruleset))
    req.items.extend(random_item(rng, n, ruleset) for n in range(rng.randint(1, max_items)))
    return req


def random_unary(rng: random.Random) -> pb2.ScoreRequest:
    field, ruleset = _random_ruleset(rng)
    item = random_item(rng, 0, ruleset)
    req = pb2.ScoreRequest(ruleset=field, self_drawn=item.self_drawn)
    for name in ("hand", "win_tile", "context"):
        if item.HasField(name):
            getattr(req, name).CopyFrom(getattr(item, name))
    if rng.random() < 0.4:
        req.options.CopyFrom(random_options(rng, ruleset))
    return req


# --------------------------------------------------------------------------- a tiny wire encoder

RAW = -1  # an entry written as its bytes, unchanged (for malformed input)


class Node(list):  # type: ignore[type-arg]
    """A message on the wire: a list of [field number, wire type, value] entries, where value
    is an int (wire types 0, 1, 5), bytes or a Node (wire type 2), or bytes for RAW."""

    def __init__(self, desc: Descriptor | None, entries: Any = ()) -> None:
        super().__init__(entries)
        self.desc = desc


def encode(node: Node) -> bytes:
    out = bytearray()
    for number, wt, value in node:
        if number == RAW:
            out += value
            continue
        out += key(number, wt)
        if wt == 0:
            out += varint(value)
        elif wt == 1:
            out += value.to_bytes(8, "little")
        elif wt == 5:
            out += value.to_bytes(4, "little")
        else:
            payload = encode(value) if isinstance(value, Node) else value
            out += varint(len(payload)) + payload
    return bytes(out)


def tree(msg: Message, rng: random.Random) -> Node:
    """``msg`` as entries (repeated scalars packed or not, at random)."""
    node = Node(msg.DESCRIPTOR)
    for fd, value in msg.ListFields():
        values = list(value) if fd.is_repeated else [value]
        if fd.message_type is not None:
            node.extend([fd.number, 2, tree(v, rng)] for v in values)
        elif fd.type == FieldDescriptor.TYPE_STRING:
            node.extend([fd.number, 2, v.encode()] for v in values)
        elif fd.is_repeated and rng.random() < 0.5:
            node.append([fd.number, 2, b"".join(varint(int(v)) for v in values)])
        else:
            node.extend([fd.number, 0, int(v)] for v in values)
    return node


def nodes(node: Node) -> Iterator[tuple[Node, tuple[str, ...]]]:
    """Every message in ``node``, with the field names leading to it."""
    stack: list[tuple[Node, tuple[str, ...]]] = [(node, ())]
    while stack:
        n, path = stack.pop()
        yield n, path
        for number, _, value in n:
            if isinstance(value, Node) and n.desc is not None:
                stack.append((value, (*path, n.desc.fields_by_number[number].name)))


def interleave(node: Node, rng: random.Random) -> None:
    """Shuffle the entries of every message, keeping the order of entries with the same
    field number (so repeated fields and repeated singular fields mean the same)."""
    for n, _ in nodes(node):
        buckets: dict[int, list[Any]] = {}
        for e in n:
            buckets.setdefault(e[0], []).append(e)
        order = [number for number, b in buckets.items() for _ in b]
        rng.shuffle(order)
        n[:] = [buckets[number].pop(0) for number in order]


def _max_number(desc: Descriptor, seen: set[str]) -> int:
    """The largest field number of ``desc`` and the messages under it."""
    seen.add(desc.full_name)
    top = max((fd.number for fd in desc.fields), default=0)
    for fd in desc.fields:
        if fd.message_type is not None and fd.message_type.full_name not in seen:
            top = max(top, _max_number(fd.message_type, seen))
    return top


# above every field number of these messages (the rule sets' messages grow with their options)
_ABOVE = _max_number(pb2.ScoreBatchRequest.DESCRIPTOR, set()) + 1
_UNKNOWN_NUMBERS = (_ABOVE, 999, 1000, 2**29 - 1)


def unknown_entry(rng: random.Random) -> list[Any]:
    number = rng.choice(_UNKNOWN_NUMBERS)
    wt = rng.choice([0, 1, 2, 5])
    if wt == 0:
        return [number, 0, rng.choice([0, 1, 300, 2**63])]
    if wt == 1:
        return [number, 1, rng.randrange(2**64)]
    if wt == 5:
        return [number, 5, rng.randrange(2**32)]
    return [number, 2, bytes(rng.randrange(256) for _ in range(rng.randrange(0, 20)))]


def add_unknowns(node: Node, rng: random.Random, p: float) -> None:
    """Unknown fields in messages other than ``options`` (where they are refused: see
    test_unknown_option_fields_refused_by_both_paths)."""
    for n, path in list(nodes(node)):
        if path[:1] == ("options",):
            continue
        if rng.random() < p:
            for _ in range(rng.randint(1, 3)):
                n.insert(rng.randrange(len(n) + 1), unknown_entry(rng))


def wrong_wire_type(node: Node, rng: random.Random) -> None:
    """A known field number with a wire type that does not match it (the classes keep it as
    an unknown field)."""
    n, _ = rng.choice([(n, path) for n, path in nodes(node) if n.desc is not None])
    assert n.desc is not None
    fd = rng.choice(n.desc.fields)
    if fd.message_type is not None or fd.type == FieldDescriptor.TYPE_STRING:
        entry = rng.choice([[fd.number, 0, 1], [fd.number, 1, 5], [fd.number, 5, 7]])
    elif fd.is_repeated:
        entry = rng.choice([[fd.number, 1, 5], [fd.number, 5, 7]])
    else:
        entry = rng.choice([[fd.number, 2, b"\x01"], [fd.number, 1, 1], [fd.number, 5, 1]])
    n.insert(rng.randrange(len(n) + 1), entry)


def insert_at_random(n: Node, rng: random.Random, entry: list[Any]) -> None:
    n.insert(rng.randrange(len(n) + 1), entry)


def repeat_singular(req: Node, rng: random.Random) -> str:
    """Repeat a singular field of the request or of one item (protobuf: the last scalar wins,
    messages merge). Returns what was done."""
    items = [e[2] for e in req if e[0] == 3]
    what = rng.choice(
        ["self_drawn", "hand", "win_tile", "context", "id", "options", "ruleset", "summary_only"]
    )
    if what in ("options", "ruleset", "summary_only") or not items:
        if what == "options" or not items:
            insert_at_random(req, rng, [2, 2, tree(random_options(rng), rng)])
        elif what == "ruleset":
            insert_at_random(req, rng, [1, 2, rng.choice([b"", b"sichuan"])])
        else:
            insert_at_random(req, rng, [4, 0, rng.randrange(2)])
        return what
    item = rng.choice(items)
    other = tree(random_item(rng, 7), rng)
    numbers = {"id": 1, "hand": 2, "win_tile": 3, "self_drawn": 4, "context": 5}
    number = numbers[what]
    if what == "self_drawn":
        insert_at_random(item, rng, [4, 0, rng.randrange(2)])
        insert_at_random(item, rng, [4, 0, rng.randrange(2)])
    else:
        entries = [e for e in other if e[0] == number]
        if not entries:
            entries = [[number, 2, b"" if what == "id" else Node(None)]]
        insert_at_random(item, rng, entries[0])
    return what


# --------------------------------------------------------------------------- 1. random bulk requests


def test_random_bulk_requests_match_reference(counting: Counting) -> None:
    rng = random.Random(20240601)
    kinds: dict[str, int] = {"result": 0, "error": 0}
    for _ in range(600):
        req = random_bulk(rng, pb2.ScoreBatchRequest)
        want = check_bulk(counting, req.SerializeToString())
        assert isinstance(want, list)
        for w in want:
            kinds["error" if isinstance(w, tuple) else "result"] += 1
    # the sample reaches both answers, and most items go through the fast path
    assert kinds["result"] > 5000 and kinds["error"] > 4000, kinds
    assert counting.fast_items > 0.3 * counting.items, (counting.fast_items, counting.items)
    assert counting.parsed == 0


def test_same_hands_fast_and_general_path(counting: Counting) -> None:
    """A request the fast path takes whole, and the same items sent so the classes must read
    them (a structured copy of each hand), give the same outcomes."""
    rng = random.Random(11)
    for _ in range(40):
        req = random_bulk(rng, pb2.ScoreBatchRequest)
        fast = check_bulk(counting, req.SerializeToString())
        for item in req.items:
            if item.hand.WhichOneof("form") == "text":
                try:
                    parsed = Hand.parse(item.hand.text)
                except MahjongError:
                    continue
                if parsed.melds:
                    continue
                ids = [t for t in range(34) for _ in range(parsed.counts[t])]
                item.hand.structured.concealed_tile_ids.extend(ids)
        slow = check_bulk(counting, req.SerializeToString())
        assert isinstance(fast, list) and isinstance(slow, list)
        for f, s in zip(fast, slow, strict=True):
            if not isinstance(f, tuple):
                assert f == s


def test_missing_ruleset_refused_by_both_paths(counting: Counting) -> None:
    """No rule set named: INVALID_ARGUMENT missing_ruleset from the bytes path and the classes
    alike (there is no default rule set), even when every item would score."""
    hand, win = pb2.Hand(text="123m456m789m234p55p"), pb2.Tile(text="5p")
    unary = pb2.ScoreRequest(hand=hand, win_tile=win).SerializeToString()
    assert check_unary(counting, unary) == Abort(INVALID, "missing_ruleset")
    structured = pb2.ScoreRequest(
        hand=pb2.Hand(structured=pb2.StructuredHand(concealed_tile_ids=[0])), win_tile=win
    )
    assert check_unary(counting, structured.SerializeToString()) == Abort(INVALID, "missing_ruleset")
    bulk = pb2.ScoreBatchRequest(items=[pb2.ScoreItem(hand=hand, win_tile=win)]).SerializeToString()
    for stream in (False, True):
        assert check_bulk(counting, bulk, stream) == Abort(INVALID, "missing_ruleset")


def test_request_level_errors(counting: Counting) -> None:
    item = pb2.ScoreItem(id="a", hand=pb2.Hand(text="123m456m789m234p55p"), win_tile=pb2.Tile(text="5p"))
    cases = [
        (pb2.ScoreBatchRequest(ruleset="nope", items=[item]), Abort(NOT_FOUND, "unknown_ruleset")),
        (
            pb2.ScoreBatchRequest(
                ruleset="sichuan",
                options=pb2.RulesetOptions(sichuan=pb2.SichuanOptions(cap_fan=pb2.IntOrNone(value=99))),
                items=[item],
            ),
            Abort(INVALID, "bad_option"),
        ),
        (
            pb2.ScoreBatchRequest(ruleset="sichuan", options=pb2.RulesetOptions(preset="nope"), items=[item]),
            Abort(INVALID, "bad_option"),
        ),
        (pb2.ScoreBatchRequest(ruleset="nope"), Abort(NOT_FOUND, "unknown_ruleset")),
        (pb2.ScoreBatchRequest(ruleset="sichuan"), []),
        (pb2.ScoreBatchRequest(items=[item]), Abort(INVALID, "missing_ruleset")),  # no default
        (  # another rule set's options
            pb2.ScoreBatchRequest(
                ruleset="sichuan", options=pb2.RulesetOptions(guangdong=pb2.GuangdongOptions()), items=[item]
            ),
            Abort(INVALID, "bad_option"),
        ),
        (  # 0 is below cap_fan's range (no cap is an IntOrNone without a value)
            pb2.ScoreBatchRequest(
                ruleset="sichuan",
                options=pb2.RulesetOptions(sichuan=pb2.SichuanOptions(cap_fan=pb2.IntOrNone(value=0))),
                items=[item],
            ),
            Abort(INVALID, "bad_option"),
        ),
    ]
    for req, want in cases:
        for stream in (False, True):
            assert check_bulk(counting, req.SerializeToString(), stream) == want
            unary = pb2.ScoreRequest(ruleset=req.ruleset, hand=item.hand, win_tile=item.win_tile)
            if req.HasField("options"):
                unary.options.CopyFrom(req.options)
            if want:
                assert check_unary(counting, unary.SerializeToString()) == want


# --------------------------------------------------------------------------- 2. wire-level variations


def test_encoder_round_trips() -> None:
    rng = random.Random(1)
    for _ in range(50):
        req = random_bulk(rng, pb2.ScoreBatchRequest, 10)
        node = tree(req, rng)
        assert (
            encode(node) == req.SerializeToString() or pb2.ScoreBatchRequest.FromString(encode(node)) == req
        )
        interleave(node, rng)
        add_unknowns(node, rng, 0.5)
        varied = pb2.ScoreBatchRequest.FromString(encode(node))
        varied.DiscardUnknownFields()
        assert varied == req


def test_reordered_fields_and_unknown_fields_same_answer(counting: Counting) -> None:
    """Fields in any order and unknown fields of every wire type at every level: the answer is
    the one of the plain message."""
    rng = random.Random(7)
    for n in range(300):
        req = random_bulk(rng, pb2.ScoreBatchRequest, 30)
        want = ref_bulk(req.SerializeToString(), pb2.ScoreBatchRequest)
        node = tree(req, rng)
        interleave(node, rng)
        if n % 3:
            add_unknowns(node, rng, 0.3 if n % 3 == 1 else 0.9)
        if n % 5 == 0:  # summary_only after the items
            node.sort(key=lambda e: e[0] == 4)
        data = encode(node)
        assert check_bulk(counting, data, stream=n % 2 == 1) == want
    assert counting.fast_items > 0.1 * counting.items, (counting.fast_items, counting.items)


def test_repeated_singular_and_mismatched_fields_match_reference(counting: Counting) -> None:
    """Singular fields sent more than once (last scalar wins, messages merge) and known field
    numbers with the wrong wire type: the fast path agrees with the classes or defers."""
    rng = random.Random(8)
    done: dict[str, int] = {}
    for n in range(600):
        req = random_bulk(rng, pb2.ScoreBatchRequest, 20)
        node = tree(req, rng)
        for _ in range(rng.randint(1, 3)):
            what = repeat_singular(node, rng) if n % 4 else "wire_type"
            if what == "wire_type":
                wrong_wire_type(node, rng)
            done[what] = done.get(what, 0) + 1
        interleave(node, rng)
        check_bulk(counting, encode(node), stream=n % 2 == 1)
    assert len(done) == 9, done
    assert counting.fast_items > 0, counting.items


def test_duplicate_fields_examples(counting: Counting) -> None:
    """Hand-written cases of the variations above, with the answer spelled out."""
    hand = [2, 2, Node(pb2.Hand.DESCRIPTOR, [[1, 2, b"123m456m789m234p55p"]])]
    tile = [3, 2, Node(pb2.Tile.DESCRIPTOR, [[2, 2, b"5p"]])]

    def bulk(*items: list[Any], top: tuple[list[Any], ...] = ()) -> bytes:
        return encode(Node(None, [[1, 2, b"sichuan"], *top, *([3, 2, Node(None, it)] for it in items)]))

    def outcome(data: bytes) -> pb2.ScoreOutcome:
        want = check_bulk(counting, data)
        assert isinstance(want, list) and len(want) == 1 and isinstance(want[0], pb2.ScoreOutcome)
        return want[0]

    base = outcome(bulk([hand, tile]))
    # self_drawn twice: the last wins
    assert outcome(bulk([hand, tile, [4, 0, 1], [4, 0, 0]])) == base
    assert outcome(bulk([hand, tile, [4, 0, 0], [4, 0, 1]])) != base
    # win_tile twice: merged, the text of the first and the id of the second; text wins
    assert outcome(bulk([hand, tile, [3, 2, Node(None, [[1, 0, 40]])]])) == base
    # hand twice: the last text wins
    assert outcome(bulk([[2, 2, Node(None, [[1, 2, b"11m"]])], hand, tile])) == base
    # summary_only after the items
    summary = outcome(bulk([hand, tile], top=([4, 0, 1],)))
    assert summary == outcome(
        encode(Node(None, [[3, 2, Node(None, [hand, tile])], [4, 0, 1], [1, 2, b"sichuan"]]))
    )
    assert not summary.result.HasField("decomposition") and base.result.HasField("decomposition")
    # options twice: merged (cap_fan 1 from the first, zimo_bonus fan from the second)
    cap = [2, 2, Node(None, [[2, 2, Node(None, [[2, 2, Node(None, [[1, 0, 1]])]])]])]
    zimo = [2, 2, Node(None, [[2, 2, Node(None, [[3, 0, pb2.SichuanOptions.ZIMO_BONUS_FAN]])]])]
    qingyise = [2, 2, Node(None, [[1, 2, b"123m456m789m123m55m"]])]
    got = outcome(bulk([qingyise, tile[:2] + [Node(None, [[2, 2, b"5m"]])], [4, 0, 1]], top=(cap, zimo)))
    assert got.result.value_uncapped == 3 and got.result.value == 1


# --------------------------------------------------------------------------- 3. malformed input

_BAD_UTF8 = [b"\xff", b"\xc0\x80", b"\xed\xa0\x80", "局".encode()[:2], b"5\xfe", b"\x80p", b"12m\xf8"]


def _raw_garbage(rng: random.Random) -> bytes:
    number = rng.choice([1, 2, 3, 4, 5, _ABOVE])
    return rng.choice(
        [
            b"\xff" * 10 + b"\x01",  # a key that is not a varint (too long)
            key(number, 0) + b"\xff" * 10 + b"\x01",  # a value that is not a varint
            key(number, 2) + varint(10**6) + b"ab",  # a length past the end
            b"\x00\x01",  # field number 0
            b"\x02\x00",
            b"\x05\x00\x00\x00\x00",
            key(number, 0) + b"\x80",  # a varint cut short (unless more follows)
            key(number, 1) + b"\x00\x00",  # a fixed64 cut short
            key(number, 6),  # wire types 6 and 7 do not exist
            key(number, 7) + b"\x00",
            key(number, 4),  # an end-group without its start
            key(number, 3),  # a group never closed
            key(number, 3) + key(number, 4),  # a group (the classes skip it as unknown)
        ]
    )


def break_request(node: Node, rng: random.Random, skip: tuple[str, ...] = ()) -> tuple[str, bytes]:
    """``node`` made malformed in one random way, away from the messages under ``skip``."""
    how = rng.choice(["cut", "inner_cut", "utf8", "raw", "raw_end"])
    targets = [(n, path) for n, path in nodes(node) if not set(path) & set(skip)]
    if how == "cut":
        data = encode(node)
        return how, data[: rng.randrange(len(data))]
    if how == "inner_cut":
        inner = [
            (n, i) for n, _ in targets for i, e in enumerate(n) if isinstance(e[2], Node) and encode(e[2])
        ]
        inner = [
            (n, i) for n, i in inner if n.desc is None or n.desc.fields_by_number[n[i][0]].name not in skip
        ]
        if inner:
            n, i = rng.choice(inner)
            payload = encode(n[i][2])
            n[i] = [n[i][0], 2, payload[: rng.randrange(len(payload))]]
            return how, encode(node)
        how = "raw"
    if how == "utf8":
        strings = [
            (n, fd)
            for n, _ in targets
            if n.desc is not None
            for fd in n.desc.fields
            if fd.type == FieldDescriptor.TYPE_STRING and fd.name not in skip
        ]
        n, fd = rng.choice(strings)
        bad = rng.choice(["", "5", "局"]).encode() + rng.choice(_BAD_UTF8)
        old = [i for i, e in enumerate(n) if e[0] == fd.number]
        if old and rng.random() < 0.5:
            n[old[0]] = [fd.number, 2, bad]
        else:  # maybe a second occurrence, before or after the good one: refused either way
            insert_at_random(n, rng, [fd.number, 2, bad])
        return f"utf8:{fd.name}", encode(node)
    n, _ = rng.choice(targets)
    if how == "raw_end":
        n.append([RAW, 0, _raw_garbage(rng)])
    else:
        insert_at_random(n, rng, [RAW, 0, _raw_garbage(rng)])
    return how, encode(node)


def test_malformed_bulk_requests(counting: Counting) -> None:
    """Cut, garbled or not UTF-8: the same answer as the classes' parse, or INVALID_ARGUMENT
    when they refuse it, never another exception."""
    rng = random.Random(99)
    seen: dict[str, int] = {}
    refused = 0
    for n in range(1500):
        req = random_bulk(rng, pb2.ScoreBatchRequest, 12)
        how, data = break_request(tree(req, rng), rng)
        seen[how.split(":")[0]] = seen.get(how.split(":")[0], 0) + 1
        want = check_bulk(counting, data, stream=n % 2 == 1)
        refused += want == BAD_REQUEST
    assert len(seen) == 5, seen
    assert 500 < refused < 1450, refused


def test_malformed_unary_requests(counting: Counting) -> None:
    rng = random.Random(98)
    refused = 0
    for _ in range(2000):
        how, data = break_request(tree(random_unary(rng), rng), rng)
        refused += check_unary(counting, data) == BAD_REQUEST
    assert 500 < refused < 1900, refused


# --------------------------------------------------------------------------- 4. unary Score


def test_random_unary_requests_match_reference(counting: Counting) -> None:
    rng = random.Random(4)
    results = 0
    for n in range(3000):
        req = random_unary(rng)
        node = tree(req, rng)
        if n % 2:
            interleave(node, rng)
            add_unknowns(node, rng, 0.2)
        want = check_unary(counting, encode(node))
        results += isinstance(want, pb2.ScoreResponse)
    assert 1000 < results < 2800, results
    assert counting.parsed < counting.calls - 600  # the fast path answered many


def test_unary_repeated_singular_fields(counting: Counting) -> None:
    rng = random.Random(5)
    for _ in range(1000):
        node = tree(random_unary(rng), rng)
        other = tree(random_unary(rng), rng)
        extra = [e for e in other if e[0] != 1] + [[1, 2, b"sichuan"], [5, 0, 1], [5, 0, 0]]
        for _ in range(rng.randint(1, 3)):
            insert_at_random(node, rng, rng.choice(extra))
        if rng.random() < 0.3:
            wrong_wire_type(node, rng)
        check_unary(counting, encode(node))


# --------------------------------------------------------------------------- 5. ScoreStream


def test_stream_one_reply_per_message_in_order(counting: Counting) -> None:
    rng = random.Random(6)
    reqs = [random_bulk(rng, pb2.ScoreStreamRequest, 20) for _ in range(40)]
    datas = [r.SerializeToString() for r in reqs]
    replies = list(counting.svc.ScoreStream(iter(datas), FakeContext()))
    assert len(replies) == len(datas)
    for data, reply in zip(datas, replies, strict=True):
        want = ref_bulk(data, pb2.ScoreStreamRequest)
        assert isinstance(want, list)
        _compare_outcomes(pb2.ScoreStreamResponse.FromString(reply), want, data)


def test_stream_stops_at_a_bad_message() -> None:
    svc = MahjongRulesServicer()
    good = pb2.ScoreStreamRequest(
        ruleset="sichuan",
        items=[pb2.ScoreItem(id="a", hand=pb2.Hand(text="123m456m789m234p55p"), win_tile=pb2.Tile(text="5p"))]
    ).SerializeToString()
    for bad, status in [
        (good[:-3], (INVALID, "bad_request")),
        (pb2.ScoreStreamRequest(ruleset="nope").SerializeToString(), (NOT_FOUND, "unknown_ruleset")),
        (good[len(b"\x0a\x07sichuan") :], (INVALID, "missing_ruleset")),
    ]:
        ctx = FakeContext()
        out = []
        with pytest.raises(Aborted):
            for reply in svc.ScoreStream(iter([good, good, bad, good]), ctx):
                out.append(reply)
        assert len(out) == 2 and ctx.status == status


# --------------------------------------------------------------------------- 6. MAX_BATCH_ITEMS


def test_max_batch_items(counting: Counting) -> None:
    item = pb2.ScoreItem(
        hand=pb2.Hand(text="123m456m789m234p55p"), win_tile=pb2.Tile(text="5p")
    ).SerializeToString()
    one = b"\x1a" + varint(len(item)) + item
    head = pb2.ScoreBatchRequest(ruleset="sichuan").SerializeToString()
    limit = cv.MAX_BATCH_ITEMS
    for stream in (False, True):
        want = check_bulk(counting, head + one * limit, stream)
        assert isinstance(want, list) and len(want) == limit
        assert counting.parsed == 0 and counting.slow_items == 0  # all on the fast path
        # a refused message goes to the general path, which finds a malformed one first
        assert check_bulk(counting, head + one * (limit + 1), stream) == Abort(INVALID, "too_many_items")
        counting.parsed = 0
    # the general path (options twice: the classes merge them) has the same cap
    options = pb2.ScoreBatchRequest(
        ruleset="sichuan", options=pb2.RulesetOptions(preset="chengdu")
    ).SerializeToString()
    assert check_bulk(counting, options * 2 + one * (limit + 1)) == Abort(INVALID, "too_many_items")
    assert counting.parsed == 1


# ------------------------------------------------------------------ regressions (found by these tests)

_ITEM = pb2.ScoreItem(id="a", hand=pb2.Hand(text="123m456m789m234p55p"), win_tile=pb2.Tile(text="5p"))


@pytest.mark.parametrize(
    "options",
    [b"\x10", ld(1, b"\xff"), ld(2, b"\x08"), b"\x0e"],
    ids=["cut_varint", "preset_not_utf8", "sichuan_cut", "wire_type_6"],
)
@pytest.mark.parametrize("stream", [False, True])
def test_malformed_bulk_options_are_invalid_argument(
    options: bytes, stream: bool, counting: Counting
) -> None:
    assert check_bulk(counting, ld(2, options) + ld(3, _ITEM.SerializeToString()), stream) == BAD_REQUEST


def _dup_utf8_cases() -> list[tuple[str, str, bytes]]:
    item = _ITEM.SerializeToString()
    unary = pb2.ScoreRequest(ruleset="sichuan", hand=_ITEM.hand, win_tile=_ITEM.win_tile).SerializeToString()
    hand, tile = ld(1, b"\xff") + ld(1, b"123m456m789m234p55p"), ld(2, b"\xff") + ld(2, b"5p")
    return [
        ("bulk", "item id", ld(3, ld(1, b"\xff") + item)),
        ("bulk", "ruleset", ld(1, b"\xff") + ld(1, b"sichuan") + ld(3, item)),
        ("bulk", "hand text", ld(3, ld(2, hand) + ld(3, ld(2, b"5p")))),
        ("bulk", "tile text", ld(3, ld(2, ld(1, b"123m456m789m234p55p")) + ld(3, tile))),
        ("unary", "ruleset", ld(1, b"\xff") + ld(1, b"sichuan") + unary),
        ("unary", "hand text", ld(3, hand) + ld(4, ld(2, b"5p"))),
        ("unary", "tile text", ld(3, ld(1, b"123m456m789m234p55p")) + ld(4, tile)),
    ]


@pytest.mark.parametrize(
    ("method", "field", "data"), _dup_utf8_cases(), ids=[f"{m}-{f}" for m, f, _ in _dup_utf8_cases()]
)
def test_superseded_invalid_utf8_is_refused(method: str, field: str, data: bytes, counting: Counting) -> None:
    if method == "bulk":
        assert check_bulk(counting, data) == BAD_REQUEST
    else:
        assert check_unary(counting, data) == BAD_REQUEST


def _overlong_cases() -> list[tuple[str, bytes]]:
    item = _ITEM.SerializeToString()
    unary = pb2.ScoreRequest(ruleset="sichuan", hand=_ITEM.hand, win_tile=_ITEM.win_tile).SerializeToString()
    long_tag = bytes([0x8A, 0x80, 0x80, 0x80, 0x80, 0x00])  # field 1, wire type 2, in 6 bytes
    return [
        ("bulk item tag", ld(3, long_tag + b"\x01a" + item)),
        ("bulk length", b"\x1a" + bytes([0x80 | len(item), 0x80, 0x80, 0x80, 0x80, 0x00]) + item),
        ("unary tag", bytes([0xA8, 0x80, 0x80, 0x80, 0x80, 0x00, 0x01]) + unary),  # self_drawn
        ("unary length", b"\x1a" + bytes([0x80 | unary[1], 0x80, 0x80, 0x80, 0x80, 0x00]) + unary[2:]),
    ]


@pytest.mark.parametrize(("name", "data"), _overlong_cases(), ids=[n for n, _ in _overlong_cases()])
def test_overlong_tag_or_length_is_refused(name: str, data: bytes, counting: Counting) -> None:
    message = pb2.ScoreRequest if name.startswith("unary") else pb2.ScoreBatchRequest
    with pytest.raises(DecodeError):
        message.FromString(data)
    if name.startswith("bulk"):
        assert check_bulk(counting, data) == BAD_REQUEST
    else:
        assert check_unary(counting, data) == BAD_REQUEST


@pytest.mark.parametrize("head", ["ruleset", "options", "count"])
def test_malformed_item_reported_before_request_checks(head: str, counting: Counting) -> None:
    bad_item = ld(3, ld(1, b"\xff"))
    if head == "ruleset":
        data = ld(1, b"nope") + bad_item
    elif head == "options":
        data = ld(2, ld(2, ld(2, b"\x08\x63"))) + bad_item  # cap_fan 99
    else:
        data = ld(3, b"") * cv.MAX_BATCH_ITEMS + bad_item
    assert check_bulk(counting, data) == BAD_REQUEST


@pytest.mark.parametrize("method", ["bulk", "unary"])
def test_unknown_enum_option_is_invalid_argument(method: str) -> None:
    options = pb2.RulesetOptions(sichuan=pb2.SichuanOptions(zimo_bonus=9))  # type: ignore[arg-type]
    svc = MahjongRulesServicer()
    ctx = FakeContext()
    if method == "bulk":
        data = pb2.ScoreBatchRequest(ruleset="sichuan", options=options, items=[_ITEM]).SerializeToString()
        call: Callable[[bytes, Any], bytes] = svc.ScoreBatch
    else:
        data = pb2.ScoreRequest(
            ruleset="sichuan", options=options, hand=_ITEM.hand, win_tile=_ITEM.win_tile
        ).SerializeToString()
        call = svc.Score
    with pytest.raises(Aborted):
        call(data, ctx)
    assert ctx.status is not None and ctx.status[0] == INVALID


def test_unknown_option_fields_refused_by_both_paths(counting: Counting) -> None:
    """Unknown fields anywhere in ``options`` (or options nesting 100 unknown groups): the fast
    path and the classes both refuse the request (the fast path used to answer it)."""
    rng = random.Random(9)
    groups = key(1000, 3) * 100 + key(1000, 4) * 100
    checked = 0
    for n in range(200):
        req = random_bulk(rng, pb2.ScoreBatchRequest, 5)
        if not req.HasField("options"):
            continue
        node = tree(req, rng)
        targets = [m for m, path in nodes(node) if path[:1] == ("options",)]
        entry = unknown_entry(rng) if n % 2 else [RAW, 0, groups]
        insert_at_random(rng.choice(targets), rng, entry)
        data = encode(node)
        for stream in (False, True):
            got = check_bulk(counting, data, stream=stream)
            assert isinstance(got, Abort) and got.reason in ("bad_option", "bad_request"), (n, got)
        checked += 1
    assert checked > 20, checked


# Hand texts at the edges of the plain-runs counting done in service._wire (anything it does
# not count goes to the engine as text): each must answer exactly as the reference does.
RUNS_EDGE_TEXTS = [
    "11123456789999m",  # a plain win
    "11112345678999m",  # four of a kind, counted
    "11111234567899m",  # five 1m: not counted (the engine says too_many_copies)
    "1112345678999m5",  # trailing digits
    "m1112345678999m",  # a suit letter with no digits
    "11123456789999z",  # honours past 7
    "1112223334445577z",
    "11123456789990m",  # 0 (not a rank here)
    "111234m 567m99m",  # a space
    "111234567m999m11p",
    "1" * 60 + "m",  # long (over the counting's 64-character bound below)
    "1" * 70 + "m",
    "11123456789999M",
    "١١١m",  # non-ASCII digits
    "",
]


@pytest.mark.parametrize("ruleset", ["sichuan", "guangdong", "taiwan", "hangzhou", "wuhan"])
def test_plain_runs_edges_match_reference(ruleset: str, counting: Counting) -> None:
    items = [
        pb2.ScoreItem(id=str(i), hand=pb2.Hand(text=t), win_tile=pb2.Tile(text=w))
        for i, t in enumerate(RUNS_EDGE_TEXTS)
        for w in ("1m", "9m", "5z")
    ]
    for cls in (pb2.ScoreBatchRequest, pb2.ScoreStreamRequest):
        data = cls(ruleset=ruleset, items=items).SerializeToString()
        want = check_bulk(counting, data, stream=cls is pb2.ScoreStreamRequest)
        assert isinstance(want, list) and len(want) == len(items)
