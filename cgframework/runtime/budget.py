"""Search limits: a node budget and a deadline that stop a search cleanly (DESIGN.md, Limits).

The transposition table counts the positions a search expands (:class:`TranspositionTable`
``nodes``); every solver that goes through the table (the generic ones, and specialised ones
that add their counts to ``ctx.table.nodes``) is charged there, and the table asks the
budget every ``CHECK_EVERY`` nodes whether time is up. Hitting a limit raises
:class:`SearchStopped` (exit code 3 in ``cgf``); nothing of the unfinished answer is stored.
"""

from __future__ import annotations

import time

import attrs

CHECK_EVERY = 256
"""Nodes between two looks at the clock (``time.monotonic`` costs ~50 ns)."""

NO_LIMIT = 1 << 62
"""A node count no search reaches: the table's next check point when nothing is limited."""


class LimitExceeded(Exception):
    """Work or output past a limit (``cgf`` exit code 3, one line): the message names it."""


class SearchStopped(LimitExceeded):
    """A search hit its node budget or deadline (``cgf`` exit code 3)."""


class TimedOut(SearchStopped):
    """A search hit its deadline (:meth:`SearchBudget.timed_out`): a caller that gave the
    search part of a longer run's time may report the run's limit instead."""


@attrs.define
class SearchBudget:
    """At most ``max_nodes`` positions expanded, and at most ``timeout`` seconds from
    :meth:`start` (either may be ``None``: no limit of that kind)."""

    max_nodes: int | None = None
    timeout: float | None = None
    deadline: float | None = attrs.field(default=None, init=False)

    def __attrs_post_init__(self) -> None:
        if self.max_nodes is not None and self.max_nodes < 0:
            raise ValueError(f"max_nodes must be >= 0, not {self.max_nodes}")
        if self.timeout is not None and not self.timeout >= 0:
            raise ValueError(f"timeout must be >= 0 seconds, not {self.timeout}")

    @classmethod
    def of(cls, max_nodes: int | None, timeout: float | None) -> SearchBudget | None:
        """The budget for these limits, or ``None`` when neither is given (no budget: the
        search pays no checks)."""
        if max_nodes is None and timeout is None:
            return None
        return cls(max_nodes=max_nodes, timeout=timeout)

    def start(self) -> SearchBudget:
        """Start the clock (once; a budget shared by nested searches keeps its deadline).
        An infinite timeout (``--timeout inf``) sets no deadline."""
        if self.timeout is not None and self.deadline is None and self.timeout < float("inf"):
            self.deadline = time.monotonic() + self.timeout
        return self

    def remaining(self) -> float | None:
        """Seconds left before the deadline (``None``: no deadline)."""
        return None if self.deadline is None else self.deadline - time.monotonic()

    def check_time(self) -> None:
        """Raise :class:`SearchStopped` if the deadline has passed: for costly work between
        two node counts (one component's moves can take seconds)."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise self.timed_out()

    def timed_out(self) -> SearchStopped:
        return TimedOut(f"search stopped after {self.timeout:g} s (--timeout)")

    def check(self, nodes: int) -> int:
        """Raise :class:`SearchStopped` if a limit is hit after ``nodes`` expansions; else the
        node count at which to check again."""
        if self.max_nodes is not None and nodes > self.max_nodes:
            unit = "node" if self.max_nodes == 1 else "nodes"
            raise SearchStopped(f"search stopped after {self.max_nodes} {unit} (--max-nodes)")
        self.check_time()
        nxt = NO_LIMIT if self.deadline is None else nodes + CHECK_EVERY
        return nxt if self.max_nodes is None else min(nxt, self.max_nodes + 1)
