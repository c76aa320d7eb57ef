"""Choose a solver: a registered specialised one when it applies, else the generic one.

``method="auto"`` tries the specialised solvers registered for the ruleset (in registration
order), then, for an impartial heap ruleset, its rule's table (``heap-table``,
:mod:`cgframework.solvers.heap_table`), and falls back to the generic solver of the ruleset's
convention, with the registered simplifications on; ``method="generic"`` forces the plain
brute force (no simplifications), so every shortcut can be checked against it; any other name
forces that solver.
"""

from __future__ import annotations

import gc
import sys
import threading
import time
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING, Any

import attrs

from cgframework.extensions import Preserves, SolveContext, SolverSpec
from cgframework.game import (
    Convention,
    Outcome,
    Player,
    Position,
    Ruleset,
    Sum,
    format_position,
    options,
    parse_position,
)
from cgframework.plugins import Registry, get_registry, registry_for
from cgframework.runtime.budget import SearchBudget, SearchStopped
from cgframework.runtime.cache import PositionRepeats, TranspositionTable
from cgframework.runtime.deep import (
    DEEP_RECURSION_LIMIT,
    can_start_threads,
    can_try_here,
    hit_recursion_limit,
    on_deep_thread,
    start_deep,
)
from cgframework.solution import Solution
from cgframework.solvers.canonical import solve_canonical
from cgframework.solvers.common import SolverError
from cgframework.solvers.grundy import solve_grundy
from cgframework.solvers.heap_table import METHOD as HEAP_TABLE
from cgframework.solvers.heap_table import applies as heap_table_applies
from cgframework.solvers.heap_table import serves as heap_table_serves
from cgframework.solvers.heap_table import solve_heap_table
from cgframework.solvers.impartial_search import solve_impartial_outcome, solve_lemoine_viennot
from cgframework.solvers.minimax import solve_minimax
from cgframework.solvers.outcome import solve_outcome
from cgframework.solvers.outcome_search import METHOD as OUTCOME_METHOD
from cgframework.solvers.outcome_search import check_outcome_ruleset, solve_outcome_search
from cgframework.solvers.retrograde import solve_loopy_grundy, solve_retrograde
from cgframework.values import ZERO, CanonicalGame

if TYPE_CHECKING:
    from cgframework.store.database import ValueStore


def _solve_sides(ruleset: Ruleset, position: Position, ctx: SolveContext) -> Any:
    from cgframework.solvers.sides import solve_sides  # loopy values: loaded on first use

    return solve_sides(ruleset, position, ctx)


def solve_loopy_auto(ruleset: Ruleset, position: Position, ctx: SolveContext) -> Any:
    """``auto`` for partizan loopy rulesets: retrograde, or loopy-sides for a large sum."""
    from cgframework.solvers.sides import solve_auto

    return solve_auto(ruleset, position, ctx)


def _solve_retrograde(ruleset: Ruleset, position: Position, ctx: SolveContext) -> Any:
    """``retrograde``: who wins on the position graph, with the value: a partizan ruleset's
    under normal play from its sides (:func:`~cgframework.solvers.sides.loopy_value`)."""
    if ruleset.convention is Convention.NORMAL and not ruleset.impartial:
        from cgframework.solvers.sides import solve_retrograde_valued

        return solve_retrograde_valued(ruleset, position, ctx)
    return solve_retrograde(ruleset, position, ctx)


LOOPY_SOLVERS: dict[str, Callable[[Ruleset, Position, SolveContext], Any]] = {
    "loopy-grundy": solve_loopy_grundy,
    "retrograde": _solve_retrograde,
    "loopy-sides": _solve_sides,
}


def loopy_methods(ruleset: Ruleset) -> list[str]:
    """The generic solvers of a loopy ruleset, preferred first."""
    conv = ruleset.convention
    if conv is Convention.NORMAL and ruleset.impartial:
        return ["loopy-grundy", "retrograde"]
    if conv is Convention.NORMAL:
        return ["retrograde", "loopy-sides"]  # sides: no product graph (solvers/sides.py)
    if conv is Convention.MISERE:
        return ["retrograde"]
    return []


GENERIC_SOLVERS: dict[str, Callable[[Ruleset, Position, SolveContext], Solution]] = {
    "minimax": solve_minimax,
    "outcome": solve_outcome,
    "grundy": solve_grundy,
    "lemoine-viennot": solve_lemoine_viennot,
    "canonical": solve_canonical,
    **LOOPY_SOLVERS,
}


