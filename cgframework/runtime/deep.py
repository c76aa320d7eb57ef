"""Deep recursion without crashes: work on a thread with a large C stack, and nesting limits.

Work is tried on the calling thread first, under Python's ordinary recursion limit; only work
that recurses deeper is run again on the deep thread (a tiny solve pays no thread start).

Game trees, game forms and their texts are recursive, and user input decides how deep. The
interpreter's recursion limit is raised only while :func:`call_deep` runs work on a thread
whose C stack is ``DEEP_STACK_BYTES``; everywhere else it stays at Python's default, so deep
recursion there is a ``RecursionError``, never a segmentation fault. Both settings are the
process's, not a thread's: deep calls on several threads at once take them through locks
(:func:`recursion_limit_at_least`, :func:`_start_with_deep_stack`), and when the last one
ends the process has the limit and the thread stack size it had before.

Measured (CPython 3.11, x86-64): the guaranteed plugin's recursive operations (conjugate,
compare, canonical form; ``sorted`` over a generator per level) use under 1 KiB of C stack
per level (80,000 levels fit in 64 MiB) and at least two Python frames per level, so
``DEEP_RECURSION_LIMIT`` frames need under 100 MiB: a 5x margin in ``DEEP_STACK_BYTES``.
Parsers refuse text nested deeper than a limit of their own up front (:func:`check_nesting`).

Where Python cannot start threads (Pyodide in a browser, WASI: :data:`THREADS` is false), work
runs on the calling thread only, under the ordinary recursion limit: deeper recursion is a
``RecursionError`` (reported as a limit), and a deadline holds only where the work checks its
clock (the browser's page stops a worker that runs past it).
"""

from __future__ import annotations

import contextlib
import functools
import re
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from itertools import accumulate, islice, repeat, tee
from operator import sub
from typing import Any, TypeVar

DEEP_STACK_BYTES = 512 * 1024 * 1024
DEEP_RECURSION_LIMIT = 200_000
THREADS = sys.platform not in ("emscripten", "wasi")
"""Whether this Python can start a thread (Pyodide's and WASI's cannot)."""


def can_start_threads() -> bool:
    """:data:`THREADS` (a function, so that a test can switch threads off everywhere)."""
    return THREADS


T = TypeVar("T")
_local = threading.local()
_lock = threading.Lock()
_limits: dict[str, Any] = {"found": None, "asked": Counter()}
"""The recursion limit found before the first of the raises now in force (``None``: none is),
and how many of each limit are asked for now."""
_stack_lock = threading.Lock()
"""Held while the process's thread stack size is set for a deep thread's start."""


def on_deep_thread() -> bool:
    """True inside :func:`call_deep` (nested calls run in place)."""
    return getattr(_local, "active", False)


def _ask_limit(limit: int) -> None:
    with _lock:
        if not _limits["asked"]:
            _limits["found"] = sys.getrecursionlimit()
        _limits["asked"][limit] += 1
        sys.setrecursionlimit(max([_limits["found"], *_limits["asked"]]))


def _release_limit(limit: int) -> None:
    with _lock:
        asked = _limits["asked"]
        asked[limit] -= 1
        if not asked[limit]:
            del asked[limit]
        sys.setrecursionlimit(max([_limits["found"], *asked]))
        if not asked:
            _limits["found"] = None


@contextlib.contextmanager
def recursion_limit_at_least(limit: int) -> Iterator[None]:
    """Raise the recursion limit to at least ``limit`` while the block runs, and put back the
    limit found when the last such block (on any thread) ends.

    The limit is the interpreter's, not the thread's (CPython has no other): while any block
    runs, every thread has the largest limit asked for, and blocks on several threads
    overlap in any order, so each asks and releases through one lock and none lowers the
    limit under another. A thread with an ordinary C stack can then recurse deeper than its
    stack holds through C code (CPython 3.11 counts those calls against the same limit), which
    is why :func:`can_try_here` sends other threads' :func:`call_deep` work to a deep thread
    meanwhile."""
    _ask_limit(limit)
    try:
        yield
    finally:
        _release_limit(limit)


SHALLOW_RECURSION_LIMIT = 3000
"""Work is first tried on the calling thread only while the recursion limit is at most this
(Python's default is 1000): deep enough for every small position, safe on an ordinary stack."""


def can_try_here() -> bool:
    """True when work may first run on the calling thread: not already on a deep thread, and
    no deep call has raised the (process-wide) recursion limit."""
    return not on_deep_thread() and sys.getrecursionlimit() <= SHALLOW_RECURSION_LIMIT


