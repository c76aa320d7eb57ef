"""Misère quotients (``cgframework_classic.quotient``, ``cgf classic quotient``).

Every quotient's outcomes are checked against the core's misère brute force
(``cgframework.solvers.misere``, which searches the whole sum) on many random sums. The
published facts asserted here are only those a source confirms:

- Plambeck & Siegel, "Misère quotients for impartial games", JCTA 115 (2008): every misère
  quotient of impartial games has even order (restated in Rubinstein-Salzedo & Zhou, "Finite
  cardinalities of misère quotients", arXiv:2603.18244, §1).
- Bouton (1902), Winning Ways ch. 13: a sum of nim heaps is a misère P-position iff all
  heaps are <= 1 and their number is odd, or some heap is >= 2 and the nim-sum is 0. For
  heaps up to 3 (octal 0.333 acts as nim there) the classes are then: an even or odd number
  of 1-heaps only (2 classes), or a heap >= 2 with nim-sum 0..3 (4 classes): order 6.

Other quotients (0.75, Kayles, Dawson's Kayles, ...) are checked against brute force only;
their presentations are regression values of this code, not published numbers.
"""

from __future__ import annotations

import itertools
import json
from functools import cache, reduce
from operator import xor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework.extensions import SolveContext
from cgframework.solvers.misere import MisereSearch
from cgframework.testing import run_cli as run
from cgframework_classic.heaps import CodedHeaps, OctalCode, OctalRuleset
from cgframework_classic.quotient import misere_quotient

CODES = {"0.75": 10, "0.77": 9, "0.137": 10, "0.007": 10, "0.3333": 6, "0.07": 10}
"""Codes and --max-heap checked against brute force (0.3333 is nim for heaps <= 4)."""


@cache
def quotient(code: str, max_heap: int):
    return misere_quotient(code, max_heap)


@cache
def brute(code: str) -> MisereSearch:
    return MisereSearch(OctalRuleset(), SolveContext())


def brute_outcome(code: str, heaps) -> str:
    position = CodedHeaps(tuple(heaps), OctalCode.parse(code))
    return "N" if brute(code).misere_grundy(position) else "P"


