"""Options, each declared once.

A rule set declares its options as one frozen dataclass whose fields are made by
``option(...)``. That declaration is the only one: the typed options object, validation,
``describe_ruleset`` and the wire (service/convert.py reads ``specs()`` by field name, and a
test checks the proto message against it) all come from it.

Kinds: ``int`` (with bounds, optionally ``None``), ``bool``, ``enum`` (a fixed list of text or
integer values), ``int_list`` (a fixed number of bounded integers) and ``ratio`` (a
non-negative fraction, written ``"1/2"``, ``0.5`` or ``(1, 2)``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from mjcore.errors import MahjongError
from mjcore.rules.common.memo import Memo

OptionValue = int | bool | str | tuple[int, ...] | Fraction | None
"""The type of one option value."""

KINDS = ("int", "bool", "enum", "int_list", "ratio")


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One knob: its default, what it may be and what it means (built from ``option()``)."""

    name: str
    default: OptionValue
    description: str
    kind: str
    choices: tuple[int | str, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    none_allowed: bool = False
    length: int | None = None  # int_list: exact number of items
    nondecreasing: bool = False  # int_list: each item >= the one before

    def _bad(self, what: str, value: object) -> MahjongError:
        return MahjongError("bad_option", f"option {self.name!r} must be {what}, got {value!r:.60}")

    def _bounded(self, value: object, what: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise self._bad(what, value)
        try:
            number = int(value)
        except ValueError:
            raise self._bad(what, value) from None
        if self.minimum is not None and number < self.minimum:
            raise self._bad(f"at least {self.minimum}", value)
        if self.maximum is not None and number > self.maximum:
            raise self._bad(f"at most {self.maximum}", value)
        return number

    def validate(self, value: object) -> OptionValue:
        """The canonical value, or ``MahjongError('bad_option')`` naming the option."""
        if value is None or (value == "none" and (self.kind != "enum" or self.none_allowed)):
            if self.none_allowed:
                return None
            raise MahjongError("bad_option", f"option {self.name!r} may not be none")
        kind = self.kind
        if kind == "bool":
            if isinstance(value, bool):
                return value
            raise self._bad("true or false", value)
        if kind == "enum":
            assert self.choices is not None
            if not isinstance(value, bool):
                for choice in self.choices:
                    # 3 and "3" are the same value for an integer enum such as longqidui_fan
                    if value == choice or (isinstance(choice, int) and value == str(choice)):
                        return choice
            raise self._bad("one of " + ", ".join(str(c) for c in self.choices), value)
        if kind == "int":
            return self._bounded(value, "an integer")
        if kind == "int_list":
            if isinstance(value, str | bytes | Mapping) or not isinstance(value, tuple | list):
                raise self._bad(f"a list of {self.length} integers", value)
            if self.length is not None and len(value) != self.length:
                raise self._bad(f"a list of {self.length} integers", value)
            items = tuple(self._bounded(v, "a list of integers") for v in value)
            if self.nondecreasing and any(b < a for a, b in zip(items, items[1:])):
                raise self._bad("non-decreasing", value)
            return items
        # ratio
        try:
            if isinstance(value, bool):
                raise TypeError
            if isinstance(value, tuple | list) and len(value) == 2:
                ratio = Fraction(int(value[0]), int(value[1]))
            elif isinstance(value, int | float | str | Fraction):
                ratio = Fraction(str(value) if isinstance(value, float) else value)
            else:
                raise TypeError
        except (TypeError, ValueError, ZeroDivisionError):
            raise self._bad("a ratio such as 1/2", value) from None
        if ratio < 0 or (self.maximum is not None and ratio > self.maximum):
            raise self._bad(f"a ratio 0..{self.maximum}" if self.maximum is not None
                            else "a non-negative ratio", value)
        return ratio

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind,
                               "default": _plain(self.default), "description": self.description,
                               "none_allowed": self.none_allowed}
        if self.choices is not None:
            out["values"] = list(self.choices)
        if self.minimum is not None or self.maximum is not None:
            out["minimum"], out["maximum"] = self.minimum, self.maximum
        if self.length is not None:
            out["length"] = self.length
            out["nondecreasing"] = self.nondecreasing
        return out


def _plain(value: OptionValue) -> Any:
    if isinstance(value, Fraction):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, tuple):
        return list(value)
    return value


