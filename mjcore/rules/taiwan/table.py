"""Taiwan's 台 table as data (taiwan.md §4-§5): every pattern with its value, the patterns it
replaces (§5) and the option that values or enables it, in the report order of §9 step 8.
The ``additive`` policy adds up every pattern that holds and is not replaced; a first-turn win
is worth its value alone while ``tiandihu_flat`` is on.

Each predicate looks at one ``TwReading`` (a split of the hand plus the slot the winning tile
took, and the 16-tile hand's waits) and the parsed win context ``TwContext``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from mjcore.rules.common import patterns as P
from mjcore.rules.common import special as S
from mjcore.rules.common.readings import Reading
from mjcore.rules.common.table import FanTable, PatternSpec, Policy
from mjcore.rules.taiwan.options import TaiwanOptions


class TwReading(NamedTuple):
    """One reading of §3: a split (``r``; shape ``standard`` or ``ligu``) and the slot of the
    winning tile (index in ``r.sets`` of the concealed set it completed, -1 for the pair).
    ``waits`` is the 16-tile hand's wait mask (§6), the same for every reading of a hand. The
    other fields are what the 台 table asks of the reading, worked out once by ``reading``
    (readings are memoised per hand, the context changes)."""

    r: Reading
    slot: int
    waits: int
    closed: bool  # 門清's meld condition: no chi, peng, gang or bugang (angang allowed)
    called: bool  # 全求人's holding: five melds, none an angang
    plain: bool  # five sequences and no honour tile anywhere (平胡's shape)
    two_sided: bool  # §6: the slot is a sequence completed on a two-sided wait
    shape_duting: bool  # §6 duting shape: the slot is the pair, a closed or an edge wait
    pungs: bool  # 碰碰胡: the five sets are pungs or kongs
    anke: tuple[int, int]  # concealed pungs on a discard win, on a self-draw
    colour: str  # ziyise, qingyise, hunyise or ""
    winds: frozenset[int]  # the winds with a pung or kong
    dragons: int  # dragon pungs and kongs
    honours: tuple[bool, bool, bool, bool]  # 大四喜, 小四喜, 大三元, 小三元


def reading(r: Reading, slot: int, waits: int) -> TwReading:
    """A reading with what the table asks of it, worked out once: the shared predicates of
    ``common.patterns``, and the honour hands of ``common.special`` (大四喜, 小四喜, 大三元,
    小三元) by their definitions over the pungs listed once (each predicate would list them
    again: this is the scoring hot path)."""
    w = r.win_tile
    s = r.sets[slot] if slot >= 0 else None
    chow = s is not None and s.kind == "chow"
    start = s.tile if s is not None else -1
    rank = start % 9
    one_suit, honour = P.suits_held(r) in (1, 2, 4), P.has_honours(r)
    colour = ("ziyise" if P.ziyise(r) else "qingyise" if one_suit and not honour
              else "hunyise" if one_suit else "")
    pungs = [x.tile for x in r.sets if x.kind != "chow"]
    winds = frozenset(t for t in pungs if t in P.WINDS)
    dragons = sum(1 for t in pungs if t in P.DRAGONS)
    return TwReading(
        r, slot, waits,
        closed=P.concealed(r),
        called=r.melds == 5 and all(x.meld not in ("", "angang") for x in r.sets if x.meld),
        plain=P.all_chows(r) and not honour,
        two_sided=chow and ((w == start and rank <= 5) or (w == start + 2 and rank >= 1)),
        shape_duting=s is None or chow and (w == start + 1 or (w == start + 2 and rank == 0)
                                            or (w == start and rank == 6)),
        pungs=r.shape == "standard" and len(pungs) == len(r.sets),
        anke=(S.concealed_pungs(r, slot, False), S.concealed_pungs(r, slot, True)),
        colour=colour,
        winds=winds,
        dragons=dragons,
        honours=(len(winds) == 4, len(winds) == 3 and r.pair in P.WINDS, dragons == 3,
                 dragons == 2 and r.pair in P.DRAGONS),
    )


class TwContext(NamedTuple):
    """The win context of §13, parsed and checked (winds as tile ids 27-30, seats relative to
    the winner, flowers as ids 34-41)."""

    seat_wind: int
    round_wind: int
    dealer: str
    dealer_streak: int
    discarder: str | None
    self_drawn: bool
    flowers: tuple[int, ...]
    qiang_gang: bool = False
    gang_shang_kai_hua: bool = False
    replacement_after: str | None = None
    hai_di_lao_yue: bool = False
    he_di_lao_yu: bool = False
    first_turn: str | None = None  # tianhu, dihu or renhu
    ting: str | None = None  # tian or di
    flower_win: str | None = None  # baxian or qiqiangyi
    winner: int = 0


R = TwReading
C = TwContext
O = TaiwanOptions  # noqa: E741  (R, C, O: the three arguments of every predicate)
_WIN_METHOD = ("menqing", "zimo", "menqing_zimo", "duting", "tianting", "diting")


def _ting(c: C, o: O) -> bool:
    return c.ting is not None and o.tianting_diting


def _duting(r: R, c: C, o: O) -> bool:
    """§6: one wait kind (one_kind), or a pair, closed or edge slot (shape)."""
    if o.duting == "one_kind":
        return r.waits != 0 and r.waits & (r.waits - 1) == 0
    return r.shape_duting


def _pinghu(r: R, c: C, o: O) -> bool:
    return (o.pinghu_tai > 0 and r.plain and not c.flowers and not c.self_drawn
            and r.two_sided)


def _anke(r: R, c: C) -> int:
    return r.anke[c.self_drawn]


def _seat_flowers(c: C) -> tuple[int, int]:
    k = c.seat_wind - 27
    return 34 + k, 38 + k


def _full_sets(c: C) -> list[range]:
    held = set(c.flowers)
    return [fs for fs in (range(34, 38), range(38, 42)) if held.issuperset(fs)]


def _zhenghua(r: R, c: C, o: O) -> int:
    """正花: the winner's own two flowers, less those inside a complete set (花槓 replaces)."""
    own = [f for f in _seat_flowers(c) if f in c.flowers]
    if o.huagang_replaces_zhenghua:
        own = [f for f in own if not any(f in fs for fs in _full_sets(c))]
    return len(own)


