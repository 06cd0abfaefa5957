"""Tile ids and the text notation (contract: "Tiles and notation"; DESIGN.md §5).

Every error code of the notation (`bad_notation`, `too_many_copies`, `bad_meld`, `bad_tile`)
is produced here, and each message names the place ("5m appears 5 times",
"unknown meld kind 'pong' at 15").
"""

from __future__ import annotations

import random

import pytest

import mjcore
from mjcore import Hand, MahjongError, Meld

TEXTS = [f"{r}{s}" for s in "mps" for r in range(1, 10)] + [f"{r}z" for r in range(1, 8)]


# --------------------------------------------------------------------------- tile ids

def test_tile_ids_follow_the_contract() -> None:
    # contract: 1-9m = 0-8, 1-9p = 9-17, 1-9s = 18-26, 1z-7z = 27-33
    assert mjcore.tile_to_text(13) == "5p"
    assert mjcore.tile_from_text("5p") == 13
    assert mjcore.tile_from_text("1m") == 0
    assert mjcore.tile_from_text("9m") == 8
    assert mjcore.tile_from_text("1p") == 9
    assert mjcore.tile_from_text("1s") == 18
    assert mjcore.tile_from_text("9s") == 26
    assert mjcore.tile_from_text("1z") == 27  # 东
    assert mjcore.tile_from_text("7z") == 33  # 中


def test_every_tile_round_trips() -> None:
    for i, text in enumerate(TEXTS):
        assert mjcore.tile_to_text(i) == text
        assert mjcore.tile_from_text(text) == i


@pytest.mark.parametrize("bad", [-1, 42, 100, True, 3.0, "5p", None])
def test_tile_to_text_bad_id(bad: object) -> None:
    with pytest.raises(MahjongError) as e:
        mjcore.tile_to_text(bad)  # type: ignore[arg-type]
    assert e.value.code == "bad_tile"


@pytest.mark.parametrize("bad", ["0p", "8z", "10m", "p5", "5", "m", "", "5x", "55p"])
def test_tile_from_text_bad_text(bad: str) -> None:
    with pytest.raises(MahjongError) as e:
        mjcore.tile_from_text(bad)
    assert e.value.code == "bad_tile"


def test_tile_from_text_wrong_type() -> None:
    with pytest.raises(MahjongError) as e:
        mjcore.tile_from_text(5)  # type: ignore[arg-type]
    assert e.value.code == "bad_tile"


# --------------------------------------------------------------------------- hand text

def test_parse_example_from_the_design() -> None:
    h = Hand.parse("234m345m66p peng:888p angang:9999p")
    assert h.concealed_count == 8
    assert h.counts[1] == 1 and h.counts[2] == 2 and h.counts[3] == 2 and h.counts[4] == 1
    assert h.counts[14] == 2  # 6p
    assert [m.kind for m in h.melds] == ["peng", "angang"]
    assert h.melds[0].tiles == (16, 16, 16)
    assert h.melds[1].tiles == (17,) * 4
    assert h.all_counts()[16] == 3 and h.all_counts()[17] == 4  # a kong counts four
    assert h.to_text() == "233445m66p peng:888p angang:9999p"


@pytest.mark.parametrize("text", [
    "123m456p789s11z",
    "19m19p19s1234567z",
    "1112345678999m",
    "5555m",  # four copies concealed is fine
    "11m chi:123m peng:555p gang:5555s angang:7777m bugang:2222p",
    "7z peng:111z gang:2222z angang:3333z bugang:4444z",
    "",  # no tiles at all
])
def test_text_round_trip(text: str) -> None:
    h = Hand.parse(text)
    assert h.to_text() == text
    assert Hand.parse(h.to_text()) == h
    assert hash(Hand.parse(text)) == hash(h)


def test_parse_normalises_order_and_spacing() -> None:
    a = Hand.parse("321m  11z   peng:5p5p5p")
    assert a.to_text() == "123m11z peng:555p"
    assert Hand.parse("3m2m1m") == Hand.parse("123m")


def test_random_round_trips() -> None:
    rng = random.Random(7)
    wall = [t for t in range(34) for _ in range(4)]
    for _ in range(2000):
        tiles = rng.sample(wall, rng.choice([1, 2, 5, 13, 14, 17]))
        h = Hand.from_tiles(tiles)
        assert Hand.parse(h.to_text()) == h
        assert sorted(tiles) == h.tiles()
        assert h.concealed_count == len(tiles)


