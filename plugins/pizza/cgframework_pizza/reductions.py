"""Equivalence-preserving reductions that reshape a board (Brown & Brown §2.2 and 3.27).

Each rewrite acts on one broached component at a time: the paper states them for a whole
game ``g``, and ``~`` is compatible with ``⊕``, so a component that satisfies the hypotheses
on its own may be rewritten inside any sum (the same argument as for R2, digest §2.2).

- R3, Thm 2.6 (L196-L214): condense ``u - v - w`` around a non-available maximum ``v``.
- R4, Thm 2.11 / Cor 2.14 (L286, L324): a two-ended stack becomes the list of its slice
  weights; a stack becomes that list plus ``st(0, x)``, the representative of ``ev(x)``.
- R5, Thm 2.2 / Cor 2.3 (L156-L174): cut off a pendant non-available path whose weights,
  read from the attachment point, form an ev-sequence; it becomes a stack of its own.
- R6, Prop 2.1 (L152) and (1.6): a stack whose weights form an ev-sequence of weight ``x`` is
  in ``ev(x)``: it becomes ``st(0, x)``, and vanishes when ``x = 0`` (``ev(0) = [<>]``).
- R7, 3.27 (L689): the reduction of a 0-1 e-game (1-clusters condensed or deleted).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from cgframework_pizza.board import Board, Graph, path_order
from cgframework_pizza.slices import st_decomposition, tes_slice_weights

Adjacency = list[set[int]]


def _parts(board: Board) -> tuple[list, Adjacency, set[int]]:
    """The present vertices renumbered 0..k-1: (weights, adjacency, available)."""
    old = sorted(board.present)
    index = {v: i for i, v in enumerate(old)}
    weights = [board.weight(v) for v in old]
    adjacency = [{index[u] for u in board.adjacent(v)} for v in old]
    available = {index[v] for v in board.available}
    return weights, adjacency, available


def _board(weights: Sequence, adjacency: Adjacency, available: Iterable[int], alive) -> Board:
    """A fresh board on the ``alive`` vertices (renumbered in increasing order)."""
    keep = sorted(alive)
    index = {v: i for i, v in enumerate(keep)}
    graph = Graph(
        tuple(weights[v] for v in keep),
        tuple(frozenset(index[u] for u in adjacency[v] if u in index) for v in keep),
    )
    every = frozenset(range(len(keep)))
    return Board(graph, every, frozenset(index[v] for v in available if v in index))


def _components(adjacency: Adjacency, alive: set[int]) -> list[set[int]]:
    seen: set[int] = set()
    parts = []
    for start in sorted(alive):
        if start in seen:
            continue
        part = {start}
        stack = [start]
        while stack:
            for u in adjacency[stack.pop()]:
                if u in alive and u not in part:
                    part.add(u)
                    stack.append(u)
        seen |= part
        parts.append(part)
    return parts


def is_ev_sequence(a: Sequence) -> bool:
    """Even length and (ASC): every even-length prefix has alternating sum <= 0 (L150)."""
    if len(a) % 2:
        return False
    prefix = 0
    for i in range(0, len(a), 2):
        prefix += a[i] - a[i + 1]
        if prefix > 0:
            return False
    return True


def ev_weight(a: Sequence) -> Fraction:
    """x = sum (-1)^i a_i (1-based), the weight of an ev-sequence (L150)."""
    return sum(a[1::2]) - sum(a[0::2])


# ---- R3 ----------------------------------------------------------------------------------
def condense_maximum(ruleset, board: Board) -> Board:
    """R3, Thm 2.6: v not available, maximal in its broached component, adjacent to exactly
    u and w, each of degree <= 2 (degree 1 if available): u, v, w become one vertex p of
    weight wt u - wt v + wt w, adjacent to their outside neighbours, available iff u or w is.
    Repeated while it applies (each step removes two vertices)."""
    weights, adjacency, available = _parts(board)
    alive = set(range(len(weights)))
    changed = False
    while True:
        triple = _condensable(weights, adjacency, available, alive)
        if triple is None:
            break
        u, v, w = triple
        p = len(weights)
        weights.append(weights[u] - weights[v] + weights[w])
        outside = (adjacency[u] | adjacency[w]) - {u, v, w}
        adjacency.append(set(outside))
        for z in outside:
            adjacency[z] -= {u, w}
            adjacency[z].add(p)
        if u in available or w in available:
            available.add(p)
        alive -= {u, v, w}
        alive.add(p)
        changed = True
    return _board(weights, adjacency, available, alive) if changed else board


def _condensable(weights, adjacency, available, alive) -> tuple[int, int, int] | None:
    for part in _components(adjacency, alive):
        if not part & available:
            continue
        top = max(weights[v] for v in part)
        for v in sorted(part):
            if weights[v] != top or v in available or len(adjacency[v]) != 2:
                continue
            u, w = sorted(adjacency[v])
            if (
                all(len(adjacency[x]) <= (1 if x in available else 2) for x in (u, w))
                and w not in adjacency[u]
            ):
                return u, v, w
    return None


# ---- R4 and R6 ---------------------------------------------------------------------------
def condense_stacks(ruleset, board: Board) -> Board:
    """R4 with R6: each two-ended stack ``tes(a)`` becomes ``<s1..sm>`` (Thm 2.11(i)); each
    stack ``st(a)`` becomes ``<s1..sm> + st(0, x)`` (Thm 2.11(ii), Cor 2.12), the stack part
    dropped when ``x = 0``. A stack that is already ``st(0, x)`` with ``x > 0`` is kept."""
    weights, adjacency, available = _parts(board)
    alive = set(range(len(weights)))
    changed = False
    view = _view(weights, adjacency, available)
    for part in _components(adjacency, alive):
        order = path_order(view, frozenset(part))
        if order is None or len(order) < 2:
            continue
        ends = {order[0], order[-1]}
        avail = part & available
        if avail == ends:
            slices, ev = tes_slice_weights([weights[v] for v in order]), None
        elif len(avail) == 1 and avail <= ends:
            a = _stack_weights(weights, order, avail)
            if _is_canonical_ev_stack(a):
                continue
            decomposition = st_decomposition(a)
            slices = [s.weight for s in decomposition.slices]
            ev = decomposition.x or None
        else:
            continue
        alive -= part
        for s in slices:
            alive.add(_vertex(weights, adjacency, available, s, ()))
        if ev is not None:
            alive |= _ev_stack(weights, adjacency, available, ev)
        changed = True
    return _board(weights, adjacency, available, alive) if changed else board


def _stack_weights(weights: Sequence, order: list[int], avail: set[int]) -> list:
    """The weights of a stack (a path with one available end) read from its available top."""
    return [weights[v] for v in (order if order[0] in avail else reversed(order))]


def _is_canonical_ev_stack(a: Sequence) -> bool:
    """Already st(0, x) with x > 0, the form R4 and R6 produce: nothing left to rewrite."""
    return len(a) == 2 and a[0] == 0 and a[1] > 0


def _vertex(weights: list, adjacency: Adjacency, available: set[int], weight, neighbours) -> int:
    """Append an available vertex joined to ``neighbours``; return its index."""
    v = len(weights)
    weights.append(weight)
    adjacency.append(set(neighbours))
    for u in neighbours:
        adjacency[u].add(v)
    available.add(v)
    return v


def _ev_stack(weights: list, adjacency: Adjacency, available: set[int], x) -> set[int]:
    """Append st(0, x), a member of ev(x) (L89); return its two vertices."""
    top = _vertex(weights, adjacency, available, 0, ())
    bottom = _vertex(weights, adjacency, available, x, (top,))
    available.discard(bottom)
    return {top, bottom}


def _view(weights, adjacency, available) -> Board:
    """A board over the working lists (vertex ids unchanged) for ``path_order``."""
    graph = Graph(tuple(weights), tuple(frozenset(a) for a in adjacency))
    every = frozenset(range(len(weights)))
    return Board(graph, every, frozenset(available))


# ---- R5 ----------------------------------------------------------------------------------
def detach_ev_tails(ruleset, board: Board) -> Board:
    """R5, Cor 2.3: a pendant path v1..vn, none available, joined to the rest of its broached
    component only by v1 - w, whose weights a1..an form an ev-sequence: cut v1 - w and make
    v1 available, so g ~ g' + st(a1..an). The longest such tail of each leaf is cut."""
    weights, adjacency, available = _parts(board)
    alive = set(range(len(weights)))
    changed = False
    for part in _components(adjacency, alive):
        if not part & available:
            continue
        for leaf in sorted(part):
            if leaf in available or len(adjacency[leaf]) != 1:
                continue
            cut = _ev_tail(weights, adjacency, available, leaf)
            if cut is not None:
                v1, w = cut
                adjacency[v1].discard(w)
                adjacency[w].discard(v1)
                available.add(v1)
                changed = True
    return _board(weights, adjacency, available, alive) if changed else board


