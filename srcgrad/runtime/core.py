"""The helpers every generated function uses: zeros, accumulation, items, structure, seeds.

Arrays, dtypes, shapes and ``unbroadcast`` are in ``runtime.shapes`` (imported here too).
"""

from __future__ import annotations

import copy
import re
import sys
import types

import numpy as np

from srcgrad.errors import NoneOutputError, TransformError
from srcgrad.runtime import foreign
from srcgrad.runtime.namespaces import foreign_namespace

# Read from here too (by the runtime's other modules and by ``_sg``): kept importable.
from srcgrad.runtime.shapes import (  # noqa: F401
    _FLOAT,
    _NDARRAY,
    _SCALAR_TYPES,
    SavedShape,
    _float_dtype,
    as_array,
    asarray,
    dtype_of,
    is_duck_array,
    shape_of,
    sum_to_shape,
    unbroadcast,
)
from srcgrad.runtime.structures import (  # noqa: F401
    add_structures,
    as_sparse,
    attr_cotangent,
    field_tangent,
    field_tangent_object_adjoint,
    field_tangent_object_cotangent,
    field_tangent_object_term,
    field_tangent_transpose,
    fields_of,
    is_structure,
    property_cotangent,
    property_curvature,
    property_free,
    property_getter,
    property_object_adjoint,
    property_vjp_cotangents,
    refuse_property_tangent,
)

_ONE64 = np.float64(1.0)
# The zero cotangent of a Python number (``zeros_like``): one object, so that a sweep on
# Python floats can tell a cotangent nothing was added to (``floats.float64_cotangent``).
FLOAT_ZERO = 0.0


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


_DICT_VIEWS: tuple[type, ...] = (type({}.keys()), type({}.values()), type({}.items()))


def dict_values(d):
    """``list(d.values())``: what ``d.values()`` is differentiated as (on a dict only:
    the receiver was not proven one, so it is checked here)."""
    _require_mapping(d, "values")
    return list(d.values())


def dict_items(d):
    """``list(d.items())``: what ``d.items()`` is differentiated as (on a dict only)."""
    _require_mapping(d, "items")
    return list(d.items())


def _require_mapping(d, method):
    if not isinstance(d, dict):
        raise TypeError(f"srcgrad differentiates `.{method}()` as the dict method, but it "
                        f"was called on a {type(d).__name__}")


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
        return FLOAT_ZERO
    if is_duck_array(x):   # a dask array: lazy zeros of its kind
        return np.zeros_like(x, dtype=_float_dtype(x))
    xp = foreign_namespace(x)
    if xp is not None:
        return foreign.xp_zeros_like(xp, x)
    return {}


def add_at(dx, index, g):
    """``dx[index] += g``, in place, correct for repeated fancy indices; returns ``dx``."""
    kind = type(dx)
    if kind is _NDARRAY and (type(index) is int or type(index) is slice):
        if dx.ndim > 1 or type(index) is slice:   # a view: no copy back into dx
            view = dx[index]
            view += g
        else:
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
    xp = foreign_namespace(dx)
    if xp is not None:
        return foreign.xp_add_at(xp, dx, index, g, copy=False)
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
    if kind is not _NDARRAY and type(b) is not _NDARRAY and (_no_cotangent(a) or _no_cotangent(b)):
        # the 0.0 a call resolved when it runs gives an argument it does not differentiate
        # (``dynamic_backward``), beside a container's or an object's cotangent
        return b if _no_cotangent(a) else a
    if kind is list or kind is tuple:
        _check_lengths(a, b)
        return kind(add_cotangents(x, y) for x, y in zip(a, b))
    if kind is float and a == 0.0 and (type(b) is dict or is_structure(b)):
        return dict(b) if type(b) is dict else b   # a float zero (a slot not asked for)
    if type(b) is float and b == 0.0 and (kind is dict or is_structure(a)):
        return dict(a) if kind is dict else a
    if kind is dict or type(b) is dict:   # a sparse dict of fields, or an object's
        out = dict(as_sparse(a))
        for key, value in as_sparse(b).items():
            out[key] = add_cotangents(out[key], value) if key in out else value
        return out
    if is_structure(a):   # the same NamedTuple or object type: field by field
        return add_structures(a, b, add_cotangents)
    return a + b


def _no_cotangent(x):
    return type(x) is float and x == 0.0


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


