"""Node-Kayles (Schaefer 1978; Winning Ways, vol. 1, ch. 4, where Dawson's Kayles is Node-Kayles
on a path): a move takes a vertex together with all its neighbours; who cannot move loses.

Positions are graphs in the syntax of Snort and Col (``graphs.py``): ``path:n``, ``cycle:n``,
``grid:RxC``, an edge list ``0-1,1-2`` (``;n=N`` for N vertices when some are isolated) or JSON
``{"n": 3, "edges": [[0, 1], [1, 2]]}`` / networkx node-link JSON; sums with ``+``. A move is
written as its vertex; the graph left is renumbered in order. Components are the connected
pieces, keyed by their canonical labelling (``graphs.canonical_form``). The Lemoine-Viennot
search (``--method lemoine-viennot``) runs on vertex masks (``kayles_masks.py``).
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any

from cgframework import BaseRuleset, Convention, Move, Player, SolveContext, pick_move
from cgframework.solvers.vertex_masks import KaylesMasks
from cgframework_grids.graphs import (
    TintedGraph,
    canonical_form,
    graph,
    induced,
    parse_graph,
    pieces,
)
from cgframework_grids.grid import PositionError
from cgframework_grids.kayles_masks import kayles_masks

LEMOINE_VIENNOT_CELLS = 18
"""``auto`` searches one Cram board with at least this many empty cells by the Lemoine-Viennot
search (below, the mex route on keys, ``grundy-keys``, is as fast or faster: 4x4 0.18 s
against 0.25 s, 3x6 0.27 s against 0.19 s, CPU, with the interpreter's start)."""

_ORDER = re.compile(r"\s*n\s*=\s*(\d+)\s*")


def parse_plain_graph(text: str) -> TintedGraph:
    """A graph without tints: the Snort/Col syntax, with ``;n=N`` (N vertices) in place of
    ``;tints=``."""
    text = text.strip()
    if not text.startswith("{") and ";" in text:
        body, _, extra = text.partition(";")
        found = _ORDER.fullmatch(extra)
        if not found:
            raise PositionError(f"unknown option {extra!r} (use ;n=N for N vertices)")
        n = int(found.group(1))
        edges = () if body.strip() in ("", "-") else parse_graph(body).edges
        named = max((v + 1 for e in edges for v in e), default=0)
        if named > n:
            raise PositionError(f"n={n}, but the edges name vertex {named - 1}")
        if not n:
            raise PositionError("a graph needs a vertex (n=0)")
        g = graph(n, edges)
    else:
        g = parse_graph(text)
    if g.tints.strip("."):
        raise PositionError("node-kayles vertices carry no tints")
    return g


def format_plain_graph(g: TintedGraph) -> str:
    if not g.order:
        return "path:0"
    text = ",".join(f"{u}-{v}" for u, v in g.edges)
    if not g.edges or g.order != max(max(e) for e in g.edges) + 1:
        text += f";n={g.order}"
    return text


def lemoine_viennot_applies(ruleset: Any, position: Any) -> bool:
    """For ``auto``: one Node-Kayles graph (the search on its vertex masks is faster than
    the mex route on canonical labellings at every size), or one Cram board of at least
    :data:`LEMOINE_VIENNOT_CELLS` empty cells. ``--method lemoine-viennot`` takes any
    position."""
    if isinstance(position, TintedGraph):
        return True
    cells = getattr(position, "cells", None)
    return isinstance(cells, str) and cells.count(".") >= LEMOINE_VIENNOT_CELLS


class NodeKayles(BaseRuleset):
    """Node-Kayles on a simple graph (see the module docstring). Impartial."""

    name = "node-kayles"
    aliases = ("nodekayles",)
    convention = Convention.NORMAL
    impartial = True
    family = "grids"
    sum_separator = "+"
    syntax = (
        "a graph: path:n, cycle:n, grid:RxC, edge list 0-1,1-2 (;n=N: N vertices), "
        "JSON {n, edges} or networkx node-link JSON; sums with +"
    )

    def parse(self, text: str) -> TintedGraph:
        return parse_plain_graph(text)

    def format(self, position: TintedGraph) -> str:
        return format_plain_graph(position)

    def options(self, position: TintedGraph, player: Player) -> Iterator[Move]:
        adj = position.neighbours()
        everything = (1 << position.order) - 1
        for v in range(position.order):
            yield Move(induced(position, everything & ~adj[v] & ~(1 << v)), f"{v}")

    def components(self, position: TintedGraph) -> Sequence[TintedGraph]:
        return tuple(pieces(position))

    def is_empty(self, position: TintedGraph) -> bool:
        return position.order == 0

    def canonical_key(self, position: TintedGraph) -> Hashable:
        return canonical_form(position)

    def impartial_game(self, position: Any, ctx: SolveContext) -> KaylesMasks | None:
        """The Lemoine-Viennot search's view of one graph: its vertex masks."""
        if not isinstance(position, TintedGraph):
            return None
        return kayles_masks(position, edges=False)

    def draw(self, position: TintedGraph, marks: Mapping[Hashable, Any] | None = None) -> str:
        from cgframework_grids.drawing import draw_tinted_graph

        return draw_tinted_graph(position.order, position.edges, position.tints, marks)

    def move_marks(self, position: TintedGraph, move: Move) -> list[int]:
        return [int(move.text)]

    def move_at(self, position: TintedGraph, picks: Sequence[Hashable], player: Player) -> Any:
        """The move on the vertex clicked (its number)."""
        candidates = (((int(m.text),), m) for m in self.options(position, player))
        return pick_move(candidates, picks)

    def examples(self) -> list[str]:
        return ["path:7", "grid:3x4", "cycle:9", "0-1,1-2,1-3;n=5"]
