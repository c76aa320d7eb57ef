"""The compiled canonical-form kernel (``cgframework/values/_k_canonical.c``)
against its pure-Python twins, called on the same inputs: ``canonicalise`` against
``_canonicalise_py``, ``game`` against ``_game_py``, ``ge`` against ``ge_py`` (and the bare
definition), ``add`` and ``negate`` against ``add_py`` and ``negate_py``, on random games built
bottom-up (numbers, nimbers, ups, switches, hot games, sums). Games the kernel does not model
(a stop that is not an exact float, a lazy uptimal's options, deeper than its limit) must give
None, so that the Python path answers; and a solve gives the same value with the kernel and
without."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework.runtime.compiled import PURE_PYTHON_ENV
from cgframework.runtime.deep import call_deep
from cgframework.values import UP, game, nimber, number, up
from cgframework.values.canonical import (
    ValueTooLarge,
    _by_id,
    _canonicalise_py,
    _game_py,
    _intern,
    _interned,
    _kernel,
    _sorted,
    _uptimal_of,
    add,
    add_py,
    ge,
    ge_by_definition,
    ge_py,
    negate,
    negate_py,
    uptimal,
)

needs_kernel = pytest.mark.skipif(
    _kernel is None, reason="compiled kernel not built (no C compiler) or switched off"
)

leaves = st.sampled_from(
    [
        number(0),
        number(1),
        number(-1),
        number(2),
        number("1/2"),
        number("-3/4"),
        number("5/8"),
        nimber(1),
        nimber(2),
        nimber(3),
        UP,
        -UP,
        UP + nimber(1),
        up(2) + nimber(1),
        uptimal("1/2", -1, 2),
        game([number(1)], [number(-1)]),  # +-1, a switch
        game([number(3)], [number(-2)]),  # hot
        game([number(2), nimber(1)], [number(0)]),
    ]
)


def _extend(kids: st.SearchStrategy) -> st.SearchStrategy:
    return st.one_of(
        st.builds(game, st.lists(kids, max_size=3), st.lists(kids, max_size=3)),
        st.builds(add, kids, kids),
    )


games = st.recursive(leaves, _extend, max_leaves=8)
numbers = st.integers(-12, 12).map(lambda k: number(Fraction(k, 4)))
option_lists = st.lists(st.one_of(games, games, numbers), max_size=5)
SETTINGS = settings(max_examples=150, deadline=None)


@needs_kernel
@SETTINGS
@given(option_lists, option_lists)
def test_kernel_canonicalise_agrees_with_python(lefts, rights):
    ls, rs = _sorted(lefts), _sorted(rights)
    fast = _kernel.canonicalise([g.id for g in ls], [g.id for g in rs])
    assert fast is not None  # every game here is modelled
    assert _intern(*fast) is _canonicalise_py(ls, rs)
    assert game(lefts, rights) is _intern(*fast) is _game_py(lefts, rights)
    assert game(iter(rights), reversed(lefts)) is _game_py(rights, lefts)  # any iterables


@needs_kernel
@SETTINGS
@given(option_lists, option_lists)
def test_forms_the_kernel_makes_have_the_facts_intern_gives(lefts, rights):
    """The kernel makes new general forms itself (as ``_intern`` does): same slots."""
    g = game(lefts, rights)
    assert _by_id[g.id] is g
    assert _interned[g._key] is g
    assert g._key == (tuple(x.id for x in g.left), tuple(x.id for x in g.right))
    if g._up is None:
        assert g.number_value is None and g.nim_value is None
        assert g._ls == max(x._rs for x in g.left) and type(g._ls) is float
        assert g._rs == min(x._ls for x in g.right) and type(g._rs) is float
        assert (g.left, g.right) == (_sorted(g.left), _sorted(g.right))
        assert _uptimal_of(g.left, g.right) is None


FRESH_FORMS = """
import json, random, sys
from cgframework.values import game, nimber, number
from cgframework.values.canonical import (
    CanonicalGame, EAGER_BIRTHDAY, _by_id, _interned, _kernel, _uptimal_options, _uptimals
)
made_in_c = "--check" in sys.argv
rng = random.Random(2026)
pool = [number(0), number(1), nimber(1)]  # (1 and * exist at import: 0 | 1 | * made by game())
facts = []
for step in range(600):
    picks = [rng.choice(pool) for _ in range(rng.randint(0, 4))]
    split = rng.randint(0, len(picks))
    g = game(picks[:split], picks[split:])
    numbers = [x for x in pool if x.number_value is not None]
    if rng.random() < 0.5:  # numbers made by game() alone: {a | b}, {a |}, {| a}
        a, b = rng.choice(numbers), rng.choice(numbers)
        g = game([a], [b]) if rng.random() < 0.6 else game([a], []) if a > b else game([], [a])
    elif rng.random() < 0.5:  # infinitesimals at a number x: {x | u}, {u | x}, {x, x* | x}, *m
        x = rng.choice(numbers)
        at_x = [u for u in pool if u._up is not None and u._up[0] == x.number_value]
        u, kind = rng.choice(at_x), rng.randrange(4)
        if kind < 2:
            g = game([x], [u]) if kind == 0 else game([u], [x])
        else:
            stars = [v for v in at_x if v._up[1] == 0]  # x + *j: their {S | S} is x + *m
            g = game([x, game([x], [x])], [x]) if kind == 2 else game(stars, stars)
    if g not in pool and len(pool) < 150:
        pool.append(g)
    facts.append([str(g), str(g._up), str(g.number_value), g.nim_value, g._ls, g._rs,
                  g.birthday(), type(g).__name__, sorted(map(str, g.left)),
                  sorted(map(str, g.right))])
    if made_in_c:  # the kernel's forms are the ones canonical.py would have made
        assert _by_id[g.id] is g and _interned[g._key] is g
        assert g._key == (tuple(x.id for x in g.left), tuple(x.id for x in g.right))
        assert type(g._ls) is float and type(g._rs) is float
        if g._up is not None:
            x, n, m = g._up
            assert _uptimals[x.numerator, x.denominator, n, m] is g
            assert (g.left, g.right) == _uptimal_options(*g._up)
            assert type(g._up[0].numerator) is int and g._up[0] == float(g._up[0])
            assert hash(g._up[0]) == hash(float(g._up[0]))  # a Fraction as Fraction() makes
            assert type(g) is CanonicalGame and g.birthday() <= EAGER_BIRTHDAY
