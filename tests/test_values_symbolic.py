"""Uptimals ``x + n.^ + *m`` kept as payloads: every rule against an independent
tree implementation for small n, against cgt-py for mid-size n, and at sizes no tree reaches
(*2^64, 10^30, 10^6 ups).

The reference here builds canonical forms from the definitions alone (Siegel CGT II.1-II.2:
G <= H iff no G^L >= H and no H^R <= G; delete dominated options, bypass reversible ones) on
plain frozenset trees, with none of the module's shortcuts.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework.game import Outcome
from cgframework.values import DOWN, ONE, STAR, UP, ZERO, game, nimber, number, parse_value, up
from cgframework.values.canonical import (
    StarOptions,
    ValueTooLarge,
    add,
    ge,
    ge_by_definition,
    uptimal,
)
from cgframework.values.thermograph import thermograph, thermograph_by_options

SMALL = settings(max_examples=60, deadline=None)

# ---- the reference: frozenset trees, canonical by definition -------------------------------
T0 = (frozenset(), frozenset())


@cache
def t_le(g, h) -> bool:
    return not any(t_le(h, gl) for gl in g[0]) and not any(t_le(hr, g) for hr in h[1])


def t_canon(lefts, rights):
    lefts, rights = set(lefts), set(rights)
    while True:
        lefts = {a for a in lefts if not any(b != a and t_le(a, b) for b in lefts)}
        rights = {a for a in rights if not any(b != a and t_le(b, a) for b in rights)}
        g = (frozenset(lefts), frozenset(rights))
        # G^L reverses through G^LR <= G (replaced by G^LRL); G^R through G^RL >= G
        new_l, changed_l = _bypass(lefts, 1, lambda x, g=g: t_le(x, g), 0)
        new_r, changed_r = _bypass(rights, 0, lambda x, g=g: t_le(g, x), 1)
        if not (changed_l or changed_r):
            return g
        lefts, rights = new_l, new_r


def _bypass(options, through, reverses, replacement):
    """Options with each reversible one replaced (side indices: 0 Left, 1 Right)."""
    out, changed = set(), False
    for a in options:
        for x in a[through]:
            if reverses(x):
                out |= x[replacement]
                changed = True
                break
        else:
            out.add(a)
    return out, changed


@cache
def t_add(g, h):
    if g == T0:
        return h
    if h == T0:
        return g
    lefts = {t_add(x, h) for x in g[0]} | {t_add(g, y) for y in h[0]}
    rights = {t_add(x, h) for x in g[1]} | {t_add(g, y) for y in h[1]}
    return t_canon(lefts, rights)


def t_neg(g):
    return (frozenset(t_neg(x) for x in g[1]), frozenset(t_neg(x) for x in g[0]))


@cache
def t_number(x: Fraction):
    """Dyadic numbers by their definition (integers n = {n-1|}, m/2^j = {x - 2^-j | x + 2^-j})."""
    d = x.denominator
    if d > 1:
        step = Fraction(1, d)
        return (frozenset([t_number(x - step)]), frozenset([t_number(x + step)]))
    if x > 0:
        return (frozenset([t_number(x - 1)]), frozenset())
    if x < 0:
        return (frozenset(), frozenset([t_number(x + 1)]))
    return T0


@cache
def t_star(m: int):
    opts = frozenset(t_star(j) for j in range(m))
    return (opts, opts)


T_UP = (frozenset([T0]), frozenset([t_star(1)]))


def t_uptimal(x: Fraction, n: int, m: int):
    """x + n.^ + *m built as a sum of pieces (repeated addition of ^ or v)."""
    total = t_add(t_number(x), t_star(m))
    piece = T_UP if n > 0 else t_neg(T_UP)
    for _ in range(abs(n)):
        total = t_add(total, piece)
    return total


def tree_of(g, memo=None):
    """Our value as a frozenset tree, through its (lazily built) options."""
    memo = {} if memo is None else memo
    found = memo.get(g.id)
    if found is None:
        found = (
            frozenset(tree_of(x, memo) for x in g.left),
            frozenset(tree_of(x, memo) for x in g.right),
        )
        memo[g.id] = found
    return found


def t_birthday(g) -> int:
    return 1 + max((t_birthday(x) for x in g[0] | g[1]), default=-1)


dyadics = st.builds(lambda a, j: Fraction(a, 2**j), st.integers(-3, 3), st.integers(0, 2))
payloads = st.tuples(dyadics, st.integers(-4, 4), st.integers(0, 4))


# ---- small: every rule against the reference ---------------------------------------------------
@SMALL
@given(payloads)
def test_uptimal_options_are_the_canonical_form(p):
    """The payload's options (built lazily, one level at a time) are the canonical form of
    the sum x + ^ + ... + ^ + *m built by the reference (Siegel CGT II.4, number translation)."""
    assert tree_of(uptimal(*p)) == t_uptimal(*p)


@SMALL
@given(payloads, payloads)
def test_sum_and_comparison_of_uptimals_against_the_tree(p, q):
    g, h = uptimal(*p), uptimal(*q)
    tg, th = t_uptimal(*p), t_uptimal(*q)
    assert tree_of(g + h) == t_add(tg, th)
    assert tree_of(-g) == t_neg(tg)
    assert (g <= h) == t_le(tg, th) == ge_by_definition(h, g)
    assert (g >= h) == t_le(th, tg)


@SMALL
@given(payloads)
def test_stops_birthday_temperature_mean_against_the_tree(p):
    g = uptimal(*p)
    assert g.birthday() == t_birthday(t_uptimal(*p))
    assert g.left_stop() == g.right_stop() == g.mean() == p[0]
    reference = thermograph_by_options(g)
    assert g.temperature() == reference.temperature
    assert thermograph(g) == reference
    expected = {">": Outcome.L, "<": Outcome.R, "=": Outcome.P, "||": Outcome.N}
    assert g.outcome() == expected[g.compare(ZERO)]


@settings(max_examples=40, deadline=None)
@given(dyadics, st.integers(-9, 9), st.integers(0, 9))
def test_thermograph_of_large_uptimals_is_that_of_the_representative(x, n, m):
    """Ups beyond 3 and stars beyond 3 reuse a small uptimal's walls: checked against the
    option-by-option rule up to 9 ups and *9."""
    g = uptimal(x, n, m)
    assert thermograph(g) == thermograph_by_options(g)


@SMALL
@given(payloads)
def test_forms_built_by_options_are_recognised(p):
    """game() on the canonical options, and a general sum that collapses, give the one
    interned uptimal object (equality stays identity)."""
    g = uptimal(*p)
    assert game(list(g.left), list(g.right)) is g
    switch = parse_value("{2|-1}")
    assert (switch + g) - switch is g


@pytest.mark.parametrize(
    ("text", "payload"),
    [
        ("^", (0, 1, 0)),
        ("^*", (0, 1, 1)),
        ("v*", (0, -1, 1)),
        ("*", (0, 0, 1)),
        ("^^*3", (0, 2, 3)),
    ],
)
def test_known_forms(text, payload):
    """Siegel CGT II.4: ^ = {0|*}, ^* = {0,*|0}, ^^* = {0|^}."""
    assert parse_value(text).uptimal == tuple(map(Fraction, payload[:1])) + payload[1:]


def test_named_forms_from_the_literature():
    """Winning Ways ch. 3: ^* = {0,*|0}, ^^ = {0|^*}, ^* || 0, ^^* > 0, ^*2 > 0."""
    assert game([ZERO, STAR], [ZERO]) is UP + STAR
    assert game([ZERO], [UP + STAR]) is up(2)
    assert (UP + STAR).compare(ZERO) == "||"
    assert up(2) + STAR > ZERO and UP + nimber(2) > ZERO and DOWN + nimber(2) < ZERO


# ---- any size ---------------------------------------------------------------------------------
def test_nimbers_up_to_two_to_the_64():
    n = 2**64
    g = nimber(n)
    assert g + g is ZERO and g + nimber(n + 1) is STAR
    assert g.nim_value == n and g.is_nimber and g.birthday() == n
    assert g.outcome() is Outcome.N and g.temperature() == 0 and g.mean() == 0
    options = g.left
    assert isinstance(options, StarOptions) and options is g.right
    assert options[7] is nimber(7) and options[-1] is nimber(n - 1) and nimber(n - 5) in options
    assert nimber(n) not in options
    assert str(g) == "*18446744073709551616" and parse_value(str(g)) is g
    assert g.compare(nimber(3)) == "||" and UP + g > ZERO


def test_integers_up_to_ten_to_the_30():
    big = 10**30
    g = number(big)
    assert g - number(big - 1) is ONE and g.left == (number(big - 1),) and g.right == ()
    assert g > number(big - 1) and -g < ZERO and g.birthday() == big
    assert g.temperature() == -1 and g.outcome() is Outcome.L
    assert str(g) == str(big) and parse_value(str(big)) is g
    half = number(Fraction(2 * big + 1, 2))
    assert half.birthday() == big + 2 and half.temperature() == Fraction(-1, 2)
    assert parse_value("2.25 + 9223372036854775808") is number(Fraction(36893488147419103241, 4))


def test_ups_up_to_a_million():
    n = 10**6
    g = up(n)
    assert g + up(-n) is ZERO and g.right == (uptimal(0, n - 1, 1),) and g.left == (ZERO,)
    assert g > up(n - 1) and g + STAR > ZERO and -g + STAR < ZERO
    assert g.birthday() == n + 1 and g.temperature() == 0
    assert str(g) == "^1000000" and str(-g) == "v1000000" and str(g + STAR) == "^1000000*"
    assert parse_value("^1000000 + *20000") is uptimal(0, n, 20000)
    assert str(parse_value("1/2v*255")) == "1/2v*255"


def test_general_games_refuse_to_expand_huge_uptimals():
    """A genuine tree over a huge uptimal is refused (ValueTooLarge, a ValueError), never a
    stack overflow."""
    with pytest.raises(ValueTooLarge):
        add(parse_value("{1|0}"), up(10**6))
    deep = game([up(10**6)], [number(-1)])  # a general game with a deep uptimal option
    assert str(deep) == "{^1000000|-1}" and deep.left == (up(10**6),)
    assert deep + STAR is game([up(10**6) + STAR, deep], [number(-1) + STAR, deep])
    with pytest.raises(ValueTooLarge):
        add(deep, parse_value("{1|0}"))
    with pytest.raises(ValueTooLarge):
        game([nimber(2**64)], [number(-1)])
    # comparisons need no tree
    assert parse_value("{1|0}").compare(up(10**6)) == "||" and ge(ONE, up(10**6))


# ---- printing ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "printed"),
    [
        ("^9", "^9"),
        ("*16 + ^", "^*16"),
        ("^12", "^12"),
        ("v12", "v12"),
        ("^3 + *", "^3*"),
        ("v5*7", "v5*7"),
        ("*100", "*100"),
        ("^^", "^^"),
        ("vv*", "vv*"),
        ("-3/4 + ^40", "-3/4^40"),
    ],
)
def test_printing_cgsuite_forms_for_any_n(text, printed):
    g = parse_value(text)
    assert str(g) == printed and parse_value(printed) is g


def test_long_values_are_elided_on_request():
    from cgframework.values import format_value

    g = parse_value("+".join(f"{{{k}|-{k}}}" for k in range(1, 10)))
    full = format_value(g)
    short = format_value(g, max_length=200)
    assert len(full) > 1000 and parse_value(full) is g
    assert len(short) < 260 and "elided" in short and short.startswith(full[:100])


# ---- cgt-py, mid-size -------------------------------------------------------------------------
def _from_peer(value):
    """A cgt-py value rebuilt with our parser and game(): its options parsed, then assembled."""
    text = lambda o: repr(o)[len("CanonicalForm('") : -2]  # noqa: E731
    return game(
        [parse_value(text(o)) for o in value.left_options],
        [parse_value(text(o)) for o in value.right_options],
    )


@settings(max_examples=25, deadline=None)
@given(
    st.tuples(st.integers(-3, 3), st.integers(-60, 60), st.integers(0, 40)),
    st.tuples(st.integers(-3, 3), st.integers(-60, 60), st.integers(0, 40)),
)
def test_mid_size_sums_and_comparisons_against_cgt_py(p, q):
    cgt_py = pytest.importorskip("cgt_py")
    g, h = uptimal(*p), uptimal(*q)
    peer_text = lambda v: str(v).replace("^^", "^2").replace("vv", "v2")  # noqa: E731
    peer_g, peer_h = cgt_py.CanonicalForm(peer_text(g)), cgt_py.CanonicalForm(peer_text(h))
    assert _from_peer(peer_g) is g
    assert _from_peer(peer_g + peer_h) is g + h
    assert (peer_g <= peer_h) == (g <= h)
    if p[2] <= 4:  # cgt-py's birthday walks the whole tree, exponential in the nimber
        assert peer_g.birthday == g.birthday()


def test_printing_makes_each_shared_subgame_once(monkeypatch):
    """A canonical form is a DAG: Snort's value on a 12-vertex path meets the same subgames on
    many paths, but the printer looks at each distinct one once (before, Snort on a 20-vertex
    path spent 6 of its 8 s printing the same subgames again and again)."""
    from cgframework import solve
    from cgframework.values import notation, parse_value

    g = solve("snort", "path:12").value
    distinct = set()
    todo = [g]
    while todo:
        h = todo.pop()
        if h.uptimal is None and h.id not in distinct:  # general subgames (numbers print
            distinct.add(h.id)  # as numbers, without looking at their options)
            todo.extend(h.left + h.right)
    seen = []
    special = notation._special
    monkeypatch.setattr(notation, "_special", lambda h: seen.append(h.id) or special(h))
    text = notation.format_value(g)
    assert parse_value(text) is g
    general = [i for i in seen if i in distinct]
    assert len(general) <= 2 * len(distinct)
    assert len(set(general)) == len(distinct)
