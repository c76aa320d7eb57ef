"""Golden examples for guaranteed scoring games: the paper's examples as rebuilt by digest 004
Section 4.1, the authors' calculator user guide (Section 4.2), the comparison table (4.3), one
example per reduction rule (4.4) and the day-1 census (Section 5). Games are compared as
interned games (``is``), never as strings."""

from __future__ import annotations

from fractions import Fraction

import pytest

from cgframework.values import ONE, STAR, UP, nimber, parse_value
from cgframework.values import ZERO as NP_ZERO
from cgframework_guaranteed.canonical import (
    DEFAULT_STEPS,
    atomic_reversible,
    bypass_reversible,
    canonical,
    canonical_sum,
    drop_dominated,
    drop_dominated_right,
    for_right,
    inverse,
    is_invertible,
)
from cgframework_guaranteed.census import census
from cgframework_guaranteed.embed import embed
from cgframework_guaranteed.games import (
    ZERO,
    NotGuaranteedError,
    Stops,
    add,
    atomic,
    conjugate,
    game,
    number,
    require_guaranteed,
    violation,
    waiting,
    width,
)
from cgframework_guaranteed.notation import parse_game as p
from cgframework_guaranteed.order import (
    Relation,
    compare,
    distinguishing_game,
    ge,
    witnesses_not_ge,
)
from cgframework_guaranteed.testing import find_refutation

EQ, GT, LT, INC = Relation.EQUAL, Relation.GREATER, Relation.LESS, Relation.INCOMPARABLE


def stops_of(text: str) -> Stops:
    return p(text).stops


# ---- digest 004 Section 4.1: examples in the paper ---------------------------------------


G1 = "<^1|<^2|^3>,<^3|<^3|^5>,4>>"
G2 = "<^1|<^2|^3>,<^4|<^3|^5>,4>>"


def test_paper_L55_guaranteed_example_G1():
    """Paper L55-L59 (digest 004 §4.1, §1.2): G1 is guaranteed, with the listed stops,
    already canonical, and not invertible (a zugzwang, Thm 49)."""
    g = p(G1)
    assert g.guaranteed and violation(g) is None
    assert g.stops == Stops(Ls=1, Rs=2, Ls_under=1, Rs_under=1, Ls_over=3, Rs_over=3)
    assert canonical(g) is g
    assert not is_invertible(g)
    assert inverse(g) is None


def test_paper_L55_not_guaranteed_example_G2():
    """Paper L55-L59 (d): in G2 the follower <^4|<^3|^5>,4> breaks condition (ii), 4 > 3."""
    g = p(G2)
    assert not g.guaranteed
    why = violation(g)
    assert why is not None and "<^4|" in why
    with pytest.raises(NotGuaranteedError):
        require_guaranteed(g)
    with pytest.raises(NotGuaranteedError):
        canonical(g)
    with pytest.raises(NotGuaranteedError):
        compare(g, ZERO)


@pytest.mark.parametrize("left,right", [(-1, 1), (0, 1), (2, 2), (-3, 0), (1, 1)])
def test_paper_L127_conjugate_of_purely_atomic_is_not_an_inverse(left, right):
    """Paper L127 (digest 004 §1.4): <^l|^r> + ~<^l|^r> = <^(l-r)|^(r-l)>, which is 0 iff
    l = r."""
    g = atomic(left, right)
    assert conjugate(g) is atomic(-right, -left)
    s = add(g, conjugate(g))
    assert s is atomic(left - right, right - left)
    assert (compare(s, ZERO) is EQ) == (left == right)
    assert is_invertible(g) == (left == right)


def test_paper_L127_example_minus1_1():
    """Paper L127 (digest 004 §4.1): <^-1|^1> + <^-1|^1> = <^-2|^2>, incomparable with 0."""
    g = p("<^-1|^1>")
    assert conjugate(g) is g
    assert add(g, g) is p("<^-2|^2>")
    assert compare(add(g, g), ZERO) is INC