def generic_methods(ruleset: Ruleset) -> list[str]:
    """The core's generic solvers that apply to the ruleset's convention, preferred first."""
    conv = ruleset.convention
    if getattr(ruleset, "loopy", False):
        return loopy_methods(ruleset)
    if conv is Convention.SCORING:
        return ["minimax"]
    if conv is Convention.NORMAL:
        if ruleset.impartial:
            return ["grundy", "lemoine-viennot", "canonical", "outcome"]
        return ["canonical", "outcome"]
    if conv is Convention.MISERE:
        return ["outcome"]
    return []


def available_methods(ruleset: Ruleset, registry: Registry | None = None) -> list[str]:
    """Every method name ``solve`` accepts for this ruleset."""
    registry = registry or get_registry()
    names = ["auto", "generic", *generic_methods(ruleset)]
    names += [s.name for s in registry.solvers if s.serves(ruleset)]
    if heap_table_serves(ruleset):
        names.append(HEAP_TABLE)
    return list(dict.fromkeys(names))  # (a plugin may register a generic name for auto)


def _generic_spec(ruleset: Ruleset, registry: Registry) -> tuple[str, Callable[..., Solution]]:
    methods = generic_methods(ruleset)
    if methods:
        return methods[0], GENERIC_SOLVERS[methods[0]]
    for spec in registry.solvers:
        if spec.generic and spec.serves(ruleset):
            return spec.name, spec.solve
    raise SolverError(
        f"no solver is installed for ruleset {ruleset.name!r} "
        f"(convention {ruleset.convention.value})"
    )


def make_simplifier(
    ruleset: Ruleset, registry: Registry
) -> Callable[[Ruleset, Position], Position] | None:
    """Apply the registered rewrites: equivalence-preserving ones to every part, value-only
    ones to a position that is not a sum of several parts. The function's ``part``
    attribute is the same rewrite for a position known not to be a :class:`Sum` (a search
    calls it once per new position, without the test)."""
    mine = [s for s in registry.simplifications if ruleset.name in s.rulesets]
    if not mine:
        return None
    equivalence = [s.apply for s in mine if s.preserves == Preserves.EQUIVALENCE]
    value_only = [s.apply for s in mine if s.preserves == Preserves.VALUE]

    def rewrite(rules: list[Callable[..., Position]], rs: Ruleset, position: Position) -> Position:
        for rule in rules:
            position = rule(rs, position)
        return position

    whole = equivalence + value_only
    if len(whole) == 1:  # the common case: one rewrite, called directly on a part
        (only,) = whole

        def simplify_one(rs: Ruleset, position: Position) -> Position:
            if isinstance(position, Sum):
                if equivalence or len(position.parts) == 1:
                    return Sum(tuple(only(rs, p) for p in position.parts))
                return position
            return only(rs, position)

        simplify_one.part = only  # type: ignore[attr-defined]
        return simplify_one

    def part(rs: Ruleset, position: Position) -> Position:
        return rewrite(whole, rs, position)  # (the equivalence rewrites, then value-only ones)

    def simplify(rs: Ruleset, position: Position) -> Position:
        if isinstance(position, Sum):
            parts = tuple(rewrite(equivalence, rs, p) for p in position.parts)
            if len(parts) == 1:
                return Sum((rewrite(value_only, rs, parts[0]),))
            return Sum(parts)
        return part(rs, position)

    simplify.part = part  # type: ignore[attr-defined]
    return simplify


