"""Guangdong's common ``score`` call (a ``Hand``, a tile id, a dict context) answered
from the compiled table's cache (``CompiledEntry``): a question asked again and again gets
the answer of the rules every time (docs/rulesets/guangdong.md §10 payments, §11 包), never
one kept for another context, and the same as the Python path's."""

from __future__ import annotations

from typing import Any

import pytest

from mjcore import Hand, MahjongError
from mjcore.rules import score
from mjcore.rules.common import compiled
from mjcore.rules.guangdong import clear_caches, points

WIND = {"seat_wind": "2z", "round_wind": "1z"}


def _asked(hand: Hand, tile: int, self_drawn: bool, context: dict[str, Any] | None) -> Any:
    return score(hand, win_tile=tile, self_drawn=self_drawn, context=context,
                 ruleset="guangdong")


def _python(hand: Hand, tile: int, self_drawn: bool, context: dict[str, Any] | None,
            monkeypatch: pytest.MonkeyPatch) -> Any:
    with monkeypatch.context() as m:
        m.setattr(compiled, "PURE", True)
        clear_caches()
        got = _asked(hand, tile, self_drawn, context)
    clear_caches()
    return got


def test_the_discarder_pays_however_often_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    hand = Hand.parse("123m456m789p234s55p")
    contexts = [{**WIND, "discarder": seat} for seat in ("left", "across", "right")]
    want = [_python(hand, 13, False, c, monkeypatch) for c in contexts]
    for _ in range(4):  # interleaved: each context's answer is its own (§10)
        for c, w, seat in zip(contexts, want, ("left", "across", "right")):
            got = _asked(hand, 13, False, c)
            assert got == w
            assert list(points(got)["from"]) == [seat]
    # self-drawn: every other seat pays
    w = _python(hand, 13, True, WIND, monkeypatch)
    for _ in range(4):
        got = _asked(hand, 13, True, WIND)
        assert got == w and sorted(points(got)["from"]) == ["across", "left", "right"]


def test_a_kept_answer_is_the_same_object() -> None:
    clear_caches()
    hand = Hand.parse("123m456m789p234s55p")
    first, second, third = (_asked(hand, 13, False, {**WIND, "discarder": "left"})
                            for _ in range(3))
    assert first == second == third and third is second


def test_liability_of_twelve_tiles_settled_on_every_ask(monkeypatch: pytest.MonkeyPatch) -> None:
    # four exposed melds, none an angang, self-drawn: the feeder of the fourth pays all (§11)
    hand = Hand.parse("77z peng:111m peng:555p chi:234s peng:999s")
    for feeder in ("left", "across", "right"):
        context = {**WIND, "meld_from": ["right", "across", "left", feeder]}
        w = _python(hand, 33, True, context, monkeypatch)
        assert w.liable == "shierzhang_luodi"
        for _ in range(4):
            got = _asked(hand, 33, True, context)
            assert got == w and list(points(got)["from"]) == [feeder]


def test_bad_input_is_an_error_every_time() -> None:
    hand = Hand.parse("123m456m789p234s55p")
    for _ in range(3):
        with pytest.raises(MahjongError):
            _asked(hand, 2**80, False, WIND)  # no tile (not an OverflowError)
        with pytest.raises(MahjongError):
            _asked(hand, 13, False, {**WIND, "meld_from": [{}]})  # unhashable, wrong
        with pytest.raises(MahjongError) as e:
            _asked(Hand.parse("123m456m789p234s56p"), 13, False, WIND)
        assert e.value.code == "not_a_win"
