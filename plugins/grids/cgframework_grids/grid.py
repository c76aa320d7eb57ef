"""Rectangular boards of one-letter cells, shared by the grid rulesets.

A board is its height, width and a row-major string of cells (``x`` Left's stone or amazon,
``o`` Right's, ``.`` empty, ``#`` removed or burned), the letters cgt-py and pycgt use, so
positions paste between the three. Strings make the board's symmetric images cheap slices,
and a trimmed board string is its own cache key.

:class:`GridRuleset` does the work every grid game shares: parsing (rows joined by ``|``, and
the generators ``rect:RxC`` and ``checker:RxC``), splitting a board into regions that cannot
interact, the canonical key (the least image under the board's symmetries) and the canonical
search's ``option_keys`` fast path. A subclass says which letters it uses, which cells form
regions and lists its moves on the string.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from functools import cache
from typing import Any

import attrs

from cgframework import BaseRuleset, Convention, Move, Player, pick_move

Key = tuple[int, int, str]  # a trimmed board (height, width, cells), least of its images
NegatedKey = tuple[int, int, str, int]  # a Key with -1 appended: minus the Key's value

#: Largest board a generator or a pasted position may have (cells): far beyond what any
#: search finishes, small enough that building the board is instant.
MAX_CELLS = 400

#: Entries kept per cache before it is cleared (memory stays bounded on long runs).
CACHE_LIMIT = 1 << 20


class PositionError(ValueError):
    """A position text that is not a board of this ruleset (the CLI: one line, exit 2)."""


@attrs.frozen
class Grid:
    """A board: ``height`` rows of ``width`` cells, ``cells`` row by row."""

    height: int
    width: int
    cells: str

    def rows(self) -> list[str]:
        w = self.width
        return [self.cells[r * w : (r + 1) * w] for r in range(self.height)]


_CELL = re.compile(r"(\d+),(\d+)")
"""A cell in a move's text: ``row,column``, from 1."""

_GENERATOR = re.compile(r"(rect|checker):(\d+)x(\d+)")


def parse_grid(text: str, letters: str, checker: bool = False) -> Grid:
    """Rows of ``letters`` joined by ``|``; or ``rect:RxC`` (an empty R x C board), or with
    ``checker``, ``checker:RxC`` (every cell filled, ``x`` on the top-left corner)."""
    text = text.strip()
    generated = _GENERATOR.fullmatch(text)
    if generated:
        kind, h, w = generated.group(1), int(generated.group(2)), int(generated.group(3))
        if kind == "checker" and not checker:
            raise PositionError("checker:RxC is for Clobber and Konane; use rect:RxC")
        if not (h and w) or h * w > MAX_CELLS:
            raise PositionError(f"{text}: a board needs 1 to {MAX_CELLS} cells")
        if kind == "rect":
            return Grid(h, w, "." * (h * w))
        return Grid(h, w, "".join("xo"[(r + c) % 2] for r in range(h) for c in range(w)))
    if ":" in text:
        kinds = "rect:RxC or checker:RxC" if checker else "rect:RxC"
        raise PositionError(f"unknown generator {text!r} (use {kinds})")
    rows = [row.strip() for row in text.split("|")]
    width = len(rows[0])
    if width == 0:
        raise PositionError("empty row 1")
    known = frozenset(letters)
    for r, row in enumerate(rows):
        if len(row) != width:
            raise PositionError(f"row {r + 1} has {len(row)} cells, row 1 has {width}")
        if known.issuperset(row):  # (the usual case, at C speed: a certificate's checker
            continue  # parses every component of every node)
        for c, ch in enumerate(row):
            if ch not in letters:
                allowed = ", ".join(repr(x) for x in letters)
                raise PositionError(
                    f"unexpected {ch!r} at row {r + 1}, column {c + 1} (use {allowed})"
                )
    if len(rows) * width > MAX_CELLS:
        raise PositionError(f"a board of {len(rows) * width} cells (at most {MAX_CELLS})")
    return Grid(len(rows), width, "".join(rows))


def format_grid(grid: Grid) -> str:
    return "|".join(grid.rows()) if grid.height else "#"


# ---- symmetries -----------------------------------------------------------------------------
def images(h: int, w: int, s: str) -> list[Key]:
    """The board under the four symmetries that keep rows rows (identity, left-right and
    up-down mirrors, half turn), on the string: reversing it is the half turn, reversing
    the order of its rows the up-down mirror, and reversing that the left-right mirror."""
    if h < 2:
        return [(h, w, s), (h, w, s[::-1])]
    flipped = "".join([s[i : i + w] for i in range(0, h * w, w)][::-1])
    return [(h, w, s), (h, w, s[::-1]), (h, w, flipped), (h, w, flipped[::-1])]


