"""Coercing and checking what callers pass: tiles, hands, visible tiles, seats and flags.

Every rule set accepts the same forms: a tile as an id (0-33) or text (``"5p"``), a hand as a
``Hand`` or its text, visible tiles as 34 counts, a list of tiles or tiles text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from mjcore._core import HandBase
from mjcore.errors import MahjongError
from mjcore.hand import Hand
from mjcore.rules.common.memo import Memo
from mjcore.tiles import MAX_TEXT, parse_tiles, tile_id
from mjcore.tiles import tile_to_text as tile_text

_CACHE_LIMIT = 50_000
_PARSED: Memo[str, Hand] = Memo(_CACHE_LIMIT)


def hand_of(hand: object) -> Hand:
    """A ``Hand`` from a Hand or its text (parsed texts are memoised, bounded)."""
    if isinstance(hand, Hand):
        return hand
    if isinstance(hand, str):
        parsed = _PARSED.get(hand)
        if parsed is None:
            parsed = Hand.parse(hand)
            _PARSED.keep(hand, parsed)
        return parsed
    raise MahjongError("bad_notation", f"expected a Hand or hand text, got {type(hand).__name__}")


def clear_caches() -> None:
    """Forget the parsed hand texts (for cold benchmarks)."""
    _PARSED.clear()


def plus_tile(hand: Hand, tile: int) -> Hand:
    """``hand`` with one more concealed ``tile``, built without re-validation: callers only
    add a tile of which fewer than four are held (``Hand.with_tile`` checks everything and
    costs several times more; this is the waits/claims hot path)."""
    counts = list(hand.counts)
    counts[tile] += 1
    held = list(hand.all_counts())
    held[tile] += 1
    new = Hand.__new__(Hand)
    HandBase.__init__(new, tuple(counts), hand.melds, tuple(held))
    return new


def minus_tile(hand: Hand, tile: int) -> Hand:
    """``hand`` less one concealed ``tile`` (held), built without re-validation like
    ``plus_tile`` (the 16-tile hand of a 17-tile win, on the scoring hot path)."""
    counts = list(hand.counts)
    counts[tile] -= 1
    held = list(hand.all_counts())
    held[tile] -= 1
    new = Hand.__new__(Hand)
    HandBase.__init__(new, tuple(counts), hand.melds, tuple(held))
    return new


def visible_counts(visible: object) -> tuple[int, ...]:
    """Tiles seen elsewhere (discards, others' melds) as 34 counts: from ``None``, 34 counts,
    a list of tile ids or texts, or tiles text such as ``"55p19m"``."""
    if visible is None:
        return (0,) * 34
    if isinstance(visible, str):
        if len(visible) > MAX_TEXT:
            raise MahjongError("bad_notation", f"visible text is longer than {MAX_TEXT}")
        counts = [0] * 34
        for t in parse_tiles(visible.replace(" ", ""), 0) if visible.strip() else ():
            if t >= 34:  # a flower is never a wait, so never a visible copy of one
                raise MahjongError("bad_tile", f"visible holds a flower ({tile_text(t)})")
            counts[t] += 1
    elif isinstance(visible, Sequence | Iterable) and not isinstance(visible, bytes):
        items = list(visible)
        if len(items) == 34 and all(type(x) is int for x in items):
            counts = items
        else:
            if len(items) > 136:
                raise MahjongError("bad_tile", "visible lists at most 136 tiles")
            counts = [0] * 34
            for x in items:
                counts[tile_id(x, "a visible tile")] += 1
    else:
        raise MahjongError("bad_tile", "visible must be 34 counts, a list of tiles or tiles "
                           "text such as '55p19m'")
    if not all(0 <= c <= 4 for c in counts):
        raise MahjongError("bad_tile", "visible holds at most 4 copies of a tile")
    return tuple(counts)


def seat(key: str, value: object, code: str = "bad_context") -> int:
    """A seat 0-3 (``None`` gives -1)."""
    if value is None:
        return -1
    if type(value) is int and 0 <= value < 4:
        return value
    raise MahjongError(code, f"{key!r} must be a seat 0-3, got {value!r:.40}")


def flag(key: str, value: object, code: str = "bad_context") -> bool:
    if isinstance(value, bool):
        return value
    raise MahjongError(code, f"{key!r} must be true or false, got {value!r:.40}")


__all__ = ["clear_caches", "flag", "hand_of", "minus_tile", "plus_tile", "seat", "tile_id", "tile_text",
           "visible_counts"]
