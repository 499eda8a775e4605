"""Derivatives of local functions taken inside a function being differentiated.

``sg.grad(inner)`` where ``inner`` is a nested ``def`` or a lambda that reads the
enclosing function's variables: the inner derivative must treat those variables as
the *outer* derivative's inputs, not as constants (else the outer derivative misses
the path through them, or confuses the two perturbations). The local function is
lifted to a function of its own taking those variables as leading parameters, the
``wrt`` of each transformation is moved past them, and every call of the derivative
passes them first. The transformation is applied then and there (its options are
literals), and the calls call the generated inner derivative, which the outer
transformation differentiates as a callee w.r.t. all of its arguments (second order)::

    def f(x):                                 def f(x):
        def inner(y):                             d = inner_grad
            return x * y          ->              return inner_grad(x, 3.0)
        d = sg.grad(inner)
        return d(3.0)                         # inner_lifted(x, y): return x * y
                                              # inner_grad = sg.grad(inner_lifted, wrt=1)

``inner_lifted`` is a Python function compiled from the user's own lines (errors cite
them), with the enclosing function's globals and closure cells; it and ``inner_grad``
are bound in the generated code's globals (``ParsedFunction.injected``). When an option
is not a literal, the call ``sg.grad(inner_lifted, wrt=W)`` stays, and the derivative is
resolved when it is called (``srcgrad.compiler.dispatch``). ``sg.grad``, ``value_and_grad``,
``jvp``, ``hvp``, the dense ``jacobian`` / ``jacfwd`` / ``jacrev`` / ``hessian`` /
``elementwise_grad`` (written as generated code: ``api.dense_callees``), nested in one
another too (``sg.grad(sg.grad(inner))``), and the eager ``gradients_function`` /
``value_and_gradients_function`` (``params`` moved likewise) are lifted; ``sg.vjp`` is
lowered to its two sweeps first (``nested_vjp``); other transformations of a local
function, and a derivative used other than by calling it, are refused at their line.
"""

from __future__ import annotations

import ast
import types

from srcgrad import syntax
from srcgrad.frontend.transforms import LIFTED, transform_name
from srcgrad.syntax import gast

_PARAMS = ("gradients_function", "value_and_gradients_function")   # TF's ``params=``


def lift_local_derivatives(parsed, namer):
    """Rewrite ``parsed.node`` in place as the module docstring shows."""
    local = _local_functions(parsed.node)
    if not local and not any(isinstance(n, gast.Lambda) for n in syntax.walk(parsed.node)):
        return   # nothing to lift (a derivative of a global function is an ordinary call)
    parents = {id(child): parent for parent in syntax.walk(parsed.node)
               for child in _children(parent)}
    lifted = {}   # local function name -> (alias, free names)
    for call in list(_own_scope(parsed.node)):
        if not isinstance(call, gast.Call) or _is_inner_layer(parsed, call, parents):
            continue
        layers = _layers(parsed, call)
        if not layers:
            continue
        root = layers[-1].args[0]
        if isinstance(root, gast.Lambda):
            fn_node = _lambda_def(root)
        elif isinstance(root, gast.Name) and root.id in local:
            fn_node = local[root.id]
        else:
            continue   # a global function: compiled as a callee when called
        refused = [transform_name(parsed, layer.func) for layer in layers
                   if transform_name(parsed, layer.func) not in LIFTED]
        if refused:
            raise parsed.error(
                f"`sg.{refused[0]}` of a local function called inside a function being "
                "differentiated is not supported; use sg.grad, sg.value_and_grad, sg.vjp, "
                "sg.jvp, sg.hvp, sg.jacobian, sg.hessian or a gradients_function",
                call)
        key = id(root) if isinstance(root, gast.Lambda) else root.id
        if key not in lifted:
            lifted[key] = _lift(parsed, namer, fn_node, local)
        alias, free = lifted[key]
        layers[-1].args[0] = syntax.name(alias)
        for depth, layer in enumerate(layers):
            if transform_name(parsed, layer.func) in _PARAMS:
                if depth != len(layers) - 1:
                    raise parsed.error("a gradients_function here must be applied to the "
                                       "local function itself", layer)
                _shift_params(parsed, layer, len(free), fn_node)
            else:
                _shift_wrt(parsed, layer, len(free))
        callee = _generated_now(parsed, layers)
        if callee is not None:   # called directly: compiled and linked as a callee
            name = namer.fresh(f"{fn_node.name}_{transform_name(parsed, layers[0].func)}")
            parsed.injected[name] = callee
            callee = name
        _pass_free_names(parsed, call, parents, free, fn_node.name, callee)


