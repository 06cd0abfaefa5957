"""Guangdong's options, each declared once (docs/rulesets/guangdong.md §12), and its presets."""

from __future__ import annotations

from dataclasses import dataclass

from mjcore.rules.common.options import Options, OptionValue, option


@dataclass(frozen=True, eq=False)
class GuangdongOptions(Options):
    """Resolved, validated options (one object per distinct input; identity-hashed)."""

    baohu_cap: int = option(3, "爆胡 cap of an inside pattern plus extras, and the value the "
                            "floors (保底) raise to", minimum=1, maximum=6)
    min_fan: int = option(0, "起胡: the lowest total (without the 一炮三响 floor) that may win",
                          minimum=0, maximum=6)
    qidui: bool = option(False, "七对 is a winning shape, scored as the special qidui")
    qidui_fan: int = option(4, "value of the special 七对", choices=(4, 5, 6))
    hunyise_pinghu_stack: bool = option(False, "an all-sequence 混一色 also counts 平胡")
    menqing_fan: int = option(0, "门清 extra (0 = off)", choices=(0, 1))
    tian_di_ren_he: bool = option(True, "天和/人和/地和 are worth 6, flat")
    multi_ron: str = option("all", "who wins when several seats claim one discard: all, or the "
                            "first in turn order after the discarder", choices=("all", "first_only"))
    sanxiang_min_winners: int = option(3, "winners on one discard needed for the 一炮三响 floor",
                                       choices=(2, 3))
    fan_points: tuple[int, ...] = option((1, 2, 4, 8, 16, 32, 64), "points for a total of 0..6 "
                                         "fan (seven non-decreasing integers)", length=7,
                                         nondecreasing=True, minimum=0, maximum=1_000_000)
    base_points: int = option(1, "multiplies fan_points", minimum=1, maximum=1_000_000)
    discard_payment: str = option("discarder_only", "what a discarder pays: the winner's points "
                                  "(discarder_only) or three times them (discarder_pays_three)",
                                  choices=("discarder_only", "discarder_pays_three"))
    bao_shierzhang: bool = option(True, "十二张落地 包自摸: the feeder of the fourth exposed meld "
                                  "pays for all on a self-drawn win")
    bao_scope: str = option("per_feeder", "how 包先不包后 limits 十二张落地 (the table applies it "
                            "when it sets bao_exempt)", choices=("per_feeder", "per_hand"))
    bao_dasixi_dasanyuan: bool = option(True, "大四喜/大三元 包自摸: the feeder of the last wind/"
                                        "dragon pung pays for all on a self-drawn win")


PRESETS: dict[str, dict[str, OptionValue]] = {
    "jipinghu": {},  # the defaults: 鸡平胡 with the 3-fan 爆胡 cap
}
