"""``cgf explore``'s worker processes: the explorer's calls run one at a time in a process of
their own, so that every piece of a request's work has a deadline and a memory ceiling that
hold whatever a plugin does.

The explorer's own work looks at its clock between steps (:mod:`cgframework.display.explorer`)
and stops at the deadline; but one call into a plugin (a parser, an options generator, a
picture) may not return for minutes, and a thread cannot be stopped. A process can: past its
deadline and a grace (:data:`GRACE`), the server kills the worker and starts another. Each
worker runs under the memory ceiling (``--max-memory``: ``RLIMIT_DATA`` and the value
builder's check, :mod:`cgframework.runtime.memory`), and leaves after any answer that found it
past :data:`RECYCLE_FRACTION` of it, so that its caches cannot crowd out the next request.

Workers are forked from a ``forkserver`` that imported the core and the plugins first (a new
worker is ready in some 40 ms), where the platform has one; else they are spawned.
"""

from __future__ import annotations

import multiprocessing
import sys
import threading
import time
from multiprocessing.connection import Connection
from typing import Any

GRACE = 0.5
"""Seconds a worker may run past a call's deadline (to send what it found) before it is
killed."""
START_SECONDS = 60.0
"""Seconds a new worker may take to be ready (the first one starts the forkserver, which
imports the core and the plugins)."""
RECYCLE_FRACTION = 0.5
"""A worker whose resident memory passed this fraction of its ceiling after an answer is
replaced (its caches go with it)."""

CALLS = ("outline", "outcome", "node", "move_at", "edit_cell")
"""The explorer functions a worker runs (:mod:`cgframework.display.explorer`)."""


class WorkerBusy(Exception):
    """The worker stayed busy for as long as the request would wait."""


# ---- the worker process ----------------------------------------------------------------------
def serve(conn: Connection, ceiling: int | None) -> None:
    """The worker's main loop: ``(call, kwargs)`` in, ``(kind, data, leaving)`` out (``leaving``:
    the worker stops after this answer, to free its memory), where ``kind`` is ``ok`` (the
    call's answer), ``bad`` (:class:`~cgframework.display.explorer.ExplorerError`: the
    request's fault), ``limit`` (out of memory, or a limit outside the node's own
    handling) or ``error`` (anything else: a plugin's exception)."""
    from cgframework.display import explorer
    from cgframework.plugins import get_registry
    from cgframework.runtime import memory

    memory.set_limit(ceiling)
    get_registry()
    conn.send(("ready", None))
    while True:
        try:
            call, kwargs = conn.recv()
        except (EOFError, OSError):  # the server is gone
            return
        leave = False
        try:
            if call not in CALLS:
                raise explorer.ExplorerError(f"no explorer call {call!r}")
            reply: tuple[str, Any] = ("ok", getattr(explorer, call)(**kwargs))
        except explorer.ExplorerError as exc:
            reply = ("bad", _line(str(exc)))
        except MemoryError:
            reply, leave = ("limit", memory.exhausted_message()), True
        except Exception as exc:  # (LimitExceeded included: a limit outside a solve)
            from cgframework.runtime.budget import LimitExceeded

            kind = "limit" if isinstance(exc, LimitExceeded) else "error"
            reply = (kind, _line(f"{type(exc).__name__}: {exc}" if kind == "error" else str(exc)))
        size = memory.limit()
        leave = leave or (size is not None and memory.resident_bytes() > RECYCLE_FRACTION * size)
        try:
            conn.send((*reply, leave))
        except MemoryError:
            conn.send(("limit", memory.exhausted_message(), True))
            return
        if leave:
            return


def _line(text: str) -> str:
    return " ".join(text.split())[:300]


# ---- the server's side ----------------------------------------------------------------------
def _context() -> Any:
    """The forkserver context, its server importing what the explorer needs first (the
    plugins the registry loaded included); spawn where there is no forkserver."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    from cgframework.plugins import get_registry

    get_registry()
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(
        sorted(
            name
            for name in list(sys.modules)
            if name.split(".")[0].startswith("cgframework") and ".cli" not in name
        )
    )
    return context


class Worker:
    """One worker process and the lock that makes its calls one at a time. ``call`` waits
    at most ``wait`` seconds for the worker (then :class:`WorkerBusy`), gives the call
    ``timeout`` seconds and kills the worker :data:`GRACE` seconds past them."""

    def __init__(self, name: str, ceiling: int | None) -> None:
        self.name = name
        self.ceiling = ceiling
        self.lock = threading.Lock()
        self._process: Any = None
        self._conn: Connection | None = None
        self._context: Any = None

    def start(self) -> None:
        """Have a worker ready (call holding ``lock``)."""
        if self._process is not None and self._process.is_alive():
            return
        self.stop()
        if self._context is None:
            self._context = _context()
        here, there = self._context.Pipe()
        process = self._context.Process(
            target=serve, args=(there, self.ceiling), name=f"cgf-explore-{self.name}", daemon=True
        )
        process.start()
        there.close()
        if not here.poll(START_SECONDS) or here.recv()[0] != "ready":
            process.kill()
            here.close()
            raise RuntimeError(f"the {self.name} worker did not start")
        self._process, self._conn = process, here

    def stop(self) -> None:
        """Kill the worker (if any); the next call starts another."""
        process, conn = self._process, self._conn
        self._process = self._conn = None
        if conn is not None:
            conn.close()
        if process is not None:
            if process.is_alive():
                process.kill()
            process.join(5)
            process.close()

    def call(
        self, call: str, kwargs: dict[str, Any], wait: float, timeout: float | None
    ) -> tuple[str, Any]:
        """``explorer.<call>(**kwargs)`` in the worker: ``(kind, data)`` as :func:`serve`
        answers, or ``("limit", message)`` when the worker was killed past the deadline, or
        ``("error", message)`` when it died."""
        if not self.lock.acquire(timeout=wait):
            raise WorkerBusy(self.name)
        try:
            try:
                self.start()
            except Exception as exc:
                return "error", f"the explorer's worker could not start: {exc}"
            conn = self._conn
            assert conn is not None
            began = time.monotonic()
            try:
                conn.send((call, kwargs))
                ready = conn.poll(None if timeout is None else timeout + GRACE)
                reply = conn.recv() if ready else None
            except (EOFError, OSError):  # the worker died (or left after its answer)
                reply = None
                ready = True
            if reply is None:
                self.stop()
                if not ready:
                    spent = time.monotonic() - began
                    return "limit", (
                        f"stopped after {spent:.1f} s: past the {timeout:g} s limit (--timeout)"
                    )
                return "error", "the explorer's worker stopped (out of memory?)"
            kind, data, leaving = reply
            if leaving:
                self.stop()
            return kind, data
        finally:
            self.lock.release()
