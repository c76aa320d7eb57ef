/* Compiled kernel for the canonical-form algebra of cgframework.values.canonical:
 * comparison (ge) and canonicalisation (deleting dominated options, bypassing
 * reversible ones) on a MIRROR of the Python intern table.
 *
 * Every CanonicalGame registers here when it is created: its id, its option ids, its stops
 * and, for an uptimal x + n.^ + *m, its (n, m) (x is then its stop). Only what is exact in C
 * is modelled: stops that are Python floats (canonical.py stores a stop as a float exactly
 * when the float is exact), n and m within +-2^62, ids below 2^31. Everything else (a stop
 * that is a Fraction, a payload too big, a lazy uptimal whose options are not listed) is
 * unknown here, and any call that meets it returns None: the Python path (the reference)
 * answers instead. The algorithms are those of canonical.py, line for line (Siegel CGT II.1,
 * II.3, II.4); the Python functions stay the reference in the tests.
 *
 * New forms are made here too, as canonical.py makes them (the same slots and table
 * entries): general forms, and small numbers and uptimals (numbers_game, uptimal_of): a
 * solve's first canonical forms cost no Python.
 *
 * Recursion is bounded by DEPTH_LIMIT (past it: None, and the Python path runs); memory
 * failures raise MemoryError; the comparison memo simply stops growing if it cannot.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define F_KNOWN 1 /* stops are exact doubles */
#define F_OPTS 2  /* option ids are listed */
#define F_UP 4    /* an uptimal: x = the stop, and n, m */

#define DEPTH_LIMIT 1000
#define ID_LIMIT 0x7fffffffL
#define PAYLOAD_LIMIT ((int64_t)1 << 62)

/* results of the recursive functions */
#define R_FALSE 0
#define R_TRUE 1
#define R_UNKNOWN (-1) /* something not modelled, or too deep: the Python path decides */
#define R_NOMEM (-2)
#define R_ERROR (-3) /* a Python exception is set */

/* Long work in C holds the GIL and runs no bytecode, so neither a deadline (run_deep raises
 * an exception asynchronously in the search thread, delivered at its next bytecode) nor
 * Ctrl-C could stop it: a sum of two big Snort values is one add() call of minutes. Every
 * TICK_EVERY new forms the kernel calls canonical.py's _tick (a Python no-op): the
 * interpreter then delivers a pending exception (the call fails: R_ERROR, unwound to the
 * caller) and lets waiting threads take the GIL. */
#define TICK_EVERY 256
static PyObject *py_tick = NULL;
static unsigned tick_count = 0;

static int tick(void) {
    if (++tick_count % TICK_EVERY || !py_tick) return 0;
    PyObject *r = PyObject_CallNoArgs(py_tick);
    if (!r) return R_ERROR;
    Py_DECREF(r);
    return 0;
}

typedef struct {
    int32_t *opts; /* nl Left option ids, then nr Right option ids (NULL when none/unknown) */
    int32_t nl, nr;
    double ls, rs;
    int64_t n, m;
    uint8_t flags;
} Node;

static Node *table = NULL;
static Py_ssize_t table_len = 0;
static PyObject *by_id = NULL; /* canonical.py's _by_id list: id -> CanonicalGame */
/* canonical.py's functions the kernel hands work back to (see init()) */
static PyObject *py_intern = NULL, *py_game_sorted = NULL, *py_game = NULL;
static PyObject *py_add = NULL, *py_negate = NULL; /* for uptimals: arithmetic on the payload */
static PyObject *interned = NULL; /* canonical.py's _interned dict: option ids -> game */
static PyTypeObject *game_type = NULL;
static Py_ssize_t id_offset = -1; /* where the `id` slot sits in a CanonicalGame, if known */
/* CanonicalGame's slots, to make a general form here as canonical.py's _intern does */
enum { S_ID, S_LEFT, S_RIGHT, S_NUMBER, S_NIM, S_KEY, S_LS, S_RS, S_UP, S_COUNT };
static const char *slot_names[S_COUNT] = {"id",   "left", "right", "number_value", "nim_value",
                                          "_key", "_ls",  "_rs",   "_up"};
static Py_ssize_t slot_offsets[S_COUNT];
static int can_make = 0; /* every slot offset is known */

/* For numbers and x* made here (see numbers_game): canonical.py's _uptimals dict, the Fraction
 * type and the offsets of its two slots (when they are plain slots: else Fraction() is called). */
static PyObject *uptimals = NULL;
static PyTypeObject *fraction_type = NULL;
static Py_ssize_t fraction_offsets[2] = {-1, -1};

static Node *known(int32_t id) {
    if (id < 0 || id >= table_len) return NULL;
    Node *g = &table[id];
    return (g->flags & F_KNOWN) ? g : NULL;
}

/* ---- memos on id pairs (ge, add, negate): open addressing ---------------------------------- */
static size_t mix(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return (size_t)k;
}

typedef struct {
    uint64_t *keys; /* 0 = empty; else ((a << 32) | b) + 1 */
    int32_t *vals;
    size_t cap, len;
} PairMap;

static PairMap ge_memo = {0}, add_memo = {0}, neg_memo = {0};
static PairMap numbers = {0}; /* a number's stop (its double's bits + 1) -> its id */
static Py_ssize_t uptimals_made = 0; /* numbers and uptimals made here (info()) */

static int32_t pairmap_get(const PairMap *m, uint64_t key) {
    if (m->cap == 0) return -1;
    size_t i = mix(key) & (m->cap - 1);
    while (m->keys[i]) {
        if (m->keys[i] == key) return m->vals[i];
        i = (i + 1) & (m->cap - 1);
    }
    return -1;
}

static void pairmap_insert(PairMap *m, uint64_t key, int32_t value) {
    size_t i = mix(key) & (m->cap - 1);
    while (m->keys[i] && m->keys[i] != key) i = (i + 1) & (m->cap - 1);
    if (!m->keys[i]) m->len++;
    m->keys[i] = key;
    m->vals[i] = value;
}

/* A cache: when it cannot grow, it stops growing. */
static void pairmap_put(PairMap *m, uint64_t key, int32_t value) {
    if (2 * (m->len + 1) > m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 1 << 8;
        PairMap bigger = {calloc(cap, sizeof(uint64_t)), malloc(cap * sizeof(int32_t)), cap, 0};
        if (!bigger.keys || !bigger.vals) {
            free(bigger.keys);
            free(bigger.vals);
            if (m->len + 1 >= m->cap) return;
        } else {
            for (size_t i = 0; i < m->cap; i++)
                if (m->keys[i]) pairmap_insert(&bigger, m->keys[i], m->vals[i]);
            free(m->keys);
            free(m->vals);
            *m = bigger;
        }
    }
    pairmap_insert(m, key, value);
}

static uint64_t pair_key(int32_t a, int32_t b) { return (((uint64_t)a << 32) | (uint64_t)b) + 1; }

/* The key of a number in `numbers`: its stop's bits, + 1 (0 marks an empty slot). */
static uint64_t number_key(double x) {
    uint64_t bits;
    x += 0.0; /* -0.0 is 0.0 */
    memcpy(&bits, &x, sizeof bits);
    return bits + 1;
}

/* ---- ge ------------------------------------------------------------------------------------ */

/* x + n.^ + *m >= x' + n'.^ + *m' by the sign of the difference (canonical.py _uptimal_sign). */
static int uptimal_ge(const Node *g, const Node *h) {
    if (g->ls != h->ls) return g->ls > h->ls;
    int64_t dn = g->n - h->n, dm = g->m ^ h->m;
    if (dn == 0) return dm == 0;
    if (dm == 1 && (dn == 1 || dn == -1)) return 0;
    return dn > 0;
}

