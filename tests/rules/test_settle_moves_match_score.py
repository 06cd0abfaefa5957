"""``settle`` and the move checks against ``score``, every rule set, both scoring paths: random
legal winning hands (declared melds and kongs, wilds held, special shapes) in random legal win
contexts (the generators of ``test_waits_match_score``: winds, dealer, discarder, robbed
kongs, flags of one way, meld sources, other seats' melds, flowers, 飘 counts ...).

1. A log [HandStart, other seats' kongs, (the robbed bugang), Win] pays for the win exactly
   what ``score`` of that win says (its payments, with the event's index; Sichuan's 呼叫转移
   and kong money are other events' or reasons), zero-sum, and raises exactly when ``score``
   raises, with the same code. The win's context is completed as each rule set's Settlement
   section says (the winner's seat, the dealer and the discarder seen from it, ...), so the
   context given to ``score`` is the one ``settle`` scores.
2. Where a view lets the seat declare ``hu`` (a claim of a discard, a self-draw), ``validate_move``
   accepts it iff ``score`` of the same win is a win; ``legal_moves`` lists a ``hu`` iff
   ``validate_move`` accepts it.
3. Every answer is the same on the Python path and the compiled path.

Seeded; ``MJ_FUZZ_N`` sets the sample (hands per rule set: a fortieth)."""

from __future__ import annotations

import importlib
import os
import random
from typing import Any

import pytest
from test_waits_match_score import NO_WIN, _draw, _plus, _totals, _ways

from mjcore import Hand, MahjongError, Move, rules, wait_mask
from mjcore.rules.common import compiled
from mjcore.table import HandStart, Kong, TableView, Win
from mjcore.tiles import tile_to_text

