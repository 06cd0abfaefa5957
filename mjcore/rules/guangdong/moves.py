"""Guangdong moves: validation and the legal moves of the acting seat (docs/rulesets/guangdong.md
§2), over the common ``TableView`` plus Guangdong's own part, ``GuangdongView``."""

from __future__ import annotations

from collections.abc import Sequence

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
from mjcore.rules.guangdong.options import GuangdongOptions
from mjcore.rules.guangdong.scoring import RELATIVE, score
from mjcore.rules.guangdong.view import GuangdongView
from mjcore.table import PHASES, Move, TableView

MOVE_KINDS: tuple[str, ...] = ("discard", "chi", "peng", "gang", "angang", "bugang", "hu", "pass")
_FAR = 1 << 30  # wall_count not given: far from the end of the wall

MOVE_DESCRIPTIONS: tuple[Described, ...] = (
    Described("discard", "discard one tile"),
    Described("chi", "吃: claim the left seat's discard with two tiles that make a sequence of it "
              "(names the three tiles)"),
    Described("peng", "碰: claim a discard with two in hand"),
    Described("gang", "直杠: claim a discard with three in hand (a replacement draw follows)"),
    Described("angang", "暗杠: four in hand, on one's own turn"),
    Described("bugang", "补杠: add the fourth tile to one's own peng, on one's own turn (it can "
              "be robbed)"),
    Described("hu", "win: self-drawn on one's turn, on a discard, or by robbing a bugang (抢杠)"),
    Described("pass", "decline a discard or a bugang"),
)

REASON_CODES: tuple[Described, ...] = (
    Described("not_your_turn", "discard/angang/bugang/self-drawn hu outside the seat's own turn, "
              "a claim when nothing is pending, or a claim on the seat's own discard or bugang"),
    Described("wrong_phase", "the move does not fit the phase: the hand is over, chi/peng/gang on "
              "a bugang, a self-drawn hu after a claim (no draw), a claim other than hu on the "
              "discard after the last wall tile"),
    Described("tile_not_held", "the tiles the move uses are not in the concealed hand"),
    Described("chi_not_from_left", "吃 is only on the discard of the left seat (上家)"),
    Described("not_a_win", "hu on tiles that form no winning shape"),
    Described("below_min_fan", "hu on a hand worth less than the option min_fan (起胡)"),
    Described("no_tiles_left", "a kong when the wall has no replacement tile"),
    Described("cannot_rob_angang", "only a bugang can be robbed (暗杠不可抢杠胡)"),
    Described("bad_move", "the move is malformed: unknown kind, wrong number of tiles, a chi that "
              "is no sequence of the discard, a winning tile that is not the pending one"),
)


_NO_VIEW = GuangdongView()


def _part(state: TableView) -> GuangdongView:
    return _NO_VIEW if state.rules is None else state.rules


def _wall(state: TableView) -> int:
    return _FAR if state.wall_count is None else state.wall_count


def win_context(state: TableView) -> tuple[Hand, int, bool, dict[str, object]]:
    """What a ``hu`` by the acting seat of ``state`` would be scored on: ``(hand incl. the
    winning tile, win_tile, self_drawn, context)``. A game server can pass these straight to
    ``score`` or into a ``Win`` event (the number of winners on a discard is not known yet)."""
    s = state
    part = _part(s)
    seat_wind = (s.seat - s.dealer) % 4

    def rel(seat: int) -> str:
        if seat == s.seat:  # (a kong_feeder or pending_from naming the acting seat itself)
            raise MahjongError("bad_state", f"seat {seat} is the acting seat, not another seat")
        return RELATIVE[3 - (seat - s.seat) % 4]

    ctx: dict[str, object] = {"seat_wind": f"{seat_wind + 1}z", "round_wind": part.round_wind,
                              "winner": s.seat}
    if part.meld_from:
        ctx["meld_from"] = [None if f is None else rel(f) for f in part.meld_from]
    if part.bao_exempt:
        ctx["bao_exempt"] = True
    hand = s.hand
    if s.phase == "turn":
        if s.after_kong:
            ctx["gang_shang_kai_hua"] = True
            if s.kong_feeder is not None:
                ctx["gang_fed_by"] = rel(s.kong_feeder)
        if s.wall_count == 0:
            ctx["hai_di_lao_yue"] = True
        if s.first_draw and not hand.melds:
            if seat_wind == 0:
                ctx["tianhe"] = True
            elif not s.any_meld:
                ctx["dihe"] = True
        tile = s.drawn_tile
        if tile is None or not hand.counts[tile]:
            tile = next((i for i, n in enumerate(hand.counts) if n), 0)
        return hand, tile, True, ctx
    tile = s.pending_tile
    if tile is None or s.pending_from is None:
        raise MahjongError("bad_state", "no pending tile to win on")
    if s.phase == "rob":
        ctx["qiang_gang"] = True
        ctx["robbed"] = rel(s.pending_from)
    else:
        ctx["discarder"] = rel(s.pending_from)
        # the dealer's discard before this seat has drawn is the dealer's first discard
        if s.pending_from == s.dealer and s.first_draw and not hand.melds:
            ctx["renhe"] = True
    return _plus(hand, tile), tile, False, ctx


