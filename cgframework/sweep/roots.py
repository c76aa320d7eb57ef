"""The outcome search with its root split across workers: ``cgf solve --outcome --jobs N``
(a local process pool) or ``--executor dask://HOST:PORT`` / ``tls://HOST:PORT`` (a cluster,
under the sweep's trust rules: :func:`~cgframework.sweep.executors.check_cluster_trust`).

The questions are those of the serial search (:func:`~cgframework.solvers.outcome_search.
solve_outcome_search`): does Left win moving first, does Right, and which first moves of
``first`` win. Each first move ``m`` of a player ``p`` is one task, "does the opponent, to move
after ``m``, win?" (``m`` wins iff not). With fewer first moves than workers, each becomes one
task per reply ``r`` of the opponent instead, "does ``p``, to move after ``m`` and ``r``,
win?" (the opponent wins after ``m`` iff some reply leaves ``p`` losing). Every first move of
``first`` is settled (its winning moves are all wanted, as in the serial search); the other
player's question stops as soon as one winning first move is proven, and a move's replies as
soon as one refutes it: tasks not needed any more are cancelled, and a process pool's workers
still running them are killed. Workers share what they prove through the value store
(``--store``): the components' values, read by every worker's table.

Each task reports its CPU seconds and its worker; the solution's ``parallel`` field sums them
per worker, with the process pool's whole CPU (killed work included, from ``getrusage``) and
the wall time of the run, which on a shared machine is not a measure of the work.
"""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED
from concurrent.futures import wait as wait_local
from typing import Any

import attrs

from cgframework import plugins
from cgframework.extensions import SolveContext
from cgframework.game import Outcome, Player, Position, Ruleset, format_position, options
from cgframework.runtime.budget import SearchBudget
from cgframework.runtime.cache import TranspositionTable
from cgframework.solution import Solution, Stats
from cgframework.solvers.dispatch import make_simplifier, position_of, run_deep
from cgframework.solvers.outcome_search import METHOD, OutcomeSearch, check_outcome_ruleset
from cgframework.store.database import StoreBacking, ValueStore
from cgframework.sweep.executors import (
    SweepError,
    TlsFiles,
    _executor,
    check_cluster_trust,
    check_executor,
    load_worker_plugins,
    stop_pool,
)

_searches: dict[tuple[str, str | None], tuple[OutcomeSearch, TranspositionTable]] = {}
"""A worker's searches, by ruleset and store: its tasks share their tables."""


def wins_task(
    ruleset_name: str,
    position_text: str,
    player: str,
    extra_plugins: list[str],
    store_path: str | None = None,
    max_nodes: int | None = None,
    timeout: float | None = None,
) -> tuple[bool, float, int, int]:
    """In a worker: does ``player``, to move in the position, win? (answer, CPU seconds,
    worker's process id, positions expanded). With ``store_path`` the worker's table reads
    and writes component values through that store, flushed after each task."""
    started = time.process_time()
    load_worker_plugins(extra_plugins)
    registry = plugins.get_registry()
    ruleset = registry.ruleset(ruleset_name)
    key = (ruleset.name, store_path)
    if key not in _searches:
        backing = None
        if store_path is not None:
            backing = StoreBacking(ValueStore(store_path), ruleset)
        table = TranspositionTable(backing=backing)
        ctx = SolveContext(table=table, simplify=make_simplifier(ruleset, registry), method=METHOD)
        _searches[key] = (OutcomeSearch(ruleset, ctx), table)
    search, table = _searches[key]
    position = position_of(ruleset, position_text)
    budget = SearchBudget.of(max_nodes, timeout)
    before = table.nodes
    table.budget = None if budget is None else budget.start()
    try:
        won = run_deep(search.wins, position, Player(player), budget=table.budget)
    finally:
        table.budget = None
        if isinstance(table.backing, StoreBacking):
            table.backing.flush()
    return won, time.process_time() - started, os.getpid(), table.nodes - before


@attrs.define
class _Move:
    """One first move of ``player``: does the opponent win after it (``None``: not yet)?"""

    player: Player
    text: str
    opponent_wins: bool | None = None
    pending: set[Any] = attrs.field(factory=set)


