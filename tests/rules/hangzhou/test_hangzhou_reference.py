"""A slow, obviously correct reference scorer for Hangzhou, written from the spec alone (no
engine code: its own parsing, its own set search), cross-checked against ``score`` on a
seeded random sample (``MJ_HZ_SAMPLE`` hands, by default a tenth of ``MJ_CROSSCHECK_N``).

Brute force: every wild is given every one of the 34 kinds. Wilds are interchangeable, so an
assignment is a multiset of kinds (``combinations_with_replacement``), which is every
assignment up to the order of identical tiles. For each assignment the hand is all naturals
and the shapes are checked literally:
- standard: sets and one pair (with the melds, four sets);
- 爆头 (self-drawn): the drawn tile and one other wild taken out, the rest forms sets only;
- 七对: every kind held an even number of times; 豪华 groups by the definition of §6.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Any

from hangzhou_api import score

from mjcore import MahjongError

# the random sample: MJ_HZ_SAMPLE, else a tenth of the cross-check size (make test: 1,200)
SAMPLE = int(os.environ.get("MJ_HZ_SAMPLE") or int(os.environ.get("MJ_CROSSCHECK_N", "20000")) // 10)
SUITS = "mpsz"
ORDER = ["pinghu", "qidui", "haohua_qidui", "shuang_haohua_qidui", "san_haohua_qidui",
         "baotou", "caipiao", "shuang_caipiao", "san_caipiao", "gangkai", "gangbao", "gangpiao",
         "piaogang"]  # §6's table order


def text(t: int) -> str:
    return f"{t % 9 + 1}{SUITS[t // 9]}"


def parse(hand: str) -> tuple[list[int], list[tuple[str, list[int]]]]:
    concealed: list[int] = []
    melds: list[tuple[str, list[int]]] = []
    for token in hand.split():
        kind, _, body = token.rpartition(":")
        tiles, digits = [], ""
        for ch in body:
            if ch.isdigit():
                digits += ch
            else:
                tiles += [(int(d) - 1) + 9 * SUITS.index(ch) for d in digits]
                digits = ""
        if kind:
            melds.append((kind, tiles))
        else:
            concealed += tiles
    return concealed, melds


@lru_cache(maxsize=1 << 18)
def sets(counts: tuple[int, ...], pair: bool) -> bool:
    """Do ``counts`` split into sets (and one pair when ``pair``)? Literal search."""
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        return not pair
    c = list(counts)
    if pair and c[i] >= 2:
        c[i] -= 2
        if sets(tuple(c), False):
            return True
        c[i] += 2
    if c[i] >= 3:
        c[i] -= 3
        if sets(tuple(c), pair):
            return True
        c[i] += 3
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        if sets(tuple(c), pair):
            return True
    return False


def assignments(n: int) -> Any:
    return combinations_with_replacement(range(34), n)


def reference(hand: str, win: int, self_drawn: bool, wild: int, flip: bool,
              ctx: dict[str, Any], o: dict[str, Any]) -> tuple[int, list[str]] | str:
    """(fan, pattern ids) or an error code, from the spec."""
    concealed, melds = parse(hand)
    every = concealed + [t for _, m in melds for t in m]
    if max(Counter(every).values()) > 4 or len(concealed) != 14 - 3 * len(melds):
        return "tile_count"

    def nat(t: int) -> int:  # §2: a 白板 plays as a natural T in flip mode
        return wild if (flip and t == 31 and wild != 31) else t

    for _, m in melds:
        if wild in m:
            return "wild_in_meld"
    held = [0] * 34  # naturals over hand and melds
    for t in every:
        if t != wild:
            held[nat(t)] += 1
    naturals = [0] * 34
    for t in concealed:
        if t != wild:
            naturals[nat(t)] += 1
    w = concealed.count(wild)
    piao = ctx.get("piao_count", 0)
    if piao + w > 4:
        return "bad_context"
    limit = o.get("wild_copy_limit", False)

    def ok(extra: tuple[int, ...]) -> bool:
        return not limit or all(held[k] + n <= 4 for k, n in Counter(extra).items())

    def plus(base: list[int], a: tuple[int, ...]) -> tuple[int, ...]:
        out = list(base)
        for k in a:
            out[k] += 1
        return tuple(out)

    drawn_wild = win == wild
    x = nat(win)
    std = any(ok(a) and sets(plus(naturals, a), True) for a in assignments(w))
    # 爆头: take out the drawn tile and one other wild; the rest forms sets only
    bao = False
    if self_drawn and w >= (2 if drawn_wild else 1):
        rest = list(naturals)
        if not drawn_wild:
            rest[x] -= 1
        left = w - (2 if drawn_wild else 1)
        if o.get("baotou_wilds_in_sets", True) or left == 0:
            for a in assignments(left):
                pair = () if drawn_wild else (x,)
                if ok(a + pair) and sets(plus(rest, a), False):
                    bao = True
                    break
    readings: list[tuple[int, list[str]]] = []
    n = min(piao, o.get("piao_max", 3))
    gk, pg = ctx.get("gang_kai", False), ctx.get("piao_on_gang", False)

    def event(b: int) -> list[tuple[str, int]]:
        g = 1 if (gk or pg) else 0
        if not b and not g:
            return []
        if not b:
            return [("gangkai", 1)]
        if not g:
            return [(["baotou", "caipiao", "shuang_caipiao", "san_caipiao"][n], 1 + n)]
        if n == 0:
            return [("gangbao", 2)]
        return [("piaogang" if gk else "gangpiao", 2 + n)]

    if std:
        ev = event(0)
        readings.append((sum(f for _, f in ev), [i for i, _ in ev] or ["pinghu"]))
    if bao:
        ev = event(1)
        readings.append((sum(f for _, f in ev), [i for i, _ in ev]))
    bao_qidui = False
    if not melds:
        names = ["qidui", "haohua_qidui", "shuang_haohua_qidui", "san_haohua_qidui"]
        with_wild = o.get("haohua_with_wild", False)
        for a in assignments(w):
            total = list(plus(naturals, a))
            if not ok(a) or any(c % 2 for c in total):
                continue
            groups = sum(c // 4 for c in total) if with_wild else sum(
                1 for k in range(34) if naturals[k] == 4)
            readings.append((1 + groups, [names[groups]]))
            if not (o.get("qidui_baotou") and self_drawn):
                continue
            # the drawn tile pairs with a wild: that pair is no part of a 豪华 group
            kinds = []
            for k in range(34):
                wilds_k = a.count(k)
                if drawn_wild and wilds_k - naturals[k] % 2 >= 2:
                    kinds.append(k)
                if not drawn_wild and k == x and wilds_k >= 1:
                    kinds.append(k)
            for k in kinds:
                bao_qidui = True
                t2 = list(total)
                t2[k] -= 2
                nat2 = list(naturals)
                if not drawn_wild:
                    nat2[k] -= 1
                g2 = sum(c // 4 for c in t2) if with_wild else sum(
                    1 for j in range(34) if nat2[j] == 4)
                ev = event(1)
                readings.append((1 + g2 + sum(f for _, f in ev), [names[g2]] + [i for i, _ in ev]))
    if piao and not (bao or bao_qidui):  # every win after a 飘 is 爆头
        return "bad_context"
    if not self_drawn:
        if drawn_wild and not o.get("wild_discard_claimable", False):
            return "caishen_not_claimable"
    if not readings:
        return "not_a_win"

    def rank(r: tuple[int, list[str]]) -> tuple[int, int]:
        fans = {i: (0 if i == "pinghu" else _fan(i, r)) for i in r[1]}
        top = max(fans.values())
        return (-r[0], min(ORDER.index(i) for i, f in fans.items() if f == top))

    fan, ids = min(readings, key=rank)
    return fan, ids


def _fan(pattern: str, reading: tuple[int, list[str]]) -> int:
    """A listed pattern's fan: shapes by the table; the one event gets the rest."""
    shape = {"pinghu": 0, "qidui": 1, "haohua_qidui": 2, "shuang_haohua_qidui": 3,
             "san_haohua_qidui": 4}
    if pattern in shape:
        return shape[pattern]
    return reading[0] - sum(shape.get(i, 0) for i in reading[1])


