"""Misère quotients of heap games of any rule (``cgf quotient RULESET``).

Plambeck, "Taming the wild in impartial combinatorial games" (Integers 5, 2005, #G05) and
Plambeck & Siegel, "Misère quotients for impartial games" (JCTA 115, 2008): let ``A`` be
the set of all sums of heaps of sizes 1..N of one game (its moves: ``heap_options``, any
rule, :mod:`cgframework.heaps.rules`). Two sums G, H are
*indistinguishable*, G ≡ H, when o⁻(G + X) = o⁻(H + X) for every X in A. The classes form
a commutative monoid Q (the *misère quotient*; the sum of games is its product), and the
classes of the misère P-positions its *P-portion*. Each heap's class (its *image*) then
answers the misère outcome of any sum of heaps by one product per heap.

How it is computed here (exact; not MisereSolver's algorithm). The sums of heaps are the
words over the alphabet 1..N, and the misère P-positions a language; the quotient is the
minimal automaton of that language (a commutative language: its Myhill-Nerode classes are
the ≡ classes). It is *learned* (Angluin's L*, with the Maler-Pnueli rule of adding every
suffix of a counterexample as a test) from exact misère outcomes of small sums, computed by
memoised search, and every hypothesis is *verified exactly* before it is accepted:

- a hypothesis automaton δ, with accepting states F, claims "w is a P-position iff
  δ(w) ∈ F". Follow every word w together with the set O(w) of states δ(w') of its options
  w' (a heap of w replaced by what a move leaves). Reading one more heap h maps (s, O) to
  (δ(s, h), δ(O, h) ∪ {δ(s, r) : r a result of a move on h}). This is a finite automaton
  on pairs; the claim holds for every sum iff every reachable pair (s, O) satisfies
  s ∈ F ⇔ (O ≠ ∅ and O ∩ F = ∅) (induction on the game: a sum is a misère P-position
  iff it has a move and every move leads to an N-position). A failing pair yields a sum
  the hypothesis gets wrong: it becomes the next counterexample.
- a verified hypothesis is minimal (its states have distinct rows in the L* table, each
  row difference being a sum whose outcome it predicts correctly), so it *is* the quotient:
  its states are the elements, the product of two elements reads the second's word from the
  first, and the identity is the empty sum.

Stabilisation: a quotient of heaps 1..N is that of every heap size only when a theorem
says so for the rule; the core knows none for a rule in general, so it reports the quotient
"observed up to N". A heap engine that knows the rule proves it
(:meth:`~cgframework.extensions.KnownHeapRule.stable_images`: the classic plugin, for
take-and-break codes whose moves leave at most two heaps, by the argument of the
periodicity theorems for octal games and for misère quotients, Guy & Smith 1956, Plambeck &
Siegel 2008, on the verified automaton).

Every position the outcome search expands and every pair the verification visits is one
node of the budget (``--max-nodes``); the deadline (``--timeout``) is looked at as often.

Every impartial misère quotient has even order (Plambeck & Siegel 2008); the tests check
it on every quotient they compute.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from cgframework.heaps.rules import heap_results
from cgframework.heaps.table import known_rule
from cgframework.runtime.budget import LimitExceeded, SearchStopped

MAX_HEAP = 200
"""The largest ``max_heap`` accepted."""
DEFAULT_MAX_ORDER = 1000
"""Quotients larger than this stop the computation (exit 3 on the command line)."""
MAX_MEMO = 2_000_000
"""Misère outcomes of sums kept in memory at most (then the computation stops: exit 3)."""
MAX_PAIRS = 1_000_000
"""Pairs (state, option states) the verification may visit at most (then exit 3)."""
CHECK_EVERY = 4096


def _letter(index: int) -> str:
    """Generator names a, b, ..., z, a1, b1, ..."""
    base = "abcdefghijklmnopqrstuvwxyz"[index % 26]
    return base if index < 26 else f"{base}{index // 26}"


def word_text(exponents: Sequence[int], names: Sequence[str]) -> str:
    """``a b^2 c`` as ``ab^2c``; the empty word is ``1``."""
    parts = []
    for name, e in zip(names, exponents, strict=True):
        if e == 1:
            parts.append(name)
        elif e:
            parts.append(f"{name}^{e}")
    return "".join(parts) or "1"


@attrs.frozen
class MisereQuotient:
    """The misère quotient of the heaps 1..``max_heap`` of a heap game.

    ``table[x][y]`` is the product of elements x and y (indices; 0 is the identity, the
    empty sum), ``p_portion`` the elements that are misère P-positions, ``images[h]`` the
    element of a heap of size h (``images[0]`` = 0, the empty heap). Generators are heaps
    whose image is not a product of the earlier heaps' images; ``normal_forms[x]`` is
    element x as exponents of the generators; ``relations`` (left exponents, right
    exponents) present the monoid. ``period``/``preperiod`` are set when the quotient is
    proved to be that of all heaps (see the module docstring). ``code`` names the game
    (its label)."""

    code: str
    max_heap: int
    table: tuple[tuple[int, ...], ...]
    p_portion: frozenset[int]
    images: tuple[int, ...]
    generators: tuple[int, ...]
    names: tuple[str, ...]
    normal_forms: tuple[tuple[int, ...], ...]
    relations: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    period: int | None = None
    preperiod: int | None = None
    stats: dict[str, int] = attrs.field(factory=dict, eq=False, hash=False)

    @property
    def order(self) -> int:
        return len(self.table)

    @property
    def stabilised(self) -> bool:
        return self.period is not None

    def word(self, element: int) -> str:
        return word_text(self.normal_forms[element], self.names)

    def image(self, heap: int) -> int:
        """The element of a heap of size ``heap``; above ``max_heap`` only once stabilised."""
        if heap < 0:
            raise ValueError(f"heap size {heap} is negative")
        if heap <= self.max_heap:
            return self.images[heap]
        if self.period is None or self.preperiod is None:
            raise ValueError(
                f"heap {heap} is above --max-heap {self.max_heap} and the quotient is not "
                "proved stable"
            )
        first = self.preperiod + self.period
        return self.images[first + (heap - first) % self.period]

    def element(self, heaps: Iterable[int]) -> int:
        """The element of a sum of heaps: one product per heap."""
        x = 0
        for h in heaps:
            x = self.table[x][self.image(h)]
        return x

    def outcome(self, heaps: Iterable[int]) -> str:
        """``'P'`` or ``'N'``: the misère outcome of the sum of these heaps."""
        return "P" if self.element(heaps) in self.p_portion else "N"

    def presentation(self) -> str:
        """``<a, b | a^2 = 1, b^3 = b>`` (Plambeck & Siegel's notation, ASCII exponents)."""
        rel = ", ".join(
            f"{word_text(lhs, self.names)} = {word_text(rhs, self.names)}"
            for lhs, rhs in self.relations
        )
        gens = ", ".join(self.names)
        return f"<{gens} | {rel}>" if rel else f"<{gens}>"

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "max_heap": self.max_heap,
            "order": self.order,
            "generators": {
                name: heap for name, heap in zip(self.names, self.generators, strict=True)
            },
            "relations": [
                [word_text(lhs, self.names), word_text(rhs, self.names)]
                for lhs, rhs in self.relations
            ],
            "presentation": self.presentation(),
            "elements": [self.word(x) for x in range(self.order)],
            "p_portion": [self.word(x) for x in sorted(self.p_portion)],
            "heap_images": [self.word(self.images[h]) for h in range(1, self.max_heap + 1)],
            "stabilised": self.stabilised,
            "period": self.period,
            "preperiod": self.preperiod,
            "table": [list(row) for row in self.table],
        }


