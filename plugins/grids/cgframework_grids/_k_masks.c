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
#include <stdlib.h>
#include <string.h>

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

/* the bits of x in reverse order */
static u64 reversed(u64 x) {
    x = __builtin_bswap64(x);
    x = (x & 0x0F0F0F0F0F0F0F0FULL) << 4 | (x >> 4 & 0x0F0F0F0F0F0F0F0FULL);
    x = (x & 0x3333333333333333ULL) << 2 | (x >> 2 & 0x3333333333333333ULL);
    return (x & 0x5555555555555555ULL) << 1 | (x >> 1 & 0x5555555555555555ULL);
}

static uint8_t *image_tables[65][65]; /* [h][w]: image_cell of every cell in each image */

/* the image cells of an h x w board (h * w <= 64), [k * 64 + cell]: made at first use and
 * kept; NULL without the memory */
static const uint8_t *images_of(int h, int w) {
    uint8_t *t = image_tables[h][w];
    if (!t && (t = malloc(8 * 64))) {
        for (int k = 0; k < 8; k++)
            for (int i = 0; i < h * w; i++)
                t[k * 64 + i] = (uint8_t)image_cell(h, w, k, i / w, i % w);
        image_tables[h][w] = t;
    }
    return t;
}

static u64 permuted(u64 mask, int h, int w, int k) {
    if (k == 0 || !mask) return mask;
    if (k == 3) return reversed(mask) >> (64 - h * w); /* (a half turn: the cells reversed) */
    const uint8_t *t = images_of(h, w);
    u64 out = 0;
    for (; mask; mask &= mask - 1) {
        int i = low_index(mask);
        out |= bit(t ? t[k * 64 + i] : image_cell(h, w, k, i / w, i % w));
    }
    return out;
}

/* the least image (best) of a trimmed region over its symmetries and colour swap: its
 * height and width in the flatter orientation, whether the swap's image is its own least image
 * (*selfneg, when asked: G = -G), and whether the swap's image won (-1) */
static int least_image(int h, int w, u64 xs, u64 os, u64 es, int *ih, int *iw, u64 best[3],
                       int *selfneg) {
    int first = h > w ? 4 : 0, last = h < w ? 4 : 8;
    u64 own[3] = {0, 0, 0}, swap[3] = {0, 0, 0};
    for (int k = first; k < last; k++) {
        u64 a = permuted(xs, h, w, k), b = permuted(os, h, w, k), e = permuted(es, h, w, k);
        u64 mine[3] = {a, b, e}, other[3] = {b, a, e};
        if (k == first || triple_less(mine, own)) memcpy(own, mine, sizeof own);
        if (k == first || triple_less(other, swap)) memcpy(swap, other, sizeof swap);
    }
    *ih = h > w ? w : h;
    *iw = h > w ? h : w;
    if (selfneg) *selfneg = own[0] == swap[0] && own[1] == swap[1] && own[2] == swap[2];
    int negative = triple_less(swap, own);
    memcpy(best, negative ? swap : own, sizeof own);
    return negative;
}

