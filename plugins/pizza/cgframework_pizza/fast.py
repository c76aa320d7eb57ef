"""The ``slices`` solver: any concatenation of lists, stacks, two-ended stacks, and unopened
paths and cycles (pizzas), exactly, without searching the opened parts.

Opened parts are replaced by their slice weights (Thm 2.11: tes(a) ~ <s>, st(a) ~ <s> + ev(x));
a list is played greedily (L109); an unopened path or cycle is opened only at its plateau
points (Thm 4.3, L773), after which it is a tes (cycle) or two stacks (path) (L20). With no
unopened part every move is valued in O(n log n) in all (concat.py); with unopened parts the
value comes from the DP over list suffixes of sums.py, exponential only in the number of
unopened parts. Nothing here builds a board per move: each move's outcome comes from the
parts, so memory stays linear in the board beyond the answer.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import lcm

from cgframework import Solution, SolveContext, finish
from cgframework_pizza.board import Board
from cgframework_pizza.chains import Chains, Part, board_parts
from cgframework_pizza.concat import every_move_outcome, opened_parts, part_weights
from cgframework_pizza.slices import cancel_pairs, plateau_runs
from cgframework_pizza.sums import SumValuer, Unopened, openings

EVALUATE_EVERY_MOVE_UP_TO = 400
"""Up to this many legal moves ``best_moves`` lists every optimal move (each move valued);
beyond it, the moves the theory names: the maximum list entries, the ends of stacks and
two-ended stacks, and every point of the optimal plateaus of unopened parts (Thm 4.3)."""


@lru_cache(maxsize=64)
def _board_parts(board: Board) -> tuple[Part, ...] | None:
    parts = board_parts(board)
    return None if parts is None else tuple(parts)


def parts_of(position) -> tuple[Part, ...] | None:
    if isinstance(position, Chains):
        return position.parts
    if isinstance(position, Board):
        return _board_parts(position)
    return None


def applies(ruleset, position) -> bool:
    return parts_of(position) is not None


def solve_slices(ruleset, position, ctx: SolveContext) -> Solution:
    """Value and optimal moves of a concatenation of lists, stacks, two-ended stacks,
    unopened paths and pizzas."""
    parts = parts_of(position)
    opened = opened_parts(parts)
    if opened is not None:
        outcomes = dict(every_move_outcome(opened))
        value = outcomes.pop(-1)
        ctx.table.nodes += len(outcomes)
    else:
        solver = SumSolver(parts, ctx.budget)
        value, outcomes = solver.root()
        ctx.table.nodes += solver.valuer.nodes
        ctx.table.hits += solver.valuer.hits
    best = [f"#{v + 1}" for v in sorted(outcomes) if outcomes[v] == value]
    return finish(
        ruleset, position, ctx, value=value, outcome=None, best_moves=best, method="slices"
    )


class SumSolver:
    """The value of a board with unopened parts, and the outcome of its candidate moves
    (every move up to ``EVALUATE_EVERY_MOVE_UP_TO`` moves). Rational weights are scaled to
    integers first (val(c*g) = c*val(g), (3.21) L621) and scaled back at the end."""

    def __init__(self, parts: tuple[Part, ...], budget=None) -> None:
        self.scale = lcm(*(getattr(w, "denominator", 1) for p in parts for w in p.weights))
        self.parts = [
            (
                _as_list(p),
                p.weights if self.scale == 1 else tuple(int(w * self.scale) for w in p.weights),
            )
            for p in parts
        ]
        self.valuer = SumValuer(budget=budget)
        moves = sum({"st": 1, "tes": 2}.get(p.kind, len(w)) for p, w in self.parts)
        self.every = moves <= EVALUATE_EVERY_MOVE_UP_TO
        entries: list[int] = []
        self.x = 0
        self.slices: list[tuple] = []  # per part: its slice weights (opened parts)
        self.xs: list[int] = []
        for p, w in self.parts:
            s, x = part_weights(p.kind, w) if not p.unopened else ((), 0)
            self.slices.append(s)
            self.xs.append(x)
            entries.extend(s)
            self.x += x
        self.n = cancel_pairs(entries)
        self.unopened = tuple(Unopened(w, p.kind == "cyc") for p, w in self.parts if p.unopened)

    def _out(self, v) -> Fraction | int:
        return v if self.scale == 1 else Fraction(v, self.scale)

    def root(self) -> tuple[Fraction | int, dict[int, Fraction | int]]:
        value = self.valuer.value(self.n, self.x, self.unopened)
        outcomes: dict[int, int] = {}
        u = 0
        for j, (part, w) in enumerate(self.parts):
            if part.unopened:
                rest = self.unopened[:u] + self.unopened[u + 1 :]
                self._openings(part, self.unopened[u], rest, outcomes)
                u += 1
            elif part.kind == "list":
                self._list_moves(part, w, outcomes)
            else:
                self._end_moves(part, w, j, outcomes)
        return self._out(value), {v: self._out(o) for v, o in outcomes.items()}

    def _list_moves(self, part: Part, w: tuple, outcomes: dict) -> None:
        top = max(w)
        known: dict[int, int] = {}
        for v, weight in zip(part.vertices, w, strict=True):
            if not self.every and weight != top:
                continue  # the maximum dominates the other entries (L109)
            if weight not in known:
                rest = cancel_pairs(self.n + (weight,))  # <a, a> cancels: a toggle
                known[weight] = weight - self.valuer.value(rest, self.x, self.unopened)
            outcomes[v] = known[weight]

    def _end_moves(self, part: Part, w: tuple, j: int, outcomes: dict) -> None:
        ends = (0,) if part.kind == "st" else (0, len(w) - 1)
        for end in ends:
            rest = w[1:] if end == 0 else w[:-1]
            slices, x = part_weights(part.kind, rest)
            entries = cancel_pairs(self.n + self.slices[j] + slices)  # old ones cancel
            x = self.x - self.xs[j] + x
            outcomes[part.vertices[end]] = w[end] - self.valuer.value(entries, x, self.unopened)

    def _openings(self, part: Part, unopened: Unopened, rest: tuple, outcomes: dict) -> None:
        """Every vertex (small boards) or every point of every plateau (Thm 4.3: the points
        of one plateau are equivalent moves; one opening per plateau is valued)."""
        n = len(unopened.weights)
        if self.every:
            groups = [[i] for i in range(n)]
            found = openings(unopened, range(n))
        else:
            runs = plateau_runs(unopened.weights, unopened.cyclic)
            groups = [[i % n for i in range(b, e)] for b, e in runs]
            found = self.valuer.openings(unopened)
        for group, o in zip(groups, found, strict=True):
            entries = cancel_pairs(self.n + o.slices)
            out = o.weight - self.valuer.value(entries, self.x + o.x, rest)
            for i in group:
                outcomes[part.vertices[i]] = out


def _as_list(part: Part) -> Part:
    """A one-vertex unopened path is a list entry: whether an isolated vertex is available
    is irrelevant (L79)."""
    if part.kind == "path" and len(part.weights) == 1:
        return Part("list", part.weights, part.vertices)
    return part
