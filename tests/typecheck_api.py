"""Checked by mypy --strict in `make lint` (not run by pytest): the public API's types as a
user sees them, so the hand-written stubs of the compiled core cannot drift unnoticed."""

from __future__ import annotations

import mjcore


def usage() -> None:
    hand: mjcore.Hand = mjcore.Hand.parse("123m456m789m234p55p")
    won: bool = mjcore.is_win(hand, shapes=("standard", "qidui"), jokers=0)
    shapes: frozenset[str] = mjcore.win_shapes("19m19p19s12345677z")
    mask: int = mjcore.wait_mask("1112345678999m")
    steps: int = mjcore.shanten(hand, shapes=mjcore.SHAPES[:3])
    fast: bool = mjcore.is_win_fast(hand)
    counts: tuple[int, ...] = hand.counts
    batch: bytes = mjcore.is_win_batch(bytes(34 * 2))
    text: str = mjcore.tile_to_text(mjcore.tile_from_text("5p"))
    try:
        mjcore.Hand.parse("5m5m5m5m5m")
    except mjcore.MahjongError as e:
        code: str = e.code
        del code
    del won, shapes, mask, steps, fast, counts, batch, text


def shapes_of_results() -> None:
    for d in mjcore.decompose("11122233344455m"):
        pair: int = d.pair
        runs: tuple[int, ...] = d.chows
        del pair, runs
    for w in mjcore.waits("1112345678999m"):
        tile: str = w.tile
        del tile
