/* Fission's key search in C: the game DAG of one board, as keys and option lists.
 *
 * The compiled twin of fission.py's FissionBoards search (the pure-Python path stays the
 * reference): from a key board it finds every key board reachable, each once, with its
 * Left and Right options as keys, and hands them back in post-order (options first), so
 * that Python builds each value with the core's game() in one pass.
 *
 *   search(h, w, board, perms, cap) -> (keys, lefts, rights) or None
 *
 * ``board`` is a nibble board (nibbles.py: cell i is nibble i, '.' 1, 'x' 2, '#' 0) of
 * h * w <= 64 cells, already the least of its images; ``perms`` the cell permutations of
 * the symmetries (fission._symmetries: four that keep rows rows, then on a square the four
 * transposes, whose images stand for minus the value). ``keys[k]`` is the k-th key board
 * (a nibble int), ``lefts[k]`` / ``rights[k]`` tuples of option codes: 0 for an option
 * with fewer than two empty cells (0, no move ever), else 2 * (j + 1) + n for key j
 * (j < k), negated when n is 1. None when the board does not fit (over 64 cells, a letter
 * other than '.', 'x', '#') or the search passes ``cap`` keys (the caller then runs the
 * Python search, which its budget and deadline can interrupt).
 *
 * Inside, a board is two 64-bit masks (empty cells, stones); a split turns three cells
 * over, in every image at once by an exclusive or with the image cells' mask. The least
 * image compares as the nibble ints do: at the highest cell where two boards differ, the
 * larger letter (x > . > #) wins. The DFS is iterative (its stack grows on the heap).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;
typedef struct { u64 e, s; } Board;

#define MAX_SYMS 8

#if defined(__GNUC__) || defined(__clang__)
static int top_bit(u64 x) { return 63 - __builtin_clzll(x); } /* x != 0 */
static int low_bit(u64 x) { return __builtin_ctzll(x); }      /* x != 0 */
static int popcount(u64 x) { return __builtin_popcountll(x); }
#else
static int top_bit(u64 x) {
    int n = 0;
    while (x >> 1) { x >>= 1; n++; }
    return n;
}
static int low_bit(u64 x) { return top_bit(x & -x); }
static int popcount(u64 x) {
    int n = 0;
    while (x) { x &= x - 1; n++; }
    return n;
}
#endif

/* a < b in the order of the nibble ints */
static int less(Board a, Board b) {
    u64 diff = (a.e ^ b.e) | (a.s ^ b.s);
    if (!diff) return 0;
    int t = top_bit(diff);
    int va = (int)(((a.s >> t) & 1) * 2 + ((a.e >> t) & 1));
    int vb = (int)(((b.s >> t) & 1) * 2 + ((b.e >> t) & 1));
    return va < vb;
}

typedef struct {
    int n, nsym, w;
    int perm[MAX_SYMS][64];
    u64 ones, inner;
    u64 vcode[64][MAX_SYMS], hcode[64][MAX_SYMS]; /* image masks of a split at cell i */
    /* keys */
    Board *key;
    int *opt_start, *nleft, *nright;
    unsigned char *state; /* seen by post_order */
    int count, cap_nodes, alloc;
    /* option codes: child index * 2 + negated, or -1 for 0 */
    int *opts;
    size_t nopts, opts_alloc;
    /* hash table of keys -> index + 1 */
    int *slots;
    size_t mask;
} Search;

