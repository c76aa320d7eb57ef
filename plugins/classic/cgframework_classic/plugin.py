"""Hook implementations of the ``classic`` plugin (entry point ``classic``)."""

from __future__ import annotations

from cgframework import Family, SolverSpec, hookimpl
from cgframework_classic.domineering import Domineering
from cgframework_classic.heaps import (
    DawsonsKayles,
    GrundysGame,
    HexRuleset,
    Kayles,
    Nim,
    OctalRuleset,
    Subtraction,
)
from cgframework_classic.solvers import (
    octal_applies,
    solve_grundys_game,
    solve_nim,
    solve_octal,
)

OCTAL_RULESETS = ("octal", "hex", "kayles", "dawsons-kayles", "subtraction")


@hookimpl
def register_rulesets(register):
    for ruleset in (Nim(), OctalRuleset(), Kayles(), DawsonsKayles(), Subtraction(), Domineering()):
        register(ruleset)
    register(HexRuleset())  # solved by the sequence engine; the generic solver is the reference
    register(GrundysGame())


@hookimpl
def register_solvers(register):
    register(
        SolverSpec(
            name="nim-sum",
            solve=solve_nim,
            rulesets=("nim",),
            description="Bouton: the nim-sum of the heaps, O(number of heaps)",
        )
    )
    register(
        SolverSpec(
            name="periodic-octal",
            solve=solve_octal,
            rulesets=OCTAL_RULESETS,
            applies=octal_applies,
            description="Grundy sequence by heap size (the sequence engine, to 10^7), then "
            "its proven period (periodicity theorem): any heap size in O(1) once proven",
        )
    )
    register(
        SolverSpec(
            name="grundy-sequence",
            solve=solve_grundys_game,
            rulesets=("grundys-game",),
            description="Grundy's game from its Grundy sequence (the sequence engine), "
            "heaps up to 10^7",
        )
    )


@hookimpl
def register_families(register):
    for name in ("nim", "kayles", "dawsons-kayles", "grundys-game"):
        register(Family("heaps", name, str, f"a single {name} heap of size n"))
    register(Family("rows", "domineering", lambda n: "." * n, "a 1 x n strip"))
    register(Family("2xn", "domineering", lambda n: f"{'.' * n}|{'.' * n}", "a 2 x n board"))
    register(
        Family(
            "heaps",
            "octal",
            lambda code, n: f"{code}:{n}",
            "a single heap of size n",
            argument="an octal code (heaps:0.137)",
        )
    )
    register(
        Family(
            "heaps",
            "hex",
            lambda code, n: f"{code}:{n}",
            "a single heap of size n",
            argument="a hexadecimal code (heaps:0.F)",
        )
    )
    register(
        Family(
            "heaps",
            "subtraction",
            lambda members, n: "{" + members.strip("{}") + "}:" + str(n),
            "a single heap of size n",
            argument="a subtraction set (heaps:1,2,5)",
        )
    )


@hookimpl
def register_commands(app):
    from cgframework_classic.commands import classic_app  # cgf classic only: imports typer

    app.add_typer(classic_app, name="classic")
