"""Adjoints for list and dict operations that generated code calls: list concatenation
(``a + b``), ``d.get(key, default)``, and the transposes of the ``d.values()`` and
``d.items()`` adjoints (for derivatives of generated gradients)."""

import numpy as np

from srcgrad.runtime.core import get_item, unbroadcast, zeros_like
from srcgrad.runtime.tangents import broadcast_like


def concat_part(g, left, right, which):
    """The cotangent of ``left`` (``which == 0``) or ``right`` (1) in ``left + right`` on
    sequences, from the cotangent ``g`` of the concatenation (a list, or a sparse dict
    keyed by position)."""
    offset, size = (0, len(left)) if which == 0 else (len(left), len(right))
    if type(g) is dict:
        return {i - offset: v for i, v in g.items() if offset <= i < offset + size}
    return list(g[offset:offset + size])


def concat_tangents(left, right):
    """The tangent of ``left + right`` on sequences from theirs (a tuple's zero tangent is
    a list, so the two may differ in kind)."""
    if type(left) is type(right):
        return left + right
    return list(left) + list(right)


def sum_part(g, left, right, which):
    """The cotangent of ``left`` (``which == 0``) or ``right`` (1) in ``left + right``
    when the code does not prove it arithmetic: the part of the concatenation for two
    lists or tuples, else ``g`` summed back to the operand's shape."""
    if type(left) in (list, tuple) and type(right) in (list, tuple):
        return concat_part(g, left, right, which)
    return unbroadcast(g, right if which else left)


def sum_part_adjoint(g, v, left, right, which):
    """Transpose of ``sum_part`` in ``v``."""
    if type(left) in (list, tuple) and type(right) in (list, tuple):
        return concat_part_adjoint(g, v, left, right, which)
    return broadcast_like(g, v)


def concat_part_adjoint(g, v, left, right, which):
    """Transpose of ``concat_part`` in ``v``: ``g`` placed where the part's items were."""
    out = zeros_like(v)
    offset = 0 if which == 0 else len(left)
    for i, item in (g.items() if type(g) is dict else enumerate(g)):
        out[offset + i] = item
    return out


def unpacked_part(g, xs, start, after):
    """The cotangent of ``xs`` in a call ``f(..., *xs, ...)``, from the cotangents ``g``
    of every argument the call received: the ``len(xs)`` of them from ``start`` on
    (``after`` arguments follow), as the list or tuple ``xs`` is."""
    part = g[start:len(g) - after]
    if isinstance(xs, np.ndarray):   # f(*rows): one cotangent per row
        out = np.zeros(np.shape(xs), dtype=np.result_type(xs, float))
        for i, item in enumerate(part):
            out[i] = item
        return out
    return tuple(part) if isinstance(xs, tuple) else list(part)


def joined_args(head, xs, tail):
    """``(*head, *xs, *tail)``: the arguments of a call ``f(a, *xs, b)`` as one tuple
    (linear in its three arguments; ``unpacked_part`` picks each one's cotangent)."""
    return tuple(head) + tuple(xs) + tuple(tail)


def item_tangents(xs_dot, xs):
    """One tangent per item of ``xs`` (None for an item without one), from the tangent
    ``xs_dot`` of the sequence (None: no tangent; a sparse dict keyed by position)."""
    if xs_dot is None:
        return [None] * len(xs)
    if type(xs_dot) is dict:
        return [xs_dot.get(i) for i in range(len(xs))]
    return list(xs_dot)


def dict_get(d, key, default=None):
    """``d.get(key, default)`` on a dict: what the method is differentiated as."""
    _require_dict(d, "get")
    return d.get(key, default)


def dict_get_adjoint(g, d, key):
    """The cotangent of ``d`` from that of ``d.get(key, default)``: sparse, at ``key``."""
    _require_dict(d, "get")
    return {key: g} if key in d else {}


def dict_default_adjoint(g, d, key, default):
    """The cotangent of ``default`` in ``d.get(key, default)``."""
    return zeros_like(default) if key in d else g


def dict_get_tangent(d_dot, d, key):
    """The tangent of ``d.get(key, default)`` from ``d``'s: a dict's tangent may be
    sparse (a key it lacks has a zero tangent, shaped like the value)."""
    if key not in d:
        return 0.0
    return d_dot[key] if key in d_dot else zeros_like(d[key])


def dict_default_tangent(default_dot, d, key):
    return zeros_like(default_dot) if key in d else default_dot


def require_dict(d, method):
    """Check that ``d.method(...)``, compiled as the dict method, is one."""
    _require_dict(d, method)


def insert_position(xs, index):
    """Where ``xs.insert(index, v)`` puts ``v`` (a negative index counts from the end,
    and Python clamps it into the list), on a list only: the position the adjoint takes
    the item's cotangent from, and the backward sweep removes it at."""
    require_list(xs, ".insert()")
    count = len(xs)
    if index < 0:
        index = max(index + count, 0)
    return min(index, count)


def require_list(xs, what):
    """Check that ``what`` (``del xs[i]``, ``xs.insert(i, v)``), compiled as a list's, is
    done to a list."""
    if type(xs) is not list:
        raise TypeError(f"srcgrad differentiates `{what}` as a list's, but it was done to a "
                        f"{type(xs).__name__}")


def require_list_or_dict(xs, what):
    """Check that ``what`` (``del xs[i]``, compiled as ``xs.pop(i)``) is done to a list or
    a dict (of another object it means something else)."""
    if type(xs) is not list and type(xs) is not dict:
        raise TypeError(f"srcgrad differentiates `{what}` as a list's or a dict's, but it "
                        f"was done to a {type(xs).__name__}")


def deleted_positions(xs, start, stop, step):
    """The positions ``del xs[start:stop:step]`` removes from the list ``xs``, last first
    (each ``xs.pop(position)`` leaves the others where they were)."""
    require_list(xs, "del xs[i:j]")
    return sorted(range(*slice(start, stop, step).indices(len(xs))), reverse=True)


def _require_dict(d, method):
    if type(d) is not dict:
        raise TypeError(f"srcgrad differentiates `.{method}()` as the dict method, but it "
                        f"was called on a {type(d).__name__}")


def dict_cotangent_values(g, d, pairs=False):
    """A sparse dict cotangent or tangent of ``d`` as the list ``d.values()`` (``pairs``:
    ``d.items()``) gives, in ``d``'s key order, zeros where ``g`` lacks a key: the
    tangent of ``d.values()``, and the transpose of ``dict_values_adjoint``."""
    values = [get_item(g, k, d[k]) for k in d]
    return [(k, v) for k, v in zip(d, values)] if pairs else values