def choose(
    ruleset: Ruleset, position: Position, method: str, registry: Registry
) -> tuple[str, Callable[..., Solution], bool]:
    """(name, solve function, simplifications on?) for a method request."""
    if method == "generic" and "retrograde" in generic_methods(ruleset):  # loopy: brute force
        return "retrograde", GENERIC_SOLVERS["retrograde"], False
    if method == "generic":
        name, fn = _generic_spec(ruleset, registry)
        return name, fn, False
    if method in GENERIC_SOLVERS:
        if method not in generic_methods(ruleset):
            raise SolverError(
                f"method {method!r} does not apply to ruleset {ruleset.name!r} "
                f"(convention {ruleset.convention.value}"
                f"{', impartial' if ruleset.impartial else ''})"
            )
        return method, GENERIC_SOLVERS[method], False
    specs: list[SolverSpec] = [s for s in registry.solvers if s.serves(ruleset)]
    if method == "auto":
        for spec in specs:
            if spec.auto and not spec.generic and spec.applies(ruleset, position):
                return spec.name, spec.solve, False
        if "loopy-sides" in generic_methods(ruleset):  # a large sum: by its sides
            return "retrograde", solve_loopy_auto, True
        if heap_table_applies(ruleset, position):  # any heap rule: its table of values
            return HEAP_TABLE, solve_heap_table, False
        name, fn = _generic_spec(ruleset, registry)
        return name, fn, True
    for spec in specs:
        if spec.name == method:
            if not spec.applies(ruleset, position):
                raise SolverError(f"solver {method!r} does not apply to this position")
            return spec.name, spec.solve, False
    if method == HEAP_TABLE and heap_table_serves(ruleset):
        if not heap_table_applies(ruleset, position):
            raise SolverError(f"solver {method!r} does not apply to this position")
        return HEAP_TABLE, solve_heap_table, False
    from difflib import get_close_matches

    methods = available_methods(ruleset, registry)
    close = get_close_matches(method, methods, n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    raise SolverError(
        f"unknown method {method!r} for ruleset {ruleset.name!r} "
        f"({hint}choose from {', '.join(methods)})"
    )


def ruleset_argument(ruleset: Any, name: str = "ruleset") -> Ruleset | str:
    """``ruleset`` if it is a ruleset name or a ruleset object; else a :class:`TypeError`
    naming the argument (a mistyped call fails at the door, not deep in a solver)."""
    if isinstance(ruleset, str):
        if not ruleset.strip():
            raise ValueError(f"{name} must name a ruleset, not {ruleset!r}")
        return ruleset
    if isinstance(getattr(ruleset, "name", None), str) and callable(
        getattr(ruleset, "options", None)
    ):
        return ruleset
    raise TypeError(
        f"{name} must be a ruleset name (str) or a Ruleset, not {type(ruleset).__name__}"
    )


def position_argument(position: Any, name: str = "position") -> Any:
    """``position`` unless it is plainly not one (``None``, bytes): a :class:`TypeError`."""
    if position is None or isinstance(position, bytes | bytearray):
        raise TypeError(
            f"{name} must be a position or its text (str), not {type(position).__name__}"
        )
    return position


def position_of(ruleset: Ruleset, position: Any) -> Position:
    """The position a text names (parsed), or ``position`` itself if the ruleset can write
    it: anything else (``solve("nim", 3)``: an int is no nim position) is a
    :class:`TypeError` naming the argument, not a failure deep in a solver."""
    if isinstance(position, str):
        return parse_position(ruleset, position)
    try:
        format_position(ruleset, position)
    except Exception as exc:  # a ruleset's format may raise anything on a foreign object
        raise TypeError(
            f"position must be a {ruleset.name} position or its text (str), not "
            f"{type(position).__name__} {position!r:.60}: {type(exc).__name__}"
        ) from None
    return position


def player_argument(player: Any, name: str = "first") -> Player:
    """A :class:`Player` from ``Player.LEFT``/``Player.RIGHT`` or ``'L'``/``'R'``; anything
    else is a :class:`TypeError` (not a player or a string) or a :class:`ValueError`."""
    if isinstance(player, Player):
        return player
    if isinstance(player, str) and player in ("L", "R"):
        return Player(player)
    message = f"{name} must be 'L', 'R', Player.LEFT or Player.RIGHT, not {player!r}"
    raise (ValueError if isinstance(player, str) else TypeError)(message[:200])


def method_argument(method: Any) -> str:
    """``method`` if it is a string (which names are known is the ruleset's business:
    :func:`choose` refuses an unknown one with the list); else a :class:`TypeError`."""
    if not isinstance(method, str):
        raise TypeError(f"method must be a method name (str), not {type(method).__name__}")
    return method


def limit_argument(value: Any, name: str, kind: type | tuple[type, ...]) -> Any:
    """``None`` or a non-negative number of ``kind`` (never a bool); else a :class:`TypeError`
    or :class:`ValueError` naming the argument."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, kind):
        raise TypeError(f"{name} must be a number or None, not {type(value).__name__}")
    if not value >= 0:  # (also NaN)
        raise ValueError(f"{name} must be >= 0, not {value!r}")
    return value


def _check_solve_arguments(
    ruleset: Any,
    position: Any,
    method: Any,
    first: Any,
    table: Any,
    registry: Any,
    store: Any,
    max_nodes: Any,
    timeout: Any,
    misere: Any = False,
) -> Player:
    """Refuse arguments of :func:`solve` of the wrong type or range, naming the argument;
    return ``first`` as a :class:`Player`."""
    ruleset_argument(ruleset)
    position_argument(position)
    method_argument(method)
    if table is not None and not isinstance(table, TranspositionTable):
        raise TypeError(f"table must be a TranspositionTable or None, not {type(table).__name__}")
    if registry is not None and not isinstance(registry, Registry):
        raise TypeError(f"registry must be a Registry or None, not {type(registry).__name__}")
    if store is not None and not (callable(getattr(store, "get", None)) and hasattr(store, "put")):
        raise TypeError(f"store must be a ValueStore or None, not {type(store).__name__}")
    limit_argument(max_nodes, "max_nodes", int)
    limit_argument(timeout, "timeout", int | float | Fraction)
    if not isinstance(misere, bool):
        raise TypeError(f"misere must be True or False, not {misere!r:.60}")
    return player_argument(first)


def solve(
    ruleset: Ruleset | str,
    position: Position | str,
    *,
    method: str = "auto",
    first: Player | str = Player.LEFT,
    table: TranspositionTable | None = None,
    registry: Registry | None = None,
    store: ValueStore | None = None,
    max_nodes: int | None = None,
    timeout: float | None = None,
    misere: bool = False,
    outcome_only: bool = False,
    winning_moves: bool = True,
) -> Solution:
    """Solve a position (or its text) with the chosen method; see the module docstring.

    With a ``store``, a solution already stored for the position (up to its canonical key)
    is returned without search when ``method`` is ``auto``, and new solutions are stored.
    ``max_nodes`` (positions expanded) and ``timeout`` (seconds) limit the search: hitting
    one raises :class:`~cgframework.runtime.budget.SearchStopped` and stores no solution.
    ``first`` is ``Player.LEFT``/``Player.RIGHT`` or ``'L'``/``'R'``. Arguments of the wrong
    type or range raise :class:`TypeError` or :class:`ValueError` naming the argument.
    ``misere=True`` plays a normal-play ruleset under the misère convention (who cannot move
    wins): its own brute-force search (:func:`solve_misere_play`), so ``method`` must be
    ``auto`` or ``generic`` and no ``store`` is used.
    ``outcome_only=True`` answers only who wins (:mod:`cgframework.solvers.outcome_search`;
    with ``misere=True`` a misère search that stops at the first winning move):
    ``value`` is ``None``, ``extra`` holds ``left_first`` and ``right_first`` (the winner when
    Left, or Right, moves first); ``method`` must be ``auto`` (or ``outcome-search``); a
    ``store`` lends and keeps the values of components, the answer itself is not stored.
    ``winning_moves=False`` (with ``outcome_only``) leaves out the first player's winning
    moves (``best_moves`` empty, ``extra["winning_moves"]`` False): each needs a proof of its
    own, often more work than who wins.
    """
    first = _check_solve_arguments(
        ruleset, position, method, first, table, registry, store, max_nodes, timeout, misere
    )
    if not isinstance(outcome_only, bool):
        raise TypeError(f"outcome_only must be True or False, not {outcome_only!r:.60}")
    if not isinstance(winning_moves, bool):
        raise TypeError(f"winning_moves must be True or False, not {winning_moves!r:.60}")
    if not winning_moves and not outcome_only:
        raise ValueError("winning_moves=False is for the outcome search: add outcome_only=True")
    if outcome_only and not misere:
        if method not in ("auto", OUTCOME_METHOD):
            raise SolverError(f"the outcome search is its own method, not {method!r}")
        if _is_loopy(ruleset, registry):
            return _loopy_outcome_only(ruleset, position, first, max_nodes, timeout, winning_moves)
        return _solve_outcome_only(
            ruleset,
            position,
            first,
            table,
            registry,
            store,
            SearchBudget.of(max_nodes, timeout),
            winning_moves,
        )
    if misere:
        if method not in MISERE_METHODS:
            raise SolverError(f"misère play uses its own brute-force search, not {method!r}")
        if store is not None or table is not None:
            raise SolverError("misère play uses neither a value store nor a shared table")
        return solve_misere_play(
            ruleset,
            position,
            first=first,
            max_nodes=max_nodes,
            timeout=timeout,
            outcome_only=outcome_only,
            winning_moves=winning_moves,
        )
    if registry is None:  # a named solver may come from any plugin: load them all then
        lazy = method in ("auto", "generic") and store is None
        registry = registry_for(ruleset) if lazy else get_registry()
    budget = SearchBudget.of(max_nodes, timeout)
    if isinstance(ruleset, str):
        ruleset = registry.ruleset(ruleset)
    position = position_of(ruleset, position)
    if store is None:
        return _search(ruleset, position, method, first, table, registry, budget)
    from cgframework.store.database import StoreBacking, position_key  # sqlite3: only with a store

    key = position_key(ruleset, position, first)
    found = store.get(ruleset, key) if method == "auto" else None
    if found is not None:
        stored_text, solution = found
        text = format_position(ruleset, position)
        moves: list[str] | None = list(solution.best_moves)
        if stored_text != text:  # an equivalent position: its moves are not ours
            moves = _best_moves_from_children(ruleset, position, solution, registry, store)
        if moves is not None:
            solution = attrs.evolve(solution, position=text, best_moves=tuple(moves))
            return attrs.evolve(solution, extra={**solution.extra, "from_store": True})
    if table is None and method == "auto":  # forced methods stay pure brute force
        table = TranspositionTable(backing=StoreBacking(store, ruleset))
    try:
        solution = _search(ruleset, position, method, first, table, registry, budget)
    finally:  # values of finished sub-positions are kept, even when the search stopped
        if table is not None and isinstance(table.backing, StoreBacking):
            table.backing.flush()
    if not _answers_another_question(ruleset, method, registry):
        store.put(ruleset, key, solution)
    return solution


def _is_loopy(ruleset: Ruleset | str, registry: Registry | None) -> bool:
    if isinstance(ruleset, str):
        ruleset = (registry or registry_for(ruleset)).ruleset(ruleset)
    return bool(getattr(ruleset, "loopy", False))


def _loopy_outcome_only(
    ruleset: Ruleset | str,
    position: Position | str,
    first: Player,
    max_nodes: int | None,
    timeout: float | None,
    winning_moves: bool,
) -> Solution:
    """:func:`solve` with ``outcome_only`` on a loopy ruleset: who wins by the retrograde
    analysis alone (:func:`solve_loopy_outcome`; positions may repeat, so the outcome search
    does not apply), with no value, as the outcome search answers."""
    solution = solve_loopy_outcome(
        ruleset, position, first=first, max_nodes=max_nodes, timeout=timeout
    )
    extra = {key: v for key, v in solution.extra.items() if key != "value_unknown"}
    if not winning_moves:
        extra["winning_moves"] = False
    return attrs.evolve(
        solution,
        value=None,
        best_moves=solution.best_moves if winning_moves else (),
        extra=extra,
    )


def _solve_outcome_only(
    ruleset: Ruleset | str,
    position: Position | str,
    first: Player,
    table: TranspositionTable | None,
    registry: Registry | None,
    store: ValueStore | None,
    budget: SearchBudget | None,
    winning_moves: bool = True,
) -> Solution:
    """:func:`solve` with ``outcome_only``: the outcome search, a store behind its table."""
    registry = registry or (registry_for(ruleset) if store is None else get_registry())
    if isinstance(ruleset, str):
        ruleset = registry.ruleset(ruleset)
    check_outcome_ruleset(ruleset)
    position = position_of(ruleset, position)
    if store is None:
        return _search(
            ruleset, position, OUTCOME_METHOD, first, table, registry, budget, winning_moves
        )
    from cgframework.store.database import StoreBacking

    if table is None:
        table = TranspositionTable(backing=StoreBacking(store, ruleset))
    try:
        return _search(
            ruleset, position, OUTCOME_METHOD, first, table, registry, budget, winning_moves
        )
    finally:  # component values found are kept, even when the search stopped
        if isinstance(table.backing, StoreBacking):
            table.backing.flush()


MISERE_METHODS = ("auto", "generic")
"""The methods misère play takes: both name its own brute-force search (registered solvers
and simplifications are normal-play facts)."""


def solve_loopy_outcome(
    ruleset: Ruleset | str,
    position: Position | str,
    *,
    first: Player = Player.LEFT,
    max_nodes: int | None = None,
    timeout: float | None = None,
) -> Solution:
    """Who wins a position of a loopy ruleset with each player first, by the retrograde
    analysis alone: a partizan value's sides may take far longer (the explorer asks this
    first). ``value`` is the generalized Sprague-Grundy value of an impartial ruleset, else
    none; ``max_nodes`` and ``timeout`` limit it as in :func:`solve`."""
    from cgframework.plugins import resolve_ruleset

    ruleset = resolve_ruleset(ruleset)
    if not getattr(ruleset, "loopy", False):
        raise SolverError(f"{ruleset.name!r} is not loopy: solve it with solve()")
    position = position_of(ruleset, position)
    budget = SearchBudget.of(max_nodes, timeout)
    ctx = SolveContext(first=first, budget=budget)
    ctx.table.budget = budget
    return run_deep(solve_retrograde, ruleset, position, ctx, budget=budget)


def solve_misere_play(
    ruleset: Ruleset | str,
    position: Position | str,
    *,
    first: Player = Player.LEFT,
    genus: bool = True,
    max_nodes: int | None = None,
    timeout: float | None = None,
    outcome_only: bool = False,
    winning_moves: bool = True,
) -> Solution:
    """Solve a position of a normal-play ruleset (or its text) in misère play
    (:mod:`cgframework.solvers.misere`; a loopy ruleset by retrograde analysis, with draws);
    ``genus=False`` skips the genus symbol of impartial games (Winning Ways ch. 13);
    ``outcome_only=True`` answers only who wins (and, unless ``winning_moves`` is false, the
    winning moves) by a search that stops at the first winning move, with the outcome
    search's keys (``value`` None, ``left_first``, ``right_first``); ``max_nodes`` and
    ``timeout`` limit the search as in :func:`solve`, the genus's work included."""
    from cgframework.plugins import resolve_ruleset
    from cgframework.solvers.misere import solve_misere, solve_misere_outcome

    ruleset = resolve_ruleset(ruleset)
    if ruleset.convention is not Convention.NORMAL:
        raise SolverError(
            f"misère play needs a normal-play ruleset; {ruleset.name!r} is "
            f"{ruleset.convention.value}"
        )
    position = position_of(ruleset, position)
    budget = SearchBudget.of(max_nodes, timeout)
    ctx = SolveContext(first=first, budget=budget, winning_moves=winning_moves)
    ctx.table.budget = budget
    start = time.perf_counter()
    if getattr(ruleset, "loopy", False):  # positions repeat: retrograde analysis, with draws
        # (on the deep thread like the other searches, so the deadline stops it)
        solution = run_deep(solve_retrograde, ruleset, position, ctx, True, budget=budget)
        solution = attrs.evolve(solution, convention=Convention.MISERE)
        if outcome_only:  # (who wins is all the retrograde analysis gives anyway)
            solution = attrs.evolve(solution, value=None)
    elif outcome_only:
        solution = run_deep(solve_misere_outcome, ruleset, position, ctx, budget=budget)
    else:
        solution = run_deep(solve_misere, ruleset, position, ctx, genus, budget=budget)
    seconds = time.perf_counter() - start
    return attrs.evolve(solution, stats=attrs.evolve(solution.stats, seconds=seconds))


