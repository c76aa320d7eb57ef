"""Search keys of Clobber and Amazons on bit masks: a region's options' regions found and
folded over the eight symmetries and the swap of colours, without strings.

A key is ``(h, w, xs, os, es)``: a trimmed region of ``h`` rows and ``w`` columns whose cell
``r * w + c`` is bit ``r * w + c`` of ``xs`` (Left's stones or amazons), ``os`` (Right's) or
``es`` (empty cells; always 0 in Clobber, where empty cells never matter; in Amazons a cell in
none of the three is burned or outside the region). Swapping the colours negates the value of
both games (the players' moves are the same, mirrored), so a region's token is the least
image ``(xs, os, es)`` over the symmetries of the rectangle (in the flatter orientation:
``h <= w``) of the board *or* of its colour swap; the swap's is written with ``-1``
appended, ``(h, w, xs, os, es, -1)``, and stands for minus that key's value (the
``negated_key`` protocol of the core's key searches). A region equal to minus itself under
some symmetry gets a plain key.

Clobber's regions are the 4-connected groups of stones with stones of both colours; Amazons'
the 8-connected groups of unburned cells with an amazon and an empty cell (the rulesets'
``components``). The compiled twin (``_k_masks.c``) does the same on 64-bit masks; this module
is the reference and the path without a compiler (``tests/test_mask_keys.py``).
"""

from __future__ import annotations

from functools import cache

from cgframework import Player
from cgframework.runtime.compiled import load_kernel, pure_python
from cgframework_grids.grid import rays

MaskKey = tuple[int, int, int, int, int]
NegatedMaskKey = tuple[int, int, int, int, int, int]
Token = MaskKey | NegatedMaskKey

CLOBBER, AMAZONS = 0, 1  # the rules (the kernel's too)

#: The compiled twin (``_k_masks.c``), or None: this module's Python path.
KERNEL = load_kernel("cgframework_grids._k_masks", api_version=7)

MAX_CELLS = 64
"""Most cells of a board the compiled twin takes (its masks are 64 bits); the Python path
takes any."""

_CACHE_LIMIT = 1_000_000


@cache
def _images(h: int, w: int) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """(height, width, cell map) of the images of an h x w board in the flatter orientation:
    the four that keep rows rows when ``h < w``, the four of the transpose when ``h > w``,
    all eight on a square. Image ``k``'s cell of ``(r, c)`` as in ``_k_masks.c``."""
    maps = [
        (h, w, lambda r, c: r * w + c),
        (h, w, lambda r, c: r * w + w - 1 - c),
        (h, w, lambda r, c: (h - 1 - r) * w + c),
        (h, w, lambda r, c: (h - 1 - r) * w + w - 1 - c),
        (w, h, lambda r, c: c * h + r),
        (w, h, lambda r, c: c * h + h - 1 - r),
        (w, h, lambda r, c: (w - 1 - c) * h + r),
        (w, h, lambda r, c: (w - 1 - c) * h + h - 1 - r),
    ]
    chosen = maps[:4] if h < w else maps[4:] if h > w else maps
    return tuple(
        (ih, iw, tuple(f(r, c) for r in range(h) for c in range(w))) for ih, iw, f in chosen
    )


def _permuted(mask: int, cells: tuple[int, ...]) -> int:
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << cells[low.bit_length() - 1]
        mask ^= low
    return out


_folds: dict[MaskKey, Token] = {}


def fold(h: int, w: int, xs: int, os: int, es: int) -> Token:
    """The token of a trimmed region (see the module docstring)."""
    found = _folds.get((h, w, xs, os, es))
    if found is not None:
        return found
    own = swap = None
    images = _images(h, w)
    for _, _, cells in images:
        a, b, e = _permuted(xs, cells), _permuted(os, cells), _permuted(es, cells)
        if own is None or (a, b, e) < own:
            own = (a, b, e)
        if swap is None or (b, a, e) < swap:
            swap = (b, a, e)
    assert own is not None and swap is not None
    ih, iw = images[0][0], images[0][1]
    found = (ih, iw, *own) if own <= swap else (ih, iw, *swap, -1)
    if len(_folds) >= _CACHE_LIMIT:
        _folds.clear()
    _folds[(h, w, xs, os, es)] = found
    return found