def bao_exempt(fourth_melds: Sequence[tuple[int, int]], seat: int, o: GuangdongOptions) -> bool:
    """包先不包后 (§11), for the table to set ``bao_exempt``: ``fourth_melds`` lists, in the
    order they happened this hand, ``(feeder, player)`` for every fourth exposed meld claimed
    (十二张落地). Is the feeder of ``seat``'s fourth meld exempt? With ``bao_scope:
    per_feeder`` when that feeder already fed another player's fourth meld; with ``per_hand``
    when anyone's fourth meld came earlier."""
    for i, (feeder, player) in enumerate(fourth_melds):
        if player == seat:
            earlier = fourth_melds[:i]
            if o.bao_scope == "per_hand":
                return bool(earlier)
            return any(f == feeder for f, _ in earlier)
    return False


def _win(state: TableView, o: GuangdongOptions) -> tuple[str, str]:
    """("", "") when the acting seat may hu now, else (reason code, message)."""
    s = state
    if s.phase != "turn":
        t = s.pending_tile
        if t is None or s.hand.held[t] >= 4:
            return "not_a_win", "all four copies of the tile are already held"
    hand, tile, self_drawn, ctx = win_context(s)
    if hand.concealed_count + 3 * len(hand.melds) != 14:
        raise MahjongError("bad_state", "the acting seat's hand does not have the tiles of a win")
    try:
        score(hand, tile, self_drawn, ctx, o)
    except MahjongError as exc:
        if exc.code in ("not_a_win", "below_min_fan"):
            return exc.code, exc.message
        if exc.code == "bad_context":  # (the context is the view's)
            raise unscorable_view(exc) from None
        raise
    return "", ""


def _one_tile(move: Move) -> int:
    if len(move.tiles) != 1 or type(move.tiles[0]) is not int or not 0 <= move.tiles[0] < 34:
        raise Refusal("bad_move", f"{move.kind} names exactly one tile")
    return move.tiles[0]


def _check(state: TableView, move: Move, o: GuangdongOptions) -> None:
    kind = move.kind
    if kind not in MOVE_KINDS:
        raise Refusal("bad_move", f"unknown move kind {kind!r:.40}")
    phase = state.phase
    if phase == "ended":
        raise Refusal("wrong_phase", "the hand is over")
    if phase in ("claim", "rob") and state.pending_from == state.seat and kind != "pass":
        raise Refusal("not_your_turn", f"seat {state.seat} cannot claim its own "
                       f"{state.pending_kind}")
    counts = state.hand.counts
    if kind in ("discard", "angang", "bugang"):
        t = _one_tile(move)
        if phase != "turn":
            raise Refusal("not_your_turn", f"{kind} only on the seat's own turn")
        if kind == "discard":
            if not counts[t]:
                raise Refusal("tile_not_held", f"{_text(t)} is not in the concealed hand")
            return
        if kind == "angang" and counts[t] != 4:
            raise Refusal("tile_not_held", f"angang needs four {_text(t)} in hand")
        if kind == "bugang" and (not counts[t] or not any(
                m.kind == "peng" and m.tile == t for m in state.hand.melds)):
            raise Refusal("tile_not_held", f"bugang needs a peng of {_text(t)} and the fourth "
                           "tile in hand")
        if _wall(state) <= 0:
            raise Refusal("no_tiles_left", "no replacement tile left in the wall")
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
            if phase not in ("claim", "rob"):
                raise Refusal("not_your_turn", "nothing is pending to win on")
            if state.pending_kind == "angang":
                raise Refusal("cannot_rob_angang", "a concealed kong cannot be robbed")
            if move.tiles and move.tiles[0] != state.pending_tile:
                raise Refusal("bad_move", "the named winning tile is not the pending tile")
        code, why = _win(state, o)
        if code:
            raise Refusal(code, why)
        return
    if kind == "pass":
        if move.tiles:
            raise Refusal("bad_move", "pass names no tile")
        if phase not in ("claim", "rob"):
            raise Refusal("not_your_turn", "nothing to pass on")
        return
    # chi, peng, gang: claims on a discard
    if phase == "rob":
        raise Refusal("wrong_phase", "a bugang can only be robbed (hu) or passed")
    if phase != "claim":
        raise Refusal("not_your_turn", "no discard is pending")
    pt = state.pending_tile
    assert pt is not None  # TableView.check
    if kind == "chi":
        tiles = move.tiles
        if len(tiles) != 3 or any(type(t) is not int or not 0 <= t < 34 for t in tiles):
            raise Refusal("bad_move", "chi names the three tiles of the sequence")
        lo = min(tiles)
        if (sorted(tiles) != [lo, lo + 1, lo + 2] or lo >= 27 or lo % 9 > 6
                or pt not in tiles):
            raise Refusal("bad_move", "chi is a sequence of one suit holding the discard")
        if state.pending_from != (state.seat - 1) % 4:
            raise Refusal("chi_not_from_left", "吃 only on the discard of the left seat (上家)")
        for t in tiles:
            if t != pt and not counts[t]:
                raise Refusal("tile_not_held", f"chi needs {_text(t)} in hand")
    else:
        t = _one_tile(move)
        if t != pt:
            raise Refusal("bad_move", f"{kind} names the pending tile")
        need = 2 if kind == "peng" else 3
        if counts[t] < need:
            raise Refusal("tile_not_held", f"{kind} needs {need} {_text(t)} in hand")
        if kind == "gang" and _wall(state) <= 0:
            raise Refusal("no_tiles_left", "no replacement tile left in the wall")
    if _wall(state) <= 0:
        raise Refusal("wrong_phase", "the discard after the last wall tile may only be won")


