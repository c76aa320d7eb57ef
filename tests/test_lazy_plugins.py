"""Lazy plugins: a plugin with a ruleset manifest (entry points
``cgframework.rulesets``) is imported only when one of its rulesets is first used, and what
serves a ruleset is the same whether its plugin was loaded alone or with all the others."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import entry_points

import pytest

from cgframework import plugins
from cgframework.solvers.dispatch import available_methods


@pytest.fixture
def fresh_plugins():
    plugins.reset()
    yield
    plugins.reset()


def _served(registry, rs):
    """What the automatic solve of ``rs`` may use: solvers, simplifications, families."""
    return (
        sorted(s.name for s in registry.solvers if s.serves(rs) and s.auto),
        sorted(str(s) for s in registry.simplifications if rs.name in s.rulesets),
        sorted(f for r, f in registry.families if r == rs.name),
    )


def test_manifest_names_every_ruleset_and_alias_with_its_plugin(fresh_plugins):
    registry = plugins.get_registry()
    modules = {ep.name: ep.value for ep in entry_points(group=plugins.ENTRY_POINT_GROUP)}
    manifest = {ep.name: ep.value for ep in entry_points(group=plugins.MANIFEST_GROUP)}
    names = [*registry.rulesets, *registry.aliases]
    bundled = [n for n in names if registry.plugin_of(n) in modules]
    assert len(bundled) >= 30
    for name in bundled:
        assert manifest.get(name) == modules[registry.plugin_of(name)], name


def test_a_ruleset_loaded_alone_is_served_as_with_every_plugin(fresh_plugins):
    full = plugins.get_registry()
    expected = {name: _served(full, rs) for name, rs in full.rulesets.items()}
    names = [*full.rulesets, *full.aliases]
    for name in names:
        plugins.reset()
        alone = plugins.registry_for(name)
        rs = alone.ruleset(name)
        assert _served(alone, rs) == expected[rs.name], name
        assert "auto" in available_methods(rs, alone)


def test_unknown_name_loads_every_plugin(fresh_plugins):
    registry = plugins.registry_for("no-such-ruleset")
    assert "nim" in registry.rulesets and "pizza" in registry.rulesets


def test_cgf_solve_imports_only_the_plugin_it_needs():
    """No heavy module either: typer's pydantic validators and rich's console are skipped."""
    code = (
        "import sys; from cgframework.cli.commands import main\n"
        "try:\n    main(['solve', 'nim', '3+5', '--json'])\n"
        "except SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('cgframework_') and '.' not in m))\n"
        "print([m for m in ('numpy', 'igraph', 'networkx', 'dask', 'pydantic', 'rich') "
        "if m in sys.modules])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    solution, loaded, heavy = done.stdout.splitlines()
    assert json.loads(solution)["value"] == "*6"
    assert loaded == "['cgframework_classic']"
    assert heavy == "[]"


def test_commands_manifest_names_every_plugin_command(fresh_plugins):
    import typer

    modules = {ep.name: ep.value for ep in entry_points(group=plugins.ENTRY_POINT_GROUP)}
    manifest = {ep.name: ep.value for ep in entry_points(group=plugins.COMMANDS_GROUP)}
    pm = plugins.plugin_manager()
    seen = 0
    for impl in pm.hook.register_commands.get_hookimpls():
        if impl.plugin_name not in modules:
            continue
        app = typer.Typer()
        impl.function(app=app)
        for group in app.registered_groups:
            assert manifest.get(group.name) == modules[impl.plugin_name], group.name
            seen += 1
    assert seen >= 6


def test_a_plugin_command_imports_only_its_plugin():
    code = (
        "import sys; from cgframework.cli.commands import main\n"
        "try:\n    main(['pizza', '--help'])\n"
        "except SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('cgframework_') and '.' not in m))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "two-ended stacks" in done.stdout
    assert done.stdout.splitlines()[-1] == "['cgframework_pizza']"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--max-nodes", "-3"), "greater than or equal to 0"),
        (("--max-nodes", "x"), "valid integer"),
        (("--timeout", "soon"), "valid number"),
    ],
)
def test_numbers_are_still_validated_by_typer(capsys, args, message):
    """Only strings for ``str`` parameters skip typer's validators (``cli.coerce_lazily``)."""
    from cgframework.testing import run_cli

    code, _, err = run_cli(capsys, "solve", "nim", "1", *args)
    assert code == 2 and err.count("\n") == 1 and message in err
