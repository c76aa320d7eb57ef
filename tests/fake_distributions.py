"""Distributions installed by hand into a temporary folder, as pip would (a ``*.dist-info``
with an ``entry_points.txt``), for tests of third-party plugins: importlib.metadata finds them
once the folder is on ``sys.path`` or on a subprocess's ``PYTHONPATH``."""

from __future__ import annotations

import os
from pathlib import Path

BUNDLED_ONLY_ENV = "CGFRAMEWORK_BUNDLED_ONLY"  # cgframework.plugins.BUNDLED_ONLY_ENV


def install_fake_distribution(
    site: Path, name: str, entry_points: str, modules: dict[str, str]
) -> Path:
    """Install a distribution by hand into the folder ``site``: ``NAME-1.0.dist-info`` with
    its ``entry_points.txt`` (ini text), and the module files ``modules`` (path -> source).
    importlib.metadata finds it once ``site`` is on ``sys.path`` (or ``PYTHONPATH``)."""
    site.mkdir(parents=True, exist_ok=True)
    dist = site / f"{name.replace('-', '_')}-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(entry_points)
    for path, source in modules.items():
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_text(source)
    return site


def third_party_env(site: Path, cache: Path, bundled_only: bool = False) -> dict[str, str]:
    """The environment of a ``cgf`` subprocess that sees the distributions in ``site``: on
    ``PYTHONPATH``, with its own entry-point cache, the pin dropped unless ``bundled_only``."""
    env = {**os.environ, "PYTHONPATH": str(site), "XDG_CACHE_HOME": str(cache)}
    env.pop("CGFRAMEWORK_PLUGINS", None)
    env.pop("CGFRAMEWORK_NO_CACHE", None)
    if not bundled_only:
        env.pop(BUNDLED_ONLY_ENV, None)
    return env
