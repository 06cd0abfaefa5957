"""Guangdong settlement: the ledger of a whole hand from its event log
(docs/rulesets/guangdong.md §10-§11 and "Settlement"). Only wins move points: no kong money,
no draw payments. The hand ends with a self-drawn win, with the win(s) on one discard, or
with an empty wall."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from mjcore.errors import MahjongError
from mjcore.rules.common.inputs import tile_id as _tile
from mjcore.rules.common.results import Ledger, Payment, ScoreResult
from mjcore.rules.common.ruleset import Described
from mjcore.rules.common.settlement import bad_event as _bad
from mjcore.rules.common.settlement import check_log, event_seat, ledger
from mjcore.rules.guangdong.options import GuangdongOptions
from mjcore.rules.guangdong.scoring import RELATIVE, hand_of, score
from mjcore.table import HandStart, Kong, WallEmpty, Win

LEDGER_REASONS: tuple[Described, ...] = (
    Described("win", "a payer's share of a win (§10)"),
    Described("bao", "包: the liable player pays for all three (抢杠, 杠上开花包杠, 大四喜/大三元, "
              "十二张落地; §11)"),
)


def _context(ctx: object) -> dict[str, object]:
    if isinstance(ctx, Mapping):
        return dict(ctx)
    try:
        out: dict[str, object] = dict(ctx)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        raise MahjongError("bad_context", "a win's context must be key/value pairs") from None
    return out


def _group_key(ev: Win) -> tuple[int, int, int | None] | None:
    """What identifies the discard a win is on (None for a self-draw)."""
    if ev.self_drawn or ev.discarder is None:
        return None
    try:
        return (ev.discarder, _tile(ev.win_tile), ev.discard)
    except MahjongError:
        return None


def settle(events: Iterable[object], o: GuangdongOptions, dealer: int | None = None,
           dealer_streak: int | None = None) -> Ledger:
    """The whole hand's ledger. Wins on one discard (the same discarder, tile and ``discard``,
    in consecutive events) are one 一炮多响: each is scored with ``winners_on_discard`` set to
    their number and paid by the discarder. The dealer stays when it wins, else the deal
    passes to the next seat (also after an empty wall)."""
    log = check_log(events)
    the_dealer = 0 if dealer is None else event_seat(dealer, "dealer")
    pays: list[Payment] = []
    winners: list[int] = []
    notes: list[str] = []
    ended = False
    i = 0
    while i < len(log):
        ev = log[i]
        if ended:
            raise _bad(f"event {i} comes after the hand ended")
        if isinstance(ev, HandStart):
            if i != 0:
                raise _bad("HandStart must be the first event")
            the_dealer = event_seat(ev.dealer, "dealer")
            i += 1
        elif isinstance(ev, Kong):  # no kong money in Guangdong: only checked
            event_seat(ev.seat, "kong seat")
            if ev.kind not in ("gang", "bugang", "angang"):
                raise _bad(f"event {i}: unknown kong kind {ev.kind!r:.40}")
            if ev.kind == "gang" and (event_seat(ev.fed_by, "gang fed_by") == ev.seat):
                raise _bad(f"event {i}: a gang is fed by another seat")
            i += 1
        elif isinstance(ev, WallEmpty):
            if not isinstance(ev.hands, tuple | list) or len(ev.hands) != 4:
                raise _bad("WallEmpty lists four hands")
            ended = True
            i += 1
        elif isinstance(ev, Win):
            group = [i]
            key = _group_key(ev)
            while (key is not None and i + len(group) < len(log)
                   and isinstance(log[i + len(group)], Win)
                   and _group_key(log[i + len(group)]) == key):  # type: ignore[arg-type]
                group.append(i + len(group))
            if len(group) > 1 and o.multi_ron == "first_only":
                raise _bad(f"events {group}: with multi_ron first_only one player wins a discard")
            seen: set[int] = set()
            for j in group:
                w = log[j]
                assert isinstance(w, Win)
                seat = event_seat(w.seat, "winner")
                if seat in seen:
                    raise _bad(f"event {j}: seat {seat} has already won on this discard")
                seen.add(seat)
                result = _score_win(j, w, seat, the_dealer, len(group), o)
                reason = "bao" if result.liable else "win"
                pays.extend(Payment(f, t, amt, reason, j) for f, t, amt in result.payments)
                if result.liable:
                    notes.append(f"event {j}: seat {result.liable_seat} pays for all three "
                                 f"({result.liable})")
                winners.append(seat)
            ended = True
            i += len(group)
        else:
            raise _bad(f"event {i}: unknown event {type(ev).__name__}")
    # the dealer stays when it wins (or the log has not ended yet), else the deal passes on
    stays = the_dealer in winners if winners else not ended
    next_dealer = the_dealer if stays else (the_dealer + 1) % 4
    return ledger(pays, next_dealer, winners, tuple(notes))


def _score_win(i: int, ev: Win, seat: int, dealer: int, n: int,
               o: GuangdongOptions) -> ScoreResult:
    """Score one win of the log with the seats the event gives (relative to the winner)."""
    ctx = _context(ev.context)

    def rel(other: int, what: str) -> str:
        other = event_seat(other, what)
        if other == seat:
            raise _bad(f"event {i}: the {what} is the winner")
        return RELATIVE[3 - (other - seat) % 4]

    def agree(key: str, value: object) -> None:
        # the event is the source of who is who: a context that says otherwise contradicts it
        if ctx.setdefault(key, value) != value:
            raise _bad(f"event {i}: the context's {key} {ctx[key]!r:.20} is not the event's "
                       f"{value!r:.20}")

    if ctx.setdefault("winner", seat) != seat:
        raise _bad(f"event {i}: the context's winner is not the event's seat")
    ctx.setdefault("seat_wind", f"{(seat - dealer) % 4 + 1}z")
    if ev.self_drawn:
        if ev.discarder is not None:
            raise _bad(f"event {i}: a self-drawn win has no discarder")
    else:
        if ev.discarder is None:
            raise _bad(f"event {i}: a win on a discard (or a robbed bugang) names the discarder")
        agree("robbed" if ctx.get("qiang_gang") else "discarder", rel(ev.discarder, "discarder"))
    if ev.kong_feeder is not None:
        agree("gang_shang_kai_hua", True)
        agree("gang_fed_by", rel(ev.kong_feeder, "kong feeder"))
    if n > 1 or "winners_on_discard" in ctx:
        if ctx.setdefault("winners_on_discard", n) != n:
            raise _bad(f"event {i}: winners_on_discard says {ctx['winners_on_discard']!r:.20}, "
                       f"the log has {n} winners on this discard")
    return score(hand_of(ev.hand), ev.win_tile, ev.self_drawn, ctx, o)