class _Moves:
    """What a move on each heap 1..N leaves (heaps with no move are the game 0: dropped)."""

    def __init__(self, rule: Any, max_heap: int) -> None:
        self.results: list[list[tuple[int, ...]]] = [[]]
        for n in range(1, max_heap + 1):
            seen = {tuple(sorted(left)) for left in heap_results(rule, n, rule.heap_options)}
            self.results.append(sorted(seen))
        self.dead = [not r for r in self.results]

    def clean(self, heaps: Iterable[int]) -> tuple[int, ...]:
        return tuple(sorted(h for h in heaps if not self.dead[h]))


class _Oracle:
    """Exact misère outcomes of sums of heaps, memoised by the sorted heap sizes; iterative
    (no recursion on deep games). ``True`` means a P-position (the player to move loses).
    ``nodes`` counts the work (positions expanded, pairs verified) against ``max_nodes``."""

    def __init__(self, moves: _Moves, deadline: float | None, max_nodes: int | None) -> None:
        self.moves = moves
        self.memo: dict[tuple[int, ...], bool] = {(): False}
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.nodes = 0
        self.base: _Hypothesis | None = None
        self.below = 1

    def rebase(self, hyp: _Hypothesis, below: int) -> None:
        """Sums of heaps smaller than ``below`` are answered by ``hyp``, a verified quotient
        of those heaps (exact: one product per heap); the memo is cleared."""
        self.base = hyp
        self.below = below
        self.memo = {(): False}

    def _options(self, key: tuple[int, ...]) -> list[tuple[int, ...]]:
        out = []
        results = self.moves.results
        dead = self.moves.dead
        previous = -1
        for i, h in enumerate(key):
            if h == previous:
                continue
            previous = h
            rest = key[:i] + key[i + 1 :]
            for r in results[h]:
                out.append(tuple(sorted(rest + tuple(x for x in r if not dead[x]))))
        return out

    def is_p(self, heaps: Iterable[int]) -> bool:
        key = self.moves.clean(heaps)
        memo = self.memo
        found = memo.get(key)
        if found is not None:
            return found
        base, below = self.base, self.below
        if base is not None and key[-1] < below:
            return base.accept[base.run(0, key)]
        stack = [key]
        while stack:
            top = stack[-1]
            if top in memo:
                stack.pop()
                continue
            if base is not None and top[-1] < below:
                memo[top] = base.accept[base.run(0, top)]
                stack.pop()
                continue
            self.nodes += 1
            if self.nodes % CHECK_EVERY == 0:
                self._check()
            pending = []
            winning = False
            for option in self._options(top):
                value = memo.get(option)
                if value is None:
                    pending.append(option)
                elif value:
                    winning = True
                    break
            if winning:
                memo[top] = False
                stack.pop()
            elif pending:
                stack.extend(pending)
            else:
                memo[top] = True  # every move (there is one: no dead heap) leads to N
                stack.pop()
        return memo[key]

    def _check(self) -> None:
        if len(self.memo) > MAX_MEMO:
            raise LimitExceeded(
                f"the misère search keeps more than {MAX_MEMO} sums: use a smaller --max-heap"
            )
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchStopped(f"the quotient took more than {self.max_nodes} nodes (--max-nodes)")
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise SearchStopped("the quotient took longer than --timeout")


