"""cgframework: write a ruleset once, as a plugin, and get exact answers from it: optimal play
and scores, Grundy values, canonical values, sums. The names here are the public API plugins
and scripts import (``from cgframework import solve, Player, BaseRuleset``); the folders below
hold the core by concern, one layer above another (docs/architecture.md), and the plugin guide
(docs/writing-a-plugin.md) lists the modules a plugin may import besides these names.
"""

from typing import Any

from cgframework._moved import install as install_moved_paths
from cgframework.api import Game
from cgframework.display.notebook import install_reprs, show
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
from cgframework.plugins import (
    PluginError,
    RulesetError,
    UnknownRuleset,
    get_registry,
    load_plugin,
)
from cgframework.runtime.cache import TranspositionTable
from cgframework.runtime.version import VERSION
from cgframework.solution import Solution, Stats
from cgframework.solvers.common import exact_points, finish, finish_impartial
from cgframework.solvers.dispatch import SolverError, solve
from cgframework.universes import Universe

install_reprs()
install_moved_paths()

__version__ = VERSION


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
