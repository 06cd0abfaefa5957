"""Hand and Meld: the value types every engine call takes.

A ``Hand`` is the 34 counts of the concealed tiles plus the declared melds. It is immutable and
hashable; its packed form (per-suit keys for the core's tables) is computed once, at
construction, by the compiled base class, so repeated calls on one hand cost no conversion.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from . import _core
from ._core import HandBase, _count_runs
from .errors import MahjongError
from .tiles import MAX_TEXT, MELD_KINDS, NUM_KINDS, SET_MELDS, format_counts, format_tiles, parse_tiles
from .tiles import tile_to_text as _tile_text

KONG_KINDS = frozenset({"gang", "angang", "bugang"})


class Meld(NamedTuple):
    """A declared meld. ``tiles`` are sorted ids; kongs hold four tiles."""

    kind: str
    tiles: tuple[int, ...]

    @property
    def tile(self) -> int:
        """The lowest tile (the tile of a pung or kong, the start of a chi)."""
        return self.tiles[0]

    @property
    def is_kong(self) -> bool:
        return self.kind in KONG_KINDS

    @property
    def is_concealed(self) -> bool:
        return self.kind == "angang"

    @property
    def is_set(self) -> bool:
        """A set of the hand (not a one-tile meld laid aside, such as 痞子杠)."""
        return self.kind in SET_MELDS

    @property
    def stand_in(self) -> int | None:
        """In a ``chi`` that is not three consecutive tiles: the tile standing in for the
        missing one (a rule set with wild tiles says what it may be and stands for)."""
        return None if self.kind != "chi" or _is_run(self.tiles) else _stand_in(self.tiles)

    def to_text(self) -> str:
        return f"{self.kind}:{format_tiles(self.tiles)}"

    @classmethod
    def of(cls, kind: str, tiles: Iterable[int], where: str = "") -> Meld:
        """Build a meld, checking its kind and shape (``bad_meld`` otherwise)."""
        at = f" at {where}" if where else ""
        if kind not in MELD_KINDS:
            raise MahjongError("bad_meld", f"unknown meld kind {kind!r}{at} (use {', '.join(MELD_KINDS)})")
        try:
            raw = tuple(tiles)
        except TypeError:
            raise MahjongError("bad_meld", f"meld tiles{at} are not a sequence of tile ids") from None
        for t in raw:
            if not isinstance(t, int) or isinstance(t, bool) or not 0 <= t < NUM_KINDS:
                raise MahjongError("bad_tile", f"meld tile id {t!r}{at} is not in 0..33")
        ids = tuple(sorted(raw))
        if kind == "chi":
            ok = len(ids) == 3 and (_is_run(ids) or _stand_in(ids) is not None)
            shape = ("three consecutive tiles of one suit, or two of them and one tile standing in "
                     "for the third")
        elif kind in ("pizigang", "laizigang"):
            ok = len(ids) == 1
            shape = "one tile"
        else:
            size = 3 if kind == "peng" else 4
            ok = len(ids) == size and len(set(ids)) == 1
            shape = f"{size} identical tiles"
        if not ok:
            shown = format_tiles(ids) if all(0 <= t < NUM_KINDS for t in ids) else str(ids)
            raise MahjongError("bad_meld", f"{kind}:{shown}{at} is not {shape}")
        return cls(kind, ids)


def _is_run(ids: tuple[int, ...]) -> bool:
    return ids[0] < 27 and ids[0] % 9 <= 6 and ids == (ids[0], ids[0] + 1, ids[0] + 2)


def _stand_in(ids: tuple[int, ...]) -> int | None:
    """The tile of a sorted three-tile chi that is not part of a run with the other two (two
    tiles of one suit at most two ranks apart), or None."""
    for i in range(3):
        a, b = (t for j, t in enumerate(ids) if j != i)
        if b < 27 and a // 9 == b // 9 and 0 < b - a <= 2:
            return ids[i]
    return None


class Decomposition(NamedTuple):
    """One split of the concealed tiles: the pair, the runs (by start id), the pungs."""

    pair: int
    chows: tuple[int, ...]
    pungs: tuple[int, ...]


class Wait(NamedTuple):
    """A tile that completes the hand."""

    tile: str
    id: int


def _meld_from(value: object) -> Meld:
    """A (kind, tiles) pair given by a caller, checked like a parsed meld."""
    if not isinstance(value, tuple | list) or len(value) != 2 or not isinstance(value[0], str):
        raise MahjongError("bad_meld", f"a meld is (kind, tiles), not {value!r:.60}")
    return Meld.of(value[0], value[1])


class Hand(HandBase):
    """Concealed tile counts plus declared melds."""

    __slots__ = ()

    def __init__(self, counts: Iterable[int], melds: Iterable[Meld] = ()) -> None:
        try:
            counts_t = tuple(counts)
        except TypeError:
            raise MahjongError("bad_tile", "counts must be a sequence of 34 ints") from None
        if not melds:
            try:  # the compiled checks pass almost every hand; on failure, the ones below say why
                HandBase.__init__(self, counts_t, (), counts_t)
                return
            except MahjongError:
                pass
        if len(counts_t) != NUM_KINDS:
            raise MahjongError("wrong_tile_count", f"counts must have 34 entries, got {len(counts_t)}")
        try:
            given = tuple(melds)
        except TypeError:
            raise MahjongError("bad_meld", "melds must be a sequence of (kind, tiles)") from None
        # a Meld can be built directly (it is a NamedTuple), so every meld is checked here
        melds_t = tuple(_meld_from(m) for m in given)
        held = list(counts_t)
        for i, c in enumerate(counts_t):
            if not isinstance(c, int) or isinstance(c, bool) or c < 0:
                raise MahjongError("bad_tile", f"count of {_tile_text(i)} is {c!r:.20}, not a count")
        for m in melds_t:
            for t in m.tiles:
                held[t] += 1
        for i, c in enumerate(held):
            if c > 4:
                raise MahjongError("too_many_copies", f"{_tile_text(i)} appears {c} times")
        HandBase.__init__(self, counts_t, melds_t, tuple(held))

    @classmethod
    def parse(cls, text: str) -> Hand:
        """``Hand.parse("234m345m66p peng:888p angang:9999p")``."""
        if type(text) is not str:
            if isinstance(text, Hand):
                return text
            if not isinstance(text, str):
                raise MahjongError("bad_notation", f"a hand is text or a Hand, not {type(text).__name__}")
        if len(text) > MAX_TEXT:
            raise MahjongError("bad_notation", f"hand text is {len(text)} characters, more than {MAX_TEXT}")
        counts = [0] * NUM_KINDS
        melds: list[Meld] = []
        pos = 0
        for token in text.split(" "):
            if token:
                kind, colon, body = token.partition(":")
                if colon:
                    if kind not in MELD_KINDS:
                        raise MahjongError("bad_meld", f"unknown meld kind {kind!r} at {pos}")
                    tiles = parse_tiles(body, pos + len(kind) + 1)
                    melds.append(Meld.of(kind, tiles, str(pos)))
                else:
                    if melds:
                        raise MahjongError("bad_notation", f"concealed tiles at {pos} come after the melds")
                    if not _count_runs(token, counts):
                        for t in parse_tiles(token, pos):
                            if t >= NUM_KINDS:
                                raise MahjongError("bad_tile", f"a flower ({_tile_text(t)}) at {pos} is "
                                                   "never part of a hand: the rule sets that use "
                                                   "flowers take them in the win context")
                            counts[t] += 1
            pos += len(token) + 1
        return cls(counts, melds)

    @classmethod
    def from_tiles(cls, tiles: Iterable[int], melds: Iterable[Meld] = ()) -> Hand:
        counts = [0] * NUM_KINDS
        try:
            tiles = tuple(tiles)
        except TypeError:
            raise MahjongError("bad_tile", "tiles must be a sequence of tile ids") from None
        for t in tiles:
            if not isinstance(t, int) or isinstance(t, bool) or not 0 <= t < NUM_KINDS:
                raise MahjongError("bad_tile", f"tile id {t!r} is not in 0..33")
            counts[t] += 1
        return cls(counts, melds)

    def to_text(self) -> str:
        return " ".join([format_counts(self.counts)] + [m.to_text() for m in self.melds]).strip()

    def tiles(self) -> list[int]:
        """The concealed tiles as sorted ids."""
        return [t for t in range(NUM_KINDS) for _ in range(self.counts[t])]

    def with_tile(self, tile: int) -> Hand:
        """This hand with one more concealed tile."""
        counts = list(self.counts)
        counts[tile] += 1
        return Hand(counts, self.melds)

    def all_counts(self) -> tuple[int, ...]:
        """Counts over concealed tiles and melds (a kong counts four)."""
        return self.held

    def __repr__(self) -> str:
        return f"Hand.parse({self.to_text()!r})"

    def __reduce__(self) -> tuple[type[Hand], tuple[tuple[int, ...], tuple[Meld, ...]]]:
        return (Hand, (self.counts, self.melds))


def _valued_waits(hand: object, **kwargs: object) -> object:
    from mjcore.rules import valued_waits  # the rule sets build on the core: loaded on first use

    return valued_waits(hand, **kwargs)  # type: ignore[arg-type]


# the compiled core builds these types in its answers
_core._register_hand_type(Hand)
_core._register_decomposition_type(Decomposition)
_core._register_waits([Wait(_tile_text(t), t) for t in range(NUM_KINDS)], _valued_waits)
