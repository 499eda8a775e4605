"""Batched forward mode: one sweep carries ``B`` tangent directions at once, each tangent
with a trailing axis of length ``B`` (``runtime.batched``), so ``sg.jacobian`` and
``sg.jacfwd`` take all the columns of a Jacobian (a chunk of them) in one run.

Before (normalized)::              After (``x_dot``: ``x``'s shape + ``(B,)``)::

    _mul = x * w                       _mul = x * w
    y = np.sin(_mul)                   _mul_dot = x_dot * _sg.lift(w)
    s = np.sum(y)                      y = np.sin(_mul)
                                       y_dot = _mul_dot * np.cos(_sg.lift(_mul))
                                       s = np.sum(y)
                                       s_dot = _sg.map_columns(lambda _c0: np.sum(_c0), y_dot)

Rows of elementwise functions (``defelementwise``, the broadcasting operators) keep their
tangent templates with every primal lifted (``x[..., None]``): NumPy aligns shapes from
the right, so a direction's axis never meets a primal's. Every other row runs its
tangent once per direction (``_sg.map_columns``): correct for any row, batched or not.
A user function called is batched too (its own unit, ``compiler.forward_batched``).
Constructs without a batched form here (recursion, calls through values, structures,
in-place rows) raise ``NotBatchable``: the caller then
takes the columns one ``jvp`` at a time.
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.modes.forward import ForwardMode
from srcgrad.modes.forward_rules import TangentExpander, _may_broadcast
from srcgrad.optimize.const_fold import fold_constants
from srcgrad.rules.registry import _times_g
from srcgrad.syntax import gast

BATCH = "_batch"   # the number of directions, bound at the top of the generated function
_NOT_ELEMENTWISE = frozenset({"numpy.cross"})
# Helpers that may receive a batched tangent directly (outside ``map_columns``).
_BATCH_HELPERS = frozenset({"lift", "batch_zeros", "batch_broadcast", "map_columns",
                            "batch_index", "batch_size", "batch_reduce", "snapshot",
                            "stored_derivative", "in_dtype_of", "tangent_in_dtype_of",
                            "tangent_pairs",
                            "batched_dynamic_jvp", "batch_matmul", "batch_join",
                            "cast_tangent", "batch_reshape", "batch_transpose",
                            "batch_outer", "batch_roll"})


class NotBatchable(Exception):
    """The function uses a construct that batched forward mode does not transform."""


class BatchedTangentExpander(TangentExpander):
    def expand(self, stmt, info, call, target, state):
        rule = info.rule
        if rule.tangent == "linear" or not _lifts(rule):
            plain = self.per_column(lambda: TangentExpander.expand(
                self, stmt, info, call, target, state))
            if plain is None:
                return None
            return _batched_form(plain, self.mode.tangent_names) \
                or self.mode.columnwise(plain)
        values = self.mode.reverse_rules.bind(stmt, rule, info.args, info.keywords)
        self.mode.reverse_rules.refuse_constant_params(
            stmt, rule, values, lambda _, atom: isinstance(atom, gast.Name) and atom.id in state)
        lifted = {p: _lift(atom) for p, atom in values.items()}
        terms = []
        for param in rule.params:
            atom = values.get(param)
            if not (isinstance(atom, gast.Name) and atom.id in state):
                continue
            template = rule.tangent.get(param)
            if template is None:
                if param in rule.adjoints:
                    raise NotBatchable(f"no tangent term for `{param}` of {rule.name}")
                continue
            dots = {f"{p}_dot": syntax.name(self.mode.tangent(values[p].id))
                    for p in rule.params if isinstance(values.get(p), gast.Name)
                    and values[p].id in state}
            if f"{param}_dot" not in syntax.loaded_names(syntax.quote_expr(template)):
                template = _times_g(template)
                dots["g"] = dots[f"{param}_dot"]
            terms.append((param, fold_constants(syntax.quote_expr(
                template, ans=_lift(syntax.name(target)), **lifted, **dots))))
        if not terms:
            return None
        total = terms[0][1]
        for _, term in terms[1:]:
            total = gast.BinOp(left=total, op=gast.Add(), right=term)
        if len(terms) == 1 and rule.broadcasts and self._constant_partial(total) \
                and _may_broadcast(rule, values, terms[0][0]):
            total = syntax.quote_expr("_sg.batch_broadcast(t, ans)", t=total,
                                      ans=syntax.name(target))
        return total

    def per_column(self, build):
        """``build()`` with zero tangents as one direction's (inside ``map_columns``)."""
        self.mode.plain_zeros = True
        try:
            return build()
        finally:
            self.mode.plain_zeros = False

    @staticmethod
    def _constant_partial(total):
        names = {n for n in syntax.loaded_names(total) if n not in ("np", "math", "_sg")}
        return len(names) == 1


