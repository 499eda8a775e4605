"""Names for the types of srcgrad's public API, for annotations in user code::

    from srcgrad.api.typing import Wrt
    def fit(loss, wrt: Wrt = 0): ...

``Wrt`` is what ``wrt=`` accepts: a positional index, a parameter name, or a tuple (or
list) of them. ``Gradient`` is what a gradient is: a NumPy array (or a float for a float
argument), or a container shaped like its argument for a container argument.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

Wrt: TypeAlias = int | str | Sequence[int | str]
Gradient: TypeAlias = Any
Function: TypeAlias = Callable[..., Any]

__all__ = ["Function", "Gradient", "Wrt"]