def _check_view(state: object) -> TableView:
    """Refuse a malformed view with ``MahjongError('bad_state')`` (the view is the input)."""
    state = check_table_view(state, PHASES)
    if state.phase == "rob" and state.pending_kind == "discard":
        raise MahjongError("bad_state", "phase rob is for a bugang (or an angang), not a discard")
    if (state.phase == "rob" and state.pending_kind == "bugang" and state.pending_tile is not None
            and state.hand.held[state.pending_tile]):
        raise MahjongError("bad_state", "a bugang holds the other three copies of its tile: the "
                           "robbing seat cannot hold one")
    part = rules_part(state, GuangdongView, _NO_VIEW)
    if part.round_wind not in ("1z", "2z", "3z", "4z"):
        raise MahjongError("bad_state", f"round_wind must be 1z-4z, got {part.round_wind!r:.40}")
    mf = part.meld_from
    if not isinstance(mf, tuple | list) or len(mf) != len(state.hand.melds) and mf:
        raise MahjongError("bad_state", "meld_from has one seat (or None) per meld of the hand")
    if any(f is not None and (type(f) is not int or not 0 <= f < 4 or f == state.seat)
           for f in mf):
        raise MahjongError("bad_state", "meld_from entries are other seats 0-3 or None")
    if type(part.bao_exempt) is not bool:
        raise MahjongError("bad_state", "bao_exempt must be true or false")
    return state


def validate_move(state: TableView, move: Move, o: GuangdongOptions) -> MoveCheck:
    """Is ``move`` legal for the seat whose view is ``state``? (reason code if not).
    A malformed view raises ``MahjongError('bad_state')``."""
    _check_view(state)
    return answer(lambda m: _check(state, m, o), move)


def legal_moves(state: TableView, o: GuangdongOptions) -> tuple[Move, ...]:
    """Every legal move of the seat whose view is ``state``."""
    _check_view(state)
    phase = state.phase
    counts = state.hand.counts
    candidates: list[Move]
    if phase == "turn":
        candidates = [Move("hu")]
        candidates += [Move("discard", (t,)) for t in range(34) if counts[t]]
        candidates += [Move("angang", (t,)) for t in range(34) if counts[t] == 4]
        candidates += [Move("bugang", (m.tile,)) for m in state.hand.melds
                       if m.kind == "peng" and counts[m.tile]]
    elif phase == "claim":
        t = state.pending_tile
        assert t is not None
        candidates = [Move("hu"), Move("gang", (t,)), Move("peng", (t,))]
        if t < 27:
            r = t % 9
            candidates += [Move("chi", (lo, lo + 1, lo + 2)) for lo in (t - 2, t - 1, t)
                           if 0 <= r - (t - lo) and r - (t - lo) + 2 <= 8]
        candidates.append(Move("pass"))
    elif phase == "rob":
        candidates = [Move("hu"), Move("pass")]
    else:
        return ()
    return legal_among(candidates, lambda m: _check(state, m, o))
