"""docs/tour.ipynb runs top to bottom without error (nbclient, a real kernel), shows pictures,
and is saved with the outputs it makes now: the tour can never go stale. ``python
tests/test_tour.py`` runs it and saves it again after a change."""

import json
from pathlib import Path

import pytest

nbclient = pytest.importorskip("nbclient")
nbformat = pytest.importorskip("nbformat")
pytest.importorskip("ipykernel")

TOUR = Path(__file__).parent.parent / "docs" / "tour.ipynb"
WIDGET = "application/vnd.jupyter.widget-view+json"


def executed() -> "nbformat.NotebookNode":
    """The tour as saved, run afresh (no timings recorded: the saved file stays stable)."""
    notebook = nbformat.read(TOUR, as_version=4)
    client = nbclient.NotebookClient(
        notebook, timeout=120, kernel_name="python3", record_timing=False
    )
    client.execute()
    return notebook


def comparable(cell: "nbformat.NotebookNode") -> list[str]:
    """A code cell's outputs as text, without what differs from run to run (execution counts,
    a widget's model id and address, how printed text was cut into stream messages: a busy
    kernel may send one line in several pieces)."""
    kept: list[dict] = []
    for output in cell.outputs:
        if WIDGET in output.get("data", {}):
            continue
        data = {k: v for k, v in output.items() if k != "execution_count"}
        last = kept[-1] if kept else None
        if (
            data.get("output_type") == "stream"
            and last is not None
            and last.get("output_type") == "stream"
            and last.get("name") == data.get("name")
        ):
            last["text"] = last["text"] + data["text"]
            continue
        kept.append(data)
    return [json.dumps(data, sort_keys=True) for data in kept]


def test_the_tour_runs_and_shows_pictures():
    saved = nbformat.read(TOUR, as_version=4)
    notebook = executed()
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
        anywidget = None

    def outputs_of(nb: "nbformat.NotebookNode") -> list[list[str]]:
        cells = [c for c in nb.cells if c.cell_type == "code"]
        return [comparable(c) for c in cells if anywidget or "BoardWidget" not in c.source]

    # saved with its outputs (a reader on a code host sees them), and they are today's
    kept = outputs_of(saved)
    assert all(kept[1:]), "save the tour with its outputs: python tests/test_tour.py"
    assert outputs_of(notebook) == kept, "the saved tour is stale: python tests/test_tour.py"
    if anywidget is None:
        return
    assert WIDGET in kinds
    assert any("Right (perfect player) played" in o.get("text", "") for o in outputs)


if __name__ == "__main__":
    nbformat.write(executed(), TOUR)
    print(f"saved {TOUR} with its outputs")
