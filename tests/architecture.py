"""The core's layers, its import graph, and the picture of both (docs/architecture.svg).

``LAYERS`` is the architecture page's table (docs/architecture.md): the core's modules from
the bottom up; a module may import modules of its own layer or of a layer below, never above.
``import_graph`` reads every import statement of ``cgframework/``, or of one plugin package
under ``plugins/`` (deferred ones inside functions and ``TYPE_CHECKING`` blocks included),
without importing anything. ``tests/test_architecture.py`` checks the core's graph against
the table and every graph for circles; ``python tests/architecture.py`` writes the picture
again after the table changes.
"""

from __future__ import annotations

import ast
import fnmatch
import sys
from collections.abc import Container
from html import escape
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "cgframework"
PLUGINS = sorted(path.parent for path in ROOT.glob("plugins/*/cgframework_*/__init__.py"))
PICTURE = ROOT / "docs" / "architecture.svg"

LAYERS: list[tuple[str, str, tuple[str, ...]]] = [
    # (name, what belongs there, module patterns relative to ``cgframework``)
    (
        "base",
        "knows no game: limits, deep recursion, kernels, input, SVG pieces",
        ("runtime", "runtime.*", "hookspecs", "_moved", "display.pictures"),
    ),
    (
        "protocol",
        "players, conventions, moves, the Ruleset protocol, sums; variants of a ruleset",
        ("game", "variants", "variants.*"),
    ),
    ("values", "exact value algebras; their printers and parsers on top", ("values", "values.*")),
    (
        "registry",
        "what plugins register, and the solver's result; the heap-game base",
        ("solution", "extensions", "plugins", "heaps", "heaps.rules"),
    ),
    ("json", "one cattrs converter: JSON in and out", ("io",)),
    (
        "store",
        "the sqlite value store; export signatures",
        ("store", "store.database", "store.errors", "store.signing"),
    ),
    (
        "solvers",
        "generic solvers and the dispatcher; heap rules' tables and periods",
        ("solvers", "solvers.*", "heaps.table", "heaps.periods"),
    ),
    (
        "services",
        "sweeps, store checks, pictures, notebooks, play, certificates; misère quotients",
        (
            "sweep",
            "sweep.*",
            "store.check",
            "display",
            "display.*",
            "proofs",
            "proofs.*",
            "heaps.quotient",
            "heaps.genus",
        ),
    ),
    ("api", "positions as objects: Game", ("api",)),
    ("cli", "the cgf command line; helpers for tests", ("cli", "cli.*", "testing")),
    (
        "entry",
        "the public names: the user's and the plugin author's",
        ("", "__main__", "authoring"),
    ),
]


