"""TensorFlow-eager style gradients, every one running srcgrad's generated code.

- ``variables``  ``Variable``, ``Tensor``, ``constant``
- ``functions``  ``gradients_function``, ``value_and_gradients_function``,
                 ``implicit_gradients``, ``implicit_value_and_gradients``
- ``vjp``        ``make_vjp`` (the generated forward now, the backward on demand)
- ``tape``       ``GradientTape`` (per thread; nested tapes for higher derivatives)
- ``calls``      a compiled function under a tape: one node, its generated backward
- ``ops``        an operation written in the ``with`` block: one node, its backward
                 compiled from the rule table
- ``static``     generated code that returns the Variables read and their cotangents,
                 when all are plain names (the fast path of implicit gradients and
                 of calls under a tape)
"""

from srcgrad.eager.calls import tape_aware
from srcgrad.eager.functions import (
    gradients_function,
    implicit_gradients,
    implicit_value_and_gradients,
    value_and_gradients_function,
)
from srcgrad.eager.tape import GradientTape, UnconnectedGradients
from srcgrad.eager.variables import Tensor, Variable, constant
from srcgrad.eager.vjp import make_vjp
from srcgrad.frontend import transforms

__all__ = [
    "GradientTape", "Tensor", "UnconnectedGradients", "Variable", "constant",
    "gradients_function", "implicit_gradients", "implicit_value_and_gradients",
    "make_vjp", "tape_aware", "value_and_gradients_function",
]

transforms.register(globals())   # sg.grad called in a differentiated function
