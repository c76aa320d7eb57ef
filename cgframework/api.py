"""A CGSuite-like API: positions as objects you add, compare and solve.

    >>> from cgframework import Game, Player
    >>> g = Game("domineering", "..|..")
    >>> print(g.value, g.outcome.value)
    +-1 N
    >>> [str(o) for o in g.options(Player.LEFT)]
    ['#.|#.', '.#|.#']
    >>> g + g == 0  # a switch plus itself: +-1 is its own negative
    True
    >>> tis = Game("partizan-digraph", "0>1:L,1>0:R;0")  # loopy: Winning Ways' tis
    >>> print(tis.value, tis.outcome.value, tis > 0, tis < 1)
    1 & 0 D True True

``Game`` is a position of a ruleset (CGSuite's game objects: ``G.CanonicalForm``,
``G.LeftOptions``, ``G + H``); its value is the solver's (:func:`cgframework.solve`).
:func:`sweep` runs a registered family by names. The value itself is serialisable with
``cgframework.io.dump_value(value)``, a whole answer with :meth:`Game.to_json`.
(``cgframework.values.game`` is another thing: it builds a canonical form from options.)

Order and sums, by the value's algebra (its *universe*):

- normal play (short games): canonical forms, CGSuite's order (Siegel, Combinatorial Game
  Theory (2013), ch. II);
- loopy partizan rulesets: values ``onside & offside`` (a stopper when they are equal),
  compared side by side, G >= H iff G^+ >= H^+ and G^- >= H^- (Siegel ch. VI, as CGSuite).
  Short games are stoppers, so they compare with loopy values too. Loopy games are no group:
  ``on - on`` is ``dud``, so ``G - H >= 0`` is not ``G >= H`` there;
- loopy impartial rulesets: the generalized Sprague-Grundy value (Smith 1966). A finite
  one is a nimber; ``inf{K}`` values are equal exactly when their sets K are (Smith's
  equivalence) and have no order: ``<``, ``<=``, ``>=``, ``>`` raise :class:`TypeError`, as
  does comparing one with a loopy partizan value.

Any other comparison (a scoring game, two algebras, a value that is unknown, a comparison
past a size limit) raises :class:`TypeError` naming why: never an answer from the wrong
order. ``hash`` agrees with ``==``.

``-G`` is a position when it can be one: an impartial game is its own negative, and a
ruleset that declares ``negative`` (the players' pieces swapped) negates each part; ``G + H``
and ``G - H`` of two positions of one ruleset are the sum of positions (``G - H`` when
``-H`` is a position). Otherwise these are a :class:`GameValue`: the value alone, with the
same comparisons and sums, but no positions or options.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
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
from cgframework.values import CanonicalGame, nimber, number


class _Valued:
    """Comparisons, ``hash``, negation and sums by the value's algebra (module docstring),
    shared by :class:`Game` and :class:`GameValue`. ``_algebra()`` is ``(universe, value)``."""

    __slots__ = ()

    def _algebra(self) -> tuple[str, Any]:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        if _algebra_of(other) is None:
            return NotImplemented
        return _holds(self, other, "==")

    def __hash__(self) -> int:
        return _value_hash(*self._algebra())

    def __le__(self, other: Any) -> bool:
        return _holds(self, other, "<=")

    def __ge__(self, other: Any) -> bool:
        return _holds(self, other, ">=")

    def __lt__(self, other: Any) -> bool:
        return _holds(self, other, "<")

    def __gt__(self, other: Any) -> bool:
        return _holds(self, other, ">")

    def __neg__(self) -> _Valued:
        return GameValue(*_negated(*self._algebra()))

    def __add__(self, other: Any) -> _Valued:
        if _algebra_of(other) is None:
            return NotImplemented
        return GameValue(*_sum(self, other))

    def __radd__(self, other: Any) -> _Valued:
        if _algebra_of(other) is None:
            return NotImplemented
        return GameValue(*_sum(other, self))

    def __sub__(self, other: Any) -> _Valued:
        found = _algebra_of(other)
        if found is None:
            return NotImplemented
        return GameValue(*_sum(self, GameValue(*_negated(*found))))

    def __rsub__(self, other: Any) -> _Valued:
        if _algebra_of(other) is None:
            return NotImplemented
        return GameValue(*_sum(other, -self))


class Game(_Valued):
    """A position of a ruleset. ``Game(ruleset, position)``: a ruleset object or name, and a
    position object or its text (a ``+``-separated sum is a sum).

    ``value``, ``outcome`` and ``solve()`` call the solver (once per method and first
    player); ``options(player)`` lists the positions a player can move to; ``g + h`` is the
    disjunctive sum; ``-g`` and ``g - h`` negate; ``==``, ``<=``, ``<``, ``>=``, ``>`` compare
    values by their algebra (the module docstring: CGSuite's order for short games, the
    sides' order for loopy ones; ``g == h`` means equal values, not equal positions).
    """

    __slots__ = ("ruleset", "position", "_solutions", "_cached")

    def __init__(self, ruleset: Ruleset | str, position: Position | str) -> None:
        ruleset_argument(ruleset)
        position_argument(position)
        self.ruleset: Ruleset = resolve_ruleset(ruleset)
        self.position: Position = (
            parse_position(self.ruleset, position) if isinstance(position, str) else position
        )
        self._solutions: dict[tuple[str, Player, bool], Solution] = {}
        self._cached: tuple[str, Any] | None = None

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
        difference with Left to move (scoring play), ``onside & offside`` (a loopy partizan
        ruleset: a :class:`~cgframework.values.loopy.LoopyGame` stopper, or a
        :class:`~cgframework.values.loopy.SidedGame`), a nimber or ``inf{K}`` (a loopy
        impartial one), or a plugin's own value. ``None`` when it cannot be had (a loopy
        game too large for its sides, or not stopper-sided): ``solve().extra
        ["value_unknown"]`` says why, and ``outcome`` is there all the same."""
        return self.solve().value

    @property
    def outcome(self) -> Outcome | None:
        """Who wins with perfect play (``Outcome.L``, ``R``, ``N``, ``P``, or ``D`` for a draw
        in a loopy game); ``None`` for scoring play, whose answer is a score."""
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

    # ---- sums, negatives and comparisons ---------------------------------------------------

    def _algebra(self) -> tuple[str, Any]:
        if self._cached is None:
            self._cached = _game_algebra(self)
        return self._cached

    def __hash__(self) -> int:
        if self.ruleset.convention is not Convention.NORMAL:
            return hash(self.value)  # (a score: hashable, though not ordered here)
        return super().__hash__()

    def __eq__(self, other: object) -> bool:  # (defining __hash__ above hides the base's)
        return super().__eq__(other)

    def __add__(self, other: Any) -> _Valued:
        if isinstance(other, Game) and other.ruleset is self.ruleset:
            return Game(self.ruleset, Sum(_parts(self.position) + _parts(other.position)))
        if isinstance(other, Game) and _conventions(self, other) != {Convention.NORMAL}:
            raise TypeError(
                f"cannot add a {self.ruleset.name} game and a {other.ruleset.name} game "
                "(two rulesets' games add by their values, in normal play only)"
            )
        return super().__add__(other)

    def __neg__(self) -> _Valued:
        negated = _negated_position(self)
        return super().__neg__() if negated is None else negated

    def __sub__(self, other: Any) -> _Valued:
        if isinstance(other, Game) and other.ruleset is self.ruleset:
            negated = _negated_position(other)
            if negated is not None:
                return self + negated
        return super().__sub__(other)

    def __str__(self) -> str:
        return format_position(self.ruleset, self.position)

    def __repr__(self) -> str:
        return f"Game({self.ruleset.name!r}, {str(self)!r})"


class GameValue(_Valued):
    """A value without positions: ``-G`` and ``G - H`` (or ``G + H`` of two rulesets, or with
    a number) where no position of the ruleset holds the answer. It compares, adds and
    negates as a :class:`Game` does (the module docstring); ``value`` and ``outcome`` are
    the value's. ``universe`` names its algebra: ``normal``, ``loopy`` or ``grundy``."""

    __slots__ = ("universe", "value")

    def __init__(self, universe: str, value: Any) -> None:
        if universe == "loopy":  # by its sides, as a solver gives it (hash needs that form)
            from cgframework.values.loopy import normalised

            value = _by_the_algebra(normalised, value)
        self.universe = universe
        self.value = value

    def _algebra(self) -> tuple[str, Any]:
        return self.universe, self.value

    @property
    def outcome(self) -> Outcome:
        """Who wins: L, R, N, P, or D (a draw, in a loopy game)."""
        if self.universe == "normal":
            return self.value.outcome()
        if self.universe == "grundy":
            from cgframework.solvers.retrograde import grundy_outcome

            return grundy_outcome(self.value)
        from cgframework.values.loopy import first_results

        left_first, right_first = first_results(self.value)
        if "D" in (left_first, right_first):
            return Outcome.D
        return Outcome.from_wins(left_first == "L", right_first == "R")

    def __hash__(self) -> int:
        return super().__hash__()

    def __eq__(self, other: object) -> bool:
        return super().__eq__(other)

    def __str__(self) -> str:
        return str(self.value)

    def __repr__(self) -> str:
        return f"GameValue({str(self.value)!r})"


def _parts(position: Position) -> tuple[Position, ...]:
    return position.parts if isinstance(position, Sum) else (position,)


def _conventions(*games: Game) -> set[Convention]:
    return {g.ruleset.convention for g in games}


def _negated_position(game: Game) -> Game | None:
    """-G as a position of G's ruleset: G itself when impartial (normal play), each part
    negated by the ruleset's ``negative``; None when the ruleset cannot negate positions."""
    if game.ruleset.convention is not Convention.NORMAL:
        raise TypeError(
            f"{game.ruleset.name} is {game.ruleset.convention.value} play: -G is a "
            "normal-play game's negative"
        )
    if game.ruleset.impartial:
        return game
    negative: Callable[[Position], Position] | None = getattr(game.ruleset, "negative", None)
    if negative is None:
        return None
    parts = tuple(negative(p) for p in _parts(game.position))
    return Game(game.ruleset, Sum(parts) if isinstance(game.position, Sum) else parts[0])


# ---- values by their algebra ----------------------------------------------------------------


def _loopy_types() -> tuple[type, ...]:
    """The loopy value classes, once loaded (no such value exists before)."""
    module = sys.modules.get("cgframework.values.loopy.sides")
    return () if module is None else (module.LoopyGame, module.SidedGame)


def _algebra_of(x: Any) -> tuple[str, Any] | None:
    """``(universe, value)`` of an operand, or None when it is no game value at all."""
    if isinstance(x, _Valued):
        return x._algebra()
    if isinstance(x, bool):
        return None
    if isinstance(x, int):
        return "normal", number(x)
    if isinstance(x, CanonicalGame):
        return "normal", x
    if isinstance(x, _loopy_types()):
        return "loopy", x
    module = sys.modules.get("cgframework.solvers.retrograde")
    if module is not None and isinstance(x, module.Infinite):
        return "grundy", x
    return None


def _game_algebra(game: Game) -> tuple[str, Any]:
    rs = game.ruleset
    if rs.convention is not Convention.NORMAL:
        raise TypeError(
            f"{rs.name} is {rs.convention.value} play: Game compares and adds normal-play "
            "values only (compare .value yourself for scores)"
        )
    solution = game.solve()
    value = solution.value
    if value is None:
        why = solution.extra.get("value_unknown", "the solver gave none")
        raise TypeError(f"the value of {game!r} is unknown ({why})")
    if isinstance(value, CanonicalGame):
        return "normal", value
    if isinstance(value, str) and getattr(rs, "loopy", False) and rs.impartial:
        from cgframework.solvers.retrograde import parse_loopy_grundy

        g = parse_loopy_grundy(value)
        return ("normal", nimber(g)) if isinstance(g, int) else ("grundy", g)
    found = _algebra_of(value)
    if found is not None:
        return found
    return f"{type(value).__module__}.{type(value).__qualname__}", value  # a plugin's own


_HOLDS: dict[str, Callable[[str], bool]] = {
    "==": lambda r: r == "=",
    "<=": lambda r: r in ("<", "="),
    ">=": lambda r: r in (">", "="),
    "<": lambda r: r == "<",
    ">": lambda r: r == ">",
}
_OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "==": lambda a, b: a == b,
    "<=": lambda a, b: a <= b,
    ">=": lambda a, b: a >= b,
    "<": lambda a, b: a < b,
    ">": lambda a, b: a > b,
}


