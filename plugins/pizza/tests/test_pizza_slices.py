"""The slice partition (Lemma 2.10, Algorithm 2.17) and the ``slices`` solver against the
generic minimax on random boards."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import solve
from cgframework_pizza.slices import (
    alternating_sum,
    paper_st_decomposition,
    paper_tes_slices,
    plateau_points,
    st_decomposition,
    tes_slices,
)

numbers = st.integers(-4, 6).map(Fraction)
sequences = st.lists(numbers, min_size=1, max_size=12)
SETTINGS = settings(max_examples=120, deadline=None)


def asc(seq) -> bool:
    """(ASC): every even-length prefix has alternating sum <= 0."""
    return all(alternating_sum(seq[:k]) <= 0 for k in range(2, len(seq) + 1, 2))


@SETTINGS
@given(sequences)
def test_tes_slices_partition_into_slices_with_u_shaped_weights(a):
    """Lemma 2.10(i): a partition into slices (odd length, (ASC) both ways) with U-shaped
    weights (Def 2.9: no interior weak local maximum)."""
    slices = tes_slices(a)
    assert [i for s in slices for i in range(s.start, s.stop)] == list(range(len(a)))
    for s in slices:
        part = a[s.start : s.stop]
        assert len(part) % 2 == 1 and asc(part) and asc(part[::-1])
        assert s.weight == alternating_sum(part)
    w = [s.weight for s in slices]
    assert all(w[j] < w[j - 1] or w[j] < w[j + 1] for j in range(1, len(w) - 1))


@SETTINGS
@given(sequences)
def test_stack_decomposition(a):
    """Lemma 2.10(ii): strictly decreasing slices, then an ev-sequence of weight x >= 0."""
    d = st_decomposition(a)
    weights = [s.weight for s in d.slices]
    assert all(x > y for x, y in zip(weights, weights[1:], strict=False))
    ev = a[d.ev_start :]
    assert len(ev) % 2 == 0 and asc(ev) and d.x == -alternating_sum(ev) >= 0


def is_slice(seq) -> bool:
    return len(seq) % 2 == 1 and asc(seq) and asc(seq[::-1])


def u_shaped(w) -> bool:
    return all(w[j] < w[j - 1] or w[j] < w[j + 1] for j in range(1, len(w) - 1))


def slice_partitions(a, start=0):
    """Every partition of a[start:] into slices, as lists of weights (brute force)."""
    if start == len(a):
        yield []
        return
    for stop in range(start + 1, len(a) + 1, 2):
        if is_slice(a[start:stop]):
            for rest in slice_partitions(a, stop):
                yield [alternating_sum(a[start:stop]), *rest]


@SETTINGS
@given(sequences)
def test_algorithm_2_17_as_printed_gives_the_same_weights(a):
    """Algorithm 2.17 (L358-L372) and the stack condensation are independent routes; both
    give valid partitions and the same weights (uniqueness remark, L280)."""
    for slices in (paper_tes_slices(a), tes_slices(a)):
        assert [i for s in slices for i in range(s.start, s.stop)] == list(range(len(a)))
        assert all(is_slice(a[s.start : s.stop]) for s in slices)
    assert [s.weight for s in paper_tes_slices(a)] == [s.weight for s in tes_slices(a)]
    paper, ours = paper_st_decomposition(a), st_decomposition(a)
    assert all(is_slice(a[s.start : s.stop]) for s in paper.slices)
    ev = a[paper.ev_start :]
    assert len(ev) % 2 == 0 and asc(ev) and paper.x == -alternating_sum(ev)
    assert [s.weight for s in paper.slices] == [s.weight for s in ours.slices]
    assert paper.x == ours.x


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(-3, 4).map(Fraction), min_size=1, max_size=9))
def test_slice_weights_are_unique(a):
    """Lemma 2.10 and the remark at L280, by brute force over every partition into slices:
    (i) all partitions with U-shaped weights have the same weights; (ii) all partitions into
    strictly decreasing slices followed by an ev-sequence have the same (weights; x)."""
    ours = [s.weight for s in tes_slices(a)]
    for weights in slice_partitions(a):
        if u_shaped(weights):
            assert weights == ours
    d = st_decomposition(a)
    expected = ([s.weight for s in d.slices], d.x)
    for cut in range(0, len(a) + 1, 1):
        ev = a[cut:]
        if len(ev) % 2 or not asc(ev):
            continue
        for weights in slice_partitions(a[:cut]):
            if all(x > y for x, y in zip(weights, weights[1:], strict=False)):
                assert (weights, -alternating_sum(ev)) == expected


def board_text(kind: str, ws) -> str:
    body = ",".join(str(w) for w in ws)
    return f"<{body}>" if kind == "<" else f"{kind}({body})"


def parts(max_size: int):
    kinds = st.sampled_from(["tes", "st", "<", "cyc", "path"])
    return st.tuples(kinds, st.lists(st.integers(-3, 5), min_size=1, max_size=max_size))


def unopened(ps) -> int:
    return sum(kind in ("cyc", "path") for kind, _ in ps)


def check_against_generic(ps) -> None:
    board = " + ".join(board_text(k, ws) for k, ws in ps)
    fast = solve("pizza", board, method="slices")
    slow = solve("pizza", board, method="generic")
    assert fast.value == slow.value
    assert set(fast.best_moves) == set(slow.best_moves)


@SETTINGS  # (parts of at most 5 slices: three of 6 cost the generic minimax ~0.5 s a sum)
@given(st.lists(parts(5), min_size=1, max_size=3).filter(lambda ps: unopened(ps) <= 1))
def test_slices_solver_matches_generic_minimax(ps):
    check_against_generic(ps)


@settings(max_examples=40, deadline=None)
@given(st.lists(parts(4), min_size=2, max_size=3).filter(lambda ps: unopened(ps) == 2))
def test_slices_solver_with_two_unopened_parts(ps):
    """Cost exponential in the unopened parts only; still the minimax value and moves."""
    check_against_generic(ps)


@SETTINGS
@given(st.lists(st.integers(0, 3), min_size=1, max_size=10), st.booleans())
def test_plateau_openings_suffice(ws, cyclic):
    """Thm 4.3 (L773): the best plateau opening is as good as the best opening."""
    kind = "cyc" if cyclic else "path"
    board = f"{kind}({','.join(map(str, ws))})"
    best = solve("pizza", board, method="generic").best_moves
    points = {f"#{i + 1}" for i in plateau_points([Fraction(w) for w in ws], cyclic)}
    assert points & set(best)


def test_large_pizza_in_quadratic_time():
    """A 400-slice pizza is far beyond the generic search's reach; the plateau algorithm
    (Thm 4.3) and the arc DP agree on its value and optimal openings."""
    ws = [(i * 7919) % 13 for i in range(400)]
    solution = solve("pizza", ",".join(map(str, ws)), method="slices")
    arcs = solve("pizza", ",".join(map(str, ws)), method="arc-dp")
    assert solution.method == "slices" and solution.best_moves
    assert (solution.value, solution.best_moves) == (arcs.value, arcs.best_moves)


partners = st.lists(parts(3), min_size=1, max_size=2).filter(lambda ps: unopened(ps) <= 1)


def generic(board: str):
    return solve("pizza", board, method="generic").value


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-3, 5), min_size=1, max_size=6), partners)
def test_thm_2_11_equivalences_with_random_partners(a, h):
    """Thm 2.11 (L284-L300): tes(a) ~ <s> and st(a) ~ <s> + ev(x), as equivalences: equal
    values beside any partner h (generic minimax on both sides)."""
    partner = " + ".join(board_text(k, ws) for k, ws in h)
    body = ",".join(map(str, a))
    s = [sl.weight for sl in tes_slices([Fraction(w) for w in a])]
    assert generic(f"tes({body}) + {partner}") == generic(f"<{','.join(map(str, s))}> + {partner}")
    d = st_decomposition([Fraction(w) for w in a])
    weights = ",".join(str(sl.weight) for sl in d.slices)
    ev = f"st(0,{d.x})"  # Prop 2.1: st(0, x) represents ev(x)
    replaced = " + ".join(p for p in (f"<{weights}>" if weights else "", ev, partner) if p)
    assert generic(f"st({body}) + {partner}") == generic(replaced)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=1, max_size=30))
def test_four_ninths_bound(ws):
    """(4.3), L827: on a pizza with non-negative weights Player One gets at least 4/9."""
    value = solve("pizza", ",".join(map(str, ws))).value
    assert value >= -Fraction(sum(ws), 9)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-3, 5), min_size=2, max_size=9))
def test_path_and_cycle_relations(ws):
    """Prop 4.12 (L961-L985): odd n: val(path) >= val(cyc) = min over rotations of
    val(path); even n: val(path) <= val(cyc) = max over rotations."""
    n = len(ws)
    cyc = solve("pizza", "cyc(" + ",".join(map(str, ws)) + ")").value
    paths = [
        solve("pizza", "path(" + ",".join(map(str, ws[i:] + ws[:i])) + ")").value for i in range(n)
    ]
    if n % 2:
        assert paths[0] >= cyc == min(paths)
    else:
        assert paths[0] <= cyc == max(paths)
