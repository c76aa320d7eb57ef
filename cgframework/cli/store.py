"""``cgf store``: look into a value store, export it, import another's export, verify it.

Imports are checked record by record before one transaction (see :mod:`cgframework.store.check`) and
a sample of the values is recomputed; ``verify`` recomputes a stored sample (or all) and
the memo rows those searches reach. Store failures (damaged file, full disk, read-only
filesystem) are one line and leave the store as it was.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
import tempfile
from pathlib import Path
from typing import Annotated

import typer

from cgframework.cli.common import app, fail
from cgframework.runtime.outputs import flush_stdout
from cgframework.store.check import (
    DEFAULT_VERIFY,
    ImportRefused,
    differences,
    imported_rows,
    iter_lines,
    read_records,
    verify_records,
    verify_store,
)
from cgframework.store.database import StoreError, ValueStore, check_store_file, now

store_app = typer.Typer(
    help="The sqlite value store: info, export, import, verify.", no_args_is_help=True
)
app.add_typer(store_app, name="store")


def note(message: str) -> None:
    """A summary or warning line on stderr (never wrapped: scripts read it)."""
    print(message, file=sys.stderr, flush=True)


MAX_IMPORT_BYTES = 1 << 30
"""An export file larger than this (1 GiB) is refused: it is read into memory to be checked
as a whole before anything is written."""


def open_existing(path: str, *, check: bool = True) -> ValueStore:
    """A store that must exist, opened for reading only (and checked page by page)."""
    try:
        return ValueStore(path, read_only=True, check=check)
    except StoreError as exc:
        fail(str(exc))


@store_app.command("info")
def store_info(
    path: Annotated[str, typer.Argument(help="Store file.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Entries per ruleset and rules version, and per origin.

    Origins: computed here, computed by another installation, imported from which file, or
    unknown (rows stored before provenance was kept)."""
    with open_existing(path) as store:
        info = store.info()
    if as_json:
        print(json.dumps(info))
        return
    note = ", read-only" if info["read_only"] else ""
    print(
        f"{info['path']}: {info['entries']} entries, {info['memo']} memo rows "
        f"(schema {info['schema']}{note})"
    )
    for row in info["rulesets"]:
        print(f"  {row['ruleset']} (rules version {row['version']}): {row['entries']}")
    if info["origins"]:
        print("by origin:")
    for row in info["origins"]:
        print(f"  {_origin_label(row)}: {row['entries']}")


def _origin_label(row: dict) -> str:
    origin, by = row["origin"], row["by"]
    if origin == "computed here":
        return "computed here"
    if origin == "computed":
        return f"computed by another installation ({by})"
    if origin == "import":
        return f"imported from {by}"
    return "origin unknown (stored before provenance was kept)"


@store_app.command("export")
def store_export(
    path: Annotated[str, typer.Argument(help="Store file.")],
    out: Annotated[
        str, typer.Option("--out", "-o", help="JSON lines file (default stdout).")
    ] = "-",
) -> None:
    """Write every entry, with its provenance, as JSON lines for `cgf store import`.

    The output is complete or absent: a file is written under a temporary name and renamed
    when done; standard output gets the lines only after the whole store was read."""
    if out != "-" and not Path(out).parent.is_dir():
        fail(f"cannot write {out!r}: no directory {str(Path(out).parent)!r}")
    with open_existing(path) as store:
        try:
            if out != "-":
                count = store.export_file(out)
            else:
                with tempfile.TemporaryFile("w+") as buffer:
                    count = store.export(buffer)
                    buffer.seek(0)
                    for line in buffer:
                        sys.stdout.write(line)
                flush_stdout()  # a full disk is an error here, before "exported N entries"
        except StoreError as exc:
            fail(str(exc))
    note(f"exported {count} entries")


def parse_verify(text: str) -> int | None:
    """``--verify``: a count of records to recompute, or ``all`` (``None``)."""
    if text.strip().lower() == "all":
        return None
    try:
        count = int(text)
    except ValueError:
        fail(f"--verify takes a number of records or 'all', not {text!r}")
    if count < 0:
        fail(f"--verify takes a number of records (0 or more) or 'all', not {count}")
    return count