/* G >= H iff no G^R <= H and no H^L >= G (canonical.py ge, with the same stop shortcuts). */
static int ge(int32_t gi, int32_t hi, int depth) {
    if (gi == hi) return R_TRUE;
    Node *g = known(gi), *h = known(hi);
    if (!g || !h) return R_UNKNOWN;
    if (g->ls < h->ls || g->rs < h->rs) return R_FALSE;
    if (g->rs > h->ls) return R_TRUE;
    uint64_t key = pair_key(gi, hi);
    int found = pairmap_get(&ge_memo, key);
    if (found >= 0) return found;
    int result;
    if ((g->flags & F_UP) && (h->flags & F_UP)) {
        result = uptimal_ge(g, h);
    } else {
        if (!(g->flags & F_OPTS) || !(h->flags & F_OPTS) || depth >= DEPTH_LIMIT)
            return R_UNKNOWN;
        result = R_TRUE;
        for (int32_t i = 0; i < g->nr && result; i++) {
            int r = ge(hi, g->opts[g->nl + i], depth + 1);
            if (r < 0) return r;
            if (r) result = R_FALSE;
        }
        for (int32_t i = 0; i < h->nl && result; i++) {
            int r = ge(h->opts[i], gi, depth + 1);
            if (r < 0) return r;
            if (r) result = R_FALSE;
        }
    }
    pairmap_put(&ge_memo, key, result);
    return result;
}

/* ---- canonicalise ---------------------------------------------------------------------------- */
typedef struct {
    int32_t *a;
    Py_ssize_t n, cap;
} Vec;

static int vec_push(Vec *v, int32_t x) {
    if (v->n == v->cap) {
        Py_ssize_t cap = v->cap ? 2 * v->cap : 16;
        int32_t *a = realloc(v->a, (size_t)cap * sizeof *a);
        if (!a) return R_NOMEM;
        v->a = a;
        v->cap = cap;
    }
    v->a[v->n++] = x;
    return 0;
}

static int cmp_id(const void *x, const void *y) {
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    return (a > b) - (a < b);
}

static void sort_unique(Vec *v) {
    if (v->n < 2) return;
    qsort(v->a, (size_t)v->n, sizeof *v->a, cmp_id);
    Py_ssize_t k = 1;
    for (Py_ssize_t i = 1; i < v->n; i++)
        if (v->a[i] != v->a[k - 1]) v->a[k++] = v->a[i];
    v->n = k;
}

typedef struct {
    const Vec *ls, *rs;
} Raw; /* the not-yet-canonical G = {ls | rs} */

static int ge_raw(int32_t xi, const Raw *G, int depth);

/* x <= G: no G^R <= x and no x^L >= G (canonical.py _le_raw). */
static int le_raw(int32_t xi, const Raw *G, int depth) {
    Node *x = known(xi);
    if (!x || !(x->flags & F_OPTS) || depth >= DEPTH_LIMIT) return R_UNKNOWN;
    for (Py_ssize_t i = 0; i < G->rs->n; i++) {
        int r = ge(xi, G->rs->a[i], 0);
        if (r) return r > 0 ? R_FALSE : r;
    }
    for (int32_t i = 0; i < x->nl; i++) {
        int r = ge_raw(x->opts[i], G, depth + 1);
        if (r) return r > 0 ? R_FALSE : r;
    }
    return R_TRUE;
}

/* x >= G: no G^L >= x and no x^R <= G (canonical.py _ge_raw). */
static int ge_raw(int32_t xi, const Raw *G, int depth) {
    Node *x = known(xi);
    if (!x || !(x->flags & F_OPTS) || depth >= DEPTH_LIMIT) return R_UNKNOWN;
    for (Py_ssize_t i = 0; i < G->ls->n; i++) {
        int r = ge(G->ls->a[i], xi, 0);
        if (r) return r > 0 ? R_FALSE : r;
    }
    for (int32_t i = 0; i < x->nr; i++) {
        int r = le_raw(x->opts[x->nl + i], G, depth + 1);
        if (r) return r > 0 ? R_FALSE : r;
    }
    return R_TRUE;
}

/* Keep the options no other one dominates (Left: G^L1 <= G^L2 removes G^L1; Right: the
 * mirror), into out (canonical.py _maximal / _minimal, with the same stops pre-filter). */
static int undominated(const Vec *in, Vec *out, int left) {
    out->n = 0;
    for (Py_ssize_t i = 0; i < in->n; i++) {
        int32_t gi = in->a[i];
        Node *g = known(gi);
        if (!g) return R_UNKNOWN;
        int dominated = 0;
        for (Py_ssize_t j = 0; j < in->n && !dominated && in->n > 1; j++) {
            int32_t hi = in->a[j];
            Node *h = known(hi);
            if (!h) return R_UNKNOWN;
            if (hi == gi) continue;
            int r;
            if (left) {
                if (!(h->ls >= g->ls && h->rs >= g->rs)) continue;
                r = ge(hi, gi, 0);
            } else {
                if (!(h->ls <= g->ls && h->rs <= g->rs)) continue;
                r = ge(gi, hi, 0);
            }
            if (r < 0) return r;
            dominated = r;
        }
        if (!dominated && vec_push(out, gi)) return R_NOMEM;
    }
    return 0;
}

/* One side's options into out, each reversible one replaced (canonical.py _canonicalise):
 * Left: G^L is reversible through G^LR if G^LR <= G, and is replaced by G^LR's Left
 * options; Right: the mirror image (G^RL >= G, replaced by G^RL's Right options). */
static int bypass_reversible(const Vec *side, const Raw *G, int left, Vec *out, int *changed) {
    for (Py_ssize_t i = 0; i < side->n; i++) {
        Node *g = known(side->a[i]);
        if (!g || !(g->flags & F_OPTS)) return R_UNKNOWN;
        int32_t first = left ? g->nl : 0, count = left ? g->nr : g->nl;
        int reversed = 0;
        for (int32_t j = 0; j < count && !reversed; j++) {
            int32_t xi = g->opts[first + j];
            int s = left ? le_raw(xi, G, 0) : ge_raw(xi, G, 0);
            if (s < 0) return s;
            if (s) {
                Node *x = known(xi); /* known: le_raw / ge_raw checked it */
                int32_t from = left ? 0 : x->nl, n = left ? x->nl : x->nr;
                for (int32_t k = 0; k < n; k++)
                    if (vec_push(out, x->opts[from + k])) return R_NOMEM;
                reversed = *changed = 1;
            }
        }
        if (!reversed && vec_push(out, side->a[i])) return R_NOMEM;
    }
    return 0;
}

/* Options of G = {ls | rs} (each sorted by id, no repeats), canonical on return. */
static int canonicalise(Vec *ls, Vec *rs, Vec *tmp) {
    Vec t;
    for (;;) {
        int r = undominated(ls, tmp, 1);
        if (r) return r;
        t = *ls, *ls = *tmp, *tmp = t;
        r = undominated(rs, tmp, 0);
        if (r) return r;
        t = *rs, *rs = *tmp, *tmp = t;
        Raw G = {ls, rs};
        int changed = 0;
        Vec new_ls = {0}, new_rs = {0};
        r = bypass_reversible(ls, &G, 1, &new_ls, &changed);
        if (r >= 0) r = bypass_reversible(rs, &G, 0, &new_rs, &changed);
        if (r < 0 || !changed) {
            free(new_ls.a);
            free(new_rs.a);
            return r < 0 ? r : 0;
        }
        sort_unique(&new_ls);
        sort_unique(&new_rs);
        free(ls->a);
        free(rs->a);
        *ls = new_ls;
        *rs = new_rs;
    }
}


/* ---- game(): a memo from option id sets to results -------------------------------------------
 * Keys are (sorted Left ids, sorted Right ids): the option sets game() was given, and the
 * canonical option sets of every registered game (game() of those is that game). */
typedef struct {
    uint64_t hash;
    int32_t *key; /* nl, nr, then the ids; NULL = empty slot */
    int32_t value;
} GEntry;

static GEntry *gmemo = NULL;
static size_t gmemo_cap = 0, gmemo_len = 0;

