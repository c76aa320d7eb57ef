"""Value universes for ``cgf calc``: each evaluates an expression text to a printable value.

The core provides ``normal`` (short partizan games in canonical form); plugins add theirs
(guaranteed scoring games, cheating-robot games) through ``register_universes``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from cgframework.game import dump_number, top_level_split

COMPARISONS = ("<=", ">=", "==", "!=", "||", "<", ">")


@attrs.frozen
class Universe:
    """``parse(text) -> value``; values support ``+``, ``-``, ``<=``/``>=`` and ``str``.
    ``describe(value)`` gives extra facts (stops, temperature...) for ``--json``."""

    name: str
    parse: Callable[[str], Any]
    describe: Callable[[Any], dict[str, Any]] = lambda value: {}
    compare: Callable[[Any, Any], str] | None = None
    """Returns one of ``<``, ``>``, ``=``, ``||``; default built from ``<=``."""
    description: str = ""

    def relation(self, a: Any, b: Any) -> str:
        if self.compare is not None:
            return self.compare(a, b)
        le, ge = a <= b, a >= b
        return "=" if le and ge else "<" if le else ">" if ge else "||"


def split_comparison(text: str) -> tuple[str, str | None, str | None]:
    """``"A >= B"`` -> ``("A", ">=", "B")``; ``"A"`` -> ``("A", None, None)``.

    Comparison operators must stand outside braces and be surrounded by spaces, so that
    ``{3||2|1}`` and ``<1|2>`` are never mistaken for them.
    """
    for op in COMPARISONS:
        pieces = top_level_split(text, f" {op} ")
        if len(pieces) == 2:
            return pieces[0].strip(), op, pieces[1].strip()
    return text.strip(), None, None


def holds(universe: Universe, a: Any, op: str, b: Any) -> bool:
    rel = universe.relation(a, b)
    return {
        "<=": rel in ("<", "="),
        ">=": rel in (">", "="),
        "==": rel == "=",
        "!=": rel != "=",
        "<": rel == "<",
        ">": rel == ">",
        "||": rel == "||",
    }[op]


def _normal_universe() -> Universe:
    from cgframework.values.functions import ValueList, value_facts
    from cgframework.values.parser import evaluate

    def describe(g: Any) -> dict[str, Any]:
        if isinstance(g, ValueList):
            return value_facts(g)
        return {
            "outcome": g.outcome().value,
            "left_stop": dump_number(g.left_stop()),
            "right_stop": dump_number(g.right_stop()),
            "mean": dump_number(g.mean()),
            "temperature": dump_number(g.temperature()),
            "birthday": g.birthday(),
            **value_facts(g),
        }

    return Universe(
        name="normal",
        parse=evaluate,
        describe=describe,
        compare=_compare_values,
        description="short partizan games under normal play, in canonical form (CGSuite notation)",
    )


def _compare_values(a: Any, b: Any) -> str:
    from cgframework.values.functions import ValueList

    if isinstance(a, ValueList) or isinstance(b, ValueList):
        raise ValueError("a list of values (such as incentives(G)) cannot be compared")
    return a.compare(b)


def _loopy_universe() -> Universe:
    def loopy() -> Any:  # imported on first use: not at every start of ``cgf``
        from cgframework.values import loopy

        return loopy

    return Universe(
        name="loopy",
        parse=lambda text: loopy().parse_loopy(text),
        describe=lambda g: loopy().describe(g),
        compare=lambda a, b: loopy().compare(a, b),
        description="loopy games and stoppers (on, off, over, under, upon, dud, pass, a:{..}, "
        "onside(G), offside(G), A & B)",
    )


def core_universes() -> list[Universe]:
    return [_normal_universe(), _loopy_universe()]
