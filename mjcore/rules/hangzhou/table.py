"""Hangzhou's multiplier table as data (the spec's §6; docs/rulesets/hangzhou.md §3).

Every value is a power of two written as its exponent (``fan`` = log2 of the factor): a
reading is worth its shape's fan plus its event's fan, and the multiplier is ``2**fan``
(policy ``shape_times_event`` with exponent values; the cap ``max_multiplier`` limits the
multiplier, not the fan).

The predicates read a ``Reading``: the few facts of one reading of the hand that the table
prices (its shape, its 豪华 groups, whether it is an 爆头 win), and a ``WinFacts`` context (the
飘 count counted, whether a kong takes part). Scoring reduces the many readings of a hand with
wilds to these few before the table sees them.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from mjcore.rules.common.table import ExtraSpec, FanTable, PatternSpec, Policy


class Reading(NamedTuple):
    """One reading as the table sees it: ``shape`` (``standard`` or ``qidui``), ``groups`` (豪华
    groups of four used as two pairs, 七对 only) and ``baotou`` (an 爆头 win: the drawn tile
    pairs with a held wild)."""

    shape: str
    groups: int
    baotou: bool


class WinFacts(NamedTuple):
    """What the events read of the win: n = the 飘 that count (min(piao_count, piao_max)),
    ``gang_kai`` (the win is on the replacement tile of the winner's kong), ``piao_on_gang``
    (the last 飘 was made on a kong-replacement turn)."""

    piao: int
    gang_kai: bool
    piao_on_gang: bool


def _g(c: WinFacts) -> bool:
    return c.gang_kai or c.piao_on_gang  # a chain of kongs counts once


def _event(r: Reading, c: WinFacts) -> tuple[int, int, bool]:
    return (1 if r.baotou else 0), (c.piao if r.baotou else 0), _g(c)


def _qidui(groups: int) -> Any:
    return lambda r, c, o: r.shape == "qidui" and r.groups == groups


PATTERNS: tuple[PatternSpec, ...] = (
    PatternSpec("pinghu", "平胡", 0, "a standard win (four sets and a pair); listed only when no "
                "event applies", lambda r, c, o: r.shape == "standard", when=("standard",)),
    PatternSpec("qidui", "七对", 1, "seven pairs with no group of four identical naturals",
                _qidui(0), shape="qidui", when=("qidui", "gen==0")),
    PatternSpec("haohua_qidui", "豪华七对", 2, "七对 with one group of four identical naturals "
                "used as two pairs (haohua_with_wild: any four of a kind once the wilds are "
                "placed)", _qidui(1), shape="qidui", when=("qidui", "gen==1")),
    PatternSpec("shuang_haohua_qidui", "两豪华七对", 3, "七对 with two such groups", _qidui(2),
                shape="qidui", when=("qidui", "gen==2")),
    PatternSpec("san_haohua_qidui", "三豪华七对", 4, "七对 with three such groups", _qidui(3),
                shape="qidui", when=("qidui", "gen==3")),
)
# (compiled: a 七对's 豪华 groups are its kinds of four naturals, ``gen``, under the options
# that compile; with wild_copy_limit, haohua_with_wild or qidui_baotou the Python path scores)


def _when(b: int, n: int | None, g: bool, gang_kai: bool | None = None) -> Any:
    """An event's count: 1 when (b, n, g) match (``n=None``: any n ≥ 1, counted as 2 + n for
    the 杠飘/飘杠 rows whose fan grows with each 飘)."""
    def count(r: Reading, c: WinFacts, o: Any) -> int:
        rb, rn, rg = _event(r, c)
        if rb != b or rg != g or (gang_kai is not None and c.gang_kai != gang_kai):
            return 0
        if n is None:
            return 2 + rn if rn >= 1 else 0
        return 1 if rn == n else 0
    return count


# Event rows: at most one applies to a reading (b = 爆头, n = 飘 counted, g = a kong).
# Compiled (``when``/``times``): b is the reading's ``wild_pair`` (爆头), g the context's
# ``gang``, n the counted context feature ``piao``; ``gang_piao_fan`` is 2 + n.
EXTRAS: tuple[ExtraSpec, ...] = (
    ExtraSpec("baotou", "暴头", 1, "爆头: a self-drawn win whose drawn tile pairs with a held "
              "wild (b=1, n=0, g=0)", _when(1, 0, False), when=("wild_pair", "piao==0", "!gang")),
    ExtraSpec("caipiao", "财飘", 2, "an 爆头 win after one 飘 (b=1, n=1)", _when(1, 1, False),
              when=("wild_pair", "piao==1", "!gang")),
    ExtraSpec("shuang_caipiao", "双财飘", 3, "after two consecutive 飘 (n=2)", _when(1, 2, False),
              when=("wild_pair", "piao==2", "!gang")),
    ExtraSpec("san_caipiao", "三财飘", 4, "after three consecutive 飘 (n=3)", _when(1, 3, False),
              when=("wild_pair", "piao==3", "!gang")),
    ExtraSpec("gangkai", "杠开", 1, "a win on the replacement tile of one's own kong, not 爆头 "
              "(g=1)", _when(0, 0, True), when=("!wild_pair", "gang")),
    ExtraSpec("gangbao", "杠暴", 2, "杠开 that is an 爆头 win (b=1, g=1)", _when(1, 0, True),
              when=("wild_pair", "piao==0", "gang")),
    ExtraSpec("gangpiao", "杠飘", 1, "the last 飘 made on a kong-replacement turn, then an 爆头 "
              "self-draw (not on a replacement): fan 2 + n, ×8 for one 飘",
              _when(1, None, True, gang_kai=False), each=True,
              when=("wild_pair", "piao>=1", "gang", "!gang_kai"), times="gang_piao_fan"),
    ExtraSpec("piaogang", "飘杠", 1, "飘 first, then the 爆头 win on a kong replacement: fan 2 + n, "
              "×8 for one 飘", _when(1, None, True, gang_kai=True), each=True,
              when=("wild_pair", "piao>=1", "gang_kai"), times="gang_piao_fan"),
)

CONTEXT_FEATURES = ("gang", "gang_kai")
"""The win context as the compiled table sees it: ``gang`` is g (``gang_kai`` or
``piao_on_gang``: a chain of kongs counts once), ``gang_kai`` the win on a kong replacement."""
CONTEXT_COUNTS = ("piao", "gang_piao_fan")
"""Counted: ``piao`` is n (the 飘 that count), ``gang_piao_fan`` 2 + n (杠飘/飘杠's fan)."""

TABLE = FanTable(Policy("shape_times_event", cap_option="max_multiplier", exponent=True),
                 PATTERNS, EXTRAS, context_features=CONTEXT_FEATURES,
                 context_counts=CONTEXT_COUNTS)

__all__ = ["CONTEXT_COUNTS", "CONTEXT_FEATURES", "EXTRAS", "PATTERNS", "TABLE", "Reading",
           "WinFacts"]
