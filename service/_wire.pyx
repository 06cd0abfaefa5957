# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The protobuf wire format of the hot methods, read and written without message objects.

``Score``, ``ScoreBatch`` and ``ScoreStream`` are served from the request's bytes: the common
request (hands and tiles as text, known fields only) is read here and the reply written here,
so no message object is built per hand. Whatever this reader does not take (structured
hands, tile ids without text, unknown or repeated singular fields, anything malformed) is
reported back, and the caller uses the generated classes instead, which define the answer
(see ``service.servicer``). Nothing here knows mahjong: the engine is passed in. Nothing here
knows a rule set either: the options and the WinContext (a oneof of the rule sets' typed
contexts) are handed on as bytes, so every rule set's requests take the same path.

Field numbers (protos/mahjong/v1/mahjong_rules.proto):
  ScoreRequest  ruleset 1, options 2, hand 3, win_tile 4, self_drawn 5, context 6
  ScoreItem     id 1, hand 2, win_tile 3, self_drawn 4, context 5
  ScoreBatchRequest / ScoreStreamRequest  ruleset 1, options 2, items 3, summary_only 4
  ScoreBatchResponse / ScoreStreamResponse  outcomes 1;  ScoreOutcome  id 1, result 2
  Hand  text 1, structured 2;  Tile  id 1, text 2
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.long cimport PyLong_FromLong, PyLong_FromVoidPtr
from cpython.object cimport PyObject
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from cpython.unicode cimport PyUnicode_DecodeASCII, PyUnicode_DecodeUTF8
from libc.stdint cimport uint8_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcmp, memcpy, memset

cdef extern from "Python.h":
    void PyObject_GC_UnTrack(void* op)
    int PyObject_GC_IsTracked(PyObject* op)

DEF MAX_FIELD = 536870911  # 2**29 - 1, the largest field number

# Fields seen once already (a repeated singular message field merges: left to the classes).
DEF SEEN_HAND = 1
DEF SEEN_TILE = 2
DEF SEEN_CTX = 4
DEF SEEN_OPTIONS = 8


cdef struct Fields:
    Py_ssize_t id_s, id_e          # ScoreItem.id
    Py_ssize_t text_s, text_e      # Hand.text
    Py_ssize_t ctx_s, ctx_e        # the WinContext's bytes
    Py_ssize_t rs_s, rs_e          # ScoreRequest.ruleset
    Py_ssize_t opt_s, opt_e        # ScoreRequest.options
    Py_ssize_t tile_s, tile_e      # Tile.text
    int tile_id                    # Tile.id (0 when absent)
    int has_tile
    int self_drawn
    int unusual                    # well formed, but not for this reader
    int seen


cdef inline Py_ssize_t _varint(const uint8_t* p, Py_ssize_t i, Py_ssize_t end, uint64_t* out) noexcept nogil:
    """Read the varint at ``p[i]``: the index after it, or -1 if it is truncated or too long."""
    cdef uint64_t v = 0
    cdef int shift = 0
    cdef uint8_t b
    while i < end and shift < 64:
        b = p[i]
        i += 1
        v |= (<uint64_t>(b & 0x7F)) << shift
        if b < 0x80:
            out[0] = v
            return i
        shift += 7
    return -1


cdef inline Py_ssize_t _varint32(const uint8_t* p, Py_ssize_t i, Py_ssize_t end, uint64_t* out) noexcept nogil:
    """A tag or a length: a varint of at most 5 bytes (as the protobuf runtime requires)."""
    cdef Py_ssize_t stop = i + 5 if end - i > 5 else end
    return _varint(p, i, stop, out)


cdef inline Py_ssize_t _delimited(const uint8_t* p, Py_ssize_t i, Py_ssize_t end, Py_ssize_t* start) noexcept nogil:
    """Read a length prefix at ``p[i]``: the end of the payload (its start in ``start``), or -1."""
    cdef uint64_t n = 0
    i = _varint32(p, i, end, &n)
    if i < 0 or n > <uint64_t>(end - i):
        return -1
    start[0] = i
    return i + <Py_ssize_t>n


