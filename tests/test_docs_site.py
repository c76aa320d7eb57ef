"""The docs site cannot rot: every Python example of the task pages runs, every ``cgf`` line of
their command blocks exits 0, the CLI reference covers every registered command, and the API
reference names only modules that import. None of this needs mkdocs (``.ci/docs`` builds the
site itself, strictly)."""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from cgframework.testing import run_cli

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
TASKS = DOCS / "tasks"
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```$", re.S | re.M)
TASK_PAGES = sorted(p for p in TASKS.glob("*.md") if p.name != "index.md")
NAMED_TASKS = [
    "canonical-form",
    "sums",
    "comparison",
    "thermograph",
    "who-wins",
    "misere",
    "certificates",
    "impartial",
    "sequences",
    "loopy",
    "scoring",
    "variants",
    "sweeps",
    "cluster",
    "explore",
    "play",
    "batch",
]


def blocks(page: Path, language: str) -> list[str]:
    return [body for lang, body in BLOCK.findall(page.read_text()) if lang == language]


def command_lines(page: Path) -> list[list[str]]:
    """The ``cgf`` command lines of a page's ``bash`` blocks, as argument lists (no ``cgf``)."""
    lines = [line for block in blocks(page, "bash") for line in block.splitlines()]
    return [shlex.split(line, comments=True)[1:] for line in lines if line.startswith("cgf ")]


def gen_cli():
    spec = importlib.util.spec_from_file_location("gen_cli", DOCS / "gen_cli.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_task_has_a_page_with_a_command_and_a_python_example():
    assert [p.stem for p in TASK_PAGES] == sorted(NAMED_TASKS)
    index = (TASKS / "index.md").read_text()
    for page in TASK_PAGES:
        assert f"({page.name})" in index, page.name
        assert blocks(page, "python"), page.name
        assert blocks(page, "bash") or page.stem == "cluster", page.name  # needs a cluster
    assert "(../writing-a-plugin.md)" in index


@pytest.mark.parametrize("page", TASK_PAGES, ids=lambda p: p.stem)
def test_the_python_examples_run(page, tmp_path, monkeypatch):
    """The page's ``python`` blocks, in order, in one namespace (as a reader would type them)."""
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": f"docs_{page.stem.replace('-', '_')}"}
    for i, block in enumerate(blocks(page, "python")):
        exec(compile(block, f"{page.name} python block {i + 1}", "exec"), namespace)


@pytest.mark.parametrize("page", TASK_PAGES, ids=lambda p: p.stem)
def test_the_command_lines_run(page, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for args in command_lines(page):
        code, _, err = run_cli(capsys, *args)
        assert code == 0, (args, err)


PIPED = re.compile(
    r"^```bash\n(printf [^\n]*\| cgf [^\n]*)\n```\n\n```text\n(.*?)^```$", re.S | re.M
)
"""A one-line ``printf ... | cgf ...`` example (a command reading its input) and, right after
it, the ``text`` block of what it prints."""


def piped_examples() -> list[Any]:
    return [
        pytest.param(p.stem, *found, id=f"{p.stem}-{i + 1}")
        for p in TASK_PAGES
        for i, found in enumerate(PIPED.findall(p.read_text()))
    ]


def as_shown(text: str) -> list[str]:
    """Output lines as a page shows them: no trailing spaces, times taken masked."""
    text = re.sub(r'"seconds": [0-9.e-]+', '"seconds": S', text)
    return [line.rstrip() for line in text.strip().splitlines()]


@pytest.mark.parametrize(("page", "command", "output"), piped_examples())
def test_the_piped_examples_print_what_the_page_shows(page, command, output, tmp_path):
    bin_dir = os.path.dirname(sys.executable)  # (the cgf of this environment)
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    done = subprocess.run(
        ["sh", "-c", command], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120
    )
    assert as_shown(done.stdout) == as_shown(output), (page, command, done.stderr)


def test_the_home_page_runs(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    page = DOCS / "index.md"
    for block in blocks(page, "python"):
        exec(compile(block, "index.md", "exec"), {"__name__": "docs_index"})
    for args in command_lines(page):
        assert run_cli(capsys, *args)[0] == 0, args


def test_the_cli_reference_covers_every_registered_command():
    generator = gen_cli()
    names = generator.command_names()
    expected = {"cgf", "cgf solve", "cgf calc", "cgf store info", "cgf sweep", "cgf pizza share"}
    assert expected <= set(names)
    page = generator.cli_reference()
    headings = re.findall(r"^#+ `(cgf[^`]*)` \{ #([\w-]+) \}$", page, re.M)
    assert [name for name, _ in headings] == names
    assert len({anchor for _, anchor in headings}) == len(names)
    for link in re.findall(r"\]\(#([\w-]+)\)", page):
        assert link in {anchor for _, anchor in headings}, link


def test_the_cli_reference_shows_help_and_options_as_typed():
    page = gen_cli().cli_reference()
    solve = page.split("`cgf solve` {", 1)[1].split("\n#", 1)[0]
    assert "Solve a position: value, outcome, optimal moves" in solve
    for option in ("--method", "--first", "--json", "--store", "--misere", "--max-nodes"):
        assert f"`{option}" in solve, option
    assert "\\[default: auto\\]" in solve
    calc = page.split("`cgf calc` {", 1)[1].split("\n#", 1)[0]
    assert "{1\\|0} + \\*" in calc  # escaped: shows as typed, not as a table cell or emphasis


def test_help_text_markup_is_escaped_and_verbatim_paragraphs_kept():
    generator = gen_cli()
    lines = generator._help_markdown("Sum *2 and <5,2,0>.\n\n\b\n  cgf calc '*'\n  cgf x")
    assert lines[0] == "Sum \\*2 and &lt;5,2,0&gt;."
    assert lines[2:6] == ["```text", "cgf calc '*'", "cgf x", "```"]


def test_the_api_reference_names_modules_that_import():
    modules = gen_cli().api_modules()
    assert modules[:3] == ["cgframework", "cgframework.api", "cgframework.values"]
    for name in ("cgframework.cli", "cgframework.hookspecs", "cgframework.testing"):
        assert name in modules
    assert "cgframework.runtime.compiled" in modules
    for name in modules:
        importlib.import_module(name)
    index = gen_cli().api_index(modules)
    for name in modules:
        assert f"[`{name}`]({name}.md): " in index, name


def test_the_user_api_page_lists_the_users_names_and_authoring_the_authors():
    """``cgframework``'s page documents its ``__all__`` (the user's API), not the plugin
    author's names it also lets one import; those are ``cgframework.authoring``'s page's."""
    import cgframework.authoring

    user = gen_cli().api_page("cgframework")
    assert "        - Game\n" in user and "        - solve\n" in user
    assert "BaseRuleset" not in user and "hookimpl" not in user
    assert "cgframework.authoring" in gen_cli().api_modules()
    author = gen_cli().api_page("cgframework.authoring")
    assert all(f"        - {name}\n" in author for name in cgframework.authoring.__all__)


def test_every_page_in_the_navigation_exists():
    config = (ROOT / "mkdocs.yml").read_text()
    listed = re.findall(r"^\s+- (?:[^:\n]+: )?([\w./-]+\.(?:md|ipynb))$", config, re.M)
    generated = {"reference/cli.md", "reference/api/index.md"}
    assert len(listed) >= 15
    for path in listed:
        assert path in generated or (DOCS / path).is_file(), path
    for page in [*TASK_PAGES, DOCS / "changelog.md", DOCS / "tour.ipynb"]:
        assert str(page.relative_to(DOCS)) in listed, page


def test_the_changelog_page_includes_the_changelog():
    assert '--8<-- "CHANGELOG.md"' in (DOCS / "changelog.md").read_text()
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert "## [Unreleased]" in changelog and "## [0.1.0]" in changelog


def test_the_browser_pages_links_open_positions_with_the_values_it_gives(capsys):
    """``docs/browser.md``'s links to the browser version (``try/#ruleset=R&position=P``) name
    positions ``cgf`` reads, with the values ``cgf solve`` prints."""
    import json
    from urllib.parse import parse_qs

    links = re.findall(
        r"\]\(\.\./try/#([^)]*)\)(?:: `([^`]+)`)?", (DOCS / "browser.md").read_text()
    )
    assert len(links) >= 4
    for fragment, value in links:
        query = parse_qs(fragment, strict_parsing=True)
        code, out, err = run_cli(
            capsys, "solve", query["ruleset"][0], query["position"][0], "--json"
        )
        assert code == 0, err
        assert json.loads(out)["value"] == (value or json.loads(out)["value"]), fragment


README_NAME = re.compile(r"`([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)`")
PACKAGES = [
    "cgframework",
    *sorted(p.name for p in (ROOT / "plugins").glob("*/cgframework_*") if p.is_dir()),
]


def _module_names() -> set[str]:
    """The last part of every module of the core and the bundled plugins."""
    import pkgutil

    names = set()
    for package in PACKAGES:
        module = importlib.import_module(package)
        for info in pkgutil.walk_packages(module.__path__, package + "."):
            names.add(info.name.rsplit(".", 1)[-1])
    return names


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            target = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for attribute in parts[cut:]:
                target = getattr(target, attribute)
        except AttributeError:
            return False
        return True
    return False


def test_the_readmes_python_names_are_written_in_full_and_resolve():
    """A name in the README (`cgframework_classic.pictures.sequence_svg`) is found where it
    says: a package's module is never named by its last part alone (`pictures.x` lives in
    the classic plugin and in the core both)."""
    modules = _module_names()
    for name in README_NAME.findall((ROOT / "README.md").read_text()):
        first = name.split(".")[0]
        if name.endswith((".py", ".sig")):
            continue  # a file's name
        if importlib.util.find_spec(first) is None:
            assert first not in modules, f"write {name!r} with its package"
        elif first.startswith("cgframework"):
            assert _resolves(name), name
