"""Taiwan moves (taiwan.md §2, shapes.md §4): validation and the legal moves of the acting
seat, over the common ``TableView`` plus Taiwan's part, ``TaiwanView``.

``wall_count`` is the number of tiles that may still be drawn: the 16-tile reserve is not
counted, so 0 means only the reserve is left (no kong, no flower replacement; the discard
made now is 河底)."""

from __future__ import annotations

from dataclasses import dataclass

from mjcore._core import is_win
from mjcore.errors import MahjongError
from mjcore.hand import Hand
from mjcore.rules.common.inputs import plus_tile
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
from mjcore.rules.common.special import ligu_pung
from mjcore.rules.taiwan.options import TaiwanOptions
from mjcore.rules.taiwan.scoring import RELATIVE, parse_flowers, score, wait_kinds
from mjcore.table import PHASES, Move, TableView
from mjcore.tiles import FLOWERS, format_tiles, tile_to_text

MOVE_KINDS: tuple[str, ...] = ("discard", "chi", "peng", "gang", "angang", "bugang", "hu",
                               "pass", "flower", "ting")
_WINDS = ("1z", "2z", "3z", "4z")
_FAR = 1 << 30  # wall_count not given: far from the end of the wall


@dataclass(frozen=True, slots=True)
class TaiwanView:
    """Taiwan's part of a ``TableView``.

    seat_wind, round_wind: 門風 and 圈風 (``1z``-``4z``)
    dealer_streak:     how many times in a row the dealer has already kept the deal
    flowers:           the flowers this seat has laid aside (ids 34-41 or text such as "15f")
    new_flowers:       flowers just drawn or dealt to this seat, still to lay aside (a
                       ``flower`` move each, replaced from the back of the wall)
    ting:              the seat's 聽 declaration: ``None``, ``declared``, or ``tian``/``di``
                       (天聽/地聽, which score)
    guoshui:           tiles on which this seat passed a win since its last discard (過水)
    replacement_after: in a turn that began with a replacement draw: ``angang``, ``bugang``,
                       ``gang`` or ``flower`` (槓上開花)"""

    seat_wind: str = "1z"
    round_wind: str = "1z"
    dealer_streak: int = 0
    flowers: tuple[int, ...] = ()  # or text, like every tile argument
    new_flowers: tuple[int, ...] = ()
    ting: str | None = None
    guoshui: tuple[int, ...] = ()
    replacement_after: str | None = None

    def __post_init__(self) -> None:
        for name in ("flowers", "new_flowers"):
            value: object = getattr(self, name)
            if isinstance(value, str):
                try:
                    object.__setattr__(self, name, parse_flowers(value))
                except MahjongError as exc:
                    raise MahjongError("bad_state", f"{name}: {exc.message}") from None


_NO_VIEW = TaiwanView()

REASON_CODES: tuple[Described, ...] = (
    Described("not_your_turn", "a discard, kong or self-drawn win outside one's turn; a claim "
              "when no discard is pending (or on one's own discard)"),
    Described("tile_not_held", "the tiles a move uses are not in the concealed hand"),
    Described("chi_not_from_left", "chi on a discard that is not the left player's (上家)"),
    Described("no_discard_bugang", "adding another player's discard to one's exposed peng"),
    Described("flower_not_playable", "discarding, claiming or melding a flower (a flower is "
              "laid aside and replaced)"),
    Described("guoshui", "過水: a win on a tile passed since the seat's last discard"),
    Described("ting_locked", "after a 聽 declaration: any chi, peng, kong or discard other than "
              "the drawn tile"),
    Described("no_tiles_left", "a kong or a flower replacement when only the 16-tile reserve is "
              "left (and no call on the last discard: it may only be won)"),
    Described("cannot_rob_angang", "a win by robbing an angang"),
    Described("not_a_win", "hu on tiles that form no reading"),
    Described("below_min_tai", "hu on a hand worth less than min_tai"),
    Described("not_ready", "a 聽 declaration whose hand, after the discard, waits on nothing"),
    Described("wrong_phase", "the move does not belong to the phase (flowers still to lay "
              "aside, a call on a robbed bugang, the hand is over)"),
    Described("bad_move", "the move is malformed (unknown kind, wrong tiles, a second 聽)"),
)