print(json.dumps(facts))
if made_in_c:
    print(json.dumps(_kernel.info()))
"""


def _fresh_forms(pure: str, *args: str) -> list[str]:
    # PYTHONSAFEPATH: the installed cgframework, not a source folder the tests run from (an
    # unpacked sdist has no built kernel)
    env = {**os.environ, PURE_PYTHON_ENV: pure, "PYTHONSAFEPATH": "1"}
    done = subprocess.run(
        [sys.executable, "-c", FRESH_FORMS, *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@needs_kernel
def test_numbers_and_uptimals_the_kernel_makes_are_the_ones_python_makes():
    """game() of number and uptimal options makes new numbers, ``x*``, ``x + n.^ + *m`` and
    switches ``{x | y}`` in C (a fresh process, where nearly every one is new): each has the
    slots, table entries and options canonical.py's ``_uptimal`` gives it, and the same 600
    games with their facts come out as in a pure-Python process."""
    with_kernel = _fresh_forms("0", "--check")
    assert with_kernel[0] == _fresh_forms("1")[0]
    facts = json.loads(with_kernel[0])
    uptimals = {f[1] for f in facts if f[1] != "None"}
    assert len(uptimals) > 40 and json.loads(with_kernel[1])["uptimals_made"] > 30
    assert any(", 0, 1)" in u and "(0, 1)" not in u for u in uptimals)  # some x*
    assert any(", 1, 1)" in u for u in uptimals) and any(", 2, 0)" in u for u in uptimals)
    assert any(f[1] == "None" and f[8] and f[9] for f in facts)  # general forms


@needs_kernel
def test_the_kernel_makes_uptimals_only_as_old_as_canonical_py_lists_options_of():
    """The kernel's MADE_BIRTHDAY (64) is canonical.py's EAGER_BIRTHDAY: an uptimal born
    later is canonical.py's lazy ``_Uptimal`` (options not listed), never made in C."""
    from cgframework.values import canonical

    assert canonical.EAGER_BIRTHDAY == 64
    big = game([number(63)], [])  # 64: born on day 64, made eagerly
    assert type(big) is canonical.CanonicalGame and big.left == (number(63),)
    later = game([big], [])  # 65: canonical.py's lazy uptimal
    assert type(later) is canonical._Uptimal and later is number(65)


