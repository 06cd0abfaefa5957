"""Wuhan settlement: the ledger of a hand from its event log (docs/rulesets/wuhan.md,
Settlement). Only the win is paid (kongs pay nothing when made: they double what their owner
wins and pays); the first win ends the hand; a hand with no win is a draw that pays nothing."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from mjcore.errors import MahjongError
from mjcore.rules.common.inputs import tile_id
from mjcore.rules.common.results import Ledger, Payment
from mjcore.rules.common.ruleset import Described
from mjcore.rules.common.settlement import bad_event, check_log, event_seat, ledger
from mjcore.rules.wuhan.options import WuhanOptions
from mjcore.rules.wuhan.scoring import score
from mjcore.table import HandStart, Kong, WallEmpty, Win

LEDGER_REASONS: tuple[Described, ...] = (
    Described("win", "a payer's amount for a win: base × H × W × F(payer)"),
    Described("peichong", "陪冲: a non-discarder's share of a 大胡 on a discard "
              "(dahu_discard_all_pay)"),
    Described("qianggang", "抢杠: the robbed player pays the three amounts"),
    Described("quanqiuren", "全求人: the feeder pays the three amounts"),
    Described("fangsanpu", "放三浦: the player who fed three of the winner's melds pays the three "
              "amounts of a 清一色 or 将一色"),
)
_KONG_KINDS = ("gang", "bugang", "angang", "pizigang", "laizigang")
_RELATIVE = {1: "right", 2: "across", 3: "left"}


def _context(ctx: object) -> dict[str, object]:
    if isinstance(ctx, Mapping):
        return dict(ctx)
    try:
        return dict(ctx)  # type: ignore[call-overload, no-any-return]
    except (TypeError, ValueError):
        raise MahjongError("bad_context", "a win's context must be key/value pairs") from None


def settle(events: Iterable[object], o: WuhanOptions, dealer: int | None = None,
           dealer_streak: int | None = None) -> Ledger:
    """The hand's ledger: the win's payments (each naming its event), zero-sum; the winner
    deals next, a draw keeps the dealer."""
    log = check_log(events)
    the_dealer = 0 if dealer is None else event_seat(dealer, "dealer")
    pays: list[Payment] = []
    winners: list[int] = []
    ended = False
    for i, ev in enumerate(log):
        if ended:
            raise bad_event(f"event {i} comes after the hand ended")
        if isinstance(ev, HandStart):
            if i:
                raise bad_event("HandStart must be the first event")
            the_dealer = event_seat(ev.dealer, "dealer")
        elif isinstance(ev, Kong):
            seat = event_seat(ev.seat, "kong seat")
            if ev.kind not in _KONG_KINDS:
                raise bad_event(f"event {i}: unknown kong kind {ev.kind!r:.40}")
            if ev.kind == "gang" and event_seat(ev.fed_by, "gang fed_by") == seat:
                raise bad_event(f"event {i}: a gang is fed by another seat")
        elif isinstance(ev, Win):
            seat = event_seat(ev.seat, "winner")
            ctx = _context(ev.context)
            ctx["winner"] = seat
            given = {k: ctx.pop(k) for k in ("discarder", "robbed") if k in ctx}
            if ev.self_drawn:
                if ev.discarder is not None:
                    raise bad_event(f"event {i}: a self-drawn win has no discarder")
                if given:
                    raise bad_event(f"event {i}: a self-drawn win robs and is fed by nobody")
            else:
                frm = event_seat(ev.discarder, "discarder")
                rel = _RELATIVE.get((frm - seat) % 4)
                if rel is None:
                    raise bad_event(f"event {i}: a seat cannot win on its own tile")
                prev = log[i - 1] if i else None
                robbed = "robbed" in given or (
                    isinstance(prev, Kong) and prev.robbed and prev.kind == "bugang"
                    and prev.seat == frm and tile_id(prev.tile) == tile_id(ev.win_tile))
                if any(v != rel for v in given.values()):
                    raise bad_event(f"event {i}: the context names another seat than the "
                                    "event's discarder")
                ctx["robbed" if robbed else "discarder"] = rel
            result = score(ev.hand, ev.win_tile, ev.self_drawn, ctx, o)
            fed = ev.discarder if not ev.self_drawn else None
            for frm_, to, amount in result.payments:
                reason = result.liable or ("peichong" if fed is not None and frm_ != fed
                                           else "win")
                pays.append(Payment(frm_, to, amount, reason, i))
            winners.append(seat)
            ended = True  # one winner: the first win ends the hand
        elif isinstance(ev, WallEmpty):
            if not isinstance(ev.hands, tuple | list) or len(ev.hands) != 4:
                raise bad_event("WallEmpty lists four hands (None where unknown)")
            ended = True  # 荒庄: nothing is paid
        else:
            raise bad_event(f"event {i}: unknown event {type(ev).__name__}")
    next_dealer = winners[0] if winners else the_dealer
    return ledger(pays, next_dealer, winners)
