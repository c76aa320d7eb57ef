"""Value leaves of certificates: the checker's own canonical values (``cgframework.proofs.values``)
agree with the core's as games, on random small positions of several rulesets; certificates with
value leaves are written and verified; a tampered value leaf is refused; version 1 files still
check."""

from __future__ import annotations

import functools
import gzip
import hashlib
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from position_strategies import board, row

from cgframework.extensions import SolveContext
from cgframework.game import Outcome, Player, parse_position
from cgframework.plugins import resolve_ruleset
from cgframework.proofs import (
    CertificateError,
    build_certificate,
    check_certificate,
    write_certificate,
)
from cgframework.proofs import checker as checker_module
from cgframework.proofs import values as values_module
from cgframework.proofs.checker import Parts
from cgframework.proofs.values import Values, ValueTooBig
from cgframework.runtime.budget import LimitExceeded
from cgframework.solvers.canonical import canonical_value
from cgframework.solvers.outcome import outcome_of
from cgframework.testing import run_cli
from cgframework.values import canonical as core

SETTINGS = settings(
    max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)


POSITIONS = st.one_of(
    st.tuples(st.just("clobber"), board("xxoo.", 3, 3)),
    st.tuples(
        st.just("clobber"), st.lists(row("xo.", 1, 5), min_size=1, max_size=3).map(" + ".join)
    ),
    st.tuples(st.just("domineering"), board("...#", 3, 4)),
    st.tuples(st.just("toads-and-frogs"), row("TTFF..", 1, 7)),
    st.tuples(
        st.just("hackenbush"),
        st.lists(row("BRG", 1, 4), min_size=1, max_size=3).map(" + ".join),
    ),
)


def as_core(values: Values, g: int) -> core.CanonicalGame:
    """The game ``g`` of the checker's value code as a game of the core (option by option)."""
    return core.game(
        [as_core(values, h) for h in values.lefts[g]],
        [as_core(values, h) for h in values.rights[g]],
    )


def assert_canonical(values: Values, g: int, theirs: core.CanonicalGame) -> None:
    """``g`` is the core's canonical form option for option (not only an equal game)."""
    for mine, their in ((values.lefts[g], theirs.left), (values.rights[g], theirs.right)):
        assert len(mine) == len(their)
        for h in mine:
            option = as_core(values, h)
            assert option in their
            assert_canonical(values, h, option)


@SETTINGS
@given(POSITIONS)
def test_the_checkers_values_are_the_cores(case):
    name, text = case
    ruleset = resolve_ruleset(name)
    position = parse_position(ruleset, text)
    parts_of = Parts(ruleset)
    values = Values(parts_of)
    mine = values.total(values.value(t, c, 100_000) for t, c in parts_of.split(position))
    theirs = canonical_value(ruleset, position, SolveContext())
    ours = as_core(values, mine)
    assert core.le(ours, theirs) and core.le(theirs, ours), (text, str(ours), str(theirs))
    assert_canonical(values, mine, theirs)
    outcome = outcome_of(ruleset, position, SolveContext(), False)
    assert values.mover_wins(mine, Player.LEFT) == (outcome in (Outcome.L, Outcome.N))
    assert values.mover_wins(mine, Player.RIGHT) == (outcome in (Outcome.R, Outcome.N))
    assert as_core(values, values.negative(mine)) is core.negate(theirs)
    for player, winners in (
        (Player.LEFT, (Outcome.L, Outcome.N)),
        (Player.RIGHT, (Outcome.R, Outcome.N)),
    ):
        fresh = Values(Parts(ruleset))  # (a leaf's sum: two halves compared, never added)
        wins = fresh.sum_wins(parts_of.split(position), player, 100_000)
        assert wins == (outcome in winners), (text, player)


@pytest.mark.parametrize(
    ("name", "text", "value"),
    [
        ("clobber", "xo", core.nimber(1)),  # * (Albert, Nowakowski, Wolfe, Lessons in Play)
        ("clobber", "xxo", core.up(1)),  # ^ (ibid.)
        ("domineering", "..|..", core.game([core.number(1)], [core.number(-1)])),  # +-1
        ("domineering", "...", core.number(-1)),  # Right's one move: -1
    ],
)
def test_values_of_known_games(name, text, value):
    ruleset = resolve_ruleset(name)
    parts_of = Parts(ruleset)
    values = Values(parts_of)
    [(t, c)] = parts_of.split(parse_position(ruleset, text))
    assert as_core(values, values.value(t, c, 100)) is value


