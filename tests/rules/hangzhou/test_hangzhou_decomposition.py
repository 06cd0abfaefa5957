"""``ScoreResult.decomposition`` of a Hangzhou win, checked from the rules text (§2 roles, §4
shapes, §5 爆头), not from the engine: a standard win's decomposition is a split of the
concealed tiles into sets and a pair, each natural at the kind it plays as (a 5z in flip mode
is a natural T), each wild standing for some kind; an 爆头 win's pair is the drawn tile and a
wild (two wilds when the drawn tile is one), the rest forms the sets; 七对 is "qidui". On every
worked case and on a seeded random sample (test_hangzhou_reference's generator)."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hangzhou_api import baiban, score
from test_hangzhou_reference import random_case

from mjcore import Decomposition, MahjongError

CASES_FILE = Path(__file__).resolve().parents[2] / "cases" / "hangzhou.jsonl"
CASES: list[dict[str, Any]] = [
    json.loads(line) for line in CASES_FILE.read_text(encoding="utf-8").splitlines() if line.strip()
]
SUITS = "mpsz"
QIDUI = {"qidui", "haohua_qidui", "shuang_haohua_qidui", "san_haohua_qidui"}
BAOTOU = {"baotou", "caipiao", "shuang_caipiao", "san_caipiao", "gangbao", "gangpiao", "piaogang"}
DISCARD = {"dealer": "self", "dealer_streak": 2, "discarder": "left"}


def tile(text: str) -> int:
    return int(text[0]) - 1 + 9 * SUITS.index(text[1])


def tiles(text: str) -> list[int]:
    return [int(r) - 1 + 9 * SUITS.index(s) for rs, s in re.findall(r"(\d+)([mpsz])", text) for r in rs]


def check(hand: str, win: int, self_drawn: bool, wild: int, flip: bool, o: dict[str, Any],
          result: Any) -> None:
    """The decomposition of ``result`` against the rules text (see the module docstring)."""
    ids = {h.id for h in result.patterns}
    d = result.decomposition
    if ids & QIDUI:
        assert d == "qidui" and result.shape == "qidui"
        return
    assert isinstance(d, Decomposition) and result.shape == "standard", d
    concealed, *melds = hand.split(" ")

    def plays_as(t: int) -> int:  # §2: in flip mode with T != 5z, a 5z is a natural T
        return wild if flip and t == 31 and wild != 31 else t

    phys = tiles(concealed)
    wilds = phys.count(wild)
    naturals = Counter(plays_as(t) for t in phys if t != wild)
    sets: Counter[int] = Counter()
    for c in d.chows:
        assert c < 27 and c % 9 <= 6, d
        sets.update((c, c + 1, c + 2))
    for p in d.pungs:
        sets[p] += 3
    assert len(d.chows) + len(d.pungs) + len(melds) == 4, d  # §4: four sets with the melds
    whole = sets + Counter({d.pair: 2})
    # every natural in place, and the wilds exactly fill what is left
    assert not naturals - whole and sum((whole - naturals).values()) == wilds, (hand, d)
    if ids & BAOTOU:  # §5: the drawn tile and one wild are the pair, the rest forms the sets
        assert self_drawn
        if win == wild:
            rest, in_sets = naturals, wilds - 2
        else:
            assert d.pair == plays_as(win), d
            rest, in_sets = naturals - Counter({plays_as(win): 1}), wilds - 1
        assert not rest - sets and sum((sets - rest).values()) == in_sets, (hand, d)
        if not o.get("baotou_wilds_in_sets", True):
            assert in_sets == 0
    if o.get("wild_copy_limit"):  # no kind stood for beyond four copies, melds included
        held = whole + Counter(plays_as(t) for m in melds for t in tiles(m.partition(":")[2]))
        assert max(held.values()) <= 4, (hand, d)


@pytest.mark.parametrize("case", [c for c in CASES if "error" not in c["expected"]],
                         ids=lambda c: c["id"])
def test_worked_case(case: dict[str, Any]) -> None:
    options = dict(case["options"])
    preset = options.pop("preset", None)
    r = score(case["hand"], win_tile=case["win_tile"], self_drawn=case["self_drawn"],
              context=case["context"] or None, options=options or None, preset=preset)
    flip = options.get("caishen_mode", "baiban" if preset == "baiban_capped" else "flip") == "flip"
    ctx = case["context"] or {}
    wild = tile(ctx["caishen"]) if flip and "caishen" in ctx else 31
    check(case["hand"], tile(case["win_tile"]), case["self_drawn"], wild, flip, options, r)


def test_named_wins() -> None:
    """The sets as a player reads them: the 爆头 pair is the drawn tile; a 5z plays as T in
    flip mode; a 财神 may stand for itself (财神归位); wilds that can make a set alone do."""
    r = score("123m456p789s111z5z7p", win_tile="7p", self_drawn=True, options=baiban(),
              context={"piao_count": 1})  # HZ-03
    assert r.decomposition == Decomposition(15, (0, 12, 24), (27,))
    r = score("12m5z456p789s111z99m", win_tile="9m", self_drawn=True, context={"caishen": "3m"})
    assert r.decomposition == Decomposition(8, (0, 12, 24), (27,))  # 12m + 5z (a 3m)
    r = score("123m456p789s111z99m", win_tile="9m", self_drawn=True, context={"caishen": "3m"})
    assert r.decomposition == Decomposition(8, (0, 12, 24), (27,))  # the 3m as itself
    r = score("123m456p789s555z99m", win_tile="9m", context=DISCARD, options=baiban())
    assert r.decomposition == Decomposition(8, (0, 12, 24), (31,))  # three 白板 as themselves
    r = score("123m456p789s111z5z5z", win_tile="5z", self_drawn=True, options=baiban())
    assert [h.id for h in r.patterns] == ["baotou"]
    assert r.decomposition == Decomposition(31, (0, 12, 24), (27,))  # two wilds pair
    r = score("1111m2222m3333m44p", win_tile="4p", self_drawn=True, preset="baiban_capped")
    assert r.decomposition == "qidui"


def test_random_wins() -> None:
    rng = random.Random(20261203)
    wins = baotou = 0
    for _ in range(1500):
        hand, win, self_drawn, wild, flip, ctx, o = random_case(rng)
        try:
            r = score(hand, win_tile=f"{win % 9 + 1}{SUITS[win // 9]}", self_drawn=self_drawn,
                      context=ctx, options=o)
        except MahjongError:
            continue
        check(hand, win, self_drawn, wild, flip, o, r)
        wins += 1
        baotou += bool({h.id for h in r.patterns} & BAOTOU)
    assert wins > 300 and baotou > 50, (wins, baotou)
