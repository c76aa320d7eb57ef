"""Numbers stated by Brown & Brown, "Graph Games and the Pizza Problem"
(../shared/papers/000_pizza.txt, cited by line L###), reproduced by the generic minimax.
Digest IDs (G1...) refer to ../shared/notes/000_pizza.md §4."""

from __future__ import annotations

from fractions import Fraction

import pytest

from cgframework import Player, get_registry, options, parse_position, solve
from cgframework_pizza.slices import tes_slices


def val(text: str):
    return solve("pizza", text).value


def test_fifteen_slice_pizza_has_value_minus_one():
    """L24 and L807 (G1): the smallest pizza with negative value; P1 gets 4/9."""
    solution = solve("pizza", "0,1,0,1,0,0,1,0,2,0,0,2,0,2,0")
    assert solution.value == -1
    # openings worth -1 (0-based 1,2,3,8,11,12,13 in the digest)
    assert solution.best_moves == ("#2", "#3", "#4", "#9", "#12", "#13", "#14")
    total = 9
    assert Fraction(total + solution.value, 2) / total == Fraction(4, 9)  # share, L887


@pytest.mark.parametrize("method", ["slices", "generic"])
def test_twenty_one_slice_zero_one_pizza(method):
    """L687, 3.27 (G20): a 0/1 pizza of 21 slices with value -1."""
    board = "cyc(0,1,0,1,0,0,1,0,1,0,1,0,0,1,0,1,0,1,0,1,0)"
    assert solve("pizza", board, method=method).value == -1


@pytest.mark.parametrize(
    ("board", "value"),
    [
        ("tes(4,3,1,2)", 2),  # L26 (G2)
        ("tes(4,3,6,5)", 2),  # L26 (G3)
        ("tes(4,3,1,4,7,5)", 2),  # L26 (G4)
        ("cyc(0,3,2,1,2,1)", 3),  # L28 (G5, N = 3)
        ("cyc(0,7,2,1,2,1)", 7),  # L28 (G5, N = 7)
        ("cyc(0,3,3,1,2,1)", 2),  # L28 (G6)
        ("tes(2,4,1,0,1)", 0),  # L28 (G7)
        ("cyc(2,3,1,2,0)", 2),  # L28 (G8)
        ("path(1,2,3)", 2),  # L489, Ex 3.5 (G15)
        ("path(1,2,3) + path(1,2,3)", 0),  # L489: invertible, its own inverse
        ("path(1,2,3) + path(1,2,3) + <-13>", -13),  # L489 (G15)
        ("tes(0,1,0)", -1),  # G22: tes(0,1,0) ~ <-1>
        ("cyc(-3,2,2)", -3),  # L885 (G33)
        ("cyc(-2,1,1)", -2),  # L887 (G34)
        ("cyc(1,2,3,3,2,1)", 0),  # L821, Remark 4.6 (G32)
        ("cyc(1,3,3,2,2,1)", 0),  # L821
        ("cyc(2,1,2,3,3,2,1,2)", 0),  # L821
        ("cyc(1,3,4,4,3,2,2,1)", 0),  # L821
        ("tes(1,2,1,2,5,2) + <5,2,0>", 2),  # G29
        ("tes(1,2,1,2,5,2) + <0,-1>", 0),  # G30
    ],
)
@pytest.mark.parametrize("method", ["auto", "generic"])
def test_values_stated_in_the_paper(board, value, method):
    assert solve("pizza", board, method=method).value == value


def test_example_3_18():
    """L609, Ex 3.18 (G17): g = cyc(0,1,0,1,1,0), h1 = <0,1>, h2 = <-1,0>."""
    g, h1, h2 = "cyc(0,1,0,1,1,0)", "<0,1>", "<-1,0>"
    assert val(g) == val(h1) == val(h2) == 1
    assert val(f"{g} + {h1}") == val(f"{g} + {h2}") == val(f"{h1} + {h2}") == 2
    assert val(f"{g} + {h1} + {h2}") == 1


def test_path_0101_is_not_invertible():
    """G16 (§3): val(g+g) = 0 but val(g+g+<y>) = y+2 for y << 0."""
    g = "path(0,1,0,1)"
    assert val(f"{g} + {g}") == 0
    for y in (-5, -10, -20):
        assert val(f"{g} + {g} + <{y}>") == y + 2


def test_example_3_20_rational_weights():
    """L619, Ex 3.20 (G19): g_n(1) = path(0,1/n,0,...,1/n,0); values 0, 1/3, 0 for n = 2..4."""
    for n, expected in ((2, 0), (3, Fraction(1, 3)), (4, 0)):
        weights = ",".join(["0"] + [f"1/{n},0"] * n)
        assert val(f"path({weights})") == expected


