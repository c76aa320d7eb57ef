"""Standalone SVG pictures of positions: the shared pieces every ruleset's ``draw`` uses.

A ruleset's ``draw(position, marks=None)`` returns one SVG document (a string). ``marks`` say
who took what: a mapping from a ruleset-defined key (a cell ``(row, column)``, a vertex number,
an edge ``(u, v)``) to the :class:`~cgframework.game.Player` who took it; Left is drawn blue,
Right red (CGSuite's and Winning Ways' colours). Every drawn item carries a ``class``
(``cell``, ``vertex``, ``edge``, ``slice``, ``token``) so tests and stylesheets can find it,
and what a click may pick a ``data-`` attribute (``data-cell="r,c"`` on a grid's cells,
``data-vertex`` on a graph's vertices, ``data-edge`` (the edge's index) on its edges: the
keys a ruleset's ``move_at`` reads; ``data-part`` on each summand of a sum's picture).

The pictures are plain SVG 1.1 written by hand: no Graphviz binary, no drawing library.
Graph layouts come from networkx (imported inside :func:`graph_svg` only).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from html import escape as _html_escape
from typing import Any

LEFT_COLOUR = "#2f6db5"
RIGHT_COLOUR = "#d0443e"
FREE_COLOUR = "#eeeeee"
BLOCKED_COLOUR = "#555555"
INK = "#222222"

MAX_ITEMS = 2500
"""The most cells/vertices/tokens one picture draws; bigger positions are refused."""

Marks = Mapping[Hashable, Any]


class PictureTooBig(ValueError):
    """The position has more items than a readable picture (and a sane file) can hold."""


def escape(text: object) -> str:
    """``text`` safe inside SVG/XML text and attribute values."""
    return _html_escape(str(text), quote=True)


def check_size(count: int, what: str = "items", limit: int = MAX_ITEMS) -> None:
    if count > limit:
        raise PictureTooBig(f"too big to draw: {count} {what} (the limit is {limit})")


def mark_colour(marks: Marks | None, key: Hashable, default: str = FREE_COLOUR) -> str:
    """The fill for ``key``: blue if Left took it, red if Right did, else ``default``.
    A mark may be a Player or its letter ``"L"``/``"R"``."""
    if not marks or key not in marks:
        return default
    who = marks[key]
    letter = getattr(who, "value", who)
    return LEFT_COLOUR if letter == "L" else RIGHT_COLOUR if letter == "R" else default


def document(width: float, height: float, body: str, title: str = "") -> str:
    """One standalone SVG document of the given size (a title becomes a tooltip)."""
    head = f"<title>{escape(title)}</title>" if title else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}" font-family="sans-serif">{head}{body}</svg>\n'
    )


def text_svg(text: str, title: str = "") -> str:
    """The default picture: the position's text, monospaced, in a box."""
    check_size(len(text), "characters", 40 * MAX_ITEMS)
    lines = text.splitlines() or [""]
    check_size(len(lines), "lines")
    width = 16 + 8.4 * max(len(line) for line in lines)
    height = 16 + 18 * len(lines)
    body = [
        f'<rect class="text-box" x="1" y="1" width="{width - 2:g}" height="{height - 2:g}" '
        'fill="white" stroke="#999999"/>'
    ]
    for i, line in enumerate(lines):
        body.append(
            f'<text class="text-line" x="8" y="{24 + 18 * i}" font-family="monospace" '
            f'font-size="14" xml:space="preserve">{escape(line)}</text>'
        )
    return document(width, height, "".join(body), title)


def grid_svg(
    height: int,
    width: int,
    fill: Callable[[int, int], str | None],
    label: Callable[[int, int], str] | None = None,
    size: int = 36,
) -> str:
    """A board of ``height`` x ``width`` square cells; ``fill(r, c)`` is the cell's colour
    (``None``: no cell there). Cell (0, 0) is the top-left one."""
    check_size(height * width, "cells")
    body = []
    for r in range(height):
        for c in range(width):
            colour = fill(r, c)
            if colour is None:
                continue
            x, y = 4 + c * size, 4 + r * size
            body.append(
                f'<rect class="cell" data-cell="{r},{c}" x="{x}" y="{y}" width="{size}" '
                f'height="{size}" fill="{colour}" stroke="{INK}"/>'
            )
            text = label(r, c) if label else ""
            if text:
                body.append(
                    f'<text data-cell="{r},{c}" x="{x + size / 2:g}" y="{y + size * 0.65:g}" '
                    f'text-anchor="middle" font-size="{size // 2}" fill="white">'
                    f"{escape(text)}</text>"
                )
    return document(8 + width * size, 8 + height * size, "".join(body))


