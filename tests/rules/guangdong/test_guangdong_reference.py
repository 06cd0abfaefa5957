"""The fast Guangdong scorer agrees with a slow, obviously written one (§3-§11 of the rules
text taken literally: every reading from the raw tiles, the §9 order step by step) on a large
seeded sample of random winning hands with honours, melds, contexts and options.

``MJ_GD_SAMPLE`` sets the sample size (default 3000)."""

from __future__ import annotations

import os
import random
from typing import Any

from guangdong_api import score

from mjcore import Hand, MahjongError, Meld

WINDS, DRAGONS = (27, 28, 29, 30), (31, 32, 33)
ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
TABLE_ORDER = ("jihu", "pinghu", "pengpenghu", "hunyise", "qingyise", "hunpeng", "qingpeng",
               "hunyaojiu", "xiaosanyuan", "xiaosixi", "ziyise", "qingyaojiu", "dasanyuan",
               "dasixi", "jiulianbaodeng", "shisanyao", "qidui")
SPECIAL_ORDER = ("shisanyao", "jiulianbaodeng", "dasixi", "dasanyuan", "ziyise", "qingyaojiu",
                 "xiaosixi", "xiaosanyuan", "hunyaojiu", "qingpeng", "qingyise", "hunpeng",
                 "qidui")
REL = {"left": 3, "across": 2, "right": 1}
DEFAULTS: dict[str, Any] = dict(
    baohu_cap=3, min_fan=0, qidui=False, qidui_fan=4, hunyise_pinghu_stack=False, menqing_fan=0,
    tian_di_ren_he=True, multi_ron="all", sanxiang_min_winners=3,
    fan_points=[1, 2, 4, 8, 16, 32, 64], base_points=1, discard_payment="discarder_only",
    bao_shierzhang=True, bao_scope="per_feeder", bao_dasixi_dasanyuan=True)


# ------------------------------------------------------------------ the reference

def splits(counts: list[int]) -> list[list[tuple[str, int]]]:
    """Every way to split ``counts`` into sets: ('chow', lowest) or ('pung', tile)."""
    i = next((k for k, c in enumerate(counts) if c), None)
    if i is None:
        return [[]]
    out = []
    if counts[i] >= 3:
        counts[i] -= 3
        out += [[("pung", i), *rest] for rest in splits(counts)]
        counts[i] += 3
    if i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        for k in range(3):
            counts[i + k] -= 1
        out += [[("chow", i), *rest] for rest in splits(counts)]
        for k in range(3):
            counts[i + k] += 1
    return out


def all_readings(counts: list[int], melds: list[tuple[str, int]], qidui: bool) -> list[dict[str, Any]]:
    fixed = [("chow" if k == "chi" else "pung", t) for k, t in melds]
    out = []
    for pair in range(34):
        if counts[pair] >= 2:
            counts[pair] -= 2
            for sets in splits(counts):
                out.append({"shape": "standard", "sets": fixed + sets, "pair": pair})
            counts[pair] += 2
    if not melds and all(counts[t] for t in ORPHANS) and sum(counts[t] for t in ORPHANS) == 14:
        out.append({"shape": "shisanyao", "sets": [], "pair": -1})
    if qidui and not melds and sum(counts) == 14 and all(c % 2 == 0 for c in counts):
        out.append({"shape": "qidui", "sets": [], "pair": -1})
    return out


