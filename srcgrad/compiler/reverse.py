"""The pipeline: frontend -> normalize -> analyze -> reverse mode -> optimize -> codegen.

``reverse_unit(fn, wrt)`` returns a ``ReverseUnit`` holding four generated functions
that share one source module:

- ``f_forward(*args) -> (value, saved)``  the augmented forward sweep;
- ``f_backward(saved, dy) -> grads``      the backward sweep;
- ``f_grad(*args) -> grads`` and ``f_value_and_grad(*args) -> (value, grads)``: both
  sweeps fused in one function (nothing packed or unpacked in between).

Units are cached per (function, wrt); a failed compile leaves the cache as it was.
Under that cache, ``srcgrad.compiler.cache`` keeps generated modules on disk: a miss there
generates, a hit only execs the stored source (``_load`` serves both).
An *eager* unit (``reverse_unit(fn, wrt, eager=True)``, cached apart) serves the
TF-eager APIs: Variable reads are differentiable sources whose cotangents go back to
the Variables (``normalize.variables``), and the seed is ones for any float output.
"""

from __future__ import annotations

import dataclasses
import gc
import threading
import weakref

from srcgrad import syntax
from srcgrad.analysis import escapes
from srcgrad.analysis.dataflow import surely_defined_after
from srcgrad.codegen import defaults, emit, loader
from srcgrad.codegen.naming import Namer
from srcgrad.compiler import cache as disk_cache
from srcgrad.compiler import code_cache, debug, guards, unit_cache
from srcgrad.frontend.depth import room_for_deep_expressions
from srcgrad.frontend.fence import check_function
from srcgrad.frontend.generators import refuse_generator
from srcgrad.frontend.parse import parse_function
from srcgrad.modes.reverse import ReverseMode
from srcgrad.modes.reverse_rules import MATH_TWINS
from srcgrad.normalize import normalize_function
from srcgrad.optimize import optimize_sweeps
from srcgrad.rules.methods import is_array_attribute
from srcgrad.syntax import gast

_LOCK = threading.RLock()
COMPILE_COUNT = {"reverse": 0, "shared": 0}   # units generated; loaded from a template


@dataclasses.dataclass
class ReverseUnit:
    srcgrad_opaque = True   # no cotangent structure (it travels in dynamic calls' saved values)
    fn: object
    wrt: tuple
    module: emit.GeneratedModule | None = None
    namespace: dict | None = None
    filename: str | None = None
    zero_wrt: frozenset = frozenset()   # wrt params whose gradient is symbolically zero
    eager: bool = False                 # Variable reads are sources (see module doc)
    scalars: bool = False               # specialized for scalar arguments
    functions: dict = dataclasses.field(default_factory=dict)
    callees: dict = dataclasses.field(default_factory=dict)   # alias -> (callee unit, role)
    guards: tuple | None = None   # (name, dotted, object) checked on entry (compiler.guards)
    escapes: str | None = None    # where it lets a differentiated value out (analysis.escapes)
    linked_early: bool = False   # a caller linked to it before it was generated
    _dependents: list = dataclasses.field(default_factory=list)

    @property
    def forward(self):
        return self.functions["forward"]

    @property
    def backward(self):
        return self.functions["backward"]

    @property
    def grad(self):
        return self.functions["grad"]

    @property
    def value_and_grad(self):
        return self.functions["value_and_grad"]

    @property
    def source(self):
        return self.module.source

    def function_source(self, role):
        return emit.function_source(self.module, self.module.functions[role])

    def _publish(self):
        for ref, aliases in self._dependents:
            namespace = ref()
            for alias, role in aliases if namespace is not None else ():
                namespace[alias] = self.functions[role]


def _kind(eager, scalars):
    return "reverse-eager" if eager else ("reverse-scalars" if scalars else "reverse")


