"""Taiwan move checks (taiwan.md §2, shapes.md §4): every reason code of §2 from the rule it
names, flowers laid aside and replaced, 聽, and the moves legal_moves offers."""

from __future__ import annotations

from typing import Any

import pytest
from taiwan_api import TableView, legal_moves, score, validate_move

from mjcore import MahjongError, Move
from mjcore.rules.taiwan import win_context

READY = "123m456m789m23p567p99s"  # 16 tiles, waits 1p/4p
TURN = READY + "9m"  # 17 tiles after drawing 9m


def view(phase: str = "turn", hand: str = TURN, **kw: Any) -> Any:
    kw.setdefault("dealer", 3)  # the dealer is seat 0's left
    if phase == "turn":
        kw.setdefault("drawn_tile", "9m")
    return TableView(seat=0, hand=hand, phase=phase, **kw)


def claim(tile: str, frm: int = 3, hand: str = READY, **kw: Any) -> Any:
    return view("claim", hand, pending_tile=tile, pending_from=frm, **kw)


def why(state: Any, text: str, **options: Any) -> str:
    check = validate_move(state, Move.parse(text) if " " in text or text in ("hu", "pass")
                          else Move(text), options or None)
    return "ok" if check.ok else check.code


def test_turn_moves() -> None:
    assert why(view(), "discard 9m") == "ok"
    assert why(view(), "discard 1p") == "tile_not_held"
    assert validate_move(view(), Move("discard", (34,))).code == "flower_not_playable"
    assert why(view(), "angang 1m") == "tile_not_held"
    assert why(view(), "hu") == "not_a_win"
    assert why(view(hand=READY + "4p", drawn_tile="4p"), "hu") == "ok"
    assert why(view(hand=READY + "4p", drawn_tile="4p"), "hu", min_tai=9) == "below_min_tai"
    assert why(view(hand=READY + "4p", drawn_tile="4p", drew=False), "hu") == "not_your_turn"


def test_not_your_turn() -> None:
    assert why(claim("4p"), "discard 1m") == "not_your_turn"
    assert why(view("wait", READY), "angang 1m") == "not_your_turn"
    assert why(view(), "peng 9m") == "not_your_turn"  # a claim with no discard pending
    assert why(claim("4p", frm=0), "hu") == "not_your_turn"  # one's own discard


def test_chi_only_from_left() -> None:
    assert why(claim("4p", frm=3), "chi 2p 3p 4p") == "ok"
    assert why(claim("4p", frm=1), "chi 2p 3p 4p") == "chi_not_from_left"
    assert why(claim("4p", frm=2), "chi 2p 3p 4p") == "chi_not_from_left"
    assert why(claim("4p", frm=3), "chi 4p 5p 6p") == "ok"
    assert why(claim("1s", frm=3), "chi 1s 2s 3s") == "tile_not_held"
    assert why(claim("4p"), "chi 1p 2p 3p") == "bad_move"  # the run must hold the discard
    moves = legal_moves(claim("4p", frm=1))
    assert not any(m.kind == "chi" for m in moves) and Move("hu") in moves


def test_peng_gang_and_no_discard_bugang() -> None:
    assert why(claim("9s", frm=1), "peng 9s") == "ok"
    assert why(claim("9s", frm=1), "gang 9s") == "tile_not_held"
    with_peng = "123m456m789m23p99s peng:555p"
    assert why(claim("5p", frm=2, hand=with_peng), "gang 5p") == "no_discard_bugang"
    assert why(claim("5p", frm=2, hand=with_peng), "bugang 5p") == "no_discard_bugang"
    assert why(view(hand="123m456m789m23p99s5p peng:555p", drawn_tile="5p"), "bugang 5p") == "ok"


def test_flowers_are_laid_aside_and_replaced() -> None:
    v = view(hand=READY, new_flowers="3f")
    assert [m.kind for m in legal_moves(v)] == ["flower"]
    assert validate_move(v, Move("flower", (36,))).ok
    assert why(v, "discard 9m") == "wrong_phase"
    assert validate_move(v, Move("flower", (35,))).code == "tile_not_held"
    v0 = view(hand=READY, new_flowers="3f", wall_count=0)
    assert validate_move(v0, Move("flower", (36,))).code == "no_tiles_left"
    for kind in ("discard", "peng", "chi", "angang"):
        assert validate_move(claim("4p"), Move(kind, (34,))).code == "flower_not_playable"
    # the eighth flower: 八仙過海 may be declared
    v = view(hand=READY, flowers="1234567f", new_flowers="8f")
    assert Move("hu") in legal_moves(v)
    hand, tile, self_drawn, ctx = win_context(v)
    assert (tile, self_drawn, ctx["flower_win"], ctx["flowers"]) == (41, True, "baxian",
                                                                      "12345678f")
    assert score(hand, win_tile=tile, self_drawn=True, context=ctx).value == 8


def test_guoshui() -> None:
    assert why(claim("4p", guoshui=(12,)), "hu") == "guoshui"
    assert why(claim("1p", guoshui=(12,)), "hu") == "ok"
    assert why(view(hand=READY + "4p", drawn_tile="4p", guoshui=(12,)), "hu") == "guoshui"


