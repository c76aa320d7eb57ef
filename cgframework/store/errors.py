"""The value store's names a caller needs before any store is opened: the trust levels and
:class:`StoreError`, importable without sqlite3 (``cgf solve`` without ``--store``)."""

TRUST_LEVELS = ("any", "local")


class StoreError(Exception):
    """The store file cannot be used (not a value store, damaged, unreadable, disk full...);
    the message is one line naming the file and the cause."""
