"""Wuhan moves: validation and the legal moves of the acting seat (docs/rulesets/wuhan.md,
Moves), over the common ``TableView`` plus Wuhan's own part, ``WuhanView``.

``wall_count`` counts the tiles still drawable: the 10 tiles of the 海底 that are never drawn
are not part of it. A turn whose draw left fewer than 4 is a 海底 turn: a self-drawn win or
``pass`` only (the tile drawn is laid aside, nobody discards or kongs)."""

from __future__ import annotations

from dataclasses import dataclass

from mjcore.errors import MahjongError
from mjcore.hand import Hand
from mjcore.rules.common.inputs import hand_of, plus_tile, tile_id
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
from mjcore.rules.wuhan.context import next_kind
from mjcore.rules.wuhan.options import WuhanOptions
from mjcore.rules.wuhan.scoring import score
from mjcore.table import PHASES, Move, TableView

HAIDI = 4
"""When this many drawable tiles are left, each player draws one in turn: the 海底."""

MOVE_KINDS: tuple[str, ...] = ("discard", "chi", "peng", "gang", "angang", "bugang",
                               "pizigang", "laizigang", "hu", "pass")
_KONG_MOVES = frozenset(("gang", "angang", "bugang", "pizigang", "laizigang"))
_RELATIVE = {1: "right", 2: "across", 3: "left"}  # (seat - winner) % 4
WIN_REFUSALS = ("not_a_win", "must_open", "pizi_in_hand", "below_min_points")


@dataclass(frozen=True, slots=True)
class WuhanView:
    """Wuhan's part of a ``TableView``.

    laizi:      the 赖子 kind (a tile id or text); or give ``indicator``, the turned-up tile
    indicator:  the turned-up tile (the 赖子 is the next kind, skipping 痞子)
    meld_from:  for each of the acting seat's set melds, in order, the seat (0-3) it was
                claimed from (``None`` for an angang); scoring uses it for 放三浦
    seat_melds: each seat's declared melds as text (four entries, by seat; the acting seat's
                own is read from its hand): the payers' doublings F(payer)"""

    laizi: int | str | None = None
    indicator: int | str | None = None
    meld_from: tuple[int | None, ...] = ()
    seat_melds: tuple[str, ...] = ()


REASON_CODES: tuple[Described, ...] = (
    Described("not_your_turn", "discard/kong/self-drawn hu outside the seat's own turn, a claim "
              "when nothing is pending, or a claim on the seat's own discard or bugang"),
    Described("wrong_phase", "the move does not belong to the current phase (e.g. peng on a "
              "bugang, a self-drawn hu without a draw)"),
    Described("tile_not_held", "the tiles the move uses are not in the concealed hand"),
    Described("chi_not_from_left", "chi only on the discard of the seat just before (上家)"),
    Described("not_claimable", "a 痞子 or 赖子 cannot be claimed (chi, peng, gang, hu)"),
    Described("laizi_in_meld", "a 痞子 or 赖子 cannot be part of a chi, peng or kong"),
    Described("lay_aside", "a 痞子 or 赖子 is laid aside as 痞子杠/赖子杠, not discarded (while a "
              "kong is possible)"),
    Described("haidi", "in the 海底 only a self-drawn win or pass: no discard, no kong"),
    Described("no_tiles_left", "a kong needs a replacement tile outside the 海底"),
    Described("cannot_rob", "only a bugang can be robbed (抢杠)"),
    Described("not_a_win", "hu on tiles that do not win (shape, 2/5/8 pair, one-wild limit)"),
    Described("must_open", "hu before the seat has made a chi, peng, gang or bugang"),
    Described("pizi_in_hand", "hu while holding a 痞子"),
    Described("below_min_points", "hu worth less than min_points"),
    Described("bad_move", "the move is malformed (unknown kind, wrong tiles)"),
)

MOVE_DESCRIPTIONS: tuple[Described, ...] = (
    Described("discard", "discard one tile"),
    Described("chi", "claim the left seat's discard into a run: the run's three tiles"),
    Described("peng", "claim a discard with two in hand"),
    Described("gang", "直杠: claim a discard with three in hand (replacement draw)"),
    Described("angang", "暗杠: four in hand (replacement draw)"),
    Described("bugang", "add the fourth tile to one's own peng (replacement draw; robbable)"),
    Described("pizigang", "痞子杠 (红中杠): lay one 痞子 aside (replacement draw)"),
    Described("laizigang", "赖子杠: lay one 赖子 aside (replacement draw)"),
    Described("hu", "win self-drawn, on a discard or on a robbed bugang"),
    Described("pass", "decline a claim; in the 海底, decline to win (the tile is laid aside)"),
)


