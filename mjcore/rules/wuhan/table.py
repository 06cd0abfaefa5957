"""Wuhan's fan table as data (docs/rulesets/wuhan.md, Hands and Value): 小胡 or the 大胡 that
add up to the hand base H, times the extras (硬胡, 杠上花 as a factor); the policy is
``sum_times_extras``. The winner's own doublings F(winner) multiply the result outside the
table (they depend on the melds, not on a reading)."""

from __future__ import annotations

from typing import Any, NamedTuple

from mjcore.rules.common.table import ExtraSpec, FanTable, PatternSpec, Policy


class Shape(NamedTuple):
    """One reading of a winning hand reduced to what the table looks at (built from a
    ``common.readings.Reading`` with every 赖子 placed, by the common predicates)."""

    shape: str  # standard, qidui, or yise (风一色/将一色 without sets, option yise_any_shape)
    pungs: bool  # every set a pung or kong (碰碰胡)
    pair258: bool  # the pair (as read) is a 2, 5 or 8 of a suit
    wilds: int  # 赖子 standing for another kind (0: 硬胡)
    qing: bool  # 清一色 over the tiles as read
    feng: bool  # every tile an honour
    jiang: bool  # every tile a 2, 5 or 8


class Ctx(NamedTuple):
    """What the table needs of the win context."""

    self_drawn: bool
    discard: bool  # won on a discard (not a robbed kong)
    robbed: bool  # 抢杠
    gsh: bool  # 杠上花
    haidi: bool  # 海底捞
    quanqiu: bool  # four set melds, all chi/peng/gang/bugang


def _free_pair(r: Shape) -> bool:
    """碰碰胡, an 一色 or 七对 take any pair ("任意将")."""
    return r.pungs or r.qing or r.feng or r.jiang or r.shape == "qidui"


def _pair_ok(r: Shape, o: Any) -> bool:
    """The situational 大胡 keep the 2/5/8 pair unless the hand is free of it."""
    return r.pair258 or o.situational_any_pair or _free_pair(r)


def _xiaohu(r: Shape, c: Ctx, o: Any) -> bool:
    return r.shape == "standard" and r.pair258 and r.wilds <= o.xiaohu_max_laizi


def _quanqiuren(r: Shape, c: Ctx, o: Any) -> bool:
    return c.quanqiu and (c.discard or (c.self_drawn and o.quanqiuren_self_draw)) and _pair_ok(r, o)


_DAHU = ("xiaohu",)
# compiled (``when``): the pair rule of the situational 大胡 as one any-of term: a 2/5/8 pair,
# or a hand free of it (碰碰胡, an 一色, 七对), or the option situational_any_pair (``any_pair``)
_PAIR_OK = "pair258|pung|qing|zi|only258|qidui|any_pair"


def _big(id_: str, name: str, description: str, predicate: Any, **kw: Any) -> PatternSpec:
    return PatternSpec(id_, name, 10, description, predicate, supersedes=_DAHU,
                       value_option="base_dahu", **kw)


PATTERNS: tuple[PatternSpec, ...] = (
    PatternSpec("xiaohu", "尛胡 (屁胡)", 1, "four sets and a 2/5/8 pair, at most "
                "xiaohu_max_laizi 赖子 used as wilds, no 大胡", _xiaohu, value_option="base_xiaohu",
                when=("standard", "pair258", "wilds_in<=xiaohu_max_laizi")),
    _big("pengpenghu", "碰碰胡", "every set is a pung or kong; any pair",
         lambda r, c, o: r.shape == "standard" and r.pungs, when=("standard", "pung")),
    _big("quanqiuren", "全求人", "four set melds by chi/peng/gang/bugang, won on a discard that "
         "completes the pair (2/5/8 unless freed)", _quanqiuren,
         when=("claimed4", "quanqiu_claim", _PAIR_OK)),
    _big("fengyise", "风一色", "every tile an honour; any pair", lambda r, c, o: r.feng,
         shape="any", when=("zi",)),
    _big("jiangyise", "将一色", "every tile a 2, 5 or 8; any pair", lambda r, c, o: r.jiang,
         shape="any", when=("only258",)),
    _big("qingyise", "清一色", "every tile of one suit; any pair", lambda r, c, o: r.qing,
         shape="any", when=("qing",)),
    _big("haidilao", "海底捞", "self-draw in the 海底 (2/5/8 pair unless freed)",
         lambda r, c, o: c.haidi and _pair_ok(r, o), shape="any", when=("haidi", _PAIR_OK)),
    _big("gangshanghua", "杠上花", "self-draw on one's own kong replacement, 痞子杠 and 赖子杠 "
         "included (2/5/8 pair unless freed); with gangshanghua_as factor an extra instead",
         lambda r, c, o: c.gsh and o.gangshanghua_as == "dahu" and _pair_ok(r, o), shape="any",
         when=("gsh_dahu", _PAIR_OK)),
    _big("qianggang", "抢杠", "win on the tile another player adds as a bugang (2/5/8 pair "
         "unless freed)", lambda r, c, o: c.robbed and _pair_ok(r, o), shape="any",
         when=("robbed", _PAIR_OK)),
    _big("qidui", "七对", "seven pairs (赖子 as wilds), option qidui",
         lambda r, c, o: r.shape == "qidui", shape="qidui", enabled_by="qidui",
         when=("qidui",)),
)

EXTRAS: tuple[ExtraSpec, ...] = (
    ExtraSpec("gangshanghua", "杠上花", 2, "with gangshanghua_as factor: ×2 on W",
              lambda r, c, o: 1 if c.gsh and o.gangshanghua_as == "factor" else 0,
              when=("gsh_factor",)),
    ExtraSpec("yinghu", "硬胡", 2, "no 赖子 used as a wild: ×yinghu_factor on W",
              lambda r, c, o: 0 if r.wilds else 1, value_option="yinghu_factor", context=False,
              when=("wilds_in==0",)),
    ExtraSpec("ruanhu", "软胡", 1, "a 赖子 stands for another tile: ×1",
              lambda r, c, o: 1 if r.wilds else 0, context=False, when=("wilds_in>=1",)),
)

CONTEXT_FEATURES = ("robbed", "gsh_dahu", "gsh_factor", "haidi", "quanqiu_claim", "any_pair")
"""The win context as the compiled table sees it (``scoring._context_names``): ``robbed``
(抢杠), 杠上花 as a 大胡 or as a factor (the option decides), ``haidi``, ``quanqiu_claim`` (a
win 全求人 may be: on a discard, or self-drawn with quanqiuren_self_draw) and ``any_pair``
(situational_any_pair)."""

TABLE = FanTable(Policy("sum_times_extras"), PATTERNS, EXTRAS,
                 context_features=CONTEXT_FEATURES)

DAHU_ORDER: dict[str, int] = {p.id: i for i, p in enumerate(PATTERNS) if p.id != "xiaohu"}
"""§5's order of the 大胡 (the last tie-break between readings)."""
