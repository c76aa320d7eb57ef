/* Compiled kernel of the Grundy-sequence engine (engine.py holds the pure-Python twin, which
 * is the reference the tests compare this with).
 *
 * extend(values, start, stop, whole, leave_one, split_two, split_three, unequal, mask) fills
 * values[start:stop] (a writable buffer of uint32, values[0:start] already computed) with the
 * Grundy values of a take-and-break game:
 *   - whole: k such that a heap of exactly k may be removed whole (value 0);
 *   - leave_one: k such that k tokens may be removed leaving one non-empty heap;
 *   - split_two / split_three: k such that k tokens may be removed (k = 0: none) leaving two /
 *     three non-empty heaps;
 *   - unequal: Grundy's game, a heap split into two unequal non-empty heaps.
 * Each value is the mex of the options' values, found with a stamp per value (no clearing).
 *
 * mask != 0 switches on the sparse-space method (Winning Ways ch. 4 "Sparse space spells
 * speed"; Gangolli & Plambeck 1989); the caller passes a mask only for games without
 * three-heap splits. A value v is "rare" when popcount(v & mask) is even, "common" when odd;
 * since parity(a ^ b) = parity(a) ^ parity(b), a two-heap option is common exactly when one
 * heap is rare and the other common. So all common options come from the few rare heaps (a
 * list kept here) and the take moves; c = the least common value not reached bounds the mex,
 * and only the rare values below c not yet reached need a scan of the splits, which stops as
 * soon as each of them is found. The result is exact whatever the mask; a good mask (few rare
 * heaps) makes a heap cost O(rare heaps + a short scan) instead of O(n).
 *
 * Returns the number of rare heaps (mask != 0) or 0. Every allocation is checked; the GIL is
 * released while computing.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint32_t u32;

#define MAX_KS 4096
#define VALUE_LIMIT ((u32)1 << 30)

static int read_ks(PyObject *seq, Py_ssize_t *out, Py_ssize_t *count) {
    PyObject *fast = PySequence_Fast(seq, "expected a tuple of ints");
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > MAX_KS) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "too many digits for the kernel");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t k = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(fast, i));
        if (k == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (k < 0) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "negative digit index");
            return -1;
        }
        out[i] = k;
    }
    *count = n;
    Py_DECREF(fast);
    return 0;
}

typedef struct {
    Py_ssize_t whole[MAX_KS], leave[MAX_KS], split2[MAX_KS], split3[MAX_KS];
    Py_ssize_t n_whole, n_leave, n_split2, n_split3;
    int unequal;
    u32 mask;
} Rules;

typedef struct {
    u32 *stamp;
    u32 *wanted; /* room for the values sought by the scan (cap of them) */
    size_t cap;  /* a power of two, more than twice every value so far */
} Stamps;

static int stamps_fit(Stamps *s, u32 value) {
    size_t need = s->cap;
    while ((size_t)value * 2 >= need) need *= 2;
    if (need == s->cap) return 0;
    u32 *grown = realloc(s->stamp, need * sizeof(u32));
    if (!grown) return -1;
    memset(grown + s->cap, 0, (need - s->cap) * sizeof(u32));
    s->stamp = grown;
    u32 *wanted = realloc(s->wanted, need * sizeof(u32));
    if (!wanted) return -1;
    s->wanted = wanted;
    s->cap = need;
    return 0;
}

static inline int is_rare(u32 v, u32 mask) { return !__builtin_parity(v & mask); }

/* Mark the values of the options that leave at most one heap (bits 1 and 2) with `cur`. */
static inline void mark_takes(const Rules *r, const u32 *g, Py_ssize_t n, u32 *st, u32 cur) {
    for (Py_ssize_t i = 0; i < r->n_whole; i++)
        if (r->whole[i] == n) st[0] = cur;
    for (Py_ssize_t i = 0; i < r->n_leave; i++)
        if (r->leave[i] < n) st[g[n - r->leave[i]]] = cur;
}

