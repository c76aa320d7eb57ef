"""Certificates of who wins: what the writer builds the independent checker verifies, for
random small positions of several rulesets; every kind of tampering is refused with exit 1,
one line saying what and where; unreadable files and unknown rulesets are exit 2, limits 3."""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from position_strategies import board, row

from cgframework.extensions import SolveContext
from cgframework.game import Outcome, Player, parse_position
from cgframework.plugins import resolve_ruleset
from cgframework.proofs import (
    CertificateError,
    CertificateUnreadable,
    build_certificate,
    check_certificate,
    write_certificate,
)
from cgframework.proofs import checker as checker_module
from cgframework.proofs import writer as writer_module
from cgframework.proofs.checker import Parts, brute_force_wins
from cgframework.proofs.writer import BruteForceOracle
from cgframework.runtime.budget import LimitExceeded
from cgframework.solvers.outcome import outcome_of
from cgframework.testing import run_cli

SETTINGS = settings(
    max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)


def brute_outcome(ruleset, position) -> Outcome:
    return outcome_of(ruleset, position, SolveContext(), False)


POSITIONS = st.one_of(
    st.tuples(st.just("clobber"), board("xo.", 2, 4)),
    st.tuples(
        st.just("clobber"), st.lists(row("xo", 1, 5), min_size=1, max_size=3).map(" + ".join)
    ),
    st.tuples(st.just("domineering"), board("..#", 4, 4)),
    st.tuples(st.just("cram"), board("..#", 3, 4)),
    st.tuples(st.just("toads-and-frogs"), row("TF..", 1, 8)),
    st.tuples(
        st.just("nim"),
        st.lists(st.integers(0, 5), min_size=1, max_size=3).map(lambda h: ",".join(map(str, h))),
    ),
    st.tuples(
        st.just("kayles"),
        st.lists(st.integers(1, 9), min_size=1, max_size=2).map(lambda h: ",".join(map(str, h))),
    ),
)


@SETTINGS
@given(POSITIONS, st.sampled_from([0, 8, 64]), st.sampled_from([0, 6, 1000]))
def test_certificates_of_random_positions_check(tmp_path_factory, case, leaf_budget, values):
    name, text = case
    ruleset = resolve_ruleset(name)
    position = parse_position(ruleset, text)
    path = str(tmp_path_factory.mktemp("c") / "proof.gz")
    built = write_certificate(path, ruleset, position, leaf_budget=leaf_budget, value_budget=values)
    report = check_certificate(path)
    expected = brute_outcome(ruleset, position)
    assert report.outcome is expected is built.outcome
    assert (report.left_first_wins, report.right_first_wins) == (
        expected in (Outcome.L, Outcome.N),
        expected in (Outcome.R, Outcome.N),
    )
    if leaf_budget == values == 0:
        assert report.leaves == 0
    if values == 0:
        assert report.value_leaves == 0


@pytest.mark.parametrize(("n", "outcome"), [(1, "N"), (2, "N"), (3, "P"), (4, "N"), (7, "N")])
def test_linear_clobber_xo_n(tmp_path, n, outcome):
    """(XO)^n is a first-player win for every n but 3."""
    ruleset = resolve_ruleset("clobber")
    path = str(tmp_path / "xo.gz")
    write_certificate(path, ruleset, parse_position(ruleset, "xo" * n))
    assert check_certificate(path).outcome.value == outcome


def test_the_brute_force_agrees_with_the_solver():
    ruleset = resolve_ruleset("domineering")
    parts_of = Parts(ruleset)
    for text in ["..|..", "...|...", "..#|...|.#.", "....|...."]:
        position = parse_position(ruleset, text)
        expected = brute_outcome(ruleset, position)
        parts = parts_of.split(position)
        left = brute_force_wins(parts_of, parts, Player.LEFT, 100_000)
        right = brute_force_wins(parts_of, parts, Player.RIGHT, 100_000)
        assert Outcome.from_wins(left, right) is expected


# ---- tampering --------------------------------------------------------------------------------


def unpack(path):
    with gzip.open(path, "rb") as stream:
        lines = stream.read().split(b"\n")[:-1]
    return json.loads(lines[0]), [json.loads(line) for line in lines[1:]]


