"""Guangdong's common ``valued_waits`` call (a ``Hand``, a dict context, nothing visible)
answered by the compiled table (``CompiledEntry.serve_waits``): the values of the rules
however often asked, and a self-drawn 包 (§11) whose feeder ``meld_from`` does not name is an
error every time (the wait cannot be paid), as ``score`` says of that win (§15)."""

from __future__ import annotations

from typing import Any

import pytest

from mjcore import Hand, MahjongError
from mjcore.rules import resolve_options
from mjcore.rules.common import compiled
from mjcore.rules.guangdong import clear_caches
from mjcore.rules.guangdong import scoring as gd

WIND = {"seat_wind": "2z", "round_wind": "1z"}


def _answer(hand: Hand, context: dict[str, Any], options: Any) -> Any:
    try:
        return [(w.tile, w.fan_discard, w.fan_self_drawn, w.patterns_discard,
                 w.patterns_self_drawn) for w in gd.valued_waits(hand, context, options)]
    except MahjongError as exc:
        return exc.code, str(exc)


def _python(hand: Hand, context: dict[str, Any], monkeypatch: pytest.MonkeyPatch,
            options: Any = None) -> Any:
    with monkeypatch.context() as m:
        m.setattr(compiled, "PURE", True)
        clear_caches()
        got = _answer(hand, context, options or resolve_options("guangdong"))
    clear_caches()
    return got


def _by_the_table(hand: Hand, context: dict[str, Any], monkeypatch: pytest.MonkeyPatch,
                  options: Any = None) -> list[Any]:
    """Four answers after a first ask (which serves the context): the rule set's own waits
    path is not run again."""
    o = options or resolve_options("guangdong")
    _answer(hand, dict(context), o)
    with monkeypatch.context() as m:
        for name in ("_compiled_waits", "_python_waits"):
            m.setattr(gd, name, lambda *a: pytest.fail("the rule set's own path answered"))
        return [_answer(hand, dict(context), o) for _ in range(4)]


@pytest.mark.parametrize(("hand", "meld_from"), [
    ("123m456m789p23s55s", None),
    ("123m456p789s2z peng:555s", ["right"]),  # a suit meld, its feeder named
    ("12m456p22z chi:345s peng:555s", None),  # suit melds, no feeder said: no 包 possible
    # four melds, every feeder named: the self-draw is 十二张落地 包 (§11)
    ("7z peng:111m peng:555p chi:234s peng:999s", ["right", "across", "left", "left"]),
    # melded 大三元, the last dragon pung's feeder named: 包 on the self-draw
    ("345m2z peng:555z peng:666z peng:777z", ["left", "across", "right"]),
])
def test_served_waits_are_the_rules_values(hand: str, meld_from: list[str] | None,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    h = Hand.parse(hand)
    context = WIND if meld_from is None else {**WIND, "meld_from": meld_from}
    want = _python(h, context, monkeypatch)
    assert want and not isinstance(want[0], str)
    assert _by_the_table(h, context, monkeypatch) == [want] * 4


@pytest.mark.parametrize(("hand", "meld_from"), [
    ("7z peng:111m peng:555p chi:234s peng:999s", None),
    ("7z peng:111m peng:555p chi:234s peng:999s", ["right", "across", "left", None]),
    ("345m2z peng:555z peng:666z peng:777z", ["left", "across", None]),
])
def test_an_unnamed_feeder_is_an_error_every_time(hand: str, meld_from: list[str] | None,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    h = Hand.parse(hand)
    context = WIND if meld_from is None else {**WIND, "meld_from": meld_from}
    want = _python(h, context, monkeypatch)
    assert want[0] == "bad_context" and "meld_from must say who fed" in want[1]
    for _ in range(4):
        assert _answer(h, dict(context), resolve_options("guangdong")) == want


def test_contexts_the_table_does_not_settle_are_right_every_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """min_fan (§15), 抢杠 and 杠上开花 are checked by the rule set's path on every ask."""
    jihu = Hand.parse("123m456p777s234s9m")
    min1 = resolve_options("guangdong", {"min_fan": 1})
    want = _python(jihu, WIND, monkeypatch, min1)
    assert [w[:3] for w in want] == [("9m", -1, 1)]  # 鸡胡 on a discard is below 1 fan
    qg = Hand.parse("12m456p789s123s77z")
    qg_ctx = {**WIND, "qiang_gang": True, "robbed": "left"}
    gsk = Hand.parse("123m456p789s5m angang:3333z")
    gsk_ctx = {**WIND, "gang_shang_kai_hua": True}
    wants = [(qg, qg_ctx, _python(qg, qg_ctx, monkeypatch)),
             (gsk, gsk_ctx, _python(gsk, gsk_ctx, monkeypatch))]
    for _ in range(4):
        assert _answer(jihu, dict(WIND), min1) == want
        for h, c, w in wants:
            assert _answer(h, dict(c), resolve_options("guangdong")) == w


def test_a_score_never_takes_a_waits_question_key() -> None:
    """Waits questions are kept under self_drawn None: a score whose self_drawn is not a bool
    is the rule set's error (§13) even in a context whose waits were asked."""
    clear_caches()
    o = resolve_options("guangdong")
    hand = Hand.parse("123m456m789p23s55s")
    for _ in range(3):
        gd.valued_waits(hand, dict(WIND), o)
    for self_drawn in (None, 1):
        with pytest.raises(MahjongError) as err:
            gd.score(Hand.parse("123m456m789p234s55s"), 20, self_drawn, dict(WIND), o)
        assert err.value.code == "bad_context"
