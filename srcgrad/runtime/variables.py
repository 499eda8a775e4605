"""What generated code calls to read Variables and hand back their cotangents.

In an eager unit (``implicit_gradients``, ``GradientTape``, ``gradients_function``) the
normalizer wraps every load that may be a Variable::

    w_value = _sg.read_variable(w)            # forward: the value; the read is registered
    _sg.variable_cotangent(w, dw_value)       # backward: accumulated for that Variable

Both are cheap no-ops for anything that is not a Variable. Reads and cotangents go to
per-thread collectors that the eager API opens around a call (``collecting``).
"""

from __future__ import annotations

import threading

import numpy as np

from srcgrad.runtime.core import _NDARRAY

__all__ = ["COLLECT", "ConstantBase", "NoneResultError", "StaleVariant", "VariableBase",
           "collecting", "constant_value", "ones_seed", "read_constant", "read_variable",
           "variable_cotangent"]


class VariableBase:
    """What generated code recognises as a Variable: ``_value`` and a creation number."""

    __slots__ = ("_value", "_uid", "__weakref__")


class ConstantBase:
    """What generated code recognises as a constant Tensor: its ``_value`` is read."""

    __slots__ = ()


class NoneResultError(ValueError):
    """Raised by ``ones_seed`` when the differentiated function returned None."""


class StaleVariant(AttributeError):
    """Raised by an eager variant (``eager.static``) whose entry guard missed: a name its
    code was generated from denotes something else now. The caller gives the variant up
    and runs the general code, whose guard hands over to the regenerated unit. (An
    ``AttributeError``, as a Variable name that holds no Variable any more raises in a
    variant: the hot paths hand both to the general code.)"""


class _Collectors(threading.local):
    reads = None        # dict Variable -> None (an ordered set), or None when not collecting
    cotangents = None   # dict Variable -> accumulated cotangent, or None


COLLECT = _Collectors()


def read_variable(obj):
    """The value of ``obj`` if it is a Variable (registering the read), else ``obj``."""
    if isinstance(obj, VariableBase):
        reads = COLLECT.reads
        if reads is not None:
            reads[obj] = None
        return obj._value
    if isinstance(obj, ConstantBase):
        return obj._value
    return obj


def constant_value(value):
    """``sg.constant(value)`` called in code being differentiated: the value it would
    hold, and a constant there (a new Tensor is connected to nothing, as when it runs
    eagerly)."""
    if isinstance(value, (ConstantBase, VariableBase)):
        return value._value
    if isinstance(value, (bool, int, float, complex)):
        return np.asarray(value)[()]
    return value if type(value) is _NDARRAY else np.asarray(value)


def read_constant(obj):
    """The value of ``obj`` if it is a constant Tensor (``sg.constant``), else ``obj``:
    a name that held a Tensor when the function was compiled. One that holds a Variable
    now was compiled without its cotangent, so it is refused."""
    if isinstance(obj, ConstantBase):
        return obj._value
    if isinstance(obj, VariableBase):
        raise TypeError("a name that held an sg.constant when the function was compiled "
                        "holds a Variable now; call srcgrad again on a fresh function "
                        "(or reload its module) to differentiate it")
    return obj


def variable_cotangent(obj, g):
    """Add ``g`` to the cotangent collected for ``obj`` when it is a Variable.

    ``g`` is kept as it is, not copied: generated code never writes in place into an
    adjoint once it has handed it over (the adjoint of a read is dead after the read),
    and contributions are added into a new array."""
    if isinstance(obj, VariableBase):
        cotangents = COLLECT.cotangents
        if cotangents is not None:
            previous = cotangents.get(obj)
            cotangents[obj] = g if previous is None else previous + g


def ones_seed(ans):
    """The cotangent of the SUM of every float in ``ans`` (a value, list or tuple)."""
    if type(ans) is float or type(ans) is np.float64:
        return 1.0   # (a Python float keeps the first adjoints cheap, as ``seed`` does)
    if ans is None:
        raise NoneResultError("the differentiated function returned None")
    if type(ans) is _NDARRAY:
        return np.ones_like(ans) if ans.dtype.kind in "fc" else np.zeros(ans.shape)
    if isinstance(ans, (list, tuple)):
        return tuple(ones_seed(item) for item in ans)
    if isinstance(ans, (float, np.floating, np.complexfloating)):
        return type(ans)(1.0)
    if isinstance(ans, np.ndarray):
        return np.ones_like(ans)
    if isinstance(ans, (ConstantBase, VariableBase)):
        raise TypeError(f"the differentiated function returned a {type(ans).__name__} "
                        "computed from values srcgrad does not see (its gradient would be "
                        "a silent zero)")
    return 0.0


class collecting:
    """``with collecting(reads, cotangents):`` gathers Variable reads and cotangents made
    on this thread into the given dicts (``None`` leaves a collector as it was)."""

    __slots__ = ("reads", "cotangents", "_saved")

    def __init__(self, reads=None, cotangents=None):
        self.reads, self.cotangents = reads, cotangents

    def __enter__(self):
        self._saved = (COLLECT.reads, COLLECT.cotangents)
        if self.reads is not None:
            COLLECT.reads = self.reads
        if self.cotangents is not None:
            COLLECT.cotangents = self.cotangents
        return self

    def __exit__(self, *exc):
        COLLECT.reads, COLLECT.cotangents = self._saved
        return False
