"""``cgf solve influence`` and ``cgf influence ...`` (CLI contract, DESIGN.md)."""

from __future__ import annotations

import json

import pytest

from cgframework.testing import run_cli as run
from cgframework_influence.paper import TABLE_1


def test_solve_json_has_scores(capsys):
    code, out, _ = run(capsys, "solve", "influence", "segment:10 + segment:17", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["value"] == -1 and data["method"] == "influence-segments"
    assert data["scores"] == {"s1L": 13, "s2L": 12, "s1R": 15, "s2R": 14, "Ls": -1, "Rs": -3}


def test_solve_right_first_value_is_minus_rs(capsys):
    code, out, _ = run(capsys, "solve", "influence", "segment:7", "--first", "R", "--json")
    data = json.loads(out)
    assert code == 0 and data["value"] == 1 and data["scores"]["Rs"] == -1


def test_general_graph_uses_graph_solver(capsys):
    code, out, _ = run(capsys, "solve", "influence", "LRRL:0>1,0>2,3>2,2>1", "--json")
    data = json.loads(out)
    assert code == 0 and data["method"] == "influence-graph"
    assert data["position"] == "LRRL:0>1,0>2,2>1,3>2"


@pytest.mark.parametrize(
    "text",
    [
        "LRX:0>1",
        "LR:0>5",
        "LR:0>0",
        "LR:0-1",
        "segment:0",
        "segment:4:C+",
        "segment:5:C*",
        "cycle:5",
        "tree:1",
        "dipath:LRQ",
        '{"vertices":["a"],"colors":{"b":"B"}}',
        "{not json",
        "segment:3 + ",
    ],
)
def test_bad_input_one_line_exit_2(capsys, text):
    code, out, err = run(capsys, "solve", "influence", text)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_table_reproduces_table_1_as_csv(capsys):
    code, out, _ = run(capsys, "influence", "table", "--to", "38", "--no-progress")
    assert code == 0
    lines = out.strip().splitlines()
    assert lines[0] == "n,s1L,s2L,s1R,s2R,Ls,Rs"
    got = [tuple(int(x) for x in line.split(",")[5:]) for line in lines[1:]]
    assert got == TABLE_1


def test_table_resumes_from_the_store(capsys, tmp_path):
    db = str(tmp_path / "t.sqlite")
    code, first, _ = run(
        capsys, "influence", "table", "--to", "12", "--store", db, "--format", "json"
    )
    assert code == 0
    code, again, _ = run(
        capsys, "influence", "table", "--to", "14", "--store", db, "--format", "json"
    )
    rows = json.loads(again)
    assert code == 0 and rows[:12] == json.loads(first) and rows[13]["Ls"] == 4


def test_check_command(capsys):
    code, out, _ = run(capsys, "influence", "check", "--random", "30", "--max-n", "6")
    assert code == 0 and out.startswith("ok:")


def test_explain_mirror_on_s_11(capsys):
    code, out, _ = run(
        capsys, "influence", "explain", "segment:11", "--strategy", "mirror", "--json"
    )
    data = json.loads(out)
    assert code == 0 and data["moves"][0]["vertex"] == "5" and data["difference"] == 3


def test_explain_quasi_equal_on_s_14_is_not_optimal(capsys):
    """Digest §2.4b: the quasi-equal cut gets 2 on S_14, the optimum is 4."""
    code, out, _ = run(
        capsys, "influence", "explain", "segment:14", "--strategy", "quasi-equal", "--json"
    )
    data = json.loads(out)
    assert code == 0 and data["difference"] == 2 and data["optimal_difference"] == 4


def test_mirror_refused_where_it_does_not_apply(capsys):
    code, _, err = run(capsys, "influence", "explain", "segment:8", "--strategy", "mirror")
    assert code == 2 and "mirror" in err


def test_picture_is_dot_on_request(capsys):
    code, out, _ = run(capsys, "influence", "picture", "segment:5", "--format", "dot")
    assert code == 0 and out.startswith("digraph influence {") and '"1" -> "0";' in out


def test_picture_is_svg_by_default_coloured_by_who_took_what(capsys, tmp_path):
    import xml.etree.ElementTree as ET

    from cgframework.display.pictures import LEFT_COLOUR, RIGHT_COLOUR

    target = tmp_path / "line.svg"
    code, _, err = run(capsys, "influence", "picture", "segment:5", "-o", str(target))
    assert code == 0, err
    fills = [
        e.get("fill")
        for e in ET.fromstring(target.read_text()).iter()
        if e.get("class") == "vertex"
    ]
    assert len(fills) == 5 and set(fills) == {LEFT_COLOUR, RIGHT_COLOUR}  # all taken
    code, _, err = run(capsys, "influence", "picture", "segment:5", "--format", "png")
    assert code == 2 and err.count("\n") == 1


@pytest.mark.parametrize(
    "command",
    [
        ("influence", "explain", "cycle:200"),
        ("influence", "picture", "cycle:200"),
        ("solve", "influence", "cycle:200"),
        ("solve", "influence", "segment:60 + LRRL:0>1,0>2,3>2", "--method", "influence-graph"),
    ],
)
def test_exponential_searches_stop_at_the_node_budget(capsys, command):
    """The segment and graph engines are exponential (cycle:200 would run for hours): a
    node budget stops them with one line, exit 3, nothing on stdout."""
    code, out, err = run(capsys, *command, "--max-nodes", "2000")
    assert (
        code == 3
        and out == ""
        and err.strip() == ("cgf: error: search stopped after 2000 nodes (--max-nodes)")
    )


def test_a_budget_large_enough_changes_nothing(capsys):
    plain = json.loads(run(capsys, "influence", "explain", "cycle:20", "--json")[1])
    limited = run(capsys, "influence", "explain", "cycle:20", "--json", "--max-nodes", "10000")
    assert limited[0] == 0 and json.loads(limited[1]) == plain
