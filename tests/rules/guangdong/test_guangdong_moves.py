"""Guangdong move validation and legal moves over the stateless table view (§2), one test per
reason code, plus claim priority (胡 > 碰/杠 > 吃, multi_ron)."""

from __future__ import annotations

from typing import Any

import pytest
from guangdong_api import TableView, legal_moves, resolve_options, score, validate_move

from mjcore import Hand, MahjongError
from mjcore.rules.guangdong import GuangdongView, resolve_claims, win_context
from mjcore.table import Move
from mjcore.tiles import tile_from_text as T


def view(hand: str, phase: str = "turn", seat: int = 1, **kw: Any) -> Any:
    return TableView(seat=seat, hand=Hand.parse(hand), phase=phase, **kw)


def claim(hand: str, tile: str, frm: int = 0, seat: int = 1, **kw: Any) -> Any:
    return view(hand, "claim", seat=seat, pending_tile=T(tile), pending_from=frm, **kw)


def code(v: Any, move: str, options: dict[str, object] | None = None) -> str:
    check = validate_move(v, Move.parse(move), options)
    assert bool(check) == check.ok
    if not check.ok:
        assert check.message
    return "ok" if check.ok else check.code


READY = "123m456m789p234s5s"  # 13 tiles, waits on 5s
WIN = READY + "5s"


def test_discard_and_kongs() -> None:
    v = view(WIN)
    assert code(v, "discard 5s") == "ok"
    assert code(v, "discard 1z") == "tile_not_held"
    assert code(view("1111z23m456m789p234s"), "angang 1z") == "ok"
    assert code(v, "angang 5s") == "tile_not_held"
    bg = view("1z23m456m789p234s peng:111z", meld_from=(0,))
    assert code(bg, "bugang 1z") == "ok"
    assert code(bg, "bugang 2m") == "tile_not_held"
    assert code(view("1111z23m456m789p234s", wall_count=0), "angang 1z") == "no_tiles_left"


def test_not_your_turn() -> None:
    assert code(view(WIN, "wait"), "discard 5s") == "not_your_turn"
    assert code(view(WIN), "peng 5s") == "not_your_turn"
    assert code(view(WIN), "pass") == "not_your_turn"
    # a claim on one's own discard
    own = claim("123m456m789p234s5s", "5s", frm=1)
    for move in ("hu", "peng 5s", "chi 3s 4s 5s"):
        assert code(own, move) == "not_your_turn"
    assert code(claim(READY, "5s"), "angang 5s") == "not_your_turn"


def test_chi_only_from_left() -> None:
    """吃 only on the left seat's discard (seat 1's left is seat 0)."""
    assert code(claim("13m456m789p234s55s", "2m", frm=0), "chi 1m 2m 3m") == "ok"
    assert code(claim("13m456m789p234s55s", "2m", frm=2), "chi 1m 2m 3m") == "chi_not_from_left"
    assert code(claim("13m456m789p234s55s", "2m", frm=3), "chi 1m 2m 3m") == "chi_not_from_left"
    assert code(claim("13m567m789p234s56s", "2m"), "chi 2m 3m 4m") == "tile_not_held"
    assert code(claim("13m456m789p234s55s", "2m"), "chi 1m 3m 5m") == "bad_move"
    assert code(claim("13m456m789p234s55s", "2m"), "chi 4m 5m 6m") == "bad_move"
    assert code(claim("123m456m789p2s55s1z2z", "3z"), "chi 1z 2z 3z") == "bad_move"


def test_peng_gang_and_wrong_phase() -> None:
    v = claim("55s123m456m789p23s", "5s", frm=2)
    assert code(v, "peng 5s") == "ok"
    assert code(v, "gang 5s") == "tile_not_held"
    assert code(v, "peng 6s") == "bad_move"
    assert code(claim("555s123m456m789p3s", "5s", frm=3), "gang 5s") == "ok"
    assert code(claim("555s123m456m789p3s", "5s", frm=3, wall_count=0), "gang 5s") == \
        "no_tiles_left"
    assert code(claim("55s123m456m789p23s", "5s", wall_count=0), "peng 5s") == "wrong_phase"
    rob = view("123m456m789p23s55s", "rob", pending_tile=T("4s"), pending_from=2,
               pending_kind="bugang")
    assert code(rob, "peng 4s") == "wrong_phase"
    assert code(view(WIN, "ended"), "discard 5s") == "wrong_phase"
    assert code(view(WIN, drew=False), "hu") == "wrong_phase"


