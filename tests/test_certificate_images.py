"""A lemma's certificate rewritten from that of its mirror image: the file written is an
ordinary certificate of the image, verified by the same checker; a wrong image is refused; a
proof in pieces whose lemmas are partly mirrored verifies and gives brute force's outcome."""

from __future__ import annotations

import gzip
import hashlib
import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from position_strategies import board

from cgframework.extensions import SolveContext
from cgframework.game import Player
from cgframework.plugins import resolve_ruleset
from cgframework.proofs import CertificateError, build_certificate, check_certificate
from cgframework.proofs.checker import Claim
from cgframework.proofs.images import (
    mirror_certificate,
    orbit_key,
    symmetries_of,
    symmetry_between,
)
from cgframework.proofs.lemmas import check_proof
from cgframework.proofs.writer import lemma_claims, save_certificate, write_lemmas
from cgframework.solvers.outcome import outcome_of

CLOBBER = resolve_ruleset("clobber")
EXPLICIT = {"value_budget": 0, "leaf_budget": 0}
"""No leaf closed by values or brute force: every move of the proof is written out."""


def claim_of(path: str) -> Claim:
    (claim,) = check_certificate(path).claims
    return claim


def mirrored_claim(claim: Claim, symmetry: int) -> Claim:
    texts = sorted(CLOBBER.image(text, symmetry)[0] for text in claim.texts)
    return Claim(tuple(texts), claim.mover, claim.wins)


