"""The contract every rule set fulfils: specs as plain data, validated options, results.

A rule set is data (patterns, add-ons, options, presets, reason codes) plus an engine that
implements five pure functions (score, valued waits, move validation, legal moves,
settlement). Nothing here knows about protobuf; the service converts these plain objects.

The spec types are general enough for every rule set in the project's rules texts: honours
and flowers (``tiles``, ``honours``, ``flowers``), chi (``claims``), wild tiles
(``wild_tiles``), liabilities (``liabilities``), fixed-value or capped pattern tables
(``value_unit`` and ``PatternSpec.flat``/``cap_exempt``) and option-driven pattern values
(``PatternSpec.value_option``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from mjcore import MahjongError

OptionValue = int | bool | str | None
"""The type of one option value: integers, booleans, strings and ``None`` (e.g. no cap)."""

_KEY_COUNTER = itertools.count(1)


# --------------------------------------------------------------------------- options


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One knob of a rule set, with its default, what it may be and what it means.

    ``choices`` lists the allowed values (booleans are ``(False, True)``); otherwise the
    value is an integer in ``minimum`` … ``maximum`` (either bound may be open).
    ``none_allowed`` also admits ``None`` (written ``"none"`` by clients)."""

    name: str
    default: OptionValue
    description: str
    choices: tuple[OptionValue, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    none_allowed: bool = False

    @property
    def kind(self) -> str:
        if self.choices is not None:
            if all(isinstance(c, bool) for c in self.choices):
                return "bool"
            return "enum"
        return "int"

    def validate(self, value: object) -> OptionValue:
        """Return the canonical value or raise ``MahjongError('bad_option')``."""
        if value is None or (value == "none" and "none" not in (self.choices or ())):
            if self.none_allowed:
                return None
            raise MahjongError("bad_option", f"option {self.name!r} may not be none")
        kind = self.kind
        if kind == "bool":
            if isinstance(value, bool):
                return value
            raise MahjongError(
                "bad_option", f"option {self.name!r} must be true or false, got {value!r}"
            )
        if kind == "enum":
            assert self.choices is not None
            for choice in self.choices:
                # 3 and "3" are the same value for an option such as longqidui_fan.
                if value == choice or (
                    isinstance(choice, int) and isinstance(value, str) and value == str(choice)
                ):
                    if isinstance(value, bool) and not isinstance(choice, bool):
                        break
                    return choice
            allowed = ", ".join(str(c) for c in self.choices)
            raise MahjongError(
                "bad_option", f"option {self.name!r} must be one of {allowed}, got {value!r}"
            )
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise MahjongError(
                "bad_option", f"option {self.name!r} must be an integer, got {value!r}"
            )
        try:
            number = int(value)
        except ValueError:
            raise MahjongError(
                "bad_option", f"option {self.name!r} must be an integer, got {value!r}"
            ) from None
        if self.minimum is not None and number < self.minimum:
            raise MahjongError(
                "bad_option", f"option {self.name!r} must be at least {self.minimum}, got {number}"
            )
        if self.maximum is not None and number > self.maximum:
            raise MahjongError(
                "bad_option", f"option {self.name!r} must be at most {self.maximum}, got {number}"
            )
        return number

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "kind": self.kind,
            "default": self.default,
            "description": self.description,
        }
        if self.choices is not None:
            out["values"] = list(self.choices)
        else:
            out["minimum"] = self.minimum
            out["maximum"] = self.maximum
        out["none_allowed"] = self.none_allowed
        return out


# --------------------------------------------------------------------------- fan table


@dataclass(frozen=True, slots=True)
class PatternSpec:
    """One row of a fan table: a named hand pattern and its value.

    ``predicate(reading, context)`` says whether the pattern applies to one reading of the
    hand (one decomposition or special shape, summarised by the rule set) in one win
    context. ``value_option`` names the option whose value replaces ``fan``; ``enabled_by``
    the option that must be true for the pattern to exist; ``flat`` patterns take no add-on;
    ``absorbs`` lists add-ons the pattern already contains (龙七对 holds one 根)."""

    id: str
    name: str
    fan: int
    description: str
    predicate: Callable[[Any, Any], bool]
    shape: str = "standard"
    supersedes: tuple[str, ...] = ()
    flat: bool = False
    absorbs: tuple[tuple[str, int], ...] = ()
    value_option: str | None = None
    enabled_by: str | None = None
    cap_exempt: bool = False

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "fan": self.fan,
            "description": self.description,
            "shape": self.shape,
            "supersedes": list(self.supersedes),
            "flat": self.flat,
            "absorbs": [{"id": a, "count": n} for a, n in self.absorbs],
            "value_option": self.value_option,
            "enabled_by": self.enabled_by,
            "cap_exempt": self.cap_exempt,
        }


