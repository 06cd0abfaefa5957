"""Protobuf <-> engine values. No mahjong logic: every rule lives in ``mjcore``.

Each ``*_of`` function reads one request field and raises :class:`FieldError` or lets the
engine's ``MahjongError`` through; the servicer attributes the error to the field.

A rule set's own messages (options, win context, view part, events: generated from its
declarations by ``service.protogen``) are mapped to and from the engine's dicts by field name
(:func:`typed_dict`, :func:`fill`), with no code per option or key: the field's proto type
says how its value reads (an enum is the engine's text, a SeatList a tuple of seats, ...).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any, cast

from google.protobuf.descriptor import Descriptor, EnumDescriptor, FieldDescriptor
from google.protobuf.message import Message
from google.protobuf.unknown_fields import UnknownFieldSet

from mjcore import Decomposition, Hand, MahjongError, Meld, tile_from_text, tile_to_text
from mjcore import table as tb
from mjcore.rules.common.results import VALUE_UNITS

from . import _wire
from .errors import FieldError
from .pb import pb2

MAX_BATCH_ITEMS = 10_000
#: Repeated fields are refused past what a real hand can hold, before anything is converted:
#: ``events`` past the engine's own limit (it refuses more with bad_event), any other one past
#: the tiles of a whole wall (bulk ``items`` are counted apart: MAX_BATCH_ITEMS).
MAX_EVENTS = 512
MAX_REPEATED = 144

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
_PENDING: dict[int, str] = {
    pb2.PENDING_KIND_UNSPECIFIED: "discard",
    pb2.PENDING_KIND_DISCARD: "discard",
    pb2.PENDING_KIND_BUGANG: "bugang",
    pb2.PENDING_KIND_ANGANG: "angang",
}
_KONG_KINDS: dict[int, str] = {
    pb2.KONG_KIND_GANG: "gang",
    pb2.KONG_KIND_BUGANG: "bugang",
    pb2.KONG_KIND_ANGANG: "angang",
}
UNITS: dict[str, Any] = {u: pb2.ValueUnit.Value(f"VALUE_UNIT_{u.upper()}") for u in VALUE_UNITS}
_ALL_SEATS = (0, 1, 2, 3)

# --------------------------------------------------------------------------- rule-set messages


def _snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() and i else c.lower() for i, c in enumerate(name))


def enum_texts(enum: EnumDescriptor) -> dict[int, str]:
    """Enum number -> the engine's text: the value's name without the enum's prefix, in lower
    case (SUIT_M -> "m", ZIMO_BONUS_FAN -> "fan"); a wind is its tile (WIND_EAST -> "1z").
    The zero value (*_UNSPECIFIED, "not set") has no text."""
    if enum.full_name == "mahjong.v1.Wind":
        return {n: f"{n}z" for n in range(1, 5)}
    prefix = _snake(enum.name).upper() + "_"
    return {v.number: v.name.removeprefix(prefix).lower() for v in enum.values if v.number}


_Decode = Callable[[Any, str, str], object]  # (value, field path, error code) -> engine value


def _enum_decoder(enum: EnumDescriptor, none_at_zero: bool = False) -> _Decode:
    texts = enum_texts(enum)

    def decode(value: int, field: str, code: str) -> object:
        text = texts.get(value)
        if text is None:
            if value == 0 and none_at_zero:
                return None
            # proto3 keeps enum numbers this build does not know
            raise FieldError(field, code, f"{value} is not a {enum.name}")
        return text

    return decode


def _decoder(fd: FieldDescriptor) -> _Decode | None:
    """How a field's value reads for the engine (None: as it is)."""
    if fd.enum_type is not None:
        return _enum_decoder(fd.enum_type)
    msg = fd.message_type
    if msg is None:
        return None
    name = msg.full_name.removeprefix("mahjong.v1.")
    if name == "IntOrNone":
        return lambda m, f, c: m.value if m.HasField("value") else None
    if name == "IntList":
        return lambda m, f, c: tuple(m.values)
    if name == "Ratio":
        return lambda m, f, c: (m.numerator, m.denominator)
    if name == "SeatList":
        return lambda m, f, c: tuple(None if s == -1 else s for s in m.seats)
    if name == "Tile":  # the engine reads a tile argument from its text or its id
        return lambda m, f, c: m.text or m.id
    if name == "TileList":
        return lambda m, f, c: tuple(t.text or t.id for t in m.tiles)
    if name in ("RelativeSeatCounts", "RelativeSeatMelds"):  # {"left": ...} as set
        return lambda m, f, c: {fd.name: v for fd, v in m.ListFields()}
    if name == "TextList":
        return lambda m, f, c: tuple(m.values)
    if name == "RelativeSeatList":
        one = _enum_decoder(pb2.RelativeSeat.DESCRIPTOR, none_at_zero=True)
        return lambda m, f, c: tuple(one(v, f"{f}.seats[{i}]", c) for i, v in enumerate(m.seats))
    raise TypeError(f"no engine value for a {name} field ({fd.full_name})")


