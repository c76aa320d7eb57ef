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

A worker is ``python -m cgframework.display.worker FD CEILING``, a fresh interpreter (never a
fork of the server's threads, nor a re-import of the script that started the server) talking
pickles over one end of a socket pair. A new worker is started in the background while the
worker's lock stays held, so that a request waiting for it answers 202 after its ``wait``
rather than past its deadline.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection
from typing import Any

GRACE = 0.5
"""Seconds a worker may run past a call's deadline (to send what it found) before it is
killed."""
START_SECONDS = 60.0
"""Seconds a new worker may take to be ready (to import the core and the plugins: about a
second)."""
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
    import cgframework.display.explorer  # noqa: F401 (loaded before the worker says ready)
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
        *reply, leave = run_call(call, kwargs)
        size = memory.limit()
        leave = leave or (size is not None and memory.resident_bytes() > RECYCLE_FRACTION * size)
        try:
            conn.send((*reply, leave))
        except MemoryError:
            conn.send(("limit", memory.exhausted_message(), True))
            return
        if leave:
            return


def run_call(call: str, kwargs: dict[str, Any]) -> tuple[str, Any, bool]:
    """``explorer.<call>(**kwargs)`` as ``(kind, data, out_of_memory)``, ``kind`` as
    :func:`serve` answers it (the browser's page calls this in its own Python too:
    :mod:`cgframework.cli.browser`)."""
    from cgframework.display import explorer
    from cgframework.runtime import memory
    from cgframework.runtime.budget import LimitExceeded

    try:
        if call not in CALLS:
            raise explorer.ExplorerError(f"no explorer call {call!r}")
        return "ok", getattr(explorer, call)(**kwargs), False
    except explorer.ExplorerError as exc:
        return "bad", _line(str(exc)), False
    except MemoryError:
        return "limit", memory.exhausted_message(), True
    except Exception as exc:  # (LimitExceeded included: a limit outside a solve)
        if isinstance(exc, LimitExceeded):
            return "limit", _line(str(exc)), False
        return "error", _line(f"{type(exc).__name__}: {exc}"), False


def _line(text: str) -> str:
    return " ".join(text.split())[:300]


# ---- the server's side ----------------------------------------------------------------------
class Worker:
    """One worker process and the lock that makes its calls one at a time. ``call`` waits
    at most ``wait`` seconds for the worker (then :class:`WorkerBusy`), gives the call
    ``timeout`` seconds and kills the worker :data:`GRACE` seconds past them."""

    def __init__(self, name: str, ceiling: int | None) -> None:
        self.name = name
        self.ceiling = ceiling
        self.lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._conn: Connection | None = None
        self._closed = False

    def start_soon(self) -> None:
        """Start a worker on a thread of its own, holding the lock until it is ready (the
        thread releases it: a request waiting for the worker meanwhile sees it busy)."""
        self.lock.acquire()
        self._start_holding_lock()

    def _start_holding_lock(self) -> None:
        """(Called holding the lock.) Start a worker on a thread that releases the lock
        when the worker is ready, or could not start."""

        def starting() -> None:
            try:
                self._start()
            except Exception:  # (the next call tries again and says why)
                pass
            finally:
                self.lock.release()

        name = f"cgf-explore-{self.name}-start"
        threading.Thread(target=starting, name=name, daemon=True).start()

    def _start(self) -> None:
        """A new worker, ready (call holding the lock)."""
        self.stop()
        here, there = socket.socketpair()
        with there:
            process = subprocess.Popen(
                [sys.executable, "-m", "cgframework.display.worker", str(there.fileno())]
                + [str(self.ceiling or 0)],
                pass_fds=[there.fileno()],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env={
                    **os.environ,
                    "PYTHONPATH": os.pathsep.join(p or os.getcwd() for p in sys.path),
                },
            )
        conn = Connection(here.detach())
        try:
            ready = conn.poll(START_SECONDS) and conn.recv() == ("ready", None)
        except (EOFError, OSError):
            ready = False
        if not ready or self._closed:
            process.kill()
            process.wait()
            conn.close()
            raise RuntimeError(f"the {self.name} worker did not start")
        self._process, self._conn = process, conn

    def close(self) -> None:
        """Kill the worker, and any worker starting from now on (the server stops)."""
        self._closed = True
        self.stop()

    def stop(self) -> None:
        """Kill the worker (if any)."""
        process, conn = self._process, self._conn
        self._process = self._conn = None
        if conn is not None:
            conn.close()
        if process is not None:
            process.kill()
            process.wait()

    def call(
        self, call: str, kwargs: dict[str, Any], wait: float, timeout: float | None
    ) -> tuple[str, Any]:
        """``explorer.<call>(**kwargs)`` in the worker: ``(kind, data)`` as :func:`serve`
        answers, or ``("limit", message)`` when the worker was killed past the deadline, or
        ``("error", message)`` when it died or could not start."""
        if not self.lock.acquire(timeout=wait):
            raise WorkerBusy(self.name)
        replaced = False
        try:
            if self._closed:
                return "error", "the server is stopping"
            if self._conn is None:
                try:
                    self._start()
                except Exception as exc:
                    return "error", f"the explorer's worker could not start: {exc}"
            conn = self._conn
            assert conn is not None
            began = time.monotonic()
            try:
                conn.send((call, kwargs))
                ready = conn.poll(None if timeout is None else timeout + GRACE)
                reply = conn.recv() if ready else None
            except (EOFError, OSError):  # the worker died
                reply, ready = None, True
            if reply is None or reply[2]:  # killed, dead or leaving: another one, in the
                self.stop()  # background, the lock handed to the thread that starts it
                self._start_holding_lock()
                replaced = True
            if reply is None and not ready:
                spent = time.monotonic() - began
                return (
                    "limit",
                    f"stopped after {spent:.1f} s: past the {timeout:g} s limit (--timeout)",
                )
            if reply is None:
                return "error", "the explorer's worker stopped (out of memory?)"
            return reply[0], reply[1]
        finally:
            if not replaced:
                self.lock.release()


def main(argv: list[str]) -> None:
    """The worker's entry point: ``FD CEILING`` (0: no ceiling)."""
    ceiling = int(argv[1])
    serve(Connection(int(argv[0])), ceiling or None)


if __name__ == "__main__":
    main(sys.argv[1:])
