"""The process's shared tables (octal sequences, Grundy's game, Wythoff's staircase, the
core's heap table) give every thread the values one thread alone computes: threads that
extend one table at once wait for each other instead of growing it twice or resizing it
under a reader."""

from __future__ import annotations

import random
import sys
import threading

import pytest

from cgframework.authoring import HeapRuleset
from cgframework.heaps.table import HeapTable
from cgframework_classic.engine import GrundySequence, TakeAndBreak
from cgframework_classic.heaps import OctalCode
from cgframework_classic.solvers import OctalTable
from cgframework_classic.wythoff import GrundyTable

THREADS = 8


@pytest.fixture(autouse=True)
def _switch_often():
    """Threads switch every 10 microseconds: races show within a few hundred heaps."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    yield
    sys.setswitchinterval(before)


def _in_threads(work) -> list:
    """``work(i)`` in THREADS threads started together; their answers, or the first error."""
    start = threading.Barrier(THREADS, timeout=60)
    answers: list = [None] * THREADS
    errors: list[BaseException] = []

    def run(i: int) -> None:
        start.wait()
        try:
            answers[i] = work(i)
        except BaseException as exc:  # noqa: BLE001 (handed to the test)
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return answers


class TakeOneTwoFiveOrHalve(HeapRuleset):
    name = "test-take-125-or-halve"

    def heap_options(self, n):
        for k in (1, 2, 5):
            if k <= n:
                yield (n - k,)
        if n % 2 == 0 and n:
            yield (n // 2, n // 2)


@pytest.mark.parametrize("kind", ["heap-table", "grundy-sequence", "octal-table", "wythoff"])
def test_threads_extending_one_table_get_the_values_one_thread_gets(kind):
    """Heap tables: each thread holds a view of the table while the others grow it (a resize
    in place under a view raised BufferError); the octal table and Wythoff's staircase: many
    threads asking values at once (Wythoff's masks went wrong, and so did its values)."""
    rng = random.Random(7)
    middle = threading.Barrier(THREADS, timeout=30)  # (a thread that failed breaks it)
    if kind in ("heap-table", "grundy-sequence"):
        if kind == "heap-table":
            reference, shared = (HeapTable(TakeOneTwoFiveOrHalve()) for _ in range(2))
            most = 4000
        else:  # Kayles, the Python path (no kernel): a slow one
            rules = TakeAndBreak.of_digits(OctalCode.parse("0.77").nonzero())
            reference, shared = (GrundySequence(rules, compiled=False) for _ in range(2))
            most = 3000
        reference.extend(most)
        sizes = [rng.randrange(most // 8, most) for _ in range(THREADS)]

        def work(i):
            shared.extend(sizes[i] // 4)
            view = shared.computed  # held while the other threads grow the table
            middle.wait()
            shared.extend(sizes[i])
            return list(view[: sizes[i] // 4]) + list(shared.values[sizes[i] // 4 : sizes[i]])

        expected = [list(reference.values[:s]) for s in sizes]
    elif kind == "octal-table":
        code = OctalCode.parse("0.137")
        reference = OctalTable()
        heaps = [rng.randrange(0, 20_000) for _ in range(THREADS * 20)]
        expected_all = [reference.grundy(code, n) for n in heaps]
        shared = OctalTable()

        def work(i):
            return [shared.grundy(code, n) for n in heaps[i::THREADS]]

        expected = [expected_all[i::THREADS] for i in range(THREADS)]
    else:
        reference = GrundyTable()
        pairs = [(rng.randrange(0, 300), rng.randrange(0, 300)) for _ in range(THREADS * 30)]
        expected_all = [reference(a, b) for a, b in pairs]
        shared = GrundyTable()

        def work(i):
            return [shared(a, b) for a, b in pairs[i::THREADS]]

        expected = [expected_all[i::THREADS] for i in range(THREADS)]
    assert _in_threads(work) == expected
