"""The independent checker of a certificate of who wins, and the file format it defines.

A certificate is a gzip stream of JSON lines. The first line is the header (``left_first``: who wins
with Left moving first, as in ``cgf solve --json``)::

    {"format": "cgframework-certificate", "version": 2, "generator": "cgframework 1.2",
     "ruleset": "clobber", "ruleset_version": "1", "position": "xoxoxo",
     "left_first": "L", "right_first": "R", "outcome": "N",
     "roots": {"left_first": 41, "right_first": 87}, "nodes": 88, "leaves": 30,
     "leaf_budget": 200, "leaf_measure": "...", "value_budget": 2000, "value_leaves": 12,
     "sha256": "<hex of every byte after the header>"}

Every other line is one node, numbered from 0, ``[components, mover, claim, proof]``: the
position as the sorted texts of its live components (the ruleset's ``format`` of each; a
component where neither player can move is left out), ``"L"`` or ``"R"`` to move, ``"W"`` if
the mover wins or ``"L"`` if the mover loses (normal play), and the proof of the claim:

* ``"W"``: ``[move, child]``, a legal move (its text; in a sum of several components
  ``"i:text"``, ``i`` counting the sorted components from 1) that leads to node ``child``,
  where the other player moves and loses;
* ``"L"``: ``[child, ...]``, for every move of the mover the node its result is, where the
  other player moves and wins (no moves at all: ``[]``, the mover cannot move and loses);
* ``"search"``: a small position the checker solves itself by plain brute force, within
  ``leaf_budget`` positions (and never more than :data:`MAX_LEAF_BUDGET`);
* ``"values"`` (version 2): a position whose components are small enough for the checker to
  compute the canonical value of each itself (:mod:`cgframework.proofs.values`, its own short
  code from ``options`` alone), each within ``value_budget`` positions not yet known (never
  more than :data:`MAX_VALUE_BUDGET`); the values are remembered by component text for the
  rest of the check. The sum ``G`` of the values decides the claim: Left to move wins iff NOT
  ``G <= 0``, Right to move iff NOT ``G >= 0``.

* ``"lemma"`` (version 3): the claim is assumed here and proved by another certificate, a
  *lemma*, whose root is this very node (its position, the components joined by the ruleset's
  sum separator, with this mover) and whose claim is the same. A certificate with lemma leaves
  proves its outcome only together with its lemmas: :mod:`cgframework.proofs.lemmas` checks
  such a proof in several files, each file checked on its own, so a proof too big for one
  process (or one machine's day) is written and checked piece by piece.

Version 4 adds *value terms*: a node's components may be followed by numbers of *value
lines*, each a game form ``{"value": [[left options], [right options]]}`` whose options are
numbers of earlier value lines (counted from 0, apart from the nodes; so no cycle), each line
before the first node that needs it. A term stands for its game in the sum: a move in the
``i``-th part (the components, then the terms, counted from 1) that is a term is ``"i:#j"``
(``"#j"`` in a lone term), to its ``j``-th option for the mover (counted from 0; a term whose
line has no option at all is 0 and left out of positions); a losing node answers every move
in its components and every option of every term. ``"values"`` leaves add the terms' games to
the components' values; ``"search"`` and ``"lemma"`` leaves have no terms. One more kind of
node:

* ``["=", [[removed, added], ...], child]``: an *equal-sum rewrite*. In each group the parts
  numbered in ``removed`` (components or terms, each part in one group at most) add up to the
  same game as the value lines in ``added``: the checker computes each removed component's
  canonical value itself, within ``term_budget`` new positions (past it: a limit, as at its
  own limits), and compares the sums with ``<=`` both ways. The child is the position with
  them replaced, the same player to move, and makes the same claim: replacing a summand by an
  equal game never changes who wins (normal play). It replaces a component by its value,
  drops one of value 0, adds terms into one, cancels opposite ones.

A rewrite may also come with the move it follows: a winning node's proof ``[move, child,
groups]`` says the move's result, rewritten by ``groups``, is the child's position; a losing
node's list may hold ``[move, groups, child]`` for a move whose result is so rewritten (its
other moves' results are listed as children, as before). The header of version 4 adds
``term_budget`` and ``value_lines`` (how many there are).

A version 3 header may prove one side only: ``roots`` holds ``left_first`` or ``right_first``
alone, the header names who wins for that side alone, and has no ``outcome`` (a lemma's
certificate is of this kind). Version 1 files (no ``"values"`` leaves, no ``value_budget``),
version 2 files (both sides, no ``"lemma"`` leaves) and version 3 files (no terms) are still
read.

A child's number is always smaller than its parent's, so the file is a DAG in an order where
every claim is proved from claims already proved: no cycle can hide in it. The checker reads
the nodes one by one, keeping a 16-byte digest and the claim of each, and uses the ruleset's
``parse``, ``format``, ``components`` and ``options`` alone (its value code too). A file that
fails is refused with :class:`CertificateError` (what, and which node); a file that cannot be
read, or names a ruleset that is not installed, with :class:`CertificateUnreadable`; a file
past the checker's limits with :class:`~cgframework.runtime.budget.LimitExceeded`.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import threading
import zlib
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

import attrs

from cgframework.game import Convention, Outcome, Player, Position, Ruleset, Sum, parse_position
from cgframework.proofs.values import MAX_BIRTHDAY, Values, ValueTooBig, ValueTooCostly
from cgframework.runtime.budget import NO_LIMIT, LimitExceeded, SearchStopped
from cgframework.runtime.inputs import open_regular_file

FORMAT = "cgframework-certificate"
FORMAT_VERSION = 3
TERMS_VERSION = 4
"""The version of a certificate with value lines, value terms and rewrite nodes (one without
them is written as version 3, as before)."""
READ_VERSIONS = (1, 2, 3, 4)
"""The format versions this checker reads (1: no ``"values"`` leaves; 2: no ``"lemma"``
leaves and both sides proved; 3: no value terms)."""

MAX_LEAF_BUDGET = 10_000
"""Positions the checker's brute force expands for one leaf at most, whatever a file asks."""

MAX_VALUE_BUDGET = 100_000
"""New positions the checker expands for the value of one component of a ``"values"`` leaf at
most, whatever a file asks."""

MAX_NODES = 5_000_000
"""Nodes a certificate may have unless the caller allows more (about 40 bytes each in memory)."""

MAX_COMPONENTS = 1000
"""Components of one node at most: each move copies the others, so a node of n components
costs n squared; a hostile file of a million tiny components must not take hours."""

MAX_LEAF_WORK = 10_000_000
"""Components copied by the checker's brute force for one leaf at most (each move's result is
the position's other components and the moved one's parts): a leaf of a thousand alike
components stays within its position budget, the alike ones collapsing, yet costs a billion
copies. This writer's leaves (of at most 12 characters) cost a few thousand."""

MAX_MOVES = 1_000_000
"""Moves of one node the checker goes through at most: a one-line node of a huge position
(a nim heap of 10^30, its winning move listed last) must not keep it busy for ever."""

MAX_LINE_BYTES = 1 << 20
"""Bytes of one line (a node or the header) at most."""

MAX_BYTES = 1 << 31
"""Decompressed bytes of a whole certificate at most."""

WORK_BASE = 20_000_000
WORK_PER_NODE = 1_000
"""Steps the checker takes for one file at most, unless the caller says (``max_work``,
``--max-work``): ``WORK_BASE`` plus ``WORK_PER_NODE`` for each node the header counts (with
several processes, for each process's share). A step is a move gone through, or a component
a move's result copies (in the nodes' checks and the brute force of leaves), or a step of
value arithmetic. Each node and leaf has limits of its own; this bounds a file's nodes
together, so that a short file cannot buy hours. An honest certificate takes 5 to 20 steps a
node (Clobber 3x6: 7.7, (XO)^20: 10.5); the base is two leaves at the brute force's own
limit, ten at the value code's."""

MAX_LEMMAS = 100_000
"""Lemma leaves of one certificate at most (each is kept, texts and all, to be matched)."""

PROGRESS_EVERY = 4096
"""Nodes between two calls of ``check_certificate``'s ``progress``."""

