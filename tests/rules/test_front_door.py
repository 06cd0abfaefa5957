"""``mjcore.rules.score`` / ``valued_waits``'s way in from C (``_core.rules_score``) and the
compiled entry's look-up of a dict context met lately (docs/rules.md, "The memo around it"):
every answer equals the Python path's, whatever the caller does with its dict between calls."""

from __future__ import annotations

import inspect
import random
import sys
from typing import Any

import pytest

from mjcore import Hand, MahjongError, Meld
from mjcore._core import _context_probe, context_key
from mjcore.rules import resolve_options, score, valued_waits
from mjcore.rules.common import compiled
from mjcore.rules.guangdong import clear_caches
from mjcore.rules.guangdong import scoring as gd

HAND = Hand.parse("123m456p789s11222z")  # 5z (dragon pung) and the 1z pair, a plain win


def python_path(**kw: object) -> object:
    compiled.PURE = True
    try:
        return score(HAND, **kw)  # type: ignore[arg-type]
    finally:
        compiled.PURE = False


def outcome(**kw: object) -> object:
    """The result, or the error code."""
    try:
        return score(HAND, **kw)  # type: ignore[arg-type]
    except MahjongError as exc:
        return exc.code


def test_score_keeps_its_signature_and_documentation() -> None:
    params = inspect.signature(score).parameters
    assert list(params) == ["hand", "win_tile", "ruleset", "self_drawn", "context", "options",
                            "preset"]
    assert all(params[p].kind is inspect.Parameter.KEYWORD_ONLY for p in list(params)[1:])
    assert "winning hand" in (score.__doc__ or "")
    assert list(inspect.signature(valued_waits).parameters)[-1] == "visible"


def test_front_door_errors_match_the_python_functions() -> None:
    with pytest.raises(MahjongError) as exc:
        score(HAND, win_tile=28, ruleset="no-such-rules")
    assert exc.value.code == "unknown_ruleset"
    with pytest.raises(MahjongError) as exc:
        score(HAND, win_tile=28, ruleset="guangdong", options={"no_such_option": 1})
    assert exc.value.code == "bad_option"
    with pytest.raises(TypeError):
        score(HAND, ruleset="guangdong")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        score(HAND, 28, ruleset="guangdong")  # type: ignore[misc]


def test_keywords_named_by_other_objects_get_the_same_answers() -> None:
    # the front door reads keywords by identity with its own (interned) names; names built at
    # run time are other objects, and go through the argument parser instead
    def name(*parts: str) -> str:
        return "".join(parts)

    ctx = {"seat_wind": "2z", "round_wind": "1z"}
    plain = score(HAND, win_tile=28, ruleset="guangdong", self_drawn=True, context=ctx)
    built = {name("win", "_tile"): 28, name("rule", "set"): "guangdong",
             name("self", "_drawn"): True, name("con", "text"): ctx}
    assert all(k is not sys.intern(k) for k in built)
    assert score(HAND, **built) == plain  # type: ignore[arg-type]
    assert score(hand=HAND, win_tile=28, ruleset="guangdong", self_drawn=True,
                 context=ctx) == plain  # (the hand by keyword: the parser's way too)
    ready = Hand.parse("123m456p789s1122z")
    waits = valued_waits(ready, ruleset="guangdong", context=ctx)
    assert valued_waits(ready, **{name("rule", "set"): "guangdong",  # type: ignore[arg-type]
                                  name("con", "text"): ctx}) == waits
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        score(HAND, win_tile=28, ruleset="guangdong", bogus=1)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="positional"):
        valued_waits(ready, "guangdong")  # type: ignore[call-arg]


def test_options_and_preset_take_the_python_route_with_the_same_answers() -> None:
    ctx = {"seat_wind": "2z", "round_wind": "1z"}
    plain = score(HAND, win_tile=28, ruleset="guangdong", context=ctx)
    assert score(HAND, win_tile=28, ruleset="guangdong", context=ctx, options={}) == plain
    o = resolve_options("guangdong")
    assert gd.score(HAND, 28, False, ctx, o) == plain


def test_a_dict_changed_between_calls_is_read_again() -> None:
    clear_caches()
    ctx: dict[str, object] = {"seat_wind": "2z", "round_wind": "1z"}
    for _ in range(3):  # met lately: answered from the entry's slot
        first = score(HAND, win_tile=28, ruleset="guangdong", self_drawn=True, context=ctx)
    ctx["seat_wind"] = "1z"  # the 1z pair is now no seat wind pung either: compare with Python
    changed = score(HAND, win_tile=28, ruleset="guangdong", self_drawn=True, context=ctx)
    assert changed == python_path(win_tile=28, ruleset="guangdong", self_drawn=True, context=ctx)
    ctx["hai_di_lao_yue"] = True
    kai = score(HAND, win_tile=28, ruleset="guangdong", self_drawn=True, context=ctx)
    assert kai == python_path(win_tile=28, ruleset="guangdong", self_drawn=True, context=ctx)
    assert kai.fan > first.fan  # 海底捞月 counts: the slot did not answer for the old dict