_DECODERS: dict[Descriptor, dict[str, _Decode | None]] = {}


def typed_dict(msg: Message, code: str, where: str) -> dict[str, object]:
    """The set fields of a rule set's typed message (options, context, view part, event) as the
    engine's ``{name: value}``; ``code`` is the error code for a value no engine value reads
    as (an enum number this build does not know) and ``where`` the message's field path."""
    desc = msg.DESCRIPTOR
    table = _DECODERS.get(desc)
    if table is None:
        table = {fd.name: _decoder(fd) for fd in desc.fields}
        _DECODERS[desc] = table
    out: dict[str, object] = {}
    for fd, value in msg.ListFields():
        decode = table[fd.name]
        out[fd.name] = value if decode is None else decode(value, f"{where}.{fd.name}", code)
    return out


def _set_tile(msg: Any, value: object) -> None:
    if isinstance(value, str):
        msg.text = value
    else:
        msg.id = cast(int, value)


def fill(msg: Message, values: Mapping[str, object]) -> Message:
    """Set ``msg``'s fields from the engine's ``{name: value}`` (the inverse of
    :func:`typed_dict`, e.g. for a preset); returns ``msg``."""
    for name, value in values.items():
        fd = msg.DESCRIPTOR.fields_by_name[name]
        if fd.enum_type is not None:
            numbers = {t: n for n, t in enum_texts(fd.enum_type).items()}
            setattr(msg, name, numbers[str(value)])
            continue
        if fd.message_type is None:
            setattr(msg, name, value)
            continue
        sub: Any = getattr(msg, name)
        sub.SetInParent()
        kind = fd.message_type.name
        if kind == "IntOrNone" and value is not None:
            sub.value = value
        elif kind == "IntList":
            sub.values.extend(cast(Iterable[int], value))
        elif kind == "Ratio":
            ratio = Fraction(cast(Any, value))
            sub.numerator, sub.denominator = ratio.numerator, ratio.denominator
        elif kind == "SeatList":
            sub.seats.extend(-1 if s is None else s for s in cast(Iterable[Any], value))
        elif kind == "Tile":
            _set_tile(sub, value)
        elif kind == "TileList":
            for t in cast(Iterable[Any], value):
                _set_tile(sub.tiles.add(), t)
        elif kind in ("RelativeSeatCounts", "RelativeSeatMelds"):
            for seat, item in cast(Mapping[str, object], value).items():
                setattr(sub, seat, item)
        elif kind == "TextList":
            sub.values.extend(cast(Iterable[str], value))
        elif kind == "RelativeSeatList":
            numbers = {t: n for n, t in enum_texts(pb2.RelativeSeat.DESCRIPTOR).items()}
            sub.seats.extend(0 if s is None else numbers[s] for s in cast(Iterable[Any], value))
    return msg


# --------------------------------------------------------------------------- requests


