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
    RS_LIGU = 3          # 嚦咕嚦咕: seven pairs and a pung (17 tiles); sets[0] is the pung


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


cdef dict _MELD_KINDS = {"chi": MK_CHI, "peng": MK_PENG, "gang": MK_GANG, "angang": MK_ANGANG,
               "bugang": MK_BUGANG}
cdef dict _MELD_KIND_OF = _MELD_KINDS  # typed: a C-level look-up per meld, not a method call


cdef int _meld_info(tuple melds, MeldInfo* out) except -2:
    """The declared melds as sets; -1 when one is not a plain set (a chi with a stand-in),
    which the Python readings handle."""
    out.n = 0
    cdef int mk, t
    cdef tuple tiles
    for m in melds:
        if not isinstance(m, tuple) or len(<tuple> m) != 2 or \
                type((<tuple> m)[0]) is not str or not isinstance((<tuple> m)[1], tuple):
            return -1   # (a Hand's melds are Melds: this guards HandBase built by hand)
        tiles = <tuple> (<tuple> m)[1]
        if len(tiles) < 3:
            continue
        mk = _MELD_KIND_OF.get((<tuple> m)[0], -1)
        if mk < 0 or out.n == RD_SETS or type(tiles[0]) is not int or not 0 <= tiles[0] < 34:
            return -1
        t = <int> tiles[0]
        if mk == MK_CHI and not (t < 27 and t % 9 <= 6 and tiles[1] == t + 1 and
                                 tiles[2] == t + 2):  # (else 89m + a stand-in 1p)
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


cdef enum:
    # a split code (``_split_code``): one split of a suit in 31 bits, what ``_assemble``
    # reads: a nibble a set from bit 0, the runs (their start rank, 0-6) then the pungs (7 +
    # their rank), each ascending; the number of sets at SC_N, the pair's rank at SC_PAIR
    SC_N = 24
    SC_PAIR = 27
    SC_NO_PAIR = 15


cdef uint32_t _split_code(const Split* sp) noexcept nogil:
    cdef uint32_t out = (<uint32_t> sp.n) << SC_N | (<uint32_t> (
        SC_NO_PAIR if sp.pair < 0 else sp.pair % 9)) << SC_PAIR
    cdef int j, k = 0
    for j in range(sp.n):   # (a split lists a rank's pung before its runs, ranks ascending)
        if sp.code[j] < 64:
            out |= (<uint32_t> (sp.code[j] % 9)) << (4 * k)
            k += 1
    for j in range(sp.n):
        if sp.code[j] >= 64:
            out |= (<uint32_t> (7 + (sp.code[j] - 64) % 9)) << (4 * k)
            k += 1
    return out


cdef int _assemble(const MeldInfo* mi, const uint32_t* codes, CReading* r) noexcept nogil:
    """The standard reading of the declared melds and one split of each suit (its split code):
    melds, then the runs, then the pungs (each in suit order); -1 past RD_SETS sets."""
    cdef int s, j, x, n = mi.n
    cdef uint32_t c
    for s in range(4):
        n += codes[s] >> SC_N & 7
    if n > RD_SETS:
        return -1
    r.shape = RS_STANDARD
    r.pair = -1
    r.nwilds = 0
    r.nsets = n = mi.n
    for j in range(mi.n):
        r.sets[j] = mi.sets[j]
    for s in range(4):      # the runs
        c = codes[s]
        if (c >> SC_PAIR & 15) != SC_NO_PAIR:
            r.pair = s * 9 + (c >> SC_PAIR & 15)
        for j in range(c >> SC_N & 7):
            x = c >> (4 * j) & 15
            if x >= 7:
                break
            r.sets[n].kind = SET_CHOW
            r.sets[n].tile = s * 9 + x
            r.sets[n].concealed = 1
            r.sets[n].meld = MK_NONE
            n += 1
    for s in range(4):      # then the pungs
        c = codes[s]
        for j in range(c >> SC_N & 7):
            x = c >> (4 * j) & 15
            if x < 7:
                continue
            r.sets[n].kind = SET_PUNG
            r.sets[n].tile = s * 9 + x - 7
            r.sets[n].concealed = 1
            r.sets[n].meld = MK_NONE
            n += 1
    r.nsets = n
    return 0


cdef inline int _assemble_each(const MeldInfo* mi, const uint32_t** codes, const int* ns,
                               CReading* out) noexcept nogil:
    """A reading assembled (``_assemble``) from each pick of one split code per suit
    (``codes[s]``, ``ns[s]`` of them, none empty), the last suit's varying fastest: the
    count, -1 past RD_MAX."""
    cdef uint32_t picks[4]
    cdef int idx[4]
    cdef int s, nout = 0
    idx[0] = idx[1] = idx[2] = idx[3] = 0
    while True:
        if nout == RD_MAX:
            return -1
        for s in range(4):
            picks[s] = codes[s][idx[s]]
        if _assemble(mi, picks, &out[nout]) < 0:
            return -1
        nout += 1
        s = 3
        while s >= 0:
            idx[s] += 1
            if idx[s] < ns[s]:
                break
            idx[s] = 0
            s -= 1
        if s < 0:
            return nout


