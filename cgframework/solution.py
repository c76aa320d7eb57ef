"""What a solver returns: the value, outcome, optimal moves, the method and its statistics."""

from __future__ import annotations

from typing import Any

import attrs

from cgframework.game import Convention, Outcome, Player


@attrs.frozen
class Stats:
    """Search statistics: positions expanded, transposition-table hits and misses, wall time."""

    nodes: int = 0
    cache_hits: int = 0
    cache_misses: int = 0
    seconds: float = 0.0


@attrs.frozen(hash=False)
class Solution:
    """A solved position.

    ``value`` is exact: an ``int``/``Fraction`` score (scoring play, from the first player's
    point of view), a :class:`~cgframework.values.CanonicalGame` (normal play), or a
    plugin's own value type. ``best_moves`` are the first player's optimal (winning, for
    win/loss conventions) moves as the ruleset writes them. ``extra`` holds fields a family's
    paper uses (e.g. ``scores``); they appear at the top level of the JSON output.
    """

    ruleset: str
    position: str
    convention: Convention
    value: Any
    outcome: Outcome | None
    best_moves: tuple[str, ...]
    method: str
    stats: Stats = Stats()
    first: Player = Player.LEFT
    grundy: int | None = None
    extra: dict[str, Any] = attrs.field(factory=dict)
