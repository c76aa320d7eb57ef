"""Installed plugins that fail to load are left out, reported once; everything else works.
And the project's own tests see the bundled plugins only, whatever else is installed.

Each distribution here is installed by hand into a temporary folder (a ``*.dist-info`` with
its ``entry_points.txt``) on the ``PYTHONPATH`` of a fresh ``cgf`` process, with its own
entry-point cache (a new distribution must be seen, not a cached scan)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from fake_distributions import BUNDLED_ONLY_ENV, install_fake_distribution, third_party_env

from cgframework import plugins

ROOT = Path(__file__).resolve().parents[1]
CGF = [sys.executable, "-c", "import sys; from cgframework.cli.commands import main; main()"]

FOREIGN_PLUGIN = textwrap.dedent(
    '''
    from cgframework import BaseRuleset, Convention, Move, hookimpl

    class Countdown(BaseRuleset):
        """Impartial: take 1 from a counter."""
        name = "foreign-countdown"
        convention = Convention.NORMAL
        impartial = True
        syntax = "a counter, e.g. 3"

        def parse(self, text):
            return int(text)

        def options(self, position, player):
            return [Move(position - 1, "-1")] if position else []

        def examples(self):
            return ["3"]

    @hookimpl
    def register_rulesets(register):
        register(Countdown())
    '''
)

HOOK = "from cgframework import hookimpl\n@hookimpl\n"
BROKEN = {
    "raises-on-import": ('raise RuntimeError("boom at import")', "RuntimeError: boom at import"),
    "missing-dependency": ("import no_such_dependency_xyz", "ModuleNotFoundError"),
    "no-hook": ("VALUE = 1", "defines no hook"),
    "exits-on-import": ("import sys; sys.exit(4)", "SystemExit: 4"),
    "registers-garbage": (
        HOOK + "def register_rulesets(register):\n    register(42)\n",
        "register_rulesets got int 42, not a ruleset",
    ),
    "registers-a-non-solver": (
        HOOK + "def register_solvers(register):\n    register('fast')\n",
        "not a SolverSpec",
    ),
    "hook-raises": (
        HOOK + "def register_rulesets(register):\n    raise ValueError('no rulesets today')\n",
        "ValueError: no rulesets today",
    ),
    "commands-hook-raises": (
        HOOK + "def register_commands(app):\n    raise TypeError('no app')\n",
        "TypeError: no app",
    ),
}


def cgf(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*CGF, *args], capture_output=True, text=True, env=env, timeout=120)


@pytest.fixture
def site(tmp_path):
    return tmp_path / "site"


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_a_broken_plugin_is_one_warning_and_every_other_command_works(tmp_path, site, kind):
    source, error = BROKEN[kind]
    install_fake_distribution(
        site,
        "broken-plugin",
        "[cgframework]\nbroken = broken_plugin_module\n",
        {"broken_plugin_module.py": source},
    )
    env = third_party_env(site, tmp_path / "cache")
    for args in (["solve", "nim", "3+5", "--json"], ["rulesets", "--json"]):
        done = cgf(env, *args)
        assert done.returncode == 0, done.stderr
        if kind == "commands-hook-raises" and args[0] == "solve":
            assert done.stderr == ""  # a core command asks no plugin for its commands
            continue
        (line,) = done.stderr.splitlines()  # reported once
        assert line.startswith("cgf: warning: plugin 'broken' failed to load: ")
        assert error in line and line.endswith("its rulesets are unavailable")
    assert json.loads(cgf(env, "solve", "nim", "3+5", "--json").stdout)["value"] == "*6"
    names = {r["name"] for r in json.loads(done.stdout)}
    assert {"nim", "domineering", "pizza", "guaranteed"} <= names


def test_a_ruleset_of_a_broken_lazy_plugin_is_exit_2_naming_plugin_and_error(tmp_path, site):
    """With a manifest the plugin is imported only for its ruleset or command: asking for
    one is the error (one line); other rulesets never import it."""
    install_fake_distribution(
        site,
        "broken-lazy",
        "[cgframework]\nlazybroken = lazy_broken_module\n"
        "[cgframework.rulesets]\nwidget = lazy_broken_module\n"
        "[cgframework.commands]\nwidgets = lazy_broken_module\n",
        {"lazy_broken_module.py": "import no_such_dependency_xyz\n"},
    )
    env = third_party_env(site, tmp_path / "cache")
    for args, wanted in (
        (["solve", "widget", "3"], "ruleset 'widget' is provided by plugin 'lazybroken'"),
        (["widgets", "--help"], "command 'widgets' is provided by plugin 'lazybroken'"),
    ):
        done = cgf(env, *args)
        assert done.returncode == 2, done.stderr
        (line,) = done.stderr.splitlines()
        assert line.startswith("cgf: error: ") and wanted in line
        assert (
            "failed to load: ModuleNotFoundError: No module named 'no_such_dependency_xyz'" in line
        )
    done = cgf(env, "solve", "nim", "3")
    assert done.returncode == 0 and done.stderr == ""


def test_a_broken_plugin_in_process_is_a_plugin_warning(tmp_path, site, monkeypatch):
    """The Python API: a :class:`PluginWarning` (once), the registry without the plugin,
    and the unknown ruleset's error naming it."""
    install_fake_distribution(
        site,
        "broken-plugin",
        "[cgframework]\nbroken = broken_in_process\n"
        "[cgframework.rulesets]\nwidget = broken_in_process\n",
        {"broken_in_process.py": 'raise RuntimeError("boom")\n'},
    )
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setenv("CGFRAMEWORK_NO_CACHE", "1")
    monkeypatch.delenv(BUNDLED_ONLY_ENV)
    plugins.reset()
    try:
        with pytest.warns(plugins.PluginWarning, match="'broken' failed to load"):
            registry = plugins.get_registry()
        with pytest.raises(KeyError, match="provided by plugin 'broken'.*RuntimeError: boom"):
            plugins.resolve_ruleset("widget")
        assert plugins.broken_plugins() == {"broken": "RuntimeError: boom"}
        assert "broken" not in registry.plugins and "nim" in registry.rulesets
    finally:
        plugins.reset()


