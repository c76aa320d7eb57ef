/* Clobber's option keys in C: the compiled twin of clobber_keys.py (the reference).
 *
 *   options(h, w, xs, os, left, signed=False) -> [tuple of tokens, ...]
 *       for each move of Left (left true) or Right in the trimmed region (h, w, xs, os) of at
 *       most 64 cells, in clobber_keys.option_keys's order (the mover's stones in cell
 *       order, each onto the enemy stone up, down, left, right of it), the tokens of the
 *       regions left with stones of both colours, in order of their lowest cell; with
 *       signed, each token as a pair (key, 1) or (key, -1) (clobber_keys.signed_option_keys);
 *   fold(h, w, xs, os) -> token of a trimmed region.
 *
 * A token is (h, w, xs, os) or (h, w, xs, os, -1): the least (xs, os) over the images of the
 * region in its flatter orientation (h <= w; eight on a square) and of its colour swap, the
 * swap's marked -1 (minus that key's value). Cell r * w + c is bit r * w + c.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

typedef uint64_t u64;

static u64 bit(int i) { return (u64)1 << i; }
static u64 ones_of(int n) { return n >= 64 ? ~(u64)0 : bit(n) - 1; }
static u64 shl(u64 x, int k) { return k < 64 ? x << k : 0; }
static u64 shr(u64 x, int k) { return k < 64 ? x >> k : 0; }

/* cell of (r, c) of an h x w board in image k (clobber_keys._images) */
static int image_cell(int h, int w, int k, int r, int c) {
    switch (k) {
    case 0: return r * w + c;
    case 1: return r * w + w - 1 - c;
    case 2: return (h - 1 - r) * w + c;
    case 3: return (h - 1 - r) * w + w - 1 - c;
    case 4: return c * h + r;
    case 5: return c * h + h - 1 - r;
    case 6: return (w - 1 - c) * h + r;
    default: return (w - 1 - c) * h + h - 1 - r;
    }
}

static int pair_less(u64 a, u64 b, u64 c, u64 d) { return a < c || (a == c && b < d); }

static int signed_parts; /* options' parts as (key, sign) pairs (set per call) */

static PyObject *token(int h, int w, u64 xs, u64 os) {
    int first = h < w ? 0 : h > w ? 4 : 0, last = h < w ? 4 : 8;
    u64 ox = 0, oo = 0, sx = 0, so = 0;
    for (int k = first; k < last; k++) {
        u64 a = 0, b = 0;
        for (u64 m = xs; m; m &= m - 1) {
            int i = __builtin_ctzll(m);
            a |= bit(image_cell(h, w, k, i / w, i % w));
        }
        for (u64 m = os; m; m &= m - 1) {
            int i = __builtin_ctzll(m);
            b |= bit(image_cell(h, w, k, i / w, i % w));
        }
        if (k == first || pair_less(a, b, ox, oo)) ox = a, oo = b;
        if (k == first || pair_less(b, a, sx, so)) sx = b, so = a;
    }
    int ih = h > w ? w : h, iw = h > w ? h : w;
    if (!pair_less(sx, so, ox, oo))
        return signed_parts ? Py_BuildValue("((iiKK)i)", ih, iw, (unsigned long long)ox,
                                            (unsigned long long)oo, 1)
                            : Py_BuildValue("(iiKK)", ih, iw, (unsigned long long)ox,
                                            (unsigned long long)oo);
    return signed_parts ? Py_BuildValue("((iiKK)i)", ih, iw, (unsigned long long)sx,
                                        (unsigned long long)so, -1)
                        : Py_BuildValue("(iiKKi)", ih, iw, (unsigned long long)sx,
                                        (unsigned long long)so, -1);
}

typedef struct { int h, w; u64 ones, not_first, not_last, column; } Frame;

static Frame frame(int h, int w) {
    Frame f = {h, w, ones_of(h * w), 0, 0, 0};
    for (int r = 0; r < h; r++) f.column |= bit(r * w);
    f.not_first = f.ones & ~f.column;
    f.not_last = f.ones & ~(f.column << (w - 1));
    return f;
}

static u64 region(const Frame *f, u64 seed, u64 stones) {
    u64 grown = seed;
    for (;;) {
        u64 more = (grown | ((grown << 1) & f->not_first) | ((grown >> 1) & f->not_last)
                    | shl(grown, f->w) | shr(grown, f->w)) & stones;
        if (more == grown) return grown;
        grown = more;
    }
}

