"""``cgf certificate check``: verify a certificate of who wins (written by ``cgf solve
--certificate FILE``) with the independent checker of :mod:`cgframework.proofs.checker`.

Exit 0: verified. Exit 1: the file does not prove its claim (damaged, or a step that does not
hold), one line saying what and where. Exit 2: the file cannot be read, or its ruleset is not
installed. Exit 3: past a limit (node count, line or file size).
"""

from __future__ import annotations

import json
import sys
import time
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from cgframework.cli.common import (
    HELP_OPTIONS,
    TimeoutOption,
    app,
    fail,
    print_table,
    within_timeout,
)
from cgframework.proofs.checker import (
    MAX_NODES,
    CertificateError,
    CertificateUnreadable,
    CheckReport,
    check_certificate,
)

certificate_app = typer.Typer(
    help="Certificates of who wins: check one (written by cgf solve --certificate FILE)."
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
    timeout: TimeoutOption = None,
    jobs: Annotated[
        int,
        typer.Option(
            min=1,
            max=256,
            help="Verify in this many processes (each reads the whole file, checks its share).",
        ),
    ] = 1,
    progress: Annotated[
        bool | None, typer.Option(help="Progress bar of the nodes read (default: on a tty).")
    ] = None,
) -> None:
    """Verify a certificate of who wins, with no solver: only the ruleset's parse, format,
    components and options. Exit 0 verified, 1 refused (what and where), 2 unreadable or
    unknown ruleset, 3 past a limit.

    \b
    Examples:
      cgf certificate check proof.gz
      cgf certificate check proof.gz --json
      cgf certificate check proof.gz --timeout 60
      cgf certificate check proof.gz --jobs 2
    """

    show = sys.stderr.isatty() if progress is None else progress
    bar = Progress(
        TextColumn("checking"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True, highlight=False),
        transient=True,
        disable=not show,
    )
    task = bar.add_task("nodes", total=None)

    def advance(read: int, nodes: int) -> None:
        bar.update(task, completed=read, total=nodes)

    def check() -> CheckReport:
        return check_certificate(
            path, max_nodes=max_nodes, jobs=jobs, progress=advance if show else None
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
    if as_json:
        print(json.dumps(report.as_dict()))
        return
    print_table(
        [
            ("verified", "yes"),
            ("ruleset", report.ruleset),
            ("position", report.position),
            ("outcome", report.outcome.value),
            ("left first", "Left wins" if report.left_first_wins else "Right wins"),
            ("right first", "Right wins" if report.right_first_wins else "Left wins"),
            (
                "nodes",
                f"{report.nodes} ({report.leaves - report.value_leaves} solved by brute force, "
                f"{report.value_leaves} by values)",
            ),
        ]
    )


__all__ = ["certificate_app"]
