"""The core's wild-reading search (``_core.wild_standard_readings``, behind
``common.wilds.wild_readings``) against its Python twin (``wild_readings_reference``): the same
readings in the same order, each wild's stand-in included, on every worked case's hand and on
seeded random hands (MJ_CROSSCHECK_N sizes the sample: 1/10 of it, at least 2,000); and
``one_wild_split`` (the core's search stopped at one reading) against the twin's list."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from mjcore import Decomposition, Hand, MahjongError, Meld
from mjcore._core import first_wild_decomposition, wild_standard_readings
from mjcore.rules.common.readings import Reading, TileSet, concealed_decomposition
from mjcore.rules.common.wilds import one_wild_split, wild_readings, wild_readings_reference

N_HANDS = max(2000, int(os.environ.get("MJ_CROSSCHECK_N", "20000")) // 10)
CASES = Path(__file__).resolve().parent.parent / "cases"


def _same(hand: Hand, win: int, wild: int, **kw: object) -> int:
    fast = wild_readings(hand, win, wild, **kw)  # type: ignore[arg-type]
    slow = wild_readings_reference(hand, win, wild, **kw)  # type: ignore[arg-type]
    assert fast == slow, (hand.to_text(), wild, kw)
    return len(fast)


def _random_hand(rng: random.Random, pair: bool) -> tuple[Hand, int]:
    """A hand made of sets (and the pair) with a few tiles turned into wilds, or a random one;
    sometimes with a declared pung. 3n+2 tiles with ``pair``, 3n without."""
    wild = rng.randrange(34)
    melds = []
    counts = [0] * 34
    if rng.random() < 0.2:
        t = rng.choice([k for k in range(34) if k != wild])
        melds.append(Meld.of("peng", (t, t, t)))
        counts[t] = 3  # counts here track every tile, for the copy bound below
    nsets = rng.choice((4, 3, 2, 1)) - len(melds) + (not pair)  # never an empty hand
    while True:
        tiles: list[int] = []
        if rng.random() < 0.8:
            for _ in range(max(nsets, 0)):
                if rng.random() < 0.5:
                    k = rng.randrange(27)
                    k -= max(0, k % 9 - 6)
                    tiles += [k, k + 1, k + 2]
                else:
                    tiles += [rng.randrange(34)] * 3
            if pair:
                tiles += [rng.randrange(34)] * 2
        else:
            tiles = [rng.randrange(34) for _ in range(3 * max(nsets, 0) + 2 * pair)]
        for i in rng.sample(range(len(tiles)), min(len(tiles), rng.choice((0, 1, 2, 3, 4, 4)))):
            tiles[i] = wild
        c = list(counts)
        for t in tiles:
            c[t] += 1
        if tiles and max(c) <= 4:
            return Hand.from_tiles(tiles, melds), wild


def test_core_search_equals_the_python_twin_on_random_hands() -> None:
    rng = random.Random(20261201)
    found = 0
    for i in range(N_HANDS):
        pair = i % 4 != 3
        hand, wild = _random_hand(rng, pair)
        kw: dict[str, object] = {"copy_limit": rng.random() < 0.3, "pair": pair}
        if pair and not hand.melds and rng.random() < 0.3:
            kw["shapes"] = ("standard", "qidui")
        found += _same(hand, rng.randrange(34), wild, **kw) > 0
    assert found > N_HANDS // 3  # most hands read: the sample is not all misses


def test_core_search_equals_the_python_twin_on_the_worked_cases() -> None:
    """Every case hand of the two wild rule sets, each held kind taken as the wild in turn."""
    seen = 0
    for name in ("hangzhou", "wuhan"):
        for line in (CASES / f"{name}.jsonl").read_text().splitlines():
            case = json.loads(line)
            text = case.get("hand") or case.get("input", {}).get("hand")
            if not isinstance(text, str):
                continue
            try:
                hand = Hand.parse(text)
            except MahjongError:
                continue
            kinds = {t for t in range(34) if hand.counts[t]}
            for wild in kinds:
                _same(hand, -1, wild, shapes=("standard", "qidui"))
                _same(hand, -1, wild, copy_limit=True)
            seen += 1
    assert seen >= 20


def test_four_wilds_and_every_stand_in() -> None:
    """Four wilds beside one natural: the wilds alone make the pair or a set of any kind."""
    hand = Hand.parse("123m4p5555z")
    n = _same(hand, 0, 31, shapes=("standard", "qidui"))
    assert n > 34 + 55
    stood = {r.wilds for r in wild_readings(hand, 0, 31)}
    assert ((31, 12), (31, 12), (31, 31), (31, 31)) in stood  # 4p pung, 白板 pair as itself


def test_bad_input_is_a_coded_error() -> None:
    tabs = (tuple(TileSet("pung", t, True) for t in range(34)),
            tuple(TileSet("chow", t, True) for t in range(34)),
            tuple((31, k) for k in range(34)))
    for counts, wild, nsets in (((0,) * 33, 31, 4), ((0,) * 34, 34, 4), ((0,) * 34, -1, 4),
                                ((5,) + (0,) * 33, 0, 1), ((0,) * 34, 0, 7)):
        with pytest.raises(MahjongError) as err:
            wild_standard_readings(counts, wild, nsets, True, None, *tabs)
        assert err.value.code == "bad_argument"
    with pytest.raises(MahjongError) as err2:
        wild_readings(Hand.parse("123m"), -1, 34, pair=False)
    assert err2.value.code == "bad_tile"
    thirteen = tuple(Hand.parse("123m456p789s11z5z").counts)
    for counts, wild, pair in (((0,) * 33, 31, True), ((5,) + (0,) * 33, 0, False),
                               (thirteen, 31, True), (thirteen, 34, False)):
        with pytest.raises(MahjongError) as err3:
            first_wild_decomposition(counts, wild, pair, None)
        assert err3.value.code == "bad_argument"


def _split(r: Reading) -> tuple[Decomposition, tuple[int, ...]]:
    return concealed_decomposition(r), tuple(k for _, k in r.wilds)


def test_one_split_is_a_reading_of_the_python_twin() -> None:
    """``one_wild_split`` (one core call that stops early) returns one of the twin's readings,
    with the copy limit too, and None exactly when the twin finds none; wilds that can stand
    alone do, for the home kind when it is free."""
    rng = random.Random(20261202)
    found = 0
    for i in range(N_HANDS // 4):
        pair = i % 4 != 3
        hand, wild = _random_hand(rng, pair)
        if hand.melds:
            continue
        limit = rng.random() < 0.3
        home = rng.randrange(34)
        got = one_wild_split(hand.counts, wild, home, pair, hand.all_counts() if limit else None)
        slow = wild_readings_reference(hand, -1, wild, copy_limit=limit, pair=pair)
        assert (got is None) == (not slow), (hand.to_text(), wild)
        if got is not None:
            found += 1
            assert got in {_split(r) for r in slow}, (hand.to_text(), wild, home, limit)
    assert found > N_HANDS // 20
    hand = Hand.parse("123m456p789s99m555z")  # three wilds alone: a pung of home, not 1m
    assert one_wild_split(hand.counts, 31, 31) == (Decomposition(8, (0, 12, 24), (31,)),
                                                   (31, 31, 31))
    assert one_wild_split(hand.counts, 31, 5) == (Decomposition(8, (0, 12, 24), (5,)),
                                                  (5, 5, 5))
