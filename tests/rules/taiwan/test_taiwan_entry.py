"""Taiwan's common ``score`` call (a ``Hand``, a tile id, a dict context) answered from the
compiled table's cache (``CompiledEntry``, docs/rules.md "The memo around it"): a question
asked again and again gets the answer of the rules every time (taiwan.md §9, the payments of
§10), never one kept for another context, the same as the Python path's; bad input is an
error on every ask, in §1's order."""

from __future__ import annotations

import random
from typing import Any

import pytest
from test_taiwan_compiled import taiwan_hand

from mjcore import Hand, MahjongError
from mjcore.rules import score
from mjcore.rules import valued_waits as rules_waits
from mjcore.rules.common import compiled
from mjcore.rules.taiwan import clear_caches
from mjcore.rules.taiwan import scoring as tw

BASE = {"seat_wind": "2z", "round_wind": "1z", "dealer": "left"}


def _asked(hand: Any, tile: Any, self_drawn: Any, context: Any,
           options: dict[str, Any] | None = None) -> Any:
    """The answer, or the error's (code, text)."""
    try:
        return score(hand, win_tile=tile, self_drawn=self_drawn, context=context,
                     options=options, ruleset="taiwan")
    except MahjongError as exc:
        return exc.code, str(exc)


def _python(monkeypatch: pytest.MonkeyPatch, *args: Any) -> Any:
    with monkeypatch.context() as m:
        m.setattr(compiled, "PURE", True)
        clear_caches()
        got = _asked(*args)
    clear_caches()
    return got


CONTEXTS: list[tuple[bool, dict[str, Any]]] = [
    (False, {**BASE, "discarder": "across"}), (True, BASE),
    (False, {**BASE, "discarder": "left", "flowers": "1234f"}),
    (True, {**BASE, "flowers": "26f", "dealer": "self", "dealer_streak": 3}),
    (False, {**BASE, "discarder": "right", "ting": "tian"}),  # checked against the hand
    (True, {**BASE, "dihu": True}),  # no melds: the core's check
    (True, {**BASE, "gang_shang_kai_hua": True, "replacement_after": "gang"}),
    (False, {**BASE, "discarder": "right", "qiang_gang": True, "winner": 3}),
]


def test_every_ask_is_the_python_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """A seeded sample (a tenth not a win), each question asked three times interleaved with
    the others (the first leaves a fingerprint, the second is kept, the third answered from
    the cache): every answer the Python path's."""
    rng = random.Random(41)
    questions = []
    for _ in range(150):
        hand, win = taiwan_hand(rng)
        if rng.random() < 0.1:
            counts = list(hand.counts)
            counts[win] -= 1
            counts[(win + 1) % 34] += 1
            try:
                hand = Hand(counts, hand.melds)
            except MahjongError:
                continue
        sd, ctx = rng.choice(CONTEXTS)
        questions.append((hand, win, sd, ctx))
    want = [_python(monkeypatch, *q) for q in questions]
    assert sum(not isinstance(w, tuple) or len(w) != 2 for w in want) > len(want) // 3
    clear_caches()
    for _ in range(3):
        for q, w in zip(questions, want, strict=True):
            assert _asked(*q) == w, q
    # a context with every check the core's is found by its items; ting's is not (§13:
    # no melds but angang), nor one with a replacement after a meld (that meld held)
    assert compiled.PURE or any("dihu" in k for k in tw._CIDS) and len(tw._CIDS) >= 5
    assert not any("ting" in k or "replacement_after" in k for k in tw._CIDS)


def test_the_discarder_pays_however_often_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    hand = Hand.parse("123m456m789m234p567p99s")
    contexts = [{**BASE, "discarder": seat} for seat in ("left", "across", "right")]
    want = [_python(monkeypatch, hand, 12, False, c) for c in contexts]
    clear_caches()
    for _ in range(4):  # interleaved: each context's answer is its own (§10)
        for c, w in zip(contexts, want, strict=True):
            got = _asked(hand, 12, False, c)
            assert got == w and len(got.payments) == 1
    assert len({w.payments for w in want}) == 3


def test_a_kept_answer_is_the_same_object() -> None:
    clear_caches()
    hand = Hand.parse("123m456m789m234p567p99s")
    first, second, third = (_asked(hand, 12, False, {**BASE, "discarder": "left"})
                            for _ in range(3))
    assert first == second == third and (compiled.PURE or third is second)


def test_bad_input_is_an_error_every_time(monkeypatch: pytest.MonkeyPatch) -> None:
    clear_caches()
    hand = Hand.parse("123m456m789m234p567p99s")
    discard = {**BASE, "discarder": "left"}
    ok = _asked(hand, 12, False, discard)
    assert ok.value > 0
    for _ in range(3):
        assert _asked(hand, 12, 0, discard)[0] == "bad_context"  # 0 == False, not a bool
        assert _asked(hand, 2**80, False, discard)[0] == "bad_notation"  # no tile at all
        assert _asked(hand, 12, False, {**discard, "dealer": ["x"]})[0] == "bad_context"
        assert _asked(Hand.parse("123m456m789m234p567p98s"), 12, False,
                      discard)[0] == "not_a_win"
        assert _asked(hand, 30, False, discard)[0] == "bad_context"  # 4z is not held
        assert _asked(hand, 12, False, {**discard, "flowers": "9f"})[0] == "bad_notation"
        # the hand before the options (§1): a bad hand and a bad option, the hand's error
        assert _asked("123m456m789m234p567p9s", 12, False, discard,
                      {"min_tai": -1})[0] == "tile_count"
        # a flower set (taken, but no memo key): the same answer each time
        assert _asked(hand, 12, False, {**discard, "flowers": {"1f"}}) == _python(
            monkeypatch, hand, 12, False, {**discard, "flowers": {"1f"}})


def test_waits_asked_again_are_the_python_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    """``valued_waits`` of a ``Hand`` in a dict context seen before is kept in the table's
    cache: contexts that differ only on the self-drawn side (海底撈月) share a discard one,
    and each keeps its own answer (§6, §9)."""
    hands = [Hand.parse(x) for x in ("123m456m789m23p567p99s", "123m456m789m13p567p99s",
                                     "11m22m33m456p789p12s55z")]
    contexts = [BASE, {**BASE, "hai_di_lao_yue": True}, {**BASE, "dealer": "self"}]
    want = {}
    with monkeypatch.context() as m:
        m.setattr(compiled, "PURE", True)
        for h in hands:
            for i, c in enumerate(contexts):
                want[h, i] = rules_waits(h, context=c, ruleset="taiwan")
    clear_caches()
    for _ in range(3):
        for h in hands:
            for i, c in enumerate(contexts):
                assert rules_waits(h, context=c, ruleset="taiwan") == want[h, i], (h, c)
    assert [w.fan_self_drawn for w in want[hands[0], 1]] != [
        w.fan_self_drawn for w in want[hands[0], 0]]  # (海底撈月 is worth something)
