"""cgframework: write a ruleset once, as a plugin, and get exact answers from it: optimal play
and scores, Grundy values, canonical values, sums. The names here are the user's API
(``from cgframework import Game, solve, Player``): solve a position, look at its value, catch
the errors (``SolverError``, ``UnknownRuleset``, ``StoreError``, ``LimitExceeded``...). A plugin
author's names (``BaseRuleset``, ``hookimpl``, ``SolverSpec``...) live in
:mod:`cgframework.authoring` (importable from here too); the plugin guide
(docs/writing-a-plugin.md) lists the other modules a plugin may import. The folders below hold
the core by concern, one layer above another (docs/architecture.md).
"""

from typing import Any

from cgframework import variants
from cgframework._moved import install as install_moved_paths
from cgframework.api import Game, GameValue
from cgframework.authoring import *  # noqa: F403 (the plugin author's names, importable here too)
from cgframework.authoring import __all__ as AUTHORING_NAMES
from cgframework.display.notebook import install_reprs, show
from cgframework.game import (
    Convention,
    Outcome,
    Player,
    Score,
    Sum,
    format_position,
    options,
    parse_position,
)
from cgframework.io import dump_number, from_json, load_number, to_json
from cgframework.plugins import PluginError, RulesetError, UnknownRuleset, get_registry
from cgframework.runtime.budget import LimitExceeded, SearchStopped
from cgframework.runtime.version import VERSION
from cgframework.solution import Solution, Stats
from cgframework.solvers.dispatch import SolverError, solve
from cgframework.store.errors import StoreError
from cgframework.values.parser import ValueSyntaxError

install_reprs()
install_moved_paths()

__version__ = VERSION
converter: Any  # cattrs' converter for our types, built on first use (see __getattr__)


def __getattr__(name: str) -> Any:
    """``cgframework.converter`` (PEP 562): built, and cattrs imported, on first use."""
    if name == "converter":
        from cgframework.io import get_converter

        return get_converter()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__, *AUTHORING_NAMES})


__all__ = [
    "Convention",
    "Game",
    "GameValue",
    "LimitExceeded",
    "Outcome",
    "Player",
    "PluginError",
    "RulesetError",
    "Score",
    "SearchStopped",
    "Solution",
    "SolverError",
    "Stats",
    "StoreError",
    "Sum",
    "UnknownRuleset",
    "ValueSyntaxError",
    "converter",
    "dump_number",
    "format_position",
    "from_json",
    "get_registry",
    "load_number",
    "options",
    "parse_position",
    "show",
    "solve",
    "to_json",
    "variants",
]
"""The user's API (what ``help(cgframework)`` shows). The plugin author's names
(:mod:`cgframework.authoring`) are importable from here too."""
