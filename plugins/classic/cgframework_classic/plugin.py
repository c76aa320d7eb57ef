"""Hook implementations of the ``classic`` plugin (entry point ``classic``)."""

from __future__ import annotations

from cgframework import Family, SolverSpec, hookimpl
from cgframework_classic.cakes import Cutcake, Eatcake, MaundyCake
from cgframework_classic.closed_forms import (
    partizan_applies,
    solve_cutcake,
    solve_maundy_cake,
    solve_partizan_subtraction,
    solve_wythoff,
)
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
from cgframework_classic.partizan_subtraction import PartizanSubtraction
from cgframework_classic.solvers import (
    octal_applies,
    solve_grundys_game,
    solve_nim,
    solve_octal,
)
from cgframework_classic.wythoff import Wythoff

OCTAL_RULESETS = ("octal", "hex", "kayles", "dawsons-kayles", "subtraction")


@hookimpl
def register_rulesets(register):
    for ruleset in (Nim(), OctalRuleset(), Kayles(), DawsonsKayles(), Subtraction(), Domineering()):
        register(ruleset)
    register(HexRuleset())  # solved by the sequence engine; the generic solver is the reference
    register(GrundysGame())
    for ruleset in (Cutcake(), Wythoff(), PartizanSubtraction(), MaundyCake(), Eatcake()):
        register(ruleset)


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
    register(
        SolverSpec(
            name="cutcake-table",
            solve=solve_cutcake,
            rulesets=("cutcake",),
            description="Winning Ways' Cutcake table: an r x c cake is worth "
            "floor(c / 2^floor(log2 r)) - 1 for Left, or minus the transposed, O(1) a cake",
        )
    )
    register(
        SolverSpec(
            name="maundy-factors",
            solve=solve_maundy_cake,
            rulesets=("maundy-cake",),
            description="Maundy Cake from the prime factors of each side (Winning Ways ch. 2 "
            "for a strip, OEIS A006022; the rectangle's form checked to 30 x 30), O(sqrt(side))",
        )
    )
    register(
        SolverSpec(
            name="wythoff-table",
            solve=solve_wythoff,
            rulesets=("wythoff",),
            description="Wythoff's Grundy values by a row-by-row mex over bit masks of the "
            "rows, columns and diagonals (to 4 * 10^6 squares on or above the diagonal, kept "
            "between calls and grown only by the squares a pair lacks)",
        )
    )
    register(
        SolverSpec(
            name="value-sequence",
            solve=solve_partizan_subtraction,
            rulesets=("partizan-subtraction",),
            applies=partizan_applies,
            description="partizan subtraction: the canonical values of heaps 0, 1, 2, ... "
            "built in a loop from the smaller heaps (no recursion), to heaps of 200000",
        )
    )


@hookimpl
def register_families(register):
    # (the heap rulesets bring their own ``heaps`` family: HeapRuleset.families)
    register(Family("rows", "domineering", lambda n: "." * n, "a 1 x n strip"))
    register(Family("2xn", "domineering", lambda n: f"{'.' * n}|{'.' * n}", "a 2 x n board"))
    for name in ("cutcake", "maundy-cake", "eatcake"):
        register(Family("rows", name, lambda n: f"1x{n}" if n else "0", "a 1 x n strip"))
        register(Family("squares", name, lambda n: f"{n}x{n}" if n else "0", "an n x n cake"))
        register(
            Family("2xn", name, lambda n: f"2x{n}" if n else "0", "a cake of 2 rows and n columns")
        )
    register(
        Family(
            "rows",
            "wythoff",
            lambda a, n: f"{a},{n}",
            "the pair (a, n): row a of the Grundy table",
            argument="the first heap a (rows:3)",
        )
    )
    register(Family("diagonal", "wythoff", lambda n: f"{n},{n}", "the pair (n, n)"))


@hookimpl
def register_heap_engines(register):
    from cgframework_classic.codes_engine import ENGINE  # (loads the kernel: on first use)

    register(ENGINE)


@hookimpl
def register_commands(app):
    from cgframework_classic.commands import classic_app  # cgf classic only: imports typer

    app.add_typer(classic_app, name="classic")