cdef inline Py_ssize_t _skip(const uint8_t* p, Py_ssize_t i, Py_ssize_t end, int wire_type) noexcept nogil:
    """Skip a field's value: the index after it, or -1 (groups and bad wire types included:
    the generated classes decide about those)."""
    cdef uint64_t v = 0
    cdef Py_ssize_t s = 0
    if wire_type == 0:
        return _varint(p, i, end, &v)
    if wire_type == 1:
        return i + 8 if end - i >= 8 else -1
    if wire_type == 2:
        return _delimited(p, i, end, &s)
    if wire_type == 5:
        return i + 4 if end - i >= 4 else -1
    return -1


cdef inline Py_ssize_t _key(const uint8_t* p, Py_ssize_t i, Py_ssize_t end, int* field, int* wire_type) noexcept nogil:
    cdef uint64_t k = 0
    i = _varint32(p, i, end, &k)
    if i < 0 or k >> 3 == 0 or k >> 3 > MAX_FIELD:
        return -1
    field[0] = <int>(k >> 3)
    wire_type[0] = <int>(k & 7)
    return i


cdef bint _utf8(const uint8_t* p, Py_ssize_t s, Py_ssize_t e) noexcept nogil:
    """Whether ``p[s:e]`` is valid UTF-8 (no overlong forms, surrogates or values past
    U+10FFFF): the protobuf runtime refuses a message with any other string."""
    cdef uint8_t b, b1
    cdef int n
    while s < e:
        b = p[s]
        if b < 0x80:
            s += 1
            continue
        if 0xC2 <= b <= 0xDF:
            n = 1
        elif 0xE0 <= b <= 0xEF:
            n = 2
        elif 0xF0 <= b <= 0xF4:
            n = 3
        else:
            return False
        if e - s <= n:
            return False
        b1 = p[s + 1]
        if (b1 & 0xC0) != 0x80:
            return False
        if (b == 0xE0 and b1 < 0xA0) or (b == 0xED and b1 > 0x9F):
            return False  # overlong, or a surrogate
        if (b == 0xF0 and b1 < 0x90) or (b == 0xF4 and b1 > 0x8F):
            return False  # overlong, or past U+10FFFF
        if n >= 2 and (p[s + 2] & 0xC0) != 0x80:
            return False
        if n == 3 and (p[s + 3] & 0xC0) != 0x80:
            return False
        s += n + 1
    return True


cdef int _read_hand(const uint8_t* p, Py_ssize_t i, Py_ssize_t end, Fields* f) noexcept nogil:
    cdef int field, wt
    cdef Py_ssize_t s = 0
    while i < end:
        i = _key(p, i, end, &field, &wt)
        if i < 0:
            return -1
        if field == 1 and wt == 2:
            i = _delimited(p, i, end, &s)
            if i < 0 or not _utf8(p, s, i):
                return -1
            f.text_s = s
            f.text_e = i
        else:
            i = _skip(p, i, end, wt)
            f.unusual = 1  # a structured hand, or a field this reader does not know
        if i < 0:
            return -1
    return 0


cdef int _read_tile(const uint8_t* p, Py_ssize_t i, Py_ssize_t end, Fields* f) noexcept nogil:
    cdef int field, wt
    cdef Py_ssize_t s = 0
    cdef uint64_t v = 0
    f.has_tile = 1
    while i < end:
        i = _key(p, i, end, &field, &wt)
        if i < 0:
            return -1
        if field == 1 and wt == 0:
            i = _varint(p, i, end, &v)
            if v >= 34:
                f.unusual = 1
            f.tile_id = <int>v if v < 34 else 0
        elif field == 2 and wt == 2:
            i = _delimited(p, i, end, &s)
            if i < 0 or not _utf8(p, s, i):
                return -1
            f.tile_s = s
            f.tile_e = i
        else:
            i = _skip(p, i, end, wt)
            f.unusual = 1
        if i < 0:
            return -1
    return 0


cdef inline void _once(Fields* f, int seen_bit) noexcept nogil:
    """Note a singular message field; sent twice, the classes merge the two: theirs to do."""
    if f.seen & seen_bit:
        f.unusual = 1
    f.seen |= seen_bit


