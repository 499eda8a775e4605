"""The compiler's entry points for calls resolved when generated code runs.

``_sg.dynamic_forward(fn, ...)`` (``srcgrad.runtime.dynamic``) meets its callee only at
run time. The runtime, which emitted modules import on their own, never imports the
compiler: loading this module registers these functions with it (the package loads it
on the first such call).
"""

from __future__ import annotations

import sys

from srcgrad.analysis.escapes import check_callee
from srcgrad.codegen.loader import is_generated
from srcgrad.compiler.dispatch import resolve
from srcgrad.compiler.forward import call_jvp, forward_unit
from srcgrad.compiler.property_vjp import property_jvp, property_vjp
from srcgrad.compiler.reverse import reverse_unit
from srcgrad.runtime import dynamic

__all__ = ["batched_backward", "call_jvp", "check_callee", "forward_unit", "is_generated",
           "property_jvp", "property_vjp", "resolve", "reverse_unit"]


def batched_backward(one_row):
    """``compiler.batched_backward.batched_backward`` (loaded on the first batched sweep
    that meets a call)."""
    from srcgrad.compiler.batched_backward import batched_backward as batched

    return batched(one_row)


dynamic.register_compiler(sys.modules[__name__])
