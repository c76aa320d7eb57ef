"""One cattrs converter for every JSON the framework reads or writes.

Exact numbers: an integer is a JSON number, any other rational a string ``"p/q"``.
Values of different algebras are tagged with a *kind* (``number``, ``canonical``, ``text``,
``loopy`` in the core; plugins add theirs with :func:`register_value_kind`) so a ``Solution``
round-trips through JSON to an equal value. A ``loopy`` value is its CGSuite text (``1``,
``on``, ``over``, ``1 & 0``), which ``cgf calc --universe loopy`` reads back.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import attrs

from cgframework.game import Convention, Outcome, Player, dump_number, load_number
from cgframework.solution import Solution, Stats
from cgframework.values import CanonicalGame, parse_value
from cgframework.values.summary import SUMMARY_LENGTH, ValueSummary, is_large, summarise

if TYPE_CHECKING:
    import cattrs


@attrs.frozen
class ValueKind:
    """How one algebra's values go to and from JSON. ``type`` is the values' class (or
    classes), or ``"module:Class,Class"``: classes looked up only once that module is loaded
    (before, no value of theirs exists), so that the module is not imported at start-up."""

    name: str
    type: type | tuple[type, ...] | str
    dump: Callable[[Any], Any]
    load: Callable[[Any], Any]

    def holds(self, value: Any) -> bool:
        types = self.type
        if isinstance(types, str):
            module_name, _, names = types.partition(":")
            module = sys.modules.get(module_name)
            if module is None:
                return False
            types = tuple(getattr(module, name) for name in names.split(","))
        return isinstance(value, types)


_kinds: dict[str, ValueKind] = {}


def register_value_kind(
    name: str,
    type_: type | tuple[type, ...] | str,
    dump: Callable[[Any], Any],
    load: Callable[[Any], Any],
) -> None:
    """Teach the converter a plugin's value type (e.g. cheating-robot games)."""
    _kinds[name] = ValueKind(name, type_, dump, load)


register_value_kind("number", (int, Fraction), dump_number, load_number)
register_value_kind("canonical", CanonicalGame, str, parse_value)
register_value_kind("text", str, str, str)
register_value_kind("summary", ValueSummary, ValueSummary.to_json, ValueSummary.from_json)


def _load_loopy(raw: Any) -> Any:
    if not isinstance(raw, str):
        raise ValueError(f"a loopy value is its text, not {type(raw).__name__}")
    from cgframework.values.loopy import parse_loopy  # loaded with the first loopy value

    return parse_loopy(raw)


register_value_kind("loopy", "cgframework.values.loopy.sides:LoopyGame,SidedGame", str, _load_loopy)


def value_kind(value: Any) -> ValueKind:
    if isinstance(value, bool):
        raise TypeError("a bool is not a game value")
    for kind in reversed(list(_kinds.values())):
        if kind.holds(value):
            return kind
    raise TypeError(f"no JSON form for values of type {type(value).__name__}")


def load_value(kind: str, raw: Any) -> Any:
    """Inverse of :func:`dump_value` for a value of the named kind."""
    if kind not in _kinds:
        raise ValueError(f"unknown value kind {kind!r}")
    return _kinds[kind].load(raw)


def dump_value(value: Any) -> Any:
    return value_kind(value).dump(value)


def unstructure_solution(
    solution: Solution, summarise_above: int | None = SUMMARY_LENGTH
) -> dict[str, Any]:
    """The JSON object of ``cgf solve --json``; family fields (``extra``) at the top level.
    A canonical value whose text is longer than ``summarise_above`` characters is given as
    its summary (``value_kind`` ``summary``: :class:`~cgframework.values.summary.ValueSummary`),
    never built as text; ``None``: always in full."""
    if summarise_above is not None and is_large(solution.value, summarise_above):
        solution = attrs.evolve(solution, value=summarise(solution.value))
    out: dict[str, Any] = {
        "ruleset": solution.ruleset,
        "position": solution.position,
        "convention": solution.convention.value,
        "value": None if solution.value is None else dump_value(solution.value),
        "value_kind": None if solution.value is None else value_kind(solution.value).name,
        "outcome": None if solution.outcome is None else solution.outcome.value,
        "best_moves": list(solution.best_moves),
        "method": solution.method,
        "first": solution.first.value,
        "stats": attrs.asdict(solution.stats),
    }
    if solution.grundy is not None:
        out["grundy"] = solution.grundy
    for key, value in solution.extra.items():
        out[key] = value if type(value) in _PLAIN else get_converter().unstructure(value)
    return out


_PLAIN = (int, str, bool, float, type(None))  # what the converter returns unchanged

_SOLUTION_KEYS = {
    "ruleset",
    "position",
    "convention",
    "value",
    "value_kind",
    "outcome",
    "best_moves",
    "method",
    "first",
    "stats",
    "grundy",
}


def structure_solution(raw: dict[str, Any], _: Any = None) -> Solution:
    """A :class:`Solution` from its JSON form; anything malformed is a :class:`ValueError`
    (a damaged stored row, a hand-edited file)."""
    if not isinstance(raw, dict):
        raise ValueError(f"a solution is a JSON object, not {type(raw).__name__}")
    try:
        return _structure_solution(raw)
    except (AttributeError, ExceptionGroup) as exc:  # (cattrs' validation errors are groups)
        raise ValueError(f"not a solution ({_first_cause(exc)})") from None


def _first_cause(exc: BaseException) -> str:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return f"{type(exc).__name__}: {exc}"


def _structure_solution(raw: dict[str, Any]) -> Solution:
    kind = raw.get("value_kind")
    value = None if kind is None else _kinds[kind].load(raw["value"])
    return Solution(
        ruleset=raw["ruleset"],
        position=raw["position"],
        convention=Convention(raw["convention"]),
        value=value,
        outcome=None if raw.get("outcome") is None else Outcome(raw["outcome"]),
        best_moves=tuple(raw.get("best_moves", ())),
        method=raw["method"],
        stats=get_converter().structure(raw.get("stats", {}), Stats),
        first=Player(raw.get("first", "L")),
        grundy=raw.get("grundy"),
        extra={k: v for k, v in raw.items() if k not in _SOLUTION_KEYS},
    )


@functools.cache
def get_converter() -> cattrs.Converter:
    """The converter, built on first use: importing cattrs costs ~10 ms of start-up that
    ``cgf solve --json`` does not need (:func:`unstructure_solution` works without it)."""
    import cattrs

    converter = cattrs.Converter()
    converter.register_unstructure_hook(Fraction, dump_number)
    converter.register_structure_hook(Fraction, lambda raw, _: Fraction(load_number(raw)))
    converter.register_unstructure_hook(CanonicalGame, str)  # to_json(value): its CGSuite text
    converter.register_unstructure_hook(Solution, unstructure_solution)
    converter.register_structure_hook(Solution, structure_solution)
    return converter


def __getattr__(name: str) -> Any:
    """``cgframework.io.converter`` (PEP 562): the converter, cattrs imported on first use."""
    if name == "converter":
        return get_converter()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def to_json(obj: Any, **kwargs: Any) -> str:
    """Serialise any attrs object the converter knows (``Solution``, positions...)."""
    return json.dumps(get_converter().unstructure(obj), **kwargs)


def from_json(text: str, cls: type) -> Any:
    return get_converter().structure(json.loads(text), cls)
