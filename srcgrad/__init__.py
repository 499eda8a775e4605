"""srcgrad: source-transformation automatic differentiation for Python and NumPy.

    import srcgrad as sg
    df = sg.grad(f)          # generated Python source, compiled once
    print(sg.source(df))     # read the gradient you got

Every public name is listed in ``__all__``; ``help(sg.NAME)`` documents each.
"""

import sys as _sys
from typing import TYPE_CHECKING

__version__ = "0.1.0"

# Public name -> (module, attribute). Loaded on first use (PEP 562): ``import
# srcgrad.runtime``, all that generated and emitted code needs, must load neither gast nor
# the compiler, and ``import srcgrad`` stays under a millisecond. Type checkers read the
# same names from the imports under TYPE_CHECKING below (tests/test_public_api.py keeps
# the two lists equal).
_EXPORTS = {
    **{name: ("srcgrad.api.functional", name) for name in
       ("grad", "source", "value_and_grad", "vjp")},
    "differentiable": ("srcgrad.eager.decorator", "differentiable"),
    **{name: ("srcgrad.eager", name) for name in
       ("GradientTape", "Tensor", "Variable", "constant", "gradients_function",
        "implicit_gradients", "implicit_value_and_gradients", "make_vjp",
        "value_and_gradients_function")},
    **{name: ("srcgrad.errors", name) for name in
       ("MissingRuleError", "SrcgradError", "TransformError")},
    **{name: ("srcgrad.api.higher", name) for name in ("hessian", "hessp", "hvp", "jvp")},
    **{name: ("srcgrad.api.autograd_ops", name) for name in
       ("deriv", "grad_and_aux", "hessian_tensor_product", "hessian_vector_product",
        "holomorphic_grad", "make_ggnvp", "make_hvp", "make_jvp", "tensor_jacobian_product",
        "vector_jacobian_product")},
    **{name: ("srcgrad.api.jacobians", name) for name in
       ("elementwise_grad", "jacfwd", "jacobian", "jacrev")},
    **{name: ("srcgrad.api.sparse", name) for name in
       ("hessian_sparsity", "jacobian_sparsity")},
    **{name: ("srcgrad.api.custom", name) for name in ("custom_jvp", "custom_vjp")},
    **{name: ("srcgrad.api.checkpointing", name) for name in ("checkpoint", "checkpoint_loop")},
    **{name: ("srcgrad.rules.public", name) for name in ("defelementwise", "defrule")},
    "stop_gradient": ("srcgrad.runtime", "stop_gradient"),
    "exec_source": ("srcgrad.frontend.interactive", "exec_source"),
}


# Modules that live in a package but keep a public path of their own:
# ``import srcgrad.optimizers`` is ``srcgrad.api.optimizers``, one module under two names.
_PUBLIC_PATHS = {"srcgrad.optimizers": "srcgrad.api.optimizers",
                 "srcgrad.typing": "srcgrad.api.typing"}


