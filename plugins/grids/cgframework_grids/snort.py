"""Snort's own search on the vertex masks of the position's graph (``graph_masks.py``),
registered as ``snort-masks``: canonical forms from the core's ``game()``, as the generic
search's (checked against ``--method generic`` in ``tests/test_graphs.py``), but no piece is
relabelled or given a canonical labelling during the search; only the graph's
automorphisms and the tint swap (minus the value) are folded.

Snort (Winning Ways, vol. 1, ch. 2): Left may not colour a vertex tinted ``R`` (next to
Right's colour), Right not one tinted ``L``.
"""

from __future__ import annotations

from cgframework import Player, Solution, SolveContext, finish
from cgframework.values import ZERO, CanonicalGame, game
from cgframework_grids.graph_masks import MaskSearch, tint_masks
from cgframework_grids.graphs import TintedGraph


class SnortSearch(MaskSearch):
    """The canonical values of the pieces of one Snort graph."""

    @staticmethod
    def negative(value: CanonicalGame) -> CanonicalGame:
        return -value

    def option(self, mask: int, lefts: int, rights: int, v: int, player: Player) -> CanonicalGame:
        """The value after ``player`` colours vertex ``v`` (``after_move``)."""
        alive, lefts, rights = self.after_move(mask, lefts, rights, v, player)
        total = ZERO
        for piece in self.pieces(alive):
            part = self.value(piece, lefts & piece, rights & piece)
            total = part if total is ZERO else total + part
        return total

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
    """The canonical value; winning moves are those to a value >= 0 (Left) or <= 0."""
    search = SnortSearch(position, ctx)
    everything = (1 << position.order) - 1
    lefts, rights = tint_masks(position)
    value = ZERO
    for piece in search.pieces(everything):
        value = value + search.value(piece, lefts & piece, rights & piece)
    player = ctx.first
    forbidden = rights if player is Player.LEFT else lefts
    best = []
    for v in range(position.order):
        if forbidden >> v & 1:
            continue
        after = search.option(everything, lefts, rights, v, player)
        if (after >= ZERO) if player is Player.LEFT else (after <= ZERO):
            best.append(f"{v}")
    return finish(
        ruleset,
        position,
        ctx,
        value=value,
        outcome=value.outcome(),
        best_moves=best,
        method="snort-masks",
    )