class _Hypothesis:
    """An automaton from the L* table: states are distinct rows (outcomes of w + e for the
    tests e), found breadth-first from the empty sum."""

    def __init__(
        self,
        letters: list[int],
        oracle: _Oracle,
        tests: list[tuple[int, ...]],
        max_order: int,
    ) -> None:
        self.letters = letters
        rows: dict[tuple[bool, ...], int] = {}
        self.words: list[tuple[int, ...]] = []
        self.delta: list[dict[int, int]] = []

        def row(w: tuple[int, ...]) -> tuple[bool, ...]:
            return tuple(oracle.is_p(w + e) for e in tests)

        first = row(())
        rows[first] = 0
        self.words.append(())
        self.accept = [first[0]]  # tests[0] is the empty sum
        self.delta.append({})
        i = 0
        while i < len(self.words):
            w = self.words[i]
            for h in letters:
                nxt = tuple(sorted(w + (h,)))
                r = row(nxt)
                target = rows.get(r)
                if target is None:
                    target = rows[r] = len(self.words)
                    self.words.append(nxt)
                    self.accept.append(r[0])
                    self.delta.append({})
                    if len(self.words) > max_order:
                        raise LimitExceeded(
                            f"the quotient has more than {max_order} elements (--max-order)"
                        )
                self.delta[i][h] = target
            i += 1

    def run(self, state: int, heaps: Iterable[int]) -> int:
        for h in heaps:
            state = self.delta[state][h]
        return state


def _verify(hyp: _Hypothesis, moves: _Moves, oracle: _Oracle) -> tuple[int, ...] | None:
    """None if the hypothesis gives every sum's misère outcome (see the module docstring),
    else a sum (as a word, in reading order) that it gets wrong."""
    letters = hyp.letters
    fmask = 0
    for s, ok in enumerate(hyp.accept):
        if ok:
            fmask |= 1 << s
    opt: dict[tuple[int, int], int] = {}
    for s in range(len(hyp.words)):
        oracle._check()
        for h in letters:
            mask = 0
            for r in moves.results[h]:
                mask |= 1 << hyp.run(s, (x for x in r if not moves.dead[x]))
            opt[s, h] = mask
    image: dict[tuple[int, int], int] = {}

    def moved(mask: int, h: int) -> int:
        key = (mask, h)
        found = image.get(key)
        if found is None:
            if len(image) > MAX_PAIRS:  # a cache: bounded memory
                image.clear()
            found = 0
            m = mask
            while m:
                low = m & -m
                found |= 1 << hyp.delta[low.bit_length() - 1][h]
                m ^= low
            image[key] = found
        return found

    start = (0, 0)
    if hyp.accept[0]:
        return ()
    parent: dict[tuple[int, int], tuple[tuple[int, int], int] | None] = {start: None}
    queue = [start]
    head = 0
    while head < len(queue):
        s, o = queue[head]
        head += 1
        oracle.nodes += 1
        if head % CHECK_EVERY == 0:
            oracle._check()
        for h in letters:
            t = hyp.delta[s][h]
            p = moved(o, h) | opt[s, h]
            pair = (t, p)
            if pair in parent:
                continue
            parent[pair] = ((s, o), h)
            if hyp.accept[t] != (p != 0 and not p & fmask):
                word = [h]
                back = parent[(s, o)]
                while back is not None:
                    word.append(back[1])
                    back = parent[back[0]]
                return _misclassified(tuple(reversed(word)), hyp, moves, oracle)
            if len(parent) > MAX_PAIRS:
                raise LimitExceeded(
                    f"the verification visits more than {MAX_PAIRS} states: use a smaller "
                    "--max-heap"
                )
            queue.append(pair)
    return None


