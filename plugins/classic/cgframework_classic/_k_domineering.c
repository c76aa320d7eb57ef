/* Compiled kernel for Domineering's option_keys.
 *
 * The same integer work as the pure-Python path in domineering.py (the reference, see
 * _python_option_keys there), on boards of at most 64 cells held in one uint64_t:
 *   - each domino place of the player (vertical for Left, horizontal for Right), in the
 *     order of _domino_places: rows then columns, less those beaten by the next place
 *     along their line (_end_moves: `beaten` below);
 *   - the option's mask split into connected regions (4-neighbourhood), lone cells (worth
 *     0) left out, the others in the order of their lowest cell;
 *   - each region's signed key (_signed_key): trimmed to its bounding box, the least mask
 *     over the four reflections that keep a domino's orientation, and the same for the
 *     transpose (which swaps the players); the smaller one, with -1 appended when it is the
 *     transpose's (a token for minus the value).
 * Boards that do not fit (more than 64 cells, or a mask that is not one of the board's)
 * give None: the caller falls back to Python. No recursion; every allocation is checked.
 *
 * Key objects are kept in a direct-mapped cache (trimmed region -> key tuple), so a region
 * met again gives the same tuple object: no allocation, and dict look-ups that find it
 * compare by identity.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

typedef uint64_t u64;

static u64 low_bits(int n) { return n >= 64 ? ~(u64)0 : (((u64)1 << n) - 1); }
static u64 shl(u64 x, int s) { return s >= 64 ? 0 : x << s; }
static u64 shr(u64 x, int s) { return s >= 64 ? 0 : x >> s; }

/* The cells of an h x w board, and those not in its first / last column. */
typedef struct {
    int h, w;
    u64 full, not_first, not_last;
} Frame;

static void frame_init(Frame *f, int h, int w) {
    u64 first = 0;
    for (int r = 0; r < h; r++) first |= (u64)1 << (r * w);
    f->h = h;
    f->w = w;
    f->full = low_bits(h * w);
    f->not_first = f->full & ~first;
    f->not_last = f->full & ~shl(first, w - 1);
}

/* Cells of `within` 4-adjacent to a cell of `m`, or in `m`. */
static u64 spread(u64 m, u64 within, const Frame *f) {
    return (m | ((m & f->not_last) << 1) | ((m & f->not_first) >> 1) | shl(m, f->w) |
            shr(m, f->w)) & within;
}

/* The connected region of `within` that contains `seed`. */
static u64 grown(u64 seed, u64 within, const Frame *f) {
    for (;;) {
        u64 next = spread(seed, within, f);
        if (next == seed) return seed;
        seed = next;
    }
}

/* The w low bits of x in reverse order. */
static u64 reversed_row(u64 x, int w) {
    u64 out = 0;
    for (int c = 0; c < w; c++) out |= ((x >> c) & 1) << (w - 1 - c);
    return out;
}

/* The board cut to the bounding box of the cells of m (m != 0). */
static void trim(int h, int w, u64 m, int *th, int *tw, u64 *tm) {
    int first = __builtin_ctzll(m) / w;
    int last = (63 - __builtin_clzll(m)) / w;
    u64 row_mask = low_bits(w), columns = 0;
    (void)h;
    m = shr(m, first * w);
    *th = last - first + 1;
    for (int r = 0; r < *th; r++) columns |= (m >> (r * w)) & row_mask;
    int shift = __builtin_ctzll(columns);
    int width = 64 - __builtin_clzll(columns) - shift;
    *tw = width;
    if (width == w) {
        *tm = m;
        return;
    }
    u64 packed = 0;
    for (int r = 0; r < *th; r++) packed |= (((m >> (r * w)) & row_mask) >> shift) << (r * width);
    *tm = packed;
}

/* The least mask over the identity, the left-right and up-down mirrors and the half turn. */
static u64 least_image(int h, int w, u64 m) {
    u64 row_mask = low_bits(w), best = m, lr = 0, ud = 0, half = 0;
    for (int r = 0; r < h; r++) {
        u64 row = (m >> (r * w)) & row_mask;
        u64 rev = reversed_row(row, w);
        lr |= rev << (r * w);
        ud |= row << ((h - 1 - r) * w);
        half |= rev << ((h - 1 - r) * w);
    }
    if (lr < best) best = lr;
    if (ud < best) best = ud;
    if (half < best) best = half;
    return best;
}

/* Rows and columns swapped: cell (r, c) of h x w goes to bit c * h + r. */
static u64 transposed(int h, int w, u64 m) {
    u64 out = 0;
    while (m) {
        int i = __builtin_ctzll(m);
        m &= m - 1;
        out |= (u64)1 << ((i % w) * h + i / w);
    }
    return out;
}

