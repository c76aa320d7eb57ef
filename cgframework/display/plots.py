"""Plots of integer sequences by heap size: a Grundy sequence G(0), G(1), ... drawn as CGSuite
draws one (value against n), for ``cgf sequence --plot`` and ``cgf quotient --plot``.

Plain SVG written by hand, from the pieces of :mod:`cgframework.display.pictures`. Up to
:data:`DOT_LIMIT` values the plot has one dot per heap; past it one mark per pixel column (the
values its heaps take), so the file stays under 2 MB at any length (10^7 values).
"""

from __future__ import annotations

from collections.abc import Sequence

from cgframework.display.pictures import INK, document, escape

DOT_LIMIT = 4000
"""Sequences up to this many values get one dot per heap; longer ones one mark per pixel
column showing which values its heaps take, so the SVG stays small."""

PLOT_WIDTH, PLOT_HEIGHT = 800, 300
"""The plotting area, in pixels (axes and labels are drawn around it)."""

DOT_COLOUR = "#2f6db5"


def tick_step(span: int, most: int = 10) -> int:
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


def sequence_svg(
    values: Sequence[int], title: str, y_label: str = "G(n)", x_label: str = "heap size n"
) -> str:
    """A scatter plot of ``values[n]`` against n = 0, 1, ... (as CGSuite draws Grundy
    sequences): axes with ticks and labels, and one ``value`` dot per heap; past
    :data:`DOT_LIMIT` heaps, one ``value-column`` path per pixel column marking the pixel rows
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
    x_step, y_step = tick_step(x_span), tick_step(y_span, 8)
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
    middle = upper + PLOT_HEIGHT / 2
    body.append(
        f'<text class="x-label" x="{left + PLOT_WIDTH / 2:g}" y="{height - 8}" '
        f'text-anchor="middle" font-size="12">{escape(x_label)}</text>'
        f'<text class="y-label" x="14" y="{middle:g}" text-anchor="middle" '
        f'font-size="12" transform="rotate(-90 14 {middle:g})">{escape(y_label)}</text>'
    )
    if size <= DOT_LIMIT:
        radius = 2.5 if size <= 300 else 1.6 if size <= 1000 else 1.2
        body.append(f'<g fill="{DOT_COLOUR}">')
        body.extend(
            f'<circle class="value" cx="{x_of(n)}" cy="{y_of(g)}" r="{radius}"/>'
            for n, g in enumerate(values)
        )
    else:
        body.append(f'<g fill="{DOT_COLOUR}" transform="translate({left},{upper})">')
        for column in range(PLOT_WIDTH):
            runs = _pixel_runs(values, column, PLOT_WIDTH, y_span)
            steps = "".join(f"M{column},{r.start}v{len(r)}h1v-{len(r)}z" for r in runs)
            body.append(f'<path class="value-column" d="{steps}"/>')
    body.append("</g>")
    return document(width, height, "".join(body), title)