def test_meld_properties() -> None:
    h = Hand.parse("11m chi:345p peng:555s gang:7777m angang:1111z bugang:2222z")
    chi, peng, gang, angang, bugang = h.melds
    assert chi.tile == 11 and not chi.is_kong and not chi.is_concealed
    assert peng.tile == 22 and not peng.is_kong
    assert gang.is_kong and not gang.is_concealed
    assert angang.is_kong and angang.is_concealed  # only angang is concealed
    assert bugang.is_kong and not bugang.is_concealed
    assert chi.tiles == (11, 12, 13)


def test_from_tiles_and_constructor_agree() -> None:
    m = Meld.of("peng", (4, 4, 4))
    a = Hand.from_tiles([0, 1, 2, 9, 9], melds=(m,))
    b = Hand.parse("123m11p peng:555m")
    assert a == b
    assert Hand(b.counts, b.melds) == b


def test_hand_is_frozen() -> None:
    h = Hand.parse("123m")
    with pytest.raises((AttributeError, TypeError)):
        h.counts = (0,) * 34  # type: ignore[misc]
    assert {h: 1}[Hand.parse("123m")] == 1


# --------------------------------------------------------------------------- errors

def _err(text: str) -> MahjongError:
    with pytest.raises(MahjongError) as e:
        Hand.parse(text)
    return e.value


def test_fifth_copy_concealed() -> None:
    e = _err("55555m")
    assert e.code == "too_many_copies"
    assert "5m appears 5 times" in e.message


def test_fifth_copy_via_melds() -> None:
    e = _err("55m peng:555m bugang:1111m")
    assert e.code == "too_many_copies"
    assert "5m appears 5 times" in e.message
    e = _err("55m gang:5555m")
    assert e.code == "too_many_copies"
    assert "5m appears 6 times" in e.message
    e = _err("gang:5555z bugang:5555z")
    assert e.code == "too_many_copies" and "5z" in e.message


def test_fifth_copy_via_chi() -> None:
    e = _err("3333p chi:345p")
    assert e.code == "too_many_copies"
    assert "3p appears 5 times" in e.message


def test_four_copies_across_hand_and_melds_is_fine() -> None:
    h = Hand.parse("5m peng:555m")
    assert h.all_counts()[4] == 4


def test_unknown_meld_kind_names_kind_and_place() -> None:
    e = _err("123m peng:555p pong:555p")
    assert e.code == "bad_meld"
    assert "unknown meld kind 'pong' at 15" in e.message
    e = _err("123m456p789s11z pong:555p")
    assert "'pong' at 16" in e.message


@pytest.mark.parametrize("text,where", [
    ("123m peng:55p", "at 5"),          # a peng of two
    ("chi:159m", "at 0"),               # not consecutive, no run of two
    ("chi:123z", "at 0"),               # honours have no sequences
    ("11m chi:159m", "at 4"),           # no two tiles of a run
    ("11m gang:555m", "at 4"),          # a kong of three
    ("11m angang:55555m", "at 4"),      # a kong of five
    ("11m peng:123m", "at 4"),          # a peng of different tiles
    ("11m chi:", "at 4"),               # empty meld
])
def test_bad_meld_shape(text: str, where: str) -> None:
    e = _err(text)
    assert e.code in ("bad_meld", "too_many_copies")
    if e.code == "bad_meld":
        assert where in e.message


@pytest.mark.parametrize("text,code,place", [
    ("1234x", "bad_notation", "at 4"),
    ("m", "bad_notation", "at 0"),
    ("123", "bad_notation", "at 0"),
    ("123m 45", "bad_notation", "at 5"),
    ("0m", "bad_tile", "at 0"),
    ("123m8z", "bad_tile", "at 4"),
    ("12m 9z", "bad_tile", "at 4"),
    ("peng:555p 123m", "bad_notation", "at 10"),  # concealed tiles come first
    ("peng:555p:", "bad_notation", "at 9"),
    ("123m, 456p", "bad_notation", "at 4"),
])
def test_notation_errors_name_the_place(text: str, code: str, place: str) -> None:
    e = _err(text)
    assert e.code == code
    assert place in e.message


def test_huge_text_is_refused_quickly() -> None:
    e = _err("1m" * 100_000)
    assert e.code == "bad_notation"


