"""Integer-packed graphs for the search: ``(weights, loop mask, adjacency masks)`` tuples.

The same operations as :mod:`graph` and :mod:`reductions` (moves, live components, Proposition 1
reductions) on bit masks, to cut the per-position cost of the search; the property tests
check both versions against each other and against the generic solver.
"""

from __future__ import annotations

from cgframework.solvers.vertex_masks import bits
from cgframework_wak.graph import WakGraph

FG = tuple[tuple[int, ...], int, tuple[int, ...]]


def from_graph(graph: WakGraph) -> FG:
    adj = [0] * graph.n
    for u, v in graph.edges:
        adj[u] |= 1 << v
        adj[v] |= 1 << u
    loops = 0
    for v in graph.loops:
        loops |= 1 << v
    return graph.weights, loops, tuple(adj)


def to_graph(fg: FG) -> WakGraph:
    w, lm, adj = fg
    edges = [(u, v) for u in range(len(w)) for v in bits(adj[u] >> (u + 1) << (u + 1))]
    return WakGraph(w, edges, bits(lm))


def _restrict(w: tuple[int, ...], lm: int, adj, keep: int) -> FG:
    """The subgraph on the vertex mask ``keep``, relabelled in increasing order."""
    n = len(w)
    full = (1 << n) - 1
    if keep == full:
        return w, lm, tuple(adj)
    verts = bits(keep)
    gone = bits(full & ~keep)
    if len(gone) <= 6:  # squeeze the masks: each run of kept bits shifts down as one block
        runs = []
        low = 0
        for shift, cut in enumerate(gone):
            if cut > low:
                runs.append(((1 << cut) - (1 << low), shift))
            low = cut + 1
        if low < n:
            runs.append((full - ((1 << low) - 1), len(gone)))
        new_adj = []
        for v in verts:
            m = adj[v]
            out = 0
            for mask, shift in runs:
                out |= (m & mask) >> shift
            new_adj.append(out)
        new_lm = 0
        for mask, shift in runs:
            new_lm |= (lm & mask) >> shift
        return tuple(w[v] for v in verts), new_lm, tuple(new_adj)
    index = {v: i for i, v in enumerate(verts)}
    new_adj = []
    for v in verts:
        m = adj[v] & keep
        out = 0
        while m:
            low_bit = m & -m
            out |= 1 << index[low_bit.bit_length() - 1]
            m ^= low_bit
        new_adj.append(out)
    new_lm = 0
    for i, v in enumerate(verts):
        if lm >> v & 1:
            new_lm |= 1 << i
    return tuple(w[v] for v in verts), new_lm, tuple(new_adj)


def split(w: tuple[int, ...], lm: int, adj) -> list[FG]:
    """Connected components of the live part (counters > 0 and a playable edge or loop)."""
    positive = 0
    for v, x in enumerate(w):
        if x:
            positive |= 1 << v
    live = 0
    for v, x in enumerate(w):
        if x and (lm >> v & 1 or adj[v] & positive):
            live |= 1 << v
    return _components(w, lm, adj, live)


def children(fg: FG) -> list[tuple[int, ...]]:
    """The weights after each playable loop and edge (L60-L61)."""
    w, lm, adj = fg
    out = []
    for v, x in enumerate(w):
        if not x:
            continue
        if lm >> v & 1:
            after = list(w)
            after[v] -= 1
            out.append(tuple(after))
        for u in bits(adj[v] >> (v + 1)):
            u += v + 1
            if w[u]:
                after = list(w)
                after[v] -= 1
                after[u] -= 1
                out.append(tuple(after))
    return out


def reduce_fg(fg: FG) -> list[FG]:
    """Proposition 1 (L118) to a fixpoint (useless, heavy with the SUM condition, false
    twins; see reductions.py), then the live components."""
    w = list(fg[0])
    n = len(w)
    alive = 0
    for v in range(n):
        if w[v]:
            alive |= 1 << v
    lm, alive, changed = _fixpoint(w, fg[1], fg[2], alive, bits(alive), alive)
    if not changed and alive == (1 << n) - 1:
        return [fg]
    return _components(tuple(w), lm, fg[2], alive)


def _fixpoint(
    w: list[int], lm: int, adj, alive: int, queue: list[int], dirty: int
) -> tuple[int, int, bool]:
    """Reduce in place from the vertices in ``queue`` (the only ones that may have become
    dead, useless or heavy) and ``dirty`` (the only ones that may have a new false twin):
    drop dead and useless vertices, delete heavy ones (loops on their neighbours), merge
    false twins, until nothing applies. Returns (loop mask, alive mask, changed)."""
    changed = False
    while True:
        while queue:
            u = queue.pop()
            bit = 1 << u
            if not alive & bit:
                continue
            nbrs = adj[u] & alive
            looped = lm & bit
            if not looped and (not nbrs or not nbrs & ~lm):  # dead, or useless
                alive ^= bit
                changed = True
                dirty |= nbrs
                queue.extend(bits(nbrs))
                continue
            if not looped and w[u] >= nbrs.bit_count():  # else lighter than its neighbours
                total = 0
                for v in bits(nbrs):
                    total += w[v]
                if w[u] >= total:  # heavy
                    alive ^= bit
                    changed = True
                    lm |= nbrs
                    dirty |= nbrs
                    for v in bits(nbrs):
                        queue.append(v)
                        queue.extend(bits(adj[v] & alive))
        merged = False
        # A new twin pair has a dirty member c; its twin v shares c's neighbours.
        for c in bits(dirty & alive):
            if not alive >> c & 1:
                continue
            nbrs = adj[c] & alive
            if not nbrs:
                continue
            loop = lm >> c & 1
            t = (nbrs & -nbrs).bit_length() - 1
            for v in bits(adj[t] & alive & ~(1 << c)):
                if adj[v] & alive == nbrs and lm >> v & 1 == loop:
                    w[c] += w[v]
                    alive &= ~(1 << v)
                    merged = True
                    queue.append(c)
                    for x in bits(nbrs):
                        queue.append(x)
                        queue.extend(bits(adj[x] & alive))
        dirty = 0
        if not merged:
            return lm, alive, changed
        changed = True


