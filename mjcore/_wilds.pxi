# Included from _core.pyx after _reading.pxi: the standard readings of a hand holding wild
# tiles, in C, as C readings (``CReading``: the sets, the pair, and per wild what it stands for).
#
# The same search as the Python twin ``mjcore.rules.common.wilds._natural_groups`` /
# ``_wild_only`` (the tests hold the two equal), in the same order: the natural tiles are
# placed lowest kind first, each into a pair, a pung or a sequence that covers it, wilds filling
# the missing tiles; the wilds left over then form the pair and at most one set on their own,
# standing for every kind. Each complete placement becomes one ``CReading`` (the concealed
# sets in search order, the pair, the stand-ins sorted; a caller with declared melds puts
# them first, as ``_readings`` does). The
# Python-facing function turns them into (sets, pair, wilds) once, dropping repeats and, when
# asked, placements that need a fifth copy of a kind.

from libc.stdlib cimport realloc

cdef enum:
    WG_PAIR = 0
    WG_PUNG = 1
    WG_CHOW = 2
    WG_MAX = RD_SETS + 1  # groups of one placement: the sets and the pair
    WILD_RAW_MAX = 200000  # placements before repeats are dropped (4 wilds make a few thousand)

cdef struct WGroup:       # one group of the search's stack
    uint8_t kind          # WG_*
    uint8_t tile
    uint8_t nstood        # how many wilds the group holds
    uint8_t stood[3]      # the kinds they stand for

cdef struct Placement:    # one placement as the shared waits read it (``_wild_emit_lean``)
    uint64_t bits         # its sets' and pair's features a placed table reads (PLACED_BITS)
    uint64_t mask         # the kinds its wilds stand for
    uint64_t stood        # ... sorted, six bits each (kind + 1)
    int8_t pair
    uint8_t nsets
    uint8_t nwilds
    uint8_t nall          # wilds standing for another kind than theirs
    uint8_t wild_as[RD_WILDS]  # the kinds they stand for, sorted


cdef struct WildSearch:
    uint8_t n[48]         # natural tiles not yet placed (34; the rest 0, read eight at a time)
    int key[4]            # ``n`` packed as the core's tables read it (``_wild_keys``)
    int wild
    WGroup stack[WG_MAX]
    int depth
    CReading* rows
    Placement* lean       # not NULL: the placements go here (``_wild_emit_lean``), not ``rows``
    int nrows, cap
    bint borrowed         # ``lean`` is the caller's buffer (outgrown: copied to the heap)
    int error             # 1: out of memory or too many placements, 2: two sets of wilds alone,
                          # 3: the first placement found (``first``)
    bint first            # stop at the first placement within ``lim`` (when ``limit``)
    int home              # with ``first``: the kind wilds alone stand for first
    int floor             # wilds kept out of the natural groups (left to stand alone)
    bint limit
    int lim[34]           # copies left of each kind for the wilds to stand for
    bint run_classes      # a pair of wilds alone: one kind per ``_pair_kind_class`` (below)
    uint64_t run_want     # ... of these candidates
    uint64_t run_rows[16]  # with ``run_classes``: the rows (below 1024) of such a pair


cdef int _wild_grow(WildSearch* w, void** rows, size_t size) noexcept nogil:
    """``rows[0]`` (``w.cap`` rows of ``size`` bytes, the caller's buffer while ``w.borrowed``)
    made twice as long: 0, or -1 with ``w.error`` set."""
    cdef int cap = w.cap * 2 if w.cap else 64
    cdef void* grown
    if cap > WILD_RAW_MAX:
        w.error = 1
        return -1
    if w.borrowed:
        grown = malloc(cap * size)
        if grown != NULL:
            memcpy(grown, rows[0], w.nrows * size)
    else:
        grown = realloc(rows[0], cap * size)
    if grown == NULL:
        w.error = 1
        return -1
    rows[0] = grown
    w.borrowed = 0
    w.cap = cap
    return 0


cdef void _wild_emit_lean(WildSearch* w) noexcept nogil:
    """The stack as one more ``Placement``: what the shared waits read of a placement, found
    here from the groups (no reading built and read again)."""
    cdef Placement* p
    cdef WGroup* g
    cdef int i, j, k, n = 0
    cdef uint8_t v
    cdef uint64_t bits = (<uint64_t> 1) << F_STANDARD | (<uint64_t> 1) << F_PUNG | \
        (<uint64_t> 1) << F_CHOW
    if w.nrows == w.cap and _wild_grow(w, <void**> &w.lean, sizeof(Placement)) < 0:
        return
    p = &w.lean[w.nrows]
    p.pair = -1
    p.nsets = 0
    for i in range(w.depth):  # (the groups read as _wild_emit and _reading_bits read them)
        g = &w.stack[i]
        if g.kind == WG_PAIR:
            p.pair = g.tile
        else:
            p.nsets += 1
            bits &= ~((<uint64_t> 1) << (F_PUNG if g.kind == WG_CHOW else F_CHOW))
        for j in range(g.nstood):
            if n == RD_WILDS:
                w.error = 1
                return
            v = g.stood[j]
            k = n - 1
            while k >= 0 and p.wild_as[k] > v:  # (kept sorted)
                p.wild_as[k + 1] = p.wild_as[k]
                k -= 1
            p.wild_as[k + 1] = v
            n += 1
    if 0 <= p.pair < 27 and p.pair % 3 == 1:
        bits |= (<uint64_t> 1) << F_PAIR258
    p.bits = bits
    p.nwilds = n
    p.mask = 0
    p.stood = 0
    p.nall = 0
    for j in range(n):
        p.mask |= (<uint64_t> 1) << p.wild_as[j]
        p.nall += p.wild_as[j] != w.wild
        p.stood = p.stood << 6 | (p.wild_as[j] + 1)
    w.nrows += 1


cdef void _wild_emit(WildSearch* w) noexcept nogil:
    """The stack as one more C reading (``lean``: a ``Placement``)."""
    cdef int i, j, k
    cdef uint8_t v
    cdef CReading* r
    cdef WGroup* g
    if w.error:
        return
    if w.lean != NULL:
        _wild_emit_lean(w)
        return
    if w.nrows == w.cap and _wild_grow(w, <void**> &w.rows, sizeof(CReading)) < 0:
        return
    r = &w.rows[w.nrows]
    r.shape = RS_STANDARD
    r.pair = -1
    r.nsets = 0
    r.nwilds = 0
    for i in range(w.depth):
        g = &w.stack[i]
        if g.kind == WG_PAIR:
            r.pair = g.tile
        else:
            if r.nsets == RD_SETS:
                w.error = 1
                return
            r.sets[r.nsets].kind = SET_CHOW if g.kind == WG_CHOW else SET_PUNG
            r.sets[r.nsets].tile = g.tile
            r.sets[r.nsets].concealed = 1
            r.sets[r.nsets].meld = MK_NONE
            r.nsets += 1
        for j in range(g.nstood):
            if r.nwilds == RD_WILDS:
                w.error = 1
                return
            r.wild_kind[r.nwilds] = w.wild
            r.wild_as[r.nwilds] = g.stood[j]
            r.nwilds += 1
    if r.nwilds == 2:  # the stand-ins sorted: one order for equal placements
        if r.wild_as[0] > r.wild_as[1]:
            r.wild_as[0], r.wild_as[1] = r.wild_as[1], r.wild_as[0]
    else:
        for i in range(1, r.nwilds):
            v = r.wild_as[i]
            k = i - 1
            while k >= 0 and r.wild_as[k] > v:
                r.wild_as[k + 1] = r.wild_as[k]
                k -= 1
            r.wild_as[k + 1] = v
    if w.first:
        if w.limit and not _within_copies_u8(r.wild_as, r.nwilds, w.lim):
            return
        w.error = 3
    w.nrows += 1


cdef inline void _wild_push(WildSearch* w, int kind, int tile, int nstood, int s0, int s1,
                            int s2) noexcept nogil:
    cdef WGroup* g = &w.stack[w.depth]
    g.kind = kind
    g.tile = tile
    g.nstood = nstood
    g.stood[0] = s0
    g.stood[1] = s1
    g.stood[2] = s2
    w.depth += 1


cdef inline int _wild_kind_order(WildSearch* w, int i) noexcept nogil:
    """The ``i``-th kind wilds alone stand for: kind order, ``home`` first in ``first`` mode."""
    if not w.first or w.home < 0:
        return i
    if i == 0:
        return w.home
    return i - 1 if i - 1 < w.home else i


cdef int _KIND_CLASS[34]      # a kind's suit and 2-5-8 (suit * 2 + 1 for a 2, 5 or 8), 6: honours
cdef uint64_t _CLASS_KINDS[7]  # ... and the kinds of each
for _t in range(34):
    _KIND_CLASS[_t] = 6 if _t >= 27 else _t // 9 * 2 + (_t % 3 == 1)
    _CLASS_KINDS[_KIND_CLASS[_t]] |= (<uint64_t> 1) << _t


cdef inline int _pair_kind_class(int pk, int w, uint64_t want) noexcept nogil:
    """What a placed table can read of the kind ``pk`` a pair of wilds alone stands for
    (``PLACED_FEATURES``: the suits and honours held, 2-5-8 held alone, the pair a 2, 5 or 8;
    nothing of the counts, see ``_hand_bits``): its suit or honours, whether it is a 2, 5 or 8,
    and whether it is wanted; -1 for the wild kind (its stand-ins are not "in")."""
    if pk == w:
        return -1
    return _KIND_CLASS[pk] | <int> (want >> pk & 1) << 3


cdef void _wild_only_c(WildSearch* w, int wilds, int sets, int pair) noexcept nogil:
    """The pair and at most one set made of wilds alone, standing for every kind."""
    cdef int pk, k, base, i, j, kc
    cdef uint32_t classes = 0  # with ``run_classes``: the classes of pair kinds listed
    if wilds != 3 * sets + 2 * pair:
        return
    if sets > 1:  # cannot happen with four wilds of one kind
        w.error = 2
        return
    base = w.depth
    for i in range(34 if pair else 1):
        pk = _wild_kind_order(w, i)
        if pair and sets == 0 and w.run_classes and not w.first:
            kc = _pair_kind_class(pk, w.wild, w.run_want)
            if kc >= 0:
                if classes >> kc & 1:
                    continue
                classes |= (<uint32_t> 1) << kc
            if w.nrows < 1024:
                w.run_rows[w.nrows >> 6] |= (<uint64_t> 1) << (w.nrows & 63)
        w.depth = base
        if pair:
            _wild_push(w, WG_PAIR, pk, 2, pk, pk, 0)
        if sets == 0:
            _wild_emit(w)
            continue
        for j in range(34):
            k = _wild_kind_order(w, j)
            _wild_push(w, WG_PUNG, k, 3, k, k, k)
            _wild_emit(w)
            w.depth -= 1
        for k in range(27):
            if k % 9 <= 6:
                _wild_push(w, WG_CHOW, k, 3, k, k + 1, k + 2)
                _wild_emit(w)
                w.depth -= 1
    w.depth = base


cdef inline void _wild_keys(WildSearch* w) noexcept nogil:
    cdef int s, r
    for s in range(4):
        w.key[s] = 0
        for r in range(6 if s == 3 else 8, -1, -1):
            w.key[s] = w.key[s] * 5 + w.n[s * 9 + r]


cdef int _KEY_SUIT[34]    # each kind's suit and weight in its suit's key (``_pack``)
cdef int _KEY_WEIGHT[34]
for _t in range(34):
    _KEY_SUIT[_t] = _t // 9 if _t < 27 else 3
    _KEY_WEIGHT[_t] = P5[_t - 9 * _KEY_SUIT[_t]]


cdef inline void _wild_take(WildSearch* w, int t, int k) noexcept nogil:
    """``k`` naturals of kind ``t`` placed (negative: put back)."""
    w.n[t] -= k
    w.key[_KEY_SUIT[t]] -= k * _KEY_WEIGHT[t]


cdef inline bint _wild_hopeless(const WildSearch* w, int wilds, int pair) noexcept nogil:
    """The naturals left need more than ``wilds`` wilds to become sets (and, with ``pair``,
    a pair): the core's tables, whose wilds stand for any kind with no copy limit, as here.
    Every placement uses at least that many, so no placement lies below this node."""
    cdef uint32_t v[4]
    v[0] = suit_info[w.key[0]]; v[1] = suit_info[w.key[1]]
    v[2] = suit_info[w.key[2]]; v[3] = hon_info[w.key[3]]
    if pair:
        return _std_need(v) > wilds
    return <int> ((v[0] >> 20 & 31) + (v[1] >> 20 & 31) + (v[2] >> 20 & 31) +
                  (v[3] >> 20 & 31)) > wilds


