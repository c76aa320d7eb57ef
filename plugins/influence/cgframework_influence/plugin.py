"""Hook implementations of the ``influence`` plugin (entry point ``influence``)."""

from __future__ import annotations

from cgframework import Family, SolverSpec, hookimpl
from cgframework_influence.ruleset import Influence
from cgframework_influence.solvers import (
    segments_apply,
    solve_graph,
    solve_reference,
    solve_segments,
)


@hookimpl
def register_rulesets(register):
    register(Influence())


@hookimpl
def register_solvers(register):
    register(
        SolverSpec(
            name="influence-segments",
            solve=solve_segments,
            rulesets=("influence",),
            applies=segments_apply,
            proven=True,
            description="sums of segments and alternating cycles (§4, Def. 16, Cor. 24 "
            "sign-corrected): multisets of (size, type) with H + (-H) cancelled",
        )
    )
    register(
        SolverSpec(
            name="influence-graph",
            solve=solve_graph,
            rulesets=("influence",),
            proven=True,
            description="any digraph: forced vertices (Def. 6), Rmv moves (Def. 7), Cor. 13 "
            "pruning, weak components, canonical component multisets, H + (-H) cancelled",
        )
    )
    register(
        SolverSpec(
            name="influence-minimax",
            solve=solve_reference,
            rulesets=("influence",),
            proven=True,
            auto=False,
            description="the generic minimax (waiting rule) for both starters, with scores",
        )
    )


@hookimpl
def register_families(register):
    register(
        Family(
            "segments",
            "influence",
            lambda n: f"segment:{n}" if n else "empty",
            "S_n of Table 1 (odd n in C-)",
        )
    )
    register(Family("cycles", "influence", lambda n: f"cycle:{2 * n + 4}", "cycle:2n+4"))


@hookimpl
def register_commands(app):
    from cgframework_influence.commands import influence_app

    app.add_typer(influence_app, name="influence")
