"""The compiled evaluator's reading words (mjcore/_reading.pxi, "reading words") against
valuing every reading one by one, and the compiled table's own cache (``score_cached``).

Every standard reading of one word has the same features, so valuing each word once and
building only the first reading of the best word must give what valuing every reading in
order gives: the same ``ScoreResult`` (value, hits, decomposition: the first best reading),
the same valued waits and the same batch arrays, on seeded samples of both compiled rule sets
(Sichuan: one or two suits, melds, 七对; Guangdong: honours, chows, 十三幺).
"""

from __future__ import annotations

import functools
import os
import random
from typing import Any

import pytest
from test_compiled_scoring import _batch_input, guangdong_hand, sichuan_hand

from mjcore import Hand, MahjongError
from mjcore.rules import resolve_options
from mjcore.rules.common import compiled
from mjcore.rules.guangdong import scoring as guangdong
from mjcore.rules.sichuan import scoring as sichuan

N = max(500, int(os.environ.get("MJ_CROSSCHECK_N", "20000")) // 16)


def _twins(module: Any, o: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    """The rule set's compiled table under ``o`` twice: by words (the default) and with
    every reading valued one by one."""
    words = module._compiled_table(o)
    monkeypatch.setattr(compiled, "compile_table",
                        functools.partial(compiled.compile_table, by_words=False))
    readings = module._compiled_table(o)
    monkeypatch.undo()
    module._TABLES[o] = words
    assert words.by_words and not readings.by_words
    return words, readings


def _not_ready(hand: Hand, win: int, rng: random.Random) -> tuple[Hand, int] | None:
    counts = list(hand.counts)
    counts[win] -= 1
    counts[rng.randrange(34)] += 1
    try:
        return Hand(counts, hand.melds), win
    except MahjongError:
        return None


@pytest.mark.parametrize("ruleset", ["sichuan", "guangdong"])
def test_words_are_every_reading_valued(ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    module, make = (sichuan, sichuan_hand) if ruleset == "sichuan" else (guangdong, guangdong_hand)
    rng = random.Random(1201)
    options = [resolve_options("sichuan"), resolve_options("sichuan", preset="modern")] \
        if ruleset == "sichuan" else [resolve_options("guangdong"),
                                      resolve_options("guangdong", {"qidui": True})]
    for o in options:
        words, readings = _twins(module, o, monkeypatch)
        if ruleset == "sichuan":
            ctxs = [(sichuan._DEFAULT_CTX[sd], sichuan._DEFAULT_CTX[sd]) for sd in (False, True)]
        else:  # (the winds: their pungs are features)
            ctxs = [(c.cid, c) for c in (
                guangdong.parse_context({"seat_wind": "2z", "round_wind": "1z",
                                         "discarder": "left"}, False),
                guangdong.parse_context({"seat_wind": "1z", "round_wind": "1z"}, True))]
        cw = [words.context(k) or module._compiled_context(words, c, o) for k, c in ctxs]
        cr = [readings.context(k) or module._compiled_context(readings, c, o) for k, c in ctxs]
        hands, scored = [], 0
        for _ in range(N):
            hand, win = make(rng)
            less = list(hand.counts)
            less[win] -= 1
            ready = Hand(less, hand.melds)
            assert repr(words.valued_waits(ready, *cw)) == repr(readings.valued_waits(ready, *cr))
            if rng.random() < 0.1:
                hand, win = _not_ready(hand, win, rng) or (hand, win)
            hands.append((hand, win))
            for a, b in zip(cw, cr, strict=True):
                got, want = words.score(hand, win, a), readings.score(hand, win, b)
                assert repr(got) == repr(want), (hand, win)
                scored += got is not None
        assert scored > N  # most of the sample are wins
        for a, b in zip(cw, cr, strict=True):
            assert words.score_batch(*_batch_input(hands), a) == \
                readings.score_batch(*_batch_input(hands), b)


def test_score_cached_keeps_an_answer_once_asked_again() -> None:
    o = resolve_options("sichuan")
    t = sichuan._compiled_table(o)
    key = sichuan._DEFAULT_CTX[False]
    hand = Hand.parse("11122233344455m")
    t.clear_cache()
    first, second, third = (t.score_cached(hand, 4, key) for _ in range(3))
    assert first == second == third == t.score_in(hand, 4, key)
    assert first is not second  # asked once: only its fingerprint kept
    assert third is second  # asked again: the answer kept
    assert t.score_cached(Hand.parse("11122233344455m"), 4, key) is second  # by equality
    assert t.score_cached(hand, 4, sichuan._DEFAULT_CTX[True]) is not second  # another context
    assert t.score_cached(hand, 1, key) is not second  # another tile (the same value here)
    t.clear_cache()
    assert t.score_cached(hand, 4, key) is not second
    # what the rule set's own path answers: None
    assert t.score_cached("11122233344455m", 4, key) is None
    assert t.score_cached(hand, True, key) is None
    assert t.score_cached(hand, 34, key) is None
    assert t.score_cached(Hand.parse("11122233344457m"), 4, key) is None  # not a win


def test_valued_waits_cached_is_valued_waits() -> None:
    o = resolve_options("sichuan")
    t = sichuan._compiled_table(o)
    cd, cs = sichuan._WAIT_CONTEXTS.get(o) or sichuan._default_wait_contexts(t, o)
    hand = Hand.parse("1112223334445m")
    t.clear_cache()
    got = [t.valued_waits_cached(hand, cd, cs) for _ in range(3)]
    assert got[0] == got[2] == t.valued_waits(hand, cd, cs) and got[2] is got[1]
    assert t.valued_waits_cached("1112223334445m", cd, cs) is None
