"""The local special hands of shapes.md §3 (and 嚦咕嚦咕, Taiwan's seven pairs and a pung), as
predicates over one ``Reading`` that any rule set may switch on and price.

Each docstring is the definition from shapes.md; docs/shapes.md lists which rule set uses
which. Hands defined by tile composition (字一色, 百万石, 红孔雀, 绿一色) hold on any winning
shape; the others look at the standard sets. Pung counts include kongs. 天胡/地胡/人胡 are
situations the table reports in the win context, not tile predicates, so they are not here.
"""

from __future__ import annotations

from mjcore.rules.common.patterns import (
    DRAGONS,
    WINDS,
    dragon_pungs,
    is_terminal,
    nine_gates,
    pair_in,
    wind_pungs,
    ziyise,
)
from mjcore.rules.common.readings import Reading

_HONGKONGQUE = frozenset((18, 22, 24, 26, 33))  # 1s 5s 7s 9s 中
_LVYISE = frozenset((19, 20, 21, 23, 25, 32))  # 2s 3s 4s 6s 8s 发


def kinds(r: Reading) -> list[int]:
    """The tile kinds held anywhere (hand and melds)."""
    return [t for t in range(34) if r.held[t]]


def dasanyuan(r: Reading) -> bool:
    """大三元: pungs (or kongs) of 中, 发 and 白."""
    return dragon_pungs(r) == 3


def xiaosanyuan(r: Reading) -> bool:
    """小三元: two dragon pungs and a pair of the third dragon."""
    return dragon_pungs(r) == 2 and pair_in(r, DRAGONS)


def dasixi(r: Reading) -> bool:
    """大四喜: pungs of 东, 南, 西 and 北."""
    return wind_pungs(r) == 4


def xiaosixi(r: Reading) -> bool:
    """小四喜: pungs of three winds and a pair of the fourth."""
    return wind_pungs(r) == 3 and pair_in(r, WINDS)


def concealed_pungs(r: Reading, slot: int = -1, self_drawn: bool = True,
                    ron_pung_concealed: bool = False) -> int:
    """暗刻: pungs inside the concealed hand and ``angang`` (not ``peng``/``gang``/``bugang``).
    On a win that is not self-drawn, the pung the winning tile completed (``slot``, an index
    in ``r.sets``) came from another player and is not concealed, unless
    ``ron_pung_concealed`` (shapes.md §3's ``sianke_ron_pung_concealed``)."""
    n = sum(1 for s in r.sets if s.is_pung and s.concealed)
    if not self_drawn and not ron_pung_concealed and slot >= 0 and r.sets[slot].is_pung:
        n -= 1
    return n


def sianke(r: Reading, slot: int = -1, self_drawn: bool = True,
           ron_pung_concealed: bool = False) -> bool:
    """四暗刻: four concealed pungs (see ``concealed_pungs``)."""
    return concealed_pungs(r, slot, self_drawn, ron_pung_concealed) >= 4


def silianke(r: Reading) -> bool:
    """四连刻: four pungs of one suit with ranks r, r+1, r+2, r+3, exposed or not."""
    pungs = {s.tile for s in r.sets if s.is_pung and s.tile < 27}
    return any(all(t + k in pungs and (t + k) // 9 == t // 9 for k in range(4)) for t in pungs)


def qinglaotou(r: Reading) -> bool:
    """清老头: every set a pung of terminals and a terminal pair, no honours."""
    return (r.shape == "standard" and bool(r.sets) and is_terminal(r.pair)
            and all(s.is_pung and is_terminal(s.tile) for s in r.sets))


def baiwanshi(r: Reading, minimum: int = 101) -> bool:
    """百万石: every tile 万, the ranks of all tiles (all four of a kong) adding up to at least
    ``minimum`` (101 for "超过100"; option ``baiwanshi_min``)."""
    h = r.held
    return not any(h[9:34]) and sum((i + 1) * h[i] for i in range(9)) >= minimum


def dongbei_xinganxian(r: Reading) -> bool:
    """东北新干线: exactly one each of 1m-9m plus 东东北北北 or 东东东北北 (the sets 123m 456m
    789m, a pung of one of 东/北 and a pair of the other); melds allowed, no kong."""
    h = r.held
    return (r.shape == "standard" and all(h[i] == 1 for i in range(9))
            and {h[27], h[30]} == {2, 3} and sum(h) == 14
            and not any(s.kind == "kong" for s in r.sets))


def hongkongque(r: Reading, needs_zhong: bool = False) -> bool:
    """红孔雀: every tile is 1s, 5s, 7s, 9s or 中 (with ``needs_zhong``, a 中 is held)."""
    return set(kinds(r)) <= _HONGKONGQUE and (not needs_zhong or r.held[33] > 0)


def lvyise(r: Reading, needs_fa: bool = False) -> bool:
    """绿一色: every tile is 2s, 3s, 4s, 6s, 8s or 发 (with ``needs_fa``, a 发 is held)."""
    return set(kinds(r)) <= _LVYISE and (not needs_fa or r.held[32] > 0)


def jiulianbaodeng(r: Reading) -> bool:
    """九莲宝灯: concealed (no meld, not even an angang), all tiles of one suit, at least three
    1s, three 9s and one of each rank 2-8, whatever the wait."""
    return nine_gates(r)


def dachelun(r: Reading, any_suit: bool = False) -> bool:
    """大车轮: concealed, exactly 22334455667788p (with ``any_suit``, of any one suit)."""
    suits = (0, 1, 2) if any_suit else (1,)
    h = r.held
    return not r.melds and any(
        all(h[s * 9 + i] == (2 if 1 <= i <= 7 else 0) for i in range(9))
        and sum(h) == 14 for s in suits)


def shibaluohan(r: Reading) -> bool:
    """十八罗汉: four kongs (any kinds) and a pair: 18 tiles."""
    return len(r.sets) == 4 and all(s.kind == "kong" for s in r.sets) and r.pair >= 0


def ligu_pung(counts: tuple[int, ...] | list[int]) -> int:
    """嚦咕嚦咕 (seven pairs and a pung, 17 concealed tiles; four identical tiles count as two
    pairs): the pung's tile kind, or -1 when the counts are not that shape. The pung is the one
    kind held three times, so the reading is unique."""
    if sum(counts) != 17:
        return -1
    odd = [t for t, c in enumerate(counts) if c % 2]
    return odd[0] if len(odd) == 1 and counts[odd[0]] == 3 else -1


__all__ = [
    "baiwanshi", "concealed_pungs", "dachelun", "dasanyuan", "dasixi", "dongbei_xinganxian",
    "hongkongque", "jiulianbaodeng", "kinds", "ligu_pung", "lvyise", "qinglaotou",
    "shibaluohan", "sianke", "silianke", "xiaosanyuan", "xiaosixi", "ziyise",
]
