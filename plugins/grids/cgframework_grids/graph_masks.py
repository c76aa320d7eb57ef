"""Searches on the vertex masks of one Snort or Col graph (``graphs.py``), for the
``col-numbers`` and ``snort-masks`` solvers.

A piece of a position is three masks of the graph's own vertices: the piece's vertices and
those tinted ``L`` and ``R``. A move is a few bit operations (``after_move``), a piece is
split off by growing it through whole-byte neighbourhood tables (``pieces``), and a piece's
key folds the graph's automorphisms (at most ``AUTOMORPHISM_LIMIT``, found once from the
canonical labelling's refinement tree, ``graphs.automorphisms``) and the swap of the tints,
which swaps the players (minus the value): no graph is relabelled during the search.
Values are memoised by the piece's masks first, then by its folded key.
"""

from __future__ import annotations

from typing import Any

from cgframework import Player, Solution, SolveContext, finish
from cgframework.solvers.vertex_masks import byte_tables, connected_pieces
from cgframework.values import ZERO, CanonicalGame
from cgframework_grids.graphs import TintedGraph, automorphisms
from cgframework_grids.grid import CACHE_LIMIT

#: Automorphisms of the position's graph folded into the keys (a complete graph has n!).
AUTOMORPHISM_LIMIT = 48

Masks = tuple[int, int, int]  # (vertices, those tinted L, those tinted R)


class MaskSearch:
    """The values of the pieces of one tinted graph, memoised by masks then folded masks.
    A subclass gives ``expand`` (a folded piece's value) and ``negative``."""

    def __init__(self, g: TintedGraph, ctx: SolveContext) -> None:
        self.order = g.order
        self.ctx = ctx
        self.adj = g.neighbours()
        self.near = byte_tables(g.order, self.adj.__getitem__)
        self.images = [
            byte_tables(g.order, lambda v, p=perm: 1 << p[v])
            for perm in automorphisms(g, AUTOMORPHISM_LIMIT)
        ]
        self.plain: dict[Masks, Any] = {}
        self.folded: dict[Masks, Any] = {}

    def expand(self, mask: int, lefts: int, rights: int) -> Any:
        raise NotImplementedError

    @staticmethod
    def negative(value: Any) -> Any:
        raise NotImplementedError

    zero: Any = None  # the value of no piece (set by a subclass, with ``plus``)

    @staticmethod
    def plus(a: Any, b: Any) -> Any:
        raise NotImplementedError

    def to_form(self, value: Any) -> CanonicalGame:
        """The canonical form of a value of the search's algebra."""
        return value

    def total(self, mask: int, lefts: int, rights: int) -> Any:
        """The value of any vertex set (its pieces summed)."""
        total = self.zero
        for piece in self.pieces(mask):
            total = self.plus(total, self.value(piece, lefts & piece, rights & piece))
        return total

    def option(self, mask: int, lefts: int, rights: int, v: int, player: Player) -> Any:
        """The value after ``player`` colours vertex ``v`` (``after_move``)."""
        return self.total(*self.after_move(mask, lefts, rights, v, player))

    # ---- masks --------------------------------------------------------------------------
    def pieces(self, alive: int) -> list[int]:
        """The connected pieces of the vertex mask ``alive``."""
        return connected_pieces(alive, self.near)

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

    def value(self, mask: int, lefts: int, rights: int) -> Any:
        """The value of a connected piece (``lefts``/``rights``: its vertices tinted L/R)."""
        key = (mask, lefts, rights)
        found = self.plain.get(key)
        if found is not None:
            return found
        if len(self.plain) >= CACHE_LIMIT:  # (the values stay in ``folded``)
            self.plain.clear()
        folded, swapped = self.fold(mask, lefts, rights)
        found = self.folded.get(folded)
        if found is None:
            found = self.folded[folded] = self.expand(*folded)
        else:
            self.ctx.table.hits += 1
        if swapped:
            found = self.negative(found)
        self.plain[key] = found
        return found

    def after_move(self, mask: int, lefts: int, rights: int, v: int, player: Player) -> Masks:
        """The masks after ``player`` colours vertex ``v``: ``v`` goes, its neighbours get
        the player's tint, and a neighbour with the other tint goes too."""
        low = 1 << v
        nbrs = self.adj[v] & mask
        if player is Player.LEFT:
            alive = mask & ~low & ~(nbrs & rights)
            return alive, (lefts | nbrs) & alive, rights & alive
        alive = mask & ~low & ~(nbrs & lefts)
        return alive, lefts & alive, (rights | nbrs) & alive


def tint_masks(g: TintedGraph) -> tuple[int, int]:
    lefts = rights = 0
    for v, t in enumerate(g.tints):
        if t == "L":
            lefts |= 1 << v
        elif t == "R":
            rights |= 1 << v
    return lefts, rights


def solve_on_masks(
    ruleset, position: TintedGraph, ctx: SolveContext, search: MaskSearch, method: str
) -> Solution:
    """The value of the whole graph and ``ctx.first``'s winning moves (to a value >= 0 for
    Left, <= 0 for Right), all from ``search``; ``ruleset.forbidden_for_left`` is the tint
    of the vertices Left may not colour."""
    everything = (1 << position.order) - 1
    lefts, rights = tint_masks(position)
    value = search.to_form(search.total(everything, lefts, rights))
    player = ctx.first
    by_left, by_right = (lefts, rights) if ruleset.forbidden_for_left == "L" else (rights, lefts)
    forbidden = by_left if player is Player.LEFT else by_right
    best = []
    for v in range(position.order):
        if forbidden >> v & 1:
            continue
        after = search.to_form(search.option(everything, lefts, rights, v, player))
        if (after >= ZERO) if player is Player.LEFT else (after <= ZERO):
            best.append(f"{v}")
    return finish(
        ruleset,
        position,
        ctx,
        value=value,
        outcome=value.outcome(),
        best_moves=best,
        method=method,
    )