def _part(state: TableView) -> WuhanView:
    part = state.rules
    if part is None:
        raise MahjongError("bad_state", "a Wuhan view names the 赖子 (rules=WuhanView(laizi=…))")
    return part  # type: ignore[no-any-return]


def laizi_of(state: TableView, o: WuhanOptions) -> int:
    """The 赖子 kind of a view (checked by ``_check_view``)."""
    part = _part(state)
    if part.laizi is not None:
        return tile_id(part.laizi)
    assert part.indicator is not None
    return next_kind(tile_id(part.indicator), o.pizi_kinds)


def _haidi(state: TableView) -> bool:
    return state.wall_count is not None and state.wall_count < HAIDI


def _can_kong(state: TableView) -> bool:
    return state.wall_count is None or state.wall_count > HAIDI


def win_context(state: TableView) -> tuple[Hand, int, bool, dict[str, object]]:
    """What a ``hu`` by the acting seat of ``state`` would be scored on: ``(hand incl. the
    winning tile, win_tile, self_drawn, context)``, ready for ``score`` or a ``Win`` event."""
    s = state
    part = _part(s)
    ctx: dict[str, object] = {"winner": s.seat}
    if part.laizi is not None:
        ctx["laizi"] = part.laizi
    if part.indicator is not None:
        ctx["indicator"] = part.indicator
    hand = s.hand
    if part.meld_from:
        ctx["meld_from"] = [None if x is None else _RELATIVE[(x - s.seat) % 4]
                            for x in part.meld_from]
    payers = {_RELATIVE[(x - s.seat) % 4]: text for x, text in enumerate(part.seat_melds)
              if x != s.seat and text}
    if payers:
        ctx["payer_melds"] = payers
    if s.phase == "turn":
        if s.after_kong:
            ctx["gang_shang_hua"] = True
        elif _haidi(s):
            ctx["hai_di"] = True
        tile = s.drawn_tile
        if tile is None or not hand.counts[tile]:
            tile = next((i for i, n in enumerate(hand.counts) if n), 0)
        return hand, tile, True, ctx
    tile = s.pending_tile
    if tile is None or s.pending_from is None:
        raise MahjongError("bad_state", "no pending tile to win on")
    rel = _RELATIVE.get((s.pending_from - s.seat) % 4)
    if rel is None:
        raise MahjongError("bad_state", "a seat cannot win on its own tile")
    ctx["robbed" if s.phase == "rob" else "discarder"] = rel
    if hand.all_counts()[tile] >= 4:
        raise MahjongError("bad_state", f"all four {_text(tile)} are already held")
    return plus_tile(hand, tile), tile, False, ctx


class _Probe:
    """Per-call memo of the win available to the acting seat: (value or None, code, why)."""

    __slots__ = ("state", "o", "_answer")

    def __init__(self, state: TableView, o: WuhanOptions) -> None:
        self.state = state
        self.o = o
        self._answer: tuple[int | None, str, str] | None = None

    def win(self) -> tuple[int | None, str, str]:
        if self._answer is None:
            hand, tile, self_drawn, ctx = win_context(self.state)
            try:
                self._answer = (score(hand, tile, self_drawn, ctx, self.o).value, "", "")
            except MahjongError as err:
                if err.code not in WIN_REFUSALS:
                    raise unscorable_view(err) from None
                self._answer = (None, err.code, err.message)
        return self._answer


def _one_tile(move: Move) -> int:
    if len(move.tiles) != 1 or type(move.tiles[0]) is not int or not 0 <= move.tiles[0] < 34:
        raise Refusal("bad_move", f"{move.kind} names exactly one tile")
    return move.tiles[0]


