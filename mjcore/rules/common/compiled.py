"""Compiled scoring: a fan table's declarative conditions turned into the arrays that the
core's one generic evaluator runs (``_core.CompiledTable``; docs/rules.md, "Compiled scoring").

Each pattern, extra and floor says *as data* when it holds (``when=``), beside its Python
predicate: a tuple of terms, all of which must hold. A term is a feature name (``"qing"``),
a negated one (``"!has19"``) or a counted feature with a threshold (``"dragon_pungs==2"``,
``"wind_pungs>=3"``). The features are the core's (``FEATURES``: of the reading and the hand;
``COUNTED``) and the rule set's own context features (``FanTable.context_features``, whose
bits the rule set computes per win context). ``compile_table`` resolves everything the
options decide (enabled rows, values, supersedes, flat, the cap) once per options object.

The Python predicates stay as the obviously correct twin: ``MJ_PURE_SCORING=1`` in the
environment (read once at import) makes every rule set score on its Python path, and
``features_of`` / ``holds`` are the Python statement of what the C features mean, which the
tests hold against both the C features and the predicates.
"""

from __future__ import annotations

import os
import re
import sys
import types
from collections.abc import Callable
from typing import Any

from mjcore._core import (
    CONTEXT_BIT,
    CONTEXT_COUNTED_AT,
    CONTEXT_COUNTED_MAX,
    COUNTED,
    FEATURES,
    PLACED_FEATURES,
    POLICY_CODES,
    WILD_FEATURES,
    CompiledContext,
    CompiledEntry,
    CompiledTable,
    ContextPart,
    context_key,
    set_pure_scoring,
)
from mjcore.hand import Decomposition
from mjcore.rules.common.memo import Memo
from mjcore.rules.common.results import PatternHit, ScoreResult, ValuedWait

__all__ = ["COUNTED", "FEATURES", "PURE", "WILD_FEATURES", "CompiledContext", "CompiledEntry",
           "CompiledTable", "ContextPart", "TABLES_KEPT", "check_terms", "compile_table",
           "context_bits", "entry_key", "feature_bit", "features_of", "holds", "serve_waits",
           "wild_features_of"]

PURE = os.environ.get("MJ_PURE_SCORING", "") not in ("", "0")
"""``MJ_PURE_SCORING=1``: every rule set scores on its Python path (read once at import);
setting it (``compiled.PURE = True``) switches every call from then on."""


class _Switches(types.ModuleType):
    """This module, whose ``PURE`` also sets the compiled entries' switch: they read it in
    C on every call."""

    def __setattr__(self, name: str, value: Any) -> None:
        super().__setattr__(name, value)
        if name == "PURE":
            set_pure_scoring(bool(value))


sys.modules[__name__].__class__ = _Switches
set_pure_scoring(PURE)

_COUNTED_TERM = re.compile(r"^([a-z0-9_]+)(==|>=|<=)(\d|[a-z][a-z0-9_]*)$")
_OPS = {"==": 0, ">=": 1, "<=": 2}
_TIMES = 9  # an extra's hits are made for 0..8 times (more: the Python path answers)


def _parse(term: str, context: tuple[str, ...], counted: tuple[str, ...] = (),
           ) -> tuple[str, Any]:
    """("on" | "off", bit), ("count", (index, op, k or an option's name)) or, for an
    either-or term ``"a|!b"`` (one of its features holds or one of its negated ones does
    not), ("any", (on mask, off mask)); ValueError if unknown. ``counted``: the rule set's
    counted context features (``FanTable.context_counts``)."""
    if "|" in term:
        on = off = 0
        for alt in term.split("|"):
            kind, bit = _parse(alt, context, counted)
            if kind == "count" or kind == "any":
                raise ValueError(f"an either-or term names features only: {term!r}")
            if kind == "on":
                on |= 1 << bit
            else:
                off |= 1 << bit
        return "any", (on, off)
    m = _COUNTED_TERM.match(term)
    if m:
        name = m.group(1)
        if name not in COUNTED and name not in counted:
            raise ValueError(f"unknown counted feature {name!r} in {term!r}")
        k = m.group(3)
        return "count", (_counted_index(name, counted), _OPS[m.group(2)],
                         int(k) if k.isdigit() else k)
    name = term[1:] if term.startswith("!") else term
    if name in FEATURES:
        bit = FEATURES.index(name)
    elif name in context:
        bit = CONTEXT_BIT + context.index(name)
    else:
        raise ValueError(f"unknown feature {name!r} (known: {', '.join(FEATURES + context)})")
    return ("off" if term.startswith("!") else "on"), bit


