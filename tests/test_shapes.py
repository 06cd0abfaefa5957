"""Winning shapes from their definitions (rules/shapes.md §1-§2, the examples of §8 and the
seed quotes), checked on the core and on the reference (tests/reference.py).

Each test names the rule it checks. The last part checks the reference's speed-ups against
its fully naive forms (every wild assignment; shanten by search over tile exchanges).
"""

from __future__ import annotations

import random

import pytest
import reference as R

import mjcore
from mjcore import Hand

ALL = mjcore.SHAPES


def core_shapes(text: str, jokers: int = 0) -> frozenset[str]:
    return mjcore.win_shapes(text, shapes=ALL, jokers=jokers)


def ref_shapes(text: str, jokers: int = 0) -> frozenset[str]:
    c, m = R.parse_hand(text)
    return R.win_shapes(c, m, R.SHAPES, jokers)


def both(text: str, jokers: int = 0) -> frozenset[str]:
    a, b = core_shapes(text, jokers), ref_shapes(text, jokers)
    assert a == b, (text, jokers, sorted(a), sorted(b))
    return a


def waits_of(text: str, shapes: tuple[str, ...] = mjcore.DEFAULT_SHAPES, jokers: int = 0) -> list[str]:
    got = [w.tile for w in mjcore.waits(text, shapes=shapes, jokers=jokers)]
    c, m = R.parse_hand(text)
    assert got == [R.tile_text(t) for t in R.waits(c, m, shapes, jokers)], text
    return got


def shanten_of(text: str, shapes: tuple[str, ...] = mjcore.DEFAULT_SHAPES, jokers: int = 0) -> int:
    got = mjcore.shanten(text, shapes=shapes, jokers=jokers)
    c, m = R.parse_hand(text)
    assert got == R.shanten(c, m, shapes, jokers), text
    return got


# --------------------------------------------------------------------------- §8 examples

@pytest.mark.parametrize("text,shape", [
    ("19m19p19s12345677z", "shisanyao"),        # §8: pair 中
    ("147s258m369p13467z", "quanbukao"),        # §8: seed 000's example
    ("147s258m3p1234567z", "qixingbukao"),      # §8: seed 000's example
    ("369m147p258s33p333z", "zuhelong"),        # §8: + pair 3p + pung 西 (seed 001)
    ("11m33m55m22p44p66p77z", "qidui"),         # §8
    ("1111m33m55m22p44p77z", "qidui"),          # §8: four 1m as two pairs
    ("22334455667788p", "qidui"),               # §8 dachelun: also qidui ...
    ("22334455667788p", "standard"),            # ... and standard
    ("999888777m789m66m", "standard"),          # §8 baiwanshi
    ("123456789m11144z", "standard"),           # §8 dongbei_xinganxian
    ("99s gang:1111m gang:2222p angang:3333s bugang:4444z", "standard"),  # §8 shibaluohan
])
def test_section8_examples_win(text: str, shape: str) -> None:
    assert shape in both(text)
    assert mjcore.is_win(text, shapes=(shape,))


def test_section8_not_quanbukao_when_a_pair() -> None:
    # §8: "147m258p369s12355z: not quanbukao: 5z is a pair" (§2: 14 *different* tiles)
    assert both("147m258p369s12355z") == frozenset()


def test_section2_seed001_quanbukao_example() -> None:
    # §2: seed 001's 17m369p258s + 东西南中发白 passes
    assert "quanbukao" in both("17m369p258s123567z")


# --------------------------------------------------------------------------- qidui

def test_qidui_four_identical_count_as_two_pairs() -> None:
    # §2 Decision: "four identical tiles count as two pairs (seed 001's bracket)"
    assert both("1111m2222p3333s55z") == {"qidui"}
    assert mjcore.is_win("1111m2222p3333s55z")  # default shapes include qidui