cdef void _wild_natural(WildSearch* w, int wilds, int sets, int pair, int t) noexcept nogil:
    """Place every natural tile (none below kind ``t`` is left). A node no placement lies
    below is left at once (``_wild_hopeless``): the same placements, in the same order."""
    cdef int nat, first, r, start, k, need, i, ntaken
    cdef int stood[3]
    cdef int taken[3]
    cdef uint64_t eight
    if w.error:
        return
    while t < 34:  # the next kind left: eight counts at a time (those past 34 are 0)
        eight = _bytes8(w.n + t)
        if eight:
            t += __builtin_ctzll(eight) >> 3
            break
        t += 8
    if t >= 34:
        _wild_only_c(w, wilds, sets, pair)
        return
    if _wild_hopeless(w, wilds, pair):
        return
    if pair:  # the pair: two naturals, or one and a wild
        for nat in range(2, 0, -1):
            if w.n[t] >= nat and wilds - (2 - nat) >= w.floor:
                _wild_take(w, t, nat)
                _wild_push(w, WG_PAIR, t, 2 - nat, t, 0, 0)
                _wild_natural(w, wilds - (2 - nat), sets, 0, t)
                w.depth -= 1
                _wild_take(w, t, -nat)
    if sets:
        for nat in range(3, 0, -1):  # a pung
            if w.n[t] >= nat and wilds - (3 - nat) >= w.floor:
                _wild_take(w, t, nat)
                _wild_push(w, WG_PUNG, t, 3 - nat, t, t, t)
                _wild_natural(w, wilds - (3 - nat), sets - 1, pair, t)
                w.depth -= 1
                _wild_take(w, t, -nat)
        if t < 27:  # a sequence holding t; tiles below t are wilds
            r = t % 9
            for start in range(max(0, r - 2), min(r, 6) + 1):
                first = t - r + start
                need = 0
                ntaken = 0
                for k in range(first, first + 3):
                    if k == t or (k > t and w.n[k]):
                        taken[ntaken] = k
                        ntaken += 1
                    else:
                        stood[need] = k
                        need += 1
                if need > wilds - w.floor:
                    continue
                for i in range(ntaken):
                    _wild_take(w, taken[i], 1)
                _wild_push(w, WG_CHOW, first, need, stood[0], stood[1], stood[2])
                _wild_natural(w, wilds - need, sets - 1, pair, t)
                w.depth -= 1
                for i in range(ntaken):
                    _wild_take(w, taken[i], -1)


cdef int _wild_search(WildSearch* w, const uint8_t* counts, int wild, int nsets,
                      bint pair, Placement* lean=NULL, int nlean=0, bint run_classes=0,
                      uint64_t run_want=0) noexcept nogil:
    """Every placement of the naturals and the wilds (the copies of ``wild`` in ``counts``)
    into ``nsets`` sets and, with ``pair``, the pair: ``w.rows[:w.nrows]``, repeats included
    (the caller drops them). 0, or ``w.error``. With ``lean`` (``nlean`` of them, the heap
    past them) the placements go there (``w.lean``) as ``Placement``s. The caller frees the
    rows (``_wild_free``). With ``run_classes``, a pair of wilds alone (the rest alike) stands
    for one kind of each ``_pair_kind_class`` of ``run_want`` (``w.run_rows``: the caller
    gives its rows to the class's other kinds)."""
    memset(w, 0, sizeof(WildSearch))
    w.run_classes = run_classes
    w.run_want = run_want
    if lean != NULL:
        w.lean = lean
        w.cap = nlean
        w.borrowed = 1
    memcpy(w.n, counts, 34)
    w.wild = wild
    w.n[wild] = 0
    _wild_keys(w)
    _wild_natural(w, counts[wild], nsets, pair, 0)
    return w.error


cdef inline void _wild_free(WildSearch* w) noexcept nogil:
    """The rows of ``_wild_search`` freed (not the caller's buffer)."""
    if not w.borrowed:
        free(w.rows)
        free(w.lean)
    w.rows = NULL
    w.lean = NULL


def wild_standard_readings(counts, int wild, int nsets, bint pair, held, tuple pung_sets,
                           tuple chow_sets, tuple stand_ins):
    """The standard readings of ``counts`` (34 concealed counts) with the copies of ``wild``
    as wilds: ``nsets`` sets and, with ``pair``, the pair. A list of ``(sets, pair, wilds)``,
    repeats (the same sets, pair and stand-ins) dropped: ``sets`` the concealed sets in search
    order as objects from ``pung_sets`` / ``chow_sets`` (indexed by first tile), ``pair`` its
    tile (-1 without), ``wilds`` the sorted objects of ``stand_ins`` (indexed by the kind stood
    for). With ``held`` (34 counts over every tile held) a reading making a fifth copy of a
    kind is dropped. The engine of ``common.wilds.wild_readings``."""
    cdef WildSearch w
    cdef uint8_t cnt[34]
    cdef int t, i, j, c, nst
    cdef uint8_t key[RD_SETS + 2 + RD_WILDS]
    cdef int order[RD_SETS]
    cdef int stood[RD_WILDS]
    cdef int lim[34]
    cdef CReading* r
    cdef list out = []
    cdef set seen = set()
    cdef bint limit = held is not None
    if len(counts) != 34 or not 0 <= wild < 34 or not 0 <= nsets <= RD_SETS:
        raise MahjongError("bad_argument", "wild readings need 34 counts, a wild kind 0..33 "
                                           f"and at most {RD_SETS} sets")
    if len(pung_sets) != 34 or len(chow_sets) != 34 or len(stand_ins) != 34:
        raise MahjongError("bad_argument", "wild readings need 34 objects per table")
    for t in range(34):
        c = counts[t]
        if not 0 <= c <= 4:
            raise MahjongError("bad_argument", f"tile count {c!r} outside 0..4")
        cnt[t] = c
        lim[t] = 99
    if limit:
        for t in range(34):
            lim[t] = 99 if t == wild else 4 - <int> held[t]  # a wild never adds to its kind
    with nogil:
        _wild_search(&w, cnt, wild, nsets, pair)
    try:
        if w.error == 2:
            raise ValueError("more than one set of wilds alone")
        if w.error:
            raise MahjongError("too_complex", "too many wild readings")
        for i in range(w.nrows):
            r = &w.rows[i]
            nst = r.nwilds
            for j in range(nst):
                stood[j] = r.wild_as[j]
            if limit and not _within_copies(stood, nst, lim):
                continue
            # the key: sets sorted, the pair, the stand-ins (sorted already), as the twin's
            for j in range(r.nsets):
                order[j] = r.sets[j].kind * 64 + r.sets[j].tile
            _isort(order, r.nsets)
            for j in range(r.nsets):
                key[j] = order[j]
            key[r.nsets] = 255
            key[r.nsets + 1] = <uint8_t> (r.pair + 1)
            for j in range(nst):
                key[r.nsets + 2 + j] = stood[j]
            k = (<char*> key)[:r.nsets + 2 + nst]
            if k in seen:
                continue
            seen.add(k)
            sets = PyTuple_New(r.nsets)
            for j in range(r.nsets):
                o = (chow_sets if r.sets[j].kind == SET_CHOW else pung_sets)[r.sets[j].tile]
                Py_INCREF(o)
                PyTuple_SET_ITEM(sets, j, o)
            wl = PyTuple_New(nst)
            for j in range(nst):
                o = stand_ins[stood[j]]
                Py_INCREF(o)
                PyTuple_SET_ITEM(wl, j, o)
            out.append((sets, r.pair, wl))
    finally:
        free(w.rows)
    return out


cdef inline bint _within_copies(const int* stood, int n, const int* lim) noexcept nogil:
    """No kind stood for more often than the copies left of it (``lim``)."""
    cdef int i, j, same
    for i in range(n):
        same = 0
        for j in range(n):
            if stood[j] == stood[i]:
                same += 1
        if same > lim[stood[i]]:
            return False
    return True


cdef inline void _isort(int* a, int n) noexcept nogil:
    cdef int i, j, v
    for i in range(1, n):
        v = a[i]
        j = i - 1
        while j >= 0 and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


cdef inline bint _within_copies_u8(const uint8_t* stood, int n, const int* lim) noexcept nogil:
    cdef int i, j, same
    for i in range(n):
        same = 0
        for j in range(n):
            if stood[j] == stood[i]:
                same += 1
        if same > lim[stood[i]]:
            return False
    return True


cdef bint _may_stand_alone(const uint8_t* counts, int wild, int c, bint pair,
                           int floor) noexcept nogil:
    """Whether a pass of ``_first_wild`` keeping ``floor`` wilds alone (3: a set of wilds, 2:
    the pair of wilds) may find a reading: the naturals with the other wilds as jokers form
    the sets left and the pair (floor 3, with ``pair``) or the sets alone (a pair of an honour
    no natural holds added, as ``has_wild_standard`` tests). One win test instead of a
    search that fails; True when it cannot tell (every honour held)."""
    cdef uint8_t n[34]
    cdef Packed p
    cdef int k
    memcpy(n, counts, 34)
    n[wild] = 0
    if not (floor == 3 and pair):
        k = 27
        while k < 34 and n[k]:
            k += 1
        if k == 34:
            return True
        n[k] = 2
    _pack(&p, n, 0, 0)
    return _win(&p, SH_STANDARD, c - floor) != 0


cdef int _first_wild(WildSearch* w, const uint8_t* counts, int wild, bint pair, int home,
                     const int* lim, CReading* one) noexcept nogil:
    """The search of ``first_wild_decomposition`` (the caller checked the counts: 3 × nsets +
    2 × pair tiles, nsets at most RD_SETS): 1 with the reading in ``one``, 0 when there is
    none, -1 too many placements, -2 two sets of wilds alone. ``lim``: 34 copies left per
    kind, or NULL. Nothing to free: the search stops at its first reading, kept in ``one``."""
    cdef int t, i, c, floor, total = 0, nsets
    memset(w, 0, sizeof(WildSearch))
    w.rows = one
    w.cap = 1
    for t in range(34):
        w.n[t] = counts[t]
        total += counts[t]
    nsets = (total - 2 * pair) // 3
    if lim != NULL:
        w.limit = True
        memcpy(w.lim, lim, 34 * sizeof(int))
    c = w.n[wild]
    w.n[wild] = 0
    _wild_keys(w)
    w.wild = wild
    w.first = True
    w.home = home if 0 <= home < 34 else -1
    # most wilds standing alone first (a pung, the pair or none: 3, 2, 0 of them)
    for i in range(3):
        floor = 3 - i - (i == 2)
        if floor > c or (floor == 2 and not pair) or (
                floor and not _may_stand_alone(counts, wild, c, pair, floor)):
            continue
        w.floor = floor
        w.depth = 0
        _wild_natural(w, c, nsets, pair, 0)
        if w.nrows or w.error != 0:
            break
    if w.error == 2:
        return -2
    if w.error == 1:
        return -1
    return 1 if w.nrows else 0


def first_wild_decomposition(counts, int wild, bint pair, held, int home=-1):
    """One reading of ``wild_standard_readings(counts, wild, nsets, pair, held, ...)`` (the
    sets the tiles leave: 3 × nsets + 2 × pair tiles) as
    ``(pair, chows, pungs, stood)``: the pair's tile (-1 without), the first tiles of the
    sequences and the tiles of the pungs (each sorted), the kinds the wilds stand for
    (sorted); None when there is none. The reading with the most wilds standing alone (in a
    pung or the pair of wilds only), the first of those in search order; with ``home`` (a
    kind) wilds alone stand for it before the others. The search stops at that reading: a
    few cheap passes for a caller that reports one split of the hand."""
    cdef WildSearch w
    cdef int t, i, c, nc = 0, np_ = 0, got
    cdef int chows[RD_SETS]
    cdef int pungs[RD_SETS]
    cdef uint8_t cnt[34]
    cdef int lim[34]
    cdef CReading* r
    cdef int total = 0, nsets
    if len(counts) != 34 or not 0 <= wild < 34:
        raise MahjongError("bad_argument", "wild readings need 34 counts and a wild kind 0..33")
    for t in range(34):
        c = counts[t]
        if not 0 <= c <= 4:
            raise MahjongError("bad_argument", f"tile count {c!r} outside 0..4")
        cnt[t] = c
        total += c
    nsets = (total - 2 * pair) // 3
    if total != 3 * nsets + 2 * pair or nsets > RD_SETS:
        raise MahjongError("bad_argument", f"{total} tiles are not {'3n + 2' if pair else '3n'} "
                                           f"with n at most {RD_SETS}")
    if held is not None:
        for t in range(34):
            lim[t] = 99 if t == wild else 4 - <int> held[t]  # a wild never adds to its kind
    cdef CReading one
    with nogil:
        got = _first_wild(&w, cnt, wild, pair, home, lim if held is not None else NULL, &one)
    if got == -2:
        raise ValueError("more than one set of wilds alone")
    if got == -1:
        raise MahjongError("too_complex", "too many wild readings")
    if not got:
        return None
    r = &one
    for i in range(r.nsets):
        if r.sets[i].kind == SET_CHOW:
            chows[nc] = r.sets[i].tile
            nc += 1
        else:
            pungs[np_] = r.sets[i].tile
            np_ += 1
    _isort(chows, nc)
    _isort(pungs, np_)
    return (r.pair, tuple([chows[i] for i in range(nc)]),
            tuple([pungs[i] for i in range(np_)]),
            tuple([r.wild_as[i] for i in range(r.nwilds)]))


