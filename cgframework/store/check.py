"""Answers never taken on trust: records checked on the way into the value store, and stored
values verified by recomputing them.

An export record (one JSON line of ``cgf store export``) is accepted only if its fields have
their types, its solution is for the record's own ruleset and position, its value parses as
a value of the ruleset's kind, and its key is the one this installation computes from the
ruleset, rules version, position and first player (:func:`check_record`). Values are then
recomputed by the ruleset's own solver, with fresh transposition tables and never the
store's ``memo`` rows (so poisoned memo rows cannot vouch for poisoned records), and compared
as values, not strings (:class:`Recomputer`). The same recomputation checks a store's memo
rows: every entry the verifying search computes is compared with the store's row of the same
address (:func:`verify_store`).

An import recomputes every record while that fits the time a user expects: records are
recomputed in file order until :data:`IMPORT_CPU_SECONDS` of CPU time are spent, and the
records not reached are stored marked unverified, never answered from (under the default
trust) until ``cgf store verify --all`` recomputes them. Which records answer never depends
on a random sample.
"""

from __future__ import annotations

import functools
import json
import random
import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import attrs

from cgframework.game import (
    Convention,
    Outcome,
    Player,
    Position,
    Ruleset,
    format_position,
    parse_position,
)
from cgframework.io import converter, load_value
from cgframework.plugins import Registry, get_registry
from cgframework.runtime.budget import SearchStopped
from cgframework.runtime.cache import TranspositionTable
from cgframework.solution import Solution
from cgframework.solvers.dispatch import run_deep, solve
from cgframework.store.database import (
    MAX_JSON_DEPTH,
    VERIFIED_BY_RECOMPUTATION,
    ImportedRow,
    ValueStore,
    decode_memo,
    json_depth,
    memo_key,
    position_key,
)
from cgframework.values import CanonicalGame, nimber
from cgframework.values.summary import ValueSummary, summarise

IMPORT_CPU_SECONDS = 60.0
"""CPU seconds ``cgf store import`` spends recomputing records (``--cpu-seconds``): records
are recomputed in file order until this much CPU time is used; the rest are stored
unverified. ``--verify all`` recomputes every record whatever it takes."""

DEFAULT_VERIFY = 16
"""Records ``cgf store verify`` recomputes at random unless told otherwise (``--sample``);
unverified imports are counted, and recomputed by ``--all``."""

VALUE_KINDS: dict[Convention, tuple[str, ...]] = {
    Convention.NORMAL: ("canonical",),
    Convention.MISERE: ("text",),
    Convention.SCORING: ("number",),
    Convention.CHEATING_ROBOT: ("number",),
}
"""The value kinds a ruleset of each convention stores; a ruleset whose values are of
another algebra says so with a ``value_kinds`` attribute (e.g. guaranteed scoring games)."""

RECORD_FIELDS = {"ruleset", "version", "key", "position", "solution", "provenance"}
PROVENANCE_FIELDS = {"origin", "installation", "source", "solver", "cgframework", "created"}
KEY_PATTERN = re.compile(r"[0-9a-f]{64}")
LOOPY_GRUNDY = re.compile(r"inf\{(?:[0-9]+(?:,[0-9]+)*)?\}")
STATS_FIELDS = ("nodes", "cache_hits", "cache_misses")


class RecordError(ValueError):
    """A record that may not enter the store; the message says why, in one line."""


class Uncheckable(RecordError):
    """A record of a ruleset or rules version this installation does not have."""


@attrs.frozen
class CheckedRecord:
    """A record that passed :func:`check_record`: its ruleset, parsed position and Solution."""

    ruleset: Ruleset
    key: str
    position: Position
    text: str
    solution: Solution
    provenance: dict[str, Any]

    def describe(self) -> str:
        first = "" if self.ruleset.impartial else f" ({self.solution.first.value} first)"
        return f"{self.ruleset.name} {self.text}{first}"


def value_kinds(ruleset: Ruleset) -> tuple[str, ...]:
    """The kinds of value the ruleset's solutions have (see :data:`VALUE_KINDS`)."""
    declared = getattr(ruleset, "value_kinds", None)
    if declared:
        return tuple(declared)
    if getattr(ruleset, "loopy", False):  # a nimber, inf{K} as text, or onside & offside
        return ("canonical", "text", "loopy")
    return VALUE_KINDS.get(ruleset.convention, ())


