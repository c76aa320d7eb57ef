"""``cgf sweep``: sweeps over families (``cgf store`` is in :mod:`cgframework.cli.store`)."""

from __future__ import annotations

import logging
import sys
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from cgframework.cli.common import (
    TRUST_HELP,
    InsecureOption,
    RulesetArgument,
    TlsCaOption,
    TlsCertOption,
    TlsKeyOption,
    VariantOption,
    app,
    fail,
    load_ruleset,
    open_store,
    open_trusting_store,
    parse_player,
)
from cgframework.extensions import Family
from cgframework.plugins import get_registry
from cgframework.store.database import ValueStore
from cgframework.store.errors import DEFAULT_TRUST
from cgframework.sweep.runner import (
    DEFAULT_RECHECK,
    DEFAULT_WORKER_GRACE,
    Record,
    SweepError,
    SweepStats,
    TlsFiles,
    sweep,
    write_records,
)

err = Console(stderr=True, highlight=False)


def run_sweep(
    ruleset: str,
    family: Family,
    start: int,
    stop: int,
    *,
    store_path: str | None,
    executor: str,
    jobs: int,
    method: str,
    first: str,
    fmt: str,
    progress: bool | None,
    tls: TlsFiles | None = None,
    trust: str = DEFAULT_TRUST,
    insecure: bool = False,
    recheck: float = DEFAULT_RECHECK,
    recheck_seed: int | None = None,
    worker_grace: float = DEFAULT_WORKER_GRACE,
    misere: bool = False,
) -> SweepStats:
    """The sweep behind ``cgf sweep`` and the plugins' family commands: records on stdout
    as they come, a progress bar with an ETA on stderr, a summary line at the end. A
    cluster that loses its workers ends it with exit 3 (what finished is output and stored)."""
    if fmt not in ("jsonl", "csv"):
        fail(f"unknown format {fmt!r} (jsonl or csv)")
    player = parse_player(first)
    if executor not in ("local", "processes"):
        quiet_cluster_client()
    stats = SweepStats()
    show = sys.stderr.isatty() if progress is None else progress
    store = open_trusting_store(store_path, trust) if store_path else None
    try:
        with Progress(
            TextColumn(f"{ruleset} {family.name}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=err,
            disable=not show,
        ) as bar:
            task = bar.add_task("sweep", total=max(0, stop - start + 1))

            def advance(_: Record) -> None:
                bar.advance(task)

            records = sweep(
                ruleset,
                family,
                start,
                stop,
                store=store,
                executor=executor,
                jobs=jobs,
                method=method,
                first=player,
                stats=stats,
                on_record=advance,
                warn=warn,
                tls=tls,
                insecure=insecure,
                recheck=recheck,
                recheck_seed=recheck_seed,
                worker_grace=worker_grace,
                misere=misere,
            )
            write_records(records, sys.stdout, fmt)
    except SweepError as exc:
        fail(str(exc))
    finally:
        if store is not None:
            store.close()
    err.print(f"{stats.computed} computed, {stats.from_store} from the store")
    return stats


def quiet_cluster_client() -> None:
    """Keep the Dask client's own log lines (lost workers, rescheduled keys, its event loop's
    cancelled tasks) off stderr: the command ends with its one line of error instead."""
    try:
        import distributed  # noqa: F401 - it sets its loggers' levels when imported
    except ImportError:
        return  # the executor says what is missing
    for name in ["asyncio", *logging.root.manager.loggerDict]:
        if name == "asyncio" or name.split(".")[0] == "distributed":
            logging.getLogger(name).setLevel(logging.CRITICAL)


def warn(message: str) -> None:
    """A note for the user, on stderr (never mixed into the records on stdout)."""
    err.print(f"cgf: warning: {message}")


def sweep_records(
    ruleset: str,
    family: Family,
    start: int,
    stop: int,
    *,
    store_path: str | None = None,
    jobs: int = 1,
    executor: str = "local",
) -> list[Record]:
    """The whole sweep as a list, for family commands of plugins (``cgf classic sequence``,
    ``cgf pizza search``): bad requests end the command with one line and exit code 2."""
    store = open_store(store_path) if store_path else None
    try:
        records = sweep(
            ruleset, family, start, stop, store=store, jobs=jobs, executor=executor, warn=warn
        )
        return list(records)
    except SweepError as exc:
        fail(str(exc))
    finally:
        if store is not None:
            store.close()


@app.command("sweep")
def sweep_cmd(
    ruleset: RulesetArgument,
    family: Annotated[str, typer.Argument(help="Family name (see `cgf rulesets --json`).")],
    start: Annotated[int, typer.Option("--from", help="First parameter.")] = 0,
    to: Annotated[int, typer.Option(help="Last parameter (inclusive).")] = 10,
    store: Annotated[str | None, typer.Option(help="sqlite value store: resume, share.")] = None,
    jobs: Annotated[int, typer.Option(help="Worker processes.")] = 1,
    executor: Annotated[
        str,
        typer.Option(
            metavar="EXECUTOR",
            help="local, processes, dask://HOST:PORT (a trusted scheduler: it runs pickled "
            "code; off this machine only with --insecure) or tls://HOST:PORT (client "
            "certificates: the --tls-* files or Dask's TLS config).",
        ),
    ] = "local",
    fmt: Annotated[
        str, typer.Option("--format", metavar="jsonl|csv", help="Records as JSON lines or CSV.")
    ] = "jsonl",
    method: Annotated[str, typer.Option(help="auto, generic, or a solver name.")] = "auto",
    first: Annotated[str, typer.Option(help="Player to move first: L or R.")] = "L",
    progress: Annotated[bool | None, typer.Option(help="Progress bar (default: on a tty).")] = None,
    tls_ca_file: TlsCaOption = None,
    tls_cert: TlsCertOption = None,
    tls_key: TlsKeyOption = None,
    trust: Annotated[str, typer.Option(help=TRUST_HELP)] = DEFAULT_TRUST,
    insecure: InsecureOption = False,
    recheck: Annotated[
        float,
        typer.Option(
            help="Share of a cluster's results computed again here (default 0.05: 1 in 20, "
            "at least one per sweep; 0: none). A disagreement stops the sweep (exit 2) and "
            "stores nothing from the cluster."
        ),
    ] = DEFAULT_RECHECK,
    recheck_seed: Annotated[
        int | None, typer.Option(help="Seed choosing the members rechecked (default: random).")
    ] = None,
    worker_grace: Annotated[
        float,
        typer.Option(
            help="Seconds a cluster may have no worker before the sweep stops (exit 3, "
            "finished members kept)."
        ),
    ] = DEFAULT_WORKER_GRACE,
    misere: Annotated[
        bool,
        typer.Option(
            "--misere",
            help="Misère play (who cannot move wins), as `cgf solve --misere`: each record "
            "says convention misere; the store keeps misère answers apart from normal ones.",
        ),
    ] = False,
    variant: VariantOption = None,
) -> None:
    """Solve every member FROM..TO of a family: one record per member, resumable.

    \b
    Examples:
      cgf sweep kayles heaps --to 500 --store values.sqlite
      cgf sweep domineering 2xn --from 1 --to 12 --format csv --jobs 2
      cgf sweep octal heaps:0.137 --to 100
      cgf sweep kayles heaps --to 30 --misere --store values.sqlite
      cgf sweep kayles heaps --to 5000 --executor dask://127.0.0.1:8786
      cgf sweep kayles heaps --to 500 --executor tls://10.0.0.5:8786
      cgf sweep domineering 2xn --to 8 --variant impartial
    """
    registry = get_registry()
    rs = load_ruleset(ruleset, variant)
    try:
        fam = registry.family(rs.name, family)
    except KeyError as exc:
        fail(str(exc.args[0]))
    run_sweep(
        rs.name,
        fam,
        start,
        to,
        store_path=store,
        executor=executor,
        jobs=jobs,
        method=method,
        first=first,
        fmt=fmt,
        progress=progress,
        tls=TlsFiles(tls_ca_file, tls_cert, tls_key),
        trust=trust,
        insecure=insecure,
        recheck=recheck,
        recheck_seed=recheck_seed,
        worker_grace=worker_grace,
        misere=misere,
    )


__all__ = ["run_sweep", "sweep_records", "ValueStore"]
