"""Snort's own search on the vertex masks of the position's graph (``graph_masks.py``),
registered as ``snort-masks``: canonical forms from the core's ``game()``, as the generic
search's (checked against ``--method generic`` in ``tests/test_graphs.py``), but no piece is
relabelled or given a canonical labelling during the search; only the graph's
automorphisms and the tint swap (minus the value) are folded.

Snort (Winning Ways, vol. 1, ch. 2): Left may not colour a vertex tinted ``R`` (next to
Right's colour), Right not one tinted ``L``.
"""

from __future__ import annotations

from cgframework import Player, Solution, SolveContext
from cgframework.values import ZERO, CanonicalGame, game
from cgframework_grids.graph_masks import MaskSearch, solve_on_masks
from cgframework_grids.graphs import TintedGraph


class SnortSearch(MaskSearch):
    """The canonical values of the pieces of one Snort graph."""

    zero = ZERO

    @staticmethod
    def negative(value: CanonicalGame) -> CanonicalGame:
        return -value

    @staticmethod
    def plus(a: CanonicalGame, b: CanonicalGame) -> CanonicalGame:
        return b if a is ZERO else a + b

    def expand(self, mask: int, lefts: int, rights: int) -> CanonicalGame:
        """{Left's options | Right's options}: Left colours a vertex not tinted R."""
        self.ctx.table.nodes += 1  # charged to the search budget, if any
        sides = []
        for player, free in ((Player.LEFT, mask & ~rights), (Player.RIGHT, mask & ~lefts)):
            values = []
            while free:
                low = free & -free
                free ^= low
                values.append(self.option(mask, lefts, rights, low.bit_length() - 1, player))
            sides.append(values)
        return game(sides[0], sides[1])


def snort_masks_apply(ruleset, position) -> bool:
    """One graph (a sum written with `` + `` goes to the key search)."""
    return isinstance(position, TintedGraph)


def solve_snort_masks(ruleset, position: TintedGraph, ctx: SolveContext) -> Solution:
    """The canonical value and the winning moves."""
    return solve_on_masks(ruleset, position, ctx, SnortSearch(position, ctx), "snort-masks")