def _check(state: TableView, move: Move, o: WuhanOptions, probe: _Probe) -> None:
    kind = move.kind
    if kind not in MOVE_KINDS:
        raise Refusal("bad_move", f"unknown move kind {kind!r:.40}")
    phase = state.phase
    if phase in ("ended", "wait"):
        raise Refusal("not_your_turn" if phase == "wait" else "wrong_phase",
                       "the hand is over" if phase == "ended" else "another seat is acting")
    laizi = laizi_of(state, o)
    special = o.pizi_kinds | {laizi}
    counts = state.hand.counts
    if phase in ("claim", "rob") and state.pending_from == state.seat and kind != "pass":
        raise Refusal("not_your_turn", f"seat {state.seat} cannot claim its own "
                       f"{state.pending_kind}")
    if kind == "pass":
        if move.tiles:
            raise Refusal("bad_move", "pass names no tile")
        if phase == "turn" and not _haidi(state):
            raise Refusal("wrong_phase", "a turn ends with a discard (pass only in the 海底)")
        return
    if kind == "hu":
        if len(move.tiles) > 1 or any(type(t) is not int or not 0 <= t < 34 for t in move.tiles):
            raise Refusal("bad_move", "hu names at most the winning tile (a tile id)")
        if phase == "turn":
            if not state.drew:
                raise Refusal("wrong_phase", "no self-drawn win without a draw (after a claim)")
            if move.tiles and not counts[move.tiles[0]]:
                raise Refusal("bad_move", "the named winning tile is not in the hand")
        else:
            if state.pending_kind == "angang":
                raise Refusal("cannot_rob", "a concealed kong cannot be robbed")
            if move.tiles and move.tiles[0] != state.pending_tile:
                raise Refusal("bad_move", "the named winning tile is not the pending tile")
            pt = state.pending_tile
            assert pt is not None
            if phase == "claim" and pt in special:
                raise Refusal("not_claimable", f"a discarded 痞子 or 赖子 ({_text(pt)}) cannot "
                               "be claimed")
            if state.hand.all_counts()[pt] >= 4:
                raise Refusal("not_a_win", f"all four {_text(pt)} are already held")
        value, code, why = probe.win()
        if value is None:
            raise Refusal(code, why)
        return
    if kind in ("discard", "angang", "bugang", "pizigang", "laizigang"):
        t = _one_tile(move)
        if phase != "turn":
            raise Refusal("not_your_turn", f"{kind} only on the seat's own turn")
        if _haidi(state):
            raise Refusal("haidi", "in the 海底 only a self-drawn win or pass")
        if not counts[t]:
            raise Refusal("tile_not_held", f"{_text(t)} is not in the concealed hand")
        if kind == "discard":
            if t in special and _can_kong(state):
                raise Refusal("lay_aside", f"{_text(t)} is laid aside as a kong, not discarded")
            return
        if kind == "angang":
            if counts[t] != 4:
                raise Refusal("tile_not_held", f"angang needs four {_text(t)} in hand")
            if t in special:
                raise Refusal("laizi_in_meld", "a 痞子 or 赖子 cannot be part of a kong")
        elif kind == "bugang":
            if not any(m.kind == "peng" and m.tile == t for m in state.hand.melds):
                raise Refusal("tile_not_held", f"bugang needs a peng of {_text(t)}")
        elif kind == "pizigang" and t not in o.pizi_kinds:
            raise Refusal("bad_move", f"{_text(t)} is not a 痞子")
        elif kind == "laizigang" and t != laizi:
            raise Refusal("bad_move", f"{_text(t)} is not the 赖子 {_text(laizi)}")
        if not _can_kong(state):
            raise Refusal("no_tiles_left", "no replacement tile outside the 海底")
        return
    # chi, peng, gang on a discard
    if phase == "rob":
        raise Refusal("wrong_phase", "a bugang can only be robbed (hu) or passed")
    if phase != "claim":
        raise Refusal("not_your_turn", "no discard is pending")
    pt = state.pending_tile
    assert pt is not None
    if pt in special:
        raise Refusal("not_claimable", f"a 痞子 or 赖子 ({_text(pt)}) cannot be claimed")
    if kind == "chi":
        if state.pending_from is None or (state.seat - state.pending_from) % 4 != 1:
            raise Refusal("chi_not_from_left", "chi only on the left seat's (上家) discard")
        run = tuple(sorted(move.tiles))
        if len(run) != 3 or pt not in run or not all(type(t) is int for t in run) or not (
                run[0] < 27 and run[0] % 9 <= 6 and run == (run[0], run[0] + 1, run[0] + 2)):
            raise Refusal("bad_move", "chi names three consecutive tiles of a suit, the "
                           "pending tile among them")
        own = list(run)
        own.remove(pt)
        if any(t in special for t in own):
            raise Refusal("laizi_in_meld", "a 赖子 cannot be part of a chi")
        if any(not counts[t] for t in own) or (own[0] == own[1] and counts[own[0]] < 2):
            raise Refusal("tile_not_held", "chi needs the run's two other tiles in hand")
        return
    t = _one_tile(move)
    if t != pt:
        raise Refusal("bad_move", f"{kind} names the pending tile")
    need = 2 if kind == "peng" else 3
    if counts[t] < need:
        raise Refusal("tile_not_held", f"{kind} needs {need} {_text(t)} in hand")
    if kind == "gang" and not _can_kong(state):
        raise Refusal("no_tiles_left", "no replacement tile outside the 海底")