def check_repeated(msg: Message, where: str = "") -> None:
    """Refuse (INVALID_ARGUMENT naming the field) a repeated field anywhere in ``msg`` longer
    than it can be in a real hand: ``events`` past MAX_EVENTS, any other past MAX_REPEATED. The
    walk is linear in the message, which the receive limit bounds; it runs before conversion."""
    for fd, value in msg.ListFields():
        path = f"{where}.{fd.name}" if where else fd.name
        if fd.is_repeated:
            limit = MAX_EVENTS if fd.name == "events" else MAX_REPEATED
            if len(value) > limit:
                raise FieldError(path, "too_many_items", f"{len(value)} entries; at most {limit}")
            if fd.message_type is not None and not fd.message_type.GetOptions().map_entry:
                for i, item in enumerate(value):
                    check_repeated(item, f"{path}[{i}]")
        elif fd.message_type is not None:
            check_repeated(value, path)


def check_known(msg: Message, where: str, code: str) -> None:
    """Refuse (``code``, the message's path) a field ``msg`` or a message in it does not
    declare: an option this build does not know is an error, not silently ignored."""
    unknown = [f.field_number for f in UnknownFieldSet(msg)]
    if unknown:
        numbers = ", ".join(str(n) for n in sorted(set(unknown))[:8])
        raise FieldError(where, code, f"unknown field number {numbers} in {msg.DESCRIPTOR.name}")
    for fd, value in msg.ListFields():
        if fd.message_type is None:
            continue
        path = f"{where}.{fd.name}"
        if fd.is_repeated:
            for i, item in enumerate(value):
                check_known(item, f"{path}[{i}]", code)
        else:
            check_known(value, path, code)


# Field paths in error details (docs/service.md, "Field paths"): the fields from the request
# down to the offending one as protobuf names them, a oneof member by its own field name,
# a repeated element as [i]. An engine message names what it refuses by its engine name: the
# helpers below turn that name into the path, and fall back to the innermost message that
# holds every field the message may be about.
_QUOTED = re.compile(r"'([a-z][a-z0-9_]*)'")
_LEADING = re.compile(r"(?:option |context |unknown )?'?([a-z][a-z0-9_]*)'?")
_EVENT_INDEX = re.compile(r"event (\d+)\b")
# TableView's engine names that differ from the proto's
_VIEW_NAMES = {
    "dealer": "dealer_seat",
    "pending_from": "pending_from_seat",
    "kong_feeder": "kong_feeder_seat",
    "active_seats": "won_seats",
}


def named_field(message: str, paths: Mapping[str, str]) -> str | None:
    """The path (from ``paths``: engine name -> path) of the one field an engine error message is
    about: the only one of them it quotes, else its leading name; None when it names none or
    several (an error about how fields combine)."""
    quoted = {n for n in _QUOTED.findall(message) if n in paths}
    if quoted:
        return paths[quoted.pop()] if len(quoted) == 1 else None
    m = _LEADING.match(message)
    return paths.get(m.group(1)) if m else None


def _member_paths(msg: Message, oneof: str, where: str) -> tuple[str, dict[str, str]]:
    """(path of ``msg``'s set rule-set member, or ``where``; its fields' paths)."""
    member = msg.WhichOneof(oneof)
    if member is None:
        return where, {}
    path = f"{where}.{member}"
    return path, {fd.name: f"{path}.{fd.name}" for fd in getattr(msg, member).DESCRIPTOR.fields}


def option_field(message: str, ruleset: str, msg: pb2.RulesetOptions) -> str:
    """The field path of what an engine ``bad_option`` message is about
    (``options.sichuan.cap_fan``, ``options.preset``), else ``options``."""
    paths = {"preset": "options.preset"}
    if ruleset in pb2.RulesetOptions.DESCRIPTOR.fields_by_name:
        typed = getattr(msg, ruleset)
        paths.update({fd.name: f"options.{ruleset}.{fd.name}" for fd in typed.DESCRIPTOR.fields})
    return named_field(message, paths) or "options"


def context_field(message: str, msg: pb2.WinContext, where: str = "context") -> str:
    """The field path of what an engine ``bad_context`` message is about
    (``context.sichuan.winner``), else the rule set's context message (or ``where``)."""
    member, paths = _member_paths(msg, "context", where)
    return named_field(message, paths) or member


