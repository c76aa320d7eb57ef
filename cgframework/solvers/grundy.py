"""Impartial normal play: Grundy values by the mex rule, components nim-summed.

Sprague–Grundy: a position is equivalent to the nimber *g, g = mex of its options' values,
and a sum's value is the nim-sum of its components' values (Winning Ways ch. 4).
"""

from __future__ import annotations

from cgframework.extensions import SolveContext
from cgframework.game import Player, Position, Ruleset, components, options
from cgframework.runtime.cache import _MISSING, PositionRepeats
from cgframework.solvers.common import check_impartial, finish_impartial, simplified
from cgframework.values import mex


def grundy_value(ruleset: Ruleset, position: Position, ctx: SolveContext) -> int:
    """Nim-sum of the Grundy values of the position's components."""
    total = 0
    for comp in components(ruleset, position):
        total ^= _component_grundy(ruleset, simplified(ruleset, comp, ctx), ctx)
    return total


def _component_grundy(ruleset: Ruleset, component: Position, ctx: SolveContext) -> int:
    """The mex rule by an explicit stack (no recursion: a heap of 10^5 tokens is 10^5 levels
    deep), each component valued once through the transposition table."""
    table = ctx.table
    root = ("g", ruleset.canonical_key(component))
    found = table.lookup(root)
    if found is not _MISSING:
        return found
    # a frame: [key, options left to look at, Grundy values of the options seen, the current
    # option's components still to value, the nim-sum of its valued components]
    check_impartial(ruleset, component, root[1], ctx)
    stack = [[root, iter(ruleset.options(component, Player.LEFT)), set(), [], 0]]
    on_path = {root}  # keys being valued: meeting one again is a repeated position
    while stack:
        frame = stack[-1]
        pending = frame[3]
        child = None
        while child is None:
            if pending:
                part = pending[-1]
                key = ("g", ruleset.canonical_key(part))
                value = table.lookup(key)
                if value is _MISSING:
                    if key in on_path:
                        raise PositionRepeats(key)
                    check_impartial(ruleset, part, key[1], ctx)
                    child = [key, iter(ruleset.options(part, Player.LEFT)), set(), [], 0]
                    break
                pending.pop()
                frame[4] ^= value
                if not pending:
                    frame[2].add(frame[4])
                continue
            move = next(frame[1], None)
            if move is None:
                break
            parts = [simplified(ruleset, c, ctx) for c in components(ruleset, move.result)]
            if not parts:
                frame[2].add(0)
            frame[3] = pending = parts
            frame[4] = 0
        if child is not None:
            stack.append(child)
            on_path.add(child[0])
            continue
        stack.pop()
        on_path.discard(frame[0])
        table.nodes += 1
        value = table.store(frame[0], mex(frame[2]))
        if stack:  # the parent's pending component is valued now
            parent = stack[-1]
            parent[3].pop()
            parent[4] ^= value
            if not parent[3]:
                parent[2].add(parent[4])
    return table.lookup(root)


def solve_grundy(ruleset: Ruleset, position: Position, ctx: SolveContext):
    """Grundy value (as ``grundy`` and as the nimber ``value``) and the moves to zero."""
    g = grundy_value(ruleset, position, ctx)
    best = [
        m.text
        for m in options(ruleset, position, ctx.first)
        if grundy_value(ruleset, m.result, ctx) == 0
    ]
    return finish_impartial(ruleset, position, ctx, g, best, "grundy")