@dataclass(frozen=True, slots=True)
class AddOnSpec:
    """An add-on that stacks on the pattern (根, 杠上花 …): ``count(analysis, context,
    options)`` says how many times it applies; each time adds ``fan``. ``context=False``
    marks add-ons that depend on the hand alone (the engine may precompute them)."""

    id: str
    name: str
    fan: int
    description: str
    count: Callable[[Any, Any, Any], int]
    enabled_by: str | None = None
    each: bool = False
    context: bool = True

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "fan": self.fan,
            "description": self.description,
            "enabled_by": self.enabled_by,
            "per_occurrence": self.each,
            "depends_on_context": self.context,
        }


@dataclass(frozen=True, slots=True)
class Described:
    """A named code (context key, move kind, reason code, ledger reason) and its meaning."""

    id: str
    description: str

    def describe(self) -> dict[str, str]:
        return {"id": self.id, "description": self.description}


# --------------------------------------------------------------------------- results


class PatternHit(NamedTuple):
    """One pattern or add-on in a score: ``fan`` is its contribution (根 ×n gives n)."""

    id: str
    name: str
    fan: int


class ScoreResult(NamedTuple):
    """What a win is worth and who pays whom for it (an immutable named tuple).

    ``fan`` is after the cap, ``fan_uncapped`` before; ``multiplier`` is ``2**fan``;
    ``amount`` is what each paying seat pays (``base × 2**fan`` plus any self-draw bonus);
    ``payments`` lists ``(from_seat, to_seat, amount)`` for this win (empty when the
    context does not say who discarded). ``decomposition`` is the standard decomposition
    scored, or the special shape's id (``"qidui"``)."""

    ruleset: str
    fan: int
    fan_uncapped: int
    multiplier: int
    patterns: tuple[PatternHit, ...]
    decomposition: Any
    shape: str
    self_drawn: bool
    amount: int
    payments: tuple[tuple[int, int, int], ...]

    @property
    def pattern(self) -> PatternHit:
        """The main pattern (the first entry)."""
        return self.patterns[0]


class ValuedWait(NamedTuple):
    """A winning tile of a ready hand and what it would be worth."""

    tile: str
    id: int
    fan_discard: int
    fan_self_drawn: int
    unseen: int
    patterns_discard: tuple[PatternHit, ...]
    patterns_self_drawn: tuple[PatternHit, ...]


@dataclass(frozen=True, slots=True)
class MoveCheck:
    """The answer of ``validate_move``: ``ok``, or the stable reason ``code`` and a message."""

    ok: bool
    code: str = ""
    message: str = ""

    def __bool__(self) -> bool:
        return self.ok


@dataclass(frozen=True, slots=True)
class Payment:
    """One ledger entry: ``amount`` points from ``from_seat`` to ``to_seat``; ``event`` is
    the index of the event in the settled log that caused it."""

    from_seat: int
    to_seat: int
    amount: int
    reason: str
    event: int


@dataclass(frozen=True, slots=True)
class Ledger:
    """The whole hand's money: every payment, per-seat totals (sum zero), next dealer."""

    payments: tuple[Payment, ...]
    totals: tuple[int, ...]
    next_dealer: int
    winners: tuple[int, ...] = ()
    notes: tuple[str, ...] = field(default=())


# --------------------------------------------------------------------------- engine


