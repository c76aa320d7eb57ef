/* Search keys of Clobber and Amazons on bit masks in C: the compiled twin of mask_keys.py
 * (the reference; see its docstring for what a key and a token are).
 *
 *   options(rule, h, w, xs, os, es, left, signed) -> [tuple of tokens, ...]
 *       for each move of Left (left true) or Right in the trimmed region (h, w, xs, os, es)
 *       of at most 64 cells, in mask_keys.option_keys's order, the tokens of the live
 *       regions after it, by their lowest cell; with signed, each token as a pair (key, 1)
 *       or (key, -1) (mask_keys.signed_option_keys);
 *   fold(h, w, xs, os, es) -> the token of a trimmed region.
 *
 * rule is CLOBBER (0: regions are 4-connected stones with both colours; a stone takes an
 * adjacent enemy stone) or AMAZONS (1: regions are 8-connected unburned cells with an amazon
 * and an empty cell; an amazon moves like a queen through empty cells, then shoots an arrow
 * the same way). A token is the least (xs, os, es) over the images of the region in its
 * flatter orientation (h <= w; eight on a square) and of its colour swap, the swap's marked
 * -1 (minus that key's value). Cell r * w + c is bit r * w + c.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

typedef uint64_t u64;
enum { CLOBBER = 0, AMAZONS = 1 };

static u64 bit(int i) { return (u64)1 << i; }
static u64 ones_of(int n) { return n >= 64 ? ~(u64)0 : bit(n) - 1; }
static u64 shl(u64 x, int k) { return k < 64 ? x << k : 0; }
static u64 shr(u64 x, int k) { return k < 64 ? x >> k : 0; }
static int low_index(u64 x) { return __builtin_ctzll(x); } /* x != 0 */

/* cell of (r, c) of an h x w board in image k (mask_keys._images) */
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

static int triple_less(const u64 *a, const u64 *b) {
    for (int i = 0; i < 3; i++)
        if (a[i] != b[i]) return a[i] < b[i];
    return 0;
}

static u64 permuted(u64 mask, int h, int w, int k) {
    u64 out = 0;
    for (; mask; mask &= mask - 1) {
        int i = low_index(mask);
        out |= bit(image_cell(h, w, k, i / w, i % w));
    }
    return out;
}

static PyObject *token(int h, int w, u64 xs, u64 os, u64 es, int signed_parts) {
    int first = h > w ? 4 : 0, last = h < w ? 4 : 8;
    u64 own[3] = {0, 0, 0}, swap[3] = {0, 0, 0};
    for (int k = first; k < last; k++) {
        u64 a = permuted(xs, h, w, k), b = permuted(os, h, w, k), e = permuted(es, h, w, k);
        u64 mine[3] = {a, b, e}, other[3] = {b, a, e};
        if (k == first || triple_less(mine, own)) memcpy(own, mine, sizeof own);
        if (k == first || triple_less(other, swap)) memcpy(swap, other, sizeof swap);
    }
    int ih = h > w ? w : h, iw = h > w ? h : w;
    int negative = triple_less(swap, own);
    const u64 *best = negative ? swap : own;
    unsigned long long x = best[0], o = best[1], e = best[2];
    if (signed_parts) return Py_BuildValue("((iiKKK)i)", ih, iw, x, o, e, negative ? -1 : 1);
    if (negative) return Py_BuildValue("(iiKKKi)", ih, iw, x, o, e, -1);
    return Py_BuildValue("(iiKKK)", ih, iw, x, o, e);
}

typedef struct { int h, w, rule; u64 ones, not_first, not_last, column; } Frame;

static Frame frame(int rule, int h, int w) {
    Frame f = {h, w, rule, ones_of(h * w), 0, 0, 0};
    for (int r = 0; r < h; r++) f.column |= bit(r * w);
    f.not_first = f.ones & ~f.column;
    f.not_last = f.ones & ~(f.column << (w - 1));
    return f;
}

static u64 region(const Frame *f, u64 seed, u64 cells) {
    u64 grown = seed;
    for (;;) {
        u64 side = grown | ((grown << 1) & f->not_first) | ((grown >> 1) & f->not_last);
        u64 more = f->rule == AMAZONS ? side | shl(side, f->w) | shr(side, f->w)
                                      : side | shl(grown, f->w) | shr(grown, f->w);
        more &= cells;
        if (more == grown) return grown;
        grown = more;
    }
}

/* the token of a region (xs, os, es) of the board, trimmed */
static PyObject *trimmed_token(const Frame *f, u64 xs, u64 os, u64 es, int signed_parts) {
    int h = f->h, w = f->w;
    u64 cells = xs | os | es, row = ones_of(w);
    int r0 = h, r1 = -1, c0 = w, c1 = -1;
    for (int r = 0; r < h; r++)
        if (shr(cells, r * w) & row) {
            if (r0 > r) r0 = r;
            r1 = r;
        }
    for (int c = 0; c < w; c++)
        if (cells & (f->column << c)) {
            if (c0 > c) c0 = c;
            c1 = c;
        }
    int nh = r1 - r0 + 1, nw = c1 - c0 + 1;
    if (nh == h && nw == w) return token(h, w, xs, os, es, signed_parts);
    u64 n[3] = {0, 0, 0}, in[3] = {xs, os, es}, nrow = ones_of(nw);
    for (int r = 0; r < nh; r++) {
        int shift = (r + r0) * w + c0;
        for (int k = 0; k < 3; k++) n[k] |= ((in[k] >> shift) & nrow) << (r * nw);
    }
    return token(nh, nw, n[0], n[1], n[2], signed_parts);
}

