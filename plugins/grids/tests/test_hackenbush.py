"""Hackenbush: book values and the closed-form solvers against the generic search."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import solve
from cgframework.values import nimber, number


def value(text, method="auto"):
    return solve("hackenbush", text, method=method)


def test_blue_red_stalks_from_the_books():
    """Winning Ways ch. 1-2 / Lessons in Play ch. 2: B = 1, BR = 1/2, BRR = 1/4, BRB = 3/4,
    and a red stalk is negative."""
    for text, expected in [
        ("B", 1),
        ("BR", "1/2"),
        ("BRR", "1/4"),
        ("BRB", "3/4"),
        ("RRB", "-3/2"),
    ]:
        solution = value(text)
        assert solution.method == "blue-red-stalks"
        assert solution.value is number(Fraction(expected))
        assert value(text, "generic").value is number(Fraction(expected))


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 7))
def test_green_stalk_of_n_edges_is_star_n(n):
    text = "G" * n if n else "empty"
    assert value(text).value is nimber(n)
    assert value(text, "generic").value is nimber(n)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(alphabet="BR", min_size=1, max_size=6), min_size=1, max_size=3))
def test_sign_expansion_agrees_with_the_generic_search(stalks):
    text = " + ".join(stalks)
    closed = value(text)
    assert closed.method == "blue-red-stalks"
    assert closed.value is value(text, "generic").value


@st.composite
def green_trees(draw):
    """A random green forest on the ground: vertex k > 0 hangs from a vertex below it."""
    n = draw(st.integers(1, 8))
    parents = [draw(st.integers(0, k - 1)) for k in range(1, n + 1)]
    return ",".join(f"{p}-{k}:G" for k, p in enumerate(parents, 1))


@settings(max_examples=40, deadline=None)
@given(green_trees())
def test_colon_principle_agrees_with_the_generic_search(text):
    closed = value(text)
    assert closed.method == "green-hackenbush"
    assert closed.value is value(text, "generic").value


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 4), st.integers(0, 4), st.sampled_from("BRG")),
        min_size=1,
        max_size=6,
    )
)
def test_general_pictures_key_search_matches_generic(edges):
    """Pictures with cycles, loops and repeated edges: the auto path (parts, tree keys)
    against the plain recursion on the whole picture."""
    text = ",".join(f"{u}-{v}:{c}" for u, v, c in edges)
    assert value(text).value is value(text, "generic").value


def test_pictures_parse_in_every_form_alike():
    edge_list = value("0-1:B,1-2:R,1-3:G").value
    as_json = value('{"ground": 5, "edges": [[5, 1, "B"], [1, 2, "R"], [1, 3, "g"]]}').value
    assert edge_list is as_json
    assert value("BR + BR + R").value is number(0)  # 1/2 + 1/2 - 1
    assert value("0-1:B,2-3:R").value is number(1)  # the red edge is not on the ground