def graph_svg(
    vertices: Sequence[Hashable],
    edges: Iterable[tuple[Hashable, Hashable]],
    *,
    fill: Callable[[Hashable], str],
    label: Callable[[Hashable], str] = str,
    directed: bool = False,
    edge_colours: Sequence[str] | None = None,
    square: Callable[[Hashable], bool] | None = None,
    tokens: Callable[[Hashable], int] | None = None,
    size: int = 360,
    caption: str = "",
) -> str:
    """A graph drawn from a networkx spring layout (fixed seed, so pictures are stable; paths,
    cycles and rectangular grids get their natural layout): one ``vertex`` element per
    vertex (a circle, or a square where ``square(v)``), one ``edge`` element per edge (a loop
    ``(v, v)`` is a small circle above the vertex), with ``tokens``, ``tokens(v)`` small
    ``token`` discs under each vertex, and a ``caption`` line under the picture (what the
    labels mean)."""
    import networkx as nx

    check_size(len(vertices), "vertices")
    edges = list(edges)
    check_size(len(edges), "edges", 4 * MAX_ITEMS)
    graph = nx.DiGraph() if directed else nx.Graph()
    graph.add_nodes_from(vertices)
    graph.add_edges_from((u, v) for u, v in edges if u != v)
    chain = _chain_layout(graph)
    unit = None  # pixels per layout unit: fixed for chains, else the layout fills the square
    if chain is None:
        chain = _grid_layout(graph)
    if chain is not None:  # paths in rows, cycles as rings, grids as grids: one unit apart
        pos, unit = chain, 56.0
    elif len(vertices) <= 1:
        pos = {v: (0.0, 0.0) for v in vertices}
    else:
        pos = _spread(nx.spring_layout(graph, seed=7, iterations=300, k=1.5 / len(vertices) ** 0.5))
    xs = [float(p[0]) for p in pos.values()] or [0.0]
    ys = [float(p[1]) for p in pos.values()] or [0.0]
    span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    margin, radius = 44, 16
    scale = unit or (size - 2 * margin) / span
    width = height = float(size)
    if unit is not None:
        width = 2 * margin + (max(xs) - min(xs)) * scale
        height = 2 * margin + (max(ys) - min(ys)) * scale
    x0 = margin + (width - 2 * margin - (max(xs) - min(xs)) * scale) / 2 - min(xs) * scale
    y0 = margin + (height - 2 * margin - (max(ys) - min(ys)) * scale) / 2 - min(ys) * scale

    def at(v: Hashable) -> tuple[float, float]:
        x, y = pos[v]
        return x0 + float(x) * scale, y0 + float(y) * scale

    body = []
    drawn: dict[tuple[Hashable, Hashable], int] = {}
    for i, (u, v) in enumerate(edges):
        colour = edge_colours[i] if edge_colours else INK
        x1, y1 = at(u)
        if u == v:
            body.append(
                f'<circle class="edge" data-edge="{i}" cx="{x1:.1f}" '
                f'cy="{y1 - radius - 7:.1f}" r="9" '
                f'fill="none" stroke="{colour}" stroke-width="2"/>'
            )
            continue
        x2, y2 = at(v)
        dx, dy = x2 - x1, y2 - y1
        length = (dx * dx + dy * dy) ** 0.5 or 1.0
        repeat = drawn[(u, v)] = drawn.get((u, v), -1) + 1
        if directed:  # bent to its right, so u>v and v>u (and repeated arcs) stay apart
            bend = min(14.0, 0.15 * length) + 16 * repeat
            cx, cy = (x1 + x2) / 2 - dy / length * bend, (y1 + y2) / 2 + dx / length * bend
            ex, ey = x2 - cx, y2 - cy
            end = (ex * ex + ey * ey) ** 0.5 or 1.0
            ux, uy = ex / end, ey / end
            x2, y2 = x2 - ux * (radius + 1), y2 - uy * (radius + 1)
            body.append(
                f'<path class="edge" data-edge="{i}" '
                f'd="M{x1:.1f},{y1:.1f} Q{cx:.1f},{cy:.1f} {x2:.1f},{y2:.1f}" '
                f'fill="none" stroke="{colour}" stroke-width="2"/>'
            )
            bx, by = x2 - ux * 11, y2 - uy * 11  # the arrowhead's base, 11 px back
            body.append(
                f'<path class="arrow" d="M{x2:.1f},{y2:.1f} L{bx - uy * 5:.1f},{by + ux * 5:.1f} '
                f'L{bx + uy * 5:.1f},{by - ux * 5:.1f} Z" fill="{colour}"/>'
            )
        else:
            body.append(
                f'<line class="edge" data-edge="{i}" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" '
                f'y2="{y2:.1f}" stroke="{colour}" stroke-width="2"/>'
            )
    for v in vertices:
        x, y = at(v)
        colour = fill(v)
        pick = escape(v)
        if square and square(v):
            body.append(
                f'<rect class="vertex" data-vertex="{pick}" x="{x - radius:.1f}" '
                f'y="{y - radius:.1f}" '
                f'width="{2 * radius}" height="{2 * radius}" fill="{colour}" stroke="{INK}"/>'
            )
        else:
            body.append(
                f'<circle class="vertex" data-vertex="{pick}" cx="{x:.1f}" cy="{y:.1f}" '
                f'r="{radius}" '
                f'fill="{colour}" stroke="{INK}"/>'
            )
        text_colour = "white" if colour in (LEFT_COLOUR, RIGHT_COLOUR, BLOCKED_COLOUR) else INK
        body.append(
            f'<text data-vertex="{pick}" x="{x:.1f}" y="{y + 4:.1f}" text-anchor="middle" '
            f'font-size="12" fill="{text_colour}">{escape(label(v))}</text>'
        )
        count = tokens(v) if tokens else 0
        for k in range(count):
            body.append(
                f'<circle class="token" cx="{x - 4.5 * (count - 1) + 9 * k:.1f}" '
                f'cy="{y + radius + 8:.1f}" '
                f'r="5" fill="#e0a800" stroke="{INK}"/>'
            )
    if caption:
        width = max(width, 16 + 7 * len(caption))
        body.append(
            f'<text class="caption" x="{width / 2:.1f}" y="{height + 4:.1f}" '
            f'text-anchor="middle" font-size="12" fill="{INK}">{escape(caption)}</text>'
        )
        height += 16
    return document(width, height, "".join(body))


