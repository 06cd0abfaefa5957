"""Guangdong's 爆胡 fan table as data (docs/rulesets/guangdong.md §4-§8): patterns (inside the
爆胡 cap or special), extras, 3-fan floors and the flat first-turn wins, under the
``capped_base`` policy. Each predicate looks at one reading of the hand (``common.readings``)
and the value part of the win context (``WinFacts``), built from ``common.patterns``."""

from __future__ import annotations

from typing import Any, NamedTuple

from mjcore.rules.common import patterns as P
from mjcore.rules.common.readings import Reading
from mjcore.rules.common.table import ExtraSpec, FanTable, FloorSpec, PatternSpec, Policy

EAST = 27  # tile id of 东 (1z); winds are 27-30


class WinFacts(NamedTuple):
    """What of a win's context the table looks at (the rest only decides who pays)."""

    self_drawn: bool
    zimo: bool  # self-drawn, or a win that counts as self-drawn (抢杠)
    seat_wind: int  # 0-3: 东 南 西 北
    round_wind: int
    qiang_gang: bool
    gang_shang_kai_hua: bool
    gang_fed: bool  # 杠上开花 after a 直杠 on another seat's discard
    hai_di_lao_yue: bool
    winners: int  # players winning on this discard
    flat: str  # "tianhe", "renhe", "dihe" or ""


def _std(r: Reading) -> bool:
    return r.shape == "standard"


def _wind_pung(r: Reading, wind: int) -> int:
    return 1 if P.pungs_of(r, (EAST + wind,)) else 0


# Among specials only the highest counts; on equal fan the earlier one here (§4). 七对 is not
# listed: its value is an option, and it is last in the table, so it loses every tie anyway.
PRIORITY = ("shisanyao", "jiulianbaodeng", "dasixi", "dasanyuan", "ziyise", "qingyaojiu",
            "xiaosixi", "xiaosanyuan", "hunyaojiu", "qingpeng", "qingyise", "hunpeng")
_FAN = {"shisanyao": 6, "jiulianbaodeng": 6, "dasixi": 6, "dasanyuan": 6, "ziyise": 6,
        "qingyaojiu": 6, "xiaosixi": 5, "xiaosanyuan": 5, "hunyaojiu": 5, "qingpeng": 5,
        "qingyise": 4, "hunpeng": 4}
# the named exclusions of §4 that the priority order does not already give
_NAMED = {"hunpeng": ("hunyise", "pengpenghu"), "qingpeng": ("qingyise", "pengpenghu"),
          "jiulianbaodeng": ("qingyise",), "ziyise": ("xiaosanyuan", "xiaosixi"),
          "hunyaojiu": ("hunpeng",)}


def _supersedes(id_: str) -> tuple[str, ...]:
    """The named exclusions, plus every later special in ``PRIORITY`` not worth more (so the
    table's "highest, ties by table order" picks what §4's order says)."""
    later = PRIORITY[PRIORITY.index(id_) + 1:]
    out = list(_NAMED.get(id_, ()))
    out += [s for s in later if _FAN[s] <= _FAN[id_] and s not in out]
    return tuple(out)


def _special(id_: str, name: str, description: str, predicate: Any, shape: str = "standard",
             when: tuple[str, ...] | None = None) -> PatternSpec:
    return PatternSpec(id_, name, _FAN[id_], description, predicate, shape=shape,
                       klass="special", supersedes=_supersedes(id_), when=when)


def _flat(id_: str, name: str, description: str) -> PatternSpec:
    return PatternSpec(id_, name, 6, description, lambda r, c, o: c.flat == id_, shape="any",
                       klass="special", flat=True, enabled_by="tian_di_ren_he", when=(id_,))