cdef int _read_score(const uint8_t* p, Py_ssize_t i, Py_ssize_t end, bint request, Fields* f) noexcept nogil:
    """Read a ScoreItem (``request`` false) or a ScoreRequest into ``f``: 0, or -1 if malformed."""
    cdef int field, wt, off = 1 if request else 0
    cdef Py_ssize_t s = 0, e = 0
    cdef uint64_t v = 0
    f.id_s = f.id_e = f.text_s = f.text_e = f.ctx_s = f.ctx_e = -1
    f.rs_s = f.rs_e = f.opt_s = f.opt_e = f.tile_s = f.tile_e = -1
    f.tile_id = 0
    f.has_tile = 0
    f.self_drawn = 0
    f.unusual = 0
    f.seen = 0
    while i < end:
        i = _key(p, i, end, &field, &wt)
        if i < 0:
            return -1
        if wt == 0 and field == 4 + off:
            i = _varint(p, i, end, &v)
            f.self_drawn = v != 0
        elif wt == 2 and 1 <= field <= 5 + off:
            e = _delimited(p, i, end, &s)
            if e < 0:
                return -1
            i = e
            if field == 1 and not _utf8(p, s, e):
                return -1
            if field == 1 and not request:
                f.id_s = s
                f.id_e = e
            elif field == 1:
                f.rs_s = s
                f.rs_e = e
            elif field == 2 and request:
                _once(f, SEEN_OPTIONS)
                f.opt_s = s
                f.opt_e = e
            elif field == 2 + off:
                _once(f, SEEN_HAND)
                if _read_hand(p, s, e, f) < 0:
                    return -1
            elif field == 3 + off:
                _once(f, SEEN_TILE)
                if _read_tile(p, s, e, f) < 0:
                    return -1
            elif field == 5 + off:
                _once(f, SEEN_CTX)
                f.ctx_s = s
                f.ctx_e = e
            else:
                f.unusual = 1  # a wire type that does not match the field
        else:
            i = _skip(p, i, end, wt)
            f.unusual = 1
        if i < 0:
            return -1
    return 0


cdef inline int _tile_from(const uint8_t* p, Fields* f) noexcept nogil:
    """The win tile's id when the Tile is the common kind (two-character text such as "5p", or
    no text and an id below 34), else -1."""
    cdef uint8_t rank, suit
    if not f.has_tile:
        return -1
    if f.tile_s < 0 or f.tile_e == f.tile_s:
        return f.tile_id
    if f.tile_e - f.tile_s != 2:
        return -1
    rank = p[f.tile_s]
    suit = p[f.tile_s + 1]
    if rank < 0x31 or rank > 0x39:
        return -1
    if suit == 0x6D:  # m
        return rank - 0x31
    if suit == 0x70:  # p
        return 9 + rank - 0x31
    if suit == 0x73:  # s
        return 18 + rank - 0x31
    if suit == 0x7A and rank <= 0x37:  # z, 1-7
        return 27 + rank - 0x31
    return -1


cdef inline bint _common(const uint8_t* p, Fields* f, int* tile) noexcept nogil:
    """Whether the fast path takes this request or item: known fields, a text hand, a tile."""
    if f.unusual or f.text_s < 0 or f.text_e == f.text_s:
        return False
    tile[0] = _tile_from(p, f)
    return tile[0] >= 0


DEF MAX_RUNS_TEXT = 64  # longer hand texts go the general way (the engine bounds them)

include "../mjcore/_runs.pxi"


cdef bint _runs_counts(const uint8_t* p, Py_ssize_t s, Py_ssize_t e, uint8_t* cnt) noexcept nogil:
    """The 34 counts of a hand text made only of plain suit runs ("123m44z") with no count
    over 4; False for any other text (the engine parses those itself and says what is
    wrong)."""
    cdef int add[34]
    cdef int t
    if e - s > MAX_RUNS_TEXT or e == s or not plain_runs_counts(p + s, e - s, add):
        return False
    for t in range(34):
        if add[t] > 4:
            return False
        cnt[t] = add[t]
    return True


cdef tuple _counts_tuple(const uint8_t* cnt):
    cdef tuple out = PyTuple_New(34)
    cdef object v
    cdef int t
    for t in range(34):
        v = PyLong_FromLong(cnt[t])
        Py_INCREF(v)  # PyTuple_SET_ITEM steals the reference
        PyTuple_SET_ITEM(out, t, v)
    return out


cdef inline void _untrack(object o):
    """Keep ``o`` out of the cycle collector: the hands made here and the entries kept in
    ``encoded`` hold only tuples, ints, strings and bytes (no cycle can run through them), and
    tracked by the thousand they set off full collections that cost more than the scoring."""
    if PyObject_GC_IsTracked(<PyObject*>o):
        PyObject_GC_UnTrack(<void*>o)