@pytest.mark.parametrize(("m", "k"), [(1, 3), (1, 4), (1, 6), (2, 5), (2, 6)])
def test_example_1_7_g1(m, k):
    """L137-L139, Example 1.7 (G10): <m> + cyc((0,1)^(k-1), 1), k > 2m, has value k - m and
    the only optimal moves are the two adjacent 1s (the last two cycle vertices)."""
    cycle = ",".join(["0,1"] * (k - 1) + ["1"])
    solution = solve("pizza", f"<{m}> + cyc({cycle})", method="generic")
    assert solution.value == k - m
    assert solution.best_moves == (f"#{2 * k - 1}", f"#{2 * k}")


def test_example_1_7_g2_values():
    """L137 (G11): <0> + g1 has value -m (k even) or 1 - m (k odd) for k > 2m + 2."""
    for m, k in ((1, 5), (1, 6), (2, 7), (2, 8)):
        cycle = ",".join(["0,1"] * (k - 1) + ["1"])
        expected = -m if k % 2 == 0 else 1 - m
        assert val(f"<0> + <{m}> + cyc({cycle})") == expected


@pytest.mark.parametrize(
    ("board", "value"),
    [
        ("tes(3,2,2,4,4)", 3),  # G14
        ("tes(3,2,1,2,4,4)", 2),  # G14
        ("<0,1> + st(0,1,0,-1)", 1),  # G14
        ("cyc(-2,-1,-2,1,0)", -2),  # G36 (mu = 1/3), L927
        ("path(-1,-2,1,0)", 2),  # G36
        ("path(1,0,-2,-1)", 0),  # G36
        ("cyc(-2/3,2/3,2/3)", Fraction(-2, 3)),  # 4.10, L927 (G35, mu = 1/3)
        ("cyc(-1,1/2,1/2)", -1),  # 4.10, L927 (G35, mu = 1/2)
    ],
)
def test_more_values_from_the_paper(board, value):
    assert val(board) == value


def test_path_of_ones_beside_a_list():
    """G21: in path(1,0,...,1,0) + <1> (n ones in the path) the n+1 one-moves have n
    distinct outcomes, from n-1 down to -(n-1); here n = 4: {-3, -1, 1, 3}."""
    board = "path(1,0,1,0,1,0,1,0) + <1>"
    rules = get_registry().ruleset("pizza")
    position = parse_position(rules, board)
    outcomes = {
        m.points - solve(rules, m.result).value
        for m in options(rules, position, Player.LEFT)
        if m.points == 1
    }
    assert outcomes == {-3, -1, 1, 3}


def test_example_3_19():
    """L613, Ex 3.19 (G18): g1 = <-1,1>, g2 = cyc(0,1,0,1,1,0,1,0): values 2, 2, and 2 for
    the concatenation; val(g2 + h_i) = 1 for the h_i of Ex 3.18."""
    g1, g2 = "<-1,1>", "cyc(0,1,0,1,1,0,1,0)"
    assert val(g1) == val(g2) == val(f"{g1} + {g2}") == 2
    assert val(f"{g2} + <0,1>") == val(f"{g2} + <-1,0>") == 1


@pytest.mark.parametrize("partner", ["<>", "<1>", "<2,-1>", "tes(1,3)", "st(2,0,1)", "cyc(1,2,0)"])
def test_a_rules_equivalence_of_a_path_and_a_cycle(partner):
    """L1036 (G50): path(1,0,1,0) ~_a cyc(1/2,1,1/2,0,1,0); both have ordinary value 2."""
    g, h = "path(1,0,1,0)", "cyc(1/2,1,1/2,0,1,0)"
    assert val(g) == val(h) == 2
    extra = "" if partner == "<>" else f" + {partner}"
    assert solve("pizza-a", g + extra).value == solve("pizza-a", h + extra).value


@pytest.mark.parametrize(("m", "k"), [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (2, 5)])
def test_example_1_7_h1_h2(m, k):
    """L139 (G12): h1 = <m> + path(1,0,...,1,0) (k ones, k > m), h2 = <0> + h1: both k - m."""
    path = ",".join(["1,0"] * k)
    assert val(f"<{m}> + path({path})") == k - m
    assert val(f"<0> + <{m}> + path({path})") == k - m


def test_one_move_optimal_but_not_the_only_one():
    """G13 (§1): path(1,0,0) ~ <1> with openings worth {1, -1, 1}; in cyc(0,1,0,0) the
    optimal openings are v2 and v4."""
    solution = solve("pizza", "path(1,0,0)", method="generic")
    assert solution.value == 1 and solution.best_moves == ("#1", "#3")
    assert solve("pizza", "cyc(0,1,0,0)", method="generic").best_moves == ("#2", "#4")


