"""Debugging generated code: tracebacks that name the user's line, and a NaN/inf check.

``annotate_lines(unit)`` appends to each generated line, in the ``linecache`` copy that
tracebacks, ``pdb`` and ``inspect`` read, the user's file, line and text it came from::

    File "<srcgrad loss 3f2a…>", line 14, in loss_grad
      dh = d_pow * 2 * h    # from model.py:12: h = helper(x, w)

The compiled code is untouched, so this costs nothing per call; a reverse-mode unit
annotates each function's lines when it compiles that function (``sg.grad`` compiles one
of the module's four), so unused functions cost nothing either. Python before 3.13
prints an uncaught exception without ``linecache``; there the default ``sys.excepthook``
is swapped for the ``traceback`` module's printer, which shows the same report plus
these lines.

``nan_checked(unit, role)`` recompiles one generated function with a finiteness check
after every assignment of its backward sweep (and of its callees' backward sweeps); the
first adjoint that holds a NaN or inf raises ``FloatingPointError`` naming the generated
line and the user's line. ``sg.grad(f, check_nan=True)`` uses it.
"""

from __future__ import annotations

import ast
import linecache
import os
import sys
import traceback

import numpy as np

from srcgrad.codegen import loader
from srcgrad.frontend.freshness import unwrap_own

_BACKWARD_MARK = "# Backward sweep"
# file name -> (the linecache entry annotate_lines made for it, the spans annotated in it)
_ANNOTATED: dict = {}
_WHOLE = (1, None)   # the span of a whole module
_CHECKER = "_sg_check_finite"


def _user_file(unit):
    fn = unwrap_own(unit.fn)
    return fn.__code__.co_filename


def origin(unit, generated_line):
    """``(user file, user line, user text)`` a generated line came from, or None."""
    user_line = unit.module.line_map.get(generated_line)
    if user_line is None:
        return None
    filename = _user_file(unit)
    return filename, user_line, linecache.getline(filename, user_line).strip()


_ANNOTATION_WIDTH = 100


def annotate_lines(unit, span=_WHOLE):
    """Show the user's origin of each generated line in tracebacks: of the lines of
    ``span`` (first, last), one function's, or of the whole module."""
    entry, done = _entry(unit)
    if span in done or _WHOLE in done:
        return
    lines, line_map = entry[2], unit.module.line_map
    first, last = span
    numbers = line_map if span == _WHOLE else range(first, last + 1)
    filename = _user_file(unit)
    user_lines = linecache.getlines(filename)
    short = os.path.basename(filename)
    for number in numbers:
        user_line = line_map.get(number)
        if user_line and 0 < number <= len(lines) and 0 < user_line <= len(user_lines):
            text = user_lines[user_line - 1].strip()
            if len(text) > _ANNOTATION_WIDTH:   # a long line, cited once per generated line
                text = text[:_ANNOTATION_WIDTH - 3] + "..."
            code = lines[number - 1].rstrip("\r\n")
            lines[number - 1] = f"{code}    # from {short}:{user_line}: {text}\n"
    done.add(span)
    if sys.version_info < (3, 13) and sys.excepthook is sys.__excepthook__:
        sys.excepthook = _print_exception


def _entry(unit):
    """The linecache entry of ``unit``'s module that ``annotate_lines`` writes into (its
    own copy of the lines), and the spans annotated in it so far."""
    found = _ANNOTATED.get(unit.filename)
    if found is not None and linecache.cache.get(unit.filename) is found[0]:
        return found
    lines = unit.module.source.splitlines(keepends=True)
    entry = linecache.cache[unit.filename] = (len(unit.module.source), None, lines,
                                              unit.filename)
    _ANNOTATED[unit.filename] = found = (entry, set())
    return found


loader.RELEASE_HOOKS.append(lambda filename: _ANNOTATED.pop(filename, None))


def _print_exception(exc_type, exc, tb):
    traceback.print_exception(exc_type, exc, tb)


