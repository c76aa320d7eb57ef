"""``cgf solve RULESET --batch FILE``: one JSON line per position, the same answer as
``cgf solve POSITION --json``; a bad line is an error line and the rest go on; the exit
status says whether some line was refused (2) or hit a limit (3)."""

from __future__ import annotations

import io
import json
import os
import select
import subprocess
import sys

import pytest

from cgframework.testing import run_cli

CGF = [sys.executable, "-m", "cgframework"]


def batch(capsys, monkeypatch, text, *args):
    """``cgf solve ARGS --batch -`` fed ``text``: (exit code, the JSON lines, stderr)."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    code, out, err = run_cli(capsys, "solve", *args, "--batch", "-")
    return code, [json.loads(line) for line in out.splitlines()], err


def single(capsys, *args):
    code, out, err = run_cli(capsys, "solve", *args, "--json")
    assert code == 0, err
    return json.loads(out)


def same(answer, expected):
    """Equal but for the statistics (time taken, and what a warm cache saved)."""
    drop = ("stats", "line")
    return {k: v for k, v in answer.items() if k not in drop} == {
        k: v for k, v in expected.items() if k not in drop
    }


def test_good_lines_a_bad_line_and_a_blank_line(capsys, monkeypatch):
    code, lines, err = batch(capsys, monkeypatch, "xo|ox\n\n  \nbad!\nxoxoxo\n", "clobber")
    assert code == 2
    assert err == ("cgf: error: 1 of 3 positions not answered (1 refused): see their error lines\n")
    assert [line["line"] for line in lines] == [1, 4, 5]  # (blank lines 2 and 3 skipped)
    assert list(lines[0])[0] == "line" and lines[0]["value"] == "*"
    assert lines[1] == {
        "line": 4,
        "position": "bad!",
        "error": "invalid clobber position 'bad!': unexpected 'b' at row 1, column 1 "
        "(use 'x', 'o', '.', '#')",
        "exit": 2,
    }
    assert lines[2]["outcome"] == "P"


def test_every_line_answered_is_exit_0_and_a_hash_is_a_position(capsys, monkeypatch):
    # no comment lines: "#" is a filled square of Domineering
    code, lines, err = batch(capsys, monkeypatch, "#.|..\n..\n", "domineering")
    assert (code, err) == (0, "")
    assert [a["position"] for a in lines] == ["#.|..", ".."]


@pytest.mark.parametrize(
    ("ruleset", "positions", "options"),
    [
        ("clobber", ["xo|ox", "xoxoxo", "xx.|oo.", "x", "xox|o.o"], []),
        ("clobber", ["xo|ox", "xoxoxo", "xox|o.o"], ["--outcome"]),
        ("clobber", ["xoxoxoxo", "xox|o.o"], ["--outcome", "--no-moves", "--first", "R"]),
        ("nim", ["3,4,5", "1,1", "7"], ["--method", "generic"]),
        ("kayles", ["5", "3 + 4"], ["--misere"]),
        ("kayles", ["5", "3 + 4", "2 + 2"], ["--misere", "--outcome"]),
        ("clobber", ["xo|ox", "xox|o.o"], ["--misere", "--outcome", "--no-moves"]),
        ("domineering", ["..|..|..", "...|..."], ["--first", "R", "--full"]),
        ("partizan-digraph", ["0>1:L;0", "0>1:L,1>0:R;0", "0>1:L,0>2:L,1>0:R;0"], []),
        ("digraph", ["0>1,1>0;0", "0>1,1>0,1>2;0"], []),
    ],
)
def test_answers_are_the_single_position_json(capsys, monkeypatch, ruleset, positions, options):
    code, lines, err = batch(capsys, monkeypatch, "\n".join(positions), ruleset, *options)
    assert code == 0, err
    assert [a["line"] for a in lines] == list(range(1, len(positions) + 1))
    for position, answer in zip(positions, lines, strict=True):
        assert same(answer, single(capsys, ruleset, position, *options)), position


def test_max_nodes_is_per_line_and_a_line_past_it_is_exit_3(capsys, monkeypatch):
    lines_text = "xoxoxo\nxoxoxo|oxoxox\nxo\n"
    nodes = [single(capsys, "clobber", p)["stats"]["nodes"] for p in ("xoxoxo", "xo")]
    budget = max(nodes)  # each small line fits; the three together would not
    code, lines, err = batch(capsys, monkeypatch, lines_text, "clobber", "--max-nodes", str(budget))
    assert code == 3 and "1 of 3 positions not answered (1 at a limit)" in err
    assert "error" not in lines[0] and "error" not in lines[2]
    assert lines[1]["exit"] == 3 and "--max-nodes" in lines[1]["error"]


def test_timeout_is_per_line(capsys, monkeypatch):
    # a board that takes minutes stops at its own timeout; the next line is still answered
    big = "|".join(["xoxoxo", "oxoxox"] * 3)
    code, lines, err = batch(capsys, monkeypatch, f"{big}\nxo\n", "clobber", "--timeout", "0.5")
    assert code == 3 and lines[0]["exit"] == 3 and "--timeout" in lines[0]["error"]
    assert "error" not in lines[1] and lines[1]["value"] == "*"


def test_a_line_not_in_utf8_is_an_error_line(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"x\xffo\nxo\n")))
    code, out, err = run_cli(capsys, "solve", "clobber", "--batch", "-")
    first, second = (json.loads(line) for line in out.splitlines())
    assert code == 2 and first["exit"] == 2 and first["position"] == "x\\xffo"
    assert first["error"] == "line 1 is not UTF-8 text (byte 1)" and second["line"] == 2


def test_a_line_over_the_input_limit_ends_the_batch(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("CGF_MAX_INPUT_BYTES", "20")
    text = "xo\n" + "x" * 21 + "\nxo\n"
    code, lines, err = batch(capsys, monkeypatch, text, "clobber")
    assert code == 2 and [a["line"] for a in lines] == [1]
    assert err == (
        "cgf: error: line 2 of standard input is longer than the input limit of 20 bytes "
        "(set CGF_MAX_INPUT_BYTES)\n"
    )
    # a file given with -o is whole or untouched: untouched
    target = tmp_path / "answers.jsonl"
    target.write_text("old\n")
    code, lines, err = batch(capsys, monkeypatch, text, "clobber", "-o", str(target))
    assert code == 2 and lines == [] and target.read_text() == "old\n"


def test_output_file(capsys, monkeypatch, tmp_path):
    target = tmp_path / "answers.jsonl"
    code, lines, err = batch(capsys, monkeypatch, "xo\nzz\n", "clobber", "-o", str(target))
    assert code == 2 and lines == []
    written = [json.loads(line) for line in target.read_text().splitlines()]
    assert [a["line"] for a in written] == [1, 2] and written[1]["exit"] == 2


def test_a_batch_file_and_the_store(capsys, tmp_path):
    positions = tmp_path / "positions.txt"
    positions.write_text("xo|ox\nxoxo\n")
    store = tmp_path / "values.sqlite"
    for from_store in (False, True):
        code, out, err = run_cli(
            capsys, "solve", "clobber", "--batch", str(positions), "--store", str(store)
        )
        assert code == 0, err
        answers = [json.loads(line) for line in out.splitlines()]
        assert [a.get("from_store", False) for a in answers] == [from_store] * 2


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["xo", "--batch", "-"], "give a POSITION, --board FILE or --batch FILE (exactly one)"),
        (["--batch", "-", "--picture", "p.svg"], "--picture draws one position"),
        (["--batch", "-", "--certificate", "c.gz"], "--certificate is for one position"),
        (["--batch", "-", "--outcome", "--jobs", "2"], "--jobs is for one position"),
        (["--batch", "-", "--no-moves"], "--no-moves is for the outcome search"),
        (["--batch", "-", "--method", "nosuch"], "unknown method 'nosuch' for ruleset 'clobber'"),
        (["--batch", "-", "--misere", "--store", "s.sqlite"], "--misere does not use the"),
        (["--batch", "nosuch.txt"], "cannot read batch file 'nosuch.txt': No such file"),
    ],
)
def test_refusals_come_before_any_line(capsys, monkeypatch, tmp_path, args, message):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("xo\n"))
    code, out, err = run_cli(capsys, "solve", "clobber", *args)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


def test_a_bad_input_limit_is_refused(capsys, monkeypatch):
    monkeypatch.setenv("CGF_MAX_INPUT_BYTES", "abc")
    code, lines, err = batch(capsys, monkeypatch, "xo\n", "clobber")
    assert (code, lines) == (2, [])
    assert err == "cgf: error: CGF_MAX_INPUT_BYTES='abc' is not a positive number of bytes\n"


def test_output_naming_the_batch_file_is_refused(capsys, tmp_path):
    positions = tmp_path / "positions.txt"
    positions.write_text("xo\n")
    code, _, err = run_cli(
        capsys, "solve", "clobber", "--batch", str(positions), "-o", str(positions)
    )
    assert code == 2 and "name the same file" in err and positions.read_text() == "xo\n"


def test_each_answer_reaches_a_pipe_as_soon_as_it_is_found():
    # one line in, one answer out, while the input is still open
    child = subprocess.Popen(
        [*CGF, "solve", "clobber", "--batch", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        for board, value in (("xo|ox", "*"), ("xx|oo", "0")):
            child.stdin.write(board.encode() + b"\n")
            child.stdin.flush()
            ready, _, _ = select.select([child.stdout], [], [], 60)
            assert ready, "no answer while the input is open"
            assert json.loads(child.stdout.readline())["value"] == value
        child.stdin.close()
        assert child.wait(60) == 0
    finally:
        child.kill()
        child.wait()
        child.stdout.close()
        child.stderr.close()


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_an_endless_line_is_refused_in_little_memory():
    with open("/dev/zero", "rb") as zero:
        done = subprocess.run(
            [*CGF, "--max-memory", "256M", "solve", "nim", "--batch", "-"],
            stdin=zero,
            capture_output=True,
            timeout=120,
        )
    assert done.returncode == 2 and done.stdout == b""
    assert done.stderr == (
        b"cgf: error: line 1 of standard input is longer than the input limit of 16777216 "
        b"bytes (set CGF_MAX_INPUT_BYTES)\n"
    )
