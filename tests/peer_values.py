"""Golden values from cgt-py for the value toolbox: reduced canonical forms and cooling.

``python tests/peer_values.py`` rebuilds ``tests/data/cgt_py_values.json`` (needs cgt-py, the
``bench`` extra). Each record holds a random short game and cgt-py's ``reduced`` and
``cool(t)`` of it for every t in ``TEMPERATURES``. All texts are written with explicit braces
(``{{0|}|}``) and plain dyadic numbers, so reading them back needs only ``game()`` semantics of
our parser, never a printer: cgt-py's answers are walked through their options and rebuilt with
``game()`` (compared as games, not strings).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from cgframework.values import CanonicalGame, game, nimber, number

DATA = Path(__file__).parent / "data" / "cgt_py_values.json"
TEMPERATURES = ["-1", "-1/2", "0", "1/4", "1/2", "1", "3/2", "2"]
SEED = 17
COUNT = 1000  # distinct games
LEAVES = ["0", "1", "-1", "2", "-2", "1/2", "-1/4", "*"]


def random_game(rng: random.Random, depth: int) -> CanonicalGame:
    """A random short game of the given depth (options drawn recursively, leaves small)."""
    if depth == 0 or rng.random() < 0.2:
        leaf = rng.choice(LEAVES)
        return nimber(1) if leaf == "*" else number(leaf)
    return game(
        [random_game(rng, depth - 1) for _ in range(rng.randint(0, 3))],
        [random_game(rng, depth - 1) for _ in range(rng.randint(0, 3))],
    )


def explicit(g: CanonicalGame, memo: dict[int, str] | None = None) -> str:
    """``g`` with every non-number written as ``{lefts|rights}`` (cgt-py and we both read it)."""
    memo = {} if memo is None else memo
    found = memo.get(g.id)
    if found is None:
        if g.is_number:
            x = g.number_value
            found = str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"
        else:
            lefts = ",".join(explicit(x, memo) for x in g.left)
            rights = ",".join(explicit(x, memo) for x in g.right)
            found = "{" + lefts + "|" + rights + "}"
        memo[g.id] = found
    return found


def from_peer(form: Any, memo: dict[str, CanonicalGame] | None = None) -> CanonicalGame:
    """A cgt-py ``CanonicalForm`` rebuilt with our ``game()`` from its options."""
    memo = {} if memo is None else memo
    key = repr(form)
    found = memo.get(key)
    if found is None:
        found = game(
            [from_peer(x, memo) for x in form.left_options],
            [from_peer(x, memo) for x in form.right_options],
        )
        memo[key] = found
    return found


def peer_answers(g: CanonicalGame) -> dict[str, Any]:
    """cgt-py's reduced form and coolings of ``g``, as explicit texts of our rebuilt games."""
    import cgt_py

    form = cgt_py.CanonicalForm(explicit(g))
    if from_peer(form) is not g:
        raise AssertionError(f"cgt-py read {explicit(g)} as {form!r}")
    return {
        "game": explicit(g),
        "reduced": explicit(from_peer(form.reduced)),
        "cool": {t: explicit(from_peer(form.cool(t))) for t in TEMPERATURES},
    }


def main() -> None:
    rng = random.Random(SEED)
    games: dict[int, CanonicalGame] = {}
    while len(games) < COUNT:
        g = random_game(rng, 4)
        games.setdefault(g.id, g)
    records = [peer_answers(g) for g in games.values()]
    DATA.parent.mkdir(exist_ok=True)
    head = {
        "source": "cgt-py CanonicalForm.reduced and .cool(t), made by tests/peer_values.py",
        "seed": SEED,
        "temperatures": TEMPERATURES,
    }
    lines = ",\n".join(json.dumps(r) for r in records)
    DATA.write_text(json.dumps(head)[:-1] + ', "records": [\n' + lines + "\n]}\n")
    print(f"wrote {len(records)} records to {DATA}", file=sys.stderr)


if __name__ == "__main__":
    main()