cdef object _text(const uint8_t* p, Py_ssize_t s, Py_ssize_t e):
    return PyUnicode_DecodeUTF8(<const char*>p + s, e - s, NULL)


cdef object _slice(const uint8_t* p, Py_ssize_t s, Py_ssize_t e):
    return PyBytes_FromStringAndSize(<const char*>p + s, e - s)


def read_score_request(bytes data):
    """A ScoreRequest the fast path takes, as (ruleset, options bytes or None, hand text, win
    tile id, self_drawn, context bytes or None); None for anything else (the caller parses
    it with the generated class, which also reports malformed bytes)."""
    cdef const uint8_t* p = <const uint8_t*>PyBytes_AS_STRING(data)
    cdef Fields f
    cdef int tile
    if _read_score(p, 0, PyBytes_GET_SIZE(data), True, &f) < 0 or not _common(p, &f, &tile):
        return None
    try:
        ruleset = _text(p, f.rs_s, f.rs_e) if f.rs_s >= 0 else ""
        text = PyUnicode_DecodeASCII(<const char*>p + f.text_s, f.text_e - f.text_s, NULL)
    except UnicodeDecodeError:
        return None
    return (
        ruleset,
        _slice(p, f.opt_s, f.opt_e) if f.opt_s >= 0 else None,
        text,
        tile,
        bool(f.self_drawn),
        _slice(p, f.ctx_s, f.ctx_e) if f.ctx_s >= 0 else None,
    )


def read_bulk_head(bytes data):
    """A ScoreBatchRequest/ScoreStreamRequest's (ruleset, options bytes or None, summary_only,
    number of items); None when the message is malformed or repeats ``options``."""
    cdef const uint8_t* p = <const uint8_t*>PyBytes_AS_STRING(data)
    cdef Py_ssize_t i = 0, end = PyBytes_GET_SIZE(data), s = 0, e = 0, rs_s = -1, rs_e = -1
    cdef Py_ssize_t opt_s = -1, opt_e = -1, n = 0
    cdef int field, wt, summary = 0
    cdef uint64_t v = 0
    while i < end:
        i = _key(p, i, end, &field, &wt)
        if i < 0:
            return None
        if wt == 2 and field <= 3:
            e = _delimited(p, i, end, &s)
            if e < 0:
                return None
            i = e
            if field == 1:
                if not _utf8(p, s, e):
                    return None
                rs_s, rs_e = s, e
            elif field == 2:
                if opt_s >= 0:
                    return None  # merged by the classes
                opt_s, opt_e = s, e
            else:
                n += 1
        elif wt == 0 and field == 4:
            i = _varint(p, i, end, &v)
            summary = v != 0
        else:
            i = _skip(p, i, end, wt)
        if i < 0:
            return None
    try:
        ruleset = _text(p, rs_s, rs_e) if rs_s >= 0 else ""
    except UnicodeDecodeError:
        return None
    return ruleset, _slice(p, opt_s, opt_e) if opt_s >= 0 else None, bool(summary), n


# ---------------------------------------------------------------- writing

cdef struct Buffer:
    char* data
    Py_ssize_t size, cap


cdef int _reserve(Buffer* b, Py_ssize_t extra) except -1:
    cdef Py_ssize_t cap
    cdef char* grown
    if b.size + extra <= b.cap:
        return 0
    cap = max(b.cap * 2, b.size + extra, 4096)
    grown = <char*>realloc(b.data, cap)
    if grown == NULL:
        raise MemoryError()
    b.data = grown
    b.cap = cap
    return 0


cdef inline int _varint_size(uint64_t v) noexcept nogil:
    cdef int n = 1
    while v >= 0x80:
        v >>= 7
        n += 1
    return n


cdef inline void _put_varint(Buffer* b, uint64_t v) noexcept nogil:
    while v >= 0x80:
        b.data[b.size] = <char>((v & 0x7F) | 0x80)
        b.size += 1
        v >>= 7
    b.data[b.size] = <char>v
    b.size += 1


cdef inline void _put(Buffer* b, const char* s, Py_ssize_t n) noexcept nogil:
    memcpy(b.data + b.size, s, n)
    b.size += n


