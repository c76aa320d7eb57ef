"""Ruleset ``cheating-robot``: a position is a sum of cheating-robot games (paper 002)."""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from cgframework import BaseRuleset, Convention, Move, Outcome, Player, finish, pick_move
from cgframework_cheating_robot.games import (
    CRGame,
    format_sum,
    outcome_sum,
    parse_sum,
    sums_searched,
)
from cgframework_cheating_robot.sh import applies as sh_applies
from cgframework_cheating_robot.sh import solve_sh


@attrs.frozen
class CRSum:
    """A sum of games, kept in input order (list semantics, L85)."""

    parts: tuple[CRGame, ...]


class CheatingRobot(BaseRuleset):
    name = "cheating-robot"
    convention = Convention.CHEATING_ROBOT
    family = "cheating_robot"
    syntax = (
        "integers n, * = {0|0|0}, {a|b|c}, {L1,L2|[[s11,s12],[s21,s22]]|R1,R2} (nested), "
        "-G the conjugate (Def 8); summands joined by + and -"
    )
    sum_separator = None

    def parse(self, text: str) -> CRSum:
        return CRSum(parse_sum(text))

    def format(self, position: CRSum) -> str:
        return format_sum(position.parts)

    def options(self, position: CRSum, player: Player) -> Iterator[Move]:
        """One-sided moves only (a round pairs them; see the outcome solver)."""
        for k, p in enumerate(position.parts):
            opts = p.left if player is Player.LEFT else p.right
            for i, o in enumerate(opts):
                parts = position.parts[:k] + (o,) + position.parts[k + 1 :]
                yield Move(CRSum(parts), f"{k + 1}.{i + 1}")

    def components(self, position: CRSum) -> Sequence[CRSum]:
        return [position]

    def is_empty(self, position: CRSum) -> bool:
        return not any(p.left or p.right for p in position.parts)

    def draw(self, position: CRSum, marks: Mapping[Hashable, Any] | None = None) -> str:
        """Each summand as its matrix S+(G) (Def 2, Figure 3): a row per Left move, a column
        per Right move, the empty move's row and column holding the one-sided options."""
        from cgframework_cheating_robot.picture import cr_sum_svg

        return cr_sum_svg(position.parts, marks)

    def move_at(self, position: CRSum, picks: Sequence[Hashable], player: Player) -> Any:
        """A click on a move's head (``L2``, ``R1``) or on its one-sided option plays it."""
        from cgframework_cheating_robot.picture import move_cells

        letter = player.value
        moves = {m.text: m for m in self.options(position, player)}
        return pick_move(
            (
                ([key], moves[text])
                for who, text, key in move_cells(position.parts)
                if who == letter
            ),
            picks,
        )

    def examples(self) -> list[str]:
        return ["{10|8|-3} + {5|-2|-4} + 2 - 1", "{2|0|-4} + {3|0|-1} - {3|0|-1}"]


def solve_rounds(ruleset, position: CRSum, ctx):
    """Generic reference: memoised max-min over rounds (Def 4, Def 5; Thm 1 proof L149)."""
    parts = position.parts
    if ctx.simplify is not None:
        parts = ctx.simplify(ruleset, position).parts
    before = sums_searched()
    o = outcome_sum(parts)
    ctx.table.nodes += sums_searched() - before  # (Solution.stats: sums expanded, not 0)
    value = solve_sh(position.parts).value if sh_applies(position.parts) else None
    return finish(
        ruleset, position, ctx, value=value, outcome=Outcome(o), best_moves=(), method="rounds"
    )


def solve_matching(ruleset, position: CRSum, ctx):
    """Thm 11 (L622): min-weight matching on D_G, O(n^2) DP."""
    res = solve_sh(position.parts)
    moves = (f"{res.order[0] + 1}",) if res.order else ()
    return finish(
        ruleset,
        position,
        ctx,
        value=res.value,
        outcome=Outcome(res.outcome),
        best_moves=moves,
        method="matching",
        order=[i + 1 for i in res.order],
        matching=[[i + 1, j + 1] for i, j in res.pairs],
    )


def matching_applies(ruleset, position: CRSum) -> bool:
    return sh_applies(position.parts)


def simplify_sum(ruleset, position: CRSum) -> CRSum:
    """Thm 5, Thm 7 and the fixed Thm 6 on every summand (each is an equality, Def 6)."""
    from cgframework_cheating_robot.simplify import simplify

    return CRSum(tuple(simplify(p) for p in position.parts))