@needs_kernel
@SETTINGS
@given(games, games)
def test_kernel_ge_agrees_with_python(g, h):
    fast = _kernel.ge(g.id, h.id)
    assert fast is not None
    assert fast == ge_py(g, h) == ge_by_definition(g, h) == ge(g, h)
    assert _kernel.ge(h.id, g.id) == ge_py(h, g)


@needs_kernel
@SETTINGS
@given(games, games)
def test_kernel_add_and_negate_agree_with_python(g, h):
    total = _kernel.add(g, h)
    assert total is not None and total is add_py(g, h) is _kernel.add(h, g)
    assert _kernel.negate(g) is negate_py(g) and _kernel.negate(_kernel.negate(g)) is g
    assert _kernel.add(g, _kernel.negate(g)) is number(0)


@needs_kernel
def test_game_uses_the_kernel(monkeypatch):
    """game() on option lists met the first time canonicalises in the kernel, not in Python."""
    from cgframework.values import canonical

    expected = _canonicalise_py(
        _sorted([UP, nimber(1), game([number(77)], [number(-55)])]), _sorted([nimber(2)])
    )

    def refuse(*args):
        raise AssertionError("the pure-Python loop ran")

    monkeypatch.setattr(canonical, "_canonicalise_py", refuse)
    monkeypatch.setattr(canonical, "_game_memo", {})
    assert game([UP, nimber(1), game([number(77)], [number(-55)])], [nimber(2)]) is expected


@needs_kernel
def test_games_the_kernel_does_not_model_fall_back_to_python():
    tiny = number(Fraction(1, 2**3000))  # its stop is no float: not modelled
    switch = game([tiny], [number(0)])
    hot = game([number(1)], [number(-1)])
    assert _kernel.ge(tiny.id, hot.id) is None
    assert _kernel.canonicalise([switch.id], [hot.id]) is None
    assert ge(hot, switch) == ge_py(hot, switch) == ge_by_definition(hot, switch)
    assert game([switch], [hot]) is _canonicalise_py((switch,), (hot,))
    deep = up(10**6)  # a lazy uptimal: compared by its payload, its options not listed
    assert _kernel.ge(deep.id, up(3).id) is True
    tiny_one = game([number(0)], [game([number(0)], [number(-1)])])  # stops 0 and 0
    assert _kernel.ge(deep.id, tiny_one.id) is None
    assert ge(deep, tiny_one) == ge_py(deep, tiny_one)
    assert _kernel.ge(up(2**70).id, UP.id) is None  # payload beyond int64: not modelled
    assert ge(up(2**70), UP)
    assert _kernel.add(switch, hot) is None and _kernel.negate(switch) is None
    assert add(switch, hot) is add_py(switch, hot) and -switch is negate_py(switch)
    lazy = uptimal("1/8", 123, 3)  # born after EAGER_BIRTHDAY: options not listed yet
    assert _kernel.add(lazy, tiny_one) is None
    assert add(lazy, tiny_one) is add_py(lazy, tiny_one)
    assert _kernel.add(lazy, tiny_one) is add_py(lazy, tiny_one)  # its options are known now
    with pytest.raises(ValueTooLarge):  # as the Python path refuses it
        add(deep, tiny_one)


