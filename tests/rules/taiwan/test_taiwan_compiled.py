"""Taiwan's compiled scoring (docs/rules.md, "Compiled scoring") against its Python twin, as
tests/rules/test_compiled_scoring.py does for Sichuan and Guangdong:

* the C readings with each slot of the winning tile are ``tw_readings``' (in the same order),
  and their C features are what ``common.compiled.features_of`` states in Python;
* each row's ``when`` holds exactly where its predicate does (an ``each`` row: as often), row
  by row, on every reading of a seeded sample in many contexts and options;
* the compiled ``score`` and ``valued_waits`` equal the Python path (``MJ_PURE_SCORING``) on
  every field, on every worked case and on a seeded sample (``MJ_CROSSCHECK_N`` hands).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from compiled_twins import both_paths, case_options, feature_flags, same_result

from mjcore import Hand, MahjongError, Meld
from mjcore._core import _c_win_features
from mjcore.rules import resolve_options
from mjcore.rules.common import compiled
from mjcore.rules.common.inputs import minus_tile
from mjcore.rules.common.results import ValuedWait
from mjcore.rules.taiwan import scoring as tw
from mjcore.rules.taiwan import table as tw_table

N = max(300, int(os.environ.get("MJ_CROSSCHECK_N", "20000")) // 10)
CASES = Path(__file__).resolve().parents[2] / "cases" / "taiwan.jsonl"


def taiwan_hand(rng: random.Random) -> tuple[Hand, int]:
    """A random winning 17-tile hand (five sets and a pair, some melds; now and then seven
    pairs and a pung, 嚦咕嚦咕) and its winning tile, from one to three suits."""
    while True:
        suits = rng.sample(range(4), rng.randint(1, 3))
        kinds = [t for t in range(34) if (t // 9 if t < 27 else 3) in suits]
        counts = [0] * 34
        melds: list[Meld] = []
        if rng.random() < 0.08:  # seven pairs (four of a kind: two) and a pung
            for _ in range(7):
                counts[rng.choice(kinds)] += 2
            free = [t for t in kinds if not counts[t]]
            if not free:
                continue
            counts[rng.choice(free)] += 3
        else:
            for _ in range(5):
                t = rng.choice(kinds)
                x = rng.random()
                if x < 0.5 and t < 27:
                    t = t - t % 9 + rng.randrange(7)
                    if rng.random() < 0.2:
                        melds.append(Meld("chi", (t, t + 1, t + 2)))
                    else:
                        for k in range(3):
                            counts[t + k] += 1
                elif x < 0.65:
                    kind = rng.choice(("peng", "gang", "angang", "bugang"))
                    melds.append(Meld(kind, (t,) * (3 if kind == "peng" else 4)))
                else:
                    counts[t] += 3
            counts[rng.choice(kinds)] += 2
        held = counts[:]
        for m in melds:
            for t in m.tiles:
                held[t] += 1
        if max(held) <= 4 and sum(counts) + 3 * len(melds) == 17:
            return Hand(counts, melds), rng.choice([t for t in range(34) if counts[t]])


_KINDS = {0: "chow", 1: "pung", 2: "kong"}


def test_c_win_readings_and_features_are_the_python_ones() -> None:
    rng = random.Random(31)
    ligu_o = resolve_options("taiwan", {"ligu": True})
    checked = ligu = 0
    for _ in range(N):
        hand, win = taiwan_hand(rng)
        seat, rnd, drawn = rng.randrange(4), rng.randrange(4), rng.random() < 0.5
        py = tw.tw_readings(hand, win, ligu_o)
        c = _c_win_features(hand, win, seat, rnd, drawn, True)
        assert len(c) == len(py), hand
        for tr, (_, shape, slot, bits, counts) in zip(py, c, strict=True):
            assert (shape, slot) == (tr.r.shape, tr.slot), hand
            names, count = compiled.features_of(tr.r, seat, rnd, slot=tr.slot,
                                                self_drawn=drawn, waits=tr.waits)
            assert bits == feature_flags(names), (hand, win, tr)
            assert counts == tuple(count[n] for n in compiled.COUNTED), (hand, win, tr)
            checked += 1
            ligu += shape == "ligu"
    assert checked > N and ligu > 0


def _contexts() -> list[tw_table.TwContext]:
    C = tw_table.TwContext
    out = []
    for sd in (False, True):
        for seat, rnd in ((27, 27), (28, 27), (30, 29)):
            for flowers in ((), (34,), (35, 38), (34, 35, 36, 37, 39), (34, 35, 36, 37, 38, 39,
                                                                        40)):
                out.append(C(seat, rnd, "left", 0, None if sd else "right", sd, flowers))
    out += [C(27, 27, "self", 0, None, True, (), first_turn="tianhu"),
            C(28, 27, "left", 0, None, True, (), first_turn="dihu"),
            C(28, 27, "left", 0, "left", False, (), first_turn="renhu"),
            C(28, 27, "left", 0, "left", False, (), ting="tian"),
            C(28, 27, "self", 0, None, True, (34,), ting="di"),
            C(28, 28, "left", 0, "across", False, (), qiang_gang=True, he_di_lao_yu=False),
            C(28, 28, "left", 0, "across", False, (), he_di_lao_yu=True),
            C(28, 28, "left", 0, None, True, (), hai_di_lao_yue=True),
            C(28, 28, "left", 0, None, True, (35,), gang_shang_kai_hua=True,
              replacement_after="flower"),
            C(28, 28, "left", 0, None, True, (), gang_shang_kai_hua=True,
              replacement_after="gang"),
            C(29, 28, "left", 0, None, True, tuple(range(34, 42)), flower_win="baxian"),
            C(29, 28, "left", 0, "right", False, tuple(range(34, 41)),
              flower_win="qiqiangyi")]
    return out


_OPTIONS = [resolve_options("taiwan", preset=p)
            for p in (None, "taiwan_association", "taiwan_2005", "taiwan_south")] + [
    resolve_options("taiwan", {"ligu": True, "pinghu_tai": 0, "quanqiuren_tai": 0,
                               "quanqiu_plus_duting": True, "banqiu": True,
                               "tiandihu_flat": False, "tianting_diting": False,
                               "huagang_replaces_zhenghua": False, "menqing_zimo_tai": 2}),
    resolve_options("taiwan", {"ligu": True, "duting": "shape", "pinghu_tai": 1,
                               "gangshang_minggang": False, "min_tai": 3, "cap_tai": 8})]


def test_taiwan_conditions_are_the_predicates_row_by_row() -> None:
    """Every row's ``when`` (with the context's features) against its predicate, on every
    reading with each slot, in every context and options."""
    table = tw_table.TABLE
    rng = random.Random(32)
    contexts = _contexts()
    for _ in range(N // 20):
        hand, win = taiwan_hand(rng)
        for o in _OPTIONS:
            for tr in tw.tw_readings(hand, win, o):
                for c in rng.sample(contexts, 8):
                    names, counts = compiled.features_of(
                        tr.r, c.seat_wind - 27, c.round_wind - 27, slot=tr.slot,
                        self_drawn=c.self_drawn, waits=tr.waits)
                    feats = names | set(tw.context_features(c, o))
                    counts = {**counts, "flower_sets": len(tw_table._full_sets(c)),
                              "seat_flowers": tw_table._zhenghua(tr, c, o)}
                    for p in table.patterns:
                        if not p.enabled(o):
                            continue
                        n = p.predicate(tr, c, o)
                        got = compiled.holds(p.when or (), feats, counts)
                        if p.times:
                            assert (counts[p.times] if got else 0) == n, (p.id, hand, tr, c)
                        else:
                            assert got == bool(n), (p.id, hand, tr, c)


def test_taiwan_rows_found_by_look_ups_are_the_conditions() -> None:
    """The rows the additive policy finds by its look-up tables (4 feature bits at a time,
    each counted feature by its count, a count past them row by row) are those whose
    condition holds, row by row: random features and counts, from -2 to past the tables'
    15, in every options' table."""
    rng = random.Random(33)
    for o in _OPTIONS:
        t = tw._TABLES.get(o) or tw._compiled_table(o)
        for _ in range(2000):
            bits = rng.getrandbits(64) & rng.getrandbits(64) | rng.getrandbits(64) & (
                rng.getrandbits(64))  # (half the bits on)
            counts = [rng.choice((rng.randint(0, 5), rng.randint(-2, 20)))
                      for _ in range(len(compiled.COUNTED))]
            by_tables, by_rows = t.rows_holding(bits, counts)
            assert by_tables == by_rows, (o, hex(bits), counts)


