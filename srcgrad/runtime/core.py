"""The helpers every generated function uses: shapes, zeros, accumulation, seeds."""

from __future__ import annotations

import copy
import math

import numpy as np

from srcgrad.errors import TransformError

_FLOAT = float
_NDARRAY = np.ndarray
# NumPy's own function (its row in the rule table applies): what normalize.sequence_operands
# writes around a list given to an elementwise NumPy function.
asarray = np.asarray


def dtype_of(a):
    """``a``'s dtype, read without converting it: an array-like (a dask array, say) keeps
    its laziness; Python scalars and lists go through ``np.result_type``/``np.asarray``."""
    dtype = getattr(a, "dtype", None)
    if isinstance(dtype, np.dtype):
        return dtype
    if isinstance(a, (list, tuple)):
        return np.asarray(a).dtype
    return np.result_type(a)


def _float_dtype(a):
    dtype = dtype_of(a)
    return dtype if dtype.kind in "fc" else np.float64


def is_duck_array(x):
    """Is ``x`` another library's array that NumPy functions dispatch to (a dask array):
    not an ndarray, with a shape, a dtype and ``__array_function__``? Helpers keep such a
    value as it is (lazy) and work on it through NumPy functions."""
    kind = type(x)
    return (kind is not _NDARRAY and hasattr(kind, "__array_function__")
            and hasattr(x, "shape") and hasattr(x, "dtype")
            and not isinstance(x, (np.ndarray, np.generic)))


def as_array(x, dtype=None):
    """``x`` as an array without computing it: an ndarray or another library's array (a
    dask array stays lazy) as it is, cast to ``dtype`` when given; a number or a list
    through ``np.asarray``. Before/after: ``np.asarray(x, dtype=float)`` ->
    ``as_array(x, float)``."""
    if type(x) is _NDARRAY or is_duck_array(x) or isinstance(x, np.ndarray):
        if dtype is None or x.dtype == dtype:
            return x
        return x.astype(dtype)
    return np.asarray(x, dtype=dtype)


_SCALAR_TYPES = (float, int, np.float64)
_ONE64 = np.float64(1.0)


def all_scalars(*args):
    """Are all arguments plain scalars (float, int, float64)? Then the version of a
    gradient specialized for scalars applies."""
    for arg in args:
        if type(arg) not in _SCALAR_TYPES:
            return False
    return True


def stop_gradient(x):
    """``x`` itself; in differentiated code its result carries no derivative (it is a
    constant to every mode, as in JAX)."""
    return x


# -- shapes and zeros ------------------------------------------------------------------
class SavedShape:
    """What ``unbroadcast``, ``sum_adjoint``, ``mean_adjoint`` and ``zeros_like`` read of
    an array: its shape and dtype. Saved in a loop in place of an array the backward sweep
    reads only so, so that the array itself can be freed (``optimize.shape_saves``)."""

    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape, self.dtype = shape, dtype


def shape_of(x):
    """``x`` as a shape to save: a ``SavedShape`` for an array, else ``x`` itself."""
    return SavedShape(x.shape, x.dtype) if type(x) is _NDARRAY else x


def unbroadcast(g, x):
    """Sum ``g`` over the axes that broadcasting added to or stretched in ``x`` (an
    array, a scalar or a ``SavedShape``) and keep the real part of a complex ``g`` for a
    real ``x``."""
    kind = type(x)
    if kind is _NDARRAY or kind is SavedShape:
        if type(g) is _NDARRAY and g.shape == x.shape and g.dtype is x.dtype:
            return g
        shape, real = x.shape, x.dtype.kind != "c"
    elif kind is _FLOAT and type(g) is _NDARRAY and g.dtype.kind == "f":
        # A Python float's cotangent: g summed over all its axes, as ``sum_to_shape``
        # sums them (one reduction), without reading the float's shape and dtype.
        return g.sum(axis=tuple(range(g.ndim)))[()]
    elif kind is list or kind is tuple:
        shape, real = _sequence_operand_shape(g, x), dtype_of(x).kind != "c"
    elif type(g) is not _NDARRAY and (type(g) in _SCALAR_TYPES or not is_duck_array(g)):
        return g.real if type(g) is complex and kind is not complex else g
    else:
        shape, real = np.shape(x), dtype_of(x).kind != "c"
    if not hasattr(g, "shape"):   # a number; arrays of other libraries (dask) stay lazy
        g = np.asarray(g)
    if g.dtype.kind == "c" and real:
        g = g.real
    g = sum_to_shape(g, shape)
    if kind is not _NDARRAY and kind is not SavedShape:
        return g[()] if g.ndim == 0 else g
    return g


