"""Loopy games: outcomes with draws by retrograde analysis, and the generalized
Sprague-Grundy function of impartial loopy games.

A ruleset whose positions may repeat declares ``loopy = True``; its generic solvers are the
two below, both iterative (no recursion) on the explicit graph of reachable positions, with
memory linear in its size (positions, plus the arcs in flat integer arrays).

``retrograde``: who wins with each player moving first, or a draw, under normal or misère
play. The classical backward induction: a state (position, player to move) with no option is
lost (normal play) or won (misère); a state with an option to a lost state is won; a state
all of whose options are won states is lost; what is never decided is a draw (neither player
can force a win, each can avoid losing). A queue of decided states and, per state, a counter
of its undecided options make it linear in the arcs. The answer's value is never an outcome
letter: an impartial position's generalized Sprague-Grundy value, read off the same graph; a
partizan one's ``onside & offside`` under normal play (from its components' sides: the
dispatcher hands :func:`solve_retrograde` that step, :mod:`.sides`); none in misère play,
``value_unknown`` saying why. Sums are solved on the product graph
(the ruleset's own options of the whole position); ``loopy-sides`` (:mod:`.sides`) solves a
partizan sum from its components' onsides and offsides instead, without that graph.

``loopy-grundy``: the generalized Sprague-Grundy function (C. A. B. Smith, "Graphs and
composite games", J. Combin. Theory 1 (1966); A. S. Fraenkel and Y. Yesha, "The generalized
Sprague-Grundy function and its invariance under certain mappings", J. Combin. Theory A 43
(1986); Siegel, Combinatorial Game Theory (2013), ch. IV, loopy impartial games). Each
position gets a finite value ``g`` or ``inf(K)``, K the set of its options' finite values.
Labelling algorithm (Fraenkel-Yesha), for m = 0, 1, 2, ...: (1) while some unlabelled
vertex u has no follower labelled m and every follower of u that is unlabelled or labelled
inf has a follower labelled m, label u with m; (2) label inf every unlabelled vertex with no
follower labelled m. Outcome: P iff 0; N iff finite and nonzero, or inf(K) with 0 in K; else
a draw. Sums (Smith's theorem): finite values nim-add; ``a + inf(K) = inf(K xor a)``;
``inf(K) + inf(L) = inf({})``. So a sum of many components never builds the product graph.
"""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

import attrs

from cgframework.extensions import SolveContext
from cgframework.game import (
    Convention,
    Outcome,
    Player,
    Position,
    Ruleset,
    Sum,
    components,
    options,
)
from cgframework.runtime.budget import LimitExceeded
from cgframework.runtime.cache import TranspositionTable
from cgframework.solvers.common import finish

DRAW, WIN, LOSS = 0, 1, 2
"""Retrograde status of a state, for the player to move."""


@attrs.frozen
class Infinite:
    """The generalized Sprague-Grundy value ``inf(K)``: K the options' finite values."""

    k: frozenset[int] = frozenset()

    def __str__(self) -> str:
        return "inf{" + ",".join(str(a) for a in sorted(self.k)) + "}"


LoopyGrundy = int | Infinite


def parse_loopy_grundy(text: str) -> LoopyGrundy:
    """Inverse of ``str``: ``3`` or ``inf{0,2}``."""
    text = text.strip()
    if text.startswith("inf{") and text.endswith("}"):
        inner = text[4:-1].strip()
        return Infinite(frozenset(int(a) for a in inner.split(",")) if inner else frozenset())
    value = int(text)
    if value < 0:
        raise ValueError(f"negative Grundy value {text!r}")
    return value


def loopy_nim_sum(a: LoopyGrundy, b: LoopyGrundy) -> LoopyGrundy:
    """Smith's generalized nim-sum: the value of a sum from its components' values."""
    if isinstance(a, Infinite) and isinstance(b, Infinite):
        return Infinite()
    if isinstance(a, Infinite):
        return Infinite(frozenset(k ^ b for k in a.k))
    if isinstance(b, Infinite):
        return Infinite(frozenset(k ^ a for k in b.k))
    return a ^ b


def grundy_outcome(g: LoopyGrundy) -> Outcome:
    """P for 0, N for another finite value or inf(K) with 0 in K, else a draw D."""
    if isinstance(g, Infinite):
        return Outcome.N if 0 in g.k else Outcome.D
    return Outcome.N if g else Outcome.P


