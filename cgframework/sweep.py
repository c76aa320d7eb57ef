"""Sweeps: a solver mapped over a family of positions, resumable, parallel, interruptible.

Members already in the value store are read, not recomputed; the others go to an executor:
in this process (``local``), a local process pool (``processes``, ``--jobs N``) or a Dask
cluster (``dask://HOST:PORT``, the optional ``dask`` extra). Each result is stored as it
arrives, so an interrupted sweep loses only the members in flight. Records come out in
parameter order whatever the executor, so every executor gives the same output.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

import attrs

from cgframework import plugins
from cgframework.extensions import Family
from cgframework.game import Player, format_position, parse_position
from cgframework.io import converter
from cgframework.solution import Solution
from cgframework.solvers.dispatch import solve
from cgframework.store import ValueStore, position_key


class SweepError(ValueError):
    """A sweep request that cannot run (bad range, executor, family)."""


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


_worker_stores: dict[str, ValueStore] = {}


def solve_member(
    ruleset_name: str,
    text: str,
    method: str,
    first: str,
    extra_plugins: list[str],
    store_path: str | None = None,
) -> dict[str, Any]:
    """Solve one member in a worker (process pool or Dask); returns the Solution as JSON data
    so that workers and parent need not share Python objects. With ``store_path`` (a file
    this worker can open) the solver's transposition table reads through the store."""
    for module in extra_plugins:
        if module not in plugins._extra_modules:
            plugins.load_plugin(module)
    store = None
    if store_path is not None:
        if store_path not in _worker_stores:
            _worker_stores[store_path] = ValueStore(store_path)
        store = _worker_stores[store_path]
    solution = solve(ruleset_name, text, method=method, first=Player(first), store=store)
    return converter.unstructure(solution)


def _executor(spec: str, jobs: int) -> tuple[Any, Callable[[], None], Callable[..., Any]]:
    """(an object with ``submit(fn, *args) -> future``, a shutdown function, and an
    ``as_completed(futures)`` for its futures)."""
    if spec == "local":
        return None, lambda: None, as_completed
    if spec == "processes":
        pool = ProcessPoolExecutor(max_workers=max(1, jobs))
        return pool, lambda: pool.shutdown(wait=False, cancel_futures=True), as_completed
    if spec.startswith(("dask://", "tcp://")):
        try:
            from distributed import Client
            from distributed import as_completed as dask_completed
        except ImportError:
            raise SweepError(
                "the dask executor needs the optional extra: pip install 'cgframework[dask]'"
            ) from None
        address = "tcp://" + spec.split("://", 1)[1]
        try:
            client = Client(address, timeout="5s")
        except OSError as exc:
            raise SweepError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
        return client, client.close, dask_completed
    raise SweepError(f"unknown executor {spec!r} (local, processes or dask://HOST:PORT)")


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
) -> Iterator[Record]:
    """Yield one Record per member ``start..stop`` (inclusive), in parameter order."""
    if stop < start:
        raise SweepError(f"empty range: from {start} to {stop}")
    if jobs < 1:
        raise SweepError(f"--jobs must be at least 1, got {jobs}")
    if executor == "local" and jobs > 1:
        executor = "processes"
    registry = plugins.get_registry()
    ruleset = registry.ruleset(ruleset_name)
    stats = stats if stats is not None else SweepStats()
    members = [(n, family.generate(n)) for n in range(start, stop + 1)]
    pending: dict[int, str] = {}
    ready: dict[int, Record] = {}
    for n, text in members:
        position = parse_position(ruleset, text)
        if store is not None and method == "auto":
            found = store.get(ruleset, position_key(ruleset, position, first))
            if found is not None and found[0] == format_position(ruleset, position):
                ready[n] = Record(n, found[1], stored=True)
                continue
        pending[n] = text

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
            store.put(
                ruleset, position_key(ruleset, parse_position(ruleset, pending[n]), first), solution
            )
        ready[n] = Record(n, solution)

    next_n = start
    pool, shutdown, completed = _executor(executor, jobs)
    extra = list(plugins._extra_modules)
    # Local workers share the store file (read-through caches); remote ones may not see it.
    path = str(store.path) if store is not None and executor in ("local", "processes") else None
    path = None if store is not None and store.trust != "any" else path  # they read all rows
    try:
        if pool is None:
            for n, text in members:
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
    writer.writerow(columns)
    for record in records:
        data = record.to_json()
        data["best_moves"] = " ".join(data["best_moves"])
        writer.writerow(["" if data.get(c) is None else data[c] for c in columns])
        out.flush()
