"""The exact solver on relevant graphs (paper §2.2-§3), shared by the specialised solvers.

A relevant position (no forced vertex, Definition 6, L183-L195) is a multiset of weakly
connected components, each interned as an integer id in a :class:`Components` universe.
Only ``Ls`` is memoised: with the recursion of L234-L240, sign corrected (digest §1.5),

    Ls(G) = max_{x in L} |Rmv(G,x)| + Rs(G_x),     Rs(G) = -Ls(-G)     (Cor. 15, L505),

so ``Ls(G) = max_x |Rmv(G,x)| - Ls(-G_x)``. Pairs ``H + (-H)`` are cancelled from every state
(Milnor's group, L252, Cor. 15), and a Left move ``x'`` inside ``Rmv(G,x)`` of another
Left move is skipped (Cor. 13, L457-L476).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from cgframework.runtime.budget import NO_LIMIT, SearchBudget
from cgframework_influence.graph import (
    InfluenceGraph,
    bits,
    closure,
    forced,
    rmv,
    weak_components,
)

State = tuple[int, ...]
Move = tuple[int, State]
"""(points earned, the negated resulting components)."""


class Components:
    """Interns components; subclasses know their Left moves and their negatives."""

    def __init__(self) -> None:
        self.ids: dict[Hashable, int] = {}
        self.keys: list[Hashable] = []
        self.sizes: list[int] = []
        self._neg: list[int | None] = []
        self._moves: list[list[Move] | None] = []
        self.budget: SearchBudget | None = None
        """The search's budget, whose deadline costly interning checks (set by :class:`Engine`)."""

    def intern(self, key: Hashable, size: int) -> int:
        found = self.ids.get(key)
        if found is None:
            found = self.ids[key] = len(self.keys)
            self.keys.append(key)
            self.sizes.append(size)
            self._neg.append(None)
            self._moves.append(None)
        return found

    def neg(self, cid: int) -> int:
        found = self._neg[cid]
        if found is None:
            found = self._neg[cid] = self.negate(cid)
            self._neg[found] = cid
        return found

    def moves(self, cid: int) -> list[Move]:
        found = self._moves[cid]
        if found is None:
            found = self._moves[cid] = self.left_moves(cid)
        return found

    def negate(self, cid: int) -> int:
        raise NotImplementedError

    def closed_form(self, state: State) -> int | None:
        """Ls of ``state`` when a theorem gives it, else None (default: none known)."""
        return None

    def left_moves(self, cid: int) -> list[Move]:
        """Left's moves in the component: (|Rmv|, ids of -(components of G_x)), deduplicated
        and without dominated ones."""
        raise NotImplementedError


def add(state: Sequence[int], new: Sequence[int], neg: list[int]) -> State:
    """``state + new`` with pairs H + (-H) cancelled (``state`` has none already)."""
    out = list(state)
    for c in new:
        try:
            out.remove(neg[c])
        except ValueError:
            out.append(c)
    out.sort()
    return tuple(out)


class Engine:
    """Ls over multisets of components, memoised; ``nodes``/``hits`` count the search, and
    a ``budget`` (:mod:`cgframework.runtime.budget`) stops it (exit 3) past its nodes or
    deadline."""

    def __init__(self, universe: Components, budget: SearchBudget | None = None) -> None:
        self.u = universe
        self.memo: dict[State, int] = {(): 0}
        self.nodes = 0
        self.hits = 0
        self.budget = budget
        self.check_at = NO_LIMIT if budget is None else budget.start().check(0)
        universe.budget = budget

    def normal(self, ids: Sequence[int]) -> State:
        """The state of components ``ids``: sorted, pairs H + (-H) cancelled."""
        for c in ids:
            self.u.neg(c)
        return add((), ids, self.u._neg)  # type: ignore[arg-type]

    def negated(self, state: State) -> State:
        return tuple(sorted(self.u.neg(c) for c in state))

    def ls(self, state: State) -> int:
        """Ls of the relevant graph made of the components ``state`` (cancelled, sorted)."""
        found = self.memo.get(state)
        if found is not None:
            self.hits += 1
            return found
        u = self.u
        best = u.closed_form(state) if len(state) == 2 else None
        if best is not None:
            self.memo[state] = best
            return best
        self.nodes += 1
        if self.nodes >= self.check_at:
            self.check_at = self.budget.check(self.nodes)  # type: ignore[union-attr]
        previous = -1
        for i, c in enumerate(state):
            if c == previous:
                continue
            previous = c
            moves = u.moves(c)
            if not moves:
                continue
            rest = [u.neg(d) for d in state[:i] + state[i + 1 :]]
            negs = u._neg
            for gain, negres in moves:  # negres are negatives: their own neg is known
                value = gain - self.ls(add(rest, negres, negs))  # type: ignore[arg-type]
                if best is None or value > best:
                    best = value
        if best is None:  # no Left vertex: Right takes everything (waiting rule, L20)
            best = -sum(u.sizes[c] for c in state)
        self.memo[state] = best
        return best

    def ls_rs(self, state: State) -> tuple[int, int]:
        return self.ls(state), -self.ls(self.negated(state))


# ---------------------------------------------------------------- general digraphs


