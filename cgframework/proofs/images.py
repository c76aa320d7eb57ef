"""A lemma's certificate written from that of its mirror image, instead of searched afresh.

The lemmas of one proof are often mirror images of one another (Clobber 3x11: 90 lemmas,
52 up to the board's symmetries). A ruleset that numbers its symmetries
(:meth:`~cgframework.game.BaseRuleset.image`: a component's text under each, and the map of
its move texts) lets the writer rewrite a certificate line by line: every component text of
every node replaced by its image (the node's components sorted again), every move text by
the image's (its component's number renumbered). Node numbers, claims and leaves stay as they
are; only the leaf budget may grow, as the checker's brute force tries a mirrored leaf's moves
in another order (each brute-force leaf is tried again, mirrored, to find what it needs). The
file written is an ordinary certificate of the image position: the checker checks it as any
other, so an image that is not an isomorphic game costs a refused file, never a false proof.
Rewriting costs a CPU minute for two million nodes, where searching and writing them costs ten.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from cgframework.game import Player, Ruleset, Sum, format_position
from cgframework.proofs.checker import (
    MAX_LEAF_BUDGET,
    SEARCH,
    WIN,
    Claim,
    LeafTooBig,
    Parts,
    bounded_lines,
    brute_force_wins,
    file_sha256,
    open_certificate,
)
from cgframework.proofs.files import Certificate, NodeLines, node_line
from cgframework.runtime.budget import LimitExceeded


def symmetry_between(ruleset: Ruleset, source: Claim, target: Claim) -> int | None:
    """A symmetry (of ``ruleset.image``) that maps ``source``'s position onto ``target``'s,
    with the same mover and claim; ``None`` if there is none (or it is the identity's)."""
    if (source.mover, source.wins) != (target.mover, target.wins) or source == target:
        return None
    if len(source.texts) != len(target.texts):
        return None
    wanted = sorted(target.texts)
    for symmetry in range(1, getattr(ruleset, "symmetries", 1)):
        if sorted(ruleset.image(text, symmetry)[0] for text in source.texts) == wanted:
            return symmetry
    return None


def orbit_key(ruleset: Ruleset, claim: Claim) -> Hashable:
    """What ``claim`` shares with its mirror images alone: the least of its images' sorted
    texts, with the mover and the claim (claims with one key are images of one another). A
    claim whose texts the ruleset cannot mirror is its own key (it is then searched, and its
    texts refused there if they do not parse)."""
    images = _images(ruleset, claim.texts)
    return claim if images is None else (min(images), claim.mover, claim.wins)


def symmetries_of(ruleset: Ruleset, texts: tuple[str, ...] | list[str]) -> int:
    """How many of the ruleset's symmetries map the position of component ``texts`` onto
    itself (1: the identity alone, also where the ruleset cannot mirror a text)."""
    images = _images(ruleset, texts)
    return 1 if images is None else images.count(tuple(sorted(texts)))


def _images(ruleset: Ruleset, texts: Iterable[str]) -> list[tuple[str, ...]] | None:
    """The sorted component texts of the position under each of the ruleset's symmetries (the
    identity first), or ``None`` where the ruleset cannot mirror one of them."""
    texts = tuple(texts)
    try:
        return [
            tuple(sorted(ruleset.image(text, symmetry)[0] for text in texts))
            for symmetry in range(getattr(ruleset, "symmetries", 1))
        ]
    except (LimitExceeded, MemoryError):
        raise
    except Exception:  # (a ruleset's image of a text it would not parse: anything)
        return None


class _Mirror:
    """Component texts and move texts under one symmetry, each remembered."""

    MEMO = 1_000_000

    def __init__(self, ruleset: Ruleset, symmetry: int, leaf_budget: int) -> None:
        self.ruleset = ruleset
        self.symmetry = symmetry
        self.texts: dict[str, tuple[str, Callable[[str], str]]] = {}
        self.parts_of = Parts(ruleset)
        self.leaf_budget = leaf_budget
        """What the mirrored brute-force leaves need: the checker's brute force tries moves
        in the ruleset's order, which a mirror changes, so it may expand more positions."""

    def text(self, text: str) -> tuple[str, Callable[[str], str]]:
        found = self.texts.get(text)
        if found is None:
            if len(self.texts) >= self.MEMO:
                self.texts.clear()
            found = self.texts[text] = self.ruleset.image(text, self.symmetry)
        return found

    def node(self, node: list[Any]) -> list[Any]:
        """One node line's ``[components, mover, claim, proof]``, mirrored."""
        texts, mover, claim, proof = node
        images = [self.text(text) for text in texts]
        order = sorted(range(len(texts)), key=lambda i: images[i][0])
        if claim == WIN and isinstance(proof, list):  # [move, child]
            move, child = proof
            if len(texts) > 1:
                number, _, move = move.partition(":")
                i = int(number) - 1
                moved = f"{order.index(i) + 1}:{images[i][1](move)}"
            else:
                moved = images[0][1](move)
            proof = [moved, child]
        mirrored = [images[i][0] for i in order]
        if proof == SEARCH:
            self.search_leaf(mirrored, Player(mover), claim == WIN)
        return [mirrored, mover, claim, proof]

    def search_leaf(self, texts: list[str], player: Player, claim: bool) -> None:
        """Raise :attr:`leaf_budget` (doubling it, up to the checker's most) until the
        checker's brute force proves this mirrored leaf within it."""
        parts = [(text, self.ruleset.parse(text)) for text in texts]
        while True:
            try:
                wins = brute_force_wins(self.parts_of, parts, player, self.leaf_budget)
            except LeafTooBig:
                if self.leaf_budget >= MAX_LEAF_BUDGET:
                    raise ValueError(
                        "a mirrored leaf needs more than the checker's leaf budget"
                    ) from None
                self.leaf_budget = min(max(1, 2 * self.leaf_budget), MAX_LEAF_BUDGET)
                continue
            if wins != claim:
                raise ValueError("a mirrored leaf is not what its image was: not the same game")
            return


def mirror_certificate(ruleset: Ruleset, source: str, symmetry: int, target: Claim) -> Certificate:
    """The certificate of ``target``, rewritten from the one-sided certificate at ``source``
    (of ``target``'s image under ``symmetry``'s inverse: :func:`symmetry_between` of the two
    claims). Read, not checked: the checker checks what is written."""
    body = NodeLines()
    root: Claim | None = None
    image_of: dict[str, Any] = {}
    with open_certificate(source) as raw, gzip.GzipFile(fileobj=raw, mode="rb") as stream:
        lines = bounded_lines(stream)
        header = json.loads(next(lines, b""))
        mirror = _Mirror(ruleset, symmetry, int(header["leaf_budget"]))
        (root_number,) = header["roots"].values()
        for line in lines:
            node = json.loads(line)
            texts, mover, claim, proof = mirror.node(node)
            if body.count == root_number:
                image_of = {"components": node[0], "mover": node[1], "claim": node[2]}
                root = Claim(tuple(texts), Player(mover), claim == WIN)
            body.add(node_line(texts, Player(mover), claim == WIN, proof))
    if root != target:  # (a claim's texts are sorted, as a node's are)
        raise ValueError(f"{source!r} mirrored does not prove {target.describe()}")
    closed = body.close()  # (before the hash: the last lines are hashed as it closes)
    parts = [ruleset.parse(text) for text in target.texts]
    if parts:  # (else a position without a move, whatever its text: the source's stays)
        position = parts[0] if len(parts) == 1 else Sum(tuple(parts))
        header["position"] = format_position(ruleset, position)
    header.update(leaf_budget=mirror.leaf_budget, nodes=body.count, sha256=body.sha.hexdigest())
    # (provenance for a reader; the checker checks the nodes, not where they came from)
    header["mirror_of"] = {**image_of, "symmetry": symmetry, "sha256": file_sha256(source)}
    return Certificate(header, closed)


__all__ = ["mirror_certificate", "orbit_key", "symmetry_between"]
