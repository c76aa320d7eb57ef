"""The rulesets ``wak`` (Weighted Arc-Kayles, loops allowed) and ``arc-kayles``.

Both are impartial normal-play games on :class:`WakGraph` positions (L58-L64). Vertex numbers
stay fixed during play (a vertex without counters is simply out of the game), so move texts
``u-v`` and ``loop:u`` keep naming the same vertices.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any

from cgframework import BaseRuleset, Convention, Move, Player, pick_move
from cgframework_wak.certificate import certificate
from cgframework_wak.graph import WakGraph
from cgframework_wak.parse import dump_json, parse_graph


def move_text(edge: tuple[int, int]) -> str:
    u, v = edge
    return f"loop:{u}" if u == v else f"{u}-{v}"


def graph_key(graph: WakGraph) -> Hashable:
    """Certificate of a graph's live part: one component's certificate, or the sorted
    certificates of several (Observation 3: the value only depends on this multiset)."""
    parts = graph.split()
    if len(parts) == 1:
        return certificate(parts[0])
    return ("+",) + tuple(sorted((certificate(p) for p in parts), key=repr))


class WakRuleset(BaseRuleset):
    """Weighted Arc-Kayles (Huggan 2015; Dailly, Gledel & Heinrich 2019)."""

    name = "wak"
    aliases = ("weighted-arc-kayles",)
    convention = Convention.NORMAL
    impartial = True
    family = "wak"
    version = "1"
    syntax = (
        'JSON {"n":4,"edges":[[0,1],[1,2],[2,3]],"loops":[0],"weights":[3,1,4,1]}; '
        "path:3,1,4, cycle:1,2,3, complete:1,2,3, star:c;l1,l2,...; "
        "edge list 0-1,1-2;w=3,1,4;loops=0; sums with +"
    )
    arc_kayles = False

    def parse(self, text: str) -> WakGraph:
        return parse_graph(text, self.arc_kayles)

    def format(self, position: WakGraph) -> str:
        return dump_json(position)

    def options(self, position: WakGraph, player: Player) -> Iterator[Move]:
        for edge, after in position.moves():
            yield Move(position.with_weights(after), move_text(edge))

    def components(self, position: WakGraph) -> Sequence[WakGraph]:
        return position.split()

    def canonical_key(self, position: WakGraph) -> Hashable:
        return graph_key(position)

    def is_empty(self, position: WakGraph) -> bool:
        return not position.live_vertices()

    def draw(self, position: WakGraph, marks: Mapping[Hashable, Any] | None = None) -> str:
        """The graph (a networkx layout), each vertex labelled ``v:counters`` (grey once out
        of counters), loops as small circles; ``marks`` map an edge ``(u, v)`` (a loop
        ``(u, u)``) to the Player who played it (drawn blue/red)."""
        from cgframework.display.pictures import FREE_COLOUR, INK, graph_svg, mark_colour

        edges = list(position.edges) + [(v, v) for v in position.loops]
        return graph_svg(
            list(range(position.n)),
            edges,
            fill=lambda v: FREE_COLOUR if position.weights[v] else "#9a9a9a",
            label=lambda v: f"{v}:{position.weights[v]}",
            edge_colours=[mark_colour(marks, e, INK) for e in edges],
            caption="vertex:counters (grey: none left)",
        )

    def move_at(self, position: WakGraph, picks: Sequence[Hashable], player: Player) -> Any:
        """The move on the edge clicked (``("edge", i)``: the i-th edge ``draw`` drew, the
        loops after the edges)."""
        edges = list(position.edges) + [(v, v) for v in position.loops]
        index = {edge: i for i, edge in enumerate(edges)}
        index.update({(v, u): i for (u, v), i in list(index.items())})
        candidates = (
            ([("edge", index[self.move_marks(position, m)[0]])], m)
            for m in self.options(position, player)
        )
        return pick_move(candidates, picks)

    def move_marks(self, position: WakGraph, move: Move) -> list[tuple[int, int]]:
        if move.text.startswith("loop:"):
            u = int(move.text[5:])
            return [(u, u)]
        u, v = map(int, move.text.split("-"))
        return [(u, v)]

    def examples(self) -> Sequence[str]:
        return [
            '{"n":4,"edges":[[0,1],[1,2],[2,3]],"loops":[0],"weights":[3,1,4,1]}',
            "star:3;1,2,2",
            "complete:2,3,4",
        ]


class ArcKayles(WakRuleset):
    """Arc-Kayles (Schaefer 1978): a move deletes an edge with both endpoints (L10). A
    position is a WAK graph with every counter 1 (0 once a vertex is deleted), no loops."""

    name = "arc-kayles"
    aliases = ("arckayles",)
    family = "wak"
    syntax = (
        'JSON {"n":4,"edges":[[0,1],[1,2],[2,3]]}; path:n, cycle:n, complete:n, star:k, '
        "grid:RxC, wheel:n (hub plus C_n); edge list 0-1,1-2;n=5; sums with +"
    )
    arc_kayles = True

    def parse(self, text: str) -> WakGraph:
        graph = parse_graph(text, True)
        for v, w in enumerate(graph.weights):
            if w not in (0, 1):
                raise ValueError(f"arc-kayles vertex {v} has counter {w}: use ruleset wak")
        return graph

    def format(self, position: WakGraph) -> str:
        plain = all(w == 1 for w in position.weights) and not position.loops
        return dump_json(position, arc_kayles=plain)

    def impartial_game(self, position: Any, ctx: Any) -> Any:
        """The Lemoine-Viennot search's view of one graph (``--method lemoine-viennot``):
        vertex masks, a move taking an edge with both ends (the core's
        :class:`~cgframework.solvers.vertex_masks.KaylesMasks`; a grid's pieces keyed
        wherever they lie). ``None`` (the search's generic view) for a sum."""
        if not isinstance(position, WakGraph) or position.loops:
            return None
        if any(w not in (0, 1) for w in position.weights):
            return None
        from cgframework.solvers.vertex_masks import KaylesMasks

        alive = [v for v, w in enumerate(position.weights) if w]
        return KaylesMasks(position.n, position.edges, edges=True, alive=alive)

    def examples(self) -> Sequence[str]:
        return ["grid:3x4", "path:12", "wheel:7"]
