"""Certificates of format version 4: value lines, value terms and equal-sum rewrite nodes.

The writer's files verify (one process and several, the same bytes each time); each new kind
of line and node is forged here and must be refused by the checker's own code: a rewrite
whose sums differ, a value line that refers forward or out of range, a move in a term to no
option, a losing node that leaves a term's option unanswered, a decided node whose terms say
otherwise, and a rewrite past its term budget (a limit: exit 3)."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import subprocess
import sys

import pytest

from cgframework.proofs import check_certificate
from cgframework.proofs.checker import TERMS_VERSION
from cgframework.proofs.writer import build_certificate, write_certificate
from cgframework.runtime.budget import LimitExceeded
from cgframework.testing import run_cli
from tests.test_certificate_values import refused

ZERO, STAR, ONE = {"value": [[], []]}, {"value": [[0], [0]]}, {"value": [[0], []]}


def header(**changes):
    """A version 4 header of Clobber ``xo`` (value *, so N: each player wins moving first)."""
    found = {
        "format": "cgframework-certificate",
        "version": TERMS_VERSION,
        "generator": "test",
        "ruleset": "clobber",
        "ruleset_version": "1",
        "position": "xo",
        "left_first": "L",
        "right_first": "R",
        "outcome": "N",
        "roots": {"left_first": 2, "right_first": 5},
        "leaves": 0,
        "leaf_budget": 0,
        "value_budget": 10,
        "term_budget": 10,
    }
    found.update(changes)
    return found


def honest():
    """Value lines 0 = {|} and 1 = * = {0|0}; ``xo`` rewritten to the term *, then a move
    in the term to its option 0 (a dead term, left out): the other player cannot move."""
    return [
        ZERO,
        STAR,
        [[], "R", "L", []],  # node 0
        [[1], "L", "W", ["#0", 0]],  # node 1
        [["xo"], "L", "W", ["=", [[[1], [1]]], 1]],  # node 2: xo = *
        [[], "L", "L", []],  # node 3
        [[1], "R", "W", ["#0", 3]],  # node 4
        [["xo"], "R", "W", ["=", [[[1], [1]]], 4]],  # node 5
    ]


def write(path, lines, **changes):
    body = b"".join(json.dumps(line, separators=(",", ":")).encode() + b"\n" for line in lines)
    head = header(**changes)
    head.setdefault("nodes", sum(isinstance(line, list) for line in lines))
    head.setdefault("value_lines", sum(isinstance(line, dict) for line in lines))
    head["sha256"] = hashlib.sha256(body).hexdigest()
    with open(path, "wb") as out:
        out.write(gzip.compress(json.dumps(head).encode() + b"\n" + body))
    return path


@pytest.fixture
def path(tmp_path):
    return str(tmp_path / "proof.gz")


def test_an_honest_hand_made_certificate_verifies(path):
    report = check_certificate(write(path, honest()))
    assert report.outcome.value == "N"
    assert (report.rewrites, report.value_lines, report.nodes) == (2, 2, 6)


def test_a_rewrite_whose_sums_differ_is_refused(path):
    lines = honest()
    lines.insert(2, ONE)  # line 2 = 1, not * : xo is not 1
    lines[4] = [[2], "L", "W", ["#0", 0]]
    lines[5] = [["xo"], "L", "W", ["=", [[[1], [2]]], 1]]
    refused(write(path, lines), "node 2", "not equal games")


def test_a_rewrite_to_another_position_or_claim_is_refused(path):
    lines = honest()
    lines[4] = [["xo"], "L", "W", ["=", [[[1], [1]]], 0]]  # node 0 is not [*], left to move
    refused(write(path, lines), "node 2", "which makes the other claim")
    lines = honest()
    lines.insert(2, ONE)
    lines[4] = [[2], "L", "W", ["#0", 0]]  # node 1 proves [1], not [*]
    refused(write(path, lines), "node 2", "not node 1's")


@pytest.mark.parametrize(
    ("form", "words"),
    [([[1], []], "option 1 is not the number of an earlier value line"), ([[9], [0]], "option 9")],
)
def test_a_value_line_referring_forward_or_out_of_range_is_refused(path, form, words):
    lines = honest()
    lines[1] = {"value": form}
    refused(write(path, lines), "value line 1", words)


def test_a_malformed_value_line_or_term_is_refused(path):
    lines = honest()
    lines[1] = {"value": [[0]]}
    refused(write(path, lines), "value line 1: not")
    lines = honest()
    lines[3] = [[7], "L", "W", ["#0", 0]]  # no value line 7 (yet)
    refused(write(path, lines), "node 1", "value term 7")
    lines = honest()
    lines[3] = [[0], "L", "W", ["#0", 0]]  # line 0 has no option: a dead term
    refused(write(path, lines), "node 1", "dead term")


def test_a_move_in_a_term_to_no_option_is_refused(path):
    lines = honest()
    lines[3] = [[1], "L", "W", ["#1", 0]]  # * has one Left option, #0
    refused(write(path, lines), "node 1", "not an option of its value term")
    lines[3] = [[1], "L", "W", ["#x", 0]]
    refused(write(path, lines), "node 1", "not an option of its value term")


def test_a_losing_node_missing_a_terms_option_is_refused(path):
    lines = honest()
    lines[3] = [[1], "L", "L", []]  # Left can move in * (to 0): not answered
    refused(write(path, lines), "node 1", "no reply to move '#0'")


def test_a_decided_node_whose_terms_say_otherwise_is_refused(path):
    lines = honest()
    lines[3] = [[1], "L", "L", "values"]  # * is a first player win
    refused(write(path, lines), "node 1", "values show that left to move wins")


def test_terms_have_no_brute_force_or_lemma_leaves(path):
    for kind in ("search", "lemma"):
        lines = honest()
        lines[3] = [[1], "L", "W", kind]
        refused(write(path, lines), "node 1", f"a {kind!r} leaf with value terms")


def test_a_rewrite_past_its_term_budget_is_a_limit(path, capsys):
    """``xoxo`` reaches more than one live position: a term budget of 1 is too small for the
    checker to value it, a limit the file set itself (exit 3, as at the checker's limits)."""
    lines = honest()
    lines[4] = [["xoxo"], "L", "W", ["=", [[[1], [1]]], 1]]
    write(path, lines, term_budget=1)
    with pytest.raises(LimitExceeded, match="node 2: its rewrite is past .*term budget 1"):
        check_certificate(path)
    code, out, err = run_cli(capsys, "certificate", "check", path)
    assert code == 3 and "term budget" in err and not out


def test_value_lines_past_the_birthday_limit_are_a_limit(path):
    lines = [ZERO] + [{"value": [[k], []]} for k in range(200)] + honest()[2:]
    with pytest.raises(LimitExceeded, match="birthday"):
        check_certificate(write(path, lines))


def test_the_header_counts_the_value_lines(path):
    refused(write(path, honest(), value_lines=3), "3 value lines")
    refused(write(path, honest(), term_budget=10**9), "rewrites of components of up to")


# ---- the writer's version 4 files ---------------------------------------------------------


XO20 = "xo" * 20


@pytest.fixture(scope="module")
def xo20(tmp_path_factory):
    """The writer's certificate of (XO)^20: terms, moves in them, moves rewritten on their
    way (winning moves and replies)."""
    path = str(tmp_path_factory.mktemp("xo20") / "xo20.gz")
    write_certificate(path, "clobber", XO20)
    return path


def read(path):
    with gzip.open(path, "rt") as stream:
        lines = [json.loads(line) for line in stream]
    return lines[0], lines[1:]


def test_the_writer_uses_terms_and_its_file_verifies(xo20):
    head, lines = read(xo20)
    assert head["version"] == TERMS_VERSION
    report = check_certificate(xo20)
    assert report.outcome.value == head["outcome"] == "N"
    assert report.rewrites == head["rewrites"] > 0 and report.value_lines > 0
    nodes = [n for n in lines if isinstance(n, list)]
    wins = [n for n in nodes if n[2] == "W" and isinstance(n[3], list)]
    losing = [n for n in nodes if n[2] == "L" and isinstance(n[3], list)]
    assert any("#" in n[3][0] for n in wins)  # a move in a term
    assert any(len(n[3]) == 3 for n in wins)  # a winning move rewritten on its way
    assert any(isinstance(entry, list) for n in losing for entry in n[3])  # a reply so
    assert any(isinstance(p, int) for n in losing for p in n[0])  # answers to term moves
    assert any(n[3] == "values" and any(isinstance(p, int) for p in n[0]) for n in nodes)
    several = check_certificate(xo20, jobs=2, share_chunk=8)
    assert several.outcome is report.outcome and several.rewrites == report.rewrites


def forge(source, path, change):
    """``source``'s lines changed by ``change(nodes)`` (node lines only, numbered as the
    checker numbers them), written to ``path`` with a fresh hash."""
    head, lines = read(source)
    nodes = [line for line in lines if isinstance(line, list)]
    number = change(nodes)
    body = b"".join(json.dumps(line, separators=(",", ":")).encode() + b"\n" for line in lines)
    head["sha256"] = hashlib.sha256(body).hexdigest()
    with open(path, "wb") as out:
        out.write(gzip.compress(json.dumps(head).encode() + b"\n" + body))
    return path, number


def other_line(head, group):
    """A value line other than the one a group adds (and not 0): its sum is then wrong."""
    added = group[1][0] if group[1] else 0
    return next(k for k in range(1, head["value_lines"]) if k != added)


def test_a_winning_move_rewritten_to_an_unequal_sum_is_refused(xo20, path):
    head, _ = read(xo20)

    def change(nodes):
        number, node = next((i, n) for i, n in enumerate(nodes) if len(n[3]) == 3)
        group = node[3][2][0]
        group[1] = [other_line(head, group)]
        return number

    forged, number = forge(xo20, path, change)
    refused(forged, f"node {number}:", "not equal games")


def test_a_reply_rewritten_to_an_unequal_sum_is_refused(xo20, path):
    head, _ = read(xo20)

    def change(nodes):
        for number, node in enumerate(nodes):
            entries = [e for e in node[3] if isinstance(e, list)] if node[2] == "L" else []
            if entries and isinstance(node[3], list):
                group = entries[0][1][0]
                group[1] = [other_line(head, group)]
                return number
        raise AssertionError("no rewritten reply")

    forged, number = forge(xo20, path, change)
    refused(forged, f"node {number}:", "not equal games")


def test_a_rewritten_reply_for_no_move_is_refused(xo20, path):
    def change(nodes):
        for number, node in enumerate(nodes):
            if node[2] == "L" and isinstance(node[3], list):
                entries = [e for e in node[3] if isinstance(e, list)]
                if entries:
                    node[3].append(["9:9>9,9", entries[0][1], entries[0][2]])
                    return number
        raise AssertionError("no rewritten reply")

    forged, number = forge(xo20, path, change)
    refused(forged, f"node {number}:", "which is no move")


def test_the_writer_is_deterministic_and_terms_can_be_turned_off(tmp_path):
    first = build_certificate("clobber", XO20).data
    assert build_certificate("clobber", XO20).data == first
    plain = build_certificate("clobber", "xo" * 10, term_budget=0)
    assert plain.header["version"] == 3 and "term_budget" not in plain.header
    path = str(tmp_path / "plain.gz")
    with open(path, "wb") as out:
        out.write(plain.data)
    assert check_certificate(path).outcome.value == "N"


def test_the_same_file_whatever_the_hash_seed(tmp_path):
    """The writer's choices (terms, their lines, the moves) depend on the position alone, not
    on the order of a process's sets of texts: two processes, two hash seeds, one file."""
    files = []
    for seed in ("1", "2"):
        path = str(tmp_path / f"seed{seed}.gz")
        code = "from cgframework.proofs import write_certificate as w; "
        code += f"w({path!r}, 'clobber', 'checker:3x4')"
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run([sys.executable, "-c", code], check=True, env=env)
        with open(path, "rb") as data:
            files.append(data.read())
    assert files[0] == files[1]
    with gzip.open(str(tmp_path / "seed1.gz"), "rt") as stream:
        assert json.loads(stream.readline())["version"] == TERMS_VERSION


def test_terms_make_a_smaller_proof():
    with_terms = build_certificate("clobber", "xo" * 13)
    without = build_certificate("clobber", "xo" * 13, term_budget=0)
    assert with_terms.nodes < without.nodes
