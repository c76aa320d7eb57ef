"""Transposition tables: a dict with hit/miss counters, so every Solution can report them."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any

from cgframework.runtime.budget import NO_LIMIT, SearchBudget

_MISSING = object()


class TranspositionTable:
    """A memo keyed by canonical position keys. ``nodes`` counts positions expanded, and
    is charged to the ``budget`` (:mod:`cgframework.runtime.budget`), if any."""

    __slots__ = (
        "_budget",
        "_check_at",
        "_nodes",
        "_path",
        "_side",
        "_table",
        "backing",
        "enabled",
        "hits",
        "misses",
    )

    def __init__(
        self, enabled: bool = True, backing: Any = None, budget: SearchBudget | None = None
    ) -> None:
        """``backing``, if given, has ``get(key)`` (a value or :data:`MISSING`) and
        ``put(key, value)``: a slower, persistent level under the dict (the value store)."""
        self._table: dict[Hashable, Any] = {}
        self.enabled = enabled
        self.backing = backing
        self.hits = 0
        self.misses = 0
        self._nodes = 0
        self._side: dict[str, dict[Hashable, Any]] = {}
        self._path: set[Hashable] = set()  # keys being computed (see memo)
        self.budget = budget

    @property
    def budget(self) -> SearchBudget | None:
        return self._budget

    @budget.setter
    def budget(self, budget: SearchBudget | None) -> None:
        self._budget = budget
        self._check_at = NO_LIMIT if budget is None else budget.start().check(self._nodes)

    @property
    def nodes(self) -> int:
        """Positions expanded so far (a solver with its own counter adds it here, and is
        charged to the budget then)."""
        return self._nodes

    @nodes.setter
    def nodes(self, count: int) -> None:
        self._nodes = count
        if count >= self._check_at:
            self._check_at = self._budget.check(count)

    def add_node(self) -> None:
        """One more position expanded (charged to the budget)."""
        self._nodes += 1
        if self._nodes >= self._check_at:
            self._check_at = self._budget.check(self._nodes)

    def plain_dict(self) -> dict[Hashable, Any] | None:
        """The table's own dict, when it is enabled and has no backing level: a solver's
        inner loop may read it directly (counting ``hits`` and ``misses`` itself), writing
        through :meth:`store`. ``None`` otherwise (then use :meth:`lookup`)."""
        return self._table if self.enabled and self.backing is None else None

    def lookup(self, key: Hashable) -> Any:
        """The stored value, or :data:`MISSING` (counting a hit or a miss)."""
        value = self._table.get(key, _MISSING)
        if value is _MISSING and self.backing is not None and self.enabled:
            value = self.backing.get(key)
            if value is not _MISSING:
                self._table[key] = value
        if value is _MISSING:
            self.misses += 1
        else:
            self.hits += 1
        return value

    def store(self, key: Hashable, value: Any) -> Any:
        """Remember ``value`` (unless the table is disabled, for reference runs) and return it."""
        if self.enabled:
            self._table[key] = value
            if self.backing is not None:
                self.backing.put(key, value)
        return value

    def memo(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        """The stored value for ``key``, or ``compute()`` (one more node expanded), stored.

        A key met again while it is being computed is a position that is its own descendant:
        the recursive search would never end, so :class:`PositionRepeats` is raised (the
        dispatcher asks the ruleset to declare itself loopy)."""
        value = self.lookup(key)
        if value is _MISSING:
            if key in self._path:
                raise PositionRepeats(key)
            self.add_node()
            self._path.add(key)
            try:
                value = self.store(key, compute())
            finally:
                self._path.discard(key)
        return value

    def side(self, name: str) -> dict[Hashable, Any]:
        """A plain dict that lives as long as the table, for a solver's own memo in front of
        it (no counters, no backing: the solver keeps the table's counters and contents)."""
        found = self._side.get(name)
        if found is None:
            found = self._side[name] = {}
        return found

    def __len__(self) -> int:
        return len(self._table)

    def items(self) -> Iterable[tuple[Hashable, Any]]:
        """Every (key, value) the table holds (e.g. to check a store's rows against)."""
        return self._table.items()

    def __contains__(self, key: Hashable) -> bool:
        return key in self._table


class PositionRepeats(ValueError):
    """A recursive search met a position that is its own descendant (a loopy ruleset)."""


MISSING = _MISSING
"""Sentinel returned by :meth:`TranspositionTable.lookup` for an absent key."""


class SharedMemo:
    """A memory level under several transposition tables (``backing``): the values one solve
    finds are read by the next, as a value store would lend them, without a file. A sweep
    without ``--store`` gives one to all its members, so member n reuses what members below
    it computed. Holds at most ``limit`` entries (then keeps what it has: bounded memory)."""

    __slots__ = ("_values", "limit")

    def __init__(self, limit: int = 2_000_000) -> None:
        self._values: dict[Hashable, Any] = {}
        self.limit = limit

    def get(self, key: Hashable) -> Any:
        return self._values.get(key, _MISSING)

    def put(self, key: Hashable, value: Any) -> None:
        if len(self._values) < self.limit:
            self._values[key] = value

    def __len__(self) -> int:
        return len(self._values)
