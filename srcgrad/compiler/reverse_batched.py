"""The batched reverse-mode pipeline (``modes.reverse_batched``): the reverse-mode sweeps
as ``compiler.reverse`` generates them, the backward sweep rewritten for a block of
cotangents. Units are cached per (function, wrt) in memory, their guards (and their
callees' code and guards) checked by the cache on each lookup, which every Jacobian call
makes::

    def f_forward(x, w):
        ...
        return (y, (x, w, _mul))

    def f_backward_batched(saved, dy):
        x, w, _mul = saved
        _rows = _sg.batch_rows(dy)
        # Backward sweep, a block of cotangents: each cotangent's last axis
        ...
        return (dx,)

A user function called (and not inlined) keeps its own one-row units: its backward
sweep runs once per row (``_sg.map_rows``). ``batched_reverse_unit(fn, wrt)`` is None
where the backward sweep cannot be batched (the caller then runs one backward sweep
per row).
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.codegen import defaults, emit, loader
from srcgrad.codegen.naming import Namer
from srcgrad.compiler import guards, unit_cache
from srcgrad.compiler import reverse as compiler
from srcgrad.compiler.reverse_assembly import _assemble, _container_params
from srcgrad.frontend.depth import room_for_deep_expressions
from srcgrad.frontend.fence import check_function
from srcgrad.frontend.generators import refuse_generator
from srcgrad.frontend.parse import parse_function
from srcgrad.modes.reverse import ReverseMode
from srcgrad.modes.reverse_batched import ROWS, BatchedBackward, NotBatchable
from srcgrad.normalize import normalize_function

_KIND = "reverse_batched"
_ROLES = ("forward", "backward", "grad", "value_and_grad")


class BatchedReverseUnit:
    """The forward sweep (``forward``: ``(value, saved)``) and the batched backward sweep
    (``backward``: ``(saved, cotangents) -> (gradients,)``, one per ``wrt`` name, each
    with the rows' axis last) of one function."""

    def __init__(self, fn, wrt):
        self.fn, self.wrt = fn, wrt
        self.guards = None
        self.module = self.namespace = self.filename = None
        self.functions = {}
        self.per_row_steps = 0   # steps of the backward sweep run once per row

    @property
    def forward(self):
        return self.functions["forward"]

    @property
    def backward(self):
        return self.functions["backward"]

    @property
    def source(self):
        return self.module.source


def batched_reverse_unit(fn, wrt):
    """The compiled batched reverse unit of ``fn`` w.r.t. ``wrt``, or None."""
    wrt = (wrt,) if isinstance(wrt, str) else tuple(wrt)
    with compiler._LOCK:
        found = unit_cache.find(fn, _KIND, wrt)
        if found is not None and found.current():
            return found.unit
        if found is not None:
            unit_cache.discard(fn, _KIND, wrt, found)
        holder = unit_cache.LinkedUnit()
        try:
            refuse_generator(fn)
            with room_for_deep_expressions(fn):
                holder.unit = _compile(fn, wrt, holder.callees)
            holder.guards = holder.unit.guards
        except Exception:   # NotBatchable, or what reverse mode reports itself
            holder.unit, holder.guards, holder.callees = None, None, []
        unit_cache.add(fn, _KIND, wrt, holder)
        return holder.unit


def _compile(fn, wrt, callees):
    if getattr(fn, "srcgrad_reverse_unit", None) is not None:
        raise NotBatchable("a function with its own reverse rule")
    unit = BatchedReverseUnit(fn, wrt)
    parsed = parse_function(fn)
    parsed.require_parameters(wrt)
    parsed = check_function(parsed)
    parsed.default_values = defaults.name_defaults(parsed.fn, parsed.node)
    base = parsed.fn.__name__ if parsed.fn.__name__ != "<lambda>" else "lambda_"
    namer = Namer(syntax.names_in(parsed.node) + [parsed.node.name, ROWS])
    fn_names = {role: namer.fresh(f"{base}_{role}") for role in _ROLES}
    normalize_function(parsed, namer)
    links = {}

    def callee_names(callee, callee_wrt):
        key = (callee, callee_wrt)
        if key not in links:
            if callee is fn:
                raise NotBatchable("a recursive call")
            callee_unit = compiler.reverse_unit(callee, callee_wrt)
            if getattr(callee_unit, "escapes", None):
                raise NotBatchable(f"a call of {callee.__qualname__}, which lets a value out")
            callees.append((callee, guards.code_of(callee), callee_unit.guards))
            name = callee.__name__ if callee.__name__ != "<lambda>" else "lambda_"
            links[key] = (namer.fresh(f"{name}_forward"), namer.fresh(f"{name}_backward"),
                          callee_unit)
        return links[key][:2]

    mode = ReverseMode(parsed, parsed.node, wrt, namer, callee_names)
    result = mode.run()
    if mode.escapes:
        raise NotBatchable("a value let out of the function")
    containers = _container_params(parsed.node, syntax.param_names(parsed.node.args))
    functions, _ = _assemble(parsed, result, fn_names, namer, False, False, containers)
    forward = functions["forward"]
    forward.body[:0] = compiler.array_type_guard(parsed)
    backward = _batched_backward(functions["backward"], namer, result, unit,
                                 fn_names["backward"] + "_batched")
    unit.guards = guards.guarded(parsed)
    where = emit.source_location(parsed.filename, parsed.node.lineno)
    header = [f"Generated by srcgrad from {fn.__qualname__} ({where}): reverse mode over "
              f"a block of cotangents, wrt {', '.join(wrt) or '()'}."]
    unit.module = emit.render_module(header, [("forward", forward), ("backward", backward)])
    unit.namespace = loader.LiveGlobals(parsed.fn)
    unit.namespace.update({n: obj for n, _, obj in unit.guards})
    unit.namespace.update(guards.own_defaults(parsed.fn))
    unit.namespace.update(parsed.injected)
    unit.namespace.update(parsed.default_values or {})
    for forward_alias, backward_alias, callee_unit in links.values():
        unit.namespace[forward_alias] = callee_unit.forward
        unit.namespace[backward_alias] = callee_unit.backward
    unit.filename = loader.load(unit.module.source, fn.__qualname__ + " backward_batched",
                                unit.namespace)
    unit.functions = {role: unit.namespace[unit.module.functions[role]]
                      for role in ("forward", "backward")}
    for function in unit.functions.values():
        function.source = unit.source
    return unit


def _batched_backward(backward, namer, result, unit, name):
    """The backward ``def`` with its sweep batched (see ``modes.reverse_batched``)."""
    seed = result.seed
    cotangents = set(namer.adjoint_names()) | {seed}
    batched = BatchedBackward(cotangents, syntax.names_in(backward))
    body = list(backward.body)
    start = next(i for i, stmt in enumerate(body) if syntax.is_comment(stmt)
                 and syntax.comment_text(stmt).startswith("Backward sweep"))
    rows = syntax.assign(ROWS, syntax.quote_expr("_sg.batch_rows(d)", d=syntax.name(seed)))
    comment = syntax.comment("Backward sweep, a block of cotangents: each cotangent's "
                             "last axis")
    new_body = body[:start] + [rows, comment] + batched.run(body[start + 1:])
    unit.per_row_steps = batched.fallbacks
    function = syntax.function_def(name, [a.id for a in backward.args.args], new_body)
    function.lineno = backward.lineno
    syntax.set_line(function.body, backward.lineno)
    return function

