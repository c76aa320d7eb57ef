"""``cgf store``: look into a value store, export it (signed, optionally), import another's
export, verify it, make a signing key pair.

Imports are checked record by record before one transaction (see
:mod:`cgframework.store.check`) and recomputed within a CPU-time budget: records not reached
are stored unverified and answer only under ``--trust imported``, until ``verify --all``
recomputes them. An export signed by a trusted key (:mod:`cgframework.store.signing`) is
imported verified without recomputation. Store failures (damaged file, full disk, read-only
filesystem) are one line and leave the store as it was.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import sys
import tempfile
from pathlib import Path
from typing import Annotated

import typer

from cgframework.cli.common import (
    HELP_OPTIONS,
    app,
    distinct_files,
    fail,
    old_output_option,
    output_file,
    output_option,
)
from cgframework.runtime.inputs import open_regular_file
from cgframework.runtime.outputs import flush_stdout
from cgframework.store.check import (
    DEFAULT_VERIFY,
    IMPORT_CPU_SECONDS,
    ImportRefused,
    differences,
    imported_rows,
    iter_lines,
    read_records,
    verify_records,
    verify_store,
)
from cgframework.store.database import (
    SIGNED,
    VERIFIED_BY_RECOMPUTATION,
    StoreError,
    ValueStore,
    check_store_file,
    new_store_with,
    now,
)

EXAMPLES = """

\b
Examples:
  cgf store info values.sqlite
  cgf store export values.sqlite -o values.jsonl
  cgf store import other.sqlite values.jsonl
  cgf store verify values.sqlite --all
