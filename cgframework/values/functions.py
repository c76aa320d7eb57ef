"""Named operations on values: the functions of ``cgf calc`` and the value object's methods.

``cgf calc`` expressions call them as ``name(arg, ...)`` (names are case-insensitive); the
calc parser (:mod:`cgframework.values.notation`) hands each call to :func:`call_function`.
``G : H`` is the ordinal sum. A list-valued function (``incentives``) may only stand alone:
:func:`evaluate` handles that case. :func:`install_methods` puts the same operations on
:class:`CanonicalGame` (``g.reduced()``, ``g.cool(t)``, ``g.atomic_weight()``, ...), without
touching the class body.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain
from typing import Any

import attrs

from cgframework.values.atomic import (
    EccentricError,
    atomic_weight,
    far_star,
    is_all_small,
    is_switch,
)
from cgframework.values.canonical import OPTION_LIST_LIMIT, CanonicalGame, number
from cgframework.values.ordinal import (
    incentives,
    left_incentives,
    norton,
    ordinal_sum,
    right_incentives,
    up_arrow_sum,
    up_nth,
)
from cgframework.values.reduced import reduced
from cgframework.values.temperature import cool, freeze, heat, overheat

#: Largest n accepted by ``upnth(n)`` / ``uparrows(n)`` in expressions (the forms grow fast).
MAX_UP_NTH = 32
#: Largest integer (in absolute value) that ``norton``/``overheat`` turn into that many copies.
MAX_COPIES = 256


class FunctionError(ValueError):
    """A bad function call in an expression: unknown name, wrong arity, bad argument."""


class ValueList(tuple):
    """A list of values (what ``incentives`` gives), printed ``[a, b]``."""

    def __str__(self) -> str:
        return "[" + ", ".join(str(x) for x in self) + "]"


@attrs.frozen
class Function:
    name: str
    arity: int
    call: Callable[..., Any]
    doc: str
    returns_list: bool = False


def _number_arg(name: str, g: CanonicalGame) -> CanonicalGame:
    if not g.is_number:
        raise FunctionError(f"{name}: the temperature must be a number, not {g}")
    return g


def _count_arg(name: str, g: CanonicalGame) -> int:
    if not g.is_integer or not 0 <= g.number_value <= MAX_UP_NTH:
        raise FunctionError(f"{name}: expected an integer from 0 to {MAX_UP_NTH}, not {g}")
    return int(g.number_value)


def _check_copies(name: str, g: CanonicalGame) -> None:
    """Refuse a G whose integer subpositions would become more than MAX_COPIES copies."""
    seen = {g.id}
    stack = [g]
    while stack:
        x = stack.pop()
        if x.is_integer and abs(x.number_value) > MAX_COPIES:
            raise FunctionError(f"{name}: {x} copies is above the limit of {MAX_COPIES}")
        for y in chain(x.left, x.right):
            if y.id not in seen:
                seen.add(y.id)
                stack.append(y)


def _overheat_call(g: CanonicalGame, s: CanonicalGame, t: CanonicalGame) -> CanonicalGame:
    _check_copies("overheat", g)
    return overheat(g, s, t)


def _norton_call(g: CanonicalGame, u: CanonicalGame) -> CanonicalGame:
    _check_copies("norton", g)
    try:
        return norton(g, u)
    except ValueError as exc:
        raise FunctionError(f"norton: {exc}") from None


def _aw(g: CanonicalGame) -> CanonicalGame:
    if not is_all_small(g):
        raise FunctionError(f"aw: {g} is not all-small (atomic weight needs an all-small game)")
    try:
        return atomic_weight(g)
    except EccentricError as exc:
        raise FunctionError(f"aw: {exc}") from None


def _upnth(n: CanonicalGame) -> CanonicalGame:
    k = _count_arg("upnth", n)
    if k == 0:
        raise FunctionError("upnth: n must be at least 1")
    return up_nth(k)


FUNCTIONS: dict[str, Function] = {
    f.name: f
    for f in [
        Function("rcf", 1, reduced, "reduced canonical form (Grossman & Siegel; CGT II.6)"),
        Function("cool", 2, lambda g, t: cool(g, _number_arg("cool", t)), "G cooled by t"),
        Function("heat", 2, heat, "Berlekamp's integral int^t G (WW ch. 6)"),
        Function("overheat", 3, _overheat_call, "overheating int_s^t G (WW ch. 6)"),
        Function("freeze", 1, freeze, "G cooled by its temperature"),
        Function("aw", 1, _aw, "atomic weight of an all-small game (WW ch. 8)"),
        Function("norton", 2, _norton_call, "Norton product G.U, U > 0 (CGT II.7)"),
        Function("ordinal", 2, ordinal_sum, "ordinal sum G : H"),
        Function("upnth", 1, _upnth, "up-nth ^^n: ^^1 = ^, ^^2 = {0|v*}"),
        Function(
            "uparrows",
            1,
            lambda n: up_arrow_sum(_count_arg("uparrows", n)),
            "^(->n) = ^^1 + ... + ^^n",
        ),
        Function("temperature", 1, lambda g: number(g.temperature()), "temperature"),
        Function("mean", 1, lambda g: number(g.mean()), "mean (mast value)"),
        Function(
            "incentives",
            1,
            lambda g: ValueList(incentives(g)),
            "undominated incentives G^L - G, G - G^R",
            returns_list=True,
        ),
        Function(
            "leftincentives",
            1,
            lambda g: ValueList(left_incentives(g)),
            "G^L - G for each Left option",
            returns_list=True,
        ),
        Function(
            "rightincentives",
            1,
            lambda g: ValueList(right_incentives(g)),
            "G - G^R for each Right option",
            returns_list=True,
        ),
    ]
}


def call_function(name: str, args: list[CanonicalGame], alone: bool = False) -> Any:
    """Apply the named function; ``alone``: the call is the whole expression (lists allowed)."""
    f = FUNCTIONS.get(name.lower())
    if f is None:
        known = ", ".join(sorted(FUNCTIONS))
        raise FunctionError(f"unknown function {name!r} (known: {known})")
    if len(args) != f.arity:
        plural = "s" if f.arity != 1 else ""
        raise FunctionError(f"{f.name} takes {f.arity} argument{plural}, not {len(args)}")
    if f.returns_list and not alone:
        raise FunctionError(f"{f.name}(...) is a list of values; it must stand alone")
    return f.call(*args)


def value_facts(g: Any, as_text: bool = True) -> dict[str, Any]:
    """The ``--json`` fields this module adds: reduced form, atomic weight, incentives (as
    texts; ``as_text=False``: as values, see :func:`solution_facts`)."""
    if isinstance(g, ValueList):
        return {"values": [str(x) for x in g]}
    facts = solution_facts(g, as_text)
    if len(g.left) + len(g.right) <= OPTION_LIST_LIMIT:  # *2^64 has 2^64 incentives
        facts["incentives"] = [str(x) if as_text else x for x in incentives(g)]
    return facts


def solution_facts(g: Any, as_text: bool = True) -> dict[str, Any]:
    """What ``cgf solve --json`` adds for a normal-play value: reduced, atomic weight (as
    texts; ``as_text=False``: as values, for a caller that streams their texts)."""
    if not isinstance(g, CanonicalGame):
        return {}
    text = str if as_text else (lambda x: x)
    facts: dict[str, Any] = {"reduced": text(reduced(g))}
    if is_all_small(g):
        try:
            facts["atomic_weight"] = text(atomic_weight(g))
        except EccentricError:
            facts["atomic_weight"] = "eccentric"
    return facts


def install_methods() -> None:
    """Attach the operations to :class:`CanonicalGame` as methods and properties. Names the
    class already defines are left alone."""
    methods: dict[str, Any] = {
        "reduced": reduced,
        "cool": cool,
        "heat": heat,
        "overheat": overheat,
        "freeze": freeze,
        "atomic_weight": atomic_weight,
        "ordinal_sum": ordinal_sum,
        "norton": norton,
        "incentives": incentives,
        "left_incentives": left_incentives,
        "right_incentives": right_incentives,
        "far_star": far_star,
        "is_all_small": property(is_all_small),
        "is_switch": property(is_switch),
        "left_options": property(lambda g: g.left),
        "right_options": property(lambda g: g.right),
    }
    for name, method in methods.items():
        if not hasattr(CanonicalGame, name):
            setattr(CanonicalGame, name, method)


__all__ = [
    "FUNCTIONS",
    "Function",
    "FunctionError",
    "ValueList",
    "call_function",
    "install_methods",
    "solution_facts",
    "value_facts",
]
