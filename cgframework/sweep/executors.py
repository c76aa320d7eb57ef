"""Where a sweep's members are solved: in this process, a local process pool, or a Dask
cluster, and the function a worker runs for one member.

Security: a Dask executor runs pickled functions on the workers and unpickles their results
in this process, so whoever controls the scheduler controls both. A scheduler on this machine
(loopback: 127.0.0.0/8, ``::1``, ``localhost``) may use plain ``tcp://``; any other needs
``tls://`` with a client certificate (:func:`check_cluster_trust`), unless the user says
``insecure``. Workers import extra plugin modules only when their own allow-list
(``CGFRAMEWORK_WORKER_PLUGINS``) names them.

Workers that die: a local pool's workers die with their parent (:func:`_pool_worker_start`);
a cluster that loses its workers stops the sweep (:class:`WorkersLost`, exit 3) instead of
leaving it waiting (:func:`cluster_results`); a task whose worker died is computed again
elsewhere (by the scheduler, then, for a proof's lemmas, by resubmitting it).
"""

from __future__ import annotations

import ctypes
import ipaddress
import multiprocessing
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

import attrs

from cgframework import plugins
from cgframework.game import Player
from cgframework.io import converter
from cgframework.runtime.budget import LimitExceeded, SearchBudget
from cgframework.runtime.cache import SharedMemo, TranspositionTable
from cgframework.solvers.dispatch import solve
from cgframework.store.database import ValueStore

WORKER_PLUGINS_ENV = "CGFRAMEWORK_WORKER_PLUGINS"
"""Comma-separated plugin modules a Dask worker agrees to import when a client names them."""

_EXECUTOR = re.compile(r"(dask|tcp|tls)://([A-Za-z0-9_.\-]+|\[[0-9A-Fa-f:.]+\]):([0-9]{1,5})")


class SweepError(ValueError):
    """A sweep request that cannot run (bad range, executor, family)."""


class WorkersLost(LimitExceeded):
    """The cluster lost its workers (or its scheduler) mid-sweep: exit 3, what finished kept."""


SWEEP_KEPT = "the finished members are kept, run the sweep again to resume"
"""How a sweep's :class:`WorkersLost` message ends."""


@attrs.frozen
class TlsFiles:
    """Certificate files for a ``tls://`` scheduler; unset ones come from Dask's config
    (``distributed.comm.tls.*``)."""

    ca_file: str | None = None
    cert: str | None = None
    key: str | None = None


_worker_stores: dict[str, ValueStore] = {}


def solve_member(
    ruleset_name: str,
    text: str,
    method: str,
    first: str,
    extra_plugins: list[str],
    store_path: str | None = None,
    misere: bool = False,
    memo: SharedMemo | None = None,
) -> dict[str, Any]:
    """Solve one member in a worker (process pool or Dask); returns the Solution as JSON data
    so that workers and parent need not share Python objects. With ``store_path`` (a file
    this worker can open) the solver's transposition table reads through the store; in
    misère play (``misere``) the member is solved by the misère search, which uses none.
    Without a store, ``memo`` (in this process: the sweep's :class:`SharedMemo`) lends the
    values earlier members found to an ``auto`` solve."""
    load_worker_plugins(extra_plugins)
    if misere:
        solution = solve(ruleset_name, text, method=method, first=Player(first), misere=True)
        return converter.unstructure(solution)
    store = None
    if store_path is not None:
        if store_path not in _worker_stores:
            _worker_stores[store_path] = ValueStore(store_path)
        store = _worker_stores[store_path]
    table = None
    if store is None and memo is not None and method == "auto":
        table = TranspositionTable(backing=memo)
    solution = solve(
        ruleset_name, text, method=method, first=Player(first), store=store, table=table
    )
    return converter.unstructure(solution)


def load_worker_plugins(extra_plugins: list[str]) -> None:
    """In a worker: import the client's extra plugin modules this worker allows (see
    :func:`_allowed_plugins`); any other is a :class:`~cgframework.plugins.PluginError`."""
    for module in extra_plugins:
        if module not in plugins._extra_modules:
            if module not in _allowed_plugins():
                raise plugins.PluginError(
                    f"this worker does not import plugin module {module!r}: it is not in "
                    f"its allow-list {WORKER_PLUGINS_ENV}"
                )
            plugins.load_plugin(module)


_allowed_in_pool: list[str] = []


