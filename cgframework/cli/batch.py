"""``cgf solve RULESET --batch FILE``: many positions in one process, one JSON line each.

A process start costs far more than the answer to a small position (about 0.2 CPU s against
a few milliseconds), so a batch of small questions is asked in one process. The input
(``FILE``, or ``-`` for standard input) holds one position per line; each answer is one
line of JSON, written and flushed as soon as it is found, so a pipe sees it at once:

- an answer is the object ``cgf solve --json`` prints for the position, with ``line`` (the
  line's number in the input, from 1) first;
- a line that cannot be answered is ``{"line": N, "position": TEXT, "error": MESSAGE,
  "exit": CODE}``: CODE 2 for a refusal (a malformed position, a method that does not
  apply), 3 for a limit hit (``--max-nodes``, ``--timeout``, memory); the batch goes on.

Blank lines are skipped (they are still counted in ``line``). There are no comment lines:
``#`` begins real positions (a filled square of Domineering). ``--max-nodes`` and
``--timeout`` limit each line's solve, not the whole batch. Every line is read bounded
(``CGF_MAX_INPUT_BYTES``, like one position); a longer line ends the batch (exit 2), after
the answers before it. The exit status at the end: 0 when every line was answered, 2 when
some line was refused, else 3 when some line hit a limit; stderr then says how many.
"""

from __future__ import annotations

import contextlib
import json
import sys
import time
from collections.abc import Callable, Iterator
from typing import IO, Any

import attrs

from cgframework.cli.common import (
    InputError,
    fail,
    open_trusting_store,
    shorten,
    solution_json,
    solve_misere_or_fail,
)
from cgframework.game import Player, Ruleset, parse_position
from cgframework.runtime import memory
from cgframework.runtime.budget import LimitExceeded
from cgframework.runtime.inputs import MAX_INPUT_ENV, InputTextError, max_input_bytes
from cgframework.runtime.outputs import STDOUT, flush_stdout, open_output
from cgframework.solvers.common import SolverError
from cgframework.solvers.dispatch import MISERE_METHODS, available_methods, solve
from cgframework.store.errors import StoreError


@attrs.frozen
class BatchOptions:
    """What ``cgf solve`` was asked, the same for every line."""

    method: str = "auto"
    first: Player = Player.LEFT
    misere: bool = False
    outcome_only: bool = False
    winning_moves: bool = True
    full: bool = False
    max_nodes: int | None = None
    timeout: float | None = None


class LineError(Exception):
    """One line not answered: its message and exit code (2 refused, 3 a limit hit)."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


def check_options(ruleset: Ruleset, options: BatchOptions, store: str | None) -> None:
    """Refuse (exit 2, before any line is read) what would refuse every line alike."""
    if options.misere:
        if options.method not in MISERE_METHODS:
            fail(f"--misere uses its own brute-force search: drop --method {options.method}")
        if store is not None:
            fail("--batch --misere does not use the value store: drop --store")
    elif options.outcome_only:
        if options.method not in ("auto", "outcome-search"):
            fail(f"the outcome search is its own method, not {options.method!r}")
    elif options.method not in ("auto", "generic"):  # (these two always name a method)
        methods = available_methods(ruleset)  # (loads every plugin's solvers)
        if options.method not in methods:
            known = ", ".join(methods)
            fail(f"unknown method {options.method!r} for ruleset {ruleset.name!r} ({known})")
    if not options.outcome_only and not options.winning_moves:
        fail("--no-moves is for the outcome search: add --outcome")


def read_lines(stream: Any, name: str, limit: int) -> Iterator[tuple[int, bytes]]:
    """``(number, bytes)`` of each line of ``stream`` (binary, or text in tests), without its
    end of line; at most ``limit`` bytes a line are read, a longer one raises
    :class:`InputTextError` (the batch ends there: what follows is not a line yet)."""
    number = 0
    while True:
        try:
            data = stream.readline(limit + 1)
        except (OSError, ValueError) as exc:  # (a directory, a closed or unreadable stream)
            reason = getattr(exc, "strerror", None) or exc
            raise InputTextError(f"cannot read {name}: {reason}") from None
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogatepass")
        if not data:
            return
        number += 1
        line = data.rstrip(b"\n")
        if len(line) > limit:
            raise InputTextError(
                f"line {number} of {name} is longer than the input limit of {limit} bytes "
                f"(set {MAX_INPUT_ENV})"
            )
        yield number, line.rstrip(b"\r")


@contextlib.contextmanager
def open_batch(source: str) -> Iterator[tuple[Any, str]]:
    """The batch's input: ``(stream, name for messages)``; unreadable: exit 2."""
    if source == "-":
        stdin = sys.stdin
        if stdin is None or getattr(stdin, "closed", False):
            fail("cannot read standard input: it is closed")
        yield getattr(stdin, "buffer", stdin), "standard input"
        return
    name = f"batch file {source!r}"
    if "\x00" in source:
        fail(f"cannot read {name}: a file name has no NUL character")
    try:
        handle = open(source, "rb")  # noqa: SIM115 (closed below)
    except OSError as exc:
        fail(f"cannot read {name}: {exc.strerror or exc}")
    with handle:
        yield handle, name


