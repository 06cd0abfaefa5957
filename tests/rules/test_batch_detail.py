"""``CompiledTable.score_batch_detail`` (the bulk scorer the service uses) against ``score``
hand by hand: the same hands answered, and for each the same value, total, multiplier, hits,
shape, payments and decomposition; contexts chosen per hand; bad input refused per hand or
as a whole; the GIL released.
"""

from __future__ import annotations

import array
import os
import random
import threading
from typing import Any

import pytest
from test_compiled_scoring import _batch_input, guangdong_hand, sichuan_hand

from mjcore import Hand, MahjongError
from mjcore._core import DETAIL_DEC_WIDTH
from mjcore.rules import get_ruleset, resolve_options
from mjcore.rules.common import compiled
from mjcore.rules.guangdong import scoring as gd
from mjcore.rules.sichuan import scoring as sichuan

# the batch path is the compiled path's: with MJ_PURE_SCORING=1 every hand goes one by one
pytestmark = pytest.mark.skipif(compiled.PURE, reason="MJ_PURE_SCORING: no compiled tables")

N = max(400, int(os.environ.get("MJ_CROSSCHECK_N", "20000")) // 10)
_SHAPES = ("standard", "qidui", "shisanyao")


def _not_a_win(rng: random.Random, hand: Hand, win: int) -> tuple[Hand, int] | None:
    counts = list(hand.counts)
    counts[win] -= 1
    counts[rng.randrange(34)] += 1
    try:
        return Hand(counts, hand.melds), next(t for t in range(34) if counts[t])
    except MahjongError:
        return None


def _check(t: Any, contexts: tuple[Any, ...], hands: list[tuple[Hand, int]], which: list[int]) -> int:
    """score_batch_detail of ``hands`` (hand i in ``contexts[which[i]]``) is ``t.score`` of
    each: the number of hands scored."""
    counts, wins, melds = _batch_input(hands)
    status, row_b, dec, rows = t.score_batch_detail(counts, wins, melds, contexts, bytes(which))
    row = array.array("i", row_b)
    scored = 0
    for i, (hand, win) in enumerate(hands):
        got = t.score(hand, win, contexts[which[i]])
        if got is None:
            assert status[i] != 0 and row[i] == -1, i
            continue
        scored += 1
        assert status[i] == 0, (i, hand, win)
        x, unit, value, raw, mult, hits, shape, payments = rows[row[i]]
        assert (x, unit, value, raw, mult, hits, shape, payments) == (
            which[i], got.unit, got.value, got.value_uncapped, got.multiplier, got.patterns,
            got.shape, got.payments)
        d = dec[i * DETAIL_DEC_WIDTH:(i + 1) * DETAIL_DEC_WIDTH]
        assert _SHAPES[d[0]] == got.shape
        if got.shape == "standard":
            nc, npu = d[2], d[3]
            pair, chows, pungs = got.decomposition
            assert (d[1], tuple(d[4:4 + nc]), tuple(d[4 + nc:4 + nc + npu])) == (pair, chows, pungs)
        else:
            assert got.decomposition == got.shape and not any(d[1:])
    # one row per distinct answer
    assert len(set(rows)) == len(rows)
    return scored


def _sample(rng: random.Random, make: Any, n: int) -> list[tuple[Hand, int]]:
    hands = []
    while len(hands) < n:
        hand, win = make(rng)
        if rng.random() < 0.1:
            other = _not_a_win(rng, hand, win)
            if other is not None:
                hand, win = other
        hands.append((hand, win))
    return hands


@pytest.mark.parametrize("preset", [None, "modern", "chengdu_points"])
def test_sichuan_detail_is_score_hand_by_hand(preset: str | None) -> None:
    o = resolve_options("sichuan", preset=preset)
    t = sichuan._TABLES.get(o) or sichuan._compiled_table(o)
    parsed = [sichuan._parse_context(c, sd) for c, sd in (
        (None, False), (None, True), ({"winner": 1, "discarder": 3}, False),
        ({"winner": 2, "missing_suit": "m"}, True), ({"after_kong": True}, True),
        ({"heavenly": True}, True))]
    contexts = tuple(t.context(c) or sichuan._compiled_context(t, c, o) for c in parsed)
    rng = random.Random(7)
    hands = _sample(rng, sichuan_hand, N)
    which = [rng.randrange(len(contexts)) for _ in hands]
    assert _check(t, contexts, hands, which) > N // 2


def test_guangdong_detail_is_score_hand_by_hand() -> None:
    rng = random.Random(8)
    for options in ({}, {"qidui": True, "menqing_fan": 1, "baohu_cap": 5}):
        o = resolve_options("guangdong", options)
        t = gd._TABLES.get(o) or gd._compiled_table(o)
        parsed = [gd.parse_context(c, sd) for c, sd in (
            ({"seat_wind": "1z", "round_wind": "1z"}, True),
            ({"seat_wind": "2z", "round_wind": "1z", "discarder": "left"}, False),
            ({"seat_wind": "4z", "round_wind": "3z", "winner": 2}, True),
            ({"seat_wind": "3z", "round_wind": "2z", "hai_di_lao_yue": True}, True),
            # who fed each meld: a hand whose melds do not fit goes to the Python path
            ({"seat_wind": "1z", "round_wind": "1z", "meld_from": ["left", "across"]}, True),
            ({"seat_wind": "1z", "round_wind": "2z", "meld_from": [None], "discarder": "right"},
             False),
            ({"seat_wind": "2z", "round_wind": "2z", "meld_from": []}, True))]
        contexts = tuple(t.context(c.cid) or gd._compiled_context(t, c, o) for c in parsed)
        hands = _sample(rng, guangdong_hand, N)
        which = [rng.randrange(len(contexts)) for _ in hands]
        assert _check(t, contexts, hands, which) > N // 2


def test_batch_scorer_contexts_score_as_the_engine() -> None:
    """Each rule set's ``batch_scorer``: what the engine's ``score`` answers is the table's
    result in the context it gives (a context it gives None for is scored one by one)."""
    rng = random.Random(9)
    cases = [("sichuan", {}, sichuan_hand, [None, {"winner": 2, "discarder": 0}, {"last_tile": True}]),
             ("guangdong", {"qidui": True}, guangdong_hand,
              [{"seat_wind": "1z", "round_wind": "2z"},
               {"seat_wind": "2z", "round_wind": "2z", "discarder": "across", "winner": 3}])]
    for name, options, make, mappings in cases:
        rs = get_ruleset(name)
        o = rs.resolve_options(options)
        scorer = rs.batch_scorer(o)
        for _ in range(N // 4):
            hand, win = make(rng)
            if hand.melds:
                continue
            mapping = rng.choice(mappings)
            self_drawn = "discarder" not in (mapping or {}) and (name != "sichuan" or rng.random() < 0.5)
            c = scorer.context(mapping, self_drawn)
            assert c is not None
            got = scorer.table.score(hand, win, c)
            try:
                want = rs.engine.score(hand.to_text(), win, self_drawn, mapping, o)
            except MahjongError:
                want = None
            assert got == want or (got is None and want is not None), (hand, win, mapping)


def test_guangdong_batch_scorer_leaves_checked_contexts() -> None:
    """Contexts whose answer needs checks against the hand or a liability go one by one."""
    rs = get_ruleset("guangdong")
    scorer = rs.batch_scorer(rs.resolve_options())
    base = {"seat_wind": "1z", "round_wind": "1z"}
    assert scorer.context(base, True) is not None
    for extra in ({"qiang_gang": True}, {"gang_shang_kai_hua": True}, {"tianhe": True},
                  {"gang_fed_by": "left", "gang_shang_kai_hua": True}):
        assert scorer.context({**base, **extra}, True) is None, extra
    assert scorer.context({"seat_wind": "9z"}, True) is None  # refused: the engine says why
    assert rs.batch_scorer(rs.resolve_options({"min_fan": 1})) is None
    assert get_ruleset("taiwan").batch_scorer is None


def test_detail_bad_input() -> None:
    o = resolve_options("sichuan")
    t = sichuan._TABLES.get(o) or sichuan._compiled_table(o)
    c = t.context(sichuan._DEFAULT_CTX[False]) or sichuan._compiled_context(
        t, sichuan._DEFAULT_CTX[False], o)
    good = bytes(Hand.parse("11122233344455m").counts)
    five = bytearray(good)
    five[0] = 5
    status, _, _, rows = t.score_batch_detail(good + bytes(five) + good, bytes([4, 0, 33]), None,
                                              (c,), bytes(3))
    assert list(status) == [0, 2, 2] and len(rows) == 1
    for bad in [(good, bytes([4]), None, (c,), bytes([1])),        # no context 1
                (good, bytes([4, 4]), None, (c,), bytes(2)),       # two wins, one hand
                (good, bytes([4]), None, (c,), bytes(2)),          # two context indexes
                (good, bytes([4]), None, (c,) * 257, bytes(1))]:   # past 256 contexts
        with pytest.raises(MahjongError) as err:
            t.score_batch_detail(*bad)
        assert err.value.code == "bad_argument"
    with pytest.raises(TypeError):
        t.score_batch_detail(good, bytes([4]), None, ("not a context",), bytes(1))
    empty = t.score_batch_detail(b"", b"", None, (c,), b"")
    assert empty == (b"", b"", b"", ())


def test_detail_releases_the_gil_and_threads_agree() -> None:
    o = resolve_options("sichuan")
    t = sichuan._TABLES.get(o) or sichuan._compiled_table(o)
    contexts = tuple(t.context(c) or sichuan._compiled_context(t, c, o)
                     for c in (sichuan._DEFAULT_CTX[False], sichuan._DEFAULT_CTX[True]))
    rng = random.Random(10)
    hands = _sample(rng, sichuan_hand, 2000)
    counts, wins, melds = _batch_input(hands)
    which = bytes(rng.randrange(2) for _ in hands)
    whole = t.score_batch_detail(counts, wins, melds, contexts, which)
    parts: dict[int, Any] = {}

    def run(k: int, a: int, b: int) -> None:
        parts[k] = t.score_batch_detail(counts[34 * a:34 * b], wins[a:b], melds[8 * a:8 * b],
                                        contexts, which[a:b])

    threads = [threading.Thread(target=run, args=(0, 0, 1000)),
               threading.Thread(target=run, args=(1, 1000, 2000))]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert parts[0][0] + parts[1][0] == whole[0] and parts[0][2] + parts[1][2] == whole[2]
    rows = [whole[3][r] if r >= 0 else None for r in array.array("i", whole[1])]
    halves = [p[3][r] if r >= 0 else None for p in (parts[0], parts[1]) for r in array.array("i", p[1])]
    assert rows == halves
