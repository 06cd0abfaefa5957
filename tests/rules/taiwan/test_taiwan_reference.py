"""The Taiwan scorer agrees with a slow, obviously-written one on a seeded sample of random
winning hands, contexts and options (``MJ_TW_SAMPLE`` sets the sample size).

The reference is written from taiwan.md alone: its own split search (no core), its own waits
(every tile tried), each pattern of §4 spelled out with the exclusions of §5, the reading
chosen by §9 step 6, and §8/§10's payments."""

from __future__ import annotations

import os
import random
from typing import Any

from taiwan_api import report

from mjcore import Hand, MahjongError, Meld

SAMPLE = int(os.environ.get("MJ_TW_SAMPLE", "400"))
ORDER = ("tianhu dihu renhu baxian qiqiangyi menqing_zimo menqing zimo quanqiuren banqiu "
         "tianting diting duting pinghu pengpenghu wuanke sianke sananke ligu ziyise qingyise "
         "hunyise dasixi xiaosixi dasanyuan xiaosanyuan menfeng quanfeng sanyuanpai huagang "
         "zhenghua haidilaoyue hedilaoyu gangshangkaihua qiangganghu").split()
DEFAULTS: dict[str, Any] = {
    "di": 30, "tai_value": 10, "lazhuang": True, "menqing_zimo_tai": 3, "pinghu_tai": 2,
    "quanqiuren_tai": 2, "quanqiu_plus_duting": False, "banqiu": False, "duting": "one_kind",
    "ziyise_tai": 16, "dasixi_tai": 16, "xiaosixi_tai": 8, "tiandihu_flat": True,
    "tianhu_tai": 24, "dihu_tai": 16, "renhu_tai": 8, "tianting_diting": True,
    "flowers_in_play": True, "flower_wins": True, "flower_win_tai": 8,
    "huagang_replaces_zhenghua": True, "gangshang_minggang": True, "ligu": False, "ligu_tai": 8,
    "min_tai": 0, "cap_tai": None,
}
SEATS = ("self", "right", "across", "left")


def splits(counts: list[int]) -> list[list[tuple[str, int]]]:
    """Every way to split ``counts`` into sets: ('chow', first tile) or ('pung', tile)."""
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


def ligu_pung(counts: list[int]) -> int | None:
    odd = [t for t in range(34) if counts[t] % 2]
    if sum(counts) == 17 and len(odd) == 1 and counts[odd[0]] == 3:
        return odd[0]
    return None


def shapes(counts: list[int], melds: tuple[Meld, ...], ligu: bool) -> list[Any]:
    """(concealed sets, pair or None, ligu pung or None) of every split of §3."""
    out: list[Any] = []
    for pair in range(34):
        if counts[pair] >= 2:
            counts[pair] -= 2
            out += [(sets, pair, None) for sets in splits(counts)]
            counts[pair] += 2
    if ligu and not melds:
        pung = ligu_pung(counts)
        if pung is not None:
            out.append(([("pung", pung)], None, pung))
    return out


def waits(counts16: list[int], melds: tuple[Meld, ...], ligu: bool) -> list[int]:
    held = list(counts16)
    for m in melds:
        for t in m.tiles:
            held[t] += 1
    out = []
    for t in range(34):
        if held[t] < 4:
            counts16[t] += 1
            if shapes(counts16, melds, ligu):
                out.append(t)
            counts16[t] -= 1
    return out


