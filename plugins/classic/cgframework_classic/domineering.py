"""Domineering (Winning Ways ch. 1; CGSuite's orientation): Left places vertical dominoes,
Right horizontal ones, on the empty cells of a board.

A board is stored as its height, width and a bit mask of empty cells (bit r * width + c), so
moves, connected components and symmetric images are cheap integer operations.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from functools import cache, lru_cache
from typing import Any

import attrs

from cgframework import BaseRuleset, Convention, Move, Player, pick_move
from cgframework.runtime.compiled import load_kernel

Key = tuple[int, int, int]  # a trimmed board (height, width, empty), least of its images
NegatedKey = tuple[int, int, int, int]  # a Key with -1 appended: minus the Key's value


@attrs.frozen
class Board:
    height: int
    width: int
    empty: int  # bit r * width + c set when cell (r, c) is empty

    def cells(self) -> Iterator[tuple[int, int]]:
        w, mask = self.width, self.empty
        while mask:
            low = mask & -mask
            i = low.bit_length() - 1
            yield divmod(i, w)
            mask ^= low


def parse_board(text: str) -> Board:
    rows = [row.strip() for row in text.split("|")]
    width = len(rows[0])
    if width == 0:
        raise ValueError("empty row")
    if len(rows) * width > MAX_CELLS:
        raise ValueError(f"board of {len(rows)}x{width} cells: the limit is {MAX_CELLS} cells")
    mask = 0
    for r, row in enumerate(rows):
        if len(row) != width:
            raise ValueError(f"row {r + 1} has {len(row)} cells, row 1 has {width}")
        for c, ch in enumerate(row):
            if ch == ".":
                mask |= 1 << (r * width + c)
            elif ch != "#":
                raise ValueError(f"unexpected {ch!r} in row {r + 1} (use . for empty, # blocked)")
    return Board(len(rows), width, mask)


def format_board(board: Board) -> str:
    w = board.width
    return "|".join(
        "".join("." if board.empty >> (r * w + c) & 1 else "#" for c in range(w))
        for r in range(board.height)
    )


def rows_of(board: Board) -> list[int]:
    """Each row's empty cells as a w-bit integer (bit c = column c)."""
    w, mask = board.width, board.empty
    row_mask = (1 << w) - 1
    return [(mask >> (r * w)) & row_mask for r in range(board.height)]


def from_rows(rows: Sequence[int], width: int) -> Board:
    return Board(len(rows), width, _packed(rows, width))


def trimmed(board: Board) -> Board:
    """The board cut to the bounding box of its empty cells (0x0 when none)."""
    h, w, mask = _trim(board.height, board.width, board.empty)
    if (h, w) == (board.height, board.width):
        return board
    return Board(h, w, mask)


@cache
def _reversed_row(row: int, width: int) -> int:
    return int(format(row, f"0{width}b")[::-1], 2) if width else 0


def _row_images(board: Board) -> tuple[list[int], ...]:
    """The rows of the images under the reflections that keep vertical dominoes vertical:
    identity, left-right mirror, up-down mirror and the half turn."""
    rows = rows_of(board)
    mirrored = [_reversed_row(row, board.width) for row in rows]
    return rows, mirrored, rows[::-1], mirrored[::-1]


def symmetric_images(board: Board) -> list[Board]:
    """The four images of ``_row_images`` as boards."""
    return [from_rows(image, board.width) for image in _row_images(board)]


def transpose(board: Board) -> Board:
    """Swap rows and columns: this swaps the players, negating the value."""
    mask = 0
    for r, c in board.cells():
        mask |= 1 << (c * board.height + r)
    return Board(board.width, board.height, mask)