def test_hu_and_robbing() -> None:
    assert code(view(WIN, drawn_tile=T("5s")), "hu") == "ok"
    assert code(view("123m456m789p234s5s1z"), "hu") == "not_a_win"
    assert code(claim(READY, "5s", frm=2), "hu") == "ok"
    assert code(claim(READY, "5s", frm=2), "hu 6s") == "bad_move"
    assert code(claim(READY, "6s", frm=2), "hu") == "not_a_win"
    rob = view("123m456m789p23s55s", "rob", pending_tile=T("4s"), pending_from=2,
               pending_kind="bugang")
    assert code(rob, "hu") == "ok"
    with pytest.raises(MahjongError) as err:  # the robbed bugang holds every other 5s
        validate_move(view(READY, "rob", pending_tile=T("5s"), pending_from=2,
                           pending_kind="bugang"), Move("hu"))
    assert err.value.code == "bad_state"
    assert code(rob, "pass") == "ok"
    angang = view(READY, "rob", pending_tile=T("5s"), pending_from=2, pending_kind="angang")
    assert code(angang, "hu") == "cannot_rob_angang"
    # min_fan: 平胡 1 on a discard is below 2; self-drawn (平胡 + 自摸 = 2) it is not
    assert code(claim(READY, "5s", frm=2), "hu", {"min_fan": 2}) == "below_min_fan"
    assert code(view(WIN, drawn_tile=T("5s")), "hu", {"min_fan": 2}) == "ok"
    # the discard after the last wall tile can still be won
    assert code(claim(READY, "5s", frm=2, wall_count=0), "hu") == "ok"


def test_bad_move() -> None:
    v = view(WIN)
    assert code(v, "pass 5s") in ("bad_move", "not_your_turn")
    assert validate_move(v, Move("fly")).code == "bad_move"
    assert validate_move(v, Move("discard", (1, 2))).code == "bad_move"
    assert validate_move(v, "discard 5s").code == "bad_move"  # type: ignore[arg-type]


def test_bad_state() -> None:
    for changes in ({"phase": "lunch"}, {"seat": 5}, {"rules": GuangdongView(round_wind="9z")},
                    {"rules": GuangdongView(meld_from=(0, 1))}, {"rules": "x"}):
        v = view(WIN).replace(**changes)
        with pytest.raises(MahjongError) as err:
            validate_move(v, Move.parse("discard 5s"))
        assert err.value.code == "bad_state"


def test_legal_moves() -> None:
    moves = {m.to_text() for m in legal_moves(view(WIN, drawn_tile=T("5s")))}
    assert "hu" in moves and "discard 5s" in moves and "discard 1m" in moves
    assert not any(m.startswith(("peng", "chi", "pass")) for m in moves)
    moves = {m.to_text() for m in legal_moves(claim("13m567m789p234s56s", "2m", frm=0))}
    assert moves == {"chi 1m 2m 3m", "pass"}
    moves = {m.to_text() for m in legal_moves(claim("122m456m789p234s5s", "3m", frm=0))}
    assert {"chi 1m 2m 3m", "chi 2m 3m 4m", "pass"} <= moves
    moves = {m.to_text() for m in legal_moves(claim("55s123m456m789p23s", "5s", frm=2))}
    assert moves == {"peng 5s", "pass"}
    moves = {m.to_text() for m in legal_moves(claim(READY, "5s", frm=0))}
    assert moves == {"hu", "chi 3s 4s 5s", "pass"}
    moves = {m.to_text() for m in legal_moves(claim(READY, "5s", frm=3))}  # not the left seat
    assert moves == {"hu", "pass"}
    assert legal_moves(view(WIN, "wait")) == ()
    for v in (view(WIN), claim("13m456m789p234s55s", "2m", frm=0)):
        for m in legal_moves(v):
            assert validate_move(v, m).ok


def test_win_context_scores() -> None:
    """win_context gives what score needs: winds from the dealer, relative seats, flags."""
    v = view(WIN, seat=2, dealer=1, drawn_tile=T("5s"), after_kong=False, round_wind="2z")
    hand, tile, sd, c = win_context(v)
    assert sd and c["seat_wind"] == "2z" and c["round_wind"] == "2z" and c["winner"] == 2
    r = score(hand, win_tile=tile, self_drawn=sd, context=c)
    assert r.fan == 2 and {p[0] for p in r.payments} == {0, 1, 3}
    v = claim(READY, "5s", frm=0, seat=1, dealer=0, first_draw=True)
    hand, tile, sd, c = win_context(v)
    assert c["discarder"] == "left" and c["renhe"] and not sd
    assert score(hand, win_tile=tile, context=c).fan == 6
    v = view("123m456m789p23s55s", "rob", seat=3, pending_tile=T("4s"), pending_from=1,
             pending_kind="bugang")
    hand, tile, sd, c = win_context(v)
    assert c["qiang_gang"] and c["robbed"] == "across"
    assert score(hand, win_tile=tile, context=c).liable_seat == 1


