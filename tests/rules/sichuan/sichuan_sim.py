"""A small Sichuan table simulator for the self-play tests (and the benchmark).

It owns the wall, the seats and the turn order, builds each acting seat's ``TableView``,
asks ``legal_moves`` and plays a uniformly random one, logging the events ``settle`` takes.
It checks, at every step, that all 108 tiles are accounted for, that every offered move is
accepted by ``validate_move`` and that random other moves are refused unless offered.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from sichuan_api import TableView, legal_moves, resolve_options, score, settle, validate_move

from mjcore import Hand, Meld
from mjcore.rules import Ledger
from mjcore.rules.sichuan import DingQue, win_context
from mjcore.rules.sichuan.moves import MOVE_KINDS
from mjcore.rules.sichuan.scoring import SUITS
from mjcore.table import HandStart, Kong, Move, WallEmpty, Win


class SimError(AssertionError):
    pass


@dataclass
class Seat:
    counts: list[int] = field(default_factory=lambda: [0] * 34)
    melds: list[Meld] = field(default_factory=list)
    missing: str | None = None
    won: bool = False
    draws: int = 0
    konged: bool = False
    guoshui: int | None = None

    def hand(self) -> Hand:
        return Hand(tuple(self.counts), tuple(self.melds))


def offered(view: TableView, move: Move, legal: set[Move]) -> bool:
    """Is ``move`` among ``legal`` (a ``hu`` naming its tile counts as the bare ``hu``)?"""
    if move.kind == "hu" and len(move.tiles) == 1:
        if Move("hu") not in legal:
            return False
        if view.phase == "turn":
            return view.hand.counts[move.tiles[0]] > 0
        return move.tiles[0] == view.pending_tile
    if move.kind == "exchange":
        move = Move("exchange", tuple(sorted(move.tiles)))
    return move in legal


class Simulator:
    """One hand of Sichuan, played by uniformly random legal moves."""

    def __init__(self, seed: int, options: Mapping[str, object] | None = None,
                 probes: int = 2, greedy: bool = False) -> None:
        self.rng = random.Random(seed)
        self.greedy = greedy
        self.options = dict(options or {})
        self.o = resolve_options("sichuan", self.options or None)
        self.probes = probes
        wall = [t for t in range(27) for _ in range(4)]
        self.rng.shuffle(wall)
        self.wall = wall
        self.dealer = self.rng.randrange(4)
        self.seats = [Seat() for _ in range(4)]
        self.river: list[int] = []
        self.events: list[object] = [HandStart(self.dealer)]
        self.any_meld = False
        self.winners: list[int] = []
        self.steps = 0
        self.checks = 0

    # ----------------------------------------------------------------- helpers
    def active(self) -> tuple[int, ...]:
        return tuple(s for s in range(4) if not self.seats[s].won)

    def account(self) -> None:
        total = [0] * 34
        for t in self.wall:
            total[t] += 1
        for t in self.river:
            total[t] += 1
        for seat in self.seats:
            for t in range(34):
                total[t] += seat.counts[t]
            for m in seat.melds:
                for t in m.tiles:
                    total[t] += 1
        if sum(total) != 108 or any(total[t] != 4 for t in range(27)):
            raise SimError(f"tiles not accounted for: {sum(total)} {total}")

    def view(self, s: int, phase: str, **kw: object) -> TableView:
        seat = self.seats[s]
        return TableView(
            seat=s,
            hand=seat.hand(),
            phase=phase,
            dealer=self.dealer,
            missing_suit=seat.missing,
            has_won=seat.won,
            wall_count=len(self.wall),
            guoshui_fan=seat.guoshui,
            any_meld=self.any_meld,
            active_seats=self.active(),
            **kw,  # type: ignore[arg-type]
        )

    def random_move(self) -> Move:
        rng = self.rng
        kind = rng.choice(MOVE_KINDS)
        n = {"exchange": 3, "chi": 3, "hu": rng.choice((0, 1)), "pass": rng.choice((0, 0, 1)),
             "ding_que": 0}.get(kind, 1)
        tiles = tuple(sorted(rng.randrange(27) for _ in range(n)))
        suit = rng.choice((*SUITS, "z")) if kind == "ding_que" else None
        return Move(kind, tiles, suit)

    def choose(self, view: TableView) -> Move:
        """Check the view's legal moves against validate_move, probe random moves, pick one."""
        moves = legal_moves(view, self.options or None)
        legal = set(moves)
        for m in moves:
            check = validate_move(view, m, self.options or None)
            if not check.ok:
                raise SimError(f"offered {m} refused: {check.code} {check.message} in {view}")
        for _ in range(self.probes):
            m = self.random_move()
            check = validate_move(view, m, self.options or None)
            if check.ok != offered(view, m, legal):
                raise SimError(f"{m}: validate {check} but offered={not check.ok} in {view}")
            if not check.ok and not check.code:
                raise SimError(f"{m} refused without a code")
        self.checks += len(moves) + self.probes
        if not moves:
            raise SimError(f"no legal move in {view}")
        if self.greedy:
            # a livelier table: always win, void the shortest suit, keep pairs
            for m in moves:
                if m.kind in ("hu", "gang", "angang", "bugang"):
                    return m
            if moves[0].kind == "ding_que":
                counts = view.hand.counts
                return min(moves, key=lambda m: sum(counts[SUITS.index(m.suit or "m") * 9:][:9]))
            discards = [m for m in moves if m.kind == "discard"]
            counts = view.hand.counts
            lone = [m for m in discards if counts[m.tiles[0]] == 1]
            if lone:
                return self.rng.choice(lone)
        return self.rng.choice(moves)

    def idle_probe(self, s: int) -> None:
        """A seat that is not acting must have no legal move and refuse any move."""
        seat = self.seats[s]
        view = self.view(s, "wait")
        if legal_moves(view, self.options or None):
            raise SimError("a waiting seat was offered moves")
        m = self.random_move()
        check = validate_move(view, m, self.options or None)
        if check.ok:
            raise SimError(f"waiting seat {s} may play {m}")
        if seat.won and m.kind != "chi" and m.kind in MOVE_KINDS and check.code != "already_won":
            if check.code != "bad_move":
                raise SimError(f"won seat refused with {check.code}")

    # ----------------------------------------------------------------- play
    def draw(self, s: int) -> int:
        t = self.wall.pop()
        self.seats[s].counts[t] += 1
        self.seats[s].draws += 1
        self.seats[s].guoshui = None
        return t

    def record_win(self, view: TableView, discarder: int | None) -> None:
        hand, tile, self_drawn, ctx = win_context(view)
        ctx.pop("winner", None)
        ctx.pop("active_seats", None)
        ctx.pop("discarder", None)
        feeder = ctx.pop("kong_feeder", None)
        self.events.append(Win(view.seat, hand, tile, self_drawn, discarder, tuple(ctx.items()),
                               feeder))  # type: ignore[arg-type]
        self.seats[view.seat].won = True
        self.winners.append(view.seat)

    def next_active(self, s: int) -> int | None:
        for k in range(1, 5):
            n = (s + k) % 4
            if not self.seats[n].won:
                return n
        return None

    def play(self) -> Ledger:
        rng = self.rng
        for k in range(4):
            s = (self.dealer + k) % 4
            for _ in range(14 if s == self.dealer else 13):
                self.seats[s].counts[self.wall.pop()] += 1
        self.account()
        if self.o.exchange_three:
            passed: list[tuple[int, ...]] = []
            for s in range(4):
                m = self.choose(self.view(s, "exchange"))
                for t in m.tiles:
                    self.seats[s].counts[t] -= 1
                passed.append(m.tiles)
            direction = self.o.exchange_direction
            shift = {"clockwise": 1, "counterclockwise": 3, "opposite": 2}.get(
                direction, rng.choice((1, 2, 3)))
            for s in range(4):
                for t in passed[s]:
                    self.seats[(s + shift) % 4].counts[t] += 1
            self.account()
        for s in range(4):
            m = self.choose(self.view(s, "ding_que"))
            self.seats[s].missing = m.suit
            self.events.append(DingQue(s, m.suit or "m"))
        # the dealer's first turn: its 14th tile counts as the draw
        self.seats[self.dealer].draws = 1
        turn = self.dealer
        drawn: int | None = None
        drew = True
        after_kong = False
        feeder: int | None = None
        while True:
            self.steps += 1
            self.account()
            seat = self.seats[turn]
            view = self.view(turn, "turn", drawn_tile=drawn, drew=drew, after_kong=after_kong,
                             kong_feeder=feeder,
                             first_draw=seat.draws == 1 and not seat.konged and drew)
            for s in range(4):
                if s != turn and rng.random() < 0.05:
                    self.idle_probe(s)
            move = self.choose(view)
            nxt: int | None
            if move.kind == "hu":
                self.record_win(view, None)
                if len(self.winners) >= 3 or not self.wall:
                    break
                nxt = self.next_active(turn)
            elif move.kind in ("angang", "bugang"):
                t = move.tiles[0]
                self.any_meld = True
                if move.kind == "bugang":
                    robbers = self.claims(turn, t, "rob", False)
                    if robbers:
                        seat.counts[t] -= 1
                        self.river.append(t)
                        self.events.append(Kong(turn, "bugang", t, robbed=True))
                        for _, v in robbers:
                            self.record_win(v, turn)
                        if len(self.winners) >= 3:
                            break
                        nxt = self.next_active(robbers[-1][1].seat)
                        assert nxt is not None
                        turn, drawn, drew, after_kong, feeder = nxt, None, True, False, None
                        if not self.wall:
                            break
                        drawn = self.draw(turn)
                        continue
                    seat.counts[t] -= 1
                    i = next(i for i, m in enumerate(seat.melds) if m.kind == "peng"
                             and m.tiles[0] == t)
                    seat.melds[i] = Meld("bugang", (t, t, t, t))
                else:
                    seat.counts[t] -= 4
                    seat.melds.append(Meld("angang", (t, t, t, t)))
                seat.konged = True
                self.events.append(Kong(turn, move.kind, t))
                drawn, drew, after_kong, feeder = self.draw(turn), True, True, None
                continue
            else:  # discard
                t = move.tiles[0]
                seat.counts[t] -= 1
                self.river.append(t)
                claims = self.claims(turn, t, "claim", after_kong)
                winners = [v for k, v in claims if k == "hu"]
                if winners:
                    for v in winners:
                        self.record_win(v, turn)
                    if len(self.winners) >= 3 or not self.wall:
                        break
                    nxt = self.next_active(winners[-1].seat)
                elif claims:
                    kind, v = claims[0]
                    c = self.seats[v.seat]
                    self.river.pop()
                    self.any_meld = True
                    if kind == "gang":
                        c.counts[t] -= 3
                        c.melds.append(Meld("gang", (t, t, t, t)))
                        c.konged = True
                        self.events.append(Kong(v.seat, "gang", t, fed_by=turn))
                        turn = v.seat
                        drawn, drew, after_kong, feeder = self.draw(turn), True, True, v.pending_from
                    else:
                        c.counts[t] -= 2
                        c.melds.append(Meld("peng", (t, t, t)))
                        turn = v.seat
                        drawn, drew, after_kong, feeder = None, False, False, None
                    continue
                else:
                    if not self.wall:
                        break
                    nxt = self.next_active(turn)
            assert nxt is not None
            if not self.wall:
                break
            turn, drew, after_kong, feeder = nxt, True, False, None
            drawn = self.draw(turn)
        self.account()
        if len(self.winners) < 3:
            hands = tuple(None if s.won else s.hand() for s in self.seats)
            self.events.append(WallEmpty(hands))
        ledger = settle(self.events, self.options or None, dealer=self.dealer)
        if sum(ledger.totals) != 0:
            raise SimError("ledger is not zero-sum")
        return ledger

    def claims(self, frm: int, t: int, phase: str,
               after_kong: bool) -> list[tuple[str, TableView]]:
        """Ask each other active seat, in turn order, what it does with tile ``t``.

        Returns ``(kind, view)`` of the claimants (``hu``, ``gang`` or ``peng``); when any
        seat wins, only the winners (一炮多响: all of them)."""
        out: list[tuple[str, TableView]] = []
        for k in range(1, 4):
            s = (frm + k) % 4
            seat = self.seats[s]
            if seat.won:
                continue
            view = self.view(s, phase, pending_tile=t, pending_from=frm,
                             pending_kind="bugang" if phase == "rob" else "discard",
                             pending_after_kong=after_kong)
            move = self.choose(view)
            if move.kind == "pass" or move.kind in ("peng", "gang"):
                # declining an available win: 过水 until the next draw
                if validate_move(view, Move("hu"), self.options or None).ok:
                    hand, tile, sd, ctx = win_context(view)
                    fan = score(hand, win_tile=tile, self_drawn=sd, context=ctx,
                                options=self.options or None).fan
                    seat.guoshui = fan if seat.guoshui is None else max(seat.guoshui, fan)
            if move.kind != "pass":
                out.append((move.kind, view))
        hu = [(k, v) for k, v in out if k == "hu"]
        return hu or out


