"""Pictures for the classic rulesets' ``draw``: Domineering boards and heaps of tokens; and
plots of Grundy sequences (value against heap size).

Each picture takes the position's plain data (sizes, cells, pairs), not the position: this
module stands below the rulesets, which call it from their ``draw``, and imports none."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cgframework.display.pictures import (
    BLOCKED_COLOUR,
    FREE_COLOUR,
    INK,
    Marks,
    check_size,
    document,
    escape,
    grid_svg,
    mark_colour,
    text_svg,
)

TALL_HEAP = 15
"""A heap taller than this is drawn as one bar with its size, not token by token."""


def domineering_svg(height: int, width: int, empty: int, marks: Marks | None = None) -> str:
    """A ``height`` x ``width`` board whose empty squares are the bits ``r * width + c`` of
    ``empty``: one ``cell`` per square, empty light, blocked dark, a cell in ``marks``
    (``(row, column)`` from 0 at the top left -> Player) blue for Left's vertical dominoes,
    red for Right's horizontal ones."""
    if not height:
        return text_svg("#")

    def fill(r: int, c: int) -> str:
        base = FREE_COLOUR if empty >> (r * width + c) & 1 else BLOCKED_COLOUR
        return mark_colour(marks, (r, c), base)

    return grid_svg(height, width, fill)


def heaps_svg(sizes: tuple[int, ...], title: str = "", marks: Marks | None = None) -> str:
    """One ``heap`` group per heap, a stack of ``token`` circles (one per token) with its size
    below; a heap over ``TALL_HEAP`` tokens is one bar (class ``token-bar``). ``title``: the
    picture's tooltip (a partizan game's subtraction sets). Token ``k`` (from 0 at the bottom)
    of heap ``i`` carries ``data-cell="i,k"``: a click there takes it and the tokens above it
    (:func:`cgframework_classic.heaps.heap_click`). ``marks`` (:func:`heap_marks`'s keys
    ``(i, range(a, b))``, tokens a to b - 1 of heap i, -> Player) colour the tokens taken, or
    that stretch of a bar (class ``token-taken``), blue for Left, red for Right."""
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
                f'height="{span}" fill="#c8a35a" stroke="{INK}"/>'
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
                fill = next((c for run, c in taken.get(i, ()) if k in run), "#c8a35a")
                body.append(
                    f'<circle class="token" data-cell="{i},{k}" cx="{x}" cy="{cy}" r="{r}" '
                    f'fill="{fill}" stroke="{INK}"/>'
                )
        body.append(
            f'<text x="{x}" y="{height - 10}" text-anchor="middle" font-size="12">'
            f"{escape(n)}</text></g>"
        )
    return document(max(44, 34 * len(sizes) + 10), height, "".join(body), title)


DOT_LIMIT = 4000
"""Sequences up to this many values get one dot per heap; longer ones one mark per pixel
column showing which values its heaps take, so the SVG stays small."""

PLOT_WIDTH, PLOT_HEIGHT = 800, 300
"""The plotting area, in pixels (axes and labels are drawn around it)."""


def _tick_step(span: int, most: int = 10) -> int:
    """The least of 1, 2, 5, 10, 20, 50, ... giving at most ``most`` intervals over ``span``."""
    step = 1
    while True:
        for factor in (1, 2, 5):
            if span <= most * step * factor:
                return step * factor
        step *= 10