LEAF_MEASURE = (
    "positions expanded by the checker's brute force (a negamax over sorted component texts, "
    "memoised within the leaf)"
)

VALUE_MEASURE = (
    "positions of one component whose canonical value the checker computes for the first time "
    "(values are remembered by component text for the whole check)"
)

WIN, LOSE, SEARCH, VALUES, LEMMA = "W", "L", "search", "values", "lemma"
REWRITE = "="
"""The first item of a rewrite node's proof, ``["=", removed, added, child]``."""
VALUE_LINE = "value"
"""The one key of a value line, ``{"value": [[left options], [right options]]}``."""
SIDES = {"left_first": Player.LEFT, "right_first": Player.RIGHT}
"""A certificate's roots, by the header's names for them."""


def winner(side: str, mover_wins: bool) -> str:
    """Who wins ``side`` (``"left_first"`` or ``"right_first"``) as a header and ``cgf solve
    --json`` say it, ``"L"`` or ``"R"``, from whether the player moving first wins."""
    first = SIDES[side]
    return (first if mover_wins else first.opponent).value


def mover_wins(side: str, said: Any) -> bool:
    """Does the player moving first win ``side``, by who wins it as :func:`winner` says it?"""
    return said == SIDES[side].value


class CertificateError(Exception):
    """The certificate does not prove its claim: damaged, inconsistent, or wrong. The message
    says what, and where (``node N``)."""


class CertificateUnreadable(Exception):
    """The file cannot be read at all, or names a ruleset that is not installed."""


class LeafTooBig(Exception):
    """A brute-force search passed its budget."""


class LeafTooCostly(LeafTooBig):
    """A brute-force search passed :data:`MAX_LEAF_WORK`, whatever its budget: past what this
    checker spends on one leaf (a limit, not a fault of the leaf)."""


@attrs.frozen
class Claim:
    """One node's claim: the position (its sorted live component texts), who moves, and
    whether the mover wins. A certificate's roots are claims it proves, its lemma leaves claims
    it assumes; a lemma's root discharges an assumption with the same digest and claim."""

    texts: tuple[str, ...]
    mover: Player
    wins: bool

    @property
    def digest(self) -> bytes:
        return node_digest(self.texts, self.mover)

    def describe(self, separator: str = " + ") -> str:
        """``POSITION, Left to move, wins`` (a long position shortened)."""
        verb = "wins" if self.wins else "loses"
        return f"{_short(separator.join(self.texts))}, {self.mover.name.lower()} to move {verb}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "components": list(self.texts),
            "mover": self.mover.value,
            "claim": WIN if self.wins else LOSE,
        }


@attrs.frozen
class CheckReport:
    """What a verified certificate proves (with its lemmas, if it has any: ``assumes``)."""

    ruleset: str
    position: str
    outcome: Outcome | None
    """``None`` for a certificate of one side (a lemma's)."""
    left_first_wins: bool | None
    """Does Left, moving first, win? (``None``: not proved here)"""
    right_first_wins: bool | None
    """Does Right, moving first, win? (``None``: not proved here)"""
    nodes: int
    leaves: int
    leaf_positions: int
    """Positions the checker's brute force expanded for all leaves together."""
    ruleset_version: str
    """The ruleset's version the certificate was written for."""
    generator: str
    installed_version: str = ""
    """The installed ruleset's version, that the certificate was checked against."""
    value_leaves: int = 0
    """Leaves closed by the components' canonical values (``leaves`` counts them too)."""
    value_positions: int = 0
    """Positions the checker's value code expanded for all value leaves together."""
    rewrites: int = 0
    """Equal-sum rewrites (version 4): rewrite nodes, and moves rewritten on their way."""
    value_lines: int = 0
    """Value lines (version 4): the game forms the value terms name."""
    claims: tuple[Claim, ...] = ()
    """The roots' claims: what the certificate proves."""
    assumes: tuple[Claim, ...] = ()
    """The lemma leaves' claims, each once: what the proof still needs (empty: complete)."""
    lemma_leaves: int = 0
    lemma_files: int = 0
    """Lemma certificates checked with it (:mod:`cgframework.proofs.lemmas`)."""
    lemma_files_from_ledger: int = 0
    """Of those, how many a ledger vouched for (checked by an earlier run), not checked again."""
    file_sha256: str = ""
    """The SHA-256 of the file's bytes, as they were checked."""
    lemma_claims_from_ledger: int = 0
    """Of the lemma claims the certificate assumes, how many rest on a ledger: established
    only with files it vouched for or records (checked by an earlier run), not checked now."""
    ledger_signer: str = ""
    """The fingerprint of the trusted key whose signature of the ledger verified, if any."""
    ledger_unverified: str = ""
    """Why the ledger's signature did not verify, when it was trusted all the same (asked)."""

    def as_dict(self) -> dict[str, Any]:
        sides = {"left_first": self.left_first_wins, "right_first": self.right_first_wins}
        return {
            "verified": not self.assumes,
            "ruleset": self.ruleset,
            "position": self.position,
            "outcome": None if self.outcome is None else self.outcome.value,
            **{name: winner(name, wins) for name, wins in sides.items() if wins is not None},
            "nodes": self.nodes,
            "leaves": self.leaves,
            "leaf_positions": self.leaf_positions,
            "value_leaves": self.value_leaves,
            "value_positions": self.value_positions,
            "rewrites": self.rewrites,
            "value_lines": self.value_lines,
            "ruleset_version": self.ruleset_version,
            "installed_version": self.installed_version,
            "generator": self.generator,
            "lemma_leaves": self.lemma_leaves,
            "lemma_files": self.lemma_files,
            "lemma_files_from_ledger": self.lemma_files_from_ledger,
            "lemma_claims_from_ledger": self.lemma_claims_from_ledger,
            "ledger_signer": self.ledger_signer or None,
            "ledger_unverified": self.ledger_unverified or None,
            "file_sha256": self.file_sha256,
            "assumes": [claim.as_dict() for claim in self.assumes[:MAX_LISTED]],
            "assumed": len(self.assumes),
        }


MAX_LISTED = 20
"""Open lemmas a report lists at most (``assumed`` counts them all)."""


# ---- positions as sorted component texts ----------------------------------------------------

Part = tuple[str, Position]
"""One live component: its text (the ruleset's ``format``) and the position."""


