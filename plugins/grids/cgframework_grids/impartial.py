"""Grundy values of an impartial grid ruleset (Cram) on canonical keys: the mex rule (Winning
Ways, ch. 4) over ``option_keys``, the parts of an option nim-summed, so the search builds no
position objects. The core's generic Grundy solver (``--method generic``) is the reference it
is tested against (``tests/test_grids.py``)."""

from __future__ import annotations

from collections.abc import Hashable

from cgframework import Player, Solution, SolveContext, components, finish_impartial, options


def grundy_of(ruleset, key: Hashable, known: dict[Hashable, int], ctx: SolveContext) -> int:
    """The Grundy value of the component with this key (memoised in ``known``)."""
    found = known.get(key)
    if found is not None:
        ctx.table.hits += 1
        return found
    ctx.table.nodes += 1
    seen = set()
    for parts in ruleset.option_keys(key, Player.LEFT):
        total = 0
        for part in parts:
            total ^= grundy_of(ruleset, part, known, ctx)
        seen.add(total)
    g = 0
    while g in seen:
        g += 1
    known[key] = g
    return g


def position_grundy(ruleset, position, known: dict[Hashable, int], ctx: SolveContext) -> int:
    total = 0
    for part in components(ruleset, position):
        total ^= grundy_of(ruleset, ruleset.search_key(part), known, ctx)
    return total


def solve_grundy_keys(ruleset, position, ctx: SolveContext) -> Solution:
    """Grundy value by the key search; winning moves are those to Grundy value 0."""
    known = ctx.table.side("grundy-keys")
    g = position_grundy(ruleset, position, known, ctx)
    best = [
        m.text
        for m in options(ruleset, position, ctx.first)
        if position_grundy(ruleset, m.result, known, ctx) == 0
    ]
    return finish_impartial(ruleset, position, ctx, g, best, "grundy-keys")
