"""``sg.vjp`` called inside a function being differentiated.

``sg.vjp(f)(y)`` returns the value and a *pullback*, a function: code being
differentiated cannot follow a derivative through a function value, so the pair is
lowered to the two generated functions of ``f``'s reverse-mode unit, the forward sweep
(which returns the value and the values it saved) and the backward sweep (given them
and the cotangent)::

    def f(x):                                  def f(x):
        def inner(y):                              value, _pullback_saved = inner_forward(x, x)
            return x * np.sin(y)      ->           return inner_backward(_pullback_saved, 2.0)
        value, pullback = sg.vjp(inner)(x)
        return pullback(2.0)                   # inner_forward / inner_backward: of
                                               # sg.vjp(inner_lifted, wrt=1)

The outer transformation differentiates both as callees (second order). A local
function or lambda is lifted as in ``nested_derivatives`` (the enclosing variables it
reads become its leading parameters); a module-level one is taken as it is. Refused at
the user's line: ``has_aux``, options that are not literals, a vjp not unpacked at once
into ``value, pullback``, a pullback bound twice or used other than by calling it.
"""

from __future__ import annotations

import types

from srcgrad import syntax
from srcgrad.frontend.transforms import transform_name
from srcgrad.normalize import nested_derivatives as nested
from srcgrad.syntax import gast


def lower_nested_vjps(parsed, namer):
    """Rewrite every ``value, pullback = sg.vjp(f, ...)(args)`` of ``parsed.node`` as the
    module docstring shows."""
    calls = [node for node in nested._own_scope(parsed.node) if isinstance(node, gast.Call)
             and transform_name(parsed, node.func) == "vjp"]
    if not calls:
        return
    parents = {id(child): parent for parent in syntax.walk(parsed.node)
               for child in nested._children(parent)}
    local = nested._local_functions(parsed.node)
    for chain in calls:
        _lower(parsed, namer, chain, parents, local)


def _lower(parsed, namer, chain, parents, local):
    call = parents.get(id(chain))
    if isinstance(call, gast.Call) and call.args and call.args[0] is chain \
            and transform_name(parsed, call.func) is not None:
        raise parsed.error("`sg.vjp` inside another transformation is not supported in a "
                           "function being differentiated; call its pullback instead", chain)
    assign = parents.get(id(call)) if isinstance(call, gast.Call) and call.func is chain \
        else None
    targets = _value_and_pullback(assign)
    if targets is None or call.keywords and any(kw.arg is None for kw in call.keywords) \
            or any(isinstance(a, gast.Starred) for a in call.args):
        raise parsed.error("`sg.vjp` called inside a function being differentiated must be "
                           "called at once and unpacked into two names: `value, pullback "
                           "= sg.vjp(f)(x)`", chain)
    fn_node, free, function = _differentiated(parsed, namer, chain, local)
    unit = _unit(parsed, chain, function)
    value_name, pullback_name = targets
    stem = fn_node.name if fn_node is not None else chain.args[0].id
    forward, backward = namer.fresh(f"{stem}_forward"), namer.fresh(f"{stem}_backward")
    parsed.injected[forward], parsed.injected[backward] = unit.forward, unit.backward
    saved = namer.fresh(f"_{pullback_name}_saved")
    _rewrite_pullback_calls(parsed, assign, pullback_name, backward, saved)
    call.func = syntax.name(forward)
    call.args[:0] = [syntax.name(name) for name in free]
    assign.targets[0] = gast.Tuple(elts=[syntax.name(value_name, store=True),
                                         syntax.name(saved, store=True)], ctx=gast.Store())


def _value_and_pullback(assign):
    """``(value, pullback)`` names of ``value, pullback = ...``, else None."""
    if not isinstance(assign, gast.Assign) or len(assign.targets) != 1:
        return None
    target = assign.targets[0]
    if not isinstance(target, (gast.Tuple, gast.List)) or len(target.elts) != 2 \
            or not all(isinstance(e, gast.Name) for e in target.elts):
        return None
    return target.elts[0].id, target.elts[1].id


def _differentiated(parsed, namer, chain, local):
    """``(local def or None, enclosing names passed first, the function to take the vjp
    of)``: a local function or lambda lifted (its ``wrt`` moved past those names), a
    module-level one as it is."""
    if not chain.args:
        raise parsed.error("`sg.vjp` needs the function to differentiate", chain)
    root = chain.args[0]
    if isinstance(root, gast.Lambda):
        fn_node = nested._lambda_def(root)
    elif isinstance(root, gast.Name) and root.id in local:
        fn_node = local[root.id]
    elif isinstance(root, gast.Name):
        try:
            return None, [], parsed.resolve(root.id)
        except KeyError:
            raise parsed.error(f"`sg.vjp` of `{root.id}`: srcgrad cannot tell which function "
                               "it is when generating code; use a module-level or local "
                               "function", chain) from None
    else:
        raise parsed.error("`sg.vjp` here must be given a function by its name or a lambda",
                           chain)
    alias, free = nested._lift(parsed, namer, fn_node, local)
    nested._shift_wrt(parsed, chain, len(free))
    chain.args[0] = syntax.name(alias)
    return fn_node, free, parsed.injected[alias]


def _unit(parsed, chain, function):
    """The reverse-mode unit of ``sg.vjp(function, <literal options>)``."""
    try:
        args = [nested._literal(arg) for arg in chain.args[1:]]
        options = {kw.arg: nested._literal(kw.value) for kw in chain.keywords}
    except ValueError:
        raise parsed.error("the options of `sg.vjp` inside a function being differentiated "
                           "must be literals", chain) from None
    if options.get("has_aux"):
        raise parsed.error("`sg.vjp(..., has_aux=True)` inside a function being "
                           "differentiated is not supported", chain)
    if not isinstance(function, types.FunctionType):
        raise parsed.error("`sg.vjp` inside a function being differentiated must be taken "
                           "of a plain function (not a method or another callable)", chain)
    vjp = parsed.resolve(syntax.dotted_name(chain.func))
    return vjp(function, *args, **options).unit


def _rewrite_pullback_calls(parsed, assign, pullback, backward, saved):
    """``pullback(ct)`` -> ``backward(saved, ct)``, after checking ``pullback`` is bound
    only here and only ever called (with one positional cotangent)."""
    stores = [n for n in syntax.walk(parsed.node) if isinstance(n, gast.Name)
              and n.id == pullback and not isinstance(n.ctx, gast.Load)]
    if len(stores) != 1:
        raise parsed.error(f"the pullback `{pullback}` of an `sg.vjp` inside a function "
                           "being differentiated must be bound only once", assign)
    calls = {id(c.func): c for c in syntax.walk(parsed.node) if isinstance(c, gast.Call)
             and isinstance(c.func, gast.Name) and c.func.id == pullback}
    for use in syntax.walk(parsed.node):
        if isinstance(use, gast.Name) and use.id == pullback and isinstance(use.ctx, gast.Load):
            call = calls.get(id(use))
            if call is None or len(call.args) != 1 or call.keywords \
                    or isinstance(call.args[0], gast.Starred):
                raise parsed.error(
                    f"the pullback `{pullback}` of an `sg.vjp` inside a function being "
                    "differentiated can only be called, with the cotangent", use)
            call.func = syntax.name(backward)
            call.args[:0] = [syntax.name(saved)]
