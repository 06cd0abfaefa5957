"""Taiwan 16-tile scoring (taiwan.md §9): input checks in the order of §1, the win context of
§13, flower wins (§7), readings with the winning tile's slot (§3), waits (§6), the 台 table
(``table.TABLE``), dealer 台 (§8) and the payments (§10). ``report`` gives the answer in the
form of §9 step 8 (the worked cases' ``expected``)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple, cast

from mjcore._core import context_key, wait_mask
from mjcore.errors import MahjongError
from mjcore.hand import Decomposition, Hand, Meld
from mjcore.rules.common import compiled
from mjcore.rules.common.inputs import minus_tile, plus_tile, visible_counts
from mjcore.rules.common.memo import Memo
from mjcore.rules.common.readings import (
    Reading,
    TileSet,
    concealed_decomposition,
    readings,
    win_slots,
)
from mjcore.rules.common.results import PatternHit, ScoreResult, ValuedWait
from mjcore.rules.common.ruleset import ContextKey
from mjcore.rules.common.special import ligu_pung
from mjcore.rules.taiwan.options import TaiwanOptions
from mjcore.rules.taiwan.table import (
    ORDER,
    TABLE,
    TwContext,
    TwReading,
    _full_sets,
    _zhenghua,
    reading,
)
from mjcore.tiles import FLOWERS, MAX_TEXT, SET_MELDS, tile_to_text

NAME = "taiwan"
HAND_TILES = 17
RELATIVE = ("self", "right", "across", "left")  # seat (winner + k) % 4 is RELATIVE[k]
_CACHE_LIMIT = 20_000  # the Python path's readings memo
_CONTEXT_LIMIT = 4096  # parsed contexts remembered (numbers, keys, compiled wait pairs)
_SHAPES = ("standard",)

CONTEXT_KEYS: tuple[ContextKey, ...] = (
    ContextKey("seat_wind", "門風 1z-4z, counted from the 開門 seat (required)", "wind"),
    ContextKey("round_wind", "圈風 1z-4z (required)", "wind"),
    ContextKey("dealer", "where the dealer sits: self, left, across or right (required)",
               "choice", choices=("self", "left", "across", "right")),
    ContextKey("dealer_streak", "how many times in a row the dealer has already kept the deal",
               "int", 0, 10_000),
    ContextKey("discarder", "the player whose discard was won (the robbed player for 搶槓, the "
               "eighth-flower player for 七搶一): left, across, right; only on a discard win",
               "relative_seat"),
    ContextKey("flowers", "the flowers the winner has laid aside, e.g. \"15f\"", "tiles"),
    ContextKey("qiang_gang", "搶槓: won on another player's bugang tile (not self-drawn)"),
    ContextKey("gang_shang_kai_hua", "self-drawn on the replacement tile after one's own kong "
               "or flower (needs replacement_after)"),
    ContextKey("replacement_after", "what the replacement followed: angang, bugang, gang or "
               "flower (the winner's own meld of that kind, or a flower)", "choice",
               choices=("angang", "bugang", "gang", "flower")),
    ContextKey("hai_di_lao_yue", "self-draw of the last tile before the 16-tile reserve"),
    ContextKey("he_di_lao_yu", "win on the discard made after the last tile was drawn"),
    ContextKey("tianhu", "天胡: the dealer's dealt hand wins (self-drawn, no melds)"),
    ContextKey("dihu", "地胡: a non-dealer wins on his first draw (self-drawn, no melds)"),
    ContextKey("renhu", "人胡: a non-dealer wins on a first go-around discard (no melds)"),
    ContextKey("ting", "tian (天聽) or di (地聽): the 聽 declaration the winner made", "choice",
               choices=("tian", "di")),
    ContextKey("flower_win", "baxian (八仙過海) or qiqiangyi (七搶一)", "choice",
               choices=("baxian", "qiqiangyi")),
    ContextKey("winner", "the winner's seat 0-3 (default 0): payments name seats from it",
               "seat"),
)
_KEYS = frozenset(k.id for k in CONTEXT_KEYS)
_BOOLS = ("qiang_gang", "gang_shang_kai_hua", "hai_di_lao_yue", "he_di_lao_yu", "tianhu",
          "dihu", "renhu")
_WINDS = {f"{i}z": 26 + i for i in range(1, 5)}


def _err(code: str, message: str) -> MahjongError:
    return MahjongError(code, message)


# --------------------------------------------------------------------------- input (§1)

_TOP = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}  # each suit letter's highest rank


def _lex(text: str, at: int) -> list[int]:
    """Tile ids of suit runs (flowers ``f`` included); anything unparseable is
    ``bad_notation`` (``0m``, ``8z``, ``9f``, a stray character)."""
    out: list[int] = []
    ranks: list[int] = []
    for i, ch in enumerate(text):
        if ch.isdigit() and ch.isascii():
            ranks.append(int(ch))
            continue
        top = _TOP.get(ch)
        if top is None or not ranks:
            raise _err("bad_notation", f"unexpected {ch!r} at {at + i}")
        base = 34 if ch == "f" else "mpsz".index(ch) * 9
        for r in ranks:
            if not 1 <= r <= top:
                raise _err("bad_notation", f"'{r}{ch}' at {at + i} is not a tile")
            out.append(base + r - 1)
        ranks = []
    if ranks:
        raise _err("bad_notation", f"ranks at {at} have no suit letter")
    return out


class _Parsed(NamedTuple):
    """A hand's text after the notation check: (meld kind or "", tile ids, position) parts."""

    parts: tuple[tuple[str, tuple[int, ...], int], ...]