def has_wild_standard(counts, int wild, bint pair):
    """Whether ``wild_standard_readings(counts, wild, ...)`` finds a reading (no copy limit):
    one win test on the joker tables, no reading built, no ``Hand`` made. Sets only
    (``pair=False``) is the win test of the counts plus a pair of an honour no natural holds
    (see ``common.wilds.has_wild_reading``); None when every honour is held (the caller then
    lists the readings)."""
    cdef uint8_t c[34]
    cdef Packed h
    cdef int t, v, jokers, free_honour = -1
    if len(counts) != 34 or not 0 <= wild < 34:
        raise MahjongError("bad_argument", "need 34 counts and a wild kind 0..33")
    for t in range(34):
        v = counts[t]
        if not 0 <= v <= 4:
            raise MahjongError("bad_argument", f"tile count {v!r} outside 0..4")
        c[t] = v
    jokers = c[wild]
    c[wild] = 0
    if not pair:
        for t in range(27, 34):
            if not c[t]:
                free_honour = t
                break
        if free_honour < 0:
            return None
        c[free_honour] = 2
    _pack(&h, c, 0, 0)
    if (h.ncon + jokers) // 3 > MAXM + 1:
        return False  # more than 17 tiles: never a reading of a hand
    return _win(&h, SH_STANDARD, jokers) != 0


# ---------------------------------------------------------------- scoring wild hands
#
# ``CompiledTable.score_wild`` / ``valued_waits_wild``: the compiled evaluator on a hand holding
# wild tiles. The context names the wild kind (and the kind whose tiles play as the wild's
# natural kind, e.g. Hangzhou's 白板 in flip mode: the proxy); the hand is written in role
# coordinates (the naturals at the kinds they play as, the wilds at the proxy's slot, free once
# its tiles moved), as ``hangzhou.scoring.roles`` does. A wild hand's readings are the kinds of
# reading the table prices, each found by one win test on the joker tables (no placement is
# listed): 七对 (the wilds pair every kind held oddly), a standard reading, and on a self-draw
# the ``wild_pair`` reading (the winning tile and a wild are the pair, the rest forms sets;
# with ``wild_pair_sets_wild`` false no other wild). Their features: ``WILD_FEATURES`` and
# ``gen`` (kinds of four naturals), ``melds``, the context's. The policy values each, the best
# is taken (value, then the lower rank, then the first of 七对, standard, wild pair), and only
# the reading scored is split into sets (``_first_wild``, the decomposition Hangzhou reports).

cdef struct WildHand:
    uint8_t nat[34]       # the naturals, in role coordinates (the slot empty)
    uint8_t held[34]      # every physical tile held (concealed and melds)
    uint8_t con[34]       # the concealed physical tiles
    int wilds             # wilds held
    int wild              # the wild kind, and the slot its copies are read at
    int slot
    int nmelds
    bint kong


cdef inline int _tile_of(object tile) except -2:
    """A tile id from an id or two-character text ("3m"); -1 for anything else."""
    cdef const unsigned char* d
    cdef int r
    if type(tile) is int:
        return tile if 0 <= tile < 34 else -1
    if type(tile) is not str or len(<str> tile) != 2 or not PyUnicode_IS_ASCII(tile):
        return -1
    d = <const unsigned char*> PyUnicode_DATA(tile)
    r = d[0] - 0x30
    if d[1] == 0x7A:
        return 26 + r if 1 <= r <= 7 else -1
    if not 1 <= r <= 9:
        return -1
    return r - 1 if d[1] == 0x6D else 8 + r if d[1] == 0x70 else 17 + r if d[1] == 0x73 else -1


cdef int _wild_hand(object hand, CompiledContext c, int ntiles, WildHand* wh) except -2:
    """The hand (plain concealed text, or a ``Hand`` whose melds hold no wild) in role
    coordinates; 0, or -1 when the Python path must answer (any other input, a wrong size)."""
    cdef int add[34]
    cdef uint8_t cnt[34]
    cdef int t, total = 0, w = c.wild, slot
    cdef unsigned int over = 0
    cdef HandBase h
    if not 0 <= w < 34:
        return -1
    slot = c.proxy if 0 <= c.proxy < 34 else w
    wh.nmelds = 0
    wh.kong = 0
    if type(hand) is str:
        if not PyUnicode_IS_ASCII(hand) or not plain_runs_counts(
                <const unsigned char*> PyUnicode_DATA(hand), len(<str> hand), add):
            return -1
        for t in range(34):  # (no branch: the compiler vectorises it)
            over |= add[t] > 4
            cnt[t] = <uint8_t> add[t]
            total += add[t]
        if over:
            return -1
        memcpy(wh.held, cnt, 34)
    elif isinstance(hand, HandBase):
        h = <HandBase> hand
        memcpy(cnt, h.p.cnt, 34)
        memcpy(wh.held, cnt, 34)
        for m in h.melds:
            tiles = <tuple> (<tuple> m)[1]
            if len(tiles) < 3:
                return -1
            for x in tiles:
                if <int> x == w:
                    return -1  # a wild in a meld: the rule set's options decide
                wh.held[<int> x] += 1
            wh.nmelds += 1
            if (<tuple> m)[0] in ("gang", "angang", "bugang"):
                wh.kong = 1
        for t in range(34):  # (text holds no melds: its counts were checked above)
            total += cnt[t]
            if wh.held[t] > 4:
                return -1
    else:
        return -1
    if total + 3 * wh.nmelds != ntiles:
        return -1
    memcpy(wh.con, cnt, 34)
    memcpy(wh.nat, cnt, 34)
    wh.wilds = cnt[w]
    wh.nat[w] = cnt[slot] if slot != w else 0  # the proxy's tiles play as the wild's kind
    wh.nat[slot] = 0
    wh.wild = w
    wh.slot = slot
    return 0


cdef inline int _role_of(const WildHand* wh, int t) noexcept nogil:
    """The role kind of physical tile ``t``: the slot for a wild."""
    if t == wh.wild:
        return wh.slot
    return wh.wild if t == wh.slot else t


cdef int _wild_list(const WildHand* wh, int drawn, bint sd, bint qidui, bint pair_sets_wild,
                    uint64_t* rb, int* gen) noexcept nogil:
    """The wild readings of the 14 tiles (``drawn``: the winning tile's role kind; ``sd``:
    self-drawn), as feature bits in ``rb`` (at most 3, in the order 七对, standard, wild pair),
    and ``gen``, the kinds of four naturals. Their number, or -1 when the Python path must
    answer."""
    cdef Packed p
    cdef uint8_t rest[34]
    cdef int nr = 0, k, odd = 0, need, rw
    _pack(&p, wh.nat, 0, 0)
    gen[0] = 0
    for k in range(34):
        odd += wh.nat[k] & 1
        gen[0] += wh.nat[k] == 4
    if qidui and wh.nmelds == 0 and wh.wilds >= odd and (wh.wilds - odd) % 2 == 0:
        rb[nr] = (<uint64_t> 1) << F_QIDUI
        nr += 1
    if _win(&p, SH_STANDARD, wh.wilds):
        rb[nr] = (<uint64_t> 1) << F_STANDARD
        nr += 1
    need = 2 if drawn == wh.slot else 1
    if sd and wh.wilds >= need:
        memcpy(rest, wh.nat, 34)
        if drawn != wh.slot:
            rest[drawn] -= 1
        rw = wh.wilds - need
        if pair_sets_wild or rw == 0:
            # sets only: the rest plus a pair of an honour it does not hold wins with the wilds
            # as jokers exactly when the rest forms sets (``common.wilds.has_wild_reading``)
            k = 27
            while k < 34 and rest[k]:
                k += 1
            if k == 34:
                return -1
            rest[k] = 2
            _pack(&p, rest, 0, 0)
            if _win(&p, SH_STANDARD, rw):
                rb[nr] = (<uint64_t> 1) << F_STANDARD | (<uint64_t> 1) << F_WILD_PAIR
                nr += 1
    return nr


cdef int _wild_best(CompiledTable t, const WildHand* wh, int drawn, CompiledContext c, bint sd,
                    Valued_* best, uint64_t* chosen, uint64_t* seen) noexcept nogil:
    """The best wild reading (``_wild_list``): 1 with its value in ``best`` and its features
    in ``chosen``, 0 when no reading is valued, -1 when the Python path must answer.
    ``seen``: the features of every reading, or-ed."""
    cdef uint64_t rb[3]
    cdef int nr, gen, i
    nr = _wild_list(wh, drawn, sd, t.qidui, t.wild_pair_sets_wild, rb, &gen)
    if nr < 0:
        return -1
    seen[0] = 0
    for i in range(nr):
        seen[0] |= rb[i]
    return _wild_value(t, rb, nr, gen, wh.nmelds, c, best, chosen)


cdef int _wild_value(CompiledTable t, const uint64_t* rb, int nr, int gen, int nmelds,
                     CompiledContext c, Valued_* best, uint64_t* chosen) noexcept nogil:
    """The best of the readings ``rb`` (feature bits, ``_wild_list``'s order; ``gen`` kinds of
    four naturals) in context ``c``: 1 with its value in ``best`` and its features in
    ``chosen`` (value, then the lower rank, then the first), 0 when none is valued, -1 when
    the Python path must answer."""
    cdef int counts[NCOUNTED + NCTXCOUNTED]
    cdef int i, got, found = 0
    cdef Valued_ v
    cdef uint64_t bits
    memset(counts, 0, sizeof(counts))
    counts[C_GEN] = gen
    counts[C_MELDS] = nmelds
    for i in range(NCTXCOUNTED):
        counts[NCOUNTED + i] = c.ctx_counts[i]
    for i in range(nr):
        bits = c.bits | rb[i]
        v.flat = -1
        v.unlisted = 0
        got = t._value(bits, counts, &v)
        if got < 0:
            return -1
        if not got:
            continue
        if not found or v.value > best.value or v.value == best.value and (
                v.raw > best.raw or v.raw == best.raw and v.rank < best.rank):
            best[0] = v
            chosen[0] = rb[i]
            found = 1
    return found


cdef object _wild_decomposition(CompiledTable t, const WildHand* wh, int drawn, uint64_t rbits):
    """The decomposition Hangzhou reports for the reading scored (``hangzhou.scoring.
    decomposition``): a standard reading split by ``_first_wild`` (wilds alone standing for the
    wild's own kind first), a wild pair's rest split into sets; None on a search error."""
    if not rbits >> F_STANDARD & 1:
        return "qidui"
    cdef uint8_t cnt[34]
    cdef WildSearch w
    cdef int got, pair, i, nc = 0, np_ = 0
    cdef int chows[RD_SETS]
    cdef int pungs[RD_SETS]
    cdef bint wp = rbits >> F_WILD_PAIR & 1
    cdef CReading one
    memcpy(cnt, wh.nat, 34)
    cnt[wh.slot] = wh.wilds
    if wp:
        cnt[drawn] -= 1
        cnt[wh.slot] -= 1
    got = _first_wild(&w, cnt, wh.slot, not wp, wh.wild, NULL, &one)
    if got <= 0:
        return None
    for i in range(one.nsets):
        if one.sets[i].kind == SET_CHOW:
            chows[nc] = one.sets[i].tile
            nc += 1
        else:
            pungs[np_] = one.sets[i].tile
            np_ += 1
    _isort(chows, nc)
    _isort(pungs, np_)
    pair = one.pair if not wp else drawn if drawn != wh.slot else wh.wild
    ch = PyTuple_New(nc)
    for i in range(nc):
        _put(ch, i, chows[i])
    pu = PyTuple_New(np_)
    for i in range(np_):
        _put(pu, i, pungs[i])
    dec = mj_tuple_of(t.decomposition_type, 3)
    _put(dec, 0, pair)
    _put(dec, 1, ch)
    _put(dec, 2, pu)
    PyObject_GC_UnTrack(ch)  # immutable and acyclic: the collector need not walk them
    PyObject_GC_UnTrack(pu)
    PyObject_GC_UnTrack(dec)
    return dec


cdef object _score_wild(CompiledTable t, object hand, object tile_obj, CompiledContext c):
    cdef WildHand wh
    cdef Valued_ best
    cdef uint64_t rbits, seen
    cdef int tile = _tile_of(tile_obj), drawn, fan, mult, got
    if tile < 0 or _wild_hand(hand, c, t.hand_tiles, &wh) < 0:
        return None
    if wh.con[tile] == 0:
        return None
    if wh.wilds + c.wilds_gone > 4 or (c.needs_kong and not wh.kong) or (
            not c.self_drawn and c.blocked >> tile & 1):
        return None
    drawn = _role_of(&wh, tile)
    got = _wild_best(t, &wh, drawn, c, c.self_drawn is True, &best, &rbits, &seen)
    if got <= 0 or (seen & c.require) != c.require:
        return None
    fan = best.value
    if fan < 0 or fan >= CT_FANS or fan > 30:
        return None
    mult = 1 << fan
    if t.cap >= 0 and mult > t.cap:
        mult = t.cap  # the cap limits the multiplier, not the fan
    dec = _wild_decomposition(t, &wh, drawn, rbits)
    if dec is None:
        return None
    pays = c.payment(fan, mult, mult)
    out = mj_tuple_of(t.result_type, 12)
    _put(out, 0, t.name)
    _put(out, 1, t.unit)
    _put(out, 2, fan)
    _put(out, 3, best.raw)
    _put(out, 4, mult)
    _put(out, 5, t._hits(&best, -1))
    _put(out, 6, dec)
    _put(out, 7, "standard" if rbits >> F_STANDARD & 1 else "qidui")
    _put(out, 8, c.self_drawn)
    _put(out, 9, pays)
    _put(out, 10, c.liable)
    _put(out, 11, c.liable_seat)
    PyObject_GC_UnTrack(out)
    return out


cdef enum:
    WAIT_CLASSES = 64  # values whose waits are kept (``WaitClass``): buckets of WAIT_WAYS
    WAIT_WAYS = 4
    WAIT_UNSEEN = 5    # unseen copies 0-4 kept (any other count: a wait made, not kept)


