"""docs/writing-a-plugin.md: its example plugin installs like a third-party package and solves.

The example is installed with pip into a temporary folder and found through its entry point
(group ``cgframework``), in a fresh ``cgf`` process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "docs" / "example-plugin"


@pytest.fixture(scope="module")
def installed_example(tmp_path_factory):
    target = tmp_path_factory.mktemp("site")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--target",
            str(target),
            str(EXAMPLE),
        ],
        check=True,
    )
    return target


def cgf(args, site, plugins_env=None):
    env = dict(os.environ, PYTHONPATH=str(site))
    env.pop("CGFRAMEWORK_PLUGINS", None)
    env.pop("CGFRAMEWORK_BUNDLED_ONLY", None)  # (the root conftest.py pins the bundled plugins)
    if plugins_env:
        env["CGFRAMEWORK_PLUGINS"] = plugins_env
    code = "import sys; from cgframework.cli.commands import main; main(sys.argv[1:])"
    return subprocess.run(
        [sys.executable, "-c", code, *args], env=env, capture_output=True, text=True
    )


def test_example_plugin_is_discovered_and_solves(installed_example):
    listed = cgf(["rulesets", "--json"], installed_example)
    assert listed.returncode == 0, listed.stderr
    names = {r["name"]: r for r in json.loads(listed.stdout)}
    assert names["toads-tutorial"]["plugin"] == "toads"
    solved = cgf(["solve", "toads", "T.F", "--json"], installed_example)
    assert solved.returncode == 0, solved.stderr
    record = json.loads(solved.stdout)
    # By hand: .TF = {|FT.} = {|1} = 0 and TF. = {.FT|} = {-1|} = 0, so T.F = {0|0} = *.
    assert record["value"] == "*" and record["outcome"] == "N"
    outcome = cgf(["solve", "toads", "T.F", "--method", "outcome", "--json"], installed_example)
    assert json.loads(outcome.stdout)["outcome"] == record["outcome"]


def test_example_plugin_rejects_bad_input(installed_example):
    bad = cgf(["solve", "toads", "TX.F"], installed_example)
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1 and "column 2" in bad.stderr


def test_plugin_installed_and_named_in_the_environment_loads_once(installed_example):
    """Pip-installed (entry point ``toads``) and named in CGFRAMEWORK_PLUGINS by its
    module: registered once, no pluggy error."""
    solved = cgf(["solve", "toads", "T.F", "--json"], installed_example, "cgframework_toads.plugin")
    assert solved.returncode == 0, solved.stderr
    assert json.loads(solved.stdout)["value"] == "*"


def test_example_plugin_solver_and_family_from_the_command_line(installed_example):
    solved = cgf(["solve", "toads", "F.T..", "--json"], installed_example)
    record = json.loads(solved.stdout)
    assert record["method"] == "separated" and record["value"] == "2"
    swept = cgf(["sweep", "toads", "gap", "--to", "3"], installed_example)
    assert swept.returncode == 0, swept.stderr
    values = [json.loads(line)["value"] for line in swept.stdout.splitlines()]
    assert values == ["0", "*", "0", "*"]


@pytest.fixture(scope="module")
def toads_in_process():
    from cgframework import plugins

    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(EXAMPLE))
        plugins.reset()
        plugins.load_plugin("cgframework_toads.plugin")
        yield
        plugins.reset()


strips = st.text(alphabet="TF..", min_size=1, max_size=7)


@settings(max_examples=60, deadline=None)
@given(st.lists(strips, min_size=1, max_size=2).map(" + ".join), st.sampled_from(["L", "R"]))
def test_example_solver_and_simplification_agree_with_brute_force(toads_in_process, text, first):
    """The ``separated`` solver (when it applies) and the ``dead-ends`` simplification give
    the generic solver's value, outcome and winning moves."""
    from cgframework import Player, solve

    player = Player(first)
    fast = solve("toads", text, first=player)
    slow = solve("toads", text, first=player, method="generic")
    assert fast.value is slow.value and fast.outcome is slow.outcome
    assert sorted(fast.best_moves) == sorted(slow.best_moves)


def test_example_family_gap_alternates_zero_and_star(toads_in_process):
    from cgframework.api import sweep

    values = [str(r.solution.value) for r in sweep("toads", "gap", 0, 7)]
    assert values == ["0", "*"] * 4
