"""Blue-Red-Green Hackenbush (Winning Ways, vol. 1, ch. 1-2 for Blue-Red, ch. 7 for Green
and the colon principle; Lessons in Play, ch. 2 and 7): a picture of edges, some joined to the
ground. Left cuts a blue (``B``) or green (``G``) edge, Right a red (``R``) or green one;
whatever is no longer joined to the ground falls away.

Positions: a stalk written bottom first (``BRRB``), stalks joined by `` + `` (a sum), or a
graph with the ground as vertex 0: an edge list ``0-1:B,1-2:R,1-3:G`` or JSON
``{"ground": 0, "edges": [[0, 1, "B"], [1, 2, "R"]]}`` (loops and repeated edges allowed).
A position is kept as its edges with the ground renamed 0 and the other vertices numbered in
order of first appearance; parts not joined to the ground are dropped when read.

The parts hanging from the ground at different vertices are independent (a sum); a tree is
keyed by its rooted-tree code (colours included), so isomorphic trees share one key.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

import attrs

from cgframework import BaseRuleset, Convention, Move, Player, pick_move
from cgframework_grids.grid import PositionError

#: Edges a position may have: closed forms run far beyond any search; this keeps input sane.
MAX_EDGES = 5000
COLOURS = "BRG"

Edge = tuple[int, int, str]


@attrs.frozen
class Picture:
    """Edges ``(u, v, colour)`` with ``u <= v``, sorted; vertex 0 is the ground."""

    edges: tuple[Edge, ...]


def _normalised(edges: Sequence[Edge], ground: int) -> Picture:
    """Keep the edges joined to ``ground``; rename ground 0 and the rest 1, 2, ... in order of
    first appearance (breadth-first from the ground)."""
    adjacent: dict[int, list[int]] = {}
    for i, (u, v, _) in enumerate(edges):
        adjacent.setdefault(u, []).append(i)
        adjacent.setdefault(v, []).append(i)
    names = {ground: 0}
    queue = [ground]
    kept = []
    seen_edges = set()
    for u in queue:  # grows while it is read: breadth-first, no recursion
        for i in adjacent.get(u, ()):
            if i in seen_edges:
                continue
            seen_edges.add(i)
            kept.append(i)
            a, b, _ = edges[i]
            w = b if a == u else a
            if w not in names:
                names[w] = len(names)
                queue.append(w)
    out = []
    for i in kept:
        a, b, c = edges[i]
        a, b = names[a], names[b]
        out.append((min(a, b), max(a, b), c))
    return Picture(tuple(sorted(out)))


def stalk(colours: str) -> Picture:
    """A stalk, bottom edge first."""
    return Picture(tuple((i, i + 1, c) for i, c in enumerate(colours)))


def parse_picture(text: str) -> Picture:
    text = text.strip()
    if text == "empty":
        return Picture(())
    if text.startswith("{"):
        return _parse_json(text)
    if "-" in text:
        return _parse_edge_list(text)
    for i, ch in enumerate(text):
        if ch.upper() not in COLOURS:
            raise PositionError(
                f"unexpected {ch!r} at column {i + 1} of a stalk (use B, R, G; or an edge "
                "list 0-1:B,...; or JSON)"
            )
    if len(text) > MAX_EDGES:
        raise PositionError(f"a stalk of {len(text)} edges (at most {MAX_EDGES})")
    return stalk(text.upper())


def _edge(u: object, v: object, c: object, where: str) -> Edge:
    if (
        not (isinstance(u, int) and isinstance(v, int))
        or isinstance(u, bool)
        or isinstance(v, bool)
    ):
        raise PositionError(f"{where}: vertices must be integers")
    if not (isinstance(c, str) and c.upper() in COLOURS and len(c) == 1):
        raise PositionError(f"{where}: colour must be B, R or G, not {c!r}")
    return (u, v, c.upper())


def _parse_edge_list(text: str) -> Picture:
    edges = []
    for n, token in enumerate(text.split(","), 1):
        token = token.strip()
        try:
            ends, colour = token.split(":")
            u, v = ends.split("-")
            edges.append(_edge(int(u), int(v), colour.strip(), f"edge {n} ({token!r})"))
        except ValueError as exc:
            if isinstance(exc, PositionError):
                raise
            raise PositionError(
                f"edge {n} ({token!r}): expected U-V:C, e.g. 0-1:B (vertex 0 is the ground)"
            ) from None
    if len(edges) > MAX_EDGES:
        raise PositionError(f"{len(edges)} edges (at most {MAX_EDGES})")
    return _normalised(edges, 0)


def _parse_json(text: str) -> Picture:
    if len(text) > 64 * MAX_EDGES:
        raise PositionError("JSON position too long")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise PositionError(f"bad JSON: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("edges"), list):
        raise PositionError('expected {"ground": 0, "edges": [[u, v, "B"], ...]}')
    ground = data.get("ground", 0)
    if not isinstance(ground, int) or isinstance(ground, bool):
        raise PositionError("ground must be an integer vertex")
    if len(data["edges"]) > MAX_EDGES:
        raise PositionError(f"{len(data['edges'])} edges (at most {MAX_EDGES})")
    edges = []
    for n, item in enumerate(data["edges"], 1):
        if not (isinstance(item, list) and len(item) == 3):
            raise PositionError(f"edge {n}: expected [u, v, colour]")
        edges.append(_edge(*item, f"edge {n}"))
    return _normalised(edges, ground)


def as_stalk(picture: Picture) -> str | None:
    """The colours bottom first if the picture is one stalk (a path up from the ground)."""
    for i, (u, v, _) in enumerate(picture.edges):
        if (u, v) != (i, i + 1):
            return None
    return "".join(c for _, _, c in picture.edges)


def format_picture(picture: Picture) -> str:
    if not picture.edges:
        return "empty"
    colours = as_stalk(picture)
    if colours is not None:
        return colours
    return ",".join(f"{u}-{v}:{c}" for u, v, c in picture.edges)


def parts(picture: Picture) -> list[Picture]:
    """The pieces hanging from the ground that share no vertex but the ground."""
    owner: dict[int, int] = {}  # vertex -> its piece (the least edge index reaching it)
    adjacent: dict[int, list[int]] = {}
    for u, v, _ in picture.edges:
        if u and v:
            adjacent.setdefault(u, []).append(v)
            adjacent.setdefault(v, []).append(u)
    pieces: dict[int, list[Edge]] = {}
    loops = []
    for u, v, c in picture.edges:
        if u == 0 and v == 0:
            loops.append(Picture(((0, 0, c),)))
            continue
        start = v if u == 0 else u
        if start not in owner:
            label = len(pieces)
            pieces[label] = []
            owner[start] = label
            queue = [start]
            for x in queue:
                for y in adjacent.get(x, ()):
                    if y not in owner:
                        owner[y] = label
                        queue.append(y)
        pieces[owner[start]].append((u, v, c))
    return [_normalised(edges, 0) for edges in pieces.values()] + loops


def tree_children(picture: Picture) -> dict[int, list[tuple[int, str]]] | None:
    """For a picture whose every piece is a tree rooted at the ground (no cycle, loop or
    repeated edge): each vertex's children with the colour of the edge to them; else None."""
    vertices = {0}
    for u, v, _ in picture.edges:
        vertices.update((u, v))
    if len(picture.edges) != len(vertices) - 1:
        return None
    adjacent: dict[int, list[tuple[int, str]]] = {}
    for u, v, c in picture.edges:
        if u == v:
            return None
        adjacent.setdefault(u, []).append((v, c))
        adjacent.setdefault(v, []).append((u, c))
    children: dict[int, list[tuple[int, str]]] = {0: []}
    queue = [0]
    for x in queue:
        for y, c in adjacent.get(x, ()):
            if y not in children:
                children[y] = []
                children[x].append((y, c))
                queue.append(y)
    return children if len(children) == len(vertices) else None


