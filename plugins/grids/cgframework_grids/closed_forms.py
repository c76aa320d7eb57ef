"""Specialised solvers from closed forms (Hackenbush stalks and green trees, Cram strips),
each checked against the generic search in the tests (``test_hackenbush.py``,
``test_grids.py``)."""

from __future__ import annotations

from cgframework import (
    Solution,
    SolveContext,
    components,
    finish_by_option_values,
    finish_impartial,
    options,
)
from cgframework.values import nimber, number
from cgframework_grids.hackenbush import (
    as_stalk,
    blue_red_stalk_value,
    green_tree_nim_value,
    tree_children,
)


def _blue_red_stalks(ruleset, position) -> list[str] | None:
    stalks = []
    for part in components(ruleset, position):
        colours = as_stalk(part)
        if colours is None or "G" in colours:
            return None
        stalks.append(colours)
    return stalks


def _green_trees(ruleset, position) -> list[dict] | None:
    trees = []
    for part in components(ruleset, position):
        if any(c != "G" for _, _, c in part.edges):
            return None
        children = tree_children(part)
        if children is None:
            return None
        trees.append(children)
    return trees


def blue_red_applies(ruleset, position) -> bool:
    """Every part is a stalk of blue and red edges."""
    return _blue_red_stalks(ruleset, position) is not None


def green_applies(ruleset, position) -> bool:
    """Every part is a tree of green edges."""
    return _green_trees(ruleset, position) is not None


def _blue_red_value(ruleset, position):
    return number(sum(blue_red_stalk_value(s) for s in _blue_red_stalks(ruleset, position)))


def _green_value(ruleset, position) -> int:
    total = 0
    for children in _green_trees(ruleset, position):
        total ^= green_tree_nim_value(children)
    return total


def solution_from_option_values(
    ruleset, position, ctx: SolveContext, value, method: str, closed
) -> Solution:
    """The solution of a position of value ``value``, its winning moves found by the value
    ``closed(ruleset, option)`` of each option (for a closed form: an option of a position in
    the class is in the class; cutting a stalk leaves a shorter stalk, cutting a tree a
    smaller tree)."""
    return finish_by_option_values(
        ruleset, position, ctx, value, method, lambda option: closed(ruleset, option)
    )


def solve_blue_red_stalks(ruleset, position, ctx: SolveContext) -> Solution:
    """Sum of the stalks' sign-expansion numbers (``blue_red_stalk_value``)."""
    value = _blue_red_value(ruleset, position)
    return solution_from_option_values(
        ruleset, position, ctx, value, "blue-red-stalks", _blue_red_value
    )


def solve_green_trees(ruleset, position, ctx: SolveContext) -> Solution:
    """Nim-sum of the trees' colon-principle values (``green_tree_nim_value``)."""

    def closed(rules, pos):
        return nimber(_green_value(rules, pos))

    value = closed(ruleset, position)
    return solution_from_option_values(ruleset, position, ctx, value, "green-hackenbush", closed)


# ---- Cram strips ----------------------------------------------------------------------------
_DAWSON = [0, 0]  # Grundy values of Dawson's Kayles (octal 0.07) heaps 0, 1, ...


def dawsons_kayles(n: int) -> int:
    """Grundy value of a Dawson's Kayles heap of n (octal 0.07: take two adjacent pins from a
    row, leaving up to two rows), by the mex recursion, extended on demand."""
    while len(_DAWSON) <= n:
        k = len(_DAWSON)
        seen = {_DAWSON[a] ^ _DAWSON[k - 2 - a] for a in range(k - 1)}
        g = 0
        while g in seen:
            g += 1
        _DAWSON.append(g)
    return _DAWSON[n]


def _strips(ruleset, position) -> list[int] | None:
    lengths = []
    for part in components(ruleset, position):
        if min(part.height, part.width) != 1 or "#" in part.cells:
            return None
        lengths.append(len(part.cells))
    return lengths


def cram_strips_apply(ruleset, position) -> bool:
    """Every region is a straight strip of empty cells (at most ``STRIP_LIMIT`` long)."""
    lengths = _strips(ruleset, position)
    return lengths is not None and all(n <= STRIP_LIMIT for n in lengths)


STRIP_LIMIT = 5000


def solve_cram_strips(ruleset, position, ctx: SolveContext) -> Solution:
    """A 1 x n Cram strip is a Dawson's Kayles heap of n: a domino covers two adjacent cells
    and leaves the strips on either side, exactly Dawson's Kayles' move (Winning Ways, ch. 4,
    on 0.07; Lessons in Play, ch. 7). Value: the nim-sum of the strips' Grundy values."""

    def grundy(pos) -> int:
        total = 0
        for n in _strips(ruleset, pos):
            total ^= dawsons_kayles(n)
        return total

    g = grundy(position)
    best = [m.text for m in options(ruleset, position, ctx.first) if grundy(m.result) == 0]
    return finish_impartial(ruleset, position, ctx, g, best, "cram-strips")
