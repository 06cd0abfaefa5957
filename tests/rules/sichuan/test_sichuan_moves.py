"""Move validation and legal moves over the stateless table view (§2), one test per code."""

from __future__ import annotations

from typing import Any

from sichuan_api import TableView, legal_moves, validate_move

from mjcore import Hand
from mjcore.table import Move


def view(hand: str, phase: str = "turn", **kw: Any) -> TableView:
    kw.setdefault("missing_suit", "s")
    return TableView(seat=0, hand=Hand.parse(hand), phase=phase, **kw)


def code(v: TableView, move: str, options: dict[str, object] | None = None) -> str:
    check = validate_move(v, Move.parse(move), options)
    assert bool(check) == check.ok
    if not check.ok:
        assert check.message
    return "ok" if check.ok else check.code


def claim(hand: str, tile: str, **kw: Any) -> TableView:
    from mjcore.tiles import tile_from_text

    return view(hand, "claim", pending_tile=tile_from_text(tile), pending_from=2, **kw)


TEN = "123m456m789m23p55p"  # ready on 1p/4p (after a discard of the 14th tile)
READY = "123m456m789m23p55p"


def test_move_text_round_trip() -> None:
    assert Move.parse("discard 5p") == Move("discard", (13,))
    assert Move.parse("ding_que s").suit == "s"
    assert Move.parse("exchange 1m 2m 3m").to_text() == "exchange 1m 2m 3m"


def test_not_your_turn() -> None:
    """§2 not_your_turn: discard outside one's turn; a claim with no discard pending."""
    v = view(READY[:-2] + "5p", "wait")
    assert code(v, "discard 5p") == "not_your_turn"
    v = view(READY + "9m")
    assert code(v, "peng 9m") == "not_your_turn"
    assert code(v, "pass") == "not_your_turn"


def test_already_won() -> None:
    """§2 already_won (血战): a seat that has won makes no move."""
    v = view(READY + "9m", has_won=True)
    assert code(v, "discard 9m") == "already_won"
    assert legal_moves(v) == ()


def test_wrong_phase() -> None:
    """§2 wrong_phase: discard before 定缺; 定缺 during play; peng on a bugang; peng on the
    discard after the last tile."""
    v = view("123m456m789m23p55p9m", "ding_que", missing_suit=None)
    assert code(v, "discard 9m") == "wrong_phase"
    assert code(view(READY + "9m"), "ding_que m") == "wrong_phase"
    rob = view("123m456m789m55p99p", "rob", pending_tile=17, pending_from=1,
               pending_kind="bugang")
    assert code(rob, "peng 9p") == "wrong_phase"
    last = claim("123m456m99m55p789p", "9m", wall_count=0)
    assert code(last, "peng 9m") == "wrong_phase"
    assert code(view(READY + "9m"), "exchange 1m 2m 3m") == "wrong_phase"


def test_tile_not_held() -> None:
    """§2 tile_not_held."""
    v = view(READY + "9m")
    assert code(v, "discard 9p") == "tile_not_held"
    assert code(v, "angang 5p") == "tile_not_held"
    assert code(v, "bugang 5p") == "tile_not_held"
    assert code(claim("123m456m789m23p55p", "9m"), "peng 9m") == "tile_not_held"


def test_missing_suit_first() -> None:
    """§2 missing_suit_first (option discard_missing_first, default on)."""
    v = view("123m456m789m23p55p9s")
    assert code(v, "discard 9m") == "missing_suit_first"
    assert code(v, "discard 9s") == "ok"
    assert code(v, "discard 9m", {"discard_missing_first": False}) == "ok"


def test_missing_suit_claim() -> None:
    """§2 missing_suit_claim: peng/gang/hu of a tile of the 缺门."""
    v = claim("123m456m789m23p55s", "5s")
    assert code(v, "peng 5s") == "missing_suit_claim"
    assert code(v, "hu") == "missing_suit_claim"


def test_not_a_win() -> None:
    """§2 not_a_win: no winning shape, or the hand still holds a 缺门 tile."""
    assert code(view("123m456m789m23p55p9m"), "hu") == "not_a_win"
    assert code(view("123m456m789m234p5s5s", missing_suit="s"), "hu") == "not_a_win"
    assert code(claim(READY, "9p"), "hu") == "not_a_win"
    assert code(claim(READY, "1p"), "hu") == "ok"