def pack(path, header, nodes, rehash=True):
    body = b"".join(json.dumps(node, separators=(",", ":")).encode() + b"\n" for node in nodes)
    if rehash:
        header = {**header, "sha256": hashlib.sha256(body).hexdigest(), "nodes": len(nodes)}
    with open(path, "wb") as out:
        out.write(gzip.compress(json.dumps(header).encode() + b"\n" + body))


@pytest.fixture
def proof(tmp_path):
    """A certificate of 4x3 Domineering without leaves (every step is a node)."""
    ruleset = resolve_ruleset("domineering")
    path = str(tmp_path / "proof.gz")
    write_certificate(
        path, ruleset, parse_position(ruleset, "...|...|...|..."), leaf_budget=0, value_budget=0
    )
    check_certificate(path)  # sound before tampering
    return path


def refused(path, *words, **options):
    with pytest.raises(CertificateError) as caught:
        check_certificate(path, **options)
    message = str(caught.value)
    for word in words:
        assert word in message, message
    return message


def first(nodes, claim, size=lambda proof: True):
    return next(
        i for i, n in enumerate(nodes) if n[2] == claim and isinstance(n[3], list) and size(n[3])
    )


def last(nodes, claim, size=lambda proof: True):
    return max(
        i for i, n in enumerate(nodes) if n[2] == claim and isinstance(n[3], list) and size(n[3])
    )


def outcome_of_header(header):
    return Outcome.from_wins(header["left_first"] == "L", header["right_first"] == "R").value


def test_a_flipped_root_claim_is_refused(proof):
    header, nodes = unpack(proof)
    header["left_first"] = "R" if header["left_first"] == "L" else "L"
    header["outcome"] = outcome_of_header(header)
    pack(proof, header, nodes)
    refused(proof, "root left_first", "other claim")


def test_a_flipped_node_claim_is_refused(proof):
    header, nodes = unpack(proof)
    number = first(nodes, "L", lambda replies: len(replies) > 0)
    nodes[number][2] = "W"
    nodes[number][3] = ["1,1>2,1", nodes[number][3][0]]
    pack(proof, header, nodes)
    refused(proof, f"node {number}:", "not a loss")


def test_a_missing_reply_is_refused(proof):
    header, nodes = unpack(proof)
    number = first(nodes, "L", lambda replies: len(replies) > 1)
    nodes[number][3].pop()
    pack(proof, header, nodes)
    refused(proof, f"node {number}:", "no reply to move")


def test_a_terminal_claim_with_moves_is_refused(proof):
    header, nodes = unpack(proof)
    number = first(nodes, "L", lambda replies: len(replies) > 0)
    nodes[number][3] = []
    pack(proof, header, nodes)
    refused(proof, f"node {number}:", "no reply to move")


def test_an_extra_reply_is_refused(proof):
    header, nodes = unpack(proof)
    number = last(nodes, "L", lambda replies: len(replies) > 0)
    stranger = next(
        i for i, n in enumerate(nodes[:number]) if n[2] == "W" and i not in nodes[number][3]
    )
    nodes[number][3].append(stranger)
    pack(proof, header, nodes)
    refused(proof, f"node {number}:", "no move leads to it")


def test_an_illegal_winning_move_is_refused(proof):
    header, nodes = unpack(proof)
    number = first(nodes, "W")
    nodes[number][3][0] = "9,9>9,8"
    pack(proof, header, nodes)
    refused(proof, f"node {number}:", "'9,9>9,8' is not a legal option")


def test_a_winning_move_to_the_wrong_node_is_refused(proof):
    header, nodes = unpack(proof)
    number = last(nodes, "W")
    target = nodes[number][3][1]
    other = next(i for i, n in enumerate(nodes[:number]) if n[2] == "L" and i != target)
    nodes[number][3][1] = other
    pack(proof, header, nodes)
    refused(proof, f"node {number}:", "does not lead to node")


def test_a_forward_reference_is_refused_as_a_possible_cycle(proof):
    header, nodes = unpack(proof)
    number = first(nodes, "W")
    nodes[number][3][1] = number
    pack(proof, header, nodes)
    refused(proof, f"node {number}:", "earlier node")


