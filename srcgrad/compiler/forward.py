"""The forward-mode pipeline: frontend -> normalize -> forward mode -> dead code -> codegen.

``forward_unit(fn, wrt)`` returns a ``ForwardUnit`` holding one generated function::

    def f_jvp(x, w, x_dot):
        # Forward mode: each tangent follows its primal statement
        ...
        return (y, y_dot)

The tangents (``x_dot`` for ``x``, one per ``wrt`` parameter) follow the parameters, and
are keyword-only when a parameter has a default; the function returns the value and its
directional derivative, so ``jvp(jvp(f))`` differentiates ``f_jvp`` itself. A generated function (a
gradient, say) is compiled exactly like a user function: its source is in ``linecache``.
Units are cached per (function, wrt), in memory and on disk (``srcgrad.compiler.cache``, as the
reverse mode's); a failed compile leaves the cache as it was.
"""

from __future__ import annotations

import dataclasses
import weakref

import numpy as np

from srcgrad import runtime, syntax
from srcgrad.analysis import escapes, fixpoint
from srcgrad.codegen import defaults, emit, loader
from srcgrad.codegen.naming import Namer
from srcgrad.compiler import cache as disk_cache
from srcgrad.compiler import debug, guards, library_watch, unit_cache
from srcgrad.compiler import reverse as compiler
from srcgrad.errors import check_output
from srcgrad.frontend.depth import room_for_deep_expressions
from srcgrad.frontend.fence import check_function, taken_names
from srcgrad.frontend.freshness import own_signature
from srcgrad.frontend.generators import refuse_generator
from srcgrad.frontend.parse import parse_function
from srcgrad.modes.forward import ForwardMode
from srcgrad.normalize import normalize_function
from srcgrad.optimize.dce import eliminate_dead_code
from srcgrad.runtime.wrt_values import check_shaped_like
from srcgrad.syntax import gast

COMPILE_COUNT = {"forward": 0}


@dataclasses.dataclass
class ForwardUnit:
    fn: object
    wrt: tuple
    tangent_names: dict = dataclasses.field(default_factory=dict)  # param -> keyword
    module: emit.GeneratedModule | None = None
    namespace: dict | None = None
    filename: str | None = None
    functions: dict = dataclasses.field(default_factory=dict)
    _dependents: list = dataclasses.field(default_factory=list)
    guards: tuple | None = None   # (name, dotted, object) checked on entry (compiler.guards)
    escapes: str | None = None    # where it lets a differentiated value out (analysis.escapes)
    linked_early: bool = False   # a caller linked to it before it was generated

    @property
    def jvp(self):
        return self.functions["jvp"]

    @property
    def source(self):
        return self.module.source

    def _publish(self):
        for ref, aliases in self._dependents:
            namespace = ref()
            for alias, role in aliases if namespace is not None else ():
                namespace[alias] = self.functions[role]


def forward_unit(fn, wrt):
    """The compiled forward-mode unit of ``fn`` w.r.t. the parameter names ``wrt``."""
    wrt = (wrt,) if isinstance(wrt, str) else tuple(wrt)
    refuse_generator(fn)
    with compiler._LOCK:
        found = unit_cache.find(fn, "forward", wrt)
        if found is not None:
            return found
        created = []
        try:
            with room_for_deep_expressions(fn):
                return _compile(fn, wrt, created)
        except BaseException:
            for unit in created:
                unit_cache.discard(unit.fn, "forward", unit.wrt, unit)
            raise


def _compile(fn, wrt, created):
    custom = getattr(fn, "srcgrad_forward_unit", None)
    if custom is not None:
        return custom(wrt)
    found = unit_cache.find(fn, "forward", wrt)
    if found is not None:
        return found
    unit = ForwardUnit(fn, wrt)
    unit_cache.add(fn, "forward", wrt, unit)
    created.append(unit)
    parsed = parse_function(fn)
    parsed.require_parameters(wrt)
    stored = disk_cache.lookup(parsed, wrt, "forward", required=("tangent_names", "guards"))
    if stored.hit:
        try:
            unit.tangent_names = dict(stored.fields["tangent_names"])
            unit.guards = guards.reresolved(parsed, stored.fields["guards"])
            unit.escapes = stored.fields.get("escapes")
            links = stored.callees(parsed, lambda callee, params: _compile(callee, params, created))
            return _load(unit, parsed, stored.module, links)
        except Exception:   # a stored entry that no longer loads: generated afresh
            stored = stored.rejected()
    parsed = check_function(parsed)
    parsed.default_values = defaults.name_defaults(parsed.fn, parsed.node)
    base = parsed.fn.__name__ if parsed.fn.__name__ != "<lambda>" else "lambda_"
    namer = Namer(taken_names(parsed))
    jvp_name = namer.fresh(f"{base}_jvp")
    unit.tangent_names = {p: namer.tangent(p) for p in wrt}
    normalize_function(parsed, namer)
    aliases = {}

    def callee_jvp(callee, callee_wrt):
        key = (callee, callee_wrt)
        if key not in aliases:
            callee_unit = _compile(callee, callee_wrt, created)
            escapes.check_linked(callee_unit)
            if getattr(callee_unit, "escapes", None):
                escaping[callee] = callee_unit.escapes
            name = getattr(callee, "__name__", "callee").replace("<lambda>", "lambda_")
            alias = jvp_name if callee_unit is unit else namer.fresh(f"{name}_jvp")
            aliases[key] = (alias, callee_unit)
        alias, callee_unit = aliases[key]
        return alias, callee_unit.tangent_names

    escaping = callee_jvp.escaping = {}   # callee -> where it lets a value out
    mode = ForwardMode(parsed, parsed.node, wrt, namer, callee_jvp)
    result = mode.run()
    escapes.record(unit, mode.escapes)
    function = _assemble(parsed, result, jvp_name, unit.tangent_names)
    unit.guards = guards.guarded(parsed)
    guards.read_once(unit.guards, function)
    if unit.guards:
        check = guards.entry_check(unit.guards, function)
        syntax.set_line(check, function.lineno)
        function.body[:0] = check
    check = guards.defaults_check(parsed.fn)
    syntax.set_line(check, function.lineno)
    function.body[:0] = check
    where = emit.source_location(parsed.filename, parsed.node.lineno)
    header = [f"Generated by srcgrad from {fn.__qualname__} ({where}): forward mode, "
              f"wrt {', '.join(wrt) or '()'}."]
    links = {key: link for key, link in aliases.items() if link[1] is not unit}
    module = emit.render_module(header, [("jvp", function)], (parsed.filename, fn.__name__))
    _load(unit, parsed, module, links)
    stored.store(unit, links, {"tangent_names": unit.tangent_names,
                               "guards": guards.describe(unit.guards),
                               "escapes": unit.escapes})
    COMPILE_COUNT["forward"] += 1
    return unit