def reverse_unit(fn, wrt, eager=False, scalars=False):
    """The compiled reverse-mode unit of ``fn`` w.r.t. ``wrt``: one parameter name (the
    generated functions return one gradient) or a tuple of names (they return a tuple).
    ``scalars``: the variant specialized for scalar arguments (see ``_scalar_dispatch``)."""
    wrt = wrt if isinstance(wrt, str) else tuple(wrt)
    refuse_generator(fn)
    with _LOCK:
        found = unit_cache.find(fn, _kind(eager, scalars), wrt)
        if found is not None:
            return found
        created = []
        collecting = gc.isenabled()
        gc.disable()   # generation allocates many small trees and frees none of them early
        try:
            with room_for_deep_expressions(fn):
                return _compile(fn, wrt, created, eager, scalars)
        except BaseException:
            for unit in created:
                unit_cache.discard(unit.fn, _kind(unit.eager, unit.scalars), unit.wrt, unit)
            raise
        finally:
            if collecting:
                gc.enable()


def _compile(fn, wrt, created, eager=False, scalars=False):
    custom = getattr(fn, "srcgrad_reverse_unit", None)   # sg.custom_vjp, sg.checkpoint
    if custom is not None:
        return custom(wrt)
    mode = _kind(eager, scalars)
    found = unit_cache.find(fn, mode, wrt)
    if found is not None:
        return found
    unit = ReverseUnit(fn, wrt, eager=eager, scalars=scalars)
    unit_cache.add(fn, mode, wrt, unit)
    created.append(unit)
    shared = _from_template(unit, mode, created)
    if shared is not None:
        return shared
    parsed = parse_function(fn)
    parsed.require_parameters((wrt,) if isinstance(wrt, str) else wrt)
    stored = disk_cache.lookup(parsed, wrt, mode, required=("zero_wrt", "guards"))
    if stored.hit:
        try:
            callees = stored.callees(
                parsed, lambda callee, params: _compile(callee, params, created, eager))
            unit.guards = guards.reresolved(parsed, stored.fields["guards"])
            unit.escapes = stored.fields.get("escapes")
            _load(unit, parsed, stored.module, stored.fields["zero_wrt"], callees)
            code_cache.remember(fn, mode, wrt, parsed, unit, callees, stored.names)
            return unit
        except Exception:   # a stored entry that no longer loads: generated afresh
            stored = stored.rejected()
    parsed = check_function(parsed)
    parsed.default_values = defaults.name_defaults(parsed.fn, parsed.node)
    base = parsed.fn.__name__ if parsed.fn.__name__ != "<lambda>" else "lambda_"
    roles = ("forward", "backward", "grad", "value_and_grad")
    namer = Namer(syntax.names_in(parsed.node) + [parsed.node.name])
    fn_names = {role: namer.fresh(f"{base}_{role}") for role in roles}
    normalize_function(parsed, namer, eager=eager)

    callee_aliases = {}   # (callee fn, wrt) -> (forward alias, backward alias[, unit])

    def callee_names(callee, callee_wrt):
        """Names of ``callee``'s split pair w.r.t. ``callee_wrt`` (the parameters whose
        arguments carry derivatives at the call; one name: a single gradient)."""
        key = (callee, callee_wrt)
        if key not in callee_aliases:
            callee_unit = _compile(callee, callee_wrt, created, eager)
            escapes.check_linked(callee_unit)
            if getattr(callee_unit, "escapes", None):
                escaping[callee] = callee_unit.escapes
            if callee_unit is unit:
                callee_aliases[key] = (fn_names["forward"], fn_names["backward"])
            else:
                name = callee.__name__ if callee.__name__ != "<lambda>" else "lambda_"
                callee_aliases[key] = (namer.fresh(f"{name}_forward"),
                                       namer.fresh(f"{name}_backward"), callee_unit)
        return callee_aliases[key][:2]

    escaping = callee_names.escaping = {}   # callee -> where it lets a value out
    wrt_names = (wrt,) if isinstance(wrt, str) else wrt
    mode = ReverseMode(parsed, parsed.node, wrt_names, namer, callee_names, eager,
                       scalar_params=scalars)
    result = mode.run()
    escapes.record(unit, mode.escapes)
    containers = _container_params(parsed.node, syntax.param_names(parsed.node.args))
    functions, zero_wrt = _assemble(parsed, result, fn_names, namer, isinstance(wrt, str),
                                    scalars, containers)
    if not (eager or scalars):
        for role in ("forward", "grad", "value_and_grad"):
            functions[role].body[:0] = array_type_guard(parsed)
        fn_names.update(_scalar_dispatch(parsed, functions, base, namer, containers))
    unit.guards = guards.guarded(parsed)
    _guard_entries(unit.guards, functions)
    where = emit.source_location(parsed.filename, parsed.node.lineno)
    header = [f"Generated by srcgrad from {fn.__qualname__} ({where}): reverse mode, "
              f"wrt {', '.join(wrt_names) or '()'}."]
    if scalars:
        header.append("Specialized for scalar arguments: no broadcasting, `math` partials.")
    module = emit.render_module(header, [(role, functions[role]) for role in roles])
    module.functions.update({r: n for r, n in fn_names.items() if r.startswith("scalar_")})
    _load(unit, parsed, module, zero_wrt, callee_aliases)
    code_cache.remember(fn, _kind(eager, scalars), wrt, parsed, unit, callee_aliases,
                        disk_cache.names_of(parsed))
    stored.store(unit, {key: aliases for key, aliases in callee_aliases.items()
                        if len(aliases) == 3}, {"zero_wrt": sorted(unit.zero_wrt),
                                                "guards": guards.describe(unit.guards),
                                                "escapes": unit.escapes})
    COMPILE_COUNT["reverse"] += 1
    return unit


