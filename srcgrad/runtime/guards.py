"""Checks generated code makes on entry, where an assumption cannot be proven from source.

``check_array_types(x, w)``: the rules read ``x * w`` as NumPy's elementwise product. An
ndarray subclass whose operators mean something else (``np.matrix``: ``*`` is a matrix
product, ``**`` a matrix power; masked arrays) would get the elementwise derivative of
a different computation, so it is refused, naming its type::

    def loss_grad(x, w):
        _sg.check_array_types(x, w)
        ...
"""

from __future__ import annotations

import functools
import sys
import threading

import numpy as np

from srcgrad.errors import TransformError
from srcgrad.runtime.core import is_duck_array
from srcgrad.runtime.namespaces import is_foreign, refuse_mixed_libraries, refuse_numpy_calls

__all__ = ["check_array_attribute", "check_array_types", "dense_basis", "dense_shape",
           "escape_count", "escaped", "readonly", "refuse_if_escaped", "refuse_read_back",
           "refuse_changed_defaults", "set_attribute", "unsuppressed", "without_derivative"]

_NDARRAY = np.ndarray
_OPERATORS = ("__mul__", "__rmul__", "__imul__", "__pow__", "__rpow__", "__ipow__",
              "__matmul__", "__rmatmul__", "__truediv__", "__rtruediv__", "__add__",
              "__radd__", "__sub__", "__rsub__", "__neg__", "__getitem__")


def check_array_types(*args):
    """Raise a TransformError if an argument, or an item of a list, tuple or dict
    argument (a pytree of parameters), is an ndarray of another operator meaning."""
    for arg in args:   # (the common case, written out: no call per argument)
        kind = type(arg)
        if kind is not _NDARRAY and kind is not float:
            break
    else:
        return
    if _foreign_seen(args):
        refuse_mixed_libraries(args)
        refuse_numpy_calls(sys._getframe(1), args)


def _foreign_seen(args):
    """``check_array_types``'s walk: True if an argument is another library's array."""
    foreign = False
    for arg in args:
        kind = type(arg)
        if kind is _NDARRAY or kind is float:
            continue
        if kind is list or kind is tuple:
            foreign = _foreign_seen(arg) or foreign
        elif kind is dict:
            foreign = _foreign_seen(arg.values()) or foreign
        elif is_foreign(arg):
            foreign = True
        elif isinstance(arg, _NDARRAY) and _redefines_operators(kind):
            raise TransformError(
                f"srcgrad does not differentiate {kind.__module__}.{kind.__qualname__} "
                "arguments: their operators do not mean what NumPy's do (for np.matrix, "
                "`*` is a matrix product), and srcgrad's rules are NumPy's. Pass "
                "np.asarray(value) and write matrix products with `@`")
    return foreign


def check_array_attribute(x, name):
    """Raise a TransformError unless ``x.name`` is an array's attribute (``.T``,
    ``.shape``, ``.real``, ...), as the rules read it: an object of another kind (a
    NamedTuple or dataclass with a field ``T``) has a value there, not a transpose."""
    if isinstance(x, (_NDARRAY, np.generic)) or (
            name in ("real", "imag") and isinstance(x, (int, float, complex))):
        return
    if is_duck_array(x) or is_foreign(x):   # a dask array, another library's array
        return
    raise TransformError(
        f"srcgrad reads .{name} as an array's attribute, but here it is the attribute of "
        f"a {type(x).__qualname__}: a field with that name is not differentiated. Rename "
        "the field")


def dense_shape(x, what):
    """The shape of ``x``, an argument or output of a dense derivative written as
    generated code (``api.dense_callees``): a number or an ndarray, not a pytree."""
    if type(x) in (float, int, bool) or isinstance(x, (np.ndarray, np.generic)):
        return np.shape(x)
    raise TypeError(f"{what} called inside a function being differentiated takes and "
                    f"returns arrays; got a {type(x).__name__} (a pytree is not supported "
                    "there)")


def dense_basis(x, what):
    """The unit vectors of ``x``'s elements, each shaped like ``x`` and in its float
    dtype: what a dense derivative written as generated code loops over."""
    shape = dense_shape(x, what)
    size = int(np.prod(shape, dtype=int))
    if size == 0:
        raise TypeError(f"{what} called inside a function being differentiated needs "
                        "an argument with elements; got an empty array")
    dtype = np.asarray(x).dtype if np.asarray(x).dtype.kind in "fc" else np.float64
    return np.reshape(np.eye(size, dtype=dtype), (size,) + shape)


@functools.cache
def _redefines_operators(kind):
    return any(getattr(kind, name, None) is not getattr(_NDARRAY, name) for name in _OPERATORS)


