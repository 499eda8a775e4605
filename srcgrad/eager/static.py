"""Eager units without the per-thread read registry, when the Variables a function reads
are plain names.

An eager unit's generated code reads each Variable through ``_sg.read_variable(w)`` and
hands its cotangent to ``_sg.variable_cotangent(w, dw)``; both go through per-thread
collectors (``runtime.variables``), which is what lets a Variable be found anywhere:
behind an attribute, in a container, in a called function. When every read is a
statement ``w_value = _sg.read_variable(w)`` of the function's own body (not in a loop
or branch) of a free name, and it calls nothing that may run other code reading Variables
(another generated function, a callee resolved at run time such as ``m(x)`` with ``m``
an argument, any call not into NumPy, ``math``, a builtin or a runtime helper that runs
no user code: ``_calls_only_known_code``), the same code can return the Variables and
their cotangents instead::

    def loss_value_and_grad(x):              def loss_value_and_grad_implicit(x):
        _w_value = _sg.read_variable(w)          _w_value = w._value
        ...                                      ...
        _sg.variable_cotangent(w, d_w_value)
        return (_sum, ())                        return (_sum, (w,), (d_w_value,))

``implicit_variant`` gives that for the fused ``value_and_grad`` (``implicit_gradients``),
``split_variant`` for the ``forward``/``backward`` pair (a call under a tape): the forward
returns ``(value, saved, variables)``, the backward ``(grads, variable cotangents)``. A
name that no longer holds a Variable when a variant runs (``w._value`` fails) sends the
caller back to the general code (``holds_variables``), and so does an entry guard that
misses (a name the code was generated from, such as an inlined helper, denotes something
else now): in a variant it raises ``_sg.StaleVariant`` instead of handing over.
"""

from __future__ import annotations

import ast
import builtins
import re
import types

from srcgrad import runtime
from srcgrad.codegen import loader
from srcgrad.compiler import guards, library_watch
from srcgrad.frontend.freshness import unwrap_own
from srcgrad.runtime.variables import VariableBase

READ, COTANGENT = "_sg.read_variable", "_sg.variable_cotangent"
_RUNTIME_NAMES = {"np", "math", "_sg", "__builtins__"}


class Variant:
    """Generated functions that return Variables and cotangents, and the names read."""

    def __init__(self, names, functions):
        self.names = names
        self.functions = functions        # role -> function (``.source`` its text)
        self.function = next(iter(functions.values()))

    @property
    def source(self):
        return "\n".join(f.source for f in self.functions.values())

    def holds_variables(self):
        """Do the names read still hold Variables?"""
        return all(isinstance(_current(self.function, name), VariableBase)
                   for name in self.names)


def _current(function, name):
    """What ``name`` (a closure cell or a global of ``function``) holds now."""
    code = function.__code__
    if name in code.co_freevars:
        try:
            return function.__closure__[code.co_freevars.index(name)].cell_contents
        except ValueError:   # an empty cell
            return None
    return function.__globals__.get(name)


def implicit_variant(unit):
    """The variant of an eager unit's fused function (``wrt=()``), or None."""
    parsed = _Parsed(unit, "value_and_grad")
    if parsed.reads is None or parsed.cotangents is None or not parsed.reads:
        return None
    value = ast.unparse(parsed.returned.elts[0]) if _pair(parsed.returned) else None
    if value is None:
        return None
    grads = _tuple(" + ".join(parsed.cotangents.get(n, ["None"])) for n in parsed.reads)
    text = parsed.rewritten(f"({value}, {_tuple(parsed.reads)}, {grads})")
    return Variant(tuple(parsed.reads), _load(unit, {"implicit": text}))


def split_variant(unit):
    """The variant of an eager unit's forward and backward, or None."""
    forward, backward = _Parsed(unit, "forward"), _Parsed(unit, "backward")
    if forward.reads is None or backward.cotangents is None or backward.reads or \
            forward.cotangents or not forward.reads or not _pair(forward.returned):
        return None
    reads = forward.reads
    if not set(backward.cotangents) <= set(reads):
        return None
    returned = ast.unparse(forward.returned)[1:-1]
    grads = _tuple(" + ".join(backward.cotangents.get(n, ["None"])) for n in reads)
    texts = {"forward": forward.rewritten(f"({returned}, {_tuple(reads)})"),
             "backward": backward.rewritten(f"({ast.unparse(backward.returned)}, {grads})")}
    return Variant(tuple(reads), _load(unit, texts))