def _from_template(unit, mode, created):
    """``unit`` loaded from the module generated for another closure of its function's
    code (``compiler.code_cache``), or None."""
    template = code_cache.find(unit.fn, mode, unit.wrt)
    if template is None:
        return None
    parsed = template.parsed_for(unit.fn)
    callees = code_cache.linked_callees(
        template, parsed, lambda callee, params: _compile(callee, params, created, unit.eager))
    if callees is None:
        return None
    unit.guards = template.fields["guards"]
    unit.escapes = template.fields["escapes"]
    COMPILE_COUNT["shared"] += 1
    return _load(unit, parsed, template.module, template.fields["zero_wrt"], callees)


def _load(unit, parsed, module, zero_wrt, callee_aliases):
    """Load the unit's generated module (each function compiled on first use) and link
    it with its callees' units."""
    unit.module = module
    unit.zero_wrt = frozenset(zero_wrt)
    unit.namespace = loader.LiveGlobals(parsed.fn)
    unit.namespace.update({name: obj for name, _, obj in unit.guards})
    unit.namespace.update(parsed.injected)
    default_values = getattr(parsed, "default_values", None)
    unit.namespace.update(default_values if default_values is not None
                          else defaults.default_bindings(parsed.fn, parsed.node))
    unit.filename = loader.register(module.source, unit.fn.__qualname__, annotated=True)
    if not debug.annotated(unit.filename):
        debug.annotate_lines(unit)
    for role, alias in module.functions.items():
        if role.startswith("scalar_"):
            unit.namespace[alias] = _ScalarVariant(unit, role[len("scalar_"):], alias)

    def prepare(role, function):
        function.source = unit.function_source(role)
        function.unit, function.role = unit, role

    names = {role: name for role, name in module.functions.items()
             if not role.startswith("scalar_")}
    unit.functions = loader.LazyFunctions(module.source, unit.filename, names, module.spans,
                                          unit.namespace, prepare)
    for entry in callee_aliases.values():
        if len(entry) == 3:
            forward_alias, backward_alias, callee_unit = entry
            unit.callees[forward_alias] = (callee_unit, "forward")
            unit.callees[backward_alias] = (callee_unit, "backward")
            aliases = [(forward_alias, "forward"), (backward_alias, "backward")]
            callee_unit._dependents.append((weakref.ref(unit.namespace), aliases))
            if callee_unit.functions:
                callee_unit._publish()
    return unit


def _guard_entries(unit_guards, functions):
    """Entry functions check the unit's guards first; the backward sweep passes the
    saved values of a hand-over on (see ``srcgrad.compiler.guards``)."""
    if not unit_guards:
        return
    for role in ("forward", "grad", "value_and_grad"):
        check = guards.entry_check(unit_guards, functions[role])
        syntax.set_line(check, functions[role].lineno)
        functions[role].body[:0] = check
    backward = functions["backward"]
    check = guards.redirect_check(*[a.id for a in backward.args.args])
    syntax.set_line(check, backward.lineno)
    backward.body[:0] = check