MOVE_DESCRIPTIONS: tuple[Described, ...] = (
    Described("discard", "discard one tile"),
    Described("chi", "吃: the three tiles of a run holding the left player's discard"),
    Described("peng", "碰: the discard with two in hand, from anyone"),
    Described("gang", "明槓: the discard with three in hand, from anyone"),
    Described("angang", "暗槓: four in hand"),
    Described("bugang", "加槓: a self-drawn fourth tile added to one's own peng"),
    Described("hu", "win on a discard, a robbed bugang, self-drawn, or 八仙過海"),
    Described("pass", "decline a claim"),
    Described("flower", "補花: lay a new flower aside (a replacement is drawn)"),
    Described("ting", "聽: discard the tile and declare the hand ready (option ting_declaration)"),
)


def _part(state: TableView) -> TaiwanView:
    return _NO_VIEW if state.rules is None else state.rules


def _wall(state: TableView) -> int:
    return _FAR if state.wall_count is None else state.wall_count


def _rel(state: TableView, seat: int) -> str:
    return RELATIVE[(seat - state.seat) % 4]


def _baxian(state: TableView, o: TaiwanOptions) -> bool:
    part = _part(state)
    return (o.flower_wins and state.phase == "turn" and bool(part.new_flowers)
            and len(set(part.flowers) | set(part.new_flowers)) == 8)


def win_context(state: TableView) -> tuple[Hand, int, bool, dict[str, object]]:
    """What a ``hu`` by the acting seat would be scored on: ``(hand incl. the winning tile,
    win_tile, self_drawn, context)`` (taiwan.md §13). A game server can pass these straight
    to ``score`` or into a ``Win`` event."""
    s, part = state, _part(state)
    ctx: dict[str, object] = {"seat_wind": part.seat_wind, "round_wind": part.round_wind,
                              "dealer": _rel(s, s.dealer), "winner": s.seat}
    if part.dealer_streak:
        ctx["dealer_streak"] = part.dealer_streak
    flowers = tuple(sorted(set(part.flowers) | set(part.new_flowers)))
    if part.ting in ("tian", "di"):
        ctx["ting"] = part.ting
    hand = s.hand
    no_calls = not hand.melds and not s.any_meld
    if s.phase == "turn" and part.new_flowers:  # 八仙過海 on the eighth flower
        ctx["flowers"] = format_tiles(flowers)
        ctx["flower_win"] = "baxian"
        ctx.pop("ting", None)
        return hand, int(part.new_flowers[-1]), True, ctx
    if flowers:
        ctx["flowers"] = format_tiles(flowers)
    if s.phase == "turn":
        if s.after_kong or part.replacement_after:
            after = part.replacement_after or ("gang" if s.kong_feeder is not None else next(
                (m.kind for m in hand.melds if m.kind in ("angang", "bugang")), None))
            if after is not None:
                ctx["gang_shang_kai_hua"] = True
                ctx["replacement_after"] = after
        if s.wall_count == 0:
            ctx["hai_di_lao_yue"] = True
        if s.first_draw and not hand.melds:
            if s.seat == s.dealer:
                ctx["tianhu"] = True
            elif no_calls:
                ctx["dihu"] = True
        tile = s.drawn_tile
        if tile is None or not hand.counts[tile]:
            tile = next(i for i, n in enumerate(hand.counts) if n)
        return hand, tile, True, ctx
    tile = s.pending_tile
    if tile is None or s.pending_from is None:
        raise MahjongError("bad_state", "no pending tile to win on")
    ctx["discarder"] = _rel(s, s.pending_from)
    if s.phase == "rob":
        ctx["qiang_gang"] = True
    elif s.wall_count == 0:
        ctx["he_di_lao_yu"] = True
    if s.phase == "claim" and s.first_draw and no_calls and s.seat != s.dealer:
        ctx["renhu"] = True
    if hand.all_counts()[tile] >= 4:
        raise MahjongError("bad_state", f"all four {tile_to_text(tile)} are already held")
    return plus_tile(hand, tile), tile, False, ctx