def reduced_child_parts(fg: FG) -> list[list[FG]]:
    """For each move of a canonical component (no useless or heavy vertex, no twins), the
    reduced live components after it. Only the vertices the move touched and their
    neighbours can become dead, useless or heavy, so the fixpoint starts from them."""
    w, lm, adj = fg
    n = len(w)
    full = (1 << n) - 1
    out = []
    for v in range(n):
        x = w[v]
        if lm >> v & 1:
            after = list(w)
            after[v] = x - 1
            start = [v, *bits(adj[v])]
            alive = full & ~(1 << v) if x == 1 else full
            dirty = adj[v] if x == 1 else 0
            lm2, alive, _ = _fixpoint(after, lm, adj, alive, start, dirty)
            out.append(_components(tuple(after), lm2, adj, alive))
        for u in bits(adj[v] >> (v + 1)):
            u += v + 1
            after = list(w)
            after[v] = x - 1
            after[u] -= 1
            alive = full
            dirty = 0
            if x == 1:
                alive ^= 1 << v
                dirty |= adj[v]
            if w[u] == 1:
                alive ^= 1 << u
                dirty |= adj[u]
            queue = [v, u, *bits(adj[v] | adj[u])]
            lm2, alive, _ = _fixpoint(after, lm, adj, alive, queue, dirty)
            out.append(_components(tuple(after), lm2, adj, alive))
    return out


def closed_form(fg: FG) -> int | None:
    """Proven closed forms of a connected live component (see formulas.py): all counters
    even (digest P15), a looped vertex (Lemma 1), two vertices (Lemma 2 when both are looped;
    else a useless or heavy end reduces it to Lemma 1)."""
    w, lm, adj = fg
    if all(x % 2 == 0 for x in w):
        return 0
    n = len(w)
    if n == 1:
        return w[0] % 2
    if n == 2:
        a, b = w
        if lm == 3:
            return (a + b) % 2 + 2 * (min(a, b) % 2)
        if lm == 1:
            return a % 2
        if lm == 2:
            return b % 2
        return min(a, b) % 2
    return None


def is_ak_path(fg: FG) -> bool:
    """Loopless, every counter 1, a path (Arc-Kayles on P_n)."""
    w, lm, adj = fg
    if lm or any(x != 1 for x in w):
        return False
    degrees = [m.bit_count() for m in adj]
    return max(degrees) <= 2 and sum(degrees) == 2 * (len(w) - 1)


def certificate(fg: FG):
    """The exact certificate (certificate.py) of a connected packed graph, without building a
    WakGraph."""
    from cgframework_wak.certificate import certificate_of

    w, lm, adj_masks = fg
    adj = [bits(m) for m in adj_masks]
    edges = [(u, v) for u in range(len(w)) for v in adj[u] if u < v]
    lab = [(x, lm >> v & 1) for v, x in enumerate(w)]
    return certificate_of(adj, edges, lab)


def _components(w: tuple[int, ...], lm: int, adj, live: int) -> list[FG]:
    out = []
    rest = live
    while rest:
        comp = frontier = rest & -rest
        while frontier:
            low = frontier & -frontier
            frontier ^= low
            new = adj[low.bit_length() - 1] & live & ~comp
            comp |= new
            frontier |= new
        rest &= ~comp
        out.append(_restrict(w, lm, adj, comp))
    return out


def child_parts(fg: FG) -> list[list[FG]]:
    """For each playable loop and edge of a connected live component, the live components
    after it. Only the vertices emptied by the move and their neighbours can change, so a
    move that empties no vertex leaves one component of the same shape."""
    w, lm, adj = fg
    n = len(w)
    full = (1 << n) - 1
    out = []
    for v in range(n):
        x = w[v]
        if lm >> v & 1:
            after = list(w)
            after[v] = x - 1
            out.append(_after(tuple(after), lm, adj, full, (1 << v) if x == 1 else 0))
        for u in bits(adj[v] >> (v + 1)):
            u += v + 1
            after = list(w)
            after[v] = x - 1
            after[u] -= 1
            emptied = (1 << v if x == 1 else 0) | (1 << u if w[u] == 1 else 0)
            out.append(_after(tuple(after), lm, adj, full, emptied))
    return out


def _after(weights: tuple[int, ...], lm: int, adj, full: int, emptied: int) -> list[FG]:
    if not emptied:
        return [(weights, lm, adj)]
    live = full & ~emptied
    near = 0
    for z in bits(emptied):
        near |= adj[z]
    for x in bits(near & live & ~lm):
        if not adj[x] & live:
            live &= ~(1 << x)
    return _components(weights, lm, adj, live)
