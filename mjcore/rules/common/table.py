"""The fan table as data, and the combination policies that turn it into a value.

A rule set's table is its patterns (``PatternSpec``: a predicate over one reading of the hand
plus the win context), its extras (``ExtraSpec``: counted add-ons such as 根 or 自摸), its
floors (``FloorSpec``: conditions that raise the value to a minimum without adding to it)
and one ``Policy`` that says how they combine. Every field here is used by scoring, and
``describe()`` shows exactly these fields, so a client can show the table without
hard-coding it. Each row's ``when`` (and an extra's ``times``) states its predicate as data
for compiled scoring (``common.compiled``; ``None``: the row is Python-only).

Policies (``Policy.kind``):

``highest_plus_extras``  the one highest pattern (patterns it supersedes dropped first) plus
                         the extras, then the cap (Sichuan).
``capped_base``          a ``special`` pattern counts alone (the highest; ties by table
                         order). Otherwise one ``inside`` base pattern (the highest; ties by
                         table order) plus the extras, capped; then floors (Guangdong 爆胡).
``additive``             every pattern that holds and is not superseded adds up, plus extras
                         (Wuhan 大胡).
``shape_times_event``    the value is a shape pattern's value times the product of the event
                         extras' values. With ``Policy.exponent`` the values are powers of two
                         written as their exponents (Hangzhou's fan = log2 of the multiplier):
                         they add up, the cap applies to the multiplier ``2**value``
                         (``Policy.multiplier``), and the reading's rank is the table position
                         of its highest contribution (extras after the patterns). In both
                         forms a shape worth ×1 (平胡) is listed only when no event applies.
``sum_times_extras``     every pattern that holds and is not superseded adds up to a base,
                         which the extras' values multiply (Wuhan: 大胡 add up to H, 硬胡 and
                         the like double it).

In every policy a ``flat`` pattern (天胡, 天和 …) replaces the whole score when its value is at
least the ordinary one (``Policy.flat_rule="at_least"``), or whatever the ordinary one is
(``"alone"``, Taiwan's first-turn wins). A ``cap_exempt`` pattern's value is not capped. In the
``additive`` policy a pattern marked ``each`` counts how often it holds (三元牌 per dragon
pung), adding its value that many times.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from mjcore.rules.common.memo import Memo
from mjcore.rules.common.results import PatternHit

POLICIES: dict[str, str] = {
    "highest_plus_extras": "the one highest pattern (superseded ones dropped) plus the extras, "
    "then the cap",
    "capped_base": "a special pattern alone (the highest); else one inside base pattern plus the "
    "extras, capped; then floors raise the value to the floor value",
    "additive": "every pattern that holds and is not superseded adds up, plus the extras",
    "shape_times_event": "a shape pattern's value times the product of the event extras",
    "sum_times_extras": "every pattern that holds and is not superseded adds up, times the "
    "product of the extras",
}


@dataclass(frozen=True, slots=True)
class PatternSpec:
    """One row of a fan table.

    ``predicate(reading, context, options)`` says whether the pattern holds for one reading
    of the hand. ``value_option`` names the option whose value replaces ``fan``;
    ``enabled_by`` a boolean option that must be on for the pattern to exist (or a value
    option whose 0 means off, e.g. Taiwan's ``pinghu_tai``); ``supersedes``
    the patterns it replaces when both hold (不重复计算), unless the boolean option
    ``supersedes_unless`` is on; ``flat`` patterns replace the whole score (``flat_option``: a
    boolean option that makes the pattern flat when on, an ordinary one when off);
    ``each``: the predicate returns how many times the pattern holds (a count; each time adds
    the value under the ``additive`` policy); ``cap_exempt`` patterns are not capped;
    ``absorbs`` lists extras the pattern already contains (龙七对 holds one 根); ``klass`` is
    ``inside`` or ``special`` for the ``capped_base`` policy; ``shape`` the winning shape it
    needs (``any`` for all)."""

    id: str
    name: str
    fan: int
    description: str
    predicate: Callable[[Any, Any, Any], bool]
    shape: str = "standard"
    klass: str = "inside"
    supersedes: tuple[str, ...] = ()
    flat: bool = False
    cap_exempt: bool = False
    absorbs: tuple[tuple[str, int], ...] = ()
    value_option: str | None = None
    enabled_by: str | None = None
    columns: tuple[tuple[str, int], ...] = ()  # values in other units, chosen by the options
    each: bool = False
    flat_option: str | None = None
    supersedes_unless: str | None = None
    # the predicate as data, for compiled scoring (``common.compiled``): named features that
    # must hold (``"qing"``), must not (``"!has19"``) or counted ones (``"dragon_pungs==2"``);
    # an ``each`` pattern's count as data: ``times``, a counted feature (``"dragon_pungs"``)
    when: tuple[str, ...] | None = None
    times: str | None = None

    def value(self, options: Any) -> int:
        return _value(self, options)

    def enabled(self, options: Any) -> bool:
        return self.enabled_by is None or bool(getattr(options, self.enabled_by))

    def is_flat(self, options: Any) -> bool:
        return self.flat if self.flat_option is None else bool(getattr(options, self.flat_option))

    def superseded(self, options: Any) -> tuple[str, ...]:
        """The patterns this one replaces under ``options``."""
        if self.supersedes_unless is not None and getattr(options, self.supersedes_unless):
            return ()
        return self.supersedes

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id, "name": self.name, "fan": self.fan, "description": self.description,
            "shape": self.shape, "class": self.klass, "supersedes": list(self.supersedes),
            "flat": self.flat, "cap_exempt": self.cap_exempt,
            "absorbs": [{"id": a, "count": n} for a, n in self.absorbs],
            "value_option": self.value_option, "enabled_by": self.enabled_by,
            "columns": dict(self.columns), "per_occurrence": self.each,
            "flat_option": self.flat_option, "supersedes_unless": self.supersedes_unless,
            "when": None if self.when is None else list(self.when), "times": self.times,
        }


def _value(spec: PatternSpec | ExtraSpec, options: Any) -> int:
    """A pattern's or extra's value under ``options``: the column the options select when the
    spec has one (e.g. Sichuan's points table), else the value option's, else ``fan``."""
    if spec.columns:
        column = options.value_column()
        for name, v in spec.columns:
            if name == column:
                return v
    if spec.value_option is not None:
        return int(getattr(options, spec.value_option))
    return spec.fan


@dataclass(frozen=True, slots=True)
class ExtraSpec:
    """An extra (add-on) that stacks on the pattern: ``count(reading, context, options)`` says
    how many times it applies, each time adding ``fan`` (or, for ``shape_times_event``,
    multiplying by it). ``context=False`` marks extras that depend on the hand alone."""

    id: str
    name: str
    fan: int
    description: str
    count: Callable[[Any, Any, Any], int]
    enabled_by: str | None = None
    value_option: str | None = None
    each: bool = False
    context: bool = True
    columns: tuple[tuple[str, int], ...] = ()
    # ``count`` as data (compiled scoring): it applies once when ``when`` holds, or ``times``
    # (a counted feature, e.g. ``"gen"``) times
    when: tuple[str, ...] | None = None
    times: str | None = None

    def value(self, options: Any) -> int:
        return _value(self, options)

    def enabled(self, options: Any) -> bool:
        return self.enabled_by is None or bool(getattr(options, self.enabled_by))

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id, "name": self.name, "fan": self.fan, "description": self.description,
            "enabled_by": self.enabled_by, "value_option": self.value_option,
            "per_occurrence": self.each, "depends_on_context": self.context,
            "columns": dict(self.columns),
            "when": None if self.when is None else list(self.when), "times": self.times,
        }


@dataclass(frozen=True, slots=True)
class FloorSpec:
    """A condition that raises the value to the policy's floor value (保底); listed with 0."""

    id: str
    name: str
    description: str
    holds: Callable[[Any, Any, Any], bool]
    enabled_by: str | None = None
    when: tuple[str, ...] | None = None  # ``holds`` as data (compiled scoring)

    def enabled(self, options: Any) -> bool:
        return self.enabled_by is None or bool(getattr(options, self.enabled_by))

    def describe(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "description": self.description,
                "enabled_by": self.enabled_by,
                "when": None if self.when is None else list(self.when)}


@dataclass(frozen=True, slots=True)
class Policy:
    """How a table's entries combine: ``kind`` (see ``POLICIES``), the option holding the cap
    (``None``: no cap; an option value of ``None`` also means no cap) and the option holding
    the value floors raise to. ``flat_rule``: a flat pattern replaces the ordinary score when
    it is worth ``at_least`` as much, or always (``alone``)."""

    kind: str
    cap_option: str | None = None
    floor_option: str | None = None
    exponent: bool = False  # shape_times_event: values are log2 of the factors (see above)
    flat_rule: str = "at_least"

    def __post_init__(self) -> None:
        if self.kind not in POLICIES:
            raise ValueError(f"unknown policy {self.kind!r}")
        if self.exponent and self.kind != "shape_times_event":
            raise ValueError("exponent values are for the shape_times_event policy")
        if self.flat_rule not in ("at_least", "alone"):
            raise ValueError(f"unknown flat rule {self.flat_rule!r}")

    def cap(self, options: Any) -> int | None:
        return None if self.cap_option is None else getattr(options, self.cap_option)

    def multiplier(self, value: int, options: Any) -> int:
        """What one stake is multiplied by for ``value``: ``2**value`` for exponent values,
        else the value itself; then the cap, which limits the multiplier."""
        m = 1 << value if self.exponent else value
        cap = self.cap(options)
        return m if cap is None else min(m, cap)

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind, "description": POLICIES[self.kind],
                "cap_option": self.cap_option, "floor_option": self.floor_option,
                "exponent": self.exponent, "flat_rule": self.flat_rule}


class Valued(NamedTuple):
    """One reading's value under a table: ``value`` (final), ``raw`` (sum of the listed
    contributions), ``hits`` (what is listed) and ``rank`` (table position of the main
    pattern, for tie-breaks: lower is earlier)."""

    value: int
    raw: int
    hits: tuple[PatternHit, ...]
    rank: int


@dataclass(frozen=True)
class FanTable:
    """A rule set's whole table: policy, patterns, extras and floors."""

    policy: Policy
    patterns: tuple[PatternSpec, ...]
    extras: tuple[ExtraSpec, ...] = ()
    floors: tuple[FloorSpec, ...] = ()
    # the rule set's own context features the ``when`` conditions may name (compiled scoring)
    context_features: tuple[str, ...] = ()
    # the rule set's counted context features (a count per win context, e.g. Hangzhou's 飘)
    context_counts: tuple[str, ...] = ()
    # per options object: (ordinary, flat) enabled patterns with their table positions
    _active: Memo[Any, tuple[tuple[tuple[int, PatternSpec], ...], ...]] = field(
        default_factory=lambda: Memo(4096), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        ids = [p.id for p in self.patterns]
        if len(set(ids)) != len(ids):
            raise ValueError("pattern ids repeat")
        for p in self.patterns:
            unknown = set(p.supersedes) - set(ids)
            if unknown:
                raise ValueError(f"{p.id} supersedes unknown patterns {sorted(unknown)}")
            if p.klass not in ("inside", "special"):
                raise ValueError(f"{p.id}: class must be inside or special")
        from mjcore.rules.common.compiled import check_terms  # (it imports this module)

        for spec in (*self.patterns, *self.extras, *self.floors):
            check_terms(spec, self.context_features, self.context_counts)

    def active(self, options: Any) -> tuple[tuple[tuple[int, PatternSpec], ...], ...]:
        """(ordinary, flat) patterns enabled under ``options``, with their table positions;
        worked out once per options object (resolved options are one object per input)."""
        try:
            got = self._active.get(options)
        except TypeError:  # unhashable options: not memoised
            got = None
        if got is None:
            on = [(i, p) for i, p in enumerate(self.patterns) if p.enabled(options)]
            got = (tuple((i, p) for i, p in on if not p.is_flat(options)),
                   tuple((i, p) for i, p in on if p.is_flat(options)))
            try:
                self._active.keep(options, got)
            except TypeError:
                pass
        return got

    def pattern(self, id_: str) -> PatternSpec:
        for p in self.patterns:
            if p.id == id_:
                return p
        raise KeyError(id_)

    def describe(self) -> dict[str, Any]:
        return {
            "policy": self.policy.describe(),
            "context_features": list(self.context_features),
            "context_counts": list(self.context_counts),
            "patterns": [p.describe() for p in self.patterns],
            "extras": [e.describe() for e in self.extras],
            "floors": [f.describe() for f in self.floors],
        }

    # ------------------------------------------------------------------ evaluation
    def matching(self, reading: Any, ctx: Any, options: Any) -> list[tuple[int, PatternSpec]]:
        """(table position, spec) of every enabled pattern that holds, superseded ones
        dropped, flat patterns excluded."""
        return [(i, p) for i, p, _ in self.counted(reading, ctx, options)]

    def counted(self, reading: Any, ctx: Any, options: Any) -> list[tuple[int, PatternSpec, int]]:
        """``matching`` with how many times each pattern holds (1 unless it is ``each``)."""
        found = []
        for i, p in self.active(options)[0]:
            n = p.predicate(reading, ctx, options)
            if n:
                found.append((i, p, int(n) if p.each else 1))
        dropped = {s for _, p, _ in found for s in p.superseded(options)}
        return [f for f in found if f[1].id not in dropped]

    def extra_hits(self, reading: Any, ctx: Any, options: Any,
                   absorbs: tuple[tuple[str, int], ...] = ()) -> list[PatternHit]:
        hits = []
        for e in self.extras:
            if not e.enabled(options):
                continue
            n = e.count(reading, ctx, options)
            for aid, k in absorbs:
                if aid == e.id:
                    n -= k
            if n > 0 and e.value(options):
                hits.append(PatternHit(e.id, e.name, n * e.value(options)))
        return hits

    def evaluate(self, reading: Any, ctx: Any, options: Any) -> Valued | None:
        """The value of one reading (``None`` when no pattern holds)."""
        kind = self.policy.kind
        times = self.counted(reading, ctx, options)
        found = [(i, p) for i, p, _ in times]
        cap = self.policy.cap(options)
        value: Valued | None
        if kind == "capped_base":
            value = self._capped_base(found, reading, ctx, options, cap)
        elif not found:
            value = None
        elif kind == "highest_plus_extras":
            i, best = max(found, key=lambda ip: (ip[1].value(options) - sum(
                n for _, n in ip[1].absorbs), ip[1].value(options), -ip[0]))
            hits = [PatternHit(best.id, best.name, best.value(options))]
            hits += self.extra_hits(reading, ctx, options, best.absorbs)
            raw = sum(h.fan for h in hits)
            capped = raw if cap is None or best.cap_exempt else min(raw, cap)
            value = Valued(capped, raw, tuple(hits), i)
        elif kind == "additive":
            hits = [PatternHit(p.id, p.name, n * p.value(options)) for _, p, n in times]
            hits += self.extra_hits(reading, ctx, options)
            raw = sum(h.fan for h in hits)
            exempt = any(p.cap_exempt for _, p in found)
            value = Valued(raw if cap is None or exempt else min(raw, cap), raw, tuple(hits),
                           found[0][0])
        elif kind == "sum_times_extras":
            hits = [PatternHit(p.id, p.name, n * p.value(options)) for _, p, n in times]
            base = sum(h.fan for h in hits)
            extras = self.extra_hits(reading, ctx, options)
            product = base
            for h in extras:
                product *= h.fan
            value = Valued(product if cap is None else min(product, cap), product,
                           tuple(hits + extras), found[0][0])
        else:  # shape_times_event
            value = self._shape_times_event(found, reading, ctx, options, cap)
        return self._flat(value, reading, ctx, options)

    def _shape_times_event(self, found: list[tuple[int, PatternSpec]], reading: Any, ctx: Any,
                           options: Any, cap: int | None) -> Valued:
        i, best = max(found, key=lambda ip: (ip[1].value(options), -ip[0]))
        exponent = self.policy.exponent
        shape = PatternHit(best.id, best.name, best.value(options))
        events = self.extra_hits(reading, ctx, options)
        unit = 0 if exponent else 1  # a shape worth ×1 is listed only alone
        hits = ([shape] if shape.fan != unit or not events else []) + events
        if exponent:
            raw = shape.fan + sum(h.fan for h in events)
            # rank: the table position of the highest contribution (extras after patterns)
            ids = [e.id for e in self.extras]
            top = max(h.fan for h in hits)
            rank = min(i if h.id == best.id else len(self.patterns) + ids.index(h.id)
                       for h in hits if h.fan == top)
            return Valued(raw, raw, tuple(hits), rank)
        product = shape.fan
        for h in events:
            product *= h.fan
        return Valued(product if cap is None else min(product, cap), product, tuple(hits), i)

    def _capped_base(self, found: list[tuple[int, PatternSpec]], reading: Any, ctx: Any,
                     options: Any, cap: int | None) -> Valued | None:
        specials = [(i, p) for i, p in found if p.klass == "special"]
        if specials:
            i, best = max(specials, key=lambda ip: (ip[1].value(options), -ip[0]))
            fan = best.value(options)
            hits = [PatternHit(best.id, best.name, fan)]
            value = Valued(fan, fan, tuple(hits), i)
        else:
            inside = [(i, p) for i, p in found if p.klass == "inside"]
            if not inside:
                return None
            i, base = max(inside, key=lambda ip: (ip[1].value(options), -ip[0]))
            hits = [PatternHit(base.id, base.name, base.value(options))]
            hits += self.extra_hits(reading, ctx, options)
            raw = sum(h.fan for h in hits)
            capped = raw if cap is None or base.cap_exempt else min(raw, cap)
            value = Valued(capped, raw, tuple(hits), i)
        floors = [f for f in self.floors if f.enabled(options) and f.holds(reading, ctx, options)]
        if floors:
            floor = int(getattr(options, self.policy.floor_option or "", 0) or 0)
            value = Valued(max(value.value, floor), value.raw,
                           value.hits + tuple(PatternHit(f.id, f.name, 0) for f in floors),
                           value.rank)
        return value

    def _flat(self, value: Valued | None, reading: Any, ctx: Any, options: Any) -> Valued | None:
        alone = self.policy.flat_rule == "alone"
        for i, p in self.active(options)[1]:
            if p.predicate(reading, ctx, options):
                fan = p.value(options)
                if alone or value is None or fan >= value.value:
                    return Valued(fan, fan, (PatternHit(p.id, p.name, fan),), i)
        return value


def best_reading(values: list[tuple[Valued, Any]]) -> tuple[Valued, Any] | None:
    """The reading worth most: highest value, then highest raw, then the earlier main pattern
    in table order, then the first listed."""
    best: tuple[Valued, Any] | None = None
    for v, r in values:
        if best is None or (v.value, v.raw, -v.rank) > (best[0].value, best[0].raw, -best[0].rank):
            best = (v, r)
    return best