def canonical_form(g: InfluenceGraph, budget: int = 64) -> tuple:
    """The key of :func:`canonical_labelling`."""
    return canonical_labelling(g, budget)[0]


def canonical_labelling(g: InfluenceGraph, budget: int = 64) -> tuple[tuple, list[int]]:
    """A labelling-independent key of a small digraph: colour refinement, then
    individualisation of the smallest ambiguous class, the least key over all branches.
    Past ``budget`` branches only the first branch is kept: the key then still determines
    the graph (equal keys mean isomorphic graphs) but isomorphic graphs may differ."""
    n = g.n
    out_adj = [[] for _ in range(n)]
    in_adj = [[] for _ in range(n)]
    for a, b in g.arcs:
        out_adj[a].append(b)
        in_adj[b].append(a)
    start = [0 if c == "L" else 1 for c in g.colors]
    left = [budget]

    def refine(cls: list[int]) -> list[int]:
        count = len(set(cls))
        while True:
            sig = [
                (
                    cls[v],
                    tuple(sorted(cls[w] for w in out_adj[v])),
                    tuple(sorted(cls[w] for w in in_adj[v])),
                )
                for v in range(n)
            ]
            order = {s: i for i, s in enumerate(sorted(set(sig)))}
            cls = [order[s] for s in sig]
            if len(order) == count:
                return cls
            count = len(order)

    def key_of(cls: list[int]) -> tuple[tuple, list[int]]:
        perm = sorted(range(n), key=cls.__getitem__)
        pos = {v: i for i, v in enumerate(perm)}
        key = (
            "".join(g.colors[v] for v in perm),
            tuple(sorted((pos[a], pos[b]) for a, b in g.arcs)),
        )
        return key, perm

    def search(cls: list[int]) -> tuple[tuple, list[int]]:
        cls = refine(cls)
        sizes: dict[int, int] = {}
        for c in cls:
            sizes[c] = sizes.get(c, 0) + 1
        ambiguous = [c for c, k in sizes.items() if k > 1]
        if not ambiguous:
            return key_of(cls)
        target = min(ambiguous, key=lambda c: (sizes[c], c))
        best = None
        for v in range(n):
            if cls[v] != target:
                continue
            split = [2 * c + (0 if c != target or w == v else 1) for w, c in enumerate(cls)]
            found = search(split)
            if best is None or found[0] < best[0]:
                best = found
            left[0] -= 1
            if left[0] <= 0:
                break
        return best

    return search(start)


class GraphComponents(Components):
    """Any relevant weakly connected digraph, keyed by :func:`canonical_form`."""

    def __init__(self) -> None:
        super().__init__()
        self.graphs: list[InfluenceGraph] = []

    def add_graph(self, g: InfluenceGraph) -> int:
        if self.budget is not None:  # (a labelling of a big graph takes milliseconds)
            self.budget.check_time()
        key = canonical_form(g)
        cid = self.intern(key, g.n)
        if cid == len(self.graphs):
            self.graphs.append(InfluenceGraph(key[0], key[1]))
        return cid

    def negate(self, cid: int) -> int:
        g = self.graphs[cid]
        colors = g.colors.translate(str.maketrans("LR", "RL"))
        return self.add_graph(InfluenceGraph(colors, tuple(sorted((v, u) for u, v in g.arcs))))

    def split(self, g: InfluenceGraph, alive: int) -> list[int]:
        """Ids of the weak components of the subgraph on ``alive``."""
        succ, pred = g.succ_masks(), g.pred_masks()
        return [self.add_graph(g.induced(part)) for part in weak_components(succ, pred, alive)]

    def left_moves(self, cid: int) -> list[Move]:
        g = self.graphs[cid]
        succ, pred = g.succ_masks(), g.pred_masks()
        left = g.colour_mask("L")
        removed = {x: rmv(succ, pred, left, g.full, x) for x in bits(left)}
        keep = [x for x in removed if not _dominated(x, removed)] or list(removed)
        out = set()
        for x in keep:
            taken = removed[x]
            rest = self.split(g, g.full & ~taken)
            out.add((taken.bit_count(), tuple(sorted(self.neg(c) for c in rest))))
        return sorted(out)


def _dominated(x: int, removed: dict[int, int]) -> bool:
    """Cor. 13 (L457-L476): a move x inside Rmv(G,y) is no better than y (ties: lower y)."""
    for y, taken in removed.items():
        if y != x and taken >> x & 1 and (not removed[x] >> y & 1 or y < x):
            return True
    return False


def relevant_core(g: InfluenceGraph) -> tuple[int, int]:
    """(mask of G minus Forc(G), |Forc_L| - |Forc_R|): one pass suffices (L195)."""
    succ, pred = g.succ_masks(), g.pred_masks()
    fl, fr = forced(succ, pred, g.colour_mask("L"), g.full)
    return g.full & ~(fl | fr), fl.bit_count() - fr.bit_count()


def reach(g: InfluenceGraph, v: int) -> int:
    """Succ(G,v) for a Left vertex, Pred(G,v) for a Right one."""
    adj = g.succ_masks() if g.colors[v] == "L" else g.pred_masks()
    return closure(adj, 1 << v, g.full)
