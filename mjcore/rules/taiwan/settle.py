"""Taiwan settlement (taiwan.md §2, §10): the ledger of a hand from its event log. Only wins
are paid (no kong money, no 包); each payment names the win event that caused it. The deal
stays with a dealer who wins or, with ``draw_keeps_dealer``, a drawn hand (連莊); otherwise it
passes to the dealer's 下家. The ledger reports the next hand's dealer streak too (§2: one more
when the deal is kept, else 0)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from mjcore.errors import MahjongError
from mjcore.rules.common.results import Ledger, Payment
from mjcore.rules.common.ruleset import Described
from mjcore.rules.common.settlement import MAX_DEALER_STREAK, bad_event, check_log, event_seat, ledger
from mjcore.rules.taiwan.options import TaiwanOptions
from mjcore.rules.taiwan.scoring import RELATIVE, score, tile_of
from mjcore.table import HandStart, Kong, WallEmpty, Win

LEDGER_REASONS: tuple[Described, ...] = (
    Described("win", "a win: 底 + (台 + dealer 台 when the dealer pays or wins) × 台錢 from the "
              "discarder (搶槓: the robbed player, 七搶一: the eighth-flower player) or from each "
              "of the three others on a self-draw (八仙過海 too)"),
)


def _streak(value: object, what: str) -> int:
    if type(value) is int and 0 <= value <= MAX_DEALER_STREAK:
        return value
    raise bad_event(f"{what} must be an integer 0-{MAX_DEALER_STREAK}, got {value!r:.40}")


def _context(ev: Win, i: int, dealer: int, streak: int | None) -> dict[str, object]:
    """The win's scoring context with what the log knows: the winner, the dealer and
    discarder seen from the winner, and the dealer streak when given (a context naming other
    ones is refused)."""
    ctx = ev.context
    try:
        out: dict[str, object] = dict(ctx if isinstance(ctx, Mapping) else ctx)
    except (TypeError, ValueError):
        raise bad_event(f"event {i}: a win's context is key/value pairs") from None
    known = {"winner": ev.seat, "dealer": RELATIVE[(dealer - ev.seat) % 4]}
    if not ev.self_drawn:
        discarder = event_seat(ev.discarder, f"event {i} discarder")
        if discarder == ev.seat:
            raise bad_event(f"event {i}: the winner cannot be the discarder")
        known["discarder"] = RELATIVE[(discarder - ev.seat) % 4]
    elif ev.discarder is not None:
        raise bad_event(f"event {i}: a self-drawn win has no discarder")
    if streak is not None:
        known["dealer_streak"] = streak
    for key, value in known.items():
        if out.get(key, value) != value:
            raise bad_event(f"event {i}: context {key}={out[key]!r:.20} disagrees with the log "
                            f"({value!r})")
        out[key] = value
    return out


def _robbed_before(log: list[object], i: int, ev: Win) -> bool:
    """The event before win ``i`` (and the wins on the same tile before it) is the discarder's
    bugang of the winning tile, robbed."""
    j = i - 1
    while j >= 0 and isinstance(log[j], Win):
        j -= 1
    k = log[j] if j >= 0 else None
    return (isinstance(k, Kong) and k.robbed and k.kind == "bugang" and k.seat == ev.discarder
            and tile_of(k.tile, "kong tile") == tile_of(ev.win_tile, "win_tile"))


def settle(events: Iterable[object], o: TaiwanOptions, dealer: int | None = None,
           dealer_streak: int | None = None) -> Ledger:
    """The whole hand's ledger from its event log. The dealer streak at the hand's start comes
    from ``dealer_streak`` or the ``HandStart``, else from the first win's context (each win's
    context must agree with it), else it is 0."""
    log = check_log(events)
    the_dealer = 0 if dealer is None else event_seat(dealer, "dealer")
    streak = None if dealer_streak is None else _streak(dealer_streak, "dealer_streak")
    pays: list[Payment] = []
    winners: list[int] = []
    ended = False
    last_discard: tuple[int | None, int, int | None] | None = None
    for i, ev in enumerate(log):
        if isinstance(ev, HandStart):
            if i:
                raise bad_event("HandStart must be the first event")
            the_dealer = event_seat(ev.dealer, "dealer")
            if ev.dealer_streak is not None:
                streak = _streak(ev.dealer_streak, "dealer_streak")
            continue
        if ended and not (isinstance(ev, Win) and not ev.self_drawn and o.multi_ron == "all"
                          and last_discard == (ev.discarder, tile_of(ev.win_tile, "win_tile"),
                                               ev.discard)):
            raise bad_event(f"event {i} comes after the hand ended")
        if isinstance(ev, Kong):
            event_seat(ev.seat, f"event {i} kong seat")
            if ev.kind not in ("gang", "bugang", "angang"):
                raise bad_event(f"event {i}: unknown kong kind {ev.kind!r:.20}")
        elif isinstance(ev, Win):
            seat = event_seat(ev.seat, f"event {i} winner")
            if seat in winners:
                raise bad_event(f"event {i}: seat {seat} has already won")
            ctx = _context(ev, i, the_dealer, streak)
            if not ev.self_drawn and _robbed_before(log, i, ev):  # 搶槓 (§4.6): the log
                ctx.setdefault("qiang_gang", True)                    # shows the robbed bugang
            try:
                result = score(ev.hand, ev.win_tile, ev.self_drawn, ctx, o)
            except MahjongError as exc:
                raise MahjongError(exc.code, f"event {i}: {exc.message}") from None
            pays.extend(Payment(f, t, amount, "win", i) for f, t, amount in result.payments)
            if streak is None:  # the first win's context tells it
                streak = _streak(ctx.get("dealer_streak", 0), f"event {i} dealer_streak")
            winners.append(seat)
            ended = True
            last_discard = None if ev.self_drawn else (ev.discarder,
                                                       tile_of(ev.win_tile, "win_tile"),
                                                       ev.discard)
        elif isinstance(ev, WallEmpty):
            if not isinstance(ev.hands, tuple | list) or len(ev.hands) != 4:
                raise bad_event("WallEmpty lists four hands")
            ended = True
        else:
            raise bad_event(f"event {i}: unknown event {type(ev).__name__}")
    keeps = the_dealer in winners or (not winners and o.draw_keeps_dealer)
    next_dealer = the_dealer if keeps else (the_dealer + 1) % 4
    notes = ("連莊: the dealer keeps the deal",) if keeps else ()
    return ledger(pays, next_dealer, winners, notes, (streak or 0) + 1 if keeps else 0)


__all__ = ["LEDGER_REASONS", "settle"]
