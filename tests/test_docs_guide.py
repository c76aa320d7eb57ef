"""docs/writing-a-plugin.md cannot rot: its blocks headed ``# cgframework_toads/plugin.py`` are
verbatim parts of the example plugin, and it names every hook and ruleset attribute.

Its examples run in ``tests/test_docs_examples.py`` (the page's ``plugin-guide`` setup: the
example plugin loaded, every other ``python`` block loaded as a plugin module of its own, then
the ``pycon`` examples in page order).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "writing-a-plugin.md"
EXAMPLE = ROOT / "docs" / "example-plugin"
EXAMPLE_SOURCE = EXAMPLE / "cgframework_toads" / "plugin.py"
EXAMPLE_MARK = "# cgframework_toads/plugin.py\n"
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```$", re.S | re.M)


def blocks(language: str) -> list[str]:
    return [body for lang, body in BLOCK.findall(GUIDE.read_text()) if lang == language]


def test_the_guide_has_code_of_every_kind():
    python = blocks("python")
    assert sum(b.startswith(EXAMPLE_MARK) for b in python) >= 4
    assert len(python) - sum(b.startswith(EXAMPLE_MARK) for b in python) >= 3
    assert len(blocks("pycon")) >= 5


def test_example_blocks_are_the_example_plugin_verbatim():
    source = EXAMPLE_SOURCE.read_text()
    for block in blocks("python"):
        if block.startswith(EXAMPLE_MARK):
            assert block[len(EXAMPLE_MARK) :] in source, block[:200]


def test_the_guide_names_every_hook_and_every_ruleset_attribute():
    """A hook or an optional ruleset method added to the core must be documented here."""
    import inspect

    from cgframework import BaseRuleset, hookspecs

    text = GUIDE.read_text()
    functions = inspect.getmembers(hookspecs, inspect.isfunction)
    hooks = [name for name, _ in functions if name.startswith("register_")]
    assert len(hooks) >= 6
    for name in hooks:
        assert f"`{name}(" in text, name
    members = [n for n in vars(BaseRuleset) if not n.startswith("_")]
    for name in members:
        assert f"`{name}" in text, name
