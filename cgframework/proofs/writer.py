"""Building and writing a certificate of who wins (the format: :mod:`cgframework.proofs.checker`).

A who-wins search (the *oracle*: anything with ``wins(position, player) -> bool``) says who
wins each position; the writer walks the proof it implies, depth first and without recursion:
where the mover wins, one winning move (to a position already in the certificate if one
wins, else the first that wins among those leaving the fewest replies);
where the mover loses, every move; a position with no move for the mover closes itself; one
whose live components each reach at most ``value_budget`` distinct positions (a bounded walk,
tried only on components of at most :data:`VALUE_TEXT_HINT` characters) is a ``"values"`` leaf,
closed by the canonical values the checker computes itself (the writer computes them with the
checker's own code, :mod:`cgframework.proofs.values`, to write the claim); and a small one (its
brute force expands at most ``leaf_budget`` positions, counted by the checker's own search) is
left to the checker's brute force. With ``lemma_depth``, a position that many moves from a root
is a ``"lemma"`` leaf: its claim is proved by a certificate of its own (a lemma, one side only),
which :func:`write_lemmas` writes, in this process or any later one. Each distinct position
(sorted live component texts, and who moves) is one node, numbered after its children, so the
file is a DAG the checker reads in one pass.

With the outcome search as its oracle (and no lemmas), the writer replaces small components
by their canonical values (format version 4): a component reaching at most ``term_budget``
positions goes, by a rewrite (written with the move whose result it rewrites, or as a node of
its own at the root), into a *value term* (its value by the checker's own code; values of
small birthdays added into one, 0 left out), so that positions whose small parts add up alike
are one node, and a sum of terms alone is a value leaf. Who wins a sum with terms the oracle
answers for the sum with each term's components in its place (a sum of components equal to
each term is kept: the ones it came from, or, for an option of a term, a position a move or
three away of that value).

The file is gzip (level 9, no timestamp: the same proof gives the same bytes): every system
and language reads it (``zcat cert.gz | head``). lzma would be about a fifth smaller ((XO)^12:
22 KB against 28 KB) and three times slower to decompress; neither matters beside checking.
It is two gzip members, the header's and the body's: the node lines are hashed and compressed
as they are made, into a temporary file, and a node is known by a 16-byte digest of its texts,
so the writer keeps about 80 bytes a node (the digest and the node's number), not the node's
texts and line.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import os
import tempfile
import threading
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import attrs

from cgframework.extensions import SolveContext
from cgframework.game import (
    Convention,
    Outcome,
    Player,
    Position,
    Ruleset,
    Sum,
    format_position,
    parse_position,
)
from cgframework.proofs.checker import (
    FORMAT,
    FORMAT_VERSION,
    LEAF_MEASURE,
    LEMMA,
    LOSE,
    MAX_COMPONENTS,
    MAX_LEAF_BUDGET,
    MAX_VALUE_BUDGET,
    PROGRESS_EVERY,
    REWRITE,
    SEARCH,
    SIDES,
    TERMS_VERSION,
    VALUE_LINE,
    VALUE_MEASURE,
    VALUES,
    WIN,
    CertificateError,
    Claim,
    LeafTooBig,
    Part,
    Parts,
    bounded_lines,
    brute_force_wins,
    node_digest,
    open_certificate,
    winner,
)
from cgframework.proofs.files import Certificate, NodeLines, node_line
from cgframework.proofs.images import (
    mirror_certificate,
    orbit_key,
    symmetries_of,
    symmetry_between,
)
from cgframework.proofs.values import MAX_WORK, Values, ValueTooBig
from cgframework.runtime.budget import LimitExceeded, SearchBudget, TimedOut
from cgframework.runtime.cache import TranspositionTable
from cgframework.runtime.outputs import open_output
from cgframework.runtime.version import VERSION

if TYPE_CHECKING:
    from cgframework.sweep.executors import TlsFiles

DEFAULT_LEAF_BUDGET = 64
"""Positions the checker's brute force may expand for one leaf (a certificate's cut-off)."""

MAX_WRITTEN_NODES = 50_000_000
"""Nodes a written certificate may have at most. Ten times the checker's default
(``cgf certificate check --max-nodes`` raises that): with the search's tables and its memos
the writer takes about a kilobyte and a half a node, so ``--max-memory`` usually stops it
first (Clobber 2x14: 1.0 million nodes, 1.7 GB resident; the node numbers by digest are about
80 bytes a node of that, the lines none)."""

DEFAULT_VALUE_BUDGET = 50
"""Distinct positions one component of a ``"values"`` leaf may reach (0: no value leaves)."""

VALUE_TEXT_HINT = 14
"""A component is tried for a value leaf only when its text has at most this many characters
(the test walks up to ``value_budget`` positions; big components are not walked)."""

WRITER_WORK = MAX_WORK // 20
"""Steps of value arithmetic the writer allows one value leaf: a twentieth of what the checker
allows, so that the checker, whose memo holds other values at that point, stays well within."""

SYMMETRIC_ROOT_SEARCHES = 2
"""In a proof in pieces, first moves searched at most because they leave the most symmetric
position a first move can, where the search knows none of them wins
(:meth:`_Builder.symmetric_first`)."""

DEFAULT_TERM_BUDGET = 100
"""Distinct positions a component may reach to be replaced by its value in a rewrite node (a
value term; 0: no terms). The checker computes that value itself, within this budget."""

TERM_TEXT_HINT = 24
"""A component is tried for a value term only when its text has at most this many characters
(the test walks up to ``term_budget`` positions)."""

VALUED_BASE = 200
VALUED_PER_NODE = 0.02
"""New value terms are made only while the positions all terms reach (which the checker
values, each once) number at most ``VALUED_BASE + VALUED_PER_NODE * nodes written``: the
pieces of a strip share most of theirs, and cost little for the nodes they save; a board's
many unlike regions would cost the checker more than the nodes they save (Clobber 3x7:
twice the check's time with terms unbounded)."""

FOLD_BIRTHDAY = 8
"""Terms are added into one while the summands' birthdays add up to at most this: a sum of
many hot values has a canonical form too costly to write and to check."""

DERIVE_POSITIONS = 400
"""Positions the writer looks through at most for a sum of components equal to an option of
a term (:meth:`_TermWriter.derive`)."""

DECIDE_WORK = 0
"""Steps of value arithmetic the writer spends at most to decide a node of more than two
summands with terms among them as a value leaf (two need one comparison, no sum); past them
the node is proved by its moves, which cost the checker less than the sums (0: never)."""

LEAF_TEXT_HINT = 12
"""A position is tried as a leaf only when its component texts add up to at most this many
characters (trying costs up to ``leaf_budget`` expansions, so big positions are not tried)."""


class WinOracle(Protocol):
    """Who wins: does ``player``, to move in ``position``, win with perfect play (normal play)?"""

    def wins(self, position: Position, player: Player) -> bool: ...


class BruteForceOracle:
    """The generic brute-force search (:func:`cgframework.solvers.outcome.mover_wins`) as an
    oracle: exact for every short normal-play ruleset, with a table shared across calls."""

    def __init__(self, ruleset: Ruleset, ctx: SolveContext) -> None:
        self.ruleset = ruleset
        self.ctx = ctx

    def wins(self, position: Position, player: Player) -> bool:
        from cgframework.solvers.outcome import mover_wins

        return mover_wins(self.ruleset, position, player, self.ctx, False)


def default_oracle(ruleset: Ruleset, ctx: SolveContext) -> WinOracle:
    """The fastest who-wins search: the outcome search on sums
    (:class:`~cgframework.solvers.outcome_search.OutcomeSearch`), its tables shared by every
    question the writer asks."""
    from cgframework.solvers.outcome_search import OutcomeSearch

    return OutcomeSearch(ruleset, ctx)


def _position_of(parts: list[Part]) -> Position:
    return parts[0][1] if len(parts) == 1 else Sum(tuple(p for _, p in parts))


def build_certificate(
    ruleset: Ruleset | str,
    position: Position | str,
    oracle: WinOracle | None = None,
    *,
    leaf_budget: int = DEFAULT_LEAF_BUDGET,
    value_budget: int = DEFAULT_VALUE_BUDGET,
    max_nodes: int = MAX_WRITTEN_NODES,
    budget: SearchBudget | None = None,
    table: TranspositionTable | None = None,
    progress: Callable[[int], None] | None = None,
    first: Player | None = None,
    lemma_depth: int = 0,
    share_memo: bool = False,
    term_budget: int | None = None,
) -> Certificate:
    """A certificate of ``position``'s outcome (normal play; both Left first and Right
    first, or ``first`` alone). ``ruleset`` is a ruleset or its name, ``position`` a position
    or its text. ``lemma_depth`` > 0 leaves the positions that many moves from a root (those
    not closed otherwise) to lemmas (:func:`write_lemmas`). ``share_memo`` keeps what the
    writer learns of components for the next certificate written in this process.
    ``oracle`` says who wins (default: the outcome search a solve with ``outcome_only`` left
    on ``table``, so its proven wins and losses are reused rather than searched again; else
    :func:`default_oracle`); ``budget`` limits its
    search (``--max-nodes``/``--timeout``: :class:`~cgframework.runtime.budget.SearchStopped`);
    ``value_budget`` bounds the components of value leaves (0: none); ``term_budget`` the
    components replaced by their values in rewrite nodes (default
    :data:`DEFAULT_TERM_BUDGET`; 0: none; format version 4; only with the outcome search as
    the oracle, no lemmas and value leaves allowed);
    more than ``max_nodes`` nodes raises :class:`~cgframework.runtime.budget.LimitExceeded`;
    ``progress(nodes)`` is called every :data:`~cgframework.proofs.checker.PROGRESS_EVERY`
    nodes written. Runs on a large-stack thread (the oracle may recurse deeply)."""
    from cgframework.plugins import resolve_ruleset
    from cgframework.solvers.dispatch import position_of, run_deep

    ruleset = resolve_ruleset(ruleset)
    position = position_of(ruleset, position)
    if ruleset.convention is not Convention.NORMAL or getattr(ruleset, "loopy", False):
        raise ValueError(
            f"ruleset {ruleset.name!r}: certificates prove normal-play outcomes of short games"
        )
    if not 0 <= leaf_budget <= MAX_LEAF_BUDGET:
        raise ValueError(f"leaf_budget must be between 0 and {MAX_LEAF_BUDGET}")
    if not 0 <= value_budget <= MAX_VALUE_BUDGET:
        raise ValueError(f"value_budget must be between 0 and {MAX_VALUE_BUDGET}")
    if term_budget is None:
        term_budget = DEFAULT_TERM_BUDGET
    if not 0 <= term_budget <= MAX_VALUE_BUDGET:
        raise ValueError(f"term_budget must be between 0 and {MAX_VALUE_BUDGET}")
    if lemma_depth < 0:
        raise ValueError("lemma_depth must be at least 0")
    if budget is not None:
        budget.start()
    if oracle is None and table is not None:
        from cgframework.solvers.outcome_search import shared_search

        oracle = shared_search(ruleset, table)
        if oracle is not None:
            table.budget = budget  # (the solve's budget is spent: the writer's counts afresh)
    if oracle is None:
        ctx = SolveContext(budget=budget)
        ctx.table.budget = budget
        oracle = default_oracle(ruleset, ctx)
    found = oracle

    def build() -> Certificate:  # (a fresh builder if run_deep runs it again, deeper)
        builder = _Builder(
            ruleset, found, leaf_budget, max_nodes, value_budget, progress, share_memo, lemma_depth
        )
        builder.use_terms(term_budget)  # type: ignore[arg-type]
        return builder.build(position, first)

    return run_deep(build, budget=budget)


class _Builder:
    def __init__(
        self,
        ruleset: Ruleset,
        oracle: WinOracle,
        leaf_budget: int,
        max_nodes: int,
        value_budget: int = 0,
        progress: Callable[[int], None] | None = None,
        share_memo: bool = False,
        lemma_depth: int = 0,
    ) -> None:
        self.ruleset = ruleset
        self.progress = progress
        self.oracle = oracle
        self.leaf_budget = leaf_budget
        self.max_nodes = max_nodes
        memo = _Memo.of(ruleset, value_budget) if share_memo else None
        self.memo = memo
        self.parts_of = memo.parts_of if memo else _CachedParts(ruleset)
        self.asks = _Asker.of(oracle)
        self.ids: dict[bytes, int] = {}
        """Each node's number, by its digest."""
        self.claims = bytearray()
        self.body = NodeLines()
        self.leaves = 0
        self.value_budget = value_budget
        self.value_leaves = 0
        self.values = memo.values if memo else Values(self.parts_of)
        self.values.work_limit = WRITER_WORK
        self.small: dict[str, bool] = memo.small if memo else {}
        self.lemma_depth = lemma_depth
        self.lemma_leaves = 0
        self.mirrors = lemma_depth > 0 and getattr(ruleset, "symmetries", 1) > 1
        """Choose moves that make lemmas mirror images of one another (the ruleset's
        ``image``): :meth:`symmetric_first` and :meth:`mirrored_answer`."""
        self.lemma_orbits: set[Any] = set()
        """The orbits (:func:`~cgframework.proofs.images.orbit_key`) of the lemma leaves so far."""
        self.term_budget = 0
        """Components reaching at most this many positions become value terms (0: none)."""
        self.terms: _TermWriter | None = None
        self.rewrites = 0

    def use_terms(self, term_budget: int) -> None:
        """Replace small components by value terms (rewrite nodes), when the oracle is the
        outcome search (it answers for sums with values in them), the certificate is one
        file (no lemmas: their files stay as version 3 writes them) and value leaves are
        allowed (a node of terms alone is one)."""
        if (
            term_budget
            and self.value_budget
            and not self.lemma_depth
            and self.memo is None
            and isinstance(self.asks, _SearchAsker)
        ):
            self.term_budget = term_budget
            self.terms = _TermWriter(self.parts_of, self.asks)

    def build(self, position: Position, first: Player | None = None) -> Certificate:
        parts = self.parts_of.split(position)
        sides = {name: player for name, player in SIDES.items() if first in (None, player)}
        roots = {name: self.prove(parts, player) for name, player in sides.items()}
        wins = {name: bool(self.claims[roots[name]]) for name in sides}
        outcome = {}
        if len(sides) == 2:
            outcome["outcome"] = Outcome.from_wins(wins["left_first"], wins["right_first"]).value
        body = self.body.close()
        header = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "generator": f"cgframework {VERSION}",
            "ruleset": self.ruleset.name,
            "ruleset_version": str(getattr(self.ruleset, "version", "")),
            "position": format_position(self.ruleset, position),
            **{name: winner(name, first_wins) for name, first_wins in wins.items()},
            **outcome,
            "roots": roots,
            "nodes": self.body.count,
            "leaves": self.leaves,
            "leaf_budget": self.leaf_budget,
            "leaf_measure": LEAF_MEASURE,
            "value_budget": self.value_budget,
            "value_measure": VALUE_MEASURE,
            "value_leaves": self.value_leaves,
            **({"lemma_depth": self.lemma_depth} if self.lemma_depth else {}),
            "lemma_leaves": self.lemma_leaves,
            "sha256": self.body.sha.hexdigest(),
        }
        if self.terms is not None and (self.rewrites or self.terms.lines):
            header["version"] = TERMS_VERSION
            header["term_budget"] = self.term_budget
            header["value_lines"] = len(self.terms.lines)
            header["rewrites"] = self.rewrites
            header["sha256"] = header.pop("sha256")  # (last, as in every version)
        return Certificate(header, body)

    def key(self, parts: list[Part], player: Player, terms: tuple[int, ...] = ()) -> bytes:
        """The node's 16-byte digest (the writer's own: half the cost of the checker's
        :func:`~cgframework.proofs.checker.node_digest`, asked several times a node; its
        value terms by the writer's numbers of their games, sorted)."""
        texts = [text for text, _ in parts]
        if terms:
            return node_digest(texts, player, (-1, *terms))  # (never a checker's digest)
        joined = "\n".join(texts)
        if joined.count("\n") != len(texts) - 1:  # (a text with a newline: no ambiguity)
            return node_digest(texts, player)
        data = joined.encode("utf-8", "surrogatepass")
        return hashlib.blake2b(data, digest_size=16, salt=_SALT[player]).digest()

    def prove(self, root: list[Part], player: Player) -> int:
        """The node number of ``root`` with ``player`` to move, adding it and every node its
        proof needs (children first)."""
        open_keys: set[bytes] = set()
        stack: list[list[Any]] = []  # [key, parts, player, terms, claim, proof, pending]

        def enter(parts: list[Part], player: Player, terms: tuple[int, ...] = ()) -> None:
            key = self.key(parts, player, terms)
            if key in open_keys:
                raise ValueError(
                    f"ruleset {self.ruleset.name!r} repeats a position: not a short game"
                )
            open_keys.add(key)
            if terms or self.terms is not None:
                found = self.expand_terms(parts, player, terms)
            else:
                found = self.expand(parts, player, len(stack))
            stack.append([key, parts, player, terms, *found])

        enter(root, player)
        while stack:
            top = stack[-1]
            pending: list[tuple[Any, ...]] = top[6]
            while pending and self.key(*pending[-1]) in self.ids:
                pending.pop()
            if pending:
                enter(*pending.pop())
                continue
            key, parts, player, terms, claim, proof, _ = top
            stack.pop()
            open_keys.discard(key)
            self.add(key, parts, player, claim, proof, terms)
        return self.ids[self.key(root, player)]

    def add(
        self,
        key: bytes,
        parts: list[Part],
        player: Player,
        claim: bool,
        proof: Any,
        terms: tuple[int, ...] = (),
    ) -> None:
        if self.body.count >= self.max_nodes:
            raise LimitExceeded(f"certificate would have more than {self.max_nodes} nodes")
        if len(parts) + len(terms) > MAX_COMPONENTS:
            raise LimitExceeded(
                f"a position of {len(parts) + len(terms)} components: a certificate's nodes "
                f"have at most {MAX_COMPONENTS}"
            )
        texts: list[Any] = [text for text, _ in parts]
        lines: list[int] = []
        if self.terms is not None:
            lines = sorted(self.terms.line(term, self.body) for term in terms)
        if proof in (SEARCH, VALUES, LEMMA):
            written: Any = proof
        elif isinstance(proof, _Rewrite):
            written = [REWRITE, self.groups(len(parts), terms, proof.groups), self.ids[proof.child]]
            self.rewrites += 1
        elif claim:
            move, child, *step = proof
            written = [self.move_name(move, len(parts), lines), self.ids[child]]
            if step and step[0] is not None:
                written.append(self.groups(step[0].count, step[0].terms, step[0].groups))
                self.rewrites += 1
        else:
            plain = sorted({self.ids[child] for child in proof if isinstance(child, bytes)})
            rewritten = []
            for entry in proof:
                if isinstance(entry, tuple):
                    move, step, child = entry
                    groups = self.groups(step.count, step.terms, step.groups)
                    name = self.move_name(move, len(parts), lines)
                    rewritten.append([name, groups, self.ids[child]])
                    self.rewrites += 1
            written = plain + rewritten
        self.ids[key] = self.body.count
        self.claims.append(claim)
        self.body.add(node_line(texts + lines, player, claim, written))
        if self.progress is not None and not self.body.count % PROGRESS_EVERY:
            self.progress(self.body.count)

    def move_name(self, move: Any, count: int, lines: list[int]) -> str:
        """A move's text in the file: a component's as it is; one in a value term, ``(term,
        option)``, as ``"i:#j"`` (``i``: the term's place after the ``count`` components, by
        its line among the node's sorted ``lines``, the first of equal ones)."""
        if not isinstance(move, tuple):
            return str(move)
        assert self.terms is not None
        term, option = move
        at = lines.index(self.terms.line(term, self.body)) + count
        prefix = f"{at + 1}:" if count + len(lines) > 1 else ""
        return f"{prefix}#{option}"

    def expand_terms(
        self, parts: list[Part], player: Player, terms: tuple[int, ...]
    ) -> tuple[bool, Any, list[Any]]:
        """:meth:`expand` of a node that may have value terms (``terms``: the writer's games,
        sorted): a value leaf if it is one; else a rewrite of its small components and its
        terms into fewer terms (a node not yet so, the root); else one winning move (in a
        component or a term), or every move, each move's result so rewritten on the way
        (the rewrite written with the move)."""
        writer = self.terms
        assert writer is not None
        real = list(self.parts_of.moves(parts, player, len(terms)))
        options = writer.term_moves(terms, player)
        if not real and not options:
            return False, [], []
        if not terms:  # (as without terms: a value leaf, a small brute force)
            leaf = self.small_leaf(parts, player)
            if leaf is not None:
                return leaf
        if terms and all(self.is_small(part) for part in parts):
            decided = writer.decide(terms, player, parts, self.value_budget)
            if decided is not None:  # (a value leaf at once, not a rewrite to one)
                self.leaves += 1
                self.value_leaves += 1
                return decided, VALUES, []
        kept, folded, step = self.normal(parts, terms)
        if step is not None:
            wins = writer.wins(kept, folded, player)
            child = self.key(kept, player, folded)
            return wins, _Rewrite(step.groups, child), [(kept, player, folded)]
        decided = None if parts else writer.decide(terms, player)
        if decided is not None:
            self.leaves += 1
            self.value_leaves += 1
            return decided, VALUES, []
        opponent = player.opponent
        moves: list[tuple[Any, list[Part], tuple[int, ...], Any, bytes]] = []
        for move, result, after in [(t, r, terms) for t, r in real] + [
            (m, parts, a) for m, a in options
        ]:
            result, after, step = self.normal(result, after)
            moves.append((move, result, after, step, self.key(result, opponent, after)))
        for move, _, _, step, child in moves:  # a position already proved lost for the opponent
            if child in self.ids and not self.claims[self.ids[child]]:
                return True, (move, child, step), []
        for move, result, after, step, child in moves:  # to a value leaf lost for the opponent
            if self.leaf_lost(result, after, opponent):
                return True, (move, child, step), [(result, opponent, after)]
        if writer.wins(parts, terms, player):
            ordered = sorted(
                moves,
                key=lambda m: self.replies(m[1], opponent) + writer.replies(m[2], opponent),
            )
            for move, result, after, step, child in ordered:
                if not writer.wins(result, after, opponent):
                    return True, (move, child, step), [(result, opponent, after)]
            raise ValueError("the who-wins search contradicts itself: no winning move")
        entries = [
            child if step is None else (move, step, child) for move, _, _, step, child in moves
        ]
        children = {child: (r, opponent, a) for _, r, a, _, child in moves}
        return False, entries, list(children.values())

    def normal(
        self, parts: list[Part], terms: tuple[int, ...]
    ) -> tuple[list[Part], tuple[int, ...], _Step | None]:
        """The position as the writer proves it: its small components and its terms folded
        into fewer terms (:meth:`_TermWriter.fold`), and the step that does so (``None``:
        nothing to fold)."""
        writer = self.terms
        assert writer is not None
        small = [(i + 1, part) for i, part in enumerate(parts) if self.is_term_small(part)]
        if small or len(terms) > 1:
            found = writer.fold(small, terms, self.term_budget)
            if found is not None and found[0]:
                groups, folded = found
                gone = {i for group in groups for i in group[0]}
                kept = [part for i, part in enumerate(parts, 1) if i not in gone]
                return kept, folded, _Step(tuple(groups), len(parts), terms)
        return parts, terms, None

    def groups(self, count: int, terms: tuple[int, ...], groups: Any) -> list[Any]:
        """The groups of a rewrite as the file says them: the parts of a position of ``count``
        components and ``terms`` numbered from 1 (the terms after the components, by their
        lines' numbers), the terms added by their lines' numbers."""
        writer = self.terms
        assert writer is not None
        lines = sorted(writer.line(term, self.body) for term in terms)
        slots: dict[int, list[int]] = {}  # each line's places in the position (from 1)
        for at, line in enumerate(lines, count + 1):
            slots.setdefault(line, []).append(at)
        found = []
        for components, removed, added in groups:
            places = [slots[writer.line(term, self.body)].pop() for term in removed]
            new = [writer.line(term, self.body) for term in added]
            found.append([[*components, *sorted(places)], new])
        return found

    def leaf_lost(self, parts: list[Part], terms: tuple[int, ...], player: Player) -> bool:
        """Is the position a value leaf that ``player``, to move, loses (as
        :meth:`expand_terms` would close it)?"""
        if not terms:
            return self.closed_by_values(parts, player) is False
        if not all(self.is_small(part) for part in parts):
            return False
        assert self.terms is not None
        return self.terms.decide(terms, player, parts, self.value_budget) is False

    def is_term_small(self, part: Part) -> bool:
        """Does the component reach at most ``term_budget`` distinct positions (itself
        included)? Then the checker values it within its term budget, whatever it knows."""
        writer = self.terms
        assert writer is not None
        if len(part[0]) > TERM_TEXT_HINT:
            return False
        return writer.cheap(part, self.term_budget, self.body.count)

    def small_leaf(self, parts: list[Part], player: Player) -> tuple[bool, Any, list] | None:
        """A node the checker closes itself: a value leaf, else a small brute force (``(claim,
        proof, [])``), or ``None``."""
        wins = self.closed_by_values(parts, player) if self.value_budget else None
        if wins is not None:
            self.leaves += 1
            self.value_leaves += 1
            return wins, VALUES, []
        if sum(len(text) for text, _ in parts) <= LEAF_TEXT_HINT and self.leaf_budget:
            try:
                wins = brute_force_wins(self.parts_of, parts, player, self.leaf_budget)
            except LeafTooBig:
                return None
            self.leaves += 1
            return wins, SEARCH, []
        return None

    def closed_by_values(self, parts: list[Part], player: Player) -> bool | None:
        """Does ``player`` to move win, by the components' values (``None``: not a value
        leaf, a component being too big for ``value_budget`` or the sum too much work)?"""
        small = self.small
        if any(len(text) > VALUE_TEXT_HINT or small.get(text) is False for text, _ in parts):
            return None  # (before any walk: one big part is enough)
        if not all(self.is_small(part) for part in parts):
            return None
        try:
            return self.values.sum_wins(parts, player, self.value_budget)
        except ValueTooBig:
            return None

    def is_small(self, part: Part) -> bool:
        """Does the component reach at most ``value_budget`` distinct positions (itself
        included)? The checker expands at most those for its value, whatever it knows."""
        known = self.small.get(part[0])
        if known is None:
            known = len(part[0]) <= VALUE_TEXT_HINT and self._walk(
                part, self.value_budget, self.small, VALUE_TEXT_HINT
            )
            if len(self.small) >= _CachedParts.LIVE_MEMO:
                self.small.clear()
            self.small[part[0]] = known
        return known

    def _walk(self, part: Part, budget: int, small: dict[str, bool], hint: int) -> bool:
        """Does ``part`` reach at most ``budget`` distinct positions? When it does, so does
        every position it reaches (a subset), and those of at most ``hint`` characters are
        marked so in ``small``."""
        seen = {part[0]}
        todo = [part]
        while todo:
            top = todo.pop()
            for player in SIDES.values():
                for _, after in self.parts_of.component_moves(top, player):
                    for child in after:
                        if child[0] in seen:
                            continue
                        if small.get(child[0]) is False:
                            return False
                        seen.add(child[0])
                        if len(seen) > budget:
                            return False
                        todo.append(child)
        for text in seen:
            if len(text) <= hint:
                small[text] = True
        return True

    def stands_alone(self, parts: list[Part]) -> bool:
        """Can ``parts`` be a lemma's position: does its text (the components joined by the
        ruleset's sum separator) read back as the same components? (Not in a ruleset without
        a sum separator, for one.)"""
        try:
            text = format_position(self.ruleset, _position_of(parts))
            again = self.parts_of.split(parse_position(self.ruleset, text))
        except (LimitExceeded, MemoryError):
            raise
        except Exception:  # (a text the ruleset cannot read back: expanded here instead)
            return False
        return [t for t, _ in again] == [t for t, _ in parts]

    def replies(self, parts: list[Part], player: Player) -> int:
        """How many moves ``player`` has in the sum of ``parts``."""
        return sum(self.parts_of.move_count(part, player) for part in parts)

    def expand(
        self, parts: list[Part], player: Player, depth: int = 0
    ) -> tuple[bool, Any, list[Any]]:
        """``(claim, proof, children to prove first)``; the proof names children by key.
        ``depth``: moves from the root."""
        moves = list(self.parts_of.moves(parts, player))
        if not moves:
            return False, [], []
        leaf = self.small_leaf(parts, player)
        if leaf is not None:
            return leaf
        opponent = player.opponent
        for text, result in moves:  # a position already proved lost for the opponent
            child = self.key(result, opponent)
            if child in self.ids and not self.claims[self.ids[child]]:
                return True, (text, child), []
        if self.value_budget:  # a move to a value leaf lost for the opponent: no search at all
            for text, result in moves:
                if self.closed_by_values(result, opponent) is False:
                    return True, (text, self.key(result, opponent)), [(result, opponent)]
        asks = self.asks
        if self.lemma_depth and depth >= self.lemma_depth and self.stands_alone(parts):
            self.lemma_leaves += 1
            wins = asks.wins(parts, player)
            if self.mirrors:
                self.lemma_orbits.add(self.orbit(parts, player, wins))
            return wins, LEMMA, []
        if asks.wins(parts, player):
            winning = None
            # the first winning move among those that leave the fewest replies: a smaller
            # proof (a fifth to a half fewer nodes) for little more search (the search's
            # table answers most at once). Preferring the moves the solve proved instead
            # gave (xo)^14 a 70% bigger certificate, and was slower to write and check.
            # In a proof in pieces (lemma_depth), the first the search already knows wins,
            # if any: on boards that big a move the solve never tried costs a search of its
            # own (3x11: each of half an hour or more).
            ordered = sorted(moves, key=lambda move: self.replies(move[1], opponent))
            if self.mirrors and depth == 0:
                winning = self.symmetric_first(ordered, opponent)
            elif self.mirrors and depth == self.lemma_depth - 1:
                winning = self.mirrored_answer(ordered, opponent)
            if self.lemma_depth and winning is None:
                winning = next(
                    ((t, r) for t, r in ordered if asks.known(r, opponent) is False), None
                )
            for text, result in ordered if winning is None else ():
                if not asks.wins(result, opponent):
                    winning = text, result
                    break
            if winning is None:
                raise ValueError("the who-wins search contradicts itself: no winning move")
            text, result = winning
            return True, (text, self.key(result, opponent)), [(result, opponent)]
        children = {self.key(result, opponent): result for _, result in moves}
        return False, list(children), [(result, opponent) for result in children.values()]

    def orbit(self, parts: list[Part], player: Player, wins: bool) -> Any:
        return orbit_key(self.ruleset, Claim(tuple(t for t, _ in parts), player, wins))

    def symmetric_first(self, ordered: list[Any], opponent: Player) -> Any:
        """A first move (of ``ordered``, the root's) that wins and leaves a position of the
        most symmetries any first move leaves, or ``None``: the lemmas below a symmetric
        position pair up into mirror images, written once (Clobber 3x11, Right first: 37
        orbits of 46 lemmas after the move the solve found, 26 of 45 after one along the
        middle row). One the search knows wins is taken without searching; else at most
        :data:`SYMMETRIC_ROOT_SEARCHES` are searched, one of each orbit."""
        scored = [(symmetries_of(self.ruleset, [t for t, _ in r]), t, r) for t, r in ordered]
        most = max(count for count, _, _ in scored)
        if most == 1:
            return None
        best = [(t, r) for count, t, r in scored if count == most]
        known = next(((t, r) for t, r in best if self.asks.known(r, opponent) is False), None)
        if known is not None:
            return known
        tried: set[Any] = set()
        for text, result in best:
            orbit = self.orbit(result, opponent, False)
            if orbit in tried or self.asks.known(result, opponent) is not None:
                continue
            if len(tried) == SYMMETRIC_ROOT_SEARCHES:
                return None
            tried.add(orbit)
            if not self.asks.wins(result, opponent):
                return text, result
        return None

    def mirrored_answer(self, ordered: list[Any], opponent: Player) -> Any:
        """A move to the mirror image of a lemma already claimed lost for ``opponent`` (so it
        wins, and its lemma is rewritten from that one's), or ``None``."""
        for text, result in ordered:
            if self.orbit(result, opponent, False) in self.lemma_orbits:
                return text, result
        return None


