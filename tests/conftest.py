"""Fixtures of the core's tests (the plugin set is pinned by the project's root conftest.py)."""

from __future__ import annotations

import pytest


@pytest.fixture
def fresh_plugin_manager():
    """The plugin manager forgotten before and after the test."""
    from cgframework import plugins

    plugins.reset()
    yield plugins
    plugins.reset()


@pytest.fixture
def load_tmp_plugin(tmp_path, monkeypatch):
    """``load(module, source)``: a plugin module's source written into ``tmp_path`` and loaded
    here by name, as ``cgf --plugin`` would (spawned workers find it on ``sys.path`` too); the
    plugins forgotten after the test."""
    from cgframework import plugins

    monkeypatch.syspath_prepend(str(tmp_path))

    def load(module: str, source: str) -> None:
        (tmp_path / f"{module}.py").write_text(source)
        plugins.reset()
        plugins.load_plugin(module)

    yield load
    plugins.reset()
