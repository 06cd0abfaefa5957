"""Wuhan moves (wuhan.md §2-§3): chi from the left, peng, gang, the one-tile kongs on one's own
turn, hu; 痞子/赖子 never claimed; the 海底; reason codes as data."""

from __future__ import annotations

import pytest
from wuhan_api import TableView, legal_moves, score, validate_move

from mjcore import MahjongError
from mjcore.rules import describe_ruleset
from mjcore.rules.wuhan import win_context
from mjcore.table import Move
from mjcore.table import TableView as PlainView

M = Move.make


def refused(view: object, move: Move) -> str:
    check = validate_move(view, move)
    assert not check.ok and check.message
    return check.code


def test_turn_lays_pizi_and_laizi_aside_instead_of_discarding() -> None:
    v = TableView(seat=0, hand="123m456p78s11z7z9p55m", phase="turn", drawn_tile="5m")
    moves = set(legal_moves(v))
    assert {M("pizigang", "7z"), M("laizigang", "9p")} <= moves
    assert M("discard", "7z") not in moves and M("discard", "9p") not in moves
    assert M("discard", "1m") in moves and M("hu") not in moves and M("pass") not in moves
    assert refused(v, M("discard", "7z")) == "lay_aside"
    assert refused(v, M("pizigang", "1z")) == "bad_move"
    assert refused(v, M("laizigang", "7z")) == "bad_move"
    assert refused(v, M("pass")) == "wrong_phase"
    # with no replacement tile outside the 海底 they may be discarded (and nobody claims them)
    late = v.replace(wall_count=4)
    assert refused(late, M("pizigang", "7z")) == "no_tiles_left"
    assert validate_move(late, M("discard", "7z")).ok


def test_kongs_on_ones_turn() -> None:
    v = TableView(seat=0, hand="1111m456p78s2s5m peng:222s", phase="turn", drawn_tile="2s")
    moves = set(legal_moves(v))
    assert {M("angang", "1m"), M("bugang", "2s")} <= moves
    v = TableView(seat=0, hand="9999p456p7s1m55m chi:123s", phase="turn")
    assert refused(v, M("angang", "9p")) == "laizi_in_meld"
    assert M("laizigang", "9p") in legal_moves(v)


def test_the_haidi_allows_only_a_self_drawn_win_or_pass() -> None:
    hand = "456p789s345s55m chi:123m"
    v = TableView(seat=0, hand=hand, phase="turn", drawn_tile="5m", wall_count=3)
    assert set(legal_moves(v)) == {M("hu"), M("pass")}
    assert refused(v, M("discard", "4p")) == "haidi"
    assert refused(v, M("pizigang", "4p")) == "haidi"
    h, tile, self_drawn, ctx = win_context(v)
    assert ctx["hai_di"] is True and self_drawn
    assert [p.id for p in score(h, win_tile=tile, self_drawn=True, context=ctx).patterns][0] \
        == "haidilao"
    # not a win: pass only
    v = TableView(seat=0, hand="456p789s345s33m chi:123m", phase="turn", drawn_tile="3m",
                  wall_count=0)
    assert legal_moves(v) == (M("pass"),)


def test_self_drawn_hu_and_its_refusals() -> None:
    v = TableView(seat=0, hand="456p789s345s55m chi:123m pizigang:7z", phase="turn",
                  drawn_tile="5m", after_kong=True)
    assert M("hu") in legal_moves(v)
    assert win_context(v)[3]["gang_shang_hua"] is True
    v = TableView(seat=0, hand="123m456p789s345s55m", phase="turn", drawn_tile="5m")
    assert refused(v, M("hu")) == "must_open"
    v = TableView(seat=0, hand="456p789s34s55m7z chi:123m", phase="turn", drawn_tile="5m")
    assert refused(v, M("hu")) == "pizi_in_hand"
    v = TableView(seat=0, hand="456p789s345s33m chi:123m", phase="turn", drawn_tile="3m")
    assert refused(v, M("hu")) == "not_a_win"
    v = TableView(seat=0, hand="456p789s345s55m chi:123m", phase="turn", drew=False)
    assert refused(v, M("hu")) == "wrong_phase"


