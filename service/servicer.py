"""``mahjong.v1.MahjongRules``: translate each request to engine calls and the answers back.

Errors: a refused field (:class:`FieldError`) or an engine ``MahjongError`` becomes
INVALID_ARGUMENT (NOT_FOUND for ``unknown_ruleset``) with the field that caused it; any other
exception propagates to the guard (service.interceptors), which logs it with the request and
answers INTERNAL.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any, NoReturn

import grpc
from google.protobuf.message import DecodeError

from mjcore import Hand, MahjongError
from mjcore._core import DETAIL_DEC_WIDTH
from mjcore.rules.common.settlement import MAX_DEALER_STREAK

from . import _wire
from . import convert as cv
from .errors import CODE_FIELDS, FieldError, abort_invalid, clip
from .pb import pb2

if _wire.DETAIL_DEC_WIDTH != DETAIL_DEC_WIDTH:  # the two extensions read one row layout
    raise ImportError("service._wire and mjcore._core disagree on the decomposition row width")

DEADLINE_CHECK_EVERY = 64  # items between deadline checks in bulk calls
#: Largest request of a method other than ScoreBatch/ScoreStream (those take --max-message-bytes):
#: a hand, a table view or a hand's events fit in a few KiB.
MAX_UNARY_REQUEST_BYTES = 64 * 1024
# The options and context caches: keyed on the request's bytes and on the parsed value
# re-serialized without unknown fields; a key over CACHE_KEY_BYTES is not kept, so each cache
# holds at most entries x CACHE_KEY_BYTES of keys (1 MiB and 4 MiB per rule set).
CACHE_KEY_BYTES = 1024
OPTIONS_CACHE_ENTRIES = 1024
CONTEXT_CACHE_ENTRIES = 4096
# (rule set, resolved options) -> its batch scorer, which keeps its compiled table alive
BATCH_SCORER_ENTRIES = 64


def _rules() -> Any:
    global _RULES
    if _RULES is None:
        from mjcore import rules

        _RULES = rules
    return _RULES


_RULES: Any = None


def _hand_fields(msg: pb2.Hand) -> dict[str, str]:
    """Engine hand errors belong to ``hand.text`` when the hand came as text."""
    f = cv.hand_field(msg, "hand")
    return {code: f for code in cv.HAND_CODES if code != "bad_tile"}


class _Aborter:
    """Turns engine and field errors into rich statuses for one RPC."""

    __slots__ = ("context", "default_field", "fields")

    def __init__(self, context: grpc.ServicerContext, default_field: str, **fields: str) -> None:
        self.context = context
        self.default_field = default_field
        self.fields = fields

    def __enter__(self) -> _Aborter:
        return self

    def __exit__(self, typ: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        if isinstance(exc, (FieldError, MahjongError)):
            _abort(self.context, exc, self.default_field, self.fields)


def _abort(
    context: grpc.ServicerContext, exc: FieldError | MahjongError, default_field: str, fields: dict[str, str]
) -> NoReturn:
    """Abort the call with the rich status for ``exc`` (the field it belongs to named)."""
    if isinstance(exc, FieldError):
        abort_invalid(context, exc.code, exc.message, exc.field)
    field = fields.get(exc.code) or CODE_FIELDS.get(exc.code) or default_field
    abort_invalid(context, exc.code, exc.message, field)


class MahjongRulesServicer:
    """Hot paths (Score, Waits, the bulk loop) do only what the request needs: the rule set and
    its default options are looked up once per rule-set name, hand text and tile text go to the
    engine as they are, and error fields are worked out only when there is an error.

    ``Score``, ``ScoreBatch`` and ``ScoreStream`` take and return bytes (see
    :func:`method_handlers`): the common request is read and the reply written by
    ``service._wire``; any other request goes through the generated classes, which define
    the answer. Both paths give the same answers (tests/service/test_wire.py). In bulk, the
    plain hands of a message are scored in one call of the rule set's compiled table, where
    it has one (``_batch``; tests/service/test_bulk_batch.py: byte for byte the same replies)."""

    def __init__(self) -> None:
        # rule set name -> serialized RulesetOptions -> resolved options
        self._options_cache: dict[str, dict[bytes, Any]] = {}
        # a known request.ruleset -> (rule set, its default options)
        self._defaults: dict[str, tuple[Any, Any]] = {}
        # rule set name -> serialized WinContext -> the engine's context mapping (shared:
        # never changed). Per rule set: the bytes are checked against it when first read.
        self._contexts: dict[str, dict[bytes, Any]] = {}
        # id(engine result) -> (result, its serialized ScoreResult), per summary_only
        self._encoded: tuple[dict[int, Any], dict[int, Any]] = ({}, {})
        # plain hand text of a bulk item -> its Hand, for those sent lately (_wire.score_bulk)
        self._hands: dict[str, Any] = {}
        # (rule set name, resolved options) -> its BatchScorer, or None (bounded)
        self._scorers: dict[tuple[str, Any], Any] = {}

    # ------------------------------------------------------------------ helpers
    def _ruleset_and_options(self, request: Any) -> tuple[Any, Any]:
        """The rule set and resolved options of a request with ``ruleset`` and ``options``."""
        options = request.options.SerializeToString() if request.HasField("options") else None
        return self._resolve(request.ruleset, options)

    def _resolve(self, name: str, options: bytes | None) -> tuple[Any, Any]:
        """The rule set called ``name`` and the given serialized
        ``RulesetOptions`` resolved (None = not given)."""
        if options is None:
            hit = self._defaults.get(name)
            if hit is not None:
                return hit
        ruleset = _rules().get_ruleset(cv.ruleset_name(name))
        if options is None:
            pair = (ruleset, ruleset.resolve_options())
            self._defaults[name] = pair  # only known names get here: bounded
            return pair
        cache = self._options_cache.setdefault(ruleset.name, {})
        resolved = cache.get(options)
        if resolved is None:
            msg = pb2.RulesetOptions.FromString(options)
            cv.check_repeated(msg, "options")
            cv.check_known(msg, "options", "bad_option")
            key = _canonical(msg)
            resolved = cache.get(key)
            if resolved is None:
                try:
                    resolved = cv.options_of(ruleset, msg)
                except MahjongError as e:
                    field = cv.option_field(e.message, ruleset.name, msg)
                    raise FieldError(field, e.code, e.message) from None
                _remember(cache, key, resolved, OPTIONS_CACHE_ENTRIES)
            _remember(cache, options, resolved, OPTIONS_CACHE_ENTRIES)
        return ruleset, resolved

    def _context_cache(self, ruleset: str) -> dict[bytes, Any]:
        cache = self._contexts.get(ruleset)
        if cache is None:  # only known rule sets get here: bounded
            cache = self._contexts[ruleset] = {}
        return cache

    def _context(self, ruleset: str, data: bytes) -> Any:
        """The engine context of a serialized WinContext for ``ruleset`` (cached: few distinct
        contexts)."""
        cache = self._context_cache(ruleset)
        ctx = cache.get(data)
        if ctx is None:
            # shared by every call with these bytes: nothing may change it (the engine only reads)
            msg = pb2.WinContext.FromString(data)
            cv.check_repeated(msg, "context")
            key = _canonical(msg)
            ctx = cache.get(key)
            if ctx is None:
                ctx = cv.context_of(msg, ruleset)
                _remember(cache, key, ctx, CONTEXT_CACHE_ENTRIES, clear=True)
            _remember(cache, data, ctx, CONTEXT_CACHE_ENTRIES, clear=True)
        return ctx

    def _bulk(self, data: bytes, context: grpc.ServicerContext, message: Any) -> bytes:
        """A serialized ScoreBatchRequest or ScoreStreamRequest (``message``) answered with
        the serialized response (both responses have the same layout)."""
        with _Aborter(context, "items"):
            head = _wire.read_bulk_head(data)
            if head is not None:
                name, options, summary_only, count = head
                try:
                    ruleset, resolved = self._resolve(name, options)
                    _check_count(count)
                    out = self._score_bulk(data, ruleset, resolved, summary_only, context)
                except _REFUSED:
                    # the general path says why, and a malformed message comes first (as the
                    # classes find it before the rule set, the options or the count)
                    out = None
                if out is not None:
                    return out
            request = _parse(message, data, context)
            ruleset, resolved = self._ruleset_and_options(request)
            _check_count(len(request.items))
            response = pb2.ScoreBatchResponse()
            for i, item in enumerate(request.items):
                if (i + 1) % DEADLINE_CHECK_EVERY == 0:
                    _check_deadline(context, i)
                entry = self._score_item(item, ruleset, resolved, request.summary_only)
                response.outcomes.add().MergeFromString(entry)
            serialized: bytes = response.SerializeToString()
            return serialized
        raise AssertionError("unreachable")  # the aborter raised

    def _score_bulk(
        self, data: bytes, ruleset: Any, options: Any, summary_only: bool, context: grpc.ServicerContext
    ) -> bytes | None:
        """The items of a well-formed bulk request through ``service._wire``: None if an item
        turns out malformed."""

        def fallback(item: bytes) -> bytes:
            return self._score_item(pb2.ScoreItem.FromString(item), ruleset, options, summary_only)

        out: bytes | None = _wire.score_bulk(
            data,
            ruleset.engine.score,
            options,
            functools.partial(self._context, ruleset.name),
            self._context_cache(ruleset.name),
            functools.partial(cv.score_result_bytes, summary_only=summary_only),
            self._encoded[summary_only],
            fallback,
            Hand,  # counts -> the Hand that parsing the text gives (not parsed again)
            self._hands,
            _REFUSED,
            functools.partial(_check_deadline, context),
            DEADLINE_CHECK_EVERY,
            self._batch(ruleset, options, summary_only),
        )
        return out

    def _batch(self, ruleset: Any, options: Any, summary_only: bool) -> tuple[Any, ...] | None:
        """``score_bulk``'s ``batch`` for a rule set under resolved options: its compiled table
        and how a message's contexts and result rows reach it (None: items one by one)."""
        key = (ruleset.name, options)
        scorer = self._scorers.get(key, False)
        if scorer is False:
            scorer = ruleset.batch_scorer(options) if ruleset.batch_scorer is not None else None
            if len(self._scorers) >= BATCH_SCORER_ENTRIES:
                self._scorers.clear()
            self._scorers[key] = scorer
        if scorer is None:
            return None
        name = ruleset.name

        def compiled_context(data: bytes | None, self_drawn: bool) -> Any:
            try:
                mapping = self._context(name, data) if data is not None else None
            except _REFUSED:  # the item, scored one by one, says what is wrong
                return None
            return scorer.context(mapping, self_drawn)

        encode_row = cv.summary_only_row_bytes if summary_only else cv.result_row_bytes
        return scorer.table, compiled_context, encode_row, summary_only

    @staticmethod
    def _score_item(item: pb2.ScoreItem, ruleset: Any, options: Any, summary_only: bool) -> bytes:
        """One item's serialized ScoreOutcome: its result, or the error naming the field."""
        hand_msg = item.hand
        try:
            cv.check_repeated(item)
            hand = cv.hand_arg(hand_msg, "hand")
            if not item.HasField("win_tile"):
                raise FieldError("win_tile", "bad_tile", "win_tile not set")
            tile = cv.win_tile_of(item.win_tile, "win_tile", ruleset)
            ctx = cv.context_of(item.context, ruleset.name) if item.HasField("context") else None
            result = ruleset.engine.score(hand, tile, item.self_drawn, ctx, options)
        except FieldError as e:
            error = pb2.ItemError(code=e.code, message=clip(e.message), field=e.field)
        except MahjongError as e:
            f = CODE_FIELDS.get(e.code) or "hand"
            if f == "hand" and e.code in cv.HAND_CODES:
                f = cv.hand_field(hand_msg, "hand")
            elif e.code == "bad_context":
                f = cv.context_field(e.message, item.context)
            error = pb2.ItemError(code=e.code, message=clip(e.message), field=f)
        else:
            head: bytes = pb2.ScoreOutcome(id=item.id).SerializeToString()
            return head + _wire.field_bytes(2, cv.score_result_bytes(result, summary_only))
        failed: bytes = pb2.ScoreOutcome(id=item.id, error=error).SerializeToString()
        return failed

    # ------------------------------------------------------------------ RPCs
    def Score(self, data: bytes, context: grpc.ServicerContext) -> bytes:
        fast = _wire.read_score_request(data)
        if fast is not None:
            name, options, text, tile, self_drawn, ctx_bytes = fast
            try:
                ruleset, resolved = self._resolve(name, options)
                ctx = self._context(ruleset.name, ctx_bytes) if ctx_bytes is not None else None
                result = ruleset.engine.score(text, tile, self_drawn, ctx, resolved)
            except _REFUSED:
                pass  # the general path below reports it, naming the field
            else:
                return _wire.field_bytes(1, cv.score_result_bytes(result))
        request = _parse(pb2.ScoreRequest, data, context)
        try:
            cv.check_repeated(request)
            ruleset, resolved = self._ruleset_and_options(request)
            hand = cv.hand_arg(request.hand, "hand")
            if not request.HasField("win_tile"):
                raise FieldError("win_tile", "bad_tile", "win_tile not set")
            tile = cv.win_tile_of(request.win_tile, "win_tile", ruleset)
            ctx = cv.context_of(request.context, ruleset.name) if request.HasField("context") else None
            result = ruleset.engine.score(hand, tile, request.self_drawn, ctx, resolved)
        except (FieldError, MahjongError) as e:
            fields = {**_hand_fields(request.hand), "bad_tile": "win_tile"}
            fields["bad_context"] = cv.context_field(e.message, request.context)
            _abort(context, e, "hand", fields)
        return _wire.field_bytes(1, cv.score_result_bytes(result))

    def Waits(self, request: pb2.WaitsRequest, context: grpc.ServicerContext) -> pb2.WaitsResponse:
        try:
            ruleset, options = self._ruleset_and_options(request)
            hand_msg = request.hand
            hand = hand_msg.text or cv.hand_arg(hand_msg, "hand")
            ctx = cv.context_of(request.context, ruleset.name) if request.HasField("context") else None
            visible: tuple[int, ...] | None = None
            if request.visible_tile_ids:
                counts = [0] * 34
                for i, t in enumerate(request.visible_tile_ids):
                    if t >= 34:
                        raise FieldError(f"visible_tile_ids[{i}]", "bad_tile", f"tile id {t} is not in 0..33")
                    counts[t] += 1
                visible = tuple(counts)
            waits = ruleset.engine.valued_waits(hand, ctx, options, visible)
        except (FieldError, MahjongError) as e:
            fields = _hand_fields(request.hand)
            fields["bad_context"] = cv.context_field(e.message, request.context)
            if e.code == "bad_tile" and "visible" in e.message:  # the engine's check of the counts
                fields["bad_tile"] = "visible_tile_ids"
            _abort(context, e, "hand", fields)
        return cv.waits_response(waits)

    def ValidateMove(
        self, request: pb2.ValidateMoveRequest, context: grpc.ServicerContext
    ) -> pb2.ValidateMoveResponse:
        try:
            ruleset, options = self._ruleset_and_options(request)
            state = cv.table_view_of(request.state, ruleset)
            move = cv.move_of(request.move)
            check = ruleset.engine.validate_move(state, move, options)
        except (FieldError, MahjongError) as e:
            _abort(context, e, "state", {"bad_state": cv.view_field(e.message, request.state)})
        return pb2.ValidateMoveResponse(legal=bool(check.ok), reason=check.code, message=clip(check.message))

    def LegalMoves(
        self, request: pb2.LegalMovesRequest, context: grpc.ServicerContext
    ) -> pb2.LegalMovesResponse:
        try:
            ruleset, options = self._ruleset_and_options(request)
            state = cv.table_view_of(request.state, ruleset)
            _check_deadline(context, 0)
            moves = ruleset.engine.legal_moves(state, options)
        except (FieldError, MahjongError) as e:
            _abort(context, e, "state", {"bad_state": cv.view_field(e.message, request.state)})
        return pb2.LegalMovesResponse(moves=[cv.move_pb(m) for m in moves])

    def Settle(self, request: pb2.SettleRequest, context: grpc.ServicerContext) -> pb2.SettleResponse:
        try:
            ruleset, options = self._ruleset_and_options(request)
            if request.dealer_seat > 3:
                raise FieldError("dealer_seat", "bad_event", f"seat {request.dealer_seat} is not in 0..3")
            streak = request.dealer_streak if request.HasField("dealer_streak") else None
            if streak is not None and streak > MAX_DEALER_STREAK:
                raise FieldError("dealer_streak", "bad_event",
                                 f"dealer_streak {streak} is not in 0..{MAX_DEALER_STREAK}")
            events = cv.events_of(request.events, ruleset)
            _check_deadline(context, 0)
            ledger = ruleset.engine.settle(events, options, request.dealer_seat, streak)
        except (FieldError, MahjongError) as e:
            # the engine names an event by its index; a win's context or hand it refuses
            # without one belongs to the log as a whole
            where = cv.events_field(e.message, request.events)
            _abort(context, e, "events", {"bad_event": where, "bad_context": where})
        return cv.ledger_pb(ledger)

    def ListRulesets(
        self, request: pb2.ListRulesetsRequest, context: grpc.ServicerContext
    ) -> pb2.ListRulesetsResponse:
        rules = _rules()
        out = pb2.ListRulesetsResponse()
        for name in rules.list_rulesets():
            rs = rules.get_ruleset(name)
            out.rulesets.add(name=rs.name, title=rs.title, summary=rs.summary)
        return out

    def DescribeRuleset(
        self, request: pb2.DescribeRulesetRequest, context: grpc.ServicerContext
    ) -> pb2.DescribeRulesetResponse:
        with _Aborter(context, "ruleset"):
            return cv.description_pb(_rules().get_ruleset(cv.ruleset_name(request.ruleset)))

    def ScoreBatch(self, data: bytes, context: grpc.ServicerContext) -> bytes:
        return self._bulk(data, context, pb2.ScoreBatchRequest)

    def ScoreStream(self, requests: Iterator[bytes], context: grpc.ServicerContext) -> Iterator[bytes]:
        for data in requests:
            yield self._bulk(data, context, pb2.ScoreStreamRequest)