@attrs.frozen
class _Rewrite:
    """A rewrite node's proof as the writer makes it: its groups, each ``(components removed,
    numbered from 1; terms removed; terms added)`` (terms by the writer's games), and the
    child's key."""

    groups: tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]
    child: bytes


@attrs.frozen
class _Step:
    """A rewrite on a move's way: its groups (as :class:`_Rewrite`'s), and the position it
    rewrites (its number of components and its terms), whose parts the groups number."""

    groups: tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]
    count: int
    terms: tuple[int, ...]


class _TermWriter:
    """Value terms as the writer makes them: their games (the checker's own value code, in an
    instance of their own that is never started afresh, so a game's number holds for the whole
    certificate), their value lines (each written once, its options first), and who wins a
    sum with terms in it (the outcome search on its components and its values as items)."""

    MEMO = 200_000

    def __init__(self, parts_of: Parts, asks: _SearchAsker) -> None:
        self.parts_of = parts_of
        self.values = Values(parts_of)
        self.values.work_limit = WRITER_WORK
        self.asks = asks
        self.small: dict[str, frozenset[str] | None] = {}
        """:meth:`reach` of each position met."""
        self.valued: set[str] = set()
        """The positions the terms so far reach (which the checker values)."""
        self.verdicts: dict[str, bool] = {}
        """:meth:`cheap` of each component asked."""
        self.lines: dict[int, int] = {}
        """The line number of each game written."""
        self.cores: dict[int, Any] = {}
        self.known: dict[tuple[Any, ...], bool] = {}
        self.reps: dict[int, tuple[Part, ...]] = {}
        """A sum of components equal to each game, where one is known: the oracle (the
        solve's own search, compiled or not) answers for a sum with terms as for the sum
        with each term's components in its place (equal games, the same winner)."""
        self.tried: set[int] = set()

    def reach(self, part: Part, budget: int) -> frozenset[str] | None:
        """The texts of the positions ``part`` reaches (itself included), or ``None`` when
        they are more than ``budget``: then the checker may not value it within its term
        budget, whatever it knows already. Remembered for every position met (a position
        reaches what its options reach: each is walked once, not once for each ancestor)."""
        memo = self.small
        found = memo.get(part[0], _UNKNOWN)
        if found is not _UNKNOWN:
            return found
        reached = {part[0]}
        for player in SIDES.values():
            for _, after in self.parts_of.component_moves(part, player):
                for child in after:
                    below = self.reach(child, budget)
                    if below is None or len(reached | below) > budget:
                        memo[part[0]] = None
                        return None
                    reached |= below
        found = memo[part[0]] = frozenset(reached)
        return found

    def cheap(self, part: Part, budget: int, nodes: int) -> bool:
        """Is ``part`` to be a value term: does it reach at most ``budget`` positions (so the
        checker values it within its term budget), while the terms' positions are within
        :data:`VALUED_BASE` and :data:`VALUED_PER_NODE` for the ``nodes`` written so far?"""
        verdict = self.verdicts.get(part[0])
        if verdict is None:
            if len(self.valued) > VALUED_BASE + VALUED_PER_NODE * nodes:
                return False  # (not for now: the terms cost enough for the proof so far)
            reached = self.reach(part, budget)
            verdict = reached is not None
            if verdict:
                self.valued |= reached  # type: ignore[operator]
            self.verdicts[part[0]] = verdict
        return verdict

    def line(self, term: int, body: NodeLines) -> int:
        """The number of ``term``'s value line, writing it (and its options' first) if new."""
        lines = self.lines
        found = lines.get(term)
        if found is not None:
            return found
        values = self.values
        stack = [term]
        while stack:
            top = stack[-1]
            if top in lines:
                stack.pop()
                continue
            missing = [o for o in values.lefts[top] + values.rights[top] if o not in lines]
            if missing:
                stack.extend(missing)
                continue
            stack.pop()
            form = [[lines[o] for o in values.lefts[top]], [lines[o] for o in values.rights[top]]]
            data = json.dumps({VALUE_LINE: form}, separators=(",", ":")).encode() + b"\n"
            body.add(data, node=False)
            lines[top] = len(lines)
        return lines[term]

    def fold(
        self, parts: list[tuple[int, Part]], terms: tuple[int, ...], budget: int
    ) -> tuple[list[Any], tuple[int, ...]] | None:
        """The values of ``parts`` (numbered components) and the games ``terms`` added up,
        smallest birthdays first, into as few terms as :data:`FOLD_BIRTHDAY` lets: the groups
        that change (``(components, terms removed, terms added)``, 0 left out) and the terms
        after, sorted; ``None`` when a value is past the budget or the writer's share of
        work."""
        values = self.values
        values.work = 0
        birthdays = values.birthdays
        try:
            items = [(values.value(t, c, budget), 0, i) for i, (t, c) in parts]
            items += [(term, 1, term) for term in terms]
            items.sort(key=lambda item: (birthdays[item[0]], item))
            groups: list[tuple[list[Any], int]] = []
            inputs: list[Any] = []
            total = 0
            for game, kind, source in items:
                if inputs and total and birthdays[total] + birthdays[game] > FOLD_BIRTHDAY:
                    groups.append((inputs, total))
                    inputs, total = [], 0
                total = values.add(total, game)
                inputs.append((kind, source))
            if inputs:
                groups.append((inputs, total))
        except ValueTooBig:
            return None
        changed = []
        after: list[int] = []
        numbered = dict(parts)
        for inputs, total in groups:
            if inputs == [(1, total)]:
                after.append(total)  # (a term alone in its group: left as it is)
                continue
            if total and total not in self.reps:
                found: list[Part] = []
                for kind, source in inputs:
                    rep = self.reps.get(source) if kind else (numbered[source],)
                    if rep is None:
                        break
                    found.extend(rep)
                else:
                    self.reps[total] = tuple(sorted(found, key=_text))
            components = tuple(source for kind, source in inputs if kind == 0)
            removed = tuple(source for kind, source in inputs if kind == 1)
            changed.append((components, removed, (total,) if total else ()))
            if total:
                after.append(total)
        return changed, tuple(sorted(after))

    def term_moves(
        self, terms: tuple[int, ...], player: Player
    ) -> list[tuple[tuple[int, int], tuple[int, ...]]]:
        """``player``'s moves in the terms: ``((term, option's index), terms after)``, each
        distinct term once (equal terms have the same moves)."""
        values = self.values
        found = []
        for at, term in enumerate(terms):
            if at and terms[at - 1] == term:
                continue
            rest = terms[:at] + terms[at + 1 :]
            side = values.lefts[term] if player is Player.LEFT else values.rights[term]
            for index, option in enumerate(side):
                after = tuple(sorted(rest + (option,))) if option else rest
                found.append(((term, index), after))
                if option and option not in self.reps and option not in self.tried:
                    self.derive(term, option, player)
        return found

    def derive(self, term: int, option: int, player: Player) -> None:
        """Find a sum of components equal to ``option``, an option of ``term`` for
        ``player``, among the positions a few moves from ``term``'s (one move; or, where the
        option is a reversible one bypassed, three): each canonical option is the value of
        some position so reached (Siegel II.2)."""
        self.tried.add(option)
        start = self.reps.get(term)
        if start is None:
            return
        values = self.values
        seen = {tuple(t for t, _ in start)}
        frontier = [start]
        for depth in range(3):
            mover = player if depth % 2 == 0 else player.opponent
            following = []
            for position in frontier:
                for i, part in enumerate(position):
                    rest = position[:i] + position[i + 1 :]
                    for _, after in self.parts_of.component_moves(part, mover):
                        found = tuple(sorted(rest + tuple(after), key=_text))
                        texts = tuple(t for t, _ in found)
                        if texts in seen:
                            continue
                        seen.add(texts)
                        if len(seen) > DERIVE_POSITIONS:
                            return
                        if depth % 2 == 0:
                            values.work = 0
                            try:
                                value = values.total(
                                    values.value(t, c, MAX_VALUE_BUDGET) for t, c in found
                                )
                            except ValueTooBig:
                                continue
                            if value == option:
                                self.reps[option] = found
                                return
                        following.append(found)
            frontier = following

    def replies(self, terms: tuple[int, ...], player: Player) -> int:
        values = self.values
        side = values.lefts if player is Player.LEFT else values.rights
        return sum(len(side[term]) for term in terms)

    def core(self, term: int) -> Any:
        """The core's canonical game of the writer's game ``term`` (canonical both)."""
        from cgframework.values import game

        found = self.cores.get(term)
        if found is None:
            values = self.values
            found = game(
                [self.core(o) for o in values.lefts[term]],
                [self.core(o) for o in values.rights[term]],
            )
            self.cores[term] = found
        return found

    def wins(self, parts: list[Part], terms: tuple[int, ...], player: Player) -> bool:
        """Does ``player``, to move in the sum of ``parts`` and ``terms``, win? Without terms
        the oracle's answer; with terms alone, by their sum; else the outcome search on the
        components with each term as a valued item (or in its folded term, an uptimal)."""
        if not terms:
            return self.asks.wins(parts, player)
        reps = self.reps
        if all(term in reps for term in terms):
            return self.asks.wins(parts + [p for term in terms for p in reps[term]], player)
        if not parts:
            decided = self.decide(terms, player)
            if decided is not None:
                return decided
        key = (tuple(text for text, _ in parts), terms, player is Player.LEFT)
        found = self.known.get(key)
        if found is None:
            found = self._search(parts, terms, player)
            if len(self.known) >= self.MEMO:
                self.known.clear()
            self.known[key] = found
        return found

    def decide(
        self,
        terms: tuple[int, ...],
        player: Player,
        parts: Sequence[Part] = (),
        budget: int = 0,
    ) -> bool | None:
        """Does ``player`` win the sum of ``terms`` and ``parts`` (each within ``budget``), as
        the checker decides a value leaf (the sum in two halves)? ``None`` when that is past
        the writer's share of work (two summands need no sum: only one comparison)."""
        values = self.values
        values.work = 0  # (never start_leaf: that could renumber the games)
        values.work_limit = WRITER_WORK if len(terms) + len(parts) <= 2 else DECIDE_WORK
        try:
            return values.sum_wins(parts, player, budget, terms, start=False)
        except ValueTooBig:
            return None
        finally:
            values.work_limit = WRITER_WORK

    def _search(self, parts: list[Part], terms: tuple[int, ...], player: Player) -> bool:
        import gc

        from cgframework.values import ZERO
        from cgframework.values.canonical import add

        search = self.asks.search
        rest, folded = search._fold(self.asks._comps(parts), ZERO)
        for term in terms:
            value = self.core(term)
            if value.uptimal is not None:
                folded = add(folded, value)
            else:
                rest.append(search._item(value))
        collecting = gc.isenabled()
        gc.disable()
        try:
            return bool(search._wins(rest, folded, player))
        finally:
            if collecting:
                gc.enable()


