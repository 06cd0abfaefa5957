# ---------------------------------------------------------------- readings in C
#
# The one home of the C reading: the twin of ``mjcore.rules.common.readings.Reading``, with
# no Python object. A reading is one standard decomposition (declared melds first, then the
# concealed runs, then the concealed pungs, each ascending) or one special shape. ``wild_*``
# is room for what each wild tile stood for (issue 10's wild readings fill the same struct).
# Included by _core.pyx (it reads the packed hand).

cdef enum:
    RD_SETS = 6          # sets of one reading: 4 (5 in 16-tile play), one spare
    RD_WILDS = 8         # wild tiles a reading can say something about
    RD_MAX = 64          # readings of one hand; a hand with more is scored by the Python path
    RD_SPLITS = 32       # splits of one suit

    SET_CHOW = 0
    SET_PUNG = 1
    SET_KONG = 2

    MK_NONE = 0          # a set formed by the concealed tiles
    MK_CHI = 1
    MK_PENG = 2
    MK_GANG = 3
    MK_ANGANG = 4
    MK_BUGANG = 5

    RS_STANDARD = 0
    RS_QIDUI = 1
    RS_SHISANYAO = 2


cdef struct RSet:
    uint8_t kind         # SET_*
    uint8_t tile         # the lowest tile
    uint8_t concealed
    uint8_t meld         # MK_*: the declared meld it is, MK_NONE for concealed tiles


cdef struct CReading:
    uint8_t shape        # RS_*
    uint8_t nsets
    int8_t pair          # the pair's tile, -1 for shapes without one
    uint8_t nwilds
    RSet sets[RD_SETS]
    uint8_t wild_kind[RD_WILDS]
    uint8_t wild_as[RD_WILDS]


cdef struct MeldInfo:
    int n                # declared sets (one-tile melds laid aside are not sets)
    RSet sets[RD_SETS]


cdef struct Split:       # one split of one suit: its pair (-1: none) and sets
    int8_t pair
    uint8_t n
    uint8_t code[RD_SETS]   # a run: its start id; a pung: 64 + its id


_MELD_KINDS = {"chi": MK_CHI, "peng": MK_PENG, "gang": MK_GANG, "angang": MK_ANGANG,
               "bugang": MK_BUGANG}
cdef dict _MELD_KIND_OF = _MELD_KINDS  # typed: a C-level look-up per meld, not a method call


cdef int _meld_info(tuple melds, MeldInfo* out) except -2:
    """The declared melds as sets; -1 when one is not a plain set (a chi with a stand-in),
    which the Python readings handle."""
    out.n = 0
    cdef int mk
    cdef tuple tiles
    for m in melds:
        tiles = <tuple> (<tuple> m)[1]
        if len(tiles) < 3:
            continue
        mk = _MELD_KIND_OF.get((<tuple> m)[0], -1)
        if mk < 0 or out.n == RD_SETS:
            return -1
        t = <int> tiles[0]
        if mk == MK_CHI and not (<int> tiles[1] == t + 1 and <int> tiles[2] == t + 2):
            return -1
        out.sets[out.n].kind = SET_CHOW if mk == MK_CHI else SET_PUNG if mk == MK_PENG else SET_KONG
        out.sets[out.n].tile = t
        out.sets[out.n].concealed = mk == MK_ANGANG
        out.sets[out.n].meld = mk
        out.n += 1
    return 0


cdef int _split_rec(int* d, int n, bint seqs, int lo, int base, uint8_t* stack, int depth,
                    int pair, Split* out, int nout) noexcept nogil:
    """Every split of d[lo:] into sets, in ``_suit_sets`` order, appended to out; the new
    count, or -1 past RD_SPLITS."""
    while lo < n and d[lo] == 0:
        lo += 1
    cdef int j
    if lo == n:
        if nout == RD_SPLITS:
            return -1
        out[nout].pair = pair
        out[nout].n = depth
        for j in range(min(depth, RD_SETS)):  # depth <= RD_SETS (checked below); for the compiler
            out[nout].code[j] = stack[j]
        return nout + 1
    cdef int c = d[lo], k, runs, nd
    for k in range(2):
        if k == 1 and c < 3:
            break
        runs = c - 3 * k
        if runs > 0 and (not seqs or lo + 2 >= n or d[lo + 1] < runs or d[lo + 2] < runs):
            continue
        if depth + k + runs > RD_SETS:
            return -1
        d[lo] -= 3 * k + runs
        if runs:
            d[lo + 1] -= runs
            d[lo + 2] -= runs
        nd = depth
        if k:
            stack[nd] = 64 + base + lo
            nd += 1
        for j in range(runs):
            stack[nd] = base + lo
            nd += 1
        nout = _split_rec(d, n, seqs, lo + 1, base, stack, nd, pair, out, nout)
        d[lo] += 3 * k + runs
        if runs:
            d[lo + 1] += runs
            d[lo + 2] += runs
        if nout < 0:
            return -1
    return nout


