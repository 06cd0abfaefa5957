"""Wrong types and odd values anywhere in the Guangdong API raise MahjongError, never a
TypeError/AttributeError/ValueError/KeyError of Python's own (a service would answer INTERNAL)."""

from __future__ import annotations

import random
from typing import Any

from guangdong_api import (
    SOUTH,
    TableView,
    largest_wait,
    legal_moves,
    score,
    settle,
    validate_move,
    valued_waits,
)

from mjcore import Hand, MahjongError
from mjcore.rules.guangdong import GuangdongView, resolve_claims
from mjcore.table import Kong, Move, WallEmpty, Win

WRONG: list[Any] = [None, 5, -1, 2**70, 3.5, "", "x", "5q", b"5p", [], [1, 2], {}, {"a": 1},
                    (1,), object(), True, False, float("nan"), ["5p"], ["left"] * 5,
                    [None] * 34, "left", "9z", "1z", 0, 3, 4, [["left"]], {"left": 1}]
CONTEXT_KEYS = ("seat_wind", "round_wind", "winner", "discarder", "qiang_gang", "robbed",
                "gang_shang_kai_hua", "gang_fed_by", "hai_di_lao_yue", "winners_on_discard",
                "tianhe", "renhe", "dihe", "meld_from", "bao_exempt", "nonsense")
OPTIONS = ("baohu_cap", "min_fan", "qidui", "qidui_fan", "hunyise_pinghu_stack", "menqing_fan",
           "tian_di_ren_he", "multi_ron", "sanxiang_min_winners", "fan_points", "base_points",
           "discard_payment", "bao_shierzhang", "bao_scope", "bao_dasixi_dasanyuan")


def call(bad: list[str], what: str, fn: Any, *args: Any, **kw: Any) -> None:
    try:
        fn(*args, **kw)
    except MahjongError as e:
        assert e.code and e.message
    except Exception as e:  # noqa: BLE001
        bad.append(f"{what}: {type(e).__name__}: {e}")


def test_wrong_types_everywhere() -> None:
    bad: list[str] = []
    win = "55m chi:123p peng:777s peng:999m chi:456s"
    ready = "123m456m789p23s55s"
    view = TableView(seat=1, hand=Hand.parse("123m456m789p234s5s"), phase="turn")
    for x in WRONG:
        call(bad, "score hand", score, x, win_tile="5m", context=SOUTH)
        call(bad, "score tile", score, win, win_tile=x, context=SOUTH)
        call(bad, "score self_drawn", score, win, win_tile="5m", self_drawn=x, context=SOUTH)
        call(bad, "score context", score, win, win_tile="5m", context=x)
        call(bad, "score options", score, win, win_tile="5m", context=SOUTH, options=x)
        call(bad, "score preset", score, win, win_tile="5m", context=SOUTH, preset=x)
        for key in CONTEXT_KEYS:
            for sd in (False, True):
                call(bad, f"score context {key}={x!r:.20}", score, win, win_tile="5m",
                     self_drawn=sd, context={**SOUTH, "discarder": "left", key: x})
        for name in OPTIONS:
            call(bad, f"score option {name}", score, win, win_tile="5m", self_drawn=True,
                 context={**SOUTH, "meld_from": ["left"] * 4}, options={name: x})
        call(bad, "waits hand", valued_waits, x, context=SOUTH)
        call(bad, "waits visible", valued_waits, ready, context=SOUTH, visible=x)
        call(bad, "waits context", valued_waits, ready, context=x)
        call(bad, "largest", largest_wait, x, context=SOUTH)
        call(bad, "validate state", validate_move, x, Move("pass"))
        call(bad, "validate move", validate_move, view, x)
        call(bad, "validate options", validate_move, view, Move("hu"), x)
        call(bad, "legal options", legal_moves, view, x)
        for field in ("round_wind", "meld_from", "bao_exempt"):
            call(bad, f"view {field}", validate_move,
                 view.replace(rules=GuangdongView(**{field: x})), Move("hu"))
        call(bad, "view rules", validate_move, view.replace(rules=x), Move("pass"))
        call(bad, "settle events", settle, x)
        call(bad, "settle event", settle, [x])
        call(bad, "settle win", settle, [Win(0, win, x, True, context=SOUTH)])
        call(bad, "settle win ctx", settle, [Win(0, win, "5m", True, context=x)])
        call(bad, "settle win discarder", settle, [Win(0, ready + "5s", "5s", False, x,
                                                       context={"round_wind": "1z"})])
        call(bad, "settle kong", settle, [Kong(x, "gang", 5, fed_by=1)])
        call(bad, "settle kong fed", settle, [Kong(0, "gang", 5, fed_by=x)])
        call(bad, "settle wall", settle, [WallEmpty(x)])
        call(bad, "settle dealer", settle, [], dealer=x)
    assert not bad, "\n".join(bad[:20])


def test_random_moves_on_random_views() -> None:
    """Random moves on random (valid) views: validate_move answers, never raises, and agrees
    with legal_moves."""
    rng = random.Random(5)
    kinds = ("discard", "chi", "peng", "gang", "angang", "bugang", "hu", "pass", "fly")
    for _ in range(400):
        tiles = rng.sample([t for t in range(34) for _ in range(4)], 14)
        phase = rng.choice(("turn", "claim", "rob", "wait", "ended"))
        counts = [0] * 34
        for t in tiles[:14 if phase == "turn" else 13]:
            counts[t] += 1
        pending = tiles[13] if phase in ("claim", "rob") else None
        view = TableView(seat=rng.randrange(4), hand=Hand(counts), phase=phase,
                         pending_tile=pending, pending_from=rng.randrange(4) if pending is not None
                         else None, pending_kind=rng.choice(("discard", "bugang", "angang"))
                         if phase == "rob" else "discard", wall_count=rng.choice((0, 1, 50)))
        try:
            legal = set(legal_moves(view))
        except MahjongError as e:
            assert e.code == "bad_state"
            continue
        for _ in range(10):
            kind = rng.choice(kinds)
            t = rng.randrange(34)
            move = Move(kind, (t, t + 1, t + 2) if kind == "chi" else () if kind == "pass"
                        else (t,))
            check = validate_move(view, move)
            assert check.ok == (move in legal or (kind == "hu" and Move("hu") in legal)), \
                (view, move, check)


def test_resolve_claims_shapes() -> None:
    from mjcore.rules import resolve_options

    assert resolve_claims(0, {1: Move("pass"), 2: Move("pass")}) == ()
    assert resolve_claims(0, {}, resolve_options("guangdong")) == ()
