# ---------------------------------------------------------------- compiled scoring
#
# A rule set's fan table run in C from its data (docs/rules.md, "Compiled scoring"). The
# table compiler (mjcore/rules/common/compiled.py) turns each pattern's, extra's and floor's
# declarative condition (``when=``: named features that must hold or not, counted features
# with a threshold) into the arrays of a ``CompiledTable``, one per options object. One
# generic evaluator then runs every reading of a hand: features -> matching patterns ->
# policy -> value -> hits, and builds the ``ScoreResult``. Nothing here knows a rule set.
# Included by _core.pyx (it reads the packed hand and the C readings of _reading.pxi).

cdef enum:
    # boolean features of one reading, hand and context (bit numbers; names in FEATURES)
    F_STANDARD = 0
    F_QIDUI = 1
    F_QING = 2
    F_HUN = 3
    F_ZI = 4
    F_PUNG = 5
    F_CHOW = 6
    F_YAOJIU = 7
    F_ONLY258 = 8
    F_LONG = 9
    F_TERM_HON = 10
    F_TERM_ONLY = 11
    F_NINE_GATES = 12
    F_CONCEALED = 13
    F_HAS19 = 14
    F_DRAGON_PAIR = 15
    F_WIND_PAIR = 16
    F_SEAT_WIND_PUNG = 17
    F_ROUND_WIND_PUNG = 18
    F_MELDS4 = 19
    F_SHISANYAO = 20
    F_HONOURS = 21       # some honour tile held
    F_LIGU = 22
    F_TWO_SIDED_WAIT = 23   # the winning tile completed a run on a two-sided wait
    F_SINGLE_WAIT = 24   # ... completed the pair, a closed or an edge wait (one-tile shapes)
    F_ONE_KIND_WAIT = 25    # the hand before the win waited on one kind only
    F_WILD_PAIR = 26     # a wild reading: the winning tile pairs with a wild, the rest are sets
    F_PAIR258 = 27       # the pair is a 2, 5 or 8 of a suit
    F_CLAIMED4 = 28      # four declared sets, none a concealed kong
    F_CONTEXT = 32       # bits 32-63: the rule set's own context features, in its order
    # counted features
    C_GEN = 0
    C_MELDS = 1
    C_DRAGON_PUNGS = 2
    C_WIND_PUNGS = 3
    C_OPEN_MELDS = 4     # declared melds other than angang
    C_CONCEALED_PUNGS = 5   # 暗刻 (angang too), less the pung a discard completed
    C_FLOWER_SETS = 6    # complete flower sets (from the context)
    C_SEAT_FLOWERS = 7   # the winner's own seat flowers that count (from the context)
    C_WILDS_IN = 8       # wilds standing in for another kind (a wild reading)
    NCOUNTED = 9
    NCTXCOUNTED = 2      # the rule set's own counted context features, after the counted ones
    # the counted features a context decides (by bit), the additive policy reading the others
    # once for a waits question's two contexts: its own (one count a context) and the
    # concealed pungs (by the slot too)
    C_OF_CONTEXT = 1 << C_FLOWER_SETS | 1 << C_SEAT_FLOWERS
    C_BY_CONTEXT = C_OF_CONTEXT | 1 << C_CONCEALED_PUNGS
    # table sizes
    CT_PATTERNS = 64
    CT_EXTRAS = 32
    CT_FLOORS = 16
    CT_TIMES = 9         # an extra's hit objects for 0..8 times; more: the Python path
    CT_FANS = 64         # payments kept per context, by value
    CT_LIABILITIES = 4   # a context's liabilities (``CompiledContext.liable_meld``)
    CT_RESOLVED = 4      # rows a context turns plain (``CtxRows``)
    CT_CONTEXTS = 4096   # a table's compiled contexts (``add_context``; keys come from input)
    PAID_SEEN = 64       # a context's pay answers told apart in C (``_placed_pays``)
    # policies
    POL_HIGHEST = 0      # highest_plus_extras
    POL_CAPPED_BASE = 1  # capped_base
    POL_ADDITIVE = 2     # additive (its own evaluator: _best_additive)
    POL_SHAPE_EVENT = 3  # shape_times_event with exponent values (the cap limits 2**value)
    POL_SUM_TIMES = 4    # sum_times_extras

cdef tuple _SHAPE_OF = ("standard", "qidui", "shisanyao", "ligu")   # by RS_*
cdef tuple _KIND_OF = ("mixed", "pung", "chow")          # a standard reading's sets: by F_PUNG | F_CHOW

FEATURES = ("standard", "qidui", "qing", "hun", "zi", "pung", "chow", "yaojiu", "only258",
            "long", "terminals_honours", "terminals_only", "nine_gates", "concealed", "has19",
            "dragon_pair", "wind_pair", "seat_wind_pung", "round_wind_pung", "melds4",
            "shisanyao", "honours", "ligu", "two_sided_wait", "single_wait", "one_kind_wait",
            "wild_pair", "pair258", "claimed4")
COUNTED = ("gen", "melds", "dragon_pungs", "wind_pungs", "open_melds", "concealed_pungs",
           "flower_sets", "seat_flowers", "wilds_in")
CONTEXT_BIT = F_CONTEXT
CONTEXT_COUNTED_AT = NCOUNTED    # the rule set's counted context features: indices from here
CONTEXT_COUNTED_MAX = NCTXCOUNTED
POLICY_CODES = {"highest_plus_extras": POL_HIGHEST, "capped_base": POL_CAPPED_BASE,
                "additive": POL_ADDITIVE, "shape_times_event": POL_SHAPE_EVENT,
                "sum_times_extras": POL_SUM_TIMES}
# the features a wild reading (``score_wild``) states: its shape and its wild features; a
# placement (``score_placed``) also states the sets and the tiles as placed
WILD_FEATURES = ("standard", "qidui", "wild_pair")
PLACED_FEATURES = ("standard", "qidui", "pung", "chow", "qing", "hun", "zi", "only258",
                   "pair258", "claimed4", "concealed", "melds4")


cdef extern from *:
    """
    /* An empty instance of a tuple subclass (a NamedTuple) of n items, filled by the caller
       with PyTuple_SET_ITEM: what tuple.__new__(cls, items) does, without the items tuple
       and the method look-up. */
    static PyObject* mj_tuple_of(PyObject* type, Py_ssize_t n) {
        PyTypeObject* tp = (PyTypeObject*) type;
        return tp->tp_alloc(tp, n);
    }
    """
    object mj_tuple_of(object type, Py_ssize_t n)


cdef extern from *:
    """
    /* (the batch's meld rows are copied once, like its counts: see mj_snapshot) */
    static inline void mj_barrier(void) { __asm__ __volatile__("" ::: "memory"); }
    """
    void mj_barrier() noexcept nogil


cdef inline void _put(object tup, Py_ssize_t i, object item) noexcept:
    Py_INCREF(item)
    PyTuple_SET_ITEM(tup, i, item)


cdef extern from *:
    """
    /* CPython's small ints, -5..256, found without a call (PyLong_FromLong's own cache) */
    static PyObject *mj_small_ints[262];
    static int mj_init_small_ints(void) {
        for (int i = 0; i < 262; i++)
            if (!(mj_small_ints[i] = PyLong_FromLong(i - 5)))
                return -1;
        return 0;
    }
    static inline PyObject *mj_int(long v) {
        if (v >= -5 && v <= 256) {
            Py_INCREF(mj_small_ints[v + 5]);
            return mj_small_ints[v + 5];
        }
        return PyLong_FromLong(v);
    }
    """
    int mj_init_small_ints() except -1
    object mj_int(long v)

mj_init_small_ints()


cdef struct Cond:
    uint64_t on          # features that must hold
    uint64_t off         # features that must not
    int8_t cnt[2]        # counted features compared (-1: none)
    int8_t ge[2]         # 1: at least k; 0: exactly k; 2: at most k
    int8_t k[2]
    int8_t nany          # clauses "a|!b": at least one of any_on holds or one of any_off not
    uint64_t any_on[2]
    uint64_t any_off[2]


cdef struct CPat:
    Cond cond
    int value
    uint64_t supersedes  # table positions it drops when both hold
    uint8_t flat
    uint8_t cap_exempt
    uint8_t special
    int8_t absorb        # extra it already holds (-1: none), and how many times
    int8_t absorb_n
    int8_t times         # counted feature giving how often an ``each`` pattern holds (-1: once)


cdef struct CExtra:
    Cond cond
    int8_t times         # counted feature giving how many times (-1: once when cond holds)
    int value


cdef struct Valued_:     # one reading's value (the C twin of table.Valued)
    int value
    int raw
    int rank
    int main             # main pattern's table position
    int mainval
    int nextra
    int8_t extra_idx[CT_EXTRAS]
    int8_t extra_n[CT_EXTRAS]
    uint32_t floors      # floors that hold
    int flat             # a flat pattern that replaced the value (-1: none)
    uint64_t found       # additive and sum_times_extras: the patterns listed (counted)
    uint8_t found_n[CT_PATTERNS]   # additive: how often each holds
    uint8_t unlisted     # shape_times_event: the main pattern (worth x1) is not listed


cdef struct CtxRows:     # what a context decides of an additive table's ordinary rows
    uint64_t fail        # the patterns failing on its own bytes (``_row_fails``)
    uint64_t ok          # the rows those and its own counts (C_OF_CONTEXT) leave
    uint64_t more        # rows to check in full (``_cond``): those with either-or terms it
                         # leaves, and those counting one of its own past the tables
    int nplain           # rows whose either-or terms it turns into features that must
    int8_t plain[CT_RESOLVED]      # hold (``plain_on``) or not (``plain_off``)
    uint64_t plain_on[CT_RESOLVED]
    uint64_t plain_off[CT_RESOLVED]


cdef inline bint _cond(const Cond* c, uint64_t bits, const int* counts) noexcept nogil:
    if (bits & c.on) != c.on or (bits & c.off):
        return 0
    if c.nany == 0 and c.cnt[0] < 0:  # (most conditions: features alone)
        return 1
    cdef int j, v
    for j in range(c.nany):
        if not (bits & c.any_on[j]) and not (~bits & c.any_off[j]):
            return 0
    for j in range(2):
        if c.cnt[j] >= 0:
            v = counts[c.cnt[j]]
            if c.ge[j] == 2:
                if v > c.k[j]:
                    return 0
            elif v < c.k[j] or (not c.ge[j] and v != c.k[j]):
                return 0
    return 1


cdef inline bint _term(int t) noexcept nogil:
    return t < 27 and (t % 9 == 0 or t % 9 == 8)


# tile masks (bit t: tile id t)
cdef uint64_t M_SUIT[3]
M_SUIT[0] = 0x1FF
M_SUIT[1] = 0x1FF << 9
M_SUIT[2] = (<uint64_t> 0x1FF) << 18
cdef uint64_t M_HON = (<uint64_t> 0x7F) << 27
cdef uint64_t M_TERM = 0
cdef uint64_t M_258 = 0
for _t in range(27):
    if _t % 9 == 0 or _t % 9 == 8:
        M_TERM |= (<uint64_t> 1) << _t
    if _t % 3 == 1:
        M_258 |= (<uint64_t> 1) << _t


cdef inline uint64_t _byte_bits(uint64_t x) noexcept nogil:
    """Bit i: bit 0 of byte i of x (eight bytes gathered by one multiply: byte i's bit to bit
    56 + i)."""
    return (x & 0x0101010101010101ULL) * 0x0102040810204080ULL >> 56


cdef inline uint64_t _nonzero_bytes(uint64_t x) noexcept nogil:
    """Bit i: byte i of x (each at most 0x7F) is not 0 (eight bytes at once)."""
    return _byte_bits((((x + 0x7F7F7F7F7F7F7F7FULL) | x) & 0x8080808080808080ULL) >> 7)


cdef extern from *:
    """
    /* Bytes b[0..7] as one little-endian word: one load (gcc left the byte-by-byte form
       as eight loads and shifts), swapped on a big-endian machine. */
    static inline uint64_t mj_bytes8(const uint8_t* b) {
        uint64_t x;
        memcpy(&x, b, 8);
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        x = __builtin_bswap64(x);
    #endif
        return x;
    }
    """
    uint64_t mj_bytes8(const uint8_t* b) noexcept nogil


cdef inline uint64_t _bytes8(const uint8_t* b) noexcept nogil:
    """Bytes b[0..7] as one little-endian word (byte i in bits 8i..8i+7)."""
    return mj_bytes8(b)


cdef inline uint64_t _concealed_kinds(const Packed* p) noexcept nogil:
    """Bit k: some copy of kind k is concealed."""
    cdef uint64_t m = 0
    cdef int i
    for i in range(0, 32, 8):
        m |= _nonzero_bytes(_bytes8(p.cnt + i)) << i
    return m | (<uint64_t> (p.cnt[32] != 0)) << 32 | (<uint64_t> (p.cnt[33] != 0)) << 33


cdef inline bint _some_four(const Packed* p) noexcept nogil:
    """Four copies of some kind are concealed (a byte of cnt ^ 4 is 0)."""
    cdef int i
    for i in range(0, 32, 8):
        if _nonzero_bytes(_bytes8(p.cnt + i) ^ 0x0404040404040404ULL) != 0xFF:
            return 1
    return p.cnt[32] == 4 or p.cnt[33] == 4


cdef inline uint64_t _held_mask(const Packed* p) noexcept nogil:
    """Bit t: some copy of tile t is held (concealed or in a meld): counts plus the copies in
    melds (4 - cap), at most 8 a byte, eight tiles at a time."""
    cdef uint64_t m = 0
    cdef int i
    for i in range(0, 32, 8):
        m |= _nonzero_bytes(_bytes8(p.cnt + i) + 0x0404040404040404ULL - _bytes8(p.cap + i)) << i
    for i in range(32, 34):
        m |= (<uint64_t> (p.cnt[i] + 4 - p.cap[i] != 0)) << i
    return m


cdef inline int _suits_of(uint64_t held) noexcept nogil:
    return ((held & M_SUIT[0]) != 0) | ((held & M_SUIT[1]) != 0) << 1 | \
        ((held & M_SUIT[2]) != 0) << 2


cdef inline int _nsuits(int suits) noexcept nogil:
    """How many suits a ``_suits_of`` mask names (a nibble table: no popcount call where the
    machine has no popcount instruction)."""
    return 0x32212110 >> (4 * suits) & 0xF


cdef inline uint64_t _held_bits(uint64_t held) noexcept nogil:
    """The features of the whole hand that the kinds held (``_held_mask``) decide: its suits,
    honours, terminals, 2-5-8s (HELD_FEATURES)."""
    cdef int suits = _suits_of(held)
    cdef bint hon = (held & M_HON) != 0, term = (held & M_TERM) != 0
    cdef uint64_t out = 0
    if suits == 1 or suits == 2 or suits == 4:
        out |= (<uint64_t> 1) << (F_HUN if hon else F_QING)
    if suits == 0 and hon:
        out |= (<uint64_t> 1) << F_ZI
    if not (held & ~M_258):
        out |= (<uint64_t> 1) << F_ONLY258
    if not (held & ~M_TERM):
        out |= (<uint64_t> 1) << F_TERM_ONLY
    if not (held & ~(M_TERM | M_HON)) and term and hon:
        out |= (<uint64_t> 1) << F_TERM_HON
    if term:
        out |= (<uint64_t> 1) << F_HAS19
    if hon:
        out |= (<uint64_t> 1) << F_HONOURS
    return out


cdef uint64_t HELD_FEATURES = (<uint64_t> 1) << F_HUN | (<uint64_t> 1) << F_QING | \
    (<uint64_t> 1) << F_ZI | (<uint64_t> 1) << F_ONLY258 | (<uint64_t> 1) << F_TERM_ONLY | \
    (<uint64_t> 1) << F_TERM_HON | (<uint64_t> 1) << F_HAS19 | (<uint64_t> 1) << F_HONOURS


cdef uint64_t _hand_bits(const Packed* p, const MeldInfo* mi, uint64_t held,
                         int* counts) noexcept nogil:
    """The features of the whole hand (every reading shares them), and its counted ones;
    ``held``: the ``_held_mask``."""
    cdef int t, s, suits = _suits_of(held)
    cdef uint64_t out = _held_bits(held)
    if _some_four(p):
        out |= (<uint64_t> 1) << F_LONG
    cdef bint concealed = 1
    counts[C_OPEN_MELDS] = 0
    for t in range(mi.n):
        if mi.sets[t].meld != MK_ANGANG:
            concealed = 0
            counts[C_OPEN_MELDS] += 1
    counts[C_CONCEALED_PUNGS] = counts[C_FLOWER_SETS] = counts[C_SEAT_FLOWERS] = 0
    if concealed:
        out |= (<uint64_t> 1) << F_CONCEALED
    if mi.n == 4:
        out |= (<uint64_t> 1) << F_MELDS4
        if not concealed_any(mi):
            out |= (<uint64_t> 1) << F_CLAIMED4
    cdef bint nine
    if mi.n == 0 and (out >> F_QING) & 1:
        s = 0 if suits == 1 else 1 if suits == 2 else 2
        nine = p.cnt[s * 9] >= 3 and p.cnt[s * 9 + 8] >= 3
        for t in range(1, 8):
            if p.cnt[s * 9 + t] < 1:
                nine = 0
        if nine:
            out |= (<uint64_t> 1) << F_NINE_GATES
    counts[C_GEN] = __builtin_popcountll(p.four) if p.four else 0
    counts[C_MELDS] = mi.n
    counts[C_WILDS_IN] = 0
    return out


cdef inline bint concealed_any(const MeldInfo* mi) noexcept nogil:
    """Some declared set is a concealed kong."""
    cdef int t
    for t in range(mi.n):
        if mi.sets[t].meld == MK_ANGANG:
            return 1
    return 0


cdef uint64_t _reading_bits(const CReading* r, int seat_wind, int round_wind,
                            int* counts) noexcept nogil:
    """The features of one reading (beside the hand's), and its counted ones."""
    cdef uint64_t out = 0
    cdef int j, t, dragons = 0, winds = 0
    cdef bint pung = 1, chow = 1, yj = 1
    cdef const RSet* s
    if r.shape == RS_STANDARD:
        out |= (<uint64_t> 1) << F_STANDARD
        if not _term(r.pair):
            yj = 0
        for j in range(r.nsets):
            s = &r.sets[j]
            t = s.tile
            if s.kind == SET_CHOW:
                pung = 0
                if t % 9 != 0 and t % 9 != 6:
                    yj = 0
            else:
                chow = 0
                if not _term(t):
                    yj = 0
                if t >= 31:
                    dragons += 1
                elif t >= 27:
                    winds += 1
                    if t - 27 == seat_wind:
                        out |= (<uint64_t> 1) << F_SEAT_WIND_PUNG
                    if t - 27 == round_wind:
                        out |= (<uint64_t> 1) << F_ROUND_WIND_PUNG
        if pung:
            out |= (<uint64_t> 1) << F_PUNG
        if chow:
            out |= (<uint64_t> 1) << F_CHOW
        if yj:
            out |= (<uint64_t> 1) << F_YAOJIU
        if r.pair >= 31:
            out |= (<uint64_t> 1) << F_DRAGON_PAIR
        elif r.pair >= 27:
            out |= (<uint64_t> 1) << F_WIND_PAIR
        elif r.pair >= 0 and r.pair % 3 == 1:
            out |= (<uint64_t> 1) << F_PAIR258
    elif r.shape == RS_QIDUI:
        out |= (<uint64_t> 1) << F_QIDUI
    elif r.shape == RS_SHISANYAO:
        out |= (<uint64_t> 1) << F_SHISANYAO
    elif r.shape == RS_LIGU:  # its pung counts as an honour pung like any other
        out |= (<uint64_t> 1) << F_LIGU
        t = r.sets[0].tile
        dragons = t >= 31
        winds = 27 <= t < 31
        if winds and t - 27 == seat_wind:
            out |= (<uint64_t> 1) << F_SEAT_WIND_PUNG
        if winds and t - 27 == round_wind:
            out |= (<uint64_t> 1) << F_ROUND_WIND_PUNG
    counts[C_DRAGON_PUNGS] = dragons
    counts[C_WIND_PUNGS] = winds
    return out


# The features ``_best_words`` gives (``_word_bits`` and ``_honour_bits`` beside the hand's):
# a table whose conditions read any other (one added later, say) takes the readings path.
cdef uint64_t W_FEATURES = ((<uint64_t> 1) << (F_SHISANYAO + 1)) - 1 | \
    ~(((<uint64_t> 1) << F_CONTEXT) - 1)
cdef enum:
    W_COUNTED = 4        # counted features below this index: C_GEN .. C_WIND_PUNGS


cdef bint _word_cond(const Cond* c) noexcept:
    cdef int j
    cdef uint64_t named = c.on | c.off
    for j in range(2):
        if c.cnt[j] >= W_COUNTED:
            return 0
    for j in range(c.nany):
        named |= c.any_on[j] | c.any_off[j]
    return not (named & ~W_FEATURES)


cdef inline uint64_t _word_bits(int w) noexcept nogil:
    """The features of a standard reading of word w that its word decides (``_reading_bits``
    says the same of each reading)."""
    cdef uint64_t out = (<uint64_t> 1) << F_STANDARD
    if not (w & RW_RUN):
        out |= (<uint64_t> 1) << F_PUNG
    if not (w & RW_PUNG):
        out |= (<uint64_t> 1) << F_CHOW
    if not (w & RW_PLAIN):
        out |= (<uint64_t> 1) << F_YAOJIU
    return out


cdef uint64_t _honour_bits(const Packed* p, const MeldInfo* mi, int seat_wind,
                           int round_wind, int* counts) noexcept nogil:
    """The features every standard reading takes from its honour sets and pair (one split:
    the pungs of the 3s, the pair of a 2, the honour melds), as ``_reading_bits`` reads them,
    and the counted ones."""
    cdef uint64_t out = 0
    cdef int t, j, dragons = 0, winds = 0
    for j in range(7 + mi.n):
        if j < 7:
            t = 27 + j
            if p.cnt[t] == 2:
                out |= (<uint64_t> 1) << (F_DRAGON_PAIR if t >= 31 else F_WIND_PAIR)
            if p.cnt[t] != 3:
                continue
        else:
            t = mi.sets[j - 7].tile
            if t < 27 or mi.sets[j - 7].kind == SET_CHOW:
                continue
        if t >= 31:
            dragons += 1
        else:
            winds += 1
            if t - 27 == seat_wind:
                out |= (<uint64_t> 1) << F_SEAT_WIND_PUNG
            if t - 27 == round_wind:
                out |= (<uint64_t> 1) << F_ROUND_WIND_PUNG
    counts[C_DRAGON_PUNGS] = dragons
    counts[C_WIND_PUNGS] = winds
    return out


from cpython.ref cimport PyObject, Py_DECREF, Py_XDECREF
from cpython.dict cimport PyDict_GetItemWithError, PyDict_Next
from cpython.object cimport Py_TYPE
from libc.stdint cimport uintptr_t

cdef enum:
    # the compiled tables' one cache (``CompiledTable._memo_get``): answers kept, and
    # questions seen (powers of 2), for every table of every rule set together
    MEMO_SLOTS = 1 << 16
    SEEN_SLOTS = 1 << 15
    SEEN_WAYS = 8        # marks a bucket (one 16-byte read): a question's mark goes in its bucket


