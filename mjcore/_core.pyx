# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled core: packed per-suit counts, table look-ups, waits, shanten, wild tiles.

A suit's nine counts (0-4 each) are packed as a base-5 number (0 .. 5**9-1), the index of
per-suit tables built once at import by the code below; the seven honours pack the same way
into 5**7 keys with a table that knows only pungs and pairs. Every whole-hand question is then
a handful of look-ups combined across the four "suits".

Per key the tables hold (``info``, one uint32):
  bit 0      the tiles split exactly into sets                       (M)
  bit 1      the tiles split exactly into sets plus one pair         (P)
  bits 2-10  ranks r whose addition makes the key M                  (wait mask for M)
  bits 11-19 ranks r whose addition makes the key P                  (wait mask for P)
  bits 20-24 fewest wild tiles that make the key M (capped at 31)
  bits 25-29 fewest wild tiles that make the key P (capped at 31)
and (``dist``, 12 bytes) for m = 0..5 sets and h = 0..1 pairs: the fewest tiles to add so that
the key contains m sets and h pairs, never needing a fifth copy of a tile (exact shanten).
"""

cimport cython
from libc.stdlib cimport malloc, free
from libc.string cimport memcmp, memcpy, memset
from libc.stdint cimport int8_t, int16_t, uint8_t, uint16_t, uint32_t, uint64_t
from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_C_CONTIGUOUS, PyBUF_FORMAT

from .errors import MahjongError

from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from cpython.sequence cimport PySequence_Fast_GET_ITEM, PySequence_Fast_GET_SIZE

cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object)
    void* PyUnicode_DATA(object)

cdef extern from "Python.h":
    void PyObject_GC_UnTrack(object)
    int PyObject_IS_GC(object)

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_popcountll(unsigned long long) nogil

cdef enum:
    NSUIT = 1953125      # 5**9 keys of a numbered suit
    NHON = 78125         # 5**7 keys of the honours
    MAXM = 5             # most sets per suit the shanten tables know (17-tile hands)
    NDIST = 12           # (MAXM + 1) * 2
    INF = 99
    MAX_JOKERS = 8
    MAX_WILD_HAND = 17   # tiles of the longest complete hand (5 sets + a pair), wilds included
    WSTATES = 6 * 6 * 6 * 2 * 9   # (a, b, sets, pair, wilds over caps) of _dist_wild

# shape bits
cdef enum:
    SH_STANDARD = 1
    SH_QIDUI = 2
    SH_SHISANYAO = 4
    SH_QUANBUKAO = 8
    SH_QIXINGBUKAO = 16
    SH_ZUHELONG = 32
    SH_QIDUI_DISTINCT = 64   # qidui where four identical tiles do not count as two pairs

# A set of shapes means their union: each bit is a shape of its own, never a modifier of another.

SHAPES = ("standard", "qidui", "shisanyao", "quanbukao", "qixingbukao", "zuhelong")
DEFAULT_SHAPES = ("standard", "qidui")
_SHAPE_BITS = {"standard": SH_STANDARD, "qidui": SH_QIDUI, "shisanyao": SH_SHISANYAO,
               "quanbukao": SH_QUANBUKAO, "qixingbukao": SH_QIXINGBUKAO,
               "zuhelong": SH_ZUHELONG, "qidui_distinct": SH_QIDUI_DISTINCT}
_SHAPE_NAMES = SHAPES + ("qidui_distinct",)   # every name a shapes argument may hold
cdef int DEFAULT_BITS = SH_STANDARD | SH_QIDUI
# shapes whose waits are found by trying each tile
cdef int SPECIAL_14 = SH_SHISANYAO | SH_QUANBUKAO | SH_QIXINGBUKAO | SH_ZUHELONG

cdef int P5[10]
cdef uint32_t* suit_info = NULL
cdef uint32_t* hon_info = NULL
cdef uint8_t* suit_dist = NULL
cdef uint8_t* hon_dist = NULL
cdef uint8_t* suit_mp = NULL     # the M/P bits alone, 2 bits a key: 488 KB stays in cache

# orphans: 1m 9m 1p 9p 1s 9s and the seven honours
cdef int ORPHANS[13]
ORPHAN_IDS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
for _i in range(13):
    ORPHANS[_i] = ORPHAN_IDS[_i]
# the six ways to give the suits the knitted residues (147, 258, 369)
cdef int PERMS[6][3]
_PERMS = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
for _i in range(6):
    for _j in range(3):
        PERMS[_i][_j] = _PERMS[_i][_j]


# ---------------------------------------------------------------- table construction

cdef inline uint8_t _min8(uint8_t a, uint8_t b) nogil:
    return a if a < b else b


cdef int _build(int nranks, bint seqs, int n, uint32_t* info, uint8_t* dist) except -1 nogil:
    """Fill ``info`` and ``dist`` for all 5**nranks keys of one kind of suit."""
    cdef uint8_t* jm = <uint8_t*> malloc(n)
    cdef uint8_t* jp = <uint8_t*> malloc(n)
    cdef uint16_t* contains = <uint16_t*> malloc(n * sizeof(uint16_t))
    if jm == NULL or jp == NULL or contains == NULL:
        free(jm); free(jp); free(contains)
        with gil:
            raise MemoryError()
    cdef int d[9]
    cdef int idx, i, c, k, s, p, sub, cost, r, total, m, h, j
    cdef int bm, bp, wm, wp
    cdef uint16_t own, g
    cdef uint8_t tmp[NDIST]
    cdef uint8_t* row
    cdef uint8_t* out
    memset(d, 0, sizeof(d))
    # pass 1 (ascending keys): fewest wilds to make the key sets (jm) / sets + pair (jp).
    # The lowest held rank must lie in a pung of it or a run through it; every smaller key
    # is already done, so one ascending sweep is a complete dynamic programme.
    for idx in range(n):
        if idx == 0:
            jm[0] = 0
            jp[0] = 2
        else:
            i = 0
            while d[i] == 0:
                i += 1
            c = d[i]
            k = c if c < 3 else 3
            sub = idx - k * P5[i]
            bm = jm[sub] + 3 - k
            bp = jp[sub] + 3 - k
            k = c if c < 2 else 2
            sub = idx - k * P5[i]
            if jm[sub] + 2 - k < bp:
                bp = jm[sub] + 2 - k
            if seqs:
                for s in range(i - 2, i + 1):
                    if s < 0 or s + 2 >= nranks:
                        continue
                    sub = idx
                    cost = 0
                    for p in range(s, s + 3):
                        if d[p] > 0:
                            sub -= P5[p]
                        else:
                            cost += 1
                    if jm[sub] + cost < bm:
                        bm = jm[sub] + cost
                    if jp[sub] + cost < bp:
                        bp = jp[sub] + cost
            if bm + 2 < bp:
                bp = bm + 2
            jm[idx] = bm if bm < 31 else 31
            jp[idx] = bp if bp < 31 else 31
        # odometer increment of the base-5 digits
        for r in range(nranks):
            d[r] += 1
            if d[r] < 5:
                break
            d[r] = 0
    # pass 2 (ascending): wait masks and "contains m sets + h pairs" bits
    memset(d, 0, sizeof(d))
    for idx in range(n):
        wm = 0
        wp = 0
        total = 0
        g = 0
        for r in range(nranks):
            total += d[r]
            if d[r] < 4:
                if jm[idx + P5[r]] == 0:
                    wm |= 1 << r
                if jp[idx + P5[r]] == 0:
                    wp |= 1 << r
            if d[r] > 0:
                g |= contains[idx - P5[r]]
        # exact complete shapes: total = 3m + 2h
        own = 0
        if total % 3 == 0 and total // 3 <= MAXM and jm[idx] == 0:
            own = 1 << ((total // 3) * 2)
        elif total % 3 == 2 and total // 3 <= MAXM and jp[idx] == 0:
            own = 1 << ((total // 3) * 2 + 1)
        contains[idx] = g | own
        info[idx] = ((1 if jm[idx] == 0 else 0) | (2 if jp[idx] == 0 else 0)
                     | (<uint32_t> wm << 2) | (<uint32_t> wp << 11)
                     | (<uint32_t> jm[idx] << 20) | (<uint32_t> jp[idx] << 25))
        for r in range(nranks):
            d[r] += 1
            if d[r] < 5:
                break
            d[r] = 0
    # pass 3 (descending): fewest additions to reach a key containing m sets + h pairs.
    # Adding a tile never needs a fifth copy, so the answer respects the four-copy limit.
    for r in range(nranks):
        d[r] = 4
    idx = n - 1
    while idx >= 0:
        for k in range(NDIST):
            tmp[k] = INF
        for r in range(nranks):
            if d[r] < 4:
                row = dist + (idx + P5[r]) * NDIST
                for k in range(NDIST):
                    tmp[k] = _min8(tmp[k], row[k])
        out = dist + idx * NDIST
        g = contains[idx]
        for k in range(NDIST):
            if g & (1 << k):
                out[k] = 0
            else:
                out[k] = _min8(tmp[k] + 1, INF)
        for r in range(nranks):
            d[r] -= 1
            if d[r] >= 0:
                break
            d[r] = 4
        idx -= 1
    free(jm)
    free(jp)
    free(contains)
    return 0


cdef void _init_tables() except *:
    global suit_info, hon_info, suit_dist, hon_dist, suit_mp
    cdef int i
    P5[0] = 1
    for i in range(1, 10):
        P5[i] = P5[i - 1] * 5
    suit_info = <uint32_t*> malloc(NSUIT * sizeof(uint32_t))
    hon_info = <uint32_t*> malloc(NHON * sizeof(uint32_t))
    suit_dist = <uint8_t*> malloc(NSUIT * NDIST)
    hon_dist = <uint8_t*> malloc(NHON * NDIST)
    if suit_info == NULL or hon_info == NULL or suit_dist == NULL or hon_dist == NULL:
        raise MemoryError()
    suit_mp = <uint8_t*> malloc(NSUIT // 4 + 1)
    if suit_mp == NULL:
        raise MemoryError()
    with nogil:
        _build(9, True, NSUIT, suit_info, suit_dist)
        _build(7, False, NHON, hon_info, hon_dist)
        memset(suit_mp, 0, NSUIT // 4 + 1)
        for i in range(NSUIT):
            suit_mp[i >> 2] |= (suit_info[i] & 3) << ((i & 3) * 2)

_init_tables()


def table_entry(int key, bint honours=False):
    """The raw table row of one packed key: (M, P, wait_M, wait_P, jokers_M, jokers_P, dist).

    For tests of the generator; ``dist`` is a tuple of 12 values indexed ``m * 2 + h``.
    """
    cdef int n = NHON if honours else NSUIT
    if not 0 <= key < n:
        raise MahjongError("bad_argument", f"key {key} is not in 0..{n - 1}")
    cdef uint32_t v = hon_info[key] if honours else suit_info[key]
    cdef uint8_t* row = (hon_dist if honours else suit_dist) + key * NDIST
    return (bool(v & 1), bool(v & 2), (v >> 2) & 0x1FF, (v >> 11) & 0x1FF,
            (v >> 20) & 31, (v >> 25) & 31, tuple(row[k] for k in range(NDIST)))


def capped_distances(counts, caps, bint honours=False):
    """The rank-by-rank search's ``dist`` row for one suit with per-rank copy caps (for tests)."""
    cdef int n = 7 if honours else 9, r
    cdef uint8_t x[9]
    cdef uint8_t c[9]
    cdef uint8_t out[NDIST]
    if len(counts) != n or len(caps) != n:
        raise MahjongError("bad_argument", f"counts and caps need {n} entries")
    for r in range(n):
        if not (0 <= counts[r] <= 4 and 0 <= caps[r] <= 4):
            raise MahjongError("bad_argument", "counts and caps are in 0..4")
        x[r] = counts[r]
        c[r] = caps[r]
    _dist_capped(x, c, n, not honours, MAXM, out)
    return tuple(out[k] for k in range(NDIST))