# Methods served from and to bytes (service._wire); the others get parsed requests.
RAW_METHODS = frozenset(("Score", "ScoreBatch", "ScoreStream"))
# Methods whose requests may be as large as --max-message-bytes; the others: MAX_UNARY_REQUEST_BYTES.
BULK_METHODS = frozenset(("ScoreBatch", "ScoreStream"))
_REFUSED = (FieldError, MahjongError, DecodeError)


def method_handlers(servicer: MahjongRulesServicer) -> dict[str, grpc.RpcMethodHandler[Any, Any]]:
    """The handlers of every ``MahjongRules`` method. Every request arrives as bytes: the
    methods in ``RAW_METHODS`` read them themselves, the others get the parsed message, and a
    request that is not a valid message is INVALID_ARGUMENT (grpcio would say INTERNAL)."""
    handlers: dict[str, grpc.RpcMethodHandler[Any, Any]] = {}
    for m in pb2.DESCRIPTOR.services_by_name["MahjongRules"].methods:
        behavior = getattr(servicer, m.name)
        serialize = None
        if m.name not in RAW_METHODS:
            behavior = _parsing(behavior, getattr(pb2, m.input_type.name))
            serialize = getattr(pb2, m.output_type.name).SerializeToString
        if m.name not in BULK_METHODS:
            behavior = _size_limited(behavior, m.name)
        if m.client_streaming and m.server_streaming:
            handlers[m.name] = grpc.stream_stream_rpc_method_handler(behavior, None, serialize)
        else:
            assert not m.client_streaming and not m.server_streaming, m.name
            handlers[m.name] = grpc.unary_unary_rpc_method_handler(behavior, None, serialize)
    return handlers


