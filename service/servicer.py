"""``mahjong.v1.MahjongRules``: translate each request to engine calls and the answers back.

Errors: a refused field (:class:`FieldError`) or an engine ``MahjongError`` becomes
INVALID_ARGUMENT (NOT_FOUND for ``unknown_ruleset``) with the field that caused it; any other
exception propagates to the guard (service.interceptors), which logs it with the request and
answers INTERNAL.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NoReturn

import grpc

from mjcore import MahjongError
from service import convert as cv
from service.errors import CODE_FIELDS, FieldError, abort_invalid
from service.pb import pb2, pb2_grpc

DEADLINE_CHECK_EVERY = 64  # items between deadline checks in bulk calls


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


class MahjongRulesServicer(pb2_grpc.MahjongRulesServicer):
    """Hot paths (Score, Waits, the bulk loop) do only what the request needs: the rule set and
    its default options are looked up once per rule-set name, hand text and tile text go to the
    engine as they are, and error fields are worked out only when there is an error."""

    def __init__(self) -> None:
        self._options_cache: dict[str, dict[bytes, Any]] = {}
        # request.ruleset ("" or a known name) -> (rule set, its default options)
        self._defaults: dict[str, tuple[Any, Any]] = {}

    # ------------------------------------------------------------------ helpers
    def _ruleset_and_options(self, request: Any) -> tuple[Any, Any]:
        """The rule set and resolved options of a request with ``ruleset`` and ``options``."""
        name = request.ruleset
        has_options = request.HasField("options")
        if not has_options:
            hit = self._defaults.get(name)
            if hit is not None:
                return hit
        ruleset = _rules().get_ruleset(cv.ruleset_name(name))
        if not has_options:
            pair = (ruleset, ruleset.resolve_options())
            self._defaults[name] = pair  # only known names get here: bounded
            return pair
        cache = self._options_cache.setdefault(ruleset.name, {})
        try:
            resolved = cv.options_of(ruleset, request.options, cache)
        except MahjongError as e:
            raise FieldError("options", e.code, e.message) from None
        return ruleset, resolved

    def _score_items(
        self,
        ruleset: Any,
        options: Any,
        items: Any,
        summary_only: bool,
        context: grpc.ServicerContext,
        outcomes: Any,
    ) -> None:
        """Score each item into ``outcomes`` (a repeated ScoreOutcome field), in order.

        The common item (hand text, tile text, optional context, no error) takes the short
        path; anything else (structured hands, tile ids, errors) the general one."""
        if len(items) > cv.MAX_BATCH_ITEMS:
            raise FieldError(
                "items", "too_many_items", f"{len(items)} items; at most {cv.MAX_BATCH_ITEMS} per message"
            )
        score = ruleset.engine.score
        fill = cv.fill_score_result
        context_of = cv.context_of
        tiles = cv.TILE_IDS
        add = outcomes.add
        check_every = DEADLINE_CHECK_EVERY
        i = 0
        for item in items:
            i += 1
            if i % check_every == 0:
                remaining = context.time_remaining()
                if remaining is not None and remaining <= 0:
                    context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, f"deadline passed after {i - 1} items")
            text = item.hand.text
            tile = tiles.get(item.win_tile.text)
            if text and tile is not None:
                try:
                    ctx = context_of(item.context) if item.HasField("context") else None
                    result = score(text, tile, item.self_drawn, ctx, options)
                except (FieldError, MahjongError):
                    pass  # the general path below reports it
                else:
                    fill(add(id=item.id).result, result, summary_only)
                    continue
            self._score_item(item, score, options, add, summary_only)

    @staticmethod
    def _score_item(item: Any, score: Any, options: Any, add: Any, summary_only: bool) -> None:
        hand_msg = item.hand
        try:
            hand = cv.hand_arg(hand_msg, "hand")
            if not item.HasField("win_tile"):
                raise FieldError("win_tile", "bad_tile", "win_tile not set")
            tile = cv.tile_of(item.win_tile, "win_tile")
            ctx = cv.context_of(item.context) if item.HasField("context") else None
            result = score(hand, tile, item.self_drawn, ctx, options)
        except FieldError as e:
            add(id=item.id, error=pb2.ItemError(code=e.code, message=e.message, field=e.field))
            return
        except MahjongError as e:
            f = CODE_FIELDS.get(e.code) or "hand"
            if f == "hand" and e.code in cv.HAND_CODES:
                f = cv.hand_field(hand_msg, "hand")
            add(id=item.id, error=pb2.ItemError(code=e.code, message=e.message, field=f))
            return
        cv.fill_score_result(add(id=item.id).result, result, summary_only)

    # ------------------------------------------------------------------ RPCs
    def Score(self, request: pb2.ScoreRequest, context: grpc.ServicerContext) -> pb2.ScoreResponse:
        try:
            ruleset, options = self._ruleset_and_options(request)
            hand_msg = request.hand
            hand = hand_msg.text or cv.hand_arg(hand_msg, "hand")
            win = request.win_tile
            tile = cv.TILE_IDS.get(win.text)
            if tile is None:
                if not request.HasField("win_tile"):
                    raise FieldError("win_tile", "bad_tile", "win_tile not set")
                tile = cv.tile_of(win, "win_tile")
            ctx = cv.context_of(request.context) if request.HasField("context") else None
            result = ruleset.engine.score(hand, tile, request.self_drawn, ctx, options)
        except (FieldError, MahjongError) as e:
            _abort(context, e, "hand", {**_hand_fields(request.hand), "bad_tile": "win_tile"})
        out = pb2.ScoreResponse()
        cv.fill_score_result(out.result, result)
        return out

    def Waits(self, request: pb2.WaitsRequest, context: grpc.ServicerContext) -> pb2.WaitsResponse:
        try:
            ruleset, options = self._ruleset_and_options(request)
            hand_msg = request.hand
            hand = hand_msg.text or cv.hand_arg(hand_msg, "hand")
            ctx = cv.context_of(request.context) if request.HasField("context") else None
            visible: tuple[int, ...] | None = None
            if request.visible_tile_ids:
                counts = [0] * 34
                for t in request.visible_tile_ids:
                    if t >= 34:
                        raise FieldError("visible_tile_ids", "bad_tile", f"tile id {t} is not in 0..33")
                    counts[t] += 1
                visible = tuple(counts)
            waits = ruleset.engine.valued_waits(hand, ctx, options, visible)
        except (FieldError, MahjongError) as e:
            _abort(context, e, "hand", _hand_fields(request.hand))
        return cv.waits_response(waits)

    def ValidateMove(
        self, request: pb2.ValidateMoveRequest, context: grpc.ServicerContext
    ) -> pb2.ValidateMoveResponse:
        with _Aborter(context, "state"):
            ruleset, options = self._ruleset_and_options(request)
            state = cv.table_view_of(request.state)
            move = cv.move_of(request.move)
            check = ruleset.engine.validate_move(state, move, options)
            return pb2.ValidateMoveResponse(legal=bool(check.ok), reason=check.code, message=check.message)

    def LegalMoves(
        self, request: pb2.LegalMovesRequest, context: grpc.ServicerContext
    ) -> pb2.LegalMovesResponse:
        with _Aborter(context, "state"):
            ruleset, options = self._ruleset_and_options(request)
            state = cv.table_view_of(request.state)
            moves = ruleset.engine.legal_moves(state, options)
            return pb2.LegalMovesResponse(moves=[cv.move_pb(m) for m in moves])

    def Settle(self, request: pb2.SettleRequest, context: grpc.ServicerContext) -> pb2.SettleResponse:
        with _Aborter(context, "events"):
            ruleset, options = self._ruleset_and_options(request)
            if request.dealer_seat > 3:
                raise FieldError("dealer_seat", "bad_event", f"seat {request.dealer_seat} is not in 0..3")
            events = cv.events_of(request.events)
            ledger = ruleset.engine.settle(events, options, request.dealer_seat)
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
            return cv.description_pb(_rules().describe_ruleset(cv.ruleset_name(request.ruleset)))

    def ScoreBatch(
        self, request: pb2.ScoreBatchRequest, context: grpc.ServicerContext
    ) -> pb2.ScoreBatchResponse:
        with _Aborter(context, "items"):
            ruleset, options = self._ruleset_and_options(request)
            out = pb2.ScoreBatchResponse()
            self._score_items(ruleset, options, request.items, request.summary_only, context, out.outcomes)
            return out

    def ScoreStream(
        self, request_iterator: Iterator[pb2.ScoreStreamRequest], context: grpc.ServicerContext
    ) -> Iterator[pb2.ScoreStreamResponse]:
        for request in request_iterator:
            with _Aborter(context, "items"):
                ruleset, options = self._ruleset_and_options(request)
                out = pb2.ScoreStreamResponse()
                self._score_items(
                    ruleset, options, request.items, request.summary_only, context, out.outcomes
                )
            yield out
