"""Read-back after an escape: may a function read again what it let out of its sight?

An *escape* hands a value being differentiated to code srcgrad does not compile: a bare
call whose result is unused (``ax.plot(x, y)``, ``R.record(y)``) or an attribute write
(``self.cache = y``). The escaped value runs as written, but whatever that code keeps
(the value, or anything it computes from it) has no derivative. The escape is sound only
if the function never reads such a thing back. ``read_back(...)`` finds, in the
statements that may run after the escape (the rest of each enclosing block, and the
whole of each enclosing loop), the first read that could see what the escape kept:

- a global (or closure variable) that is not a module, function, class or immutable
  constant (``LOG[-1]`` after ``R.record(y)``);
- an attribute other than an array's own (``.shape``, ``.T``): ``self.cache``,
  ``ax.lines``; attributes of modules are resolved like globals (``np.pi`` is fine);
- a local bound (anywhere in the function) from such a read, or given to the escape or
  to a later bare call (``buffer`` after ``fill(buffer)``), other than as an ``if``
  test or as another bare call's operand;
- a call of a method or callable object (it may return what was kept), or of a user
  function that itself reads such state (looked into, recursively).

Before::                             What ``read_back`` says::

    y = x * x                            None: nothing after reads what R.record kept
    R.record(y)
    return np.sum(y)

    R.record(y)                          "reads the global `LOG`"
    return np.sum(LOG[-1] * x)

Values the caller passes in (parameters) are taken as the caller's: a callee can reach
them only through what it is given (those are operands, see above).
"""

from __future__ import annotations

import builtins
import numbers
import types

import numpy as np

from srcgrad import syntax
from srcgrad.analysis import fixpoint
from srcgrad.rules.methods import is_array_attribute
from srcgrad.syntax import gast

_INERT_TYPES = (types.ModuleType, types.FunctionType, types.BuiltinFunctionType, type,
                np.ufunc, np.dtype, str, bytes, bool, type(None), numbers.Number,
                types.BuiltinMethodType, type(Ellipsis))


_PURE = ("rule", "nondiff", "structure")   # calls that keep nothing of what they are given


def inert(value):
    """Is ``value`` something no call can change (a module, a function, a class, an
    immutable constant, a tuple of those)? A bound method is not: its object may be."""
    if isinstance(value, (tuple, frozenset)):
        return all(inert(item) for item in value)
    if isinstance(value, types.BuiltinMethodType):
        owner = getattr(value, "__self__", None)
        return owner is None or isinstance(owner, types.ModuleType)
    if isinstance(value, np.ndarray):
        return False
    return isinstance(value, _INERT_TYPES)


def after(fn_node, stmt):
    """The statements that may run after ``stmt`` in one call of ``fn_node``."""
    path = _path(fn_node.body, stmt, None)
    if path is None:
        return []
    out = []
    for owner, block, index in reversed(path):
        out.extend(block[index + 1:])
        if isinstance(owner, (gast.For, gast.While)):
            out.append(owner)
    return out


def conditional(fn_node, stmt):
    """Does ``stmt`` run only on some paths (inside an ``if``)?"""
    path = _path(fn_node.body, stmt, None) or []
    return any(isinstance(owner, gast.If) for owner, _, _ in path)


def _path(block, stmt, owner):
    for index, child in enumerate(block):
        if child is stmt:
            return [(owner, block, index)]
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(child, field, None)
            if isinstance(inner, list) and isinstance(child, gast.stmt):
                found = _path(inner, stmt, child)
                if found is not None:
                    return [(owner, block, index)] + found
    return None


