"""Guards: what a unit assumed about the names it resolved, checked when it is entered.

Compiling a function resolves names (``ParsedFunction.assume``): ``act`` is ``np.tanh``,
``helper`` is the function whose body was inlined, ``CFG.xp.sum`` is ``np.sum``, a
recursive callee is the unit itself. The generated code is right only while those names
denote the same objects, so every entry function (forward, grad, value_and_grad, jvp)
starts with one test of them, and on a miss hands over to the unit generated for what
the names denote now (``regenerated``, compiled once per set of bindings and cached)::

    def f_grad(x):
        # Guard: the names this code was generated from still denote the same objects
        if act is not _assumed_act:
            return _sg.regenerated(f_grad)(x)
        ...

A backward sweep given the saved values of such a hand-over passes them on::

    def f_backward(saved, dy):
        if type(saved) is _sg.Redirected:
            return saved.backward(dy)

Proven, not guarded: ``np``/``math`` bound to NumPy / ``math`` and attribute chains
through library modules (generated code binds ``np`` and ``math`` itself), builtins, and
``_sg.<helper>`` bound to srcgrad's runtime (code generated from generated code calls its
helpers through their rule rows, never through their source: see ``srcgrad.rules.runtime_rules``),
and, in generated code differentiated again, the names srcgrad bound in its namespace (the
unit's own functions and their scalar variants, compiled on first call).
"""

from __future__ import annotations

import math
import re
import types

import numpy as np

from srcgrad import runtime, syntax
from srcgrad.codegen.loader import LiveGlobals
from srcgrad.frontend.parse import globals_of
from srcgrad.syntax import gast

PREFIX = "_assumed_"
_FIELDS = (".__code__", ".__defaults__", ".__kwdefaults__")   # a function's, guarded with it
_OWN_MODULES = {"np": np, "math": math}
_LIBRARIES = ("numpy", "scipy", "math")


def guarded(parsed):
    """``((name in generated code, dotted name, object), ...)`` for the assumptions of
    ``parsed`` that are checked at run time."""
    found = {}
    for dotted, obj in sorted(parsed.assumptions.items()):
        owner = getattr(obj, "__self__", None)
        if "." in dotted and owner is not None and not isinstance(owner, types.ModuleType) \
                and not isinstance(obj, type) and _resolves_to(parsed, dotted, owner):
            # A bound method is made afresh on each access: guard the object it is bound to.
            # (One a module holds, numpy.random.randn of its RandomState, is guarded itself:
            # the module's name does not denote the method's object.)
            dotted, obj = dotted.rsplit(".", 1)[0], owner
        if not _proven(parsed, dotted):
            found[dotted] = (PREFIX + dotted.replace(".", "_"), dotted, obj)
            if isinstance(obj, types.FunctionType):   # autoreload swaps __code__ in place
                code = f"{dotted}.__code__"
                found[code] = (PREFIX + code.replace(".", "_"), code, obj.__code__)
                for field in ("__defaults__", "__kwdefaults__"):   # reassignable too
                    if getattr(obj, field) is not None:
                        part = f"{dotted}.{field}"
                        found[part] = (PREFIX + part.replace(".", "_"), part,
                                       getattr(obj, field))
    return tuple(found[d] for d in sorted(found))


def _resolves_to(parsed, dotted, owner):
    """Does the prefix of ``dotted`` (``x`` in ``x.method``) denote ``owner``?"""
    try:
        return parsed.resolve(dotted.rsplit(".", 1)[0]) is owner
    except KeyError:
        return False


def code_of(fn):
    """The code a unit generated from ``fn`` was read from (IPython's autoreload replaces
    a function's ``__code__`` in place); None for what is not a Python function."""
    return fn.__code__ if isinstance(fn, types.FunctionType) else None


def describe(guards):
    """The guards as JSON for the disk cache: ``[[name, dotted], ...]``."""
    return [[name, dotted] for name, dotted, _ in guards]


def reresolved(parsed, described):
    """Guards read back from the disk cache, with what the names denote now (the
    cache key matched their descriptions)."""
    return tuple((name, dotted, parsed.resolve(dotted)) for name, dotted in described)


def _proven(parsed, dotted):
    head, *rest = dotted.split(".")
    if head in parsed.closure:
        return False
    try:
        root = parsed.globals[head]
    except KeyError:
        return True   # a builtin
    if head == "_sg" and root is runtime or _bound_by_srcgrad(parsed.globals, head):
        return True
    if head in _OWN_MODULES and _OWN_MODULES[head] is not root:
        raise _shadowed_module(parsed, head, root)
    if _OWN_MODULES.get(head) is not root:
        return False
    obj = root
    for attr in rest[:-1]:
        obj = getattr(obj, attr, None)
        if not isinstance(obj, types.ModuleType) or \
                (obj.__name__ or "").split(".")[0] not in _LIBRARIES:
            return False
    return True


def _bound_by_srcgrad(namespace, name):
    """Is ``name`` bound by srcgrad itself in the namespace of generated code (not found
    there through the user's globals)?"""
    return isinstance(namespace, LiveGlobals) and dict.__contains__(namespace, name)


def _shadowed_module(parsed, name, value):
    """The function reads a global ``np`` (or ``math``) that is not the module: generated
    code binds that name to the module itself, so a guard on it could never hold."""
    module = _OWN_MODULES[name].__name__
    node = next((n for n in syntax.walk(parsed.node)
                 if isinstance(n, syntax.gast.Name) and n.id == name), None)
    return parsed.error(
        f"the global `{name}` is a {type(value).__name__} here, not the module {module}: "
        f"srcgrad's generated code binds `{name}` to {module}, so it cannot mean anything "
        f"else. Import {module} as `{name}` and give the other value another name", node)