def test_ting() -> None:
    assert why(view(), "ting 9m") == "ok"
    assert why(view(), "ting 1m") == "not_ready"
    assert why(view(), "ting 9m", ting_declaration=False) == "bad_move"
    locked = {"ting": "declared"}
    assert why(view(**locked), "discard 9m") == "ok"
    assert why(view(**locked), "discard 1m") == "ting_locked"
    assert why(claim("4p", **locked), "chi 2p 3p 4p") == "ting_locked"
    assert why(claim("9s", frm=1, **locked), "peng 9s") == "ting_locked"
    assert why(view(hand="1111m456m789m23p567p99s", drawn_tile="9s", **locked), "angang 1m") \
        == "ting_locked"
    assert why(claim("4p", **locked), "hu") == "ok"
    assert [m.to_text() for m in legal_moves(view(**locked)) if m.kind == "discard"] == [
        "discard 9m"]


def test_reserve_and_robbing() -> None:
    four = "1111m456m789m23p567p99s"
    assert why(view(hand=four, drawn_tile="9s", wall_count=0), "angang 1m") == "no_tiles_left"
    assert why(view(hand=four, drawn_tile="9s", wall_count=1), "angang 1m") == "ok"
    assert why(claim("9s", frm=1, wall_count=0), "peng 9s") == "no_tiles_left"
    assert why(claim("4p", wall_count=0), "hu") == "ok"
    rob = view("rob", READY, pending_tile="4p", pending_from=2, pending_kind="bugang")
    assert why(rob, "hu") == "ok" and why(rob, "peng 4p") == "wrong_phase"
    assert win_context(rob)[3]["qiang_gang"] is True
    angang = view("rob", READY, pending_tile="4p", pending_from=2, pending_kind="angang")
    assert why(angang, "hu") == "cannot_rob_angang"


def test_win_context_flags() -> None:
    _, _, _, ctx = win_context(view(hand=READY + "4p", drawn_tile="4p", wall_count=0,
                                    dealer=0, first_draw=True, seat_wind="1z"))
    assert ctx["hai_di_lao_yue"] and ctx["tianhu"] and ctx["dealer"] == "self"
    _, _, sd, ctx = win_context(claim("4p", frm=2, wall_count=0, first_draw=True))
    assert not sd and ctx["he_di_lao_yu"] and ctx["renhu"] and ctx["discarder"] == "across"
    _, _, _, ctx = win_context(view(hand="123m456m789m234p99s angang:5555s", drawn_tile="4p",
                                    after_kong=True))
    assert ctx["replacement_after"] == "angang" and ctx["gang_shang_kai_hua"]


def test_malformed_views_are_bad_state() -> None:
    for part in ({"seat_wind": "9z"}, {"flowers": "1m"}, {"ting": "yes"}, {"guoshui": (99,)},
                 {"dealer_streak": -1}, {"replacement_after": "pung"}, {"hand": READY},
                 {"hand": TURN, "new_flowers": "1f"}):
        with pytest.raises(MahjongError) as err:
            legal_moves(view(**part))
        assert err.value.code == "bad_state"


def test_a_view_whose_win_context_contradicts_itself_is_bad_state() -> None:
    """§4 and decision 15: a turn after a 直杠's replacement (``kong_feeder``) whose hand holds
    no ``gang`` meld contradicts itself: ``bad_state`` for ``hu`` and ``legal_moves`` (it was
    the score's ``bad_context``); the same view with the kong's feeder unknown just wins."""
    hand = "123456789m11s chi:789s angang:2222p"
    v = view(hand=hand, drawn_tile="1s", after_kong=True, kong_feeder=3)
    for ask in (lambda: validate_move(v, Move("hu")), lambda: legal_moves(v)):
        with pytest.raises(MahjongError) as err:
            ask()
        assert err.value.code == "bad_state"
    assert validate_move(view(hand=hand, drawn_tile="1s", after_kong=True), Move("hu")).ok


def test_the_eighth_flower_wins_at_once() -> None:
    v = view(hand=READY, flowers="1234567f", new_flowers="8f")
    assert legal_moves(v) == (Move("hu"),)
    assert validate_move(v, Move("flower", (41,))).code == "wrong_phase"
    six = view(hand=READY, flowers="123456f", new_flowers="8f")
    assert validate_move(six, Move("hu")).code == "wrong_phase"
    assert legal_moves(v, {"flower_wins": False}) == (Move("flower", (41,)),)


def test_self_drawn_ligu_is_a_win_with_its_option() -> None:
    """嚦咕嚦咕 (shapes.md §4: seven pairs and a pung, 17 concealed tiles) is a win under
    ``ligu``, self-drawn as on a discard: ``hu`` is legal where ``score`` scores it, and
    ``legal_moves`` offers it; without the option it is no win."""
    ligu = "1133557799m2244p999s"
    state = view(hand=ligu, drawn_tile="9s")
    hand, tile, self_drawn, ctx = win_context(state)
    assert score(hand, win_tile=tile, self_drawn=self_drawn, context=ctx,
                 options={"ligu": True}).value > 0
    assert why(state, "hu", ligu=True) == "ok"
    assert Move("hu") in legal_moves(state, {"ligu": True})
    assert why(claim("9s", hand="1133557799m2244p99s"), "hu", ligu=True) == "ok"
    assert why(state, "hu") == "not_a_win"
    assert Move("hu") not in legal_moves(state)