class _PublicPathFinder:
    """A meta path finder (PEP 451) for ``_PUBLIC_PATHS``: the module it finds is the
    one at the package path (imported there first), keeping its own ``__spec__``."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name not in _PUBLIC_PATHS:
            return None
        from importlib.machinery import ModuleSpec

        return ModuleSpec(name, _PublicPathFinder)

    @staticmethod
    def create_module(spec):
        from importlib import import_module

        module = import_module(_PUBLIC_PATHS[spec.name])
        spec.loader_state = module.__spec__
        return module

    @staticmethod
    def exec_module(module):
        module.__spec__ = module.__spec__.loader_state   # the import set the alias's


_sys.meta_path.append(_PublicPathFinder)

if TYPE_CHECKING:
    from srcgrad import runtime as runtime
    from srcgrad import testing as testing
    from srcgrad import tfe as tfe
    from srcgrad.api import optimizers as optimizers
    from srcgrad.api.autograd_ops import deriv as deriv
    from srcgrad.api.autograd_ops import grad_and_aux as grad_and_aux
    from srcgrad.api.autograd_ops import hessian_tensor_product as hessian_tensor_product
    from srcgrad.api.autograd_ops import hessian_vector_product as hessian_vector_product
    from srcgrad.api.autograd_ops import holomorphic_grad as holomorphic_grad
    from srcgrad.api.autograd_ops import make_ggnvp as make_ggnvp
    from srcgrad.api.autograd_ops import make_hvp as make_hvp
    from srcgrad.api.autograd_ops import make_jvp as make_jvp
    from srcgrad.api.autograd_ops import tensor_jacobian_product as tensor_jacobian_product
    from srcgrad.api.autograd_ops import vector_jacobian_product as vector_jacobian_product
    from srcgrad.api.checkpointing import checkpoint as checkpoint
    from srcgrad.api.checkpointing import checkpoint_loop as checkpoint_loop
    from srcgrad.api.custom import custom_jvp as custom_jvp
    from srcgrad.api.custom import custom_vjp as custom_vjp
    from srcgrad.api.functional import grad as grad
    from srcgrad.api.functional import source as source
    from srcgrad.api.functional import value_and_grad as value_and_grad
    from srcgrad.api.functional import vjp as vjp
    from srcgrad.api.higher import hessian as hessian
    from srcgrad.api.higher import hessp as hessp
    from srcgrad.api.higher import hvp as hvp
    from srcgrad.api.higher import jvp as jvp
    from srcgrad.api.jacobians import elementwise_grad as elementwise_grad
    from srcgrad.api.jacobians import jacfwd as jacfwd
    from srcgrad.api.jacobians import jacobian as jacobian
    from srcgrad.api.jacobians import jacrev as jacrev
    from srcgrad.api.sparse import hessian_sparsity as hessian_sparsity
    from srcgrad.api.sparse import jacobian_sparsity as jacobian_sparsity
    from srcgrad.eager import GradientTape as GradientTape
    from srcgrad.eager import Tensor as Tensor
    from srcgrad.eager import Variable as Variable
    from srcgrad.eager import constant as constant
    from srcgrad.eager import gradients_function as gradients_function
    from srcgrad.eager import implicit_gradients as implicit_gradients
    from srcgrad.eager import implicit_value_and_gradients as implicit_value_and_gradients
    from srcgrad.eager import make_vjp as make_vjp
    from srcgrad.eager import value_and_gradients_function as value_and_gradients_function
    from srcgrad.eager.decorator import differentiable as differentiable
    from srcgrad.errors import MissingRuleError as MissingRuleError
    from srcgrad.errors import SrcgradError as SrcgradError
    from srcgrad.errors import TransformError as TransformError
    from srcgrad.frontend.interactive import exec_source as exec_source
    from srcgrad.rules.public import defelementwise as defelementwise
    from srcgrad.rules.public import defrule as defrule
    from srcgrad.runtime import stop_gradient as stop_gradient


def _load_compiler():
    """Load the compiler, which registers with the runtime the entry points that calls
    resolved at run time need (``srcgrad.runtime.dynamic``; the runtime never imports
    the compiler itself)."""
    from importlib import import_module

    import_module("srcgrad.compiler.entry_points")


def __getattr__(name: str):
    from importlib import import_module

    if name in _EXPORTS:
        module, attribute = _EXPORTS[name]
        value = getattr(import_module(module), attribute)
    else:
        try:
            value = import_module(f"{__name__}.{name}")
        except ModuleNotFoundError:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    globals()[name] = value
    return value


def __dir__():
    return sorted((set(globals()) - {"TYPE_CHECKING"}) | set(_EXPORTS))


__all__ = [
    "MissingRuleError", "SrcgradError", "TransformError", "defelementwise", "defrule",
    "differentiable", "exec_source", "grad", "source", "stop_gradient", "value_and_grad",
    "vjp",
    "hessian", "hessp", "hvp", "jacobian", "jacfwd", "jacrev", "elementwise_grad", "jvp",
    "jacobian_sparsity", "hessian_sparsity",
    "checkpoint", "checkpoint_loop", "custom_jvp", "custom_vjp",
    "GradientTape", "Tensor", "Variable", "constant", "gradients_function",
    "implicit_gradients", "implicit_value_and_gradients", "make_vjp",
    "value_and_gradients_function",
    "deriv", "grad_and_aux", "hessian_tensor_product", "holomorphic_grad", "make_ggnvp",
    "make_hvp", "make_jvp", "tensor_jacobian_product", "hessian_vector_product",
    "vector_jacobian_product",
]