@pytest.mark.parametrize("leaves", ["explicit", "tight"])
@settings(
    max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(text=board("xxoo.", 3, 5))
def test_every_mirror_image_of_a_certificate_verifies(tmp_path_factory, leaves, text):
    folder = tmp_path_factory.mktemp("images")
    source = str(folder / "source.gz")
    # tight: brute-force leaves of at most 16 positions (as written: a mirrored leaf may need
    # more, the checker's brute force trying its moves in another order)
    options = {**EXPLICIT, "leaf_budget": 16 if leaves == "tight" else 0}
    built = build_certificate(CLOBBER, text, first=Player.LEFT, **options)
    save_certificate(source, built)
    claim = claim_of(source)
    for symmetry in range(1, 8):
        target = mirrored_claim(claim, symmetry)
        path = str(folder / f"image{symmetry}.gz")
        save_certificate(path, mirror_certificate(CLOBBER, source, symmetry, target))
        report = check_certificate(path)
        assert report.claims == (target,) and report.nodes == built.nodes
        with gzip.open(path, "rt") as written:
            provenance = json.loads(written.readline())["mirror_of"]
        assert provenance == {
            **claim.as_dict(),
            "symmetry": symmetry,
            "sha256": hashlib.sha256(open(source, "rb").read()).hexdigest(),
        }
        brute_force = outcome_of(CLOBBER, CLOBBER.parse(text), SolveContext(), False)
        assert report.left_first_wins == (brute_force.value in "LN")


def test_a_mirrored_brute_force_leaf_gets_the_budget_it_needs(tmp_path):
    # the checker's brute force tries moves in the ruleset's order, which the mirror changes:
    # this leaf takes at most 64 positions as written and more upside down
    source = str(tmp_path / "source.gz")
    save_certificate(source, build_certificate(CLOBBER, "xoxoo|ooxxo", first=Player.LEFT))
    assert check_certificate(source).leaves == 1
    path = str(tmp_path / "image.gz")
    built = mirror_certificate(CLOBBER, source, 2, mirrored_claim(claim_of(source), 2))
    save_certificate(path, built)
    assert built.header["leaf_budget"] > 64 and check_certificate(path).leaves == 1


def test_an_image_that_is_not_the_same_game_is_refused(tmp_path, monkeypatch):
    source = str(tmp_path / "source.gz")
    save_certificate(source, build_certificate(CLOBBER, "xoxo|ooxx", first=Player.LEFT, **EXPLICIT))
    claim = claim_of(source)
    target = mirrored_claim(claim, 1)
    real = type(CLOBBER).image
    monkeypatch.setattr(  # the board mirrored, its moves not
        type(CLOBBER), "image", lambda self, text, k: (real(self, text, k)[0], lambda m: m)
    )
    path = str(tmp_path / "image.gz")
    save_certificate(path, mirror_certificate(CLOBBER, source, 1, target))
    with pytest.raises(CertificateError, match="move"):
        check_certificate(path)


def test_a_file_that_does_not_mirror_onto_the_claim_is_not_written(tmp_path):
    source = str(tmp_path / "source.gz")
    save_certificate(source, build_certificate(CLOBBER, "xoxo|ooxx", first=Player.LEFT))
    claim = claim_of(source)
    other = mirrored_claim(claim, 2)
    with pytest.raises(ValueError, match="does not prove"):
        mirror_certificate(CLOBBER, source, 1, other)


def test_the_symmetry_between_two_claims_and_their_orbit():
    claim = Claim(("xo.|oxx",), Player.LEFT, True)
    assert symmetry_between(CLOBBER, claim, mirrored_claim(claim, 6)) == 6
    assert symmetry_between(CLOBBER, claim, claim) is None  # (itself: nothing to mirror)
    flipped = mirrored_claim(claim, 1)
    assert symmetry_between(CLOBBER, claim, Claim(flipped.texts, Player.RIGHT, True)) is None
    assert symmetry_between(CLOBBER, claim, Claim(flipped.texts, Player.LEFT, False)) is None
    keys = {orbit_key(CLOBBER, mirrored_claim(claim, k)) for k in range(8)}
    assert len(keys) == 1 and orbit_key(CLOBBER, Claim(("xo.|oxo",), Player.LEFT, True)) not in keys
    assert orbit_key(CLOBBER, Claim(("x?o|x",), Player.LEFT, True)) is not None  # (no error)
    nim = Claim(("3",), Player.LEFT, True)
    assert symmetry_between(resolve_ruleset("nim"), nim, Claim(("4",), Player.LEFT, True)) is None


def test_the_symmetries_of_a_position():
    assert symmetries_of(CLOBBER, ["xoxoxoxoxox|oxoxoxoxoxo|xoxoxoxoxox"]) == 4
    assert symmetries_of(CLOBBER, ["xoxoxoxoxox|oxox.ooxoxo|xoxoxoxoxox"]) == 2  # (upside down)
    assert symmetries_of(CLOBBER, ["xoxoooxoxox|oxox.xoxoxo|xoxoxoxoxox"]) == 1
    assert symmetries_of(CLOBBER, ["xo", "ox"]) == 4  # (not transposed: each is the other)
    assert symmetries_of(resolve_ruleset("nim"), ["3", "4"]) == 1


@pytest.mark.parametrize(
    ("board", "orbits"), [("xoxox|oxoxo|xoxox", 16), ("xoxoxox|oxoxoxo|xoxoxox", 28)]
)
def test_a_proof_in_pieces_plays_so_that_its_lemmas_mirror_each_other(tmp_path, board, orbits):
    """The root's winning move leaves the most symmetric position a winning move can (Clobber
    3xn: a capture along the middle row, which the board turned upside down keeps), and the
    answers two moves later mirror each other: each side's lemmas pair up into orbits (3x5:
    16 orbits, where the moves the search found first gave 24; 3x7: 28, not 32)."""
    top = str(tmp_path / "top.gz")
    save_certificate(top, build_certificate(CLOBBER, board, lemma_depth=2))
    with gzip.open(top, "rt") as lines:
        header = json.loads(next(lines))
        nodes = [json.loads(line) for line in lines]
    _, claims = lemma_claims(top)
    assert len({orbit_key(CLOBBER, c) for c in claims}) == orbits
    for root in header["roots"].values():  # each first move leaves two symmetries
        assert symmetries_of(CLOBBER, nodes[nodes[root][3][1]][0]) == 2


@pytest.mark.parametrize("mirrors", [True, False])
def test_a_proof_with_mirrored_lemmas_verifies(tmp_path, mirrors):
    top = str(tmp_path / "top.gz")
    save_certificate(top, build_certificate(CLOBBER, "xoxox|oxoxo|xoxox", lemma_depth=2))
    done = write_lemmas(top, str(tmp_path / "lemmas"), mirrors=mirrors, **EXPLICIT)
    _, claims = lemma_claims(top)
    assert len(done.written) + len(done.mirrored) == len(claims)
    assert bool(done.mirrored) == mirrors  # (3x5: 14 of its 30 lemmas mirror others)
    report = check_proof(top, [*done.written, *done.mirrored])
    assert report.outcome.value == "N" and report.assumes == ()
    for path in done.mirrored:  # each mirrored lemma proves its claim with moves in it
        with gzip.open(path, "rt") as lines:
            header = json.loads(next(lines))
            assert any(json.loads(line)[2] == "W" and json.loads(line)[3][0] for line in lines)
        assert header["nodes"] > 1


def test_a_damaged_source_is_searched_again_and_its_images_are_the_same(tmp_path):
    """A file to mirror from that does not read back (here cut short) is not mirrored, nor is
    its image searched in its place: the source is searched again (into a temporary file, the
    damaged one left as it is), and the images come out byte for byte as the first time."""
    top = str(tmp_path / "top.gz")
    folder = str(tmp_path / "lemmas")
    save_certificate(top, build_certificate(CLOBBER, "xoxox|oxoxo|xoxox", lemma_depth=2))
    first = write_lemmas(top, folder)
    assert first.mirrored
    images = {path: open(path, "rb").read() for path in first.mirrored}
    for path in first.mirrored:
        os.remove(path)
    cut = {}
    for path in first.written:  # every file an image could come from, cut short
        with open(path, "r+b") as damaged:
            damaged.truncate(os.path.getsize(path) // 2)
        cut[path] = open(path, "rb").read()
    again = write_lemmas(top, folder)
    assert not again.written and sorted(again.mirrored) == sorted(first.mirrored)
    assert {path: open(path, "rb").read() for path in again.mirrored} == images
    assert {path: open(path, "rb").read() for path in first.written} == cut  # (left alone)
    assert sorted(os.listdir(folder)) == sorted(os.path.basename(p) for p in [*cut, *images])