class _Child(dict):
    """A namespace that overrides a few names and reads the rest from ``parent``."""

    def __init__(self, parent, **names):
        super().__init__(names)
        self["__builtins__"] = parent.get("__builtins__", __builtins__)
        self._parent = parent

    def __missing__(self, key):
        return self._parent[key]


def nan_checked(unit, role):
    """``unit``'s generated ``role`` function, checking every adjoint it computes."""
    original = unit.functions[role]
    if getattr(original, "nan_checked", None) is not None:
        return original.nan_checked
    name = unit.module.functions[role]
    tree = ast.parse(unit.module.source, unit.filename)
    function = next(node for node in tree.body
                    if isinstance(node, ast.FunctionDef) and node.name == name)
    start = _backward_start(unit.module.source, function) if role != "backward" else 0
    function.body = _instrument(function.body, start)
    namespace = _Child(unit.namespace, **{_CHECKER: _checker(unit, role)})
    code = compile(ast.Module(body=[function], type_ignores=[]), unit.filename, "exec")
    exec(code, namespace)
    checked = namespace[name]
    checked.source = unit.function_source(role)
    checked.unit = unit
    original.nan_checked = checked
    for alias, value in dict.items(unit.namespace):
        callee = getattr(value, "unit", None)
        if callee is not None and callee is not unit and value is callee.functions["backward"]:
            namespace[alias] = nan_checked(callee, "backward")
    for variant_role, alias in unit.module.functions.items():
        if variant_role == f"scalar_{role}":   # the variant for scalar arguments
            from srcgrad.compiler import reverse as compiler

            variant = compiler.reverse_unit(unit.fn, unit.wrt, scalars=True)
            namespace[alias] = nan_checked(variant, role)
    return checked


def _backward_start(source, function):
    """The first line of ``function``'s backward sweep (its marking comment)."""
    lines = source.splitlines()
    for number in range(function.lineno, function.end_lineno + 1):
        if lines[number - 1].strip().startswith(_BACKWARD_MARK):
            return number
    return 0


def _instrument(body, start):
    """Insert a check after each assignment on a line after ``start``."""
    out = []
    for stmt in body:
        for field in ("body", "orelse"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and inner and isinstance(stmt, ast.stmt):
                setattr(stmt, field, _instrument(inner, start))
        out.append(stmt)
        names = _checked_names(stmt) if stmt.lineno > start else []
        if names:
            check = ast.parse(f"{_CHECKER}(({', '.join(names)},), {names!r}, {stmt.lineno})")
            out.append(ast.copy_location(check.body[0], stmt))
            ast.fix_missing_locations(out[-1])
    return out


def _checked_names(stmt):
    """Names an assignment stores an adjoint in (not a restore from the stack)."""
    if isinstance(stmt, ast.Assign):
        value, targets = stmt.value, stmt.targets
    elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
        value, targets = stmt.value, [stmt.target]
    else:
        return []
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) \
            and value.func.attr == "pop":
        return []
    names = []
    for target in targets:
        for node in ast.walk(target):
            if isinstance(node, ast.Name):
                names.append(node.id)
    return names


def _finite(value):
    try:
        return bool(np.all(np.isfinite(value)))
    except TypeError:   # None, tuples of saved values, objects
        return True


def _checker(unit, role):
    source_lines = unit.module.source.splitlines()

    def check(values, names, generated_line):
        for value, name in zip(values, names):
            if not _finite(value):
                kind = "nan" if np.any(np.isnan(value)) else "inf"
                raise FloatingPointError(
                    _message(unit, name, kind, generated_line, source_lines))
        return None

    return check


def _message(unit, name, kind, generated_line, source_lines):
    text = source_lines[generated_line - 1].strip()
    where = origin(unit, generated_line)
    user = f"{where[0]}:{where[1]}: {where[2]}" if where else "(no user line recorded)"
    return (f"the adjoint {name} holds {kind}; it is the derivative through {user}\n"
            f"  generated line {generated_line} of {unit.fn.__qualname__}'s derivative: {text}")