def test_guoshui() -> None:
    """§2 guoshui: after declining a discard win, only a higher fan may win until the next
    draw; option guoshui off lifts it."""
    v = claim(READY, "1p", guoshui_fan=0)
    assert code(v, "hu") == "guoshui"
    assert code(v, "hu", {"guoshui": False}) == "ok"
    v = claim("111m555m777m33p66p", "3p", guoshui_fan=0)  # 对对胡 1 > 0
    assert code(v, "hu") == "ok"
    assert Move("hu") not in legal_moves(claim(READY, "1p", guoshui_fan=0))


def test_must_win() -> None:
    """§2 must_win: a win on one of the wall's last four tiles (drawn when 4 or fewer were left
    before the draw, so at most 3 are left now, or the discard of such a tile) must be taken."""
    v = claim(READY, "1p", wall_count=3)
    assert code(v, "pass") == "must_win"
    assert legal_moves(v) == (Move("hu"),)
    assert code(v, "pass", {"last_four_must_win": False}) == "ok"
    # the discarded tile was drawn with five left before the draw: not one of the last four
    assert code(claim(READY, "1p", wall_count=4), "pass") == "ok"
    # Decision: on one's own turn too, the self-drawn win must be taken
    v = view("123m456m789m234p55p", wall_count=3, drawn_tile=13)
    assert code(v, "discard 1m") == "must_win"
    assert code(view("123m456m789m234p55p", wall_count=4, drawn_tile=13), "discard 1m") == "ok"


def test_no_tiles_left() -> None:
    """§2 no_tiles_left: a kong needs a replacement tile."""
    assert code(view("1111m456m789m23p55p", wall_count=0), "angang 1m") == "no_tiles_left"
    assert code(claim("111m456m789m23p55p", "1m", wall_count=0), "gang 1m") == "no_tiles_left"


def test_cannot_rob_angang() -> None:
    """§2 cannot_rob_angang: only a bugang can be robbed."""
    v = view(READY, "rob", pending_tile=9, pending_from=1, pending_kind="angang")
    assert code(v, "hu") == "cannot_rob_angang"
    v = view(READY, "rob", pending_tile=9, pending_from=1, pending_kind="bugang")
    assert code(v, "hu") == "ok"


def test_chi_not_allowed() -> None:
    """§2 chi_not_allowed: there is no chi."""
    assert code(claim("123m456m789m23p55p", "1p"), "chi 1p 2p 3p") == "chi_not_allowed"


def test_bad_move() -> None:
    v = view(READY + "9m")
    assert code(v, "discard") == "bad_move"
    assert validate_move(v, Move("fly")).code == "bad_move"
    assert code(view(READY + "9m", "ding_que", missing_suit=None), "ding_que z") == "bad_move"


def test_legal_moves_turn() -> None:
    """Own turn: every discard (missing suit first), kongs, self-drawn hu."""
    v = view("1111m456m789m23p55p")
    moves = set(legal_moves(v))
    assert Move("angang", (0,)) in moves and Move("discard", (0,)) in moves
    assert Move("hu") not in moves
    v = view("123m456m789m234p55p", drawn_tile=13)
    assert Move("hu") in legal_moves(v)
    v = view("123m456m789m234p55p", drew=False)  # after a peng: no self-drawn win
    assert Move("hu") not in legal_moves(v)
    assert code(v, "hu") == "wrong_phase"


def test_legal_moves_claim() -> None:
    """A discard: hu beats gang/peng (all offered), pass."""
    v = claim("111p456m789m23p55p", "1p")
    assert set(legal_moves(v)) == {Move("gang", (9,)), Move("peng", (9,)), Move("pass"),
                                   Move("hu")}


def test_bugang_and_rob() -> None:
    """§2: bugang from a peng; a bugang opens a window where others may only hu or pass."""
    v = view("123m456m23p555p4s peng:999m", missing_suit="s")
    assert code(v, "bugang 9m") == "tile_not_held"
    v = view("123m456m23p55p9m peng:999m")
    assert code(v, "bugang 9m") == "ok"
    rob = view(READY, "rob", pending_tile=12, pending_from=1, pending_kind="bugang")
    assert set(legal_moves(rob)) == {Move("hu"), Move("pass")}


