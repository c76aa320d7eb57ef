"""Col by its small value algebra: every Col position is a number or a number plus ``*``
(Winning Ways, vol. 1, ch. 2, "Col"; Siegel, CGT, ch. II.3), so a value is a pair
``(x, star)`` with ``x`` a dyadic number held as an integer over ``2**order`` (a position's
birthday is at most its number of vertices, so that denominator is exact) and ``star`` 0 or
1: a sum adds the numbers and exclusive-ors the stars, and no canonical form is built
during the search.

``{G^L | G^R}`` from such options: an option whose number is below the best one of its side
is dominated (``x < y`` gives ``x, x* < y, y*``), so only the Left options with the largest
number and the Right options with the smallest matter, and the value depends only on those
numbers and which stars occur there; the core's ``game()`` gives it once per such summary
(a few hundred on a 4 x 4 grid) and it is read back with ``uptimal``. A value that is not
of the form (the theorem broken by a bug) stops the solver with an error.

The search works on the vertex masks of the position's own graph (a piece is the mask of its
vertices and the masks of the vertices tinted ``L`` and ``R``): a move is a few bit
operations, a piece is split off by growing it through whole-byte neighbourhood tables, and
the key folds the graph's automorphisms (at most ``AUTOMORPHISM_LIMIT``, found once from
the canonical labelling's refinement tree, ``graphs.automorphisms``) and the swap of the
tints (minus the value). Checked against the generic search (``tests/test_graphs.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from cgframework import Outcome, Player, Solution, SolveContext, finish
from cgframework.values import CanonicalGame, game, uptimal
from cgframework_grids.graphs import TintedGraph, automorphisms

#: Automorphisms of the position's graph folded into the keys (a complete graph has n!).
AUTOMORPHISM_LIMIT = 48

Value = tuple[int, int]  # (number * 2**order, star bit)


class ColAlgebraError(ArithmeticError):
    """A Col value that is not a number or a number plus * (cannot happen: a bug)."""


def _byte_tables(order: int, image: Callable[[int], int]) -> list[list[int]]:
    """For each byte of a vertex mask, the union of ``image(v)`` over its set bits."""
    tables = []
    for base in range(0, order, 8):
        table = [0] * 256
        for k in range(1, 256):
            low = k & -k
            v = base + low.bit_length() - 1
            table[k] = table[k ^ low] | (image(v) if v < order else 0)
        tables.append(table)
    return tables


class ColSearch:
    """The values of the pieces of one Col graph, memoised by folded masks."""

    def __init__(self, g: TintedGraph, ctx: SolveContext) -> None:
        self.order = g.order
        self.scale = 1 << g.order
        self.ctx = ctx
        self.adj = g.neighbours()
        self.near = _byte_tables(g.order, self.adj.__getitem__)
        self.images = [
            _byte_tables(g.order, lambda v, p=perm: 1 << p[v])
            for perm in automorphisms(g, AUTOMORPHISM_LIMIT)
        ]
        self.plain: dict[tuple[int, int, int], Value] = {}
        self.folded: dict[tuple[int, int, int], Value] = {}
        self.summaries: dict[tuple, Value] = {}

    # ---- masks --------------------------------------------------------------------------
    def pieces(self, alive: int) -> list[int]:
        """The connected pieces of the vertex mask ``alive``."""
        near = self.near
        out = []
        while alive:
            region = alive & -alive
            while True:
                grown = region
                rest, b = region, 0
                while rest:
                    grown |= near[b][rest & 255]
                    rest >>= 8
                    b += 1
                grown &= alive
                if grown == region:
                    break
                region = grown
            alive ^= region
            out.append(region)
        return out

    def fold(self, mask: int, lefts: int, rights: int) -> tuple[tuple[int, int, int], bool]:
        """The least image of the piece under the automorphisms, with or without its tints
        swapped (``True``: swapped, the key's value is minus the piece's)."""
        best_mask = -1
        chosen = []
        for tables in self.images:
            image, rest, b = 0, mask, 0
            while rest:
                image |= tables[b][rest & 255]
                rest >>= 8
                b += 1
            if best_mask < 0 or image < best_mask:
                best_mask, chosen = image, [tables]
            elif image == best_mask:
                chosen.append(tables)
        best = None
        swapped = False
        for tables in chosen:
            il = ir = 0
            rest, b = lefts, 0
            while rest:
                il |= tables[b][rest & 255]
                rest >>= 8
                b += 1
            rest, b = rights, 0
            while rest:
                ir |= tables[b][rest & 255]
                rest >>= 8
                b += 1
            if best is None or (il, ir) < best:
                best, swapped = (il, ir), False
            if (ir, il) < best:
                best, swapped = (ir, il), True
        return (best_mask, best[0], best[1]), swapped

    # ---- values -------------------------------------------------------------------------
    def value(self, mask: int, lefts: int, rights: int) -> Value:
        """The value of a connected piece (``lefts``/``rights``: its vertices tinted L/R)."""
        key = (mask, lefts, rights)
        found = self.plain.get(key)
        if found is not None:
            return found
        folded, swapped = self.fold(mask, lefts, rights)
        found = self.folded.get(folded)
        if found is None:
            found = self.folded[folded] = self.expand(*folded)
        else:
            self.ctx.table.hits += 1
        if swapped:
            found = (-found[0], found[1])
        self.plain[key] = found
        return found

    def option(self, mask: int, lefts: int, rights: int, v: int, player: Player) -> Value:
        """The value after ``player`` colours vertex ``v`` of the piece: ``v`` goes, its
        neighbours get the player's tint, and a neighbour with the other tint goes too."""
        low = 1 << v
        nbrs = self.adj[v] & mask
        if player is Player.LEFT:
            alive = mask & ~low & ~(nbrs & rights)
            lefts = (lefts | nbrs) & alive
            rights &= alive
        else:
            alive = mask & ~low & ~(nbrs & lefts)
            rights = (rights | nbrs) & alive
            lefts &= alive
        x = star = 0
        for piece in self.pieces(alive):
            px, ps = self.value(piece, lefts & piece, rights & piece)
            x += px
            star ^= ps
        return x, star

    def expand(self, mask: int, lefts: int, rights: int) -> Value:
        """{Left's options | Right's options} in the algebra (see the module docstring)."""
        self.ctx.table.nodes += 1  # charged to the search budget, if any
        best_left = best_right = None
        stars_left = stars_right = 0
        free = mask & ~lefts  # Left may not colour a vertex next to her own colour
        while free:
            low = free & -free
            free ^= low
            x, s = self.option(mask, lefts, rights, low.bit_length() - 1, Player.LEFT)
            if best_left is None or x > best_left:
                best_left, stars_left = x, 1 << s
            elif x == best_left:
                stars_left |= 1 << s
        free = mask & ~rights
        while free:
            low = free & -free
            free ^= low
            x, s = self.option(mask, lefts, rights, low.bit_length() - 1, Player.RIGHT)
            if best_right is None or x < best_right:
                best_right, stars_right = x, 1 << s
            elif x == best_right:
                stars_right |= 1 << s
        summary = (best_left, stars_left, best_right, stars_right)
        found = self.summaries.get(summary)
        if found is None:
            found = self.summaries[summary] = self._combine(*summary)
        return found

    def _combine(self, left: int | None, stars_l: int, right: int | None, stars_r: int) -> Value:
        def forms(x: int | None, stars: int) -> list[CanonicalGame]:
            if x is None:
                return []
            return [uptimal(Fraction(x, self.scale), 0, s) for s in (0, 1) if stars >> s & 1]

        form = game(forms(left, stars_l), forms(right, stars_r))
        return self.from_form(form)

    def from_form(self, form: CanonicalGame) -> Value:
        parts = form.uptimal
        if parts is None or parts[1] or parts[2] > 1:
            raise ColAlgebraError(f"a Col value {form} is not a number or a number plus *")
        x = parts[0] * self.scale
        if x.denominator != 1:
            raise ColAlgebraError(f"a Col value {form} finer than 1/2**{self.order}")
        return int(x), parts[2]

    def to_form(self, value: Value) -> CanonicalGame:
        return uptimal(Fraction(value[0], self.scale), 0, value[1])

    def total(self, mask: int, lefts: int, rights: int) -> Value:
        """The value of any vertex set (its pieces summed)."""
        x = star = 0
        for piece in self.pieces(mask):
            px, ps = self.value(piece, lefts & piece, rights & piece)
            x += px
            star ^= ps
        return x, star