class _Parsed:
    """One generated function: its Variable reads and cotangents, when all are plain."""

    def __init__(self, unit, role):
        self.role = role
        self.text = unit.function_source(role)
        self.function = ast.parse(self.text).body[0]
        self.guards = [stmt for stmt in self.function.body if _is_guard(stmt, self.function)]
        body = ast.FunctionDef(self.function.name, self.function.args, [
            stmt for stmt in self.function.body if stmt not in self.guards], [], None, None)
        user = unwrap_own(unit.fn)
        user_names = set(getattr(user, "__globals__", ())) | set(user.__code__.co_freevars)
        generated = {n for n in set(unit.namespace) - _RUNTIME_NAMES
                     if not n.startswith(guards.PREFIX)}
        self.reads, self.cotangents = _reads(body, generated, user_names)
        last = self.function.body[-1]
        single_line = isinstance(last, ast.Return) and last.end_lineno == last.lineno
        self.returned = last.value if single_line else None
        if self.returned is None:
            self.reads = self.cotangents = None

    def rewritten(self, returned):
        """The function's text with the reads and cotangents as the module doc shows."""
        lines = self.text.splitlines()
        for stmt in self.function.body:
            call = _runtime_call(stmt)
            if call == READ:
                name = stmt.value.args[0].id
                lines[stmt.lineno - 1] = f"{_indent(lines, stmt)}{stmt.targets[0].id} = " \
                                         f"{name}._value"
            elif call == COTANGENT:
                lines[stmt.lineno - 1] = None
        for guard in self.guards:   # a hand-over is the general code's, not the variant's
            hand_over = guard.body[0]
            lines[hand_over.lineno - 1] = f"{_indent(lines, hand_over)}raise _sg.StaleVariant"
            for number in range(hand_over.lineno, hand_over.end_lineno):
                lines[number] = None
        last = self.function.body[-1]
        lines[last.lineno - 1] = f"{_indent(lines, last)}return {returned}"
        return "\n".join(line for line in lines if line is not None) + "\n"


def _is_guard(stmt, function):
    """Is ``stmt`` a check ``compiler.guards`` puts first in ``function``: an entry guard,
    or a backward's test for a forward's hand-over? ::

        if act is not _assumed_act:              if type(saved) is _sg.Redirected:
            return _sg.regenerated(f_grad)(x)        return saved.backward(dy)

    A variant's forward never hands over (its guard raises ``StaleVariant``), so its
    backward never sees a ``Redirected``."""
    if not isinstance(stmt, ast.If) or stmt.orelse or len(stmt.body) != 1 or \
            not isinstance(stmt.body[0], ast.Return):
        return False
    call, test = stmt.body[0].value, ast.unparse(stmt.test)
    inner = call.func if isinstance(call, ast.Call) else None
    parameters = [a.arg for a in function.args.args]
    if parameters and test == f"type({parameters[0]}) is _sg.Redirected":
        return ast.unparse(call) == f"{parameters[0]}.backward({', '.join(parameters[1:])})"
    return isinstance(inner, ast.Call) and ast.unparse(inner.func) == "_sg.regenerated" and \
        [ast.unparse(a) for a in inner.args] == [function.name] and not any(
            isinstance(n, ast.Name) and n.id in ("_sg", function.name)
            for n in ast.walk(stmt.test))


def _reads(function, generated_names, user_names):
    """(name -> read targets, name -> cotangent names), both in order; (None, None) when
    a read or cotangent is not a plain top-level statement, or the function calls code
    that may read Variables through the collectors (``_calls_only_known_code``)."""
    if not _calls_only_known_code(function, user_names):
        return None, None
    reads, cotangents, stores = {}, {}, []
    top_level = {id(stmt.value): stmt for stmt in function.body
                 if isinstance(stmt, ast.Expr) or (isinstance(stmt, ast.Assign) and isinstance(
                     stmt.targets[0], ast.Name) and len(stmt.targets) == 1)}
    for node in ast.walk(function):
        if isinstance(node, ast.Name):
            if node.id in generated_names:
                return None, None
            if isinstance(node.ctx, ast.Store):
                stores.append(node.id)
        if not isinstance(node, ast.Call) or ast.unparse(node.func) not in (READ, COTANGENT):
            continue
        stmt = top_level.get(id(node))
        is_read = ast.unparse(node.func) == READ
        if stmt is None or isinstance(stmt, ast.Assign) != is_read or not all(
                isinstance(arg, ast.Name) for arg in node.args):
            return None, None
        if is_read:
            reads.setdefault(node.args[0].id, []).append(stmt.targets[0].id)
        else:
            cotangents.setdefault(node.args[0].id, []).append(node.args[1].id)
    if any(stores.count(target) > 1 for targets in reads.values() for target in targets):
        return None, None   # a value read twice under one name shares its cotangent's
    return reads, cotangents


