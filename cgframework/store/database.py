"""The value store: one sqlite file of solved positions, content-addressed.

A row's key is (ruleset name, ruleset rules version, canonical key of the position, first
player), the canonical key hashed from a stable text form, so isomorphic positions share a row
and results can be merged across machines. The file is in WAL mode: several processes may
read and write at once, and every write is one autocommitted statement or one transaction, so
a crash, a full disk or Ctrl-C loses at most what was being written and never corrupts the file.
Only sqlite opens the file: a descriptor of it opened and closed by anything else in the
process would drop the POSIX locks its connections hold (see :func:`check_store_file`), and a
new store is linked into place whole (:func:`new_store_with`), never deleted once it is there.

Every row keeps its provenance: ``origin`` (``computed`` here or by another installation,
``cluster`` for a Dask cluster's results, ``import`` of an export file, or ``unknown`` for rows
older than provenance), the installation that computed it, the solver, the cgframework version
and the time; an imported row also says whether and how it was verified (``verified``: NULL
until it is, then ``recomputed`` or ``signed ed25519:FINGERPRINT``). What may answer is the
trust level's choice (:data:`~cgframework.store.errors.TRUST_LEVELS`): by default every row
but an unverified import; ``local`` only rows this installation computed. A file that exists
but is not a value store (empty, not sqlite, another program's database, damaged) is refused
with :class:`StoreError`, never read as an empty store; a store that cannot be written
(read-only file, directory or filesystem) is opened for reading only.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import socket
import sqlite3
import stat
import tempfile
from collections.abc import Hashable, Iterable, Iterator
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from typing import IO, Any
from urllib.parse import quote

import attrs

from cgframework.game import (
    Convention,
    Player,
    Position,
    Ruleset,
    canonical_key,
    components,
    format_position,
)
from cgframework.io import converter, load_value, value_kind
from cgframework.runtime.cache import MISSING
from cgframework.runtime.version import VERSION
from cgframework.solution import Solution
from cgframework.store.errors import DEFAULT_TRUST, StoreError, trust_level
from cgframework.values.summary import ValueSummary, is_large

SCHEMA_VERSION = 3
"""``PRAGMA user_version`` of a current store: 1 (or 0) before provenance, 2 with it, 3 with
the verification of imported rows."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS solutions (
    ruleset  TEXT NOT NULL,
    version  TEXT NOT NULL,
    key      TEXT NOT NULL,
    position TEXT NOT NULL,
    solution TEXT NOT NULL,
    origin       TEXT NOT NULL DEFAULT 'unknown',
    installation TEXT,
    source       TEXT,
    solver       TEXT,
    cgf_version  TEXT,
    created      TEXT,
    verified     TEXT,
    PRIMARY KEY (ruleset, version, key)
);
CREATE TABLE IF NOT EXISTS memo (
    ruleset TEXT NOT NULL,
    version TEXT NOT NULL,
    key     TEXT NOT NULL,
    value   TEXT NOT NULL,
    installation TEXT,
    PRIMARY KEY (ruleset, version, key)
)
"""

MIGRATION_2 = (
    "ALTER TABLE solutions ADD COLUMN origin TEXT NOT NULL DEFAULT 'unknown'",
    "ALTER TABLE solutions ADD COLUMN installation TEXT",
    "ALTER TABLE solutions ADD COLUMN source TEXT",
    "ALTER TABLE solutions ADD COLUMN solver TEXT",
    "ALTER TABLE solutions ADD COLUMN cgf_version TEXT",
    "ALTER TABLE solutions ADD COLUMN created TEXT",
    "ALTER TABLE memo ADD COLUMN installation TEXT",
)
"""Schema 1 -> 2: provenance columns, with defaults (old rows: origin ``unknown``)."""

MIGRATION_3 = ("ALTER TABLE solutions ADD COLUMN verified TEXT",)
"""Schema 2 -> 3: how an imported row was verified; rows imported before are unverified
(only a sample of them was recomputed), so they answer only under ``--trust imported``."""

VERIFIED_BY_RECOMPUTATION = "recomputed"
SIGNED = "signed "
"""Prefix of the ``verified`` column of a row imported under a trusted signature."""


def installation_id() -> str:
    """A short id of this installation: the host and the directory cgframework runs from
    (``CGFRAMEWORK_INSTALLATION`` overrides it, e.g. for a cluster sharing one install)."""
    given = os.environ.get("CGFRAMEWORK_INSTALLATION")
    if given:
        return given
    here = Path(__file__).resolve().parent
    return _hash(f"{socket.gethostname()}\0{here}")[:16]


def cgframework_version() -> str:
    return VERSION


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


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


def position_key(
    ruleset: Ruleset, position: Position, first: Player, *, misere: bool = False
) -> str:
    """The content address of a position: a hash of its canonical key and who moves first.

    In misère play (``misere``, a normal-play ruleset played misère) the canonical key may
    not serve: it may be shared by positions of equal normal-play value only, which can differ
    in misère play. The address is then a hash of the multiset of the components' texts,
    marked misère, so that a misère answer never shares a row with a normal-play one."""
    player = "" if ruleset.impartial else first.value
    if misere:
        texts = sorted(format_position(ruleset, part) for part in components(ruleset, position))
        return _hash("misere|" + key_text(tuple(texts)) + "|" + player)
    return _hash(key_text(canonical_key(ruleset, position)) + "|" + player)


def memo_key(key: Hashable) -> str:
    """The address of a transposition-table entry in the ``memo`` table."""
    return _hash(key_text(key))


class StoreBacking:
    """Lets a transposition table read through to the store (entries computed by earlier
    runs or other machines) and write its new entries back in batches."""

    def __init__(self, store: ValueStore, ruleset: Ruleset, batch: int = 2000) -> None:
        self.store = store
        self.ruleset = ruleset
        self.batch = batch
        self._pending: list[tuple[str, str]] = []

    def get(self, key: Hashable) -> Any:
        text = self.store.memo_get(self.ruleset, memo_key(key))
        if text is None:
            return MISSING
        try:
            return decode_memo(text)
        except (ValueError, KeyError, TypeError):
            return MISSING  # a damaged row: searched again (`cgf store verify` reports it)

    def put(self, key: Hashable, value: Any) -> None:
        encoded = encode_memo(value)
        if encoded is None:
            return  # a value type the store cannot hold: kept in memory only
        self._pending.append((memo_key(key), encoded))
        if len(self._pending) >= self.batch:
            self.flush()

    def flush(self) -> None:
        if self._pending:
            pending, self._pending = self._pending, []
            self.store.memo_put_many(self.ruleset, pending)


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def encode_memo(value: Any) -> str | None:
    """The JSON text of a transposition-table value, or ``None`` for a type the store
    cannot hold."""
    if isinstance(value, bool) or isinstance(value, int):
        return json.dumps(value)
    try:
        kind = value_kind(value)
    except TypeError:
        return None
    if is_large(value):
        return None  # a text of megabytes or more: kept in memory only
    return json.dumps({"kind": kind.name, "value": kind.dump(value)})


def decode_memo(text: str) -> Any:
    data = load_json(text)
    if isinstance(data, dict):
        return load_value(data["kind"], data["value"])
    return data


MIN_STORE_BYTES = 512
"""The smallest sqlite file: one page of the smallest page size. sqlite reads a shorter file
(a 1-byte one too) as an empty database, and would write a new store over it."""


def check_store_file(path: Path) -> None:
    """Refuse a path that exists but cannot be a value store (a directory, an empty or too
    short file), in one line; a missing path is fine (a new store).

    The file is only looked at with ``stat``, never opened: closing any descriptor of a file
    drops every POSIX lock this process holds on it, the locks sqlite's connections to the
    same file rely on, so an ``open()`` of a live store lets another process checkpoint and
    delete the write-ahead log under them. Its header (an sqlite file, not truncated) is read
    by sqlite itself when the store is opened (see :meth:`ValueStore._error`)."""
    try:
        info = path.stat()
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StoreError(f"cannot read value store {str(path)!r}: {exc.strerror}") from None
    if not stat.S_ISREG(info.st_mode):
        raise StoreError(f"{str(path)!r} is not a file, so not a value store")
    if info.st_size == 0:
        raise StoreError(
            f"{str(path)!r} is empty (0 bytes), not a value store: "
            "remove it to start a new store there"
        )
    if info.st_size < MIN_STORE_BYTES:
        raise StoreError(f"{str(path)!r} is not a value store (not an sqlite file)")


MAX_JSON_DEPTH = 1000
"""Deeper JSON is refused before it is parsed (the parser recurses on the C stack)."""


def json_depth(text: str) -> int:
    """How deep ``[``/``{`` nest in a JSON text (outside strings); counted only when the
    text has enough brackets to be deep at all."""
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return 0
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def load_json(text: str) -> Any:
    """``json.loads`` of a stored row, refusing nesting deeper than :data:`MAX_JSON_DEPTH`."""
    if json_depth(text) > MAX_JSON_DEPTH:
        raise ValueError(f"nested more than {MAX_JSON_DEPTH} deep")
    return json.loads(text)


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text[:300] if text else type(exc).__name__


class ValueStore:
    """A sqlite file of Solutions. Use as a context manager, or call :meth:`close`.

    ``create``: make a new store where no file exists (else a missing file is an error).
    ``read_only``: never write (``store info``/``export``/``verify``); a store whose file,
    directory or filesystem is not writable is opened read-only anyway, and then
    :meth:`put` and :meth:`memo_put_many` do nothing (``skipped`` counts them).
    ``check``: run sqlite's ``quick_check`` on open, refusing a damaged file.
    ``trust``: ``verified`` (default) reads every row but imports not yet verified;
    ``local`` only rows this installation computed; ``imported`` (or ``any``) every row.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        create: bool = True,
        read_only: bool = False,
        check: bool = False,
        trust: str = DEFAULT_TRUST,
    ) -> None:
        self.trust = trust_level(trust)
        self.path = Path(path)
        self.installation = installation_id()
        self.hits = 0
        self.writes = 0
        self.skipped = 0
        check_store_file(self.path)
        exists = self.path.exists()
        if not exists and (read_only or not create):
            raise StoreError(f"no value store {str(self.path)!r}")
        if not exists and not self.path.parent.is_dir():
            raise StoreError(f"cannot create value store {str(self.path)!r}: no such directory")
        writable = (
            os.access(self.path if exists else self.path.parent, os.W_OK)
            and os.access(self.path.parent, os.W_OK)
            and not _on_read_only_filesystem(self.path.parent)
        )
        if not exists and not writable:
            raise StoreError(f"cannot create value store {str(self.path)!r}: not writable")
        self.writable = writable
        """Whether the file could be written (whatever ``read_only`` asks)."""
        self.read_only = read_only or not writable
        if not exists:
            self._create_file()
        self._db = self._connect(writable)
        try:
            self._prepare(check)
        except BaseException:
            self._db.close()
            raise

    def _create_file(self) -> None:
        """Make a new, empty store under a temporary name and link it into place, so another
        process never sees a half-made file (an empty file is refused as damaged); if one got
        there first, its store is used."""
        handle, temp = tempfile.mkstemp(
            dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".new"
        )
        os.close(handle)
        try:
            db = sqlite3.connect(temp, isolation_level=None)
            try:
                db.execute("PRAGMA journal_mode=WAL")
                for statement in SCHEMA.split(";"):
                    db.execute(statement)
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            finally:
                db.close()
            try:
                os.link(temp, self.path)
            except FileExistsError:
                pass
            except OSError:  # a filesystem without hard links
                if not self.path.exists():
                    os.replace(temp, self.path)
        except (OSError, sqlite3.Error) as exc:
            raise self._error("cannot create", exc) from None
        finally:
            _remove(temp)

    def _connect(self, writable: bool) -> sqlite3.Connection:
        # check_same_thread=False: searches run on run_deep's thread, one thread at a time.
        options: dict[str, Any] = {
            "timeout": 60,
            "isolation_level": None,
            "check_same_thread": False,
        }
        try:
            if writable:
                return sqlite3.connect(self.path, **options)
            uri = "file:" + quote(str(self.path.resolve()))
            try:
                db = sqlite3.connect(uri + "?mode=ro", uri=True, **options)
                db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
                return db
            except sqlite3.OperationalError:
                # A WAL store in a directory nobody may write: its shared-memory file cannot
                # be made, so read the file as it is (nobody can be writing to it either).
                return sqlite3.connect(uri + "?mode=ro&immutable=1", uri=True, **options)
        except sqlite3.Error as exc:
            raise self._error("cannot open", exc) from None

    def _prepare(self, check: bool) -> None:
        with self._guard("cannot open"):
            tables = {
                r[0] for r in self._db.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
            if self.read_only and not tables:
                raise StoreError(f"{str(self.path)!r} is an empty sqlite file, not a value store")
            if tables and "solutions" not in tables:
                raise StoreError(
                    f"{str(self.path)!r} is an sqlite file but not a value store "
                    f"(tables: {', '.join(sorted(tables))})"
                )
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"value store {str(self.path)!r} has schema {version}, written by a newer "
                    f"cgframework (this one reads up to schema {SCHEMA_VERSION})"
                )
            if check:
                self.quick_check()
            if self.read_only:
                self._db.execute("PRAGMA query_only=1")
            else:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
                if not tables or version < SCHEMA_VERSION:
                    self._create_or_migrate()
        self.columns = {r[1] for r in self._db.execute("PRAGMA table_info(solutions)")} | {
            "memo." + r[1] for r in self._db.execute("PRAGMA table_info(memo)")
        }
        self.provenance = "origin" in self.columns

    def _create_or_migrate(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            tables = {
                r[0] for r in self._db.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if not tables:
                for statement in SCHEMA.split(";"):
                    self._db.execute(statement)
            elif version < SCHEMA_VERSION:  # another process may have migrated meanwhile
                for statement in (MIGRATION_2 if version < 2 else ()) + MIGRATION_3:
                    self._db.execute(statement)
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            self._db.execute("COMMIT")
        except BaseException:
            self._rollback()
            raise

    def quick_check(self) -> None:
        """Refuse a damaged file (sqlite's ``quick_check``: every page and record readable)."""
        with self._guard("cannot read"):
            result = self._db.execute("PRAGMA quick_check(1)").fetchone()[0]
        if result != "ok":
            first = result.splitlines()[-1] if result else "unknown damage"
            raise StoreError(f"value store {str(self.path)!r} is damaged: {first}")

    def __enter__(self) -> ValueStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self._db.close()

    # --- errors -----------------------------------------------------------------------

    def _error(self, action: str, exc: BaseException) -> StoreError:
        cause = _one_line(exc)
        if action == "cannot open" and getattr(exc, "sqlite_errorname", "") == "SQLITE_NOTADB":
            # sqlite read the header (this process never opens a store file itself)
            return StoreError(
                f"{str(self.path)!r} is not a value store (not an sqlite file, or its header "
                "is damaged)"
            )
        if not isinstance(exc, sqlite3.Error | OSError):  # a row that does not decode
            cause = f"a stored row is damaged ({cause})"
        elif "malformed" in cause or "not a database" in cause:
            cause += " (the file is damaged)"
        if action.startswith("cannot write"):
            cause += "; nothing was written"
        return StoreError(f"{action} value store {str(self.path)!r}: {cause}")

    @contextlib.contextmanager
    def _guard(self, action: str) -> Iterator[None]:
        """sqlite errors and damaged rows become one-line :class:`StoreError`s."""
        try:
            yield
        except StoreError:
            raise
        except (sqlite3.Error, ValueError, KeyError, TypeError) as exc:
            raise self._error(action, exc) from None

    def _rollback(self) -> None:
        """Undo an open transaction. After a failed COMMIT (disk full) sqlite may have rolled
        back already: then there is nothing to undo, and the first error is the one to tell."""
        if self._db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")

    def _write_many(self, sql: str, rows: list[tuple[Any, ...]]) -> int:
        """All rows in one transaction, or none (the store is left as it was). Returns how
        many rows the statements changed: counted in the transaction, so rows other
        processes write meanwhile are not counted."""
        with self._guard("cannot write to"):
            self._db.execute("BEGIN IMMEDIATE")
            try:
                before = self._db.total_changes
                self._db.executemany(sql, rows)
                changed = self._db.total_changes - before
                self._db.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise
        return changed

    # --- solutions --------------------------------------------------------------------

    def _trusted(self, table: str = "") -> tuple[str, tuple[str, ...]]:
        """SQL condition and parameters for the rows the trust level lets us read. Memo rows
        are never imported: only ``local`` limits them (to this installation's)."""
        if self.trust == "imported":
            return "", ()
        if self.trust == "verified":
            if table == "memo" or not self.provenance:
                return "", ()  # a store older than provenance holds no marked import
            if "verified" not in self.columns:  # schema 2, read-only: imports unverified
                return " AND origin<>'import'", ()
            return " AND (origin<>'import' OR verified IS NOT NULL)", ()
        if not self.provenance:
            return " AND 0", ()
        if table == "memo":
            return " AND installation=?", (self.installation,)
        return " AND origin='computed' AND installation=?", (self.installation,)

    def get(
        self, ruleset: Ruleset, key: str, *, misere: bool = False
    ) -> tuple[str, Solution] | None:
        """(stored position text, Solution) for a content address, if stored (and trusted).
        A row whose solution is not for this ruleset, or of another convention than the
        ruleset's (misère with ``misere``), is ignored (`cgf store verify` finds it), so a
        mislabelled row never answers for another game."""
        condition, params = self._trusted()
        with self._guard("cannot read"):
            row = self._db.execute(
                "SELECT position, solution FROM solutions WHERE ruleset=? AND version=? "
                "AND key=?" + condition,
                (ruleset.name, ruleset.version, key, *params),
            ).fetchone()
            if row is None:
                return None
            solution = converter.structure(load_json(row[1]), Solution)
        convention = Convention.MISERE if misere else ruleset.convention
        if solution.ruleset != ruleset.name or solution.convention is not convention:
            return None
        if isinstance(solution.value, ValueSummary):
            return None  # a value too large to store: only its summary is kept, so solved again
        self.hits += 1
        return row[0], solution

    def put(
        self,
        ruleset: Ruleset,
        key: str,
        solution: Solution,
        *,
        origin: str = "computed",
        source: str | None = None,
    ) -> None:
        """Store a Solution (one atomic statement; an existing row is kept, but for an
        unverified import, which the computed answer replaces). ``origin`` says
        where it was computed: ``computed`` (here) or ``cluster`` (by a Dask cluster's
        workers, ``source`` naming the scheduler)."""
        if origin not in ("computed", "cluster"):
            raise ValueError(f"origin must be 'computed' or 'cluster', not {origin!r}")
        if self.read_only:
            self.skipped += 1
            return
        data = json.dumps(converter.unstructure(solution))
        row = (ruleset.name, ruleset.version, key, solution.position, data)
        with self._guard("cannot write to"):
            self._db.execute(
                "INSERT INTO solutions (ruleset, version, key, position, solution, "
                "origin, installation, source, solver, cgf_version, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (ruleset, version, key) DO UPDATE SET position=excluded.position, "
                "solution=excluded.solution, origin=excluded.origin, "
                "installation=excluded.installation, source=excluded.source, "
                "solver=excluded.solver, cgf_version=excluded.cgf_version, "
                "created=excluded.created, verified=NULL "
                "WHERE solutions.origin='import' AND solutions.verified IS NULL",
                (
                    *row,
                    origin,
                    self.installation,
                    source,
                    solution.method,
                    cgframework_version(),
                    now(),
                ),
            )
        self.writes += 1

    def put_imported(self, rows: Iterable[ImportedRow]) -> int:
        """Add checked records of an export file in one transaction (all or none); rows the
        store already has are kept. Returns how many were added."""
        if self.read_only:
            raise StoreError(f"value store {str(self.path)!r} is read-only: cannot import into it")
        return self._write_many(
            "INSERT OR IGNORE INTO solutions (ruleset, version, key, position, solution, origin, "
            "installation, source, solver, cgf_version, created, verified) "
            "VALUES (?, ?, ?, ?, ?, 'import', ?, ?, ?, ?, ?, ?)",
            [attrs.astuple(row) for row in rows],
        )

    def addresses(self) -> Iterator[tuple[str, str, str]]:
        """(ruleset, rules version, key) of every row, whatever the trust level."""
        with self._guard("cannot read"):
            yield from self._db.execute("SELECT ruleset, version, key FROM solutions")

    def unverified(self) -> set[tuple[str, str, str]]:
        """(ruleset, rules version, key) of every imported row not yet verified."""
        if not self.provenance:
            return set()
        state = "verified IS NULL" if "verified" in self.columns else "1"
        with self._guard("cannot read"):
            return set(
                self._db.execute(
                    f"SELECT ruleset, version, key FROM solutions WHERE origin='import' AND {state}"
                )
            )

    def mark_verified(self, keys: Iterable[tuple[str, str, str]], how: str) -> int:
        """Mark imported rows (ruleset, rules version, key) verified, ``how`` saying by what
        (e.g. ``recomputed``), in one transaction. Returns how many were marked."""
        if self.read_only:
            raise StoreError(f"value store {str(self.path)!r} is read-only: cannot mark rows")
        return self._write_many(
            "UPDATE solutions SET verified=? WHERE ruleset=? AND version=? AND key=? "
            "AND origin='import' AND verified IS NULL",
            [(how, *key) for key in keys],
        )

    def __len__(self) -> int:
        with self._guard("cannot read"):
            return self._db.execute("SELECT COUNT(*) FROM solutions").fetchone()[0]

    # --- transposition-table rows -----------------------------------------------------

    def memo_get(self, ruleset: Ruleset, key: str) -> str | None:
        condition, params = self._trusted("memo")
        with self._guard("cannot read"):
            row = self._db.execute(
                "SELECT value FROM memo WHERE ruleset=? AND version=? AND key=?" + condition,
                (ruleset.name, ruleset.version, key, *params),
            ).fetchone()
        return None if row is None else row[0]

    def memo_put_many(self, ruleset: Ruleset, rows: list[tuple[str, str]]) -> None:
        """Store transposition-table entries in one transaction."""
        if self.read_only:
            self.skipped += len(rows)
            return
        self._write_many(
            "INSERT OR IGNORE INTO memo VALUES (?, ?, ?, ?, ?)",
            [(ruleset.name, ruleset.version, k, v, self.installation) for k, v in rows],
        )

    def memo_size(self) -> int:
        with self._guard("cannot read"):
            return self._db.execute("SELECT COUNT(*) FROM memo").fetchone()[0]

    def memo_rows(self, ruleset: str, version: str) -> Iterator[tuple[str, str, str | None]]:
        """(key, value text, installation) of every memo row of a ruleset's rules version."""
        column = "installation" if "memo.installation" in self.columns else "NULL"
        with self._guard("cannot read"):
            yield from self._db.execute(
                f"SELECT key, value, {column} FROM memo WHERE ruleset=? AND version=?",
                (ruleset, version),
            )

    # --- upkeep -----------------------------------------------------------------------

    def info(self) -> dict[str, Any]:
        with self._guard("cannot read"):
            rows = self._db.execute(
                "SELECT ruleset, version, COUNT(*) FROM solutions GROUP BY ruleset, version "
                "ORDER BY ruleset, version"
            ).fetchall()
            origins = []
            if self.provenance:
                state = "verified" if "verified" in self.columns else "NULL"
                found = self._db.execute(
                    "SELECT origin, CASE origin WHEN 'computed' THEN installation ELSE source END, "
                    f"{state}, COUNT(*) FROM solutions GROUP BY 1, 2, 3 ORDER BY 1, 2, 3"
                ).fetchall()
            else:
                found = [("unknown", None, None, sum(r[2] for r in rows))] if rows else []
            provenance: dict[str, int] = {}
            for origin, where, verified, count in found:
                entry = {"origin": _provenance(origin, where, verified, self.installation)}
                entry |= {"by": where, "entries": count}
                if verified and verified.startswith(SIGNED):
                    entry["key"] = verified.removeprefix(SIGNED)
                origins.append(entry)
                kind = entry["origin"]
                kind = "computed by another installation" if kind == "computed" else kind
                provenance[kind] = provenance.get(kind, 0) + count
            schema = self._db.execute("PRAGMA user_version").fetchone()[0]
        return {
            "path": str(self.path),
            "entries": sum(r[2] for r in rows),
            "memo": self.memo_size(),
            "schema": max(schema, 1),
            "installation": self.installation,
            "read_only": not self.writable,
            "rulesets": [{"ruleset": r[0], "version": r[1], "entries": r[2]} for r in rows],
            "origins": origins,
            "provenance": provenance,
            "unverified": provenance.get("unverified import", 0),
        }

    def records(self) -> Iterator[dict[str, Any]]:
        """Every entry as an export record (see :meth:`export`), in key order."""
        names = ("origin", "installation", "source", "solver", "cgf_version", "created")
        extra = ", ".join(names) if self.provenance else ", ".join("NULL" for _ in names)
        with self._guard("cannot read"):
            for row in self._db.execute(
                f"SELECT ruleset, version, key, position, solution, {extra} FROM solutions "
                "ORDER BY ruleset, version, key"
            ):
                ruleset, version, key, position, solution = row[:5]
                origin, installation, source, solver, cgf_version, created = row[5:]
                yield {
                    "ruleset": ruleset,
                    "version": version,
                    "key": key,
                    "position": position,
                    "solution": load_json(solution),
                    "provenance": {
                        "origin": origin or "unknown",
                        "installation": installation,
                        "source": source,
                        "solver": solver,
                        "cgframework": cgf_version,
                        "created": created,
                    },
                }

    def export(self, out: IO[str]) -> int:
        """Write every entry as one JSON line; returns the count. A damaged row ends the
        export with :class:`StoreError` (write to a temporary file: see :func:`export_file`)."""
        count = 0
        for record in self.records():
            out.write(json.dumps(record) + "\n")
            count += 1
        return count

    def export_file(self, target: str | Path) -> int:
        """Export to ``target`` by the rules of :mod:`cgframework.runtime.outputs`: a regular
        file through a temporary file renamed over it only when complete (a failure never
        leaves partial output), a device or FIFO in place; a failed write is a
        :class:`StoreError` naming the cause, never a count."""
        from cgframework.runtime.outputs import OutputError, open_output

        target = str(target)
        parent = Path(target).parent
        if not parent.is_dir():
            raise StoreError(f"cannot write {target!r}: no directory {str(parent)!r}")
        for end in ("", "-wal", "-shm", "-journal"):
            with contextlib.suppress(OSError):
                if os.path.samefile(target, f"{self.path}{end}"):
                    raise StoreError(f"cannot write {target!r}: it is the store's own file")
        try:
            with open_output(target) as handle:
                count = self.export(handle)
        except OutputError as exc:
            raise StoreError(str(exc)) from None
        return count


def new_store_with(path: str | Path, rows: list[ImportedRow]) -> int | None:
    """Make a new store at ``path`` holding ``rows``: built under a temporary name beside it
    and linked into place only when complete, so a failure leaves no file and no other
    process ever opens a store that is then deleted under it. Returns how many rows it holds,
    or ``None`` if a store appeared at ``path`` meanwhile (nothing linked: the caller imports
    into that one)."""
    path = Path(path)
    try:
        folder = tempfile.mkdtemp(dir=path.parent, prefix=f".{path.name}.", suffix=".new")
    except OSError as exc:
        raise StoreError(f"cannot create value store {str(path)!r}: {exc.strerror}") from None
    try:
        temp = Path(folder) / path.name
        with ValueStore(temp) as store:
            added = store.put_imported(rows)
        # closed: the last connection folded the write-ahead log into the file
        try:
            os.link(temp, path)
        except FileExistsError:
            return None
        except OSError:  # a filesystem without hard links
            if path.exists():
                return None
            os.replace(temp, path)
        return added
    except OSError as exc:
        raise StoreError(f"cannot create value store {str(path)!r}: {exc.strerror}") from None
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _provenance(origin: str, where: str | None, verified: str | None, here: str) -> str:
    """The provenance of a row in words: ``computed here``, ``computed`` (by another
    installation), ``cluster``, ``verified import``, ``signed import``, ``unverified import``
    or ``unknown``."""
    if origin == "computed":
        return "computed here" if where == here else "computed"
    if origin == "import":
        if not verified:
            return "unverified import"
        return "signed import" if verified.startswith(SIGNED) else "verified import"
    return origin


@attrs.frozen
class ImportedRow:
    """One checked record of an export file, as :meth:`ValueStore.put_imported` stores it."""

    ruleset: str
    version: str
    key: str
    position: str
    solution: str
    installation: str | None
    source: str
    solver: str | None
    cgf_version: str | None
    created: str | None
    verified: str | None = None
    """NULL: not verified (not answered from by default); else how it was verified."""


def _remove(name: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(name)


def _on_read_only_filesystem(directory: Path) -> bool:
    try:
        return bool(os.statvfs(directory).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):
        return False