def test_safe_play_example_3_27_g1():
    """L691-L711, 3.27 (G23): path (1,0,1,0,1,0) with the 0-vertices available: v2 is safe
    and optimal (outcome 1), v4 and v6 give -1."""
    solution = solve("pizza", "graph(1,0,1,0,1,0; 1-2,2-3,3-4,4-5,5-6; 2,4,6)", method="generic")
    assert solution.value == 1 and solution.best_moves == ("#2",)


def outcomes(text: str) -> dict[str, object]:
    """Player One's outcome of every initial move: points minus the value left to Two."""
    rules = get_registry().ruleset("pizza")
    position = parse_position(rules, text)
    return {
        m.text: m.points - solve(rules, m.result).value
        for m in options(rules, position, Player.LEFT)
    }


@pytest.mark.parametrize(("n", "k"), [(n, k) for n in (1, 2, 3) for k in range(n + 1, n + 4)])
def test_greedy_opening_of_the_odd_cycle_n_1_0(n, k):
    """L28 (G9): the (2k+1)-cycle (N,1,0,...,1,0), k > N, has value 0 or 1 as N + k is even
    or odd, and the greedy opening (the N) is wrong: it gives -(k - N)."""
    board = f"cyc({n},{','.join(['1,0'] * k)})"
    assert val(board) == (n + k) % 2
    assert outcomes(board)["#1"] == -(k - n)


def test_safe_moves_need_not_be_optimal_3_27():
    """L713-L715, 3.27 (G24, G25): in g2 the outside 0-vertices v2, v6 are safe but lose;
    v4 and w win. g1' and g2' (non-available 0-vertices added) keep the statuses of g1, g2."""
    g2 = "graph(1,0,1,0,1,0,1,1,0; 1-2,2-3,3-4,4-5,5-6,6-7,4-8,8-9; 2,4,6,9)"
    assert outcomes(g2) == {"#2": -1, "#4": 1, "#6": -1, "#9": 1}
    g1_prime = "graph(0,0,1,0,1,0,1,0; 1-2,2-3,3-4,4-5,5-6,6-7,7-8; 4,6,8)"
    assert outcomes(g1_prime) == {"#4": 1, "#6": -1, "#8": -1}
    g2_prime = (
        "graph(0,0,1,0,1,0,1,0,1,0,0,1,0; "
        "1-2,2-3,3-4,4-5,5-6,6-7,7-8,8-9,9-10,10-11,6-12,12-13; 4,6,8,13)"
    )
    assert outcomes(g2_prime) == {"#4": -1, "#6": 1, "#8": -1, "#13": 1}


def test_example_3_28_equivalent_moves_in_inequivalent_games():
    """L719, Ex 3.28 (G26-G28): a move equivalent to an optimal one need not be optimal once
    the games differ. <2,3> + <2>: the 2-move gives 1 < 3; <1,2> + <2>: the 1-move gives
    1 = val. c1, c2: the first-1 moves are optimal beside a copy of their own game only."""
    assert val("<2,3> + <2>") == 3 and outcomes("<2,3> + <2>")["#1"] == 1
    assert val("<1,2> + <2>") == 1 and outcomes("<1,2> + <2>")["#1"] == 1
    c1, c2 = "cyc(0,1,0,1,1,0,1,0)", "cyc(0,1,0,0,1,0)"
    for g, h, value in ((c1, c2, 2), (c2, c2, 0), (c1, c1, 0), (c2, c1, 2)):
        assert val(f"{g} + {h}") == value
        assert outcomes(f"{g} + {h}")["#2"] == 0  # the first 1 of g
    middle_two = outcomes("cyc(0,2,0,2,2,0,2,0) + <0,-1>")
    assert val("cyc(0,2,0,2,2,0,2,0) + <0,-1>") == 3 and middle_two["#4"] == 1
    middle_one = outcomes("cyc(0,1,0,1,1,0,1,0) + <0,-1>")
    assert val("cyc(0,1,0,1,1,0,1,0) + <0,-1>") == 1 and middle_one["#4"] == 1


@pytest.mark.parametrize("board", ["tes(4,3,2,7,5)", "tes(4,3,0,2,7,5)"])
def test_both_ends_optimal_although_s1_exceeds_sm(board):
    """L721, after Ex 3.28 (G31): both initial moves are optimal although s1 > sm."""
    assert outcomes(board) == {m: 1 for m in outcomes(board)} and len(outcomes(board)) == 2
    assert val(board) == 1


def g_k(k: int) -> str:
    """L929 (G37): the pizzas extremal for mu = (k - 2)/(3k + 3)."""
    if k <= 3:
        ws = [0, 1, -(k - 2), 1, 0, 0, k - 1, 0, 2, 0, 0, 2, -(k - 2), 2, 0]
    else:
        ws = [0, 1, -(k - 2), 1, 0, 0, 2, -(k - 3), 2, 0, 0, 2, -(k - 2), 2, 0]
    return f"cyc({','.join(map(str, ws))})"


