"""srcgrad's own transformations called in a user's function: ``sg.grad(inner)``.

The fence lets a lambda through when it is given straight to one of them, and
``normalize.nested_derivatives`` lifts the local functions they are given; call
classification (``modes.calls``) treats ``sg.grad(f)`` as a function-valued call.
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.syntax import gast

LIFTED = ("grad", "value_and_grad", "jvp", "hvp", "gradients_function",
          "value_and_gradients_function", "jacobian", "jacfwd", "jacrev", "hessian",
          "elementwise_grad")
REFUSED = ("vjp", "make_vjp", "implicit_gradients", "implicit_value_and_gradients")
# (``vjp`` returns a function: ``normalize.nested_vjp`` lowers it to its two sweeps)


def transform_name(parsed, func):
    """``"grad"`` when ``func`` (a call's callee) denotes ``sg.grad`` (and so on for
    srcgrad's other transformations), else None."""
    dotted = syntax.dotted_name(func)
    if dotted is None or parsed is None:
        return None
    try:
        obj = parsed.resolve(dotted)
    except KeyError:
        return None
    name = _TABLE.get(id(obj))
    if name is not None:
        parsed.assume(dotted)
    return name


_TABLE: dict[int, str] = {}   # id of a srcgrad transformation -> its name
_BY_NAME: dict[str, object] = {}   # name -> the first transformation registered under it
_TAPES: set[int] = set()      # ids of the GradientTape classes (``eager``, ``tfe``)
_CONSTANTS: set[int] = set()  # ids of ``sg.constant`` (and ``tfe.constant``)
_KEPT: list = []              # the functions themselves: their ids stay theirs


def register(namespace):
    """Called by each module that defines transformations (``api.functional``,
    ``api.higher``, ``api.jacobians``, ``eager``, ``tfe``) as it loads, with its
    globals: the frontend knows them by identity without importing the layers above
    it, and a user's function can only name one whose module has loaded."""
    for name in LIFTED + REFUSED:
        function = namespace.get(name)
        if function is not None:
            _TABLE[id(function)] = name
            _BY_NAME.setdefault(name, function)
            _KEPT.append(function)
    tape = namespace.get("GradientTape")
    if isinstance(tape, type):
        _TAPES.add(id(tape))
        _KEPT.append(tape)
    constant = namespace.get("constant")
    if callable(constant) and namespace.get("__name__", "").startswith("srcgrad."):
        _CONSTANTS.add(id(constant))
        _KEPT.append(constant)


def is_transform(obj):
    """Is ``obj`` one of srcgrad's transformations (``sg.grad``...)?"""
    return id(obj) in _TABLE


def named(name):
    """The transformation registered as ``name`` (``"elementwise_grad"``), or None."""
    return _BY_NAME.get(name)


def is_constant(obj):
    """Is ``obj`` ``sg.constant``?"""
    return id(obj) in _CONSTANTS


def is_tape(obj):
    """Is ``obj`` srcgrad's ``GradientTape`` class (or ``tfe``'s)?"""
    return id(obj) in _TAPES


def calls_srcgrad(parsed, groups=None):
    """Does a call anywhere in ``parsed.node`` name one of srcgrad's transformations, a
    ``GradientTape`` or ``sg.constant`` (resolved as the passes that lower them resolve
    them, without recording an assumption)? When none does, those passes have nothing
    to do. ``groups``: ``syntax.by_type`` of the walk of ``parsed.node``, if made."""
    resolved = {}   # dotted name -> is it one of them
    calls = syntax.walk(parsed.node) if groups is None else groups.get(gast.Call, ())
    for call in calls:
        if type(call) is not gast.Call:
            continue
        dotted = syntax.dotted_name(call.func)
        if dotted is None:
            continue
        found = resolved.get(dotted)
        if found is None:
            try:
                obj = parsed.resolve(dotted)
                found = is_transform(obj) or is_tape(obj) or is_constant(obj)
            except KeyError:
                found = False
            except Exception:   # an attribute that fails to evaluate: the passes decide
                found = True
            resolved[dotted] = found
        if found:
            return True
    return False


def lambdas_given_to_transforms(parsed, nodes):
    """Lambdas passed straight to a transformation (``sg.grad(lambda y: x * y)``): the
    fence lets these through, this pass lifts them. ``nodes``: every node of the
    function's body."""
    found = set()
    for node in nodes:
        if isinstance(node, gast.Call) and node.args and isinstance(node.args[0], gast.Lambda) \
                and transform_name(parsed, node.func) is not None:
            found.add(id(node.args[0]))
    return found