def _assemble(parsed, result, fn_names, namer, single, scalars, containers):
    """Build the four generated ``def``s from the sweeps. Each gradient is returned in
    its input's dtype (``_sg.in_dtype_of``). ``containers``: the parameters used as
    containers (``_container_params``)."""
    params = syntax.param_names(parsed.node.args)
    signature = parsed.node.args
    grads = []
    zero_wrt = []
    rebound = _assigned(result.forward)   # (before any `x_entry = x` is added)
    for p in result.adjoints:
        adjoint = result.adjoints[p]
        if adjoint is None:
            zero_wrt.append(p)
            template = "_sg.zeros_like_structure(x)" if p in containers else "_sg.zeros_like(x)"
            grads.append(syntax.quote_expr(template, x=p))
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
    grads_expr = grads[0] if single else syntax.tuple_of(grads)
    live_out = {result.adjoints[p] for p in result.adjoints if result.adjoints[p]}
    forward, backward, saved = optimize_sweeps(
        result.forward, result.backward, live_out,
        syntax.loaded_names(result.result) + syntax.loaded_names(grads_expr))
    undefined = _maybe_undefined(forward)
    prologue = [syntax.assign(v, syntax.const(None)) for v in sorted(saved) if v in undefined]
    if saved:
        prologue.append(syntax.assign(result.stack, gast.List(elts=[], ctx=gast.Load())))
    forward = prologue + forward
    value = result.result
    seed = result.seed
    seed_stmt = syntax.assign(seed, syntax.quote_expr(f"{result.seed_helper}(y)", y=value))

    order = _order(forward, params)   # every name the forward sweep or a parameter binds
    defined = set(order)
    backward_reads = _loaded(backward) | _loaded(grads_expr)
    residuals = sorted((backward_reads & defined) - {seed}, key=order.__getitem__)
    exit_defined = surely_defined_after(forward, params)
    # The split forward packs every residual, so one assigned on some paths only starts
    # as None there (the fused functions never read it on the other paths).
    initialized = _assigned(prologue)
    residual_inits = [syntax.assign(r, syntax.const(None)) for r in residuals
                      if r not in exit_defined and r not in initialized]
    saved_name = namer.fresh("saved")
    unpack = [syntax.assign(syntax.tuple_of([syntax.name(r, True) for r in residuals], True),
                            syntax.name(saved_name))] if residuals else []
    if result.stack in residuals:   # the backward may run more than once (sg.vjp)
        unpack += syntax.quote("stack = list(stack)", stack=result.stack)

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
    fused = [fwd_comment] + forward + [bwd_comment, seed_stmt] + backward
    functions["grad"] = syntax.function_def(
        fn_names["grad"], params, fused + [gast.Return(value=syntax.clone(grads_out))],
        arguments=signature)
    returned, keep = value, []
    if isinstance(value, gast.Name) and value.id in _assigned(backward):
        # The backward sweep restores overwritten values: keep the result before it runs.
        returned = syntax.name(namer.fresh("value"))
        keep = [syntax.assign(returned.id, syntax.clone(value))]
    fused_keeping = [fwd_comment] + forward + keep + [bwd_comment, seed_stmt]
    functions["value_and_grad"] = syntax.function_def(
        fn_names["value_and_grad"], params,
        fused_keeping + backward + [gast.Return(value=syntax.tuple_of(
            [syntax.clone(returned), syntax.clone(grads_out)]))],
        arguments=signature)
    for function in functions.values():
        function.lineno = parsed.node.lineno
    return functions, zero_wrt


def _entry_value(param, forward, namer, rebound):
    """The name holding ``param``'s value on entry: itself, or, when the function rebinds
    it (``rebound``: the names ``forward`` assigns), a copy taken first (``x_entry = x``),
    so the backward need not restore it."""
    if param not in rebound:
        return param
    entry = namer.fresh(f"{param}_entry")
    forward.insert(0, syntax.assign(entry, syntax.name(param)))
    return entry


def _scalar_dispatch(parsed, functions, base, namer, containers):
    """When every argument is a scalar, the fused functions hand over to a variant
    specialized for scalars (compiled on first use), which needs no broadcasting and
    takes partials with ``math``. Only added when that variant would differ."""
    args = parsed.node.args
    params = [a.id for a in args.posonlyargs + args.args]
    if args.vararg or args.kwarg or args.kwonlyargs or not params \
            or containers & set(params) or _matmul_operands(parsed.node, params):
        return {}
    if not _calls_array_helpers(functions["grad"]):
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


