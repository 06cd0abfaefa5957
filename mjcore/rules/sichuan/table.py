"""Sichuan's fan table as data (docs/rulesets/sichuan.md §3-§4): patterns, extras (add-ons)
and the policy that combines them (the one highest pattern plus the extras, then the cap)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from mjcore.rules.common.table import ExtraSpec, FanTable, PatternSpec, Policy


class Reading(NamedTuple):
    """One reading of a winning hand reduced to what Sichuan's table looks at (built from the
    core's hand profile, so a hand never seen before costs one core call)."""

    qidui: bool  # the 七对 shape (else a standard decomposition)
    qing: bool  # every tile in one suit
    pung: bool  # every set a triplet or kong (对对胡)
    yaojiu: bool  # every set and the pair hold a 1 or a 9
    jiang: bool  # 对对胡 of 2/5/8 only
    long: bool  # 七对 with four identical tiles


def _p(
    id_: str,
    name: str,
    fan: int,
    description: str,
    predicate: Callable[[Reading, Any, Any], bool],
    points: int,
    **kw: Any,
) -> PatternSpec:
    """A row with its fan (§4) and its points in the Chengdu points table (§8)."""
    return PatternSpec(id_, name, fan, description, predicate, columns=(("points", points),), **kw)


PATTERNS: tuple[PatternSpec, ...] = (
    _p("pinghu", "平胡", 0, "any winning hand", lambda r, c, o: True, points=1, shape="any", when=()),
    _p("duiduihu", "对对胡", 1, "every set is a triplet or kong (大对子)",
       lambda r, c, o: r.pung, supersedes=("pinghu",), points=2,
       when=("pung",)),
    _p("qingyise", "清一色", 2, "every tile in one suit", lambda r, c, o: r.qing, shape="any",
       supersedes=("pinghu",), points=3, when=("qing",)),
    _p("daiyaojiu", "带幺九", 2, "every set and the pair contains a 1 or a 9",
       lambda r, c, o: r.yaojiu, supersedes=("pinghu",), points=3, when=("yaojiu",)),
    _p("qidui", "七对", 2, "seven pairs, no declared melds (four identical tiles are two pairs)",
       lambda r, c, o: r.qidui, shape="qidui", supersedes=("pinghu",), points=3,
       when=("qidui",)),
    _p("qingdui", "清对", 3, "清一色 and 对对胡", lambda r, c, o: r.qing and r.pung,
       supersedes=("qingyise", "duiduihu"), points=4, when=("qing", "pung")),
    _p("jiangdui", "将对", 3, "对对胡 in which every tile is a 2, 5 or 8",
       lambda r, c, o: r.jiang, supersedes=("duiduihu",), points=4,
       when=("pung", "only258")),
    _p("longqidui", "龙七对", 4, "七对 holding four identical tiles; one 根 is not counted again",
       lambda r, c, o: r.qidui and r.long, shape="qidui", supersedes=("qidui",),
       absorbs=(("gen", 1),), value_option="longqidui_fan", points=4,
       when=("qidui", "long")),
    _p("qingqidui", "清七对", 4, "清一色 七对", lambda r, c, o: r.qidui and r.qing, shape="qidui",
       supersedes=("qidui", "qingyise"), points=8, when=("qidui", "qing")),
    _p("qingyaojiu", "清幺九", 4, "清一色 and 带幺九", lambda r, c, o: r.qing and r.yaojiu,
       supersedes=("qingyise", "daiyaojiu"), points=3, when=("qing", "yaojiu")),
    _p("tianhu", "天胡", 5, "the dealer's first 14 tiles win before any discard (flat)",
       lambda r, c, o: bool(c.heavenly), shape="any", flat=True, enabled_by="tiandihu", points=8,
       when=("heavenly",)),
    _p("dihu", "地胡", 5, "a non-dealer self-draws a win on its first draw, with no peng/gang by "
       "anyone before it (flat)", lambda r, c, o: bool(c.earthly), shape="any", flat=True,
       enabled_by="tiandihu", points=8, when=("earthly",)),
    _p("qinglongqidui", "清龙七对", 5, "清一色 龙七对; one 根 is not counted again",
       lambda r, c, o: r.qidui and r.qing and r.long, shape="qidui",
       supersedes=("longqidui", "qingqidui"), absorbs=(("gen", 1),), points=9,
       when=("qidui", "qing", "long")),
)


def _zimo_count(a: Any, c: Any, o: Any) -> int:
    if not c.self_drawn or o.zimo_bonus != "fan":
        return 0
    if c.after_kong and c.kong_feeder >= 0 and o.dian_gang_hua == "dianpao":
        return 0  # 点杠花 scored as a discard win from the feeder
    return 1


EXTRAS: tuple[ExtraSpec, ...] = (
    ExtraSpec("gen", "根", 1, "each tile kind of which the winner holds all four copies "
              "anywhere (four concealed, a peng plus the fourth in hand, or a kong)",
              lambda a, c, o: a.gen, each=True, context=False, times="gen"),
    ExtraSpec("gangshanghua", "杠上花", 1, "self-draw on the replacement tile after one's own kong",
              lambda a, c, o: 1 if c.after_kong else 0, columns=(("points", 2),),
              when=("after_kong",)),
    ExtraSpec("gangshangpao", "杠上炮", 1, "win on a discard made right after the discarder's "
              "kong replacement draw", lambda a, c, o: 1 if c.after_kong_discard else 0,
              columns=(("points", 0),), when=("after_kong_discard",)),
    ExtraSpec("qiangganghu", "抢杠胡", 1, "win on a tile another seat adds as a bugang",
              lambda a, c, o: 1 if c.robbing_kong else 0, when=("robbing_kong",)),
    ExtraSpec("zimo", "自摸加番", 1, "self-drawn win, only when zimo_bonus is fan", _zimo_count,
              when=("zimo_fan",)),
    ExtraSpec("jingoudiao", "金钩钓", 1, "four declared melds, won on the pair's single wait",
              lambda a, c, o: 1 if a.melds == 4 else 0, enabled_by="jingoudiao",
              context=False, when=("melds4",)),
    ExtraSpec("haidilaoyue", "海底捞月", 1, "self-draw of the last wall tile",
              lambda a, c, o: 1 if c.last_tile and c.self_drawn else 0, enabled_by="haidilaoyue",
              when=("last_tile", "self_drawn")),
    ExtraSpec("haidipao", "海底炮", 1, "win on the discard after the last wall tile",
              lambda a, c, o: 1 if c.last_tile and not c.self_drawn else 0,
              enabled_by="haidipao", when=("last_tile", "!self_drawn")),
    ExtraSpec("menqing", "门清", 1, "no peng/gang/bugang (angang allowed)",
              lambda a, c, o: 1 if a.menqing else 0, enabled_by="menqing", context=False,
              when=("concealed",)),
    ExtraSpec("zhongzhang", "中张", 1, "no 1 or 9 anywhere",
              lambda a, c, o: 0 if a.has19 else 1, enabled_by="zhongzhang", context=False,
              when=("!has19",)),
)

# The win context as the compiled table sees it (``scoring._context_bits`` computes them;
# zimo_fan: the 自摸加番 extra applies, see ``_zimo_count``).
CONTEXT_FEATURES = ("self_drawn", "after_kong", "after_kong_discard", "robbing_kong", "last_tile",
                    "heavenly", "earthly", "zimo_fan")

TABLE = FanTable(Policy("highest_plus_extras", cap_option="cap_fan"), PATTERNS, EXTRAS,
                 context_features=CONTEXT_FEATURES)