@attrs.define
class _Memo:
    """What the writer remembers of components (their moves, which are small, their values),
    kept from one certificate to the next in this process: the many lemmas of one proof share
    most small components. (Facts of components only: no proof node is shared.)"""

    parts_of: _CachedParts
    values: Values
    small: dict[str, bool]

    def restart_values(self) -> None:
        """Forget the values, keeping the moves and sizes (each a function of a component's
        text alone): which leaves :data:`WRITER_WORK` lets be value leaves depends on what the
        value code knows already, so a lemma searched after others could be written otherwise
        than alone (:func:`build_lemma` starts each lemma so)."""
        self.values = Values(self.parts_of)

    @staticmethod
    def of(ruleset: Ruleset, value_budget: int) -> _Memo:
        key = (ruleset.name, id(ruleset), value_budget)
        kept: tuple[tuple[str, int, int], _Memo] | None = getattr(_MEMOS, "memo", None)
        if kept is None or kept[0] != key:  # (one ruleset's at a time)
            parts_of = _CachedParts(ruleset)
            kept = _MEMOS.memo = (key, _Memo(parts_of, Values(parts_of), {}))
        return kept[1]


_MEMOS = threading.local()
"""``memo``: this thread's ``(key, _Memo)``. One a thread (the lemmas a cluster worker writes
in its threads): :class:`Values` numbers its games by appending to lists, which two threads
at once would garble."""


