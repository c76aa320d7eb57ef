"""Grundy sequence analysis: fast period search, the watcher, saltus, plots; hexadecimal
codes and Grundy's game."""

from __future__ import annotations

import functools
import json
import random
import xml.etree.ElementTree as ET
from array import array

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework import TranspositionTable, solve
from cgframework.testing import run_cli as run
from cgframework_classic.heaps import HexCode, OctalCode
from cgframework_classic.periodicity import (
    ArithmeticPeriod,
    Period,
    PeriodWatcher,
    find_period,
    find_saltus,
    grundy_sequence,
    proof_length,
)
from cgframework_classic.pictures import DOT_LIMIT, PLOT_WIDTH, sequence_svg

SETTINGS = settings(max_examples=300, deadline=None)


def quadratic_find_period(seq: list[int], code_length: int, heaps_left: int = 2) -> Period | None:
    """The former O(N^2) search (every p, walking i down from the end), with the bound of
    :func:`proof_length`: the reference the fast search must agree with."""
    size = len(seq)
    for p in range(1, size):
        i = size - p
        while i > 0 and seq[i - 1] == seq[i - 1 + p]:
            i -= 1
        if proof_length(i, p, code_length, heaps_left) <= size:
            return Period(i, p)
    return None


def _edited(seq: list[int], edits: list[tuple[int, int]]) -> list[int]:
    seq = list(seq)
    for at, value in edits:
        if at < len(seq):
            seq[at] = value
    return seq


# Often eventually periodic (a pre-period, a repeated block, a few values changed), over a
# small alphabet so that spurious short periods are common too; or plain random.
sequences = st.builds(
    lambda head, block, repeats, edits: _edited(head + block * repeats, edits),
    st.lists(st.integers(0, 3), max_size=12),
    st.lists(st.integers(0, 3), min_size=1, max_size=7),
    st.integers(0, 20),
    st.lists(st.tuples(st.integers(0, 200), st.integers(0, 3)), max_size=2),
) | st.lists(st.integers(0, 3), max_size=60)


@SETTINGS
@given(sequences, st.integers(1, 6), st.integers(0, 3))
def test_fast_period_search_matches_the_quadratic_one(seq, code_length, heaps_left):
    expected = quadratic_find_period(seq, code_length, heaps_left)
    assert find_period(seq, code_length, heaps_left) == expected
    assert find_period(array("q", seq), code_length, heaps_left) == expected


@SETTINGS
@given(sequences, st.integers(1, 6), st.integers(0, 3), st.lists(st.integers(1, 9), max_size=30))
def test_watcher_agrees_with_find_period_after_every_extend(seq, code_length, heaps_left, cuts):
    watcher = PeriodWatcher(code_length, heaps_left)
    done = 0
    for cut in [*cuts, len(seq)]:
        chunk = seq[done : done + cut]
        watcher.extend(chunk)
        done += len(chunk)
        assert len(watcher) == done
        assert watcher.proven == quadratic_find_period(seq[:done], code_length, heaps_left)


def test_proof_bound_is_the_classical_one_for_octal_codes_past_heap_0():
    """Guy & Smith: 2i + p + t values checked, i.e. G(0..2i + 2p + t - 1) for i >= 1."""
    for i in range(1, 30):
        for p in range(1, 30):
            assert proof_length(i, p, 3) == 2 * i + 2 * p + 3
            assert proof_length(i, p, 3, heaps_left=3) == 3 * i + 3 * p + 3


def test_a_pre_period_of_0_is_not_proven_from_too_few_values():
    """0.4 (remove a token, leave two non-empty heaps): G(0..2) = 0, 0, 0 but G(3) = 1.
    The classical bound 2i + 2p + t = 3 at i = 0 claimed period 1 from these three values."""
    code = OctalCode.parse("0.4")
    seq = grundy_sequence(code, 8)
    assert seq[:4] == [0, 0, 0, 1]
    assert find_period(seq[:3], code.length) is None
    for size in range(1, 9):  # no wrong claim from any prefix
        period = find_period(seq[:size], code.length)
        full = grundy_sequence(code, 400)
        if period is not None:
            p = period.period
            assert all(full[n] == full[n + p] for n in range(period.preperiod, 400 - p))


