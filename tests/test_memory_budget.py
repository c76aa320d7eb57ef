"""The memory ceiling (``cgf --max-memory``, :mod:`cgframework.runtime.memory`): big work ends
with exit 3 and one line, well before the machine suffers; only the command line sets it.

Work that could eat the machine runs in a child process under its own hard ``RLIMIT_DATA`` and
``RLIMIT_CPU`` and a wall-clock timeout, so a regression fails the test instead of hurting the
machine (a child without the ceiling dies of its own limits: not exit 3 with the line).
"""

from __future__ import annotations

import resource
import subprocess
import sys
import textwrap

import pytest

from cgframework.runtime import memory
from cgframework.testing import run_cli

SAFETY_DATA_BYTES = 3 << 30
"""The child's hard data limit: room for a 1 GB ceiling plus the deep thread's stack."""
CPU_SECONDS = 60
"""The child's CPU budget (the 399-switch sum takes ~10 s to reach 1 GB; it ran minutes)."""

SWITCHES_399 = "+".join(f"{{{k}|-{k}}}" for k in range(1, 400))
HEAT_39 = "heat(" + "+".join(f"{{{k}|-{k}}}" for k in range(1, 40)) + ", 1)"


def _safety_net() -> None:
    resource.setrlimit(resource.RLIMIT_DATA, (SAFETY_DATA_BYTES, SAFETY_DATA_BYTES))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS + 5))


def run_child(code: str, *args: str) -> tuple[int, str, str, float]:
    """Run Python ``code`` (argv: ``args``) in a limited child: exit code, out, err and the
    child's CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        capture_output=True,
        text=True,
        timeout=4 * CPU_SECONDS,
        preexec_fn=_safety_net,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return done.returncode, done.stdout, done.stderr, cpu


CGF = "import sys; from cgframework.cli.commands import main; main(sys.argv[1:])"


def assert_one_line_limit(code: int, err: str, fragment: str) -> None:
    lines = err.strip().splitlines()
    assert code == 3, (code, err[-2000:])
    assert len(lines) == 1 and lines[0].startswith("cgf: error: out of memory"), err[-2000:]
    assert fragment in lines[0] and "(--max-memory)" in lines[0]


def test_a_value_too_big_for_the_ceiling_ends_exit_3_in_one_line():
    """A 4 KB sum of 399 switches once took minutes and gigabytes: under ``--max-memory 400M``
    it stops with exit 3 and one line naming it."""
    code, _out, err, cpu = run_child(CGF, "--max-memory", "400M", "calc", SWITCHES_399)
    assert_one_line_limit(code, err, "400 MB limit")
    assert cpu < CPU_SECONDS


def test_a_value_too_long_to_print_is_printed_elided_under_the_ceiling():
    """The heat of 39 switches has 18,677 subgames but a text of 2.7e12 characters, which
    once ran out of memory being printed: it prints elided, the text never built."""
    code, out, err, cpu = run_child(CGF, "--max-memory", "1G", "calc", HEAT_39)
    assert code == 0, err[-2000:]
    assert out.startswith("{819|815||813|809|||") and "(2722741879735 characters, elided)" in out
    assert cpu < CPU_SECONDS


def test_the_ceiling_comes_from_the_environment_too():
    code, _out, err, _cpu = run_child(
        "import os; os.environ['CGF_MAX_MEMORY'] = '300M'; " + CGF, "calc", SWITCHES_399
    )
    assert_one_line_limit(code, err, "300 MB limit")


HOG = """
import sys
from cgframework.cli.common import app
from cgframework.cli.commands import main
from cgframework.runtime.deep import call_deep, start_deep

@app.command("hog")
def hog(deep: bool = False) -> None:
    def grab():
        return bytearray(2 << 30)  # 2 GB, past the 500 MB ceiling
    (start_deep(grab).wait() if deep else grab())

