"""The valued waits the core keeps by value (``_wait_entry``, ``WaitClass``, mjcore/_wilds.pxi):
whatever was kept before, an entry is exactly the wait asked for (a kept one only when every
item is the same, hits by identity)."""

from __future__ import annotations

import random

from mjcore._core import _wait_probe, _wait_probe_together
from mjcore.rules import resolve_options
from mjcore.rules.common.results import ValuedWait
from mjcore.rules.hangzhou import scoring as hz
from mjcore.tiles import tile_to_text


def test_each_entry_is_the_wait_asked_for() -> None:
    table = hz._compiled_table(resolve_options("hangzhou"))
    assert table is not None
    rng = random.Random(5)
    hits = [(), ("a",), ("b",), ("a", "b")]  # (identity: equal tuples made once each)
    many = [(str(i),) for i in range(600)]
    for i in range(40_000):  # more contents than slots: slots are shared and replaced
        if i % 2:  # (any item may differ)
            tile, vd, vs, unseen = rng.randrange(34), rng.randrange(4), rng.randrange(4), \
                rng.randrange(5)
            hd, hs = rng.choice(hits), rng.choice(hits)
        else:  # (one item differs: a slot holding an entry that differs only there)
            tile, vd, vs, unseen, hd, hs = 7, 1, 2, 3, hits[1], hits[2]
            which = rng.randrange(5)
            vd = rng.randrange(600) if which == 0 else vd
            vs = rng.randrange(600) if which == 1 else vs
            unseen = rng.randrange(600) if which == 2 else unseen
            hd = rng.choice(many) if which == 3 else hd
            hs = rng.choice(many) if which == 4 else hs
        w = _wait_probe(table, tile, vd, vs, unseen, hd, hs)
        assert type(w) is ValuedWait
        assert tuple(w) == (tile_to_text(tile), tile, vd, vs, unseen, hd, hs)
        assert w.patterns_discard is hd and w.patterns_self_drawn is hs
    assert _wait_probe(table, 3, 1, 2, 4, hits[1], hits[2]) is \
        _wait_probe(table, 3, 1, 2, 4, hits[1], hits[2])  # made lately: kept


def test_an_entry_still_held_is_never_rewritten() -> None:
    """An entry a caller still holds (in an answer, a list) keeps what it was made with,
    however many values took its class's place since."""
    table = hz._compiled_table(resolve_options("hangzhou"))
    assert table is not None
    rng = random.Random(11)
    hits = [(), ("a",), ("b",), ("a", "b")]
    kept = []
    for i in range(20_000):  # more contents than slots: slots are shared and replaced
        asked = (rng.randrange(34), rng.randrange(300), rng.randrange(300), rng.randrange(5),
                 rng.choice(hits), rng.choice(hits))
        w = _wait_probe(table, *asked)
        assert tuple(w)[1:] == asked
        if i % 7 == 0:
            kept.append((w, asked))
    for w, asked in kept:
        assert tuple(w) == (tile_to_text(asked[0]),) + asked


def test_waits_asked_together_are_each_the_wait_asked_for() -> None:
    """One call finds the kept waits of each of its values first, then makes its waits from
    them: a value found later in the call never takes the place of one found earlier (its
    waits would be made with the other's values and hits). Twenty values a call over 16
    buckets of 4 puts five in one bucket in about one call of six."""
    table = hz._compiled_table(resolve_options("hangzhou"))
    assert table is not None
    rng = random.Random(17)
    hits = [(str(i),) for i in range(300)]
    for _ in range(3_000):
        asks = [(rng.randrange(34), rng.randrange(50), rng.randrange(50), rng.randrange(5),
                 rng.choice(hits), rng.choice(hits)) for _ in range(20)]
        for w, asked in zip(_wait_probe_together(table, asks), asks, strict=True):
            assert tuple(w) == (tile_to_text(asked[0]),) + asked
            assert w.patterns_discard is asked[4] and w.patterns_self_drawn is asked[5]
