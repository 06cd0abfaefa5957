"""The engine against the brute-force reference (wuhan_reference.py) on a seeded random sample
of hands near a win, with random 赖子, melds, one-tile kongs, contexts and options.
``MJ_WH_SAMPLE`` sets the sample size (default 2500)."""

from __future__ import annotations

import os
import random
from typing import Any

from wuhan_api import paid, score
from wuhan_reference import reference, reference_payments

from mjcore import MahjongError
from mjcore.tiles import tile_to_text

SAMPLE = int(os.environ.get("MJ_WH_SAMPLE", "2500"))
SET_MELDS = ("chi", "peng", "gang", "angang", "bugang")


def _text(counts: list[int], melds: list[tuple[str, int]]) -> str:
    parts = ["".join(tile_to_text(t) for t in range(34) for _ in range(counts[t]))]
    for k, t in melds:
        tiles = (t, t + 1, t + 2) if k == "chi" else (t,) * {"peng": 3}.get(k, 4)
        if k in ("pizigang", "laizigang"):
            tiles = (t,)
        parts.append(k + ":" + "".join(tile_to_text(x) for x in tiles))
    return " ".join(p for p in parts if p)


def _deal(rng: random.Random) -> tuple[list[int], list[tuple[str, int]], int, dict[str, Any]]:
    """A hand near a win: sets and a pair (some declared), some tiles turned into 赖子, maybe
    one tile changed; one-tile kongs laid aside."""
    opt: dict[str, Any] = {}
    for name, values in (("qidui", (True,)), ("situational_any_pair", (True,)),
                         ("quanqiuren_self_draw", (True,)), ("xiaohu_max_laizi", (0, 2)),
                         ("yinghu_factor", (1,)), ("gangshanghua_as", ("factor",)),
                         ("yise_any_shape", (True,)), ("factors", (False,)),
                         ("base_dahu", (7,)), ("pizi", ("hongzhong_facai",)),
                         ("dahu_discard_all_pay", (True,)), ("peichong_ratio", ("1/4", "1")),
                         ("cap_points", (50, 100)), ("base_points", (3,))):
        if rng.random() < 0.12:
            opt[name] = rng.choice(values)
    pizi = {33, 32} if opt.get("pizi") else {33}
    laizi = rng.choice([t for t in range(34) if t not in pizi])
    plain = [t for t in range(34) if t not in pizi and t != laizi]
    if rng.random() < 0.3:  # few suits: more 一色
        suit = rng.randrange(4)
        plain = [t for t in plain if t // 9 == suit] or plain
    while True:
        held = [0] * 34
        counts = [0] * 34
        melds: list[tuple[str, int]] = []
        if opt.get("qidui") and rng.random() < 0.5:
            for _ in range(7):
                counts[rng.choice(plain)] += 2
        else:
            for _ in range(4):
                if rng.random() < 0.5:
                    t = rng.choice([x for x in plain if x < 27 and x % 9 <= 6] or plain)
                    run = (t, t + 1, t + 2) if t < 27 and t % 9 <= 6 else (t,) * 3
                else:
                    t = rng.choice(plain)
                    run = (t,) * 3
                declared = not (set(run) & {laizi}) and rng.random() < 0.4
                if declared:
                    kind = "chi" if run[0] != run[1] else rng.choice(SET_MELDS[1:])
                    melds.append((kind, t))
                    for x in run + ((t,) if kind in ("gang", "angang", "bugang") else ()):
                        held[x] += 1
                else:
                    for x in run:
                        counts[x] += 1
            counts[rng.choice(plain)] += 2
        # tiles standing in as 赖子 (three rarely: the brute force tries 7140 ways)
        for _ in range(3 if rng.random() < 0.03 else rng.choice((0, 0, 1, 1, 1, 2, 2))):
            some = [x for x in range(34) if counts[x] and x != laizi]
            if not some:
                break
            t = rng.choice(some)
            counts[t] -= 1
            counts[laizi] += 1
        if rng.random() < 0.2:  # a near miss
            t = rng.choice([x for x in range(34) if counts[x]])
            counts[t] -= 1
            counts[rng.choice(plain + [laizi])] += 1
        for _ in range(rng.choice((0, 0, 0, 1, 2))):
            melds.append(rng.choice((("pizigang", min(pizi)), ("laizigang", laizi))))
            held[melds[-1][1]] += 1
        if counts[laizi] > 3:  # keep the brute force quick: at most 3 wilds
            continue
        if all(c + h <= 4 for c, h in zip(counts, held)):
            return counts, melds, laizi, opt


def _context(rng: random.Random, melds: list[tuple[str, int]]) -> tuple[bool, dict[str, Any]]:
    self_drawn = rng.random() < 0.5
    ctx: dict[str, Any] = {}
    if self_drawn:
        if any(k not in ("chi", "peng") for k, _ in melds) and rng.random() < 0.3:
            ctx["gang_shang_hua"] = True
        elif rng.random() < 0.2:
            ctx["hai_di"] = True
    else:
        ctx["robbed" if rng.random() < 0.2 else "discarder"] = rng.choice(("left", "right"))
    return self_drawn, ctx


def _payers(rng: random.Random, counts: list[int], melds: list[tuple[str, int]],
            laizi: int, pizi: set[int]) -> dict[str, list[tuple[str, int]]]:
    """Melds of the other seats (for their doublings), within the tiles that exist."""
    held = list(counts)
    for k, t in melds:
        for x in ((t, t + 1, t + 2) if k == "chi" else (t,) * {"peng": 3, "pizigang": 1,
                                                                "laizigang": 1}.get(k, 4)):
            held[x] += 1
    out: dict[str, list[tuple[str, int]]] = {}
    for seat in ("left", "across", "right"):
        for _ in range(rng.choice((0, 0, 1, 2))):
            kind = rng.choice(("peng", "gang", "angang", "bugang", "pizigang", "laizigang"))
            t = min(pizi) if kind == "pizigang" else laizi if kind == "laizigang" else \
                rng.choice([x for x in range(34) if x not in pizi and x != laizi])
            n = 1 if kind in ("pizigang", "laizigang") else 3 if kind == "peng" else 4
            if held[t] + n <= 4:
                held[t] += n
                out.setdefault(seat, []).append((kind, t))
    return out


def _meld_from(rng: random.Random, melds: list[tuple[str, int]]) -> list[str | None]:
    seat = rng.choice(("left", "across", "right"))
    return [None if k == "angang" else "left" if k == "chi" else
            seat if rng.random() < 0.7 else rng.choice(("left", "across", "right"))
            for k, _ in melds if k in SET_MELDS]


def test_engine_agrees_with_the_brute_force_reference() -> None:
    rng = random.Random(2024)
    wins = losses = 0
    for _ in range(SAMPLE):
        counts, melds, laizi, opt = _deal(rng)
        self_drawn, ctx = _context(rng, melds)
        opened = any(k in ("chi", "peng", "gang", "bugang") for k, _ in melds)
        if not opened:
            opt["must_open"] = False
        pizi = {33, 32} if opt.get("pizi") else {33}
        payers = _payers(rng, counts, melds, laizi, pizi)
        meld_from = _meld_from(rng, melds) if rng.random() < 0.5 else None
        context = {"laizi": tile_to_text(laizi), **ctx}
        if payers:
            context["payer_melds"] = {s: _text([0] * 34, m) for s, m in payers.items()}
        if meld_from is not None:
            context["meld_from"] = meld_from
        tile = rng.choice([t for t in range(34) if counts[t]])
        hand = _text(counts, melds)
        want = reference(counts, melds, laizi, self_drawn, ctx, opt)
        try:
            r = score(hand, win_tile=tile, self_drawn=self_drawn, context=context, options=opt)
        except MahjongError as err:
            assert want is None, (hand, laizi, ctx, opt, err, want)
            assert err.code == "not_a_win", (hand, err)
            losses += 1
            continue
        assert not any(counts[t] for t in pizi)
        assert want is not None, (hand, laizi, ctx, opt, r)
        h, w, ids = want
        assert (r.hand_base, r.winner_factor) == (h, w), (hand, laizi, ctx, opt, r, want)
        assert [p.id for p in r.patterns] == ids, (hand, laizi, ctx, opt, r, want)
        owed, liable = reference_payments(h, w, ids, self_drawn, ctx, payers, meld_from, opt)
        assert (paid(r), r.liable) == (owed, liable), (hand, context, opt, r)
        wins += 1
    assert wins > SAMPLE // 4 and losses > SAMPLE // 20