class _CachedParts(Parts):
    """:class:`~cgframework.proofs.checker.Parts` (which remembers each component's moves by
    its text) that also counts a component's moves without splitting their results. The moves
    of a sum, and their order, are the checker's, so a leaf's brute force counts the same."""

    COUNTS_MEMO = 2_000_000

    def __init__(self, ruleset: Ruleset) -> None:
        super().__init__(ruleset)
        self._counts: dict[tuple[str, bool], int] = {}

    def move_count(self, part: Part, player: Player) -> int:
        """How many moves ``player`` has in one component: the ruleset's ``options`` counted,
        their results not split (a proof asks this of every move's result, and keeps few)."""
        memo_key = (part[0], player is Player.LEFT)
        found = self._moves.get(memo_key)
        if found is not None:
            return len(found)
        count = self._counts.get(memo_key)
        if count is None:
            count = sum(1 for _ in self.ruleset.options(part[1], player))
            if len(self._counts) >= self.COUNTS_MEMO:
                self._counts.clear()
            self._counts[memo_key] = count
        return count


class _Asker:
    """The writer's questions to its oracle, on sorted parts: any oracle through positions;
    the outcome search through its own components, each split once (by text)."""

    MEMO = 200_000

    def __init__(self, oracle: WinOracle) -> None:
        self.oracle = oracle

    @staticmethod
    def of(oracle: WinOracle) -> _Asker:
        from cgframework.solvers.outcome_search import OutcomeSearch

        return _SearchAsker(oracle) if isinstance(oracle, OutcomeSearch) else _Asker(oracle)

    def wins(self, parts: list[Part], player: Player) -> bool:
        return self.oracle.wins(_position_of(parts), player)

    def known(self, parts: list[Part], player: Player) -> bool | None:
        """What the oracle knows of :meth:`wins` without searching (``None``: nothing)."""
        return None