def _ev_tail(weights, adjacency, available, leaf: int) -> tuple[int, int] | None:
    """(v1, w) of the longest ev-sequence tail ending at ``leaf``, or None."""
    path = [leaf]
    best = None
    previous = None
    while True:
        (nxt,) = adjacency[path[-1]] - {previous} if previous is not None else adjacency[leaf]
        if len(path) % 2 == 0 and is_ev_sequence([weights[v] for v in reversed(path)]):
            best = (path[-1], nxt)
        if nxt in available or len(adjacency[nxt]) != 2:
            return best
        previous = path[-1]
        path.append(nxt)


def canonical_ev_stacks(ruleset, board: Board) -> Board:
    """R6, Prop 2.1: a stack whose weights form an ev-sequence of weight x is in ev(x), so it
    becomes st(0, x), or nothing when x = 0."""
    weights, adjacency, available = _parts(board)
    alive = set(range(len(weights)))
    changed = False
    view = _view(weights, adjacency, available)
    for part in _components(adjacency, alive):
        avail = part & available
        if len(part) < 2 or len(avail) != 1:
            continue
        order = path_order(view, frozenset(part))
        if order is None or not avail <= {order[0], order[-1]}:
            continue
        a = _stack_weights(weights, order, avail)
        if not is_ev_sequence(a) or _is_canonical_ev_stack(a):
            continue
        alive -= part
        x = ev_weight(a)
        if x:
            alive |= _ev_stack(weights, adjacency, available, x)
        changed = True
    return _board(weights, adjacency, available, alive) if changed else board