def reading_patterns(sets: list[tuple[str, int]], pair: int | None, ligu_tile: int | None,
                     slot: int, hand: Hand, win: int, sd: bool, ctx: dict[str, Any],
                     o: dict[str, Any], wait_list: list[int]) -> dict[str, int]:
    melds = hand.melds
    held = hand.all_counts()
    closed = all(m.kind == "angang" for m in melds)
    ting = ctx.get("ting") if o["tianting_diting"] else None
    p: dict[str, int] = {}
    if closed and sd and not ting:
        p["menqing_zimo"] = o["menqing_zimo_tai"]
    if closed and not sd and not ting:
        p["menqing"] = 1
    if sd and "menqing_zimo" not in p:
        p["zimo"] = 1
    called = len(melds) == 5 and all(m.kind != "angang" for m in melds)
    if called and not sd and o["quanqiuren_tai"]:
        p["quanqiuren"] = o["quanqiuren_tai"]
    if called and sd and o["banqiu"]:
        p["banqiu"] = 1
    if ting == "tian":
        p["tianting"] = 8
    if ting == "di":
        p["diting"] = 4
    # the slot: "pair" or the concealed set
    kind, start = ("pair", pair) if slot < 0 else sets[slot]
    if o["duting"] == "one_kind":
        duting = len(wait_list) == 1
    else:
        duting = kind == "pair" or (kind == "chow" and (
            win == start + 1 or (win == start + 2 and start % 9 == 0)
            or (win == start and start % 9 == 6)))
    if duting and not ("quanqiuren" in p and not o["quanqiu_plus_duting"]):
        p["duting"] = 1
    all_sets = [("chow" if m.kind == "chi" else "pung", m.tiles[0]) for m in melds] + sets
    two_sided = kind == "chow" and ((win == start and start % 9 <= 5)
                                    or (win == start + 2 and start % 9 >= 1))
    honours = any(held[27:])
    if (ligu_tile is None and all(k == "chow" for k, _ in all_sets) and not honours
            and not ctx.get("flowers") and not sd and two_sided and o["pinghu_tai"]):
        p["pinghu"] = o["pinghu_tai"]
        p.pop("duting", None)
    if ligu_tile is None and all(k == "pung" for k, _ in all_sets):
        p["pengpenghu"] = 4
    anke = sum(1 for k, _ in sets if k == "pung") + sum(1 for m in melds if m.kind == "angang")
    if not sd and kind == "pung":
        anke -= 1
    if anke >= 5:
        p["wuanke"] = 8
    elif anke == 4:
        p["sianke"] = 5
    elif anke == 3:
        p["sananke"] = 2
    if ligu_tile is not None:
        p["ligu"] = o["ligu_tai"]
    suits = {t // 9 for t in range(27) if held[t]}
    if not suits:
        p["ziyise"] = o["ziyise_tai"]
    elif len(suits) == 1 and not honours:
        p["qingyise"] = 8
    elif len(suits) == 1:
        p["hunyise"] = 4
    pungs = [t for k, t in all_sets if k == "pung"]
    wind_pungs = [t for t in pungs if 27 <= t <= 30]
    dragon_pungs = [t for t in pungs if t >= 31]
    seat, rnd = 26 + int(ctx["seat_wind"][0]), 26 + int(ctx["round_wind"][0])
    if len(wind_pungs) == 4:
        p["dasixi"] = o["dasixi_tai"]
    elif len(wind_pungs) == 3 and pair is not None and 27 <= pair <= 30:
        p["xiaosixi"] = o["xiaosixi_tai"]
    else:
        if seat in wind_pungs:
            p["menfeng"] = 1
        if rnd in wind_pungs:
            p["quanfeng"] = 1
    if len(dragon_pungs) == 3:
        p["dasanyuan"] = 8
    elif len(dragon_pungs) == 2 and pair is not None and pair >= 31:
        p["xiaosanyuan"] = 4
    elif dragon_pungs:
        p["sanyuanpai"] = len(dragon_pungs)
    flowers = {int(ch) for ch in ctx.get("flowers", "").rstrip("f")}
    full = [s for s in ({1, 2, 3, 4}, {5, 6, 7, 8}) if s <= flowers]
    if full:
        p["huagang"] = 2 * len(full)
    own = {int(ctx["seat_wind"][0]), int(ctx["seat_wind"][0]) + 4} & flowers
    if o["huagang_replaces_zhenghua"]:
        own = {f for f in own if not any(f in s for s in full)}
    if own:
        p["zhenghua"] = len(own)
    if ctx.get("hai_di_lao_yue"):
        p["haidilaoyue"] = 1
    if ctx.get("he_di_lao_yu"):
        p["hedilaoyu"] = 1
    if ctx.get("gang_shang_kai_hua") and (ctx.get("replacement_after") != "gang"
                                          or o["gangshang_minggang"]):
        p["gangshangkaihua"] = 1
    if ctx.get("qiang_gang"):
        p["qiangganghu"] = 1
    first = next((k for k in ("tianhu", "dihu", "renhu") if ctx.get(k)), None)
    if first:  # not flat (the flat case never gets here): the win-method ones go
        for k in ("menqing", "zimo", "menqing_zimo", "duting", "tianting", "diting"):
            p.pop(k, None)
        p[first] = o[f"{first}_tai"]
    return p


def reference(hand_text: str, win_text: str, sd: bool, ctx: dict[str, Any],
              options: dict[str, Any]) -> dict[str, Any]:
    o = {**DEFAULTS, **options}
    hand = Hand.parse(hand_text)
    win = Hand.parse(win_text).tiles()[0]
    counts = list(hand.counts)
    first = next((k for k in ("tianhu", "dihu", "renhu") if ctx.get(k)), None)
    best: tuple[int, list[int], dict[str, int]] | None = None
    c16 = list(counts)
    c16[win] -= 1
    wait_list = waits(c16, hand.melds, o["ligu"])
    for sets, pair, ligu_tile in shapes(counts, hand.melds, o["ligu"]):
        slots = [i for i, (k, t) in enumerate(sets)
                 if t == win or (k == "chow" and t < win <= t + 2)]
        if ligu_tile is not None:
            slots = [0] if win == ligu_tile else [-1]
        elif pair == win:
            slots.append(-1)
        for slot in slots:
            if first and o["tiandihu_flat"]:
                p = {first: o[f"{first}_tai"]}
            else:
                p = reading_patterns(sets, pair, ligu_tile, slot, hand, win, sd, ctx, o,
                                     wait_list)
            p = {k: v for k, v in p.items() if v}
            total = sum(p.values())
            order = sorted(ORDER.index(k) for k in p)
            if best is None or total > best[0] or (total == best[0] and order < best[1]):
                best = (total, order, p)
    if best is None:
        raise MahjongError("not_a_win", "reference: no reading")
    raw, _, p = best
    tai = raw if o["cap_tai"] is None else min(raw, o["cap_tai"])
    n = ctx.get("dealer_streak", 0)
    d = 1 + n + (n if o["lazhuang"] else 0)
    payers = ["right", "across", "left"] if sd else [ctx["discarder"]]
    paid = {s: o["di"] + (tai + (d if ctx["dealer"] in (s, "self") else 0)) * o["tai_value"]
            for s in payers}
    return {"patterns": sorted([k, v] for k, v in p.items()), "tai": tai,
            "paid": paid}


# --------------------------------------------------------------------------- random samples

def random_win(rng: random.Random) -> tuple[str, str] | None:
    """A random 17-tile winning hand (text) and its winning tile, or None."""
    counts = [0] * 34
    melds: list[str] = []
    mode = rng.random()  # some hands of the rarer shapes: 平胡, 全求人, 嚦咕嚦咕
    suits = rng.sample(range(3) if mode < 0.2 else range(4), rng.randint(1, 3))
    kinds = [t for t in range(34) if (t // 9 if t < 27 else 3) in suits]
    if 0.9 < mode:
        for _ in range(7):
            counts[rng.choice(kinds)] += 2
        counts[rng.choice(kinds)] += 3
        return (Hand(counts).to_text(), Hand.from_tiles([rng.choice(Hand(counts).tiles())])
                .to_text()) if max(counts) <= 4 else None
    for _ in range(5):
        x = rng.random() if mode >= 0.2 else 0.0
        t = rng.choice(kinds)
        if 0.2 <= mode < 0.3 and x < 0.45:
            x = 0.5
        if x < 0.45 and t < 27:
            t = t - t % 9 + rng.randrange(7)
            run = [t, t + 1, t + 2]
            if rng.random() < (0.2 if not 0.2 <= mode < 0.3 else 1.0):
                melds.append("chi:" + Hand.from_tiles(run).to_text())
            else:
                for u in run:
                    counts[u] += 1
        elif x < 0.6 or 0.2 <= mode < 0.3:
            kind = rng.choice(("peng", "gang", "angang", "bugang"))
            melds.append(f"{kind}:" + Hand.from_tiles([t] * (3 if kind == "peng" else 4)).to_text())
        else:
            counts[t] += 3
    counts[rng.choice(kinds)] += 2
    if max(counts) > 4:
        return None
    text = " ".join([Hand(counts).to_text(), *melds]).strip()
    try:
        hand = Hand.parse(text)
    except MahjongError:
        return None
    if max(hand.all_counts()) > 4 or not sum(counts):
        return None
    win = rng.choice(hand.tiles())
    return text, Hand.from_tiles([win]).to_text()


def random_context(rng: random.Random, hand: Hand, sd: bool,
                   o: dict[str, Any]) -> dict[str, Any]:
    ctx: dict[str, Any] = {"seat_wind": f"{rng.randint(1, 4)}z",
                           "round_wind": f"{rng.randint(1, 4)}z",
                           "dealer": rng.choice(SEATS), "dealer_streak": rng.choice((0, 0, 1, 3))}
    if not sd:
        ctx["discarder"] = rng.choice(SEATS[1:])
    if o["flowers_in_play"] and rng.random() < 0.5:
        fl = rng.sample(range(1, 9), rng.randint(1, 8 if not o["flower_wins"] else 7))
        ctx["flowers"] = "".join(map(str, sorted(fl))) + "f"
    r = rng.random()
    closed = all(m.kind == "angang" for m in hand.melds)
    if r < 0.1:
        ctx["hai_di_lao_yue" if sd else "he_di_lao_yu"] = True
    elif r < 0.2 and not sd:
        ctx["qiang_gang"] = True
    elif r < 0.3 and sd:
        kinds = [m.kind for m in hand.melds if m.is_kong] + (["flower"] if "flowers" in ctx
                                                             else [])
        if kinds:
            ctx["gang_shang_kai_hua"] = True
            ctx["replacement_after"] = rng.choice(kinds)
    elif r < 0.4 and closed:
        ctx["ting"] = "di" if ctx["dealer"] == "self" else rng.choice(("tian", "di"))
    elif r < 0.48 and not hand.melds:
        if sd and ctx["dealer"] == "self":
            ctx["tianhu"] = True
        elif sd:
            ctx["dihu"] = True
        elif ctx["dealer"] != "self":
            ctx["renhu"] = True
    return ctx


OPTION_CHOICES: list[dict[str, Any]] = [
    {}, {}, {"duting": "shape"}, {"ligu": True}, {"quanqiu_plus_duting": True, "banqiu": True},
    {"tiandihu_flat": False}, {"huagang_replaces_zhenghua": False}, {"flower_wins": False},
    {"gangshang_minggang": False, "menqing_zimo_tai": 2, "pinghu_tai": 1},
    {"lazhuang": False, "cap_tai": 6, "ziyise_tai": 8}, {"tianting_diting": False},
    {"di": 5, "tai_value": 1, "quanqiuren_tai": 0, "pinghu_tai": 0},
]


def test_reference_agrees_on_a_seeded_sample() -> None:
    rng = random.Random(1604)
    checked = 0
    while checked < SAMPLE:
        drawn = random_win(rng)
        if drawn is None:
            continue
        text, win = drawn
        sd = rng.random() < 0.5
        options = rng.choice(OPTION_CHOICES)
        o = {**DEFAULTS, **options}
        ctx = random_context(rng, Hand.parse(text), sd, o)
        try:
            want = reference(text, win, sd, ctx, options)
        except MahjongError:
            with_code = None
        else:
            with_code = want
        try:
            got = report(text, win_tile=win, self_drawn=sd, context=ctx, options=options or None)
        except MahjongError as err:
            assert with_code is None and err.code == "not_a_win", (text, win, sd, ctx, err)
            continue
        assert with_code is not None, (text, win, sd, ctx, got)
        assert sorted(got["patterns"]) == want["patterns"], (text, win, sd, ctx, options, got)
        assert got["tai"] == want["tai"] and got["points"]["from"] == want["paid"], (
            text, win, sd, ctx, options, got, want)
        checked += 1


def test_reference_on_the_section_14_rows() -> None:
    base = {"seat_wind": "2z", "round_wind": "1z", "dealer": "left"}
    assert reference("123m456m789m234p567p99s", "4p", False, {**base, "discarder": "across"},
                     {})["tai"] == 3
    assert reference("123m456m789p333z55s chi:567p", "3z", True,
                     {**base, "seat_wind": "3z", "flowers": "37f"}, {})["paid"] == {
        "left": 80, "across": 70, "right": 70}