def _parsing(behavior: Any, message: Any) -> Any:
    def handler(data: bytes, context: grpc.ServicerContext) -> Any:
        request = _parse(message, data, context)
        try:
            cv.check_repeated(request)
        except FieldError as e:
            abort_invalid(context, e.code, e.message, e.field)
        return behavior(request, context)

    return handler


def _size_limited(behavior: Any, method: str) -> Any:
    """``behavior`` refusing a request over MAX_UNARY_REQUEST_BYTES (RESOURCE_EXHAUSTED) before
    reading it."""
    limit = MAX_UNARY_REQUEST_BYTES

    def handler(data: bytes, context: grpc.ServicerContext) -> Any:
        if len(data) > limit:
            context.abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"request of {len(data)} bytes is over the {limit} byte limit for {method}",
            )
        return behavior(data, context)

    return handler


def _parse(message: Any, data: bytes, context: grpc.ServicerContext) -> Any:
    """``data`` as a ``message``; INVALID_ARGUMENT if it is not one."""
    try:
        return message.FromString(data)
    except DecodeError as e:
        abort_invalid(context, "bad_request", f"not a valid {message.DESCRIPTOR.full_name}: {e}", "")


def _canonical(msg: Any) -> bytes:
    """``msg``'s value as a cache key: unknown fields dropped (in place), serialized
    deterministically."""
    msg.DiscardUnknownFields()
    key: bytes = msg.SerializeToString(deterministic=True)
    return key


def _remember(cache: dict[bytes, Any], key: bytes, value: Any, entries: int, clear: bool = False) -> None:
    """Keep ``value`` under ``key`` unless the key is over CACHE_KEY_BYTES or the cache is full
    (``clear``: then it is emptied first)."""
    if len(key) > CACHE_KEY_BYTES:
        return
    if len(cache) >= entries:
        if not clear:
            return
        cache.clear()
    cache[key] = value


def _check_count(count: int) -> None:
    if count > cv.MAX_BATCH_ITEMS:
        limit = cv.MAX_BATCH_ITEMS
        raise FieldError("items", "too_many_items", f"{count} items; at most {limit} per message")


def _check_deadline(context: grpc.ServicerContext, done: int) -> None:
    remaining = context.time_remaining()
    if remaining is not None and remaining <= 0:
        context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, f"deadline passed after {done} items")