@pytest.mark.parametrize(
    ("code", "expected", "last"),
    [
        # Winning Ways ch. 4; Guy & Smith (1956): Kayles, period 12, last exception 70
        ("0.77", Period(71, 12), 70),
        # Dawson's chess 0.137, period 34, last exception 51 (Winning Ways ch. 4); 0.07 is
        # the same sequence shifted by one heap (last exception 52)
        ("0.137", Period(52, 34), 51),
        ("0.07", Period(53, 34), 52),
        # OEIS A071453 (Winning Ways ch. 4 p. 104): 0.117 has period 48, last exception 46
        ("0.117", Period(47, 48), 46),
    ],
)
def test_published_periods(code, expected, last):
    octal = OctalCode.parse(code)
    seq = grundy_sequence(octal, 400)
    period = find_period(seq, octal.length, octal.heaps_left)
    assert period == expected and period.last_exception == last


def test_the_watcher_proves_kayles_as_soon_as_find_period_does():
    code = OctalCode.parse("0.77")
    seq = grundy_sequence(code, 300)
    watcher = PeriodWatcher(code.length, code.heaps_left)
    first = None
    for n, value in enumerate(seq):
        watcher.extend([value])
        if watcher.proven and first is None:
            first = n + 1
    assert first == proof_length(71, 12, 2) == 168
    assert watcher.proven == Period(71, 12)


def test_find_period_on_two_million_values():
    """A period-34 sequence after 1000 irregular values, and an aperiodic one that is mostly
    zeros (the worst case of a short candidate filter). ``benchmarks/sequences.py`` times
    10^7 values."""
    size = 2 * 10**6
    block = array("q", [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3, 2] * 2)
    block[-1] = 7
    values = array("q", range(1000)) + block * ((size - 1000) // len(block) + 1)
    assert find_period(values[:size], 2) == Period(1000, 34)
    sparse = array("q", bytes(8 * size))
    rng = random.Random(0)
    for k in range(0, size - 400, 997):
        sparse[k + rng.randrange(331)] = 1
    assert find_period(sparse, 2) is None


def saltus_reference(seq: list[int], min_periods: int = 3) -> ArithmeticPeriod | None:
    size = len(seq)
    for p in range(1, size):
        top = min(size // 2, size - min_periods * p)
        if top < 0:
            break
        s = seq[size - 1] - seq[size - 1 - p]
        i = size - p
        while i > 0 and seq[i - 1 + p] - seq[i - 1] == s:
            i -= 1
        if i <= top:
            return ArithmeticPeriod(i, p, s, False, size - 1) if s > 0 else None
    return None


@SETTINGS
@given(
    st.lists(st.integers(0, 4), max_size=8),
    st.lists(st.integers(0, 3), min_size=1, max_size=5),
    st.integers(0, 3),
    st.integers(0, 15),
)
def test_saltus_matches_a_direct_search(head, block, saltus, repeats):
    seq = list(head)
    for r in range(repeats):
        seq.extend(10 + v + r * saltus for v in block)
    assert find_saltus(seq) == saltus_reference(seq)


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        # one-digit hexadecimal games, as studied by Howse & Nowakowski (2004); observed here
        ("0.8", (1, 3, 1)),
        ("0.C", (1, 2, 1)),
        ("0.3F", (0, 6, 3)),
        ("0.FF", (0, 1, 1)),  # G(n) = n
    ],
)
def test_hexadecimal_codes_with_an_observed_saltus(code, expected):
    hexcode = HexCode.parse(code)
    seq = grundy_sequence(hexcode, 150)
    found = find_saltus(seq, code=hexcode)
    assert (found.preperiod, found.period, found.saltus) == expected
    assert not found.proven and found.observed_to == 149
    assert find_period(seq, hexcode.length, hexcode.heaps_left) is None


