"""The passing variants of §5 (L996-L1046)."""

from __future__ import annotations

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import solve

lists = st.lists(st.integers(-5, 6), min_size=0, max_size=7)
SETTINGS = settings(max_examples=80, deadline=None)


def board(ws) -> str:
    return "<" + ",".join(map(str, ws)) + ">"


def s_rules_list_value(ws) -> int:
    """The closed form for lists under s-rules (L1042)."""
    negative = sum(-w for w in ws if w < 0)
    positive = sorted(w for w in ws if w > 0)
    total = sum(positive)
    if negative > total:
        return negative - total
    k = len(positive)
    j, partial = 0, 0
    while partial < negative:  # least j with p1 + ... + pj >= N
        partial += positive[j]
        j += 1
    value = sum(positive[i] * (-1) ** (k - 1 - i) for i in range(j, k))
    return value + (-1) ** (k - j) * (partial - negative)


@cache
def p_rules_list_value(ws: tuple) -> int:
    """val_p(g) = max(0, max_v(wt(v) - val_p(g minus v))) (L1000), written independently."""
    if not ws:
        return 0
    return max(0, max(ws[i] - p_rules_list_value(ws[:i] + ws[i + 1 :]) for i in range(len(ws))))


@SETTINGS
@given(lists)
def test_s_rules_on_lists_match_the_closed_form(ws):
    assert solve("pizza-s", board(ws)).value == s_rules_list_value(ws)


@SETTINGS
@given(lists)
def test_p_rules_on_lists_match_the_recursion(ws):
    assert solve("pizza-p", board(ws)).value == p_rules_list_value(tuple(sorted(ws)))


def test_digest_example_of_the_three_rules():
    """<5,-3,2,1>: ordinary 7, p-rules 4, a-rules 7, s-rules 5 (digest §6.4)."""
    values = {r: solve(r, "<5,-3,2,1>").value for r in ("pizza", "pizza-p", "pizza-a", "pizza-s")}
    assert values == {"pizza": 7, "pizza-p": 4, "pizza-a": 7, "pizza-s": 5}


def test_a_rules_do_not_commute_with_concatenation():
    """L1012 (G49): val_a(<0,-2> + <1>) = -1."""
    assert solve("pizza-a", "<0,-2> + <1>").value == -1


@SETTINGS
@given(lists)
def test_s_rules_value_is_never_negative(ws):
    """L1040: Player One can force Player Two to take everything that is bad."""
    assert solve("pizza-s", board(ws)).value >= 0