def _generated_now(parsed, layers):
    """The generated function ``sg.grad(inner_lifted, wrt=1)`` (the whole chain) gives,
    made now, or None when an option is not a literal or the result is srcgrad's own
    Python rather than generated code (then it is resolved when it runs)."""
    from srcgrad.codegen.pickling import unwrap

    value = parsed.injected[layers[-1].args[0].id]
    for layer in reversed(layers):
        try:
            args = [_literal(arg) for arg in layer.args[1:]]
            keywords = {kw.arg: _literal(kw.value) for kw in layer.keywords}
        except ValueError:
            return None
        if None in keywords:
            return None
        value = parsed.resolve(syntax.dotted_name(layer.func))(value, *args, **keywords)
    nested = getattr(value, "__srcgrad_callee__", None)
    target = nested() if nested is not None else unwrap(value)
    if not isinstance(target, types.FunctionType) \
            or (target.__module__ or "").startswith("srcgrad."):
        return None
    return target


def _literal(node):
    return ast.literal_eval(gast.gast_to_ast(syntax.clone(node)))


def _children(node):
    for field in node._fields:
        value = getattr(node, field, None)
        if isinstance(value, list):
            yield from (v for v in value if isinstance(v, gast.AST))
        elif isinstance(value, gast.AST):
            yield value


def _own_scope(node):
    """The nodes of the function's own scope (not inside its local functions), and the
    lambdas given straight to a call."""
    pending = list(node.body)
    while pending:
        current = pending.pop()
        if isinstance(current, gast.FunctionDef):
            continue
        yield current
        if not isinstance(current, gast.Lambda):
            pending.extend(_children(current))


def _layers(parsed, call):
    """``[outermost, ..., innermost]`` transformation calls of a chain
    ``sg.grad(sg.grad(f))``, or [] when ``call`` is not one."""
    layers = []
    while isinstance(call, gast.Call) and call.args \
            and transform_name(parsed, call.func) is not None:
        layers.append(call)
        call = call.args[0]
    return layers


def _is_inner_layer(parsed, call, parents):
    parent = parents.get(id(call))
    return isinstance(parent, gast.Call) and parent.args and parent.args[0] is call \
        and transform_name(parsed, parent.func) is not None


def _local_functions(node):
    found = {}
    for stmt in node.body:
        if isinstance(stmt, gast.FunctionDef):
            found[stmt.name] = stmt
        elif isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 \
                and isinstance(stmt.targets[0], gast.Name) \
                and isinstance(stmt.value, gast.Lambda):
            found[stmt.targets[0].id] = _lambda_def(stmt.value, stmt.targets[0].id)
    return found


def _lambda_def(lam, name="lambda_"):
    ret = gast.Return(value=lam.body)
    ret.lineno, ret.col_offset = lam.body.lineno, lam.body.col_offset
    node = gast.FunctionDef(name=name, args=lam.args, body=[ret], decorator_list=[],
                            returns=None, type_comment=None, type_params=[])
    node.lineno, node.col_offset = lam.lineno, lam.col_offset
    return node


def _outer_locals(node, local):
    """Names bound in the function's own scope (its parameters and assignments), not
    those of its local functions."""
    names = set(syntax.param_names(node.args))
    pending = list(node.body)
    while pending:
        current = pending.pop()
        if isinstance(current, (gast.FunctionDef, gast.Lambda, gast.ListComp, gast.DictComp,
                                gast.SetComp, gast.GeneratorExp)):
            continue   # (a comprehension's variables are its own)
        if isinstance(current, gast.Name) and isinstance(current.ctx, gast.Store):
            names.add(current.id)
        pending.extend(_children(current))
    return names - set(local)