def _post_order(children: dict[int, list[tuple[int, str]]]) -> list[int]:
    """Vertices, every child before its parent (iterative)."""
    order = []
    stack = [0]
    while stack:
        x = stack.pop()
        order.append(x)
        stack.extend(y for y, _ in children[x])
    return order[::-1]


def tree_code(children: dict[int, list[tuple[int, str]]]) -> str:
    """A rooted coloured tree's canonical code (Aho, Hopcroft and Ullman's tree isomorphism
    code): equal for isomorphic trees with the same colours."""
    code: dict[int, str] = {}
    for x in _post_order(children):
        code[x] = "(" + "".join(sorted(c + code[y] for y, c in children[x])) + ")"
    return code[0]


def key_of(picture: Picture) -> str:
    """A cache key: the tree code for forests, else the numbered edge list (exact, though
    isomorphic non-trees then get different keys)."""
    children = tree_children(picture)
    if children is not None:
        return tree_code(children)
    return "g" + format_picture(picture)


def cut(picture: Picture, index: int) -> Picture:
    """The picture after cutting edge ``index`` (what falls is dropped)."""
    edges = picture.edges[:index] + picture.edges[index + 1 :]
    return _normalised(edges, 0)


class Hackenbush(BaseRuleset):
    name = "hackenbush"
    convention = Convention.NORMAL
    family = "grids"
    syntax = (
        "a stalk bottom first of B (Left's), R (Right's), G (either's) edges, e.g. BRRB; "
        "stalks joined by ' + '; or a graph with ground vertex 0: 0-1:B,1-2:R or JSON "
        '{"ground": 0, "edges": [[0, 1, "B"], ...]}; empty'
    )

    def parse(self, text: str) -> Picture:
        return parse_picture(text)

    def draw(self, position: Picture, marks: Mapping[Hashable, Any] | None = None) -> str:
        from cgframework_grids.drawing import draw_hackenbush

        return draw_hackenbush(position.edges, marks)

    def format(self, position: Picture) -> str:
        return format_picture(position)

    def options(self, position: Picture, player: Player) -> Iterator[Move]:
        mine = "BG" if player is Player.LEFT else "RG"
        stalk_form = as_stalk(position) is not None
        for i, (u, v, c) in enumerate(position.edges):
            if c in mine:
                text = f"{i + 1}" if stalk_form else f"{u}-{v}:{c}"
                yield Move(cut(position, i), text)

    def move_at(self, position: Picture, picks: Sequence[Hashable], player: Player) -> Any:
        """The cut of the edge clicked (``("edge", i)``: the picture draws the edges in order)."""
        mine = "BG" if player is Player.LEFT else "RG"
        edges = [i for i, (_, _, c) in enumerate(position.edges) if c in mine]
        moves = zip(edges, self.options(position, player), strict=True)
        candidates = (((("edge", i),), m) for i, m in moves)
        return pick_move(candidates, picks)

    def components(self, position: Picture) -> Sequence[Picture]:
        return tuple(parts(position))

    def is_empty(self, position: Picture) -> bool:
        return not position.edges

    def canonical_key(self, position: Picture) -> str:
        return key_of(position)

    def examples(self) -> list[str]:
        return ["BRRB + GG", "0-1:B,1-2:R,1-3:G,0-3:R", "GGG + BR"]


