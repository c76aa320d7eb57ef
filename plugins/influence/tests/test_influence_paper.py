"""Numbers stated by Duchêne, Gonzalez, Parreau, Rémila, Solal, "INFLUENCE: a partizan
scoring game on graphs" (../shared/papers/001_influence.txt, cited as L###), reproduced.
Digest: ../shared/notes/001_influence.md (§ numbers below)."""

from __future__ import annotations

import pytest

from cgframework import Sum, get_registry, solve
from cgframework_influence.graph import cycle, disjoint_union, segment
from cgframework_influence.paper import TABLE_1
from cgframework_influence.segments import SegmentComponents
from cgframework_influence.solvers import Analyser

RULES = get_registry().ruleset("influence")

FIGURE_1 = (
    '{"vertices":["u","v","w","x","y","z"],'
    '"colors":{"u":"B","w":"B","v":"W","x":"W","y":"W","z":"W"},'
    '"arcs":[["u","w"],["w","y"],["w","z"],["x","v"]]}'
)
"""Figure 1 lost its arcs in conversion; reading A of the digest (§4.1): u->w, w->y, w->z,
x->v, from the text at L22 and L52-L56."""


def scores(text: str, method: str = "auto") -> dict:
    position = RULES.parse(text) if " + " not in text else _sum(text)
    return solve(RULES, position, method=method).extra["scores"]


def _sum(text: str):
    return Sum(tuple(RULES.parse(p) for p in text.split(" + ")))


@pytest.mark.parametrize("method", ["auto", "influence-graph", "influence-minimax"])
def test_example_3_figure_1(method):
    """Example 3, L133-L137: s1L=4, s2R=2, s1R=6, s2L=0, Ls=2, Rs=-6."""
    assert scores(FIGURE_1, method) == {"s1L": 4, "s2R": 2, "s1R": 6, "s2L": 0, "Ls": 2, "Rs": -6}


def test_example_3_forced_vertices():
    """L197: in Figure 1, v and x are forced for White."""
    from cgframework_influence.graph import forced

    g = RULES.parse(FIGURE_1)
    fl, fr = forced(g.succ_masks(), g.pred_masks(), g.colour_mask("L"), g.full)
    assert fl == 0 and {g.names[i] for i in range(g.n) if fr >> i & 1} == {"v", "x"}


def test_example_3_best_first_moves():
    """L22: Black starts by u; White starting takes everything with y or z."""
    from cgframework import Player

    g = RULES.parse(FIGURE_1)
    assert "u" in solve(RULES, g).best_moves  # w too, in reading A
    assert set(solve(RULES, g, first=Player.RIGHT).best_moves) == {"y", "z"}


def test_table_1():
    """Table 1 (L836), n = 1..38, all 76 numbers."""
    a = Analyser(SegmentComponents())
    assert [a.ls_rs(segment(n)) for n in range(1, 39)] == TABLE_1


@pytest.mark.parametrize("n", [2, 5, 9, 14])
def test_table_1_by_the_generic_minimax(n):
    """Table 1 (L836) for small n, by the brute force itself."""
    s = scores(f"segment:{n}", "influence-minimax")
    assert (s["Ls"], s["Rs"]) == TABLE_1[n - 1]


@pytest.mark.slow
def test_theorem_20_up_to_60():
    """Theorem 20 (L676-L696), Cor. 21 (L698-L702): for n <= 60, Ls(S_n) = 3 when n = 3
    (mod 4), Ls > 0 > Rs, and the first player leads by at most 5 (abstract, L10)."""
    a = Analyser(SegmentComponents())
    for n in range(2, 61):
        ls, rs = a.ls_rs(segment(n))
        assert 0 < ls <= 5 and -5 <= rs < 0
        if n % 4 == 3:
            assert ls == 3
        if n % 2 == 0:
            assert ls in (2, 4) and rs == -ls
        else:
            assert ls in (1, 3) and rs in (-1, -3, -5)


def test_l840_sentence_is_wrong_for_n_1_mod_4():
    """L840 says Ls(S_n) = 3 for n = 1 (mod 4), n != 5; Theorem 20 says n = 3 (mod 4) and
    Table 1 has Ls = 1 for n = 9, 13, 17 (digest erratum 8)."""
    assert [TABLE_1[n - 1][0] for n in (9, 13, 17, 21)] == [1, 1, 1, 1]


def test_tightness_example_10_plus_17():
    """L670: the sum of a 10- and a 17-vertex segment (in C-) has Ls = -1."""
    s = scores("segment:10 + segment:17")
    assert s == {"s1L": 13, "s2R": 14, "s1R": 15, "s2L": 12, "Ls": -1, "Rs": -3}
    assert scores("segment:10 + segment:17", "influence-graph") == s