def test_a_wrong_root_position_is_refused(proof):
    header, nodes = unpack(proof)
    header["position"] = "..|..|.."
    pack(proof, header, nodes)
    refused(proof, "root left_first", "not the header's position")


def test_a_changed_node_without_a_new_hash_is_refused(proof):
    header, nodes = unpack(proof)
    number = first(nodes, "L", lambda replies: len(replies) > 1)
    nodes[number][3].reverse()  # still a valid proof: only the hash can tell
    pack(proof, header, nodes, rehash=False)
    refused(proof, "content hash")


def test_an_extra_line_is_refused(proof):
    header, nodes = unpack(proof)
    pack(proof, header, nodes)
    header["nodes"] -= 1
    pack(proof, header, nodes, rehash=False)
    refused(proof, "more data after the last node")


@pytest.mark.parametrize("where", [0.3, 0.6, 0.9])
def test_a_corrupt_byte_is_refused(proof, where):
    data = bytearray(open(proof, "rb").read())
    data[int(len(data) * where)] ^= 0x55
    with open(proof, "wb") as out:
        out.write(data)
    refused(proof)


@pytest.mark.parametrize("keep", [0.0, 0.2, 0.5, 0.95])
def test_a_truncated_file_is_refused(proof, keep):
    data = open(proof, "rb").read()
    with open(proof, "wb") as out:
        out.write(data[: int(len(data) * keep)])
    refused(proof)


def test_a_truncated_node_list_is_refused(proof):
    header, nodes = unpack(proof)
    pack(proof, header, nodes[:-2], rehash=False)
    refused(proof, "truncated")


def test_a_wrong_leaf_is_refused(tmp_path):
    ruleset = resolve_ruleset("clobber")
    path = str(tmp_path / "proof.gz")
    write_certificate(path, ruleset, parse_position(ruleset, "xoxoxoxoxo"), value_budget=0)
    header, nodes = unpack(path)
    number = next(i for i, n in enumerate(nodes) if n[3] == "search")
    nodes[number][2] = "L" if nodes[number][2] == "W" else "W"
    pack(path, header, nodes)
    refused(path, f"node {number}:", "brute force finds")


def test_a_leaf_too_big_for_its_budget_is_refused(tmp_path):
    ruleset = resolve_ruleset("clobber")
    path = str(tmp_path / "proof.gz")
    position = parse_position(ruleset, "xoxoxoxoxo")
    write_certificate(path, ruleset, position, leaf_budget=64, value_budget=0)
    header, nodes = unpack(path)
    header["leaf_budget"] = 1
    pack(path, header, nodes)
    refused(path, "leaf budget of 1")
    header["leaf_budget"] = checker_module.MAX_LEAF_BUDGET + 1
    pack(path, header, nodes)
    refused(path, "this checker searches at most")


def test_json_nested_too_deeply_is_refused(proof):
    header, nodes = unpack(proof)
    body = b"[" * 100_000 + b"]" * 100_000 + b"\n"
    header = {**header, "nodes": 1, "sha256": hashlib.sha256(body).hexdigest()}
    with open(proof, "wb") as out:
        out.write(gzip.compress(json.dumps(header).encode() + b"\n" + body))
    refused(proof, "node 0")


def test_limits_are_limits_not_refusals(proof, monkeypatch):
    with pytest.raises(LimitExceeded, match="more than the limit 3"):
        check_certificate(proof, max_nodes=3)
    monkeypatch.setattr(checker_module, "MAX_LINE_BYTES", 40)
    with pytest.raises(LimitExceeded, match="longer than 40 bytes"):
        check_certificate(proof)


def hand_made_header(ruleset: str, position: str, version: int, roots: tuple[int, int]) -> dict:
    """The header of a hand-made certificate claiming an N-position (Left first, Right first
    at the nodes ``roots``)."""
    return {
        "format": "cgframework-certificate",
        "version": version,
        "generator": "hand-made",
        "ruleset": ruleset,
        "ruleset_version": resolve_ruleset(ruleset).version,
        "position": position,
        "left_first": "L",
        "right_first": "R",
        "outcome": "N",
        "roots": {"left_first": roots[0], "right_first": roots[1]},
    }


