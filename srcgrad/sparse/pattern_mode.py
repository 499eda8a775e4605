"""The dependency sweep: forward mode's transformation with dependencies in place of
tangents. Each value that depends on the wrt inputs gets ``name_deps`` (a ``Deps``,
``sparse.pattern_deps``) right after its primal statement.

Before (normalized, ``wrt=x``)::     After::

    y = np.sin(x)                       y = np.sin(x)
                                        y_deps = _dep.apply('numpy.sin', y, {'x': x},
                                                            {'x': x_deps})
    if c:                               _dep.local('a branch ... (f.py:3)')
        ...                             if c: ...

The primal runs as it does: loops run as at the given point, and a branch takes the
side the given point takes. Where such a choice (a branch or loop test, an index, a
constant operand a pattern rule reads, an argument passed on) reads a value computed
from the inputs' values, the sweep notes the pattern as local (``_dep.local``); else the
pattern holds for every value of the wrt inputs (the other arguments as given).
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.codegen.naming import Namer
from srcgrad.modes.forward import ForwardMode
from srcgrad.modes.forward_control import _is_loop_exit, _iterates_tangent
from srcgrad.modes.reverse_common import concatenates
from srcgrad.rules import NONDIFF_ATTRIBUTES
from srcgrad.rules.methods import (
    ARRAY_ATTRIBUTES,
    ARRAY_METHODS,
    NONDIFF_METHODS,
    is_array_attribute,
)
from srcgrad.sparse import pattern_rules
from srcgrad.sparse.pattern_rules import pattern_rule
from srcgrad.sparse.pattern_taint import varied_names
from srcgrad.syntax import gast

# names of tangent helpers forward mode emits -> what the sweep calls instead
_RENAMED = {"_sg.dynamic_jvp": "_dep.dynamic", "_sg.dynamic_jvp_keywords": "_dep.dynamic_keywords",
            "_sg.tangent_pairs": "_dep.pairs"}


# calls making an array whose shape their arguments give
_SHAPED = frozenset({"np.zeros", "np.ones", "np.empty", "np.full", "np.arange", "np.linspace",
                     "np.eye", "np.identity", "np.tri", "np.indices"})


class DepsNamer(Namer):
    """Names ``x``'s dependencies ``x_deps``."""

    def tangent(self, primal):
        if primal not in self._tangents:
            self._tangents[primal] = self.fresh(primal + "_deps")
        return self._tangents[primal]