MAX_POSITIONS = 5_000_000
"""The largest position graph built (about 350 bytes a position: 1.7 GB)."""


class PositionGraph:
    """The positions reachable from some roots, numbered in discovery order, with the arcs of
    each state in flat arrays. A state is a position and the player to move: its number is
    ``position`` (impartial: one state per position) or ``2 * position + (0 Left, 1 Right)``.
    Built breadth-first, iteratively; each state built is charged to ``table`` (when given),
    so that a solve's node budget and deadline stop the building, not only the search after it."""

    def __init__(
        self,
        ruleset: Ruleset,
        roots: Iterable[Position],
        impartial: bool,
        table: TranspositionTable | None = None,
    ) -> None:
        self.ruleset = ruleset
        self.impartial = impartial
        self.table = table
        self.players = (Player.LEFT,) if impartial else (Player.LEFT, Player.RIGHT)
        self.index: dict[Hashable, int] = {}
        self.offsets = array("q", [0])
        self.targets = array("q")
        pending: deque[Position] = deque()
        for root in roots:
            self._intern(root, pending)
        while pending:
            self._expand(pending.popleft(), pending)

    def key(self, position: Position) -> Hashable:
        if isinstance(position, Sum):
            return position
        return self.ruleset.canonical_key(position)

    def _intern(self, position: Position, pending: deque[Position]) -> int:
        key = self.key(position)
        number = self.index.get(key)
        if number is None:
            number = self.index[key] = len(self.index)
            if number >= MAX_POSITIONS:
                raise LimitExceeded(
                    f"more than {MAX_POSITIONS} reachable positions: too large for the "
                    "position graph (a sum of many tokens: use its components' values)"
                )
            pending.append(position)
        return number

    def _expand(self, position: Position, pending: deque[Position]) -> None:
        step = len(self.players)
        for side, player in enumerate(self.players):
            if self.table is not None:
                self.table.add_node()
            reply = 0 if self.impartial else 1 - side
            for move in options(self.ruleset, position, player):
                self.targets.append(step * self._intern(move.result, pending) + reply)
            self.offsets.append(len(self.targets))

    @property
    def size(self) -> int:
        """The number of states."""
        return len(self.offsets) - 1

    def state(self, position: Position, player: Player) -> int:
        number = self.index[self.key(position)]
        if self.impartial:
            return number
        return 2 * number + (0 if player is Player.LEFT else 1)

    def predecessors(self) -> tuple[array, array]:
        """The reversed arcs, in the same flat form (offsets, sources)."""
        n = self.size
        counts = array("q", bytes(8 * (n + 1)))
        for t in self.targets:
            counts[t + 1] += 1
        for i in range(n):
            counts[i + 1] += counts[i]
        fill = array("q", counts)
        sources = array("q", bytes(8 * len(self.targets)))
        offsets, targets = self.offsets, self.targets
        for s in range(n):
            for a in range(offsets[s], offsets[s + 1]):
                t = targets[a]
                sources[fill[t]] = s
                fill[t] += 1
        return counts, sources


def retrograde_analysis(graph: PositionGraph, misere: bool) -> tuple[bytearray, array]:
    """WIN, LOSS or DRAW for the player to move in every state (see the module docstring),
    and the order they were decided in: ``(status, rank)``, rank a state's place in that
    order (-1 for a draw, never decided). The order is a progress measure: moving to the
    lost option decided first wins without going round a cycle
    (:mod:`cgframework.solvers.loopy_strategy`)."""
    n = graph.size
    offsets = graph.offsets
    status = bytearray(n)
    rank = array("q", [-1]) * n
    pending = array("q", (offsets[s + 1] - offsets[s] for s in range(n)))
    queue: deque[int] = deque()
    decided = 0

    def decide(state: int, result: int) -> None:
        nonlocal decided
        status[state] = result
        rank[state] = decided
        decided += 1
        queue.append(state)

    for s in range(n):
        if pending[s] == 0:
            decide(s, WIN if misere else LOSS)
    pred_offsets, sources = graph.predecessors()
    while queue:
        s = queue.popleft()
        lost = status[s] == LOSS
        for a in range(pred_offsets[s], pred_offsets[s + 1]):
            p = sources[a]
            if status[p] != DRAW:
                continue
            if lost:
                decide(p, WIN)
            else:
                pending[p] -= 1
                if pending[p] == 0:
                    decide(p, LOSS)
    return status, rank


