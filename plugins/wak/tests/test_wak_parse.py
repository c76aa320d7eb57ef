"""Input formats of ``wak`` and ``arc-kayles`` and their error messages."""

from __future__ import annotations

import json

import networkx as nx
import pytest

from cgframework import Sum, get_registry, parse_position
from cgframework.testing import run_cli
from cgframework_wak.graph import make_graph
from cgframework_wak.parse import from_networkx, parse_graph, to_networkx

EXAMPLE = '{"n":4,"edges":[[0,1],[1,2],[2,3]],"loops":[0],"weights":[3,1,4,1]}'


def wak(text):
    return parse_position(get_registry().ruleset("wak"), text)


def ak(text):
    return parse_position(get_registry().ruleset("arc-kayles"), text)


def test_json_round_trip():
    g = wak(EXAMPLE)
    assert g.weights == (3, 1, 4, 1) and g.loops == (0,) and g.edges == ((0, 1), (1, 2), (2, 3))
    assert get_registry().ruleset("wak").format(g) == EXAMPLE
    assert wak(get_registry().ruleset("wak").format(g)) == g


def test_families():
    assert wak("path:3,1,4") == make_graph(3, [(0, 1), (1, 2)], (), [3, 1, 4])
    assert wak("cycle:1,2,3").edges == ((0, 1), (0, 2), (1, 2))
    assert wak("complete:1,2,3,4").edges == tuple((i, j) for i in range(4) for j in range(i + 1, 4))
    star = wak("star:5;1,2,3")
    assert star.weights == (5, 1, 2, 3) and star.edges == ((0, 1), (0, 2), (0, 3))
    assert ak("path:4") == make_graph(4, [(0, 1), (1, 2), (2, 3)])
    assert len(ak("cycle:5").edges) == 5
    assert len(ak("complete:5").edges) == 10
    assert ak("grid:3x4").n == 12 and len(ak("grid:3x4").edges) == 17
    wheel = ak("wheel:6")
    assert wheel.n == 7 and len(wheel.edges) == 12


def test_edge_lists_and_sums():
    g = wak("0-1, 1-2 ; w=3,1,4 ; loops=0")
    assert g == make_graph(3, [(0, 1), (1, 2)], [0], [3, 1, 4])
    assert ak("0-1 2-3;n=6").n == 6
    position = wak("path:1,2 + star:1;1,1")
    assert isinstance(position, Sum) and len(position.parts) == 2


def test_networkx_round_trip():
    g = nx.Graph()
    g.add_node("a", w=3, loop=True)
    g.add_node("b", w=2)
    g.add_edge("a", "b")
    graph = from_networkx(g)
    assert graph == make_graph(2, [(0, 1)], [0], [3, 2])
    assert from_networkx(to_networkx(graph)) == graph
    g.add_edge("b", "b")
    with pytest.raises(ValueError, match="self-loop 'b'-'b'"):
        from_networkx(g)


@pytest.mark.parametrize(
    ("ruleset", "text", "message"),
    [
        ("wak", "path:3,-1,4", "negative counter -1"),
        ("wak", '{"n":2,"edges":[[0,1]],"weights":[1,-2]}', "negative counter -2 on vertex 1"),
        ("wak", '{"n":2,"edges":[[1,1]]}', "self-loop 1-1 written as an edge"),
        ("wak", "0-1,2-2", "self-loop 2-2 written as an edge"),
        ("wak", '{"n":2,"edges":[[0,5]]}', "vertex 5 of edge 0-5 is not in 0..1"),
        ("wak", '{"n":2,"edges":[[0,1]]', "malformed JSON"),
        ("wak", '{"n":2,"edgez":[]}', "unknown key 'edgez'"),
        ("wak", '{"n":2,"weights":[1]}', "1 counters given for 2 vertices"),
        ("wak", '{"n":2,"edges":[[0,"x"]]}', "vertex 'x' is not an integer"),
        ("wak", "0-1,1-x", "edge '1-x' is not u-v"),
        ("wak", "path:1,a", "counter 'a' in path"),
        ("wak", "star:1", "is not c;l1,l2"),
        ("wak", "wheel:1,2", "unknown family 'wheel'"),
        ("arc-kayles", '{"n":2,"edges":[[0,1]],"loops":[0]}', "arc-kayles has no loops"),
        ("arc-kayles", '{"n":2,"edges":[[0,1]],"weights":[2,1]}', "counter 2 is not 0 or 1"),
        ("arc-kayles", "grid:3y4", "is not RxC"),
        ("arc-kayles", "cycle:2", "cycle:2 needs at least 3 vertices"),
        ("arc-kayles", "0-1;w=1,1", "unknown field 'w'"),
    ],
)
def test_bad_input_is_one_line_exit_2(capsys, ruleset, text, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_graph(text, ruleset == "arc-kayles")
    code, out, err = run_cli(capsys, "solve", ruleset, text)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_solve_json_contract(capsys):
    code, out, _ = run_cli(capsys, "solve", "wak", EXAMPLE, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["grundy"] == 3 and data["value"] == "*3" and data["outcome"] == "N"
    assert data["best_moves"] == ["1-2"] and data["method"] == "wak-search"
    code, out, _ = run_cli(capsys, "solve", "arc-kayles", "grid:3x4", "--json")
    assert json.loads(out)["grundy"] == 1
