"""A ``GradientTape`` used inside a function being differentiated.

The tape records at run time; code being differentiated never runs it. The block is
lowered to what it computes: its statements run as they are, then the block as a local
function of the watched values gives the gradient of the sum of the target (TF sums a
non-scalar target) through ``sg.vjp``, which ``nested_vjp`` and ``nested_derivatives``
then lower like any vjp of a local function::

    def f(x):                              def f(x):
        with sg.GradientTape() as tape:        y = x * x * w
            tape.watch(x)          ->          def _tape_target_y(x):
            y = x * x * w                          y = x * x * w
        return tape.gradient(y, x) * x             return y
                                               _tape_target_y_value, _tape_target_y_pullback = \
                                                   _tape_vjp(_tape_target_y, wrt=(0,))(x)
                                               _tape_target_y_grads = _tape_target_y_pullback(
                                                   _sg.ones_seed(_tape_target_y_value))
                                               return _tape_target_y_grads[0] * x

Values the block reads but does not watch are constants of the inner gradient and
inputs of the outer one, so the two perturbations stay apart. ``sg.constant(v)`` in the
function is ``_sg.constant_value(v)``: the value, a constant (a new Tensor is connected
to nothing, as eagerly), which a tape block may watch. Refused at the user's line: a
tape block that is not a statement of the function's own body, ``tape.watch`` after
other statements of the block (TF would not have recorded them), a watched name bound
again in the block, ``return`` in it, any use of the tape but ``watch`` and
``gradient``, ``gradient`` w.r.t. a value not watched, a target not bound once in the
block, ``output_gradients`` / ``unconnected_gradients``, and a second ``gradient`` of a
tape that is not persistent. Where TF gives None (a source the target does not depend
on), this gives zeros.
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.frontend import transforms
from srcgrad.syntax import gast

_VJP = "_tape_vjp"


def lower_nested_tapes(parsed, namer):
    """Rewrite each ``with sg.GradientTape() as tape:`` of ``parsed.node``'s body as the
    module docstring shows."""
    _constants_as_values(parsed)
    if not any(isinstance(node, gast.With) for node in syntax.walk(parsed.node)):
        return
    blocks = [(i, stmt) for i, stmt in enumerate(parsed.node.body)
              if isinstance(stmt, gast.With) and _is_tape(parsed, stmt)]
    _refuse_nested_tapes(parsed, {id(stmt) for _, stmt in blocks})
    for index, block in reversed(blocks):
        parsed.node.body[index:index + 1] = _lower(parsed, namer, block, index)


def _constants_as_values(parsed):
    """``sg.constant(v)`` -> ``_sg.constant_value(v)``: the value, a constant (what a tape
    block watches, when the function also runs eagerly)."""
    for node in _own_nodes(parsed.node):
        if isinstance(node, gast.Call) and len(node.args) == 1 and not node.keywords:
            dotted = syntax.dotted_name(node.func)
            try:
                found = dotted is not None and transforms.is_constant(parsed.resolve(dotted))
            except KeyError:
                found = False
            if found:
                parsed.assume(dotted)
                node.func = syntax.quote_expr("_sg.constant_value")


def _own_nodes(function):
    """The nodes of ``function``'s own scope (not of its local functions and lambdas)."""
    pending = list(function.body)
    while pending:
        node = pending.pop()
        if not isinstance(node, (gast.FunctionDef, gast.Lambda)):
            yield node
            pending.extend(gast.iter_child_nodes(node))


def _is_tape(parsed, stmt):
    expr = stmt.items[0].context_expr
    if not isinstance(expr, gast.Call):
        return False
    dotted = syntax.dotted_name(expr.func)
    try:
        return dotted is not None and transforms.is_tape(parsed.resolve(dotted)) \
            and parsed.assume(dotted) is not None
    except KeyError:
        return False


def _refuse_nested_tapes(parsed, lowered):
    for node in syntax.walk(parsed.node):
        if isinstance(node, gast.With) and id(node) not in lowered \
                and _is_tape(parsed, node):
            raise parsed.error("a GradientTape inside a function being differentiated must "
                               "be a statement of the function's own body (not in a loop, "
                               "a branch, a local function or another tape)", node)