static PyObject *token(int h, int w, u64 xs, u64 os, u64 es, int signed_parts) {
    int ih, iw;
    u64 best[3];
    int negative = least_image(h, w, xs, os, es, &ih, &iw, best, NULL);
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

/* a region (xs, os, es) of the board cut to its rows and columns: *nh x *nw, n[3] */
static void trim(const Frame *f, u64 xs, u64 os, u64 es, int *nh_out, int *nw_out, u64 n[3]) {
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
    *nh_out = nh;
    *nw_out = nw;
    if (nh == h && nw == w) {
        n[0] = xs, n[1] = os, n[2] = es;
        return;
    }
    u64 in[3] = {xs, os, es}, nrow = ones_of(nw);
    n[0] = n[1] = n[2] = 0;
    for (int r = 0; r < nh; r++) {
        int shift = (r + r0) * w + c0;
        for (int k = 0; k < 3; k++) n[k] |= ((in[k] >> shift) & nrow) << (r * nw);
    }
}

/* the token of a region (xs, os, es) of the board, trimmed */
static PyObject *trimmed_token(const Frame *f, u64 xs, u64 os, u64 es, int signed_parts) {
    int nh, nw;
    u64 n[3];
    trim(f, xs, os, es, &nh, &nw, n);
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

/* ---- Who wins a sum of Clobber regions: a compiled boolean negamax ----------------------
 *
 *   searcher(budget[, rules, outcome_stones, class_stones, pair_stones, value_stones,
 *       value_birth, comps_cap, buckets_cap]) -> a search (a capsule) whose tables take
 *       about budget bytes, as they fill (and 16 MiB of pairs, at the first pair); rules
 *       are the RULE_* bits below (all by default), the stones bound the components they
 *       class; the caps (tests) bound the component table and the transposition table's
 *       buckets below what the budget allows;
 *   wins(search, comps, left, charge, every) -> does the player to move (Left if left) win
 *       the sum of comps, each a token ((h, w, xs, os, es), sign) of mask_keys (sign -1:
 *       minus that key's value)? None when the search declines (a board past 64 cells,
 *       stones in es, more than MAX_STONES stones or MAX_PARTS regions in all). charge(n)
 *       is called with the nodes expanded every `every` nodes and at the end (it may
 *       raise: a node budget or deadline; the error is passed on); signals are checked as
 *       often. A full table is a MemoryError naming it;
 *   stats(search) -> (nodes, table hits, components interned, states stored).
 *
 * The reference is the core's Python search (cgframework/solvers/outcome_search.py) on the
 * same tokens; this is the same negamax without its exact values: a state is the sorted
 * list of signed component ids (id * 2 + 1 for minus the component) and the player. A
 * component is interned by its token's key. The transposition table knows a state by a
 * 128-bit key of its contents (state_key: two independent 64-bit hashes of each part's
 * token, summed), not by its ids, so that it outlives them (the component table's
 * collection frees and reuses ids). 112 bits of the key are stored: two states are taken
 * for one with odds of about 4 in 2^(112 - log2 buckets) per lookup, under 10^-14 in a
 * search of 10^10 nodes. Its slots come in buckets of four (one cache line); a new state
 * takes a free slot of its bucket, else the one whose search expanded the fewest nodes
 * (the answers that took long stay, whatever their age); the table doubles as it fills, up
 * to its share of the memory. After a move only the region moved in is split again (its
 * move list, cached per component, holds the ids of each option's regions; one-colour
 * regions are 0 and absent); a component and its negation cancel, and so do two copies of
 * a component that a symmetry maps onto its colour swap (G = -G); of equal components only
 * one copy is tried. Moves: the component with the most moves first, in it the move that
 * last won there (its killer) first, then those whose largest part left has the fewest
 * stones, ties from the middle of the move list outwards (pool_store).
 * Depth is at most the number of stones, plus the rules' nested searches (at most NEST_MAX
 * deep, each on a small sum): the frames are small and the states live in one buffer of
 * MAX_ROWS rows.
 *
 * The rules (each exact CGT; the outcomes and values they use are found by this search on
 * small sums, and kept): RULE_ZERO drops a component of outcome P (it is 0); RULE_STATIC
 * decides a sum whose components are all L (Left wins), all R, or all good for the mover
 * but one N (the mover wins); RULE_DROP tries the sum without a component good for the
 * mover first (if the mover wins it, the mover wins); RULE_CLASS replaces a small
 * component by the first component met of equal value (or minus it), RULE_PAIR two small
 * components by one equal to their sum: candidates share a fingerprint of outcomes, and
 * G = H is checked as G - H having outcome P. MCGS's Clobber solver (Folkersen, Du and
 * Muller) uses the first three; the house's measurements of each are in RESULTS.md.
 * RULE_VALUE (before the others, in solve) replaces each component of at most value_stones
 * stones by its canonical value (found from its move lists with the short-game arithmetic
 * of the Values tables, and kept on the component), drops the values 0 and sums the others
 * into one value part while the two summands' birthdays add up to at most value_birth (a
 * value part is a Comp of its own: its moves are its value's canonical options; replacing
 * a component by an equal game never changes who wins a sum). A state of one value part V
 * is decided at once: Left moving first wins iff not V <= 0, Right iff not V >= 0. */

#define MAX_STONES 512
#define MAX_PARTS 256
#define MOVES_TMP 16384

typedef struct {
    u64 xs, os;
    uint8_t h, w;
    uint8_t outcome;     /* 0 unknown, else 4 | 1 (Left moving first wins) | 2 (Right) */
    uint8_t selfneg;     /* its colour swap is an image of it: G = -G, so G + G = 0 */
    uint16_t fp;         /* its fingerprint (see class_of), when rep is known */
    uint32_t rep;        /* 1 + the signed id of the component of its value met first, 0 */
    uint32_t next;       /* 1 + the next representative of the same fingerprint, or 0 */
    int16_t killer[4];   /* [sign * 2 + left]: the move that last won there, or -1 */
    uint32_t moves[2];   /* [left]: pool offset + 1 of the move list (0: none made) */
    uint32_t stamp[2];   /* the pool generation the offset is from */
    uint32_t value;      /* 1 + the id of its canonical value (Values), or 0 (not known) */
    u64 key[2];          /* a 128-bit key of its contents (comp_hash, comp_hash2) */
} Comp;
/* A value part is a Comp of h = w = 0 whose xs is the id of a canonical value: its moves
 * are that value's options (each one value part, or none for the option 0). */

#define FREE_SLOT 0xFF /* the h of a slot on the free list (a region is at most 64 high) */

#define PAIR_MASK ((1u << 20) - 1)
typedef struct { u64 key; uint32_t value; } Pair; /* key: 1 + (a << 32 | b) */

/* Canonical values of short games (generic: nothing of Clobber in them). A node is a form
 * {L | R} with its options' ids, sorted and de-duplicated, in the option pool; node 0 is 0. */
typedef struct {
    uint32_t off;   /* its nl Left then nr Right options in the option pool */
    uint16_t nl, nr;
    uint16_t birth; /* the birthday of this form */
    uint32_t neg;   /* 1 + the id of its negative (known when canonical), or 0 */
    uint32_t canon; /* 1 + the id of its canonical form, or 0 (not found yet) */
} VNode;

typedef struct {
    Pair *slots; /* key 1 + (a << 32 | b), or 0 (free) */
    size_t mask, count, max;
} Memo;

typedef struct {
    VNode *nodes;
    size_t n, alloc, max;
    uint32_t *opts;
    size_t nopts, opts_alloc, opts_max;
    uint32_t *index; /* intern table: node id + 1, or 0 */
    size_t index_mask;
    Memo leq, sum; /* G <= H, and G + H (canonical) */
    int full;      /* a table could not grow: no new values (the search goes on without) */
} Values;

/* A slot of the transposition table: a state known by the 128-bit key of its contents
 * (state_key), not by its list of component ids, so that what the table knows outlives the
 * ids (a collection of the component table frees and reuses them). */
typedef struct {
    u64 a; /* the key's first half */
    u64 b; /* the second half's high 48 bits | work << 8 | wins << 1 | 1 (used); 0: empty */
} Slot;

#define BUCKET 4 /* slots a key may take: one 64-byte cache line */

typedef struct {
    Slot *slots;        /* nbuckets * BUCKET, 64-byte aligned */
    size_t nbuckets;    /* a power of two, doubled as the table fills, up to max_buckets */
    size_t max_buckets; /* the most the search's memory share allows (growing needs 1.5x) */
    size_t count;       /* slots in use */
} Table;

typedef struct {
    u64 a, b;
} Key;

#define STRIDE (3 * MAX_PARTS)
#define NEST_MAX 8 /* most nested searches the rules start (each for a small sum) */
#define MAX_ROWS (MAX_STONES + 2 + NEST_MAX * 40)

typedef struct {
    Comp *comps;
    size_t ncomps, comps_alloc, comps_max; /* ncomps: slots used so far, free ones included */
    size_t nlive;       /* components in the table (the slots not on the free list) */
    uint32_t free_head; /* 1 + the first free slot (its next: 1 + the one after), or 0 */
    u64 *index; /* intern table: comp id + 1 | the high half of its comp_hash, or 0 */
    size_t index_mask;
    uint32_t *pool;  /* move lists: [m, m + 1 offsets, ids...] */
    size_t pool_len, pool_alloc, pool_cap;
    uint32_t pool_gen;
    Table tt;
    Slot *known; /* canonical values of components by content (known_value): 0 or a slot's */
    size_t known_mask, known_count, known_max;
    uint32_t bucket[1 << 16]; /* 1 + the last representative of each fingerprint, or 0 */
    Pair *pairs;              /* sums of two small components and their representatives */
    size_t npairs;
    int pair_stones;          /* the most stones of a component paired */
    uint32_t star, up;        /* signed ids of xo (*) and xxo (up = {0 | *}) */
    int class_stones;         /* the most stones of a component given a representative */
    uint32_t *buf;   /* row d: the state at depth d (MAX_PARTS), its candidates (2 MAX_PARTS) */
    uint32_t tmp[MOVES_TMP];
    unsigned long long nodes, charged, hits, stored, every;
    int rules, outcome_stones; /* RULE_* bits; the most stones of a component classed */
    int nesting;               /* searches started by the rules under way */
    int rowlen[MAX_ROWS]; /* the length of the state in each row of the search's path */
    unsigned long long collections; /* times the component table was collected (collect) */
    PyObject *charge;
    Values v;        /* canonical values of small components and of value parts */
    int value_stones;  /* the most stones of a component replaced by its value */
    int value_birth;   /* two value parts are summed when their birthdays add up to this */
} Search;


enum { RULE_ZERO = 1, RULE_STATIC = 2, RULE_DROP = 4, RULE_CLASS = 8, RULE_PAIR = 16,
       RULE_VALUE = 32 };

#define CLASS_TRIES 16 /* most representatives a new component is compared with */

static u64 mix(u64 x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

static void values_free(Values *v);

static void search_free(Search *s) {
    if (!s) return;
    free(s->comps);
    free(s->index);
    free(s->pool);
    free(s->tt.slots);
    free(s->known);
    free(s->buf);
    free(s->pairs);
    values_free(&s->v);
    free(s);
}

static int memory_full(const char *what) {
    PyErr_Format(PyExc_MemoryError, "out of memory: the compiled Clobber search's %s is full "
                 "(--max-memory)", what);
    return -1;
}

/* ---- canonical values (Conway, On Numbers and Games; Siegel, Combinatorial Game Theory,
 * ch. II: G <= H iff no G^L >= H and no H^R <= G; the canonical form has no dominated and
 * no reversible option). Every failure (a table that cannot grow) sets v->full and answers
 * VFAIL: the search then goes on without values; nothing here raises. The recursions go as
 * deep as the birthdays of the forms met, which the callers bound. */

#define VFAIL 0xFFFFFFFFu
#define MEMO_NONE 0xFFFFFFFFu

static void values_free(Values *v) {
    free(v->nodes);
    free(v->opts);
    free(v->index);
    free(v->leq.slots);
    free(v->sum.slots);
    memset(v, 0, sizeof *v);
}

static uint32_t memo_get(const Memo *m, u64 key) {
    if (!m->slots) return MEMO_NONE;
    for (size_t j = mix(key) & m->mask; m->slots[j].key; j = (j + 1) & m->mask)
        if (m->slots[j].key == key + 1) return m->slots[j].value;
    return MEMO_NONE;
}

/* remember key -> value: the table doubles up to its most slots, then is emptied */
static void memo_put(Memo *m, u64 key, uint32_t value) {
    if (!m->slots) {
        size_t first = m->max < 4096 ? m->max : 4096;
        if (first < 16 || !(m->slots = calloc(first, sizeof(Pair)))) return;
        m->mask = first - 1;
    }
    if ((m->count + 1) * 2 > m->mask + 1) {
        size_t size = (m->mask + 1) * 2;
        Pair *slots = size <= m->max ? calloc(size, sizeof(Pair)) : NULL;
        if (slots) {
            for (size_t i = 0; i <= m->mask; i++) {
                if (!m->slots[i].key) continue;
                size_t j = mix(m->slots[i].key - 1) & (size - 1);
                while (slots[j].key) j = (j + 1) & (size - 1);
                slots[j] = m->slots[i];
            }
            free(m->slots);
            m->slots = slots;
            m->mask = size - 1;
        } else {
            memset(m->slots, 0, (m->mask + 1) * sizeof(Pair));
            m->count = 0;
        }
    }
    size_t j = mix(key) & m->mask;
    while (m->slots[j].key) j = (j + 1) & m->mask;
    m->slots[j].key = key + 1;
    m->slots[j].value = value;
    m->count++;
}

static u64 vhash(const uint32_t *l, int nl, const uint32_t *r, int nr) {
    u64 h = mix((u64)nl << 32 | (u64)nr);
    for (int i = 0; i < nl; i++) h = mix(h ^ l[i]);
    for (int i = 0; i < nr; i++) h = mix(h ^ ((u64)r[i] << 32));
    return h;
}

static uint32_t vfail(Values *v) {
    v->full = 1;
    return VFAIL;
}

/* the id of the form {l | r} (each sorted, without repeats, not in the option pool),
 * interned if new; VFAIL when full */
static uint32_t vintern(Values *v, const uint32_t *l, int nl, const uint32_t *r, int nr) {
    if (nl > 0xFFFF || nr > 0xFFFF) return vfail(v);
    u64 h = vhash(l, nl, r, nr);
    if (!v->index || (v->n + 1) * 2 > v->index_mask + 1) {
        size_t size = v->index ? (v->index_mask + 1) * 2 : 1024;
        uint32_t *index = calloc(size, sizeof(uint32_t));
        if (!index || size > v->max * 4) {
            free(index);
            return vfail(v);
        }
        for (size_t i = 0; i < v->n; i++) {
            VNode *g = &v->nodes[i];
            const uint32_t *o = v->opts + g->off;
            size_t j = vhash(o, g->nl, o + g->nl, g->nr) & (size - 1);
            while (index[j]) j = (j + 1) & (size - 1);
            index[j] = (uint32_t)i + 1;
        }
        free(v->index);
        v->index = index;
        v->index_mask = size - 1;
    }
    size_t j = h & v->index_mask;
    for (; v->index[j]; j = (j + 1) & v->index_mask) {
        VNode *g = &v->nodes[v->index[j] - 1];
        const uint32_t *o = v->opts + g->off;
        if (g->nl == nl && g->nr == nr && !memcmp(o, l, (size_t)nl * sizeof(uint32_t)) &&
            !memcmp(o + nl, r, (size_t)nr * sizeof(uint32_t)))
            return v->index[j] - 1;
    }
    if (v->n >= v->max || v->nopts + (size_t)(nl + nr) > v->opts_max) return vfail(v);
    if (v->n == v->alloc) {
        size_t alloc = v->alloc ? v->alloc * 2 : 1024;
        if (alloc > v->max) alloc = v->max;
        VNode *nodes = realloc(v->nodes, alloc * sizeof(VNode));
        if (!nodes) return vfail(v);
        v->nodes = nodes;
        v->alloc = alloc;
    }
    if (v->nopts + (size_t)(nl + nr) > v->opts_alloc) {
        size_t alloc = v->opts_alloc ? v->opts_alloc * 2 : 4096;
        while (alloc < v->nopts + (size_t)(nl + nr)) alloc *= 2;
        if (alloc > v->opts_max) alloc = v->opts_max;
        uint32_t *opts = realloc(v->opts, alloc * sizeof(uint32_t));
        if (!opts) return vfail(v);
        v->opts = opts;
        v->opts_alloc = alloc;
    }
    VNode *g = &v->nodes[v->n];
    g->off = (uint32_t)v->nopts;
    g->nl = (uint16_t)nl, g->nr = (uint16_t)nr;
    g->neg = g->canon = 0;
    memcpy(v->opts + v->nopts, l, (size_t)nl * sizeof(uint32_t));
    memcpy(v->opts + v->nopts + nl, r, (size_t)nr * sizeof(uint32_t));
    v->nopts += (size_t)(nl + nr);
    int birth = 0;
    for (int i = 0; i < nl + nr; i++) {
        int b = v->nodes[(i < nl ? l[i] : r[i - nl])].birth + 1;
        if (b > birth) birth = b;
    }
    g->birth = (uint16_t)(birth > 0xFFFF ? 0xFFFF : birth);
    v->index[j] = (uint32_t)v->n + 1;
    return (uint32_t)v->n++;
}

/* G <= H: no G^L >= H and no H^R <= G (memoised on the pair) */
static int vleq(Values *v, uint32_t a, uint32_t b) {
    if (a == b) return 1;
    u64 key = (u64)a << 32 | b;
    uint32_t m = memo_get(&v->leq, key);
    if (m != MEMO_NONE) return (int)m;
    int r = 1;
    const VNode *ga = &v->nodes[a], *gb = &v->nodes[b];
    const uint32_t *al = v->opts + ga->off, *br = v->opts + gb->off + gb->nl;
    for (int i = 0; r && i < ga->nl; i++)
        if (vleq(v, b, al[i])) r = 0;
    for (int i = 0; r && i < gb->nr; i++)
        if (vleq(v, br[i], a)) r = 0;
    memo_put(&v->leq, key, (uint32_t)r);
    return r;
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int sort_unique(uint32_t *a, int n) {
    if (n < 2) return n;
    qsort(a, (size_t)n, sizeof(uint32_t), cmp_u32);
    int k = 1;
    for (int i = 1; i < n; i++)
        if (a[i] != a[k - 1]) a[k++] = a[i];
    return k;
}

/* the negative of canonical G: {-G^R | -G^L} (canonical too), memoised both ways */
static uint32_t vneg(Values *v, uint32_t a) {
    if (a == 0) return 0;
    if (v->nodes[a].neg) return v->nodes[a].neg - 1;
    int nl = v->nodes[a].nl, nr = v->nodes[a].nr;
    uint32_t *buf = malloc((size_t)(nl + nr + 1) * sizeof(uint32_t));
    if (!buf) return vfail(v);
    for (int i = 0; i < nl + nr; i++) {
        uint32_t o = vneg(v, v->opts[v->nodes[a].off + i]);
        if (o == VFAIL) {
            free(buf);
            return VFAIL;
        }
        buf[i < nl ? nr + i : i - nl] = o; /* -G^R become Left's, -G^L Right's */
    }
    int ml = sort_unique(buf, nr), mr = sort_unique(buf + nr, nl);
    uint32_t n = vintern(v, buf, ml, buf + nr, mr);
    free(buf);
    if (n == VFAIL) return VFAIL;
    v->nodes[a].neg = n + 1;
    v->nodes[n].neg = a + 1;
    v->nodes[n].canon = n + 1;
    return n;
}

/* the canonical form of {l[0..nl) | r[0..nr)}, options canonical (any order, repeats
 * allowed; l and r are not in the pool): dominated options removed and reversible ones
 * bypassed until neither is left (Siegel, CGT, II.2) */
static uint32_t vcanon(Values *v, const uint32_t *l0, int nl, const uint32_t *r0, int nr) {
    size_t cap = (size_t)(nl + nr) + 16, len[2];
    uint32_t *side[2], result = VFAIL;
    side[0] = malloc(cap * sizeof(uint32_t));
    side[1] = malloc(cap * sizeof(uint32_t));
    size_t caps[2] = {cap, cap};
    if (!side[0] || !side[1]) goto done_fail;
    memcpy(side[0], l0, (size_t)nl * sizeof(uint32_t));
    memcpy(side[1], r0, (size_t)nr * sizeof(uint32_t));
    len[0] = (size_t)sort_unique(side[0], nl);
    len[1] = (size_t)sort_unique(side[1], nr);
    uint32_t g = vintern(v, side[0], (int)len[0], side[1], (int)len[1]);
    if (g == VFAIL) goto done;
    if (v->nodes[g].canon) {
        result = v->nodes[g].canon - 1;
        goto done;
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (int s = 0; s < 2; s++) { /* dominated: Left's x <= y, Right's x >= y */
            uint32_t *o = side[s];
            size_t k = 0;
            for (size_t i = 0; i < len[s]; i++) {
                int dominated = 0;
                for (size_t j = 0; j < len[s] && !dominated; j++)
                    if (j != i && o[j] != VFAIL)
                        dominated = s ? vleq(v, o[j], o[i]) : vleq(v, o[i], o[j]);
                if (dominated) o[i] = VFAIL; /* (gone; compared no more) */
            }
            for (size_t i = 0; i < len[s]; i++)
                if (o[i] != VFAIL) o[k++] = o[i];
            len[s] = k;
        }
        for (int s = 0; s < 2 && !changed; s++) { /* reversible: Left's x with x^R <= G */
            uint32_t *o = side[s];
            for (size_t i = 0; i < len[s] && !changed; i++) {
                const VNode *x = &v->nodes[o[i]];
                int n = s ? x->nl : x->nr;
                const uint32_t *xo = v->opts + x->off + (s ? 0 : x->nl);
                for (int t = 0; t < n; t++) {
                    if (!(s ? vleq(v, g, xo[t]) : vleq(v, xo[t], g))) continue;
                    const VNode *y = &v->nodes[xo[t]]; /* bypass x by y's options */
                    int m = s ? y->nr : y->nl;
                    const uint32_t *yo = v->opts + y->off + (s ? y->nl : 0);
                    if (len[s] - 1 + (size_t)m > caps[s]) {
                        size_t c = (len[s] + (size_t)m) * 2;
                        uint32_t *grown = realloc(side[s], c * sizeof(uint32_t));
                        if (!grown) goto done_fail;
                        side[s] = o = grown;
                        caps[s] = c;
                    }
                    o[i] = o[--len[s]];
                    memcpy(o + len[s], yo, (size_t)m * sizeof(uint32_t));
                    len[s] = (size_t)sort_unique(o, (int)(len[s] + (size_t)m));
                    changed = 1;
                    break;
                }
            }
        }
    }
    result = vintern(v, side[0], (int)len[0], side[1], (int)len[1]);
    if (result != VFAIL) {
        v->nodes[result].canon = result + 1;
        v->nodes[g].canon = result + 1;
    }
    goto done;
done_fail:
    result = vfail(v);
done:
    free(side[0]);
    free(side[1]);
    return result;
}

/* G + H, canonical (of canonical G and H): {G^L + H, G + H^L | G^R + H, G + H^R} */
static uint32_t vadd(Values *v, uint32_t a, uint32_t b) {
    if (a == 0) return b;
    if (b == 0) return a;
    if (a > b) {
        uint32_t t = a;
        a = b, b = t;
    }
    u64 key = (u64)a << 32 | b;
    uint32_t m = memo_get(&v->sum, key);
    if (m != MEMO_NONE) return m;
    int al = v->nodes[a].nl, ar = v->nodes[a].nr, bl = v->nodes[b].nl, br = v->nodes[b].nr;
    uint32_t *buf = malloc((size_t)(al + ar + bl + br + 1) * sizeof(uint32_t));
    if (!buf) return vfail(v);
    uint32_t *l = buf, *r = buf + al + bl;
    for (int i = 0; i < al + ar + bl + br; i++) {
        uint32_t x; /* (the pool may move: read it afresh) */
        if (i < al) x = vadd(v, v->opts[v->nodes[a].off + i], b);
        else if (i < al + bl) x = vadd(v, a, v->opts[v->nodes[b].off + i - al]);
        else if (i < al + bl + ar) x = vadd(v, v->opts[v->nodes[a].off + al + i - al - bl], b);
        else x = vadd(v, a, v->opts[v->nodes[b].off + bl + i - al - bl - ar]);
        if (x == VFAIL) {
            free(buf);
            return VFAIL;
        }
        buf[i] = x;
    }
    uint32_t s = vcanon(v, l, al + bl, r, ar + br);
    free(buf);
    if (s != VFAIL) memo_put(&v->sum, key, s);
    return s;
}

/* empty the value tables (keeping their memory share) and intern 0 as node 0 */
static void values_reset(Values *v) {
    v->n = v->nopts = 0;
    if (v->index) memset(v->index, 0, (v->index_mask + 1) * sizeof(uint32_t));
    if (v->leq.slots) memset(v->leq.slots, 0, (v->leq.mask + 1) * sizeof(Pair));
    if (v->sum.slots) memset(v->sum.slots, 0, (v->sum.mask + 1) * sizeof(Pair));
    v->leq.count = v->sum.count = 0;
    v->full = 0;
    uint32_t zero = vintern(v, NULL, 0, NULL, 0);
    if (zero == 0) v->nodes[0].canon = v->nodes[0].neg = 1;
}

/* share bytes for the value tables: a quarter each to the nodes (with their index), the
 * option pool and the two memos */
static void values_init(Values *v, size_t share) {
    memset(v, 0, sizeof *v);
    v->max = share / 4 / (sizeof(VNode) + 4 * sizeof(uint32_t));
    if (v->max > 0x7FFFFFF0u) v->max = 0x7FFFFFF0u;
    v->opts_max = share / 4 / sizeof(uint32_t);
    if (v->opts_max > 0xFFFFFFF0u) v->opts_max = 0xFFFFFFF0u;
    size_t slots = 16;
    while (slots * 2 * sizeof(Pair) <= share / 8) slots *= 2;
    v->leq.max = v->sum.max = slots;
    values_reset(v);
}

static u64 comp_hash(int h, int w, u64 xs, u64 os) {
    return mix(xs ^ mix(os ^ ((u64)h << 8 | (u64)w)));
}

/* the second half of a component's 128-bit content key (the first is comp_hash): mixed
 * apart from the first, so that two components sharing one half still differ in the other */
static u64 comp_hash2(int h, int w, u64 xs, u64 os) {
    u64 shape = (u64)w << 8 | (u64)h;
    return mix(os ^ 0x243F6A8885A308D3ULL ^ mix(xs + shape * 0x9E3779B97F4A7C15ULL));
}

#define INDEX_ID 0xFFFFFFFFULL /* an index slot's id bits; the others check the hash (a
                                * slot of another hash is passed over without reading its
                                * component, which is most of interning's cost) */

/* put component slot i (c) in the intern index of mask + 1 slots (open addressing) */
static void index_put(u64 *index, size_t mask, const Comp *c, size_t i) {
    size_t j = c->key[0] & mask;
    while (index[j]) j = (j + 1) & mask;
    index[j] = (c->key[0] & ~INDEX_ID) | ((u64)i + 1);
}

/* the id of component (h, w, xs, os), interned if new; -1 when the table is full */
static long intern_as(Search *s, int h, int w, u64 xs, u64 os, int selfneg);

static long intern(Search *s, int h, int w, u64 xs, u64 os) {
    return intern_as(s, h, w, xs, os, -1);
}

/* intern with selfneg (-1: not known, found here) */
static long intern_as(Search *s, int h, int w, u64 xs, u64 os, int selfneg) {
    u64 hk = comp_hash(h, w, xs, os);
    if ((s->ncomps + 1) * 2 > s->index_mask + 1) {
        size_t size = (s->index_mask + 1) * 2;
        u64 *index = calloc(size, sizeof(u64));
        if (!index) return memory_full("component table");
        for (size_t i = 0; i < s->ncomps; i++)
            if (s->comps[i].h != FREE_SLOT) index_put(index, size - 1, &s->comps[i], i);
        free(s->index);
        s->index = index;
        s->index_mask = size - 1;
    }
    size_t j = hk & s->index_mask;
    for (u64 slot; (slot = s->index[j]); j = (j + 1) & s->index_mask) {
        if ((slot ^ hk) & ~INDEX_ID) continue;
        Comp *c = &s->comps[(slot & INDEX_ID) - 1];
        if (c->xs == xs && c->os == os && c->h == h && c->w == w)
            return (long)(slot & INDEX_ID) - 1;
    }
    if (s->nlive >= s->comps_max) return memory_full("component table");
    size_t id = s->ncomps;
    if (s->free_head) {
        id = s->free_head - 1;
        s->free_head = s->comps[id].next;
    } else if (s->ncomps == s->comps_alloc) {
        size_t alloc = s->comps_alloc ? s->comps_alloc * 2 : 1024;
        if (alloc > s->comps_max) alloc = s->comps_max;
        Comp *comps = realloc(s->comps, alloc * sizeof(Comp));
        if (!comps) return memory_full("component table");
        s->comps = comps;
        s->comps_alloc = alloc;
    }
    if (id == s->ncomps) s->ncomps++;
    s->nlive++;
    s->index[j] = (hk & ~INDEX_ID) | ((u64)id + 1);
    Comp *c = &s->comps[id];
    memset(c, 0, sizeof *c);
    c->xs = xs, c->os = os, c->h = (uint8_t)h, c->w = (uint8_t)w;
    c->key[0] = hk;
    c->key[1] = comp_hash2(h, w, xs, os);
    for (int k = 0; k < 4; k++) c->killer[k] = -1;
    if (h == 0) { /* a value part: G = -G when its negative is known to be itself */
        uint32_t v = (uint32_t)xs;
        c->value = v + 1;
        c->selfneg = s->v.nodes[v].neg == v + 1;
        c->outcome = (uint8_t)(4 | !vleq(&s->v, v, 0) | !vleq(&s->v, 0, v) << 1);
        return (long)id;
    }
    c->selfneg = 0; /* the least image of its colour swap is its own least image */
    if (selfneg >= 0) {
        c->selfneg = (uint8_t)selfneg;
        return (long)id;
    }
    int first = h > w ? 4 : 0, last = h < w ? 4 : 8;
    u64 own[3] = {0, 0, 0}, swap[3] = {0, 0, 0};
    for (int k = first; k < last; k++) {
        u64 a = permuted(xs, h, w, k), b = permuted(os, h, w, k);
        u64 mine[3] = {a, b, 0}, other[3] = {b, a, 0};
        if (k == first || triple_less(mine, own)) memcpy(own, mine, sizeof own);
        if (k == first || triple_less(other, swap)) memcpy(swap, other, sizeof swap);
    }
    c->selfneg = own[0] == swap[0] && own[1] == swap[1];
    return (long)id;
}

static const uint32_t *pool_store(Search *s, uint32_t id, int left, uint32_t count,
                                  const uint32_t *data, const uint32_t *t, uint32_t nd,
                                  const uint8_t *score);
static const uint32_t *value_moves(Search *s, uint32_t id, int left);

/* the move list of plain component id for Left (left) or Right, made if not cached: a
 * pointer into the pool, valid until the next call; NULL on error */
static const uint32_t *moves_of(Search *s, uint32_t id, int left) {
    Comp *cp = &s->comps[id];
    if (cp->moves[left] && cp->stamp[left] == s->pool_gen) return s->pool + cp->moves[left] - 1;
    if (!cp->h) return value_moves(s, id, left);
    int h = cp->h, w = cp->w;
    u64 xs = cp->xs, os = cp->os;
    Frame f = frame(CLOBBER, h, w);
    u64 mine = left ? xs : os, theirs = left ? os : xs;
    uint32_t *t = s->tmp;
    uint32_t count = 0, data[4 * 64 + 1], nd = 0; /* (a region has at most 64 cells) */
    uint8_t score[4 * 64];
    for (u64 m = mine; m; m &= m - 1) {
        u64 low = m & (~m + 1);
        u64 targets[4] = {shr(low, w), shl(low, w), (low & f.not_first) >> 1,
                          (low & f.not_last) << 1};
        for (int d = 0; d < 4; d++) {
            u64 hit = targets[d] & theirs;
            if (!hit) continue;
            u64 nm = mine ^ low ^ hit, nt = theirs ^ hit;
            u64 ax = left ? nm : nt, ao = left ? nt : nm, cells = ax | ao;
            score[count] = 0;
            data[count++] = nd;
            while (cells) {
                u64 part = region(&f, cells & (~cells + 1), cells);
                cells ^= part;
                u64 px = ax & part, po = ao & part;
                if (!px || !po) continue;
                int stones = __builtin_popcountll(part);
                if (stones > score[count - 1]) score[count - 1] = (uint8_t)stones;
                int nh, nw, ih, iw;
                u64 n[3], best[3];
                trim(&f, px, po, 0, &nh, &nw, n);
                int selfneg;
                int negative = least_image(nh, nw, n[0], n[1], 0, &ih, &iw, best, &selfneg);
                long c = intern_as(s, ih, iw, best[0], best[1], selfneg);
                if (c < 0) return NULL;
                if (nd >= MOVES_TMP) {
                    memory_full("move buffer");
                    return NULL;
                }
                t[nd++] = (uint32_t)c * 2 + (uint32_t)negative;
            }
        }
    }
    data[count] = nd;
    return pool_store(s, id, left, count, data, t, nd, score);
}

/* the j-th of m indices from the middle outwards: m / 2, m / 2 - 1, m / 2 + 1, ... */
static int middle(int t, int m) {
    int mid = m / 2, r = m - 1 - mid;
    if (t == 0) return mid;
    if (t <= 2 * r) return t & 1 ? mid - (t + 1) / 2 : mid + t / 2;
    return mid - t + r;
}

/* store a move list (count moves, data[0..count] offsets into t[0..nd)) in the pool as
 * component id's for left, in the order the search tries them: by score ascending (the most
 * stones in one part after the move: the moves that cut the region up most first; 3x8 1.6
 * million nodes against 3.2 with the list's own order, 2x12 0.24 against 0.93), ties (all
 * of them when score is NULL) from the middle of the list outwards; a pointer to it, or
 * NULL on error */
static const uint32_t *pool_store(Search *s, uint32_t id, int left, uint32_t count,
                                  const uint32_t *data, const uint32_t *t, uint32_t nd,
                                  const uint8_t *score) {
    Comp *cp;
    size_t size = 2 + count + nd;
    if (s->pool_len + size > s->pool_alloc) {
        if (s->pool_len + size <= s->pool_cap) {
            size_t alloc = s->pool_alloc ? s->pool_alloc * 2 : 1 << 16;
            while (alloc < s->pool_len + size) alloc *= 2;
            if (alloc > s->pool_cap) alloc = s->pool_cap;
            uint32_t *pool = realloc(s->pool, alloc * sizeof(uint32_t));
            if (!pool) {
                memory_full("move cache");
                return NULL;
            }
            s->pool = pool;
            s->pool_alloc = alloc;
        } else {
            if (size > s->pool_alloc) {
                memory_full("move cache");
                return NULL;
            }
            s->pool_len = 0; /* every cached list is dropped: a new generation */
            s->pool_gen++;
        }
    }
    uint32_t *out = s->pool + s->pool_len, *order = out + 1, *parts = out + 2 + count, q = 0;
    out[0] = count;
    for (uint32_t a = 0; a < count; a++) { /* (stable: by score, then middle first) */
        uint32_t j = (uint32_t)middle((int)a, (int)count), b = a;
        for (; score && b > 0 && score[order[b - 1]] > score[j]; b--) order[b] = order[b - 1];
        order[b] = j;
    }
    for (uint32_t a = 0; a < count; a++) { /* each move's parts; its offset over its index */
        uint32_t j = order[a];
        order[a] = q;
        for (uint32_t k = data[j]; k < data[j + 1]; k++) parts[q++] = t[k];
    }
    order[count] = q;
    cp = &s->comps[id]; /* (interning may have moved the array) */
    cp->moves[left] = (uint32_t)s->pool_len + 1;
    cp->stamp[left] = s->pool_gen;
    s->pool_len += size;
    return out;
}

/* insert signed id p into the sorted state st[0..n), or cancel it with its negation (of a
 * component equal to minus itself, another copy); the new length, or -1 past MAX_PARTS */
static int put(const Search *s, uint32_t *st, int n, uint32_t p) {
    uint32_t minus = s->comps[p >> 1].selfneg ? p : p ^ 1;
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (st[mid] < minus) lo = mid + 1;
        else hi = mid;
    }
    if (lo < n && st[lo] == minus) {
        memmove(st + lo, st + lo + 1, (size_t)(n - lo - 1) * sizeof(uint32_t));
        return n - 1;
    }
    if (n >= MAX_PARTS) return -1;
    lo = 0, hi = n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (st[mid] < p) lo = mid + 1;
        else hi = mid;
    }
    memmove(st + lo + 1, st + lo, (size_t)(n - lo) * sizeof(uint32_t));
    st[lo] = p;
    return n + 1;
}

/* the signed id of the value part of canonical value x: the part of x or of -x, whichever
 * has the smaller id (so that G and -G cancel in a state); -1 on error */
static long value_part(Search *s, uint32_t x) {
    uint32_t n = vneg(&s->v, x);
    int minus = n != VFAIL && n < x;
    long c = intern(s, 0, 0, minus ? n : x, 0);
    if (c < 0) return -1;
    if (n == x) s->comps[c].selfneg = 1;
    return c * 2 + minus;
}

/* the move list of value part id for left: one move per option of its value, to that
 * option's value part (or to nothing for the option 0); NULL on error */
static const uint32_t *value_moves(Search *s, uint32_t id, int left) {
    uint32_t x = (uint32_t)s->comps[id].xs;
    uint32_t m = left ? s->v.nodes[x].nl : s->v.nodes[x].nr, nd = 0;
    uint32_t *data = malloc((2 * (size_t)m + 1) * sizeof(uint32_t)), *t = data + m + 1;
    if (!data) {
        PyErr_NoMemory();
        return NULL;
    }
    for (uint32_t k = 0; k < m; k++) {
        const VNode *g = &s->v.nodes[x]; /* (read afresh: value_part may move the pool) */
        uint32_t o = s->v.opts[g->off + (left ? 0 : g->nl) + k];
        data[k] = nd;
        if (!o) continue;
        long p = value_part(s, o);
        if (p < 0) {
            free(data);
            return NULL;
        }
        t[nd++] = (uint32_t)p;
    }
    data[m] = nd;
    const uint32_t *out = pool_store(s, id, left, m, data, t, nd, NULL);
    free(data);
    return out;
}

static int settle(Search *s);

static int stones_of(const Comp *cp) { return __builtin_popcountll(cp->xs | cp->os); }

/* The values of components by their contents, beside the component table: a collection
 * forgets the components (and the values kept on them), not these, so that a component met
 * again after one is not valued again from its every follower (4x6 with one collection: 12%
 * more nodes than with none without these, 3% with them). A slot: a, and b's high half, of
 * the component's content key (96 bits, so that two components are taken for one with odds
 * under 10^-20 per lookup), b's low half 1 + the value's id. Open addressing, at most half
 * full, doubled as it fills up to known_max slots; then full, it takes no more (a full
 * table only stops remembering). */
static uint32_t known_value(const Search *s, const Comp *c) {
    if (!s->known) return VFAIL;
    for (size_t j = c->key[0] & s->known_mask; s->known[j].b; j = (j + 1) & s->known_mask)
        if (s->known[j].a == c->key[0] && (s->known[j].b >> 32) == (c->key[1] >> 32))
            return (uint32_t)s->known[j].b - 1;
    return VFAIL;
}

/* put slot x in the first free slot from its key's on (open addressing, mask + 1 slots) */
static void known_place(Slot *slots, size_t mask, Slot x) {
    size_t j = x.a & mask;
    while (slots[j].b) j = (j + 1) & mask;
    slots[j] = x;
}

static void known_put(Search *s, const Comp *c, uint32_t value) {
    if (!s->known || (s->known_count + 1) * 2 > s->known_mask + 1) {
        size_t size = s->known ? (s->known_mask + 1) * 2 : 1 << 14;
        Slot *slots = size <= s->known_max ? calloc(size, sizeof(Slot)) : NULL;
        if (!slots) return; /* (full: nothing more is remembered) */
        for (size_t i = 0; s->known && i <= s->known_mask; i++)
            if (s->known[i].b) known_place(slots, size - 1, s->known[i]);
        free(s->known);
        s->known = slots;
        s->known_mask = size - 1;
    }
    Slot x = {c->key[0], (c->key[1] & ~(u64)0xFFFFFFFF) | ((u64)value + 1)};
    known_place(s->known, s->known_mask, x);
    s->known_count++;
}

/* the canonical value of plain component c (at most value_stones stones): {the sums of the
 * values of the parts after each Left move | the same for Right}, made canonical; kept on
 * the component. The id, -2 when not valued (too big, or the value tables are full), -1 on
 * error. Recurses once per stone (the parts after a move are smaller). */
static long comp_value(Search *s, uint32_t c) {
    Comp *cp = &s->comps[c];
    if (cp->value) return (long)cp->value - 1;
    if (s->v.full || stones_of(cp) > s->value_stones) return -2;
    uint32_t known = known_value(s, cp);
    if (known != VFAIL) {
        cp->value = known + 1;
        return (long)known;
    }
    if (s->nlive > s->comps_max / 8 * 7) return -2; /* (the rest left to the search) */
    if (++s->nodes - s->charged >= s->every && settle(s) < 0) return -1; /* (a node too) */
    uint32_t *list[2] = {NULL, NULL}, *opts[2] = {NULL, NULL}, count[2] = {0, 0};
    long result = -2;
    for (int left = 0; left < 2; left++) {
        const uint32_t *ml = moves_of(s, c, left);
        if (!ml) {
            result = -1;
            goto done;
        }
        size_t size = 2 + ml[0] + ml[1 + ml[0]];
        list[left] = malloc(size * sizeof(uint32_t));
        opts[left] = malloc((ml[0] + 1) * sizeof(uint32_t));
        if (!list[left] || !opts[left]) {
            PyErr_NoMemory();
            result = -1;
            goto done;
        }
        memcpy(list[left], ml, size * sizeof(uint32_t));
        count[left] = ml[0];
    }
    for (int left = 0; left < 2; left++) {
        const uint32_t *off = list[left] + 1, *data = list[left] + 2 + count[left];
        for (uint32_t j = 0; j < count[left]; j++) {
            uint32_t sum = 0;
            for (uint32_t q = off[j]; q < off[j + 1]; q++) {
                long pv = comp_value(s, data[q] >> 1);
                if (pv < 0) {
                    result = pv;
                    goto done;
                }
                uint32_t x = (uint32_t)pv;
                if (data[q] & 1) x = vneg(&s->v, x);
                if (x == VFAIL || (sum = vadd(&s->v, sum, x)) == VFAIL) goto done;
            }
            opts[left][j] = sum;
        }
    }
    uint32_t g = vcanon(&s->v, opts[1], (int)count[1], opts[0], (int)count[0]);
    if (g != VFAIL) {
        s->comps[c].value = g + 1;
        known_put(s, &s->comps[c], g);
        result = g;
    }
done:
    for (int left = 0; left < 2; left++) {
        free(list[left]);
        free(opts[left]);
    }
    return result;
}

/* the state st[0..n) with each component of at most value_stones stones replaced by its
 * value, the values 0 dropped, and the values summed into one value part while the
 * birthdays of the two summed add up to at most value_birth (else kept apart); the new
 * length (st rewritten, sorted), or -1 on error. Uses st + MAX_PARTS as scratch. */
static int normalize(Search *s, uint32_t *st, int n) {
    uint32_t *out = st + MAX_PARTS, acc = 0;
    int k = 0;
    for (int i = 0; i < n; i++) {
        uint32_t p = st[i];
        Comp *cp = &s->comps[p >> 1];
        long v;
        if (!cp->h) v = (long)cp->value - 1;
        else if (stones_of(cp) > s->value_stones) v = -2;
        else if ((v = comp_value(s, p >> 1)) == -1) return -1;
        uint32_t x = v < 0 ? VFAIL : (uint32_t)v;
        if (x != VFAIL && (p & 1)) x = vneg(&s->v, x);
        if (x == VFAIL) {
            out[k++] = p;
            continue;
        }
        if (x == 0) continue;
        if (acc == 0) {
            acc = x;
            continue;
        }
        if (s->v.nodes[acc].birth + s->v.nodes[x].birth <= s->value_birth) {
            uint32_t t = vadd(&s->v, acc, x);
            if (t != VFAIL) {
                acc = t;
                continue;
            }
        }
        long q = value_part(s, x);
        if (q < 0) return -1;
        out[k++] = (uint32_t)q;
    }
    if (acc) {
        long q = value_part(s, acc);
        if (q < 0) return -1;
        out[k++] = (uint32_t)q;
    }
    int m = 0;
    for (int i = 0; i < k; i++) m = put(s, st, m, out[i]);
    return m;
}

#define MINUS_KEY 0xD6E8FEB86659FD93ULL /* xored into a part's key when it is minus a comp */

/* the 128-bit key of the state of n signed parts with the player to move: per part its
 * component's content key (a value part's by its value, minus taken as the negative's own
 * value when known; a part that is its own negative unsigned), mixed, and summed (the key
 * is the multiset's, whatever the parts' order or ids). Right to move in S is keyed as Left
 * to move in -S (the same question with the colours swapped: the mover wins one iff the
 * other), so that a state and its colour swap share their answer. */
static Key state_key(const Search *s, const uint32_t *st, int n, int left) {
    Key k = {0, 0};
    for (int i = 0; i < n; i++) {
        const Comp *c = &s->comps[st[i] >> 1];
        int minus = ((st[i] & 1) ^ !left) && !c->selfneg;
        u64 a = c->key[0], b = c->key[1];
        if (!c->h && minus && s->v.nodes[c->xs].neg) { /* -V as the value part of -V */
            u64 v = s->v.nodes[c->xs].neg - 1;
            a = comp_hash(0, 0, v, 0), b = comp_hash2(0, 0, v, 0), minus = 0;
        }
        if (minus) a ^= MINUS_KEY, b ^= MINUS_KEY;
        k.a += mix(a);
        k.b += mix(b ^ 0x9E3779B97F4A7C15ULL);
    }
    return k;
}

#define SLOT_CHECK (~(u64)0xFFFF) /* the bits of a slot's b that hold the key */

static Slot *bucket_of(const Table *t, Key k) {
    return t->slots + (k.a & (t->nbuckets - 1)) * BUCKET;
}

/* is slot x in use and of key k? */
static int slot_is(const Slot *x, Key k) {
    return (x->b & 1) && x->a == k.a && ((x->b ^ k.b) & SLOT_CHECK) == 0;
}

/* the work of the search whose answer slot x holds (see work_of) */
static u64 slot_work(const Slot *x) { return x->b >> 8 & 0xFF; }

/* the stored answer of a state (1: the mover wins, 0: loses), or -1 */
static int tt_find(const Search *s, Key k) {
    if (!s->tt.slots) return -1;
    const Slot *b = bucket_of(&s->tt, k);
    for (int i = 0; i < BUCKET; i++)
        if (slot_is(&b[i], k)) return (int)(b[i].b >> 1 & 1);
    return -1;
}

#define FIRST_BUCKETS ((size_t)1 << 12)

static Slot *slots_new(size_t nbuckets) {
    void *p = NULL;
    size_t size = nbuckets * BUCKET * sizeof(Slot);
    if (posix_memalign(&p, 64, size) != 0) return NULL;
    memset(p, 0, size);
    return p;
}

/* double the table, its slots kept (an old bucket's slots go to the two buckets it splits
 * into, so they fit); 0, or -1 when the memory is not there (the table then stays as is) */
static int tt_grow(Table *t) {
    size_t n = t->nbuckets * 2;
    Slot *slots = slots_new(n);
    if (!slots) return -1;
    for (size_t i = 0; i < t->nbuckets * BUCKET; i++) {
        if (!(t->slots[i].b & 1)) continue;
        Slot *b = slots + (t->slots[i].a & (n - 1)) * BUCKET;
        int j = 0;
        while (b[j].b & 1) j++;
        b[j] = t->slots[i];
    }
    free(t->slots);
    t->slots = slots;
    t->nbuckets = n;
    return 0;
}

/* the rank of a subtree of `nodes` nodes: its bit length (a slot of less work is replaced
 * first) */
static u64 work_of(unsigned long long nodes) { return (u64)(64 - __builtin_clzll(nodes | 1)); }

/* store the answer of a state whose search expanded `nodes` nodes: in its bucket's slot of
 * the same key, else a free one, else the one of least work (so the answers that took long
 * stay, whatever their age). The table is made at its first use and doubled while three
 * quarters full and under its most: memory is taken as the search needs it, not reserved
 * at once (the process's ceiling counts what is reserved). 0, or -1 on error. */
static int tt_store(Search *s, Key k, int wins, unsigned long long nodes) {
    Table *t = &s->tt;
    if (!t->slots) {
        t->nbuckets = t->max_buckets < FIRST_BUCKETS ? t->max_buckets : FIRST_BUCKETS;
        if (!(t->slots = slots_new(t->nbuckets))) return memory_full("transposition table");
    }
    if ((t->count + 1) * 4 > t->nbuckets * BUCKET * 3 && t->nbuckets < t->max_buckets &&
        tt_grow(t) < 0)
        t->max_buckets = t->nbuckets; /* no memory to grow: replace from now on */
    Slot *b = bucket_of(t, k), *slot = NULL;
    u64 check = k.b & SLOT_CHECK, work = work_of(nodes);
    for (int i = 0; i < BUCKET && !slot; i++)
        if (slot_is(&b[i], k)) slot = &b[i];
    if (slot) {
        if (slot_work(slot) > work) work = slot_work(slot);
    } else {
        for (int i = 0; i < BUCKET && !slot; i++)
            if (!(b[i].b & 1)) slot = &b[i], t->count++;
        if (!slot) { /* full: the least work goes */
            slot = &b[0];
            for (int i = 1; i < BUCKET; i++)
                if (slot_work(&b[i]) < slot_work(slot)) slot = &b[i];
        }
    }
    slot->a = k.a;
    slot->b = check | work << 8 | (u64)(wins ? 2 : 0) | 1;
    s->stored++;
    return 0;
}

/* charge the nodes expanded since the last charge; check signals: 0, or -1 (raised) */
static int settle(Search *s) {
    if (PyErr_CheckSignals() < 0) return -1;
    unsigned long long n = s->nodes - s->charged;
    s->charged = s->nodes;
    if (s->charge && n) {
        PyObject *done = PyObject_CallFunction(s->charge, "K", n);
        if (!done) return -1;
        Py_DECREF(done);
    }
    return 0;
}

static int solve(Search *s, int depth, int n, int left);

/* who wins signed component c alone, moving first: 1 Left, 2 Right (bits), or -1 error;
 * found by the search on row depth (free) once per component, and kept */
static int outcome_of(Search *s, uint32_t c, int depth) {
    int o = s->comps[c >> 1].outcome;
    if (!o) {
        uint32_t *row = s->buf + (size_t)depth * STRIDE;
        row[0] = c & ~1u;
        int lf = solve(s, depth, 1, 1);
        if (lf < 0) return -1;
        row[0] = c & ~1u;
        int rf = solve(s, depth, 1, 0);
        if (rf < 0) return -1;
        o = 4 | lf | rf << 1;
        s->comps[c >> 1].outcome = (uint8_t)o;
    }
    o &= 3;
    return c & 1 ? (o & 1) << 1 | o >> 1 : o; /* minus G: the players' roles swap */
}

/* the outcome bits (1 Left first wins, 2 Right) of the sum in row depth of n parts */
static int outcome_row(Search *s, int depth, int n) {
    uint32_t *row = s->buf + (size_t)depth * STRIDE, keep[8];
    memcpy(keep, row, (size_t)n * sizeof(uint32_t));
    int lf = solve(s, depth, n, 1);
    if (lf < 0) return -1;
    memcpy(row, keep, (size_t)n * sizeof(uint32_t));
    int rf = solve(s, depth, n, 0);
    if (rf < 0) return -1;
    return lf | rf << 1;
}

/* the outcome bits of the signed parts a[0..na) plus t[0..k), searched in row depth */
static int outcome_with(Search *s, int depth, const uint32_t *a, int na, const uint32_t *t,
                        int k) {
    uint32_t *row = s->buf + (size_t)depth * STRIDE;
    int n = 0;
    for (int i = 0; i < na; i++) n = put(s, row, n, a[i]);
    for (int i = 0; i < k; i++) n = put(s, row, n, t[i]);
    return n ? outcome_row(s, depth, n) : 0;
}

static int swap_bits(int o) { return (o & 1) << 1 | o >> 1; }

/* does the mover (left) win a normalized state the values decide: no part (the mover cannot
 * move), or one value part (by its outcome)? */
static int values_decide(const Search *s, const uint32_t *st, int n, int left) {
    if (n == 0) return 0;
    int o = s->comps[st[0] >> 1].outcome & 3;
    if (st[0] & 1) o = swap_bits(o);
    return left ? o & 1 : o >> 1;
}

/* the fingerprint of the sum of a[0..na) (and, in *nfp, of minus it): the outcomes of the
 * sum plus T for T in 0, *, up, down, up*, down*, double up and double down (Clobber's
 * values are infinitesimals: these tell many apart); -1 on error */
static int fingerprint(Search *s, int depth, const uint32_t *a, int na, int *nfp) {
    uint32_t up = s->up, down = s->up ^ 1, star = s->star;
    uint32_t tests[8][2] = {{0, 0}, {star, 0}, {up, 0}, {down, 0},
                            {up, star}, {down, star}, {up, up}, {down, down}};
    static const int sizes[8] = {0, 1, 1, 1, 2, 2, 2, 2}, minus[8] = {0, 1, 3, 2, 5, 4, 7, 6};
    int o[8], fp = 0;
    *nfp = 0;
    for (int k = 0; k < 8; k++) {
        o[k] = outcome_with(s, depth, a, na, tests[k], sizes[k]);
        if (o[k] < 0) return -1;
    }
    for (int k = 0; k < 8; k++) {
        fp |= o[k] << (2 * k);
        *nfp |= swap_bits(o[minus[k]]) << (2 * k); /* -G + T: minus (G - T) */
    }
    return fp;
}

/* a representative R (signed) equal to the sum of a[0..na), of its fingerprint fp (or minus
 * one of fingerprint nfp): G = H iff G - H is a second-player win. -1 if none of the first
 * CLASS_TRIES is, -2 on error. */
static long find_rep(Search *s, int depth, const uint32_t *a, int na, int fp, int nfp) {
    int tries = 0;
    uint32_t parts[3];
    memcpy(parts, a, (size_t)na * sizeof(uint32_t));
    for (int side = 0; side < 2; side++) {
        uint32_t r = s->bucket[side ? nfp : fp];
        for (; r && tries < CLASS_TRIES; r = s->comps[r - 1].next, tries++) {
            parts[na] = (r - 1) * 2 + (side ? 0 : 1); /* G - R, or G + R */
            int v = outcome_with(s, depth, parts, na + 1, NULL, 0);
            if (v < 0) return -2;
            if (v == 0) return (long)(r - 1) * 2 + side; /* G = R, or G = -R */
        }
    }
    return -1;
}

/* the signed id of plain component c's representative: the first component met whose
 * value equals c's (or minus it; c itself if none is found among the first CLASS_TRIES of
 * its fingerprint). -1 on error. */
static long class_of(Search *s, uint32_t c, int depth) {
    if (s->comps[c].rep) return (long)s->comps[c].rep - 1;
    s->comps[c].rep = c * 2 + 1; /* (meanwhile: itself) */
    uint32_t self = c * 2;
    int nfp, fp = fingerprint(s, depth, &self, 1, &nfp);
    if (fp < 0) return -1;
    long rep = find_rep(s, depth, &self, 1, fp, nfp);
    if (rep < -1) return -1;
    Comp *cp = &s->comps[c];
    if (rep < 0) {
        rep = (long)c * 2;
        cp->next = s->bucket[fp];
        s->bucket[fp] = c + 1;
    }
    cp->fp = (uint16_t)fp;
    cp->rep = (uint32_t)rep + 1;
    return rep;
}

/* the representative of the sum of signed a and b (two small components), remembered in
 * the pair table: a signed id, PAIR_NONE (none found), or -1 on error */
#define PAIR_NONE 0xFFFFFFFEu
static long pair_of(Search *s, uint32_t a, uint32_t b, int depth) {
    if (a > b) {
        uint32_t t = a;
        a = b, b = t;
    }
    u64 key = (u64)a << 32 | b, h = mix(key);
    if (!s->pairs) { /* (made at the first pair: boards never pair) */
        s->pairs = calloc(PAIR_MASK + 1, sizeof(Pair));
        if (!s->pairs) return memory_full("pair table");
    }
    size_t j = h & PAIR_MASK;
    for (; s->pairs[j].key; j = (j + 1) & PAIR_MASK)
        if (s->pairs[j].key == key + 1) return s->pairs[j].value;
    if (s->npairs * 2 > PAIR_MASK) { /* full: forget them all */
        memset(s->pairs, 0, (PAIR_MASK + 1) * sizeof(Pair));
        s->npairs = 0;
        j = h & PAIR_MASK;
    }
    s->pairs[j].key = key + 1;
    s->pairs[j].value = PAIR_NONE; /* (meanwhile: none) */
    s->npairs++;
    uint32_t parts[2] = {a, b};
    int nfp, fp = fingerprint(s, depth, parts, 2, &nfp);
    if (fp < 0) return -1;
    long rep = find_rep(s, depth, parts, 2, fp, nfp);
    if (rep < -1) return -1;
    uint32_t value = rep < 0 ? PAIR_NONE : (uint32_t)rep;
    for (j = h & PAIR_MASK; s->pairs[j].key; j = (j + 1) & PAIR_MASK)
        if (s->pairs[j].key == key + 1) {
            s->pairs[j].value = value;
            break;
        }
    return value;
}

/* the outcome rules of exact CGT on the state st[0..n) (n >= 2) with the mover left, using
 * the outcomes of its components up to outcome_stones stones (in cls, 255 unknown):
 *   a component of outcome P is 0 (dropped);
 *   all components L (R): Left (Right) wins whoever moves;
 *   all components > 0 for the mover (L for Left) but at most one N: the mover wins;
 *   a component g > 0 for the mover: if the mover wins the rest, the mover wins.
 * 1 or 0 if decided, 2 if not, -1 error. */
static int rules(Search *s, int depth, uint32_t *st, int n, int left) {
    uint32_t *cls = st + MAX_PARTS, *child = st + STRIDE;
    /* (a nested search's sums are small: at most 16 + 6 stones, a row a stone) */
    if (s->nesting >= NEST_MAX || depth + 40 > MAX_ROWS) return 2;
    if (s->rules & RULE_CLASS) { /* each small component by its value's representative */
        int changed = 0, cn = 0;
        for (int i = 0; i < n; i++) {
            uint32_t c = st[i] >> 1;
            Comp *cp = &s->comps[c];
            long r = st[i];
            if (cp->h && stones_of(cp) <= s->class_stones) {
                s->nesting++;
                r = class_of(s, c, depth + 1);
                s->nesting--;
                if (r < 0) return -1;
                r ^= st[i] & 1;
            }
            cls[i] = (uint32_t)r;
            changed |= cls[i] != st[i];
        }
        if (changed) {
            for (int i = 0; i < n; i++) cn = put(s, child, cn, cls[i]);
            return solve(s, depth + 1, cn, left);
        }
    }
    if (s->rules & RULE_PAIR) { /* two small components by a representative of their sum */
        for (int i = 0; i < n; i++) {
            Comp *ci = &s->comps[st[i] >> 1];
            if (!ci->h || stones_of(ci) > s->pair_stones) continue;
            for (int j = i + 1; j < n; j++) {
                Comp *cj = &s->comps[st[j] >> 1];
                if (!cj->h || stones_of(cj) > s->pair_stones) continue;
                s->nesting++;
                long r = pair_of(s, st[i], st[j], depth + 1);
                s->nesting--;
                if (r < 0) return -1;
                if (r == PAIR_NONE) continue;
                int cn = 0;
                for (int k = 0; k < n; k++)
                    if (k != i && k != j) child[cn++] = st[k];
                cn = put(s, child, cn, (uint32_t)r);
                return solve(s, depth + 1, cn, left);
            }
        }
    }
    int zeros = 0, known = 1, fuzzy = 0, good = 0, bad = 0;
    int good_side = left ? 1 : 2;
    for (int i = 0; i < n; i++) {
        if (i && st[i] == st[i - 1]) {
            cls[i] = cls[i - 1];
        } else {
            Comp *cp = &s->comps[st[i] >> 1];
            if (cp->h && stones_of(cp) > s->outcome_stones) {
                cls[i] = 255;
            } else {
                s->nesting++;
                int o = outcome_of(s, st[i], depth + 1);
                s->nesting--;
                if (o < 0) return -1;
                cls[i] = (uint32_t)o;
            }
        }
        uint32_t o = cls[i];
        if (o == 255) known = 0;
        else if (o == 0) zeros++;
        else if (o == 3) fuzzy++;
        else if (o == (uint32_t)good_side) good++;
        else bad++;
    }
    if (zeros && (s->rules & RULE_ZERO)) {
        int cn = 0;
        for (int i = 0; i < n; i++)
            if (cls[i] != 0) child[cn++] = st[i];
        return solve(s, depth + 1, cn, left);
    }
    if (known && (s->rules & RULE_STATIC) && !zeros) {
        if (good == n) return 1;   /* all > 0 for the mover */
        if (bad == n) return 0;    /* all < 0 for the mover */
        if (fuzzy == 1 && good == n - 1) return 1;
    }
    if (s->rules & RULE_DROP) {
        for (int i = 0; i < n; i++) {
            if (cls[i] != (uint32_t)good_side || (i && st[i] == st[i - 1])) continue;
            memcpy(child, st, (size_t)i * sizeof(uint32_t));
            memcpy(child + i, st + i + 1, (size_t)(n - i - 1) * sizeof(uint32_t));
            int r = solve(s, depth + 1, n - 1, left);
            if (r) return r;
        }
    }
    return 2;
}

/* Collect the component table when it is three quarters full, between two nodes of the
 * outermost search (no nested search under way, so every component id in use is in a row
 * of the search's path, in a move list, or in the representatives and pairs; the
 * transposition table names none, its states being known by their contents): the
 * components of the path's states (rows 0..depth, the last of n parts) are kept; every move
 * list, representative and pair is forgotten, and the other slots go to the free list.
 * Values are kept (they name no component). 0, or -1 on error. */
static int collect(Search *s, int depth, int n) {
    uint8_t *live = calloc(s->ncomps, 1);
    if (!live) return memory_full("component table");
    for (int d = 0; d <= depth; d++) {
        const uint32_t *row = s->buf + (size_t)d * STRIDE;
        int len = d < depth ? s->rowlen[d] : n;
        for (int i = 0; i < len; i++) live[row[i] >> 1] = 1;
    }
    live[s->star >> 1] = live[s->up >> 1] = 1;
    memset(s->index, 0, (s->index_mask + 1) * sizeof(u64));
    s->free_head = 0;
    s->nlive = 0;
    for (size_t i = s->ncomps; i-- > 0;) { /* (backwards: the free list is lowest first) */
        Comp *c = &s->comps[i];
        if (c->h == FREE_SLOT || !live[i]) {
            c->h = FREE_SLOT;
            c->next = s->free_head;
            s->free_head = (uint32_t)i + 1;
            continue;
        }
        c->rep = c->next = 0;
        c->fp = 0;
        index_put(s->index, s->index_mask, c, i);
        s->nlive++;
    }
    free(live);
    memset(s->bucket, 0, sizeof s->bucket);
    if (s->pairs) memset(s->pairs, 0, (PAIR_MASK + 1) * sizeof(Pair));
    s->npairs = 0;
    s->pool_len = 0; /* every move list names components: made again as needed */
    s->pool_gen++;
    s->collections++;
    return 0;
}

/* does the player to move (left) win the state in row depth of n parts? 1, 0, -1 error */
static int solve(Search *s, int depth, int n, int left) {
    if (n == 0) return 0;
    uint32_t *st = s->buf + (size_t)depth * STRIDE;
    if (s->nlive > s->comps_max / 4 * 3 && !s->nesting && collect(s, depth, n) < 0) return -1;
    if (s->rules & RULE_VALUE) { /* small components by their values, summed */
        if ((n = normalize(s, st, n)) < 0) return -1;
        if (n == 0 || (n == 1 && !s->comps[st[0] >> 1].h)) { /* values only: decided */
            if (++s->nodes - s->charged >= s->every && settle(s) < 0) return -1;
            return values_decide(s, st, n, left);
        }
    }
    s->rowlen[depth] = n;
    Key key = state_key(s, st, n, left);
    int found = tt_find(s, key);
    if (found >= 0) {
        s->hits++;
        return found;
    }
    unsigned long long start = s->nodes;
    if (++s->nodes - s->charged >= s->every && settle(s) < 0) return -1;
    if (depth + 2 > MAX_ROWS) return memory_full("stack");
    if (s->rules && n >= 2) {
        int r = rules(s, depth, st, n, left);
        if (r < 0) return -1;
        if (r < 2) {
            if (tt_store(s, key, r, s->nodes - start) < 0) return -1;
            return r;
        }
    }
    uint32_t *cand = st + MAX_PARTS;
    int nc = 0;
    for (int i = 0; i < n; i++) {
        if (i && st[i] == st[i - 1]) continue; /* equal components: one copy is tried */
        const uint32_t *ml = moves_of(s, st[i] >> 1, left ^ (int)(st[i] & 1));
        if (!ml) return -1;
        if (!ml[0]) continue;
        int k = nc++;
        while (k > 0 && cand[2 * (k - 1)] < ml[0]) { /* most moves first, stable */
            cand[2 * k] = cand[2 * (k - 1)];
            cand[2 * k + 1] = cand[2 * (k - 1) + 1];
            k--;
        }
        cand[2 * k] = ml[0];
        cand[2 * k + 1] = (uint32_t)i;
    }
    uint32_t *child = st + STRIDE;
    int result = 0;
    for (int k = 0; k < nc && !result; k++) {
        int i = (int)cand[2 * k + 1], m = (int)cand[2 * k];
        uint32_t c = st[i], neg = c & 1;
        int slot = (int)neg * 2 + left;
        int killer = s->comps[c >> 1].killer[slot];
        for (int t = killer >= 0 && killer < m ? -1 : 0; t < m; t++) {
            int j = t < 0 ? killer : t; /* (the list is in the order to try: pool_store) */
            if (t >= 0 && j == killer) continue;
            const uint32_t *ml = moves_of(s, c >> 1, left ^ (int)neg);
            if (!ml) return -1;
            const uint32_t *off = ml + 1, *data = ml + 2 + m;
            memcpy(child, st, (size_t)i * sizeof(uint32_t));
            memcpy(child + i, st + i + 1, (size_t)(n - i - 1) * sizeof(uint32_t));
            int cn = n - 1;
            for (uint32_t q = off[j]; q < off[j + 1]; q++) {
                cn = put(s, child, cn, data[q] ^ neg);
                if (cn < 0) return memory_full("state (too many regions)");
            }
            int r = solve(s, depth + 1, cn, !left);
            if (r < 0) return -1;
            if (!r) {
                s->comps[c >> 1].killer[slot] = (int16_t)j;
                result = 1;
                break;
            }
        }
    }
    if (tt_store(s, key, result, s->nodes - start) < 0) return -1;
    return result;
}

/* forget every component, move list, state and representative (a new search's tables);
 * 0, or -1 on error */
static int search_reset(Search *s) {
    if (!s->ncomps) goto fresh; /* (nothing to forget: the tables are as calloc left them) */
    s->ncomps = s->nlive = 0;
    s->free_head = 0;
    memset(s->index, 0, (s->index_mask + 1) * sizeof(u64));
    s->pool_len = 0;
    s->pool_gen++;
    if (s->tt.slots) memset(s->tt.slots, 0, s->tt.nbuckets * BUCKET * sizeof(Slot));
    s->tt.count = 0; /* (the values its keys name are forgotten below, and so are these) */
    if (s->known) memset(s->known, 0, (s->known_mask + 1) * sizeof(Slot));
    s->known_count = 0;
    memset(s->bucket, 0, sizeof s->bucket);
    if (s->pairs) memset(s->pairs, 0, (PAIR_MASK + 1) * sizeof(Pair));
    s->npairs = 0;
    values_reset(&s->v);
fresh:;
    long star = intern(s, 1, 2, 1, 2), up = intern(s, 1, 3, 1, 6); /* xo; xoo, minus xxo */
    if (star < 0 || up < 0) return -1;
    s->star = (uint32_t)star * 2;
    s->up = (uint32_t)up * 2 + 1;
    return 0;
}

static void search_capsule_free(PyObject *capsule) {
    search_free(PyCapsule_GetPointer(capsule, "cgframework_grids.clobber_search"));
}

static PyObject *searcher(PyObject *self, PyObject *args) {
    unsigned long long budget;
    int rule_bits = RULE_ZERO | RULE_STATIC | RULE_DROP | RULE_CLASS | RULE_PAIR;
    int outcome_stones = 16;
    int class_stones = 6, pair_stones = 4, value_stones = 10, value_birth = 24, comps_cap = 0;
    int buckets_cap = 0;
    if (!PyArg_ParseTuple(args, "K|iiiiiiii", &budget, &rule_bits, &outcome_stones,
                          &class_stones, &pair_stones, &value_stones, &value_birth, &comps_cap,
                          &buckets_cap))
        return NULL;
    if (budget < (1u << 24)) budget = 1u << 24;
    Search *s = calloc(1, sizeof(Search));
    if (!s) return PyErr_NoMemory();
    /* two fifths for the components (a full component table is collected), a tenth for
     * their move lists, a tenth for the values (a full value table only stops valuing), a
     * twentieth for the values known by content, at most seven twentieths the table */
    s->comps_max = (size_t)(budget * 2 / 5 / (sizeof(Comp) + 4 * sizeof(u64)));
    if (s->comps_max > 0xFFFFFFF0u / 2) s->comps_max = 0xFFFFFFF0u / 2;
    if (comps_cap >= 64 && (size_t)comps_cap < s->comps_max) /* (tests: collect often) */
        s->comps_max = (size_t)comps_cap;
    s->pool_cap = (size_t)(budget / 10 / sizeof(uint32_t));
    if (s->pool_cap > 0xFFFFFFF0u) s->pool_cap = 0xFFFFFFF0u;
    size_t bucket_bytes = BUCKET * sizeof(Slot), buckets = 1024; /* (doubling holds 1.5x) */
    while (buckets * 2 * bucket_bytes * 3 / 2 <= budget * 7 / 20 && buckets < ((size_t)1 << 30))
        buckets *= 2;
    if (buckets_cap >= 1 && (size_t)buckets_cap < buckets) /* (tests: replace often) */
        for (buckets = 1; buckets * 2 <= (size_t)buckets_cap;) buckets *= 2;
    s->tt.max_buckets = buckets;
    s->known_max = budget / 20 / sizeof(Slot) * 2 / 3; /* (growing holds 1.5x) */
    s->rules = rule_bits;
    s->outcome_stones = outcome_stones;
    s->class_stones = class_stones;
    s->pair_stones = pair_stones;
    s->value_stones = value_stones;
    s->value_birth = value_birth;
    s->every = 4096;
    values_init(&s->v, (size_t)(budget / 10));
    s->pool_gen = 1;
    s->index_mask = 1023;
    s->index = calloc(1024, sizeof(u64));
    s->buf = malloc((size_t)MAX_ROWS * STRIDE * sizeof(uint32_t));
    if (!s->index || !s->buf || !s->v.n) {
        search_free(s);
        return PyErr_NoMemory();
    }
    if (search_reset(s) < 0) {
        search_free(s);
        return NULL;
    }
    PyObject *capsule = PyCapsule_New(s, "cgframework_grids.clobber_search", search_capsule_free);
    if (!capsule) search_free(s);
    return capsule;
}

/* the region of token item ((h, w, xs, os, es), sign) of the Python side, interned: its
 * signed id; ID_ZERO for a one-colour region (0), ID_DECLINED when it is not a region these
 * searches take (empty cells, over 64 cells, overlapping colours), -1 on error */
#define ID_ZERO (-2)
#define ID_DECLINED (-3)
static long region_of(Search *s, PyObject *item) {
    int h, w, sign;
    unsigned long long x, o, e;
    if (!PyArg_ParseTuple(item, "(iiKKK)i", &h, &w, &x, &o, &e, &sign)) return -1;
    if (h < 1 || w < 1 || h * w > 64 || e || (x & o) || ((x | o) & ~ones_of(h * w)))
        return ID_DECLINED;
    if (!x || !o) return ID_ZERO;
    long c = intern(s, h, w, x, o);
    return c < 0 ? -1 : c * 2 + (sign < 0);
}

/* row 0 of the search's buffer: the state of the sum of tokens comps, after a component
 * table three quarters full is collected (between two questions nothing is on the search's
 * path; the transposition table and the values, known by content, are kept, even when the
 * value table is full: valuing then stops, the search goes on without it; a certificate's
 * writer asks many questions after the solve whose answers are there, and forgetting them
 * made it solve each again from the start). The number of parts, ID_DECLINED when the sum is
 * not one these searches take, -1 on error. */
static int read_state(Search *s, PyObject *comps) {
    PyObject *seq = PySequence_Fast(comps, "comps must be a sequence");
    if (!seq) return -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    int n = 0, stones = 0;
    if (s->nlive > s->comps_max / 4 * 3 && collect(s, -1, 0) < 0) n = -1;
    for (Py_ssize_t i = 0; i < count && n >= 0; i++) {
        long p = region_of(s, PySequence_Fast_GET_ITEM(seq, i));
        if (p == ID_ZERO) continue;
        if (p == -1) n = -1;
        else if (p == ID_DECLINED) n = ID_DECLINED;
        else if ((stones += stones_of(&s->comps[p >> 1])) > MAX_STONES) n = ID_DECLINED;
        else if ((n = put(s, s->buf, n, (uint32_t)p)) < 0) n = ID_DECLINED;
    }
    Py_DECREF(seq);
    return n;
}

static PyObject *wins(PyObject *self, PyObject *args) {
    PyObject *capsule, *comps, *charge;
    int left;
    unsigned long long every;
    if (!PyArg_ParseTuple(args, "OOpOK", &capsule, &comps, &left, &charge, &every)) return NULL;
    Search *s = PyCapsule_GetPointer(capsule, "cgframework_grids.clobber_search");
    if (!s) return NULL;
    int n = read_state(s, comps);
    if (n == -1) return NULL;
    if (n == ID_DECLINED) Py_RETURN_NONE; /* not a sum this search takes */
    s->charge = charge == Py_None ? NULL : charge;
    s->every = every ? every : 1;
    int r = solve(s, 0, n, left);
    if (r >= 0 && settle(s) < 0) r = -1;
    s->charged = s->nodes;
    s->charge = NULL;
    if (r < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "clobber search failed");
        return NULL;
    }
    return PyBool_FromLong(r);
}

/* what the search knows, without searching, of the question wins() would answer: the
 * transposition table's answer, or the values' when they decide the sum; None else */
static PyObject *known(PyObject *self, PyObject *args) {
    PyObject *capsule, *comps;
    int left;
    if (!PyArg_ParseTuple(args, "OOp", &capsule, &comps, &left)) return NULL;
    Search *s = PyCapsule_GetPointer(capsule, "cgframework_grids.clobber_search");
    if (!s) return NULL;
    int n = read_state(s, comps);
    if (n == -1) return NULL;
    if (n == ID_DECLINED) Py_RETURN_NONE;
    uint32_t *st = s->buf;
    if (n > 0 && (s->rules & RULE_VALUE) && (n = normalize(s, st, n)) < 0) return NULL;
    if (n == 0 || ((s->rules & RULE_VALUE) && n == 1 && !s->comps[st[0] >> 1].h))
        return PyBool_FromLong(values_decide(s, st, n, left));
    int found = tt_find(s, state_key(s, st, n, left));
    if (found < 0) Py_RETURN_NONE;
    return PyBool_FromLong(found);
}

static PyObject *stats(PyObject *self, PyObject *args) {
    PyObject *capsule;
    if (!PyArg_ParseTuple(args, "O", &capsule)) return NULL;
    Search *s = PyCapsule_GetPointer(capsule, "cgframework_grids.clobber_search");
    if (!s) return NULL;
    return Py_BuildValue("(KKKKK)", s->nodes, s->hits, (unsigned long long)s->nlive,
                         s->stored, s->collections);
}

/* ---- debug entry points (tests): values as nested option tuples ((lefts), (rights)) ---- */

static PyObject *vtuple(Values *v, uint32_t a) {
    const VNode *g = &v->nodes[a];
    PyObject *sides[2] = {PyTuple_New(g->nl), PyTuple_New(g->nr)};
    if (!sides[0] || !sides[1]) goto fail;
    for (int k = 0; k < g->nl + g->nr; k++) {
        PyObject *o = vtuple(v, v->opts[g->off + k]);
        if (!o) goto fail;
        PyTuple_SET_ITEM(sides[k >= g->nl], k >= g->nl ? k - g->nl : k, o);
    }
    return Py_BuildValue("(NN)", sides[0], sides[1]);
fail:
    Py_XDECREF(sides[0]);
    Py_XDECREF(sides[1]);
    return NULL;
}

/* the canonical id of nested tuple obj (at most 64 deep); VFAIL with an exception set */
static uint32_t vfrom(Values *v, PyObject *obj, int depth) {
    if (depth > 64) {
        PyErr_SetString(PyExc_ValueError, "a game nested too deep");
        return VFAIL;
    }
    PyObject *l, *r;
    if (!PyArg_ParseTuple(obj, "OO", &l, &r)) return VFAIL;
    PyObject *sides[2] = {PySequence_Fast(l, "options"), NULL};
    if (!sides[0] || !(sides[1] = PySequence_Fast(r, "options"))) {
        Py_XDECREF(sides[0]);
        return VFAIL;
    }
    Py_ssize_t nl = PySequence_Fast_GET_SIZE(sides[0]), nr = PySequence_Fast_GET_SIZE(sides[1]);
    uint32_t *buf = malloc((size_t)(nl + nr + 1) * sizeof(uint32_t)), result = VFAIL;
    if (!buf) PyErr_NoMemory();
    for (Py_ssize_t k = 0; buf && k < nl + nr; k++) {
        PyObject *o = PySequence_Fast_GET_ITEM(sides[k >= nl], k >= nl ? k - nl : k);
        if ((buf[k] = vfrom(v, o, depth + 1)) == VFAIL) goto done;
    }
    if (buf && (result = vcanon(v, buf, (int)nl, buf + nl, (int)nr)) == VFAIL)
        PyErr_SetString(PyExc_MemoryError, "the value tables are full");
done:
    free(buf);
    Py_DECREF(sides[0]);
    Py_DECREF(sides[1]);
    return result;
}

static PyObject *board_value(PyObject *self, PyObject *args) {
    PyObject *capsule, *comps;
    if (!PyArg_ParseTuple(args, "OO", &capsule, &comps)) return NULL;
    Search *s = PyCapsule_GetPointer(capsule, "cgframework_grids.clobber_search");
    if (!s) return NULL;
    PyObject *seq = PySequence_Fast(comps, "comps must be a sequence");
    if (!seq) return NULL;
    uint32_t sum = 0;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        long p = region_of(s, PySequence_Fast_GET_ITEM(seq, i));
        if (p == ID_ZERO) continue;
        if (p == ID_DECLINED) {
            Py_DECREF(seq);
            Py_RETURN_NONE;
        }
        long v = p < 0 ? -1 : comp_value(s, (uint32_t)p >> 1);
        if (v == -1) {
            Py_DECREF(seq);
            return NULL;
        }
        uint32_t g = v < 0 ? VFAIL : (uint32_t)v;
        if (g != VFAIL && (p & 1)) g = vneg(&s->v, g);
        if (g == VFAIL || (sum = vadd(&s->v, sum, g)) == VFAIL) {
            Py_DECREF(seq);
            Py_RETURN_NONE; /* past value_stones, or the tables are full */
        }
    }
    Py_DECREF(seq);
    return vtuple(&s->v, sum);
}

