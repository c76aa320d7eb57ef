"""Snort and Col on graphs (Winning Ways, vol. 1, ch. 2; Lessons in Play, ch. 2 and 5): the
players colour uncoloured vertices, Left blue and Right red. In Col no two adjacent vertices
may get the same colour, in Snort no two adjacent vertices different colours.

Once a vertex is coloured only its effect on its neighbours matters, so a position is the
uncoloured vertices and, for each, its tint: ``L`` or ``R`` when a neighbour was coloured by
that player (Winning Ways' tinting), ``.`` when none was. A move deletes its vertex and tints
the neighbours; a vertex tinted by both players can never be coloured and is deleted too.
In Snort only the tinting player may colour a tinted vertex, in Col only the other one.

Positions: ``path:n``, ``cycle:n``, ``grid:RxC``, an edge list ``0-1,1-2`` (vertices 0..n-1;
isolated ones only through a longer tint string), JSON ``{"n": 3, "edges": [[0, 1], [1, 2]],
"tints": "L.."}`` or networkx's node-link JSON (``networkx.node_link_data``); any of them may
end in ``;tints=L..R`` (one letter per vertex). :func:`from_networkx` takes a networkx graph.

Components are the connected pieces; the key is a canonical labelling by colour refinement
and individualisation (the method of McKay's nauty, on a small budget of branches: past it
the key is still exact, only fewer isomorphic graphs share it). Swapping the tints swaps the
players, folded as a negated key.
"""

from __future__ import annotations

import json
import re
from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from cgframework import BaseRuleset, Convention, Move, Player, pick_move
from cgframework_grids.grid import CACHE_LIMIT, PositionError

MAX_VERTICES = 400
#: Leaves of the individualisation tree explored for a canonical labelling.
BRANCH_BUDGET = 64

GraphKey = tuple[int, tuple[tuple[int, int], ...], str]
Token = GraphKey | tuple[int, tuple[tuple[int, int], ...], str, int]

_SWAP = str.maketrans("LR", "RL")


@attrs.frozen
class TintedGraph:
    """Vertices ``0..order-1``, edges ``(u, v)`` with ``u < v`` sorted, a tint per vertex."""

    order: int
    edges: tuple[tuple[int, int], ...]
    tints: str

    def neighbours(self) -> list[int]:
        """Each vertex's neighbours as a bit mask."""
        adj = [0] * self.order
        for u, v in self.edges:
            adj[u] |= 1 << v
            adj[v] |= 1 << u
        return adj


def graph(order: int, edges: Sequence[tuple[int, int]], tints: str | None = None) -> TintedGraph:
    """A checked :class:`TintedGraph` (simple, undirected)."""
    if order > MAX_VERTICES:
        raise PositionError(f"{order} vertices (at most {MAX_VERTICES})")
    tints = "." * order if tints is None else tints
    if len(tints) != order:
        raise PositionError(f"tints has {len(tints)} letters for {order} vertices")
    for i, t in enumerate(tints):
        if t not in ".LR":
            raise PositionError(f"tint {t!r} of vertex {i} (use L, R or .)")
    seen = set()
    for u, v in edges:
        if not (0 <= u < order and 0 <= v < order):
            raise PositionError(f"edge {u}-{v}: vertices are 0..{order - 1}")
        if u == v:
            raise PositionError(f"edge {u}-{v} is a loop: not a simple graph")
        seen.add((min(u, v), max(u, v)))
    return TintedGraph(order, tuple(sorted(seen)), tints)


def from_networkx(g: Any, tints: dict | None = None) -> TintedGraph:
    """A networkx graph (nodes in their iteration order become 0, 1, ...) with optional tints
    ``{node: "L" or "R"}``."""
    names = {node: i for i, node in enumerate(g.nodes)}
    marks = ["."] * len(names)
    for node, tint in (tints or {}).items():
        marks[names[node]] = tint
    return graph(len(names), [(names[u], names[v]) for u, v in g.edges], "".join(marks))


_SIZED = re.compile(r"(path|cycle):(\d+)|grid:(\d+)x(\d+)")


