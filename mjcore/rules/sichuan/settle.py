"""Sichuan settlement: the ledger of a whole hand from its event log
(docs/rulesets/sichuan.md §5): wins, 刮风下雨, 呼叫转移, and at a wall-empty end 查花猪,
查大叫 and 退税."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from mjcore.errors import MahjongError
from mjcore.hand import Hand
from mjcore.rules.common.inputs import hand_of as _hand
from mjcore.rules.common.inputs import tile_id as _tile
from mjcore.rules.common.results import Ledger, Payment
from mjcore.rules.common.ruleset import Described
from mjcore.rules.common.settlement import bad_event as _bad
from mjcore.rules.common.settlement import check_log, ledger
from mjcore.rules.sichuan.options import SichuanOptions
from mjcore.rules.sichuan.scoring import SUITS, score, valued_waits
from mjcore.table import HandStart, Kong, WallEmpty, Win

_SUIT_INDEX = {"m": 0, "p": 1, "s": 2}
_ALL_SEATS = (0, 1, 2, 3)


@dataclass(frozen=True, slots=True)
class DingQue:
    """Seat ``seat`` declared ``suit`` as its 缺门 (a Sichuan event)."""

    seat: int
    suit: str


LEDGER_REASONS: tuple[Described, ...] = (
    Described("win", "payment for a win (§4.3)"),
    Described("gang", "直杠 (刮风): the feeder pays zhigang_pay × base"),
    Described("bugang", "面下杠 (刮风): each other active seat pays 1 × base"),
    Described("angang", "暗杠 (下雨): each other active seat pays 2 × base"),
    Described("hujiao_zhuanyi", "呼叫转移: the kong money of the 杠上炮 kong handed to the winner"),
    Described("huazhu", "查花猪 at a wall-empty end"),
    Described("chadajiao", "查大叫 at a wall-empty end"),
    Described("tuishui", "退税: kong money returned by a seat not ready at a wall-empty end"),
)




def _times(o: SichuanOptions, value: int) -> int:
    """What one base is multiplied by for a hand worth ``value`` (2^fan, or the points)."""
    return value if o.scoring == "points" else 1 << value


def _event_context(ctx: object) -> dict[str, object]:
    if isinstance(ctx, Mapping):
        return dict(ctx)
    try:
        out: dict[str, object] = dict(ctx)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        raise MahjongError("bad_context", "a win's context must be key/value pairs") from None
    return out


def _holds_missing(hand: Hand, missing: str | None) -> bool:
    allc = hand.all_counts()
    present = [any(allc[s * 9: s * 9 + 9]) for s in range(3)]
    if all(present):
        return True
    return missing is not None and present[_SUIT_INDEX[missing]]


def _kong_feeder(ev: object, seat: int) -> int | None:
    """The seat that fed ``ev`` when it is ``seat``'s 直杠 on a discard, else ``None``."""
    if isinstance(ev, Kong) and ev.seat == seat and ev.kind == "gang" and not ev.robbed:
        return ev.fed_by
    return None


def _robbed(ev: object, seat: int, tile: int) -> bool:
    """``ev`` is ``seat``'s bugang of ``tile``, robbed."""
    return (isinstance(ev, Kong) and ev.robbed and ev.kind == "bugang" and ev.seat == seat
            and _tile(ev.tile) == tile)


