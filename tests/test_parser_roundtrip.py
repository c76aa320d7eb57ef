"""Every ruleset reads back what it prints, ``parse(format(p)) == p``, for
random positions and sums of them, and ``cgf solve`` accepts the printed text.

Random positions are random walks from the ruleset's own examples (moves of either player),
so every ruleset installed is covered without a generator of its own."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cgframework.game import (
    Player,
    Sum,
    canonical_key,
    format_position,
    options,
    parse_position,
)
from cgframework.plugins import get_registry
from cgframework.testing import run_cli

REGISTRY = get_registry()
NAMES = sorted(n for n, rs in REGISTRY.rulesets.items() if list(rs.examples()))


def random_position(rs, seed: int, steps: int):
    """A position reached from one of the ruleset's examples by up to ``steps`` random moves."""
    rng = random.Random(seed)
    examples = list(rs.examples())
    position = parse_position(rs, rng.choice(examples))
    for _ in range(steps):
        moves = options(rs, position, rng.choice((Player.LEFT, Player.RIGHT)))
        if not moves:
            break
        position = rng.choice(moves).result
    if isinstance(position, Sum) and len(position.parts) == 1:
        position = position.parts[0]
    return position


def summable(position) -> bool:
    """A pizza variant's position after a pass (or at the end) is a state of the whole
    game, not a board that can be added to another."""
    return not (getattr(position, "passed", False) or getattr(position, "over", False))


def joins_sums(rs) -> bool:
    """A ruleset with ``sum_separator = None`` writes a sum its own way (the digraph rulesets:
    several tokens on one graph), so printed positions are not joined with `` + ``."""
    return rs.sum_separator is not None


def summands(position):
    return position.parts if isinstance(position, Sum) else (position,)


RELABELLED = {"pizza", "pizza-a", "pizza-p", "pizza-s"}
"""Rulesets whose positions keep the vertex numbers of the board they came from, while the
printed board is numbered afresh: equal up to that renumbering (same canonical key)."""


def assert_reads_back(rs, position):
    text = format_position(rs, position)
    again = parse_position(rs, text)
    assert format_position(rs, again) == text
    if rs.name in RELABELLED:
        assert canonical_key(rs, again) == canonical_key(rs, position), text
    elif isinstance(position, Sum) or isinstance(again, Sum):
        assert summands(again) == summands(position), text
    else:
        assert again == position, text


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seeds=st.lists(st.integers(0, 10**6), min_size=1, max_size=3), steps=st.integers(0, 4))
def test_parse_format_round_trip(name, seeds, steps):
    rs = REGISTRY.rulesets[name]
    parts = [random_position(rs, seed, steps) for seed in seeds]
    for part in parts:
        assert_reads_back(rs, part)
    parts = [p for p in parts if summable(p)]
    if len(parts) > 1 and joins_sums(rs):  # a sum, read by the ruleset or the core
        total = parse_position(rs, " + ".join(format_position(rs, p) for p in parts))
        assert_reads_back(rs, total)


@pytest.mark.parametrize("name", NAMES)
def test_printed_sum_accepted_by_cgf_solve(capsys, name):
    rs = REGISTRY.rulesets[name]
    parts = [p for p in (random_position(rs, seed, 2) for seed in (1, 2)) if summable(p)]
    parts = parts if joins_sums(rs) else parts[:1]
    text = format_position(
        rs, parse_position(rs, " + ".join(format_position(rs, p) for p in parts))
    )
    code, _, err = run_cli(capsys, "solve", name, text, "--max-nodes", "3000")
    assert code in (0, 3), err


def test_sum_splitter_influence_arcs(capsys):
    """The ``>`` of an arc is not a bracket: a printed influence sum reads back."""
    code, out, err = run_cli(capsys, "solve", "influence", "LR:0>1 + LR:1>0", "--json")
    assert code == 0, err
    assert '"position": "LR:0>1 + LR:1>0"' in out