main(sys.argv[1:])
"""


@pytest.mark.parametrize("where", [[], ["--deep"]], ids=["main-thread", "deep-thread"])
def test_a_command_that_allocates_past_the_ceiling_ends_exit_3(where):
    """Past the system limit the allocation fails (``MemoryError``), on the command's thread
    or on the deep-recursion thread: one line naming the ceiling, exit 3."""
    code, _out, err, _cpu = run_child(HOG, "--max-memory", "500M", "hog", *where)
    assert_one_line_limit(code, err, "over the 500 MB limit")


def test_no_room_for_the_deep_thread_is_out_of_memory():
    """A thread whose stack does not fit under the limit is a ``MemoryError`` (exit 3 in
    ``cgf``), not a ``RuntimeError`` (an internal error)."""
    code = """
    import resource
    from cgframework.runtime.deep import start_deep
    data = resource.getrlimit(resource.RLIMIT_DATA)[1]
    resource.setrlimit(resource.RLIMIT_DATA, (256 << 20, data))
    try:
        start_deep(lambda: 1).wait()
    except MemoryError:
        print("MemoryError")
    """
    status, out, err, _cpu = run_child(code)
    assert (status, out.strip()) == (0, "MemoryError"), err


GOOD_SIZES = [
    ("2G", 2 << 30),
    ("500M", 500 << 20),
    ("1.5G", 3 << 29),
    ("64MiB", 64 << 20),
    ("2gb", 2 << 30),
    ("1T", 1 << 40),
    ("1073741824", 1 << 30),
    ("none", None),
    ("NONE", None),
]


@pytest.mark.parametrize(("text", "size"), GOOD_SIZES)
def test_sizes_read(text, size):
    assert memory.parse_size(text) == size


BAD_SIZES = [
    ("abc", "bad memory size"),
    ("", "bad memory size"),
    ("-1", "bad memory size"),
    ("2X", "bad memory size"),
    ("1.5.5G", "bad memory size"),
    ("0", "below the minimum of 64 MB"),
    ("10M", "below the minimum of 64 MB"),
    ("99999999T", "too large"),
]


@pytest.mark.parametrize(("text", "fragment"), BAD_SIZES)
def test_bad_sizes_are_refused_in_one_line_exit_2(capsys, text, fragment):
    code, out, err = run_cli(capsys, "--max-memory", text, "calc", "*")
    assert code == 2 and not out
    assert err.count("\n") == 1 and fragment in err and err.startswith("cgf: error: --max")


@pytest.mark.parametrize("text", ["2G", "none", "1.5G"])
def test_good_sizes_run_the_command(text):
    code, out, err, _cpu = run_child(CGF, "--max-memory", text, "calc", "{1|-1} + *")
    assert (code, out.strip(), err) == (0, "{1*|-1*}", "")


def test_the_command_line_sets_the_ceiling_and_lifts_it_after(capsys):
    """Only ``cgf`` applies a ceiling (the default, or ``--max-memory``), and only while its
    command runs: ``main`` called in-process leaves none behind."""
    kind = resource.RLIMIT_DATA
    before = resource.getrlimit(kind)
    seen = {}
    from cgframework.cli.common import app

    @app.command("peek-limit")
    def peek() -> None:
        seen["limit"] = memory.limit()
        seen["rlimit"] = resource.getrlimit(kind)[0]

    try:
        assert run_cli(capsys, "--max-memory", "3G", "peek-limit")[0] == 0
        assert seen == {"limit": 3 << 30, "rlimit": (3 << 30) + memory.STACK_ALLOWANCE}
        assert run_cli(capsys, "peek-limit")[0] == 0
        assert seen["limit"] == memory.default_limit()
    finally:
        app.registered_commands[:] = [c for c in app.registered_commands if c.callback is not peek]
    assert memory.limit() is None and resource.getrlimit(kind) == before


def test_importing_the_library_sets_no_ceiling():
    code = """
    import resource
    before = resource.getrlimit(resource.RLIMIT_DATA)
    import cgframework
    from cgframework.runtime import memory
    from cgframework.values.parser import parse_value
    parse_value("{1|-1} + {2|-2}")
    print(memory.limit(), resource.getrlimit(resource.RLIMIT_DATA) == before)
    """
    status, out, err, _cpu = run_child(code)
    assert (status, out.split()) == (0, ["None", "True"]), err


def test_the_default_is_half_the_machine_or_the_container(monkeypatch):
    monkeypatch.setattr(memory, "machine_memory", lambda: 24 << 30)
    assert memory.default_limit() == 12 << 30
    monkeypatch.setattr(memory, "machine_memory", lambda: None)
    assert memory.default_limit() is None


def test_the_machine_memory_is_at_most_meminfo():
    with open("/proc/meminfo") as meminfo:
        total = int(meminfo.readline().split()[1]) * 1024
    assert 0 < memory.machine_memory() <= total


def test_a_ceiling_in_the_library_guards_the_value_builder():
    """``set_limit`` in a program of one's own: the canonical-form builder refuses cleanly
    (:class:`~cgframework.runtime.memory.MemoryLimitExceeded`) before the system limit."""
    code = """
    from cgframework.runtime import memory
    from cgframework.values.parser import parse_value
    import sys
    memory.set_limit(memory.parse_size("300M"))
    try:
        parse_value(sys.argv[1])
    except memory.MemoryLimitExceeded as exc:
        print(exc)
    """
    status, out, err, _cpu = run_child(code, SWITCHES_399)
    assert status == 0, err
    assert out.strip() == (
        "out of memory: building this canonical form would pass the 300 MB limit (--max-memory)"
    )


def test_format_size():
    assert memory.format_size(12 << 30) == "12 GB"
    assert memory.format_size(3 << 29) == "1.5 GB"
    assert memory.format_size(500 << 20) == "500 MB"


@pytest.mark.parametrize(
    ("error", "printed"),
    [
        (MemoryError(), "out of memory: over the"),
        (memory.MemoryLimitExceeded("out of memory: building x"), "out of memory: building x"),
        (  # compiled code that names its full table: that line, not the generic one
            MemoryError("out of memory: the compiled search's component table is full"),
            "out of memory: the compiled search's component table is full",
        ),
    ],
)
def test_a_position_too_big_to_read_is_a_limit_not_bad_input(capsys, monkeypatch, error, printed):
    """A parser that runs out of memory is exit 3 (a limit), not exit 2 (a bad position)."""
    from cgframework.cli import common

    def parse(ruleset, text):
        raise error

    monkeypatch.setattr(common, "parse_position", parse)
    code, out, err = run_cli(capsys, "--max-memory", "4G", "solve", "nim", "1+2")
    assert code == 3 and not out
    assert err.count("\n") == 1 and err.startswith(f"cgf: error: {printed}")


@pytest.mark.parametrize(
    ("error", "code", "printed"),
    [
        (SystemError("error return without exception set"), 3, "out of memory: over the"),
        (SystemError("bad argument to internal function"), 1, "internal error: SystemError"),
    ],
)
def test_compiled_code_failing_silently_under_a_limit_is_out_of_memory(
    capsys, monkeypatch, error, code, printed
):
    """Under a system memory limit tighter than the ceiling (``ulimit -v``), compiled code
    whose allocation fails may end in CPython's "error return without exception set": that is
    the memory limit (exit 3), not a bad expression (exit 2); another SystemError is a bug."""
    import attrs

    from cgframework import plugins

    universes = plugins.registry_with_universe("normal").universes

    def parse(text):
        raise error

    monkeypatch.setitem(universes, "normal", attrs.evolve(universes["normal"], parse=parse))
    code_, out, err = run_cli(capsys, "--max-memory", "4G", "calc", "{1|-1} + *")
    assert (code_, out) == (code, "")
    assert err.count("\n") == 1 and err.startswith(f"cgf: error: {printed}")