@pytest.mark.parametrize(
    "normal,scoring",
    [
        (NP_ZERO, "0"),
        (STAR, "<0|0>"),
        (ONE, "<0|^0>"),
        (-ONE, "<^0|0>"),
        (ONE + ONE, "<<0|^0>|^0>"),
        (UP, "<0|<0|0>>"),
        (parse_value("{1|0}"), "<<0|^0>|0>"),
        (nimber(2), "<0,<0|0>|0,<0|0>>"),
    ],
)
def test_paper_L142_normal_play_embedding_table(normal, scoring):
    """Paper L141-L142 (digest 004 §1.7 table): every empty side becomes ^0."""
    assert embed(normal) is p(scoring)


def test_paper_L146_waiting_moves():
    """Paper L146 (digest 004 §1.7): 0^ = 0, 1^ = <0|^0>, -1^ = <^0|0>, 2^ = <<0|^0>|^0>,
    n^ = <(n-1)^|^0>, l - n^ = <^l | l - (n-1)^>; a waiting move always scores 0."""
    assert waiting(0) is ZERO
    assert waiting(1) is p("<0|^0>")
    assert waiting(-1) is p("<^0|0>")
    assert waiting(2) is p("<<0|^0>|^0>")
    assert waiting(-3, 2) is p("<^2|<^2|<^2|2>>>")
    for n in range(1, 5):
        assert waiting(n) is game([waiting(n - 1)], 0)
        assert waiting(-n) is game(0, [waiting(-(n - 1))])
        assert waiting(-n, 3) is game(3, [waiting(-(n - 1), 3)])
        assert waiting(n) is embed(parse_value(str(n)))
        assert waiting(n).min_score == waiting(n).max_score == 0
        assert conjugate(waiting(n)) is waiting(-n)
        assert add(waiting(n), waiting(-n)) is not ZERO  # the raw sum is not 0 ...
        assert compare(add(waiting(n), waiting(-n)), ZERO) is EQ  # ... but equivalent to it


def test_paper_L147_passing_can_hurt_outside_gs():
    """Paper L147 (digest 004 §1.7, §4.1): G = <^1|-1> is not guaranteed; Ls(G) = 1 but in
    G + 1^ Left must spend her waiting move: Ls(G + 1^) = -1."""
    g = p("<^1|-1>")
    assert not g.guaranteed
    assert g.stops.Ls == 1
    s = add(g, waiting(1))
    assert s is p("<<^1|-1>|<-1|^-1>>")
    assert s.stops.Ls == -1
    with pytest.raises(NotGuaranteedError):
        canonical(g)


def test_paper_L230_monotone_principle_needs_an_existing_option():
    """Paper L230 (digest 004 P15): G = <^1|1> = 1 - 1^; giving Left the option -1 makes
    <-1|1>, whose Left stop drops from 1 to -1, so it is not >= G."""
    g = p("<^1|1>")
    assert g is waiting(-1, 1)
    h = p("<-1|1>")
    assert g.stops.Ls == 1 and h.stops.Ls == -1
    assert h.guaranteed
    assert not ge(h, g)
    x = distinguishing_game(h, g)
    assert x is not None and x.guaranteed and witnesses_not_ge(h, g, x)


def test_paper_L338_equal_games_need_not_cancel():
    """Paper L338 (digest 004 §1.6): G = H = <^0|^1> but G + ~H = <^-1|^1> is incomparable
    with 0, so G == H does not give G + ~H == 0 in GS."""
    g = p("<^0|^1>")
    assert compare(g, g) is EQ
    s = add(g, conjugate(g))
    assert s is p("<^-1|^1>")
    assert compare(s, ZERO) is INC
    assert not is_invertible(g)


def test_paper_L470_same_depth_and_width_but_not_canonical():
    """Paper L470 (digest 004 §4.1): G = <^-1|1,<<^-1|^0>|^0>> and its canonical form
    <^-1|1,<0|^0>> both have birthday 2 and width 2; the Right option <<^-1|^0>|^0> is
    atomic-reversible for Right (35(1), n = 0, substitute 0 + 1^)."""
    g = p("<^-1|1,<<^-1|^0>|^0>>")
    c = p("<^-1|1,<0|^0>>")
    assert canonical(g) is c
    assert canonical(c) is c
    assert (g.birthday, width(g)) == (c.birthday, width(c)) == (2, 2)
    assert for_right(atomic_reversible)(g) is c
    assert compare(g, c) is EQ


