"""``cgf certificate check``: verify a certificate of who wins (written by ``cgf solve
--certificate FILE``) with the independent checker of :mod:`cgframework.proofs.checker`;
``cgf certificate lemmas`` writes a proof's lemmas, ``cgf certificate sign-ledger`` signs the
ledger of a proof kept in pieces, ``cgf certificate reproduce`` writes again some of the
lemmas a ledger records and compares their hashes.

Exit 0: verified. Exit 1: the file does not prove its claim (damaged, or a step that does not
hold), one line saying what and where. Exit 2: the file cannot be read, its ruleset is not
installed, or its ledger is not trusted. Exit 3: past a limit (node count, work, line or file
size).
"""

from __future__ import annotations

import glob
import gzip
import json
import os
import sys
import time
import zlib
from collections.abc import Callable
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from cgframework.cli.common import (
    HELP_OPTIONS,
    InsecureOption,
    MaxNodesOption,
    TimeoutOption,
    TlsCaOption,
    TlsCertOption,
    TlsKeyOption,
    app,
    distinct_files,
    fail,
    output_option,
    print_table,
    within_timeout,
)
from cgframework.proofs.checker import (
    MAX_NODES,
    WORK_BASE,
    WORK_PER_NODE,
    CertificateError,
    CertificateUnreadable,
    CheckReport,
    check_certificate,
)
from cgframework.proofs.lemmas import check_proof

certificate_app = typer.Typer(
    help="Certificates of who wins: check one (written by cgf solve --certificate FILE), "
    "write the lemmas of one in several files, or reproduce some of them."
    "\n\n\b\nExamples:\n  cgf solve clobber xoxoxoxo --certificate proof.gz\n"
    "  cgf certificate check proof.gz",
    no_args_is_help=True,
    context_settings=HELP_OPTIONS,
)
app.add_typer(certificate_app, name="certificate")


