"""Wuhan waits of ready hands holding 赖子, compiled against the Python path (the reference):
the core values every candidate tile from one placement search of the ready hand with one
more wild (docs/rulesets/wuhan.md §10), and falls back to a search per candidate past its
bounds. A seeded sample over contexts and options, one to four 赖子 held, declared melds and
one-tile kongs now and then; ``MJ_CROSSCHECK_N`` sets its size."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest
from compiled_twins import both_paths

from mjcore import Hand, MahjongError, Meld, _core, wait_mask
from mjcore._core import PLACED_FEATURES
from mjcore.rules import resolve_options
from mjcore.rules.common import compiled
from mjcore.rules.wuhan import scoring as wh
from mjcore.tiles import tile_to_text

N = max(300, int(os.environ.get("MJ_CROSSCHECK_N", "20000")) // 24)

OPTIONS: list[dict[str, Any]] = [
    {}, {}, {}, {"must_open": False}, {"xiaohu_max_laizi": 0}, {"xiaohu_max_laizi": 2},
    {"gangshanghua_as": "factor"}, {"situational_any_pair": True, "quanqiuren_self_draw": True},
    {"factors": False, "yinghu_factor": 1}, {"min_points": 20}, {"cap_points": 16},
    {"dahu_discard_all_pay": True, "base_dahu": 5, "base_points": 3},
    {"pizi": "hongzhong_facai"}]
CONTEXTS: list[dict[str, Any]] = [
    {}, {}, {"discarder": "right"}, {"robbed": "across"}, {"hai_di": True},
    {"gang_shang_hua": True}, {"winner": 2, "discarder": "across"}]


def ready_hand(rng: random.Random, wilds: bool = True) -> tuple[Hand, int]:
    """A random ready hand holding one to four 赖子 (none unless ``wilds``): a win (sets, some
    declared, and a pair, often of one suit or of pungs) less one tile, some tiles then
    turned into 赖子; now and then a 痞子杠 or 赖子杠 laid aside. (hand, 赖子)."""
    while True:
        laizi = rng.choice((17, 17, 4, 22, 27, 30))
        suit = rng.randrange(3)
        counts = [0] * 34
        melds: list[Meld] = []
        for i in range(4):
            declared = rng.random() < (0.6 if i == 0 else 0.25)
            s = suit if rng.random() < 0.5 else rng.randrange(3)
            if rng.random() < 0.5:
                first = s * 9 + rng.randrange(7)
                run = (first, first + 1, first + 2)
                if declared:
                    melds.append(Meld("chi", run))
                else:
                    for t in run:
                        counts[t] += 1
            else:
                t = rng.choice((s * 9 + rng.randrange(9), rng.randrange(33)))
                if declared:
                    kind = rng.choice(("peng", "peng", "gang", "bugang", "angang"))
                    melds.append(Meld(kind, (t,) * (3 if kind == "peng" else 4)))
                else:
                    counts[t] += 3
        counts[rng.choice((1, 4, 7, 10, 13, 16, 19, 22, 25, rng.randrange(33)))] += 2
        held = [t for t in range(34) for _ in range(counts[t])]
        counts[rng.choice(held)] -= 1  # the winning tile, not yet drawn
        for _ in range(rng.choice((1, 1, 1, 2, 2, 3, 4)) if wilds else 0):
            ks = [x for x in range(34) if counts[x] and x != laizi]
            if ks:
                counts[rng.choice(ks)] -= 1
                counts[laizi] += 1
        if rng.random() < 0.15:
            melds.append(Meld("pizigang", (33,)))
        if rng.random() < 0.05:
            melds.append(Meld("laizigang", (laizi,)))
        if any(laizi in m.tiles and m.kind != "laizigang" or 33 in m.tiles and m.kind !=
               "pizigang" for m in melds):
            continue
        total = counts[:]
        for m in melds:
            for t in m.tiles:
                total[t] += 1
        if max(total) > 4 or counts[33] or bool(counts[laizi]) != wilds:
            continue
        return Hand(counts, melds), laizi


def _ask(ready: Hand, ctx: dict[str, Any], o: Any) -> Any:
    try:
        return wh.valued_waits(ready, ctx, o)
    except MahjongError as exc:
        return (exc.code, str(exc))


def _asked_thrice(monkeypatch: pytest.MonkeyPatch, ready: Hand, ctx: dict[str, Any],
                  o: Any) -> Any:
    """The waits on the Python path, then twice on the compiled path (the first serves the
    context; the second is the core's when ``_WAITS``, the Python path's memo, stays empty),
    all three equal; the Python path's."""
    python, first = both_paths(monkeypatch, wh.clear_caches, wh.valued_waits, ready, ctx, o)
    wh._WAITS.clear()
    again = _ask(ready, ctx, o)
    assert python == first == again, (ready, ctx, o)
    return python


