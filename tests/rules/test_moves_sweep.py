"""Every move kind of every rule set, swept over random legal views (all phases the rule set
has) under random options (``test_waits_match_score.OPTIONS``): the winning views of
``test_settle_moves_match_score._view`` and views made from them with another concealed hand
(many pairs and triples: peng, gang, angang, bugang, chi), another pending tile or seat, another
wall count, phase or rule set's part (缺门 not yet declared, 血战 won, 过水, 聽, new flowers,
飘 lock, ...).

1. ``legal_moves`` is deterministic, has no duplicates, and every move it lists validates.
2. Every candidate move (each kind of ``describe_ruleset`` × no tile, each tile 0-33, each
   run, each flower where played, Sichuan's exchanges and suits) validates iff it is listed,
   a ``hu`` naming a tile compared with the bare ``hu``: naming the winning tile (the pending
   or drawn one) it is legal iff ``hu`` is listed, naming another tile it is never legal
   unless ``hu`` is.
3. Neither raises anything but a ``MahjongError`` (``bad_state``) and both raise alike; each
   refusal's code is one of the rule set's documented reason codes.
4. A legal discard or claim, applied to the hand, keeps every kind within four copies.

One view in ten may contradict itself (a kong fed by the seat itself, a tile short, ...):
there both answer alike or raise ``bad_state`` alike.

Seeded; ``MJ_FUZZ_N`` sets the sample (views per rule set: a two-hundredth)."""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from test_settle_moves_match_score import _view, _win_sample

from mjcore import Hand, MahjongError, Move, rules
from mjcore.table import TableView
from mjcore.tiles import FLOWERS