@certificate_app.command("check")
def check_cmd(
    path: Annotated[str, typer.Argument(metavar="FILE", help="The certificate (gzip).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    max_nodes: Annotated[
        int | None,
        typer.Option(
            min=1, help=f"Refuse (exit 3) a certificate of more nodes (default {MAX_NODES})."
        ),
    ] = None,
    max_work: Annotated[
        int | None,
        typer.Option(
            min=1,
            metavar="STEPS",
            help=f"Refuse (exit 3) a file whose check takes more steps (moves gone through, "
            f"components they copy, steps of value arithmetic; default {WORK_BASE:,} plus "
            f"{WORK_PER_NODE:,} a node: an honest file takes 5 to 20 a node).",
        ),
    ] = None,
    timeout: TimeoutOption = None,
    jobs: Annotated[
        int,
        typer.Option(
            min=1,
            max=256,
            help="Verify in this many processes (each reads the whole file, checks its share; "
            "the verdict stands only if all read the same bytes).",
        ),
    ] = 1,
    progress: Annotated[
        bool | None,
        typer.Option(help="Progress bar of the nodes read, on a terminal (the default there)."),
    ] = None,
    lemmas: Annotated[
        str | None,
        typer.Option(
            metavar="DIR",
            help="The lemma certificates (*.gz in DIR, as cgf certificate lemmas writes them) "
            "that prove the certificate's lemma leaves.",
        ),
    ] = None,
    ledger: Annotated[
        str | None,
        typer.Option(
            metavar="FILE",
            help="Record each file checked in FILE (JSON lines, by SHA-256), and trust it for "
            "the lemma files recorded there: a proof in many files checked over several runs. "
            "The main FILE is always checked.",
        ),
    ] = None,
    from_ledger: Annotated[
        bool,
        typer.Option(
            "--from-ledger",
            help="Count the lemmas the --ledger records as proved even when their files are "
            "gone (deleted once checked, or checked elsewhere): not checked now. The ledger "
            "must be signed by a --trusted-key (or --trust-unsigned-ledger).",
        ),
    ] = False,
    record: Annotated[
        bool,
        typer.Option(
            help="Add each file checked to the --ledger (the default); --no-record only reads "
            "it, as a published proof's ledger, which must then be signed by a --trusted-key "
            "(or --trust-unsigned-ledger).",
        ),
    ] = True,
    trusted_key: Annotated[
        list[str] | None,
        typer.Option(
            metavar="PUBKEY",
            help="Public key (from cgf store keygen, or ssh-ed25519) or a folder of *.pub "
            "keys: the --ledger must be signed by one of them (LEDGER.sig, written by cgf "
            "certificate sign-ledger). Repeatable; needs --no-record.",
        ),
    ] = None,
    ledger_signature: Annotated[
        str | None,
        typer.Option(
            metavar="FILE", help="The --ledger's detached signature (default: LEDGER.sig)."
        ),
    ] = None,
    trust_unsigned_ledger: Annotated[
        bool,
        typer.Option(
            "--trust-unsigned-ledger",
            help="Trust a --ledger read with --from-ledger or --no-record though no signature "
            "of it verifies with a --trusted-key: its records count unchecked. Only for a "
            "ledger you wrote yourself; the output says so.",
        ),
    ] = False,
) -> None:
    """Verify a certificate of who wins, with no solver: only the ruleset's parse, format,
    components and options. Exit 0 verified, 1 refused (what and where), 2 unreadable, unknown
    ruleset or untrusted ledger, 3 past a limit (--max-nodes, --max-work, --timeout).

    FILE is always checked now. A --ledger vouches for lemma files only; read as a published
    one (--from-ledger, --no-record) it must be signed by a --trusted-key, or trusted as asked
    (--trust-unsigned-ledger). The output counts the lemma claims that rest on the ledger, not
    checked now.

    \b
    Examples:
      cgf certificate check proof.gz
      cgf certificate check proof.gz --json
      cgf certificate check proof.gz --timeout 60
      cgf certificate check proof.gz --jobs 2
      cgf certificate check top.gz --lemmas lemmas/ --ledger checked.jsonl
      cgf certificate check p.gz --ledger l.jsonl --no-record --trusted-key k.pub
    """

    show = progress is not False and sys.stderr.isatty()  # (elsewhere a bar's last frame stays)
    bar, advance = _progress_bar("checking", show)

    files = _lemma_files(lemmas)
    if from_ledger and ledger is None:
        fail("--from-ledger needs --ledger FILE")
    if not record and ledger is None:
        fail("--no-record needs --ledger FILE")
    for given, name in (
        (trusted_key, "--trusted-key"),
        (ledger_signature, "--ledger-signature"),
        (trust_unsigned_ledger, "--trust-unsigned-ledger"),
    ):
        if given and ledger is None:
            fail(f"{name} needs --ledger FILE")
    if ledger_signature is not None and not trusted_key:
        fail("--ledger-signature needs --trusted-key PUBKEY (the key to check it with)")
    if trusted_key and record:
        fail(
            "--trusted-key checks a published ledger, which is only read: add --no-record "
            "(recording into it would void its signature)"
        )

    def check() -> CheckReport:
        if lemmas is None and ledger is None:
            return check_certificate(
                path,
                max_nodes=max_nodes,
                max_work=max_work,
                jobs=jobs,
                progress=advance if show else None,
            )
        return check_proof(
            path,
            files,
            ledger=ledger,
            from_ledger=from_ledger,
            record=record,
            trusted_keys=trusted_key or (),
            ledger_signature=ledger_signature,
            trust_unsigned_ledger=trust_unsigned_ledger,
            max_nodes=max_nodes,
            max_work=max_work,
            jobs=jobs,
            progress=advance if show else None,
        )

    try:
        with bar:
            report = (
                check() if timeout is None else within_timeout(timeout, time.monotonic(), check)
            )
    except CertificateUnreadable as exc:
        fail(str(exc))
    except CertificateError as exc:
        if as_json:
            print(json.dumps({"verified": False, "error": str(exc)}))
        message = " ".join(f"certificate refused: {exc}".split())
        print(f"cgf: error: {message[:300]}", file=sys.stderr)
        raise typer.Exit(1) from None
    if report.installed_version != report.ruleset_version:
        print(
            f"cgf: warning: the certificate was written for {report.ruleset} version "
            f"{report.ruleset_version!r}; it holds for the installed version "
            f"{report.installed_version!r}, against which it was checked",
            file=sys.stderr,
        )
    if report.ledger_unverified:
        print(
            f"cgf: warning: the ledger is trusted unchecked, as asked (--trust-unsigned-ledger): "
            f"{report.ledger_unverified}",
            file=sys.stderr,
        )
    if report.assumes:  # (checked alone, or with lemma files that do not prove them all)
        if as_json:
            print(json.dumps(report.as_dict()))
        first = report.assumes[0].describe()
        print(
            f"cgf: error: not proved: the certificate assumes {len(report.assumes)} lemmas "
            f"(the first: {first}); give their certificates with --lemmas DIR",
            file=sys.stderr,
        )
        raise typer.Exit(1)
    if as_json:
        print(json.dumps(report.as_dict()))
        return
    rows = [("verified", "yes"), ("ruleset", report.ruleset), ("position", report.position)]
    if report.outcome is not None:
        rows.append(("outcome", report.outcome.value))
    if report.left_first_wins is not None:
        rows.append(("left first", "Left wins" if report.left_first_wins else "Right wins"))
    if report.right_first_wins is not None:
        rows.append(("right first", "Right wins" if report.right_first_wins else "Left wins"))
    rows.append(
        (
            "nodes",
            f"{report.nodes} ({report.leaves - report.value_leaves} solved by brute force, "
            f"{report.value_leaves} by values, {report.lemma_leaves} by lemmas)",
        )
    )
    if report.lemma_files:
        rows.append(
            (
                "lemma files",
                f"{report.lemma_files} ({report.lemma_files_from_ledger} vouched for by the "
                "ledger, not checked now)",
            )
        )
    if report.lemma_claims_from_ledger:
        rows.append(
            (
                "from the ledger",
                f"{report.lemma_claims_from_ledger} lemma claims rest on the ledger alone: "
                "recorded as checked by an earlier run, not checked now",
            )
        )
    if report.ledger_signer:
        rows.append(("ledger signed by", f"{report.ledger_signer} (a trusted key)"))
    elif report.ledger_unverified:
        rows.append(
            ("ledger signed by", "no trusted key: trusted as asked (--trust-unsigned-ledger)")
        )
    print_table(rows)


@certificate_app.command("lemmas")
def lemmas_cmd(
    path: Annotated[
        str, typer.Argument(metavar="FILE", help="A certificate with lemma leaves (gzip).")
    ],
    directory: Annotated[
        str, typer.Argument(metavar="DIR", help="Where the lemma certificates go.")
    ],
    jobs: Annotated[
        int, typer.Option(min=1, max=256, help="Write this many lemmas side by side.")
    ] = 1,
    max_nodes: MaxNodesOption = None,
    timeout: TimeoutOption = None,
    mirrors: Annotated[
        bool,
        typer.Option(
            "--mirrors/--no-mirrors",
            help="Rewrite a lemma that mirrors one already written from that one's file.",
        ),
    ] = True,
    ledger: Annotated[
        str | None,
        typer.Option(
            metavar="FILE",
            help="Leave out the lemmas that the ledger of cgf certificate check --ledger FILE "
            "records as proved (their files may be gone).",
        ),
    ] = None,
    executor: Annotated[
        str,
        typer.Option(
            metavar="EXECUTOR",
            help="processes (--jobs of them, the default), dask://HOST:PORT or "
            "tls://HOST:PORT (a cluster writes the lemmas, trusted as by cgf sweep: "
            "--insecure, --tls-*; each file is checked all the same).",
        ),
    ] = "processes",
    tls_ca_file: TlsCaOption = None,
    tls_cert: TlsCertOption = None,
    tls_key: TlsKeyOption = None,
    insecure: InsecureOption = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Write the certificate of each lemma leaf of FILE (written by cgf solve --certificate
    FILE --lemma-depth D) into DIR, one file a lemma, each searched afresh, or rewritten from
    the file of its mirror image where the ruleset knows the board's symmetries. Lemmas already
    in DIR are kept: a run stopped by --timeout (exit 3) or killed is resumed by running it
    again; with --ledger, so is a proof whose checked lemma files were deleted. --max-nodes
    bounds each lemma's search. A lemma's file is the same whichever run, job or worker
    writes it (cgf certificate reproduce compares them with a ledger's hashes). A cluster
    worker that dies costs its lemma's work, written again by another; a lemma that kills
    every worker ends the run (exit 3).

    \b
    Examples:
      cgf solve clobber checker:3x7 --outcome --certificate top.gz --lemma-depth 3
      cgf certificate lemmas top.gz lemmas/ --jobs 2
      cgf certificate lemmas top.gz lemmas/ --executor dask://127.0.0.1:8786
      cgf certificate check top.gz --lemmas lemmas/
    """
    from cgframework.plugins import PluginError, resolve_ruleset
    from cgframework.proofs.writer import lemma_claims, write_lemmas
    from cgframework.sweep.executors import TlsFiles

    if os.path.exists(directory) and not os.path.isdir(directory):
        fail(f"{directory!r} is not a folder")
    bar, advance = _progress_bar("lemmas", sys.stderr.isatty())

    try:
        name, _ = lemma_claims(path)
    except CertificateUnreadable as exc:
        fail(str(exc))
    except OSError as exc:
        if not isinstance(exc, gzip.BadGzipFile):
            fail(f"cannot read {path!r}: {exc.strerror or exc}")
        fail(f"{path!r} is not a certificate with lemma leaves ({exc})")
    except (ValueError, KeyError, TypeError, EOFError, zlib.error) as exc:
        fail(f"{path!r} is not a certificate with lemma leaves ({exc})")
    try:
        resolve_ruleset(name)
    except (KeyError, PluginError) as exc:
        fail(str(exc))
    if executor not in ("local", "processes"):
        from cgframework.cli.sweep import quiet_cluster_client

        quiet_cluster_client()
    try:
        with bar:
            done = write_lemmas(
                path,
                directory,
                jobs=jobs,
                max_nodes=max_nodes,
                timeout=timeout,
                progress=advance,
                mirrors=mirrors,
                ledger=ledger,
                executor=executor,
                tls=TlsFiles(tls_ca_file, tls_cert, tls_key),
                insecure=insecure,
            )
    except CertificateUnreadable as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot write into {directory!r}: {exc.strerror or exc}")
    except ValueError as exc:
        fail(str(exc))
    summary = {
        "lemmas": len(done.written) + len(done.mirrored) + len(done.present) + done.in_ledger,
        "written": len(done.written),
        "mirrored": len(done.mirrored),
        "already_there": len(done.present),
        "in_ledger": done.in_ledger,
        "nodes_written": done.nodes,
        "directory": directory,
    }
    if as_json:
        print(json.dumps(summary))
        return
    print_table([(name.replace("_", " "), str(value)) for name, value in summary.items()])


@certificate_app.command("sign-ledger")
def sign_ledger_cmd(
    ledger: Annotated[
        str, typer.Argument(metavar="LEDGER", help="The ledger (of cgf certificate check).")
    ],
    key: Annotated[
        str,
        typer.Option(
            metavar="KEYFILE",
            help="Ed25519 private key (from cgf store keygen; readable by you alone).",
        ),
    ],
    output: Annotated[
        str | None, output_option("Where the signature goes (default: LEDGER.sig).")
    ] = None,
) -> None:
    """Sign a ledger of cgf certificate check --ledger: write its detached signature,
    LEDGER.sig, which cgf certificate check --ledger LEDGER --trusted-key KEY.pub verifies. A
    proof kept as its main file and a ledger (--from-ledger) is trusted only so. Sign it once
    nothing more is recorded: a line added voids the signature. Prints the key's fingerprint.
    Needs pip install 'cgframework\\[sign]'.

    \b
    Examples:
      cgf store keygen k
      cgf certificate sign-ledger l.jsonl --key k
      cgf certificate check p.gz --ledger l.jsonl --no-record --trusted-key k.pub
    """
    from cgframework.proofs.lemmas import sign_ledger
    from cgframework.store.signing import SigningError

    signature = output if output is not None else f"{ledger}.sig"
    distinct_files({"LEDGER": ledger, "--key": key, "-o": signature})
    try:
        fingerprint, written = sign_ledger(ledger, key, signature)
    except (SigningError, CertificateUnreadable) as exc:
        fail(str(exc))
    print(fingerprint)
    print(f"cgf: signed {ledger!r}: {written}", file=sys.stderr)


@certificate_app.command("reproduce")
def reproduce_cmd(
    path: Annotated[
        str, typer.Argument(metavar="FILE", help="A certificate with lemma leaves (gzip).")
    ],
    ledger: Annotated[
        str,
        typer.Option(
            metavar="LEDGER",
            help="The ledger of cgf certificate check --ledger that records FILE's lemmas "
            "(only read).",
        ),
    ],
    sample: Annotated[
        int, typer.Option(min=1, metavar="K", help="How many lemmas to write again.")
    ],
    seed: Annotated[
        int | None,
        typer.Option(
            min=0, help="Seed of the random draw (default: a new one, printed: to repeat a run)."
        ),
    ] = None,
    trusted_key: Annotated[
        list[str] | None,
        typer.Option(
            metavar="PUBKEY",
            help="Public key or folder of *.pub keys: the LEDGER must be signed by one of them "
            "(else exit 2). Without one, its signature is not checked (the output says so).",
        ),
    ] = None,
    ledger_signature: Annotated[
        str | None,
        typer.Option(metavar="FILE", help="The LEDGER's detached signature (default: LEDGER.sig)."),
    ] = None,
    mirrors: Annotated[
        bool,
        typer.Option(
            "--mirrors/--no-mirrors",
            help="As the lemmas were written (cgf certificate lemmas --no-mirrors).",
        ),
    ] = True,
    max_nodes: MaxNodesOption = None,
    timeout: TimeoutOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Spot-check a proof in pieces without trusting its ledger: write again K of the lemmas
    the LEDGER records for FILE, drawn at random (--seed repeats a draw), check each with the
    independent checker, and compare its SHA-256 with the LEDGER's (a lemma's file is the
    same whoever writes it, with the same version of cgframework). Exit 0 when all K
    reproduce; 1 when one differs or is refused (named); 2 unreadable, or a LEDGER not signed
    by a --trusted-key; 3 past --timeout or --max-nodes (each lemma's search).

    \b
    Examples:
      cgf certificate reproduce top.gz --ledger checked.jsonl --sample 2
      cgf certificate reproduce top.gz --ledger checked.jsonl --sample 2 --seed 7
      cgf certificate reproduce p.gz --ledger l --sample 1 --trusted-key k.pub
    """
    from cgframework.plugins import PluginError
    from cgframework.proofs.reproduce import reproduce_lemmas
    from cgframework.store.signing import SigningError

    if ledger_signature is not None and not trusted_key:
        fail("--ledger-signature needs --trusted-key PUBKEY (the key to check it with)")
    distinct_files({"FILE": path, "--ledger": ledger})
    bar, advance = _progress_bar("reproducing", sys.stderr.isatty())
    try:
        with bar:
            found = reproduce_lemmas(
                path,
                ledger,
                sample,
                seed=seed,
                trusted_keys=trusted_key or (),
                ledger_signature=ledger_signature,
                mirrors=mirrors,
                max_nodes=max_nodes,
                timeout=timeout,
                progress=advance,
            )
    except (CertificateUnreadable, SigningError, KeyError, PluginError) as exc:
        fail(str(exc).strip("'\""))
    except CertificateError as exc:
        message = " ".join(f"the certificate is refused: {exc}".split())
        print(f"cgf: error: {message[:300]}", file=sys.stderr)
        raise typer.Exit(1) from None
    if as_json:
        print(json.dumps(found.as_dict()))
    else:
        _print_reproduction(found, ledger)
    failed = [lemma for lemma in found.lemmas if not lemma.reproduced]
    if failed:
        first = failed[0]
        print(
            f"cgf: error: {len(failed)} of {len(found.lemmas)} lemmas did not reproduce; the "
            f"first, {_name(first.path)} ({first.claim.describe()}): {_why(first, found)}",
            file=sys.stderr,
        )
        raise typer.Exit(1)


def _print_reproduction(found: Any, ledger: str) -> None:
    """The table of ``cgf certificate reproduce``: the verdict, the draw, then each lemma."""
    done = sum(lemma.reproduced for lemma in found.lemmas)
    signed = (
        f"signed by {found.ledger_signer} (a trusted key)"
        if found.ledger_signer
        else "its signature was not checked (no --trusted-key)"
    )
    rows = [
        ("reproduced", "yes" if found.reproduced else "no"),
        ("ruleset", found.ruleset),
        ("position", found.position),
        (
            "sample",
            f"{done} of {len(found.lemmas)} lemmas reproduced, drawn from the ledger's "
            f"{found.population} (of the {found.assumed} the certificate assumes)",
        ),
        ("seed", f"{found.seed} (--seed {found.seed} draws the same lemmas)"),
        ("ledger", f"{ledger}: {signed}"),
        ("writer", f"{found.generator} (zlib {found.zlib})"),
    ]
    for lemma in found.lemmas:
        how = "searched" if lemma.mirrored_from is None else "mirrored"
        same = f"same SHA-256 {lemma.recorded[:16]}..."
        if lemma.sha256 != lemma.recorded:  # (a mirrored lemma written before mirror_of)
            same += " (its header without mirror_of, as mirrored lemmas were first written)"
        said = (
            f"{same}, verified, {lemma.nodes:,} nodes, {how}"
            if lemma.reproduced
            else f"NOT REPRODUCED: {_why(lemma, found)}"
        )
        rows.append((_name(lemma.path), said))
    print_table(rows)


def _name(path: str) -> str:
    return os.path.basename(path) or path


def _why(lemma: Any, found: Any) -> str:
    """Why a lemma did not reproduce, with what may explain it (another writer or version)."""
    if lemma.error:
        return lemma.error
    why = f"its SHA-256 is {lemma.sha256}, the ledger records {lemma.recorded}"
    if lemma.recorded_generator and lemma.recorded_generator != found.generator:
        why += f" (written by {lemma.recorded_generator}, now by {found.generator})"
    return why


def _progress_bar(label: str, show: bool) -> tuple[Progress, Callable[[int, int], None]]:
    """A bar on stderr (``label``, done of total, time left; nothing when not ``show``), and
    the ``advance(done, total)`` that moves it."""
    bar = Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True, highlight=False),
        transient=True,
        disable=not show,
    )
    task = bar.add_task(label, total=None)

    def advance(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    return bar, advance


def _lemma_files(directory: str | None) -> list[str]:
    """The ``*.gz`` files in ``directory`` (none without one); a missing folder is refused."""
    if directory is None:
        return []
    if not os.path.isdir(directory):
        fail(f"--lemmas {directory!r} is not a folder")
    return sorted(glob.glob(os.path.join(glob.escape(directory), "*.gz")))


__all__ = ["certificate_app"]