def test_a_leaf_of_many_alike_components_is_a_limit_not_hours(tmp_path):
    """A hostile leaf: a thousand ``xo`` components, to be solved by brute force. Alike
    components collapse, so it stays within its 10,000 positions, yet each position copies a
    thousand components a thousand times: 13.7 CPU s a node, hours for a 9 KB file of a
    thousand such nodes. The checker stops at its own limit on the work of one leaf."""
    nodes = [[["xo"] * 1000, "L", "L", "search"]] * 2
    header = hand_made_header("clobber", "xo", version=3, roots=(0, 0))
    header.update(leaves=2, leaf_budget=checker_module.MAX_LEAF_BUDGET, value_budget=0)
    path = str(tmp_path / "hostile.gz")
    pack(path, header, nodes)
    with pytest.raises(LimitExceeded, match="node 0: its leaf costs this checker more than"):
        check_certificate(path)  # (without the limit: 27 CPU s, then refused at the roots)
    parts_of = checker_module.Parts(resolve_ruleset("clobber"))
    small = parts_of.split(parse_position(resolve_ruleset("clobber"), "xo.xo.ox"))
    assert brute_force_wins(parts_of, small, Player.LEFT, 64)  # (a leaf of this writer: cheap)


def test_a_node_with_too_many_moves_is_a_limit(tmp_path, monkeypatch):
    """A hostile one-line node: a nim heap of 10^30 whose claimed winning move comes last
    among its 10^30 moves. The checker went through them for ever; now it stops at a limit."""
    heap = str(10**30)
    nodes = [[[], "R", "L", []], [[heap], "L", "W", [f"{heap}->0", 0]]]
    nodes.append([[heap], "R", "W", [f"{heap}->0", 0]])
    header = hand_made_header("nim", heap, version=1, roots=(1, 2))
    header.update(leaves=0, leaf_budget=0, leaf_measure=checker_module.LEAF_MEASURE)
    path = str(tmp_path / "hostile.gz")
    pack(path, header, nodes)
    monkeypatch.setattr(checker_module, "MAX_MOVES", 1000)
    with pytest.raises(LimitExceeded, match="more than 1000 moves"):
        check_certificate(path)


def test_too_many_components_is_a_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(writer_module, "MAX_COMPONENTS", 3)
    with pytest.raises(LimitExceeded, match="4 components"):
        build_certificate("nim", "1,1,1,1")
    monkeypatch.undo()
    path = str(tmp_path / "proof.gz")
    write_certificate(path, "nim", "1,1,1,1")
    monkeypatch.setattr(checker_module, "MAX_COMPONENTS", 3)
    with pytest.raises(LimitExceeded, match="4 components, more than the limit 3"):
        check_certificate(path)


def test_unknown_ruleset_and_unreadable_file(proof, tmp_path):
    header, nodes = unpack(proof)
    header["ruleset"] = "no-such-game"
    pack(proof, header, nodes)
    with pytest.raises(CertificateUnreadable, match="no-such-game"):
        check_certificate(proof)
    with pytest.raises(CertificateUnreadable, match="cannot read"):
        check_certificate(str(tmp_path / "missing.gz"))


class Liar:
    """A who-wins search that is wrong: the mover always loses."""

    def wins(self, position, player):
        return False


def test_a_wrong_search_gives_a_certificate_the_checker_refuses(tmp_path):
    ruleset = resolve_ruleset("domineering")
    position = parse_position(ruleset, "..|..")
    path = str(tmp_path / "proof.gz")
    write_certificate(path, ruleset, position, Liar(), leaf_budget=0, value_budget=0)
    refused(path, "is not a win for the other player")


def test_names_and_texts_are_accepted():
    built = build_certificate("kayles", "4,2", leaf_budget=0, value_budget=0)
    assert built.header["position"] == "4,2"
    assert built.outcome is brute_outcome(
        resolve_ruleset("kayles"), parse_position(resolve_ruleset("kayles"), "4,2")
    )


