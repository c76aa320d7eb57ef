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
    if plugins_env:
        env["CGFRAMEWORK_PLUGINS"] = plugins_env
    code = "import sys; from cgframework.cli import main; main(sys.argv[1:])"
    return subprocess.run(
        [sys.executable, "-c", code, *args], env=env, capture_output=True, text=True
    )


def test_example_plugin_is_discovered_and_solves(installed_example):
    listed = cgf(["rulesets", "--json"], installed_example)
    assert listed.returncode == 0, listed.stderr
    names = {r["name"]: r for r in json.loads(listed.stdout)}
    assert names["toads-and-frogs"]["plugin"] == "toads"
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
    """Issue 21: pip-installed (entry point ``toads``) and named in CGFRAMEWORK_PLUGINS by its
    module: registered once, no pluggy error."""
    solved = cgf(["solve", "toads", "T.F", "--json"], installed_example, "cgframework_toads.plugin")
    assert solved.returncode == 0, solved.stderr
    assert json.loads(solved.stdout)["value"] == "*"
