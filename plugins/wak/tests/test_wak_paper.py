"""Numbers of Dailly, Gledel & Heinrich, "A generalization of Arc-Kayles"
(../shared/papers/003_wak.txt, cited by line L###) and of its digest
(../shared/notes/003_wak.md, reconstructions verified by brute force), reproduced here."""

from __future__ import annotations

import itertools

import pytest

from cgframework import solve
from cgframework_wak.families import unbounded, unbounded_arc_kayles
from cgframework_wak.formulas import depth2_outcome_is_p, lemma2
from cgframework_wak.graph import make_graph
from cgframework_wak.oracle import plain_grundy
from cgframework_wak.parse import grid_graph, parse_graph
from cgframework_wak.periodic import detect_period
from cgframework_wak.search import Search


def ak(text: str, method: str = "auto") -> int:
    return solve("arc-kayles", text, method=method).grundy


def wak(text, method: str = "auto") -> int:
    return solve("wak", text, method=method).grundy


def test_arc_kayles_paths_are_octal_007_up_to_200():
    """L12: Arc-Kayles on a path is the octal game 0.07 (Dawson's Kayles). Deleting an edge
    and its ends from P_n takes 2 vertices from a heap of n, so AK(P_n) = G_0.07(n): this is
    Dawson's chess (0.137, OEIS A002187) shifted by one vertex. The search with closed forms
    off derives P_1..P_200 itself; the octal values come from the core's octal ruleset."""
    search = Search(closed_forms=False)
    for n in range(1, 201):
        octal = solve("octal", f"0.07:{n}").grundy
        assert search.grundy(parse_graph(f"path:{n}", True)) == octal, n
        if n % 7 == 0:  # the arc-kayles-path solver (with its winning moves) on a sample
            assert ak(f"path:{n}") == octal


def test_arc_kayles_paths_first_thirty_against_generic():
    """Digest 4.2: AK(P_1..P_30), also by the generic brute force."""
    values = "0 1 1 2 0 3 1 1 0 3 3 2 2 4 0 5 2 2 3 3 0 1 1 3 0 2 1 1 0 4"
    expected = [int(g) for g in values.split()]
    assert [ak(f"path:{n}", "generic") for n in range(1, 31)] == expected
    assert [ak(f"path:{n}") for n in range(1, 31)] == expected


def test_arc_kayles_cycles():
    """Digest 4.2: G(C_n) = 1 iff AK(P_{n-2}) = 0, for C_3..C_30."""
    expected = [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]
    assert [ak(f"cycle:{n}") for n in range(3, 31)] == expected
    assert [ak(f"cycle:{n}", "generic") for n in range(3, 13)] == expected[:10]


