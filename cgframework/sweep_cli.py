"""``cgf sweep`` and ``cgf store``: sweeps over families, and the value store's upkeep."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from cgframework.cli import app, fail, open_store, parse_player
from cgframework.extensions import Family
from cgframework.plugins import get_registry
from cgframework.store import StoreError, ValueStore
from cgframework.sweep import Record, SweepError, SweepStats, TlsFiles, sweep, write_records

store_app = typer.Typer(help="The sqlite value store: info, export, import.", no_args_is_help=True)
app.add_typer(store_app, name="store")
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
) -> SweepStats:
    """The sweep behind ``cgf sweep`` and the plugins' family commands: records on stdout
    as they come, a progress bar with an ETA on stderr, a summary line at the end."""
    if fmt not in ("jsonl", "csv"):
        fail(f"unknown format {fmt!r} (jsonl or csv)")
    player = parse_player(first)
    stats = SweepStats()
    show = sys.stderr.isatty() if progress is None else progress
    store = open_store(store_path) if store_path else None
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
            )
            write_records(records, sys.stdout, fmt)
    except SweepError as exc:
        fail(str(exc))
    finally:
        if store is not None:
            store.close()
    err.print(f"{stats.computed} computed, {stats.from_store} from the store")
    return stats


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
    ruleset: Annotated[str, typer.Argument(help="Ruleset name.")],
    family: Annotated[str, typer.Argument(help="Family name (see `cgf rulesets --json`).")],
    start: Annotated[int, typer.Option("--from", help="First parameter.")] = 0,
    to: Annotated[int, typer.Option(help="Last parameter (inclusive).")] = 10,
    store: Annotated[str | None, typer.Option(help="sqlite value store: resume, share.")] = None,
    jobs: Annotated[int, typer.Option(help="Worker processes.")] = 1,
    executor: Annotated[
        str,
        typer.Option(
            help="local, processes, dask://HOST:PORT (a trusted scheduler: it runs pickled "
            "code) or tls://HOST:PORT (Dask's TLS settings, or the --tls-* files)."
        ),
    ] = "local",
    fmt: Annotated[str, typer.Option("--format", help="jsonl or csv.")] = "jsonl",
    method: Annotated[str, typer.Option(help="auto, generic, or a solver name.")] = "auto",
    first: Annotated[str, typer.Option(help="Player to move first: L or R.")] = "L",
    progress: Annotated[bool | None, typer.Option(help="Progress bar (default: on a tty).")] = None,
    tls_ca_file: Annotated[
        str | None, typer.Option(help="CA certificate for a tls:// scheduler.")
    ] = None,
    tls_cert: Annotated[str | None, typer.Option(help="Client certificate (tls://).")] = None,
    tls_key: Annotated[str | None, typer.Option(help="Client private key (tls://).")] = None,
) -> None:
    """Solve every member FROM..TO of a family: one record per member, resumable."""
    registry = get_registry()
    try:
        rs = registry.ruleset(ruleset)
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
    )


@store_app.command("info")
def store_info(path: Annotated[str, typer.Argument(help="Store file.")]) -> None:
    """Entries per ruleset and rules version."""
    _require(path)
    with open_store(path) as store:
        info = store.info()
    print(f"{info['path']}: {info['entries']} entries")
    for row in info["rulesets"]:
        print(f"  {row['ruleset']} (rules version {row['version']}): {row['entries']}")


@store_app.command("export")
def store_export(
    path: Annotated[str, typer.Argument(help="Store file.")],
    out: Annotated[
        str, typer.Option("--out", "-o", help="JSON lines file (default stdout).")
    ] = "-",
) -> None:
    """Write every entry as JSON lines, to merge into another store with `cgf store import`."""
    _require(path)
    with open_store(path) as store:
        if out == "-":
            count = store.export(sys.stdout)
        else:
            with open(out, "w") as handle:
                count = store.export(handle)
    err.print(f"exported {count} entries")


@store_app.command("import")
def store_import(
    path: Annotated[str, typer.Argument(help="Store file (created if missing).")],
    source: Annotated[str, typer.Argument(help="JSON lines from `cgf store export`, - stdin.")],
) -> None:
    """Merge exported entries into a store; entries it already has are kept."""
    try:
        handle = sys.stdin if source == "-" else open(source)  # noqa: SIM115
    except OSError as exc:
        fail(f"cannot read {source!r}: {exc.strerror}")
    with handle, open_store(path) as store:
        try:
            read, added = store.import_lines(handle)
        except StoreError as exc:
            fail(f"{source}: {exc}")
    err.print(f"read {read} entries, added {added}")


def _require(path: str) -> None:
    if not Path(path).is_file():
        fail(f"no store file {path!r}")


__all__ = ["run_sweep", "sweep_records", "ValueStore"]
