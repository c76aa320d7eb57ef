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
