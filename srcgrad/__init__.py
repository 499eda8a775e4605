"""srcgrad: source-transformation automatic differentiation for Python and NumPy.

    import srcgrad as sg
    df = sg.grad(f)          # generated Python source, compiled once
    print(sg.source(df))     # read the gradient you got
"""

import importlib

__version__ = "0.1.0"

# Public name -> (module, attribute). Loaded on first use (PEP 562), so that
# ``import srcgrad.runtime``, all that generated and emitted code needs, loads neither
# gast nor the compiler.
_EXPORTS = {
    **{name: ("srcgrad.api", name) for name in
       ("differentiable", "grad", "source", "value_and_grad", "vjp")},
    **{name: ("srcgrad.eager", name) for name in
       ("GradientTape", "Tensor", "Variable", "constant", "gradients_function",
        "implicit_gradients", "implicit_value_and_gradients",
        "value_and_gradients_function")},
    **{name: ("srcgrad.errors", name) for name in
       ("MissingRuleError", "SrcgradError", "TransformError")},
    **{name: ("srcgrad.higher", name) for name in ("hessian", "hvp", "jvp")},
    **{name: ("srcgrad.jacobians", name) for name in
       ("elementwise_grad", "jacfwd", "jacobian", "jacrev")},
    **{name: ("srcgrad.custom", name) for name in ("custom_jvp", "custom_vjp")},
    **{name: ("srcgrad.checkpointing", name) for name in ("checkpoint", "checkpoint_loop")},
    "defrule": ("srcgrad.rules", "defadjoint"),
    "defelementwise": ("srcgrad.rules", "defelementwise"),
    "stop_gradient": ("srcgrad.runtime", "stop_gradient"),
}


def __getattr__(name):
    if name in _EXPORTS:
        module, attribute = _EXPORTS[name]
        value = getattr(importlib.import_module(module), attribute)
    else:
        try:
            value = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))


__all__ = [
    "MissingRuleError", "SrcgradError", "TransformError", "defelementwise", "defrule",
    "differentiable", "grad", "source", "stop_gradient", "value_and_grad", "vjp",
    "hessian", "hvp", "jacobian", "jacfwd", "jacrev", "elementwise_grad", "jvp",
    "checkpoint", "checkpoint_loop", "custom_jvp", "custom_vjp",
    "GradientTape", "Tensor", "Variable", "constant", "gradients_function",
    "implicit_gradients", "implicit_value_and_gradients", "value_and_gradients_function",
]
