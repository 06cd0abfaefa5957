# ---------------------------------------------------------------- plain suit runs
#
# The one home of the fast hand-text reader: the core's ``_count_runs`` (Hand parsing) and
# the service's wire reader (mjservice._wire, which includes this file) both use it. Anything
# but plain runs is left to the Python parser, which says what is wrong.

cdef bint plain_runs_counts(const unsigned char* p, Py_ssize_t n, int* add) noexcept nogil:
    """``add[34]`` (zeroed here): the tiles of a text made only of plain suit runs ("123m44z":
    digits 1-9, then m, p or s; 1-7 before z). False for any other text, or more than 64
    digits before one suit letter."""
    cdef int ranks[64]
    cdef int npend = 0, base, top, k
    cdef Py_ssize_t i
    cdef unsigned char ch
    memset(add, 0, 34 * sizeof(int))
    for i in range(n):
        ch = p[i]
        if 0x31 <= ch <= 0x39:  # 1-9
            if npend == 64:
                return False
            ranks[npend] = ch - 0x30
            npend += 1
            continue
        if ch == 0x6D:  # m
            base, top = 0, 9
        elif ch == 0x70:  # p
            base, top = 9, 9
        elif ch == 0x73:  # s
            base, top = 18, 9
        elif ch == 0x7A:  # z
            base, top = 27, 7
        else:
            return False
        if npend == 0:
            return False
        for k in range(npend):
            if ranks[k] > top:
                return False
            add[base + ranks[k] - 1] += 1
        npend = 0
    return npend == 0