def test_claims() -> None:
    hand = "13m456p789s345s5m9p"  # 13 tiles, 赖子 9p
    left = TableView(seat=1, hand=hand, phase="claim", pending_tile="2m", pending_from=0)
    moves = set(legal_moves(left))
    assert M("chi", "1m", "2m", "3m") in moves and M("pass") in moves
    across = left.replace(pending_from=3)  # seat 3 sits across from seat 1
    assert refused(across, M("chi", "1m", "2m", "3m")) == "chi_not_from_left"
    assert refused(left, M("chi", "2m", "3m", "4m")) == "tile_not_held"
    assert refused(left, M("chi", "1m", "3m", "5m")) == "bad_move"
    # a chi holding the 赖子 is refused; so is claiming a 赖子 or a 痞子
    v = TableView(seat=1, hand="89p5m456p789s345s1m", phase="claim", pending_tile="7p",
                  pending_from=0)
    assert refused(v, M("chi", "7p", "8p", "9p")) == "laizi_in_meld"
    for tile in ("9p", "7z"):
        v = TableView(seat=1, hand="99p77z456p789s34s1m", phase="claim", pending_tile=tile,
                      pending_from=0)
        for move in (M("peng", tile), M("gang", tile), M("hu")):
            assert refused(v, move) == "not_claimable"
    v = TableView(seat=2, hand="55m456p789s345s11z", phase="claim", pending_tile="5m",
                  pending_from=0)
    assert {M("peng", "5m"), M("pass")} <= set(legal_moves(v))
    assert refused(v, M("gang", "5m")) == "tile_not_held"
    v = TableView(seat=2, hand="555m456p789s34s11z", phase="claim", pending_tile="5m",
                  pending_from=0)
    assert M("gang", "5m") in legal_moves(v)
    assert refused(v.replace(wall_count=4), M("gang", "5m")) == "no_tiles_left"


def test_a_claim_on_ones_own_discard_is_not_your_turn() -> None:
    v = TableView(seat=0, hand="456p789s345s5m chi:123m", phase="claim", pending_tile="5m",
                  pending_from=0)
    for move in (M("hu"), M("peng", "5m"), M("chi", "3m", "4m", "5m")):
        assert refused(v, move) == "not_your_turn"
    assert legal_moves(v) == (M("pass"),)


def test_discard_win_and_rob() -> None:
    hand = "456p789s345s5m chi:123m"
    v = TableView(seat=2, hand=hand, phase="claim", pending_tile="5m", pending_from=1,
                  seat_melds=("", "peng:111s angang:2222p", "", ""))
    assert M("hu") in legal_moves(v)
    h, tile, self_drawn, ctx = win_context(v)
    assert ctx["discarder"] == "left" and ctx["payer_melds"] == {"left": "peng:111s angang:2222p"}
    r = score(h, win_tile=tile, self_drawn=self_drawn, context=ctx)
    assert r.payments == ((1, 2, 32),)
    rob = TableView(seat=2, hand=hand, phase="rob", pending_tile="5m", pending_from=0,
                    pending_kind="bugang")
    assert set(legal_moves(rob)) == {M("hu"), M("pass")}
    assert win_context(rob)[3]["robbed"] == "across"
    assert refused(rob, M("peng", "5m")) == "wrong_phase"
    assert refused(rob.replace(pending_kind="angang"), M("hu")) == "cannot_rob"


def test_meld_from_and_indicator_in_the_view() -> None:
    v = TableView(seat=0, hand="789m55m chi:123m peng:444m chi:567m", phase="turn",
                  drawn_tile="5m", laizi=None, indicator="7z", meld_from=(3, 3, 3))
    h, tile, self_drawn, ctx = win_context(v)
    assert ctx["meld_from"] == ["left", "left", "left"] and ctx["indicator"] == "7z"
    r = score(h, win_tile=tile, self_drawn=self_drawn, context=ctx)
    assert r.liable == "fangsanpu" and r.payments == ((3, 0, 120),)


def test_bad_views() -> None:
    with pytest.raises(MahjongError) as err:
        validate_move(PlainView(seat=0, hand="123m", phase="turn"), M("discard", "1m"))
    assert err.value.code == "bad_state"
    for bad in ({"laizi": "zz"}, {"laizi": None}, {"meld_from": (5,)},
                {"meld_from": (1, 2)}, {"seat_melds": ("",)}, {"laizi": "7z"},
                {"seat_melds": ("", "55m", "", "")}, {"seat_melds": ("", "peng:12m", "", "")}):
        with pytest.raises(MahjongError) as err:
            legal_moves(TableView(seat=0, hand="55m456p789s345s1m chi:123m", phase="turn",
                                  **bad))
        assert err.value.code == "bad_state", bad
    assert refused(TableView(seat=0, hand="55m", phase="turn"), Move("fly")) == "bad_move"


def test_reason_codes_are_data() -> None:
    codes = {r["id"] for r in describe_ruleset("wuhan")["reason_codes"]}
    assert {"not_your_turn", "chi_not_from_left", "not_claimable", "laizi_in_meld", "lay_aside",
            "haidi", "no_tiles_left", "cannot_rob", "not_a_win", "must_open", "pizi_in_hand",
            "below_min_points", "bad_move", "wrong_phase", "tile_not_held"} == codes
    kinds = {m["id"] for m in describe_ruleset("wuhan")["move_kinds"]}
    assert {"pizigang", "laizigang", "chi", "pass"} <= kinds
