"""Hook implementations of the ``cheating_robot`` plugin (entry point ``cheating_robot``)."""

from __future__ import annotations

from cgframework import (
    Family,
    Preserves,
    Simplification,
    SolverSpec,
    copies_family,
    hookimpl,
)
from cgframework_cheating_robot.ruleset import (
    CheatingRobot,
    matching_applies,
    simplify_sum,
    solve_matching,
    solve_rounds,
)


@hookimpl
def register_rulesets(register):
    register(CheatingRobot())


@hookimpl
def register_solvers(register):
    register(
        SolverSpec(
            name="rounds",
            solve=solve_rounds,
            rulesets=("cheating-robot",),
            generic=True,
            description="memoised max-min over rounds (Def 4-5), the brute-force reference",
        )
    )
    register(
        SolverSpec(
            name="matching",
            solve=solve_matching,
            rulesets=("cheating-robot",),
            applies=matching_applies,
            proven=True,
            description="simple hot sums + integers: min-weight matching (Thm 11), O(n^2) DP",
        )
    )


@hookimpl
def register_commands(app):
    from cgframework_cheating_robot.commands import cr_app

    app.add_typer(cr_app, name="cr")


@hookimpl
def register_simplifications(register):
    register(
        Simplification(
            "Thm 5/7 + fixed Thm 6",
            ("cheating-robot",),
            simplify_sum,
            Preserves.EQUIVALENCE,
            "dominated Left moves, same-round entries, dominated Right moves (L286-L320)",
        )
    )


@hookimpl
def register_families(register):
    register(Family("switches", "cheating-robot", lambda n: f"{{{n}|0|-{n}}}", "{n|0|-n}"))
    register(copies_family("cheating-robot", "{2|0|-4}"))