static uint64_t key_hash(const Vec *l, const Vec *r) {
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)l->n;
    for (Py_ssize_t i = 0; i < l->n; i++) h = (h ^ (uint32_t)l->a[i]) * 0x100000001b3ULL;
    h = (h ^ 0xffffffffULL) * 0x100000001b3ULL; /* the side separator */
    for (Py_ssize_t i = 0; i < r->n; i++) h = (h ^ (uint32_t)r->a[i]) * 0x100000001b3ULL;
    return (uint64_t)mix(h);
}

static int key_equal(const int32_t *key, const Vec *l, const Vec *r) {
    return key[0] == l->n && key[1] == r->n &&
           !memcmp(key + 2, l->a, (size_t)l->n * sizeof(int32_t)) &&
           !memcmp(key + 2 + l->n, r->a, (size_t)r->n * sizeof(int32_t));
}

static int32_t gmemo_get(uint64_t h, const Vec *l, const Vec *r) {
    if (gmemo_cap == 0) return -1;
    size_t i = h & (gmemo_cap - 1);
    while (gmemo[i].key) {
        if (gmemo[i].hash == h && key_equal(gmemo[i].key, l, r)) return gmemo[i].value;
        i = (i + 1) & (gmemo_cap - 1);
    }
    return -1;
}

static void gmemo_place(GEntry e) {
    size_t i = e.hash & (gmemo_cap - 1);
    while (gmemo[i].key) i = (i + 1) & (gmemo_cap - 1);
    gmemo[i] = e;
    gmemo_len++;
}

/* Remember game(l, r) = value (a cache: when memory runs out it stops growing). */
static void gmemo_put(uint64_t h, const Vec *l, const Vec *r, int32_t value) {
    if (gmemo_get(h, l, r) >= 0) return;
    if (2 * (gmemo_len + 1) > gmemo_cap) {
        size_t cap = gmemo_cap ? 2 * gmemo_cap : 1 << 12;
        GEntry *t = calloc(cap, sizeof *t);
        if (!t) return;
        GEntry *old = gmemo;
        size_t old_cap = gmemo_cap;
        gmemo = t;
        gmemo_cap = cap;
        gmemo_len = 0;
        for (size_t i = 0; i < old_cap; i++)
            if (old[i].key) gmemo_place(old[i]);
        free(old);
    }
    int32_t *key = malloc((size_t)(2 + l->n + r->n) * sizeof *key);
    if (!key) return;
    key[0] = (int32_t)l->n;
    key[1] = (int32_t)r->n;
    memcpy(key + 2, l->a, (size_t)l->n * sizeof *key);
    memcpy(key + 2 + l->n, r->a, (size_t)r->n * sizeof *key);
    GEntry e = {h, key, value};
    gmemo_place(e);
}

/* ---- the Python interface ------------------------------------------------------------------ */

/* ids (a tuple or list of ints) into v; 0, or -1 when one is not a small id (v->n = -1) */
static int read_ids(PyObject *seq, Vec *v) {
    PyObject *fast = PySequence_Fast(seq, "option ids must be a sequence");
    if (!fast) return -2;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    PyObject **items = PySequence_Fast_ITEMS(fast);
    int status = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        long id = PyLong_AsLong(items[i]);
        if (id == -1 && PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_OverflowError)) {
                status = -2;
                break;
            }
            PyErr_Clear();
            status = -1;
            break;
        }
        if (id < 0 || id > ID_LIMIT) {
            status = -1;
            break;
        }
        if (vec_push(v, (int32_t)id)) {
            PyErr_NoMemory();
            status = -2;
            break;
        }
    }
    Py_DECREF(fast);
    return status;
}

static int grow_table(Py_ssize_t id) {
    if (id < table_len) return 0;
    Py_ssize_t cap = table_len ? table_len : 1024;
    while (cap <= id) cap *= 2;
    Node *t = realloc(table, (size_t)cap * sizeof *t);
    if (!t) {
        PyErr_NoMemory();
        return -1;
    }
    memset(t + table_len, 0, (size_t)(cap - table_len) * sizeof *t);
    table = t;
    table_len = cap;
    return 0;
}

static int read_payload(PyObject *o, int64_t *out) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) return -2;
    if (overflow || v >= PAYLOAD_LIMIT || v <= -PAYLOAD_LIMIT) return -1;
    *out = (int64_t)v;
    return 0;
}

/* The option ids of modelled game `id` (F_OPTS, and an entry of the game() memo): 0; -1 when
 * an id is not modelled (nothing is set); -2 when a Python error is set. */
static int set_options(Py_ssize_t id, PyObject *lids, PyObject *rids) {
    Vec v = {0};
    int a = read_ids(lids, &v);
    Py_ssize_t nl = v.n;
    int b = a ? 0 : read_ids(rids, &v);
    if (a || b) {
        free(v.a);
        return a == -2 || b == -2 ? -2 : -1;
    }
    Node *g = &table[id]; /* read_ids runs no Python code: the table has not moved */
    g->opts = v.a;
    g->nl = (int32_t)nl;
    g->nr = (int32_t)(v.n - nl);
    g->flags |= F_OPTS;
    Vec l = {g->opts, g->nl, g->nl}, r = {g->opts + g->nl, g->nr, g->nr};
    gmemo_put(key_hash(&l, &r), &l, &r, (int32_t)id);
    return 0;
}

PyDoc_STRVAR(register_doc,
             "register(id, left_ids, right_ids, left_stop, right_stop, n, m)\n"
             "Mirror a new CanonicalGame: option ids (tuples, or None when not listed), stops\n"
             "(modelled when floats), and n, m of an uptimal x + n.^ + *m (else None).");

static PyObject *k_register(PyObject *self, PyObject *args) {
    Py_ssize_t id;
    PyObject *lids, *rids, *ls, *rs, *n, *m;
    if (!PyArg_ParseTuple(args, "nOOOOOO", &id, &lids, &rids, &ls, &rs, &n, &m)) return NULL;
    if (id < 0 || id > ID_LIMIT) Py_RETURN_NONE; /* never modelled: stays unknown */
    if (grow_table(id)) return NULL;
    Node *g = &table[id];
    free(g->opts);
    memset(g, 0, sizeof *g);
    if (!PyFloat_CheckExact(ls) || !PyFloat_CheckExact(rs)) Py_RETURN_NONE;
    g->ls = PyFloat_AS_DOUBLE(ls);
    g->rs = PyFloat_AS_DOUBLE(rs);
    uint8_t flags = F_KNOWN;
    if (n != Py_None) {
        int a = read_payload(n, &g->n), b = a ? 0 : read_payload(m, &g->m);
        if (a == -2 || b == -2) return NULL;
        if (a || b || g->m < 0) Py_RETURN_NONE; /* flags 0: unknown */
        flags |= F_UP;
        if (g->n == 0 && g->m == 0) pairmap_put(&numbers, number_key(g->ls), (int32_t)id);
    }
    g->flags = flags;
    if (lids != Py_None && rids != Py_None && set_options(id, lids, rids) == -2) return NULL;
    Py_RETURN_NONE;
}

PyDoc_STRVAR(register_options_doc,
             "register_options(id, left_ids, right_ids): the options of a registered lazy\n"
             "uptimal, listed when canonical.py builds them.");

static PyObject *k_register_options(PyObject *self, PyObject *args) {
    Py_ssize_t id;
    PyObject *lids, *rids;
    if (!PyArg_ParseTuple(args, "nOO", &id, &lids, &rids)) return NULL;
    Node *g = id >= 0 && id <= ID_LIMIT ? known((int32_t)id) : NULL;
    if (!g || (g->flags & F_OPTS)) Py_RETURN_NONE;
    if (set_options(id, lids, rids) == -2) return NULL;
    Py_RETURN_NONE;
}

PyDoc_STRVAR(ge_doc, "ge(g_id, h_id) -> G >= H, or None when the kernel does not model them.");

static PyObject *k_ge(PyObject *self, PyObject *args) {
    Py_ssize_t g, h;
    if (!PyArg_ParseTuple(args, "nn", &g, &h)) return NULL;
    if (g < 0 || h < 0 || g > ID_LIMIT || h > ID_LIMIT) Py_RETURN_NONE;
    int r = ge((int32_t)g, (int32_t)h, 0);
    if (r == R_NOMEM) return PyErr_NoMemory();
    if (r < 0) Py_RETURN_NONE;
    return PyBool_FromLong(r);
}

