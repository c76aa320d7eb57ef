"""Node-Kayles (the ruleset, its syntax and the published 3 x n values) and the vertex-mask
component games (``kayles_masks.py``) under the Lemoine-Viennot search, against the mex
route and an independent brute force."""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import solve
from cgframework.solvers.vertex_masks import as_strip
from cgframework.testing import run_cli
from cgframework_grids.graphs import graph
from cgframework_grids.kayles_masks import kayles_masks
from cgframework_grids.nodekayles import format_plain_graph, parse_plain_graph

A316632 = [2, 1, 1, 0, 3, 3, 2, 2, 2, 3, 3, 5, 2, 4, 1, 3]
"""OEIS A316632, "a(n) is the Sprague-Grundy value of the Node-Kayles game on the 3 X n
lattice graph", n = 1..16 (Brown, Daugherty, Fiorini, Maldonado, Manzano-Ruiz, Rainville,
Waechter and Wong, "Nimber Sequences of Node-Kayles Games", J. Integer Seq. 23 (2020),
Article 20.3.5)."""


def brute_node_kayles(n: int, edges) -> int:
    """The Grundy value by the mex rule over vertex sets (no components, no keys)."""
    nbrs = [frozenset(v for e in edges if u in e for v in e) | {u} for u in range(n)]

    @cache
    def g(alive: frozenset) -> int:
        seen = {g(alive - nbrs[v]) for v in alive}
        k = 0
        while k in seen:
            k += 1
        return k

    return g(frozenset(range(n)))


@st.composite
def graphs(draw, max_order=8):
    n = draw(st.integers(1, max_order))
    pairs = [(u, v) for u in range(n) for v in range(u + 1, n)]
    edges = draw(st.lists(st.sampled_from(pairs), max_size=n + 4, unique=True)) if pairs else []
    return n, sorted(edges)


def text_of(n, edges) -> str:
    return format_plain_graph(graph(n, edges))


@settings(max_examples=60, deadline=None)
@given(graphs())
def test_node_kayles_matches_brute_force_by_every_method(g):
    n, edges = g
    text = text_of(n, edges)
    expected = brute_node_kayles(n, edges)
    plain = solve("node-kayles", text, method="generic")
    fast = solve("node-kayles", text, method="lemoine-viennot")
    assert plain.grundy == fast.grundy == expected
    assert sorted(plain.best_moves) == sorted(fast.best_moves)


@settings(max_examples=30, deadline=None)
@given(graphs(6), graphs(5))
def test_node_kayles_sums(a, b):
    text = f"{text_of(*a)} + {text_of(*b)}"
    expected = brute_node_kayles(*a) ^ brute_node_kayles(*b)
    assert solve("node-kayles", text, method="lemoine-viennot").grundy == expected
    assert solve("node-kayles", text).grundy == expected


@st.composite
def grid_pieces(draw):
    """A grid R x C (as ``grid:RxC`` numbers it) and a set of its vertices."""
    rows, cols = draw(st.integers(1, 4)), draw(st.integers(1, 6))
    alive = draw(st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols))
    return rows, cols, [v for v, keep in enumerate(alive) if keep]


@pytest.mark.parametrize("edges", [False, True])
@settings(max_examples=40, deadline=None)
@given(grid_pieces())
def test_strip_keys_are_pieces_of_the_same_value(edges, piece):
    """A folded key (moved to the first column and row, mirrored) is a piece of the host
    with the same nimber as the piece it stands for."""
    rows, cols, alive = piece
    host = parse_plain_graph(f"grid:{rows}x{cols}")
    game = kayles_masks(host, edges=edges, alive=alive)
    assert game.height == min(rows, cols)
    inverse = {label: v for v, label in enumerate(game.label)}
    ruleset = "arc-kayles" if edges else "node-kayles"

    def value(mask: int) -> int:
        keep = [inverse[b] for b in range(len(game.label)) if mask >> b & 1]
        if not keep:
            return 0
        names = {v: i for i, v in enumerate(keep)}
        sub = [(names[u], names[v]) for u, v in host.edges if u in names and v in names]
        if edges and not sub:
            return 0
        text = ",".join(f"{u}-{v}" for u, v in sub) + f";n={len(keep)}"
        return solve(ruleset, text, method="generic").grundy

    for raw in game.pieces(game.start):
        key = game.fold(raw)
        assert key.bit_count() == raw.bit_count()
        assert value(key) == value(raw)


def test_grid_hosts_are_recognised_as_strips():
    def strip(text):
        g = parse_plain_graph(text)
        return as_strip(g.order, g.edges)

    assert strip("path:5")[0] == 1
    assert strip("grid:3x7")[0] == 3
    assert strip("grid:7x3")[0] == 3
    assert strip("cycle:5") is None


@pytest.mark.parametrize("n", range(1, 17))
def test_published_3xn_values(n):
    """OEIS A316632 (3 x 16: under a second here)."""
    assert solve("node-kayles", f"grid:3x{n}", method="lemoine-viennot").grundy == A316632[n - 1]


@pytest.mark.parametrize("n", range(1, 7))
def test_published_3xn_values_by_the_mex_route(n):
    assert solve("node-kayles", f"grid:3x{n}", method="generic").grundy == A316632[n - 1]


def test_paths_are_dawsons_kayles():
    """Node-Kayles on a path of n vertices is Dawson's Kayles on n + 1 pins... written as
    octal 0.137 on n (Winning Ways, ch. 4: Dawson's chess)."""
    for n in range(1, 25):
        assert (
            solve("node-kayles", f"path:{n}", method="lemoine-viennot").grundy
            == solve("octal", f"0.137:{n}").grundy
        )


@pytest.mark.parametrize("rows, cols", [(2, 3), (3, 3), (3, 4), (2, 5)])
def test_cram_is_arc_kayles_on_the_grid(rows, cols):
    board = f"rect:{rows}x{cols}"
    expected = solve("arc-kayles", f"grid:{rows}x{cols}", method="generic").grundy
    assert solve("cram", board, method="lemoine-viennot").grundy == expected


def test_syntax_round_trips():
    for text in ("0-1,1-2;n=5", "0-1,2-3", "path:0", "path:3", "grid:2x2", '{"n": 2, "edges": []}'):
        g = parse_plain_graph(text)
        assert parse_plain_graph(format_plain_graph(g)) == g


@pytest.mark.parametrize(
    "text, where",
    [
        ("0-1;n=1", "n=1"),
        ("0-1;tints=L.", "unknown option"),
        ("path:3;tints=L..", "unknown option"),
        ('{"n": 2, "edges": [], "tints": "L."}', "no tints"),
        (";n=0", "n=0"),
        ("0-1;n=500", "400"),
        ("grid:30x30", "400"),
    ],
)
def test_bad_positions_are_one_line_exit_2(capsys, text, where):
    code, out, err = run_cli(capsys, "solve", "node-kayles", text)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("cgf: error:") and where in err


def test_cli_solves_with_the_search(capsys):
    code, out, err = run_cli(
        capsys, "solve", "node-kayles", "grid:3x5", "--method", "lemoine-viennot"
    )
    assert code == 0, err
    assert "*3" in out