def test_equal_values_of_other_types_are_other_contexts() -> None:
    """True == 1 and a list equals no tuple in a memo key: each is its own context (a flag given
    as 1 is the rule set's error every time, not the flag's answer)."""
    clear_caches()
    flag = {"seat_wind": "2z", "round_wind": "1z", "hai_di_lao_yue": True}
    one = {"seat_wind": "2z", "round_wind": "1z", "hai_di_lao_yue": 1}
    for _ in range(3):
        good = outcome(win_tile=28, ruleset="guangdong", self_drawn=True, context=flag)
        assert outcome(win_tile=28, ruleset="guangdong", self_drawn=True, context=one) == \
            python_path_outcome(one)
    assert good == python_path(win_tile=28, ruleset="guangdong", self_drawn=True, context=flag)


def python_path_outcome(ctx: dict[str, object]) -> object:
    compiled.PURE = True
    try:
        return outcome(win_tile=28, ruleset="guangdong", self_drawn=True, context=ctx)
    finally:
        compiled.PURE = False


def test_meld_sources_as_list_and_as_tuple_agree_with_the_python_path() -> None:
    clear_caches()
    melded = Hand(Hand.parse("456p789s11222z").counts, [Meld.of("chi", (0, 1, 2))])
    for src in (["left"], ("left",), ["right"], [None]):
        ctx = {"seat_wind": "2z", "round_wind": "1z", "meld_from": src}
        for _ in range(2):
            got = outcome_of(melded, ctx)
        compiled.PURE = True
        try:
            assert outcome_of(melded, ctx) == got, src
        finally:
            compiled.PURE = False


def outcome_of(hand: Hand, ctx: dict[str, object]) -> object:
    try:
        return score(hand, win_tile=28, ruleset="guangdong", self_drawn=True, context=ctx)
    except MahjongError as exc:
        return exc.code


def test_remembered_contexts_are_bounded() -> None:
    clear_caches()
    entry = gd._ENTRY
    assert entry.contexts is not None
    for k in range(5000):
        entry.remember_context((False, "k", k, int), k)
        assert len(entry.contexts) <= 4096
    entry.forget_contexts()
    assert not entry.contexts


VALUES: tuple[object, ...] = ("2z", "1z", "left", None, True, False, 0, 1, 2, ["left"],
                              ["left", None], [None, "left"], ("left",), [], 1.0, ["left", 1],
                              [1], [True], [1.0], (1,), (True,), ("left", None))


def plain(value: object) -> bool:
    """A value the fingerprint takes: a str, int, bool, None, or a list or tuple of those."""
    items = value if type(value) in (list, tuple) else [value]
    return all(type(x) in (str, int, bool, type(None)) for x in items)  # type: ignore[union-attr]


def test_the_context_slot_match_is_the_memo_key_equality() -> None:
    """``_context_is`` says a dict is the one a key was built from exactly when
    ``context_key`` gives an equal key, both walking the dict and from the items
    ``_context_print`` listed (up to its CTX_ITEMS, 8: past that it walks); equal keys have
    one fingerprint, and a value that is not plain (a float, a tuple) gives none (the key is
    built)."""
    rng = random.Random(11)
    names = ("seat_wind", "round_wind", "discarder", "meld_from", "dealer", "flowers",
             "dealer_streak", "last_tile", "kong_feeder", "qiang_gang", "tianhu")
    checked = 0
    for _ in range(4000):
        size = rng.randrange(4) if rng.random() < 0.7 else rng.randrange(len(names) + 1)
        a = {k: rng.choice(VALUES) for k in rng.sample(names, size)}
        b = dict(a) if rng.random() < 0.5 else {
            k: rng.choice(VALUES) for k in rng.sample(names, rng.randrange(4))}
        if a and rng.random() < 0.3:  # the same items in another order: another key
            b = dict(reversed(list(a.items())))
        sa, sb = rng.choice((True, False, 1)), rng.choice((True, False, 1))
        same = context_key(sa, a) == context_key(sb, b)
        fa, match, listed_match = _context_probe(sa, a, context_key(sb, b))
        fb, _, _ = _context_probe(sb, b, context_key(sb, b))
        printed = all(plain(v) for v in a.values())
        assert (fa != 0) == printed, a
        if printed:
            assert match == same, (sa, a, sb, b)
            assert listed_match == same, (sa, a, sb, b)
            if same:
                assert fa == fb
            checked += 1
    assert checked > 2000