# ---------------------------------------------------------------- the packed hand

cdef struct Packed:
    int key[4]            # base-5 keys of m, p, s and the honours
    uint8_t cnt[34]       # concealed counts
    uint64_t four         # tiles of which all four copies are held (concealed + melds)
    int ncon              # concealed tiles
    int nmelds
    uint8_t cap[34]       # copies the concealed part may reach: 4 less the copies in melds
    int capped            # bit s: suit s has a tile with copies in melds (shanten then searches)


cdef int _pack(Packed* h, const uint8_t* cnt, int nmelds, uint64_t four) noexcept nogil:
    """Pack 34 counts; returns the first tile id whose count is over 4, or -1."""
    cdef int t, total = 0
    cdef unsigned int over = 0
    for t in range(34):  # (no branch in these loops: the compiler vectorises them)
        total += cnt[t]
        over |= cnt[t] > 4
    if over:
        for t in range(34):
            if cnt[t] > 4:
                return t
    for t in range(4):  # eight counts at a time: of 0-4, only 4 has bit 2
        four |= _byte_bits(_bytes8(cnt + 8 * t) >> 2) << (8 * t)
    four |= (<uint64_t> (cnt[32] == 4)) << 32 | (<uint64_t> (cnt[33] == 4)) << 33
    memcpy(h.cnt, cnt, 34)
    h.key[0] = _suit_key(cnt)
    h.key[1] = _suit_key(cnt + 9)
    h.key[2] = _suit_key(cnt + 18)
    h.key[3] = cnt[27] + 5 * (cnt[28] + 5 * (cnt[29] + 5 * (cnt[30] + 5 * (
        cnt[31] + 5 * (cnt[32] + 5 * cnt[33])))))
    h.ncon = total
    h.nmelds = nmelds
    h.four = four
    memset(h.cap, 4, 34)
    h.capped = 0
    return -1


# the C reading (its structs: a hand keeps its declared melds as C sets)
include "_reading.pxi"