def check_terms(spec: Any, context: tuple[str, ...], counted: tuple[str, ...] = ()) -> None:
    """Refuse a table row whose condition names an unknown feature (at table definition)."""
    for term in spec.when or ():
        _parse(term, context, counted)
    times = getattr(spec, "times", None)
    if getattr(spec, "each", False) and spec.when is not None and times is None:
        raise ValueError(f"{spec.id}: an each pattern with a when needs its times")
    if times is not None and times not in COUNTED and times not in counted:
        raise ValueError(f"{spec.id}: unknown counted feature {times!r}")
    if len(context) > 64 - CONTEXT_BIT:
        raise ValueError("too many context features")
    if len(counted) > CONTEXT_COUNTED_MAX:
        raise ValueError(f"at most {CONTEXT_COUNTED_MAX} counted context features")


def _cond(when: tuple[str, ...], context: tuple[str, ...], ccounts: tuple[str, ...] = (),
          options: Any = None) -> tuple[int, int, tuple[Any, ...], tuple[Any, ...]]:
    """(on mask, off mask, counted comparisons, either-or terms); a threshold naming an
    option takes its value under ``options``."""
    on = off = 0
    counted = []
    anys = []
    for term in when:
        kind, arg = _parse(term, context, ccounts)
        if kind == "on":
            on |= 1 << arg
        elif kind == "off":
            off |= 1 << arg
        elif kind == "any":
            anys.append(arg)
        else:
            idx, op, k = arg
            counted.append((idx, op, k if isinstance(k, int) else int(getattr(options, k))))
    return on, off, tuple(counted), tuple(anys)


_NO_CONTEXT: dict[str, object] = {}  # (never changed: the context of a call with none)

# A rule set's compiled tables kept, by options object (each about 40 KB with its look-up
# tables, and compiled again in well under a millisecond: options come from input, so bound)
TABLES_KEPT = 256


def entry_key(t: CompiledTable, entry: CompiledEntry, self_drawn: object,
              context: dict[str, object] | None,
              make: Callable[[], CompiledContext | None]) -> tuple[object, ...] | None:
    """The key ``t`` keeps a dict context (or none) compiled under, for a rule set whose
    ``entry`` has ``contexts``: ``context_key(self_drawn, context)``, one object per context
    for all the rule set's tables (remembered by the entry); the context compiled by
    ``make()`` and added to ``t`` first when ``t`` has none. None when ``make`` gives none (a
    context the rule set's Python path refuses); TypeError for an unhashable context value."""
    ck = context_key(self_drawn, context or _NO_CONTEXT)
    assert entry.contexts is not None
    key = entry.contexts.get(ck)
    if key is None or t.context(key) is None:
        c = make()
        if c is None:
            return None
        key = ck if key is None else key  # (a derived context's key is an int: kept)
        t.add_context(key, c)
        entry.remember_context(ck, key)
    return key


def serve_waits(entry: CompiledEntry, context: dict[str, object] | None, options: object,
                pair: tuple[CompiledContext, CompiledContext]) -> None:
    """Keep ``pair`` (a waits question's discard and self-drawn contexts, compiled for
    ``options``) for ``context`` in ``entry``'s contexts (under ``context_key(None, context)``,
    by options: a Memo), where the entry answers that context's next waits in C; a context
    with an unhashable value is never served."""
    contexts = entry.contexts
    assert contexts is not None
    try:
        key = context_key(None, context or _NO_CONTEXT)
        served = contexts.get(key)  # (a dict value, e.g. claims_from, is unhashable here)
    except TypeError:
        return
    if not isinstance(served, Memo):  # (none, or the plain dict of a context the entry derived)
        derived, served = served, Memo(64)  # (options objects: few, but bounded)
        served.update(derived or {})
        entry.remember_context(key, served)
    served.keep(options, pair)


