"""Clobber and Cram written as docs/writing-a-plugin.md teaches, and nothing more: a board
string, ``options``, ``components`` (connected groups, trimmed) and a ``canonical_key`` up to
the board's symmetries. No ``option_keys``, no specialised solver: what the core's generic
canonical search does for any plugin (``benchmarks/generic_search.py``).

A board is its rows joined by ``|``; Clobber: ``x`` Left's stones, ``o`` Right's, ``.`` empty;
Cram: ``.`` empty, ``#`` filled (both players place a domino in either direction).
"""

from __future__ import annotations

from collections.abc import Iterator

from cgframework import BaseRuleset, Convention, Move, Player, SwapLetters


def rows_of(board: str) -> list[str]:
    return board.split("|")


def transpose(rows: list[str]) -> list[str]:
    return ["".join(col) for col in zip(*rows, strict=True)]


def images(board: str) -> list[str]:
    """The board under the symmetries of its rectangle (eight, or four if not square)."""
    rows = rows_of(board)
    out = []
    for grid in (rows, transpose(rows)):
        for flipped in (grid, grid[::-1]):
            out.append("|".join(flipped))
            out.append("|".join(r[::-1] for r in flipped))
    return out


def groups(board: str, filled: str) -> list[str]:
    """The orthogonally connected groups of cells not in ``filled``, each trimmed to its
    bounding box (the rest of the box written with ``filled[0]``)."""
    rows = rows_of(board)
    cells = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch not in filled}
    out = []
    while cells:
        stack = [cells.pop()]
        group = set(stack)
        while stack:
            r, c = stack.pop()
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nb in cells:
                    cells.remove(nb)
                    group.add(nb)
                    stack.append(nb)
        r0 = min(r for r, _ in group)
        r1 = max(r for r, _ in group)
        c0 = min(c for _, c in group)
        c1 = max(c for _, c in group)
        out.append(
            "|".join(
                "".join(rows[r][c] if (r, c) in group else filled[0] for c in range(c0, c1 + 1))
                for r in range(r0, r1 + 1)
            )
        )
    return out


class PlainClobber(BaseRuleset):
    """Clobber: move a stone of yours onto an orthogonally adjacent stone of the opponent's."""

    name = "plain-clobber"
    convention = Convention.NORMAL
    syntax = "rows of x (Left), o (Right) and . joined by |"
    negative = SwapLetters("xo")  # the colours swapped: -G

    def parse(self, text: str) -> str:
        return text

    def options(self, position: str, player: Player) -> Iterator[Move]:
        me, other = ("x", "o") if player is Player.LEFT else ("o", "x")
        rows = [list(r) for r in rows_of(position)]
        h, w = len(rows), len(rows[0])
        for r in range(h):
            for c in range(w):
                if rows[r][c] != me:
                    continue
                for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if 0 <= rr < h and 0 <= cc < w and rows[rr][cc] == other:
                        after = [row.copy() for row in rows]
                        after[r][c], after[rr][cc] = ".", me
                        yield Move("|".join("".join(x) for x in after), f"{r},{c}-{rr},{cc}")

    def components(self, position: str) -> list[str]:
        # a lone stone or a group of one colour has no move: drop it
        return [g for g in groups(position, ".") if "x" in g and "o" in g]

    def canonical_key(self, position: str) -> str:
        return min(images(position))


class PlainCram(BaseRuleset):
    """Cram: each player places a domino, in either direction, on two empty cells."""

    name = "plain-cram"
    convention = Convention.NORMAL
    impartial = True
    syntax = "rows of . (empty) and # (filled) joined by |"

    def parse(self, text: str) -> str:
        return text

    def options(self, position: str, player: Player) -> Iterator[Move]:
        rows = [list(r) for r in rows_of(position)]
        h, w = len(rows), len(rows[0])
        for r in range(h):
            for c in range(w):
                if rows[r][c] != ".":
                    continue
                for rr, cc in ((r + 1, c), (r, c + 1)):
                    if rr < h and cc < w and rows[rr][cc] == ".":
                        after = [row.copy() for row in rows]
                        after[r][c] = after[rr][cc] = "#"
                        yield Move("|".join("".join(x) for x in after), f"{r},{c}-{rr},{cc}")

    def components(self, position: str) -> list[str]:
        return [g for g in groups(position, "#") if g.count(".") > 1]

    def canonical_key(self, position: str) -> str:
        return min(images(position))
