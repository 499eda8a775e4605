"""Arrays of other libraries (PyTorch, JAX, array-api-strict, CuPy) in the helpers.

The helpers keep NumPy's fast paths; an array of another library goes through its own
namespace, found with ``array_api_compat`` and called only with the array API
standard's functions (``array_api_extra`` for what the standard lacks), so it never
leaves its library or its device. Dask arrays keep the path they had: NumPy's functions
dispatch to them (``is_duck_array``).

``checked_namespace(xp)``: a parameter a function uses as its array namespace
(``def f(x, xp): return xp.sum(xp.tanh(x))``) is checked to be one when it runs::

    xp = _sg.checked_namespace(xp)
"""

from __future__ import annotations

import linecache
import re
import types

import numpy as np

from srcgrad.errors import TransformError

__all__ = ["checked_namespace", "foreign_namespace", "is_foreign", "namespace_of",
           "reduced_count", "refuse_mixed_libraries", "refuse_numpy_calls"]

_NDARRAY = np.ndarray
_NUMPY_TYPES = (np.ndarray, np.generic, float, int, complex, bool)


def is_foreign(x):
    """Is ``x`` an array of a library other than NumPy that NumPy's functions do not
    dispatch to (a torch tensor, a JAX or array-api-strict array; not a dask array)?"""
    kind = type(x)
    if kind is _NDARRAY or kind is float or isinstance(x, _NUMPY_TYPES) \
            or hasattr(kind, "__array_function__") or isinstance(x, type):
        return False   # (a class, such as np.float64, is no array)
    import array_api_compat

    return array_api_compat.is_array_api_obj(x)


def namespace_of(*values):
    """The array API namespace of the arrays among ``values`` (numbers and ``None`` are
    skipped); NumPy's own module when none is another library's."""
    import array_api_compat

    arrays = [v for v in values if is_foreign(v)]
    if not arrays:
        return np
    return array_api_compat.array_namespace(*arrays)


def foreign_namespace(*values):
    """``namespace_of(values)`` when one of them is another library's array, else None:
    the test a helper's NumPy fast path is kept behind."""
    for value in values:
        if type(value) is not _NDARRAY and is_foreign(value):
            return namespace_of(*values)
    return None


def reduced_count(x, axis):
    """How many elements of ``x`` a reduction over ``axis`` (None: all) combines."""
    shape = tuple(x.shape)
    axes = range(len(shape)) if axis is None else (
        axis if isinstance(axis, tuple) else (axis,))
    count = 1
    for ax in axes:
        count *= shape[ax]
    return count


def checked_namespace(xp):
    """``xp``, a parameter the function calls the standard's functions through, if it is
    an array namespace (``array_api_compat`` knows it, or it states the standard's
    version); else a TransformError: srcgrad reads ``xp.tanh`` as the standard's tanh."""
    import array_api_compat

    if getattr(xp, "__array_api_version__", None) is not None or (
            isinstance(xp, types.ModuleType)
            and any(check(xp) for check in _NAMESPACE_CHECKS(array_api_compat))):
        return xp
    raise TransformError(
        f"srcgrad reads this function's parameter as an array API namespace (it calls the "
        f"standard's functions through it, as `xp.tanh(x)`), but it is given "
        f"{type(xp).__qualname__} {xp!r:.60}, which is not one. Pass "
        "array_api_compat.array_namespace(x), or call the functions another way")


def _NAMESPACE_CHECKS(compat):
    return (compat.is_numpy_namespace, compat.is_torch_namespace, compat.is_jax_namespace,
            compat.is_cupy_namespace, compat.is_dask_namespace,
            compat.is_array_api_strict_namespace)


def refuse_mixed_libraries(args):
    """Raise a TransformError if ``args`` (an entry's arguments, pytrees flattened one
    level) hold arrays of two libraries: the rules call one namespace per function."""
    import array_api_compat

    seen = {}
    for arg in args:
        if isinstance(arg, (list, tuple)):
            items = arg
        elif isinstance(arg, dict):
            items = arg.values()
        else:
            items = (arg,)
        for item in items:
            if isinstance(item, np.ndarray) or is_foreign(item) or (
                    hasattr(type(item), "__array_function__") and hasattr(item, "shape")):
                name = _library(item, array_api_compat)
                seen.setdefault(name, type(item).__qualname__)
    if len(seen) > 1 and set(seen) != {"numpy", "dask"}:
        found = ", ".join(f"{lib} ({kind})" for lib, kind in seen.items())
        raise TransformError(
            f"srcgrad differentiates one array library per call, but the arguments mix "
            f"{found}. Convert them to one library first (a NumPy array with "
            "xp.asarray(a) in the other's namespace)")


def _library(x, compat):
    if isinstance(x, np.ndarray):
        return "numpy"
    if compat.is_dask_array(x):
        return "dask"
    return type(x).__module__.split(".")[0]


_NUMPY_CALL = re.compile(r"\bnp\.([A-Za-z_][\w.]*)\(")


def refuse_numpy_calls(frame, args):
    """Raise a TransformError if the generated function running in ``frame`` calls a
    NumPy function while its arguments are another library's arrays: NumPy would turn
    them into its own (or fail deep inside). The error names the call, the user's line
    it comes from, and the arrays' namespace."""
    code = frame.f_code
    if not code.co_filename.startswith("<srcgrad"):
        return
    lines = linecache.getlines(code.co_filename)[code.co_firstlineno:]
    for line in lines:
        if line.startswith("def "):   # the next generated function
            break
        body, _, comment = line.partition("#")
        found = _NUMPY_CALL.search(body)
        if found is None:
            continue
        xp = namespace_of(*[a for a in args if is_foreign(a)])
        raise TransformError(_numpy_call_message(found.group(1), comment.strip(), xp))


def _numpy_call_message(name, where, xp):
    """The refusal of ``np.<name>`` on ``xp``'s arrays; ``where``: the generated line's
    comment, ``from FILE:LINE: <the user's line>``."""
    user_line = where.split(": ", 1)[-1]
    if "np." in user_line or not where:
        return (f"srcgrad: `np.{name}` ({where}) is a NumPy function, but this function "
                f"is given arrays of the namespace {xp.__name__}: NumPy would turn them "
                "into its own arrays. Write the function against the array API standard "
                "(`xp = array_namespace(x)`, then `xp.tanh(x)`, `xp.sum(x, axis=0)`), "
                "whose derivatives run on the arrays' own library")
    return (f"srcgrad: a derivative of this order through `{user_line}` ({where}) is "
            f"supported on NumPy arrays only so far: srcgrad's rule for it calls "
            f"`np.{name}`, and this function is given arrays of the namespace "
            f"{xp.__name__}")
