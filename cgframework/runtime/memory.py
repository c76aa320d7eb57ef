"""A memory ceiling for the process: ``cgf --max-memory SIZE`` (default: half the machine's).

Two guards share one ceiling:

- the operating system's: :func:`set_limit` sets the soft ``RLIMIT_DATA`` (the heap and every
  private writable mapping; unlike ``RLIMIT_AS`` it leaves shared libraries and mapped files,
  such as sqlite's, alone) to the ceiling plus :data:`STACK_ALLOWANCE`, the address space the
  deep-recursion thread reserves for its stack (mostly never touched). An allocation past it
  fails as ``MemoryError`` wherever it happens, which ``cgf`` reports in one line (exit 3).
  Child processes (``--jobs`` workers, a Dask cluster's) inherit the limit, each its own.
- the value builder's: every few hundred new canonical forms, :func:`check` compares the
  process's resident memory with the ceiling and raises :class:`MemoryLimitExceeded` (a
  :class:`~cgframework.runtime.budget.LimitExceeded`, exit 3) naming it, before the system's
  limit is met in the middle of a C kernel's tables.

Only the command line applies a ceiling; ``import cgframework`` sets none, and
:func:`set_limit` ``(None)`` lifts the soft limit back to the hard one. The hard limit is never
lowered, so a ceiling can always be raised again.

Where Python has no ``resource`` module (Pyodide, in a browser) neither guard holds: no
system limit can be set, and resident memory is unknown (0). The browser's own limit (a
WebAssembly memory of 4 GB at most) then ends the work with a ``MemoryError``.
"""

from __future__ import annotations

import os
import re
import sys

try:
    import resource
except ImportError:  # (Pyodide, WASI: no resource limits to set)
    resource = None  # type: ignore[assignment]

from cgframework.runtime.budget import LimitExceeded
from cgframework.runtime.deep import DEEP_STACK_BYTES

ENV_VAR = "CGF_MAX_MEMORY"
"""The environment variable that gives ``--max-memory``'s value when the option is not given."""

DEFAULT_FRACTION = 0.5
"""The default ceiling: this fraction of the machine's memory (MemTotal in ``/proc/meminfo``,
or the cgroup's memory limit when that is smaller: a container's share)."""

MIN_LIMIT = 64 << 20
"""The smallest ceiling accepted: the interpreter and the core need some 40 MB to start."""

STACK_ALLOWANCE = DEEP_STACK_BYTES
"""Address space added to the system limit for the deep-recursion thread's stack reservation."""

CHECK_FRACTION = 0.9
"""The value builder refuses once resident memory passes this fraction of the ceiling."""