cdef struct WaitClass:  # the valued waits of one value, kept by tile and unseen copies
    PyObject* tp         # the table's wait type (a reference; NULL: an empty class)
    PyObject* hd         # its hits on a discard and self-drawn (references: their identity
    PyObject* hs         # is the key, as the table keeps its hits tuples)
    int vd, vs
    uint64_t used        # ``_wait_clock`` when last found (the least recent one goes)
    PyObject* w[34 * WAIT_UNSEEN]  # its waits by tile * WAIT_UNSEEN + unseen (NULL: none yet)


cdef WaitClass _wait_classes[WAIT_CLASSES]
cdef uint64_t _wait_clock = 0


cdef extern from "Python.h":
    PyObject* _tuple_item "PyTuple_GET_ITEM" (PyObject* t, Py_ssize_t i)


cdef object _wait_new(CompiledTable t, int tile, int vd, int vs, int unseen, hd, hs):
    """A new valued wait (``t.wait_type``) of ``tile``."""
    w = mj_tuple_of(t.wait_type, 7)
    _put(w, 0, (<tuple> _wait_objects[tile])[0])
    _put(w, 1, tile)
    _put(w, 2, vd)
    _put(w, 3, vs)
    _put(w, 4, unseen)
    _put(w, 5, hd)
    _put(w, 6, hs)
    PyObject_GC_UnTrack(w)  # (immutable, its items untracked)
    return w


cdef void _wait_class_empty(WaitClass* c) noexcept:
    cdef int i
    cdef PyObject* o
    if c.tp == NULL:
        return
    for i in range(34 * WAIT_UNSEEN):
        o = c.w[i]
        if o != NULL:
            c.w[i] = NULL
            Py_DECREF(<object> o)
    Py_DECREF(<object> c.hd)
    Py_DECREF(<object> c.hs)
    Py_DECREF(<object> c.tp)
    c.tp = c.hd = c.hs = NULL


cdef WaitClass* _wait_class(CompiledTable t, int vd, int vs, PyObject* hd, PyObject* hs,
                            uint64_t since) noexcept:
    """The kept waits of the value (``vd``, ``vs``: its values on a discard and self-drawn,
    ``hd``, ``hs``: its hits, which the caller holds). Ready hands wait on few values (a
    kind, two small values, hits tuples the table keeps), so their wait objects are kept,
    not made for each: objects only, never answers (every wait is still valued). A value not
    kept takes the place of the least recent of its bucket, never of one found since
    ``since`` (a caller holding several classes at once: ``_wait_clock + 1`` when it
    starts); NULL when every one of them was (the caller makes its waits)."""
    global _wait_clock
    cdef uint64_t x = (<uint64_t> <uint32_t> vd << 9 ^ <uint64_t> <uint32_t> vs << 33
                       ^ (<uint64_t> <uintptr_t> hd) * 0x9E3779B97F4A7C15u
                       ^ (<uint64_t> <uintptr_t> hs) * 0xC2B2AE3D27D4EB4Fu)
    x = (x ^ x >> 29) * 0xBF58476D1CE4E5B9u
    cdef WaitClass* b = &_wait_classes[(x >> 40) & (WAIT_CLASSES - WAIT_WAYS)]
    cdef WaitClass* c = NULL
    cdef PyObject* tp = <PyObject*> t.wait_type
    cdef int i
    _wait_clock += 1
    for i in range(WAIT_WAYS):
        if b[i].tp == tp and b[i].vd == vd and b[i].vs == vs and b[i].hd == hd \
                and b[i].hs == hs:
            b[i].used = _wait_clock
            return &b[i]
        if b[i].used < since and (c == NULL or b[i].used < c.used):
            c = &b[i]  # (an empty one has used 0)
    if c == NULL:
        return NULL
    _wait_class_empty(c)
    Py_INCREF(<object> tp)
    Py_INCREF(<object> hd)
    Py_INCREF(<object> hs)
    c.tp = tp
    c.hd = hd
    c.hs = hs
    c.vd = vd
    c.vs = vs
    c.used = _wait_clock
    return c


cdef inline object _wait_of(CompiledTable t, WaitClass* c, int tile, int unseen):
    """The valued wait of ``tile`` (0-33) in class ``c`` with ``unseen`` copies."""
    cdef PyObject* o
    if not 0 <= unseen < WAIT_UNSEEN:
        return _wait_new(t, tile, c.vd, c.vs, unseen, <object> c.hd, <object> c.hs)
    o = c.w[tile * WAIT_UNSEEN + unseen]
    if o != NULL:
        return <object> o
    return _wait_made(t, c, tile, unseen)


cdef object _wait_made(CompiledTable t, WaitClass* c, int tile, int unseen):
    """``_wait_of`` for a wait the class does not hold yet: made and kept."""
    w = _wait_new(t, tile, c.vd, c.vs, unseen, <object> c.hd, <object> c.hs)
    Py_INCREF(w)
    c.w[tile * WAIT_UNSEEN + unseen] = <PyObject*> w
    return w


cdef object _wait_entry(CompiledTable t, int tile, int vd, int vs, int unseen, hd, hs):
    """The valued wait of ``tile`` with these values, unseen copies and hits (``_wait_class``:
    a kept one when it can)."""
    cdef WaitClass* c = _wait_class(t, vd, vs, <PyObject*> hd, <PyObject*> hs,
                                    _wait_clock + 1)
    if c == NULL:
        return _wait_new(t, tile, vd, vs, unseen, hd, hs)
    return _wait_of(t, c, tile, unseen)


def _wait_probe(CompiledTable t, int tile, int vd, int vs, int unseen, hd, hs):
    """``_wait_entry``, for the test that holds each entry to what was asked."""
    return _wait_entry(t, tile, vd, vs, unseen, hd, hs)


def _wait_probe_together(CompiledTable t, list asks):
    """The waits ``asks`` ((tile, vd, vs, unseen, hd, hs) each) as ``_valued_waits_wild``
    asks them in one call: every class found first, then each wait made (for the test that
    holds each to what was asked)."""
    cdef WaitClass* found[64]
    cdef uint64_t since = _wait_clock + 1
    cdef int i
    if len(asks) > 64:
        raise ValueError("at most 64 waits asked together")
    for i in range(len(asks)):
        _, vd, vs, _, hd, hs = asks[i]
        found[i] = _wait_class(t, vd, vs, <PyObject*> hd, <PyObject*> hs, since)
    out = []
    for i in range(len(asks)):
        tile, vd, vs, unseen, hd, hs = asks[i]
        out.append(_wait_of(t, found[i], tile, unseen) if found[i] != NULL
                   else _wait_new(t, tile, vd, vs, unseen, hd, hs))
    return out


cdef struct WildWaitValue:  # the two ways of the waits that share their readings
    int key               # 七对 | standard << 1 | gen << 2; -1: unused
    int gd, gs            # ``_wild_value``'s answers on a discard and self-drawn
    Valued_ vd, vs
    int d, s              # the value of each way (0: none)
    PyObject* hd          # the hits of each way (borrowed: held by ``cls``, else the
    PyObject* hs          # caller's list)
    WaitClass* cls        # their waits kept (``_wait_class``; NULL: made for this call)


cdef inline void _odd_three(const uint8_t* c, uint64_t* odd, uint64_t* three) noexcept nogil:
    """Bit k of ``odd``: ``c[k]`` (34 counts, each 0-4) is odd; of ``three``: it is 3 (of 0-4
    only 3 has bits 0 and 1). Eight counts at a time, gathered by one multiply as ``_pack``'s
    fours."""
    cdef uint64_t w, o = 0, th = 0
    cdef int i
    for i in range(4):
        w = mj_bytes8(c + 8 * i)
        o |= _byte_bits(w) << (8 * i)
        th |= _byte_bits(w & w >> 1) << (8 * i)
    for i in range(32, 34):
        o |= <uint64_t> (c[i] & 1) << i
        th |= <uint64_t> (c[i] == 3) << i
    odd[0] = o
    three[0] = th


cdef object _valued_waits_wild(CompiledTable t, object hand, CompiledContext cd,
                               CompiledContext cs, object visible):
    """Every physical kind that completes the ready hand (the core's joker wait test on the
    naturals, the wild kind itself, the proxy for a natural of the wild's kind), valued on a
    discard (``cd``) and self-drawn (``cs``); kinds of which four copies are held (with the
    wilds gone, for the wild's kind) are not waits. A self-draw needs the features ``cs``
    requires among its readings (after a 飘: 爆头), as ``score_wild``'s; a wait may then win
    on a discard alone. None when the Python path must answer.

    What ``_wild_list`` finds of each candidate comes from the 13 tiles once: its standard
    reading from the joker wait test (a drawn wild: one win test with a joker more), 七对 from
    the kinds held oddly, and the 爆头 reading is the same for every tile drawn (the 13 tiles
    less one wild form sets: the drawn tile pairs with it). Candidates whose readings and
    ``gen`` agree share their values (and hits). A natural drawn changes them by three bits
    of its kind (it completes a standard reading; it is held three times: ``gen`` + 1; held
    oddly: one kind fewer held oddly, else one more), so candidates alike in those bits are
    matched to their value once (``by_bits``; the wild drawn: its own)."""
    cdef WildHand wh
    cdef Packed p, q
    cdef WildWaitValue vals[8]
    cdef WildWaitValue* by_bits[9]
    cdef WildWaitValue* e
    cdef uint64_t rb[3]
    cdef uint64_t chosen, std, cand, mask, oddm, three, seen
    cdef int k, tile, drawn, unseen, nv = 0, n = 0, odd0, gen0, odd, gen, wilds, key, g
    cdef int nr, i, gone
    cdef bint baotou = 0, qd, st
    cdef list hits = None  # the hits of values whose waits are not kept (held for vals')
    cdef uint64_t since = _wait_clock + 1  # (the wait classes found by this call stay)
    if cd.any_elsewhere or cs.any_elsewhere or _wild_hand(hand, cs, t.hand_tiles - 1, &wh) < 0 \
            or cd.wild != cs.wild or cd.proxy != cs.proxy or (cs.needs_kong and not wh.kong):
        return None
    gone = max(cd.wilds_gone, cs.wilds_gone)  # (wilds discarded: a 飘 each)
    if wh.wilds + gone > 4:
        return None  # (the Python path refuses it)
    _pack(&p, wh.nat, 0, 0)
    std = _waits(&p, SH_STANDARD, wh.wilds)
    _odd_three(wh.nat, &oddm, &three)
    odd0 = __builtin_popcountll(oddm)
    gen0 = __builtin_popcountll(p.four)  # (the naturals' fours: _pack's)
    cand = std
    if t.qidui and p.ncon + wh.wilds == 13 and odd0 - 1 <= wh.wilds:
        # 七对's waits (``_qidui_waits``) from the kinds held oddly: a kind held oddly pairs
        # off (odd0 - 1 wilds pair the rest), another not held four times makes one more odd
        cand |= oddm
        if odd0 + 1 <= wh.wilds:
            cand |= ~p.four & (((<uint64_t> 1) << 34) - 1)
    if wh.wilds >= 1 and (t.wild_pair_sets_wild or wh.wilds == 1):
        # the 爆头 reading: the rest (less the pair) and a pair of an honour it does not hold
        # win with the other wilds as jokers (``_wild_list``); packed from the 13 tiles'
        k = 27
        while k < 34 and wh.nat[k]:
            k += 1
        if k == 34:
            return None
        q = p
        q.cnt[k] = 2
        q.key[3] += 2 * P5[k - 27]
        q.ncon += 2
        baotou = _win(&q, SH_STANDARD, wh.wilds - 1) != 0
    # the physical kinds: the candidates, a natural of the wild's kind drawn as the proxy
    # (the slot itself is never a natural), and the wild
    mask = cand & ~((<uint64_t> 1) << wh.slot)
    if wh.wild != wh.slot and mask >> wh.wild & 1:
        mask |= (<uint64_t> 1) << wh.slot
    mask |= (<uint64_t> 1) << wh.wild
    # (one tuple of the most waits there can be, cut to those that win: no list)
    cdef tuple out = PyTuple_New(__builtin_popcountll(mask))
    memset(by_bits, 0, sizeof(by_bits))
    while mask:
        tile = __builtin_ctzll(mask)
        mask &= mask - 1
        if wh.held[tile] + (gone if tile == wh.wild else 0) >= 4:
            continue
        drawn = _role_of(&wh, tile)
        g = 8 if drawn == wh.slot else (
            std >> drawn & 1 | (three >> drawn & 1) << 1 | (oddm >> drawn & 1) << 2)
        e = by_bits[g]
        if e == NULL:
            if g == 8:
                wilds = wh.wilds + 1
                odd = odd0
                gen = gen0
                st = _win(&p, SH_STANDARD, wilds) != 0
            else:
                wilds = wh.wilds
                odd = odd0 + (-1 if g & 4 else 1)
                gen = gen0 + (g >> 1 & 1)
                st = g & 1
            qd = t.qidui and wh.nmelds == 0 and wilds >= odd and (wilds - odd) % 2 == 0
            key = qd | st << 1 | gen << 2
            for i in range(nv):
                if vals[i].key == key:
                    e = &vals[i]
                    break
            by_bits[g] = e
        if e == NULL:
            i = nv
            if nv == 8:
                return None  # (cannot happen: gen is gen0 or gen0 + 1, so 8 keys at most)
            e = &vals[nv]
            by_bits[g] = e
            nv += 1
            e.key = key
            nr = 0
            if qd:
                rb[nr] = (<uint64_t> 1) << F_QIDUI
                nr += 1
            if st:
                rb[nr] = (<uint64_t> 1) << F_STANDARD
                nr += 1
            e.gd = _wild_value(t, rb, nr, gen, wh.nmelds, cd, &e.vd, &chosen)
            if baotou:
                rb[nr] = (<uint64_t> 1) << F_STANDARD | (<uint64_t> 1) << F_WILD_PAIR
                nr += 1
            seen = 0
            for i in range(nr):
                seen |= rb[i]
            e.gs = _wild_value(t, rb, nr, gen, wh.nmelds, cs, &e.vs, &chosen)
            if e.gs < 0 or e.gd < 0:
                return None
            if (seen & cs.require) != cs.require:
                e.gs = 0  # (a self-draw without the readings required: no win)
            if not e.gs and not e.gd:
                continue  # (no wait of this value: no hits, no class)
            hd = t._hits(&e.vd, -1) if e.gd else ()
            hs = t._hits(&e.vs, -1) if e.gs else ()
            e.hd = <PyObject*> hd
            e.hs = <PyObject*> hs
            e.d = e.vd.value if e.gd else 0
            e.s = e.vs.value if e.gs else 0
            e.cls = _wait_class(t, e.d, e.s, e.hd, e.hs, since)
            if e.cls == NULL:
                if hits is None:
                    hits = []
                hits.append(hd)
                hits.append(hs)
        elif not e.gs and not e.gd:
            continue
        unseen = 4 - wh.held[tile]
        if visible is not None:
            unseen -= <int> visible[tile]
        if unseen < 0:
            unseen = 0
        w = _wait_of(t, e.cls, tile, unseen) if e.cls != NULL else _wait_new(
            t, tile, e.d, e.s, unseen, <object> e.hd, <object> e.hs)
        Py_INCREF(w)
        PyTuple_SET_ITEM(out, n, w)
        n += 1
    if n < len(out):
        out = out[:n]
    PyObject_GC_UnTrack(out)  # (immutable, its items untracked)
    return out


