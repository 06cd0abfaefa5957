"""Bad input anywhere in the Taiwan API raises a coded MahjongError, never a Python error of
its own: wrong types, random text, random mutations of valid hands and contexts."""

from __future__ import annotations

import random
from typing import Any

from taiwan_api import (
    BASE,
    DISCARD,
    TableView,
    legal_moves,
    score,
    settle,
    validate_move,
    valued_waits,
)

from mjcore import Hand, MahjongError
from mjcore.table import HandStart, Kong, Move, WallEmpty, Win

WRONG: list[Any] = [None, 5, -1, 2**70, 3.5, "", "x", "5q", "9f", "0m", b"5p", [], [1, 2], {},
                    {"a": 1}, (1,), object(), True, float("nan"), ["5p"], [None] * 34,
                    ["a"] * 34, "1f" * 40, "left", "self"]
PINGHU = "123m456m789m234p567p99s"
READY = "123m456m789m23p567p99s"
CODES = {"bad_notation", "bad_meld", "bad_tile", "tile_count", "bad_option", "bad_context",
         "not_a_win", "below_min_tai", "unknown_ruleset", "bad_state", "bad_event"}


def call(bad: list[str], what: str, fn: Any, *args: Any, **kw: Any) -> None:
    try:
        fn(*args, **kw)
    except MahjongError as e:
        if e.code not in CODES or not e.message:
            bad.append(f"{what}: uncoded {e!r}")
    except Exception as e:  # noqa: BLE001
        bad.append(f"{what}: {type(e).__name__}: {e}")


def test_wrong_types_everywhere() -> None:
    bad: list[str] = []
    view = TableView(seat=0, hand=Hand.parse(READY + "9m"), phase="turn", drawn_tile=8)
    for x in WRONG:
        call(bad, "hand", score, x, win_tile="4p", context=DISCARD)
        call(bad, "tile", score, PINGHU, win_tile=x, context=DISCARD)
        call(bad, "self_drawn", score, PINGHU, win_tile="4p", self_drawn=x, context=DISCARD)
        call(bad, "context", score, PINGHU, win_tile="4p", context=x)
        call(bad, "options", score, PINGHU, win_tile="4p", context=DISCARD, options=x)
        call(bad, "preset", score, PINGHU, win_tile="4p", context=DISCARD, preset=x)
        for key in ("seat_wind", "round_wind", "dealer", "dealer_streak", "discarder",
                    "flowers", "qiang_gang", "replacement_after", "ting", "flower_win",
                    "winner", "tianhu"):
            call(bad, f"context {key}", score, PINGHU, win_tile="4p",
                 context={**DISCARD, key: x})
        for opt in ("di", "duting", "cap_tai", "ligu", "pinghu_tai"):
            call(bad, f"option {opt}", score, PINGHU, win_tile="4p", context=DISCARD,
                 options={opt: x})
        call(bad, "waits hand", valued_waits, x, context=BASE)
        call(bad, "waits context", valued_waits, READY, context=x)
        call(bad, "waits visible", valued_waits, READY, context=BASE, visible=x)
        call(bad, "validate state", validate_move, x, Move("pass"))
        call(bad, "validate move", validate_move, view, x)
        call(bad, "validate tiles", validate_move, view, Move("discard", (x,)))  # type: ignore
        call(bad, "legal", legal_moves, x)
        call(bad, "view part", lambda v: legal_moves(TableView(seat=0, hand=Hand.parse(
            READY + "9m"), phase="turn", seat_wind=v, flowers=v if isinstance(v, str) else ())),
            x)
        call(bad, "settle", settle, x)
        call(bad, "settle event", settle, [HandStart(0), x])
        call(bad, "settle win", settle, [Win(0, x, "4p", True, context=BASE)])
        call(bad, "settle kong", settle, [Kong(x, "gang", 3)])
        call(bad, "settle wall", settle, [WallEmpty(x)])
    assert not bad, "\n".join(bad[:20])


def test_random_text_and_mutations() -> None:
    rng = random.Random(7)
    alphabet = "0123456789mpszf :chipengangbu"
    bad: list[str] = []
    for _ in range(1500):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        call(bad, f"text {text!r}", score, text, win_tile="4p", context=DISCARD)
        chars = list(PINGHU + " chi:567p")
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(chars))
            chars[i] = rng.choice(alphabet)
        mutated = "".join(chars)
        call(bad, f"mutated {mutated!r}", score, mutated, win_tile="4p", context=DISCARD)
        ctx = dict(DISCARD)
        key = rng.choice(["seat_wind", "dealer", "discarder", "flowers", "ting", "flower_win",
                          "replacement_after", "gang_shang_kai_hua", "dealer_streak"])
        ctx[key] = rng.choice(WRONG + ["1z", "5z", "right", "tian", "baxian", "gang", "1234f"])
        call(bad, f"context {ctx}", score, PINGHU, win_tile=rng.choice(["4p", "8f", "1z"]),
             self_drawn=rng.random() < 0.5, context=ctx)
    assert not bad, "\n".join(bad[:20])
