"""Output paths (``-o``, ``--picture``, ``store export -o``) and standard output: a device or
FIFO is written in place and stays what it was, a symbolic link stays a link, a regular file
is whole or untouched, and a write that fails (a full disk) ends the command with exit 2 and
one line, never a success message. Also ``--timeout`` values too large for a thread's wait."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from cgframework.runtime.outputs import OutputError, open_output, write_output
from cgframework.testing import run_cli

root_only = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0, reason="device nodes need root (mknod)"
)


@pytest.fixture
def devices(tmp_path: Path) -> dict[str, Path]:
    """Character-device copies of /dev/null (1, 3) and /dev/full (1, 7) in a temporary
    folder: what a writer does to them cannot harm the machine's own."""
    made = {"null": tmp_path / "null", "full": tmp_path / "full"}
    os.mknod(made["null"], 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    os.mknod(made["full"], 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    return made


def is_char_device(path: Path) -> bool:
    return stat.S_ISCHR(os.lstat(path).st_mode)


@pytest.fixture
def store_with_entries(tmp_path: Path, capsys) -> Path:
    store = tmp_path / "values.db"
    code, _, _ = run_cli(capsys, "sweep", "nim", "heaps", "--to", "3", "--store", str(store))
    assert code == 0
    return store


@root_only
def test_a_picture_written_to_a_device_leaves_the_device(capsys, devices):
    code, out, err = run_cli(capsys, "solve", "nim", "3,4,5", "--picture", str(devices["null"]))
    assert code == 0 and err == "" and "nim-sum" in out
    assert is_char_device(devices["null"])  # was replaced by a regular file


@root_only
def test_a_full_device_is_an_error_not_a_success(capsys, devices):
    full = str(devices["full"])
    code, out, err = run_cli(capsys, "tree", "nim", "3", "--depth", "1", "-o", full)
    assert code == 2 and out == ""
    assert err == f"cgf: error: cannot write {full!r}: No space left on device\n"
    assert is_char_device(devices["full"])


@root_only
def test_store_export_to_a_full_device_reports_no_count(capsys, devices, store_with_entries):
    full = str(devices["full"])
    code, out, err = run_cli(capsys, "store", "export", str(store_with_entries), "-o", full)
    assert code == 2 and out == ""
    assert err == f"cgf: error: cannot write {full!r}: No space left on device\n"
    assert is_char_device(devices["full"])


def test_a_symlink_stays_a_link_and_its_target_gets_the_data(capsys, tmp_path):
    target, link = tmp_path / "target.svg", tmp_path / "link.svg"
    target.write_text("old")
    link.symlink_to(target.name)
    code, _, err = run_cli(capsys, "tree", "nim", "3", "--depth", "1", "-o", str(link))
    assert code == 0 and err == ""
    assert link.is_symlink() and os.readlink(link) == target.name
    assert target.read_text().startswith("<svg")


@root_only
def test_a_symlink_to_a_device_keeps_both(capsys, devices, tmp_path):
    link = tmp_path / "out.svg"
    link.symlink_to(devices["null"])
    code, _, _ = run_cli(capsys, "tree", "nim", "3", "--depth", "1", "-o", str(link))
    assert code == 0
    assert link.is_symlink() and is_char_device(devices["null"])


def test_a_fifo_is_written_in_place_to_its_reader(capsys, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # the reader is there first
    try:
        code, out, err = run_cli(capsys, "tree", "nim", "3", "--depth", "1", "-o", str(fifo))
        assert code == 0 and err == "" and "written" in out
        os.set_blocking(reader, True)
        received = b"".join(iter(lambda: os.read(reader, 65536), b""))
    finally:
        os.close(reader)
    assert received.startswith(b"<svg") and received.rstrip().endswith(b"</svg>")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_fifo_without_a_reader_is_refused_at_once(capsys, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    code, out, err = run_cli(capsys, "tree", "nim", "3", "--depth", "1", "-o", str(fifo))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "no reader" in err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_regular_file_keeps_its_permissions(capsys, tmp_path):
    target = tmp_path / "tree.svg"
    target.write_text("old")
    target.chmod(0o640)
    code, _, _ = run_cli(capsys, "tree", "nim", "3", "--depth", "1", "-o", str(target))
    assert code == 0 and target.read_text().startswith("<svg")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_a_regular_file_is_whole_or_untouched(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("before")
    with pytest.raises(RuntimeError), open_output(str(target)) as out:
        out.write("half")
        raise RuntimeError("the producer failed")
    assert target.read_text() == "before"
    assert os.listdir(tmp_path) == ["out.txt"]  # no temporary file left behind
    with pytest.raises(OutputError, match="Is a directory"):
        write_output(str(tmp_path), "x")
    with pytest.raises(OutputError, match="Is a directory"):
        write_output(f"{tmp_path}/new/", "x")
    assert os.listdir(tmp_path) == ["out.txt"]


def test_dash_is_standard_output(capsys):
    code, out, err = run_cli(capsys, "tree", "nim", "3", "--depth", "1", "-o", "-")
    assert code == 0 and err == ""
    assert out.startswith("<svg") and "written" not in out


def cgf(*args: str, stdout: object = subprocess.PIPE) -> subprocess.CompletedProcess:
    """``cgf ARGS`` in a subprocess: standard output as the process really has it."""
    code = "import sys; from cgframework.cli.commands import main; sys.exit(main())"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(
    "args",
    [("rulesets",), ("solve", "nim", "3,4,5", "--json"), ("calc", "{1|0} + *")],
)
def test_standard_output_on_a_full_disk_is_exit_2_with_one_line(args):
    with open("/dev/full", "w") as full:
        done = cgf(*args, stdout=full)
    assert done.returncode == 2
    assert done.stderr == "cgf: error: cannot write standard output: No space left on device\n"


def test_store_export_to_a_full_standard_output_reports_no_count(store_with_entries):
    with open("/dev/full", "w") as full:
        done = cgf("store", "export", str(store_with_entries), stdout=full)
    assert done.returncode == 2
    assert done.stderr == "cgf: error: cannot write standard output: No space left on device\n"


@pytest.mark.parametrize("timeout", ["1e308", "inf", "1e400", "99999999999"])
def test_any_large_timeout_is_no_limit(capsys, timeout):
    code, out, err = run_cli(capsys, "solve", "nim", "3,4,5", "--timeout", timeout, "--json")
    assert code == 0 and err == "" and '"value": "*2"' in out
    code, out, err = run_cli(capsys, "calc", "{1|0} + *", "--timeout", timeout)
    assert code == 0 and err == "" and out.strip() == "{1*|*}"


def closed_streams(args: tuple[str, ...], close: str) -> subprocess.CompletedProcess:
    """``cgf ARGS`` started with standard output or input closed (``>&-``, ``<&-``)."""
    line = " ".join(f"'{a}'" for a in args)
    shell = f"{sys.executable} -m cgframework {line} {'>&-' if close == 'stdout' else '<&-'}"
    return subprocess.run(["sh", "-c", shell], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    "args",
    [("rulesets",), ("solve", "nim", "3"), ("calc", "{1|0}"), ("--version",)],
)
def test_a_closed_standard_output_is_exit_2_with_one_line(args):
    done = closed_streams(args, "stdout")
    assert done.returncode == 2
    assert done.stderr == "cgf: error: cannot write standard output: it is closed\n"


def test_a_closed_standard_input_is_exit_2_with_one_line():
    done = closed_streams(("solve", "nim", "-"), "stdin")
    assert done.returncode == 2
    assert done.stderr == "cgf: error: cannot read standard input: it is closed\n"


def test_an_empty_output_name_is_refused_as_such(capsys):
    code, out, err = run_cli(capsys, "solve", "nim", "3", "-o", "")
    assert code == 2 and err == "cgf: error: cannot write '': an empty file name\n"


def test_two_outputs_naming_one_file_are_refused_before_either_is_written(capsys, tmp_path):
    store = tmp_path / "values.db"
    code, _, err = run_cli(capsys, "solve", "kayles", "10,3", "--store", str(store))
    assert code == 0, err
    kept = store.read_bytes()
    link = tmp_path / "link.db"
    link.symlink_to(store)
    for args, words in (
        (("--store", str(store), "--certificate", str(store)), "--store and --certificate"),
        (("--store", str(store), "--certificate", str(link)), "--store and --certificate"),
        (("-o", str(tmp_path / "p.svg"), "--certificate", str(tmp_path / "p.svg")), "-o and"),
    ):
        code, out, err = run_cli(capsys, "solve", "clobber", "xoxo", "--outcome", *args)
        assert code == 2 and words in err and err.count("\n") == 1, err
    assert store.read_bytes() == kept and not (tmp_path / "p.svg").exists()
    # (a device may take both: nothing is replaced there)
    code, _, err = run_cli(
        capsys, "solve", "clobber", "xoxo", "--outcome", "-o", os.devnull, "--certificate",
        os.devnull,
    )  # fmt: skip
    assert code == 0, err


def test_a_table_cell_from_a_file_cannot_drive_the_terminal(capsys, monkeypatch):
    from cgframework.cli import common
    from cgframework.cli.common import print_table, printable

    assert printable("xo|ox") == "xo|ox"
    assert printable("a\x1b[31mb\ud800c\u200bd é") == "a\\x1b[31mb\\ud800c\\u200bd é"
    print_table([("position", '{"junk": "\x1b]0;owned\x07\ud800"}')])
    shown = capsys.readouterr().out
    assert "\x1b" not in shown and "\x07" not in shown and "\\x1b]0;owned\\x07\\ud800" in shown
    monkeypatch.setattr(common, "stdout_is_terminal", lambda: True)  # (rich draws the table)
    print_table([("position", "[bold]x[/bold]")])
    assert "[bold]x[/bold]" in capsys.readouterr().out  # (shown as written, not as markup)