cdef int _readings(const Packed* p, const MeldInfo* mi, bint qidui, CReading* out,
                   bint shisanyao=0, bint ligu=0, bint by_entries=0) noexcept nogil:
    """Every reading of the packed hand plus its declared melds: the standard decompositions in
    ``decompose`` order, then 七对 (only without melds, when ``qidui``), then 十三幺 (when
    ``shisanyao``; its pair is the tile held twice), then 嚦咕嚦咕 (when ``ligu``). The count,
    or -1 when there are more than RD_MAX (the caller falls back to the Python readings).
    ``by_entries``: a suit with one split takes it from its reading-word entry
    (``_suit_words_entry``, RWE_ONLY) instead of splitting it again."""
    cdef Split splits[4][RD_SPLITS]
    cdef uint32_t codes[4][RD_SPLITS]
    cdef const uint32_t* suits[4]
    cdef int ns[4]
    cdef int s, j, nout = 0
    cdef CReading* r
    cdef bint standard = 1
    cdef int pairs = 0, total
    cdef uint64_t e[4]
    for s in range(4):  # sets and one pair: one suit holds 3n+2 tiles, the others 3n
        if by_entries:  # (its count mod 3 read from its entry, not counted)
            e[s] = _suit_words_entry(p, s)
            total = _entry_mod3(e[s])
        else:
            total = 0
            for j in range(9 if s < 3 else 7):
                total += p.cnt[s * 9 + j]
        if total % 3 == 1:
            standard = 0
        pairs += total % 3 == 2
    if pairs != 1:
        standard = 0
    for s in range(4 if standard else 0):
        if by_entries and e[s] & RWE_ONLY:
            ns[s] = 1
            codes[s][0] = <uint32_t> (e[s] >> 32) & SC_MASK
            continue
        ns[s] = _suit_split_list(p, s, splits[s])
        if ns[s] < 0:
            return -1
        if ns[s] == 0:
            standard = 0
            break
        for j in range(ns[s]):
            codes[s][j] = _split_code(&splits[s][j])
    if standard:
        for s in range(4):
            suits[s] = codes[s]
        nout = _assemble_each(mi, suits, ns, out)
        if nout < 0:
            return -1
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
    cdef int pung = _ligu_pung(p) if ligu and mi.n == 0 else -1
    if pung >= 0:
        if nout == RD_MAX:
            return -1
        r = &out[nout]
        r.shape = RS_LIGU
        r.pair = -1
        r.nsets = 1
        r.nwilds = 0
        r.sets[0].kind = SET_PUNG
        r.sets[0].tile = pung
        r.sets[0].concealed = 1
        r.sets[0].meld = MK_NONE
        nout += 1
    return nout


cdef int _ligu_pung(const Packed* p) noexcept nogil:
    """嚦咕嚦咕 (seven pairs and a pung, 17 concealed tiles; four of a kind are two pairs): the
    pung's kind, the one held an odd number of times, which must be three; else -1."""
    cdef int t, odd = -1
    if p.ncon != 17:
        return -1
    for t in range(34):
        if p.cnt[t] % 2:
            if odd >= 0 or p.cnt[t] != 3:
                return -1
            odd = t
    return odd


# ---------------------------------------------------------------- reading words
#
# What the features of a standard reading need of its sets, as three bits (a reading's
# *word*, OR-ed over its sets and pair): RW_RUN some set is a run, RW_PUNG some set is a pung
# or kong, RW_PLAIN some set or the pair holds no terminal (a run not starting at 1 or 7; an
# honour is no terminal). Every reading of one word has the same features (the honours'
# sets, the one other thing they read, are the same in every reading), so the evaluator
# values each word once instead of each reading (``CompiledTable._best_words``). Per suit
# key a table entry, filled on first use, lists the words of the suit's splits in the order
# they first occur in ``_suit_split_list``, which is what the reading order needs, and keeps
# the first split, from which the scored reading is nearly always built (no split search).

cdef enum:
    RW_RUN = 1
    RW_PUNG = 2
    RW_PLAIN = 4
    RW_WORDS = 8         # words 0..7
    # an entry: bits 0-7 the words present, bits 8-31 the words in order (3 bits each);
    # 0: not known yet; with no word present:
    RWE_NONE = 1 << 8    # the suit has no split
    RWE_OVER = 2 << 8    # it has more than RD_SPLITS: the readings path answers
    # bits 32-62: the suit's first split (of its first word) as a split code, or with no
    # word present its tile count mod 3 (``_entry_mod3``); bit 63 (RWE_ONLY): that split
    # is the suit's only one
    SC_MASK = 0x7FFFFFFF