@pytest.mark.parametrize("k", range(2, 8))
def test_extremal_pizzas_g_k(k):
    """L929, 4.10 (G37): val(g_k) = -(k - 1) and |g_k| = 3k + 3 (sum of |weights|)."""
    board = g_k(k)
    weights = [int(w) for w in board[4:-1].split(",")]
    assert sum(abs(w) for w in weights) == 3 * k + 3
    assert val(board) == -(k - 1)


def is_slice(a: list[int]) -> bool:
    return len(tes_slices(a)) == 1


def invertibility_witness(g: str) -> str | None:
    """A partner h with val(g + g + h) != val(h): a proof that g is not invertible (Thm 3.3:
    an invertible g is its own inverse). None is only evidence of invertibility."""
    for y in range(-12, 13):
        if val(f"{g} + {g} + <{y}>") != y:
            return f"<{y}>"
    return None


@pytest.mark.parametrize(
    ("weights", "claims"),
    [
        # (rotation, slice?, value, invertible?) for each cyclic rotation, from L993-L995
        ((1, 2, 3), [((1, 2, 3), False, 2, True), ((3, 1, 2), False, 4, False)]),
        (
            (1, 0, 1, 1, 0),
            [
                ((1, 0, 1, 1, 0), False, 1, False),
                ((0, 1, 1, 0, 1), False, 1, False),
                ((1, 1, 0, 1, 0), True, 1, True),
                ((1, 0, 1, 0, 1), False, 3, False),
                ((0, 1, 0, 1, 1), True, 1, True),
            ],
        ),
        (
            (0, 1, 0, 2),
            [
                (r, False, 3, False)
                for r in ((0, 1, 0, 2), (1, 0, 2, 0), (0, 2, 0, 1), (2, 0, 1, 0))
            ],
        ),
        (
            (1, 2, 4, 3),
            [
                ((1, 2, 4, 3), False, 2, True),
                ((2, 4, 3, 1), False, 2, True),
                ((4, 3, 1, 2), False, 0, False),
                ((3, 1, 2, 4), False, 0, False),
            ],
        ),
        (
            (1, 2, 3, 4, 5),
            [
                ((1, 2, 3, 4, 5), False, 3, True),
                ((2, 3, 4, 5, 1), True, 3, True),
                ((3, 4, 5, 1, 2), False, 5, False),
                ((4, 5, 1, 2, 3), False, 3, False),
                ((5, 1, 2, 3, 4), False, 7, False),
            ],
        ),
        (
            (0, 1, 0, 2, 3, 2),
            [((0, 1, 0, 2, 3, 2), False, 4, True), ((2, 3, 2, 0, 1, 0), False, 4, True)]
            + [(r, False, 2, False) for r in ((1, 0, 2, 3, 2, 0), (0, 2, 3, 2, 0, 1))]
            + [(r, False, 2, False) for r in ((3, 2, 0, 1, 0, 2), (2, 0, 1, 0, 2, 3))],
        ),
        (
            (0, 1, 0, 0, 2, 3, 2),
            [((0, 1, 0, 0, 2, 3, 2), False, 2, True), ((0, 2, 3, 2, 0, 1, 0), True, 2, True)]
            + [
                (r, False, 4, False)
                for r in (
                    (1, 0, 0, 2, 3, 2, 0),
                    (0, 0, 2, 3, 2, 0, 1),
                    (2, 3, 2, 0, 1, 0, 0),
                    (3, 2, 0, 1, 0, 0, 2),
                    (2, 0, 1, 0, 0, 2, 3),
                )
            ],
        ),
    ],
)
def test_rotations_of_remark_4_13(weights, claims):
    """L993-L995, examples after Remark 4.13 (G42-G48): which cyclic rotations of a path are
    slices, invertible, and their values; non-invertibility is proved by a witness partner."""
    for rotation, sliced, value, invertible in claims:
        g = f"path({','.join(map(str, rotation))})"
        assert is_slice(list(rotation)) == sliced, rotation
        assert val(g) == value, rotation
        assert (invertibility_witness(g) is None) == invertible, rotation


def test_path_0102_is_not_equivalent_to_its_rotation_0201():
    """L993 (G44): val(path(0,1,0,2) + <-1,-2>) = 4 but val(path(0,2,0,1) + <-1,-2>) = 2,
    although both paths and cyc(0,1,0,2) have value 3."""
    assert val("path(0,1,0,2) + <-1,-2>") == 4
    assert val("path(0,2,0,1) + <-1,-2>") == 2
    assert val("cyc(0,1,0,2)") == 3