/* The signed key of a trimmed board: (kh, kw, km) and whether it is the transpose's. */
static void signed_key(int h, int w, u64 m, int *kh, int *kw, u64 *km, int *negated) {
    if (h < w) {
        *kh = h, *kw = w, *km = least_image(h, w, m), *negated = 0;
    } else if (h > w) {
        *kh = w, *kw = h, *km = least_image(w, h, transposed(h, w, m)), *negated = 1;
    } else {
        u64 own = least_image(h, w, m), other = least_image(w, h, transposed(h, w, m));
        *kh = h, *kw = w;
        if (own <= other)
            *km = own, *negated = 0;
        else
            *km = other, *negated = 1;
    }
}

/* Direct-mapped cache: trimmed region -> its key tuple (a reference held here); bounded: at
 * most 2^MAX_CACHE_BITS tuples (about 13 MB at 17 bits), a colliding region evicts the old
 * one. It starts small and grows (x4) after twice its size in misses: a big table costs
 * page faults on first touch, which a small solve of a few milliseconds would feel. */
#ifndef MAX_CACHE_BITS
#define MAX_CACHE_BITS 17
#endif
#define MIN_CACHE_BITS 10
typedef struct {
    u64 mask;
    int h, w;
    PyObject *key;
} Slot;
static Slot *cache;
static int cache_bits;
static long cache_misses;

static Slot *slot_of(Slot *table, int bits, int h, int w, u64 m) {
    u64 hash = (m ^ ((u64)h << 58) ^ ((u64)w << 52)) * 0x9E3779B97F4A7C15ULL;
    return &table[hash >> (64 - bits)];
}

/* A table 4 times larger (the first one: 2^MIN_CACHE_BITS), the old entries moved in (one
 * of two that collide dropped). Out of memory: the old table stays. */
static void grow_cache(void) {
    int bits = cache ? cache_bits + 2 : MIN_CACHE_BITS;
    if (bits > MAX_CACHE_BITS) bits = MAX_CACHE_BITS;
    Slot *fresh = PyMem_Calloc((size_t)1 << bits, sizeof(Slot));
    if (!fresh) return;
    if (cache) {
        for (size_t i = 0; i < ((size_t)1 << cache_bits); i++) {
            Slot *old = &cache[i];
            if (!old->key) continue;
            Slot *to = slot_of(fresh, bits, old->h, old->w, old->mask);
            if (to->key)
                Py_DECREF(old->key);
            else
                *to = *old;
        }
        PyMem_Free(cache);
    }
    cache = fresh;
    cache_bits = bits;
    cache_misses = 0;
}

static PyObject *minus_one;

static PyObject *key_tuple(int h, int w, u64 m, int negated) {
    PyObject *t = PyTuple_New(negated ? 4 : 3);
    if (!t) return NULL;
    PyObject *a = PyLong_FromLong(h), *b = PyLong_FromLong(w), *c = PyLong_FromUnsignedLongLong(m);
    if (!a || !b || !c) {
        Py_XDECREF(a);
        Py_XDECREF(b);
        Py_XDECREF(c);
        Py_DECREF(t);
        return NULL;
    }
    PyTuple_SET_ITEM(t, 0, a);
    PyTuple_SET_ITEM(t, 1, b);
    PyTuple_SET_ITEM(t, 2, c);
    if (negated) {
        Py_INCREF(minus_one);
        PyTuple_SET_ITEM(t, 3, minus_one);
    }
    return t;
}

/* The key (a new reference; the cache keeps one too) of region `m` of an h x w frame. A
 * later call may evict it from the cache: hence a new reference, never a borrowed one. */
static PyObject *region_key(int h, int w, u64 m) {
    int th, tw, kh, kw, negated;
    u64 tm, km;
    trim(h, w, m, &th, &tw, &tm);
    if (!cache) grow_cache();
    Slot *slot = cache ? slot_of(cache, cache_bits, th, tw, tm) : NULL;
    if (slot && slot->key && slot->mask == tm && slot->h == th && slot->w == tw) {
        Py_INCREF(slot->key);
        return slot->key;
    }
    signed_key(th, tw, tm, &kh, &kw, &km, &negated);
    PyObject *key = key_tuple(kh, kw, km, negated);
    if (!key || !slot) return key; /* no table (out of memory): the key uncached */
    Py_INCREF(key);
    Py_XSETREF(slot->key, key);
    slot->mask = tm, slot->h = th, slot->w = tw;
    if (++cache_misses > (2L << cache_bits) && cache_bits < MAX_CACHE_BITS) grow_cache();
    return key;
}

/* The keys of the regions (lone cells left out) of `after`, as a tuple. */
static PyObject *parts_of(u64 after, const Frame *f) {
    PyObject *found[32];
    Py_ssize_t n = 0;
    u64 lone = after & ~(((after & f->not_last) << 1) | ((after & f->not_first) >> 1) |
                         shl(after, f->w) | shr(after, f->w));
    u64 rest = after & ~lone;
    int failed = 0;
    while (rest) { /* a region has at least 2 cells: at most 32 of them */
        u64 region = grown(rest & -rest, rest, f);
        rest ^= region;
        found[n] = region_key(f->h, f->w, region);
        if (!found[n]) {
            failed = 1;
            break;
        }
        n++;
    }
    PyObject *t = failed ? NULL : PyTuple_New(n);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (t)
            PyTuple_SET_ITEM(t, i, found[i]); /* steals the reference */
        else
            Py_DECREF(found[i]);
    }
    return t;
}

