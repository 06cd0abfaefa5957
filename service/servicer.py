"""``mahjong.v1.MahjongRules``: translate each request to engine calls and the answers back.

Errors: a refused field (:class:`FieldError`) or an engine ``MahjongError`` becomes
INVALID_ARGUMENT (NOT_FOUND for ``unknown_ruleset``) with the field that caused it; any other
exception propagates to the interceptor, which logs it with the request and answers INTERNAL.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import grpc

from mjcore import MahjongError
from service import convert as cv
from service.errors import CODE_FIELDS, FieldError, abort_invalid
from service.pb import pb2, pb2_grpc

DEADLINE_CHECK_EVERY = 64  # items between deadline checks in bulk calls


def _rules() -> Any:
    from mjcore import rules

    return rules


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
        if isinstance(exc, FieldError):
            abort_invalid(self.context, exc.code, exc.message, exc.field)
        if isinstance(exc, MahjongError):
            field = self.fields.get(exc.code) or CODE_FIELDS.get(exc.code) or self.default_field
            abort_invalid(self.context, exc.code, exc.message, field)


class MahjongRulesServicer(pb2_grpc.MahjongRulesServicer):
    def __init__(self) -> None:
        self._options_cache: dict[str, dict[bytes, Any]] = {}

    # ------------------------------------------------------------------ helpers
    def _ruleset_and_options(self, name: str, options: pb2.RulesetOptions) -> tuple[Any, Any]:
        ruleset = _rules().get_ruleset(cv.ruleset_name(name))
        cache = self._options_cache.setdefault(ruleset.name, {})
        try:
            resolved = cv.options_of(ruleset, options, cache)
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
        """Score each item into ``outcomes`` (a repeated ScoreOutcome field), in order."""
        if len(items) > cv.MAX_BATCH_ITEMS:
            raise FieldError(
                "items", "too_many_items", f"{len(items)} items; at most {cv.MAX_BATCH_ITEMS} per message"
            )
        score = ruleset.engine.score
        fill = cv.fill_score_result
        add = outcomes.add
        check_every = DEADLINE_CHECK_EVERY
        for i, item in enumerate(items):
            if i % check_every == check_every - 1:
                remaining = context.time_remaining()
                if remaining is not None and remaining <= 0:
                    context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, f"deadline passed after {i} items")
            hand_msg = item.hand
            try:
                if hand_msg.WhichOneof("form") == "text":
                    hand: Any = hand_msg.text
                else:
                    hand = cv.hand_of(hand_msg, "hand")
                if not item.HasField("win_tile"):
                    raise FieldError("win_tile", "bad_tile", "win_tile not set")
                tile = cv.tile_of(item.win_tile, "win_tile")
                ctx = cv.context_of(item.context) if item.HasField("context") else None
                result = score(hand, tile, item.self_drawn, ctx, options)
            except FieldError as e:
                add(id=item.id, error=pb2.ItemError(code=e.code, message=e.message, field=e.field))
                continue
            except MahjongError as e:
                f = CODE_FIELDS.get(e.code) or "hand"
                if f == "hand" and e.code in cv.HAND_CODES:
                    f = cv.hand_field(hand_msg, "hand")
                add(id=item.id, error=pb2.ItemError(code=e.code, message=e.message, field=f))
                continue
            fill(add(id=item.id).result, result, summary_only)

    # ------------------------------------------------------------------ RPCs
    def Score(self, request: pb2.ScoreRequest, context: grpc.ServicerContext) -> pb2.ScoreResponse:
        with _Aborter(context, "hand", **_hand_fields(request.hand), bad_tile="win_tile"):
            ruleset, options = self._ruleset_and_options(request.ruleset, request.options)
            hand = cv.hand_arg(request.hand, "hand")
            if not request.HasField("win_tile"):
                raise FieldError("win_tile", "bad_tile", "win_tile not set")
            tile = cv.tile_of(request.win_tile, "win_tile")
            ctx = cv.context_of(request.context) if request.HasField("context") else None
            result = ruleset.engine.score(hand, tile, request.self_drawn, ctx, options)
            out = pb2.ScoreResponse()
            cv.fill_score_result(out.result, result)
            return out

    def Waits(self, request: pb2.WaitsRequest, context: grpc.ServicerContext) -> pb2.WaitsResponse:
        with _Aborter(context, "hand", **_hand_fields(request.hand)):
            ruleset, options = self._ruleset_and_options(request.ruleset, request.options)
            hand = cv.hand_arg(request.hand, "hand")
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
            out = pb2.WaitsResponse(waits=[cv.wait_pb(w) for w in waits])
            out.max_discard_fan = max((w.fan_discard for w in waits), default=-1)
            return out

    def ValidateMove(
        self, request: pb2.ValidateMoveRequest, context: grpc.ServicerContext
    ) -> pb2.ValidateMoveResponse:
        with _Aborter(context, "state"):
            ruleset, options = self._ruleset_and_options(request.ruleset, request.options)
            state = cv.table_view_of(request.state)
            move = cv.move_of(request.move)
            check = ruleset.engine.validate_move(state, move, options)
            return pb2.ValidateMoveResponse(legal=bool(check.ok), reason=check.code, message=check.message)

    def LegalMoves(
        self, request: pb2.LegalMovesRequest, context: grpc.ServicerContext
    ) -> pb2.LegalMovesResponse:
        with _Aborter(context, "state"):
            ruleset, options = self._ruleset_and_options(request.ruleset, request.options)
            state = cv.table_view_of(request.state)
            moves = ruleset.engine.legal_moves(state, options)
            return pb2.LegalMovesResponse(moves=[cv.move_pb(m) for m in moves])

    def Settle(self, request: pb2.SettleRequest, context: grpc.ServicerContext) -> pb2.SettleResponse:
        with _Aborter(context, "events"):
            ruleset, options = self._ruleset_and_options(request.ruleset, request.options)
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
            ruleset, options = self._ruleset_and_options(request.ruleset, request.options)
            out = pb2.ScoreBatchResponse()
            self._score_items(ruleset, options, request.items, request.summary_only, context, out.outcomes)
            return out

    def ScoreStream(
        self, request_iterator: Iterator[pb2.ScoreStreamRequest], context: grpc.ServicerContext
    ) -> Iterator[pb2.ScoreStreamResponse]:
        for request in request_iterator:
            with _Aborter(context, "items"):
                ruleset, options = self._ruleset_and_options(request.ruleset, request.options)
                out = pb2.ScoreStreamResponse()
                self._score_items(
                    ruleset, options, request.items, request.summary_only, context, out.outcomes
                )
            yield out