cdef int _suit_split_list(const Packed* p, int s, Split* out) noexcept nogil:
    """The splits of suit s (``_suit_splits`` order): pair first by rank when the suit's count
    is 2 mod 3. -1 past RD_SPLITS."""
    cdef int d[9]
    cdef uint8_t stack[RD_SETS]
    cdef int n = 7 if s == 3 else 9, r, total = 0, got = 0
    cdef bint seqs = s != 3
    for r in range(n):
        d[r] = p.cnt[s * 9 + r]
        total += d[r]
    if total == 0:
        out[0].pair = -1
        out[0].n = 0
        return 1
    if total % 3 == 0:
        return _split_rec(d, n, seqs, 0, s * 9, stack, 0, -1, out, 0)
    if total % 3 == 1:
        return 0
    for r in range(n):
        if d[r] >= 2:
            d[r] -= 2
            got = _split_rec(d, n, seqs, 0, s * 9, stack, 0, s * 9 + r, out, got)
            d[r] += 2
            if got < 0:
                return -1
    return got


cdef int _readings(const Packed* p, const MeldInfo* mi, bint qidui, CReading* out,
                   bint shisanyao=0) noexcept nogil:
    """Every reading of the packed hand plus its declared melds: the standard decompositions in
    ``decompose`` order, then 七对 (only without melds, when ``qidui``), then 十三幺 (when
    ``shisanyao``; its pair is the tile held twice). The count, or -1 when there are more than
    RD_MAX (the caller falls back to the Python readings)."""
    cdef Split splits[4][RD_SPLITS]
    cdef int ns[4]
    cdef int idx[4]
    cdef int s, j, k, nout = 0, nch, code
    cdef CReading* r
    cdef const Split* sp
    cdef bint standard = 1
    cdef int pairs = 0, total
    for s in range(4):  # sets and one pair: one suit holds 3n+2 tiles, the others 3n
        total = 0
        for j in range(9 if s < 3 else 7):
            total += p.cnt[s * 9 + j]
        if total % 3 == 1:
            standard = 0
        pairs += total % 3 == 2
    if pairs != 1:
        standard = 0
    for s in range(4 if standard else 0):
        ns[s] = _suit_split_list(p, s, splits[s])
        if ns[s] < 0:
            return -1
        if ns[s] == 0:
            standard = 0
            break
    if standard:
        idx[0] = idx[1] = idx[2] = idx[3] = 0
        while True:
            if nout == RD_MAX:
                return -1
            r = &out[nout]
            r.shape = RS_STANDARD
            r.pair = -1
            r.nwilds = 0
            r.nsets = mi.n
            for j in range(mi.n):
                r.sets[j] = mi.sets[j]
            for k in range(2):      # runs, then pungs
                for s in range(4):
                    sp = &splits[s][idx[s]]
                    if sp.pair >= 0:
                        r.pair = sp.pair
                    for j in range(sp.n):
                        code = sp.code[j]
                        if (code >= 64) != (k == 1):
                            continue
                        if r.nsets == RD_SETS:
                            return -1
                        r.sets[r.nsets].kind = SET_PUNG if k else SET_CHOW
                        r.sets[r.nsets].tile = code - 64 if k else code
                        r.sets[r.nsets].concealed = 1
                        r.sets[r.nsets].meld = MK_NONE
                        r.nsets += 1
            nout += 1
            s = 3
            while s >= 0:
                idx[s] += 1
                if idx[s] < ns[s]:
                    break
                idx[s] = 0
                s -= 1
            if s < 0:
                break
    if qidui and mi.n == 0 and _qidui_win(p, 0, 0):
        if nout == RD_MAX:
            return -1
        r = &out[nout]
        r.shape = RS_QIDUI
        r.pair = -1
        r.nsets = 0
        r.nwilds = 0
        nout += 1
    if shisanyao and mi.n == 0 and _shisanyao_win(p, 0):
        if nout == RD_MAX:
            return -1
        r = &out[nout]
        r.shape = RS_SHISANYAO
        r.pair = -1
        for j in range(34):
            if p.cnt[j] >= 2:
                r.pair = j
                break
        r.nsets = 0
        r.nwilds = 0
        nout += 1
    return nout