def array_type_guard(parsed):
    """``_sg.check_array_types(x, w)``: the entry's guard that no argument is an ndarray
    whose operators mean something else (``np.matrix``), which the rules cannot prove."""
    args = parsed.node.args
    params = [a.id for a in args.posonlyargs + args.args + args.kwonlyargs]
    if not params:
        return []
    guard = gast.Expr(value=syntax.call("_sg.check_array_types",
                                        [syntax.name(p) for p in params]))
    syntax.set_line(guard, parsed.node.lineno)
    return [guard]


def _calls_array_helpers(function):
    """Does ``function`` call ``unbroadcast`` or ``np.<f>`` with a ``math`` twin?
    (Statement by statement: the first such call, usually near the top, ends the search.)"""
    for sub in (sub for stmt in function.body for sub in syntax.walk(stmt)):
        if isinstance(sub, gast.Call) and isinstance(sub.func, (gast.Attribute, gast.Name)):
            func = sub.func
            if (func.attr if isinstance(func, gast.Attribute) else func.id) == "unbroadcast":
                return True
            if isinstance(func, gast.Attribute) and func.attr in MATH_TWINS \
                    and isinstance(func.value, gast.Name) and func.value.id == "np":
                return True
    return False


def _matmul_operands(node, params):
    """Parameters used with ``@`` (never scalars)."""
    return {operand.id for sub in syntax.walk(node)
            if isinstance(sub, gast.BinOp) and isinstance(sub.op, gast.MatMult)
            for operand in (sub.left, sub.right)
            if isinstance(operand, gast.Name) and operand.id in params}


class _ScalarVariant:
    """Stands in for a scalar-specialized function until its first call compiles it."""

    def __init__(self, unit, role, alias):
        self.unit, self.role, self.alias = unit, role, alias

    def __call__(self, *args):
        function = self.__srcgrad_variant__()
        self.unit.namespace[self.alias] = function
        return function(*args)

    def __srcgrad_variant__(self):
        """The compiled function it stands in for (``modes.calls.generated_variant``:
        a gradient differentiated again calls it like a user function)."""
        variant = reverse_unit(self.unit.fn, self.unit.wrt, scalars=True)
        return variant.functions[self.role]


def _container_params(node, params):
    """Parameters used as containers (indexed, iterated, read by attribute, called as
    objects): their gradients are given the parameter's own structure (tuple, dict,
    NamedTuple, the object's class...)."""
    found = set()
    aliases = {p: p for p in params}   # `a, b = pair` reads pair through a temporary
    for sub in syntax.walk(node):
        base = None
        if isinstance(sub, gast.Assign) and isinstance(sub.value, gast.Name) \
                and sub.value.id in aliases and isinstance(sub.targets[0], gast.Name):
            aliases[sub.targets[0].id] = aliases[sub.value.id]
        elif isinstance(sub, gast.Subscript) or (
                isinstance(sub, gast.Attribute) and not is_array_attribute(sub.attr)):
            base = sub.value
        elif isinstance(sub, gast.For):
            base = sub.iter
        elif isinstance(sub, gast.Call):
            base = sub.func
        if isinstance(base, gast.Name) and base.id in aliases:
            found.add(aliases[base.id])
    return found


def _maybe_undefined(forward):
    """The saved variables some save of which may run before they are defined."""
    return {stmt.saved for stmt in syntax.statements(forward)
            if getattr(stmt, "saved", None) is not None
            and getattr(stmt, "maybe_undefined", False)}


def _assigned(body):
    names = set()
    for stmt in body:   # (a block's walk covers its nested statements)
        names.update(syntax.names_in(stmt, gast.Store))
    return names


def _loaded(node_or_body):
    body = node_or_body if isinstance(node_or_body, list) else [node_or_body]
    names = set()
    for node in body:
        names.update(syntax.loaded_names(node))
    return names


def _order(forward, params):
    """``{name: position}`` of the parameters, then of the names ``forward`` assigns in
    the order it first assigns them."""
    order = {p: i for i, p in enumerate(params)}
    for stmt in forward:   # (a block's names before those of the statements after it)
        for name in syntax.names_in(stmt, gast.Store):
            order.setdefault(name, len(order))
    return order

