"""Hangzhou's options, each declared once (the spec's §10; docs/rulesets/hangzhou.md), and
its presets."""

from __future__ import annotations

from dataclasses import dataclass

from mjcore.rules.common.options import Options, OptionValue, option


@dataclass(frozen=True, eq=False)
class HangzhouOptions(Options):
    """Resolved, validated options (one object per distinct input; identity-hashed)."""

    caishen_mode: str = option(
        "flip", "how the 财神 is chosen: flip = the turned-up kind T is wild and every 白板 plays "
        "as a natural T; baiban = the four 白板 are the wilds", choices=("flip", "baiban"))
    caishen_from_indicator: str = option(
        "same", "flip mode, when the context gives the turned-up indicator: same = its own kind "
        "is the 财神, next = the next kind (1→2…9→1; 东→南→西→北→中→发→白→东)",
        choices=("same", "next"))
    wild_copy_limit: bool = option(False, "a wild may not stand for a fifth copy of a kind")
    wild_in_melds: bool = option(False, "wilds may complete chi/peng/kong melds (and four wilds "
                                 "may be konged)")
    wild_discard_claimable: bool = option(False, "a discarded wild may be claimed (chi, peng, "
                                          "kong or a win)")
    baotou_wilds_in_sets: bool = option(True, "the four sets of an 爆头 may contain wilds (false: "
                                        "no wild besides the one in the pair)")
    piao_max: int = option(3, "most consecutive 飘 that double", choices=(1, 2, 3))
    qidui_baotou: bool = option(False, "爆头 and 飘 also on 七对 (the drawn tile pairs with a "
                                "wild)")
    haohua_with_wild: bool = option(False, "a wild may complete a 豪华 group of four")
    fangchong_min_streak: int = option(2, "dealer streak (连庄 count) from which discard wins "
                                       "(放冲) are legal", minimum=0, maximum=1000)
    louhu_scope: str = option("until_next_draw", "how long 漏胡 lasts: until the player's next "
                              "draw, or the whole hand", choices=("until_next_draw", "whole_hand"))
    piao_lock: bool = option(True, "财飘 lock: after a 飘 no discard may be claimed until the 飘 "
                             "player's next draw")
    chengbao_threshold: int = option(3, "chi/peng claims on one player's discards that make him "
                                     "liable for a self-drawn win (承包); 0 = off",
                                     minimum=0, maximum=16)
    chengbao_counts_gang: bool = option(False, "a 直杠 on a player's discard counts as a claim for "
                                        "承包")
    discard_payment: str = option("discarder_only", "a discard win: the discarder pays P "
                                  "(discarder_only) or 3P (discarder_pays_three)",
                                  choices=("discarder_only", "discarder_pays_three"))
    max_multiplier: int | None = option(None, "cap on the multiplier M (a power of two; none = no "
                                        "cap)", choices=tuple(1 << k for k in range(31)),
                                        none_allowed=True)  # the spec: any power of two
    base_points: int = option(1, "stake per ×1", minimum=1, maximum=1_000_000)


PRESETS: dict[str, dict[str, OptionValue]] = {
    # the seed as written (the defaults)
    "hangzhou": {},
    # the 白板 are the 财神 and the multiplier is capped at ×16, as many tables play it
    "baiban_capped": {"caishen_mode": "baiban", "max_multiplier": 16},
}

__all__ = ["PRESETS", "HangzhouOptions"]
