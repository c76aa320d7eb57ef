"""Thermograph pictures: :func:`thermograph_svg` draws exact thermographs as SVG.

CGSuite's and Winning Ways' convention: the value axis increases to the LEFT (so Left's wall
is on the left), the temperature axis points up. Each wall is one SVG path through its exact
breakpoints (``thermograph.py``), from t = -1 up to the temperature, where the mast (the
mean) goes on upward; the temperature and the mean are written beside the mast. The exact
breakpoints are also kept in ``data-points`` attributes (``t,v`` pairs), for tools and tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from cgframework.display.pictures import check_size, document, escape
from cgframework.values.thermograph import START, Thermograph, Wall, thermograph

COLOURS = ("#222222", "#2f6db5", "#d0443e", "#2e8b57", "#8e44ad", "#c77c02")
SCALE_WIDTH = 560
MARGIN = 56


def _breakpoints(wall: Wall, temperature: Fraction) -> list[tuple[Fraction, Fraction]]:
    """The wall's breakpoints from t = -1 to the temperature (both included)."""
    points = [(t, v) for t, v in wall.points if t < temperature]
    points.append((temperature, wall(temperature)))
    return points


def _fmt(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def _show(text: str, limit: int = 36) -> str:
    """A label that fits on the chart: long numbers (``1/2^3000``) keep their start and end
    around an ellipsis; the exact values stay in the ``data-`` attributes."""
    if len(text) <= limit:
        return text
    return f"{text[: limit - 14]}\u2026{text[-8:]} ({len(text)} chars)"


def _show_number(x: Fraction) -> str:
    """``x`` for a label: a power-of-two denominator as ``2^k`` once the number is long."""
    text = _fmt(x)
    d = x.denominator
    if len(text) > 36 and d & (d - 1) == 0:
        text = f"{x.numerator}/2^{d.bit_length() - 1}"
    return _show(text)


def thermograph_svg(games: object | Sequence[object], labels: Sequence[str] = ()) -> str:
    """A standalone SVG of the thermograph of one canonical game, or of several on one chart
    (each in its own colour, named by ``labels`` in a legend); a :class:`Thermograph` already
    computed is drawn as it is."""
    many = list(games) if isinstance(games, list | tuple) else [games]
    check_size(len(many), "thermographs", len(COLOURS))
    graphs = [g if isinstance(g, Thermograph) else thermograph(g) for g in many]
    points = [_breakpoints(w, th.temperature) for th in graphs for w in (th.left, th.right)]
    check_size(sum(map(len, points)), "breakpoints")
    values = [v for ps in points for _, v in ps]
    top_t = max(max(th.temperature for th in graphs), Fraction(0))
    top_t += max(Fraction(1), (top_t + 1) / 3)
    lo, hi = min(values) - 1, max(values) + 1
    unit = Fraction(SCALE_WIDTH) / max(hi - lo, top_t - START)
    width = 2 * MARGIN + float((hi - lo) * unit)
    top = 24 + 14 * len(many)  # room for the mean labels, one line per game
    height = top + MARGIN + float((top_t - START) * unit)

    def x(v: Fraction) -> float:  # value increases to the left
        return MARGIN + float((hi - v) * unit)

    def y(t: Fraction) -> float:  # temperature increases upwards
        return top + float((top_t - t) * unit)

    body = [_axes(x, y, lo, hi, top_t)]
    for i, th in enumerate(graphs):
        colour = COLOURS[i]
        for side, wall in (("left", th.left), ("right", th.right)):
            pts = _breakpoints(wall, th.temperature)
            d = " ".join(
                f"{'L' if k else 'M'}{x(v):.4f},{y(t):.4f}" for k, (t, v) in enumerate(pts)
            )
            data = " ".join(f"{_fmt(t)},{_fmt(v)}" for t, v in pts)
            body.append(
                f'<path class="{side}-wall" data-game="{i}" data-points="{data}" d="{d}" '
                f'fill="none" stroke="{colour}" stroke-width="2.5"/>'
            )
        mx, mt = x(th.mast), y(th.temperature)
        body.append(
            f'<path class="mast" data-game="{i}" data-mean="{_fmt(th.mast)}" '
            f'data-temperature="{_fmt(th.temperature)}" d="M{mx:.4f},{mt:.4f} '
            f'L{mx:.4f},{y(top_t):.4f}" stroke="{colour}" stroke-width="2.5"/>'
        )
        body.append(
            f'<text x="{mx + 5:.1f}" y="{mt - 4 - 14 * i:.1f}" font-size="12" fill="{colour}">'
            f"t = {escape(_show_number(th.temperature))}</text>"
            f'<text x="{mx:.1f}" y="{y(top_t) - 6 - 14 * i:.1f}" text-anchor="middle" '
            f'font-size="12" fill="{colour}">mean {escape(_show_number(th.mast))}</text>'
        )
    names = list(labels) or [
        f"mean {_show_number(g.mast)}" if isinstance(g, Thermograph) else str(g) for g in many
    ]
    for i, name in enumerate(names[: len(many)]):
        name = _show(name, 60)
        row = height - MARGIN / 2 + 16 * i
        body.append(
            f'<rect x="{MARGIN}" y="{row - 8:.1f}" width="12" height="4" fill="{COLOURS[i]}"/>'
            f'<text x="{MARGIN + 18}" y="{row - 2:.1f}" font-size="12">{escape(name)}</text>'
        )
    height += 16 * len(many) - MARGIN / 2
    return document(width, height + 8, "".join(body), "thermograph")


def _axes(x, y, lo: Fraction, hi: Fraction, top_t: Fraction) -> str:
    """The t = 0 line with integer value ticks, and the temperature axis at value 0 (at the
    right edge when 0 is outside the picture), with integer temperature ticks."""
    grey = "#9a9a9a"
    out = [
        f'<line class="axis" x1="{x(hi):.1f}" y1="{y(Fraction(0)):.1f}" x2="{x(lo):.1f}" '
        f'y2="{y(Fraction(0)):.1f}" stroke="{grey}"/>'
    ]
    step = max(1, int((hi - lo) / 12) + 1)
    first = -(-(int(lo) + 1) // step) * step  # (stepping, not testing every integer: 10^200)
    for v in range(first, int(hi) + 1, step):
        out.append(
            f'<line x1="{x(Fraction(v)):.1f}" y1="{y(Fraction(0)) - 4:.1f}" '
            f'x2="{x(Fraction(v)):.1f}" y2="{y(Fraction(0)) + 4:.1f}" stroke="{grey}"/>'
            f'<text x="{x(Fraction(v)):.1f}" y="{y(Fraction(0)) + 18:.1f}" '
            f'text-anchor="middle" font-size="11" fill="{grey}">{v}</text>'
        )
    axis_v = Fraction(0) if lo <= 0 <= hi else lo
    ax = x(axis_v)
    out.append(
        f'<line class="axis" x1="{ax:.1f}" y1="{y(START):.1f}" x2="{ax:.1f}" '
        f'y2="{y(top_t):.1f}" stroke="{grey}" stroke-dasharray="4 3"/>'
        f'<text x="{ax + 4:.1f}" y="{y(top_t) + 12:.1f}" font-size="11" fill="{grey}">t</text>'
    )
    for t in range(0, int(top_t) + 1, max(1, int(top_t) // 12 + 1)):
        out.append(
            f'<text x="{ax - 4:.1f}" y="{y(Fraction(t)) - 3:.1f}" text-anchor="end" '
            f'font-size="10" fill="{grey}">{t}</text>'
        )
    return "".join(out)