def retrograde_status(graph: PositionGraph, misere: bool) -> bytearray:
    """WIN, LOSS or DRAW for the player to move in every state (see the module docstring)."""
    return retrograde_analysis(graph, misere)[0]


UNLABELLED, INFINITE = -1, -2


def generalized_grundy(graph: PositionGraph) -> list[LoopyGrundy]:
    """The generalized Sprague-Grundy value of every position of an impartial graph, by the
    Fraenkel-Yesha labelling algorithm (module docstring), one linear pass per value m."""
    n = graph.size
    offsets, targets = graph.offsets, graph.targets
    pred_offsets, sources = graph.predecessors()
    label = array("q", [UNLABELLED]) * n
    unlabelled = list(range(n))
    m = 0
    while unlabelled:
        has_m = bytearray(n)
        counter: dict[int, int] = {}
        ready = []
        for u in unlabelled:
            c = 0
            for a in range(offsets[u], offsets[u + 1]):
                if label[targets[a]] < 0:
                    c += 1
            counter[u] = c
            if c == 0:
                ready.append(u)
        while ready:
            u = ready.pop()
            if label[u] != UNLABELLED or has_m[u]:
                continue
            label[u] = m
            for a in range(pred_offsets[u], pred_offsets[u + 1]):
                p = sources[a]
                if has_m[p]:
                    continue
                has_m[p] = 1
                if label[p] >= 0:
                    continue
                for b in range(pred_offsets[p], pred_offsets[p + 1]):
                    q = sources[b]
                    if label[q] == UNLABELLED:
                        counter[q] -= 1
                        if counter[q] == 0 and not has_m[q]:
                            ready.append(q)
        still = []
        for u in unlabelled:
            if label[u] == UNLABELLED:
                if has_m[u]:
                    still.append(u)
                else:
                    label[u] = INFINITE
        unlabelled = still
        m += 1
    values: list[LoopyGrundy] = []
    for u in range(n):
        if label[u] >= 0:
            values.append(label[u])
        else:
            finite = (label[targets[a]] for a in range(offsets[u], offsets[u + 1]))
            values.append(Infinite(frozenset(g for g in finite if g >= 0)))
    return values


def _outcome(left_first: str, right_first: str) -> Outcome:
    if "D" in (left_first, right_first):
        return Outcome.D
    return Outcome.from_wins(left_first == "L", right_first == "R")


def _split_moves(
    moves: Sequence[tuple[str, int]], rank: Sequence[int] | None = None
) -> tuple[list[str], str]:
    """``moves`` are (text, state of the result for the opponent, its status for the
    opponent): the winning moves, else the drawing ones, else none (every move loses, as no
    move at all does: a losing position has no best move, in every solver), and which of the
    three it is. With ``rank`` (the order the states were decided in), the winning moves come
    in that order, so the first one always makes progress: played again and again, it wins
    (:mod:`cgframework.solvers.loopy_strategy`), where another may go round a cycle."""
    for wanted, kind in ((LOSS, "win"), (DRAW, "draw")):
        chosen = [(text, state) for text, state, status in moves if status == wanted]
        if chosen:
            if rank is not None and wanted == LOSS:
                chosen.sort(key=lambda move: rank[move[1]])
            return [text for text, _ in chosen], kind
    return [], "loss"


PartizanValue = Callable[[PositionGraph], tuple[Any, str | None]]
"""The value of a partizan position from its graph, or None and why not
(:func:`cgframework.solvers.sides.loopy_value`, which the dispatcher's ``retrograde`` gives)."""