/* Mark every option's value of a heap of n with `cur`, splits included (the plain scan). */
static void mark_plain(const Rules *r, const u32 *g, Py_ssize_t n, u32 *st, u32 cur) {
    mark_takes(r, g, n, st, cur);
    for (Py_ssize_t i = 0; i < r->n_split2; i++) {
        Py_ssize_t rest = n - r->split2[i];
        for (Py_ssize_t a = 1; 2 * a <= rest; a++) st[g[a] ^ g[rest - a]] = cur;
    }
    if (r->unequal)
        for (Py_ssize_t a = 1; 2 * a < n; a++) st[g[a] ^ g[n - a]] = cur;
    for (Py_ssize_t i = 0; i < r->n_split3; i++) {
        Py_ssize_t rest = n - r->split3[i];
        for (Py_ssize_t a = 1; 3 * a <= rest; a++)
            for (Py_ssize_t b = a; 2 * b <= rest - a; b++)
                st[g[a] ^ g[b] ^ g[rest - a - b]] = cur;
    }
}

/* Scan the two-heap splits of a heap of n, stamping their values `cur`, until each of the
 * `outstanding` values listed in `wanted` (all rare, all below the least unreached common
 * value) is stamped. The scan goes in blocks of plain marking (no branch a pair) and looks at
 * the list after each block, dropping what was found. */
#define SCAN_BLOCK 512
static void find_rare(const Rules *r, const u32 *g, Py_ssize_t n, u32 *st, u32 cur,
                      u32 *wanted, Py_ssize_t outstanding) {
    for (Py_ssize_t i = 0; i <= r->n_split2; i++) {
        Py_ssize_t rest, last;
        if (i < r->n_split2) {
            rest = n - r->split2[i];
            last = rest / 2;
        } else if (r->unequal) {
            rest = n;
            last = (n - 1) / 2;
        } else {
            break;
        }
        for (Py_ssize_t a = 1; a <= last; a += SCAN_BLOCK) {
            Py_ssize_t end = a + SCAN_BLOCK - 1 < last ? a + SCAN_BLOCK - 1 : last;
            for (Py_ssize_t b = a; b <= end; b++) st[g[b] ^ g[rest - b]] = cur;
            Py_ssize_t kept = 0;
            for (Py_ssize_t j = 0; j < outstanding; j++)
                if (st[wanted[j]] != cur) wanted[kept++] = wanted[j];
            outstanding = kept;
            if (!outstanding) return;
        }
    }
}

/* The value of a heap of n by the sparse-space method (r->mask != 0, no three-heap splits);
 * -1 when the stamps must grow first (the caller then uses the plain scan). */
static long sparse_value(const Rules *r, const u32 *g, Py_ssize_t n, const Py_ssize_t *rare,
                         Py_ssize_t n_rare, Stamps *s, u32 cur) {
    u32 *st = s->stamp;
    mark_takes(r, g, n, st, cur);
    for (Py_ssize_t i = 0; i < r->n_split2; i++) {
        Py_ssize_t rest = n - r->split2[i];
        for (Py_ssize_t j = 0; j < n_rare && rare[j] < rest; j++)
            st[g[rare[j]] ^ g[rest - rare[j]]] = cur;
    }
    if (r->unequal)
        for (Py_ssize_t j = 0; j < n_rare && rare[j] < n; j++)
            if (2 * rare[j] != n) st[g[rare[j]] ^ g[n - rare[j]]] = cur;
    u32 c = 0;
    while (c < s->cap && (is_rare(c, r->mask) || st[c] == cur)) c++;
    if (c >= s->cap) return -1;
    Py_ssize_t outstanding = 0;
    for (u32 v = 0; v < c; v++)
        if (st[v] != cur) s->wanted[outstanding++] = v;
    if (outstanding) find_rare(r, g, n, st, cur, s->wanted, outstanding);
    u32 v = 0;
    while (st[v] == cur) v++;
    return (long)v;
}