# ---- closed forms -------------------------------------------------------------------------
def blue_red_stalk_value(colours: str) -> Fraction:
    """Berlekamp's sign-expansion rule (Winning Ways, ch. 2; Lessons in Play, ch. 2): the
    first run of one colour counts 1 an edge (+ for blue, - for red); after the first
    change of colour the k-th further edge counts 1/2^k, with the sign of its colour.
    ``BR`` = 1/2, ``BRR`` = 1/4, ``BRB`` = 3/4."""
    if not colours:
        return Fraction(0)
    sign = {"B": 1, "R": -1}
    run = len(colours) - len(colours.lstrip(colours[0]))
    value = Fraction(sign[colours[0]] * run)
    for k, c in enumerate(colours[run:], 1):
        value += Fraction(sign[c], 2**k)
    return value


def green_tree_nim_value(children: dict[int, list[tuple[int, str]]]) -> int:
    """The colon principle (Winning Ways, ch. 7; Lessons in Play, ch. 7): a green tree is
    worth the nimber of its root, where a vertex is worth the nim-sum over its children c
    of (c's worth + 1), a stalk of n edges on top of c being *(n) for n edges."""
    worth: dict[int, int] = {}
    for x in _post_order(children):
        total = 0
        for y, _ in children[x]:
            total ^= worth[y] + 1
        worth[x] = total
    return worth[0]


class ChildishHackenbush(Hackenbush):
    """Childish Hackenbush (Winning Ways, vol. 1, ch. 2, "Childish Hackenbush"; CGSuite's
    ``GenHackenbush`` with childish edges): Blue-Red-Green Hackenbush where a player may cut
    an edge only if nothing else falls. Every edge of a stalk but the top one holds up the
    rest, so a stalk is played from the top down; an edge on a cycle through the ground may
    always go. Same pictures, syntax, pieces and keys as ``hackenbush``."""

    name = "childish-hackenbush"
    aliases = ("childish",)

    def options(self, position: Picture, player: Player) -> Iterator[Move]:
        mine = "BG" if player is Player.LEFT else "RG"
        stalk_form = as_stalk(position) is not None
        wanted = len(position.edges) - 1
        for i, (u, v, c) in enumerate(position.edges):
            if c in mine:
                after = cut(position, i)
                if len(after.edges) == wanted:  # nothing fell
                    text = f"{i + 1}" if stalk_form else f"{u}-{v}:{c}"
                    yield Move(after, text)

    def examples(self) -> list[str]:
        return ["BRRB + GG", "0-1:B,1-2:R,2-0:B,1-3:G", "0-1:B,0-2:R,1-2:G,2-3:B"]
