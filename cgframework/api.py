"""A CGSuite-like API: positions as objects you add, compare and solve.

    >>> from cgframework import Game, Player
    >>> g = Game("domineering", "..|..")
    >>> print(g.value, g.outcome.value)
    +-1 N
    >>> [str(o) for o in g.options(Player.LEFT)]
    ['#.|#.', '.#|.#']
    >>> g + g == 0  # a switch plus itself: +-1 is its own negative
    True

``Game`` is a position of a ruleset (CGSuite's game objects: ``G.CanonicalForm``,
``G.LeftOptions``, ``G + H``); its value is the solver's (:func:`cgframework.solve`).
:func:`sweep` runs a registered family by names. The value itself is serialisable with
``cgframework.io.dump_value(value)``, a whole answer with :meth:`Game.to_json`.
(``cgframework.values.game`` is another thing: it builds a canonical form from options.)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from cgframework.game import (
    Convention,
    Outcome,
    Player,
    Position,
    Ruleset,
    Sum,
    format_position,
    options,
    parse_position,
)
from cgframework.io import to_json
from cgframework.plugins import get_registry, resolve_ruleset
from cgframework.solution import Solution
from cgframework.solvers.dispatch import (
    method_argument,
    player_argument,
    position_argument,
    ruleset_argument,
    solve,
)
from cgframework.values import CanonicalGame, number


class Game:
    """A position of a ruleset. ``Game(ruleset, position)``: a ruleset object or name, and a
    position object or its text (a ``+``-separated sum is a sum).

    ``value``, ``outcome`` and ``solve()`` call the solver (once per method and first
    player); ``options(player)`` lists the positions a player can move to; ``g + h`` is the
    disjunctive sum; ``==``, ``<=``, ``<``, ``>=``, ``>`` compare normal-play values
    (CGSuite's order; ``g == h`` means equal values, not equal positions).
    """

    __slots__ = ("ruleset", "position", "_solutions")

    def __init__(self, ruleset: Ruleset | str, position: Position | str) -> None:
        ruleset_argument(ruleset)
        position_argument(position)
        self.ruleset: Ruleset = resolve_ruleset(ruleset)
        self.position: Position = (
            parse_position(self.ruleset, position) if isinstance(position, str) else position
        )
        self._solutions: dict[tuple[str, Player, bool], Solution] = {}

    # ---- solving ---------------------------------------------------------------------------

    def solve(
        self, method: str = "auto", first: Player | str = Player.LEFT, misere: bool = False
    ) -> Solution:
        """The full answer (value, outcome, best moves, method, stats) of ``cgf solve``;
        ``first`` is ``Player.LEFT``/``Player.RIGHT`` or ``'L'``/``'R'``; ``misere=True``
        plays it under the misère convention (``cgf solve --misere``)."""
        first = player_argument(first)
        key = (method_argument(method), first, misere)
        found = self._solutions.get(key)
        if found is None:
            found = self._solutions[key] = solve(
                self.ruleset, self.position, method=method, first=first, misere=misere
            )
        return found

    @property
    def value(self) -> Any:
        """The value: a canonical form (normal play), the first player's optimal score
        difference with Left to move (scoring play), or a plugin's own value."""
        return self.solve().value

    @property
    def outcome(self) -> Outcome | None:
        """Who wins with perfect play (``Outcome.L``, ``R``, ``N``, ``P``); ``None`` for
        scoring play, whose answer is a score."""
        return self.solve().outcome

    @property
    def best_moves(self) -> tuple[str, ...]:
        """Left's optimal moves, as the ruleset writes them (``solve(first=...)`` for Right)."""
        return self.solve().best_moves

    def to_json(self) -> str:
        """The answer as ``cgf solve --json`` prints it."""
        return to_json(self.solve())

    # ---- the game tree ---------------------------------------------------------------------

    def options(self, player: Player) -> list[Game]:
        """The positions ``player`` can move to, as games."""
        player = player_argument(player, "player")
        return [Game(self.ruleset, m.result) for m in options(self.ruleset, self.position, player)]

    def moves(self, player: Player) -> Iterator[tuple[str, Game]]:
        """``(move text, resulting game)`` for each of ``player``'s moves."""
        player = player_argument(player, "player")
        for m in options(self.ruleset, self.position, player):
            yield m.text, Game(self.ruleset, m.result)

    @property
    def left_options(self) -> list[Game]:
        return self.options(Player.LEFT)

    @property
    def right_options(self) -> list[Game]:
        return self.options(Player.RIGHT)

    def draw(self, marks: Any = None) -> str:
        """A standalone SVG picture: the ruleset's ``draw(position, marks)`` (its text form
        by default; a sum drawn part by part)."""
        from cgframework.game import draw_position

        return draw_position(self.ruleset, self.position, marks)

    def _repr_svg_(self) -> str:
        """Jupyter (where HTML is not shown): the position's picture."""
        return self.draw()

    def _repr_html_(self) -> str:
        """Jupyter: the picture and the solution's table (value, outcome, best moves)."""
        from cgframework.display.notebook import game_html

        return game_html(self)

    # ---- sums and comparisons --------------------------------------------------------------

    def __add__(self, other: Game) -> Game:
        if not isinstance(other, Game):
            return NotImplemented
        if other.ruleset is not self.ruleset:
            raise TypeError(
                f"cannot add a {self.ruleset.name} game and a {other.ruleset.name} game"
            )
        return Game(self.ruleset, Sum(_parts(self.position) + _parts(other.position)))

    def _comparable(self, other: Any) -> tuple[Any, Any]:
        if self.ruleset.convention is not Convention.NORMAL:
            raise TypeError(
                f"{self.ruleset.name} is {self.ruleset.convention.value} play: compare "
                "normal-play values only (compare .value yourself for scores)"
            )
        theirs = other.value if isinstance(other, Game) else other
        if isinstance(theirs, int):
            theirs = number(theirs)
        return self.value, theirs

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game | CanonicalGame | int):
            return NotImplemented
        mine, theirs = self._comparable(other)
        return bool(mine == theirs)

    def __hash__(self) -> int:
        return hash(self.value)

    def __le__(self, other: Any) -> bool:
        mine, theirs = self._comparable(other)
        return bool(mine <= theirs)

    def __ge__(self, other: Any) -> bool:
        mine, theirs = self._comparable(other)
        return bool(mine >= theirs)

    def __lt__(self, other: Any) -> bool:
        mine, theirs = self._comparable(other)
        return bool(mine < theirs)

    def __gt__(self, other: Any) -> bool:
        mine, theirs = self._comparable(other)
        return bool(mine > theirs)

    def __str__(self) -> str:
        return format_position(self.ruleset, self.position)

    def __repr__(self) -> str:
        return f"Game({self.ruleset.name!r}, {str(self)!r})"


def _parts(position: Position) -> tuple[Position, ...]:
    return position.parts if isinstance(position, Sum) else (position,)


def sweep(ruleset: str, family: str, start: int, stop: int, **options: Any) -> list[Any]:
    """Solve members ``start..stop`` of a registered family, by names:
    ``sweep("domineering", "2xn", 1, 6)``. Returns :class:`cgframework.sweep.runner.Record`
    objects (``parameter``, ``solution``); ``options`` are those of
    :func:`cgframework.sweep.runner.sweep` (``store``, ``executor``, ``jobs``, ``method``, ...)."""
    from cgframework.sweep.runner import sweep as run

    fam = get_registry().family(ruleset, family)
    return list(run(ruleset, fam, start, stop, **options))
