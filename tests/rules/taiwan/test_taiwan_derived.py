"""Taiwan contexts derived from their situation (docs/rulesets/taiwan.md §7, docs/rules.md
"derived contexts"): a context not seen before, whose winds and flowers are new, is answered
from the compiled context of the same context in the east seat of an east round with no
flowers, given its winds and flowers by ``CompiledEntry``'s parts. What the rules say of
those (taiwan.md §4.5 花槓 and 正花, §4.1 平胡's no flower, the winds' pungs, §10 payments,
§13's checks, §1's error order) must come out as on the Python path, whatever the context:
random winds, dealers, streaks, discarders, winners, flowers (text, lists, tuples; bad ones
too) and flags, good and bad."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest
from compiled_twins import same_result
from test_taiwan_compiled import _OPTIONS, taiwan_hand

from mjcore import Hand, MahjongError
from mjcore._core import context_key
from mjcore.rules import resolve_options
from mjcore.rules.common import compiled
from mjcore.rules.common.inputs import minus_tile
from mjcore.rules.taiwan import scoring as tw

N = max(300, int(os.environ.get("MJ_CROSSCHECK_N", "20000")) // 10)
WINDS = ("1z", "2z", "3z", "4z")
SEATS = ("left", "across", "right")
OPTIONS = [*_OPTIONS, resolve_options("taiwan", {"flowers_in_play": False}),
           resolve_options("taiwan", {"flower_wins": False, "lazhuang": False, "di": 5,
                                      "tai_value": 3})]


def _flowers(rng: random.Random) -> object:
    """A winner's flowers as a server may name them: mostly text, a list or tuple of texts
    or ids now and then, some bad (a flower twice, not a flower, bad notation)."""
    tiles = [k for k in range(1, 9) if rng.random() < 0.2]
    if rng.random() < 0.05:
        tiles = list(range(1, 9))  # all eight: a flower win's (else an error)
    r = rng.random()
    if r < 0.03:
        return rng.choice(("11f", "9f", "1m", "f", 5, ["1f", "1f"], ["1z"], [True], ""))
    if r < 0.1:
        return [f"{k}f" for k in tiles]
    if r < 0.15:
        return tuple(33 + k for k in tiles)
    if r < 0.2:
        return " ".join(f"{k}f" for k in tiles)
    return "".join(str(k) for k in tiles) + "f" if tiles else None


def _context(rng: random.Random, self_drawn: bool, waits: bool = False) -> dict[str, Any]:
    """A random context (its keys in random order); about one in twelve is wrong somewhere."""
    items: list[tuple[str, Any]] = [
        ("seat_wind", rng.choice(WINDS) if rng.random() > 0.02 else rng.choice(("5z", 1))),
        ("round_wind", rng.choice(WINDS) if rng.random() > 0.02 else None),
        ("dealer", rng.choice(("self", *SEATS)) if rng.random() > 0.02 else "up")]
    if rng.random() < 0.5:
        items.append(("dealer_streak", rng.randrange(4) if rng.random() > 0.03 else -1))
    if not waits and (not self_drawn) != (rng.random() < 0.02):
        items.append(("discarder", rng.choice(SEATS)))
    flowers = _flowers(rng)
    if flowers is not None:
        items.append(("flowers", flowers))
    if rng.random() < 0.1:
        items.append(("winner", rng.randrange(4)))
    if rng.random() < 0.15:
        flag = rng.choice(("hai_di_lao_yue", "he_di_lao_yu", "qiang_gang", "tianhu", "dihu",
                           "renhu", "ting", "gang_shang_kai_hua", "flower_win"))
        if flag == "ting":
            items.append((flag, rng.choice(("tian", "di"))))
        elif flag == "gang_shang_kai_hua":
            items += [(flag, True), ("replacement_after", rng.choice(("flower", "angang")))]
        elif flag == "flower_win":
            items.append((flag, rng.choice(("baxian", "qiqiangyi"))))
        else:
            items.append((flag, True))
    rng.shuffle(items)
    return dict(items)


def _answer(ask: Any, *args: Any) -> Any:
    try:
        return ask(*args)
    except MahjongError as exc:
        return exc.code, str(exc)


def _both(monkeypatch: pytest.MonkeyPatch, ask: Any, *args: Any) -> list[Any]:
    """The compiled path's answer (a context not seen: derived if it can be), again (found),
    and the Python path's."""
    got = []
    for pure in (False, False, True):
        monkeypatch.setattr(compiled, "PURE", pure)
        got.append(_answer(ask, *args))
    monkeypatch.setattr(compiled, "PURE", False)
    return got