def test_qidui_quads_as_two_pairs_can_be_switched_off() -> None:
    # §6 option qidui_quad_as_two_pairs: false -> seven different kinds
    assert not mjcore.is_win("1111m33m55m22p44p77z", shapes=("qidui_distinct",))
    assert mjcore.is_win("11m33m55m22p44p66p77z", shapes=("qidui_distinct",))


def test_qidui_needs_no_melds() -> None:
    # §2: qidui is concealed ("不能开杠": the four may not be konged)
    assert both("33m55m22p44p66p7z peng:777z") == frozenset()


def test_qidui_is_14_tiles() -> None:
    # a 17-tile hand of seven pairs and a pung is standard16, never qidui
    shapes = both("11223344556677m999p")
    assert "qidui" not in shapes and "standard" in shapes


def test_qidui_waits_single_tile() -> None:
    # six pairs and a single: the single is the wait
    assert waits_of("11m33m55m22p44p66p7z") == ["7z"]


def test_qidui_three_of_a_kind_waits_on_the_fourth() -> None:
    # 111m + 5 pairs: the fourth 1m makes two pairs of 1m
    assert "1m" in waits_of("111m33m55m22p44p66p")


# --------------------------------------------------------------------------- shisanyao

def test_shisanyao_every_wait_of_the_thirteen_sided_hand() -> None:
    # §2: one each of the 13 orphans plus a second copy of one of them
    got = waits_of("19m19p19s1234567z", shapes=("shisanyao",))
    assert got == ["1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z"]


def test_shisanyao_missing_one_waits_on_it() -> None:
    assert waits_of("19m19p19s1234566z", shapes=("shisanyao",)) == ["7z"]


def test_shisanyao_not_with_a_non_orphan() -> None:
    assert "shisanyao" not in both("19m19p18s12345677z")


def test_shisanyao_not_with_melds() -> None:
    # seed 000: "胡牌时，不能碰，杠"
    assert "shisanyao" not in both("19m19p19s12345z peng:777z")


# --------------------------------------------------------------------------- quanbukao / qixingbukao

def test_quanbukao_needs_three_suits_three_residues() -> None:
    # §2 test: each suit one residue, the three suits three different residues
    assert "quanbukao" not in both("147m147p369s12345z")  # 147 twice: residues repeat
    assert "quanbukao" not in both("147m258p368s12345z")  # 368s mixes residues
    assert "quanbukao" in both("147m258p369s12345z")


def test_quanbukao_no_misplacement() -> None:
    # seed 000: "不能错位" -- 147m with a 2m is out
    assert "quanbukao" not in both("1247m58p369s12345z")


def test_qixingbukao_is_an_upgrade_of_quanbukao() -> None:
    # §2: qixingbukao = quanbukao holding all seven honours
    shapes = both("147s258m3p1234567z")
    assert {"quanbukao", "qixingbukao"} <= shapes
    assert "qixingbukao" not in both("147s258m369p13467z")


def test_quanbukao_not_with_melds() -> None:
    assert "quanbukao" not in both("147s258m369p12z peng:333z")


def test_quanbukao_waits() -> None:
    # 13 different knitted/honour tiles: any of the missing ones of the same layout completes
    got = waits_of("147s258m369p1346z", shapes=("quanbukao",))
    assert set(got) == {"2z", "5z", "7z"}


# --------------------------------------------------------------------------- zuhelong

def test_zuhelong_other_set_may_be_a_declared_meld() -> None:
    # §2 Decision: the nine knitted tiles concealed; the other set may be a meld
    assert "zuhelong" in both("369m147p258s33p peng:333z")
    assert "zuhelong" in both("369m147p258s33p chi:789m")


def test_zuhelong_knitted_tiles_must_all_be_there() -> None:
    assert "zuhelong" not in both("369m147p25s33p333z1s")