def test_the_brute_force_oracle_is_the_default_stand_in():
    ruleset = resolve_ruleset("nim")
    built = build_certificate(
        ruleset, parse_position(ruleset, "1,2,3"), BruteForceOracle(ruleset, SolveContext())
    )
    assert built.outcome is Outcome.P


def test_one_node_per_distinct_position():
    """A sum of equal parts shares its positions: (xo)+(xo)+... grows with n, not 3^n."""
    ruleset = resolve_ruleset("clobber")
    sizes = []
    for n in (4, 8):
        built = build_certificate(
            ruleset, parse_position(ruleset, " + ".join(["xo"] * n)), leaf_budget=0, value_budget=0
        )
        texts = [json.loads(line)[0:2] for line in built.lines()]
        assert len({json.dumps(t) for t in texts}) == len(texts)
        sizes.append(built.nodes)
    assert sizes[1] <= 3 * sizes[0]


def test_the_writer_keeps_positions_apart_by_digest():
    """The writer knows a node by a 16-byte digest of its texts: texts that join alike
    (a newline inside one) and the two movers stay apart."""
    builder = writer_module._Builder(resolve_ruleset("clobber"), BruteForceOracle, 0, 10, 0)
    keys = {
        builder.key([(text, None) for text in texts], player)
        for texts in (["a\nb"], ["a", "b"], ["a\n", "b"], ["a", "\nb"], [])
        for player in Player
    }
    assert len(keys) == 10 and {len(key) for key in keys} == {16}


def test_a_proof_is_written_in_two_members_and_reads_back_whole(tmp_path):
    """The body is compressed as it is made (its own gzip member): the file reads back as
    the header line, then every node line, and checks."""
    built = build_certificate("clobber", "xoxoxoxo", value_budget=0, leaf_budget=0)
    path = tmp_path / "c.gz"
    writer_module.save_certificate(str(path), built)
    assert path.read_bytes() == built.data and built.size == len(built.data)
    assert built.data.count(b"\x1f\x8b\x08") >= 2
    with gzip.open(path, "rb") as stream:
        assert json.loads(stream.readline())["nodes"] == built.nodes
        body = stream.read()
    assert body == b"".join(built.lines()) and body.count(b"\n") == built.nodes
    assert hashlib.sha256(body).hexdigest() == built.header["sha256"]
    assert check_certificate(str(path)).outcome is built.outcome


# ---- the command line -------------------------------------------------------------------------


