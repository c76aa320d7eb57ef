"""Sweeps: a solver mapped over a family of positions, resumable, parallel, interruptible.

Members already in the value store are read, not recomputed; the others go to an executor:
in this process (``local``), a local process pool (``processes``, ``--jobs N``) or a Dask
cluster (``dask://HOST:PORT``, the optional ``dask`` extra). Each result is stored as it
arrives, so an interrupted sweep loses only the members in flight. Records come out in
parameter order whatever the executor, so every executor gives the same output.

Members solved in this process (``local``) without a store share what they compute: one
:class:`~cgframework.runtime.cache.SharedMemo` lends each ``auto`` solve the values the
members before it found (a heap ruleset's members share its rule's table anyway).

Limits: at most :data:`MAX_MEMBERS` members per sweep; ``--jobs`` is capped at the CPU
count and the number of members to compute (with a warning). Every member is generated and
parsed before any work starts, so a family that makes an invalid member is refused at once.

Cluster results are not taken on trust: they are stored as ``origin="cluster"`` rows naming
the scheduler (``trust="local"`` stores do not read them), a sample of them (``recheck``, 1 in
20 by default, at least one per sweep) is computed again in this process, and they are written
to the store only when the sweep stops without a disagreement (a disagreement stores nothing
from that cluster: :class:`RecheckFailed`). A cluster that loses its workers stops the sweep
(:class:`~cgframework.sweep.executors.WorkersLost`) with what finished output and stored.

Executors, and what trusting a Dask scheduler means: :mod:`cgframework.sweep.executors`.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import random
import secrets
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import attrs

from cgframework import plugins
from cgframework.extensions import Family
from cgframework.game import Convention, Player, format_position, parse_position
from cgframework.io import converter
from cgframework.runtime.cache import SharedMemo
from cgframework.solution import Solution
from cgframework.solvers.dispatch import MISERE_METHODS, SolverError, available_methods, choose
from cgframework.store.database import ValueStore, position_key
from cgframework.sweep.executors import (
    SWEEP_KEPT,
    SweepError,
    TlsFiles,
    WorkersLost,
    _executor,
    check_cluster_trust,
    check_executor,
    cluster_results,
    is_loopback,
    local_results,
    solve_member,
)

MAX_MEMBERS = 1_000_000
"""The most members one sweep takes (each is generated and parsed up front)."""

DEFAULT_RECHECK = 0.05
"""Share of a cluster's results computed again here (1 in 20; at least one per sweep)."""

DEFAULT_WORKER_GRACE = 30.0
"""Seconds a cluster sweep waits while the cluster has no worker before it stops (exit 3)."""

MAX_WORKER_GRACE = 86_400.0
"""The longest ``worker_grace`` taken (a day)."""


class RecheckFailed(SweepError):
    """A cluster's result differs from this machine's for the same member: nothing from the
    cluster is stored (exit 2)."""


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


def _forced_label(ruleset: Any, position: Any, method: str, misere: bool) -> str | None:
    if method == "auto":
        return None
    if misere:
        return "misere"  # (the one misère search: what a misère sweep's rows were found by)
    try:
        return choose(ruleset, position, method, plugins.get_registry())[0]
    except SolverError as exc:
        raise SweepError(str(exc)) from None


