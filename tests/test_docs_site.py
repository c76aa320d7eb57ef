"""The docs site cannot rot: every task has its page, the CLI reference covers every registered
command, and the API reference names only modules that import. None of this needs mkdocs
(``.ci/docs`` builds the site itself, strictly); the pages' examples are run and checked by
``tests/test_docs_examples.py``."""

from __future__ import annotations

import importlib
import importlib.util
import re
from pathlib import Path

import pytest

from cgframework.testing import run_cli

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
TASKS = DOCS / "tasks"
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
    "store",
    "cluster",
    "explore",
    "play",
    "batch",
]


def gen_cli():
    spec = importlib.util.spec_from_file_location("gen_cli", DOCS / "gen_cli.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_task_has_a_page_listed_in_the_index():
    assert [p.stem for p in TASK_PAGES] == sorted(NAMED_TASKS)
    index = (TASKS / "index.md").read_text()
    for page in TASK_PAGES:
        assert f"({page.name})" in index, page.name
    assert "(../writing-a-plugin.md)" in index


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
    pages = [DOCS / n for n in ("changelog.md", "tour.ipynb", "results.md", "conventions.md")]
    for page in [*TASK_PAGES, *pages]:
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


FILE_SUFFIXES = tuple(
    "." + e for e in "py c sig gz sqlite jsonl json svg bin md txt png pub key whl".split()
)


@pytest.mark.parametrize(
    "page", [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))], ids=lambda p: p.name
)
def test_the_pages_python_names_are_written_in_full_and_resolve(page):
    """A name in the README or a docs page (`cgframework_classic.pictures.sequence_svg`) is
    found where it says: a package's module is never named by its last part alone (`pictures.x`
    lives in the classic plugin and in the core both)."""
    modules = _module_names()
    for name in README_NAME.findall(page.read_text()):
        first = name.split(".")[0]
        if name.endswith(FILE_SUFFIXES):
            continue  # a file's name
        if importlib.util.find_spec(first) is None:
            assert first not in modules, f"write {name!r} with its package"
        elif first.startswith("cgframework"):
            assert _resolves(name), name
