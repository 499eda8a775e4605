"""autograd's differential operators that srcgrad's own API spells differently:
``deriv``, ``holomorphic_grad``, ``make_jvp``, ``make_hvp``, ``grad_and_aux``,
``hessian_tensor_product`` and ``hessian_vector_product``, ``tensor_jacobian_product`` and
``vector_jacobian_product`` and ``make_ggnvp``, with autograd's calling conventions
(``argnum`` second, an int or a tuple/list of ints) and autograd's results.

Each is built from srcgrad's generated derivatives (``jvp``: forward mode, ``vjp``: the
generated backward sweep, ``vjp`` of the generated gradient for Hessian products), never
from finite differences or a traced graph.
"""

from __future__ import annotations

import warnings

import numpy as np

from srcgrad.api.functional import grad, vjp
from srcgrad.api.higher import jvp
from srcgrad.api.tracebacks import api_boundary
from srcgrad.errors import GradientError


def _wrt(argnum):
    """autograd's ``argnum`` (an int, or a tuple/list of ints) as srcgrad's ``wrt``."""
    items = argnum if isinstance(argnum, (tuple, list)) else (argnum,)
    if any(isinstance(a, bool) or not isinstance(a, int) for a in items):
        raise TypeError(f"argnum takes an int or a tuple/list of ints; got {argnum!r}")
    return tuple(argnum) if isinstance(argnum, (tuple, list)) else argnum


def _at(args, argnum):
    """The argument(s) ``argnum`` names: one value, or a tuple of them."""
    if isinstance(argnum, tuple):
        return tuple(args[i] for i in argnum)
    return args[argnum]


def _ones(x):
    """autograd's ``vspace(x).ones()``: ones shaped and typed like ``x``."""
    if isinstance(x, (tuple, list)):
        return type(x)(_ones(item) for item in x)
    if isinstance(x, dict):
        return {key: _ones(value) for key, value in x.items()}
    if isinstance(x, (bool, int)) or not np.issubdtype(np.result_type(x), np.inexact):
        raise TypeError(f"a derivative needs a float or complex value; got {type(x).__name__}"
                        f" {x!r} (autograd's vspace has no ones for it)")
    if isinstance(x, (float, complex)):
        return type(x)(1.0)
    return np.ones_like(x)


def _split(args, what):
    if not args:
        raise TypeError(f"expected the function's arguments followed by the {what}")
    return args[:-1], args[-1]


@api_boundary
def deriv(fun, argnum=0):
    """autograd's ``deriv``: the directional derivative of ``fun`` along a tangent of
    ones (for a scalar argument, the derivative ``fun'(x)``), by forward mode."""
    product = jvp(fun, _wrt(argnum))

    def deriv_fn(*args, **kwargs):
        return product(*args, _ones(_at(args, _wrt(argnum))), **kwargs)[1]

    return deriv_fn


@api_boundary
def holomorphic_grad(fun, argnum=0):
    """autograd's ``holomorphic_grad``: for ``fun`` holomorphic with a scalar output, its
    complex derivative ``fun'(z)`` (the vector-Jacobian product with cotangent 1). Warns,
    as autograd does, when the argument is not complex."""
    product = vjp(fun, _wrt(argnum))

    def holomorphic_grad_fn(*args, **kwargs):
        if not np.iscomplexobj(_at(args, _wrt(argnum))):
            warnings.warn("Input to holomorphic_grad is not complex", stacklevel=2)
        value, backward = product(*args, **kwargs)
        if np.size(value) != 1:
            raise GradientError(f"holomorphic_grad requires a scalar output; the function "
                                f"returned shape {np.shape(value)} (use sg.jacobian)")
        return backward(_ones(value))

    return holomorphic_grad_fn


@api_boundary
def make_jvp(fun, argnum=0):
    """autograd's ``make_jvp``: ``make_jvp(fun)(*args)`` is a function of a tangent ``v``
    returning ``(fun(*args), J v)``, by forward mode."""
    product = jvp(fun, _wrt(argnum))

    def at(*args, **kwargs):
        def jvp_at(tangent):
            return product(*args, tangent, **kwargs)
        return jvp_at

    return at


@api_boundary
def make_hvp(fun, argnum=0):
    """autograd's ``make_hvp``: ``make_hvp(fun)(*args)`` is ``(hvp, gradient)``, ``hvp(v)``
    the vector-Jacobian product of the generated gradient (``H v`` for a real Hessian) and
    ``gradient`` the gradient at ``args``; the gradient's forward sweep runs once."""
    product = vjp(grad(fun, _wrt(argnum)), _wrt(argnum))

    def at(*args, **kwargs):
        gradient, backward = product(*args, **kwargs)
        return backward, gradient

    return at