N = max(30, int(os.environ.get("MJ_FUZZ_N", "20000")) // 200)

RUNS = [(lo, lo + 1, lo + 2) for s in range(3) for lo in range(9 * s, 9 * s + 7)]


def _kinds(ruleset: str) -> list[str]:
    return [m["id"] for m in rules.describe_ruleset(ruleset)["move_kinds"]]


def _codes(ruleset: str) -> set[str]:
    return {c["id"] for c in rules.describe_ruleset(ruleset)["reason_codes"]}


# --------------------------------------------------------------------------- views

def _rehand(rng: random.Random, ruleset: str, v: TableView) -> TableView:
    """The view with another concealed hand of the same size (the declared melds kept), drawn
    from a few kinds so that pairs, triples and fours (and runs) are common."""
    h = v.hand
    n = h.concealed_count
    top = 27 if ruleset == "sichuan" else 34
    fixed = [0] * 34
    for m in h.melds:
        for t in m.tiles:
            fixed[t] += 1
    if v.pending_tile is not None:  # (a bugang's other three copies are its own)
        fixed[v.pending_tile] += 4 if v.phase == "rob" else 1
    for text in getattr(v.rules, "seat_melds", ()):  # (Wuhan: the other seats' melds)
        for m in Hand.parse(text).melds if text else ():
            for t in m.tiles:
                fixed[t] += 1
    pool = rng.sample(range(top), rng.choice((3, 5, 8, 12)))
    if v.pending_tile is not None and rng.random() < 0.7:  # near the pending tile
        p = v.pending_tile
        pool += [x for x in (p - 2, p - 1, p, p + 1, p + 2) if 0 <= x < top]
    for m in h.melds:  # the fourth of a peng now and then
        if m.kind == "peng" and rng.random() < 0.5:
            pool.append(m.tile)
    counts = [0] * 34
    for _ in range(n):
        free = [t for t in pool if counts[t] + fixed[t] < 4] or [
            t for t in range(top) if counts[t] + fixed[t] < 4]
        counts[rng.choice(free)] += 1
    hand = Hand(counts, h.melds)
    changes: dict[str, Any] = {"hand": hand}
    if v.phase == "turn":
        held = [t for t in range(34) if counts[t]]
        changes["drawn_tile"] = rng.choice([*held, None])
    if ruleset == "hangzhou":  # (飘 discards say the hand was 爆头: not this one)
        changes["rules"] = replace(v.rules, piao_count=0, piao_on_gang=False)
    return v.replace(**changes)


def _tweak(rng: random.Random, ruleset: str, v: TableView) -> TableView:
    """Other common fields (and phase) of a view, kept legal."""
    ch: dict[str, Any] = {}
    if rng.random() < 0.3:
        ch["wall_count"] = rng.choice((None, 0, 1, 2, 3, 4, 5, 20))
    if v.phase == "turn" and rng.random() < 0.2:
        ch["drew"] = False
    if v.phase == "claim" and rng.random() < 0.5:
        # (the seat's own discard now and then: refused but for pass)
        ch["pending_from"] = rng.choice([s for s in range(4) if s != v.seat] + [v.seat] * (
            rng.random() < 0.1))
    if v.phase == "claim" and rng.random() < 0.1 and not v.hand.all_counts()[v.pending_tile]:
        ch["phase"], ch["pending_kind"] = "rob", "bugang"  # (the other three: the bugang's)
    if v.phase == "rob" and rng.random() < 0.2:
        ch["pending_kind"] = "angang"
    if rng.random() < 0.05:
        ch["phase"] = rng.choice(("wait", "ended"))
    return v.replace(**ch) if ch else v


def _part(rng: random.Random, ruleset: str, v: TableView, o: dict[str, Any]) -> TableView:
    """The rule set's own part (and phases) varied."""
    p = v.rules
    if ruleset == "sichuan":
        r = rng.random()
        if r < 0.08:
            held = {t // 9 for t in range(27) if v.hand.counts[t]}
            return v.replace(phase="ding_que", rules=replace(p, missing_suit=rng.choice(
                (None, None, "mps"[min({0, 1, 2} - held, default=0)]))))
        if r < 0.14 and not v.hand.melds:
            if v.hand.concealed_count in (13, 14):
                o["exchange_three"] = rng.random() < 0.8
                return v.replace(phase="exchange", rules=replace(p, missing_suit=None))
        if r < 0.2:
            return v.replace(rules=replace(p, has_won=True))
        if r < 0.3 and v.phase in ("claim", "rob"):
            return v.replace(rules=replace(p, guoshui_fan=rng.randrange(5)))
        if r < 0.4:
            return v.replace(rules=replace(p, missing_suit=rng.choice("mps")))
    elif ruleset == "hangzhou":
        r = rng.random()
        if r < 0.15:
            return v.replace(rules=replace(p, piao_lock=True))
        if r < 0.3 and v.pending_tile is not None:
            return v.replace(rules=replace(p, passed_win_tiles=(v.pending_tile,)))
    elif ruleset == "taiwan":
        r = rng.random()
        if r < 0.15:
            return v.replace(rules=replace(p, guoshui=tuple(sorted({
                rng.choice([x for x in (v.pending_tile, v.drawn_tile) if x is not None] or [0]),
                rng.randrange(34)}))))
        if r < 0.3 and v.phase == "turn" and p.ting is None:
            return v.replace(rules=replace(p, ting="declared"))
        if r < 0.35:
            o["ting_declaration"] = False
        elif r < 0.45 and v.phase == "turn" and v.hand.concealed_count > 2:
            # new flowers: as many concealed tiles fewer (17 in a turn, a new flower counts one)
            free = [f for f in FLOWERS if f not in p.flowers]
            k = min(len(free), rng.choice((1, 1, 2)))
            new = tuple(rng.sample(free, k))
            counts = list(v.hand.counts)
            for _ in range(k):
                counts[rng.choice([t for t in range(34) if counts[t]])] -= 1
            hand = Hand(counts, v.hand.melds)
            drawn = v.drawn_tile if v.drawn_tile is not None and counts[v.drawn_tile] else None
            return v.replace(hand=hand, drawn_tile=drawn, rules=replace(p, new_flowers=new))
    return v


def _odd(rng: random.Random, v: TableView) -> TableView:
    """A view that may contradict itself (answered, or refused as ``bad_state``, never
    anything else): a kong fed by any seat, one concealed tile short, a drawn tile not held,
    the seat not among the active ones, no pending seat."""
    r = rng.random()
    if r < 0.3:
        return v.replace(after_kong=True, kong_feeder=rng.randrange(4))
    if r < 0.5 and v.hand.concealed_count > 1:
        counts = list(v.hand.counts)
        counts[rng.choice([t for t in range(34) if counts[t]])] -= 1
        return v.replace(hand=Hand(counts, v.hand.melds), drawn_tile=None)
    if r < 0.7:
        return v.replace(drawn_tile=rng.randrange(34))
    if r < 0.85:
        return v.replace(active_seats=tuple(sorted(rng.sample(range(4), rng.randrange(4)))))
    return v.replace(pending_from=None)


def _sample(rng: random.Random, ruleset: str) -> tuple[TableView, dict[str, Any]]:
    h, t, sd, cx, o, wild = _win_sample(rng, ruleset)
    o = dict(o)
    v = _view(rng, ruleset, h, t, sd, cx, wild)
    if rng.random() < 0.75:
        v = _rehand(rng, ruleset, v)
    if rng.random() < 0.6:
        v = _tweak(rng, ruleset, v)
    if rng.random() < 0.5:
        v = _part(rng, ruleset, v, o)
    if rng.random() < 0.1:
        v = _odd(rng, v)
    return v, o


# --------------------------------------------------------------------------- moves

def _candidates(ruleset: str, v: TableView) -> list[Move]:
    tiles = range(42 if ruleset == "taiwan" else 34)
    out: list[Move] = []
    for kind in _kinds(ruleset):
        if kind == "ding_que":
            out += [Move(kind, (), s) for s in ("m", "p", "s", "z", None)]
            continue
        if kind == "exchange":
            counts = v.hand.counts
            for s in range(3):
                held = [x for x in range(9 * s, 9 * s + 9) for _ in range(counts[x])]
                out += [Move(kind, tuple(sorted((a, b, c)))) for i, a in enumerate(held)
                        for j, b in enumerate(held[i + 1:], i + 1) for c in held[j + 1:]]
            out += [Move(kind, (0, 1, 2)), Move(kind, (0, 9, 18)), Move(kind, (5,))]
            continue
        out.append(Move(kind))
        out += [Move(kind, (x,)) for x in tiles]
        if kind == "chi":
            out += [Move(kind, r) for r in RUNS]
            pt = v.pending_tile
            if ruleset == "hangzhou" and pt is not None:  # (runs with 财神 stand-ins)
                held = [x for x in range(34) if v.hand.counts[x]]
                out += [Move(kind, tuple(sorted((pt, a, b)))) for i, a in enumerate(held)
                        for b in held[i:] if pt not in (a, b)]
    return list(dict.fromkeys(out))


def _call(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except MahjongError as exc:
        return ("raised", exc.code)


def _win_tile(v: TableView) -> int | None:
    """The tile a ``hu`` wins on: the pending one, or the drawn one when the hand holds it (a
    drawn tile the hand does not hold is taken as not told, as every ``win_context`` does)."""
    if v.phase != "turn":
        return v.pending_tile
    t = v.drawn_tile
    return t if t is not None and v.hand.counts[t] else None


def _apply_ok(v: TableView, m: Move) -> bool:
    """Property 4: the hand after a legal discard or claim holds no fifth copy."""
    counts = list(v.hand.all_counts())
    if m.kind in ("peng", "gang", "chi") and v.pending_tile is not None:
        counts[v.pending_tile] += 1
    elif m.kind in ("discard", "angang", "bugang") and m.tiles:
        counts[m.tiles[0]] -= 1 if m.kind == "discard" else 0
    return max(counts) <= 4 and min(counts) >= 0


def _check(ruleset: str, v: TableView, o: dict[str, Any], codes: set[str]) -> dict[str, int]:
    where = f"{ruleset}: view {v} under {o}"
    legal = _call(lambda: rules.legal_moves(v, o, ruleset=ruleset))
    again = _call(lambda: rules.legal_moves(v, o, ruleset=ruleset))
    assert legal == again, f"{where}: legal_moves not deterministic: {legal} / {again}"
    cands = _candidates(ruleset, v)
    if isinstance(legal, tuple) and legal and legal[0] == "raised":
        # (a view that contradicts itself: a move that reads the contradiction raises too)
        assert legal[1] == "bad_state", f"{where}: legal_moves raised {legal}"
        raised = 0
        for m in cands:
            got = _call(lambda m=m: rules.validate_move(v, m, o, ruleset=ruleset))
            assert got == legal or not isinstance(got, tuple), (
                f"{where}: legal_moves raised {legal}, validate {m}: {got}")
            raised += isinstance(got, tuple)
        assert raised, f"{where}: legal_moves raised {legal}, no validate_move does"
        return {"raised": 1}
    assert len(set(legal)) == len(legal), f"{where}: duplicates in {legal}"
    listed = set(legal)
    hu_listed = Move("hu") in listed
    seen: dict[str, int] = {}
    for m in [*legal, *cands]:
        got = _call(lambda m=m: rules.validate_move(v, m, o, ruleset=ruleset))
        assert not isinstance(got, tuple) or got[0] != "raised", (
            f"{where}: validate_move {m} raised {got}, legal_moves did not")
        if m in listed:
            assert got.ok, f"{where}: legal_moves lists {m}, validate_move gives {got}"
            assert _apply_ok(v, m), f"{where}: legal {m} makes a fifth copy"
            seen[m.kind] = seen.get(m.kind, 0) + 1
            continue
        if got.ok:
            named = m.kind == "hu" and len(m.tiles) == 1
            assert named and hu_listed, f"{where}: validate_move accepts {m}, not listed"
            continue
        assert got.code in codes, f"{where}: {m} refused with undocumented code {got}"
        if m.kind == "hu" and m.tiles and m.tiles[0] == _win_tile(v) and m.tiles[0] is not None:
            assert not hu_listed, f"{where}: hu is listed, {m} (its tile) refused: {got}"
    return seen


@pytest.mark.parametrize("ruleset", rules.RULESETS)
def test_moves_sweep(ruleset: str) -> None:
    rng = random.Random(7373 + rules.RULESETS.index(ruleset))
    codes = _codes(ruleset)
    seen: dict[str, int] = {}
    for _ in range(N):
        v, o = _sample(rng, ruleset)
        for k, n in _check(ruleset, v, o, codes).items():
            seen[k] = seen.get(k, 0) + n
    # (the sample reaches the move kinds: not a sweep of refusals only)
    want = {"discard", "peng", "hu", "pass"}
    assert want <= set(seen), (ruleset, seen)
