/* The key searches of Fission and Konane in C: the game DAG of one board, and its values by
 * the core's game().
 *
 * The compiled twin of two Python searches, which stay the reference: fission.py's
 * FissionBoards and the core's key search over Konane.option_keys (stones.py). From a key
 * board it finds every key board reachable, each once, with its Left and Right options as
 * keys, in post-order (options first).
 *
 *   search(rule, h, w, board, perms, cap) -> (keys, lefts, rights) or None
 *       the DAG itself (for the tests: it is checked against the ruleset's option_keys);
 *   values(rule, h, w, board, perms, cap, game, zero, charge) -> (keys, values) or None
 *       the DAG valued in post-order: each key's value is game(lefts, rights), the core's
 *       canonical form, called from here with the options' values, but once per new pair
 *       of option sets (a memo on the values' addresses: values are interned) and after
 *       dropping dominated options (below); charge(n) is called after every n keys valued
 *       (the search budget: it may raise, and so may game(): the error is passed on), and
 *       charge(0) every 65,536 keys found (a deadline may raise).
 *       Handed back: the board's value and its options' keys' values (what a solve asks
 *       for next), ``zero`` standing for an option without moves.
 *
 * ``rule`` is FISSION (0) or KONANE (1). ``board`` is a nibble board (nibbles.py: cell i is
 * nibble i, '.' 1, 'x' 2, 'o' 4 (Konane only), '#' 0) of h * w <= 64 cells, already the least
 * of its images; ``perms`` the cell permutations of the symmetries (nibbles.symmetries: four
 * that keep rows rows, then on a square the four transposes, whose images stand for minus
 * the value in Fission, where transposing swaps the players), or None: the same, made
 * here. ``keys[k]`` is the k-th key board (a nibble int), ``lefts[k]`` / ``rights[k]``
 * tuples of option codes: 0 for an option that is 0 with no move ever (Fission: fewer than
 * two empty cells; Konane: no stones of one colour), else 2 * (j + 1) + n for key j
 * (j < k), negated when n is 1. None when the board does not fit (over 64 cells, a letter
 * the rule does not have) or the search passes ``cap`` keys (the caller then runs the
 * Python search, which its budget and deadline can interrupt).
 *
 * Inside, a board is three 64-bit masks (empty cells, x, o). A move changes a few cells,
 * in every image at once: a Fission split by an exclusive or with the image cells' mask, a
 * Konane jump by the images of the cells it changes. The least image compares as the nibble
 * ints do: at the highest cell where two boards differ, the larger letter (o > x > . > #)
 * wins. Nothing recurses: keys are expanded in the order they are found, and the post-order
 * comes from a DFS with its stack on the heap.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;
typedef struct { u64 e, x, o; } Board;

#define MAX_SYMS 8
enum { FISSION = 0, KONANE = 1 };

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

/* shifts that give 0 past 63 (a 1 x 64 board shifts by 64) */
static u64 shl(u64 x, int k) { return k < 64 ? x << k : 0; }
static u64 shr(u64 x, int k) { return k < 64 ? x >> k : 0; }

static int letter(Board a, int t) {
    return (int)(((a.o >> t) & 1) * 4 + ((a.x >> t) & 1) * 2 + ((a.e >> t) & 1));
}

/* a < b in the order of the nibble ints */
static int less(Board a, Board b) {
    u64 diff = (a.e ^ b.e) | (a.x ^ b.x) | (a.o ^ b.o);
    if (!diff) return 0;
    int t = top_bit(diff);
    return letter(a, t) < letter(b, t);
}

