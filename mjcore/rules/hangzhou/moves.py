"""Hangzhou moves: validation and the legal moves of the acting seat (the spec's §3), over
the common ``TableView`` plus Hangzhou's own part, ``HangzhouView``.

A hu is checked by scoring it (``scoring.score``): the claim refusals of a discard win
(财神, 财飘 lock, 平庄, 闲家对闲家, 漏胡) and ``not_a_win`` come back as its error codes, in
the spec's order, so a move check and a score never disagree."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

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
from mjcore.rules.hangzhou.options import HangzhouOptions
from mjcore.rules.hangzhou.scoring import BAIBAN, RELATIVE, natural, score
from mjcore.table import PHASES, Move, TableView, view_tile

MOVE_KINDS: tuple[str, ...] = ("discard", "chi", "peng", "gang", "angang", "bugang", "hu",
                               "pass")


@dataclass(frozen=True, slots=True)
class HangzhouView:
    """Hangzhou's part of a ``TableView``.

    caishen:          the 财神 kind T (flip mode; ``None`` in baiban mode), an id or text
    dealer_streak:    times the dealer has kept the deal before this hand (放冲 needs 2)
    piao_count:       the seat's 飘 discards on its consecutive turns before this draw
    piao_on_gang:     the seat's last 飘 was made on a kong-replacement turn
    piao_lock:        a 飘 was made and its player has not drawn since: no seat may claim
                      a discard (the 飘 player himself included)
    passed_win_tiles: tiles on which the seat declined a discard win since its last draw
    passed_win_tiles_hand: ... at any time this hand (``louhu_scope: whole_hand``)
    claims_from:      chi/peng claims the seat made on each seat's discards this hand, by
                      absolute seat
    gangs_from:       直杠 the seat made on each seat's discards (they count for 承包 with
                      ``chengbao_counts_gang``)"""

    caishen: int | str | None = None
    dealer_streak: int = 0
    piao_count: int = 0
    piao_on_gang: bool = False
    piao_lock: bool = False
    passed_win_tiles: tuple[int, ...] = ()  # (text accepted: made ids)
    passed_win_tiles_hand: tuple[int, ...] = ()
    claims_from: tuple[int, int, int, int] = (0, 0, 0, 0)
    gangs_from: tuple[int, int, int, int] = (0, 0, 0, 0)

    def __post_init__(self) -> None:
        if isinstance(self.caishen, str):
            object.__setattr__(self, "caishen", view_tile(self.caishen, "caishen"))
        for name in ("passed_win_tiles", "passed_win_tiles_hand"):  # (ids or text, as caishen)
            tiles = getattr(self, name)
            if isinstance(tiles, tuple) and any(isinstance(x, str) for x in tiles):
                object.__setattr__(self, name, tuple(
                    view_tile(x, name) if isinstance(x, str) else x for x in tiles))


_NO_VIEW = HangzhouView()

REASON_CODES: tuple[Described, ...] = (
    Described("not_your_turn", "discard/kong/self-drawn hu outside the seat's own turn, a claim "
              "when no discard is pending, or a claim on the seat's own discard"),
    Described("wrong_phase", "the move does not belong to the phase (the hand is over, a peng "
              "on a kong, a self-drawn hu without a draw)"),
    Described("tile_not_held", "the tiles the move uses are not in the concealed hand"),
    Described("chi_not_from_left", "chi only on the discard of the seat just before (上家)"),
    Described("not_a_run", "the chi's tiles (白板 playing as the 财神's kind) are not a run "
              "holding the discard"),
    Described("wild_in_meld", "a 财神 may not be part of a declared meld (option wild_in_melds)"),
    Described("caishen_not_claimable", "a discarded 财神 cannot be claimed (option "
              "wild_discard_claimable)"),
    Described("piao_lock", "no discard may be claimed while another player's 财飘 is pending"),
    Described("pingzhuang", "平庄: no discard wins before the dealer has kept the deal "
              "fangchong_min_streak times"),
    Described("xianjia_to_xianjia", "a non-dealer may not win on a non-dealer's discard"),
    Described("louhu", "漏胡: the seat declined a win on this tile (since its last draw, or this "
              "hand with louhu_scope whole_hand)"),
    Described("not_a_win", "the tiles do not form a winning shape"),
    Described("cannot_rob_kong", "Hangzhou has no 抢杠胡: a kong is not robbed"),
    Described("no_tiles_left", "a kong when the wall has no replacement tile"),
    Described("bad_move", "the move is malformed (unknown kind, wrong number of tiles)"),
)

MOVE_DESCRIPTIONS: tuple[Described, ...] = (
    Described("discard", "discard one tile (a 财神 discarded in 爆头 state is a 飘)"),
    Described("chi", "claim the discard of the seat before with two tiles making a run; names "
              "the three tiles"),
    Described("peng", "claim a discard with two in hand"),
    Described("gang", "直杠: claim a discard with three in hand"),
    Described("angang", "暗杠: four in hand"),
    Described("bugang", "add the fourth tile to one's own peng"),
    Described("hu", "win self-drawn or on a discard"),
    Described("pass", "decline a claim"),
)


def _part(state: TableView) -> HangzhouView:
    return _NO_VIEW if state.rules is None else state.rules


def _wild(state: TableView, o: HangzhouOptions) -> int:
    if o.caishen_mode == "baiban":
        return BAIBAN
    t = _part(state).caishen
    if t is None:
        raise MahjongError("bad_state", "flip mode: the view's rules part must name the caishen")
    return int(t)


def _relative(seat: int, other: int) -> str:
    return RELATIVE[(other - seat - 1) % 4]


def win_context(state: TableView, o: HangzhouOptions | None = None) -> tuple[
        Hand, int, bool, dict[str, object]]:
    """What a ``hu`` by the acting seat of ``state`` would be scored on: ``(hand incl. the
    winning tile, win_tile, self_drawn, context)`` (a server can pass these to ``score`` or
    into a ``Win`` event)."""
    s, part = state, _part(state)
    ctx: dict[str, object] = {"winner": s.seat, "dealer_streak": part.dealer_streak,
                              "dealer": "self" if s.dealer == s.seat
                              else _relative(s.seat, s.dealer)}
    if part.caishen is not None:
        ctx["caishen"] = part.caishen
    hand = s.hand
    if s.phase == "turn":
        gangs = o is not None and o.chengbao_counts_gang
        claims = {_relative(s.seat, x): n + (part.gangs_from[x] if gangs else 0)
                  for x, n in enumerate(part.claims_from) if x != s.seat}
        claims = {k: n for k, n in claims.items() if n}
        if claims:
            ctx["claims_from"] = claims
        if s.after_kong and any(m.is_kong for m in hand.melds):
            ctx["gang_kai"] = True
        if part.piao_count:
            ctx["piao_count"] = part.piao_count
            if part.piao_on_gang:
                ctx["piao_on_gang"] = True
        tile = s.drawn_tile
        if tile is None or not hand.counts[tile]:
            tile = next(i for i, n in enumerate(hand.counts) if n)
        return hand, tile, True, ctx
    tile = s.pending_tile
    if tile is None or s.pending_from is None or s.pending_from == s.seat:
        raise MahjongError("bad_state", "no discard of another seat to win on")
    if hand.all_counts()[tile] >= 4:
        raise MahjongError("bad_state", f"all four {_text(tile)} are already held")
    ctx["discarder"] = _relative(s.seat, s.pending_from)
    whole = o is not None and o.louhu_scope == "whole_hand"
    passed = part.passed_win_tiles_hand if whole else part.passed_win_tiles
    if passed:
        ctx["passed_win_tiles"] = list(passed)
    if part.piao_lock:
        ctx["piao_lock"] = True
    return _plus(hand, tile), tile, False, ctx


def _one_tile(move: Move) -> int:
    if len(move.tiles) != 1 or not (type(move.tiles[0]) is int and 0 <= move.tiles[0] < 34):
        raise Refusal("bad_move", f"{move.kind} names exactly one tile")
    return move.tiles[0]


def _wall(state: TableView) -> int:
    return 1 << 30 if state.wall_count is None else state.wall_count


def _check_hu(state: TableView, o: HangzhouOptions) -> None:
    hand, tile, self_drawn, ctx = win_context(state, o)
    try:
        score(hand, tile, self_drawn, ctx, o)
    except MahjongError as exc:
        if exc.code == "bad_context" and "piao_count" in ctx:
            # after a 飘 every draw wins as 爆头: a hand that does not is simply not a win,
            # unless it wins otherwise (then the view's piao_count is wrong)
            ctx.pop("piao_count")
            ctx.pop("piao_on_gang", None)
            _check_hu_plain(hand, tile, ctx, o)
        if exc.code in ("tile_count", "bad_meld", "bad_context"):
            raise unscorable_view(exc) from None
        raise Refusal(exc.code, exc.message) from None


def _check_hu_plain(hand: Hand, tile: int, ctx: dict[str, object], o: HangzhouOptions) -> None:
    try:
        score(hand, tile, True, ctx, o)
    except MahjongError as exc:
        if exc.code in ("tile_count", "bad_meld", "bad_context"):
            raise unscorable_view(exc) from None
        raise Refusal(exc.code, exc.message) from None
    raise MahjongError("bad_state", "piao_count > 0 but the winning draw is not 爆头")


def _check(state: TableView, move: Move, o: HangzhouOptions) -> None:
    kind, phase = move.kind, state.phase
    if kind not in MOVE_KINDS:
        raise Refusal("bad_move", f"unknown move kind {kind!r:.40}")
    if phase in ("ended", "wait"):
        raise Refusal("wrong_phase" if phase == "ended" else "not_your_turn",
                       "the hand is over" if phase == "ended" else "another seat is acting")
    counts = state.hand.counts
    wild = _wild(state, o)
    if kind in ("discard", "angang", "bugang"):
        t = _one_tile(move)
        if phase != "turn":
            raise Refusal("not_your_turn", f"{kind} only on the seat's own turn")
        if kind == "discard":
            if not counts[t]:
                raise Refusal("tile_not_held", f"{_text(t)} is not in the concealed hand")
            return
        if t == wild and not o.wild_in_melds:
            raise Refusal("wild_in_meld", "four 财神 cannot be konged")
        if kind == "angang" and counts[t] != 4:
            raise Refusal("tile_not_held", f"angang needs four {_text(t)} in hand")
        if kind == "bugang" and not (counts[t] and any(
                m.kind == "peng" and m.tiles == (t,) * 3 for m in state.hand.melds)):
            raise Refusal("tile_not_held", f"bugang needs a peng of {_text(t)} and the fourth")
        if _wall(state) <= 0:
            raise Refusal("no_tiles_left", "no replacement tile left in the wall")
        return
    if kind == "hu" and phase == "turn":
        if len(move.tiles) > 1 or (move.tiles and not (
                type(move.tiles[0]) is int and 0 <= move.tiles[0] < 34 and counts[move.tiles[0]])):
            raise Refusal("bad_move", "hu names at most the winning tile, held in the hand")
        if not state.drew:
            raise Refusal("wrong_phase", "no self-drawn win without a draw (after a claim)")
        _check_hu(state, o)
        return
    # claims on a discard (or a kong) of another seat
    if phase not in ("claim", "rob"):
        raise Refusal("not_your_turn", "no discard is pending")
    if kind == "pass":
        if move.tiles:
            raise Refusal("bad_move", "pass names no tile")
        return
    if state.pending_from == state.seat:
        raise Refusal("not_your_turn", f"seat {state.seat} cannot claim its own discard")
    if state.pending_tile is None:
        raise Refusal("bad_move", "no tile is pending")
    t = state.pending_tile
    if phase == "rob":
        if kind == "hu":
            raise Refusal("cannot_rob_kong", "Hangzhou has no 抢杠胡")
        raise Refusal("wrong_phase", "a kong can only be passed")
    if move.tiles and kind != "chi" and move.tiles != (t,):
        raise Refusal("bad_move", f"{kind} names the pending tile {_text(t)}")
    if kind == "hu":
        _check_hu(state, o)  # 财神, lock, 平庄, 闲家, 漏胡, not a win: in the spec's order
        return
    if t == wild and not o.wild_discard_claimable:
        raise Refusal("caishen_not_claimable", "a discarded 财神 cannot be claimed")
    if _part(state).piao_lock and o.piao_lock:
        raise Refusal("piao_lock", "no discard may be claimed while another player's 财飘 is "
                       "pending")
    if kind == "chi":
        _check_chi(state, move, t, wild, o)
        return
    if not move.tiles:
        raise Refusal("bad_move", f"{kind} names the pending tile")
    if t == wild and not o.wild_in_melds:
        raise Refusal("wild_in_meld", "a 财神 may not be part of a declared meld")
    need = 2 if kind == "peng" else 3
    if counts[t] < need:
        raise Refusal("tile_not_held", f"{kind} needs {need} {_text(t)} in hand")
    if _wall(state) <= 0:
        raise Refusal("no_tiles_left" if kind == "gang" else "wrong_phase",
                       "no tile left in the wall")


def _check_chi(state: TableView, move: Move, t: int, wild: int, o: HangzhouOptions) -> None:
    if state.pending_from != (state.seat + 3) % 4:
        raise Refusal("chi_not_from_left", "chi only on the discard of the seat before (上家)")
    tiles = list(move.tiles)
    if len(tiles) != 3 or not all(type(x) is int and 0 <= x < 34 for x in tiles) or t not in tiles:
        raise Refusal("bad_move", "chi names the three tiles of the run, the discard included")
    if len(set(tiles)) != 3:  # a chi is three different tiles (a Hand's chi holds one stand-in)
        raise Refusal("not_a_run", "a chi is three different tiles")
    tiles.remove(t)
    for x in set(tiles):
        if state.hand.counts[x] < tiles.count(x):
            raise Refusal("tile_not_held", f"{_text(x)} is not in the concealed hand")
    if wild in tiles and not o.wild_in_melds:
        raise Refusal("wild_in_meld", "a 财神 may not be part of a declared meld")
    nat = sorted(natural(x, wild) for x in (*tiles, t) if x != wild)
    if not (len(set(nat)) == len(nat) and all(x < 27 and x // 9 == nat[0] // 9 for x in nat)
            and nat[-1] - nat[0] <= 2):
        raise Refusal("not_a_run", "the chi's tiles are not a run")
    if _wall(state) <= 0:
        raise Refusal("wrong_phase", "the discard after the last tile may only be won")


def check_view(state: object) -> TableView:
    """Refuse a malformed view with ``MahjongError('bad_state')``."""
    state = check_table_view(state, PHASES)
    part = rules_part(state, HangzhouView, _NO_VIEW)
    if part.caishen is not None and not (type(part.caishen) is int and 0 <= part.caishen < 34):
        raise MahjongError("bad_state", f"caishen must be a tile, got {part.caishen!r:.40}")
    for name, hi in (("dealer_streak", 1000), ("piao_count", 3)):
        v = getattr(part, name)
        if not (type(v) is int and 0 <= v <= hi):
            raise MahjongError("bad_state", f"{name} must be an integer 0-{hi}, got {v!r:.40}")
    for name in ("claims_from", "gangs_from"):
        claims = getattr(part, name)
        if not (isinstance(claims, tuple) and len(claims) == 4
                and all(type(n) is int and 0 <= n <= 4 for n in claims)):
            raise MahjongError("bad_state", f"{name} is four counts 0-4, one per seat")
    for name in ("passed_win_tiles", "passed_win_tiles_hand"):
        if not all(type(x) is int and 0 <= x < 34 for x in getattr(part, name)):
            raise MahjongError("bad_state", f"{name} must be tile ids")
    for name in ("piao_on_gang", "piao_lock"):
        if type(getattr(part, name)) is not bool:
            raise MahjongError("bad_state", f"{name} must be true or false")
    return state


def validate_move(state: TableView, move: Move, o: HangzhouOptions) -> MoveCheck:
    """Is ``move`` legal for the seat whose view is ``state``? (reason code if not)."""
    check_view(state)
    return answer(lambda m: _check(state, m, o), move)


def _chi_candidates(state: TableView, t: int) -> list[Move]:
    """Chi moves on ``t``: the discard with every two held tiles (the move check keeps the
    runs), so a 白板 playing as the 财神's kind, and wilds under ``wild_in_melds``, are
    offered exactly when they are accepted."""
    counts = state.hand.counts
    if state.pending_from != (state.seat + 3) % 4:
        return []
    held = [x for x in range(34) if counts[x]]
    return [Move("chi", tuple(sorted((t, a, b))))
            for a, b in itertools.combinations(held, 2) if t not in (a, b)]


def legal_moves(state: TableView, o: HangzhouOptions) -> tuple[Move, ...]:
    """Every legal move of the seat whose view is ``state``."""
    check_view(state)
    phase = state.phase
    counts = state.hand.counts
    if phase == "turn":
        candidates = [Move("hu")] + [Move("discard", (t,)) for t in range(34) if counts[t]]
        candidates += [Move("angang", (t,)) for t in range(34) if counts[t] == 4]
        candidates += [Move("bugang", (m.tile,)) for m in state.hand.melds
                       if m.kind == "peng" and counts[m.tile]]
    elif phase in ("claim", "rob") and state.pending_tile is not None:
        t = state.pending_tile
        candidates = [Move("hu"), Move("gang", (t,)), Move("peng", (t,)), Move("pass")]
        candidates += _chi_candidates(state, t)
    else:
        return ()
    return legal_among(candidates, lambda m: _check(state, m, o))
