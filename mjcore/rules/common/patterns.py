"""Pattern predicates that several rule sets share, over one ``Reading``.

清一色 is the same predicate in Sichuan, Guangdong and Wuhan: it lives here once, and each
rule set's table refers to it. Tile ids: suits 0-26 (m p s, nine each), honours 27-33
(winds 27-30 东南西北, dragons 31-33 白发中).
"""

from __future__ import annotations

from mjcore.rules.common.readings import Reading

WINDS = range(27, 31)
DRAGONS = range(31, 34)


def is_terminal(t: int) -> bool:
    return t < 27 and t % 9 in (0, 8)


def is_honour(t: int) -> bool:
    return t >= 27


def suits_held(r: Reading) -> int:
    """Bit 0 m, 1 p, 2 s: the suits any tile of the hand belongs to."""
    h = r.held
    return (any(h[0:9])) | (any(h[9:18]) << 1) | (any(h[18:27]) << 2)


def has_honours(r: Reading) -> bool:
    return any(r.held[27:34])


def qingyise(r: Reading) -> bool:
    """清一色: every tile of one suit, no honours."""
    return suits_held(r) in (1, 2, 4) and not has_honours(r)


def hunyise(r: Reading) -> bool:
    """混一色: the suited tiles all of exactly one suit, and at least one honour."""
    return suits_held(r) in (1, 2, 4) and has_honours(r)


def ziyise(r: Reading) -> bool:
    """字一色: every tile an honour."""
    return suits_held(r) == 0


def all_pungs(r: Reading) -> bool:
    """碰碰胡 / 对对胡: a standard reading whose every set is a pung or kong."""
    return r.shape == "standard" and all(s.is_pung for s in r.sets)


def all_chows(r: Reading) -> bool:
    """平胡 (sequence form): a standard reading whose every set is a sequence."""
    return r.shape == "standard" and all(not s.is_pung for s in r.sets)


def terminals_and_honours(r: Reading) -> bool:
    """混幺九: every tile a terminal or an honour, with at least one of each."""
    h = r.held
    kinds = [t for t in range(34) if h[t]]
    return (all(is_terminal(t) or is_honour(t) for t in kinds)
            and any(is_terminal(t) for t in kinds) and any(is_honour(t) for t in kinds))


def terminals_only(r: Reading) -> bool:
    """清幺九: every tile a 1 or a 9 of a suit."""
    h = r.held
    return all(is_terminal(t) for t in range(34) if h[t])


def each_set_has_terminal(r: Reading) -> bool:
    """带幺九: a standard reading whose every set and pair contains a 1 or a 9."""
    if r.shape != "standard" or not is_terminal(r.pair):
        return False
    return all(is_terminal(s.tile) or (s.kind == "chow" and s.tile % 9 == 6) for s in r.sets)


def is_258(t: int) -> bool:
    """A 2, 5 or 8 of a suit (将: the tiles of Wuhan's 小胡 pair and 将一色)."""
    return t < 27 and t % 3 == 1


def all_258(r: Reading) -> bool:
    """将一色 / 将对's tiles: every tile held is a 2, 5 or 8 of a suit."""
    h = r.held
    return all(is_258(t) for t in range(34) if h[t])


def pungs_of(r: Reading, tiles: range | tuple[int, ...]) -> int:
    """How many pungs or kongs of the given tile kinds the reading has."""
    return sum(1 for s in r.sets if s.is_pung and s.tile in tiles)


def dragon_pungs(r: Reading) -> int:
    return pungs_of(r, DRAGONS)


def wind_pungs(r: Reading) -> int:
    return pungs_of(r, WINDS)


def pair_in(r: Reading, tiles: range | tuple[int, ...]) -> bool:
    return r.pair in tiles


def four_copies(r: Reading) -> int:
    """根: tile kinds of which all four copies are held anywhere (kongs included)."""
    return sum(1 for c in r.held if c == 4)


def concealed(r: Reading) -> bool:
    """门清: no declared meld except concealed kongs."""
    return all(s.meld in ("", "angang") for s in r.sets)


def nine_gates(r: Reading) -> bool:
    """九莲宝灯: no melds, all 14 tiles of one suit, ranks 1 and 9 at least three times and
    every rank 2-8 at least once."""
    if r.melds or not qingyise(r):
        return False
    suit = next(s for s in range(3) if any(r.held[s * 9:s * 9 + 9]))
    c = r.held[suit * 9:suit * 9 + 9]
    return c[0] >= 3 and c[8] >= 3 and all(c[i] >= 1 for i in range(1, 8))
