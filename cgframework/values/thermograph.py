"""Exact thermographs: walls as piecewise-linear functions of the temperature t >= -1.

Siegel CGT II.5 / Lessons in Play ch. 6: the left scaffold of G is
LS(t) = max over G^L of (RW(G^L)(t) - t), the right scaffold RS(t) = min over G^R of
(LW(G^R)(t) + t). The temperature T is the least t where LS(t) <= RS(t); for t >= T both
walls are the mast, whose value is the mean. Integers have temperature -1 and a mast from -1;
a number m/2^j gets temperature -1/2^j from the same rule. All breakpoints are Fractions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

import attrs

from cgframework.runtime.deep import call_deep
from cgframework.values.canonical import uptimal
from cgframework.values.hooks import provide

START = Fraction(-1)


@attrs.frozen
class Wall:
    """f(t) for t >= -1: linear between ``points`` (t ascending, the first at -1), then
    continuing from the last point with slope ``slope``."""

    points: tuple[tuple[Fraction, Fraction], ...]
    slope: Fraction = Fraction(0)

    @classmethod
    def constant(cls, value: Fraction) -> Wall:
        return cls(((START, Fraction(value)),), Fraction(0))

    def __call__(self, t: Fraction) -> Fraction:
        pts = self.points
        if t >= pts[-1][0]:
            return pts[-1][1] + self.slope * (t - pts[-1][0])
        for (t0, v0), (t1, v1) in zip(pts, pts[1:], strict=False):
            if t0 <= t <= t1:
                return v0 + (v1 - v0) * (t - t0) / (t1 - t0)
        raise ValueError(f"t = {t} is below -1")

    def slope_after(self, t: Fraction) -> Fraction:
        """The slope just to the right of t."""
        pts = self.points
        if t >= pts[-1][0]:
            return self.slope
        for (t0, v0), (t1, v1) in zip(pts, pts[1:], strict=False):
            if t0 <= t < t1:
                return (v1 - v0) / (t1 - t0)
        return self.slope

    def plus_t(self, c: int) -> Wall:
        """t -> f(t) + c t."""
        return Wall(tuple((t, v + c * t) for t, v in self.points), self.slope + c)

    def truncated(self, at: Fraction, mast: Fraction) -> Wall:
        """This wall up to ``at``, then the constant ``mast``."""
        kept = [(t, v) for t, v in self.points if t < at]
        kept.append((at, mast))
        return Wall(_tidy(kept), Fraction(0))


def _tidy(points: Sequence[tuple[Fraction, Fraction]]) -> tuple[tuple[Fraction, Fraction], ...]:
    """Drop repeated and collinear interior points."""
    out: list[tuple[Fraction, Fraction]] = []
    for p in points:
        if out and out[-1][0] == p[0]:
            continue
        while len(out) >= 2:
            (t0, v0), (t1, v1) = out[-2], out[-1]
            if (v1 - v0) * (p[0] - t1) == (p[1] - v1) * (t1 - t0):
                out.pop()
            else:
                break
        out.append(p)
    return tuple(out)


def _envelope(walls: Sequence[Wall], pick: Callable[..., Fraction]) -> Wall:
    """Pointwise max (``pick=max``) or min of walls, exactly."""
    result = walls[0]
    for other in walls[1:]:
        result = _envelope2(result, other, pick)
    return result


def _envelope2(f: Wall, g: Wall, pick: Callable[..., Fraction]) -> Wall:
    ts = sorted({t for t, _ in f.points} | {t for t, _ in g.points})
    points: list[tuple[Fraction, Fraction]] = []
    for a, b in zip(ts, ts[1:], strict=False):
        points.append((a, pick(f(a), g(a))))
        da, db = f(a) - g(a), f(b) - g(b)
        if da * db < 0:  # they cross strictly inside (a, b)
            x = a + (b - a) * da / (da - db)
            points.append((x, f(x)))
    last = ts[-1]
    fl, gl = f(last), g(last)
    points.append((last, pick(fl, gl)))
    sf, sg = f.slope, g.slope
    d, ds = fl - gl, sf - sg
    if d * ds < 0:  # they cross on the final ray
        x = last - d / ds
        points.append((x, f(x)))
        fl, gl, last = f(x), g(x), x
    # after the last point, the winner is decided by value then slope
    if fl != gl:
        slope = sf if pick(fl, gl) == fl else sg
    else:
        slope = pick(sf, sg)
    return Wall(_tidy(points), slope)


@attrs.frozen
class Thermograph:
    """Left and right walls, the temperature where they meet, and the mast value (mean)."""

    left: Wall
    right: Wall
    temperature: Fraction
    mast: Fraction


_memo: dict[int, Thermograph] = {}


def thermograph(g) -> Thermograph:  # g: CanonicalGame (import cycle avoided)
    """The thermograph of ``g`` (Siegel CGT II.5). The rule recurses through the options, as
    deep as the game's birthday (``1/2^3000`` is 3000 levels): deep games are run on the
    large-stack thread of :func:`~cgframework.runtime.deep.call_deep`."""
    found = _memo.get(g.id)
    if found is not None:
        return found
    return call_deep(_thermograph, g)


def _thermograph(g) -> Thermograph:
    found = _memo.get(g.id)
    if found is not None:
        return found
    up = g.uptimal
    if up is not None and up != _representative(*up):
        # a large uptimal: its walls are those of a small one with the same number part
        result = _thermograph(uptimal(*_representative(*up)))
        _memo[g.id] = result
        return result
    return _by_options(g, _thermograph, _memo)


def _representative(x: Fraction, n: int, m: int) -> tuple[Fraction, int, int]:
    """A small uptimal with the thermograph of ``x + n.^ + *m``: the walls below t = 0 only
    see which options are numbers, so ups beyond 3 (keeping the parity of the chain
    ``n.^*m -> (n-1).^*(m xor 1)``) and stars beyond 3 (keeping parity) change nothing.
    Checked against the option-by-option construction in tests/test_values_symbolic.py."""
    if n == 0:
        return x, 0, min(m, 2)
    k = abs(n)
    if k > 3:
        m ^= (k - 3) & 1
        k = 3
    if m > 3:
        m = 2 + (m & 1)
    return x, k if n > 0 else -k, m


def thermograph_by_options(g) -> Thermograph:
    """The thermograph by the recursive rule alone, no shortcut (the reference for tests)."""
    return _by_options(g, thermograph_by_options, _reference_memo)


_reference_memo: dict[int, Thermograph] = {}


def _by_options(g, thermograph: Callable, memo: dict[int, Thermograph]) -> Thermograph:
    """The thermograph from the options' thermographs (Siegel CGT II.5), memoised."""
    found = memo.get(g.id)
    if found is not None:
        return found
    if g.is_integer:
        n = g.number_value
        result = Thermograph(Wall.constant(n), Wall.constant(n), Fraction(-1), n)
    else:
        ls = _envelope([thermograph(x).right.plus_t(-1) for x in g.left], max)
        rs = _envelope([thermograph(x).left.plus_t(1) for x in g.right], min)
        temperature = _first_meeting(ls, rs)
        mast = ls(temperature)
        result = Thermograph(
            ls.truncated(temperature, mast), rs.truncated(temperature, mast), temperature, mast
        )
    memo[g.id] = result
    return result


def _first_meeting(ls: Wall, rs: Wall) -> Fraction:
    """The least t >= -1 with LS(t) <= RS(t)."""
    d = _difference(ls, rs)
    if d(START) <= 0:
        return START
    pts = d.points
    for (t0, v0), (t1, v1) in zip(pts, pts[1:], strict=False):
        if v1 <= 0:
            return t0 + (t1 - t0) * v0 / (v0 - v1)
    t, v = pts[-1]
    if d.slope >= 0:
        raise ArithmeticError("scaffolds never meet: not a short game")
    return t - v / d.slope


def _difference(f: Wall, g: Wall) -> Wall:
    ts = sorted({t for t, _ in f.points} | {t for t, _ in g.points})
    return Wall(tuple((t, f(t) - g(t)) for t in ts), f.slope - g.slope)


provide("canonical.thermograph", thermograph)