def _misclassified(
    word: tuple[int, ...], hyp: _Hypothesis, moves: _Moves, oracle: _Oracle
) -> tuple[int, ...]:
    """A word the hypothesis gets wrong: ``word`` itself or one of its options (the
    verification failed at ``word``, so one of the two is wrong)."""
    if hyp.accept[hyp.run(0, word)] != oracle.is_p(word):
        return word
    for i, h in enumerate(word):
        for r in moves.results[h]:
            option = word[:i] + tuple(x for x in r if not moves.dead[x]) + word[i + 1 :]
            if hyp.accept[hyp.run(0, option)] != oracle.is_p(option):
                return option
    raise AssertionError("verification failed but no sum is misclassified")  # pragma: no cover


def _as_old_element(
    hyp: _Hypothesis, n: int, letters: list[int], moves: _Moves, oracle: _Oracle
) -> _Hypothesis | None:
    """The last quotient with heap n read as one of its elements x, if one such automaton
    passes the verification (no search needed: the common case once a quotient settles).
    It is then the quotient of heaps up to n: same states, still told apart, all reached.
    Candidates x have the outcome of heap n alone."""
    alone = oracle.is_p((n,))
    for x in range(len(hyp.words)):
        if hyp.accept[x] != alone:
            continue
        trial = object.__new__(_Hypothesis)
        trial.letters = letters
        trial.words = hyp.words
        trial.accept = hyp.accept
        trial.delta = [dict(row) for row in hyp.delta]
        for s, row in enumerate(trial.delta):
            row[n] = hyp.run(s, hyp.words[x])
        if _verify(trial, moves, oracle) is None:
            return trial
    return None


def _distinguishing_test(
    bad: tuple[int, ...], hyp: _Hypothesis, oracle: _Oracle
) -> tuple[int, ...]:
    """A new test that splits a state of the hypothesis (Rivest & Schapire's refinement of
    L*). ``bad`` is a sum the hypothesis misreads; the same sum read largest heap first (or
    smallest first) is used when it is misread too, so that the test, a tail of the word, is
    a sum of small heaps (cheap to search). With α(i) the outcome of the state's word after
    reading i heaps plus the rest of the sum, α(0) is the true outcome and α(len) the
    hypothesis's: some i has α(i) != α(i + 1), and the heaps after i + 1 tell apart two
    sums the hypothesis merged."""
    for word in (tuple(sorted(bad, reverse=True)), tuple(sorted(bad)), bad):
        if hyp.accept[hyp.run(0, word)] != oracle.is_p(word):
            break

    def alpha(i: int) -> bool:
        return oracle.is_p(hyp.words[hyp.run(0, word[:i])] + word[i:])

    low, high = 0, len(word)  # alpha(low) != alpha(high)
    a_low = alpha(low)
    while high - low > 1:
        mid = (low + high) // 2
        if alpha(mid) == a_low:
            low = mid
        else:
            high = mid
    return tuple(sorted(word[high:]))


