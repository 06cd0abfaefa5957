"""The compiled table's conditions held by byte look-ups (``CompiledTable.fails``, mjcore/
_scoring.pxi) against the conditions as ``compile_table`` states them, on random tables.

A condition is (on, off, counted terms, either-or terms): every ``on`` feature holds, no
``off`` one does, each counted feature compares with its threshold (op 1: at least, 0:
exactly, 2: at most) and each either-or term has one of its ``on`` features holding or one of
its ``off`` ones not. The core finds which hold from eight tables indexed by the features'
bytes, then checks the counted and either-or terms of those left; a reading word's value takes
every byte but the first from the hand once (``held_conditions`` gives both ways).
"""

from __future__ import annotations

import random
from typing import Any

from mjcore._core import CONTEXT_COUNTED_MAX, COUNTED, CompiledTable

NCOUNTS = len(COUNTED) + CONTEXT_COUNTED_MAX


def _holds(spec: tuple[Any, ...], bits: int, counts: list[int]) -> bool:
    on, off, terms = spec[0], spec[1], spec[2]
    anys = spec[3] if len(spec) > 3 else ()
    if bits & on != on or bits & off:
        return False
    for idx, op, k in terms:
        v = counts[idx]
        if (op == 1 and v < k) or (op == 0 and v != k) or (op == 2 and v > k):
            return False
    return all(bits & a_on or ~bits & a_off for a_on, a_off in anys)


def _mask(specs: list[tuple[Any, ...]], bits: int, counts: list[int]) -> int:
    return sum(1 << i for i, s in enumerate(specs) if _holds(s, bits, counts))


def _spec(rng: random.Random, named: list[int]) -> tuple[Any, ...]:
    """A random condition over the features ``named`` (few, so that some hold)."""
    def some(n: int) -> int:
        out = 0
        for _ in range(rng.randrange(n + 1)):
            out |= 1 << rng.choice(named)
        return out
    on = some(3)
    off = some(2) & ~on
    terms = tuple((rng.randrange(NCOUNTS), rng.randrange(3), rng.randrange(4))
                  for _ in range(rng.choice((0, 0, 0, 1, 2))))
    anys = tuple((some(2), some(1)) for _ in range(rng.choice((0, 0, 0, 1, 2))))
    return (on, off, terms, anys) if anys else (on, off, terms)


def _table(patterns: list[Any], extras: list[Any], floors: list[Any]) -> CompiledTable:
    return CompiledTable({
        "patterns": [{"when": w, "value": 1, "supersedes": 0, "flat": False,
                      "cap_exempt": False, "special": False, "absorb": (-1, 0)}
                     for w in patterns],
        "extras": [{"when": w, "times": -1, "value": 1} for w in extras],
        "floors": [{"when": w} for w in floors],
        "policy": 0, "cap": None, "floor_value": 0, "tie_by_value": False, "flat_after": False,
        "mult_pow2": False, "hand_tiles": 14, "max_suits": 3, "no_honours": False,
        "qidui": True, "shisanyao": False,
        "pattern_hits": [None] * len(patterns), "extra_hits": [[None] * 9] * len(extras),
        "floor_hits": [None] * len(floors), "result_type": None, "decomposition_type": None,
        "wait_type": None, "name": "random", "unit": "fan"})


def test_conditions_held_by_bytes_are_the_conditions() -> None:
    rng = random.Random(1212)
    checked = held = 0
    for _ in range(40):
        # features from every byte, a few of them: bytes 0 (a reading word's), 2 and 4-7
        named = rng.sample([*range(8), *range(16, 24), *range(32, 64)], 12)
        patterns = [_spec(rng, named) for _ in range(rng.randrange(1, 65))]
        extras = [_spec(rng, named) for _ in range(rng.randrange(33))]
        floors = [_spec(rng, named) for _ in range(rng.randrange(17))]
        t = _table(patterns, extras, floors)
        for _ in range(60):
            bits = sum(1 << f for f in named if rng.random() < 0.5) | \
                rng.getrandbits(64) & rng.getrandbits(64)
            counts = [rng.randrange(4) for _ in range(NCOUNTS)]
            want = (_mask(patterns, bits, counts), _mask(extras, bits, counts),
                    _mask(floors, bits, counts))
            got, by_word = t.held_conditions(bits, counts)
            assert got == want and by_word == want, (bits, counts)
            checked += 1
            held += bin(want[0]).count("1")
    assert checked == 2400 and held > checked  # (conditions that hold and that do not)