def _batched_form(expr, tangent_names):
    """The batched form of a one-direction tangent expression where one is known (a sum
    of such forms: ``np.matmul(a_dot, b) + np.matmul(a, b_dot)``), else None."""
    if isinstance(expr, gast.BinOp) and isinstance(expr.op, gast.Add):
        left = _batched_form(expr.left, tangent_names)
        right = _batched_form(expr.right, tangent_names) if left is not None else None
        return None if right is None else gast.BinOp(left=left, op=gast.Add(), right=right)
    if isinstance(expr, gast.BinOp) and isinstance(expr.op, gast.MatMult) \
            and all(isinstance(a, gast.Name) for a in (expr.left, expr.right)) \
            and (expr.left.id in tangent_names) != (expr.right.id in tangent_names):
        # (``a_dot @ b``: the operator's tangent, which any array library defines)
        return _call("_sg.batch_matmul", [syntax.const(None),
                                          expr.left, expr.right,
                                          syntax.const(expr.left.id in tangent_names)])
    if not isinstance(expr, gast.Call):
        return None
    dotted = syntax.dotted_name(expr.func)
    args = expr.args
    keywords = {k.arg: k.value for k in expr.keywords}

    def is_dot(atom):
        return isinstance(atom, gast.Name) and atom.id in tangent_names

    if dotted in _REDUCTIONS and 1 <= len(args) <= 2 and is_dot(args[0]) \
            and set(keywords) <= {"axis", "keepdims"}:
        options = dict(zip(("axis",), args[1:]), **keywords)
        return _call("_sg.batch_reduce", [syntax.clone(expr.func), args[0],
                                          options.get("axis", syntax.const(None)),
                                          options.get("keepdims", syntax.const(False))])
    if dotted in _PRODUCTS and len(args) == 2 and not keywords \
            and is_dot(args[0]) != is_dot(args[1]) \
            and all(isinstance(a, gast.Name) for a in args):
        return _call("_sg.batch_matmul", [syntax.clone(expr.func), args[0], args[1],
                                          syntax.const(is_dot(args[0]))])
    if dotted in _JOINS and 1 <= len(args) <= 2 and is_dot(args[0]) \
            and set(keywords) <= {"axis"}:
        axis = dict(zip(("axis",), args[1:]), **keywords).get("axis", syntax.const(0))
        return _call("_sg.batch_join", [syntax.clone(expr.func), args[0], axis])
    if dotted == "np.outer" and len(args) == 2 and not keywords \
            and is_dot(args[0]) != is_dot(args[1]):
        return _call("_sg.batch_outer", [args[0], args[1], syntax.const(is_dot(args[0]))])
    if dotted == "np.roll" and 2 <= len(args) + len(keywords) <= 3 and args \
            and is_dot(args[0]) and set(keywords) <= {"shift", "axis"}:
        options = dict(zip(("shift", "axis"), args[1:]), **keywords)
        if "shift" in options:
            return _call("_sg.batch_roll", [args[0], options["shift"],
                                            options.get("axis", syntax.const(None))])
    if dotted == "np.reshape" and len(args) == 2 and not keywords and is_dot(args[0]) \
            and not is_dot(args[1]):   # (C order)
        return _call("_sg.batch_reshape", [args[0], args[1]])
    if dotted == "np.transpose" and len(args) == 1 and not keywords and is_dot(args[0]):
        return _call("_sg.batch_transpose", [args[0]])
    method = expr.func.attr if isinstance(expr.func, gast.Attribute) \
        and is_dot(expr.func.value) else None
    if method in ("ravel", "flatten", "reshape") and not keywords \
            and (method == "reshape" or not args):
        return _call("_sg.batch_reshape", [expr.func.value] + list(args))
    if method in ("sum", "mean") and len(args) <= 1 and set(keywords) <= {"axis", "keepdims"}:
        options = dict(zip(("axis",), args), **keywords)
        return _call("_sg.batch_reduce", [syntax.quote_expr(f"np.{method}"), expr.func.value,
                                          options.get("axis", syntax.const(None)),
                                          options.get("keepdims", syntax.const(False))])
    if dotted == "_sg.cast_tangent" and args and is_dot(args[0]):
        return expr   # (np.array of tangents stacks them: directions stay last)
    return None


