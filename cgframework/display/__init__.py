"""How positions and values show themselves to a person: SVG pictures for a ruleset's ``draw``
(:mod:`~cgframework.display.pictures`, a leaf that imports nothing of the core, so the
protocol's default ``draw`` can use it), thermograph pictures, game trees, notebook reprs,
the Jupyter board widget and the game against the perfect player behind it
(:mod:`~cgframework.display.match`), and terminal play. Data objects (``Solution``,
``CanonicalGame``) never import this folder:
:func:`~cgframework.display.notebook.install_reprs` gives them their notebook methods when the
package is imported.
"""
