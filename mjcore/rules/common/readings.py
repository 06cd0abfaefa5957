"""Readings: every way to see a winning hand, in the terms every rule set prices.

A reading is one standard decomposition (the concealed tiles split into sets and one pair,
the declared melds as fixed sets) or one special shape (七对, 十三幺 …). Each set says its
kind and lowest tile, whether it is concealed, which meld it is (if declared) and the seat it
was claimed from. The rule sets' pattern predicates (``common.patterns`` and their own) read
only this.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from mjcore._core import decompose, win_shapes
from mjcore.hand import Decomposition, Hand, Meld


class TileSet(NamedTuple):
    """One set of a reading: ``kind`` is ``chow``, ``pung`` or ``kong``; ``tile`` its lowest
    tile; ``meld`` the declared meld kind (``chi`` ``peng`` ``gang`` ``angang`` ``bugang``) or
    ``""`` for a set formed by the concealed tiles; ``from_seat`` the seat a declared meld was
    claimed from (``None`` when not given or concealed)."""

    kind: str
    tile: int
    concealed: bool
    meld: str = ""
    from_seat: int | str | None = None

    @property
    def is_pung(self) -> bool:
        """A pung or a kong (a kong counts as a pung for every pattern)."""
        return self.kind != "chow"


class Reading(NamedTuple):
    """One reading of a winning hand.

    ``shape``: ``standard`` or a special shape id; ``sets``: the declared melds (in the order
    made) then the concealed sets; ``pair``: the pair's tile (-1 for shapes without one);
    ``pairs``: the 七对 pairs (a kind held four times appears twice); ``held``: the 34 counts
    over concealed tiles and melds (a kong counts four); ``melds``: how many declared melds;
    ``win_tile``: the winning tile; ``wilds``: ``(wild kind, kind it stood for)`` for each wild
    tile used (empty without wild tiles)."""

    shape: str
    sets: tuple[TileSet, ...]
    pair: int
    pairs: tuple[int, ...]
    held: tuple[int, ...]
    melds: int
    win_tile: int
    wilds: tuple[tuple[int, int], ...] = ()


def meld_sets(hand: Hand, meld_from: Sequence[int | str | None] | None = None) -> tuple[TileSet, ...]:
    """The declared melds as sets, with the seat each came from when ``meld_from`` says."""
    out = []
    for i, m in enumerate(hand.melds):
        if not m.is_set:  # a one-tile meld laid aside (痞子杠, 赖子杠)
            continue
        src = meld_from[i] if meld_from is not None and i < len(meld_from) else None
        kind = "chow" if m.kind == "chi" else "pung" if m.kind == "peng" else "kong"
        out.append(TileSet(kind, _run_start(m) if kind == "chow" else m.tiles[0],
                           m.kind == "angang", m.kind, None if m.kind == "angang" else src))
    return tuple(out)


def _run_start(m: Meld) -> int:
    """The first tile of a chi's run. With a stand-in, the run of its two other tiles: the
    stand-in fills the gap, or completes the run above them (below, for an 8-9); a rule set
    with wild tiles checks what the stand-in may stand for."""
    stand_in = m.stand_in
    if stand_in is None:
        return m.tiles[0]
    a, b = sorted(t for i, t in enumerate(m.tiles) if i != m.tiles.index(stand_in))
    if b - a == 2:
        return a
    return a if a % 9 < 7 else a - 1


def readings(hand: Hand, win_tile: int, shapes: Sequence[str] = ("standard",),
             meld_from: Sequence[int | str | None] | None = None) -> tuple[Reading, ...]:
    """Every reading of ``hand`` (concealed tiles including ``win_tile``, plus melds) among
    ``shapes``: standard decompositions first (in the core's order), then special shapes."""
    held = hand.all_counts()
    fixed = meld_sets(hand, meld_from)
    n = len(hand.melds)
    out: list[Reading] = []
    if "standard" in shapes:
        for d in decompose(hand):
            sets = fixed + tuple(TileSet("chow", t, True) for t in d.chows) + tuple(
                TileSet("pung", t, True) for t in d.pungs)
            out.append(Reading("standard", sets, d.pair, (), held, n, win_tile))
    special = [s for s in shapes if s != "standard"]
    if special and not n:
        for shape in sorted(win_shapes(hand, shapes=tuple(special))):
            counts = hand.counts
            if shape.startswith("qidui"):
                pairs = tuple(t for t in range(34) for _ in range(counts[t] // 2))
                out.append(Reading(shape, (), -1, pairs, held, 0, win_tile))
            else:
                pair = next((t for t in range(34) if counts[t] >= 2), -1)
                out.append(Reading(shape, (), pair, (), held, 0, win_tile))
    return tuple(out)


def concealed_decomposition(r: Reading, pair: int | None = None) -> Decomposition:
    """The sets of a standard reading formed by the concealed tiles (declared melds left out)
    as a ``Decomposition``; a wild counts as the kind it stands for. ``pair`` replaces
    ``r.pair`` (a reading of sets only, whose pair was taken out first)."""
    own = [s for s in r.sets if not s.meld]
    return Decomposition(r.pair if pair is None else pair,
                         tuple(sorted(s.tile for s in own if s.kind == "chow")),
                         tuple(sorted(s.tile for s in own if s.kind != "chow")))


def win_slots(r: Reading) -> tuple[int, ...]:
    """Where the winning tile can sit in reading ``r``: the index in ``r.sets`` of each
    concealed set holding it (one index per distinct set), and -1 for the pair. In
    ``234p456p`` won on 4p the 4p may have completed either run: both are slots."""
    w = r.win_tile
    out: list[int] = []
    seen: set[tuple[str, int]] = set()
    for i, s in enumerate(r.sets):
        if s.meld or (s.kind, s.tile) in seen:
            continue
        if s.tile == w or (s.kind == "chow" and s.tile < w <= s.tile + 2):
            seen.add((s.kind, s.tile))
            out.append(i)
    if r.pair == w:
        out.append(-1)
    return tuple(out)
