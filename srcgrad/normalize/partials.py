"""A call of a ``functools.partial`` that the function reads globally is the call of the
function it wraps, with the bound arguments written out: the rule row (or the user
function) of what it wraps is then found, in every mode and at every order.

Before::                                     After::

    psum = functools.partial(np.sum, axis=0)     (module level, unchanged)
    ...
    return psum(x) ** 2                          return psum.func(x, axis=0) ** 2

A bound value that is a literal (a number, a string, ``None``, a tuple of those) is
written as one; any other (an array) is bound in the generated code's globals
(``ParsedFunction.injected``) as ``<name>_<parameter>``. The partial is recorded as an
assumption (guarded: a rebinding of ``psum`` regenerates). The call's own keywords
override bound ones, as ``functools.partial`` does.
"""

from __future__ import annotations

import functools

from srcgrad import syntax
from srcgrad.syntax import gast

_LITERALS = (int, float, complex, str, bool, type(None))


def call_partials(parsed, node=None, groups=None):
    """Rewrite ``node`` (``parsed.node``, or a function inlined into it, which reads the
    same globals) in place as the module docstring shows; returns whether it changed
    anything. ``groups``: ``syntax.by_type`` of the walk of ``node``, if made."""
    if groups is None:
        groups = syntax.by_type(syntax.walk(parsed.node if node is None else node))
    calls = groups.get(gast.Call, ())
    if not calls:
        return False
    changed = False
    local = {n.id for n in groups.get(gast.Name, ())
             if isinstance(n.ctx, (gast.Store, gast.Param, gast.Del))}
    for call in calls:
        dotted = syntax.dotted_name(call.func)
        if dotted is None or dotted.split(".")[0] in local or dotted.startswith("_sg."):
            continue
        try:
            obj = parsed.resolve(dotted)
        except KeyError:
            continue
        if type(obj) is not functools.partial:
            continue
        parsed.assume(dotted)
        _expand(parsed, call, dotted, obj)
        changed = True
    return changed


def _expand(parsed, call, dotted, partial):
    prefix = dotted.replace(".", "_")
    bound = [_value(parsed, f"{prefix}_arg{i}", value) for i, value in enumerate(partial.args)]
    given = {kw.arg for kw in call.keywords if kw.arg is not None}
    keywords = [gast.keyword(arg=key, value=_value(parsed, f"{prefix}_{key}", value))
                for key, value in partial.keywords.items() if key not in given]
    call.func = gast.Attribute(value=call.func, attr="func", ctx=gast.Load())
    call.args = bound + list(call.args)
    call.keywords = keywords + list(call.keywords)


def _value(parsed, name, value):
    """``value`` as a literal, or a name bound to it in the generated code's globals."""
    literal = _literal(value)
    if literal is not None:
        return literal
    parsed.injected[name] = value
    return syntax.name(name)


def _literal(value):
    if type(value) in _LITERALS:
        return syntax.const(value)
    if type(value) is tuple:
        items = [_literal(item) for item in value]
        if all(item is not None for item in items):
            return gast.Tuple(elts=items, ctx=gast.Load())
    return None