def _grid_layout(graph: Any) -> dict[Hashable, tuple[float, float]] | None:
    """When the graph (loops aside) is a connected R x C grid with R, C >= 2: each vertex at
    its row and column (wider than tall), found from its distances to two corners a side
    apart, and checked
    edge by edge; else ``None`` (a spring layout draws a grid as a tilted diamond)."""
    import networkx as nx

    plain = nx.Graph(graph)
    plain.remove_edges_from(list(nx.selfloop_edges(plain)))
    n = len(plain)
    corners = sorted((v for v, d in plain.degree() if d == 2), key=str)
    if n < 4 or len(corners) != 4 or any(d > 4 for _, d in plain.degree()):
        return None
    if not nx.is_connected(plain):
        return None
    a = corners[0]
    from_a = nx.single_source_shortest_path_length(plain, a)
    b = sorted(corners[1:], key=lambda c: (from_a[c], str(c)))[1]  # the longer side: wide
    cols = from_a[b] + 1
    rows, rest = divmod(n, cols)
    edges = plain.number_of_edges()
    if rest or rows < 2 or edges != rows * (cols - 1) + cols * (rows - 1):
        return None
    from_b = nx.single_source_shortest_path_length(plain, b)
    cell: dict[Hashable, tuple[int, int]] = {}
    for v in plain:
        r2, c2 = from_a[v] + from_b[v] - (cols - 1), from_a[v] - from_b[v] + (cols - 1)
        if r2 % 2 or c2 % 2:
            return None
        cell[v] = (r2 // 2, c2 // 2)
    if len(set(cell.values())) != n or not all(
        0 <= r < rows and 0 <= c < cols for r, c in cell.values()
    ):
        return None
    for u, v in plain.edges():
        if abs(cell[u][0] - cell[v][0]) + abs(cell[u][1] - cell[v][1]) != 1:
            return None
    return {v: (float(c), float(r)) for v, (r, c) in cell.items()}


def _chain_layout(graph: Any) -> dict[Hashable, tuple[float, float]] | None:
    """When every connected part is a path or a cycle: each path in a row and each cycle
    as a ring, one unit between neighbours, parts one under the other; else ``None``."""
    import math

    import networkx as nx

    plain = nx.Graph(graph)
    plain.remove_edges_from(list(nx.selfloop_edges(plain)))
    if len(plain) < 2 or any(d > 2 for _, d in plain.degree()):
        return None
    pos: dict[Hashable, tuple[float, float]] = {}
    top = 0.0
    for part in sorted(nx.connected_components(plain), key=lambda c: min(map(str, c))):
        sub = plain.subgraph(part)
        ends = [v for v in sub if sub.degree(v) < 2]
        start = ends[0] if ends else min(sub, key=str)
        order = list(nx.dfs_preorder_nodes(sub, start))
        if ends or len(order) < 3:
            pos.update((v, (float(i), top)) for i, v in enumerate(order))
            top += 1.3
        else:
            r = 1 / (2 * math.sin(math.pi / len(order)))
            for i, v in enumerate(order):
                a = 2 * math.pi * i / len(order) - math.pi / 2
                pos[v] = (r + r * math.cos(a), top + r + r * math.sin(a))
            top += 2 * r + 1.3
    return pos


def _spread(pos: dict[Hashable, Any], rounds: int = 100) -> dict[Hashable, Any]:
    """Push apart vertices a spring layout left almost on top of each other (closer than a
    sixth of the picture), for up to 150 vertices."""
    import numpy as np

    keys = list(pos)
    if len(keys) > 150:
        return pos
    xy = np.array([pos[k] for k in keys], dtype=float)
    for _ in range(rounds):
        span = float(np.ptp(xy, axis=0).max()) or 1.0
        gap = span / 6
        diff = xy[:, None, :] - xy[None, :, :]
        dist = np.sqrt((diff**2).sum(axis=2)) + np.eye(len(keys))
        close = (dist < gap) & ~np.eye(len(keys), dtype=bool)
        if not close.any():
            break
        push = (diff / dist[:, :, None] * ((gap - dist) * close)[:, :, None]).sum(axis=1)
        xy += push / 2
    return dict(zip(keys, xy, strict=True))


TALL_HEAP = 15
"""A heap taller than this is drawn as one bar with its size, not token by token."""

TOKEN_COLOUR = "#c8a35a"


def heaps_svg(sizes: Sequence[int], title: str = "", marks: Marks | None = None) -> str:
    """Heaps of tokens (any heap game): one ``heap`` group per heap, a stack of ``token``
    circles (one per token) with its size below; a heap over ``TALL_HEAP`` tokens is one bar
    (class ``token-bar``). ``title``: the picture's tooltip. Token ``k`` (from 0 at the
    bottom) of heap ``i`` carries ``data-cell="i,k"``: the key a click there picks
    (:func:`cgframework.heaps.rules.heap_click` takes it and the tokens above it). ``marks``
    with keys ``(i, range(a, b))`` (tokens a to b - 1 of heap i; -> Player:
    :func:`cgframework.heaps.rules.heap_marks`) colour the tokens taken, or that stretch of a
    bar (class ``token-taken``), blue for Left, red for Right."""
    check_size(len(sizes), "heaps", 200)
    taken: dict[int, list[tuple[range, str]]] = {}
    for key in marks or ():
        if isinstance(key, tuple) and len(key) == 2 and isinstance(key[1], range):
            taken.setdefault(key[0], []).append((key[1], mark_colour(marks, key, "")))
    tall = min(max(sizes, default=0), TALL_HEAP + 1)
    step, r = 20, 8
    height = 50 + step * tall
    body = []
    for i, n in enumerate(sizes):
        x = 22 + 34 * i
        body.append('<g class="heap">')
        if n > TALL_HEAP:
            top, span = height - 30 - step * tall, step * tall
            body.append(
                f'<rect class="token-bar" x="{x - r}" y="{top}" width="{2 * r}" '
                f'height="{span}" fill="{TOKEN_COLOUR}" stroke="{INK}"/>'
            )
            for run, colour in taken.get(i, ()):
                low, high = max(run.start, 0) / n, min(run.stop, n) / n
                y = top + span * (1 - high)
                body.append(
                    f'<rect class="token-taken" x="{x - r}" y="{y:.2f}" width="{2 * r}" '
                    f'height="{max(span * (high - low), 2):.2f}" fill="{colour}" stroke="{INK}"/>'
                )
        else:
            for k in range(n):
                cy = height - 30 - step * k - r
                fill = next((c for run, c in taken.get(i, ()) if k in run), TOKEN_COLOUR)
                body.append(
                    f'<circle class="token" data-cell="{i},{k}" cx="{x}" cy="{cy}" r="{r}" '
                    f'fill="{fill}" stroke="{INK}"/>'
                )
        body.append(
            f'<text x="{x}" y="{height - 10}" text-anchor="middle" font-size="12">'
            f"{escape(n)}</text></g>"
        )
    return document(max(44, 34 * len(sizes) + 10), height, "".join(body), title)


def side_by_side(pictures: Sequence[str], gap: int = 16) -> str:
    """Several standalone SVG documents in a row (the picture of a sum), each kept whole as
    a nested ``<svg>``."""
    import xml.etree.ElementTree as ET

    body, x, height = [], 0.0, 0.0
    for i, picture in enumerate(pictures):
        root = ET.fromstring(picture)
        w, h = float(root.get("width", "0")), float(root.get("height", "0"))
        body.append(f'<g data-part="{i}" transform="translate({x:g},0)">{picture.strip()}</g>')
        x += w + gap
        height = max(height, h)
    return document(max(x - gap, 1), max(height, 1), "".join(body))


def write_svg(path: str, svg: str) -> None:
    """Write ``svg`` to ``path`` by the rules of :mod:`cgframework.runtime.outputs`: a regular
    file whole or not at all, a device or FIFO in place, ``-`` standard output; a path that
    cannot be written raises :class:`~cgframework.runtime.outputs.OutputError` (an ``OSError``)."""
    from cgframework.runtime.outputs import write_output

    write_output(path, svg)