def _answers_another_question(ruleset: Ruleset, method: str, registry: Registry) -> bool:
    """A solver kept out of ``auto`` (e.g. a position's value in another universe), or a
    generic one that is not the ruleset's first (``outcome`` for a game with a value), gives
    answers that must not be stored where ``auto`` would read them back."""
    if method in GENERIC_SOLVERS:
        return method not in generic_methods(ruleset)[:1]
    return any(s.name == method and not s.auto for s in registry.solvers if s.serves(ruleset))


def _best_moves_from_children(
    ruleset: Ruleset,
    position: Position,
    solution: Solution,
    registry: Registry,
    store: ValueStore,
) -> list[str] | None:
    """The first player's optimal moves, from the (stored or solved) values of the options;
    ``None`` when the values do not tell (then the position is searched)."""
    player = solution.first
    best = []
    for move in options(ruleset, position, player):
        child = solve(ruleset, move.result, first=player.opponent, registry=registry, store=store)
        if ruleset.convention is Convention.SCORING:
            if not isinstance(child.value, int | Fraction):
                return None  # a value of another algebra (e.g. a scoring game form)
            good = move.points - child.value == solution.value
        elif child.grundy is not None:
            good = child.grundy == 0
        elif isinstance(child.value, CanonicalGame):
            good = child.value >= ZERO if player is Player.LEFT else child.value <= ZERO
        elif child.outcome is not None:
            good = child.outcome in (Outcome.P, Outcome(player.value))
        else:
            return None  # a convention this core does not know: search rather than guess
        if good:
            best.append(move.text)
    return best


