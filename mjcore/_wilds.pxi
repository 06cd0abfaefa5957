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

cdef struct WildSearch:
    uint8_t n[34]         # natural tiles not yet placed
    int wild
    WGroup stack[WG_MAX]
    int depth
    CReading* rows
    int nrows, cap
    int error             # 1: out of memory or too many placements, 2: two sets of wilds alone,
                          # 3: the first placement found (``first``)
    bint first            # stop at the first placement within ``lim`` (when ``limit``)
    int home              # with ``first``: the kind wilds alone stand for first
    int floor             # wilds kept out of the natural groups (left to stand alone)
    bint limit
    int lim[34]           # copies left of each kind for the wilds to stand for


cdef void _wild_emit(WildSearch* w) noexcept nogil:
    """The stack as one more C reading."""
    cdef int cap, i, j, k
    cdef uint8_t v
    cdef CReading* rows
    cdef CReading* r
    cdef WGroup* g
    if w.error:
        return
    if w.nrows == w.cap:
        cap = w.cap * 2 if w.cap else 64
        if cap > WILD_RAW_MAX:
            w.error = 1
            return
        rows = <CReading*> realloc(w.rows, cap * sizeof(CReading))
        if rows == NULL:
            w.error = 1
            return
        w.rows = rows
        w.cap = cap
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
    for i in range(1, r.nwilds):  # the stand-ins sorted: one order for equal placements
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


cdef void _wild_only_c(WildSearch* w, int wilds, int sets, int pair) noexcept nogil:
    """The pair and at most one set made of wilds alone, standing for every kind."""
    cdef int pk, k, base, i, j
    if wilds != 3 * sets + 2 * pair:
        return
    if sets > 1:  # cannot happen with four wilds of one kind
        w.error = 2
        return
    base = w.depth
    for i in range(34 if pair else 1):
        pk = _wild_kind_order(w, i)
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


cdef void _wild_natural(WildSearch* w, int wilds, int sets, int pair, int t) noexcept nogil:
    """Place every natural tile (none below kind ``t`` is left)."""
    cdef int nat, first, r, start, k, need, i, ntaken
    cdef int stood[3]
    cdef int taken[3]
    if w.error:
        return
    while t < 34 and not w.n[t]:
        t += 1
    if t == 34:
        _wild_only_c(w, wilds, sets, pair)
        return
    if pair:  # the pair: two naturals, or one and a wild
        for nat in range(2, 0, -1):
            if w.n[t] >= nat and wilds - (2 - nat) >= w.floor:
                w.n[t] -= nat
                _wild_push(w, WG_PAIR, t, 2 - nat, t, 0, 0)
                _wild_natural(w, wilds - (2 - nat), sets, 0, t)
                w.depth -= 1
                w.n[t] += nat
    if sets:
        for nat in range(3, 0, -1):  # a pung
            if w.n[t] >= nat and wilds - (3 - nat) >= w.floor:
                w.n[t] -= nat
                _wild_push(w, WG_PUNG, t, 3 - nat, t, t, t)
                _wild_natural(w, wilds - (3 - nat), sets - 1, pair, t)
                w.depth -= 1
                w.n[t] += nat
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
                    w.n[taken[i]] -= 1
                _wild_push(w, WG_CHOW, first, need, stood[0], stood[1], stood[2])
                _wild_natural(w, wilds - need, sets - 1, pair, t)
                w.depth -= 1
                for i in range(ntaken):
                    w.n[taken[i]] += 1


cdef int _wild_search(WildSearch* w, const uint8_t* counts, int wild, int nsets,
                      bint pair) noexcept nogil:
    """Every placement of the naturals and the wilds (the copies of ``wild`` in ``counts``)
    into ``nsets`` sets and, with ``pair``, the pair: ``w.rows[:w.nrows]``, repeats included
    (the caller drops them). 0, or ``w.error``. The caller frees ``w.rows``."""
    memset(w, 0, sizeof(WildSearch))
    memcpy(w.n, counts, 34)
    w.wild = wild
    w.n[wild] = 0
    _wild_natural(w, counts[wild], nsets, pair, 0)
    return w.error


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
    cdef int t, i, c, nc = 0, np_ = 0
    cdef int chows[RD_SETS]
    cdef int pungs[RD_SETS]
    cdef CReading* r
    cdef int floor, total = 0, nsets
    if len(counts) != 34 or not 0 <= wild < 34:
        raise MahjongError("bad_argument", "wild readings need 34 counts and a wild kind 0..33")
    memset(&w, 0, sizeof(WildSearch))
    for t in range(34):
        c = counts[t]
        if not 0 <= c <= 4:
            raise MahjongError("bad_argument", f"tile count {c!r} outside 0..4")
        w.n[t] = c
        total += c
    nsets = (total - 2 * pair) // 3
    if total != 3 * nsets + 2 * pair or nsets > RD_SETS:
        raise MahjongError("bad_argument", f"{total} tiles are not {'3n + 2' if pair else '3n'} "
                                           f"with n at most {RD_SETS}")
    if held is not None:
        w.limit = True
        for t in range(34):
            w.lim[t] = 99 if t == wild else 4 - <int> held[t]  # a wild never adds to its kind
    c = w.n[wild]
    w.n[wild] = 0
    w.wild = wild
    w.first = True
    w.home = home if 0 <= home < 34 else -1
    try:
        with nogil:
            # most wilds standing alone first (a pung, the pair or none: 3, 2, 0 of them)
            for i in range(3):
                floor = 3 - i - (i == 2)
                if floor > c or (floor == 2 and not pair):
                    continue
                w.floor = floor
                w.depth = 0
                _wild_natural(&w, c, nsets, pair, 0)
                if w.nrows or w.error != 0:
                    break
        if w.error == 2:
            raise ValueError("more than one set of wilds alone")
        if w.error == 1:
            raise MahjongError("too_complex", "too many wild readings")
        if not w.nrows:
            return None
        r = &w.rows[0]
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
    finally:
        free(w.rows)


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