cdef int _outcome_head(Buffer* b, const uint8_t* p, Fields* f, Py_ssize_t rn) except -1:
    """The start of an ``outcomes`` entry ScoreOutcome{id, result} whose result is ``rn``
    bytes: room for the whole entry reserved, written up to the result's length."""
    cdef Py_ssize_t idn = f.id_e - f.id_s if f.id_s >= 0 else 0
    cdef Py_ssize_t body = 1 + _varint_size(rn) + rn
    if idn:
        body += 1 + _varint_size(idn) + idn
    _reserve(b, 1 + 10 + body)
    b.data[b.size] = 0x0A
    b.size += 1
    _put_varint(b, body)
    if idn:
        b.data[b.size] = 0x0A
        b.size += 1
        _put_varint(b, idn)
        _put(b, <const char*>p + f.id_s, idn)
    b.data[b.size] = 0x12
    b.size += 1
    _put_varint(b, rn)
    return 0


cdef int _put_outcome(Buffer* b, const uint8_t* p, Fields* f, bytes result) except -1:
    """``outcomes`` entry: ScoreOutcome{id, result}."""
    cdef Py_ssize_t rn = PyBytes_GET_SIZE(result)
    _outcome_head(b, p, f, rn)
    _put(b, PyBytes_AS_STRING(result), rn)
    return 0


cdef int _put_entry(Buffer* b, bytes entry) except -1:
    """``outcomes`` entry from a whole serialized ScoreOutcome."""
    cdef Py_ssize_t n = PyBytes_GET_SIZE(entry)
    _reserve(b, 1 + 10 + n)
    b.data[b.size] = 0x0A
    b.size += 1
    _put_varint(b, n)
    _put(b, PyBytes_AS_STRING(entry), n)
    return 0


def field_bytes(int field, bytes payload):
    """``payload`` as length-delimited field ``field`` (e.g. ScoreResponse.result)."""
    cdef Buffer b
    b.data = NULL
    b.size = b.cap = 0
    try:
        _reserve(&b, 16 + PyBytes_GET_SIZE(payload))
        _put_varint(&b, (<uint64_t>field << 3) | 2)
        _put_varint(&b, PyBytes_GET_SIZE(payload))
        _put(&b, PyBytes_AS_STRING(payload), PyBytes_GET_SIZE(payload))
        return PyBytes_FromStringAndSize(b.data, b.size)
    finally:
        free(b.data)


cdef class _ObjectPath:
    """How ``score_bulk`` scores an item one by one (the arguments of ``score_bulk``)."""
    cdef object score, options, context_of, encode, fallback, hand_of_counts, refused
    cdef dict contexts, encoded, hands


cdef object _object_entry(_ObjectPath o, const uint8_t* p, Fields* f, Py_ssize_t s, Py_ssize_t e,
                          Buffer* b):
    """Write item ``p[s:e]`` (read into ``f``) scored one by one: through ``o.score`` when the
    reader takes it, else (or when scoring raises a refusal) through ``o.fallback``."""
    cdef int tile
    cdef uint8_t cnt[34]
    cdef object text, ctx, result = None, key, hit, entry
    if _common(p, f, &tile):
        try:
            text = PyUnicode_DecodeASCII(<const char*>p + f.text_s, f.text_e - f.text_s, NULL)
            hit = o.hands.get(text)
            if hit is not None:
                text = hit
            elif _runs_counts(p, f.text_s, f.text_e, cnt):
                hit = o.hand_of_counts(_counts_tuple(cnt))
                _untrack(hit)
                if len(o.hands) >= 50000:
                    o.hands.clear()
                o.hands[text] = hit
                text = hit
            ctx = None
            if f.ctx_s >= 0:
                key = _slice(p, f.ctx_s, f.ctx_e)
                ctx = o.contexts.get(key)
                if ctx is None:
                    ctx = o.context_of(key)  # it keeps what it may in ``contexts``
            result = o.score(text, tile, bool(f.self_drawn), ctx, o.options)
        except o.refused:
            result = None
        except UnicodeDecodeError:
            result = None
    if result is None:
        _put_entry(b, o.fallback(_slice(p, s, e)))
        return None
    key = PyLong_FromVoidPtr(<void*>result)
    hit = o.encoded.get(key)
    # the entry holds the result, so its id cannot be reused while the entry lives
    if hit is not None and (<tuple>hit)[0] is result:
        entry = (<tuple>hit)[1]
    else:
        entry = o.encode(result)
        if len(o.encoded) >= 50000:  # about the engine's own memo: mostly results it holds anyway
            o.encoded.clear()
        hit = (result, entry)
        _untrack(hit)
        o.encoded[key] = hit
    _put_outcome(b, p, f, entry)
    return None


