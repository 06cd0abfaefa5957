"""A table simulator that plays any registered rule set by its own legal moves.

It owns the wall, the seats and the turn order, builds each acting seat's ``TableView`` (the
common part plus the rule set's part, from the contract profile), asks ``legal_moves`` and
plays a random one (a win when offered, mostly), settling claims with the common claim
priority, and logs the events ``settle`` takes. At every step it checks that every offered
move validates, that random moves are refused unless offered, and that every tile is
accounted for.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from contract_profiles import Profile

from mjcore import Hand, Meld, rules, shanten
from mjcore.rules import Ledger
from mjcore.rules.common.claims import resolve_claims
from mjcore.table import HandStart, Kong, Move, TableView, WallEmpty, Win


class SimError(AssertionError):
    pass


@dataclass
class Seat:
    counts: list[int] = field(default_factory=lambda: [0] * 34)
    melds: list[Meld] = field(default_factory=list)
    meld_from: list[int | None] = field(default_factory=list)
    won: bool = False
    draws: int = 0
    konged: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def hand(self) -> Hand:
        return Hand(tuple(self.counts), tuple(self.melds))

    def take(self, tile: int, n: int = 1) -> None:
        if self.counts[tile] < n:
            raise SimError(f"seat does not hold {n} of tile {tile}")
        self.counts[tile] -= n


class Simulator:
    """One hand of ``ruleset`` played by random legal moves."""

    def __init__(self, ruleset: str, profile: Profile, seed: int,
                 options: dict[str, object] | None = None, probes: int = 2) -> None:
        self.ruleset = ruleset
        self.profile = profile
        self.options = options or None
        self.rng = random.Random(seed)
        self.probes = probes
        self.wall = [t for t in (profile.wall or profile.tiles) for _ in range(4)]
        self.wall += list(profile.flowers)
        # one-tile kongs laid aside with a replacement draw (Wuhan's 痞子杠, 赖子杠)
        self.lay_aside = tuple(profile.extra.get("one_tile_kongs", ()))
        self.hand_tiles = rules.get_ruleset(ruleset).hand_tiles  # the dealer's deal: 14 or 17
        self.rng.shuffle(self.wall)
        self.total = len(self.wall)
        self.dealer = self.rng.randrange(4)
        self.seats = [Seat() for _ in range(4)]
        self.river: list[int] = []
        self.events: list[object] = [HandStart(self.dealer)]
        self.any_meld = False
        self.winners: list[int] = []
        self.discards = 0
        self.checks = 0

    # ----------------------------------------------------------------- helpers
    def active(self) -> tuple[int, ...]:
        return tuple(s for s in range(4) if not self.seats[s].won)

    def account(self) -> None:
        held = len(self.wall) + len(self.river)
        for seat in self.seats:
            held += sum(seat.counts) + sum(len(m.tiles) for m in seat.melds)
            held += len(seat.extra.get("flowers", ())) + len(seat.extra.get("new_flowers", ()))
        if held != self.total:
            raise SimError(f"tiles not accounted for: {held} of {self.total}")

    def view(self, s: int, phase: str, **kw: Any) -> TableView:
        seat = self.seats[s]
        return TableView(seat=s, hand=seat.hand(), phase=phase, dealer=self.dealer,
                         wall_count=self.drawable(), any_meld=self.any_meld,
                         active_seats=self.active(), rules=self.profile.view_part(self, s), **kw)

    def random_move(self) -> Move:
        rng = self.rng
        kind = rng.choice(("discard", "peng", "gang", "angang", "bugang", "hu", "pass", "chi"))
        n = {"chi": 3, "hu": rng.choice((0, 1)), "pass": 0}.get(kind, 1)
        t = rng.choice(self.profile.tiles)
        tiles = (t, t + 1, t + 2) if kind == "chi" and t < 25 else (t,) * n
        return Move(kind, tiles[:n])

    def choose(self, view: TableView) -> Move | None:
        moves = rules.legal_moves(view, self.options, ruleset=self.ruleset)
        legal = set(moves)
        for m in moves:
            check = rules.validate_move(view, m, self.options, ruleset=self.ruleset)
            if not check.ok:
                raise SimError(f"offered {m} refused: {check.code} {check.message} in {view}")
        for _ in range(self.probes):
            m = self.random_move()
            check = rules.validate_move(view, m, self.options, ruleset=self.ruleset)
            bare = Move("hu") if m.kind == "hu" else m
            if check.ok and bare not in legal:
                raise SimError(f"{m} validates but is not offered in {view}")
            if not check.ok and not check.code:
                raise SimError(f"{m} refused without a code")
        self.checks += len(moves) + self.probes
        if not moves:
            if self.profile.stuck_ends_hand:  # e.g. a flower that cannot be replaced
                return None
            raise SimError(f"no legal move in {view}")
        if Move("hu") in legal and self.rng.random() < 0.9:
            return Move("hu")
        discards = [m for m in moves if m.kind == "discard"]
        if discards and self.rng.random() < 0.8:  # a livelier table: play towards a win
            counts = list(view.hand.counts)

            def after(m: Move) -> int:
                counts[m.tiles[0]] -= 1
                n = shanten(Hand(counts, view.hand.melds))
                counts[m.tiles[0]] += 1
                return n

            best = min(after(m) for m in discards)
            return self.rng.choice([m for m in discards if after(m) == best])
        return self.rng.choice(moves)

    def drawable(self) -> int:
        """Tiles that may still be drawn (a reserve at the end of the wall is never drawn)."""
        return len(self.wall) - self.profile.reserve

    def draw(self, s: int) -> int | None:
        """Draw a tile for seat ``s``: the tile, or ``None`` for a flower (kept apart in the
        seat's ``new_flowers`` until a ``flower`` move lays it aside)."""
        t = self.wall.pop()
        self.seats[s].draws += 1
        if t >= 34:
            self.seats[s].extra.setdefault("new_flowers", []).append(t)
            return None
        self.seats[s].counts[t] += 1
        return t

    def next_active(self, s: int) -> int:
        for k in range(1, 5):
            n = (s + k) % 4
            if not self.seats[n].won:
                return n
        raise SimError("no active seat")

    def record_win(self, view: TableView, discarder: int | None) -> None:
        fn = self.profile.win_context
        assert fn is not None
        hand, tile, self_drawn, ctx = fn(view, self)
        for key in ("winner", "active_seats", "discarder"):
            ctx.pop(key, None)
        feeder = ctx.pop("kong_feeder", None)
        rules.score(hand, win_tile=tile, self_drawn=self_drawn,
                    context={**ctx, **({} if self_drawn else self._discard_ctx(view, discarder))},
                    options=self.options, ruleset=self.ruleset)  # scores, or raises here
        self.events.append(Win(view.seat, hand, tile, self_drawn, discarder, tuple(ctx.items()),
                               feeder, None if self_drawn else self.discards))
        self.seats[view.seat].won = True
        self.winners.append(view.seat)

    def _discard_ctx(self, view: TableView, discarder: int | None) -> dict[str, Any]:
        fn = self.profile.extra.get("discard_context")
        return fn(view, discarder) if fn else {}

    def over(self) -> bool:
        return bool(self.winners) and (self.profile.ends_on_first_win or len(self.winners) >= 3)

    # ----------------------------------------------------------------- play
    def claims(self, s: int, tile: int, kind: str, after_kong: bool) -> tuple[tuple[int, Move], ...]:
        phase = "claim" if kind == "discard" else "rob"
        asked: dict[int, tuple[Move, TableView]] = {}
        for o in self.active():
            if o == s:
                continue
            v = self.view(o, phase, pending_tile=tile, pending_from=s, pending_kind=kind,
                          pending_after_kong=after_kong)
            asked[o] = (self.choose(v), v)
        multi = self.profile.extra.get("multi_hu", True)
        chosen = resolve_claims(s, {o: m for o, (m, _) in asked.items()}, multi_hu=multi)
        for o, m in chosen:
            if m.kind == "hu":
                self.record_win(asked[o][1], s)
        return chosen

    def play(self) -> Ledger:
        for k in range(4):
            s = (self.dealer + k) % 4
            for _ in range(self.hand_tiles if s == self.dealer else self.hand_tiles - 1):
                self.draw(s)
            self.seats[s].draws = 0
        self.seats[self.dealer].draws = 1
        if self.profile.setup is not None:
            self.profile.setup(self)
        s, drawn, drew, after_kong, feeder = self.dealer, None, True, False, None
        need_draw = False
        for _ in range(2000):
            self.account()
            if need_draw:
                if self.drawable() <= 0:
                    break
                drawn, drew, after_kong, feeder = self.draw(s), True, False, None
                self.seats[s].extra.pop("replacement", None)
            need_draw = True
            seat = self.seats[s]
            v = self.view(s, "turn", drawn_tile=drawn, drew=drew, after_kong=after_kong,
                          kong_feeder=feeder, first_draw=seat.draws == 1 and not seat.konged)
            m = self.choose(v)
            if m is None:  # no legal move: the hand is drawn
                break
            if m.kind == "hu":
                self.record_win(v, None)
                if self.over():
                    break
                s = self.next_active(s)
                continue
            if m.kind == "pass":  # a turn that may not discard (Wuhan's 海底): laid aside
                if drawn is None:
                    raise SimError("pass on a turn without a drawn tile")
                seat.take(drawn)
                self.river.append(drawn)
                s = self.next_active(s)
                continue
            t = m.tiles[0]
            if m.kind in self.lay_aside:
                seat.take(t)
                seat.melds.append(Meld(m.kind, (t,)))
                seat.meld_from.append(None)
                self.events.append(Kong(s, m.kind, t))
                seat.konged = True
                if self.drawable() <= 0:
                    raise SimError("a kong was offered with no replacement tile")
                drawn, drew, after_kong, feeder = self.draw(s), True, True, None
                need_draw = False
                continue
            if m.kind == "flower":  # laid aside and replaced; the turn goes on
                seat.extra["new_flowers"].remove(t)
                seat.extra.setdefault("flowers", []).append(t)
                if self.drawable() <= 0:
                    raise SimError("a flower replacement was offered with no tile left")
                drawn = self.draw(s)
                seat.draws -= 1  # a replacement is not a draw of its own
                seat.extra["replacement"] = "flower"
                drew, after_kong, feeder, need_draw = True, False, None, False
                continue
            if m.kind in ("angang", "bugang"):
                if m.kind == "bugang":
                    seat.take(t)
                    chosen = self.claims(s, t, "bugang", False)
                    if chosen:  # robbed: the kong does not happen
                        self.events.insert(len(self.events) - len(chosen),
                                           Kong(s, "bugang", t, robbed=True))
                        self.river.append(t)
                        if self.over():
                            break
                        s = self.next_active(s)
                        continue
                    i = next(i for i, x in enumerate(seat.melds) if x.kind == "peng" and x.tile == t)
                    seat.melds[i] = Meld("bugang", (t,) * 4)
                else:
                    seat.take(t, 4)
                    seat.melds.append(Meld("angang", (t,) * 4))
                    seat.meld_from.append(None)
                self.events.append(Kong(s, m.kind, t))
                seat.konged = True
                self.any_meld = True
                if self.drawable() <= 0:
                    raise SimError("a kong was offered with no replacement tile")
                drawn, drew, after_kong, feeder = self.draw(s), True, True, None
                need_draw = False
                continue
            # a discard
            seat.take(t)
            self.discards += 1
            chosen = self.claims(s, t, "discard", after_kong)
            if chosen and chosen[0][1].kind == "hu":
                self.river.append(t)
                if self.over():
                    break
                s = self.next_active(chosen[-1][0])
                continue
            if not chosen:
                self.river.append(t)
                s = self.next_active(s)
                continue
            o, claim = chosen[0]
            taker = self.seats[o]
            self.any_meld = True
            if claim.kind == "chi":
                run = tuple(sorted(set(claim.tiles) | {t}))
                if len(run) != 3:
                    raise SimError(f"chi {claim} on {t} is not a sequence")
                for x in run:
                    if x != t:
                        taker.take(x)
                taker.melds.append(Meld("chi", run))
            else:
                taker.take(t, 2 if claim.kind == "peng" else 3)
                taker.melds.append(Meld(claim.kind, (t,) * (3 if claim.kind == "peng" else 4)))
            taker.meld_from.append(s)
            discarder, s = s, o
            if claim.kind == "gang":
                self.events.append(Kong(o, "gang", t, fed_by=discarder))
                taker.konged = True
                if self.drawable() <= 0:
                    raise SimError("a gang was offered with no replacement tile")
                drawn, drew, after_kong, feeder = self.draw(o), True, True, discarder
            else:
                drawn, drew, after_kong, feeder = None, False, False, None
            need_draw = False
        else:
            raise SimError("the hand did not end")
        if not self.over():
            hands = tuple(None if seat.won else seat.hand() for seat in self.seats)
            self.events.append(WallEmpty(hands))
        return rules.settle(self.events, self.options, ruleset=self.ruleset)
