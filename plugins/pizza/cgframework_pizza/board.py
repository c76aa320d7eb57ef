"""Graph-game boards of Brown & Brown, "Graph Games and the Pizza Problem" (§1, L39-L71).

A board is a vertex-weighted graph with a set of available vertices. A move takes an
available vertex, or any vertex of a component with no available vertex (unbroached); the
neighbours of a taken vertex become available. The mover scores the vertex's weight.

Named families (L71): ``st(a1..an)`` stack (top a1), ``tes(a1..an)`` two-ended stack,
``path(a1..an)`` unbroached path, ``cyc(a1..an)`` cycle (a pizza when weights >= 0),
``<a1..an>`` isolated available vertices, ``graph(WEIGHTS; EDGES; AVAILABLE)`` any board;
``+`` is concatenation (disjoint union). A bare list ``3,1,4,1,5`` is a pizza.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from fractions import Fraction

import attrs

from cgframework import as_score, top_level_split
from cgframework.runtime.deep import check_nesting


@attrs.frozen(cache_hash=True)
class Graph:
    """The fixed part of a board: vertex weights and adjacency (vertices 0..n-1)."""

    weights: tuple[Fraction, ...]
    neighbours: tuple[frozenset[int], ...]


@attrs.frozen(cache_hash=True)
class Board:
    """A position: the graph, the vertices still present, and the available ones among them."""

    graph: Graph
    present: frozenset[int]
    available: frozenset[int]

    def weight(self, v: int) -> Fraction:
        return self.graph.weights[v]

    def adjacent(self, v: int) -> frozenset[int]:
        return self.graph.neighbours[v] & self.present

    def components(self) -> list[frozenset[int]]:
        """Connected components of the present vertices, each in increasing order of its
        smallest vertex."""
        seen: set[int] = set()
        parts = []
        for start in sorted(self.present):
            if start in seen:
                continue
            part = {start}
            stack = [start]
            while stack:
                for u in self.adjacent(stack.pop()):
                    if u not in part:
                        part.add(u)
                        stack.append(u)
            seen |= part
            parts.append(frozenset(part))
        return parts

    def legal_moves(self) -> list[int]:
        """Rule (i) available vertices; rule (ii) every vertex of an unbroached component
        (L41-L43), re-evaluated at every turn."""
        moves = set(self.available)
        for part in self.components():
            if not part & self.available:
                moves |= part
        return sorted(moves)

    def remove(self, v: int) -> Board:
        """Take v: it leaves, its neighbours become available (L39)."""
        present = self.present - {v}
        available = (self.available | self.graph.neighbours[v]) & present
        return Board(self.graph, present, available)

    def restricted(self, part: frozenset[int]) -> Board:
        return Board(self.graph, part, self.available & part)


# ---- parsing -----------------------------------------------------------------------------
NUMBER = re.compile(r"^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)(/[0-9]+)?$")


def parse_weight(token: str) -> Fraction | int:
    """An exact weight: integer, decimal (``2.5``) or fraction (``1/3``); integral weights
    are kept as ``int`` (exact, and several times faster than Fraction)."""
    plain = token.strip()
    if plain.isascii() and (plain.isdigit() or (plain[:1] in "+-" and plain[1:].isdigit())):
        return int(plain)
    return as_score(_parse_weight(token))


def _parse_weight(token: str) -> Fraction:
    token = token.strip()
    if not NUMBER.match(token):
        raise ValueError(f"bad weight {token!r}")
    try:
        if "/" in token:
            num, den = token.split("/")
            if int(den) == 0:
                raise ValueError(f"bad weight {token!r}: zero denominator")
            return Fraction(Decimal(num)) / int(den)
        return Fraction(Decimal(token))
    except (InvalidOperation, ZeroDivisionError):
        raise ValueError(f"bad weight {token!r}") from None


def parse_weights(text: str) -> list[Fraction]:
    if not text.strip():
        return []
    return [parse_weight(t) for t in text.split(",")]


@attrs.frozen
class Piece:
    """A component being assembled: weights, edges (local indices) and available vertices."""

    weights: tuple[Fraction, ...]
    edges: tuple[tuple[int, int], ...]
    available: frozenset[int]


def path_edges(n: int) -> tuple[tuple[int, int], ...]:
    return tuple((i, i + 1) for i in range(n - 1))


def piece(kind: str, weights: Sequence[Fraction]) -> Piece:
    n = len(weights)
    w = tuple(weights)
    if kind == "list":
        return Piece(w, (), frozenset(range(n)))
    if n == 0:
        raise ValueError(f"{kind}() needs at least one weight")
    if kind == "st":
        return Piece(w, path_edges(n), frozenset({0}))
    if kind == "tes":
        return Piece(w, path_edges(n), frozenset({0, n - 1}))
    if kind == "path":
        return Piece(w, path_edges(n), frozenset())
    if kind == "cyc":
        edges = path_edges(n) + (((n - 1, 0),) if n > 2 else ())
        return Piece(w, edges, frozenset())
    raise ValueError(f"unknown family {kind!r} (st, tes, path, cyc, <...>, graph)")


def parse_graph(body: str) -> Piece:
    """``graph(1,0,1; 1-2,2-3; 2)``: weights; edges u-v (1-based); available vertices."""
    parts = body.split(";")
    if len(parts) != 3:
        raise ValueError(f"graph({body}) needs WEIGHTS; EDGES; AVAILABLE")
    weights = parse_weights(parts[0])
    n = len(weights)

    def vertex(token: str) -> int:
        token = token.strip()
        if not (token.isascii() and token.isdigit()) or not 1 <= int(token) <= n:
            raise ValueError(f"bad vertex {token!r} in graph(...) with {n} vertices")
        return int(token) - 1

    edges = []
    for token in filter(str.strip, parts[1].split(",")):
        ends = token.split("-")
        if len(ends) != 2:
            raise ValueError(f"bad edge {token.strip()!r} (write u-v)")
        u, v = vertex(ends[0]), vertex(ends[1])
        if u != v:  # loops are irrelevant (L73)
            edges.append((u, v))
    available = frozenset(vertex(t) for t in filter(str.strip, parts[2].split(",")))
    return Piece(tuple(weights), tuple(edges), available)


def parse_piece(text: str) -> Piece:
    text = text.strip()
    if not text:
        raise ValueError("empty summand")
    if text.startswith("<") and text.endswith(">"):
        return piece("list", parse_weights(text[1:-1]))
    match = re.fullmatch(r"([a-z]+)\s*\((.*)\)", text, re.S)
    if match:
        kind, body = match.groups()
        if kind == "graph":
            return parse_graph(body)
        return piece(kind, parse_weights(body))
    return piece("cyc", parse_weights(text))  # a bare list is a pizza


JSON_BOARD_KEYS = ("weights", "edges", "available")


def _json_weight(raw: object) -> Fraction | int:
    """An exact JSON weight: an integer, or a string such as ``"1/3"`` or ``"2.5"``; a JSON
    float is refused (it is binary, not the decimal written), as is a boolean."""
    if isinstance(raw, bool) or not isinstance(raw, int | str):
        kind = "a JSON float" if isinstance(raw, float) else "not a number"
        raise ValueError(
            f'weight {json.dumps(raw)} is {kind}: write an integer or a string like "1/3"'
        )
    return raw if isinstance(raw, int) else parse_weight(raw)


def _json_vertex(raw: object, n: int) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise ValueError(f"vertex {json.dumps(raw)} is not an integer")
    if not 0 <= raw < n:
        raise ValueError(f"vertex {raw} out of range 0..{n - 1}")
    return raw


def parse_json_board(text: str) -> Piece:
    """``{"weights": [...], "edges": [[u, v], ...], "available": [...]}`` (0-based).

    Strict: vertex ids are JSON integers, weights integers or exact strings (``"1/3"``),
    no other keys; nothing is coerced."""
    check_nesting(text, 10, opening="[{")  # the board nests 3 deep: refuse deep JSON unread
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"not a board JSON object: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError("a board in JSON is an object with weights, edges, available")
    for key in data:
        if key not in JSON_BOARD_KEYS:
            raise ValueError(f"unknown key {key!r} (expected {', '.join(JSON_BOARD_KEYS)})")
    raw_weights = data.get("weights")
    raw_edges = data.get("edges", [])
    raw_available = data.get("available", [])
    for name, value in (("weights", raw_weights), ("edges", raw_edges)):
        if not isinstance(value, list):
            raise ValueError(f"{name!r} must be a list, got {value!r}")
    if not isinstance(raw_available, list):
        raise ValueError(f"'available' must be a list, got {raw_available!r}")
    weights = [_json_weight(w) for w in raw_weights]
    n = len(weights)
    edges = []
    for edge in raw_edges:
        if not isinstance(edge, list) or len(edge) != 2:
            raise ValueError(f"edge {edge!r} is not a pair [u, v]")
        edges.append((_json_vertex(edge[0], n), _json_vertex(edge[1], n)))
    available = frozenset(_json_vertex(v, n) for v in raw_available)
    return Piece(tuple(weights), tuple((u, v) for u, v in edges if u != v), available)


def assemble(pieces: Sequence[Piece]) -> Board:
    """The concatenation (disjoint union) of pieces, vertices numbered in order."""
    weights: list[Fraction] = []
    adjacency: list[set[int]] = []
    available: set[int] = set()
    for p in pieces:
        base = len(weights)
        weights.extend(p.weights)
        adjacency.extend(set() for _ in p.weights)
        for u, v in p.edges:
            adjacency[base + u].add(base + v)
            adjacency[base + v].add(base + u)
        available |= {base + v for v in p.available}
    graph = Graph(tuple(weights), tuple(frozenset(a) for a in adjacency))
    return Board(graph, frozenset(range(len(weights))), frozenset(available))


def parse_board(text: str) -> Board:
    text = text.strip()
    if text.startswith("{"):
        return assemble([parse_json_board(text)])
    return assemble([parse_piece(p) for p in top_level_split(text, "+")])


# ---- printing and keys -------------------------------------------------------------------
def fmt(w: Fraction) -> str:
    return str(w.numerator) if w.denominator == 1 else f"{w.numerator}/{w.denominator}"


def path_order(board: Board, part: frozenset[int]) -> list[int] | None:
    """The vertices of a path-shaped component in order, or None (cycle, branching)."""
    if len(part) == 1:
        return [next(iter(part))]
    ends = [v for v in part if len(board.adjacent(v)) == 1]
    if len(ends) != 2 or any(len(board.adjacent(v)) > 2 for v in part):
        return None
    order = [min(ends)]
    previous = -1
    while len(order) < len(part):
        nxt = [u for u in board.adjacent(order[-1]) if u != previous]
        previous = order[-1]
        order.append(nxt[0])
    return order


def cycle_order(board: Board, part: frozenset[int]) -> list[int] | None:
    if len(part) < 3 or any(len(board.adjacent(v)) != 2 for v in part):
        return None
    order = [min(part)]
    previous = -1
    while len(order) < len(part):
        nxt = sorted(u for u in board.adjacent(order[-1]) if u != previous)
        previous = order[-1]
        order.append(nxt[0])
    return order


def describe_part(board: Board, part: frozenset[int]) -> str:
    """The notation of one component (a general ``graph(...)`` when no family fits)."""
    avail = board.available & part
    order = path_order(board, part)
    if order is not None:
        ws = [fmt(board.weight(v)) for v in order]
        ends = {order[0], order[-1]}
        if not avail:
            return f"path({','.join(ws)})" if len(order) > 1 else f"path({ws[0]})"
        if len(order) == 1:
            return f"<{ws[0]}>"
        if avail == ends:
            return f"tes({','.join(ws)})"
        if len(avail) == 1 and avail <= ends:
            ws = ws if order[0] in avail else ws[::-1]
            return f"st({','.join(ws)})"
    if not avail:
        order = cycle_order(board, part)
        if order is not None:
            return f"cyc({','.join(fmt(board.weight(v)) for v in order)})"
    vs = sorted(part)
    index = {v: i + 1 for i, v in enumerate(vs)}
    edges = sorted({tuple(sorted((index[u], index[w]))) for u in vs for w in board.adjacent(u)})
    return (
        "graph("
        + ",".join(fmt(board.weight(v)) for v in vs)
        + "; "
        + ",".join(f"{a}-{b}" for a, b in edges)
        + "; "
        + ",".join(str(index[v]) for v in sorted(avail))
        + ")"
    )


def format_board(board: Board) -> str:
    parts = board.components()
    if not parts:
        return "<>"
    is_single = [len(p) == 1 and bool(p & board.available) for p in parts]
    singles = [p for p, single in zip(parts, is_single, strict=True) if single]
    others = [p for p, single in zip(parts, is_single, strict=True) if not single]
    texts = [describe_part(board, p) for p in others]
    if singles:
        texts.append("<" + ",".join(fmt(board.weight(next(iter(p)))) for p in singles) + ">")
    return " + ".join(texts)


def path_key(seq: Sequence[tuple[Fraction, bool]]) -> tuple:
    """The key of a path-shaped component from its (weight, available?) pairs in order:
    the same read from either end."""
    seq = tuple(seq)
    return ("p", min(seq, seq[::-1]))


def cycle_key(ws: Sequence[Fraction]) -> tuple:
    """The key of an unbroached cycle: its least rotation or reflection (one image at a
    time, so memory stays linear)."""
    ws = list(ws)
    n = len(ws)
    back = ws[::-1]
    images = (tuple(w[i:] + w[:i]) for w in (ws, back) for i in range(n))
    return ("c", min(images))


def component_key(board: Board, part: frozenset[int]) -> tuple:
    """A key equal for components that are the same game up to isomorphism (exact for
    paths and unbroached cycles, the board's own vertices otherwise)."""
    avail = board.available & part
    order = path_order(board, part)
    if order is not None:
        return path_key((board.weight(v), v in avail) for v in order)
    if not avail:
        order = cycle_order(board, part)
        if order is not None:
            return cycle_key([board.weight(v) for v in order])
    return ("g", board.graph, part, avail)


def board_from_networkx(graph, weight: str = "weight", available: str = "available") -> Board:
    """A board from a networkx graph: each node's ``weight`` attribute (int, Fraction, or a
    string such as ``"1/3"``; floats are refused: scores are exact) and a true ``available``
    attribute for the available vertices. Vertices are numbered in the graph's node order;
    loops and multi-edges are irrelevant (L73) and dropped."""
    nodes = list(graph.nodes)
    index = {node: i for i, node in enumerate(nodes)}
    weights = []
    for node in nodes:
        raw = graph.nodes[node].get(weight)
        if raw is None or isinstance(raw, float | bool):
            raise ValueError(f"node {node!r} needs an exact {weight!r} (int, Fraction or text)")
        weights.append(parse_weight(str(raw)))
    edges = tuple((index[u], index[v]) for u, v in graph.edges() if u != v)
    avail = frozenset(index[n] for n in nodes if graph.nodes[n].get(available))
    return assemble([Piece(tuple(weights), edges, avail)])
