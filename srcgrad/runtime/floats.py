"""What a backward sweep computing on Python floats calls (``optimize.float_sweep``).

A Python float and a NumPy float64 add, subtract and multiply to the same IEEE double;
they differ where Python raises (a division by zero, ``**`` overflowing or of a negative
base) and in the type of the result. These helpers give NumPy's answer there:

    d = g / b      ->  d = _sg.divide(g, b)     # inf or nan (and NumPy's warning) for b == 0
    return dx      ->  return _sg.float64(dx)   # the float64 NumPy's sweep returns
"""

from __future__ import annotations

import contextvars

import numpy as np

from srcgrad.runtime.core import FLOAT_ZERO

_FLOAT64 = np.float64
_ONE64 = np.float64(1.0)



def _errstate_variable():
    """NumPy's floating-point error handling (``np.errstate``): the context variable
    NumPy >= 2 keeps it in, and its default value; ``(None, None)`` for an older NumPy
    (then the sweep on Python floats is not used)."""
    try:
        from numpy._core import umath
    except ImportError:
        return None, None
    variable = getattr(umath, "_extobj_contextvar", None)
    if variable is None:
        return None, None
    return variable, contextvars.Context().run(variable.get)


_ERRSTATE, _DEFAULT_ERRSTATE = _errstate_variable()


def floats_apply(result):
    """May the backward sweep of ``result`` run on Python floats? When ``result`` is a
    float64 (its cotangents are float64s in NumPy's sweep) and NumPy's error handling is
    its default (nothing asked to raise on overflow: Python floats give inf silently)."""
    return type(result) is _FLOAT64 and _ERRSTATE is not None \
        and _ERRSTATE.get() is _DEFAULT_ERRSTATE


# A float or float64 as a Python float (the same number); the builtin itself, which a
# user's global named ``float`` does not hide from generated code.
to_float = float


def divide(a, b):
    """``a / b`` as a float64 divides: inf or nan (and NumPy's warning) where ``b`` is 0."""
    if b:
        return a / b
    return float(_ONE64 * a / b)


def power(a, b):
    """``a ** b`` as a float64 raises to a power: nan for a negative base and a fractional
    exponent, inf on overflow (Python gives a complex, raises OverflowError)."""
    return float((_ONE64 * a) ** b)


def float64(x):
    """``x`` (a number) as the float64 NumPy's sweep computes (``x * 1.0``: exact)."""
    return x * _ONE64


def float64_cotangent(x):
    """``x`` as NumPy's sweep returns it: the zero ``_sg.zeros_like`` gave a float or an
    int argument (nothing was added to it) as it is, any other value as a float64."""
    return x if x is FLOAT_ZERO else x * _ONE64


__all__ = ["divide", "float64", "float64_cotangent", "floats_apply", "power", "to_float"]
