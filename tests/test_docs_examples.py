"""Every example of README.md and the docs pages runs and prints what the page shows.

The examples are found, run and compared by ``docs/doc_examples.py`` (its docstring says what
an example is, its markers and the few normalisations); the mkdocs hook in the same module runs
them again when the site is built and shows their real output. Here each page is one test:
its examples run in order in a temporary folder, and any output that no longer matches fails
it, naming the block, what the page shows and what the command printed.
"""

from __future__ import annotations

import importlib.util
import logging
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
TASKS = DOCS / "tasks"
README_LINES = 150
RESULTS_LINES = 400
OPENING_LINES = 15
NOT_RUN_AT_MOST = 12


def _load_examples():
    name = "doc_examples"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, DOCS / "doc_examples.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # (before it runs: its dataclasses look themselves up)
        spec.loader.exec_module(module)
    return sys.modules[name]


examples = _load_examples()
PAGES = examples.pages(ROOT)
TASK_PAGES = [
    *sorted(p for p in TASKS.glob("*.md") if p.name != "index.md"),
    DOCS / "writing-a-plugin.md",
]


def _name(page: Path) -> str:
    return str(page.relative_to(ROOT))


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_every_example_prints_what_the_page_shows(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    report = examples.run_page(page.read_text(), _name(page), tmp_path)
    if report.failures:
        pytest.fail("\n\n".join(report.failures), pytrace=False)


def test_the_pages_have_examples_of_every_kind():
    kinds = {b.kind for page in PAGES for b in examples.blocks(page.read_text()) if b.runnable}
    assert set(examples.KINDS) <= kinds
    assert ROOT / "README.md" in PAGES and DOCS / "results.md" in PAGES


CHANGED = """Before.

```console
$ cgf calc "{1|0} + *"
{1*|*}
$ cgf solve nim 3,4,5 --json
{"ruleset": "nim", ..."value": "*3", ...}
$ cgf classic sequence kayles --to 30
...
```

```pycon
>>> from cgframework.values import parse_value
>>> parse_value("^ + ^")
CanonicalGame('^^')
>>> print(parse_value("{3|1}").mean())
3
```
"""


def test_a_changed_output_fails_and_the_page_shows_what_runs(tmp_path):
    """The demonstration: the page above records two wrong outputs (nim 3,4,5 is *2, the mean
    of {3|1} is 2): the run names both, and the page keeps only the right ones' real text."""
    report = examples.run_page(CHANGED, "changed.md", tmp_path)
    assert len(report.failures) == 2, report.failures
    nim, mean = report.failures
    assert "$ cgf solve nim 3,4,5 --json" in nim and '"value": "*2"' in nim
    assert '>>> print(parse_value("{3|1}").mean())' in mean and "--- it prints:\n2\n" in mean
    shown = report.rendered
    assert '$ cgf calc "{1|0} + *"\n{1*|*}\n' in shown
    assert "$ cgf classic sequence kayles --to 30\n...\n" in shown  # an elided output stays so
    assert ">>> parse_value(\"^ + ^\")\nCanonicalGame('^^')\n" in shown
    right = CHANGED.replace('"*3"', '"*2"').replace("\n3\n```", "\n2\n```")
    fixed = examples.run_page(right, "fixed.md", tmp_path)
    assert not fixed.failures, fixed.failures
    assert '"seconds": ' in fixed.rendered and '..."value"' not in fixed.rendered  # real text


@pytest.mark.parametrize(
    ("recorded", "printed", "shown"),
    [
        ("a\n...\nz", "a\nb\nc\nz", "a\n...\nz"),
        ("a\n...\nz", "a\nz", "a\nz"),
        ("stats 4 nodes, 6.2 ms", "stats\t4 nodes, 12 ms", "stats\t4 nodes, 12 ms"),
        ("took 0.61 s, 38 MB", "took 12.5 s, 1.5 GiB", "took 12.5 s, 1.5 GiB"),
        ('{"seconds": 0.1, "k": ...}', '{"seconds": 1e-05, "k": 3}', '{"seconds": 1e-05, "k": 3}'),
        ("value *2  \n\n", "\nvalue *2", "value *2"),
        ("value *2", "value *3", None),
        ("4 nodes", "5 nodes", None),
        ("a\nb", "a\nb\nc", None),
        ("fingerprint ...", "fingerprint ed25519:8735\nmore", None),
    ],
)
def test_the_normalisations_are_these_and_no_more(recorded, printed, shown):
    assert examples.match(recorded, printed) == shown


def test_a_not_run_example_says_why_and_they_are_few():
    not_run, reasonless = [], []
    for page in PAGES:
        for block in examples.blocks(page.read_text()):
            if block.not_run is not None:
                not_run.append(f"{_name(page)}:{block.line}")
                if len(block.not_run.split()) < 2:
                    reasonless.append(f"{_name(page)}:{block.line}")
    assert not reasonless, reasonless
    assert len(not_run) <= NOT_RUN_AT_MOST, not_run


@pytest.mark.parametrize("page", TASK_PAGES, ids=_name)
def test_every_task_page_opens_with_a_runnable_example_and_its_output(page):
    """Within the first lines: the question (the title), then an example that runs and shows
    its real output (a console or pycon block)."""
    text = page.read_text()
    assert text.startswith("# "), "a task page opens with its title"
    opening = [
        b
        for b in examples.blocks(text)
        if b.line <= OPENING_LINES and b.runnable and b.kind in ("console", "pycon")
    ]
    assert any(b.shows_output for b in opening), f"no runnable example in {OPENING_LINES} lines"


def test_the_readme_is_short_and_starts_with_the_two_commands():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= README_LINES
    first = examples.blocks(readme)[0]
    assert first.line <= 5 and first.not_run, "the README opens with the two commands"
    assert first.body.splitlines() == [
        "pip install -e . && cgf demo",
        'pip install -e ".[test]" && pytest',
    ]
    shown = [b for b in examples.blocks(readme) if b.runnable and b.shows_output]
    assert shown and sum(len(b.body.splitlines()) for b in shown) >= 10  # what using it looks like
    for link in ("docs/results.md", "benchmarks/RESULTS.md", "docs/tasks/index.md"):
        assert f"({link})" in readme, link


def test_the_benchmark_results_are_current_tables():
    results = (ROOT / "benchmarks" / "RESULTS.md").read_text()
    assert len(results.splitlines()) <= RESULTS_LINES
    sections = re.split(r"^## ", results, flags=re.M)[1:]
    assert len(sections) >= 10
    for section in sections:
        title = section.splitlines()[0]
        assert "Command" in section or "python benchmarks/" in section, title
        assert re.search(r"^\|.*\|$", section, re.M), f"{title}: no table"


def test_the_results_page_gives_each_result_its_check_and_command():
    page = (DOCS / "results.md").read_text()
    header = re.search(r"^\| question \| answer \|.*$", page, re.M)
    assert header, "a table: question, answer, command, CPU time, checked by, reproduce"
    for column in ("command", "CPU", "checked", "reproduce"):
        assert column in header[0], column
    for claim in ("3x11", "2x18", "ledger", "certificate"):
        assert claim in page, claim
    assert "results.md" in (ROOT / "mkdocs.yml").read_text()


def test_the_site_build_shows_real_outputs_and_warns_on_a_stale_one(tmp_path, caplog):
    """The mkdocs hook: a stale output is a warning (which fails the strict build); a right
    page is handed on with what the commands printed (a timing the source masks) and without
    its marker comments."""
    source = tmp_path / "page.md"
    page = SimpleNamespace(file=SimpleNamespace(abs_src_path=str(source), src_uri="page.md"))
    right = CHANGED.replace('"*3"', '"*2"').replace("\n3\n```", "\n2\n```")
    right = right.replace("Before.", "<!-- example: exit=0 -->")
    for text, stale_count in ((CHANGED, 2), (right, 0)):
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="mkdocs"):
            shown = examples.on_page_markdown(text, page, None, None)
        stale = [r for r in caplog.records if "stale example" in r.getMessage()]
        assert len(stale) == stale_count
    assert "<!--" not in shown and re.search(r'"seconds": [0-9.e-]+', shown)


def test_the_site_build_runs_the_examples():
    config = (ROOT / "mkdocs.yml").read_text()
    hooks = re.search(r"^hooks:\n((?:\s+- .*\n)+)", config, re.M)
    assert hooks and "docs/doc_examples.py" in hooks[1]
