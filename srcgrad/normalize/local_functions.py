"""Local functions: nested ``def``s and ``name = lambda ...`` become inline code.

Before::

    def f(x, w):
        def act(z):
            return np.tanh(z * w)        # reads the enclosing ``w``
        return act(x) + act(2 * x)

After (``collect_local_functions`` removes the ``def``; A-normal form inlines each call
with the callee's names renamed apart)::

    def f(x, w):
        z = x
        _mul = z * w
        act_result = np.tanh(_mul)
        ...

Inlining keeps Python's late binding of closures (the enclosing variables are read at
the call) and lets the reverse mode see straight through the call. A local function used
as a value (passed, returned, stored) or calling itself is rejected.
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.frontend.functional_args import functional_argument, functional_lambdas
from srcgrad.syntax import gast


def collect_local_functions(parsed, namer=None):
    """Remove top-level nested ``def``s / lambda assignments from ``parsed.node`` and
    return them as ``{name: FunctionDef}``. A default that is not a literal is evaluated
    where the ``def`` was, as Python does, into a fresh name the inlined calls read
    (``def predict(x, params=params)`` -> ``predict_params = params``)."""
    local, body = {}, []
    if namer is not None:
        parsed.node.body = _name_functional_lambdas(parsed, namer) + parsed.node.body
    for stmt in parsed.node.body:
        fn = _as_function(stmt)
        if fn is None:
            body.append(stmt)
            continue
        if fn.name in local:
            raise parsed.error(f"the local function `{fn.name}` is defined twice", stmt)
        local[fn.name] = fn
        if namer is not None:
            body += _bind_defaults(fn, namer, stmt.lineno)
    parsed.node.body = body
    if local:
        _check_uses(parsed, local)
    return local


def _name_functional_lambdas(parsed, namer):
    """``map(lambda a, b: a * b, xs, ys)`` -> ``_lambda = lambda a, b: a * b`` at the top
    of the function and ``map(_lambda, xs, ys)``: a local function like any other (its
    body reads the enclosing names when it is called, as the lambda did). Only lambdas
    in the function's own statements, outside comprehensions, which rename their
    variables. Returns the assignments."""
    named = []
    for call in functional_lambdas(parsed):
        name = namer.fresh("lambda_")
        assign = syntax.assign(name, call.args[0])
        syntax.set_line([assign], getattr(call, "lineno", None))
        assign.col_offset = getattr(call.args[0], "col_offset", 0)
        named.append(assign)
        call.args[0] = syntax.name(name)
    return named


def _bind_defaults(fn, namer, lineno):
    """``fn_param = <default>`` for each non-literal default of ``fn``, which then reads
    that name."""
    binds = []
    args = fn.args
    positional = args.posonlyargs + args.args
    params = positional[len(positional) - len(args.defaults):] + args.kwonlyargs
    for field in ("defaults", "kw_defaults"):
        values = getattr(args, field)
        for i, default in enumerate(values):
            if default is None or isinstance(default, gast.Constant):
                continue
            param = params[i] if field == "defaults" else args.kwonlyargs[i]
            name = namer.fresh(f"{fn.name}_{param.id}")
            binds.append(syntax.assign(name, default))
            values[i] = syntax.name(name)
    syntax.set_line(binds, lineno)
    return binds


def _as_function(stmt):
    if isinstance(stmt, gast.FunctionDef):
        return stmt
    if (isinstance(stmt, gast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], gast.Name) and isinstance(stmt.value, gast.Lambda)):
        lam = stmt.value
        ret = gast.Return(value=lam.body)
        ret.lineno = stmt.lineno
        fn = gast.FunctionDef(name=stmt.targets[0].id, args=lam.args, body=[ret],
                              decorator_list=[], returns=None, type_comment=None,
                              type_params=[])
        fn.lineno, fn.col_offset = stmt.lineno, stmt.col_offset
        return fn
    return None


def _check_uses(parsed, local):
    """Local functions may only be called, by name, from the outer function or each
    other (without recursion)."""
    called = set()
    scopes = [parsed.node] + list(local.values())   # (the defs are out of the body now)
    for scope in scopes:
        for node in gast.walk(scope):
            if isinstance(node, gast.Call) and isinstance(node.func, gast.Name):
                called.add(id(node.func))
            passed = functional_argument(parsed, node)
            if passed is not None:
                called.add(id(passed))
    for scope in scopes:
        for node in gast.walk(scope):
            if (isinstance(node, gast.Name) and node.id in local
                    and id(node) not in called and not isinstance(node.ctx, gast.Param)):
                raise parsed.error(f"the local function `{node.id}` is used as a value; "
                                   "only direct calls to local functions are supported", node)
    for fn in local.values():
        for node in gast.walk(fn):
            if isinstance(node, gast.Call) and isinstance(node.func, gast.Name) \
                    and node.func.id == fn.name:
                raise parsed.error(f"the local function `{fn.name}` calls itself; define "
                                   "recursive functions at module level", node)
        if fn.args.vararg or fn.args.kwarg or fn.args.kwonlyargs:
            raise parsed.error(f"the local function `{fn.name}` has *args, **kwargs or "
                               "keyword-only parameters, which are not supported", fn)


def renamed_body(fn, namer, args, keywords):
    """The statements of ``fn`` with its parameters bound to ``args``/``keywords`` and all
    of its own names renamed apart. A parameter the body never reassigns, bound to a name
    or a literal, is replaced by it (no copy statement)."""
    params = [a.id for a in fn.args.args]
    stored = {node.id for node in gast.walk(fn)
              if isinstance(node, gast.Name) and isinstance(node.ctx, gast.Store)}
    renaming = {name: namer.fresh(name) for name in sorted(stored | set(params))}
    defaults = dict(zip(params[len(params) - len(fn.args.defaults):], fn.args.defaults))
    bound = dict(zip(params, args))
    for key, value in keywords:
        if key not in params:
            raise TypeError(f"{fn.name}() got an unexpected keyword argument {key!r}")
        bound[key] = value
    binds = []
    for param in params:
        if param in bound:
            value = bound[param]
        elif param in defaults:
            value = syntax.clone(defaults[param])
        else:
            raise TypeError(f"{fn.name}() missing an argument for {param!r}")
        if param not in stored and syntax.is_atom(value):
            renaming[param] = value
        else:
            binds.append(syntax.assign(renaming[param], value))
    body = [syntax.replace_names(syntax.clone(stmt), renaming) for stmt in fn.body]
    return binds + body
