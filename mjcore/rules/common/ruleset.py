"""The contract every rule set fulfils, and the registry.

A rule set is data (its table, options, presets, context keys, moves, reason codes, ledger
reasons) plus an engine of five pure functions. It registers itself with ``register`` when
its package is imported; ``mjcore.rules.RULESETS`` is the one list of rule-set packages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from mjcore._core import _set_front
from mjcore.errors import MahjongError
from mjcore.rules.common.options import OptionResolver, Options, OptionValue
from mjcore.rules.common.results import VALUE_UNITS, Ledger, MoveCheck, ScoreResult, ValuedWait
from mjcore.rules.common.table import FanTable
from mjcore.table import PHASES


@dataclass(frozen=True, slots=True)
class Described:
    """A named code (context key, move kind, reason code, ledger reason) and its meaning."""

    id: str
    description: str

    def describe(self) -> dict[str, str]:
        return {"id": self.id, "description": self.description}


@dataclass(frozen=True, slots=True)
class ContextKey:
    """One key of a rule set's win context: its ``kind`` says what a value may be (the wire's
    typed context message is built from it):

    ``bool``; ``seat`` (0-3); ``seats`` (a list of seats); ``relative_seat`` (``left``,
    ``across``, ``right``: 上家, 对家, 下家 seen from the winner); ``relative_seats`` (a list of
    relative seats or ``None``, one per meld); ``position`` (a relative seat or ``self``: where
    the dealer sits); ``seat_counts`` (relative seat → count); ``wind`` (``1z``-``4z``);
    ``suit`` (``m``, ``p`` or ``s``); ``tile`` (a tile text or id, e.g. a wild kind);
    ``tiles`` (a list of tiles, or tiles text such as Taiwan's flowers ``"15f"``); ``int``
    (``minimum``..``maximum``); ``choice`` (one of ``choices``); ``seat_melds`` (for each
    relative seat, its declared melds as text, e.g. ``{"left": "peng:111s angang:2222p"}``)."""

    id: str
    description: str
    kind: str = "bool"
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in CONTEXT_KINDS:
            raise ValueError(f"unknown context kind {self.kind!r}")
        if (self.kind == "choice") != bool(self.choices):
            raise ValueError(f"{self.id}: a choice key, and only one, lists its choices")

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "description": self.description, "kind": self.kind}
        if self.kind == "int":
            out["minimum"], out["maximum"] = self.minimum, self.maximum
        if self.choices:
            out["values"] = list(self.choices)
        return out


CONTEXT_KINDS = ("bool", "seat", "seats", "relative_seat", "relative_seats", "position",
                 "seat_counts", "wind", "suit", "tile", "tiles", "int", "choice", "seat_melds")


@dataclass(frozen=True, slots=True)
class Engine:
    """The five functions a rule set implements (``options`` is its resolved options).

    ``score(hand, win_tile, self_drawn, context, options) -> ScoreResult``;
    ``valued_waits(hand, context, options, visible) -> tuple[ValuedWait, ...]``;
    ``validate_move(state, move, options) -> MoveCheck``;
    ``legal_moves(state, options) -> tuple[Move, ...]``;
    ``settle(events, options, dealer, dealer_streak) -> Ledger`` (``dealer_streak``: the
    dealer's 連莊 count at the hand's start, for a rule set that tracks one; the others
    ignore it)."""

    score: Callable[[Any, Any, bool, Mapping[str, object] | None, Any], ScoreResult]
    valued_waits: Callable[[Any, Mapping[str, object] | None, Any, Any], tuple[ValuedWait, ...]]
    validate_move: Callable[[Any, Any, Any], MoveCheck]
    legal_moves: Callable[[Any, Any], tuple[Any, ...]]
    settle: Callable[[Any, Any, int | None, int | None], Ledger]


class BatchScorer(NamedTuple):
    """A rule set's compiled table under one options object, for bulk scoring (``Ruleset``)."""

    table: Any  # mjcore._core.CompiledTable
    context: Callable[[Mapping[str, object] | None, bool], Any]


@dataclass(frozen=True)
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
    claims: tuple[str, ...]  # the claims on a discard: chi, peng, gang, hu
    shapes: tuple[str, ...]
    hand_tiles: int  # tiles of a winning hand (kongs count 3): 14, or 17 for 16-tile play
    unit: str
    table: FanTable
    options: type[Options]
    presets: Mapping[str, Mapping[str, OptionValue]]
    context_keys: tuple[ContextKey, ...]
    move_kinds: tuple[Described, ...]
    reason_codes: tuple[Described, ...]
    ledger_reasons: tuple[Described, ...]
    engine: Engine
    view: type | None = None  # the rule set's part of a TableView (None: it has none)
    events: tuple[type, ...] = ()  # event types of its own, beside the common ones
    # checks of the hand that come before the options' (Taiwan §1): ``input_check(hand,
    # win_tile, context)`` runs when the options are refused, and raises what it finds first
    input_check: Callable[[Any, Any, Any], object] | None = None
    phases: tuple[str, ...] = PHASES  # a TableView's phases (the common ones, and its own)
    # for bulk callers (the service's ScoreBatch): ``batch_scorer(options)`` gives the compiled
    # table whose ``score_batch_detail`` answers exactly as ``engine.score`` for a hand without
    # melds, and ``context(mapping or None, self_drawn)`` -> the compiled context to score in,
    # or None when that context needs checks the table does not make (score those hands one by
    # one). None (or ``batch_scorer`` giving None): every hand one by one.
    batch_scorer: Callable[[Any], BatchScorer | None] | None = None
    resolver: OptionResolver = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.unit not in VALUE_UNITS:
            raise ValueError(f"unknown value unit {self.unit!r}")
        named = [n for p in self.table.patterns
                 for n in (p.value_option, p.enabled_by, p.flat_option, p.supersedes_unless)]
        named += [n for e in self.table.extras for n in (e.value_option, e.enabled_by)]
        named += [f.enabled_by for f in self.table.floors]
        named += [self.table.policy.cap_option, self.table.policy.floor_option]
        for name in named:
            if name is not None:  # every option the table names exists
                self.options.spec(name, self.name)
        object.__setattr__(self, "resolver", OptionResolver(self.name, self.options, self.presets))

    @property
    def allows_chi(self) -> bool:
        return "chi" in self.claims

    def resolve_options(self, options: Mapping[str, object] | None = None,
                        preset: str | None = None) -> Any:
        """Validate ``options`` over ``preset`` over the defaults (memoised per input)."""
        return self.resolver.resolve(options, preset)

    def describe(self) -> dict[str, Any]:
        """Everything a client needs to show the rule set, as plain data."""
        return {
            "name": self.name, "title": self.title, "summary": self.summary,
            "tiles": self.tiles, "suits": list(self.suits), "honours": self.honours,
            "flowers": self.flowers, "wild_tiles": self.wild_tiles,
            "liabilities": self.liabilities, "claims": list(self.claims),
            "shapes": list(self.shapes), "hand_tiles": self.hand_tiles, "unit": self.unit,
            **self.table.describe(),
            "options": [o.describe() for o in self.options.specs()],
            "presets": {name: {k: (list(v) if isinstance(v, tuple) else v)
                               for k, v in values.items()}
                        for name, values in self.presets.items()},
            "context_keys": [c.describe() for c in self.context_keys],
            "phases": list(self.phases),
            "move_kinds": [m.describe() for m in self.move_kinds],
            "reason_codes": [r.describe() for r in self.reason_codes],
            "ledger_reasons": [r.describe() for r in self.ledger_reasons],
        }


_REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    """Add a rule set to the registry (a second registration of a name replaces it)."""
    _REGISTRY[ruleset.name] = ruleset
    _set_front(ruleset.name, ruleset.engine, ruleset.resolver)
    return ruleset


def get_ruleset(name: str) -> Ruleset:
    """The registered rule set called ``name``; ``MahjongError('unknown_ruleset')`` if none."""
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        known = ", ".join(sorted(_REGISTRY))
        raise MahjongError("unknown_ruleset",
                           f"unknown rule set {str(name)[:60]!r} (known: {known})") from None


def list_rulesets() -> tuple[str, ...]:
    """Names of every registered rule set, sorted."""
    return tuple(sorted(_REGISTRY))
