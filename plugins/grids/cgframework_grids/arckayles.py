"""Partizan Arc-Kayles (CGSuite's ``game.graph.PartizanArcKayles``): Arc-Kayles (Schaefer,
1978) on a graph whose edges are coloured. Left picks a blue (``L``) or green (``G``) edge,
Right a red (``R``) or green one, and deletes both of its endpoints with every edge touching
them. With every edge green it is plain (impartial) Arc-Kayles.

Positions: an edge list with a colour per edge ``0-1:L,1-2:R,2-3:G`` (CGSuite's ``l``, ``r``,
``e`` are read too), or the graphs of ``snort``/``col`` (``path:n``, ``cycle:n``,
``grid:RxC``, ``0-1,1-2``) with ``;colours=LRG...``, one letter per edge in the order the
edge list prints them (sorted), every edge green without it; ``empty`` for no edges. Only
edges matter: a vertex without edges can never be taken, so it is not kept. Vertex numbers
are kept as written.

Components are the connected pieces. A piece is keyed by the canonical labelling of
``graphs.py`` applied to its subdivision (a vertex in the middle of each edge, tinted with the
edge's colour): equal keys mean isomorphic coloured graphs (see :func:`piece_key`).
Swapping ``L`` and ``R`` negates the value (``negative``).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from cgframework import BaseRuleset, Convention, Move, Player
from cgframework_grids.graphs import MAX_VERTICES, TintedGraph, canonical_form, parse_graph
from cgframework_grids.grid import PositionError

Arc = tuple[int, int, str]
_LETTERS = {"L": "L", "R": "R", "G": "G", "l": "L", "r": "R", "e": "G", "g": "G"}
_SWAP = {"L": "R", "R": "L", "G": "G"}
MAX_EDGES = 2 * MAX_VERTICES


@attrs.frozen
class Arcs:
    """Coloured edges ``(u, v, colour)`` with ``u < v``, sorted."""

    edges: tuple[Arc, ...]


def arcs(edges: Sequence[Arc]) -> Arcs:
    """A checked :class:`Arcs` (simple graph: no loops, no repeated edges)."""
    out = {}
    for u, v, c in edges:
        if u == v:
            raise PositionError(f"loop {u}-{v}: Arc-Kayles edges join two vertices")
        key = (min(u, v), max(u, v))
        if key in out:
            raise PositionError(f"edge {key[0]}-{key[1]} given twice")
        out[key] = c
    if len(out) > MAX_EDGES:
        raise PositionError(f"{len(out)} edges (at most {MAX_EDGES})")
    return Arcs(tuple(sorted((u, v, c) for (u, v), c in out.items())))


def _colour(letter: str, where: str) -> str:
    colour = _LETTERS.get(letter.strip())
    if colour is None:
        raise PositionError(f"{where}: colour must be L, R or G, not {letter.strip()!r}")
    return colour


def parse_arcs(text: str) -> Arcs:
    text = text.strip()
    if text == "empty":
        return Arcs(())
    head, sep, extra = text.partition(";")
    if sep:
        key, _, value = extra.partition("=")
        if key.strip() not in ("colours", "colors"):
            raise PositionError(f"unknown option {extra.strip()!r} (use ;colours=LRG...)")
    if ":" in head and not head.split(":")[0].strip().isalpha():  # 0-1:L,1-2:R
        if sep:
            raise PositionError("give colours either per edge (0-1:L) or as ;colours=, not both")
        edges = []
        for n, token in enumerate(head.split(","), 1):
            ends, _, letter = token.partition(":")
            u, dash, v = ends.partition("-")
            if not (dash and u.strip().isdigit() and v.strip().isdigit() and letter):
                raise PositionError(f"edge {n} ({token.strip()!r}): expected U-V:C, e.g. 0-1:L")
            edges.append((int(u), int(v), _colour(letter, f"edge {n}")))
        return arcs(edges)
    g = parse_graph(head)
    colours = value.strip() if sep else "G" * len(g.edges)
    if len(colours) != len(g.edges):
        raise PositionError(f"colours has {len(colours)} letters for {len(g.edges)} edges")
    return arcs(
        [
            (u, v, _colour(c, f"colour {i + 1}"))
            for i, ((u, v), c) in enumerate(zip(g.edges, colours, strict=True))
        ]
    )


def format_arcs(position: Arcs) -> str:
    if not position.edges:
        return "empty"
    return ",".join(f"{u}-{v}:{c}" for u, v, c in position.edges)


def take(position: Arcs, u: int, v: int) -> Arcs:
    """The position after taking the edge ``u-v``: both ends go with their edges."""
    return Arcs(tuple(e for e in position.edges if e[0] not in (u, v) and e[1] not in (u, v)))


def pieces(position: Arcs) -> list[Arcs]:
    """The connected pieces (by a union-find on the vertices, no recursion)."""
    parent: dict[int, int] = {}

    def root(x: int) -> int:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for u, v, _ in position.edges:
        parent[root(u)] = root(v)
    groups: dict[int, list[Arc]] = {}
    for e in position.edges:
        groups.setdefault(root(e[0]), []).append(e)
    return [Arcs(tuple(g)) for g in groups.values()]


def piece_key(piece: Arcs) -> tuple:
    """The canonical form of the piece's subdivision: the piece's vertices untinted and a
    middle vertex per edge tinted ``L``/``R`` (``.`` for green).

    Sound: an isomorphism of two connected subdivisions keeps their bipartition, original
    vertices on one side, middle vertices on the other, or swaps the two. If it keeps it,
    the coloured graphs are isomorphic. If it swaps, each piece's vertices all have degree
    2 (they land on middle vertices) and its edges are all green (their middle vertices
    land on untinted vertices), so both pieces are all-green cycles, of one length (the
    subdivisions have as many vertices): isomorphic again."""
    names: dict[int, int] = {}
    for u, v, _ in piece.edges:
        names.setdefault(u, len(names))
        names.setdefault(v, len(names))
    n = len(names)
    edges = []
    tints = ["."] * n
    for i, (u, v, c) in enumerate(piece.edges):
        mid = n + i
        edges += [(names[u], mid), (names[v], mid)]
        tints.append("." if c == "G" else c)
    subdivision = TintedGraph(n + len(piece.edges), tuple(sorted(edges)), "".join(tints))
    return canonical_form(subdivision)


class PartizanArcKayles(BaseRuleset):
    name = "partizan-arc-kayles"
    aliases = ("partizanarckayles",)
    convention = Convention.NORMAL
    family = "grids"
    syntax = (
        "coloured edges 0-1:L,1-2:R,2-3:G (L Left's, R Right's, G either's); or path:n, "
        "cycle:n, grid:RxC, 0-1,1-2 with ;colours=LRG... (one per edge, sorted order; all G "
        "without it); empty"
    )

    def parse(self, text: str) -> Arcs:
        return parse_arcs(text)

    def format(self, position: Arcs) -> str:
        return format_arcs(position)

    def options(self, position: Arcs, player: Player) -> Iterator[Move]:
        mine = "LG" if player is Player.LEFT else "RG"
        for u, v, c in position.edges:
            if c in mine:
                yield Move(take(position, u, v), f"{u}-{v}")

    def components(self, position: Arcs) -> Sequence[Arcs]:
        return tuple(pieces(position))

    def is_empty(self, position: Arcs) -> bool:
        return not position.edges

    def canonical_key(self, position: Arcs) -> tuple:
        return tuple(sorted(piece_key(p) for p in pieces(position)))

    def negative(self, position: Arcs) -> Arcs:
        """Left's and Right's edges swapped: minus the value."""
        return Arcs(tuple((u, v, _SWAP[c]) for u, v, c in position.edges))

    def draw(self, position: Arcs, marks: Mapping[Hashable, Any] | None = None) -> str:
        from cgframework_grids.drawing import draw_arcs

        return draw_arcs(position.edges, marks)

    def examples(self) -> list[str]:
        return ["0-1:L,1-2:R,2-3:G,3-0:L", "path:5;colours=LRRL", "grid:2x3;colours=LLRRGGL"]