# ------------------------------------------------------------------ the sample


def random_case(rng: random.Random) -> tuple[str, int, bool, int, bool, dict[str, Any],
                                             dict[str, Any]]:
    flip = rng.random() < 0.5
    wild = rng.randrange(34) if flip else 31
    counts = [0] * 34
    melds: list[str] = []
    shape = rng.random()
    if shape < 0.25:  # seven pairs
        for k in rng.sample(range(34), 7):
            counts[k] += 2
        if rng.random() < 0.3:
            k = next(k for k in range(34) if counts[k] == 2)
            counts[k] += 2
            counts[next(j for j in range(33, -1, -1) if counts[j] == 2 and j != k)] -= 2
    else:
        nmelds = rng.choice((0, 0, 0, 1, 2))
        for i in range(4):
            if rng.random() < 0.5:
                k = rng.randrange(27)
                k -= max(0, k % 9 - 6)
                tiles = [k, k + 1, k + 2]
            else:
                tiles = [rng.randrange(34)] * 3
            if i < nmelds:
                kind = "chi" if tiles[0] != tiles[1] else rng.choice(("peng", "angang", "gang"))
                if kind in ("angang", "gang"):
                    tiles = tiles + tiles[:1]
                melds.append(kind + ":" + "".join(text(t) for t in tiles))
            else:
                for t in tiles:
                    counts[t] += 1
        counts[rng.randrange(34)] += 2
    tiles = [t for t in range(34) for _ in range(counts[t])]
    # 财神: replace some concealed tiles by wilds; flip mode: some T become 白板 (natural T)
    for i in rng.sample(range(len(tiles)), min(len(tiles), rng.choice((0, 1, 1, 2, 2, 3)))):
        tiles[i] = wild
    if flip and wild != 31:
        tiles = [31 if t == wild and rng.random() < 0.2 else t for t in tiles]
    if rng.random() < 0.15:  # a near miss
        tiles[rng.randrange(len(tiles))] = rng.randrange(34)
    win = rng.choice(tiles)
    hand = "".join(text(t) for t in tiles) + "".join(" " + m for m in melds)
    self_drawn = rng.random() < 0.75
    ctx: dict[str, Any] = {} if not flip else {"caishen": text(wild)}
    if self_drawn:
        if rng.random() < 0.3:
            ctx["piao_count"] = rng.randint(1, 3)
            if rng.random() < 0.3:
                ctx["piao_on_gang"] = True
        if any(m.startswith(("angang", "gang")) for m in melds) and rng.random() < 0.5:
            ctx["gang_kai"] = True
    else:
        ctx.update(dealer="self", dealer_streak=2, discarder="left")
    o: dict[str, Any] = {} if flip else {"caishen_mode": "baiban"}
    for key in ("wild_copy_limit", "haohua_with_wild", "qidui_baotou"):
        if rng.random() < 0.2:
            o[key] = True
    if rng.random() < 0.2:
        o["baotou_wilds_in_sets"] = False
    if rng.random() < 0.2:
        o["piao_max"] = rng.choice((1, 2))
    return hand, win, self_drawn, wild, flip, ctx, o


def test_reference_agrees_with_score() -> None:
    rng = random.Random(2026)
    wins = special = 0
    for _ in range(SAMPLE):
        hand, win, self_drawn, wild, flip, ctx, o = random_case(rng)
        expected = reference(hand, win, self_drawn, wild, flip, ctx, o)
        try:
            r = score(hand, win_tile=text(win), self_drawn=self_drawn, context=ctx, options=o)
            got: Any = (r.fan, [h.id for h in r.patterns])
        except MahjongError as err:
            got = err.code
        assert got == expected, (hand, text(win), self_drawn, ctx, o)
        if isinstance(got, tuple):
            wins += 1
            special += got[0] > 0
    assert wins > SAMPLE // 4 and special > SAMPLE // 20
