"""Fuzzing the surfaces around the game text: output paths (files, folders, devices, links,
FIFOs), the global options (``--max-memory``), limits (``--timeout``, ``--max-nodes``),
``--trust``, ``calc --check``, store imports of damaged exports and their signature
options, and misspelt commands.

The contract is :func:`test_fuzz.check`'s: exit 0, 2 or 3, at most one line on stderr, no
traceback, quick. ``CGF_FUZZ=long`` runs many more examples, as for ``tests/test_fuzz.py``.
"""

from __future__ import annotations

import faulthandler
import io
import json
import os
import stat
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_fuzz import CALC, FUZZ, HANG, JUNK, SLOW, check, texts

from cgframework.testing import run_cli

NUMBERS = st.sampled_from(
    ["0", "1", "-1", "1e308", "1e400", "inf", "-inf", "nan", "1e-300", "0.5", "9" * 40, "x", ""]
)


@pytest.fixture(autouse=True)
def _no_hang():
    faulthandler.dump_traceback_later(HANG, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()


@pytest.fixture(scope="module")
def places(tmp_path_factory):
    """Output targets of every kind: absent, a file, a folder, a path through a file, a
    dangling link, a link to a file, and (as root) device nodes and a FIFO without reader."""
    root = tmp_path_factory.mktemp("outputs")
    (root / "file.svg").write_text("old")
    (root / "folder").mkdir()
    os.symlink(root / "file.svg", root / "link.svg")
    os.symlink(root / "nowhere" / "x.svg", root / "dangling.svg")
    found = {
        "absent": root / "new.svg",
        "file": root / "file.svg",
        "folder": root / "folder",
        "trailing slash": f"{root / 'new2.svg'}/",
        "through a file": root / "file.svg" / "x.svg",
        "no folder": root / "nowhere" / "x.svg",
        "link": root / "link.svg",
        "dangling link": root / "dangling.svg",
        "stdout": "-",
    }
    if os.geteuid() == 0:
        os.mknod(root / "null", 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        os.mknod(root / "full", 0o666 | stat.S_IFCHR, os.makedev(1, 7))
        os.mkfifo(root / "fifo")
        found.update(null=root / "null", full=root / "full", fifo=root / "fifo")
    return {name: str(path) for name, path in found.items()}


OUTPUT_COMMANDS = [
    ["solve", "nim", "3,4,5", "-o"],
    ["solve", "domineering", "..|..", "--picture"],
    ["tree", "nim", "2,1", "-o"],
    ["calc", "{3|1} + {4|{2|-2}}", "-o"],
    ["solve", "clobber", "xoxo", "--certificate"],
    ["sequence", "kayles", "--to", "30", "-o"],
    ["sequence", "grundys-game", "--to", "30", "--plot"],
    ["quotient", "kayles", "--max-heap", "5", "-o"],
]


@pytest.mark.parametrize("words", OUTPUT_COMMANDS, ids=[" ".join(w[:2]) for w in OUTPUT_COMMANDS])
@FUZZ
@given(data=st.data())
def test_fuzz_output_paths(capsys, places, words, data):
    """Any target: written, or refused in one line; a device or FIFO stays what it was."""
    name = data.draw(st.sampled_from(sorted(places)))
    check(capsys, *words, places[name])
    for special in ("null", "full", "fifo"):
        if special in places:
            mode = os.lstat(places[special]).st_mode
            assert stat.S_ISCHR(mode) or stat.S_ISFIFO(mode), (special, name)


@FUZZ
@given(
    timeout=NUMBERS,
    nodes=NUMBERS,
    trust=st.one_of(st.sampled_from(["verified", "local", "imported", "any", "LOCAL", ""]), JUNK),
)
def test_fuzz_limits_and_trust(capsys, tmp_path_factory, timeout, nodes, trust):
    store = str(tmp_path_factory.mktemp("store") / "values.sqlite")
    check(capsys, "solve", "kayles", "9", "--timeout", timeout, "--max-nodes", nodes)
    check(capsys, "solve", "kayles", "9", "--store", store, "--trust", trust)


@FUZZ
@given(data=st.data())
def test_fuzz_calc_check(capsys, data):
    """``calc --check``: 0 or 1 for a comparison, 2 for anything else, never more."""
    text = data.draw(texts([*CALC, "^ > 0", "* || 0", "{1|-1} <= 1", "1/2 == 1/2"]))
    stdin, sys.stdin = sys.stdin, io.StringIO("^ > 0")  # for "-" (read standard input)
    try:
        code, out, err = run_cli(capsys, "calc", "--check", text)
    finally:
        sys.stdin = stdin
    assert code in (0, 1, 2, 3) and not out, (text, code, out)
    assert len(err.strip().splitlines()) <= 1 and "Traceback" not in err, (text, err)
    assert "internal error" not in err and (code != 1 or not err), (text, err)


@FUZZ
@given(word=st.one_of(st.sampled_from(["slove", "sweeep", "stor", "rulset", "-x", "--"]), JUNK))
def test_fuzz_misspelt_commands(capsys, word):
    check(capsys, word, "nim", "3")


def _cgf(*args: str) -> None:
    """Run ``cgf ARGS`` in-process for a fixture (its output is pytest's to capture)."""
    from cgframework.cli.commands import main

    try:
        main(list(args))
    except SystemExit as stop:
        assert not stop.code, args


@pytest.fixture(scope="module")
def export_lines(tmp_path_factory):
    """The lines of an export of a small store (Kayles heaps 1-5)."""
    folder = tmp_path_factory.mktemp("export")
    store, export = folder / "s.sqlite", folder / "e.jsonl"
    for n in range(1, 6):
        _cgf("solve", "kayles", str(n), "--store", str(store))
    _cgf("store", "export", str(store), "-o", str(export))
    return export.read_text().splitlines()


@FUZZ
@given(data=st.data())
def test_fuzz_store_import(capsys, tmp_path_factory, export_lines, data):
    """A damaged export (a line cut, duplicated, a field changed) and junk signature options:
    imported whole or refused whole, in one line."""
    lines = list(export_lines)
    for _ in range(data.draw(st.integers(0, 3))):
        i = data.draw(st.integers(0, len(lines) - 1))
        kind = data.draw(st.sampled_from(["cut", "duplicate", "field", "junk"]))
        if kind == "cut":
            lines[i] = lines[i][: data.draw(st.integers(0, len(lines[i])))]
        elif kind == "duplicate":
            lines.insert(i, lines[i])
        elif kind == "field":
            try:
                record = json.loads(lines[i])
            except ValueError:  # a line cut before
                continue
            if not isinstance(record, dict) or not record:
                continue
            field = data.draw(st.sampled_from(sorted(record)))
            record[field] = data.draw(st.one_of(JUNK, st.integers(), st.none()))
            lines[i] = json.dumps(record)
        else:
            lines[i] = data.draw(JUNK)
    folder = tmp_path_factory.mktemp("import")
    source = folder / "e.jsonl"
    source.write_text("\n".join(lines) + "\n")
    extra = data.draw(
        st.sampled_from(
            [
                [],
                ["--verify", "all"],
                ["--verify", "0"],
                ["--cpu-seconds", "0"],
                ["--trusted-key", str(source)],
                ["--signature", str(source)],
            ]
        )
    )
    check(capsys, "store", "import", str(folder / "s.sqlite"), str(source), *extra)


@pytest.mark.parametrize("size", ["2G", "64M", "1", "0", "-5G", "none", "12Q", "1e9", "", "x"])
def test_fuzz_max_memory(size):
    """``--max-memory`` takes a size or ``none``; anything else is exit 2 in one line. (A
    separate process: the ceiling is the process's own.)"""
    done = subprocess.run(
        [sys.executable, "-m", "cgframework", "--max-memory", size, "calc", "{1|-1} + *"],
        capture_output=True,
        text=True,
        timeout=SLOW * 3,
    )
    assert done.returncode in (0, 2, 3), (size, done.stderr)
    assert len(done.stderr.strip().splitlines()) <= 1 and "Traceback" not in done.stderr