def _search(
    ruleset: Ruleset,
    position: Position,
    method: str,
    first: Player,
    table: TranspositionTable | None,
    registry: Registry,
    budget: SearchBudget | None = None,
    winning_moves: bool = True,
) -> Solution:
    table = table if table is not None else TranspositionTable()
    if budget is not None:
        table.budget = budget
    start = time.perf_counter()

    def chosen_and_run() -> tuple[str, bool, Solution]:
        # on the deep thread: a solver's ``applies`` may recurse on the position too
        if method == OUTCOME_METHOD:  # impartial: one Lemoine-Viennot P-test, no nimber
            fn = solve_impartial_outcome if ruleset.impartial else solve_outcome_search
            name, simplify_on = OUTCOME_METHOD, True
            theorem = ruleset.impartial and _impartial_outcome_by_theorem(
                ruleset, position, registry
            )
            if theorem:  # a theorem answers at once (nim-sum, periodic-octal...), as in auto
                fn, simplify_on = theorem, False
        else:
            name, fn, simplify_on = choose(ruleset, position, method, registry)
        ctx = SolveContext(
            first=first,
            table=table,
            simplify=make_simplifier(ruleset, registry) if simplify_on else None,
            method=method,
            budget=table.budget,
            winning_moves=winning_moves,
        )
        return name, ctx.simplify is not None, fn(ruleset, position, ctx)

    try:
        name, simplified, solution = run_deep(chosen_and_run, budget=table.budget)
    except PositionRepeats:
        if getattr(ruleset, "loopy", False):
            raise SolverError(
                f"method {method!r} searches recursively and cannot solve the loopy ruleset "
                f"{ruleset.name!r} (a position repeats): use --method "
                f"{' or '.join(loopy_methods(ruleset))}"
            ) from None
        raise SolverError(
            f"position repeats: a position of ruleset {ruleset.name!r} is its own descendant; "
            "declare the ruleset loopy (loopy = True) to solve it with draws"
        ) from None
    except SearchStopped:
        raise
    except Exception as exc:
        if not hit_recursion_limit(exc):
            raise
        raise _too_deep(ruleset, method, registry) from None
    finally:
        if budget is not None:
            table.budget = None  # a table the caller reuses is not limited afterwards
    seconds = time.perf_counter() - start
    label = solution.method or name
    if simplified and "+simplify" not in label:
        label += "+simplify"
    return attrs.evolve(solution, method=label, stats=attrs.evolve(solution.stats, seconds=seconds))