"""

store_app = typer.Typer(
    help="The sqlite value store: info, export, import, verify, keygen." + EXAMPLES,
    no_args_is_help=True,
    context_settings=HELP_OPTIONS,
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
    """Entries per ruleset and rules version, and per provenance.

    Provenance: computed here, computed by another installation or by a cluster, imported
    from which file (verified by recomputation, signed by a trusted key, or unverified: not
    answered from unless --trust imported), or unknown (stored before provenance was kept).

    \b
    Examples:
      cgf store info values.sqlite
      cgf store info values.sqlite --json
    """
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
    if info["unverified"]:
        print(
            f"{info['unverified']} unverified imported entries: not answered from unless "
            "--trust imported; `cgf store verify --all` recomputes them"
        )


def _origin_label(row: dict) -> str:
    origin, by = row["origin"], row["by"]
    if origin == "computed here":
        return "computed here"
    if origin == "computed":
        return f"computed by another installation ({by})"
    if origin == "cluster":
        return f"computed by cluster {by}"
    if origin == "verified import":
        return f"imported from {by}, verified by recomputation"
    if origin == "signed import":
        return f"imported from {by}, signed by {row.get('key')}"
    if origin == "unverified import":
        return f"imported from {by}, unverified"
    return "origin unknown (stored before provenance was kept)"


@store_app.command("export")
def store_export(
    path: Annotated[str, typer.Argument(help="Store file.")],
    output: Annotated[
        str | None,
        output_option("JSON lines file (default: standard output)."),
    ] = None,
    old_out: Annotated[str | None, old_output_option("out")] = None,
    sign: Annotated[
        str | None,
        typer.Option(
            metavar="KEYFILE",
            help="Private key (from `cgf store keygen`): also write a detached signature "
            "FILE.sig (needs --output).",
        ),
    ] = None,
) -> None:
    """Write every entry, with its provenance, as JSON lines for `cgf store import`.

    The output is complete or absent: a file is written under a temporary name and renamed
    when done; standard output gets the lines only after the whole store was read. With
    --sign KEY, FILE.sig lets whoever trusts the key's public half import it as verified.

    \b
    Examples:
      cgf store export values.sqlite -o values.jsonl
      cgf store export values.sqlite -o values.jsonl --sign my.key
      cgf store export values.sqlite | gzip > values.jsonl.gz
    """
    out = output_file(output, out=old_out) or "-"
    sqlite_files = {f"the store's {end}": f"{path}-{end}" for end in ("journal", "wal", "shm")}
    signature = None if sign is None or out == "-" else out + ".sig"
    distinct_files(
        {
            "the store": path,
            **sqlite_files,
            "--sign": sign,
            "-o": out,
            "the signature of -o": signature,
        }
    )
    if out != "-" and not Path(out).parent.is_dir():
        fail(f"cannot write {out!r}: no directory {str(Path(out).parent)!r}")
    key = None
    if sign is not None:
        if out == "-":
            fail("--sign needs --output FILE (the signature is written to FILE.sig)")
        key = _signing(lambda signing: signing.load_private_key(sign))
        if Path(out).exists() and not Path(out).is_file():  # (a FIFO read back would hang)
            fail(f"--sign needs -o to be a regular file, not {out!r}: it is read back to be signed")
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
    if key is not None:
        _write_signature(out, key)
        note(f"exported {count} entries, signed: {out}.sig")
        return
    note(f"exported {count} entries")


def _signing(use):  # noqa: ANN001, ANN202 (a callback of the signing module)
    """``use(signing module)``, a signing failure (no extra, bad key...) being one line."""
    from cgframework.store import signing

    try:
        return use(signing)
    except signing.SigningError as exc:
        fail(str(exc))


def _write_signature(out: str, key: object) -> None:
    """Sign the export just written; if that fails, the export goes too (no unsigned file
    where a signed one was asked for)."""
    try:
        with open_regular_file(out) as written:
            data = written.read()
    except OSError as exc:
        fail(f"cannot read {out!r} back to sign it: {exc.strerror or exc}")
    try:
        _signing(lambda signing: signing.write_signature(f"{out}.sig", signing.sign(data, key)))
    except BaseException:
        Path(out).unlink(missing_ok=True)
        raise


@store_app.command("keygen")
def store_keygen(
    path: Annotated[
        str, typer.Argument(metavar="PATH", help="Private key file to write (and PATH.pub).")
    ],
) -> None:
    """Make an Ed25519 key pair for signing exports: PATH (private, mode 0600) and PATH.pub.

    Publish PATH.pub; importers pass it (or a directory of such files) to
    `cgf store import --trusted-key`. Needs pip install 'cgframework\\[sign]'.

    \b
    Examples:
      cgf store keygen my.key
      cgf store export values.sqlite -o values.jsonl --sign my.key
    """
    pair = _signing(lambda signing: signing.generate(path))
    print(pair.fingerprint)
    note(f"wrote {pair.private} (private: keep it) and {pair.public} (public)")


def parse_verify(text: str) -> int | str | None:
    """``--verify``: ``auto`` (every record within the CPU budget), ``all`` (``None``), or
    a count of records to recompute at random."""
    if text.strip().lower() in ("auto", "all"):
        return None if text.strip().lower() == "all" else "auto"
    try:
        count = int(text)
    except ValueError:
        fail(f"--verify takes auto, all or a number of records, not {text!r}")
    if count < 0:
        fail(f"--verify takes auto, all or a number of records (0 or more), not {count}")
    return count


def read_source(source: str) -> bytes:
    """The bytes of an export file (``-``: standard input), size-limited; a FIFO or a device
    named as the source is refused, never waited on (``-`` reads a pipe)."""
    try:
        if source == "-":
            if sys.stdin is None or sys.stdin.closed:
                fail("cannot read standard input: it is closed")
            data = sys.stdin.buffer.read(MAX_IMPORT_BYTES + 1)
        else:
            with open_regular_file(source) as handle:
                data = handle.read(MAX_IMPORT_BYTES + 1)
    except OSError as exc:
        fail(f"cannot read {source!r}: {exc.strerror or exc}")
    if len(data) > MAX_IMPORT_BYTES:
        fail(f"{source!r} is larger than {MAX_IMPORT_BYTES >> 20} MiB: split it and import parts")
    return data


@store_app.command("import")
def store_import(
    path: Annotated[str, typer.Argument(help="Store file (created if no file is there).")],
    source: Annotated[str, typer.Argument(help="JSON lines from `cgf store export`, - stdin.")],
    verify: Annotated[
        str | None,
        typer.Option(
            help="Records to recompute with their ruleset's solver: auto (default: every "
            "record, in file order, within --cpu-seconds; the rest stored unverified), all "
            "(every record, however long), or a number chosen at random (0: none). With a "
            "trusted signature: none unless given.",
        ),
    ] = None,
    cpu_seconds: Annotated[
        float,
        typer.Option(min=0, help="CPU seconds --verify auto may spend recomputing."),
    ] = IMPORT_CPU_SECONDS,
    seed: Annotated[
        int | None, typer.Option(help="Seed of a random --verify N (default: unpredictable).")
    ] = None,
    signature: Annotated[
        str | None,
        typer.Option(help="Detached signature of SOURCE (default with --trusted-key: SOURCE.sig)."),
    ] = None,
    trusted_key: Annotated[
        list[str] | None,
        typer.Option(
            help="Public key (from `cgf store keygen`, or ssh-ed25519) or a directory of "
            "*.pub keys whose signatures make records verified without recomputing "
            "(repeatable).",
        ),
    ] = None,
) -> None:
    """Merge an export into a store, every record checked and recomputed within a budget.

    Every record is checked (types, key, ruleset, value) before one transaction. Then records
    are recomputed in file order until --cpu-seconds of CPU time (default 60) are spent; those
    not reached are stored unverified: `solve`/`sweep` do not answer from them (unless
    --trust imported) until `cgf store verify --all` recomputes them. A record recomputed
    otherwise refuses the whole import, naming its line, and nothing is written. An export
    signed by a --trusted-key is stored verified without recomputation; a bad signature, an
    untrusted key or a changed file refuses it. Entries the store has are kept (a warning
    counts those that answer otherwise).

    \b
    Examples:
      cgf store import other.sqlite values.jsonl
      cgf store import other.sqlite values.jsonl --verify all
      cgf store import other.sqlite values.jsonl --trusted-key publisher.pub
      gunzip -c values.jsonl.gz | cgf store import other.sqlite -
    """
    sample = "auto" if verify is None else parse_verify(verify)
    if not math.isfinite(cpu_seconds):
        fail(f"--cpu-seconds takes a number of seconds, not {cpu_seconds}")
    if signature is not None and not trusted_key:
        fail("--signature needs --trusted-key PUBKEY (the key to check it with)")
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
    keys = None
    if trusted_key:
        if source == "-" and signature is None:
            fail("importing standard input signed needs --signature FILE")
        keys = _signing(lambda signing: signing.trusted_keys(trusted_key))
    data = read_source(source)
    digest = hashlib.sha256(data).hexdigest()[:16]
    label = f"{'stdin' if source == '-' else Path(source).name} sha256:{digest} on {now()}"
    how = VERIFIED_BY_RECOMPUTATION
    if keys is not None:
        sig_path = signature if signature is not None else f"{source}.sig"
        signer = _signing(lambda signing: signing.verify(data, sig_path, keys))
        how = SIGNED + signer
        if verify is None:
            sample = 0
    try:
        records = read_records(iter_lines(data))
    except ImportRefused as exc:
        fail(f"{source}: {exc}; nothing imported")
    new = not Path(path).exists()
    existing: set[tuple[str, str]] = set()
    if not new:
        existing = _stored_keys(path)
    try:
        rng = random.Random(seed) if seed is not None else None
        checked = verify_records(
            records,
            None if sample in ("auto", None) else sample,
            rng,
            cpu_seconds=cpu_seconds if sample == "auto" else None,
            skip=lambda record: (record.ruleset.name, record.key) in existing,
        )
    except ImportRefused as exc:
        fail(f"{source}: {exc}; nothing imported")
    verified = None if keys is not None else checked
    rows = imported_rows(records, label, verified, how)
    differ: list[str] = []
    try:
        # a new store is linked into place whole (a failure leaves no file); if another
        # process made one there meanwhile, the rows go into that one
        added = new_store_with(path, rows) if new else None
        if added is None:
            with ValueStore(path, trust="imported") as store:
                differ = differences(store, records)
                added = store.put_imported(rows)
    except StoreError as exc:
        fail(str(exc))
    if differ:
        note(
            f"warning: {len(differ)} records answer otherwise than this store (kept the "
            f"store's; `cgf store verify` checks it), e.g. {differ[0]}"
        )
    fresh = {n for n, record in records if (record.ruleset.name, record.key) not in existing}
    if keys is not None:
        note(
            f"read {len(records)} entries, signed by {how.removeprefix(SIGNED)}, "
            f"recomputed {len(checked)}, added {added}"
        )
        return
    unverified = len(fresh - checked)
    tail = ""
    if unverified:
        tail = (
            f"; {unverified} unverified (not answered from unless --trust imported; "
            "`cgf store verify --all` recomputes them)"
        )
    note(f"read {len(records)} entries, recomputed {len(checked)}, added {added}{tail}")


def _stored_keys(path: str) -> set[tuple[str, str]]:
    """(ruleset, key) of every row the store has: an import keeps those, so it does not
    spend its budget recomputing them."""
    try:
        with ValueStore(path, read_only=True, trust="imported") as store:
            return {(ruleset, key) for ruleset, _, key in store.addresses()}
    except StoreError as exc:
        fail(str(exc))


@store_app.command("verify")
def store_verify(
    path: Annotated[str, typer.Argument(help="Store file.")],
    sample: Annotated[
        int, typer.Option(help="Records to recompute, chosen at random.")
    ] = DEFAULT_VERIFY,
    every: Annotated[
        bool,
        typer.Option(
            "--all", help="Recompute every record; mark the unverified imports found right."
        ),
    ] = False,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the random sample (default: unpredictable).")
    ] = None,
) -> None:
    """Recompute a sample (or --all) of a store's records: exit 1 if any is wrong.

    Every record is checked as an import would check it; the sample is recomputed with the
    rulesets' solvers (never the store's memo), and the memo rows those searches reach are
    compared. Prints each bad record or row; exit code 1 if any, 0 if none. Counts the
    imported records not yet verified (not answered from by default); --all recomputes them
    and marks those found right verified (a wrong one is reported and stays unverified).

    \b
    Examples:
      cgf store verify values.sqlite
      cgf store verify values.sqlite --all
      cgf store verify values.sqlite --sample 500 --seed 1
    """
    if sample < 0:
        fail(f"--sample must be 0 or more, not {sample}")
    try:
        check_store_file(Path(path))
        store = ValueStore(path, create=False, read_only=not every, check=True)
    except StoreError as exc:
        fail(str(exc))
    with store:
        try:
            report = verify_store(
                store,
                None if every else sample,
                random.Random(seed) if seed is not None else None,
                on_problem=lambda line: print(line, flush=True),
            )
            marked = 0
            if report.promoted and not store.read_only:
                marked = store.mark_verified(report.promoted, VERIFIED_BY_RECOMPUTATION)
        except StoreError as exc:
            fail(str(exc))
    for line in report.notes:
        note(line)
    note(
        f"{report.records} records checked, {report.recomputed} recomputed; "
        f"{report.memo_checked} of {report.memo_rows} memo rows compared; "
        f"{len(report.problems)} bad"
    )
    left = report.unverified - marked
    if every and report.promoted and store.read_only:
        note(f"{len(report.promoted)} unverified records found right, not marked: read-only")
    elif marked:
        note(f"{marked} unverified imported records recomputed and marked verified")
    if left:
        hint = "" if every else "; `cgf store verify --all` recomputes them"
        note(f"{left} unverified imported records: not answered from unless --trust imported{hint}")
    if report.problems:
        raise typer.Exit(1)
