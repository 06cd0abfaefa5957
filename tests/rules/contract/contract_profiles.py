"""What the contract suite needs to know of each rule set to drive it (tile kinds in play, a
valid base context, its own part of a TableView, how a hand starts and what a win is scored
on). A rule set without a profile fails the contract suite's first test: add one the day it
registers."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mjcore import Hand, Meld
from mjcore.table import TableView


@dataclass(frozen=True)
class Profile:
    tiles: tuple[int, ...]  # tile kinds in play
    context: dict[str, Any]  # a valid context for a plain win (discard or self-drawn)
    discard_context: dict[str, Any]  # added for a discard win
    # the rule set's TableView part for a seat of the simulator (None: the default)
    view_part: Callable[[Any, int], Any] = lambda sim, seat: None
    # before play: declarations such as Sichuan's 定缺, by legal moves (None: straight to play)
    setup: Callable[[Any], None] | None = None
    # what a hu by the acting seat of a view is scored on: (hand, tile, self_drawn, context)
    win_context: Callable[[TableView, Any], tuple[Hand, int, bool, dict[str, Any]]] | None = None
    ends_on_first_win: bool = True
    chi: bool = False
    reserve: int = 0  # tiles at the end of the wall that are never drawn
    flowers: tuple[int, ...] = ()  # flower ids in the wall, one each (laid aside, replaced)
    stuck_ends_hand: bool = False  # no legal move in a turn ends the hand drawn
    extra: dict[str, Any] = field(default_factory=dict)
    # options every contract test plays under (None: the defaults)
    options: dict[str, Any] | None = None
    # codes besides not_a_win by which the rule set refuses a hand that is no win under its
    # rules (Wuhan's must_open)
    refusals: tuple[str, ...] = ()
    # the rule set's own winning-hand generator (None: ``winning_hand`` over ``tiles``)
    hands: Callable[[random.Random], tuple[Hand, int]] | None = None
    # the win test score is checked against (None: the core's, with the rule set's shapes)
    is_win: Callable[[Hand], bool] | None = None
    # the simulator's wall (None: four of each of ``tiles``)
    wall: tuple[int, ...] | None = None


def _sichuan() -> Profile:
    from mjcore.rules.sichuan import SichuanView, win_context

    def view_part(sim: Any, seat: int) -> SichuanView:
        st = sim.seats[seat]
        return SichuanView(missing_suit=st.extra.get("missing"), has_won=st.won)

    def setup(sim: Any) -> None:
        for s in range(4):
            counts = sim.seats[s].counts
            suit = min("mps", key=lambda x: sum(counts["mps".index(x) * 9:][:9]))
            sim.seats[s].extra["missing"] = suit

    def win(view: TableView, sim: Any) -> tuple[Hand, int, bool, dict[str, Any]]:
        hand, tile, self_drawn, ctx = win_context(view)
        return hand, tile, self_drawn, ctx

    return Profile(tiles=tuple(range(27)), context={}, discard_context={"discarder": 1},
                   view_part=view_part, setup=setup, win_context=win,
                   ends_on_first_win=False)


def _taiwan() -> Profile:
    from mjcore.rules.taiwan import TaiwanView, win_context

    def view_part(sim: Any, seat: int) -> TaiwanView:
        extra = sim.seats[seat].extra
        return TaiwanView(seat_wind=f"{(seat - sim.dealer) % 4 + 1}z", round_wind="1z",
                          flowers=tuple(extra.get("flowers", ())),
                          new_flowers=tuple(extra.get("new_flowers", ())),
                          replacement_after=extra.get("replacement"))

    def setup(sim: Any) -> None:
        """Flowers dealt to the non-dealers are laid aside and replaced before play (the
        dealer lays his aside by moves in his first turn)."""
        for s in range(4):
            seat = sim.seats[s]
            while s != sim.dealer and seat.extra.get("new_flowers"):
                seat.extra.setdefault("flowers", []).append(seat.extra["new_flowers"].pop())
                sim.draw(s)
            if s != sim.dealer:
                seat.draws = 0

    def win(view: TableView, sim: Any) -> tuple[Hand, int, bool, dict[str, Any]]:
        return win_context(view)

    def discard_context(view: TableView, discarder: int) -> dict[str, Any]:
        return {"discarder": ("self", "right", "across", "left")[(discarder - view.seat) % 4]}

    return Profile(tiles=tuple(range(34)), context={"seat_wind": "2z", "round_wind": "1z",
                                                     "dealer": "left"},
                   discard_context={"discarder": "across"}, view_part=view_part, setup=setup,
                   win_context=win, chi=True, reserve=16, flowers=tuple(range(34, 42)),
                   stuck_ends_hand=True,
                   extra={"discard_context": discard_context, "multi_hu": False})


def _guangdong() -> Profile:
    from mjcore.rules.guangdong import GuangdongView, win_context
    from mjcore.rules.guangdong.scoring import RELATIVE

    def view_part(sim: Any, seat: int) -> GuangdongView:
        return GuangdongView(round_wind="1z", meld_from=tuple(sim.seats[seat].meld_from))

    def win(view: TableView, sim: Any) -> tuple[Hand, int, bool, dict[str, Any]]:
        return win_context(view)

    def discard_context(view: TableView, discarder: int) -> dict[str, Any]:
        # the simulator drops the context's seats; the discarder is seen from the winner
        return {"discarder": RELATIVE[3 - (discarder - view.seat) % 4]}

    return Profile(tiles=tuple(range(34)), context={"seat_wind": "2z", "round_wind": "1z"},
                   discard_context={"discarder": "across"}, view_part=view_part,
                   win_context=win, chi=True, extra={"discard_context": discard_context})


def _hangzhou() -> Profile:
    from mjcore.rules.hangzhou import HangzhouView, win_context

    # The 白板 are the wilds (flip mode, 财神 5z); a discarded wild may be won on and melds may
    # hold wilds: the contract's random hands meld and win on any tile, and a refusal of a
    # wild discard or meld (the defaults) would otherwise answer before the win test.
    options = {"wild_discard_claimable": True, "wild_in_melds": True}

    def view_part(sim: Any, seat: int) -> HangzhouView:
        # 连庄 twice: discard wins between the dealer and the others are legal
        claims = sim.seats[seat].extra.get("claims", (0, 0, 0, 0))
        return HangzhouView(caishen="5z", dealer_streak=2, claims_from=claims)

    def win(view: TableView, sim: Any) -> tuple[Hand, int, bool, dict[str, Any]]:
        return win_context(view)

    def discard_ctx(view: TableView, discarder: int | None) -> dict[str, Any]:
        assert discarder is not None
        return {"discarder": ("right", "across", "left")[(discarder - view.seat - 1) % 4]}

    return Profile(tiles=tuple(range(34)), context={"caishen": "5z"},
                   discard_context={"discarder": "left", "dealer": "self", "dealer_streak": 2},
                   view_part=view_part, win_context=win, chi=True,
                   extra={"multi_hu": False, "discard_context": discard_ctx}, options=options)


def _wuhan() -> Profile:
    from mjcore import is_win
    from mjcore.rules.wuhan import WuhanView, win_context

    laizi, pizi = 31, 33  # 白 is the 赖子 (turned up: 发), 红中 the 痞子
    plain = tuple(t for t in range(34) if t not in (laizi, pizi))

    def view_part(sim: Any, seat: int) -> WuhanView:
        st = sim.seats[seat]
        return WuhanView(laizi=laizi,
                         meld_from=tuple(f for m, f in zip(st.melds, st.meld_from) if m.is_set),
                         seat_melds=tuple(" ".join(m.to_text() for m in x.melds)
                                          for x in sim.seats))

    def win(view: TableView, sim: Any) -> tuple[Hand, int, bool, dict[str, Any]]:
        return win_context(view)

    def hands(rng: random.Random) -> tuple[Hand, int]:
        """Opened winning hands of the plain tiles, mostly on a 2/5/8 pair, some with a
        concealed tile swapped for a 赖子 (standing for it)."""
        from mjcore import decompose

        while True:
            hand, tile = winning_hand(rng, plain, True)
            if any(m.kind in ("chi", "peng", "gang", "bugang") for m in hand.melds) and (
                    rng.random() < 0.25 or any(d.pair < 27 and d.pair % 3 == 1
                                               for d in decompose(hand))):
                break
        counts = list(hand.counts)
        for _ in range(rng.choice((0, 0, 1, 1, 2))):
            t = rng.choice([x for x in range(34) if counts[x]])
            counts[t] -= 1
            counts[laizi] += 1
        if not counts[tile]:
            tile = laizi
        return Hand(counts, hand.melds), tile

    def wins(hand: Hand) -> bool:
        counts = list(hand.counts)
        jokers, counts[laizi] = counts[laizi], 0
        return bool(is_win(Hand(counts, hand.melds), jokers=jokers))

    # the 10 tiles of the 海底 are never drawn; 痞子 and 赖子 are laid aside as one-tile kongs
    return Profile(tiles=plain + (laizi,), context={"laizi": "5z"},
                   discard_context={"discarder": "left"}, view_part=view_part, win_context=win,
                   chi=True, reserve=10, refusals=("must_open",), hands=hands, is_win=wins,
                   wall=tuple(range(34)),
                   extra={"multi_hu": False, "one_tile_kongs": ("pizigang", "laizigang"),
                          "discard_context": lambda view, discarder: (
                              {"discarder": win_context(view)[3]["discarder"]}
                              if view.phase == "claim" else {})})


PROFILES: dict[str, Callable[[], Profile]] = {
    "sichuan": _sichuan, "guangdong": _guangdong, "hangzhou": _hangzhou, "taiwan": _taiwan,
    "wuhan": _wuhan,
}


def winning_hand(rng: random.Random, tiles: tuple[int, ...], chi: bool,
                 max_suits: int = 3, hand_tiles: int = 14) -> tuple[Hand, int]:
    """A random standard winning hand of ``hand_tiles`` tiles (kongs count 3) over ``tiles``
    (sets, a pair, some melds) and its winning tile (a concealed one)."""
    suits = [s for s in range(3) if s * 9 in tiles]
    honours = [t for t in tiles if t >= 27]
    while True:
        use = rng.sample(suits, min(len(suits), rng.randint(1, max_suits))) if suits else []
        kinds = [t for t in tiles if t >= 27 or t // 9 in use]
        counts = [0] * 34
        melds: list[Meld] = []
        for _ in range((hand_tiles - 2) // 3):
            x = rng.random()
            if use and x < 0.5:
                s = rng.choice(use)
                r = rng.randrange(7)
                run = (s * 9 + r, s * 9 + r + 1, s * 9 + r + 2)
                if chi and rng.random() < 0.2:
                    melds.append(Meld("chi", run))
                else:
                    for t in run:
                        counts[t] += 1
            else:
                t = rng.choice(kinds if rng.random() < 0.8 or not honours else honours)
                y = rng.random()
                if y < 0.25:
                    kind = rng.choice(("peng", "gang", "angang", "bugang"))
                    melds.append(Meld(kind, (t,) * (3 if kind == "peng" else 4)))
                else:
                    counts[t] += 3
        counts[rng.choice(kinds)] += 2
        held = counts[:]
        for m in melds:
            for t in m.tiles:
                held[t] += 1
        if max(held) > 4:
            continue
        concealed = [t for t in range(34) if counts[t]]
        return Hand(tuple(counts), tuple(melds)), rng.choice(concealed)