def test_zuhelong_not_with_two_melds() -> None:
    # one declared meld: fine; two melds leave 8 concealed tiles, too few for the nine
    assert "zuhelong" in both("147m258p369s55z peng:111z")
    assert "zuhelong" not in both("147m258p36s peng:111z peng:222z")


# --------------------------------------------------------------------------- standard

def test_standard_four_sets_and_a_pair_over_hand_and_melds() -> None:
    # §2 standard: "一對將+四句話組成（包括杠）"
    assert both("11m chi:123p peng:555s gang:7777m angang:1111z") == {"standard"}


def test_standard16_five_sets_and_a_pair() -> None:
    # §4: 17 tiles, five sets and a pair
    assert "standard" in both("123m456m789m123p456p11s")
    assert not mjcore.is_win("123m456m789m123p45p11s7s")


def test_nine_gates_waits_on_every_rank() -> None:
    # §3 jiulianbaodeng: 1112345678999 + any tile of that suit, whatever the wait
    assert waits_of("1112345678999s") == [f"{r}s" for r in range(1, 10)]


def test_decompositions_of_dachelun() -> None:
    # 22334455667788p reads three ways as standard (pair 2p, 5p or 8p)
    got = {(d.pair, d.chows, d.pungs) for d in mjcore.decompose("22334455667788p")}
    assert got == {(10, (11, 11, 14, 14), ()), (13, (10, 10, 14, 14), ()),
                   (16, (10, 10, 13, 13), ())}


def test_decompositions_pungs_vs_runs() -> None:
    # 111222333m: three pungs or three runs (对对胡 one way, 平胡 another: DESIGN §3)
    got = {(d.pair, d.chows, d.pungs) for d in mjcore.decompose("111222333m99p")}
    assert got == {(17, (), (0, 1, 2)), (17, (0, 0, 0), ())}


def test_decompose_needs_3n_plus_2() -> None:
    with pytest.raises(mjcore.MahjongError) as e:
        mjcore.decompose("123m")
    assert e.value.code == "wrong_tile_count"
    assert mjcore.decompose("123m45p") == ()


# --------------------------------------------------------------------------- waits and copies

def test_four_copies_never_a_wait() -> None:
    # contract: "A tile of which all four copies are already held (concealed + melds) is never
    # a wait": 1111m + 123p456p789p is not ready (it would need a fifth 1m)
    assert waits_of("1111m123p456p789p") == []
    assert shanten_of("1111m123p456p789p") == 1


def test_four_copies_via_melds_never_a_wait() -> None:
    assert waits_of("5m123p456p789p peng:555m") == []
    assert waits_of("5m123p456p789p chi:345m") == ["5m"]
    assert shanten_of("5m123p456p789p peng:555m") == 1


def test_kong_copies_block_a_wait() -> None:
    assert waits_of("13m456p789p55s gang:2222m") == []


def test_ready_hand_has_shanten_zero_and_complete_hand_minus_one() -> None:
    assert shanten_of("1112345678999m") == 0
    assert shanten_of("11123456789999m") == -1
    assert shanten_of("19m19p19s1234567z", shapes=("shisanyao",)) == 0
    assert shanten_of("19m19p19s1234567z") > 0


# --------------------------------------------------------------------------- wilds

def test_wild_stands_for_a_fifth_copy() -> None:
    # hangzhou.md §2: "a wild may stand for a fifth copy of a kind"
    # 1111m456p789p123s + one wild wins only with the wild as a fifth 1m (111m + 11m pair)
    assert "standard" in both("1111m456p789p123s", jokers=1)
    assert not mjcore.is_win("1111m456p789p123s4s")


def test_wild_pairs_anything_in_qidui() -> None:
    # hangzhou.md §2: a wild may "pair with any tile (or another wild) in 七对"
    assert "qidui" in both("11m33m55m22p44p66p7z", jokers=1)
    assert "qidui" in both("11m33m55m22p44p66p", jokers=2)


