"""The common rules layer on its own: options of every kind, the four combination policies,
readings, and the shared pattern predicates (written from their definitions)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest

from mjcore import Hand, MahjongError
from mjcore.rules.common import patterns as P
from mjcore.rules.common.options import OptionResolver, Options, option
from mjcore.rules.common.readings import readings
from mjcore.rules.common.table import ExtraSpec, FanTable, FloorSpec, PatternSpec, Policy


@dataclass(frozen=True, eq=False)
class Toy(Options):
    cap: int | None = option(3, "a cap", minimum=1, maximum=6, none_allowed=True)
    on: bool = option(False, "a switch")
    mode: str = option("a", "a choice", choices=("a", "b"))
    fan3: int = option(4, "an integer choice", choices=(3, 4))
    table: tuple[int, ...] = option((1, 2, 4), "a list", length=3, nondecreasing=True,
                                    minimum=0, maximum=100)
    share: Fraction = option(Fraction(1, 2), "a ratio", maximum=1)
    floor: int = option(3, "a floor", minimum=0, maximum=6)


RESOLVER = OptionResolver("toy", Toy, {"strict": {"cap": 2, "on": True}})


def test_option_kinds_and_declaration() -> None:
    specs = {s.name: s for s in Toy.specs()}
    assert [specs[n].kind for n in ("cap", "on", "mode", "fan3", "table", "share")] == [
        "int", "bool", "enum", "enum", "int_list", "ratio"]
    o = RESOLVER.resolve({"cap": "none", "fan3": "3", "table": [0, 5, 5], "share": "1/3"})
    assert (o.cap, o.fan3, o.table, o.share) == (None, 3, (0, 5, 5), Fraction(1, 3))
    assert RESOLVER.resolve({"share": (2, 4)}).share == Fraction(1, 2)
    assert RESOLVER.resolve(preset="strict").as_dict()["cap"] == 2
    assert RESOLVER.resolve({"cap": 4}, "strict").cap == 4  # options over the preset
    assert RESOLVER.resolve() is RESOLVER.resolve() and RESOLVER.resolve({"on": True}) is \
        RESOLVER.resolve({"on": True})
    assert specs["table"].describe()["length"] == 3 and specs["share"].describe()["default"] == "1/2"


@pytest.mark.parametrize("bad", [
    {"cap": 0}, {"cap": 7}, {"cap": True}, {"on": 1}, {"mode": "c"}, {"fan3": 5},
    {"fan3": True}, {"table": [1, 2]}, {"table": [3, 2, 1]}, {"table": [1, 2, 101]},
    {"table": "124"}, {"share": "2/1"}, {"share": "x"}, {"share": -1}, {"floor": None},
    {"nope": 1}, {1: 2},
])
def test_option_refusals_name_the_option(bad: dict[Any, Any]) -> None:
    with pytest.raises(MahjongError) as err:
        RESOLVER.resolve(bad)
    assert err.value.code == "bad_option" and str(next(iter(bad))) in err.value.message


def _always(r: Any, c: Any, o: Any) -> bool:
    return True


def _table(kind: str) -> FanTable:
    return FanTable(
        Policy(kind, cap_option="cap", floor_option="floor"),
        (
            PatternSpec("base", "base", 1, "always", _always),
            PatternSpec("big", "big", 2, "when c['big']", lambda r, c, o: c.get("big", False),
                        supersedes=("base",)),
            PatternSpec("special", "special", 5, "when c['special']",
                        lambda r, c, o: c.get("special", False), klass="special"),
            PatternSpec("flat", "flat", 6, "when c['flat']", lambda r, c, o: c.get("flat", False),
                        flat=True),
        ),
        (ExtraSpec("x", "x", 2, "c['x'] times", lambda r, c, o: c.get("x", 0)),),
        (FloorSpec("fl", "fl", "when c['fl']", lambda r, c, o: c.get("fl", False)),),
    )


def test_highest_plus_extras() -> None:
    t, o = _table("highest_plus_extras"), RESOLVER.resolve()
    v = t.evaluate(None, {"big": True, "x": 1}, o)
    assert v is not None and [h.id for h in v.hits] == ["big", "x"] and (v.raw, v.value) == (4, 3)
    v = t.evaluate(None, {"big": True, "x": 1}, RESOLVER.resolve({"cap": None}))
    assert v is not None and v.value == 4
    v = t.evaluate(None, {"flat": True, "big": True}, o)  # 6 flat beats 2 ordinary
    assert v is not None and [h.id for h in v.hits] == ["flat"] and v.value == 6


def test_capped_base() -> None:
    t, o = _table("capped_base"), RESOLVER.resolve()
    v = t.evaluate(None, {"x": 1}, o)  # base 1 + extra 2 = raw 3, cap 3
    assert v is not None and (v.raw, v.value) == (3, 3)
    v = t.evaluate(None, {"special": True, "x": 3}, o)  # a special takes no extra, no cap
    assert v is not None and [h.id for h in v.hits] == ["special"] and v.value == 5
    v = t.evaluate(None, {"fl": True}, o)  # base 1, the floor raises it to 3, listed with 0
    assert v is not None and v.value == 3 and [(h.id, h.fan) for h in v.hits] == [
        ("base", 1), ("fl", 0)]


def test_additive_and_multiplier() -> None:
    o = RESOLVER.resolve({"cap": None})
    v = _table("additive").evaluate(None, {"big": True, "x": 2}, o)  # big supersedes base
    assert v is not None and v.value == 2 + 4
    v = _table("shape_times_event").evaluate(None, {"big": True, "x": 1}, o)
    assert v is not None and v.value == 2 * 2
    # the patterns add up, the extras multiply: (big 2 + special 5) x (x 2 x 2) = 28
    v = _table("sum_times_extras").evaluate(None, {"big": True, "special": True, "x": 2}, o)
    assert v is not None and v.value == 28 and [h.id for h in v.hits] == ["big", "special", "x"]


def test_readings_carry_sets_melds_and_sources() -> None:
    h = Hand.parse("111222333m55p chi:789s")
    rs = readings(h, 4, meld_from=("left",))
    assert len(rs) == 2  # three pungs, or three runs
    for r in rs:
        assert r.sets[0] == ("chow", 24, False, "chi", "left") and r.pair == 13
        assert r.melds == 1 and sum(r.held) == 14
    assert {tuple(s.kind for s in r.sets[1:]) for r in rs} == {("pung",) * 3, ("chow",) * 3}
    (q,) = readings(Hand.parse("11223344556677m"), 0, ("qidui",))
    assert q.shape == "qidui" and len(q.pairs) == 7
    (k,) = readings(Hand.parse("19m19p19s12345677z"), 33, ("standard", "shisanyao"))
    assert k.shape == "shisanyao" and k.pair == 33


def _one(text: str) -> Any:
    return readings(Hand.parse(text), 0, ("standard",))[0]


def test_shared_predicates_from_their_definitions() -> None:
    assert P.qingyise(_one("123p345p567p789p99p")) and not P.qingyise(_one("123p345p567p789p11z"))
    assert P.hunyise(_one("123p345p567p789p11z")) and not P.hunyise(_one("111z222z333z444z55z"))
    assert P.ziyise(_one("111z222z333z444z55z"))
    assert P.all_pungs(_one("111m999p555s777z22m")) and not P.all_pungs(_one("123m999p555s777z22m"))
    assert P.all_chows(_one("123m456m789p234s55s"))
    assert P.terminals_and_honours(_one("111m999p111z777z99s"))
    assert P.terminals_only(_one("111m999m111p999p11s")) and not P.terminals_only(
        _one("111m999p111z777z99s"))
    assert P.each_set_has_terminal(_one("123m789m123p999s11s"))
    assert P.dragon_pungs(_one("555z666z123m456m11p")) == 2
    assert P.wind_pungs(_one("111z222z333z123m11p")) == 3
    assert P.four_copies(_one("111m123m456p789p55p")) == 1
    assert P.nine_gates(_one("11123456789999m"))
    assert not P.concealed(readings(Hand.parse("123m456m789m55p peng:111z"), 0)[0])
    assert P.concealed(readings(Hand.parse("123m456m789m55p angang:1111z"), 0)[0])


def test_table_view_takes_tiles_and_hands_as_text() -> None:
    """A view's tiles and hand take what ``score`` takes: ids or text."""
    from mjcore import TableView

    v = TableView(seat=1, hand="123m456m789m234p5p", phase="claim", pending_tile="5p",
                  pending_from=0, drawn_tile=13)
    assert v.pending_tile == 13 and v.drawn_tile == 13 and isinstance(v.hand, Hand)
    with pytest.raises(MahjongError) as err:
        TableView(seat=1, hand="123m", phase="claim", pending_tile="5q")
    assert err.value.code == "bad_state" and "pending_tile" in err.value.message


