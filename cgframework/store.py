"""The value store: one sqlite file of solved positions, content-addressed.

A row's key is (ruleset name, ruleset rules version, canonical key of the position, first
player), the canonical key hashed from a stable text form, so isomorphic positions share a row
and results can be merged across machines. The file is in WAL mode: several processes may
read and write at once, and every write is one autocommitted statement, so a crash or Ctrl-C
loses at most the entry being written and never corrupts the file.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Hashable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import IO, Any

import attrs

from cgframework.cache import MISSING
from cgframework.game import Player, Position, Ruleset, canonical_key
from cgframework.io import converter, load_value, value_kind
from cgframework.solution import Solution

SCHEMA = """
CREATE TABLE IF NOT EXISTS solutions (
    ruleset  TEXT NOT NULL,
    version  TEXT NOT NULL,
    key      TEXT NOT NULL,
    position TEXT NOT NULL,
    solution TEXT NOT NULL,
    PRIMARY KEY (ruleset, version, key)
);
CREATE TABLE IF NOT EXISTS memo (
    ruleset TEXT NOT NULL,
    version TEXT NOT NULL,
    key     TEXT NOT NULL,
    value   TEXT NOT NULL,
    PRIMARY KEY (ruleset, version, key)
)
"""


class StoreError(Exception):
    """The store file cannot be opened or read (not a cgframework store, unreadable...)."""


def key_text(key: Hashable) -> str:
    """A text form of a canonical key that is the same in every process (set order and
    string hashing vary between processes; this does not)."""
    if isinstance(key, tuple | list):
        return "(" + ",".join(key_text(k) for k in key) + ")"
    if isinstance(key, frozenset | set):
        return "{" + ",".join(sorted(key_text(k) for k in key)) + "}"
    if attrs.has(type(key)):
        fields = ",".join(key_text(getattr(key, f.name)) for f in attrs.fields(type(key)))
        return f"{type(key).__name__}({fields})"
    if isinstance(key, str | int | Fraction | bool) or key is None:
        return repr(key)
    return f"{type(key).__name__}:{key}"


def position_key(ruleset: Ruleset, position: Position, first: Player) -> str:
    """The content address of a position: a hash of its canonical key and who moves first."""
    player = "" if ruleset.impartial else first.value
    return _hash(key_text(canonical_key(ruleset, position)) + "|" + player)


class StoreBacking:
    """Lets a transposition table read through to the store (entries computed by earlier
    runs or other machines) and write its new entries back in batches."""

    def __init__(self, store: ValueStore, ruleset: Ruleset, batch: int = 2000) -> None:
        self.store = store
        self.ruleset = ruleset
        self.batch = batch
        self._pending: list[tuple[str, str]] = []

    def get(self, key: Hashable) -> Any:
        text = self.store.memo_get(self.ruleset, _hash(key_text(key)))
        return MISSING if text is None else _decode(json.loads(text))

    def put(self, key: Hashable, value: Any) -> None:
        encoded = _encode(value)
        if encoded is None:
            return  # a value type the store cannot hold: kept in memory only
        self._pending.append((_hash(key_text(key)), json.dumps(encoded)))
        if len(self._pending) >= self.batch:
            self.flush()

    def flush(self) -> None:
        if self._pending:
            self.store.memo_put_many(self.ruleset, self._pending)
            self._pending = []


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _encode(value: Any) -> Any:
    if isinstance(value, bool) or isinstance(value, int):
        return value
    try:
        kind = value_kind(value)
    except TypeError:
        return None
    return {"kind": kind.name, "value": kind.dump(value)}


def _decode(data: Any) -> Any:
    if isinstance(data, dict):
        return load_value(data["kind"], data["value"])
    return data


class ValueStore:
    """A sqlite file of Solutions. Use as a context manager, or call :meth:`close`."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            # check_same_thread=False: searches run on run_deep's thread, one thread at a time.
            self._db = sqlite3.connect(
                self.path, timeout=60, isolation_level=None, check_same_thread=False
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot use {str(self.path)!r} as a value store: {exc}") from None
        self.hits = 0
        self.writes = 0

    def __enter__(self) -> ValueStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    def get(self, ruleset: Ruleset, key: str) -> tuple[str, Solution] | None:
        """(stored position text, Solution) for a content address, if stored."""
        row = self._db.execute(
            "SELECT position, solution FROM solutions WHERE ruleset=? AND version=? AND key=?",
            (ruleset.name, ruleset.version, key),
        ).fetchone()
        if row is None:
            return None
        self.hits += 1
        return row[0], converter.structure(json.loads(row[1]), Solution)

    def put(self, ruleset: Ruleset, key: str, solution: Solution) -> None:
        """Store a Solution (one atomic statement; an existing row is kept)."""
        self._db.execute(
            "INSERT OR IGNORE INTO solutions VALUES (?, ?, ?, ?, ?)",
            (
                ruleset.name,
                ruleset.version,
                key,
                solution.position,
                json.dumps(converter.unstructure(solution)),
            ),
        )
        self.writes += 1

    def __len__(self) -> int:
        return self._db.execute("SELECT COUNT(*) FROM solutions").fetchone()[0]

    def memo_get(self, ruleset: Ruleset, key: str) -> str | None:
        row = self._db.execute(
            "SELECT value FROM memo WHERE ruleset=? AND version=? AND key=?",
            (ruleset.name, ruleset.version, key),
        ).fetchone()
        return None if row is None else row[0]

    def memo_put_many(self, ruleset: Ruleset, rows: list[tuple[str, str]]) -> None:
        """Store transposition-table entries in one transaction."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            self._db.executemany(
                "INSERT OR IGNORE INTO memo VALUES (?, ?, ?, ?)",
                [(ruleset.name, ruleset.version, k, v) for k, v in rows],
            )
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise

    def memo_size(self) -> int:
        return self._db.execute("SELECT COUNT(*) FROM memo").fetchone()[0]

    def info(self) -> dict[str, Any]:
        rows = self._db.execute(
            "SELECT ruleset, version, COUNT(*) FROM solutions GROUP BY ruleset, version "
            "ORDER BY ruleset, version"
        ).fetchall()
        return {
            "path": str(self.path),
            "entries": sum(r[2] for r in rows),
            "rulesets": [{"ruleset": r[0], "version": r[1], "entries": r[2]} for r in rows],
        }

    def export(self, out: IO[str]) -> int:
        """Write every entry as one JSON line; returns the count."""
        count = 0
        for ruleset, version, key, position, solution in self._rows():
            record = {
                "ruleset": ruleset,
                "version": version,
                "key": key,
                "position": position,
                "solution": json.loads(solution),
            }
            out.write(json.dumps(record) + "\n")
            count += 1
        return count

    def _rows(self) -> Iterator[tuple[str, str, str, str, str]]:
        yield from self._db.execute(
            "SELECT ruleset, version, key, position, solution FROM solutions "
            "ORDER BY ruleset, version, key"
        )

    def import_lines(self, lines: IO[str]) -> tuple[int, int]:
        """Merge JSON lines written by :meth:`export`; returns (read, newly added). Every
        line is checked before anything is written."""
        rows = []
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                converter.structure(record["solution"], Solution)
                rows.append(
                    (
                        str(record["ruleset"]),
                        str(record["version"]),
                        str(record["key"]),
                        str(record["position"]),
                        json.dumps(record["solution"]),
                    )
                )
            except (ValueError, KeyError, TypeError) as exc:
                raise StoreError(f"line {number} is not a store record: {exc}") from None
        before = len(self)
        self._db.execute("BEGIN IMMEDIATE")
        try:
            self._db.executemany("INSERT OR IGNORE INTO solutions VALUES (?, ?, ?, ?, ?)", rows)
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        return len(rows), len(self) - before