def hold(fn, guards):
    """Do the names still denote what they did (checked in Python: the cache's lookup)?"""
    closure = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    for _, dotted, expected in guards:
        head, *rest = dotted.split(".")
        try:
            obj = closure[head].cell_contents if head in closure else globals_of(fn)[head]
            for attr in rest:
                obj = getattr(obj, attr)
        except (KeyError, ValueError, AttributeError):
            return False
        if obj is not expected:
            return False
    return True


def entry_check(guards, function):
    """The guard statements put first in the generated ``function`` (a gast def)."""
    tests = [f"{dotted} is not {name}" for name, dotted, _ in guards]
    hand_over = f"    return _sg.regenerated({function.name})({_forwarded(function.args)})"
    # Three tests a line: ast.unparse parenthesizes the fourth operand of an ``or``.
    check = [stmt for start in range(0, len(tests), 3) for stmt in syntax.quote(
        f"if {' or '.join(tests[start:start + 3])}:\n{hand_over}")]
    note = syntax.comment("Guard: the names this code was generated from still denote "
                          "the same objects")
    return [note] + check


def read_once(guards, function):
    """Make ``function`` (a gast def, before its entry check) read each guarded name
    through the object the guard compared it with (``_assumed_act``), not the name
    again: a thread rebinding ``act`` between the entry check and a later read could
    otherwise pair one function's value with another's derivative::

        _act = act(x)   ->   _act = _assumed_act(x)

    A name the function itself assigns is left alone (it is not the global), and so is
    a module (``sg.grad(...)`` stays readable; what it holds is read as the code runs)."""
    bound = {dotted: name for name, dotted, obj in guards
             if not dotted.endswith(_FIELDS) and not isinstance(obj, types.ModuleType)}
    if not bound:
        return
    stored = {node.id for node in syntax.walk(function)
              if isinstance(node, gast.Name) and not isinstance(node.ctx, gast.Load)}
    _ReadsOfGuarded({d: n for d, n in bound.items() if d.split(".")[0] not in stored}
                    ).visit(function)


class _ReadsOfGuarded(gast.NodeTransformer):
    """Loads of the dotted names in ``bound`` -> the names bound to their objects."""

    def __init__(self, bound):
        self.bound = bound

    def _replaced(self, node):
        if isinstance(getattr(node, "ctx", None), gast.Load):
            name = self.bound.get(syntax.dotted_name(node) or "")
            if name is not None:
                return gast.copy_location(syntax.name(name), node)
        return self.generic_visit(node)

    visit_Name = visit_Attribute = _replaced


def restored_names(source, guards):
    """``source`` with the guard-bound names read in its bodies written as the names
    they stand for again (``_assumed_act`` -> ``act``): an emitted module binds those."""
    names = {name: dotted for name, dotted, obj in guards
             if not dotted.endswith(_FIELDS) and not isinstance(obj, types.ModuleType)}
    if not names:
        return source
    pattern = re.compile(r"\b(" + "|".join(map(re.escape, sorted(names, key=len,
                                                                   reverse=True))) + r")\b")
    return pattern.sub(lambda match: names[match.group(1)], source)


OWN_FUNCTION = PREFIX + "function"


def own_defaults(fn):
    """``{name: object}`` the defaults check reads: the user's function and the
    defaults it held (``_assumed_function___defaults__``); {} without defaults."""
    found = {f"{OWN_FUNCTION}_{field}": getattr(fn, field, None)
             for field in ("__defaults__", "__kwdefaults__")}
    found = {name: held for name, held in found.items() if held is not None}
    return {OWN_FUNCTION: fn, **found} if found else {}


def defaults_check(fn):
    """The statements put first in an entry function of a unit of ``fn`` when ``fn`` has
    defaults: the generated signature holds the defaults ``fn`` had, so a reassigned
    ``fn.__defaults__`` (or ``__kwdefaults__``) is an error naming it, not a derivative
    at the old defaults (a derivative made again reads the new ones)."""
    names = [name for name in own_defaults(fn) if name != OWN_FUNCTION]
    if not names:
        return []
    tests = " or ".join(f"{OWN_FUNCTION}.{name[len(OWN_FUNCTION) + 1:]} is not {name}"
                        for name in names)
    return syntax.quote(f"if {tests}:\n"
                        f"    return _sg.refuse_changed_defaults({OWN_FUNCTION})")


def redirect_check(saved, seed):
    """The statement put first in a backward sweep (see the module doc)."""
    return syntax.quote(f"if type({saved}) is _sg.Redirected:\n"
                        f"    return {saved}.backward({seed})")


def _forwarded(args):
    """The call arguments passing a def's parameters on unchanged."""
    parts = [a.id for a in args.posonlyargs + args.args]
    if args.vararg is not None:
        parts.append(f"*{args.vararg.id}")
    parts += [f"{a.id}={a.id}" for a in args.kwonlyargs]
    if args.kwarg is not None:
        parts.append(f"**{args.kwarg.id}")
    return ", ".join(parts)


def without_checks(source):
    """Generated source without its guard and hand-over statements (an emitted module
    is a snapshot: it imports what the names denote and has no compiler to call)."""
    lines = source.splitlines(keepends=True)
    out, skip = [], 0
    for line in lines:
        stripped = line.strip()
        if skip:
            skip -= 1
            continue
        if stripped.startswith("# Guard: the names this code"):
            skip = 2
            continue
        if stripped.startswith("if ") and f" is not {PREFIX}" in stripped:
            skip = 1   # a guard's further lines (three tests a line)
            continue
        if stripped.startswith("if type(") and "is _sg.Redirected:" in stripped:
            skip = 1
            continue
        out.append(line)
    return "".join(out)