/* the tuple of tokens of the live regions of a board */
static PyObject *regions(const Frame *f, u64 xs, u64 os, u64 es, int signed_parts) {
    PyObject *parts[64];
    int n = 0;
    u64 cells = xs | os | es;
    while (cells) {
        u64 part = region(f, cells & (~cells + 1), cells);
        cells ^= part;
        u64 px = xs & part, po = os & part, pe = es & part;
        if (f->rule == AMAZONS ? ((px | po) && pe) : (px && po)) {
            PyObject *t = trimmed_token(f, px, po, pe, signed_parts);
            if (!t) {
                while (n) Py_DECREF(parts[--n]);
                return NULL;
            }
            parts[n++] = t; /* (regions are disjoint: at most 64) */
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

static int check_board(int h, int w, unsigned long long x, unsigned long long o,
                       unsigned long long e) {
    if (h < 1 || w < 1 || h > 64 || w > 64 || h * w > 64) {
        PyErr_SetString(PyExc_ValueError, "a mask key board has 1 to 64 cells");
        return 0;
    }
    u64 ones = ones_of(h * w);
    if (((x | o | e) & ~ones) || (x & o) || (x & e) || (o & e)) {
        PyErr_SetString(PyExc_ValueError, "cells outside the board or in two masks");
        return 0;
    }
    return 1;
}

/* append the regions of the board after a move (mine, theirs, empty) to out */
static int add_after(PyObject *out, const Frame *f, int left, u64 mine, u64 theirs, u64 es,
                     int signed_parts) {
    PyObject *parts = left ? regions(f, mine, theirs, es, signed_parts)
                           : regions(f, theirs, mine, es, signed_parts);
    if (!parts) return 0;
    int ok = PyList_Append(out, parts) == 0;
    Py_DECREF(parts);
    return ok;
}

static const int DR[8] = {-1, 1, 0, 0, -1, -1, 1, 1}, DC[8] = {0, 0, -1, 1, -1, 1, -1, 1};

static PyObject *options(PyObject *self, PyObject *args) {
    int rule, h, w, left, signed_parts;
    unsigned long long a, b, e;
    if (!PyArg_ParseTuple(args, "iiiKKKpp", &rule, &h, &w, &a, &b, &e, &left, &signed_parts))
        return NULL;
    if (!check_board(h, w, a, b, e)) return NULL;
    Frame f = frame(rule, h, w);
    u64 mine = left ? a : b, theirs = left ? b : a, es = e;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (u64 m = mine; m; m &= m - 1) {
        u64 low = m & (~m + 1);
        if (rule == CLOBBER) {
            u64 targets[4] = {shr(low, w), shl(low, w), (low & f.not_first) >> 1,
                              (low & f.not_last) << 1};
            for (int d = 0; d < 4; d++) {
                u64 t = targets[d] & theirs;
                if (t && !add_after(out, &f, left, mine ^ low ^ t, theirs ^ t, es, signed_parts))
                    goto fail;
            }
            continue;
        }
        int i = low_index(low);
        u64 empty = es | low;
        for (int d = 0; d < 8; d++) {
            for (int r = i / w + DR[d], c = i % w + DC[d]; 0 <= r && r < h && 0 <= c && c < w;
                 r += DR[d], c += DC[d]) {
                int j = r * w + c;
                if (!(empty & bit(j))) break;
                u64 landed = empty ^ bit(j), moved = (mine ^ low) | bit(j);
                for (int s = 0; s < 8; s++) {
                    for (int rr = r + DR[s], cc = c + DC[s];
                         0 <= rr && rr < h && 0 <= cc && cc < w; rr += DR[s], cc += DC[s]) {
                        int k = rr * w + cc;
                        if (!(landed & bit(k))) break;
                        if (!add_after(out, &f, left, moved, theirs, landed ^ bit(k),
                                       signed_parts))
                            goto fail;
                    }
                }
            }
        }
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

static PyObject *fold(PyObject *self, PyObject *args) {
    int h, w;
    unsigned long long a, b, e;
    if (!PyArg_ParseTuple(args, "iiKKK", &h, &w, &a, &b, &e)) return NULL;
    if (!check_board(h, w, a, b, e)) return NULL;
    return token(h, w, a, b, e, 0);
}

static PyMethodDef methods[] = {
    {"options", options, METH_VARARGS,
     "options(rule, h, w, xs, os, es, left, signed) -> for each move, the tuple of its "
     "live regions' tokens (mask_keys.option_keys), with signed as (key, sign) pairs."},
    {"fold", fold, METH_VARARGS, "fold(h, w, xs, os, es) -> the token of a trimmed region."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_k_masks", "Search keys of Clobber and Amazons in C (mask_keys.py).",
    -1, methods,
};

/* Raised whenever what mask_keys.py calls here changes: a stale build is then not loaded. */
#define API_VERSION 3

PyMODINIT_FUNC PyInit__k_masks(void) {
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddIntConstant(m, "API_VERSION", API_VERSION) < 0) Py_CLEAR(m);
    return m;
}