def solve_outcome_parallel(
    ruleset: Ruleset,
    position: Position | str,
    first: Player = Player.LEFT,
    *,
    jobs: int = 2,
    executor: str = "processes",
    store_path: str | None = None,
    tls: TlsFiles | None = None,
    insecure: bool = False,
    max_nodes: int | None = None,
    timeout: float | None = None,
) -> Solution:
    """:func:`~cgframework.solvers.dispatch.solve` ``(..., outcome_only=True)`` with the root
    split across ``jobs`` workers (see the module docstring): the same outcome,
    ``left_first``, ``right_first`` and best moves. ``jobs`` decides the split; a process
    pool has at most as many processes as CPUs (and tasks), as ``cgf sweep``'s. ``max_nodes``
    and ``timeout`` limit each task; ``timeout`` also the whole run (exit 3 past it)."""
    if jobs < 1:
        raise SweepError(f"--jobs must be at least 1, got {jobs}")
    check_outcome_ruleset(ruleset)
    address = check_executor(executor)
    if address == "local":
        raise SweepError("a parallel outcome search needs processes or a Dask cluster")
    check_cluster_trust(address, tls, insecure)
    position = position_of(ruleset, position)
    players = [first] if ruleset.impartial else [first, first.opponent]
    roots = {p: list(options(ruleset, position, p)) for p in players}
    two_plies = sum(len(moves) for moves in roots.values()) < jobs
    deadline = None if timeout is None else time.monotonic() + timeout
    wall = time.monotonic()
    children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    parent_before = time.process_time()
    moves: dict[Player, list[_Move]] = {p: [] for p in players}
    plan: list[tuple[str, Player, _Move]] = []  # (position, player to move, first move)
    for p in players:
        for m in roots[p]:
            move = _Move(p, m.text)
            moves[p].append(move)
            if not two_plies:
                plan.append((format_position(ruleset, m.result), p.opponent, move))
                continue
            replies = list(options(ruleset, m.result, p.opponent))
            if not replies:
                move.opponent_wins = False  # the opponent cannot move: loses
            plan.extend((format_position(ruleset, r.result), p, move) for r in replies)
    workers = jobs
    if address == "processes":  # as cgf sweep: no more processes than CPUs, or than tasks
        workers = min(jobs, os.cpu_count() or 1, max(1, len(plan)))
    pool, shutdown = _executor(address, workers, tls)
    extra = list(plugins._extra_modules)
    owner: dict[Any, _Move] = {}
    per_worker: dict[str, float] = {}
    nodes = cancelled = 0
    tasks = len(plan)

    try:
        for text, player, move in plan:
            future = pool.submit(
                wins_task, ruleset.name, text, player.value, extra, store_path, max_nodes, timeout
            )
            owner[future] = move
            move.pending.add(future)

        def settled(p: Player) -> bool:
            known = [m.opponent_wins for m in moves[p]]
            if p is first:
                return None not in known
            return False in known or None not in known

        while not all(settled(p) for p in players):
            pending = [f for m in owner.values() for f in m.pending]
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                raise SearchBudget(timeout=timeout).timed_out()
            done = _wait_first(address, pending, remaining)
            for future in done:
                move = owner[future]
                if future not in move.pending:
                    continue
                move.pending.discard(future)
                won, cpu, pid, expanded = future.result()
                per_worker[str(pid)] = per_worker.get(str(pid), 0.0) + cpu
                nodes += expanded
                if move.opponent_wins is not None:
                    continue
                if not two_plies:
                    move.opponent_wins = won
                elif not won:  # a reply after which the mover loses: the move is refuted
                    move.opponent_wins = True
                elif not move.pending:
                    move.opponent_wins = False
                if move.opponent_wins is not None:
                    cancelled += _cancel(pool, move.pending)
            for p in players:
                if p is not first and settled(p):
                    for move in moves[p]:
                        cancelled += _cancel(pool, move.pending)
    finally:
        leftovers = [f for m in owner.values() for f in m.pending]
        cancelled += _cancel(pool, leftovers)
        _stop(address, pool, shutdown, bool(leftovers))
    wins = {p: any(m.opponent_wins is False for m in moves[p]) for p in players}
    left = wins[Player.LEFT] if Player.LEFT in wins else wins[first]
    right = wins[Player.RIGHT] if Player.RIGHT in wins else left
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    parallel = {
        "executor": address,
        "jobs": jobs,
        "processes": workers if address == "processes" else None,
        "split": "two plies" if two_plies else "first moves",
        "tasks": tasks,
        "cancelled": cancelled,
        "cpu_seconds_per_worker": {k: round(v, 3) for k, v in sorted(per_worker.items())},
        "cpu_seconds_workers": round(sum(per_worker.values()), 3),
        "cpu_seconds_busiest_worker": round(max(per_worker.values(), default=0.0), 3),
        "cpu_seconds_parent": round(time.process_time() - parent_before, 3),
        "wall_seconds": round(time.monotonic() - wall, 3),
    }
    if address == "processes":  # every worker's CPU, the killed ones' work included
        parallel["cpu_seconds_pool"] = round(
            (children.ru_utime + children.ru_stime)
            - (children_before.ru_utime + children_before.ru_stime),
            3,
        )
    return Solution(
        ruleset=ruleset.name,
        position=format_position(ruleset, position),
        convention=ruleset.convention,
        value=None,
        outcome=Outcome.from_wins(left, right),
        best_moves=tuple(m.text for m in moves[first] if m.opponent_wins is False),
        method=METHOD + "+parallel",
        stats=Stats(nodes=nodes, seconds=parallel["wall_seconds"]),
        first=first,
        extra={
            "left_first": "L" if left else "R",
            "right_first": "R" if right else "L",
            "parallel": parallel,
        },
    )


def _wait_first(address: str, pending: list[Any], timeout: float | None) -> set[Any]:
    """The futures among ``pending`` finished within ``timeout`` (at least one, else none)."""
    if address == "processes":
        return set(wait_local(pending, timeout=timeout, return_when=FIRST_COMPLETED).done)
    from distributed import wait

    try:
        return set(wait(pending, timeout=timeout, return_when="FIRST_COMPLETED").done)
    except TimeoutError:
        return set()


def _cancel(pool: Any, futures: set[Any] | list[Any]) -> int:
    """Cancel tasks no longer needed (a cluster's and a pool's queued ones; a pool's running
    ones end with their worker, see :func:`_stop`)."""
    count = 0
    for future in list(futures):
        if not future.done():
            future.cancel()
            count += 1
    if isinstance(futures, set):
        futures.clear()
    return count


def _stop(address: str, pool: Any, shutdown: Callable[[], None], kill: bool) -> None:
    """End the executor; with ``kill``, a process pool's workers first (they may be running
    tasks whose answers are no longer needed: a pool cannot cancel a running task)."""
    if address != "processes":
        shutdown()
        return
    stop_pool(pool, kill)


__all__ = ["solve_outcome_parallel", "wins_task"]