def _holds(a: Any, b: Any, op: str) -> bool:
    """Does ``a op b`` hold, by the values' algebra? TypeError when no algebra decides it."""
    found = _algebra_of(b)
    if found is None:
        raise TypeError(f"cannot compare a game with {type(b).__name__} {b!r:.60}")
    (ua, va), (ub, vb) = _algebra_of(a), found  # type: ignore[misc]
    if "grundy" in (ua, ub):
        return _holds_grundy(ua, va, ub, vb, op)
    if ua == ub == "normal":
        return _HOLDS[op](va.compare(vb))
    if {ua, ub} <= {"normal", "loopy"}:
        from cgframework.values.loopy import compare

        return _HOLDS[op](_by_the_algebra(compare, _loopy(va), _loopy(vb)))
    if ua == ub:  # a plugin's own algebra: its own operators
        return bool(_OPERATORS[op](va, vb))
    raise TypeError(f"no order between values of two algebras ({ua} and {ub})")


def _holds_grundy(ua: str, va: Any, ub: str, vb: Any, op: str) -> bool:
    """Generalized Sprague-Grundy values: ``inf{K}`` equals ``inf{K}`` (Smith's equivalence:
    G + X and H + X have the same outcome for every impartial X) and no finite value; there
    is no order, nor any equality with a loopy partizan value (which it may or may not be)."""
    other = ub if ua == "grundy" else ua
    if op != "==":
        raise TypeError(
            "generalized Sprague-Grundy values inf{...} have no order (Smith's theory gives "
            "equivalence only): compare with == or compare .value yourself"
        )
    if other == "grundy":
        return bool(va == vb)
    if other == "normal":  # an inf{K} game plus *k is a draw for some k; *n + *k never is
        return False
    raise TypeError(
        f"cannot compare the impartial loopy value {va if ua == 'grundy' else vb} with a "
        f"{other} value (a generalized Sprague-Grundy value is not onside & offside)"
    )