def view_field(message: str, msg: pb2.TableView, where: str = "state") -> str:
    """The field path of what an engine ``bad_state`` message is about (``state.seat``,
    ``state.dealer_seat``, ``state.sichuan.missing_suit``), else ``where``."""
    _, paths = _member_paths(msg, "rules", where)
    for fd in msg.DESCRIPTOR.fields:
        if fd.containing_oneof is None or fd.containing_oneof.name != "rules":
            paths[fd.name] = f"{where}.{fd.name}"
    for engine, proto in _VIEW_NAMES.items():
        paths[engine] = f"{where}.{proto}"
    return named_field(message, paths) or where


def events_field(message: str, msgs: Sequence[pb2.Event], where: str = "events") -> str:
    """The field path of the event an engine ``bad_event`` message names by its index
    (``events[3].kong``), else ``where``."""
    m = _EVENT_INDEX.search(message)
    if m is None:
        if message.startswith("WallEmpty"):  # the log's wall-empty event
            walls = [i for i, e in enumerate(msgs) if e.WhichOneof("event") == "wall_empty"]
            if walls:
                return f"{where}[{walls[0]}].wall_empty"
        return where
    i = int(m.group(1))
    if i >= len(msgs):
        return where
    member = msgs[i].WhichOneof("event")
    return f"{where}[{i}].{member}" if member else f"{where}[{i}]"


def ruleset_name(name: str) -> str:
    """A request's rule set name; it is required (no default: a client that forgot it would
    otherwise be answered by another rule set's rules)."""
    if not name:
        raise FieldError("ruleset", "missing_ruleset", "ruleset not set: name a rule set (ListRulesets)")
    return name


def _rule_part(msg: Message, oneof: str, ruleset: str, code: str, where: str) -> Message | None:
    """The member of ``msg``'s rule-set ``oneof`` (None when unset); it must be ``ruleset``'s."""
    which = msg.WhichOneof(oneof)
    if which is None:
        return None
    if which != ruleset:
        raise FieldError(f"{where}.{which}", code, f"a {which} message given for rule set {ruleset!r}")
    part: Message = getattr(msg, which)
    return part


def options_of(ruleset: Any, msg: pb2.RulesetOptions) -> Any:
    """Resolve preset + typed options with the rule set."""
    typed = _rule_part(msg, "options", ruleset.name, "bad_option", "options")
    values = typed_dict(typed, "bad_option", f"options.{ruleset.name}") if typed is not None else None
    return ruleset.resolve_options(values, msg.preset or None)


def context_of(msg: pb2.WinContext, ruleset: str, field: str = "context") -> dict[str, object]:
    """A WinContext as the engine's context mapping (only what is set; empty when unset)."""
    typed = _rule_part(msg, "context", ruleset, "bad_context", field)
    return {} if typed is None else typed_dict(typed, "bad_context", f"{field}.{ruleset}")


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


#: A flower as a winning tile (Taiwan's 八仙过海, 七抢一): "1f"-"8f" or ids 34-41.
FLOWER_IDS: dict[str, int] = {f"{k}f": 33 + k for k in range(1, 9)}


def win_tile_of(msg: pb2.Tile, field: str, ruleset: Any) -> int:
    """A winning tile: a tile of :func:`tile_of`, or a flower in a rule set that plays them (the
    rule set says whether a flower wins there)."""
    if ruleset.flowers:
        flower = FLOWER_IDS.get(msg.text) if msg.text else (msg.id if 34 <= msg.id <= 41 else None)
        if flower is not None:
            return flower
    return tile_of(msg, field)


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


def _seat(value: int, field: str, code: str) -> int:
    if value > 3:
        raise FieldError(field, code, f"seat {value} is not in 0..3")
    return value


def _opt_seat(msg: Message, name: str, field: str, code: str) -> int | None:
    return _seat(getattr(msg, name), f"{field}.{name}", code) if msg.HasField(name) else None


def _pending(value: int, field: str) -> str:
    kind = _PENDING.get(value)
    if kind is None:
        raise FieldError(field, "bad_state", f"{value} is not a PendingKind")
    return kind


