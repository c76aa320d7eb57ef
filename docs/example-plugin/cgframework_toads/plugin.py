"""Toads and Frogs as a cgframework ruleset, with a specialised solver, a simplification and
a family (the worked examples of docs/writing-a-plugin.md).

A strip of squares holds Left's toads ``T``, Right's frogs ``F`` and empty squares ``.``.
A toad moves one square right into an empty square, or jumps right over one frog into an
empty square; frogs do the same leftwards. Normal play: who cannot move loses
(Berlekamp, Conway & Guy, Winning Ways, ch. 1).
"""

from __future__ import annotations

from collections.abc import Iterator

from cgframework import (
    BaseRuleset,
    Convention,
    Family,
    Move,
    Outcome,
    Player,
    Preserves,
    Simplification,
    SolverSpec,
    Sum,
    SwapLetters,
    finish,
    hookimpl,
    options,
)
from cgframework.values import number


class ToadsAndFrogs(BaseRuleset):
    name = "toads-tutorial"
    aliases = ("toads",)
    convention = Convention.NORMAL
    syntax = "a strip of T (Left's toads), F (Right's frogs) and . (empty), e.g. TT..FF"
    negative = SwapLetters("TF", reverse=True)  # reversed, toads and frogs swapped: -G

    def parse(self, text: str) -> str:
        for i, ch in enumerate(text):
            if ch not in "TF.":
                raise ValueError(f"unexpected {ch!r} at column {i + 1} (use T, F or .)")
        return text

    def format(self, position: str) -> str:
        return position

    def options(self, position: str, player: Player) -> Iterator[Move]:
        me, other, step = ("T", "F", 1) if player is Player.LEFT else ("F", "T", -1)
        cells = list(position)
        for i, ch in enumerate(cells):
            if ch != me:
                continue
            for target, kind in ((i + step, "slide"), (i + 2 * step, "jump")):
                if not 0 <= target < len(cells) or cells[target] != ".":
                    continue
                if kind == "jump" and cells[i + step] != other:
                    continue
                after = cells.copy()
                after[i], after[target] = ".", me
                yield Move("".join(after), f"{i + 1}->{target + 1}")
                break  # a creature that can slide cannot also jump

    def examples(self) -> list[str]:
        return ["TT..FF", "T.F"]


@hookimpl
def register_rulesets(register):
    register(ToadsAndFrogs())


# ---- a specialised solver -------------------------------------------------------------------


def parts(position):
    """The strips of a position (a ``+``-separated sum arrives as a ``Sum``)."""
    return position.parts if isinstance(position, Sum) else (position,)


def separated(ruleset, position):
    """No toad stands left of a frog in any strip: the two armies never meet again."""
    return all(strip.rfind("F") < strip.find("T") or "T" not in strip for strip in parts(position))


def free_moves(strip, me):
    """Once separated, each creature slides until blocked: every move spends exactly one of
    the empty squares ahead of one creature (toads look right, frogs left)."""
    ahead = strip if me == "T" else strip[::-1]
    return sum(ahead[i + 1 :].count(".") for i, ch in enumerate(ahead) if ch == me)


def solve_separated(ruleset, position, ctx):
    """Value n = Left's free moves - Right's free moves, an integer: each move spends one of
    the mover's and touches nobody else's, so each strip is a sum of integers."""
    n = sum(free_moves(s, "T") - free_moves(s, "F") for s in parts(position))
    player = ctx.first
    wins = n > 0 if player is Player.LEFT else n < 0  # the mover wins iff n is on his side
    best = [m.text for m in options(ruleset, position, player)] if wins else []
    outcome = Outcome.L if n > 0 else Outcome.R if n < 0 else Outcome.P
    return finish(
        ruleset,
        position,
        ctx,
        value=number(n),
        outcome=outcome,
        best_moves=best,
        method="separated",
    )


@hookimpl
def register_solvers(register):
    register(
        SolverSpec(
            name="separated",
            solve=solve_separated,
            rulesets=("toads-tutorial",),
            applies=separated,
            description="armies that have passed each other: an integer",
        )
    )


# ---- a simplification -----------------------------------------------------------------------


def strip_dead_ends(ruleset, strip):
    """Frogs packed against the left end, and toads against the right end, never move and
    nothing can reach their squares: dropping them leaves the same game tree."""
    return strip.lstrip("F").rstrip("T")


@hookimpl
def register_simplifications(register):
    register(
        Simplification(
            name="dead-ends",
            rulesets=("toads-tutorial",),
            apply=strip_dead_ends,
            preserves=Preserves.EQUIVALENCE,
            description="drop frogs stuck at the left end and toads stuck at the right end",
        )
    )


# ---- a family -------------------------------------------------------------------------------


@hookimpl
def register_families(register):
    register(
        Family(
            name="gap",
            ruleset="toads-tutorial",
            generate=lambda n: "T" + "." * n + "F",
            description="one toad, n empty squares, one frog: 0 for even n, * for odd n",
        )
    )
