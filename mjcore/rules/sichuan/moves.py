"""Sichuan moves: validation and the legal moves of the acting seat (docs/rulesets/sichuan.md
§2), over the common ``TableView`` plus Sichuan's own part, ``SichuanView``."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from mjcore._core import is_win, wait_mask
from mjcore.errors import MahjongError
from mjcore.hand import Hand
from mjcore.rules.common.inputs import plus_tile as _plus
from mjcore.rules.common.inputs import tile_text as _text
from mjcore.rules.common.moves import (
    Refusal,
    answer,
    check_table_view,
    legal_among,
    rules_part,
    unscorable_view,
)
from mjcore.rules.common.results import MoveCheck
from mjcore.rules.common.ruleset import Described
from mjcore.rules.sichuan.options import SichuanOptions
from mjcore.rules.sichuan.scoring import SUITS, score
from mjcore.table import PHASES as COMMON_PHASES
from mjcore.table import Move, TableView

PHASES: tuple[str, ...] = ("exchange", "ding_que", *COMMON_PHASES)
MOVE_KINDS: tuple[str, ...] = ("exchange", "ding_que", "discard", "peng", "gang", "angang",
                               "bugang", "hu", "pass", "chi")
_SUIT_INDEX = {"m": 0, "p": 1, "s": 2}
_FAR = 1 << 30  # wall_count not given: far from the end of the wall


@dataclass(frozen=True, slots=True)
class SichuanView:
    """Sichuan's part of a ``TableView``.

    missing_suit: the seat's declared 缺门 (``m``/``p``/``s``), ``None`` before 定缺
    has_won:      the seat has already won this hand (血战: it no longer plays)
    guoshui_fan:  the fan of a discard win this seat declined since its last draw (过水), or
                  ``None``"""

    missing_suit: str | None = None
    has_won: bool = False
    guoshui_fan: int | None = None


_NO_VIEW = SichuanView()


def _part(state: TableView) -> SichuanView:
    return _NO_VIEW if state.rules is None else state.rules


def _wall(state: TableView) -> int:
    return _FAR if state.wall_count is None else state.wall_count


REASON_CODES: tuple[Described, ...] = (
    Described("not_your_turn", "discard/angang/bugang/self-drawn hu outside the seat's own turn, "
              "a claim when no discard is pending, or a claim on the seat's own discard or "
              "bugang"),
    Described("already_won", "the seat has won this hand (血战)"),
    Described("wrong_phase", "the move does not belong to the current phase (e.g. any play "
              "before 定缺, peng on a bugang, peng on the last discard)"),
    Described("tile_not_held", "the tiles the move uses are not in the concealed hand"),
    Described("missing_suit_first", "the seat still holds tiles of its 缺门 and discards "
              "another suit"),
    Described("missing_suit_claim", "peng/gang/angang/hu using a tile of the seat's 缺门"),
    Described("not_a_win", "hu on tiles that do not form a winning shape or while the hand "
              "still holds a 缺门 tile"),
    Described("guoshui", "过水不胡: a discard win was declined since the last draw and this one "
              "does not score a higher fan"),
    Described("must_win", "a win is available and the wall has 4 or fewer tiles: every other "
              "move is refused"),
    Described("no_tiles_left", "a kong when the wall has no replacement tile"),
    Described("cannot_rob_angang", "only a bugang can be robbed (抢杠胡)"),
    Described("chi_not_allowed", "Sichuan has no chi"),
    Described("bad_move", "the move is malformed (unknown kind, wrong number of tiles, bad suit)"),
)

MOVE_DESCRIPTIONS: tuple[Described, ...] = (
    Described("exchange", "换三张: three tiles of one suit (option exchange_three)"),
    Described("ding_que", "定缺: declare the suit to void"),
    Described("discard", "discard one tile"),
    Described("peng", "claim a discard with two in hand"),
    Described("gang", "直杠: claim a discard with three in hand"),
    Described("angang", "暗杠: four in hand"),
    Described("bugang", "面下杠: add the fourth tile to one's own peng"),
    Described("hu", "win on a discard, a robbed bugang, or self-drawn"),
    Described("pass", "decline a claim"),
    Described("chi", "never legal in Sichuan"),
)


class _Probe:
    """Per-call memo of the win available to the acting seat."""

    __slots__ = ("state", "o", "_done", "_fan", "_why")

    def __init__(self, state: TableView, o: SichuanOptions) -> None:
        self.state = state
        self.o = o
        self._done = False
        self._fan: int | None = None
        self._why = ""

    def win(self) -> tuple[int | None, str]:
        """(fan of the available win or None, reason it is not a win)."""
        if not self._done:
            self._done = True
            try:
                self._fan = self._compute()
            except MahjongError as exc:
                if exc.code == "bad_state":
                    raise
                if exc.code != "not_a_win":
                    raise unscorable_view(exc) from None
                self._fan, self._why = None, exc.message
        return self._fan, self._why

    def _compute(self) -> int | None:
        s = self.state
        if s.phase == "turn":
            if not s.drew or not is_win(s.hand):
                return None
        else:
            tile = s.pending_tile
            if tile is None or s.pending_kind == "angang":
                return None
            ms = _part(s).missing_suit
            if ms is not None and tile // 9 == _SUIT_INDEX.get(ms, -1):
                raise MahjongError("not_a_win", f"{_text(tile)} is of the missing suit {ms}")
            if s.hand.all_counts()[tile] >= 4 or not (wait_mask(s.hand) >> tile) & 1:
                return None
        hand, tile, self_drawn, ctx = win_context(s)
        return score(hand, tile, self_drawn, ctx, self.o).fan


def win_context(state: TableView) -> tuple[Hand, int, bool, dict[str, object]]:
    """What a ``hu`` by the acting seat of ``state`` would be scored on:
    ``(hand incl. the winning tile, win_tile, self_drawn, context)``. A game server can pass
    these straight to ``score`` or into a ``Win`` event."""
    s = state
    ctx: dict[str, object] = {"winner": s.seat, "active_seats": s.active_seats}
    ms = _part(s).missing_suit
    if ms is not None:
        ctx["missing_suit"] = ms
    if s.wall_count == 0:
        ctx["last_tile"] = True
    hand = s.hand
    if s.phase == "turn":
        if s.after_kong:
            ctx["after_kong"] = True
            if s.kong_feeder is not None:
                ctx["kong_feeder"] = s.kong_feeder
        if s.first_draw and not hand.melds:
            if s.seat == s.dealer:
                ctx["heavenly"] = True
            elif not s.any_meld:
                ctx["earthly"] = True
        tile = s.drawn_tile
        if tile is None or not hand.counts[tile]:
            tile = next((i for i, n in enumerate(hand.counts) if n), 0)
        return hand, tile, True, ctx
    tile = s.pending_tile
    if tile is None:
        raise MahjongError("bad_state", "no pending tile to win on")
    if s.phase == "rob":
        ctx["robbing_kong"] = True
    elif s.pending_after_kong:
        ctx["after_kong_discard"] = True
    if s.pending_from is not None and s.pending_from != s.seat and s.pending_from in s.active_seats:
        ctx["discarder"] = s.pending_from
    if hand.all_counts()[tile] >= 4:
        raise MahjongError("bad_state", f"all four {_text(tile)} are already held")
    return _plus(hand, tile), tile, False, ctx


def _must_win(p: _Probe) -> None:
    o, s = p.o, p.state
    # the last four tiles: drawn when four or fewer were left before the draw (so at most
    # three are left now), or the discard of such a tile
    if o.last_four_must_win and _wall(s) <= 3:
        fan, _ = p.win()
        if fan is not None and not _guoshui_blocks(s, o, fan):
            raise Refusal("must_win", f"a win is available with {s.wall_count} wall tiles left: "
                           "the seat must win")


def _guoshui_blocks(s: TableView, o: SichuanOptions, fan: int) -> bool:
    return (
        o.guoshui
        and s.phase in ("claim", "rob")
        and _part(s).guoshui_fan is not None
        and fan <= _part(s).guoshui_fan  # type: ignore[operator]
    )


def _one_tile(move: Move) -> int:
    if len(move.tiles) != 1:
        raise Refusal("bad_move", f"{move.kind} names exactly one tile")
    t = move.tiles[0]
    if type(t) is not int or not 0 <= t < 27:
        raise Refusal("bad_move", f"{move.kind}: not a Sichuan tile: {t!r}")
    return t


def _check(state: TableView, move: Move, o: SichuanOptions, probe: _Probe) -> None:
    kind = move.kind
    if kind not in MOVE_KINDS:
        raise Refusal("bad_move", f"unknown move kind {kind!r}")
    if kind == "chi":
        raise Refusal("chi_not_allowed", "Sichuan has no chi")
    part = _part(state)
    if part.has_won:
        raise Refusal("already_won", f"seat {state.seat} has already won this hand (血战)")
    phase = state.phase
    if phase == "ended":
        raise Refusal("wrong_phase", "the hand is over")
    counts = state.hand.counts
    ms = _SUIT_INDEX.get(part.missing_suit or "", -1)
    if kind == "exchange":
        if phase != "exchange" or not o.exchange_three:
            raise Refusal("wrong_phase", "no 换三张 now" if o.exchange_three
                           else "换三张 is off (option exchange_three)")
        if len(move.tiles) != 3 or any(type(t) is not int or not 0 <= t < 27
                                       for t in move.tiles):
            raise Refusal("bad_move", "exchange passes exactly three suited tiles")
        if len({t // 9 for t in move.tiles}) != 1:
            raise Refusal("bad_move", "the three exchanged tiles must be of one suit")
        for t in set(move.tiles):
            if counts[t] < move.tiles.count(t):
                raise Refusal("tile_not_held", f"{_text(t)} is not held often enough")
        return
    if kind == "ding_que":
        if phase != "ding_que" or part.missing_suit is not None:  # fixed for the hand (§1.3)
            raise Refusal("wrong_phase", "定缺 is declared once, before play")
        if move.suit not in SUITS:
            raise Refusal("bad_move", f"ding_que names a suit m, p or s, got {move.suit!r}")
        return
    if phase in ("exchange", "ding_que"):
        raise Refusal("wrong_phase", f"{kind} before 定缺/换三张 is over")
    if part.missing_suit is None:
        raise Refusal("wrong_phase", f"{kind} before the seat has declared its 缺门 (定缺)")
    if phase in ("claim", "rob") and state.pending_from == state.seat and kind != "pass":
        raise Refusal("not_your_turn", f"seat {state.seat} cannot claim its own "
                       f"{state.pending_kind}")
    if kind in ("discard", "angang", "bugang"):
        t = _one_tile(move)
        if phase != "turn":
            raise Refusal("not_your_turn", f"{kind} only on the seat's own turn")
        if kind == "discard":
            if not counts[t]:
                raise Refusal("tile_not_held", f"{_text(t)} is not in the concealed hand")
            if o.discard_missing_first and ms >= 0 and t // 9 != ms and any(
                counts[ms * 9: ms * 9 + 9]
            ):
                raise Refusal("missing_suit_first", f"discard the missing suit "
                               f"{SUITS[ms]} first")
            _must_win(probe)
            return
        if kind == "angang":
            if counts[t] != 4:
                raise Refusal("tile_not_held", f"angang needs four {_text(t)} in hand")
            if t // 9 == ms:
                raise Refusal("missing_suit_claim", f"{_text(t)} is of the missing suit")
        else:
            if not counts[t] or not any(m.kind == "peng" and m.tile == t
                                        for m in state.hand.melds):
                raise Refusal("tile_not_held", f"bugang needs a peng of {_text(t)} and the "
                               "fourth tile in hand")
        if _wall(state) <= 0:
            raise Refusal("no_tiles_left", "no replacement tile left in the wall")
        _must_win(probe)
        return
    if kind == "hu":
        if len(move.tiles) > 1 or any(type(t) is not int or not 0 <= t < 34
                                      for t in move.tiles):
            raise Refusal("bad_move", "hu names at most the winning tile (a tile id)")
        if phase == "turn":
            if not state.drew:
                raise Refusal("wrong_phase", "no self-drawn win without a draw (after a peng)")
            if move.tiles and not counts[move.tiles[0]]:
                raise Refusal("bad_move", "the named winning tile is not in the hand")
            fan, why = probe.win()
            if fan is None:
                raise Refusal("not_a_win", why or "the hand is not a win")
            return
        if phase not in ("claim", "rob"):
            raise Refusal("not_your_turn", "no discard is pending")
        if state.pending_kind == "angang":
            raise Refusal("cannot_rob_angang", "a concealed kong cannot be robbed")
        if move.tiles and move.tiles[0] != state.pending_tile:
            raise Refusal("bad_move", "the named winning tile is not the pending tile")
        pt = state.pending_tile
        if pt is not None and pt // 9 == ms:
            raise Refusal("missing_suit_claim", f"{_text(pt)} is of the missing suit")
        fan, why = probe.win()
        if fan is None:
            raise Refusal("not_a_win", why or "the hand is not a win with this tile")
        if _guoshui_blocks(state, o, fan):
            raise Refusal("guoshui", f"过水: a win of {part.guoshui_fan} fan was declined since "
                           f"the last draw; this one scores {fan}")
        return
    if kind in ("peng", "gang"):
        t = _one_tile(move)
        if phase == "rob":
            raise Refusal("wrong_phase", "a bugang can only be robbed (hu) or passed")
        if phase != "claim":
            raise Refusal("not_your_turn", "no discard is pending")
        if t != state.pending_tile:
            raise Refusal("bad_move", f"{kind} names the pending tile")
        if t // 9 == ms:
            raise Refusal("missing_suit_claim", f"{_text(t)} is of the missing suit")
        need = 2 if kind == "peng" else 3
        if counts[t] < need:
            raise Refusal("tile_not_held", f"{kind} needs {need} {_text(t)} in hand")
        if _wall(state) <= 0:
            if kind == "gang":
                raise Refusal("no_tiles_left", "no replacement tile left in the wall")
            raise Refusal("wrong_phase", "the discard after the last tile may only be won")
        _must_win(probe)
        return
    # pass
    if move.tiles:
        raise Refusal("bad_move", "pass names no tile")
    if phase not in ("claim", "rob"):
        raise Refusal("not_your_turn", "nothing to pass on")
    _must_win(probe)




def _check_view(state: object) -> TableView:
    """Refuse a malformed view with ``MahjongError('bad_state')`` (the view is the input)."""
    state = check_table_view(state, PHASES)
    part = rules_part(state, SichuanView, _NO_VIEW)
    ms = part.missing_suit
    if ms is not None and (not isinstance(ms, str) or ms not in _SUIT_INDEX):
        raise MahjongError("bad_state", f"missing_suit must be m, p or s, got {ms!r:.40}")
    if part.guoshui_fan is not None and not (type(part.guoshui_fan) is int
                                             and 0 <= part.guoshui_fan <= 64):
        raise MahjongError("bad_state", f"guoshui_fan must be a fan, got {part.guoshui_fan!r:.40}")
    if type(part.has_won) is not bool:
        raise MahjongError("bad_state", "has_won must be true or false")
    if state.kong_feeder is not None and state.after_kong and \
            not any(m.kind == "gang" for m in state.hand.melds):  # decision 22
        raise MahjongError("bad_state", "kong_feeder names who fed a 直杠, but the hand holds "
                           "no gang: meld")
    return state


def validate_move(state: TableView, move: Move, o: SichuanOptions) -> MoveCheck:
    """Is ``move`` legal for the seat whose view is ``state``? (reason code if not).
    A malformed view raises ``MahjongError('bad_state')``."""
    _check_view(state)
    return answer(lambda m: _check(state, m, o, _Probe(state, o)), move)



def legal_moves(state: TableView, o: SichuanOptions) -> tuple[Move, ...]:
    """Every legal move of the seat whose view is ``state``."""
    _check_view(state)
    phase = state.phase
    if _part(state).has_won or phase in ("wait", "ended"):
        return ()
    counts = state.hand.counts
    candidates: list[Move]
    if phase == "ding_que":
        if _part(state).missing_suit is not None:  # declared already
            return ()
        return tuple(Move("ding_que", (), s) for s in SUITS)
    if phase == "exchange":
        if not o.exchange_three:
            return ()
        out: list[Move] = []
        for suit in range(3):
            tiles = [t for t in range(suit * 9, suit * 9 + 9) for _ in range(counts[t])]
            out.extend(Move("exchange", combo)
                       for combo in sorted(set(itertools.combinations(tiles, 3))))
        return tuple(out)
    if phase == "turn":
        candidates = [Move("hu")]
        candidates += [Move("discard", (t,)) for t in range(27) if counts[t]]
        candidates += [Move("angang", (t,)) for t in range(27) if counts[t] == 4]
        candidates += [Move("bugang", (m.tile,)) for m in state.hand.melds
                       if m.kind == "peng" and counts[m.tile]]
    elif phase == "claim":
        t = state.pending_tile
        if t is None:
            return ()
        candidates = [Move("hu"), Move("gang", (t,)), Move("peng", (t,)), Move("pass")]
    elif phase == "rob":
        candidates = [Move("hu"), Move("pass")]
    else:
        return ()
    probe = _Probe(state, o)
    return legal_among(candidates, lambda m: _check(state, m, o, probe))