def winning_hand(rng: random.Random) -> tuple[list[int], list[Meld], int]:
    """A random one- or two-suit Sichuan winning hand: counts, melds, winning tile
    (the same generator as bench/bench_sichuan.py)."""
    while True:
        suits = rng.sample((0, 1, 2), rng.choice((1, 2, 2, 2)))
        counts = [0] * 34
        melds: list[Meld] = []
        if rng.random() < 0.08:  # 七对
            for _ in range(7):
                counts[rng.choice(suits) * 9 + rng.randrange(9)] += 2
        else:
            for _ in range(4):
                s = rng.choice(suits)
                x = rng.random()
                if x < 0.55:
                    r = rng.randrange(7)
                    for k in range(3):
                        counts[s * 9 + r + k] += 1
                elif x < 0.8 or melds and len(melds) >= 2:
                    counts[s * 9 + rng.randrange(9)] += 3
                else:
                    t = s * 9 + rng.randrange(9)
                    kind = rng.choice(("peng", "peng", "gang", "angang", "bugang"))
                    melds.append(Meld(kind, (t,) * (3 if kind == "peng" else 4)))
            counts[rng.choice(suits) * 9 + rng.randrange(9)] += 2
        held = counts[:]
        for m in melds:
            held[m.tiles[0]] += len(m.tiles)
        if max(held) <= 4:
            win = rng.choice([t for t in range(34) if counts[t]])
            return counts, melds, win
