"""Hook implementations of the ``grids`` plugin (entry point ``grids``)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from cgframework import Family, SolverSpec, hookimpl
from cgframework.solvers.impartial_search import solve_lemoine_viennot
from cgframework_grids.arckayles import PartizanArcKayles
from cgframework_grids.closed_forms import (
    blue_red_applies,
    cram_strips_apply,
    green_applies,
    solve_blue_red_stalks,
    solve_cram_strips,
    solve_green_trees,
)
from cgframework_grids.col import col_numbers_apply, solve_col_numbers
from cgframework_grids.dominoes import TopplingDominoes
from cgframework_grids.fission import solve_fission_planes
from cgframework_grids.graphs import Col, Snort
from cgframework_grids.hackenbush import ChildishHackenbush, Hackenbush
from cgframework_grids.impartial import solve_grundy_keys
from cgframework_grids.nodekayles import NodeKayles, lemoine_viennot_applies
from cgframework_grids.skijumps import SkiJumps
from cgframework_grids.snort import snort_masks_apply, solve_snort_masks
from cgframework_grids.stones import Amazons, Clobber, Cram, Fission, Konane
from cgframework_grids.toads import ToadsAndFrogs


@hookimpl
def register_rulesets(register):
    for ruleset in (
        Clobber(),
        ToadsAndFrogs(),
        Hackenbush(),
        Konane(),
        Cram(),
        Fission(),
        Amazons(),
        Snort(),
        Col(),
        NodeKayles(),
        TopplingDominoes(),
        ChildishHackenbush(),
        PartizanArcKayles(),
        SkiJumps(),
    ):
        register(ruleset)


@hookimpl
def register_solvers(register):
    register(
        SolverSpec(
            name="blue-red-stalks",
            solve=solve_blue_red_stalks,
            rulesets=("hackenbush",),
            applies=blue_red_applies,
            description="Berlekamp's sign-expansion rule: a blue-red stalk is a dyadic "
            "number read off its colours (Winning Ways ch. 2), O(edges)",
        )
    )
    register(
        SolverSpec(
            name="green-hackenbush",
            solve=solve_green_trees,
            rulesets=("hackenbush",),
            applies=green_applies,
            description="the colon principle: a green tree is the nimber of its root, "
            "a vertex worth the nim-sum of (child + 1) (Winning Ways ch. 7), O(edges)",
        )
    )
    register(
        SolverSpec(
            name="cram-strips",
            solve=solve_cram_strips,
            rulesets=("cram",),
            applies=cram_strips_apply,
            description="a 1 x n Cram strip is a Dawson's Kayles heap of n (octal 0.07): "
            "nim-sum of the strips' Grundy values",
        )
    )
    register(
        SolverSpec(
            name="col-numbers",
            solve=solve_col_numbers,
            rulesets=("col",),
            applies=col_numbers_apply,
            description="every Col value is a number or a number plus * (Winning Ways "
            "ch. 2): the search adds (number, star) pairs on vertex masks, automorphisms "
            "and the tint swap folded",
        )
    )
    register(
        SolverSpec(
            name="snort-masks",
            solve=solve_snort_masks,
            rulesets=("snort",),
            applies=snort_masks_apply,
            description="canonical forms by a search on the graph's vertex masks: no "
            "relabelling, the graph's automorphisms and the tint swap folded",
        )
    )
    register(
        SolverSpec(
            name="fission-planes",
            solve=solve_fission_planes,
            rulesets=("fission",),
            description="canonical forms by a search on nibble boards: a board is its own "
            "key, a new one imaged by xor-ing its parent's images (the rectangle's symmetries, "
            "transposes negated)",
        )
    )
    register(
        SolverSpec(
            name="lemoine-viennot",
            solve=solve_lemoine_viennot,
            rulesets=("cram", "node-kayles"),
            applies=lemoine_viennot_applies,
            description="nimbers by P-tests of sums (Lemoine-Viennot) on vertex masks, "
            "pieces keyed wherever they lie; auto: one Cram board of 18 or more empty "
            "cells, one Node-Kayles graph",
        )
    )
    register(
        SolverSpec(
            name="grundy-keys",
            solve=solve_grundy_keys,
            rulesets=("cram",),
            description="Grundy values by the mex rule on canonical keys (option_keys: "
            "regions, the 8 symmetries), no position objects",
        )
    )


def alternating(letters: str) -> Callable[[int], str]:
    """n letters repeating ``letters`` (``empty`` for n = 0)."""
    return lambda n: (letters * n)[:n] or "empty"


def ground_cycle(n: int) -> str:
    """A cycle of n edges through the ground (vertex 0), B and R in turn."""
    if n < 2:
        return "empty"
    return ",".join(f"{i}-{(i + 1) % n}:{'BR'[i % 2]}" for i in range(n))


def coloured_graph(kind: str, least: int, n: int) -> str:
    """``path:n`` or ``cycle:n`` with its edges coloured L, R, L, ... (sorted edge order)."""
    if n < least:
        return "empty"
    edges = n - 1 if kind == "path" else n
    return f"{kind}:{n};colours={('LR' * n)[:edges]}"


def ski_ladder(n: int) -> str:
    """n rows of width n + 1: Left's skier at the west end of even rows, Right's at the east
    end of odd ones (each jumper above an opponent's lane)."""
    if n == 0:
        return "L"
    return "|".join(("L" + "." * n, "." * n + "R")[i % 2] for i in range(n))


@hookimpl
def register_families(register):
    def board(kind: str, rows: int, empty: str) -> Callable[[int], str]:
        """``kind:ROWSxn`` (n = 0: a board with nothing to play, ``empty``)."""
        return lambda n: f"{kind}:{rows}x{n}" if n else empty

    register(Family("checker-rows", "clobber", board("checker", 1, "."), "a 1 x n xoxo... row"))
    register(Family("checker-2xn", "clobber", board("checker", 2, "."), "a 2 x n checkerboard"))
    register(Family("tf", "toads-frogs", lambda n: "T" * n + ".." + "F" * n, "T^n..F^n"))
    register(Family("green-stalk", "hackenbush", lambda n: "G" * n or "empty", "n green edges"))
    register(Family("br-stalk", "hackenbush", lambda n: "B" + "R" * n, "B then n red edges"))
    for name in ("snort", "col"):
        register(Family("paths", name, lambda n: f"path:{n}", "a path of n vertices"))
        register(
            Family("cycles", name, lambda n: f"cycle:{n}" if n > 2 else f"path:{n}", "n-cycle")
        )
    register(Family("rows", "toppling-dominoes", alternating("LR"), "LRLR... n dominoes"))
    register(Family("green-rows", "toppling-dominoes", alternating("G"), "n green dominoes"))
    register(Family("stalks", "childish-hackenbush", alternating("BR"), "a BRBR... stalk"))
    register(
        Family("cycles", "childish-hackenbush", ground_cycle, "a BRBR... cycle through the ground")
    )
    for kind, least in (("path", 2), ("cycle", 3)):
        register(
            Family(
                f"{kind}s",
                "partizan-arc-kayles",
                partial(coloured_graph, kind, least),
                f"a {kind} of n vertices, edges L, R, L, ...",
            )
        )
    register(Family("ladders", "ski-jumps", ski_ladder, "n rows, L and R skiers at alternate ends"))
    register(Family("rows", "cram", board("rect", 1, "#"), "a 1 x n strip"))
    register(Family("2xn", "cram", board("rect", 2, "#"), "a 2 x n board"))
    register(Family("3xn", "cram", board("rect", 3, "#"), "a 3 x n board"))