def test_equal_items_of_other_types_are_other_contexts() -> None:
    """``34 == 34.0`` and ``1 == True`` in a list, a tuple or a dict value too, but a rule
    set may take one and refuse the other: a context is served what was kept for another
    only when their values and every item's type agree (a list and a tuple of the same
    items are other keys too)."""
    for a, b in (([34], [34.0]), ([1], [True]), ((34,), (34.0,)), ([34], (34,)),
                 ({"left": 1}, {"left": True}), ({"left": 2}, {"left": 2.0}), (1, True)):
        assert context_key(True, {"x": a}) != context_key(True, {"x": b}), (a, b)
        assert context_key(True, {"x": a}) == context_key(True, {"x": a})
        assert not _context_probe(True, {"x": a}, context_key(True, {"x": b}))[1]
    with pytest.raises(TypeError):  # items not plain: never kept
        hash(context_key(True, {"x": [[34]]}))
    hand = Hand.parse("123m456m789m234p567p99s")
    base = {"seat_wind": "1z", "round_wind": "1z", "dealer": "self"}
    hz_hand, hz_base = Hand.parse("123m456p789s11122z"), {"caishen": "9s", "dealer": "self"}
    for ruleset, h, tile, sd, good, bad in (
            ("taiwan", hand, "9s", True, {**base, "flowers": [34]}, {**base, "flowers": [34.0]}),
            ("taiwan", hand, "9s", True, {**base, "flowers": (34,)},
             {**base, "flowers": (34.0,)}),
            ("hangzhou", hz_hand, "2z", True, {**hz_base, "claims_from": {"left": 2}},
             {**hz_base, "claims_from": {"left": 2.0}}),
            ("hangzhou", hz_hand, "2z", True, {**hz_base, "claims_from": {"left": 1}},
             {**hz_base, "claims_from": {"left": True}})):
        compiled.PURE = True
        try:
            expected = _asked(ruleset, h, tile, sd, bad)
        finally:
            compiled.PURE = False
        for _ in range(3):  # the good one asked, its context kept (an answer from the 2nd)
            assert hasattr(_asked(ruleset, h, tile, sd, good), "value"), (ruleset, good)
        assert _asked(ruleset, h, tile, sd, bad) == expected, (ruleset, bad)


def _asked(ruleset: str, hand: Hand, tile: str, sd: bool, ctx: dict[str, object]) -> object:
    """The result, or the error's (code, text)."""
    try:
        return score(hand, win_tile=tile, self_drawn=sd, context=ctx, ruleset=ruleset)
    except MahjongError as exc:
        return exc.code, str(exc)


def test_a_registration_routes_the_front_door_to_its_engine() -> None:
    """``register`` replaces a rule set of the same name, and ``score`` / ``valued_waits``
    without options then call the new engine's functions (any callable, not only a compiled
    entry), with the new rule set's default options; the old one back, its answers again."""
    import dataclasses

    from mjcore.rules import get_ruleset, register
    from mjcore.rules.common.ruleset import Engine

    old = get_ruleset("sichuan")
    calls: list[tuple[object, ...]] = []

    def fake_score(*args: object) -> str:
        calls.append(args)
        return "scored"

    def fake_waits(*args: object) -> tuple[()]:
        calls.append(args)
        return ()

    new = dataclasses.replace(old, engine=Engine(fake_score, fake_waits, old.engine.validate_move,
                                                 old.engine.legal_moves, old.engine.settle))
    hand = Hand.parse("11223344556677m")
    expected = score(hand, win_tile="7m", ruleset="sichuan", self_drawn=True)
    register(new)
    try:
        assert score(hand, win_tile="7m", ruleset="sichuan", self_drawn=True) == "scored"
        assert valued_waits(hand, ruleset="sichuan") == ()
        assert calls == [(hand, "7m", True, None, new.resolver.default),
                         (hand, None, new.resolver.default, None)]
    finally:
        register(old)
    assert score(hand, win_tile="7m", ruleset="sichuan", self_drawn=True) == expected


def test_setting_pure_switches_every_call_to_the_python_path(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``compiled.PURE`` set (directly or by monkeypatch) sends the very next call to the
    rule set's Python path, and unset back to the core: the entries read the switch in C,
    which the module sets when PURE is set. Seen by whether a Python frame of the rule set
    runs for a call the core answers alone."""
    ctx = {"seat_wind": "2z", "round_wind": "1z"}

    def python_ran() -> bool:
        frames: list[str] = []

        def watch(frame: Any, event: str, arg: object) -> None:
            if event == "call" and frame.f_code.co_filename == gd.__file__:
                frames.append(frame.f_code.co_name)

        sys.setprofile(watch)
        try:
            score(HAND, win_tile=28, ruleset="guangdong", self_drawn=True, context=ctx)
        finally:
            sys.setprofile(None)
        return bool(frames)

    python_ran()  # (the context parsed and compiled once)
    assert not python_ran()
    compiled.PURE = True
    try:
        assert python_ran()
    finally:
        compiled.PURE = False
    assert not python_ran()
    monkeypatch.setattr(compiled, "PURE", True)
    assert python_ran()
    monkeypatch.undo()
    assert not python_ran()