def _impartial_outcome_by_theorem(
    ruleset: Ruleset, position: Position, registry: Registry
) -> Callable[[Ruleset, Position, SolveContext], Solution] | None:
    """For ``--outcome`` on an impartial ruleset: the registered solver ``auto`` would pick
    (a closed form such as nim-sum or periodic-octal), giving P or N by its nimber, when one
    applies and is proven; ``None`` leaves the P-test, which expands the position (a heap of
    10^30 never ends). The Lemoine-Viennot solver itself is left to the P-test, cheaper."""
    for spec in registry.solvers:
        if spec.serves(ruleset) and spec.auto and not spec.generic:
            if spec.applies(ruleset, position):
                if spec.name == "lemoine-viennot" or not spec.proven:
                    return None
                return partial(_outcome_of_nimber, spec.solve)
    if heap_table_applies(ruleset, position):
        return partial(_outcome_of_nimber, solve_heap_table)
    return None


def _outcome_of_nimber(
    solver: Callable[..., Solution], ruleset: Ruleset, position: Position, ctx: SolveContext
) -> Solution:
    """A registered impartial solver's answer in the outcome search's keys (no value)."""
    solution = solver(ruleset, position, ctx)
    wins = solution.outcome is Outcome.N
    extra = {**solution.extra, "left_first": "L" if wins else "R"}
    extra["right_first"] = "R" if wins else "L"
    return attrs.evolve(solution, value=None, grundy=None, extra=extra)


