"""The ``guaranteed`` ruleset (a game form is a position), and the ``guaranteed`` solver that
gives any scoring or normal-play position its canonical value in GS.

A position of a scoring ruleset becomes ``<{p + V(G')} | {-p + V(G')}>`` over the moves
(``p`` the points the mover earns, added by number translation, Obs. 7); a player with no
move gets the atom of ``end_score``. Normal-play positions become their embedding (empty
side -> ``^0``, Def. 16). Components are valued apart and summed canonically, so sums of
boards cost the sum of their parts, not their product.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator

from cgframework import (
    BaseRuleset,
    Convention,
    Move,
    Outcome,
    Player,
    Position,
    Ruleset,
    Score,
    SolveContext,
    SolverError,
    Sum,
    canonical_key,
    components,
    dump_number,
    exact_points,
    finish,
    format_position,
    options,
)
from cgframework_guaranteed.canonical import canonical, canonical_sum, is_invertible
from cgframework_guaranteed.games import (
    ZERO,
    ScoringGame,
    Stops,
    add,
    exact,
    game,
    number,
    size,
    violation,
)
from cgframework_guaranteed.notation import parse_game
from cgframework_guaranteed.order import Relation, compare, ge

SYNTAX = (
    "<L|R>: each side ^s (an atom: that player cannot move, score s) or games joined by ','; "
    "a number s is <^s|^s>; {} for <>; ~G the conjugate; G + H, G - H (= G + ~H); "
    "scores integers, decimals or p/q"
)


class Guaranteed(BaseRuleset):
    """Scoring game forms played as positions: a move goes to an option, the score is in
    the atoms (Def. 2)."""

    name = "guaranteed"
    aliases = ("gs",)
    convention = Convention.SCORING
    value_kinds = ("guaranteed",)  # what the value store accepts for its records
    family = "guaranteed"
    syntax = SYNTAX
    sum_separator = "+"

    def parse(self, text: str) -> ScoringGame:
        return parse_game(text)

    def format(self, position: ScoringGame) -> str:
        return str(position)

    def options(self, position: ScoringGame, player: Player) -> Iterator[Move]:
        side = position.left if player is Player.LEFT else position.right
        for option in sorted(side, key=str):
            yield Move(option, str(option), 0)

    def end_score(self, position: ScoringGame | Sum, player: Player) -> Score | None:
        """The atom of the stuck player (a sum is stuck when every part is: the atoms add,
        Def. 5), from that player's point of view."""
        parts = position.parts if isinstance(position, Sum) else (position,)
        atoms = [p.left_atom if player is Player.LEFT else p.right_atom for p in parts]
        if any(a is None for a in atoms):
            return None
        return player.sign * sum(atoms)

    def canonical_key(self, position: ScoringGame) -> Hashable:
        """The printed form: deterministic, so it addresses the value store across runs."""
        return str(position)

    def examples(self) -> list[str]:
        return ["<^-3|<2|1>> + <-3|^0>", "<<2|2,<2|2>>,<1|1>|<<<^4|4>|<4|^4>>|-5>>"]


# ---- the value of any position in GS -------------------------------------------------------


def scoring_value(ruleset: Ruleset, position: Position, ctx: SolveContext) -> ScoringGame:
    """The canonical GS value of a position of a scoring or normal-play ruleset; raises
    :class:`SolverError` naming the position when it is not a guaranteed game."""
    return canonical_sum(component_values(ruleset, position, ctx))


def component_values(ruleset: Ruleset, position: Position, ctx: SolveContext) -> list[ScoringGame]:
    """The canonical GS values of the position's components (memoised by canonical key)."""
    return [_component_value(ruleset, p, ctx) for p in components(ruleset, position)]


def stops_of_sum(values: list[ScoringGame], budget: int = 50_000) -> Stops:
    """The stops of a sum of canonical values without its canonical form: raw sums (whose
    stops come with them) while the raw form would stay under ``budget`` nodes, reduced
    before an addition that could exceed it, so the optimal moves of a sum cost little more
    than its value."""
    acc, acc_size = ZERO, 1
    for v in values:
        v_size = size(v)
        if acc_size * v_size > budget:
            acc = canonical(acc)
            acc_size = size(acc)
        acc = add(acc, v)
        acc_size *= v_size
    return acc.stops


def _component_value(ruleset: Ruleset, position: Position, ctx: SolveContext) -> ScoringGame:
    if isinstance(position, ScoringGame):
        return _checked(ruleset, position, position)
    key = ("guaranteed", canonical_key(ruleset, position))
    return ctx.table.memo(key, lambda: _value_or_dicot(ruleset, position, ctx))