from libc.stdlib cimport calloc

cdef extern from *:
    """
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    /* A big table of zeros, its pages taken on first use; on Linux in huge pages where the
       system allows them (madvise): its entries are read at random, and in small pages
       nearly every read of a never-seen hand's entry also misses the address cache (TLB). */
    static void* mj_table_zeroed(size_t n) {
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        void* p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return NULL;
        madvise(p, n, MADV_HUGEPAGE);
        return p;
    #else
        return calloc(n, 1);
    #endif
    }
    """
    void* mj_table_zeroed(size_t n) nogil

cdef uint64_t RWE_ONLY = (<uint64_t> 1) << 63
cdef uint64_t* suit_rwords = <uint64_t*> mj_table_zeroed(NSUIT * sizeof(uint64_t))
cdef uint64_t* hon_rwords = <uint64_t*> calloc(NHON, sizeof(uint64_t))
if suit_rwords == NULL or hon_rwords == NULL:
    raise MemoryError()


cdef inline int _set_word(int kind, int t) noexcept nogil:
    """The word of one set (kind SET_*, lowest tile t)."""
    if kind == SET_CHOW:
        return RW_RUN | (RW_PLAIN if t % 9 != 0 and t % 9 != 6 else 0)
    return RW_PUNG | (0 if t < 27 and (t % 9 == 0 or t % 9 == 8) else RW_PLAIN)


cdef int _split_word(const Split* sp) noexcept nogil:
    cdef int w = 0, j, code
    if sp.pair >= 0 and not (sp.pair < 27 and (sp.pair % 9 == 0 or sp.pair % 9 == 8)):
        w = RW_PLAIN
    for j in range(sp.n):
        code = sp.code[j]
        w |= _set_word(SET_PUNG, code - 64) if code >= 64 else _set_word(SET_CHOW, code)
    return w


cdef uint32_t _words_entry(const Split* sp, int n) noexcept nogil:
    """The entry (see RW_WORDS) of a suit whose ``n`` splits are ``sp`` (-1: too many)."""
    cdef uint32_t e = RWE_OVER if n < 0 else RWE_NONE if n == 0 else 0
    cdef int i, w, k = 0
    for i in range(n if n > 0 else 0):
        w = _split_word(&sp[i])
        if not (e >> w & 1):
            e |= (1u << w) | (<uint32_t> w << (8 + 3 * k))
            k += 1
    return e


cdef uint64_t _suit_words_entry(const Packed* p, int s) noexcept nogil:
    """Suit s's entry, from its table."""
    cdef uint64_t* slot = &hon_rwords[p.key[3]] if s == 3 else &suit_rwords[p.key[s]]
    cdef uint64_t e = slot[0]
    cdef Split sp[RD_SPLITS]
    cdef int n, r, total = 0
    if not e:
        n = _suit_split_list(p, s, sp)
        for r in range(7 if s == 3 else 9):
            total += p.cnt[s * 9 + r]
        e = _words_entry(sp, n) | (<uint64_t> (_split_code(&sp[0]) if n > 0 else total % 3)) << 32
        if n == 1:
            e |= RWE_ONLY
        slot[0] = e  # (two threads may both fill it: with the same value)
    return e


cdef inline int _entry_mod3(uint64_t e) noexcept nogil:
    """The suit's tile count mod 3, from its entry."""
    if not (e & 0xFF):
        return e >> 32 & 3
    return 0 if (e >> (32 + SC_PAIR) & 15) == SC_NO_PAIR else 2


cdef inline int _combine_words(int a, int b) noexcept nogil:
    """The words of a reading made of one from each set of words (masks a and b): for each
    word x of a, b's words y moved to x | y, one bit of x at a time."""
    cdef int out = 0, x, m
    for x in range(RW_WORDS):
        if a >> x & 1:
            m = b
            if x & RW_RUN:
                m = (m & 0xAA) | (m & 0x55) << 1
            if x & RW_PUNG:
                m = (m & 0xCC) | (m & 0x33) << 2
            if x & RW_PLAIN:
                m = (m & 0xF0) | (m & 0x0F) << 4
            out |= m
    return out