PATTERNS: tuple[PatternSpec, ...] = (
    PatternSpec("jihu", "鸡胡", 0, "any standard winning reading no other pattern fits",
                lambda r, c, o: _std(r), when=("standard",)),
    PatternSpec("pinghu", "平胡", 1, "all four sets are sequences (no pung or kong); any pair",
                lambda r, c, o: P.all_chows(r), when=("chow",)),
    PatternSpec("pengpenghu", "碰碰胡", 2, "all four sets are pungs or kongs",
                lambda r, c, o: P.all_pungs(r), when=("pung",)),
    PatternSpec("hunyise", "混一色", 2, "the suited tiles are all of one suit, with at least one "
                "honour", lambda r, c, o: P.hunyise(r), shape="any", when=("hun",)),
    _special("qingyise", "清一色", "every tile of one suit, no honours",
             lambda r, c, o: P.qingyise(r), shape="any", when=("qing",)),
    _special("hunpeng", "混碰", "混一色 and 碰碰胡",
             lambda r, c, o: P.hunyise(r) and P.all_pungs(r), when=("hun", "pung")),
    _special("qingpeng", "清碰", "清一色 and 碰碰胡",
             lambda r, c, o: P.qingyise(r) and P.all_pungs(r), when=("qing", "pung")),
    _special("hunyaojiu", "混幺九", "every tile a terminal or an honour, at least one of each",
             lambda r, c, o: P.terminals_and_honours(r), shape="any",
             when=("terminals_honours",)),
    _special("xiaosanyuan", "小三元", "two dragon pungs/kongs and a dragon pair",
             lambda r, c, o: _std(r) and P.dragon_pungs(r) == 2 and P.pair_in(r, P.DRAGONS),
             when=("standard", "dragon_pungs==2", "dragon_pair")),
    _special("xiaosixi", "小四喜", "three wind pungs/kongs and a wind pair",
             lambda r, c, o: _std(r) and P.wind_pungs(r) == 3 and P.pair_in(r, P.WINDS),
             when=("standard", "wind_pungs==3", "wind_pair")),
    _special("ziyise", "字一色", "every tile an honour", lambda r, c, o: P.ziyise(r), shape="any",
             when=("zi",)),
    _special("qingyaojiu", "清幺九", "every tile a terminal (no honours)",
             lambda r, c, o: P.terminals_only(r), shape="any", when=("terminals_only",)),
    _special("dasanyuan", "大三元", "three dragon pungs/kongs",
             lambda r, c, o: P.dragon_pungs(r) == 3, when=("dragon_pungs==3",)),
    _special("dasixi", "大四喜", "four wind pungs/kongs", lambda r, c, o: P.wind_pungs(r) == 4,
             when=("wind_pungs==4",)),
    _special("jiulianbaodeng", "九莲宝灯", "no melds; 1112345678999 of one suit plus any tile of "
             "it, whatever the wait", lambda r, c, o: _std(r) and P.nine_gates(r),
             when=("standard", "nine_gates")),
    _special("shisanyao", "十三幺", "the 十三幺 shape", lambda r, c, o: r.shape == "shisanyao",
             shape="shisanyao", when=("shisanyao",)),
    PatternSpec("qidui", "七对", 4, "seven pairs (four identical tiles are two pairs); only with "
                "option qidui", lambda r, c, o: r.shape == "qidui", shape="qidui",
                klass="special", value_option="qidui_fan", enabled_by="qidui", when=("qidui",)),
    _flat("tianhe", "天和", "the dealer's dealt 14 tiles win; replaces every pattern, extra and "
          "floor"),
    _flat("renhe", "人和", "a non-dealer wins on the dealer's first discard; replaces everything"),
    _flat("dihe", "地和", "a non-dealer self-draws a win on the first draw, nobody having claimed "
          "or konged; replaces everything"),
)

EXTRAS: tuple[ExtraSpec, ...] = (
    # not an extra of the seed: the option that lets an all-sequence 混一色 also count 平胡
    ExtraSpec("pinghu", "平胡", 1, "with hunyise_pinghu_stack: 平胡 beside an all-sequence 混一色",
              lambda r, c, o: 1 if P.hunyise(r) and P.all_chows(r) else 0,
              enabled_by="hunyise_pinghu_stack", context=False, when=("hun", "chow")),
    ExtraSpec("zimo", "自摸", 1, "self-drawn (杠上开花, 海底捞月 and 抢杠 count as self-drawn)",
              lambda r, c, o: 1 if c.zimo else 0, when=("zimo",)),
    ExtraSpec("menfeng", "门风", 1, "a pung or kong of the winner's seat wind",
              lambda r, c, o: _wind_pung(r, c.seat_wind), when=("seat_wind_pung",)),
    ExtraSpec("quanfeng", "圈风", 1, "a pung or kong of the round wind",
              lambda r, c, o: _wind_pung(r, c.round_wind), when=("round_wind_pung",)),
    ExtraSpec("sanyuanpai", "三元牌", 1, "each dragon pung or kong",
              lambda r, c, o: P.dragon_pungs(r), each=True, context=False, times="dragon_pungs"),
    ExtraSpec("menqing", "门清", 1, "no chi, peng, gang or bugang (angang allowed); only when "
              "menqing_fan > 0", lambda r, c, o: 1 if P.concealed(r) else 0,
              enabled_by="menqing_fan", value_option="menqing_fan", context=False,
              when=("concealed",)),
)

FLOORS: tuple[FloorSpec, ...] = (
    FloorSpec("yipaosanxiang", "一炮三响", "at least sanxiang_min_winners players win on this "
              "discard", lambda r, c, o: c.winners >= o.sanxiang_min_winners, when=("sanxiang",)),
    FloorSpec("gangshangkaihua", "杠上开花", "self-draw on the replacement tile after one's own "
              "angang or bugang", lambda r, c, o: c.gang_shang_kai_hua and not c.gang_fed,
              when=("gang_shang_kai_hua", "!gang_fed")),
    FloorSpec("gangshangkaihua_baogang", "杠上开花包杠", "self-draw on the replacement tile after "
              "a 直杠 on another's discard", lambda r, c, o: c.gang_shang_kai_hua and c.gang_fed,
              when=("gang_shang_kai_hua", "gang_fed")),
    FloorSpec("haidilaoyue", "海底捞月", "self-draw of the last wall tile",
              lambda r, c, o: c.hai_di_lao_yue and c.self_drawn,
              when=("hai_di_lao_yue", "self_drawn")),
    FloorSpec("qianggang", "抢杠", "win on the tile another player adds as a bugang",
              lambda r, c, o: c.qiang_gang, when=("qiang_gang",)),
)

# The win context as the compiled table sees it (``scoring._context_bits`` computes them;
# sanxiang: winners_on_discard reaches the option's sanxiang_min_winners).
CONTEXT_FEATURES = ("self_drawn", "zimo", "qiang_gang", "gang_shang_kai_hua", "gang_fed",
                    "hai_di_lao_yue", "sanxiang", "tianhe", "renhe", "dihe")

TABLE = FanTable(Policy("capped_base", cap_option="baohu_cap", floor_option="baohu_cap"),
                 PATTERNS, EXTRAS, FLOORS, context_features=CONTEXT_FEATURES)
SPECIAL_IDS = frozenset(p.id for p in PATTERNS if p.klass == "special")
