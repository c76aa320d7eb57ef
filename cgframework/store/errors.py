"""The value store's names a caller needs before any store is opened: the trust levels and
:class:`StoreError`, importable without sqlite3 (``cgf solve`` without ``--store``)."""

TRUST_LEVELS = ("local", "verified", "imported", "any")
"""Which stored rows may answer: ``local`` only rows this installation computed;
``verified`` (the default) also rows computed by a cluster or another installation sharing
the file, rows older than provenance, and imports verified by recomputation or a trusted
signature; ``imported`` every row, unverified imports too (``any`` is its older spelling)."""

DEFAULT_TRUST = "verified"


def trust_level(name: str) -> str:
    """The trust level ``name`` spells (``any`` is ``imported``); :class:`StoreError` if none."""
    if name == "any":
        return "imported"
    if name not in TRUST_LEVELS:
        raise StoreError(f"unknown trust level {name!r} (local, verified or imported)")
    return name


class StoreError(Exception):
    """The store file cannot be used (not a value store, damaged, unreadable, disk full...);
    the message is one line naming the file and the cause."""
