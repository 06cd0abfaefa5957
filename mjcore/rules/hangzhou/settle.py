"""Hangzhou settlement: the ledger of a hand from its event log (the spec's §8): one win
(一炮多响 is not allowed, and the first win ends the hand), paid per payer, 承包 making one seat
pay for all. Kongs carry no money in Hangzhou; a wall-empty end pays nothing."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from mjcore.errors import MahjongError
from mjcore.rules.common.inputs import tile_id as _tile
from mjcore.rules.common.results import Ledger, Payment
from mjcore.rules.common.ruleset import Described
from mjcore.rules.common.settlement import bad_event as _bad
from mjcore.rules.common.settlement import check_log, event_seat, ledger
from mjcore.rules.hangzhou.options import HangzhouOptions
from mjcore.rules.hangzhou.scoring import RELATIVE, score
from mjcore.table import HandStart, Kong, WallEmpty, Win

LEDGER_REASONS: tuple[Described, ...] = (
    Described("win", "payment for a win: each other seat pays P on a self-draw, the discarder "
              "P (or 3P) on a discard win (§8)"),
    Described("chengbao", "承包: the seat the winner claimed from chengbao_threshold times pays "
              "all three shares of a self-drawn win"),
)


def _context(ctx: object) -> dict[str, object]:
    if isinstance(ctx, Mapping):
        return dict(ctx)
    try:
        return dict(ctx)  # type: ignore[call-overload, no-any-return]
    except (TypeError, ValueError):
        raise MahjongError("bad_context", "a win's context must be key/value pairs") from None


def _agree(ctx: dict[str, object], key: str, value: str, i: int) -> None:
    """The log says who deals and who discarded: a win context saying otherwise is wrong."""
    if ctx.setdefault(key, value) != value:
        raise _bad(f"event {i}: the context's {key} {ctx[key]!r:.20} is not the log's {value!r}")


def settle(events: Iterable[object], o: HangzhouOptions, dealer: int | None = None,
           dealer_streak: int | None = None) -> Ledger:
    """The hand's ledger. The dealer (``HandStart`` or ``dealer``) keeps the deal when he wins
    or nobody wins (decision: 荒庄 keeps the dealer); else the deal passes to his 下家."""
    log = check_log(events)
    the_dealer = 0 if dealer is None else event_seat(dealer, "dealer")
    pays: list[Payment] = []
    winners: list[int] = []
    ended = False
    for i, ev in enumerate(log):
        if ended:
            raise _bad(f"event {i} comes after the hand ended (one win ends a Hangzhou hand)")
        if isinstance(ev, HandStart):
            if i != 0:
                raise _bad("HandStart must be the first event")
            the_dealer = event_seat(ev.dealer, "dealer")
        elif isinstance(ev, Kong):
            event_seat(ev.seat, "kong seat")
            if ev.kind not in ("gang", "bugang", "angang"):
                raise _bad(f"event {i}: unknown kong kind {ev.kind!r:.20}")
        elif isinstance(ev, Win):
            seat = event_seat(ev.seat, "winner")
            ctx = _context(ev.context)
            ctx["winner"] = seat
            _agree(ctx, "dealer", "self" if the_dealer == seat
                   else RELATIVE[(the_dealer - seat - 1) % 4], i)
            if ev.self_drawn:
                if ev.discarder is not None:
                    raise _bad(f"event {i}: a self-drawn win has no discarder")
            else:
                d = event_seat(ev.discarder, "discarder")
                if d == seat:
                    raise _bad(f"event {i}: a seat cannot win on its own discard")
                _agree(ctx, "discarder", RELATIVE[(d - seat - 1) % 4], i)
            result = score(ev.hand, _tile(ev.win_tile), ev.self_drawn, ctx, o)
            reason = "chengbao" if result.liable else "win"
            pays.extend(Payment(f, t, a, reason, i) for f, t, a in result.payments)
            winners.append(seat)
            ended = True
        elif isinstance(ev, WallEmpty):
            ended = True
        else:
            raise _bad(f"event {i}: unknown event {type(ev).__name__}")
    next_dealer = the_dealer if not winners or winners[0] == the_dealer else (the_dealer + 1) % 4
    return ledger(pays, next_dealer, winners)