class PatternMode(ForwardMode):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.rules = _PatternRules(self)
        self.varied, self.masks = varied_names(self.node, self.wrt)

    # -- what a name carries -------------------------------------------------------------
    def tangent_or_zero(self, atom, state):
        if isinstance(atom, gast.Name) and atom.id in state:
            return syntax.name(self.tangent(atom.id))
        if isinstance(atom, gast.Name):
            return syntax.quote_expr("_dep.no_deps(x)", x=atom)
        return syntax.const(None)

    def materialize(self, name, state):
        if name not in state.defined and name not in self.params:
            self.preinit.add(name)
        state.tangents[name] = False
        return syntax.quote("d = _dep.no_deps(x)", d=self.tangent(name), x=name)

    def own(self, name, state):
        return [] if name in state else self.materialize(name, state)

    def assign(self, stmt, target, value, state):
        self.pending_notes = []
        out = super().assign(stmt, target, value, state)
        notes, self.pending_notes = self.pending_notes, []
        syntax.set_line(notes, getattr(stmt, "lineno", self.node.lineno))
        return notes + out

    # -- notes of a local pattern --------------------------------------------------------
    def local_note(self, stmt, atoms, what, state, test=False):
        """Notes that the pattern is local where ``atoms`` read a value computed from the
        inputs' values: a ``test`` reads any such value; otherwise one without
        dependencies (statically, or, for a name given dependencies, when they turn out
        None as it runs: ``_dep.local_unless``)."""
        names = {n for a in atoms for n in syntax.loaded_names(a)} & self.varied
        if not names:
            return []
        where = f"{self.parsed.filename}:{syntax.line_of(stmt, self.node.lineno)}"
        text = syntax.const(f"{what} at {where} reads a value computed from the inputs: local")
        if test or names - set(state.tangents):
            return [gast.Expr(value=syntax.quote_expr("_dep.local(r)", r=text))]
        return [gast.Expr(value=syntax.quote_expr("_dep.local_unless(d, r)",
                                                  d=self.tangent(n), r=text))
                for n in sorted(names)]

    def statement(self, stmt, state):
        notes = []
        if isinstance(stmt, gast.If):
            what = "a loop's exit test" if _is_loop_exit(stmt) else "a branch"
            notes = self.local_note(stmt, [stmt.test], what, state, test=True)
        elif isinstance(stmt, gast.While):
            notes = self.local_note(stmt, [stmt.test], "a loop's test", state, test=True)
        elif isinstance(stmt, gast.For):
            notes = self.local_note(stmt, [stmt.iter], "a loop's range", state)
        elif isinstance(stmt, gast.Try) and stmt.handlers:   # raised or not: by the values
            where = f"{self.parsed.filename}:{syntax.line_of(stmt, self.node.lineno)}"
            notes = [gast.Expr(value=syntax.quote_expr("_dep.local(r)", r=syntax.const(
                f"an exception handler at {where} may run or not by the inputs' values: "
                "local")))]
        elif isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Subscript):
            notes = self.local_note(stmt, [stmt.targets[0].slice], "an index", state)
            if stmt.targets[0].value.id in state:   # a constant element must stay constant
                notes += self.local_note(stmt, [stmt.value], "a value stored", state)
        elif isinstance(stmt, gast.Assign) and isinstance(stmt.value, gast.Subscript):
            notes = self.local_note(stmt, [stmt.value.slice], "an index", state)
        elif isinstance(stmt, gast.Assign) and isinstance(stmt.value, (gast.List, gast.Tuple)) \
                and self.carries(stmt.value, state):
            notes = self.local_note(stmt, stmt.value.elts, "an item", state)
        if isinstance(stmt, (gast.Assign, gast.Expr)) and isinstance(stmt.value, gast.Call):
            notes += self.call_notes(stmt, stmt.value, state)
        out = super().statement(stmt, state)
        syntax.set_line(notes, getattr(stmt, "lineno", self.node.lineno))
        return notes + out

    def call_notes(self, stmt, call, state):
        """A value computed from the inputs passed on to a user's or dynamic callee, or
        giving the shape of an array made (``np.zeros(n)``)."""
        arguments = list(call.args) + [k.value for k in call.keywords]
        if self.carries(call, state) and self.call_info(call).kind in ("user", "dynamic"):
            return self.local_note(stmt, arguments, "an argument passed on", state)
        if syntax.dotted_name(call.func) in _SHAPED:
            return self.local_note(stmt, arguments, "a shape", state)
        return []

    # -- values --------------------------------------------------------------------------
    def tangent_value(self, stmt, target, value, state):
        if not self.carries(value, state):
            return None
        if isinstance(value, gast.Subscript):
            if value.value.id not in state:
                return None
            return syntax.quote_expr("_dep.getitem(x, d, k)", x=value.value,
                                     d=self.tangent(value.value.id),
                                     k=syntax.index_value(syntax.clone(value.slice))), False
        if isinstance(value, gast.BinOp) and (concatenates(value, self.lists)
                                              or concatenates(value, self.sequences)):
            return syntax.quote_expr("_dep.concat(a, da, b, db)", a=value.left, b=value.right,
                                     da=self.tangent_or_zero(value.left, state),
                                     db=self.tangent_or_zero(value.right, state)), False
        found = super().tangent_value(stmt, target, value, state)
        return None if found is None else (found[0], False)

    def attribute_tangent(self, stmt, value, state):
        if value.attr in NONDIFF_ATTRIBUTES or value.value.id not in state:
            return None
        deps = syntax.name(self.tangent(value.value.id))
        if value.attr in ARRAY_ATTRIBUTES:
            return syntax.quote_expr("_dep.attribute(x, d, a)", x=value.value, d=deps,
                                     a=syntax.const(value.attr)), False
        if value.attr in ARRAY_METHODS or value.attr in NONDIFF_METHODS:
            return deps, False   # a bound method passed on (_dep.dynamic resolves it)
        if value.attr == "imag":
            return deps, False
        if not is_array_attribute(value.attr):   # a NamedTuple's or dataclass's field
            return syntax.quote_expr("_dep.field(d, a)", d=deps,
                                     a=syntax.const(value.attr)), False
        raise self.parsed.error(f"the dependency sweep does not support the attribute "
                                f"`.{value.attr}` of a value being differentiated yet", stmt)

    def subscript_write(self, stmt, target, state):
        base, value = target.value.id, stmt.value
        if base not in state and not self.carries(value, state):
            return [stmt]
        base_deps = syntax.name(self.tangent(base)) if base in state else syntax.const(None)
        update = syntax.quote("d = _dep.setitem(x, dx, k, v, dv)", d=self.tangent(base),
                              x=base, dx=base_deps,
                              k=syntax.index_value(syntax.clone(target.slice)),
                              v=syntax.clone(value), dv=self.tangent_or_zero(value, state))
        if base not in state and base not in state.defined and base not in self.params:
            self.preinit.add(base)
        state.tangents[base] = False
        return [stmt] + update

    def bare_call(self, stmt, call, state):
        if self.carries(call, state):
            info = self.call_info(call)
            if info.kind == "rule" and getattr(info.rule, "inplace", False):
                base = info.args[0].id
                others = [self.tangent_or_zero(a, state) for a in info.args[1:]
                          if isinstance(a, gast.Name)]
                deps = syntax.name(self.tangent(base)) if base in state else syntax.const(None)
                update = gast.Assign(targets=[syntax.name(self.tangent(base), True)],
                                     value=syntax.call("_dep.written_into",
                                                       [syntax.name(base), deps] + others))
                state.tangents[base] = False
                return [stmt, update]
        return super().bare_call(stmt, call, state)

    def structure_tangent(self, stmt, info, call, state):
        new = super().structure_tangent(stmt, info, call, state)
        for keyword in new.keywords:   # a field left at its default depends on nothing
            if syntax.dotted_name(getattr(keyword.value, "func", None)) == "_sg.zeros_like":
                keyword.value = syntax.const(None)
        return new

    def mirrored_call(self, call, state):
        new = super().mirrored_call(call, state)
        if call.func.attr == "extend":   # one entry per item extended with
            new.args = [syntax.quote_expr("_dep.item_deps(d, xs)", d=d, xs=a)
                        for d, a in zip(new.args, call.args)]
        return new

    def dynamic_call(self, stmt, info, target, call, state):
        out = super().dynamic_call(stmt, info, target, call, state)
        _rename(out[-1].value)
        return out

    def argument_tangent(self, arg, state):
        if isinstance(arg, gast.Starred):
            deps = syntax.name(self.tangent(arg.value.id)) if arg.value.id in state \
                else syntax.const(None)
            return gast.Starred(value=syntax.quote_expr("_dep.item_deps(d, xs)", d=deps,
                                                        xs=arg.value), ctx=gast.Load())
        return super().argument_tangent(arg, state)

    def keyword_tangent(self, kw, state):
        if kw.arg is None:
            deps = syntax.name(self.tangent(kw.value.id)) if kw.value.id in state \
                else syntax.const(None)
            return syntax.quote_expr("_dep.keyword_deps(d, kw)", d=deps, kw=kw.value)
        return self.argument_tangent(kw.value, state)

    def _loop(self, stmt, state):
        iterates = _iterates_tangent(stmt, state)
        out = super()._loop(stmt, state)
        if iterates:
            _rename(out[-1].iter)
        return out