/* Whether cell (r, c) is on the board and empty. */
static int empty_at(u64 mask, const Frame *f, int r, int c) {
    return r >= 0 && r < f->h && c >= 0 && c < f->w && (mask >> (r * f->w + c)) & 1;
}

/* Whether the domino on p = (r, c) and q = p + (dr, dc) is dominated by a neighbour on its
 * line (see _end_moves in domineering.py for the rule and its proof): by the one on q, n
 * when n is empty, the cell after n is not, and neither cell beside p across the line is;
 * by the one on b, p when b is empty, the cell before b is not, and neither cell beside q
 * is, unless that one is beaten by this one (n and both cells beside b blocked). */
static int beaten(u64 mask, const Frame *f, int r, int c, int dr, int dc) {
#define E(rr, cc) empty_at(mask, f, (rr), (cc))
    int qr = r + dr, qc = c + dc, nr = qr + dr, nc = qc + dc, br = r - dr, bc = c - dc;
    if (E(nr, nc) && !E(nr + dr, nc + dc) && !E(r + dc, c + dr) && !E(r - dc, c - dr))
        return 1;
    if (E(br, bc) && !E(br - dr, bc - dc) && !E(qr + dc, qc + dr) && !E(qr - dc, qc - dr))
        return E(nr, nc) || E(br + dc, bc + dr) || E(br - dc, bc - dr);
    return 0;
#undef E
}

/* Read h, w, mask; 0 when the board does not fit (the caller returns None). */
static int board_of(PyObject *const *args, Py_ssize_t nargs, int want, int *h, int *w, u64 *m) {
    if (nargs != want) {
        PyErr_SetString(PyExc_TypeError, "wrong number of arguments");
        return -1;
    }
    if (!PyLong_Check(args[0]) || !PyLong_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "height and width must be ints");
        return -1;
    }
    long lh = PyLong_AsLong(args[0]), lw = PyLong_AsLong(args[1]);
    if ((lh == -1 || lw == -1) && PyErr_Occurred()) { /* past a C long: does not fit */
        PyErr_Clear();
        return 0;
    }
    if (lh < 1 || lw < 1 || lh > 64 || lw > 64 || lh * lw > 64) return 0;
    if (!PyLong_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, "mask must be an int");
        return -1;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(args[2]);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) { /* negative or past 64 bits */
        PyErr_Clear();
        return 0;
    }
    if (v & ~low_bits((int)(lh * lw))) return 0;
    *h = (int)lh, *w = (int)lw, *m = (u64)v;
    return 1;
}

static PyObject *option_keys(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    int h, w;
    u64 mask;
    int ok = board_of(args, nargs, 4, &h, &w, &mask);
    if (ok < 0) return NULL;
    if (ok == 0) Py_RETURN_NONE;
    int right = PyObject_IsTrue(args[3]);
    if (right < 0) return NULL;
    Frame f;
    frame_init(&f, h, w);
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    int step = right ? 1 : w; /* the domino's second cell, from its first */
    for (int r = 0; r < h - (right ? 0 : 1); r++) {
        for (int c = 0; c < w - (right ? 1 : 0); c++) {
            int i = r * w + c;
            u64 domino = ((u64)1 << i) | ((u64)1 << (i + step));
            if ((mask & domino) != domino) continue;
            if (beaten(mask, &f, r, c, right ? 0 : 1, right ? 1 : 0)) continue;
            PyObject *parts = parts_of(mask ^ domino, &f);
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

static PyObject *py_signed_key(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    int h, w;
    u64 mask;
    int ok = board_of(args, nargs, 3, &h, &w, &mask);
    if (ok < 0) return NULL;
    if (ok == 0) Py_RETURN_NONE;
    if (!mask) return Py_BuildValue("(iii)", 0, 0, 0);
    return region_key(h, w, mask);
}

static PyMethodDef methods[] = {
    {"option_keys", (PyCFunction)(void (*)(void))option_keys, METH_FASTCALL,
     "option_keys(h, w, mask, right) -> list of tuples of keys, or None if the board does "
     "not fit in 64 bits."},
    {"signed_key", (PyCFunction)(void (*)(void))py_signed_key, METH_FASTCALL,
     "signed_key(h, w, mask) -> the key or negated key of the board, or None if it does not "
     "fit in 64 bits."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_k_domineering", "Domineering's option_keys in C.", -1, methods,
};

/* Raised whenever what domineering.py calls here changes: a stale build is then not loaded. */
#define API_VERSION 1

PyMODINIT_FUNC PyInit__k_domineering(void) {
    minus_one = PyLong_FromLong(-1);
    if (!minus_one) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddIntConstant(m, "API_VERSION", API_VERSION) < 0) Py_CLEAR(m);
    return m;
}
