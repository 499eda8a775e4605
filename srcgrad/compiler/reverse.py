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
The four ``def``s are built from the sweeps in ``compiler.reverse_assembly``.
An *eager* unit (``reverse_unit(fn, wrt, eager=True)``, cached apart) serves the
TF-eager APIs: Variable reads are differentiable sources whose cotangents go back to
the Variables (``normalize.variables``), and the seed is ones for any float output.
"""

from __future__ import annotations

import dataclasses
import functools
import gc
import threading
import weakref

from srcgrad import syntax
from srcgrad.analysis import escapes
from srcgrad.codegen import defaults, emit, loader
from srcgrad.codegen.naming import Namer
from srcgrad.compiler import cache as disk_cache
from srcgrad.compiler import code_cache, debug, guards, library_watch, unit_cache
from srcgrad.compiler.reverse_assembly import _assemble, _container_params, _scalar_dispatch
from srcgrad.frontend.depth import room_for_deep_expressions
from srcgrad.frontend.fence import check_function, taken_names
from srcgrad.frontend.generators import refuse_generator
from srcgrad.frontend.parse import parse_function
from srcgrad.modes.reverse import ReverseMode
from srcgrad.normalize import normalize_function
from srcgrad.syntax import gast

_LOCK = threading.RLock()
COMPILE_COUNT = {"reverse": 0, "shared": 0}   # units generated; loaded from a template
NUMPY_SWEEP = "numpy"   # ``reverse_unit(scalars=NUMPY_SWEEP)``


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
    scalars: bool | str = False         # specialized for scalar arguments (see reverse_unit)
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
    if eager:
        return "reverse-eager"
    return {True: "reverse-scalars", NUMPY_SWEEP: "reverse-scalars-numpy"}.get(scalars,
                                                                             "reverse")


def reverse_unit(fn, wrt, eager=False, scalars=False):
    """The compiled reverse-mode unit of ``fn`` w.r.t. ``wrt``: one parameter name (the
    generated functions return one gradient) or a tuple of names (they return a tuple).
    ``scalars``: the variant specialized for scalar arguments (see ``_scalar_dispatch``),
    whose fused functions run the backward sweep on Python floats where they can
    (``compiler.float_fused``); ``NUMPY_SWEEP``: that variant without it, which is what
    a derivative of it differentiates (its numbers are the same)."""
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
            code_cache.remember(fn, mode, wrt, parsed, unit, callees, lambda: stored.names)
            return unit
        except Exception:   # a stored entry that no longer loads: generated afresh
            stored = stored.rejected()
    parsed = check_function(parsed)
    parsed.default_values = defaults.name_defaults(parsed.fn, parsed.node)
    base = parsed.fn.__name__ if parsed.fn.__name__ != "<lambda>" else "lambda_"
    roles = ("forward", "backward", "grad", "value_and_grad")
    namer = Namer(taken_names(parsed))
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
    mode.close()
    matmul = set()   # (the parameters used with ``@``, found in the same walk)
    containers = _container_params(parsed.node, syntax.param_names(parsed.node.args), matmul)
    functions, zero_wrt = _assemble(parsed, result, fn_names, namer, isinstance(wrt, str),
                                    scalars, containers)
    if not (eager or scalars):
        for role in ("forward", "grad", "value_and_grad"):
            functions[role].body[:0] = array_type_guard(parsed)
        fn_names.update(_scalar_dispatch(parsed, functions, base, namer, containers,
                                         matmul))
    unit.guards = guards.guarded(parsed)
    for function in functions.values():
        guards.read_once(unit.guards, function)
    _guard_entries(unit.guards, functions)
    for role in ("forward", "grad", "value_and_grad"):
        check = guards.defaults_check(parsed.fn)
        syntax.set_line(check, functions[role].lineno)
        functions[role].body[:0] = check
    where = emit.source_location(parsed.filename, parsed.node.lineno)
    header = [f"Generated by srcgrad from {fn.__qualname__} ({where}): reverse mode, "
              f"wrt {', '.join(wrt_names) or '()'}."]
    if scalars:
        header.append("Specialized for scalar arguments: no broadcasting, `math` partials.")
    module = emit.render_module(header, [(role, functions[role]) for role in roles],
                                (parsed.filename, fn.__name__))
    module.functions.update({r: n for r, n in fn_names.items() if r.startswith("scalar_")})
    _load(unit, parsed, module, zero_wrt, callee_aliases)
    code_cache.remember(fn, _kind(eager, scalars), wrt, parsed, unit, callee_aliases,
                        lambda: disk_cache.names_of(parsed))
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
    unit.namespace.update(guards.own_defaults(parsed.fn))
    unit.namespace.update(parsed.injected)
    default_values = getattr(parsed, "default_values", None)
    unit.namespace.update(default_values if default_values is not None
                          else defaults.default_bindings(parsed.fn, parsed.node))
    unit.filename = loader.register(module.source, unit.fn.__qualname__, annotated=True,
                                    owner=unit)
    library_watch.watch(unit, module.source)
    for role, alias in module.functions.items():
        if role.startswith("scalar_"):
            unit.namespace[alias] = _ScalarVariant(unit, role[len("scalar_"):], alias)

    def prepare(role, function):
        function.source = unit.function_source(role)
        function.unit, function.role = unit, role
        debug.annotate_lines(unit, module.spans[module.functions[role]])
        if unit.scalars is True and role in ("grad", "value_and_grad"):
            function.srcgrad_variant = functools.partial(_numpy_sweep_variant, unit, role)

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


class _ScalarVariant:
    """Stands in for a scalar-specialized function until its first call compiles it."""

    def __init__(self, unit, role, alias):
        self.unit, self.role, self.alias = unit, role, alias

    def __call__(self, *args):
        function = reverse_unit(self.unit.fn, self.unit.wrt, scalars=True).functions[self.role]
        self.unit.namespace[self.alias] = function
        return function(*args)

    def __srcgrad_variant__(self):
        """What a gradient differentiated again differentiates in place of the function
        it stands in for (``modes.calls.generated_variant``)."""
        return _numpy_sweep_variant(self.unit, self.role)


def _numpy_sweep_variant(unit, role):
    """The variant of ``unit``'s function specialized for scalars with NumPy's backward
    sweep: the same numbers as the sweep on Python floats, in code made only of what the
    rules describe (``_sg.to_float``, ``_sg.divide`` have no rows)."""
    return reverse_unit(unit.fn, unit.wrt, scalars=NUMPY_SWEEP).functions[role]
