"""The contract every registered rule set fulfils, run over each of them (a new rule set is
tested the day it registers): its description is plain data that round-trips, its options
validate, score agrees with the core's win test, valued waits are exactly the tiles that
score, every legal move validates and no refused move is offered, and seeded self-play
settles zero-sum with every payment traced to an event."""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest
from contract_profiles import PROFILES, Profile, winning_hand
from contract_sim import Simulator

from mjcore import Hand, MahjongError, is_win, rules
from mjcore.rules import get_ruleset, list_rulesets

RULESETS = list_rulesets()
SELFPLAY = int(os.environ.get("MJ_CONTRACT_HANDS", "150"))


def profile(name: str) -> Profile:
    return PROFILES[name]()


def test_every_ruleset_has_a_profile() -> None:
    assert set(RULESETS) <= set(PROFILES), "add the new rule set to contract_profiles.PROFILES"
    assert set(rules.RULESETS) == set(RULESETS)


@pytest.mark.parametrize("name", RULESETS)
def test_describe_round_trips(name: str) -> None:
    rs = get_ruleset(name)
    d = rules.describe_ruleset(name)
    assert json.loads(json.dumps(d, ensure_ascii=False)) == d
    assert d["name"] == name and d["unit"] == rs.unit
    assert d["claims"] and set(d["claims"]) <= {"chi", "peng", "gang", "hu"}
    ids = [p["id"] for p in d["patterns"]]
    assert len(ids) == len(set(ids))
    for p in d["patterns"]:  # everything a pattern names exists
        assert set(p["supersedes"]) <= set(ids)
    options = {o["name"] for o in d["options"]}
    for p in d["patterns"] + d["extras"]:
        for key in ("value_option", "enabled_by"):
            assert p[key] is None or p[key] in options
    for preset, values in d["presets"].items():
        resolved = rules.resolve_options(name, preset=preset).as_dict()
        for key, value in values.items():
            assert json.loads(json.dumps(resolved[key] if not isinstance(resolved[key], tuple)
                                         else list(resolved[key]))) == value


@pytest.mark.parametrize("name", RULESETS)
def test_options_validate(name: str) -> None:
    rs = get_ruleset(name)
    default = rules.resolve_options(name)
    assert rules.resolve_options(name) is default
    for spec in rs.options.specs():
        assert spec.validate(spec.default) == spec.default
        assert getattr(default, spec.name) == spec.default
        for bad in ({"x": 1}, "not-a-value", -10**12, 10**12, [1.5]):
            if spec.kind == "enum" and bad in (spec.choices or ()):
                continue
            try:
                value = spec.validate(bad)
            except MahjongError as err:
                assert err.code == "bad_option" and spec.name in err.message
            else:  # accepted: then it is a value of the declared kind
                assert spec.kind in ("int", "ratio") and value is not None
    with pytest.raises(MahjongError) as err:
        rules.resolve_options(name, {"no_such_option": 1})
    assert err.value.code == "bad_option"
    with pytest.raises(MahjongError) as err:
        rules.resolve_options(name, preset="no_such_preset")
    assert err.value.code == "bad_option"


def _score(name: str, p: Profile, hand: Hand, tile: int, self_drawn: bool) -> Any:
    ctx = dict(p.context) if self_drawn else {**p.context, **p.discard_context}
    return rules.score(hand, win_tile=tile, self_drawn=self_drawn, context=ctx, ruleset=name,
                       options=p.options)


def _winning(p: Profile, rng: random.Random, size: int) -> tuple[Hand, int]:
    if p.hands is not None:
        return p.hands(rng)
    return winning_hand(rng, p.tiles, p.chi, hand_tiles=size)


@pytest.mark.parametrize("name", RULESETS)
def test_score_agrees_with_is_win(name: str) -> None:
    p, rs = profile(name), get_ruleset(name)

    def wins(hand: Hand) -> bool:
        return p.is_win(hand) if p.is_win is not None else is_win(hand, shapes=rs.shapes)

    rng = random.Random(8)
    scored = 0
    for i in range(600):
        if i % 2:
            hand, tile = _winning(p, rng, rs.hand_tiles)
        else:  # a random hand of the rule set's tiles
            tiles = [rng.choice(p.tiles) for _ in range(rs.hand_tiles)]
            if max(tiles.count(t) for t in tiles) > 4:
                continue
            hand, tile = Hand.from_tiles(tiles), tiles[0]
        try:
            r = _score(name, p, hand, tile, bool(i % 3))
        except MahjongError as err:
            if not wins(hand):
                assert err.code in ("not_a_win", *p.refusals), (hand, err)
            continue
        scored += 1
        assert wins(hand), hand
        assert r.unit == rs.unit and r.ruleset == name
        assert all(0 <= f < 4 and 0 <= t < 4 and f != t and a >= 0 for f, t, a in r.payments)
    assert scored > 100


@pytest.mark.parametrize("name", RULESETS)
def test_valued_waits_are_the_tiles_that_score(name: str) -> None:
    p, size = profile(name), get_ruleset(name).hand_tiles
    rng = random.Random(9)
    for _ in range(150):
        hand, tile = _winning(p, rng, size)
        counts = list(hand.counts)
        counts[tile] -= 1
        ready = Hand(counts, hand.melds)
        waits = rules.valued_waits(ready, context=p.context or None, ruleset=name,
                                   options=p.options)
        got = {w.id for w in waits}
        expected = set()
        for t in p.tiles:
            if ready.all_counts()[t] >= 4:
                continue
            c = list(counts)
            c[t] += 1
            h = Hand(c, hand.melds)
            for self_drawn in (False, True):
                try:
                    _score(name, p, h, t, self_drawn)
                except MahjongError as err:
                    assert err.code in ("not_a_win", "below_min_fan", "below_min_tai",
                                        *p.refusals), err
                else:
                    expected.add(t)
        assert got == expected, (ready, got, expected)
        for w in waits:
            assert 0 <= w.unseen <= 4 - ready.all_counts()[w.id]


@pytest.mark.parametrize("name", RULESETS)
def test_selfplay_moves_and_settlement(name: str) -> None:
    """Seeded self-play by legal moves: every offered move validates, random moves are refused
    unless offered, and every hand settles zero-sum with payments traced to events."""
    p = profile(name)
    wins = 0
    for seed in range(SELFPLAY):
        sim = Simulator(name, p, seed, p.options)
        ledger = sim.play()
        assert sum(ledger.totals) == 0
        assert 0 <= ledger.next_dealer < 4
        for pay in ledger.payments:
            assert 0 <= pay.event < len(sim.events) and pay.amount >= 0
            assert pay.from_seat != pay.to_seat
        wins += len(ledger.winners)
    assert wins > SELFPLAY // 3