def score_bulk(
    bytes data,
    object score,
    object options,
    object context_of,
    dict contexts,
    object encode,
    dict encoded,
    object fallback,
    object hand_of_counts,
    dict hands,
    tuple refused,
    object check_deadline,
    int check_every,
    object batch=None,
):
    """The serialized ScoreBatchResponse (or ScoreStreamResponse: same layout) for the items
    of ``data``, in order; None if ``data`` is malformed.

    ``batch``: None, or (table, compiled_context, encode_row, summary_only) to score the items
    whose hand text is plain suit runs (no melds) in one call of ``table.score_batch_detail``
    (the GIL released, no object per hand): ``compiled_context(context bytes or None,
    self_drawn)`` gives the compiled context of a distinct context (None: that context's
    items go one by one), ``encode_row(value, raw, multiplier, hits, shape, payments)`` a
    result row's serialized ScoreResult as (the part before the decomposition, the part
    after it). The decomposition is written here. Every other item, and every hand the table
    does not score (errors, no win), goes one by one, as without ``batch``:

    Per common item: ``score(text, tile, self_drawn, context, options)``, its result written
    as ``encode(result)`` (kept in ``encoded`` by the result's identity, so a result the
    engine remembered is encoded once). A context comes from ``context_of(its bytes)``, kept in
    ``contexts``. A hand text of plain suit runs is counted here and handed to the engine as
    ``hand_of_counts(34 counts)`` (the Hand that parsing it gives), so the engine does not
    parse it; ``hands`` keeps those Hands by text (at most 50,000), so a text sent again
    gives the engine the same Hand object, which its memo tables find at once. An item the
    reader does not take, or one whose scoring raises one of the
    ``refused`` exceptions, is answered by ``fallback(item bytes)``: a serialized
    ScoreOutcome. ``check_deadline(items done)`` is called every ``check_every`` items.
    """
    cdef const uint8_t* p = <const uint8_t*>PyBytes_AS_STRING(data)
    cdef Py_ssize_t i = 0, end = PyBytes_GET_SIZE(data), s = 0, e = 0, done = 0
    cdef int field, wt
    cdef Fields f
    cdef Buffer b
    cdef _ObjectPath o = _ObjectPath()
    o.score, o.options, o.context_of, o.contexts = score, options, context_of, contexts
    o.encode, o.encoded, o.fallback, o.hand_of_counts = encode, encoded, fallback, hand_of_counts
    o.hands, o.refused = hands, refused
    if batch is not None:
        return _score_batched(data, o, batch, check_deadline, check_every)
    b.data = NULL
    b.size = b.cap = 0
    try:
        _reserve(&b, 64 * 1024)
        while i < end:
            i = _key(p, i, end, &field, &wt)
            if i < 0:
                return None
            if field != 3 or wt != 2:
                i = _skip(p, i, end, wt)
                if i < 0:
                    return None
                continue
            e = _delimited(p, i, end, &s)
            if e < 0 or _read_score(p, s, e, False, &f) < 0:
                return None
            i = e
            done += 1
            if done % check_every == 0:
                check_deadline(done - 1)
            _object_entry(o, p, &f, s, e, &b)
        return PyBytes_FromStringAndSize(b.data, b.size)
    finally:
        free(b.data)


DEF MAX_BATCH_CONTEXTS = 256  # distinct (context, self_drawn) a message batches; more: one by one
DEF DEC_ROW = 16  # mjcore._core.DETAIL_DEC_WIDTH (the servicer checks they agree)
DETAIL_DEC_WIDTH = DEC_ROW


cdef struct Item:
    Py_ssize_t s, e      # the ScoreItem's bytes
    Fields f             # as read
    int slot             # its hand's index in the batch buffers, -1: one by one


cdef struct CtxSeen:
    Py_ssize_t s, e      # the WinContext's bytes (-1: none)
    uint64_t hash        # of those bytes and self_drawn (compared first: cheap)
    int self_drawn
    int index            # its index among the compiled contexts, -1: one by one