def octal_moves(digits: tuple[int, ...], heaps: tuple[int, ...]):
    """Octal 0.d1d2... written out here (Winning Ways ch. 4), independent of the plugin."""
    for i, h in enumerate(heaps):
        rest = heaps[:i] + heaps[i + 1 :]
        for k, digit in enumerate(digits, start=1):
            left = h - k
            if left == 0 and digit & 1:
                yield tuple(sorted(rest))
            if left >= 1 and digit & 2:
                yield tuple(sorted(rest + (left,)))
            if left >= 2 and digit & 4:
                for a in range(1, left // 2 + 1):
                    yield tuple(sorted(rest + (a, left - a)))


@cache
def plain_is_p(digits: tuple[int, ...], heaps: tuple[int, ...]) -> bool:
    """Misère P-position: some move, and every move to an N-position."""
    moves = set(octal_moves(digits, heaps))
    return bool(moves) and not any(plain_is_p(digits, m) for m in moves)


@pytest.mark.parametrize("code", sorted(CODES))
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_quotient_outcomes_match_core_misere_brute_force(code, data):
    """Random sums of up to 3 heaps: one product per heap in the quotient gives the outcome
    the core's misère search finds by searching the whole sum."""
    n = min(CODES[code], 8)
    heaps = data.draw(st.lists(st.integers(1, n), max_size=3))
    assert quotient(code, CODES[code]).outcome(heaps) == brute_outcome(code, heaps)


@pytest.mark.parametrize("code", sorted(CODES))
def test_quotient_outcomes_on_every_small_sum(code):
    """Every sum of up to 3 heaps (about 2,000 sums over the six codes) against a plain
    misère search written in this file."""
    n = CODES[code]
    digits = tuple(int(ch) for ch in code.split(".")[1])
    q = quotient(code, n)
    for size in range(4):
        for heaps in itertools.combinations_with_replacement(range(1, n + 1), size):
            assert (q.outcome(heaps) == "P") == plain_is_p(digits, heaps), heaps


@pytest.mark.parametrize("code", sorted(CODES))
def test_quotient_has_even_order(code):
    """Plambeck & Siegel (2008): impartial misère quotients have even order."""
    q = quotient(code, CODES[code])
    assert q.order % 2 == 0
    assert 0 not in q.p_portion  # the empty sum: the player to move has no move and wins


def test_nim_quotient_is_bouton_misere_nim():
    """Heaps up to 3: order 6, <a, b | a^2 = 1, b^3 = b>, P-portion {a, b^2} (derived above
    from Bouton's rule), and every sum of up to 6 heaps classified by Bouton's rule."""
    q = quotient("0.3333", 3)
    assert q.order == 6
    assert q.presentation() == "<a, b | a^2 = 1, b^3 = b>"
    assert sorted(q.word(x) for x in q.p_portion) == ["a", "b^2"]
    assert [q.word(q.images[h]) for h in (1, 2, 3)] == ["a", "b", "ab"]
    for size in range(7):
        for heaps in itertools.combinations_with_replacement((1, 2, 3), size):
            small = all(h <= 1 for h in heaps)
            bouton_p = (small and len(heaps) % 2 == 1) or (not small and reduce(xor, heaps) == 0)
            assert (q.outcome(heaps) == "P") == bouton_p, heaps


def test_old_classes_split_when_a_heap_is_added():
    """Kayles: two 5-heaps are indistinguishable from the empty sum among sums of heaps up
    to 8, but the 9-heap tells them apart (9 is P alone, 9+5+5 is N): the quotient of heaps
    up to n is not an extension of that up to n - 1, so it is learned anew each time."""
    q8, q9 = quotient("0.77", 8), quotient("0.77", 9)
    assert q8.element((5, 5)) == q8.element(())
    assert q9.element((5, 5)) != q9.element(())
    assert brute_outcome("0.77", (9,)) == "P" and brute_outcome("0.77", (9, 5, 5)) == "N"


def test_075_quotient_stabilises_and_holds_beyond_max_heap():
    """0.75 (computed here, checked by brute force): order 8, images periodic with period 2
    from heap 8, proved stable with 24 heaps; the periodic images then answer larger heaps."""
    q = misere_quotient("0.75", 24)
    assert q.order == 8 and q.stabilised and (q.period, q.preperiod) == (2, 8)
    assert q.presentation() == "<a, b, c | a^2 = 1, bc = ab, c^2 = b^2, b^3 = b>"
    assert not misere_quotient("0.75", 20).stabilised  # 20 < 2*8 + 2*2 + 2 - 1
    for big in range(25, 41):
        for heaps in [(big,), (big, 1), (big, 2), (big, 5), (big, 3, 1)]:
            assert (q.outcome(heaps) == "P") == plain_is_p((7, 5), heaps), heaps


def test_heaps_above_max_heap_need_a_proof():
    q = quotient("0.77", 9)
    assert not q.stabilised
    with pytest.raises(ValueError, match="not proved stable"):
        q.outcome([10])


def test_quotient_cli_text_json_and_errors(capsys):
    code, out, _ = run(capsys, "classic", "quotient", "0.75", "--max-heap", "10", "--json")
    record = json.loads(out)
    assert code == 0 and record["order"] == 8 and record["p_portion"] == ["a", "b^2"]
    assert record["heap_images"][:5] == ["a", "b", "a", "b", "c"]
    assert record["stabilised"] is False and record["generators"] == {"a": 1, "b": 2, "c": 5}
    code, out, _ = run(capsys, "classic", "quotient", "{1,2,3}", "--max-heap", "12")
    assert code == 0 and "order 6" in out and "stabilised    proved" in out
    code, _, err = run(capsys, "classic", "quotient", "0.79")
    assert code == 2 and len(err.strip().splitlines()) == 1
    code, _, err = run(capsys, "classic", "quotient", "0.77", "--max-heap", "0")
    assert code == 2
    code, _, err = run(capsys, "classic", "quotient", "kayles", "--max-order", "10")
    assert code == 3 and "--max-order" in err and len(err.strip().splitlines()) == 1
