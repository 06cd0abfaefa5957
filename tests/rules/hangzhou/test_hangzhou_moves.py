"""Move checks and legal moves (the spec's §3, §7 step 2), each refusal with its reason code."""

from __future__ import annotations

from typing import Any

import pytest
from hangzhou_api import TableView, legal_moves, validate_move

from mjcore import MahjongError, Move
from mjcore.tiles import tile_id

WAIT = "123m456m789p234s5s"  # waits on 2s and 5s
BAI = {"caishen_mode": "baiban"}


def claim(tile: str, pending_from: int = 3, hand: str = WAIT, **kw: Any) -> Any:
    kw.setdefault("dealer", 0)
    return TableView(seat=0, hand=hand, phase="claim", pending_tile=tile,
                     pending_from=pending_from, **kw)


def check(view: Any, move: str, options: Any = BAI) -> str:
    r = validate_move(view, Move.parse(move), options)
    assert bool(r) == (r.code == "")
    return r.code or "ok"


def test_chi_only_from_the_left_and_runs_with_a_baiban() -> None:
    """§3: chi only from 上家 (the seat before); in flip mode a 白板 plays as the 财神's kind,
    so 1m + 5z (= 3m) take a 2m."""
    v = claim("3p", hand="12p456m789p234s5s")
    assert check(v, "chi 1p 2p 3p") == "ok"
    assert check(claim("3p", pending_from=1, hand="12p456m789p234s5s"), "chi 1p 2p 3p") == \
        "chi_not_from_left"
    assert check(v, "chi 2p 3p 4p") == "tile_not_held"
    v = claim("2m", hand="1m5z456m789p234s55s", caishen="3m")
    assert Move.make("chi", "1m", "2m", "5z") in legal_moves(v, None)
    assert check(v, "chi 1m 2m 5z", None) == "ok"
    v = claim("2m", hand="1m3m456m789p234s55s", caishen="3m")
    assert check(v, "chi 1m 2m 3m", None) == "wild_in_meld"
    assert check(claim("2m", hand="1m5z456m789p234s55s", caishen="4m"), "chi 1m 2m 5z", None) \
        == "not_a_run"


def test_own_discard_wild_discard_and_lock() -> None:
    """A claim on one's own discard is not_your_turn; a discarded 财神 cannot be claimed; the
    财飘 lock stops every claim (a self-draw stays legal)."""
    v = claim("5s", pending_from=0, dealer_streak=2)
    assert check(v, "hu") == check(v, "peng 5s") == "not_your_turn"
    assert check(v, "pass") == "ok"
    v = claim("5z", hand="5z5z123m456m789p45s", dealer_streak=2)
    assert check(v, "peng 5z") == check(v, "hu") == "caishen_not_claimable"
    assert check(v, "peng 5z", {**BAI, "wild_discard_claimable": True}) == "wild_in_meld"
    v = claim("5s", hand="55s123m456m789p23s", dealer_streak=2, piao_lock=True)
    assert check(v, "peng 5s") == check(v, "hu") == "piao_lock"
    assert check(v, "peng 5s", {**BAI, "piao_lock": False}) == "ok"
    turn = TableView(seat=0, hand=WAIT + "5s", phase="turn", drawn_tile="5s", piao_lock=True)
    assert check(turn, "hu") == "ok"


def test_pass_names_no_tile_on_ones_own_discard_too() -> None:
    """§5: ``pass`` declines a claim and names no tile (``bad_move``), on one's own discard as
    on another seat's: the only pass there is the bare one ``legal_moves`` lists."""
    for frm in (0, 3):
        v = claim("5s", pending_from=frm, dealer_streak=2)
        assert check(v, "pass") == "ok"
        assert check(v, "pass 5s") == check(v, "pass 1m") == "bad_move"
        assert Move("pass") in legal_moves(v, BAI)


def test_fangchong_rules() -> None:
    """§3: discard wins only after 连庄 twice, and only to or from the dealer."""
    assert check(claim("5s", dealer_streak=0), "hu") == "pingzhuang"
    assert check(claim("5s", dealer_streak=1), "hu") == "pingzhuang"
    assert check(claim("5s", dealer_streak=1), "hu", {**BAI, "fangchong_min_streak": 1}) == "ok"
    assert check(claim("5s", dealer_streak=2), "hu") == "ok"  # winner is the dealer
    assert check(claim("5s", dealer=3, dealer_streak=2), "hu") == "ok"  # discarder is
    assert check(claim("5s", dealer=2, dealer_streak=5), "hu") == "xianjia_to_xianjia"
    assert check(claim("6s", dealer_streak=2), "hu") == "not_a_win"
    moves = legal_moves(claim("5s", dealer_streak=0, hand="55s123m456m789p23s"), BAI)
    assert Move("hu") not in moves and Move.make("peng", "5s") in moves


