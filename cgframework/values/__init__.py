"""Exact value algebras, independent of rulesets: short partizan games in canonical form
(interned, with cached operations), nimbers, thermographs, and the toolbox on them (reduced
forms, cooling and heating, atomic weight, ordinal sums, Norton products). A new algebra or
operation on values goes here, one module per idea.

The layers inside: :mod:`~cgframework.values.canonical` is the algebra; the operations
(``ordinal``, ``reduced``, ``temperature``, ``thermograph``, ``atomic``) stand on it;
:mod:`~cgframework.values.functions` names them for ``cgf calc``; the printer
(:mod:`~cgframework.values.notation`) and the parser (:mod:`~cgframework.values.parser`) stand
above the algebra and register the methods it needs from them (``str``, pickling, the
thermograph) in :mod:`~cgframework.values.hooks`. Loopy games are the subpackage
:mod:`cgframework.values.loopy`, loaded on first use.
"""

from cgframework.values.canonical import (
    DOWN,
    ONE,
    STAR,
    UP,
    ZERO,
    CanonicalGame,
    StarOptions,
    ValueTooLarge,
    cache_info,
    game,
    nimber,
    number,
    simplest_between,
    up,
    uptimal,
)
from cgframework.values.interned import Interned
from cgframework.values.nimbers import mex, nim_sum
from cgframework.values.notation import format_value
from cgframework.values.parser import ValueSyntaxError, parse_value
from cgframework.values.thermograph import Thermograph, Wall, thermograph

__all__ = [
    "DOWN",
    "ONE",
    "STAR",
    "UP",
    "ZERO",
    "CanonicalGame",
    "Interned",
    "Thermograph",
    "ValueSyntaxError",
    "Wall",
    "cache_info",
    "format_value",
    "game",
    "mex",
    "nim_sum",
    "nimber",
    "number",
    "parse_value",
    "simplest_between",
    "thermograph",
    "up",
    "uptimal",
    "StarOptions",
    "ValueTooLarge",
]

# The value toolbox: reduced forms, cooling and heating, atomic weight, ordinal
# sums and Norton products, also installed as methods (g.reduced(), g.cool(t), ...).
from cgframework.values.atomic import atomic_weight, is_all_small, is_switch  # noqa: E402
from cgframework.values.functions import install_methods as _install_methods  # noqa: E402
from cgframework.values.ordinal import incentives, norton, ordinal_sum, up_nth  # noqa: E402
from cgframework.values.reduced import reduced  # noqa: E402
from cgframework.values.temperature import cool, freeze, heat, overheat  # noqa: E402

_install_methods()
__all__ += [
    "atomic_weight",
    "cool",
    "freeze",
    "heat",
    "incentives",
    "is_all_small",
    "is_switch",
    "norton",
    "ordinal_sum",
    "overheat",
    "reduced",
    "up_nth",
]