def test_wild_alone_waits_on_everything() -> None:
    # four sets + a wild pair missing one: 123m456m789m123p + one wild -> any tile pairs it
    assert len(waits_of("123m456m789m123p", jokers=1)) == 34


def test_wilds_in_special_shapes() -> None:
    assert "shisanyao" in both("19m19p19s1234567z", jokers=1)
    assert "quanbukao" in both("147s258m369p1346z", jokers=1)
    assert "zuhelong" in both("369m147p25s33p333z", jokers=1)


def test_shanten_with_wilds_counts_them_as_free_tiles() -> None:
    assert shanten_of("123m456m789m1p", jokers=0) == 0
    assert shanten_of("123m456m789m", jokers=1) == 0
    assert shanten_of("123m456m789m1p", jokers=1) == -1


# --------------------------------------------------------------------------- the reference itself

def test_reference_wild_speedups_match_naive() -> None:
    """standard/qidui/quanbukao/zuhelong with wilds: the per-group form vs trying every
    assignment of the wilds over all 34 tiles."""
    rng = random.Random(2)
    for _ in range(150):
        j = rng.choice([1, 2])
        h = R.random_hand(rng, 14, j, melds_ok=rng.random() < 0.3)
        c, m = list(h.counts), h.meld_tiles
        assert R.standard_win(c, j) == R.standard_win_naive(c, j), h
        assert R.qidui_win(c, m, j) == R.qidui_win_naive(c, m, j), h
        assert R.quanbukao_win(c, m, j) == R.quanbukao_win_naive(c, m, j, False), h
        assert R.qixingbukao_win(c, m, j) == R.quanbukao_win_naive(c, m, j, True), h
        assert R.zuhelong_win(c, m, j) == R.zuhelong_win_naive(c, m, j), h


def test_reference_waits_match_naive() -> None:
    rng = random.Random(3)
    for _ in range(300):
        j = rng.choice([0, 0, 1, 2])
        h = R.random_hand(rng, rng.choice([13, 16]), j)
        for shapes in (R.DEFAULT_SHAPES, R.SHAPES):
            assert R.waits(h.counts, h.meld_tiles, shapes, j) == R.waits_naive(
                h.counts, h.meld_tiles, shapes, j), h


def test_reference_shanten_fast_matches_full_enumeration() -> None:
    rng = random.Random(4)
    for _ in range(200):
        j = rng.choice([0, 0, 1, 2])
        h = R.random_hand(rng, rng.choice([13, 14, 16, 17]), j)
        assert R.shanten_standard(h.counts, h.meld_tiles, j) == R.shanten_standard(
            h.counts, h.meld_tiles, j, naive=True), h


@pytest.mark.parametrize("seed", range(3))
def test_reference_shanten_matches_exchange_search(seed: int) -> None:
    """The target definition of shanten against its literal definition (fewest discard/draw
    exchanges to a hand with a wait), by breadth-first search on small hands."""
    rng = random.Random(seed)
    done = 0
    while done < 40:
        n = rng.choice([4, 5])
        j = rng.choice([0, 0, 1])
        h = R.random_hand(rng, n, j)
        if sum(h.counts) < 1:
            continue
        shapes = ("standard",)
        want = R.shanten_bfs(h.counts, h.meld_tiles, shapes, j, max_depth=4)
        assert R.shanten(h.counts, h.meld_tiles, shapes, j) == want, h
        done += 1


def test_reference_examples_from_shapes_md() -> None:
    for text, shape in [("19m19p19s12345677z", "shisanyao"), ("147s258m369p13467z", "quanbukao"),
                        ("147s258m3p1234567z", "qixingbukao"), ("369m147p258s33p333z", "zuhelong"),
                        ("1111m33m55m22p44p77z", "qidui")]:
        assert shape in ref_shapes(text)
    assert ref_shapes("147m258p369s12355z") == frozenset()


def test_hand_type_accepted() -> None:
    assert mjcore.is_win(Hand.parse("11123456789999m"))