def test_several_odd_segments_break_prop_19():
    """L670: C+_5 + C+_17 has Ls = 6 (Prop. 19 needs at most one odd segment)."""
    s = scores("segment:5:C+ + segment:17:C+")
    assert (s["Ls"], s["Rs"]) == (6, 0)


def test_figure_3_segments():
    """Figure 3 (L534-L552): [1,5] + [7,8]; values not printed, digest §4.3."""
    s = scores("segment:5 + segment:2")
    assert s == {"s1L": 5, "s2R": 2, "s1R": 5, "s2L": 2, "Ls": 3, "Rs": -3}


def test_figure_2():
    """Figure 2 (L202-L204): x -> r <- x' (C+_3): Ls = 3, Rs = -3."""
    s = scores("segment:3:C+")
    assert (s["Ls"], s["Rs"]) == (3, -3)


def test_corollary_24_cycles_sign_corrected():
    """Cor. 24 (L825-L829): Ls(cycle_n) in {0, 2}, 0 when |L| is odd, with Ls = 3 + Rs(G_i)
    (the paper prints 3 - Rs); the 4-cycle is the exception (Ls = 4, the last vertex is
    forced)."""
    a = Analyser(SegmentComponents())
    for n in range(6, 31, 2):
        ls, rs = a.ls_rs(cycle(n))
        assert ls in (0, 2) and rs == -ls
        if (n // 2) % 2:
            assert ls == 0
        assert ls == 3 + a.ls_rs(segment(n - 3, "C+"))[1]
    assert a.ls_rs(cycle(4)) == (4, -4)


@pytest.mark.parametrize("k", range(1, 8))
def test_lemma_23_two_segment_sums(k):
    """Lemma 23 (L741-L801): S_2k + S_2k has Rs = 0; C-_m + C+_m (m = 2k+1) has Rs = 0;
    S_2k + S_2k+2 has Rs = -2; S_2k + C+_2k+1 has Rs = -1; S_2k + C+_2k-1 has Rs >= -1."""
    a = Analyser(SegmentComponents(closed_forms=False))
    assert a.ls_rs(_sum(f"segment:{2 * k} + segment:{2 * k}"))[1] == 0
    assert a.ls_rs(_sum(f"segment:{2 * k + 1}:C- + segment:{2 * k + 1}:C+"))[1] == 0
    assert a.ls_rs(_sum(f"segment:{2 * k} + segment:{2 * k + 2}"))[1] == -2
    assert a.ls_rs(_sum(f"segment:{2 * k} + segment:{2 * k + 1}:C+"))[1] == -1
    if k >= 2:
        assert a.ls_rs(_sum(f"segment:{2 * k} + segment:{2 * k - 1}:C+"))[1] >= -1


def test_tree_sizes():
    """L869-L871: |V(T_n^c)| = (3^(n+1) - 1)/2 + c 3^n; J_n^c = T + T (L875)."""
    for n in range(4):
        for c in range(1, 4):
            t = RULES.parse(f"tree:{n},{c}")
            assert t.n == (3 ** (n + 1) - 1) // 2 + c * 3**n
            assert RULES.parse(f"J:{n},{c}").n == 2 * t.n


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("J:0,3", {"s1L": 4, "s2L": 4, "s1R": 4, "s2R": 4, "Ls": 0, "Rs": 0}),
        ("J:1,1", {"s1L": 9, "s2L": 9, "s1R": 5, "s2R": 5, "Ls": 4, "Rs": 4}),
        ("J:1,2", {"s1L": 13, "s2L": 13, "s1R": 7, "s2R": 7, "Ls": 6, "Rs": 6}),
        ("tree:2,4", {"s1L": 49, "s2L": 26, "s1R": 23, "s2R": 0, "Ls": 49, "Rs": 3}),
    ],
)
def test_trees_of_section_5(text, expected):
    """§5.1: Lemma 30 (L896) bound s1R(J_n^c) <= n+1+c+sum s1R(J_i^c) is tight for n <= 1
    (J_0^c: c+1; J_1^c: 2c+3); Figure 4 is T_2^4 (values in digest §4.7)."""
    assert scores(text) == expected


@pytest.mark.slow
def test_j_2_1_and_lemma_30():
    """Lemma 30 / Cor. 31 (L896-L936): s1R(J_2^1) = 11 <= 2^2(2+1)+1 = 13."""
    s = scores("J:2,1")
    assert (s["s1R"], s["s2L"]) == (11, 33) and s["s1R"] <= 2**2 * 3 + 1


