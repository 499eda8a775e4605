"""Names of ``tensorflow.contrib.eager`` for code written against it: replace

    import tensorflow as tf
    import tensorflow.contrib.eager as tfe

with ``import srcgrad.tfe as tfe`` (and ``tf = tfe`` for ``tf.GradientTape`` and
``tf.enable_eager_execution``). Every gradient and value comes back as an ``sg.Tensor``,
which answers ``.numpy()`` as TensorFlow's do; gradients are still computed by srcgrad's
generated code.
"""

from __future__ import annotations

import functools

import numpy as np

from srcgrad import eager
from srcgrad.eager import Tensor, Variable, constant
from srcgrad.frontend import transforms
from srcgrad.runtime.variables import VariableBase

__all__ = [
    "GradientTape", "Variable", "constant", "enable_eager_execution", "gradients_function",
    "implicit_gradients", "implicit_value_and_gradients", "make_vjp",
    "value_and_gradients_function",
]


def enable_eager_execution(*args, **kwargs):
    """A no-op: srcgrad is always eager."""


def _tensor(value):
    """``value`` as a Tensor (None, Tensors and Variables unchanged; lists mapped)."""
    if value is None or isinstance(value, (Tensor, VariableBase)):
        return value
    if isinstance(value, list):
        return [_tensor(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_tensor(v) for v in value)
    if isinstance(value, dict):
        return {k: _tensor(v) for k, v in value.items()}
    if isinstance(value, (np.ndarray, np.generic, float, int)):
        return Tensor(value)
    return value


def _returning_tensors(make):
    @functools.wraps(make)
    def wrapper(f, *args, **kwargs):
        inner = make(f, *args, **kwargs)

        @functools.wraps(f)
        def call(*call_args, **call_kwargs):
            return _tensor(inner(*call_args, **call_kwargs))

        call.__srcgrad_callee__ = inner.__srcgrad_callee__   # (see eager.nesting)
        return call

    return wrapper


gradients_function = _returning_tensors(eager.gradients_function)
value_and_gradients_function = _returning_tensors(eager.value_and_gradients_function)
implicit_gradients = _returning_tensors(eager.implicit_gradients)
implicit_value_and_gradients = _returning_tensors(eager.implicit_value_and_gradients)


def make_vjp(f, params=None, persistent=True):
    """``sg.make_vjp`` whose value and gradients are Tensors."""
    inner = eager.make_vjp(f, params, persistent)

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        result, vjp = inner(*args, **kwargs)

        def tensor_vjp(dy=None):
            return _tensor(vjp(dy))

        return _tensor(result), tensor_vjp

    decorated.__srcgrad_callee__ = inner.__srcgrad_callee__
    return decorated


class GradientTape(eager.GradientTape):
    """``sg.GradientTape`` whose ``gradient``, ``jacobian`` and ``batch_jacobian``
    return Tensors."""

    __slots__ = ()

    def gradient(self, *args, **kwargs):
        return _tensor(super().gradient(*args, **kwargs))

    def jacobian(self, *args, **kwargs):
        return _tensor(super().jacobian(*args, **kwargs))

    def batch_jacobian(self, *args, **kwargs):
        return _tensor(super().batch_jacobian(*args, **kwargs))

transforms.register(globals())   # sg.grad called in a differentiated function