def settle(events: Iterable[object], o: SichuanOptions, dealer: int | None = None,
           dealer_streak: int | None = None) -> Ledger:
    """The whole hand's ledger from its event log (see docs/rulesets/sichuan.md §Settlement)."""
    log = check_log(events)
    pays: list[Payment] = []
    active = set(_ALL_SEATS)
    missing: list[str | None] = [None] * 4
    winners: list[int] = []
    groups: list[tuple[int, int, list[int]]] = []  # (discarder or -1, first index, winners)
    kong_income: dict[int, list[Payment]] = {}  # kong event index -> payments it earned
    transferred: set[int] = set()
    last_kong: dict[int, int] = {}
    the_dealer = 0 if dealer is None else dealer
    if type(the_dealer) is not int or not 0 <= the_dealer < 4:
        raise _bad(f"dealer must be a seat 0-3, got {the_dealer}")
    ended = False
    group_key: tuple[int, int, int | None] | None = None
    group_active: frozenset[int] = frozenset()
    base = o.base

    def seat_ok(seat: object, what: str) -> int:
        if type(seat) is not int or not 0 <= seat < 4:
            raise _bad(f"{what} must be a seat 0-3, got {seat!r}")
        return seat

    for i, ev in enumerate(log):
        if ended:
            raise _bad(f"event {i} comes after the hand ended")
        in_group = False
        if isinstance(ev, HandStart):
            if i != 0:
                raise _bad("HandStart must be the first event")
            the_dealer = seat_ok(ev.dealer, "dealer")
        elif isinstance(ev, DingQue):
            seat = seat_ok(ev.seat, "ding_que seat")
            if ev.suit not in SUITS:
                raise _bad(f"ding_que suit must be m, p or s, got {ev.suit!r}")
            missing[seat] = ev.suit
        elif isinstance(ev, Kong):
            seat = seat_ok(ev.seat, "kong seat")
            if seat not in active:
                raise _bad(f"event {i}: seat {seat} has already won and cannot kong")
            if ev.kind not in ("gang", "bugang", "angang"):
                raise _bad(f"event {i}: unknown kong kind {ev.kind!r}")
            earned: list[Payment] = []
            if not ev.robbed and o.kong_money:
                if ev.kind == "gang":
                    feeder = seat_ok(ev.fed_by, "gang fed_by")
                    if feeder == seat or feeder not in active:
                        raise _bad(f"event {i}: the feeder must be another active seat")
                    earned.append(Payment(feeder, seat, o.zhigang_pay * base, "gang", i))
                else:
                    each = base * (2 if ev.kind == "angang" else 1)
                    earned.extend(Payment(s, seat, each, ev.kind, i)
                                  for s in sorted(active) if s != seat)
                pays.extend(earned)
                kong_income[i] = earned
                last_kong[seat] = i
        elif isinstance(ev, Win):
            seat = seat_ok(ev.seat, "winner")
            ctx = _event_context(ev.context)
            if "missing_suit" not in ctx and missing[seat] is not None:
                ctx["missing_suit"] = missing[seat]
            tile = _tile(ev.win_tile)
            if ev.self_drawn:
                if ev.discarder is not None:
                    raise _bad(f"event {i}: a self-drawn win has no discarder")
                group_key = None
                win_active = frozenset(active)
            else:
                discarder = seat_ok(ev.discarder, "discarder")
                key = (discarder, tile, ev.discard)
                prev = log[i - 1] if i else None
                if (group_key == key and isinstance(prev, Win) and not prev.self_drawn):
                    in_group = True
                else:
                    group_key = key
                    group_active = frozenset(active)
                win_active = group_active
                ctx["discarder"] = discarder
                start = groups[-1][1] if in_group else i  # 抢杠胡: the log shows the robbed
                if start and _robbed(log[start - 1], discarder, tile):  # bugang (§4.2)
                    ctx.setdefault("robbing_kong", True)
            if seat not in win_active or (in_group and seat in groups[-1][2]):
                raise _bad(f"event {i}: seat {seat} has already won")
            ctx["winner"] = seat
            ctx["active_seats"] = tuple(sorted(win_active))
            if ev.kong_feeder is not None:
                before = log[i - 1] if i else None  # the winner's kong just logged must be
                if (isinstance(before, Kong) and before.seat == seat     # the 直杠 it fed
                        and _kong_feeder(before, seat) != ev.kong_feeder):
                    raise _bad(f"event {i}: kong_feeder {ev.kong_feeder!r:.20} disagrees with "
                               f"the kong just logged (event {i - 1})")
                ctx["kong_feeder"] = ev.kong_feeder
            elif ev.self_drawn and ctx.get("after_kong") and i:  # 点杠花: the kong just made
                fed_by = _kong_feeder(log[i - 1], seat)           # names its feeder (§4.3)
                if fed_by is not None:
                    ctx["kong_feeder"] = fed_by
            result = score(_hand(ev.hand), tile, ev.self_drawn, ctx, o)
            pays.extend(Payment(f, t, amt, "win", i) for f, t, amt in result.payments)
            if o.hujiao_zhuanyi and ctx.get("after_kong_discard") and not ev.self_drawn:
                discarder = int(ctx["discarder"])  # type: ignore[call-overload]
                k = last_kong.get(discarder)
                if k is not None:
                    income = sum(p.amount for p in kong_income.get(k, ()))
                    if income:
                        pays.append(Payment(discarder, seat, income, "hujiao_zhuanyi", i))
                        transferred.add(k)
            winners.append(seat)
            if in_group:
                groups[-1][2].append(seat)
            else:
                groups.append((-1 if ev.self_drawn else int(ctx["discarder"]),  # type: ignore[call-overload]
                               i, [seat]))
            active.discard(seat)
            if (len(winners) >= 3 or not o.xuezhan) and not (
                i + 1 < len(log)
                and isinstance(log[i + 1], Win)
                and in_same_group(log[i + 1], group_key)  # type: ignore[arg-type]
            ):
                ended = True
        elif isinstance(ev, WallEmpty):
            if not isinstance(ev.hands, tuple | list) or len(ev.hands) != 4:
                raise _bad("WallEmpty lists four hands (None for seats that have won)")
            hands: dict[int, Hand] = {}
            for s in sorted(active):
                h = ev.hands[s]
                if h is None:
                    raise _bad(f"WallEmpty: seat {s} is still playing but has no hand")
                hand = _hand(h)
                if hand.concealed_count + 3 * len(hand.melds) != 13:
                    raise _bad(f"WallEmpty: seat {s} must hold 13 tiles (kongs count 3)")
                hands[s] = hand
            huazhu = {s for s, h in hands.items() if _holds_missing(h, missing[s])}
            if not o.chahuazhu:  # no 花猪 payment: such a hand is just not ready
                huazhu = set()
            ready: dict[int, int] = {}
            for s, h in hands.items():
                if s in huazhu:
                    continue
                ctx_w: dict[str, object] = {}
                if missing[s] is not None:
                    ctx_w["missing_suit"] = missing[s]
                waits = valued_waits(h, ctx_w or None, o)
                if waits:
                    pick = max if o.chajiao == "largest" else min
                    ready[s] = pick(w.fan_discard for w in waits)
            per_pig = o.huazhu_pay if o.cap_fan is None else min(o.huazhu_pay, _times(o, o.cap_fan))
            for pig in sorted(huazhu):
                for s in sorted(hands):
                    if s not in huazhu:
                        pays.append(Payment(pig, s, per_pig * base, "huazhu", i))
            for s in sorted(hands):
                if s in huazhu or s in ready:
                    continue
                for r, fan in sorted(ready.items()):
                    pays.append(Payment(s, r, base * _times(o, fan), "chadajiao", i))
            for s in sorted(hands):
                if s in ready:
                    continue
                for k, earned in sorted(kong_income.items()):
                    if k in transferred:
                        continue
                    for p in earned:
                        if p.to_seat == s:
                            pays.append(Payment(s, p.from_seat, p.amount, "tuishui", i))
            ended = True
        else:
            raise _bad(f"event {i}: unknown event {type(ev).__name__}")
        if not in_group and not isinstance(ev, Win):
            group_key = None
    if groups:
        discarder, _, first = groups[0]
        next_dealer = discarder if discarder >= 0 and len(first) > 1 else first[0]
    elif o.dealer_on_draw == "rotate":
        next_dealer = (the_dealer + 1) % 4
    else:
        next_dealer = the_dealer
    return ledger(pays, next_dealer, winners)


def in_same_group(ev: Win, key: tuple[int, int, int | None] | None) -> bool:
    """Is ``ev`` another win on the discard identified by ``key`` (discarder, tile, discard)?"""
    if key is None or ev.self_drawn or ev.discarder is None:
        return False
    try:
        return (ev.discarder, _tile(ev.win_tile), ev.discard) == key
    except MahjongError:
        return False