class Parts:
    """A ruleset's positions as sorted lists of live component texts: the node keys of a
    certificate, computed with ``components``, ``format`` and ``options`` only."""

    LIVE_MEMO = 200_000
    MOVES_KEPT = 256
    """A component's moves are remembered when it has at most this many (memory)."""

    def __init__(self, ruleset: Ruleset, share: Parts | None = None) -> None:
        """``share``: another :class:`Parts` of the ruleset whose memos (and work counter)
        this one uses too."""
        self.ruleset = ruleset
        self.work: FileWork | None = None if share is None else share.work
        """Where the steps of :meth:`moves` and :meth:`moves_named` are counted, if set."""
        self._live: dict[str, bool] = {} if share is None else share._live
        self._results: dict[str, list[Part]] = {} if share is None else share._results
        self._parsed: dict[str, Position] = {} if share is None else share._parsed
        self._moves: dict[tuple[str, bool], list[tuple[str, list[Part]]]] = (
            {} if share is None else share._moves
        )

    def parse(self, text: str) -> Position:
        """The ruleset's ``parse`` of a component's text, remembered (positions are immutable:
        the nodes of a certificate name the same components again and again)."""
        found = self._parsed.get(text)
        if found is None:
            found = self.ruleset.parse(text)
            if len(self._parsed) >= self.LIVE_MEMO:
                self._parsed.clear()
            self._parsed[text] = found
        return found

    def split(self, position: Position) -> list[Part]:
        """The live components of ``position`` (a :class:`Sum` or one position), sorted."""
        found: list[Part] = []
        for part in position.parts if isinstance(position, Sum) else (position,):
            for component in self.ruleset.components(part):
                text = self.ruleset.format(component)
                if self.live(text, component):
                    found.append((text, component))
        found.sort(key=_text_of)
        return found

    def live(self, text: str, component: Position) -> bool:
        """Can either player move in ``component``? (A dead one changes no sum's moves.)"""
        known = self._live.get(text)
        if known is None:
            known = any(
                next(iter(self.ruleset.options(component, player)), None) is not None
                for player in Player
            )
            if len(self._live) >= self.LIVE_MEMO:
                self._live.clear()
            self._live[text] = known
        return known

    def component_moves(self, part: Part, player: Player) -> Iterable[tuple[str, list[Part]]]:
        """``player``'s moves in one component: each move's text and its live parts, the
        list remembered by the component's text when it has at most :attr:`MOVES_KEPT`."""
        key = (part[0], player is Player.LEFT)
        found = self._moves.get(key)
        if found is not None:
            yield from found
            return
        made: list[tuple[str, list[Part]]] | None = []
        for move in self.ruleset.options(part[1], player):
            step = move.text, self.split_result(move.result)
            if made is not None:
                made.append(step)
                if len(made) > self.MOVES_KEPT:
                    made = None
            yield step
        if made is not None:
            if len(self._moves) >= self.LIVE_MEMO:
                self._moves.clear()
            self._moves[key] = made

    def split_result(self, position: Position) -> list[Part]:
        """:meth:`split` of a move's result, remembered by the result's text (the ruleset's
        ``format``, which stands for a position throughout a certificate): positions reached
        by many moves are split once. The list is shared: do not change it."""
        text = self.ruleset.format(position)
        found = self._results.get(text)
        if found is None:
            found = self.split(position)
            if len(self._results) >= self.LIVE_MEMO:
                self._results.clear()
            self._results[text] = found
        return found

    def moves(
        self, parts: list[Part], player: Player, others: int = 0
    ) -> Iterator[tuple[str, list[Part]]]:
        """Every move of ``player`` in the sum of ``parts``: its text and the sorted result
        (``others``: how many value terms the node has besides, for the moves' names)."""
        count = 0
        work = self.work
        for i, part in enumerate(parts):
            prefix = _move_prefix(i, parts, others)
            rest = parts[:i] + parts[i + 1 :]
            for text, after in self.component_moves(part, player):
                count = _one_more_move(count)
                result = rest + after
                if work is not None:
                    work.spend(1 + len(result))
                result.sort(key=_text_of)
                yield prefix + text, result

    def moves_named(
        self, parts: list[Part], player: Player, wanted: str, others: int = 0
    ) -> Iterator[list[Part]]:
        """The sorted result of each move of ``player`` named ``wanted`` (as :meth:`moves`
        names it); only those results are split into components."""
        count = 0
        work = self.work
        for i, part in enumerate(parts):
            prefix = _move_prefix(i, parts, others)
            if not wanted.startswith(prefix):
                continue
            known = self._moves.get((part[0], player is Player.LEFT))
            if known is not None:
                for text, after in known:
                    if prefix + text == wanted:
                        result = parts[:i] + parts[i + 1 :] + after
                        result.sort(key=_text_of)
                        yield result
                continue
            for move in self.ruleset.options(part[1], player):
                count = _one_more_move(count)
                if work is not None:
                    work.spend(1)
                if prefix + move.text == wanted:
                    result = parts[:i] + parts[i + 1 :] + self.split_result(move.result)
                    if work is not None:
                        work.spend(len(result))
                    result.sort(key=_text_of)
                    yield result


class FileWork:
    """The steps the checker took on one file so far (see :data:`WORK_PER_NODE`), within
    ``limit``: past it, :class:`~cgframework.runtime.budget.LimitExceeded`."""

    def __init__(self, limit: int, which: str = "(--max-work)") -> None:
        self.limit = limit
        self.which = which
        """What the limit is, in the message."""
        self.done = 0

    def spend(self, steps: int) -> None:
        self.done += steps
        if self.done > self.limit:
            raise LimitExceeded(
                f"checking this certificate takes more than {self.limit} steps, the limit "
                f"{self.which}"
            )


def _move_prefix(i: int, parts: list[Part], others: int = 0) -> str:
    """What names a move in the ``i``-th of ``parts`` (counted from 1; none in a lone part;
    ``others``: the node's value terms, counted after its components)."""
    return f"{i + 1}:" if len(parts) + others > 1 else ""


def _one_more_move(count: int) -> int:
    """``count + 1``, the moves of one node gone through so far, within :data:`MAX_MOVES`."""
    if count >= MAX_MOVES:
        raise LimitExceeded(
            f"a position of the certificate has more than {MAX_MOVES} moves (the checker's limit)"
        )
    return count + 1


def _text_of(part: Part) -> str:
    return part[0]