def test_paper_L553_not_zugzwang_but_not_invertible():
    """Paper L553 (digest 004 §4.1): G = <0|<0|^1>> has Ls = Rs = 0, yet S = G + ~G has
    Ls_(S) = -1 and Rs^(S) = 1, so S || 0 and G is not invertible. Witnesses: X = -4^ (b(S) = 4)
    gives Ls(S - 4^) = -1 < 0, and X = <<^-2|^0>,<<^-1|^0>|^0>|^0> gives Ls(S + X) = 1 >
    Ls(X) = 0."""
    g = p("<0|<0|^1>>")
    assert g.stops.Ls == g.stops.Rs == 0
    s = add(g, conjugate(g))
    assert s.birthday == 4
    assert s.stops.Ls_under == -1 and s.stops.Rs_over == 1
    assert compare(s, ZERO) is INC
    assert not is_invertible(g)
    assert inverse(g) is None
    x1 = waiting(-4)
    assert add(s, x1).stops.Ls == -1
    assert witnesses_not_ge(s, ZERO, x1) == "Ls"
    x2 = p("<<^-2|^0>,<<^-1|^0>|^0>|^0>")
    assert x2.guaranteed
    assert add(s, x2).stops.Ls == 1 and x2.stops.Ls == 0
    assert witnesses_not_ge(ZERO, s, x2) == "Ls"
    for a, b in ((s, ZERO), (ZERO, s)):
        x = distinguishing_game(a, b)
        assert x is not None and x.guaranteed and witnesses_not_ge(a, b, x)


# ---- digest 004 Section 4.2: the authors' calculator user guide --------------------------


def test_user_guide_raw_sum():
    """Digest 004 §4.2 user guide: <^-3|<2|1>> # <-3|^0> (raw sum)."""
    s = add(p("<^-3|<2|1>>"), p("<-3|^0>"))
    assert s is p("<<^-6|<-1|-2>>|<<-1|^2>,<-1|-2>|<-2|^1>>>")


def test_user_guide_canonical_sum():
    """Digest 004 §4.2 user guide: canonical sum of <^-3|<2|1>> and <-3|^0>."""
    expected = p("<<^-6|^-1>|^2>")
    assert canonical_sum([p("<^-3|<2|1>>"), p("<-3|^0>")]) is expected
    assert canonical(add(p("<^-3|<2|1>>"), p("<-3|^0>"))) is expected


def test_user_guide_canonical_difference():
    """Digest 004 §4.2 user guide: canonical(<^-3|<2|1>> + ~<-3|^0>) = <^-3|<^0|^5>>."""
    g = add(p("<^-3|<2|1>>"), conjugate(p("<-3|^0>")))
    assert g is p("<^-3|<2|1>> - <-3|^0>")
    assert canonical(g) is p("<^-3|<^0|^5>>")


@pytest.mark.parametrize(
    "text,expected",
    [
        ("<<2|2,<2|2>>,<1|1>|<<<^4|4>|<4|^4>>|-5>>", "<^2|^4>"),
        ("<3,<5|<2|0>>|2>", "<3|2>"),
        # -5 does not dominate <^-3|-2> or <4|-4>: nothing changes
        ("<2|<^-3|-2>,<4|-4>,-5>", "<2|<^-3|-2>,<4|-4>,-5>"),
        ("<<0|0>,<0|^0>|<^0|<<0|0>|0>>>", "<<0|^0>|<^0|0>>"),
    ],
)
def test_user_guide_canonize(text, expected):
    """Digest 004 §4.2 user guide: canonize."""
    g = p(text)
    assert canonical(g) is p(expected)
    assert compare(g, p(expected)) is EQ


def test_user_guide_canonize_embedded_star_and_one():
    """Digest 004 §4.2 user guide: <*, 1^ | <^0|down>> canonizes to the image of {1|-1}."""
    assert canonical(p("<<0|0>,<0|^0>|<^0|<<0|0>|0>>>")) is embed(parse_value("{1|-1}"))


