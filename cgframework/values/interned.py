"""A base for hash-consed values: each form is built once by its module's maker, so equality
is identity and the hash is the form's integer id (cheap memo keys)."""

from __future__ import annotations

from typing import Any


class Interned:
    """Identity equality, ``hash = id``, immutable after construction. A subclass declares
    ``__slots__`` (with ``id``), names its makers in ``_makers``, and its maker fills the slots
    with ``object.__setattr__`` on ``object.__new__(cls)``."""

    __slots__ = ()
    _makers = "the module's constructors"
    id: int

    def __new__(cls, *args: Any, **kwargs: Any) -> Interned:
        raise TypeError(f"use {cls._makers} to make {cls.__name__} values")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __eq__(self, other: object) -> bool:
        return self is other

    def __ne__(self, other: object) -> bool:
        return self is not other

    def __hash__(self) -> int:
        return self.id