def test_arc_kayles_wheels_complete_ladders():
    """Digest 4.2 (brute force, not from the paper): wheels W_3..W_16, K_n = floor(n/2) mod 2,
    ladders 2 x n alternate 1, 0."""
    assert [ak(f"wheel:{n}") for n in range(3, 17)] == [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1]
    assert [ak(f"complete:{n}") for n in range(1, 12)] == [n // 2 % 2 for n in range(1, 12)]
    assert [ak(f"grid:2x{n}") for n in range(1, 9)] == [1, 0, 1, 0, 1, 0, 1, 0]


def test_arc_kayles_grids():
    """Digest 4.2: 3 x n for n = 1..7 and 4 x 4, 4 x 5 (3 x 8 and 5 x 5 in the slow test)."""
    assert [ak(f"grid:3x{n}") for n in range(1, 8)] == [1, 1, 0, 1, 1, 4, 1]
    assert ak("grid:4x4") == 0
    assert ak("grid:4x5") == 2
    assert ak("grid:3x5", "generic") == 1


@pytest.mark.slow
def test_arc_kayles_big_grids():
    """Digest 4.2: 3 x 8 = 3, 4 x 6 = 0."""
    assert Search().grundy(grid_graph(3, 8)) == 3
    assert Search().grundy(grid_graph(4, 6)) == 0


@pytest.mark.parametrize(("a", "expected"), [(a, a % 2) for a in range(8)])
def test_lemma1_looped_vertex(a, expected):
    """Lemma 1 (L170-L173): a looped vertex with a counters has value a mod 2."""
    g = make_graph(1, [], [0], [a])
    assert plain_grundy(g) == expected == wak(g, "isolated-loop" if a else "auto")


def test_lemma2_table():
    """Lemma 2 (L174-L184), table L177-L180: rows parity of min(a,b), columns of max(a,b):
    [[0, 1], [3, 2]]; e.g. (1,1) -> 2, (1,2) -> 3, (2,2) -> 0, (2,3) -> 1 (digest 4.1)."""
    table = {(0, 0): 0, (0, 1): 1, (1, 0): 3, (1, 1): 2}
    for a, b in itertools.product(range(1, 10), repeat=2):
        g = make_graph(2, [(0, 1)], [0, 1], [a, b])
        value = plain_grundy(g)
        assert value == table[min(a, b) % 2, max(a, b) % 2] == lemma2(a, b)
        assert wak(g, "looped-edge") == value
    assert [lemma2(*p) for p in [(1, 1), (1, 2), (2, 2), (2, 3)]] == [2, 3, 0, 1]


def test_stars_and_k2():
    """L159: a star reduces to the edge c - (sum of leaves): value min(c, sum l) mod 2."""
    for c, leaves in itertools.product(range(1, 5), itertools.product(range(1, 5), repeat=3)):
        text = f"star:{c};{','.join(map(str, leaves))}"
        g = parse_graph(text)
        assert plain_grundy(g) == min(c, sum(leaves)) % 2 == wak(text, "star")
    for a, b in itertools.product(range(1, 7), repeat=2):
        k2 = parse_graph(f"path:{a},{b}")
        assert wak(k2, "star") == min(a, b) % 2 == plain_grundy(k2)


def test_remark3():
    """Remark 3 (L187-L193, digest reconstruction): a(L) + [b(L) - c(L)] is P iff a, b, c are
    all even, or a and max(b, c) are odd and min(b, c) is even."""
    for a, b, c in itertools.product(range(6), repeat=3):
        g = make_graph(3, [(1, 2)], [0, 1, 2], [a, b, c])
        p = (a % 2 == b % 2 == c % 2 == 0) or (
            a % 2 == 1 and max(b, c) % 2 == 1 and min(b, c) % 2 == 0
        )
        assert (plain_grundy(g) == 0) == p


def test_lemma5_heavy_case_closed_form():
    """Lemma 5 (L212-L219, statement lost; digest): the path a(L) - c - X - Y with X >= c + Y
    has value ((a + c + Y) mod 2) + 2 (min(a, c) mod 2); with X < c + Y it is P iff a + X is
    even."""
    for a, c, x, y in itertools.product(range(5), range(1, 5), range(1, 6), range(1, 4)):
        g = make_graph(4, [(0, 1), (1, 2), (2, 3)], [0], [a, c, x, y])
        value = plain_grundy(g)
        if x >= c + y:
            assert value == (a + c + y) % 2 + 2 * (min(a, c) % 2)
        else:
            assert (value == 0) == ((a + x) % 2 == 0)
        assert depth2_outcome_is_p(a, c, x, y) == (value == 0)


P4 = (
    "1111:2 1112:2 1113:2 1121:0 1122:3 1123:3 1131:0 1132:1 1133:2 1211:0 1212:0 1213:0 "
    "1221:1 1222:1 1223:1 1231:1 1232:0 1233:0 1311:0 1312:0 1313:0 1321:1 1322:1 1323:1 "
    "1331:0 1332:0 1333:0 2111:2 2112:2 2113:2 2121:0 2122:3 2123:3 2131:0 2132:1 2133:2 "
    "2211:3 2212:3 2213:3 2221:1 2222:0 2223:0 2231:1 2232:0 2233:1 2311:1 2312:1 2313:1 "
    "2321:0 2322:0 2323:0 2331:0 2332:1 2333:1 3111:2 3112:2 3113:2 3121:0 3122:3 3123:3 "
    "3131:0 3132:1 3133:2 3211:3 3212:3 3213:3 3221:1 3222:0 3223:0 3231:1 3232:0 3233:1 "
    "3311:2 3312:2 3313:2 3321:0 3322:1 3323:1 3331:0 3332:1 3333:2"
)


@pytest.mark.parametrize("method", ["auto", "generic", "depth2-tree"])
def test_p4_table(method):
    """Digest 4.2: WAK on P_4 with counters 1..3 (P_4 has depth 2 rooted at its second
    vertex, so the depth-2 formula must match too)."""
    for entry in P4.split():
        key, value = entry.split(":")
        assert wak("path:" + ",".join(key), method) == int(value), key


def test_paths_of_threes_and_k3():
    """Digest 4.2: P_n with 3 counters each, n = 1..10; K_3 values; C_n with 2 counters is 0."""
    expected = [0, 1, 1, 2, 0, 2, 1, 1, 0, 2]
    assert [wak("path:" + ",".join(["3"] * n)) for n in range(1, 11)] == expected
    k3 = {(1, 2, 2): 0, (1, 2, 3): 3, (2, 2, 2): 0, (2, 3, 4): 0, (3, 3, 3): 0, (4, 4, 5): 0}
    for weights, value in k3.items():
        assert wak("complete:" + ",".join(map(str, weights)), "generic") == value
        assert wak("complete:" + ",".join(map(str, weights))) == value
    assert [wak("complete:1,1," + str(c)) for c in range(1, 6)] == [1, 2, 2, 2, 2]
    assert wak("cycle:" + ",".join(["2"] * 7)) == 0


@pytest.mark.parametrize(("n", "value"), [(1, 1), (2, 3), (3, 2), (4, 6), (5, 7)])
def test_unbounded_family(n, value):
    """Theorem 2 (L307-L328): G_1..G_5 have pairwise distinct values 1, 3, 2, 6, 7 (digest
    2.6); |V(G_n)| = 3^(n-1) (L332)."""
    g, root = unbounded(n)
    assert g.n == 3 ** (n - 1) and g.has_loop(root)
    assert wak(g) == value


@pytest.mark.parametrize(("n", "value"), [(1, 1), (2, 3), (3, 2), (4, 6)])
def test_unbounded_arc_kayles_family(n, value):
    """Corollary 1 (L330-L331): the Arc-Kayles forests T_n (loops become pendant leaves,
    2*3^(n-1) vertices) have the same values."""
    t = unbounded_arc_kayles(n)
    assert t.n == 2 * 3 ** (n - 1)
    assert ak(t) == value


def test_unbounded_family_small_by_generic():
    assert [wak(unbounded(n)[0], "generic") for n in (1, 2, 3)] == [1, 3, 2]


@pytest.mark.parametrize("k", [2, 3, 4, 5])
def test_triangle_pendant_preperiod_is_two_omega_minus_six(k):
    """Section 6 (L264-L298; statement lost, digest 2.5): triangle v1 v2 v3, loop on v1,
    w(v2) = 2, w(v3) = k, pendant v4 (1 counter) on v2, so Omega = k + 3. The outcome
    sequence in x = w(v1) has period 2 and preperiod exactly 2k = 2*Omega - 6 (a bound of
    Omega would be wrong); its Grundy values peak at 4 just before (x = 2k - 1)."""
    seq = []
    for x in range(0, 2 * k + 10):
        g = make_graph(4, [(0, 1), (0, 2), (1, 2), (1, 3)], [0], [x, 2, k, 1])
        seq.append(plain_grundy(g))
    outcomes = [int(v == 0) for v in seq]
    assert detect_period(outcomes) == (2 * k, 2)
    assert detect_period(seq) == (2 * k, 2)
    assert seq[2 * k - 1] == 4
    assert all(seq[x] == 0 for x in range(0, 2 * k, 2))
