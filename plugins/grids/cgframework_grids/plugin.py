"""Hook implementations of the ``grids`` plugin (entry point ``grids``)."""

from __future__ import annotations

from cgframework import Family, hookimpl
from cgframework_grids.stones import Amazons, Clobber, Cram, Fission, Konane
from cgframework_grids.toads import ToadsAndFrogs


@hookimpl
def register_rulesets(register):
    for ruleset in (Clobber(), ToadsAndFrogs(), Konane(), Cram(), Fission(), Amazons()):
        register(ruleset)


@hookimpl
def register_families(register):
    register(Family("checker-rows", "clobber", lambda n: f"checker:1x{n}", "a 1 x n xoxo... row"))
    register(Family("checker-2xn", "clobber", lambda n: f"checker:2x{n}", "a 2 x n checkerboard"))
    register(Family("tf", "toads-frogs", lambda n: "T" * n + ".." + "F" * n, "T^n..F^n"))
    register(Family("rows", "cram", lambda n: f"rect:1x{n}", "a 1 x n strip"))
    register(Family("2xn", "cram", lambda n: f"rect:2x{n}", "a 2 x n board"))
    register(Family("3xn", "cram", lambda n: f"rect:3x{n}", "a 3 x n board"))
