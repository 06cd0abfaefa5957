"""Valued waits (§12: the 34 physical kinds whose addition gives a reading, 5z included,
except kinds held four times)."""

from __future__ import annotations

import pytest
from compiled_twins import both_paths
from hangzhou_api import valued_waits

from mjcore.rules import hangzhou

BAI = {"caishen_mode": "baiban"}


def test_baotou_state_waits_on_everything() -> None:
    """§5: four sets and a lone wild: any tile completes the pair, self-drawn 爆头."""
    waits = valued_waits("123m456p789s111z5z", options=BAI)
    assert len(waits) == 34 - 0  # 1z is held three times: still a wait
    assert all(w.fan_self_drawn == 1 and w.fan_discard == 0 for w in waits)
    assert {w.patterns_self_drawn[0].id for w in waits} == {"baotou"}
    waits = valued_waits("123m456p789s111z5z", options=BAI, context={"piao_count": 1})
    assert {w.fan_self_drawn for w in waits} == {2}


def test_flip_mode_baiban_wait_and_four_held() -> None:
    """In flip mode a 5z is a natural T: it is a wait when T is; kinds held four times are not
    waits; ``unseen`` counts the visible tiles."""
    waits = {w.tile: w for w in valued_waits("12m456p789s111z99s", context={"caishen": "7z"})}
    # 3m completes 123m; the 7z (a wild) completes anything; the 5z is a natural 7z: no
    assert set(waits) == {"3m", "7z"}
    waits = {w.tile for w in valued_waits("12m456p789s111z99s", context={"caishen": "3m"})}
    assert waits == {"3m", "5z"}  # 3m is the wild; 5z plays as a natural 3m
    w = valued_waits("1111m234p567s789s", options=BAI, visible="5z5z")
    tiles = {x.tile: x for x in w}
    assert "1m" not in tiles and tiles["5z"].unseen == 2


def test_waits_are_the_kinds_that_score() -> None:
    """Random ready hands with wilds (flip with a random 财神, or 白板): the waits are exactly
    the physical kinds (held fewer than four times) whose self-draw scores."""
    import random

    from hangzhou_api import score

    from mjcore import MahjongError
    from mjcore.tiles import tile_to_text

    rng = random.Random(12)
    found = 0
    for i in range(120):
        wild = rng.randrange(34)
        ctx = {"caishen": tile_to_text(wild)}
        o = {"wild_copy_limit": True} if i % 4 == 0 else None
        kinds = rng.sample(range(34), 5) + [wild, 31]
        tiles: list[int] = []
        while len(tiles) < 13:
            t = rng.choice(kinds) if i % 3 else rng.randrange(34)
            if tiles.count(t) < 4:
                tiles.append(t)
        hand = "".join(tile_to_text(t) for t in sorted(tiles))
        got = {w.id for w in valued_waits(hand, context=ctx, options=o)}
        expected = set()
        for t in range(34):
            if tiles.count(t) >= 4:
                continue
            try:
                score(hand + tile_to_text(t), win_tile=t, self_drawn=True, context=ctx, options=o)
            except MahjongError as err:
                assert err.code == "not_a_win", err
            else:
                expected.add(t)
        assert got == expected, (hand, ctx, o)
        found += bool(got)
    assert found > 40


def _values(hand: str, context: dict[str, object]) -> dict[str, tuple[int, int]]:
    return {w.tile: (w.fan_discard, w.fan_self_drawn) for w in valued_waits(hand,
                                                                            context=context)}


def test_waits_after_piao_count_the_discarded_caishen(monkeypatch: pytest.MonkeyPatch) -> None:
    """§5: each 飘 discards a 财神 and "with four wilds at most three 飘 are possible": after
    three, the one 财神 held is the last, so the 财神's kind is no wait (``score`` refuses a
    fifth: more 飘 plus held wilds than four is ``bad_context``); every other kind still wins
    as a self-drawn 爆头 (三财飘). After two 飘 the 财神 drawn is a wait. Both paths (the core
    listed the fifth 财神)."""
    ctx = {"caishen": "9p", "piao_count": 3}
    python, core = both_paths(monkeypatch, hangzhou.clear_caches, _values, "123m456m789s234p9p",
                              ctx)
    assert python == core and "9p" not in core and len(core) == 33
    assert set(core.values()) == {(0, 4)}
    python, core = both_paths(monkeypatch, hangzhou.clear_caches, _values, "123m456m789s234p9p",
                              {**ctx, "piao_count": 2})
    assert python == core and len(core) == 34 and core["9p"] == (0, 3)


def test_waits_after_piao_self_draw_only_baotou(monkeypatch: pytest.MonkeyPatch) -> None:
    """§5: every win that follows a 飘 is an 爆头 win (``score`` refuses another self-draw
    after one). A 七对 with a lone 财神 wins self-drawn on any kind without a 飘, and on none
    after one (七对 is no 爆头 under the defaults); its discard value is the shape's
    (decision 13), so each kind stays listed. Both paths (the core valued the 七对 self-draw)."""
    hand = "1122m3344p5566s9p"
    python, core = both_paths(monkeypatch, hangzhou.clear_caches, _values, hand,
                              {"caishen": "9p"})
    assert python == core and len(core) == 34 and set(core.values()) == {(1, 1)}
    python, core = both_paths(monkeypatch, hangzhou.clear_caches, _values, hand,
                              {"caishen": "9p", "piao_count": 1})
    assert python == core and len(core) == 34 and set(core.values()) == {(1, 0)}


def test_waits_refuse_more_piao_and_wilds_than_four(monkeypatch: pytest.MonkeyPatch) -> None:
    """Decision 3: a 飘 discards a 财神 and only four exist, so three 飘 beside two 财神 held is
    an inconsistent context: ``bad_context``, as ``score`` refuses every tile of that hand
    (both paths; the waits listed values for it)."""
    hand, ctx = "123m456m789s23p9p9p", {"caishen": "9p", "piao_count": 3}
    python, core = both_paths(monkeypatch, hangzhou.clear_caches, _values, hand, ctx)
    assert python == core and python[0] == "bad_context" and "only four" in python[1]
    assert _values(hand, {**ctx, "piao_count": 2})  # (two 飘 and two held: four, it waits)
