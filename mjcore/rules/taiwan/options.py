"""Taiwan's options, each declared once (docs/rulesets/taiwan.md, taiwan.md §11), and its
presets (§12)."""

from __future__ import annotations

from dataclasses import dataclass

from mjcore.rules.common.options import Options, OptionValue, option


@dataclass(frozen=True, eq=False)
class TaiwanOptions(Options):
    """Resolved, validated options (one object per distinct input; identity-hashed)."""

    di: int = option(30, "底: the fixed part of each payment", minimum=0, maximum=1_000_000)
    tai_value: int = option(10, "台錢: paid per 台 (and per dealer 台)", minimum=1,
                            maximum=1_000_000)
    lazhuang: bool = option(True, "拉莊: dealer 台 = 2n + 1 after n kept deals (false: 1 + n)")
    menqing_zimo_tai: int = option(3, "門清自摸 (2 = no bonus over 門清 + 自摸)", choices=(2, 3))
    pinghu_tai: int = option(2, "平胡 (0 = off)", choices=(0, 1, 2))
    quanqiuren_tai: int = option(2, "全求人 (0 = off)", choices=(0, 2))
    quanqiu_plus_duting: bool = option(False, "全求人 also counts 獨聽")
    banqiu: bool = option(False, "半求 1: the 全求人 holding won self-drawn")
    duting: str = option("one_kind", "獨聽: one_kind = the 16-tile hand waits on one kind only "
                         "(north); shape = the win completes the pair, a closed or an edge wait "
                         "(south)", choices=("one_kind", "shape"))
    ziyise_tai: int = option(16, "字一色", choices=(8, 16))
    dasixi_tai: int = option(16, "大四喜", choices=(8, 16))
    xiaosixi_tai: int = option(8, "小四喜", choices=(4, 8))
    tiandihu_flat: bool = option(True, "天胡/地胡/人胡 are worth their value alone (false: plus "
                                 "every pattern but the win-method ones)")
    tianhu_tai: int = option(24, "天胡", minimum=0, maximum=1000)
    dihu_tai: int = option(16, "地胡", minimum=0, maximum=1000)
    renhu_tai: int = option(8, "人胡", minimum=0, maximum=1000)
    tianting_diting: bool = option(True, "the 天聽/地聽 context flags count")
    flowers_in_play: bool = option(True, "144 tiles with the 8 flowers (false: 136, no flower 台)")
    flower_wins: bool = option(True, "八仙過海 / 七搶一 end the hand as flower wins")
    flower_win_tai: int = option(8, "value of 八仙過海 and 七搶一", minimum=0, maximum=1000)
    huagang_replaces_zhenghua: bool = option(True, "a complete flower set's 花槓 2 replaces the "
                                             "正花 inside it")
    gangshang_minggang: bool = option(True, "槓上開花 also after a 明槓 (gang) on a discard")
    ligu: bool = option(False, "嚦咕嚦咕 (seven pairs and a pung) is a winning shape")
    ligu_tai: int = option(8, "嚦咕嚦咕", minimum=0, maximum=1000)
    min_tai: int = option(0, "起胡: the lowest raw 台 that may win", minimum=0, maximum=1000)
    cap_tai: int | None = option(None, "limit on 台 (none = no limit); dealer 台 come on top",
                                 minimum=0, maximum=1000, none_allowed=True)
    # shapes.md §6 play-mode options: accepted, they do not change a score
    multi_ron: str = option("first_only", "who wins when several claim one discard: the first "
                            "in turn order after the discarder, or all",
                            choices=("first_only", "all"))
    ting_declaration: bool = option(True, "聽 may be declared (the hand is then locked)")
    draw_keeps_dealer: bool = option(True, "a drawn hand (流局) keeps the dealer (連莊)")


PRESETS: dict[str, dict[str, OptionValue]] = {
    "taiwan": {},
    "taiwan_association": {"banqiu": True, "gangshang_minggang": False},
    "taiwan_2005": {"dasixi_tai": 8, "xiaosixi_tai": 4},
    "taiwan_south": {"duting": "shape", "flowers_in_play": False},
}

__all__ = ["PRESETS", "TaiwanOptions"]
