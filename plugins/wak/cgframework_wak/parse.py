"""Reading and writing WAK and Arc-Kayles graphs: JSON, named families, edge lists, networkx.

Every error is a ValueError naming the offending token (the CLI prints it on one line).
"""

from __future__ import annotations

import json
from typing import Any

from cgframework.runtime.deep import check_nesting
from cgframework_wak.graph import EMPTY, WakGraph, make_graph

JSON_KEYS = ("n", "edges", "loops", "weights")
MAX_VERTICES = 100_000
MAX_EDGES = 1_000_000
"""Graphs larger than this are refused before they are built (a solver could not finish
them; building them could exhaust memory). Paths are answered in linear time up to it."""


def check_size(vertices: int, edges: int, what: str) -> None:
    """Refuse a graph over :data:`MAX_VERTICES` vertices or :data:`MAX_EDGES` edges."""
    if vertices > MAX_VERTICES:
        raise ValueError(f"{what} has {vertices} vertices; the limit is {MAX_VERTICES}")
    if edges > MAX_EDGES:
        raise ValueError(f"{what} has {edges} edges; the limit is {MAX_EDGES}")


def dump_json(graph: WakGraph, arc_kayles: bool = False) -> str:
    """Compact JSON text; Arc-Kayles graphs omit loops and weights (all counters 1)."""
    data: dict[str, Any] = {"n": graph.n, "edges": [list(e) for e in graph.edges]}
    if not arc_kayles:
        data["loops"] = list(graph.loops)
        data["weights"] = list(graph.weights)
    return json.dumps(data, separators=(",", ":"))


MAX_JSON_NESTING = 10
"""The graph object nests 3 deep ({"edges": [[0, 1]]}); deeper JSON is refused unread."""


def parse_json(text: str, arc_kayles: bool = False) -> WakGraph:
    check_nesting(text, MAX_JSON_NESTING, opening="[{")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"malformed JSON at column {exc.colno}: {exc.msg}") from None
    if not isinstance(data, dict):
        raise ValueError("a graph in JSON is an object with keys n, edges, loops, weights")
    for key in data:
        if key not in JSON_KEYS:
            raise ValueError(f"unknown key {key!r} (expected {', '.join(JSON_KEYS)})")
    if "n" not in data:
        raise ValueError("missing key 'n' (the number of vertices)")
    if isinstance(data["n"], int) and not isinstance(data["n"], bool):
        check_size(data["n"], 0, "the graph")
    if arc_kayles:
        if data.get("loops"):
            raise ValueError("arc-kayles has no loops: use ruleset wak")
        bad = [w for w in data.get("weights") or [] if w not in (0, 1)]
        if bad:
            raise ValueError(f"arc-kayles counter {bad[0]!r} is not 0 or 1: use ruleset wak")
    edges = data.get("edges", [])
    loops = data.get("loops", [])
    for name, value in (("edges", edges), ("loops", loops)):
        if not isinstance(value, list):
            raise ValueError(f"{name!r} must be a list, got {value!r}")
    weights = data.get("weights")
    if weights is not None and not isinstance(weights, list):
        raise ValueError(f"'weights' must be a list, got {weights!r}")
    for edge in edges:
        if not isinstance(edge, list):
            raise ValueError(f"edge {edge!r} is not a pair [u, v]")
    return make_graph(data["n"], edges, loops, weights)


def _counters(body: str, family: str) -> list[int]:
    out = []
    for token in body.split(","):
        token = token.strip()
        try:
            out.append(int(token))
        except ValueError:
            raise ValueError(f"counter {token!r} in {family}: is not an integer") from None
    for w in out:
        if w < 0:
            raise ValueError(f"negative counter {w} in {family}:")
    return out


def _size(body: str, family: str, least: int = 0) -> int:
    token = body.strip()
    if not (token.isascii() and token.isdigit()):
        raise ValueError(f"size {token!r} in {family}: is not a non-negative integer")
    n = int(token)
    if n < least:
        raise ValueError(f"{family}:{n} needs at least {least} vertices")
    return n


def path_edges(n: int) -> list[tuple[int, int]]:
    return [(i, i + 1) for i in range(n - 1)]


def cycle_edges(n: int) -> list[tuple[int, int]]:
    return path_edges(n) + [(0, n - 1)]


def complete_edges(n: int) -> list[tuple[int, int]]:
    return [(i, j) for i in range(n) for j in range(i + 1, n)]


def grid_graph(rows: int, cols: int) -> WakGraph:
    """The R x C grid graph, vertex r*C + c, all counters 1 (Arc-Kayles)."""
    edges = []
    for r in range(rows):
        for c in range(cols):
            v = r * cols + c
            if c + 1 < cols:
                edges.append((v, v + 1))
            if r + 1 < rows:
                edges.append((v, v + cols))
    return make_graph(rows * cols, edges)


def wheel_graph(n: int) -> WakGraph:
    """Hub 0 plus the cycle C_n on 1..n (Arc-Kayles)."""
    rim = [(u + 1, v + 1) for u, v in cycle_edges(n)]
    return make_graph(n + 1, [(0, i) for i in range(1, n + 1)] + rim)


