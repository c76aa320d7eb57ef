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

The search works on the vertex masks of the position's own graph (``graph_masks.py``:
automorphisms and the tint swap folded). Checked against the generic search
(``tests/test_graphs.py``).
"""

from __future__ import annotations

from fractions import Fraction

from cgframework import Player, Solution, SolveContext
from cgframework.values import CanonicalGame, game, uptimal
from cgframework_grids.graph_masks import MaskSearch, solve_on_masks
from cgframework_grids.graphs import TintedGraph

Value = tuple[int, int]  # (number * 2**order, star bit)


class ColAlgebraError(ArithmeticError):
    """A Col value that is not a number or a number plus * (cannot happen: a bug)."""


class ColSearch(MaskSearch):
    """The values of the pieces of one Col graph, in the number-plus-star algebra."""

    def __init__(self, g: TintedGraph, ctx: SolveContext) -> None:
        super().__init__(g, ctx)
        self.scale = 1 << g.order
        self.summaries: dict[tuple, Value] = {}

    zero = (0, 0)

    @staticmethod
    def negative(value: Value) -> Value:
        return -value[0], value[1]

    @staticmethod
    def plus(a: Value, b: Value) -> Value:
        return a[0] + b[0], a[1] ^ b[1]

    # ---- values -------------------------------------------------------------------------
    def option(self, mask: int, lefts: int, rights: int, v: int, player: Player) -> Value:
        """The value after ``player`` colours vertex ``v`` (``after_move``)."""
        alive, lefts, rights = self.after_move(mask, lefts, rights, v, player)
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


def col_numbers_apply(ruleset, position) -> bool:
    """One graph (a sum written with `` + `` goes to the generic search)."""
    return isinstance(position, TintedGraph)


def solve_col_numbers(ruleset, position: TintedGraph, ctx: SolveContext) -> Solution:
    """The value in the number-plus-star algebra, and the winning moves."""
    return solve_on_masks(ruleset, position, ctx, ColSearch(position, ctx), "col-numbers")
