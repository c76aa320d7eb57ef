"""The game tree of a small position as SVG (``cgf tree RULESET POSITION --depth 3``).

As in Winning Ways: Left's options hang down to the left on blue edges, Right's down to the
right on red edges; each node is the position's text. The tree is cut at ``depth`` moves and
refused (``PictureTooBig``) past ``max_nodes`` nodes, so a picture stays readable.
"""

from __future__ import annotations

from typing import Any

from cgframework.display.pictures import (
    INK,
    LEFT_COLOUR,
    RIGHT_COLOUR,
    PictureTooBig,
    document,
    escape,
)
from cgframework.game import Player, format_position, options

MAX_DEPTH = 8
NODE_WIDTH, LEVEL_HEIGHT = 110, 70


def _expand(ruleset: Any, position: Any, depth: int, max_nodes: int) -> list[dict[str, Any]]:
    """The nodes breadth first: each has its label, level, parent index and edge colour."""
    nodes = [{"position": position, "level": 0, "parent": None, "colour": INK, "children": []}]
    frontier = [0]
    for level in range(1, depth + 1):
        next_frontier = []
        for index in frontier:
            for player, colour in ((Player.LEFT, LEFT_COLOUR), (Player.RIGHT, RIGHT_COLOUR)):
                for move in options(ruleset, nodes[index]["position"], player):
                    if len(nodes) >= max_nodes:
                        raise PictureTooBig(
                            f"too big to draw: the tree has over {max_nodes} nodes within "
                            f"{depth} moves (try a smaller --depth)"
                        )
                    nodes[index]["children"].append(len(nodes))
                    next_frontier.append(len(nodes))
                    nodes.append(
                        {
                            "position": move.result,
                            "level": level,
                            "parent": index,
                            "colour": colour,
                            "children": [],
                            "move": move.text,
                        }
                    )
        frontier = next_frontier
    return nodes


def tree_svg(ruleset: Any, position: Any, depth: int = 3, max_nodes: int = 300) -> str:
    """The game tree of ``position`` down to ``depth`` moves, as one SVG document."""
    if not 0 <= depth <= MAX_DEPTH:
        raise ValueError(f"--depth must be between 0 and {MAX_DEPTH}, got {depth}")
    nodes = _expand(ruleset, position, depth, max_nodes)
    # leaves take one slot each, from left to right; a parent sits over its children
    x: dict[int, float] = {}
    slot = 0
    order: list[int] = []
    stack = [0]
    while stack:  # depth-first, Left's options first: the leaves in drawing order
        index = stack.pop()
        order.append(index)
        stack.extend(reversed(nodes[index]["children"]))
    for index in order:
        if not nodes[index]["children"]:
            x[index] = slot
            slot += 1
    for index in reversed(range(len(nodes))):  # children come after their parents
        kids = nodes[index]["children"]
        if kids:
            x[index] = (x[kids[0]] + x[kids[-1]]) / 2

    def at(index: int) -> tuple[float, float]:
        return 10 + NODE_WIDTH * (x[index] + 0.5), 30 + LEVEL_HEIGHT * nodes[index]["level"]

    body = []
    for index, node in enumerate(nodes):
        if node["parent"] is None:
            continue
        (x1, y1), (x2, y2) = at(node["parent"]), at(index)
        body.append(
            f'<line class="edge" x1="{x1:.1f}" y1="{y1 + 10:.1f}" x2="{x2:.1f}" '
            f'y2="{y2 - 12:.1f}" stroke="{node["colour"]}" stroke-width="2"/>'
        )
    for index, node in enumerate(nodes):
        cx, cy = at(index)
        text = format_position(ruleset, node["position"])
        text = text if len(text) <= 16 else text[:15] + "…"
        body.append(
            f'<rect class="node" x="{cx - NODE_WIDTH / 2 + 4:.1f}" y="{cy - 12:.1f}" '
            f'width="{NODE_WIDTH - 8}" height="22" rx="4" fill="white" stroke="{INK}"/>'
            f'<text x="{cx:.1f}" y="{cy + 3:.1f}" text-anchor="middle" font-size="11" '
            f'font-family="monospace">{escape(text)}</text>'
        )
    levels = max(node["level"] for node in nodes) + 1
    return document(20 + NODE_WIDTH * max(slot, 1), 20 + LEVEL_HEIGHT * levels, "".join(body))