class RulesetEngine(Protocol):
    """The five functions a rule set implements (``options`` is its resolved options)."""

    def score(
        self,
        hand: Any,
        win_tile: int | str,
        self_drawn: bool,
        context: Mapping[str, object] | None,
        options: Any,
    ) -> ScoreResult: ...

    def valued_waits(
        self,
        hand: Any,
        context: Mapping[str, object] | None,
        options: Any,
        visible: Any,
    ) -> tuple[ValuedWait, ...]: ...

    def validate_move(self, state: Any, move: Any, options: Any) -> MoveCheck: ...

    def legal_moves(self, state: Any, options: Any) -> tuple[Any, ...]: ...

    def settle(self, events: Any, options: Any, dealer: int | None) -> Ledger: ...


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A registered rule set: its description as data plus its engine."""

    name: str
    title: str
    summary: str
    tiles: int
    suits: tuple[str, ...]
    honours: bool
    flowers: bool
    wild_tiles: bool
    liabilities: bool
    claims: tuple[str, ...]
    shapes: tuple[str, ...]
    value_unit: str
    patterns: tuple[PatternSpec, ...]
    addons: tuple[AddOnSpec, ...]
    options: tuple[OptionSpec, ...]
    presets: Mapping[str, Mapping[str, OptionValue]]
    context_keys: tuple[Described, ...]
    move_kinds: tuple[Described, ...]
    reason_codes: tuple[Described, ...]
    ledger_reasons: tuple[Described, ...]
    engine: RulesetEngine
    make_options: Callable[[dict[str, OptionValue]], Any]
    _cache: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    # ---- options
    def option_spec(self, name: str) -> OptionSpec:
        for spec in self.options:
            if spec.name == name:
                return spec
        known = ", ".join(s.name for s in self.options)
        raise MahjongError(
            "bad_option", f"unknown option {name!r} for rule set {self.name!r} (known: {known})"
        )

    def defaults(self) -> dict[str, OptionValue]:
        return {spec.name: spec.default for spec in self.options}

    def resolve_options(
        self, options: Mapping[str, object] | None = None, preset: str | None = None
    ) -> Any:
        """Validate ``options`` over ``preset`` over the defaults; cached per input."""
        if preset is not None and not isinstance(preset, str):
            raise MahjongError("bad_option", f"a preset is named by text, got {preset!r}")
        if options is not None and not isinstance(options, Mapping):
            raise MahjongError("bad_option", "options must be a mapping of name to value")
        if options is None and preset is None:
            cached = self._cache.get(None)
            if cached is None:
                cached = self.make_options(self.defaults())
                self._cache[None] = cached
            return cached
        key: Any = None
        if options is not None:
            try:
                key = (preset, frozenset(options.items()))
                hit = self._cache.get(key)
            except TypeError:
                key, hit = None, None
        else:
            key = (preset, None)
            hit = self._cache.get(key)
        if hit is not None:
            return hit
        values = self.defaults()
        if preset is not None:
            if preset not in self.presets:
                known = ", ".join(self.presets)
                raise MahjongError(
                    "bad_option", f"unknown preset {preset!r} for {self.name!r} (known: {known})"
                )
            values.update(self.presets[preset])
        if options is not None:
            for name, value in options.items():
                values[name] = self.option_spec(str(name)).validate(value)
        resolved = self.make_options(values)
        if key is not None and len(self._cache) < 4096:
            self._cache[key] = resolved
        return resolved

    # ---- description
    def describe(self) -> dict[str, Any]:
        """Everything a client needs to show the rule set, as plain data."""
        return {
            "name": self.name,
            "title": self.title,
            "summary": self.summary,
            "tiles": self.tiles,
            "suits": list(self.suits),
            "honours": self.honours,
            "flowers": self.flowers,
            "wild_tiles": self.wild_tiles,
            "liabilities": self.liabilities,
            "claims": list(self.claims),
            "shapes": list(self.shapes),
            "value_unit": self.value_unit,
            "patterns": [p.describe() for p in self.patterns],
            "addons": [a.describe() for a in self.addons],
            "options": [o.describe() for o in self.options],
            "presets": {name: dict(values) for name, values in self.presets.items()},
            "context_keys": [c.describe() for c in self.context_keys],
            "move_kinds": [m.describe() for m in self.move_kinds],
            "reason_codes": [r.describe() for r in self.reason_codes],
            "ledger_reasons": [r.describe() for r in self.ledger_reasons],
        }


def new_options_key() -> int:
    """A unique small integer identifying one resolved options object (for cache keys)."""
    return next(_KEY_COUNTER)


# --------------------------------------------------------------------------- registry

_REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    """Add a rule set to the registry (a second registration of a name replaces it)."""
    _REGISTRY[ruleset.name] = ruleset
    return ruleset


def get_ruleset(name: str) -> Ruleset:
    """The registered rule set called ``name``; ``MahjongError('unknown_ruleset')`` if none."""
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_REGISTRY))
        raise MahjongError(
            "unknown_ruleset", f"unknown rule set {name!r} (known: {known})"
        ) from None


def list_rulesets() -> tuple[str, ...]:
    """Names of every registered rule set, sorted."""
    return tuple(sorted(_REGISTRY))


def describe_ruleset(name: str) -> dict[str, Any]:
    """A plain-data description (patterns, add-ons, options, presets …) of a rule set."""
    return get_ruleset(name).describe()
