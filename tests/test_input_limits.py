"""Oversized input is refused in time proportional to reading it: the nesting pre-scan
(:func:`cgframework.runtime.deep.check_nesting`) and the bracket-aware splitter
(:func:`cgframework.game.top_level_split`) take no Python step per character, so megabytes of
brackets are refused in a fraction of a second, before any parser or ``--timeout`` starts.

Steps are counted with a line tracer (never measured by the clock): the old per-character loops
took several steps per character."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cgframework.game import top_level_split
from cgframework.runtime.deep import MAX_TEXT_NESTING, NestingError, check_nesting
from cgframework.testing import run_cli


def python_lines(fn: Callable[[], Any]) -> int:
    """How many Python lines ``fn()`` runs on this thread."""
    count = 0

    def trace(frame: Any, event: str, arg: Any) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return trace

    sys.settrace(trace)
    try:
        fn()
    except BaseException:  # noqa: S110 (counted either way)
        pass
    finally:
        sys.settrace(None)
    return count


def nesting_by_character(text: str, limit: int, opening: str, prefixes: str) -> bool:
    """The reference: one step per character (True: within the limit)."""
    depth = deepest = run = 0
    for ch in text:
        if ch in opening:
            depth += 1
        elif ch in ")]}>" and depth:
            depth -= 1
        if ch in prefixes:
            run += 1
        elif not ch.isspace():
            run = 0
        deepest = max(deepest, depth + run)
        if deepest > limit:
            return False
    return True


def within(text: str, limit: int, opening: str, prefixes: str) -> bool:
    try:
        check_nesting(text, limit, opening, prefixes)
    except NestingError:
        return False
    return True


@settings(max_examples=400, deadline=None)
@given(
    st.text(alphabet="([{<)]}>~-+ \u00a0\u2003a1é|«", max_size=40),
    st.integers(0, 8),
    st.sampled_from(["([{<", "[{", "{(", "([{", "«{"]),
    st.sampled_from(["", "-", "~-"]),
)
def test_the_pre_scan_agrees_with_the_character_loop(text, limit, opening, prefixes):
    assert within(text, limit, opening, prefixes) == nesting_by_character(
        text, limit, opening, prefixes
    )


def split_by_character(text: str, separator: str) -> list[str]:
    """The reference splitter: one step per character."""
    closer = {"(": ")", "[": "]", "{": "}", "<": ">"}
    pieces, open_brackets, start, i = [], [], 0, 0
    while i < len(text):
        ch = text[i]
        if ch in closer:
            open_brackets.append(closer[ch])
        elif open_brackets and ch == open_brackets[-1]:
            open_brackets.pop()
        elif not open_brackets and text.startswith(separator, i):
            pieces.append(text[start:i])
            start = i = i + len(separator)
            continue
        i += 1
    pieces.append(text[start:])
    return pieces


@settings(max_examples=400, deadline=None)
@given(
    st.text(alphabet="([{<)]}>+ =|a", max_size=40),
    st.sampled_from(["+", " <= ", " < ", "++", "<", "a+a"]),
)
def test_the_splitter_agrees_with_the_character_loop(text, separator):
    assert top_level_split(text, separator) == split_by_character(text, separator)


DEEP = 20_000  # twice MAX_TEXT_NESTING: 40 KB of braces


def test_deep_brackets_are_refused_without_a_step_per_character():
    text = "{" * DEEP + "|" + "}" * DEEP
    steps = python_lines(lambda: check_nesting(text, MAX_TEXT_NESTING))
    assert not within(text, MAX_TEXT_NESTING, "([{<", "")
    assert steps < 100  # the character loop: 3 or more per character
    signs = "-" * (2 * DEEP) + "1"
    assert not within(signs, MAX_TEXT_NESTING, "([{<", "-~")
    assert python_lines(lambda: check_nesting(signs, MAX_TEXT_NESTING, prefixes="-~")) < 100


def test_splitting_text_without_the_separator_takes_no_step_per_character():
    text = "{" * DEEP + "|" + "}" * DEEP
    assert python_lines(lambda: top_level_split(text, " <= ")) < 20


@pytest.mark.parametrize(
    "text",
    [
        "{" * DEEP + "|" + "}" * DEEP,
        "{" * DEEP + " <= " + "}" * DEEP,
        "-" * (2 * DEEP) + "1",
        "(" * DEEP + "1" + ")" * DEEP,
    ],
)
def test_deep_calc_input_is_refused_before_splitting_or_parsing(capsys, text):
    """``cgf calc`` of megabytes of braces spent seconds splitting at comparisons before the
    parser refused it (outside --timeout); now one pass refuses it."""
    run_cli(capsys, "calc", "0")  # (the first call imports the plugins: steps not counted)
    result: list[tuple[int, str, str]] = []
    steps = python_lines(lambda: result.append(run_cli(capsys, "calc", "--", text)))
    code, out, err = result[0]
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"nesting deeper than {MAX_TEXT_NESTING} levels" in err
    assert steps < DEEP  # the old splitter alone: 7 passes of 3+ steps per character