class ReadBack:
    """``ReadBack(parsed, fn_node, local_names, classify, varied).find(stmt)``: the first
    read after ``stmt`` that could see what it let escape, described, or None.
    ``classify(call)``: the call's ``modes.calls.CallInfo``; ``varied(stmt, atom)``:
    does ``atom`` carry a derivative there (passed read-only, it cannot be written)."""

    def __init__(self, parsed, fn_node, local_names, classify, varied):
        self.parsed, self.fn_node = parsed, fn_node
        self.local_names = set(local_names)
        self.classify, self.varied = classify, varied

    def find(self, stmt):
        region = after(self.fn_node, stmt)
        kept = set(self.given(stmt)) | self._external_locals()
        for node in region:
            for inner in syntax.statements([node]):
                if isinstance(inner, gast.Expr) and isinstance(inner.value, gast.Call) \
                        and self.classify(inner.value).kind not in _PURE:
                    kept |= set(self.given(inner))
        for node in region:
            found = self._reads(node, kept)
            if found:
                return found
        return None

    def _external_locals(self):
        """Locals bound, somewhere in the function, to an object an escape can reach:
        a global, an attribute, an item of such an object, what a method returns
        (``kept = sinks.KEPT``). Arithmetic makes new values: ``z = x * W`` is not."""
        external = set()
        body = list(syntax.statements(self.fn_node.body))
        # each round that goes on adds a name bound by one of the statements
        bound = sum(len(syntax.names_in(s, gast.Store)) for s in body) + 2
        for _ in fixpoint.rounds(bound, "the locals an escape can reach"):
            changed = False
            for stmt in body:
                if isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name):
                    names, value = [stmt.targets[0].id], stmt.value
                elif isinstance(stmt, gast.For):
                    names, value = syntax.names_in(stmt.target, gast.Store), stmt.iter
                else:
                    continue
                if not set(names) <= external and self._aliases_state(value, external):
                    external.update(names)
                    changed = True
            if not changed:
                break
        return external

    def _aliases_state(self, value, external):
        """May ``value`` (an atom or one operation on atoms, A-normal form) be an object
        that an escape can reach, rather than a new one?"""
        if isinstance(value, (gast.Tuple, gast.List)):
            return any(self._aliases_state(item, external) for item in value.elts)
        if isinstance(value, gast.Subscript):
            return self._aliases_state(value.value, external)
        if isinstance(value, gast.Name):
            if value.id in self.local_names:
                return value.id in external
            return self._name_reads(value, set()) is not None
        if isinstance(value, gast.Attribute):
            return self._name_reads(value, external) is not None
        if isinstance(value, gast.Call):   # a rule's result may be a view of its operands
            operands = list(value.args) + [k.value for k in value.keywords]
            return self._call_reads(value) is not None or any(
                self._aliases_state(a, external) for a in operands)
        return False

    def given(self, stmt):
        """The locals a bare call is given that carry no derivative (those that do are
        passed read-only): it may store in them what it keeps."""
        call = stmt.value
        atoms = list(call.args) + [k.value for k in call.keywords]
        if isinstance(call.func, gast.Attribute):
            atoms.append(call.func.value)
        return [n for a in atoms for n in syntax.loaded_names(a)
                if n in self.local_names and not self.varied(stmt, syntax.name(n))]

    def _reads(self, stmt, kept):
        """The first read in ``stmt`` (and the blocks it holds) of escaped state."""
        for inner in syntax.statements([stmt]):
            if isinstance(inner, gast.Expr) and isinstance(inner.value, gast.Call):
                found = self._bare_call_reads(inner.value, kept)
            elif isinstance(inner, (gast.If, gast.While)):
                test = inner.test
                found = None if isinstance(test, gast.Name) and test.id in self.local_names \
                    else self._expression_reads(test, kept)
            elif isinstance(inner, gast.For):
                found = self._expression_reads(inner.iter, kept)
            else:
                found = self._expression_reads(_own_expressions(inner), kept)
            if found:
                return found
        return None

    def _bare_call_reads(self, call, kept):
        """A later bare call srcgrad does not compile: what it is given goes out, not
        back in (its operands may be written into: see ``given``); a call that keeps
        nothing reads its operands like any expression."""
        info = self.classify(call)
        if info.kind in _PURE:
            return self._expression_reads(call, kept)
        return self._expression_reads(call, kept, operands_ok=True, callee_ok=True)

    def _expression_reads(self, node, kept, operands_ok=False, callee_ok=False):
        nodes = node if isinstance(node, list) else [node]
        for top in nodes:
            found = self._walk(top, kept, operands_ok, callee_ok)
            if found:
                return found
        return None

    def _walk(self, node, kept, operands_ok, callee_ok):
        if isinstance(node, gast.Call):
            found = None if callee_ok else self._call_reads(node)
            if found:
                return found
            parts = list(node.args) + [k.value for k in node.keywords]
            if isinstance(node.func, gast.Attribute):
                parts.append(node.func.value)
            for part in parts:
                if operands_ok and isinstance(part, gast.Name):
                    continue
                found = self._walk(part, kept, False, False)
                if found:
                    return found
            return None
        if isinstance(node, (gast.Attribute, gast.Name)) and isinstance(node.ctx, gast.Load):
            return self._name_reads(node, kept)
        for child in gast.iter_child_nodes(node):
            found = self._walk(child, kept, False, False)
            if found:
                return found
        return None

    def _name_reads(self, node, kept):
        dotted = syntax.dotted_name(node)
        if dotted is None:   # an attribute of a call's result, of a subscript...
            if isinstance(node, gast.Attribute) and not is_array_attribute(node.attr):
                return f"reads the attribute `.{node.attr}`"
            return self._walk(node.value, kept, False, False)
        root = dotted.split(".")[0]
        if root in self.local_names:
            if root in kept:
                return f"reads `{root}` again"
            attrs = dotted.split(".")[1:]
            if attrs and not all(is_array_attribute(a) for a in attrs):
                return f"reads the attribute `{dotted}`"
            return None
        try:
            value = self.parsed.resolve(dotted)
        except KeyError:
            return f"reads `{dotted}`"
        return None if inert(value) else f"reads the global or closure variable `{dotted}`"

    def _call_reads(self, call):
        info = self.classify(call)
        if info.kind in _PURE:
            return None
        if info.kind == "user":
            found = function_reads_state(info.target)
            return f"calls `{info.name}`, which {found}" if found else None
        return f"calls `{syntax.dotted_name(call.func) or info.name.strip('.')}`"