def _win(state: TableView, o: TaiwanOptions) -> None:
    """Refuse a ``hu`` that is not a win (or is worth less than ``min_tai``)."""
    s = state
    if _baxian(s, o):
        return
    if s.phase == "turn":
        if not is_win(s.hand) and not (o.ligu and not s.hand.melds
                                       and ligu_pung(s.hand.counts) >= 0):  # (嚦咕嚦咕, §3)
            raise Refusal("not_a_win", "the hand forms no five sets and a pair"
                          + (" nor 嚦咕嚦咕" if o.ligu else ""))
    else:
        t = s.pending_tile
        assert t is not None
        if not wait_kinds(s.hand, o) >> t & 1:
            raise Refusal("not_a_win", f"{tile_to_text(t)} does not complete the hand")
    hand, tile, self_drawn, ctx = win_context(s)
    try:
        score(hand, tile, self_drawn, ctx, o)
    except MahjongError as exc:
        if exc.code in ("not_a_win", "below_min_tai"):
            raise Refusal(exc.code, exc.message) from None
        if exc.code == "bad_context":  # (the context is the view's)
            raise unscorable_view(exc) from None
        raise


def _one(move: Move) -> int:
    if len(move.tiles) != 1:
        raise Refusal("bad_move", f"{move.kind} names exactly one tile")
    return move.tiles[0]