def _presentation(
    table: list[list[int]], images: list[int]
) -> tuple[list[int], list[tuple[int, ...]], list[tuple[tuple[int, ...], tuple[int, ...]]]]:
    """Generators (heaps whose image is not a product of earlier heaps' images), the normal
    form of every element (its least word: fewest generators, then fewest late ones), and
    the relations "least non-normal word = its normal form" for the words all of whose
    divisors are normal: they rewrite every word to its normal form, so they present Q."""
    reach = {0}
    gens: list[int] = []
    for h in range(1, len(images)):
        x = images[h]
        if x in reach:
            continue
        gens.append(h)
        frontier = list(reach)
        while frontier:
            nxt = []
            for y in frontier:
                z = table[y][x]
                if z not in reach:
                    reach.add(z)
                    nxt.append(z)
            frontier = nxt
    k = len(gens)
    gen_el = [images[h] for h in gens]
    normal: dict[int, tuple[int, ...]] = {0: (0,) * k}
    standard = {(0,) * k: 0}
    relations = []
    level = [(0,) * k]
    while level:
        candidates = set()
        for v in level:
            for i in range(k):
                candidates.add(v[:i] + (v[i] + 1,) + v[i + 1 :])
        nxt_level = []
        for c in sorted(candidates, key=lambda v: tuple(reversed(v))):
            divisors = [c[:i] + (c[i] - 1,) + c[i + 1 :] for i in range(k) if c[i]]
            if not all(d in standard for d in divisors):
                continue
            i = next(i for i in range(k) if c[i])
            x = table[standard[divisors[0]]][gen_el[i]]
            if x in normal:
                relations.append((c, normal[x]))
            else:
                normal[x] = c
                standard[c] = x
                nxt_level.append(c)
        level = nxt_level
    forms = [normal[x] for x in range(len(table))]
    return gens, forms, relations


def misere_quotient(
    rule: Any,
    max_heap: int,
    *,
    max_order: int = DEFAULT_MAX_ORDER,
    timeout: float | None = None,
    max_nodes: int | None = None,
    label: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> MisereQuotient:
    """The misère quotient of the heaps 1..``max_heap`` of a heap rule (a
    :class:`~cgframework.heaps.rules.HeapRuleset`, or any object with ``heap_options``).

    Exact (see the module docstring); proved stable when the rule's heap engine proves it.
    ``progress(n)`` is called once the quotient of heaps 1..n is known.
    Raises :class:`~cgframework.LimitExceeded` past ``max_order`` elements or the memory
    bounds, :class:`~cgframework.SearchStopped` past ``max_nodes`` or ``timeout`` seconds."""
    if not 1 <= max_heap <= MAX_HEAP:
        raise ValueError(f"max heap must be between 1 and {MAX_HEAP}, got {max_heap}")
    deadline = None if timeout is None else time.monotonic() + timeout
    moves = _Moves(rule, max_heap)
    oracle = _Oracle(moves, deadline, max_nodes)
    tests: list[tuple[int, ...]] = [()]
    rounds = 0
    searched = 0
    hyp: _Hypothesis | None = None
    for n in range(1, max_heap + 1):  # Q_n from Q_(n-1): the oracle answers heaps < n fast
        letters = [h for h in range(1, n + 1) if not moves.dead[h]]
        if not letters:
            continue
        if progress is not None:
            progress(n - 1)
        if hyp is not None and not moves.dead[n]:
            settled = _as_old_element(hyp, n, letters, moves, oracle)
            if settled is not None:  # heap n plays as an element of the last quotient
                hyp = settled
                oracle.rebase(hyp, n + 1)
                continue
        while True:
            rounds += 1
            hyp = _Hypothesis(letters, oracle, tests, max_order)
            bad = _verify(hyp, moves, oracle)
            if bad is None:
                break
            tests.append(_distinguishing_test(bad, hyp, oracle))
        searched += len(oracle.memo)
        oracle.rebase(hyp, n + 1)
    if hyp is None:  # no heap has a move: every sum is the empty game
        hyp = _Hypothesis([], oracle, tests, max_order)
    size = len(hyp.words)
    table = [[hyp.run(x, hyp.words[y]) for y in range(size)] for x in range(size)]
    for x in range(size):  # a verified minimal automaton of a commutative language
        for y in range(x):
            assert table[x][y] == table[y][x], "quotient is not commutative"
    images = [0] + [0 if moves.dead[h] else hyp.delta[0][h] for h in range(1, max_heap + 1)]
    gens, forms, relations = _presentation(table, images)
    known = known_rule(rule) if hasattr(rule, "rule_label") else None
    stable = None if known is None else known.stable_images(images)
    if label is None:
        label = (known.label if known is not None else "") or getattr(rule, "name", "?")
    return MisereQuotient(
        code=label,
        max_heap=max_heap,
        table=tuple(tuple(row) for row in table),
        p_portion=frozenset(x for x in range(size) if hyp.accept[x]),
        images=tuple(images),
        generators=tuple(gens),
        names=tuple(_letter(i) for i in range(len(gens))),
        normal_forms=tuple(forms),
        relations=tuple(relations),
        period=stable[0] if stable else None,
        preperiod=stable[1] if stable else None,
        stats={
            "rounds": rounds,
            "tests": len(tests),
            "sums_searched": searched,
            "nodes": oracle.nodes,
        },
    )
