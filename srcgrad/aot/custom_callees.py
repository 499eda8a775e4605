"""``emit`` for a callee with a ``custom_vjp`` rule: the generated code calls a
forward/backward pair, which the emitted module defines around the rule's ``fwd`` and
``bwd``, imported from the user's module::

    from rules import soft_clip_bwd, soft_clip_fwd

    def soft_clip_forward(*args):
        return soft_clip_fwd(*args)

    def soft_clip_backward(saved, g):
        grads = soft_clip_bwd(saved, g, wrt=('x',))   # (when bwd takes ``wrt``)
        return grads[0]
"""

from __future__ import annotations

import dataclasses
import inspect
import os
import types

from srcgrad.api.custom import takes_wrt
from srcgrad.errors import EmitError


@dataclasses.dataclass
class Custom:
    """A ``custom_vjp`` callee: its rule's two functions, imported from the user's module,
    behind a forward/backward pair named for this module."""

    unit: object         # the custom unit (``srcgrad.api.custom``) for one wrt
    names: dict = dataclasses.field(default_factory=dict)   # role -> emitted name


def customs(units):
    """``{id(custom unit): Custom}`` for the ``custom_vjp`` callees of ``units``."""
    found = {}
    for entry in units:
        for custom_unit, _ in entry.customs.values():
            found.setdefault(id(custom_unit), Custom(custom_unit))
    return found


def _rule_of(custom_unit):
    """The ``custom_vjp`` object behind a custom unit, and its ``fwd`` and ``bwd``."""
    rule = custom_unit.fn
    return rule, getattr(rule, "fwd", None), getattr(rule, "bwd", None)


def import_rule(custom, imports):
    """Register, for import, the two functions of a ``custom_vjp`` rule; an EmitError
    when they cannot be imported by name (a ``checkpoint``'s rule lives in srcgrad)."""
    rule, fwd, bwd = _rule_of(custom.unit)
    for function in (fwd, bwd):
        module = getattr(function, "__module__", "") or ""
        importable = isinstance(function, types.FunctionType) and \
            function.__globals__.get(function.__name__) is function
        if not importable or module == "srcgrad" or module.startswith("srcgrad."):
            raise EmitError(
                f"{getattr(rule, '__qualname__', rule)} has its own derivative rule "
                f"(custom_vjp or checkpoint), whose function "
                f"{getattr(function, '__qualname__', function)} the emitted module cannot "
                "import by name: define fwd and bwd at module level (a checkpoint's rule "
                "lives in srcgrad and cannot be emitted)")
        imports.add(custom.unit, function.__globals__, function.__name__)


def text(custom, imports):
    """The forward/backward pair the generated code calls for a ``custom_vjp`` callee."""
    rule, fwd, bwd = _rule_of(custom.unit)
    bound = imports.renames.get(id(custom.unit), {})
    fwd_name, bwd_name = (bound.get(f.__name__, f.__name__) for f in (fwd, bwd))
    wrt = custom.unit.wrt
    names = (wrt,) if isinstance(wrt, str) else tuple(wrt)
    extra = f", wrt={names!r}" if takes_wrt(bwd) else ""
    picks = [rule.params.index(p) for p in names]
    if isinstance(wrt, str):
        result = f"grads[{picks[0]}]"
    elif names == rule.params:
        result = "grads"
    else:
        items = ", ".join(f"grads[{i}]" for i in picks)
        result = f"({items},)" if len(picks) == 1 else f"({items})"
    fn = inspect.unwrap(rule.fn)
    where = f"{os.path.basename(fn.__code__.co_filename)}:{fn.__code__.co_firstlineno}"
    return (f"# {fn.__qualname__} ({where}): custom_vjp, wrt {', '.join(names) or '()'}; "
            f"its rule is {fwd.__name__} and {bwd.__name__}.\n"
            f"def {custom.names['forward']}(*args):\n"
            f"    return {fwd_name}(*args)\n\n\n"
            f"def {custom.names['backward']}(saved, g):\n"
            f"    grads = {bwd_name}(saved, g{extra})\n"
            f"    return {result}\n")