def _lex_hand(text: object) -> _Parsed | Hand:
    """§1 item 1 for the hand: the text split into parts of known notation."""
    if isinstance(text, Hand):
        return text
    if not isinstance(text, str):
        raise _err("bad_notation", f"a hand is text or a Hand, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise _err("bad_notation", f"hand text is longer than {MAX_TEXT}")
    parts: list[tuple[str, tuple[int, ...], int]] = []
    pos = 0
    for token in text.split(" "):
        if token:
            kind, colon, body = token.partition(":")
            if not colon:
                if parts and parts[-1][0]:
                    raise _err("bad_notation", f"concealed tiles at {pos} come after the melds")
                parts.append(("", tuple(_lex(token, pos)), pos))
            else:
                parts.append((kind, tuple(_lex(body, pos + len(kind) + 1)), pos))
        pos += len(token) + 1
    return _Parsed(tuple(parts))


def _melds(parsed: _Parsed) -> list[Meld]:
    """§1 item 2: every meld a known kind of the right shape, no flower in it."""
    melds: list[Meld] = []
    for kind, tiles, at in parsed.parts:
        if kind:
            if kind not in SET_MELDS:
                raise _err("bad_meld", f"unknown meld kind {kind!r} at {at} (use "
                           f"{', '.join(SET_MELDS)})")
            if any(t in FLOWERS for t in tiles):
                raise _err("bad_meld", f"a flower in the meld at {at}: flowers are laid aside")
            meld = Meld.of(kind, tiles, str(at))
            if meld.stand_in is not None:  # no wild tiles here: a chi is a run
                raise _err("bad_meld", f"chi at {at} is not three consecutive tiles of one suit")
            melds.append(meld)
    return melds


def _concealed(parsed: _Parsed) -> list[int]:
    """§1 item 3 for the hand: the concealed counts, a flower refused."""
    counts = [0] * 34
    for kind, tiles, at in parsed.parts:
        if not kind:
            for t in tiles:
                if t in FLOWERS:
                    raise _err("bad_tile", f"a flower ({tile_to_text(t)}) at {at} is never part "
                               "of the hand: list it in the context's flowers")
                counts[t] += 1
    return counts


def check_counts(counts: Iterable[int], melds: list[Meld] | tuple[Meld, ...],
                 flower_win: bool, size: int = HAND_TILES) -> None:
    """§1 item 4: at most four of a kind, five melds at most and 17 − 3 × melds concealed
    tiles (a flower win: the holding at that moment, 16 or 17 − 3 × melds; a waiting hand:
    ``size`` 16)."""
    concealed = list(counts)
    held = list(concealed)
    for m in melds:
        for t in m.tiles:
            held[t] += 1
    for t, n in enumerate(held):
        if n > 4:
            raise _err("tile_count", f"{tile_to_text(t)} appears {n} times")
    if len(melds) > 5:
        raise _err("tile_count", f"{len(melds)} melds: at most five")
    if any(not m.is_set for m in melds):
        raise _err("bad_meld", "melds are chi, peng, gang, angang or bugang")
    need = size - 3 * len(melds)
    got = sum(concealed)
    if got != need and not (flower_win and got == need - 1):
        raise _err("tile_count", f"{got} concealed tiles, taiwan needs {size} - 3 x melds = "
                   f"{need}"
                   + (" (or one fewer for a flower win)" if flower_win else ""))


def parse_hand(hand: object, flower_win: bool = False, size: int = HAND_TILES) -> Hand:
    """A 16-tile play hand from text (or a ``Hand``), checked in §1's order: notation, melds,
    a flower in the hand, the counts (``size`` 16 for a waiting hand)."""
    lexed = _lex_hand(hand)
    if isinstance(lexed, Hand):
        check_counts(lexed.counts, lexed.melds, flower_win, size)
        return lexed
    melds = _melds(lexed)
    counts = _concealed(lexed)
    check_counts(counts, melds, flower_win, size)
    return Hand(counts, melds)


def tile_of(value: object, what: str) -> int:
    """A tile id 0-41 from an id or text (flowers allowed); ``bad_notation`` otherwise."""
    if type(value) is int and 0 <= value < 42:
        return value
    if isinstance(value, str) and len(value) <= 3:
        tiles = _lex(value.strip(), 0)
        if len(tiles) == 1:
            return tiles[0]
    raise _err("bad_notation", f"{what} is not a tile: {value!r:.40}")


def _lex_flowers(value: object) -> list[int]:
    """§1 item 1 for the context's ``flowers``: text such as ``"15f"`` or a list of tiles."""
    if value is None or value == "":
        return []
    if isinstance(value, str):
        if len(value) > 64:
            raise _err("bad_notation", "flowers text is too long")
        return _lex(value.replace(" ", ""), 0)
    if isinstance(value, Iterable) and not isinstance(value, bytes | Mapping):
        return [tile_of(x, "a flower") for x in list(value)[:9]]
    raise _err("bad_notation", f"flowers must be text such as '15f', got {value!r:.40}")


def _check_flowers(tiles: list[int]) -> None:
    for t in tiles:
        if t not in FLOWERS:
            raise _err("bad_tile", f"{tile_to_text(t)} is not a flower (1f-8f)")


def _count_flowers(tiles: list[int]) -> tuple[int, ...]:
    if len(set(tiles)) != len(tiles):
        raise _err("tile_count", "a flower is listed twice")
    return tuple(sorted(tiles))


def parse_flowers(value: object) -> tuple[int, ...]:
    """The context's ``flowers`` as sorted ids (notation errors ``bad_notation``, a non-flower
    ``bad_tile``, one listed twice ``tile_count``)."""
    tiles = _lex_flowers(value)
    _check_flowers(tiles)
    return _count_flowers(tiles)


# --------------------------------------------------------------------------- context (§13)

def _choice(ctx: Mapping[str, object], key: str, values: tuple[str, ...],
            required: bool = False) -> str | None:
    v = ctx.get(key)
    if v is None:
        if required:
            raise _err("bad_context", f"context {key!r} is required ({', '.join(values)})")
        return None
    if not isinstance(v, str) or v not in values:
        raise _err("bad_context", f"context {key!r} must be one of {', '.join(values)}, got "
                   f"{v!r:.40}")
    return v


def parse_context(ctx: Mapping[str, object], hand: Hand, win_tile: int, self_drawn: bool,
                  flowers: tuple[int, ...], o: TaiwanOptions) -> TwContext:
    """§13's checks (``bad_context``), after the input checks."""
    for key in ctx:
        if key not in _KEYS:
            raise _err("bad_context", f"unknown context key {key!r:.40} (known: "
                       f"{', '.join(sorted(_KEYS))})")
    winds = {}
    for key in ("seat_wind", "round_wind"):
        v = ctx.get(key)
        if not isinstance(v, str) or v not in _WINDS:
            raise _err("bad_context", f"context {key!r} is required: 1z-4z, got {v!r:.40}")
        winds[key] = _WINDS[v]
    dealer = _choice(ctx, "dealer", RELATIVE, required=True)
    assert dealer is not None
    streak = ctx.get("dealer_streak", 0)
    if type(streak) is not int or not 0 <= streak <= 10_000:
        raise _err("bad_context", f"dealer_streak must be an integer 0-10000, got {streak!r:.40}")
    winner = ctx.get("winner", 0)
    if winner is None:
        winner = 0
    if type(winner) is not int or not 0 <= winner < 4:
        raise _err("bad_context", f"winner must be a seat 0-3, got {winner!r:.40}")
    flags = {}
    for key in _BOOLS:
        v = ctx.get(key, False)
        if not isinstance(v, bool):
            raise _err("bad_context", f"context {key!r} must be true or false, got {v!r:.40}")
        flags[key] = v
    discarder = _choice(ctx, "discarder", RELATIVE[1:])
    if self_drawn and discarder is not None:
        raise _err("bad_context", "a self-drawn win has no discarder")
    if not self_drawn and discarder is None:
        raise _err("bad_context", "a discard win needs the discarder (left, across, right)")
    after = _choice(ctx, "replacement_after", ("angang", "bugang", "gang", "flower"))
    ting = _choice(ctx, "ting", ("tian", "di"))
    flower_win = _choice(ctx, "flower_win", ("baxian", "qiqiangyi"))
    melds = hand.melds
    if flags["qiang_gang"] and self_drawn:
        raise _err("bad_context", "qiang_gang (搶槓) is not a self-drawn win")
    if flags["gang_shang_kai_hua"] and (not self_drawn or after is None):
        raise _err("bad_context", "gang_shang_kai_hua needs a self-drawn win and "
                   "replacement_after")
    if after is not None:
        if after == "flower" and not flowers:
            raise _err("bad_context", "replacement_after flower, but the winner has no flower")
        if after != "flower" and not any(m.kind == after for m in melds):
            raise _err("bad_context", f"replacement_after {after}, but the winner has no "
                       f"{after} meld")
    if flags["hai_di_lao_yue"] and not self_drawn:
        raise _err("bad_context", "hai_di_lao_yue needs a self-drawn win")
    if flags["he_di_lao_yu"] and self_drawn:
        raise _err("bad_context", "he_di_lao_yu is a win on a discard, not self-drawn")
    first = [k for k in ("tianhu", "dihu", "renhu") if flags[k]]
    if len(first) > 1:
        raise _err("bad_context", "at most one of tianhu, dihu, renhu")
    if first:
        kind = first[0]
        if melds:
            raise _err("bad_context", f"{kind} is won on the dealt hand: no melds")
        if kind == "tianhu" and (dealer != "self" or not self_drawn):
            raise _err("bad_context", "tianhu is the dealer's (dealer: self) self-drawn win")
        if kind == "dihu" and (dealer == "self" or not self_drawn):
            raise _err("bad_context", "dihu is a non-dealer's self-drawn win")
        if kind == "renhu" and (dealer == "self" or self_drawn):
            raise _err("bad_context", "renhu is a non-dealer's win on a discard")
    if ting is not None:
        if any(m.kind != "angang" for m in melds):
            raise _err("bad_context", "ting (天聽/地聽): no melds other than angang")
        if ting == "tian" and dealer == "self":
            raise _err("bad_context", "ting tian (天聽) is a non-dealer's")
    if flower_win is not None:
        if not o.flower_wins:
            raise _err("bad_context", "flower_win needs the option flower_wins")
        others = [k for k in _BOOLS if flags[k]] + (["replacement_after"] if after else [])
        if others:
            raise _err("bad_context", f"a flower win takes no {', '.join(others)}")
        if win_tile not in FLOWERS:
            raise _err("bad_context", "a flower win's win_tile is the eighth flower (1f-8f)")
        if flower_win == "baxian" and (not self_drawn or len(flowers) != 8):
            raise _err("bad_context", "baxian (八仙過海): self-drawn, flowers lists all eight "
                       "(win_tile the one that came last)")
        if flower_win == "qiqiangyi" and (self_drawn or len(flowers) != 7
                                          or win_tile in flowers):
            raise _err("bad_context", "qiqiangyi (七搶一): flowers lists the winner's seven, "
                       "win_tile is the eighth, not self-drawn, discarder got it")
    else:
        if win_tile in FLOWERS or not hand.counts[win_tile]:
            raise _err("bad_context", f"win tile {tile_to_text(win_tile)} is not in the hand")
        if len(flowers) == 8 and o.flower_wins:
            raise _err("bad_context", "all eight flowers on a normal win: the eighth flower "
                       "ends the hand as a flower win (flower_wins)")
    return TwContext(winds["seat_wind"], winds["round_wind"], dealer, streak, discarder,
                     self_drawn, flowers, flags["qiang_gang"], flags["gang_shang_kai_hua"],
                     after, flags["hai_di_lao_yue"], flags["he_di_lao_yu"],
                     first[0] if first else None, ting, flower_win, winner)


# --------------------------------------------------------------------------- readings and waits

def wait_kinds(hand16: Hand, o: TaiwanOptions) -> int:
    """§6: the kinds t such that the 16-tile hand plus t has a reading, less the kinds whose
    four copies are all in the hand and melds already."""
    held = hand16.all_counts()
    mask = wait_mask(hand16, shapes=_SHAPES)
    if o.ligu and not hand16.melds:
        counts = list(hand16.counts)
        for t in range(34):
            counts[t] += 1
            if ligu_pung(counts) >= 0:
                mask |= 1 << t
            counts[t] -= 1
    for t in range(34):
        if held[t] >= 4:
            mask &= ~(1 << t)
    return mask


_READINGS: Memo[tuple[Hand, int, bool], tuple[TwReading, ...]] = Memo(_CACHE_LIMIT)


def tw_readings(hand: Hand, win_tile: int, o: TaiwanOptions) -> tuple[TwReading, ...]:
    """Every reading of §3 (a split and a slot of the winning tile), memoised per hand."""
    key = (hand, win_tile, o.ligu)
    got = _READINGS.get(key)
    if got is not None:
        return got
    waits = wait_kinds(minus_tile(hand, win_tile), o)
    out = [reading(r, slot, waits) for r in readings(hand, win_tile, _SHAPES)
           for slot in win_slots(r)]
    pung = ligu_pung(hand.counts) if o.ligu and not hand.melds else -1
    if pung >= 0:
        pairs = tuple(t for t in range(34) if t != pung for _ in range(hand.counts[t] // 2))
        r = Reading("ligu", (TileSet("pung", pung, True),), -1, pairs, hand.all_counts(), 0,
                    win_tile)
        out.append(reading(r, 0 if win_tile == pung else -1, waits))
    result = tuple(out)
    _READINGS.keep(key, result)
    return result


# --------------------------------------------------------------------------- value and payments

def dealer_tai(n: int, o: TaiwanOptions) -> tuple[tuple[str, int], ...]:
    """§8: 莊家 1, 連莊 n, 拉莊 n (with ``lazhuang``); entries worth 0 left out."""
    out = [("zhuangjia", 1), ("lianzhuang", n), ("lazhuang", n if o.lazhuang else 0)]
    return tuple((k, v) for k, v in out if v)


def _best(rs: tuple[TwReading, ...], c: TwContext,
          o: TaiwanOptions) -> tuple[int, tuple[PatternHit, ...], TwReading]:
    """§9 step 6: the reading worth most; ties go to the pattern ids that come first."""
    best: tuple[int, list[int], tuple[PatternHit, ...], TwReading] | None = None
    for tr in rs:
        v = TABLE.evaluate(tr, c, o)
        hits = v.hits if v is not None else ()
        raw = sum(h.fan for h in hits)
        order = [ORDER[h.id] for h in hits]
        if best is None or raw > best[0] or (raw == best[0] and order < best[1]):
            best = (raw, order, hits, tr)
    assert best is not None
    return best[0], best[2], best[3]


def _payers(c: TwContext, o: TaiwanOptions) -> tuple[int, tuple[tuple[int, int], ...]]:
    """§10's winner and payers in context ``c``, each with the dealer 台 D he pays (D only
    between the dealer and the winner, else 0)."""
    w = c.winner
    dealer = (w + RELATIVE.index(c.dealer)) % 4
    d = sum(v for _, v in dealer_tai(c.dealer_streak, o))
    if c.self_drawn:
        seats = [(w + k) % 4 for k in (1, 2, 3)]
    else:
        assert c.discarder is not None
        seats = [(w + RELATIVE.index(c.discarder)) % 4]
    return w, tuple((p, d if dealer in (p, w) else 0) for p in seats)


def _paid(tai: int, w: int, payers: tuple[tuple[int, int], ...],
          o: TaiwanOptions) -> tuple[tuple[int, int, int], ...]:
    return tuple((p, w, o.di + (tai + d) * o.tai_value) for p, d in payers)


def payments(tai: int, c: TwContext, o: TaiwanOptions) -> tuple[tuple[int, int, int], ...]:
    """§10: 底 + (台 + D) × 台錢 per payer; D only between the dealer and the winner."""
    return _paid(tai, *_payers(c, o), o)


def _evaluate(hand: Hand, tile: int, c: TwContext, o: TaiwanOptions) -> ScoreResult:
    if c.flower_win is not None:  # §9 step 2
        spec = TABLE.pattern(c.flower_win)
        raw = spec.value(o)
        hits: tuple[PatternHit, ...] = (PatternHit(spec.id, spec.name, raw),)
        shape = c.flower_win
        dec: str | Decomposition = c.flower_win
    else:
        rs = tw_readings(hand, tile, o)
        if not rs:
            raise _err("not_a_win", "the tiles form no five sets and a pair"
                       + (" nor 嚦咕嚦咕" if o.ligu else ""))
        raw, hits, tr = _best(rs, c, o)
        shape = tr.r.shape
        dec = "ligu" if shape == "ligu" else concealed_decomposition(tr.r)
    if raw < o.min_tai:
        raise _err("below_min_tai", f"{raw} 台 is under min_tai {o.min_tai}")
    tai = raw if o.cap_tai is None else min(raw, o.cap_tai)
    return ScoreResult(NAME, "tai", tai, raw, 1, hits, dec, shape, c.self_drawn,
                       payments(tai, c, o))


def check_input(hand: object, win_tile: object, context: object,
                flowers_in_play: bool = True) -> tuple[Hand, int, tuple[int, ...]]:
    """§1 items 1-4, each over every input (the hand, the winning tile, the flowers) before
    the next: the hand, the winning tile and the sorted flowers. Also run when the options
    are refused, so that a bad hand is reported before a bad option (§1's order)."""
    ctx: Mapping[str, object] = context if isinstance(context, Mapping) else {}
    # 1. notation
    lexed = _lex_hand(hand)
    tile = tile_of(win_tile, "win_tile")
    flower_list = _lex_flowers(ctx.get("flowers"))
    # 2. melds; 3. flowers where they do not belong
    melds: list[Meld] | tuple[Meld, ...]
    if isinstance(lexed, Hand):
        melds, counts = lexed.melds, list(lexed.counts)
    else:
        melds, counts = _melds(lexed), _concealed(lexed)
    _check_flowers(flower_list)
    if not flowers_in_play and (flower_list or tile in FLOWERS):
        raise _err("bad_tile", "flowers are not in play (flowers_in_play: false)")
    # 4. counts
    flowers = _count_flowers(flower_list)
    check_counts(counts, melds, ctx.get("flower_win") in ("baxian", "qiqiangyi"))
    return (lexed if isinstance(lexed, Hand) else Hand(counts, melds)), tile, flowers


def analyse(hand: object, win_tile: object, self_drawn: object,
            context: Mapping[str, object] | None,
            o: TaiwanOptions) -> tuple[Hand, int, TwContext]:
    """The checks of §1 in order (item 5, the options, was passed by the caller), then §13's:
    the hand, the winning tile and the context."""
    h, tile, flowers = check_input(hand, win_tile, context, o.flowers_in_play)
    if context is None:
        context = {}
    if not isinstance(context, Mapping):
        raise _err("bad_context", "context must be a mapping of key to value")
    if not isinstance(self_drawn, bool):
        raise _err("bad_context", f"self_drawn must be true or false, got {self_drawn!r:.40}")
    return h, tile, parse_context(context, h, tile, self_drawn, flowers, o)


# --------------------------------------------------------------------------- compiled path
# The table run by the core from its ``when`` data (``_core.CompiledTable``, the additive
# policy); ``MJ_PURE_SCORING=1`` keeps everything on the Python path above, its twin.

_TABLES: Memo[TaiwanOptions, compiled.CompiledTable] = Memo(compiled.TABLES_KEPT)
_ONES = (1,) * 64  # the multiplier of every value: 台 are paid one by one (§10)


def _compiled_table(o: TaiwanOptions) -> compiled.CompiledTable:
    t = compiled.compile_table(TABLE, o, name=NAME, unit="tai", hand_tiles=HAND_TILES,
                               qidui=False, ligu=o.ligu, min_raw=o.min_tai, multipliers=_ONES)
    assert t is not None  # every row of the table has its ``when``
    _TABLES.keep(o, t)
    return t


def context_features(c: TwContext, o: TaiwanOptions) -> list[str]:
    """The names of ``table.CONTEXT_FEATURES`` that hold for the parsed context ``c``."""
    names = [n for n in ("self_drawn", "hai_di_lao_yue", "he_di_lao_yu", "qiang_gang")
             if getattr(c, n)]
    if c.ting is not None and o.tianting_diting:
        names.append("ting")
    if c.ting is not None:
        names.append("tian_ting" if c.ting == "tian" else "di_ting")
    for name in (c.first_turn, c.flower_win):
        if name is not None:
            names.append(name)
    if not c.flowers:
        names.append("no_flowers")
    if c.gang_shang_kai_hua and (c.replacement_after != "gang" or o.gangshang_minggang):
        names.append("gang_shang_kai_hua")
    if o.duting == "one_kind":
        names.append("duting_by_kind")
    return names


def _flower_counts(c: TwContext, o: TaiwanOptions) -> tuple[int, int]:
    """The counted context features ``flower_sets`` and ``seat_flowers`` of ``c``."""
    return len(_full_sets(c)), _zhenghua(None, c, o)  # type: ignore[arg-type]


def _new_context(c: TwContext, o: TaiwanOptions) -> compiled.CompiledContext:
    """The context ``c`` compiled (a new object)."""
    flower_sets, seat_flowers = _flower_counts(c, o)
    w, payers = _payers(c, o)  # (once: its payments by value are asked one by one)
    return compiled.CompiledContext(
        compiled.context_bits(TABLE, context_features(c, o)), c.self_drawn,
        lambda tai, mult: _paid(tai, w, payers, o), seat_wind=c.seat_wind - 27,
        round_wind=c.round_wind - 27, no_melds=c.first_turn is not None, plain_melds=True,
        flower_sets=flower_sets, seat_flowers=seat_flowers)


def _compiled_context(t: compiled.CompiledTable, c: TwContext,
                      o: TaiwanOptions) -> compiled.CompiledContext:
    """The context ``c`` compiled, kept in ``t`` under its number (``_cid``)."""
    cid = _cid(c)
    got = t.context(cid)
    if got is not None:
        return got
    return t.add_context(cid, _new_context(c, o))


def _hand_free(c: TwContext) -> bool:
    """Whether the context's checks against the hand are all the core's (the winning tile
    held; no melds on a first-turn win), so that a call may be answered by its raw items."""
    return c.flower_win is None and c.ting is None and c.replacement_after in (None, "flower")


# Each parsed context's number: the key of its compiled context in every options' table
# (an int: cheap to find), never reused for another context.
_IDS: Memo[TwContext, int] = Memo(_CONTEXT_LIMIT)
_NEXT_ID = itertools.count()
# context_key(self_drawn, context) of a dict context whose checks are all the core's -> its
# parsed context's number; context_key(None, context) of a waits context served -> its
# compiled (discard, self-drawn) pair by options (``compiled.serve_waits``): what ``_ENTRY``
# reads to answer a call from the table's cache (kept by ``_ENTRY.remember_context``, which
# bounds it)
_CIDS: dict[tuple[object, ...], object] = {}


def _cid(c: TwContext) -> int:
    """The number of the parsed context ``c``."""
    cid = _IDS.get(c)
    return _IDS.keep(c, next(_NEXT_ID)) if cid is None else cid


def _general_score(hand: Hand | str, win_tile: int | str, self_drawn: bool,
                   context: Mapping[str, object] | None, o: TaiwanOptions) -> ScoreResult:
    """``score``'s every call ``_ENTRY`` does not answer from the compiled table's cache: the
    checks of §1 and §13 in Python, then the core (a first ask leaves its fingerprint in the
    table's cache, a second is kept), else (a refusal, a flower win, ``MJ_PURE_SCORING``)
    the Python path."""
    h, tile, c = analyse(hand, win_tile, self_drawn, context, o)
    if compiled.PURE or c.flower_win is not None:
        return _evaluate(h, tile, c, o)
    t = _TABLES.get(o) or _compiled_table(o)
    cid = _cid(c)
    _compiled_context(t, c, o)
    if type(context) is dict and _hand_free(c):
        try:
            _ENTRY.remember_context(context_key(self_drawn, context), cid)
        except TypeError:  # an unhashable value the checks took (a set of flowers): not kept
            pass
    result = t.score_cached(h, tile, cid)
    return _evaluate(h, tile, c, o) if result is None else result


def report(hand: Hand | str, *, win_tile: int | str, self_drawn: bool = False,
           context: Mapping[str, object] | None = None,
           options: Mapping[str, object] | None = None,
           preset: str | None = None) -> dict[str, Any]:
    """The answer in §9 step 8's form: ``patterns`` ``[[id, 台], …]``, ``tai``, ``dealer_tai``
    and ``points`` (``from``: relative seat → amount, ``winner_total``)."""
    from mjcore.rules import resolve_options

    try:
        o = resolve_options(NAME, options, preset)
    except MahjongError:
        check_input(hand, win_tile, context)  # a bad hand is reported before a bad option (§1)
        raise
    result = score(hand, win_tile, self_drawn, context, o)
    _, _, c = analyse(hand, win_tile, self_drawn, context, o)
    w = c.winner
    dealer = (w + RELATIVE.index(c.dealer)) % 4
    paid = {RELATIVE[(f - w) % 4]: amount for f, _, amount in result.payments}
    involved = dealer == w or any(f == dealer for f, _, _ in result.payments)
    return {
        "patterns": [[h.id, h.fan] for h in result.patterns],
        "tai": result.value,
        "dealer_tai": [list(e) for e in dealer_tai(c.dealer_streak, o)] if involved else [],
        "points": {"from": paid, "winner_total": result.total},
    }


# --------------------------------------------------------------------------- waits

_SELF_ONLY = frozenset(("gang_shang_kai_hua", "replacement_after", "hai_di_lao_yue", "tianhu",
                        "dihu", "flower_win"))
_DISCARD_ONLY = frozenset(("qiang_gang", "he_di_lao_yu", "renhu", "discarder", "flower_win"))


def _general_waits(hand: Hand | str, context: Mapping[str, object] | None, o: TaiwanOptions,
                   visible: object = None) -> tuple[ValuedWait, ...]:
    """``valued_waits``'s every call ``_ENTRY`` does not answer from the compiled table's
    cache: a ``Hand`` in a dict context in one core call (``_compiled_waits``), else (a
    refusal, a flower win, a value under ``min_tai``, ``MJ_PURE_SCORING``) the Python path."""
    if type(hand) is Hand and type(context) is dict and not compiled.PURE:
        got = _compiled_waits(hand, context, o, visible)
        if got is not None:
            return got
    h = parse_hand(hand, size=HAND_TILES - 1)
    if context is not None and not isinstance(context, Mapping):
        raise _err("bad_context", "context must be a mapping of key to value")
    ctx = dict(context or {})
    vis = visible_counts(visible)
    held = h.all_counts()
    discard_ctx, self_ctx = _wait_contexts(ctx)
    out = []
    mask = wait_kinds(h, o)
    for t in range(34):
        if not mask >> t & 1:
            continue
        full = plus_tile(h, t)
        values = []
        for sd, cx in ((False, discard_ctx), (True, self_ctx)):
            try:
                r = score(full, t, sd, cx, o)
                values.append((r.value, r.patterns))
            except MahjongError as exc:
                if exc.code != "below_min_tai":
                    raise
                values.append((-1, ()))
        if values[0][0] < 0 and values[1][0] < 0:
            continue
        out.append(ValuedWait(tile_to_text(t), t, values[0][0], values[1][0],
                              max(0, 4 - held[t] - vis[t]), values[0][1], values[1][1]))
    return tuple(out)


def _wait_contexts(ctx: Mapping[str, object]) -> tuple[dict[str, object], dict[str, object]]:
    """The context of a wait won on a discard, and self-drawn."""
    discard_ctx = {k: v for k, v in ctx.items() if k not in _SELF_ONLY}
    discard_ctx.setdefault("discarder", "right" if ctx.get("dealer") != "right" else "left")
    return discard_ctx, {k: v for k, v in ctx.items() if k not in _DISCARD_ONLY}


_Pair = tuple[compiled.CompiledContext, compiled.CompiledContext]  # (discard, self-drawn)


def _compiled_waits(h: Hand, context: dict[str, object], o: TaiwanOptions,
                    visible: object) -> tuple[ValuedWait, ...] | None:
    """``valued_waits`` in one core call, in the context's two compiled contexts (served by
    ``_ENTRY`` when no check of theirs depends on the hand); None when the
    Python path must answer: a refusal, a flower win, a value under ``min_tai``, a hand past
    the core's bounds."""
    t = _TABLES.get(o) or _compiled_table(o)
    try:
        wk = context_key(None, context)
    except TypeError:  # an unhashable value: the Python path's
        return None
    served = cast("Memo[TaiwanOptions, _Pair] | None", _CIDS.get(wk))
    pair = None if served is None else served.get(o)
    if pair is None:
        mask = wait_kinds(parse_hand(h, size=HAND_TILES - 1), o)  # (refusals: Python's)
        if not mask:
            return None
        first = (mask & -mask).bit_length() - 1
        full = plus_tile(h, first)
        try:
            parsed = [analyse(full, first, sd, cx, o)[2]
                      for sd, cx in zip((False, True), _wait_contexts(context), strict=True)]
        except MahjongError:
            return None
        if any(c.flower_win is not None for c in parsed):
            return None
        # the discard context is the pair's own: the table's cache keeps a wait list under
        # it, so it never comes with another self-drawn one
        pair = (_new_context(parsed[0], o), _compiled_context(t, parsed[1], o))
        if all(_hand_free(c) for c in parsed):
            compiled.serve_waits(_ENTRY, context, o, pair)
    if visible is None:
        return t.valued_waits_cached(h, pair[0], pair[1])
    return t.valued_waits(h, pair[0], pair[1], visible_counts(visible))


# --------------------------------------------------------------------------- derived contexts
# A server's contexts differ in the winds and the winner's flowers nearly every hand, while
# the rest (the situation: who deals and since when, who discarded, the flags) is one of a
# few. ``_ENTRY`` derives a context not seen before from its situation, the same context in
# the east seat of an east round with no flowers (``_NEUTRAL``), compiled once by
# ``_situation``, and the ``_part``s its winds and flowers give (neither changes who pays:
# the situation's payments are the context's).

_PARTS = (("seat_wind",), ("round_wind",), ("flowers",))  # (in order: the seat's flowers last)
_NEUTRAL = {"seat_wind": "1z", "round_wind": "1z"}  # (no flowers: the key removed)
_FLOWER_BITS = compiled.context_bits(TABLE, ["no_flowers"])
# a hand the situation's checks pass with: no melds (the core checks a first-turn win's),
# the winning tile held; a waiting hand for a waits situation
_SITUATION_HAND = Hand.parse("123m456m789m123p456p77s")
_SITUATION_WAITS = minus_tile(_SITUATION_HAND, 24)  # (7s)


def _wind(value: object) -> int | None:
    return _WINDS.get(value) if type(value) is str else None


def _part(i: int, values: tuple[object, ...], o: TaiwanOptions) -> compiled.ContextPart | None:
    """What group ``i`` of ``_PARTS`` (its keys' ``values``) changes in the compiled context of
    the situation, or None when a value is not plainly valid (the Python path's errors): a
    flower in a game without them, all eight on a normal win (a flower win is one)."""
    if i < 2:
        wind = _wind(values[0])
        if wind is None:
            return None
        return compiled.ContextPart(seat_wind=wind - 27) if i == 0 else \
            compiled.ContextPart(round_wind=wind - 27)
    try:
        flowers = parse_flowers(values[0])
    except MahjongError:
        return None
    if flowers and not o.flowers_in_play or len(flowers) == 8 and o.flower_wins:
        return None
    counts = [_flower_counts(TwContext(27 + k, 27, "self", 0, None, True, flowers), o)
              for k in range(4)]  # (in each seat: its own flowers)
    return compiled.ContextPart(_FLOWER_BITS, 0 if flowers else _FLOWER_BITS,  # (no_flowers)
                                flower_sets=counts[0][0],
                                seat_flowers=tuple(n for _, n in counts))


# situations refused (checked against the hand, wrong without the hand's flowers, waits not
# served) by options and key: asked again, refused at once
_REFUSED: Memo[tuple[object, ...], bool] = Memo(_CONTEXT_LIMIT)


def _situation(self_drawn: bool | None, context: dict[str, object],
               o: TaiwanOptions) -> int | None:
    """The number of a context in ``_NEUTRAL``'s winds with no flowers, compiled in the
    options' table and remembered by ``_ENTRY`` (None when its checks need the hand or it is
    wrong: it is never derived from); a waits context (``self_drawn`` None) is served
    instead, if it may be."""
    key = (o, *context_key(self_drawn, context))
    if key in _REFUSED:
        return None
    if self_drawn is None:
        _compiled_waits(_SITUATION_WAITS, context, o, None)
        served = _CIDS.get(context_key(None, context))
        if not (isinstance(served, dict) and o in served):
            _REFUSED.keep(key, True)
        return None
    try:
        c = parse_context(context, _SITUATION_HAND, 24, self_drawn, (), o)  # (on 7s)
    except MahjongError:
        c = None
    if c is None or c.flower_win is not None or not _hand_free(c):
        _REFUSED.keep(key, True)
        return None
    cid = _cid(c)
    _compiled_context(_TABLES.get(o) or _compiled_table(o), c, o)
    _ENTRY.remember_context(context_key(self_drawn, context), cid)
    return cid


_ENTRY = compiled.CompiledEntry(_TABLES, _compiled_table, None, None, {}, None,
                                _general_score, _general_waits, contexts=_CIDS,
                                situation=_situation, parts=_PARTS, part=_part,
                                neutral=_NEUTRAL)
# A ``Hand`` and a tile id in a dict context seen before (one the core checks against the
# hand by itself) is answered in one core call (the options' compiled table, the context's
# number and the table's cache), and so are a ``Hand``'s waits with nothing visible in a dict
# context served (``compiled.serve_waits``); every other call by ``_general_score`` and
# ``_general_waits``.
score: Callable[[Hand | str, int | str, bool, Mapping[str, object] | None, TaiwanOptions],
                ScoreResult] = _ENTRY.score
"""Score one win (see ``mjcore.rules.score``); a repeated question is answered from the
compiled table's cache."""
valued_waits: Callable[[Hand | str, Mapping[str, object] | None, TaiwanOptions, object],
                       tuple[ValuedWait, ...]] = _ENTRY.valued_waits
"""Every winning tile of a 16-tile hand (§6) with its 台 on a discard and self-drawn. A wait
that cannot win one way (``min_tai``) shows -1 and no patterns for that way."""


def clear_caches() -> None:
    """Forget every memoised reading and score (for cold benchmarks)."""
    from mjcore.rules.common.inputs import clear_caches as clear_inputs

    clear_inputs()
    _ENTRY.forget_contexts()
    for memo in (_READINGS, _IDS, _REFUSED):
        memo.clear()
    compiled.CompiledTable.clear_cache()


__all__ = ["CONTEXT_KEYS", "NAME", "analyse", "check_input", "clear_caches", "dealer_tai", "parse_flowers",
           "parse_hand", "report", "score", "valued_waits", "wait_kinds"]