@cache
def _frame(h: int, w: int) -> tuple[int, int, int]:
    """(all cells, cells not in the first column, cells not in the last column)."""
    ones = (1 << (h * w)) - 1
    first = sum(1 << (r * w) for r in range(h))
    return ones, ones & ~first, ones & ~(first << (w - 1))


def region(seed: int, cells: int, h: int, w: int, diagonal: bool = False) -> int:
    """The cells of ``cells`` connected to ``seed`` (4-connected, or 8 with ``diagonal``), by
    a bit-parallel flood fill."""
    _, not_first, not_last = _frame(h, w)
    grown = seed
    while True:
        side = grown | (grown << 1 & not_first) | (grown >> 1 & not_last)
        more = side | side << w | side >> w if diagonal else side | grown << w | grown >> w
        more &= cells
        if more == grown:
            return grown
        grown = more


def trimmed(h: int, w: int, xs: int, os: int, es: int) -> MaskKey:
    """The board cut to the rows and columns that hold a cell of the region."""
    cells = xs | os | es
    row = (1 << w) - 1
    rows = [r for r in range(h) if cells >> (r * w) & row]
    column = sum(1 << (r * w) for r in range(h))
    cols = [c for c in range(w) if cells & (column << c)]
    r0, c0 = rows[0], cols[0]
    nh, nw = rows[-1] - r0 + 1, cols[-1] - c0 + 1
    if (nh, nw) == (h, w):
        return (h, w, xs, os, es)
    out = [0, 0, 0]
    for r in range(nh):
        shift = (r + r0) * w + c0
        for k, mask in enumerate((xs, os, es)):
            out[k] |= (mask >> shift & ((1 << nw) - 1)) << (r * nw)
    return (nh, nw, *out)


def regions(rule: int, h: int, w: int, xs: int, os: int, es: int) -> list[Token]:
    """The tokens of a board's live regions (the others are 0), by their lowest cell."""
    amazons = rule == AMAZONS
    cells = xs | os | es
    out = []
    while cells:
        part = region(cells & -cells, cells, h, w, amazons)
        cells ^= part
        px, po, pe = xs & part, os & part, es & part
        if ((px or po) and pe) if amazons else (px and po):
            out.append(fold(*trimmed(h, w, px, po, pe)))
    return out


def _clobber_afters(h: int, w: int, mine: int, theirs: int, es: int):
    """(mine, theirs, empty) after each move: the mover's stones in cell order, each onto
    the enemy stone up, down, left, right of it (``Clobber.moves``'s order)."""
    _, not_first, not_last = _frame(h, w)
    m = mine
    while m:
        low = m & -m
        m ^= low
        for target in (low >> w, low << w, (low & not_first) >> 1, (low & not_last) << 1):
            if theirs & target:
                yield mine ^ low ^ target, theirs ^ target, es


def _amazons_afters(h: int, w: int, mine: int, theirs: int, es: int):
    """(mine, theirs, empty) after each move, in ``Amazons.moves``'s order: amazons in cell
    order, landing cells ray by ray (``grid.rays``), then arrows ray by ray."""
    steps = rays(h, w, True)
    m = mine
    while m:
        low = m & -m
        m ^= low
        empty = es | low
        for ray in steps[low.bit_length() - 1]:
            for j in ray:
                if not empty >> j & 1:
                    break
                landed = empty ^ (1 << j)
                for shot in steps[j]:
                    for k in shot:
                        if not landed >> k & 1:
                            break
                        yield mine ^ low | 1 << j, theirs, landed ^ (1 << k)


