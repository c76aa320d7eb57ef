"""A search past its ``--timeout`` is stopped by an exception raised in its thread
(:meth:`cgframework.runtime.deep.DeepCall.interrupt`). Wherever that exception lands, the
command ends the same way (exit 3, one line) and no traceback reaches standard error: not
when Python swallows it in a finaliser, not after the search has finished."""

from __future__ import annotations

import sys
import threading
import time

import pytest

from cgframework.runtime.budget import SearchBudget, SearchStopped
from cgframework.runtime.deep import start_deep
from cgframework.solvers import dispatch


@pytest.fixture
def reported(monkeypatch) -> list[BaseException]:
    """What Python would print as a traceback: exceptions it had to ignore, and exceptions
    that ended a thread."""
    seen: list[BaseException] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: seen.append(u.exc_value))
    monkeypatch.setattr(threading, "excepthook", lambda a: seen.append(a.exc_value))
    return seen


def lingering():
    """A generator whose clean-up runs until it is interrupted: dropped unfinished, it is
    closed by its finaliser, where Python ignores any exception (and prints its traceback)."""
    try:
        yield
    finally:
        end = time.monotonic() + 5
        while time.monotonic() < end:
            pass


def test_an_interruption_lost_in_a_finaliser_prints_no_traceback(reported, monkeypatch):
    monkeypatch.setattr(dispatch, "DEADLINE_GRACE", 0.0)
    monkeypatch.setattr(dispatch, "STOP_RETRY_SECONDS", 0.05)

    def search() -> str:
        pending = lingering()
        next(pending)
        del pending  # the finaliser runs the clean-up: the interruption lands in it
        return "ran on"

    with pytest.raises(SearchStopped):
        dispatch.run_deep(search, budget=SearchBudget(timeout=0.05).start())
    assert reported == []


def test_a_finished_call_is_not_interrupted(reported):
    """An interruption that comes after the call has its outcome is not sent: it would land
    in the thread's own bookkeeping (a traceback, a lost result), or in another thread that
    got the same id."""
    call = start_deep(lambda: "done")
    assert call.wait() == "done"
    assert call.interrupt(dispatch._DeadlinePassed) is False
    call.thread.join()
    assert reported == []


def test_a_running_call_is_interrupted(reported):
    def spin() -> str:
        end = time.monotonic() + 10
        while time.monotonic() < end:
            pass
        return "ran on"

    call = start_deep(spin)
    assert call.interrupt(dispatch._DeadlinePassed) is True
    with pytest.raises(dispatch._DeadlinePassed):
        call.wait(10)
    assert reported == []


LATER_TRACED_CALL = """
import sys, time
from cgframework.runtime.budget import SearchBudget, SearchStopped
from cgframework.solvers.dispatch import run_deep

def forever():
    while True:
        pass

try:
    run_deep(forever, budget=SearchBudget(timeout=0.05).start())
except SearchStopped:
    pass
lines = []
sys.settrace(lambda frame, event, arg: lines.append(event) or None)
(lambda: 1)()
sys.settrace(None)
print("traced", len(lines))
"""


def test_an_interrupted_search_leaves_no_interruption_pending_for_the_process():
    """Withdrawing an interruption (``PyThreadState_SetAsyncExc(id, NULL)``) left CPython's
    "pending" flag set: a later call under ``sys.settrace`` (a debugger, coverage) never
    returned. Run in a child, which a hang cannot take down with it."""
    import subprocess

    done = subprocess.run(
        [sys.executable, "-c", LATER_TRACED_CALL], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("traced ")