def _pixel_runs(values: Sequence[int], column: int, columns: int, top: int) -> list[range]:
    """The pixel rows (0 at the top) hit by the values of heap column ``column`` of
    ``columns``, as maximal runs of consecutive rows."""
    size = len(values)
    run = values[column * size // columns : (column + 1) * size // columns]
    rows = sorted({round((PLOT_HEIGHT - 1) * (1 - g / top)) for g in set(run)})
    runs: list[range] = []
    for row in rows:
        if runs and runs[-1].stop == row:
            runs[-1] = range(runs[-1].start, row + 1)
        else:
            runs.append(range(row, row + 1))
    return runs


def sequence_svg(values: Sequence[int], title: str) -> str:
    """A scatter plot of G(n) against the heap size n = 0, 1, ... (as CGSuite draws Grundy
    sequences): axes with ticks and labels, and one ``value`` dot per heap; past
    ``DOT_LIMIT`` heaps, one ``value-column`` path per pixel column marking the pixel rows
    its heaps' values fall on (at most 800 x 300 pixels: under 2 MB whatever the length)."""
    size = len(values)
    top = max(values) if size else 0
    left, right, upper, lower = 56, 24, 36, 48
    width, height = left + PLOT_WIDTH + right, upper + PLOT_HEIGHT + lower
    x_span, y_span = max(size - 1, 1), max(top, 1)

    def x_of(n: float) -> float:
        return round(left + PLOT_WIDTH * n / x_span, 2)

    def y_of(g: float) -> float:
        return round(upper + PLOT_HEIGHT * (1 - g / y_span), 2)

    base, body = upper + PLOT_HEIGHT, []
    body.append(
        f'<text class="title" x="{width / 2:g}" y="22" text-anchor="middle" '
        f'font-size="15">{escape(title)}</text>'
    )
    body.append(
        f'<path class="axes" d="M{left},{upper} V{base} H{left + PLOT_WIDTH}" '
        f'fill="none" stroke="{INK}"/>'
    )
    x_step, y_step = _tick_step(x_span), _tick_step(y_span, 8)
    for n in range(0, x_span + 1, x_step):
        x = x_of(n)
        body.append(
            f'<g class="x-tick"><line x1="{x}" y1="{base}" x2="{x}" y2="{base + 5}" '
            f'stroke="{INK}"/><text x="{x}" y="{base + 18}" text-anchor="middle" '
            f'font-size="11">{n}</text></g>'
        )
    for g in range(0, y_span + 1, y_step):
        y = y_of(g)
        body.append(
            f'<g class="y-tick"><line x1="{left - 5}" y1="{y}" x2="{left}" y2="{y}" '
            f'stroke="{INK}"/><text x="{left - 8}" y="{y + 4}" text-anchor="end" '
            f'font-size="11">{g}</text></g>'
        )
    body.append(
        f'<text class="x-label" x="{left + PLOT_WIDTH / 2:g}" y="{height - 8}" '
        f'text-anchor="middle" font-size="12">heap size n</text>'
        f'<text class="y-label" x="14" y="{upper + PLOT_HEIGHT / 2:g}" text-anchor="middle" '
        f'font-size="12" transform="rotate(-90 14 {upper + PLOT_HEIGHT / 2:g})">G(n)</text>'
    )
    colour = "#2f6db5"
    if size <= DOT_LIMIT:
        radius = 2.5 if size <= 300 else 1.6 if size <= 1000 else 1.2
        body.append(f'<g fill="{colour}">')
        body.extend(
            f'<circle class="value" cx="{x_of(n)}" cy="{y_of(g)}" r="{radius}"/>'
            for n, g in enumerate(values)
        )
    else:
        body.append(f'<g fill="{colour}">')
        for column in range(PLOT_WIDTH):
            runs = _pixel_runs(values, column, PLOT_WIDTH, y_span)
            steps = "".join(f"M{column},{r.start}v{len(r)}h1v-{len(r)}z" for r in runs)
            body.append(f'<path class="value-column" d="{steps}"/>')
        body[-PLOT_WIDTH - 1] = f'<g fill="{colour}" transform="translate({left},{upper})">'
    body.append("</g>")
    return document(width, height, "".join(body), title)


CAKE_COLOUR = "#e8c39e"


def cakes_svg(pieces: Sequence[tuple[int, int]]) -> str:
    """One ``cake`` group per cake (``(rows, columns)``), side by side on a common baseline:
    a rectangle scored into unit squares by thin ``score`` lines (where cuts may go), with
    its size below. Cells shrink for large cakes so the picture stays readable."""
    check_size(sum(r * c for r, c in pieces), "squares")
    tallest = max((r for r, _ in pieces), default=0)
    cell = 28 if tallest <= 12 else max(6, 336 // tallest)
    top, x, body = 8, 10, []
    base = top + cell * tallest
    for r, c in pieces:
        w, h = c * cell, r * cell
        y = base - h
        body.append(f'<g class="cake"><rect x="{x}" y="{y}" width="{w}" height="{h}" ')
        body.append(f'fill="{CAKE_COLOUR}" stroke="{INK}" stroke-width="2"/>')
        lines = [f"M{x + k * cell},{y}v{h}" for k in range(1, c)]
        lines += [f"M{x},{y + k * cell}h{w}" for k in range(1, r)]
        if lines:
            body.append(
                f'<path class="score" d="{"".join(lines)}" stroke="#8a6a4a" '
                'stroke-width="0.8" stroke-dasharray="3,2" fill="none"/>'
            )
        body.append(
            f'<text x="{x + w / 2:g}" y="{base + 18}" text-anchor="middle" '
            f'font-size="12">{r}x{c}</text></g>'
        )
        x += w + 20
    return document(max(x - 10, 44), base + 28, "".join(body))


def wythoff_svg(
    pairs: Sequence[tuple[int, int]],
    is_p_position: Callable[[int, int], bool],
    limit: int = 24,
) -> str:
    """One ``board`` group per queen ``(a, b)``: an (a+1) x (b+1) corner of the board with
    the target corner (0, 0) at the bottom left, the queen on its square, and the squares of
    the P-positions (those ``is_p_position`` holds for: the Wythoff pairs) shaded: the queen
    moves left, down or diagonally down-left. A board over ``limit`` squares on a side is
    drawn as text."""
    check_size(len(pairs), "queens", 50)
    cell, body, x = 22, [], 6
    tallest = max((a for a, b in pairs if max(a, b) <= limit), default=0) + 1
    for a, b in pairs:
        if max(a, b) > limit:
            body.append(
                f'<g class="board"><text x="{x}" y="{12 + cell * tallest / 2:g}" '
                f'font-size="14">queen at ({a},{b})</text></g>'
            )
            x += 14 + 9 * len(f"queen at ({a},{b})")
            continue
        y0 = 6 + cell * (tallest - a - 1)
        body.append('<g class="board">')
        for i in range(a + 1):  # row i from the bottom
            for j in range(b + 1):
                fill = "#9bb8d9" if is_p_position(i, j) else FREE_COLOUR
                cls = "square p-position" if is_p_position(i, j) else "square"
                body.append(
                    f'<rect class="{cls}" x="{x + j * cell}" y="{y0 + (a - i) * cell}" '
                    f'width="{cell}" height="{cell}" fill="{fill}" stroke="#999999"/>'
                )
        qx, qy = x + b * cell + cell / 2, y0 + cell / 2
        body.append(
            f'<circle class="queen" cx="{qx:g}" cy="{qy:g}" r="{cell * 0.36:g}" fill="{INK}"/></g>'
        )
        x += (b + 1) * cell + 16
    return document(max(x - 10, 44), 12 + cell * tallest, "".join(body))