def _allowed_plugins() -> set[str]:
    """Plugin modules this process agrees to import for a client: its allow-list
    (``CGFRAMEWORK_WORKER_PLUGINS``), plus, in a local pool's worker, its parent's modules."""
    names = os.environ.get(WORKER_PLUGINS_ENV, "").split(",")
    return {n.strip() for n in names if n.strip()} | set(_allowed_in_pool)


PR_SET_PDEATHSIG = 1
"""``prctl`` option (linux/prctl.h): the signal this process gets when its parent dies."""

PARENT_POLL_SECONDS = 0.5
"""How often a pool worker without ``PR_SET_PDEATHSIG`` looks whether its parent is alive."""


def _pool_worker_start(parent_modules: list[str], parent_pid: int) -> None:
    """Initializer of a local pool's worker: the parent (this user's own process) is
    trusted, so its extra plugin modules are allowed; and the worker dies with it, so that
    a killed ``cgf sweep`` leaves no worker computing on."""
    _allowed_in_pool[:] = parent_modules
    _die_with_parent(parent_pid)


def _die_with_parent(parent_pid: int) -> None:
    """SIGKILL this process when ``parent_pid`` ends: ``PR_SET_PDEATHSIG`` on Linux (then a
    look at the parent, in case it died before the call), a watchdog thread elsewhere."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            armed = libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
        except (OSError, AttributeError):
            armed = False
        if armed:
            if os.getppid() != parent_pid:  # the parent died before prctl: nobody signals
                os.kill(os.getpid(), signal.SIGKILL)
            return
    threading.Thread(target=_watch_parent, args=(parent_pid,), daemon=True).start()


def _watch_parent(parent_pid: int) -> None:
    """Poll the parent's id; once this process is re-parented, its parent is gone."""
    while os.getppid() == parent_pid:
        time.sleep(PARENT_POLL_SECONDS)
    os.kill(os.getpid(), signal.SIGKILL if hasattr(signal, "SIGKILL") else signal.SIGTERM)


def _pool_context() -> Any:
    """The platform's start method, except ``forkserver`` (its workers are the server's
    children, not this process's, so they could not watch this process): ``spawn`` then."""
    context = multiprocessing.get_context()
    if context.get_start_method() == "forkserver":
        context = multiprocessing.get_context("spawn")
    return context


def check_executor(spec: str) -> str:
    """Validate an executor spec: ``local``, ``processes``, or ``dask://``, ``tcp://`` or
    ``tls://HOST:PORT``; returns the scheduler address (``tcp://`` or ``tls://``) or the
    spec itself."""
    if spec in ("local", "processes"):
        return spec
    match = _EXECUTOR.fullmatch(spec)
    if match is None or not 0 < int(match.group(3)) < 65536:
        raise SweepError(
            f"bad executor {spec!r} (local, processes, dask://HOST:PORT or tls://HOST:PORT)"
        )
    scheme = "tls" if match.group(1) == "tls" else "tcp"
    return f"{scheme}://{match.group(2)}:{match.group(3)}"


def is_loopback(address: str) -> bool:
    """Is the scheduler address (``tcp://HOST:PORT`` or ``tls://...``) on this machine:
    127.0.0.0/8, ``::1`` or ``localhost``? (Names are not resolved: any other is remote.)"""
    host = address.split("://", 1)[1].rsplit(":", 1)[0].strip("[]").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _has_client_certificate(tls: TlsFiles | None) -> bool:
    """A client certificate given here, or in Dask's config (``distributed.comm.tls.client``)."""
    if tls is not None and tls.cert:
        return True
    try:
        import dask.config
    except ImportError:
        return False
    return bool(dask.config.get("distributed.comm.tls.client.cert", None))


def check_cluster_trust(address: str, tls: TlsFiles | None, insecure: bool) -> None:
    """Refuse a scheduler off this machine unless it is reached over ``tls://`` with a client
    certificate: whoever reaches a scheduler runs code on it and its workers, and forges
    their results. ``insecure`` accepts any."""
    if address in ("local", "processes") or insecure or is_loopback(address):
        return
    if address.startswith("tls://") and _has_client_certificate(tls):
        return
    raise SweepError(
        f"the Dask scheduler {address} is not on loopback (127.0.0.0/8, ::1, localhost): "
        "use tls://HOST:PORT with a "
        "client certificate (--tls-cert, --tls-key, --tls-ca, or Dask's distributed.comm.tls "
        "config), or --insecure if anyone who can reach it may run code and forge results"
    )