def table_view_of(msg: pb2.TableView, ruleset: Any, field: str = "state") -> tb.TableView:
    if not msg.phase:
        raise FieldError(f"{field}.phase", "bad_state", "phase not set")
    active: tuple[int, ...] = _ALL_SEATS
    if msg.won_seats:
        won = {_seat(s, f"{field}.won_seats[{i}]", "bad_state") for i, s in enumerate(msg.won_seats)}
        active = tuple(s for s in range(4) if s not in won)
    part = _rule_part(msg, "rules", ruleset.name, "bad_state", field)
    rules = None
    if part is not None:
        rules = ruleset.view(**typed_dict(part, "bad_state", f"{field}.{ruleset.name}"))
    return tb.TableView(
        seat=_seat(msg.seat, f"{field}.seat", "bad_state"),
        hand=hand_of(msg.hand, f"{field}.hand"),
        phase=msg.phase,
        dealer=msg.dealer_seat,
        pending_tile=optional_tile(msg, "pending_tile", f"{field}.pending_tile"),
        pending_from=msg.pending_from_seat if msg.HasField("pending_from_seat") else None,
        pending_kind=_pending(msg.pending_kind, f"{field}.pending_kind"),
        pending_after_kong=msg.pending_after_kong,
        drawn_tile=optional_tile(msg, "drawn_tile", f"{field}.drawn_tile"),
        drew=msg.drew if msg.HasField("drew") else True,
        after_kong=msg.after_kong,
        kong_feeder=msg.kong_feeder_seat if msg.HasField("kong_feeder_seat") else None,
        wall_count=msg.wall_count if msg.HasField("wall_count") else None,
        first_draw=msg.first_draw,
        any_meld=msg.any_meld,
        active_seats=active,
        rules=rules,
    )


def move_of(msg: pb2.Move, field: str = "move") -> tb.Move:
    if not msg.kind:
        raise FieldError(f"{field}.kind", "bad_move", "move kind not set")
    tiles: list[int] = []
    for t in msg.tiles:
        tile = TILE_IDS.get(t.text)
        if tile is None:  # an id, or text that is not a tile (the error names the place)
            tile = tile_of(t, f"{field}.tiles[{len(tiles)}]")
        tiles.append(tile)
    return tb.Move(msg.kind, tuple(tiles), _SUITS.get(msg.suit))


def _rule_event(msg: Message, ruleset: Any, field: str) -> Any:
    """One of the rule set's own events (its event types by snake-case class name)."""
    which = msg.WhichOneof("event")
    if which is None:
        raise FieldError(field, "bad_event", "event not set")
    types = {_snake(cls.__name__): cls for cls in ruleset.events}
    values = typed_dict(getattr(msg, which), "bad_event", f"{field}.{which}")
    try:
        return types[which](**values)
    except TypeError as e:  # a field left unset that the event needs
        raise FieldError(f"{field}.{which}", "bad_event", str(e)) from None