def read_source(source: str) -> bytes:
    """The bytes of an export file (``-``: standard input), size-limited."""
    try:
        if source == "-":
            data = sys.stdin.buffer.read(MAX_IMPORT_BYTES + 1)
        else:
            if Path(source).is_dir():
                fail(f"cannot read {source!r}: it is a directory")
            with open(source, "rb") as handle:
                data = handle.read(MAX_IMPORT_BYTES + 1)
    except OSError as exc:
        fail(f"cannot read {source!r}: {exc.strerror}")
    if len(data) > MAX_IMPORT_BYTES:
        fail(f"{source!r} is larger than {MAX_IMPORT_BYTES >> 20} MiB: split it and import parts")
    return data


@store_app.command("import")
def store_import(
    path: Annotated[str, typer.Argument(help="Store file (created if no file is there).")],
    source: Annotated[str, typer.Argument(help="JSON lines from `cgf store export`, - stdin.")],
    verify: Annotated[
        str,
        typer.Option(
            help="Records to recompute with their ruleset's solver before importing "
            "(a number, or all).",
        ),
    ] = str(DEFAULT_VERIFY),
    seed: Annotated[
        int | None, typer.Option(help="Seed of the random sample (default: unpredictable).")
    ] = None,
) -> None:
    """Merge an export into a store, every record checked and a sample recomputed.

    Every record is checked (types, key, ruleset, value) and a sample recomputed before one
    transaction: any bad record refuses the whole import, naming its line, and nothing is
    written. Entries the store has are kept (a warning counts those that answer otherwise)."""
    sample = parse_verify(verify)
    try:
        check_store_file(Path(path))
        if Path(path).exists():  # refuse a damaged or read-only store before the work
            with ValueStore(path, read_only=True, check=True) as store:
                if not store.writable:
                    fail(f"value store {path!r} is read-only: cannot import into it")
        elif not Path(path).parent.is_dir():
            fail(f"cannot create value store {path!r}: no directory {str(Path(path).parent)!r}")
    except StoreError as exc:
        fail(str(exc))
    data = read_source(source)
    digest = hashlib.sha256(data).hexdigest()[:16]
    label = f"{'stdin' if source == '-' else Path(source).name} sha256:{digest} on {now()}"
    try:
        records = read_records(iter_lines(data))
        rng = random.Random(seed) if seed is not None else None
        checked = verify_records(records, sample, rng)
    except ImportRefused as exc:
        fail(f"{source}: {exc}; nothing imported")
    new = not Path(path).exists()
    try:
        with ValueStore(path) as store:
            differ = [] if new else differences(store, records)
            added = store.put_imported(imported_rows(records, label))
    except StoreError as exc:
        if new:  # nothing imported: no new store either
            for suffix in ("", "-wal", "-shm"):
                Path(path + suffix).unlink(missing_ok=True)
        fail(str(exc))
    if differ:
        note(
            f"warning: {len(differ)} records answer otherwise than this store (kept the "
            f"store's; `cgf store verify` checks it), e.g. {differ[0]}"
        )
    note(f"read {len(records)} entries, recomputed {checked}, added {added}")


@store_app.command("verify")
def store_verify(
    path: Annotated[str, typer.Argument(help="Store file.")],
    sample: Annotated[
        int, typer.Option(help="Records to recompute, chosen at random.")
    ] = DEFAULT_VERIFY,
    every: Annotated[bool, typer.Option("--all", help="Recompute every record.")] = False,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the random sample (default: unpredictable).")
    ] = None,
) -> None:
    """Recompute a sample (or --all) of a store's records: exit 1 if any is wrong.

    Every record is checked as an import would check it; the sample is recomputed with the
    rulesets' solvers (never the store's memo), and the memo rows those searches reach are
    compared. Prints each bad record or row; exit code 1 if any, 0 if none."""
    if sample < 0:
        fail(f"--sample must be 0 or more, not {sample}")
    with open_existing(path) as store:
        try:
            report = verify_store(
                store,
                None if every else sample,
                random.Random(seed) if seed is not None else None,
                on_problem=lambda line: print(line, flush=True),
            )
        except StoreError as exc:
            fail(str(exc))
    for line in report.notes:
        note(line)
    note(
        f"{report.records} records checked, {report.recomputed} recomputed; "
        f"{report.memo_checked} of {report.memo_rows} memo rows compared; "
        f"{len(report.problems)} bad"
    )
    if report.problems:
        raise typer.Exit(1)