def parse_graph(text: str) -> TintedGraph:
    text = text.strip()
    tints = None
    if not text.startswith("{") and ";" in text:
        text, _, extra = text.partition(";")
        key, _, value = extra.partition("=")
        if key.strip() != "tints":
            raise PositionError(f"unknown option {extra!r} (use ;tints=L.R...)")
        tints = value.strip()
    sized = _SIZED.fullmatch(text)
    if sized:
        if sized.group(1):
            n = int(sized.group(2))
            if sized.group(1) == "cycle" and n < 3:
                raise PositionError("a cycle needs at least 3 vertices")
            if n > MAX_VERTICES:
                raise PositionError(f"{n} vertices (at most {MAX_VERTICES})")
            edges = [(i, i + 1) for i in range(n - 1)]
            if sized.group(1) == "cycle":
                edges.append((0, n - 1))
            return graph(n, edges, tints)
        rows, cols = int(sized.group(3)), int(sized.group(4))
        if rows * cols > MAX_VERTICES or not rows * cols:
            raise PositionError(f"grid:{rows}x{cols}: 1 to {MAX_VERTICES} vertices")
        import networkx

        return (
            from_networkx(networkx.grid_2d_graph(rows, cols))
            if tints is None
            else graph(rows * cols, from_networkx(networkx.grid_2d_graph(rows, cols)).edges, tints)
        )
    if text.startswith("{"):
        return _parse_json(text)
    if ":" in text:
        raise PositionError(f"unknown graph {text!r} (path:n, cycle:n, grid:RxC, 0-1,1-2, JSON)")
    edges = []
    if text not in ("", "-"):
        for n, token in enumerate(text.split(","), 1):
            ends = token.strip().split("-")
            if len(ends) != 2 or not all(e.strip().isdigit() for e in ends):
                raise PositionError(f"edge {n} ({token.strip()!r}): expected U-V, e.g. 0-1")
            edges.append((int(ends[0]), int(ends[1])))
    order = max([max(e) + 1 for e in edges] + [len(tints or "")])
    if not order:
        raise PositionError("a graph needs a vertex (an edge U-V, or ;tints=...)")
    return graph(order, edges, tints)


def _parse_json(text: str) -> TintedGraph:
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise PositionError(f"bad JSON: {exc}") from None
    if not isinstance(data, dict):
        raise PositionError('expected {"n": N, "edges": [[u, v], ...], "tints": "L.R"}')
    if "nodes" in data:  # networkx node-link data
        import networkx

        try:
            g = networkx.node_link_graph(data, edges="links" if "links" in data else "edges")
        except Exception as exc:
            raise PositionError(f"not networkx node-link data: {exc}") from None
        if g.is_directed() or g.is_multigraph():
            raise PositionError("a simple undirected graph is needed")
        tints = {n: d["tint"] for n, d in g.nodes(data=True) if d.get("tint") in ("L", "R")}
        return from_networkx(g, tints)
    n, edges, tints = data.get("n"), data.get("edges", []), data.get("tints")
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise PositionError('"n" must be a positive number of vertices')
    if not isinstance(edges, list) or not all(
        isinstance(e, list) and len(e) == 2 and all(type(x) is int for x in e) for e in edges
    ):
        raise PositionError('"edges" must be a list of [u, v] integer pairs')
    if tints is not None and not isinstance(tints, str):
        raise PositionError('"tints" must be a string of L, R and .')
    return graph(n, [tuple(e) for e in edges], tints)


def format_graph(g: TintedGraph) -> str:
    if not g.order:
        return "path:0"
    text = ",".join(f"{u}-{v}" for u, v in g.edges)
    if not g.edges or g.order != max(max(e) for e in g.edges) + 1 or g.tints.strip("."):
        text += f";tints={g.tints}"
    return text


# ---- structure ----------------------------------------------------------------------------
def induced(g: TintedGraph, keep: int, tints: str | None = None) -> TintedGraph:
    """The subgraph on the vertices of the mask ``keep``, renumbered in order."""
    tints = g.tints if tints is None else tints
    names = {}
    for v in range(g.order):
        if keep >> v & 1:
            names[v] = len(names)
    edges = tuple((names[u], names[v]) for u, v in g.edges if u in names and v in names)
    return TintedGraph(len(names), edges, "".join(tints[v] for v in names))


def pieces(g: TintedGraph, tints: str | None = None, alive: int | None = None) -> list:
    """The connected pieces of the live vertices."""
    adj = g.neighbours()
    remaining = (1 << g.order) - 1 if alive is None else alive
    out = []
    while remaining:
        region = frontier = remaining & -remaining
        while frontier:
            v = frontier.bit_length() - 1
            frontier ^= 1 << v
            new = adj[v] & remaining & ~region
            region |= new
            frontier |= new
        remaining &= ~region
        out.append(induced(g, region, tints))
    return out