def _need(data: dict[str, Any], field: str, types: type | tuple[type, ...], what: str) -> Any:
    if field not in data:
        raise RecordError(f"{what} has no field {field!r}")
    value = data[field]
    if not isinstance(value, types) or isinstance(value, bool) and bool not in _tuple(types):
        names = " or ".join(t.__name__ for t in _tuple(types))
        raise RecordError(f"{what} field {field!r} must be {names}, not {_json_type(value)}")
    return value


def _tuple(types: type | tuple[type, ...]) -> tuple[type, ...]:
    return types if isinstance(types, tuple) else (types,)


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "a number", float: "a number", str: "a string"}.get(
        type(value), "a list" if isinstance(value, list) else "an object"
    )


def _choice(data: dict[str, Any], field: str, choices: Iterable[str], what: str) -> str:
    value = _need(data, field, str, what)
    allowed = list(choices)
    if value not in allowed:
        raise RecordError(f"{what} field {field!r} is {value!r}, not one of {', '.join(allowed)}")
    return value


def check_solution_fields(raw: Any) -> None:
    """The solution object's fields have their types (before anything is built from it)."""
    what = "the solution"
    if not isinstance(raw, dict):
        raise RecordError(f"the solution must be an object, not {_json_type(raw)}")
    for field in ("ruleset", "position", "method"):
        _need(raw, field, str, what)
    _choice(raw, "convention", [c.value for c in Convention], what)
    if raw.get("outcome") is not None:
        _choice(raw, "outcome", [o.value for o in Outcome], what)
    if "first" in raw:
        _choice(raw, "first", [p.value for p in Player], what)
    moves = raw.get("best_moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordError(f"{what} field 'best_moves' must be a list of strings")
    if isinstance(raw.get("grundy"), str):  # a loopy game's generalized value: inf{K}
        if not LOOPY_GRUNDY.fullmatch(raw["grundy"]):
            raise RecordError(f"{what} field 'grundy' must be int or inf{{...}}")
    elif raw.get("grundy") is not None:
        grundy = _need(raw, "grundy", int, what)
        if grundy < 0:
            raise RecordError(f"{what} field 'grundy' must be at least 0, not {grundy}")
    stats = raw.get("stats", {})
    if not isinstance(stats, dict):
        raise RecordError(f"{what} field 'stats' must be an object, not {_json_type(stats)}")
    for field in STATS_FIELDS:
        if field in stats:
            _need(stats, field, int, "the solution's stats")
    if "seconds" in stats:
        _need(stats, "seconds", (int, float), "the solution's stats")
    kind = raw.get("value_kind")
    if kind is None:
        if raw.get("value") is not None:
            raise RecordError(f"{what} has a value but no 'value_kind'")
    elif not isinstance(kind, str):
        raise RecordError(f"{what} field 'value_kind' must be a string, not {_json_type(kind)}")


def check_value(ruleset: Ruleset, raw: dict[str, Any]) -> Any:
    """The value, if it is of the ruleset's kind (a misère answer's: an outcome's text) and
    parses as one."""
    kind = raw.get("value_kind")
    if kind is None:
        return None
    misere = raw.get("convention") == Convention.MISERE.value
    kinds = VALUE_KINDS[Convention.MISERE] if misere else value_kinds(ruleset)
    if "canonical" in kinds:
        kinds = (*kinds, "summary")  # a canonical value too large to store whole
    if kinds and kind not in kinds:
        raise RecordError(
            f"a {ruleset.name} value is of kind {' or '.join(kinds)}, this one is {kind!r}"
        )
    value = raw.get("value")
    try:
        if isinstance(value, str | int):
            return _load_cached(kind, value)
        return load_value(kind, value)
    except Exception as exc:  # a plugin's parser may raise anything on bad text
        text = json.dumps(value)
        short = text if len(text) <= 60 else text[:57] + "..."
        raise RecordError(f"the value {short} is not a {kind} value: {exc}") from None


@functools.lru_cache(maxsize=1 << 14)
def _load_cached(kind: str, raw: str | int) -> Any:
    """Values are immutable (interned): a store holds the same few values many times."""
    return load_value(kind, raw)


def check_consistency(ruleset: Ruleset, solution: Solution) -> None:
    """Fields that follow from the value agree with it (outcome, Grundy value)."""
    value = solution.value
    if solution.grundy is not None:
        if not ruleset.impartial:
            raise RecordError(f"a Grundy value for the partizan ruleset {ruleset.name!r}")
        finite = isinstance(solution.grundy, int)
        if not finite and not getattr(ruleset, "loopy", False):
            raise RecordError(f"a Grundy value {solution.grundy} for a ruleset that is not loopy")
        if finite and isinstance(value, CanonicalGame) and value is not nimber(solution.grundy):
            raise RecordError(f"the value {value} disagrees with the Grundy value")
    if isinstance(value, CanonicalGame) and solution.outcome is not None:
        if value.outcome() is not solution.outcome:
            raise RecordError(
                f"the outcome {solution.outcome.value} disagrees with the value {value} "
                f"(outcome {value.outcome().value})"
            )


def check_record(data: Any, registry: Registry | None = None) -> CheckedRecord:
    """Every check a record passes before it may enter a store (see the module docstring);
    raises :class:`RecordError` naming the first that fails."""
    registry = registry or get_registry()
    if not isinstance(data, dict):
        raise RecordError(f"a record must be a JSON object, not {_json_type(data)}")
    unknown = sorted(set(data) - RECORD_FIELDS)
    if unknown:
        raise RecordError(f"unknown field {unknown[0]!r}")
    name = _need(data, "ruleset", str, "the record")
    version = _need(data, "version", str, "the record")
    key = _need(data, "key", str, "the record")
    text = _need(data, "position", str, "the record")
    raw = data.get("solution")
    provenance = data.get("provenance") or {}
    if not isinstance(provenance, dict):
        raise RecordError("the record field 'provenance' must be an object")
    for field in sorted(set(provenance) - PROVENANCE_FIELDS):
        raise RecordError(f"unknown provenance field {field!r}")
    for field in PROVENANCE_FIELDS & set(provenance):
        if provenance[field] is not None:
            _need(provenance, field, str, "the provenance")
    if not KEY_PATTERN.fullmatch(key):
        raise RecordError(f"the key {key[:70]!r} is not a content address (64 hex digits)")
    try:
        ruleset = registry.ruleset(name)
    except KeyError:
        raise Uncheckable(
            f"ruleset {name!r} is not installed here (its key cannot be checked)"
        ) from None
    if ruleset.name != name:
        raise RecordError(f"ruleset {name!r} is an alias: records use {ruleset.name!r}")
    if version != ruleset.version:
        raise Uncheckable(
            f"rules version {version!r} of {name}: this installation has version "
            f"{ruleset.version!r} (its key cannot be checked)"
        )
    check_solution_fields(raw)
    if raw["ruleset"] != name:
        raise RecordError(f"a record for ruleset {name!r} holds a solution for {raw['ruleset']!r}")
    misere = _misere_of_normal_play(ruleset, raw["convention"])
    if raw["convention"] != ruleset.convention.value and not misere:
        raise RecordError(
            f"the solution's convention {raw['convention']!r} is not {name}'s "
            f"({ruleset.convention.value})"
        )
    if raw["position"] != text:
        raise RecordError(
            f"a record for position {_short(text)} holds a solution for {_short(raw['position'])}"
        )
    value = check_value(ruleset, raw)
    try:
        solution = converter.structure({**raw, "value_kind": None, "value": None}, Solution)
    except (ValueError, KeyError, TypeError) as exc:
        raise RecordError(f"the solution cannot be read: {exc}") from None
    extra = {k: v for k, v in solution.extra.items() if k != "from_store"}
    solution = attrs.evolve(solution, value=value, extra=extra)
    check_consistency(ruleset, solution)
    try:
        position = parse_position(ruleset, text)
        formatted = format_position(ruleset, position)
    except Exception as exc:  # a plugin's parser may raise anything on bad text
        raise RecordError(f"invalid {name} position {_short(text)}: {exc}") from None
    if formatted != text:
        raise RecordError(
            f"the position {_short(text)} is not written as {name} writes it ({_short(formatted)})"
        )
    expected = position_key(ruleset, position, solution.first, misere=misere)
    if key != expected:
        raise RecordError(
            f"the key does not match {name} position {_short(text)}"
            f"{'' if ruleset.impartial else f' ({solution.first.value} first)'}"
        )
    return CheckedRecord(ruleset, key, position, text, solution, provenance)


def _misere_of_normal_play(ruleset: Ruleset, convention: str) -> bool:
    """A misère answer of a normal-play ruleset (``cgf sweep --misere``): keyed apart."""
    return ruleset.convention is Convention.NORMAL and convention == Convention.MISERE.value


def _short(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


class Recomputer:
    """Recomputes records with each ruleset's own solver (``method="auto"``), on fresh
    transposition tables shared by the records of one ruleset and never backed by a store."""

    def __init__(self, registry: Registry | None = None) -> None:
        self.registry = registry or get_registry()
        self.tables: dict[str, TranspositionTable] = {}

    def disagreement(self, record: CheckedRecord, timeout: float | None = None) -> str | None:
        """``None`` if the recomputation agrees with the record, else what differs. A
        ``timeout`` (seconds) that runs out raises
        :class:`~cgframework.runtime.budget.SearchStopped`."""
        stored = record.solution
        misere = stored.convention is not record.ruleset.convention  # (misère play: no table)
        table = (
            None if misere else self.tables.setdefault(record.ruleset.name, TranspositionTable())
        )
        try:
            fresh = solve(
                record.ruleset,
                record.position,
                first=stored.first,
                table=table,
                registry=self.registry,
                timeout=timeout,
                misere=misere,
            )
        except SearchStopped:
            raise
        except Exception as exc:  # a solver that now refuses this position
            return f"cannot be recomputed: {exc}"
        return compare_solutions(stored, fresh)


def compare_solutions(
    stored: Solution, fresh: Solution, names: tuple[str, str] = ("the record", "recomputed")
) -> str | None:
    """What a stored Solution gets wrong against a recomputed one (values compared as values:
    interned games by identity, numbers exactly), or ``None``. ``names`` name the two."""
    ours, theirs = names
    if not _same_value(stored.value, fresh.value):
        return f"{ours} says {_text(stored.value)}, {theirs} {_text(fresh.value)}"
    if stored.outcome != fresh.outcome:
        return f"{ours} says outcome {_text(stored.outcome)}, {theirs} {_text(fresh.outcome)}"
    if stored.grundy != fresh.grundy:
        return f"{ours} says Grundy value {stored.grundy}, {theirs} {fresh.grundy}"
    if set(stored.best_moves) != set(fresh.best_moves):
        return (
            f"{ours} says best moves {sorted(stored.best_moves)}, {theirs} "
            f"{sorted(fresh.best_moves)}"
        )
    for field in sorted(set(stored.extra) | set(fresh.extra)):
        a, b = stored.extra.get(field), fresh.extra.get(field)
        if converter.unstructure(a) != converter.unstructure(b):
            return f"{ours} and {theirs} differ in {field!r}"
    return None


def _same_value(a: Any, b: Any) -> bool:
    if type(a) is bool or type(b) is bool:
        return a is b
    if isinstance(a, ValueSummary) and isinstance(b, CanonicalGame):
        return a.agrees_with(summarise(b))
    if isinstance(b, ValueSummary) and isinstance(a, CanonicalGame):
        return b.agrees_with(summarise(a))
    loopy = sys.modules.get("cgframework.values.loopy.sides")  # (loaded with any loopy value)
    kinds = () if loopy is None else (loopy.LoopyGame, loopy.SidedGame)
    if isinstance(a, kinds) and isinstance(b, kinds):  # graphs: equal values, not equal graphs
        return bool(loopy.compare(a, b) == "=")
    return a == b


def _text(value: Any) -> str:
    if value is None:
        return "none"
    if hasattr(value, "value") and isinstance(value, Outcome):
        return value.value
    return str(value)


def sample_indices(count: int, sample: int | None, rng: random.Random) -> set[int]:
    """Which of ``count`` records to recompute: all (``sample`` None) or a random ``sample``."""
    if sample is None or sample >= count:
        return set(range(count))
    return set(rng.sample(range(count), sample))


# --- import ---------------------------------------------------------------------------


class ImportRefused(ValueError):
    """The whole import is refused; the message names the line and the reason."""


def read_records(
    lines: Iterable[bytes], registry: Registry | None = None
) -> list[tuple[int, CheckedRecord]]:
    """(line number, checked record) for every non-blank line of an export file."""
    registry = registry or get_registry()
    records: list[tuple[int, CheckedRecord]] = []
    seen: dict[tuple[str, str], tuple[int, CheckedRecord]] = {}
    for number, raw in enumerate(lines, 1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ImportRefused(f"line {number} is not UTF-8 text (byte {exc.start + 1})") from None
        if not line.strip():
            continue
        if json_depth(line) > MAX_JSON_DEPTH:
            raise ImportRefused(
                f"line {number} is nested more than {MAX_JSON_DEPTH} deep: not a record"
            )
        try:
            data = json.loads(line)
        except ValueError as exc:
            raise ImportRefused(f"line {number} is not JSON: {exc}") from None
        try:
            record = check_record(data, registry)
        except RecordError as exc:
            raise ImportRefused(f"line {number}: {exc}") from None
        earlier = seen.get((record.ruleset.name, record.key))
        if earlier is not None:
            if compare_solutions(earlier[1].solution, record.solution) is not None:
                raise ImportRefused(
                    f"line {number}: same position as line {earlier[0]}, another answer"
                )
            continue
        seen[(record.ruleset.name, record.key)] = (number, record)
        records.append((number, record))
    return records


def verify_records(
    records: list[tuple[int, CheckedRecord]],
    sample: int | None,
    rng: random.Random | None = None,
    registry: Registry | None = None,
    cpu_seconds: float | None = None,
    skip: Callable[[CheckedRecord], bool] | None = None,
) -> set[int]:
    """Recompute ``sample`` random records (``None``: all), in file order; raise
    :class:`ImportRefused` on the first disagreement. With ``cpu_seconds``, stop once this
    process has spent that much CPU time (a record still being recomputed then is stopped:
    it stays unverified). ``skip`` leaves records out (e.g. positions the store has).
    Returns the line numbers of the records recomputed and found right."""
    chosen = sample_indices(len(records), sample, rng or random.SystemRandom())
    recomputer = Recomputer(registry)
    verified: set[int] = set()
    started = time.process_time()

    def left() -> float | None:
        if cpu_seconds is None:
            return None
        return cpu_seconds - (time.process_time() - started)

    def run() -> None:
        for index in sorted(chosen):
            number, record = records[index]
            if skip is not None and skip(record):
                continue
            remaining = left()
            if remaining is not None and remaining <= 0:
                return
            try:
                # a wall-clock limit of the CPU time left: never later than the budget
                problem = recomputer.disagreement(record, remaining)
            except SearchStopped:
                return
            if problem is not None:
                raise ImportRefused(f"line {number}: {record.describe()}: {problem}")
            verified.add(number)

    run_deep(run)
    return verified


def differences(store: ValueStore, records: list[tuple[int, CheckedRecord]]) -> list[str]:
    """Records whose position the store holds with another answer (the store's is kept):
    one line each, naming the line and what differs."""
    found = []
    for number, record in records:
        stored = store.get(record.ruleset, record.key)
        if stored is None or stored[0] != record.text:
            continue
        problem = compare_solutions(stored[1], record.solution, ("the store", "the import"))
        if problem is not None:
            found.append(f"line {number}: {record.describe()}: {problem}")
    return found


def imported_rows(
    records: list[tuple[int, CheckedRecord]],
    source: str,
    verified: set[int] | None = None,
    how: str = VERIFIED_BY_RECOMPUTATION,
) -> list[ImportedRow]:
    """The rows :meth:`ValueStore.put_imported` adds, provenance kept, origin ``source``;
    the records on the lines ``verified`` (``None``: every line) are marked verified ``how``,
    the others unverified."""
    rows = []
    for number, record in records:
        prov = record.provenance
        rows.append(
            ImportedRow(
                ruleset=record.ruleset.name,
                version=record.ruleset.version,
                key=record.key,
                position=record.text,
                solution=json.dumps(converter.unstructure(record.solution)),
                installation=prov.get("installation"),
                source=source,
                solver=prov.get("solver") or record.solution.method,
                cgf_version=prov.get("cgframework"),
                created=prov.get("created"),
                verified=how if verified is None or number in verified else None,
            )
        )
    return rows


# --- verify a store ---------------------------------------------------------------------


@attrs.define
class VerifyReport:
    """What :func:`verify_store` found: one line per bad record or memo row."""

    records: int = 0
    recomputed: int = 0
    unchecked: int = 0
    memo_rows: int = 0
    memo_checked: int = 0
    unverified: int = 0
    """Imported records not yet verified (before this verification)."""
    promoted: list[tuple[str, str, str]] = attrs.field(factory=list)
    """(ruleset, rules version, key) of unverified records recomputed and found right."""
    problems: list[str] = attrs.field(factory=list)
    notes: list[str] = attrs.field(factory=list)


def verify_store(
    store: ValueStore,
    sample: int | None,
    rng: random.Random | None = None,
    registry: Registry | None = None,
    on_problem: Callable[[str], None] | None = None,
) -> VerifyReport:
    """Check every record of a store as an import would, recompute ``sample`` random ones
    (``None``: all), and compare the memo rows the recomputation reaches. Unverified
    imports recomputed and found right are listed in ``promoted`` (the caller marks them)."""
    registry = registry or get_registry()
    report = VerifyReport()
    rng = rng or random.SystemRandom()
    unverified = store.unverified()
    report.unverified = len(unverified)

    def bad(message: str) -> None:
        report.problems.append(message)
        if on_problem is not None:
            on_problem(message)

    checked: list[tuple[str, CheckedRecord]] = []
    for data in store.records():
        report.records += 1
        origin = _origin_text(data["provenance"], store.installation)
        where = f"{data['ruleset']} {_short(data['position'])} [{origin}]"
        data = {k: v for k, v in data.items() if k != "provenance"}
        try:
            checked.append((origin, check_record(data, registry)))
        except Uncheckable:
            report.unchecked += 1
        except RecordError as exc:
            bad(f"{where}: {exc}")
    chosen = sample_indices(len(checked), sample, rng)
    recomputer = Recomputer(registry)

    def run() -> None:
        for index in sorted(chosen):
            origin, record = checked[index]
            problem = recomputer.disagreement(record)
            report.recomputed += 1
            address = (record.ruleset.name, record.ruleset.version, record.key)
            if problem is not None:
                bad(f"{record.describe()} [{origin}]: {problem}")
            elif address in unverified:
                report.promoted.append(address)

    run_deep(run)
    _verify_memo(store, recomputer, report, bad)
    if report.unchecked:
        report.notes.append(
            f"{report.unchecked} records of rulesets or rules versions not installed here "
            "were not checked"
        )
    return report


def _verify_memo(
    store: ValueStore, recomputer: Recomputer, report: VerifyReport, bad: Callable[[str], None]
) -> None:
    """Compare every memo row the recomputation reached with the value it computed."""
    for name, table in recomputer.tables.items():
        ruleset = recomputer.registry.ruleset(name)
        computed = {memo_key(key): value for key, value in table.items()}
        for key, text, installation in store.memo_rows(name, ruleset.version):
            expected = computed.get(key)
            if expected is None:
                continue
            report.memo_checked += 1
            by = "origin unknown"
            if installation:
                here = installation == store.installation
                by = "computed here" if here else f"computed by {installation}"
            try:
                stored = decode_memo(text)
            except (ValueError, KeyError, TypeError) as exc:
                bad(f"{name} memo row {key[:12]} [{by}]: damaged: {exc}")
                continue
            if not _same_value(stored, expected):
                bad(
                    f"{name} memo row {key[:12]} [{by}]: the row says {_text(stored)}, "
                    f"recomputed {_text(expected)}"
                )
    report.memo_rows = store.memo_size()


def _origin_text(provenance: dict[str, Any], here: str) -> str:
    origin = provenance.get("origin") or "unknown"
    if origin == "import":
        return f"imported from {provenance.get('source')}"
    if origin == "cluster":
        return f"computed by cluster {provenance.get('source')}"
    if origin == "computed":
        by = provenance.get("installation")
        return "computed here" if by == here else f"computed by {by}"
    return "origin unknown"


def iter_lines(data: bytes) -> Iterator[bytes]:
    """The lines of an export file (``\\n`` or ``\\r\\n`` separated)."""
    for line in data.split(b"\n"):
        yield line.rstrip(b"\r")
