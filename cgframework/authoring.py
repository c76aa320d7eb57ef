"""What a plugin author imports to write a ruleset: the Ruleset protocol and its base class,
the heap-game base (``HeapRuleset``: one method, ``heap_options``), moves and sums, the hook
marker, what plugins register (solvers, simplifications, families, heap engines, calc
universes), and the helpers a specialised solver finishes its answer with.

``help(cgframework)`` shows the user's API (``Game``, ``solve``, ``Player``, ``Solution``...);
these names are the other half of the public API, documented here and in the plugin guide
(docs/writing-a-plugin.md). Each is also importable from ``cgframework`` itself, so
``from cgframework import BaseRuleset, hookimpl`` keeps working.
"""

from cgframework.extensions import (
    Family,
    HeapEngine,
    KnownHeapRule,
    Preserves,
    Simplification,
    SolveContext,
    SolverSpec,
    Universe,
    copies_family,
)
from cgframework.game import (
    PICK_MORE,
    BaseRuleset,
    Move,
    Position,
    Ruleset,
    SwapLetters,
    as_score,
    canonical_key,
    components,
    pick_move,
    top_level_split,
)
from cgframework.heaps.rules import HeapRuleset, Heaps
from cgframework.hookspecs import hookimpl
from cgframework.io import register_value_kind
from cgframework.plugins import load_plugin
from cgframework.runtime.cache import TranspositionTable
from cgframework.solvers.common import (
    exact_points,
    finish,
    finish_by_option_values,
    finish_impartial,
)

__all__ = [
    "PICK_MORE",
    "BaseRuleset",
    "Family",
    "HeapEngine",
    "HeapRuleset",
    "Heaps",
    "KnownHeapRule",
    "Move",
    "Position",
    "Preserves",
    "Ruleset",
    "Simplification",
    "SolveContext",
    "SolverSpec",
    "SwapLetters",
    "TranspositionTable",
    "Universe",
    "as_score",
    "canonical_key",
    "components",
    "copies_family",
    "exact_points",
    "finish",
    "finish_by_option_values",
    "finish_impartial",
    "hookimpl",
    "load_plugin",
    "pick_move",
    "register_value_kind",
    "top_level_split",
]
