"""Wuhan's options, each declared once (docs/rulesets/wuhan.md, Options), and its presets."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from mjcore.rules.common.options import Options, OptionValue, option


@dataclass(frozen=True, eq=False)
class WuhanOptions(Options):
    """Resolved, validated options (one object per distinct input; identity-hashed)."""

    pizi: str = option("hongzhong", "痞子: hongzhong = 红中 only (四痞四赖); hongzhong_facai = 红中 "
                       "and 发财 (八痞四赖)", choices=("hongzhong", "hongzhong_facai"))
    base_xiaohu: int = option(1, "H of a 小胡 (屁胡)", minimum=1, maximum=1_000_000)
    base_dahu: int = option(10, "H of each 大胡 (they add up)", minimum=1, maximum=1_000_000)
    factors: bool = option(True, "doublings: 开口 ×2, gang/bugang ×2, angang ×4, 痞子杠 ×2, "
                           "赖子杠 ×4, for the winner and for each payer (false: every F is 1)")
    yinghu_factor: int = option(2, "W is multiplied by this for a 硬胡", choices=(1, 2))
    gangshanghua_as: str = option("dahu", "杠上花: dahu = a 大胡; factor = not a 大胡 but ×2 on W",
                                  choices=("dahu", "factor"))
    must_open: bool = option(True, "开口: a win needs a chi, peng, gang or bugang first")
    xiaohu_max_laizi: int = option(1, "most 赖子 a 小胡 may use as wilds", minimum=0, maximum=4)
    situational_any_pair: bool = option(False, "海底捞, 杠上花, 抢杠 and 全求人 take any pair")
    quanqiuren_self_draw: bool = option(False, "全求人 may also be self-drawn")
    yise_any_shape: bool = option(False, "风一色 and 将一色 win with any 14 tiles of the kind "
                                  "(no sets needed)")
    qidui: bool = option(False, "七对 wins (赖子 as wilds) and is one 大胡")
    dahu_discard_all_pay: bool = option(False, "a 大胡 on a discard is paid by all three: the "
                                        "discarder its amount, the others peichong_ratio of theirs")
    peichong_ratio: Fraction = option(Fraction(1, 2), "陪冲: the share of their amount the two "
                                      "others pay with dahu_discard_all_pay (rounded down)",
                                      maximum=1)
    min_points: int = option(0, "起胡: a win whose base × H × W is below this is refused",
                             minimum=0, maximum=1_000_000)
    cap_points: int | None = option(None, "金顶: most any one payer pays (none = no cap)",
                                    minimum=1, maximum=1_000_000_000, none_allowed=True)
    base_points: int = option(1, "stake: each amount is base_points × H × W × F(payer)",
                              minimum=1, maximum=1_000_000)
    # derived once per options object
    pizi_kinds: frozenset[int] = field(init=False, default=frozenset())

    def __post_init__(self) -> None:
        # 红中 is 7z (id 33), 发财 6z (id 32)
        kinds = frozenset({33} if self.pizi == "hongzhong" else {32, 33})
        object.__setattr__(self, "pizi_kinds", kinds)


PRESETS: dict[str, dict[str, OptionValue]] = {
    "sipi_silai": {},  # 四痞四赖: the defaults
    "bapi_silai": {"pizi": "hongzhong_facai"},  # 八痞四赖: 红中 and 发财 are 痞子
}
