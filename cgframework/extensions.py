"""What plugins register besides rulesets: specialised solvers, simplifications, families,
heap engines (what a plugin knows about some heap rules: a compiled kernel, a theorem), and
value universes for ``cgf calc`` (each evaluates an expression text to a printable value:
the core provides ``normal``, short partizan games in canonical form, and ``loopy``; plugins
add theirs, e.g. guaranteed scoring games, through ``register_universes``)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs

from cgframework.game import Convention, Player, Position, Ruleset, dump_number, top_level_split
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
    winning_moves: bool = True
    """An outcome search lists every winning move of ``first`` (each needs a proof of its
    own, often more work than who wins); False: only who wins (``--outcome --no-moves``)."""


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


# --- heap engines ----------------------------------------------------------------------


class KnownHeapRule:
    """A heap rule as a :class:`HeapEngine` knows it (what ``serves`` returns): subclass it and
    override what the engine adds. Every default is "nothing more than the core's own"."""

    label: str = ""
    """How outputs name the rule (``octal 0.77``); empty: the ruleset's ``rule_label()``."""
    code: str | None = None
    """The rule's code as text (``0.77``), for ``cgf sequence --json``; ``None``: no code."""
    theorem: str = ""
    """The theorem ``period_watcher`` applies (named in outputs); empty: none."""

    def sequence(self) -> Any:
        """A sequence engine for the rule (``extend(count, progress=, deadline=, stop=)``,
        ``size``, ``values`` (an ``array('I')``), ``computed``, ``[n]``: as
        :class:`cgframework.heaps.table.HeapTable`), or ``None``: the core's table."""
        return None

    def period_watcher(self) -> Any:
        """An object with ``extend(values)`` (the next G(n), in order) and ``proven`` (a
        :class:`cgframework.heaps.periods.Period` the values so far *prove* by ``theorem``,
        or ``None``), or ``None``: no theorem, periods are only observed."""
        return None

    def stable_images(self, images: Sequence[int]) -> tuple[int, int] | None:
        """For a misère quotient whose heap images are ``images`` (``images[h]``, h = 0..N):
        ``(period, preperiod)`` when a theorem proves the quotient that of every heap
        size, else ``None`` (observed up to N only)."""
        return None

    def saltus_possible(self) -> bool:
        """False when a theorem rules out arithmetic periodicity for the rule (no saltus is
        then reported, whatever the values look like)."""
        return True


@attrs.frozen
class HeapEngine:
    """What a plugin knows about some heap rules (hook ``register_heap_engines``).

    ``serves(rule)`` gets a heap rule (a :class:`~cgframework.heaps.rules.HeapRuleset`, as
    a ruleset's ``rule_of(position)`` gives it) and returns a :class:`KnownHeapRule`, or
    ``None`` when the engine does not know the rule. It may raise
    :class:`~cgframework.RulesetError` for a rule that declares what it is not (a
    ``take_and_break`` code its ``heap_options`` contradict)."""

    name: str
    serves: Callable[[Any], KnownHeapRule | None]
    description: str = ""


# --- value universes for cgf calc ------------------------------------------------------

COMPARISONS = ("<=", ">=", "==", "!=", "||", "<", ">")


@attrs.frozen
class Universe:
    """``parse(text) -> value``; values support ``+``, ``-``, ``<=``/``>=`` and ``str``.
    ``describe(value)`` gives extra facts (stops, temperature...) for ``--json``."""

    name: str
    parse: Callable[[str], Any]
    describe: Callable[[Any], dict[str, Any]] = lambda value: {}
    compare: Callable[[Any, Any], str] | None = None
    """Returns one of ``<``, ``>``, ``=``, ``||``; default built from ``<=``."""
    description: str = ""

    def relation(self, a: Any, b: Any) -> str:
        if self.compare is not None:
            return self.compare(a, b)
        le, ge = a <= b, a >= b
        return "=" if le and ge else "<" if le else ">" if ge else "||"


def split_comparison(text: str) -> tuple[str, str | None, str | None]:
    """``"A >= B"`` -> ``("A", ">=", "B")``; ``"A"`` -> ``("A", None, None)``.

    Comparison operators must stand outside braces and be surrounded by spaces, so that
    ``{3||2|1}`` and ``<1|2>`` are never mistaken for them.
    """
    for op in COMPARISONS:
        pieces = top_level_split(text, f" {op} ")
        if len(pieces) == 2:
            return pieces[0].strip(), op, pieces[1].strip()
    return text.strip(), None, None


def holds(universe: Universe, a: Any, op: str, b: Any) -> bool:
    rel = universe.relation(a, b)
    return {
        "<=": rel in ("<", "="),
        ">=": rel in (">", "="),
        "==": rel == "=",
        "!=": rel != "=",
        "<": rel == "<",
        ">": rel == ">",
        "||": rel == "||",
    }[op]


def _normal_universe() -> Universe:
    from cgframework.values.functions import ValueList, value_facts
    from cgframework.values.parser import evaluate

    def describe(g: Any, as_text: bool = True) -> dict[str, Any]:
        """``as_text=False``: the facts that are values (reduced form, incentives...) as
        values, for a caller that streams their texts (``cgf calc --full --json``)."""
        if isinstance(g, ValueList):
            return value_facts(g)
        return {
            "outcome": g.outcome().value,
            "left_stop": dump_number(g.left_stop()),
            "right_stop": dump_number(g.right_stop()),
            "mean": dump_number(g.mean()),
            "temperature": dump_number(g.temperature()),
            "birthday": g.birthday(),
            **value_facts(g, as_text),
        }

    return Universe(
        name="normal",
        parse=evaluate,
        describe=describe,
        compare=_compare_values,
        description="short partizan games under normal play, in canonical form (CGSuite notation)",
    )


def _compare_values(a: Any, b: Any) -> str:
    from cgframework.values.functions import ValueList

    if isinstance(a, ValueList) or isinstance(b, ValueList):
        raise ValueError("a list of values (such as incentives(G)) cannot be compared")
    return a.compare(b)


def _loopy_universe() -> Universe:
    def loopy() -> Any:  # imported on first use: not at every start of ``cgf``
        from cgframework.values import loopy

        return loopy

    return Universe(
        name="loopy",
        parse=lambda text: loopy().parse_loopy(text),
        describe=lambda g: loopy().describe(g),
        compare=lambda a, b: loopy().compare(a, b),
        description="loopy games and stoppers (on, off, over, under, upon, dud, pass, a:{..}, "
        "onside(G), offside(G), A & B)",
    )


def core_universes() -> list[Universe]:
    return [_normal_universe(), _loopy_universe()]