def field_cotangent_transpose(g, v, index, name):
    """The transpose of ``field_cotangent(v, index, name, value)`` in ``v``: ``g`` at
    every key of the sparse dict ``v`` that holds the field (its name, its position or
    both, which ``field_cotangent`` adds), else at its name."""
    return {key: g for key in _field_keys(v, index, name)}


def field_keys_sum(h, v, index, name, w):
    """The transpose of ``field_cotangent_transpose(w, v, index, name)`` in ``w``: the
    sum of ``h`` at the keys that gave ``w`` out (zeros like ``w`` where ``h`` has
    none of them). ``h``, a dict's cotangent, is a dict or a symbolic zero."""
    if h is not None and type(h) is not dict:
        raise TypeError(f"srcgrad: the cotangent of a field's sparse cotangent is a "
                        f"{type(h).__name__}, not a dict; please report this program")
    parts = [h[key] for key in _field_keys(v, index, name)
             if h is not None and h.get(key) is not None]
    if not parts:
        return zeros_like(w)
    return parts[0] if len(parts) == 1 else add_cotangents(parts[0], parts[1])


def _field_keys(v, index, name):
    if type(v) is dict:
        keys = [key for key in (name, index) if key in v]
        if keys:
            return keys
    return [name]


def is_own_method(x, name):
    """Is ``x.name`` a method bound to ``x`` (``x.reshape``)? The cotangent of such a
    bound method, as a call's callee, is its receiver's (``dynamic_backward``)."""
    if property_getter(x, name) is not None:
        return False
    found = getattr(type(x), name, None)
    return callable(found) and not isinstance(found, (staticmethod, classmethod, type)) \
        and isinstance(getattr(x, name, None), (types.MethodType, types.BuiltinMethodType)) \
        and getattr(getattr(x, name), "__self__", None) is x


def attr_item_adjoint(dx, name, item, obj=None):
    """The cotangent of ``item`` in ``add_attr(dx, name, item, obj)``: the field's, or
    the whole receiver's for a method bound to ``obj``; for a property, the getter's
    jvp along ``dx`` (through ``property_vjp_cotangents``)."""
    if obj is not None and property_getter(obj, name) is not None:
        _, d_item = property_vjp_cotangents(dx, name, item, obj)
        return zeros_like(item) if d_item is None else d_item
    if obj is not None and is_own_method(obj, name):
        return snapshot(dx)
    if type(dx) not in (dict, list, tuple) and is_structure(dx):
        dx = fields_of(dx)   # an object's cotangent as an object of its type
    return item_adjoint(dx, _field_key(dx, name, obj), item)


def field_item_adjoint(dx, name, item, obj=None):
    """``attr_item_adjoint`` for a field or a method (what its rows differentiate; a
    property's is differentiated through ``compiler.dispatch_properties``)."""
    if obj is not None and property_getter(obj, name) is not None:
        raise TransformError(f"srcgrad: internal error: field_item_adjoint of the property "
                             f"`{type(obj).__name__}.{name}`")
    return attr_item_adjoint(dx, name, item, obj)


def _field_key(dx, name, obj):
    """Where the field ``name`` of the NamedTuple ``obj`` sits in its cotangent ``dx``:
    at its name in a sparse dict, at its position in a list of its items."""
    if type(dx) is list and hasattr(obj, "_fields") and isinstance(obj, tuple):
        return obj._fields.index(name)
    return name


