"""INFLUENCE positions: coloured digraphs, their text forms and the move rules.

Paper: Duchêne, Gonzalez, Parreau, Rémila, Solal, "INFLUENCE: a partizan scoring game on
graphs" (../shared/papers/001_influence.txt, lines ``Lnnn``). Left (Black, ``L``) takes
``Succ(G,x)`` of a vertex ``x`` of hers, Right (White, ``R``) takes ``Pred(G,y)`` (L84-L90);
reachability is always in the current graph. Vertex sets are bit masks (exact ints).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence

import attrs

COLOUR_ALIASES = {"L": "L", "B": "L", "R": "R", "W": "R"}


def _default_names(n: int) -> tuple[str, ...]:
    return tuple(str(i) for i in range(n))


@attrs.frozen
class InfluenceGraph:
    """A digraph on vertices ``0..n-1``: ``colors[i]`` is ``'L'`` or ``'R'``, ``arcs`` a
    sorted tuple of ``(u, v)`` pairs (no loops), ``names`` how vertices are written."""

    colors: str
    arcs: tuple[tuple[int, int], ...]
    names: tuple[str, ...] = attrs.field()

    @names.default
    def _names(self) -> tuple[str, ...]:
        return _default_names(len(self.colors))

    @property
    def n(self) -> int:
        return len(self.colors)

    @property
    def full(self) -> int:
        return (1 << self.n) - 1

    def succ_masks(self) -> tuple[int, ...]:
        return _adjacency(self)[0]

    def pred_masks(self) -> tuple[int, ...]:
        return _adjacency(self)[1]

    def colour_mask(self, colour: str) -> int:
        return _colour_masks(self)[0 if colour == "L" else 1]

    def induced(self, mask: int) -> InfluenceGraph:
        """The subgraph induced by the vertices of ``mask`` (relabelled in order, names kept)."""
        keep = [i for i in range(self.n) if mask >> i & 1]
        index = {v: i for i, v in enumerate(keep)}
        arcs = tuple(
            sorted((index[u], index[v]) for u, v in self.arcs if u in index and v in index)
        )
        return InfluenceGraph(
            "".join(self.colors[i] for i in keep), arcs, tuple(self.names[i] for i in keep)
        )

    def key(self) -> tuple[str, tuple[tuple[int, int], ...]]:
        """The graph without its vertex names."""
        return (self.colors, self.arcs)


def _adjacency(g: InfluenceGraph) -> tuple[tuple[int, ...], tuple[int, ...]]:
    cached = _ADJ.get(g.key())
    if cached is None:
        succ = [0] * g.n
        pred = [0] * g.n
        for u, v in g.arcs:
            succ[u] |= 1 << v
            pred[v] |= 1 << u
        cached = (tuple(succ), tuple(pred))
        if len(_ADJ) > 100_000:
            _ADJ.clear()
        _ADJ[g.key()] = cached
    return cached


_ADJ: dict = {}


def _colour_masks(g: InfluenceGraph) -> tuple[int, int]:
    left = sum(1 << i for i, c in enumerate(g.colors) if c == "L")
    return left, g.full & ~left


# ---------------------------------------------------------------- reachability (L84)


def closure(adj: Sequence[int], start: int, alive: int) -> int:
    """Every vertex of ``alive`` reachable from the set ``start`` along ``adj`` (with it)."""
    seen = start & alive
    frontier = seen
    while frontier:
        low = frontier & -frontier
        frontier ^= low
        new = adj[low.bit_length() - 1] & alive & ~seen
        seen |= new
        frontier |= new
    return seen


def forced(succ: Sequence[int], pred: Sequence[int], left: int, alive: int) -> tuple[int, int]:
    """Definition 6 (L183-L195): (Forc_L, Forc_R) of the subgraph on ``alive``. A Left vertex
    is forced when it reaches no Right vertex; a Right one when no Left vertex reaches it."""
    lv = left & alive
    rv = alive & ~left
    reach_r = closure(pred, rv, alive)  # vertices that reach a Right vertex
    from_l = closure(succ, lv, alive)  # vertices reached from a Left vertex
    return lv & ~reach_r, rv & ~from_l


def rmv(succ: Sequence[int], pred: Sequence[int], left: int, alive: int, v: int) -> int:
    """Definition 7 (L205-L220): Succ (Left vertex) or Pred (Right vertex) of ``v`` in the
    relevant graph on ``alive``, with the vertices that become forced."""
    adj = succ if left >> v & 1 else pred
    taken = closure(adj, 1 << v, alive)
    fl, fr = forced(succ, pred, left, alive & ~taken)
    return taken | fl | fr


def weak_components(succ: Sequence[int], pred: Sequence[int], alive: int) -> list[int]:
    """The weakly connected components of the subgraph on ``alive``, as masks."""
    both = [s | p for s, p in zip(succ, pred, strict=True)]
    out = []
    rest = alive
    while rest:
        comp = closure(both, rest & -rest, alive)
        out.append(comp)
        rest &= ~comp
    return out


def taken_by_move(g: InfluenceGraph, v: int) -> int:
    """What a move on vertex ``v`` removes under the original rules (L86-L90)."""
    adj = g.succ_masks() if g.colors[v] == "L" else g.pred_masks()
    return closure(adj, 1 << v, g.full)


def negate(g: InfluenceGraph) -> InfluenceGraph:
    """-G of Cor. 15 (L496-L505): colours swapped, arcs reversed."""
    colors = g.colors.translate(str.maketrans("LR", "RL"))
    return InfluenceGraph(colors, tuple(sorted((v, u) for u, v in g.arcs)), g.names)


def disjoint_union(parts: Sequence[InfluenceGraph]) -> InfluenceGraph:
    """The sum G1 + G2 + ... as one graph (vertex names prefixed ``k:`` when several)."""
    if len(parts) == 1:
        return parts[0]
    colors, arcs, names, shift = [], [], [], 0
    for k, p in enumerate(parts):
        colors.append(p.colors)
        arcs.extend((u + shift, v + shift) for u, v in p.arcs)
        names.extend(f"{k + 1}:{name}" for name in p.names)
        shift += p.n
    return InfluenceGraph("".join(colors), tuple(sorted(arcs)), tuple(names))


# ---------------------------------------------------------------- generators (§4, §5)


def segment(n: int, kind: str | None = None) -> InfluenceGraph:
    """S_n of Definition 16 (L520-L534): vertices 1..n alternate, even labels Left, every
    Left vertex points to its neighbours. Odd n is C- (Right ends, Table 1) unless
    ``kind == 'C+'`` (Left ends)."""
    if n < 1:
        raise ValueError(f"segment size must be at least 1, got {n}")
    if kind not in (None, "C+", "C-"):
        raise ValueError(f"unknown segment type {kind!r} (C+ or C-)")
    if kind is not None and n % 2 == 0:
        raise ValueError(f"segment type {kind} needs an odd size, got {n}")
    first = "L" if kind == "C+" else "R"
    other = "R" if first == "L" else "L"
    colors = "".join(first if i % 2 == 0 else other for i in range(n))
    return _bipartite(colors, [(i, i + 1) for i in range(n - 1)])


def cycle(n: int) -> InfluenceGraph:
    """The alternating cycle of Cor. 24 (L825-L829): even n >= 4, arcs Left -> Right."""
    if n < 4 or n % 2:
        raise ValueError(f"an alternating cycle needs an even size >= 4, got {n}")
    colors = "LR" * (n // 2)
    return _bipartite(colors, [(i, (i + 1) % n) for i in range(n)])


def _bipartite(colors: str, edges: list[tuple[int, int]]) -> InfluenceGraph:
    arcs = [(u, v) if colors[u] == "L" else (v, u) for u, v in edges]
    return InfluenceGraph(colors, tuple(sorted(arcs)))


def tree(n: int, c: int) -> InfluenceGraph:
    """T_n^c of §5.1 (L862-L871): a complete ternary out-tree of Left vertices of depth n,
    each deepest vertex with c Right leaf children."""
    if n < 0 or c < 0:
        raise ValueError(f"tree:n,c needs n, c >= 0, got {n},{c}")
    colors = ["L"]
    arcs = []
    level = [0]
    for _ in range(n):
        nxt = []
        for parent in level:
            for _ in range(3):
                arcs.append((parent, len(colors)))
                nxt.append(len(colors))
                colors.append("L")
        level = nxt
    for parent in level:
        for _ in range(c):
            arcs.append((parent, len(colors)))
            colors.append("R")
    return InfluenceGraph("".join(colors), tuple(sorted(arcs)))


def j_graph(n: int, c: int) -> InfluenceGraph:
    """J_n^c = T_n^c + T_n^c, two distinct copies (Theorem 28, L875)."""
    t = tree(n, c)
    both = disjoint_union([t, t])
    return InfluenceGraph(both.colors, both.arcs)


def dipath(colors: str) -> InfluenceGraph:
    """The directed path v0 -> v1 -> ... with the given colours (digest §2.7)."""
    colors = _colours(colors)
    return InfluenceGraph(colors, tuple((i, i + 1) for i in range(len(colors) - 1)))


# ---------------------------------------------------------------- parsing and printing


def _colours(text: str) -> str:
    out = []
    for i, ch in enumerate(text):
        colour = COLOUR_ALIASES.get(ch.upper())
        if colour is None:
            raise ValueError(f"bad colour {ch!r} at position {i} (L/B for Left, R/W for Right)")
        out.append(colour)
    if not out:
        raise ValueError("a graph needs at least one vertex")
    return "".join(out)


WORDS = {"black": "L", "left": "L", "white": "R", "right": "R"}


def _colour_word(colour: object, vertex: str) -> str:
    """A JSON colour: B/W/L/R or black/white/left/right (any case)."""
    text = str(colour).strip()
    found = COLOUR_ALIASES.get(text.upper()) if len(text) == 1 else WORDS.get(text.lower())
    if found is None:
        raise ValueError(f"vertex {vertex!r} has bad colour {colour!r} (B/W or L/R)")
    return found


def _int(text: str, what: str) -> int:
    if not text.isascii():
        raise ValueError(f"bad {what} {text!r} (expected an integer)")
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"bad {what} {text!r} (expected an integer)") from None


def _check_arcs(n: int, arcs: list[tuple[int, int]], where: str = "") -> tuple:
    for u, v in arcs:
        for w in (u, v):
            if not 0 <= w < n:
                raise ValueError(f"arc {u}>{v}{where}: vertex {w} is not in 0..{n - 1}")
        if u == v:
            raise ValueError(f"arc {u}>{v}{where} is a loop")
    return tuple(sorted(set(arcs)))


def parse_one_line(text: str) -> InfluenceGraph:
    """``COLOURS:ARCS``, e.g. ``LRRL:0>1,0>2,3>2``."""
    colours, _, arc_text = text.partition(":")
    colors = _colours(colours.strip())
    arcs = []
    for token in filter(None, (t.strip() for t in arc_text.split(","))):
        if ">" not in token:
            raise ValueError(f"bad arc {token!r} (write u>v)")
        u, _, v = token.partition(">")
        arcs.append((_int(u.strip(), "vertex"), _int(v.strip(), "vertex")))
    return InfluenceGraph(colors, _check_arcs(len(colors), arcs))


def parse_json(text: str) -> InfluenceGraph:
    """``{"vertices": [...], "colors": {name: "B"|"W"|"L"|"R"} or "LRB...", "arcs": [[u,v]]}``."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not a JSON graph: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError("a JSON graph must be an object with vertices, colors and arcs")
    raw_colors = data.get("colors", data.get("colours"))
    vertices = data.get("vertices")
    if vertices is None:
        if not isinstance(raw_colors, str | list):
            raise ValueError("a JSON graph needs 'vertices' or a colour string")
        vertices = list(range(len(raw_colors)))
    if not isinstance(vertices, list) or not vertices:
        raise ValueError("'vertices' must be a non-empty list")
    names = [str(v) for v in vertices]
    if len(set(names)) != len(names):
        raise ValueError("duplicate vertex names")
    index = {name: i for i, name in enumerate(names)}
    if isinstance(raw_colors, dict):
        missing = [v for v in names if v not in {str(k) for k in raw_colors}]
        if missing:
            raise ValueError(f"vertex {missing[0]!r} has no colour")
        lookup = {str(k): c for k, c in raw_colors.items()}
        colors = "".join(_colour_word(lookup[v], v) for v in names)
    elif isinstance(raw_colors, str | list):
        if len(raw_colors) != len(names):
            raise ValueError(f"{len(raw_colors)} colours for {len(names)} vertices")
        colors = "".join(_colour_word(c, names[i]) for i, c in enumerate(raw_colors))
    else:
        raise ValueError("'colors' must be an object, a list or a string")
    arcs = []
    for arc in data.get("arcs", []):
        if not isinstance(arc, list | tuple) or len(arc) != 2:
            raise ValueError(f"bad arc {arc!r} (write [u, v])")
        ends = []
        for end in arc:
            if str(end) not in index:
                raise ValueError(f"arc {arc!r}: unknown vertex {end!r}")
            ends.append(index[str(end)])
        arcs.append((ends[0], ends[1]))
    arcs_t = _check_arcs(len(names), arcs)
    return InfluenceGraph(colors, arcs_t, tuple(names))