def option_keys(rule: int, key: MaskKey, player: Player) -> list[tuple[Token, ...]]:
    """Each move's live regions' tokens, in the rulesets' ``moves`` order."""
    h, w, xs, os, es = key
    left = player is Player.LEFT
    if KERNEL is not None and h * w <= MAX_CELLS:
        return KERNEL.options(rule, h, w, xs, os, es, left, False)
    afters = _amazons_afters if rule == AMAZONS else _clobber_afters
    mine, theirs = (xs, os) if left else (os, xs)
    out = []
    for a, b, e in afters(h, w, mine, theirs, es):
        out.append(tuple(regions(rule, h, w, *((a, b) if left else (b, a)), e)))
    return out


def signed_option_keys(
    rule: int, key: MaskKey, player: Player
) -> list[tuple[tuple[MaskKey, int], ...]]:
    """:func:`option_keys` with each token as ``(key, 1)`` or ``(key, -1)`` (minus the key's
    value): the form the core's outcome search works on, made without a call per token."""
    h, w, xs, os, es = key
    if KERNEL is not None and h * w <= MAX_CELLS:
        return KERNEL.options(rule, h, w, xs, os, es, player is Player.LEFT, True)
    return [
        tuple((t[:5], -1) if len(t) == 6 else (t, 1) for t in parts)
        for parts in option_keys(rule, key, player)
    ]


def key_of(rule: int, h: int, w: int, cells: str) -> Token:
    """The token of a board of letters that is one live region (a component: ``x``, ``o``,
    ``.`` empty, else off the region); ValueError for any other board."""
    xs = os = es = 0
    for i, ch in enumerate(cells):
        if ch == "x":
            xs |= 1 << i
        elif ch == "o":
            os |= 1 << i
        elif ch == ".":
            es |= 1 << i
    if rule == CLOBBER:
        es = 0
    found = regions(rule, h, w, xs, os, es)
    every = xs | os | es
    if len(found) != 1 or every != region(every & -every, every, h, w, rule == AMAZONS):
        raise ValueError("not one live region")
    return found[0]


def negated_key(token: Token) -> MaskKey | None:
    """The key whose value ``token`` negates, or None for a key."""
    return token[:5] if len(token) == 6 else None  # type: ignore[return-value]


CHARGE_EVERY = 4096
"""Nodes the compiled search expands between two charges to the context's table (its
node budget and deadline) and two looks at the signals (Ctrl-C)."""


STRIP_SETTINGS = (39, 0, 0, 0, 20, 8)
"""The kernel's rules and size bounds on strips (every component one row): rule bits
1 drop P components, 2 the static outcome rules, 4 drop a component good for the mover,
8 a small component by its value's representative, 16 two small components by one of their
sum, 32 small components by their canonical values, summed into one value part; then the
most stones of a component whose outcome is used, given a representative, paired and
valued, and the most two value parts' birthdays may add up to for them to be summed. On
strips rules 1, 2, 4 and 32 with values to 20 stones and sums to birthday 8, outcomes of
value parts only: with values, representatives, pairs and the outcomes of bigger components
pay nothing more, and sums of bigger birthdays cost far more than they save ((xo)^26: 0.7 s
with sums to birthday 8, 4 s to 12, 400 s to 24; measured on (xo)^24 and (xo)^26:
``benchmarks/RESULTS.md``)."""

TWO_ROW_SETTINGS = (39, 0, 0, 0, 12, 8)
"""The same on boards of two rows (every component at most two high): values to 12 stones
(whole ``cgf solve clobber checker:2xN --outcome --no-moves`` processes, CPU s with values
to 12 / 10 stones: 2x15 36.7 / 48.1, 2x16 51.6 / 68.1); the rest as on strips."""

