"""What the engine answers, the same for every rule set (plain immutable values; the service
converts them to protobuf)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

VALUE_UNITS = ("fan", "points", "multiplier", "tai")
"""How a rule set counts a hand's value: ``fan`` (an exponent or capped count, Sichuan and
Guangdong), ``points`` (added up, Chengdu and Wuhan), ``multiplier`` (shape × event, Hangzhou)
and ``tai`` (Taiwan)."""


class PatternHit(NamedTuple):
    """One pattern, extra or floor in a score: ``fan`` is its contribution in the rule set's
    unit (根 ×2 gives 2; a floor is reported with 0)."""

    id: str
    name: str
    fan: int


class ScoreResult(NamedTuple):
    """What a win is worth and who pays whom for it.

    ``value`` is the final value in ``unit`` (after caps and floors), ``value_uncapped`` the
    sum of the listed contributions before them. ``multiplier`` is what one base unit is
    multiplied by for a payer (``2**fan`` for Sichuan). ``payments`` lists
    ``(from_seat, to_seat, amount)``: one amount per payer (empty when the context does not
    say who pays). ``liable`` names the liability (包) that made one seat pay for all and
    ``liable_seat`` that seat (-1: none). ``decomposition`` is the standard decomposition
    scored (a ``mjcore.hand.Decomposition`` of the concealed tiles, declared melds left out),
    or the special shape's id (``"qidui"``). With wild tiles (Wuhan 赖子, Hangzhou 财神) it is
    the split of the reading scored, each wild counted as the kind it stands for (itself when
    it returns home) and each tile as the kind it plays as (a Hangzhou 白板 as the 财神's kind
    in flip mode); Hangzhou's 爆头 pair is the drawn tile with a wild standing for it."""

    ruleset: str
    unit: str
    value: int
    value_uncapped: int
    multiplier: int
    patterns: tuple[PatternHit, ...]
    decomposition: Any
    shape: str
    self_drawn: bool
    payments: tuple[tuple[int, int, int], ...]
    liable: str = ""
    liable_seat: int = -1

    @property
    def fan(self) -> int:
        """``value`` (named for the fan-counting rule sets)."""
        return self.value

    @property
    def fan_uncapped(self) -> int:
        return self.value_uncapped

    @property
    def amount(self) -> int:
        """The largest single payment (each payer's amount when all pay alike); 0 if none."""
        return max((p[2] for p in self.payments), default=0)

    @property
    def total(self) -> int:
        """What the winner receives for this win."""
        return sum(p[2] for p in self.payments)

    @property
    def pattern(self) -> PatternHit:
        """The main pattern (the first entry)."""
        return self.patterns[0]


class ValuedWait(NamedTuple):
    """A winning tile of a ready hand and what it would be worth (in the rule set's unit)."""

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
    """One ledger entry: ``amount`` from ``from_seat`` to ``to_seat`` for ``reason``; ``event``
    is the index in the settled log of the event that caused it."""

    from_seat: int
    to_seat: int
    amount: int
    reason: str
    event: int


@dataclass(frozen=True, slots=True)
class Ledger:
    """The whole hand's money: every payment, per-seat totals (sum zero), next dealer;
    ``next_dealer_streak`` is the next hand's dealer streak (連莊 count) where the rule set
    tracks one (Taiwan), else None."""

    payments: tuple[Payment, ...]
    totals: tuple[int, ...]
    next_dealer: int
    winners: tuple[int, ...] = ()
    notes: tuple[str, ...] = field(default=())
    next_dealer_streak: int | None = None