def readonly(value, call):
    """``value`` as a call that srcgrad does not see into may take it without changing
    it: an array as a read-only view (an in-place write into it raises NumPy's own
    ValueError instead of silently changing a value being differentiated), a number as
    it is, a tuple item by item. ``ax.plot(x, y)`` with ``y`` differentiated runs as
    ``ax.plot(x, _sg.readonly(y, ".plot()"))``.

    Lists, dicts and other objects holding differentiated values are refused: they
    cannot be made read-only, and passing a copy would change what the call receives."""
    if isinstance(value, _NDARRAY):
        view = value.view()
        view.flags.writeable = False
        return view
    if value is None or isinstance(value, (int, float, complex, str, np.generic)):
        return value
    if type(value) is tuple:
        return tuple(readonly(item, call) for item in value)
    raise TransformError(
        f"a {type(value).__name__} holding values being differentiated is passed to "
        f"`{call}`, whose result is unused and which srcgrad does not see into: it might "
        "change it in place. Pass a tuple of its items or an array")


def set_attribute(obj, name, value):
    """``obj.name = value`` as generated code writes it (``normalize.desugar``)."""
    setattr(obj, name, value)


def refuse_changed_defaults(fn):
    """A derivative's entry found ``fn``'s defaults reassigned since it was generated."""
    name = getattr(fn, "__qualname__", "the function")
    raise TransformError(
        f"{name}.__defaults__ (or __kwdefaults__) was reassigned after srcgrad generated "
        "this derivative, whose "
        f"signature holds the defaults {name} had then; make the derivative again "
        f"(sg.grad({name}) ...) to use the new ones")


def without_derivative(value, message, obj, name):
    """``value``, about to be written as ``obj.name`` on a value being differentiated,
    when neither it nor what ``obj.name`` holds now holds a float (an int, a bool, a
    string, None, an integer array, a container of those): such an attribute carries no
    derivative. Else a TransformError (``message``)."""
    if _holds_no_float(value) and _holds_no_float(getattr(obj, name, None)):
        return value
    raise TransformError(message)


def _holds_no_float(value):
    if value is None or isinstance(value, (bool, int, str, bytes, np.integer, np.bool_)):
        return True
    if isinstance(value, _NDARRAY):
        return value.dtype.kind in "biuSU"
    if isinstance(value, (tuple, list, set, frozenset)):
        return all(_holds_no_float(item) for item in value)
    if isinstance(value, dict):
        return all(_holds_no_float(k) and _holds_no_float(v) for k, v in value.items())
    return False


set_attribute.__srcgrad_runs_user_code__ = True  # type: ignore[attr-defined]  # (a setter)


def refuse_read_back(message):
    """In place of an escape that the function may read back (``analysis.escapes``)
    where it runs only on some paths (``if ax: ax.plot(x, y)``): reached, it is an
    error, never a derivative without what the call kept."""
    raise TransformError(message)


_ESCAPES = threading.local()


def escaped():
    """Count, per thread, that generated code let a differentiated value out (it runs
    just before the escape: see ``modes.calls.escape_statement``)."""
    _ESCAPES.count = getattr(_ESCAPES, "count", 0) + 1


def escape_count():
    return getattr(_ESCAPES, "count", 0)


def refuse_if_escaped(before, message):
    """After a call to a function that may let a differentiated value out (``if ax:
    ax.plot(x, y)`` inside it), where the caller then reads what that could have kept:
    an error if it did (``escape_count()`` moved from ``before``)."""
    if escape_count() != before:
        raise TransformError(message)


class unsuppressed:
    """A ``with`` item as the forward sweep of reverse mode runs it: the body's adjoint is
    the adjoint of every statement in it, which is right only when the body completes or
    its exception propagates. A context manager that swallows the exception
    (``contextlib.suppress``) would leave statements without their saved values, so that
    is an error naming the line::

        with suppress(ValueError):    ->    with _sg.unsuppressed(suppress(ValueError), 7):
            y = np.log(x)                       y = np.log(x)
    """

    __slots__ = ("manager", "line")

    def __init__(self, manager, line):
        self.manager = manager
        self.line = line

    def __enter__(self):
        return type(self.manager).__enter__(self.manager)

    def __exit__(self, kind, error, trace):
        if not type(self.manager).__exit__(self.manager, kind, error, trace):
            return False
        raise TransformError(
            f"line {self.line}: the context manager of this `with` swallowed "
            f"{kind.__name__}, raised part-way through its body; srcgrad differentiates a "
            "`with` body that completes or lets its exception propagate. Catch the "
            "exception with try/except instead (the path taken is differentiated)") from error