N = max(50, int(os.environ.get("MJ_FUZZ_N", "20000")) // 40)

# seat (winner + k) % 4 is called ...
OFFSET = {"right": 1, "across": 2, "left": 3}


def _abs(winner: int, rel: str) -> int:
    return (winner + OFFSET[rel]) % 4


def _win_sample(rng: random.Random, ruleset: str) -> tuple[Hand, int, bool, dict[str, Any],
                                                            dict[str, Any], int]:
    """A hand with its winning tile (nearly always one it waits on), a way and its context."""
    while True:
        drawn = _draw(rng, ruleset)
        if drawn is None:
            continue
        h, ctx, o, wild = drawn
        mask = wait_mask(h) if rng.random() < 0.9 else 0
        if wild >= 0 and rng.random() < 0.3:
            mask |= 1 << wild
        tiles = [t for t in range(34) if mask >> t & 1] or [rng.randrange(
            27 if ruleset == "sichuan" else 34)]
        t = rng.choice(tiles)
        held = _totals(list(h.counts), list(h.melds))
        if held[t] >= 4:
            continue
        sd = rng.random() < 0.5
        cx, opts = _ways(ruleset, ctx, o)[sd]
        if ruleset == "hangzhou" and not sd:  # (the waits' discard way is a stand-in: the
            cx = {k: v for k, v in ctx.items() if k not in ("gang_kai", "piao_count",  # real
                                                             "piao_on_gang")}  # one here
            cx.setdefault("discarder", rng.choice(("left", "across", "right")))
            opts = o
        return _plus(h, t), t, sd, dict(cx), dict(opts), wild


def _score(ruleset: str, h: Hand, t: int, sd: bool, cx: dict[str, Any], o: dict[str, Any]
           ) -> Any:
    try:
        return rules.score(h, win_tile=t, self_drawn=sd, context=cx, ruleset=ruleset, options=o)
    except MahjongError as exc:
        return exc.code


# --------------------------------------------------------------------------- 1. settle

def _log(rng: random.Random, ruleset: str, h: Hand, t: int, sd: bool, cx: dict[str, Any]
         ) -> tuple[list[object], dict[str, Any], tuple[int | None, int | None]]:
    """The event log of the win and the context ``settle`` scores it in (the win's context
    completed as the rule set's Settlement section says)."""
    cx = dict(cx)
    dealer_streak_told = False
    kong_feeder = None
    if ruleset == "sichuan":
        winner = cx.setdefault("winner", 0)
        cx["active_seats"] = (0, 1, 2, 3)  # (nobody has won before: every seat plays)
        discarder = None if sd else cx.setdefault("discarder", rng.choice(
            [s for s in range(4) if s != winner]))
        robbed = bool(cx.get("robbing_kong"))
        dealer = rng.randrange(4)
        if "kong_feeder" in cx and rng.random() < 0.5:
            kong_feeder = cx["kong_feeder"]
        told = {"winner", "active_seats", "discarder", "robbing_kong"} | (
            {"kong_feeder"} if kong_feeder is not None else set())
    else:
        winner = cx.setdefault("winner", rng.randrange(4))
        rel = cx.get("robbed" if ruleset in ("guangdong", "wuhan") and "robbed" in cx
                     else "discarder")
        if sd:
            discarder = None
        else:
            if rel is None:
                rel = rng.choice(tuple(OFFSET))
                cx["discarder"] = rel
            discarder = _abs(winner, rel)
        robbed = bool(cx.get("qiang_gang") or cx.get("robbed")) and not sd
        told = {"winner", "discarder", "robbed"}
        if ruleset == "guangdong":
            dealer = (winner - int(cx["seat_wind"][0]) + 1) % 4
            told = {"winner", "seat_wind"} | ({"discarder"} if not cx.get("qiang_gang")
                                              else {"robbed"})
            if cx.get("gang_fed_by") and rng.random() < 0.5:
                kong_feeder = _abs(winner, cx["gang_fed_by"])
                told |= {"gang_fed_by", "gang_shang_kai_hua"}
            if "winners_on_discard" in cx:  # (one winner in this log)
                cx["winners_on_discard"] = 1
                told.add("winners_on_discard")
        elif ruleset == "hangzhou":
            cx.setdefault("dealer", rng.choice(("self", *OFFSET)))
            d = cx["dealer"]
            dealer = winner if d == "self" else _abs(winner, d)
            told.add("dealer")
        elif ruleset == "taiwan":
            d = cx["dealer"]
            dealer = winner if d == "self" else _abs(winner, d)
            told |= {"dealer", "qiang_gang"}
            dealer_streak_told = rng.random() < 0.5
            if dealer_streak_told:
                told.add("dealer_streak")
        else:
            dealer = rng.randrange(4)
    # what the log tells the context may say too, or not; everything else it must say
    win_ctx = {k: v for k, v in cx.items() if k not in told or rng.random() < 0.3}
    streak = cx.get("dealer_streak", 0) if dealer_streak_told else None
    # the dealer (and streak) by a HandStart, or by settle's arguments
    log: list[object] = [HandStart(dealer, streak)] if rng.random() < 0.8 else []
    given = (None, None) if log else (dealer, streak)
    others = [s for s in range(4) if s not in (winner, discarder)]
    for _ in range(rng.choice((0, 0, 1, 2))):
        s = rng.choice(others)
        kind = rng.choice(("gang", "bugang", "angang"))
        k = rng.randrange(27 if ruleset == "sichuan" else 34)
        log.append(Kong(s, kind, k, fed_by=rng.choice([x for x in range(4) if x != s])
                        if kind == "gang" else None))
    if robbed and discarder is not None:
        # (the kong's tile as an id or as text: tiles are taken either way)
        log.append(Kong(discarder, "bugang", rng.choice((t, tile_to_text(t))),  # type: ignore[arg-type]
                        robbed=True))
    elif ruleset in ("sichuan", "taiwan", "wuhan") and rng.random() < 0.1:
        # a robbed bugang of another tile or by another seat: no 抢杠 for this win
        s = rng.choice(others) if others else winner
        other = rng.choice([x for x in range(27) if x != t])
        log.append(Kong(s, "bugang", other, robbed=True))
    log.append(Win(winner, h, t, sd, discarder, win_ctx, kong_feeder))
    return log, cx, given


def _settle(ruleset: str, log: list[object], o: dict[str, Any],
            given: tuple[int | None, int | None]) -> Any:
    try:
        return rules.settle(log, o, ruleset=ruleset, dealer=given[0], dealer_streak=given[1])
    except MahjongError as exc:
        return exc.code


def _check_settle(ruleset: str, rng: random.Random, h: Hand, t: int, sd: bool,
                  cx: dict[str, Any], o: dict[str, Any]) -> tuple[Any, Any]:
    log, full, given = _log(rng, ruleset, h, t, sd, cx)
    want = _score(ruleset, h, t, sd, full, o)
    got = _settle(ruleset, log, o, given)
    where = (f"{ruleset}: log {log} (dealer, streak {given}) under {o}: score of {h} + "
             f"{tile_to_text(t)} (self_drawn={sd}) in {full}")
    if isinstance(want, str):
        assert got == want, f"{where} raised {want}, settle gave {got}"
        return want, got
    assert not isinstance(got, str), f"{where} scored {want}, settle raised {got}"
    win = len(log) - 1
    paid = sorted((p.from_seat, p.to_seat, p.amount) for p in got.payments
                  if p.event == win and p.reason != "hujiao_zhuanyi")
    assert paid == sorted(want.payments), f"{where} pays {sorted(want.payments)}, settle {paid}"
    assert sum(got.totals) == 0 and got.winners == (log[-1].seat,), where  # type: ignore[attr-defined]
    return want, got


@pytest.mark.parametrize("ruleset", rules.RULESETS)
def test_settle_pays_what_score_says(monkeypatch: pytest.MonkeyPatch, ruleset: str) -> None:
    clear = importlib.import_module(f"mjcore.rules.{ruleset}").clear_caches
    rng = random.Random(5151)
    wins = 0
    for i in range(N):
        h, t, sd, cx, o, _ = _win_sample(rng, ruleset)
        seed = rng.random()
        answers = []
        for pure in (True, False):
            monkeypatch.setattr(compiled, "PURE", pure)
            if i % 5 == 0:
                clear()
            answers.append(_check_settle(ruleset, random.Random(seed), h, t, sd, cx, o))
        assert answers[0] == answers[1], (ruleset, h, t, sd, cx, o, answers)
        wins += not isinstance(answers[0][0], str)
    assert wins > N // 6, (ruleset, wins)


# --------------------------------------------------------------------------- 2. moves

# the codes ``validate_move`` gives a ``hu`` that ``score`` refuses as no win (the rule set's
# "not a win" family) and the move rules that may refuse a ``hu`` ``score`` would pay
# (docs/rulesets/<name>.md, move checks): no scoring question
MOVE_RULES = {
    "sichuan": ("missing_suit_claim",),
    "guangdong": (),
    "hangzhou": ("caishen_not_claimable", "piao_lock", "louhu", "pingzhuang",
                 "xianjia_to_xianjia"),
    "taiwan": ("guoshui",),
    "wuhan": ("not_claimable",),
}


def _view(rng: random.Random, ruleset: str, h: Hand, t: int, sd: bool, cx: dict[str, Any],
          wild: int) -> TableView:
    """The view of the seat that may ``hu`` on ``t`` (drawn, or pending from another seat), with
    the rule set's part from the context."""
    from mjcore.rules.guangdong import GuangdongView
    from mjcore.rules.hangzhou.moves import HangzhouView
    from mjcore.rules.sichuan import SichuanView
    from mjcore.rules.taiwan.moves import TaiwanView
    from mjcore.rules.wuhan.moves import WuhanView

    seat = cx.get("winner", 0 if ruleset == "sichuan" else rng.randrange(4))
    rel = cx.get("robbed", cx.get("discarder"))
    if rel is None:
        rel = rng.choice(tuple(OFFSET))
    frm = rel if type(rel) is int else _abs(seat, rel)
    robbed = bool(cx.get("robbing_kong") or cx.get("qiang_gang") or "robbed" in cx) and (
        h.all_counts()[t] == 1)  # (a bugang's other three copies are its own)
    dealer = rng.randrange(4)
    part: Any = None
    if ruleset == "sichuan":
        held = {x // 9 for x in range(27) if h.all_counts()[x]}
        part = SichuanView(missing_suit=cx.get("missing_suit") or "mps"[min(
            {0, 1, 2} - held, default=rng.randrange(3))])
    elif ruleset == "guangdong":
        dealer = (seat - int(cx["seat_wind"][0]) + 1) % 4
        part = GuangdongView(round_wind=cx["round_wind"], meld_from=tuple(
            None if f is None else _abs(seat, f) for f in cx.get("meld_from", ())),
            bao_exempt=bool(cx.get("bao_exempt")))
    elif ruleset == "hangzhou":
        d = cx.get("dealer", "self")
        dealer = seat if d == "self" else _abs(seat, d)
        part = HangzhouView(caishen=None if wild == 31 and "caishen" not in cx
                            and "indicator" not in cx else tile_to_text(wild),
                            dealer_streak=cx.get("dealer_streak", 0),
                            piao_count=cx.get("piao_count", 0) if sd else 0,
                            piao_on_gang=bool(cx.get("piao_on_gang")) and sd)
    elif ruleset == "taiwan":
        d = cx["dealer"]
        dealer = seat if d == "self" else _abs(seat, d)
        part = TaiwanView(seat_wind=cx["seat_wind"], round_wind=cx["round_wind"],
                          dealer_streak=cx.get("dealer_streak", 0),
                          flowers=cx.get("flowers", ()), ting=cx.get("ting"))
    else:
        melds = {_abs(seat, r): text for r, text in cx.get("payer_melds", {}).items()}
        part = WuhanView(laizi=tile_to_text(wild), meld_from=tuple(
            None if f is None else _abs(seat, f) for f in cx.get("meld_from", ())),
            seat_melds=tuple(melds.get(s, "") for s in range(4)) if melds else ())
    common: dict[str, Any] = {"seat": seat, "dealer": dealer, "rules": part,
                              "wall_count": rng.choice((None, 40, 8, 3, 1, 0))}
    if sd:  # (a replacement draw after a kong the hand shows: the feeder named after a 直杠)
        kongs = [m.kind for m in h.melds if m.is_kong]
        after = bool(kongs) and rng.random() < 0.3
        feeder = rng.choice([x for x in range(4) if x != seat]) if after and (
            "gang" in kongs and (kongs == ["gang"] * len(kongs) or rng.random() < 0.5)) else None
        return TableView(hand=h, phase="turn", drawn_tile=t, after_kong=after, kong_feeder=feeder,
                         first_draw=not h.melds and rng.random() < 0.15,
                         any_meld=rng.random() < 0.5, **common)
    ready = list(h.counts)
    ready[t] -= 1
    return TableView(hand=Hand(ready, h.melds), phase="rob" if robbed else "claim",
                     pending_tile=t, pending_from=frm,
                     pending_kind="bugang" if robbed else "discard",
                     pending_after_kong=rng.random() < 0.1, **common)


def _check_moves(ruleset: str, v: TableView, o: dict[str, Any]) -> tuple[Any, ...]:
    ctx_of = importlib.import_module(f"mjcore.rules.{ruleset}.moves").win_context
    where = f"{ruleset}: view {v} under {o}"
    try:
        check = rules.validate_move(v, Move("hu"), o, ruleset=ruleset)
        listed = Move("hu") in rules.legal_moves(v, o, ruleset=ruleset)
    except MahjongError as exc:  # (a view the rule set refuses: score refuses its win too)
        try:
            h, t, sd, cx = (ctx_of(v, rules.resolve_options(ruleset, o)) if ruleset == "hangzhou"
                            else ctx_of(v))
        except MahjongError:
            return ("raised", exc.code)
        want = _score(ruleset, h, t, sd, cx, o)
        assert isinstance(want, str) and want not in NO_WIN[ruleset] or "piao_count" in cx, (
            f"{where}: validate_move raised {exc}, score of {h} + {tile_to_text(t)} "
            f"(self_drawn={sd}) in {cx} gives {want}")
        return ("raised", exc.code)
    assert listed == check.ok, f"{where}: validate_move {check}, legal_moves lists hu: {listed}"
    args = ctx_of(v, rules.resolve_options(ruleset, o)) if ruleset == "hangzhou" else ctx_of(v)
    h, t, sd, cx = args
    want = _score(ruleset, h, t, sd, cx, o)
    where += f": score of {h} + {tile_to_text(t)} (self_drawn={sd}) in {cx} gives {want}"
    if check.ok:
        assert not isinstance(want, str), f"{where}, validate_move accepts the hu"
    else:  # refused by a move rule (whatever score says), or as no win exactly when score does
        # (Hangzhou: after a 飘 every win is a 爆头 and score refuses another as bad_context)
        after_piao = want == "bad_context" and "piao_count" in cx and check.code == "not_a_win"
        assert check.code in MOVE_RULES[ruleset] or check.code == want or after_piao, (
            f"{where}, validate_move gives {check}")
    return (check.ok, check.code, want if isinstance(want, str) else want.value)


@pytest.mark.parametrize("ruleset", rules.RULESETS)
def test_hu_is_legal_where_score_wins(monkeypatch: pytest.MonkeyPatch, ruleset: str) -> None:
    clear = importlib.import_module(f"mjcore.rules.{ruleset}").clear_caches
    rng = random.Random(6262)
    legal = 0
    for i in range(N):
        h, t, sd, cx, o, wild = _win_sample(rng, ruleset)
        v = _view(rng, ruleset, h, t, sd, cx, wild)
        answers = []
        for pure in (True, False):
            monkeypatch.setattr(compiled, "PURE", pure)
            if i % 5 == 0:
                clear()
            answers.append(_check_moves(ruleset, v, o))
        assert answers[0] == answers[1], (ruleset, v, o, answers)
        legal += answers[0][0] is True
    assert legal > N // 10, (ruleset, legal)