def test_solve_writes_a_certificate_the_checker_verifies(capsys, tmp_path):
    path = str(tmp_path / "proof.gz")
    code, out, err = run_cli(
        capsys, "solve", "clobber", "xoxoxoxo", "--outcome", "--certificate", path, "--json"
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["certificate"]["path"] == path
    assert data["certificate"]["bytes"] == os.path.getsize(path)
    code, out, err = run_cli(capsys, "certificate", "check", path, "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["verified"] and report["outcome"] == data["outcome"] == "N"
    assert (report["left_first"], report["right_first"]) == (
        data["left_first"],
        data["right_first"],
    )
    code, out, err = run_cli(capsys, "solve", "clobber", "xoxoxo", "--certificate", path)
    assert code == 0 and f"{path} (" in out  # without --outcome: the value, and the proof
    assert run_cli(capsys, "certificate", "check", path)[0] == 0


def test_solve_refuses_a_certificate_it_cannot_prove(capsys, tmp_path):
    path = str(tmp_path / "proof.gz")
    code, _, err = run_cli(capsys, "solve", "clobber", "xo", "--misere", "--certificate", path)
    assert code == 2 and "normal-play" in err and not os.path.exists(path)
    code, _, err = run_cli(capsys, "solve", "digraph", "0>1,1>0;0", "--certificate", path)
    assert code == 2 and "digraph is loopy" in err and not os.path.exists(path)
    code, _, err = run_cli(capsys, "solve", "pizza", "1,2,3", "--certificate", path)
    assert code == 2 and "pizza is scoring play" in err and not os.path.exists(path)
    code, _, err = run_cli(capsys, "solve", "nim", "3", "--certificate", "-")
    assert code == 2 and "needs a file" in err


def test_solve_certificate_writes_whole_or_nothing(capsys, tmp_path):
    code, _, err = run_cli(capsys, "solve", "nim", "3,4", "--certificate", "/dev/full")
    assert code == 2 and "/dev/full" in err
    code, _, err = run_cli(
        capsys, "solve", "nim", "3,4", "--certificate", str(tmp_path / "no" / "proof.gz")
    )
    assert code == 2 and err.count("\n") == 1
    assert os.listdir(tmp_path) == []


def test_solve_certificate_respects_the_node_budget(capsys, tmp_path):
    path = str(tmp_path / "proof.gz")
    code, _, err = run_cli(
        capsys,
        "solve",
        "clobber",
        "xoxoxoxoxoxoxo",
        "--method",
        "outcome",
        "--certificate",
        path,
        "--max-nodes",
        "100000",
    )
    assert code == 0, err
    code, _, err = run_cli(
        capsys,
        "solve",
        "domineering",
        "....|....|....|....",
        "--method",
        "outcome",
        "--certificate",
        path + "2",
        "--max-nodes",
        "50",
    )
    assert code == 3 and not os.path.exists(path + "2")


def run(*args):
    """``cgf ARGS`` in a new process, as CI runs the checker."""
    done = subprocess.run(
        [sys.executable, "-m", "cgframework", *args], capture_output=True, text=True, timeout=300
    )
    return done.returncode, done.stdout, done.stderr


def test_the_checker_command_in_a_subprocess(tmp_path):
    ruleset = resolve_ruleset("clobber")
    path = str(tmp_path / "proof.gz")
    write_certificate(
        path, ruleset, parse_position(ruleset, "xoxoxoxoxo"), leaf_budget=0, value_budget=0
    )
    code, out, err = run("certificate", "check", path)
    assert code == 0, err
    assert "clobber" in out and "xoxoxoxoxo" in out and "N" in out
    header, nodes = unpack(path)
    number = next(i for i, n in enumerate(nodes) if n[2] == "W" and isinstance(n[3], list))
    nodes[number][3][0] = "1,1>1,9"
    pack(path, header, nodes)
    code, out, err = run("certificate", "check", path)
    assert code == 1
    assert err.startswith("cgf: error: certificate refused: node") and err.count("\n") == 1
    code, _, err = run("certificate", "check", str(tmp_path / "missing.gz"))
    assert code == 2 and err.count("\n") == 1


def test_another_ruleset_version_is_checked_with_a_warning(capsys, proof):
    header, nodes = unpack(proof)
    header["ruleset_version"] = "0-old"
    pack(proof, header, nodes)
    code, out, err = run_cli(capsys, "certificate", "check", proof, "--json")
    assert code == 0 and json.loads(out)["ruleset_version"] == "0-old"
    assert err.startswith("cgf: warning:") and "'0-old'" in err and err.count("\n") == 1


def test_check_json_refusal_and_timeout(capsys, proof, monkeypatch):
    header, nodes = unpack(proof)
    nodes[-1][2] = "L" if nodes[-1][2] == "W" else "W"
    pack(proof, header, nodes)
    code, out, err = run_cli(capsys, "certificate", "check", proof, "--json")
    assert code == 1 and json.loads(out)["verified"] is False
    assert err.startswith("cgf: error: certificate refused:") and err.count("\n") == 1

    def forever(path, **options):
        while True:
            pass

    monkeypatch.setattr("cgframework.cli.certificate.check_certificate", forever)
    code, _, err = run_cli(capsys, "certificate", "check", proof, "--timeout", "0.1")
    assert code == 3 and "--timeout" in err


@functools.cache
def clobber_proof() -> bytes:
    return build_certificate("clobber", "xoxoxo|ox.oxo", leaf_budget=8, value_budget=0).data


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.data())
def test_a_tampered_certificate_never_proves_a_wrong_outcome(tmp_path_factory, data):
    """Any character of the node lines replaced, or a claim, root or position of the header
    changed (the hash made right again): the checker refuses, or what it verifies is still the
    truth; it never crashes."""
    ruleset = resolve_ruleset("clobber")
    path = str(tmp_path_factory.mktemp("t") / "proof.gz")
    header_line, body = gzip.decompress(clobber_proof()).split(b"\n", 1)
    header = json.loads(header_line)
    if data.draw(st.booleans()):  # a character of the nodes
        text = bytearray(body)
        text[data.draw(st.integers(0, len(text) - 1))] = data.draw(
            st.sampled_from(b'0123456789LRWxo.|:,[]"> ')
        )
        body = bytes(text)
    else:  # a claim, a root or the position of the header
        field = data.draw(
            st.sampled_from(["left_first", "right_first", "outcome", "roots", "position"])
        )
        if field == "roots":
            name = data.draw(st.sampled_from(["left_first", "right_first"]))
            header["roots"][name] = data.draw(st.integers(0, header["nodes"] - 1))
        elif field == "outcome":
            header["outcome"] = data.draw(st.sampled_from("LRNP"))
        elif field == "position":
            header["position"] = data.draw(st.sampled_from(["xoxoxo", "xxo", "oox", "xo"]))
        else:  # a coherent lie: one claim flipped, the outcome made to match
            header[field] = "R" if header[field] == "L" else "L"
            header["outcome"] = outcome_of_header(header)
    if isinstance(header, dict):
        header["sha256"] = hashlib.sha256(body).hexdigest()
    with open(path, "wb") as out:
        out.write(gzip.compress(json.dumps(header).encode() + b"\n" + body))
    try:
        report = check_certificate(path)
    except (CertificateError, CertificateUnreadable, LimitExceeded):
        return
    assert report.outcome is brute_outcome(ruleset, parse_position(ruleset, report.position))


JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 10), st.text(max_size=8)),
    lambda inner: st.lists(inner, max_size=5),
    max_leaves=20,
)
NEAR_NODES = st.tuples(
    st.one_of(JSON, st.lists(st.sampled_from(["..", ".|.", "...", "#", "x", ""]), max_size=3)),
    st.one_of(st.sampled_from(["L", "R"]), JSON),
    st.one_of(st.sampled_from(["W", "L"]), JSON),
    st.one_of(st.just("search"), st.lists(st.integers(-1, 6), max_size=3), JSON),
).map(list)
JUNK_NODES = st.one_of(st.binary(max_size=200), JSON, NEAR_NODES).map(
    lambda node: node if isinstance(node, bytes) else json.dumps(node).encode()
)


@settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    nodes=st.lists(JUNK_NODES, max_size=5),
    zipped=st.booleans(),
    count=st.integers(-1, 6),
    leaf_budget=st.sampled_from([0, 5, 10**9, "x"]),
)
def test_fuzz_the_checker_command(capsys, tmp_path_factory, nodes, zipped, count, leaf_budget):
    """Junk where nodes should be, a header that lies about them, or no gzip at all: exit 1,
    2 or 3 with one line on stderr, never a traceback."""
    body = b"".join(node.replace(b"\n", b" ") + b"\n" for node in nodes)
    header = {
        "format": "cgframework-certificate",
        "version": 1,
        "generator": "fuzz",
        "ruleset": "domineering",
        "ruleset_version": "1",
        "position": "..|..",
        "left_first": "L",
        "right_first": "R",
        "outcome": "N",
        "roots": {"left_first": 0, "right_first": 1},
        "nodes": count,
        "leaves": 0,
        "leaf_budget": leaf_budget,
        "sha256": hashlib.sha256(body).hexdigest(),
    }
    data = json.dumps(header).encode() + b"\n" + body
    path = str(tmp_path_factory.mktemp("f") / "junk.gz")
    with open(path, "wb") as out:
        out.write(gzip.compress(data) if zipped else data)
    code, _, err = run_cli(capsys, "certificate", "check", path)
    assert code in (1, 2, 3), err
    assert err.startswith("cgf: error:") and err.count("\n") == 1, err
    assert "internal error" not in err and "Traceback" not in err, err


def test_the_checker_depends_on_no_solver():
    """Independence: the checker reads the protocol (game), the registry (to find the ruleset),
    the limits and the file reader; no solver, table, store or value algebra, not even in a
    function body."""
    from architecture import import_graph

    graph = import_graph()
    assert graph["proofs.checker"] <= {
        "game",
        "plugins",
        "runtime.budget",
        "runtime.inputs",
        "proofs.values",
    }
    assert graph["proofs.values"] <= {"game"}