# ---- R7 ----------------------------------------------------------------------------------
def reduce_e_game(ruleset, board: Board) -> Board:
    """R7, 3.27 (L689), on each broached component with all weights 0 or 1: an odd 1-cluster
    becomes one 1-vertex adjacent to the cluster's 0-neighbours (available iff a cluster
    vertex is); an even 1-cluster is deleted, its 0-neighbours are joined pairwise and become
    available if the cluster had an available vertex."""
    weights, adjacency, available = _parts(board)
    alive = set(range(len(weights)))
    changed = False
    for part in _components(adjacency, alive):
        if not part & available or any(weights[v] not in (0, 1) for v in part):
            continue
        ones = {v for v in part if weights[v] == 1}
        for cluster in _components(adjacency, ones):
            if len(cluster) == 1:
                continue
            zeros = {z for v in cluster for z in adjacency[v]} - ones
            was_available = bool(cluster & available)
            for v in cluster:
                for z in adjacency[v] - cluster:
                    adjacency[z].discard(v)
            alive -= cluster
            if len(cluster) % 2:
                p = _vertex(weights, adjacency, available, weights[min(cluster)], zeros)
                if not was_available:
                    available.discard(p)
                alive.add(p)
            else:
                for z in zeros:
                    adjacency[z] |= zeros - {z}
                    if was_available:
                        available.add(z)
            changed = True
    return _board(weights, adjacency, available, alive) if changed else board
