"""Playing a loopy game to a win: winning moves that make progress.

On a loopy ruleset a winning move is a move to a state lost for the opponent, but two
winning moves in a row may lead back where they started: with arcs ``0>1:L``, ``0>2:L`` and
``1>0:R``, Left at 0 wins by either move, and the first one (to 1, from where Right's only
move returns to 0) wins for ever without ever ending the game. Retrograde analysis decides
the states in an order (those without a move first, then each as its options are decided,
a queue); the order is a progress measure, as remoteness is for games that end (Winning
Ways, ch. 9) and the counter function for loopy ones (C. A. B. Smith, "Graphs and composite
games", J. Combin. Theory 1 (1966)). A won state is decided after one of its lost
options, a lost state after all of its options: so the winner who moves to the lost option
decided first, and the loser who moves to the option decided last, always reach a state
decided earlier, and a won game ends in a win, without repeating a position.

:class:`LoopyStrategy` holds that analysis for every state reachable from a start position
(the graph of :class:`~cgframework.solvers.retrograde.PositionGraph`) and chooses moves by it.
"""

from __future__ import annotations

from collections.abc import Sequence

from cgframework.game import Convention, Move, Player, Position, Ruleset
from cgframework.runtime.cache import TranspositionTable
from cgframework.solvers.retrograde import DRAW, LOSS, PositionGraph, retrograde_analysis


class LoopyStrategy:
    """A perfect player for a loopy ruleset (normal or misère play) from ``start``: it wins
    a won position without repeating one, keeps a drawn position drawn, and makes a lost
    one last as long as it can (see the module docstring). The graph of every state
    reachable from ``start`` is built once (charged to ``table``, when given, so a node
    budget stops it); a position outside it (not reachable from ``start``) rebuilds it."""

    def __init__(
        self, ruleset: Ruleset, start: Position, table: TranspositionTable | None = None
    ) -> None:
        self.ruleset = ruleset
        self.table = table
        self.misere = ruleset.convention is Convention.MISERE
        self._build(start)

    def _build(self, start: Position) -> None:
        self.graph = PositionGraph(self.ruleset, [start], self.ruleset.impartial, self.table)
        self.status, self.rank = retrograde_analysis(self.graph, self.misere)

    def _state(self, position: Position, player: Player) -> int:
        if self.graph.key(position) not in self.graph.index:
            self._build(position)
        return self.graph.state(position, player)

    def status_of(self, position: Position, player: Player) -> int:
        """WIN, LOSS or DRAW for ``player`` moving first in ``position``."""
        return self.status[self._state(position, player)]

    def choose(self, position: Position, player: Player, moves: Sequence[Move]) -> Move:
        """``player``'s move among ``moves`` (not empty, the options of ``position``): to
        the lost state decided first when winning, to a drawn state when drawing, to the
        state decided last when losing."""
        self._state(position, player)  # (the graph holds position and every option)
        reply = player.opponent
        after = [self.graph.state(m.result, reply) for m in moves]
        lost = [i for i, s in enumerate(after) if self.status[s] == LOSS]
        if lost:  # winning: the lost state decided first
            return moves[min(lost, key=lambda i: self.rank[after[i]])]
        drawn = [i for i, s in enumerate(after) if self.status[s] == DRAW]
        if drawn:
            return moves[drawn[0]]
        return moves[max(range(len(moves)), key=lambda i: (self.rank[after[i]], -i))]


__all__ = ["LoopyStrategy"]
