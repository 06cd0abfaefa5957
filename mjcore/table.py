"""The table state a stateless move check or a settlement needs.

The engine keeps no state: a game server sends, with every question, the view of the
acting seat (``TableView``) or the hand's event log (``DingQue``, ``Kong``, ``Win``,
``WallEmpty``). These are small frozen dataclasses of plain values plus ``Hand``.

Phases of a ``TableView`` (what the acting seat may do now):

``exchange``  换三张: pass three tiles of one suit (option ``exchange_three``).
``ding_que``  定缺: declare the suit to void.
``turn``      the seat's own turn with 3n+2 concealed tiles (after a draw, a kong's
              replacement draw or a peng): discard, angang, bugang, or a self-drawn hu.
``claim``     another seat's discard (``pending_tile`` from ``pending_from``) is open to
              claims: hu, gang, peng or pass.
``rob``       another seat's ``bugang`` (``pending_kind="bugang"``) may be robbed: hu or
              pass only (``pending_kind="angang"`` asks whether an angang can be robbed:
              it cannot).
``wait``      nothing to do (another seat is acting).
``ended``     the hand is over.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mjcore import Hand, MahjongError

SUITS: tuple[str, ...] = ("m", "p", "s")
PHASES: tuple[str, ...] = ("exchange", "ding_que", "turn", "claim", "rob", "wait", "ended")
MOVE_KINDS: tuple[str, ...] = (
    "exchange",
    "ding_que",
    "discard",
    "peng",
    "gang",
    "angang",
    "bugang",
    "hu",
    "pass",
    "chi",
)


def _tile_id(tile: int | str) -> int:
    if isinstance(tile, bool):
        raise MahjongError("bad_tile", f"not a tile: {tile!r}")
    if isinstance(tile, int):
        if 0 <= tile < 34:
            return tile
        raise MahjongError("bad_tile", f"tile id {tile} is outside 0-33")
    if isinstance(tile, str) and len(tile) == 2 and tile[0] in "123456789" and tile[1] in "mpsz":
        return "mpsz".index(tile[1]) * 9 + int(tile[0]) - 1
    raise MahjongError("bad_tile", f"not a tile: {tile!r}")


def _tile_text(tile: int) -> str:
    return f"{tile % 9 + 1}{'mpsz'[tile // 9]}"


@dataclass(frozen=True, slots=True)
class Move:
    """One move: ``kind`` (see ``MOVE_KINDS``), the ``tiles`` it uses (tile ids) and, for
    ``ding_que``, the ``suit`` (``m``, ``p`` or ``s``).

    ``discard``/``peng``/``gang``/``angang``/``bugang`` name one tile; ``exchange`` three;
    ``hu`` and ``pass`` none (a ``hu`` may name the winning tile); ``chi`` three."""

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
        return cls(kind, tuple(_tile_id(t) for t in tiles), suit)

    @classmethod
    def parse(cls, text: str) -> Move:
        """``"discard 5p"``, ``"exchange 1m 2m 3m"``, ``"ding_que s"``, ``"pass"``."""
        parts = text.split()
        if not parts:
            raise MahjongError("bad_move", "empty move text")
        kind, rest = parts[0], parts[1:]
        if kind == "ding_que":
            return cls(kind, (), rest[0] if rest else None)
        return cls.make(kind, *rest)

    def to_text(self) -> str:
        parts = [self.kind, *(_tile_text(t) for t in self.tiles)]
        if self.suit is not None:
            parts.append(self.suit)
        return " ".join(parts)

    def __str__(self) -> str:
        return self.to_text()


@dataclass(frozen=True, slots=True)
class TableView:
    """What the engine needs to know to judge the acting seat's move.

    seat:            the acting seat (0-3)
    hand:            its concealed tiles and declared melds
    phase:           see the module docstring
    dealer:          the dealer's seat
    missing_suit:    its declared 缺门 (``m``/``p``/``s``) or ``None`` before 定缺
    has_won:         the seat has already won this hand (血战: it no longer plays)
    pending_tile:    the tile open to claims in ``claim``/``rob`` phases
    pending_from:    the seat that discarded it (or made the bugang)
    pending_kind:    ``discard``, ``bugang`` or ``angang``
    pending_after_kong: the pending discard was made right after the discarder's kong
                     replacement draw (杠上炮)
    drawn_tile:      in ``turn``: the tile just drawn (``None`` after a peng); the
                     dealer's first turn passes its 14th tile or any tile
    drew:            in ``turn``: the turn began with a draw (self-drawn hu possible);
                     False after a peng
    after_kong:      in ``turn``: the draw was a kong replacement (杠上花)
    kong_feeder:     in ``turn`` after a 直杠 on a discard: the seat that fed it (点杠花)
    wall_count:      tiles left in the wall
    guoshui_fan:     the fan of a discard win this seat declined since its last draw
                     (过水), or ``None``
    first_draw:      the seat is on its first draw of the hand (dealer: its dealt 14) and
                     has made no kong
    any_meld:        anyone has made a peng or kong this hand (no 地胡 after that)
    active_seats:    seats that have not won yet (still playing)
    """

    seat: int
    hand: Hand
    phase: str
    dealer: int = 0
    missing_suit: str | None = None
    has_won: bool = False
    pending_tile: int | None = None
    pending_from: int | None = None
    pending_kind: str = "discard"
    pending_after_kong: bool = False
    drawn_tile: int | None = None
    drew: bool = True
    after_kong: bool = False
    kong_feeder: int | None = None
    wall_count: int = 55
    guoshui_fan: int | None = None
    first_draw: bool = False
    any_meld: bool = False
    active_seats: tuple[int, ...] = (0, 1, 2, 3)

    def replace(self, **changes: Any) -> TableView:
        """A copy with some fields changed."""
        values = {name: getattr(self, name) for name in self.__dataclass_fields__}
        values.update(changes)
        return TableView(**values)


# --------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class DingQue:
    """Seat ``seat`` declared ``suit`` as its 缺门."""

    seat: int
    suit: str


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
    self-draw. ``context``: the scoring flags (after_kong, after_kong_discard,
    robbing_kong, last_tile, heavenly, earthly, missing_suit) as ``(key, value)`` pairs or
    a dict. ``kong_feeder``: for a 杠上花 after a 直杠, the seat that fed the kong.
    Consecutive wins on the same discard (same discarder and tile, nothing between them)
    are one 一炮多响."""

    seat: int
    hand: Hand | str
    win_tile: int | str
    self_drawn: bool = False
    discarder: int | None = None
    context: tuple[tuple[str, Any], ...] | dict[str, Any] = ()
    kong_feeder: int | None = None


@dataclass(frozen=True, slots=True)
class WallEmpty:
    """The wall ran out: ``hands[seat]`` is the final hand (3n+1 concealed) of each seat
    still playing, ``None`` for seats that have won."""

    hands: tuple[Hand | str | None, ...]


@dataclass(frozen=True, slots=True)
class HandStart:
    """Optional first event: who is dealer (default 0)."""

    dealer: int = 0


Event = DingQue | Kong | Win | WallEmpty | HandStart