class _SearchAsker(_Asker):
    def __init__(self, oracle: Any) -> None:
        super().__init__(oracle)
        self.search = oracle
        self.keep = oracle.components_are_keys
        self.comps: dict[str, list[Any]] = {}

    def _comps(self, parts: list[Part]) -> list[Any]:
        if not self.keep:  # (positions the search may forget: split afresh)
            return self.search.components_of(_position_of(parts))
        out: list[Any] = []
        memo = self.comps
        for text, component in parts:
            found = memo.get(text)
            if found is None:
                found = self.search.components_of(component)
                if len(memo) >= self.MEMO:
                    memo.clear()
                memo[text] = found
            out.extend(found)
        return out

    def wins(self, parts: list[Part], player: Player) -> bool:
        return self.search.wins_components(self._comps(parts), player)

    def known(self, parts: list[Part], player: Player) -> bool | None:
        return self.search.known_components(self._comps(parts), player)


_SALT = {Player.LEFT: b"L", Player.RIGHT: b"R"}


_UNKNOWN = object()


def _text(part: Part) -> str:
    return part[0]


def write_certificate(
    path: str,
    ruleset: Ruleset | str,
    position: Position | str,
    oracle: WinOracle | None = None,
    **options: Any,
) -> Certificate:
    """Build ``position``'s certificate (see :func:`build_certificate`) and write it to ``path``
    through :mod:`cgframework.runtime.outputs`: whole or not at all (a device is written in
    place, never replaced). Returns the certificate."""
    certificate = build_certificate(ruleset, position, oracle, **options)
    save_certificate(path, certificate)
    return certificate