def parse_family(name: str, body: str, arc_kayles: bool) -> WakGraph:
    """``path:3,1,4`` (WAK counters) or ``path:5`` (Arc-Kayles size), and so on."""
    if arc_kayles:
        if name == "grid":
            r, sep, c = body.lower().partition("x")
            if not sep:
                raise ValueError(f"grid size {body!r} is not RxC")
            rows, cols = _size(r, "grid", 1), _size(c, "grid", 1)
            check_size(rows * cols, 2 * rows * cols, f"grid:{rows}x{cols}")
            return grid_graph(rows, cols)
        if name == "wheel":
            n = _size(body, "wheel", 3)
            check_size(n + 1, 2 * n, f"wheel:{n}")
            return wheel_graph(n)
        if name == "star":
            k = _size(body, "star")
            check_size(k + 1, k, f"star:{k}")
            return make_graph(k + 1, [(0, i) for i in range(1, k + 1)])
        least = {"path": 0, "cycle": 3, "complete": 0}.get(name)
        if least is None:
            raise ValueError(
                f"unknown family {name!r} (path:n, cycle:n, complete:n, star:k, grid:RxC, wheel:n)"
            )
        n = _size(body, name, least)
        weights = None
    else:
        if name == "star":
            centre, sep, leaves = body.partition(";")
            if not sep:
                raise ValueError(f"star {body!r} is not c;l1,l2,...")
            c = _counters(centre, "star")
            if len(c) != 1:
                raise ValueError(f"star centre {centre!r} is not one counter")
            ls = _counters(leaves, "star") if leaves.strip() else []
            return make_graph(len(ls) + 1, [(0, i) for i in range(1, len(ls) + 1)], (), c + ls)
        if name not in ("path", "cycle", "complete"):
            raise ValueError(
                f"unknown family {name!r} (path:w1,w2,..., cycle:..., complete:..., star:c;l1,...)"
            )
        weights = _counters(body, name) if body.strip() else []
        n = len(weights)
        if name == "cycle" and n < 3:
            raise ValueError(f"cycle needs at least 3 counters, got {n}")
    check_size(n, n * (n - 1) // 2 if name == "complete" else n, f"{name}:{n}")
    edges = {"path": path_edges, "cycle": cycle_edges, "complete": complete_edges}[name](n)
    return make_graph(n, edges, (), weights)


def parse_edge_list(text: str, arc_kayles: bool) -> WakGraph:
    """``0-1,1-2,2-3`` then optional ``;n=5``, ``;w=3,1,4,1`` and ``;loops=0`` (WAK only)."""
    head, *fields = text.split(";")
    edges = []
    top = -1
    for token in head.replace(",", " ").split():
        u, sep, v = token.partition("-")
        if not sep or not (u + v).isascii() or not u.strip().isdigit() or not v.strip().isdigit():
            raise ValueError(f"edge {token!r} is not u-v with vertex numbers")
        edges.append((int(u), int(v)))
        top = max(top, int(u), int(v))
    n = top + 1
    weights = None
    loops: list[int] = []
    for field in fields:
        key, sep, value = field.partition("=")
        key = key.strip()
        if not sep:
            raise ValueError(f"field {field.strip()!r} is not key=value (n, w, loops)")
        if key == "n":
            n = _size(value, "n")
            check_size(n, 0, "the graph")
            if n <= top:
                raise ValueError(f"n={n} but edge vertex {top} appears")
        elif key in ("w", "weights") and not arc_kayles:
            weights = _counters(value, "w")
        elif key == "loops" and not arc_kayles:
            loops = [int(x) for x in _counters(value, "loops")] if value.strip() else []
        else:
            allowed = "n" if arc_kayles else "n, w, loops"
            raise ValueError(f"unknown field {key!r} (allowed: {allowed})")
    if weights is not None and n < len(weights):
        n = len(weights)
    check_size(n, len(edges), "the graph")  # (a vertex number sets n too: 0-10^100)
    return make_graph(n, edges, loops, weights)


def parse_graph(text: str, arc_kayles: bool = False) -> WakGraph:
    """Any of the accepted syntaxes: JSON, ``family:...``, or an edge list."""
    text = text.strip()
    if not text:
        raise ValueError("empty graph text")
    if text.startswith("{"):
        return parse_json(text, arc_kayles)
    if text == "empty":
        return EMPTY
    name, sep, body = text.partition(":")
    if sep and name.strip().isalpha():
        return parse_family(name.strip().lower(), body, arc_kayles)
    return parse_edge_list(text, arc_kayles)


def from_networkx(graph: Any, weight: str = "w", loop: str = "loop") -> WakGraph:
    """A networkx graph with node attributes ``w`` (counters, default 1) and ``loop``
    (bool). Nodes are numbered in sorted order when sortable, else insertion order."""
    nodes = list(graph.nodes)
    try:
        nodes = sorted(nodes)
    except TypeError:
        pass
    index = {v: i for i, v in enumerate(nodes)}
    edges = []
    for u, v in graph.edges():
        if u == v:
            raise ValueError(f"self-loop {u!r}-{v!r} written as an edge: set node attribute loop")
        edges.append((index[u], index[v]))
    weights = [graph.nodes[v].get(weight, 1) for v in nodes]
    loops = [index[v] for v in nodes if graph.nodes[v].get(loop, False)]
    return make_graph(len(nodes), edges, loops, weights)


def to_networkx(graph: WakGraph) -> Any:
    """The graph as networkx, with node attributes ``w`` and ``loop``."""
    import networkx as nx

    g = nx.Graph()
    for v, w in enumerate(graph.weights):
        g.add_node(v, w=w, loop=graph.has_loop(v))
    g.add_edges_from(graph.edges)
    return g
