"""Sichuan's options, each declared once (docs/rulesets/sichuan.md §6), and its presets."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mjcore.rules.common.options import Options, OptionValue, option
from mjcore.rules.common.table import ExtraSpec, PatternSpec


@dataclass(frozen=True, eq=False)
class SichuanOptions(Options):
    """Resolved, validated options (one object per distinct input; identity-hashed)."""

    base: int = option(1, "points for ×1 (一番)", minimum=1, maximum=1_000_000)
    cap_fan: int | None = option(
        None, "封顶: highest fan paid (none = no cap); applies to fan, the 自摸加底 base is added "
        "after", minimum=1, maximum=13, none_allowed=True)
    zimo_bonus: str = option(
        "base", "self-draw bonus: base = 自摸加底 (each payer pays one more base), fan = 自摸加番 "
        "(+1), none", choices=("base", "fan", "none"))
    dian_gang_hua: str = option(
        "dianpao", "点杠花 (杠上花 after a 直杠 fed by another seat): dianpao = the feeder alone "
        "pays as for a discard; zimo = everyone pays as for a self-draw",
        choices=("dianpao", "zimo"))
    hujiao_zhuanyi: bool = option(
        False, "呼叫转移: on 杠上炮 the discarder also pays each winner what that kong earned it")
    longqidui_fan: int = option(
        4, "龙七对 value: 4 (the seeds' table, ×16) or 3 (七对 + its 根, ×8)", choices=(3, 4))
    tiandihu: bool = option(True, "天胡/地胡 score 5 fan flat")
    jingoudiao: bool = option(False, "金钩钓 +1: four declared melds, won on the pair's single wait")
    haidilaoyue: bool = option(False, "海底捞月 +1: self-draw of the last wall tile")
    haidipao: bool = option(False, "海底炮 +1: win on the discard after the last wall tile")
    menqing: bool = option(False, "门清 +1: no peng/gang/bugang (angang allowed)")
    zhongzhang: bool = option(False, "中张 +1: no 1 or 9 anywhere")
    zhigang_pay: int = option(1, "直杠 (刮风) pays this many base from the feeder",
                              choices=(1, 2, 3))
    huazhu_pay: int = option(16, "查花猪: a 花猪 pays each non-花猪 seat still playing this many "
                             "base (at most 2^cap_fan with a cap)", minimum=1, maximum=8192)
    guoshui: bool = option(True, "过水不胡: after declining a discard win, no discard win until "
                           "the next draw unless it scores a higher fan")
    last_four_must_win: bool = option(True, "a seat that can win must win on a tile drawn when "
                                      "four or fewer tiles were left before the draw, or on the "
                                      "discard of such a tile (最后四张必胡)")
    discard_missing_first: bool = option(True, "tiles of the 缺门 must be discarded first")
    exchange_three: bool = option(False, "换三张 before 定缺")
    exchange_direction: str = option(
        "dice", "where the exchanged tiles go (the table decides the dice)",
        choices=("clockwise", "counterclockwise", "opposite", "dice"))
    dealer_on_draw: str = option("stay", "next dealer when nobody won: stay or rotate",
                                 choices=("stay", "rotate"))
    scoring: str = option("fan", "fan: each payer pays base × 2^fan (the fan table); points: "
                          "base × points, the points table added up (§8)",
                          choices=("fan", "points"))
    xuezhan: bool = option(True, "血战到底: play goes on until three seats have won; false: the "
                           "hand ends at the first win (every winner on that discard wins)")
    kong_money: bool = option(True, "刮风下雨: kongs are paid when made (and returned by 退税); "
                              "false: a kong only adds to its owner's win")
    chajiao: str = option("largest", "查叫 at a wall-empty end: a seat that is not ready pays each "
                          "ready seat its largest (or smallest) possible win",
                          choices=("largest", "smallest"))
    chahuazhu: bool = option(True, "查花猪 at a wall-empty end")
    # derived once per options object (the scoring hot path reads these)
    hand_extras: tuple[ExtraSpec, ...] = field(init=False, default=())
    context_extras: tuple[ExtraSpec, ...] = field(init=False, default=())
    pattern_fan: dict[str, int] = field(init=False, default_factory=dict)
    extra_fan: dict[str, int] = field(init=False, default_factory=dict)
    best: dict[int, tuple[int, int, PatternSpec]] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        from mjcore.rules.sichuan.table import TABLE  # the table refers to these options

        enabled = tuple(e for e in TABLE.extras if e.enabled(self))
        setattr_ = object.__setattr__
        setattr_(self, "hand_extras", tuple(e for e in enabled if not e.context))
        setattr_(self, "context_extras", tuple(e for e in enabled if e.context))
        setattr_(self, "pattern_fan", {p.id: p.value(self) for p in TABLE.patterns})
        setattr_(self, "extra_fan", {e.id: e.value(self) for e in TABLE.extras})

    def value_column(self) -> str:
        return self.scoring


PRESETS: dict[str, dict[str, OptionValue]] = {
    "chengdu": {},
    "modern": {
        "cap_fan": 3,
        "longqidui_fan": 3,
        "zhigang_pay": 2,
        "jingoudiao": True,
        "haidilaoyue": True,
        "haidipao": True,
        "exchange_three": True,
    },
    # §8: the seed's second table, in points added up; the first win ends the hand
    "chengdu_points": {
        "scoring": "points",
        "xuezhan": False,
        "kong_money": False,
        "chajiao": "smallest",
        "chahuazhu": False,
        "zimo_bonus": "none",
    },
}

__all__: list[Any] = ["PRESETS", "SichuanOptions"]
