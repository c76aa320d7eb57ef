"""Sweeps: a solver mapped over a family of positions, resumable, parallel, interruptible.

Members already in the value store are read, not recomputed; the others go to an executor:
in this process (``local``), a local process pool (``processes``, ``--jobs N``) or a Dask
cluster (``dask://HOST:PORT``, the optional ``dask`` extra). Each result is stored as it
arrives, so an interrupted sweep loses only the members in flight. Records come out in
parameter order whatever the executor, so every executor gives the same output.

Limits: at most :data:`MAX_MEMBERS` members per sweep; ``--jobs`` is capped at the CPU
count and the number of members to compute (with a warning). Every member is generated and
parsed before any work starts, so a family that makes an invalid member is refused at once.

Executors, and what trusting a Dask scheduler means: :mod:`cgframework.sweep.executors`.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import attrs

from cgframework import plugins
from cgframework.extensions import Family
from cgframework.game import Player, format_position, parse_position
from cgframework.io import converter
from cgframework.solution import Solution
from cgframework.solvers.dispatch import SolverError, available_methods, choose
from cgframework.store.database import ValueStore, position_key
from cgframework.sweep.executors import (
    SweepError,
    TlsFiles,
    _executor,
    check_executor,
    solve_member,
)

MAX_MEMBERS = 1_000_000
"""The most members one sweep takes (each is generated and parsed up front)."""


@attrs.frozen
class Record:
    """One member of a sweep: its parameter and its Solution; ``stored`` when read from the
    store instead of computed."""

    parameter: int
    solution: Solution
    stored: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"parameter": self.parameter, **converter.unstructure(self.solution)}


@attrs.define
class SweepStats:
    computed: int = 0
    from_store: int = 0


def _check_method(ruleset: Any, method: str) -> None:
    known = available_methods(ruleset)
    if method not in known:
        raise SweepError(
            f"unknown method {method!r} for ruleset {ruleset.name!r} "
            f"(choose from {', '.join(known)})"
        )


def _stored_by(solution: Solution, method: str, label: str | None) -> bool:
    """May a stored solution stand for a run of ``method``? ``auto`` takes any; a forced
    method only what that same method found (so a generic sweep still checks shortcuts)."""
    if method == "auto":
        return True
    return solution.method == label


def _forced_label(ruleset: Any, position: Any, method: str) -> str | None:
    if method == "auto":
        return None
    try:
        return choose(ruleset, position, method, plugins.get_registry())[0]
    except SolverError as exc:
        raise SweepError(str(exc)) from None


def _members(ruleset: Any, family: Family, start: int, stop: int) -> list[tuple[int, str, Any]]:
    """(n, text, position) of every member, generated and parsed up front."""
    members = []
    for n in range(start, stop + 1):
        try:
            text = family.generate(n)
            position = parse_position(ruleset, text)
        except (ValueError, TypeError, KeyError, IndexError, OverflowError) as exc:
            raise SweepError(
                f"family {family.name!r} of {ruleset.name!r} has no valid member {n}: {exc}"
            ) from None
        members.append((n, text, position))
    return members


def sweep(
    ruleset_name: str,
    family: Family,
    start: int,
    stop: int,
    *,
    store: ValueStore | None = None,
    executor: str = "local",
    jobs: int = 1,
    method: str = "auto",
    first: Player = Player.LEFT,
    stats: SweepStats | None = None,
    on_record: Callable[[Record], None] | None = None,
    warn: Callable[[str], None] | None = None,
    tls: TlsFiles | None = None,
) -> Iterator[Record]:
    """Yield one Record per member ``start..stop`` (inclusive), in parameter order.

    Every request is checked before any work (range, ``jobs``, method, executor, each
    member); ``warn`` receives notes such as a capped ``jobs``. A stored solution is used
    when ``method`` is ``auto``, or when the forced method is the one that found it."""
    if stop < start:
        raise SweepError(f"empty range: from {start} to {stop}")
    if stop - start + 1 > MAX_MEMBERS:
        raise SweepError(
            f"the range {start}..{stop} has {stop - start + 1} members; a sweep takes at "
            f"most {MAX_MEMBERS}"
        )
    if jobs < 1:
        raise SweepError(f"--jobs must be at least 1, got {jobs}")
    check_executor(executor)
    if executor == "local" and jobs > 1:
        executor = "processes"
    registry = plugins.get_registry()
    ruleset = registry.ruleset(ruleset_name)
    _check_method(ruleset, method)
    stats = stats if stats is not None else SweepStats()
    members = _members(ruleset, family, start, stop)
    pending: dict[int, str] = {}
    ready: dict[int, Record] = {}
    positions = {n: position for n, _, position in members}
    for n, text, position in members:
        label = _forced_label(ruleset, position, method)
        if store is not None:
            found = store.get(ruleset, position_key(ruleset, position, first))
            if (
                found is not None
                and found[0] == format_position(ruleset, position)
                and _stored_by(found[1], method, label)
            ):
                ready[n] = Record(n, found[1], stored=True)
                continue
        pending[n] = text
    if executor == "processes":
        cap = min(os.cpu_count() or 1, max(1, len(pending)))
        if jobs > cap:
            if warn is not None:
                warn(f"--jobs {jobs} capped at {cap} (CPUs and members to compute)")
            jobs = cap
        if jobs == 1:
            executor = "local"

    def emit(upto: int) -> Iterator[Record]:
        nonlocal next_n
        while next_n in ready and next_n <= upto:
            record = ready.pop(next_n)
            if record.stored:
                stats.from_store += 1
            else:
                stats.computed += 1
            if on_record is not None:
                on_record(record)
            yield record
            next_n += 1

    def finished(n: int, data: dict[str, Any]) -> None:
        solution = converter.structure(data, Solution)
        if store is not None:
            store.put(ruleset, position_key(ruleset, positions[n], first), solution)
        ready[n] = Record(n, solution)

    next_n = start
    pool, shutdown, completed = _executor(executor, jobs, tls)
    extra = list(plugins._extra_modules)
    # Local workers share the store file (read-through caches); remote ones may not see it.
    path = str(store.path) if store is not None and executor in ("local", "processes") else None
    # Workers open the file at the default trust level: a stricter one keeps them out of it.
    path = None if store is not None and store.trust == "local" else path
    try:
        if pool is None:
            for n, text, _ in members:
                if n in pending:
                    data = solve_member(ruleset.name, text, method, first.value, extra, path)
                    finished(n, data)
                yield from emit(n)
        else:
            futures = {
                pool.submit(
                    solve_member, ruleset.name, pending[n], method, first.value, extra, path
                ): n
                for n in pending
            }
            yield from emit(stop)
            for future in completed(list(futures)):
                finished(futures[future], future.result())
                yield from emit(stop)
        yield from emit(stop)
    finally:
        shutdown()


def write_records(records: Iterable[Record], out: io.TextIOBase | Any, fmt: str) -> None:
    """Stream records as JSON lines or CSV (one row per member, flushed as it comes)."""
    if fmt == "jsonl":
        for record in records:
            out.write(json.dumps(record.to_json()) + "\n")
            out.flush()
        return
    columns = [
        "parameter",
        "ruleset",
        "position",
        "value",
        "outcome",
        "grundy",
        "best_moves",
        "method",
    ]
    writer = csv.writer(out)
    for i, record in enumerate(records):
        if i == 0:  # the header with the first record: a refused sweep writes nothing
            writer.writerow(columns)
        data = record.to_json()
        data["best_moves"] = " ".join(data["best_moves"])
        writer.writerow(["" if data.get(c) is None else data[c] for c in columns])
        out.flush()