def _lower(parsed, namer, block, index):
    item = block.items[0]
    if len(block.items) != 1 or not isinstance(item.optional_vars, gast.Name):
        raise parsed.error("a GradientTape inside a function being differentiated must be "
                           "opened alone as `with sg.GradientTape() as tape:`", block)
    tape = item.optional_vars.id
    persistent = _persistent(parsed, item.context_expr)
    watched, body = _split_watches(parsed, block, tape)
    later = parsed.node.body[index + 1:]
    _check_tape_uses(parsed, block, later, tape)
    target_fn = namer.fresh("_tape_target")
    gradients = [call for stmt in later for call in syntax.walk(stmt)
                 if _is_method_call(call, tape, "gradient")]
    if len(gradients) > 1 and not persistent:
        raise parsed.error("A non-persistent GradientTape can only be used to compute one set "
                           "of gradients (or jacobians)", gradients[1])
    targets = sorted({_rewrite_gradient(parsed, call, watched, body, target_fn)
                      for call in gradients})
    parsed.injected.setdefault(_VJP, transforms.named("vjp"))
    lowered = list(body)
    for name in targets:
        lowered += _gradients_of(f"{target_fn}_{name}", watched, body, name, block)
    return lowered


def _persistent(parsed, call):
    for keyword in call.keywords:
        if keyword.arg == "persistent":
            if not isinstance(keyword.value, gast.Constant):
                raise parsed.error("`persistent=` of a GradientTape inside a function being "
                                   "differentiated must be a literal", call)
            return bool(keyword.value.value)
    if call.args:
        if not isinstance(call.args[0], gast.Constant):
            raise parsed.error("`persistent` of a GradientTape inside a function being "
                               "differentiated must be a literal", call)
        return bool(call.args[0].value)
    return False


def _split_watches(parsed, block, tape):
    """``(watched names in order, the block's other statements)``."""
    watched, body = [], []
    for stmt in block.body:
        call = stmt.value if isinstance(stmt, gast.Expr) else None
        if call is not None and _is_method_call(call, tape, "watch"):
            if body:
                raise parsed.error("`tape.watch` after other statements of the block: TF "
                                   "records only what runs after it; watch first", stmt)
            watched += _names(parsed, call.args[0] if len(call.args) == 1 else None, call)
        else:
            body.append(stmt)
    stored = {n.id for stmt in body for n in syntax.walk(stmt)
              if isinstance(n, gast.Name) and not isinstance(n.ctx, gast.Load)}
    for stmt in body:
        for node in syntax.walk(stmt):
            if isinstance(node, (gast.Return, gast.Yield, gast.Global, gast.Nonlocal)):
                raise parsed.error("this statement is not supported in a GradientTape block "
                                   "inside a function being differentiated", node)
    rebound = sorted(set(watched) & stored)
    if rebound:
        raise parsed.error(f"`{rebound[0]}` is watched and bound again in the tape block; "
                           "watch the new value under another name", block)
    return list(dict.fromkeys(watched)), body


def _names(parsed, node, call):
    if isinstance(node, gast.Name):
        return [node.id]
    if isinstance(node, (gast.List, gast.Tuple)) and all(
            isinstance(e, gast.Name) for e in node.elts):
        return [e.id for e in node.elts]
    raise parsed.error("inside a function being differentiated, a tape watches and "
                       "differentiates w.r.t. names (or a list of them)", call)


def _is_method_call(node, tape, method):
    return isinstance(node, gast.Call) and isinstance(node.func, gast.Attribute) \
        and node.func.attr == method and isinstance(node.func.value, gast.Name) \
        and node.func.value.id == tape


def _check_tape_uses(parsed, block, later, tape):
    allowed = {"watch": block.body, "gradient": later}
    for method, stmts in allowed.items():
        for stmt in stmts:
            for node in syntax.walk(stmt):
                if isinstance(node, gast.Attribute) and isinstance(node.value, gast.Name) \
                        and node.value.id == tape and node.attr != method:
                    raise parsed.error(f"`{tape}.{node.attr}` of a GradientTape inside a "
                                       "function being differentiated is not supported",
                                       node)
    for stmt in list(block.body) + list(later):
        calls = {id(c.func.value) for c in syntax.walk(stmt) if isinstance(c, gast.Call)
                 and isinstance(c.func, gast.Attribute)}
        for node in syntax.walk(stmt):
            if isinstance(node, gast.Name) and node.id == tape and id(node) not in calls:
                raise parsed.error(f"the tape `{tape}` is used as a value inside a function "
                                   "being differentiated; only its watch and gradient "
                                   "methods can be called", node)


