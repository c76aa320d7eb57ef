"""Where a sweep's members are solved: in this process, a local process pool, or a Dask
cluster, and the function a worker runs for one member.

Security: a Dask executor runs pickled functions on the workers and unpickles their results
in this process, so whoever controls the scheduler controls both. Use a scheduler you trust
on a trusted network (``tcp://``, ``dask://``), or TLS (``tls://``) with Dask's security
settings. Workers import extra plugin modules only when their own allow-list
(``CGFRAMEWORK_WORKER_PLUGINS``) names them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

import attrs

from cgframework import plugins
from cgframework.game import Player
from cgframework.io import converter
from cgframework.solvers.dispatch import solve
from cgframework.store.database import ValueStore

WORKER_PLUGINS_ENV = "CGFRAMEWORK_WORKER_PLUGINS"
"""Comma-separated plugin modules a Dask worker agrees to import when a client names them."""

_EXECUTOR = re.compile(r"(dask|tcp|tls)://([A-Za-z0-9_.\-]+|\[[0-9A-Fa-f:.]+\]):([0-9]{1,5})")


class SweepError(ValueError):
    """A sweep request that cannot run (bad range, executor, family)."""


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
) -> dict[str, Any]:
    """Solve one member in a worker (process pool or Dask); returns the Solution as JSON data
    so that workers and parent need not share Python objects. With ``store_path`` (a file
    this worker can open) the solver's transposition table reads through the store."""
    for module in extra_plugins:
        if module not in plugins._extra_modules:
            if module not in _allowed_plugins():
                raise plugins.PluginError(
                    f"this worker does not import plugin module {module!r}: it is not in "
                    f"its allow-list {WORKER_PLUGINS_ENV}"
                )
            plugins.load_plugin(module)
    store = None
    if store_path is not None:
        if store_path not in _worker_stores:
            _worker_stores[store_path] = ValueStore(store_path)
        store = _worker_stores[store_path]
    solution = solve(ruleset_name, text, method=method, first=Player(first), store=store)
    return converter.unstructure(solution)


_allowed_in_pool: list[str] = []


def _allowed_plugins() -> set[str]:
    """Plugin modules this process agrees to import for a client: its allow-list
    (``CGFRAMEWORK_WORKER_PLUGINS``), plus, in a local pool's worker, its parent's modules."""
    names = os.environ.get(WORKER_PLUGINS_ENV, "").split(",")
    return {n.strip() for n in names if n.strip()} | set(_allowed_in_pool)


def _pool_worker_start(parent_modules: list[str]) -> None:
    """Initializer of a local pool's worker: the parent (this user's own process) is
    trusted, so its extra plugin modules are allowed."""
    _allowed_in_pool[:] = parent_modules


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


def _executor(
    spec: str, jobs: int, tls: TlsFiles | None = None
) -> tuple[Any, Callable[[], None], Callable[..., Any]]:
    """(an object with ``submit(fn, *args) -> future``, a shutdown function, and an
    ``as_completed(futures)`` for its futures)."""
    address = check_executor(spec)
    if address == "local":
        return None, lambda: None, as_completed
    if address == "processes":
        pool = ProcessPoolExecutor(
            max_workers=max(1, jobs),
            initializer=_pool_worker_start,
            initargs=(list(plugins._extra_modules),),
        )
        return pool, lambda: pool.shutdown(wait=False, cancel_futures=True), as_completed
    try:
        from distributed import Client
        from distributed import as_completed as dask_completed
    except ImportError:
        raise SweepError(
            "the dask executor needs the optional extra: pip install 'cgframework[dask]'"
        ) from None
    security = _security(address, tls)
    try:
        client = Client(address, timeout="5s", security=security)
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        raise SweepError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    return client, client.close, dask_completed
