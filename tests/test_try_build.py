"""``python try/build.py DIR`` refuses, in one line and exit 2, a DIR it would clobber: a file,
or a folder that holds something else than an earlier build (the build replaces DIR whole).
The build itself (npm, PyPI) is run by ``tests/test_try_page.py``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BUILD = Path(__file__).resolve().parent.parent / "try" / "build.py"


def _build(folder: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(BUILD), str(folder)], capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize("kind", ["file", "folder", "symlink"])
def test_a_dir_that_is_not_an_earlier_build_is_left_alone(tmp_path, kind):
    target = tmp_path / "site"
    if kind == "file":
        target.write_text("mine")
    elif kind == "folder":
        target.mkdir()
        (target / "notes.txt").write_text("mine")
    else:
        (tmp_path / "elsewhere").mkdir()
        target.symlink_to(tmp_path / "elsewhere")
    done = _build(target)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("try/build.py: error: ") and done.stderr.count("\n") == 1
    if kind == "folder":
        assert [p.name for p in target.iterdir()] == ["notes.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["site"] + (["elsewhere"] if kind == "symlink" else [])
    )