def _security(address: str, tls: TlsFiles | None) -> Any:
    """Dask's Security for a ``tls://`` address (files given here, else Dask's config)."""
    from distributed.security import Security

    if not address.startswith("tls://"):
        if tls is not None and (tls.ca_file or tls.cert or tls.key):
            raise SweepError("TLS certificate files need a tls://HOST:PORT scheduler")
        return None
    if tls is None or not (tls.ca_file or tls.cert or tls.key):
        return Security(require_encryption=True)  # distributed.comm.tls.* from the config
    for path in (tls.ca_file, tls.cert, tls.key):
        if path is not None and not os.path.isfile(path):
            raise SweepError(f"no TLS file {path!r}")
    return Security(
        tls_ca_file=tls.ca_file,
        tls_client_cert=tls.cert,
        tls_client_key=tls.key,
        require_encryption=True,
    )


def _executor(spec: str, jobs: int, tls: TlsFiles | None = None) -> tuple[Any, Callable[[], None]]:
    """(an object with ``submit(fn, *args) -> future``, or None to run here; a shutdown
    function)."""
    address = check_executor(spec)
    if address == "local":
        return None, lambda: None
    if address == "processes":
        pool = ProcessPoolExecutor(
            max_workers=max(1, jobs),
            mp_context=_pool_context(),
            initializer=_pool_worker_start,
            initargs=(list(plugins._extra_modules), os.getpid()),
        )
        return pool, lambda: pool.shutdown(wait=False, cancel_futures=True)
    try:
        from distributed import Client
    except ImportError:
        raise SweepError(
            "the dask executor needs the optional extra: pip install 'cgframework[dask]'"
        ) from None
    security = _security(address, tls)
    if address.startswith("tcp://"):
        probe_scheduler(address)
    try:
        client = Client(address, timeout="5s", security=security)
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        raise SweepError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    return client, client.close


PROBE_SECONDS = 5.0
"""How long a ``tcp://`` scheduler has to greet a new connection (:func:`probe_scheduler`)."""

GREETING_MAX_BYTES = 1 << 20
"""The largest first message a Dask scheduler's greeting may announce (it is a few hundred
bytes): more is not a Dask scheduler."""


def probe_scheduler(address: str) -> None:
    """Refuse, before Dask's client connects, an address where no Dask scheduler answers: a
    Dask peer greets a new connection at once with a framed message (an 8-byte length, then
    the message), so a silent server (which would leave the client waiting) or another
    protocol (whose first bytes, read as a length, ask for exabytes) is a :class:`SweepError`
    within :data:`PROBE_SECONDS`."""
    import socket
    import struct

    host, port = address.split("://", 1)[1].rsplit(":", 1)
    try:
        with socket.create_connection((host.strip("[]"), int(port)), PROBE_SECONDS) as sock:
            sock.settimeout(PROBE_SECONDS)
            header = b""
            while len(header) < 8:
                chunk = sock.recv(8 - len(header))
                if not chunk:
                    break
                header += chunk
    except TimeoutError:
        raise SweepError(
            f"no Dask scheduler answered at {address} within {PROBE_SECONDS:g} s"
        ) from None
    except OSError as exc:
        raise SweepError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    if len(header) < 8 or not 0 < struct.unpack("<Q", header)[0] <= GREETING_MAX_BYTES:
        raise SweepError(f"{address} does not answer as a Dask scheduler")


CLUSTER_POLL_SECONDS = 0.5
"""How often a cluster sweep waiting for results looks whether the cluster has workers."""


def _cluster_failures() -> tuple[type[BaseException], ...]:
    """Future errors that mean the cluster, not the member, failed."""
    from concurrent.futures import CancelledError

    from distributed import KilledWorker
    from distributed.comm.core import CommClosedError

    return (KilledWorker, CommClosedError, CancelledError)


def _has_workers(client: Any) -> bool:
    """Does the scheduler answer, with at least one worker?"""
    if client.status != "running":
        return False
    try:
        return bool(client.nthreads(callback_timeout=CLUSTER_POLL_SECONDS * 4))
    except (OSError, TimeoutError) + _cluster_failures():
        return False


