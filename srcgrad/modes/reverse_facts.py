"""The facts reverse mode asks of the function (the methods ``ReverseMode`` gets from
``ReverseFacts``), answered from the analyses the mode holds: its CFG, activity,
scalars, and what each call is (``modes.calls``, worked out once per call node).

Before: ``y = np.sin(x)`` with ``x`` a parameter in ``wrt``. After:
``differentiable(stmt)`` is True, ``call_info(call).kind == "rule"``,
``varied(stmt, x)`` is True.
"""

from __future__ import annotations

import dataclasses

from srcgrad import syntax
from srcgrad.modes.calls import call_target, classify_call, generated_variant
from srcgrad.modes.reverse_common import is_range
from srcgrad.rules import NONDIFF_ATTRIBUTES, operators
from srcgrad.syntax import gast


class ReverseFacts:
    """What ``ReverseMode`` asks of the function while it transforms it: which nodes
    define a name, which statements are differentiable, what a call is, which atoms
    are scalars or varied, which statements read Variables."""

    def target_of(self, call):
        """The object ``call``'s non-local callee denotes (``call_target``), resolved
        once per dotted name (the locals and the globals do not change meanwhile)."""
        dotted = syntax.dotted_name(call.func)
        found = self._targets.get(dotted, self)
        if found is self:
            found = self._targets[dotted] = call_target(self.parsed, call, self.locals)
        return found

    def nodes_defining(self, name):
        """The CFG nodes that assign ``name`` (indexed once for every name)."""
        if self._defining is None:
            self._defining = {}
            for cfg_node in self.cfg.nodes:
                for defined in cfg_node.defs:
                    self._defining.setdefault(defined, set()).add(cfg_node)
        return self._defining.get(name, set())

    def differentiable(self, stmt):
        """Does ``stmt``'s result carry a derivative from its operands?"""
        if isinstance(stmt, gast.For):
            return not is_range(stmt.iter)
        value = stmt.value
        if isinstance(value, (gast.Constant, gast.Compare, gast.JoinedStr)):
            return False
        if isinstance(value, gast.BinOp):
            return not isinstance(value.op, operators.NONDIFF_BINARY)
        if isinstance(value, gast.UnaryOp):
            return not isinstance(value.op, operators.NONDIFF_UNARY)
        if isinstance(value, gast.Attribute):
            return value.attr not in NONDIFF_ATTRIBUTES
        if isinstance(value, gast.Call):
            return self.call_info(value).kind != "nondiff"
        return True

    def updated_container(self, stmt):
        """The local a bare call to an in-place helper row updates, or None."""
        if isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call):
            info = self.call_info(stmt.value)
            if info.kind == "rule" and info.rule.inplace and info.args \
                    and isinstance(info.args[0], gast.Name):
                return info.args[0].id
        return None

    def call_info(self, call):
        """What ``call`` is (see ``modes.calls``), worked out once per call node."""
        info = self._call_infos.get(id(call))
        if info is None:
            info = classify_call(self.parsed, call, self.locals, self.arrays, self.instances,
                                 self.proven_dicts, self.namespaces)
            specialized = generated_variant(info.target)
            if specialized is not None:
                info = dataclasses.replace(info, kind="user", target=specialized)
            self._call_infos[id(call)] = info
        return info

    def call_gives_scalar(self, call, is_scalar_atom):
        """Does this call surely return a scalar (given which atoms are scalars)?"""
        info = self.call_info(call)
        module = getattr(info.target, "__module__", None)
        if info.name in ("len", "builtins.len") or module == "math":
            return True
        scalar_args = all(is_scalar_atom(a) for a in call.args) and not call.keywords
        elementwise = info.kind == "rule" and info.rule.elementwise
        return scalar_args and (elementwise or info.name in ("int", "float", "round", "abs"))

    def is_scalar(self, stmt, atom):
        """Is ``atom`` surely a scalar (shape ``()``) just before ``stmt``?"""
        if isinstance(atom, gast.Constant):
            return type(atom.value) in (int, float, bool)
        return isinstance(atom, gast.Name) and self.scalars.has(self.cfg.node(stmt), atom.id)

    def varied(self, stmt, atom):
        return isinstance(atom, gast.Name) and self.activity.is_varied_operand(
            self.cfg.node(stmt), atom.id)

    def reads_variable(self, stmt):
        """Is ``stmt`` ``v = _sg.read_variable(obj)`` or a user call (which may read
        Variables): a source in an eager unit?"""
        return isinstance(stmt, gast.Assign) and isinstance(stmt.value, gast.Call) \
            and self.call_info(stmt.value).kind in ("variable", "user", "dynamic")
