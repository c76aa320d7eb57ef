"""Tokens on a digraph: a move slides one token along an arc (``digraph``: either player may
use any arc; ``partizan-digraph``: an arc ``u>v:L`` serves Left only, ``u>v:R`` Right only).

Position text ``ARCS;TOKENS``: ``0>1,1>0,1>2;0,2`` has arcs 0->1, 1->0, 1->2 and tokens on 0
and 2. The vertices are the non-negative integers named in ARCS or TOKENS (a vertex with no
arc out is a dead end). Tokens do not interact, so each token is one component: the game is
the disjunctive sum of one-token games (Smith 1966; Winning Ways ch. 11).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

import attrs

from cgframework import BaseRuleset, Convention, Move, Player

_VERTEX = re.compile(r"[0-9]+")


def parse_vertex(text: str, where: str) -> int:
    """A vertex: a non-negative decimal integer."""
    text = text.strip()
    if not _VERTEX.fullmatch(text):
        if re.fullmatch(r"-\s*[0-9]+", text):
            raise ValueError(f"{where}: vertex {text!r} is negative")
        raise ValueError(f"{where}: vertex {text!r} is not a non-negative integer")
    return int(text)


@attrs.frozen(cache_hash=True)
class Digraph:
    """Arcs ``(u, v, label)`` (label ``L``, ``R``, or ``""`` for an impartial arc), sorted
    and without repeats; ``successors`` maps (vertex, label) to the arcs' heads."""

    arcs: tuple[tuple[int, int, str], ...]
    successors: dict[tuple[int, str], tuple[int, ...]] = attrs.field(
        eq=False, hash=False, repr=False
    )

    @classmethod
    def build(cls, arcs: Sequence[tuple[int, int, str]]) -> Digraph:
        unique = tuple(sorted(set(arcs)))
        successors: dict[tuple[int, str], list[int]] = {}
        for u, v, label in unique:
            successors.setdefault((u, label), []).append(v)
        return cls(unique, {k: tuple(vs) for k, vs in successors.items()})


@attrs.frozen(eq=False)
class Tokens:
    """Tokens (a sorted multiset of vertices) on a digraph."""

    graph: Digraph
    tokens: tuple[int, ...]

    def __eq__(self, other: object) -> bool:
        # The positions of one search share one graph object: compare it by identity first.
        if not isinstance(other, Tokens) or self.tokens != other.tokens:
            return False
        return self.graph is other.graph or self.graph == other.graph

    def __hash__(self) -> int:
        return hash((self.graph, self.tokens))


def parse_arcs(text: str, partizan: bool) -> Digraph:
    arcs = []
    if text.strip():
        for number, piece in enumerate(text.split(","), start=1):
            arc, colon, label = piece.partition(":")
            where = f"arc {number} {piece.strip()!r}"
            if partizan:
                label = label.strip()
                if not colon or label not in ("L", "R"):
                    raise ValueError(f"{where}: the label must be L or R (write u>v:L or u>v:R)")
            elif colon:
                raise ValueError(f"{where}: digraph arcs have no label (write u>v)")
            tail, arrow, head = arc.partition(">")
            if not arrow:
                raise ValueError(f"{where}: expected u>v")
            arcs.append((parse_vertex(tail, where), parse_vertex(head, where), label))
    return Digraph.build(arcs)


def parse_tokens(text: str) -> tuple[int, ...]:
    if not text.strip():
        return ()
    return tuple(
        sorted(parse_vertex(t, f"token {i}") for i, t in enumerate(text.split(","), start=1))
    )


class DigraphRuleset(BaseRuleset):
    """Impartial tokens on a digraph (loopy)."""

    name = "digraph"
    family = "loopy"
    convention = Convention.NORMAL
    impartial = True
    loopy = True
    version = "2"  # stored solutions hold the loopy value, no longer an outcome letter
    sum_separator = None
    partizan = False
    syntax = (
        "ARCS;TOKENS: arcs u>v between non-negative integers, then the tokens' vertices, "
        "e.g. 0>1,1>0,1>2;0,2 (each token is one component; a move slides one token)"
    )

    def parse(self, text: str) -> Tokens:
        arcs, semicolon, tokens = text.partition(";")
        if not semicolon:
            raise ValueError("expected ARCS;TOKENS (e.g. 0>1,1>0;0)")
        if ";" in tokens:
            raise ValueError("more than one ';' (expected ARCS;TOKENS)")
        return Tokens(parse_arcs(arcs, self.partizan), parse_tokens(tokens))

    def format(self, position: Tokens) -> str:
        arcs = ",".join(
            f"{u}>{v}" + (f":{label}" if label else "") for u, v, label in position.graph.arcs
        )
        return f"{arcs};{','.join(map(str, position.tokens))}"

    def options(self, position: Tokens, player: Player) -> Iterator[Move]:
        label = player.value if self.partizan else ""
        tokens = position.tokens
        successors = position.graph.successors
        for i, t in enumerate(tokens):
            if i and tokens[i - 1] == t:
                continue  # the same move as the previous token's
            rest = tokens[:i] + tokens[i + 1 :]
            for v in successors.get((t, label), ()):
                yield Move(Tokens(position.graph, tuple(sorted((*rest, v)))), f"{t}>{v}")

    def components(self, position: Tokens) -> Sequence[Tokens]:
        if len(position.tokens) <= 1:
            return (position,)
        return tuple(Tokens(position.graph, (t,)) for t in position.tokens)

    def is_empty(self, position: Tokens) -> bool:
        return not position.tokens

    def draw(self, position: Tokens, marks: object = None) -> str:
        """The digraph (a networkx layout) with its tokens as yellow discs beside their
        vertices; a partizan arc is blue (Left's) or red (Right's). ``marks`` are not used."""
        from cgframework.display.pictures import INK, LEFT_COLOUR, RIGHT_COLOUR, graph_svg

        arcs = position.graph.arcs
        vertices = sorted({u for u, _, _ in arcs} | {v for _, v, _ in arcs} | set(position.tokens))
        colours = {"L": LEFT_COLOUR, "R": RIGHT_COLOUR}
        return graph_svg(
            vertices,
            [(u, v) for u, v, _ in arcs],
            fill=lambda v: "#fff3c4" if v in position.tokens else "white",
            directed=True,
            edge_colours=[colours.get(label, INK) for _, _, label in arcs],
            tokens=position.tokens.count,
        )

    def examples(self) -> Sequence[str]:
        return ["0>1,1>0,1>2;0,2", "0>1,1>0;0"]


class PartizanDigraphRuleset(DigraphRuleset):
    """Tokens on a digraph whose arcs each belong to one player (loopy, partizan)."""

    name = "partizan-digraph"
    impartial = False
    partizan = True
    syntax = (
        "ARCS;TOKENS: arcs u>v:L (Left's) or u>v:R (Right's) between non-negative integers, "
        "then the tokens' vertices, e.g. 0>1:L,1>0:R,1>2:R;0,2"
    )

    @staticmethod
    def negative(position: Tokens) -> Tokens:
        """The negative: every arc changes hands (Left's become Right's and back)."""
        swapped = {"L": "R", "R": "L"}
        graph = Digraph.build([(u, v, swapped[label]) for u, v, label in position.graph.arcs])
        return Tokens(graph, position.tokens)

    def examples(self) -> Sequence[str]:
        return ["0>1:L,1>0:R,1>2:R;0,2", "0>0:L;0"]