class Domineering(BaseRuleset):
    name = "domineering"
    convention = Convention.NORMAL
    impartial = False
    family = "classic"
    syntax = "rows joined by |, . empty, # blocked, e.g. ..|..|.. ; Left plays vertically"

    def parse(self, text: str) -> Board:
        return parse_board(text)

    def format(self, position: Board) -> str:
        return format_board(position) if position.height else "#"

    def options(self, position: Board, player: Player) -> Iterator[Move]:
        h, w, empty = position.height, position.width, position.empty
        for r, c in position.cells():
            bit = 1 << (r * w + c)
            if player is Player.LEFT:
                if r + 1 < h and empty >> ((r + 1) * w + c) & 1:
                    after = empty & ~bit & ~(1 << ((r + 1) * w + c))
                    yield Move(Board(h, w, after), f"v{r + 1},{c + 1}")
            elif c + 1 < w and empty >> (r * w + c + 1) & 1:
                after = empty & ~bit & ~(bit << 1)
                yield Move(Board(h, w, after), f"h{r + 1},{c + 1}")

    def components(self, position: Board) -> Sequence[Board]:
        """Connected regions of empty cells (4-neighbourhood), each trimmed."""
        return _components(position.height, position.width, position.empty)

    def is_empty(self, position: Board) -> bool:
        return not position.empty

    def draw(self, position: Board, marks: Mapping[Hashable, Any] | None = None) -> str:
        """The board; ``marks``: cell ``(row, column)`` (0-based) -> Player who covered it."""
        from cgframework_classic.pictures import domineering_svg

        return domineering_svg(position.height, position.width, position.empty, marks)

    def move_marks(self, position: Board, move: Move) -> list[tuple[int, int]]:
        """The two cells of a domino ``v r,c`` (down from row r) or ``h r,c`` (rightwards)."""
        r, c = (int(x) - 1 for x in move.text[1:].split(","))
        return [(r, c), (r + 1, c) if move.text[0] == "v" else (r, c + 1)]

    cell_states = ".#"

    def move_at(self, position: Board, picks: Sequence[Hashable], player: Player) -> Any:
        """The ``player``'s domino on the two cells clicked (``(row, column)`` from 0, in
        either order): a vertical one is Left's, a horizontal one Right's."""
        candidates = ((self.move_marks(position, m), m) for m in self.options(position, player))
        return pick_move(candidates, picks, ordered=False)

    def canonical_key(self, position: Board) -> tuple[int, int, int]:
        return _symmetric_key(position.height, position.width, position.empty)

    def option_keys(self, key: Key, player: Player) -> list[tuple[Key | NegatedKey, ...]]:
        """For the core's canonical search (``cgframework.solvers.canonical``): the keys of
        each option's components, on integer masks alone, lone cells (worth 0) left out.
        Transposing a board swaps the players, so a component whose transpose has the
        smaller key is given as that key with a -1 appended: minus its value
        (``negated_key``). ``key`` is itself a trimmed board: (height, width, empty). The
        compiled kernel ``_k_domineering`` does the work when it is built and the board
        fits in 64 bits; ``python_option_keys`` is the reference it is tested against."""
        h, w, mask = key
        if h == 1:  # a strip (keys are connected): only Right moves, see _strip_options
            return _strip_options(w, player)
        if _kernel is not None:
            found = _kernel.option_keys(h, w, mask, player is Player.RIGHT)
            if found is not None:
                return found
        return python_option_keys(h, w, mask, player)

    def search_key(self, position: Board) -> Key | NegatedKey:
        """The key or negated key ``option_keys`` gives for this board."""
        return _signed_key(position.height, position.width, position.empty)

    def negated_key(self, token: Key | NegatedKey) -> Key | None:
        """The key whose value ``token`` negates, or ``None`` for a plain key."""
        return token[:3] if len(token) == 4 else None

    def examples(self) -> list[str]:
        return ["..|..|..", "...|...|...", "..#|...|.#."]


_SPLITS_LIMIT = 1 << 20
_kernel = load_kernel("cgframework_classic._k_domineering", api_version=1)
MAX_CELLS = 10_000
"""Largest board read (rows x columns). Boards are bit masks: each move costs time linear in
the board, and a board past a few dozen empty cells in two dimensions is out of reach anyway
(a long strip is solved in closed form, ``_strip_options``)."""