static PyObject *value_op(PyObject *self, PyObject *args) {
    PyObject *capsule, *a, *b = Py_None;
    const char *op;
    if (!PyArg_ParseTuple(args, "OsO|O", &capsule, &op, &a, &b)) return NULL;
    Search *s = PyCapsule_GetPointer(capsule, "cgframework_grids.clobber_search");
    if (!s) return NULL;
    uint32_t x = vfrom(&s->v, a, 0), y = 0, r;
    if (x == VFAIL) return NULL;
    if (b != Py_None && (y = vfrom(&s->v, b, 0)) == VFAIL) return NULL;
    if (!strcmp(op, "leq")) return PyBool_FromLong(vleq(&s->v, x, y));
    if (!strcmp(op, "canon")) r = x;
    else if (!strcmp(op, "neg")) r = vneg(&s->v, x);
    else if (!strcmp(op, "add")) r = vadd(&s->v, x, y);
    else return PyErr_Format(PyExc_ValueError, "unknown operation %s", op);
    if (r == VFAIL) return PyErr_Format(PyExc_MemoryError, "the value tables are full");
    return vtuple(&s->v, r);
}

static PyMethodDef methods[] = {
    {"options", options, METH_VARARGS,
     "options(rule, h, w, xs, os, es, left, signed) -> for each move, the tuple of its "
     "live regions' tokens (mask_keys.option_keys), with signed as (key, sign) pairs."},
    {"fold", fold, METH_VARARGS, "fold(h, w, xs, os, es) -> the token of a trimmed region."},
    {"searcher", searcher, METH_VARARGS,
     "searcher(budget[, rules, outcome_stones, class_stones, pair_stones, value_stones, "
     "value_birth, comps_cap, buckets_cap]) -> a compiled Clobber who-wins search using about "
     "budget bytes."},
    {"wins", wins, METH_VARARGS,
     "wins(search, comps, left, charge, every) -> does the mover win the sum of Clobber tokens "
     "comps (((h, w, xs, os, es), sign) pairs)? None when declined."},
    {"known", known, METH_VARARGS,
     "known(search, comps, left) -> what the search knows, without searching, of wins(search, "
     "comps, left, ...): True or False from its table (or the values), None when it would search."},
    {"board_value", board_value, METH_VARARGS,
     "board_value(search, comps) -> the canonical value of the sum of Clobber tokens comps as "
     "nested option tuples ((lefts), (rights)); None past the search's value_stones."},
    {"value_op", value_op, METH_VARARGS,
     "value_op(search, op, a[, b]) -> op of games given as nested option tuples: 'leq' (a <= b), "
     "'add', 'neg' or 'canon' (a tuple)."},
    {"stats", stats, METH_VARARGS,
     "stats(search) -> (nodes, table hits, components, states stored)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_k_masks", "Search keys of Clobber and Amazons in C (mask_keys.py).",
    -1, methods,
};

/* Raised whenever what mask_keys.py calls here changes: a stale build is then not loaded. */
#define API_VERSION 7

PyMODINIT_FUNC PyInit__k_masks(void) {
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddIntConstant(m, "API_VERSION", API_VERSION) < 0) Py_CLEAR(m);
    return m;
}