def _own_expressions(stmt):
    """The expressions of a simple statement (not the blocks of a compound one)."""
    return [child for child in gast.iter_child_nodes(stmt) if isinstance(child, gast.expr)]


def function_reads_state(fn, _seen=None):
    """Does user function ``fn`` read a global, closure variable or attribute that a call
    could have changed (see the module doc)? Says which, or None."""
    seen = set() if _seen is None else _seen
    if fn in seen:
        return None
    seen.add(fn)
    code = getattr(fn, "__code__", None)
    if code is None:
        return "is not Python code srcgrad can read"
    for cell, name in zip(fn.__closure__ or (), code.co_freevars):
        try:
            value = cell.cell_contents
        except ValueError:
            continue
        if not inert(value):
            return f"reads the variable `{name}` of an enclosing function"
    for name, attr_chain in _global_reads(code):
        if name in fn.__globals__:
            value = fn.__globals__[name]
        elif hasattr(builtins, name):
            value = getattr(builtins, name)
        else:
            continue
        for attr in attr_chain:
            if not isinstance(value, types.ModuleType):
                break
            value = getattr(value, attr, None)
        if isinstance(value, types.FunctionType) and not _library(value):
            found = function_reads_state(value, seen)
            if found:
                return found
        elif not inert(value):
            return f"reads the global `{name}`"
    for attr in _attribute_reads(code):
        if not is_array_attribute(attr):
            return f"reads the attribute `.{attr}`"
    return None


def _library(fn):
    return (fn.__module__ or "").split(".")[0] in ("numpy", "scipy", "srcgrad")


def _global_reads(code):
    """``(global name, module attributes read through it)`` of ``code`` and the code
    objects nested in it."""
    import dis

    out = []
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            out.extend(_global_reads(const))
    instructions = list(dis.get_instructions(code))
    for i, ins in enumerate(instructions):
        if ins.opname in ("LOAD_GLOBAL", "LOAD_NAME"):
            chain = []
            for follow in instructions[i + 1:]:
                if follow.opname not in ("LOAD_ATTR", "LOAD_METHOD"):
                    break
                chain.append(follow.argval)
            out.append((ins.argval, chain))
    return out


def _attribute_reads(code):
    """Attributes read on values other than globals (``self.w``), in ``code`` and the
    code objects nested in it."""
    import dis

    out = []
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            out.extend(_attribute_reads(const))
    previous = None
    for ins in dis.get_instructions(code):
        if ins.opname in ("LOAD_ATTR", "LOAD_METHOD") \
                and previous not in ("LOAD_GLOBAL", "LOAD_NAME", "LOAD_ATTR", "LOAD_METHOD"):
            out.append(ins.argval)
        previous = ins.opname
    return out


def record(unit, errors):
    """Note on ``unit`` where its function lets a differentiated value out (the first
    escape's error text), and refuse it if a caller linked to it before it was
    generated (recursion): that caller's reads after the call were not checked."""
    if not errors:
        return
    unit.escapes = str(errors[0])
    if unit.linked_early:
        raise _callee_error(unit)


def check_linked(unit):
    """A callee linked before it is generated (recursion) is refused in ``record`` if it
    turns out to let a differentiated value out."""
    if getattr(unit, "module", True) is None:   # (custom units have no module)
        unit.linked_early = True


def check_callee(unit):
    """A callee known only when it runs (a method, a callable value) must not let a
    differentiated value out: its caller may read back what the call kept after it
    returns, and was not checked for that. (A callee the caller names is: see
    ``modes.calls.guard_escaping_callee``.)"""
    if getattr(unit, "escapes", None):
        raise _callee_error(unit)
    check_linked(unit)


def _callee_error(unit):
    from srcgrad.errors import TransformError

    name = getattr(unit.fn, "__qualname__", repr(unit.fn))
    return TransformError(
        f"{name} is called from a function being differentiated through a value or "
        "recursively, and it lets a value being differentiated out to code srcgrad does "
        "not see into; the caller could read back what was kept without its derivative. "
        f"Call it by its name, from a function that does not recurse:\n{unit.escapes}")
