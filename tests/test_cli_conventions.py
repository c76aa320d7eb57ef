"""One set of command-line conventions for every ``cgf`` command, the core's and the plugins':
``--version``, ``-h``, shell completion, real metavars, choices and examples in the help,
``--json`` / ``--format`` / ``-o/--output``, tables that survive a pipe, "did you mean",
``calc --check`` and the value store named as the source of an answer."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import plugins
from cgframework.cli.commands import _click_command, add_core_groups, main
from cgframework.runtime.compiled import PURE_PYTHON_ENV
from cgframework.runtime.version import VERSION
from cgframework.testing import run_cli


def child_cgf(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """``cgf ARGS`` in a fresh interpreter (start-up and imports as a user gets them)."""
    code = "import sys; from cgframework.cli.commands import main; main(sys.argv[1:])"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=120,
    )


def every_command_path() -> list[tuple[str, ...]]:
    """The words of every command and group, plugins' included (``()`` is ``cgf`` itself)."""
    from cgframework.cli import app

    add_core_groups()
    plugins.register_commands(app)
    paths: list[tuple[str, ...]] = []

    def walk(command, path: tuple[str, ...]) -> None:
        paths.append(path)
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, (*path, name))

    walk(_click_command(), ())
    return paths


# --- cgf --version ---------------------------------------------------------------------------


def test_version_names_cgframework_python_kernels_and_plugins(capsys):
    code, out, err = run_cli(capsys, "--version")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == f"cgframework {VERSION}"
    assert lines[1].startswith("Python ") and sys.version.split()[0] in lines[1]
    assert lines[2].startswith("compiled kernels: ") and "canonical" in lines[2]
    assert lines[3].startswith("plugins: ") and "classic" in lines[3] and "pizza" in lines[3]


def test_version_says_kernels_are_off_when_switched_off(capsys, monkeypatch):
    monkeypatch.setenv(PURE_PYTHON_ENV, "1")
    code, out, _ = run_cli(capsys, "--version")
    assert code == 0
    assert f"off ({PURE_PYTHON_ENV}=1)" in out and "canonical" in out


