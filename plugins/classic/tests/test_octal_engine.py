"""The Grundy-sequence engine: compiled kernel vs the pure-Python loop vs the generic solver,
the sparse-space method vs the plain scan, published values, and ``cgf classic sequence``."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import solve
from cgframework.testing import run_cli as run
from cgframework_classic import engine
from cgframework_classic.engine import (
    GrundySequence,
    TakeAndBreak,
    best_mask,
    grundy_values,
    plain_value,
    sparse_value,
)
from cgframework_classic.heaps import OctalCode
from cgframework_classic.periodicity import find_period, grundy_sequence

KERNEL = engine._kernel
needs_kernel = pytest.mark.skipif(KERNEL is None, reason="the compiled kernel is not built")
SETTINGS = settings(max_examples=60, deadline=None)

octal_codes = st.tuples(
    st.sampled_from([0, 4]), st.lists(st.integers(0, 7), min_size=1, max_size=4)
).filter(lambda code: any(code[1]) or code[0])
hex_codes = st.tuples(
    st.sampled_from([0, 4, 8, 12]), st.lists(st.integers(0, 15), min_size=1, max_size=3)
).filter(lambda code: any(code[1]) or code[0])


def rules_of(code: tuple[int, list[int]]) -> TakeAndBreak:
    head, tail = code
    return TakeAndBreak.of_digits((k, d) for k, d in enumerate((head, *tail)) if d)


def octal_text(code: tuple[int, list[int]]) -> str:
    return f"{code[0]}." + "".join(map(str, code[1])).rstrip("0")


def every_way(rules: TakeAndBreak, count: int) -> list[list[int]]:
    """The sequence by each path: Python and kernel, plain and sparse."""
    ways = [list(grundy_values(rules, count, compiled=False, sparse=sparse)) for sparse in (0, 1)]
    if KERNEL is not None:
        ways += [list(grundy_values(rules, count, compiled=True, sparse=s)) for s in (0, 1)]
    return ways


def reference(rules: TakeAndBreak, count: int) -> list[int]:
    """The plain mex loop, heap by heap (the reference)."""
    g: list[int] = []
    for n in range(count):
        g.append(plain_value(rules, g, n))
    return g


@SETTINGS
@given(octal_codes, st.integers(1, 90))
def test_every_path_matches_the_old_octal_loop(code, count):
    """Kernel and Python, plain and sparse, against the pre-engine loop of periodicity.py."""
    text = octal_text(code)
    if not text.split(".")[1]:
        text += "0"  # "4." alone: write it 4.0
    try:
        old = grundy_sequence(OctalCode.parse(text), count)
    except ValueError:
        return  # a code OctalCode refuses (no move)
    for way in every_way(rules_of(code), count):
        assert way == old


@SETTINGS
@given(hex_codes, st.integers(1, 40))
def test_hex_codes_every_path_matches_the_reference(code, count):
    expected = reference(rules_of(code), count)
    for way in every_way(rules_of(code), count):
        assert way == expected


@SETTINGS
@given(octal_codes, st.integers(1, 255), st.integers(2, 80))
def test_sparse_value_is_exact_for_any_mask(code, mask, count):
    """The sparse-space method is exact whatever the mask (only its speed depends on it)."""
    rules = rules_of(code)
    if rules.split_three:
        return
    g = reference(rules, count)
    for n in range(1, count):
        rare = [m for m in range(1, n) if not (g[m] & mask).bit_count() & 1]
        assert sparse_value(rules, g, n, rare, mask) == g[n], (n, mask)


@needs_kernel
@SETTINGS
@given(octal_codes, st.integers(1, 255), st.integers(2, 120))
def test_kernel_with_any_mask_matches_the_reference(code, mask, count):
    rules = rules_of(code)
    if rules.split_three:
        return
    expected = reference(rules, count)
    values = array("I", [0]) * count
    KERNEL.extend(values, 1, count, rules.whole, rules.leave_one, rules.split_two, (), 0, mask)
    assert list(values) == expected


@needs_kernel
@SETTINGS
@given(st.integers(1, 255), st.integers(2, 150))
def test_kernel_grundys_game_with_any_mask(mask, count):
    rules = TakeAndBreak.grundys_game()
    expected = reference(rules, count)
    values = array("I", [0]) * count
    KERNEL.extend(values, 1, count, (), (), (), (), 1, mask)
    assert list(values) == expected


@SETTINGS
@given(octal_codes, st.lists(st.integers(0, 14), min_size=1, max_size=3))
def test_engine_matches_the_generic_solver(code, heaps):
    """The nim-sum of engine values against the generic Grundy solver on the same position."""
    text = octal_text(code)
    if not text.split(".")[1]:
        return
    try:
        OctalCode.parse(text)
    except ValueError:
        return
    values = grundy_values(rules_of(code), 15)
    expected = solve("octal", f"{text}:{','.join(map(str, heaps))}", method="generic")
    total = 0
    for n in heaps:
        total ^= values[n]
    assert total == expected.grundy


def test_best_mask_counts_rare_values():
    """Values 1, 2, 3 (odd parity under mask 1 for 1 and 3): the best mask leaves one rare."""
    from collections import Counter

    mask, rare = best_mask(Counter({1: 5, 2: 1, 3: 5}))
    assert rare == 1 and (2 & mask).bit_count() % 2 == 0
    assert all((v & mask).bit_count() % 2 for v in (1, 3))


# OEIS first terms (offset 0).
KAYLES_A002186 = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1]
DAWSONS_CHESS_A002187 = [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1]
GRUNDYS_GAME_A002188 = [
    0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2,
    3, 1, 2, 4, 1, 2, 4, 1, 2, 4, 1, 5, 4, 1, 5, 4, 1, 5, 4, 1, 0, 2, 1, 0, 2, 1, 5, 2, 1, 3,
]  # fmt: skip


def test_oeis_first_terms():
    """A002186 (Kayles, 0.77); A002187 (Dawson's chess, 0.137; Dawson's Kayles 0.07 is it
    shifted by one: G_0.07(n) = a(n - 1)); A002188 (Grundy's game)."""
    kayles = TakeAndBreak.of_digits(OctalCode.parse("0.77").nonzero())
    chess = TakeAndBreak.of_digits(OctalCode.parse("0.137").nonzero())
    dawson = TakeAndBreak.of_digits(OctalCode.parse("0.07").nonzero())
    for way in every_way(kayles, len(KAYLES_A002186)):
        assert way == KAYLES_A002186
    for way in every_way(chess, len(DAWSONS_CHESS_A002187)):
        assert way == DAWSONS_CHESS_A002187
    for way in every_way(dawson, len(DAWSONS_CHESS_A002187) + 1):
        assert way[1:] == DAWSONS_CHESS_A002187
    for way in every_way(TakeAndBreak.grundys_game(), len(GRUNDYS_GAME_A002188)):
        assert way == GRUNDYS_GAME_A002188


def test_grundys_game_long_run_kernel_equals_python():
    """Past the first mask pick (64 heaps and more), both paths agree on Grundy's game."""
    ways = every_way(TakeAndBreak.grundys_game(), 3000)
    assert all(way == ways[0] for way in ways)


@needs_kernel
def test_sparse_space_is_used_and_exact_on_kayles_like_codes():
    """0.56 has few rare values (Gangolli & Plambeck 1989): the engine picks a mask, and the
    values equal the plain scan's."""
    rules = TakeAndBreak.of_digits(OctalCode.parse("0.56").nonzero())
    sparse = GrundySequence(rules, compiled=True)
    sparse.extend(20000)
    assert sparse.mask != 0
    assert list(sparse.computed) == list(grundy_values(rules, 20000, compiled=True, sparse=False))


@needs_kernel
@pytest.mark.parametrize(
    ("code", "count", "period", "last_exception"),
    [
        # Gangolli & Plambeck, "A note on periodicity in some octal games", IJGT 18 (1989);
        # OEIS A071464: period 4, last exception 46,577.
        ("0.127", 100_000, 4, 46_577),
        # Same source, OEIS A071436: period 144, last exception given as 326,637. Here
        # G(326639) != G(326639 + 144) (and G(326636) too), found alike by the plain scan,
        # the sparse kernel and the pure-Python sparse loop; the first 92 values equal
        # A071436's. The published number is two lower: a difference of convention or a slip.
        ("0.56", 660_000, 144, 326_639),
    ],
)
def test_published_periods(code, count, period, last_exception):
    octal = OctalCode.parse(code)
    seq = GrundySequence(TakeAndBreak.of_digits(octal.nonzero()))
    seq.extend(count)
    found = find_period(seq.computed, octal.length, octal.heaps_left)
    assert found is not None
    assert (found.period, found.last_exception) == (period, last_exception)


def test_long_subtraction_set_runs_in_python():
    """More members than the kernel takes: the Python path, same values as the old loop."""
    members = list(range(1, 5002, 1))
    seq = GrundySequence(TakeAndBreak.of_digits(OctalCode.subtraction(members).nonzero()))
    seq.extend(5100)
    assert seq.kernel is None
    assert list(seq.computed) == [n % 5002 for n in range(5100)]


def test_deadline_stops_with_a_limit():
    from cgframework.runtime.budget import SearchStopped

    seq = GrundySequence(TakeAndBreak.of_digits(OctalCode.parse("0.77").nonzero()))
    with pytest.raises(SearchStopped):
        seq.extend(100_000, deadline=time.monotonic() - 1)


def test_too_many_heaps_refused_before_allocating():
    seq = GrundySequence(TakeAndBreak.grundys_game())
    with pytest.raises(ValueError, match="at most"):
        seq.extend(engine.MAX_HEAPS + 1)
    assert len(seq.values) == 1


# ---- the command line


@needs_kernel
def test_sequence_json_has_saltus_and_the_period(capsys):
    code, out, _ = run(capsys, "classic", "sequence", "octal", "0.127", "--to", "95000", "--json")
    record = json.loads(out)
    assert code == 0 and len(record["grundy"]) == 95001
    assert (record["period"], record["last_exception"]) == (4, 46577)
    assert "saltus" in record


def test_until_period_stops_early(capsys):
    code, out, _ = run(
        capsys, "classic", "sequence", "kayles", "--to", "10000000", "--until-period", "--json"
    )
    record = json.loads(out)
    assert code == 0 and (record["period"], record["last_exception"]) == (12, 70)
    assert len(record["grundy"]) < 1000


def test_grundys_game_and_hex_families(capsys):
    code, out, _ = run(capsys, "classic", "sequence", "grundys-game", "--to", "59", "--json")
    assert code == 0 and json.loads(out)["grundy"] == GRUNDYS_GAME_A002188
    code, out, _ = run(capsys, "classic", "sequence", "hex", "0.F", "--to", "30", "--json")
    expected = reference(TakeAndBreak.of_digits([(1, 15)]), 31)
    assert code == 0 and json.loads(out)["grundy"] == expected


def test_output_text_and_binary(capsys, tmp_path):
    text, binary = tmp_path / "g.txt", tmp_path / "g.bin"
    code, _, _ = run(capsys, "classic", "sequence", "kayles", "--to", "25", "-o", str(text))
    assert code == 0 and text.read_text().split() == list(map(str, KAYLES_A002186))
    code, _, _ = run(capsys, "classic", "sequence", "kayles", "--to", "25", "-o", str(binary))
    values = array("I")
    values.frombytes(binary.read_bytes())
    assert code == 0 and list(values) == KAYLES_A002186 and binary.stat().st_size == 26 * 4


@pytest.mark.parametrize(
    "args",
    [
        ("octal", "0.8"),
        ("octal", "0.7x"),
        ("octal",),
        ("hex", "0.G"),
        ("hex",),
        ("grundys-game", "0.7"),
        ("grundys-game", "--until-period"),
        ("kayles", "--to", "10000001"),
        ("kayles", "--to", "99999999999999999999"),
        ("kayles", "--timeout", "0"),
        ("subtraction", "{1,x}"),
        ("subtraction", "{1," + "9" * 30 + "}"),
    ],
)
def test_bad_input_is_one_line_exit_2(capsys, args):
    code, out, err = run(capsys, "classic", "sequence", *args)
    assert code == 2, (out, err)
    assert err.count("\n") == 1 and "Traceback" not in err


def test_timeout_is_exit_3(capsys):
    code, _, err = run(
        capsys, "classic", "sequence", "octal", "0.007", "--to", "10000000", "--timeout", "0.5"
    )
    assert code == 3 and "--timeout" in err and err.count("\n") == 1


def test_solve_huge_heap_without_period_is_a_limit(capsys):
    code, _, err = run(capsys, "solve", "octal", "0.007:100000000")
    assert code == 3 and err.count("\n") == 1


@SETTINGS
@given(hex_codes, st.lists(st.integers(0, 10), min_size=1, max_size=3))
def test_hex_solver_matches_generic(code, heaps):
    text = f"{code[0]:X}." + "".join(f"{d:X}" for d in code[1]).rstrip("0")
    if text.endswith("."):
        return
    position = f"{text}:{','.join(map(str, heaps))}"
    try:
        slow = solve("hex", position, method="generic")
    except ValueError:
        return  # a code the ruleset refuses (no move)
    fast = solve("hex", position)
    assert fast.method == "periodic-octal" and fast.grundy == slow.grundy
    assert set(fast.best_moves) == set(slow.best_moves)


@SETTINGS
@given(st.lists(st.integers(0, 25), min_size=1, max_size=3))
def test_grundys_game_solver_matches_generic(heaps):
    position = ",".join(map(str, heaps))
    fast = solve("grundys-game", position)
    slow = solve("grundys-game", position, method="generic")
    assert fast.method == "grundy-sequence" and fast.grundy == slow.grundy
    assert set(fast.best_moves) == set(slow.best_moves)


def test_plot_writes_an_svg(capsys, tmp_path):
    picture = tmp_path / "g.svg"
    code, _, _ = run(
        capsys, "classic", "sequence", "grundys-game", "--to", "300", "--plot", str(picture)
    )
    assert code == 0 and picture.read_text().lstrip().startswith("<")


@needs_kernel
def test_solve_a_large_heap_from_the_engine():
    """A heap past the old 4096 limit of a code without a proven period: computed, and equal
    to the engine's value."""
    solution = solve("octal", "0.007:20000")
    values = grundy_values(TakeAndBreak.of_digits(OctalCode.parse("0.007").nonzero()), 20001)
    assert solution.method == "periodic-octal" and solution.grundy == values[20000]


def test_the_values_and_the_plot_never_name_one_file(capsys, tmp_path):
    """``-o F --plot F`` wrote the values, then the picture over them: only the SVG was left."""
    target = tmp_path / "g.out"
    target.write_text("kept\n")
    link = tmp_path / "link"
    link.symlink_to(target)
    for plot in (target, link):
        code, _, err = run(
            capsys,
            "classic",
            "sequence",
            "kayles",
            "--to",
            "30",
            "-o",
            str(target),
            "--plot",
            str(plot),
        )
        assert code == 2 and err.count("\n") == 1 and "name the same file" in err, err
    assert target.read_text() == "kept\n"
    code, _, err = run(
        capsys, "classic", "sequence", "kayles", "--to", "30", "-o", "-", "--plot", "/dev/null"
    )
    assert code == 0, err


STOPWATCH = """
import sys, threading, time
from cgframework.cli.commands import main
import cgframework_classic.commands  # (loaded before the clock starts)
from cgframework.plugins import get_registry
get_registry()  # (every plugin too: the clock times the command's work, not its start-up)
timeout = float(sys.argv[sys.argv.index("--timeout") + 1])
at_deadline = []
threading.Timer(timeout, lambda: at_deadline.append(time.process_time())).start()
started = time.monotonic()
try:
    main(sys.argv[1:])
    code = 0
except SystemExit as stop:
    code = stop.code
print(code, time.process_time() - at_deadline[0] if at_deadline else 0.0)
"""


def stopped_after(*args: str) -> tuple[int, float]:
    """(exit code, CPU seconds the process spent after its ``--timeout``) of ``cgf ARGS`` in
    a fresh process: the work done past the deadline, whatever else the machine runs (wall
    time past it grows with the machine's load)."""
    done = subprocess.run(
        [sys.executable, "-c", STOPWATCH, *args], capture_output=True, text=True, timeout=120
    )
    code, seconds = done.stdout.split()[-2:]
    return int(code), float(seconds)


@needs_kernel
def test_a_sequence_stops_at_its_timeout_whatever_a_heap_costs():
    """Each call of the kernel took at least 256 heaps (and 1/64 of those so far): with many
    three-heap digits, heaps 512..767 are one call of seconds, and ``--timeout 1`` stopped
    after 3 s (at --timeout 30 of a long run, 37 s)."""
    code = "0." + "F" * 1024
    status, seconds = stopped_after(
        "classic", "sequence", "hex", code, "--to", "9999", "--timeout", "1"
    )
    assert status == 3 and seconds < 0.9, seconds  # (an engine call of seconds: 1.4; now 0.3-0.5)


@needs_kernel
def test_solving_a_heap_of_the_sequence_engine_stops_at_its_timeout():
    """The engine behind ``cgf solve grundys-game N`` was stopped only by the dispatcher's
    interruption, a second after the deadline (and after the kernel's call then running)."""
    status, seconds = stopped_after("solve", "grundys-game", "9999999", "--timeout", "1")
    assert status == 3 and seconds < 0.4, seconds  # (by the dispatcher: 0.6 or more; now 0.1)