cdef int _standard_words(const Packed* p, const MeldInfo* mi, uint64_t* entries) noexcept nogil:
    """The mask of the words of the hand's standard readings (0: none), the suits' entries
    left in ``entries``; -1 when a suit has too many splits."""
    cdef int s, j, m, pairs = 0, acc, w = 0
    for s in range(4):
        entries[s] = _suit_words_entry(p, s)
        m = _entry_mod3(entries[s])
        if m == 1:
            return 0
        pairs += m == 2
    if pairs != 1:
        return 0
    for j in range(mi.n):
        w |= _set_word(mi.sets[j].kind, mi.sets[j].tile)
    acc = 1 << w
    for s in range(4):
        if not (entries[s] & 0xFF):
            return -1 if <uint32_t> entries[s] == RWE_OVER else 0
        acc = _combine_words(acc, entries[s] & 0xFF)
        if not acc:
            return 0
    return acc


cdef int _first_word(const MeldInfo* mi, const uint64_t* entries, int targets,
                     int* chosen) noexcept nogil:
    """The word of the first standard reading (in ``_readings`` order) whose word is in the
    mask ``targets``, and each suit's word in it (``chosen``); -1 if none."""
    cdef int suffix[5]
    cdef int s, k, a, acc = 0, j
    for j in range(mi.n):
        acc |= _set_word(mi.sets[j].kind, mi.sets[j].tile)
    a = acc
    for s in range(4):  # (the common hand: one word a suit, so one reading word, no search)
        k = entries[s] & 0xFF
        if k & (k - 1):
            break
        chosen[s] = __builtin_ctzll(k)
        a |= chosen[s]
    else:
        return a if targets >> a & 1 else -1
    suffix[4] = 1
    for s in range(3, -1, -1):
        suffix[s] = _combine_words(entries[s] & 0xFF, suffix[s + 1])
    for s in range(4):
        chosen[s] = -1
        for k in range(RW_WORDS):
            a = entries[s] >> (8 + 3 * k) & 7
            if not (entries[s] >> a & 1):  # (past the last word: its bits are 0, word 0 absent)
                break
            if _combine_words(1 << (acc | a), suffix[s + 1]) & targets:
                chosen[s] = a
                acc |= a
                break
        if chosen[s] < 0:
            return -1
    return acc


cdef int _reading_of_words(const Packed* p, const MeldInfo* mi, const uint64_t* entries,
                           const int* chosen, CReading* r) noexcept nogil:
    """The first standard reading whose suits have the words ``chosen`` (as ``_readings``
    builds it): each suit's first split of its word (its entry's when that is the suit's
    first word, else searched), no other split listed; -1 past the bounds."""
    cdef Split sp
    cdef uint32_t picks[4]
    cdef int s
    for s in range(4):
        if <int> (entries[s] >> 8 & 7) == chosen[s]:
            picks[s] = <uint32_t> (entries[s] >> 32) & SC_MASK
        elif _suit_first_split(p, s, chosen[s], &sp) == 1:
            picks[s] = _split_code(&sp)
        else:
            return -1
    return _assemble(mi, picks, r)


cdef int _suit_first_split(const Packed* p, int s, int want, Split* out) noexcept nogil:
    """The first split of suit s (``_suit_split_list`` order) whose word is ``want``, in
    ``out``: 1, 0 when none, -1 past RD_SETS."""
    cdef int d[9]
    cdef uint8_t stack[RD_SETS]
    cdef int n = 7 if s == 3 else 9, r, total = 0, got
    for r in range(n):
        d[r] = p.cnt[s * 9 + r]
        total += d[r]
    if total % 3 == 0:
        return _first_split_rec(d, n, s != 3, 0, s * 9, stack, 0, -1, want, out)
    if total % 3 == 1:
        return 0
    cdef int key = p.key[s]
    for r in range(n):  # (a pair the rest does not split into sets around: not tried)
        if d[r] >= 2 and (hon_info if s == 3 else suit_info)[key - 2 * P5[r]] & 1:
            d[r] -= 2
            got = _first_split_rec(d, n, s != 3, 0, s * 9, stack, 0, s * 9 + r, want, out)
            d[r] += 2
            if got:
                return got
    return 0


cdef int _first_split_rec(int* d, int n, bint seqs, int lo, int base, uint8_t* stack, int depth,
                          int pair, int want, Split* out) noexcept nogil:
    """``_split_rec``'s search, stopped at the first split whose word is ``want`` (in
    ``out``): 1, 0 when none, -1 past RD_SETS."""
    while lo < n and d[lo] == 0:
        lo += 1
    cdef int j
    if lo == n:
        out.pair = pair
        out.n = depth
        for j in range(min(depth, RD_SETS)):
            out.code[j] = stack[j]
        return _split_word(out) == want
    cdef int c = d[lo], k, runs, nd, got
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
        got = _first_split_rec(d, n, seqs, lo + 1, base, stack, nd, pair, want, out)
        d[lo] += 3 * k + runs
        if runs:
            d[lo + 1] += runs
            d[lo + 2] += runs
        if got:
            return got
    return 0
