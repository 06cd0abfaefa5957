"""A set of shapes means their union (rules/shapes.md §2, §6).

``qidui`` counts four identical tiles as two pairs; ``qidui_distinct`` is the same shape with
option ``qidui_quad_as_two_pairs: false`` (seven different kinds). Asking for both must accept
what either accepts, and ``win_shapes`` must only name shapes that were asked for. The general
property: for any two shape names A and B, is_win(A ∪ B) = is_win(A) or is_win(B), the waits of
A ∪ B are the union of the waits, and the shanten is the smaller of the two.
"""

from __future__ import annotations

import itertools
import random

import pytest
import reference as R

import mjcore
from mjcore import Hand, MahjongError, Meld

NAMES = R.SHAPE_NAMES  # SHAPES + qidui_distinct


def test_qidui_and_qidui_distinct_together_accept_four_identical_as_two_pairs() -> None:
    # shapes.md §2: "four identical tiles count as two pairs" (qidui); qidui_distinct refuses it
    quad = "1111m22m33m44m55m66m"
    assert mjcore.is_win(quad, shapes=("qidui",))
    assert not mjcore.is_win(quad, shapes=("qidui_distinct",))
    assert mjcore.is_win(quad, shapes=("qidui", "qidui_distinct"))
    assert mjcore.is_win(quad, shapes=("qidui_distinct", "qidui"))
    assert mjcore.win_shapes(quad, shapes=("qidui", "qidui_distinct")) == {"qidui"}


def test_win_shapes_names_only_the_shapes_asked_for() -> None:
    seven = "11m33m55m22p44p66p77z"  # seven different pairs: both forms of qidui
    assert mjcore.win_shapes(seven, shapes=("qidui_distinct",)) == {"qidui_distinct"}
    assert mjcore.win_shapes(seven, shapes=("qidui",)) == {"qidui"}
    assert mjcore.win_shapes(seven, shapes=("qidui", "qidui_distinct")) == {"qidui", "qidui_distinct"}
    assert mjcore.win_shapes(seven) == {"qidui"}  # the default: mjcore.SHAPES
    assert mjcore.win_shapes("1111m22m33m44m55m66m", shapes=("qidui_distinct",)) == frozenset()


def test_union_of_waits_and_shanten_for_the_two_qidui() -> None:
    # 1111m + four pairs + 6m: qidui waits on 6m; qidui_distinct cannot use the four 1m
    hand = "1111m22m33m44m55m6m"
    assert mjcore.waits(hand, shapes=("qidui",))[0].tile == "6m"
    assert mjcore.waits(hand, shapes=("qidui_distinct",)) == ()
    assert [w.tile for w in mjcore.waits(hand, shapes=("qidui", "qidui_distinct"))] == ["6m"]
    assert mjcore.shanten(hand, shapes=("qidui",)) == 0
    # five different pairs and 6m: a sixth pair and a seventh kind to start, the spare 1m go
    assert mjcore.shanten(hand, shapes=("qidui_distinct",)) == 2
    assert mjcore.shanten(hand, shapes=("qidui_distinct", "qidui")) == 0


def test_unknown_shape_names_every_known_one() -> None:
    with pytest.raises(MahjongError) as e:
        mjcore.is_win("11123456789999m", shapes=("qidui", "sevenpairs"))
    assert e.value.code == "bad_shape"
    assert "qidui_distinct" in e.value.message


def _hands(seed: int, n: int) -> list[R.RandomHand]:
    rng = random.Random(seed)
    return [R.random_hand(rng, rng.choice((13, 14, 13, 14, 16, 17)), rng.choice((0, 0, 0, 1, 2)))
            for _ in range(n)]


def _core(h: R.RandomHand) -> Hand:
    return Hand(h.counts, tuple(Meld.of(k, t) for k, t in h.melds))


def _shanten(hand: Hand, shapes: tuple[str, ...], jokers: int) -> int | None:
    """The core's shanten, None when none of the shapes applies to the hand (bad_shape)."""
    try:
        return mjcore.shanten(hand, shapes=shapes, jokers=jokers)
    except MahjongError as e:
        assert e.code == "bad_shape", e
        return None


@pytest.mark.parametrize("seed", range(2))
def test_every_pair_of_shapes_is_their_union(seed: int) -> None:
    pairs = list(itertools.combinations(NAMES, 2))
    for h in _hands(seed, 250):
        hand, j = _core(h), h.jokers
        mt = h.meld_tiles
        total = sum(h.counts) + j
        if total % 3 == 2:
            alone = {s: mjcore.is_win(hand, shapes=(s,), jokers=j) for s in NAMES}
            # each shape alone agrees with its definition in the reference
            assert alone == {s: s in R.win_shapes(h.counts, mt, (s,), j) for s in NAMES}, h
            assert mjcore.win_shapes(hand, shapes=NAMES, jokers=j) == {s for s in NAMES if alone[s]}
            for a, b in pairs:
                assert mjcore.is_win(hand, shapes=(a, b), jokers=j) == (alone[a] or alone[b]), (h, a, b)
                assert mjcore.win_shapes(hand, shapes=(a, b), jokers=j) == {
                    s for s in (a, b) if alone[s]}, (h, a, b)
        else:
            masks = {s: mjcore.wait_mask(hand, shapes=(s,), jokers=j) for s in NAMES}
            assert masks == {s: R.wait_mask(h.counts, mt, (s,), j) for s in NAMES}, h
            for a, b in pairs:
                assert mjcore.wait_mask(hand, shapes=(a, b), jokers=j) == masks[a] | masks[b], (h, a, b)
        if total % 3 != 0:
            sh_names = NAMES  # shanten is defined for every shape
            sh = {s: _shanten(hand, (s,), j) for s in sh_names}
            for s in sh_names:
                ref = R.shanten(h.counts, mt, (s,), j)
                assert sh[s] == (None if ref >= R.INF else ref), (h, s)
            for a, b in itertools.combinations(sh_names, 2):
                vals = [v for v in (sh[a], sh[b]) if v is not None]
                assert _shanten(hand, (a, b), j) == (min(vals) if vals else None), (h, a, b)


def test_reference_qidui_distinct_matches_naive() -> None:
    rng = random.Random(7)
    for _ in range(150):
        j = rng.choice([0, 1, 2])
        h = R.random_hand(rng, 14, j, melds_ok=False)
        assert R.qidui_distinct_win(h.counts, (), j) == R.qidui_win_naive(h.counts, (), j, True), h
