"""What the classic plugin tells the core about take-and-break codes (hook
``register_heap_engines``): for a heap rule that is a code, the compiled sequence engine
(:mod:`cgframework_classic.engine`: the kernel and the sparse-space method), periods *proved*
by the periodicity theorem for take-and-break codes (Guy & Smith 1956; Winning Ways ch. 4;
:mod:`cgframework_classic.periodicity`), the stability of misère quotients
(:func:`cgframework_classic.quotient.stable_images`), and that finite octal codes have no
saltus (Horrocks & Nowakowski 2003); for Grundy's game, the compiled engine alone (no
theorem is known).

A rule is a code when it is one of this plugin's (octal, hex, subtraction, Kayles, Dawson's
Kayles), or when any plugin's ``HeapRuleset`` declares one (``take_and_break = "0.77"``):
its ``heap_options`` are then checked against the code's moves on the first
:data:`CHECKED_HEAPS` heaps, and a rule that contradicts its declaration is refused
(:class:`~cgframework.RulesetError`), never served wrong values.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cgframework import HeapEngine, KnownHeapRule, RulesetError
from cgframework.heaps.rules import heap_results
from cgframework_classic.engine import GrundySequence, TakeAndBreak
from cgframework_classic.heaps import CodeRule, GrundysGame, OctalCode, code_of_text
from cgframework_classic.periodicity import PeriodWatcher
from cgframework_classic.quotient import stable_images

CHECKED_HEAPS = 40
"""A declared code is checked against the rule's ``heap_options`` on heaps 1..this."""

THEOREM = "the periodicity theorem for take-and-break codes (Guy & Smith 1956; Winning Ways ch. 4)"
"""Named in outputs for a code whose moves leave at most two heaps (octal codes)."""
THEOREM_THREE_HEAPS = (
    "the periodicity theorem for take-and-break codes, in its form for moves leaving three "
    "heaps (3i + 2p + t values: cgframework_classic.periodicity)"
)
"""Named for a hexadecimal code with bit 8: Guy & Smith's bound does not carry over, and the
form proved in :mod:`cgframework_classic.periodicity` is applied instead."""


class KnownCode(KnownHeapRule):
    """A take-and-break code: compiled values, proved periods, stable quotients."""

    def __init__(self, code: OctalCode) -> None:
        self.octal_code = code
        self.label = f"{code.kind} {code}"
        self.code = str(code)
        self.theorem = THEOREM if code.heaps_left <= 2 else THEOREM_THREE_HEAPS

    def sequence(self) -> GrundySequence:
        return GrundySequence(TakeAndBreak.of_digits(self.octal_code.nonzero()))

    def period_watcher(self) -> PeriodWatcher:
        return PeriodWatcher.for_code(self.octal_code)

    def stable_images(self, images: Sequence[int]) -> tuple[int, int] | None:
        return stable_images(self.octal_code, images)

    def saltus_possible(self) -> bool:
        return self.octal_code.heaps_left > 2  # finite octal codes: none (Horrocks & Nowakowski)


class KnownGrundysGame(KnownHeapRule):
    """Grundy's game: the compiled engine (its split must be unequal: no code, no theorem)."""

    def sequence(self) -> GrundySequence:
        return GrundySequence(TakeAndBreak.grundys_game())


def _declared(rule: Any, text: str) -> KnownCode:
    """The code a rule declares, checked against its ``heap_options``."""
    name = getattr(rule, "name", "?")
    try:
        code, _ = code_of_text(text)
    except ValueError as exc:
        raise RulesetError(
            f"ruleset {name!r} declares take_and_break = {text[:40]!r}: {exc}"
        ) from None
    for n in range(1, CHECKED_HEAPS + 1):
        declared = {tuple(sorted(left)) for _, left in code.results(n)}
        written = {tuple(sorted(left)) for left in heap_results(rule, n, rule.heap_options)}
        if declared != written:
            extra = sorted(written - declared) or sorted(declared - written)
            which = "has" if written - declared else "lacks"
            raise RulesetError(
                f"ruleset {name!r} declares take_and_break = {text[:40]!r}, but its "
                f"heap_options({n}) {which} the option {extra[0]!r} the code "
                f"{'does not give' if which == 'has' else 'gives'}"
            )
    return KnownCode(code)


def serves(rule: Any) -> KnownHeapRule | None:
    """What this plugin knows of ``rule``: a code of its own, a declared one, Grundy's game."""
    if isinstance(rule, CodeRule):
        return KnownCode(rule.octal_code)
    if isinstance(rule, GrundysGame):
        return KnownGrundysGame()
    declared = getattr(rule, "take_and_break", None)
    if isinstance(declared, str) and rule.impartial:
        return _declared(rule, declared)
    return None


ENGINE = HeapEngine(
    "take-and-break",
    serves,
    "take-and-break codes (octal, hexadecimal, subtraction sets; a HeapRuleset's declared "
    "take_and_break): the compiled kernel with sparse space, periods proved by the "
    "periodicity theorem, stable misère quotients; Grundy's game: the compiled kernel",
)