# ---- checking in several processes ------------------------------------------------------------


def test_several_processes_verify_what_one_verifies(proof):
    one = check_certificate(proof)
    assert one.nodes > 24  # (two runs of 4 nodes or more for each of three processes)
    several = check_certificate(proof, jobs=3, share_chunk=4)
    for name in ("outcome", "left_first_wins", "right_first_wins", "nodes", "leaves"):
        assert getattr(several, name) == getattr(one, name)


def _missing_replies(nodes, count):
    """Drop a reply from ``count`` losing nodes far apart (in different shares of 4 nodes)."""
    numbers = [i for i, n in enumerate(nodes) if n[2] == "L" and isinstance(n[3], list)]
    numbers = [i for i in numbers if len(nodes[i][3]) > 1]
    chosen = [numbers[len(numbers) // 2], numbers[-1]][:count]
    for number in chosen:
        nodes[number][3].pop()
    return min(chosen)


@pytest.mark.parametrize("count", [1, 2])
def test_several_processes_refuse_the_first_wrong_node(proof, count):
    """With a wrong node in one share, or one in each of two shares, every job count names
    the first wrong node of the file, as one process does."""
    header, nodes = unpack(proof)
    number = _missing_replies(nodes, count)
    pack(proof, header, nodes)
    message = refused(proof, f"node {number}:", "no reply to move")
    for jobs in (2, 3):
        assert refused(proof, jobs=jobs, share_chunk=4) == message


def test_several_processes_refuse_a_bad_hash_and_a_damaged_file(proof):
    header, nodes = unpack(proof)
    nodes[-1][3].reverse()
    pack(proof, header, nodes, rehash=False)
    refused(proof, "content hash", jobs=2, share_chunk=4)
    data = open(proof, "rb").read()
    with open(proof, "wb") as out:
        out.write(data[: len(data) // 2])
    refused(proof, jobs=2, share_chunk=4)


def test_cli_checks_in_several_processes(proof, capsys):
    code, out, err = run_cli(capsys, "certificate", "check", proof, "--jobs", "2", "--json")
    assert code == 0, err
    assert json.loads(out)["verified"] is True
    assert run_cli(capsys, "certificate", "check", proof, "--jobs", "0")[0] == 2


def test_progress_is_reported_as_the_nodes_are_read(proof, monkeypatch):
    """``progress(read, nodes)`` from the first process: from 0, rising, ending at the total;
    the same with several processes (the first reads the whole file)."""
    monkeypatch.setattr(checker_module, "PROGRESS_EVERY", 4)
    for jobs in (1, 2):
        calls: list[tuple[int, int]] = []
        report = check_certificate(
            proof, jobs=jobs, share_chunk=4, progress=lambda *call, seen=calls: seen.append(call)
        )
        assert calls[0] == (0, report.nodes) and calls[-1] == (report.nodes, report.nodes)
        assert [read for read, _ in calls] == sorted(read for read, _ in calls)
        assert len(calls) == -(-report.nodes // 4) + 1


def test_the_writer_reports_its_nodes_as_it_writes(monkeypatch):
    monkeypatch.setattr(writer_module, "PROGRESS_EVERY", 4)
    calls: list[int] = []
    built = build_certificate("clobber", "xoxoxo|ox.oxo", value_budget=0, progress=calls.append)
    assert calls == list(range(4, built.nodes + 1, 4)) and calls


def test_cli_progress_bar_leaves_the_answer_alone(proof, capsys):
    plain = run_cli(capsys, "certificate", "check", proof, "--json")
    shown = run_cli(capsys, "certificate", "check", proof, "--json", "--progress")
    assert plain[0] == shown[0] == 0 and plain[1] == shown[1]
    assert plain[2] == shown[2] == ""  # (not a terminal: no bar, asked or not)


def test_the_writer_stops_at_its_node_limit():
    with pytest.raises(LimitExceeded, match="more than 3 nodes"):
        build_certificate("clobber", "xoxoxoxo|oxoxoxox", max_nodes=3, value_budget=0)
    assert writer_module.MAX_WRITTEN_NODES > checker_module.MAX_NODES