def test_user_guide_conjugate():
    """Digest 004 §4.2 user guide: ~<-1|<^5|10>> = <<-10|^-5>|1>."""
    assert conjugate(p("<-1|<^5|10>>")) is p("<<-10|^-5>|1>")
    assert p("~<-1|<^5|10>>") is p("<<-10|^-5>|1>")


def test_user_guide_number_minus_game():
    """Digest 004 §4.2 user guide: canonical(5 - <^-1|3>) = <2|^6>, and
    canonical(<^-1|3> - 5) = <^-6|-2>."""
    assert canonical(add(number(5), conjugate(p("<^-1|3>")))) is p("<2|^6>")
    assert canonical(add(p("<^-1|3>"), conjugate(number(5)))) is p("<^-6|-2>")


def test_user_guide_invertible_number_switch():
    """Digest 004 §4.2 user guide: <2|2> is invertible and G - G = 0."""
    g = p("<2|2>")
    assert is_invertible(g)
    assert inverse(g) is conjugate(g)
    assert canonical(add(g, conjugate(g))) is ZERO


@pytest.mark.parametrize(
    "text,expected",
    [
        ("<^-5|<<10|1>|3>>", dict(Ls=-5, Rs=1, Ls_under=-5, Ls_over=3, Rs_under=-5, Rs_over=3)),
        ("<<2|^5>|^5>", dict(Ls=5, Ls_under=2)),
        ("<^-5|<<-1|1>|3>>", dict(Rs=1, Ls=-5)),
    ],
)
def test_user_guide_stops(text, expected):
    """Digest 004 §4.2 user guide: stops and pass-allowed stops."""
    stops = stops_of(text)._asdict()
    assert {k: stops[k] for k in expected} == expected


@pytest.mark.parametrize("text,guaranteed", [("<<4|-3>|^-2>", False), ("<<-4|-3>|^-2>", True)])
def test_user_guide_guaranteed(text, guaranteed):
    """Digest 004 §4.2 user guide: the guaranteed check."""
    assert p(text).guaranteed is guaranteed
    assert (violation(p(text)) is None) is guaranteed


# ---- digest 004 Section 4.3: comparison table --------------------------------------------

TABLE_GAMES = ["0", "<0|0>", "<0|^0>", "<^0|0>", "<^-1|^1>", "<^0|^1>", "<1|-1>", "1/2"]
TABLE = """
= | < > | < | <
| = < > | | | |
> > = > | | | |
< < < = | < | <
| | | | = < | |
> | | > > = | |
| | | | | | = |
> | | > | | | =
"""
_SYMBOL = {"=": EQ, ">": GT, "<": LT, "|": INC}
TABLE_ENTRIES = [
    (row, col, _SYMBOL[sym])
    for row, line in zip(TABLE_GAMES, TABLE.strip().splitlines(), strict=True)
    for col, sym in zip(TABLE_GAMES, line.split(), strict=True)
]


@pytest.mark.parametrize("row,col,relation", TABLE_ENTRIES)
def test_comparison_table(row, col, relation):
    """Digest 004 §4.3 comparison table (64 entries): relation of the row game to the column
    game. Each failure of >= has a witness X in the finite test universe, each claimed >= has
    none there, and ``distinguishing_game`` finds a witness for every failure (small scores
    such as +-1 are among its candidates, so all-zero games like 0 and * are told apart)."""
    g, h = p(row), p(col)
    assert compare(g, h) is relation
    for a, b, holds in ((g, h, relation in (EQ, GT)), (h, g, relation in (EQ, LT))):
        assert (find_refutation(a, b) is None) is holds
        x = distinguishing_game(a, b)
        if holds:
            assert x is None
        else:
            assert x is not None and x.guaranteed and witnesses_not_ge(a, b, x)


def test_comparison_table_is_antisymmetric():
    """Digest 004 §4.3: the table read by columns is the converse of the table by rows."""
    converse = {EQ: EQ, GT: LT, LT: GT, INC: INC}
    rel = {(r, c): x for r, c, x in TABLE_ENTRIES}
    assert all(rel[c, r] is converse[x] for (r, c), x in rel.items())
    assert len(rel) == 64