typedef struct {
    int rule, n, nsym, w;
    int perm[MAX_SYMS][64];
    u64 bit[MAX_SYMS][64]; /* the cell i of the board is the cell bit[s][i] of image s */
    u64 ones, inner;
    u64 vcode[64][MAX_SYMS], hcode[64][MAX_SYMS]; /* Fission: image masks of a split at i */
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
    u64 h = b.e * 0x9E3779B97F4A7C15ULL ^ (b.x + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL
            ^ (b.o + 0x165667B19E3779F9ULL) * 0x27D4EB2F165667C5ULL;
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
        if (z->key[k].e == b.e && z->key[k].x == b.x && z->key[k].o == b.o) return k;
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

/* the cells of mask m in image s */
static u64 image_mask(const Search *z, int s, u64 m) {
    u64 out = 0;
    for (; m; m &= m - 1) out |= z->bit[s][low_bit(m)];
    return out;
}

static Board image(const Search *z, int s, Board b) {
    Board out = {image_mask(z, s, b.e), image_mask(z, s, b.x), image_mask(z, s, b.o)};
    return out;
}

/* append the option whose image s is imgs[s] changed by the masks in change[s] (cells that
 * turn over between empty and not, and the cells of x and of o that change): its least
 * image is a key; 0 or a negative error from find_or_add */
static int add_option(Search *z, const Board *imgs, const Board *change) {
    Board own = {0, 0, 0}, other = {0, 0, 0}; /* the least of images 0-3, of images 4-7 */
    for (int s = 0; s < z->nsym; s++) {
        Board c = {imgs[s].e ^ change[s].e, imgs[s].x ^ change[s].x, imgs[s].o ^ change[s].o};
        Board *best = s < 4 ? &own : &other;
        if (s == 0 || s == 4 || less(c, *best)) *best = c;
    }
    int negated = 0;
    Board best = own;
    if (z->nsym == 8 && less(other, own)) {
        best = other;
        negated = z->rule == FISSION; /* (a transposed Konane board is the same game) */
    }
    int j = find_or_add(z, best);
    if (j < 0) return j;
    return push_opt(z, 2 * j + negated);
}

/* Fission (fission.py): Left's (vertical, d = w) or Right's (horizontal, d = 1) splits of
 * key k, appended to opts; returns the number added, or a negative error. */
static int fission_options(Search *z, int k, const Board *imgs, int vertical) {
    Board b = z->key[k];
    int d = vertical ? z->w : 1;
    u64 e = b.e, starts = b.x & shl(e, d) & shr(e, d) & z->ones;
    if (!vertical) starts &= z->inner;
    int added = 0;
    while (starts) {
        u64 low = starts & -starts;
        starts ^= low;
        u64 flip = low | shl(low, d) | shr(low, d);
        if (popcount(e ^ flip) < 2) { /* (the three flipped cells are 2 stones, 1 empty) */
            if (push_opt(z, -1) < 0) return -1;
            added++;
            continue;
        }
        int i = top_bit(low);
        const u64 *code = vertical ? z->vcode[i] : z->hcode[i];
        Board change[MAX_SYMS];
        for (int s = 0; s < z->nsym; s++) change[s] = (Board){code[s], code[s], 0};
        int rc = add_option(z, imgs, change);
        if (rc < 0) return rc;
        added++;
    }
    return added;
}

/* may a stone at cell `at` jump by `step` (one of 1, -1, w, -w): an enemy stone next, then
 * an empty cell, both on the board? */
static int can_jump(const Search *z, u64 theirs, u64 empty, int at, int step) {
    if (step == 1 || step == -1) {
        int c = at % z->w;
        if (step > 0 ? c + 2 >= z->w : c < 2) return 0;
    } else if (at + 2 * step < 0 || at + 2 * step >= z->n) {
        return 0;
    }
    return (int)((theirs >> (at + step)) & (empty >> (at + 2 * step)) & 1);
}

/* Konane (stones.py, Konane.option_keys): the jumps of Left's (x) or Right's (o) stones of
 * key k, appended to opts: a stone jumps over an adjacent enemy stone onto the empty cell
 * beyond, and may go on in the same direction; returns the number added, or a negative
 * error. An option without stones of both colours is 0. */
static int konane_options(Search *z, int k, const Board *imgs, int left) {
    Board b = z->key[k];
    u64 mine = left ? b.x : b.o, theirs = left ? b.o : b.x;
    int steps[4] = {1, -1, z->w, -z->w};
    int added = 0;
    for (u64 m = mine; m; m &= m - 1) {
        int start = low_bit(m);
        for (int d = 0; d < 4; d++) {
            int step = steps[d], at = start;
            u64 jumped = 0;
            while (can_jump(z, theirs, b.e, at, step)) {
                jumped |= 1ULL << (at + step);
                at += 2 * step;
                if (!(theirs & ~jumped)) { /* no enemy stone left: 0, no move ever */
                    if (push_opt(z, -1) < 0) return -1;
                    added++;
                    continue;
                }
                u64 ends = (1ULL << start) | (1ULL << at);
                Board change[MAX_SYMS];
                for (int s = 0; s < z->nsym; s++) {
                    u64 js = image_mask(z, s, jumped), es = image_mask(z, s, ends);
                    change[s].e = js | es;
                    if (left) { change[s].x = es; change[s].o = js; }
                    else { change[s].o = es; change[s].x = js; }
                }
                int rc = add_option(z, imgs, change);
                if (rc < 0) return rc;
                added++;
            }
        }
    }
    return added;
}

/* call charge(0) (the search budget's deadline), the Python error: 0, or -1 if it raised */
static int poll(PyObject *charge) {
    if (!charge) return 0;
    PyObject *done = PyObject_CallFunction(charge, "i", 0);
    Py_XDECREF(done);
    return done ? 0 : -1;
}

/* expand every key once, in the order found (options append new keys); 0 done, -1 out
 * of memory, -2 past the cap, -3 a signal handler or charge(0) raised (Ctrl-C, a timer,
 * a deadline), every 65,536 keys */
static int run(Search *z, PyObject *charge) {
    for (int k = 0; k < z->count; k++) {
        if ((k & 0xFFFF) == 0xFFFF && (PyErr_CheckSignals() < 0 || poll(charge) < 0)) return -3;
        Board imgs[MAX_SYMS];
        for (int s = 0; s < z->nsym; s++) imgs[s] = s ? image(z, s, z->key[k]) : z->key[k];
        size_t start = z->nopts;
        int nl = z->rule == FISSION ? fission_options(z, k, imgs, 1) : konane_options(z, k, imgs, 1);
        if (nl < 0) return nl;
        int nr = z->rule == FISSION ? fission_options(z, k, imgs, 0) : konane_options(z, k, imgs, 0);
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
    free(stack);
    return order;
}

static PyObject *to_nibbles(Board b, int n) {
    /* its hex digits, last cell first (cell i is nibble i), read by int(..., 16) */
    char digits[65];
    int m = 0;
    for (int i = n - 1; i >= 0; i--) digits[m++] = (char)('0' + letter(b, i));
    digits[m] = 0;
    return PyLong_FromString(digits, NULL, 16);
}

/* the board's cells from its nibble int: 0 ok, 1 a letter the rule does not have */
static int from_nibbles(PyObject *board, int n, int rule, Board *out) {
    out->e = out->x = out->o = 0;
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
            else if (nib == 2) out->x |= 1ULL << i;
            else if (nib == 4 && rule == KONANE) out->o |= 1ULL << i;
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

/* Where cell (r, c) of an h x w board goes under symmetry k, in the order of
 * nibbles.symmetries: k < 4 identity, left-right, up-down, half turn (an h x w image);
 * k >= 4 the same after transposing (a w x h image; on a square, the four transposes). */
static int image_cell(int h, int w, int k, int r, int c) {
    int th = k < 4 ? h : w, tw = k < 4 ? w : h; /* the image's shape */
    int rr = k < 4 ? r : c, cc = k < 4 ? c : r; /* (transposed: cell (c, r)) */
    if (k & 1) cc = tw - 1 - cc;                /* left-right */
    if (k & 2) rr = th - 1 - rr;                /* up-down */
    return rr * tw + cc;
}

/* Read the arguments and find the DAG with its post-order: 0 done (*order set), 1 declined
 * (None for the caller), -1 a Python exception is set. */
static int prepare(Search *z, int rule, int h, int w, PyObject *board, PyObject *perms,
                   int cap, PyObject *charge, int **order) {
    memset(z, 0, sizeof *z);
    *order = NULL;
    if (!PyLong_Check(board) || h < 1 || w < 1 || h > 64 || w > 64 || h * w > 64 || cap < 1
        || (rule != FISSION && rule != KONANE))
        return 1;
    z->rule = rule;
    z->n = h * w;
    z->w = w;
    z->cap_nodes = cap;
    if (perms == Py_None) { /* nibbles.symmetries(h, w), made here (no Python per shape) */
        z->nsym = h == w ? 8 : 4;
        for (int i = 0; i < z->n; i++)
            for (int s = 0; s < z->nsym; s++) {
                z->perm[s][i] = image_cell(h, w, s, i / w, i % w);
                z->bit[s][i] = 1ULL << z->perm[s][i];
            }
    }
    PyObject *seq = perms == Py_None ? NULL : PySequence_Fast(perms, "perms must be a sequence");
    if (!seq && perms != Py_None) return -1;
    if (seq) z->nsym = (int)PySequence_Fast_GET_SIZE(seq);
    if (z->nsym != 4 && z->nsym != 8) { Py_XDECREF(seq); return 1; }
    for (int s = 0; seq && s < z->nsym; s++) {
        PyObject *p = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, s), "a perm");
        if (!p) { Py_DECREF(seq); return -1; }
        if (PySequence_Fast_GET_SIZE(p) != z->n) { Py_DECREF(p); Py_DECREF(seq); return 1; }
        for (int i = 0; i < z->n; i++) {
            long j = PyLong_AsLong(PySequence_Fast_GET_ITEM(p, i));
            if (j == -1 && PyErr_Occurred()) { Py_DECREF(p); Py_DECREF(seq); return -1; }
            if (j < 0 || j >= z->n) { Py_DECREF(p); Py_DECREF(seq); return 1; }
            z->perm[s][i] = (int)j;
            z->bit[s][i] = 1ULL << j;
        }
        Py_DECREF(p);
    }
    Py_XDECREF(seq);
    Board root;
    int fit = from_nibbles(board, z->n, rule, &root);
    if (fit != 0) return fit;
    z->ones = z->n == 64 ? ~0ULL : (1ULL << z->n) - 1;
    for (int i = 0; i < z->n; i++) {
        int c = i % w;
        if (c >= 1 && c < w - 1) z->inner |= 1ULL << i;
        for (int s = 0; s < z->nsym && rule == FISSION; s++) { /* (Konane images cells) */
            const u64 *bit = z->bit[s];
            if (i >= w && i + w < z->n) z->vcode[i][s] = bit[i - w] | bit[i] | bit[i + w];
            if (c >= 1 && c < w - 1) z->hcode[i][s] = bit[i - 1] | bit[i] | bit[i + 1];
        }
    }
    z->alloc = 256; /* (all grow: a small DAG pays for small tables) */
    z->opts_alloc = 1024;
    z->mask = 511;
    z->key = malloc(z->alloc * sizeof(Board));
    z->opt_start = malloc(z->alloc * sizeof(int));
    z->nleft = malloc(z->alloc * sizeof(int));
    z->nright = malloc(z->alloc * sizeof(int));
    z->state = malloc(z->alloc);
    z->opts = malloc(z->opts_alloc * sizeof(int));
    z->slots = calloc(z->mask + 1, sizeof(int));
    if (!z->key || !z->opt_start || !z->nleft || !z->nright || !z->state || !z->opts
        || !z->slots || find_or_add(z, root) != 0) {
        PyErr_NoMemory();
        return -1;
    }
    int rc = run(z, charge);
    if (rc == -3) return -1;
    if (rc == -1) { PyErr_NoMemory(); return -1; }
    if (rc == -2) return 1;
    *order = post_order(z);
    if (!*order) { PyErr_NoMemory(); return -1; }
    return 0;
}

static PyObject *search(PyObject *self, PyObject *args) {
    int rule, h, w, cap, *order;
    PyObject *board, *perms, *result = NULL;
    if (!PyArg_ParseTuple(args, "iiiOOi", &rule, &h, &w, &board, &perms, &cap)) return NULL;
    Search z;
    int rc = prepare(&z, rule, h, w, board, perms, cap, NULL, &order);
    if (rc == 0) result = build_result(&z, order);
    else if (rc == 1) { result = Py_None; Py_INCREF(result); }
    free(order);
    release(&z);
    return result;
}

/* ---- values: the post-order pass calling the core's game(), memoised on option sets ---- */

typedef struct {
    uintptr_t *words; /* per entry: nl, nr, then the option values' addresses */
    size_t nwords, words_alloc;
    size_t *start;    /* entry -> its first word */
    PyObject **value; /* entry -> its value (borrowed: the pass holds every value) */
    int count, alloc;
    int *slots;       /* entry + 1, or 0 */
    size_t mask;
} Memo;

static u64 hash_words(const uintptr_t *w, size_t n) {
    u64 h = 0xCBF29CE484222325ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ (u64)w[i]) * 0x100000001B3ULL;
    return h ^ (h >> 31);
}

static int memo_grow(Memo *m) {
    size_t size = (m->mask + 1) * 2;
    int *slots = calloc(size, sizeof(int));
    if (!slots) return -1;
    for (int e = 0; e < m->count; e++) {
        const uintptr_t *w = m->words + m->start[e];
        size_t i = hash_words(w, 2 + w[0] + w[1]) & (size - 1);
        while (slots[i]) i = (i + 1) & (size - 1);
        slots[i] = e + 1;
    }
    free(m->slots);
    m->slots = slots;
    m->mask = size - 1;
    return 0;
}

/* the entry's value, or NULL with *slot set to where a new entry goes */
static PyObject *memo_get(const Memo *m, const uintptr_t *key, size_t n, size_t *slot) {
    size_t i = hash_words(key, n) & m->mask;
    while (m->slots[i]) {
        int e = m->slots[i] - 1;
        const uintptr_t *w = m->words + m->start[e];
        if (2 + w[0] + w[1] == n && !memcmp(w, key, n * sizeof(uintptr_t))) return m->value[e];
        i = (i + 1) & m->mask;
    }
    *slot = i;
    return NULL;
}

static int memo_put(Memo *m, const uintptr_t *key, size_t n, size_t slot, PyObject *value) {
    if (m->count >= m->alloc) {
        int alloc = m->alloc * 2;
        size_t *start = realloc(m->start, alloc * sizeof(size_t));
        if (!start) return -1;
        m->start = start;
        PyObject **v = realloc(m->value, alloc * sizeof(PyObject *));
        if (!v) return -1;
        m->value = v;
        m->alloc = alloc;
    }
    while (m->nwords + n > m->words_alloc) {
        size_t alloc = m->words_alloc * 2;
        uintptr_t *w = realloc(m->words, alloc * sizeof(uintptr_t));
        if (!w) return -1;
        m->words = w;
        m->words_alloc = alloc;
    }
    memcpy(m->words + m->nwords, key, n * sizeof(uintptr_t));
    m->start[m->count] = m->nwords;
    m->value[m->count] = value;
    m->nwords += n;
    m->slots[slot] = ++m->count;
    if ((size_t)m->count * 2 > m->mask + 1) return memo_grow(m);
    return 0;
}

static void sort_unique(uintptr_t *a, size_t *n) { /* insertion sort, then drop repeats */
    for (size_t i = 1; i < *n; i++) {
        uintptr_t x = a[i];
        size_t j = i;
        while (j && a[j - 1] > x) { a[j] = a[j - 1]; j--; }
        a[j] = x;
    }
    size_t m = 0;
    for (size_t i = 0; i < *n; i++)
        if (!m || a[m - 1] != a[i]) a[m++] = a[i];
    *n = m;
}

/* ---- dominated options, found before game() is called (it would drop them itself) -------
 * A Left option g is dominated by another o >= g (a Right one by o <= g); dropping it does
 * not change {lefts | rights} (Siegel CGT II.2), and more nodes then share one option set,
 * so game() runs less (on Fission 6 x 4 some 8,600 calls instead of 23,400). The stops
 * decide most pairs (as the core's ge does):
 * o >= g needs L(o) >= L(g) and R(o) >= R(g), and R(o) > L(g) gives o > g (Siegel CGT
 * II.3); the rest ask Python's >=, each pair once. Two different options are never
 * equal (the core interns its values: equal values are one object), so no option is
 * dropped for one that it dominates in turn. */

typedef struct { uintptr_t a, b; long long payload; } Entry;
typedef struct { Entry *slots; size_t mask, count; } Map; /* (a, b) -> payload; a != 0 */

static u64 hash_pair(uintptr_t a, uintptr_t b) {
    u64 h = ((u64)a * 0x9E3779B97F4A7C15ULL) ^ ((u64)b * 0xC2B2AE3D27D4EB4FULL);
    return h ^ (h >> 32);
}

static Entry *map_find(Map *m, uintptr_t a, uintptr_t b) { /* the entry, or the free slot */
    size_t i = hash_pair(a, b) & m->mask;
    while (m->slots[i].a && (m->slots[i].a != a || m->slots[i].b != b)) i = (i + 1) & m->mask;
    return &m->slots[i];
}

static int map_put(Map *m, Entry *slot, uintptr_t a, uintptr_t b, long long payload) {
    slot->a = a;
    slot->b = b;
    slot->payload = payload;
    if (++m->count * 2 <= m->mask + 1) return 0;
    size_t size = (m->mask + 1) * 2;
    Entry *old = m->slots, *slots = calloc(size, sizeof(Entry));
    if (!slots) return -1;
    size_t old_size = m->mask + 1;
    m->slots = slots;
    m->mask = size - 1;
    for (size_t i = 0; i < old_size; i++)
        if (old[i].a) *map_find(m, old[i].a, old[i].b) = old[i];
    free(old);
    return 0;
}

typedef struct { int exact; long long ln, ld, rn, rd; } Stops; /* L = ln/ld, R = rn/rd */

typedef struct {
    Map stops_at;  /* (value, 0) -> index into stops */
    Stops *stops;
    size_t nstops, stops_alloc;
    Map ge;        /* (o, g) -> o >= g */
} Compare;

#define SMALL (1LL << 31) /* stops within this: cross products fit in 64 bits */

static int fraction_parts(PyObject *f, long long *num, long long *den) { /* 1 fits, 0 not, -1 */
    PyObject *pair = PyObject_CallMethod(f, "as_integer_ratio", NULL);
    int rc = -1;
    if (pair && PyTuple_Check(pair) && PyTuple_GET_SIZE(pair) == 2) {
        int over_n = 0, over_d = 0;
        *num = PyLong_AsLongLongAndOverflow(PyTuple_GET_ITEM(pair, 0), &over_n);
        *den = PyLong_AsLongLongAndOverflow(PyTuple_GET_ITEM(pair, 1), &over_d);
        if (!PyErr_Occurred())
            rc = !over_n && !over_d && *num > -SMALL && *num < SMALL && *den > 0 && *den < SMALL;
    } else if (pair) {
        PyErr_SetString(PyExc_TypeError, "a stop is not a fraction");
    }
    Py_XDECREF(pair);
    return rc;
}

/* sign of a/b - c/d (b, d > 0, all under SMALL) */
static int cmp_q(long long a, long long b, long long c, long long d) {
    long long x = a * d, y = c * b;
    return (x > y) - (x < y);
}

/* remember v's stops (unless known): 0, or -1 out of memory (exception set) */
static int stops_put(Compare *c, PyObject *v, Stops st) {
    Entry *e = map_find(&c->stops_at, (uintptr_t)v, 0);
    if (e->a) return 0;
    if (c->nstops >= c->stops_alloc) {
        size_t alloc = c->stops_alloc * 2;
        Stops *grown = realloc(c->stops, alloc * sizeof(Stops));
        if (!grown) { PyErr_NoMemory(); return -1; }
        c->stops = grown;
        c->stops_alloc = alloc;
    }
    c->stops[c->nstops] = st;
    if (map_put(&c->stops_at, e, (uintptr_t)v, 0, (long long)c->nstops) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    c->nstops++;
    return 0;
}

static const Stops *stops_known(Compare *c, PyObject *v) {
    Entry *e = map_find(&c->stops_at, (uintptr_t)v, 0);
    return e->a ? &c->stops[e->payload] : NULL;
}

/* v's stops: known ones (see value_stops), else asked of v (left_stop(), right_stop()) */
static const Stops *stops_of(Compare *c, PyObject *v) {
    const Stops *known = stops_known(c, v);
    if (known) return known;
    Stops st = {0, 0, 1, 0, 1};
    PyObject *l = PyObject_CallMethod(v, "left_stop", NULL);
    PyObject *r = l ? PyObject_CallMethod(v, "right_stop", NULL) : NULL;
    int ok = r ? fraction_parts(l, &st.ln, &st.ld) : -1;
    int ok2 = ok >= 0 ? fraction_parts(r, &st.rn, &st.rd) : -1;
    Py_XDECREF(l);
    Py_XDECREF(r);
    if (ok < 0 || ok2 < 0) return NULL;
    st.exact = ok && ok2;
    if (stops_put(c, v, st) < 0) return NULL;
    return stops_known(c, v);
}

/* Record the stops of v = {lefts | rights} (addresses, n[0] + n[1] of them, their stops
 * known) without asking Python: a number is its own stops; else L(v) is the largest right
 * stop of a Left option and R(v) the smallest left stop of a Right option (Siegel CGT,
 * II.3: stops are the same for every form of a value). 0, or -1 (exception set). */
static int value_stops(Compare *c, PyObject *v, const uintptr_t *options, const size_t *n) {
    if (stops_known(c, v)) return 0;
    PyObject *x = PyObject_GetAttrString(v, "number_value");
    if (!x) return -1;
    Stops st = {0, 0, 1, 0, 1};
    if (x != Py_None) {
        int ok = fraction_parts(x, &st.ln, &st.ld);
        Py_DECREF(x);
        if (ok < 0) return -1;
        st.exact = ok;
        st.rn = st.ln;
        st.rd = st.ld;
        return stops_put(c, v, st);
    }
    Py_DECREF(x);
    if (!n[0] || !n[1]) return 0; /* (never so for a non-number: left to stops_of) */
    st.exact = 1;
    for (size_t o = 0; o < n[0] + n[1] && st.exact; o++) {
        const Stops *so = stops_known(c, (PyObject *)options[o]);
        if (!so || !so->exact) { st.exact = 0; break; }
        if (o < n[0]) { /* L(v) = max R(v^L) */
            if (o == 0 || cmp_q(so->rn, so->rd, st.ln, st.ld) > 0) { st.ln = so->rn; st.ld = so->rd; }
        } else if (o == n[0] || cmp_q(so->ln, so->ld, st.rn, st.rd) < 0) { /* R(v) = min L(v^R) */
            st.rn = so->ln;
            st.rd = so->ld;
        }
    }
    return st.exact ? stops_put(c, v, st) : 0; /* (inexact: stops_of asks v) */
}

/* o >= g: 1, 0, or -1 with a Python exception set */
static int greater_eq(Compare *c, PyObject *o, PyObject *g) {
    const Stops *so = stops_of(c, o);
    if (!so) return -1;
    Stops st_o = *so; /* (stops_of(g) may move the array) */
    const Stops *sg = stops_of(c, g);
    if (!sg) return -1;
    if (st_o.exact && sg->exact) {
        if (cmp_q(st_o.ln, st_o.ld, sg->ln, sg->ld) < 0 || cmp_q(st_o.rn, st_o.rd, sg->rn, sg->rd) < 0)
            return 0;
        if (cmp_q(st_o.rn, st_o.rd, sg->ln, sg->ld) > 0) return 1;
    }
    Entry *e = map_find(&c->ge, (uintptr_t)o, (uintptr_t)g);
    if (e->a) return (int)e->payload;
    int r = PyObject_RichCompareBool(o, g, Py_GE);
    if (r < 0) return -1;
    if (map_put(&c->ge, e, (uintptr_t)o, (uintptr_t)g, r) < 0) { PyErr_NoMemory(); return -1; }
    return r;
}

/* keep the options of one side no other one dominates (left: o >= g; right: o <= g), in
 * address order. Options are met best stops first (Left's by larger stops, Right's by
 * smaller), so a dominating option is usually met before those it dominates, and an
 * option found dominated is no longer compared with (what dominates it dominates all it
 * does, and is itself kept or dominated by a kept one). */
static int undominated(Compare *c, const uintptr_t *in, size_t n, int left, uintptr_t *out,
                       size_t *kept) {
    unsigned char dead[64] = {0};
    size_t order[64];
    Stops st[64]; /* (copies: a later stops_of may move the table) */
    for (size_t i = 0; i < n; i++) {
        const Stops *found = stops_of(c, (PyObject *)in[i]);
        if (!found) return -1;
        st[i] = *found;
        order[i] = i;
    }
    for (size_t i = 1; i < n; i++) { /* insertion sort by stops, when all are exact */
        size_t x = order[i], j = i;
        while (j && st[x].exact && st[order[j - 1]].exact) {
            const Stops *a = &st[order[j - 1]], *b = &st[x];
            int by = cmp_q(a->ln, a->ld, b->ln, b->ld);
            if (!by) by = cmp_q(a->rn, a->rd, b->rn, b->rd);
            if (left ? by >= 0 : by <= 0) break; /* (order[j - 1] first already) */
            order[j] = order[j - 1];
            j--;
        }
        order[j] = x;
    }
    *kept = 0;
    for (size_t a = 0; a < n; a++) {
        size_t i = order[a];
        int dominated = 0;
        for (size_t b = 0; b < n && !dominated; b++) {
            size_t j = order[b];
            if (j == i || dead[j]) continue;
            PyObject *o = (PyObject *)in[j], *g = (PyObject *)in[i];
            dominated = left ? greater_eq(c, o, g) : greater_eq(c, g, o);
            if (dominated < 0) return -1;
        }
        if (dominated) dead[i] = 1;
    }
    for (size_t i = 0; i < n; i++)
        if (!dead[i]) out[(*kept)++] = in[i];
    return 0;
}

#define CHUNK 256

/* game(lefts, rights) on a key's two sides (sizes in n) */
static PyObject *call_game(PyObject *game, const uintptr_t *key, const size_t *n) {
    PyObject *sides[2] = {PyList_New((Py_ssize_t)n[0]), PyList_New((Py_ssize_t)n[1])};
    PyObject *value = NULL;
    if (sides[0] && sides[1]) {
        for (size_t o = 0; o < n[0] + n[1]; o++) {
            PyObject *v = (PyObject *)key[2 + o];
            Py_INCREF(v);
            if (o < n[0]) PyList_SET_ITEM(sides[0], (Py_ssize_t)o, v);
            else PyList_SET_ITEM(sides[1], (Py_ssize_t)(o - n[0]), v);
        }
        value = PyObject_CallFunctionObjArgs(game, sides[0], sides[1], NULL);
    }
    Py_XDECREF(sides[0]);
    Py_XDECREF(sides[1]);
    return value;
}

/* the free slot for a key known to be absent (after another put may have grown the table) */
static size_t memo_slot(const Memo *m, const uintptr_t *key, size_t n) {
    size_t slot = 0;
    memo_get(m, key, n, &slot);
    return slot;
}

static PyObject *valuate(Search *z, const int *order, PyObject *game, PyObject *zero,
                         PyObject *charge) {
    int count = z->count;
    int *position = malloc((size_t)count * sizeof(int));
    PyObject **val = calloc((size_t)count, sizeof(PyObject *));
    PyObject **neg = calloc((size_t)count, sizeof(PyObject *));
    /* the tables start small (they grow): a small DAG does not pay for clearing big ones */
    size_t size = 64;
    while (size < 2 * (size_t)count && size < 2048) size *= 2;
    Memo memo = {0};
    memo.alloc = (int)size / 2;
    memo.words_alloc = 4 * size;
    memo.mask = size - 1;
    memo.words = malloc(memo.words_alloc * sizeof(uintptr_t));
    memo.start = malloc(memo.alloc * sizeof(size_t));
    memo.value = malloc(memo.alloc * sizeof(PyObject *));
    memo.slots = calloc(memo.mask + 1, sizeof(int));
    Compare cmp = {{0}};
    cmp.stops_at.mask = size / 2 - 1;
    cmp.stops_at.slots = calloc(size / 2, sizeof(Entry));
    cmp.ge.mask = size - 1;
    cmp.ge.slots = calloc(size, sizeof(Entry));
    cmp.stops_alloc = size / 2;
    cmp.stops = malloc(cmp.stops_alloc * sizeof(Stops));
    PyObject *keys = PyList_New(0), *values = PyList_New(0), *result = NULL;
    uintptr_t key[2 + 2 * 64], pruned[2 + 2 * 64];
    if (!position || !val || !neg || !memo.words || !memo.start || !memo.value || !memo.slots
        || !cmp.stops_at.slots || !cmp.ge.slots || !cmp.stops) {
        PyErr_NoMemory();
        goto fail;
    }
    if (!keys || !values) goto fail;
    for (int m = 0; m < count; m++) position[order[m]] = m;
    Stops zero_stops = {1, 0, 1, 0, 1};
    if (stops_put(&cmp, zero, zero_stops) < 0) goto fail;
    for (int m = 0; m < count; m++) {
        int k = order[m];
        size_t sizes[2];
        for (int side = 0; side < 2; side++) {
            int n = side ? z->nright[k] : z->nleft[k];
            int first = z->opt_start[k] + (side ? z->nleft[k] : 0);
            uintptr_t *out = key + 2 + (side ? sizes[0] : 0);
            if (n > 64) { PyErr_SetString(PyExc_RuntimeError, "too many options"); goto fail; }
            for (int o = 0; o < n; o++) {
                int code = z->opts[first + o];
                PyObject *v;
                if (code < 0) v = zero;
                else {
                    int j = position[code >> 1];
                    v = val[j];
                    if (code & 1) {
                        if (!neg[j]) {
                            if (!(neg[j] = PyNumber_Negative(val[j]))) goto fail;
                            /* L(-v) = -R(v), R(-v) = -L(v): no Python asked for its stops */
                            const Stops *sv = stops_known(&cmp, val[j]);
                            if (sv) {
                                Stops st = {sv->exact, -sv->rn, sv->rd, -sv->ln, sv->ld};
                                if (stops_put(&cmp, neg[j], st) < 0) goto fail;
                            }
                        }
                        v = neg[j];
                    }
                }
                out[o] = (uintptr_t)v;
            }
            sizes[side] = (size_t)n;
            sort_unique(out, &sizes[side]);
        }
        /* key: the two sizes, then each side's option values' addresses, sorted, no repeats */
        key[0] = sizes[0];
        key[1] = sizes[1];
        size_t total = 2 + sizes[0] + sizes[1], slot = 0;
        PyObject *value = memo_get(&memo, key, total, &slot);
        if (value) Py_INCREF(value);
        else {
            /* a new option set: drop dominated options, then the memo or game() */
            size_t kept[2];
            if (undominated(&cmp, key + 2, sizes[0], 1, pruned + 2, &kept[0]) < 0) goto fail;
            if (undominated(&cmp, key + 2 + sizes[0], sizes[1], 0, pruned + 2 + kept[0],
                            &kept[1]) < 0)
                goto fail;
            pruned[0] = kept[0];
            pruned[1] = kept[1];
            size_t pruned_total = 2 + kept[0] + kept[1], pruned_slot = 0;
            value = pruned_total < total ? memo_get(&memo, pruned, pruned_total, &pruned_slot)
                                         : NULL;
            if (value) Py_INCREF(value);
            else {
                value = call_game(game, pruned, kept);
                if (!value) goto fail;
                if (pruned_total < total
                    && memo_put(&memo, pruned, pruned_total, pruned_slot, value) < 0) {
                    Py_DECREF(value);
                    PyErr_NoMemory();
                    goto fail;
                }
            }
            if (pruned_total < total) slot = memo_slot(&memo, key, total); /* (moved?) */
            if (memo_put(&memo, key, total, slot, value) < 0) {
                Py_DECREF(value);
                PyErr_NoMemory();
                goto fail;
            }
        }
        if (value_stops(&cmp, value, key + 2, sizes) < 0) {
            Py_DECREF(value);
            goto fail;
        }
        val[m] = value; /* (owned here) */
        if ((m + 1) % CHUNK == 0 || m + 1 == count) {
            int n = (m + 1) % CHUNK ? (m + 1) % CHUNK : CHUNK;
            PyObject *done = PyObject_CallFunction(charge, "i", n);
            if (!done) goto fail;
            Py_DECREF(done);
        }
    }
    /* hand back the root and its options (what a solve asks for next), not every key */
    for (int o = -1; o < z->nleft[0] + z->nright[0]; o++) {
        int code = o < 0 ? 0 : z->opts[z->opt_start[0] + o];
        if (code < 0) continue; /* (an option without moves: 0) */
        int m = position[code >> 1];
        PyObject *board = to_nibbles(z->key[code >> 1], z->n);
        int bad = !board || PyList_Append(keys, board) < 0 || PyList_Append(values, val[m]) < 0;
        Py_XDECREF(board);
        if (bad) goto fail;
    }
    result = PyTuple_Pack(2, keys, values);
fail:
    if (val) for (int m = 0; m < count; m++) Py_XDECREF(val[m]);
    if (neg) for (int m = 0; m < count; m++) Py_XDECREF(neg[m]);
    free(position); free(val); free(neg);
    free(memo.words); free(memo.start); free(memo.value); free(memo.slots);
    free(cmp.stops_at.slots); free(cmp.ge.slots); free(cmp.stops);
    Py_XDECREF(keys);
    Py_XDECREF(values);
    return result;
}

static PyObject *values(PyObject *self, PyObject *args) {
    int rule, h, w, cap, *order;
    PyObject *board, *perms, *game, *zero, *charge, *result = NULL;
    if (!PyArg_ParseTuple(args, "iiiOOiOOO", &rule, &h, &w, &board, &perms, &cap, &game, &zero,
                          &charge))
        return NULL;
    Search z;
    int rc = prepare(&z, rule, h, w, board, perms, cap, charge, &order);
    if (rc == 0) result = valuate(&z, order, game, zero, charge);
    else if (rc == 1) { result = Py_None; Py_INCREF(result); }
    free(order);
    release(&z);
    return result;
}

/* ---- fold: a board's key, the least of its images (nibbles.least_image and
 * signed_least_image, for boards of letters) --------------------------------------------
 * A solve folds every component it meets (the root and its options' parts): in C, the
 * string work of the Python twins (hex digits, images, transposes, min, int) is skipped. */

/* image k of an h x w board written into out: out[cell of the image] (see image_cell) */
static void board_image(const unsigned char *cells, int h, int w, int k, unsigned char *out) {
    for (int r = 0; r < h; r++)
        for (int c = 0; c < w; c++) out[image_cell(h, w, k, r, c)] = cells[r * w + c];
}

/* a < b as nibble ints of n cells (the last cell is the highest digit) */
static int cells_less(const unsigned char *a, const unsigned char *b, int n) {
    for (int i = n - 1; i >= 0; i--)
        if (a[i] != b[i]) return a[i] < b[i];
    return 0;
}

/* the least image among images first..last-1 into best */
static void least_of(const unsigned char *cells, int h, int w, int first, int last,
                     unsigned char *best) {
    unsigned char image[64];
    int n = h * w;
    board_image(cells, h, w, first, best);
    for (int k = first + 1; k < last; k++) {
        board_image(cells, h, w, k, image);
        if (cells_less(image, best, n)) memcpy(best, image, (size_t)n);
    }
}

static PyObject *fold(PyObject *self, PyObject *args) {
    int h, w, negates;
    const char *text;
    Py_ssize_t len;
    if (!PyArg_ParseTuple(args, "iis#p", &h, &w, &text, &len, &negates)) return NULL;
    int n = h * w;
    if (h < 1 || w < 1 || n > 64 || len != n) Py_RETURN_NONE; /* (the Python twin decides) */
    unsigned char cells[64], own[64], other[64];
    for (int i = 0; i < n; i++) {
        char ch = text[i];
        cells[i] = ch == '#' ? 0 : ch == '.' ? 1 : ch == 'x' ? 2 : ch == 'o' ? 4 : 8;
        if (cells[i] == 8) Py_RETURN_NONE;
    }
    /* keys compare by height first: of a board and its transpose the flatter one is the key
     * (both on a square); with ``negates`` the transpose stands for minus the value */
    int use_own = h <= w, use_other = h >= w;
    if (use_own) least_of(cells, h, w, 0, 4, own);
    if (use_other) least_of(cells, h, w, 4, 8, other);
    const unsigned char *best = use_own ? own : other;
    if (use_own && use_other && cells_less(other, own, n)) best = other;
    int flip = negates && best == other;
    char digits[65];
    for (int i = 0; i < n; i++) digits[i] = (char)('0' + best[n - 1 - i]);
    digits[n] = 0;
    PyObject *board = PyLong_FromString(digits, NULL, 16);
    if (!board) return NULL;
    int th = best == own ? h : w, tw = best == own ? w : h;
    return flip ? Py_BuildValue("(iiNi)", th, tw, board, -1)
                : Py_BuildValue("(iiN)", th, tw, board);
}

static PyMethodDef methods[] = {
    {"search", search, METH_VARARGS,
     "search(rule, h, w, board, perms, cap) -> (keys, lefts, rights) or None: the key DAG "
     "of a Fission (rule 0) or Konane (rule 1) board in post-order (see the module source)."},
    {"values", values, METH_VARARGS,
     "values(rule, h, w, board, perms, cap, game, zero, charge) -> (keys, values) or None: "
     "the values of the board and of its options' keys, game(lefts, rights) called once per "
     "new option set, charge(n) after every n keys valued (see the module source)."},
    {"fold", fold, METH_VARARGS,
     "fold(h, w, cells, negates) -> the key of an h x w board of letters (# . x o): "
     "nibbles.least_image of its nibble board, or with negates signed_least_image; None "
     "past 64 cells or for another letter."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_k_planes", "The key searches of Fission and Konane in C (nibbles.py).",
    -1, methods,
};

/* Raised whenever what nibbles.py calls here changes: a stale build is then not loaded. */
#define API_VERSION 3

PyMODINIT_FUNC PyInit__k_planes(void) {
    PyObject *m = PyModule_Create(&module);
    if (m && (PyModule_AddIntConstant(m, "API_VERSION", API_VERSION) < 0
              || PyModule_AddIntConstant(m, "FISSION", FISSION) < 0
              || PyModule_AddIntConstant(m, "KONANE", KONANE) < 0))
        Py_CLEAR(m);
    return m;
}