def _c_wild_readings(hand, tile, int wild, int proxy, bint self_drawn, bint qidui=True,
                     bint wild_pair_sets_wild=True):
    """The wild readings ``score_wild`` values, for the tests that hold them against the
    Python statement (``common.compiled.wild_features_of``): a list of (feature bits,
    counted features), or None when the Python path must answer."""
    cdef WildHand wh
    cdef CompiledContext c = CompiledContext(0, self_drawn, None, wild=wild, proxy=proxy)
    cdef uint64_t rb[3]
    cdef int gen, nr, i, t = _tile_of(tile)
    if t < 0 or _wild_hand(hand, c, 3 * len(getattr(hand, "melds", ())) + (
            hand.concealed_count if isinstance(hand, HandBase) else 14), &wh) < 0:
        return None
    nr = _wild_list(&wh, _role_of(&wh, t), self_drawn, qidui, wild_pair_sets_wild, rb, &gen)
    if nr < 0:
        return None
    return [(rb[i], (gen, wh.nmelds)) for i in range(nr)]


# ---------------------------------------------------------------- scoring placements
#
# ``CompiledTable.score_placed``: the evaluator on a ``Hand`` whose wilds (the copies of the
# context's wild kind held concealed) are read in every placement, as ``common.wilds.
# wild_readings`` lists them (the core's search, ``_wild_search``; without a wild the plain
# readings, ``_readings``). Each placement is a C reading: the declared sets, the concealed
# sets, the pair, what each wild stands for. Its features are the sets' (``pung``,
# ``pair258`` …), the tiles' as placed (each wild as the kind it stands for: ``qing``, ``zi``,
# ``only258``), the hand's (``claimed4``, ``melds``) and ``wilds_in`` (wilds standing for
# another kind). The policy values each; the best is taken (value, then no wild standing
# in, then more ``tie_patterns``, then the earlier of them, then the first placement). The
# hand's own doublings (``meld_factors``, ``open_factor``) multiply the multiplier; the
# payments come from the context's ``pay(base, multiplier, patterns)``.

cdef enum:
    PLACED_MAX = 512      # placements listed by the core; more: the Python path


cdef inline bint _placed_better(const Valued_* v, bint hard, const Valued_* b, bint bhard,
                                uint64_t tie) noexcept nogil:
    cdef uint64_t d
    cdef int nv, nb
    if v.value != b.value:
        return v.value > b.value
    if hard != bhard:
        return hard
    d = (v.found ^ b.found) & tie
    if d == 0:
        return 0
    nv = __builtin_popcountll(v.found & tie)
    nb = __builtin_popcountll(b.found & tie)
    if nv != nb:
        return nv > nb
    return v.found >> __builtin_ctzll(d) & 1


cdef object _hits_found(CompiledTable t, const Valued_* v):
    """Every pattern counted (table order), then the extras: kept in the table's
    ``hits_kept`` under the patterns (bit 62 set, 63 clear: not one of ``_hits``'s keys) and
    each extra's count, as ``_hits`` keeps its tuples."""
    cdef int i, j, k = 0
    cdef uint64_t key[2]
    cdef HitsSlot* slot = NULL
    if v.nextra == 0 and v.found and not v.found & (v.found - 1):  # (one pattern: no popcount,
        return t.alone_hits[v.main]                                 # a library call here)
    if t.policy != POL_ADDITIVE and v.found >> 62 == 0 and _hits_key(v, key):
        key[0] = v.found | (<uint64_t> 1) << 62
        got = t._hits_kept(key, &slot)
        if got is not None:
            return got
    cdef tuple out = PyTuple_New(__builtin_popcountll(v.found) + v.nextra)
    for i in range(t.npat):
        if v.found >> i & 1:
            _put(out, k, t.pattern_hits[i])
            k += 1
    for j in range(v.nextra):
        _put(out, k, (<list> t.extra_hits[v.extra_idx[j]])[v.extra_n[j]])
        k += 1
    PyObject_GC_UnTrack(out)
    if slot != NULL:
        _hits_keep(slot, key, out)
    return out


cdef struct PlacedMelds:  # what score_placed reads of the declared melds
    MeldInfo mi
    uint64_t kinds        # the kinds of their tiles
    int factor            # the hand's doublings
    bint opened, kong


cdef int _placed_melds(CompiledTable t, tuple melds, int w, PlacedMelds* pm) except -2:
    """The declared melds as sets, their doublings and kinds; -1 when the Python path must
    answer (a kind not in the table's data, a meld holding the wild or one of ``no_kinds``, a
    one-tile meld that may not be laid aside, a chi that is not a run)."""
    cdef int mk, x
    pm.mi.n = 0
    pm.kinds = 0
    pm.factor = 1
    pm.opened = pm.kong = 0
    for m in melds:
        code = t.meld_codes.get((<tuple> m)[0])
        tiles = <tuple> (<tuple> m)[1]
        if code is None:
            return -1
        mk = (<int> code) & 15
        if len(tiles) < 3:  # laid aside: of the wild kind (15), or of ``no_kinds`` (14)
            x = tiles[0]
            if mk < 14 or (mk == 15 and x != w) or (mk == 14 and not t.no_kinds >> x & 1):
                return -1
            pm.kong = 1
        else:
            if mk >= 14 or pm.mi.n == RD_SETS:
                return -1
            for y in tiles:
                x = y
                if x == w or t.no_kinds >> x & 1:
                    return -1
                pm.kinds |= (<uint64_t> 1) << x
            x = tiles[0]
            if mk == MK_CHI and not (<int> tiles[1] == x + 1 and <int> tiles[2] == x + 2):
                return -1
            pm.mi.sets[pm.mi.n].kind = SET_CHOW if mk == MK_CHI else SET_PUNG if mk == MK_PENG \
                else SET_KONG
            pm.mi.sets[pm.mi.n].tile = x
            pm.mi.sets[pm.mi.n].concealed = mk == MK_ANGANG
            pm.mi.sets[pm.mi.n].meld = mk
            pm.mi.n += 1
            pm.kong = pm.kong or mk >= MK_GANG
        if (<int> code) & 16:
            pm.opened = 1
        pm.factor *= (<int> code) >> 8
    if pm.opened:
        pm.factor *= t.open_factor
    return 0


cdef tuple _MELD_NAMES = tuple(sorted(_MELD_KINDS, key=_MELD_KINDS.get))  # by MK_* - 1
cdef object _codes_of = None      # the table whose ``meld_codes`` ``_codes`` holds (made once)
cdef int _codes[MK_BUGANG + 1]    # by MK_*, -1: none (a dict look-up per meld cost ~100)


cdef int _placed_melds_packed(CompiledTable t, HandBase h, int w, PlacedMelds* pm) except -2:
    """``_placed_melds`` from the sets a ``Hand`` packed when it was made (its ``mi``), not
    from its Meld objects (a cold hand's objects cost a memory miss each); -1 when it has a
    one-tile meld or one ``mi`` does not hold (``_placed_melds`` then reads them)."""
    global _codes_of
    cdef int i, mk, x, code
    cdef const RSet* st
    if not h.melds_plain or h.mi.n != h.n_melds:
        return -1
    if t is not _codes_of:
        for mk in range(MK_CHI, MK_BUGANG + 1):
            got = t.meld_codes.get(_MELD_NAMES[mk - 1])
            _codes[mk] = -1 if got is None else got
        _codes_of = t
    pm.mi = h.mi
    pm.kinds = 0
    pm.factor = 1
    pm.opened = pm.kong = 0
    for i in range(h.mi.n):
        st = &h.mi.sets[i]
        mk = st.meld
        code = _codes[mk] if MK_CHI <= mk <= MK_BUGANG else -1
        if code < 0:
            return -1
        for x in range(st.tile, st.tile + (3 if st.kind == SET_CHOW else 1)):
            if x == w or t.no_kinds >> x & 1:
                return -1
            pm.kinds |= (<uint64_t> 1) << x
        pm.kong = pm.kong or mk >= MK_GANG
        if code & 16:
            pm.opened = 1
        pm.factor *= code >> 8
    if pm.opened:
        pm.factor *= t.open_factor
    return 0


cdef struct PlacedRow:    # one placement's features, its context's left out
    uint64_t bits
    int counts[NCOUNTED]
    bint hard             # no wild stands for another kind
    int src               # the placement's index in the search (its decomposition)


cdef struct Placements:   # the distinct rows of one hand's placements, first seen first
    PlacedRow rows[PLACED_MAX]
    int n
    CReading rs[RD_MAX]   # the readings of a hand with no wild
    WildSearch ws         # the search of a hand with wilds (its rows: the caller frees them)


cdef int _placed_rows(const Packed* p, const PlacedMelds* pm, int w, Placements* out) noexcept:
    """The features of every placement of the concealed tiles ``p`` (the melds ``pm``), each
    distinct row once, in the order first found (a repeat is worth what its first is in any
    context, and the first wins a tie: it can never be chosen). 0, or -2 when the Python path
    must answer. ``out.ws.rows``: the caller frees it."""
    cdef int counts[NCOUNTED + NCTXCOUNTED]
    cdef int hand_counts[NCOUNTED + NCTXCOUNTED]
    cdef CReading r
    cdef uint8_t cnt[34]
    cdef const CReading* row
    cdef PlacedRow* x
    cdef int nr, i, j, k, nin, x_
    cdef uint64_t base = pm.kinds, mask, bits, hand_bits = 0, hand_mask = 0
    cdef bint wild = p.cnt[w] != 0
    for x_ in range(34):
        if p.cnt[x_] and x_ != w:
            base |= (<uint64_t> 1) << x_
    out.n = 0
    out.ws.rows = NULL
    if not wild:
        nr = _readings(p, &pm.mi, 0, out.rs)
        if nr < 0:
            return -2
    else:
        memcpy(cnt, p.cnt, 34)
        if _wild_search(&out.ws, cnt, w, 4 - pm.mi.n, 1) or out.ws.nrows > PLACED_MAX:
            return -2
        nr = out.ws.nrows
    memset(counts, 0, sizeof(counts))
    memset(hand_counts, 0, sizeof(hand_counts))
    for i in range(nr):
        mask = base
        nin = 0
        if not wild:
            row = &out.rs[i]
        else:  # the declared sets first, then the placement's
            r = out.ws.rows[i]
            if pm.mi.n + r.nsets > RD_SETS:
                return -2
            for j in range(r.nsets):
                r.sets[pm.mi.n + r.nsets - 1 - j] = r.sets[r.nsets - 1 - j]
            for j in range(pm.mi.n):
                r.sets[j] = pm.mi.sets[j]
            r.nsets += pm.mi.n
            row = &r
            for j in range(r.nwilds):
                mask |= (<uint64_t> 1) << r.wild_as[j]
                nin += r.wild_as[j] != w
        if i == 0 or mask != hand_mask:  # (the hand's features read the kinds held alone)
            hand_bits = _hand_bits(p, &pm.mi, mask, hand_counts)
            hand_mask = mask
        memcpy(counts, hand_counts, sizeof(counts))
        bits = hand_bits | _reading_bits(row, -1, -1, counts)
        counts[C_WILDS_IN] = nin
        for k in range(out.n):
            x = &out.rows[k]
            if x.bits == bits and memcmp(x.counts, counts, sizeof(x.counts)) == 0:
                break
        else:
            x = &out.rows[out.n]
            out.n += 1
            x.bits = bits
            memcpy(x.counts, counts, sizeof(x.counts))
            x.hard = nin == 0
            x.src = i
    return 0