def save_certificate(path: str, certificate: Certificate) -> None:
    """Write a built certificate to ``path`` through :mod:`cgframework.runtime.outputs`."""
    with open_output(path, binary=True) as out:
        certificate.write_to(out)


# ---- lemmas: the positions a certificate leaves to certificates of their own ---------------


def lemma_claims(path: str) -> tuple[str, list[Claim]]:
    """The ruleset's name and the lemma leaves (each claim once, in file order) of the
    certificate at ``path``: read, not checked (:mod:`cgframework.proofs.lemmas` checks)."""
    claims: dict[bytes, Claim] = {}
    with open_certificate(path) as raw, gzip.GzipFile(fileobj=raw, mode="rb") as stream:
        lines = bounded_lines(stream)
        header = _json(next(lines, b""))
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise ValueError(f"{path!r} is not a certificate")
        for line in lines:
            if b'"lemma"]' not in line:
                continue
            node = _json(line)
            if not (isinstance(node, list) and len(node) == 4 and node[3] == LEMMA):
                continue
            texts, mover, claim, _ = node
            if not (isinstance(texts, list) and all(isinstance(t, str) for t in texts)):
                raise ValueError("a lemma leaf's components are not a list of texts")
            if claim not in (WIN, LOSE):
                raise ValueError(f"a lemma leaf's claim {claim!r} is not W or L")
            found = Claim(tuple(texts), Player(mover), claim == WIN)
            claims.setdefault(found.digest + claim.encode(), found)
    return str(header["ruleset"]), list(claims.values())


def _json(line: bytes) -> Any:
    """One line of a certificate read by the writer (the checker has its own reading)."""
    try:
        return json.loads(line)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


def lemma_file(directory: str, claim: Claim) -> str:
    """Where :func:`write_lemmas` puts the lemma of ``claim``: named by the node's digest."""
    return os.path.join(directory, f"lemma-{claim.digest.hex()}-{WIN if claim.wins else LOSE}.gz")


def build_lemma(
    ruleset: Ruleset | str, claim: Claim, budget: SearchBudget | None = None, **options: Any
) -> Certificate:
    """The certificate of one lemma: ``claim``'s position with its mover first (one side),
    searched afresh. A search that finds the claim false raises :class:`ValueError`.

    Its bytes depend on the claim, the ruleset, this writer and the budgets (``options``)
    alone, not on what was searched before in this process (:func:`write_lemmas`): the
    search is new, and so is what the writer knows of values; what it keeps of components
    (their moves and sizes) is a function of their texts."""
    from cgframework.plugins import resolve_ruleset

    ruleset = resolve_ruleset(ruleset)
    position = _lemma_position(ruleset, claim)
    _Memo.of(ruleset, options.get("value_budget", DEFAULT_VALUE_BUDGET)).restart_values()
    built = build_certificate(
        ruleset, position, first=claim.mover, budget=budget, share_memo=True, **options
    )
    if built.mover_wins != claim.wins:
        raise ValueError(f"the search finds the lemma false: not {claim.describe()}")
    return built


def _lemma_position(ruleset: Ruleset, claim: Claim) -> Any:
    """The position of a lemma's component texts; :class:`ValueError` if one does not parse
    or there is none."""
    try:
        parts = [ruleset.parse(text) for text in claim.texts]
    except (LimitExceeded, MemoryError):
        raise
    except Exception as exc:  # (a ruleset's parser may raise anything on bad text)
        raise ValueError(f"a lemma's position does not parse: {exc}") from None
    if not parts:
        raise ValueError("a lemma's position has no component")
    return parts[0] if len(parts) == 1 else Sum(tuple(parts))