def test_lemma_23_closed_forms_equal_the_search():
    """The Lemma 23 shortcut of the segment solver against plain search, k = 1..12."""
    fast = Analyser(SegmentComponents())
    slow = Analyser(SegmentComponents(closed_forms=False))
    for k in range(1, 13):
        for text in (
            f"segment:{2 * k} + segment:{2 * k + 2}",
            f"segment:{2 * k} + segment:{2 * k + 1}:C+",
            f"segment:{2 * k} + segment:{2 * k + 1}:C-",
        ):
            assert fast.ls_rs(_sum(text)) == slow.ls_rs(_sum(text))


def _sums_of_segments(total: int):
    """Multisets of segment sizes >= 2 with at most `total` vertices (odd ones C-)."""

    def rec(rest: int, smallest: int):
        yield ()
        for m in range(smallest, rest + 1):
            for tail in rec(rest - m, m):
                yield (m, *tail)

    return [s for s in rec(total, 2) if s]


def test_proposition_19_value_sets():
    """Prop. 19 (L578-L668): sums of segments with at most one odd one (in C-, or C+):
    C_=: Ls in {0,2,4}, Rs in {0,-2,-4}; C_+: Ls in {1,3,5}, Rs in {1,-1,-3};
    C_-: Ls in {-1,1,3}, Rs in {-1,-3,-5}. All sums with <= 18 vertices."""
    a = Analyser(SegmentComponents())
    for sizes in _sums_of_segments(18):
        odd = [m for m in sizes if m % 2]
        if len(odd) > 1:
            continue
        for kind in ("C-", "C+") if odd else (None,):
            parts = [segment(m, kind if m % 2 else None) for m in sizes]
            ls, rs = a.ls_rs(disjoint_union(parts))
            if not odd:
                assert ls in (0, 2, 4) and rs in (0, -2, -4)
            elif kind == "C+":
                assert ls in (1, 3, 5) and rs in (1, -1, -3)
            else:
                assert ls in (-1, 1, 3) and rs in (-1, -3, -5)


def test_smaller_tightness_example_than_l670():
    """Digest P11: S_9 (C-) + S_2 already has Ls = -1 (L670 gives 10 + 17)."""
    s = scores("segment:9 + segment:2")
    assert (s["Ls"], s["Rs"]) == (-1, -1)


@pytest.mark.parametrize("c", [1, 2, 3, 4])
def test_lemma_30_tight_for_j_1(c):
    """Lemma 30 (L896): s1R(J_1^c) <= 2 + c + s1R(J_0^c) = 2c + 3, attained."""
    s = scores(f"J:1,{c}")
    assert s["s1R"] == 2 * c + 3 == 2 + c + scores(f"J:0,{c}")["s1R"]


@pytest.mark.slow
@pytest.mark.parametrize(("n", "c"), [(2, 2), (3, 1)])
def test_s1r_of_trees_follows_lemma_30_with_equality(n, c):
    """Lemma 30 (L896) taken with equality solves to s1R = 2^n (c+2) - 1 (digest P24; the
    paper's Cor. 31 bound 2^n (n+c) + 1 is looser for n >= 2)."""
    text = f"J:{n},{c}" if n == 2 else f"tree:{n},{c}"
    s = scores(text)
    assert s["s1R"] == 2**n * (c + 2) - 1 < 2**n * (n + c) + 1


@pytest.mark.slow
def test_j_3_1():
    """Theorem 28 instance J_3^1 (134 vertices; digest §4.7): s1R = 23, s2L = 111."""
    s = scores("J:3,1")
    assert s == {"s1L": 111, "s2L": 111, "s1R": 23, "s2R": 23, "Ls": 88, "Rs": 88}


def test_c_plus_segments_are_the_negatives():
    """Cor. 15 (L505) on Table 1 (L836): Ls(C+_n) = -Rs(S_n), Rs(C+_n) = -Ls(S_n)."""
    a = Analyser(SegmentComponents())
    for n in range(3, 38, 2):
        ls, rs = TABLE_1[n - 1]
        assert a.ls_rs(segment(n, "C+")) == (-rs, -ls)


@pytest.mark.parametrize(
    ("n", "moves"),
    [(7, {"3"}), (11, {"5"}), (15, {"7"}), (9, {"1", "3", "5", "7"}), (14, {"3"}), (22, {"7"})],
)
def test_optimal_first_moves(n, moves):
    """Digest §4.6: the centre is the unique optimal move for n = 3 (mod 4) (Thm 20.2,
    L811); for S_14 and S_22 the unique optimal cut leaves C+_{n/2+2} + S_{n/2-5} (the digest
    numbers from the other end: 10 and 14)."""
    assert set(solve(RULES, segment(n)).best_moves) == moves