cdef int _placed_choose(CompiledTable t, const Placements* pl, CompiledContext c,
                        Valued_* best) noexcept:
    """The best row of ``pl`` in context ``c`` (value, then no wild standing in, then more
    ``tie_patterns``, then the earlier of them, then the first): its index with its value in
    ``best``; -1 when none is valued (no win), -2 when the Python path must answer."""
    cdef int counts[NCOUNTED + NCTXCOUNTED]
    cdef Valued_ v
    cdef int i, got, bi = -1
    cdef bint bhard = 0
    memset(counts, 0, sizeof(counts))
    memset(best, 0, sizeof(Valued_))
    for i in range(pl.n):
        memcpy(counts, pl.rows[i].counts, sizeof(pl.rows[i].counts))
        v.flat = -1
        v.unlisted = 0
        got = t._value(pl.rows[i].bits | c.bits, counts, &v)
        if got < 0:
            return -2
        if not got:
            continue
        if bi < 0 or _placed_better(&v, pl.rows[i].hard, best, bhard, t.tie_patterns):
            bi = i
            best[0] = v
            bhard = pl.rows[i].hard
    if bi < 0 or best.mainval <= 0:
        return -1
    return bi


cdef object _placed_best(CompiledTable t, const Packed* p, const PlacedMelds* pm, int w,
                         CompiledContext c, bint want_dec, Valued_* best, int* status):
    """The best placement of the concealed tiles ``p`` (the melds ``pm``): its value in
    ``best``, ``status`` 0, and its decomposition (with ``want_dec``); ``status`` -1 when no
    placement is valued (no win), -2 when the Python path must answer."""
    cdef Placements pl
    cdef int bi
    dec = None
    try:
        status[0] = -2
        if _placed_rows(p, pm, w, &pl) < 0:
            return None
        bi = _placed_choose(t, &pl, c, best)
        status[0] = bi if bi < 0 else 0
        if bi >= 0 and want_dec:
            dec = t._decomposition(&pl.rs[pl.rows[bi].src]) if p.cnt[w] == 0 else \
                _placed_decomposition(t, &pl.ws.rows[pl.rows[bi].src])
    finally:
        free(pl.ws.rows)
    return dec