def _sequence_operand_shape(g, x):
    """The shape of the list or tuple operand ``x`` of an arithmetic rule, after checking
    the result was an array NumPy broadcast it to: a result that is a sequence again, or
    of a shape ``x`` does not broadcast to, was a concatenation or a repetition (``a + b``,
    ``a * 2`` on lists), which the arithmetic rules do not describe."""
    shape = np.shape(x)
    if type(g) is not list and type(g) is not tuple:
        try:
            if np.broadcast_shapes(shape, np.shape(g)) == np.shape(g):
                return shape
        except ValueError:
            pass
    from srcgrad.errors import TransformError

    raise TransformError(
        f"srcgrad differentiates + and * as arithmetic, but an operand here is a "
        f"{type(x).__name__} and the result is not the array NumPy's arithmetic makes: "
        "concatenation or repetition of Python sequences is not differentiated. Convert "
        "with np.asarray(...) first, or use np.concatenate / np.tile")


# (length, dtype) -> a row of ones, the left factor of a summing matmul
_ONES: dict[tuple[int, np.dtype], np.ndarray] = {}


def sum_to_shape(g, shape):
    """``g`` summed over the axes that broadcasting to ``g.shape`` added to or stretched
    in ``shape``, in one reduction. A block of axes with a short inner remainder (``(25,
    1000, 10)`` to ``(25, 1, 10)``) is summed as a product with a row of ones: NumPy's
    reduction walks it ten elements at a time, a BLAS product in one pass (20x faster)."""
    lead = g.ndim - len(shape)
    if lead < 0:
        g = g.reshape((1,) * -lead + g.shape)
        lead = 0
    gshape = g.shape
    axes = list(range(lead))
    for axis, size in enumerate(shape):
        if size == 1 and gshape[lead + axis] != 1:
            axes.append(lead + axis)
    if not axes:
        return g if lead == 0 else g.reshape(shape)
    first, stop = axes[0], axes[-1] + 1
    if stop - first == len(axes) and type(g) is _NDARRAY and g.dtype.kind in "fc" \
            and g.size >= 256 and g.flags.c_contiguous:
        post = math.prod(gshape[stop:])
        if post > 1:
            m = math.prod(gshape[first:stop])
            key = (m, g.dtype)
            ones = _ONES.get(key)
            if ones is None:
                if len(_ONES) > 64:
                    _ONES.clear()
                ones = _ONES[key] = np.ones((1, m), dtype=g.dtype)
            pre = math.prod(gshape[:first])
            if pre == 1:
                return np.matmul(ones, g.reshape(m, post)).reshape(shape)
            return np.matmul(ones, g.reshape(pre, m, post)).reshape(shape)
    return g.sum(axis=tuple(axes)).reshape(shape)


_DICT_VIEWS: tuple[type, ...] = (type({}.keys()), type({}.values()), type({}.items()))


def dict_values(d):
    """``list(d.values())``: what ``d.values()`` is differentiated as."""
    return list(d.values())


def dict_items(d):
    """``list(d.items())``: what ``d.items()`` is differentiated as."""
    return list(d.items())


def dict_values_adjoint(g, d):
    """The cotangent of ``d`` from that of ``list(d.values())`` (a list, or a sparse dict
    keyed by position)."""
    items = g.items() if type(g) is dict else enumerate(g)
    keys = list(d)
    return {keys[i]: gi for i, gi in items}


def dict_items_adjoint(g, d):
    """The cotangent of ``d`` from that of ``list(d.items())``: each pair's second part."""
    items = g.items() if type(g) is dict else enumerate(g)
    keys = list(d)
    out = {}
    for i, pair in items:
        value = get_item(pair, 1, d[keys[i]]) if isinstance(pair, (list, dict)) else pair
        out[keys[i]] = value
    return out