def test_a_plugin_taken_out_leaves_nothing_behind(fresh_plugin_manager, tmp_path, monkeypatch):
    """A plugin whose later hook fails had its rulesets registered already: they go too."""
    (tmp_path / "half_plugin.py").write_text(
        FOREIGN_PLUGIN + HOOK + "def register_solvers(register):\n    register(None)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    fresh_plugin_manager.load_plugin("half_plugin")
    with pytest.warns(plugins.PluginWarning, match="register_solvers got NoneType"):
        registry = fresh_plugin_manager.get_registry()
    assert "foreign-countdown" not in registry.rulesets
    assert "foreign-countdown" not in registry.origin


# ---- the tests' own plugin set -------------------------------------------------------------


def test_the_suite_pins_the_bundled_plugins():
    assert os.environ.get(BUNDLED_ONLY_ENV) == "1"  # the root conftest.py
    modules = {ep.value for ep in plugins.installed_entry_points()[plugins.ENTRY_POINT_GROUP]}
    assert "cgframework_classic.plugin" in modules


@pytest.fixture
def foreign_site(tmp_path):
    return install_fake_distribution(
        tmp_path / "site",
        "foreign-cgt",
        "[cgframework]\nforeign = foreign_cgt_plugin\n",
        {"foreign_cgt_plugin.py": FOREIGN_PLUGIN},
    )


def test_a_foreign_plugin_is_seen_by_users_and_not_by_the_suite(tmp_path, foreign_site):
    cache = tmp_path / "cache"

    def listed(bundled_only: bool) -> set[str]:
        done = cgf(third_party_env(foreign_site, cache, bundled_only), "rulesets", "--json")
        assert done.returncode == 0 and done.stderr == "", done.stderr
        return {r["name"] for r in json.loads(done.stdout)}

    assert "foreign-countdown" in listed(bundled_only=False)  # installed: users see it
    pinned = listed(bundled_only=True)
    assert "foreign-countdown" not in pinned
    assert pinned == set(plugins.get_registry().rulesets)  # what this suite enumerates


def test_the_enumerating_tests_ignore_a_foreign_plugin(tmp_path, foreign_site):
    """Collect tests/test_fuzz.py (its RULESETS enumerate the registry) with the foreign
    plugin installed: without the pin (``--noconftest``) it shows up in the test ids, with
    the root conftest.py it does not."""
    env = third_party_env(foreign_site, tmp_path / "cache")

    def collected(*options: str) -> str:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-p",
                "no:cacheprovider",
                "--collect-only",
                *options,
                str(ROOT / "tests" / "test_fuzz.py"),
            ],
            capture_output=True,
            text=True,
            env=env,
            cwd=ROOT,
            timeout=300,
        )
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        return done.stdout

    assert "test_fuzz_parser[foreign-countdown]" in collected("--noconftest")
    pinned = collected()
    assert "test_fuzz_parser[nim]" in pinned and "foreign-countdown" not in pinned