def events_of(msgs: Sequence[pb2.Event], ruleset: Any, field: str = "events") -> list[Any]:
    out: list[Any] = []
    for i, e in enumerate(msgs):
        f = f"{field}[{i}]"
        which = e.WhichOneof("event")
        if which == "kong":
            k, f = e.kong, f"{f}.kong"
            kind = _KONG_KINDS.get(k.kind)
            if kind is None:
                raise FieldError(f"{f}.kind", "bad_event", "kong kind not set")
            if not k.HasField("tile"):
                raise FieldError(f"{f}.tile", "bad_event", "a kong needs its tile")
            fed_by = _opt_seat(k, "fed_by_seat", f, "bad_event")
            seat = _seat(k.seat, f"{f}.seat", "bad_event")
            out.append(tb.Kong(seat, kind, tile_of(k.tile, f"{f}.tile"), fed_by=fed_by, robbed=k.robbed))
        elif which == "win":
            w, f = e.win, f"{f}.win"
            if not w.HasField("win_tile"):
                raise FieldError(f"{f}.win_tile", "bad_event", "a win needs its winning tile")
            out.append(
                tb.Win(
                    _seat(w.seat, f"{f}.seat", "bad_event"),
                    # text as it came: the engine parses it for the rule set (as Score does)
                    hand_arg(w.hand, f"{f}.hand"),
                    win_tile_of(w.win_tile, f"{f}.win_tile", ruleset),
                    self_drawn=w.self_drawn,
                    discarder=_opt_seat(w, "discarder_seat", f, "bad_event"),
                    context=context_of(w.context, ruleset.name, f"{f}.context"),
                    kong_feeder=_opt_seat(w, "kong_feeder_seat", f, "bad_event"),
                    discard=w.discard if w.HasField("discard") else None,
                )
            )
        elif which == "wall_empty":
            hands: list[Hand | str | None] = [None, None, None, None]
            for j, fh in enumerate(e.wall_empty.final_hands):
                g = f"{f}.wall_empty.final_hands[{j}]"
                hands[_seat(fh.seat, f"{g}.seat", "bad_event")] = hand_arg(fh.hand, f"{g}.hand")
            out.append(tb.WallEmpty(tuple(hands)))
        elif which is None:
            raise FieldError(f, "bad_event", "event not set")
        else:
            part = _rule_part(e, "event", ruleset.name, "bad_event", f)
            out.append(_rule_event(cast(Message, part), ruleset, f"{f}.{which}"))
    return out


# --------------------------------------------------------------------------- responses

_PATTERN_CACHE: dict[Any, pb2.PatternScore] = {}


def pattern_pb(hit: Any) -> pb2.PatternScore:
    msg = _PATTERN_CACHE.get(hit)
    if msg is None:
        msg = pb2.PatternScore(id=hit.id, value=hit.fan, name=hit.name)
        if len(_PATTERN_CACHE) < 4096:
            _PATTERN_CACHE[hit] = msg
    return msg


# The part of a ScoreResult that takes few distinct values (value, multiplier, patterns, shape,
# unit, liability: they come from the rule set's table and options, not from the hand) is
# serialized once per distinct value; the decomposition is encoded per result. Bounded.
_SUMMARIES: dict[tuple[object, ...], bytes] = {}
_SUMMARY_LIMIT = 4096


def _summary_bytes(r: Any) -> bytes:
    key = (r.value, r.value_uncapped, r.multiplier, r.shape, r.unit, r.liable, r.liable_seat, r.patterns)
    return _SUMMARIES.get(key) or _summary_of(key)


def _summary_of(key: tuple[Any, ...]) -> bytes:
    """The summary bytes of ``key`` (``_summary_bytes``'s fields), kept."""
    value, uncapped, multiplier, shape, unit, liable, liable_seat, patterns = key
    b = _SUMMARIES.get(key)
    if b is None:
        msg = pb2.ScoreResult(
            value=value,
            multiplier=multiplier,
            patterns=[pb2.PatternScore(id=p.id, value=p.fan, name=p.name) for p in patterns],
            value_uncapped=uncapped,
            shape=shape,
            unit=UNITS[unit],
            liable=liable,
        )
        if liable_seat >= 0:
            msg.liable_seat = liable_seat
        b = msg.SerializeToString()
        if len(_SUMMARIES) >= _SUMMARY_LIMIT:
            _SUMMARIES.clear()
        _SUMMARIES[key] = b
    return b


#: ``ScoreResult.decomposition`` (field 4) on the wire for a ``Decomposition``, written in C
#: (a quarter of encoding a never-seen hand's result was this in Python).
decomposition_bytes = _wire.decomposition_bytes


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
    if type(d) is Decomposition:  # not a special shape's id ("qidui")
        b += decomposition_bytes(d)
    if r.payments:
        b += _payments_bytes(r.payments)
    return b


def result_row_bytes(
    unit: str, value: int, raw: int, multiplier: int, hits: tuple[Any, ...], shape: str, payments: Any
) -> tuple[bytes, bytes]:
    """A result row of the compiled batch scorer (``CompiledTable.score_batch_detail``: no
    liability) as ``score_result_bytes`` writes it: (the bytes before the decomposition, the
    bytes after it)."""
    head = _summary_of((value, raw, multiplier, shape, unit, "", -1, hits))
    return head, _payments_bytes(payments) if payments else b""