def _rename(call):
    dotted = syntax.dotted_name(call.func)
    if dotted in _RENAMED:
        call.func = syntax.quote_expr(_RENAMED[dotted])


class _PatternRules:
    """A rule-table row at one call site: ``_dep.apply(name, ans, values, deps)``, or
    ``_dep.fallback`` (dense, with the reason) for a row without a pattern rule."""

    def __init__(self, mode):
        self.mode = mode

    def expand(self, stmt, info, call, target, state):
        mode, rule = self.mode, info.rule
        values = mode.reverse_rules.bind(stmt, rule, info.args, info.keywords)
        mode.reverse_rules.refuse_constant_params(
            stmt, rule, values, lambda _, atom: isinstance(atom, gast.Name) and atom.id in state)
        given = rule.bind(info.args, info.keywords)
        deps = {p: a for p, a in given.items() if isinstance(a, gast.Name) and a.id in state}
        if not deps:
            return None
        elementwise = pattern_rules.reads_no_values(rule)
        reads = [] if rule.name in pattern_rules.READS_NOTHING else [
                 a for p, a in given.items()
                 if not (elementwise and isinstance(a, gast.Name) and a.id in mode.masks)
                 and not (p in rule.adjoints and pattern_rules.data_not_read(rule))
                 and not (elementwise and p in deps)]
        mode.pending_notes = mode.local_note(stmt, reads, f"`{rule.name}`", state)
        deps_dict = gast.Dict(keys=[syntax.const(p) for p in deps],
                              values=[syntax.name(mode.tangent(a.id)) for a in deps.values()])
        if pattern_rule(rule) is None:
            where = f"{mode.parsed.filename}:{syntax.line_of(stmt, mode.node.lineno)}"
            reason = f"{rule.name} at {where} has no pattern rule: dense"
            return syntax.call("_dep.fallback", [syntax.name(target), deps_dict,
                                                 syntax.const(reason)])
        values_dict = gast.Dict(keys=[syntax.const(p) for p in given],
                                values=[syntax.clone(a) for a in given.values()])
        return syntax.call("_dep.apply", [syntax.const(rule.name), syntax.name(target),
                                          values_dict, deps_dict])

    def linear(self, call, info, values, linear, state):   # (in-place rows: bare_call)
        raise AssertionError("in-place rows are handled by PatternMode.bare_call")