def _p(id_: str, name: str, tai: int, description: str, predicate: Callable[[R, C, O], Any],
       **kw: Any) -> PatternSpec:
    return PatternSpec(id_, name, tai, description, predicate, shape="any", **kw)


PATTERNS: tuple[PatternSpec, ...] = (
    # §4.7 first-turn wins and §7 flower wins
    _p("tianhu", "天胡", 24, "the dealer's dealt hand wins, self-drawn, before his first discard",
       lambda r, c, o: c.first_turn == "tianhu", flat_option="tiandihu_flat",
       value_option="tianhu_tai", supersedes=_WIN_METHOD,
       when=("tianhu",)),
    _p("dihu", "地胡", 16, "a non-dealer self-draws a win on his first draw, nobody having "
       "called before", lambda r, c, o: c.first_turn == "dihu", flat_option="tiandihu_flat",
       value_option="dihu_tai", supersedes=_WIN_METHOD,
       when=("dihu",)),
    _p("renhu", "人胡", 8, "a non-dealer wins on a discard of the first go-around before his own "
       "first discard, nobody having called before", lambda r, c, o: c.first_turn == "renhu",
       flat_option="tiandihu_flat", value_option="renhu_tai", supersedes=_WIN_METHOD,
       when=("renhu",)),
    _p("baxian", "八仙過海", 8, "flower win: the winner gets the eighth flower (paid as a "
       "self-draw)", lambda r, c, o: c.flower_win == "baxian", flat=True,
       value_option="flower_win_tai", enabled_by="flower_wins",
       when=("baxian",)),
    _p("qiqiangyi", "七搶一", 8, "flower win: the winner holds seven flowers and another player "
       "gets the eighth (who alone pays)", lambda r, c, o: c.flower_win == "qiqiangyi",
       flat=True, value_option="flower_win_tai", enabled_by="flower_wins",
       when=("qiqiangyi",)),
    # §4.1 win method
    _p("menqing_zimo", "門清自摸", 3, "門清's meld condition, a self-drawn win, no 聽 flag",
       lambda r, c, o: r.closed and c.self_drawn and not _ting(c, o),
       value_option="menqing_zimo_tai", supersedes=("menqing", "zimo"),
       when=("concealed", "self_drawn", "!ting")),
    _p("menqing", "門清", 1, "no chi, peng, gang or bugang (an angang is allowed), not "
       "self-drawn, no 聽 flag", lambda r, c, o: r.closed and not c.self_drawn
       and not _ting(c, o),
       when=("concealed", "!self_drawn", "!ting")),
    _p("zimo", "自摸", 1, "self-drawn win (門清自摸 not holding)",
       lambda r, c, o: c.self_drawn and not (r.closed and not _ting(c, o)),
       when=("self_drawn", "!concealed|ting")),
    _p("quanqiuren", "全求人", 2, "five melds, none an angang, won on a discard",
       lambda r, c, o: o.quanqiuren_tai > 0 and r.called and not c.self_drawn,
       value_option="quanqiuren_tai", supersedes=("duting",),
       supersedes_unless="quanqiu_plus_duting",
       when=("open_melds==5", "!self_drawn"), enabled_by="quanqiuren_tai"),
    _p("banqiu", "半求", 1, "the 全求人 holding won self-drawn",
       lambda r, c, o: r.called and c.self_drawn, enabled_by="banqiu",
       when=("open_melds==5", "self_drawn")),
    _p("tianting", "天聽", 8, "context ting tian: a non-dealer ready on his dealt hand declared "
       "聽 before his first draw", lambda r, c, o: c.ting == "tian",
       enabled_by="tianting_diting", supersedes=("menqing", "menqing_zimo"),
       when=("tian_ting",)),
    _p("diting", "地聽", 4, "context ting di: 聽 declared with the first discard, nobody having "
       "called before", lambda r, c, o: c.ting == "di", enabled_by="tianting_diting",
       supersedes=("menqing", "menqing_zimo"),
       when=("di_ting",)),
    _p("duting", "獨聽", 1, "the wait has exactly one kind (duting: shape: the win completes the "
       "pair, a closed or an edge wait)", _duting,
       when=("duting_by_kind|single_wait", "!duting_by_kind|one_kind_wait")),
    _p("pinghu", "平胡", 2, "five sequences, no honour, no flower, won on a discard on a "
       "two-sided wait", _pinghu, value_option="pinghu_tai", supersedes=("duting",),
       when=("chow", "!honours", "no_flowers", "!self_drawn", "two_sided_wait"), enabled_by="pinghu_tai"),
    # §4.2 hand shape
    _p("pengpenghu", "碰碰胡", 4, "the five sets are pungs or kongs",
       lambda r, c, o: r.pungs,
       when=("pung",)),
    _p("wuanke", "五暗刻", 8, "5 concealed pungs", lambda r, c, o: _anke(r, c) >= 5,
       supersedes=("sianke", "sananke"),
       when=("concealed_pungs>=5",)),
    _p("sianke", "四暗刻", 5, "4 concealed pungs", lambda r, c, o: _anke(r, c) >= 4,
       supersedes=("sananke",),
       when=("concealed_pungs>=4",)),
    _p("sananke", "三暗刻", 2, "3 concealed pungs (a pung completed by a discard is not)",
       lambda r, c, o: _anke(r, c) >= 3,
       when=("concealed_pungs>=3",)),
    _p("ligu", "嚦咕嚦咕", 8, "seven pairs and a pung, no melds (option ligu)",
       lambda r, c, o: r.r.shape == "ligu", enabled_by="ligu", value_option="ligu_tai",
       when=("ligu",)),
    # §4.3 colour
    _p("ziyise", "字一色", 16, "every tile an honour", lambda r, c, o: r.colour == "ziyise",
       value_option="ziyise_tai",
       when=("zi",)),
    _p("qingyise", "清一色", 8, "every tile of one suit", lambda r, c, o: r.colour == "qingyise",
       when=("qing",)),
    _p("hunyise", "混一色", 4, "one suit and honours", lambda r, c, o: r.colour == "hunyise",
       when=("hun",)),
    # §4.4 honours
    _p("dasixi", "大四喜", 16, "four wind pungs/kongs", lambda r, c, o: r.honours[0],
       value_option="dasixi_tai", supersedes=("menfeng", "quanfeng"),
       when=("wind_pungs==4",)),
    _p("xiaosixi", "小四喜", 8, "three wind pungs/kongs and a wind pair",
       lambda r, c, o: r.honours[1], value_option="xiaosixi_tai",
       supersedes=("menfeng", "quanfeng"),
       when=("wind_pungs==3", "wind_pair")),
    _p("dasanyuan", "大三元", 8, "three dragon pungs/kongs", lambda r, c, o: r.honours[2],
       supersedes=("sanyuanpai",),
       when=("dragon_pungs==3",)),
    _p("xiaosanyuan", "小三元", 4, "two dragon pungs/kongs and a dragon pair",
       lambda r, c, o: r.honours[3], supersedes=("sanyuanpai",),
       when=("dragon_pungs==2", "dragon_pair")),
    _p("menfeng", "門風", 1, "a pung or kong of the seat wind",
       lambda r, c, o: c.seat_wind in r.winds,
       when=("seat_wind_pung",)),
    _p("quanfeng", "圈風", 1, "a pung or kong of the round wind",
       lambda r, c, o: c.round_wind in r.winds,
       when=("round_wind_pung",)),
    _p("sanyuanpai", "三元牌", 1, "each pung or kong of 白 發 中",
       lambda r, c, o: r.dragons, each=True,
       when=("dragon_pungs>=1",), times="dragon_pungs"),
    # §4.5 flowers
    _p("huagang", "花槓", 2, "each complete flower set (春夏秋冬 or 梅蘭菊竹)",
       lambda r, c, o: len(_full_sets(c)), each=True,
       when=("flower_sets>=1",), times="flower_sets"),
    _p("zhenghua", "正花", 1, "each of the winner's two seat flowers (one inside a complete set "
       "is the 花槓's)", _zhenghua, each=True,
       when=("seat_flowers>=1",), times="seat_flowers"),
    # §4.6 situation
    _p("haidilaoyue", "海底撈月", 1, "self-draw of the last tile before the reserve",
       lambda r, c, o: c.hai_di_lao_yue,
       when=("hai_di_lao_yue",)),
    _p("hedilaoyu", "河底撈魚", 1, "win on the discard after the last tile",
       lambda r, c, o: c.he_di_lao_yu,
       when=("he_di_lao_yu",)),
    _p("gangshangkaihua", "槓上開花", 1, "self-draw on the replacement after one's own kong or "
       "flower (after a 明槓 only with gangshang_minggang)",
       lambda r, c, o: c.gang_shang_kai_hua and (c.replacement_after != "gang"
                                                 or o.gangshang_minggang),
       when=("gang_shang_kai_hua",)),
    _p("qiangganghu", "搶槓胡", 1, "win on the tile another player adds as a bugang",
       lambda r, c, o: c.qiang_gang,
       when=("qiang_gang",)),
)

ORDER: dict[str, int] = {p.id: i for i, p in enumerate(PATTERNS)}
"""§9 step 8's report order (the table's order)."""

# The win context as the compiled table sees it, with the options it depends on (computed
# once per context by ``scoring.context_features``): ``ting`` a 聽 flag that counts,
# ``tian_ting``/``di_ting`` which one, ``duting_by_kind`` the option duting is one_kind,
# ``gang_shang_kai_hua`` only where it counts (after a 明槓 only with gangshang_minggang).
CONTEXT_FEATURES = ("self_drawn", "ting", "tian_ting", "di_ting", "tianhu", "dihu", "renhu",
                    "baxian", "qiqiangyi", "no_flowers", "hai_di_lao_yue", "he_di_lao_yu",
                    "gang_shang_kai_hua", "qiang_gang", "duting_by_kind")

TABLE = FanTable(Policy("additive", cap_option="cap_tai", flat_rule="alone"), PATTERNS,
                 context_features=CONTEXT_FEATURES)

__all__ = ["CONTEXT_FEATURES", "ORDER", "TABLE", "TwContext", "TwReading", "reading"]
