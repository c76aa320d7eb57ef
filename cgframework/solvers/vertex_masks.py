"""Node-Kayles and Arc-Kayles (Cram is Arc-Kayles on its cells' grid graph) on vertex masks
of one host graph: a component game for the Lemoine-Viennot search
(:mod:`cgframework.solvers.impartial_search`) that a ruleset's ``impartial_game`` returns.

A component is the mask of its vertices in the host graph. A Node-Kayles move takes a vertex
with its neighbours, an Arc-Kayles move (a Cram domino) an edge with both ends; what is left is
split into connected pieces. A piece's key is itself folded: on a host that is a grid strip
(vertices numbered column by column, ``height`` per column: ``path:n``, ``grid:RxC``, a Cram
board) the piece is moved to the first column and row, and the least of it and its mirror
images (up-down, left-right, both) is kept, so a shape is one key wherever it lies; on
any other host the least image under the automorphisms the ruleset passes (vertex
permutations; none: the piece itself) is kept. Every key is a piece of the host again, so it
is expanded like any other mask.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

CACHE_LIMIT = 1 << 20
"""Folded keys remembered before that cache is cleared."""

SMALL_VERTICES = 10
"""Pieces with at most this many vertices are valued by the mex rule in the search."""


Edges = Sequence[tuple[int, int]]


def byte_tables(order: int, image: Callable[[int], int]) -> list[list[int]]:
    """For each byte of a vertex mask, the union of ``image(v)`` over its set bits."""
    tables = []
    for base in range(0, order, 8):
        table = [0] * 256
        for k in range(1, 256):
            low = k & -k
            v = base + low.bit_length() - 1
            table[k] = table[k ^ low] | (image(v) if v < order else 0)
        tables.append(table)
    return tables


def connected_pieces(alive: int, near: list[list[int]]) -> list[int]:
    """The connected pieces of the vertex mask ``alive``, ``near`` being the neighbourhood
    tables of :func:`byte_tables` (the vertices next to each byte of a mask)."""
    out = []
    while alive:
        region = alive & -alive
        while True:
            grown = region
            rest, b = region, 0
            while rest:
                grown |= near[b][rest & 255]
                rest >>= 8
                b += 1
            grown &= alive
            if grown == region:
                break
            region = grown
        alive ^= region
        out.append(region)
    return out


def grid_edges(height: int, length: int) -> set[tuple[int, int]]:
    """The edges of a ``height`` x ``length`` grid numbered column by column
    (vertex ``c * height + r``)."""
    edges = set()
    for c in range(length):
        for r in range(height):
            v = c * height + r
            if r + 1 < height:
                edges.add((v, v + 1))
            if c + 1 < length:
                edges.add((v, v + height))
    return edges


def as_strip(order: int, edges: Edges) -> tuple[int, list[int]] | None:
    """(height, relabelling) when the graph is a grid ``R x C`` numbered row by row (as
    ``grid:RxC`` and ``path:n`` give it) or column by column: the relabelling numbers it
    column by column along its longer side, at most ``height = min(R, C)`` per column."""
    n = order
    edges = {(min(u, v), max(u, v)) for u, v in edges}
    for rows in range(1, n + 1):
        if n % rows:
            continue
        cols = n // rows
        if len(edges) != rows * (cols - 1) + cols * (rows - 1):
            continue
        if edges == grid_edges(cols, rows):  # row-major: a row of ``cols`` is a column
            height, length = cols, rows
            if height <= length:
                return height, list(range(n))
            # transpose: vertex (row i, column j) = i * cols + j goes to j * rows + i
            return rows, [(v % cols) * rows + v // cols for v in range(n)]
    return None


class KaylesMasks:
    """The component game of one host graph (see the module docstring); ``edges`` True for
    Arc-Kayles moves, False for Node-Kayles ones."""

    shared_keys = False
    comparable_keys = True

    def __init__(
        self,
        order: int,
        host_edges: Edges,
        edges: bool,
        alive: Sequence[int] | None = None,
        small: int = SMALL_VERTICES,
        name: Callable[..., str] = lambda *vertices: "-".join(map(str, vertices)),
        automorphisms: Sequence[Sequence[int]] = (),
    ) -> None:
        """``host_edges`` of the graph on vertices ``0..order-1``; ``alive``: the vertices
        in play (default all); ``name`` writes a move as the ruleset does, from the host's
        own vertices; ``automorphisms`` fold keys on a host that is not a grid strip."""
        strip = as_strip(order, host_edges)
        self.label = list(range(order)) if strip is None else strip[1]
        adj = [0] * order
        for u, v in host_edges:
            a, b = self.label[u], self.label[v]
            adj[a] |= 1 << b
            adj[b] |= 1 << a
        self.adj = adj
        self.near = byte_tables(order, adj.__getitem__)
        self.small = small
        self.size = int.bit_count
        self.edges = edges
        if edges:  # per vertex, the masks of its edges to higher vertices
            self.pairs = [
                [(1 << v) | (1 << u) for u in range(v + 1, order) if adj[v] >> u & 1]
                for v in range(order)
            ]
        else:
            self.closed = [adj[v] | (1 << v) for v in range(order)]
        self.height = None if strip is None else strip[0]
        if self.height is not None:
            h = self.height
            self.column = (1 << h) - 1
            self.reversed = [int(format(x, f"0{h}b")[::-1], 2) if h else 0 for x in range(1 << h)]
            full = (1 << order) - 1
            top = sum(1 << (c * h) for c in range(order // h))
            self.not_top, self.not_bottom = full & ~top, full & ~(top << (h - 1))
            self.fold = self._fold_strip
        else:  # (on no strip the labels are the host's own: the permutations apply as given)
            self.images = [
                byte_tables(order, lambda v, p=perm: 1 << p[v]) for perm in automorphisms
            ]
            self.fold = self._fold_automorphisms
        self.folds: dict[int, int] = {}
        self.middle_first: dict[int, list[int]] = {}
        self.start = (1 << order) - 1 if alive is None else self.mask_of(alive)
        self.name = name
        self.host_edges = tuple((min(u, v), max(u, v)) for u, v in host_edges)

    # ---- the protocol --------------------------------------------------------------------
    def mask_of(self, vertices: Sequence[int]) -> int:
        """The mask of some of the host graph's own vertices (before relabelling)."""
        mask = 0
        for v in vertices:
            mask |= 1 << self.label[v]
        return mask

    def keys_of(self, mask: int) -> list[int]:
        """The folded keys of the live pieces of a mask (on a strip, the pieces are grown by
        shifts: a column over, a row up or down)."""
        if self.height is None:
            fold = self.fold
            if self.edges:  # a connected piece of two or more vertices has an edge
                return [fold(p) for p in self.pieces(mask) if p & (p - 1)]
            return [fold(p) for p in self.pieces(mask)]
        # (the strip loop of ``pieces``, inlined: this is the search's hottest path, and going
        # through ``pieces`` costs Cram 4x8 about 8% more CPU)
        h, up, down, edges = self.height, self.not_top, self.not_bottom, self.edges
        folds = self.folds
        out = []
        alive = mask
        while alive:
            region = alive & -alive
            while True:
                grown = (
                    region
                    | (region << h)
                    | (region >> h)
                    | ((region & down) << 1)
                    | ((region & up) >> 1)
                ) & alive
                if grown == region:
                    break
                region = grown
            alive ^= region
            if edges and not region & (region - 1):
                continue  # a lone cell: no edge, no move
            key = folds.get(region)
            out.append(self._fold_strip(region) if key is None else key)
        return out

    def parts(self, position) -> list[int]:
        """The keys of the starting position's pieces (the search's root)."""
        return self.keys_of(self.start)

    def root_options(self) -> list[tuple[str, tuple[int, ...]]]:
        """The starting position's moves: (text as the ruleset writes it, the parts left),
        named by the host's own vertices (``name(v)``, or ``name(u, v)`` for an edge)."""
        start, label, out = self.start, self.label, []
        if self.edges:
            for u, v in self.host_edges:
                pair = (1 << label[u]) | (1 << label[v])
                if start & pair == pair:
                    out.append((self.name(u, v), tuple(self.keys_of(start & ~pair))))
        else:
            for v in range(len(label)):
                if start >> label[v] & 1:
                    out.append((self.name(v), tuple(self.keys_of(start & ~self.closed[label[v]]))))
        return out

    def ordered_option_parts(self, key: int) -> Iterator[tuple[int, ...]]:
        """The options' parts, made one by one, middle first on a strip: the moves in the
        piece's middle columns (then middle rows) before those near its ends, which split
        it evenly (a winning move, if any, is most often one of them)."""
        if self.height is None:
            yield from self.option_parts(key)
            return
        width = (key.bit_length() - 1) // self.height + 1
        order = self.middle_first.get(width)
        if order is None:
            h = self.height
            order = sorted(
                range(width * h),
                key=lambda v: (abs(2 * (v // h) - width + 1), abs(2 * (v % h) - h + 1), v),
            )
            self.middle_first[width] = order
        keys_of = self.keys_of
        if self.edges:
            pairs = self.pairs
            for v in order:
                if key >> v & 1:
                    for pair in pairs[v]:
                        if key & pair == pair:
                            yield tuple(keys_of(key & ~pair))
        else:
            closed = self.closed
            for v in order:
                if key >> v & 1:
                    yield tuple(keys_of(key & ~closed[v]))

    def option_parts(self, key: int) -> list[tuple[int, ...]]:
        keys_of = self.keys_of
        out = []
        if self.edges:
            for v in bits(key):
                for pair in self.pairs[v]:
                    if key & pair == pair:
                        out.append(tuple(keys_of(key & ~pair)))
        else:
            closed = self.closed
            for v in bits(key):
                out.append(tuple(keys_of(key & ~closed[v])))
        return out

    # ---- masks ---------------------------------------------------------------------------
    def pieces(self, alive: int) -> list[int]:
        """The connected pieces of ``alive``."""
        out = []
        if self.height is not None:
            h, up, down = self.height, self.not_top, self.not_bottom
            while alive:
                region = alive & -alive
                while True:
                    grown = (
                        region
                        | (region << h)
                        | (region >> h)
                        | ((region & down) << 1)
                        | ((region & up) >> 1)
                    ) & alive
                    if grown == region:
                        break
                    region = grown
                alive ^= region
                out.append(region)
            return out
        return connected_pieces(alive, self.near)

    def _fold_strip(self, piece: int) -> int:
        """The piece moved to the first column and row, least of its four mirror images."""
        found = self.folds.get(piece)
        if found is not None:
            return found
        h, column = self.height, self.column
        low = (piece & -piece).bit_length() - 1
        mask = piece >> (low - low % h)
        cols = []
        rows = 0
        while mask:
            col = mask & column
            cols.append(col)
            rows |= col
            mask >>= h
        while not cols[-1]:
            cols.pop()
        shift = (rows & -rows).bit_length() - 1
        tall = rows.bit_length() - shift
        rev = self.reversed
        down = h - tall - shift  # after reversing h rows: the piece's first row is here
        plain = flipped = 0
        for col in reversed(cols):
            plain = (plain << h) | (col >> shift)
            flipped = (flipped << h) | (rev[col] >> down)
        mirror = mirror_flipped = 0
        for col in cols:
            mirror = (mirror << h) | (col >> shift)
            mirror_flipped = (mirror_flipped << h) | (rev[col] >> down)
        found = min(plain, flipped, mirror, mirror_flipped)
        if len(self.folds) >= CACHE_LIMIT:
            self.folds.clear()
        self.folds[piece] = found
        return found

    def _fold_automorphisms(self, piece: int) -> int:
        found = self.folds.get(piece)
        if found is not None:
            return found
        best = piece
        for tables in self.images:
            image, rest, b = 0, piece, 0
            while rest:
                image |= tables[b][rest & 255]
                rest >>= 8
                b += 1
            if image < best:
                best = image
        if len(self.folds) >= CACHE_LIMIT:
            self.folds.clear()
        self.folds[piece] = best
        return best


def bits(mask: int) -> list[int]:
    """The vertices of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
