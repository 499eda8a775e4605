"""The compiler's entry points for calls resolved when generated code runs.

``_sg.dynamic_forward(fn, ...)`` (``srcgrad.runtime.dynamic``) meets its callee only at
run time. The runtime, which emitted modules import on their own, never imports the
compiler: loading this module registers these functions with it (the package loads it
on the first such call).
"""

from __future__ import annotations

import sys

from srcgrad.analysis.escapes import check_callee
from srcgrad.compiler.dispatch import resolve
from srcgrad.compiler.forward import call_jvp, forward_unit
from srcgrad.compiler.property_vjp import property_vjp
from srcgrad.compiler.reverse import reverse_unit
from srcgrad.runtime import dynamic

__all__ = ["call_jvp", "check_callee", "forward_unit", "property_vjp", "resolve",
           "reverse_unit"]

dynamic.register_compiler(sys.modules[__name__])
