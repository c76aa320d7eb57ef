"""Notebook pictures: how values, solutions and games show themselves in Jupyter.

Canonical values get ``_repr_latex_`` (CGSuite notation typeset: ``\\uparrow``, ``\\Uparrow``,
``\\pm``, ``\\ast n``) and ``_repr_svg_`` (the thermograph), and a thermograph its picture,
attached by :func:`install_reprs`;
a :class:`~cgframework.solution.Solution` and an :class:`~cgframework.api.Game` get
``_repr_html_`` (a small table: the position's picture, value, outcome, best moves; a loopy
value as CGSuite writes it, ``1 & 0``, or why it is unknown).
:func:`show` is the same picture for scripts: it returns the SVG (and writes it to a file).
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from cgframework.solution import Solution
from cgframework.values.canonical import CanonicalGame
from cgframework.values.thermograph import Thermograph

_TOKEN = re.compile(
    r"\+-|\^\^|vv|\^(\d+)|v(\d+)|\^|v|\*(\d*)|(\|+)|(-?\d+)/(\d+)|[{}]|-?\d+|,|-|\s+|."
)


def _convert(text: str, latex: bool) -> str:
    """CGSuite value text in LaTeX (``latex``) or in Unicode symbols."""
    out = []
    for m in _TOKEN.finditer(text):
        tok = m.group(0)
        if tok == "+-":
            out.append(r"\pm " if latex else "±")
        elif tok in ("^^", "vv"):
            out.append(
                (r"\Uparrow " if tok == "^^" else r"\Downarrow ")
                if latex
                else ("⇑" if tok == "^^" else "⇓")
            )
        elif m.group(1) or m.group(2):
            n, arrow = (m.group(1), "up") if m.group(1) else (m.group(2), "down")
            out.append(
                rf"{n}\cdot\{arrow}arrow " if latex else f"{n}·{'↑' if arrow == 'up' else '↓'}"
            )
        elif tok in ("^", "v"):
            out.append(
                (r"\uparrow " if tok == "^" else r"\downarrow ")
                if latex
                else ("↑" if tok == "^" else "↓")
            )
        elif tok.startswith("*"):
            out.append((rf"\ast {m.group(3)}" if m.group(3) else r"\ast ") if latex else tok)
        elif m.group(4):
            bars = len(tok)
            out.append(
                (r"\mid " if bars == 1 else r"\parallel " if bars == 2 else r"\mid " * bars)
                if latex
                else tok
            )
        elif m.group(5) and latex:
            sign = "-" if m.group(5).startswith("-") else ""
            out.append(rf"{sign}\frac{{{m.group(5).lstrip('-')}}}{{{m.group(6)}}}")
        elif tok in "{}" and latex:
            out.append("\\" + tok)
        else:
            out.append(tok)
    return "".join(out).strip()


def latex(value: Any) -> str:
    """A value in LaTeX math (no ``$``): a canonical form in CGSuite notation, a number."""
    if isinstance(value, Fraction) and value.denominator != 1:
        sign = "-" if value < 0 else ""
        return rf"{sign}\frac{{{abs(value.numerator)}}}{{{value.denominator}}}"
    return _convert(str(value), latex=True)


def symbols(value: Any) -> str:
    """A value in CGSuite notation with Unicode arrows (``↑``, ``⇑``, ``±``); a loopy value
    (``over``, ``1 & 0``) as its text, whose letters are no arrows."""
    if _loopy(value):
        return str(value)
    return _convert(str(value), latex=False)


def _loopy(value: Any) -> bool:
    """A value of the loopy algebra (without importing it: no such value exists before)."""
    import sys

    module = sys.modules.get("cgframework.values.loopy.sides")
    return module is not None and isinstance(value, module.LoopyGame | module.SidedGame)


class Picture(str):
    """SVG text that Jupyter displays as a picture (and scripts use as a string)."""

    def _repr_svg_(self) -> str:
        return str(self)


def show(ruleset: Any, position: Any, path: str | None = None, marks: Any = None) -> Picture:
    """The picture of ``position`` (a ruleset object or name; a position object or its text)
    as SVG text; with ``path``, also written to that file (whole, or not at all)."""
    from cgframework.display.pictures import write_svg
    from cgframework.game import draw_position, parse_position
    from cgframework.plugins import resolve_ruleset

    rs = resolve_ruleset(ruleset)
    pos = parse_position(rs, position) if isinstance(position, str) else position
    svg = Picture(draw_position(rs, pos, marks))
    if path is not None:
        write_svg(path, svg)
    return svg


NOTEBOOK_LENGTH = 2000
"""A canonical value whose text is longer than this shows in a notebook elided, with its
summary (:func:`~cgframework.values.summary.summarise`), never typeset whole."""


def _value_latex(self: Any) -> str | None:
    from cgframework.values.notation import text_length

    if text_length(self) > NOTEBOOK_LENGTH:
        return None  # Jupyter then shows another representation: the (elided) repr
    return f"${latex(self)}$"


def _value_svg(self: Any) -> str | None:
    """The thermograph of a canonical value, or of a :class:`Thermograph` itself."""
    from cgframework.display.pictures import PictureTooBig
    from cgframework.display.thermograph import thermograph_svg

    try:
        return thermograph_svg(self)
    except (PictureTooBig, ArithmeticError):
        return None  # Jupyter then shows another representation


def _picture_cell(ruleset: Any, position: Any) -> str:
    from cgframework.game import draw_position

    try:
        return draw_position(ruleset, position)
    except Exception:  # a picture is a courtesy: never let it break the table
        return ""


def solution_html(solution: Any, picture: str | None = None) -> str:
    """A small HTML table: the position's picture, value, outcome, best moves, method."""
    from cgframework.display.pictures import escape

    if picture is None:
        from cgframework.game import parse_position
        from cgframework.plugins import resolve_ruleset

        try:
            rs = resolve_ruleset(solution.ruleset)
            picture = _picture_cell(rs, parse_position(rs, solution.position))
        except Exception:
            picture = ""
    value = solution.value
    facts: list[tuple[str, str]] = []
    if isinstance(value, CanonicalGame) and _long(value):
        from cgframework.values.summary import summarise

        value = summarise(value, max_length=300)
    if not isinstance(value, CanonicalGame) and hasattr(value, "facts"):  # a ValueSummary
        cell = f"<code>{escape(str(value))}</code>"
        facts = [(escape(k), escape(v)) for k, v in value.facts()]
    elif value is None and "value_unknown" in solution.extra:  # never an outcome letter
        cell = escape(f"unknown: {solution.extra['value_unknown']}")
    else:
        cell = escape(symbols(value))
    rows = [
        ("ruleset", escape(solution.ruleset)),
        ("position", f"<code>{escape(solution.position)}</code>"),
        ("value", cell),
        *facts,
        ("outcome", escape(solution.outcome.value if solution.outcome else "-")),
        ("best moves", escape(", ".join(solution.best_moves) or "(none)")),
        ("method", escape(solution.method)),
    ]
    if solution.grundy is not None:
        rows.insert(3, ("grundy", str(solution.grundy)))
    return facts_table(rows, picture, "cgf-solution")