cdef uint64_t _ctx_hash(const uint8_t* p, Fields* f) noexcept nogil:
    cdef uint64_t h = 1469598103934665603ULL ^ <uint64_t>(f.self_drawn + 2 * (f.ctx_s < 0))
    cdef Py_ssize_t i
    if f.ctx_s >= 0:
        for i in range(f.ctx_s, f.ctx_e):
            h = (h ^ p[i]) * 1099511628211ULL
    return h


cdef int _ctx_slot(const uint8_t* p, Fields* f, uint64_t h, CtxSeen* seen, int nseen) noexcept nogil:
    """The entry of ``seen`` with the item's context bytes and self_drawn (hash ``h``), or -1."""
    cdef int k
    cdef Py_ssize_t n = f.ctx_e - f.ctx_s
    for k in range(nseen):
        if seen[k].hash != h or seen[k].self_drawn != f.self_drawn or (seen[k].s < 0) != (f.ctx_s < 0):
            continue
        if f.ctx_s < 0 or (seen[k].e - seen[k].s == n and
                           memcmp(p + seen[k].s, p + f.ctx_s, n) == 0):
            return k
    return -1


cdef object _score_batched(bytes data, _ObjectPath o, tuple batch, object check_deadline,
                           int check_every):
    """``score_bulk`` with ``batch``: the items read into buffers, the batchable ones scored in
    one call, then every outcome written in order."""
    cdef const uint8_t* p = <const uint8_t*>PyBytes_AS_STRING(data)
    cdef Py_ssize_t i = 0, end = PyBytes_GET_SIZE(data), s = 0, e = 0, n = 0, cap = 0, k
    cdef int field, wt, tile, nb = 0, nseen = 0, slot
    cdef Fields f
    cdef Buffer b
    cdef Item* items = NULL
    cdef Item* grown
    cdef CtxSeen seen[MAX_BATCH_CONTEXTS]
    cdef uint64_t h
    cdef uint8_t* cnt
    cdef uint8_t* wins
    cdef uint8_t* ctx_of
    cdef const uint8_t* st = NULL
    cdef const int* rows_of = NULL
    cdef const uint8_t* dec = NULL
    cdef const uint8_t* drow
    cdef bytearray counts_buf, wins_buf, ctx_buf
    cdef list compiled = []
    cdef list encoded_rows = []
    cdef tuple row_objs
    table, compiled_context, encode_row, summary_only = batch
    b.data = NULL
    b.size = b.cap = 0
    try:
        # pass 1: every item's place; the batchable hands into the buffers
        while i < end:
            i = _key(p, i, end, &field, &wt)
            if i < 0:
                return None
            if field != 3 or wt != 2:
                i = _skip(p, i, end, wt)
                if i < 0:
                    return None
                continue
            e = _delimited(p, i, end, &s)
            if e < 0 or _read_score(p, s, e, False, &f) < 0:
                return None
            i = e
            if n == cap:
                cap = cap * 2 if cap else 1024
                grown = <Item*>realloc(items, cap * sizeof(Item))
                if grown == NULL:
                    raise MemoryError()
                items = grown
            items[n].s = s
            items[n].e = e
            items[n].f = f
            items[n].slot = -1
            n += 1
        counts_buf = bytearray(n * 34)
        wins_buf = bytearray(n)
        ctx_buf = bytearray(n)
        cnt = <uint8_t*>counts_buf
        wins = <uint8_t*>wins_buf
        ctx_of = <uint8_t*>ctx_buf
        for k in range(n):
            f = items[k].f
            if not _common(p, &f, &tile) or not _runs_counts(p, f.text_s, f.text_e, cnt + nb * 34):
                continue
            h = _ctx_hash(p, &f)
            slot = _ctx_slot(p, &f, h, seen, nseen)
            if slot < 0:
                if nseen == MAX_BATCH_CONTEXTS:
                    continue
                slot = nseen
                nseen += 1
                seen[slot].hash = h
                seen[slot].s = f.ctx_s
                seen[slot].e = f.ctx_e
                seen[slot].self_drawn = f.self_drawn
                c = compiled_context(_slice(p, f.ctx_s, f.ctx_e) if f.ctx_s >= 0 else None,
                                     bool(f.self_drawn))
                seen[slot].index = -1 if c is None else len(compiled)
                if c is not None:
                    compiled.append(c)
            if seen[slot].index < 0:
                continue
            wins[nb] = tile
            ctx_of[nb] = seen[slot].index
            items[k].slot = nb
            nb += 1
        # the batch: one core call
        if nb:
            status, rows_b, dec_b, row_objs = table.score_batch_detail(
                memoryview(counts_buf)[:nb * 34], memoryview(wins_buf)[:nb], None,
                tuple(compiled), memoryview(ctx_buf)[:nb])
            encoded_rows = [encode_row(*r_[1:]) for r_ in row_objs]
            st = <const uint8_t*>PyBytes_AS_STRING(status)
            rows_of = <const int*>PyBytes_AS_STRING(rows_b)
            dec = <const uint8_t*>PyBytes_AS_STRING(dec_b)
        # pass 2: the outcomes in order
        _reserve(&b, 64 * 1024)
        for k in range(n):
            if (k + 1) % check_every == 0:
                check_deadline(k)
            slot = items[k].slot
            if slot < 0 or st[slot] != 0:
                _object_entry(o, p, &items[k].f, items[k].s, items[k].e, &b)
                continue
            head, tail = <tuple>encoded_rows[rows_of[slot]]
            drow = NULL
            if not summary_only:
                drow = dec + slot * DEC_ROW
            _put_detail(&b, p, &items[k].f, head, tail, drow)
        return PyBytes_FromStringAndSize(b.data, b.size)
    finally:
        free(b.data)
        free(items)