def hit_recursion_limit(exc: BaseException) -> bool:
    """True if ``exc`` is a ``RecursionError`` or was raised while handling one (a parser
    that reports "nested too deeply" as a ``ValueError``)."""
    seen = 0
    while exc is not None and seen < 50:
        if isinstance(exc, RecursionError):
            return True
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
        seen += 1
    return False


def call_deep(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)``, first on the calling thread (tiny work pays no thread: ~2 µs
    instead of ~150 µs); if that recursion reaches the ordinary limit, again from the start on a
    thread with a ``DEEP_STACK_BYTES`` stack and the recursion limit raised to
    ``DEEP_RECURSION_LIMIT``. Its result is returned, its exception re-raised here. The calling
    thread waits (it recurses no deeper meanwhile). ``fn`` must be safe to run twice (parsers,
    searches whose caches keep only finished results)."""
    if on_deep_thread() or not can_start_threads():
        return fn(*args, **kwargs)
    if can_try_here():
        try:
            return fn(*args, **kwargs)
        except Exception as exc:
            if not hit_recursion_limit(exc):
                raise
    return start_deep(fn, *args, **kwargs).wait()


class DeepCall:
    """A call running on a deep thread (see :func:`start_deep`), which another thread may
    :meth:`interrupt` while (and only while) the call runs."""

    def __init__(self, fn: Callable[..., Any], args: tuple, kwargs: dict) -> None:
        self.result: dict[str, Any] = {}
        self._guard = threading.Lock()
        self._running = True
        self._interruptions: tuple[type[BaseException], ...] = ()

        def target() -> None:
            _local.active = True
            try:
                try:
                    self.result["value"] = fn(*args, **kwargs)
                except BaseException as exc:  # re-raised in the waiting thread
                    self.result["error"] = exc
                # the outcome is in: no interruption starts after this, and one already sent
                # lands here and is dropped (the outcome stands)
                while True:
                    try:
                        with self._guard:
                            self._running = False
                        if self._interruptions:
                            _let_pending_interruption_land()
                        break
                    except BaseException as late:  # sent before the guard closed
                        if not isinstance(late, self._interruptions):
                            raise
            finally:
                _release_limit(DEEP_RECURSION_LIMIT)

        self.thread = threading.Thread(target=target, name="cgframework-deep", daemon=True)
        _ask_limit(DEEP_RECURSION_LIMIT)
        try:
            _start_with_deep_stack(self.thread)
        except RuntimeError as exc:  # no room for its stack (under a memory ceiling)
            _release_limit(DEEP_RECURSION_LIMIT)
            raise MemoryError(f"cannot start the deep-recursion thread: {exc}") from exc
        except BaseException:
            _release_limit(DEEP_RECURSION_LIMIT)
            raise

    def interrupt(self, exc_type: type[BaseException]) -> bool:
        """Raise ``exc_type`` in the call's thread at its next bytecode, if the call is still
        running (never in the thread's own bookkeeping after it, nor in another thread that
        reuses its id); False if it had finished. An interruption that Python swallows (one
        raised in a gc callback or a generator's finaliser) is dropped without a traceback:
        the caller interrupts again."""
        import ctypes

        drop_unraisable(exc_type)
        with self._guard:
            if not self._running:
                return False
            if exc_type not in self._interruptions:
                self._interruptions += (exc_type,)
            ctypes.pythonapi.PyThreadState_SetAsyncExc(
                ctypes.c_ulong(self.thread.ident), ctypes.py_object(exc_type)
            )
            return True

    def wait(self, timeout: float | None = None) -> Any:
        """Join (up to ``timeout`` seconds when given; then return ``None`` if still running),
        and return the value or raise the exception of the call."""
        self.thread.join(timeout)
        if self.thread.is_alive():
            return None
        if "error" in self.result:
            raise self.result["error"]
        return self.result["value"]


def _start_with_deep_stack(thread: threading.Thread) -> None:
    """Start ``thread`` with a ``DEEP_STACK_BYTES`` C stack. The stack size is the process's
    setting for new threads: it is set, the thread started and the size found put back under
    one lock, so that threads starting deep calls at once never put back each other's size
    (which left every later thread of the process with a 512 MiB stack)."""
    with _stack_lock:
        found = threading.stack_size(DEEP_STACK_BYTES)
        try:
            thread.start()
        finally:
            threading.stack_size(found)


def _let_pending_interruption_land() -> None:
    """Run a few backward jumps, where CPython delivers an exception sent with
    ``PyThreadState_SetAsyncExc``. Withdrawing one instead (sending ``NULL``) leaves the
    interpreter's "asynchronous exception pending" flag set for good: every thread then takes
    the slow path at each check, and a thread under ``sys.settrace`` loops forever (CPython
    3.11)."""
    for _ in range(4):
        pass


def drop_unraisable(exc_type: type[BaseException]) -> None:
    """Have ``sys.unraisablehook`` drop ``exc_type``: Python reports an exception it had to
    ignore (raised in a gc callback or a finaliser) with a traceback on standard error, and an
    interruption (:meth:`DeepCall.interrupt`) lost that way is raised again, not a fault."""
    current = sys.unraisablehook
    dropped = getattr(current, "dropped", None)
    if dropped is not None:
        if exc_type not in dropped:
            dropped.append(exc_type)
        return

    def hook(unraisable: Any) -> None:
        if not isinstance(unraisable.exc_value, tuple(hook.dropped)):  # type: ignore[attr-defined]
            current(unraisable)

    hook.dropped = [exc_type]  # type: ignore[attr-defined]
    sys.unraisablehook = hook


def start_deep(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> DeepCall:
    """Start ``fn`` on a deep thread and return at once (for callers that wait with a
    deadline, like the solver dispatcher)."""
    return DeepCall(fn, args, kwargs)


MAX_TEXT_NESTING = 10_000
"""Nesting (brackets and runs of signs) deeper than any parser accepts: text beyond it can be
refused in one quick pass (:func:`check_nesting`) before it is split or parsed."""


class NestingError(ValueError):
    """Text nested deeper than a parser accepts."""


def check_nesting(text: str, limit: int, opening: str = "([{<", prefixes: str = "") -> None:
    """Refuse ``text`` whose brackets (any of ``opening``) nest more than ``limit`` deep,
    counting a run of prefix operators (e.g. ``~`` or ``-``) as that many levels more.
    Iterative and in C-speed passes (a few per character), so a refusal of megabytes of
    brackets costs about what reading them did: safe and quick on any input."""
    if not opening.isascii():  # (no parser has such brackets: the plain loop)
        _check_nesting_by_character(text, limit, opening, prefixes)
        return
    deepest = max(_depths(text, opening), default=0)
    if prefixes and any(p in text for p in prefixes):
        depths = _depths(text, opening)
        consumed = 0  # entries of ``depths`` taken so far: depth after that many characters
        for run in _prefix_runs(prefixes).finditer(text):
            # brackets never stand inside a run: the depth is the one where the run starts
            here = next(islice(depths, run.start() - consumed, None))
            consumed = run.start() + 1
            levels = sum(map(run.group().count, prefixes))
            deepest = max(deepest, here + levels)
            if deepest > limit:
                break
    if deepest > limit:
        raise NestingError(f"nested more than {limit} levels deep (the limit)")


_CLOSING = ")]}>"


def _check_nesting_by_character(text: str, limit: int, opening: str, prefixes: str) -> None:
    depth = deepest = run = 0
    for ch in text:
        if ch in opening:
            depth += 1
        elif ch in _CLOSING and depth:
            depth -= 1
        if ch in prefixes:
            run += 1
        elif not ch.isspace():
            run = 0
        deepest = max(deepest, depth + run)
        if deepest > limit:
            raise NestingError(f"nested more than {limit} levels deep (the limit)")


@functools.lru_cache(maxsize=16)
def _steps(opening: str) -> bytes:
    """A byte table: an opening bracket 2, a closing one 0, anything else 1 (step + 1)."""
    table = bytearray([1]) * 256
    for ch in _CLOSING:
        table[ord(ch)] = 0
    for ch in opening:
        table[ord(ch)] = 2
    return bytes(table)


@functools.lru_cache(maxsize=16)
def _prefix_runs(prefixes: str) -> re.Pattern[str]:
    """A run of prefix operators, white space allowed between them."""
    one = "[" + re.escape(prefixes) + "]"
    return re.compile(f"{one}(?:[{re.escape(prefixes)}\\s]*{one})?")


def _depths(text: str, opening: str) -> Iterator[int]:
    """The bracket depth before the first character and after each (a closing bracket at
    depth 0 is ignored), computed by iterators that run in C: a character's step is +1, -1
    or 0, the height is their running sum, and the depth is the height above its lowest
    point so far (which is what ignoring surplus closing brackets amounts to)."""
    # one byte per character (non-ASCII ones become "?"), mapped to its step + 1
    codes = text.encode("ascii", "replace").translate(_steps(opening))
    heights = accumulate(map(sub, codes, repeat(1)), initial=0)
    ups, downs = tee(heights)
    return map(sub, ups, accumulate(downs, min))


def deep(fn: Callable[..., T]) -> Callable[..., T]:
    """Decorator: every call of ``fn`` goes through :func:`call_deep` (for commands that
    recurse on what the user typed). The signature is kept (typer reads it)."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> T:
        return call_deep(fn, *args, **kwargs)

    return wrapper