def _rewrite_gradient(parsed, call, watched, body, target_fn):
    """``tape.gradient(y, [a, b])`` -> ``[_tape_gradient(t_y, wrt=i)(*watched) ...]``;
    returns the target's name."""
    if call.keywords or len(call.args) != 2:
        raise parsed.error("inside a function being differentiated, `tape.gradient` takes "
                           "the target and the sources only", call)
    target, sources = call.args
    stores = [n for stmt in body for n in syntax.walk(stmt)
              if isinstance(n, gast.Name) and isinstance(n.ctx, gast.Store)
              and isinstance(target, gast.Name) and n.id == target.id]
    if not isinstance(target, gast.Name) or len(stores) != 1:
        raise parsed.error("inside a function being differentiated, the target of "
                           "`tape.gradient` must be a name bound once in the tape block",
                           call)
    names = _names(parsed, sources, call)
    for name in names:
        if name not in watched:
            raise parsed.error(f"`{name}` is not watched by the tape: inside a function "
                               "being differentiated, `tape.gradient` is taken w.r.t. "
                               "watched values only", call)
    grads = f"{target_fn}_{target.id}_grads"
    parts = [gast.Subscript(value=syntax.name(grads), slice=syntax.const(watched.index(n)),
                            ctx=gast.Load()) for n in names]
    value = parts[0] if isinstance(sources, gast.Name) else gast.List(elts=parts,
                                                                      ctx=gast.Load())
    _replace(call, value)
    return target.id


def _replace(node, value):
    """Turn ``node`` into ``value`` in place (its parent keeps pointing at it), on
    ``node``'s line."""
    lineno, col = node.lineno, node.col_offset
    for sub in syntax.walk(value):
        if isinstance(sub, (gast.expr, gast.stmt)):
            sub.lineno, sub.col_offset = lineno, col
            sub.end_lineno, sub.end_col_offset = lineno, col
    node.__class__ = value.__class__
    node.__dict__.clear()
    node.__dict__.update(value.__dict__)


def _gradients_of(name, watched, body, target, block):
    """The block as a function of the watched values returning ``target``, and the
    gradient of the sum of ``target`` w.r.t. each of them, taken right after the block::

        def _tape_target_z(x):
            ...
            return z
        _tape_target_z_value, _tape_target_z_pullback = _tape_vjp(_tape_target_z, wrt=(0,))(x)
        _tape_target_z_grads = _tape_target_z_pullback(_sg.ones_seed(_tape_target_z_value))
    """
    node = gast.FunctionDef(
        name=name, args=gast.arguments(
            args=[syntax.param(w) for w in watched], posonlyargs=[], vararg=None,
            kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]),
        body=[syntax.clone(stmt) for stmt in body] + [gast.Return(value=syntax.name(target))],
        decorator_list=[], returns=None, type_comment=None, type_params=[])
    wrt = gast.Tuple(elts=[syntax.const(i) for i in range(len(watched))], ctx=gast.Load())
    vjp = gast.Call(func=gast.Call(func=syntax.name(_VJP), args=[syntax.name(name)],
                                   keywords=[gast.keyword(arg="wrt", value=wrt)]),
                    args=[syntax.name(w) for w in watched], keywords=[])
    pair = gast.Tuple(elts=[syntax.name(f"{name}_value", store=True),
                            syntax.name(f"{name}_pullback", store=True)], ctx=gast.Store())
    seed = syntax.call("_sg.ones_seed", [syntax.name(f"{name}_value")])
    grads = syntax.assign(f"{name}_grads", gast.Call(
        func=syntax.name(f"{name}_pullback"), args=[seed], keywords=[]))
    made = [node, gast.Assign(targets=[pair], value=vjp, type_comment=None), grads]
    for stmt in made:
        for sub in syntax.walk(stmt):
            if getattr(sub, "lineno", None) is None and isinstance(sub, (gast.stmt, gast.expr)):
                sub.lineno, sub.col_offset = block.lineno, block.col_offset
                sub.end_lineno, sub.end_col_offset = block.lineno, block.col_offset
    return made
