"""The ``pizza`` ruleset: scoring play on weighted graph boards (Brown & Brown §1).

The value is the first player's total minus the second player's under optimal play (the
recursion (1.1), L51: val(<>) = 0, val(g) = max over legal v of wt(v) - val(g minus v)),
which is exactly what the core's generic minimax computes.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any

from cgframework import BaseRuleset, Convention, Move, Player, pick_move
from cgframework_pizza.board import Board, component_key, describe_part, format_board
from cgframework_pizza.chains import Chains, as_board, chains_key, format_chains, parse_chains


class Pizza(BaseRuleset):
    name = "pizza"
    convention = Convention.SCORING
    impartial = True
    family = "pizza"
    syntax = (
        "cyc(3,1,4) pizza, tes(...) two-ended stack, st(...) stack, path(...) unbroached "
        "path, <...> list, graph(W; u-v,...; AVAIL), joined by +; a bare list is a pizza; "
        "weights integers, decimals or p/q; or a JSON board {weights, edges, available}"
    )
    sum_separator = None  # the board grammar has its own "+" (concatenation)

    def parse(self, text: str) -> Chains | Board:
        """A concatenation of families stays a sequence of parts (``Chains``); a board with
        a ``graph(...)`` part or a JSON board is a general ``Board``."""
        return parse_chains(text)

    def format(self, position: Chains | Board) -> str:
        if isinstance(position, Chains):
            return format_chains(position)
        return format_board(position)

    def options(self, position: Chains | Board, player: Player) -> Iterator[Move]:
        position = as_board(position)
        for v in position.legal_moves():
            yield Move(position.remove(v), f"#{v + 1}", position.weight(v))

    def components(self, position: Chains | Board) -> Sequence[Board]:
        position = as_board(position)
        return [position.restricted(part) for part in position.components()]

    def canonical_key(self, position: Chains | Board) -> Hashable:
        if isinstance(position, Chains):
            return chains_key(position)
        parts = position.components()
        if len(parts) == 1:
            return component_key(position, parts[0])
        return ("+",) + tuple(sorted((component_key(position, p) for p in parts), key=repr))

    def is_empty(self, position: Chains | Board) -> bool:
        if isinstance(position, Chains):
            return not position.parts
        return not position.present

    def draw(self, position: Chains | Board, marks: Mapping[Hashable, Any] | None = None) -> str:
        """The pizza (or any board in a row); ``marks``: vertex (0-based) -> Player."""
        from cgframework_pizza.picture import pizza_svg

        return pizza_svg(as_board(position), marks)

    def move_marks(self, position: Chains | Board, move: Move) -> list[int]:
        return [int(move.text[1:]) - 1]  # "#k" takes vertex k - 1

    def move_at(self, position: Chains | Board, picks: Sequence[Hashable], player: Player) -> Any:
        """A click on a slice (``data-vertex``: the vertex from 0) takes it, if it may be taken."""
        return pick_move(
            ((self.move_marks(position, m), m) for m in self.options(position, player)), picks
        )

    def describe_component(self, position: Chains | Board) -> str:
        position = as_board(position)
        return describe_part(position, position.present)

    def examples(self) -> list[str]:
        return ["3,1,4,1,5", "0,1,0,1,0,0,1,0,2,0,0,2,0,2,0", "tes(4,3,6,5) + <2>"]