def test_wild_readings_agree_with_the_core_and_report_each_wild() -> None:
    """Every reading with wilds: a hand has one exactly when the core's win test with that many
    jokers says so (standard and 七对), and each reading says what every wild stands for."""
    import random

    import mjcore
    from mjcore.rules.common.wilds import wild_readings

    rng = random.Random(3)
    wins = 0
    for i in range(1500):
        wild = rng.randrange(34)
        kinds = rng.sample(range(34), 6) + [wild] * 3
        tiles: list[int] = []
        while len(tiles) < 14:
            t = rng.choice(kinds) if i % 2 else rng.randrange(34)
            if tiles.count(t) < 4:
                tiles.append(t)
        hand = Hand.from_tiles(tiles)
        jokers = hand.counts[wild]
        naturals = list(hand.counts)
        naturals[wild] = 0
        for shape in ("standard", "qidui"):
            core = mjcore.is_win(Hand(naturals), jokers=jokers, shapes=(shape,))
            found = wild_readings(hand, tiles[0], wild, shapes=(shape,))
            assert core == bool(found), (hand, wild, shape)
            wins += core
            for r in found:
                assert len(r.wilds) == jokers and all(w == wild for w, _ in r.wilds)
    assert wins > 50
    # 财神归位: a wild may stand for itself; a pair of a natural and a wild
    (r,) = [r for r in wild_readings(Hand.parse("123m456p789s11z55p5z"), 13, 31)
            if r.pair == 13]
    assert r.wilds == ((31, 27),)  # 11z + the wild make the 东 pung; 55p is the pair