def _value_or_dicot(ruleset: Ruleset, position: Position, ctx: SolveContext) -> ScoringGame:
    """A ruleset may offer ``dicot_form(position) -> (score, position')``: the position is
    worth ``score`` plus position', in which a player can move iff the other can (influence
    gives forced vertices to their owners this way). Else the position is valued as it is."""
    to_dicot = getattr(ruleset, "dicot_form", None)
    if to_dicot is not None:
        offset, core = to_dicot(position)
        if offset or core != position:
            value = scoring_value(ruleset, core, ctx)
            return canonical(add(value, number(exact(offset)))) if offset else value
    return _value_of(ruleset, position, ctx)


def _value_of(ruleset: Ruleset, position: Position, ctx: SolveContext) -> ScoringGame:
    scoring = ruleset.convention is Convention.SCORING
    sides = []
    for player in (Player.LEFT, Player.RIGHT):
        values = []
        for move in ruleset.options(position, player):
            v = scoring_value(ruleset, move.result, ctx)
            if scoring and move.points:
                v = add(v, number(player.sign * exact_points(ruleset, position, move)))
            values.append(v)
        sides.append(values or _atom(ruleset, position, player, scoring))
    return _checked(ruleset, position, game(*sides))


def _atom(ruleset: Ruleset, position: Position, player: Player, scoring: bool):
    if not scoring:
        return 0  # Def. 16: an empty option set becomes ^0
    end = ruleset.end_score(position, player)
    if end is None:
        raise SolverError(
            f"{ruleset.name}: {player.name.title()} has no move in "
            f"{format_position(ruleset, position)!r} but play goes on (the other player moves "
            "again): that is not a scoring game in the sense of Def. 2, where a player with no "
            "move ends the game"
        )
    return player.sign * exact(end)


def _checked(ruleset: Ruleset, position: Position, g: ScoringGame) -> ScoringGame:
    why = violation(g)
    if why is not None:
        raise SolverError(
            f"{ruleset.name} position {format_position(ruleset, position)!r} is not a "
            f"guaranteed scoring game (Def. 3): {why}"
        )
    return canonical(g)


def stops_json(stops: Stops) -> dict[str, int | str]:
    """The six stops with the names of ``cgf solve --json``; exact numbers."""
    return {name: dump_number(value) for name, value in stops._asdict().items()}


def solve_guaranteed(ruleset: Ruleset, position: Position, ctx: SolveContext):
    """Canonical GS value, its stops and invertibility; the first player's optimal moves are
    those whose option reaches the first player's stop (Ls for Left, Rs for Right).

    A normal-play position's image has every stop 0, so there the outcome and the winning
    moves are those of normal play, read off the GS order (Thm 17: the embedding keeps it):
    a Left move wins iff its option is >= 0, a Right move iff it is <= 0."""
    parts = component_values(ruleset, position, ctx)
    value = canonical_sum(parts)
    stops = value.stops
    player = ctx.first
    target = stops.Ls if player is Player.LEFT else stops.Rs
    scoring = ruleset.convention is Convention.SCORING
    if not scoring:
        return _solve_normal_play(ruleset, position, ctx, value, parts)
    best = []
    for move in options(ruleset, position, player):
        after = stops_of_sum(component_values(ruleset, move.result, ctx))
        shift = player.sign * exact(move.points) if scoring else 0
        if (after.Rs if player is Player.LEFT else after.Ls) + shift == target:
            best.append(move.text)
    # a sum is invertible iff every part is: G + H + X == 0 makes H + X an inverse of G
    invertible = all(is_invertible(v) for v in parts)
    extra = {"stops": stops_json(stops), "invertible": invertible}
    if scoring:  # the first player's optimal score, as the minimax solvers report it
        extra["score"] = dump_number(target if player is Player.LEFT else -target)
    return finish(
        ruleset,
        position,
        ctx,
        value=value,
        outcome=None,
        best_moves=best,
        method="guaranteed",
        **extra,
    )


_NORMAL_OUTCOME = {
    Relation.GREATER: Outcome.L,
    Relation.LESS: Outcome.R,
    Relation.EQUAL: Outcome.P,
    Relation.INCOMPARABLE: Outcome.N,
}


def _solve_normal_play(
    ruleset: Ruleset,
    position: Position,
    ctx: SolveContext,
    value: ScoringGame,
    parts: list[ScoringGame],
):
    """The embedded value of a normal-play position, with its normal-play outcome (from how
    the value compares with 0) and the first player's winning moves (Thm 17)."""
    player = ctx.first
    best = []
    for move in options(ruleset, position, player):
        after = canonical_sum(component_values(ruleset, move.result, ctx))
        if ge(after, ZERO) if player is Player.LEFT else ge(ZERO, after):
            best.append(move.text)
    extra = {"stops": stops_json(value.stops), "invertible": all(is_invertible(v) for v in parts)}
    return finish(
        ruleset,
        position,
        ctx,
        value=value,
        outcome=_NORMAL_OUTCOME[compare(value, ZERO)],
        best_moves=best,
        method="guaranteed",
        **extra,
    )