def _check_misere(ruleset: Any, method: str) -> None:
    """A misère sweep needs a normal-play ruleset and the misère search's methods."""
    if ruleset.convention is not Convention.NORMAL:
        raise SweepError(
            f"misère play needs a normal-play ruleset; {ruleset.name!r} is "
            f"{ruleset.convention.value}"
        )
    if method not in MISERE_METHODS:
        raise SweepError(f"misère play uses its own brute-force search, not method {method!r}")


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
    insecure: bool = False,
    recheck: float = DEFAULT_RECHECK,
    recheck_seed: int | None = None,
    worker_grace: float = DEFAULT_WORKER_GRACE,
    misere: bool = False,
) -> Iterator[Record]:
    """Yield one Record per member ``start..stop`` (inclusive), in parameter order.

    Every request is checked before any work (range, ``jobs``, method, executor and its
    trust, each member); ``warn`` receives notes such as a capped ``jobs``. A stored
    solution is used when ``method`` is ``auto``, or when the forced method is the one that
    found it. On a Dask cluster: ``insecure`` accepts a scheduler off this machine without
    TLS client certificates; ``recheck`` is the share of its results computed again here
    (0: none; else at least one), sampled by ``recheck_seed`` (random when ``None``);
    ``worker_grace`` the seconds without any worker before the sweep stops. ``misere`` plays
    every member misère (a normal-play ruleset; ``method`` ``auto`` or ``generic``): the
    records say so (``convention`` ``misere``) and the store keeps them apart from
    normal-play answers (:func:`~cgframework.store.database.position_key`)."""
    if stop < start:
        raise SweepError(f"empty range: from {start} to {stop}")
    if stop - start + 1 > MAX_MEMBERS:
        raise SweepError(
            f"the range {start}..{stop} has {stop - start + 1} members; a sweep takes at "
            f"most {MAX_MEMBERS}"
        )
    if jobs < 1:
        raise SweepError(f"--jobs must be at least 1, got {jobs}")
    if not 0 <= recheck <= 1:
        raise SweepError(f"--recheck must be between 0 and 1 (a share of members), got {recheck}")
    if not (math.isfinite(worker_grace) and 0 < worker_grace <= MAX_WORKER_GRACE):
        raise SweepError(
            f"--worker-grace must be more than 0 and at most {MAX_WORKER_GRACE:g} seconds, "
            f"got {worker_grace}"
        )
    address = check_executor(executor)
    check_cluster_trust(address, tls, insecure)
    cluster = address not in ("local", "processes")
    if cluster and insecure and not is_loopback(address) and warn is not None:
        warn(
            f"--insecure: anyone who can reach {address} runs code as its workers' user "
            "and can forge results"
        )
    if executor == "local" and jobs > 1:
        executor = "processes"
    registry = plugins.get_registry()
    ruleset = registry.ruleset(ruleset_name)
    _check_method(ruleset, method)
    if misere:
        _check_misere(ruleset, method)
    stats = stats if stats is not None else SweepStats()
    members = _members(ruleset, family, start, stop)
    pending: dict[int, str] = {}
    ready: dict[int, Record] = {}
    positions = {n: position for n, _, position in members}
    for n, text, position in members:
        label = _forced_label(ruleset, position, method, misere)
        if store is not None:
            key = position_key(ruleset, position, first, misere=misere)
            found = store.get(ruleset, key, misere=misere)
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

    def flush_ready() -> Iterator[Record]:
        """Every finished record left, in parameter order, gaps and all (a stopped sweep)."""
        nonlocal next_n
        for n in sorted(ready):
            next_n = n
            yield from emit(n)

    extra = list(plugins._extra_modules)
    rechecked = _recheck_sample(pending, recheck, recheck_seed) if cluster else frozenset()
    from_cluster: list[tuple[int, Solution]] = []
    disagreed = False

    def finished(n: int, data: dict[str, Any]) -> None:
        nonlocal disagreed
        if n in rechecked:
            here = solve_member(ruleset.name, pending[n], method, first.value, extra, None, misere)
            differing = _differing_fields(data, here)
            if differing:
                disagreed = True
                raise RecheckFailed(
                    f"member {n} computed by the Dask cluster at {address} differs from this "
                    f"machine's ({', '.join(differing)}): sweep stopped, nothing from that "
                    "cluster stored"
                )
        try:
            solution = converter.structure(data, Solution)
            if cluster and (
                solution.ruleset != ruleset.name
                or solution.position != format_position(ruleset, positions[n])
            ):
                raise ValueError("it answers another position")
        except Exception as exc:  # a worker's answer is not trusted to be well formed
            if not cluster:
                raise
            disagreed = True
            raise RecheckFailed(
                f"member {n} computed by the Dask cluster at {address} is not its solution "
                f"({type(exc).__name__}): sweep stopped, nothing from that cluster stored"
            ) from None
        if cluster:
            from_cluster.append((n, solution))  # stored when the sweep stops, if it agreed
        elif store is not None:
            store.put(ruleset, position_key(ruleset, positions[n], first, misere=misere), solution)
        ready[n] = Record(n, solution)

    def store_cluster_rows() -> None:
        if store is None or disagreed:
            return
        for n, solution in from_cluster:
            key = position_key(ruleset, positions[n], first, misere=misere)
            store.put(ruleset, key, solution, origin="cluster", source=address)

    next_n = start
    pool, shutdown = _executor(executor, jobs, tls)
    # Local workers share the store file (read-through caches); remote ones may not see it.
    path = str(store.path) if store is not None and executor in ("local", "processes") else None
    # Workers open the file at the default trust level: a stricter one keeps them out of it.
    path = None if store is not None and store.trust == "local" else path
    # without a store, the members solved here share what they compute (values of the
    # positions they have in common: a member's smaller members, typically)
    memo = SharedMemo() if store is None and not misere else None
    try:
        if pool is None:
            for n, text, _ in members:
                if n in pending:
                    data = solve_member(
                        ruleset.name, text, method, first.value, extra, path, misere, memo
                    )
                    finished(n, data)
                yield from emit(n)
        else:
            futures = {
                pool.submit(
                    solve_member,
                    ruleset.name,
                    pending[n],
                    method,
                    first.value,
                    extra,
                    path,
                    misere,
                ): n
                for n in pending
            }
            yield from emit(stop)
            results = (
                cluster_results(pool, list(futures), address, worker_grace)
                if cluster
                else local_results(list(futures), SWEEP_KEPT)
            )
            try:
                for future, data in results:
                    finished(futures[future], data)
                    yield from emit(stop)
            except WorkersLost:
                yield from flush_ready()
                raise
        yield from emit(stop)
    finally:
        shutdown()
        store_cluster_rows()


def _recheck_sample(pending: dict[int, str], share: float, seed: int | None) -> frozenset[int]:
    """The members whose cluster results are computed again here: ``share`` of them, at
    least one (none when ``share`` is 0), chosen by ``seed``; a random seed by default, so
    that a scheduler cannot tell which answers will be checked."""
    if share == 0 or not pending:
        return frozenset()
    count = min(len(pending), max(1, math.ceil(share * len(pending))))
    chooser = random.Random(secrets.randbits(64) if seed is None else seed)
    return frozenset(chooser.sample(sorted(pending), count))


def _differing_fields(theirs: dict[str, Any], ours: dict[str, Any]) -> list[str]:
    """The fields of two solutions (as JSON data) that differ, search statistics aside."""
    if not isinstance(theirs, dict):
        return ["the whole answer"]
    keys = (set(theirs) | set(ours)) - {"stats"}
    return sorted(k for k in keys if theirs.get(k) != ours.get(k))


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