def test_wuhan_waits_with_laizi_held_on_both_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every sampled hand's waits (``_asked_thrice``) equal the Python path's; most are the
    core's, and most wait on something."""
    rng = random.Random(1212)
    served = waiting = 0
    for _ in range(N):
        ready, laizi = ready_hand(rng)
        o = resolve_options("wuhan", rng.choice(OPTIONS))
        ctx = {"laizi": tile_to_text(laizi), **rng.choice(CONTEXTS)}
        python = _asked_thrice(monkeypatch, ready, ctx, o)
        served += not wh._WAITS
        waiting += bool(python) and not isinstance(python[0], str)
    assert served > N // 2 and waiting > N // 3


def test_wuhan_waits_with_no_laizi_held_on_both_paths(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Ready hands holding no 赖子, which the core reads from the hand with each completing
    kind drawn (no placement search), each reading serving that kind and a drawn 赖子
    standing for it: equal to the Python path's. The sample holds hands waiting on the 赖子's
    own kind (drawn, it may stand for itself), hands waiting on a kind of which all four are
    held (a drawn 赖子 may stand for a fifth) and hands holding four of a kind concealed
    (the placement search answers those)."""
    rng = random.Random(1213)
    own = fifth = four = 0
    # waiting on 6p and 9p, either the 赖子's kind (drawn, it stands for itself: 硬胡), and
    # on 3s, of which four are held (a drawn 赖子 may stand for a fifth), and 6s
    fixed = [(Hand.parse(h), laizi) for h, laizi in (
        ("456s78p55s234m chi:123m", 17), ("456s78p55s234m chi:123m", 14),
        ("45s333s55m chi:123s chi:789m", 17))]
    for i in range(N + len(fixed)):
        ready, laizi = fixed[i] if i < len(fixed) else ready_hand(rng, wilds=False)
        o = resolve_options("wuhan", rng.choice(OPTIONS))
        ctx = {"laizi": tile_to_text(laizi), **rng.choice(CONTEXTS)}
        _asked_thrice(monkeypatch, ready, ctx, o)
        assert not wh._WAITS  # (the core's)
        held = list(ready.counts)  # (concealed and declared copies)
        for m in ready.melds:
            for t in m.tiles:
                held[t] += 1
        waits = wait_mask(Hand(ready.counts))  # the concealed tiles' waits, melds aside
        own += waits >> laizi & 1
        fifth += any(waits >> t & 1 and held[t] == 4 for t in range(34))
        four += 4 in ready.counts
    assert own > N // 200 and fifth > N // 200 and four > N // 200, (own, fifth, four)


@pytest.mark.parametrize("base_points,min_points,paid", [
    (1, 2, True), (1, 3, False), (2, 4, True), (2, 5, False), (3, 0, True)])
def test_waits_below_min_points_left_out_on_both_paths(
        monkeypatch: pytest.MonkeyPatch, base_points: int, min_points: int, paid: bool) -> None:
    """A win whose base × H × W is below min_points is refused, so it is no wait: the core
    tells which values are refused in C (the context's ``pays_from``, no pay asked), at the
    line, one above it, and with a base that does not divide min_points (ceiling, not
    floor). H × W is 2 for the first hand's waits (软胡: the 赖子 stands in), 4 for the
    second's (硬胡 and 软胡 where a drawn 赖子 stands for itself or another)."""
    for text, scale in (("123m456m789m9p chi:345s", 1), ("456s78p55s234m chi:123m", 2)):
        ready = Hand.parse(text)
        ctx = {"laizi": "9p", "discarder": "left"}
        o = resolve_options("wuhan", {"base_points": base_points,
                                      "min_points": min_points * scale})
        python, first = both_paths(monkeypatch, wh.clear_caches, wh.valued_waits, ready, ctx,
                                   o)
        wh._WAITS.clear()
        again = _ask(ready, ctx, o)
        assert python == first == again and not wh._WAITS, (text, o)
        assert bool(again) == paid, (text, o)


def test_a_single_laizi_pairs_with_any_258(monkeypatch: pytest.MonkeyPatch) -> None:
    """Four sets and one 赖子 waiting for its pair: a 2, 5 or 8 of any suit makes a 小胡 with
    the 赖子 standing in (软胡: H 1, W 2 for the chi); any other tile, or a second 赖子 (two
    would stand in), makes none. Both paths alike (the core reads every candidate from one
    search)."""
    ready = Hand.parse("123m456m789m9p chi:345s")
    python, core = both_paths(monkeypatch, wh.clear_caches, wh.valued_waits, ready,
                              {"laizi": "9p"}, resolve_options("wuhan"))
    assert python == core
    assert [(w.tile, w.fan_discard, w.fan_self_drawn) for w in core] == [
        (f"{r}{s}", 2, 2) for s in "mps" for r in (2, 5, 8)]


def test_a_pair_of_wilds_alone_valued_by_its_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    """Sets complete but for the pair, which a held 赖子 and the drawn tile make (two wilds
    alone when the tile is a 赖子 or stands in): the core values such a pair once per class of
    kinds (its suit or honours, 2-5-8 or not), so one suit's sets (清一色), pungs
    of 2, 5 and 8 (将一色), kinds held three times and pungs of honours are sampled here; each
    hand's waits equal the Python path's. A feature added to what placed tables read
    must be read by those classes too."""
    # the classes (``_pair_kind_class``) read what these features read of the pair's kind,
    # and the shared waits take the ready hand's features for every candidate (none of
    # these reads the concealed counts)
    assert PLACED_FEATURES == ("standard", "qidui", "pung", "chow", "qing", "hun", "zi",
                               "only258", "pair258", "claimed4", "concealed", "melds4")
    rng = random.Random(258)
    for _ in range(150):
        laizi = rng.choice((17, 4, 22, 27, 30))
        suit = rng.randrange(3)
        style = rng.randrange(4)  # one suit, 2-5-8 pungs, honours, anything
        counts = [0] * 34
        melds: list[Meld] = []
        for i in range(4):
            if style == 1:
                t = rng.randrange(3) * 9 + rng.choice((1, 4, 7))
                run = (t, t, t)
            elif style == 2 and rng.random() < 0.5:
                t = rng.randrange(27, 34)
                run = (t, t, t)
            else:
                s = suit if style == 0 else rng.randrange(3)
                first = s * 9 + rng.randrange(4 if style == 0 else 7)  # (some kinds not held)
                run = (first, first + 1, first + 2) if rng.random() < 0.5 else (first,) * 3
            if i == 0 and rng.random() < 0.7:
                melds.append(Meld("chi" if run[0] != run[1] else "peng", run))
            else:
                for t in run:
                    counts[t] += 1
        total = counts[:]
        for m in melds:
            for t in m.tiles:
                total[t] += 1
        if total[laizi] or max(total) > 3:
            continue
        counts[laizi] += 1
        ready = Hand(counts, melds)
        o = resolve_options("wuhan", rng.choice(OPTIONS))
        ctx = {"laizi": tile_to_text(laizi), **rng.choice(CONTEXTS)}
        python, core = both_paths(monkeypatch, wh.clear_caches, wh.valued_waits, ready, ctx, o)
        assert python == core, (ready, ctx, o)


def test_wuhan_waits_of_many_hands_in_one_context(monkeypatch: pytest.MonkeyPatch) -> None:
    """Many ready hands asked in turn in one context, nothing cleared between them (as a
    server or the cold bench asks them): the core keeps each row of features it values for
    the next hands (``_row_value``), so a row told apart from another by too little (its
    counted features: wilds standing in, melds, ...; the context's features: a discard or
    self-drawn) would be served the other's value. Equal to the Python path's, hand by hand,
    in contexts and options whose values read those counts; ``clear_caches`` starts anew."""
    rng = random.Random(1214)  # (a hand's 赖子 is 9p here: some hold more, some fewer)
    hands = [ready_hand(rng, wilds=rng.random() < 0.6)[0] for _ in range(max(200, N // 3))]
    for opts, extra in (({}, {}), ({"xiaohu_max_laizi": 0}, {"hai_di": True}),
                        ({"xiaohu_max_laizi": 2, "min_points": 20}, {"discarder": "right"})):
        o = resolve_options("wuhan", opts)
        ctx = {"laizi": "9p", **extra}
        monkeypatch.setattr(compiled, "PURE", True)
        wh.clear_caches()
        python = [_ask(h, ctx, o) for h in hands]
        monkeypatch.setattr(compiled, "PURE", False)
        wh.clear_caches()
        generation = _core._rows_generation()
        for h, want in zip(hands, python):
            wh._WAITS.clear()  # (the Python path's memo: each answer the core's)
            assert _ask(h, ctx, o) == want, (h, ctx, o)
        assert _core._rows_generation() - generation == 1  # (one context: one generation)


def test_wuhan_waits_beside_the_payers_melds_on_both_paths(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Ready hands (a 赖子 held or not) in contexts naming other seats' melds (``payer_melds``):
    a kind of which those melds and the hand hold four is no wait, one they make five of is
    refused (``tile_count``), and the values are the winner's H × W (the payers' doublings
    change only the payments). The payers' melds are drawn among the kinds the hand holds or
    waits on, within the copies left (one context in ten is let past them). Equal to the
    Python path's; the core answers most of them itself (no candidate tried on the Python
    path)."""
    rng = random.Random(1215)
    tried = [0]
    real_plus = wh.plus_tile

    def counted_plus(*args: Any) -> Any:  # (the Python path's try of one candidate)
        tried[0] += 1
        return real_plus(*args)

    monkeypatch.setattr(wh, "plus_tile", counted_plus)
    full = refused = by_core = 0
    for _ in range(N):
        ready, laizi = ready_hand(rng, wilds=rng.random() < 0.5)
        left = [4] * 34  # copies not in the hand or the payers' melds
        for t, n in enumerate(ready.all_counts()):
            left[t] -= n
        naturals = [0 if t == laizi else n for t, n in enumerate(ready.counts)]
        waits = wait_mask(Hand(naturals), jokers=ready.counts[laizi])
        kinds = [t for t in range(32) if (ready.all_counts()[t] or waits >> t & 1) and
                 t != laizi]  # (no 痞子 of either preset, no 赖子: never in a set meld)
        over = rng.random() < 0.1
        payers: dict[str, str] = {}
        for seat in rng.sample(("left", "across", "right"), rng.randrange(1, 4)):
            melds = []
            for _ in range(rng.randrange(1, 3)):
                t = rng.choice(kinds)
                run = (t, t + 1, t + 2)
                if t < 27 and t % 9 <= 6 and laizi not in run and rng.random() < 0.25:
                    if over or min(left[k] for k in run) >= 1:
                        melds.append("chi:" + "".join(tile_to_text(k) for k in run))
                        for k in run:
                            left[k] -= 1
                else:
                    n = 3 if rng.random() < 0.7 else 4
                    if over or left[t] >= n:
                        melds.append(f"{'peng' if n == 3 else 'gang'}:{tile_to_text(t) * n}")
                        left[t] -= n
            if melds:
                payers[seat] = " ".join(melds)
        o = resolve_options("wuhan", rng.choice(OPTIONS))
        ctx = {"laizi": tile_to_text(laizi), **rng.choice(CONTEXTS), "payer_melds": payers}
        python, core = both_paths(monkeypatch, wh.clear_caches, wh.valued_waits, ready, ctx, o)
        assert python == core, (ready, ctx, o)
        if isinstance(core, tuple) and core and isinstance(core[0], str):
            refused += core[0] == "tile_count" and min(left) < 0
            continue
        wh.clear_caches()
        tried[0] = 0
        assert _ask(ready, ctx, o) == core
        by_core += bool(core) and tried[0] == 0
        full += any(waits >> t & 1 and left[t] == 0 and ready.all_counts()[t] < 4
                    for t in range(34))
    assert full > N // 10 and refused > N // 40 and by_core > N // 3, (full, refused, by_core)
