"""Builtins that take a function as their first argument and call it once per item:
``map``, ``filter`` and ``functools.reduce``. ``normalize.functional`` writes these calls
out as loops calling the function directly, so a local function (or a lambda) given
there is inlined like any direct call; the fence and ``normalize.local_functions`` ask
here which argument that is."""

from __future__ import annotations

import builtins
import functools

from srcgrad import syntax
from srcgrad.syntax import gast

_TAKE_A_FUNCTION = (builtins.map, builtins.filter, functools.reduce)


def functional_argument(parsed, call):
    """The function argument of ``map(fn, xs...)``, ``filter(fn, xs)`` or
    ``functools.reduce(fn, xs[, start])`` (``normalize.functional`` writes these out as
    loops that call ``fn`` directly, so a local function given there is inlined like any
    direct call), else None."""
    if not isinstance(call, gast.Call) or len(call.args) < 2 or call.keywords \
            or any(isinstance(a, gast.Starred) for a in call.args):
        return None
    dotted = syntax.dotted_name(call.func)
    if dotted is None or parsed is None or dotted.split(".")[0] in _bound_in(parsed):
        return None
    try:
        obj = parsed.resolve(dotted)
    except KeyError:
        return None
    if not any(obj is known for known in _TAKE_A_FUNCTION) \
            or (obj is builtins.filter and len(call.args) != 2) \
            or (obj is functools.reduce and len(call.args) > 3):
        return None
    return call.args[0]


def _bound_in(parsed):
    found = getattr(parsed, "_srcgrad_bound", None)
    if found is None:
        node = parsed.node
        found = set(syntax.names_in(node, gast.Store)) | set(syntax.param_names(node.args))
        parsed._srcgrad_bound = found
    return found


def functional_lambdas(parsed):
    """The calls of the function's own statements (outside local functions, lambdas and
    comprehensions, which rename their variables) that give a lambda to ``map``,
    ``filter`` or ``functools.reduce``."""
    found, stack = [], list(parsed.node.body)
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind in _OWN_SCOPES:
            continue
        if kind is gast.Call and node.args and type(node.args[0]) is gast.Lambda \
                and functional_argument(parsed, node) is not None:
            found.append(node)
        syntax.add_children(node, stack)
    return found


_OWN_SCOPES = frozenset({gast.FunctionDef, gast.Lambda, gast.ListComp, gast.DictComp,
                         gast.GeneratorExp, gast.SetComp})