def _check(state: TableView, move: Move, o: TaiwanOptions) -> None:
    kind, phase, part = move.kind, state.phase, _part(state)
    if kind not in MOVE_KINDS:
        raise Refusal("bad_move", f"unknown move kind {kind!r:.40}")
    if any(type(t) is not int or not 0 <= t < 42 for t in move.tiles):
        raise Refusal("bad_move", "move tiles are tile ids 0-41")
    if kind not in ("flower", "hu") and any(t in FLOWERS for t in move.tiles):
        raise Refusal("flower_not_playable", "a flower is laid aside and replaced, never "
                       "discarded, claimed or melded")
    if phase == "ended":
        raise Refusal("wrong_phase", "the hand is over")
    counts = state.hand.counts
    locked = part.ting is not None
    if kind != "hu" and _baxian(state, o):
        raise Refusal("wrong_phase", "八仙過海: the eighth flower wins at once")
    if kind == "pass":
        if move.tiles or phase not in ("claim", "rob"):
            raise Refusal("not_your_turn" if not move.tiles else "bad_move", "nothing to pass on")
        return
    if kind in ("discard", "ting", "angang", "bugang", "flower") or (kind == "hu"
                                                                     and phase == "turn"):
        if phase != "turn":
            if kind == "bugang" and phase == "claim" and any(
                    m.kind == "peng" and m.tile == state.pending_tile for m in state.hand.melds):
                raise Refusal("no_discard_bugang", "only a self-drawn fourth tile makes a bugang")
            if kind != "hu":
                raise Refusal("not_your_turn", f"{kind} only on the seat's own turn")
        elif part.new_flowers and kind not in ("flower", "hu"):
            raise Refusal("wrong_phase", "lay the new flowers aside first")
    if kind == "flower":
        t = _one(move)
        if t not in part.new_flowers:
            raise Refusal("tile_not_held" if t in FLOWERS else "bad_move",
                           f"{tile_to_text(t)} is not a new flower of this seat")
        if _wall(state) <= 0:
            raise Refusal("no_tiles_left", "only the reserve is left: no replacement")
        return
    if kind in ("discard", "ting"):
        t = _one(move)
        if not counts[t]:
            raise Refusal("tile_not_held", f"{tile_to_text(t)} is not in the concealed hand")
        if kind == "ting":
            if not o.ting_declaration or locked:
                raise Refusal("bad_move", "聽 is declared once (option ting_declaration)")
            rest = list(counts)
            rest[t] -= 1
            if not wait_kinds(Hand(rest, state.hand.melds), o):
                raise Refusal("not_ready", "the hand waits on nothing after this discard")
        elif locked and t != state.drawn_tile:
            raise Refusal("ting_locked", "after 聽 only the drawn tile may be discarded")
        return
    if kind in ("angang", "bugang"):
        t = _one(move)
        if locked:
            raise Refusal("ting_locked", "no kong after 聽")
        if kind == "angang" and counts[t] != 4:
            raise Refusal("tile_not_held", f"angang needs four {tile_to_text(t)} in hand")
        if kind == "bugang" and not (counts[t] and any(m.kind == "peng" and m.tile == t
                                                       for m in state.hand.melds)):
            raise Refusal("tile_not_held", f"bugang needs a peng of {tile_to_text(t)} and the "
                           "fourth tile in hand")
        if _wall(state) <= 0:
            raise Refusal("no_tiles_left", "only the reserve is left: no replacement")
        return
    if kind == "hu" and phase == "turn":
        if part.new_flowers and not _baxian(state, o):
            raise Refusal("wrong_phase", "lay the new flowers aside first")
        if move.tiles and move.tiles[0] not in FLOWERS and not counts[move.tiles[0]]:
            raise Refusal("bad_move", "the named winning tile is not in the hand")
        if not state.drew and not _baxian(state, o):
            raise Refusal("not_your_turn", "no self-drawn win without a draw (after a call)")
        if state.drawn_tile is not None and state.drawn_tile in part.guoshui:
            raise Refusal("guoshui", f"過水: a win on {tile_to_text(state.drawn_tile)} was "
                           "passed since the last discard")
        _win(state, o)
        return
    # claims: chi, peng, gang, hu on a pending discard or bugang
    if phase not in ("claim", "rob") or state.pending_from == state.seat:
        raise Refusal("not_your_turn", "no discard of another player is pending")
    pending = state.pending_tile
    assert pending is not None
    t = pending
    if kind == "hu":
        if state.pending_kind == "angang":
            raise Refusal("cannot_rob_angang", "an angang can never be robbed")
        if move.tiles and move.tiles[0] != t:
            raise Refusal("bad_move", "the named winning tile is not the pending tile")
        if t in part.guoshui:
            raise Refusal("guoshui", f"過水: a win on {tile_to_text(t)} was passed since the "
                           "last discard")
        _win(state, o)
        return
    if phase == "rob" or state.pending_kind != "discard":
        raise Refusal("wrong_phase", "a kong can only be robbed (hu) or passed")
    if locked:
        raise Refusal("ting_locked", f"no {kind} after 聽")
    if kind == "chi":
        if state.pending_from != (state.seat - 1) % 4:
            raise Refusal("chi_not_from_left", "chi only on the left player's discard")
        run = sorted(move.tiles)
        if len(run) != 3 or t not in run or run[0] >= 27 or run != list(
                range(run[0], run[0] + 3)) or run[0] % 9 > 6:
            raise Refusal("bad_move", "chi names the three tiles of a run holding the discard")
        rest = list(run)
        rest.remove(t)
        if any(not counts[x] for x in rest):
            raise Refusal("tile_not_held", "chi needs the run's other two tiles in hand")
    else:
        if _one(move) != t:
            raise Refusal("bad_move", f"{kind} names the pending tile")
        need = 2 if kind == "peng" else 3
        if counts[t] < need:
            if kind == "gang" and any(m.kind == "peng" and m.tile == t for m in state.hand.melds):
                raise Refusal("no_discard_bugang", "a discard is never added to an exposed peng")
            raise Refusal("tile_not_held", f"{kind} needs {need} {tile_to_text(t)} in hand")
    if _wall(state) <= 0:
        raise Refusal("no_tiles_left", "the discard after the last tile may only be won")