@attrs.frozen
class LemmasWritten:
    """What :func:`write_lemmas` did: lemma files searched and written now, written now from a
    mirror image's (:mod:`cgframework.proofs.images`), found already there, and left out as
    proved in the ledger."""

    written: tuple[str, ...]
    present: tuple[str, ...]
    nodes: int
    """Nodes of the lemmas written now (mirrored ones included)."""
    mirrored: tuple[str, ...] = ()
    in_ledger: int = 0
    """Lemmas not written, their files absent: the ledger records them as proved."""


def write_lemmas(
    path: str,
    directory: str,
    *,
    jobs: int = 1,
    max_nodes: int | None = None,
    timeout: float | None = None,
    progress: Callable[[int, int], None] | None = None,
    mirrors: bool = True,
    ledger: str | None = None,
    executor: str = "processes",
    tls: TlsFiles | None = None,
    insecure: bool = False,
    **options: Any,
) -> LemmasWritten:
    """Write the certificate of every lemma leaf of the certificate at ``path`` into
    ``directory`` (:func:`lemma_file`), each whole or not at all; lemmas already there are left
    as they are, so a run stopped half-way (``timeout`` seconds for the whole run, ``max_nodes``
    for each lemma's search: :class:`~cgframework.runtime.budget.SearchStopped`) is resumed by
    running it again. ``jobs`` processes write lemmas side by side; ``executor``
    ``dask://HOST:PORT`` or ``tls://HOST:PORT`` sends them to a Dask cluster instead (trusted as
    by ``cgf sweep``: ``tls``, ``insecure``), whose workers return each file's bytes to be
    written here (a worker is not trusted with the proof: the checker checks every file). With
    ``mirrors``, a lemma that is a mirror image of another (the ruleset's ``image``) is
    rewritten from that one's file rather than searched. Lemmas that the checker's ``ledger``
    records as proved (:func:`~cgframework.proofs.lemmas.proved_in_ledger`) are not written
    again, their files gone or not (but a source whose mirror images are to be written is
    written again). A lemma whose texts do not parse is refused (:class:`ValueError`) before
    anything is written. ``progress(done, total)`` after each lemma.

    Each file is the same whichever run, process, pool or worker writes it, in whatever order:
    :func:`build_lemma` depends on the lemma alone, and :func:`lemma_sources` on the main file
    alone (``cgf certificate reproduce`` relies on it)."""
    import time

    from cgframework.plugins import resolve_ruleset
    from cgframework.sweep.executors import check_cluster_trust, check_executor

    address = check_executor(executor)
    check_cluster_trust(address, tls, insecure)
    name, claims = lemma_claims(path)
    ruleset = resolve_ruleset(name)
    recorded: set[Claim] = set()
    if ledger is not None:  # (read before anything is made: a bad ledger leaves no folder)
        from cgframework.proofs.lemmas import proved_in_ledger

        try:
            recorded = proved_in_ledger(ledger, name)
        except CertificateError as exc:  # (a ledger that contradicts itself)
            raise ValueError(f"the ledger {ledger!r}: {exc}") from None
    for claim in claims:  # (refused before anything is made, not in a worker half-way)
        _lemma_position(ruleset, claim)
    sources = lemma_sources(ruleset, claims, mirrors)
    present = [c for c in claims if os.path.exists(lemma_file(directory, c))]
    there = set(present)
    proved = {c for c in claims if c in recorded and c not in there}
    fresh: list[Claim] = []  # searched and written here, in the top's order
    images: dict[Claim, list[tuple[Claim, int]]] = {}  # a source: its images still to write
    for claim in claims:
        if claim in there or claim in proved:
            continue
        source, symmetry = sources[claim]
        if symmetry is None:
            fresh.append(claim)
        else:
            images.setdefault(source, []).append((claim, symmetry))
    # (a source the ledger records, its file gone, is written again to mirror its images)
    fresh += [s for s in images if s not in there and s not in fresh]
    fresh.sort(key=claims.index)
    proved -= set(fresh)
    deadline = None if timeout is None else time.time() + timeout
    run = SearchBudget(timeout=timeout).start()  # (the client's clock, for a cluster's tasks)

    def task(claim: Claim) -> _LemmaTask:
        target = lemma_file(directory, claim)
        return _LemmaTask(name, claim, target, max_nodes, deadline, options)

    tasks = [task(claim) for claim in fresh]
    written: list[str] = []
    mirrored: list[str] = []
    nodes = 0

    def report() -> None:
        if progress is not None:
            progress(len(present) + len(proved) + len(written) + len(mirrored), len(claims))

    def mirror_images(source: Claim) -> None:
        nonlocal nodes
        pending = images.pop(source, ())
        if not pending:
            return
        with _Mirrors(ruleset, task(source), source in there, options) as mirror:
            for claim, symmetry in pending:
                target = lemma_file(directory, claim)
                built = mirror.image(claim, symmetry)
                if built is None:  # (the image is not the same game: searched instead)
                    _, count = _write_lemma(task(claim))
                    written.append(target)
                else:
                    save_certificate(target, built)
                    count = built.nodes
                    mirrored.append(target)
                nodes += count
                report()

    report()
    by_file = {lemma_file(directory, claim): claim for claim in fresh}
    results, stop = _start_lemmas(tasks, jobs, address, tls, directory, run)
    try:
        for source in present:  # (while the workers, if any, search)
            mirror_images(source)
        for target, count in results:
            written.append(target)
            nodes += count
            report()
            mirror_images(by_file[target])
    except TimedOut:  # (a lemma's share of the time ran out: the run's limit is what was set)
        if timeout is None:
            raise
        raise TimedOut(
            f"lemmas stopped after {timeout:g} s (--timeout); the lemmas written are kept: "
            "run it again to go on"
        ) from None
    finally:
        stop()  # (a pool's or a cluster's work left, if any)
        _MEMOS.__dict__.pop("memo", None)
    return LemmasWritten(
        tuple(written),
        tuple(lemma_file(directory, c) for c in present),
        nodes,
        tuple(mirrored),
        len(proved),
    )


def lemma_sources(
    ruleset: Ruleset, claims: Iterable[Claim], mirrors: bool = True
) -> dict[Claim, tuple[Claim, int | None]]:
    """Where :func:`write_lemmas` takes each lemma's file from: ``(claim, None)``, searched
    (:func:`build_lemma`); or ``(source, symmetry)``, rewritten from ``source``'s file
    (:func:`~cgframework.proofs.images.mirror_certificate`), ``source`` being the first of
    the ``claims`` (the main file's lemmas, in its order: :func:`lemma_claims`) that are
    mirror images of it (with ``mirrors``; the ruleset's ``image``). The main file alone
    decides, not the order lemmas are written nor which files exist, so a lemma's file is
    the same whichever run writes it. (The first, not the least by text, as the lemmas of
    the Clobber 3x11 proof were written.)"""
    orbits: dict[Any, list[Claim]] = {}
    for claim in claims:
        orbits.setdefault(orbit_key(ruleset, claim) if mirrors else claim, []).append(claim)
    found: dict[Claim, tuple[Claim, int | None]] = {}
    for members in orbits.values():
        source = members[0]
        for claim in members:
            symmetry = None if claim == source else symmetry_between(ruleset, source, claim)
            found[claim] = (claim, None) if symmetry is None else (source, symmetry)
    return found


def written_alone(path: str, options: dict[str, Any]) -> bool:
    """Is the file at ``path`` a lemma as this writer searches one with these ``options``
    (its header: this generator and format, these budgets, not mirrored)? Only such a file
    is mirrored: a file of another writer would give its images other bytes."""
    try:
        with open_certificate(path) as raw, gzip.GzipFile(fileobj=raw, mode="rb") as stream:
            header = _json(next(bounded_lines(stream), b""))
    except (OSError, ValueError, EOFError, zlib.error):
        return False
    return (
        isinstance(header, dict)
        and "mirror_of" not in header
        and header.get("generator") == f"cgframework {VERSION}"
        and header.get("version") == FORMAT_VERSION
        and header.get("leaf_budget") == options.get("leaf_budget", DEFAULT_LEAF_BUDGET)
        and header.get("value_budget") == options.get("value_budget", DEFAULT_VALUE_BUDGET)
    )


