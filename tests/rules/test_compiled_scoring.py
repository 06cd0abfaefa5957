"""Compiled scoring (docs/rules.md, "Compiled scoring") against its Python twin.

* the C readings are the Python readings (``common.readings.readings``), in the same order;
* the C features of each reading are what ``common.compiled.features_of`` states in Python;
* each table row's ``when`` condition holds exactly where its Python predicate does, row by
  row, on every reading of a seeded sample;
* the compiled ``score`` equals the Python path on every field, on every worked case and on a
  seeded sample over presets, options and contexts (``MJ_CROSSCHECK_N`` hands).

``make test`` also runs the Sichuan scoring tests a second time with ``MJ_PURE_SCORING=1``.
"""

from __future__ import annotations

import json
import os
import random
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from compiled_twins import both_paths, case_options, feature_flags, same_result

from mjcore import Hand, MahjongError, Meld
from mjcore._core import _c_readings
from mjcore.rules import resolve_options
from mjcore.rules.common import compiled
from mjcore.rules.common import patterns as P
from mjcore.rules.common.readings import readings
from mjcore.rules.sichuan import scoring as sichuan
from mjcore.rules.sichuan import table as sichuan_table

N = max(500, int(os.environ.get("MJ_CROSSCHECK_N", "20000")) // 4)
CASES = Path(__file__).resolve().parents[1] / "cases" / "sichuan.jsonl"
_KINDS = {0: "chow", 1: "pung", 2: "kong"}
_MELDS = {0: "", 1: "chi", 2: "peng", 3: "gang", 4: "angang", 5: "bugang"}


def sichuan_hand(rng: random.Random) -> tuple[Hand, int]:
    """A random winning hand of one or two suits (standard or 七对, melds sometimes)."""
    while True:
        suits = rng.sample((0, 1, 2), rng.choice((1, 2, 2)))
        counts = [0] * 34
        melds: list[Meld] = []
        if rng.random() < 0.15:
            for _ in range(7):
                counts[rng.choice(suits) * 9 + rng.randrange(9)] += 2
        else:
            for _ in range(4):
                s = rng.choice(suits)
                x = rng.random()
                if x < 0.5:
                    r = rng.randrange(7)
                    for k in range(3):
                        counts[s * 9 + r + k] += 1
                elif x < 0.8:
                    counts[s * 9 + rng.randrange(9)] += 3
                else:
                    t = s * 9 + rng.randrange(9)
                    kind = rng.choice(("peng", "gang", "angang", "bugang"))
                    melds.append(Meld(kind, (t,) * (3 if kind == "peng" else 4)))
            counts[rng.choice(suits) * 9 + rng.randrange(9)] += 2
        held = counts[:]
        for m in melds:
            held[m.tiles[0]] += len(m.tiles)
        if max(held) <= 4:
            return Hand(counts, melds), rng.choice([t for t in range(34) if counts[t]])


def _sichuan_reading(r: Any) -> sichuan_table.Reading:
    """Sichuan's compact reading of one common reading, from the common predicates."""
    qidui = r.shape == "qidui"
    concealed = list(r.held)
    for s in r.sets:
        if s.meld:
            concealed[s.tile] -= 4 if s.kind == "kong" else 3
    return sichuan_table.Reading(qidui, P.qingyise(r), P.all_pungs(r),
                                 P.each_set_has_terminal(r), P.all_pungs(r) and P.all_258(r),
                                 qidui and any(c == 4 for c in concealed))


def test_c_readings_and_features_are_the_python_ones() -> None:
    rng = random.Random(11)
    for _ in range(N):
        hand, win = sichuan_hand(rng)
        py = readings(hand, win, ("standard", "qidui"))
        c = _c_readings(hand)
        assert len(c) == len(py), hand
        for r, (shape, pair, sets, bits, counts) in zip(py, c, strict=True):
            assert shape == r.shape and pair == r.pair, hand
            assert [(_KINDS[k], t, bool(cc), _MELDS[m]) for k, t, cc, m, in sets] == [
                (s.kind, s.tile, s.concealed, s.meld) for s in r.sets], hand
            names, count = compiled.features_of(r)
            assert bits == feature_flags(names), (hand, r)
            assert counts == tuple(count[n] for n in compiled.COUNTED), (hand, r)


class _Ctx:
    """A Sichuan context as the table's predicates read it (attribute access)."""

    def __init__(self, **flags: Any) -> None:
        self.self_drawn = self.after_kong = self.after_kong_discard = False
        self.robbing_kong = self.last_tile = self.heavenly = self.earthly = False
        self.kong_feeder = -1
        self.__dict__.update(flags)


_CONTEXTS = [_Ctx(), _Ctx(self_drawn=True), _Ctx(self_drawn=True, after_kong=True),
             _Ctx(self_drawn=True, after_kong=True, kong_feeder=2),
             _Ctx(after_kong_discard=True), _Ctx(robbing_kong=True),
             _Ctx(self_drawn=True, last_tile=True), _Ctx(last_tile=True),
             _Ctx(self_drawn=True, heavenly=True), _Ctx(self_drawn=True, earthly=True)]


def test_sichuan_conditions_are_the_predicates_row_by_row() -> None:
    """Every row's ``when`` against its predicate, on every reading and context."""
    table = sichuan_table.TABLE
    options = [resolve_options("sichuan"), resolve_options("sichuan", {"zimo_bonus": "fan"}),
               resolve_options("sichuan", {"zimo_bonus": "fan", "dian_gang_hua": "zimo"})]
    rng = random.Random(12)
    for _ in range(N // 10):
        hand, win = sichuan_hand(rng)
        for r in readings(hand, win, ("standard", "qidui")):
            names, counts = compiled.features_of(r)
            sr = _sichuan_reading(r)
            facts = sichuan._shared(sichuan.hand_profile(hand), hand.melds)
            for ctx in _CONTEXTS:
                for o in options:
                    ctx_names = {n for n in sichuan._CTX_FLAGS if getattr(ctx, n)}
                    if sichuan_table._zimo_count(None, ctx, o):
                        ctx_names.add("zimo_fan")
                    feats = names | ctx_names
                    for p in table.patterns:
                        assert compiled.holds(p.when or (), feats, counts) == bool(
                            p.predicate(sr, ctx, o)), (p.id, hand, r)
                    for e in table.extras:
                        n = counts[e.times] if e.times else int(
                            compiled.holds(e.when or (), feats, counts))
                        assert n == e.count(facts, ctx, o), (e.id, hand, r)


def _both(hand: Any, win: Any, self_drawn: bool, context: dict[str, Any] | None,
          o: Any) -> tuple[Any, Any]:
    """(Python path, compiled path) answers: a ScoreResult or the error's (code, text)."""
    out = []
    for fn in (sichuan._evaluate, sichuan._score_compiled):
        try:
            h = hand if isinstance(hand, Hand) else Hand.parse(hand)
            tile = win if isinstance(win, int) else sichuan._tile(win)
            ctx = sichuan._parse_context(context, self_drawn)
            out.append(fn(h, tile, ctx, o))
        except MahjongError as exc:
            out.append((exc.code, str(exc)))
    return out[0], out[1]


@pytest.mark.parametrize("case", [json.loads(x) for x in CASES.read_text("utf-8").splitlines()
                                  if x.strip()], ids=lambda c: c["id"])
def test_sichuan_cases_on_both_paths(case: dict[str, Any]) -> None:
    o = case_options("sichuan", case)
    if o is None:
        return  # an options error: no scoring path runs
    a, b = _both(case["hand"], case["win_tile"], case["self_drawn"], case["context"] or None, o)
    same_result(a, b)


def test_sichuan_sample_on_both_paths() -> None:
    opts = [resolve_options("sichuan", preset=p) for p in (None, "modern", "chengdu_points")]
    opts += [resolve_options("sichuan", {"menqing": True, "zhongzhang": True, "cap_fan": 4,
                                         "zimo_bonus": "fan", "jingoudiao": True,
                                         "haidilaoyue": True, "haidipao": True,
                                         "longqidui_fan": 3, "tiandihu": False}),
             resolve_options("sichuan", {"scoring": "points", "cap_fan": 2, "base": 3})]
    contexts: list[tuple[bool, dict[str, Any]]] = [
        (False, {}), (True, {}), (True, {"after_kong": True}), (True, {"heavenly": True}),
        (True, {"earthly": True, "winner": 2}), (False, {"last_tile": True, "discarder": 1}),
        (True, {"last_tile": True, "active_seats": [0, 2, 3]}),
        (False, {"robbing_kong": True, "discarder": 3}),
        (False, {"after_kong_discard": True, "discarder": 1}),
        (True, {"after_kong": True, "kong_feeder": 1}), (False, {"missing_suit": "p"}),
        (True, {"missing_suit": "s", "winner": 1, "active_seats": [1, 2]})]
    rng = random.Random(13)
    compiled_answers = 0
    for _ in range(N):
        hand, win = sichuan_hand(rng)
        if rng.random() < 0.15:  # a hand that is not a win, or not Sichuan's
            counts = list(hand.counts)
            counts[rng.randrange(34)] += 1
            counts[win] -= 1
            try:
                hand = Hand(counts, hand.melds)
            except MahjongError:  # a fifth copy
                continue
        sd, ctx = rng.choice(contexts)
        o = rng.choice(opts)
        a, b = _both(hand, win, sd, ctx, o)
        same_result(a, b)
        compiled_answers += not isinstance(a, tuple) or hasattr(a, "value")
    assert compiled_answers > N // 2  # most hands are wins: the compiled path was exercised


def test_sichuan_dict_contexts_through_the_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    """A dict context parsed once is answered by ``CompiledEntry`` from then on (no Python
    frame): the same answers and errors as the Python path, for random seats, flags, active
    seats and missing suits, asked again, after the answers' cache and after the contexts
    were forgotten; a kong_feeder (checked against the hand) is never served that way."""
    from mjcore._core import context_key

    opts = [resolve_options("sichuan"), resolve_options("sichuan", preset="modern"),
            resolve_options("sichuan", {"scoring": "points", "cap_fan": 2, "base": 3})]
    rng = random.Random(41)
    served = 0
    for i in range(N // 4):
        hand, win = sichuan_hand(rng)
        sd = rng.random() < 0.5
        winner = rng.randrange(4)
        ctx: dict[str, Any] = {"winner": winner}
        if not sd and rng.random() < 0.9:
            ctx["discarder"] = rng.choice([s for s in range(4) if s != winner])
        if rng.random() < 0.3:
            ctx["active_seats"] = sorted({winner, *rng.sample(range(4), rng.randrange(4))})
        if rng.random() < 0.3:
            ctx["missing_suit"] = rng.choice("mps")
        flag = rng.choice(("", "", "", "after_kong", "last_tile", "robbing_kong", "heavenly"))
        if flag:
            ctx[flag] = True
        if flag == "after_kong" and rng.random() < 0.3:
            ctx["kong_feeder"] = (winner + 1) % 4
        o = rng.choice(opts)
        if i % 101 == 0:
            sichuan.clear_caches()
        elif i % 7 == 0:
            compiled.CompiledTable.clear_cache()
        answers = []
        for pure in (True, False, False, False):
            monkeypatch.setattr(compiled, "PURE", pure)
            try:
                answers.append(sichuan.score(hand, win, sd, ctx, o))
            except MahjongError as exc:
                answers.append((exc.code, str(exc)))
        for other in answers[1:]:
            same_result(answers[0], other)
        known = context_key(sd, ctx) in (sichuan._ENTRY.contexts or {})
        assert not (known and "kong_feeder" in ctx)
        served += known
    assert served > N // 8, served


def test_the_compiled_path_answers_a_never_seen_hand_itself() -> None:
    """The core answers a win (no fall back to Python): the table and context are compiled."""
    o = resolve_options("sichuan")
    t = sichuan._TABLES.get(o) or sichuan._compiled_table(o)
    ctx = sichuan._parse_context(None, True)
    if t.score_in(Hand.parse("11122233344455m"), 4, ctx) is False:
        sichuan._compiled_context(t, ctx, o)
    got = t.score_in(Hand.parse("11122233344455m"), 4, ctx)
    assert got is not None and got.patterns[0].id == "qingdui"
    assert t.score_in(Hand.parse("11122233344457m"), 4, ctx) is None  # not a win: Python's


def test_unknown_features_are_refused() -> None:
    from mjcore.rules.common.table import ExtraSpec, FanTable, PatternSpec, Policy

    row = PatternSpec("x", "x", 1, "x", lambda r, c, o: True, when=("no_such_feature",))
    with pytest.raises(ValueError, match="unknown feature"):
        FanTable(Policy("additive"), (row,))
    extra = ExtraSpec("y", "y", 1, "y", lambda r, c, o: 0, times="nothing")
    with pytest.raises(ValueError, match="unknown counted feature"):
        FanTable(Policy("additive"), (), (extra,))


def test_sichuan_valued_waits_on_both_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """``valued_waits`` gives the same tuple on the compiled and the Python path."""
    opts = [resolve_options("sichuan"), resolve_options("sichuan", preset="modern"),
            resolve_options("sichuan", {"zimo_bonus": "fan", "menqing": True,
                                        "zhongzhang": True, "scoring": "points"})]
    contexts: list[dict[str, Any] | None] = [
        None, {"missing_suit": "m"}, {"last_tile": True, "winner": 1, "discarder": 2},
        {"after_kong": True, "kong_feeder": 3}, {"heavenly": True}]
    rng = random.Random(14)
    asked = answered = 0
    for _ in range(N // 8):
        hand, win = sichuan_hand(rng)
        counts = list(hand.counts)
        counts[win] -= 1
        ready = Hand(counts, hand.melds)
        o = rng.choice(opts)
        ctx = rng.choice(contexts)
        visible = rng.choice((None, [rng.randrange(2) for _ in range(34)]))
        got = both_paths(monkeypatch, sichuan.clear_caches, sichuan.valued_waits, ready, ctx, o, visible)
        assert got[0] == got[1], (ready, ctx)
        asked += 1
        answered += bool(got[0]) and not isinstance(got[0][0], str)
    assert answered > asked // 2
    o = resolve_options("sichuan")
    t = sichuan._TABLES.get(o) or sichuan._compiled_table(o)
    cd = t.context(sichuan._DEFAULT_CTX[False]) or sichuan._compiled_context(
        t, sichuan._DEFAULT_CTX[False], o)
    cs = t.context(sichuan._DEFAULT_CTX[True]) or sichuan._compiled_context(
        t, sichuan._DEFAULT_CTX[True], o)
    waits = t.valued_waits(Hand.parse("1112345678999m"), cd, cs)  # the core answers itself
    assert waits is not None and [w.id for w in waits] == list(range(9))


# --------------------------------------------------------------------------- Guangdong

_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


def guangdong_hand(rng: random.Random) -> tuple[Hand, int]:
    """A random Guangdong winning hand: honours, melds, 七对 and 十三幺 now and then."""
    while True:
        counts = [0] * 34
        melds: list[Meld] = []
        x = rng.random()
        if x < 0.03:
            for t in _ORPHANS:
                counts[t] += 1
            counts[rng.choice(_ORPHANS)] += 1
        elif x < 0.1:
            kinds = rng.sample(range(34), 7) if rng.random() < 0.5 else [
                rng.choice((27, 31, 0)) + rng.randrange(3) for _ in range(7)]
            for t in kinds:
                counts[t] += 2
        else:
            suits = rng.sample((0, 1, 2), rng.choice((1, 1, 2, 3)))
            n_melds = rng.choice((0, 0, 1, 2, 3, 4))
            for k in range(4):
                if rng.random() < 0.3:
                    t, chow = 27 + rng.randrange(7), False
                else:
                    s = rng.choice(suits)
                    chow = rng.random() < 0.5
                    t = s * 9 + rng.randrange(7 if chow else 9)
                if k < n_melds:
                    kind = "chi" if chow else rng.choice(("peng", "gang", "angang", "bugang"))
                    tiles = (t, t + 1, t + 2) if chow else (t,) * (3 if kind == "peng" else 4)
                    melds.append(Meld(kind, tiles))
                elif chow:
                    for d in range(3):
                        counts[t + d] += 1
                else:
                    counts[t] += 3
            counts[27 + rng.randrange(7) if rng.random() < 0.3 else
                   rng.choice(suits) * 9 + rng.randrange(9)] += 2
        try:
            hand = Hand(counts, melds)
        except MahjongError:
            continue
        return hand, rng.choice([t for t in range(34) if counts[t]])


def test_guangdong_conditions_are_the_predicates_row_by_row() -> None:
    from mjcore.rules.guangdong import scoring as gd
    from mjcore.rules.guangdong import table as gd_table

    table = gd_table.TABLE
    options = [resolve_options("guangdong"), resolve_options("guangdong", {
        "menqing_fan": 1, "hunyise_pinghu_stack": True, "qidui": True,
        "sanxiang_min_winners": 2})]
    facts = [gd_table.WinFacts(sd, sd or qg, seat, rnd, qg, gsk, fed, hd, winners, flat)
             for sd, qg, gsk, fed, hd, winners, flat in (
                 (False, False, False, False, False, 1, ""),
                 (True, False, True, True, True, 1, "tianhe"),
                 (True, False, True, False, False, 1, "dihe"),
                 (False, True, False, False, False, 1, ""),
                 (False, False, False, False, True, 3, "renhe"))
             for seat, rnd in ((0, 0), (1, 2), (3, 1))]
    rng = random.Random(21)
    for _ in range(N // 10):
        hand, win = guangdong_hand(rng)
        for r in readings(hand, win, ("standard", "qidui", "shisanyao")):
            for f in facts:
                for o in options:
                    names, counts = compiled.features_of(r, f.seat_wind, f.round_wind)
                    ctx_names = {n for n in gd._FACT_FLAGS if getattr(f, n)}
                    if f.winners >= o.sanxiang_min_winners:
                        ctx_names.add("sanxiang")
                    if f.flat:
                        ctx_names.add(f.flat)
                    feats = names | ctx_names
                    for p in table.patterns:
                        assert compiled.holds(p.when or (), feats, counts) == bool(
                            p.predicate(r, f, o)), (p.id, hand, r)
                    for e in table.extras:
                        n = counts[e.times] if e.times else int(
                            compiled.holds(e.when or (), feats, counts))
                        assert n == e.count(r, f, o), (e.id, hand, r)
                    for fl in table.floors:
                        assert compiled.holds(fl.when or (), feats, counts) == bool(
                            fl.holds(r, f, o)), (fl.id, hand, r)


def test_guangdong_c_features_are_the_python_ones() -> None:
    rng = random.Random(22)
    for _ in range(N // 2):
        hand, win = guangdong_hand(rng)
        py = readings(hand, win, ("standard", "qidui", "shisanyao"))
        c = _c_readings(hand, 1, 2)
        c = [x for x in c if x[0] != "qidui" or any(r.shape == "qidui" for r in py)]
        py_c = [r for r in py if r.shape != "shisanyao"]  # (_c_readings lists no 十三幺)
        assert len(c) == len(py_c), hand
        for r, (shape, pair, sets, bits, counts) in zip(py_c, c, strict=True):
            assert shape == r.shape and pair == r.pair, hand
            assert [(_KINDS[k], t, bool(cc), _MELDS[m]) for k, t, cc, m, in sets] == [
                (s.kind, s.tile, s.concealed, s.meld) for s in r.sets], hand
            names, count = compiled.features_of(r, 1, 2)
            assert bits == feature_flags(names), (hand, r)
            assert counts == tuple(count[n] for n in compiled.COUNTED), (hand, r)


GD_CASES = Path(__file__).resolve().parents[1] / "cases" / "guangdong.jsonl"


@pytest.mark.parametrize("case", [json.loads(x) for x in GD_CASES.read_text("utf-8").splitlines()
                                  if x.strip()], ids=lambda c: c["id"])
def test_guangdong_cases_on_both_paths(case: dict[str, Any],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from mjcore.rules.guangdong import scoring as gd

    o = case_options("guangdong", case)
    if o is None:
        return  # an options error: no scoring path runs
    got = both_paths(monkeypatch, gd.clear_caches, gd.score,
                     case["hand"], case["win_tile"], case["self_drawn"], case["context"] or None, o)
    same_result(got[0], got[1])


def test_guangdong_sample_on_both_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    from mjcore.rules.guangdong import scoring as gd

    opts = [resolve_options("guangdong"),
            resolve_options("guangdong", {"menqing_fan": 1, "hunyise_pinghu_stack": True,
                                          "qidui": True, "baohu_cap": 5}),
            resolve_options("guangdong", {"qidui": True, "min_fan": 1,
                                          "discard_payment": "discarder_pays_three"})]
    winds = {"seat_wind": "2z", "round_wind": "1z"}
    contexts: list[tuple[bool, dict[str, Any]]] = [
        (False, {**winds, "discarder": "left"}), (True, winds),
        (True, {"seat_wind": "1z", "round_wind": "1z", "tianhe": True}),
        (True, {**winds, "gang_shang_kai_hua": True}),
        (True, {**winds, "hai_di_lao_yue": True, "winner": 2}),
        (False, {**winds, "qiang_gang": True, "robbed": "right"}),
        (False, {"seat_wind": "3z", "round_wind": "4z", "discarder": "across",
                 "winners_on_discard": 3})]
    rng = random.Random(23)
    answered = liable = 0
    for _ in range(N // 2):
        hand, win = guangdong_hand(rng)
        sd, ctx = rng.choice(contexts)
        if hand.melds and rng.random() < 0.5:  # who fed each meld: the liabilities (§11)
            sd = rng.random() < 0.8
            ctx = {**ctx, "meld_from": [
                None if m.kind == "angang" else "left" if m.kind == "chi" else
                rng.choice(("left", "across", "right")) for m in hand.melds]}
            if sd:
                ctx.pop("discarder", None)
                ctx.pop("winners_on_discard", None)
        o = rng.choice(opts)
        got = both_paths(monkeypatch, gd.clear_caches, gd.score, hand, win, sd, ctx, o)
        same_result(got[0], got[1])
        answered += hasattr(got[0], "value")
        liable += bool(getattr(got[0], "liable", ""))
    assert answered > N // 8
    assert liable > 0


def _honour_melds_hand(rng: random.Random) -> tuple[Hand, int]:
    """A winning hand whose melds are mostly wind or dragon pungs (大四喜, 大三元 and
    十二张落地 liabilities, §11), in random order, the rest concealed."""
    while True:
        counts = [0] * 34
        melds: list[Meld] = []
        honours = rng.sample(range(27, 31), 4) if rng.random() < 0.5 else \
            rng.sample(range(31, 34), 3) + [rng.randrange(34)]
        n_melds = rng.choice((2, 3, 4, 4))
        for k, t in enumerate(honours):
            if k < n_melds:
                kind = rng.choice(("peng", "peng", "gang", "bugang", "angang"))
                melds.append(Meld(kind, (t,) * (3 if kind == "peng" else 4)))
            else:
                counts[t] += 3
        rng.shuffle(melds)
        counts[rng.randrange(34)] += 2
        held = counts[:]
        for m in melds:
            held[m.tiles[0]] += 3
        if max(held) <= 4:
            return Hand(counts, melds), rng.choice([t for t in range(34) if counts[t]])


def test_guangdong_liabilities_on_both_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """§11's liabilities by melds (the core's ``liabilities`` data against ``_liability``):
    every bao option, 包先不包后's exemption, feeders named or not, self-drawn or not."""
    from mjcore.rules.guangdong import scoring as gd

    opts = [resolve_options("guangdong", {"bao_shierzhang": a, "bao_dasixi_dasanyuan": b})
            for a in (True, False) for b in (True, False)]
    rng = random.Random(29)
    seen: dict[str, int] = {}
    for _ in range(N // 4):
        hand, win = _honour_melds_hand(rng)
        sd = rng.random() < 0.8
        ctx: dict[str, Any] = {"seat_wind": "2z", "round_wind": "1z"}
        if not sd:
            ctx["discarder"] = "across"
        if rng.random() < 0.9:
            ctx["meld_from"] = [None if m.kind == "angang" or rng.random() < 0.1 else
                                rng.choice(("left", "across", "right")) for m in hand.melds]
        if rng.random() < 0.2:
            ctx["bao_exempt"] = True
        got = both_paths(monkeypatch, gd.clear_caches, gd.score, hand, win, sd, ctx,
                         rng.choice(opts))
        same_result(got[0], got[1])
        key = getattr(got[0], "liable", None) or (got[0][0] if isinstance(got[0], tuple)
                                                  else "answered")
        seen[key] = seen.get(key, 0) + 1
    assert {"dasixi", "dasanyuan", "shierzhang_luodi", "bad_context"} <= seen.keys(), seen


def test_guangdong_meld_sources_derived_from_their_situation(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A context naming who fed the melds, derived in the core from the same context without
    meld_from (``CompiledEntry``'s ``sources_key``), answers as a whole parse does: random
    seats, winds, discarders, flags and meld_from lists good and bad (their errors too),
    asked while their situations are known, after the answers' cache and after the contexts
    were forgotten."""
    from mjcore._core import context_key
    from mjcore.rules.guangdong import scoring as gd

    opts = [resolve_options("guangdong", {"bao_shierzhang": a, "bao_dasixi_dasanyuan": b,
                                          "discard_payment": pay})
            for a, b, pay in ((True, True, "discarder_pays_three"), (False, True, "discarder_only"),
                              (True, False, "discarder_only"))]
    rng = random.Random(31)
    winds, seats = ("1z", "2z", "3z", "4z"), ("left", "across", "right")
    derived = errors = 0
    for i in range(N // 4):
        hand, win = _honour_melds_hand(rng) if rng.random() < 0.3 else guangdong_hand(rng)
        sd = rng.random() < 0.5
        items: list[tuple[str, Any]] = [("seat_wind", rng.choice(winds)),
                                        ("round_wind", rng.choice(winds))]
        if not sd:
            items.append(("discarder", rng.choice(seats)))
        if rng.random() < 0.1:
            items.append(("bao_exempt", True))
        if rng.random() < 0.05:
            items.append(("winner", rng.randrange(4)))
        sources: Any = [rng.choice(seats) if rng.random() < 0.1 else  # (wrong for some)
                        None if m.kind == "angang" else "left" if m.kind == "chi" else
                        rng.choice(seats) for m in hand.melds]
        r = rng.random()
        if r < 0.04:
            sources.append("left")  # one too many
        elif r < 0.1 and sources:
            sources[rng.randrange(len(sources))] = rng.choice(("up", 3, "Left", None, "left"))
        elif r < 0.13:
            sources = tuple(sources)
        elif r < 0.15:
            sources = ["across"] * 5
        items.insert(rng.randrange(len(items) + 1), ("meld_from", sources))
        ctx = dict(items)
        o = rng.choice(opts)
        if i % 97 == 0:
            keys = [k for k in gd._CIDS.values() if k < 0]
            gd.clear_caches()  # (situations and derived contexts forgotten)
            assert all(gd._TABLES[x].context(k) is None for x in opts if x in gd._TABLES
                       for k in keys)
        elif i % 13 == 0:
            compiled.CompiledTable.clear_cache()
        answers = []
        for pure in (False, True, False):  # (the Python path's parse is not the core's)
            monkeypatch.setattr(compiled, "PURE", pure)
            try:
                answers.append(gd.score(hand, win, sd, ctx, o))
            except MahjongError as exc:
                answers.append((exc.code, str(exc)))
            if not pure:
                derived += (gd._CIDS.get(context_key(sd, ctx)) or 0) < 0
        same_result(answers[1], answers[0])
        same_result(answers[1], answers[2])
        errors += isinstance(answers[1], tuple) and not hasattr(answers[1], "value")
    assert derived > N // 8 and errors > N // 100, (derived, errors)


def test_a_derived_context_the_table_dropped_keeps_its_key() -> None:
    """When the table drops its compiled contexts (its bound), a derived one is derived again
    under the key the entry remembers: no new key per call, so the fingerprint slots and the
    cache's answers still find it (a new key each time re-derived it on every call)."""
    from mjcore._core import context_key
    from mjcore.rules.guangdong import scoring as gd

    o = resolve_options("guangdong")
    gd.clear_caches()
    hand = Hand.parse("123m456p789s11z peng:222z")
    contexts = [{"seat_wind": "2z", "round_wind": "1z", "meld_from": [seat]}
                for seat in ("right", "across")]
    first = [gd.score(hand, 0, True, ctx, o) for ctx in contexts]
    keys = [gd._CIDS[context_key(True, ctx)] for ctx in contexts]
    assert all(k < 0 for k in keys)  # derived
    t = gd._TABLES[o]
    spare = t.context(keys[0])
    assert spare is not None
    for k in range(4096):  # the table's bound: it forgets every context it holds
        t.add_context(("filler", k), spare)
    assert t.context(keys[0]) is None and t.context(keys[1]) is None
    for _ in range(3):
        for ctx, key, answer in zip(contexts, keys, first, strict=True):
            assert gd.score(hand, 0, True, ctx, o) == answer
            assert gd._CIDS[context_key(True, ctx)] == key and t.context(key) is not None


def test_forgetting_empties_the_tables_of_an_entry_that_derives() -> None:
    """Forgetting (``clear_caches``, the entry's bound) empties the tables of an entry that
    derives contexts, the rule set's own contexts too: a number the rule set forgot would
    stay compiled there, and enough of them made the entry forget its contexts ever sooner
    (a cold pass repeated with contexts at random slowed down pass by pass). The answers
    after it are the same."""
    from mjcore._core import context_key
    from mjcore.rules.guangdong import scoring as gd

    o = resolve_options("guangdong")
    hand = Hand.parse("123m456p789s11z peng:222z")
    situation = {"seat_wind": "2z", "round_wind": "1z"}
    derived = {**situation, "meld_from": ["right"]}
    gd.clear_caches()
    first = [gd.score(hand, 0, True, ctx, o) for ctx in (situation, derived)]
    keys = [gd._CIDS[context_key(True, ctx)] for ctx in (situation, derived)]
    assert keys[0] >= 0 > keys[1]  # the rule set's own, then a derived one
    t = gd._TABLES[o]
    assert all(t.context(k) is not None for k in keys)
    gd.clear_caches()
    assert all(t.context(k) is None for k in keys)
    assert [gd.score(hand, 0, True, ctx, o) for ctx in (situation, derived)] == first


def test_a_context_remembered_again_is_served_from_then_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A context whose remembered value changes (here a derived waits context served under a
    second options object: its plain dict becomes a Memo) is answered by the entry from then
    on, not by the rule set's path each time (the entry's slots must not keep the old value)."""
    from mjcore.rules.guangdong import scoring as gd

    gd.clear_caches()
    ctx = {"seat_wind": "2z", "round_wind": "1z", "meld_from": ["right"]}
    first, second = resolve_options("guangdong"), resolve_options("guangdong", {"qidui": True})
    for o in (first, second):
        gd.valued_waits(Hand.parse("123m456p789s1z peng:222z"), ctx, o)
    served: list[object] = []
    monkeypatch.setattr(gd, "_serve", lambda *a: served.append(a))
    for text in ("123m456p789s3z", "234m456p789s1z", "345m456p789s7z"):  # (never asked)
        for o in (second, first):
            got = gd.valued_waits(Hand.parse(text + " peng:222z"), ctx, o)
            assert [w.tile for w in got] == [text[-2:]]
    assert served == []


def _waits_asked(ask: Any, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """``ask()`` on the Python path, then four times on the compiled one (the rule set's own
    function, then the entry: the table twice, its cache), each answer or error (code,
    message)."""
    from mjcore.rules.guangdong import scoring as gd

    got = []
    for pure in (True, False, False, False, False):
        monkeypatch.setattr(compiled, "PURE", pure)
        if pure:
            gd.clear_caches()
        try:
            got.append(ask())
        except MahjongError as exc:
            got.append((exc.code, str(exc)))
        if pure:
            gd.clear_caches()
    return got


@pytest.mark.parametrize("case", [json.loads(x) for x in GD_CASES.read_text("utf-8").splitlines()
                                  if x.strip()], ids=lambda c: c["id"])
def test_guangdong_case_waits_on_both_paths(case: dict[str, Any],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Each worked case's hand less its winning tile, in its context: the same waits on both
    paths, however often asked."""
    from mjcore.rules.guangdong import scoring as gd

    o = case_options("guangdong", case)
    try:
        if o is None:
            return  # an options error: no scoring path runs
        hand = gd.hand_of(case["hand"])
    except MahjongError:
        return  # an options or hand error: no scoring path runs
    win = gd._tile(case["win_tile"])
    if not hand.counts[win]:
        return
    ready = Hand([c - (t == win) for t, c in enumerate(hand.counts)], hand.melds)
    context = case["context"] or None
    got = _waits_asked(partial(gd.valued_waits, ready, context, o), monkeypatch)
    for other in got[1:]:
        same_result(got[0], other)


def test_guangdong_valued_waits_on_both_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """``valued_waits`` gives the same tuple on the compiled and the Python path, however
    often asked."""
    from mjcore.rules.guangdong import scoring as gd

    opts = [resolve_options("guangdong"),
            resolve_options("guangdong", {"qidui": True, "menqing_fan": 1, "baohu_cap": 5}),
            resolve_options("guangdong", {"qidui": True, "min_fan": 1})]
    winds = {"seat_wind": "2z", "round_wind": "1z"}
    contexts: list[dict[str, Any]] = [
        winds, {**winds, "hai_di_lao_yue": True}, {**winds, "gang_shang_kai_hua": True},
        {"seat_wind": "1z", "round_wind": "1z", "tianhe": True},
        {**winds, "qiang_gang": True, "robbed": "left"},
        {"seat_wind": "2z", "round_wind": "1z", "dihe": True},
        {"seat_wind": "3z", "round_wind": "4z", "winners_on_discard": 3}]
    rng = random.Random(31)
    asked = answered = 0
    for _ in range(N // 8):
        hand, win = guangdong_hand(rng)
        counts = list(hand.counts)
        counts[win] -= 1
        ready = Hand(counts, hand.melds)
        o = rng.choice(opts)
        ctx = rng.choice(contexts)
        if ready.melds and rng.random() < 0.6:  # who fed each meld, or (None) not said
            ctx = {**ctx, "meld_from": [
                None if m.kind == "angang" or rng.random() < 0.1 else
                "left" if m.kind == "chi" else rng.choice(("left", "across", "right"))
                for m in ready.melds]}
        visible = rng.choice((None, None, [rng.randrange(2) for _ in range(34)]))
        got = _waits_asked(partial(gd.valued_waits, ready, ctx, o, visible), monkeypatch)
        for other in got[1:]:
            same_result(got[0], other)
        asked += 1
        answered += bool(got[0]) and not isinstance(got[0][0], str)
    assert answered > asked // 4
    monkeypatch.setattr(compiled, "PURE", False)
    monkeypatch.setattr(gd, "_python_waits", lambda *a: pytest.fail("the Python path answered"))
    gd.clear_caches()
    ready = Hand.parse("19m19p19s1234567z")  # 十三幺, thirteen ways: the core answers itself
    assert len(gd.valued_waits(ready, winds, resolve_options("guangdong"))) == 13
    # contexts checked against the hand: 杠上开花 after an angang, 抢杠 of a tile not held
    o = resolve_options("guangdong")
    gsk = gd.valued_waits(Hand.parse("123m456p789s5m angang:3333z"),
                          {**winds, "gang_shang_kai_hua": True}, o)
    assert [(w.tile, w.fan_discard, w.fan_self_drawn) for w in gsk] == [("5m", 0, 3)]
    qg = gd.valued_waits(Hand.parse("12m456p789s123s77z"),
                         {**winds, "qiang_gang": True, "robbed": "left"}, o)
    assert [(w.tile, w.fan_discard, w.fan_self_drawn) for w in qg] == [("3m", 3, 2)]
    # with min_fan the core's values are held against it: 鸡胡 on a discard (0 fan) does not
    # reach 1, self-drawn (自摸) does
    jihu = gd.valued_waits(Hand.parse("123m456p777s234s9m"), winds,
                           resolve_options("guangdong", {"min_fan": 1}))
    assert [(w.tile, w.fan_discard, w.patterns_discard, w.fan_self_drawn) for w in jihu] == [
        ("9m", -1, (), 1)]


def test_guangdong_waits_meld_sources_derived_from_their_situation(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The waits of a context naming who fed the melds, its compiled pair derived in the core
    from its situation's (``CompiledEntry``'s ``sources_key``), are those of the Python path:
    random winds, flags and meld_from lists good and bad, asked while their situations are
    served, after the answers' cache and after the contexts were forgotten."""
    from mjcore._core import context_key
    from mjcore.rules.guangdong import scoring as gd

    opts = [resolve_options("guangdong"),
            resolve_options("guangdong", {"bao_shierzhang": False, "qidui": True}),
            resolve_options("guangdong", {"min_fan": 1})]
    rng = random.Random(37)
    winds, seats = ("1z", "2z", "3z", "4z"), ("left", "across", "right")
    derived = answered = 0
    for i in range(N // 8):
        hand, win = _honour_melds_hand(rng) if rng.random() < 0.3 else guangdong_hand(rng)
        counts = list(hand.counts)
        counts[win] -= 1
        ready = Hand(counts, hand.melds)
        items: list[tuple[str, Any]] = [("seat_wind", rng.choice(winds)),
                                        ("round_wind", rng.choice(winds))]
        if rng.random() < 0.1:
            items.append(("bao_exempt", True))
        if rng.random() < 0.05:
            items.append(("hai_di_lao_yue", True))
        sources: Any = [rng.choice(seats) if rng.random() < 0.1 else
                        None if m.kind == "angang" or rng.random() < 0.05 else
                        "left" if m.kind == "chi" else rng.choice(seats) for m in ready.melds]
        if rng.random() < 0.05:
            sources.append("left")
        elif rng.random() < 0.05 and sources:
            sources[0] = rng.choice(("up", 3, ("left",)))
        items.insert(rng.randrange(len(items) + 1), ("meld_from", sources))
        ctx = dict(items)
        o = rng.choice(opts)
        if i % 89 == 0:
            gd.clear_caches()
        elif i % 11 == 0:
            compiled.CompiledTable.clear_cache()
        answers = []
        for pure in (False, True, False):
            monkeypatch.setattr(compiled, "PURE", pure)
            try:
                answers.append(gd.valued_waits(ready, ctx, o))
            except MahjongError as exc:
                answers.append((exc.code, str(exc)))
            if not pure and not any(type(x) is tuple for x in sources):  # (else never kept)
                derived += type(gd._CIDS.get(context_key(None, ctx))) is dict
        same_result(answers[1], answers[0])
        same_result(answers[1], answers[2])
        answered += bool(answers[1]) and not isinstance(answers[1][0], str)
    assert derived > N // 16 and answered > N // 40, (derived, answered)


# --------------------------------------------------------------------------- batch


def _batch_input(hands: list[tuple[Hand, int]]) -> tuple[bytes, bytes, bytes]:
    kinds = {"chi": 1, "peng": 2, "gang": 3, "angang": 4, "bugang": 5}
    melds = bytearray(8 * len(hands))
    for i, (h, _) in enumerate(hands):
        for j, m in enumerate(h.melds):
            melds[8 * i + 2 * j] = kinds[m.kind]
            melds[8 * i + 2 * j + 1] = m.tiles[0]
    return (bytes(x for h, _ in hands for x in h.counts), bytes(w for _, w in hands),
            bytes(melds))


def test_score_batch_is_score_hand_by_hand() -> None:
    import array
    import threading

    o = resolve_options("sichuan", preset="modern")
    t = sichuan._compiled_table(o)
    ctx = sichuan._parse_context({"winner": 1}, True)
    c = t.context(ctx) or sichuan._compiled_context(t, ctx, o)
    rng = random.Random(31)
    hands = []
    for _ in range(N // 4):
        hand, win = sichuan_hand(rng)
        if rng.random() < 0.1:  # not a win
            counts = list(hand.counts)
            counts[win] -= 1
            counts[rng.randrange(27)] += 1
            try:
                hand = Hand(counts, hand.melds)
            except MahjongError:
                continue
            win = next(t for t in range(34) if counts[t])
        hands.append((hand, win))
    counts, wins, melds = _batch_input(hands)
    value, raw, main, status = t.score_batch(counts, wins, melds, c)
    value_a, raw_a = array.array("h", value), array.array("h", raw)
    ids = t.pattern_ids()
    for i, (hand, win) in enumerate(hands):
        got = t.score(hand, win, c)
        if got is None:
            assert status[i] == 1 and value_a[i] == -1
        else:
            assert status[i] == 0
            assert (value_a[i], raw_a[i]) == (got.value, got.value_uncapped)
            assert ids[main[i]] == got.patterns[0].id
    # the GIL is released: two threads on the two halves give the same answers
    half = len(hands) // 2
    parts: dict[int, tuple[bytes, ...]] = {}

    def run(k: int, a: int, b: int) -> None:
        parts[k] = t.score_batch(counts[34 * a:34 * b], wins[a:b], melds[8 * a:8 * b], c)

    threads = [threading.Thread(target=run, args=(0, 0, half)),
               threading.Thread(target=run, args=(1, half, len(hands)))]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert parts[0][0] + parts[1][0] == value and parts[0][3] + parts[1][3] == status


def test_score_batch_refuses_bad_input() -> None:
    o = resolve_options("sichuan")
    t = sichuan._compiled_table(o)
    ctx = sichuan._DEFAULT_CTX[False]
    c = t.context(ctx) or sichuan._compiled_context(t, ctx, o)
    good = bytes(Hand.parse("11122233344455m").counts)
    five = bytearray(good)
    five[0] = 5
    _, _, _, status = t.score_batch(good + bytes(five) + good, bytes([4, 0, 33]), None, c)
    assert list(status) == [0, 2, 2]  # a fifth copy; a winning tile not held
    bad_meld = bytes([2, 0] + [0] * 6)  # a peng of 1m beside three concealed 1m: five copies
    assert t.score_batch(good, bytes([4]), bad_meld, c)[3] == b"\x02"
    with pytest.raises(MahjongError) as err:
        t.score_batch(good, bytes([4, 4]), None, c)
    assert err.value.code == "bad_argument"
    with pytest.raises(MahjongError):
        t.score_batch(good[:33], bytes([4]), None, c)


def test_a_context_key_given_again_is_served_its_new_context() -> None:
    """A table finds the contexts asked lately by their key's identity: a key given another
    context is served that one from then on, and a key forgotten is no longer served."""
    t = sichuan._compiled_table(resolve_options("sichuan"))
    hand = Hand.parse("11122233344455m")
    key = ("given again", 1)

    def paying(who: str) -> compiled.CompiledContext:
        return compiled.CompiledContext(0, True, lambda fan, mult: (who,))

    t.add_context(key, paying("first"))
    assert t.score_in(hand, 4, key).payments == ("first",)
    assert t.score_in(hand, 4, key).payments == ("first",)  # (from its slot)
    t.add_context(key, paying("second"))
    assert t.score_in(hand, 4, key).payments == ("second",)
    t.forget_contexts()
    assert t.score_in(hand, 4, key) is False


def test_tiles_held_elsewhere_hand_back_a_fifth_copy() -> None:
    """A context's tiles held elsewhere (``elsewhere``: Wuhan's payers' melds) and the hand
    may hold four copies of a kind between them: a fifth hands the hand back (the rule
    set's tile_count), in a single call as in a batch; waits in such a context are the rule
    set's own. Anything but 34 counts is refused."""
    o = resolve_options("sichuan")
    t = sichuan._compiled_table(o)
    hand, ready = Hand.parse("11122233344455m"), Hand.parse("1112223334445m")

    def context(copies: int) -> compiled.CompiledContext:
        elsewhere = [0] * 34
        elsewhere[0] = copies  # 1m, of which the hand holds three
        return compiled.CompiledContext(0, True, lambda fan, mult: (), elsewhere=tuple(elsewhere))

    for copies, scored in ((0, True), (1, True), (2, False)):
        c = context(copies)
        t.add_context(("elsewhere", copies), c)
        assert (t.score_cached(hand, 4, ("elsewhere", copies)) is not None) == scored
        assert t.score_batch(bytes(hand.counts), bytes([4]), None, c)[3] == (
            b"\x00" if scored else b"\x01")
        assert (t.valued_waits(ready, c, c) is not None) == (copies == 0)
    with pytest.raises(ValueError):
        compiled.CompiledContext(0, True, lambda fan, mult: (), elsewhere=(0,) * 33)


def test_a_context_part_refuses_what_it_cannot_apply() -> None:
    """A ``ContextPart``'s bits lie under its mask, and its seat flowers are one count or
    four (by the seat wind)."""
    compiled.ContextPart(0b11, 0b01, seat_flowers=(0, 1, 2, 3))
    with pytest.raises(ValueError):
        compiled.ContextPart(0b01, 0b10)
    with pytest.raises(ValueError):
        compiled.ContextPart(seat_flowers=(0, 1, 2))


def test_a_chi_across_suits_is_no_run_for_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """``chi`` 8m9m1p (a chi with a stand-in, as ``Meld.of`` takes it) is not the run 7-8-9 of
    ids: the core leaves it to the Python path, and both paths answer the same."""
    from mjcore.rules.guangdong import scoring as gd

    hand = Hand(Hand.parse("123p456p789p55z").counts, [Meld.of("chi", (7, 8, 9))])
    with pytest.raises(MahjongError):
        _c_readings(hand)
    got = both_paths(monkeypatch, gd.clear_caches, gd.score,
                     hand, 31, True, {"seat_wind": "2z", "round_wind": "1z"}, resolve_options("guangdong"))
    assert got[0][0] == "bad_meld"
    same_result(got[0], got[1])