def summary_only_row_bytes(
    unit: str, value: int, raw: int, multiplier: int, hits: tuple[Any, ...], shape: str, payments: Any
) -> tuple[bytes, bytes]:
    """``result_row_bytes`` with ``summary_only``: the summary alone."""
    return _summary_of((value, raw, multiplier, shape, unit, "", -1, hits)), b""


def wait_pb(w: Any) -> pb2.Wait:
    return pb2.Wait(
        tile_id=w.id,
        tile=w.tile,
        discard_value=w.fan_discard,
        self_drawn_value=w.fan_self_drawn,
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
    out.max_discard_value = best
    return out


def tile_pb(t: int) -> pb2.Tile:
    return pb2.Tile(id=t, text=_TEXT[t])


def move_pb(m: Any) -> pb2.Move:
    return pb2.Move(
        kind=m.kind,
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
    if ledger.next_dealer_streak is not None:
        out.next_dealer_streak = ledger.next_dealer_streak
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


def _codes(target: Any, items: Iterable[Mapping[str, Any]]) -> None:
    for c in items:
        target.add(id=c["id"], description=c["description"])


def description_pb(rs: Any) -> pb2.DescribeRulesetResponse:
    """A rule set's ``describe()`` as the wire has it (options by field, presets as typed
    options)."""
    d = rs.describe()
    policy = d["policy"]
    out = pb2.DescribeRulesetResponse(
        name=d["name"],
        title=d["title"],
        summary=d["summary"],
        unit=UNITS[d["unit"]],
        hand_tiles=d["hand_tiles"],
        claims=d["claims"],
        policy=pb2.PolicyInfo(
            kind=policy["kind"],
            description=policy["description"],
            cap_option=policy["cap_option"] or "",
            floor_option=policy["floor_option"] or "",
        ),
        phases=d["phases"],
    )
    for p in d["patterns"]:
        out.patterns.add(
            id=p["id"],
            name=p["name"],
            value=p["fan"],
            description=p["description"],
            shape=p["shape"],
            pattern_class=p["class"],
            supersedes=p["supersedes"],
            flat=p["flat"],
            cap_exempt=p["cap_exempt"],
            absorbs=[pb2.AbsorbedExtra(extra_id=a["id"], count=a["count"]) for a in p["absorbs"]],
            value_option=p["value_option"] or "",
            enabled_by=p["enabled_by"] or "",
        )
    for e in d["extras"]:
        out.extras.add(
            id=e["id"],
            name=e["name"],
            value=e["fan"],
            description=e["description"],
            enabled_by=e["enabled_by"] or "",
            value_option=e["value_option"] or "",
            per_occurrence=e["per_occurrence"],
            depends_on_context=e["depends_on_context"],
        )
    for f in d["floors"]:
        out.floors.add(
            id=f["id"], name=f["name"], description=f["description"], enabled_by=f["enabled_by"] or ""
        )
    for o in d["options"]:
        info = out.options.add(
            name=o["name"],
            kind=o["kind"],
            description=o["description"],
            default_json=_json(o["default"]),
            choices_json=[_json(v) for v in o.get("values", ())],
            none_allowed=o["none_allowed"],
            nondecreasing=o.get("nondecreasing", False),
        )
        for name in ("minimum", "maximum", "length"):
            if o.get(name) is not None:
                setattr(info, name, o[name])
    for name, values in rs.presets.items():
        typed = getattr(out.presets.add(name=name).options, rs.name)
        typed.SetInParent()  # an empty preset (the defaults) still names its rule set
        fill(typed, values)
    for k in d["context_keys"]:
        key = out.context_keys.add(id=k["id"], description=k["description"], kind=k["kind"])
        for name in ("minimum", "maximum"):
            if k.get(name) is not None:
                setattr(key, name, k[name])
    _codes(out.move_kinds, d["move_kinds"])
    _codes(out.reason_codes, d["reason_codes"])
    _codes(out.ledger_reasons, d["ledger_reasons"])
    return out