def solve_retrograde(
    ruleset: Ruleset,
    position: Position,
    ctx: SolveContext,
    misere: bool | None = None,
    partizan_value: PartizanValue | None = None,
) -> Any:
    """Win, loss or draw with each player first, on the reachable (product) graph; misère
    play where the ruleset's convention says so or ``misere`` is true (``cgf solve --misere``).
    Then the value (:func:`_value_fields`): an impartial position's generalized Sprague-Grundy
    value, read off the same graph; a partizan one's from ``partizan_value`` (its
    ``onside & offside``), or ``value_unknown`` saying why there is none."""
    if misere is None:
        misere = ruleset.convention is Convention.MISERE
    graph = PositionGraph(ruleset, [position], ruleset.impartial, ctx.table)
    status, rank = retrograde_analysis(graph, misere)

    def result(first: str) -> str:
        player = Player(first)
        s = status[graph.state(position, player)]
        return "D" if s == DRAW else first if s == WIN else player.opponent.value

    fields = {"left_first": result("L"), "right_first": result("R")}
    outcome = _outcome(fields["left_first"], fields["right_first"])
    player = ctx.first
    after = (
        (m.text, graph.state(m.result, player.opponent)) for m in options(ruleset, position, player)
    )
    best, kind = _split_moves([(text, state, status[state]) for text, state in after], rank)
    value, grundy, unknown = _value_fields(ruleset, position, graph, misere, partizan_value)
    if unknown is not None:
        fields["value_unknown"] = unknown
    return finish(
        ruleset,
        position,
        ctx,
        value=value,
        outcome=outcome,
        best_moves=best,
        method="retrograde",
        grundy=grundy,
        best_moves_result=kind,
        **fields,
    )


MISERE_NO_VALUE = (
    "no value in misère play (loopy values, onside & offside, are normal play's): "
    "the outcome is the answer"
)


def _value_fields(
    ruleset: Ruleset,
    position: Position,
    graph: PositionGraph,
    misere: bool,
    partizan_value: PartizanValue | None,
) -> tuple[Any, int | str | None, str | None]:
    """(value, grundy, why there is no value) of a position whose graph was built: never an
    outcome letter where the value belongs."""
    if misere:
        return None, None, MISERE_NO_VALUE
    if ruleset.impartial:  # the same graph, one state per position: Smith's value
        from cgframework.values import nimber

        g = generalized_grundy(graph)[graph.state(position, Player.LEFT)]
        if isinstance(g, Infinite):
            return str(g), str(g), None
        return nimber(g), g, None
    if partizan_value is None:
        return None, None, "not computed here (the dispatcher's retrograde gives it)"
    value, unknown = partizan_value(graph)
    return value, None, unknown


def loopy_grundy_value(ruleset: Ruleset, position: Position) -> LoopyGrundy:
    """The generalized Sprague-Grundy value of a position: its components' values, each on
    its own reachable graph, combined by :func:`loopy_nim_sum`."""
    return _LoopyGrundyTable(ruleset, [position]).value(position)


class _LoopyGrundyTable:
    """Generalized Sprague-Grundy values of the components of some positions (one graph)."""

    def __init__(
        self,
        ruleset: Ruleset,
        positions: Iterable[Position],
        table: TranspositionTable | None = None,
    ) -> None:
        self.ruleset = ruleset
        roots = [c for p in positions for c in components(ruleset, p)]
        self.graph = PositionGraph(ruleset, roots, impartial=True, table=table)
        self.values = generalized_grundy(self.graph)

    def value(self, position: Position) -> LoopyGrundy:
        total: LoopyGrundy = 0
        for comp in components(self.ruleset, position):
            total = loopy_nim_sum(total, self.values[self.graph.state(comp, Player.LEFT)])
        return total


def solve_loopy_grundy(ruleset: Ruleset, position: Position, ctx: SolveContext) -> Any:
    """Generalized Sprague-Grundy value (``grundy``: an int or ``inf{...}``), outcome N, P or
    D, and the moves to a P-position (else to a draw)."""
    from cgframework.values import nimber

    moves = options(ruleset, position, ctx.first)
    table = _LoopyGrundyTable(ruleset, [position, *(m.result for m in moves)], ctx.table)
    g = table.value(position)
    outcome = grundy_outcome(g)
    status = {Outcome.P: LOSS, Outcome.N: WIN, Outcome.D: DRAW}
    best, kind = _split_moves(
        [(m.text, i, status[grundy_outcome(table.value(m.result))]) for i, m in enumerate(moves)]
    )
    first_results = {Outcome.N: ("L", "R"), Outcome.P: ("R", "L"), Outcome.D: ("D", "D")}
    left_first, right_first = first_results[outcome]
    return finish(
        ruleset,
        position,
        ctx,
        value=str(g) if isinstance(g, Infinite) else nimber(g),
        outcome=outcome,
        best_moves=best,
        method="loopy-grundy",
        grundy=g if isinstance(g, int) else str(g),
        best_moves_result=kind,
        left_first=left_first,
        right_first=right_first,
    )