cdef object _placed_paid(CompiledTable t, const Valued_* best, int factor, CompiledContext c,
                         int* mult):
    """The context's ``pay(base, multiplier, patterns)`` answer for the value ``best`` (kept per
    context), the multiplier in ``mult``; None when the payment refuses it."""
    cdef int hb = best.mainval
    cdef long long m = <long long> (best.value // hb) * factor
    if m > 1000000000:
        return None
    mult[0] = <int> m
    key = (hb, mult[0], best.found)
    paid = c.paid.get(key)
    if paid is None:
        paid = c.pay(hb, mult[0], best.found)
        if paid is None:
            return None  # refused (below a minimum)
        if len(c.paid) >= 4096:
            c.paid.clear()
        c.paid[key] = paid
    return paid


cdef int _placed_pays(CompiledTable t, const Valued_* v, int factor, CompiledContext c,
                      int* mult) except -1:
    """1 when ``_placed_paid`` of ``v`` is an answer (the multiplier in ``mult``), 0 when it
    is None; remembered in the context's ``paid_known`` (a waits list asks few values, again
    and again: no Python key to build)."""
    cdef long long m = <long long> (v.value // v.mainval) * factor
    cdef uint64_t k0, k1 = v.found
    cdef uint64_t* e
    if m > 1000000000:
        return 0
    mult[0] = <int> m
    if c.pays_from >= 0:  # (the rule set says which values pay refuses)
        return v.mainval * m >= c.pays_from
    if c.paid_known == NULL:
        c.paid_known = <uint64_t*> calloc(3 * PAID_SEEN, sizeof(uint64_t))
        if c.paid_known == NULL:
            raise MemoryError()
    k0 = <uint64_t> <uint32_t> v.mainval | (<uint64_t> m) << 32
    e = &c.paid_known[3 * (((k0 ^ k1 * 0xC2B2AE3D27D4EB4Fu) * 0x9E3779B97F4A7C15u) >> 58)]
    if e[2] and e[0] == k0 and e[1] == k1:  # (PAID_SEEN 64: 6 bits of the hash)
        return e[2] == 1
    got = _placed_paid(t, v, factor, c, mult) is not None
    e[0] = k0
    e[1] = k1
    e[2] = 1 if got else 2
    return got


cdef object _score_placed(CompiledTable t, object hand, object tile_obj, CompiledContext c):
    cdef int tile = _tile_of(tile_obj), w = c.wild, x, status, mult
    cdef HandBase h
    cdef const Packed* p
    cdef PlacedMelds pm
    cdef Valued_ best
    if tile < 0 or not 0 <= w < 34 or not isinstance(hand, HandBase):
        return None
    h = <HandBase> hand
    p = &h.p
    if _placed_melds(t, h.melds, w, &pm) < 0 or not c.melds_fit(&pm.mi, pm.mi.n):
        return None
    if p.ncon + 3 * pm.mi.n != t.hand_tiles or p.cnt[tile] == 0 or (
            t.must_open and not pm.opened) or (c.needs_kong and not pm.kong) or (
            not c.self_drawn and c.blocked >> tile & 1):
        return None
    for x in range(34):
        if p.cnt[x] and t.no_kinds >> x & 1:
            return None
    dec = _placed_best(t, p, &pm, w, c, 1, &best, &status)
    if status < 0:
        return None
    paid = _placed_paid(t, &best, pm.factor, c, &mult)
    if paid is None:
        return None  # the Python path says why
    out = mj_tuple_of(t.result_type, 12)
    _put(out, 0, t.name)
    _put(out, 1, t.unit)
    _put(out, 2, best.mainval * mult)
    _put(out, 3, best.mainval * mult)
    _put(out, 4, mult)
    _put(out, 5, _hits_found(t, &best))
    _put(out, 6, dec)
    _put(out, 7, "standard")
    _put(out, 8, c.self_drawn)
    _put(out, 9, (<tuple> paid)[0])
    _put(out, 10, (<tuple> paid)[1])
    _put(out, 11, (<tuple> paid)[2])
    PyObject_GC_UnTrack(out)
    return out


cdef object _valued_waits_placed(CompiledTable t, object hand, CompiledContext cd,
                                 CompiledContext cs, object visible):
    """``valued_waits`` of a ready ``Hand`` scored by placements: every kind that completes it
    (the core's joker wait test on the naturals, the wild kind when the naturals win with one
    more wild), less kinds of which four are held (with the tiles the contexts say are held
    elsewhere) and ``no_kinds``, valued on a discard (``cd``) and self-drawn (``cs``): its
    value there, 0 where it does not win. () for a hand that cannot win (one of ``no_kinds``
    held, not opened when it must be); None when the Python path must answer (it refuses a
    hand that makes a fifth copy with the tiles held elsewhere). One search serves every
    kind (``_placed_waits_shared``); past its bounds, the wait test and a search per kind."""
    cdef HandBase h
    cdef PlacedMelds pm
    cdef Packed q, x
    cdef Valued_ vd, vs
    cdef Placements pl
    cdef uint8_t nat[34]
    cdef uint64_t mask, want, concealed, full = 0
    cdef int w = cs.wild, k, s, sd_, ss = 0, md, ms, unseen
    if not isinstance(hand, HandBase) or not 0 <= w < 34 or cd.wild != w:
        return None
    h = <HandBase> hand
    if cd.any_elsewhere or cs.any_elsewhere:
        if _fifth_copy(&h.p, cd) or _fifth_copy(&h.p, cs):
            return None
        for k in range(34):  # (a kind of which the hand and another seat's melds hold four)
            if h.p.cnt[k] + 4 - h.p.cap[k] + max(cd.elsewhere[k], cs.elsewhere[k]) >= 4:
                full |= (<uint64_t> 1) << k
    if (_placed_melds_packed(t, h, w, &pm) < 0 and _placed_melds(t, h.melds, w, &pm) < 0) \
            or h.p.ncon + 3 * pm.mi.n != t.hand_tiles - 1 \
            or (cs.needs_kong and not pm.kong) or (cd.needs_kong and not pm.kong) or \
            not cs.melds_fit(&pm.mi, pm.mi.n) or not cd.melds_fit(&pm.mi, pm.mi.n):
        return None
    concealed = _concealed_kinds(&h.p)
    if concealed & t.no_kinds:
        return ()
    if t.must_open and not pm.opened:
        return ()
    # one search for every candidate, its placements telling the kinds that complete the
    # hand (the wait test's, four held excepted: ``h.p.four``); past its bounds, the wait
    # test and a search per candidate
    want = (((<uint64_t> 1) << 34) - 1) & ~h.p.four & ~t.no_kinds & ~full
    if not concealed >> w & 1 and not _some_four(&h.p):
        # no wild held, no kind drawn a fifth time: the core's readings, no search
        shared = _plain_waits_shared(t, h, &pm, w, want, cd, cs, visible)
        if shared is not NotImplemented:
            return shared
    shared = _placed_waits_shared(t, h, &pm, w, want, cd, cs, visible)
    if shared is not NotImplemented:
        return shared
    memcpy(nat, h.p.cnt, 34)
    nat[w] = 0
    _pack(&q, nat, pm.mi.n, 0)
    mask = _waits(&q, SH_STANDARD, h.p.cnt[w])
    q.cnt[w] = 0
    if _win(&q, SH_STANDARD, h.p.cnt[w] + 1):
        mask |= (<uint64_t> 1) << w
    out = []
    while mask:
        k = __builtin_ctzll(mask)
        mask &= mask - 1
        if <int> h.held[k] >= 4 or (t.no_kinds | full) >> k & 1:
            continue
        x = h.p
        s = t_suit(k)
        x.cnt[k] += 1
        x.key[s] += P5[k - s * 9]
        x.ncon += 1
        # one search, valued on a discard and self-drawn
        sd_ = _placed_rows(&x, &pm, w, &pl)
        free(pl.ws.rows)
        if sd_ == 0:
            sd_ = _placed_choose(t, &pl, cd, &vd)
            ss = _placed_choose(t, &pl, cs, &vs)
        if sd_ == -2 or ss == -2:
            return None
        sd_ = min(sd_, 0)
        ss = min(ss, 0)
        dd = _placed_paid(t, &vd, pm.factor, cd, &md) if sd_ == 0 else None
        dsd = _placed_paid(t, &vs, pm.factor, cs, &ms) if ss == 0 else None
        if dd is None and dsd is None:
            continue
        unseen = 4 - <int> h.held[k] - (0 if visible is None else <int> visible[k])
        wt = mj_tuple_of(t.wait_type, 7)
        _put(wt, 0, (<tuple> _wait_objects[k])[0])
        _put(wt, 1, k)
        _put(wt, 2, vd.mainval * md if dd is not None else 0)
        _put(wt, 3, vs.mainval * ms if dsd is not None else 0)
        _put(wt, 4, unseen if unseen > 0 else 0)
        _put(wt, 5, _hits_found(t, &vd) if dd is not None else ())
        _put(wt, 6, _hits_found(t, &vs) if dsd is not None else ())
        PyObject_GC_UnTrack(wt)
        out.append(wt)
    return tuple(out)


cdef enum:
    SHARED_READINGS = 1024  # readings of a ready hand's one search (``_placed_waits_shared``)
    SHARED_ROWS = 64        # distinct rows of features over all its candidates
    ROW_INDEX = 128         # their hash index (a power of 2, above SHARED_ROWS)
    SHARED_SLOTS = 64       # placements told apart in one call
    SHARED_BUFFER = 64      # the search's rows kept on the stack (more: on the heap)
    COUNT_BITS = 7          # a counted feature in a row's key: 0 to 127


cdef struct SharedRows:   # the distinct rows of features the candidates meet, valued both ways
    int n
    int8_t index[ROW_INDEX]       # each row's index at its hash (open addressing), -1: empty
    uint64_t bits[SHARED_ROWS]
    uint64_t counts[SHARED_ROWS]  # the counted features, COUNT_BITS each (``_packed_counts``)
    bint hard[SHARED_ROWS]        # no wild stands for another kind
    bint valued[SHARED_ROWS][2]   # per way (0: on a discard, 1: self-drawn): it has a value
    Valued_ v[SHARED_ROWS][2]


cdef inline int _packed_counts(const int* counts, uint64_t* key) noexcept nogil:
    """The counted features in one word, COUNT_BITS each; -1 when one does not fit."""
    cdef int i
    key[0] = 0
    if NCOUNTED * COUNT_BITS > 64:
        return -1
    for i in range(NCOUNTED):
        if not 0 <= counts[i] < 1 << COUNT_BITS:
            return -1
        key[0] |= (<uint64_t> counts[i]) << (COUNT_BITS * i)
    return 0


cdef enum:
    ROWS_KEPT = 1024  # rows valued for the last table and its two waits contexts (384 KB)
    ROWS_SHIFT = 54   # 64 - log2(ROWS_KEPT): the hash bits that pick a slot


cdef struct RowKept:      # one row's values in the two waits contexts, kept by ``_row_values``
    uint64_t bits         # the row's features, the contexts' left out
    uint64_t key          # its counted features, packed
    uint32_t gen          # ``_rows_gen`` when kept (0: never)
    bint got[2]           # the table's answers per way (0: on a discard, 1: self-drawn)
    Valued_ v[2]


cdef RowKept* _rows_kept = NULL
cdef uint32_t _rows_gen = 0
# whose values ``_rows_kept`` holds: held, so no later object takes their identity; new
# contexts (a context first asked, or any after ``clear_caches``) start a new generation
cdef object _rows_t = None
cdef object _rows_cd = None
cdef object _rows_cs = None


cdef int _rows_for(CompiledTable t, CompiledContext cd, CompiledContext cs) noexcept:
    """``_rows_kept`` made the values of ``t`` in ``cd`` and ``cs`` (the caller asks when they
    are not its owners): a new generation; -1 out of memory (the caller hands the question
    back)."""
    global _rows_kept, _rows_gen, _rows_t, _rows_cd, _rows_cs
    if _rows_kept == NULL:
        _rows_kept = <RowKept*> calloc(ROWS_KEPT, sizeof(RowKept))  # (pages on use only)
        if _rows_kept == NULL:
            return -1
    _rows_gen += 1
    if _rows_gen == 0:  # (wrapped: every slot emptied once in 2**32 new contexts)
        memset(_rows_kept, 0, ROWS_KEPT * sizeof(RowKept))
        _rows_gen = 1
    _rows_t, _rows_cd, _rows_cs = t, cd, cs
    return 0


cdef inline const RowKept* _row_values(CompiledTable t, uint64_t bits, uint64_t key,
                                       CompiledContext cd, CompiledContext cs) noexcept:
    """``t._value`` of a row (its features ``bits``, its counted ones packed in ``key``, the
    context's none) on a discard (``cd``) and self-drawn (``cs``), kept in ``_rows_kept``:
    the rows a context's waits meet repeat from hand to hand, and a value reads nothing else
    (``_rows_for`` first). NULL when the Python path must answer."""
    cdef RowKept* e = &_rows_kept[
        ((bits ^ key * 0xC2B2AE3D27D4EB4Fu) * 0x9E3779B97F4A7C15u) >> ROWS_SHIFT]
    cdef int j, way, got
    cdef int full[NCOUNTED + NCTXCOUNTED]
    if e.gen == _rows_gen and e.bits == bits and e.key == key:
        return e
    memset(full, 0, sizeof(full))  # (the context's counted features: none, as _placed_choose)
    for j in range(NCOUNTED):
        full[j] = key >> (COUNT_BITS * j) & ((1 << COUNT_BITS) - 1)
    e.gen = 0  # (refilled below: not a row's until then)
    for way in range(2):
        e.v[way].flat = -1
        e.v[way].unlisted = 0
        got = t._value(bits | (cd if way == 0 else cs).bits, full, &e.v[way])
        if got < 0:
            return NULL
        e.got[way] = got != 0
    e.gen = _rows_gen
    e.bits = bits
    e.key = key
    return e


# what a placed table's conditions may name (``compiled._check_wild``): its rows are told
# apart by these features and counts alone (``_shared_row``)
cdef uint64_t PLACED_BITS = 0
for _f in PLACED_FEATURES:
    PLACED_BITS |= (<uint64_t> 1) << FEATURES.index(_f)
cdef uint64_t PLACED_COUNTS = ((<uint64_t> 1 << COUNT_BITS) - 1) << (COUNT_BITS * C_MELDS) | \
    ((<uint64_t> 1 << COUNT_BITS) - 1) << (COUNT_BITS * C_WILDS_IN)


cdef inline int _shared_row(CompiledTable t, SharedRows* rows, uint64_t bits, uint64_t key,
                            CompiledContext cd, CompiledContext cs) noexcept:
    """The index of the row (``bits``, counts packed in ``key``; what a placed table cannot
    read left out) in ``rows``, added and valued both ways when new; -1 past SHARED_ROWS, -2
    when the Python path must answer."""
    cdef int i
    cdef uint64_t at
    bits &= PLACED_BITS
    key &= PLACED_COUNTS
    at = ((bits ^ key * 0xC2B2AE3D27D4EB4Fu) * 0x9E3779B97F4A7C15u) >> 57
    while rows.index[at] >= 0:  # (ROW_INDEX 128: 7 bits of the hash)
        i = rows.index[at]
        if rows.bits[i] == bits and rows.counts[i] == key:
            return i
        at = (at + 1) & (ROW_INDEX - 1)
    return _shared_row_added(t, rows, bits, key, at, cd, cs)


cdef int _shared_row_added(CompiledTable t, SharedRows* rows, uint64_t bits, uint64_t key,
                           uint64_t at, CompiledContext cd, CompiledContext cs) noexcept:
    """``_shared_row`` of a row not in ``rows``, whose index goes at ``at``."""
    cdef int i, way
    cdef const RowKept* e
    if rows.n == SHARED_ROWS:
        return -1
    if t is not _rows_t or cd is not _rows_cd or cs is not _rows_cs:
        if _rows_for(t, cd, cs) < 0:
            return -2
    e = _row_values(t, bits, key, cd, cs)
    if e == NULL:
        return -2
    i = rows.n
    rows.n += 1
    rows.index[at] = i
    rows.bits[i] = bits
    rows.counts[i] = key
    rows.hard[i] = (key >> (COUNT_BITS * C_WILDS_IN) & ((1 << COUNT_BITS) - 1)) == 0
    for way in range(2):
        rows.valued[i][way] = e.got[way]
        if e.got[way]:
            rows.v[i][way] = e.v[way]
    return i


cdef inline void _shared_offer(const SharedRows* rows, int* best, int ri,
                               uint64_t tie) noexcept nogil:
    """Row ``ri`` offered to a candidate whose best rows per way are ``best``."""
    cdef int way, k
    for way in range(2):
        k = best[way]
        if k != ri and rows.valued[ri][way] and (k < 0 or _placed_better(
                &rows.v[ri][way], rows.hard[ri], &rows.v[k][way], rows.hard[k], tie)):
            best[way] = ri


# the features of a standard reading that each of its sets must allow (``_reading_bits``)
cdef uint64_t SETS_ALL = (<uint64_t> 1) << F_PUNG | (<uint64_t> 1) << F_CHOW | \
    (<uint64_t> 1) << F_YAOJIU


cdef uint64_t _declared_bits(const MeldInfo* mi) noexcept nogil:
    """The features of the declared sets ``_reading_bits`` gives beside a placement's (those of
    ``SETS_ALL`` that every one of them allows): the sets of a reading whose pair, 1m (a
    terminal, no honour, no 2-5-8), adds nothing (its counted features, honour pungs, no
    placed table reads: ``PLACED_COUNTS``)."""
    cdef CReading decl
    cdef int counts[NCOUNTED + NCTXCOUNTED]
    memset(counts, 0, sizeof(counts))
    decl.shape = RS_STANDARD
    decl.pair = 0
    decl.nwilds = 0
    decl.nsets = mi.n
    memcpy(decl.sets, mi.sets, mi.n * sizeof(RSet))
    return _reading_bits(&decl, -1, -1, counts)


cdef object _placed_waits_shared(CompiledTable t, HandBase h, const PlacedMelds* pm, int w,
                                 uint64_t want, CompiledContext cd, CompiledContext cs,
                                 object visible):
    """``_valued_waits_placed`` of the candidates ``want`` from one search, not one per
    candidate: the concealed tiles with one more wild, the "hole". A placement where the hole
    stands for kind c (c not the wild kind) is a placement of the hand with c drawn (its copy
    of c where the hole is, the other wilds as they are); read with the hole as a wild, it is
    one of the hand with a wild drawn. So each placement serves the kinds its wilds stand for
    and the wild kind, every one of a candidate's placements is met (the search lists every
    placement of sets and stand-ins, see ``_wild_natural``), and each candidate keeps its
    best row per way as ``_placed_choose`` does (rows of equal value, hardness and
    ``tie_patterns`` are left in search order, here another than the candidate's own: in the
    tables this serves such rows list the same hits). A placement met again (same sets and
    stand-ins: the search lists repeats) is skipped; each distinct row is valued once per
    way for every candidate. A pair of wilds alone (the rest of the placement alike) is
    listed for one kind of each class its rows cannot tell apart (``_pair_kind_class``),
    whose rows serve the class's other kinds. NotImplemented past the bounds (the caller
    searches per candidate); None when the Python path must answer."""
    cdef WildSearch ws
    cdef Placement found[SHARED_BUFFER]  # the search's rows while they fit (most hands)
    cdef SharedRows rows
    cdef uint64_t seen[SHARED_SLOTS][2]  # placements met: features, stand-ins
    cdef uint64_t seen_used = 0  # which slots hold something
    cdef int best[34][2]  # per candidate and way: its best row so far, -1: none
    cdef uint64_t met = 0  # candidates some placement serves (``best`` holds for those)
    cdef const Placement* r
    cdef uint8_t cnt[34]
    cdef int hcounts[NCOUNTED + NCTXCOUNTED]
    cdef uint64_t base = pm.kinds, mask, rbits, stood, slot, hbits, declared
    cdef uint64_t hand, hkey, others
    cdef int i, j, c, k, prev, nin, nall, ri, pk, ri_pk
    cdef bint alone  # a placement whose pair of wilds alone stands for kind ``pk``
    base |= _concealed_kinds(&h.p) & ~((<uint64_t> 1) << w)
    rows.n = 0
    memset(rows.index, -1, sizeof(rows.index))
    declared = _declared_bits(&pm.mi)
    # the hand's features, c drawn, but those the kinds held decide (``_held_bits``, per
    # placement): ``_hand_bits`` reads the concealed counts only for F_LONG and
    # F_NINE_GATES, which no placed table reads (``PLACED_FEATURES``; ``four``, as in
    # ``_placed_rows``, stays the ready hand's), so the ready hand's serve every candidate
    memset(hcounts, 0, sizeof(hcounts))
    hand = _hand_bits(&h.p, &pm.mi, base, hcounts) & ~(
        HELD_FEATURES | (<uint64_t> 1) << F_NINE_GATES)
    if _packed_counts(hcounts, &hkey) < 0:
        return NotImplemented
    memcpy(cnt, h.p.cnt, 34)
    cnt[w] += 1  # the hole
    ws.rows = NULL
    ws.lean = NULL
    ws.borrowed = 0
    try:
        if _wild_search(&ws, cnt, w, 4 - pm.mi.n, 1, found, SHARED_BUFFER, 1, want) or \
                ws.nrows > SHARED_READINGS:
            return NotImplemented
        for i in range(ws.nrows):
            r = &ws.lean[i]  # (its sets; the declared ones are in ``declared``)
            alone = ws.run_rows[i >> 6] >> (i & 63) & 1  # (rows: SHARED_READINGS at most)
            pk = r.pair if alone else -1
            if pm.mi.n + r.nsets > RD_SETS:
                return None
            # the placement's features with the declared sets', as a placed table reads them
            rbits = r.bits & (declared | ~SETS_ALL)
            mask = base | r.mask  # (the same for every candidate it serves: c's kind is a
            nall = r.nall         # stand-in's)
            stood = r.stood
            # (a repeat: its rows are those met; a slot lost to another only costs the work)
            if not alone:  # (one met again serves the same kinds: not so its class's)
                slot = ((rbits ^ stood * 0x165667B19E3779F9u) * 0x9E3779B97F4A7C15u) >> 58
                if seen_used >> slot & 1 and seen[slot][0] == rbits and seen[slot][1] == stood:
                    continue  # (SHARED_SLOTS: 6 bits of the hash)
                seen_used |= (<uint64_t> 1) << slot
                seen[slot][0] = rbits
                seen[slot][1] = stood
            hbits = hand | _held_bits(mask)  # (the kinds held with c drawn: ``mask``)
            prev = -1
            ri_pk = -1
            for j in range(r.nwilds + 1):
                if j < r.nwilds:  # the hole as this stand-in's kind, drawn
                    c = r.wild_as[j]
                    if c == w or c == prev:
                        continue
                    prev = c
                    nin = nall - 1
                else:  # the hole as a drawn wild
                    c = w
                    nin = nall
                if not want >> c & 1:
                    continue
                # (disjoint counts: the hand's, wilds in)
                ri = _shared_row(t, &rows, hbits | rbits,
                                 hkey | (<uint64_t> nin) << (COUNT_BITS * C_WILDS_IN), cd, cs)
                if ri == -2:
                    return None
                if ri < 0:
                    return NotImplemented
                if not met >> c & 1:
                    met |= (<uint64_t> 1) << c
                    best[c][0] = best[c][1] = -1
                _shared_offer(&rows, best[c], ri, t.tie_patterns)
                if c == pk:
                    ri_pk = ri
            # the other kinds of its class (wanted, as ``pk`` is): the same rows
            others = _CLASS_KINDS[_KIND_CLASS[pk]] & want & ~((<uint64_t> 1) << w | \
                (<uint64_t> 1) << pk) if alone and ri_pk >= 0 and pk != w else 0
            while others:
                k = __builtin_ctzll(others)
                others &= others - 1
                if not met >> k & 1:
                    met |= (<uint64_t> 1) << k
                    best[k][0] = best[k][1] = -1
                _shared_offer(&rows, best[k], ri_pk, t.tie_patterns)
    finally:
        _wild_free(&ws)
    return _shared_waits_out(t, h, pm, &rows, &best[0][0], want & met, cd, cs, visible)


cdef struct SuitSplits:   # one suit's split codes (``_split_code``) of a hand, found once
    int n                 # -1: not found yet
    uint32_t codes[RD_SPLITS]


cdef int _suit_codes(const Packed* p, int s, SuitSplits* out) noexcept nogil:
    """``out`` filled with suit s's splits; their count, -1 past RD_SPLITS."""
    cdef Split sp[RD_SPLITS]
    cdef int j
    out.n = _suit_split_list(p, s, sp)
    for j in range(out.n):
        out.codes[j] = _split_code(&sp[j])
    return out.n


cdef int _drawn_readings(const Packed* x, int k, const MeldInfo* mi, SuitSplits* ready,
                         CReading* out) noexcept nogil:
    """``_readings`` (standard, same order) of ``x``, a ready hand with kind ``k`` drawn that
    completes it, whose other suits' splits are the ready hand's (``ready``, found on first
    use, kept for the hand's other candidates). The count, -1 past RD_MAX or RD_SPLITS."""
    cdef SuitSplits drawn
    cdef const SuitSplits* suit
    cdef const uint32_t* codes[4]
    cdef int ns[4]
    cdef int s, ks = t_suit(k)
    for s in range(4):
        if s == ks:
            if _suit_codes(x, s, &drawn) < 0:
                return -1
            suit = &drawn
        else:
            if ready[s].n < 0 and _suit_codes(x, s, &ready[s]) < 0:  # (suit s as ready)
                return -1
            suit = &ready[s]
        if suit.n == 0:
            return 0
        codes[s] = suit.codes
        ns[s] = suit.n
    return _assemble_each(mi, codes, ns, out)


cdef object _plain_waits_shared(CompiledTable t, HandBase h, const PlacedMelds* pm, int w,
                                uint64_t want, CompiledContext cd, CompiledContext cs,
                                object visible):
    """``_placed_waits_shared`` of a hand holding no wild and at most three copies of each
    kind, from the core's readings, not the placement search: the hole standing for kind k
    is k drawn, so the placements are the readings of the hand with k drawn, k any kind
    that completes it (``_std_waits0``, four held or not: a drawn wild may stand for a
    fifth copy, as in the search). Each serves k (no wild in) and the wild kind (a wild in
    unless k is the wild kind), as the search's placements do. NotImplemented past the
    bounds; None when the Python path must answer."""
    cdef SharedRows rows
    cdef CReading rs[RD_MAX]
    cdef SuitSplits ready[4]  # the ready hand's suits' splits, found on first use
    cdef int best[34][2]  # per candidate and way: its best row so far, -1: none
    cdef uint64_t met = 0  # candidates some reading serves (``best`` holds for those)
    cdef int rcounts[NCOUNTED + NCTXCOUNTED]
    cdef int hcounts[NCOUNTED + NCTXCOUNTED]
    cdef uint64_t base = pm.kinds, kinds, rbits, hbits, hkey
    cdef Packed x
    cdef int i, k, s, nr, ri, nin
    cdef bint wild_wanted = want >> w & 1
    for k in range(34):
        if h.p.cnt[k]:
            base |= (<uint64_t> 1) << k
    kinds = _std_waits0(h.p.key)
    if not wild_wanted:
        kinds &= want  # (a kind only the wild kind's candidate would read)
    rows.n = 0
    memset(rows.index, -1, sizeof(rows.index))
    memset(rcounts, 0, sizeof(rcounts))
    ready[0].n = ready[1].n = ready[2].n = ready[3].n = -1
    if wild_wanted and kinds:
        met |= (<uint64_t> 1) << w
        best[w][0] = best[w][1] = -1
    while kinds:
        k = __builtin_ctzll(kinds)
        kinds &= kinds - 1
        x = h.p
        s = t_suit(k)
        x.cnt[k] += 1
        x.key[s] += P5[k - s * 9]
        x.ncon += 1
        nr = _drawn_readings(&x, k, &pm.mi, ready, rs)
        if nr < 0:
            return NotImplemented
        # the hand's features, k drawn (the ready hand's counts: see ``_placed_waits_shared``)
        memset(hcounts, 0, sizeof(hcounts))
        hbits = _hand_bits(&h.p, &pm.mi, base | (<uint64_t> 1) << k, hcounts)
        if _packed_counts(hcounts, &hkey) < 0:
            return NotImplemented
        if k != w and want >> k & 1:
            met |= (<uint64_t> 1) << k
            best[k][0] = best[k][1] = -1
        for i in range(nr):
            rbits = _reading_bits(&rs[i], -1, -1, rcounts)  # (its counts: none read)
            if k != w and want >> k & 1:  # k drawn
                ri = _shared_row(t, &rows, hbits | rbits, hkey, cd, cs)
                if ri == -2:
                    return None
                if ri < 0:
                    return NotImplemented
                _shared_offer(&rows, best[k], ri, t.tie_patterns)
            if wild_wanted:  # a wild drawn, standing for k
                nin = k != w
                ri = _shared_row(t, &rows, hbits | rbits,
                                 hkey | (<uint64_t> nin) << (COUNT_BITS * C_WILDS_IN), cd, cs)
                if ri == -2:
                    return None
                if ri < 0:
                    return NotImplemented
                _shared_offer(&rows, best[w], ri, t.tie_patterns)
    return _shared_waits_out(t, h, pm, &rows, &best[0][0], want & met, cd, cs, visible)


cdef object _shared_waits_out(CompiledTable t, HandBase h, const PlacedMelds* pm,
                              const SharedRows* rows, int* best, uint64_t want,
                              CompiledContext cd, CompiledContext cs, object visible):
    """The valued waits of the candidates ``want`` from their best rows (``best[2 * c + way]``,
    -1: none), those paid on neither way left out. Candidates share few rows: each row's
    payment is asked once per way, each pair of best rows finds its values, hits and wait
    class once."""
    cdef const Valued_* v
    cdef uint64_t left = want
    cdef int c, k, way, ri, unseen, j, nout = 0, npairs = 0
    cdef int vals[2]
    cdef int mults[1]
    cdef int8_t pays[SHARED_ROWS][2]  # per row and way: -1 not asked yet, 0 not paid, 1 paid
    cdef int pair_of[34][2]           # the distinct pairs of best rows met, in order
    cdef WaitClass* class_of[34]      # their wait classes (NULL: none kept, made each time)
    cdef uint64_t since = _wait_clock + 1  # (the classes this call finds stay while it runs)
    memset(pays, -1, sizeof(pays))
    while left:  # each way's value and whether it is paid: ``best`` becomes -1 if not
        c = __builtin_ctzll(left)
        left &= left - 1
        for way in range(2):
            ri = best[2 * c + way]
            if ri < 0:
                continue
            if pays[ri][way] < 0:
                v = &rows.v[ri][way]
                pays[ri][way] = v.mainval > 0 and _placed_pays(
                    t, v, pm.factor, cd if way == 0 else cs, &mults[0])
            if not pays[ri][way]:
                best[2 * c + way] = -1
        if best[2 * c] < 0 and best[2 * c + 1] < 0:
            want &= ~((<uint64_t> 1) << c)
        else:
            nout += 1
    out = PyTuple_New(nout)
    nout = 0
    while want:
        k = __builtin_ctzll(want)
        want &= want - 1
        for j in range(npairs):
            if pair_of[j][0] == best[2 * k] and pair_of[j][1] == best[2 * k + 1]:
                break
        else:
            j = npairs
            npairs += 1
            pair_of[j][0] = best[2 * k]
            pair_of[j][1] = best[2 * k + 1]
            class_of[j] = NULL
        # (held: the concealed copies and the melds' ones, 4 less ``cap``)
        unseen = h.p.cap[k] - h.p.cnt[k] - (0 if visible is None else <int> visible[k])
        if unseen < 0:
            unseen = 0
        if class_of[j] != NULL:
            _put(out, nout, _wait_of(t, class_of[j], k, unseen))
        else:
            for way in range(2):
                ri = best[2 * k + way]
                vals[way] = 0 if ri < 0 else rows.v[ri][way].mainval * (
                    rows.v[ri][way].value // rows.v[ri][way].mainval * pm.factor)
            hd = _hits_found(t, &rows.v[best[2 * k]][0]) if best[2 * k] >= 0 else ()
            hs = _hits_found(t, &rows.v[best[2 * k + 1]][1]) if best[2 * k + 1] >= 0 else ()
            class_of[j] = _wait_class(t, vals[0], vals[1], <PyObject*> hd, <PyObject*> hs,
                                      since)
            if class_of[j] != NULL:
                _put(out, nout, _wait_of(t, class_of[j], k, unseen))
            else:  # (every class of its bucket found by this call)
                _put(out, nout, _wait_new(t, k, vals[0], vals[1], unseen, hd, hs))
        nout += 1
    return out


cdef object _placed_decomposition(CompiledTable t, const CReading* r):
    """The concealed sets of a placement (``readings.concealed_decomposition``: each wild as
    the kind it stands for), sorted, and its pair."""
    cdef int chows[RD_SETS]
    cdef int pungs[RD_SETS]
    cdef int i, nc = 0, np_ = 0
    for i in range(r.nsets):
        if r.sets[i].kind == SET_CHOW:
            chows[nc] = r.sets[i].tile
            nc += 1
        else:
            pungs[np_] = r.sets[i].tile
            np_ += 1
    _isort(chows, nc)
    _isort(pungs, np_)
    ch = PyTuple_New(nc)
    for i in range(nc):
        _put(ch, i, chows[i])
    pu = PyTuple_New(np_)
    for i in range(np_):
        _put(pu, i, pungs[i])
    dec = mj_tuple_of(t.decomposition_type, 3)
    _put(dec, 0, <int> r.pair)
    _put(dec, 1, ch)
    _put(dec, 2, pu)
    PyObject_GC_UnTrack(ch)
    PyObject_GC_UnTrack(pu)
    PyObject_GC_UnTrack(dec)
    return dec


def _c_placed_readings(hand, int wild):
    """The placements ``score_placed`` values (a ``Hand`` without one-tile melds), for the
    tests that hold them against ``common.wilds.wild_readings`` and ``common.compiled.
    features_of``: a list of (sorted sets as (kind, tile), pair, sorted stand-ins, feature
    bits, counted features, lean), repeats included; None when the Python path must answer.
    ``lean``: with a wild held, the same placement as the shared waits read it
    (``_wild_emit_lean``: its features with the declared sets', its stand-ins, how many stand
    for another kind); None without."""
    cdef HandBase h = <HandBase?> hand
    cdef MeldInfo mi
    cdef CReading rs[RD_MAX]
    cdef CReading r
    cdef WildSearch ws, ls
    cdef Placement one, q
    cdef uint8_t cnt[34]
    cdef int counts[NCOUNTED + NCTXCOUNTED]
    cdef int nr, i, j, nin
    cdef uint64_t base = 0, mask, bits, declared
    if _meld_info(h.melds, &mi) < 0 or mi.n != len(h.melds) or not 0 <= wild < 34:
        return None
    for i in range(mi.n):
        for j in range(3 if mi.sets[i].kind == SET_CHOW else 1):
            base |= (<uint64_t> 1) << (mi.sets[i].tile + j)
    for i in range(34):
        if h.p.cnt[i] and i != wild:
            base |= (<uint64_t> 1) << i
    memset(counts, 0, sizeof(counts))
    declared = _declared_bits(&mi)
    ws.rows = NULL
    ws.lean = NULL
    ls.rows = NULL
    ls.lean = NULL
    ws.borrowed = 0
    ls.borrowed = 0
    out = []
    try:
        if h.p.cnt[wild] == 0:
            nr = _readings(&h.p, &mi, 0, rs)
        else:
            memcpy(cnt, h.p.cnt, 34)
            if _wild_search(&ws, cnt, wild, 4 - mi.n, 1) or \
                    _wild_search(&ls, cnt, wild, 4 - mi.n, 1, &one, 1) or ls.nrows != ws.nrows:
                return None
            nr = ws.nrows
        for i in range(nr):
            lean = None
            if h.p.cnt[wild] == 0:
                r = rs[i]
            else:
                r = ws.rows[i]
                for j in range(r.nsets):
                    r.sets[mi.n + r.nsets - 1 - j] = r.sets[r.nsets - 1 - j]
                for j in range(mi.n):
                    r.sets[j] = mi.sets[j]
                r.nsets += mi.n
                q = ls.lean[i]  # (a copy: a generator over a pointer's items hangs Cython)
                lean = (q.bits & (declared | ~SETS_ALL),
                        tuple([q.wild_as[j] for j in range(q.nwilds)]), q.nall, q.mask, q.stood)
            mask = base
            nin = 0
            for j in range(r.nwilds):
                mask |= (<uint64_t> 1) << r.wild_as[j]
                nin += r.wild_as[j] != wild
            bits = _hand_bits(&h.p, &mi, mask, counts) | _reading_bits(&r, -1, -1, counts)
            counts[C_WILDS_IN] = nin
            out.append((tuple(sorted((r.sets[j].kind, r.sets[j].tile) for j in range(r.nsets))),
                        r.pair, tuple(r.wild_as[j] for j in range(r.nwilds)), bits,
                        tuple(counts[j] for j in range(NCOUNTED)), lean))
    finally:
        _wild_free(&ws)
        _wild_free(&ls)
    return out


def _rows_generation():
    """How many times ``_rows_kept`` started anew (new contexts or table): for the tests."""
    return _rows_gen