@api_boundary
def grad_and_aux(fun, argnum=0):
    """autograd's ``grad_and_aux``: ``fun`` returns ``(output, aux)``; the function returns
    ``(gradient of output, aux)``."""
    return grad(fun, _wrt(argnum), has_aux=True)


@api_boundary
def hessian_tensor_product(fun, argnum=0):
    """autograd's ``hessian_tensor_product``: a function ``(*args, tensor)`` returning the
    gradient of ``<grad fun(*args), tensor>`` (every axis contracted), ``H tensor``; the
    tensor is shaped like the argument."""
    product = vjp(grad(fun, _wrt(argnum)), _wrt(argnum))

    def hessian_tensor_product_fn(*args, **kwargs):
        args, tensor = _split(args, "tensor")
        return product(*args, **kwargs)[1](tensor)

    return hessian_tensor_product_fn


@api_boundary
def hessian_vector_product(fun, argnum=0):
    """autograd's other name for ``hessian_tensor_product``: ``(*args, vector) -> H v``."""
    return hessian_tensor_product(fun, argnum)


@api_boundary
def tensor_jacobian_product(fun, argnum=0):
    """autograd's ``tensor_jacobian_product``: a function ``(*args, tensor)`` returning
    the Jacobian of ``tensordot(tensor, fun(*args), ndim(tensor))``: the tensor
    contracts the leading axes of the output; shape ``out.shape[ndim(tensor):] +
    x.shape``. ``argnum`` is one int (a Jacobian is w.r.t. one array)."""
    if not isinstance(argnum, int) or isinstance(argnum, bool):
        raise TypeError(f"tensor_jacobian_product takes one int argnum; got {argnum!r}")
    product = vjp(fun, argnum)

    def tensor_jacobian_product_fn(*args, **kwargs):
        args, tensor = _split(args, "tensor")
        value, backward = product(*args, **kwargs)
        return _contracted(value, backward, tensor, np.shape(args[argnum]))

    return tensor_jacobian_product_fn


@api_boundary
def vector_jacobian_product(fun, argnum=0):
    """autograd's other name for ``tensor_jacobian_product``: ``(*args, tensor)`` -> the
    Jacobian of ``tensordot(tensor, fun(*args), ndim(tensor))``."""
    return tensor_jacobian_product(fun, argnum)


def _contracted(value, backward, tensor, arg_shape):
    shape, rank = np.shape(value), np.ndim(tensor)
    if shape[:rank] != np.shape(tensor):
        raise ValueError(f"the tensor's shape {np.shape(tensor)} is not the leading axes "
                         f"of the output's shape {shape}")
    if np.iscomplexobj(value):
        raise GradientError("tensor_jacobian_product takes a real output (autograd's "
                            "jacobian has no complex one); use sg.vjp")
    if rank == len(shape):
        return backward(tensor)
    rest = shape[rank:]
    rows = []
    for index in np.ndindex(*rest):
        cotangent = np.zeros(shape, np.result_type(tensor, value))
        cotangent[(Ellipsis,) + index] = tensor
        rows.append(backward(cotangent))
    return np.reshape(np.stack(rows), rest + tuple(arg_shape))


def half_sum_of_squares(y):
    """``make_ggnvp``'s default ``g``, autograd's: ``1/2 * sum(y**2, axis=-1)``."""
    return 1.0 / 2 * np.sum(y ** 2, axis=-1)


@api_boundary
def make_ggnvp(f, g=half_sum_of_squares, f_argnum=0):
    """autograd's ``make_ggnvp``: ``make_ggnvp(f, g)(*args)`` is a function of ``v``
    returning the generalized Gauss-Newton product ``J^T H_g J v``, ``J`` the Jacobian of
    ``f`` at ``args`` (w.r.t. argument ``f_argnum``), ``H_g`` the Hessian of the scalar
    ``g`` at ``f(*args)``: ``J v`` by forward mode, ``H_g u`` by the vjp of ``g``'s
    generated gradient, ``J^T w`` by ``f``'s backward sweep."""
    wrt = _wrt(f_argnum)
    f_vjp, f_jvp, g_hvp = vjp(f, wrt), jvp(f, wrt), vjp(grad(g))

    def at(*args, **kwargs):
        f_x, f_backward = f_vjp(*args, **kwargs)
        g_backward = g_hvp(f_x)[1]

        def ggnvp(v):
            return f_backward(g_backward(f_jvp(*args, v, **kwargs)[1]))

        return ggnvp

    return at