def _load(unit, parsed, module, links):
    """Exec the unit's generated module and link it with its callees' units (``links``:
    ``{(callee, wrt): (alias, callee unit)}``)."""
    unit.module = module
    unit.namespace = loader.LiveGlobals(parsed.fn)
    unit.namespace.update({name: obj for name, _, obj in unit.guards})
    unit.namespace.update(guards.own_defaults(parsed.fn))
    unit.namespace.update(parsed.injected)
    unit.namespace.update(getattr(parsed, "default_values", None)
                          or defaults.default_bindings(parsed.fn, parsed.node))
    unit.filename = loader.load(module.source, unit.fn.__qualname__ + " jvp", unit.namespace,
                                owner=unit)
    library_watch.watch(unit, module.source)
    debug.annotate_lines(unit)
    unit.functions = {"jvp": unit.namespace[module.functions["jvp"]]}
    unit.jvp.source = unit.source
    unit.jvp.unit, unit.jvp.role = unit, "jvp"
    for alias, callee_unit in links.values():
        callee_unit._dependents.append((weakref.ref(unit.namespace), [(alias, "jvp")]))
        if callee_unit.functions:
            callee_unit._publish()
    return unit


def _assemble(parsed, result, jvp_name, tangent_names):
    """``def f_jvp(params, *, tangents): body; return (value, value_dot)``, the tangent
    in the value's dtype (``_sg.tangent_in_dtype_of``)."""
    signature = parsed.node.args
    params = [a.id for a in signature.args]
    value = result.result
    value_dot = syntax.quote_expr("_sg.tangent_in_dtype_of(t, y)", t=syntax.name(result.result_dot),
                                  y=value) if result.result_dot else \
        syntax.quote_expr("_sg.zeros_like(y)", y=value)
    ret = gast.Return(value=syntax.tuple_of([syntax.clone(value), value_dot]))
    body = result.prologue + result.body
    live_out = set(syntax.loaded_names(ret))
    # each round that goes on removes a statement (``changed``): as many rounds as statements
    for _ in fixpoint.rounds(syntax.count_statements(body) + 1, "forward dead code"):
        body, changed = eliminate_dead_code(body, live_out)
        if not changed:
            break
    comment = syntax.comment("Forward mode: each tangent follows its primal statement")
    tangents = list(tangent_names.values())
    plain = not (signature.defaults or signature.vararg or signature.kwonlyargs
                 or signature.kwarg or signature.posonlyargs)
    function = syntax.function_def(jvp_name, params + (tangents if plain else []),
                                   compiler.array_type_guard(parsed) + [comment] + body + [ret],
                                   arguments=None if plain else signature)
    if not plain:   # tangents after defaults or *args must be keyword-only
        function.args.kwonlyargs += [syntax.param(t) for t in tangents]
        function.args.kw_defaults += [None] * len(tangents)
    function.lineno = parsed.node.lineno
    return function


_FLOAT64 = np.float64


def call_jvp(unit, args, tangents, /, **kwargs):
    """Run a unit's jvp: ``tangents`` in the order of ``unit.wrt``. A Python number given
    as a tangent runs as a NumPy float, as reverse mode's seed does, so the tangent
    arithmetic follows NumPy's rules at a pole of the function: ``x_dot / x`` at
    ``x = 0.0`` is inf, as ``np.log(x)`` is -inf, not a ZeroDivisionError."""
    _check_inputs(unit, args, tangents)
    tangents = [_FLOAT64(t) if type(t) is float or type(t) is int else t for t in tangents]
    keywords = dict(zip((unit.tangent_names[p] for p in unit.wrt), tangents))
    result = unit.jvp(*args, **kwargs, **keywords)
    check_output(result[0], unit.fn)
    return result


def _check_inputs(unit, args, tangents):
    """Each ``wrt`` argument given by position holds a number (``runtime.check_wrt``),
    and its tangent is shaped like it (``tangents``: in the order of ``unit.wrt``)."""
    positions = unit.__dict__.get("wrt_positions")
    if positions is None:
        params = [name for name, p in own_signature(unit.fn).parameters.items()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        positions = unit.__dict__["wrt_positions"] = [
            (params.index(p), p) for p in unit.wrt if p in params]
    for index, name in positions:
        if index < len(args):
            runtime.check_wrt(args[index], name)
            check_shaped_like(tangents[unit.wrt.index(name)], args[index],
                              f"the tangent of `{name}`", f"`{name}`")


def parameters(fn):
    return tuple(own_signature(fn).parameters)
