"""Partizan subtraction games: syntax, the value-sequence solver against the generic search
(hypothesis), values worked by hand, and a heap far past the recursion limit."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import Player, get_registry, parse_position, solve
from cgframework.testing import run_cli
from cgframework.values import parse_value

subsets = st.sets(st.integers(1, 5), max_size=3).map(lambda s: ",".join(map(str, sorted(s))))
heaps = st.lists(st.integers(0, 14), min_size=1, max_size=3).map(lambda h: ",".join(map(str, h)))


@settings(max_examples=40, deadline=None)
@given(subsets, subsets, st.lists(heaps, min_size=1, max_size=2), st.sampled_from(list(Player)))
def test_value_sequence_matches_generic(left, right, parts, first):
    text = " + ".join(f"{{{left}|{right}}}:{h}" for h in parts)
    fast = solve("partizan-subtraction", text, first=first)
    slow = solve("partizan-subtraction", text, method="generic", first=first)
    assert fast.method == "value-sequence"
    assert (fast.value, fast.outcome) == (slow.value, slow.outcome)
    assert set(fast.best_moves) == set(slow.best_moves)


@settings(max_examples=20, deadline=None)
@given(subsets, subsets, heaps)
def test_swapped_sets_negate(left, right, sizes):
    """``negative``: exchanging the two sets exchanges the players."""
    ruleset = get_registry().ruleset("partizan-subtraction")
    text = f"{{{left}|{right}}}:{sizes}"
    swapped = ruleset.format(ruleset.negative(ruleset.parse(text)))
    assert swapped == ruleset.format(ruleset.parse(f"{{{right}|{left}}}:{sizes}"))
    a = solve("partizan-subtraction", text, method="generic").value
    assert solve("partizan-subtraction", swapped, method="generic").value == -a


def test_values_by_hand():
    """S_L = {1}, S_R = {2}: heap 1 = {0|} = 1; heap 2 = {1|0} (Left to heap 1, Right to 0);
    heap 3 = {{1|0}|1} = 0 (its Left option is fuzzy, its Right option positive).
    With equal sets the game is impartial: {1,2|1,2} heaps are the subtraction game
    {1,2}, *(n mod 3)."""
    values = [solve("partizan-subtraction", f"{{1|2}}:{n}").value for n in (1, 2, 3)]
    assert values == [parse_value("1"), parse_value("{1|0}"), parse_value("0")]
    for n in range(10):
        value = solve("partizan-subtraction", f"{{1,2|1,2}}:{n}").value
        assert value == parse_value(f"*{n % 3}" if n % 3 else "0")


def test_a_heap_past_the_recursion_limit():
    """Heaps are built up in a loop: a heap of 50001 needs no deep recursion."""
    solution = solve("partizan-subtraction", "{1,2|2,3}:50001")
    assert solution.method == "value-sequence" and solution.best_moves


def test_syntax():
    ruleset = get_registry().ruleset("partizan-subtraction")
    for text in ("{1,2|2,3}:7,5", "{|1}:4", "{1|}:0"):
        assert ruleset.format(ruleset.parse(text)) == text
    assert ruleset.format(ruleset.parse("{ 3, 1,1 | 2 }: 4")) == "{1,3|2}:4"
    assert len(parse_position(ruleset, "{1|2}:3 + {2|1}:4").parts) == 2
    for bad in ("{1,2}:7", "1,2|2:7", "{1|2}", "{0|1}:3", "{1|2|3}:4", "{a|1}:2", "{1|2}:x"):
        with pytest.raises(ValueError):
            ruleset.parse(bad)
    assert 'class="heap"' in ruleset.draw(ruleset.parse("{1|2}:3,4"))


def test_partizan_values_command(capsys):
    code, out, _ = run_cli(capsys, "classic", "partizan-values", "{2,1|3,2}", "--to", "4", "--json")
    assert code == 0
    assert json.loads(out) == {
        "sets": "{1,2|2,3}",
        "values": ["0", "1", "{1|0}", "{1,{1|0}|0}", "0"],
    }
    for bad in (["{1,2}"], ["{1|2}", "--to", "-1"], ["{1|x}"]):
        code, _, err = run_cli(capsys, "classic", "partizan-values", *bad)
        assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
