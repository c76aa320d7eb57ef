"""Equivalence-preserving rewrites of boards (safe inside sums), for the generic search.

- R1, (1.5) L114: <a, a, rest> ~ <rest>: two isolated available vertices of equal weight
  cancel.
- R2, Thm 2.5 (L182-L194): an available vertex whose weight is maximal in its component
  can be detached: g ~ (g minus v) + <wt v> (its neighbours become available).
- R8 (value only), Remark 4.6 (L819): delete an even plateau of a lone path or cycle.
"""

from __future__ import annotations

from collections import defaultdict

from cgframework_pizza.board import Board, Graph, assemble, cycle_order, path_order, piece
from cgframework_pizza.slices import plateau_points


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


def delete_even_plateau(ruleset, board: Board) -> Board:
    """R8, Remark 4.6 (L819): in a lone unbroached path or cycle, deleting a whole plateau of
    even length preserves the value. Not an equivalence (Ex 3.18): never inside a sum."""
    parts = board.components()
    if len(parts) != 1 or board.available:
        return board
    order = path_order(board, parts[0])
    cyclic = order is None
    if cyclic:
        order = cycle_order(board, parts[0])
        if order is None:
            return board
    weights = [board.weight(v) for v in order]
    n = len(weights)
    for p in plateau_points(weights, cyclic):
        run = _plateau(weights, p, cyclic)
        if len(run) % 2 == 0 and len(run) < n:
            kept = [w for i, w in enumerate(weights) if i not in run]
            return assemble([piece("cyc" if cyclic and len(kept) > 2 else "path", kept)])
    return board


def _plateau(weights, p: int, cyclic: bool) -> set[int]:
    """The largest run of consecutive equal weights containing p (L767)."""
    n = len(weights)
    run = {p}
    for step in (-1, 1):
        i = p
        while len(run) < n:
            i += step
            if cyclic:
                i %= n
            elif not 0 <= i < n:
                break
            if weights[i] != weights[p]:
                break
            run.add(i)
    return run