class SearchTooDeep(SearchStopped):
    """A search recursed deeper than the deep thread allows (``DEEP_RECURSION_LIMIT`` frames):
    a limit, reported like a budget (``cgf`` exit 3), not a crash. A recursive method on a
    long chain of positions (a heap of 59999 with ``--method guaranteed``) ends here."""


def _too_deep(ruleset: Ruleset, method: str, registry: Registry) -> SearchTooDeep:
    others = [m for m in available_methods(ruleset, registry) if m not in ("generic", method)]
    frames = DEEP_RECURSION_LIMIT if can_start_threads() else sys.getrecursionlimit()
    return SearchTooDeep(
        f"method {method!r} recursed deeper than {frames} frames on this "
        f"{ruleset.name} position (limit): try a smaller position or another method "
        f"({', '.join(others)})"
    )


SEARCH_GC_THRESHOLD = (10_000, 50, 50)
"""The cyclic garbage collector's thresholds while a search runs (Python's default is
(700, 10, 10)). Searches allocate many small objects that live on in their caches, and with
the default every 700 of them start a collection: 10% of a Domineering 4x6 solve, 15% of a
4x5 one. Cycles are still collected, less often."""
_gc_lock = threading.Lock()
_gc_state: dict[str, Any] = {"searches": 0, "saved": None}