def _answers(hand: Any, win: Any, sd: Any, ctx: Any, o: Any,
             monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """(Python path, compiled path) answers: a ScoreResult or the error's (code, text)."""
    return both_paths(monkeypatch, tw.clear_caches, tw.score, hand, win, sd, ctx, o)


@pytest.mark.parametrize("case", [json.loads(x) for x in CASES.read_text("utf-8").splitlines()
                                  if x.strip()], ids=lambda c: c["id"])
def test_taiwan_cases_on_both_paths(case: dict[str, Any],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    o = case_options("taiwan", case)
    if o is None:
        return  # an options error: no scoring path runs
    hands: list[Any] = [case["hand"]]
    try:  # the same as a Hand: the call the core answers from its memo of contexts
        hands.append(tw.parse_hand(case["hand"], flower_win=True))
    except MahjongError:
        pass
    for hand in hands:
        a, b = _answers(hand, case["win_tile"], case["self_drawn"], case["context"], o,
                        monkeypatch)
        same_result(a, b)


def test_taiwan_sample_on_both_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    base = {"seat_wind": "2z", "round_wind": "1z", "dealer": "left"}
    contexts: list[tuple[bool, dict[str, Any]]] = [
        (False, {**base, "discarder": "across"}), (True, base),
        (True, {**base, "flowers": "26f"}), (False, {**base, "discarder": "left",
                                                    "flowers": "1234f"}),
        (True, {"seat_wind": "1z", "round_wind": "1z", "dealer": "self", "tianhu": True}),
        (True, {**base, "dihu": True}), (False, {**base, "discarder": "left", "renhu": True}),
        (False, {**base, "discarder": "right", "ting": "tian"}),
        (True, {**base, "dealer": "self", "ting": "di", "dealer_streak": 2}),
        (False, {**base, "discarder": "right", "qiang_gang": True}),
        (True, {**base, "hai_di_lao_yue": True, "winner": 2}),
        (False, {**base, "discarder": "across", "he_di_lao_yu": True}),
        (True, {**base, "gang_shang_kai_hua": True, "replacement_after": "flower",
                "flowers": "5f"}),
        (True, {**base, "gang_shang_kai_hua": True, "replacement_after": "gang"}),
        (False, {"seat_wind": "4z", "round_wind": "3z", "dealer": "across",
                 "discarder": "across", "flowers": "5678f"})]
    rng = random.Random(33)
    answered = 0
    for _ in range(N):
        hand, win = taiwan_hand(rng)
        if rng.random() < 0.1:  # a hand that is not a win
            counts = list(hand.counts)
            counts[rng.randrange(34)] += 1
            counts[win] -= 1
            try:
                hand = Hand(counts, hand.melds)
            except MahjongError:
                continue
        sd, ctx = rng.choice(contexts)
        o = rng.choice(_OPTIONS)
        a, b = _answers(hand, win, sd, ctx, o, monkeypatch)
        same_result(a, b)
        if hasattr(a, "value"):  # the core answered it itself, not by falling back
            answered += 1
            t = tw._TABLES.get(o) or tw._compiled_table(o)
            c = tw.analyse(hand, win, sd, ctx, o)[2]
            same_result(a, t.score(hand, win, t.context(c) or tw._compiled_context(t, c, o)))
    assert answered > N // 3


def test_the_compiled_path_answers_a_never_seen_hand_itself() -> None:
    """The core answers a win: no fall back to the Python path."""
    o = resolve_options("taiwan")
    t = tw._TABLES.get(o) or tw._compiled_table(o)
    h = Hand.parse("123m456m789m234p567p99s")
    c = tw.analyse(h, 12, False, {"seat_wind": "2z", "round_wind": "1z", "dealer": "left",
                                  "discarder": "across"}, o)[2]
    got = t.score(h, 12, tw._compiled_context(t, c, o))
    assert got is not None and [p.id for p in got.patterns] == ["menqing", "pinghu"]
    assert t.score(Hand.parse("123m456m789m234p567p98s"), 12,
                   tw._compiled_context(t, c, o)) is None  # not a win: Python's


def test_taiwan_valued_waits_on_both_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """``valued_waits`` gives the same tuple on the compiled and the Python path."""
    base = {"seat_wind": "2z", "round_wind": "1z", "dealer": "left"}
    contexts = [base, {**base, "flowers": "2f"}, {**base, "dealer": "self", "ting": "di"}]
    rng = random.Random(34)
    answered = 0
    for _ in range(N // 10):
        hand, win = taiwan_hand(rng)
        ready = minus_tile(hand, win)
        ctx = rng.choice(contexts)
        o = rng.choice(_OPTIONS)
        got = both_paths(monkeypatch, tw.clear_caches, tw.valued_waits, ready, ctx, o)
        assert got[0] == got[1], (ready, ctx)
        if got[0] and isinstance(got[0][0], ValuedWait) and not o.min_tai:  # the core answers
            core = tw._compiled_waits(ready, ctx, o, None)
            assert core == got[0], (ready, ctx)
            answered += 1
    assert answered > N // 40