def feature_bit(name: str) -> int:
    """The bit of one of the core's ``FEATURES``."""
    return 1 << FEATURES.index(name)


def context_bits(table: Any, names: tuple[str, ...] | list[str]) -> int:
    """The bits of the rule set's context features ``names`` (those that hold)."""
    out = 0
    for n in names:
        out |= 1 << (CONTEXT_BIT + table.context_features.index(n))
    return out


def compile_table(table: Any, options: Any, *, name: str, unit: str, hand_tiles: int = 14,
                  max_suits: int = 3, no_honours: bool = False, qidui: bool = True,
                  shisanyao: bool = False, ligu: bool = False, min_raw: int = 0,
                  tie_by_value: bool = False, flat_after: bool = False,
                  mult_pow2: bool = False, hand_extras_first: bool = False,
                  multipliers: tuple[int, ...] | None = None, by_words: bool = True,
                  wild_pair_sets_wild: bool | None = None, placed: bool = False,
                  meld_factors: dict[str, int] | None = None, open_factor: int = 1,
                  open_kinds: tuple[str, ...] = (), no_kinds: tuple[int, ...] = (),
                  must_open: bool = False, one_tile_melds: dict[str, str] | None = None,
                  tie_patterns: tuple[str, ...] = (), result_type: Any = None,
                  ) -> CompiledTable | None:
    """The table under ``options`` as a ``CompiledTable``, or None when a row has no ``when``
    or the policy has no compiled form (the Python path then scores).

    The knobs say what the rule set's scoring does beyond ``FanTable.evaluate``:
    ``tie_by_value``: readings of equal value and total go to the higher main pattern (else
    the earlier in table order), then the first listed; ``qidui``/``shisanyao``: the special
    readings listed after the standard ones, and ``ligu`` 嚦咕嚦咕 (seven pairs and a pung) after
    them; ``min_raw``: a best reading worth less is left to the Python path (which refuses
    it); ``flat_after``: a flat pattern is
    weighed after the best reading, against its total before the cap, and is then capped
    (else it replaces each reading whose capped value it reaches); ``mult_pow2``: the
    multiplier is ``2**value`` (else the value); ``multipliers``: the multiplier by value
    instead (a value past its end: the Python path answers); ``hand_extras_first``: extras that depend on
    the hand alone are listed before those of the context; ``by_words=False``: every reading
    is valued one by one, never once per reading word (the twin the tests hold the words
    against; the core takes the words whenever the conditions allow); ``wild_pair_sets_wild``
    (not None: a table for hands with wilds, scored by ``score_wild``): whether the sets
    beside a ``wild_pair`` may hold wilds. A wild table's conditions name ``WILD_FEATURES``,
    counted ``gen`` / ``melds`` and the context's features only (else ValueError). The
    ``shape_times_event`` policy is compiled in its exponent form, for wild tables, and
    ``sum_times_extras`` for ``placed`` ones.

    ``placed`` (a table for ``score_placed``: every placement of the wilds is a reading, its
    features ``PLACED_FEATURES`` and counted ``melds`` / ``wilds_in``): the hand's own
    doublings are ``meld_factors`` (by meld kind, multiplied) and ``open_factor`` once when a
    meld of ``open_kinds`` is declared; a hand holding a kind of ``no_kinds`` concealed, or
    without such a meld when ``must_open``, goes to the Python path; ``one_tile_melds``
    names the one-tile melds laid aside (kind -> ``"wild"``: of the wild kind, or
    ``"no_kinds"``: of those kinds); ``tie_patterns``: equal readings go to the harder one (no
    wild standing in), then the more of these patterns, then the one holding the earlier."""
    policy = table.policy
    if policy.kind not in POLICY_CODES:
        return None
    wild = wild_pair_sets_wild is not None
    if policy.kind == "shape_times_event" and not (policy.exponent and wild):
        return None
    if policy.kind == "sum_times_extras" and not placed:  # (its hits: ``score_placed``'s)
        return None
    ctx = table.context_features
    cc = table.context_counts
    rows = [p for p in table.patterns if p.enabled(options)]
    extras = [e for e in table.extras if e.enabled(options)]
    if hand_extras_first:
        extras = [e for e in extras if not e.context] + [e for e in extras if e.context]
    floors = [f for f in table.floors if f.enabled(options)]
    if any(r.when is None for r in (*rows, *floors)) or any(
            e.when is None and e.times is None for e in extras):
        return None
    if wild or placed:
        _check_wild(rows, extras, floors, PLACED_FEATURES if placed else WILD_FEATURES,
                    ("melds", "wilds_in") if placed else ("gen", "melds"))
    pos = {p.id: i for i, p in enumerate(rows)}
    extra_pos = {e.id: i for i, e in enumerate(extras)}
    patterns = []
    for p in rows:
        if len(p.absorbs) > 1 or (p.each and policy.kind != "additive"):
            return None
        absorb = (-1, 0)
        for aid, n in p.absorbs:
            absorb = (extra_pos.get(aid, -1), n)
        sup = 0
        for s in p.superseded(options):
            if s in pos:
                sup |= 1 << pos[s]
        patterns.append({
            "when": _cond(p.when or (), ctx, cc, options), "value": p.value(options), "supersedes": sup,
            "flat": p.is_flat(options), "cap_exempt": p.cap_exempt,
            "special": p.klass == "special", "absorb": absorb,
            "times": -1 if p.times is None else _counted_index(p.times, cc)})
    cap = policy.cap(options)
    return CompiledTable({
        "patterns": patterns,
        "extras": [{"when": _cond(e.when or (), ctx, cc, options),
                    "times": -1 if e.times is None else _counted_index(e.times, cc),
                    "value": e.value(options)} for e in extras],
        "floors": [{"when": _cond(f.when or (), ctx, cc, options)} for f in floors],
        "policy": POLICY_CODES[policy.kind],
        "cap": cap,
        "floor_value": int(getattr(options, policy.floor_option or "", 0) or 0),
        "tie_by_value": tie_by_value, "flat_after": flat_after, "mult_pow2": mult_pow2,
        "multipliers": multipliers, "by_words": by_words,
        "hand_tiles": hand_tiles, "max_suits": max_suits, "no_honours": no_honours,
        "qidui": qidui, "shisanyao": shisanyao, "ligu": ligu, "min_raw": min_raw,
        "flat_alone": policy.flat_rule == "alone",
        "pattern_hits": [PatternHit(p.id, p.name, p.value(options)) for p in rows],
        "pattern_times_hits": [[PatternHit(p.id, p.name, n * p.value(options))
                                for n in range(_TIMES)] for p in rows]
        if policy.kind == "additive" else [],
        "extra_hits": [[PatternHit(e.id, e.name, n * e.value(options)) for n in range(_TIMES)]
                       for e in extras],
        "floor_hits": [PatternHit(f.id, f.name, 0) for f in floors],
        "result_type": result_type or ScoreResult, "decomposition_type": Decomposition,
        "wait_type": ValuedWait,
        "name": name, "unit": unit,
        "wilds": wild,
        "wild_pair_sets_wild": True if wild_pair_sets_wild is None else wild_pair_sets_wild,
        "placed": placed, "meld_factors": dict(meld_factors or {}), "open_factor": open_factor,
        "open_kinds": frozenset(open_kinds), "no_kinds": sum(1 << k for k in no_kinds),
        "must_open": must_open, "one_tile_melds": dict(one_tile_melds or {}),
        "tie_patterns": sum(1 << pos[i] for i in tie_patterns if i in pos),
    })