def _search_gc(entering: bool) -> None:
    """Raise the collector's thresholds while at least one search runs; restore them after."""
    with _gc_lock:
        if entering:
            if _gc_state["searches"] == 0:
                saved = _gc_state["saved"] = gc.get_threshold()
                if saved[0]:  # 0 turns automatic collection off: leave it so
                    raised = zip(SEARCH_GC_THRESHOLD, saved, strict=True)
                    gc.set_threshold(*(max(a, b) for a, b in raised))
            _gc_state["searches"] += 1
        else:
            _gc_state["searches"] -= 1
            if _gc_state["searches"] == 0:
                gc.set_threshold(*_gc_state["saved"])


def run_deep(fn: Callable[..., Any], *args: Any, budget: SearchBudget | None = None) -> Any:
    """Run a recursive search on a thread with a large stack (:mod:`cgframework.runtime.deep`;
    first on the calling thread when no ``budget`` limits it, as
    :func:`~cgframework.runtime.deep.call_deep`), with the collector's thresholds raised
    (``SEARCH_GC_THRESHOLD``). A ``budget`` deadline is enforced even on a solver that never
    charges the table (:meth:`~cgframework.runtime.deep.DeepCall.interrupt`). Without threads
    (:data:`~cgframework.runtime.deep.THREADS`) it runs here, stopped by the budget's own
    checks only."""
    if on_deep_thread():
        return fn(*args)
    _search_gc(True)
    try:
        if not can_start_threads():
            return fn(*args)
        if budget is None and can_try_here():  # first on this thread (see call_deep)
            try:
                return fn(*args)
            except Exception as exc:
                if not hit_recursion_limit(exc):
                    raise
        call = start_deep(fn, *args)
        remaining = None if budget is None else budget.remaining()
        interrupted = False
        if remaining is not None:
            # at most threading's longest wait: a deadline centuries away (--timeout 1e308)
            call.thread.join(min(max(remaining, 0.0) + DEADLINE_GRACE, threading.TIMEOUT_MAX))
            if call.thread.is_alive():
                interrupted = True
                # an exception raised asynchronously can be lost (Python ignores one raised in
                # a gc callback, such as dask's) while the search runs on: raise it again
                for _ in range(STOP_ATTEMPTS):
                    call.interrupt(_DeadlinePassed)
                    call.thread.join(STOP_RETRY_SECONDS)
                    if not call.thread.is_alive():
                        break
                else:  # never stopped: leave the (daemon) thread, report the deadline
                    raise budget.timed_out()
        try:
            result = call.wait()
        except _DeadlinePassed:
            raise budget.timed_out() from None
        if interrupted:  # the interruption was lost (Python ignores an exception raised in a
            raise budget.timed_out()  # gc callback), yet the deadline had passed: exit 3
        return result
    finally:
        _search_gc(False)


DEADLINE_GRACE = 1.0
"""Seconds past a deadline after which a search that has not stopped by itself (a solver
that does not charge the table) is interrupted."""
STOP_ATTEMPTS = 40
STOP_RETRY_SECONDS = 0.25
"""An interrupted search gets ``STOP_ATTEMPTS`` interruptions, this many seconds apart."""


class _DeadlinePassed(SearchStopped):
    """Raised asynchronously in a search thread that ran past its deadline."""