static PyObject *extend(PyObject *self, PyObject *args) {
    Py_buffer buf;
    Py_ssize_t start, stop;
    PyObject *whole, *leave, *split2, *split3;
    int unequal;
    unsigned long mask;
    if (!PyArg_ParseTuple(args, "w*nnOOOOpk", &buf, &start, &stop, &whole, &leave, &split2,
                          &split3, &unequal, &mask))
        return NULL;
    Rules *r = NULL;
    Py_ssize_t *rare = NULL;
    Stamps s = {NULL, NULL, 0};
    PyObject *result = NULL;
    if (buf.itemsize != 4 || buf.len / 4 < stop || start < 1 || start > stop ||
        stop >= (Py_ssize_t)UINT32_MAX - 1 || mask > UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "extend: bad buffer or range");
        goto done;
    }
    r = malloc(sizeof(Rules));
    if (!r) {
        PyErr_NoMemory();
        goto done;
    }
    if (read_ks(whole, r->whole, &r->n_whole) < 0 || read_ks(leave, r->leave, &r->n_leave) < 0 ||
        read_ks(split2, r->split2, &r->n_split2) < 0 ||
        read_ks(split3, r->split3, &r->n_split3) < 0)
        goto done;
    r->unequal = unequal;
    r->mask = (u32)mask;
    if (r->mask && r->n_split3) {
        PyErr_SetString(PyExc_ValueError, "the sparse-space method needs no three-heap splits");
        goto done;
    }
    u32 *g = buf.buf;
    u32 top = 0;
    Py_ssize_t n_rare = 0;
    for (Py_ssize_t n = 0; n < start; n++) {
        if (g[n] > top) top = g[n];
        if (n > 0 && r->mask && is_rare(g[n], r->mask)) n_rare++;
    }
    if (top >= VALUE_LIMIT) {
        PyErr_SetString(PyExc_OverflowError, "Grundy values past 2^30");
        goto done;
    }
    if (r->mask) {
        rare = malloc((size_t)(n_rare + (stop - start) + 1) * sizeof(Py_ssize_t));
        if (!rare) {
            PyErr_NoMemory();
            goto done;
        }
        n_rare = 0;
        for (Py_ssize_t n = 1; n < start; n++)
            if (is_rare(g[n], r->mask)) rare[n_rare++] = n;
    }
    s.cap = 64;
    s.stamp = calloc(s.cap, sizeof(u32));
    s.wanted = malloc(s.cap * sizeof(u32));
    if (!s.stamp || !s.wanted || stamps_fit(&s, top) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t n = start; n < stop; n++) {
        u32 cur = (u32)n + 1;
        long value = -1;
        if (r->mask) value = sparse_value(r, g, n, rare, n_rare, &s, cur);
        if (value < 0) {
            mark_plain(r, g, n, s.stamp, cur);
            u32 v = 0;
            while (s.stamp[v] == cur) v++;
            value = v;
        }
        g[n] = (u32)value;
        if ((u32)value >= VALUE_LIMIT) {
            failed = 2;
            break;
        }
        if (stamps_fit(&s, (u32)value) < 0) {
            failed = 1;
            break;
        }
        if (r->mask && is_rare((u32)value, r->mask)) rare[n_rare++] = n;
    }
    Py_END_ALLOW_THREADS
    if (failed == 1) {
        PyErr_NoMemory();
        goto done;
    }
    if (failed == 2) {
        PyErr_SetString(PyExc_OverflowError, "Grundy values past 2^30");
        goto done;
    }
    result = PyLong_FromSsize_t(n_rare);
done:
    free(s.stamp);
    free(s.wanted);
    free(rare);
    free(r);
    PyBuffer_Release(&buf);
    return result;
}

static PyMethodDef methods[] = {
    {"extend", extend, METH_VARARGS,
     "extend(values, start, stop, whole, leave_one, split_two, split_three, unequal, mask) -> "
     "number of rare heaps: fills values[start:stop] with Grundy values."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_k_octal", "Grundy sequences of take-and-break games in C.", -1,
    methods,
};

/* Raised whenever what engine.py calls here changes: a stale build is then not loaded. */
#define API_VERSION 1

PyMODINIT_FUNC PyInit__k_octal(void) {
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddIntConstant(m, "API_VERSION", API_VERSION) < 0) Py_CLEAR(m);
    return m;
}
