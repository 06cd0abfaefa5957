"""Hangzhou 财神 scoring and valued waits (the spec's §1-§9; docs/rulesets/hangzhou.md).

The pipeline, in the spec's normative order (§7):

1. the input: physical tiles (a 财神 is written as itself, a 白板 standing in for the 财神's
   natural kind as ``5z``), counts, melds and the context (``tile_count``, ``bad_meld``,
   ``wild_in_meld``, ``bad_context``);
2. each physical tile's role: the wild kind T comes from the context (``caishen`` or
   ``indicator``) or is 白板 in ``baiban`` mode, never hard-coded; in ``flip`` mode with
   T ≠ 白板 every 白板 is a natural T. The hand is then written in *role coordinates*: the
   naturals at their kinds (the 白板 moved to T) and the wilds at index 31 (the 白板 slot, free
   once the 白板 are moved), so ``common.wilds.wild_readings(hand, wild=31)`` reads it;
3. the claim refusals of a discard win (§7 step 2);
4. the readings (``common.wilds``), reduced to the few facts the table prices
   (``table.Reading``: shape, 豪华 groups, 爆头), memoised per hand signature;
5. the table (``table.TABLE``) values each, the best is taken, then the payments (§8).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from mjcore._core import _count_runs, wait_mask
from mjcore.errors import MahjongError
from mjcore.hand import Decomposition, Hand
from mjcore.rules.common import compiled
from mjcore.rules.common.inputs import tile_text as _text
from mjcore.rules.common.inputs import visible_counts as _visible_counts
from mjcore.rules.common.memo import Memo
from mjcore.rules.common.results import ScoreResult, ValuedWait
from mjcore.rules.common.ruleset import ContextKey
from mjcore.rules.common.table import Valued, best_reading
from mjcore.rules.common.wilds import has_wild_reading, one_wild_split, wild_readings
from mjcore.rules.hangzhou.options import HangzhouOptions
from mjcore.rules.hangzhou.table import TABLE, Reading, WinFacts
from mjcore.tiles import MAX_TEXT, parse_tiles, tile_id

NAME = "hangzhou"
BAIBAN = 31  # 白板 (5z); also the index of the wilds in role coordinates
RELATIVE = ("right", "across", "left")  # 下家, 对家, 上家: winner + 1, + 2, + 3 in turn order
_KONGS = ("gang", "angang", "bugang")
_MELD_SIZE = {"chi": 3, "peng": 3, "gang": 4, "angang": 4, "bugang": 4}
_CACHE_LIMIT = 50_000


def _err(code: str, message: str) -> MahjongError:
    return MahjongError(code, message)


# --------------------------------------------------------------------------- input


class Physical(NamedTuple):
    """A hand as written: 34 counts of the concealed tiles and the melds as (kind, tiles)."""

    counts: tuple[int, ...]
    melds: tuple[tuple[str, tuple[int, ...]], ...]


_PARSED: Memo[object, Physical] = Memo(_CACHE_LIMIT)


def physical(hand: object) -> Physical:
    """The physical tiles of ``hand`` (a ``Hand`` or its text). Melds are parsed here rather
    than by ``Hand``: with ``wild_in_melds`` a pung may hold a wild (``peng:11m3m``), which a
    ``Hand`` refuses. Counts over four are ``tile_count``."""
    hit = _PARSED.get(hand) if isinstance(hand, str | Hand) else None
    if hit is not None:
        return hit
    if isinstance(hand, Hand):
        out = Physical(tuple(hand.counts), tuple((m.kind, tuple(m.tiles)) for m in hand.melds))
    elif isinstance(hand, str):
        if len(hand) > MAX_TEXT:
            raise _err("bad_notation", f"hand text is longer than {MAX_TEXT}")
        counts = [0] * 34
        melds: list[tuple[str, tuple[int, ...]]] = []
        pos = 0
        for token in hand.split(" "):
            if token:
                kind, colon, body = token.partition(":")
                if not colon and not melds and _count_runs(token, counts):
                    pos += len(token) + 1  # the core counted plain suit runs in place
                    continue
                tiles = parse_tiles(body if colon else token, pos + (len(kind) + 1 if colon else 0))
                if any(t >= 34 for t in tiles):
                    raise _err("bad_tile", f"a flower at {pos} is never part of a Hangzhou hand")
                if colon:
                    if kind not in _MELD_SIZE:
                        raise _err("bad_meld", f"unknown meld kind {kind!r:.20} at {pos} (use "
                                   "chi, peng, gang, angang, bugang)")
                    melds.append((kind, tuple(sorted(tiles))))
                elif melds:
                    raise _err("bad_notation", f"concealed tiles at {pos} come after the melds")
                else:
                    for t in tiles:
                        counts[t] += 1
            pos += len(token) + 1
        out = Physical(tuple(counts), tuple(melds))
    else:
        raise _err("bad_notation", f"expected a Hand or hand text, got {type(hand).__name__}")
    if not out.melds and max(out.counts) <= 4:  # the common case: nothing more to count
        _keep(hand, out)
        return out
    held = list(out.counts)
    for kind, meld in out.melds:
        if len(meld) != _MELD_SIZE.get(kind, -1):
            raise _err("bad_meld", f"{kind} holds {_MELD_SIZE.get(kind, '?')} tiles, got "
                       f"{len(meld)}")
        for t in meld:
            held[t] += 1
    for t, c in enumerate(held):
        if c > 4:
            raise _err("tile_count", f"{_text(t)} appears {c} times (a tile has four copies)")
    _keep(hand, out)
    return out


def _keep(hand: object, out: Physical) -> None:
    _PARSED.keep(hand, out)


def next_kind(t: int) -> int:
    """The kind after ``t`` for ``caishen_from_indicator: next``: 1→2…9→1 within a suit;
    东→南→西→北→中→发→白→东 (the order wuhan.md uses)."""
    if t < 27:
        return t - t % 9 + (t % 9 + 1) % 9
    return {27: 28, 28: 29, 29: 30, 30: 33, 33: 32, 32: 31, 31: 27}[t]


def _tile_arg(key: str, value: object) -> int:
    try:
        return tile_id(value)
    except MahjongError:
        raise _err("bad_context", f"{key!r} must be a tile 1m-7z, got {value!r:.40}") from None


def wild_kind(context: Mapping[str, object] | None, o: HangzhouOptions) -> int:
    """The 财神 kind T of a hand (§2): from ``caishen`` or ``indicator`` in ``flip`` mode,
    白板 in ``baiban`` mode. Missing, unknown or disagreeing: ``bad_context``."""
    ctx = context or {}
    given = _tile_arg("caishen", ctx["caishen"]) if ctx.get("caishen") is not None else None
    if ctx.get("indicator") is not None:
        ind = _tile_arg("indicator", ctx["indicator"])
        mapped = next_kind(ind) if o.caishen_from_indicator == "next" else ind
        if given is not None and given != mapped:
            raise _err("bad_context", f"caishen {_text(given)} and indicator {_text(ind)} "
                       f"(giving {_text(mapped)}) disagree")
        given = mapped
    if o.caishen_mode == "baiban":
        if given is not None and given != BAIBAN:
            raise _err("bad_context", f"in baiban mode the 财神 is 5z, not {_text(given)}")
        return BAIBAN
    if given is None:
        raise _err("bad_context", "flip mode needs the 财神: context caishen (or indicator)")
    return given


class Roles(NamedTuple):
    """A hand in role coordinates: ``counts`` (naturals at their kinds, the wilds at 31),
    ``held`` (naturals over hand and melds, for the copy limit), ``melds`` (sets), ``kong``."""

    counts: tuple[int, ...]
    held: tuple[int, ...]
    melds: int
    kong: bool


def natural(t: int, wild: int) -> int:
    """The kind a non-wild physical tile plays as: a 白板 is a natural T in flip mode."""
    return wild if t == BAIBAN and wild != BAIBAN else t


def roles(p: Physical, wild: int, o: HangzhouOptions) -> Roles:
    """Map each physical tile to wild / natural and check the melds (§1, §2)."""
    nmelds = len(p.melds)
    if sum(p.counts) != 14 - 3 * nmelds:
        raise _err("tile_count", f"the concealed part must hold {14 - 3 * nmelds} tiles with "
                   f"{nmelds} melds, got {sum(p.counts)}")
    # the wilds (physical T) go to slot 31, the 白板 (natural T in flip mode) to slot T: a swap
    counts = list(p.counts)
    counts[wild], counts[BAIBAN] = counts[BAIBAN], counts[wild]
    held = list(counts)
    held[BAIBAN] = 0
    kong = False
    for kind, tiles in p.melds:
        wilds = sum(1 for t in tiles if t == wild)
        if wilds and not o.wild_in_melds:
            raise _err("wild_in_meld", f"a 财神 may not be part of a declared meld "
                       f"({kind}:{''.join(_text(t) for t in tiles)})")
        nat = sorted(natural(t, wild) for t in tiles if t != wild)
        if kind == "chi":
            ok = len(set(nat)) == len(nat) and all(t < 27 and t // 9 == nat[0] // 9 for t in nat) \
                and (not nat or nat[-1] - nat[0] <= 2)
        else:
            ok = len(set(nat)) <= 1
        if not ok:
            raise _err("bad_meld", f"{kind}:{''.join(_text(t) for t in tiles)} is not a "
                       f"{'run' if kind == 'chi' else 'set of one kind'} once the 白板 play as "
                       f"{_text(wild)}")
        for t in nat:
            held[t] += 1
        kong = kong or kind in _KONGS
    return Roles(tuple(counts), tuple(held), nmelds, kong)


# --------------------------------------------------------------------------- context

CONTEXT_KEYS: tuple[ContextKey, ...] = (
    ContextKey("caishen", "the 财神 kind T (flip mode; in baiban mode 5z or absent)", "tile"),
    ContextKey("indicator", "instead of caishen: the turned-up tile, mapped by "
               "caishen_from_indicator", "tile"),
    ContextKey("dealer", "where the dealer sits: self, left, across or right", "position"),
    ContextKey("dealer_streak", "times in a row the dealer has kept the deal before this hand "
               "(default 0)", "int", 0, 1000),
    ContextKey("discarder", "the discarder of a discard win: left, across or right",
               "relative_seat"),
    ContextKey("gang_kai", "the winning tile is the replacement after the winner's own kong"),
    ContextKey("piao_count", "飘 discards the winner made on his consecutive turns right before "
               "the winning draw", "int", 0, 3),
    ContextKey("piao_on_gang", "the last 飘 was made on a kong-replacement turn"),
    ContextKey("claims_from", "chi and peng claims the winner made on each seat's discards this "
               "hand (and 直杠 with chengbao_counts_gang)", "seat_counts"),
    ContextKey("passed_win_tiles", "tiles on which the winner declined a discard win (since his "
               "last draw, or this hand with louhu_scope whole_hand)", "tiles"),
    ContextKey("piao_lock", "another player's 财飘 lock is active"),
    ContextKey("winner", "the winner's seat 0-3 (default 0): payments name absolute seats",
               "seat"),
)
_KEYS = frozenset(k.id for k in CONTEXT_KEYS)


class Ctx(NamedTuple):
    wild: int
    dealer: str  # "" when not given
    streak: int
    discarder: str
    gang_kai: bool
    piao_count: int
    piao_on_gang: bool
    claims: tuple[int, int, int]  # right, across, left
    passed: frozenset[int]
    piao_lock: bool
    winner: int


def _flag(key: str, v: object) -> bool:
    if isinstance(v, bool):
        return v
    raise _err("bad_context", f"{key!r} must be true or false, got {v!r:.40}")


def _int(key: str, v: object, hi: int) -> int:
    if type(v) is int and 0 <= v <= hi:
        return v
    raise _err("bad_context", f"{key!r} must be an integer 0-{hi}, got {v!r:.40}")


def parse_context(context: Mapping[str, object] | None, self_drawn: bool,
                  o: HangzhouOptions) -> Ctx:
    """The context checked (§9, §12). Inconsistencies that need the hand are checked later."""
    if context is not None and not isinstance(context, Mapping):
        raise _err("bad_context", "context must be a mapping of key to value")
    ctx = context or {}
    for key in ctx:
        if key not in _KEYS:
            raise _err("bad_context", f"unknown context key {key!r:.40} (known: "
                       f"{', '.join(sorted(_KEYS))})")
    wild = wild_kind(ctx, o)
    dealer = ctx.get("dealer")
    if dealer is not None and dealer not in ("self", *RELATIVE):
        raise _err("bad_context", f"dealer must be self, left, across or right, got {dealer!r:.40}")
    discarder = ctx.get("discarder")
    if discarder is not None and discarder not in RELATIVE:
        raise _err("bad_context", f"discarder must be left, across or right, got "
                   f"{discarder!r:.40}")
    claims = [0, 0, 0]
    raw = ctx.get("claims_from")
    if raw is not None:
        if not isinstance(raw, Mapping):
            raise _err("bad_context", "claims_from maps left/across/right to a count")
        for seat, n in raw.items():
            if seat not in RELATIVE:
                raise _err("bad_context", f"claims_from names left, across or right, not {seat!r:.40}")
            claims[RELATIVE.index(seat)] = _int("claims_from", n, 4)
    passed_raw = ctx.get("passed_win_tiles") or ()
    if isinstance(passed_raw, str | bytes) or not hasattr(passed_raw, "__iter__"):
        raise _err("bad_context", "passed_win_tiles is a list of tiles")
    passed = frozenset(_tile_arg("passed_win_tiles", t) for t in passed_raw)
    winner = ctx.get("winner", 0)
    if not (type(winner) is int and 0 <= winner < 4):
        raise _err("bad_context", f"winner must be a seat 0-3, got {winner!r:.40}")
    c = Ctx(wild, dealer or "", _int("dealer_streak", ctx.get("dealer_streak", 0), 1000),
            discarder or "", _flag("gang_kai", ctx.get("gang_kai", False)),
            _int("piao_count", ctx.get("piao_count", 0), 3),
            _flag("piao_on_gang", ctx.get("piao_on_gang", False)), (claims[0], claims[1], claims[2]),
            passed, _flag("piao_lock", ctx.get("piao_lock", False)), winner)
    if c.piao_on_gang and not c.piao_count:
        raise _err("bad_context", "piao_on_gang needs piao_count (the 飘 made on the kong turn)")
    if c.gang_kai and not self_drawn:
        raise _err("bad_context", "gang_kai is a self-drawn win on a kong replacement")
    if self_drawn and c.discarder:
        raise _err("bad_context", "a self-drawn win has no discarder")
    if not self_drawn and (not c.discarder or not c.dealer):
        raise _err("bad_context", "a discard win needs discarder and dealer")
    return c


# --------------------------------------------------------------------------- readings

def _within(limit: bool, held: tuple[int, ...], stood: Any, extra: int = -1) -> bool:
    """``wild_copy_limit``: no kind held (melds included) plus what wilds stand for, plus one
    more ``extra``, exceeds four copies."""
    if not limit:
        return True
    c = Counter(k for _, k in stood)
    if extra >= 0:
        c[extra] += 1
    return all(held[k] + n <= 4 for k, n in c.items())


def _qidui_groups(pairs: tuple[int, ...], nat: list[int], with_wild: bool) -> int:
    """豪华 groups among 七对 pairs: four naturals of a kind (or, haohua_with_wild, any four of a
    kind once the wilds are placed)."""
    if with_wild:
        return sum(n // 2 for n in Counter(pairs).values())
    return sum(1 for k in set(pairs) if nat[k] >= 4)


_PARITY = bytes(n & 1 for n in range(256))


def analyse(r: Roles, drawn: int, o: HangzhouOptions) -> tuple[tuple[Reading, ...],
                                                                tuple[Reading, ...]]:
    """The table's readings of a hand in role coordinates (``drawn``: the winning tile's role
    kind, 31 for a wild): (on a discard, self-drawn). Memoised per signature."""
    key = (r, drawn, o.wild_copy_limit, o.baotou_wilds_in_sets, o.haohua_with_wild,
           o.qidui_baotou)
    hit = _ANALYSES.get(key)
    if hit is not None:
        return hit
    counts, held, limit = r.counts, r.held, o.wild_copy_limit
    w = counts[BAIBAN]
    nat = list(counts)
    nat[BAIBAN] = 0
    base: set[Reading] = set()
    selfs: set[Reading] = set()
    # standard. Without the copy limit, whether a reading exists is all the table needs: the
    # core's joker tables answer it (has_wild_reading); with it, the readings are listed.
    if has_wild_reading(counts, BAIBAN) and (not limit or any(
            _within(True, held, x.wilds) for x in wild_readings(Hand(counts), drawn, BAIBAN))):
        base.add(Reading("standard", 0, False))
    # 爆头: the drawn tile and a held wild are the pair, the rest forms sets (§5)
    need = 2 if drawn == BAIBAN else 1
    if w >= need:
        rest = list(counts)
        rest[drawn] -= 1
        rest[BAIBAN] -= 1
        if (o.baotou_wilds_in_sets or rest[BAIBAN] == 0) and has_wild_reading(
                rest, BAIBAN, pair=False) and (not limit or any(
                _within(True, held, x.wilds, -1 if drawn == BAIBAN else drawn)
                for x in wild_readings(Hand(rest), drawn, BAIBAN, pair=False))):
            selfs.add(Reading("standard", 0, True))
    # 七对 (no melds): seven pairs exist when the wilds pair every odd kind, the rest in pairs
    odd = bytes(nat).translate(_PARITY).count(1) if not r.melds else 0  # kinds held oddly
    if not r.melds and w >= odd and (w - odd) % 2 == 0:
        if not (limit or o.haohua_with_wild or o.qidui_baotou):
            # the 豪华 groups are the kinds of four naturals, whatever the wilds stand for
            base.add(Reading("qidui", nat.count(4), False))
        else:
            singles = [k for k, n in enumerate(nat) if n & 1]
            _qidui_readings(Hand(counts), nat, singles, drawn, held, o, base, selfs)
    out = (tuple(sorted(base)), tuple(sorted(base | selfs)))
    _ANALYSES.keep(key, out)
    return out


def _qidui_readings(hand: Hand, nat: list[int], singles: list[int], drawn: int,
                    held: tuple[int, ...], o: HangzhouOptions, base: set[Reading],
                    selfs: set[Reading]) -> None:
    """The 七对 readings under the options that depend on what the wilds stand for (copy
    limit, 豪华 with wilds, 七对 爆头): every reading of ``wild_readings`` is looked at."""
    hw = o.haohua_with_wild
    for x in wild_readings(hand, drawn, BAIBAN, ("qidui",)):
        if not _within(o.wild_copy_limit, held, x.wilds):
            continue
        base.add(Reading("qidui", _qidui_groups(x.pairs, nat, hw), False))
        if not o.qidui_baotou:
            continue
        stood = [k for _, k in x.wilds]
        # the 爆头 pair (the drawn tile and a wild) is taken out before counting groups
        if drawn != BAIBAN and drawn in stood:
            pairs = list(x.pairs)
            pairs.remove(drawn)
            n2 = list(nat)
            n2[drawn] -= 1
            selfs.add(Reading("qidui", _qidui_groups(tuple(pairs), n2, hw), True))
        elif drawn == BAIBAN:
            leftover = Counter(stood) - Counter(singles)  # wild-wild pairs, counted twice
            for k in leftover:
                pairs = list(x.pairs)
                pairs.remove(k)
                selfs.add(Reading("qidui", _qidui_groups(tuple(pairs), nat, hw), True))


_ANALYSES: Memo[object, tuple[tuple[Reading, ...], tuple[Reading, ...]]] = Memo(_CACHE_LIMIT)
_VALUES: Memo[object, tuple[Valued, Reading]] = Memo(_CACHE_LIMIT)


def best(readings: tuple[Reading, ...], facts: WinFacts, o: HangzhouOptions) -> tuple[Valued,
                                                                                       Reading]:
    """The reading worth most (§7 step 4; ties: the highest pattern first in §6's table)."""
    key = (readings, facts, o)
    hit = _VALUES.get(key)
    if hit is not None:
        return hit
    values = []
    for r in readings:
        v = TABLE.evaluate(r, facts, o)
        if v is not None:
            values.append((v, r))
    chosen = best_reading(values)
    assert chosen is not None  # every reading has a shape pattern
    _VALUES.keep(key, chosen)
    return chosen


def decomposition(r: Roles, drawn: int, reading: Reading, wild: int,
                  o: HangzhouOptions) -> Decomposition | str:
    """What ``ScoreResult.decomposition`` holds for the ``reading`` scored: ``"qidui"``, or the
    concealed sets and pair of one reading that makes it (``common.wilds.one_wild_split``:
    wilds forming a set or the pair alone stand for T, 财神归位), in the kinds the tiles play
    as: a 白板 as T in flip mode, each wild as the kind it stands for. An 爆头 win pairs the
    drawn tile with a wild standing for it (two wilds standing for T when the drawn tile is a
    wild). Only on the result path: the table never needs the sets."""
    if reading.shape != "standard":
        return reading.shape
    held = r.held if o.wild_copy_limit else None
    if not reading.baotou:
        split = one_wild_split(r.counts, BAIBAN, wild, True, held)
        assert split is not None  # analyse found the reading
        return split[0]
    rest = list(r.counts)
    rest[drawn] -= 1
    rest[BAIBAN] -= 1
    if drawn != BAIBAN and held is not None:
        held = tuple(n + (k == drawn) for k, n in enumerate(held))  # the pair's drawn tile
    split = one_wild_split(rest, BAIBAN, wild, False, held)
    assert split is not None  # analyse found the 爆头 reading
    d, stood = split
    pair = drawn
    if drawn == BAIBAN:
        # the drawn wild and another stand for T, or under the copy limit for the first kind
        # with two copies left (one always has: 14 tiles of 34 kinds)
        pair = next(k for k in (wild, *range(34))
                    if held is None or held[k] + stood.count(k) + 2 <= 4)
    return Decomposition(pair, d.chows, d.pungs)


# --------------------------------------------------------------------------- scoring

def claim_refusal(c: Ctx, win_tile: int, o: HangzhouOptions) -> MahjongError | None:
    """The refusal of a discard win (§7 step 2), or None."""
    if win_tile == c.wild and not o.wild_discard_claimable:
        return _err("caishen_not_claimable", "a discarded 财神 cannot be claimed")
    if c.piao_lock and o.piao_lock:
        return _err("piao_lock", "no discard may be claimed while another player's 财飘 is pending")
    if c.streak < o.fangchong_min_streak:
        return _err("pingzhuang", "no discard wins before the dealer has kept the deal "
                    f"{o.fangchong_min_streak} times (dealer_streak {c.streak})")
    if c.dealer != "self" and c.dealer != c.discarder:
        return _err("xianjia_to_xianjia", "a non-dealer may not win on a non-dealer's discard")
    if win_tile in c.passed:
        return _err("louhu", f"the winner passed a win on {_text(win_tile)} since his last draw")
    return None


def liable(c: Ctx, o: HangzhouOptions) -> int:
    """The relative index (0 right, 1 across, 2 left) of the 承包 seat, or -1 (§8, §12: most
    claims; on equal claims the first of left, across, right)."""
    if not o.chengbao_threshold or max(c.claims) < o.chengbao_threshold:  # the usual case
        return -1
    over = [(n, -order, i) for order, i in enumerate((2, 1, 0))
            if (n := c.claims[i]) >= o.chengbao_threshold]
    return max(over)[2] if over else -1


_RESULTS: Memo[object, ScoreResult] = Memo(_CACHE_LIMIT)
_CONTEXTS: Memo[object, Ctx] = Memo(4096)  # (self-drawn, options, context key) -> parsed context


def _general_score(hand: object, win_tile: int | str, self_drawn: bool,
                   context: Mapping[str, object] | None, o: HangzhouOptions) -> ScoreResult:
    """``score``'s every call ``_ENTRY`` does not answer from the compiled table's cache: the
    compiled table in a context met for the first time (the table's cache keeps an answer
    from its second ask), else the Python path, memoised per input (bounded)."""
    if not compiled.PURE and (context is None or type(context) is dict):
        t = _TABLES.get(o, _UNSET)
        if t is _UNSET:
            t = _compiled_table(o)
        if t is not None:
            try:
                key = _table_key(t, self_drawn, context, o)
                got = None if key is None else t.score_cached(hand, win_tile, key)
            except TypeError:  # an unhashable argument: the path below says what is wrong
                got = None
            if got:
                return got  # type: ignore[no-any-return]
    ctx_key = None if not context else _context_key(context)
    try:
        key_: Any = (hand, win_tile, type(win_tile), bool(self_drawn), o, ctx_key)
        hit = _RESULTS.get(key_)
    except TypeError:  # unhashable context values: computed, not memoised
        key_, hit = None, None
    if hit is not None:
        return hit
    p = physical(hand)  # §1: the tiles are checked before the context
    ckey = key_[3:] if key_ is not None else None
    c = _CONTEXTS.get(ckey) if ckey is not None else None
    if c is None:
        c = parse_context(context, bool(self_drawn), o)  # raises for a bad context: not kept
        if ckey is not None:
            _CONTEXTS.keep(ckey, c)
    result = _score(p, win_tile, bool(self_drawn), c, o)
    if key_ is not None:
        _RESULTS.keep(key_, result)
    return result


def _context_key(context: Mapping[str, object]) -> tuple[object, ...]:
    if not isinstance(context, Mapping):
        raise _err("bad_context", "context must be a mapping of key to value")
    # value types are part of the key: True == 1 but only one is a valid flag
    return tuple((k, v if not isinstance(v, list | dict) else repr(v), type(v))
                 for k, v in context.items())


def _check_piao_wilds(p: Physical, c: Ctx) -> None:
    """Each 飘 discarded a 财神 and only four exist: ``bad_context`` when the 飘 and the 财神
    held (concealed and, with ``wild_in_melds``, in the melds) make more."""
    wilds = p.counts[c.wild] + sum(tiles.count(c.wild) for _, tiles in p.melds)
    if c.piao_count + wilds > 4:
        raise _err("bad_context", f"{c.piao_count} 飘 discards and {wilds} wilds held: only four "
                   "财神 exist")


def _score(p: Physical, win_tile: int | str, self_drawn: bool, c: Ctx,
           o: HangzhouOptions) -> ScoreResult:
    r = roles(p, c.wild, o)
    tile = tile_id(win_tile, "win_tile")
    if not p.counts[tile]:
        raise _err("bad_context", f"the winning tile {_text(tile)} is not in the hand")
    if c.gang_kai and not r.kong:
        raise _err("bad_context", "gang_kai needs a kong among the melds")
    _check_piao_wilds(p, c)
    drawn = BAIBAN if tile == c.wild else natural(tile, c.wild)
    on_discard, on_self = analyse(r, drawn, o)
    readings = on_self if self_drawn else on_discard
    if c.piao_count and not any(x.baotou for x in readings):
        raise _err("bad_context", "piao_count > 0 on a win that is not 爆头 (every win after a 飘 "
                   "is a self-drawn 爆头)")
    if not self_drawn:
        refused = claim_refusal(c, tile, o)
        if refused is not None:
            raise refused
    if not readings:
        raise _err("not_a_win", "the tiles (wilds standing for any kind) form neither four sets "
                   "and a pair nor 七对")
    facts = WinFacts(min(c.piao_count, o.piao_max), c.gang_kai, c.piao_on_gang)
    value, reading = best(readings, facts, o)
    fan = value.value
    mult = TABLE.policy.multiplier(fan, o)
    payments, who, liable_seat = _payments(c, self_drawn, mult, o)
    return ScoreResult(NAME, "fan", fan, value.raw, mult, value.hits,
                       decomposition(r, drawn, reading, c.wild, o), reading.shape, self_drawn,
                       payments, who, liable_seat)


def _payments(c: Ctx, self_drawn: bool, mult: int, o: HangzhouOptions,
              ) -> tuple[tuple[tuple[int, int, int], ...], str, int]:
    """The payments of a win worth ``mult`` stakes (§8), the liability and its seat."""
    stake = o.base_points * mult
    w = c.winner
    seat_of = [(w + 1 + i) % 4 for i in range(3)]  # right, across, left
    if self_drawn:
        i = liable(c, o)
        if i >= 0:
            return ((seat_of[i], w, 3 * stake),), "chengbao", seat_of[i]
        return tuple((seat_of[i], w, stake) for i in (2, 1, 0)), "", -1  # left, across, right
    times = 3 if o.discard_payment == "discarder_pays_three" else 1
    return ((seat_of[RELATIVE.index(c.discarder)], w, times * stake),), "", -1


# --------------------------------------------------------------------------- compiled path
# The table's ``when`` data run by the core (``CompiledTable.score_wild``: the readings by win
# tests on the joker tables, the decomposition of the reading scored); the options whose
# readings need every placement of the wilds (wild_copy_limit, haohua_with_wild,
# qidui_baotou) stay on the Python path above, as does everything the core hands back
# (every refusal, melds holding a wild). ``MJ_PURE_SCORING=1``: the Python path only.

_UNSET: Any = object()
_TABLES: Memo[HangzhouOptions, compiled.CompiledTable | None] = Memo(compiled.TABLES_KEPT)


def _compiled_table(o: HangzhouOptions) -> compiled.CompiledTable | None:
    t = None
    if not (o.wild_copy_limit or o.haohua_with_wild or o.qidui_baotou):
        t = compiled.compile_table(TABLE, o, name=NAME, unit="fan", qidui=True,
                                   wild_pair_sets_wild=o.baotou_wilds_in_sets)
    _TABLES.keep(o, t)
    return t


# ``context_key(self_drawn, context)`` of a dict context (or none) -> that same tuple: the key
# of its compiled form in every table (``compiled.entry_key``), ``_ENTRY``'s contexts
_KEYS_OF: dict[tuple[object, ...], tuple[object, ...]] = {}


def _table_key(t: compiled.CompiledTable, self_drawn: bool,
               context: dict[str, object] | None, o: HangzhouOptions,
               ) -> tuple[object, ...] | None:
    """``compiled.entry_key``: None for a context the Python path refuses (it says why,
    after checking the hand)."""
    def make() -> compiled.CompiledContext | None:
        try:
            c = parse_context(context, bool(self_drawn), o)
        except MahjongError:
            return None
        return _context_of(c, bool(self_drawn), o)

    return compiled.entry_key(t, _ENTRY, self_drawn, context, make)


def _context_of(c: Ctx, self_drawn: bool, o: HangzhouOptions) -> compiled.CompiledContext:
    facts = WinFacts(min(c.piao_count, o.piao_max), c.gang_kai, c.piao_on_gang)
    names = [n for n, on in (("gang", c.gang_kai or c.piao_on_gang), ("gang_kai", c.gang_kai))
             if on]
    blocked = 0
    if not self_drawn:  # §7 step 2: the tiles whose discard win is refused here
        for k in range(34):
            if claim_refusal(c, k, o) is not None:
                blocked |= 1 << k
    pays: dict[int, Any] = {}

    def pay(fan: int, mult: int) -> Any:
        if mult not in pays:
            pays[mult] = _payments(c, self_drawn, mult, o)
        return pays[mult][0]

    _, who, seat = _payments(c, self_drawn, 1, o)
    return compiled.CompiledContext(
        compiled.context_bits(TABLE, names), self_drawn, pay, wild=c.wild, proxy=BAIBAN,
        wilds_gone=c.piao_count, blocked=blocked,
        # a win after a 飘 is an 爆头 (else the Python path refuses the context)
        require=compiled.feature_bit("wild_pair") if c.piao_count else 0,
        needs_kong=c.gang_kai, liable=who, liable_seat=seat,
        counts=(facts.piao, 2 + facts.piao))


_WAIT_CONTEXTS: Memo[tuple[object, ...], tuple[compiled.CompiledContext, ...]] = Memo(4096)


def _wait_contexts(c: Ctx, o: HangzhouOptions) -> tuple[compiled.CompiledContext, ...]:
    """(discard, self-drawn) contexts of a wait question: the discard valued on its shape, the
    self-draw with the context's 飘 and kong."""
    key = (c, o)
    got = _WAIT_CONTEXTS.get(key)
    if got is None:
        plain = compiled.CompiledContext(0, False, None, wild=c.wild, proxy=BAIBAN)
        got = (plain, _context_of(c._replace(winner=0), True, o))
        _WAIT_CONTEXTS.keep(key, got)
    return got


def is_piao(hand: object, drawn: int | str, discard: int | str,
            context: Mapping[str, object] | None, o: HangzhouOptions) -> bool:
    """Is discarding ``discard`` from ``hand`` (14 tiles incl. the ``drawn`` tile) a 飘 (§5)?
    The 14 tiles win as 爆头 on that draw, the discard is a wild, and the 13 left are still in
    爆头 state (four sets with the melds, plus one wild held alone). A server counts these
    for ``piao_count``."""
    c = parse_context({k: v for k, v in (context or {}).items()
                       if k in ("caishen", "indicator")}, True, o)
    p = physical(hand)
    tile, out = tile_id(drawn, "drawn"), tile_id(discard, "discard")
    if out != c.wild or not p.counts[out] or not p.counts[tile]:
        return False
    r = roles(p, c.wild, o)
    _, on_self = analyse(r, BAIBAN if tile == c.wild else natural(tile, c.wild), o)
    if not any(x.baotou and x.shape == "standard" for x in on_self):
        return False
    rest = list(r.counts)
    rest[BAIBAN] -= 2  # the discarded wild, and the one held alone
    return rest[BAIBAN] >= 0 and has_wild_reading(rest, BAIBAN, pair=False)


def relative_points(result: ScoreResult, winner: int = 0) -> dict[str, Any]:
    """A result's payments as the spec writes them (§7 step 7): ``from`` (relative seat →
    amount), ``winner_total`` and ``liable`` when 承包 applied."""
    names = {(winner + 1 + i) % 4: RELATIVE[i] for i in range(3)}
    out: dict[str, Any] = {"from": {names[f]: a for f, _, a in result.payments},
                           "winner_total": result.total}
    if result.liable:
        out["liable"] = result.liable
    return out


def clear_caches() -> None:
    """Forget every memoised parse, analysis, value and score (for cold benchmarks)."""
    for memo in (_PARSED, _ANALYSES, _VALUES, _RESULTS, _WAITS, _CONTEXTS, _WAIT_CONTEXTS):
        memo.clear()
    _ENTRY.forget_contexts()
    compiled.CompiledTable.clear_cache()


# --------------------------------------------------------------------------- waits

_WAITS: Memo[object, tuple[ValuedWait, ...]] = Memo(_CACHE_LIMIT)
_SELF_ONLY = ("gang_kai", "piao_count", "piao_on_gang")
_DISCARD_ONLY = ("discarder", "passed_win_tiles", "piao_lock")


def _candidates(counts: tuple[int, ...], wild: int) -> list[int]:
    """The physical kinds that may complete a 13-tile hand: those the core's joker tables say
    complete it as a natural (standard or 七对; the copy limit only removes readings, so this
    is a superset), a 白板 when it plays as such a natural T, and the wild itself."""
    role = list(counts)
    role[wild], role[BAIBAN] = role[BAIBAN], role[wild]
    jokers = role[BAIBAN]
    role[BAIBAN] = 0
    mask = wait_mask(Hand(role), jokers=jokers, shapes=("standard", "qidui"))
    out = {wild}
    for k in range(34):
        if mask >> k & 1 and k != BAIBAN:
            out.add(BAIBAN if k == wild else k)  # natural T is a physical 白板
    return sorted(out)


def _general_waits(hand: object, context: Mapping[str, object] | None, o: HangzhouOptions,
                   visible: object = None) -> tuple[ValuedWait, ...]:
    """``valued_waits``'s every call ``_ENTRY`` does not answer from the compiled table (a
    context met for the first time is served from then on: ``compiled.serve_waits``),
    memoised per input (bounded)."""
    try:
        key: Any = (hand, o, None if not context else _context_key(context),
                    visible if visible is None or isinstance(visible, str)
                    else tuple(visible))  # type: ignore[arg-type]
        hit = _WAITS.get(key)
    except TypeError:
        key, hit = None, None
    if hit is not None:
        return hit
    p = physical(hand)
    ctx = dict(context or {})
    sctx = {k: v for k, v in ctx.items() if k not in _DISCARD_ONLY}
    c = parse_context(sctx, True, o)
    nmelds = len(p.melds)
    if sum(p.counts) != 13 - 3 * nmelds:
        raise _err("tile_count", f"a waiting hand holds {13 - 3 * nmelds} concealed tiles with "
                   f"{nmelds} melds, got {sum(p.counts)}")
    if c.gang_kai and not any(kind in _KONGS for kind, _ in p.melds):
        raise _err("bad_context", "gang_kai needs a kong among the melds")
    _check_piao_wilds(p, c)  # (as ``score`` refuses every tile then)
    vis = _visible_counts(visible)
    if not compiled.PURE:  # the core values every wait (``valued_waits_wild``)
        table = _TABLES.get(o, _UNSET)
        if table is _UNSET:
            table = _compiled_table(o)
        if table is not None:
            cd, cs = _wait_contexts(c, o)
            if context is None or type(context) is dict:
                compiled.serve_waits(_ENTRY, context, o, (cd, cs))
            fast = table.valued_waits_wild(hand, cd, cs, vis)
            if fast is not None:
                if key is not None:
                    _WAITS.keep(key, fast)
                return fast  # type: ignore[no-any-return]
    held = list(p.counts)
    for _, tiles in p.melds:
        for t in tiles:
            held[t] += 1
    # each 飘 discarded a 财神: a kind whose four copies are gone is no wait
    gone = held[:]
    gone[c.wild] += c.piao_count
    facts = WinFacts(min(c.piao_count, o.piao_max), c.gang_kai, c.piao_on_gang)
    plain = WinFacts(0, False, False)
    out = []
    for t in _candidates(p.counts, c.wild):
        if gone[t] >= 4:
            continue
        counts = list(p.counts)
        counts[t] += 1
        r = roles(Physical(tuple(counts), p.melds), c.wild, o)
        drawn = BAIBAN if t == c.wild else natural(t, c.wild)
        on_discard, on_self = analyse(r, drawn, o)
        if not on_self:
            continue
        # every win after a 飘 is a self-drawn 爆头 (§5): no other self-draw wins then
        sv = best(on_self, facts, o)[0] if not facts.piao or any(
            x.baotou for x in on_self) else None
        dv = best(on_discard, plain, o)[0] if on_discard else None
        if sv is None and dv is None:
            continue
        out.append(ValuedWait(_text(t), t, dv.value if dv else 0, sv.value if sv else 0,
                              max(0, 4 - held[t] - vis[t]), dv.hits if dv else (),
                              sv.hits if sv else ()))
    result = tuple(out)
    if key is not None:
        _WAITS.keep(key, result)
    return result


# --------------------------------------------------------------------------- derived contexts
# In flip mode a server's contexts differ in the 财神 from hand to hand, where the rest (the
# situation) is one of a few. ``_ENTRY`` derives a context not seen before from its
# situation, the same context with ``caishen`` 1m (``_NEUTRAL``), compiled once by
# ``_situation``, and the ``_part`` its 财神 gives (the wild kind only: who pays, the flags
# and the 飘 do not depend on it).

_PARTS = (("caishen", "indicator"),)
_NEUTRAL = {"caishen": "1m"}


def _part(i: int, values: tuple[object, ...], o: HangzhouOptions) -> compiled.ContextPart | None:
    """The wild kind a context's ``caishen`` names, or None when it is not plainly valid in
    flip mode or an ``indicator`` is given too (the Python path checks they agree)."""
    caishen, indicator = values
    if o.caishen_mode != "flip" or indicator is not None or type(caishen) is not str:
        return None
    try:
        return compiled.ContextPart(wild=tile_id(caishen))
    except MahjongError:
        return None


def _situation(self_drawn: bool | None, context: dict[str, object],
               o: HangzhouOptions) -> tuple[object, ...] | None:
    """The table key of a context with ``_NEUTRAL``'s 财神, compiled in the options' table
    (None when the Python path refuses it: it is never derived from); a waits context
    (``self_drawn`` None) is served instead. Never a discard's: its refusals block the wild's
    own tile (``blocked``), which a part does not move."""
    if self_drawn is False:
        return None
    t = _TABLES.get(o, _UNSET)
    if t is _UNSET:
        t = _compiled_table(o)
    if t is None:
        return None
    if self_drawn is None:  # (as ``_general_waits`` serves it: the discard-only keys dropped)
        c = parse_context({k: v for k, v in context.items() if k not in _DISCARD_ONLY}, True, o)
        cd, cs = _wait_contexts(c, o)
        compiled.serve_waits(_ENTRY, context, o, (cd, cs))
        return None
    return _table_key(t, True, context, o)


_ENTRY = compiled.CompiledEntry(_TABLES, _compiled_table, None, None, {}, None,
                                _general_score, _general_waits, contexts=_KEYS_OF,
                                situation=_situation, parts=_PARTS, part=_part,
                                neutral=_NEUTRAL)
# A hand (a ``Hand`` or plain text) and a tile (an id or its text) in a context already
# compiled (a dict or none) is answered in one core call (the options' compiled table and its
# cache), and so are a ready hand's waits in a context already served
# (``compiled.serve_waits``) with nothing visible; every other call by ``_general_score`` and
# ``_general_waits``.
score: Callable[[object, int | str, bool, Mapping[str, object] | None, HangzhouOptions],
                ScoreResult] = _ENTRY.score
"""Score one winning hand (see ``mjcore.rules.score``). Memoised per input (bounded)."""
valued_waits: Callable[..., tuple[ValuedWait, ...]] = _ENTRY.valued_waits
"""Every physical kind whose addition gives a reading (§12: 5z included, except kinds of which
four copies are held), with its value on a discard (shape only: the claim rules are the move
checks') and self-drawn (爆头 and 飘 from the context). A ready hand (a ``Hand`` or plain text)
in a context met before, nothing visible, is answered in one core call (``_ENTRY``)."""


__all__ = ["CONTEXT_KEYS", "NAME", "clear_caches", "is_piao", "relative_points",
           "score", "valued_waits"]