def after_move(g: TintedGraph, v: int, player: Player) -> list[TintedGraph]:
    """The pieces after ``player`` colours ``v``: it goes, its neighbours are tinted, and a
    neighbour tinted by both players goes too."""
    mark, other = ("L", "R") if player is Player.LEFT else ("R", "L")
    tints = list(g.tints)
    alive = ((1 << g.order) - 1) & ~(1 << v)
    nbrs = g.neighbours()[v]
    while nbrs:
        u = nbrs.bit_length() - 1
        nbrs ^= 1 << u
        if tints[u] == other:
            alive &= ~(1 << u)
        else:
            tints[u] = mark
    return pieces(g, "".join(tints), alive)


def _leaves(g: TintedGraph) -> Iterator[tuple[GraphKey, list[int]]]:
    """The leaves of the individualisation-refinement tree (at most ``BRANCH_BUDGET``,
    depth first): each a labelling (vertex -> new number) and the encoding (order, edges,
    tints) of the graph relabelled by it."""
    n = g.order
    nbrs = [[] for _ in range(n)]
    for u, v in g.edges:
        nbrs[u].append(v)
        nbrs[v].append(u)

    def refine(colours: list[int]) -> list[int]:
        while True:
            sig = [(colours[v], sorted([colours[u] for u in nbrs[v]])) for v in range(n)]
            order = sorted(range(n), key=sig.__getitem__)
            new = [0] * n
            rank = 0
            for i, v in enumerate(order):
                if i and sig[v] != sig[order[i - 1]]:
                    rank += 1
                new[v] = rank
            if rank + 1 == len(set(colours)):
                return new
            colours = new

    if not n:
        yield (0, (), ""), []
        return
    start = refine([("." + "LR").index(t) * n + len(nbrs[v]) for v, t in enumerate(g.tints)])
    leaves = 0
    stack = [start]
    while stack and leaves < BRANCH_BUDGET:
        colours = stack.pop()
        counts: dict[int, int] = {}
        for c in colours:
            counts[c] = counts.get(c, 0) + 1
        split = min((c for c, k in counts.items() if k > 1), default=None)
        if split is None:
            leaves += 1
            edges = tuple(
                sorted(
                    (min(colours[u], colours[v]), max(colours[u], colours[v])) for u, v in g.edges
                )
            )
            tints = [""] * n
            for v in range(n):
                tints[colours[v]] = g.tints[v]
            yield (n, edges, "".join(tints)), colours
            continue
        for v in reversed([v for v in range(n) if colours[v] == split]):
            doubled = [2 * c for c in colours]
            doubled[v] -= 1
            stack.append(refine(doubled))


def canonical_form(g: TintedGraph) -> GraphKey:
    """The least encoding (order, edges, tints) over the leaves of the individualisation-
    refinement tree (at most ``BRANCH_BUDGET`` of them)."""
    return min((code for code, _ in _leaves(g)), default=(g.order, g.edges, g.tints))


def automorphisms(g: TintedGraph, limit: int) -> list[list[int]]:
    """Up to ``limit`` automorphisms of the graph (tints ignored) as vertex permutations,
    the identity first: two leaves of the refinement tree with the same encoding relabel
    the graph alike, so the first leaf's labelling followed by the inverse of the other's
    maps the graph onto itself. Those found within ``BRANCH_BUDGET`` leaves (all of them
    for paths, cycles and grids; a subset is still sound for folding keys)."""
    first = None
    found = [list(range(g.order))]
    if not g.edges:  # (every permutation: none of them is worth folding for)
        return found
    for code, colours in _leaves(TintedGraph(g.order, g.edges, "." * g.order)):
        if first is None:
            first = (code, colours)
            continue
        if code != first[0]:
            continue
        inverse = [0] * g.order
        for v, c in enumerate(colours):
            inverse[c] = v
        perm = [inverse[c] for c in first[1]]
        if perm not in found:
            found.append(perm)
            if len(found) >= limit:
                break
    return found