def test_the_value_code_has_limits():
    ruleset = resolve_ruleset("clobber")
    parts_of = Parts(ruleset)
    values = Values(parts_of)
    [(t, c)] = parts_of.split(parse_position(ruleset, "xoxo|oxox"))
    with pytest.raises(ValueTooBig, match="more than 5 positions"):
        values.value(t, c, 5)
    values.work_limit = 10
    with pytest.raises(ValueTooBig, match="more than 10 steps"):
        values.sum_wins([(t, c)], Player.LEFT, 100_000)


# ---- certificates with value leaves ------------------------------------------------------------


def unpack(path):
    with gzip.open(path, "rb") as stream:
        lines = stream.read().split(b"\n")[:-1]
    return json.loads(lines[0]), [json.loads(line) for line in lines[1:]]


def pack(path, header, nodes):
    body = b"".join(json.dumps(node, separators=(",", ":")).encode() + b"\n" for node in nodes)
    header = {**header, "sha256": hashlib.sha256(body).hexdigest(), "nodes": len(nodes)}
    with open(path, "wb") as out:
        out.write(gzip.compress(json.dumps(header).encode() + b"\n" + body))


CASES = [
    ("clobber", "xoxox|oxoxo"),
    ("clobber", "xoxoxoxoxoxo"),
    ("domineering", "....|....|...."),
    ("toads-and-frogs", "TTT..FFF"),
    ("hackenbush", "BRRB + RBG + GGB"),
]


@pytest.mark.parametrize(("name", "text"), CASES)
def test_certificates_with_value_leaves_check(tmp_path, name, text):
    ruleset = resolve_ruleset(name)
    position = parse_position(ruleset, text)
    path = str(tmp_path / "proof.gz")
    built = write_certificate(path, ruleset, position, leaf_budget=0, value_budget=200)
    report = check_certificate(path)
    assert report.value_leaves > 0 and report.value_leaves == built.header["value_leaves"]
    assert report.outcome is built.outcome is outcome_of(ruleset, position, SolveContext(), False)
    plain = write_certificate(
        str(tmp_path / "plain.gz"), ruleset, position, leaf_budget=0, value_budget=0
    )
    assert built.nodes < plain.nodes


@functools.cache
def clobber_proof() -> bytes:
    """A certificate of 3x4 Clobber (P) with value leaves, some lost and some won for the mover."""
    return build_certificate("clobber", "xoxo|oxox|xoxo", value_budget=30, term_budget=0).data


@pytest.fixture
def proof(tmp_path):
    path = str(tmp_path / "proof.gz")
    with open(path, "wb") as out:
        out.write(clobber_proof())
    check_certificate(path)
    return path


def refused(path, *words):
    with pytest.raises(CertificateError) as caught:
        check_certificate(path)
    for word in words:
        assert word in str(caught.value), str(caught.value)


def value_leaf(nodes, claim=None):
    return next(i for i, n in enumerate(nodes) if n[3] == "values" and claim in (None, n[2]))


@pytest.mark.parametrize("claim", ["W", "L"])
def test_a_wrong_value_leaf_claim_is_refused(proof, claim):
    header, nodes = unpack(proof)
    number = value_leaf(nodes, claim)
    nodes[number][2] = "L" if claim == "W" else "W"
    pack(proof, header, nodes)
    refused(proof, f"node {number}:", "values show that")


def test_a_changed_component_of_a_value_leaf_is_refused(proof, capsys):
    header, nodes = unpack(proof)
    number = value_leaf(nodes, "L")
    nodes[number][0] = sorted([*nodes[number][0], "xo"])  # one * more: the mover now wins
    pack(proof, header, nodes)
    refused(proof, f"node {number}:", "values show that")
    code, _, err = run_cli(capsys, "certificate", "check", proof)
    assert code == 1 and "values show that" in err and err.count("\n") == 1