def python_option_keys(h: int, w: int, mask: int, player: Player) -> list[tuple[Any, ...]]:
    """``Domineering.option_keys`` of a board of 2 rows or more, in pure Python: for each
    domino place of ``player`` in order (``_domino_places``), unless the place is beaten by
    its neighbour (``_end_moves``), the signed keys of the regions of the option, lone
    cells left out, in the order of their lowest cell."""
    split = _splits(h, w)
    right = player is Player.RIGHT
    out = []
    for (domino, window, around, memo), beaten in zip(
        _domino_places(h, w)[right], _end_moves(h, w)[right], strict=True
    ):
        if mask & domino == domino:
            ahead, ahead_clear, behind, behind_clear, unless_clear = beaten
            if mask & ahead and not mask & ahead_clear:
                continue
            if mask & behind and not mask & behind_clear and mask & unless_clear:
                continue
            after = mask ^ domino
            parts = split.get(after)
            if parts is None:
                if len(split) >= _SPLITS_LIMIT:
                    split.clear()
                parts = split[after] = _component_keys(h, w, after, window, around, memo)
            out.append(parts)
    return out


@cache
def _end_moves(h: int, w: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For each place of ``_domino_places`` (vertical ones, then horizontal ones), when it is
    dominated by the next place along its line, as masks: (ahead, ahead_clear, behind,
    behind_clear, unless_clear). A player's domino on cells p, q (q after p along the
    line) is beaten by the one on q, n (n after q) when n is empty, the cell after n is not
    (or off the board), and no empty cell lies beside p across the line (``ahead`` = n,
    ``ahead_clear`` = those cells); by the one on b, p (b before p) when b is empty, the
    cell before b is not, and no empty cell lies beside q, unless the domino on b, p is
    itself beaten by this one (``unless_clear``: the cell after q and those beside b, all
    blocked; of two places that beat each other, the first is dropped). A cell off the
    board is a blocked one (0 in the masks).

    Why (for Right, whose dominoes lie along rows; Left's case is its transpose): a cell
    with no empty cell above or below it can only ever be covered by Right, so blocking it
    can only help Left: G' (G with it blocked) >= G. By induction on the board: the Left
    options of G' are those of G with the cell blocked, its Right options some of G's with
    the cell blocked, each >= its twin; so G^L >= G' would give G'^L >= G', and G'^R <= G
    would give G^R <= G, neither possible (Siegel, CGT II.1). Symmetrically, blocking a cell
    with no empty cell left or right of it can only help Right. With S the empty cells and
    X = S less p, q, n: X <= S less p, q (n has no row neighbour there) and X >= S less q, n
    (p has no column neighbour), so the move on q, n leaves at most what the move on p, q
    leaves, and Right's move on p, q is dominated (Siegel, CGT II.2: removing dominated
    options keeps the canonical form). The 1 x n strip's end move (Winning Ways ch. 1) is a
    case of it. Checked against the plain search (``--method generic``) in the tests."""

    def bit(r: int, c: int) -> int:
        return 1 << (r * w + c) if 0 <= r < h and 0 <= c < w else 0

    def rules(r: int, c: int, dr: int, dc: int) -> tuple[int, ...]:
        beside = lambda r, c: bit(r + dc, c + dr) | bit(r - dc, c - dr)  # noqa: E731
        q = (r + dr, c + dc)
        n = (q[0] + dr, q[1] + dc)
        b = (r - dr, c - dc)
        ahead = bit(*n)
        ahead_clear = bit(n[0] + dr, n[1] + dc) | beside(r, c)
        behind = bit(*b)
        behind_clear = bit(b[0] - dr, b[1] - dc) | beside(*q)
        unless_clear = bit(*n) | beside(*b)
        return ahead, ahead_clear, behind, behind_clear, unless_clear

    vertical = tuple(rules(r, c, 1, 0) for r in range(h - 1) for c in range(w))
    horizontal = tuple(rules(r, c, 0, 1) for r in range(h) for c in range(w - 1))
    return vertical, horizontal


def _strip_options(width: int, player: Player) -> list[tuple[Key, ...]]:
    """A 1 x n strip: Left has no move; Right's best move is at an end (a domino splits the
    strip into strips worth -floor(a/2) and -floor(b/2), a + b = n - 2, at least
    -floor((n-2)/2)), and the other options are dominated numbers, so the strip equals
    {| 1 x (n-2)} = -floor(n/2) (Winning Ways ch. 1: a strip of 2k is worth -k). One option
    per strip keeps the search linear instead of cubic in n."""
    if player is Player.LEFT or width < 2:
        return []
    rest = width - 2
    return [((1, rest, (1 << rest) - 1),) if rest >= 2 else ()]


@cache
def _splits(h: int, w: int) -> dict[int, tuple[Key | NegatedKey, ...]]:
    """Per board size: option mask -> the keys of its components (``_component_keys``)."""
    return {}


Place = tuple[int, int, int, dict[int, bool]]


@cache
def _domino_places(h: int, w: int) -> tuple[tuple[Place, ...], tuple[Place, ...]]:
    """The vertical (Left's) and the horizontal (Right's) domino places of an h x w board,
    each as (domino, window, around, memo): the domino's cells, the other cells of the
    block one cell larger on each side, the cells next to the domino, and a memo for
    ``_component_keys`` (window pattern -> are those neighbours connected in it)."""

    def place(cells: list[tuple[int, int]]) -> Place:
        domino = sum(1 << (r * w + c) for r, c in cells)
        (top, left), (bottom, right) = cells
        window = 0
        for r in range(max(top - 1, 0), min(bottom + 2, h)):
            for c in range(max(left - 1, 0), min(right + 2, w)):
                window |= 1 << (r * w + c)
        return domino, window & ~domino, _neighbours(domino, h, w) & ~domino, {}

    vertical = tuple(place([(r, c), (r + 1, c)]) for r in range(h - 1) for c in range(w))
    horizontal = tuple(place([(r, c), (r, c + 1)]) for r in range(h) for c in range(w - 1))
    return vertical, horizontal


def _component_keys(
    h: int, w: int, empty: int, window: int, around: int, memo: dict[int, bool]
) -> tuple[Key | NegatedKey, ...]:
    """The keys (``_signed_key``) of the connected regions of ``empty``, the connected board
    of a node less the domino of a ``_domino_places`` entry: lone cells (worth 0, found all
    at once) left out; then, if the domino's other neighbours are connected within its
    window, the rest is one region (each cell of it reaches one of them without crossing
    the domino); else each region is grown from its lowest cell."""
    full, not_first_col, not_last_col = _column_masks(h, w)
    lone = empty & ~(
        ((empty & not_last_col) << 1) | ((empty & not_first_col) >> 1) | (empty << w) | (empty >> w)
    )
    remaining = empty ^ lone
    if not remaining:
        return ()
    local = remaining & window
    joined = memo.get(local)
    if joined is None:
        joined = memo[local] = _joined(local & around, local, not_first_col, not_last_col, w)
    if joined:
        return (_signed_key(h, w, remaining),)
    keys = []
    while remaining:
        region = _grown(remaining & -remaining, remaining, not_first_col, not_last_col, w)
        remaining ^= region
        keys.append(_signed_key(h, w, region))
    return tuple(keys)


def _grown(region: int, within: int, not_first_col: int, not_last_col: int, w: int) -> int:
    """The connected region of ``within`` that contains ``region``."""
    while True:
        grown = (
            region
            | ((region & not_last_col) << 1)
            | ((region & not_first_col) >> 1)
            | (region << w)
            | (region >> w)
        ) & within
        if grown == region:
            return region
        region = grown


def _joined(cells: int, within: int, not_first_col: int, not_last_col: int, w: int) -> bool:
    """Whether ``cells`` all lie in one connected region of ``within``."""
    if not cells:
        return True
    return not cells & ~_grown(cells & -cells, within, not_first_col, not_last_col, w)


@lru_cache(maxsize=1 << 18)
def _components(h: int, w: int, empty: int) -> tuple[Board, ...]:
    """The trimmed connected regions of ``empty``; cached, since most option boards recur."""
    remaining = empty
    parts = []
    while remaining:
        seed = remaining & -remaining
        region = seed
        frontier = seed
        while frontier:
            grown = _neighbours(frontier, h, w) & remaining & ~region
            region |= grown
            frontier = grown
        remaining &= ~region
        parts.append(trimmed(Board(h, w, region)))
    return tuple(parts)


@lru_cache(maxsize=1 << 20)
def _symmetric_key(h: int, w: int, empty: int) -> tuple[int, int, int]:
    """The least (height, width, mask) over the four images of ``symmetric_images`` of the
    trimmed board; cached, as most look-ups recur."""
    return _region_key(h, w, empty)


_least_images: dict[Key, Key] = {}
_signed_keys: dict[Key, Key | NegatedKey] = {}


@lru_cache(maxsize=1 << 20)
def _signed_key(h: int, w: int, empty: int) -> Key | NegatedKey:
    """The smaller of the canonical keys of the board and of its transpose (whose value is
    the negative), with -1 appended if it is the transpose's; cached on the frame and on
    the trimmed board."""
    board = _trim(h, w, empty)
    found = _signed_keys.get(board)
    if found is None:
        if len(_signed_keys) >= _SPLITS_LIMIT:
            _signed_keys.clear()
        h, w = board[0], board[1]
        if h < w:  # keys compare by height first
            found = _least_image(*board)
        elif h > w:
            found = (*_least_image(*_transposed(*board)), -1)
        else:
            own = _least_image(*board)
            other = _least_image(*_transposed(*board))
            found = own if own <= other else (*other, -1)
        _signed_keys[board] = found
    return found


def _transposed(h: int, w: int, mask: int) -> Key:
    """The transpose of a board, on its bit string: column c read top-down is row c."""
    bits = format(mask, f"0{h * w}b")[::-1]  # char i is bit i
    return (w, h, int("".join([bits[c::w] for c in range(w)])[::-1], 2)) if mask else (0, 0, 0)


def _region_key(h: int, w: int, empty: int) -> tuple[int, int, int]:
    """``_symmetric_key`` uncached on the frame, cached on the trimmed board."""
    board = _trim(h, w, empty)
    key = _least_images.get(board)
    if key is None:
        if len(_least_images) >= _SPLITS_LIMIT:
            _least_images.clear()
        key = _least_images[board] = _least_image(*board)
    return key


def _least_image(h: int, w: int, mask: int) -> tuple[int, int, int]:
    """The least mask over the four images, on the mask's bit string (char i is bit n-1-i):
    reversing it is the half turn; reversing the order of its w-character rows is the
    up-down mirror, and reversing that string is the left-right mirror."""
    n = h * w
    bits = format(mask, f"0{n}b")
    half_turn = int(bits[::-1], 2)
    if h < 2:  # one row (or the empty board): the up-down mirror is the identity
        return (h, w, min(mask, half_turn))
    flipped = "".join([bits[i : i + w] for i in range(0, n, w)][::-1])
    return (h, w, min(mask, half_turn, int(flipped, 2), int(flipped[::-1], 2)))


def _trim(h: int, w: int, empty: int) -> tuple[int, int, int]:
    """(height, width, mask) of the board cut to the bounding box of its empty cells (0x0
    when none), by shifts on the mask (this runs for every component of every option)."""
    if not empty:
        return (0, 0, 0)
    first = ((empty & -empty).bit_length() - 1) // w
    height = (empty.bit_length() - 1) // w - first + 1
    mask = empty >> (first * w)
    row_mask = (1 << w) - 1
    columns = 0
    rest = mask
    while rest:
        columns |= rest & row_mask
        rest >>= w
    shift = (columns & -columns).bit_length() - 1
    width = columns.bit_length() - shift
    if width == w:
        return (height, w, mask)
    packed = 0
    for r in range(height):
        packed |= ((mask >> (r * w)) & row_mask) >> shift << (r * width)
    return (height, width, packed)


def _packed(rows: Sequence[int], width: int) -> int:
    mask = 0
    for r, row in enumerate(rows):
        mask |= row << (r * width)
    return mask


@cache
def _column_masks(h: int, w: int) -> tuple[int, int, int]:
    """(all cells, cells not in the first column, cells not in the last column)."""
    full = (1 << (h * w)) - 1
    first = sum(1 << (r * w) for r in range(h))
    last = first << (w - 1)
    return full, full & ~first, full & ~last


def _neighbours(mask: int, h: int, w: int) -> int:
    """Cells 4-adjacent to some cell of ``mask``."""
    full, not_first_col, not_last_col = _column_masks(h, w)
    return (
        ((mask & not_last_col) << 1)
        | ((mask & not_first_col) >> 1)
        | ((mask << w) & full)
        | (mask >> w)
    )