/* the token of the part (xs, os) of the board, trimmed */
static PyObject *trimmed_token(const Frame *f, u64 xs, u64 os) {
    int h = f->h, w = f->w;
    u64 stones = xs | os, row = ones_of(w);
    int r0 = h, r1 = -1, c0 = w, c1 = -1;
    for (int r = 0; r < h; r++)
        if (shr(stones, r * w) & row) {
            if (r0 > r) r0 = r;
            r1 = r;
        }
    for (int c = 0; c < w; c++)
        if (stones & (f->column << c)) {
            if (c0 > c) c0 = c;
            c1 = c;
        }
    int nh = r1 - r0 + 1, nw = c1 - c0 + 1;
    if (nh == h && nw == w) return token(h, w, xs, os);
    u64 nx = 0, no = 0, nrow = ones_of(nw);
    for (int r = 0; r < nh; r++) {
        int shift = (r + r0) * w + c0;
        nx |= ((xs >> shift) & nrow) << (r * nw);
        no |= ((os >> shift) & nrow) << (r * nw);
    }
    return token(nh, nw, nx, no);
}

/* the tuple of tokens of the live regions of a board */
static PyObject *regions(const Frame *f, u64 xs, u64 os) {
    PyObject *parts[32];
    int n = 0;
    u64 stones = xs | os;
    while (stones) {
        u64 part = region(f, stones & (~stones + 1), stones);
        stones ^= part;
        if ((xs & part) && (os & part)) {
            PyObject *t = trimmed_token(f, xs & part, os & part);
            if (!t) {
                while (n) Py_DECREF(parts[--n]);
                return NULL;
            }
            parts[n++] = t; /* (a live region holds two stones: at most 32 of them) */
        }
    }
    PyObject *out = PyTuple_New(n);
    if (!out) {
        while (n) Py_DECREF(parts[--n]);
        return NULL;
    }
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(out, i, parts[i]);
    return out;
}

static int check_board(int *h, int *w, unsigned long long a, unsigned long long b, u64 *xs,
                       u64 *os) {
    if (*h < 1 || *w < 1 || *h * *w > 64) {
        PyErr_SetString(PyExc_ValueError, "a Clobber key board has 1 to 64 cells");
        return 0;
    }
    u64 ones = ones_of(*h * *w);
    if ((a & ~ones) || (b & ~ones) || (a & b)) {
        PyErr_SetString(PyExc_ValueError, "stones outside the board or on one cell twice");
        return 0;
    }
    *xs = a, *os = b;
    return 1;
}

static PyObject *options(PyObject *self, PyObject *args) {
    int h, w, left, sign = 0;
    unsigned long long a, b;
    u64 xs, os;
    if (!PyArg_ParseTuple(args, "iiKKp|p", &h, &w, &a, &b, &left, &sign)) return NULL;
    if (!check_board(&h, &w, a, b, &xs, &os)) return NULL;
    signed_parts = sign;
    Frame f = frame(h, w);
    u64 mine = left ? xs : os, theirs = left ? os : xs;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (u64 m = mine; m; m &= m - 1) {
        u64 low = m & (~m + 1);
        u64 targets[4] = {shr(low, w), shl(low, w), (low & f.not_first) >> 1, (low & f.not_last) << 1};
        for (int d = 0; d < 4; d++) {
            u64 t = targets[d] & theirs;
            if (!t) continue;
            u64 nm = mine ^ low ^ t, nt = theirs ^ t;
            PyObject *parts = left ? regions(&f, nm, nt) : regions(&f, nt, nm);
            if (!parts || PyList_Append(out, parts) < 0) {
                Py_XDECREF(parts);
                Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(parts);
        }
    }
    return out;
}

static PyObject *fold(PyObject *self, PyObject *args) {
    int h, w;
    unsigned long long a, b;
    u64 xs, os;
    if (!PyArg_ParseTuple(args, "iiKK", &h, &w, &a, &b)) return NULL;
    if (!check_board(&h, &w, a, b, &xs, &os)) return NULL;
    signed_parts = 0;
    return token(h, w, xs, os);
}

static PyMethodDef methods[] = {
    {"options", options, METH_VARARGS,
     "options(h, w, xs, os, left, signed=False) -> for each move, the tuple of its regions' "
     "tokens (clobber_keys.option_keys), with signed as (key, sign) pairs."},
    {"fold", fold, METH_VARARGS, "fold(h, w, xs, os) -> the token of a trimmed region."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_k_clobber", "Clobber's option keys in C (clobber_keys.py).", -1,
    methods,
};

/* Raised whenever what clobber_keys.py calls here changes: a stale build is then not loaded. */
#define API_VERSION 2

PyMODINIT_FUNC PyInit__k_clobber(void) {
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddIntConstant(m, "API_VERSION", API_VERSION) < 0) Py_CLEAR(m);
    return m;
}