def test_waiting_moves_are_not_small_numbers():
    """Digest 004 §4.3 observations: 1^ >= -1/100 but 1^ is not >= 1/100; the witness for
    1/2 not >= 1^ is X = <-10|^0> with Ls(1/2 + X) = -19/2 and Ls(1^ + X) = 0."""
    one_hat, half = waiting(1), number(Fraction(1, 2))
    assert ge(one_hat, number(Fraction(-1, 100)))
    assert not ge(one_hat, number(Fraction(1, 100)))
    assert compare(half, one_hat) is INC
    x = p("<-10|^0>")
    assert add(half, x).stops.Ls == Fraction(-19, 2)
    assert add(one_hat, x).stops.Ls == 0
    assert witnesses_not_ge(half, one_hat, x) == "Ls"


def test_atom_adjusted_purely_atomic_games():
    """Digest 004 §4.3 observations: <1|^1> = 1 + 1^ >= 1, and 1 >= <^1|1> = 1 - 1^."""
    assert p("<1|^1>") is waiting(1, 1)
    assert compare(p("<1|^1>"), number(1)) is GT
    assert compare(number(1), p("<^1|1>")) is GT


# ---- digest 004 Section 4.4: one example per reduction rule ------------------------------


def _only_rule(g, rule):
    """The single step of ``rule`` on g, after checking no other Left rule listed before it
    applies (so the example really exercises that rule)."""
    order = [drop_dominated, bypass_reversible, atomic_reversible]
    for other in order[: order.index(rule)]:
        assert other(g) is None, other.__name__
    return rule(g)


@pytest.mark.parametrize(
    "rule,text,step,canon",
    [
        # R1 domination (Thm 30)
        (drop_dominated, "<1,2|2>", "<2|2>", "<2|2>"),
        # R2 non-atomic reversible (Thm 32): <1|<1|0>> reverses through <1|0> <= G
        (
            bypass_reversible,
            "<<^0|^2>,<1|<1|0>>|^2>",
            "<1,<^0|^2>|^2>",
            "<1,<^0|^2>|^2>",
        ),
        # R3 34(1) remove: <0|1> reverses through 1 <= G and Rs_(2) = 2 = Ls_(G)
        (atomic_reversible, "<2,<0|1>|^2>", "<2|^2>", "<2|^2>"),
        # R4 35(1), n = 0: substitute 0 - 1^
        (atomic_reversible, "<-1,<1|0>|^2>", "<-1,<^0|0>|^2>", "<-1,<^0|0>|^2>"),
        # R4 35(1), n = 1: substitute 0 - 2^
        (
            atomic_reversible,
            "<<^-1|^2>,<<^0|^1>|<^0|1>>|1>",
            "<<^-1|^2>,<^0|<^0|0>>|1>",
            "<<^-1|^2>,<^0|<^0|0>>|1>",
        ),
        # R4 35(2): the only Left option collapses to the atom
        (atomic_reversible, "<<2|2>|^2>", "2", "2"),
    ],
)
def test_reduction_rule_examples(rule, text, step, canon):
    """Digest 004 §4.4: one example per reduction rule; the single step of the rule and the
    canonical form, and the step preserves equivalence (P16)."""
    g = p(text)
    assert g.guaranteed
    out = _only_rule(g, rule)
    assert out is p(step)
    assert compare(out, g) is EQ
    assert canonical(g) is p(canon)


def test_reduction_rule_34_1_is_not_domination():
    """Digest 004 §4.4 R3: in <2,<0|1>|^2>, 2 is not >= <0|1>: numbers do not dominate."""
    assert not ge(number(2), p("<0|1>"))
    assert drop_dominated(p("<2,<0|1>|^2>")) is None


def test_reduction_rule_35_2_right_version():
    """Digest 004 §4.4 R4 35(2), Right version: <^0|<1|^1>> -> <^0|^1>."""
    g = p("<^0|<1|^1>>")
    assert drop_dominated_right(g) is None
    assert for_right(bypass_reversible)(g) is None
    assert for_right(atomic_reversible)(g) is p("<^0|^1>")
    assert atomic_reversible(g) is None  # no Left options
    assert canonical(g) is p("<^0|^1>")


