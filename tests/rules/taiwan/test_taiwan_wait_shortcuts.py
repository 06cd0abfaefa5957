"""The shortcuts of Taiwan's cold waits (docs/rulesets/taiwan.md §7, "Waits, never seen"),
held to the Python path: the two contexts of a waits question share what fails on a
reading's features and each finds what fails on its own bits once (flat rows, 天胡/地胡/人胡,
only where no byte fails); a part of one plain value is found in place (``PartSlot``: by
options, group, type and value), with far more parts than slots so that they collide; the
either-or terms a context decides become plain features, kept in the context for one table."""

from __future__ import annotations

import random
from typing import Any

import pytest
from compiled_twins import same_result
from test_taiwan_compiled import _OPTIONS, taiwan_hand

from mjcore import Hand, MahjongError
from mjcore.rules import resolve_options
from mjcore.rules.common import compiled
from mjcore.rules.common.inputs import minus_tile
from mjcore.rules.taiwan import scoring as tw

WINDS = ("1z", "2z", "3z", "4z")
BASE = {"seat_wind": "2z", "round_wind": "1z", "dealer": "left"}


def _answer(ask: Any, *args: Any) -> Any:
    try:
        return ask(*args)
    except MahjongError as exc:
        return exc.code, str(exc)


def _twins(monkeypatch: pytest.MonkeyPatch, ask: Any, *args: Any) -> None:
    got = []
    for pure in (False, True):
        monkeypatch.setattr(compiled, "PURE", pure)
        got.append(_answer(ask, *args))
    monkeypatch.setattr(compiled, "PURE", False)
    same_result(got[1], got[0])


def test_waits_with_context_bits_and_flat_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    """Waits in contexts whose own bits differ (the flags, flowers, winds), flat rows worth
    their value alone or not, on random ready hands: the Python path's waits."""
    rng = random.Random(71)
    flagged = 0
    tw.clear_caches()
    options = [*_OPTIONS, resolve_options("taiwan", {"tiandihu_flat": False})]
    for i in range(400):
        hand, win = taiwan_hand(rng)
        ctx: dict[str, Any] = {"seat_wind": rng.choice(WINDS), "round_wind": rng.choice(WINDS),
                               "dealer": rng.choice(("self", "left", "across", "right"))}
        for flag in ("tianhu", "dihu", "renhu", "hai_di_lao_yue", "he_di_lao_yu",
                     "qiang_gang"):
            if rng.random() < 0.15:
                ctx[flag] = True
        if rng.random() < 0.5:
            ctx["flowers"] = "".join(str(k) for k in range(1, 9) if rng.random() < 0.3) + "f"
        flagged += len(ctx) > 4
        if i % 37 == 0:
            tw.clear_caches()
        _twins(monkeypatch, tw.valued_waits, minus_tile(hand, win), ctx, rng.choice(options))
    assert flagged > 100


def test_parts_found_in_place_are_their_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """Winds and flowers (the same texts in the seat's and the round's group; every flower
    set) under options whose flower parts differ, and bad values: more parts than the
    entry's 1,024 slots, each score the Python path's."""
    rng = random.Random(72)
    options = [resolve_options("taiwan", {"flowers_in_play": fip, "flower_wins": fw,
                                          "huagang_replaces_zhenghua": hz, "di": di})
               for fip in (True, False) for fw in (True, False) for hz in (True, False)
               for di in (10, 20, 30)]
    flowers = [None, "", "9f", 3, True, *("".join(str(k) for k in range(1, 9) if m >> k & 1)
                                          + "f" for m in range(2, 512, 2))]
    hands = [Hand.parse("123m456m789m234p567p99s"), Hand.parse("123m456m789m111z567p99s")]
    tw.clear_caches()
    for i in range(3000):
        ctx: dict[str, Any] = {"seat_wind": rng.choice((*WINDS, 1, True)),
                               "round_wind": rng.choice(WINDS), "dealer": "across",
                               "discarder": "left"}
        f = rng.choice(flowers)
        if f is not None:
            ctx["flowers"] = f
        h = rng.choice(hands)
        _twins(monkeypatch, tw.score, h, 10 if h is hands[0] else 0, False, ctx,
               rng.choice(options))
        if i % 700 == 0:
            tw.clear_caches()


def test_waits_with_either_or_terms_a_context_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    """自摸 (``self_drawn``, ``!concealed|ting``) and 獨聽 (``duting_by_kind|single_wait``,
    ``!duting_by_kind|one_kind_wait``) have terms a context decides (``CtxRows``: dropped,
    or the reading's one feature): with and without a 聽 flag, 獨聽 by kind and by shape,
    the Python path's waits and scores."""
    rng = random.Random(73)
    options = [*_OPTIONS, resolve_options("taiwan", {"duting": "shape", "tianting_diting": False})]
    seen = {"tian": 0, "di": 0, None: 0}
    tw.clear_caches()
    for i in range(500):
        hand, win = taiwan_hand(rng)
        ting = rng.choice(("tian", "di", None))
        ctx: dict[str, Any] = {"seat_wind": rng.choice(WINDS), "round_wind": "1z",
                               "dealer": rng.choice(("self", "left", "across", "right"))}
        if ting is not None:
            ctx["ting"] = ting
        o = rng.choice(options)
        seen[ting] += isinstance(_answer(tw.valued_waits, minus_tile(hand, win), ctx, o), tuple)
        _twins(monkeypatch, tw.valued_waits, minus_tile(hand, win), ctx, o)
        sd = rng.random() < 0.5
        _twins(monkeypatch, tw.score, hand, win, sd, ctx if sd else {**ctx, "discarder": "left"},
               o)
        if i % 97 == 0:
            tw.clear_caches()
    assert min(seen.values()) > 50


def test_a_context_asked_of_two_tables_reads_each_ones_rows() -> None:
    """What a context decides of the rows is kept in it for one table (``_rows_of``, by the
    table's serial): the same two contexts asked of tables whose rows differ (獨聽, 平胡,
    全求人 on or off), turn by turn, give each table's own waits and scores."""
    won = [taiwan_hand(random.Random(74 + k)) for k in range(60)]
    first = resolve_options("taiwan")
    other = resolve_options("taiwan", {"pinghu_tai": 0, "quanqiuren_tai": 0, "menqing_zimo_tai": 2,
                                       "duting": "shape"})
    tables = {o: tw._compiled_table(o) for o in (first, other)}
    probe = Hand.parse("123m456m789m234p567p99s")

    def pair(o: Any) -> list[Any]:
        return [tw._new_context(tw.analyse(probe, 0, sd, BASE if sd else
                                           {**BASE, "discarder": "across"}, o)[2], o)
                for sd in (False, True)]

    shared = pair(first)
    for h, w in won:
        for o in (first, other, first):
            fresh = pair(first)
            assert tables[o].valued_waits(minus_tile(h, w), *shared) == \
                tables[o].valued_waits(minus_tile(h, w), *fresh)
            for sd in (0, 1):
                assert tables[o].score(h, w, shared[sd]) == tables[o].score(h, w, fresh[sd])
