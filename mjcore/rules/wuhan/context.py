"""The Wuhan win context (docs/rulesets/wuhan.md, Win context): its keys, the 赖子 from a
turned-up tile, the checks of the context and of melds (the winner's and the payers'), and
each player's doublings F."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from mjcore.errors import MahjongError
from mjcore.hand import Hand, Meld
from mjcore.rules.common.inputs import hand_of, tile_id
from mjcore.rules.common.inputs import tile_text as _text
from mjcore.rules.common.memo import Memo
from mjcore.rules.common.ruleset import ContextKey
from mjcore.rules.wuhan.options import WuhanOptions

RELATIVE = ("left", "across", "right")
OFFSET = {"right": 1, "across": 2, "left": 3}  # seat = (winner + offset) % 4
OPENING = frozenset(("chi", "peng", "gang", "bugang"))
_HONOUR_CYCLE = (27, 28, 29, 30, 33, 32, 31)  # 东 南 西 北 中 发 白 ([GF] GetNextCards)


CONTEXT_KEYS: tuple[ContextKey, ...] = (
    ContextKey("laizi", "the 赖子 kind (required unless indicator is given)", "tile"),
    ContextKey("indicator", "the turned-up tile: the 赖子 is the next kind, skipping 痞子",
               "tile"),
    ContextKey("winner", "the winner's seat 0-3 (default 0): payments name absolute seats "
               "from it", "seat"),
    ContextKey("discarder", "a discard win: who discarded, seen from the winner", "relative_seat"),
    ContextKey("robbed", "抢杠: whose bugang was robbed, seen from the winner", "relative_seat"),
    ContextKey("gang_shang_hua", "self-draw on the replacement after the winner's own kong of "
               "any kind (痞子杠, 赖子杠 included)"),
    ContextKey("hai_di", "self-draw in the 海底 (the last four drawable tiles)"),
    ContextKey("meld_from", "for each set meld, in order: the relative seat it was claimed "
               "from (null for an angang); for 放三浦", "relative_seats"),
    ContextKey("payer_melds", "for each other seat: its declared melds, for its doublings "
               "F(payer) (a seat not named has none)", "seat_melds"),
)
_KNOWN = frozenset(c.id for c in CONTEXT_KEYS)


def bad_context(message: str) -> MahjongError:
    return MahjongError("bad_context", message)


def next_kind(tile: int, pizi: frozenset[int]) -> int:
    """The kind after ``tile`` (1→…→9→1 in a suit; 东南西北中发白 for honours), skipping 痞子."""
    t = tile
    while True:
        if t < 27:
            t = t - t % 9 + (t % 9 + 1) % 9
        else:
            t = _HONOUR_CYCLE[(_HONOUR_CYCLE.index(t) + 1) % 7]
        if t not in pizi:
            return t


def _tile(key: str, value: object) -> int:
    if isinstance(value, bool):
        raise bad_context(f"{key!r} must be a tile, got {value!r:.40}")
    try:
        return tile_id(value, key)
    except MahjongError:
        raise bad_context(f"{key!r} must be a tile such as '9p', got {value!r:.40}") from None


def _relative(key: str, value: object) -> str | None:
    if value is None or (isinstance(value, str) and value in OFFSET):
        return value
    raise bad_context(f"{key!r} must be left, across or right, got {value!r:.40}")


def _flag(key: str, value: object) -> bool:
    if isinstance(value, bool):
        return value
    raise bad_context(f"{key!r} must be true or false, got {value!r:.40}")


def parse_hand(hand: object, what: str = "the hand") -> Hand:
    """A Hand from a Hand or text; more than four of a tile is ``tile_count``."""
    try:
        return hand_of(hand)
    except MahjongError as err:
        if err.code in ("too_many_copies", "wrong_tile_count"):
            raise MahjongError("tile_count", f"{what}: {err.message}") from None
        raise


def check_melds(melds: tuple[Meld, ...], laizi: int, o: WuhanOptions, who: str) -> None:
    """痞子 and 赖子 are never in a set meld; a one-tile kong lays a 痞子 or the 赖子."""
    for m in melds:
        t = m.tiles[0]
        if m.kind == "pizigang":
            if t not in o.pizi_kinds:
                raise MahjongError("bad_meld", f"{who}: pizigang:{_text(t)} is not a 痞子")
        elif m.kind == "laizigang":
            if t != laizi:
                raise MahjongError("bad_meld", f"{who}: laizigang:{_text(t)} is not the 赖子 "
                                   f"{_text(laizi)}")
        else:
            for x in m.tiles:
                if x in o.pizi_kinds:
                    raise MahjongError("bad_meld", f"{who}: a 痞子 cannot be claimed for a "
                                       f"{m.kind} ({m.to_text()})")
                if x == laizi:
                    raise MahjongError("bad_meld", f"{who}: a 赖子 cannot be part of a "
                                       f"{m.kind} ({m.to_text()})")
            if m.kind == "chi" and m.stand_in is not None:
                raise MahjongError("bad_meld", f"{who}: {m.to_text()} is not three "
                                   "consecutive tiles")


def doublings(melds: tuple[Meld, ...], o: WuhanOptions) -> int:
    """F(X): ×2 once opened (chi, peng, gang, bugang), ×2 per gang/bugang, ×4 per angang,
    ×2 per 痞子杠, ×4 per 赖子杠; 1 with ``factors`` off."""
    if not o.factors:
        return 1
    f, opened = 1, False
    for m in melds:
        k = m.kind
        if k in OPENING:
            opened = True
        if k in ("gang", "bugang", "pizigang"):
            f *= 2
        elif k in ("angang", "laizigang"):
            f *= 4
    return f * 2 if opened else f


class Context(NamedTuple):
    laizi: int
    winner: int
    discarder: str | None
    robbed: str | None
    gsh: bool
    haidi: bool
    meld_from: tuple[str | None, ...] | None
    payers: tuple[tuple[str, tuple[Meld, ...]], ...]  # (relative seat, melds) given


def parse_context(context: Mapping[str, object] | None, self_drawn: bool,
                  o: WuhanOptions) -> Context:
    """The context checked on its own (see ``check_win`` for what needs the hand)."""
    if context is None:
        context = {}
    elif not isinstance(context, Mapping):
        raise bad_context("context must be a mapping of key to value")
    for key in context:
        if key not in _KNOWN:
            raise bad_context(f"unknown context key {key!r:.40} (known: {', '.join(sorted(_KNOWN))})")
    get = context.get
    laizi = None if get("laizi") is None else _tile("laizi", get("laizi"))
    if get("indicator") is not None:
        from_indicator = next_kind(_tile("indicator", get("indicator")), o.pizi_kinds)
        if laizi is not None and laizi != from_indicator:
            raise bad_context(f"laizi {_text(laizi)} is not the kind after the indicator "
                       f"({_text(from_indicator)})")
        laizi = from_indicator
    if laizi is None:
        raise bad_context("the context names the 赖子 (laizi) or the turned-up tile (indicator)")
    if laizi in o.pizi_kinds:
        raise bad_context(f"a 痞子 cannot be the 赖子 ({_text(laizi)})")
    winner = get("winner", 0)
    if winner is None:
        winner = 0
    if type(winner) is not int or not 0 <= winner < 4:
        raise bad_context(f"'winner' must be a seat 0-3, got {winner!r:.40}")
    discarder = _relative("discarder", get("discarder"))
    robbed = _relative("robbed", get("robbed"))
    gsh = _flag("gang_shang_hua", get("gang_shang_hua", False))
    haidi = _flag("hai_di", get("hai_di", False))
    sd = bool(self_drawn)
    if sd and (discarder or robbed):
        raise bad_context("a self-drawn win has no discarder and robs no kong")
    if not sd and (discarder is None) == (robbed is None):
        raise bad_context("a win on another seat's tile names exactly one of discarder and robbed")
    if gsh and not sd:
        raise bad_context("gang_shang_hua (杠上花) needs a self-drawn win")
    if haidi and (not sd or gsh):
        raise bad_context("hai_di (海底捞) needs a self-drawn win that is not 杠上花")
    meld_from: tuple[str | None, ...] | None = None
    raw = get("meld_from")
    if raw is not None:
        if isinstance(raw, str | bytes) or not isinstance(raw, list | tuple):
            raise bad_context("meld_from must be a list of relative seats (null for an angang)")
        meld_from = tuple(_relative("meld_from", x) for x in raw)
    payers: list[tuple[str, tuple[Meld, ...]]] = []
    raw = get("payer_melds")
    if raw is not None:
        if not isinstance(raw, Mapping):
            raise bad_context("payer_melds maps left/across/right to melds text")
        for seat_, melds in raw.items():
            rel = _relative("payer_melds", seat_)
            if rel is None:
                raise bad_context("payer_melds maps left/across/right to melds text")
            if melds is None:
                continue
            if isinstance(melds, list | tuple):
                melds = " ".join(str(m) for m in melds)
            if not isinstance(melds, str):
                raise bad_context(f"payer_melds[{rel}] must be melds text such as 'peng:111s'")
            h = parse_hand(melds, f"payer_melds[{rel}]")
            if h.concealed_count:
                raise bad_context(f"payer_melds[{rel}] lists melds only, not concealed tiles")
            if sum(m.is_set for m in h.melds) > 4:
                raise MahjongError("bad_meld", f"payer_melds[{rel}]: more than four set melds")
            check_melds(h.melds, laizi, o, f"payer_melds[{rel}]")
            payers.append((rel, h.melds))
    return Context(laizi, winner, discarder, robbed, gsh, haidi, meld_from, tuple(payers))


_CONTEXTS: Memo[tuple[object, ...], Context] = Memo(4096)


def clear_contexts() -> None:
    _CONTEXTS.clear()


def cached_context(context: Mapping[str, object] | None, sd: bool, o: WuhanOptions,
             frozen: object) -> Context:
    """``parse_context`` memoised by the context's frozen form (a table sends few distinct
    contexts); ``frozen`` is ``NO_KEY`` for a context that cannot be a key."""
    if frozen is NO_KEY:
        return parse_context(context, sd, o)
    key = (frozen, sd, o)
    hit = _CONTEXTS.get(key)
    if hit is None:
        hit = parse_context(context, sd, o)
        _CONTEXTS.keep(key, hit)
    return hit


_PLAIN = (str, int, bool, type(None))
_PLAIN_TYPES = frozenset(_PLAIN)


def freeze(value: object) -> object:
    """A hashable stand-in for a context value (lists and mappings as tuples, with types)."""
    if type(value) in _PLAIN_TYPES:  # (most values: no abstract class asked)
        return (type(value), value)
    if type(value) is dict:
        types = tuple(map(type, value.values()))
        if _PLAIN_TYPES.issuperset(types):
            return (*value.items(), *types)  # the common flat context
        return ("map", tuple((k, freeze(v)) for k, v in value.items()))
    if type(value) is list or type(value) is tuple:
        return ("seq", tuple(freeze(v) for v in value))
    if isinstance(value, Mapping):
        return ("map", tuple((k, freeze(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return ("seq", tuple(freeze(v) for v in value))
    return (type(value), value)


NO_KEY = object()
def relative_of(winner: int, seat: int) -> str:
    return {1: "right", 2: "across", 3: "left"}[(seat - winner) % 4]