cdef class HandBase:
    """Compiled base of :class:`mjcore.Hand`: the counts, melds and their packed form."""

    cdef readonly tuple counts
    cdef readonly tuple melds
    cdef readonly tuple held
    cdef Packed p
    cdef Py_hash_t _hash   # hands key the rule sets' memo tables: hash once, not per look-up
    # the declared melds as the C readings' sets, packed once (a hand is immutable): read by
    # every score, not looked up in the Meld objects per call
    cdef MeldInfo mi
    cdef bint melds_plain  # ``mi`` holds them all (no chi with a stand-in, no unknown kind)
    cdef int n_melds       # len(melds), one-tile melds included

    def __init__(self, tuple counts, tuple melds, tuple held):
        cdef uint8_t cnt[34]
        cdef uint64_t four = 0
        cdef int t
        if len(counts) != 34 or len(held) != 34:
            raise MahjongError("wrong_tile_count", "a hand has 34 counts")
        for t in range(34):
            c = counts[t]
            hc = held[t]
            if type(c) is not int or type(hc) is not int or not (0 <= c <= hc <= 4):
                raise MahjongError("too_many_copies", f"bad count {c!r} of tile id {t}")
            cnt[t] = c
            if hc == 4:
                four |= (<uint64_t> 1) << t
        self.counts = counts
        self.melds = melds
        self.held = held
        self._hash = hash((counts, melds))
        # a one-tile meld laid aside (Wuhan's 痞子杠/赖子杠) is not one of the hand's sets
        _pack(&self.p, cnt, sum(1 for m in melds if len(m[1]) >= 3), four)
        self.n_melds = len(melds)
        self.melds_plain = _meld_info(melds, &self.mi) == 0
        for t in range(34):
            if held[t] > counts[t]:
                self.p.cap[t] = 4 - (held[t] - counts[t])
                self.p.capped |= 1 << (t // 9 if t < 27 else 3)

    @property
    def concealed_count(self):
        return self.p.ncon

    def __hash__(self):
        return self._hash

    def __eq__(self, other):
        if not isinstance(other, HandBase):
            return NotImplemented
        cdef HandBase o = <HandBase> other
        return self._hash == o._hash and self.counts == o.counts and self.melds == o.melds


def _count_runs(str text, list counts):
    """Add the tiles of plain suit runs ("123m44z") to the 34 ``counts``; returns False, adding
    nothing, if the text holds anything else (the Python parser then says what is wrong)."""
    cdef int add[34]
    cdef int t
    # an ASCII text is stored one byte a character: read in place (any other is not runs)
    if len(counts) != 34 or not PyUnicode_IS_ASCII(text):
        return False
    if not plain_runs_counts(<const unsigned char*> PyUnicode_DATA(text), len(text), add):
        return False
    for t in range(34):
        if add[t]:
            counts[t] += add[t]
    return True


# Set by mjcore.hand at import: the Hand class, to turn text into hands.
_hand_type = None

def _register_hand_type(cls):
    global _hand_type
    _hand_type = cls


cdef inline HandBase _as_hand(object hand):
    if isinstance(hand, HandBase):
        return <HandBase> hand
    if isinstance(hand, str):
        return _hand_type.parse(hand)
    raise MahjongError("bad_notation", f"a hand is text or a Hand, not {type(hand).__name__}")


cdef int _shape_bits(object shapes) except -1:
    if shapes is None:
        return DEFAULT_BITS
    if isinstance(shapes, str):
        shapes = (shapes,)
    cdef int bits = 0
    try:
        for s in shapes:
            bits |= _SHAPE_BITS[s]
    except (KeyError, TypeError):
        raise MahjongError("bad_shape",
                           f"unknown shape in {shapes!r}; shapes are {', '.join(_SHAPE_NAMES)}") from None
    return bits


cdef int _jokers(object jokers) except -1:
    if type(jokers) is not int or not 0 <= jokers <= MAX_JOKERS:
        raise MahjongError("bad_argument", f"jokers must be an int in 0..{MAX_JOKERS}, got {jokers!r}")
    return jokers


# ---------------------------------------------------------------- standard shape

cdef inline uint32_t _info(const Packed* h, int s) noexcept nogil:
    return hon_info[h.key[3]] if s == 3 else suit_info[h.key[s]]


cdef inline int _std_win0(const int* key) noexcept nogil:
    """Standard win without wilds: every suit M or P, exactly one P."""
    cdef uint32_t a = suit_info[key[0]] & 3
    cdef uint32_t b = suit_info[key[1]] & 3
    cdef uint32_t c = suit_info[key[2]] & 3
    cdef uint32_t z = hon_info[key[3]] & 3
    if a == 0 or b == 0 or c == 0 or z == 0:
        return 0
    return ((a >> 1) + (b >> 1) + (c >> 1) + (z >> 1)) == 1


cdef inline int _std_need(const uint32_t* v) noexcept nogil:
    """Fewest wilds for sets + one pair given the four suits' info words."""
    cdef int s, summ = 0, best = INF, delta
    for s in range(4):
        summ += (v[s] >> 20) & 31
    for s in range(4):
        delta = <int> ((v[s] >> 25) & 31) - <int> ((v[s] >> 20) & 31)
        if summ + delta < best:
            best = summ + delta
    return best


cdef inline int _std_win(const Packed* h, int jokers) noexcept nogil:
    cdef uint32_t v[4]
    if jokers == 0:
        return _std_win0(h.key)
    v[0] = suit_info[h.key[0]]; v[1] = suit_info[h.key[1]]
    v[2] = suit_info[h.key[2]]; v[3] = hon_info[h.key[3]]
    return _std_need(v) <= jokers


cdef inline uint64_t _std_waits0(const int* key) noexcept nogil:
    cdef uint32_t v[4]
    cdef int s, bad = 0, pairs = 0, others_bad, others_pairs
    cdef uint64_t mask = 0
    cdef uint32_t st
    v[0] = suit_info[key[0]]; v[1] = suit_info[key[1]]
    v[2] = suit_info[key[2]]; v[3] = hon_info[key[3]]
    for s in range(4):
        st = v[s] & 3
        bad += st == 0
        pairs += st >> 1
    if bad > 1:
        return 0
    for s in range(4):
        st = v[s] & 3
        others_bad = bad - (st == 0)
        others_pairs = pairs - (st >> 1)
        if others_bad == 0 and others_pairs <= 1:
            if others_pairs == 0:
                mask |= (<uint64_t> ((v[s] >> 11) & 0x1FF)) << (s * 9)
            else:
                mask |= (<uint64_t> ((v[s] >> 2) & 0x1FF)) << (s * 9)
    return mask


cdef uint64_t _std_waits(const Packed* h, int jokers) noexcept nogil:
    """Tiles completing the standard shape with ``jokers`` wilds. With wilds, suit by suit:
    a tile r added to suit s gives it a sets need a_r and a sets + pair need b_r, and the hand
    then needs min(o + a_r + d, o + b_r) wilds (``_std_need``; o: the other suits' sets needs,
    d: their smallest pair premium). One tile changes a need by at most one (the tile could be
    a wild), so a suit whose own needs are too high is skipped without reading its keys."""
    if jokers == 0:
        return _std_waits0(h.key) & ~h.four
    cdef uint32_t v[4]
    cdef int a[4]
    cdef int d[4]
    cdef int s, r, nr, summ = 0, o, dmin, ta, tb, k
    cdef uint32_t x
    cdef const uint32_t* tab
    cdef uint64_t mask = 0
    v[0] = suit_info[h.key[0]]; v[1] = suit_info[h.key[1]]
    v[2] = suit_info[h.key[2]]; v[3] = hon_info[h.key[3]]
    for s in range(4):
        a[s] = (v[s] >> 20) & 31
        d[s] = <int> ((v[s] >> 25) & 31) - a[s]
        summ += a[s]
    for s in range(4):
        o = summ - a[s]
        dmin = INF
        for k in range(4):
            if k != s and d[k] < dmin:
                dmin = d[k]
        ta = jokers - o - dmin   # a tile r wins when a_r <= ta or b_r <= tb
        tb = jokers - o
        if a[s] - 1 > ta and a[s] + d[s] - 1 > tb:
            continue
        nr = 7 if s == 3 else 9
        tab = hon_info if s == 3 else suit_info
        for r in range(nr):
            if h.cnt[s * 9 + r] >= 4:
                continue
            x = tab[h.key[s] + P5[r]]
            if <int> ((x >> 20) & 31) <= ta or <int> ((x >> 25) & 31) <= tb:
                mask |= (<uint64_t> 1) << (s * 9 + r)
    return mask & ~h.four


cdef void _dist_capped(const uint8_t* x, const uint8_t* cap, int n, bint runs, int maxsets,
                       uint8_t* out) noexcept nogil:
    """The ``dist`` row of one suit when melds hold some copies, by a rank-by-rank search.

    The target is built rank by rank: runs started two and one ranks before (a, b), then at
    this rank k new runs, a pung p and a pair q, never more than ``cap`` copies of a tile.
    dp[a][b][sets][pair] is the fewest tiles added so far. Targets of more than ``maxsets``
    (<= MAXM) sets are not searched (left INF): a small target (组合龙's rest) is then cheap.
    """
    cdef uint8_t dp[6][6][6][2]
    cdef uint8_t nx[6][6][6][2]
    cdef int r, a, b, s, hh, k, p, q, kmax, need, cost, v
    memset(dp, INF, sizeof(dp))
    dp[0][0][0][0] = 0
    for r in range(n):
        memset(nx, INF, sizeof(nx))
        kmax = maxsets if runs and r <= n - 3 else 0
        for a in range(maxsets + 1):
            for b in range(maxsets + 1):
                for s in range(maxsets + 1):
                    for hh in range(2):
                        cost = dp[a][b][s][hh]
                        if cost >= INF:
                            continue
                        for k in range(min(kmax, maxsets - s) + 1):
                            for p in range(2):
                                if s + k + p > maxsets:
                                    break
                                for q in range(2 - hh):
                                    need = a + b + k + 3 * p + 2 * q
                                    if need > cap[r]:
                                        break
                                    v = cost + (need - x[r] if need > x[r] else 0)
                                    if v < nx[b][k][s + k + p][hh + q]:
                                        nx[b][k][s + k + p][hh + q] = v
        memcpy(dp, nx, sizeof(dp))
    for s in range(6):
        for hh in range(2):
            out[s * 2 + hh] = dp[0][0][s][hh]


cdef void _dist_wild(const uint8_t* x, const uint8_t* cap, int n, bint runs, int maxsets,
                     int jokers, uint8_t* out) noexcept nogil:
    """Like ``_dist_capped``, but a target may exceed a tile's cap when wilds stand for the
    extra copies (wilds have no copy limit). out[(m * 2 + h) * 9 + e]: fewest tiles added
    (wilds or draws) for m sets and h pairs using e wilds above the caps, e <= jokers.
    The state (a, b, sets, pair, e) is packed in one index; only reached states are visited."""
    cdef uint8_t val[2][WSTATES]
    cdef int16_t act[2][WSTATES]
    cdef int nact[2]
    cdef int cur = 0, nxt, i, st, r, a, b, s, hh, e, k, p, q, kmax, need, cost, v, over, ns
    memset(val, INF, sizeof(val))
    val[0][0] = 0
    act[0][0] = 0
    nact[0] = 1
    for r in range(n):
        nxt = 1 - cur
        nact[nxt] = 0
        kmax = maxsets if runs and r <= n - 3 else 0
        for i in range(nact[cur]):
            st = act[cur][i]
            cost = val[cur][st]
            val[cur][st] = INF  # reset for reuse two ranks on
            e = st % 9
            hh = (st // 9) % 2
            s = (st // 18) % 6
            b = (st // 108) % 6
            a = st // 648
            for k in range(min(kmax, maxsets - s) + 1):
                # several pungs of one kind: wilds may stand for its 5th, 6th ... copies
                for p in range(maxsets + 1):
                    if s + k + p > maxsets:
                        break
                    for q in range(2 - hh):
                        need = a + b + k + 3 * p + 2 * q
                        over = need - cap[r] if need > cap[r] else 0
                        if e + over > jokers:
                            break
                        v = cost + (need - x[r] if need > x[r] else 0)
                        ns = (((b * 6 + k) * 6 + s + k + p) * 2 + hh + q) * 9 + e + over
                        if val[nxt][ns] >= INF:
                            act[nxt][nact[nxt]] = ns
                            nact[nxt] += 1
                            val[nxt][ns] = v
                        elif v < val[nxt][ns]:
                            val[nxt][ns] = v
        cur = nxt
    memset(out, INF, NDIST * 9)
    for i in range(nact[cur]):
        st = act[cur][i]
        if st < 108:  # no run left open
            out[st] = val[cur][st]


cdef int _std_dist_wild(const Packed* h, int nsets, int jokers) noexcept nogil:
    """Fewest tiles to add for ``nsets`` sets + a pair when up to ``jokers`` of them are wilds
    that may stand for copies beyond the four (exact shanten with wild tiles)."""
    cdef uint8_t rows[4][NDIST * 9]
    cdef int acc[NDIST * 9]
    cdef int nxt[NDIST * 9]
    cdef int su, m1, m2, h1, h2, e1, e2, v, k, best = INF
    _dist_wild(h.cnt, h.cap, 9, True, nsets, jokers, rows[0])
    _dist_wild(h.cnt + 9, h.cap + 9, 9, True, nsets, jokers, rows[1])
    _dist_wild(h.cnt + 18, h.cap + 18, 9, True, nsets, jokers, rows[2])
    _dist_wild(h.cnt + 27, h.cap + 27, 7, False, nsets, jokers, rows[3])
    for k in range(NDIST * 9):
        acc[k] = rows[0][k]
    for su in range(1, 4):
        for k in range(NDIST * 9):
            nxt[k] = INF
        for m1 in range(nsets + 1):
            for h1 in range(2):
                for e1 in range(jokers + 1):
                    if acc[(m1 * 2 + h1) * 9 + e1] >= INF:
                        continue
                    for m2 in range(nsets + 1 - m1):
                        for h2 in range(2 - h1):
                            for e2 in range(jokers + 1 - e1):
                                v = acc[(m1 * 2 + h1) * 9 + e1] + rows[su][(m2 * 2 + h2) * 9 + e2]
                                k = ((m1 + m2) * 2 + h1 + h2) * 9 + e1 + e2
                                if v < nxt[k]:
                                    nxt[k] = v
        for k in range(NDIST * 9):
            acc[k] = nxt[k]
    for e1 in range(jokers + 1):
        v = acc[(nsets * 2 + 1) * 9 + e1]
        if v < best:
            best = v
    return best


cdef int _std_dist(const Packed* h, int nsets) noexcept nogil:
    """Fewest tiles to add so the concealed tiles contain ``nsets`` sets and one pair."""
    cdef const uint8_t* d0 = suit_dist + h.key[0] * NDIST
    cdef const uint8_t* d1 = suit_dist + h.key[1] * NDIST
    cdef const uint8_t* d2 = suit_dist + h.key[2] * NDIST
    cdef const uint8_t* dz = hon_dist + h.key[3] * NDIST
    cdef uint8_t rows[4][NDIST]
    if h.capped:
        if h.capped & 1:
            _dist_capped(h.cnt, h.cap, 9, True, nsets, rows[0])
            d0 = rows[0]
        if h.capped & 2:
            _dist_capped(h.cnt + 9, h.cap + 9, 9, True, nsets, rows[1])
            d1 = rows[1]
        if h.capped & 4:
            _dist_capped(h.cnt + 18, h.cap + 18, 9, True, nsets, rows[2])
            d2 = rows[2]
        if h.capped & 8:
            _dist_capped(h.cnt + 27, h.cap + 27, 7, False, nsets, rows[3])
            dz = rows[3]
    cdef int a[NDIST]
    cdef int b[NDIST]
    cdef int m1, h1, v, k, best
    for k in range(NDIST):
        b[k] = d0[k]
    _conv(b, d1, a, nsets)
    _conv(a, d2, b, nsets)
    best = INF
    for m1 in range(nsets + 1):
        for h1 in range(2):
            v = b[m1 * 2 + h1] + dz[(nsets - m1) * 2 + 1 - h1]
            if v < best:
                best = v
    return best


cdef inline void _conv(const int* x, const uint8_t* y, int* out, int nsets) noexcept nogil:
    """Min-plus product of two suits' rows over (sets, pairs), sets up to nsets, pairs up to 1."""
    cdef int m1, m2, h1, h2, v, k
    for k in range(NDIST):
        out[k] = INF
    for m1 in range(nsets + 1):
        for m2 in range(nsets + 1 - m1):
            for h1 in range(2):
                for h2 in range(2 - h1):
                    v = x[m1 * 2 + h1] + y[m2 * 2 + h2]
                    k = (m1 + m2) * 2 + h1 + h2
                    if v < out[k]:
                        out[k] = v


# ---------------------------------------------------------------- special shapes

cdef int _qidui_win(const Packed* h, int jokers, bint distinct) noexcept nogil:
    """Seven pairs (14 tiles, no melds); wilds pair with anything."""
    cdef int t, odd = 0
    if h.nmelds or h.ncon + jokers != 14:
        return 0
    for t in range(34):
        if distinct and h.cnt[t] > 2:
            return 0
        odd += h.cnt[t] & 1
    return odd <= jokers


cdef int _qidui_shanten(const Packed* h, int jokers, bint distinct) noexcept nogil:
    cdef int t, c, pairs = 0, singles = 0, over, s
    for t in range(34):
        c = h.cnt[t]
        if distinct:
            if c >= 2:
                pairs += 1
            elif c == 1:
                singles += 1
        else:
            pairs += c >> 1
            singles += c & 1
    if pairs > 7:
        pairs = 7
    if singles > 7 - pairs:
        singles = 7 - pairs
    s = 13 - 2 * pairs - singles - jokers
    return s if s >= -1 else -1


cdef uint64_t _qidui_waits(const Packed* h, int jokers, bint distinct) noexcept nogil:
    """Tiles completing seven pairs: a wild pairs any odd tile, so only counts matter."""
    cdef int t, c, odd = 0, singles = 0
    cdef uint64_t mask = 0, bit
    if h.nmelds or h.ncon + jokers != 13:
        return 0
    for t in range(34):
        c = h.cnt[t]
        if distinct and c > 2:
            return 0
        odd += c & 1
    if odd - 1 > jokers:
        return 0
    # adding an odd-count tile leaves odd - 1 unpaired tiles, an even-count one odd + 1
    for t in range(34):
        c = h.cnt[t]
        bit = (<uint64_t> 1) << t
        if c & 1:
            if odd - 1 <= jokers:
                mask |= bit
        elif c < (2 if distinct else 4) and odd + 1 <= jokers:
            mask |= bit
    return mask


cdef int _orphan_stats(const Packed* h, int* kinds, int* extra) noexcept nogil:
    """Returns the number of non-orphan tiles held; counts orphan kinds and surplus copies."""
    cdef int t, i, c, others
    kinds[0] = 0
    extra[0] = 0
    others = h.ncon
    for i in range(13):
        c = h.cnt[ORPHANS[i]]
        others -= c
        if c > 0:
            kinds[0] += 1
            extra[0] += c - 1
    return others


cdef int _shisanyao_win(const Packed* h, int jokers) noexcept nogil:
    cdef int kinds, extra
    if h.nmelds or h.ncon + jokers != 14:
        return 0
    if _orphan_stats(h, &kinds, &extra) != 0:
        return 0
    return extra <= 1


cdef int _shisanyao_shanten(const Packed* h, int jokers) noexcept nogil:
    cdef int kinds, extra, s
    _orphan_stats(h, &kinds, &extra)
    s = 13 - kinds - (1 if extra > 0 else 0) - jokers
    return s if s >= -1 else -1


cdef int _knitted_best(const Packed* h, bint seven_stars) noexcept nogil:
    """Most held tiles usable in one 全不靠 (or 七星不靠) target; -1 if melds rule it out."""
    cdef int q, s, r, honours = 0, suited, best = 0, use
    for r in range(7):
        honours += h.cnt[27 + r] > 0
    for q in range(6):
        suited = 0
        for s in range(3):
            r = PERMS[q][s]
            while r < 9:
                suited += h.cnt[s * 9 + r] > 0
                r += 3
        if seven_stars:
            use = (honours if honours < 7 else 7) + (suited if suited < 7 else 7)
        else:
            use = honours + suited
            if use > 14:
                use = 14
        if use > best:
            best = use
    return best


cdef int _bukao_win(const Packed* h, int jokers, bint seven_stars) noexcept nogil:
    cdef int t
    if h.nmelds or h.ncon + jokers != 14:
        return 0
    for t in range(34):
        if h.cnt[t] > 1:
            return 0
    return _knitted_best(h, seven_stars) == h.ncon


cdef int _bukao_shanten(const Packed* h, int jokers, bint seven_stars) noexcept nogil:
    cdef int s = 13 - _knitted_best(h, seven_stars) - jokers
    return s if s >= -1 else -1


cdef int _zuhelong_win(const Packed* h, int jokers) noexcept nogil:
    """Knitted 147/258/369 in three suits (concealed) + one set + one pair (one meld allowed)."""
    cdef Packed rest
    cdef int q, s, r, missing
    if h.nmelds > 1 or h.ncon + jokers + 3 * h.nmelds != 14:
        return 0
    for q in range(6):
        rest = h[0]
        missing = 0
        for s in range(3):
            r = PERMS[q][s]
            while r < 9:
                if rest.cnt[s * 9 + r] > 0:
                    rest.cnt[s * 9 + r] -= 1
                    rest.key[s] -= P5[r]
                else:
                    missing += 1
                r += 3
        if missing <= jokers and _std_win(&rest, jokers - missing):
            return 1
    return 0


cdef int _zuhelong_shanten(const Packed* h, int jokers) noexcept nogil:
    """Exact 组合龙 shanten: the best over the six suit orders of (knitted tiles missing) + (fewest
    tiles to add so the rest holds 1 - melds sets and a pair), less the wilds, less one.

    A target is the nine knitted tiles K plus a rest R, and min(K + R, H) = min(K, H) +
    min(R, H - min(K, H)) tile by tile, so taking out the held knitted tiles first loses
    nothing. R may hold at most cap - K copies of a tile (the copies left); a knitted tile with
    no copy left (all four in a declared kong) can only be a wild. Without melds or wilds this
    is six times three table look-ups."""
    cdef Packed rest
    cdef int q, s, r, t, missing, over, need, best = INF
    cdef int nsets = 1 - h.nmelds
    for q in range(6):
        rest = h[0]
        missing = 0
        over = 0
        for s in range(3):
            r = PERMS[q][s]
            while r < 9:
                t = s * 9 + r
                if rest.cnt[t] > 0:
                    rest.cnt[t] -= 1
                    rest.key[s] -= P5[r]
                else:
                    missing += 1
                # The copy left for the rest drops by one. It binds only where melds already
                # capped the suit: a rest of at most one set and a pair holds at most 3 copies of
                # a tile, so the uncapped table (4 copies) stays exact and the suit stays a look-up.
                if rest.cap[t] > 0:
                    rest.cap[t] -= 1
                else:
                    over += 1
                r += 3
        if over > jokers:
            continue
        if jokers:
            need = _std_dist_wild(&rest, nsets, jokers - over)
        else:
            need = _std_dist(&rest, nsets)
        if missing + need < best:
            best = missing + need
    if best >= INF:
        return INF
    best -= jokers + 1
    return best if best >= -1 else -1


# ---------------------------------------------------------------- whole-hand questions

cdef int _win(const Packed* h, int bits, int jokers) noexcept nogil:
    if (h.ncon + jokers) % 3 != 2:
        return 0
    if bits & SH_STANDARD and _std_win(h, jokers):
        return 1
    if bits & SH_QIDUI and _qidui_win(h, jokers, False):
        return 1
    if bits & SH_QIDUI_DISTINCT and _qidui_win(h, jokers, True):
        return 1
    if bits & SH_SHISANYAO and _shisanyao_win(h, jokers):
        return 1
    if bits & SH_QUANBUKAO and _bukao_win(h, jokers, False):
        return 1
    if bits & SH_QIXINGBUKAO and _bukao_win(h, jokers, True):
        return 1
    if bits & SH_ZUHELONG and _zuhelong_win(h, jokers):
        return 1
    return 0


cdef uint64_t _waits(const Packed* h, int bits, int jokers) noexcept nogil:
    """Tiles that complete a 3n+1 hand; never a tile of which all four copies are held."""
    cdef uint64_t mask = 0
    cdef Packed x
    cdef int t, s, r
    if bits & SH_STANDARD:
        mask = _std_waits(h, jokers)
    if bits & SH_QIDUI:
        mask |= _qidui_waits(h, jokers, False) & ~h.four
    if bits & SH_QIDUI_DISTINCT:
        mask |= _qidui_waits(h, jokers, True) & ~h.four
    if bits & SPECIAL_14 and h.ncon + jokers + 3 * h.nmelds == 13:
        # the special shapes are 14-tile shapes: try each candidate tile
        for t in range(34):
            if mask & ((<uint64_t> 1) << t) or h.four & ((<uint64_t> 1) << t) or h.cnt[t] >= 4:
                continue
            x = h[0]
            s = t // 9 if t < 27 else 3
            r = t - s * 9
            x.cnt[t] += 1
            x.key[s] += P5[r]
            x.ncon += 1
            if _win(&x, bits & SPECIAL_14, jokers):
                mask |= (<uint64_t> 1) << t
    return mask


cdef int _shanten(const Packed* h, int bits, int jokers) noexcept nogil:
    cdef int total = h.ncon + jokers, best = INF, s, nsets
    if bits & SH_STANDARD:
        nsets = total // 3
        if jokers:
            s = _std_dist_wild(h, nsets, jokers) - jokers - 1
        else:
            s = _std_dist(h, nsets) - 1
        best = s if s >= -1 else -1
    if h.nmelds == 0 and (total == 13 or total == 14):
        if bits & SH_QIDUI:
            s = _qidui_shanten(h, jokers, False)
            best = s if s < best else best
        if bits & SH_QIDUI_DISTINCT:
            s = _qidui_shanten(h, jokers, True)
            best = s if s < best else best
        if bits & SH_SHISANYAO:
            s = _shisanyao_shanten(h, jokers)
            best = s if s < best else best
        if bits & SH_QUANBUKAO:
            s = _bukao_shanten(h, jokers, False)
            best = s if s < best else best
        if bits & SH_QIXINGBUKAO:
            s = _bukao_shanten(h, jokers, True)
            best = s if s < best else best
    # 组合龙 allows one declared meld (the set besides the knitted tiles)
    if bits & SH_ZUHELONG and h.nmelds <= 1 and (total + 3 * h.nmelds == 13
                                                 or total + 3 * h.nmelds == 14):
        s = _zuhelong_shanten(h, jokers)
        best = s if s < best else best
    # No "ready but every wait is held four times" case: every distance above counts only
    # targets within the copies left (melds included), so a distance of 1 is a real wait.
    return best


# ---------------------------------------------------------------- Python API

cdef inline void _need_count(HandBase h, int jokers, int residue, str what) except *:
    if (h.p.ncon + jokers) % 3 != residue:
        raise MahjongError(
            "wrong_tile_count",
            f"{what} needs 3n+{residue} concealed tiles, the hand has {h.p.ncon}"
            + (f" and {jokers} jokers" if jokers else ""))
    if _too_wild(h.p.ncon, jokers, residue):
        raise MahjongError("wrong_tile_count", f"{h.p.ncon} tiles and {jokers} jokers: a hand "
                           f"with wilds holds at most {MAX_WILD_HAND} tiles once complete")


cdef inline bint _too_wild(int ncon, int jokers, int residue) noexcept nogil:
    """More wilds than a hand can hold: with the tiles, past the longest complete hand (five
    sets and a pair, 17 tiles). The tables would still answer, for a hand no game deals."""
    return jokers > 0 and ncon + jokers + (residue == 1) > MAX_WILD_HAND


def is_win(hand, *, shapes=None, jokers=0):
    """Does the hand (3n+2 concealed tiles, wilds included) form one of ``shapes``?"""
    cdef HandBase h = _as_hand(hand)
    cdef int bits = _shape_bits(shapes)
    cdef int j = _jokers(jokers)
    _need_count(h, j, 2, "a win test")
    return bool(_win(&h.p, bits, j))


def win_shapes(hand, *, shapes=SHAPES, jokers=0):
    """The subset of ``shapes`` the hand forms (only names that ``shapes`` holds)."""
    cdef HandBase h = _as_hand(hand)
    cdef int bits = _shape_bits(shapes)
    cdef int j = _jokers(jokers)
    _need_count(h, j, 2, "a win test")
    found = []
    for name in _SHAPE_NAMES:
        b = _SHAPE_BITS[name]
        if bits & b and _win(&h.p, b, j):
            found.append(name)
    return frozenset(found)


def wait_mask(hand, *, shapes=None, jokers=0):
    """The waits of a 3n+1 hand as a 34-bit mask (bit t = tile id t)."""
    cdef HandBase h = _as_hand(hand)
    cdef int bits = _shape_bits(shapes)
    cdef int j = _jokers(jokers)
    _need_count(h, j, 1, "a wait search")
    return _waits(&h.p, bits, j)


# Set by mjcore at import: one Wait object per tile id, and the rule-set hook for valued waits.
_wait_objects = None
_valued_waits = None

def _register_waits(objects, valued):
    global _wait_objects, _valued_waits
    _wait_objects = tuple(objects)
    _valued_waits = valued


def waits(hand, *, shapes=None, jokers=0, ruleset=None, context=None, options=None,
          visible=None):
    """The tiles that complete a 3n+1 hand, as Wait objects (``.tile`` "5p", ``.id`` 13).

    With ``ruleset=...`` the answer comes from that rule set: each wait with its value
    (see ``mjcore.rules.valued_waits``).
    """
    if ruleset is not None:
        return _valued_waits(hand, ruleset=ruleset, context=context, options=options,
                             visible=visible)
    if context is not None or options is not None or visible is not None:
        raise MahjongError("bad_argument", "context, options and visible need a ruleset")
    cdef HandBase h = _as_hand(hand)
    cdef int bits = _shape_bits(shapes)
    cdef int j = _jokers(jokers)
    _need_count(h, j, 1, "a wait search")
    cdef uint64_t mask = _waits(&h.p, bits, j)
    cdef int t, i = 0
    cdef tuple objects = _wait_objects
    cdef tuple out = PyTuple_New(__builtin_popcountll(mask))
    while mask:
        t = __builtin_ctzll(mask)
        w = objects[t]
        Py_INCREF(w)
        PyTuple_SET_ITEM(out, i, w)
        i += 1
        mask &= mask - 1
    return out


def is_win_fast(HandBase hand):
    """Standard win test without options: the raw per-call form the benchmark times."""
    return (hand.p.ncon % 3 == 2) and _std_win0(hand.p.key) == 1


def wait_mask_fast(HandBase hand):
    """Standard-shape wait mask without options (raw per-call form)."""
    if hand.p.ncon % 3 != 1:
        raise MahjongError("wrong_tile_count", "a wait search needs 3n+1 concealed tiles")
    return _std_waits0(hand.p.key) & ~hand.p.four


def shanten(hand, *, shapes=None, jokers=0):
    """-1 complete, 0 ready, n tiles from ready: the best over ``shapes``."""
    cdef HandBase h = _as_hand(hand)
    cdef int bits = _shape_bits(shapes)
    cdef int j = _jokers(jokers)
    if (h.p.ncon + j) % 3 == 0:
        raise MahjongError("wrong_tile_count",
                           f"shanten needs 3n+1 or 3n+2 concealed tiles, the hand has {h.p.ncon}")
    if (h.p.ncon + j) // 3 > MAXM:
        raise MahjongError("wrong_tile_count", "shanten supports hands of at most 17 concealed tiles")
    cdef int result = _shanten(&h.p, bits, j)
    if result >= INF:
        raise MahjongError("bad_shape", "none of the chosen shapes applies to this hand (the "
                                        "special shapes need 13/14 tiles and no melds; zuhelong "
                                        "allows one meld)")
    return result


def shanten_fast(HandBase hand):
    """Standard-shape shanten without wilds (raw per-call form)."""
    cdef int total = hand.p.ncon
    if total % 3 == 0 or total // 3 > MAXM:
        raise MahjongError("wrong_tile_count", "shanten needs 3n+1 or 3n+2 concealed tiles, n <= 5")
    return _std_dist(&hand.p, total // 3) - 1


# ---------------------------------------------------------------- decomposition

cdef void _suit_sets(int* d, int n, bint seqs, int lo, int base, list stack, list out):
    """Every way to split the counts d[lo:] into sets; each way appended as a tuple of codes
    (a run: its start id; a pung: 100 + its id). The lowest held rank takes zero or one pung,
    and its remaining copies must all start runs, so each split is produced exactly once."""
    while lo < n and d[lo] == 0:
        lo += 1
    if lo == n:
        out.append(tuple(stack))
        return
    cdef int c = d[lo], k, runs
    for k in range(2):
        if k == 1 and c < 3:
            break
        runs = c - 3 * k
        if runs > 0 and (not seqs or lo + 2 >= n or d[lo + 1] < runs or d[lo + 2] < runs):
            continue
        d[lo] -= 3 * k + runs
        if runs:
            d[lo + 1] -= runs
            d[lo + 2] -= runs
        if k:
            stack.append(100 + base + lo)
        for _ in range(runs):
            stack.append(base + lo)
        _suit_sets(d, n, seqs, lo + 1, base, stack, out)
        del stack[len(stack) - runs - k:]
        d[lo] += 3 * k + runs
        if runs:
            d[lo + 1] += runs
            d[lo + 2] += runs


cdef list _suit_splits(const Packed* h, int s, bint with_pair):
    """[(pair id or -1, codes)] for one suit."""
    cdef int d[9]
    cdef int n = 7 if s == 3 else 9, r
    cdef list out = [], sets
    for r in range(n):
        d[r] = h.cnt[s * 9 + r]
    if not with_pair:
        sets = []
        _suit_sets(d, n, s != 3, 0, s * 9, [], sets)
        return [(-1, x) for x in sets]
    for r in range(n):
        if d[r] >= 2:
            d[r] -= 2
            sets = []
            _suit_sets(d, n, s != 3, 0, s * 9, [], sets)
            out.extend((s * 9 + r, x) for x in sets)
            d[r] += 2
    return out


_decomposition_type = None

def _register_decomposition_type(cls):
    global _decomposition_type
    _decomposition_type = cls


def decompose(hand):
    """Every distinct split of the concealed tiles into sets and one pair."""
    cdef HandBase h = _as_hand(hand)
    _need_count(h, 0, 2, "a decomposition")
    if not _std_win0(h.p.key):
        return ()
    cdef list combos = [(-1, ())]
    cdef int s
    for s in range(4):
        splits = _suit_splits(&h.p, s, (_info(&h.p, s) & 3) == 2)
        combos = [(p1 if p1 >= 0 else p2, c1 + c2) for p1, c1 in combos for p2, c2 in splits]
    make = _decomposition_type
    result = []
    for pair, codes in combos:
        result.append(make(pair, tuple(sorted(c for c in codes if c < 100)),
                           tuple(sorted(c - 100 for c in codes if c >= 100))))
    return tuple(result)


# ---------------------------------------------------------------- decomposition features
#
# A decomposition's *word* (two bits, combined over sets by OR):
#   DEC_CHOW    some set is a run                              (0: every set a pung, 对对胡)
#   DEC_SIMPLE  some set or the pair holds no 1, 9 or honour   (0: 全带幺 / 带幺九)
# ``decomposition_features`` answers which of the four words occur among a hand's standard
# decompositions (bit w of the result: some decomposition has word w), from a per-suit table
# filled on first use (one byte a key: the word mask of the key's splits), with no Python
# objects. ``decomposition_for`` builds the first decomposition (in ``decompose`` order) whose
# word is in a given mask.

cdef enum:
    W_CHOW = 1
    W_SIMPLE = 2

DEC_CHOW = W_CHOW
DEC_SIMPLE = W_SIMPLE

cdef uint8_t* suit_words = NULL   # per suit key: mask of words over its splits (0: not known)
cdef uint8_t* hon_words = NULL


cdef inline int _choice_word(int word, int k, int runs, int lo, bint seqs) noexcept nogil:
    """The word after taking k pungs and ``runs`` runs at rank lo: runs set W_CHOW, and a set
    without a 1 or 9 (honour pungs have neither rank, so seqs tells them apart) W_SIMPLE."""
    if k and seqs and lo != 0 and lo != 8:
        word |= W_SIMPLE
    if runs:
        word |= W_CHOW
        if lo != 0 and lo != 6:
            word |= W_SIMPLE
    return word


cdef int _words_sets(int* d, int n, bint seqs, int lo, int word) noexcept nogil:
    """Mask of the words of every split of d[lo:] into sets (``word`` so far); 0 if none."""
    while lo < n and d[lo] == 0:
        lo += 1
    if lo == n:
        return 1 << word
    cdef int c = d[lo], k, runs, w, out = 0
    for k in range(2):
        if k == 1 and c < 3:
            break
        runs = c - 3 * k
        if runs > 0 and (not seqs or lo + 2 >= n or d[lo + 1] < runs or d[lo + 2] < runs):
            continue
        w = _choice_word(word, k, runs, lo, seqs)
        d[lo] -= 3 * k + runs
        if runs:
            d[lo + 1] -= runs
            d[lo + 2] -= runs
        out |= _words_sets(d, n, seqs, lo + 1, w)
        d[lo] += 3 * k + runs
        if runs:
            d[lo + 1] += runs
            d[lo + 2] += runs
    return out


cdef int _suit_word_mask(const Packed* h, int s) noexcept nogil:
    """Word mask of suit s's splits (sets, plus the pair when the suit's count is 2 mod 3)."""
    cdef int key = h.key[s]
    cdef uint8_t* table = hon_words if s == 3 else suit_words
    cdef int m = table[key]
    if m:
        return m
    cdef int d[9]
    cdef int n = 7 if s == 3 else 9, r, total = 0
    cdef bint seqs = s != 3
    for r in range(n):
        d[r] = h.cnt[s * 9 + r]
        total += d[r]
    if total % 3 == 2:
        for r in range(n):
            if d[r] >= 2:
                d[r] -= 2
                m |= _words_sets(d, n, seqs, 0,
                                 W_SIMPLE if seqs and r != 0 and r != 8 else 0)
                d[r] += 2
    elif total % 3 == 0:
        m = _words_sets(d, n, seqs, 0, 0)
    table[key] = m
    return m


cdef int _features(const Packed* h) noexcept nogil:
    if not _std_win0(h.key):
        return 0
    cdef int acc = 1, s, m, a, b, out
    for s in range(4):
        m = _suit_word_mask(h, s)
        out = 0
        for a in range(4):
            if (acc >> a) & 1:
                for b in range(4):
                    if (m >> b) & 1:
                        out |= 1 << (a | b)
        acc = out
    return acc


def decomposition_features(hand):
    """Which decomposition words occur among the hand's standard decompositions (concealed
    tiles): bit ``w`` is set when some decomposition has word ``w`` (``w`` built from
    ``DEC_CHOW`` and ``DEC_SIMPLE``); 0 when the concealed tiles are not sets and one pair."""
    cdef HandBase h = _as_hand(hand)
    _need_count(h, 0, 2, "a decomposition")
    return _features(&h.p)


cdef enum:
    MAXCODES = 13     # sets in one suit: at most 12 (36 tiles)


cdef int _first_sets(int* d, int n, bint seqs, int lo, int base, int word, int allowed,
                     int* stack, int depth, int* out_depth) noexcept nogil:
    """The first split of d[lo:] into sets, in ``_suit_sets`` order, whose final word (from
    ``word`` so far) is in the mask ``allowed``: its codes left in stack[:out_depth], its
    word returned; -1 if none."""
    while lo < n and d[lo] == 0:
        lo += 1
    if lo == n:
        if (allowed >> word) & 1:
            out_depth[0] = depth
            return word
        return -1
    cdef int c = d[lo], k, runs, w, j, nd, got = -1
    for k in range(2):
        if k == 1 and c < 3:
            break
        runs = c - 3 * k
        if runs > 0 and (not seqs or lo + 2 >= n or d[lo + 1] < runs or d[lo + 2] < runs):
            continue
        w = _choice_word(word, k, runs, lo, seqs)
        d[lo] -= 3 * k + runs
        if runs:
            d[lo + 1] -= runs
            d[lo + 2] -= runs
        nd = depth
        if k:
            stack[nd] = 100 + base + lo
            nd += 1
        for j in range(runs):
            stack[nd] = base + lo
            nd += 1
        got = _first_sets(d, n, seqs, lo + 1, base, w, allowed, stack, nd, out_depth)
        d[lo] += 3 * k + runs
        if runs:
            d[lo + 1] += runs
            d[lo + 2] += runs
        if got >= 0:
            return got
    return -1


cdef inline int _combine(int a, int b) noexcept nogil:
    """Word masks of two parts -> word mask of the whole (words OR together)."""
    cdef int x, y, out = 0
    for x in range(4):
        if (a >> x) & 1:
            for y in range(4):
                if (b >> y) & 1:
                    out |= 1 << (x | y)
    return out


def decomposition_for(hand, int words):
    """The first decomposition (in ``decompose`` order) whose word is in the mask ``words``
    (bit w for word w, as ``decomposition_features`` reports them); None if there is none.
    Suit by suit, the first split that the later suits can still complete to such a word."""
    cdef HandBase h = _as_hand(hand)
    _need_count(h, 0, 2, "a decomposition")
    cdef const Packed* p = &h.p
    if not (_features(p) & words & 15):
        return None
    cdef int reach[5]
    cdef int d[9]
    cdef int stack[4][MAXCODES]
    cdef int depth[4]
    cdef int s, r, w, x, y, n, allowed, acc = 0, pair = -1, got
    cdef bint seqs
    reach[4] = 1
    for s in range(3, -1, -1):
        reach[s] = _combine(_suit_word_mask(p, s), reach[s + 1])
    for s in range(4):
        allowed = 0
        for x in range(4):
            for y in range(4):
                if (reach[s + 1] >> y) & 1 and (words >> (acc | x | y)) & 1:
                    allowed |= 1 << x
        n = 7 if s == 3 else 9
        seqs = s != 3
        for r in range(n):
            d[r] = p.cnt[s * 9 + r]
        got = -1
        if (_info(p, s) & 3) != 2:
            got = _first_sets(d, n, seqs, 0, s * 9, 0, allowed, stack[s], 0, &depth[s])
        else:
            for r in range(n):
                if d[r] >= 2:
                    d[r] -= 2
                    got = _first_sets(d, n, seqs, 0, s * 9,
                                      W_SIMPLE if seqs and r != 0 and r != 8 else 0,
                                      allowed, stack[s], 0, &depth[s])
                    d[r] += 2
                    if got >= 0:
                        pair = s * 9 + r
                        break
        if got < 0:  # pragma: no cover - reach[] says a completion exists
            raise MahjongError("internal", "decomposition_for found no split")
        acc |= got
    # codes come out in ascending order (suit by suit, rank by rank): no sorting needed
    cdef int nch = 0, npu = 0, ic = 0, ip = 0
    for s in range(4):
        for r in range(depth[s]):
            if stack[s][r] >= 100:
                npu += 1
            else:
                nch += 1
    cdef tuple chows = PyTuple_New(nch)
    cdef tuple pungs = PyTuple_New(npu)
    for s in range(4):
        for r in range(depth[s]):
            w = stack[s][r]
            if w >= 100:
                o = w - 100
                Py_INCREF(o)
                PyTuple_SET_ITEM(pungs, ip, o)
                ip += 1
            else:
                o = w
                Py_INCREF(o)
                PyTuple_SET_ITEM(chows, ic, o)
                ic += 1
    # tuples of ints cannot be in a cycle: untracked now, the collector skips them
    PyObject_GC_UnTrack(chows)
    PyObject_GC_UnTrack(pungs)
    dec = tuple.__new__(_decomposition_type, (pair, chows, pungs))
    PyObject_GC_UnTrack(dec)
    return dec


cdef enum:
    PR_QIDUI = 1 << 4
    PR_FOUR = 1 << 5
    PR_SUITS = 6
    PR_HONOURS = 1 << 9
    PR_TERMINAL = 1 << 10
    PR_ONLY258 = 1 << 11
    PR_KINDS4 = 12

# Bits of ``hand_profile`` (counts of the concealed tiles, or all held tiles where said)
PROFILE_QIDUI = PR_QIDUI        # the concealed tiles are seven pairs (four identical: two pairs)
PROFILE_FOUR = PR_FOUR         # some concealed count is 4
PROFILE_SUITS = PR_SUITS             # bits 6-8: m, p, s held anywhere
PROFILE_HONOURS = PR_HONOURS      # an honour held anywhere
PROFILE_TERMINAL = PR_TERMINAL    # a 1 or 9 of m, p, s held anywhere
PROFILE_ONLY258 = PR_ONLY258     # every numbered tile held anywhere is a 2, 5 or 8
PROFILE_KINDS4 = PR_KINDS4           # bits 12-17: tile kinds of which all four copies are held


def hand_profile(hand, int plus=-1):
    """One integer summarising a hand for scoring, with no Python objects built: bits 0-3 are
    ``decomposition_features`` and the rest the ``PROFILE_*`` fields. ``plus``: profile the
    hand with one more concealed copy of that tile id (fewer than four held)."""
    cdef HandBase h = _as_hand(hand)
    cdef Packed p = h.p
    cdef int t, held, out = 0, suits = 0, s
    cdef bint term = 0, hon = 0, only258 = 1
    if plus >= 0:
        if plus >= 34 or p.cnt[plus] + 4 - p.cap[plus] >= 4:
            raise MahjongError("too_many_copies", f"cannot add tile id {plus}")
        p.cnt[plus] += 1
        p.ncon += 1
        if plus < 27:
            p.key[plus // 9] += P5[plus % 9]
        else:
            p.key[3] += P5[plus - 27]
        if p.cnt[plus] + 4 - p.cap[plus] == 4:
            p.four |= (<uint64_t> 1) << plus
    if p.ncon % 3 == 2:
        out = _features(&p)
        if _qidui_win(&p, 0, 0):
            out |= PR_QIDUI
    for t in range(34):
        if p.cnt[t] == 4:
            out |= PR_FOUR
        held = p.cnt[t] + 4 - p.cap[t]
        if held:
            if t >= 27:
                hon = 1
            else:
                suits |= 1 << (t // 9)
                s = t % 9
                if s == 0 or s == 8:
                    term = 1
                if s != 1 and s != 4 and s != 7:
                    only258 = 0
    out |= suits << PR_SUITS
    if hon:
        out |= PR_HONOURS
    if term:
        out |= PR_TERMINAL
    if only258:
        out |= PR_ONLY258
    out |= __builtin_popcountll(p.four) << PR_KINDS4
    return out

cdef void _init_words() except *:
    global suit_words, hon_words
    suit_words = <uint8_t*> malloc(NSUIT)
    hon_words = <uint8_t*> malloc(NHON)
    if suit_words == NULL or hon_words == NULL:
        raise MemoryError()
    memset(suit_words, 0, NSUIT)
    memset(hon_words, 0, NHON)

_init_words()


def _untrack(obj):
    """``obj`` itself, no longer followed by the cycle collector. Only for immutable containers
    that can never be part of a cycle (memo keys and answers): a rule set's memo tables hold
    tens of thousands of them, and each full collection would walk every one."""
    if PyObject_IS_GC(obj):
        PyObject_GC_UnTrack(obj)
    return obj


# ---------------------------------------------------------------- batch entry points

# Formats of a one-byte unsigned item (struct module syntax, with or without a byte-order mark)
_UINT8_FORMATS = frozenset({"B", "@B", "=B", "<B", ">B", "!B"})


cdef class _Buffer:
    """A read-only view of a bytes-like object of N rows of ``width`` uint8 (34 counts a hand
    by default; the compiled batch scorer also reads win tiles and melds this way).

    The format is checked: a buffer of wider or signed items (array('H'), array('q'), int8)
    would otherwise be read byte by byte and answer for hands nobody asked about."""
    cdef Py_buffer view
    cdef bint held
    cdef const uint8_t* data
    cdef Py_ssize_t n

    def __cinit__(self, obj, Py_ssize_t width=34):
        self.held = False
        try:
            PyObject_GetBuffer(obj, &self.view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT)
        except (TypeError, BufferError, ValueError):
            raise MahjongError("bad_argument", "batch input must be a C-contiguous bytes-like "
                               f"buffer of uint8, not {type(obj).__name__}") from None
        self.held = True
        fmt = "B" if self.view.format == NULL else (<bytes> self.view.format).decode("latin-1")
        if self.view.itemsize != 1 or fmt not in _UINT8_FORMATS:
            raise MahjongError("bad_argument",
                               f"batch input must hold uint8 counts (format 'B'), not items of "
                               f"format {fmt!r} and size {self.view.itemsize}")
        if self.view.len % width:
            raise MahjongError("bad_argument",
                               f"batch buffer holds {self.view.len} bytes, not a multiple of "
                               f"{width}")
        self.data = <const uint8_t*> self.view.buf
        self.n = self.view.len // width

    def __dealloc__(self):
        if self.held:
            PyBuffer_Release(&self.view)


cdef extern from *:
    """
    /* The caller's buffer may be rewritten by another thread while the GIL is released: each
       hand is copied once, then only the copy is checked and used. The empty asm with a memory
       clobber stops the compiler from reading the caller's bytes again in place of the copy. */
    static inline void mj_snapshot(unsigned char *dst, const unsigned char *src) {
        memcpy(dst, src, 34);
        __asm__ __volatile__("" ::: "memory");
    }
    """
    void mj_snapshot(uint8_t* dst, const uint8_t* src) noexcept nogil


cdef inline int _batch_pack(Packed* h, const uint8_t* cnt, int jokers, int residue,
                            Py_ssize_t i, Py_ssize_t* bad) noexcept nogil:
    """Pack one hand of the batch from its snapshot; 0 (and ``bad`` set) if it is invalid."""
    if (_pack(h, cnt, 0, 0) >= 0 or (h.ncon + jokers) % 3 != residue
            or _too_wild(h.ncon, jokers, residue)):
        if bad[0] < 0:
            bad[0] = i
        return 0
    return 1


cdef inline int _suit_key(const uint8_t* c) noexcept nogil:
    return c[0] + 5 * (c[1] + 5 * (c[2] + 5 * (c[3] + 5 * (c[4] + 5 * (c[5] + 5 * (c[6] + 5 * (
        c[7] + 5 * c[8])))))))


cdef inline int _std_win_counts(const uint8_t* c) noexcept nogil:
    """Standard win test straight from 34 counts: 1 win, 0 not, -1 invalid counts."""
    cdef unsigned int total = 0, over = 0, a, b, d, z, k
    cdef int t
    for t in range(34):
        total += c[t]
        over |= c[t] > 4
    if over or total % 3 != 2:
        return -1
    k = _suit_key(c)
    a = (suit_mp[k >> 2] >> ((k & 3) * 2)) & 3
    k = _suit_key(c + 9)
    b = (suit_mp[k >> 2] >> ((k & 3) * 2)) & 3
    k = _suit_key(c + 18)
    d = (suit_mp[k >> 2] >> ((k & 3) * 2)) & 3
    k = c[27] + 5 * (c[28] + 5 * (c[29] + 5 * (c[30] + 5 * (c[31] + 5 * (c[32] + 5 * c[33])))))
    z = hon_info[k] & 3
    if a == 0 or b == 0 or d == 0 or z == 0:
        return 0
    return ((a >> 1) + (b >> 1) + (d >> 1) + (z >> 1)) == 1


cdef void _batch_error(Py_ssize_t bad, int residue) except *:
    if bad >= 0:
        raise MahjongError("wrong_tile_count",
                           f"hand {bad} of the batch has a count over 4, not 3n+{residue} tiles, "
                           f"or more than {MAX_WILD_HAND} tiles with the jokers")


def is_win_batch(counts, *, shapes=None, jokers=0):
    """Win test over N hands given as N*34 uint8 counts; returns N bytes (1 = win).

    The GIL is released while the hands are tested.
    """
    cdef int bits = _shape_bits(shapes)
    cdef int j = _jokers(jokers)
    cdef _Buffer buf = _Buffer(counts)
    cdef bytearray out = bytearray(buf.n)
    cdef uint8_t* o = out
    cdef Py_ssize_t i, bad = -1
    cdef Packed h
    cdef uint8_t c[34]
    cdef int r
    with nogil:
        if bits == SH_STANDARD and j == 0:
            for i in range(buf.n):
                mj_snapshot(c, buf.data + i * 34)
                r = _std_win_counts(c)
                if r < 0:
                    o[i] = 0
                    if bad < 0:
                        bad = i
                else:
                    o[i] = r
        else:
            for i in range(buf.n):
                mj_snapshot(c, buf.data + i * 34)
                if _batch_pack(&h, c, j, 2, i, &bad):
                    o[i] = _win(&h, bits, j)
                else:
                    o[i] = 0
    _batch_error(bad, 2)
    return bytes(out)


def wait_mask_batch(counts, *, shapes=None, jokers=0):
    """Wait masks of N 3n+1 hands (N*34 uint8 counts); returns N uint64 as bytes (native order).

    Hands in a batch have no melds: pass the concealed counts.
    """
    cdef int bits = _shape_bits(shapes)
    cdef int j = _jokers(jokers)
    cdef _Buffer buf = _Buffer(counts)
    cdef bytearray out = bytearray(buf.n * 8)
    cdef uint64_t* o = <uint64_t*> (<uint8_t*> out)
    cdef Py_ssize_t i, bad = -1
    cdef Packed h
    cdef uint8_t c[34]
    with nogil:
        for i in range(buf.n):
            mj_snapshot(c, buf.data + i * 34)
            if _batch_pack(&h, c, j, 1, i, &bad):
                o[i] = _waits(&h, bits, j)
            else:
                o[i] = 0
    _batch_error(bad, 1)
    return bytes(out)


def shanten_batch(counts, *, shapes=None, jokers=0):
    """Shanten of N hands (N*34 uint8 counts); returns N int8 as bytes."""
    cdef int bits = _shape_bits(shapes)
    cdef int j = _jokers(jokers)
    cdef _Buffer buf = _Buffer(counts)
    cdef bytearray out = bytearray(buf.n)
    cdef int8_t* o = <int8_t*> (<uint8_t*> out)
    cdef Py_ssize_t i, bad = -1
    cdef Packed h
    cdef uint8_t c[34]
    cdef int r
    with nogil:
        for i in range(buf.n):
            mj_snapshot(c, buf.data + i * 34)
            if (_pack(&h, c, 0, 0) >= 0 or (h.ncon + j) % 3 == 0
                    or (h.ncon + j) // 3 > MAXM):
                if bad < 0:
                    bad = i
                o[i] = 0
            else:
                r = _shanten(&h, bits, j)
                if r >= INF and bad < 0:
                    bad = i
                o[i] = r if r < INF else 0
    if bad >= 0:
        raise MahjongError("wrong_tile_count",
                           f"hand {bad} of the batch has a count over 4, a size shanten can't take, "
                           "or none of the chosen shapes applies")
    return bytes(out)


# ---------------------------------------------------------------- compiled scoring
# (kept in their own files: the C reading, and the table evaluator that runs on it)
include "_runs.pxi"
include "_scoring.pxi"
# readings of hands holding wild tiles (fills the C reading of _reading.pxi)
include "_wilds.pxi"