def _counted_index(name: str, ccounts: tuple[str, ...]) -> int:
    return COUNTED.index(name) if name in COUNTED else CONTEXT_COUNTED_AT + ccounts.index(name)


def _check_wild(rows: list[Any], extras: list[Any], floors: list[Any],
                features: tuple[str, ...], counted: tuple[str, ...]) -> None:
    """A wild reading states only ``features`` (and the ``counted`` ones): a row naming
    another core feature would never hold there, so it is refused."""
    for spec in (*rows, *extras, *floors):
        if getattr(spec, "flat", False) or getattr(spec, "flat_option", None):
            raise ValueError(f"{spec.id}: flat rows are not compiled for wild tables")
        for term in (*(spec.when or ()), *((spec.times,) if getattr(spec, "times", None)
                                           else ())):
            for part in term.split("|"):
                m = _COUNTED_TERM.match(part)
                name = m.group(1) if m else part.lstrip("!")
                if (name in FEATURES and name not in features) or (
                        name in COUNTED and name not in counted):
                    raise ValueError(f"{spec.id}: {name!r} is not a feature of a wild reading")


# --------------------------------------------------------------------------- the Python twin

def _term(t: int) -> bool:
    return t < 27 and t % 9 in (0, 8)


def features_of(r: Any, seat_wind: int = -1, round_wind: int = -1, wild: int = -1, *,
                slot: int | None = None, self_drawn: bool = True, waits: int = 0,
                ) -> tuple[set[str], dict[str, int]]:
    """What the C features say of one ``common.readings.Reading``, stated plainly: the names
    of the boolean features that hold, and the counted ones. With ``wild`` (the wild kind of
    a reading of ``wild_readings``) the tiles are read as placed: each wild as the kind it
    stands for, ``wilds_in`` those standing for another kind. With the winning tile's ``slot``
    (an index in ``r.sets``, -1 for the pair; see ``readings.win_slots``) also the wait's
    shape and the concealed pungs (on a discard win, ``self_drawn`` False, the pung the
    discard completed is not concealed); ``waits``: the hand's wait mask before the win."""
    held = list(r.held)
    for _, k in r.wilds if wild >= 0 else ():
        held[wild] -= 1
        held[k] += 1
    kinds = [t for t in range(34) if held[t]]
    suits = {t // 9 for t in kinds if t < 27}
    hon = any(t >= 27 for t in kinds)
    melds = [s for s in r.sets if s.meld]
    concealed_counts = list(held)
    for s in melds:  # the concealed part: held less the declared sets
        for k in range(3 if s.kind == "chow" else 3 if s.kind == "pung" else 4):
            concealed_counts[s.tile + (k if s.kind == "chow" else 0)] -= 1
    f: set[str] = set()
    if len(suits) == 1:
        f.add("hun" if hon else "qing")
    if not suits and hon:
        f.add("zi")
    if all(t < 27 and t % 9 in (1, 4, 7) for t in kinds):
        f.add("only258")
    if any(c == 4 for c in concealed_counts):
        f.add("long")
    if all(_term(t) for t in kinds):
        f.add("terminals_only")
    if all(_term(t) or t >= 27 for t in kinds) and any(_term(t) for t in kinds) and hon:
        f.add("terminals_honours")
    if any(_term(t) for t in kinds):
        f.add("has19")
    if hon:
        f.add("honours")
    if waits and not waits & (waits - 1):
        f.add("one_kind_wait")
    if all(s.meld == "angang" for s in melds):
        f.add("concealed")
    if len(melds) == 4:
        f.add("melds4")
        if all(s.meld != "angang" for s in melds):
            f.add("claimed4")
    if not melds and len(suits) == 1 and not hon:
        c = concealed_counts[min(suits) * 9:min(suits) * 9 + 9]
        if c[0] >= 3 and c[8] >= 3 and all(c[i] for i in range(1, 8)):
            f.add("nine_gates")
    pungs = [s for s in r.sets if s.kind != "chow"]
    if r.shape in ("standard", "ligu"):  # (嚦咕嚦咕's one set is its pung)
        if seat_wind >= 0 and any(s.tile == 27 + seat_wind for s in pungs):
            f.add("seat_wind_pung")
        if round_wind >= 0 and any(s.tile == 27 + round_wind for s in pungs):
            f.add("round_wind_pung")
    if r.shape == "ligu":
        f.add("ligu")
    if r.shape == "standard":
        f.add("standard")
        if not any(s.kind == "chow" for s in r.sets):
            f.add("pung")
        if all(s.kind == "chow" for s in r.sets):
            f.add("chow")
        if _term(r.pair) and all(_term(s.tile) or s.kind == "chow" and s.tile % 9 == 6
                                 for s in r.sets):
            f.add("yaojiu")
        if r.pair >= 31:
            f.add("dragon_pair")
        elif r.pair >= 27:
            f.add("wind_pair")
        elif r.pair >= 0 and r.pair % 3 == 1:
            f.add("pair258")
    elif r.shape.startswith("qidui"):
        f.add("qidui")
    elif r.shape == "shisanyao":
        f.add("shisanyao")
    with_sets = r.shape in ("standard", "ligu")
    anke = sum(1 for s in pungs if s.concealed)
    if slot is not None:
        w = r.win_tile
        s = r.sets[slot] if slot >= 0 else None
        if s is None:
            f.add("single_wait")
        elif s.kind == "chow":
            rank = s.tile % 9
            if (w == s.tile and rank <= 5) or (w == s.tile + 2 and rank >= 1):
                f.add("two_sided_wait")
            if w == s.tile + 1 or (w == s.tile + 2 and rank == 0) or (w == s.tile and rank == 6):
                f.add("single_wait")
        elif not self_drawn:
            anke -= 1
    counts = {
        "gen": sum(1 for c in held if c == 4),
        "melds": len(melds),
        "dragon_pungs": sum(1 for s in pungs if s.tile >= 31) if with_sets else 0,
        "wind_pungs": sum(1 for s in pungs if 27 <= s.tile < 31) if with_sets else 0,
        "open_melds": sum(1 for s in melds if s.meld != "angang"),
        "concealed_pungs": anke if slot is not None else 0,
        "flower_sets": 0,
        "seat_flowers": 0,
        "wilds_in": sum(1 for _, k in r.wilds if k != wild) if wild >= 0 else 0,
    }
    return f, counts


def wild_features_of(shape: str, wild_pair: bool, naturals: Any, melds: int,
                     ) -> tuple[set[str], dict[str, int]]:
    """What the C features say of one wild reading (``score_wild``), stated plainly: its shape
    (``standard`` or ``qidui``), ``wild_pair`` when the winning tile and a wild are the pair,
    and counted ``gen`` (kinds of which four naturals are held, ``naturals`` in role
    coordinates) and ``melds``."""
    f = {shape} | ({"wild_pair"} if wild_pair else set())
    counts = dict.fromkeys(COUNTED, 0)
    counts.update(gen=sum(1 for n in naturals if n == 4), melds=melds)
    return f, counts


def holds(when: tuple[str, ...], features: set[str], counts: dict[str, int],
          options: Any = None) -> bool:
    """Whether a ``when`` condition holds for these features (the Python statement); a
    threshold naming an option takes its value under ``options``."""
    for term in when:
        if "|" in term:
            if not any(a[1:] not in features if a.startswith("!") else a in features
                       for a in term.split("|")):
                return False
            continue
        m = _COUNTED_TERM.match(term)
        if m:
            v, k = counts[m.group(1)], m.group(3)
            k_ = int(k) if k.isdigit() else int(getattr(options, k))
            op = m.group(2)
            if (op == "==" and v != k_) or (op == ">=" and v < k_) or (op == "<=" and v > k_):
                return False
        elif term.startswith("!"):
            if term[1:] in features:
                return False
        elif term not in features:
            return False
    return True