def test_version_reports_a_kernel_whose_source_was_not_built(tmp_path, monkeypatch):
    from cgframework.cli import about

    package = tmp_path / "cc_kernel_pkg"
    (package / "inner").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "inner" / "__init__.py").write_text("")
    (package / "inner" / "_k_fast.c").write_text("/* never compiled */\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv(PURE_PYTHON_ENV, raising=False)
    assert about.kernel_names("cc_kernel_pkg") == ["cc_kernel_pkg.inner._k_fast"]
    assert "cc_kernel_pkg" not in sys.modules  # found from its folder, not imported
    try:
        assert about.kernel_state("cc_kernel_pkg.inner._k_fast") == "not built"
    finally:
        for name in [m for m in sys.modules if m.startswith("cc_kernel_pkg")]:
            del sys.modules[name]


def test_version_imports_no_plugin_module():
    probe = textwrap.dedent(
        """
        import sys
        from cgframework.cli.commands import main
        try:
            main(["--version"])
        except SystemExit:
            pass
        loaded = [m for m in sys.modules if m.startswith("cgframework_")]
        print("LOADED", sorted(m for m in loaded if "." in m and "._k_" not in m))
        """
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    # a plugin's package is imported only to load its compiled kernel: no plugin module, no
    # commands module
    assert done.stdout.strip().endswith("LOADED []"), done.stdout


# --- -h, completion ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path", [(), ("solve",), ("store", "export"), ("sweep",), ("pizza",), ("cr", "sh-solve")]
)
def test_dash_h_is_help_everywhere(capsys, path):
    code, out, err = run_cli(capsys, *path, "-h")
    assert code == 0, err
    assert "Usage: cgf" in out and "--help" in out


def bash_completes(words: str) -> list[str]:
    """What ``cgf``'s bash completion offers when TAB is pressed after ``words``."""
    done = subprocess.run(
        [sys.executable, "-c", "from cgframework.cli.commands import main; main()"],
        capture_output=True,
        text=True,
        env={**os.environ, "_CGF_COMPLETE": "complete_bash", "COMP_WORDS": words}
        | {"COMP_CWORD": str(len(words.split()) - 1)},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_shell_completion_is_offered_and_completes_commands_and_rulesets():
    listed = child_cgf("--help")
    assert "--install-completion" in listed.stdout and "--show-completion" in listed.stdout
    assert bash_completes("cgf pizza se") == ["search"]
    assert bash_completes("cgf solve domi") == ["domineering"]
    assert bash_completes("cgf sweep toads") == ["toads-and-frogs", "toads-frogs"]


# --- help: metavars, choices, examples -------------------------------------------------------


def test_every_help_has_real_metavars_and_examples(capsys):
    for path in every_command_path():
        code, out, err = run_cli(capsys, *path, "--help")
        assert code == 0, (path, err)
        for type_name in ("<str>", "<bool>", "<int>", "<float>", "<list"):
            assert type_name not in out, (path, type_name)
        assert "Examples:" in out, path
        examples = out.split("Examples:")[1].split("╭")[0]
        assert "cgf " in examples, path
        for line in examples.strip().splitlines():  # one example per line, as written
            assert line.strip().startswith(("cgf ", "gunzip ")) or "cgf " in line, (path, line)
        # rich reads [sign] as markup and drops it unless escaped: an extra stays in the text
        assert "'cgframework'" not in " ".join(out.split()), (path, "an extra was eaten")


def test_help_lists_choices(capsys):
    _, solve_help, _ = run_cli(capsys, "solve", "--help")
    assert "L|R" in solve_help and "any|local" in solve_help and "FILE" in solve_help
    assert "cgf rulesets" in solve_help  # where the methods of each ruleset are listed
    _, sweep_help, _ = run_cli(capsys, "sweep", "--help")
    assert "jsonl|csv" in sweep_help
    _, picture_help, _ = run_cli(capsys, "influence", "picture", "--help")
    assert "svg|dot" in picture_help and "optimal|mirror|quasi-equal" in picture_help


# --- one output convention -------------------------------------------------------------------

OLD_OUTPUT_NAMES = ("--picture", "--out ", "--svg", "--thermograph")


def test_no_help_shows_an_old_output_option(capsys):
    for path in every_command_path():
        _, out, _ = run_cli(capsys, *path, "--help")
        for name in OLD_OUTPUT_NAMES:
            assert name not in out, (path, name)


@pytest.mark.parametrize(
    ("args", "name"),
    [
        (("solve", "domineering", "..|.."), "--picture"),
        (("calc", "{3|1}"), "--thermograph"),
    ],
)
def test_output_option_and_its_old_name_write_the_same_file(capsys, tmp_path, args, name):
    new, old = tmp_path / "new.svg", tmp_path / "old.svg"
    code, _, err = run_cli(capsys, *args, "-o", str(new))
    assert code == 0, err
    code, _, err = run_cli(capsys, *args, name, str(old))
    assert code == 0, err
    assert new.read_text() == old.read_text() and new.read_text().startswith("<svg")
    code, _, err = run_cli(capsys, *args, "--output", str(new), name, str(old))
    assert code == 2 and err.count("\n") == 1 and "not both" in err


def test_store_export_output_and_old_out(capsys, tmp_path):
    store = tmp_path / "s.sqlite"
    assert run_cli(capsys, "sweep", "nim", "heaps", "--to", "2", "--store", str(store))[0] == 0
    for option in ("--output", "-o", "--out"):
        target = tmp_path / f"export{option}.jsonl"
        code, _, err = run_cli(capsys, "store", "export", str(store), option, str(target))
        assert code == 0, err
        assert len(target.read_text().splitlines()) == 3


def test_pizza_play_writes_its_picture_with_output(capsys, tmp_path, monkeypatch):
    import io

    target = tmp_path / "game.svg"
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 5))
    code, out, err = run_cli(capsys, "pizza", "play", "3,1,4", "-o", str(target))
    assert code == 0, err
    assert target.read_text().startswith("<svg")


def test_influence_table_json_is_format_json(capsys):
    _, by_flag, _ = run_cli(capsys, "influence", "table", "--from", "3", "--to", "5", "--json")
    _, by_format, _ = run_cli(
        capsys, "influence", "table", "--from", "3", "--to", "5", "--format", "json"
    )
    assert json.loads(by_flag) == json.loads(by_format) and len(json.loads(by_flag)) == 3


def test_calc_dash_o_is_exactly_the_option_so_minus_words_stay_values(capsys):
    code, out, err = run_cli(capsys, "calc", "-over")  # minus over (loopy): an expression
    assert (code, out.strip()) == (0, "under"), err


# --- tables through a pipe -------------------------------------------------------------------

LONG_NAME = "countdown-whose-name-is-much-longer-than-any-column-a-narrow-table-would-give"
LONG_ALIAS = "another-very-long-alias-for-the-same-countdown-ruleset"
LONG_PLUGIN = textwrap.dedent(
    f'''
    from cgframework import BaseRuleset, Convention, Move, hookimpl

    class LongCountdown(BaseRuleset):
        name = "{LONG_NAME}"
        aliases = ("{LONG_ALIAS}",)
        convention = Convention.NORMAL
        impartial = True
        syntax = "a counter, e.g. 7; this description is long enough to need wrapping as well"

        def parse(self, text):
            return int(text)

        def options(self, position, player):
            return [Move(position - k, f"-{{k}}") for k in (1, 2) if position >= k]

        def examples(self):
            return ["7"]

    @hookimpl
    def register_rulesets(register):
        register(LongCountdown())
    '''
)