def _check_view(state: object, o: WuhanOptions) -> TableView:
    """Refuse a malformed view with ``MahjongError('bad_state')`` (the view is the input)."""
    state = check_table_view(state, PHASES)
    part = rules_part(state, WuhanView, None)
    if part.laizi is None and part.indicator is None:
        raise MahjongError("bad_state", "the WuhanView names the 赖子 (laizi or indicator)")
    for name in ("laizi", "indicator"):
        value = getattr(part, name)
        if value is not None:
            try:
                tile_id(value)
            except MahjongError:
                raise MahjongError("bad_state", f"{name} is not a tile: {value!r:.40}") from None
    if not isinstance(part.meld_from, tuple | list) or not all(
            x is None or (type(x) is int and 0 <= x < 4 and x != state.seat)
            for x in part.meld_from):
        raise MahjongError("bad_state", "meld_from lists other seats 0-3 (None for an angang)")
    if part.meld_from and len(part.meld_from) != sum(m.is_set for m in state.hand.melds):
        raise MahjongError("bad_state", "meld_from has one entry per set meld")
    if not isinstance(part.seat_melds, tuple | list) or len(part.seat_melds) not in (0, 4) or \
            not all(isinstance(x, str) for x in part.seat_melds):
        raise MahjongError("bad_state", "seat_melds lists four melds texts, one per seat")
    for text in part.seat_melds:
        try:
            melds_only = not hand_of(text).concealed_count if text else True
        except MahjongError:
            melds_only = False
        if not melds_only:
            raise MahjongError("bad_state", f"seat_melds holds melds text, got {text!r:.40}")
    if laizi_of(state, o) in o.pizi_kinds:
        raise MahjongError("bad_state", "a 痞子 cannot be the 赖子")
    return state


def validate_move(state: TableView, move: Move, o: WuhanOptions) -> MoveCheck:
    """Is ``move`` legal for the seat whose view is ``state``? (reason code if not).
    A malformed view raises ``MahjongError('bad_state')``."""
    _check_view(state, o)
    return answer(lambda m: _check(state, m, o, _Probe(state, o)), move)


def legal_moves(state: TableView, o: WuhanOptions) -> tuple[Move, ...]:
    """Every legal move of the seat whose view is ``state``."""
    _check_view(state, o)
    phase = state.phase
    counts = state.hand.counts
    candidates: list[Move]
    if phase == "turn":
        held = [t for t in range(34) if counts[t]]
        candidates = [Move("hu"), Move("pass")]
        candidates += [Move("discard", (t,)) for t in held]
        candidates += [Move(k, (t,)) for t in held for k in ("pizigang", "laizigang")]
        candidates += [Move("angang", (t,)) for t in held if counts[t] == 4]
        candidates += [Move("bugang", (m.tile,)) for m in state.hand.melds
                       if m.kind == "peng" and counts[m.tile]]
    elif phase == "claim":
        t = state.pending_tile
        if t is None:
            return ()
        candidates = [Move("hu"), Move("gang", (t,)), Move("peng", (t,))]
        if t < 27:
            r = t % 9
            candidates += [Move("chi", (t - r + s, t - r + s + 1, t - r + s + 2))
                           for s in range(max(0, r - 2), min(r, 6) + 1)]
        candidates.append(Move("pass"))
    elif phase == "rob":
        candidates = [Move("hu"), Move("pass")]
    else:
        return ()
    probe = _Probe(state, o)
    return legal_among(candidates, lambda m: _check(state, m, o, probe))
