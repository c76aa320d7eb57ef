"""Methods of the value classes whose work lives in modules above the algebra.

``str(g)`` of a canonical form needs the CGSuite printer, pickling it the parser,
``g.temperature()`` the thermograph; those modules import the algebra, so the algebra cannot
import them (the parser and printer stand above what they print). Each registers its function
here when it is imported, and the package ``__init__`` (of :mod:`cgframework.values`, of
:mod:`cgframework.values.loopy`) imports them: importing any module of a package runs the
package first, so a method never finds its slot empty.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_PROVIDED: dict[str, Callable[..., Any]] = {}


def provide(name: str, function: Callable[..., Any]) -> None:
    """Register ``function`` as the implementation of the method slot ``name``."""
    _PROVIDED[name] = function


def provided(name: str) -> Callable[..., Any]:
    """The function registered for ``name``."""
    try:
        return _PROVIDED[name]
    except KeyError:
        raise RuntimeError(f"{name} is not installed: import cgframework.values") from None
