"""The value store: one sqlite file of solved positions, content-addressed
(:mod:`~cgframework.store.database`), the names a caller needs before any store is opened
(:mod:`~cgframework.store.errors`: trust levels, ``StoreError``; no sqlite3), and the checks
that keep it honest (:mod:`~cgframework.store.check`: records checked on import, stored
values verified by recomputing them). The store's commands are in :mod:`cgframework.cli.store`.

``from cgframework.store import ValueStore`` keeps working: this package hands out the
database module's names on first use, so importing it costs no sqlite3.
"""

from cgframework._moved import names_of

__getattr__ = names_of(__name__, "cgframework.store.database")