@pytest.fixture
def long_named_ruleset(load_tmp_plugin):
    load_tmp_plugin("tmp_long_countdown", LONG_PLUGIN)


def test_piped_rulesets_table_keeps_long_names_whole(capsys, long_named_ruleset):
    code, out, err = run_cli(capsys, "rulesets")
    assert code == 0, err
    rows = [line.split("\t") for line in out.splitlines()]
    assert rows[0] == ["ruleset", "family", "convention", "syntax", "solvers"]
    assert [LONG_NAME + f" ({LONG_ALIAS})"] == [r[0] for r in rows if LONG_NAME in r[0]]
    assert all(len(row) == 5 for row in rows)
    assert "…" not in out


def test_piped_solve_table_keeps_long_names_whole(capsys, long_named_ruleset):
    code, out, err = run_cli(capsys, "solve", LONG_ALIAS, "7")
    assert code == 0, err
    assert f"ruleset\t{LONG_NAME}" in out.splitlines()


def test_piped_census_table_is_the_json_classes_as_lines(capsys):
    args = ("guaranteed", "census", "--day", "1", "--atoms=-1,0,1")
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    header, *rows = [line.split("\t") for line in out.splitlines()]
    assert header == ["#", "canonical form", "born", "forms", "Ls", "Rs"]
    _, as_json, _ = run_cli(capsys, *args, "--json")
    assert [row[1] for row in rows] == [c["canonical"] for c in json.loads(as_json)["classes"]]


# --- did you mean ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("solve", "nmi", "3"), "cgf: error: unknown ruleset 'nmi' (did you mean 'nim'?)"),
        (("slove", "nim", "3"), "cgf: error: no such command 'slove' (did you mean 'solve'?)"),
        (("store", "infoo", "x"), "cgf: error: no such command 'infoo' (did you mean 'info'?)"),
        (("pizza", "shar", "1,2"), "cgf: error: no such command 'shar' (did you mean 'share'?)"),
        (("sweep", "kayels", "heaps"), "cgf: error: unknown ruleset 'kayels' (did you mean"),
    ],
)
def test_did_you_mean(capsys, args, message):
    code, out, err = run_cli(capsys, *args)
    assert code == 2 and out == ""
    assert err.startswith(message) and err.count("\n") == 1, err


def test_did_you_mean_a_method(capsys):
    code, _, err = run_cli(capsys, "solve", "nim", "3", "--method", "nim-summ")
    assert code == 2 and "did you mean 'nim-sum'?" in err and "choose from" in err


def test_no_close_ruleset_lists_the_installed_ones(capsys):
    code, _, err = run_cli(capsys, "solve", "qqqqqq", "3")
    assert code == 2 and "installed: " in err and "did you mean" not in err


# --- calc --check ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "code"),
    [("^ > 0", 0), ("* || 0", 0), ("{1|-1} || 1", 0), ("^ < 0", 1), ("{1|-1} <= 1", 1)],
)
def test_calc_check_exit_code_is_the_answer(capsys, expression, code):
    assert run_cli(capsys, "calc", "--check", expression) == (code, "", "")


def test_calc_check_refuses_a_value_that_is_no_comparison(capsys):
    code, out, err = run_cli(capsys, "calc", "--check", "^ + *")
    assert code == 2 and out == "" and err.count("\n") == 1 and "comparison" in err


numbers = st.fractions(min_value=-8, max_value=8, max_denominator=8).filter(
    lambda q: q.denominator & (q.denominator - 1) == 0  # dyadic: short game numbers
)


@settings(max_examples=25, deadline=None)
@given(numbers, numbers, st.sampled_from(["<=", ">=", "<", ">", "=="]))
def test_calc_check_agrees_with_arithmetic_on_numbers(a: Fraction, b: Fraction, op: str):
    expected = {"<=": a <= b, ">=": a >= b, "<": a < b, ">": a > b, "==": a == b}[op]
    try:
        main(["calc", "--check", f"{a} {op} {b}"])
        code = 0
    except SystemExit as stop:
        code = stop.code
    assert code == (0 if expected else 1)


# --- answers from the value store ------------------------------------------------------------


def test_solve_table_says_when_the_answer_came_from_the_store(capsys, tmp_path):
    store = str(tmp_path / "values.sqlite")
    code, first, err = run_cli(capsys, "solve", "kayles", "12", "--store", store)
    assert code == 0, err
    assert "from store\tno" in first.splitlines()
    code, again, err = run_cli(capsys, "solve", "kayles", "12", "--store", store)
    assert code == 0, err
    assert "from store\tyes" in again.splitlines()
    code, as_json, _ = run_cli(capsys, "solve", "kayles", "12", "--store", store, "--json")
    assert json.loads(as_json)["from_store"] is True
    _, no_store, _ = run_cli(capsys, "solve", "kayles", "12")
    assert "from store" not in no_store and "from_store" not in no_store
