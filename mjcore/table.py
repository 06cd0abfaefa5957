"""The table state a stateless move check or a settlement needs.

The engine keeps no state: a game server sends, with every question, the view of the
acting seat (``TableView``) or the hand's event log (``HandStart``, ``Kong``, ``Win``,
``WallEmpty`` and the rule set's own events). These are small frozen dataclasses of plain
values plus ``Hand``.

A ``TableView`` has a part every rule set reads and a part of the rule set's own
(``rules``: e.g. ``mjcore.rules.sichuan.SichuanView`` with the 缺门). Phases every rule set
knows (a rule set may add its own, such as Sichuan's ``exchange`` and ``ding_que``):

``turn``   the seat's own turn with 3n+2 concealed tiles (after a draw, a kong's replacement
           draw or a claim): discard, concealed or added kong, or a self-drawn hu.
``claim``  another seat's discard (``pending_tile`` from ``pending_from``) is open to claims.
``rob``    another seat's ``bugang`` (``pending_kind="bugang"``) may be robbed: hu or pass
           only (``pending_kind="angang"`` asks whether an angang can be robbed).
``wait``   nothing to do (another seat is acting).
``ended``  the hand is over.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from mjcore.errors import MahjongError
from mjcore.hand import Hand
from mjcore.tiles import tile_id
from mjcore.tiles import tile_to_text as tile_text

PHASES: tuple[str, ...] = ("turn", "claim", "rob", "wait", "ended")
PENDING_KINDS: tuple[str, ...] = ("discard", "bugang", "angang")


@dataclass(frozen=True, slots=True)
class Move:
    """One move: ``kind`` (the rule set lists its kinds), the ``tiles`` it uses (tile ids) and,
    for a declaration such as Sichuan's ``ding_que``, the ``suit``.

    ``discard``/``peng``/``gang``/``angang``/``bugang`` name one tile; ``chi`` the three tiles
    of the sequence; ``hu`` and ``pass`` none (a ``hu`` may name the winning tile)."""

    kind: str
    tiles: tuple[int, ...] = ()
    suit: str | None = None

    @property
    def tile(self) -> int | None:
        """The (first) tile of the move, or ``None``."""
        return self.tiles[0] if self.tiles else None

    @classmethod
    def make(cls, kind: str, *tiles: int | str, suit: str | None = None) -> Move:
        """Build a move from tile ids or texts: ``Move.make("discard", "5p")``."""
        return cls(kind, tuple(tile_id(t) for t in tiles), suit)

    @classmethod
    def parse(cls, text: str) -> Move:
        """``"discard 5p"``, ``"chi 3m 4m 5m"``, ``"ding_que s"``, ``"pass"``."""
        parts = text.split()
        if not parts:
            raise MahjongError("bad_move", "empty move text")
        kind, rest = parts[0], parts[1:]
        if kind == "ding_que":
            return cls(kind, (), rest[0] if rest else None)
        return cls.make(kind, *rest)

    def to_text(self) -> str:
        parts = [self.kind, *(tile_text(t) for t in self.tiles)]
        if self.suit is not None:
            parts.append(self.suit)
        return " ".join(parts)

    def __str__(self) -> str:
        return self.to_text()


@dataclass(frozen=True, slots=True)
class TableView:
    """What the engine needs to know to judge the acting seat's move.

    seat:            the acting seat (0-3)
    hand:            its concealed tiles and declared melds (a Hand or its text)
    phase:           see the module docstring (or the rule set's own phases)
    dealer:          the dealer's seat
    pending_tile:    the tile open to claims in ``claim``/``rob`` phases (tiles: an id or text)
    pending_from:    the seat that discarded it (or made the bugang)
    pending_kind:    ``discard``, ``bugang`` or ``angang``
    pending_after_kong: the pending discard was made right after the discarder's kong
                     replacement draw (杠上炮)
    drawn_tile:      in ``turn``: the tile just drawn (``None`` after a claim); the dealer's
                     first turn passes its 14th tile or any tile
    drew:            in ``turn``: the turn began with a draw (self-drawn hu possible)
    after_kong:      in ``turn``: the draw was a kong replacement (杠上开花)
    kong_feeder:     in ``turn`` after a 直杠 on a discard: the seat that fed it
    wall_count:      tiles left in the wall now (``None``: not told, far from the end)
    first_draw:      the seat is on its first draw of the hand (dealer: its dealt tiles) and
                     has made no kong
    any_meld:        anyone has claimed or konged this hand (no 地胡 after that)
    active_seats:    seats still playing (in 血战, those that have not won)
    rules:           the rule set's own part of the view (``None``: its defaults)
    """

    seat: int
    hand: Hand
    phase: str
    dealer: int = 0
    pending_tile: int | None = None
    pending_from: int | None = None
    pending_kind: str = "discard"
    pending_after_kong: bool = False
    drawn_tile: int | None = None
    drew: bool = True
    after_kong: bool = False
    kong_feeder: int | None = None
    wall_count: int | None = None
    first_draw: bool = False
    any_meld: bool = False
    active_seats: tuple[int, ...] = (0, 1, 2, 3)
    rules: Any = None

    def __post_init__(self) -> None:
        for name in ("pending_tile", "drawn_tile"):  # tiles as text, like everywhere else
            value = getattr(self, name)
            if isinstance(value, str):
                object.__setattr__(self, name, view_tile(value, name))
        if isinstance(self.hand, str):
            from mjcore.rules.common.inputs import hand_of

            object.__setattr__(self, "hand", hand_of(self.hand))

    def replace(self, **changes: Any) -> TableView:
        """A copy with some fields changed."""
        return dataclasses.replace(self, **changes)

    def check(self, phases: tuple[str, ...] = PHASES) -> TableView:
        """Refuse a malformed view with ``MahjongError('bad_state')`` (the view is input)."""
        def bad(message: str) -> MahjongError:
            return MahjongError("bad_state", message)

        if not isinstance(self.phase, str) or self.phase not in phases:
            raise bad(f"unknown phase {self.phase!r:.40} (one of {', '.join(phases)})")
        if type(self.seat) is not int or not 0 <= self.seat < 4:
            raise bad(f"seat must be 0-3, got {self.seat!r:.40}")
        if not isinstance(self.pending_kind, str) or self.pending_kind not in PENDING_KINDS:
            raise bad(f"pending_kind must be one of {', '.join(PENDING_KINDS)}, got "
                      f"{self.pending_kind!r:.40}")
        for name in ("pending_tile", "drawn_tile"):
            value = getattr(self, name)
            if value is not None and not (type(value) is int and 0 <= value < 34):
                raise bad(f"{name} must be a tile id, got {value!r:.40}")
        if not isinstance(self.hand, Hand):
            raise bad("the view's hand must be a Hand")
        if self.wall_count is not None and (type(self.wall_count) is not int
                                            or not 0 <= self.wall_count <= 144):
            raise bad(f"wall_count must be a count 0-144, got {self.wall_count!r:.40}")
        if self.phase in ("claim", "rob") and self.pending_tile is None:
            raise bad(f"phase {self.phase} needs a pending_tile")
        for name in ("dealer", "pending_from", "kong_feeder"):
            value = getattr(self, name)
            if value is not None and (type(value) is not int or not 0 <= value < 4):
                raise bad(f"{name} must be a seat 0-3, got {value!r:.40}")
        active = self.active_seats
        if not isinstance(active, tuple | list) or len(active) > 4 or not all(
                type(x) is int and 0 <= x < 4 for x in active):
            raise bad(f"active_seats must be seats 0-3, got {active!r:.40}")
        return self


def view_tile(value: int | str | None, what: str) -> int | None:
    """A view's tile argument from an id or text (``None`` stays ``None``)."""
    if value is None:
        return None
    try:
        return tile_id(value)
    except MahjongError:
        raise MahjongError("bad_state", f"{what} is not a tile: {value!r:.40}") from None


# --------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class HandStart:
    """Optional first event: who is dealer (default 0) and, for a rule set that counts 連莊
    (Taiwan), how many times in a row the dealer has already kept the deal (None: not told)."""

    dealer: int = 0
    dealer_streak: int | None = None


@dataclass(frozen=True, slots=True)
class Kong:
    """A kong made by ``seat``: ``kind`` gang/bugang/angang; ``fed_by`` the discarder for a
    ``gang`` (直杠). ``robbed=True`` records a bugang that was robbed (it pays nothing)."""

    seat: int
    kind: str
    tile: int
    fed_by: int | None = None
    robbed: bool = False


@dataclass(frozen=True, slots=True)
class Win:
    """Seat ``seat`` won with ``hand`` (concealed incl. the winning tile, plus melds).

    ``discarder``: the seat whose discard (or robbed bugang) was won, ``None`` for a
    self-draw. ``discard``: which discard of the hand the win answers (any number the table
    gives each discard, e.g. its turn number): wins on the same discard are one 一炮多响; two
    wins on two discards of the same tile are not. When ``None``, consecutive wins on the
    same discarder and tile are taken as one discard. ``context``: the rule set's scoring
    context as ``(key, value)`` pairs or a dict. ``kong_feeder``: for a win on a kong's
    replacement draw after a 直杠, the seat that fed the kong."""

    seat: int
    hand: Hand | str
    win_tile: int | str
    self_drawn: bool = False
    discarder: int | None = None
    context: tuple[tuple[str, Any], ...] | dict[str, Any] = ()
    kong_feeder: int | None = None
    discard: int | None = None


@dataclass(frozen=True, slots=True)
class WallEmpty:
    """The wall ran out: ``hands[seat]`` is the final hand (3n+1 concealed) of each seat
    still playing, ``None`` for seats that have won."""

    hands: tuple[Hand | str | None, ...]