def _free_names(fn_node, local, outer, seen=None):
    """(enclosing variables ``fn_node`` reads, the local functions it calls), both
    followed through the local functions it calls."""
    seen = set() if seen is None else seen
    seen.add(fn_node.name)
    params = set(syntax.names_in(fn_node, gast.Param))
    stored = set(syntax.names_in(fn_node, gast.Store))
    free, callees = set(), []
    for name in syntax.loaded_names(fn_node):
        if name in params or name in stored:
            continue
        if name in local and name not in seen:
            callees.append(local[name])
            more, nested = _free_names(local[name], local, outer, seen)
            free |= more
            callees += nested
        elif name in outer:
            free.add(name)
    return free, callees


def _lift(parsed, namer, fn_node, local):
    """``(alias, free names)``: ``fn_node`` lifted to a function bound as ``alias``."""
    outer = _outer_locals(parsed.node, local)
    free, callees = _free_names(fn_node, local, outer)
    free = sorted(free)
    args = fn_node.args
    if args.vararg or args.kwarg or args.kwonlyargs or \
            not all(isinstance(d, gast.Constant) for d in args.defaults):
        raise parsed.error(f"the local function `{fn_node.name}` is differentiated inside "
                           "the function: it may not take *args, **kwargs, keyword-only "
                           "parameters or defaults other than literals", fn_node)
    node = syntax.clone(fn_node)
    leading = [syntax.param(name) for name in free]
    if node.args.posonlyargs:
        node.args.posonlyargs = leading + node.args.posonlyargs
    else:
        node.args.args = leading + node.args.args
    node.body = [syntax.clone(c) for c in _unique(callees) if c is not fn_node] + node.body
    alias = namer.fresh(f"{fn_node.name}_lifted")
    parsed.injected[alias] = _compile_lifted(parsed, node)
    return alias, free


def _unique(nodes):
    return list({id(n): n for n in nodes}.values())


def _compile_lifted(parsed, node):
    """A Python function compiled from ``node`` (on the user's lines, in the user's file),
    with the enclosing function's globals and the closure cells it reads."""
    cells = parsed.closure
    binds = [syntax.assign(name, syntax.const(None)) for name in sorted(cells)]
    factory = gast.FunctionDef(
        name="_lift_factory", args=gast.arguments(
            args=[], posonlyargs=[], vararg=None, kwonlyargs=[], kw_defaults=[],
            kwarg=None, defaults=[]),
        body=binds + [syntax.clone(node), gast.Return(value=syntax.name(node.name))],
        decorator_list=[], returns=None, type_comment=None, type_params=[])
    module = gast.gast_to_ast(gast.Module(body=[factory], type_ignores=[]))
    ast.fix_missing_locations(module)
    for sub in ast.walk(module):   # made-up nodes end where they start
        if hasattr(sub, "end_lineno") and ((sub.end_lineno or 0), sub.end_col_offset or 0) \
                < (sub.lineno, sub.col_offset or 0):
            sub.end_lineno, sub.end_col_offset = sub.lineno, sub.col_offset
    code = compile(module, parsed.filename, "exec")
    factory_code = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    inner = next(c for c in factory_code.co_consts if isinstance(c, types.CodeType)
                 and c.co_name == node.name)
    defaults = tuple(d.value for d in node.args.defaults) or None
    closure = tuple(cells[name] for name in inner.co_freevars) or None
    fn = types.FunctionType(inner, parsed.globals, node.name, defaults, closure)
    fn.__qualname__ = f"{parsed.fn.__qualname__}.<locals>.{node.name}"
    fn.__srcgrad_lifted__ = node
    return fn


def _shift_wrt(parsed, layer, count):
    """Move ``wrt`` / ``argnums`` of one transformation past the ``count`` leading
    parameters (names stay; the default, the first parameter, becomes ``count``)."""
    keywords = {kw.arg: kw for kw in layer.keywords}
    if len(layer.args) > 1:
        layer.args[1] = _shifted(parsed, layer.args[1], count)
    elif "wrt" in keywords:
        keywords["wrt"].value = _shifted(parsed, keywords["wrt"].value, count)
    if "argnums" in keywords:
        keywords["argnums"].value = _shifted(parsed, keywords["argnums"].value, count)
    elif len(layer.args) == 1 and "wrt" not in keywords and count:
        layer.keywords.append(gast.keyword(arg="wrt", value=syntax.const(count)))


