"""``heap-table``: heaps of any impartial heap ruleset from its rule's table of Grundy values.

A position of a :class:`~cgframework.heaps.rules.HeapRuleset` is a sum of single heaps, so its
value is the nim-sum of G(n) over its heaps (Sprague-Grundy), and G comes from the rule's
table (:mod:`cgframework.heaps.table`), extended to the largest heap: a heap of 10^5 is one
pass over heaps 1..10^5, each heap's options asked once, instead of a search. The winning
moves are the options of a heap n whose nim-sum is G(n) xor the total. Every heap the table
computes is one node of the budget (``--max-nodes``), and the deadline (``--timeout``) is
looked at between chunks. ``--method generic`` stays the brute-force reference.
"""

from __future__ import annotations

from typing import Any

from cgframework.extensions import SolveContext
from cgframework.game import Convention, Position, Ruleset, Sum
from cgframework.heaps.rules import HeapRuleset, heap_move, heap_results
from cgframework.heaps.table import MAX_HEAPS, sequence_of
from cgframework.runtime.budget import LimitExceeded
from cgframework.solution import Solution
from cgframework.solvers.common import finish_impartial

METHOD = "heap-table"


def serves(ruleset: Ruleset) -> bool:
    """An impartial, normal-play, finite heap ruleset."""
    return (
        isinstance(ruleset, HeapRuleset)
        and ruleset.impartial
        and ruleset.convention is Convention.NORMAL
        and not getattr(ruleset, "loopy", False)
    )


def _parts(position: Position) -> tuple[Any, ...]:
    return position.parts if isinstance(position, Sum) else (position,)


def applies(ruleset: Ruleset, position: Position) -> bool:
    return serves(ruleset) and all(hasattr(p, "sizes") for p in _parts(position))


def extend_table(table: Any, count: int, ctx: SolveContext, what: str) -> None:
    """Extend ``table`` to ``count`` values under the context's budget: each heap computed is
    a node (``--max-nodes``), the deadline is looked at between chunks."""
    if count <= table.size:
        return
    if count > MAX_HEAPS:
        raise LimitExceeded(f"{what}: heap {count - 1} is past the {MAX_HEAPS - 1} a table holds")
    budget = ctx.table.budget
    done = [table.size]

    def charge(grown: Any) -> bool:
        ctx.table.nodes += grown.size - done[0]  # (raises when the budget is spent)
        done[0] = grown.size
        return False

    deadline = None if budget is None else budget.start().deadline
    try:
        table.extend(count, deadline=deadline, stop=charge)
    except OverflowError as exc:  # a compiled kernel's values past its range
        raise LimitExceeded(f"{what}: {exc}") from None
    if budget is not None:
        budget.check_time()


def solve_heap_table(ruleset: Any, position: Position, ctx: SolveContext) -> Solution:
    """The nim-sum of the heaps' values from their rules' tables, and the moves to 0."""
    parts = _parts(position)
    rules = [ruleset.rule_of(part) for part in parts]
    for part, rule in zip(parts, rules, strict=True):
        table = sequence_of(rule)
        extend_table(table, max(part.sizes, default=0) + 1, ctx, rule.rule_label())
    # (the arrays themselves: a memoryview held on one would keep it from growing)
    tables = [(rule, sequence_of(rule).values) for rule in rules]
    total = 0
    for part, (_, g) in zip(parts, tables, strict=True):
        for n in part.sizes:
            total ^= g[n]
    best: list[str] = []
    if total:
        for index, (part, (rule, g)) in enumerate(zip(parts, tables, strict=True), 1):
            seen = set()
            for n in part.sizes:
                if n in seen or not n:
                    continue
                seen.add(n)
                target = total ^ g[n]
                for left in heap_results(rule, n, rule.heap_options):
                    value = 0
                    for m in left:
                        value ^= g[m]
                    if value == target:
                        text = heap_move(n, left)
                        best.append(text if len(parts) == 1 else f"{index}:{text}")
    return finish_impartial(ruleset, position, ctx, total, best, METHOD)