def reference(counts: list[int], melds: list[tuple[str, int]], self_drawn: bool,
              c: dict[str, Any], o: dict[str, Any]) -> dict[str, Any]:
    """What §9 says, step by step: {"patterns", "fan", "uncapped", "payments", "liable"} or
    {"error": "below_min_fan"}."""
    held = counts[:]
    for k, t in melds:
        for x in ((t, t + 1, t + 2) if k == "chi" else (t,) * (3 if k == "peng" else 4)):
            held[x] += 1
    kinds = [t for t in range(34) if held[t]]
    suits = {t // 9 for t in kinds if t < 27}
    honours = any(t >= 27 for t in kinds)
    terminal = [t for t in kinds if t < 27 and t % 9 in (0, 8)]
    cap = o["baohu_cap"]
    seat_wind = int(c["seat_wind"][0]) - 1
    round_wind = int(c["round_wind"][0]) - 1
    qiang = c.get("qiang_gang", False)
    zimo = self_drawn or qiang

    flat = next((k for k in ("tianhe", "renhe", "dihe") if c.get(k)), None)
    if flat and o["tian_di_ren_he"]:
        listed, fan = [[flat, 6]], 6
        claim = 6
        main = flat
    else:
        best = None
        for r in all_readings(counts[:], melds, o["qidui"]):
            sets, std = r["sets"], r["shape"] == "standard"
            pungs = [t for k, t in sets if k == "pung"]
            all_pung = std and all(k == "pung" for k, _ in sets)
            all_chow = std and all(k == "chow" for k, _ in sets)
            qing = len(suits) == 1 and not honours
            hun = len(suits) == 1 and honours
            wind_p = sum(1 for t in pungs if t in WINDS)
            dragon_p = sum(1 for t in pungs if t in DRAGONS)
            specials = {}
            if r["shape"] == "shisanyao":
                specials["shisanyao"] = 6
            if std and not melds and qing:
                s = next(iter(suits))
                x = counts[s * 9:s * 9 + 9]
                if x[0] >= 3 and x[8] >= 3 and all(x[1:8]):
                    specials["jiulianbaodeng"] = 6
            if wind_p == 4:
                specials["dasixi"] = 6
            if dragon_p == 3:
                specials["dasanyuan"] = 6
            if not suits:
                specials["ziyise"] = 6
            if kinds and all(t < 27 and t % 9 in (0, 8) for t in kinds):
                specials["qingyaojiu"] = 6
            if std and wind_p == 3 and r["pair"] in WINDS:
                specials["xiaosixi"] = 5
            if std and dragon_p == 2 and r["pair"] in DRAGONS:
                specials["xiaosanyuan"] = 5
            if all(t >= 27 or t % 9 in (0, 8) for t in kinds) and terminal and honours:
                specials["hunyaojiu"] = 5
            if qing and all_pung:
                specials["qingpeng"] = 5
            if qing:
                specials["qingyise"] = 4
            if hun and all_pung:
                specials["hunpeng"] = 4
            if r["shape"] == "qidui":
                specials["qidui"] = o["qidui_fan"]
            if specials:
                top = max(specials.values())
                main = next(s for s in SPECIAL_ORDER if specials.get(s) == top)
                listed, value, raw = [[main, top]], top, top
            else:
                if hun:
                    listed = [["hunyise", 2]]
                    if o["hunyise_pinghu_stack"] and all_chow:
                        listed.append(["pinghu", 1])
                elif all_pung:
                    listed = [["pengpenghu", 2]]
                elif all_chow:
                    listed = [["pinghu", 1]]
                else:
                    listed = [["jihu", 0]]
                main = listed[0][0]
                if zimo:
                    listed.append(["zimo", 1])
                if 27 + seat_wind in pungs:
                    listed.append(["menfeng", 1])
                if 27 + round_wind in pungs:
                    listed.append(["quanfeng", 1])
                if dragon_p:
                    listed.append(["sanyuanpai", dragon_p])
                if o["menqing_fan"] and all(k == "angang" for k, _ in melds):
                    listed.append(["menqing", o["menqing_fan"]])
                raw = sum(f for _, f in listed)
                value = min(raw, cap)
            rank = (value, raw, -TABLE_ORDER.index(main))
            if best is None or rank > best[0]:
                best = (rank, listed, value, main)
        assert best is not None, "the generator makes winning hands"
        _, listed, value, main = best
        floors = []
        if c.get("winners_on_discard", 1) >= o["sanxiang_min_winners"]:
            floors.append("yipaosanxiang")
        if c.get("gang_shang_kai_hua") and "gang_fed_by" not in c:
            floors.append("gangshangkaihua")
        if c.get("gang_shang_kai_hua") and "gang_fed_by" in c:
            floors.append("gangshangkaihua_baogang")
        if c.get("hai_di_lao_yue") and self_drawn:
            floors.append("haidilaoyue")
        if qiang:
            floors.append("qianggang")
        fan = max(value, cap) if floors else value
        claim = max(value, cap) if [f for f in floors if f != "yipaosanxiang"] else value
        listed = listed + [[f, 0] for f in floors]
    if claim < o["min_fan"]:
        return {"error": "below_min_fan"}
    p = o["base_points"] * o["fan_points"][fan]
    w = c.get("winner", 0)

    def seat(rel: str) -> int:
        return (w + REL[rel]) % 4

    liable, payer = "", -1
    if qiang:
        liable, payer = "qianggang", seat(c["robbed"])
    elif self_drawn and c.get("gang_fed_by"):
        liable, payer = "gangshangkaihua_baogang", seat(c["gang_fed_by"])
    elif self_drawn and melds and not (flat and o["tian_di_ren_he"]):
        options = []
        for id_, tiles in (("dasixi", WINDS), ("dasanyuan", DRAGONS)):
            idx = [i for i, (k, t) in enumerate(melds) if k != "chi" and t in tiles]
            if o["bao_dasixi_dasanyuan"] and main == id_ and len(idx) == len(tiles) and all(
                    melds[i][0] != "angang" for i in idx):
                options.append((idx[-1], 0, id_))
        if (o["bao_shierzhang"] and not c.get("bao_exempt") and len(melds) == 4
                and all(k != "angang" for k, _ in melds)):
            options.append((3, 1, "shierzhang_luodi"))
        if options:
            i, _, liable = min(options)
            payer = seat(c["meld_from"][i])
    if liable:
        payments = [(payer, w, 3 * p)]
    elif zimo:
        payments = [(s, w, p) for s in range(4) if s != w]
    else:
        three = o["discard_payment"] == "discarder_pays_three"
        payments = [(seat(c["discarder"]), w, 3 * p if three else p)]
    return {"patterns": listed, "fan": fan, "uncapped": sum(f for _, f in listed),
            "payments": payments, "liable": liable}


# ------------------------------------------------------------------ random winning hands

def random_win(rng: random.Random) -> tuple[list[int], list[tuple[str, int]], int]:
    """counts (concealed, incl. the winning tile), melds (kind, tile) and the winning tile."""
    while True:
        counts = [0] * 34
        roll = rng.random()
        if roll < 0.03:
            for t in ORPHANS:
                counts[t] += 1
            counts[rng.choice(ORPHANS)] += 1
            melds: list[tuple[str, int]] = []
        elif roll < 0.10:
            pool = rng.sample(range(34), 6)
            for _ in range(7):
                counts[rng.choice(pool)] += 2
            melds = []
        else:
            # few kinds make the rarer patterns show up: one or two suits, some honours
            suits = rng.sample((0, 1, 2), rng.choice((1, 1, 2, 3)))
            hon = rng.random() < 0.6
            melds = []
            n_melds = rng.choice((0, 0, 1, 2, 3, 4))
            for k in range(4):
                if hon and rng.random() < 0.35:
                    t, chow = 27 + rng.randrange(7), False
                else:
                    s = rng.choice(suits)
                    chow = rng.random() < 0.5
                    t = s * 9 + (rng.randrange(7) if chow else rng.choice(
                        (0, 8, rng.randrange(9))))
                if k < n_melds:
                    kind = "chi" if chow else rng.choice(("peng", "peng", "gang", "angang",
                                                          "bugang"))
                    melds.append((kind, t))
                elif chow:
                    for x in range(3):
                        counts[t + x] += 1
                else:
                    counts[t] += 3
            pair = 27 + rng.randrange(7) if hon and rng.random() < 0.4 else \
                rng.choice(suits) * 9 + rng.randrange(9)
            counts[pair] += 2
        held = counts[:]
        for k, t in melds:
            for x in ((t, t + 1, t + 2) if k == "chi" else (t,) * (3 if k == "peng" else 4)):
                held[x] += 1
        if max(held) <= 4:
            return counts, melds, rng.choice([t for t in range(34) if counts[t]])


def random_context(rng: random.Random, melds: list[tuple[str, int]], held_win: int,
                   ) -> tuple[bool, dict[str, Any]]:
    c: dict[str, Any] = {"seat_wind": f"{rng.randrange(4) + 1}z",
                         "round_wind": f"{rng.randrange(4) + 1}z", "winner": rng.randrange(4)}
    if melds or rng.random() < 0.5:
        c["meld_from"] = [None if k == "angang" else "left" if k == "chi"
                          else rng.choice(("left", "across", "right")) for k, _ in melds]
    kongs = {k for k, _ in melds if k in ("gang", "angang", "bugang")}
    self_drawn = rng.random() < 0.5
    seat_wind = int(c["seat_wind"][0]) - 1
    if self_drawn:
        if kongs and rng.random() < 0.4:
            c["gang_shang_kai_hua"] = True
            gangs = [i for i, (k, _) in enumerate(melds) if k == "gang"]
            if gangs and (not kongs - {"gang"} or rng.random() < 0.5):
                c["gang_fed_by"] = c["meld_from"][gangs[0]] if "meld_from" in c else "left"
        if rng.random() < 0.1:
            c["hai_di_lao_yue"] = True
        if not melds and rng.random() < 0.1:
            c["tianhe" if seat_wind == 0 else "dihe"] = True
        if rng.random() < 0.2:
            c["bao_exempt"] = True
    elif held_win == 1 and rng.random() < 0.15:
        c["qiang_gang"] = True
        c["robbed"] = rng.choice(("left", "across", "right"))
    else:
        c["discarder"] = rng.choice(("left", "across", "right"))
        if rng.random() < 0.2:
            c["winners_on_discard"] = rng.choice((2, 3))
        if rng.random() < 0.05:
            c["hai_di_lao_yue"] = True
        if not melds and seat_wind and rng.random() < 0.1:
            c["renhe"] = True
            c["discarder"] = ("", "left", "across", "right")[seat_wind]
    return self_drawn, c


def random_options(rng: random.Random) -> dict[str, Any]:
    o: dict[str, Any] = {}
    if rng.random() < 0.5:
        return o
    for name, values in (("baohu_cap", (2, 3, 4)), ("min_fan", (0, 0, 1, 3)),
                         ("qidui", (True, False)), ("qidui_fan", (4, 5, 6)),
                         ("hunyise_pinghu_stack", (True, False)), ("menqing_fan", (0, 1)),
                         ("tian_di_ren_he", (True, False)), ("sanxiang_min_winners", (2, 3)),
                         ("discard_payment", ("discarder_only", "discarder_pays_three")),
                         ("bao_shierzhang", (True, False)), ("base_points", (1, 5)),
                         ("bao_dasixi_dasanyuan", (True, False))):
        if rng.random() < 0.4:
            o[name] = rng.choice(values)
    return o


def test_fast_scorer_matches_reference() -> None:
    rng = random.Random(2026)
    n = int(os.environ.get("MJ_GD_SAMPLE", "3000"))
    seen: dict[str, int] = {}
    for _ in range(n):
        counts, melds, win = random_win(rng)
        hand = Hand(counts, [Meld.of(k, (t, t + 1, t + 2) if k == "chi" else
                                     (t,) * (3 if k == "peng" else 4)) for k, t in melds])
        self_drawn, c = random_context(rng, melds, hand.held[win])
        opts = random_options(rng)
        o = {**DEFAULTS, **opts}
        if not o["qidui"] and not melds and all(x % 2 == 0 for x in counts) and not any(
                all_readings(counts[:], melds, False)):
            continue  # 七对 only: not a win without the option (tested elsewhere)
        expected = reference(counts, melds, self_drawn, c, o)
        try:
            r = score(hand, win_tile=win, self_drawn=self_drawn, context=c, options=opts)
        except MahjongError as exc:
            assert exc.code == expected.get("error"), (hand, win, self_drawn, c, opts, exc)
            seen["error"] = seen.get("error", 0) + 1
            continue
        assert "error" not in expected, (hand, c, opts, expected)
        got = {"patterns": [[p.id, p.fan] for p in r.patterns], "fan": r.fan,
               "uncapped": r.fan_uncapped, "payments": sorted(r.payments), "liable": r.liable}
        expected["payments"] = sorted(expected["payments"])
        assert got == expected, (hand.to_text(), win, self_drawn, c, opts)
        assert r.multiplier == o["base_points"] * o["fan_points"][r.fan]
        seen[r.patterns[0].id] = seen.get(r.patterns[0].id, 0) + 1
        if r.liable:
            seen[r.liable] = seen.get(r.liable, 0) + 1
    # the sample reaches the table's corners, not only 鸡胡
    if n >= 3000:
        for id_ in ("jihu", "pinghu", "pengpenghu", "hunyise", "qingyise", "hunpeng", "qingpeng",
                    "hunyaojiu", "xiaosanyuan", "dasanyuan", "ziyise", "shisanyao", "qidui",
                    "shierzhang_luodi", "qianggang"):
            assert seen.get(id_, 0) > 0, (id_, seen)
