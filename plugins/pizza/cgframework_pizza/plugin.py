"""Hook implementations of the ``pizza`` plugin (entry point ``pizza``)."""

from __future__ import annotations

from functools import cache, wraps

from cgframework import Family, Preserves, Simplification, SolverSpec, hookimpl
from cgframework_pizza.arcdp import applies as lone_unopened_applies
from cgframework_pizza.arcdp import solve_arc_dp
from cgframework_pizza.chains import as_board
from cgframework_pizza.fast import applies, solve_slices
from cgframework_pizza.reductions import (
    canonical_ev_stacks,
    condense_maximum,
    condense_stacks,
    detach_ev_tails,
    reduce_e_game,
)
from cgframework_pizza.ruleset import Pizza
from cgframework_pizza.simplify import (
    cancel_equal_pairs,
    delete_even_plateau,
    detach_available_maximum,
)
from cgframework_pizza.variants import PizzaA, PizzaP, PizzaS


def binary_pizza(n: int) -> str:
    """Member n of the ``binary`` family: the pizza whose slices are the bits of n, from
    the lowest (the length is n's bit length)."""
    bits = [(n >> i) & 1 for i in range(max(1, n.bit_length()))]
    return ",".join(map(str, bits))


@hookimpl
def register_rulesets(register):
    register(Pizza())
    for variant in (PizzaP(), PizzaA(), PizzaS()):
        register(variant)


@hookimpl
def register_families(register):
    register(
        Family(
            "alternating",
            "pizza",
            lambda n: ",".join(str(i % 2) for i in range(n)) if n else "<>",
            "the pizza 0,1,0,1,... of n slices",
        )
    )
    register(Family("binary", "pizza", binary_pizza, "the 0/1 pizza spelled by the bits of n"))


@hookimpl
def register_solvers(register):
    register(
        SolverSpec(
            name="arc-dp",
            solve=solve_arc_dp,
            rulesets=("pizza",),
            applies=lone_unopened_applies,
            proven=True,
            description="a lone unopened cycle or path: every opening's outcome by one shared "
            "DP over arcs (recursion (1.1) on the n^2 arcs), O(n^2), vectorised with NumPy",
        )
    )
    register(
        SolverSpec(
            name="slices",
            solve=solve_slices,
            rulesets=("pizza",),
            applies=applies,
            proven=True,
            description="slice weights (Lemma 2.10, Thm 2.11) for opened parts, plateau "
            "openings (Thm 4.3) for unopened paths and pizzas: O(n^2) for one pizza; beside "
            "a list, every suffix of it per opening at once (a DP over list suffixes)",
        )
    )


@hookimpl
def register_commands(app):
    from cgframework_pizza.commands import pizza_app

    app.add_typer(pizza_app, name="pizza")


SIMPLIFICATIONS = (
    ("R7 reduce a 0-1 e-game", reduce_e_game, "1-clusters condensed or deleted (3.27, L689)"),
    ("R3 condense around a maximum", condense_maximum, "u-v-w -> p (Thm 2.6, L196-L214)"),
    ("R5 detach an ev-sequence tail", detach_ev_tails, "g ~ g' + st(a) (Cor 2.3, L174)"),
    ("R6 canonical ev stack", canonical_ev_stacks, "st(ev-seq of weight x) -> st(0,x) (L152)"),
    ("R4 condense stacks into slices", condense_stacks, "tes(a) ~ <s> (Thm 2.11, L286, L324)"),
    ("R2 detach an available maximum", detach_available_maximum, "Thm 2.5, L182-L194"),
    ("R1 cancel equal list pairs", cancel_equal_pairs, "<a,a,rest> ~ <rest> ((1.5), L114)"),
)
"""Equivalences, applied in this order to every component (each is a ``~``, so safe in sums)."""


@cache
def on_boards(rewrite):
    """The rewrite on the general board of a ``Chains`` (the rewrites edit graphs); one
    wrapper per rewrite, so every registry holds the same simplification objects."""

    @wraps(rewrite)
    def apply(ruleset, position):
        return rewrite(ruleset, as_board(position))

    return apply


@hookimpl
def register_simplifications(register):
    for name, rewrite, note in SIMPLIFICATIONS:
        register(Simplification(name, ("pizza",), on_boards(rewrite), Preserves.EQUIVALENCE, note))
    register(
        Simplification(
            "R8 delete an even plateau",
            ("pizza",),
            on_boards(delete_even_plateau),
            Preserves.VALUE,
            "lone unbroached path or cycle only (Remark 4.6, L819)",
        )
    )