def test_taiwan_contexts_derived_from_their_situation(monkeypatch: pytest.MonkeyPatch) -> None:
    """``score`` in random contexts: the derived answer is the Python path's (errors too),
    asked while the situations are known, after the answers' cache and after the contexts
    were forgotten."""
    rng = random.Random(61)
    derived = errors = flowered = 0
    tw.clear_caches()
    for i in range(N):
        hand, win = taiwan_hand(rng)
        sd = rng.random() < 0.5
        ctx = _context(rng, sd)
        o = rng.choice(OPTIONS)
        if i % 151 == 0:
            tw.clear_caches()
        elif i % 17 == 0:
            compiled.CompiledTable.clear_cache()
        got = _both(monkeypatch, tw.score, hand, win, sd, ctx, o)
        same_result(got[2], got[0])
        same_result(got[2], got[1])
        try:
            key = tw._CIDS.get(context_key(sd, ctx))
        except TypeError:
            key = None
        if type(key) is int and key < 0:
            derived += 1
            flowered += bool(ctx.get("flowers"))
        errors += isinstance(got[2], tuple) and not hasattr(got[2], "value")
    assert derived > N // 3 and flowered > N // 10 and errors > N // 50, (derived, flowered,
                                                                          errors)


def test_taiwan_waits_contexts_derived_from_their_situation(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``valued_waits`` in random contexts: the waits of a derived pair are the Python
    path's."""
    rng = random.Random(62)
    derived = answered = 0
    tw.clear_caches()
    for i in range(N // 4):
        hand, win = taiwan_hand(rng)
        ready = minus_tile(hand, win)
        ctx = _context(rng, False, waits=True)
        o = rng.choice(OPTIONS)
        if i % 53 == 0:
            tw.clear_caches()
        elif i % 11 == 0:
            compiled.CompiledTable.clear_cache()
        got = _both(monkeypatch, tw.valued_waits, ready, ctx, o)
        same_result(got[2], got[0])
        same_result(got[2], got[1])
        try:
            served = tw._CIDS.get(context_key(None, ctx))
        except TypeError:
            served = None
        derived += type(served) is dict  # (a derived pair: a plain dict by options)
        answered += bool(got[2]) and not isinstance(got[2][0], str)
    assert derived > N // 16 and answered > N // 16, (derived, answered)


def test_the_flower_parts_say_what_the_rules_say(monkeypatch: pytest.MonkeyPatch) -> None:
    """花槓 per complete set, 正花 per seat flower outside one (huagang_replaces_zhenghua),
    no 平胡 with a flower, the seat's wind pung: one hand in each seat with each flower set,
    through a derived context (its situation asked first), against the Python path."""
    monkeypatch.setattr(compiled, "PURE", False)
    hand = Hand.parse("123m456m789m234p567p99s")  # 平胡 on a discard of 2p
    east = Hand.parse("123m456m789m111z567p99s")  # east's pung
    for o in (resolve_options("taiwan"),
              resolve_options("taiwan", {"huagang_replaces_zhenghua": False})):
        for seat in WINDS:
            for flowers in ("", "1f", "5f", "15f", "26f", "1234f", "5678f", "123456f"):
                ctx = {"seat_wind": seat, "round_wind": "2z", "dealer": "across",
                       "discarder": "left", "flowers": flowers}
                for h, w in ((hand, 10), (east, 0)):
                    want = tw._evaluate(*tw.analyse(h, w, False, ctx, o), o)
                    tw.score(h, w, False, {**ctx, "seat_wind": "1z", "round_wind": "1z",
                                           "flowers": ""}, o)
                    assert tw.score(h, w, False, ctx, o) == want, (seat, flowers)
                    assert tw._CIDS[context_key(False, ctx)] < 0  # derived


def test_the_parts_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The entry keeps parts by value (bad ones too) and derived contexts up to their
    bounds, whatever the values met; answers stay the Python path's past them."""
    monkeypatch.setattr(compiled, "PURE", False)
    tw.clear_caches()
    o = resolve_options("taiwan")
    hand = Hand.parse("123m456m789m234p567p99s")
    entry = tw._ENTRY
    assert entry.contexts is not None
    for k in range(5000):  # a new bad flowers value each time: an error, its part kept
        ctx = {"seat_wind": "2z", "round_wind": "1z", "dealer": "left", "discarder": "left",
               "flowers": f"{k}m"}
        assert _answer(tw.score, hand, 10, False, ctx, o)[0] in ("bad_tile", "bad_notation")
        assert len(entry.part_memo) <= 4096
    rng = random.Random(63)
    for k in range(5000):  # distinct good contexts: derived, kept up to the bound
        sd = k % 2 == 0
        ctx = {"seat_wind": WINDS[k % 4], "round_wind": WINDS[k // 4 % 4],
               "dealer": ("self", *SEATS)[k // 16 % 4], "dealer_streak": k // 64 % 3,
               "flowers": "".join(str(j) for j in range(1, 8) if rng.random() < 0.3) + "8f"}
        if not sd:
            ctx["discarder"] = SEATS[k % 3]
        got = tw.score(hand, 10, sd, ctx, o)
        assert len(entry.contexts) <= 4096 and len(entry.part_memo) <= 4096
        if k % 250 == 0:
            assert got == tw._evaluate(*tw.analyse(hand, 10, sd, ctx, o), o)
    tw.clear_caches()
    assert not entry.contexts and not entry.part_memo


def test_a_derived_answer_is_kept_from_its_second_ask(monkeypatch: pytest.MonkeyPatch) -> None:
    """A derived context's key is one object (the cache tells keys apart by identity): its
    answer is kept on the second ask and given from the third (keys past the small ints
    Python shares: Cython had made three ints of the key, and kept it from the third ask)."""
    monkeypatch.setattr(compiled, "PURE", False)
    tw.clear_caches()
    o = resolve_options("taiwan")
    hand = Hand.parse("123m456m789m234p567p99s")
    for k in range(12):  # (a dozen derived keys first: -1 to -12)
        tw.score(hand, 10, True, {"seat_wind": WINDS[k % 4], "round_wind": WINDS[k // 4],
                                  "dealer": "left", "flowers": f"{k % 8 + 1}f"}, o)
    ctx = {"seat_wind": "2z", "round_wind": "4z", "dealer": "left", "discarder": "left"}
    first, second, third = (tw.score(hand, 10, False, dict(ctx), o) for _ in range(3))
    assert tw._CIDS[context_key(False, ctx)] < -5 and first == second == third
    assert third is second


def test_a_table_full_of_its_own_contexts_does_not_forget_each_derived_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A table holding its bound of contexts the rule set compiled (numbers parsed earlier,
    forgotten since) is emptied once; the contexts derived after it stay remembered (the
    entry forgetting everything before each new derived context would keep only the last)."""
    monkeypatch.setattr(compiled, "PURE", False)
    tw.clear_caches()
    o = resolve_options("taiwan")
    hand = Hand.parse("123m456m789m234p567p99s")
    base = {"seat_wind": "2z", "round_wind": "1z", "dealer": "left", "discarder": "left"}
    tw.score(hand, 10, False, base, o)
    t = tw._TABLES[o]
    spare = t.context(tw._CIDS[context_key(False, base)])
    assert spare is not None
    k, emptied_at = 0, None
    while emptied_at is None or k - emptied_at < 4094:  # (the situation's makes 4,095)
        t.add_context(("filler", k), spare)
        if emptied_at is None and t.context(("filler", 0)) is None:
            emptied_at = k  # (the table's bound: it kept only this one)
        k += 1
    contexts = [{**base, "flowers": f"{j}f"} for j in range(1, 8)]
    for ctx in contexts:
        assert tw.score(hand, 10, False, ctx, o) == tw._evaluate(
            *tw.analyse(hand, 10, False, ctx, o), o)
    assert all(tw._CIDS.get(context_key(False, ctx), 0) < 0 for ctx in contexts)
