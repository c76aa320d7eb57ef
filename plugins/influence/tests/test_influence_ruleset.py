"""The ``influence`` ruleset: input forms, generators, the move rules (L84-L90)."""

from __future__ import annotations

import pytest

from cgframework import Player, Sum, get_registry, options, parse_position, solve
from cgframework_influence.engine import GraphComponents, canonical_form
from cgframework_influence.graph import cycle, negate, segment, tree
from cgframework_influence.solvers import Analyser, as_graph

RULES = get_registry().ruleset("influence")


def test_one_line_and_json_agree():
    a = RULES.parse("LRRL:0>1,0>2,3>2")
    b = RULES.parse('{"vertices":[0,1,2,3],"colors":"BWWB","arcs":[[0,1],[0,2],[3,2]]}')
    c = RULES.parse('{"vertices":["0","1","2","3"],"colors":{"0":"L","1":"R","2":"W","3":"B"},'
                    '"arcs":[["0","1"],["0","2"],["3","2"]]}')  # fmt: skip
    assert a.key() == b.key() == c.key()
    assert RULES.parse("BWWB:0>1,0>2,3>2").key() == a.key()


def test_named_vertices_print_as_json_and_round_trip():
    g = RULES.parse('{"vertices":["u","v"],"colors":{"u":"B","v":"W"},"arcs":[["u","v"]]}')
    text = RULES.format(g)
    assert text.startswith("{") and RULES.parse(text) == g


def test_sums_with_c_plus_split_on_spaced_plus():
    pos = parse_position(RULES, "segment:5:C+ + segment:5:C- + cycle:6")
    assert isinstance(pos, Sum) and len(pos.parts) == 3
    assert pos.parts[0].colors == "LRLRL" and pos.parts[1].colors == "RLRLR"


def test_generators():
    assert segment(4).colors == "RLRL" and segment(4).arcs == ((1, 0), (1, 2), (3, 2))
    assert cycle(6).arcs == ((0, 1), (0, 5), (2, 1), (2, 3), (4, 3), (4, 5))
    assert RULES.parse("dipath:LRLR").arcs == ((0, 1), (1, 2), (2, 3))
    assert tree(1, 2).n == 4 + 6


def test_moves_take_succ_and_pred_in_the_current_graph():
    """L86-L90: Left takes Succ(G,x), Right Pred(G,y), with their sizes as points."""
    g = RULES.parse("LRL:0>1,1>2")  # directed path L -> R -> L
    left = {m.text: (m.points, m.result.colors) for m in options(RULES, g, Player.LEFT)}
    right = {m.text: (m.points, m.result.colors) for m in options(RULES, g, Player.RIGHT)}
    assert left == {"0": (3, ""), "2": (1, "LR")}
    assert right == {"1": (2, "L")}


def test_waiting_rule():
    """L20: a player without vertices waits while the other empties the graph."""
    g = RULES.parse("LLL:0>1")
    assert solve(RULES, g, first=Player.RIGHT, method="generic").value == -3
    assert solve(RULES, g, first=Player.RIGHT).extra["scores"]["Rs"] == 3


@pytest.mark.parametrize("n", range(1, 13))
def test_directed_alternating_paths_closed_form(n):
    """Digest §2.7 (not in the paper): v0 -> v1 -> ... alternating."""
    for start in "LR":
        colors = "".join(start if i % 2 == 0 else ("R" if start == "L" else "L") for i in range(n))
        s = solve(RULES, RULES.parse(f"dipath:{colors}")).extra["scores"]
        if start == "L":
            assert s["s1L"] == n and s["s1R"] == (n if n % 2 == 0 else n - 1)
        else:
            assert s["s1L"] == n - 1 and s["s1R"] == (n if n % 2 else n - 1)


def test_negative_of_a_segment_swaps_c_plus_and_c_minus():
    """Cor. 15 (L496-L505) on segments: -C-_m = C+_m, even segments are self-negative."""
    assert canonical_form(negate(segment(7))) == canonical_form(segment(7, "C+"))
    assert canonical_form(negate(segment(8))) == canonical_form(segment(8))


def test_lemma_29_right_move_in_a_tree():
    """Lemma 29 (L888-L894): (T_n^c)_y = J_0^c + ... + J_{n-1}^c, Right gaining n+1+c."""
    from cgframework_influence.graph import rmv

    for n, c in ((1, 1), (2, 1), (2, 2)):
        t = tree(n, c)
        y = t.colors.index("R")
        taken = rmv(t.succ_masks(), t.pred_masks(), t.colour_mask("L"), t.full, y)
        assert taken.bit_count() == n + 1 + c
        u = GraphComponents()
        rest = sorted(u.split(t, t.full & ~taken))
        forest = as_graph(Sum(tuple(tree(i, c) for i in range(n) for _ in "ab")))
        expected = sorted(u.split(forest, forest.full))
        assert rest == expected


def test_raw_game_equals_relevant_game_plus_forced():
    """Footnote 6 (L181), digest §1.5: isolated vertices go to their owners."""
    a = Analyser(GraphComponents())
    ls, rs = a.ls_rs(RULES.parse("segment:9"))
    assert a.ls_rs(as_graph(Sum((RULES.parse("segment:9"), RULES.parse("LLR:"))))) == (
        ls + 1,
        rs + 1,
    )


def test_json_colour_words_and_errors():
    g = RULES.parse('{"vertices":["a","b"],"colors":{"a":"black","b":"White"},"arcs":[["a","b"]]}')
    assert g.colors == "LR"
    with pytest.raises(ValueError, match="bad colour"):
        RULES.parse('{"vertices":["a"],"colors":{"a":"green"}}')
    with pytest.raises(ValueError, match="unknown vertex"):
        RULES.parse('{"vertices":["a"],"colors":"B","arcs":[["a","c"]]}')
