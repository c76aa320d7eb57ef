"""Misère genus sequences of heap games: for each heap n, its misère Grundy value G⁻(n) and
its genus g^{γ0 γ1 ...} (Winning Ways ch. 13; :mod:`cgframework.solvers.misere`).

Misère play does not decompose into a table as normal play does (a sum's misère value is not
a function of its parts' values), so each heap is searched, but by one search shared by every
heap of the sequence: the sums of smaller heaps a heap's options leave are searched once for
all. Every position expanded, and every position of a heap plus nim-heaps of 2 the genus
values, is one node of the budget (``--max-nodes``); the deadline (``--timeout``) stops it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from cgframework.extensions import SolveContext
from cgframework.game import Player
from cgframework.runtime.budget import LimitExceeded, SearchBudget
from cgframework.runtime.deep import hit_recursion_limit
from cgframework.solvers.dispatch import run_deep
from cgframework.solvers.misere import MisereSearch, genus_text


@attrs.frozen
class GenusRow:
    """One heap: its normal-play Grundy value, misère Grundy value and genus (as text)."""

    heap: int
    grundy: int
    misere_grundy: int
    genus: str


def genus_sequence(
    ruleset: Any,
    heap: Callable[[int], Any],
    to: int,
    *,
    max_nodes: int | None = None,
    timeout: float | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[GenusRow]:
    """The rows of heaps 0..``to``; ``heap(n)`` is the position of one heap of n;
    ``progress(rows done)`` after each heap (from the search's thread). Raises
    :class:`~cgframework.SearchStopped` past ``max_nodes`` or ``timeout``, and
    :class:`~cgframework.LimitExceeded` when a heap's play is too deep for the search."""
    budget = SearchBudget.of(max_nodes, timeout)
    ctx = SolveContext(first=Player.LEFT, budget=budget)
    ctx.table.budget = budget
    search = MisereSearch(ruleset, ctx)

    def rows() -> list[GenusRow]:
        found = []
        for n in range(to + 1):
            position = heap(n)
            g, superscript = search.genus(position)
            minus = search.misere_grundy(position)
            found.append(GenusRow(n, g, minus, genus_text(g, superscript)))
            if progress is not None:
                progress(n + 1)
        return found

    try:
        return run_deep(rows, budget=budget)
    except Exception as exc:
        if not hit_recursion_limit(exc):
            raise
        raise LimitExceeded(
            f"a heap of {ruleset.name} up to {to} plays too long for the misère search "
            "(recursion limit): give a smaller --to"
        ) from None