def _loopy(value: Any) -> Any:
    """A short game as a loopy game graph; a loopy value as it is."""
    if isinstance(value, CanonicalGame):
        from cgframework.values.loopy import short_graph

        return _by_the_algebra(short_graph, value)
    return value


def _by_the_algebra(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` of the loopy algebra; what it cannot do (a game past a size limit, sides
    that are not stoppers) is a TypeError naming why."""
    from cgframework.runtime.budget import LimitExceeded

    try:
        return fn(*args)
    except (LimitExceeded, ValueError) as exc:  # (NotStopperSided is a ValueError)
        raise TypeError(f"the loopy algebra cannot decide this: {exc}") from exc


def _value_hash(universe: str, value: Any) -> int:
    """A hash equal for equal values: a short value's own; a loopy stopper equal to a short
    game hashes as that game (equal stoppers simplify to one graph: Siegel VI, simplest
    forms), other loopy values by who wins with each player first (equal values have equal
    outcomes), an ``inf{K}`` by K."""
    if universe == "loopy":
        from cgframework.values.loopy import LoopyGame, first_results, short_value

        short = short_value(value) if isinstance(value, LoopyGame) else None
        if short is not None:
            return hash(short)
        return hash(("loopy", *_by_the_algebra(first_results, value)))
    if universe == "grundy":
        return hash(("grundy", value))
    return hash(value)


def _negated(universe: str, value: Any) -> tuple[str, Any]:
    if universe == "grundy":
        return universe, value  # an impartial game is its own negative
    if universe in ("normal", "loopy"):
        return universe, -value
    raise TypeError(f"no negative in the algebra of {universe} values")


def _sum(a: Any, b: Any) -> tuple[str, Any]:
    """``(universe, value)`` of the sum of two values (see the module docstring)."""
    (ua, va), (ub, vb) = _algebra_of(a), _algebra_of(b)  # type: ignore[misc]
    if ua == ub == "normal":
        return "normal", va + vb
    if "grundy" in (ua, ub):
        nims = [
            v if u == "grundy" else v.nim_value if u == "normal" else None
            for u, v in ((ua, va), (ub, vb))
        ]
        if None in nims:
            raise TypeError(
                "a generalized Sprague-Grundy value inf{...} adds to nimbers and to its own "
                "kind only (Smith's sum)"
            )
        from cgframework.solvers.retrograde import loopy_nim_sum

        total = loopy_nim_sum(*nims)
        return ("normal", nimber(total)) if isinstance(total, int) else ("grundy", total)
    if {ua, ub} <= {"normal", "loopy"}:
        from cgframework.values.loopy import add_sided

        return "loopy", _by_the_algebra(add_sided, _loopy(va), _loopy(vb))
    if ua == ub:
        return ua, va + vb
    raise TypeError(f"cannot add values of two algebras ({ua} and {ub})")


def sweep(ruleset: str, family: str, start: int, stop: int, **options: Any) -> list[Any]:
    """Solve members ``start..stop`` of a registered family, by names:
    ``sweep("domineering", "2xn", 1, 6)``. Returns :class:`cgframework.sweep.runner.Record`
    objects (``parameter``, ``solution``); ``options`` are those of
    :func:`cgframework.sweep.runner.sweep` (``store``, ``executor``, ``jobs``, ``method``,
    ``misere``, ...)."""
    from cgframework.sweep.runner import sweep as run

    fam = get_registry().family(ruleset, family)
    return list(run(ruleset, fam, start, stop, **options))