def transposed(h: int, w: int, s: str) -> Key:
    """Rows become columns: column c read top-down is row c."""
    return (w, h, "".join([s[c::w] for c in range(w)]))


def all_images(h: int, w: int, s: str) -> list[Key]:
    """The eight symmetries of the rectangle (the four of :func:`images`, and transposed)."""
    return images(h, w, s) + images(*transposed(h, w, s))


def trim(h: int, w: int, s: str, fill: str) -> Key:
    """The board cut to the bounding box of its cells other than ``fill`` (0x0 when none),
    by slices: a row is ``s[r*w:(r+1)*w]``, a column ``s[c::w]``."""
    blank = fill * w
    top = 0
    while top < h and s[top * w : (top + 1) * w] == blank:
        top += 1
    if top == h:
        return (0, 0, "")
    bottom = h
    while s[(bottom - 1) * w : bottom * w] == blank:
        bottom -= 1
    if top or bottom < h:
        s = s[top * w : bottom * w]
        h = bottom - top
    blank = fill * h
    left = 0
    while s[left::w] == blank:
        left += 1
    right = w
    while s[right - 1 :: w] == blank:
        right -= 1
    if left or right < w:
        s = "".join([s[r * w + left : r * w + right] for r in range(h)])
        w = right - left
    return (h, w, s)


# ---- regions ---------------------------------------------------------------------------------
_BYTE_OF_BIT = str.maketrans({"0": "00", "1": "ff"})
"""A string of bits to hexadecimal digits, a byte of 0x00 or 0xff per bit."""


@cache
def _blank_bytes(fill: str, n: int) -> int:
    """``n`` cells of ``fill``, as the integer of their bytes."""
    return int.from_bytes((fill * n).encode("latin-1"), "big")


@cache
def _edges(h: int, w: int) -> tuple[int, int, int]:
    """(all cells, cells not in the first column, cells not in the last column)."""
    full = (1 << (h * w)) - 1
    first = sum(1 << (r * w) for r in range(h))
    return full, full & ~first, full & ~(first << (w - 1))


def grown(seed: int, within: int, h: int, w: int, diagonal: bool) -> int:
    """The region of ``within`` connected to ``seed`` (4-neighbours, or 8 with ``diagonal``)."""
    full, not_first, not_last = _edges(h, w)
    region = seed
    while True:
        sideways = region | ((region & not_last) << 1) | ((region & not_first) >> 1)
        more = (
            sideways | (sideways << w) | (sideways >> w)
            if diagonal
            else (sideways | (region << w) | (region >> w))
        )
        more &= within
        if more == region:
            return region
        region = more


