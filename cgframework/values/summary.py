"""What is known of a canonical value too large to print, computed in bounded memory.

A canonical form is a DAG of interned subgames; its text repeats a subgame on every path that
reaches it, so a value of 13,226 subgames ((XO)^17 in clobber) prints as 3.3 GB. A
:class:`ValueSummary` is computed on the DAG instead, once per distinct subgame and without
recursion: the text's length and ends (:func:`~cgframework.values.notation.elided_text`), the
number of distinct subgames, the birthday, the stops (stored on each form), the outcome, and
the temperature and mean from the thermograph, under a CPU-time cap (``None``: not computed).
The CLI, the JSON output, the value store and notebooks show it instead of a text longer than
:data:`SUMMARY_LENGTH`.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import attrs

from cgframework.game import dump_number, load_number
from cgframework.runtime.deep import call_deep
from cgframework.values.canonical import CanonicalGame
from cgframework.values.notation import MAX_LENGTH, elided_text, postorder, text_length
from cgframework.values.thermograph import thermograph

SUMMARY_LENGTH = 1 << 20
"""A value whose text is longer than this (1 Mi characters) is summarised where it would be
written whole: ``cgf solve --json`` and ``cgf calc --json`` (unless ``--full``), the value
store, notebooks."""

TEMPERATURE_SECONDS = 2.0
"""CPU seconds the thermographs of a summary may take before its temperature and mean are
given up as not computed."""

SUMMARY_KEYS = (
    "characters",
    "subgames",
    "birthday",
    "left_stop",
    "right_stop",
    "outcome",
    "temperature",
    "mean",
    "elided",
)
"""The keys of a summary's JSON object, in order."""


@attrs.frozen
class ValueSummary:
    """A canonical value described, not printed: ``characters`` of its CGSuite text,
    ``subgames`` (distinct subgames, the interned DAG's nodes, uptimals counted as one),
    ``birthday``, the stops, ``outcome`` (``L``, ``R``, ``P``, ``N``), ``temperature`` and
    ``mean`` (``None`` when over the time cap), and ``elided``: the text's ends around
    ``...`` (does not parse)."""

    characters: int
    subgames: int
    birthday: int
    left_stop: Fraction
    right_stop: Fraction
    outcome: str
    temperature: Fraction | None
    mean: Fraction | None
    elided: str

    def __str__(self) -> str:
        return self.elided

    def agrees_with(self, other: ValueSummary) -> bool:
        """Equal, but for a temperature or mean that one of the two did not compute (the
        cap is CPU time, so whether they are there depends on the machine)."""
        for field in attrs.fields(ValueSummary):
            a, b = getattr(self, field.name), getattr(other, field.name)
            if a != b and not (field.name in ("temperature", "mean") and None in (a, b)):
                return False
        return True

    def facts(self) -> list[tuple[str, str]]:
        """Named lines for a table: size, birthday, stops, temperature and mean."""

        def text(x: Fraction | None) -> str:
            if x is None:
                return f"not computed (over {TEMPERATURE_SECONDS:g} CPU s)"
            return str(x)

        return [
            ("value size", f"{self.subgames} distinct subgames, {self.characters} characters"),
            ("birthday", str(self.birthday)),
            ("stops", f"left {self.left_stop}, right {self.right_stop}"),
            ("temperature", text(self.temperature)),
            ("mean", text(self.mean)),
        ]

    def to_json(self) -> dict[str, Any]:
        """The summary object of JSON output (keys :data:`SUMMARY_KEYS`; exact numbers as
        the framework writes them: an integer, or ``"p/q"``)."""
        raw = attrs.asdict(self)
        for key in ("left_stop", "right_stop", "temperature", "mean"):
            raw[key] = None if raw[key] is None else dump_number(raw[key])
        return raw

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> ValueSummary:
        if not isinstance(raw, dict) or set(raw) != set(SUMMARY_KEYS):
            raise ValueError(f"a value summary has the keys {', '.join(SUMMARY_KEYS)}")

        def number(x: Any) -> Fraction | None:
            return None if x is None else Fraction(load_number(x))

        return cls(
            characters=int(raw["characters"]),
            subgames=int(raw["subgames"]),
            birthday=int(raw["birthday"]),
            left_stop=Fraction(load_number(raw["left_stop"])),
            right_stop=Fraction(load_number(raw["right_stop"])),
            outcome=str(raw["outcome"]),
            temperature=number(raw["temperature"]),
            mean=number(raw["mean"]),
            elided=str(raw["elided"]),
        )


def is_large(value: Any, limit: int = SUMMARY_LENGTH) -> bool:
    """True for a canonical value whose text is longer than ``limit`` (not built to know)."""
    return isinstance(value, CanonicalGame) and text_length(value) > limit


def _options(g: CanonicalGame) -> tuple[CanonicalGame, ...]:
    return () if g.uptimal is not None else g.left + g.right


def subgames(g: CanonicalGame) -> list[CanonicalGame]:
    """The distinct subgames of ``g``, each after its options (an uptimal's are not
    listed: it is one node, kept as its payload)."""
    return postorder(g, _options)


def summarise(
    g: CanonicalGame,
    max_length: int = MAX_LENGTH,
    temperature_seconds: float = TEMPERATURE_SECONDS,
) -> ValueSummary:
    """The :class:`ValueSummary` of ``g``, in memory bounded by its number of subgames."""
    nodes = subgames(g)
    birthdays: dict[int, int] = {}
    for node in nodes:
        if node.uptimal is not None:
            birthdays[node.id] = node.birthday()
        else:
            birthdays[node.id] = 1 + max((birthdays[x.id] for x in _options(node)), default=-1)
    temperature, mean = _temperature_and_mean(g, nodes, temperature_seconds)
    return ValueSummary(
        characters=text_length(g),
        subgames=len(nodes),
        birthday=birthdays[g.id],
        left_stop=g.left_stop(),
        right_stop=g.right_stop(),
        outcome=call_deep(g.outcome).value,
        temperature=temperature,
        mean=mean,
        elided=elided_text(g, max_length),
    )


def _temperature_and_mean(
    g: CanonicalGame, nodes: list[CanonicalGame], seconds: float
) -> tuple[Fraction | None, Fraction | None]:
    """g's temperature and mean from the thermographs of its subgames, made bottom-up (each
    finds its options' made: no deep recursion), or ``(None, None)`` past ``seconds``."""
    if g.uptimal is not None:
        return g.temperature(), g.mean()
    if g.left_stop() == g.right_stop():  # not a number: hot it is not, so its walls meet at
        return Fraction(0), g.left_stop()  # t = 0 (Siegel CGT II.5), at its stops (all-small)
    deadline = time.process_time() + seconds
    for node in nodes:
        if node.uptimal is None:
            thermograph(node)
            if time.process_time() > deadline:
                return None, None
    found = thermograph(g)
    return found.temperature, found.mast


__all__ = [
    "SUMMARY_KEYS",
    "SUMMARY_LENGTH",
    "TEMPERATURE_SECONDS",
    "ValueSummary",
    "is_large",
    "subgames",
    "summarise",
]