static u64 hash(Board b) {
    u64 h = b.e * 0x9E3779B97F4A7C15ULL ^ (b.s + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    return h ^ (h >> 29);
}

static int grow_table(Search *z) {
    size_t size = (z->mask + 1) * 2;
    int *slots = calloc(size, sizeof(int));
    if (!slots) return -1;
    for (int k = 0; k < z->count; k++) {
        size_t i = hash(z->key[k]) & (size - 1);
        while (slots[i]) i = (i + 1) & (size - 1);
        slots[i] = k + 1;
    }
    free(z->slots);
    z->slots = slots;
    z->mask = size - 1;
    return 0;
}

static int grow_nodes(Search *z) {
    int alloc = z->alloc * 2;
    Board *key = realloc(z->key, alloc * sizeof(Board));
    if (!key) return -1;
    z->key = key;
    int *a = realloc(z->opt_start, alloc * sizeof(int));
    if (!a) return -1;
    z->opt_start = a;
    a = realloc(z->nleft, alloc * sizeof(int));
    if (!a) return -1;
    z->nleft = a;
    a = realloc(z->nright, alloc * sizeof(int));
    if (!a) return -1;
    z->nright = a;
    unsigned char *st = realloc(z->state, alloc);
    if (!st) return -1;
    z->state = st;
    z->alloc = alloc;
    return 0;
}

/* index of key b, added as a new key if unseen; -1 out of memory, -2 past the cap */
static int find_or_add(Search *z, Board b) {
    size_t i = hash(b) & z->mask;
    while (z->slots[i]) {
        int k = z->slots[i] - 1;
        if (z->key[k].e == b.e && z->key[k].s == b.s) return k;
        i = (i + 1) & z->mask;
    }
    if (z->count >= z->cap_nodes) return -2;
    if (z->count >= z->alloc && grow_nodes(z) < 0) return -1;
    int k = z->count++;
    z->key[k] = b;
    z->slots[i] = k + 1;
    if ((size_t)z->count * 2 > z->mask + 1 && grow_table(z) < 0) return -1;
    return k;
}

static int push_opt(Search *z, int code) {
    if (z->nopts >= z->opts_alloc) {
        size_t alloc = z->opts_alloc * 2;
        int *o = realloc(z->opts, alloc * sizeof(int));
        if (!o) return -1;
        z->opts = o;
        z->opts_alloc = alloc;
    }
    z->opts[z->nopts++] = code;
    return 0;
}

static Board image(const Search *z, int s, Board b) {
    Board out = {0, 0};
    for (u64 m = b.e; m; m &= m - 1) out.e |= 1ULL << z->perm[s][low_bit(m)];
    for (u64 m = b.s; m; m &= m - 1) out.s |= 1ULL << z->perm[s][low_bit(m)];
    return out;
}

/* Left's (vertical, d = w) or Right's (horizontal, d = 1) options of key k, appended to
 * opts; returns the number added, or a negative error from find_or_add. */
static int options(Search *z, int k, const Board *imgs, int vertical) {
    Board b = z->key[k];
    int d = vertical ? z->w : 1;
    u64 e = b.e, starts = b.s & (e << d) & (e >> d) & z->ones;
    if (!vertical) starts &= z->inner;
    int added = 0;
    while (starts) {
        u64 low = starts & -starts;
        starts ^= low;
        u64 flip = low | (low << d) | (low >> d);
        if (popcount(e ^ flip) < 2) { /* (the three flipped cells are 2 stones, 1 empty) */
            if (push_opt(z, -1) < 0) return -1;
            added++;
            continue;
        }
        int i = top_bit(low);
        const u64 *code = vertical ? z->vcode[i] : z->hcode[i];
        Board own = {imgs[0].e ^ code[0], imgs[0].s ^ code[0]};
        for (int s = 1; s < 4; s++) {
            Board c = {imgs[s].e ^ code[s], imgs[s].s ^ code[s]};
            if (less(c, own)) own = c;
        }
        Board best = own;
        int negated = 0;
        if (z->nsym == 8) {
            Board other = {imgs[4].e ^ code[4], imgs[4].s ^ code[4]};
            for (int s = 5; s < 8; s++) {
                Board c = {imgs[s].e ^ code[s], imgs[s].s ^ code[s]};
                if (less(c, other)) other = c;
            }
            if (less(other, own)) { best = other; negated = 1; }
        }
        int j = find_or_add(z, best);
        if (j < 0) return j;
        if (push_opt(z, 2 * j + negated) < 0) return -1;
        added++;
    }
    return added;
}

/* expand every key once, in the order found (options append new keys); 0 done, -1 out
 * of memory, -2 past the cap */
static int run(Search *z) {
    for (int k = 0; k < z->count; k++) {
        Board imgs[MAX_SYMS];
        for (int s = 0; s < z->nsym; s++) imgs[s] = s ? image(z, s, z->key[k]) : z->key[k];
        size_t start = z->nopts;
        int nl = options(z, k, imgs, 1);
        if (nl < 0) return nl;
        int nr = options(z, k, imgs, 0);
        if (nr < 0) return nr;
        z->opt_start[k] = (int)start; /* (set after: options may move the arrays) */
        z->nleft[k] = nl;
        z->nright[k] = nr;
    }
    return 0;
}

/* the keys in post-order (an iterative DFS): each after all its options */
static int *post_order(Search *z) {
    int *order = malloc((size_t)z->count * sizeof(int));
    int *stack = malloc((size_t)z->count * 2 * sizeof(int) + 2 * sizeof(int));
    if (!order || !stack) { free(order); free(stack); return NULL; }
    memset(z->state, 0, (size_t)z->count);
    int m = 0;
    size_t depth = 0;
    stack[depth++] = 0; stack[depth++] = 0; /* (key, next option) */
    z->state[0] = 1;
    while (depth) {
        int k = stack[depth - 2], o = stack[depth - 1];
        int total = z->nleft[k] + z->nright[k];
        int pushed = 0;
        while (o < total) {
            int code = z->opts[z->opt_start[k] + o++];
            if (code >= 0 && !z->state[code >> 1]) {
                stack[depth - 1] = o;
                z->state[code >> 1] = 1;
                stack[depth++] = code >> 1;
                stack[depth++] = 0;
                pushed = 1;
                break;
            }
        }
        if (!pushed) { order[m++] = k; depth -= 2; }
    }
    return order;
}

static PyObject *to_nibbles(Board b, int n) {
    /* its hex digits, last cell first (cell i is nibble i), read by int(..., 16) */
    char digits[65];
    int m = 0;
    for (int i = n - 1; i >= 0; i--) digits[m++] = (char)('0' + ((b.s >> i) & 1) * 2 + ((b.e >> i) & 1));
    digits[m] = 0;
    return PyLong_FromString(digits, NULL, 16);
}

/* the board's cells from its nibble int: 0 ok, 1 a letter the kernel does not model */
static int from_nibbles(PyObject *board, int n, Board *out) {
    out->e = out->s = 0;
    PyObject *rest = board;
    Py_INCREF(rest);
    PyObject *mask = PyLong_FromUnsignedLongLong(~0ULL);
    PyObject *sixty_four = PyLong_FromLong(64);
    int rc = -1;
    if (!mask || !sixty_four) goto done;
    for (int chunk = 0; chunk * 16 < n; chunk++) {
        PyObject *low = PyNumber_And(rest, mask);
        if (!low) goto done;
        u64 v = PyLong_AsUnsignedLongLong(low);
        Py_DECREF(low);
        if (v == (u64)-1 && PyErr_Occurred()) goto done;
        for (int c = 0; c < 16 && chunk * 16 + c < n; c++) {
            int nib = (int)((v >> (4 * c)) & 15), i = chunk * 16 + c;
            if (nib == 1) out->e |= 1ULL << i;
            else if (nib == 2) out->s |= 1ULL << i;
            else if (nib != 0) { rc = 1; goto done; }
        }
        PyObject *shifted = PyNumber_Rshift(rest, sixty_four);
        if (!shifted) goto done;
        Py_DECREF(rest);
        rest = shifted;
    }
    rc = PyObject_IsTrue(rest) ? 1 : 0; /* cells past n: not a board of this frame */
done:
    Py_XDECREF(rest);
    Py_XDECREF(mask);
    Py_XDECREF(sixty_four);
    return rc;
}

static void release(Search *z) {
    free(z->key); free(z->opt_start); free(z->nleft); free(z->nright); free(z->state);
    free(z->opts); free(z->slots);
}

static PyObject *build_result(Search *z, const int *order) {
    int *position = malloc((size_t)z->count * sizeof(int));
    if (!position) return PyErr_NoMemory();
    for (int m = 0; m < z->count; m++) position[order[m]] = m;
    PyObject *keys = PyList_New(z->count), *lefts = PyList_New(z->count);
    PyObject *rights = PyList_New(z->count), *result = NULL;
    if (!keys || !lefts || !rights) goto fail;
    for (int m = 0; m < z->count; m++) {
        int k = order[m];
        PyObject *key = to_nibbles(z->key[k], z->n);
        if (!key) goto fail;
        PyList_SET_ITEM(keys, m, key);
        for (int side = 0; side < 2; side++) {
            int count = side ? z->nright[k] : z->nleft[k];
            int first = z->opt_start[k] + (side ? z->nleft[k] : 0);
            PyObject *codes = PyTuple_New(count);
            if (!codes) goto fail;
            PyList_SET_ITEM(side ? rights : lefts, m, codes);
            for (int o = 0; o < count; o++) {
                int code = z->opts[first + o];
                long v = code < 0 ? 0 : 2L * (position[code >> 1] + 1) + (code & 1);
                PyObject *item = PyLong_FromLong(v);
                if (!item) goto fail;
                PyTuple_SET_ITEM(codes, o, item);
            }
        }
    }
    result = PyTuple_Pack(3, keys, lefts, rights);
fail:
    free(position);
    Py_XDECREF(keys);
    Py_XDECREF(lefts);
    Py_XDECREF(rights);
    return result;
}

static PyObject *search(PyObject *self, PyObject *args) {
    int h, w, cap;
    PyObject *board, *perms;
    if (!PyArg_ParseTuple(args, "iiOOi", &h, &w, &board, &perms, &cap)) return NULL;
    if (!PyLong_Check(board) || h < 1 || w < 1 || h * w > 64 || cap < 1) Py_RETURN_NONE;
    Search z;
    memset(&z, 0, sizeof z);
    z.n = h * w;
    z.w = w;
    z.cap_nodes = cap;
    PyObject *seq = PySequence_Fast(perms, "perms must be a sequence");
    if (!seq) return NULL;
    z.nsym = (int)PySequence_Fast_GET_SIZE(seq);
    if (z.nsym != 4 && z.nsym != 8) { Py_DECREF(seq); Py_RETURN_NONE; }
    for (int s = 0; s < z.nsym; s++) {
        PyObject *p = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, s), "a perm");
        if (!p) { Py_DECREF(seq); return NULL; }
        if (PySequence_Fast_GET_SIZE(p) != z.n) { Py_DECREF(p); Py_DECREF(seq); Py_RETURN_NONE; }
        for (int i = 0; i < z.n; i++) {
            long j = PyLong_AsLong(PySequence_Fast_GET_ITEM(p, i));
            if (j == -1 && PyErr_Occurred()) { Py_DECREF(p); Py_DECREF(seq); return NULL; }
            if (j < 0 || j >= z.n) { Py_DECREF(p); Py_DECREF(seq); Py_RETURN_NONE; }
            z.perm[s][i] = (int)j;
        }
        Py_DECREF(p);
    }
    Py_DECREF(seq);
    Board root;
    int fit = from_nibbles(board, z.n, &root);
    if (fit < 0) return NULL;
    if (fit > 0) Py_RETURN_NONE;
    z.ones = z.n == 64 ? ~0ULL : (1ULL << z.n) - 1;
    for (int i = 0; i < z.n; i++) {
        int c = i % w;
        if (c >= 1 && c < w - 1) z.inner |= 1ULL << i;
        for (int s = 0; s < z.nsym; s++) {
            if (i >= w && i + w < z.n)
                z.vcode[i][s] = (1ULL << z.perm[s][i - w]) | (1ULL << z.perm[s][i])
                                | (1ULL << z.perm[s][i + w]);
            if (c >= 1 && c < w - 1)
                z.hcode[i][s] = (1ULL << z.perm[s][i - 1]) | (1ULL << z.perm[s][i])
                                | (1ULL << z.perm[s][i + 1]);
        }
    }
    z.alloc = 1024;
    z.opts_alloc = 4096;
    z.mask = 2047;
    z.key = malloc(z.alloc * sizeof(Board));
    z.opt_start = malloc(z.alloc * sizeof(int));
    z.nleft = malloc(z.alloc * sizeof(int));
    z.nright = malloc(z.alloc * sizeof(int));
    z.state = malloc(z.alloc);
    z.opts = malloc(z.opts_alloc * sizeof(int));
    z.slots = calloc(z.mask + 1, sizeof(int));
    PyObject *result = NULL;
    if (!z.key || !z.opt_start || !z.nleft || !z.nright || !z.state || !z.opts || !z.slots) {
        PyErr_NoMemory();
        goto done;
    }
    if (find_or_add(&z, root) != 0) { PyErr_NoMemory(); goto done; }
    int rc = run(&z);
    if (rc == -1) { PyErr_NoMemory(); goto done; }
    if (rc == -2) { result = Py_None; Py_INCREF(result); goto done; }
    int *order = post_order(&z);
    if (!order) { PyErr_NoMemory(); goto done; }
    result = build_result(&z, order);
    free(order);
done:
    release(&z);
    return result;
}

static PyMethodDef methods[] = {
    {"search", search, METH_VARARGS,
     "search(h, w, board, perms, cap) -> (keys, lefts, rights) or None: the key DAG of a "
     "Fission board in post-order (see the module source)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_k_fission", "Fission's key search in C (fission.py).", -1, methods,
};

PyMODINIT_FUNC PyInit__k_fission(void) { return PyModule_Create(&module); }
