"""Walking a hand's event log into a ledger: the bookkeeping every rule set shares."""

from __future__ import annotations

from mjcore.errors import MahjongError
from mjcore.rules.common.results import Ledger, Payment

MAX_EVENTS = 512
"""A real hand has at most a few dozen events (kongs, wins, the end); a longer log is refused
before any work is done on it."""


def bad_event(message: str) -> MahjongError:
    return MahjongError("bad_event", message)


def check_log(events: object) -> list[object]:
    """The event log as a list, refused when it is not a list or is longer than a hand."""
    if isinstance(events, str | bytes) or not hasattr(events, "__iter__"):
        raise bad_event("events must be a list of events")
    log: list[object] = []
    for ev in events:
        log.append(ev)
        if len(log) > MAX_EVENTS:
            raise bad_event(f"a hand has at most {MAX_EVENTS} events")
    return log


MAX_DEALER_STREAK = 10_000
"""The largest dealer streak (連莊 count) a settlement takes (a win context's bound too)."""


def event_seat(value: object, what: str) -> int:
    if type(value) is int and 0 <= value < 4:
        return value
    raise bad_event(f"{what} must be a seat 0-3, got {value!r:.40}")


def ledger(payments: list[Payment], next_dealer: int, winners: list[int],
           notes: tuple[str, ...] = (), next_dealer_streak: int | None = None) -> Ledger:
    """The ledger of ``payments``: per-seat totals, which always sum to zero."""
    totals = [0, 0, 0, 0]
    for p in payments:
        if p.from_seat == p.to_seat or p.amount < 0:  # pragma: no cover - a bug, not input
            raise MahjongError("internal", f"bad payment {p}")
        totals[p.from_seat] -= p.amount
        totals[p.to_seat] += p.amount
    if sum(totals):  # pragma: no cover - every payment moves points between two seats
        raise MahjongError("internal", "settlement is not zero-sum")
    return Ledger(tuple(payments), tuple(totals), next_dealer, tuple(winners), notes,
                  next_dealer_streak)