def zeros_like(x):
    """A zero cotangent shaped like ``x``: floats stay floats, ints become floats; a list
    or tuple gets a list of zeros; a dict or another object gets an empty (sparse) dict
    that ``restructure`` fills in. A ``None`` item of a list (a zero not built, see
    ``slots_like``) stays ``None``."""
    if type(x) is _NDARRAY or type(x) is SavedShape:
        return np.zeros(x.shape, dtype=x.dtype if x.dtype.kind in "fc" else np.float64)
    if (isinstance(x, (list, tuple)) and not hasattr(x, "_fields")) or isinstance(x, _DICT_VIEWS):
        return [None if v is None else zeros_like(v) for v in x]
    if isinstance(x, np.generic):
        return x.dtype.type(0) if x.dtype.kind in "fc" else 0.0
    if isinstance(x, (int, float, complex)) or x is None:
        return 0.0
    if is_duck_array(x):   # a dask array: lazy zeros of its kind
        return np.zeros_like(x, dtype=_float_dtype(x))
    return {}


def add_at(dx, index, g):
    """``dx[index] += g``, in place, correct for repeated fancy indices; returns ``dx``."""
    kind = type(dx)
    if kind is _NDARRAY and (type(index) is int or type(index) is slice):
        dx[index] += g
        return dx
    if kind is dict:
        dx[index] = add_cotangents(dx[index], g) if index in dx else g
        return dx
    if kind is list:   # a slot holding None is a zero not built (see ``slots_like``)
        if isinstance(index, slice):
            for i, gi in zip(range(*index.indices(len(dx))), g):
                dx[i] = add_cotangents(dx[i], gi)
        else:
            item = dx[index]
            dx[index] = g if item is None else add_cotangents(item, g)
        return dx
    if _is_basic_index(index):
        dx[index] += g
    elif kind is _NDARRAY or not is_duck_array(dx):
        np.add.at(dx, index, g)
    else:
        _duck_add_at(dx, index, g)
    return dx