cdef struct MemoSlot:    # one remembered answer: strong references, NULL when empty
    PyObject* hand
    PyObject* key        # the context key (compared by identity)
    PyObject* result
    void* table          # the CompiledTable that answered (its slots go when it goes)
    Py_hash_t hash       # the hand's
    int tile


cdef MemoSlot* _memo = <MemoSlot*> calloc(MEMO_SLOTS, sizeof(MemoSlot))  # pages on use only
# bit i: slot i holds an answer (so emptying the memo reads 8 KB, not every slot)
cdef uint64_t* _memo_used = <uint64_t*> calloc(MEMO_SLOTS // 64, sizeof(uint64_t))
# a question's mark: 16 bits of its hash (a false match only keeps an answer sooner: the memo
# slot checks the question itself), so the marks stay in 64 KB, near the core's caches
cdef uint16_t* _seen = <uint16_t*> calloc(SEEN_SLOTS, sizeof(uint16_t))
if _memo == NULL or _seen == NULL or _memo_used == NULL:
    raise MemoryError()


cdef void _memo_drop(void* table) noexcept:
    """Empty the slots of one table (NULL: of every table), and forget every question seen."""
    cdef Py_ssize_t i, w
    cdef uint64_t x
    cdef MemoSlot e
    if table == NULL:
        memset(_seen, 0, SEEN_SLOTS * sizeof(uint16_t))
    for w in range(MEMO_SLOTS // 64):  # (the slots kept, by ``_memo_used``: few after cold)
        x = _memo_used[w]
        while x:
            i = 64 * w + __builtin_ctzll(x)
            x &= x - 1
            e = _memo[i]
            if e.result == NULL or table != NULL and e.table != table:
                continue  # (NULL: dropped by a drop its releases ran, a table's dealloc)
            _memo[i].hand = _memo[i].key = _memo[i].result = NULL
            _memo[i].table = NULL
            _memo_used[w] &= ~((<uint64_t> 1) << (i & 63))
            Py_DECREF(<object> e.hand)
            Py_DECREF(<object> e.key)
            Py_DECREF(<object> e.result)


@cython.final  # (its cdef methods called directly, not through a table)
cdef class CompiledContext:
    """One win context as the compiled table sees it: its feature bits (the rule set's own
    context features), the winds, and the payments per value (filled on first use)."""

    cdef uint64_t bits
    cdef int seat_wind, round_wind, missing_suit, flower_sets, seat_flowers
    cdef bint no_melds, drawn
    cdef bint plain_melds    # every meld must be a plain set (no one-tile meld)
    cdef int meld_count      # melds the context names a source for (-1: none given)
    cdef uint32_t named      # bit i: meld i's source seat is named (never an angang's)
    cdef uint32_t not_left   # bit i: meld i named from a seat other than the left (no chi)
    cdef bint sources_complete  # every meld but an angang must name its source
    cdef object self_drawn
    cdef object pay          # pay(value, multiplier) -> payments tuple
    cdef PyObject** pays     # its answers by value, kept on first use (owned references;
                             # CT_FANS of them, allocated then: none in a derived context)
    cdef object settle       # settle(result, hand, tile) -> result, or None
    # a self-drawn win's liability for a meld's feeder (``liable_meld``), by rule: the main
    # pattern ids it needs (() for any), the tiles whose melds count, how many must, its id
    cdef int nliab
    cdef tuple liab_mains, liab_ids
    cdef uint64_t liab_tiles[CT_LIABILITIES]
    cdef int liab_melds[CT_LIABILITIES]
    cdef tuple feeders       # the seat that fed meld i (None: not named), or None
    cdef object winner       # the winner's seat, and how many payments the liable one pays
    cdef int liable_pays
    # wild hands (``score_wild``): the wild kind, the kind whose tiles play as its natural kind
    # (its slot then holds the wilds; -1: none), wilds known to be out of the hand, tiles
    # never won on a discard here, features some reading must hold, whether the context
    # claims a kong among the melds, the liability named, counted context features
    cdef int wild, proxy, wilds_gone, liable_seat
    cdef uint64_t blocked, require
    cdef bint needs_kong
    # copies of each kind held elsewhere (another seat's declared melds): a hand that would
    # make a fifth copy with them is handed back (``_fifth_copy``); any_elsewhere: any held
    cdef uint8_t elsewhere[34]
    cdef bint any_elsewhere
    cdef object liable
    cdef int ctx_counts[NCTXCOUNTED]
    cdef dict paid           # score_placed: pay(base, multiplier, patterns) answers, kept
    # ... and whether pay refused them, in C for the placed waits (``_placed_pays``):
    # PAID_SEEN slots of (base | multiplier << 32, patterns, 0 empty / 1 paid / 2 refused),
    # NULL until used
    cdef uint64_t* paid_known
    # the least value x multiplier pay answers, when it refuses exactly those below (-1: not
    # known): the placed waits, which need only whether a value is paid, then ask no pay
    cdef long long pays_from
    cdef CompiledContext base  # the context this one was derived from (``derived``)
    cdef CtxRows rows        # what it decides of the rows of the additive table whose
    cdef uint64_t rows_of    # ``serial`` is rows_of (0: none yet; ``_rows_of``)

    def __init__(self, uint64_t bits, bint self_drawn, pay, int seat_wind=-1,
                 int round_wind=-1, int missing_suit=-1, bint no_melds=False,
                 bint plain_melds=False, meld_sources=None, settle=None,
                 int flower_sets=0, int seat_flowers=0, int wild=-1, int proxy=-1,
                 int wilds_gone=0, uint64_t blocked=0, uint64_t require=0,
                 bint needs_kong=False, liable="", int liable_seat=-1, tuple counts=(),
                 bint sources_complete=False,
                 tuple liabilities=(), tuple feeders=None, int winner=-1, int liable_pays=1,
                 tuple elsewhere=(), long long pays_from=-1):
        """``meld_sources``: (number of melds, named mask, not_left mask) of a context that
        says who fed each meld; ``score`` leaves a hand whose melds do not fit it (and, with
        ``plain_melds``, one with a one-tile meld) to the Python path, which refuses it.
        ``settle``: the rule set's last word on a result (checks that may raise, who is
        liable), called by ``score_in`` before it answers or a memo keeps it. (``score`` and
        the batches give the table's result as it is.) ``flower_sets``, ``seat_flowers``: the
        context's counted features of those names. ``sources_complete``: with ``meld_sources``, a meld not named must be an
        angang too (else the hand is handed back). ``liabilities``: ((main pattern ids or
        (), tile mask, melds, liability id), ...), of which the one whose melds came
        earliest (the first on a tie) makes the feeder (``feeders``) of its last meld pay
        ``liable_pays`` times the multiplier to ``winner`` alone (``_liable``). ``elsewhere``:
        34 counts of the tiles other seats hold in view (Wuhan's ``payer_melds``), or ():
        a hand that would make a fifth copy with them is handed back by the scoring paths,
        the batches and the placed waits (the Python path refuses it); the placed waits
        leave out a kind of which they and the hand hold four, and the other waits hand
        every question in such a context back. ``pays_from``: the least base x multiplier
        ``pay`` answers, when it refuses exactly those below it (-1: not known)."""
        self.bits = bits
        self.pays_from = pays_from
        self.self_drawn = bool(self_drawn)
        self.drawn = self_drawn
        self.flower_sets = flower_sets
        self.seat_flowers = seat_flowers
        self.pay = pay
        self.seat_wind = seat_wind
        self.round_wind = round_wind
        self.missing_suit = missing_suit
        self.no_melds = no_melds
        self.plain_melds = plain_melds
        self.meld_count, self.named, self.not_left = (-1, 0, 0) if meld_sources is None \
            else meld_sources
        self.sources_complete = sources_complete
        self.settle = settle
        if len(counts) > NCTXCOUNTED:
            raise ValueError(f"at most {NCTXCOUNTED} counted context features")
        self.wild = wild
        self.proxy = proxy
        self.wilds_gone = wilds_gone
        self.blocked = blocked
        self.require = require
        self.needs_kong = needs_kong
        self.liable = liable
        self.liable_seat = liable_seat
        self.paid = {}
        if len(liabilities) > CT_LIABILITIES:
            raise ValueError(f"at most {CT_LIABILITIES} liabilities")
        self.nliab = len(liabilities)
        self.liab_mains = tuple(tuple(x[0]) for x in liabilities)
        self.liab_ids = tuple(x[3] for x in liabilities)
        for i, x in enumerate(liabilities):
            self.liab_tiles[i] = x[1]
            self.liab_melds[i] = x[2]
        self.feeders = feeders
        self.winner = winner
        self.liable_pays = liable_pays
        for i in range(NCTXCOUNTED):
            self.ctx_counts[i] = counts[i] if i < len(counts) else 0
        if len(elsewhere) not in (0, 34):
            raise ValueError("elsewhere holds 34 counts, or none")
        self.any_elsewhere = 0
        for i in range(34):
            self.elsewhere[i] = elsewhere[i] if elsewhere else 0
            self.any_elsewhere |= self.elsewhere[i] != 0

    def __dealloc__(self):
        cdef int i
        if self.pays != NULL:
            for i in range(CT_FANS):
                Py_XDECREF(self.pays[i])
            free(self.pays)
        free(self.paid_known)

    cdef CompiledContext derived(self):
        """A copy of this context (every field) whose payments are this one's: a context
        derived from its situation (``CompiledEntry``'s per-hand keys), which the entry then
        gives the per-hand values (its meld sources, its ``ContextPart``s)."""
        cdef CompiledContext c = CompiledContext.__new__(CompiledContext)
        c.bits = self.bits
        c.seat_wind = self.seat_wind
        c.round_wind = self.round_wind
        c.missing_suit = self.missing_suit
        c.flower_sets = self.flower_sets
        c.seat_flowers = self.seat_flowers
        c.no_melds = self.no_melds
        c.drawn = self.drawn
        c.plain_melds = self.plain_melds
        c.meld_count = self.meld_count
        c.named = self.named
        c.not_left = self.not_left
        c.sources_complete = self.sources_complete
        c.self_drawn = self.self_drawn
        c.pay = self.pay
        c.base = self  # (the per-hand values never change the payments: the base's)
        c.settle = self.settle
        c.nliab = self.nliab
        c.liab_mains = self.liab_mains
        c.liab_ids = self.liab_ids
        memcpy(c.liab_tiles, self.liab_tiles, sizeof(self.liab_tiles))
        memcpy(c.liab_melds, self.liab_melds, sizeof(self.liab_melds))
        c.feeders = self.feeders
        c.winner = self.winner
        c.liable_pays = self.liable_pays
        c.wild = self.wild
        c.proxy = self.proxy
        c.wilds_gone = self.wilds_gone
        c.liable_seat = self.liable_seat
        c.blocked = self.blocked
        c.require = self.require
        c.needs_kong = self.needs_kong
        memcpy(c.elsewhere, self.elsewhere, sizeof(self.elsewhere))
        c.any_elsewhere = self.any_elsewhere
        c.liable = self.liable
        memcpy(c.ctx_counts, self.ctx_counts, sizeof(self.ctx_counts))
        c.paid = self.paid  # (its payments are this one's)
        c.pays_from = self.pays_from
        return c

    cdef object payment(self, int fan, int mult, mult_obj):
        """``pay(fan, mult)`` (``mult_obj``: mult as an object), kept by value (0..CT_FANS-1)
        on first use: a C array, no list look-up per score (a derived context's are its
        base's, shared)."""
        if self.base is not None:
            return self.base.payment(fan, mult, mult_obj)
        if self.pays == NULL:
            self.pays = <PyObject**> calloc(CT_FANS, sizeof(PyObject*))
            if self.pays == NULL:
                raise MemoryError()
        cdef PyObject* got = self.pays[fan]
        if got != NULL:
            return <object> got
        x = self.pay(fan, mult_obj)
        Py_INCREF(x)
        self.pays[fan] = <PyObject*> x
        return x

    cdef int liable_meld(self, const MeldInfo* mi, tuple hits, int* rule):
        """The meld whose feeder is liable for a win with ``hits`` (``liabilities``: the
        rule whose counted melds are all exposed and complete earliest, the first on a tie;
        its position in ``rule``), else -1."""
        cdef int k, j, n, last, best = -1
        cdef bint concealed
        for k in range(self.nliab):
            n = 0
            last = -1
            concealed = 0
            for j in range(mi.n):
                if self.liab_tiles[k] >> mi.sets[j].tile & 1:
                    n += 1
                    last = j
                    concealed |= mi.sets[j].meld == MK_ANGANG
            if n != self.liab_melds[k] or concealed or best >= 0 and last >= best:
                continue
            # (the main pattern compared by name last: most hands' melds fail first)
            if len(<tuple> self.liab_mains[k]) and (
                    not len(hits) or (<tuple> hits[0])[0] not in <tuple> self.liab_mains[k]):
                continue
            best = last
            rule[0] = k
        return best

    cdef bint melds_fit(self, const MeldInfo* mi, Py_ssize_t nmelds) noexcept nogil:
        """The hand's melds fit this context's meld sources (see ``__init__``)."""
        cdef int j
        if self.meld_count < 0:
            return not self.plain_melds or mi.n == nmelds
        if mi.n != nmelds or nmelds != self.meld_count:
            return 0
        for j in range(mi.n):
            if (self.named >> j & 1 and mi.sets[j].meld == MK_ANGANG) or (
                    self.not_left >> j & 1 and mi.sets[j].meld == MK_CHI) or (
                    self.sources_complete and not self.named >> j & 1 and
                    mi.sets[j].meld != MK_ANGANG):
                return 0
        return 1


@cython.final
cdef class ContextPart:
    """What the values of some per-hand keys of a context change in the compiled context of
    its situation (``CompiledEntry``'s ``parts``, applied in their order): the context
    feature bits under ``mask`` (set to ``bits``), and the winds, counted features and wild
    kind given (-1: the situation's); ``seat_flowers`` may be four, by the seat wind (0-3)
    the context has by then (the seat's own flowers)."""

    cdef uint64_t mask, bits
    cdef int seat_wind, round_wind, flower_sets, wild
    cdef int seat_flowers[4]

    def __init__(self, uint64_t mask=0, uint64_t bits=0, int seat_wind=-1, int round_wind=-1,
                 int flower_sets=-1, seat_flowers=-1, int wild=-1):
        cdef int k
        if bits & ~mask:
            raise ValueError("a part's bits lie under its mask")
        self.mask = mask
        self.bits = bits
        self.seat_wind = seat_wind
        self.round_wind = round_wind
        self.flower_sets = flower_sets
        if wild >= 34:
            raise ValueError("a part's wild is a kind 0-33")
        self.wild = wild
        by_seat = tuple(seat_flowers) if type(seat_flowers) is tuple else (seat_flowers,) * 4
        if len(by_seat) != 4:
            raise ValueError("seat_flowers is one count or four, by the seat wind")
        for k in range(4):
            self.seat_flowers[k] = by_seat[k]

    cdef bint apply(self, CompiledContext c) noexcept:
        """Give ``c`` (a ``derived`` copy) what this part says; false when it cannot: a wild
        kind to a context that blocks tiles (a discard's refusals may name the wild's own)."""
        if self.wild >= 0 and c.blocked:
            return 0
        c.bits = c.bits & ~self.mask | self.bits
        c.rows_of = 0  # (its rows are found again: ``_rows_of``)
        if self.seat_wind >= 0:
            c.seat_wind = self.seat_wind
        if self.round_wind >= 0:
            c.round_wind = self.round_wind
        if self.flower_sets >= 0:
            c.flower_sets = self.flower_sets
        if 0 <= c.seat_wind < 4 and self.seat_flowers[c.seat_wind] >= 0:
            c.seat_flowers = self.seat_flowers[c.seat_wind]
        if self.wild >= 0:
            c.wild = self.wild
        return 1


cdef int _fill_cond(Cond* c, tuple spec) except -1:
    """spec: (on mask, off mask, ((counted index, op, k), ...)[, ((any on mask, any off
    mask), ...)]); op 1: at least k, 0: exactly k, 2: at most k"""
    c.on = spec[0]
    c.off = spec[1]
    c.cnt[0] = c.cnt[1] = -1
    c.ge[0] = c.ge[1] = 0
    c.k[0] = c.k[1] = 0
    c.any_on[0] = c.any_on[1] = c.any_off[0] = c.any_off[1] = 0
    if len(spec[2]) > 2:
        raise ValueError("a compiled condition compares at most two counted features")
    for j, (idx, ge, k) in enumerate(spec[2]):
        c.cnt[j] = idx
        c.ge[j] = ge
        c.k[j] = k
    anys = spec[3] if len(spec) > 3 else ()
    if len(anys) > 2:
        raise ValueError("a compiled condition has at most two either-or terms")
    c.nany = len(anys)
    for j, (on, off) in enumerate(anys):
        c.any_on[j] = on
        c.any_off[j] = off
    return 0


cdef enum:
    DEC_ROW = 16   # score_batch_detail: a hand's decomposition row (4 bytes + 12 tiles)
DETAIL_DEC_WIDTH = DEC_ROW


cdef struct _DetailKey:      # what makes two scored hands of a batch share a result row
    int16_t value, raw
    int8_t main, flat, nextra
    uint8_t ctx, shape
    int8_t extra_idx[CT_EXTRAS]
    int8_t extra_n[CT_EXTRAS]
    uint32_t floors


cdef struct _DetailRow:
    _DetailKey key
    Valued_ best


cdef inline void _detail_key(_DetailRow* d, const CReading* r, uint8_t ctx,
                             int flat) noexcept nogil:
    """``d.key`` from ``d.best`` (zeroed first: keys are compared as bytes)."""
    cdef int j
    memset(&d.key, 0, sizeof(_DetailKey))
    d.key.value = d.best.value
    d.key.raw = d.best.raw
    d.key.flat = flat
    d.key.ctx = ctx
    d.key.shape = r.shape
    if flat < 0:  # a flat pattern stands alone (``_hits``)
        d.key.main = d.best.main
        d.key.nextra = d.best.nextra
        d.key.floors = d.best.floors
        for j in range(d.best.nextra):
            d.key.extra_idx[j] = d.best.extra_idx[j]
            d.key.extra_n[j] = d.best.extra_n[j]


cdef inline uint64_t _detail_hash(const _DetailKey* k) noexcept nogil:
    cdef const uint8_t* b = <const uint8_t*> k
    cdef uint64_t h = 1469598103934665603ULL
    cdef size_t i
    for i in range(sizeof(_DetailKey)):
        h = (h ^ b[i]) * 1099511628211ULL
    return h ^ (h >> 29)


cdef inline void _detail_decomposition(const CReading* r, uint8_t* out) noexcept nogil:
    """A decomposition row of ``score_batch_detail`` (``_decomposition``'s tiles)."""
    cdef int j, k = 4
    out[0] = r.shape
    if r.shape != RS_STANDARD:
        return
    out[1] = <uint8_t> r.pair
    for j in range(r.nsets):
        if r.sets[j].meld == MK_NONE and r.sets[j].kind == SET_CHOW and k < DEC_ROW:
            out[k] = r.sets[j].tile
            out[2] += 1
            k += 1
    for j in range(r.nsets):
        if r.sets[j].meld == MK_NONE and r.sets[j].kind != SET_CHOW and k < DEC_ROW:
            out[k] = r.sets[j].tile
            out[3] += 1
            k += 1


cdef enum:
    HITS_SLOTS = 256     # a table's hit tuples kept (``_hits``): few combinations recur
    NEAR_SLOTS = 256     # a table's contexts asked lately, found by their key's identity


cdef struct NearSlot:    # a context key asked lately and its compiled context (NULL: empty)
    PyObject* key        # (strong references: a key kept cannot be another's address)
    PyObject* context


cdef struct HitsSlot:    # one hit tuple kept, under its key (``_hits_key``; 0: empty)
    uint64_t key[2]
    PyObject* hits       # a strong reference


cdef inline bint _hits_key(const Valued_* v, uint64_t* key) noexcept nogil:
    """What decides a reading's hit tuple in two words: the main pattern (or that none is
    listed), the floors, each extra's count; 0 when it does not fit (an extra past the 16th)."""
    cdef int j
    key[0] = ((<uint64_t> 1) << 63) | (<uint64_t> (0x7F if v.unlisted else v.main)) | \
        (<uint64_t> v.floors) << 8
    key[1] = 0
    for j in range(v.nextra):
        if v.extra_idx[j] >= 16:
            return 0
        key[1] |= (<uint64_t> v.extra_n[j]) << (4 * v.extra_idx[j])
    return 1


cdef inline void _hits_keep(HitsSlot* slot, const uint64_t* key, object hits) noexcept:
    """Keep ``hits`` in ``slot`` under ``key`` (``CompiledTable._hits_kept``'s slot)."""
    Py_INCREF(hits)
    Py_XDECREF(slot.hits)
    slot.hits = <PyObject*> hits
    slot.key[0] = key[0]
    slot.key[1] = key[1]


cdef enum:
    TILES_SLOTS = 4096   # tuples of tile ids kept (``_tiles_tuple``)


cdef struct TilesSlot:   # one tuple kept under its key (0: empty)
    uint64_t key
    PyObject* tup        # a strong reference


cdef TilesSlot* _tiles_kept = <TilesSlot*> calloc(TILES_SLOTS, sizeof(TilesSlot))
if _tiles_kept == NULL:
    raise MemoryError()


cdef tuple _tiles_tuple(const uint8_t* tiles, int n, int kind):
    """The tuple of ``n`` tile ids (a decomposition's chows, kind 0, or pungs, 1): the same few
    recur from hand to hand, so each is kept (TILES_SLOTS, the newest in its slot) rather
    than built per score."""
    if n == 0:
        return ()
    cdef uint64_t key = 1 | (<uint64_t> kind) << 1 | (<uint64_t> n) << 2
    cdef int j
    for j in range(n):
        key |= (<uint64_t> tiles[j]) << (5 + 6 * j)
    cdef TilesSlot* slot = &_tiles_kept[(key * 0x9E3779B97F4A7C15u) >> 52]
    if slot.key == key:
        return <tuple> slot.tup
    cdef tuple out = PyTuple_New(n)
    for j in range(n):
        _put(out, j, mj_int(tiles[j]))
    PyObject_GC_UnTrack(out)
    Py_INCREF(out)
    Py_XDECREF(slot.tup)
    slot.tup = <PyObject*> out
    slot.key = key
    return out


cdef uint64_t _table_serial = 0   # the last ``CompiledTable.serial`` given


@cython.final  # (its cdef methods called directly, not through a table)
cdef class CompiledTable:
    """A fan table under one options object, as arrays (built by
    ``mjcore.rules.common.compiled.compile_table``; see there for the fields)."""

    cdef int npat, nextra, nfloor
    cdef CPat pat[CT_PATTERNS]
    cdef CExtra extra[CT_EXTRAS]
    cdef Cond floor[CT_FLOORS]
    cdef int policy, cap, floor_value, hand_tiles, max_suits
    cdef bint tie_by_value, flat_after, mult_pow2, no_honours, qidui, shisanyao
    cdef bint flat_alone, ligu, one_kind_used
    cdef uint64_t plain_rows, flat_rows   # table positions of the ordinary and flat rows
    cdef uint64_t times_rows     # ... of the patterns counted more than once (``times``)
    cdef uint64_t exempt_rows    # ... and of those exempt from the cap
    cdef int min_raw
    cdef readonly bint by_words  # every condition reads features the reading words give
    cdef list pattern_hits, extra_hits, floor_hits, alone_hits, pattern_times_hits
    cdef object result_type, decomposition_type, wait_type, name, unit
    cdef tuple multipliers       # the multiplier by value (None: mult_pow2 decides)
    cdef bint wilds              # a table of hands holding wilds (``score_wild``)
    cdef int mult_of[CT_FANS]    # the multiplier by value, -1 past them (``score`` answers None)
    cdef PyObject* mult_obj[CT_FANS]   # ... as an object (borrowed from ``mult_objects``)
    cdef list mult_objects
    cdef bint wild_pair_sets_wild  # wild readings: the sets beside a wild pair may hold wilds
    # placements (``score_placed``): the hand's doublings and refusals as data
    cdef bint placed, must_open
    cdef dict meld_codes         # meld kind -> MK_* (or 14/15: laid aside), opens (16), factor << 8
    cdef int open_factor
    cdef uint64_t no_kinds, tie_patterns
    cdef dict contexts
    cdef NearSlot* near          # NEAR_SLOTS contexts asked lately (``_context_of``; NULL until used)
    cdef HitsSlot* hits_kept     # HITS_SLOTS hit tuples of several patterns (NULL until used)
    # the additive policy's ordinary rows by their counted terms (``_row_counts``; their
    # plain terms: ``fails``): cnt_ok[c][v], the rows whose terms on counted feature c hold
    # when it is v (0-15); cnt_rows[c] the rows naming c (cnt_used: some row does)
    cdef uint64_t cnt_ok[NCOUNTED][16]
    cdef uint64_t cnt_rows[NCOUNTED]
    cdef uint16_t cnt_used
    cdef uint64_t rows_more      # rows with either-or terms (``_cond`` for those)
    cdef uint64_t rows_superseding
    # which conditions fail, by one byte of the features (``_fill_fails``): [byte k][its
    # value][0: patterns, 1: extras | floors << 32]; the bytes other than 0 some condition
    # names, and the conditions a counted term or an either-or term leaves to ``_cond``
    cdef uint64_t serial         # this table's number, never another's (``_rows_of``)
    cdef uint64_t* fails
    cdef uint8_t fail_bytes[7]
    cdef int nfail_bytes
    cdef uint64_t all_held[2]
    cdef uint64_t complex_held[2]
    def __dealloc__(self):
        _memo_drop(<void*> self)
        free(self.fails)
        self._near_clear()
        free(self.near)
        cdef int i
        if self.hits_kept != NULL:
            for i in range(HITS_SLOTS):
                Py_XDECREF(self.hits_kept[i].hits)
            free(self.hits_kept)

    @staticmethod
    def clear_cache():
        """Forget every answer the compiled tables' cache keeps, and every question it saw
        (the one cache of every table: ``_memo_get``)."""
        _memo_drop(NULL)

    def __init__(self, dict t):
        global _table_serial
        cdef int i, n
        _table_serial += 1
        self.serial = _table_serial
        patterns, extras, floors = t["patterns"], t["extras"], t["floors"]
        if len(patterns) > CT_PATTERNS or len(extras) > CT_EXTRAS or len(floors) > CT_FLOORS:
            raise ValueError("table too large to compile")
        self.npat = len(patterns)
        for i, p in enumerate(patterns):
            _fill_cond(&self.pat[i].cond, p["when"])
            self.pat[i].value = p["value"]
            self.pat[i].supersedes = p["supersedes"]
            self.pat[i].flat = p["flat"]
            self.pat[i].cap_exempt = p["cap_exempt"]
            self.pat[i].special = p["special"]
            self.pat[i].absorb = p["absorb"][0]
            self.pat[i].absorb_n = p["absorb"][1]
            self.pat[i].times = p.get("times", -1)
            if self.pat[i].times >= 0:
                self.times_rows |= (<uint64_t> 1) << i
            if self.pat[i].cap_exempt:
                self.exempt_rows |= (<uint64_t> 1) << i
        self.nextra = len(extras)
        for i, e in enumerate(extras):
            _fill_cond(&self.extra[i].cond, e["when"])
            self.extra[i].times = e["times"]
            self.extra[i].value = e["value"]
        self.nfloor = len(floors)
        for i, f in enumerate(floors):
            _fill_cond(&self.floor[i], f["when"])
        self.policy = t["policy"]
        self.cap = -1 if t["cap"] is None else t["cap"]
        self.floor_value = t["floor_value"]
        self.tie_by_value = t["tie_by_value"]
        self.flat_after = t["flat_after"]
        self.mult_pow2 = t["mult_pow2"]
        self.hand_tiles = t["hand_tiles"]
        self.max_suits = t["max_suits"]
        self.no_honours = t["no_honours"]
        self.qidui = t["qidui"]
        self.shisanyao = t["shisanyao"]
        self.ligu = t.get("ligu", False)
        self.flat_alone = t.get("flat_alone", False)
        self.min_raw = t.get("min_raw", 0)
        self.one_kind_used = False  # the wait search runs only for a table that asks
        self.plain_rows = self.flat_rows = 0
        for i in range(self.npat):
            if self.pat[i].flat:
                self.flat_rows |= (<uint64_t> 1) << i
            else:
                self.plain_rows |= (<uint64_t> 1) << i
            if (self.pat[i].cond.on | self.pat[i].cond.off | self.pat[i].cond.any_on[0] |
                    self.pat[i].cond.any_on[1] | self.pat[i].cond.any_off[0] |
                    self.pat[i].cond.any_off[1]) >> F_ONE_KIND_WAIT & 1:
                self.one_kind_used = True
        self.pattern_times_hits = [list(h) for h in t.get("pattern_times_hits", ())]
        self.pattern_hits = list(t["pattern_hits"])
        self.alone_hits = [(h,) for h in self.pattern_hits]  # the usual answer: one pattern
        self.extra_hits = [list(h) for h in t["extra_hits"]]
        for h in self.extra_hits:
            if len(h) != CT_TIMES:
                raise ValueError("an extra lists its hits for 0..8 times")
        self.floor_hits = list(t["floor_hits"])
        self.result_type = t["result_type"]
        self.decomposition_type = t["decomposition_type"]
        self.wait_type = t["wait_type"]
        self.name = t["name"]
        self.unit = t["unit"]
        self.multipliers = t.get("multipliers")
        self.wilds = t.get("wilds", False)
        self.mult_objects = []
        for i in range(CT_FANS):
            if self.multipliers is not None:
                m = self.multipliers[i] if i < len(self.multipliers) else -1
            else:
                m = (1 << i if i <= 30 else -1) if self.mult_pow2 else i
            self.mult_of[i] = m
            self.mult_objects.append(m)
            self.mult_obj[i] = <PyObject*> self.mult_objects[i]
        self.wild_pair_sets_wild = t.get("wild_pair_sets_wild", True)
        self.placed = t.get("placed", False)
        factors, opens = t.get("meld_factors", {}), t.get("open_kinds", ())
        self.meld_codes = {}
        for kind, mk in _MELD_KINDS.items():
            self.meld_codes[kind] = mk
        for kind, role in t.get("one_tile_melds", {}).items():
            self.meld_codes[kind] = 15 if role == "wild" else 14
        for kind in self.meld_codes:
            self.meld_codes[kind] |= (16 if kind in opens else 0) | factors.get(kind, 1) << 8
        self.open_factor = t.get("open_factor", 1)
        self.no_kinds = t.get("no_kinds", 0)
        self.must_open = t.get("must_open", False)
        self.tie_patterns = t.get("tie_patterns", 0)
        self.contexts = {}
        self.by_words = self.policy != POL_ADDITIVE and t.get("by_words", True) and all(
            _word_cond(&self.pat[i].cond) for i in range(self.npat)) and all(
            _word_cond(&self.extra[i].cond) and self.extra[i].times < W_COUNTED
            for i in range(self.nextra)) and all(
            _word_cond(&self.floor[i]) for i in range(self.nfloor))
        self._fill_fails()
        self._row_counts()

    cdef int _fill_fails(self) except -1:
        """``fails`` and its companions, from the conditions' on/off masks: a condition fails
        on byte k of the features when that byte lacks one of its ``on`` bits there or holds
        one of its ``off`` bits."""
        cdef int i, k, x, w
        cdef uint64_t bit, on, off, named = 0
        cdef const Cond* c
        free(self.fails)  # (NULL but when __init__ is called again)
        self.fails = <uint64_t*> calloc(8 * 256 * 2, sizeof(uint64_t))
        if self.fails == NULL:
            raise MemoryError()
        self.all_held[0] = self.all_held[1] = self.complex_held[0] = self.complex_held[1] = 0
        for i in range(self.npat + self.nextra + self.nfloor):
            if i < self.npat:
                c, w, bit = &self.pat[i].cond, 0, (<uint64_t> 1) << i
            elif i < self.npat + self.nextra:
                c, w, bit = &self.extra[i - self.npat].cond, 1, \
                    (<uint64_t> 1) << (i - self.npat)
            else:
                c, w, bit = &self.floor[i - self.npat - self.nextra], 1, \
                    (<uint64_t> 1) << (32 + i - self.npat - self.nextra)
            self.all_held[w] |= bit
            if c.nany or c.cnt[0] >= 0 or c.cnt[1] >= 0:
                self.complex_held[w] |= bit
            named |= c.on | c.off
            for k in range(8):
                on = c.on >> (8 * k) & 0xFF
                off = c.off >> (8 * k) & 0xFF
                for x in range(256 if on | off else 0):
                    if (x & on) != on or x & off:
                        self.fails[(k << 9) + 2 * x + w] |= bit
        self.nfail_bytes = 0
        for k in range(1, 8):
            if named >> (8 * k) & 0xFF:
                self.fail_bytes[self.nfail_bytes] = k
                self.nfail_bytes += 1
        return 0

    cdef inline void _fails_rest(self, uint64_t bits, uint64_t* fail) noexcept nogil:
        """The conditions failing on the bytes of ``bits`` other than byte 0 (the one
        a standard reading's word changes: ``_word_bits``), in ``fail``."""
        cdef int j
        cdef const uint64_t* e
        fail[0] = fail[1] = 0
        for j in range(self.nfail_bytes):
            e = &self.fails[(<int> self.fail_bytes[j] << 9) +
                            2 * (bits >> (8 * self.fail_bytes[j]) & 0xFF)]
            fail[0] |= e[0]
            fail[1] |= e[1]

    cdef inline void _holds_with(self, uint64_t bits, const int* counts, const uint64_t* rest,
                                 uint64_t* held) noexcept nogil:
        """The conditions that hold on features ``bits`` (``_cond`` of each, bit for bit):
        held[0] the patterns, held[1] the extras, floors from bit 32; ``rest``: the
        ``_fails_rest`` of ``bits``."""
        cdef const uint64_t* e = &self.fails[2 * (bits & 0xFF)]
        cdef uint64_t x
        cdef int i
        held[0] = self.all_held[0] & ~(rest[0] | e[0])
        held[1] = self.all_held[1] & ~(rest[1] | e[1])
        x = held[0] & self.complex_held[0]
        while x:
            i = __builtin_ctzll(x)
            x &= x - 1
            if not _cond(&self.pat[i].cond, bits, counts):
                held[0] &= ~((<uint64_t> 1) << i)
        x = held[1] & self.complex_held[1]
        while x:
            i = __builtin_ctzll(x)
            x &= x - 1
            if not _cond(&self.extra[i].cond if i < 32 else &self.floor[i - 32], bits, counts):
                held[1] &= ~((<uint64_t> 1) << i)

    cdef inline void _holds(self, uint64_t bits, const int* counts,
                            uint64_t* held) noexcept nogil:
        cdef uint64_t rest[2]
        self._fails_rest(bits, rest)
        self._holds_with(bits, counts, rest, held)

    def held_conditions(self, uint64_t bits, counts):
        """The conditions that hold on the features ``bits`` and the counted ``counts`` (a
        sequence, the rule set's counted context features after the core's): (patterns,
        extras, floors), each a mask by table position; twice: by ``_holds``, and with the
        bytes but byte 0 taken from other features first, as a reading word's value takes
        them (``_words_in``). For tests."""
        cdef int c[NCOUNTED + NCTXCOUNTED]
        cdef uint64_t held[2]
        cdef uint64_t other[2]
        cdef uint64_t rest[2]
        cdef int i
        for i in range(NCOUNTED + NCTXCOUNTED):
            c[i] = counts[i]
        self._holds(bits, c, held)
        self._fails_rest(bits ^ 0xFF, rest)  # (only byte 0 differs, which it does not read)
        self._holds_with(bits, c, rest, other)
        return ((held[0], held[1] & 0xFFFFFFFF, held[1] >> 32),
                (other[0], other[1] & 0xFFFFFFFF, other[1] >> 32))

    def context(self, key):
        """The compiled context stored under ``key`` (None if none)."""
        return self.contexts.get(key)

    def add_context(self, key, CompiledContext c):
        return self._add_context(key, c)

    cdef CompiledContext _add_context(self, key, CompiledContext c):
        if len(self.contexts) >= CT_CONTEXTS:  # bounded: contexts are few, but keys are input
            self.forget_contexts()
        self.contexts[key] = c
        if self.near != NULL:  # (a key given again: its slot must not keep the old one)
            self._near_drop(key)
        return c

    def forget_contexts(self):
        """Forget every compiled context (the entry derives them again when asked)."""
        self.contexts.clear()
        self._near_clear()

    cdef inline NearSlot* _near_slot(self, key) noexcept:
        return &self.near[(<uintptr_t> <PyObject*> key * 0x9E3779B97F4A7C15u) >> 56]  # (8 bits)

    cdef object _context_of(self, key):
        """``contexts.get(key)``, a key asked lately found by identity in its slot (no hash,
        no comparison: a context key is most often the same object call after call)."""
        cdef NearSlot* e
        cdef PyObject* old_key
        cdef PyObject* old_context
        if self.near != NULL:
            e = self._near_slot(key)
            if e.key == <PyObject*> key:
                return <object> e.context
        got = self.contexts.get(key)
        if got is None:
            return None
        if self.near == NULL:
            self.near = <NearSlot*> calloc(NEAR_SLOTS, sizeof(NearSlot))
            if self.near == NULL:
                raise MemoryError()
        e = self._near_slot(key)
        old_key = e.key  # (released last: the slot is whole first)
        old_context = e.context
        Py_INCREF(key)
        Py_INCREF(got)
        e.key = <PyObject*> key
        e.context = <PyObject*> got
        Py_XDECREF(old_key)
        Py_XDECREF(old_context)
        return got

    cdef void _near_drop(self, key) noexcept:
        cdef NearSlot* e = self._near_slot(key)
        cdef PyObject* old_context = e.context
        if e.key == <PyObject*> key:
            e.key = e.context = NULL
            Py_DECREF(key)
            Py_DECREF(<object> old_context)

    cdef void _near_clear(self) noexcept:
        cdef int i
        cdef PyObject* k
        cdef PyObject* c
        if self.near == NULL:
            return
        for i in range(NEAR_SLOTS):
            k, c = self.near[i].key, self.near[i].context
            self.near[i].key = self.near[i].context = NULL
            Py_XDECREF(k)
            Py_XDECREF(c)

    def evaluate(self, hand, int tile, CompiledContext c):
        """The best reading's (value, total before the cap, hits, decomposition or shape id,
        kind: ``pung``/``chow``/``mixed`` for a standard reading, else its shape), for a rule
        set that settles the rest itself; None when the Python path must answer."""
        if not isinstance(hand, HandBase) or tile < 0 or tile >= 34:
            return None
        cdef HandBase h = <HandBase> hand
        cdef const Packed* p = &h.p
        cdef CReading rs[RD_MAX]
        cdef Valued_ best
        cdef int bi, flat, s
        cdef uint64_t held, bits
        if p.cnt[tile] == 0 or p.ncon + 3 * h.n_melds != self.hand_tiles:
            return None
        if h.n_melds and (c.no_melds or not h.melds_plain):
            return None
        held = _held_mask(p)
        s = _suits_of(held)
        if (self.no_honours and held & M_HON) or _nsuits(s) > self.max_suits:
            return None
        bi = self._best(p, &h.mi, held, c, rs, &best, &flat)
        if bi < 0:
            return None
        cdef int counts[NCOUNTED]
        if rs[bi].shape != RS_STANDARD:
            kind = _SHAPE_OF[rs[bi].shape]
        else:
            bits = _reading_bits(&rs[bi], -1, -1, counts)
            kind = _KIND_OF[(bits >> F_PUNG & 1) | (bits >> F_CHOW & 1) << 1]
        return (best.value, best.raw, self._hits(&best, flat), self._decomposition(&rs[bi]),
                kind)

    def score_batch(self, counts, wins, melds, CompiledContext c):
        """Score N hands given as buffers, with the GIL released and no Python object per
        hand: ``counts`` N*34 uint8 (the concealed tiles, winning tile included), ``wins`` N
        uint8 (the winning tile ids), ``melds`` N*8 uint8 or None (per hand four (kind,
        lowest tile) pairs: kind 0 none, 1 chi, 2 peng, 3 gang, 4 angang, 5 bugang), all in
        one context ``c``. Returns (value, raw, main, status) as bytes: int16 value and total
        before the cap, int8 main pattern (its table position among the enabled rows; see
        ``pattern_ids``), uint8 status: 0 scored, 1 no win here (or one the Python path must
        answer: ask ``score`` for that hand's error), 2 bad input (counts over 4, wrong
        size, a win tile not held). Objects on demand: ``score`` one hand."""
        cdef _Buffer cb = _Buffer(counts)
        cdef _Buffer wb = _Buffer(wins, 1)
        cdef _Buffer mb
        cdef bint has_melds = melds is not None
        if has_melds:
            mb = _Buffer(melds, 8)
        if wb.n != cb.n or (has_melds and mb.n != cb.n):
            raise MahjongError("bad_argument", "counts, wins and melds must describe as many "
                               "hands")
        cdef Py_ssize_t n = cb.n, i
        cdef bytearray values = bytearray(2 * n), raws = bytearray(2 * n)
        cdef bytearray mains = bytearray(n), status = bytearray(n)
        cdef int16_t* v = <int16_t*> (<uint8_t*> values)
        cdef int16_t* r = <int16_t*> (<uint8_t*> raws)
        cdef int8_t* mn = <int8_t*> (<uint8_t*> mains)
        cdef uint8_t* st = <uint8_t*> status
        cdef const uint8_t* mrow = NULL
        with nogil:
            for i in range(n):
                if has_melds:
                    mrow = mb.data + i * 8
                st[i] = self._batch_one(cb.data + i * 34, wb.data[i], mrow, c,
                                        &v[i], &r[i], &mn[i])
        return bytes(values), bytes(raws), bytes(mains), bytes(status)

    cdef uint8_t _batch_one(self, const uint8_t* src, int tile, const uint8_t* mrow,
                            CompiledContext c, int16_t* value, int16_t* raw,
                            int8_t* main) noexcept nogil:
        cdef CReading rs[RD_MAX]
        cdef Valued_ best
        cdef int flat, bi
        value[0] = raw[0] = -1
        main[0] = -1
        cdef uint8_t st = self._batch_best(src, tile, mrow, c, NULL if self.by_words else rs,
                                           &best, &flat, &bi)
        if st == 0:
            value[0] = best.value
            raw[0] = best.raw
            main[0] = flat if flat >= 0 else best.main
        return st

    cdef uint8_t _batch_best(self, const uint8_t* src, int tile, const uint8_t* mrow,
                             CompiledContext c, CReading* rs, Valued_* best, int* flat,
                             int* bi) noexcept nogil:
        """One hand of a batch read from its buffers and its best reading found (index in
        ``bi``, value in ``best``, a replacing flat pattern in ``flat``): the batch status.
        ``rs`` NULL (``by_words`` tables only): the value alone, no reading built."""
        cdef uint8_t cnt[34]
        cdef uint8_t m[8]
        cdef uint8_t extra[34]   # copies in melds
        cdef Packed p
        cdef MeldInfo mi
        cdef int t, j, k, kind, s, x, total = 0
        cdef uint64_t four = 0, hm = 0
        mj_snapshot(cnt, src)
        if mrow != NULL:
            memcpy(m, mrow, 8)
            mj_barrier()
        memset(extra, 0, 34)
        mi.n = 0
        for j in range(4 if mrow != NULL else 0):
            kind = m[2 * j]
            t = m[2 * j + 1]
            if kind == MK_NONE:
                continue
            if kind > MK_BUGANG or t >= 34 or (kind == MK_CHI and (t >= 27 or t % 9 > 6)):
                return 2
            for k in range(3 if kind == MK_CHI or kind == MK_PENG else 4):
                extra[t + k if kind == MK_CHI else t] += 1
            mi.sets[mi.n].kind = SET_CHOW if kind == MK_CHI else SET_PUNG if kind == MK_PENG \
                else SET_KONG
            mi.sets[mi.n].tile = t
            mi.sets[mi.n].concealed = kind == MK_ANGANG
            mi.sets[mi.n].meld = kind
            mi.n += 1
        # the packed hand (``_pack`` with the melds' copies as caps) in one pass
        for t in range(34):
            x = cnt[t] + extra[t]
            if x > 4:
                return 2
            p.cnt[t] = cnt[t]
            p.cap[t] = 4 - extra[t]
            total += cnt[t]
            four |= (<uint64_t> (x == 4)) << t
            hm |= (<uint64_t> (x != 0)) << t
        if tile >= 34 or cnt[tile] == 0 or total + 3 * mi.n != self.hand_tiles:
            return 2
        for s in range(4):
            p.key[s] = 0
            for j in range(9 if s < 3 else 7):
                p.key[s] += cnt[s * 9 + j] * P5[j]
        p.ncon = total
        p.nmelds = mi.n
        p.four = four
        p.capped = 0
        s = _suits_of(hm)
        if (self.no_honours and hm & M_HON) or _nsuits(s) > self.max_suits or (
                c.missing_suit >= 0 and s >> c.missing_suit & 1) or (mi.n and c.no_melds) or \
                not c.melds_fit(&mi, mi.n) or (c.any_elsewhere and _fifth_copy(&p, c)):
            return 1  # (a batch's melds are plain sets: mi.n of them)
        if rs == NULL:  # (by the words alone: no reading built, only the value is asked)
            bi[0] = self._best_words(&p, &mi, hm, c, NULL, best, flat)
        else:
            bi[0] = self._best(&p, &mi, hm, c, rs, best, flat)
        return 1 if bi[0] < 0 else 0

    def score_batch_detail(self, counts, wins, melds, tuple contexts, context_of):
        """``score_batch`` with everything a ``ScoreResult`` holds, still with the GIL
        released and no Python object per hand: hand i is scored in
        ``contexts[context_of[i]]`` (``context_of``: N uint8; at most 256 contexts). Returns
        (status, row, decomposition, rows):

        - ``status``: N uint8 as in ``score_batch`` (1 also for a value past the table's
          multipliers: ``score`` answers None there too);
        - ``row``: N native ints, hand i's index in ``rows`` (-1 unless scored);
        - ``decomposition``: N * DETAIL_DEC_WIDTH uint8 per hand: shape id (0 standard, 1 qidui,
          2 shisanyao; the ``shape`` of ``rows``), the pair, the numbers of concealed chows and
          pungs, then their lowest tiles in reading order (chows first): ``score``'s
          decomposition;
        - ``rows``: a tuple of the distinct (context index, unit, value, total before the cap,
          multiplier, hits, shape, payments) of the scored hands, each as ``score`` gives it.
        """
        cdef _Buffer cb = _Buffer(counts)
        cdef _Buffer wb = _Buffer(wins, 1)
        cdef _Buffer xb = _Buffer(context_of, 1)
        cdef _Buffer mb
        cdef bint has_melds = melds is not None
        if has_melds:
            mb = _Buffer(melds, 8)
        if wb.n != cb.n or xb.n != cb.n or (has_melds and mb.n != cb.n):
            raise MahjongError("bad_argument", "counts, wins, melds and context_of must describe "
                               "as many hands")
        cdef Py_ssize_t nctx = len(contexts)
        if nctx > 256:
            raise MahjongError("bad_argument", "at most 256 contexts in one batch")
        cdef void* ctxs[256]
        cdef const int* mult_of = self.mult_of
        cdef Py_ssize_t i, n = cb.n
        for i in range(nctx):
            ctxs[i] = <void*> (<CompiledContext?> contexts[i])
        cdef bytearray status = bytearray(n), row = bytearray(n * sizeof(int))
        cdef bytearray dec = bytearray(n * DEC_ROW)
        cdef uint8_t* st = <uint8_t*> status
        cdef int* ro = <int*> (<uint8_t*> row)
        cdef uint8_t* de = <uint8_t*> dec
        cdef Py_ssize_t cap = 64
        while cap < 2 * n:
            cap *= 2
        cdef int* slots = <int*> malloc(cap * sizeof(int))
        cdef _DetailRow* rows = <_DetailRow*> malloc((n if n else 1) * sizeof(_DetailRow))
        cdef int nrows = 0
        cdef const uint8_t* mdata = mb.data if has_melds else NULL
        if slots == NULL or rows == NULL:
            free(slots)
            free(rows)
            raise MemoryError()
        try:
            memset(slots, 0xFF, cap * sizeof(int))
            with nogil:
                nrows = self._detail_all(cb.data, wb.data, mdata,
                                         xb.data, nctx, ctxs, mult_of, n, st, ro, de, slots,
                                         cap, rows)
            if nrows < 0:
                raise MahjongError("bad_argument", "a context_of entry names no context")
            out = PyTuple_New(nrows)
            for i in range(nrows):
                _put(out, i, self._detail_object(&rows[i], contexts[rows[i].key.ctx],
                                                 mult_of[rows[i].key.value]))
        finally:
            free(slots)
            free(rows)
        return bytes(status), bytes(row), bytes(dec), out

    cdef int _detail_all(self, const uint8_t* counts, const uint8_t* wins,
                         const uint8_t* melds, const uint8_t* ctx_of, Py_ssize_t nctx,
                         void** ctxs, const int* mult_of, Py_ssize_t n, uint8_t* st, int* ro,
                         uint8_t* de, int* slots, Py_ssize_t cap,
                         _DetailRow* rows) noexcept nogil:
        """``score_batch_detail``'s loop: the number of distinct rows (kept in ``rows``, found
        through the open-addressing ``slots``), or -1 for a context index out of range."""
        cdef CReading rs[RD_MAX]
        cdef _DetailRow d
        cdef Py_ssize_t i, h
        cdef int flat, bi, nrows = 0, k
        cdef uint8_t x
        for i in range(n):
            x = ctx_of[i]
            if x >= nctx:
                return -1
            ro[i] = -1
            memset(de + i * DEC_ROW, 0, DEC_ROW)
            st[i] = self._batch_best(counts + i * 34, wins[i],
                                     melds + i * 8 if melds != NULL else NULL,
                                     <CompiledContext> ctxs[x], rs, &d.best, &flat, &bi)
            if st[i] != 0:
                continue
            if d.best.value < 0 or d.best.value >= CT_FANS or mult_of[d.best.value] < 0:
                st[i] = 1
                continue
            _detail_key(&d, &rs[bi], x, flat)
            _detail_decomposition(&rs[bi], de + i * DEC_ROW)
            h = _detail_hash(&d.key) & (cap - 1)
            while True:
                k = slots[h]
                if k < 0:
                    rows[nrows] = d
                    slots[h] = nrows
                    k = nrows
                    nrows += 1
                    break
                if memcmp(&rows[k].key, &d.key, sizeof(_DetailKey)) == 0:
                    break
                h = (h + 1) & (cap - 1)
            ro[i] = k
        return nrows

    cdef object _detail_object(self, const _DetailRow* d, CompiledContext c, int mult):
        """One distinct row of ``score_batch_detail`` as objects (``score``'s fields)."""
        cdef int fan = d.key.value
        return (d.key.ctx, self.unit, fan, d.best.raw, mult, self._hits(&d.best, d.key.flat),
                _SHAPE_OF[d.key.shape], c.payment(fan, mult, mult))

    def score_wild(self, hand, tile, CompiledContext c):
        """``score`` of a hand holding wild tiles (the context's wild kind; mjcore/_wilds.pxi,
        "Scoring wild hands"): ``hand`` a ``Hand`` or plain concealed text, ``tile`` an id or
        its text. None when the Python path must answer."""
        return _score_wild(self, hand, tile, c)

    def score_placed(self, hand, tile, CompiledContext c):
        """``score`` of a hand whose wilds (the context's wild kind) are read in every
        placement (mjcore/_wilds.pxi, "Scoring placements"); ``hand`` a ``Hand``. None when
        the Python path must answer."""
        return _score_placed(self, hand, tile, c)

    def valued_waits_placed(self, hand, CompiledContext discard, CompiledContext self_drawn,
                            visible=None):
        """``valued_waits`` of a ready ``Hand`` scored by placements (``score_placed``); None
        when the Python path must answer."""
        return _valued_waits_placed(self, hand, discard, self_drawn, visible)

    def valued_waits_wild(self, hand, CompiledContext discard, CompiledContext self_drawn,
                          visible=None):
        """``valued_waits`` of a ready hand holding wild tiles (physical kinds, the wild kind
        included); None when the Python path must answer."""
        return _valued_waits_wild(self, hand, discard, self_drawn, visible)

    def pattern_ids(self):
        """The ids of the enabled rows, by the position ``score_batch`` reports."""
        return tuple(h.id for h in self.pattern_hits)

    def score_in(self, hand, int tile, key):
        """``score`` in the compiled context stored under ``key`` (a rule set's parsed
        context; ``_score_context``); False when there is none yet (``add_context`` it, then
        ask again)."""
        return self._score_in(hand, tile, key)

    cdef inline object _score_in(self, hand, int tile, key):
        got = self._context_of(key)
        if got is None:
            return False
        return self._score_context(hand, tile, <CompiledContext> got)

    cdef object _score_context(self, hand, int tile, CompiledContext c):
        """The one way this table scores a hand in context ``c``: by the wild searches of
        mjcore/_wilds.pxi for a table of wilds (``score_placed``, ``score_wild``: a ``Hand``,
        or plain concealed text for ``score_wild``), else ``score`` settled by the context's
        ``settle`` (a ``Hand``). None when the Python path must answer."""
        if c.any_elsewhere and (not isinstance(hand, HandBase) or
                                _fifth_copy(&(<HandBase> hand).p, c)):
            return None
        if self.placed:
            return _score_placed(self, hand, tile, c)
        if self.wilds:
            return _score_wild(self, hand, tile, c)
        if not isinstance(hand, HandBase):
            return None
        return self._settled(hand, tile, c)

    cdef inline object _settled(self, hand, int tile, CompiledContext c):
        """``score`` with the context's liability (``_liable``), settled by its ``settle``."""
        got = self._score(hand, tile, c)
        if got is not None and c.nliab and (<HandBase> hand).n_melds:
            got = _liable(self, <HandBase> hand, c, <tuple> got)
        if got is not None and c.settle is not None:
            return c.settle(got, hand, tile)
        return got

    def score_cached(self, hand, tile, key):
        """``score_in``, remembered in the table's own cache (``_memo_get``): the answer for
        this hand (by equality), tile and context key (by identity) when it was asked
        before, else ``score_in``'s. None also when hand or tile is not the plain kind (a
        ``Hand``, or plain text for a table of wilds; a tile id or its two-character text):
        the rule set's own path answers those."""
        return self._score_cached(hand, tile, key)

    cdef object _score_cached(self, hand, tile, key):
        cdef int t = _tile_of(tile)  # (-1 for anything else: a huge int is no tile)
        cdef Py_hash_t hh
        if t < 0:
            return None
        if isinstance(hand, HandBase):
            hh = (<HandBase> hand)._hash
        elif type(hand) is str and self.wilds:
            hh = hash(hand)  # (kept in the text: hashed once)
        else:
            return None
        cdef MemoSlot* e
        got = self._memo_get(hand, hh, t, key, &e)
        if got is not None:
            return got
        got = self._score_in(hand, t, key)
        if e != NULL and got is not None and got is not False:
            self._memo_put(e, hand, hh, t, key, got)
        return got

    def valued_waits_cached(self, hand, CompiledContext discard, CompiledContext self_drawn):
        """``valued_waits`` with no tiles visible, remembered like ``score_cached`` (under the
        hand and the discard context, which must always come with the same self-drawn
        one). None when hand is not a ``Hand`` (or plain text, for a table of wilds) or the
        Python path must answer."""
        return self._valued_waits_cached(hand, discard, self_drawn)

    cdef object _valued_waits_cached(self, hand, CompiledContext discard,
                                     CompiledContext self_drawn, bint sources=False):
        cdef Py_hash_t hh
        if isinstance(hand, HandBase):
            hh = (<HandBase> hand)._hash
        elif type(hand) is str and self.wilds:
            hh = hash(hand)  # (kept in the text: hashed once)
        else:
            return None
        cdef MemoSlot* e
        got = self._memo_get(hand, hh, 34, discard, &e)  # (34: no tile, a wait list)
        if got is not None:
            return got
        # a table of wilds values its waits by the searches of mjcore/_wilds.pxi
        if self.placed:
            got = _valued_waits_placed(self, hand, discard, self_drawn, None)
        elif self.wilds:
            got = _valued_waits_wild(self, hand, discard, self_drawn, None)
        else:
            got = self._valued_waits(hand, discard, self_drawn, None, sources)
        if e != NULL and got is not None:
            self._memo_put(e, hand, hh, 34, discard, got)
        return got

    cdef object _memo_get(self, object h, Py_hash_t hh, int tile, key, MemoSlot** slot):
        """The answer remembered for (h, tile, key), else None with ``slot`` set to where
        the answer should be kept (NULL: not kept). ``hh``: the hand's hash (a ``Hand``'s
        or a text's).

        A question asked once leaves only its mark (in ``_seen``, 2 bytes, in a bucket of
        SEEN_WAYS); its answer is kept when it is asked again (in ``_memo``, MEMO_SLOTS answers
        for every table together, two slots a question may use, a new answer replacing one
        of them). So a never-seen hand costs one look-up in a small array and no memory
        kept, which the cold path cannot pay (an answer kept costs more than its
        computation: fresh memory instead of the cache's), while a repeated one is answered
        from the memo from its third time."""
        cdef uint64_t x = (<uint64_t> hh ^ <uint64_t> tile * 0x9E3779B97F4A7C15u ^
                           (<uint64_t> <uintptr_t> <PyObject*> key) >> 4 ^
                           (<uint64_t> <uintptr_t> <void*> self) << 7)
        x = (x ^ x >> 29) * 0xBF58476D1CE4E5B9u
        x = x ^ x >> 32
        cdef uint16_t* bucket = &_seen[(x & (SEEN_SLOTS // SEEN_WAYS - 1)) * SEEN_WAYS]
        cdef uint16_t seen = <uint16_t> (x >> 48) | 1   # (never 0: 0 marks an empty slot)
        cdef Py_ssize_t i = (x >> 20) & (MEMO_SLOTS - 1)
        cdef MemoSlot* e
        cdef int j
        cdef bint known = 0
        slot[0] = NULL
        for j in range(SEEN_WAYS):
            known |= bucket[j] == seen
        if not known:  # a question not seen before (or its mark replaced): none kept
            bucket[(x >> 16) & (SEEN_WAYS - 1)] = seen
            return None
        for j in range(2):
            e = &_memo[i ^ j]
            if e.result != NULL and e.table == <void*> self and e.tile == tile and \
                    e.key == <PyObject*> key and (
                    e.hand == <PyObject*> h or e.hash == hh and <object> e.hand == h):
                return <object> e.result
        e = &_memo[i]  # (kept in an empty one of the two, else in the one x picks)
        if e.result != NULL and (_memo[i ^ 1].result == NULL or x >> 40 & 1):
            e = &_memo[i ^ 1]
        slot[0] = e
        return None

    cdef void _memo_put(self, MemoSlot* e, object h, Py_hash_t hh, int tile, key,
                        got) noexcept:
        """Keep ``got`` (immutable, acyclic) as the answer for (h, tile, key) in slot e."""
        cdef MemoSlot old = e[0]
        Py_INCREF(h)
        Py_INCREF(key)
        Py_INCREF(got)
        e.hand = <PyObject*> h
        e.key = <PyObject*> key
        e.result = <PyObject*> got
        e.table = <void*> self
        e.hash = hh
        e.tile = tile
        PyObject_GC_UnTrack(got)
        cdef Py_ssize_t i = e - _memo
        if old.result == NULL:
            _memo_used[i >> 6] |= (<uint64_t> 1) << (i & 63)
        else:  # (released last: nothing runs while the slot is half written)
            Py_DECREF(<object> old.hand)
            Py_DECREF(<object> old.key)
            Py_DECREF(<object> old.result)

    cdef int _value(self, uint64_t bits, const int* counts, Valued_* v) noexcept nogil:
        """One reading's value under the policy; 0 when no pattern holds."""
        cdef uint64_t held[2]
        self._holds(bits, counts, held)
        return self._value_held(held, bits, counts, v)

    cdef int _value_held(self, const uint64_t* held, uint64_t bits, const int* counts,
                         Valued_* v) noexcept nogil:
        """``_value`` from the conditions that hold (``_holds``)."""
        cdef uint64_t found = held[0] & self.plain_rows, dropped = 0, rows = found
        cdef int i, n, best = -1, bnet = 0, net, add, j
        cdef uint32_t x
        cdef const CPat* p
        while rows:
            i = __builtin_ctzll(rows)
            rows &= rows - 1
            dropped |= self.pat[i].supersedes
        found &= ~dropped
        if not found:
            return 0
        cdef bint alone = 0
        if self.policy == POL_SHAPE_EVENT:
            return _value_shape_event(self, found, bits, counts, v)
        if self.policy == POL_SUM_TIMES:
            return _value_sum_times(self, found, bits, counts, v)
        cdef uint64_t f = found   # (each loop walks the rows found, in table order)
        if self.policy == POL_CAPPED_BASE:
            while f:
                i = __builtin_ctzll(f)
                f &= f - 1
                if self.pat[i].special and (best < 0 or self.pat[i].value > self.pat[best].value):
                    best = i
            alone = best >= 0
            f = found if best < 0 else 0
            while f:
                i = __builtin_ctzll(f)
                f &= f - 1
                if best < 0 or self.pat[i].value > self.pat[best].value:
                    best = i
        else:
            while f:
                i = __builtin_ctzll(f)
                f &= f - 1
                p = &self.pat[i]
                net = p.value - p.absorb_n
                if best < 0 or net > bnet or (net == bnet and p.value > self.pat[best].value):
                    best = i
                    bnet = net
        p = &self.pat[best]
        v.main = best
        v.rank = best
        v.mainval = p.value
        v.raw = p.value
        v.nextra = 0
        v.floors = 0
        v.unlisted = 0
        if not alone:
            x = <uint32_t> held[1]   # (the extras that hold, in table order)
            while x:
                j = __builtin_ctzll(x)
                x &= x - 1
                n = 1 if self.extra[j].times < 0 else counts[self.extra[j].times]
                if p.absorb == j:
                    n -= p.absorb_n
                if n <= 0 or self.extra[j].value == 0:
                    continue
                if n >= CT_TIMES:
                    return -1
                v.extra_idx[v.nextra] = j
                v.extra_n[v.nextra] = n
                v.nextra += 1
                v.raw += n * self.extra[j].value
        v.value = v.raw if self.cap < 0 or p.cap_exempt or alone or v.raw <= self.cap else self.cap
        if self.policy == POL_CAPPED_BASE:
            v.floors = <uint32_t> (held[1] >> 32)
            if v.floors and v.value < self.floor_value:
                v.value = self.floor_value
        return 1

    cdef int _flat(self, const uint64_t* held, const Valued_* v, bint have) noexcept nogil:
        """A flat pattern that replaces the value: its table position, else -1 (``held``:
        the conditions that hold, ``_holds``)."""
        cdef int i, cmp
        cdef uint64_t rows = self.flat_rows & held[0]
        while rows:
            i = __builtin_ctzll(rows)
            rows &= rows - 1
            cmp = v.raw if self.flat_after else v.value
            if not have or self.pat[i].value >= cmp:
                return i
        return -1

    cdef object _hits_kept(self, const uint64_t* key, HitsSlot** slot):
        """The hit tuple kept under ``key`` (a result's hits recur: a main pattern and a few
        extras), else None with ``slot`` where to keep it (``_hits_keep``). The kinds of key
        differ in their top bits (``_hits_key``'s bit 63, ``_hits_found``'s 62, neither for
        an additive table's)."""
        if self.hits_kept == NULL:
            self.hits_kept = <HitsSlot*> calloc(HITS_SLOTS, sizeof(HitsSlot))
            if self.hits_kept == NULL:
                raise MemoryError()
        slot[0] = &self.hits_kept[((key[0] ^ key[1] * 0xC2B2AE3D27D4EB4Fu) *
                                   0x9E3779B97F4A7C15u) >> 56]  # (HITS_SLOTS: 8 bits)
        if slot[0].key[0] == key[0] and slot[0].key[1] == key[1]:
            return <object> slot[0].hits
        return None

    cdef object _hits(self, const Valued_* v, int flat):
        if flat >= 0:
            return self.alone_hits[flat]
        if self.policy == POL_ADDITIVE:
            return self._hits_additive(v)
        if v.nextra == 0 and v.floors == 0:
            return self.alone_hits[v.main]
        cdef uint64_t key[2]
        cdef HitsSlot* slot = NULL
        if _hits_key(v, key):
            got = self._hits_kept(key, &slot)
            if got is not None:
                return got
        out = self._hits_built(v)
        if slot != NULL:
            _hits_keep(slot, key, out)
        return out

    cdef tuple _hits_built(self, const Valued_* v):
        """``_hits`` of a reading with extras or floors, as a new tuple."""
        cdef int j, n = 0, k = 0
        cdef uint32_t f = v.floors
        while f:
            n += 1
            f &= f - 1
        cdef int first = 0 if v.unlisted else 1
        cdef tuple out = PyTuple_New(first + v.nextra + n)
        if first:
            o = self.pattern_hits[v.main]
            Py_INCREF(o)
            PyTuple_SET_ITEM(out, 0, o)
        for j in range(v.nextra):
            o = (<list> self.extra_hits[v.extra_idx[j]])[v.extra_n[j]]
            Py_INCREF(o)
            PyTuple_SET_ITEM(out, first + j, o)
        k = first + v.nextra
        for j in range(self.nfloor):
            if v.floors >> j & 1:
                o = self.floor_hits[j]
                Py_INCREF(o)
                PyTuple_SET_ITEM(out, k, o)
                k += 1
        PyObject_GC_UnTrack(out)
        return out

    cdef object _decomposition(self, const CReading* r):
        if r.shape != RS_STANDARD:
            return _SHAPE_OF[r.shape]
        cdef int j, nch = 0, npu = 0
        cdef uint8_t ch[RD_SETS]
        cdef uint8_t pu[RD_SETS]
        for j in range(r.nsets):
            if r.sets[j].meld == MK_NONE:
                if r.sets[j].kind == SET_CHOW:
                    ch[nch] = r.sets[j].tile
                    nch += 1
                else:
                    pu[npu] = r.sets[j].tile
                    npu += 1
        chows = _tiles_tuple(ch, nch, 0)
        pungs = _tiles_tuple(pu, npu, 1)
        dec = mj_tuple_of(self.decomposition_type, 3)
        _put(dec, 0, mj_int(r.pair))
        _put(dec, 1, chows)
        _put(dec, 2, pungs)
        PyObject_GC_UnTrack(dec)
        return dec

    cdef int _best(self, const Packed* p, const MeldInfo* mi, uint64_t held, CompiledContext c,
                   CReading* rs, Valued_* best, int* flat) noexcept nogil:
        """The best reading's index (its value in ``best``, a replacing flat pattern in
        ``flat``); -1 when no reading holds, -2 when the Python path must answer."""
        if self.by_words:
            return self._best_words(p, mi, held, c, rs, best, flat)
        return self._best_of(p, mi, held, c, rs, _readings(p, mi, self.qidui, rs,
                                                           self.shisanyao), best, flat)

    cdef int _best_of(self, const Packed* p, const MeldInfo* mi, uint64_t held,
                      CompiledContext c, CReading* rs, int nr, Valued_* best,
                      int* flat) noexcept nogil:
        """``_best`` over the ``nr`` readings already listed in ``rs``."""
        cdef int counts[NCOUNTED]
        cdef int i, bi = -1, f
        cdef Valued_ v
        cdef uint64_t hand, bits
        flat[0] = -1
        if nr < 0 or self.policy == POL_ADDITIVE:  # (additive: _best_additive, by win tile)
            return -2
        if nr == 0:
            return -1
        hand = _hand_bits(p, mi, held, counts) | c.bits
        for i in range(nr):
            bits = hand | _reading_bits(&rs[i], c.seat_wind, c.round_wind, counts)
            f = self._reading_value(bits, counts, &v)
            if f < 0:
                return -2
            if f and (bi < 0 or self._better(&v, best)):
                bi = i
                best[0] = v
        if bi >= 0:
            bits = hand | _reading_bits(&rs[bi], c.seat_wind, c.round_wind, counts)
            self._flat_after(bits, counts, best, flat)
        return bi

    # ------------------------------------------------------------ the additive policy
    # Every pattern that holds and is not superseded adds up (an ``each`` pattern as often as
    # its counted feature says); a flat pattern replaces the sum (``flat_alone``: whatever it
    # is). Readings are weighed with the winning tile in each place it can sit (its slot), as
    # a pung completed by a discard is not concealed and the wait's shape counts. Ties go to
    # the reading whose listed patterns come first in table order.

    cdef void _row_counts(self) noexcept nogil:
        """Fill ``cnt_ok`` and the masks beside it from the ordinary rows' conditions."""
        cdef int x, i, j, c
        cdef uint64_t f, bit
        cdef Cond term          # one counted term alone, read by ``_cond``
        cdef int counts[NCOUNTED]
        memset(&term, 0, sizeof(term))
        term.cnt[1] = -1
        self.cnt_used = 0
        self.rows_more = self.rows_superseding = 0
        for c in range(NCOUNTED):
            self.cnt_rows[c] = 0
            for x in range(16):
                self.cnt_ok[c][x] = self.plain_rows
        f = self.plain_rows
        while f:
            i = __builtin_ctzll(f)
            f &= f - 1
            bit = (<uint64_t> 1) << i
            if self.pat[i].cond.nany:
                self.rows_more |= bit
            for j in range(2):
                c = self.pat[i].cond.cnt[j]
                if c < 0:
                    continue
                if c >= NCOUNTED:  # (a counted context feature: ``_cond`` reads it)
                    self.rows_more |= bit
                    continue
                self.cnt_used |= 1 << c
                self.cnt_rows[c] |= bit
                term.cnt[0], term.ge[0], term.k[0] = c, self.pat[i].cond.ge[j], \
                    self.pat[i].cond.k[j]
                for x in range(16):
                    counts[c] = x
                    if not _cond(&term, 0, counts):
                        self.cnt_ok[c][x] &= ~bit
            if self.pat[i].supersedes:
                self.rows_superseding |= (<uint64_t> 1) << i

    cdef inline uint64_t _row_fails(self, uint64_t bits, bint context) noexcept nogil:
        """The patterns failing (``fails``) on the bytes of ``bits`` that hold a reading's
        features (bytes 0-3, below F_CONTEXT) or, with ``context``, a context's own (4-7):
        the two ORed are the fails of the whole, so a waits question's two contexts share
        the first and each finds its second once. (Each of the four bytes read: a byte no
        condition names fails nothing.)"""
        cdef const uint64_t* f = self.fails + (4 << 9 if context else 0)  # (byte k: at k << 9)
        if context:
            bits >>= F_CONTEXT
        return (f[2 * (bits & 0xFF)] | f[(1 << 9) + 2 * (bits >> 8 & 0xFF)] |
                f[(2 << 9) + 2 * (bits >> 16 & 0xFF)] | f[(3 << 9) + 2 * (bits >> 24 & 0xFF)])

    cdef inline uint64_t _rows_counted(self, uint64_t found, const int* counts, uint32_t used,
                                       uint64_t* more) noexcept nogil:
        """``found`` less the ordinary rows whose terms on the counted features ``used`` (bit
        n: feature n) fail, by the tables of ``_row_counts``; the rows that count a feature
        past those tables are added to ``more`` (``_rows_checked`` checks them in full)."""
        cdef int n, i
        while used:
            n = __builtin_ctzll(used)
            used &= used - 1
            i = counts[n]
            if 0 <= i < 16:
                found &= self.cnt_ok[n][i]
            else:
                more[0] |= self.cnt_rows[n]
        return found

    cdef inline uint64_t _rows_checked(self, uint64_t found, uint64_t more, uint64_t bits,
                                       const int* counts) noexcept nogil:
        """``found`` less the rows of ``more`` whose condition fails (``_cond``)."""
        cdef uint64_t f = found & more
        cdef int i
        while f:
            i = __builtin_ctzll(f)
            f &= f - 1
            if not _cond(&self.pat[i].cond, bits, counts):
                found &= ~((<uint64_t> 1) << i)
        return found

    cdef inline void _context_rows(self, CompiledContext c, CtxRows* out) noexcept nogil:
        """What context c decides of the ordinary rows whatever the reading (a waits
        question finds it once for all its candidates)."""
        cdef int counts[NCOUNTED]
        cdef int i, j
        cdef uint64_t f, on, off, ron, roff, extra_on, extra_off
        cdef uint64_t mine = ~((<uint64_t> 1 << F_CONTEXT) - 1)  # (the bits c decides)
        cdef const Cond* cd
        counts[C_FLOWER_SETS] = c.flower_sets
        counts[C_SEAT_FLOWERS] = c.seat_flowers
        out.fail = self._row_fails(c.bits, 1)
        out.more = self.rows_more
        out.nplain = 0
        out.ok = self._rows_counted(self.plain_rows & ~out.fail, counts,
                                    self.cnt_used & C_OF_CONTEXT, &out.more)
        # a row's either-or terms: one c makes hold is dropped, one it leaves a single
        # feature of the reading to is that feature (any other: the row is left to ``_cond``)
        f = self.rows_more & out.ok
        while f and not (c.bits & ~mine):  # (c's bits below F_CONTEXT: none resolved)
            i = __builtin_ctzll(f)
            f &= f - 1
            cd = &self.pat[i].cond
            if cd.cnt[0] >= NCOUNTED or cd.cnt[1] >= NCOUNTED or out.nplain == CT_RESOLVED:
                continue
            extra_on = extra_off = 0
            for j in range(cd.nany):
                on, off = cd.any_on[j], cd.any_off[j]
                if c.bits & on & mine or ~c.bits & off & mine:
                    continue
                ron, roff = on & ~mine, off & ~mine
                if not (ron | roff) or ron & (ron - 1) or roff & (roff - 1) or ron and roff:
                    break
                extra_on |= ron
                extra_off |= roff
            else:
                out.more &= ~((<uint64_t> 1) << i)
                out.plain[out.nplain] = i
                out.plain_on[out.nplain] = extra_on
                out.plain_off[out.nplain] = extra_off
                out.nplain += 1

    cdef inline const CtxRows* _rows_of(self, CompiledContext c) noexcept:
        """``_context_rows`` of c, found once and kept in c (for this table: its serial).
        (Asked with the GIL held: by ``_score`` and ``_valued_waits``.)"""
        if c.rows_of != self.serial:
            self._context_rows(c, &c.rows)
            c.rows_of = self.serial
        return &c.rows

    cdef uint64_t _rows_holding(self, uint64_t fail, uint64_t bits,
                                const int* counts) noexcept nogil:
        """The ordinary rows whose condition holds (``_cond`` of each, by the tables of
        their plain terms, ``fails``, and of their counted ones, ``_row_counts``');
        ``fail``: the patterns failing on ``bits`` (``_row_fails``, both parts)."""
        cdef uint64_t more = self.rows_more
        cdef uint64_t found = self._rows_counted(self.plain_rows & ~fail, counts, self.cnt_used,
                                                 &more)
        return self._rows_checked(found, more, bits, counts)

    def rows_holding(self, uint64_t bits, counts):
        """The ordinary rows whose condition holds on the features ``bits`` and the counted
        ``counts`` (NCOUNTED of them), as a mask by table position, twice: by the tables the
        additive policy reads (``_rows_holding``) and by ``_cond`` row by row. For tests."""
        cdef int c[NCOUNTED]
        cdef int i
        cdef uint64_t each = 0
        for i in range(NCOUNTED):
            c[i] = counts[i]
        for i in range(self.npat):
            if self.plain_rows >> i & 1 and _cond(&self.pat[i].cond, bits, c):
                each |= (<uint64_t> 1) << i
        return self._rows_holding(self._row_fails(bits, 0) | self._row_fails(bits, 1), bits,
                                  c), each

    cdef int _value_additive(self, uint64_t found, const int* counts,
                             Valued_* v) noexcept nogil:
        """One (reading, slot)'s sum (``found``: the ordinary rows holding); 0 when no
        pattern holds (``v.found`` empty), -1 past CT_TIMES. ``v.found_n``: the count of
        each pattern listed that counts (``times_rows``); any other is there once."""
        cdef uint64_t dropped = 0, f
        cdef int i, n
        f = found & self.rows_superseding
        while f:
            i = __builtin_ctzll(f)
            f &= f - 1
            dropped |= self.pat[i].supersedes
        found &= ~dropped
        v.raw = 0
        f = found & ~self.times_rows
        while f:
            i = __builtin_ctzll(f)
            f &= f - 1
            v.raw += self.pat[i].value
        f = found & self.times_rows
        while f:
            i = __builtin_ctzll(f)
            f &= f - 1
            n = counts[self.pat[i].times]
            if n <= 0:
                found &= ~((<uint64_t> 1) << i)
                continue
            if n >= CT_TIMES:
                return -1
            v.found_n[i] = n
            v.raw += n * self.pat[i].value
        v.found = found
        v.nextra = 0
        v.floors = 0
        v.flat = -1
        if not found:
            return 0
        v.main = v.rank = __builtin_ctzll(found)
        v.mainval = self.pat[v.main].value
        v.value = v.raw if self.cap < 0 or found & self.exempt_rows or v.raw <= self.cap \
            else self.cap
        return 1

    cdef int _best_additive(self, const Packed* p, const MeldInfo* mi, uint64_t held, int tile,
                            CompiledContext c, CReading* rs, int nr, Valued_* best,
                            int* flat, int one_kind, CompiledContext c2=None,
                            Valued_* best2=NULL, const CtxRows* by_ctx=NULL) noexcept nogil:
        """``_best`` under the additive policy, each reading with each slot of ``tile``; -2
        also when the best is under ``min_raw`` (the Python path refuses it). ``one_kind``:
        whether the hand less ``tile`` waited on one kind, when the caller knows (-1: not).
        With ``c2``, also the best in c2 (in ``best2``: a waits question's two contexts share
        the readings, slots, their features and the rows those decide, so each is found
        once); -2 when either is. ``by_ctx``: the ``_context_rows`` of c (and c2), when the
        caller has them (kept in the contexts: ``_rows_of``)."""
        cdef int counts[NCOUNTED]
        cdef int i, j, bi = -1, bi2 = -1, nslot, slot, cp
        cdef int8_t slots[RD_SETS + 1]
        cdef uint64_t hand, rbits, bits, low, fail, shared, more
        cdef CtxRows found_ctx[2]
        cdef uint32_t by_reading = self.cnt_used & ~C_BY_CONTEXT
        cdef uint32_t by_slot = self.cnt_used & C_BY_CONTEXT & ~C_OF_CONTEXT
        cdef const CReading* r
        cdef bint pung_slot
        # each (reading, slot) is weighed into ``spare``, which becomes the best (``top``)
        # when it is: the best is copied once at the end, if at all
        cdef Valued_ other, other2
        cdef Valued_* top = &other
        cdef Valued_* spare = best
        cdef Valued_* top2 = &other2
        cdef Valued_* spare2 = best2
        if nr < 0:
            return -2
        flat[0] = -1
        if nr == 0:
            return -1
        if c2 is not None and (c2.seat_wind != c.seat_wind or c2.round_wind != c.round_wind):
            bi = self._best_additive(p, mi, held, tile, c, rs, nr, best, flat, one_kind)
            bi2 = self._best_additive(p, mi, held, tile, c2, rs, nr, best2, flat, one_kind)
            return -2 if bi == -2 or bi2 == -2 else bi
        hand = _hand_bits(p, mi, held, counts)
        if self.one_kind_used and (one_kind > 0 or one_kind < 0 and _one_kind_wait(
                p, mi, rs, nr, tile, self.ligu)):
            hand |= (<uint64_t> 1) << F_ONE_KIND_WAIT
        # a context's bits below F_CONTEXT (none a rule set gives) go with the reading's
        low = c.bits & ((<uint64_t> 1 << F_CONTEXT) - 1)
        if c2 is not None and c2.bits & ((<uint64_t> 1 << F_CONTEXT) - 1) != low:
            bi = self._best_additive(p, mi, held, tile, c, rs, nr, best, flat, one_kind)
            bi2 = self._best_additive(p, mi, held, tile, c2, rs, nr, best2, flat, one_kind)
            return -2 if bi == -2 or bi2 == -2 else bi
        if by_ctx == NULL:
            self._context_rows(c, &found_ctx[0])
            if c2 is not None:
                self._context_rows(c2, &found_ctx[1])
            by_ctx = found_ctx
        for i in range(nr):
            r = &rs[i]
            rbits = hand | _reading_bits(r, c.seat_wind, c.round_wind, counts)
            nslot = _win_slots(r, tile, slots)
            for j in range(nslot):
                slot = slots[j]
                # (drawn: every concealed pung; a discard's pung slot is not concealed)
                bits = rbits | _slot_bits(r, slot, tile, True, counts)
                fail = self._row_fails(bits | low, 0)
                # the rows whose plain terms and counts the reading decides hold, for both
                more = 0
                shared = self._rows_counted(self.plain_rows & ~fail, counts, by_reading, &more)
                cp = counts[C_CONCEALED_PUNGS]
                pung_slot = slot >= 0 and r.sets[slot].kind != SET_CHOW
                counts[C_CONCEALED_PUNGS] = cp - (pung_slot and not c.drawn)
                counts[C_FLOWER_SETS] = c.flower_sets
                counts[C_SEAT_FLOWERS] = c.seat_flowers
                if self._weigh_additive(bits | c.bits, fail | by_ctx[0].fail,
                                        shared & by_ctx[0].ok, more | by_ctx[0].more, by_slot,
                                        counts, &by_ctx[0], &top, &spare, &bi, i) < 0:
                    return -2
                if c2 is not None:
                    counts[C_CONCEALED_PUNGS] = cp - (pung_slot and not c2.drawn)
                    counts[C_FLOWER_SETS] = c2.flower_sets
                    counts[C_SEAT_FLOWERS] = c2.seat_flowers
                    if self._weigh_additive(bits | c2.bits, fail | by_ctx[1].fail,
                                            shared & by_ctx[1].ok, more | by_ctx[1].more,
                                            by_slot, counts, &by_ctx[1], &top2, &spare2, &bi2,
                                            i) < 0:
                        return -2
        if bi >= 0 and top != best:
            best[0] = top[0]
        if bi2 >= 0 and top2 != best2:
            best2[0] = top2[0]
        if bi >= 0 and best.raw < self.min_raw or bi2 >= 0 and best2.raw < self.min_raw:
            return -2
        return bi

    cdef int _weigh_additive(self, uint64_t bits, uint64_t fail, uint64_t found, uint64_t more,
                             uint32_t used, const int* counts, const CtxRows* cr,
                             Valued_** best, Valued_** spare, int* bi, int i) noexcept nogil:
        """One (reading ``i``, slot) with its features (``fail``: the patterns failing on
        them, ``_row_fails``; ``found``, ``more``: the rows ``_rows_counted`` left of them,
        ``used`` the counted features still to read; ``cr``: the context's rows): its value
        (a flat row that holds alone, else the sum), weighed in ``spare``, which swaps with
        ``best`` (``bi`` = i) when it is the best so far; -1 past CT_TIMES."""
        cdef Valued_* v = spare[0]
        cdef int k, fl = -1
        cdef int f
        cdef uint64_t fr = self.flat_rows & ~fail  # (a row failing there fails ``_cond``)
        found = self._rows_checked(self._rows_counted(found, counts, used, &more), more, bits,
                                   counts)
        for k in range(cr.nplain):
            if (bits & cr.plain_on[k]) != cr.plain_on[k] or bits & cr.plain_off[k]:
                found &= ~((<uint64_t> 1) << cr.plain[k])
        f = self._value_additive(found, counts, v)
        if f < 0:
            return -1
        while fr:  # FanTable._flat's: the first flat row in table order that holds
            k = __builtin_ctzll(fr)
            fr &= fr - 1
            if _cond(&self.pat[k].cond, bits, counts) and (
                    self.flat_alone or not f or self.pat[k].value >= v.value):
                fl = k
                break
        if fl >= 0:  # the flat pattern alone
            v.raw = v.mainval = self.pat[fl].value
            v.value = v.raw if self.cap < 0 or v.raw <= self.cap else self.cap
            v.main = v.rank = fl
            v.found = (<uint64_t> 1) << fl
            v.found_n[fl] = 1
        elif not f:  # a win all the same, worth nothing
            v.value = v.main = v.rank = v.mainval = 0
        if bi[0] < 0 or v.raw > best[0].raw or (v.raw == best[0].raw and
                                                _listed_first(v.found, best[0].found)):
            bi[0] = i
            spare[0] = best[0]
            best[0] = v
        return 0

    cdef object _hits_additive(self, const Valued_* v):
        """The hit tuple of the patterns ``v`` lists (each with its count): the same few
        recur from hand to hand, so each is kept in ``hits_kept`` by what decides it (the
        rows listed and the counts of those that count, ``times_rows``: any other is there
        once) rather than built per answer."""
        cdef uint64_t f = v.found & self.times_rows
        cdef uint64_t key[2]
        cdef int i, k = 0
        cdef HitsSlot* slot = NULL
        if not v.found:
            return ()
        key[0] = v.found
        key[1] = 0
        while f:
            i = __builtin_ctzll(f)
            f &= f - 1
            if k < 16:  # (each count is under CT_TIMES: 4 bits)
                key[1] |= (<uint64_t> v.found_n[i]) << (4 * k)
            k += 1
        if k <= 16:
            got = self._hits_kept(key, &slot)
            if got is not None:
                return got
        f = v.found
        k = 0
        while f:
            f &= f - 1
            k += 1
        cdef tuple out = PyTuple_New(k)
        f = v.found
        k = 0
        while f:
            i = __builtin_ctzll(f)
            f &= f - 1
            o = (<list> self.pattern_times_hits[i])[
                v.found_n[i] if self.times_rows >> i & 1 else 1]
            Py_INCREF(o)
            PyTuple_SET_ITEM(out, k, o)
            k += 1
        PyObject_GC_UnTrack(out)
        if slot != NULL:  # (an additive table's keys: its ``_hits`` keeps no other kind)
            _hits_keep(slot, key, out)
        return out

    cdef int _reading_value(self, uint64_t bits, const int* counts, Valued_* v) noexcept nogil:
        """One reading's value (``_value``), a flat pattern that replaces it included: 1, 0
        when no pattern holds, -2 when the Python path must answer."""
        cdef uint64_t held[2]
        self._holds(bits, counts, held)
        return self._reading_value_held(held, bits, counts, v)

    cdef int _reading_value_held(self, const uint64_t* held, uint64_t bits, const int* counts,
                                 Valued_* v) noexcept nogil:
        """``_reading_value`` from the conditions that hold (``_holds``)."""
        v.flat = -1
        v.unlisted = 0
        cdef int f = self._value_held(held, bits, counts, v)
        if f < 0:
            return -2
        if not self.flat_after:  # FanTable: a flat pattern replaces this reading's value
            v.flat = self._flat(held, v, f)
            if v.flat >= 0:
                v.value = v.raw = v.mainval = self.pat[v.flat].value
                v.rank = v.main = v.flat
                v.nextra = 0
                v.floors = 0
                return 1
        return f

    cdef inline bint _better(self, const Valued_* v, const Valued_* best) noexcept nogil:
        """Whether reading value v beats ``best`` (a later reading must do strictly better)."""
        return v.value > best.value or v.value == best.value and (
            v.raw > best.raw or v.raw == best.raw and (
                v.mainval > best.mainval if self.tie_by_value else v.rank < best.rank))

    cdef void _flat_after(self, uint64_t bits, const int* counts, Valued_* best,
                          int* flat) noexcept nogil:
        """The flat pattern of the best reading (features ``bits``) in ``flat``: the one that
        replaced its value, or (Sichuan) one weighed after it against its total, then capped."""
        flat[0] = best.flat
        if not self.flat_after:
            return
        cdef uint64_t held[2]
        self._holds(bits, counts, held)
        cdef int f = self._flat(held, best, 1)
        if f >= 0:
            flat[0] = f
            best.raw = self.pat[f].value
            best.value = best.raw if self.cap < 0 or self.pat[f].cap_exempt or \
                best.raw <= self.cap else self.cap

    cdef int _best_words(self, const Packed* p, const MeldInfo* mi, uint64_t held,
                         CompiledContext c, CReading* r, Valued_* best,
                         int* flat) noexcept nogil:
        """``_best`` by reading words (``_standard_words``): each word of the standard
        readings valued once, then 七对 and 十三幺, in the readings' order; the best reading
        built in ``r[0]`` unless r is NULL. 0, -1 when no reading holds, -2 when the readings
        path must answer."""
        cdef int counts[NCOUNTED]
        cdef uint64_t entries[4]
        flat[0] = -1
        cdef uint64_t hand = _hand_bits(p, mi, held, counts)
        cdef int words = _standard_words(p, mi, entries)
        if words < 0:
            return -2
        return self._words_in(p, mi, hand | c.bits, counts, words, entries, c, r, best, flat)

    cdef int _words_in(self, const Packed* p, const MeldInfo* mi, uint64_t hand, int* counts,
                       int words, const uint64_t* entries, CompiledContext c, CReading* r,
                       Valued_* best, int* flat) noexcept nogil:
        """``_best_words`` in context c from the hand's features ``hand`` (c's bits
        included) and counted ones, its standard readings' ``words`` and the suits'
        ``entries``: what two contexts share."""
        cdef int scounts[NCOUNTED]
        cdef int* bcounts = scounts
        cdef int chosen[4]
        cdef Valued_ v
        cdef int w, f, bw = -1, tied = 0, shape = -1, j
        cdef uint64_t hon = 0, bits, bbits = 0
        cdef uint64_t rest[2]
        cdef uint64_t held[2]
        flat[0] = -1
        if words:
            memcpy(scounts, counts, NCOUNTED * sizeof(int))
            hon = hand | _honour_bits(p, mi, c.seat_wind, c.round_wind, scounts)
            self._fails_rest(hon, rest)  # (every word the same but for byte 0)
            for w in range(RW_WORDS):
                if not (words >> w & 1):
                    continue
                self._holds_with(hon | _word_bits(w), scounts, rest, held)
                f = self._reading_value_held(held, hon | _word_bits(w), scounts, &v)
                if f < 0:
                    return -2
                if not f:
                    continue
                if bw < 0 or self._better(&v, best):
                    best[0] = v
                    bw = w
                    tied = 1 << w
                elif not self._better(best, &v):
                    tied |= 1 << w
            if bw >= 0:  # the first reading of a best word: its hits are the answer's
                if r == NULL and not (tied & (tied - 1)):
                    w = bw  # (one best word and no reading asked for: no search)
                else:
                    w = _first_word(mi, entries, tied, chosen)
                    if w < 0 or (r != NULL and _reading_of_words(p, mi, entries, chosen, r) < 0):
                        return -2
                if w != bw:
                    self._reading_value(hon | _word_bits(w), scounts, best)
                bbits = hon | _word_bits(w)
                shape = RS_STANDARD
        counts[C_DRAGON_PUNGS] = counts[C_WIND_PUNGS] = 0
        for j in range(2):  # 七对, then 十三幺: each must do strictly better
            if mi.n or j == 0 and not (self.qidui and _qidui_win(p, 0, 0)) or \
                    j == 1 and not (self.shisanyao and _shisanyao_win(p, 0)):
                continue
            bits = hand | (<uint64_t> 1) << (F_QIDUI if j == 0 else F_SHISANYAO)
            f = self._reading_value(bits, counts, &v)
            if f < 0:
                return -2
            if f and (shape < 0 or self._better(&v, best)):
                best[0] = v
                bbits = bits
                bcounts = counts
                shape = RS_QIDUI if j == 0 else RS_SHISANYAO
        if shape < 0:
            return -1
        if r != NULL and shape != RS_STANDARD:
            r.shape = shape
            r.pair = -1
            r.nsets = 0
            r.nwilds = 0
            for j in range(34 if shape == RS_SHISANYAO else 0):
                if p.cnt[j] >= 2:
                    r.pair = j
                    break
        self._flat_after(bbits, bcounts, best, flat)
        return 0

    def score(self, hand, int tile, CompiledContext c):
        """The ``ScoreResult`` of a winning hand, or None when the Python path must answer
        (every refusal: the Python path raises the error it always raised)."""
        return self._score(hand, tile, c)

    cdef object _score(self, hand, int tile, CompiledContext c):
        if not isinstance(hand, HandBase) or tile < 0 or tile >= 34:
            return None
        cdef HandBase h = <HandBase> hand
        cdef const Packed* p = &h.p
        cdef const MeldInfo* mi = &h.mi
        cdef CReading rs[RD_MAX]
        cdef Valued_ best
        cdef int bi, flat, s, t, fan
        cdef uint64_t held
        if p.cnt[tile] == 0 or p.ncon + 3 * h.n_melds != self.hand_tiles:
            return None
        if self.by_words or self.policy == POL_ADDITIVE:  # (additive: its suits' entries)
            _fetch_words(p, 0)
        if h.n_melds and (c.no_melds or not h.melds_plain) or not c.melds_fit(mi, h.n_melds):
            return None
        held = _held_mask(p)
        s = _suits_of(held)
        if (self.no_honours and held & M_HON) or _nsuits(s) > self.max_suits or (
                c.missing_suit >= 0 and s >> c.missing_suit & 1):
            return None
        if self.policy == POL_ADDITIVE:
            bi = self._best_additive(p, mi, held, tile, c, rs, _readings(
                p, mi, self.qidui, rs, self.shisanyao, self.ligu, True), &best, &flat, -1,
                None, NULL, self._rows_of(c))
        else:
            bi = self._best(p, mi, held, c, rs, &best, &flat)
        if bi < 0:
            return None
        fan = best.value
        if fan < 0 or fan >= CT_FANS or self.mult_of[fan] < 0:
            return None
        out = mj_tuple_of(self.result_type, 12)
        _put(out, 0, self.name)
        _put(out, 1, self.unit)
        _put(out, 2, mj_int(fan))
        _put(out, 3, mj_int(best.raw))
        _put(out, 4, <object> self.mult_obj[fan])
        _put(out, 5, self._hits(&best, flat))
        _put(out, 6, self._decomposition(&rs[bi]))
        _put(out, 7, _SHAPE_OF[rs[bi].shape])
        _put(out, 8, c.self_drawn)
        _put(out, 9, c.payment(fan, self.mult_of[fan], <object> self.mult_obj[fan]))
        _put(out, 10, "")
        _put(out, 11, -1)
        PyObject_GC_UnTrack(out)  # immutable and acyclic: the collector need not walk it
        return out

    cdef int _values_plus(self, const Packed* h, const MeldInfo* mi, uint64_t held, int tile,
                          CompiledContext c1, CompiledContext c2, CReading* rs,
                          Valued_* v1, int* f1, Valued_* v2, int* f2,
                          int one_kind, const CtxRows* by_ctx) noexcept nogil:
        """``_best`` of the hand (``held``: its ``_held_mask``) with one more concealed
        ``tile`` in two contexts (the readings listed once): 0, or -1 when that is no win (or
        one the rule set refuses), -2 when the Python path must answer. ``one_kind``: whether
        the hand waits on one kind (-1: not known; the additive policy's ``one_kind_wait``);
        ``by_ctx``: the additive policy's ``_context_rows`` of c1 and c2."""
        cdef Packed x = h[0]
        cdef int s = t_suit(tile), nr, b1, b2
        cdef int counts[NCOUNTED]
        cdef uint64_t entries[4]
        cdef uint64_t hand
        x.cnt[tile] += 1
        x.key[s] += P5[tile - s * 9]
        x.ncon += 1
        if x.cnt[tile] + 4 - x.cap[tile] == 4:
            x.four |= (<uint64_t> 1) << tile
        held |= (<uint64_t> 1) << tile
        s = _suits_of(held)
        if _nsuits(s) > self.max_suits or (
                c1.missing_suit >= 0 and s >> c1.missing_suit & 1) or (
                c2.missing_suit >= 0 and s >> c2.missing_suit & 1):
            return -1
        if self.policy == POL_ADDITIVE:
            nr = _readings(&x, mi, self.qidui, rs, self.shisanyao, self.ligu, True)
            b1 = b2 = self._best_additive(&x, mi, held, tile, c1, rs, nr, v1, f1, one_kind,
                                          c2, v2, by_ctx)
            f2[0] = f1[0]
        elif self.by_words:  # the hand's features and reading words found once
            hand = _hand_bits(&x, mi, held, counts)
            nr = _standard_words(&x, mi, entries)
            if nr < 0:
                return -2
            b1 = self._words_in(&x, mi, hand | c1.bits, counts, nr, entries, c1, NULL, v1, f1)
            b2 = self._words_in(&x, mi, hand | c2.bits, counts, nr, entries, c2, NULL, v2, f2)
        else:
            nr = _readings(&x, mi, self.qidui, rs, self.shisanyao)
            b1 = self._best_of(&x, mi, held, c1, rs, nr, v1, f1)
            b2 = self._best_of(&x, mi, held, c2, rs, nr, v2, f2)
        if b1 == -2 or b2 == -2 or (b1 < 0) != (b2 < 0):
            return -2
        return -1 if b1 < 0 else 0

    def valued_waits(self, hand, CompiledContext discard, CompiledContext self_drawn,
                     visible=None):
        """The ``ValuedWait`` of every winning tile of a ready hand (the standard waits, and
        the 七对 and 十三幺 ones when the table takes them), valued in the two contexts; None when the Python path must answer (a
        refusal, or a hand past the core's bounds). ``visible``: 34 counts of tiles seen
        elsewhere, or None."""
        return self._valued_waits(hand, discard, self_drawn, visible)

    cdef object _valued_waits(self, hand, CompiledContext discard, CompiledContext self_drawn,
                              visible, bint sources=False):
        """``valued_waits``; with ``sources``, also None for a way of a wait that ``score_in``
        would settle (the context's ``settle``) or make liable (its ``liabilities``) on a hand
        with a meld (not a concealed kong) whose source that context does not name: all a
        settle reads beyond the value, where a wait has no payments, is who fed the melds."""
        if not isinstance(hand, HandBase) or discard.any_elsewhere or self_drawn.any_elsewhere:
            return None
        cdef HandBase h = <HandBase> hand
        cdef const Packed* p = &h.p
        cdef const MeldInfo* mi = &h.mi
        cdef CReading rs[RD_MAX]
        cdef Valued_ vd, vs
        cdef int fd, fs, bd, t, unseen, n = 0, j
        cdef uint32_t unsourced = 0
        if p.ncon + 3 * h.n_melds != self.hand_tiles - 1:
            return None
        if h.n_melds and (discard.no_melds or self_drawn.no_melds or not h.melds_plain):
            return None
        if not discard.melds_fit(mi, h.n_melds) or not self_drawn.melds_fit(mi, h.n_melds):
            return None
        cdef uint64_t held = _held_mask(p)
        if self.no_honours and held & M_HON:
            return None
        # 十三幺 waits only where every tile held is a terminal or honour (no melds)
        cdef uint64_t mask = _waits(p, SH_STANDARD | (SH_QIDUI if self.qidui else 0) | (
            SH_SHISANYAO if self.shisanyao and mi.n == 0 and not (held & ~(M_TERM | M_HON))
            else 0), 0)
        if self.ligu and mi.n == 0:
            mask |= _ligu_waits(p)
        if self.by_words or self.policy == POL_ADDITIVE:  # (additive: its suits' entries)
            _fetch_words(p, mask)
        if sources:
            for j in range(mi.n):
                if mi.sets[j].meld != MK_ANGANG:
                    unsourced |= (<uint32_t> 1) << j
        # every wait is in the mask: whether the hand waits on one kind (``_one_kind_wait``'s
        # shapes: the standard one, 嚦咕嚦咕)
        cdef int one_kind = -1 if self.qidui or self.shisanyao else (mask & (mask - 1)) == 0
        cdef CtxRows by_ctx[2]  # (the additive policy's rows each context decides)
        if self.policy == POL_ADDITIVE:
            by_ctx[0] = self._rows_of(discard)[0]
            by_ctx[1] = self._rows_of(self_drawn)[0]
        # (one tuple of the most waits there can be, cut to those that win: no list, and
        # untracked: its items are)
        cdef tuple out = PyTuple_New(__builtin_popcountll(mask))
        while mask:
            t = __builtin_ctzll(mask)
            mask &= mask - 1
            bd = self._values_plus(p, mi, held, t, discard, self_drawn, rs, &vd, &fd, &vs,
                                   &fs, one_kind, by_ctx)
            if bd == -2:
                return None
            if bd < 0:
                continue
            unseen = p.cap[t] - p.cnt[t]
            if visible is not None:
                unseen -= visible[t]
            w = _wait_new(self, t, vd.value, vs.value, unseen if unseen > 0 else 0,
                          self._hits(&vd, fd), self._hits(&vs, fs))
            _put(out, n, w)
            n += 1
            if unsourced and (
                    _unsourced_settled(discard, mi, unsourced, (<tuple> w)[5]) or
                    _unsourced_settled(self_drawn, mi, unsourced, (<tuple> w)[6])):
                return None
        if n < len(out):
            out = out[:n]
        PyObject_GC_UnTrack(out)
        return out


cdef extern from *:
    void __builtin_prefetch(const void* addr) noexcept nogil


cdef void _fetch_words(const Packed* p, uint64_t waits) noexcept nogil:
    """Ask memory at once for the reading-word entries (``_suit_words_entry``) of the suits
    of the hand plus each tile of ``waits``: the waits' values read them one after another,
    each a likely cache miss in tables of megabytes."""
    cdef int s, t
    for s in range(3):
        __builtin_prefetch(&suit_rwords[p.key[s]])
    __builtin_prefetch(&hon_rwords[p.key[3]])
    while waits:
        t = __builtin_ctzll(waits)
        waits &= waits - 1
        s = t_suit(t)
        if s < 3:
            __builtin_prefetch(&suit_rwords[p.key[s] + P5[t - s * 9]])
        else:
            __builtin_prefetch(&hon_rwords[p.key[3] + P5[t - 27]])


cdef inline bint _unsourced_settled(CompiledContext c, const MeldInfo* mi, uint32_t melds,
                                    tuple hits):
    """Whether ``score_in`` would settle a win with ``hits`` in context c (``_settled``) on
    a hand some of whose ``melds`` (bit i: meld i) have no source named in c, or make a meld
    with no source named liable."""
    cdef int rule, j
    if not (melds & ~c.named):
        return 0
    if c.nliab:
        j = c.liable_meld(mi, hits, &rule)
        if j >= 0 and not (c.named >> j & 1):
            return 1
    return c.settle is not None


cdef bint _fifth_copy(const Packed* p, CompiledContext c) noexcept nogil:
    """Whether the hand (concealed and declared) and the tiles ``c`` says are held
    elsewhere make a fifth copy of a kind."""
    cdef int t
    for t in range(34):
        if p.cnt[t] + 4 - p.cap[t] + c.elsewhere[t] > 4:
            return 1
    return 0


cdef object _liable(CompiledTable t, HandBase h, CompiledContext c, tuple got):
    """A self-drawn result ``got`` with the liability its melds make (``liable_meld``): the
    feeder pays ``liable_pays`` times the multiplier alone; None when that meld's feeder is
    not named (the rule set says what is wrong)."""
    cdef int k, rule = 0
    cdef int j = c.liable_meld(&h.mi, <tuple> got[5], &rule)
    if j < 0:
        return got
    seat = None if c.feeders is None or j >= len(c.feeders) else c.feeders[j]
    if seat is None:
        return None
    pay = (seat, c.winner, c.liable_pays * got[4])
    PyObject_GC_UnTrack(pay)
    payments = (pay,)
    PyObject_GC_UnTrack(payments)
    out = mj_tuple_of(t.result_type, 12)
    for k in range(9):
        _put(out, k, got[k])
    _put(out, 9, payments)
    _put(out, 10, c.liab_ids[rule])
    _put(out, 11, seat)
    PyObject_GC_UnTrack(out)
    return out


cdef int _value_shape_event(CompiledTable t, uint64_t found, uint64_t bits, const int* counts,
                            Valued_* v) noexcept nogil:
    """The ``shape_times_event`` policy with exponent values (``FanTable._shape_times_event``):
    the highest shape pattern (ties: the earlier) plus every event extra that holds; a shape
    worth 0 (x1) is listed only alone; the rank is the table position of the highest listed
    contribution (extras after the patterns). The value is not capped: the cap limits the
    multiplier 2**value (``score_wild``). -1 past CT_TIMES."""
    cdef int i, j, n, best = -1, top, rank
    for i in range(t.npat):
        if found >> i & 1 and (best < 0 or t.pat[i].value > t.pat[best].value):
            best = i
    v.main = best
    v.mainval = v.raw = t.pat[best].value
    v.nextra = 0
    v.floors = 0
    for j in range(t.nextra):
        if not _cond(&t.extra[j].cond, bits, counts):
            continue
        n = 1 if t.extra[j].times < 0 else counts[t.extra[j].times]
        if n <= 0 or t.extra[j].value == 0:
            continue
        if n >= CT_TIMES:
            return -1
        v.extra_idx[v.nextra] = j
        v.extra_n[v.nextra] = n
        v.nextra += 1
        v.raw += n * t.extra[j].value
    v.unlisted = v.mainval == 0 and v.nextra > 0
    top = -1
    rank = 0
    if not v.unlisted:
        top = v.mainval
        rank = best
    for j in range(v.nextra):
        n = v.extra_n[j] * t.extra[v.extra_idx[j]].value
        if n > top:
            top = n
            rank = t.npat + v.extra_idx[j]
    v.rank = rank
    v.value = v.raw
    return 1


cdef int _value_sum_times(CompiledTable t, uint64_t found, uint64_t bits, const int* counts,
                          Valued_* v) noexcept nogil:
    """The ``sum_times_extras`` policy (``FanTable.evaluate``): every pattern that holds and is
    not superseded adds up to a base (``mainval``), which the extras' values multiply (each
    n × value); then the cap. Every pattern counted is in ``found``. -1 past CT_TIMES."""
    cdef int i, j, n
    cdef long long product = 0
    v.main = -1
    v.mainval = 0
    for i in range(t.npat):
        if found >> i & 1:
            if v.main < 0:
                v.main = i
            v.mainval += t.pat[i].value
    v.found = found
    v.rank = v.main
    v.nextra = 0
    v.floors = 0
    product = v.mainval
    for j in range(t.nextra):
        if not _cond(&t.extra[j].cond, bits, counts):
            continue
        n = 1 if t.extra[j].times < 0 else counts[t.extra[j].times]
        if n <= 0 or t.extra[j].value == 0:
            continue
        if n >= CT_TIMES:
            return -1
        v.extra_idx[v.nextra] = j
        v.extra_n[v.nextra] = n
        v.nextra += 1
        product *= n * t.extra[j].value
        if product > 1000000000:
            return -1
    v.raw = <int> product
    v.value = v.raw if t.cap < 0 or v.raw <= t.cap else t.cap
    return 1


cdef enum:
    CTX_SLOTS = 8192  # an entry's dict contexts met lately (a power of 2), in pairs


cdef struct PartSlot:    # a part of one plain value met lately (strong references, or NULL)
    PyObject* options
    PyObject* value
    PyObject* part       # its ContextPart, or False (not plainly valid)
    Py_ssize_t group


cdef struct CtxSlot:     # a dict context met lately: its fingerprint, key and value
    uint64_t fp
    PyObject* key        # (strong references, or NULL)
    PyObject* value
    uint64_t changes     # the entry's ``changes`` when it was filled


@cython.final  # (its cdef methods called directly, not through a table)
cdef class CompiledEntry:
    """A rule set's ``score`` and ``valued_waits`` functions (its engine's, as bound methods)
    whose common calls are answered here from the compiled table of the options with no
    Python frame: a ``Hand`` and a tile id with no context (``score_cached``), a ``Hand`` with
    no context and no tiles visible (``valued_waits_cached``). With ``contexts`` (a rule set's
    dict of ``context_key(self_drawn, context)`` -> the table's key of that parsed context,
    which it fills with ``remember_context`` and empties with ``forget_contexts``; a key is
    never given to another context) a score with a dict context it has seen (and no context:
    the key of an empty one) is a common call too, and so are waits with nothing visible in a
    dict context kept under ``context_key(None, context)`` (self_drawn None: both ways) with
    a dict of options -> its (discard, self-drawn) ``CompiledContext`` pair: contexts whose
    waits are the table's values but for who fed the melds, which a settle may need
    (``CompiledTable._valued_waits``'s ``sources``). Every other call, every answer the table
    leaves, and every call while ``compiled.PURE`` is set go to the rule set's own functions
    (``general_score``, ``general_waits``), which answer the same (the tests hold them
    equal). Without ``make_wait_contexts`` only ``score`` is served (the rule set's own
    ``valued_waits`` answers its waits)."""

    cdef object tables      # the rule set's compiled tables by options object (a dict)
    cdef object make_table  # options -> its CompiledTable (kept in ``tables``), or None
    cdef object on_discard, on_self_draw  # the context keys of a context-free score
    cdef object wait_contexts  # options -> the (discard, self-drawn) contexts of a wait question
    cdef object make_wait_contexts  # (table, options) -> that pair (kept in wait_contexts)
    cdef readonly object general_score, general_waits
    cdef object last_options  # the options asked last and their table (``_table``)
    cdef CompiledTable last_table
    cdef readonly dict contexts  # context_key(...) -> the table's context key, or None
    # ``contexts`` looked up without building the key: a dict context's fingerprint
    # (``_context_print``) -> the key it was found under and its value, one per slot
    cdef CtxSlot ctx_slots[CTX_SLOTS]
    cdef uint64_t changes  # how often a remembered key got another value (its slots then stale)
    # Per-hand keys, whose values vary hand by hand where the rest of a context (its
    # situation) is one of a few: who fed each meld (``sources_key``: a list of relative
    # seats or None, named by ``source_offsets``: seat = (winner + offset) % 4), and the
    # groups of keys of ``parts`` (``part(i, values, options)`` turns group i's values, an
    # absent key read as None, into a ``ContextPart``, or None when they are not plainly
    # valid; kept by value in ``part_memo``). A dict context holding them that was not seen
    # before is derived here from its situation (the context with each per-hand key set to
    # its ``neutral`` value, else removed: ``situation(self_drawn, that dict, options)``
    # gives its table key, or None) rather than parsed whole. Keys of derived contexts are
    # negative ints.
    cdef object sources_key, situation, part
    cdef dict source_offsets, neutral
    cdef readonly dict part_memo  # (readonly: the tests read its size)
    # ``part_memo`` looked up without building its key: a one-key group's plain value (a
    # new context's winds and flowers), PART_SLOTS of them (NULL until used)
    cdef PartSlot* part_slots
    cdef tuple parts, part_keys
    cdef bint derives       # a per-hand key is named
    cdef object missed_key, missed_context  # the key ``_context_value`` built last, its context
    cdef uint64_t missed_fp                 # ... and its fingerprint (0: not plain)
    cdef Py_ssize_t last_derived

    def __init__(self, tables, make_table, on_discard, on_self_draw, wait_contexts,
                 make_wait_contexts, general_score, general_waits, dict contexts=None,
                 str sources_key=None, dict source_offsets=None, situation=None,
                 tuple parts=None, part=None, neutral=None):
        if not isinstance(tables, dict) or not isinstance(wait_contexts, dict):
            raise TypeError("tables and wait_contexts are dicts (a Memo is one)")
        if sources_key is not None and (contexts is None or source_offsets is None or
                                        situation is None):
            raise TypeError("sources_key needs contexts, source_offsets and situation")
        if parts is not None and (contexts is None or part is None or situation is None):
            raise TypeError("parts need contexts, part and situation")
        self.sources_key = sources_key
        self.source_offsets = source_offsets
        self.situation = situation
        self.parts = () if parts is None else tuple(tuple(g) for g in parts)
        self.part_keys = tuple(k for g in self.parts for k in g)
        if not all(type(k) is str for k in self.part_keys):
            raise TypeError("parts are groups of context keys (str)")
        self.part = part
        self.neutral = {} if neutral is None else dict(neutral)
        self.part_memo = {}
        self.derives = sources_key is not None or len(self.parts) > 0
        self.last_derived = 0
        self.tables = tables
        self.make_table = make_table
        self.on_discard = on_discard
        self.on_self_draw = on_self_draw
        self.wait_contexts = wait_contexts
        self.make_wait_contexts = make_wait_contexts
        self.general_score = general_score
        self.general_waits = general_waits
        self.contexts = contexts
        memset(self.ctx_slots, 0, sizeof(self.ctx_slots))

    def __dealloc__(self):
        self._empty_slots()
        self._empty_part_slots()
        free(self.part_slots)

    cdef void _empty_part_slots(self) noexcept:
        cdef PartSlot* e
        cdef int i
        for i in range(PART_SLOTS if self.part_slots != NULL else 0):
            e = &self.part_slots[i]
            if e.value != NULL:
                Py_DECREF(<object> e.options)
                Py_DECREF(<object> e.value)
                Py_DECREF(<object> e.part)
                e.options = e.value = e.part = NULL

    cdef void _empty_slots(self) noexcept:
        cdef CtxSlot* e
        cdef int i
        for i in range(CTX_SLOTS):
            e = &self.ctx_slots[i]
            if e.key != NULL:
                Py_DECREF(<object> e.key)
                Py_DECREF(<object> e.value)
        memset(self.ctx_slots, 0, sizeof(self.ctx_slots))

    def remember_context(self, tuple key, value):
        """Keep ``value`` (the table's key of a parsed context) under ``key``
        (``context_key``'s), forgetting every other first when CONTEXTS_KEPT are kept."""
        self._remember(key, value)

    cdef void _remember(self, tuple key, value) except *:
        if len(self.contexts) >= CONTEXTS_KEPT:
            self._forget()  # (the parts kept by value stay: no context is kept in them)
        old = self.contexts.get(key)
        if old is not None and old is not value:
            self.changes += 1  # (rare: every slot is then filled again on its next use)
        self.contexts[key] = value

    def forget_contexts(self):
        """Forget every context remembered (for cold benchmarks and the bound), the contexts
        compiled in the tables of an entry that derives them, and the parts kept by value."""
        self._forget()
        self.part_memo.clear()
        self._empty_part_slots()

    cdef void _forget(self) except *:
        """Forget every context remembered and, when the entry derives contexts, every
        context compiled in its tables: the derived ones are its own, and the rule set
        compiles its own again when asked (``t.context(key)`` is None), while those whose
        numbers it forgot would stay and fill the tables, each filling making the entry
        forget sooner."""
        if self.derives:
            for table in list(self.tables.values()):
                if table is not None:  # (options the rule set has no compiled table for)
                    (<CompiledTable> table).forget_contexts()
        self.contexts.clear()
        self._empty_slots()
        self.last_options = self.last_table = None  # (a table dropped since: not emptied above)

    cdef object _context_value(self, self_drawn, dict context):
        """``contexts.get(context_key(self_drawn, context))``, None also for an unhashable
        value; a context met lately is matched in place, with no key built."""
        cdef CtxItems items
        cdef uint64_t fp = _context_print(self_drawn, context, &items)
        cdef CtxSlot* e = &self.ctx_slots[fp & (CTX_SLOTS - 2)]  # (two slots a context may use)
        if fp:
            if e[0].fp == fp and e[0].changes == self.changes and _context_is(
                    self_drawn, context, <tuple> e[0].key, &items):
                return <object> e[0].value
            if e[1].fp == fp and e[1].changes == self.changes and _context_is(
                    self_drawn, context, <tuple> e[1].key, &items):
                return <object> e[1].value
        self.missed_context = None
        try:
            key = context_key(self_drawn, context)
            got = self.contexts.get(key)
        except TypeError:  # an unhashable value: the rule set's error
            return None
        self.missed_key = key  # (a context derived next is remembered under it)
        self.missed_context = context
        self.missed_fp = fp
        if got is not None and fp:
            self._slot_keep(fp, key, got)
        return got

    cdef void _slot_keep(self, uint64_t fp, key, value) noexcept:
        """Keep ``value`` under ``key`` (``context_key``'s, fingerprint ``fp``) in one of the
        two slots of ``fp``."""
        cdef CtxSlot* e = &self.ctx_slots[fp & (CTX_SLOTS - 2)]
        cdef PyObject* old_key
        cdef PyObject* old_value
        if e[0].fp and (not e[1].fp or fp >> 40 & 1):  # (an empty one, else either)
            e = &e[1]
        old_key = e.key  # (released last: the slot is whole first)
        old_value = e.value
        Py_INCREF(key)
        Py_INCREF(value)
        e.key = <PyObject*> key
        e.value = <PyObject*> value
        e.fp = fp
        e.changes = self.changes
        if old_key != NULL:
            Py_DECREF(<object> old_key)
            Py_DECREF(<object> old_value)

    cdef inline bint _pure(self) noexcept:
        return _pure_scoring

    cdef CompiledTable _table(self, options):
        """The options' table; None when ``make_table`` gives none (options only the rule
        set's own path scores). The options asked last find theirs by identity (a table is
        made from its options alone: one the rule set has since dropped answers the same)."""
        if options is self.last_options and options is not None:
            return self.last_table
        t = _dict_get(self.tables, options)
        if t is None:
            t = self.make_table(options)
        if t is None:
            return None
        self.last_table = <CompiledTable?> t
        self.last_options = options
        return self.last_table

    def score(self, hand, win_tile, self_drawn, context, options):
        return self._score(hand, win_tile, self_drawn, context, options)

    cdef object _score(self, hand, win_tile, self_drawn, context, options):
        cdef CompiledTable t
        key = None
        cdef bint packed = isinstance(hand, HandBase)
        if packed:  # (its packed counts and melds are read soon: fetched while the context is)
            __builtin_prefetch(&(<HandBase> hand).p)
            __builtin_prefetch(&(<HandBase> hand).mi)
        if self._pure():
            pass
        elif context is None and self.on_discard is not None:
            key = self.on_self_draw if self_drawn else self.on_discard
        elif self.contexts is not None:
            if self_drawn is not True and self_drawn is not False:
                pass  # (None keys a waits question; any other the rule set refuses)
            elif context is None:
                key = self._context_value(self_drawn, _NO_CONTEXT)
            elif type(context) is dict:
                key = self._context_value(self_drawn, <dict> context)
                if key is None and self.derives:
                    key = self._derived(self_drawn, <dict> context, options)
        if key is not None:
            if packed:  # (and its reading words, while the memo is asked)
                _fetch_words(&(<HandBase> hand).p, 0)
            t = self._table(options)
            got = None if t is None else t._score_cached(hand, win_tile, key)
            if got is False and self.derives and type(context) is dict:
                # (the table's contexts were cleared: derived again, under the key it had)
                if self._derived(self_drawn, <dict> context, options, key) is not None:
                    got = t._score_cached(hand, win_tile, key)
            if got is not None and got is not False:
                return got  # (False: the table's contexts were cleared; the rule set adds them)
        return self.general_score(hand, win_tile, self_drawn, context, options)

    cdef object _situation_of(self, self_drawn, dict context):
        """``context`` with each per-hand key set to its ``neutral`` value or removed (its
        situation), or None when that is the context itself, it names sources not plainly
        (a list or tuple of at most four) or a value of the situation is not plain."""
        cdef bint changed = self.sources_key is not None
        if changed:
            value = _dict_get(context, self.sources_key)
            if type(value) is not list and type(value) is not tuple or len(value) > 4:
                return None
        situation = context.copy()
        if changed:
            del situation[self.sources_key]
        for key in self.part_keys:
            value = _dict_get(situation, key)
            if value is None and key not in situation:
                continue
            neutral = _dict_get(self.neutral, key)
            if neutral is None:
                del situation[key]
            elif type(value) is type(neutral) and value == neutral:
                continue
            else:
                situation[key] = neutral
            changed = 1
        if not changed or not _context_print(self_drawn, situation, NULL):
            return None
        return situation

    cdef bint _give_sources(self, CompiledContext c, sources) except -1:
        """Give ``c`` (a ``derived`` copy) the meld sources ``sources`` (``_situation_of``
        checked them as a sequence); false when a value is not a seat or ``c`` cannot take
        them (naming its own, no winner)."""
        cdef Py_ssize_t n = len(sources), j
        cdef uint32_t named = 0, not_left = 0
        if c.meld_count >= 0 or type(c.winner) is not int or c.winner < 0:
            return 0
        feeders = PyTuple_New(n)
        for j in range(n):
            v = sources[j]
            if v is None:
                _put(feeders, j, None)
                continue
            offset = _dict_get(self.source_offsets, v) if type(v) is str else None
            if offset is None:
                return 0
            named |= 1u << j
            if v != "left":  # (a chi comes from the left seat only)
                not_left |= 1u << j
            _put(feeders, j, (<int> c.winner + <int> offset) % 4)
        PyObject_GC_UnTrack(feeders)  # (numbers and None: kept out of the cycle collector)
        c.meld_count = n
        c.named = named
        c.not_left = not_left
        c.feeders = feeders
        return 1

    cdef object _part(self, Py_ssize_t i, dict context, options):
        """The ``ContextPart`` of group ``i`` of ``parts`` for ``context``'s values of its
        keys, kept by value (as ``context_key`` keeps them: ``_put_value_key``) and options in
        ``part_memo``; None when they are not plainly valid (or not hashable)."""
        cdef tuple keys = <tuple> self.parts[i]
        cdef Py_ssize_t n = len(keys), j
        cdef PartSlot* e = NULL
        cdef PyObject* old_options
        cdef PyObject* old_value
        cdef PyObject* old_part
        cdef uint64_t x
        if n == 1:  # (one plain value: its slot, by identity of options and type, and ==)
            value = _dict_get(context, keys[0])
            if _plain(value):
                if self.part_slots == NULL:
                    self.part_slots = <PartSlot*> calloc(PART_SLOTS, sizeof(PartSlot))
                    if self.part_slots == NULL:
                        raise MemoryError()
                x = mj_mix(mj_mix(<uint64_t> <uintptr_t> <PyObject*> options ^ <uint64_t> i,
                                  mj_plain_hash(<PyObject*> value)),
                           <Py_hash_t> <uintptr_t> Py_TYPE(value))
                e = &self.part_slots[x & (PART_SLOTS - 1)]
                if e.value != NULL and e.group == i and e.options == <PyObject*> options and \
                        Py_TYPE(<object> e.value) == Py_TYPE(value) and (
                        e.value == <PyObject*> value or <object> e.value == value):
                    return None if <object> e.part is False else <object> e.part
        memo_key = PyTuple_New(2 + 2 * n)
        _put(memo_key, 0, options)
        _put(memo_key, 1, i)
        try:
            for j in range(n):
                _put_value_key(memo_key, 2 + j, 2 + n + j, _dict_get(context, keys[j]))
            got = _dict_get(self.part_memo, memo_key)
        except TypeError:  # an unhashable value: the rule set's path says what is wrong
            return None
        if got is None:
            try:
                got = self.part(i, tuple(_dict_get(context, k) for k in keys), options)
            except Exception:  # (a wrong value: the rule set's path says what is wrong)
                got = None
            if got is not None and type(got) is not ContextPart:
                raise TypeError("part gives a ContextPart or None")
            if len(self.part_memo) >= PARTS_KEPT:
                self.part_memo.clear()
            got = False if got is None else got
            self.part_memo[memo_key] = got
        if e != NULL:  # (the slot whole before the old references go)
            old_options = e.options
            old_value = e.value
            old_part = e.part
            Py_INCREF(options)
            Py_INCREF(value)
            Py_INCREF(got)
            e.options = <PyObject*> options
            e.value = <PyObject*> value
            e.part = <PyObject*> got
            e.group = i
            if old_value != NULL:
                Py_DECREF(<object> old_options)
                Py_DECREF(<object> old_value)
                Py_DECREF(<object> old_part)
        return None if got is False else got

    cdef object _parts_of(self, dict context, options):
        """The ``ContextPart`` of each group of ``parts`` for ``context`` (a tuple), or None
        when a group's values are not plainly valid."""
        cdef Py_ssize_t i, n = len(self.parts)
        out = PyTuple_New(n)
        for i in range(n):
            part = self._part(i, context, options)
            if part is None:
                return None
            _put(out, i, part)
        return out

    cdef object _derive(self, CompiledContext base, dict context, tuple parts):
        """``base`` (the compiled context of ``context``'s situation) with ``context``'s
        per-hand values (its meld sources, its ``parts``), or None when one is not plainly
        valid or ``base`` cannot take them (settled by the rule set; see
        ``_give_sources``)."""
        if base.settle is not None:
            return None
        cdef CompiledContext c = base.derived()
        if self.sources_key is not None and not self._give_sources(
                c, context[self.sources_key]):
            return None
        for part in parts:
            if not (<ContextPart> part).apply(c):
                return None
        # out of the cycle collector (a derived context is one of thousands): nothing it
        # holds leads back to it (its base, the rule set's pay, tuples of numbers and
        # strings, and no settle)
        PyObject_GC_UnTrack(c)
        return c

    cdef void _remember_derived(self, tuple key, value, uint64_t fp) except *:
        """``remember_context(key, value)`` for a key not remembered (its look-up just
        missed), and in a slot of its fingerprint ``fp`` (0: none); the key (plain values
        only) out of the cycle collector: thousands of derived contexts may be kept."""
        PyObject_GC_UnTrack(key)
        for item in key:
            if type(item) is tuple:
                PyObject_GC_UnTrack(item)
        if len(self.contexts) >= CONTEXTS_KEPT:
            self._forget()
        self.contexts[key] = value
        if fp:
            self._slot_keep(fp, key, value)

    cdef object _derived(self, self_drawn, dict context, options, key=None):
        """The table key of ``context`` derived from its situation (see ``sources_key``),
        remembered; None when it cannot be (no per-hand value, a value not plainly valid, a
        situation the rule set does not give, one settled by the rule set or naming its
        own sources): the rule set's own path answers, with its errors. With ``key`` (the
        context's key already remembered, whose compiled context the table dropped) it is
        derived again under that key: a new key would leave the fingerprint slots and the
        cache's answers pointing at the old one."""
        cdef CompiledTable t
        cdef object derived  # (one int object: the cache tells keys apart by identity)
        if self_drawn is not True and self_drawn is not False:
            return None
        # (the context's key and fingerprint, when its look-up just missed)
        dkey = self.missed_key if self.missed_context is context else None
        cdef uint64_t fp = self.missed_fp
        situation = self._situation_of(self_drawn, context)
        t = self._table(options) if situation is not None else None
        if t is None:
            return None
        bkey = self._context_value(self_drawn, situation)
        base = None if bkey is None else t.contexts.get(bkey)
        if base is None:
            try:
                bkey = self.situation(self_drawn, situation, options)
            except Exception:  # a wrong situation: the rule set's path says what is wrong
                return None
            base = None if bkey is None else t.contexts.get(bkey)
            if base is None:
                return None
        parts = self._parts_of(context, options)
        c = None if parts is None else self._derive(<CompiledContext> base, context, parts)
        if c is None:
            return None
        if key is None and (dkey is None or (<tuple> dkey)[0] is not self_drawn):
            try:
                dkey = context_key(self_drawn, context)
            except TypeError:  # (an unhashable value: never remembered)
                return None
            fp = _context_print(self_drawn, context, NULL)
        # the contexts forgotten (the tables' too) before the table's bound would drop them
        # and before this one is kept; then the situation compiled again, as it was
        if len(t.contexts) >= CT_CONTEXTS - 1 or len(self.contexts) >= CONTEXTS_KEPT:
            self._forget()
            t._add_context(bkey, base)
        if key is not None:
            t._add_context(key, c)
            return key
        self.last_derived -= 1
        derived = self.last_derived
        t._add_context(derived, c)
        self._remember_derived(<tuple> dkey, derived, fp)
        return derived

    cdef object _derived_waits(self, dict context, options):
        """The served waits pairs (options -> pair) of ``context``: its situation's pair under
        ``options`` with the per-hand values (as ``_derived``), remembered; None when it
        cannot be (the rule set's own path answers)."""
        # (the context's key and fingerprint, when its look-up just missed)
        dkey = self.missed_key if self.missed_context is context else None
        cdef uint64_t fp = self.missed_fp
        situation = self._situation_of(None, context)
        if situation is None:
            return None
        served = self._context_value(None, situation)
        pair = None if served is None else (<dict> served).get(options)
        if pair is None:
            try:
                self.situation(None, situation, options)  # (serves its waits, if it may)
            except Exception:
                return None
            served = self._context_value(None, situation)
            pair = None if served is None else (<dict> served).get(options)
            if pair is None:
                return None
        parts = self._parts_of(context, options)
        if parts is None:
            return None
        d = self._derive(<CompiledContext?> (<tuple?> pair)[0], context, parts)
        s = self._derive(<CompiledContext?> (<tuple> pair)[1], context, parts) \
            if d is not None else None
        if s is None:
            return None
        pair = (d, s)
        served = {options: pair}
        # out of the cycle collector, as the contexts (``_derive``): thousands are kept, and
        # the collector walked each again and again (~8 % of a call with a new context);
        # nothing they hold leads back to them
        PyObject_GC_UnTrack(pair)
        PyObject_GC_UnTrack(served)
        if dkey is None or (<tuple> dkey)[0] is not None:
            try:
                dkey = context_key(None, context)
            except TypeError:  # (an unhashable value: never remembered)
                return None
            fp = _context_print(None, context, NULL)
        self._remember_derived(<tuple> dkey, served, fp)
        return served

    def valued_waits(self, hand, context, options, visible=None):
        return self._valued_waits(hand, context, options, visible)

    cdef object _valued_waits(self, hand, context, options, visible):
        cdef CompiledTable t
        if visible is None and not self._pure():
            if context is None and self.make_wait_contexts is not None:
                t = self._table(options)
                if t is None:
                    return self.general_waits(hand, context, options, visible)
                pair = _dict_get(self.wait_contexts, options)
                if pair is None:
                    pair = self.make_wait_contexts(t, options)
                got = t._valued_waits_cached(hand, (<tuple?> pair)[0], (<tuple> pair)[1])
                if got is not None:
                    return got
            elif self.contexts is not None and (context is None or type(context) is dict):
                # a waits question's key: self_drawn None (both ways), its value the
                # (discard, self-drawn) pair by options
                served = self._context_value(None, _NO_CONTEXT if context is None else context)
                if served is None and self.derives and context is not None:
                    served = self._derived_waits(<dict> context, options)
                if served is not None:
                    pair = (<dict> served).get(options)
                    t = self._table(options) if pair is not None else None
                    if t is not None:
                        got = t._valued_waits_cached(hand, (<tuple> pair)[0], (<tuple> pair)[1],
                                                     True)
                        if got is not None:
                            return got
        return self.general_waits(hand, context, options, visible)


cdef bint _pure_scoring = False  # ``compiled.PURE``: every call to the rule sets' Python paths


def set_pure_scoring(bint on):
    """Send every ``CompiledEntry`` call to its rule set's Python path, or stop (the module
    ``mjcore.rules.common.compiled`` calls this when its ``PURE`` is set: one flag read in C
    per call)."""
    global _pure_scoring
    _pure_scoring = on


cdef inline object _dict_get(object d, key):
    """``d.get(key)`` for a dict or a dict subclass that keeps dict's look-up (``Memo``), in
    C (Cython's own ``.get`` is C only for an exact dict)."""
    cdef PyObject* got = PyDict_GetItemWithError(d, key)
    return None if got == NULL else <object> got


cdef enum:
    CONTEXTS_KEPT = 4096  # an entry's remembered contexts (keys come from input: bounded)
    PARTS_KEPT = 4096     # an entry's parts kept by value (``_part``; values come from input)
    PART_SLOTS = 1024     # ... of them found in place (a power of 2)


cdef extern from *:
    """
    /* A plain value's hash; a str's as it keeps it (no call once hashed). */
    static inline Py_hash_t mj_plain_hash(PyObject *o) {
        if (PyUnicode_CheckExact(o)) {
            Py_hash_t h = ((PyASCIIObject *) o)->hash;
            if (h != -1) return h;
        }
        return PyObject_Hash(o);
    }
    """
    Py_hash_t mj_plain_hash(PyObject* o) noexcept


cdef extern from *:
    """
    /* A dict context's items in order, borrowed (n -1: not listed, too many). */
    #define MJ_CTX_ITEMS 8
    typedef struct { Py_ssize_t n; PyObject *k[MJ_CTX_ITEMS]; PyObject *v[MJ_CTX_ITEMS]; }
        mj_ctx_items;

    /* A value whose hash and equality run no Python code (and cannot fail). */
    static inline int mj_plain(PyObject *v) {
        PyTypeObject *t = Py_TYPE(v);
        return t == &PyUnicode_Type || t == &PyLong_Type || t == &PyBool_Type || v == Py_None;
    }

    static inline uint64_t mj_mix(uint64_t h, Py_hash_t x) {
        h = (h ^ (uint64_t) x) * 0x100000001B3ULL;
        return h ^ h >> 29;
    }

    static uint64_t mj_context_print(PyObject *self_drawn, PyObject *context,
                                     mj_ctx_items *items) {
        Py_ssize_t pos = 0, i = 0, j, m, n = PyDict_GET_SIZE(context);
        PyObject *k, *v, **seq;
        PyTypeObject *tv;
        uint64_t h = 0xCBF29CE484222325ULL, vh;
        if (items != NULL)
            items->n = n <= MJ_CTX_ITEMS ? n : -1;
        if (!mj_plain(self_drawn))
            return 0;
        h = mj_mix(h, mj_plain_hash(self_drawn));
        while (PyDict_Next(context, &pos, &k, &v)) {
            if (!PyUnicode_CheckExact(k))
                return 0;
            if (items != NULL && i < MJ_CTX_ITEMS) {
                items->k[i] = k;
                items->v[i] = v;
                i++;
            }
            tv = Py_TYPE(v);
            if (tv == &PyList_Type || tv == &PyTuple_Type) {
                m = PySequence_Fast_GET_SIZE(v);
                seq = PySequence_Fast_ITEMS(v);
                vh = m;
                for (j = 0; j < m; j++) {
                    if (!mj_plain(seq[j]))
                        return 0;
                    vh = mj_mix(vh, mj_plain_hash(seq[j]) ^
                                    (Py_hash_t) (uintptr_t) Py_TYPE(seq[j]));
                }
            } else if (!mj_plain(v)) {
                return 0;
            } else {
                vh = (uint64_t) mj_plain_hash(v);
            }
            /* (one mix an item: key, value and type; ``mj_context_is`` decides) */
            h = mj_mix(h, mj_plain_hash(k) ^ (Py_hash_t) (vh * 0x9E3779B97F4A7C15ULL) ^
                       (Py_hash_t) (uintptr_t) tv);
        }
        return h | 1;
    }

    /* a == b for two plain values (identity first, as a tuple compares its items) */
    static inline int mj_plain_eq(PyObject *a, PyObject *b) {
        return a == b || PyObject_RichCompareBool(a, b, Py_EQ) == 1;
    }

    static int mj_context_is(PyObject *self_drawn, PyObject *context, PyObject *key,
                             const mj_ctx_items *items) {
        Py_ssize_t n = PyDict_GET_SIZE(context), pos = 0, i, j, m;
        PyObject *k, *v, *kv, *kt, **seq;
        if (PyTuple_GET_SIZE(key) != 1 + 3 * n ||
                !mj_plain_eq(PyTuple_GET_ITEM(key, 0), self_drawn))
            return 0;
        if (items != NULL && items->n != n)
            items = NULL;
        for (i = 0; i < n; i++) {
            if (items != NULL) {
                k = items->k[i];
                v = items->v[i];
            } else if (!PyDict_Next(context, &pos, &k, &v)) {
                return 0;
            }
            if (!mj_plain_eq(PyTuple_GET_ITEM(key, 1 + i), k))
                return 0;
            kv = PyTuple_GET_ITEM(key, 1 + n + i);
            kt = PyTuple_GET_ITEM(key, 1 + 2 * n + i);
            if (PyList_CheckExact(v) || PyTuple_CheckExact(v)) {
                m = PySequence_Fast_GET_SIZE(v);
                seq = PySequence_Fast_ITEMS(v);
                if (!PyTuple_CheckExact(kv) || PyTuple_GET_SIZE(kv) != m ||
                        !PyTuple_CheckExact(kt) || PyTuple_GET_SIZE(kt) != m + 1 ||
                        PyTuple_GET_ITEM(kt, 0) != (PyObject *) Py_TYPE(v))
                    return 0;
                for (j = 0; j < m; j++)
                    if (PyTuple_GET_ITEM(kt, j + 1) != (PyObject *) Py_TYPE(seq[j]) ||
                            !mj_plain_eq(PyTuple_GET_ITEM(kv, j), seq[j]))
                        return 0;
            } else if (kt != (PyObject *) Py_TYPE(v) || !mj_plain_eq(kv, v)) {
                return 0;
            }
        }
        return 1;
    }
    """
    ctypedef struct CtxItems "mj_ctx_items":
        Py_ssize_t n
    bint mj_plain(PyObject* v) noexcept
    uint64_t mj_mix(uint64_t h, Py_hash_t x) noexcept
    uint64_t mj_context_print(PyObject* self_drawn, PyObject* context,
                              CtxItems* items) noexcept
    bint mj_context_is(PyObject* self_drawn, PyObject* context, PyObject* key,
                       const CtxItems* items) noexcept


cdef inline bint _plain(object v) noexcept:
    """A value whose hash and equality run no Python code (and cannot fail)."""
    return mj_plain(<PyObject*> v)


cdef inline uint64_t _context_print(self_drawn, dict context, CtxItems* items) noexcept:
    """A fingerprint of ``context_key(self_drawn, context)`` built in place (its items in
    order), or 0 when a value is not plain (a str, int, bool, None or a list or tuple of
    those). Its items are listed in ``items`` (when not NULL), so that ``_context_is`` need
    not walk the dict again (no Python code runs between the two: the dict cannot change)."""
    return mj_context_print(<PyObject*> self_drawn, <PyObject*> context, items)


def _context_probe(self_drawn, dict context, tuple key):
    """(``_context_print(self_drawn, context)``, ``_context_is(self_drawn, context, key)``
    walking the dict, and again from the items the print listed), for the tests that hold
    them to ``context_key``."""
    cdef CtxItems items
    fp = _context_print(self_drawn, context, &items)
    return fp, _context_is(self_drawn, context, key, NULL), _context_is(
        self_drawn, context, key, &items if fp else NULL)


cdef inline bint _context_is(self_drawn, dict context, tuple key,
                             const CtxItems* items) noexcept:
    """Whether ``context_key(self_drawn, context) == key`` for a context ``_context_print``
    found plain (whose listed ``items`` it reads when given and complete), with no key
    built."""
    return mj_context_is(<PyObject*> self_drawn, <PyObject*> context, <PyObject*> key, items)


cdef inline int t_suit(int t) noexcept nogil:
    return t // 9 if t < 27 else 3


cdef inline bint _listed_first(uint64_t a, uint64_t b) noexcept nogil:
    """Whether the table positions in ``a``, listed in order, come before those in ``b``
    (lexicographically, a list before its own continuation)."""
    cdef uint64_t d = a ^ b, above
    if not d:
        return 0
    cdef int x = __builtin_ctzll(d)
    above = ~(((<uint64_t> 2) << x) - 1) if x < 63 else 0
    if a >> x & 1:  # a lists x where b lists something later (a first), or nothing
        return (b & above) != 0
    return (a & above) == 0  # b lists x: a first only when it ends there


cdef int _win_slots(const CReading* r, int tile, int8_t* out) noexcept nogil:
    """Where the winning tile can sit in reading ``r`` (``common.readings.win_slots``): each
    concealed set holding it (one per distinct set), then -1 for the pair; 嚦咕嚦咕: its pung
    when the tile is the pung's, else a pair."""
    cdef int j, k, n = 0
    cdef const RSet* s
    cdef bint seen
    if r.shape == RS_LIGU:
        out[0] = 0 if r.sets[0].tile == tile else -1
        return 1
    for j in range(r.nsets):
        s = &r.sets[j]
        if s.meld != MK_NONE or not (s.tile == tile or (
                s.kind == SET_CHOW and s.tile < tile <= s.tile + 2)):
            continue
        seen = 0
        for k in range(n):
            if r.sets[out[k]].kind == s.kind and r.sets[out[k]].tile == s.tile:
                seen = 1
        if not seen:
            out[n] = j
            n += 1
    if r.pair == tile:
        out[n] = -1
        n += 1
    return n


cdef uint64_t _slot_bits(const CReading* r, int slot, int tile, bint drawn,
                         int* counts) noexcept nogil:
    """The features of the winning tile's slot: the wait's shape, and the concealed pungs
    (a pung a discard completed is not concealed)."""
    cdef uint64_t out = 0
    cdef int j, n = 0, start, rank
    for j in range(r.nsets):
        if r.sets[j].kind != SET_CHOW and r.sets[j].concealed:
            n += 1
    if slot < 0:
        out |= (<uint64_t> 1) << F_SINGLE_WAIT
    elif r.sets[slot].kind == SET_CHOW:
        start = r.sets[slot].tile
        rank = start % 9
        if (tile == start and rank <= 5) or (tile == start + 2 and rank >= 1):
            out |= (<uint64_t> 1) << F_TWO_SIDED_WAIT
        if tile == start + 1 or (tile == start + 2 and rank == 0) or (
                tile == start and rank == 6):
            out |= (<uint64_t> 1) << F_SINGLE_WAIT
    elif not drawn:
        n -= 1
    counts[C_CONCEALED_PUNGS] = n
    return out


cdef bint _other_wait(const Packed* p, const CReading* rs, int nr, int tile) noexcept nogil:
    """Whether a reading shows at once that the hand less the winning tile waited on another
    kind too (so not on one kind: ``_one_kind_wait``'s search is not needed): a two-sided
    wait's other end, a pung's wait beside the pair's (双碰), a pair's wait beside a run it
    touches (e.g. 4 beside 123: 1 and 4) — each when not all its copies are held."""
    cdef int i, j, t2
    cdef const CReading* r
    cdef const RSet* s
    for i in range(nr):
        r = &rs[i]
        if r.shape != RS_STANDARD:
            continue
        for j in range(r.nsets):
            s = &r.sets[j]
            t2 = -1
            if s.meld != MK_NONE:
                continue
            if s.kind != SET_CHOW:
                if s.tile == tile:
                    t2 = r.pair
            elif tile == s.tile and s.tile % 9 <= 5:
                t2 = s.tile + 3
            elif tile == s.tile + 2 and s.tile % 9 >= 1:
                t2 = s.tile - 1
            elif r.pair == tile and tile < 27 and (
                    (s.tile == tile + 1 and tile % 9 <= 5) or (
                        s.tile + 3 == tile and tile % 9 >= 3)):
                t2 = tile + 3 if s.tile == tile + 1 else s.tile
            if t2 >= 0 and not (p.four >> t2 & 1):
                return 1
    return 0


cdef bint _one_kind_wait(const Packed* p, const MeldInfo* mi, const CReading* rs, int nr,
                         int tile, bint ligu) noexcept nogil:
    """Whether the hand less the winning tile waited on one kind only (standard wins, and
    嚦咕嚦咕 when ``ligu``; never a kind of which all four copies are held); ``rs``: the
    hand's ``nr`` readings, which often show a second wait without the search."""
    if _other_wait(p, rs, nr, tile):
        return 0
    cdef Packed x = p[0]
    cdef int s = t_suit(tile)
    x.cnt[tile] -= 1
    x.key[s] -= P5[tile - s * 9]
    x.ncon -= 1
    x.four &= ~((<uint64_t> 1) << tile)
    cdef uint64_t mask = _waits(&x, SH_STANDARD, 0)
    if ligu and mi.n == 0:
        mask |= _ligu_waits(&x)
    return mask != 0 and (mask & (mask - 1)) == 0


cdef uint64_t _ligu_waits(const Packed* x) noexcept nogil:
    """The kinds that make 16 concealed tiles 嚦咕嚦咕 (never one whose four copies are
    held)."""
    cdef int t, odd = 0
    cdef uint64_t mask = 0
    if x.ncon != 16:
        return 0
    for t in range(34):
        odd += x.cnt[t] % 2
    for t in range(34):  # one more t: a pung of t and pairs, or t's pair and one pung
        if (x.cnt[t] == 2 and odd == 0) or (x.cnt[t] % 2 == 1 and odd == 2 and
                                            _ligu_rest(x, t)):
            mask |= (<uint64_t> 1) << t
    return mask & ~x.four


cdef bint _ligu_rest(const Packed* x, int t) noexcept nogil:
    """With one more ``t`` (held an odd number of times), the one odd kind left is held
    three times."""
    cdef int u
    for u in range(34):
        if u != t and x.cnt[u] % 2:
            return x.cnt[u] == 3
    return 0


def _c_readings(hand, int seat_wind=-1, int round_wind=-1, bint qidui=True, bint objects=True):
    """The C readings of a winning hand with their features, for the tests that hold them
    against ``common.readings`` and ``common.compiled.features_of``: a list of
    (shape, pair, sets as (kind, tile, concealed, meld kind), feature bits, counted
    features); with ``objects=False`` only their number (to time the C part alone)."""
    cdef HandBase h = _as_hand(hand)
    cdef MeldInfo mi
    cdef CReading rs[RD_MAX]
    cdef int counts[NCOUNTED]
    cdef int n, i, j
    cdef uint64_t bits
    mi.n = 0
    if h.melds and _meld_info(h.melds, &mi) < 0:
        raise MahjongError("bad_meld", "a meld the C readings do not take")
    n = _readings(&h.p, &mi, qidui, rs)
    if not objects:
        return n
    if n < 0:
        raise MahjongError("internal", "too many readings")
    out = []
    for i in range(n):
        bits = _hand_bits(&h.p, &mi, _held_mask(&h.p), counts)
        bits |= _reading_bits(&rs[i], seat_wind, round_wind, counts)
        out.append(("qidui" if rs[i].shape == RS_QIDUI else "standard", rs[i].pair,
                    tuple((rs[i].sets[j].kind, rs[i].sets[j].tile, rs[i].sets[j].concealed,
                           rs[i].sets[j].meld) for j in range(rs[i].nsets)),
                    bits, tuple(counts[j] for j in range(NCOUNTED))))
    return out


_NO_CONTEXT = {}  # (never changed: the context of a call with none)


cpdef tuple context_key(self_drawn, dict context):
    """A win context's memo key, flat (one tuple): ``self_drawn``, the keys, the values (a
    list as a tuple, a dict as the tuple of its items) and the values' types, a list's,
    tuple's or dict's with its items' (``True == 1 == 1.0``, but only one of them is a flag,
    and only one a count: equal keys are the same input). Hashing it fails (TypeError) for a
    value not hashable so (a set; a list, tuple or dict holding anything but str, int, bool,
    float or None): such a context is never kept."""
    cdef Py_ssize_t n = len(context), i = 0
    cdef tuple out = PyTuple_New(1 + 3 * n)
    _put(out, 0, self_drawn)
    for k, v in context.items():
        if i == n:  # (a dict changed under us: the caller's error)
            raise RuntimeError("context changed size while read")
        _put(out, 1 + i, k)
        _put_value_key(out, 1 + n + i, 1 + 2 * n + i, v)
        i += 1
    if i != n:
        raise RuntimeError("context changed size while read")
    return out


cdef int _put_value_key(tuple out, Py_ssize_t at, Py_ssize_t types_at, v) except -1:
    """Put a context value as a key holds it at ``at`` of ``out``, its type as a key holds it
    at ``types_at``: a list or tuple as a tuple, its type with its items' types; a dict as the
    tuple of its items, its type with theirs; anything else itself and its type. For a list,
    tuple or dict holding anything but str, int, bool, float or None (whose own items' types
    would go unrecorded) the types are a list: the key cannot be hashed (TypeError where it
    is used), so it is never kept."""
    cdef Py_ssize_t n, j
    cdef tuple types
    if type(v) is list or type(v) is tuple:
        value = tuple(v)
    elif type(v) is dict:
        value = tuple((<dict> v).items())
    else:  # (the common case: no tuple for the pair)
        _put(out, at, v)
        _put(out, types_at, type(v))
        return 0
    n = len(<tuple> value)
    if type(v) is dict:
        types = PyTuple_New(1 + 2 * n)
        for j in range(n):
            item = (<tuple> value)[j]
            _put(types, 1 + 2 * j, type((<tuple> item)[0]))
            _put(types, 2 + 2 * j, type((<tuple> item)[1]))
    else:
        types = PyTuple_New(1 + n)
        for j in range(n):
            _put(types, 1 + j, type((<tuple> value)[j]))
    _put(types, 0, type(v))
    _put(out, at, value)
    for j in range(1, len(types)):
        tp = types[j]
        if not (tp is str or tp is int or tp is bool or tp is float or tp is type(None)):
            _put(out, types_at, [types])
            return 0
    _put(out, types_at, types)
    return 0


def _c_win_features(hand, int tile, int seat_wind=-1, int round_wind=-1, bint drawn=True,
                    bint ligu=False):
    """What the additive evaluator sees of a winning hand, for the tests that hold it against
    ``common.compiled.features_of``: per C reading (``_c_readings`` order, then 嚦咕嚦咕 when
    ``ligu``) and winning tile slot, (reading index, shape, slot, feature bits, counted
    features); the context's own bits and counts left out, ``one_kind_wait`` included."""
    cdef HandBase h = _as_hand(hand)
    cdef MeldInfo mi
    cdef CReading rs[RD_MAX]
    cdef int counts[NCOUNTED]
    cdef int8_t slots[RD_SETS + 1]
    cdef int n, i, j, k
    cdef uint64_t hand_bits, bits
    mi.n = 0
    if h.melds and _meld_info(h.melds, &mi) < 0:
        raise MahjongError("bad_meld", "a meld the C readings do not take")
    if tile < 0 or tile >= 34 or h.p.cnt[tile] == 0:
        raise MahjongError("bad_tile", "the winning tile is not held")
    n = _readings(&h.p, &mi, 0, rs, 0, ligu)
    if n < 0:
        raise MahjongError("internal", "too many readings")
    hand_bits = _hand_bits(&h.p, &mi, _held_mask(&h.p), counts)
    if _one_kind_wait(&h.p, &mi, rs, n, tile, ligu):
        hand_bits |= (<uint64_t> 1) << F_ONE_KIND_WAIT
    out = []
    for i in range(n):
        bits = hand_bits | _reading_bits(&rs[i], seat_wind, round_wind, counts)
        for j in range(_win_slots(&rs[i], tile, slots)):
            b = bits | _slot_bits(&rs[i], slots[j], tile, drawn, counts)
            out.append((i, _SHAPE_OF[rs[i].shape], slots[j], b,
                        tuple(counts[k] for k in range(NCOUNTED))))
    return out


# ---------------------------------------------------------------- mjcore.rules' front door

cdef dict _FRONT = {}  # rule set name -> (its score, its valued_waits, its _FrontOptions)
cdef object _front_last_name = None, _front_last = None  # the last name found, its entry


cdef inline object _front_of(ruleset):
    """``_FRONT.get(ruleset)`` for a str (the last one found matched by identity: a caller's
    name is most often the same object each call), else None."""
    global _front_last_name, _front_last
    if ruleset is _front_last_name and ruleset is not None:
        return _front_last
    if type(ruleset) is not str:
        return None
    got = _FRONT.get(ruleset)
    if got is not None:
        _front_last_name = ruleset
        _front_last = got
    return got
cdef object _general_score = None, _general_waits = None  # mjcore.rules' Python functions


cdef enum:
    OPTION_SLOTS = 64  # a rule set's options (with a preset) resolved lately, found in C


@cython.final  # (its cdef methods called directly, not through a table)
cdef class _FrontOptions:
    """A rule set's resolved options for the front door: the defaults, and the options dicts
    (and presets) resolved lately, matched by a fingerprint of their content (as
    ``CompiledEntry`` matches a context) in OPTION_SLOTS slots, so a call with options costs
    no Python frame. Only what the resolver accepted is kept: anything else (bad options, a
    mapping not a dict, values not plain) goes on to the general path, which says what is
    wrong exactly as before."""

    cdef object resolve, default
    cdef uint64_t prints[OPTION_SLOTS]
    cdef list keys, values  # per slot: ``context_key(preset, options)`` and its options

    def __init__(self, resolver):
        self.resolve = resolver.resolve
        self.default = resolver.default
        self.keys = [None] * OPTION_SLOTS
        self.values = [None] * OPTION_SLOTS
        memset(self.prints, 0, sizeof(self.prints))

    cdef object get(self, options, preset):
        """The options object of a call, or None for the general path."""
        cdef dict given
        if options is None:
            if preset is None:
                return self.default
            given = _NO_CONTEXT
        elif type(options) is not dict:
            return None
        else:
            given = <dict> options
            if preset is None and not given:
                return self.default
        if preset is not None and type(preset) is not str:
            return None
        cdef uint64_t fp = _context_print(preset, given, NULL)
        if not fp:
            return None
        cdef Py_ssize_t i = fp & (OPTION_SLOTS - 1)
        if self.prints[i] == fp and _context_is(preset, given, <tuple> self.keys[i], NULL):
            return self.values[i]
        key = context_key(preset, given)
        try:
            got = self.resolve(options, preset)
        except MahjongError:  # (the general path raises it again, in its own order)
            return None
        self.prints[i] = fp
        self.keys[i] = key
        self.values[i] = got
        return got

    def _kept(self):
        """How many options are kept (for the test of the bound)."""
        return sum(1 for k in self.keys if k is not None)


def _set_front(str name, engine, resolver):
    """Route ``mjcore.rules.score`` / ``valued_waits`` calls for rule set ``name`` to
    ``engine`` (a ``CompiledEntry``'s bound methods are called in C) with the options
    ``resolver`` gives (those it resolved lately found in C: ``_FrontOptions``)."""
    global _front_last_name
    fns = []
    for fn in (engine.score, engine.valued_waits):
        owner = getattr(fn, "__self__", None)
        fns.append(owner if isinstance(owner, CompiledEntry) else fn)
    _FRONT[name] = (fns[0], fns[1], _FrontOptions(resolver))
    _front_last_name = None  # (a name found before may now mean another rule set)


def _front_options(str name):
    """The front door's options of rule set ``name`` (for the tests)."""
    return (<tuple> _FRONT[name])[2]


def _set_general(score, valued_waits):
    """The Python ``mjcore.rules.score`` and ``valued_waits``: every call the front door does
    not route (options or a preset given, an unknown rule set)."""
    global _general_score, _general_waits
    _general_score = score
    _general_waits = valued_waits


def rules_score(hand, *, win_tile, ruleset, self_drawn=False, context=None, options=None,
                preset=None):
    got = _front_of(ruleset)
    o = None if got is None else (<_FrontOptions> (<tuple> got)[2]).get(options, preset)
    if o is None:
        return _general_score(hand, win_tile=win_tile, ruleset=ruleset, self_drawn=self_drawn,
                              context=context, options=options, preset=preset)
    fn = (<tuple> got)[0]
    if type(fn) is CompiledEntry:
        return (<CompiledEntry> fn)._score(hand, win_tile, self_drawn, context, o)
    return fn(hand, win_tile, self_drawn, context, o)


def rules_valued_waits(hand, *, ruleset, context=None, options=None, preset=None,
                       visible=None):
    got = _front_of(ruleset)
    o = None if got is None else (<_FrontOptions> (<tuple> got)[2]).get(options, preset)
    if o is None:
        return _general_waits(hand, ruleset=ruleset, context=context, options=options,
                              preset=preset, visible=visible)
    fn = (<tuple> got)[1]
    if type(fn) is CompiledEntry:
        return (<CompiledEntry> fn)._valued_waits(hand, context, o, visible)
    return fn(hand, context, o, visible)


# ``mjcore.rules.score`` / ``valued_waits`` themselves: functions called by the vectorcall
# protocol (METH_FASTCALL | METH_KEYWORDS) that read a call's keywords by identity against
# their own interned names (the names a caller's code writes are interned: the same objects).
# Any other call (a name not matched so, another count of positional arguments) goes to
# ``rules_score`` / ``rules_valued_waits``, whose argument parsing says what is wrong.

cdef extern from *:
    """
    #define MJ_SET_FASTCALL(def, fn) \\
        ((def).ml_meth = (PyCFunction) (void (*)(void)) (fn), \\
         (def).ml_flags = METH_FASTCALL | METH_KEYWORDS)
    """
    ctypedef struct PyMethodDef:
        const char* ml_name
        const char* ml_doc
    void MJ_SET_FASTCALL(PyMethodDef d, void* fn)
    object PyCFunction_NewEx(PyMethodDef* ml, PyObject* self, object module)
    object PyObject_Vectorcall(object fn, PyObject** args, size_t nargsf, PyObject* kwnames)

cdef PyMethodDef _score_def, _waits_def
cdef object _score_slow = rules_score, _waits_slow = rules_valued_waits
cdef tuple _SCORE_NAMES = ("win_tile", "ruleset", "self_drawn", "context", "options", "preset")
cdef tuple _WAITS_NAMES = ("ruleset", "context", "options", "preset", "visible")
cdef list _front_docs = []  # (the functions' name and doc bytes, kept alive)


cdef extern from *:
    """
    /* Fill into[j] (NULL when not given) for each of the n names from a call with one
       positional argument and keywords named by those very objects; 0 for any other call. */
    static inline int mj_keywords(PyObject **args, Py_ssize_t nargs, PyObject *kwnames,
                                  PyObject **names, int n, PyObject **into) {
        Py_ssize_t i, nk;
        int j;
        for (j = 0; j < n; j++)
            into[j] = NULL;
        if (nargs != 1)
            return 0;
        if (kwnames == NULL)
            return 1;
        nk = PyTuple_GET_SIZE(kwnames);
        for (i = 0; i < nk; i++) {
            PyObject *name = PyTuple_GET_ITEM(kwnames, i);
            for (j = 0; j < n && names[j] != name; j++)
                ;
            if (j == n || into[j] != NULL)
                return 0;
            into[j] = args[1 + i];
        }
        return 1;
    }
    """
    bint mj_keywords(PyObject** args, Py_ssize_t nargs, PyObject* kwnames, PyObject** names,
                     int n, PyObject** into) noexcept

cdef PyObject* _score_names[6]  # (``_SCORE_NAMES``' items, which it keeps)
cdef PyObject* _waits_names[5]


cdef inline object _or(PyObject* given, default):
    return default if given == NULL else <object> given


cdef object _score_fast(object module, PyObject** args, Py_ssize_t nargs, PyObject* kwnames):
    cdef PyObject* a[6]
    if not mj_keywords(args, nargs, kwnames, _score_names, 6, a) or a[0] == NULL or a[1] == NULL:
        return PyObject_Vectorcall(_score_slow, args, nargs, kwnames)
    hand = <object> args[0]
    ruleset = <object> a[1]
    options, preset = _or(a[4], None), _or(a[5], None)
    got = _front_of(ruleset)
    o = None if got is None else (<_FrontOptions> (<tuple> got)[2]).get(options, preset)
    if o is None:
        return PyObject_Vectorcall(_score_slow, args, nargs, kwnames)
    fn = (<tuple> got)[0]
    if type(fn) is CompiledEntry:
        return (<CompiledEntry> fn)._score(hand, <object> a[0], _or(a[2], False),
                                           _or(a[3], None), o)
    return fn(hand, <object> a[0], _or(a[2], False), _or(a[3], None), o)


cdef object _waits_fast(object module, PyObject** args, Py_ssize_t nargs, PyObject* kwnames):
    cdef PyObject* a[5]
    if not mj_keywords(args, nargs, kwnames, _waits_names, 5, a) or a[0] == NULL:
        return PyObject_Vectorcall(_waits_slow, args, nargs, kwnames)
    hand = <object> args[0]
    got = _front_of(<object> a[0])
    o = None if got is None else (<_FrontOptions> (<tuple> got)[2]).get(_or(a[2], None),
                                                                        _or(a[3], None))
    if o is None:
        return PyObject_Vectorcall(_waits_slow, args, nargs, kwnames)
    fn = (<tuple> got)[1]
    if type(fn) is CompiledEntry:
        return (<CompiledEntry> fn)._valued_waits(hand, _or(a[1], None), o, _or(a[4], None))
    return fn(hand, _or(a[1], None), o, _or(a[4], None))


def _front_functions(str module, str score_doc, str waits_doc):
    """``mjcore.rules.score`` and ``valued_waits`` (module ``module``) with these docs (each
    opening with its text signature: ``name(...)\\n--\\n\\n``)."""
    cdef bytes name_score = b"score", name_waits = b"valued_waits"
    cdef bytes doc_score = score_doc.encode(), doc_waits = waits_doc.encode()
    _front_docs[:] = [name_score, name_waits, doc_score, doc_waits]
    cdef int j
    for j in range(6):
        _score_names[j] = <PyObject*> _SCORE_NAMES[j]
    for j in range(5):
        _waits_names[j] = <PyObject*> _WAITS_NAMES[j]
    _score_def.ml_name = name_score
    _score_def.ml_doc = doc_score
    MJ_SET_FASTCALL(_score_def, <void*> _score_fast)
    _waits_def.ml_name = name_waits
    _waits_def.ml_doc = doc_waits
    MJ_SET_FASTCALL(_waits_def, <void*> _waits_fast)
    return (PyCFunction_NewEx(&_score_def, NULL, module),
            PyCFunction_NewEx(&_waits_def, NULL, module))
