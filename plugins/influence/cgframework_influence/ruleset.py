"""The ``influence`` ruleset: scoring play on coloured digraphs (paper §1, L14-L98).

A move takes Succ(G,x) (Left) or Pred(G,y) (Right) and earns its size. A player without a
vertex of his colour waits while the other empties the graph (L20): ``end_score`` passes.
The core's generic minimax on this protocol is the reference solver.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any

from cgframework import BaseRuleset, Convention, Move, Player, Sum, pick_move
from cgframework_influence.engine import relevant_core
from cgframework_influence.graph import (
    InfluenceGraph,
    bits,
    format_graph,
    parse_graph,
    taken_by_move,
    weak_components,
)

EMPTY = InfluenceGraph("", ())


class Influence(BaseRuleset):
    name = "influence"
    convention = Convention.SCORING
    family = "influence"
    syntax = (
        "COLOURS:ARCS (e.g. LRRL:0>1,0>2,3>2; colours L/B Left, R/W Right), a JSON graph "
        '{"vertices":[...],"colors":{v:"B"|"W"},"arcs":[[u,v],...]}, or segment:n[:C+|C-], '
        "cycle:n, tree:n,c, J:n,c, dipath:LRLR; sums joined by ' + '"
    )
    sum_separator = " + "

    def parse(self, text: str) -> InfluenceGraph:
        if text.strip().lower() == "empty":
            return EMPTY
        return parse_graph(text)

    def format(self, position: InfluenceGraph) -> str:
        return format_graph(position) if position.n else "empty"

    def options(self, position: InfluenceGraph, player: Player) -> Iterator[Move]:
        mask = position.colour_mask(player.value)
        for v in bits(mask):
            taken = taken_by_move(position, v)
            result = position.induced(position.full & ~taken)
            yield Move(result, position.names[v], taken.bit_count())

    def components(self, position: InfluenceGraph) -> Sequence[InfluenceGraph]:
        parts = weak_components(position.succ_masks(), position.pred_masks(), position.full)
        if len(parts) <= 1:
            return (position,)
        return tuple(position.induced(p) for p in parts)

    def canonical_key(self, position: InfluenceGraph) -> Hashable:
        return position.key()

    def dicot_form(self, position: InfluenceGraph) -> tuple[int, InfluenceGraph]:
        """(|Forc_L| - |Forc_R|, G minus Forc(G)): each forced vertex given to its owner
        leaves the relevant graph, where a player can move iff the other can (L254); the
        stops are unchanged (footnote 6, L181). The ``guaranteed`` solver values influence
        positions through this form, which is a guaranteed scoring game."""
        mask, score = relevant_core(position)
        return score, position.induced(mask)

    def is_empty(self, position: InfluenceGraph) -> bool:
        return position.n == 0

    def end_score(self, position: InfluenceGraph | Sum, player: Player) -> int | None:
        """No vertex of his colour: the player waits (L20); the game ends on an empty graph."""
        parts = position.parts if isinstance(position, Sum) else (position,)
        return 0 if all(p.n == 0 for p in parts) else None

    def draw(self, position: InfluenceGraph, marks: Mapping[Hashable, Any] | None = None) -> str:
        """The digraph (a networkx layout): Left's vertices squares, Right's circles, tinted
        by owner; ``marks`` map a vertex name to the Player who took it (filled blue/red)."""
        from cgframework.display.pictures import graph_svg, mark_colour, text_svg

        if not position.n:
            return text_svg("empty")
        tint = {"L": "#d6e4f5", "R": "#f6d5d3"}
        return graph_svg(
            list(range(position.n)),
            position.arcs,
            fill=lambda v: mark_colour(marks, position.names[v], tint[position.colors[v]]),
            label=lambda v: position.names[v],
            square=lambda v: position.colors[v] == "L",
            directed=True,
        )

    def move_at(self, position: InfluenceGraph, picks: Sequence[Hashable], player: Player) -> Any:
        """A click on one of the player's vertices (``data-vertex``: its name) plays it."""
        named = [str(p) for p in picks]
        return pick_move((((m.text,), m) for m in self.options(position, player)), named)

    def move_marks(self, position: InfluenceGraph, move: Move) -> list[str]:
        """The names of the vertices the move takes (Succ or Pred of the vertex played)."""
        v = position.names.index(move.text)
        return [position.names[i] for i in bits(taken_by_move(position, v))]

    def examples(self) -> list[str]:
        return ["segment:11", "LRRL:0>1,0>2,3>2", "segment:10 + segment:17:C-", "cycle:10"]
