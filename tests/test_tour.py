"""docs/tour.ipynb runs top to bottom without error (nbclient, a real kernel), and shows
pictures: the tour can never go stale."""

from pathlib import Path

import pytest

nbclient = pytest.importorskip("nbclient")
nbformat = pytest.importorskip("nbformat")
pytest.importorskip("ipykernel")

TOUR = Path(__file__).parent.parent / "docs" / "tour.ipynb"


def test_the_tour_runs_and_shows_pictures():
    notebook = nbformat.read(TOUR, as_version=4)
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3").execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    kinds = [kind for o in outputs for kind in o.get("data", {})]
    assert kinds.count("image/svg+xml") >= 10 and "text/html" in kinds and "text/latex" in kinds
    # values show as values (typeset, pictures), never as the repr of a tuple of objects
    plain = [o["data"]["text/plain"] for o in outputs if set(o.get("data", {})) == {"text/plain"}]
    assert not [t for t in plain if "CanonicalGame(" in t or "<Outcome." in t]
    thermograph_cells = [c for c in notebook.cells if "thermograph(parse_value" in c.source]
    assert thermograph_cells and all(
        "image/svg+xml" in o.get("data", {}) for c in thermograph_cells for o in c.outputs
    )
    try:  # the board widget's cell shows the widget when the notebook extra is installed
        import anywidget  # noqa: F401
    except ImportError:
        return
    assert "application/vnd.jupyter.widget-view+json" in kinds
    assert any("Right (perfect player) played" in o.get("text", "") for o in outputs)
