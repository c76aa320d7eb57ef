"""The core's house (docs/architecture.md): no import circles (in the core and in every
plugin), imports only downward through the layers, a small top level, a docstring for every
folder, and old import paths that still work for one release, with a warning."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
import warnings

import pytest
from architecture import (
    CORE,
    LAYERS,
    PICTURE,
    PLUGINS,
    ROOT,
    circles,
    import_graph,
    layer_of,
    module_names,
    picture,
)


def test_the_graph_sees_deferred_imports():
    """The graph counts imports inside functions too (``game`` draws with the picture code
    only when asked), so a circle cannot hide in a function body."""
    graph = import_graph()
    assert "display.pictures" in graph["game"]
    assert "solvers.dispatch" in graph["store.check"]
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_circles():
    found = circles(import_graph())
    assert not found, "import circles in cgframework/: " + "; ".join(
        " <-> ".join(circle) for circle in found
    )


def test_a_plugins_graph_sees_its_own_modules_and_deferred_imports(tmp_path):
    """A plugin's graph holds its own modules, relative imports and imports inside functions
    included, and not the core's; a circle through a deferred import is found."""
    package = tmp_path / "cgframework_fixture"
    (package / "shapes").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "shapes" / "__init__.py").write_text("from . import board\n")
    (package / "shapes" / "board.py").write_text(
        "from cgframework import Player\nfrom ..drawing import draw\n"
    )
    (package / "drawing.py").write_text(
        "def draw(position):\n    from cgframework_fixture.shapes import board\n"
    )
    graph = import_graph(package)
    assert graph == {
        "": set(),
        "drawing": {"shapes.board"},
        "shapes": {"shapes.board"},
        "shapes.board": {"drawing"},
    }
    assert circles(graph) == [["drawing", "shapes.board"]]
    # the test below runs over every plugin: none may slip out of the list
    assert len(PLUGINS) >= 8 and all(p.name.startswith("cgframework_") for p in PLUGINS)


@pytest.mark.parametrize("package", PLUGINS, ids=lambda p: p.name)
def test_no_import_circles_in_a_plugin(package):
    """Each plugin's own import graph has no circle either: a module that two others need
    (pictures, the text form) stands below them and imports neither."""
    found = circles(import_graph(package))
    assert not found, f"import circles in {package.relative_to(ROOT)}/: " + "; ".join(
        " <-> ".join(circle) for circle in found
    )


def test_every_module_has_a_layer():
    missing = [name for name in module_names() if layer_of(name) is None]
    assert not missing, f"add these modules to tests/architecture.py LAYERS: {missing}"


def test_imports_go_down_the_layers():
    upward = []
    for module, imported in import_graph().items():
        for target in imported:
            if layer_of(target) > layer_of(module):
                upward.append(
                    f"{module} ({LAYERS[layer_of(module)][0]}) imports {target} "
                    f"({LAYERS[layer_of(target)][0]})"
                )
    assert not upward, "imports against the layers: " + "; ".join(sorted(upward))


def test_the_registry_does_not_reach_the_json_layer():
    graph = import_graph()
    reached, todo = set(), ["plugins"]
    while todo:
        for target in graph[todo.pop()] - reached:
            reached.add(target)
            todo.append(target)
    assert "io" not in reached and "display.notebook" not in reached


def test_data_objects_do_not_import_their_displays():
    graph = import_graph()
    for data in ("solution", "values.canonical", "values.loopy.graphs", "values.loopy.sides"):
        assert not {t for t in graph[data] if t.startswith("display")}, data
    # the printers stand above the algebra they print
    printers = {"values.notation", "values.parser", "values.thermograph"}
    assert not graph["values.canonical"] & printers


def test_core_imports_no_plugin():
    for name, path in module_names().items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith("cgframework_"), (name, node.module)
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("cgframework_") for a in node.names), name


def test_at_most_twelve_modules_at_the_top():
    top = sorted(path.name for path in CORE.glob("*.py"))
    assert len(top) <= 12, top


def test_every_folder_says_what_belongs_there():
    for init in sorted(CORE.rglob("__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text())) or ""
        first = doc.split("\n\n")[0]
        assert len(first.split()) >= 25, f"{init.relative_to(CORE)}: {first!r}"


def test_the_picture_is_the_table():
    assert PICTURE.read_text() == picture(), "run: python tests/architecture.py"


OLD_PATHS = [
    ("cgframework.pictures", "grid_svg", "cgframework.display.pictures"),
    ("cgframework.pictures", "draw_position", "cgframework.game"),
    ("cgframework.budget", "LimitExceeded", "cgframework.runtime.budget"),
    ("cgframework.deep", "call_deep", "cgframework.runtime.deep"),
    ("cgframework.compiled", "load_kernel", "cgframework.runtime.compiled"),
    ("cgframework.inputs", "read_text_argument", "cgframework.runtime.inputs"),
    ("cgframework.cache", "TranspositionTable", "cgframework.runtime.cache"),
    ("cgframework.sweep_cli", "sweep_records", "cgframework.cli.sweep"),
    ("cgframework.store_check", "check_record", "cgframework.store.check"),
    ("cgframework.store_errors", "StoreError", "cgframework.store.errors"),
    ("cgframework.notebook", "value_html", "cgframework.display.notebook"),
    ("cgframework.play", "play_game", "cgframework.display.play"),
    ("cgframework.game_tree", "tree_svg", "cgframework.display.tree"),
    ("cgframework.values.thermograph_svg", "thermograph_svg", "cgframework.display.thermograph"),
    ("cgframework.values.loopy_sides", "onside", "cgframework.values.loopy.sides"),
]


@pytest.mark.parametrize(("old", "name", "new"), OLD_PATHS)
def test_old_import_paths_forward_with_a_warning(old, name, new):
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=f"{old} moved to"):
        module = importlib.import_module(old)
    assert getattr(module, name) is getattr(importlib.import_module(new), name)
    with pytest.raises(AttributeError):
        module.no_such_name  # noqa: B018


def test_documented_paths_that_stayed_do_not_warn():
    """``cgframework.cli``, ``cgframework.store``, ``cgframework.sweep`` are folders now, and
    still hand out what plugins import from them, without a warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        from cgframework.cli import fail, open_store, out, read_position_text  # noqa: F401
        from cgframework.store import ValueStore, position_key  # noqa: F401
        from cgframework.sweep import Record, SweepError, sweep  # noqa: F401


def test_an_old_path_warns_in_a_plugin_authors_script():
    """The warning is shown where it is due: in the importing script (``__main__``), under
    Python's default filters."""
    code = "from cgframework.pictures import grid_svg"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "DeprecationWarning: cgframework.pictures moved to cgframework.display.pictures" in (
        done.stderr
    )