def test_reduction_normal_play_atomic_reversal():
    """Digest 004 §4.4: <<0|0>|<0|0>> (= {*|*}) goes to 0 by 35(2) twice, once per side."""
    g = p("<<0|0>|<0|0>>")
    once = atomic_reversible(g)
    assert once is p("<^0|<0|0>>")
    assert for_right(atomic_reversible)(once) is ZERO
    assert canonical(g) is ZERO
    assert embed(parse_value("{*|*}")) is ZERO


def test_user_guide_canonize_uses_34_1_and_35():
    """Digest 004 §4.2 user guide example <<2|2,<2|2>>,<1|1>|<<<^4|4>|<4|^4>>|-5>>: the
    reduction needs the atomic rules (34(1)/35) on both sides; without them it stalls."""
    g = p("<<2|2,<2|2>>,<1|1>|<<<^4|4>|<4|^4>>|-5>>")
    no_atomic = [s for s in DEFAULT_STEPS if "atomic_reversible" not in s.__name__]
    from cgframework_guaranteed.canonical import reduce_fully

    def canon_with(x, steps):
        if x.is_purely_atomic:
            return x
        left = x.left_atom if x.left_atom is not None else [canon_with(o, steps) for o in x.left]
        right = (
            x.right_atom if x.right_atom is not None else [canon_with(o, steps) for o in x.right]
        )
        return reduce_fully(game(left, right), steps)

    assert canon_with(g, DEFAULT_STEPS) is p("<^2|^4>")
    assert canon_with(g, no_atomic) is not p("<^2|^4>")


# ---- digest 004 Section 5: census ------------------------------------------------------------


@pytest.fixture(scope="module")
def day1():
    return census(1, [-1, 0, 1])


def test_census_day1_atoms_minus1_0_1(day1):
    """Digest 004 §5 (and P17/P20): 4117 guaranteed forms born by day 1 with atoms
    {-1, 0, 1}, in 77 classes; 6 purely atomic classes on day 0."""
    assert day1.forms == 4117
    assert len(day1.classes) == 77
    assert day1.per_day == (6, 77)
    assert sum(c.forms for c in day1.classes) == 4117
    assert all(canonical(c.canonical) is c.canonical for c in day1.classes)


def test_census_day1_classes_are_pairwise_distinct(day1):
    """Digest 004 §2.7 / P17(b): 0 equivalent pairs among the 77 classes (Thm 45)."""
    forms = [c.canonical for c in day1.classes]
    for i, a in enumerate(forms):
        for b in forms[i + 1 :]:
            assert not (ge(a, b) and ge(b, a)), (a, b)


def test_census_day1_conjugate_property(day1):
    """Digest 004 P20 (Thm 48, exhaustive over the 77 day-1 classes): G + H == 0 only for
    H = ~G, and exactly when G is invertible."""
    forms = [c.canonical for c in day1.classes]
    assert {conjugate(g) for g in forms} == set(forms)
    invertible = 0
    for g in forms:
        inverses = [h for h in forms if ge(add(g, h), ZERO) and ge(ZERO, add(g, h))]
        if is_invertible(g):
            invertible += 1
            assert inverses == [conjugate(g)]
        else:
            assert inverses == []
    assert invertible > 0


def test_non_atomic_reversal_takes_priority():
    """Digest 004 §8.4 (ambiguity 4) and §2.7: a Left option A with both a left-atomic
    reversing option (<^0|^2>) and one with Left options is bypassed by Thm 32 (R2); the
    atomic rules (Thm 34/35) leave it alone."""
    g = p("<<^0|^2>,<<^0|^2>|<^0|^2>,<<^-1|^0>,<^-2|^2>|<^0|^2>>>|^2>")
    (a,) = [o for o in g.left if not o.is_purely_atomic]
    assert all(ge(g, b) for b in a.right)  # both Right options of A reverse it
    assert atomic_reversible(g) is None
    assert bypass_reversible(g) is p("<<^0|^2>,<^-1|^0>,<^-2|^2>|^2>")
    assert canonical(g) is p("<<^0|^2>|^2>")
