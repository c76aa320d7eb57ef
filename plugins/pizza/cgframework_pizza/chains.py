"""Boards made of the named families only, kept as weight sequences (no graph).

Lists, stacks, two-ended stacks, unopened paths and cycles (L71) are all sequences; a board
that is a concatenation of them is parsed into ``Chains`` (a tuple of ``Part``) in linear
time and printed back the same way, so a 10^6-slice two-ended stack never becomes 10^6
neighbour sets. The specialised solvers read the parts directly; everything else (options,
keys, pictures, the generic minimax) sees the equivalent ``Board``, built on first use.
``board_parts`` reads the same parts off a general ``Board`` when its components have these
shapes, so the solvers treat both representations alike.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from functools import lru_cache

import attrs

from cgframework import top_level_split
from cgframework_pizza.board import (
    Board,
    assemble,
    cycle_key,
    cycle_order,
    fmt,
    parse_board,
    parse_weight,
    path_key,
    path_order,
    piece,
)

FAMILIES = ("st", "tes", "path", "cyc")


@attrs.frozen(cache_hash=True)
class Part:
    """One component: ``kind`` is ``list`` (available isolated vertices), ``st`` (top =
    ``weights[0]``), ``tes``, ``path`` or ``cyc`` (both unopened); ``vertices`` are the board's
    vertex numbers (0-based) in the order of ``weights``."""

    kind: str
    weights: tuple
    vertices: Sequence[int]

    @property
    def unopened(self) -> bool:
        return self.kind in ("path", "cyc")


@attrs.frozen(cache_hash=True)
class Chains:
    """A board that is a concatenation of family parts, vertices numbered in order."""

    parts: tuple[Part, ...]

    @property
    def size(self) -> int:
        return sum(len(p.weights) for p in self.parts)


def _normal_kind(kind: str, n: int) -> str:
    """The kind as the board sees it: one available vertex is a list entry (L79), a cycle of
    two vertices is a path (a 2-cycle is one edge, L73)."""
    if kind in ("st", "tes") and n == 1:
        return "list"
    if kind == "cyc" and n <= 2:
        return "path"
    return kind


def parse_sequence(body: str) -> list:
    """Comma-separated exact weights; plain integers take a fast path (same results and
    the same refusals as ``parse_weight``, which reads every other token)."""
    if not body.strip():
        return []
    tokens = body.split(",")
    if "_" not in body:  # int() would accept 1_000, parse_weight does not
        try:
            return list(map(int, tokens))
        except ValueError:
            pass
    return [parse_weight(t) for t in tokens]


def _piece(text: str) -> tuple[str, list] | None:
    """(kind, weights) of one summand, or None for a general ``graph(...)``."""
    text = text.strip()
    if not text:
        raise ValueError("empty summand")
    if text.startswith("<") and text.endswith(">"):
        return "list", parse_sequence(text[1:-1])
    head, paren, rest = text.partition("(")
    kind = head.strip()
    if paren and rest.endswith(")") and kind.isalpha() and kind.islower():
        if kind not in FAMILIES:
            return None  # graph(...) or an unknown family: the general parser decides
        weights = parse_sequence(rest[:-1])
        if not weights:
            piece(kind, weights)  # the general parser's refusal, word for word
        return kind, weights
    return "cyc", parse_sequence(text)  # a bare list is a pizza


def parse_chains(text: str) -> Chains | Board:
    """The board ``text`` describes: ``Chains`` when every summand is a family, else the
    general ``Board`` (JSON boards and ``graph(...)`` summands)."""
    text = text.strip()
    if text.startswith("{"):
        return parse_board(text)
    pieces = top_level_split(text, "+") if "+" in text else [text]
    parts = []
    base = 0
    for summand in pieces:
        found = _piece(summand)
        if found is None:
            return parse_board(text)
        kind, weights = found
        n = len(weights)
        if n:
            parts.append(Part(_normal_kind(kind, n), tuple(weights), range(base, base + n)))
        base += n
    return Chains(tuple(parts))


def format_chains(chains: Chains) -> str:
    """The same text ``format_board`` prints for the equivalent board."""
    texts = []
    singles: list[str] = []
    for part in chains.parts:
        if part.kind == "list":
            singles.append(_joined(part.weights))
        else:
            texts.append(f"{part.kind}({_joined(part.weights)})")
    if singles:
        texts.append("<" + ",".join(singles) + ">")
    return " + ".join(texts) if texts else "<>"


def _joined(weights: Sequence) -> str:
    """The weights as ``fmt`` prints them, comma-separated (integers by ``str`` at once)."""
    if all(type(w) is int for w in weights):
        return ",".join(map(str, weights))
    return ",".join(map(fmt, weights))


@lru_cache(maxsize=16)
def chains_board(chains: Chains) -> Board:
    """The general board of a ``Chains`` (vertex numbers unchanged)."""
    return assemble([piece(p.kind, p.weights) for p in chains.parts])


def chains_key(chains: Chains) -> Hashable:
    """``Pizza.canonical_key`` of the equivalent board, read off the sequences (a list
    entry is a component of its own; a stack is available at its top, a tes at both ends)."""
    keys = []
    for part in chains.parts:
        ws, last = part.weights, len(part.weights) - 1
        if part.kind == "list":
            keys.extend(path_key([(w, True)]) for w in ws)
        elif part.kind == "cyc":
            keys.append(cycle_key(ws))
        else:
            ends = {"st": (0,), "tes": (0, last)}.get(part.kind, ())
            keys.append(path_key((w, i in ends) for i, w in enumerate(ws)))
    if len(keys) == 1:
        return keys[0]
    return ("+",) + tuple(sorted(keys, key=repr))


def as_board(position: Chains | Board) -> Board:
    return chains_board(position) if isinstance(position, Chains) else position


def board_parts(board: Board) -> list[Part] | None:
    """The components of a general board as parts, or None when one is not a list entry,
    stack, two-ended stack, unopened path or unopened cycle."""
    parts = []
    for component in board.components():
        avail = board.available & component
        order = path_order(board, component)
        if order is None:
            order = cycle_order(board, component)
            if order is None or avail:
                return None
            kind = "cyc"
        elif not avail:
            kind = "path"
        elif len(order) == 1:
            kind = "list"
        elif avail == {order[0], order[-1]}:
            kind = "tes"
        elif len(avail) == 1 and avail <= {order[0], order[-1]}:
            kind = "st"
            if order[0] not in avail:
                order.reverse()
        else:
            return None  # an available interior vertex: a general board
        parts.append(Part(kind, tuple(board.weight(v) for v in order), tuple(order)))
    return parts


def position_parts(position: Chains | Board) -> list[Part] | None:
    if isinstance(position, Chains):
        return list(position.parts)
    return board_parts(position)