MAX_GENERATED_VERTICES = 10_000
"""The most vertices a generator (segment, cycle, tree, J) builds; checked before building.
Positions that large are out of reach of every solver here anyway."""


def check_generated(vertices: int, what: str) -> None:
    if vertices > MAX_GENERATED_VERTICES:
        raise ValueError(
            f"{what} would have {vertices} vertices; the limit is {MAX_GENERATED_VERTICES}"
        )


def tree_size(n: int, c: int) -> int:
    """Vertices of T_n^c: 1 + 3 + ... + 3^n Left vertices and c * 3^n Right leaves."""
    if n < 0 or c < 0:
        return 0  # tree() refuses these with its own message
    if n > 40:  # 3^40 alone is far above any limit; do not raise 3 to a huge power
        return 3**41
    return (3 ** (n + 1) - 1) // 2 + c * 3**n


def _two_ints(text: str, what: str) -> tuple[int, int]:
    parts = text.split(",")
    if len(parts) != 2:
        raise ValueError(f"{what} needs two numbers n,c, got {text!r}")
    return _int(parts[0].strip(), "n"), _int(parts[1].strip(), "c")


def parse_graph(text: str) -> InfluenceGraph:
    """One summand: JSON, a generator (``segment:n[:C+|C-]``, ``cycle:n``, ``tree:n,c``,
    ``J:n,c``, ``dipath:LRLR``) or the one-line form."""
    text = text.strip()
    if not text:
        raise ValueError("empty graph")
    if text.startswith("{"):
        return parse_json(text)
    head, _, rest = text.partition(":")
    kind = head.strip().lower()
    if kind in ("segment", "s"):
        size, _, typ = rest.partition(":")
        n = _int(size.strip(), "segment size")
        check_generated(n, f"segment:{n}")
        return segment(n, typ.strip().upper() or None)
    if kind == "cycle":
        n = _int(rest.strip(), "cycle size")
        check_generated(n, f"cycle:{n}")
        return cycle(n)
    if kind == "tree":
        n, c = _two_ints(rest, "tree")
        check_generated(tree_size(n, c), f"tree:{n},{c}")
        return tree(n, c)
    if head.strip() == "J":
        n, c = _two_ints(rest, "J")
        check_generated(2 * tree_size(n, c), f"J:{n},{c}")
        return j_graph(n, c)
    if kind == "dipath":
        return dipath(rest.strip())
    return parse_one_line(text)


def format_graph(g: InfluenceGraph) -> str:
    """The one-line form, or compact JSON when vertices have names of their own."""
    if g.names == _default_names(g.n):
        return g.colors + ":" + ",".join(f"{u}>{v}" for u, v in g.arcs)
    return json.dumps(
        {
            "vertices": list(g.names),
            "colors": g.colors,
            "arcs": [[g.names[u], g.names[v]] for u, v in g.arcs],
        },
        separators=(",", ":"),
    )


def bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
