"""cgframework: write a ruleset once, get exact answers from it.

This module is the public API plugins may import. See DESIGN.md and docs/.
"""

from typing import Any

from cgframework.api import Game
from cgframework.cache import TranspositionTable
from cgframework.extensions import (
    Family,
    Preserves,
    Simplification,
    SolveContext,
    SolverSpec,
    copies_family,
)
from cgframework.game import (
    BaseRuleset,
    Convention,
    Move,
    Outcome,
    Player,
    Position,
    Ruleset,
    Score,
    Sum,
    SwapLetters,
    as_score,
    canonical_key,
    components,
    format_position,
    options,
    parse_position,
    top_level_split,
)
from cgframework.hookspecs import hookimpl
from cgframework.io import (
    dump_number,
    from_json,
    load_number,
    register_value_kind,
    to_json,
)
from cgframework.notebook import install_reprs, show
from cgframework.plugins import (
    PluginError,
    RulesetError,
    UnknownRuleset,
    get_registry,
    load_plugin,
)
from cgframework.solution import Solution, Stats
from cgframework.solvers.common import exact_points, finish, finish_impartial
from cgframework.solvers.dispatch import SolverError, solve
from cgframework.universes import Universe

install_reprs()

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """``cgframework.converter`` (PEP 562): built, and cattrs imported, on first use."""
    if name == "converter":
        from cgframework.io import get_converter

        return get_converter()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__all__ = [
    "BaseRuleset",
    "Convention",
    "Family",
    "Game",
    "Move",
    "Outcome",
    "Player",
    "PluginError",
    "Position",
    "Preserves",
    "Ruleset",
    "RulesetError",
    "Score",
    "Simplification",
    "Solution",
    "SolveContext",
    "SolverError",
    "SolverSpec",
    "Stats",
    "Sum",
    "SwapLetters",
    "TranspositionTable",
    "Universe",
    "UnknownRuleset",
    "as_score",
    "canonical_key",
    "components",
    "converter",
    "copies_family",
    "dump_number",
    "exact_points",
    "finish",
    "finish_impartial",
    "format_position",
    "from_json",
    "get_registry",
    "hookimpl",
    "load_number",
    "load_plugin",
    "options",
    "parse_position",
    "register_value_kind",
    "show",
    "solve",
    "to_json",
    "top_level_split",
]
