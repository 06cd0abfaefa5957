"""Wrong types and odd values anywhere in the rule-set API raise MahjongError, never a
TypeError/AttributeError/ValueError of Python's own."""

from __future__ import annotations

import random
from typing import Any

from sichuan_api import (
    TableView,
    largest_wait,
    legal_moves,
    score,
    settle,
    validate_move,
    valued_waits,
)

from mjcore import Hand, MahjongError
from mjcore.rules import describe_ruleset
from mjcore.rules.sichuan import SichuanView
from mjcore.table import Kong, Move, WallEmpty, Win

WRONG: list[Any] = [None, 5, -1, 2**70, 3.5, "", "x", "5q", b"5p", [], [1, 2], {}, {"a": 1},
                    (1,), object(), True, float("nan"), ["5p"], {"winner": "x"}, [None] * 34,
                    ["a"] * 34]


def call(bad: list[str], what: str, fn: Any, *args: Any, **kw: Any) -> None:
    try:
        fn(*args, **kw)
    except MahjongError as e:
        assert e.code and e.message
    except Exception as e:  # noqa: BLE001
        bad.append(f"{what}: {type(e).__name__}: {e}")


def test_wrong_types_everywhere() -> None:
    bad: list[str] = []
    win = "123m456m789m234p55p"
    ready = "123m456m789m234p5p"
    view = TableView(seat=0, hand=Hand.parse(ready + "9m"), phase="turn", missing_suit="s")
    for x in WRONG:
        call(bad, "score hand", score, x, win_tile="5p")
        call(bad, "score tile", score, win, win_tile=x)
        call(bad, "score context", score, win, win_tile="5p", context=x)
        call(bad, "score options", score, win, win_tile="5p", options=x)
        call(bad, "score preset", score, win, win_tile="5p", preset=x)
        call(bad, "score ruleset", score, win, win_tile="5p", ruleset=x)
        call(bad, "score option value", score, win, win_tile="5p", options={"cap_fan": x})
        call(bad, "score context value", score, win, win_tile="5p",
             context={"active_seats": x})
        call(bad, "waits hand", valued_waits, x)
        call(bad, "waits visible", valued_waits, ready, visible=x)
        call(bad, "waits context", valued_waits, ready, context=x)
        call(bad, "largest", largest_wait, x)
        call(bad, "describe", describe_ruleset, x)
        call(bad, "validate state", validate_move, x, Move("pass"))
        call(bad, "validate move", validate_move, view, x)
        call(bad, "validate options", validate_move, view, Move("pass"), x)
        call(bad, "legal state", legal_moves, x)
        call(bad, "move tiles", validate_move, view, Move("discard", (x,)))
        call(bad, "hu tile", validate_move, view, Move("hu", (x,)))
        call(bad, "move kind", validate_move, view, Move(x, ()))
        call(bad, "move suit", validate_move, view.replace(phase="ding_que"),
             Move("ding_que", (), x))
        for field in ("seat", "hand", "phase", "pending_tile", "pending_kind", "wall_count",
                      "missing_suit", "drawn_tile", "guoshui_fan", "active_seats", "dealer",
                      "rules"):
            try:  # a view refused when built (a tile or hand text that is not one) is fine too
                if field in ("missing_suit", "guoshui_fan"):
                    v = view.replace(rules=SichuanView(**{field: x}))
                else:
                    v = view.replace(**{field: x})
            except MahjongError:
                continue
            call(bad, f"view.{field}", validate_move, v, Move("pass"))
            call(bad, f"view.{field} legal", legal_moves, v)
        call(bad, "settle events", settle, x)
        call(bad, "settle item", settle, [x])
        call(bad, "settle dealer", settle, [], dealer=x)
        call(bad, "win hand", settle, [Win(0, x, "5p")])
        call(bad, "win tile", settle, [Win(0, win, x)])
        call(bad, "win discarder", settle, [Win(0, win, "5p", discarder=x)])
        call(bad, "win context", settle, [Win(0, win, "5p", self_drawn=True, context=x)])
        call(bad, "win feeder", settle, [Win(0, win, "5p", self_drawn=True, kong_feeder=x)])
        call(bad, "kong", settle, [Kong(x, "angang", 1)])
        call(bad, "kong kind", settle, [Kong(0, x, 1)])
        call(bad, "kong feeder", settle, [Kong(0, "gang", 1, fed_by=x)])
        call(bad, "wall empty", settle, [WallEmpty(x)])
        call(bad, "wall empty hand", settle, [WallEmpty((x, x, x, x))])
    assert not bad, "\n".join(bad[:30])


def test_random_views_never_crash() -> None:
    """Random (possibly inconsistent) views: validate_move and legal_moves answer or raise
    MahjongError, and never disagree."""
    rng = random.Random(5)
    phases = ("exchange", "ding_que", "turn", "claim", "rob", "wait", "ended")
    for _ in range(3000):
        tiles = [rng.randrange(27) for _ in range(rng.choice((13, 14)))]
        counts = [0] * 34
        for t in tiles:
            if counts[t] < 4:
                counts[t] += 1
        v = TableView(
            seat=rng.randrange(4), hand=Hand(counts), phase=rng.choice(phases),
            missing_suit=rng.choice((None, "m", "p", "s")),
            pending_tile=rng.choice((None, rng.randrange(27))), pending_from=rng.randrange(4),
            pending_kind=rng.choice(("discard", "bugang", "angang")),
            wall_count=rng.randrange(0, 10), guoshui_fan=rng.choice((None, 0, 1)),
            drew=rng.random() < 0.8, has_won=rng.random() < 0.1,
        )
        opts = rng.choice((None, {"exchange_three": True}))
        try:
            legal = set(legal_moves(v, opts))
        except MahjongError:
            continue
        for m in legal:
            assert validate_move(v, m, opts).ok, (v, m)
        kind = rng.choice(("discard", "peng", "gang", "angang", "bugang", "hu", "pass"))
        m = Move(kind, () if kind in ("hu", "pass") else (rng.randrange(27),))
        try:
            check = validate_move(v, m, opts)
        except MahjongError:
            continue
        assert check.ok == (m in legal), (v, m, check)