def _call(name, args):
    return gast.Call(func=syntax.quote_expr(name), args=args, keywords=[])


_PRODUCTS = frozenset({"np.matmul", "np.dot"})
_JOINS = frozenset({"np.stack", "np.concatenate"})
_REDUCTIONS = frozenset({"np.sum", "np.mean"})


def _lifts(rule):
    """Is ``rule``'s tangent template elementwise in every operand (so lifting them is
    right)?"""
    return isinstance(rule.tangent, dict) and (rule.elementwise or rule.broadcasts) \
        and not rule.structured and rule.name not in _NOT_ELEMENTWISE \
        and not any("axis" in t for t in rule.tangent.values())


def _lift(atom):
    if isinstance(atom, gast.Name):
        return syntax.quote_expr("_sg.lift(x)", x=atom)
    return atom


class BatchedForwardMode(ForwardMode):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.rules = BatchedTangentExpander(self)
        self.plain_zeros = False
        self.tangent_names = set()

    def tangent(self, name):
        dot = super().tangent(name)
        self.tangent_names.add(dot)
        return dot

    def columnwise(self, expr):
        """``expr`` (reading tangents of one direction) run per direction:
        ``_sg.map_columns(lambda _c0, ...: expr, x_dot, ...)``."""
        dots = sorted({n for n in syntax.loaded_names(expr) if n in self.tangent_names})
        if not dots:
            raise NotBatchable("a tangent expression without tangents")
        params = [f"_c{i}" for i in range(len(dots))]
        renamed = syntax.clone(expr)
        for node in gast.walk(renamed):
            if isinstance(node, gast.Name) and node.id in dots:
                node.id = params[dots.index(node.id)]
        lam = gast.Lambda(args=gast.arguments(
            args=[syntax.param(p) for p in params], posonlyargs=[], vararg=None,
            kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]), body=renamed)
        return gast.Call(func=syntax.quote_expr("_sg.map_columns"),
                         args=[lam] + [syntax.name(d) for d in dots], keywords=[])

    def tangent_or_zero(self, atom, state):
        if isinstance(atom, gast.Name) and atom.id in state or self.plain_zeros:
            return super().tangent_or_zero(atom, state)
        return syntax.quote_expr("_sg.batch_zeros(x, n)", x=atom, n=syntax.name(BATCH))

    def materialize(self, name, state):
        if name not in state.defined and name not in self.params:
            self.preinit.add(name)
        state.tangents[name] = False
        return syntax.quote("d = _sg.batch_zeros(x, n)", d=self.tangent(name), x=name,
                            n=syntax.name(BATCH))

    def tangent_value(self, stmt, target, value, state):
        if isinstance(value, gast.Subscript) and value.value.id in state:
            if value.value.id in self.dicts:
                raise NotBatchable("a dict's item")
            found = super().tangent_value(stmt, target, value, state)
            if found is not None:
                found[0].slice = _batched_index(found[0].slice)
            return found
        return super().tangent_value(stmt, target, value, state)

    def operation_tangent(self, stmt, target, value, state):
        from srcgrad.modes.reverse_common import concatenates

        if isinstance(value, gast.BinOp) and concatenates(value, self.sequences) \
                and not concatenates(value, self.lists):
            raise NotBatchable("a sequence concatenated")
        return super().operation_tangent(stmt, target, value, state)

    def attribute_tangent(self, stmt, value, state):
        from srcgrad.rules import NONDIFF_ATTRIBUTES
        from srcgrad.rules.methods import ARRAY_ATTRIBUTES

        if value.attr in NONDIFF_ATTRIBUTES or value.value.id not in state:
            return None
        if value.attr not in ARRAY_ATTRIBUTES:
            raise NotBatchable(f"the attribute .{value.attr}")
        expr, _ = super().attribute_tangent(stmt, value, state)
        return _batched_form(expr, self.tangent_names) or self.columnwise(expr), False

    def subscript_write(self, stmt, target, state):
        if target.value.id in self.dicts:
            raise NotBatchable("a write into a dict")
        out = super().subscript_write(stmt, target, state)
        for new in out:
            if isinstance(new, gast.Assign) and isinstance(new.targets[0], gast.Subscript) \
                    and new.targets[0].value.id in self.tangent_names:
                new.targets[0].slice = _batched_index(new.targets[0].slice)
        return out

    def call_tangent(self, stmt, target, call, state):
        info = self.call_info(call)
        if info.kind == "structure":
            raise NotBatchable("a structure")
        return super().call_tangent(stmt, target, call, state)

    def bare_call(self, stmt, call, state):
        if self.carries(call, state):
            info = self.call_info(call)
            if info.kind == "rule" and getattr(info.rule, "inplace", False):
                raise NotBatchable(f"the in-place row {info.rule.name}")
        return super().bare_call(stmt, call, state)

    def dynamic_call(self, stmt, info, target, call, state):
        """``y = a.ravel()`` (a method of a value whose type is known only when it runs):
        ``_sg.batched_dynamic_jvp``, which runs a method of an array that only reads it
        once per direction (and hands anything else back to the one-column jvp)."""
        if call.keywords or any(isinstance(a, gast.Starred) for a in call.args):
            raise NotBatchable("a call through a value with keywords or *args")
        out = super().dynamic_call(stmt, info, target, call, state)
        out[-1].value.func = syntax.quote_expr("_sg.batched_dynamic_jvp")
        return out

    def escape(self, stmt, info, state):
        raise NotBatchable("a value let out of the function")


