"""Shared by every test of the project (``tests/`` and each plugin's ``tests/``): the plugin set
is pinned to the bundled plugins.

A plugin installed next to cgframework (pip install some-cgt-plugin) adds rulesets, solvers and
commands that tests enumerating them (``tests/test_fuzz.py``'s RULESETS, ``cgf rulesets``)
would meet; ``CGFRAMEWORK_BUNDLED_ONLY`` makes the plugin manager, in this process and in every
``cgf`` it starts, load only the bundled ones. Modules a test names itself (``load_plugin``,
``CGFRAMEWORK_PLUGINS``) still load. A test of third-party discovery drops the variable from
its subprocess's environment (``fake_distributions.third_party_env``).
"""

import os

BUNDLED_ONLY_ENV = "CGFRAMEWORK_BUNDLED_ONLY"  # cgframework.plugins.BUNDLED_ONLY_ENV
os.environ[BUNDLED_ONLY_ENV] = "1"  # at import: before test modules enumerate the registry
