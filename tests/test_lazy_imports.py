"""Lazy core imports: ``import cgframework`` and ``cgf solve`` without
``--store`` import neither cattrs nor sqlite3 nor the picture code; the public names that
need them (``cgframework.converter``, ``to_json``, the notebook reprs) still work."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys

HEAVY = ["cattrs", "sqlite3", "cgframework.store.database", "cgframework.display.pictures"]


def _run(code: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


def test_import_cgframework_imports_no_cattrs_sqlite_or_pictures():
    code = f"import sys, cgframework; print([m for m in {HEAVY!r} if m in sys.modules])"
    assert _run(code) == ["[]"]


def test_cli_solve_json_imports_no_cattrs_or_store():
    code = (
        "import sys; from cgframework.cli.commands import main\n"
        "try:\n    main(['solve', 'nim', '1+2', '--json'])\n"
        "except SystemExit:\n    pass\n"
        f"print([m for m in {HEAVY!r} if m in sys.modules])"
    )
    *out, loaded = _run(code)
    assert json.loads(out[-1])["value"] == "*3"
    assert loaded == "[]"


def test_loading_every_plugin_imports_no_numpy():
    """numpy (through igraph, the WAK plugin's optional BLISS) starts a BLAS thread pool that
    spun on the second core during every later search of the process: a Konane solve used
    1.4x its wall time in CPU. Registering and solving must not import it."""
    code = (
        "import sys; from cgframework import get_registry, solve\n"
        "registry = get_registry()\n"
        "for name in ('konane', 'wak', 'nim'): registry.ruleset(name)\n"
        "print(solve('konane', 'xo.|.ox').value, 'numpy' in sys.modules)"
    )
    assert _run(code) == ["2 False"]


def test_lazy_names_still_work():
    code = (
        "import sys, cgframework\n"
        "from cgframework import converter, to_json\n"
        "from cgframework.values import parse_value\n"
        "import cgframework.io as io\n"
        "print(converter is cgframework.converter is io.converter, 'cattrs' in sys.modules)\n"
        "print('converter' in dir(cgframework), all(hasattr(cgframework, n) for n in"
        " cgframework.__all__))\n"
        "print(to_json(parse_value('{1|0}')), parse_value('^')._repr_latex_())\n"
        "print(cgframework.solve('nim', '2')._repr_html_().startswith('<table'))\n"
    )
    assert _run(code) == ["True True", "True True", '"{1|0}" $\\uparrow$', "True"]


def test_entry_points_cached_while_sys_path_unchanged(tmp_path):
    """Cache hit: no importlib.metadata; a new distribution on sys.path: scanned again, seen;
    a damaged cache file: scanned again. Always the same entry points as importlib.metadata."""
    site = tmp_path / "site"
    site.mkdir()
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "PYTHONPATH": str(site)}
    env.pop("CGFRAMEWORK_NO_CACHE", None)
    code = (
        "import sys; from cgframework import plugins\n"
        "found = plugins.installed_entry_points()\n"
        "print('importlib.metadata' in sys.modules)\n"
        "from importlib.metadata import entry_points\n"
        "print(all(sorted((e.name, e.value) for e in found[g]) =="
        " sorted((e.name, e.value) for e in entry_points(group=g)) for g in plugins.GROUPS))\n"
        "print(sorted(e.name for e in found[plugins.ENTRY_POINT_GROUP]))\n"
    )

    def run() -> tuple[str, str, list[str]]:
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
        )
        scanned, same, names = done.stdout.splitlines()
        return scanned, same, ast.literal_eval(names)

    scanned, same, names = run()
    assert (scanned, same) == ("True", "True") and "classic" in names
    assert run() == ("False", "True", names)  # from the cache file
    dist = site / "fake_plugin-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-plugin\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[cgframework]\nfake = fake_module\n")
    assert run() == ("True", "True", sorted([*names, "fake"]))
    (cache,) = (tmp_path / "cache" / "cgframework").iterdir()
    cache.write_text("{not json")
    assert run()[:2] == ("True", "True")
    assert run()[:2] == ("False", "True")


def test_a_stale_cached_plugin_is_one_line_and_the_cache_is_dropped(tmp_path):
    """hqa QA: a cache file naming a plugin module that is gone (or holding non-strings) made
    every ``cgf`` run an internal error (exit 1) until the file was deleted by hand."""
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop("CGFRAMEWORK_NO_CACHE", None)
    cgf = [sys.executable, "-c", "from cgframework.cli.commands import main; main()"]

    def solve() -> subprocess.CompletedProcess:
        return subprocess.run([*cgf, "solve", "nim", "3"], capture_output=True, text=True, env=env)

    assert solve().returncode == 0
    (cache,) = (tmp_path / "cache" / "cgframework").iterdir()
    good = json.loads(cache.read_text())
    for bad in (["gone", "cgframework_gone_plugin"], [1, 2]):
        damaged = json.loads(json.dumps(good))
        damaged["groups"]["cgframework"].append(bad)
        cache.write_text(json.dumps(damaged))
        done = solve()
        assert done.returncode in (0, 2) and "internal error" not in done.stderr
        assert done.stderr.count("\n") <= 1
        assert solve().returncode == 0  # the stale file dropped (or not trusted): scanned again