def _long(value: CanonicalGame) -> bool:
    from cgframework.values.notation import text_length

    return text_length(value) > NOTEBOOK_LENGTH


def facts_table(rows: list[tuple[str, str]], picture: str = "", css: str = "cgf-facts") -> str:
    """An HTML table of ``(name, html)`` rows, with a picture to its left when given: how
    solutions and plugin values show in a notebook (``_repr_html_``)."""
    cells = "".join(
        f'<tr><th style="text-align:left">{k}</th><td style="text-align:left">{v}</td></tr>'
        for k, v in rows
    )
    figure = f'<td style="vertical-align:top">{picture}</td>' if picture else ""
    return f'<table class="{css}"><tr>{figure}<td><table>{cells}</table></td></tr></table>'


def value_html(text: str, facts: dict[str, Any]) -> str:
    """``_repr_html_`` for a plugin's own value type (scoring games, cheating-robot games):
    its text, elided when long, and a few facts."""
    from cgframework.display.pictures import escape
    from cgframework.values.notation import elide

    rows = [("value", f"<code>{escape(elide(text, 300))}</code>")]
    rows += [(escape(k), escape(str(v))) for k, v in facts.items()]
    return facts_table(rows, css="cgf-value")


def game_html(game: Any) -> str:
    """A game in a notebook: its picture and the solution's table (solved on first show)."""
    return solution_html(game.solve(), _picture_cell(game.ruleset, game.position))


def install_reprs() -> None:
    """Give the data objects their notebook methods: ``_repr_latex_`` and ``_repr_svg_`` to
    :class:`CanonicalGame`, ``_repr_svg_`` (its picture) to :class:`Thermograph`,
    ``_repr_html_`` to :class:`Solution` (names a class already
    defines are left alone). The data objects never import this display layer; the package
    ``cgframework`` calls this when it is imported."""
    for cls, name, method in (
        (CanonicalGame, "_repr_latex_", _value_latex),
        (CanonicalGame, "_repr_svg_", _value_svg),
        (Thermograph, "_repr_svg_", _value_svg),
        (Solution, "_repr_html_", solution_html),
    ):
        if not hasattr(cls, name):
            setattr(cls, name, method)
