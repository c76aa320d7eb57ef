"""The canonical values the compiled Clobber search keeps (``_k_masks.c``: ``vleq``,
``vneg``, ``vadd``, ``vcanon`` and ``comp_value``, reached through the debug entry points
``board_value`` and ``value_op``) against the core's canonical values
(``cgframework.values.canonical``, the reference): games compared as games (interned
canonical forms are equal iff identical), never as strings."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cgframework import solve
from cgframework.extensions import SolveContext
from cgframework.game import parse_position
from cgframework.plugins import get_registry
from cgframework.solvers.outcome_search import OutcomeSearch
from cgframework.values.canonical import CanonicalGame, game

KERNEL = pytest.importorskip("cgframework_grids.mask_keys").KERNEL
CLOBBER = get_registry().ruleset("clobber")

needs_kernel = pytest.mark.skipif(KERNEL is None, reason="the _k_masks kernel is not built")


@st.composite
def regions(draw: st.DrawFn) -> str:
    """A random small Clobber board (rows joined by ``|``) of at most 8 stones."""
    h = draw(st.integers(1, 3))
    w = draw(st.integers(1, 8 // h + 1))
    cells = draw(st.lists(st.sampled_from("xo."), min_size=h * w, max_size=h * w))
    stones = [i for i, ch in enumerate(cells) if ch != "."]
    for i in stones[8:]:
        cells[i] = "."
    return "|".join("".join(cells[r * w : (r + 1) * w]) for r in range(h))


def tokens(text: str) -> list:
    return OutcomeSearch(CLOBBER, SolveContext(), compiled=False).components_of(
        parse_position(CLOBBER, text)
    )


def built(options: tuple) -> CanonicalGame:
    """The core's game of nested option tuples ``((lefts), (rights))`` (at most a board's
    birthday deep)."""
    lefts, rights = options
    return game([built(g) for g in lefts], [built(g) for g in rights])


def as_options(g: CanonicalGame) -> tuple:
    return (tuple(as_options(x) for x in g.left), tuple(as_options(x) for x in g.right))


def form(options: tuple) -> tuple:
    """A form as nested frozensets of its options' forms (the order of options aside)."""
    lefts, rights = options
    return (frozenset(form(g) for g in lefts), frozenset(form(g) for g in rights))


def same(options: tuple, g: CanonicalGame) -> bool:
    """The kernel's form is the core's canonical form ``g``: equal as games, and option for
    option (no dominated or reversible option left, which equality of games alone would
    not see)."""
    return built(options) is g and form(options) == form(as_options(g))


def searcher() -> object:
    return KERNEL.searcher(1 << 24, 63, 16, 0, 0, 16, 64)


def core_value(text: str) -> CanonicalGame:
    return solve(CLOBBER, parse_position(CLOBBER, text)).value


@needs_kernel
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(regions())
def test_board_values_are_the_cores(text: str) -> None:
    assert same(KERNEL.board_value(searcher(), tokens(text)), core_value(text))


@needs_kernel
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(regions(), regions())
def test_leq_add_neg_are_the_cores(a: str, b: str) -> None:
    g, h = core_value(a), core_value(b)
    search = searcher()
    x, y = KERNEL.board_value(search, tokens(a)), KERNEL.board_value(search, tokens(b))
    assert KERNEL.value_op(search, "leq", x, y) == (g <= h)
    assert KERNEL.value_op(search, "leq", y, x) == (h <= g)
    assert same(KERNEL.value_op(search, "add", x, y), g + h)
    assert same(KERNEL.value_op(search, "neg", x), -g)
    # the same on the core's own forms, in a fresh search (nothing memoised)
    fresh = searcher()
    assert same(KERNEL.value_op(fresh, "add", as_options(g), as_options(h)), g + h)
    # a sum of boards is the sum of their values
    assert same(KERNEL.board_value(search, tokens(f"{a} + {b}")), g + h)


ZERO = ((), ())
STAR = ((ZERO,), (ZERO,))
ONE = ((ZERO,), ())
MINUS_ONE = ((), (ZERO,))


@needs_kernel
@pytest.mark.parametrize(
    ("given", "text"),
    [
        (((ZERO, STAR), (ZERO,)), "^*"),  # {0, * | 0}: canonical as it is
        (((STAR,), (STAR,)), "0"),  # {* | *}: both options reverse through 0
        (((MINUS_ONE, ZERO), (ONE,)), "1/2"),  # {-1, 0 | 1}: -1 is dominated
        (((ONE, ((ZERO,), (ONE,))), ()), "2"),  # {1, 1/2 | }: 1/2 is dominated
        (((((ZERO,), (STAR,)),), (ZERO,)), "*"),  # {up | 0}: up reverses (* <= {up | 0})
    ],
)
def test_canonical_forms_of_given_games(given: tuple, text: str) -> None:
    """Dominated and reversible options (Siegel, Combinatorial Game Theory, II.2): the
    kernel's form of each is the core's (which says ``text``)."""
    core = built(given)
    assert str(core) == text
    assert same(KERNEL.value_op(searcher(), "canon", given), core)


@needs_kernel
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(regions(), min_size=1, max_size=4), st.sampled_from((0, 2, 64)))
def test_value_rule_outcomes_are_the_cores(parts: list[str], birth: int) -> None:
    """Who wins with the value rule alone (sums of value parts kept apart past ``birth``,
    so that states hold one value part, several, or none) is the canonical value's
    outcome."""
    text = " + ".join(parts)
    outcome = core_value(text).outcome().value
    search = KERNEL.searcher(1 << 24, 32, 0, 0, 0, 8, birth)
    left, right = (KERNEL.wins(search, tokens(text), first, None, 1 << 40) for first in (1, 0))
    found = {(True, True): "N", (True, False): "L", (False, True): "R", (False, False): "P"}
    assert found[(left, right)] == outcome