cdef int _put_detail(Buffer* b, const uint8_t* p, Fields* f, bytes head, bytes tail,
                     const uint8_t* dec) except -1:
    """``outcomes`` entry: ScoreOutcome{id, result: head + decomposition + tail}, the
    decomposition written from a ``score_batch_detail`` row (none for another shape than
    standard, or when ``dec`` is NULL) as ``decomposition_bytes`` writes it."""
    cdef Py_ssize_t hn = PyBytes_GET_SIZE(head), tn = PyBytes_GET_SIZE(tail), dn = 0
    cdef int nc = 0, npu = 0, j
    if dec != NULL and dec[0] == 0:
        nc = dec[2]
        npu = dec[3]
        dn = 8 + nc + npu
    _outcome_head(b, p, f, hn + dn + tn)
    _put(b, PyBytes_AS_STRING(head), hn)
    if dn:
        b.data[b.size] = 0x22
        b.data[b.size + 1] = <char>(6 + nc + npu)
        b.data[b.size + 2] = 0x08
        b.data[b.size + 3] = <char>dec[1]
        b.data[b.size + 4] = 0x12
        b.data[b.size + 5] = <char>nc
        b.size += 6
        for j in range(nc):
            b.data[b.size + j] = <char>dec[4 + j]
        b.size += nc
        b.data[b.size] = 0x1A
        b.data[b.size + 1] = <char>npu
        b.size += 2
        for j in range(npu):
            b.data[b.size + j] = <char>dec[4 + nc + j]
        b.size += npu
    _put(b, PyBytes_AS_STRING(tail), tn)
    return 0


def decomposition_bytes(object d):
    """``ScoreResult.decomposition`` (field 4) on the wire for ``d`` = (pair, chows, pungs):
    pair (field 1), chows and pungs (fields 2 and 3, packed). Tile ids below 128 and at most
    eight chows and eight pungs (a hand has four, five in a 16-tile game): every varint is
    one byte (ValueError otherwise)."""
    cdef tuple ch = d[1], pu = d[2]
    cdef Py_ssize_t nc = len(ch), npu = len(pu), k
    cdef long pair = d[0]
    cdef char out[32]
    if nc > 8 or npu > 8 or not 0 <= pair < 128:
        raise ValueError("not a decomposition of tile ids")
    out[0] = 0x22
    out[1] = <char>(6 + nc + npu)
    out[2] = 0x08
    out[3] = <char>pair
    k = _packed_ids(out, 4, 0x12, ch)
    k = _packed_ids(out, k, 0x1A, pu)
    return PyBytes_FromStringAndSize(out, k)


cdef Py_ssize_t _packed_ids(char* out, Py_ssize_t k, char key, tuple ids) except -1:
    """A packed field of one-byte tile ids at ``out[k]``; the position after it."""
    cdef Py_ssize_t i
    cdef long v
    out[k] = key
    out[k + 1] = <char>len(ids)
    k += 2
    for i in range(len(ids)):
        v = ids[i]
        if not 0 <= v < 128:
            raise ValueError("not a decomposition of tile ids")
        out[k] = <char>v
        k += 1
    return k