@needs_kernel
def test_games_deeper_than_the_kernel_goes_fall_back_without_a_crash():
    """Past its depth limit (1000 levels) the kernel answers None and Python recurses (on
    call_deep's big-stack thread, as solve() does)."""

    def chain_of_switches() -> list:
        g = game([number(1)], [number(-1)])
        for k in range(1100):  # {k+2 | {k+1 | ... {1 | -1}}}: 1102 levels, canonical
            g = game([number(k + 2)], [g])
        h = add(g, UP)
        return [
            g.birthday(),
            ge(h, g) == ge_py(h, g) is True,
            ge(g, h) == ge_py(g, h) is False,
            negate(h) is negate_py(h),
        ]

    assert call_deep(chain_of_switches) == [1102, True, True, True]


@needs_kernel
def test_bad_input_raises_instead_of_crashing():
    with pytest.raises(TypeError):
        _kernel.canonicalise(["a"], [])
    assert _kernel.canonicalise([2**40], []) is None  # not an id the kernel models
    assert _kernel.ge(10**8, 0) is None  # never registered
    with pytest.raises(AttributeError):  # as in the Python path: not a game
        game([1], [])


SOLVE = """
import json
from cgframework import get_registry, parse_position, solve
rules = get_registry().ruleset("domineering")
print(json.dumps([str(solve(rules, parse_position(rules, p)).value)
                  for p in ("....|....|.#..", "...|.#.|...|...", ".....|..#..|.....")]))
"""


def test_a_solve_gives_the_same_value_with_and_without_the_kernel():
    values = []
    for pure in ("1", "0"):
        env = {**os.environ, PURE_PYTHON_ENV: pure}
        done = subprocess.run(
            [sys.executable, "-c", SOLVE], env=env, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
        values.append(json.loads(done.stdout))
    assert values[0] == values[1]


class _Stop(Exception):
    pass


@needs_kernel
def test_an_exception_raised_in_the_tick_stops_a_long_add_and_leaves_the_kernel_sound():
    """The kernel calls a Python no-op every few hundred new forms, so a deadline (an
    exception run_deep raises asynchronously in the search thread) or Ctrl-C reaches a long
    add() in C: the exception comes out of add(), and what the kernel had memoised stays
    right (the sum computed afterwards equals the pure-Python one)."""
    from cgframework.values import canonical

    parts = [game([number(3**k)], [number(-(3**k)), up(k)]) for k in range(1, 10)]
    calls = []

    def stop_soon() -> None:
        calls.append(1)
        if len(calls) == 3:
            raise _Stop

    _kernel.set_tick(stop_soon)
    try:
        with pytest.raises(_Stop):
            total = parts[0]
            for g in parts[1:]:
                total = add(total, g)
    finally:
        _kernel.set_tick(canonical._tick)
    total = expected = parts[0]
    for g in parts[1:]:
        total, expected = add(total, g), add_py(expected, g)
    assert total is expected


def test_a_timeout_stops_a_long_sum_in_the_kernel():
    """``--timeout`` reaches a single long add() in C (Snort paths of 9 to 12 vertices: their
    sum is minutes of work): before the tick, the command held the interpreter for 20 s past
    a 3 s timeout; now it stops within the grace second."""
    import time

    start = time.monotonic()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "cgframework",
            "solve",
            "snort",
            "path:9 + path:10 + path:11 + path:12",
            "--timeout",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 3, done.stderr
    assert done.stderr.strip() == "cgf: error: search stopped after 1 s (--timeout)"
    assert time.monotonic() - start < 10