_UNITS = {"": 1, "B": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*([KMGT]?)(?:I?B)?", re.IGNORECASE)

_state: dict[str, int | None] = {"limit": None}


class MemoryLimitExceeded(LimitExceeded):
    """Work that would pass the memory ceiling (``cgf`` exit code 3)."""


def parse_size(text: str) -> int | None:
    """Bytes for ``2G``, ``500M``, ``1.5G``, ``64MiB``, ``1073741824`` (K, M, G, T are powers
    of 1024), or ``None`` for ``none`` (no ceiling). ``ValueError`` for anything else, or a
    size under :data:`MIN_LIMIT`."""
    word = text.strip()
    if word.lower() in ("none", "unlimited", "off"):
        return None
    found = _SIZE.fullmatch(word)
    if not found:
        raise ValueError(f"bad memory size {text!r}: use e.g. 2G, 500M or none")
    size = int(float(found.group(1)) * _UNITS[found.group(2).upper()])
    if size < MIN_LIMIT:
        raise ValueError(f"memory size {text!r} is below the minimum of {format_size(MIN_LIMIT)}")
    if size >= 1 << 62:
        raise ValueError(f"memory size {text!r} is too large: use none for no ceiling")
    return size


def format_size(size: int) -> str:
    """``12 GB``, ``1.5 GB``, ``500 MB`` (powers of 1024), for messages."""
    for unit, scale in (("TB", 1 << 40), ("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if size >= scale:
            return f"{size / scale:.1f}".removesuffix(".0") + f" {unit}"
    return f"{size} bytes"


def machine_memory() -> int | None:
    """The memory this process may use at most: MemTotal, or the cgroup's limit (v2
    ``memory.max`` or v1 ``memory.limit_in_bytes``) when smaller; ``None`` if unknown."""
    sizes = []
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemTotal:"):
                    sizes.append(int(line.split()[1]) * 1024)
                    break
    except (OSError, ValueError, IndexError):
        pass
    for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            with open(path, encoding="ascii") as limit:
                text = limit.read().strip()
        except (OSError, ValueError):
            continue
        if text.isdigit() and int(text) < 1 << 60:  # "max", or v1's "no limit" 2^63 - 4096
            sizes.append(int(text))
    return min(sizes) if sizes else None


def default_limit() -> int | None:
    """:data:`DEFAULT_FRACTION` of :func:`machine_memory` (``None`` when that is unknown)."""
    total = machine_memory()
    return None if total is None else max(MIN_LIMIT, int(total * DEFAULT_FRACTION))


def limit() -> int | None:
    """The ceiling in force (bytes), or ``None``."""
    return _state["limit"]


def ceiling() -> int | None:
    """The memory the process may use, for sizing tables: the ceiling in force, else
    :func:`default_limit` (``import cgframework`` sets none), or ``None`` when neither is
    known."""
    size = limit()
    return default_limit() if size is None else size


def set_limit(size: int | None) -> int | None:
    """Set the ceiling to ``size`` bytes (``None``: none) and return the previous one. The
    soft ``RLIMIT_DATA`` becomes ``size`` + :data:`STACK_ALLOWANCE` (never above the hard
    limit); with ``None`` it goes back to the hard limit."""
    previous = _state["limit"]
    if size is not None and size < MIN_LIMIT:
        raise ValueError(f"a memory ceiling must be at least {format_size(MIN_LIMIT)}")
    kind = getattr(resource, "RLIMIT_DATA", None)  # (None without the resource module)
    if kind is not None:
        _soft, hard = resource.getrlimit(kind)
        soft = hard if size is None else size + STACK_ALLOWANCE
        if hard != resource.RLIM_INFINITY and soft != resource.RLIM_INFINITY:
            soft = min(soft, hard)
        try:
            resource.setrlimit(kind, (soft, hard))
        except (ValueError, OSError):  # a system that refuses: the value guard still holds
            pass
    _state["limit"] = size
    return previous


def resident_bytes() -> int:
    """The process's resident memory now (Linux ``/proc/self/statm``), else its peak; 0
    where neither is known (no ``resource`` module)."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        if resource is None:
            return 0
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024


def check(what: str) -> None:
    """Raise :class:`MemoryLimitExceeded` naming ``what`` if resident memory has passed
    :data:`CHECK_FRACTION` of the ceiling (nothing to do without one)."""
    size = _state["limit"]
    if size is not None and resident_bytes() > CHECK_FRACTION * size:
        raise MemoryLimitExceeded(
            f"out of memory: {what} would pass the {format_size(size)} limit (--max-memory)"
        )


def exhausted_message() -> str:
    """The one line for a ``MemoryError``: the ceiling it hit, when there is one."""
    size = _state["limit"]
    if size is None:
        return "out of memory (limit): try --max-memory, --max-nodes or --timeout"
    return f"out of memory: over the {format_size(size)} limit (--max-memory)"


__all__ = [
    "ENV_VAR",
    "MemoryLimitExceeded",
    "ceiling",
    "check",
    "default_limit",
    "exhausted_message",
    "format_size",
    "limit",
    "machine_memory",
    "parse_size",
    "resident_bytes",
    "set_limit",
]