def test_louhu() -> None:
    """§3: a declined win on X blocks X from anyone until the next draw (or the whole hand with
    louhu_scope whole_hand); other waits stay winnable, and so does self-drawing X."""
    v = claim("5s", dealer_streak=2, passed_win_tiles=(tile_id("5s"),))
    assert check(v, "hu") == "louhu"
    assert check(claim("2s", dealer_streak=2, passed_win_tiles=(tile_id("5s"),)), "hu") == "ok"
    v = claim("5s", dealer_streak=2, passed_win_tiles_hand=(tile_id("5s"),))
    assert check(v, "hu") == "ok"
    assert check(v, "hu", {**BAI, "louhu_scope": "whole_hand"}) == "louhu"
    turn = TableView(seat=0, hand=WAIT + "5s", phase="turn", drawn_tile="5s",
                     passed_win_tiles=(tile_id("5s"),))
    assert check(turn, "hu") == "ok"
    # the tiles by text, as every other tile of a view (and as the service passes them)
    assert check(claim("5s", dealer_streak=2, passed_win_tiles=("5s",)), "hu") == "louhu"
    v = claim("5s", dealer_streak=2, passed_win_tiles_hand=("1m", "5s"))
    assert check(v, "hu", {**BAI, "louhu_scope": "whole_hand"}) == "louhu"
    with pytest.raises(MahjongError) as err:  # (a view refuses a bad tile when made)
        claim("5s", dealer_streak=2, passed_win_tiles=("9x",))
    assert err.value.code == "bad_state"


def test_turn_moves() -> None:
    """Own turn: discard any held tile (a 财神 too), kongs of naturals, a self-drawn hu; no
    kong of four 财神; no self-drawn hu after a claim; no robbing a kong."""
    v = TableView(seat=0, hand="5z5z5z5z123m456p789s2p", phase="turn", drawn_tile="2p")
    moves = legal_moves(v, BAI)
    assert Move.make("discard", "5z") in moves and Move.make("angang", "5z") not in moves
    assert check(v, "angang 5z") == "wild_in_meld"
    assert check(v, "hu") == "ok"  # four wilds: 2p pairs with one, three make a set
    assert check(v.replace(drew=False), "hu") == "wrong_phase"
    v = TableView(seat=0, hand="1111m23m456p789s22p", phase="turn", drawn_tile="1m")
    assert Move.make("angang", "1m") in legal_moves(v, BAI)
    assert check(v.replace(wall_count=0), "angang 1m") == "no_tiles_left"
    rob = TableView(seat=0, hand=WAIT, phase="rob", pending_tile="5s", pending_from=2,
                    pending_kind="bugang", dealer_streak=2)
    assert check(rob, "hu") == "cannot_rob_kong" and legal_moves(rob, BAI) == (Move("pass"),)
    assert check(claim("5s"), "discard 5s") == "not_your_turn"
    assert check(claim("5s"), "bogus") == "bad_move"


def test_piao_then_a_draw_is_baotou() -> None:
    """§5: after a 飘 the view's piao_count scores the 爆头 self-draw."""
    from mjcore.rules.hangzhou import win_context
    v = TableView(seat=1, hand="123m456p789s111z5z7p", phase="turn", drawn_tile="7p",
                  dealer=0, piao_count=1, claims_from=(3, 0, 0, 0))
    hand, tile, self_drawn, ctx = win_context(v)
    assert self_drawn and ctx["piao_count"] == 1 and ctx["claims_from"] == {"left": 3}
    assert ctx["dealer"] == "left" and check(v, "hu") == "ok"


def test_chengbao_counts_gang_in_the_view() -> None:
    """§8 option chengbao_counts_gang: the view's 直杠 count is added to its chi/peng claims."""
    from mjcore.rules import resolve_options
    from mjcore.rules.hangzhou import win_context
    v = TableView(seat=0, hand="123m456p789s111z5z7p", phase="turn", drawn_tile="7p",
                  claims_from=(0, 0, 0, 2), gangs_from=(0, 0, 0, 1))
    assert win_context(v)[3]["claims_from"] == {"left": 2}
    o = resolve_options("hangzhou", {"chengbao_counts_gang": True})
    assert win_context(v, o)[3]["claims_from"] == {"left": 3}


def test_chi_with_wilds_only_under_the_options() -> None:
    """With wild_in_melds a held wild may complete a chi, and with wild_discard_claimable too a
    discarded wild may be taken into one: offered exactly when accepted."""
    v = claim("2m", hand="1m3m456m789p234s55s", caishen="3m")
    both = {"wild_in_melds": True, "wild_discard_claimable": True}
    assert Move.make("chi", "1m", "2m", "3m") not in legal_moves(v, None)
    assert Move.make("chi", "1m", "2m", "3m") in legal_moves(v, {"wild_in_melds": True})
    v = claim("3m", hand="12m456m789p234s55s", caishen="3m")
    assert not [m for m in legal_moves(v, {"wild_in_melds": True}) if m.kind == "chi"]
    assert Move.make("chi", "1m", "2m", "3m") in legal_moves(v, both)
    for m in legal_moves(v, both):
        assert check(v, m.to_text(), both) == "ok"


def test_piao_count_on_a_hand_that_does_not_win() -> None:
    """After a 飘 every draw is an 爆头 win; a view whose hand does not win is refused as
    not_a_win, and one that wins but not as 爆头 is a malformed view (bad_state)."""
    import pytest

    from mjcore import MahjongError
    v = TableView(seat=0, hand="123m456p789s111z7p8p", phase="turn", drawn_tile="8p",
                  piao_count=1)
    assert check(v, "hu") == "not_a_win"
    v = TableView(seat=0, hand="123m456m789p234s55s", phase="turn", drawn_tile="5s",
                  piao_count=1)
    with pytest.raises(MahjongError) as err:
        validate_move(v, Move("hu"), BAI)
    assert err.value.code == "bad_state"