def test_no_saltus_for_periodic_sequences_or_finite_octal_codes():
    kayles = OctalCode.parse("0.77")
    assert find_saltus(grundy_sequence(kayles, 300)) is None  # periodic: saltus 0
    early = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]  # looks like G(n) = n, but 0.77 cannot be
    assert find_saltus(early) == ArithmeticPeriod(0, 1, 1, False, 9)
    assert find_saltus(early, code=kayles) is None  # Horrocks & Nowakowski (2003)
    assert find_saltus(early, code=OctalCode.parse("4.7")) is None  # any d0
    assert find_saltus(early, code=HexCode.parse("0.8")) == find_saltus(early)


def test_values_past_two_to_the_63():
    big = 2**70
    seq = [big, 1, 5] * 10
    assert find_period(seq, 1) == find_period([7, 1, 5] * 10, 1) == Period(0, 3)
    assert find_saltus([big + n for n in range(12)]) == ArithmeticPeriod(0, 1, 1, False, 11)
    watcher = PeriodWatcher.for_code(HexCode.parse("0.F"))
    assert (watcher.code_length, watcher.heaps_left) == (1, 3)
    with pytest.raises(ValueError, match="2\\^63"):
        watcher.extend([big])
    assert len(watcher) == 0


def test_hex_codes_parse_and_print():
    assert HexCode.parse("0.F").digits == (0, 15)
    assert HexCode.parse("0.fa").digits == (0, 15, 10) and str(HexCode.parse("0.fa")) == "0.FA"
    assert HexCode.parse("F").digits == (0, 15) and HexCode.parse(".8").digits == (0, 8)
    assert HexCode.parse("0.F").heaps_left == 3 and OctalCode.parse("0.77").heaps_left == 2
    assert OctalCode.parse("0.33").heaps_left == 1 and OctalCode.parse("0.1").heaps_left == 0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0.G", "digit 'G' is not 0-F"),
        ("0F", "ambiguous"),
        ("0.00", "allows no move"),
        ("12.F", "one digit before the point"),
    ],
)
def test_hex_code_errors(text, message):
    with pytest.raises(ValueError, match=message):
        HexCode.parse(text)


def test_an_octal_code_with_a_digit_8_names_the_hex_form():
    with pytest.raises(ValueError, match=r"hexadecimal code: hex 0\.18"):
        OctalCode.parse("0.18")


def naive_hex_grundy(digits: tuple[int, ...], n: int) -> int:
    """G(n) straight from the definition: every way to remove k tokens and leave r heaps."""

    @functools.cache
    def grundy(m: int) -> int:
        seen = set()
        for k, d in enumerate(digits):
            rest = m - k
            if rest < 0:
                break
            for r in range(4):
                if not d >> r & 1 or (k == 0 and r < 2):
                    continue
                for heaps in compositions(rest, r):
                    value = 0
                    for h in heaps:
                        value ^= grundy(h)
                    seen.add(value)
        g = 0
        while g in seen:
            g += 1
        return g

    return grundy(n)


def compositions(total: int, parts: int):
    """Every ordered way to write ``total`` as ``parts`` positive integers."""
    if parts == 0:
        if total == 0:
            yield ()
        return
    for first in range(1, total - parts + 2):
        for rest in compositions(total - first, parts - 1):
            yield (first, *rest)


@pytest.mark.parametrize("code", ["0.F", "0.8", "0.C", "0.1F", "0.48", "8.1", "0.9A"])
def test_hex_ruleset_matches_the_definition(code):
    digits = HexCode.parse(code).digits
    table = TranspositionTable()
    for n in range(13):
        got = solve("hex", f"{code}:{n}", method="generic", table=table).grundy
        assert got == naive_hex_grundy(digits, n), n
    assert grundy_sequence(HexCode(digits), 13) == [naive_hex_grundy(digits, n) for n in range(13)]


# OEIS A002188, Grundy's game (Guy & Smith 1956, Table 4), G(0..104)
A002188 = [
    0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2,
    3, 1, 2, 4, 1, 2, 4, 1, 2, 4, 1, 5, 4, 1, 5, 4, 1, 5, 4, 1, 0, 2, 1, 0, 2, 1, 5, 2, 1, 3,
    2, 1, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 5, 2, 4, 5, 2, 4, 3, 7, 4, 3,
    7, 4, 3, 7, 4, 3, 5, 2, 3, 5, 2, 3, 5, 2, 3,
]  # fmt: skip


