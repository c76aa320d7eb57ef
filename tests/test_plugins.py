"""Plugin discovery: a module loaded by name, duplicate names, the CLI on a new ruleset."""

from __future__ import annotations

import textwrap

import pytest

from cgframework import plugins
from cgframework.testing import run_cli

PLUGIN_SOURCE = textwrap.dedent(
    '''
    import attrs
    from cgframework import BaseRuleset, Convention, Move, Player, hookimpl

    class Countdown(BaseRuleset):
        """Impartial: subtract 1 or 2 from a counter."""
        name = "{name}"
        convention = Convention.NORMAL
        impartial = True
        syntax = "a counter, e.g. 7"

        def parse(self, text):
            n = int(text)
            if n < 0:
                raise ValueError(f"negative counter {{n}}")
            return n

        def options(self, position, player):
            return [Move(position - k, f"-{{k}}") for k in (1, 2) if position >= k]

        def examples(self):
            return ["7"]

    @hookimpl
    def register_rulesets(register):
        register(Countdown())
    '''
)


@pytest.fixture
def plugin_dir(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    plugins.reset()
    yield tmp_path
    plugins.reset()


def write_plugin(directory, module, ruleset_name):
    (directory / f"{module}.py").write_text(PLUGIN_SOURCE.format(name=ruleset_name))


def test_plugin_module_loaded_by_name_and_solved_through_cli(plugin_dir, capsys):
    write_plugin(plugin_dir, "tmp_countdown", "countdown")
    plugins.load_plugin("tmp_countdown")
    assert "countdown" in plugins.get_registry().rulesets
    code, out, err = run_cli(capsys, "solve", "countdown", "7", "--json")
    assert code == 0, err
    assert '"grundy": 1' in out  # 7 mod 3 = 1: Grundy values of subtract-{1,2} are n mod 3


def test_plugin_module_from_environment_variable(plugin_dir, monkeypatch):
    write_plugin(plugin_dir, "tmp_countdown_env", "countdown-env")
    monkeypatch.setenv(plugins.PLUGINS_ENV, "tmp_countdown_env")
    plugins.reset()
    assert plugins.get_registry().plugin_of("countdown-env") == "tmp_countdown_env"


def test_two_plugins_with_one_ruleset_name_leave_one_out_with_a_warning_naming_both(plugin_dir):
    """A clash disables one of the two plugins (reported), not every plugin."""
    write_plugin(plugin_dir, "tmp_first", "clash")
    write_plugin(plugin_dir, "tmp_second", "clash")
    plugins.load_plugin("tmp_first")
    plugins.load_plugin("tmp_second")
    with pytest.warns(plugins.PluginWarning) as caught:
        registry = plugins.get_registry()
    (warning,) = caught
    assert "tmp_first" in str(warning.message) and "tmp_second" in str(warning.message)
    (left_out,) = plugins.broken_plugins()
    assert registry.plugin_of("clash") == ({"tmp_first", "tmp_second"} - {left_out}).pop()
    assert "nim" in registry.rulesets and left_out not in registry.plugins


def test_unknown_plugin_module_is_a_one_line_error(plugin_dir, capsys):
    plugins.load_plugin("no_such_module_xyz")
    code, _, err = run_cli(capsys, "rulesets")
    assert code == 2
    assert "no_such_module_xyz" in err and err.count("\n") == 1


def test_a_named_plugin_module_that_raises_on_import_is_a_one_line_error(plugin_dir, capsys):
    """A module named on purpose (CGFRAMEWORK_PLUGINS, load_plugin) is an error, whatever its
    import raises: exit 2 with one line, not an internal error."""
    (plugin_dir / "tmp_raising.py").write_text("raise RuntimeError('not today')\n")
    plugins.load_plugin("tmp_raising")
    code, _, err = run_cli(capsys, "rulesets")
    assert code == 2
    assert "tmp_raising" in err and "RuntimeError: not today" in err and err.count("\n") == 1
