"""Our values against cgt-py's and pycgt's, compared as games (never as strings).

Golden values: ``data/golden.json``, made once by ``data/make_golden.py`` (300 random positions
per peer and shared ruleset). The live cross-check and the orientation checks run when the
peers are importable (the ``test`` extra installs them).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from cgframework import get_registry, parse_position, solve
from cgframework.testing import from_dag
from cgframework.values import ONE, UP, parse_value

GOLDEN = json.loads((Path(__file__).parent / "data" / "golden.json").read_text())


def _generator():
    """``data/make_golden.py`` as a module (its random positions)."""
    import importlib.util

    path = Path(__file__).parent / "data" / "make_golden.py"
    spec = importlib.util.spec_from_file_location("grids_make_golden", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def peer_value(recorded):
    """A recorded peer value: its text through our value parser, or its game tree."""
    return from_dag(recorded["dag"]) if isinstance(recorded, dict) else parse_value(recorded)


@pytest.mark.parametrize(
    "peer,ruleset",
    [pytest.param(p, r, id=f"{p}-{r}") for p, rows in GOLDEN.items() for r in rows],
)
def test_golden_values_of_the_peers(peer, ruleset):
    rows = GOLDEN[peer][ruleset]
    assert len(rows) >= 300
    rules = get_registry().ruleset(ruleset)
    for text, recorded in rows:
        ours = solve(rules, parse_position(rules, text)).value
        assert ours == peer_value(recorded), (peer, ruleset, text)


@pytest.mark.parametrize(
    "ruleset",
    ["clobber", "cram", "toads-frogs", "snort", "col", "konane", "fission", "amazons"],
)
def test_live_cross_check_with_the_peers(ruleset):
    """Fresh random positions (not the golden ones), each peer that ships the ruleset."""
    pytest.importorskip("pycgt")
    pytest.importorskip("cgt_py")
    random_position = _generator().random_position
    from cgframework_grids.peers import PEER_RULESETS, peer_dag, peer_solver

    rnd = random.Random(f"live-{ruleset}")
    rules = get_registry().ruleset(ruleset)
    for _ in range(25):
        text = random_position(ruleset, rnd)
        ours = solve(rules, parse_position(rules, text)).value
        for peer, shipped in PEER_RULESETS.items():
            if ruleset in shipped:
                theirs = from_dag(peer_dag(peer, peer_solver(peer, ruleset, text)()))
                assert ours == theirs, (peer, ruleset, text)


@pytest.mark.parametrize(
    "peer,ruleset,text,expected",
    [
        ("pycgt", "clobber", "xxo", UP),  # pycgt's own doc: xxo = ^
        ("pycgt", "toads-frogs", "T.", ONE),  # a toad with room: one free move for Left
        ("cgt-py", "konane", "xo.", ONE),  # x jumps o; o cannot move
        ("cgt-py", "amazons", "x..", ONE + ONE),  # two moves for Left (move, then shoot)
        ("cgt-py", "fission", ".|x|.", ONE),  # a vertical split is Left's
        ("pycgt", "snort", ";tints=L", ONE),
        ("cgt-py", "snort", ";tints=L", ONE),
        ("pycgt", "col", ";tints=R", ONE),  # tinted by Right: only Left may colour it
        ("cgt-py", "col", ";tints=R", ONE),
    ],
)
def test_orientation_left_is_the_same_in_the_peers(peer, ruleset, text, expected):
    """On a tiny nonzero position, the peer's value is ours (not its negative)."""
    pytest.importorskip("pycgt" if peer == "pycgt" else "cgt_py")
    from cgframework_grids.peers import peer_dag, peer_solver

    theirs = from_dag(peer_dag(peer, peer_solver(peer, ruleset, text)()))
    ours = solve(ruleset, text).value
    assert ours == theirs == expected