def test_sets_only_readings_and_the_fast_existence_test() -> None:
    """``wild_readings(pair=False)`` reads sets only (a hand with a known pair taken out), and
    ``has_wild_reading`` (the core's joker tables) says whether ``wild_readings`` finds any
    reading, with and without the pair, on random hands."""
    import random

    from mjcore.rules.common.wilds import has_wild_reading, wild_readings

    (r,) = [r for r in wild_readings(Hand.parse("123m456p789s11z5z"), 0, 31, pair=False)
            if r.wilds == ((31, 27),)]
    assert r.pair == -1 and len(r.sets) == 4
    rng = random.Random(11)
    found = 0
    for i in range(4000):
        pair = i % 2 == 0
        size = rng.choice((14, 11, 8) if pair else (12, 9, 6))
        wild = rng.randrange(34)
        kinds = rng.sample(range(34), 5) + [wild] * 2
        tiles: list[int] = []
        while len(tiles) < size:
            t = rng.choice(kinds) if i % 3 else rng.randrange(34)
            if tiles.count(t) < 4:
                tiles.append(t)
        hand = Hand.from_tiles(tiles)
        slow = bool(wild_readings(hand, tiles[0], wild, pair=pair))
        assert has_wild_reading(hand.counts, wild, pair) == slow, (hand, wild, pair)
        found += slow
    assert found > 200


def test_shape_times_event_with_exponents() -> None:
    """Exponent values add up; a ×1 shape is listed only alone; the cap limits the multiplier;
    the rank is the table position of the highest contribution (extras after patterns)."""
    t = FanTable(Policy("shape_times_event", cap_option="cap", exponent=True), (
        PatternSpec("plain", "plain", 0, "always", _always),
        PatternSpec("pairs", "pairs", 1, "c['pairs']", lambda r, c, o: c.get("pairs", False)),
    ), (ExtraSpec("ev", "ev", 1, "c['ev']", lambda r, c, o: c.get("ev", 0)),))
    o = RESOLVER.resolve({"cap": 2})
    v = t.evaluate(None, {"ev": 2}, o)
    assert v is not None and [h.id for h in v.hits] == ["ev"] and v.value == 2 and v.rank == 2
    v = t.evaluate(None, {"pairs": True, "ev": 1}, o)
    assert v is not None and [(h.id, h.fan) for h in v.hits] == [("pairs", 1), ("ev", 1)]
    assert v.value == 2 and v.rank == 1 and t.policy.multiplier(v.value, o) == 2
    assert t.policy.multiplier(3, RESOLVER.resolve({"cap": None})) == 8
    with pytest.raises(ValueError):
        Policy("additive", exponent=True)