def test_exchange_three() -> None:
    """§1.2 换三张: three tiles of one suit, only with the option on."""
    v = view("1234m456p789p23s55s", "exchange", missing_suit=None)
    assert code(v, "exchange 1m 2m 3m") == "wrong_phase"
    opts = {"exchange_three": True}
    assert code(v, "exchange 1m 2m 3m", opts) == "ok"
    assert code(v, "exchange 1m 2m 4p", opts) == "bad_move"
    assert code(v, "exchange 1m 1m 2m", opts) == "tile_not_held"
    moves = legal_moves(v, opts)
    assert Move("exchange", (0, 1, 2)) in moves
    assert all(len({t // 9 for t in m.tiles}) == 1 for m in moves)
    assert legal_moves(v) == ()


def test_ding_que() -> None:
    """§1.3 定缺: one of the three suits."""
    v = view("1234m456p789p23s55s", "ding_que", missing_suit=None)
    assert {m.suit for m in legal_moves(v)} == {"m", "p", "s"}


def test_heavenly_context_from_view() -> None:
    """The dealer's first 14 tiles winning are 天胡."""
    from mjcore.rules.sichuan import win_context

    v = view("123m456m789m123p99p", first_draw=True, dealer=0)
    _, _, self_drawn, ctx = win_context(v)
    assert self_drawn and ctx["heavenly"] is True
    v = view("123m456m789m123p99p", first_draw=True, dealer=1)
    assert win_context(v)[3]["earthly"] is True
    v = view("123m456m789m123p99p", first_draw=True, dealer=1, any_meld=True)
    assert "earthly" not in win_context(v)[3]


def test_malformed_view_is_bad_state() -> None:
    """A view that cannot exist is refused as input (bad_state), not as a move."""
    import pytest

    from mjcore import MahjongError
    from mjcore.rules.sichuan import SichuanView

    for changes in ({"phase": "lunch"}, {"seat": 5}, {"rules": SichuanView(missing_suit="z")},
                    {"rules": "s"}, {"pending_kind": "chi"}, {"wall_count": -1}):
        v = view(READY + "9m").replace(**changes)
        with pytest.raises(MahjongError) as err:
            validate_move(v, Move.parse("discard 9m"))
        assert err.value.code == "bad_state"
        with pytest.raises(MahjongError):
            legal_moves(v)


def test_claim_priority() -> None:
    """§2 claim priority: hu beats gang/peng; several seats may all hu (一炮多响)."""
    from mjcore.rules.sichuan import resolve_claims

    hu, peng, gang, pas = Move("hu"), Move("peng", (4,)), Move("gang", (4,)), Move("pass")
    assert resolve_claims(1, {2: peng, 3: hu, 0: hu}) == ((3, hu), (0, hu))
    assert resolve_claims(1, {2: pas, 3: gang, 0: pas}) == ((3, gang),)
    assert resolve_claims(1, {2: peng, 3: pas}) == ((2, peng),)
    assert resolve_claims(1, {2: pas}) == ()


def test_a_view_whose_win_cannot_be_scored_is_bad_state() -> None:
    """§4 and decision 24: a malformed view raises ``bad_state``: a turn hand of the wrong size
    (it raised ``wrong_tile_count``) or a kong fed by the acting seat itself (``bad_context``),
    for ``hu`` and for ``legal_moves``, which asks about ``hu``."""
    import pytest

    from mjcore import MahjongError

    short = view("123m456m789m23p5p", drawn_tile=13)
    self_fed = view("123m456m789m55p gang:2222p", drawn_tile=13, after_kong=True, kong_feeder=0)
    for v in (short, self_fed):
        for ask in (lambda v=v: validate_move(v, Move("hu")), lambda v=v: legal_moves(v)):
            with pytest.raises(MahjongError) as err:
                ask()
            assert err.value.code == "bad_state"
    fed = view("123m456m789m55p gang:2222p", drawn_tile=13, after_kong=True, kong_feeder=2)
    assert code(fed, "hu") == "ok"
