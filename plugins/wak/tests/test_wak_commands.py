"""``cgf wak`` sub-commands: grundy, sequence, family, rooks,
to-arc-kayles; the value store is keyed by the certificate."""

from __future__ import annotations

import json

import pytest

from cgframework import solve
from cgframework.store.database import ValueStore
from cgframework.testing import run_cli
from cgframework_wak.graph import make_graph, relabel
from cgframework_wak.oracle import plain_grundy
from cgframework_wak.parse import parse_graph
from cgframework_wak.ruleset import WakRuleset

TRIANGLE_PENDANT = '{"n":4,"edges":[[0,1],[0,2],[1,2],[1,3]],"loops":[0],"weights":[0,2,3,1]}'


def test_grundy_gives_value_and_winning_move(capsys):
    code, out, _ = run_cli(capsys, "wak", "grundy", "complete:1,2,3", "--json")
    data = json.loads(out)
    assert code == 0 and data["grundy"] == 3
    for move in data["best_moves"]:  # every winning move leads to a P-position
        u, v = (int(x) for x in move.split("-"))
        weights = [1, 2, 3]
        weights[u] -= 1
        weights[v] -= 1
        assert plain_grundy(parse_graph("complete:" + ",".join(map(str, weights)))) == 0
    code, out, _ = run_cli(capsys, "wak", "grundy", "grid:3x3", "--arc-kayles")
    assert code == 0 and out.startswith("G = 0 (P-position")


def test_sequence_in_one_counter_detects_period(capsys):
    """Section 6 (L264): preperiod 2k = 6 for the triangle-plus-pendant with k = 3 (digest
    2.5), under the proven bound 2*Omega = 12."""
    code, out, _ = run_cli(
        capsys, "wak", "sequence", TRIANGLE_PENDANT, "--vertex", "0", "--to", "24", "--json"
    )
    data = json.loads(out)
    assert code == 0
    assert data["grundy"][:8] == [0, 3, 0, 1, 0, 4, 1, 0]
    assert (data["preperiod"], data["period"]) == (6, 2)
    assert data["proven"]["from"] == 12


def test_sequence_of_a_family_resumes_from_the_store(capsys, tmp_path):
    store = str(tmp_path / "wak.sqlite")
    args = ["wak", "sequence", "--family", "path", "--arc-kayles", "--to", "40"]
    code, out, _ = run_cli(capsys, *args, "--store", store, "--json")
    first = json.loads(out)
    assert code == 0
    assert first["grundy"][:10] == [solve("octal", f"0.07:{n}").grundy for n in range(10)]
    assert first["from_store"] == 0
    code, out, err = run_cli(capsys, *args, "--store", store, "--json")
    again = json.loads(out)
    assert again["grundy"] == first["grundy"] and again["from_store"] == 40  # P_1 shares P_0's row
    with ValueStore(store) as handle:
        assert len(handle) == 40  # P_0 and P_1 have no move: one certificate, one row


def test_store_is_keyed_by_certificate(tmp_path):
    """Isomorphic relabelled graphs share one row of the value store."""
    g = make_graph(5, [(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (0, 2)], (3,), [2, 1, 3, 1, 2])
    h = relabel(g, [4, 2, 0, 1, 3])
    with ValueStore(tmp_path / "s.sqlite") as store:
        a = solve(WakRuleset(), g, store=store)
        assert len(store) == 1
        b = solve(WakRuleset(), h, store=store)  # found; its moves come from its options
        assert b.extra.get("from_store") and a.grundy == b.grundy == plain_grundy(h)


def test_family_values(capsys):
    """Theorem 2 (L307): G_1..G_4 = 1, 3, 2, 6 (digest 2.6)."""
    code, out, _ = run_cli(capsys, "wak", "family", "--to", "4", "--json")
    rows = json.loads(out)
    assert [r["grundy"] for r in rows] == [1, 3, 2, 6]
    assert [r["vertices"] for r in rows] == [1, 3, 9, 27]
    code, out, _ = run_cli(capsys, "wak", "family", "--to", "3", "--arc-kayles", "--json")
    assert [r["grundy"] for r in json.loads(out)] == [1, 3, 2]


def test_to_arc_kayles(capsys):
    code, out, err = run_cli(
        capsys,
        "wak",
        "to-arc-kayles",
        '{"n":2,"edges":[[0,1]],"loops":[0],"weights":[2,3]}',
        "--check",
        "--json",
    )
    data = json.loads(out)
    assert code == 0 and data["vertices"] == 7
    assert data["wak_grundy"] == data["arc_kayles_grundy"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["wak", "grundy", "path:1,-2"], "negative counter -2"),
        (["wak", "grundy", "0-0"], "self-loop 0-0"),
        (["wak", "sequence", "path:1,2", "--to", "3"], "give GRAPH and --vertex"),
        (["wak", "sequence", "path:1,2", "--vertex", "7"], "vertex 7 is not in 0..1"),
        (["wak", "sequence", "--family", "nope"], "nope"),
        (["wak", "family", "--to", "9"], "n <= 7"),
        (["wak", "rooks", "3x"], "is not RxC"),
        (["wak", "rooks", "../R.R"], "row 1"),
        (["wak", "rooks", "2x2", "--holes", "5,5"], "off the 2x2 board"),
        (["wak", "to-arc-kayles", "path:100,100", "--max-vertices", "10"], "200 vertices"),
        (["wak", "grundy", "path:1,2", "--method", "nope"], "unknown method 'nope'"),
    ],
)
def test_command_errors_are_one_line(capsys, args, message):
    code, out, err = run_cli(capsys, *args)
    assert code == 2, err
    assert message in err and len(err.strip().splitlines()) == 1


def test_rooks_command_gives_winning_squares(capsys):
    """L67: a 3 x 4 board without holes is an N-position (min(3, 4) odd); every winning
    square leaves a P-position of the rooks game itself."""
    from cgframework_wak.rooks import parse_board, rooks_grundy

    code, out, _ = run_cli(capsys, "wak", "rooks", "3x4", "--json")
    data = json.loads(out)
    assert code == 0 and data["grundy"] == 1 and data["winning_squares"]
    board = parse_board("3x4")
    for r, c in data["winning_squares"]:
        after = parse_board(
            "/".join("".join("R" if (i, j) == (r, c) else "." for j in range(4)) for i in range(3))
        )
        assert rooks_grundy(after) == 0 and rooks_grundy(board) == 1


def test_grundy_with_store_resumes(capsys, tmp_path):
    store = str(tmp_path / "g.sqlite")
    code, out, _ = run_cli(capsys, "wak", "grundy", "grid:3x5", "--arc-kayles", "--store", store)
    assert code == 0 and out.startswith("G = 1")
    code, out, _ = run_cli(
        capsys, "wak", "grundy", "grid:3x5", "--arc-kayles", "--store", store, "--json"
    )
    data = json.loads(out)
    assert data["grundy"] == 1 and data["from_store"] is True
