"""The generated ``def``s of a reverse unit, built from the two sweeps reverse mode made:
``f_forward`` (value and saved residuals), ``f_backward`` (cotangents from the
residuals), the fused ``f_grad`` and ``f_value_and_grad``, and the hand-over of the
fused ones to a variant specialized for scalars.

Before: the sweeps ``_mul = x * w; y = np.sin(_mul)`` and ``d_mul = dy * np.cos(_mul); ...``.
After (abridged)::

    def f_forward(x, w):
        ...
        return y, (_mul, w, x)

    def f_backward(saved, dy):
        _mul, w, x = saved
        ...
        return _sg.in_dtype_of(dx, x)
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.analysis.dataflow import surely_defined_after
from srcgrad.compiler.float_fused import fuse_on_floats
from srcgrad.modes.reverse_rules import MATH_TWINS
from srcgrad.optimize import UseCache, optimize_sweeps
from srcgrad.optimize.accumulators import accumulate_in_place
from srcgrad.optimize.free_saved import free_after_last_read
from srcgrad.optimize.negations import cancel_negations
from srcgrad.optimize.saves import RESTORES
from srcgrad.rules.methods import is_array_attribute
from srcgrad.syntax import gast


def _assemble(parsed, result, fn_names, namer, single, scalars, containers):
    """Build the four generated ``def``s from the sweeps. Each gradient is returned in
    its input's dtype (``_sg.in_dtype_of``). ``containers``: the parameters used as
    containers (``_container_params``)."""
    params = syntax.param_names(parsed.node.args)
    signature = parsed.node.args
    uses = UseCache()   # each statement's names, found once for this and the optimizer
    grads, zero_wrt = _gradients(result, namer, scalars, containers, uses)
    grads_expr = grads[0] if single else syntax.tuple_of(grads)
    live_out = {result.adjoints[p] for p in result.adjoints if result.adjoints[p]}
    forward, backward, saved = optimize_sweeps(
        result.forward, result.backward, live_out,
        syntax.loaded_names(result.result) + syntax.loaded_names(grads_expr), uses,
        reuse=not scalars)
    backward = cancel_negations(backward, live_out | set(syntax.loaded_names(grads_expr)),
                                uses)
    backward = accumulate_in_place(forward, backward, set(params) | {result.seed}, uses)
    prologue = _saves_prologue(forward, saved, result.stack)
    forward = prologue + forward
    value = result.result
    seed = result.seed
    seed_stmt = syntax.assign(seed, syntax.quote_expr(f"{result.seed_helper}(y)", y=value))

    residuals, residual_inits = _residuals(forward, backward, grads_expr, params, prologue,
                                           seed, uses)
    saved_name = namer.fresh("saved")
    unpack = [syntax.assign(syntax.tuple_of([syntax.name(r, True) for r in residuals], True),
                            syntax.name(saved_name))] if residuals else []
    if result.stack in residuals:   # the backward may run more than once (sg.vjp)
        unpack += syntax.quote("stack = list(stack)", stack=result.stack)
    unpack[:0] = _private_saves(backward, residuals, saved_name, uses)

    fwd_comment = syntax.comment("Forward sweep: the original computation")
    bwd_comment = syntax.comment(f"Backward sweep: {seed} is the cotangent of the result")
    ret_fwd = gast.Return(value=syntax.tuple_of(
        [syntax.clone(value), syntax.tuple_of([syntax.name(r) for r in residuals])]))
    functions = {
        "forward": syntax.function_def(
            fn_names["forward"], params,
            [fwd_comment] + residual_inits + forward + [ret_fwd],
            arguments=signature),
        "backward": syntax.function_def(
            fn_names["backward"], [saved_name, seed],
            unpack + [bwd_comment] + backward
            + [gast.Return(value=syntax.clone(grads_expr))]),
    }
    grads_out = grads_expr
    # The four functions share the sweeps' statements (emit prints each one once).
    freed = free_after_last_read(forward, backward, _loaded(value) | _loaded(grads_out),
                                 uses)
    fused = [fwd_comment] + forward + [bwd_comment, seed_stmt] + freed
    functions["grad"] = syntax.function_def(
        fn_names["grad"], params, fused + [gast.Return(value=syntax.clone(grads_out))],
        arguments=signature)
    returned, keep = value, []
    if isinstance(value, gast.Name) and value.id in _assigned(backward, uses):
        # The backward sweep restores overwritten values: keep the result before it runs.
        returned = syntax.name(namer.fresh("value"))
        keep = [syntax.assign(returned.id, syntax.clone(value))]
    fused_keeping = [fwd_comment] + forward + keep + [bwd_comment, seed_stmt]
    functions["value_and_grad"] = syntax.function_def(
        fn_names["value_and_grad"], params,
        fused_keeping + freed + [gast.Return(value=syntax.tuple_of(
            [syntax.clone(returned), syntax.clone(grads_out)]))],
        arguments=signature)
    if scalars is True:   # (not NUMPY_SWEEP)
        fuse_on_floats(functions, {
            "forward": forward, "backward": backward, "grads": grads_out, "seed": seed,
            "params": params, "stack": result.stack,
            "defined": surely_defined_after(forward, params), "value": value,
            "residuals": residuals, "residual_inits": residual_inits,
            "seed_helper": result.seed_helper}, fn_names["backward"], namer.fresh)
    stamped = set()   # (the functions share most statements: each is stamped once)
    for function in functions.values():
        function.lineno = parsed.node.lineno
        fresh = [stmt for stmt in function.body if id(stmt) not in stamped]
        stamped.update(map(id, fresh))
        syntax.set_line(fresh, parsed.node.lineno)
    return functions, zero_wrt


def _gradients(result, namer, scalars, containers, uses):
    """The returned gradient of each ``wrt`` parameter (in its input's dtype, in its
    structure for a container), and the parameters whose gradient is symbolically zero."""
    grads = []
    zero_wrt = []
    rebound = _assigned(result.forward, uses)   # (before any `x_entry = x` is added)
    for p in result.adjoints:
        adjoint = result.adjoints[p]
        if adjoint is None:
            zero_wrt.append(p)
            template = "_sg.wrt_zeros(x, name, True)" if p in containers else \
                "_sg.wrt_zeros(x, name)"
            grads.append(syntax.quote_expr(template, x=p, name=syntax.const(p)))
        elif p in containers:
            restructured = syntax.quote_expr("_sg.restructure(d, x)", d=adjoint, x=p)
            grads.append(restructured if scalars else syntax.quote_expr(
                "_sg.in_dtype_of(d, x)", d=restructured,
                x=_entry_value(p, result.forward, namer, rebound)))
        elif scalars:   # only float, int and float64 arguments reach that variant
            grads.append(syntax.name(adjoint))
        else:
            grads.append(syntax.quote_expr("_sg.in_dtype_of(d, x)", d=adjoint,
                                           x=_entry_value(p, result.forward, namer, rebound)))
    return grads, zero_wrt


def _private_saves(backward, residuals, saved_name, uses):
    """``saved = _sg.private_saves(saved, (i, ...))`` when the backward sweep restores
    items into residuals (at positions ``i``): it works on copies of them, so that it
    leaves the residuals as the forward sweep left them and can run again, or on
    several threads (see ``runtime.reentry``). (``uses``: a ``UseCache``: only the
    statements that call a restoring helper are walked.)"""
    restoring = []
    for stmt in backward:
        for call in uses.of(stmt).helper_calls:
            if call.func.attr in _RESTORE_HELPERS:
                restoring.append(stmt)
                break
    restored = {call.args[0].id for stmt in restoring for call in syntax.walk(stmt)
                if isinstance(call, gast.Call) and call.args
                and syntax.dotted_name(call.func) in RESTORES
                and isinstance(call.args[0], gast.Name)}
    written = [i for i, name in enumerate(residuals) if name in restored]
    if not written:
        return []
    positions = gast.Tuple(elts=[syntax.const(i) for i in written], ctx=gast.Load())
    return [syntax.comment("Restores go into copies: the backward may run again"),
            syntax.assign(saved_name, syntax.quote_expr(
                "_sg.private_saves(s, w)", s=syntax.name(saved_name), w=positions))]


_RESTORE_HELPERS = frozenset(name.split(".", 1)[1] for name in RESTORES)


def _saves_prologue(forward, saved, stack):
    """``v = None`` for each saved variable some save of which may run before it is
    defined, and the empty stack of saved values (when something is saved)."""
    undefined = _maybe_undefined(forward)
    prologue = [syntax.assign(v, syntax.const(None)) for v in sorted(saved) if v in undefined]
    if saved:
        prologue.append(syntax.assign(stack, gast.List(elts=[], ctx=gast.Load())))
    return prologue


def _residuals(forward, backward, grads_expr, params, prologue, seed, uses):
    """The names the backward sweep reads from the forward sweep (in the order they are
    first bound), and ``r = None`` for those the forward sweep may leave unbound
    (``uses``: the ``UseCache`` the optimizer filled)."""
    order = _order(forward, params, uses)   # every name the forward sweep or a parameter binds
    defined = set(order)
    backward_reads = uses.reads(backward) | _loaded(grads_expr)
    residuals = sorted((backward_reads & defined) - {seed}, key=order.__getitem__)
    exit_defined = surely_defined_after(forward, params, uses)
    # The split forward packs every residual, so one assigned on some paths only starts
    # as None there (the fused functions never read it on the other paths).
    initialized = _assigned(prologue, uses)
    residual_inits = [syntax.assign(r, syntax.const(None)) for r in residuals
                      if r not in exit_defined and r not in initialized]
    return residuals, residual_inits


def _entry_value(param, forward, namer, rebound):
    """The name holding ``param``'s value on entry: itself, or, when the function rebinds
    it (``rebound``: the names ``forward`` assigns), a copy taken first (``x_entry = x``),
    so the backward need not restore it."""
    if param not in rebound:
        return param
    entry = namer.fresh(f"{param}_entry")
    forward.insert(0, syntax.assign(entry, syntax.name(param)))
    return entry


def _scalar_dispatch(parsed, functions, base, namer, containers, matmul):
    """When every argument is a scalar, the fused functions hand over to a variant
    specialized for scalars (compiled on first use), which needs no broadcasting and
    takes partials with ``math``. Only added when that variant would differ.
    (``containers``, ``matmul``: the parameters ``_container_params`` found.)"""
    args = parsed.node.args
    params = [a.id for a in args.posonlyargs + args.args]
    if args.vararg or args.kwarg or args.kwonlyargs or not params \
            or containers & set(params) or matmul & set(params) \
            or not _calls_array_helpers(functions["grad"]):
        return {}
    aliases = {}
    for role in ("grad", "value_and_grad"):
        alias = namer.fresh(f"{base}_{role}_scalars")
        aliases[f"scalar_{role}"] = alias
        check = syntax.quote(
            "if _sg.all_scalars(ARGS):\n    return ALIAS(ARGS)",
            ARGS=syntax.tuple_of([syntax.name(p) for p in params]), ALIAS=alias)[0]
        check.test.args = check.test.args[0].elts
        check.body[0].value.args = check.body[0].value.args[0].elts
        syntax.set_line(check, parsed.node.lineno)
        note = syntax.comment("Every argument a scalar: the specialized version (no broadcasting)")
        functions[role].body[:0] = [note, check]
    return aliases


_UNBROADCASTS = ("unbroadcast", "unbroadcast_product")


def _calls_array_helpers(function):
    """Does ``function`` call ``unbroadcast`` (or ``unbroadcast_product``) or ``np.<f>``
    with a ``math`` twin?
    (Statement by statement: the first such call, usually near the top, ends the search.)"""
    for sub in (sub for stmt in function.body for sub in syntax.walk(stmt)):
        if isinstance(sub, gast.Call) and isinstance(sub.func, (gast.Attribute, gast.Name)):
            func = sub.func
            if (func.attr if isinstance(func, gast.Attribute) else func.id) in _UNBROADCASTS:
                return True
            if isinstance(func, gast.Attribute) and func.attr in MATH_TWINS \
                    and isinstance(func.value, gast.Name) and func.value.id == "np":
                return True
    return False


def _container_params(node, params, matmul=None):
    """Parameters used as containers (indexed, iterated, read by attribute, called as
    objects): their gradients are given the parameter's own structure (tuple, dict,
    NamedTuple, the object's class...). ``matmul``: a set, to which the same walk adds
    the parameters used with ``@`` (never scalars)."""
    found = set()
    aliases = {p: p for p in params}   # `a, b = pair` reads pair through a temporary
    for sub in syntax.walk(node):   # (node classes compared exactly: gast has no subclasses)
        kind, base = type(sub), None
        if kind is gast.BinOp:
            if matmul is not None and type(sub.op) is gast.MatMult:
                matmul.update(operand.id for operand in (sub.left, sub.right)
                              if type(operand) is gast.Name and operand.id in params)
        elif kind is gast.Assign:
            if type(sub.value) is gast.Name and sub.value.id in aliases \
                    and type(sub.targets[0]) is gast.Name:
                aliases[sub.targets[0].id] = aliases[sub.value.id]
        elif kind is gast.Subscript or (kind is gast.Attribute
                                        and not is_array_attribute(sub.attr)):
            base = sub.value
        elif kind is gast.For:
            base = sub.iter
        elif kind is gast.Call:
            base = sub.func
        if type(base) is gast.Name and base.id in aliases:
            found.add(aliases[base.id])
    return found


def _maybe_undefined(forward):
    """The saved variables some save of which may run before they are defined."""
    return {stmt.saved for stmt in syntax.statements(forward)
            if getattr(stmt, "saved", None) is not None
            and getattr(stmt, "maybe_undefined", False)}


def _assigned(body, uses):
    names = set()
    for stmt in body:   # (a block's uses cover its nested statements)
        names.update(uses.of(stmt).stores)
    return names


def _loaded(node_or_body):
    body = node_or_body if isinstance(node_or_body, list) else [node_or_body]
    names = set()
    for node in body:
        names.update(syntax.loaded_names(node))
    return names


def _order(forward, params, uses):
    """``{name: position}`` of the parameters, then of the names ``forward`` assigns in
    the order it first assigns them (``uses``: a ``UseCache``)."""
    order = {p: i for i, p in enumerate(params)}
    for stmt in forward:   # (a block's names before those of the statements after it)
        for name in uses.of(stmt).stores:
            order.setdefault(name, len(order))
    return order
