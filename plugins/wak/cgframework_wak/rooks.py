"""The non-attacking rooks game with holes, and its WAK graph (Section 3, L65-L91).

Players place rooks on squares that are neither holes nor attacked; rooks attack along rows
and columns but not through holes (L66). Proposition (L71-L89): the game is WAK on the
graph whose vertices are the vertical and horizontal hole-free segments, a segment's counter
1 minus its rooks, and an edge wherever two segments cross. (The paper uses rectangles; our
unit-width segments are its false twins, merged by Proposition 1 to the same graph.)
"""

from __future__ import annotations

import attrs

from cgframework.values import mex
from cgframework_wak.graph import WakGraph

Square = tuple[int, int]


@attrs.frozen
class RookBoard:
    rows: int
    cols: int
    holes: frozenset[Square] = frozenset()
    rooks: frozenset[Square] = frozenset()

    def free(self, square: Square) -> bool:
        return square not in self.holes


def parse_board(text: str, holes: str | None = None) -> RookBoard:
    """``RxC`` (with ``holes`` as ``r,c;r,c``) or a picture of rows joined by ``/``:
    ``.`` empty, ``#`` hole, ``R`` rook, e.g. ``..#./R.../....``."""
    text = text.strip()
    hole_set: set[Square] = set()
    rook_set: set[Square] = set()
    if "x" in text.lower() and "/" not in text and "." not in text:
        r, _, c = text.lower().partition("x")
        if not (r + c).isascii() or not r.strip().isdigit() or not c.strip().isdigit():
            raise ValueError(f"board size {text!r} is not RxC")
        rows, cols = int(r), int(c)
        if rows < 1 or cols < 1:
            raise ValueError(f"board size {text!r} must be at least 1x1")
    else:
        lines = text.split("/")
        rows, cols = len(lines), len(lines[0])
        for r, line in enumerate(lines):
            if len(line) != cols:
                raise ValueError(f"row {r} {line!r} has {len(line)} squares, row 0 has {cols}")
            for c, ch in enumerate(line):
                if ch == "#":
                    hole_set.add((r, c))
                elif ch in "Rr":
                    rook_set.add((r, c))
                elif ch != ".":
                    raise ValueError(f"unexpected {ch!r} at row {r}, column {c} (use . # R)")
    for token in (holes or "").split(";"):
        if not token.strip():
            continue
        r, sep, c = token.partition(",")
        if not sep or not (r + c).isascii() or not r.strip().isdigit() or not c.strip().isdigit():
            raise ValueError(f"hole {token.strip()!r} is not r,c")
        square = (int(r), int(c))
        if not (square[0] < rows and square[1] < cols):
            raise ValueError(f"hole {token.strip()!r} is off the {rows}x{cols} board")
        hole_set.add(square)
    if rook_set & hole_set:
        raise ValueError(f"rook on a hole at {sorted(rook_set & hole_set)[0]}")
    return RookBoard(rows, cols, frozenset(hole_set), frozenset(rook_set))


def _segments(board: RookBoard, vertical: bool) -> list[list[Square]]:
    outer, inner = (board.cols, board.rows) if vertical else (board.rows, board.cols)
    out = []
    for i in range(outer):
        run: list[Square] = []
        for j in range(inner):
            square = (j, i) if vertical else (i, j)
            if board.free(square):
                run.append(square)
            elif run:
                out.append(run)
                run = []
        if run:
            out.append(run)
    return out


def to_wak(board: RookBoard) -> tuple[WakGraph, dict[tuple[int, int], Square]]:
    """(the WAK graph, the square each edge stands for). Vertical segments come first."""
    verticals = _segments(board, True)
    segments = verticals + _segments(board, False)
    owner: dict[tuple[Square, bool], int] = {}
    weights = []
    for index, seg in enumerate(segments):
        rooks = sum(1 for s in seg if s in board.rooks)
        if rooks > 1:
            raise ValueError(f"two rooks attack each other in the segment from {seg[0]}")
        weights.append(1 - rooks)
        for square in seg:
            owner[square, index < len(verticals)] = index
    edges = {}
    for (square, is_vertical), v in owner.items():
        if is_vertical:
            edges[(v, owner[square, False])] = square
    return WakGraph(tuple(weights), list(edges)), edges


def legal_squares(board: RookBoard) -> list[Square]:
    """Squares where a rook may go: free, empty, and not attacked (not through holes)."""
    out = []
    for r in range(board.rows):
        for c in range(board.cols):
            if not board.free((r, c)) or (r, c) in board.rooks:
                continue
            if not any(_attacks(board, rook, (r, c)) for rook in board.rooks):
                out.append((r, c))
    return out


def _attacks(board: RookBoard, rook: Square, square: Square) -> bool:
    (r1, c1), (r2, c2) = rook, square
    if r1 == r2:
        lo, hi = sorted((c1, c2))
        return all(board.free((r1, c)) for c in range(lo, hi + 1))
    if c1 == c2:
        lo, hi = sorted((r1, r2))
        return all(board.free((r, c1)) for r in range(lo, hi + 1))
    return False


def rooks_grundy(board: RookBoard, memo: dict | None = None) -> int:
    """The rooks game's Grundy value by direct brute force (the reference for tests)."""
    memo = {} if memo is None else memo
    if board.rooks not in memo:
        memo[board.rooks] = mex(
            {
                rooks_grundy(attrs.evolve(board, rooks=board.rooks | {s}), memo)
                for s in legal_squares(board)
            }
        )
    return memo[board.rooks]