@pytest.mark.parametrize("bad", [None, 123, b"123m", ["123m"], 1.5])
def test_parse_wrong_type(bad: object) -> None:
    with pytest.raises(MahjongError) as e:
        Hand.parse(bad)  # type: ignore[arg-type]
    assert e.value.code == "bad_notation"


def test_error_is_a_value_error_with_code_and_message() -> None:
    e = _err("55555m")
    assert isinstance(e, ValueError)
    assert str(e).startswith("too_many_copies")
    assert e.message in str(e)


def test_constructor_errors() -> None:
    with pytest.raises(MahjongError) as e:
        Hand([0] * 33)
    assert e.value.code == "wrong_tile_count"
    with pytest.raises(MahjongError) as e:
        Hand([5] + [0] * 33)
    assert e.value.code == "too_many_copies" and "1m appears 5 times" in e.value.message
    with pytest.raises(MahjongError) as e:
        Hand([-1] + [0] * 33)
    assert e.value.code == "bad_tile"
    with pytest.raises(MahjongError) as e:
        Hand.from_tiles([34])
    assert e.value.code == "bad_tile"
    with pytest.raises(MahjongError) as e:
        Meld.of("pong", (1, 1, 1))
    assert e.value.code == "bad_meld"
    with pytest.raises(MahjongError) as e:
        Meld.of("chi", (7, 9, 18))  # 8m 1p 1s: no two tiles of one run
    assert e.value.code == "bad_meld"
    with pytest.raises(MahjongError) as e:
        Meld.of("peng", (40, 40, 40))
    assert e.value.code == "bad_tile"


def test_functions_take_text_or_hand() -> None:
    text = "1112345678999m"
    assert mjcore.waits(text) == mjcore.waits(Hand.parse(text))
    assert [w.tile for w in mjcore.waits(text)] == [f"{r}m" for r in range(1, 10)]
    assert mjcore.mask_to_tiles(mjcore.wait_mask(text)) == [f"{r}m" for r in range(1, 10)]


def test_flowers_are_text_but_never_in_a_hand() -> None:
    """Flowers 1f-8f are ids 34-41 (春夏秋冬梅蘭菊竹): written and parsed, never held in a hand
    or a meld (the rule sets that use them take them in the win context)."""
    from mjcore.tiles import parse_flowers

    assert [mjcore.tile_to_text(t) for t in (34, 41)] == ["1f", "8f"]
    assert parse_flowers("37f") == (36, 40) and parse_flowers("") == ()
    for bad in ("9f", "1m"):
        with pytest.raises(MahjongError) as e:
            parse_flowers(bad)
        assert e.value.code in ("bad_tile", "bad_notation")
    with pytest.raises(MahjongError) as e:
        mjcore.Hand.parse("123m456m789m234p5p1f")
    assert e.value.code == "bad_tile" and "flower" in e.value.message
    with pytest.raises(MahjongError) as e:
        mjcore.Hand.parse("123m456m789m5p peng:111f")
    assert e.value.code == "bad_tile"


def test_meld_kinds_of_every_rule_set() -> None:
    """A chi may hold a tile standing in for its third (Hangzhou's 白板 for the 财神 kind:
    ``chi:12m5z``); 痞子杠 and 赖子杠 (Wuhan) are one tile laid aside, not a set."""
    h = mjcore.Hand.parse("123p456p789s55s chi:12m5z")
    (m,) = h.melds
    assert m.kind == "chi" and m.stand_in == 31 and m.is_set
    assert mjcore.Hand.parse("123p456p789s55s chi:123m").melds[0].stand_in is None
    h = mjcore.Hand.parse("123p456p789s123m55s pizigang:7z laizigang:9p")
    assert [m.kind for m in h.melds] == ["pizigang", "laizigang"]
    assert not any(m.is_set for m in h.melds)
    assert mjcore.is_win(h)  # the laid-aside tiles are not sets: 14 concealed tiles still win
    for bad in ("chi:19m5z", "chi:1m5p9s", "pizigang:77z"):
        with pytest.raises(MahjongError) as e:
            mjcore.Hand.parse("123p456p789s55s " + bad)
        assert e.value.code == "bad_meld", bad


def test_seventeen_tile_hands() -> None:
    """16-tile play: five sets and a pair (17 tiles) use the same core."""
    assert mjcore.is_win("123m456m789m123p456p77s")
    assert mjcore.is_win("123m456m789m77s peng:111z")
    assert {w.tile for w in mjcore.waits("123m456m789m123p456p7s")} == {"7s"}
