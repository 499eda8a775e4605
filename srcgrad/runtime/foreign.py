"""The helpers' paths for arrays of other libraries, written against the array API standard.

Each NumPy helper keeps its own fast path and, for an array of another library (a torch
tensor, a JAX or array-api-strict array: ``namespaces.is_foreign``), calls its twin here
with that array's namespace ``xp``. Only the standard's functions are called, and
``array_api_extra`` for scatter-add, so a derivative stays in its library and on its
device, and nothing is written into an array of a library whose arrays are immutable
(JAX): updates return the updated array.

    xp_sum_adjoint(g, a, 0, False)   ->   foreign.sum_adjoint(xp, g, a, 0, False)
"""

from __future__ import annotations

import math

from srcgrad.errors import TransformError


def xp_float_dtype(xp, x):
    """``x``'s dtype if it is real or complex floating, else the default float."""
    dtype = getattr(x, "dtype", None)
    if dtype is not None and xp.isdtype(dtype, ("real floating", "complex floating")):
        return dtype
    return xp.asarray(0.0).dtype


def xp_is_complex(xp, x):
    dtype = getattr(x, "dtype", None)
    return dtype is not None and xp.isdtype(dtype, "complex floating")


def xp_shape(x):
    return tuple(getattr(x, "shape", ()))


def xp_seed(xp, ans, api_name):
    """The cotangent 1 for a scalar output (an array of one element)."""
    size = math.prod(xp_shape(ans))
    if size != 1:
        raise TypeError(f"{api_name} requires a scalar output; the function returned shape "
                        f"{xp_shape(ans)}. Use sg.vjp or sg.jacobian for non-scalar outputs.")
    if not xp.isdtype(ans.dtype, "real floating"):
        raise TypeError(f"{api_name} requires a real float output; the function returned "
                        f"an array of {ans.dtype}")
    return xp.ones_like(ans)


def xp_sum_to_shape(xp, g, target):
    """``g`` summed over the axes broadcasting added to or stretched in ``target``."""
    lead = g.ndim - len(target)
    axes = tuple(range(lead)) + tuple(
        lead + axis for axis, size in enumerate(target) if size == 1 and g.shape[lead + axis] != 1)
    if axes:
        g = xp.sum(g, axis=axes, keepdims=True)
    if lead or g.shape != target:
        g = xp.reshape(g, target)
    return g


def xp_unbroadcast(xp, g, x):
    """``g`` summed back to ``x``'s shape (``x`` an array or a number), real for a real
    ``x``; a number's cotangent is a 0-d array of ``g``'s library."""
    if xp_is_complex(xp, g) and not xp_is_complex(xp, x) and not isinstance(x, complex):
        g = xp.real(g)
    if not hasattr(g, "shape"):
        return g
    return xp_sum_to_shape(xp, g, xp_shape(x))


def xp_expanded(xp, g, ndim, axis, keepdims):
    """``g`` (a reduction's cotangent) with the reduced axes back as length-one axes."""
    if axis is None or keepdims:
        return xp.reshape(g, (1,) * ndim) if axis is None and not keepdims else g
    axes = sorted(ax % ndim for ax in (axis if isinstance(axis, tuple) else (axis,)))
    for ax in axes:
        g = xp.expand_dims(g, axis=ax)
    return g


def xp_sum_adjoint(xp, g, a, axis, keepdims):
    """``g`` spread back over the axes a sum reduced: shaped like ``a`` (a broadcast view:
    the bookkeeping copies an adjoint before it writes into it)."""
    full = xp_shape(a)
    if not hasattr(g, "shape"):
        return xp.full(full, g, dtype=xp_float_dtype(xp, a), device=xp_device(a))
    return xp.broadcast_to(xp_expanded(xp, g, len(full), axis, keepdims), full)


def xp_mean_adjoint(xp, g, a, axis, keepdims):
    full = xp_shape(a)
    count = math.prod(full) if axis is None else math.prod(
        full[ax] for ax in (axis if isinstance(axis, tuple) else (axis,)))
    return xp_sum_adjoint(xp, g, a, axis, keepdims) / count


def xp_max_adjoint(xp, g, a, ans, axis, keepdims):
    """The cotangent of an extremum: to the winners, shared equally on ties."""
    ans = xp_expanded(xp, ans, a.ndim, axis, keepdims)
    winners = xp.astype(a == ans, xp_float_dtype(xp, a))
    count = xp.sum(winners, axis=axis, keepdims=True)
    return xp_expanded(xp, g, a.ndim, axis, keepdims) * winners / count


def xp_matmul_adjoint_a(xp, g, a, b):
    if b.ndim == 1:
        return xp_unbroadcast(xp, g[..., None] * b if a.ndim > 1 else g * b, a)
    if a.ndim == 1:
        return xp_unbroadcast(xp, xp.matmul(b, g[..., None])[..., 0], a)
    return xp_unbroadcast(xp, xp.matmul(g, xp.matrix_transpose(b)), a)


def xp_matmul_adjoint_b(xp, g, a, b):
    if a.ndim == 1:
        if b.ndim > 1:
            return xp_unbroadcast(xp, xp.matmul(a[:, None], xp.expand_dims(g, axis=-2)), b)
        return xp_unbroadcast(xp, g * a, b)
    if b.ndim == 1:
        return xp_unbroadcast(xp, xp.matmul(xp.matrix_transpose(a), g[..., None])[..., 0], b)
    return xp_unbroadcast(xp, xp.matmul(xp.matrix_transpose(a), g), b)


