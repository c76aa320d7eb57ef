"""Hook implementations of the ``wak`` plugin (entry point ``wak``)."""

from __future__ import annotations

from cgframework import Preserves, Simplification, hookimpl
from cgframework_wak.families import FAMILIES
from cgframework_wak.reductions import simplify
from cgframework_wak.ruleset import ArcKayles, WakRuleset
from cgframework_wak.solvers import RULESETS, SOLVERS


@hookimpl
def register_rulesets(register):
    register(WakRuleset())
    register(ArcKayles())


@hookimpl
def register_solvers(register):
    for spec in SOLVERS:
        register(spec)


@hookimpl
def register_simplifications(register):
    register(
        Simplification(
            "canonical graph",
            RULESETS,
            simplify,
            Preserves.EQUIVALENCE,
            "delete useless and heavy vertices, merge false twins (Prop. 1, L118): "
            "an equality of Grundy values, safe inside sums",
        )
    )


@hookimpl
def register_families(register):
    for family in FAMILIES:
        register(family)


@hookimpl
def register_commands(app):
    from cgframework_wak.commands import wak_app

    app.add_typer(wak_app, name="wak")