def answer(ruleset: Ruleset, text: str, options: BatchOptions, store: Any) -> dict[str, Any]:
    """The ``cgf solve --json`` object of one position's text; :class:`LineError` if it
    cannot be answered."""
    started = time.monotonic()
    try:
        position = parse_line(ruleset, text)
        limits = {"max_nodes": options.max_nodes, "timeout": options.timeout}
        if options.misere:
            solution = solve_misere_or_fail(
                ruleset,
                position,
                options.method,
                options.first,
                outcome_only=options.outcome_only,
                winning_moves=options.winning_moves,
                **limits,
            )
        else:
            try:
                solution = solve(
                    ruleset,
                    position,
                    method=options.method,
                    first=options.first,
                    store=store,
                    outcome_only=options.outcome_only,
                    winning_moves=options.winning_moves,
                    **limits,
                )
            except (SolverError, StoreError) as exc:
                raise InputError(str(exc)) from None
        return solution_json(solution, options.full, options.timeout, started)
    except InputError as exc:
        raise LineError(str(exc), 2) from None
    except LimitExceeded as exc:
        raise LineError(str(exc), 3) from None
    except MemoryError as exc:
        said = str(exc)
        raise LineError(
            said if said.startswith("out of memory") else memory.exhausted_message(), 3
        ) from None
    except ValueError as exc:
        if "Exceeds the limit" in str(exc) and "digits" in str(exc):
            limit = sys.get_int_max_str_digits()
            raise LineError(f"a number has more than {limit} digits (limit)", 3) from None
        raise


def parse_line(ruleset: Ruleset, text: str) -> Any:
    """A line's position (its text only: ``@FILE`` and ``-`` are not read here)."""
    try:
        return parse_position(ruleset, text)
    except (MemoryError, LimitExceeded):
        raise
    except RecursionError:
        fail(f"invalid {ruleset.name} position {shorten(text)}: nested too deeply")
    except Exception as exc:  # a plugin's parser may raise anything on bad text
        fail(f"invalid {ruleset.name} position {shorten(text)}: {exc}")


def write_line(out: IO[str], data: dict[str, Any], print_json: Callable[[Any], None]) -> None:
    """One JSON line, printed by ``print_json`` (``cgf solve --json``'s printer, which streams
    a canonical value from its text, never built whole) to ``out``, and flushed."""
    with contextlib.redirect_stdout(out):
        print_json(data)
    if out is sys.stdout:
        flush_stdout()
    else:
        out.flush()


def solve_batch(
    ruleset: Ruleset,
    source: str,
    options: BatchOptions,
    output: str | None = None,
    store: str | None = None,
    trust: str = "verified",
    print_json: Callable[[Any], None] | None = None,
) -> None:
    """Answer every line of ``source`` (a path or ``-``) to ``output`` (``None`` or ``-``:
    standard output; a file is written by :func:`~cgframework.runtime.outputs.open_output`,
    whole when the batch ends); the exit status is raised at the end (see the module
    docstring). ``print_json(data)`` prints one answer (``cgf solve --json``'s printer)."""
    check_options(ruleset, options, store)
    print_json = print_json or print_json_line
    try:
        limit = max_input_bytes()
    except InputTextError as exc:
        fail(str(exc))
    refused = limited = answered = 0
    opened = None if store is None else open_trusting_store(store, trust)
    try:
        with open_batch(source) as (stream, name), open_output(output or STDOUT) as out:
            for number, raw in read_lines(stream, name, limit):
                try:
                    text = raw.decode("utf-8").strip()
                except UnicodeDecodeError as exc:
                    shown = raw.decode("utf-8", "backslashreplace").strip()
                    message = f"line {number} is not UTF-8 text (byte {exc.start})"
                    data = error_line(number, shown, message, 2)
                    refused += 1
                else:
                    if not text:
                        continue
                    try:
                        data = {"line": number, **answer(ruleset, text, options, opened)}
                        answered += 1
                    except LineError as exc:
                        data = error_line(number, text, str(exc), exc.code)
                        refused += exc.code == 2
                        limited += exc.code == 3
                write_line(out, data, print_json)
    except InputTextError as exc:
        fail(str(exc))
    finally:
        if opened is not None:
            opened.close()
    failed = refused + limited
    if failed:
        kinds = [f"{refused} refused"] * bool(refused) + [f"{limited} at a limit"] * bool(limited)
        message = (
            f"{failed} of {failed + answered} positions not answered ({', '.join(kinds)}): "
            "see their error lines"
        )
        if refused:
            raise InputError(message)
        raise LimitExceeded(message)


def print_json_line(data: dict[str, Any]) -> None:
    """``print(json.dumps(data))``, a value by its text."""
    print(json.dumps(data, default=str))


def error_line(number: int, text: str, message: str, code: int) -> dict[str, Any]:
    """The JSON line of a line not answered."""
    return {"line": number, "position": text, "error": message, "exit": code}


__all__ = ["BatchOptions", "solve_batch"]