def _duck_add_at(dx, index, g):
    """``np.add.at`` for another library's array (dask: no ``ufunc.at``), lazily: a
    boolean mask as one ``dx[index] += g``; an integer list or array (alone, or along one
    axis with full slices around it) in layers that each hold an index at most once."""
    if isinstance(index, np.ndarray) and index.dtype == bool:
        dx[index] += g
        return
    found = _one_integer_axis(index)
    if found is None:
        raise TypeError("srcgrad: cannot add a cotangent into a "
                        f"{type(dx).__module__}.{type(dx).__qualname__} at the index "
                        f"{index!r} (ints, slices, a NumPy boolean mask, and an integer list or "
                        "array along one axis work)")
    axis, positions = found
    shape = tuple(np.shape(dx))
    flat = np.ravel(positions) % shape[axis]
    pieces = np.reshape(g, shape[:axis] + (flat.size,) + shape[axis + 1:])
    order = np.argsort(flat, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(flat.size) - np.searchsorted(flat[order], flat[order])
    lead = (slice(None),) * axis
    for layer in range(int(rank.max(initial=-1)) + 1):
        where = np.flatnonzero(rank == layer)
        dx[lead + (flat[where],)] += np.take(pieces, where, axis=axis)


def _one_integer_axis(index):
    """``(axis, integer positions)`` when ``index`` picks along one axis only: an integer
    list or array, or a tuple of full slices around one; else None."""
    items = index if type(index) is tuple else (index,)
    picks = [k for k, item in enumerate(items) if isinstance(item, list) or (
        isinstance(item, np.ndarray) and item.dtype.kind in "iu")]
    full = all(k in picks or (type(items[k]) is slice and items[k] == slice(None))
               for k in range(len(items)))
    if len(picks) != 1 or not full:
        return None
    return picks[0], np.asarray(items[picks[0]], dtype=np.intp)


def add_cotangents(a, b):
    """``a + b`` for cotangents that may be containers: lists and tuples add item by item,
    (sparse) dicts key by key; ``None`` (a zero not built) adds nothing."""
    kind = type(a)
    if (kind is _NDARRAY or kind is float) and type(b) is kind:
        return a + b
    if a is None:
        return b
    if b is None:
        return a
    if kind is list or kind is tuple:
        _check_lengths(a, b)
        return kind(add_cotangents(x, y) for x, y in zip(a, b))
    if type(a) is dict:
        out = dict(a)
        for key, value in b.items():
            out[key] = add_cotangents(out[key], value) if key in out else value
        return out
    return a + b


def _check_lengths(a, b):
    if len(a) != len(b):
        raise ValueError(f"cotangents of {len(a)} and {len(b)} items cannot be added: "
                         "the value they belong to changed length")


def field_cotangent(g, index, name, value):
    """The cotangent of a NamedTuple's or dataclass's field ``name`` (position ``index``)
    in ``g``: the structure itself, or a sparse dict of the fields read (by name, or by
    position for a NamedTuple); zeros like ``value`` when nothing flowed to it."""
    if type(g) is dict:
        parts = [g[key] for key in (name, index) if key in g]
        if not parts:
            return zeros_like(value)
        return parts[0] if len(parts) == 1 else add_cotangents(parts[0], parts[1])
    if isinstance(g, tuple):
        return g[index]
    return getattr(g, name)


def field_tangent(x, x_dot, name):
    """The tangent of ``x.name`` for a NamedTuple or dataclass ``x``: ``x_dot.name``. An
    attribute of anything else (an array's, say) has no tangent rule: an error, not a
    guess."""
    if isinstance(x, (_NDARRAY, np.generic, int, float, complex)) or not (
            isinstance(x, tuple) or hasattr(x, "__dict__") or hasattr(x, "__slots__")):
        raise TypeError(f"forward mode has no tangent for the attribute .{name} of a "
                        f"{type(x).__name__}")
    return getattr(x_dot, name)


def add_attr(dx, name, g):
    """The cotangent of ``obj.name`` added into ``obj``'s (sparse, dict) cotangent."""
    dx[name] = add_cotangents(dx[name], g) if name in dx else g
    return dx


def _is_basic_index(index):
    """Does ``index`` select each element at most once (ints, slices, None, ``...``)? A
    tuple inside the index is a sequence, which NumPy reads as a fancy index."""
    kind = type(index)
    if kind is int or kind is slice:
        return True
    if kind is tuple:
        for item in index:
            kind = type(item)
            if not (kind is slice or kind is int or item is None or item is Ellipsis
                    or isinstance(item, (int, np.integer))):
                return False
        return True
    return index is None or index is Ellipsis or isinstance(index, (np.integer, int, slice))


def item_adjoint(dx, index, value):
    """The cotangent of ``value`` in ``x[index] = value``: a copy of ``dx[index]``."""
    if type(dx) is dict:
        return dx[index] if index in dx else zeros_like(value)
    g = dx[index]
    if g is None:
        return zeros_like(value)
    g = g.copy() if type(g) is _NDARRAY else g
    return unbroadcast(g, value)


def clear_item(dx, index):
    """Zero the cotangent of ``x[index]`` (overwritten by ``x[index] = value``)."""
    if type(dx) is dict:
        dx.pop(index, None)
    else:
        dx[index] = 0.0 if type(dx) is list else 0


def get_item(dx, index, value):
    """``dx[index]``, or zeros shaped like ``value`` when a sparse cotangent lacks it or
    ``clear_item`` left a scalar 0.0 in a list slot whose item is an array (None: a
    symbolic zero slot)."""
    if type(dx) is dict:
        return dx[index] if index in dx else zeros_like(value)
    item = dx[index]
    if item is None or (type(item) is float and item == 0.0 and np.ndim(value)):
        return zeros_like(value)
    return item


MISSING = object()


def saved_item(x, index):
    """A copy of ``x[index]`` before an overwrite (``MISSING`` for a new dict key)."""
    if type(x) is dict and index not in x:
        return MISSING
    return snapshot(x[index])


def restore_item(x, index, value):
    """Undo ``x[index] = ...`` with the value ``saved_item`` returned."""
    if value is MISSING:
        del x[index]
    else:
        x[index] = value


def pop_last(dlist, count=None):
    """Adjoint of ``list.append`` (``count=None``) or ``list.extend``: remove and return
    the cotangents of the last item(s)."""
    if count is None:
        return dlist.pop()
    if count == 0:
        return []
    tail = dlist[-count:]
    del dlist[-count:]
    return tail


def snapshot(value):
    """A copy of ``value`` that later in-place writes cannot change."""
    if type(value) is _NDARRAY:
        return value.copy()
    if type(value) is list:
        return list(value)
    if type(value) is dict:
        return dict(value)
    return value


def restructure(dx, x):
    """Give a cotangent the structure of its primal: a tuple for a tuple, the same
    NamedTuple or dataclass type, a dict with every key, zeros where nothing flowed."""
    if dx is None:
        return zeros_like_structure(x)
    if type(x) is _NDARRAY or type(x) is _FLOAT or isinstance(x, (int, np.generic)):
        return dx
    if isinstance(x, dict):
        return {k: restructure(dx[k], v) if k in dx else zeros_like_structure(v)
                for k, v in x.items()}
    if getattr(type(x), "srcgrad_opaque", False):   # a compiled unit in saved values
        return dx
    if hasattr(x, "_fields") and type(dx) is dict:  # NamedTuple: fields by name or index
        items = []
        for i, (name, value) in enumerate(zip(x._fields, x)):
            parts = [dx[k] for k in (name, i) if k in dx]
            grad = parts[0] if len(parts) == 1 else (
                add_cotangents(*parts) if parts else zeros_like(value))
            items.append(restructure(grad, value))
        return type(x)(*items)
    if isinstance(x, (list, tuple)):
        if len(dx) != len(x):
            raise changed_in_place_error(x, len(dx))
        items = [restructure(d, v) for d, v in zip(dx, x)]
        if hasattr(x, "_fields"):
            return type(x)(*items)
        return tuple(items) if isinstance(x, tuple) else items
    if isinstance(dx, dict) and hasattr(x, "__dict__") and not is_duck_array(x):
        result = copy.copy(x)
        for name, value in vars(x).items():
            grad = restructure(dx[name], value) if name in dx else zeros_like_structure(value)
            object.__setattr__(result, name, grad)
        return result
    return dx


def changed_in_place_error(x, count):
    """The error for a list an adjoint reads as it ends, when it held ``count`` items as
    the operation read it (``np.stack(seen)`` and then ``seen.append(v)``)."""
    return TransformError(
        f"a {type(x).__name__} read by an operation being differentiated held {count} items "
        f"then and holds {len(x)} now: it was changed in place (append, pop, insert...) "
        "after that read, and the backward sweep sees it as it ends. Build a new one "
        "instead of changing it (`seen = seen + [v]`)")


def zeros_like_structure(x):
    """Zeros in the full structure of ``x`` (no sparse dicts)."""
    return restructure(zeros_like(x), x)


def seed(ans):
    """The cotangent 1 for ``grad``'s scalar output (error for anything else). A float64
    output gets a float64 one, so that the backward sweep keeps NumPy's arithmetic (a
    division by zero gives inf, as in the primal, rather than raising)."""
    if type(ans) is _FLOAT:
        return 1.0
    if type(ans) is np.float64:
        return _ONE64
    if np.ndim(ans) != 0 or isinstance(ans, (list, tuple, dict)):
        raise TypeError(
            f"grad requires a scalar output; the function returned shape {np.shape(ans)}. "
            "Use sg.vjp or sg.jacobian for non-scalar outputs.")
    kind = dtype_of(ans).kind
    if kind not in "fc":
        raise TypeError(f"grad requires a float output; the function returned {type(ans).__name__}")
    return np.ones_like(ans)[()] if isinstance(ans, (np.ndarray, np.generic)) else 1.0


def sign(x):
    return np.sign(x) if type(x) is _NDARRAY else (1.0 if x > 0 else (-1.0 if x < 0 else 0.0))


# -- sequences ---------------------------------------------------------------------------
def sum_of_sequence_adjoint(g, iterable):
    if type(iterable) is _NDARRAY:
        return np.broadcast_to(g, iterable.shape).copy() if iterable.ndim else g
    return [unbroadcast(g, item) for item in iterable]


def finish(adjoint, primal):
    """The final cotangent of an input: zeros when the adjoint is symbolically zero, and
    a float for a float input."""
    if adjoint is None:
        return zeros_like(primal)
    if type(primal) is _FLOAT and type(adjoint) is not _FLOAT:
        return _FLOAT(adjoint)
    if type(primal) is _NDARRAY and type(adjoint) is not _NDARRAY:
        return np.full(primal.shape, adjoint, dtype=_float_dtype(primal))
    if type(primal) is _NDARRAY and adjoint.dtype != primal.dtype and primal.dtype.kind == "f":
        return adjoint.astype(primal.dtype)
    return adjoint