_LIBRARY_ROOTS = {"np", "math"}
_CONTAINER_METHODS = {"append", "pop", "extend", "insert", "copy", "get", "keys", "values",
                      "items", "setdefault", "update", "reverse", "add"}


def _calls_only_known_code(function, user_names):
    """Does every call in ``function`` go into NumPy, ``math``, a builtin, or a runtime
    helper that runs no user code? A callee found at run time (``_sg.dynamic_forward``:
    ``m(x)`` with ``m`` an argument, ``self.layer(x)``), a guard's hand-over, a method
    called by name, an ODE's right-hand side: each may run code that reads Variables
    through the collectors, which the variant does not open. (A builtin's name that the
    user's globals or cells bind is the user's; a container method is called only on a
    list or dict the function itself assigned.)"""
    own = {node.id for node in ast.walk(function)
           if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
    for node in ast.walk(function):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        root = func
        while isinstance(root, ast.Attribute):
            root = root.value
        if not isinstance(root, ast.Name):
            return False
        if root.id in own and isinstance(func, ast.Attribute) and func.value is root and \
                func.attr in _CONTAINER_METHODS:
            continue   # the generated code's own stacks and lists
        if root.id == "_sg":
            helper = getattr(runtime, func.attr, None) if isinstance(func, ast.Attribute) \
                and func.value is root else None
            if helper is None or getattr(helper, "__srcgrad_runs_user_code__", False):
                return False
        elif root.id not in _LIBRARY_ROOTS and not (
                func is root and hasattr(builtins, root.id) and root.id not in user_names):
            return False
    return True


def _load(unit, texts):
    """Load the variant functions (named ``<generated name>_implicit``) so that they run
    in the user function's own globals and closure cells: a Variable is then one
    ordinary (cached) global or cell load, and rebinding it is still seen. ``np``,
    ``math`` and ``_sg`` reach them as cells of their own."""
    user = unwrap_own(unit.fn)
    cells = dict(zip(user.__code__.co_freevars, user.__closure__ or ()))
    runtime = {name: unit.namespace[name] for name in ("np", "math", "_sg")}
    names, sources, nested = {}, [], []
    for role, text in texts.items():
        head = text.split("(", 1)[0]
        names[role] = head.split()[-1] + "_implicit"
        sources.append(text.replace(head, f"def {names[role]}", 1))
        nested.append("".join(f"    {line}\n" for line in sources[-1].splitlines()))
    read = set(re.findall(rf"\b{guards.PREFIX}\w+", "".join(texts.values())))
    # what the guards compare with and the code reads for the names: constants
    runtime.update({name: dict.__getitem__(unit.namespace, name) for name in sorted(read)})
    free = ", ".join(sorted(set(runtime) | set(cells)))
    source = f"def _variants({free}):\n" + "\n".join(nested) + \
        f"    return {', '.join(names.values())},\n"
    namespace = {}
    loader.load(source, f"{unit.fn.__name__} implicit", namespace, owner=unit)
    codes = {c.co_name: c for c in namespace["_variants"].__code__.co_consts
             if isinstance(c, types.CodeType)}
    functions = {}
    for (role, name), text in zip(names.items(), sources):
        code = codes[name]
        closure = tuple(types.CellType(runtime[v]) if v in runtime else cells[v]
                        for v in code.co_freevars)
        library_watch.watch_cells(unit, [cell for v, cell in zip(code.co_freevars, closure)
                                         if v in ("np", "math")])
        functions[role] = types.FunctionType(code, user.__globals__, name, None, closure)
        functions[role].source = text
    return functions


def _pair(node):
    return isinstance(node, ast.Tuple) and len(node.elts) == 2


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