def option(
    default: Any,
    description: str,
    *,
    choices: tuple[int | str, ...] | None = None,
    minimum: int | None = None,
    maximum: int | None = None,
    none_allowed: bool = False,
    length: int | None = None,
    nondecreasing: bool = False,
    kind: str | None = None,
) -> Any:
    """A field of an options dataclass: its default and how it is validated. The kind is
    ``bool`` for a bool default, ``enum`` with ``choices``, ``int_list`` for a tuple default,
    ``ratio`` for a Fraction default, else ``int`` (or name it with ``kind``)."""
    if kind is None:
        if isinstance(default, bool):
            kind = "bool"
        elif choices is not None:
            kind = "enum"
        elif isinstance(default, tuple):
            kind = "int_list"
        elif isinstance(default, Fraction):
            kind = "ratio"
        else:
            kind = "int"
    if kind not in KINDS:
        raise ValueError(f"unknown option kind {kind!r}")
    # the name is filled in by Options.specs() from the field's name
    spec = OptionSpec("", default, description, kind, choices, minimum, maximum, none_allowed,
                      length, nondecreasing)
    return dataclasses.field(default=default, metadata={"option": spec})


@dataclass(frozen=True, eq=False)
class Options:
    """Base of every rule set's options class (a frozen dataclass of ``option()`` fields).

    Objects are compared by identity: ``resolve`` returns one object per distinct input, so
    engines may key their memo tables on it. Subclasses may add derived fields with
    ``field(init=False)`` set in ``__post_init__``."""

    _specs: ClassVar[tuple[OptionSpec, ...] | None] = None

    @classmethod
    def specs(cls) -> tuple[OptionSpec, ...]:
        """The option declarations, in field order."""
        own = cls.__dict__.get("_specs")
        if own is None:
            own = tuple(
                dataclasses.replace(f.metadata["option"], name=f.name)
                for f in dataclasses.fields(cls)
                if "option" in f.metadata
            )
            cls._specs = own
        return own

    @classmethod
    def spec(cls, name: str, ruleset: str) -> OptionSpec:
        for s in cls.specs():
            if s.name == name:
                return s
        known = ", ".join(s.name for s in cls.specs())
        raise MahjongError("bad_option",
                           f"unknown option {name!r:.60} for rule set {ruleset!r} (known: {known})")

    @classmethod
    def defaults(cls) -> dict[str, OptionValue]:
        return {s.name: s.default for s in cls.specs()}

    def value_column(self) -> str:
        """Which value column of the fan table these options select (``PatternSpec.columns``):
        ``fan`` unless a rule set's options say otherwise (Sichuan's ``scoring: points``)."""
        return "fan"

    def as_dict(self) -> dict[str, OptionValue]:
        """Every option's value by name."""
        return {s.name: getattr(self, s.name) for s in self.specs()}


class OptionResolver:
    """Validates ``options`` over a ``preset`` over the defaults into one options object per
    distinct input (a bounded memo, so repeated calls cost a dictionary look-up)."""

    LIMIT = 4096

    def __init__(self, ruleset: str, cls: type[Options],
                 presets: Mapping[str, Mapping[str, OptionValue]]) -> None:
        self.ruleset = ruleset
        self.cls = cls
        self.presets = presets
        for name, values in presets.items():  # a preset is checked when it is declared
            for key, value in values.items():
                if cls.spec(key, ruleset).validate(value) != value:
                    raise ValueError(f"preset {name}: {key}={value!r} is not canonical")
        self.default: Options = cls(**cls.defaults())
        self._memo: Memo[Any, Options] = Memo(self.LIMIT)

    def resolve(self, options: Mapping[str, object] | None = None,
                preset: str | None = None) -> Options:
        if preset is None and (options is None or (type(options) is dict and not options)):
            return self.default
        if options is not None and not isinstance(options, Mapping):
            raise MahjongError("bad_option", "options must be a mapping of name to value")
        if options is not None and "preset" in options:  # the rules list it as an option too
            named = options["preset"]
            if preset is not None and named != preset:
                raise MahjongError("bad_option", f"two presets named: {preset!r:.60} and "
                                   f"options' {named!r:.60}")
            preset = named  # type: ignore[assignment]  # (its type is checked just below)
            options = {k: v for k, v in options.items() if k != "preset"}
        if preset is not None and not isinstance(preset, str):
            raise MahjongError("bad_option", f"a preset is named by text, got {preset!r:.60}")
        try:
            # value types are part of the key: True == 1 but only one is a valid integer
            key: Any = (preset, None if options is None else (
                *options.items(), *map(type, options.values())))
            hit = self._memo.get(key)
        except TypeError:  # unhashable values (lists): validated, not memoised
            key, hit = None, None
        if hit is not None:
            return hit
        values = self.cls.defaults()
        if preset is not None:
            if preset not in self.presets:
                raise MahjongError("bad_option", f"unknown preset {preset!r:.60} for "
                                   f"{self.ruleset!r} (known: {', '.join(self.presets)})")
            values.update(self.presets[preset])
        for name, value in (options or {}).items():
            if not isinstance(name, str):
                raise MahjongError("bad_option", f"an option is named by text, got {name!r:.60}")
            values[name] = self.cls.spec(name, self.ruleset).validate(value)
        resolved = self.cls(**values)
        if key is not None:
            self._memo.keep(key, resolved)
        return resolved