@cache
def rays(h: int, w: int, diagonal: bool) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each cell, the cells in each direction (nearest first, up to the edge): the four
    orthogonal directions, then with ``diagonal`` the four diagonal ones."""
    steps = [(-1, 0), (1, 0), (0, -1), (0, 1)]
    if diagonal:
        steps += [(-1, -1), (-1, 1), (1, -1), (1, 1)]
    out = []
    for r in range(h):
        for c in range(w):
            cell_rays = []
            for dr, dc in steps:
                ray = []
                rr, cc = r + dr, c + dc
                while 0 <= rr < h and 0 <= cc < w:
                    ray.append(rr * w + cc)
                    rr, cc = rr + dr, cc + dc
                cell_rays.append(tuple(ray))
            out.append(tuple(cell_rays))
    return tuple(out)


def cell_name(i: int, w: int) -> str:
    r, c = divmod(i, w)
    return f"{r + 1},{c + 1}"


def move_text(cells: tuple[int, ...], w: int) -> str:
    """A move written as its cells, ``row,column`` (from 1), joined by ``>`` then ``/``:
    ``1,1>1,2`` moves from 1,1 to 1,2; Amazons adds the arrow, ``1,1>1,3/2,3``."""
    if len(cells) == 2:  # (most moves: one f-string, no generator)
        a, b = cells
        return f"{a // w + 1},{a % w + 1}>{b // w + 1},{b % w + 1}"
    text = ">".join(cell_name(i, w) for i in cells[:2])
    return text + "".join(f"/{cell_name(i, w)}" for i in cells[2:])


def put2(s: str, i: int, a: str, j: int, b: str) -> str:
    """``s`` with cell ``i`` set to ``a`` and cell ``j`` to ``b`` (the common two-cell move)."""
    if i > j:
        i, a, j, b = j, b, i, a
    return s[:i] + a + s[i + 1 : j] + b + s[j + 1 :]


# ---- the shared ruleset ----------------------------------------------------------------------
class GridRuleset(BaseRuleset):
    """A normal-play game on a :class:`Grid` (see the module docstring).

    A subclass sets ``letters`` (what may be written), ``solid`` (the letters of cells that
    connect a region: a region of other cells cannot interact with the rest), ``fill`` (the
    letter of a cell outside every region), ``diagonal`` (regions connect diagonally too),
    ``transpose_negates`` (transposing swaps the players, as in Fission; else the rules are
    the same in every direction and the key folds all eight symmetries) and implements
    ``moves(h, w, cells, player)`` -> (move text, cells after) and ``live(cells)`` (a region
    in which some move may ever be possible; the others are 0 and dropped).
    """

    convention = Convention.NORMAL
    family = "grids"
    letters = "xo.#"
    solid = "xo."
    fill = "#"
    diagonal = False
    transpose_negates = False
    checker = False

    def __init__(self) -> None:
        self._keys: dict[Key, Key | NegatedKey] = {}
        self._splits: dict[Key, tuple[Key | NegatedKey, ...]] = {}
        self._folds: dict[tuple[int, int, int], tuple[int, ...]] = {}  # nibble board -> key
        self._solid = str.maketrans({ch: ("1" if ch in self.solid else "0") for ch in "xo.#"})
        # a board without the fill letter is all solid cells (one region, nothing to trim)
        self._full_is_one = set(self.letters) - set(self.solid) <= {self.fill}

    # -- to implement -------------------------------------------------------------------------
    def moves(self, h: int, w: int, s: str, player: Player) -> Iterator[tuple[tuple, str]]:
        """(the move's cells, the board after) for each move (cells as ``move_text`` reads
        them; the search ignores them, so they are plain tuples)."""
        raise NotImplementedError

    def move_text(self, cells: tuple, w: int) -> str:
        return move_text(cells, w)

    def live(self, s: str) -> bool:
        return True

    # -- the protocol --------------------------------------------------------------------------
    def parse(self, text: str) -> Grid:
        grid = parse_grid(text, self.letters, self.checker)
        return self.normalised(grid)

    def normalised(self, grid: Grid) -> Grid:
        """The same board in this ruleset's letters (a hook: Clobber writes ``#`` as ``.``)."""
        return grid

    def format(self, position: Grid) -> str:
        return format_grid(position)

    def draw(self, position: Grid, marks: Mapping[Hashable, Any] | None = None) -> str:
        from cgframework_grids.drawing import draw_grid

        return draw_grid(position.rows(), marks)

    def options(self, position: Grid, player: Player) -> Iterator[Move]:
        h, w = position.height, position.width
        for cells, after in self.moves(h, w, position.cells, player):
            yield Move(Grid(h, w, after), self.move_text(cells, w))

    ordered_picks = True
    """Whether a move's cells are clicked in order (a stone, then its target) or in any
    order (Cram's dominoes)."""

    def move_at(self, position: Grid, picks: Sequence[Hashable], player: Player) -> Any:
        """The move whose cells (``(row, column)`` from 0, as ``moves`` lists them) were
        clicked: Clobber and Konane a stone then its target, Amazons the amazon, where it
        lands, then the arrow; Cram a domino's two cells; Fission the stone
        (:func:`cgframework.pick_move`)."""
        h, w = position.height, position.width
        candidates = (
            ([divmod(i, w) for i in cells], Move(Grid(h, w, after), self.move_text(cells, w)))
            for cells, after in self.moves(h, w, position.cells, player)
        )
        return pick_move(candidates, picks, ordered=self.ordered_picks)

    @property
    def cell_states(self) -> str:  # type: ignore[override]
        """What a cell cycles through in the position editor: the ruleset's letters, the
        empty cell first (a letter the parser rewrites, Clobber's ``#``, left out)."""
        letters = [ch for ch in self.letters if self.normalised(Grid(1, 1, ch)).cells == ch]
        return "".join(sorted(letters, key=lambda ch: ch != "."))

    def components(self, position: Grid) -> Sequence[Grid]:
        """The regions of solid cells, each trimmed, that still have a move in them."""
        return tuple(
            Grid(*part) for part in self._regions(position.height, position.width, position.cells)
        )

    def is_empty(self, position: Grid) -> bool:
        return not self.live(position.cells)

    @property
    def symmetries(self) -> int:  # type: ignore[override]
        """The board's symmetries that keep the game: the four that keep rows rows, and
        with transposing the other four unless it swaps the players."""
        return 4 if self.transpose_negates else 8

    def image(self, text: str, symmetry: int) -> tuple[str, Callable[[str], str]]:
        """The board's text under symmetry ``symmetry``: bit 4 transposes, then bit 2 turns it
        upside down and bit 1 mirrors it left to right; move texts (``row,column`` cells, from
        1) follow their cells (in board order where a move's cells have no order)."""
        if not 0 <= symmetry < self.symmetries:
            raise ValueError(f"ruleset {self.name!r} has no symmetry {symmetry}")
        rows = text.split("|")
        if symmetry & 4:
            rows = ["".join(column) for column in zip(*rows, strict=True)]
        if symmetry & 2:
            rows = rows[::-1]
        if symmetry & 1:
            rows = [row[::-1] for row in rows]
        h, w = (len(rows), len(rows[0])) if rows else (0, 0)

        def cell(r: int, c: int) -> tuple[int, int]:
            if symmetry & 4:
                r, c = c, r
            if symmetry & 2:
                r = h - 1 - r
            if symmetry & 1:
                c = w - 1 - c
            return r, c

        def move_image(move: str) -> str:
            cells = [cell(int(r) - 1, int(c) - 1) for r, c in _CELL.findall(move)]
            if not self.ordered_picks:  # (Cram names a domino by its cells in board order)
                cells.sort()
            named = iter(cells)
            return _CELL.sub(lambda _: "{},{}".format(*(x + 1 for x in next(named))), move)

        return "|".join(rows), move_image

    def canonical_key(self, position: Grid) -> Key:
        """The least image of the trimmed board under the symmetries that keep the players
        (all eight of the rectangle, or the four that keep rows rows when transposing
        swaps the players)."""
        h, w, s = trim(position.height, position.width, position.cells, self.fill)
        return min(images(h, w, s) if self.transpose_negates else all_images(h, w, s))

    def search_key(self, position: Grid) -> Key | NegatedKey:
        """The key or negated key ``option_keys`` gives for this board."""
        return self._signed_key(trim(position.height, position.width, position.cells, self.fill))

    def negated_key(self, token: Key | NegatedKey) -> Key | None:
        """The key whose value ``token`` negates, or ``None`` for a plain key."""
        return token[:3] if len(token) == 4 else None  # type: ignore[return-value]

    def option_keys(self, key: Key, player: Player) -> list[tuple[Key | NegatedKey, ...]]:
        """For the core's canonical search: the keys of each option's regions, on board
        strings alone (``key`` is itself a trimmed board)."""
        h, w, s = key
        splits = self._splits
        out = []
        for _, after in self.moves(h, w, s, player):
            parts = splits.get((h, w, after))
            if parts is None:
                if len(splits) >= CACHE_LIMIT:
                    splits.clear()
                parts = splits[(h, w, after)] = tuple(
                    self._signed_key(part) for part in self._regions(h, w, after)
                )
            out.append(parts)
        return out

    # -- helpers -------------------------------------------------------------------------------
    def _regions(self, h: int, w: int, s: str) -> list[Key]:
        """The trimmed live regions of a board."""
        if not h:
            return []
        if self._full_is_one and self.fill not in s:  # every cell solid: one trimmed region
            return [(h, w, s)] if self.live(s) else []
        solid = int(s.translate(self._solid)[::-1], 2)
        first = solid & -solid
        region = grown(first, solid, h, w, self.diagonal) if solid else 0
        if region == solid:  # one region (or none): only trimmed
            part = trim(h, w, s, self.fill)
            return [part] if solid and self.live(part[2]) else []
        parts = []
        remaining = solid
        n = h * w
        board = int.from_bytes(s.encode("latin-1"), "big")
        blank = _blank_bytes(self.fill, n)
        while remaining:
            region = grown(remaining & -remaining, remaining, h, w, self.diagonal)
            remaining ^= region
            # the region's cells kept and the others blanked, a byte per cell, with C-level
            # integer operations: each bit of the region spread to a byte of 0xff
            keep = int(format(region, f"0{n}b")[::-1].translate(_BYTE_OF_BIT), 16)
            cells = ((board & keep) | (blank & ~keep)).to_bytes(n, "big").decode("latin-1")
            part = trim(h, w, cells, self.fill)
            if self.live(part[2]):
                parts.append(part)
        return parts

    def _signed_key(self, board: Key) -> Key | NegatedKey:
        """The board's canonical key; when transposing swaps the players, the smaller of the
        keys of the board and of its transpose, with -1 appended if it is the transpose's."""
        found = self._keys.get(board)
        if found is None:
            if len(self._keys) >= CACHE_LIMIT:
                self._keys.clear()
            if self.transpose_negates:
                own = min(images(*board))
                other = min(images(*transposed(*board)))
                found = own if own <= other else (*other, -1)
            else:
                found = min(all_images(*board))
            self._keys[board] = found
        return found