class _Mirrors:
    """The images of one source lemma (a context: a temporary file made, if any, goes with
    it). Each is rewritten from the source's file; a file there before this run is used only
    if :func:`written_alone` and it mirrors (else the source is searched again, into a
    temporary file: a damaged file, or another writer's, gives no image)."""

    def __init__(
        self, ruleset: Ruleset, source: _LemmaTask, before: bool, options: dict[str, Any]
    ) -> None:
        """``source``: the source lemma's task, its file at its target (``before``: there
        before this run; an empty target: no file, the source is searched)."""
        self.ruleset = ruleset
        self.source = source
        self.path: str | None = source.target or None
        """The file mirrored from (``None``: the source is to be searched again)."""
        self.ours = not before
        """Whether that file is this run's own (then it is not searched again)."""
        if before and not written_alone(source.target, options):
            self.path = None
        self.temporary = contextlib.ExitStack()

    def __enter__(self) -> _Mirrors:
        return self

    def __exit__(self, *exc: object) -> None:
        self.temporary.close()

    def image(self, claim: Claim, symmetry: int) -> Certificate | None:
        """``claim``'s certificate, the source's image under ``symmetry``; ``None`` if the
        source's file, searched by this writer, does not mirror onto it (an image that is
        not the same game: then it does not in any run)."""
        while True:
            if self.path is None:
                folder = self.temporary.enter_context(tempfile.TemporaryDirectory(prefix="cgf-"))
                self.path = os.path.join(folder, "source.gz")
                _write_lemma(attrs.evolve(self.source, target=self.path))
                self.ours = True
            try:
                return mirror_certificate(self.ruleset, self.path, symmetry, claim)
            except (LimitExceeded, MemoryError):
                raise
            except Exception:  # (a damaged file, or a ruleset's image that fails)
                if self.ours:
                    return None
                self.path = None


def write_lemma_alone(
    ruleset: Ruleset,
    claim: Claim,
    target: str,
    sources: dict[Claim, tuple[Claim, int | None]],
    *,
    max_nodes: int | None = None,
    deadline: float | None = None,
    **options: Any,
) -> tuple[int, Claim | None]:
    """Write ``claim``'s lemma at ``target`` as :func:`write_lemmas` would, given the claims'
    ``sources`` (:func:`lemma_sources`) and the same ``options``: searched, or its source
    searched (into a temporary file) and mirrored. The same bytes, whatever else was written
    (what ``cgf certificate reproduce`` compares with a ledger). Returns the nodes written and
    the source mirrored (``None``: searched)."""
    source, symmetry = sources[claim]
    task = _LemmaTask(ruleset.name, claim, target, max_nodes, deadline, options)
    if symmetry is not None:
        origin = attrs.evolve(task, claim=source, target="")
        with _Mirrors(ruleset, origin, False, options) as mirror:
            built = mirror.image(claim, symmetry)
        if built is not None:
            save_certificate(target, built)
            return built.nodes, source
    return _write_lemma(task)[1], None


@attrs.frozen
class _LemmaTask:
    """One lemma to search and write (a task of :func:`write_lemmas`, in any process)."""

    ruleset: str
    claim: Claim
    target: str
    max_nodes: int | None
    deadline: float | None
    """The whole run's end (``time.time()`` of the machine that started it), or none."""
    options: dict[str, Any]
    timeout: float | None = None
    """Seconds the lemma may take from its start, or none: what a cluster's worker gets
    instead of ``deadline`` (its clock need not be the client's)."""

    def build(self) -> Certificate:
        import time

        limits = [self.timeout] if self.timeout is not None else []
        if self.deadline is not None:
            limits.append(max(0.0, self.deadline - time.time()))
        budget = SearchBudget.of(self.max_nodes, min(limits) if limits else None)
        return build_lemma(self.ruleset, self.claim, budget, **self.options)


def _write_lemma(task: _LemmaTask) -> tuple[str, int]:
    """One lemma, built and saved where it goes (this process, or a pool's on this machine)."""
    built = task.build()
    save_certificate(task.target, built)
    return task.target, built.nodes


def _lemma_data(task: _LemmaTask) -> tuple[str, int, bytes]:
    """One lemma, built by a cluster's worker: its file's bytes, for the client to write."""
    import io

    built = task.build()
    data = io.BytesIO()
    built.write_to(data)
    return task.target, built.nodes, data.getvalue()


LEMMA_RESUBMISSIONS = 2
"""Times a lemma is submitted again to a Dask cluster whose scheduler gave up on it
(``KilledWorker``: the workers writing it died, each time computed again elsewhere, past the
scheduler's ``allowed-failures``): a worker lost now and then costs nothing but its work; a
lemma that kills every worker it meets (out of memory) ends the run (exit 3)."""


def _remote_tasks(tasks: list[_LemmaTask], run: SearchBudget) -> list[_LemmaTask]:
    """The tasks as a cluster's workers get them: no deadline of this machine's clock, the time
    ``run`` has left as each one's own limit instead."""
    left = run.remaining()
    left = None if left is None else max(0.0, left)
    return [attrs.evolve(task, deadline=None, timeout=left) for task in tasks]


def _start_lemmas(
    tasks: list[_LemmaTask],
    jobs: int,
    address: str,
    tls: TlsFiles | None,
    directory: str,
    run: SearchBudget,
) -> tuple[Iterator[tuple[str, int]], Callable[[], None]]:
    """``(file, nodes)`` of each lemma as it is written, and the function that stops what is
    left: here one after another (one job, or the ``local`` executor), in a pool of ``jobs``
    processes (:func:`~cgframework.sweep.executors.pool_results`), or on a Dask cluster (files
    written here from the bytes its workers return). The pool or the cluster starts at once;
    ``directory`` is made only then (a cluster out of reach leaves nothing made). A cluster's
    worker gets the time ``run`` has left as its own limit, counted by its own clock, and this
    process stops the run when ``run``'s time is out (:class:`SearchStopped`). A lemma whose
    worker dies is written by another: the scheduler computes it again, and when it gives up
    on it, this process submits it again (:data:`LEMMA_RESUBMISSIONS` times at most); a file
    is written here only from a worker's finished bytes, so a lemma cut short leaves none."""
    if address == "local" or (address == "processes" and (jobs <= 1 or len(tasks) <= 1)):
        os.makedirs(directory, exist_ok=True)
        return map(_write_lemma, tasks), lambda: None
    from cgframework.plugins import _extra_modules
    from cgframework.sweep.executors import (
        WorkersLost,
        _executor,
        cluster_results,
        pool_results,
        run_with_plugins,
    )
    from cgframework.sweep.roots import _cancel
    from cgframework.sweep.runner import DEFAULT_WORKER_GRACE

    kept = "the lemmas written are kept: run it again"
    if address == "processes":
        os.makedirs(directory, exist_ok=True)
        return pool_results(_write_lemma, tasks, jobs, kept)
    client, shutdown = _executor(address, jobs, tls)
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError:
        shutdown()
        raise
    extra = [*_extra_modules]
    remote = _remote_tasks(tasks, run)
    futures = [client.submit(run_with_plugins, extra, _lemma_data, task) for task in remote]
    given = {future.key: (task, 0) for future, task in zip(futures, tasks, strict=True)}

    def resubmit(future: Any) -> Any:
        """The lemma of ``future``, whose workers kept dying, submitted again (a new key)."""
        task, tries = given.pop(future.key)
        future.release()
        if tries >= LEMMA_RESUBMISSIONS:
            raise WorkersLost(
                f"the Dask cluster at {address} gave up on the lemma {task.claim.describe()} "
                f"{tries + 1} times, its workers dying as they wrote it (out of memory?); {kept}"
            )
        (again,) = _remote_tasks([task], run)  # (the time left now)
        new = client.submit(run_with_plugins, extra, _lemma_data, again, pure=False)
        given[new.key] = (task, tries + 1)
        futures.append(new)
        return new

    saved: set[Any] = set()

    def results() -> Iterator[tuple[str, int]]:
        for future, (target, count, data) in cluster_results(
            client, futures, address, DEFAULT_WORKER_GRACE, run, resubmit, kept
        ):
            with open_output(target, binary=True) as out:
                out.write(data)
            saved.add(future.key)
            future.release()  # (the cluster keeps a result while a future holds it: MBs)
            yield target, count

    def stop() -> None:
        _cancel(client, [future for future in futures if future.key not in saved])
        shutdown()

    return results(), stop


__all__ = [
    "DEFAULT_LEAF_BUDGET",
    "DEFAULT_TERM_BUDGET",
    "DEFAULT_VALUE_BUDGET",
    "MAX_WRITTEN_NODES",
    "BruteForceOracle",
    "Certificate",
    "LemmasWritten",
    "WinOracle",
    "build_certificate",
    "build_lemma",
    "default_oracle",
    "lemma_claims",
    "lemma_file",
    "lemma_sources",
    "save_certificate",
    "write_lemma_alone",
    "write_certificate",
    "write_lemmas",
]