def node_digest(
    texts: list[str] | tuple[str, ...], player: Player, terms: Iterable[int] = ()
) -> bytes:
    """The 16-byte digest that stands for a node (its component texts, its value terms and who
    moves), of an unambiguous encoding (``repr`` quotes and escapes every text: half the cost
    of JSON; a node with terms is a triple, one without a pair, as before terms)."""
    terms = tuple(terms)
    encoded = repr((player.value, tuple(texts), terms) if terms else (player.value, tuple(texts)))
    return hashlib.blake2b(encoded.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def brute_force_wins(parts_of: Parts, parts: list[Part], player: Player, budget: int) -> bool:
    """Does ``player``, to move in the sum of ``parts``, win (normal play)? A plain negamax,
    iterative (no deep recursion), memoised within this call only; more than ``budget``
    positions expanded raises :class:`LeafTooBig`, more than :data:`MAX_LEAF_WORK` components
    copied :class:`LeafTooCostly`."""
    memo: dict[tuple[str, tuple[str, ...]], bool] = {}

    def key(player: Player, parts: list[Part]) -> tuple[str, tuple[str, ...]]:
        return player.value, tuple(text for text, _ in parts)

    def frame(player: Player, parts: list[Part]) -> list[Any]:
        # [key, player, the moves still to try, the child it waits for]
        return [key(player, parts), player, parts_of.moves(parts, player), None]

    expanded = 1
    work = 0
    stack = [frame(player, parts)]
    while stack:
        top = stack[-1]
        waited = top[3]
        result: bool | None = None
        if waited is not None and not memo[waited]:
            result = True  # the child just solved is lost for the other player
        else:
            top[3] = None
            for _, child in top[2]:
                work += len(child)
                if work > MAX_LEAF_WORK:
                    raise LeafTooCostly(f"more than {MAX_LEAF_WORK} components copied")
                child_key = key(top[1].opponent, child)
                known = memo.get(child_key)
                if known is None:
                    expanded += 1
                    if expanded > budget:
                        raise LeafTooBig(f"more than {budget} positions")
                    top[3] = child_key
                    stack.append(frame(top[1].opponent, child))
                    break
                if not known:
                    result = True
                    break
            else:
                result = False
        if result is not None:
            memo[top[0]] = result
            stack.pop()
    return memo[key(player, parts)]


# ---- reading a certificate -----------------------------------------------------------------


def check_certificate(
    path: str,
    *,
    max_nodes: int | None = None,
    max_work: int | None = None,
    registry: Any = None,
    jobs: int = 1,
    share_chunk: int = 0,
    progress: Callable[[int, int], None] | None = None,
    share_memo: bool = False,
) -> CheckReport:
    """Verify the certificate at ``path``: :class:`CheckReport` if it proves its claim; else
    :class:`CertificateError` (refused), :class:`CertificateUnreadable` (no file, or an
    unknown ruleset) or :class:`~cgframework.runtime.budget.LimitExceeded` (past a limit:
    ``max_nodes``, default :data:`MAX_NODES`; ``max_work`` steps, by default
    :data:`WORK_BASE` plus :data:`WORK_PER_NODE` a node; line and size caps).

    ``jobs`` > 1 verifies the nodes in that many processes (runs of ``share_chunk`` nodes,
    default :data:`SHARE_CHUNK`, in turn to each): every process reads the whole file (a
    node's digest and claim come from its own line) and verifies only its share; the
    refusal reported is the first in the file, as with one process. Each process hashes all
    it read, and the verdict stands only if every one read the bytes the first hashed and
    checked against the header and the roots (a file changed meanwhile is
    :class:`CertificateUnreadable`). ``registry``
    is for one process only. ``progress(read, nodes)`` is called every
    :data:`PROGRESS_EVERY` nodes the first process reads, and once at the end.
    ``share_memo`` (one process) keeps the checker's own facts of components (their live
    parts, their canonical values) for the next certificate checked in this thread, as the
    lemmas of one proof share most small components; each file is still checked whole (and
    threads never share what they keep)."""
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    chunk = share_chunk or SHARE_CHUNK
    if jobs > 1 and registry is not None:
        raise ValueError("a certificate checked by several processes names an installed ruleset")
    limits = _Limits(max_nodes or MAX_NODES, max_work)
    if jobs > 1:  # no more processes than runs of nodes
        jobs = max(1, min(jobs, -(-_nodes_claimed(path) // chunk)))
    if jobs == 1:
        return _check_share(path, limits, registry, 0, 1, 1, progress, share_memo).report
    import multiprocessing

    context = multiprocessing.get_context("spawn")  # (no fork from a search thread)
    workers = []
    try:
        for index in range(1, jobs):
            receive, send = context.Pipe(duplex=False)
            process = context.Process(
                target=_share_worker, args=(send, path, limits, index, jobs, chunk), daemon=True
            )
            process.start()
            send.close()
            workers.append((process, receive))
        failures: list[_Failure] = []
        first = None
        try:
            first = _check_share(path, limits, None, 0, jobs, chunk, progress)
        except SearchStopped:  # (a deadline: the workers are stopped below)
            raise
        except (CertificateError, CertificateUnreadable, LimitExceeded) as exc:
            failures.append(_Failure.of(exc))
        shares: list[_Share] = []
        for process, receive in workers:
            while not receive.poll(0.1):  # (short waits: a deadline can interrupt this thread)
                if not process.is_alive() and not receive.poll(0):
                    break
            try:
                outcome = receive.recv()
            except EOFError:  # the process died (killed, out of memory) before it answered
                outcome = _Failure(
                    _NO_NODE - 1,
                    LimitExceeded,
                    f"a checking process stopped (exit code {process.exitcode}) before it answered",
                )
            process.join()
            if isinstance(outcome, _Failure):
                failures.append(outcome)
            else:
                shares.append(outcome)
        if failures:
            raise min(failures, key=lambda failure: failure.at).error()
        assert first is not None
        if any(share.seen != first.seen for share in shares):
            raise CertificateUnreadable(
                f"cannot check {path!r}: it changed while it was checked (the processes "
                "read different bytes); check it again once it is left alone"
            )
        report = first.report
        return attrs.evolve(
            report,
            leaf_positions=report.leaf_positions + sum(s.report.leaf_positions for s in shares),
            value_positions=report.value_positions + sum(s.report.value_positions for s in shares),
        )
    finally:
        for process, _ in workers:
            if process.is_alive():
                process.terminate()
                process.join()


def _nodes_claimed(path: str) -> int:
    """The node count the header of ``path`` claims, or 0 when it has none: only to choose
    how many processes to start (the check reads the header again and trusts nothing)."""
    try:  # (opened as the check opens it: a FIFO or a device is not waited on)
        with open_certificate(path) as raw, gzip.GzipFile(fileobj=raw, mode="rb") as stream:
            count = json.loads(stream.readline(MAX_LINE_BYTES)).get("nodes", 0)
    except Exception:  # (anything wrong is found and reported by the check itself)
        return 0
    return count if isinstance(count, int) and count > 0 else 0


SHARE_CHUNK = 1024
"""With several processes, runs of this many nodes go to each in turn (nodes near each other
share components, which each process's memos keep)."""

_NO_NODE = 1 << 62
"""Where a refusal found after the last node (content hash, roots, trailer) stands."""


@attrs.frozen
class _Limits:
    """What one check may take: nodes (``max_nodes``) and steps (``max_work``; ``None``: as
    many as :data:`WORK_BASE` and :data:`WORK_PER_NODE` give the header's node count)."""

    nodes: int
    work: int | None


@attrs.frozen
class _Share:
    """What one process's pass found: its share's report, and ``seen``, the SHA-256 of every
    line it read (the header and all the nodes). Each process opens the file itself; only
    when all of them saw the bytes the first one hashed and checked against the header and
    its roots does their verdict stand (a file replaced or rewritten while it is checked must
    not lend one process's nodes to another's claim)."""

    report: CheckReport
    seen: str


@attrs.frozen
class _Failure:
    """A refusal or limit from one share, and the node where it happened (the first in the
    file is the one reported)."""

    at: int
    kind: type[Exception]  # CertificateError, CertificateUnreadable or LimitExceeded
    message: str

    @staticmethod
    def of(exc: Exception) -> _Failure:
        return _Failure(getattr(exc, "at", _NO_NODE), type(exc), str(exc))

    def error(self) -> Exception:
        return self.kind(self.message)


def _share_worker(send: Any, path: str, limits: _Limits, index: int, jobs: int, chunk: int) -> None:
    """One checking process: its share's report, or the first refusal it meets."""
    try:
        send.send(_check_share(path, limits, None, index, jobs, chunk))
    except (CertificateError, CertificateUnreadable, LimitExceeded) as exc:
        send.send(_Failure.of(exc))
    except MemoryError:
        send.send(_Failure(_NO_NODE - 1, LimitExceeded, "a checking process ran out of memory"))
    finally:
        send.close()


def open_certificate(path: str) -> IO[bytes]:
    """``path`` opened to read, if it is a regular file (a FIFO or a device is refused at
    once, never waited on: several processes may read the file, each from its start); else
    :class:`CertificateUnreadable`."""
    try:
        return open_regular_file(path)
    except OSError as exc:
        raise CertificateUnreadable(f"cannot read {path!r}: {exc.strerror or exc}") from None


def bounded_lines(stream: IO[bytes]) -> Iterator[bytes]:
    """The lines of ``stream``, each read at most :data:`MAX_LINE_BYTES` at a time: a longer
    one is a :class:`ValueError`, not a read of the whole stream into memory."""
    while line := stream.readline(MAX_LINE_BYTES + 1):
        if len(line) > MAX_LINE_BYTES:
            raise ValueError(f"a line is longer than {MAX_LINE_BYTES} bytes")
        yield line


def file_sha256(path: str) -> str:
    """The SHA-256 of the file at ``path`` (hex), read as :func:`open_certificate` reads: a
    FIFO or a device is refused (:class:`CertificateUnreadable`), never waited on."""
    sha = hashlib.sha256()
    with open_certificate(path) as data:
        try:
            while chunk := data.read(1 << 20):
                sha.update(chunk)
        except OSError as exc:
            raise CertificateUnreadable(f"cannot read {path!r}: {exc.strerror or exc}") from None
    return sha.hexdigest()


def _check_share(
    path: str,
    limits: _Limits,
    registry: Any,
    index: int,
    jobs: int,
    chunk: int,
    progress: Callable[[int, int], None] | None = None,
    share_memo: bool = False,
) -> _Share:
    with open_certificate(path) as raw:
        try:
            checker = _Checker(raw, limits, registry, index, jobs, chunk, progress, share_memo)
            return _Share(checker.run(), checker.seen.hexdigest())
        except (EOFError, zlib.error, gzip.BadGzipFile) as exc:
            raise CertificateError(f"damaged file (not a whole gzip stream): {exc}") from None
        except OSError as exc:  # (a disk's read error, EIO of /proc/self/mem; after gzip's own)
            raise CertificateUnreadable(f"cannot read {path!r}: {exc.strerror or exc}") from None


class _Checker:
    """One pass over a certificate, verifying the nodes of share ``index`` of ``jobs`` (all of
    them with one job); share 0 also checks the content hash, the trailer and the roots."""

    def __init__(
        self,
        raw: IO[bytes],
        limits: _Limits,
        registry: Any,
        index: int = 0,
        jobs: int = 1,
        chunk: int = 1,
        progress: Callable[[int, int], None] | None = None,
        share_memo: bool = False,
    ) -> None:
        self.raw = _Hashing(raw)
        self.stream = gzip.GzipFile(fileobj=self.raw, mode="rb")
        self.progress = progress
        self.max_nodes = limits.nodes
        self.max_work = limits.work
        self.work = FileWork(NO_LIMIT)  # (its limit set once the header is read)
        self.registry = registry
        self.index = index
        self.jobs = jobs
        self.chunk = chunk
        self.read_bytes = 0
        self.hasher = hashlib.sha256()
        """The nodes' lines (the header's ``sha256``), hashed by share 0."""
        self.seen = hashlib.sha256()
        """Every line read, the header's too, hashed by every share (see :class:`_Share`)."""
        self.share_memo = share_memo

    def line(self, what: str) -> bytes:
        data = self.stream.readline(MAX_LINE_BYTES + 1)
        self.read_bytes += len(data)
        if len(data) > MAX_LINE_BYTES:
            raise LimitExceeded(f"certificate {what} is longer than {MAX_LINE_BYTES} bytes")
        if self.read_bytes > MAX_BYTES:
            raise LimitExceeded(f"certificate is larger than {MAX_BYTES} bytes uncompressed")
        if not data.endswith(b"\n"):
            raise CertificateError(f"truncated: {what} is missing or cut short")
        self.seen.update(data)
        return data

    def run(self) -> CheckReport:
        header = self.header()
        version = header["version"]
        ruleset = self.ruleset_of(header)
        parts_of, shared_values = (
            _shared_memo(ruleset) if self.share_memo else (Parts(ruleset), None)
        )
        parts_of.work = self.work
        count = header["nodes"]
        if self.max_work is None:
            self.work.limit = WORK_BASE + WORK_PER_NODE * count
            self.work.which = f"for a file of {count} nodes (--max-work raises it)"
        else:
            self.work.limit = self.max_work
        digests = bytearray()  # grown node by node: a header's count costs nothing up front
        claims = bytearray()  # 1: the mover wins, 2: the mover loses
        leaf_budget = header["leaf_budget"]
        value_budget = header.get("value_budget", 0)
        term_budget = header.get("term_budget", 0)
        values = (shared_values or Values(parts_of)) if value_budget or version >= 4 else None
        terms = _Terms(values) if version >= 4 and values is not None else None
        rewrites = None if terms is None else _Rewrites(terms, terms.values, term_budget)
        leaves = leaf_positions = value_leaves = value_positions = rewrite_nodes = 0
        assumed: dict[bytes, Claim] = {}  # the lemma leaves (kept by share 0 only)
        lemma_leaves = 0
        index, jobs, chunk = self.index, self.jobs, self.chunk
        stop = count
        if index:  # past its last run a share has nothing left to verify (only to read)
            runs = range(index, -(-count // chunk), jobs)
            stop = min(count, (runs[-1] + 1) * chunk) if runs else 0
        number = 0
        progress = self.progress
        try:
            for number in range(stop):
                if progress is not None and not number % PROGRESS_EVERY:
                    progress(number, count)
                data = self.line(f"node {number}")
                while terms is not None and data.startswith(b"{"):  # a value line
                    if not index:
                        self.hasher.update(data)
                    terms.add(_decode(data, f"value line {len(terms.lines)}"))
                    data = self.line(f"node {number}")
                if not index:
                    self.hasher.update(data)
                node = _decode(data, f"node {number}")
                verify = _NodeCheck(number, node, parts_of, digests, claims)
                texts, listed, player, claim = verify.shape(terms)
                proof = node[3]
                is_rewrite = (
                    terms is not None and isinstance(proof, list) and proof[:1] == [REWRITE]
                )
                if listed and proof in (SEARCH, LEMMA):
                    raise verify.fail(f"a {proof!r} leaf with value terms")
                if proof in (SEARCH, VALUES):
                    leaves += 1
                    value_leaves += proof == VALUES
                elif proof == LEMMA:
                    lemma_leaves += 1
                    if version < 3:
                        raise verify.fail(f"a lemma leaf in a version {version} certificate")
                    if not index:
                        verify.assume(assumed, texts, player, claim)
                rewrite_nodes += _rewrites_in(proof) if terms is not None else 0
                if proof != LEMMA and (number // chunk) % jobs == index:
                    parts = verify.parse(texts)
                    if proof == SEARCH:
                        leaf_positions += verify.by_search(parts, player, claim, leaf_budget)
                    elif proof == VALUES:
                        value_positions += verify.by_values(
                            values if value_budget else None,
                            parts,
                            player,
                            claim,
                            value_budget,
                            terms,
                            listed,
                        )
                    elif is_rewrite:
                        assert rewrites is not None
                        verify.rewrite(parts, player, claim, listed, rewrites)
                    elif claim:
                        verify.winning_move(parts, player, listed, rewrites)
                    else:
                        verify.every_reply(parts, player, listed, rewrites)
                digests += node_digest(texts, player, listed)
                claims.append(1 if claim else 2)
            for number in range(stop, count if index else 0):  # (read, to be seen whole)
                while self.line(f"node {number}").startswith(b"{"):
                    pass  # (a value line: only the nodes are counted)
        except (CertificateError, LimitExceeded) as exc:
            exc.at = number  # type: ignore[attr-defined]
            raise
        if terms is not None and index == 0 and len(terms.lines) != header["value_lines"]:
            raise CertificateError(
                f"header: {header['value_lines']} value lines, but the file has {len(terms.lines)}"
            )
        wins = {name: mover_wins(name, header[name]) for name in SIDES if name in header}
        proved: tuple[Claim, ...] = ()
        if index == 0:
            self.trailer()
            self.raw.drain()
            if self.hasher.hexdigest() != header["sha256"]:
                raise CertificateError("content hash does not match the header (sha256)")
            proved = self.roots(header, ruleset, parts_of, digests, claims)
            if progress is not None:
                progress(count, count)
        return CheckReport(
            ruleset=ruleset.name,
            position=header["position"],
            outcome=Outcome(header["outcome"]) if "outcome" in header else None,
            left_first_wins=wins.get("left_first"),
            right_first_wins=wins.get("right_first"),
            nodes=count,
            leaves=leaves,
            leaf_positions=leaf_positions,
            ruleset_version=header["ruleset_version"],
            generator=header["generator"],
            installed_version=str(getattr(ruleset, "version", "")),
            value_leaves=value_leaves,
            value_positions=value_positions,
            rewrites=rewrite_nodes,
            value_lines=len(terms.lines) if terms is not None else 0,
            claims=proved,
            assumes=tuple(assumed.values()),
            lemma_leaves=lemma_leaves,
            file_sha256=self.raw.hexdigest() if index == 0 else "",
        )

    def header(self) -> dict[str, Any]:
        header = _decode(self.line("header"), "header")
        if not isinstance(header, dict) or header.get("format") != FORMAT:
            raise CertificateError(f"not a certificate: the header's format is not {FORMAT!r}")
        version = header.get("version")
        if isinstance(version, bool) or version not in READ_VERSIONS:
            raise CertificateError(
                f"certificate format version {version!r} is not supported "
                f"(this checker reads versions {', '.join(map(str, READ_VERSIONS))})"
            )
        roots = header.get("roots")
        sides = [name for name in SIDES if isinstance(roots, dict) and name in roots]
        if version < 3 or not sides or isinstance(roots, dict) and set(roots) - set(SIDES):
            sides = list(SIDES)  # (both sides; anything else is refused below)
        kinds = {
            "generator": str,
            "ruleset": str,
            "ruleset_version": str,
            "position": str,
            **{name: str for name in sides},
            **({"outcome": str} if len(sides) == 2 else {}),
            "roots": dict,
            "nodes": int,
            "leaves": int,
            "leaf_budget": int,
            "sha256": str,
        }
        if version >= 2:
            kinds["value_budget"] = int
        elif "value_budget" in header:
            raise CertificateError("header: a version 1 certificate has no 'value_budget'")
        if version >= 4:
            kinds["term_budget"] = int
            kinds["value_lines"] = int
        for name, kind in kinds.items():
            value = header.get(name)
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise CertificateError(f"header: {name!r} is missing or not a {kind.__name__}")
        for name in (
            "nodes",
            "leaves",
            "leaf_budget",
            "value_budget",
            "term_budget",
            "value_lines",
        ):
            if header.get(name, 0) < 0:
                raise CertificateError(f"header: {name!r} is negative")
        if header["nodes"] > self.max_nodes:
            raise LimitExceeded(
                f"certificate has {header['nodes']} nodes, more than the limit {self.max_nodes} "
                "(--max-nodes)"
            )
        if header.get("value_budget", 0) > MAX_VALUE_BUDGET:
            raise CertificateError(
                f"header: value leaves of up to {header['value_budget']} positions a component; "
                f"this checker computes at most {MAX_VALUE_BUDGET}"
            )
        if header.get("term_budget", 0) > MAX_VALUE_BUDGET:
            raise CertificateError(
                f"header: rewrites of components of up to {header['term_budget']} positions; "
                f"this checker computes at most {MAX_VALUE_BUDGET}"
            )
        if header["leaf_budget"] > MAX_LEAF_BUDGET:
            raise CertificateError(
                f"header: leaves of up to {header['leaf_budget']} positions; this checker "
                f"searches at most {MAX_LEAF_BUDGET}"
            )
        for name in SIDES:
            if name not in sides and (name in header or "outcome" in header):
                raise CertificateError(
                    f"header: {name!r} or an outcome without the root that proves it"
                )
        for name in sides:
            if header[name] not in ("L", "R"):
                raise CertificateError(f"header: {name!r} is {header[name]!r}, not L or R")
        if "outcome" in header and header["outcome"] not in {o.value for o in Outcome}:
            raise CertificateError(f"header: unknown outcome {header['outcome']!r}")
        return header

    def ruleset_of(self, header: dict[str, Any]) -> Ruleset:
        from cgframework.plugins import PluginError, resolve_ruleset

        try:
            if self.registry is not None:
                ruleset = self.registry.ruleset(header["ruleset"])
            else:
                ruleset = resolve_ruleset(header["ruleset"])
        except (KeyError, PluginError) as exc:
            raise CertificateUnreadable(str(exc)) from None
        if ruleset.convention is not Convention.NORMAL or getattr(ruleset, "loopy", False):
            raise CertificateUnreadable(
                f"ruleset {ruleset.name!r} is not normal play without repetition: "
                "certificates prove normal-play outcomes of short games only"
            )
        return ruleset

    def trailer(self) -> None:
        """Nothing may follow the last node; reading to the end checks gzip's own CRC."""
        extra = self.stream.read(1)
        if extra:
            raise CertificateError("more data after the last node than the header counts")

    def roots(
        self,
        header: dict[str, Any],
        ruleset: Ruleset,
        parts_of: Parts,
        digests: bytearray,
        claims: bytearray,
    ) -> tuple[Claim, ...]:
        """The roots' claims, each checked against the header's position and who wins."""
        wins = {name: mover_wins(name, header.get(name)) for name in SIDES}
        if "outcome" in header:
            claimed = Outcome.from_wins(wins["left_first"], wins["right_first"])
            if claimed.value != header["outcome"]:
                raise CertificateError(
                    f"header: outcome {header['outcome']} does not follow from left_first="
                    f"{header['left_first']} and right_first={header['right_first']}"
                )
        try:
            position = parse_position(ruleset, header["position"])
            texts = [text for text, _ in parts_of.split(position)]
        except (LimitExceeded, MemoryError):
            raise
        except Exception as exc:
            raise CertificateError(f"header: position does not parse: {exc}") from None
        proved = []
        for name, player in SIDES.items():
            if name not in header:
                continue
            root = header["roots"].get(name)
            if not _is_index(root, len(claims)):
                raise CertificateError(f"header: root {name!r} is not a node number")
            if digests[16 * root : 16 * root + 16] != node_digest(texts, player):
                raise CertificateError(
                    f"root {name} (node {root}) is not the header's position with "
                    f"{player.name.lower()} to move"
                )
            if (claims[root] == 1) != wins[name]:
                raise CertificateError(f"root {name} (node {root}) proves the other claim")
            proved.append(Claim(tuple(texts), player, claims[root] == 1))
        return tuple(proved)


def _shared_memo(ruleset: Ruleset) -> tuple[Parts, Values]:
    """The checker's facts of ``ruleset``'s components kept in this thread (one ruleset's at a
    time): live parts of results, and canonical values.

    One memo a thread, never one shared by threads: :class:`Values` numbers its games by
    appending to lists, and two threads appending at once would give two games one number (a
    false value, then a false claim verified). A lock would serialise the value code, most of
    a check's time, for facts a thread soon learns again."""
    key = (ruleset.name, id(ruleset))
    found: tuple[tuple[str, int], Parts, Values] | None = getattr(_MEMOS, "memo", None)
    if found is None or found[0] != key:
        parts_of = Parts(ruleset)
        found = _MEMOS.memo = (key, parts_of, Values(parts_of))
    return found[1], found[2]


_MEMOS = threading.local()
"""``memo``: this thread's ``(key, Parts, Values)``, if it kept one."""


def forget_shared_memo() -> None:
    """Drop what ``check_certificate(..., share_memo=True)`` kept in this thread."""
    _MEMOS.__dict__.pop("memo", None)


def _decode(data: bytes, what: str) -> Any:
    try:
        return json.loads(data)
    except RecursionError:
        raise CertificateError(f"{what}: JSON nested too deeply") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise CertificateError(f"{what}: not valid JSON ({exc})") from None


def _is_index(value: Any, below: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < below


class _NodeCheck:
    """The checks of one node against the nodes before it."""

    def __init__(
        self, number: int, node: Any, parts_of: Parts, digests: bytearray, claims: bytearray
    ) -> None:
        self.number = number
        self.node = node
        self.parts_of = parts_of
        self.digests = digests
        self.claims = claims

    def fail(self, message: str) -> CertificateError:
        return CertificateError(f"node {self.number}: {message}")

    def shape(self, terms: _Terms | None = None) -> tuple[list[str], list[int], Player, bool]:
        """The node's component texts, value terms (``terms``: the value lines so far, in a
        version 4 file; else there are none), mover and claim."""
        node = self.node
        if not isinstance(node, list) or len(node) != 4:
            raise self.fail("not a [components, mover, claim, proof] list")
        parts, mover, claim, _ = node
        if not isinstance(parts, list):
            raise self.fail("components are not a list of texts")
        if len(parts) > MAX_COMPONENTS:
            raise LimitExceeded(
                f"node {self.number} has {len(parts)} components, more than the limit "
                f"{MAX_COMPONENTS}"
            )
        texts = parts
        found: list[int] = []
        if terms is not None:  # (texts first, then the terms: numbers of value lines)
            cut = next((i for i, p in enumerate(parts) if not isinstance(p, str)), len(parts))
            texts, found = parts[:cut], parts[cut:]
            for term in found:
                if not _is_index(term, len(terms.lines)):
                    raise self.fail(
                        f"value term {term!r} is not the number of an earlier value line"
                    )
                if not terms.live(term):
                    raise self.fail(f"value term {term} has no options (a dead term is left out)")
        if not all(isinstance(t, str) for t in texts):
            raise self.fail("components are not a list of texts")
        if mover not in ("L", "R"):
            raise self.fail(f"mover {mover!r} is not L or R")
        if claim not in (WIN, LOSE):
            raise self.fail(f"claim {claim!r} is not W or L")
        return texts, found, Player(mover), claim == WIN

    def parse(self, texts: list[str]) -> list[Part]:
        parse = self.parts_of.parse
        parts = []
        for text in texts:
            try:
                parts.append((text, parse(text)))
            except (LimitExceeded, MemoryError):
                raise
            except Exception as exc:  # a ruleset's parser may raise anything on bad text
                raise self.fail(f"component {_short(text)} does not parse: {exc}") from None
        return parts

    def assume(
        self, assumed: dict[bytes, Claim], texts: list[str], player: Player, claim: bool
    ) -> None:
        """A lemma leaf: its claim, kept to be proved by a lemma (each claim once; the same
        node with both claims is kept twice, and no lemma can prove both)."""
        if len(assumed) >= MAX_LEMMAS:
            raise LimitExceeded(f"certificate has more than {MAX_LEMMAS} lemma leaves")
        found = Claim(tuple(texts), player, claim)
        assumed.setdefault(found.digest + (b"W" if claim else b"L"), found)

    def child(self, value: Any) -> int:
        if not _is_index(value, self.number):
            raise self.fail(
                f"{value!r} is not the number of an earlier node (children come first: no cycles)"
            )
        return value

    def digest(self, child: int) -> bytes:
        return bytes(self.digests[16 * child : 16 * child + 16])

    def by_search(self, parts: list[Part], player: Player, claim: bool, budget: int) -> int:
        counter = _Counting(self.parts_of)
        try:
            wins = brute_force_wins(counter, parts, player, budget)
        except LeafTooCostly:
            raise LimitExceeded(
                f"node {self.number}: its leaf costs this checker more than {MAX_LEAF_WORK} "
                "components copied (the checker's limit)"
            ) from None
        except LeafTooBig:
            raise self.fail(
                f"leaf needs more than the certificate's leaf budget of {budget} positions"
            ) from None
        if wins != claim:
            raise self.fail(
                f"brute force finds that {player.name.lower()} to move "
                f"{'wins' if wins else 'loses'}, not what the node claims"
            )
        return counter.expanded

    def by_values(
        self,
        values: Values | None,
        parts: list[Part],
        player: Player,
        claim: bool,
        budget: int,
        terms: _Terms | None = None,
        listed: list[int] | None = None,
    ) -> int:
        if values is None:
            raise self.fail("a value leaf, but the header allows none (no value_budget)")
        before = values.expanded
        try:
            values.start_leaf()
            games = [terms.game(t) for t in listed] if terms is not None and listed else []
            wins = values.sum_wins(parts, player, budget, games, start=False)
        except ValueTooCostly as exc:
            raise LimitExceeded(
                f"node {self.number}: its value leaf costs this checker more than it spends "
                f"on one leaf: {exc}"
            ) from None
        except ValueTooBig as exc:
            raise self.fail(
                f"value leaf past the checker's limits (value budget {budget}): {exc}"
            ) from None
        if self.parts_of.work is not None:
            self.parts_of.work.spend(values.work)
        if wins != claim:
            raise self.fail(
                f"the parts' values show that {player.name.lower()} to move "
                f"{'wins' if wins else 'loses'}, not what the node claims"
            )
        return values.expanded - before

    def winning_move(
        self, parts: list[Part], player: Player, listed: list[int], rewrites: _Rewrites | None
    ) -> None:
        proof = self.node[3]
        if not (
            isinstance(proof, list)
            and len(proof) in (2, 3)
            and isinstance(proof[0], str)
            and (len(proof) == 2 or rewrites is not None)
        ):
            raise self.fail('a winning node\'s proof is not ["move", child]')
        move_text, child = proof[0], self.child(proof[1])
        if self.claims[child] != 2:
            raise self.fail(f"move {move_text!r} leads to node {child}, which is not a loss")
        target = self.digest(child)
        groups = proof[2] if len(proof) == 3 else None
        opponent = player.opponent
        in_term = _term_move(move_text, len(parts), len(listed))
        if in_term is not None:
            assert rewrites is not None
            at, option = in_term
            side = rewrites.terms.lines[listed[at]][0 if player is Player.LEFT else 1]
            if not 0 <= option < len(side):
                raise self.fail(f"move {move_text!r} is not an option of its value term")
            after = _replaced(rewrites.terms, listed, at, side[option])
            if self.result_digest(parts, after, opponent, groups, rewrites) == target:
                return
            raise self.fail(f"move {move_text!r} does not lead to node {child}")
        legal = False
        others = len(listed)
        for result in self.parts_of.moves_named(parts, player, move_text, others):
            legal = True
            if self.result_digest(result, listed, opponent, groups, rewrites) == target:
                return
        if not legal:
            raise self.fail(f"move {move_text!r} is not a legal option of {player.name.lower()}")
        raise self.fail(f"move {move_text!r} does not lead to node {child}")

    def result_digest(
        self,
        parts: list[Part],
        listed: list[int],
        player: Player,
        groups: Any,
        rewrites: _Rewrites | None,
    ) -> bytes:
        """The digest of a move's result, rewritten by ``groups`` first if there are any."""
        if groups is None:
            return node_digest([t for t, _ in parts], player, listed)
        assert rewrites is not None
        texts, after = self.rewritten(parts, listed, groups, rewrites)
        return node_digest(texts, player, after)

    def every_reply(
        self, parts: list[Part], player: Player, listed: list[int], rewrites: _Rewrites | None
    ) -> None:
        """Every move of the mover (in a component, or to an option of a term) leads to a
        listed child; an entry ``[move, groups, child]`` (version 4) says that move's result
        is rewritten by ``groups`` (as a rewrite node's) into the child."""
        proof = self.node[3]
        if not isinstance(proof, list):
            raise self.fail("a losing node's proof is not a list of children")
        children: dict[bytes, int] = {}
        named: dict[str, tuple[Any, int]] = {}
        for value in proof:
            if isinstance(value, list) and rewrites is not None:
                if not (len(value) == 3 and isinstance(value[0], str)):
                    raise self.fail('a rewritten reply is not ["move", groups, child]')
                child = self.child(value[2])
                if value[0] in named:
                    raise self.fail(f"move {value[0]!r} is rewritten twice")
                named[value[0]] = (value[1], child)
            else:
                child = self.child(value)
                children[self.digest(child)] = child
            if self.claims[child] != 1:
                raise self.fail(f"reply node {child} is not a win for the other player")
        reached: set[bytes] = set()
        used: set[str] = set()
        opponent = player.opponent

        def reply(name: str, result: list[Part], after: list[int]) -> None:
            entry = named.get(name)
            if entry is not None:
                groups, child = entry
                if self.result_digest(result, after, opponent, groups, rewrites) != (
                    self.digest(child)
                ):
                    raise self.fail(f"move {name!r} rewritten is not node {child}'s position")
                used.add(name)
                return
            digest = node_digest([t for t, _ in result], opponent, after)
            if digest not in children:
                raise self.fail(f"no reply to move {name!r} (its position is not listed)")
            reached.add(digest)

        for text, result in self.parts_of.moves(parts, player, len(listed)):
            reply(text, result, listed)
        work = self.parts_of.work
        for at, term in enumerate(listed):
            if at and term == listed[at - 1]:
                continue  # (an equal term: the same results)
            assert rewrites is not None
            side = rewrites.terms.lines[term][0 if player is Player.LEFT else 1]
            prefix = f"{len(parts) + at + 1}:" if len(parts) + len(listed) > 1 else ""
            for index, option in enumerate(side):
                if work is not None:
                    work.spend(1 + len(listed))
                reply(f"{prefix}#{index}", parts, _replaced(rewrites.terms, listed, at, option))
        for digest, child in children.items():
            if digest not in reached:
                raise self.fail(f"node {child} is listed but no move leads to it")
        for name, (_, child) in named.items():
            if name not in used:
                raise self.fail(f"node {child} is listed for move {name!r}, which is no move")

    def rewrite(
        self, parts: list[Part], player: Player, claim: bool, listed: list[int], rewrites: _Rewrites
    ) -> None:
        """An equal-sum rewrite node ``["=", groups, child]``: the child is this position
        rewritten by ``groups`` (:meth:`rewritten`), the same player to move, and makes the
        same claim (an equal summand never changes who wins a sum)."""
        proof = self.node[3]
        if len(proof) != 3:
            raise self.fail('a rewrite is not ["=", groups, child]')
        child = self.child(proof[2])
        if self.claims[child] != (1 if claim else 2):
            raise self.fail(f"rewrite to node {child}, which makes the other claim")
        texts, after = self.rewritten(parts, listed, proof[1], rewrites)
        if node_digest(texts, player, after) != self.digest(child):
            raise self.fail(f"the rewritten position is not node {child}'s")

    def rewritten(
        self, parts: list[Part], listed: list[int], groups: Any, rewrites: _Rewrites
    ) -> tuple[list[str], list[int]]:
        """The position ``parts`` + ``listed`` (terms) rewritten by ``groups``,
        ``[[removed, added], ...]``: in each group the parts numbered in ``removed`` (from 1,
        the components then the terms, as moves name them; each part in one group at most)
        add up to the same game as the value lines in ``added`` (the checker's own values of
        the components, each within the term budget; the sums compared with ``<=`` both
        ways). Groups are checked one by one: a sum of a few terms each, not of all. Returns
        the texts and sorted terms after."""
        terms, values, budget = rewrites.terms, rewrites.values, rewrites.budget
        count = len(parts) + len(listed)
        seen: set[int] = set()
        valid = isinstance(groups, list)
        for group in groups if valid else ():
            if not (
                isinstance(group, list)
                and len(group) == 2
                and isinstance(group[0], list)
                and isinstance(group[1], list)
                and all(_is_index(k, count + 1) and k and k not in seen for k in group[0])
                and len(set(group[0])) == len(group[0])
                and all(_is_index(k, len(terms.lines)) for k in group[1])
            ):
                valid = False
                break
            seen.update(group[0])
        if not valid:
            raise self.fail(
                "a rewrite's groups are not [[[parts, from 1], [earlier value lines]], ...] "
                "(each part in one group at most)"
            )
        if sum(len(group[1]) for group in groups) > MAX_COMPONENTS:
            raise LimitExceeded(f"node {self.number} adds more than {MAX_COMPONENTS} terms")
        texts = [text for i, (text, _) in enumerate(parts, 1) if i not in seen]
        after = [t for i, t in enumerate(listed, len(parts) + 1) if i not in seen]
        after += [term for group in groups for term in group[1] if terms.live(term)]
        after.sort()
        values.start_leaf()
        equal = True
        try:
            for removed, added in groups:
                gone = [
                    terms.game(listed[i - 1 - len(parts)])
                    if i > len(parts)
                    else values.value(parts[i - 1][0], parts[i - 1][1], budget)
                    for i in removed
                ]
                total = values.total(terms.game(t) for t in added)
                equal = equal and values.equal(values.total(gone), total)
        except ValueTooBig as exc:
            raise LimitExceeded(
                f"node {self.number}: its rewrite is past the checker's limits (term budget "
                f"{budget}): {exc}"
            ) from None
        if self.parts_of.work is not None:
            self.parts_of.work.spend(values.work)
        if not equal:
            raise self.fail("a rewrite whose parts removed and terms added are not equal games")
        return texts, after


@attrs.frozen
class _Rewrites:
    """What a version 4 node's checks of rewrites need: the value lines, the value code, and
    the header's term budget."""

    terms: _Terms
    values: Values
    budget: int


MAX_VALUE_LINES = 5_000_000
"""Value lines a certificate may have at most (each is kept, with its options)."""


class _Terms:
    """The value lines of a version 4 certificate read so far: each a game form ``{L | R}``
    whose options are earlier lines (so no cycle), and its number among the checker's own
    games (:class:`~cgframework.proofs.values.Values`), found when first needed."""

    def __init__(self, values: Values) -> None:
        self.values = values
        self.lines: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
        self.birthdays: list[int] = []
        self.games: dict[int, int] = {}
        self.generation = values.generation

    def add(self, line: Any) -> None:
        """One value line, ``{"value": [[left options], [right options]]}``, each option the
        number of an earlier line (:class:`CertificateError` if not)."""
        number = len(self.lines)
        form = line.get(VALUE_LINE) if isinstance(line, dict) and len(line) == 1 else None
        if not (
            isinstance(form, list) and len(form) == 2 and all(isinstance(s, list) for s in form)
        ):
            raise CertificateError(
                f'value line {number}: not {{"value": [[left options], [right options]]}}'
            )
        for option in form[0] + form[1]:
            if not _is_index(option, number):
                raise CertificateError(
                    f"value line {number}: option {option!r} is not the number of an earlier "
                    "value line"
                )
        if number >= MAX_VALUE_LINES:
            raise LimitExceeded(f"certificate has more than {MAX_VALUE_LINES} value lines")
        birthday = 1 + max((self.birthdays[k] for k in form[0] + form[1]), default=-1)
        if birthday > MAX_BIRTHDAY:
            raise LimitExceeded(
                f"value line {number} has birthday {birthday}, more than this checker's "
                f"limit {MAX_BIRTHDAY}"
            )
        self.lines.append((tuple(form[0]), tuple(form[1])))
        self.birthdays.append(birthday)

    def live(self, term: int) -> bool:
        """Has the line an option (else it is 0, and a dead term, left out of positions)?"""
        lefts, rights = self.lines[term]
        return bool(lefts or rights)

    def game(self, term: int) -> int:
        """The checker's game of line ``term`` (as written: not put in canonical form)."""
        values = self.values
        if values.generation != self.generation:
            self.games.clear()
            self.generation = values.generation
        found = self.games.get(term)
        if found is None:
            lefts, rights = self.lines[term]
            found = values.game([self.game(k) for k in lefts], [self.game(k) for k in rights])
            self.games[term] = found
        return found


def _rewrites_in(proof: Any) -> int:
    """How many rewrites a version 4 node's proof says: a rewrite node's one, a winning
    move's rewrite, the rewritten replies of a losing node (counted, not checked)."""
    if not isinstance(proof, list) or not proof:
        return 0
    if proof[0] == REWRITE:
        return 1
    if isinstance(proof[0], str):
        return int(len(proof) == 3)
    return sum(isinstance(entry, list) for entry in proof)


def _term_move(move: str, components: int, terms: int) -> tuple[int, int] | None:
    """``(which term, which option)`` when ``move`` names a move in a value term (``"i:#j"``,
    ``i`` counting the components then the terms from 1, or ``"#j"`` in a lone term), else
    ``None`` (a move in a component)."""
    if not terms:
        return None
    at, text = 0, move
    if components + terms > 1:
        head, colon, text = move.partition(":")
        if not colon or not head.isdigit() or not head.isascii():
            return None
        at = int(head) - 1 - components
        if not 0 <= at < terms:
            return None
    digits = text[1:]
    if not text.startswith("#") or not digits.isdigit() or not digits.isascii() or len(digits) > 9:
        return at, -1  # (a term named, but no option of it: refused as no option)
    return at, int(digits)


def _replaced(terms: _Terms, listed: list[int], at: int, option: int) -> list[int]:
    """The terms ``listed`` with the ``at``-th replaced by its ``option`` (left out if dead),
    sorted."""
    after = listed[:at] + listed[at + 1 :]
    if terms.live(option):
        after.append(option)
    after.sort()
    return after


class _Hashing:
    """A file read through it, hashed as it is read (the SHA-256 of the bytes checked: what a
    ledger records, whatever is at the path by then)."""

    def __init__(self, raw: IO[bytes]) -> None:
        self.raw = raw
        self.sha = hashlib.sha256()

    def read(self, size: int = -1) -> bytes:
        data = self.raw.read(size)
        self.sha.update(data)
        return data

    def drain(self) -> None:
        """Read (and hash) what is left: nothing, once gzip has read its last member."""
        while self.read(1 << 20):
            pass

    def hexdigest(self) -> str:
        return self.sha.hexdigest()


class _Counting(Parts):
    """:class:`Parts` that counts the positions expanded (each ``moves`` call is one)."""

    def __init__(self, parts_of: Parts) -> None:
        super().__init__(parts_of.ruleset, share=parts_of)
        self.expanded = 0

    def moves(
        self, parts: list[Part], player: Player, others: int = 0
    ) -> Iterator[tuple[str, list[Part]]]:
        self.expanded += 1
        return super().moves(parts, player, others)


def _short(text: str, limit: int = 60) -> str:
    return repr(text) if len(text) <= limit else f"{text[: limit - 20]!r}... ({len(text)} chars)"


__all__ = [
    "LEMMA",
    "MAX_LEMMAS",
    "SIDES",
    "Claim",
    "FORMAT",
    "FORMAT_VERSION",
    "LEAF_MEASURE",
    "MAX_COMPONENTS",
    "MAX_LEAF_BUDGET",
    "MAX_LEAF_WORK",
    "MAX_NODES",
    "MAX_VALUE_BUDGET",
    "WORK_BASE",
    "WORK_PER_NODE",
    "PROGRESS_EVERY",
    "VALUE_MEASURE",
    "CertificateError",
    "CertificateUnreadable",
    "CheckReport",
    "FileWork",
    "LeafTooBig",
    "LeafTooCostly",
    "Parts",
    "bounded_lines",
    "brute_force_wins",
    "check_certificate",
    "file_sha256",
    "forget_shared_memo",
    "mover_wins",
    "node_digest",
    "open_certificate",
    "winner",
]