def add_attr(dx, name, g, obj=None):
    """The cotangent of ``obj.name`` added into ``obj``'s (sparse, dict) cotangent. When
    ``name`` is a property of ``obj``'s type, its getter is differentiated as a method is
    (run again here, where the backward sweep has restored what it read) and the
    cotangent it gives ``obj`` is added field by field."""
    if obj is not None and is_own_method(obj, name):   # x.reshape: the receiver's cotangent
        if type(dx) is _NDARRAY:
            dx += g
            return dx
        for key, value in as_sparse(g).items():
            dx[key] = add_cotangents(dx[key], value) if key in dx else value
        return dx
    getter = None if obj is None else property_getter(obj, name)
    if getter is None:
        key = _field_key(dx, name, obj)
        if type(key) is int:
            dx[key] = g if dx[key] is None else add_cotangents(dx[key], g)
        else:
            dx[key] = add_cotangents(dx[key], g) if key in dx else g
        return dx
    for key, value in property_cotangent(getter, obj, g).items():
        dx[key] = add_cotangents(dx[key], value) if key in dx else value
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
    if type(dx) is dict:   # (None: a zero, as get_item reads it)
        g = dx.get(index)
        return zeros_like(value) if g is None else g
    g = dx[index]
    if g is None:
        return zeros_like(value)
    if type(g) is _NDARRAY:
        return unbroadcast(g.copy(), value)
    if isinstance(g, (list, tuple, dict)):   # a container item's cotangent (saved values)
        return g
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
    if type(dx) is dict:   # (None: put back for an item popped and dropped, d.pop(k))
        item = dx.get(index)
        return zeros_like(value) if item is None else item
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
    """A copy of ``value`` that later in-place writes cannot change (a tuple's cotangent,
    about to be written into item by item, as the list ``zeros_like`` makes for one)."""
    if type(value) is _NDARRAY:
        return value.copy()
    if hasattr(value, "_fields") and isinstance(value, tuple):   # a NamedTuple's: by
        return dict(fields_of(value))   # name, as add_attr writes (restructure reads both)
    if type(value) is list or isinstance(value, tuple):
        return list(value)
    if type(value) is dict:
        return dict(value)
    xp = foreign_namespace(value)
    if xp is not None:
        return foreign.xp_snapshot(xp, value)
    if is_structure(value):   # an object's cotangent as its sparse dict of fields, which
        return dict(fields_of(value))   # add_attr writes into (restructure: the object)
    return value


_CALLABLES = (types.FunctionType, types.BuiltinFunctionType, types.MethodType, type,
              type(np.sum), np.ufunc)   # (NumPy's functions are dispatchers)


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
    if isinstance(dx, dict) and hasattr(x, "__dict__") and not is_duck_array(x) \
            and not isinstance(x, _CALLABLES):   # a function passed along carries nothing
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
    """The cotangent 1 for ``grad``'s scalar output, or an array output of one element
    (error for anything else). A float64
    output gets a float64 one, so that the backward sweep keeps NumPy's arithmetic (a
    division by zero gives inf, as in the primal, rather than raising)."""
    if type(ans) is _FLOAT:
        return 1.0
    if type(ans) is np.float64:
        return _ONE64
    if ans is None:
        raise NoneOutputError()
    if isinstance(ans, np.ndarray) and ans.size == 1 and ans.dtype.kind == "f":
        return np.ones_like(ans)   # shape (1,) or (1, 1): one number, as autograd takes it
    xp = foreign_namespace(ans)
    if xp is not None:
        return foreign.xp_seed(xp, ans, _api_name())
    if np.ndim(ans) != 0 and not (isinstance(ans, np.ndarray) and ans.size == 1) \
            or isinstance(ans, (list, tuple, dict)):
        raise TypeError(
            f"{_api_name()} requires a scalar output; the function returned shape "
            f"{np.shape(ans)}. Use sg.vjp or sg.jacobian for non-scalar outputs.")
    kind = dtype_of(ans).kind
    if kind == "c":
        raise TypeError(complex_output_message(_api_name(), dtype_of(ans)))
    if kind != "f":
        raise TypeError(f"{_api_name()} requires a float output; the function returned "
                        f"{type(ans).__name__}")
    return np.ones_like(ans)[()] if isinstance(ans, (np.ndarray, np.generic)) else 1.0


def complex_output_message(api, dtype):
    """Why ``api`` refuses a complex output, and the ways to ask for a derivative."""
    return (f"{api} requires a real output; the function returned {dtype} (the gradient "
            "of a complex value is not defined). Differentiate a real function of it, "
            "np.real(f(x)) or np.abs(f(x)) ** 2; for a holomorphic f, take "
            "sg.vjp(f)(x)[1](1.0) (f'(x)) or sg.jvp(f)(x, 1.0)")


_ROLE = re.compile(r"(value_and_grad|grad_jvp|grad)(_scalars)?(_\d+)?(_fn)?$")
_APIS = {"value_and_grad": "sg.value_and_grad", "grad_jvp": "sg.hvp (or sg.hessian)",
         "grad": "sg.grad"}


def _api_name():
    """The API whose generated function called ``seed``, read from the caller's name,
    which srcgrad made: ``f_grad``, ``f_value_and_grad``, ``f_grad_jvp`` (``_scalars``,
    ``_1``: a variant, a name taken), ``grad_fn`` (``has_aux``)."""
    found = _ROLE.search(sys._getframe(2).f_code.co_name)
    return _APIS[found.group(1)] if found else "sg.grad"


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