static int not_initialised(void) {
    if (by_id) return 0;
    PyErr_SetString(PyExc_RuntimeError, "_k_canonical.init() was not called");
    return 1;
}

static PyObject *games_of(const Vec *v) {
    for (Py_ssize_t i = 0; i < v->n; i++)
        if (v->a[i] >= PyList_GET_SIZE(by_id)) {
            PyErr_SetString(PyExc_RuntimeError, "_k_canonical: an id with no game");
            return NULL;
        }
    PyObject *t = PyTuple_New(v->n);
    if (!t) return NULL;
    for (Py_ssize_t i = 0; i < v->n; i++) {
        PyObject *g = PyList_GET_ITEM(by_id, v->a[i]);
        Py_INCREF(g);
        PyTuple_SET_ITEM(t, i, g);
    }
    return t;
}

PyDoc_STRVAR(canonicalise_doc,
             "canonicalise(left_ids, right_ids) -> (lefts, rights), the canonical options of\n"
             "{lefts | rights} as CanonicalGames sorted by id, or None when the kernel does not\n"
             "model every game it meets (then canonical.py's _canonicalise_py decides).");

static PyObject *k_canonicalise(PyObject *self, PyObject *args) {
    PyObject *lids, *rids, *result = NULL;
    if (!PyArg_ParseTuple(args, "OO", &lids, &rids)) return NULL;
    if (not_initialised()) return NULL;
    Vec ls = {0}, rs = {0}, tmp = {0};
    int a = read_ids(lids, &ls), b = a ? 0 : read_ids(rids, &rs);
    if (a == -2 || b == -2) goto done;
    if (a || b) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    sort_unique(&ls);
    sort_unique(&rs);
    int r = canonicalise(&ls, &rs, &tmp);
    if (r == R_NOMEM) {
        PyErr_NoMemory();
        goto done;
    }
    if (r < 0) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    Py_ssize_t size = PyList_GET_SIZE(by_id);
    for (Py_ssize_t i = 0; i < ls.n; i++)
        if (ls.a[i] >= size) {
            result = Py_NewRef(Py_None);
            goto done;
        }
    for (Py_ssize_t i = 0; i < rs.n; i++)
        if (rs.a[i] >= size) {
            result = Py_NewRef(Py_None);
            goto done;
        }
    PyObject *lt = games_of(&ls), *rt = lt ? games_of(&rs) : NULL;
    if (lt && rt) result = PyTuple_Pack(2, lt, rt);
    Py_XDECREF(lt);
    Py_XDECREF(rt);
done:
    free(ls.a);
    free(rs.a);
    free(tmp.a);
    return result;
}

PyDoc_STRVAR(init_doc,
             "init(by_id, interned, intern, game_sorted, game, game_type, add, negate):\n"
             "canonical.py's list of games by id, its _interned dict, its _intern (new canonical\n"
             "options -> game), _game (sorted option tuples -> game, for what the kernel does not\n"
             "model), _game_py (any input), CanonicalGame, and add_py and negate_py (called for\n"
             "uptimals only).");

static PyObject *k_set_tick(PyObject *self, PyObject *fn) {
    Py_XSETREF(py_tick, fn == Py_None ? NULL : Py_NewRef(fn));
    Py_RETURN_NONE;
}

/* Where the __slots__ member `name` of `type` sits in its objects (a plain object slot), or -1:
 * to read and fill slots of new objects as object.__setattr__ would. */
static Py_ssize_t slot_offset(PyTypeObject *type, const char *name) {
    PyObject *descr = PyDict_GetItemString(type->tp_dict, name);
    if (!descr || !Py_IS_TYPE(descr, &PyMemberDescr_Type)) return -1;
    PyMemberDef *member = ((PyMemberDescrObject *)descr)->d_member;
    return member->type == T_OBJECT_EX ? member->offset : -1;
}

PyDoc_STRVAR(init_numbers_doc,
             "init_numbers(uptimals, fraction_type): canonical.py's _uptimals dict ((x's\n"
             "numerator, x's denominator, n, m) -> game) and fractions.Fraction, for the\n"
             "numbers and uptimals that game() makes here.");

static PyObject *k_init_numbers(PyObject *self, PyObject *args) {
    PyObject *dict, *type;
    if (!PyArg_ParseTuple(args, "O!O!", &PyDict_Type, &dict, &PyType_Type, &type)) return NULL;
    Py_XSETREF(uptimals, Py_NewRef(dict));
    Py_XSETREF(fraction_type, (PyTypeObject *)Py_NewRef(type));
    fraction_offsets[0] = slot_offset(fraction_type, "_numerator"); /* (-1: Fraction()) */
    fraction_offsets[1] = slot_offset(fraction_type, "_denominator");
    Py_RETURN_NONE;
}

static PyObject *k_init(PyObject *self, PyObject *args) {
    PyObject *list, *dict, *intern, *sorted, *any, *type, *add, *negate;
    if (!PyArg_ParseTuple(args, "O!O!OOOO!OO", &PyList_Type, &list, &PyDict_Type, &dict, &intern,
                          &sorted, &any, &PyType_Type, &type, &add, &negate))
        return NULL;
    Py_XSETREF(py_add, Py_NewRef(add));
    Py_XSETREF(py_negate, Py_NewRef(negate));
    Py_XSETREF(by_id, Py_NewRef(list));
    Py_XSETREF(interned, Py_NewRef(dict));
    Py_XSETREF(py_intern, Py_NewRef(intern));
    Py_XSETREF(py_game_sorted, Py_NewRef(sorted));
    Py_XSETREF(py_game, Py_NewRef(any));
    Py_XSETREF(game_type, (PyTypeObject *)Py_NewRef(type));
    /* the slots' offsets (member descriptors of __slots__), to read the `id` without an
     * attribute look-up and to fill a new form's slots as object.__setattr__ would */
    can_make = 1;
    for (int i = 0; i < S_COUNT; i++) {
        slot_offsets[i] = slot_offset(game_type, slot_names[i]);
        if (slot_offsets[i] < 0) can_make = 0;
    }
    id_offset = slot_offsets[S_ID];
    Py_RETURN_NONE;
}

/* The id of a CanonicalGame: >= 0; -1 when o is not one, or its id is no small int. */
static int32_t id_of(PyObject *o) {
    PyObject *v;
    if (id_offset >= 0 && PyObject_TypeCheck(o, game_type)) {
        v = *(PyObject **)((char *)o + id_offset);
        if (!v || !PyLong_CheckExact(v)) return -1;
        Py_INCREF(v);
    } else {
        return -1;
    }
    long id = PyLong_AsLong(v);
    Py_DECREF(v);
    if (id == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return -1;
    }
    return id < 0 || id > ID_LIMIT ? -1 : (int32_t)id;
}

static int ids_of(PyObject *fast, Vec *v) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t i = 0; i < n; i++) {
        int32_t id = id_of(items[i]);
        if (id < 0) return -1;
        if (vec_push(v, id)) return R_NOMEM;
    }
    return 0;
}

static int is_number(const Node *g) { return (g->flags & F_UP) && g->n == 0 && g->m == 0; }

