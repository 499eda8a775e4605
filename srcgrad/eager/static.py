"""Implicit gradients without the per-thread read registry, when the Variables a
function reads are plain names.

An eager unit's fused ``f_value_and_grad`` reads each Variable through
``_sg.read_variable(w)`` and hands its cotangent to ``_sg.variable_cotangent(w, dw)``;
both go through per-thread collectors (``runtime.variables``), which is what lets a
Variable be found anywhere: behind an attribute, in a container, in a called function.
When every read in the function is a statement ``w_value = _sg.read_variable(w)`` of
its own body (not in a loop or branch) of a free name, and it calls no other generated
function, the same code can return the Variables and their cotangents instead::

    def loss_value_and_grad(x):              def loss_value_and_grad_implicit(x):
        _w_value = _sg.read_variable(w)          _w_value = w._value
        ...                                      ...
        _sg.variable_cotangent(w, d_w_value)
        return (_sum, ())                        return (_sum, (w,), (d_w_value,))

A name that no longer holds a Variable when the variant runs (``w._value`` fails) sends
the caller back to the general code.
"""

from __future__ import annotations

import ast
import inspect

from srcgrad.codegen import loader

READ, COTANGENT = "_sg.read_variable", "_sg.variable_cotangent"
_RUNTIME_NAMES = {"np", "math", "_sg", "__builtins__"}


class StaticReads:
    """The variant of an eager unit's fused function, and the names it reads."""

    def __init__(self, function, names, source):
        self.function, self.names, self.source = function, names, source


def static_variant(unit):
    """A ``StaticReads`` for ``unit`` (an eager unit with ``wrt=()``), or None when its
    Variable reads are not all plain names read once per call."""
    text = unit.function_source("value_and_grad")
    tree = ast.parse(text)
    function = tree.body[0]
    plan = _plan(function, set(unit.namespace) - _RUNTIME_NAMES)
    if plan is None:
        return None
    reads, cotangents, value = plan
    lines = text.splitlines()
    for stmt in function.body:
        call = _runtime_call(stmt)
        if call == READ:
            name = stmt.value.args[0].id
            lines[stmt.lineno - 1] = f"{_indent(lines, stmt)}{stmt.targets[0].id} = {name}._value"
        elif call == COTANGENT:
            lines[stmt.lineno - 1] = None
    variables = _tuple(reads)
    grads = _tuple(" + ".join(cotangents.get(name, ["None"])) for name in reads)
    last = function.body[-1]
    lines[last.lineno - 1] = f"{_indent(lines, last)}return ({value}, {variables}, {grads})"
    name = f"{function.name}_implicit"
    lines[function.lineno - 1] = lines[function.lineno - 1].replace(
        f"def {function.name}(", f"def {name}(", 1)
    source = "\n".join(line for line in lines if line is not None) + "\n"
    namespace = loader.LiveGlobals(inspect.unwrap(unit.fn))   # as the unit's own
    loader.load(source, f"{unit.fn.__name__} implicit", namespace)
    return StaticReads(namespace[name], tuple(reads), source)


def _plan(function, generated_names):
    """(names read in order, name -> cotangent names, value text) or None."""
    last = function.body[-1]
    if not (isinstance(last, ast.Return) and isinstance(last.value, ast.Tuple)
            and len(last.value.elts) == 2):
        return None
    if last.end_lineno != last.lineno:
        return None
    reads, cotangents, targets = {}, {}, []
    top_level = {id(stmt.value): stmt for stmt in function.body
                 if isinstance(stmt, ast.Expr) or (isinstance(stmt, ast.Assign) and isinstance(
                     stmt.targets[0], ast.Name) and len(stmt.targets) == 1)}
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            targets.append(node.id)
        if isinstance(node, ast.Name) and node.id in generated_names:
            return None   # a call of another generated function, which may read Variables
        if not isinstance(node, ast.Call):
            continue
        dotted = ast.unparse(node.func)
        if dotted not in (READ, COTANGENT):
            continue
        stmt = top_level.get(id(node))
        if stmt is None or not isinstance(node.args[0], ast.Name) or \
                isinstance(stmt, ast.Assign) != (dotted == READ):
            return None
        if dotted == READ:
            reads.setdefault(node.args[0].id, []).append(stmt.targets[0].id)
        elif isinstance(node.args[1], ast.Name):
            cotangents.setdefault(node.args[0].id, []).append(node.args[1].id)
        else:
            return None
    read_targets = [target for names in reads.values() for target in names]
    if not reads or not set(cotangents) <= set(reads) or any(
            targets.count(target) > 1 for target in read_targets):
        return None   # (a value read twice under one name would share its cotangent's)
    return list(reads), cotangents, ast.unparse(last.value.elts[0])


def _tuple(items):
    items = list(items)
    return f"({items[0]},)" if len(items) == 1 else f"({', '.join(items)})"


def _runtime_call(stmt):
    value = getattr(stmt, "value", None)
    if isinstance(value, ast.Call):
        return ast.unparse(value.func)
    return None


def _indent(lines, stmt):
    line = lines[stmt.lineno - 1]
    return line[:len(line) - len(line.lstrip())]