def test_resolve_claims() -> None:
    """胡 > 碰/杠 > 吃; every hu wins (一炮多响) unless multi_ron is first_only."""
    hu, peng, chi = Move("hu"), Move("peng", (5,)), Move("chi", (3, 4, 5))
    assert resolve_claims(0, {1: chi, 2: peng}) == ((2, peng),)
    assert resolve_claims(0, {1: chi, 3: Move("pass")}) == ((1, chi),)
    assert resolve_claims(0, {1: chi, 2: peng, 3: hu}) == ((3, hu),)
    assert resolve_claims(2, {1: hu, 3: hu, 0: peng}) == ((3, hu), (1, hu))
    first = resolve_options({"multi_ron": "first_only"})
    assert resolve_claims(2, {1: hu, 3: hu}, first) == ((3, hu),)
    assert resolve_claims(2, {}) == ()


def test_bao_exempt_helper() -> None:
    """包先不包后: seat 0 fed seat 1's fourth meld, then seat 2's; per feeder, seat 2's is
    exempt; a different feeder is not; per hand, every later one is."""
    from mjcore.rules.guangdong import bao_exempt

    per_feeder, per_hand = resolve_options(), resolve_options({"bao_scope": "per_hand"})
    feeds = [(0, 1), (0, 2), (3, 0)]
    assert not bao_exempt(feeds, 1, per_feeder)
    assert bao_exempt(feeds, 2, per_feeder)
    assert not bao_exempt(feeds, 0, per_feeder)
    assert bao_exempt(feeds, 0, per_hand) and not bao_exempt(feeds, 1, per_hand)
    assert not bao_exempt(feeds, 3, per_feeder)  # no fourth meld: nothing to exempt


def test_a_view_whose_win_context_contradicts_itself_is_bad_state() -> None:
    """"A malformed view raises ``bad_state``" (§2): a turn after a kong replacement draw
    whose hand holds no kong, or whose ``kong_feeder`` fed none of its melds (§8's 杠上开花
    checks, which ``score`` answers with ``bad_context``), is such a view, for ``hu`` and for
    ``legal_moves`` (which asks about ``hu``) alike."""
    no_kong = view(WIN, drawn_tile=T("5s"), after_kong=True)
    wrong_feeder = TableView(seat=1, hand=Hand.parse("123m456m789p5s5s gang:2222s"),
                             phase="turn", drawn_tile=T("5s"), after_kong=True, kong_feeder=3,
                             meld_from=(0,))
    for v in (no_kong, wrong_feeder):
        hand, tile, self_drawn, ctx = win_context(v)
        with pytest.raises(MahjongError) as err:
            score(hand, win_tile=tile, self_drawn=self_drawn, context=ctx)
        assert err.value.code == "bad_context"
        with pytest.raises(MahjongError) as err:
            validate_move(v, Move("hu"))
        assert err.value.code == "bad_state"
        with pytest.raises(MahjongError) as err:
            legal_moves(v)
        assert err.value.code == "bad_state"
    fed = TableView(seat=1, hand=Hand.parse("123m456m789p5s5s gang:2222s"), phase="turn",
                    drawn_tile=T("5s"), after_kong=True, kong_feeder=0, meld_from=(0,))
    assert code(fed, "hu") == "ok"


def test_a_kong_feeder_naming_the_acting_seat_is_bad_state() -> None:
    """§13 decision 21: a 直杠 is fed by another seat's discard, so a turn after a kong whose
    ``kong_feeder`` is the acting seat itself contradicts itself: ``bad_state`` (it raised an
    IndexError), for ``hu``, ``legal_moves`` and ``win_context``; other moves still answer."""
    v = TableView(seat=1, hand=Hand.parse("123m456m789p5s5s gang:2222s"), phase="turn",
                  drawn_tile=T("5s"), after_kong=True, kong_feeder=1, meld_from=(0,))
    for ask in (lambda: validate_move(v, Move("hu")), lambda: legal_moves(v),
                lambda: win_context(v)):
        with pytest.raises(MahjongError) as err:
            ask()
        assert err.value.code == "bad_state"
    assert validate_move(v, Move.make("discard", "5s")).ok