def test_a_value_leaf_past_its_budget_is_refused(proof, capsys):
    header, nodes = unpack(proof)
    header["value_budget"] = 2
    pack(proof, header, nodes)
    refused(proof, "past the checker's limits", "more than 2 positions")
    code, _, err = run_cli(capsys, "certificate", "check", proof)
    assert code == 1, err
    header["value_budget"] = checker_module.MAX_VALUE_BUDGET + 1
    pack(proof, header, nodes)
    refused(proof, "computes at most")


def test_a_big_component_as_a_value_leaf_is_a_limit_not_a_hang(proof, monkeypatch):
    """A hostile value leaf (the whole 4x4 board) stops at the checker's limit of work: a
    limit of this checker (exit 3), not a fault of the file."""
    header, nodes = unpack(proof)
    header["value_budget"] = checker_module.MAX_VALUE_BUDGET
    nodes.insert(0, [["xoxo|oxox|xoxo|oxox"], "L", "W", "values"])
    nodes = [nodes[0]] + [_shift(node) for node in nodes[1:]]
    header["roots"] = {name: root + 1 for name, root in header["roots"].items()}
    pack(proof, header, nodes)
    monkeypatch.setattr(values_module, "MAX_WORK", 2000)
    with pytest.raises(LimitExceeded, match="node 0: .*more than 2000 steps"):
        check_certificate(proof)


def _shift(node):
    proof = node[3]
    if not isinstance(proof, list):
        return node
    if node[2] == "W":
        return [*node[:3], [proof[0], proof[1] + 1]]
    return [*node[:3], [child + 1 for child in proof]]


def test_value_leaves_need_a_version_2_header(proof):
    header, nodes = unpack(proof)
    header["version"] = 1
    del header["value_budget"]
    pack(proof, header, nodes)
    refused(proof, "header allows none")
    header["value_budget"] = 30
    pack(proof, header, nodes)
    refused(proof, "version 1 certificate has no 'value_budget'")
    header["version"] = 5
    pack(proof, header, nodes)
    refused(proof, "version 5 is not supported")


def test_a_version_1_certificate_still_checks(tmp_path):
    ruleset = resolve_ruleset("clobber")
    path = str(tmp_path / "old.gz")
    write_certificate(path, ruleset, parse_position(ruleset, "xoxoxo|ox.oxo"), value_budget=0)
    header, nodes = unpack(path)
    for name in ("value_budget", "value_measure", "value_leaves"):
        del header[name]
    header["version"] = 1
    pack(path, header, nodes)
    report = check_certificate(path)
    assert report.value_leaves == 0 and report.outcome.value == header["outcome"]


def test_a_value_leaf_of_a_huge_heap_is_refused_before_its_work(tmp_path, monkeypatch):
    """A 60-byte leaf, a nim heap of 10^30 with a value budget of 10: its moves name more new
    positions than the budget as soon as eleven are listed, and it is refused then. (It was
    refused only at the value code's limit of work, after two million moves: 35 CPU s and
    840 MB.)"""
    heap = str(10**30)
    body = json.dumps([[heap], "L", "W", "values"]).encode() + b"\n"
    header = {
        "format": "cgframework-certificate",
        "version": 2,
        "generator": "test",
        "ruleset": "nim",
        "ruleset_version": "1",
        "position": heap,
        "left_first": "L",
        "right_first": "R",
        "outcome": "N",
        "roots": {"left_first": 0, "right_first": 0},
        "nodes": 1,
        "leaves": 1,
        "leaf_budget": 0,
        "value_budget": 10,
        "sha256": hashlib.sha256(body).hexdigest(),
    }
    path = str(tmp_path / "heap.gz")
    with open(path, "wb") as out:
        out.write(gzip.compress(json.dumps(header).encode() + b"\n" + body))
    listed = []
    split_result = Parts.split_result

    def counting(self, position):
        listed.append(position)
        return split_result(self, position)

    monkeypatch.setattr(Parts, "split_result", counting)
    monkeypatch.setattr(values_module, "MAX_WORK", 5000)  # (where it stopped before)
    refused(path, "node 0:", "a component of more than 10 positions")
    assert len(listed) <= 20