def test_grundys_game_matches_oeis():
    table = TranspositionTable()
    got = [solve("grundys-game", str(n), table=table).grundy for n in range(len(A002188))]
    assert got == A002188


def test_grundys_game_and_hex_through_the_cli(capsys):
    code, out, _ = run(capsys, "solve", "grundys-game", "7")
    assert code == 0 and "grundy\t0" in out
    code, out, _ = run(capsys, "solve", "grundys-game", "8,3")  # G = 2 xor 1
    assert code == 0 and "grundy\t3" in out
    code, out, _ = run(capsys, "solve", "hex", "0.F:10,3")
    assert code == 0 and "0.F:10,3" in out
    code, _, err = run(capsys, "solve", "octal", "0.8:3")
    assert code == 2 and "hex 0.8" in err and err.count("\n") == 1
    code, _, err = run(capsys, "solve", "hex", "0.Z:3")
    assert code == 2 and "not 0-F" in err


def test_sequence_svg_has_one_dot_per_heap():
    seq = grundy_sequence(OctalCode.parse("0.77"), 201)
    svg = sequence_svg(seq, "octal 0.77 <G(0..200)>")
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    dots = [c for c in root.iter(f"{ns}circle") if c.get("class") == "value"]
    assert len(dots) == 201
    ys = {float(c.get("cy")) for c, g in zip(dots, seq, strict=True) if g == max(seq)}
    assert len(ys) == 1  # equal values, equal heights
    assert any(t.text == "octal 0.77 <G(0..200)>" for t in root.iter(f"{ns}text"))
    assert sum(1 for g in root.iter(f"{ns}g") if g.get("class") == "x-tick") >= 5


def test_sequence_svg_of_a_million_values_is_binned_and_small():
    values = array("q", ((n * n) % 1009 % 97 for n in range(10**6)))
    svg = sequence_svg(values, "a million values")
    assert len(svg) < 2_000_000 and len(values) > DOT_LIMIT
    root = ET.fromstring(svg)
    columns = [p for p in root.iter("{http://www.w3.org/2000/svg}path") if p.get("class")]
    assert sum(1 for p in columns if p.get("class") == "value-column") == PLOT_WIDTH


def test_sequence_svg_of_nothing_or_zeros():
    for values in ([], [0], [0, 0, 0]):
        ET.fromstring(sequence_svg(values, "empty"))


def test_sweeps_over_single_heaps_of_grundys_game_and_hex_codes(capsys):
    code, out, _ = run(capsys, "sweep", "grundys-game", "heaps", "--to", "20")
    records = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert code == 0 and [r["grundy"] for r in records] == A002188[:21]
    code, out, _ = run(capsys, "sweep", "hex", "heaps:0.8", "--to", "12")
    records = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert code == 0 and [r["grundy"] for r in records] == [0, 0, 0, 0] + [
        1,
        1,
        1,
        2,
        2,
        2,
        3,
        3,
        3,
    ]
    code, _, err = run(capsys, "sweep", "hex", "heaps:0.Q", "--to", "3")
    assert code == 2 and "not 0-F" in err


@pytest.mark.parametrize("code", ["4.0", "8.0", "C.", "4."])
def test_a_code_that_only_splits_is_a_game(capsys, code):
    """d0 = 4, 8 or C (split a heap, removing nothing) is a move even when every other digit
    is 0: such a code was refused as allowing no move."""
    parsed = HexCode.parse(code)
    digits = parsed.digits
    expected = [naive_hex_grundy(digits, n) for n in range(13)]
    assert grundy_sequence(parsed, 13) == expected
    assert [solve("hex", f"{code}:{n}", method="generic").grundy for n in range(13)] == expected
    status, out, err = run(capsys, "classic", "sequence", "hex", code, "--to", "12", "--json")
    assert status == 0, err
    assert json.loads(out)["grundy"] == expected
