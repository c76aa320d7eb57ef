"""Sweeps: a solver mapped over a family of positions, resumable, parallel and interruptible
(:mod:`~cgframework.sweep.runner`), on an executor (:mod:`~cgframework.sweep.executors`: this
process, a local process pool, or a Dask cluster). The ``cgf sweep`` command is in
:mod:`cgframework.cli.sweep`.

``from cgframework.sweep import sweep, Record, SweepError`` keeps working: this package hands
out the runner's names on first use.
"""

from cgframework._moved import names_of

__getattr__ = names_of(__name__, "cgframework.sweep.runner")
