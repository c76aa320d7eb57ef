"""cgframework in a web browser with nothing installed: the explorer's and the calculator's
calls, answered in the page's own Python (Pyodide, in a Web Worker) as ``cgf explore``'s
server answers them over HTTP.

The page at ``try/`` on the documentation site (``try/build.py`` builds it) is the explorer's
page (:mod:`cgframework.display.static`) with another back end: instead of ``GET
/api/NAME?QUERY`` it posts ``(NAME, QUERY)`` to its worker, which calls :func:`call` and
gets what the server would send, ``(HTTP status, JSON text)``. The routes, their
parameters, their limits (:data:`~cgframework.display.explorer.DEFAULT_MAX_NODES` positions
per solve, :data:`~cgframework.display.explorer.DEFAULT_TIMEOUT` seconds per node) and their
errors are the server's own (:mod:`cgframework.display.server`,
:func:`cgframework.display.worker.run_call`). The server's worker process and its kill past
the deadline are the page's: it stops a worker that runs :data:`GRACE` seconds past its
call's ``deadline`` and starts another one.

One more call, the calculator's: ``cgf`` with ``args`` (a JSON list) runs ``cgf calc`` or
``cgf solve`` (:data:`COMMANDS`) in this process, as the command line would, under the
explorer's limits unless ``args`` give others, and answers its exit code, standard output
and standard error.

Pyodide starts no thread and has no ``resource`` module: the core runs there on the calling
thread (:data:`cgframework.runtime.deep.THREADS`), without an operating-system memory limit.
"""

from __future__ import annotations

import io
import json
import shlex
from collections import OrderedDict
from contextlib import redirect_stderr, redirect_stdout
from typing import Any, NamedTuple

from cgframework.display import explorer, server
from cgframework.display.worker import GRACE, run_call

COMMANDS = ("calc", "solve")
"""The ``cgf`` commands the calculator runs."""
MAX_ARGS = 32
"""Words of a calculator command at most."""
MAX_OUTPUT = 200_000
"""Characters of a command's standard output kept at most (the rest is cut, and said so)."""


class Limits(NamedTuple):
    """A node's limits, as ``cgf explore``'s defaults (the server's routes read these)."""

    max_nodes: int | None = explorer.DEFAULT_MAX_NODES
    timeout: float | None = explorer.DEFAULT_TIMEOUT


LIMITS = Limits()
_cache: OrderedDict[tuple[Any, ...], tuple[int, Any]] = OrderedDict()


def limits() -> dict[str, Any]:
    """What the page needs to know before its first call: the node's ``timeout``, the
    ``grace`` past it before a worker is stopped, and the calculator's commands."""
    return {"timeout": LIMITS.timeout, "grace": GRACE, "commands": list(COMMANDS)}


def call(name: str, query: str) -> tuple[int, str]:
    """The answer to ``GET /api/NAME?QUERY``, what ``cgf explore``'s server sends, and to
    ``cgf``: ``(HTTP status, JSON text)``. Never raises for what a request holds."""
    status, data = _answer(name, query)
    return status, json.dumps(data, default=str)


def limits_of(name: str, query: str) -> dict[str, Any]:
    """The limit of the call ``name``: ``timeout`` (seconds, ``None`` for none: the rulesets'
    list), ``deadline`` (the timeout plus :data:`GRACE`: past it the page stops the worker)
    and, for ``cgf``, the ``command`` line run."""
    if name == "rulesets":
        return {"timeout": None, "deadline": None, "command": None}
    if name == "cgf":
        try:
            args = _with_limits(_arguments(server.parse_query(query)))
        except (ValueError, server.BadRequest):
            return {"timeout": 0.0, "deadline": GRACE, "command": None}
        timeout = _timeout_of(args)
        return {"timeout": timeout, "deadline": timeout + GRACE, "command": _command(args)}
    timeout = LIMITS.timeout
    return {"timeout": timeout, "deadline": None if timeout is None else timeout + GRACE}


