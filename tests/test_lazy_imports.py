"""Lazy core imports (issue 20, goal 1): ``import cgframework`` and ``cgf solve`` without
``--store`` import neither cattrs nor sqlite3 nor the picture code; the public names that
need them (``cgframework.converter``, ``to_json``, the notebook reprs) still work."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ["cattrs", "sqlite3", "cgframework.store", "cgframework.pictures"]


def _run(code: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.splitlines()


def test_import_cgframework_imports_no_cattrs_sqlite_or_pictures():
    code = f"import sys, cgframework; print([m for m in {HEAVY!r} if m in sys.modules])"
    assert _run(code) == ["[]"]


def test_cli_solve_json_imports_no_cattrs_or_store():
    code = (
        "import sys; from cgframework.cli import main\n"
        "try:\n    main(['solve', 'nim', '1+2', '--json'])\n"
        "except SystemExit:\n    pass\n"
        f"print([m for m in {HEAVY!r} if m in sys.modules])"
    )
    *out, loaded = _run(code)
    assert json.loads(out[-1])["value"] == "*3"
    assert loaded == "[]"


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