static PyObject *ids_tuple(const Vec *v) {
    PyObject *t = PyTuple_New(v->n);
    if (!t) return NULL;
    for (Py_ssize_t i = 0; i < v->n; i++) {
        PyObject *x = PyLong_FromLong(v->a[i]);
        if (!x) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

/* Mirror game `id` with options l, r (sorted ids) and exact stops; 0, or -1 (no memory). */
static int register_node(Py_ssize_t id, const Vec *l, const Vec *r, double ls, double rs) {
    if (grow_table(id)) return -1;
    int32_t *opts = malloc((size_t)(l->n + r->n + 1) * sizeof *opts);
    if (!opts) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(opts, l->a, (size_t)l->n * sizeof *opts);
    memcpy(opts + l->n, r->a, (size_t)r->n * sizeof *opts);
    Node *g = &table[id];
    free(g->opts);
    memset(g, 0, sizeof *g);
    g->opts = opts;
    g->nl = (int32_t)l->n;
    g->nr = (int32_t)r->n;
    g->ls = ls;
    g->rs = rs;
    g->flags = F_KNOWN | F_OPTS;
    gmemo_put(key_hash(l, r), l, r, (int32_t)id);
    return 0;
}

/* A new CanonicalGame with options l, r (sorted canonical ids) and stops ls, rs, made as
 * canonical.py makes one: its slots from `values` (S_ID, S_LEFT, S_RIGHT and S_KEY are filled
 * here; the references are taken over, also on failure), appended to _by_id, entered in
 * _interned and mirrored here. New reference. */
static PyObject *new_game(PyObject **values, const Vec *l, const Vec *r, double ls, double rs) {
    Py_ssize_t id = PyList_GET_SIZE(by_id);
    PyObject *lk = ids_tuple(l), *rk = lk ? ids_tuple(r) : NULL;
    if (lk && rk) values[S_KEY] = PyTuple_Pack(2, lk, rk);
    Py_XDECREF(lk);
    Py_XDECREF(rk);
    values[S_ID] = PyLong_FromSsize_t(id);
    values[S_LEFT] = games_of(l);
    values[S_RIGHT] = games_of(r);
    PyObject *g = NULL;
    int ok = 1;
    for (int i = 0; i < S_COUNT; i++) ok = ok && values[i];
    if (ok) g = game_type->tp_alloc(game_type, 0);
    if (g) {
        for (int i = 0; i < S_COUNT; i++) { /* the slots take over the references */
            *(PyObject **)((char *)g + slot_offsets[i]) = values[i];
            values[i] = NULL;
        }
        PyObject *key = *(PyObject **)((char *)g + slot_offsets[S_KEY]);
        if (PyList_Append(by_id, g) || PyDict_SetItem(interned, key, g) ||
            register_node(id, l, r, ls, rs))
            Py_CLEAR(g);
    }
    for (int i = 0; i < S_COUNT; i++) Py_XDECREF(values[i]);
    return g;
}

/* A new general form {l | r} (canonical options, sorted ids, both sides non-empty, some option
 * no uptimal, every option modelled), made as canonical.py's _intern makes one: no number, no
 * nimber, no uptimal (those need uptimal options), stops max(l's right stops) and
 * min(r's left stops). New reference. */
static PyObject *make_form(const Vec *l, const Vec *r) {
    double ls = table[l->a[0]].rs, rs = table[r->a[0]].ls;
    for (Py_ssize_t i = 1; i < l->n; i++)
        if (table[l->a[i]].rs > ls) ls = table[l->a[i]].rs;
    for (Py_ssize_t i = 1; i < r->n; i++)
        if (table[r->a[i]].ls < rs) rs = table[r->a[i]].ls;
    if (PyList_GET_SIZE(by_id) > ID_LIMIT)
        return PyObject_CallFunction(py_intern, "NN", games_of(l), games_of(r));
    PyObject *values[S_COUNT] = {NULL};
    values[S_NUMBER] = Py_NewRef(Py_None);
    values[S_NIM] = Py_NewRef(Py_None);
    values[S_LS] = PyFloat_FromDouble(ls);
    values[S_RS] = PyFloat_FromDouble(rs);
    values[S_UP] = Py_NewRef(Py_None);
    return new_game(values, l, r, ls, rs);
}

/* ---- numbers: game() of number options alone ----------------------------------------------
 * canonical.py's _game makes {numbers | numbers} the simplest number strictly between the
 * largest Left and the smallest Right option, x* when they are equal and {x | y} when x > y
 * (Siegel CGT II.3); the kernel does the same here for small dyadics: |x| < 2^20, denominator
 * at most 2^20 (every sum and product below is an exact double), and makes a new number or x*
 * as canonical.py's _uptimal would, when it is born by MADE_BIRTHDAY (canonical.py's
 * EAGER_BIRTHDAY: such uptimals list their options; a test checks the two agree). Anything else
 * is canonical.py's. */
#define SMALL_DYADIC_BITS 20
#define MADE_BIRTHDAY 64
static int32_t id_of_result(PyObject *g);

/* x = num / 2^j exactly, with num odd when j > 0, |x| < 2^20 and j <= 20: 1; else 0. */
static int small_dyadic(double x, int64_t *num, int *j) {
    double limit = (double)(1 << SMALL_DYADIC_BITS), scaled = x;
    if (!(x > -limit && x < limit)) return 0;
    for (int k = 0; k <= SMALL_DYADIC_BITS; k++, scaled *= 2)
        if (scaled == floor(scaled)) {
            *num = (int64_t)scaled;
            *j = k;
            return 1;
        }
    return 0;
}

/* The birthday of num / 2^j (Siegel CGT II.3): |x| for an integer, else floor(|x|) + j + 1. */
static int64_t number_birthday(int64_t num, int j) {
    int64_t a = num < 0 ? -num : num;
    return j ? (a >> j) + j + 1 : a;
}

/* The simplest number x with lo < x < hi (a side absent: unbounded), canonical.py's
 * simplest_between on small dyadics (exact in doubles). */
static double simplest_between(int has_lo, double lo, int has_hi, double hi) {
    if (!has_lo && !has_hi) return 0.0;
    if (!has_lo) return fmin(0.0, ceil(hi) - 1);
    if (!has_hi) return fmax(0.0, floor(lo) + 1);
    if (lo < 0 && 0 < hi) return 0.0;
    if (hi <= 0) return -simplest_between(1, -hi, 1, -lo);
    double n = floor(lo) + 1;
    if (n < hi) return n;
    for (double d = 2;; d *= 2) { /* lo, hi have denominators <= 2^20: ends by d = 2^21 */
        double k = floor(lo * d) + 1;
        if (k / d < hi) return k / d;
    }
}

/* The Fraction num / 2^j (reduced: num odd when j > 0). New reference. */
static PyObject *new_fraction(int64_t num, int j) {
    PyObject *n = PyLong_FromLongLong(num), *d = n ? PyLong_FromLongLong((int64_t)1 << j) : NULL;
    PyObject *f = NULL;
    if (d && fraction_offsets[0] >= 0 && fraction_offsets[1] >= 0) {
        f = fraction_type->tp_alloc(fraction_type, 0); /* as Fraction(n, d) with gcd 1 */
        if (f) {
            *(PyObject **)((char *)f + fraction_offsets[0]) = Py_NewRef(n);
            *(PyObject **)((char *)f + fraction_offsets[1]) = Py_NewRef(d);
        }
    } else if (d) {
        f = PyObject_CallFunctionObjArgs((PyObject *)fraction_type, n, d, NULL);
    }
    Py_XDECREF(n);
    Py_XDECREF(d);
    return f;
}

/* The birthday of x + n.^ + *m, x = num / 2^j: canonical.py's _uptimal_birthday. */
static int64_t uptimal_birthday(int64_t num, int j, int64_t n, int64_t m) {
    int64_t born = number_birthday(num, j), k = n < 0 ? -n : n;
    if (k == 0) return born + m;
    if ((k - 1) & 1) m ^= 1;
    return born + (k - 1) + (m <= 1 ? 2 : 1 + (m ^ 1));
}

/* A new uptimal x + n.^ + *m (x = num / 2^j) with canonical options l, r, born by
 * MADE_BIRTHDAY, made as canonical.py's _uptimal makes it (options listed; entered in
 * _uptimals too): its id, or R_ERROR. */
static int32_t make_uptimal(double x, int64_t num, int j, int64_t n, int64_t m, const Vec *l,
                            const Vec *r) {
    PyObject *values[S_COUNT] = {NULL};
    PyObject *fraction = new_fraction(num, j);
    if (fraction) {
        values[S_NUMBER] = Py_NewRef(n == 0 && m == 0 ? fraction : Py_None);
        values[S_NIM] = n == 0 && num == 0 ? PyLong_FromLongLong(m) : Py_NewRef(Py_None);
        values[S_LS] = PyFloat_FromDouble(x);
        values[S_RS] = Py_XNewRef(values[S_LS]);
        values[S_UP] = Py_BuildValue("(OLL)", fraction, (long long)n, (long long)m);
    }
    /* its key in _uptimals: (x's numerator, x's denominator, n, m) */
    PyObject *up = Py_BuildValue("(LLLL)", (long long)num, (long long)1 << j, (long long)n,
                                 (long long)m);
    Py_XDECREF(fraction);
    int ready = fraction && values[S_UP] && up;
    PyObject *g = ready ? new_game(values, l, r, x, x) : NULL;
    if (!ready) /* (new_game takes the references; without it, release them) */
        for (int i = 0; i < S_COUNT; i++) Py_XDECREF(values[i]);
    int32_t id = R_ERROR;
    if (g && PyDict_SetItem(uptimals, up, g) == 0) {
        id = id_of(g);
        Node *node = &table[id];
        node->flags |= F_UP;
        node->n = n;
        node->m = m;
        if (n == 0 && m == 0) pairmap_put(&numbers, number_key(x), id);
        uptimals_made++;
    }
    Py_XDECREF(up);
    Py_XDECREF(g);
    return id;
}

/* x + n.^ + *m with canonical options l, r: made here when x is a small dyadic and it is born
 * by MADE_BIRTHDAY (its id, or R_ERROR), else R_UNKNOWN (canonical.py makes it). */
static int32_t uptimal_id(double x, int64_t n, int64_t m, const Vec *l, const Vec *r) {
    int64_t num;
    int j;
    if (!uptimals || !can_make || PyList_GET_SIZE(by_id) > ID_LIMIT || !small_dyadic(x, &num, &j)
        || n > MADE_BIRTHDAY || n < -MADE_BIRTHDAY || m > MADE_BIRTHDAY
        || uptimal_birthday(num, j, n, m) > MADE_BIRTHDAY)
        return R_UNKNOWN;
    return make_uptimal(x, num, j, n, m, l, r);
}

/* The id of the number x (a small dyadic), made here with its options if it is new and born
 * by MADE_BIRTHDAY; R_UNKNOWN when canonical.py must make it, R_ERROR. */
static int32_t number_id(double x) {
    int32_t found = pairmap_get(&numbers, number_key(x));
    if (found >= 0 && found < PyList_GET_SIZE(by_id)) return found;
    int64_t num;
    int j;
    if (x == 0 || !small_dyadic(x, &num, &j) || number_birthday(num, j) > MADE_BIRTHDAY)
        return R_UNKNOWN; /* (0 is made at import) */
    /* its canonical options: x -+ 2^-j off the integers, else the integer next to it
     * towards 0 (born earlier: this recursion is at most MADE_BIRTHDAY deep) */
    double step = ldexp(1.0, -j);
    int32_t option[2];
    Py_ssize_t nl = 0, nr = 0;
    if (j || x > 0) {
        if ((option[0] = number_id(x - step)) < 0) return option[0];
        nl = 1;
    }
    if (j || x < 0) {
        if ((option[1] = number_id(x + step)) < 0) return option[1];
        nr = 1;
    }
    Vec l = {&option[0], nl, 1}, r = {&option[1], nr, 1};
    return uptimal_id(x, 0, 0, &l, &r);
}

/* game() of number options alone (best_l the largest Left one, best_r the smallest Right
 * one, -1 when a side has none): the game's id, R_UNKNOWN (canonical.py decides), R_ERROR. */
static int32_t numbers_game(int32_t best_l, int32_t best_r) {
    int has_lo = best_l >= 0, has_hi = best_r >= 0;
    double lo = has_lo ? table[best_l].ls : 0.0, hi = has_hi ? table[best_r].ls : 0.0;
    int64_t num;
    int j;
    if ((has_lo && !small_dyadic(lo, &num, &j)) || (has_hi && !small_dyadic(hi, &num, &j)))
        return R_UNKNOWN;
    if (!has_lo || !has_hi || lo < hi) return number_id(simplest_between(has_lo, lo, has_hi, hi));
    Vec l = {&best_l, 1, 1}, r = {&best_r, 1, 1}; /* {lo | hi}, canonical */
    int32_t found = gmemo_get(key_hash(&l, &r), &l, &r);
    if (found >= 0 && found < PyList_GET_SIZE(by_id)) return found;
    if (!can_make) return R_UNKNOWN;
    if (lo > hi) return id_of_result(make_form(&l, &r)); /* a switch-like form: no uptimal */
    return uptimal_id(lo, 0, 1, &l, &r);                  /* lo == hi: x* */
}

/* canonical.py's _uptimal_of on canonical options (sorted ids) that are all modelled
 * uptimals, not all numbers: 1 and x, n, m when {l | r} is x + n.^ + *m, else 0. */
static int uptimal_of(const Vec *l, const Vec *r, double *x, int64_t *n, int64_t *m) {
    Py_ssize_t nl = l->n, nr = r->n;
    int same = nl == nr && !memcmp(l->a, r->a, (size_t)nl * sizeof *l->a);
    if (same && nl > 0) { /* x + *m: the options are x + *j for j < m (distinct games) */
        double at = table[l->a[0]].ls;
        for (Py_ssize_t i = 0; i < nl; i++) {
            const Node *g = &table[l->a[i]];
            if (g->ls != at || g->n != 0 || g->m >= nl) return 0;
        }
        *x = at;
        *n = 0;
        *m = nl;
        return 1;
    }
    if (nl == 1 && nr == 1) {
        const Node *a = &table[l->a[0]], *b = &table[r->a[0]];
        if (a->ls != b->ls) return 0;
        *x = a->ls;
        if (is_number(a) && b->n >= 0 && !is_number(b)) { /* {x | x + n.^*m}, n >= 0 */
            *n = b->n + 1;
            *m = b->m ^ 1;
            return 1;
        }
        if (is_number(b) && a->n <= 0 && !is_number(a)) { /* {x + n.^*m | x}, n <= 0 */
            *n = a->n - 1;
            *m = a->m ^ 1;
            return 1;
        }
        return 0;
    }
    if ((nl == 2 && nr == 1) || (nl == 1 && nr == 2)) { /* x + ^* or x + v*: {x, x* | x} */
        const Node *single = &table[nl == 2 ? r->a[0] : l->a[0]];
        const Vec *pair = nl == 2 ? l : r;
        const Node *p = &table[pair->a[0]], *q = &table[pair->a[1]];
        if (!is_number(single) || p->ls != single->ls || q->ls != single->ls || p->n || q->n ||
            (p->m | q->m) != 1 || (p->m & q->m))
            return 0;
        *x = single->ls;
        *n = nl == 2 ? 1 : -1;
        *m = 1;
        return 1;
    }
    return 0;
}

/* game() of sorted option ids, not in the memo: canonicalise here when every game met is
 * modelled and some option is no number, else canonical.py's _game decides. New reference. */
static PyObject *game_miss(const Vec *key_l, const Vec *key_r) {
    if (tick()) return NULL;
    Vec ls = {0}, rs = {0}, tmp = {0};
    PyObject *result = NULL;
    int modelled = 1, all_numbers = 1, r = 0;
    int32_t best_l = -1, best_r = -1;
    /* Numbers are totally ordered: only the largest Left and smallest Right one can survive
     * domination (canonical.py _game); the others go straight to ls, rs. */
    for (int side = 0; side < 2 && modelled && r == 0; side++) {
        const Vec *in = side ? key_r : key_l;
        Vec *out = side ? &rs : &ls;
        int32_t *best = side ? &best_r : &best_l;
        for (Py_ssize_t i = 0; i < in->n && r == 0; i++) {
            Node *g = known(in->a[i]);
            if (!g) {
                modelled = 0;
                break;
            }
            if (is_number(g)) {
                if (*best < 0 || (side ? g->ls < table[*best].ls : g->ls > table[*best].ls))
                    *best = in->a[i];
            } else {
                all_numbers = 0;
                if (!(g->flags & F_OPTS)) modelled = 0;
                else r = vec_push(out, in->a[i]);
            }
        }
    }
    if (r == 0 && modelled && !all_numbers) {
        if (best_l >= 0) r = vec_push(&ls, best_l);
        if (r == 0 && best_r >= 0) r = vec_push(&rs, best_r);
        sort_unique(&ls);
        sort_unique(&rs);
        if (r == 0) r = canonicalise(&ls, &rs, &tmp);
    }
    int32_t number = R_UNKNOWN;
    if (r == 0 && modelled && all_numbers) {
        number = numbers_game(best_l, best_r);
        if (number == R_ERROR) r = R_ERROR;
    }
    if (r == R_NOMEM) {
        PyErr_NoMemory();
    } else if (r == R_ERROR) {
        /* a Python exception is set */
    } else if (number >= 0) {
        result = Py_NewRef(PyList_GET_ITEM(by_id, number));
    } else if (r < 0 || !modelled || all_numbers) {
        PyObject *lt = games_of(key_l), *rt = lt ? games_of(key_r) : NULL;
        if (lt && rt) result = PyObject_CallFunctionObjArgs(py_game_sorted, lt, rt, NULL);
        Py_XDECREF(lt);
        Py_XDECREF(rt);
    } else {
        int32_t found = gmemo_get(key_hash(&ls, &rs), &ls, &rs);
        int general = 0, only_numbers = 1; /* general: some option is no uptimal, nor is the form */
        for (int side = 0; side < 2; side++) {
            const Vec *v = side ? &rs : &ls;
            for (Py_ssize_t i = 0; i < v->n; i++) {
                general |= !(table[v->a[i]].flags & F_UP);
                only_numbers &= is_number(&table[v->a[i]]);
            }
        }
        double x = 0;
        int64_t n = 0, m = 0;
        int32_t made = R_UNKNOWN; /* a number, or an uptimal, made here */
        if (found < 0 || found >= PyList_GET_SIZE(by_id)) {
            if (!general && only_numbers) /* (canonical: at most one number a side) */
                made = numbers_game(ls.n ? ls.a[0] : -1, rs.n ? rs.a[0] : -1);
            else if (!general && uptimal_of(&ls, &rs, &x, &n, &m))
                made = uptimal_id(x, n, m, &ls, &rs);
            else if (!general)
                general = 1; /* options uptimals, the form none: made as any other */
        }
        if (found >= 0 && found < PyList_GET_SIZE(by_id)) {
            result = Py_NewRef(PyList_GET_ITEM(by_id, found));
        } else if (made >= 0) {
            result = Py_NewRef(PyList_GET_ITEM(by_id, made));
        } else if (made == R_ERROR) {
            /* a Python exception is set */
        } else if (general && can_make && ls.n && rs.n) {
            result = make_form(&ls, &rs);
        } else {
            PyObject *lt = games_of(&ls), *rt = lt ? games_of(&rs) : NULL;
            if (lt && rt) result = PyObject_CallFunctionObjArgs(py_intern, lt, rt, NULL);
            Py_XDECREF(lt);
            Py_XDECREF(rt);
        }
    }
    free(ls.a);
    free(rs.a);
    free(tmp.a);
    return result;
}

/* game() of option ids sorted, without repeats: the memo, else game_miss. New reference. */
static PyObject *game_sorted(const Vec *l, const Vec *r) {
    uint64_t h = key_hash(l, r);
    int32_t found = gmemo_get(h, l, r);
    if (found >= 0 && found < PyList_GET_SIZE(by_id))
        return Py_NewRef(PyList_GET_ITEM(by_id, found));
    PyObject *result = game_miss(l, r);
    int32_t id = result ? id_of(result) : -1;
    if (id >= 0) gmemo_put(h, l, r, id);
    return result;
}

/* ---- negate and add: recursion over the options, new forms through game_sorted ------------
 * Both return a game id, R_UNKNOWN (something not modelled, or too deep: canonical.py's
 * Python path answers), or R_ERROR (a Python exception is set). Python code may run inside
 * (the uptimal cases, _intern, _game), so no Node pointer is kept across a call. */

/* The id of a game Python returned (new reference, consumed), or R_ERROR / R_UNKNOWN. */
static int32_t id_of_result(PyObject *g) {
    if (!g) return R_ERROR;
    int32_t id = id_of(g);
    Py_DECREF(g);
    return id >= 0 ? id : R_UNKNOWN;
}

/* A copy of the option ids of a modelled game (the table may move under Python calls). */
static int options_copy(int32_t id, Vec *l, Vec *r) {
    Node *g = known(id);
    if (!g || !(g->flags & F_OPTS)) return R_UNKNOWN;
    for (int32_t i = 0; i < g->nl; i++)
        if (vec_push(l, g->opts[i])) return R_NOMEM;
    for (int32_t i = 0; i < g->nr; i++)
        if (vec_push(r, g->opts[g->nl + i])) return R_NOMEM;
    return 0;
}

static int32_t finish(Vec *l, Vec *r, int status) {
    int32_t result = status;
    if (status == R_NOMEM) {
        PyErr_NoMemory();
        result = R_ERROR;
    } else if (status == 0) {
        sort_unique(l);
        sort_unique(r);
        result = id_of_result(game_sorted(l, r));
    }
    free(l->a);
    free(r->a);
    return result;
}

/* -G = {-G^R | -G^L} (canonical.py negate); uptimals by canonical.py. */
static int32_t negate_id(int32_t gi, int depth) {
    Node *g = known(gi);
    if (!g) return R_UNKNOWN;
    int32_t found = pairmap_get(&neg_memo, pair_key(gi, 0));
    if (found >= 0) return found;
    if (tick()) return R_ERROR;
    int32_t result;
    if (g->flags & F_UP) {
        PyObject *game = PyList_GET_ITEM(by_id, gi);
        result = id_of_result(PyObject_CallFunctionObjArgs(py_negate, game, NULL));
    } else if (depth >= DEPTH_LIMIT) {
        return R_UNKNOWN;
    } else {
        Vec l = {0}, r = {0}, nl = {0}, nr = {0};
        int status = options_copy(gi, &l, &r);
        for (Py_ssize_t i = 0; i < r.n && status == 0; i++) {
            int32_t x = negate_id(r.a[i], depth + 1);
            status = x < 0 ? x : vec_push(&nl, x);
        }
        for (Py_ssize_t i = 0; i < l.n && status == 0; i++) {
            int32_t x = negate_id(l.a[i], depth + 1);
            status = x < 0 ? x : vec_push(&nr, x);
        }
        free(l.a);
        free(r.a);
        result = finish(&nl, &nr, status);
    }
    if (result >= 0) {
        pairmap_put(&neg_memo, pair_key(gi, 0), result);
        pairmap_put(&neg_memo, pair_key(result, 0), gi);
    }
    return result;
}

/* G + H (canonical.py add): uptimal sums by canonical.py; G + x = {G^L + x | G^R + x} for a
 * number x (number translation, Siegel CGT II.3); else {G^L + H, G + H^L | G^R + H, G + H^R}. */
static int32_t add_ids(int32_t gi, int32_t hi, int depth) {
    if (gi > hi) {
        int32_t t = gi;
        gi = hi;
        hi = t;
    }
    Node *g = known(gi), *h = known(hi);
    if (!g || !h) return R_UNKNOWN;
    if (is_number(g) && g->ls == 0.0) return hi; /* 0 + H */
    if (is_number(h) && h->ls == 0.0) return gi;
    uint64_t key = pair_key(gi, hi);
    int32_t found = pairmap_get(&add_memo, key);
    if (found >= 0) return found;
    if (tick()) return R_ERROR;
    int32_t result;
    if ((g->flags & F_UP) && (h->flags & F_UP)) {
        result = id_of_result(PyObject_CallFunctionObjArgs(py_add, PyList_GET_ITEM(by_id, gi),
                                                           PyList_GET_ITEM(by_id, hi), NULL));
    } else if (depth >= DEPTH_LIMIT) {
        return R_UNKNOWN;
    } else if (is_number(g) || is_number(h)) {
        int32_t x = is_number(g) ? gi : hi, other = is_number(g) ? hi : gi;
        Vec l = {0}, r = {0}, sl = {0}, sr = {0};
        int status = options_copy(other, &l, &r);
        for (Py_ssize_t i = 0; i < l.n && status == 0; i++) {
            int32_t y = add_ids(l.a[i], x, depth + 1);
            status = y < 0 ? y : vec_push(&sl, y);
        }
        for (Py_ssize_t i = 0; i < r.n && status == 0; i++) {
            int32_t y = add_ids(r.a[i], x, depth + 1);
            status = y < 0 ? y : vec_push(&sr, y);
        }
        free(l.a);
        free(r.a);
        result = finish(&sl, &sr, status);
    } else {
        Vec gl = {0}, gr = {0}, hl = {0}, hr = {0}, sl = {0}, sr = {0};
        int status = options_copy(gi, &gl, &gr);
        if (status == 0) status = options_copy(hi, &hl, &hr);
        for (Py_ssize_t i = 0; i < gl.n && status == 0; i++) {
            int32_t y = add_ids(gl.a[i], hi, depth + 1);
            status = y < 0 ? y : vec_push(&sl, y);
        }
        for (Py_ssize_t i = 0; i < hl.n && status == 0; i++) {
            int32_t y = add_ids(gi, hl.a[i], depth + 1);
            status = y < 0 ? y : vec_push(&sl, y);
        }
        for (Py_ssize_t i = 0; i < gr.n && status == 0; i++) {
            int32_t y = add_ids(gr.a[i], hi, depth + 1);
            status = y < 0 ? y : vec_push(&sr, y);
        }
        for (Py_ssize_t i = 0; i < hr.n && status == 0; i++) {
            int32_t y = add_ids(gi, hr.a[i], depth + 1);
            status = y < 0 ? y : vec_push(&sr, y);
        }
        free(gl.a);
        free(gr.a);
        free(hl.a);
        free(hr.a);
        result = finish(&sl, &sr, status);
    }
    if (result >= 0) pairmap_put(&add_memo, key, result);
    return result;
}

static PyObject *game_or_none(int32_t id) {
    if (id == R_ERROR) return NULL;
    if (id < 0 || id >= PyList_GET_SIZE(by_id)) Py_RETURN_NONE;
    return Py_NewRef(PyList_GET_ITEM(by_id, id));
}

PyDoc_STRVAR(add_doc, "add(g, h) -> G + H, or None when the kernel does not model them.");

static PyObject *k_add(PyObject *self, PyObject *args) {
    PyObject *g, *h;
    if (!PyArg_ParseTuple(args, "OO", &g, &h)) return NULL;
    int32_t gi = by_id ? id_of(g) : -1, hi = by_id ? id_of(h) : -1;
    if (gi < 0 || hi < 0) Py_RETURN_NONE;
    return game_or_none(add_ids(gi, hi, 0));
}

PyDoc_STRVAR(negate_doc, "negate(g) -> -G, or None when the kernel does not model it.");

static PyObject *k_negate(PyObject *self, PyObject *g) {
    int32_t gi = by_id ? id_of(g) : -1;
    if (gi < 0) Py_RETURN_NONE;
    return game_or_none(negate_id(gi, 0));
}

PyDoc_STRVAR(game_doc,
             "game(lefts, rights) -> the canonical form of {lefts | rights} (iterables of\n"
             "CanonicalGames), memoised on the option id sets; canonical.py's game().");

static PyObject *k_game(PyObject *self, PyObject *args) {
    PyObject *lefts, *rights, *result = NULL;
    if (!PyArg_ParseTuple(args, "OO", &lefts, &rights)) return NULL;
    if (not_initialised()) return NULL;
    PyObject *fl = PySequence_Fast(lefts, "game() needs iterables of games");
    if (!fl) return NULL;
    PyObject *fr = PySequence_Fast(rights, "game() needs iterables of games");
    if (!fr) {
        Py_DECREF(fl);
        return NULL;
    }
    Vec l = {0}, r = {0};
    int status = ids_of(fl, &l);
    if (status == 0) status = ids_of(fr, &r);
    if (status == R_NOMEM) {
        PyErr_NoMemory();
    } else if (status < 0) { /* not all CanonicalGames with small ids: the Python path */
        result = PyObject_CallFunctionObjArgs(py_game, fl, fr, NULL);
    } else {
        sort_unique(&l);
        sort_unique(&r);
        result = game_sorted(&l, &r);
    }
    free(l.a);
    free(r.a);
    Py_DECREF(fl);
    Py_DECREF(fr);
    return result;
}

static void pairmap_clear(PairMap *m) {
    free(m->keys);
    free(m->vals);
    memset(m, 0, sizeof *m);
}

PyDoc_STRVAR(reset_doc,
             "reset(): forget every game (canonical.py calls it before it makes its first one, so\n"
             "that a re-imported canonical.py starts from an empty mirror, as its tables do).");

static PyObject *k_reset(PyObject *self, PyObject *unused) {
    for (Py_ssize_t i = 0; i < table_len; i++) free(table[i].opts);
    free(table);
    table = NULL;
    table_len = 0;
    pairmap_clear(&ge_memo);
    for (size_t i = 0; i < gmemo_cap; i++) free(gmemo[i].key);
    free(gmemo);
    gmemo = NULL;
    gmemo_cap = gmemo_len = 0;
    pairmap_clear(&add_memo);
    pairmap_clear(&neg_memo);
    pairmap_clear(&numbers);
    Py_CLEAR(by_id);
    Py_CLEAR(uptimals);
    Py_RETURN_NONE;
}

static PyObject *k_info(PyObject *self, PyObject *unused) {
    Py_ssize_t modelled = 0;
    for (Py_ssize_t i = 0; i < table_len; i++) modelled += (table[i].flags & F_KNOWN) != 0;
    return Py_BuildValue("{s:n,s:n,s:n,s:n,s:n,s:n,s:n}", "table", table_len, "modelled",
                         modelled, "ge_cached", (Py_ssize_t)ge_memo.len, "game_cached",
                         (Py_ssize_t)gmemo_len, "add_cached", (Py_ssize_t)add_memo.len,
                         "neg_cached", (Py_ssize_t)neg_memo.len, "uptimals_made", uptimals_made);
}

static PyMethodDef methods[] = {
    {"init", k_init, METH_VARARGS, init_doc},
    {"init_numbers", k_init_numbers, METH_VARARGS, init_numbers_doc},
    {"set_tick", k_set_tick, METH_O, "set_tick(fn): the no-op called every so often (see tick())."},
    {"game", k_game, METH_VARARGS, game_doc},
    {"add", k_add, METH_VARARGS, add_doc},
    {"negate", k_negate, METH_O, negate_doc},
    {"register", k_register, METH_VARARGS, register_doc},
    {"register_options", k_register_options, METH_VARARGS, register_options_doc},
    {"ge", k_ge, METH_VARARGS, ge_doc},
    {"canonicalise", k_canonicalise, METH_VARARGS, canonicalise_doc},
    {"reset", k_reset, METH_NOARGS, reset_doc},
    {"info", k_info, METH_NOARGS,
     "Sizes: the mirror table, the games modelled, the memos, the uptimals made here."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_k_canonical",
    "Compiled canonical-form kernel (see cgframework.values.canonical).", -1, methods,
};

/* Raised whenever what canonical.py calls here changes: a stale build is then not loaded. */
#define API_VERSION 3

PyMODINIT_FUNC PyInit__k_canonical(void) {
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddIntConstant(m, "API_VERSION", API_VERSION) < 0) Py_CLEAR(m);
    return m;
}
