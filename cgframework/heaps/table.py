"""The table engine: G(0), G(1), ... of any heap rule, to 10^7 heaps, 4 bytes a heap.

For a rule written in Python (``heap_options(n)``, :mod:`cgframework.heaps.rules`), G(n) is
the mex of the nim-sums G(a) ^ G(b) ^ ... over the options (a, b, ...) of a heap of n: each
heap's options are asked of the rule once, and every value an option needs is read from the
table (every heap an option leaves is smaller than n), so nothing is ever solved twice. The
values live in an ``array('I')``: 4 bytes a heap, 40 MB for 10^7 heaps.

A plugin that knows the rule (a :class:`~cgframework.extensions.HeapEngine` registered
through ``register_heap_engines``: the classic plugin's compiled take-and-break kernel)
lends its own sequence engine instead (:func:`sequence_of`). Either kind is kept for the
process, per rule, and extended on demand: ``cgf solve`` of a heap of 10^5, then of 10^5 + 1,
computes one more value; a sweep over single heaps computes one table.
"""

from __future__ import annotations

import threading
import time
import weakref
from array import array
from collections.abc import Callable
from typing import Any

from cgframework.extensions import KnownHeapRule
from cgframework.heaps.rules import checked_option
from cgframework.plugins import get_registry
from cgframework.runtime.budget import LimitExceeded, SearchStopped

MAX_HEAPS = 10_000_001
"""The most values a table holds, G(0..10^7): 40 MB."""

CHUNK_SECONDS = 0.1
"""A Python table computes its heaps in chunks of about this many seconds of work, so that the
deadline, the progress bar and a ``stop`` test are seen often."""


class GrowingSequence:
    """G(0), G(1), ... extended on demand (:meth:`extend`), shared by every solve of the
    process: ``values`` is an ``array('I')`` (4 bytes a heap) of which the first ``size`` are
    computed. A subclass computes them in ``_fill(count, progress, deadline, stop)``."""

    def __init__(self) -> None:
        self.values = array("I", [0])
        self.size = 1
        self._lock = threading.RLock()  # (one extender at a time: see :meth:`extend`)

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, n: int) -> int:
        if not 0 <= n < self.size:
            raise IndexError(n)
        return self.values[n]

    @property
    def computed(self) -> memoryview:
        """The values computed so far (a view: no copy)."""
        return memoryview(self.values)[: self.size]

    def extend(
        self,
        count: int,
        *,
        progress: Callable[[int], None] | None = None,
        deadline: float | None = None,
        stop: Callable[[Any], bool] | None = None,
    ) -> None:
        """Compute values until there are ``count`` (at most :data:`MAX_HEAPS`), in chunks:
        after each, ``progress(size)``, then stop early if ``stop(self)`` says so; past
        ``deadline`` (``time.monotonic``), :class:`SearchStopped`. Threads extend one at a
        time, into a new array when it grows (:func:`grown`); a reader takes ``values`` (or
        :attr:`computed`) after its own ``extend`` and reads below the size it asked for."""
        if count > MAX_HEAPS:
            raise ValueError(f"at most {MAX_HEAPS} heaps, not {count}")
        with self._lock:
            self.values = grown(self.values, self.size, count)
            self._fill(count, progress, deadline, stop)

    def _fill(
        self,
        count: int,
        progress: Callable[[int], None] | None,
        deadline: float | None,
        stop: Callable[[Any], bool] | None,
    ) -> None:
        raise NotImplementedError


class HeapTable(GrowingSequence):
    """G(0), G(1), ... of one heap rule written in Python (``rule.heap_options``)."""

    def __init__(self, rule: Any) -> None:
        super().__init__()
        self.rule = rule
        self._chunk = 64

    def _fill(
        self,
        count: int,
        progress: Callable[[int], None] | None,
        deadline: float | None,
        stop: Callable[[Any], bool] | None,
    ) -> None:
        while self.size < count:
            if deadline is not None and time.monotonic() > deadline:
                raise SearchStopped("the sequence hit the time limit (--timeout)")
            start = self.size
            end = min(count, start + self._chunk)
            began = time.perf_counter()
            self._compute(start, end)
            took = time.perf_counter() - began
            self.size = end
            if took < CHUNK_SECONDS / 2:
                self._chunk = min(2 * self._chunk, 1 << 20)
            elif took > 2 * CHUNK_SECONDS:
                self._chunk = max(1, self._chunk // 2)
            if progress is not None:
                progress(self.size)
            if stop is not None and stop(self):
                return

    def _compute(self, start: int, end: int) -> None:
        g = self.values
        options_of = self.rule.heap_options
        for n in range(start, end):
            seen: set[int] = set()
            add = seen.add
            try:  # the common case, fast: tuples of ints in range
                for option in options_of(n):
                    if len(option) == 1:
                        m = option[0]
                        if not 0 <= m < n:
                            raise IndexError(m)
                        add(g[m])
                    else:
                        value = 0
                        for m in option:
                            if not 0 <= m < n:
                                raise IndexError(m)
                            value ^= g[m]
                        add(value)
            except (IndexError, TypeError, ValueError):  # a bare int, or a bad option: named
                seen = set()
                for option in options_of(n):
                    value = 0
                    for m in checked_option(self.rule, n, option):
                        value ^= g[m]
                    seen.add(value)
            value = 0
            while value in seen:
                value += 1
            try:
                g[n] = value
            except OverflowError:
                raise LimitExceeded(
                    f"G({n}) = {value} is past 2^32 (the table's 4 bytes)"
                ) from None


def grown(values: array, size: int, count: int) -> array:
    """``values`` with room for ``count`` (at least doubled, at most :data:`MAX_HEAPS`): a new
    array holding the first ``size``, never the old one resized, so that a reader holding the
    old one (or a view of it) keeps every value it had while a thread extends the table."""
    if count <= len(values):
        return values
    bigger = array("I", bytes(4 * min(MAX_HEAPS, max(count, 2 * len(values)))))
    bigger[:size] = values[:size]
    return bigger


_tables: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()
_known: weakref.WeakKeyDictionary[Any, tuple[KnownHeapRule | None]] = weakref.WeakKeyDictionary()


def known_rule(rule: Any) -> KnownHeapRule | None:
    """What the first registered heap engine that serves ``rule`` knows of it (its compiled
    sequence, its theorem), or ``None``; asked once per rule object."""
    try:
        found = _known.get(rule)
    except TypeError:  # (a rule that cannot be weakly referenced: asked every time)
        found = None
    if found is not None:
        return found[0]
    answer = None
    for engine in get_registry().heap_engines:
        answer = engine.serves(rule)
        if answer is not None:
            break
    try:
        _known[rule] = (answer,)
    except TypeError:
        pass
    return answer


def sequence_of(rule: Any) -> Any:
    """The sequence engine of ``rule``, kept for the process while the rule lives: the one a
    heap engine lends (:func:`known_rule`), else a :class:`HeapTable`."""
    try:
        found = _tables.get(rule)
    except TypeError:
        found = None
    if found is not None:
        return found
    known = known_rule(rule)
    table = known.sequence() if known is not None else None
    if table is None:
        table = HeapTable(rule)
    try:
        _tables[rule] = table
    except TypeError:
        pass
    return table


def rule_label(rule: Any) -> str:
    """How outputs name ``rule``: its heap engine's label, else the rule's own."""
    known = known_rule(rule)
    return (known.label if known is not None else "") or rule.rule_label()
