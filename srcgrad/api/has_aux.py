"""JAX's ``has_aux``: ``f`` returns ``(output, aux)``; only ``output`` is differentiated.

Built on a unit's split sweeps: the forward sweep returns the pair, and the backward
sweep is seeded with the output's cotangent and zeros for ``aux`` (``aux``'s values
carry no derivative out; a zero cotangent adds nothing)::

    def loss(w, x, y):
        p = predict(w, x)
        return np.sum((p - y) ** 2), p          # (output, aux)

    sg.grad(loss, has_aux=True)(w, x, y)        # -> (gradient, p)
"""

from __future__ import annotations

from srcgrad.errors import check_output
from srcgrad.runtime import core
from srcgrad.runtime.wrt_values import check_shaped_like


def split_pair(value):
    """``(output, aux)`` of a ``has_aux`` function's result, else a clear error."""
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        described = f"a {type(value).__name__}" + (
            f" of length {len(value)}" if isinstance(value, (tuple, list)) else "")
        raise TypeError(f"has_aux=True expects the function to return a pair "
                        f"(output, aux); it returned {described}")
    return value[0], value[1]


def pullback(backward, saved, value, aux):
    """The backward sweep as a function of the output's cotangent alone."""
    structure = type(value)

    def backward_fn(cotangent):
        check_shaped_like(cotangent, value[0], "the cotangent", "the function's output")
        return backward(saved, structure((cotangent, core.zeros_like_structure(aux))))

    return backward_fn


def grad_with_aux(forward, backward):
    """``(*args) -> (gradient, aux)``."""
    def grad_fn(*args, **kwargs):
        value, saved = forward(*args, **kwargs)
        output, aux = split_pair(value)
        return pullback(backward, saved, value, aux)(core.seed(output)), aux

    return _named(grad_fn, forward, backward)


def value_and_grad_with_aux(forward, backward):
    """``(*args) -> ((value, aux), gradient)``."""
    def value_and_grad_fn(*args, **kwargs):
        value, saved = forward(*args, **kwargs)
        output, aux = split_pair(value)
        return (output, aux), pullback(backward, saved, value, aux)(core.seed(output))

    return _named(value_and_grad_fn, forward, backward)


def vjp_with_aux(forward, backward):
    """``(*args) -> (value, backward, aux)``."""
    def vjp_fn(*args, **kwargs):
        value, saved = forward(*args, **kwargs)
        output, aux = split_pair(value)
        check_output(output, backward.unit.fn)
        return output, pullback(backward, saved, value, aux), aux

    return vjp_fn


def _named(function, forward, backward):
    unit = backward.unit
    function.source, function.unit = unit.source, unit
    function.__name__ = function.__qualname__ = f"{unit.fn.__name__}_{function.__name__}"
    return function
