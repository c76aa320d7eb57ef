"""Generate ``golden.json``: the peers' values of random positions of every shared ruleset.

Run once (needs pycgt and cgt-py, the ``test`` extra):
``python plugins/grids/tests/data/make_golden.py``. For each peer and each ruleset it ships
(``cgframework_grids.peers.PEER_RULESETS``), ``COUNT`` distinct random positions (a fixed
seed) written in our canonical text, with the peer's value: its own text when our value
parser reads it back as the same game as the peer's game tree, else that tree as a DAG of
option lists (``cgframework.testing.to_dag``). ``test_peers.py`` compares our values with
these as games.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from cgframework import format_position, get_registry, parse_position
from cgframework.testing import from_dag
from cgframework.values import parse_value
from cgframework_grids.peers import PEER_RULESETS, peer_dag, peer_solver

COUNT = 300
SEED = 16
HERE = Path(__file__).resolve().parent

#: Letters and their weights for random boards, and the largest board (rows, columns).
BOARDS = {
    "clobber": ("xo.", (3, 3, 2), (3, 4)),
    "konane": ("xo.#", (3, 3, 3, 1), (3, 4)),
    "cram": (".#", (4, 1), (3, 4)),
    "fission": ("x.#", (1, 4, 1), (3, 4)),
    "amazons": ("xo.#", (1, 1, 4, 2), (2, 4)),
}


def random_position(ruleset: str, rnd: random.Random) -> str:
    if ruleset in BOARDS:
        letters, weights, (rows, cols) = BOARDS[ruleset]
        h, w = rnd.randint(1, rows), rnd.randint(1, cols)
        return "|".join("".join(rnd.choices(letters, weights, k=w)) for _ in range(h))
    if ruleset == "toads-frogs":
        return "".join(rnd.choices("TF.", (2, 2, 3), k=rnd.randint(1, 10)))
    n = rnd.randint(1, 7)  # snort, col: a random graph with tints
    edges = (
        {tuple(sorted(rnd.sample(range(n), 2))) for _ in range(rnd.randint(0, n + 2))}
        if n > 1
        else set()
    )
    tints = "".join(rnd.choices(".LR", (4, 1, 1), k=n))
    return ",".join(f"{u}-{v}" for u, v in sorted(edges)) + f";tints={tints}"


def native(peer: str, value) -> str:
    if peer == "pycgt":
        from pycgt.notation import render

        return render(value)
    text = repr(value)
    return text[len("CanonicalForm('") : -2]


def main() -> None:
    registry = get_registry()
    out: dict[str, dict[str, list]] = {}
    for peer, rulesets in PEER_RULESETS.items():
        rnd = random.Random(f"{SEED}-{peer}")
        out[peer] = {}
        for name in rulesets:
            rules = registry.ruleset(name)
            seen: set[str] = set()
            rows = []
            while len(rows) < COUNT:
                text = format_position(rules, parse_position(rules, random_position(name, rnd)))
                if text in seen:
                    continue
                seen.add(text)
                value = peer_solver(peer, name, text)()
                dag = peer_dag(peer, value)
                written = native(peer, value)
                try:
                    readable = parse_value(written) == from_dag(dag)
                except ValueError:
                    readable = False
                rows.append([text, written] if readable else [text, {"dag": dag}])
            out[peer][name] = rows
            print(peer, name, len(rows), file=sys.stderr)
    (HERE / "golden.json").write_text(json.dumps(out, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
