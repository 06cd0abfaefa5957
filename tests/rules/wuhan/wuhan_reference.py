"""A slow, obviously correct Wuhan scorer written from wuhan.md alone, sharing no code with the
engine: every 赖子 is tried as each of the 34 kinds (as a multiset: the 赖子 are alike), each
resulting hand is split every way into sets and a pair by plain recursion, and the wuhan.md
§5-§7 rules are applied to each split. It answers the hand base H, the winner factor W, the
pattern ids, or ``None`` for no win.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import lru_cache
from typing import Any

ORDER = ("pengpenghu", "quanqiuren", "fengyise", "jiangyise", "qingyise", "haidilao",
         "gangshanghua", "qianggang", "qidui")  # §5's order, 七对 last
OPEN = ("chi", "peng", "gang", "bugang")


def is258(t: int) -> bool:
    return t < 27 and t % 9 in (1, 4, 7)


@lru_cache(maxsize=200_000)
def splits(v: tuple[int, ...], suit: int) -> frozenset[tuple[int, bool]]:
    """Every way to split one suit's (or the honours') counts ``v`` into sets and at most one
    pair: ``(pair, all pungs)`` with pair -1 (none) or its tile id."""
    i = next((k for k, c in enumerate(v) if c), -1)
    if i < 0:
        return frozenset({(-1, True)})
    tile = suit * 9 + i
    out: set[tuple[int, bool]] = set()

    def less(*ks: int) -> tuple[int, ...]:
        w = list(v)
        for k in ks:
            w[k] -= 1
        return tuple(w)

    if v[i] >= 3:
        out |= splits(less(i, i, i), suit)
    if suit < 3 and i <= 6 and v[i + 1] and v[i + 2]:
        out |= {(p, False) for p, _ in splits(less(i, i + 1, i + 2), suit)}
    if v[i] >= 2:
        out |= {(tile, pg) for p, pg in splits(less(i, i), suit) if p < 0}
    return frozenset(out)


def standard(counts: list[int]) -> set[tuple[int, bool]]:
    """(pair tile, all pungs) of every split of 34 counts into sets and exactly one pair."""
    groups = [splits(tuple(counts[s * 9:s * 9 + 9]), s) for s in range(3)]
    groups.append(splits(tuple(counts[27:34]), 3))
    out = set()
    for combo in itertools.product(*groups):
        pairs = [p for p, _ in combo if p >= 0]
        if len(pairs) == 1:
            out.add((pairs[0], all(pg for _, pg in combo)))
    return out


def factor(melds: list[tuple[str, int]], factors: bool) -> int:
    if not factors:
        return 1
    f = 2 if any(k in OPEN for k, _ in melds) else 1
    for k, _ in melds:
        f *= {"gang": 2, "bugang": 2, "pizigang": 2, "angang": 4, "laizigang": 4}.get(k, 1)
    return f


def reference(counts: list[int], melds: list[tuple[str, int]], laizi: int, self_drawn: bool,
              ctx: dict[str, Any], opt: dict[str, Any]) -> tuple[int, int, list[str]] | None:
    """(H, W, pattern ids) of the best reading, or None when the hand does not win.

    ``counts``: the concealed tiles (34 counts, 赖子 included); ``melds``: (kind, tile) with
    a chi named by its first tile; ``ctx``: discarder/robbed (relative seat or None),
    gang_shang_hua, hai_di; ``opt``: option values (missing ones at their defaults)."""
    o = {"factors": True, "yinghu_factor": 2, "gangshanghua_as": "dahu", "xiaohu_max_laizi": 1,
         "situational_any_pair": False, "quanqiuren_self_draw": False, "yise_any_shape": False,
         "qidui": False, "base_xiaohu": 1, "base_dahu": 10, **opt}
    sets = [(k, t) for k, t in melds if k not in ("pizigang", "laizigang")]
    meld_tiles = [0] * 34
    for k, t in sets:
        for x in ((t, t + 1, t + 2) if k == "chi" else (t,) * 3):
            meld_tiles[x] += 1
    wilds = counts[laizi]
    naturals = list(counts)
    naturals[laizi] = 0
    quanqiu = len(sets) == 4 and all(k in OPEN for k, _ in sets)
    discard = ctx.get("discarder") is not None
    robbed = ctx.get("robbed") is not None
    gsh, haidi = bool(ctx.get("gang_shang_hua")), bool(ctx.get("hai_di"))
    fw = factor(melds, o["factors"])
    best: tuple[Any, ...] | None = None
    for stood in itertools.combinations_with_replacement(range(34), wilds):
        c = list(naturals)
        for k in stood:
            c[k] += 1
        used = sum(1 for k in stood if k != laizi)
        # readings: (shape, pair tile or -1, all pungs)
        found: list[tuple[str, int, bool]] = [
            ("standard", p, pg and all(k != "chi" for k, _ in sets)) for p, pg in standard(c)]
        if o["qidui"] and not sets and all(x % 2 == 0 for x in c):
            found.append(("qidui", -1, False))
        if not found and not o["yise_any_shape"]:
            continue
        tiles = [c[t] + meld_tiles[t] for t in range(34)]
        kinds = [t for t in range(34) if tiles[t]]
        suits = {t // 9 for t in kinds}
        qing = all(t < 27 for t in kinds) and len(suits) == 1
        feng = all(t >= 27 for t in kinds)
        jiang = all(is258(t) for t in kinds)
        if o["yise_any_shape"] and (feng or jiang):
            found.append(("yise", -1, False))
        for shape, pair, pungs in found:
            qing_here = qing
            pair258 = pair >= 0 and is258(pair)
            free = (shape == "standard" and pungs) or qing_here or feng or jiang or shape == "qidui"
            pair_ok = pair258 or o["situational_any_pair"] or free
            dahu = []
            if shape == "standard" and pungs:
                dahu.append("pengpenghu")
            if quanqiu and (discard or (self_drawn and o["quanqiuren_self_draw"])) and pair_ok:
                dahu.append("quanqiuren")
            if feng:
                dahu.append("fengyise")
            if jiang:
                dahu.append("jiangyise")
            if qing_here:
                dahu.append("qingyise")
            if haidi and pair_ok:
                dahu.append("haidilao")
            if gsh and o["gangshanghua_as"] == "dahu" and pair_ok:
                dahu.append("gangshanghua")
            if robbed and pair_ok:
                dahu.append("qianggang")
            if shape == "qidui":
                dahu.append("qidui")
            if dahu:
                h = o["base_dahu"] * len(dahu)
                ids = list(dahu)
            elif shape == "standard" and pair258 and used <= o["xiaohu_max_laizi"]:
                h, ids = o["base_xiaohu"], ["xiaohu"]
            else:
                continue
            w = fw
            if gsh and o["gangshanghua_as"] == "factor":
                w *= 2
                ids.append("gangshanghua")
            if used:
                ids.append("ruanhu")
            else:
                w *= o["yinghu_factor"]
                ids.append("yinghu")
            order = tuple(-ORDER.index(x) for x in sorted(dahu, key=ORDER.index))
            key = (h * w, not used, len(dahu), order)
            if best is None or key > best[0]:
                best = (key, h, w, ids)
    if best is None:
        return None
    return best[1], best[2], best[3]


def reference_payments(h: int, w: int, ids: list[str], self_drawn: bool, ctx: dict[str, Any],
                       payer_melds: dict[str, list[tuple[str, int]]],
                       meld_from: list[str | None] | None, opt: dict[str, Any]
                       ) -> tuple[dict[str, int], str]:
    """wuhan.md §6 and §11: what each relative seat pays, and the liability's name."""
    o = {"factors": True, "base_points": 1, "cap_points": None, "dahu_discard_all_pay": False,
         "peichong_ratio": "1/2", **opt}
    owe = {}
    for seat in ("left", "across", "right"):
        a = o["base_points"] * h * w * factor(payer_melds.get(seat, []), o["factors"])
        owe[seat] = a if o["cap_points"] is None else min(a, o["cap_points"])
    liable, who = "", None
    if ctx.get("robbed"):
        liable, who = "qianggang", ctx["robbed"]
    elif "quanqiuren" in ids and ctx.get("discarder"):
        liable, who = "quanqiuren", ctx["discarder"]
    elif ("qingyise" in ids or "jiangyise" in ids) and meld_from:
        for seat in ("left", "across", "right"):
            if meld_from.count(seat) >= 3:
                liable, who = "fangsanpu", seat
    if who is not None:
        return {who: sum(owe.values())}, liable
    if self_drawn:
        return owe, ""
    out = {ctx["discarder"]: owe[ctx["discarder"]]}
    if o["dahu_discard_all_pay"] and "xiaohu" not in ids:
        for seat, a in owe.items():
            share = int(a * Fraction(o["peichong_ratio"]))  # rounded down
            if seat not in out and share:
                out[seat] = share
    return out, ""