def _command(args: list[str]) -> str:
    return shlex.join(["cgf", *args])


def _answer(name: str, query: str) -> tuple[int, Any]:
    try:
        if name == "rulesets":
            return 200, server.rulesets()
        params = server.parse_query(query)
        if name == "cgf":
            return 200, run_command(_arguments(params))
        route = server.ROUTES.get(f"/api/{name}")
        if route is None:
            raise server.BadRequest(f"no such page: /api/{name[:80]}", 404)
        job = route(LIMITS, params)  # type: ignore[arg-type]
    except server.BadRequest as exc:
        return exc.status, json.loads(exc.body())
    except explorer.ExplorerError as exc:
        return 400, {"error": str(exc)}
    except ValueError as exc:
        return 400, {"error": str(exc)}
    answer = _cache.get(job.key) if job.name in server.CACHED else None
    if answer is not None:
        _cache.move_to_end(job.key)
        return answer
    kind, data, _ = run_call(job.name, job.kwargs)
    answer = server.http_answer(kind, data)
    if job.name in server.CACHED and kind != "error":
        _cache[job.key] = answer
        while len(_cache) > server.CACHE_SIZE:
            _cache.popitem(last=False)
    return answer


def _arguments(params: dict[str, str]) -> list[str]:
    """The calculator's command: ``args``, a JSON list of words."""
    text = params.get("args")
    if text is None:
        raise ValueError("missing parameter 'args'")
    try:
        args = json.loads(text)
    except ValueError:
        raise ValueError("args must be a JSON list of words") from None
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        raise ValueError("args must be a JSON list of words")
    if len(args) > MAX_ARGS:
        raise ValueError(f"a command of {MAX_ARGS} words at most")
    return args


def _given(args: list[str], option: str) -> bool:
    return any(a == option or a.startswith(option + "=") for a in args)


def _with_limits(args: list[str]) -> list[str]:
    """``args`` with the explorer's limits added where the command takes them and the
    words give none: ``--timeout`` (calc, solve) and ``--max-nodes`` (solve)."""
    if not args or args[0] not in COMMANDS:
        return args
    more = []
    if LIMITS.max_nodes is not None and args[0] == "solve" and not _given(args, "--max-nodes"):
        more += ["--max-nodes", str(LIMITS.max_nodes)]
    if LIMITS.timeout is not None and not _given(args, "--timeout"):
        more += ["--timeout", f"{LIMITS.timeout:g}"]
    return [*args, *more]


def _timeout_of(args: list[str]) -> float:
    """The ``--timeout`` the command runs under (its words' last one)."""
    found = LIMITS.timeout or 0.0
    for i, word in enumerate(args):
        value = None
        if word == "--timeout" and i + 1 < len(args):
            value = args[i + 1]
        elif word.startswith("--timeout="):
            value = word.partition("=")[2]
        if value is not None:
            try:
                found = float(value)
            except ValueError:
                pass
    return found if found == found and found < 1e9 else 1e9  # (nan, inf: the page's longest)


def run_command(args: list[str]) -> dict[str, Any]:
    """``cgf ARGS`` in this process (``calc`` or ``solve`` only), under the explorer's limits
    where the words give none: ``{"command", "exit", "stdout", "stderr"}``, what the command
    line would print and its exit code (0, 1 for a false ``--check``, 2 refused, 3 a limit)."""
    from cgframework.cli.commands import main

    args = _with_limits(args)
    command = _command(args)
    if not args or args[0] not in COMMANDS:
        said = f"cgf: error: the browser runs {' and '.join('cgf ' + c for c in COMMANDS)} only"
        return {"command": command, "exit": 2, "stdout": "", "stderr": said}
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            main(args)
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    text = out.getvalue()
    if len(text) > MAX_OUTPUT:
        text = text[:MAX_OUTPUT] + f"\n... ({len(text)} characters: cut)\n"
    return {"command": command, "exit": code, "stdout": text, "stderr": err.getvalue()}


__all__ = ["COMMANDS", "call", "limits", "limits_of", "run_command"]