def check_view(state: object) -> TableView:
    """Refuse a malformed view with ``MahjongError('bad_state')``."""
    state = check_table_view(state, PHASES)
    part = rules_part(state, TaiwanView, _NO_VIEW)
    if part.seat_wind not in _WINDS or part.round_wind not in _WINDS:
        raise MahjongError("bad_state", "seat_wind and round_wind are 1z-4z")
    if type(part.dealer_streak) is not int or not 0 <= part.dealer_streak <= 10_000:
        raise MahjongError("bad_state", "dealer_streak is an integer 0-10000")
    for name in ("flowers", "new_flowers"):
        value = getattr(part, name)
        if not isinstance(value, tuple) or len(value) > 8 or any(
                type(f) is not int or f not in FLOWERS for f in value):
            raise MahjongError("bad_state", f"{name} lists flower ids 34-41")
    if set(part.flowers) & set(part.new_flowers):
        raise MahjongError("bad_state", "a flower is both laid aside and new")
    if part.ting not in (None, "declared", "tian", "di"):
        raise MahjongError("bad_state", "ting is None, declared, tian or di")
    if not isinstance(part.guoshui, tuple) or len(part.guoshui) > 34 or any(
            type(t) is not int or not 0 <= t < 34 for t in part.guoshui):
        raise MahjongError("bad_state", "guoshui lists tile ids 0-33")
    if part.replacement_after not in (None, "angang", "bugang", "gang", "flower"):
        raise MahjongError("bad_state", "replacement_after is angang, bugang, gang or flower")
    # 16 tiles held between turns, 17 in one's turn (a kong counts 3, a new flower 1)
    held = state.hand.concealed_count + 3 * len(state.hand.melds)
    need = {"turn": 17 - len(part.new_flowers), "claim": 16, "rob": 16}.get(state.phase, held)
    if held != need:
        raise MahjongError("bad_state", f"the hand holds {held} tiles (kongs count 3) in phase "
                           f"{state.phase}; 16-tile play needs {need}")
    return state


def validate_move(state: TableView, move: Move, o: TaiwanOptions) -> MoveCheck:
    """Is ``move`` legal for the seat whose view is ``state``? (reason code if not)."""
    check_view(state)
    return answer(lambda m: _check(state, m, o), move)


def legal_moves(state: TableView, o: TaiwanOptions) -> tuple[Move, ...]:
    """Every legal move of the seat whose view is ``state``."""
    check_view(state)
    phase, part = state.phase, _part(state)
    counts = state.hand.counts
    if phase == "turn":
        if part.new_flowers:
            candidates = [Move("hu")] + [Move("flower", (f,)) for f in part.new_flowers]
        else:
            held = [t for t in range(34) if counts[t]]
            candidates = [Move("hu")] + [Move("discard", (t,)) for t in held]
            candidates += [Move("ting", (t,)) for t in held]
            candidates += [Move("angang", (t,)) for t in held if counts[t] == 4]
            candidates += [Move("bugang", (m.tile,)) for m in state.hand.melds
                           if m.kind == "peng" and counts[m.tile]]
    elif phase == "claim" and state.pending_tile is not None:
        t = state.pending_tile
        candidates = [Move("hu")]
        if t < 27:
            candidates += [Move("chi", (s, s + 1, s + 2)) for s in range(t - 2, t + 1)
                           if s >= 0 and s // 9 == t // 9 and s % 9 <= 6]
        candidates += [Move("peng", (t,)), Move("gang", (t,)), Move("pass")]
    elif phase == "rob":
        candidates = [Move("hu"), Move("pass")]
    else:
        return ()
    return legal_among(candidates, lambda m: _check(state, m, o))


__all__ = ["MOVE_DESCRIPTIONS", "REASON_CODES", "TaiwanView", "check_view", "legal_moves",
           "validate_move", "win_context"]