# ---- the rulesets -------------------------------------------------------------------------
class GraphRuleset(BaseRuleset):
    """Snort or Col (``forbidden_for_left``: the tint that stops Left colouring a vertex)."""

    convention = Convention.NORMAL
    family = "grids"
    forbidden_for_left = "R"
    sum_separator = "+"

    def __init__(self) -> None:
        self._keys: dict[GraphKey, Token] = {}
        self._splits: dict[tuple[GraphKey, int, Player], tuple[Token, ...]] = {}

    def parse(self, text: str) -> TintedGraph:
        return parse_graph(text)

    def draw(self, position: TintedGraph, marks: Mapping[Hashable, Any] | None = None) -> str:
        from cgframework_grids.drawing import draw_tinted_graph

        return draw_tinted_graph(position.order, position.edges, position.tints, marks)

    def format(self, position: TintedGraph) -> str:
        return format_graph(position)

    def playable(self, g: TintedGraph, player: Player) -> Iterator[int]:
        forbidden = self.forbidden_for_left
        if player is Player.RIGHT:
            forbidden = forbidden.translate(_SWAP)
        for v, t in enumerate(g.tints):
            if t != forbidden:
                yield v

    def options(self, position: TintedGraph, player: Player) -> Iterator[Move]:
        for v in self.playable(position, player):
            parts = after_move(position, v, player)
            edges, tints, order = [], [], 0
            for part in parts:  # the pieces side by side again, as one position
                edges += [(u + order, w + order) for u, w in part.edges]
                tints.append(part.tints)
                order += part.order
            yield Move(TintedGraph(order, tuple(edges), "".join(tints)), f"{v}")

    def move_at(self, position: TintedGraph, picks: Sequence[Hashable], player: Player) -> Any:
        """The move colouring the vertex clicked (its number)."""
        candidates = (((int(m.text),), m) for m in self.options(position, player))
        return pick_move(candidates, picks)

    def components(self, position: TintedGraph) -> Sequence[TintedGraph]:
        return tuple(pieces(position))

    def is_empty(self, position: TintedGraph) -> bool:
        return position.order == 0

    def canonical_key(self, position: TintedGraph) -> GraphKey:
        return canonical_form(position)

    def search_key(self, position: TintedGraph) -> Token:
        return self._signed(position)

    def negated_key(self, token: Token) -> GraphKey | None:
        return token[:3] if len(token) == 4 else None  # type: ignore[return-value]

    def option_keys(self, key: GraphKey, player: Player) -> list[tuple[Token, ...]]:
        """For the core's canonical search: the keys of each option's pieces."""
        g = TintedGraph(*key)
        out = []
        for v in self.playable(g, player):
            found = self._splits.get((key, v, player))
            if found is None:
                if len(self._splits) >= CACHE_LIMIT:
                    self._splits.clear()
                found = tuple(self._signed(p) for p in after_move(g, v, player))
                self._splits[(key, v, player)] = found
            out.append(found)
        return out

    def _signed(self, g: TintedGraph) -> Token:
        """The canonical form of the graph, or of it with its tints swapped (minus its value,
        with -1 appended): the one with more L than R tints, or if as many, the smaller."""
        plain = (g.order, g.edges, g.tints)
        found = self._keys.get(plain)
        if found is None:
            if len(self._keys) >= CACHE_LIMIT:
                self._keys.clear()
            lefts, rights = g.tints.count("L"), g.tints.count("R")
            if lefts < rights:  # more R tints: the swapped graph is the one keyed
                found = (
                    *canonical_form(TintedGraph(g.order, g.edges, g.tints.translate(_SWAP))),
                    -1,
                )
            elif lefts > rights or not lefts:  # (no tints: swapping changes nothing)
                found = canonical_form(g)
            else:  # as many of each: the smaller of the two forms
                own = canonical_form(g)
                other = canonical_form(TintedGraph(g.order, g.edges, g.tints.translate(_SWAP)))
                found = own if own <= other else (*other, -1)
            self._keys[plain] = found
        return found

    def examples(self) -> list[str]:
        return ["path:5", "cycle:6", "grid:2x3", "0-1,1-2,2-3;tints=L..R"]


class Snort(GraphRuleset):
    name = "snort"
    forbidden_for_left = "R"
    syntax = (
        "a graph: path:n, cycle:n, grid:RxC, edge list 0-1,1-2, JSON {n, edges, tints} or "
        "networkx node-link JSON; ;tints=L.R marks vertices next to Left's/Right's colour"
    )


class Col(GraphRuleset):
    name = "col"
    forbidden_for_left = "L"
    syntax = Snort.syntax
