"""Compiled scoring of the wild-tile rule sets (docs/rules.md, "Compiled scoring"; the wild
half of test_compiled_scoring.py) against their Python twin.

* the C wild readings (``_c_wild_readings``: 七对, standard, the ``wild_pair`` reading) are
  the readings Hangzhou's Python analysis finds, and their C features are what
  ``common.compiled.wild_features_of`` states in Python;
* each table row's ``when`` (and ``times``) holds exactly where its Python predicate does,
  row by row, on every reading and win context of a seeded sample;
* the compiled ``score`` and ``valued_waits`` equal the Python path on every field, on every
  worked case and on a seeded sample over options and contexts (``MJ_CROSSCHECK_N``).

``make test`` also runs the Hangzhou scoring tests a second time with ``MJ_PURE_SCORING=1``.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from compiled_twins import both_paths, case_options, feature_flags, same_result

from mjcore import Hand, MahjongError, Meld
from mjcore._core import _c_placed_readings, _c_wild_readings
from mjcore.rules import resolve_options
from mjcore.rules.common import compiled
from mjcore.rules.hangzhou import scoring as hz
from mjcore.rules.hangzhou import table as hz_table

N = max(400, int(os.environ.get("MJ_CROSSCHECK_N", "20000")) // 8)
CASES = Path(__file__).resolve().parents[1] / "cases" / "hangzhou.jsonl"
SUITS = "mpsz"
BAIBAN = 31


def text(t: int) -> str:
    return f"{t % 9 + 1}{SUITS[t // 9]}"


def hangzhou_hand(rng: random.Random) -> tuple[Any, int, int, bool]:
    """A random Hangzhou hand that is mostly a win: (Hand or text, winning tile, wild kind,
    flip mode). Written in role coordinates first (naturals, wilds), then as physical tiles:
    a wild is the 财神 kind T, a natural T is a 白板 in flip mode."""
    while True:
        flip = rng.random() < 0.6
        wild = rng.randrange(34) if flip else BAIBAN
        role = [0] * 34
        melds: list[tuple[str, int]] = []
        if rng.random() < 0.15:
            for _ in range(7):  # kinds may repeat: 豪华 groups
                role[rng.randrange(34)] += 2
        else:
            for _ in range(4):
                x = rng.random()
                if x < 0.45:
                    k = rng.randrange(27)
                    k -= max(0, k % 9 - 6)
                    for j in range(3):
                        role[k + j] += 1
                elif x < 0.8:
                    role[rng.randrange(34)] += 3
                else:
                    melds.append((rng.choice(("peng", "gang", "angang", "bugang")),
                                  rng.randrange(34)))
            role[rng.randrange(34)] += 2
        if role[BAIBAN] and wild != BAIBAN or (wild == BAIBAN and role[BAIBAN]):
            continue  # the 白板 slot holds the wilds in role coordinates
        if any(t == BAIBAN for _, t in melds) and wild == BAIBAN:
            continue
        tiles = [t for t in range(34) for _ in range(role[t])]
        nwild = rng.choice((0, 1, 1, 2, 2, 3, 4))
        pos = rng.sample(range(len(tiles)), min(nwild, len(tiles)))
        physical = [wild if i in pos else (BAIBAN if t == wild else t)
                    for i, t in enumerate(tiles)]
        if rng.random() < 0.1:  # not a win, most likely
            physical[rng.randrange(len(physical))] = rng.randrange(34)
        counts = [0] * 34
        for t in physical:
            counts[t] += 1
        meld_objs = [Meld(kind, (BAIBAN if t == wild else t,) * (3 if kind == "peng" else 4))
                     for kind, t in melds]
        held = counts[:]
        for m in meld_objs:
            held[m.tiles[0]] += len(m.tiles)
        if max(held) > 4 or any(m.tiles[0] == wild for m in meld_objs):
            continue
        tile = rng.choice(physical)
        if meld_objs or rng.random() < 0.3:
            return Hand(counts, meld_objs), tile, wild, flip
        return "".join(text(t) for t in sorted(physical)), tile, wild, flip


def _hangzhou_wins(rng: random.Random, n: int,
                   ) -> Iterator[tuple[Any, Any, int, hz.Roles, int, list[int]]]:
    """Of ``n`` random Hangzhou wins, each the rules take: (hand, winning tile, wild kind, its
    roles, the drawn tile's kind as the roles see it, the natural counts without 白板)."""
    o = resolve_options("hangzhou")
    for _ in range(n):
        hand, tile, wild, _ = hangzhou_hand(rng)
        try:
            r = hz.roles(hz.physical(hand), wild, o)
        except MahjongError:
            continue
        naturals = list(r.counts)
        naturals[BAIBAN] = 0
        yield hand, tile, wild, r, BAIBAN if tile == wild else hz.natural(tile, wild), naturals


def test_hangzhou_wild_readings_and_features_are_the_python_ones() -> None:
    o = resolve_options("hangzhou")
    seen = set()
    for hand, tile, wild, r, drawn, naturals in _hangzhou_wins(random.Random(31), N):
        on_discard, on_self = hz.analyse(r, drawn, o)
        for sd, py in ((False, on_discard), (True, on_self)):
            c = _c_wild_readings(hand, tile, wild, BAIBAN, sd)
            assert c is not None and len(c) == len(py), (hand, tile, wild, sd)
            for (bits, (gen, melds)), x in zip(c, py, strict=True):
                names, counts = compiled.wild_features_of(x.shape, x.baotou, naturals, r.melds)
                assert bits == feature_flags(names), (hand, tile, wild, x)
                assert (gen, melds) == (counts["gen"], counts["melds"]), (hand, x)
                seen.add((x.shape, x.baotou))
    assert seen == {("standard", False), ("standard", True), ("qidui", False)}


_FACTS = [hz_table.WinFacts(n, gk, pg) for n in range(4) for gk in (False, True)
          for pg in (False, True) if not (pg and not n)]


def test_hangzhou_conditions_are_the_predicates_row_by_row() -> None:
    """Every row's ``when``/``times`` against its predicate, on every reading and context."""
    table = hz_table.TABLE
    options = [resolve_options("hangzhou"), resolve_options("hangzhou", {"piao_max": 1})]
    checked = 0
    for _hand, _tile, _wild, r, drawn, naturals in _hangzhou_wins(random.Random(32), N // 4):
        for x in hz.analyse(r, drawn, options[0])[1]:
            names, counts = compiled.wild_features_of(x.shape, x.baotou, naturals, r.melds)
            for facts in _FACTS:
                for o in options:
                    f = facts._replace(piao=min(facts.piao, o.piao_max))
                    feats = names | {n for n, on in (
                        ("gang", f.gang_kai or f.piao_on_gang), ("gang_kai", f.gang_kai)) if on}
                    cnt = {**counts, "piao": f.piao, "gang_piao_fan": 2 + f.piao}
                    for p in table.patterns:
                        assert compiled.holds(p.when or (), feats, cnt) == bool(
                            p.predicate(x, f, o)), (p.id, x, f)
                    for e in table.extras:
                        on = compiled.holds(e.when or (), feats, cnt)
                        n = (cnt[e.times] if e.times else 1) if on else 0
                        assert n == e.count(x, f, o), (e.id, x, f)
                    checked += 1
    assert checked > N


def _both(monkeypatch: pytest.MonkeyPatch, fn: Any, *args: Any) -> list[Any]:
    """(Python path, compiled path) answers, every memo cleared: a result or (code, text)."""
    return both_paths(monkeypatch, hz.clear_caches, fn, *args)


@pytest.mark.parametrize("case", [json.loads(x) for x in CASES.read_text("utf-8").splitlines()
                                  if x.strip()], ids=lambda c: c["id"])
def test_hangzhou_cases_on_both_paths(case: dict[str, Any],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    o = case_options("hangzhou", case)
    if o is None:
        return  # an options error: no scoring path runs
    a, b = _both(monkeypatch, hz.score, case["hand"], case["win_tile"], case["self_drawn"],
                 case["context"] or None, o)
    same_result(a, b)


_OPTIONS: list[dict[str, Any]] = [
    {}, {}, {"max_multiplier": 4}, {"baotou_wilds_in_sets": False}, {"piao_max": 1},
    {"discard_payment": "discarder_pays_three", "base_points": 5}, {"chengbao_threshold": 2},
    {"fangchong_min_streak": 0, "wild_discard_claimable": True}, {"louhu_scope": "whole_hand"},
    # options the core does not compile (every placement of the wilds matters): Python twice
    {"wild_copy_limit": True}, {"qidui_baotou": True}, {"haohua_with_wild": True}]


def _context(rng: random.Random, wild: int, flip: bool, sd: bool) -> dict[str, Any]:
    ctx: dict[str, Any] = {}
    if flip:
        ctx["caishen"] = text(wild)
    if sd:
        if rng.random() < 0.3:
            ctx["piao_count"] = rng.choice((1, 1, 2, 3))
            if rng.random() < 0.3:
                ctx["piao_on_gang"] = True
        if rng.random() < 0.2:
            ctx["gang_kai"] = True
        if rng.random() < 0.2:
            ctx["claims_from"] = {rng.choice(hz.RELATIVE): rng.choice((2, 3, 4))}
    else:
        ctx["discarder"] = rng.choice(hz.RELATIVE)
        ctx["dealer"] = rng.choice(("self", "self", "left", "across", "right"))
        ctx["dealer_streak"] = rng.choice((0, 2, 2, 5))
        if rng.random() < 0.15:
            ctx["passed_win_tiles"] = [text(rng.randrange(34))]
        if rng.random() < 0.1:
            ctx["piao_lock"] = True
    if rng.random() < 0.3:
        ctx["winner"] = rng.randrange(4)
    if rng.random() < 0.02:
        ctx["no_such_key"] = 1
    return ctx


def test_hangzhou_sample_on_both_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(33)
    answered = compiled_answers = 0
    for _ in range(N):
        hand, tile, wild, flip = hangzhou_hand(rng)
        sd = rng.random() < 0.7
        ctx = _context(rng, wild, flip, sd)
        opts = {**rng.choice(_OPTIONS), **({} if flip else {"caishen_mode": "baiban"})}
        o = resolve_options("hangzhou", opts)
        win: Any = rng.choice((tile, text(tile)))
        a, b = _both(monkeypatch, hz.score, hand, win, sd, ctx, o)
        same_result(a, b)
        answered += hasattr(a, "value")
        # the compiled path answered (the Python path keeps its answers in _RESULTS)
        compiled_answers += hasattr(b, "value") and not hz._RESULTS
    assert answered > N // 3
    assert compiled_answers > N // 4


def test_hangzhou_valued_waits_on_both_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(34)
    asked = answered = 0
    for _ in range(N // 8):
        hand, tile, wild, flip = hangzhou_hand(rng)
        if isinstance(hand, str):
            hand = Hand.parse(hand)
        counts = list(hand.counts)
        counts[tile] -= 1
        ready = Hand(counts, hand.melds)
        ctx = _context(rng, wild, flip, True)
        opts = {**rng.choice(_OPTIONS), **({} if flip else {"caishen_mode": "baiban"})}
        o = resolve_options("hangzhou", opts)
        visible = rng.choice((None, [rng.randrange(2) for _ in range(34)]))
        a, b = _both(monkeypatch, hz.valued_waits, rng.choice((ready, ready.to_text())), ctx,
                     o, visible)
        assert a == b, (ready, ctx, opts)
        asked += 1
        answered += bool(a) and not isinstance(a[0], str)
    assert answered > asked // 3


def test_hangzhou_contexts_derived_from_their_situation(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A flip-mode context not met before is derived from its situation (the same context
    with 财神 1m) and the wild its ``caishen`` names (``_part``), never for a discard (its
    refusals block the wild's own tile) nor beside an ``indicator``: asked one after another
    with nothing cleared (situations, derived contexts and answers kept, each asked twice),
    scores and waits equal the Python path's, and most contexts were derived."""
    rng = random.Random(36)
    rests: list[dict[str, Any]] = [
        {}, {"piao_count": 1}, {"gang_kai": True}, {"claims_from": {"left": 3}}, {"winner": 2},
        {"discarder": "left", "dealer": "self", "dealer_streak": 2},
        {"discarder": "right", "dealer": "right", "dealer_streak": 2,
         "passed_win_tiles": ["3m"]}]
    questions = []
    while len(questions) < N // 4:
        hand, tile, wild, flip = hangzhou_hand(rng)
        if not flip:
            continue
        rest = rng.choice(rests)
        sd = "discarder" not in rest
        ctx = {"caishen": rng.choice((text(wild), text(wild), "1m")), **rest}
        if rng.random() < 0.05:
            ctx["indicator"] = rng.choice(("9s", text(wild)))
        o = resolve_options("hangzhou", rng.choice(_OPTIONS[:9]))
        if rng.random() < 0.6:
            questions.append((hz.score, hand, rng.choice((tile, text(tile))), sd, ctx, o))
        else:
            if isinstance(hand, str):
                hand = Hand.parse(hand)
            counts = list(hand.counts)
            counts[tile] -= 1
            ready = Hand(counts, hand.melds)
            questions.append((hz.valued_waits, rng.choice((ready, ready.to_text())), ctx, o))

    def answers() -> list[Any]:
        out = []
        for fn, *args in questions:
            try:
                out.append(fn(*args))
            except MahjongError as exc:
                out.append((exc.code, str(exc)))
        return out

    monkeypatch.setattr(compiled, "PURE", True)
    hz.clear_caches()
    python = answers()
    monkeypatch.setattr(compiled, "PURE", False)
    hz.clear_caches()
    for _ in range(2):
        for got, want, q in zip(answers(), python, questions, strict=True):
            assert got == want, q[1:]
            if hasattr(want, "decomposition"):
                same_result(got, want)
    derived = 0  # (questions in a context the entry derived: a key's number, or a plain
    for fn, *args in questions:  # dict of waits pairs, which serving more options replaces)
        key = compiled.context_key(args[2] if fn is hz.score else None, args[-2])
        value = hz._ENTRY.contexts.get(key)  # (None: refused)
        derived += type(value) is int or type(value) is dict
    assert derived > len(questions) // 5


def test_score_keeps_an_answer_from_its_second_ask(monkeypatch: pytest.MonkeyPatch) -> None:
    """``score`` is ``CompiledEntry.score``: a hand in a context met before is answered from
    the compiled tables' cache, which keeps an answer when a question comes a second time
    (a text hand and a tile's text too, for Hangzhou); the Python path is never asked."""
    from mjcore.rules.wuhan import scoring as wh

    monkeypatch.setattr(compiled, "PURE", False)
    calls = (
        (hz, "123m456p789s111z9s7p", "7p", True, {"caishen": "9s"}),
        (hz, Hand.parse("123m456p789s111z9s7p"), 15, True, {"caishen": "9s"}),
        (wh, Hand.parse("234m456p9p5s chi:123s peng:111z"), 17, True, {"laizi": "9p"}),
    )
    for module, hand, tile, sd, ctx in calls:
        module.clear_caches()
        o = resolve_options(module.NAME)
        first, second, third = (module.score(hand, tile, sd, ctx, o) for _ in range(3))
        assert first == second == third and first is not second and third is second
        assert not module._RESULTS  # (the Python path's memo)
        monkeypatch.setattr(compiled, "PURE", True)  # the Python path answers the same
        assert module.score(hand, tile, sd, ctx, o) == first
        monkeypatch.setattr(compiled, "PURE", False)


@pytest.mark.parametrize(("melds", "meld_from", "code"), [
    ("peng:111s peng:555s peng:777s", ["across", "across", "across"], None),  # 放三铺
    ("peng:111s peng:555s peng:777s", ["across", "left", "right"], None),
    ("peng:111s peng:555s peng:777s", ["across", "across"], "bad_context"),  # one too few
    ("peng:111s peng:555s peng:777s", [None, "across", "across"], "bad_context"),  # unnamed
    ("chi:123s peng:555s peng:777s", ["left", "across", "across"], None),
    ("chi:123s peng:555s peng:777s", ["across", "left", "left"], "bad_context"),  # a chi
    ("angang:1111s peng:555s peng:777s", [None, "right", "right"], None),
    ("angang:1111s peng:555s peng:777s", ["left", "right", "right"], "bad_context"),  # angang
])
def test_wuhan_meld_from_on_both_paths(melds: str, meld_from: list[str | None], code: str | None,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A context naming where each meld came from is checked against the hand, and priced
    (放三铺), by the core as by the Python path."""
    from mjcore.rules.wuhan import scoring as wh

    o = resolve_options("wuhan")
    hand = Hand.parse(f"234s88s {melds}")
    for sd, extra in ((True, {}), (False, {"discarder": "left"})):
        ctx = {"laizi": "9p", "meld_from": meld_from, **extra}
        got = both_paths(monkeypatch, wh.clear_caches, wh.score, hand, 25, sd, ctx, o)
        same_result(got[0], got[1])
        if code is None:
            assert hasattr(got[1], "value") and not wh._RESULTS  # the core answered
        else:
            assert got[1][0] == code
    if meld_from == ["across"] * 3:
        assert got[1].liable == "fangsanpu"
    waits = []  # and the waits of the hand less its 8s, in the same context
    for pure in (True, False):
        monkeypatch.setattr(compiled, "PURE", pure)
        wh.clear_caches()
        try:
            waits.append(wh.valued_waits(Hand.parse(f"234s8s {melds}"),
                                         {"laizi": "9p", "meld_from": meld_from}, o))
        except MahjongError as exc:
            waits.append((exc.code, str(exc)))
    assert waits[0] == waits[1]
    assert waits[1][0] == code if code else "8s" in [w.tile for w in waits[1]]


def test_the_compiled_path_answers_a_wild_hand_itself() -> None:
    """The core answers a wild win and its waits (no fall back to Python)."""
    o = resolve_options("hangzhou")
    t = hz._compiled_table(o)
    assert t is not None
    key = hz._table_key(t, True, {"caishen": "9s"}, o)
    c = t.context(key)
    assert c is not None
    got = t.score_wild("123m456p789s111z9s7p", "7p", c)
    assert got is not None and [(h.id, h.fan) for h in got.patterns] == [("baotou", 1)]
    assert t.score_wild("123m456p789s112z9s8p", "8p", c) is None  # not a win: Python's
    cd, cs = hz._wait_contexts(hz.parse_context({"caishen": "9s"}, True, o), o)
    waits = t.valued_waits_wild("123m456p789s111z9s", cd, cs)
    assert waits is not None and 26 in [w.id for w in waits]  # the 9s itself (财神归位)


def test_wild_tables_take_only_wild_features() -> None:
    from mjcore.rules.common.table import FanTable, PatternSpec, Policy

    row = PatternSpec("x", "x", 1, "x", lambda r, c, o: True, when=("qing",))
    table = FanTable(Policy("shape_times_event", exponent=True), (row,))
    with pytest.raises(ValueError, match="not a feature of a wild reading"):
        compiled.compile_table(table, None, name="x", unit="fan", wild_pair_sets_wild=True)
    assert compiled.compile_table(table, None, name="x", unit="fan") is None  # not compiled


# --------------------------------------------------------------------------- Wuhan

WH_CASES = Path(__file__).resolve().parents[1] / "cases" / "wuhan.jsonl"


def wuhan_hand(rng: random.Random) -> tuple[Hand, int, int]:
    """A random Wuhan hand, mostly a win: sets (some declared), a pair (often 2/5/8), zero to
    four 赖子 standing in, now and then a 痞子杠 or 赖子杠 laid aside; (hand, tile, 赖子)."""
    while True:
        laizi = rng.choice((17, 17, 4, 22, 27, 30))  # 9p mostly; a 5m, 5s and winds too
        counts = [0] * 34
        melds: list[Meld] = []
        for i in range(4):
            declared = rng.random() < (0.5 if i == 0 else 0.25)
            if rng.random() < 0.5:
                s, r = rng.randrange(3), rng.randrange(7)
                run = tuple(s * 9 + r + k for k in range(3))
                if declared:
                    melds.append(Meld("chi", run))
                else:
                    for t in run:
                        counts[t] += 1
            else:
                t = rng.randrange(33)
                if declared:
                    kind = rng.choice(("peng", "peng", "gang", "bugang", "angang"))
                    melds.append(Meld(kind, (t,) * (3 if kind == "peng" else 4)))
                else:
                    counts[t] += 3
        counts[rng.choice((1, 4, 7, 10, 13, 16, 19, 22, 25, rng.randrange(33)))] += 2
        for _ in range(rng.choice((0, 0, 1, 1, 2, 3))):
            ks = [x for x in range(34) if counts[x] and x != laizi]
            if ks:
                t = rng.choice(ks)
                counts[t] -= 1
                counts[laizi] += 1
        if rng.random() < 0.15:
            melds.append(Meld("pizigang", (33,)))
        if rng.random() < 0.05:
            melds.append(Meld("laizigang", (laizi,)))
        if any(laizi in m.tiles and m.kind != "laizigang" or 33 in m.tiles and m.kind !=
               "pizigang" for m in melds):
            continue
        held = counts[:]
        for m in melds:
            for t in m.tiles:
                held[t] += 1
        if max(held) > 4 or counts[33]:
            continue
        return Hand(counts, melds), rng.choice([t for t in range(34) if counts[t]]), laizi


def _wuhan_readings(hand: Hand, laizi: int) -> tuple[Any, ...]:
    from mjcore.rules.common.readings import readings
    from mjcore.rules.common.wilds import wild_readings

    if hand.counts[laizi]:
        return wild_readings(hand, -1, laizi, ("standard",))
    return readings(hand, -1, ("standard",))


def test_wuhan_placements_and_features_are_the_python_ones() -> None:
    rng = random.Random(41)
    held_wild = 0
    for _ in range(N // 2):
        hand, _, laizi = wuhan_hand(rng)
        if any(not m.is_set for m in hand.melds):
            continue
        c = _c_placed_readings(hand, laizi)
        assert c is not None
        seen, distinct = set(), []
        for row in c:  # the core lists repeats; the Python readings drop them
            key = row[:3]
            if key not in seen:
                seen.add(key)
                distinct.append(row)
        py = _wuhan_readings(hand, laizi)
        assert len(distinct) == len(py), hand
        for (sets, pair, stood, bits, counts, lean), r in zip(distinct, py, strict=True):
            kinds = {"chow": 0, "pung": 1, "kong": 2}
            assert sets == tuple(sorted((kinds[s.kind], s.tile) for s in r.sets)), hand
            assert pair == r.pair and stood == tuple(sorted(k for _, k in r.wilds)), hand
            names, count = compiled.features_of(r, wild=laizi)
            mask = feature_flags(set(compiled.PLACED_FEATURES))
            assert bits & mask == feature_flags(names) & mask, (hand, r)
            if lean is not None:  # the same placement as the shared waits read it
                shape = feature_flags({"standard", "qidui", "pung", "chow", "pair258"})
                placed, lean_stood, nall, kinds, key = lean
                assert placed == feature_flags(names) & shape, (hand, r)
                assert lean_stood == stood and nall == count["wilds_in"], (hand, r)
                assert kinds == sum(1 << k for k in set(stood)), (hand, r)
                assert key == sum((k + 1) << 6 * (len(stood) - 1 - i)
                                  for i, k in enumerate(stood)), (hand, r)
            assert (counts[compiled.COUNTED.index("melds")],
                    counts[compiled.COUNTED.index("wilds_in")]) == (
                count["melds"], count["wilds_in"]), (hand, r)
        held_wild += bool(hand.counts[laizi])
    assert held_wild > N // 10


def test_wuhan_conditions_are_the_predicates_row_by_row() -> None:
    from mjcore.rules.wuhan import scoring as wh
    from mjcore.rules.wuhan import table as wh_table

    table = wh_table.TABLE
    options = [resolve_options("wuhan"), resolve_options("wuhan", {"xiaohu_max_laizi": 0}),
               resolve_options("wuhan", {"gangshanghua_as": "factor",
                                         "situational_any_pair": True,
                                         "quanqiuren_self_draw": True, "yinghu_factor": 1})]
    contexts = [wh_table.Ctx(sd, disc, rob, gsh, haidi, q)
                for sd, disc, rob in ((True, False, False), (False, True, False),
                                      (False, False, True))
                for gsh, haidi in ((False, False), (sd, False), (False, sd))
                for q in (False, True)]
    rng = random.Random(42)
    checked = 0
    for _ in range(N // 8):
        hand, _, laizi = wuhan_hand(rng)
        core = Hand(hand.counts, tuple(m for m in hand.melds if m.is_set))
        for r in _wuhan_readings(core, laizi):
            shape = wh._shape_of(r, laizi, {})
            names, counts = compiled.features_of(r, wild=laizi)
            for ctx in contexts:
                for o in options:
                    c = wh.Context(laizi, 0, "left" if ctx.discard else None,
                                   "left" if ctx.robbed else None, ctx.gsh, ctx.haidi, None, ())
                    feats = set(names) | set(wh._context_names(c, ctx.self_drawn, o))
                    if not ctx.quanqiu:
                        feats.discard("claimed4")
                    elif "claimed4" not in feats:
                        continue  # the context's 全求人 comes from the melds
                    for p in table.patterns:
                        if p.enabled(o):
                            assert compiled.holds(p.when or (), feats, counts, o) == bool(
                                p.predicate(shape, ctx, o)), (p.id, hand, r, ctx)
                    for e in table.extras:
                        n = int(compiled.holds(e.when or (), feats, counts, o))
                        assert n == e.count(shape, ctx, o), (e.id, hand, r, ctx)
                    checked += 1
    assert checked > N // 4


@pytest.mark.parametrize("case", [json.loads(x) for x in WH_CASES.read_text("utf-8").splitlines()
                                  if x.strip()], ids=lambda c: c["id"])
def test_wuhan_cases_on_both_paths(case: dict[str, Any],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from mjcore.rules.wuhan import scoring as wh

    try:
        o = resolve_options("wuhan", case["options"] or None)
    except MahjongError:
        return
    for hand in (case["hand"], _parsed(case["hand"])):
        got = both_paths(monkeypatch, wh.clear_caches, wh.score,
                         hand, case["win_tile"], case["self_drawn"], case["context"], o)
        same_result(got[0], got[1])


def _parsed(text: str) -> Any:
    try:
        return Hand.parse(text)
    except MahjongError:
        return text


_WH_OPTIONS: list[dict[str, Any]] = [
    {}, {}, {"must_open": False}, {"xiaohu_max_laizi": 0}, {"xiaohu_max_laizi": 2},
    {"gangshanghua_as": "factor"}, {"situational_any_pair": True, "quanqiuren_self_draw": True},
    {"factors": False, "yinghu_factor": 1}, {"min_points": 20}, {"cap_points": 16},
    {"dahu_discard_all_pay": True, "base_dahu": 5, "base_points": 3},
    {"pizi": "hongzhong_facai"},
    # shapes the core does not list: the Python path twice
    {"qidui": True}, {"yise_any_shape": True}]


def test_wuhan_sample_on_both_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    from mjcore.rules.wuhan import scoring as wh

    rng = random.Random(43)
    answered = compiled_answers = 0
    for _ in range(N):
        hand, tile, laizi = wuhan_hand(rng)
        sd = rng.random() < 0.5
        ctx: dict[str, Any] = {"laizi": text(laizi)}
        if sd:
            x = rng.random()
            if x < 0.15:
                ctx["hai_di"] = True
            elif x < 0.3:
                ctx["gang_shang_hua"] = True
        elif rng.random() < 0.2:
            ctx["robbed"] = rng.choice(hz.RELATIVE)
        else:
            ctx["discarder"] = rng.choice(hz.RELATIVE)
        if rng.random() < 0.2:
            ctx["winner"] = rng.randrange(4)
        if rng.random() < 0.1:
            ctx["payer_melds"] = {"left": "peng:111s", "right": "angang:2222p"}
        if rng.random() < 0.05:
            ctx["meld_from"] = ["left"] * sum(m.is_set for m in hand.melds)
        o = resolve_options("wuhan", rng.choice(_WH_OPTIONS))
        got = both_paths(monkeypatch, wh.clear_caches, wh.score, hand, tile, sd, ctx, o)
        # the compiled path answered (it ran last; the Python path keeps its answers)
        compiled_answers += hasattr(got[1], "value") and not wh._RESULTS
        same_result(got[0], got[1])
        answered += hasattr(got[0], "value")
    assert answered > N // 3
    assert compiled_answers > N // 4


_PAYER_MELDS = ("peng:111s", "peng:555m", "chi:234p", "angang:2222p", "gang:7777s",
                "peng:333z", "chi:678m", "gang:4444m peng:666p", "peng:999p")


def test_wuhan_payer_melds_on_both_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """A context naming the other seats' melds (§2 payer_melds: each payer's doublings) is
    scored by the core, which hands back a hand that makes a fifth copy of a tile with
    them: the Python path's tile_count error (§10's order), and the same answers, payments
    and liabilities as the Python path otherwise; a ready hand's waits in such a context
    are the Python path's."""
    from mjcore.rules.wuhan import scoring as wh

    rng = random.Random(47)
    o = resolve_options("wuhan")
    compiled_answers = fifths = 0
    python_scores = [0]
    python_score = wh._score

    def counted(*args: Any) -> Any:
        python_scores[0] += 1
        return python_score(*args)

    monkeypatch.setattr(wh, "_score", counted)
    for i in range(N // 2):
        python_scores[0] = 0
        hand, tile, laizi = wuhan_hand(rng)
        sd = rng.random() < 0.5
        ctx: dict[str, Any] = {"laizi": text(laizi), "winner": rng.randrange(4),
                               "payer_melds": {s: rng.choice(_PAYER_MELDS)
                                               for s in hz.RELATIVE if rng.random() < 0.6}}
        if not sd:
            ctx["discarder"] = rng.choice(hz.RELATIVE)
        got = both_paths(monkeypatch, wh.clear_caches, wh.score, hand, tile, sd, ctx, o)
        same_result(got[0], got[1])
        # (the Python path scored once, in its own pass: the core answered the other)
        compiled_answers += hasattr(got[1], "value") and python_scores[0] == 1
        fifths += got[1][0] == "tile_count" if type(got[1]) is tuple else 0
        if i % 8 == 0:  # and the waits of the hand less its winning tile
            counts = list(hand.counts)
            counts[tile] -= 1
            ready = Hand(counts, hand.melds)
            waits = both_paths(monkeypatch, wh.clear_caches, wh.valued_waits, ready, ctx, o)
            assert waits[0] == waits[1]
    assert compiled_answers > N // 8
    assert fifths > N // 100


def test_wuhan_valued_waits_on_both_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    from mjcore.rules.wuhan import scoring as wh

    rng = random.Random(44)
    answered = 0
    contexts: list[dict[str, Any]] = [
        {}, {}, {"discarder": "right"}, {"robbed": "across"}, {"hai_di": True},
        {"gang_shang_hua": True}, {"winner": 2, "discarder": "across"},
        {"payer_melds": {"left": "peng:111s"}}]
    for _ in range(N // 20):
        hand, tile, laizi = wuhan_hand(rng)
        counts = list(hand.counts)
        counts[tile] -= 1
        ready = Hand(counts, hand.melds)
        o = resolve_options("wuhan", rng.choice(_WH_OPTIONS))
        ctx = {"laizi": text(laizi), **rng.choice(contexts)}
        visible = rng.choice((None, [rng.randrange(2) for _ in range(34)]))
        got = both_paths(monkeypatch, wh.clear_caches, wh.valued_waits, ready, ctx, o, visible)
        assert got[0] == got[1], (ready, ctx)
        answered += bool(got[0]) and not isinstance(got[0][0], str)
    assert answered > N // 100


def _served_twins(monkeypatch: pytest.MonkeyPatch, module: Any, ready: Any, ctx: dict[str, Any],
                  o: Any) -> bool:
    """A ready hand's waits on the Python path, then three times on the compiled one (the
    first serves the context, the second is the core's through ``_ENTRY``, the third may
    come from the table's cache): all equal. True when ``_ENTRY`` answered the second (its
    general path keeps every answer in ``_WAITS``)."""
    python, first = both_paths(monkeypatch, module.clear_caches, module.valued_waits, ready,
                               ctx, o)
    assert first == python, (ready, ctx, o)
    def ask() -> Any:
        try:
            return module.valued_waits(ready, ctx, o)
        except MahjongError as exc:
            return (exc.code, str(exc))

    module._WAITS.clear()
    again = ask()
    served = not module._WAITS
    assert again == python and ask() == python, (ready, ctx, o)
    return served


def test_wild_waits_served_by_the_entry_are_the_python_ones(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Hangzhou and Wuhan waits of hands holding wilds, served by ``_ENTRY`` from a
    context's second question (one wait search shared by a discard and a self-draw, values
    shared by the tiles whose readings agree), equal the Python path's; most are served."""
    from mjcore.rules.wuhan import scoring as wh

    rng = random.Random(35)
    asked = served = 0
    while asked < N // 10:
        hand, tile, wild, flip = hangzhou_hand(rng)
        if isinstance(hand, str):
            hand = Hand.parse(hand)
        counts = list(hand.counts)
        counts[tile] -= 1
        if not counts[wild]:
            continue
        ready = Hand(counts, hand.melds)
        ctx = _context(rng, wild, flip, True)
        opts = {**rng.choice(_OPTIONS[:9]), **({} if flip else {"caishen_mode": "baiban"})}
        served += _served_twins(monkeypatch, hz, rng.choice((ready, ready.to_text())), ctx,
                                resolve_options("hangzhou", opts))
        asked += 1
    contexts: list[dict[str, Any]] = [
        {}, {}, {"discarder": "right"}, {"robbed": "across"}, {"hai_di": True},
        {"gang_shang_hua": True}, {"winner": 2, "discarder": "across"}]
    while asked < N // 5:
        hand, tile, laizi = wuhan_hand(rng)
        counts = list(hand.counts)
        counts[tile] -= 1
        if not counts[laizi]:
            continue
        ctx = {"laizi": text(laizi), **rng.choice(contexts)}
        served += _served_twins(monkeypatch, wh, Hand(counts, hand.melds), ctx,
                                resolve_options("wuhan", rng.choice(_WH_OPTIONS[:12])))
        asked += 1
    assert served > asked // 2