def xp_in_dtype_of(xp, derivative, value):
    """``derivative`` cast to ``value``'s floating dtype when they differ in precision."""
    dtype = getattr(value, "dtype", None)
    own = getattr(derivative, "dtype", None)
    if dtype is None or own is None or own == dtype:
        return derivative
    kinds = ("real floating", "complex floating")
    for kind in kinds:
        if xp.isdtype(dtype, kind) and xp.isdtype(own, kind):
            return xp.astype(derivative, dtype)
    return derivative


def xp_zeros_like(xp, x):
    return xp.zeros_like(x, dtype=xp_float_dtype(xp, x))


def xp_device(x):
    import array_api_compat

    return array_api_compat.device(x)


def xp_add_at(xp, dx, index, g, copy):
    """``dx[index] += g``: in place (``copy=False``), or into a copy (``copy=True``:
    ``added_at``, what functions written against the array API call, whose arrays may
    be immutable). An in-place update of an immutable array (JAX) is refused."""
    import array_api_compat

    try:
        import array_api_extra as xpx
    except ImportError:   # (an optional dependency: only other libraries' arrays need it)
        raise TransformError("srcgrad needs the package array-api-extra to differentiate an "
                             "item read of another library's array: pip install "
                             "array-api-extra") from None
    if not copy and array_api_compat.is_jax_array(dx):
        raise TransformError(
            "srcgrad writes the cotangent of an item read (`x[i]`) in place here, which a "
            "JAX array does not allow: the function reading the item does not take its "
            "array namespace from its inputs. Write it against the array API "
            "(`xp = array_namespace(x)`), whose derivatives update arrays functionally")

    if _integer_arrays(index) and not _unique(xp, index):
        raise TransformError(
            f"srcgrad differentiates an item read with repeated integer indices only on "
            f"NumPy arrays so far; here they index a {type(dx).__module__} array. Index "
            "with unique indices, slices or a boolean mask")
    return xpx.at(dx, index).add(g, copy=copy, xp=xp)


def _integer_arrays(index):
    items = index if isinstance(index, tuple) else (index,)
    return [i for i in items if hasattr(i, "dtype") and "int" in str(i.dtype)]


def _unique(xp, index):
    return all(xp.unique_values(i).shape[0] == math.prod(i.shape)
               for i in _integer_arrays(index))


def xp_snapshot(xp, value):
    return xp.asarray(value, copy=True)


def xp_balanced_eq(xp, x, ans, other):
    """1 where ``x`` won (a maximum or minimum), 0.5 on a tie with ``other``."""
    dtype = xp_float_dtype(xp, ans)
    return (xp.astype(x == ans, dtype) / (1.0 + xp.astype(other == ans, dtype)))


def xp_power_exponent_partial(xp, x, ans):
    """d(x**y)/dy = log(x) * x**y, 0 where x <= 0 (real powers)."""
    x = xp.asarray(x, dtype=xp_float_dtype(xp, ans), device=xp_device(ans)) \
        if not hasattr(x, "shape") else x
    positive = x > 0
    return xp.where(positive, xp.log(xp.where(positive, x, xp.ones_like(x))),
                    xp.zeros_like(x)) * ans


def xp_prod_adjoint(xp, g, a, ans, axis, keepdims):
    """The product of the others: ``ans / a`` (refused where an element is 0, whose
    product of the others NumPy's helper computes element by element)."""
    if bool(xp.any(a == 0)):
        raise TransformError(
            f"srcgrad differentiates a product with a zero element only on NumPy arrays "
            f"so far; here it is a {type(a).__module__} array")
    return xp_expanded(xp, g, a.ndim, axis, keepdims) * xp_expanded(xp, ans, a.ndim, axis,
                                                              keepdims) / a


def xp_det_adjoint(xp, g, a, ans):
    return (g * ans)[..., None, None] * xp.matrix_transpose(xp.linalg.inv(a))


def xp_det_tangent(xp, a_dot, a, ans):
    return ans * xp.linalg.trace(xp.linalg.solve(a, a_dot))


def xp_inv_adjoint(xp, g, ans):
    t = xp.matrix_transpose(ans)
    return -(t @ g @ t)


def xp_solve_adjoint_b(xp, g, a, b):
    vector = b.ndim == 1
    gb = xp.linalg.solve(xp.matrix_transpose(a), g[..., None] if vector else g)
    return gb[..., 0] if vector else gb


def xp_solve_adjoint_a(xp, g, a, b, ans):
    vector = b.ndim == 1
    gb = xp.linalg.solve(xp.matrix_transpose(a), g[..., None] if vector else g)
    return -(gb @ xp.matrix_transpose(ans[..., None] if vector else ans))


def xp_stack_adjoint(xp, g, arrays, axis):
    lead = (slice(None),) * (axis % g.ndim)
    return [g[lead + (i,)] for i in range(len(arrays))]


def xp_cast_adjoint(xp, g, a, dtype):
    """``g`` back in ``a``'s dtype; zeros for a cast to an integer or boolean dtype."""
    if dtype is not None and not xp.isdtype(dtype, ("real floating", "complex floating")):
        return xp_zeros_like(xp, a)
    if hasattr(a, "dtype") and g.dtype != a.dtype and xp.isdtype(a.dtype, "real floating"):
        return xp.astype(g, a.dtype)
    return g


def xp_prod_adjoint_tangent(xp, g, a_dot, a, axis, keepdims):
    """``g`` times the derivative of the product of the others along ``a_dot`` (no zero
    in ``a``: ``xp_prod_adjoint`` refused those)."""
    g_full = xp_expanded(xp, g, a.ndim, axis, keepdims)
    others = xp.prod(a, axis=axis, keepdims=True) / a
    ratios = a_dot / a
    return g_full * others * (xp.sum(ratios, axis=axis, keepdims=True) - ratios)
