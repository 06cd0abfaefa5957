"""Protobuf <-> engine values. No mahjong logic: every rule lives in ``mjcore``.

Each ``*_of`` function reads one request field and raises :class:`FieldError` or lets the
engine's ``MahjongError`` through; the servicer attributes the error to the field.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, cast

from google.protobuf.message import Message

from mjcore import Hand, MahjongError, Meld, tile_from_text, tile_to_text
from mjcore import table as tb
from service.errors import FieldError
from service.pb import pb2

DEFAULT_RULESET = "sichuan"
MAX_BATCH_ITEMS = 10_000

_TEXT = tuple(tile_to_text(t) for t in range(34))
_MELD_KINDS: dict[int, str] = {
    pb2.MELD_KIND_CHI: "chi",
    pb2.MELD_KIND_PENG: "peng",
    pb2.MELD_KIND_GANG: "gang",
    pb2.MELD_KIND_ANGANG: "angang",
    pb2.MELD_KIND_BUGANG: "bugang",
}
_SUITS: dict[int, str] = {pb2.SUIT_M: "m", pb2.SUIT_P: "p", pb2.SUIT_S: "s"}
_SUIT_PB: dict[str, Any] = {v: k for k, v in _SUITS.items()}
_PHASES: dict[int, str] = {
    pb2.PHASE_EXCHANGE: "exchange",
    pb2.PHASE_DING_QUE: "ding_que",
    pb2.PHASE_TURN: "turn",
    pb2.PHASE_CLAIM: "claim",
    pb2.PHASE_ROB: "rob",
    pb2.PHASE_WAIT: "wait",
    pb2.PHASE_ENDED: "ended",
}
_PENDING: dict[int, str] = {
    pb2.PENDING_KIND_UNSPECIFIED: "discard",
    pb2.PENDING_KIND_DISCARD: "discard",
    pb2.PENDING_KIND_BUGANG: "bugang",
    pb2.PENDING_KIND_ANGANG: "angang",
}
_MOVE_KINDS = {v: pb2.MoveKind.Name(v)[len("MOVE_KIND_") :].lower() for v in pb2.MoveKind.values() if v}
_MOVE_KIND_PB: dict[str, Any] = {name: v for v, name in _MOVE_KINDS.items()}

# --------------------------------------------------------------------------- requests


def ruleset_name(name: str) -> str:
    return name or DEFAULT_RULESET


def _enum_text(field: Any, value: int, where: str) -> str:
    """ZIMO_BONUS_BASE -> "base" (strip the enum's own prefix)."""
    known = field.enum_type.values_by_number.get(value)
    if known is None:  # proto3 keeps enum numbers this build does not know
        raise FieldError(f"{where}.{field.name}", "bad_option", f"{value} is not a {field.enum_type.name}")
    name: str = known.name
    prefix = field.enum_type.name
    # CamelCase enum name -> UPPER_SNAKE prefix
    snake = "".join("_" + c if c.isupper() and i else c for i, c in enumerate(prefix)).upper() + "_"
    return name[len(snake) :].lower() if name.startswith(snake) else name.lower()


def options_dict(typed: Message, where: str = "options") -> dict[str, object]:
    """The set fields of a typed options message (the request field ``where``) as engine
    option values."""
    out: dict[str, object] = {}
    for field, value in typed.ListFields():
        if field.enum_type is not None:
            out[field.name] = _enum_text(field, value, where)
        elif field.name == "cap_fan" and value == 0:
            out[field.name] = None
        else:
            out[field.name] = value
    return out


def options_of(ruleset: Any, msg: pb2.RulesetOptions) -> Any:
    """Resolve preset + typed options with the rule set."""
    which = msg.WhichOneof("options")
    if which is not None and which != ruleset.name:
        raise FieldError(
            f"options.{which}",
            "bad_option",
            f"options for rule set {which!r} given for rule set {ruleset.name!r}",
        )
    values = options_dict(getattr(msg, which), f"options.{which}") if which is not None else None
    return ruleset.resolve_options(values, msg.preset or None)


#: Tile text -> id for every valid two-character tile text (the fast path; anything else
#: goes through ``tile_from_text`` for its exact error).
TILE_IDS: dict[str, int] = {tile_to_text(t): t for t in range(34)}


def tile_of(msg: pb2.Tile, field: str) -> int:
    text = msg.text
    if text:
        fast = TILE_IDS.get(text)
        if fast is not None:
            return fast
        try:
            return tile_from_text(text)
        except MahjongError as e:
            raise FieldError(field, e.code, e.message) from None
    if msg.id >= 34:
        raise FieldError(field, "bad_tile", f"tile id {msg.id} is not in 0..33")
    return msg.id


def optional_tile(parent: Message, name: str, field: str) -> int | None:
    return tile_of(getattr(parent, name), field) if parent.HasField(name) else None


HAND_CODES = frozenset({"bad_notation", "too_many_copies", "wrong_tile_count", "bad_meld", "bad_tile"})


def hand_arg(msg: pb2.Hand, field: str) -> Hand | str:
    """The hand as the engine takes it: text passes through (the engine parses and memoizes
    it, and its errors name the place in the text), structured becomes a ``Hand``."""
    if msg.WhichOneof("form") == "text":
        return msg.text
    return hand_of(msg, field)


def hand_field(msg: pb2.Hand, field: str) -> str:
    """The field an engine error about a hand given to ``hand_arg`` belongs to."""
    return f"{field}.text" if msg.WhichOneof("form") == "text" else field


def hand_of(msg: pb2.Hand, field: str) -> Hand:
    form = msg.WhichOneof("form")
    try:
        if form == "text":
            return Hand.parse(msg.text)
        if form == "structured":
            s = msg.structured
            melds = []
            for i, m in enumerate(s.melds):
                kind = _MELD_KINDS.get(m.kind)
                if kind is None:
                    raise FieldError(f"{field}.structured.melds[{i}].kind", "bad_meld", "meld kind not set")
                try:
                    melds.append(Meld.of(kind, list(m.tile_ids)))
                except MahjongError as e:
                    raise FieldError(f"{field}.structured.melds[{i}]", e.code, e.message) from None
            try:
                return Hand.from_tiles(list(s.concealed_tile_ids), melds)
            except MahjongError as e:
                raise FieldError(f"{field}.structured", e.code, e.message) from None
    except MahjongError as e:
        raise FieldError(f"{field}.{form}", e.code, e.message) from None
    raise FieldError(field, "bad_notation", "hand not set: give text or structured")


def suit_of(value: int) -> str | None:
    return _SUITS.get(value)


def won_seats(values: Iterable[int], field: str) -> set[int]:
    seats = set(values)
    for s in seats:
        if s > 3:
            raise FieldError(field, "bad_context", f"seat {s} is not in 0..3")
    return seats


_CONTEXT_FLAGS = frozenset(
    ("after_kong", "after_kong_discard", "robbing_kong", "last_tile", "heavenly", "earthly")
)
_ALL_SEATS = (0, 1, 2, 3)


def context_of(msg: pb2.WinContext, field: str = "context") -> dict[str, object]:
    """A WinContext as the engine's context mapping (only what is set).

    Reads only the fields that are set (``ListFields``, in field-number order: the six flags,
    the missing suit, then the seats), so an unset context costs one call."""
    ctx: dict[str, object] = {}
    seats = False
    for fd, value in msg.ListFields():
        name = fd.name
        if name in _CONTEXT_FLAGS:
            ctx[name] = True
        elif name == "missing_suit":
            suit = _SUITS.get(value)
            if suit is not None:
                ctx["missing_suit"] = suit
        else:  # winner_seat, discarder_seat, won_seats or kong_feeder_seat (fields 8-11)
            seats = True
            break
    if seats:
        if msg.winner_seat > 3:
            raise FieldError(f"{field}.winner_seat", "bad_context", f"seat {msg.winner_seat} is not in 0..3")
        ctx["winner"] = msg.winner_seat
        if msg.HasField("discarder_seat"):
            ctx["discarder"] = msg.discarder_seat
        if msg.won_seats:
            won = won_seats(msg.won_seats, f"{field}.won_seats")
            ctx["active_seats"] = tuple(s for s in range(4) if s not in won)
        else:
            ctx["active_seats"] = _ALL_SEATS
        if msg.HasField("kong_feeder_seat"):
            ctx["kong_feeder"] = msg.kong_feeder_seat
    return ctx


def table_view_of(msg: pb2.TableView, field: str = "state") -> tb.TableView:
    phase = _PHASES.get(msg.phase)
    if phase is None:
        raise FieldError(f"{field}.phase", "bad_state", "phase not set")
    if msg.seat > 3:
        raise FieldError(f"{field}.seat", "bad_state", f"seat {msg.seat} is not in 0..3")
    active: tuple[int, ...] = _ALL_SEATS
    if msg.won_seats:
        won = won_seats(msg.won_seats, f"{field}.won_seats")
        active = tuple(s for s in range(4) if s not in won)
    return tb.TableView(
        seat=msg.seat,
        hand=hand_of(msg.hand, f"{field}.hand"),
        phase=phase,
        dealer=msg.dealer_seat,
        missing_suit=_SUITS.get(msg.missing_suit),
        has_won=msg.has_won,
        pending_tile=optional_tile(msg, "pending_tile", f"{field}.pending_tile"),
        pending_from=msg.pending_from_seat if msg.HasField("pending_from_seat") else None,
        pending_kind=_PENDING[msg.pending_kind],
        pending_after_kong=msg.pending_after_kong,
        drawn_tile=optional_tile(msg, "drawn_tile", f"{field}.drawn_tile"),
        drew=msg.drew if msg.HasField("drew") else True,
        after_kong=msg.after_kong,
        kong_feeder=msg.kong_feeder_seat if msg.HasField("kong_feeder_seat") else None,
        wall_count=msg.wall_count if msg.HasField("wall_count") else 55,
        guoshui_fan=msg.guoshui_fan if msg.HasField("guoshui_fan") else None,
        first_draw=msg.first_draw,
        any_meld=msg.any_meld,
        active_seats=active,
    )


def move_of(msg: pb2.Move, field: str = "move") -> tb.Move:
    kind = _MOVE_KINDS.get(msg.kind)
    if kind is None:
        raise FieldError(f"{field}.kind", "bad_move", "move kind not set")
    tiles: list[int] = []
    for t in msg.tiles:
        tile = TILE_IDS.get(t.text)
        if tile is None:  # an id, or text that is not a tile (the error names the place)
            tile = tile_of(t, f"{field}.tiles[{len(tiles)}]")
        tiles.append(tile)
    return tb.Move(kind, tuple(tiles), _SUITS.get(msg.suit))


def events_of(msgs: Sequence[pb2.Event], field: str = "events") -> list[Any]:
    out: list[Any] = []
    for i, e in enumerate(msgs):
        f = f"{field}[{i}]"
        if e.seat > 3:
            raise FieldError(f"{f}.seat", "bad_event", f"seat {e.seat} is not in 0..3")
        k = e.kind
        if k == pb2.EVENT_KIND_DING_QUE:
            suit = _SUITS.get(e.suit)
            if suit is None:
                raise FieldError(f"{f}.suit", "bad_event", "ding_que needs a suit")
            out.append(tb.DingQue(e.seat, suit))
        elif k in (pb2.EVENT_KIND_GANG, pb2.EVENT_KIND_BUGANG, pb2.EVENT_KIND_ANGANG):
            if not e.HasField("tile"):
                raise FieldError(f"{f}.tile", "bad_event", "a kong needs its tile")
            kind = pb2.EventKind.Name(k)[len("EVENT_KIND_") :].lower()
            out.append(
                tb.Kong(
                    e.seat,
                    kind,
                    tile_of(e.tile, f"{f}.tile"),
                    fed_by=e.from_seat if e.HasField("from_seat") else None,
                    robbed=e.robbed,
                )
            )
        elif k == pb2.EVENT_KIND_HU:
            if not e.HasField("tile"):
                raise FieldError(f"{f}.tile", "bad_event", "a win needs its winning tile")
            ctx = context_of(e.context, f"{f}.context")
            for key in ("winner", "discarder", "active_seats", "kong_feeder"):
                ctx.pop(key, None)
            out.append(
                tb.Win(
                    e.seat,
                    hand_of(e.hand, f"{f}.hand"),
                    tile_of(e.tile, f"{f}.tile"),
                    self_drawn=e.self_drawn,
                    discarder=e.from_seat if e.HasField("from_seat") else None,
                    context=ctx,
                    kong_feeder=e.context.kong_feeder_seat
                    if e.context.HasField("kong_feeder_seat")
                    else None,
                )
            )
        elif k == pb2.EVENT_KIND_WALL_EMPTY:
            hands: list[Hand | None] = [None, None, None, None]
            for j, fh in enumerate(e.final_hands):
                if fh.seat > 3:
                    raise FieldError(
                        f"{f}.final_hands[{j}].seat", "bad_event", f"seat {fh.seat} is not in 0..3"
                    )
                hands[fh.seat] = hand_of(fh.hand, f"{f}.final_hands[{j}].hand")
            out.append(tb.WallEmpty(tuple(hands)))
        else:
            raise FieldError(f"{f}.kind", "bad_event", "event kind not set")
    return out


# --------------------------------------------------------------------------- responses

_PATTERN_CACHE: dict[Any, pb2.PatternScore] = {}


def pattern_pb(hit: Any) -> pb2.PatternScore:
    msg = _PATTERN_CACHE.get(hit)
    if msg is None:
        msg = pb2.PatternScore(id=hit.id, fan=hit.fan, name=hit.name)
        if len(_PATTERN_CACHE) < 4096:
            _PATTERN_CACHE[hit] = msg
    return msg


# The part of a ScoreResult that takes few distinct values (fan, multiplier, patterns, shape,
# amount: they come from the rule set's fan table and options, not from the hand) is
# serialized once per distinct value; the decomposition is encoded per result. Bounded.
_SUMMARIES: dict[tuple[object, ...], bytes] = {}
_SUMMARY_LIMIT = 4096


def _summary_bytes(r: Any) -> bytes:
    key = (r.fan, r.fan_uncapped, r.multiplier, r.shape, r.amount, r.patterns)
    b = _SUMMARIES.get(key)
    if b is None:
        b = pb2.ScoreResult(
            fan=r.fan,
            multiplier=r.multiplier,
            patterns=[pb2.PatternScore(id=p.id, fan=p.fan, name=p.name) for p in r.patterns],
            fan_uncapped=r.fan_uncapped,
            shape=r.shape,
            amount_per_payer=r.amount,
        ).SerializeToString()
        if len(_SUMMARIES) >= _SUMMARY_LIMIT:
            _SUMMARIES.clear()
        _SUMMARIES[key] = b
    return b


def decomposition_bytes(d: Any) -> bytes:
    """``ScoreResult.decomposition`` (field 4) on the wire: pair (field 1), chows and pungs
    (fields 2 and 3, packed). Tile ids are below 128 and a hand has at most four sets, so
    every varint is one byte."""
    ch, pu = d.chows, d.pungs
    return bytes((0x22, 6 + len(ch) + len(pu), 0x08, d.pair, 0x12, len(ch), *ch, 0x1A, len(pu), *pu))


_PAYMENTS: dict[tuple[tuple[int, int, int], ...], bytes] = {}


def _payments_bytes(payments: tuple[tuple[int, int, int], ...]) -> bytes:
    """``ScoreResult.payments`` and ``total`` on the wire (few distinct values: cached)."""
    b = _PAYMENTS.get(payments)
    if b is None:
        msg = pb2.ScoreResult(total=sum(amount for _, _, amount in payments))
        for frm, to, amount in payments:
            msg.payments.add(from_seat=frm, to_seat=to, amount=amount, reason="win", event_index=-1)
        b = msg.SerializeToString()
        if len(_PAYMENTS) >= _SUMMARY_LIMIT:
            _PAYMENTS.clear()
        _PAYMENTS[payments] = b
    return b


def score_result_bytes(r: Any, summary_only: bool = False) -> bytes:
    """An engine ``ScoreResult`` as a serialized ``ScoreResult`` message: the cached summary,
    then (unless ``summary_only``) the encoded decomposition and the cached payments."""
    b = _summary_bytes(r)
    if summary_only:
        return b
    d = r.decomposition
    if d is not None and type(d) is not str:
        b += decomposition_bytes(d)
    if r.payments:
        b += _payments_bytes(r.payments)
    return b


def wait_pb(w: Any) -> pb2.Wait:
    return pb2.Wait(
        tile_id=w.id,
        tile=w.tile,
        discard_fan=w.fan_discard,
        self_drawn_fan=w.fan_self_drawn,
        unseen=w.unseen,
        discard_patterns=[pattern_pb(p) for p in w.patterns_discard],
        self_drawn_patterns=[pattern_pb(p) for p in w.patterns_self_drawn],
    )


# Serialized ``WaitsResponse.waits`` entries (field 1, tag and length included) per engine
# ValuedWait value. The values come from a small domain (tile, fans, unseen count, pattern
# lists), not from the hand, so distinct hands share entries. Bounded.
_WAIT_BYTES: dict[Any, bytes] = {}
_WAIT_LIMIT = 8192


def waits_response(waits: Sequence[Any]) -> pb2.WaitsResponse:
    """The WaitsResponse for the engine's valued waits (one parse of cached entry bytes)."""
    parts = []
    best = -1
    for w in waits:
        b = _WAIT_BYTES.get(w)
        if b is None:
            b = pb2.WaitsResponse(waits=[wait_pb(w)]).SerializeToString()
            if len(_WAIT_BYTES) >= _WAIT_LIMIT:
                _WAIT_BYTES.clear()
            _WAIT_BYTES[w] = b
        parts.append(b)
        if w.fan_discard > best:
            best = w.fan_discard
    out: pb2.WaitsResponse = pb2.WaitsResponse.FromString(b"".join(parts))
    out.max_discard_fan = best
    return out


def tile_pb(t: int) -> pb2.Tile:
    return pb2.Tile(id=t, text=_TEXT[t])


def move_pb(m: Any) -> pb2.Move:
    return pb2.Move(
        kind=_MOVE_KIND_PB.get(m.kind, pb2.MOVE_KIND_UNSPECIFIED),
        tiles=[tile_pb(t) for t in m.tiles],
        suit=cast(Any, _SUIT_PB.get(m.suit, 0) if m.suit else 0),
        text=m.to_text(),
    )


def ledger_pb(ledger: Any) -> pb2.SettleResponse:
    out = pb2.SettleResponse(
        totals=list(ledger.totals),
        next_dealer_seat=ledger.next_dealer,
        winner_seats=list(ledger.winners),
        notes=list(ledger.notes),
    )
    for p in ledger.payments:
        out.payments.add(
            from_seat=p.from_seat,
            to_seat=p.to_seat,
            amount=p.amount,
            reason=p.reason,
            event_index=p.event if p.event is not None else -1,
        )
    return out


def _json(v: object) -> str:
    return json.dumps(v, ensure_ascii=False)


def description_pb(d: dict[str, Any]) -> pb2.DescribeRulesetResponse:
    out = pb2.DescribeRulesetResponse(
        name=d["name"],
        title=d.get("title", ""),
        summary=d.get("summary", ""),
        tile_count=d.get("tiles", 0),
        suits=list(d.get("suits", ())),
        honours=bool(d.get("honours")),
        flowers=bool(d.get("flowers")),
        wild_tiles=bool(d.get("wild_tiles")),
        liabilities=bool(d.get("liabilities")),
        claims=list(d.get("claims", ())),
        shapes=list(d.get("shapes", ())),
        value_unit=d.get("value_unit", ""),
    )
    for p in d.get("patterns", ()):
        out.patterns.add(
            id=p["id"],
            name=p["name"],
            fan=p["fan"],
            description=p.get("description", ""),
            shape=p.get("shape", ""),
            supersedes=list(p.get("supersedes", ())),
            flat=bool(p.get("flat")),
            value_option=p.get("value_option") or "",
            enabled_by=p.get("enabled_by") or "",
            cap_exempt=bool(p.get("cap_exempt")),
        )
    for a in d.get("addons", ()):
        out.add_ons.add(
            id=a["id"],
            name=a["name"],
            fan=a["fan"],
            description=a.get("description", ""),
            enabled_by=a.get("enabled_by") or "",
            per_occurrence=bool(a.get("per_occurrence")),
        )
    for o in d.get("options", ()):
        info = out.options.add(
            name=o["name"],
            kind=o.get("kind", ""),
            default_json=_json(o.get("default")),
            values_json=[_json(v) for v in o.get("values", ())],
            none_allowed=bool(o.get("none_allowed")),
            description=o.get("description", ""),
        )
        if o.get("minimum") is not None:
            info.minimum = o["minimum"]
        if o.get("maximum") is not None:
            info.maximum = o["maximum"]
    for name, values in d.get("presets", {}).items():
        out.presets.add(name=name, options_json=_json(values))
    for key, target in (
        ("context_keys", out.context_keys),
        ("move_kinds", out.move_kinds),
        ("reason_codes", out.reason_codes),
        ("ledger_reasons", out.ledger_reasons),
    ):
        for c in d.get(key, ()):
            target.add(id=c["id"], description=c.get("description", ""))
    return out
