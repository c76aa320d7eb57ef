"""Equivalence-preserving rewrites of boards (safe inside sums), for the generic search.

- R1, (1.5) L114: <a, a, rest> ~ <rest>: two isolated available vertices of equal weight
  cancel.
- R2, Thm 2.5 (L182-L194): an available vertex whose weight is maximal in its component
  can be detached: g ~ (g minus v) + <wt v> (its neighbours become available).
"""

from __future__ import annotations

from collections import defaultdict

from cgframework_pizza.board import Board, Graph


def cancel_equal_pairs(ruleset, board: Board) -> Board:
    singles = defaultdict(list)
    for v in board.available:
        if not board.adjacent(v):
            singles[board.weight(v)].append(v)
    drop = set()
    for vertices in singles.values():
        vertices.sort()
        drop.update(vertices[: len(vertices) // 2 * 2])
    if not drop:
        return board
    present = board.present - drop
    return Board(board.graph, present, board.available & present)


def detach_available_maximum(ruleset, board: Board) -> Board:
    changed = False
    neighbours = list(board.graph.neighbours)
    available = set(board.available)
    for part in board.components():
        if len(part) < 2:
            continue
        top = max(board.weight(v) for v in part)
        candidates = sorted(v for v in part & board.available if board.weight(v) == top)
        if not candidates:
            continue
        v = candidates[0]
        for u in neighbours[v] & part:
            neighbours[u] = neighbours[u] - {v}
            available.add(u)
        neighbours[v] = frozenset()
        changed = True
    if not changed:
        return board
    graph = Graph(board.graph.weights, tuple(neighbours))
    return Board(graph, board.present, frozenset(available) & board.present)
