"""srcgrad: source-transformation automatic differentiation for Python and NumPy.

    import srcgrad as sg
    df = sg.grad(f)          # generated Python source, compiled once
    print(sg.source(df))     # read the gradient you got
"""

from srcgrad.api import differentiable, grad, source, value_and_grad, vjp
from srcgrad.eager import (
    GradientTape,
    Tensor,
    Variable,
    constant,
    gradients_function,
    implicit_gradients,
    implicit_value_and_gradients,
    value_and_gradients_function,
)
from srcgrad.errors import MissingRuleError, SrcgradError, TransformError
from srcgrad.higher import hessian, hvp, jacobian, jvp
from srcgrad.rules import defadjoint as defrule
from srcgrad.rules import defelementwise
from srcgrad.runtime import stop_gradient

__version__ = "0.1.0"

__all__ = [
    "MissingRuleError", "SrcgradError", "TransformError", "defelementwise", "defrule",
    "differentiable", "grad", "source", "stop_gradient", "value_and_grad", "vjp",
    "hessian", "hvp", "jacobian", "jvp",
    "GradientTape", "Tensor", "Variable", "constant", "gradients_function",
    "implicit_gradients", "implicit_value_and_gradients", "value_and_gradients_function",
]
