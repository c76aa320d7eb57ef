"""Hook implementations of the ``guaranteed`` plugin (entry point ``guaranteed``)."""

from __future__ import annotations

from cgframework import (
    Convention,
    Family,
    SolverSpec,
    Universe,
    copies_family,
    hookimpl,
    register_value_kind,
)
from cgframework_guaranteed.games import ScoringGame
from cgframework_guaranteed.notation import parse_game
from cgframework_guaranteed.ruleset import Guaranteed, solve_guaranteed

register_value_kind("guaranteed", ScoringGame, str, parse_game)


@hookimpl
def register_rulesets(register):
    register(Guaranteed())


@hookimpl
def register_solvers(register):
    register(
        SolverSpec(
            name="gs-canonical",
            solve=solve_guaranteed,
            rulesets=("guaranteed",),
            description="canonical form by the reductions of Thms 30-35, stops, invertibility",
        )
    )
    register(
        SolverSpec(
            name="guaranteed",
            solve=solve_guaranteed,
            conventions=(Convention.SCORING, Convention.NORMAL),
            auto=False,
            description=(
                "the position's canonical value in guaranteed scoring games (scoring rulesets "
                "whose positions are guaranteed; normal play by the embedding, Thm 17)"
            ),
        )
    )


@hookimpl
def register_commands(app):
    from cgframework_guaranteed.commands import guaranteed_app

    app.add_typer(guaranteed_app, name="guaranteed")


@hookimpl
def register_universes(register):
    register(
        Universe(
            name="guaranteed",
            parse=_parse_canonical,
            describe=_describe,
            compare=_relation,
            description="guaranteed scoring games <L|R> with atoms ^s, in canonical form",
        )
    )


def _parse_canonical(text: str) -> ScoringGame:
    from cgframework_guaranteed.canonical import canonical

    return canonical(parse_game(text))


def _describe(g: ScoringGame) -> dict:
    from cgframework_guaranteed.canonical import is_invertible
    from cgframework_guaranteed.ruleset import stops_json

    return {"stops": stops_json(g.stops), "invertible": is_invertible(g), "birthday": g.birthday}


def _relation(a: ScoringGame, b: ScoringGame) -> str:
    from cgframework_guaranteed.order import compare

    return compare(a, b).symbol


@hookimpl
def register_families(register):
    register(Family("switches", "guaranteed", lambda n: f"<{n}|-{n}>", "the switch <n|-n>"))
    register(copies_family("guaranteed", "<^-3|<2|1>>"))
