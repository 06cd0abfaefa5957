"""The front door with options (``_core._FrontOptions``): a call that gives options or a preset
goes from C to the rule set's engine with the options the resolver gave lately for the same
content, so every answer and every error must be the general path's (the Python
``mjcore.rules.score`` / ``valued_waits``, kept as ``_python_score`` / ``_python_valued_waits``
behind the front door), for every rule
set, whatever the caller does with its dict between calls."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from mjcore import MahjongError, _core
from mjcore.rules import (
    RULESETS,
    _python_score,
    _python_valued_waits,
    get_ruleset,
    score,
    valued_waits,
)
from mjcore.tiles import format_tiles, parse_tiles

CASES = Path(__file__).resolve().parents[1] / "cases"
general_score: Callable[..., Any] = _python_score
general_waits: Callable[..., Any] = _python_valued_waits


def cases(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (CASES / f"{name}.jsonl").read_text().splitlines()]


def ready(hand: str, win_tile: str) -> str:
    """The hand less its winning tile (a ready hand), its melds kept (a flower win: as it is,
    which waits refuse)."""
    concealed, _, melds = hand.partition(" ")
    tiles = parse_tiles(concealed)
    if parse_tiles(win_tile)[0] not in tiles:
        return hand
    tiles.remove(parse_tiles(win_tile)[0])
    return f"{format_tiles(tiles)} {melds}".strip()


def outcome(fn: Callable[..., Any], *args: Any, **kw: Any) -> Any:
    """The answer, or the error's (code, text)."""
    try:
        return fn(*args, **kw)
    except MahjongError as exc:
        return exc.code, str(exc)


def bad_options(name: str) -> Iterator[dict[str, Any]]:
    """Options each rule set refuses: an unknown name, and per option values of the wrong
    type or out of range (an int for a flag, a flag for an int, a list of flags for a list
    of ints: each equal to a valid value, but not one)."""
    yield {"no_such_option": 1}
    yield {1: True}
    for spec in get_ruleset(name).options.specs():
        if spec.kind == "bool":
            yield {spec.name: 1}
            yield {spec.name: "true"}
        elif spec.kind == "int":
            yield {spec.name: True}
            yield {spec.name: -1 if spec.minimum is None else spec.minimum - 1}
        elif spec.kind == "enum":
            yield {spec.name: "no-such-value"}
        elif spec.kind == "int_list":
            yield {spec.name: [True] * (spec.length or 1)}
            yield {spec.name: [1] * ((spec.length or 1) + 1)}
        yield {spec.name: None} if not spec.none_allowed else {spec.name: [None]}


def good_options(name: str) -> Iterator[tuple[dict[str, Any] | None, str | None]]:
    """Options and presets each rule set accepts: the worked cases' and each preset."""
    for case in cases(name):
        options = dict(case["options"])
        yield options, None
        preset = options.pop("preset", None)
        if preset is not None:
            yield options, preset
    for preset in get_ruleset(name).presets:
        yield None, preset
        yield {"preset": preset}, None


def ask_both(name: str, case: dict[str, Any], options: Any, preset: Any) -> None:
    """Score and waits of a worked case through the front door twice (found the second time)
    and through the general path: the same outcome."""
    kw = dict(ruleset=name, context=case["context"], options=options, preset=preset)
    want = outcome(general_score, case["hand"], win_tile=case["win_tile"],
                   self_drawn=case["self_drawn"], **kw)
    for _ in range(2):
        assert outcome(score, case["hand"], win_tile=case["win_tile"],
                       self_drawn=case["self_drawn"], **kw) == want, (case["id"], options)
    rest = ready(case["hand"], case["win_tile"])
    want = outcome(general_waits, rest, **kw)
    for _ in range(2):
        assert outcome(valued_waits, rest, **kw) == want, (case["id"], options)


@pytest.mark.parametrize("name", RULESETS)
def test_options_give_the_general_paths_answers(name: str) -> None:
    for case in cases(name):
        for options, preset in good_options(name):
            ask_both(name, case, options, preset)


@pytest.mark.parametrize("name", RULESETS)
def test_bad_options_give_the_general_paths_errors(name: str) -> None:
    case = cases(name)[0]
    for options in bad_options(name):
        for preset in (None, next(iter(get_ruleset(name).presets))):
            ask_both(name, case, options, preset)
    for preset in ("no-such-preset", 3):
        ask_both(name, case, None, preset)
        ask_both(name, case, {}, preset)
    ask_both(name, case, {"preset": "no-such-preset"}, None)
    ask_both(name, case, MappingProxyType(dict(case["options"])), None)
    ask_both(name, case, [("a", 1)], None)


def test_a_valid_list_does_not_answer_for_an_equal_list_of_flags() -> None:
    """[1, 2, ...] == [True, 2, ...]: the first is a valid fan_points, the second refused."""
    case = cases("guangdong")[0]
    points = [1, 2, 4, 8, 16, 32, 64]
    ask_both("guangdong", case, {"fan_points": points}, None)
    flags = {"fan_points": [True, *points[1:]]}
    with pytest.raises(MahjongError) as exc:
        score(case["hand"], win_tile=case["win_tile"], ruleset="guangdong",
              self_drawn=case["self_drawn"], context=case["context"], options=flags)
    assert exc.value.code == "bad_option"
    ask_both("guangdong", case, flags, None)


def test_a_dict_changed_between_calls_is_read_again() -> None:
    case = next(c for c in cases("hangzhou") if c["options"].get("caishen_mode") == "baiban")
    options = dict(case["options"])
    ask_both("hangzhou", case, options, None)
    options["base_points"] = 7
    ask_both("hangzhou", case, options, None)
    options["base_points"] = "7"  # (a valid integer too, the same options)
    ask_both("hangzhou", case, options, None)
    options["base_points"] = True
    ask_both("hangzhou", case, options, None)
    del options["base_points"]
    options["caishen_mode"] = "flip"  # (the case has no caishen: a bad context now)
    ask_both("hangzhou", case, options, None)


def test_options_met_lately_skip_the_general_path(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = []

    def spy(fn: Callable[..., Any]) -> Callable[..., Any]:
        def called(*args: Any, **kw: Any) -> Any:
            asked.append(kw["options"])
            return fn(*args, **kw)
        return called

    _core._set_general(spy(general_score), spy(general_waits))
    try:
        case = cases("hangzhou")[0]
        for options in ({}, {"caishen_mode": "baiban"}, {"caishen_mode": "baiban"},
                        {"caishen_mode": "baiban", "no_such_option": 1}):
            outcome(score, case["hand"], win_tile=case["win_tile"], ruleset="hangzhou",
                    context=case["context"], options=options, self_drawn=True)
            outcome(valued_waits, ready(case["hand"], case["win_tile"]), ruleset="hangzhou",
                    context=case["context"], options=options)
    finally:
        _core._set_general(general_score, general_waits)
    assert asked == [{"caishen_mode": "baiban", "no_such_option": 1}] * 2


def test_the_options_kept_are_bounded() -> None:
    kept = _core._front_options("hangzhou")
    case = next(c for c in cases("hangzhou") if c["options"].get("caishen_mode") == "baiban")
    for base in range(1, 400):
        options = {**case["options"], "base_points": base}
        got = score(case["hand"], win_tile=case["win_tile"], ruleset="hangzhou",
                    self_drawn=case["self_drawn"], context=case["context"], options=options)
        assert got.total == base * general_score(
            case["hand"], win_tile=case["win_tile"], ruleset="hangzhou",
            self_drawn=case["self_drawn"], context=case["context"],
            options=case["options"]).total
    assert 0 < kept._kept() <= 64