def _batched_index(index):
    """A tangent's index: as the primal's when made of literal numbers and slices, else
    through ``_sg.batch_index`` (an ``...`` in it, known only when it runs)."""
    elts = index.elts if isinstance(index, gast.Tuple) else [index]
    if all(isinstance(e, gast.Slice) or isinstance(e, gast.Constant)
           and isinstance(e.value, int) for e in elts):
        return index
    return syntax.quote_expr("_sg.batch_index(i)", i=syntax.index_value(syntax.clone(index)))


def check_batched(function, tangent_names):
    """Refuse (``NotBatchable``) a generated function where a helper without a batched
    form receives a tangent directly (outside ``map_columns``)."""
    todo = [function]
    while todo:
        node = todo.pop()
        if isinstance(node, gast.Lambda):
            continue
        if isinstance(node, gast.Call):
            dotted = syntax.dotted_name(node.func) or ""
            if dotted.startswith("_sg.") and dotted[4:] not in _BATCH_HELPERS:
                reads = {n for arg in list(node.args) + [k.value for k in node.keywords]
                         if not isinstance(arg, gast.Lambda) for n in syntax.loaded_names(arg)}
                if reads & tangent_names or dotted[4:] in ("zeros_like", "broadcast_tangent"):
                    raise NotBatchable(f"{dotted} of a tangent")
        todo.extend(gast.iter_child_nodes(node))