def test_counted_patterns_flat_option_and_conditional_supersedes() -> None:
    """Generic table features Taiwan's 台 table uses: ``each`` patterns add their value per
    occurrence, ``flat_option`` makes a pattern flat only while the option is on,
    ``supersedes_unless`` keeps the replaced pattern while its option is on, and the
    ``alone`` flat rule replaces even a larger ordinary total."""

    @dataclass(frozen=True, eq=False)
    class Opts(Options):
        flat_on: bool = option(True, "flat")
        keep: bool = option(False, "keep")

    def table(rule: str) -> FanTable:
        return FanTable(Policy("additive", flat_rule=rule), (
            PatternSpec("first", "first", 3, "c['first']", lambda r, c, o: c.get("first"),
                        flat_option="flat_on", supersedes=("method",)),
            PatternSpec("method", "method", 1, "always", _always),
            PatternSpec("big", "big", 2, "c['big']", lambda r, c, o: c.get("big"),
                        supersedes=("small",), supersedes_unless="keep"),
            PatternSpec("small", "small", 1, "always", _always),
            PatternSpec("dragons", "dragons", 1, "c['n'] times", lambda r, c, o: c.get("n", 0),
                        each=True),
        ))

    res = OptionResolver("toy", Opts, {})
    t, o = table("alone"), res.resolve()
    v = t.evaluate(None, {"big": True, "n": 3}, o)
    assert v is not None and [(h.id, h.fan) for h in v.hits] == [
        ("method", 1), ("big", 2), ("dragons", 3)]
    v = t.evaluate(None, {"big": True}, res.resolve({"keep": True}))
    assert v is not None and [h.id for h in v.hits] == ["method", "big", "small"]
    v = t.evaluate(None, {"first": True, "big": True, "n": 4}, o)  # 3 alone beats 8
    assert v is not None and [(h.id, h.fan) for h in v.hits] == [("first", 3)]
    v = table("at_least").evaluate(None, {"first": True, "big": True, "n": 4}, o)
    assert v is not None and v.value == 1 + 2 + 4
    v = t.evaluate(None, {"first": True, "n": 1}, res.resolve({"flat_on": False}))
    assert v is not None and [h.id for h in v.hits] == ["first", "small", "dragons"]
    assert t.patterns[0].describe()["flat_option"] == "flat_on"
    assert t.patterns[4].describe()["per_occurrence"]


def test_win_slots() -> None:
    from mjcore.rules.common.readings import win_slots

    h = Hand.parse("234p456p123m789m111s99s")
    (r,) = readings(h, 12)  # 4p: either run may hold it
    slots = win_slots(r)
    assert sorted(r.sets[i].tile for i in slots) == [10, 12]
    (r,) = readings(h, 26)
    assert win_slots(r) == (-1,)  # the 9s pair
    r = readings(Hand.parse("123m456m789m234p99s chi:234p"), 12)[0]
    (i,) = win_slots(r)  # the concealed 234p, never the chi
    assert r.sets[i].tile == 10 and not r.sets[i].meld and r.sets[0].meld == "chi"


def test_memo_forgets_everything_when_full() -> None:
    from mjcore.rules.common.memo import Memo

    memo: Memo[int, str] = Memo(3)
    assert [memo.keep(k, str(k)) for k in range(3)] == ["0", "1", "2"]
    assert dict(memo) == {0: "0", 1: "1", 2: "2"}
    assert memo.keep(3, "3") == "3"  # the fourth: the three before are forgotten first
    assert dict(memo) == {3: "3"}
    for k in range(100):
        memo.keep(k, "x")
        assert len(memo) <= 3


def test_the_options_memos_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The resolved options of distinct inputs, and a table's enabled rows by options object,
    never outgrow their Memo (keys come from input)."""
    from mjcore.rules import get_ruleset
    from mjcore.rules.sichuan.table import TABLE

    resolver = get_ruleset("sichuan").resolver
    monkeypatch.setattr(resolver._memo, "limit", 5)
    monkeypatch.setattr(TABLE._active, "limit", 5)
    for base in range(1, 40):
        o = resolver.resolve({"base": base})
        TABLE.active(o)
        assert len(resolver._memo) <= 5 and len(TABLE._active) <= 5


def test_the_compiled_tables_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule set's compiled tables by options object (about 40 KB each) never outgrow
    ``compiled.TABLES_KEPT`` (options come from input), and a table compiled again answers
    the same."""
    from mjcore.rules import resolve_options, score
    from mjcore.rules.common import compiled
    from mjcore.rules.guangdong import scoring as gd
    from mjcore.rules.sichuan import scoring as sc

    monkeypatch.setattr(compiled, "TABLES_KEPT", 4)
    monkeypatch.setattr(gd._TABLES, "limit", 4)
    first = score("111m999p555s777z22m", win_tile="2m", ruleset="guangdong", self_drawn=True,
                  context={"seat_wind": "2z", "round_wind": "1z"}, options={"base_points": 1})
    for points in range(1, 20):
        o = resolve_options("guangdong", {"base_points": points})
        gd._compiled_table(o)
        sc._compiled_table(resolve_options("sichuan", {"base": points}))
        assert len(gd._TABLES) <= 4 and len(sc._TABLES) <= 4
    again = score("111m999p555s777z22m", win_tile="2m", ruleset="guangdong", self_drawn=True,
                  context={"seat_wind": "2z", "round_wind": "1z"}, options={"base_points": 1})
    assert again == first

