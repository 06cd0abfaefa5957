"""Valued waits (§12: the 34 physical kinds whose addition gives a reading, 5z included,
except kinds held four times)."""

from __future__ import annotations

from hangzhou_api import valued_waits

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
