"""Exact value algebras: short partizan games in canonical form, nimbers, thermographs."""

from cgframework.values.canonical import (
    DOWN,
    ONE,
    STAR,
    UP,
    ZERO,
    CanonicalGame,
    StarOptions,
    ValueTooLarge,
    cache_info,
    game,
    nimber,
    number,
    simplest_between,
    up,
    uptimal,
)
from cgframework.values.interned import Interned
from cgframework.values.nimbers import mex, nim_sum
from cgframework.values.notation import ValueSyntaxError, format_value, parse_value
from cgframework.values.thermograph import Thermograph, Wall, thermograph

__all__ = [
    "DOWN",
    "ONE",
    "STAR",
    "UP",
    "ZERO",
    "CanonicalGame",
    "Interned",
    "Thermograph",
    "ValueSyntaxError",
    "Wall",
    "cache_info",
    "format_value",
    "game",
    "mex",
    "nim_sum",
    "nimber",
    "number",
    "parse_value",
    "simplest_between",
    "thermograph",
    "up",
    "uptimal",
    "StarOptions",
    "ValueTooLarge",
]