def module_names(package: Path = CORE) -> dict[str, Path]:
    """Every module of ``package`` (the core, or a plugin's package) by its dotted name
    relative to the package (``""`` is the package itself, ``"values"`` the values package's
    ``__init__``)."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _resolve(name: str, top: str, modules: Container[str]) -> str | None:
    """The module of package ``top`` that ``name`` (dotted, absolute) stands for: the longest
    known prefix; ``None`` for a name outside the package."""
    if name != top and not name.startswith(top + "."):
        return None
    parts = name.split(".")[1:]
    for end in range(len(parts), -1, -1):
        candidate = ".".join(parts[:end])
        if candidate in modules:
            return candidate
    return None


def import_graph(package: Path = CORE) -> dict[str, set[str]]:
    """Module -> the modules of the same package (the core, or one plugin's) it imports
    (anywhere in its text)."""
    top = package.name
    modules = module_names(package)
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        enclosing = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = enclosing.split(".") if enclosing else []
                    base = base[: len(base) - (node.level - 1)]
                    source = ".".join([top, *base, *filter(None, [node.module])])
                else:
                    source = node.module or ""
                # ``from X import y``: y may be a module (``from cgframework import plugins``)
                targets = [f"{source}.{alias.name}" for alias in node.names] or [source]
            for target in targets:
                found = _resolve(target, top, modules)
                if found is not None and found != name:
                    graph[name].add(found)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def layer_of(module: str) -> int | None:
    """The index in :data:`LAYERS` of the most specific pattern ``module`` matches."""
    best: tuple[int, int] | None = None  # (specificity, layer)
    for number, (_, _, patterns) in enumerate(LAYERS):
        for pattern in patterns:
            if fnmatch.fnmatchcase(module, pattern):
                specific = len(pattern) - 2 * pattern.count("*")
                if best is None or specific > best[0]:
                    best = (specific, number)
    return None if best is None else best[1]


# ---- the picture ---------------------------------------------------------------------------
ROW, GAP, MODULES_X, WIDTH = 46, 10, 370, 960
INK, BOX, ACCENT = "#222", "#eef3fb", "#2a5caa"


def _folders(patterns: tuple[str, ...]) -> list[str]:
    """The names a layer's box shows: ``values/`` for a whole folder, ``store/database`` for
    one module of a folder, ``io`` for a top-level module."""
    shown: list[str] = []
    for pattern in patterns:
        folder = (CORE / pattern.replace(".", "/")).is_dir()
        if pattern == "":
            text = "cgframework/__init__"
        elif pattern.endswith(".*"):
            continue
        elif folder and f"{pattern}.*" in patterns:
            text = pattern.replace(".", "/") + "/"
        elif folder and any(p.startswith(pattern + ".") for p in patterns):
            continue  # the package's __init__ goes with its modules
        else:
            text = pattern.replace(".", "/")
        shown.append(text)
    return shown


def picture() -> str:
    """docs/architecture.svg: the layers top (entry) to bottom (base), an arrow for "imports"."""
    rows = list(reversed(LAYERS))
    height = len(rows) * (ROW + GAP) + 70
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="DejaVu Sans, sans-serif">',
        f'<rect width="{WIDTH}" height="{height}" fill="white"/>',
        f'<text x="20" y="28" font-size="18" fill="{INK}" font-weight="bold">'
        "cgframework: the core's layers</text>",
        f'<text x="{WIDTH - 20}" y="28" font-size="13" fill="{INK}" text-anchor="end">'
        "a layer imports only its own and those below it</text>",
    ]
    top = 48
    for number, (name, what, patterns) in enumerate(rows):
        y = top + number * (ROW + GAP)
        out.append(
            f'<rect class="layer" x="20" y="{y}" width="{WIDTH - 90}" height="{ROW}" rx="6" '
            f'fill="{BOX}" stroke="{ACCENT}"/>'
        )
        out.append(
            f'<text x="32" y="{y + 20}" font-size="15" font-weight="bold" fill="{ACCENT}">'
            f"{escape(name)}</text>"
        )
        out.append(f'<text x="32" y="{y + 37}" font-size="10" fill="{INK}">{escape(what)}</text>')
        out.append(
            f'<text x="{MODULES_X}" y="{y + 28}" font-size="14" fill="{INK}" '
            f'font-family="DejaVu Sans Mono, monospace">{escape("   ".join(_folders(patterns)))}'
            "</text>"
        )
    arrow_x, first, last = WIDTH - 40, top + ROW // 2, top + (len(rows) - 1) * (ROW + GAP) + ROW
    out.append(
        f'<line x1="{arrow_x}" y1="{first}" x2="{arrow_x}" y2="{last - 8}" '
        f'stroke="{ACCENT}" stroke-width="3"/>'
    )
    out.append(
        f'<polygon points="{arrow_x - 8},{last - 12} {arrow_x + 8},{last - 12} {arrow_x},{last}" '
        f'fill="{ACCENT}"/>'
    )
    out.append(
        f'<text x="{arrow_x + 14}" y="{(first + last) // 2}" font-size="13" fill="{ACCENT}" '
        f'transform="rotate(90 {arrow_x + 14} {(first + last) // 2})" text-anchor="middle">'
        "imports</text>"
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    PICTURE.write_text(picture())
    print(f"wrote {PICTURE.relative_to(ROOT)}", file=sys.stderr)