def cluster_results(
    client: Any,
    futures: list[Any],
    address: str,
    grace: float,
    budget: SearchBudget | None = None,
    resubmit: Callable[[Any], Any] | None = None,
    kept: str = SWEEP_KEPT,
) -> Iterator[tuple[Any, Any]]:
    """(future, result) for each of a cluster's ``futures`` as it finishes. When the cluster
    has no worker (or no scheduler) for ``grace`` seconds, or a future fails because a worker
    died or the connection closed, :class:`WorkersLost`: a sweep stops instead of waiting.
    Past ``budget``'s deadline (this machine's clock), its :class:`SearchStopped`.

    A task whose worker dies is first computed again by the scheduler itself, on another
    worker (up to its ``distributed.scheduler.allowed-failures``, 3 by default); when the
    scheduler gives up on it (``KilledWorker``), ``resubmit(future)``, if given, returns the
    new future that takes its place (or raises, past its own bound), and the wait goes on.
    :class:`WorkersLost`'s message ends with ``kept`` (what stays, how to resume)."""
    from distributed import KilledWorker, wait

    remaining = set(futures)
    last_worker = time.monotonic()
    while remaining:
        if budget is not None:
            budget.check_time()
        try:
            done = wait(
                list(remaining), timeout=CLUSTER_POLL_SECONDS, return_when="FIRST_COMPLETED"
            )
            finished = list(done.done)
        except TimeoutError:
            finished = []
        except _cluster_failures() as exc:  # the scheduler went away: its futures cancelled
            raise _lost(address, exc, kept) from None
        arrived = False
        for future in finished:
            try:
                # A result whose worker has just gone is computed again: wait for it then.
                result = future.result(timeout=grace)
            except TimeoutError:
                continue
            except KilledWorker as exc:
                if resubmit is None:
                    raise _lost(address, exc, kept) from None
                remaining.discard(future)
                remaining.add(resubmit(future))
                continue
            except _cluster_failures() as exc:
                raise _lost(address, exc, kept) from None
            remaining.discard(future)
            arrived = True
            yield future, result
        if arrived or _has_workers(client):  # results coming in: it has workers
            last_worker = time.monotonic()
        elif time.monotonic() - last_worker > grace:
            named = " (--worker-grace)" if kept == SWEEP_KEPT else ""
            raise WorkersLost(
                f"the Dask cluster at {address} has had no worker for {grace:g} s{named}; {kept}"
            )


def local_results(futures: list[Any], kept: str) -> Iterator[tuple[Any, Any]]:
    """(future, result) for each of a local pool's ``futures`` as it finishes. A worker that
    died (killed, out of memory) breaks the pool: :class:`WorkersLost`, its message ending
    with ``kept`` (what stays, how to resume)."""
    from concurrent.futures.process import BrokenProcessPool

    try:
        for future in as_completed(futures):
            yield future, future.result()
    except BrokenProcessPool:
        raise WorkersLost(f"a worker process died (killed, or out of memory?); {kept}") from None


def _lost(address: str, exc: BaseException, kept: str) -> WorkersLost:
    return WorkersLost(
        f"the Dask cluster at {address} lost a worker or the connection "
        f"({type(exc).__name__}); {kept}"
    )


def run_with_plugins(extra_plugins: list[str], fn: Callable[[Any], Any], task: Any) -> Any:
    """In a worker: the client's extra plugin modules imported (as this worker allows them:
    :func:`load_worker_plugins`), then ``fn(task)``."""
    load_worker_plugins(extra_plugins)
    return fn(task)


def stop_pool(pool: Any, kill: bool) -> None:
    """End a local pool; with ``kill``, its workers first (they may be running tasks no longer
    wanted: a pool cannot cancel a running task)."""
    if kill:
        for process in list(getattr(pool, "_processes", {}).values()):
            process.kill()
    pool.shutdown(wait=True, cancel_futures=True)  # (reaped: their CPU is counted)


def pool_results(
    fn: Callable[[Any], Any], tasks: list[Any], jobs: int, kept: str
) -> tuple[Iterator[Any], Callable[[], None]]:
    """``fn(task)`` of each task in a local pool of ``jobs`` processes (no more than CPUs or
    tasks), as ``cgf sweep``'s: its workers import this process's extra plugin modules and
    die with it. The results as they finish, and the function that stops the rest (running
    tasks killed). A worker that dies (killed, out of memory) is :class:`WorkersLost`, whose
    message ends with ``kept`` (what stays, how to resume)."""
    workers = max(1, min(jobs, len(tasks), os.cpu_count() or 1))
    pool, _ = _executor("processes", workers)
    extra = list(plugins._extra_modules)
    futures = [pool.submit(run_with_plugins, extra, fn, task) for task in tasks]

    results = (result for _, result in local_results(futures, kept))

    def stop() -> None:
        left = [future for future in futures if not future.done()]
        for future in left:
            future.cancel()
        stop_pool(pool, kill=bool(left))

    return results, stop