BOARD_SETTINGS = (39, 0, 0, 0, 10, 8)
"""The same on other boards: values to 10 stones. With moves tried by the largest part they
leave, valuing bigger components costs more than the nodes it saves there (CPU s of one
question, values to 10 / 12 stones: 3x8 6.0 / 14.0, 3x9 11.1 / 17.5, 4x6 28.7 / 59.3, 4x5
0.55 / 1.78; 9 and 11 stones between, 8 no better; on two rows the other way round); sums
to birthday 8, no representatives or pairs, outcomes of value parts only (searching those of
components of 13-16 stones cost more than it saved: 3x8 27.7 s and 4.5 million nodes
without, 32.7 s and 5.0 million with)."""


def settings_for(comps: object) -> tuple[int, ...]:
    """The kernel's settings for a search whose first question is the sum of ``comps``
    (tokens ``((h, w, xs, os, es), sign)``, h <= w): by the highest component."""
    height = max((key[0] for key, _ in comps), default=1)  # type: ignore[attr-defined]
    if height == 1:
        return STRIP_SETTINGS
    return TWO_ROW_SETTINGS if height == 2 else BOARD_SETTINGS


class CompiledWins:
    """The compiled who-wins search of Clobber sums (``_k_masks.c``'s ``wins``): the core's
    outcome search (``cgframework/solvers/outcome_search.py``, the reference) hands it
    every question whose components are all mask tokens ``((h, w, xs, os, es), sign)``.
    Its tables (components, moves, states) live as long as this object and take about
    ``memory`` bytes; every node it expands is charged to ``ctx.table`` (so
    ``--max-nodes``/``--timeout`` stop it with the usual error). Its rules are chosen at the
    first question (:func:`settings_for`)."""

    def __init__(self, kernel: object, table: object, memory: int) -> None:
        self.kernel = kernel
        self.table = table
        self.memory = memory
        self.search: object = None

    def _charge(self, count: int) -> None:
        self.table.nodes += count  # type: ignore[attr-defined]  # (may raise: a limit)

    def wins(self, comps: object, player: Player) -> bool | None:
        """Does ``player``, to move in the sum of ``comps``, win? None when the kernel
        declines (a component past 64 cells, a sum past its size limits). The table's
        ``hits`` and ``misses`` count the kernel's own, as the Python search's do."""
        kernel, table = self.kernel, self.table
        every = CHARGE_EVERY
        budget = getattr(table, "budget", None)
        if budget is not None and budget.max_nodes is not None:
            every = max(1, min(every, budget.max_nodes - table.nodes + 1))  # type: ignore[attr-defined]
        if self.search is None:
            settings = settings_for(comps)
            self.search = kernel.searcher(self.memory, *settings)  # type: ignore[attr-defined]
        nodes, hits = kernel.stats(self.search)[:2]  # type: ignore[attr-defined]
        try:
            return kernel.wins(  # type: ignore[attr-defined]
                self.search, comps, player is Player.LEFT, self._charge, every
            )
        finally:
            after, hits_after = kernel.stats(self.search)[:2]  # type: ignore[attr-defined]
            table.hits += hits_after - hits  # type: ignore[attr-defined]
            table.misses += after - nodes  # type: ignore[attr-defined]

    def known(self, comps: object, player: Player) -> bool | None:
        """What the search knows of :meth:`wins` without searching (its table's answer, or
        the values' where they decide the sum), or None."""
        if self.search is None:
            return None
        return self.kernel.known(self.search, comps, player is Player.LEFT)  # type: ignore[attr-defined]

    @property
    def nodes(self) -> int:
        """Positions the compiled search has expanded (table hits not counted)."""
        if self.search is None:
            return 0
        return self.kernel.stats(self.search)[0]  # type: ignore[attr-defined]


def compiled_wins(rule: int, table: object, memory: int) -> CompiledWins | None:
    """The compiled who-wins search for ``rule`` (Clobber only), or None without the
    kernel or with ``CGFRAMEWORK_PURE_PYTHON=1`` set (asked at each solve, so that a test
    may set it after the import)."""
    if KERNEL is None or rule != CLOBBER or pure_python():
        return None
    return CompiledWins(KERNEL, table, memory)
