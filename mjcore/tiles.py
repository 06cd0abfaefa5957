"""Tile ids and the text notation.

Ids 0-33: 1-9m = 0-8, 1-9p = 9-17, 1-9s = 18-26, honours 1z-7z = 27-33
(东 南 西 北 白 发 中). Ids 34-41 are reserved for flowers; no hand holds them yet.

Hand text: concealed tiles as suit runs (``123m456p11z``), then space-separated melds
``kind:tiles`` with kind one of chi, peng, gang (exposed kong from a discard), angang
(concealed kong) and bugang (a fourth tile added to one's own peng).
"""

from __future__ import annotations

from .errors import MahjongError

NUM_KINDS = 34
SUITS = "mpsz"
SUIT_NAMES = {"m": "万", "p": "筒", "s": "条", "z": "字"}
HONOUR_NAMES = ("东", "南", "西", "北", "白", "发", "中")
MELD_KINDS = ("chi", "peng", "gang", "angang", "bugang", "pizigang", "laizigang")
SET_MELDS = ("chi", "peng", "gang", "angang", "bugang")
"""Melds that are sets of the hand; Wuhan's ``pizigang``/``laizigang`` are one tile laid aside."""
FLOWERS = range(34, 42)
"""Flowers and seasons ``1f``-``8f`` (春 夏 秋 冬 梅 蘭 菊 竹): never part of a hand or a meld;
the rule sets that use them take them in the win context."""
MAX_TEXT = 2000  # far longer than any real hand; bounds the work a bad input can cause

_TEXT = tuple(f"{r + 1}{s}" for s in "mps" for r in range(9)) + tuple(f"{r + 1}z" for r in range(7))
_IDS = {t: i for i, t in enumerate(_TEXT)}


def tile_to_text(tile: int) -> str:
    """``13 -> "5p"`` (and the flowers ``34 -> "1f"`` … ``41 -> "8f"``)."""
    if not isinstance(tile, int) or isinstance(tile, bool) or not 0 <= tile < 42:
        raise MahjongError("bad_tile", f"tile id {tile!r:.40} is not in 0..41")
    return _TEXT[tile] if tile < NUM_KINDS else f"{tile - 33}f"


def tile_from_text(text: str) -> int:
    """``"5p" -> 13``."""
    if not isinstance(text, str):
        raise MahjongError("bad_tile", f"tile {text!r} is not a string like '5p'")
    tile = _IDS.get(text.strip())
    if tile is None:
        raise MahjongError("bad_tile", f"{text[:20]!r} is not a tile (write e.g. '5p' or '7z')")
    return tile


def suit_of(tile: int) -> int:
    """0 m, 1 p, 2 s, 3 honours."""
    return tile // 9 if tile < 27 else 3


def parse_tiles(text: str, offset: int = 0) -> list[int]:
    """Parse suit runs such as ``123m44z`` into tile ids; ``offset`` is for error positions."""
    tiles: list[int] = []
    pending: list[tuple[int, int]] = []  # (rank digit, position) waiting for their suit letter
    for pos, ch in enumerate(text):
        if "0" <= ch <= "9":
            pending.append((ord(ch) - 48, offset + pos))
        elif ch in SUITS or ch == "f":
            if not pending:
                raise MahjongError("bad_notation", f"suit letter '{ch}' at {offset + pos} has no ranks")
            top = 7 if ch == "z" else 8 if ch == "f" else 9
            base = 34 if ch == "f" else SUITS.index(ch) * 9
            for rank, rpos in pending:
                if not 1 <= rank <= top:
                    raise MahjongError("bad_tile", f"'{rank}{ch}' at {rpos} is not a tile")
                tiles.append(base + rank - 1)
            pending = []
        else:
            raise MahjongError("bad_notation", f"unexpected character {ch!r} at {offset + pos}")
    if pending:
        raise MahjongError(
            "bad_notation", f"ranks at {pending[0][1]} have no suit letter (write e.g. '123m')"
        )
    return tiles


def format_tiles(tiles: list[int] | tuple[int, ...]) -> str:
    """Tile ids to suit runs, sorted: ``[13, 0, 1] -> "12m5p"`` (flowers ``34 -> "1f"``)."""
    out: list[str] = []
    for suit in range(4):
        ranks = sorted(t - suit * 9 + 1 for t in tiles if t < NUM_KINDS and suit_of(t) == suit)
        if ranks:
            out.append("".join(map(str, ranks)) + SUITS[suit])
    flowers = sorted(t - 33 for t in tiles if t in FLOWERS)
    if flowers:
        out.append("".join(map(str, flowers)) + "f")
    return "".join(out)


def parse_flowers(text: str) -> tuple[int, ...]:
    """Flower ids from text such as ``"37f"``: ``(36, 40)``; anything else is ``bad_tile``."""
    if len(text) > MAX_TEXT:
        raise MahjongError("bad_notation", f"flower text is longer than {MAX_TEXT}")
    tiles = parse_tiles(text) if text else []
    for t in tiles:
        if t not in FLOWERS:
            raise MahjongError("bad_tile", f"{tile_to_text(t)} is not a flower (1f-8f)")
    return tuple(tiles)


def format_counts(counts: tuple[int, ...] | list[int]) -> str:
    return format_tiles([t for t in range(NUM_KINDS) for _ in range(counts[t])])


def tile_id(tile: object, what: str = "tile") -> int:
    """A tile id from an id (0-33) or text (``"5p"``); ``MahjongError('bad_tile')`` otherwise."""
    if type(tile) is int:
        if 0 <= tile < NUM_KINDS:
            return tile
    elif isinstance(tile, str):
        t = _IDS.get(tile)
        if t is not None:
            return t
    raise MahjongError("bad_tile", f"{what} is not a tile: {tile!r:.40}")
