"""What plugins register besides rulesets: specialised solvers, simplifications, families."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

import attrs

from cgframework.game import Convention, Player, Position, Ruleset
from cgframework.runtime.budget import SearchBudget
from cgframework.runtime.cache import TranspositionTable


@attrs.define
class SolveContext:
    """Per-call settings and state handed to every solver.

    ``first`` is the player to move; ``table`` the transposition table (its counters become
    ``Solution.stats``); ``simplify`` rewrites a single component before it is looked up,
    or is ``None`` when simplifications are off (``--method generic``). ``budget`` limits
    the search (node budget, deadline); the table charges it, so a solver that counts its
    expansions in ``table.nodes`` (or uses ``table.memo``) stops when it is spent.
    """

    first: Player = Player.LEFT
    table: TranspositionTable = attrs.field(factory=TranspositionTable)
    simplify: Callable[[Ruleset, Position], Position] | None = None
    method: str = "auto"
    budget: SearchBudget | None = None


def _always(ruleset: Ruleset, position: Position) -> bool:
    return True


@attrs.frozen
class SolverSpec:
    """A solver a plugin registers.

    ``solve(ruleset, position, context) -> Solution``. It serves the rulesets named in
    ``rulesets``, or, when that is empty, every ruleset whose convention is in
    ``conventions``. ``proven`` says whether its correctness is a theorem (else empirical).
    ``generic`` marks a brute-force reference for a convention the core has none for.
    ``auto=False`` keeps the solver out of ``--method auto``: it runs only when named (for a
    solver that answers a different question, e.g. a position's value in another universe).
    """

    name: str
    solve: Callable[..., Any]
    rulesets: tuple[str, ...] = ()
    conventions: tuple[Convention, ...] = ()
    applies: Callable[[Ruleset, Position], bool] = _always
    proven: bool = True
    generic: bool = False
    auto: bool = True
    description: str = ""

    def serves(self, ruleset: Ruleset) -> bool:
        if self.rulesets:
            return ruleset.name in self.rulesets
        return ruleset.convention in self.conventions


class Preserves:
    """What a simplification keeps: only the value, or full equivalence (safe in sums)."""

    VALUE = "value"
    EQUIVALENCE = "equivalence"


@attrs.frozen
class Simplification:
    """A rewrite ``apply(ruleset, position) -> position`` for the named rulesets.

    ``preserves`` is :attr:`Preserves.VALUE` (applied to whole positions only) or
    :attr:`Preserves.EQUIVALENCE` (applied to each component, safe inside sums).
    """

    name: str
    rulesets: tuple[str, ...]
    apply: Callable[[Ruleset, Position], Position]
    preserves: str = Preserves.EQUIVALENCE
    description: str = ""


@attrs.frozen
class Family:
    """A named, parameterised family of positions: ``generate(n)`` gives member ``n`` of the
    family as position text for ``ruleset``.

    A family that needs an argument (an octal code, a subtraction set) says what it takes in
    ``argument``; its ``generate(arg, n)`` takes the argument first, and the user names it as
    ``FAMILY:ARG`` (``cgf sweep octal heaps:0.137``), which :meth:`with_argument` binds."""

    name: str
    ruleset: str
    generate: Callable[..., str]
    description: str = ""
    argument: str = ""

    def with_argument(self, arg: str) -> Family:
        """The family with its argument bound (a plain family of one parameter)."""
        if not self.argument:
            raise ValueError(f"family {self.name!r} of {self.ruleset!r} takes no argument")
        return Family(
            f"{self.name}:{arg}",
            self.ruleset,
            functools.partial(self.generate, arg),
            f"{self.description} ({self.argument} {arg})",
        )

    def members(self, start: int, stop: int) -> Iterator[tuple[int, str]]:
        for n in range(start, stop + 1):
            yield n, self.generate(n)


def copies_family(ruleset: str, example: str, empty: str = "0") -> Family:
    """``copies:GAME``: member n is the sum of n copies of GAME (``empty`` for n = 0), for a
    ruleset whose positions add with `` + ``."""
    return Family(
        "copies",
        ruleset,
        lambda game, n: " + ".join([game] * n) or empty,
        "the sum of n copies of a game",
        argument=f"a game (copies:{example})",
    )