def _shift_params(parsed, layer, count, fn_node):
    """``params`` of a gradients_function: indices move past the ``count`` leading
    parameters, names stay; none (every parameter) becomes the function's own ones."""
    keywords = {kw.arg: kw for kw in layer.keywords}
    given = layer.args[1] if len(layer.args) > 1 else getattr(keywords.get("params"), "value",
                                                                None)
    if given is None or (isinstance(given, gast.Constant) and given.value is None):
        own = len(fn_node.args.posonlyargs) + len(fn_node.args.args)
        value = gast.Tuple(elts=[syntax.const(count + i) for i in range(own)], ctx=gast.Load())
    else:
        value = _shifted(parsed, given, count)
    if len(layer.args) > 1:
        layer.args[1] = value
    elif "params" in keywords:
        keywords["params"].value = value
    else:
        layer.keywords.append(gast.keyword(arg="params", value=value))


def _shifted(parsed, value, count):
    if isinstance(value, gast.Constant) and isinstance(value.value, str):
        return value
    if isinstance(value, gast.Constant) and type(value.value) is int:
        return syntax.const(value.value + count)
    if isinstance(value, (gast.Tuple, gast.List)):
        return gast.Tuple(elts=[_shifted(parsed, e, count) for e in value.elts],
                          ctx=gast.Load())
    raise parsed.error("`wrt` of a derivative taken inside a function being differentiated "
                       "must be written out (an index, a name, or a tuple of them)", value)


def _pass_free_names(parsed, chain, parents, free, fn_name, callee=None):
    """Prepend the enclosing variables to every call of the derivative ``chain``: called
    at once, or bound to a name at the top of the function and only ever called. With
    ``callee`` (the name the generated derivative is bound to), the calls call it."""
    parent = parents.get(id(chain))
    if isinstance(parent, gast.Call) and parent.func is chain:
        parent.args[:0] = [syntax.name(name) for name in free]
        if callee is not None:
            parent.func = syntax.name(callee)
        return
    target = parent.targets[0] if isinstance(parent, gast.Assign) \
        and len(parent.targets) == 1 else None
    if not isinstance(target, gast.Name) or parent not in parsed.node.body:
        raise _used_as_value(parsed, fn_name, chain)
    uses = [n for n in syntax.walk(parsed.node)
            if isinstance(n, gast.Name) and n.id == target.id and n is not target]
    calls = {id(c.func): c for c in syntax.walk(parsed.node)
             if isinstance(c, gast.Call) and isinstance(c.func, gast.Name)
             and c.func.id == target.id}
    for use in uses:
        if id(use) not in calls or not isinstance(use.ctx, gast.Load):
            raise _used_as_value(parsed, fn_name, use)
    for call in calls.values():
        _check_not_shadowed(parsed, call, parents, free)
        call.args[:0] = [syntax.name(name) for name in free]
        if callee is not None:
            call.func = syntax.name(callee)
    if callee is not None:
        parent.value = syntax.name(callee)


def _check_not_shadowed(parsed, call, parents, free):
    """A call inside a local function that binds one of ``free`` would pass its own."""
    node = parents.get(id(call))
    while node is not None and node is not parsed.node:
        if isinstance(node, (gast.FunctionDef, gast.Lambda)):
            bound = set(syntax.names_in(node, gast.Param)) | set(
                syntax.names_in(node, gast.Store))
            clash = sorted(bound & set(free))
            if clash:
                raise parsed.error(
                    f"`{clash[0]}` is read by the local function differentiated here and "
                    "bound again by the function that calls the derivative; rename one",
                    call)
        node = parents.get(id(node))


def _used_as_value(parsed, fn_name, node):
    return parsed.error(
        f"the derivative of the local function `{fn_name}` is used as a value; inside a "
        "function being differentiated it can only be called (`sg.grad(f)(y)`, or bound "
        "once to a name that is then called)", node)