def _tint_masks(g: TintedGraph) -> tuple[int, int]:
    lefts = rights = 0
    for v, t in enumerate(g.tints):
        if t == "L":
            lefts |= 1 << v
        elif t == "R":
            rights |= 1 << v
    return lefts, rights


def col_numbers_apply(ruleset, position) -> bool:
    """One graph (a sum written with `` + `` goes to the generic search)."""
    return isinstance(position, TintedGraph)


def solve_col_numbers(ruleset, position: TintedGraph, ctx: SolveContext) -> Solution:
    """The value in the number-plus-star algebra; winning moves are those to a value >= 0
    (Left) or <= 0 (Right)."""
    search = ColSearch(position, ctx)
    everything = (1 << position.order) - 1
    lefts, rights = _tint_masks(position)
    value = search.total(everything, lefts, rights)
    player = ctx.first
    best = []
    forbidden = lefts if player is Player.LEFT else rights
    for v in range(position.order):
        if forbidden >> v & 1:
            continue
        x, s = search.option(everything, lefts, rights, v, player)
        if x * (1 if player is Player.LEFT else -1) > 0 or (x == 0 and s == 0):
            best.append(f"{v}")
    form = search.to_form(value)
    return finish(
        ruleset,
        position,
        ctx,
        value=form,
        outcome=Outcome(form.outcome()),
        best_moves=best,
        method="col-numbers",
    )
