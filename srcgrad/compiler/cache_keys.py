"""What the on-disk cache's key says about a function: its whole code object and, for
every user function it inlines or calls, the same, transitively.

``code_digest(code)`` hashes the bytecode, constants, names, flags and the position of
every instruction (line and column), recursing into nested code objects: two lambdas on
one line differ by their constants or columns, an edited body by its bytecode.
``function_digest(fn)`` adds the function's source and, for each name its code reads
(globals, closure cells, attributes of modules it reads), what that name denotes now,
described recursively: editing ``h`` in ``f -> g -> h`` changes ``f``'s key.

Before: ``lambda v: np.sum(v * v * 2.0)`` and ``lambda v: np.sum(v * v * 3.0)`` on one
line had one key. After: their constants (2.0, 3.0) and columns give two.
"""

from __future__ import annotations

import builtins
import hashlib
import types

from srcgrad.frontend.source_lines import def_source
from srcgrad.rules import REGISTRY
from srcgrad.rules.registry import qualified_name

_LIBRARIES = ("numpy", "scipy", "math", "builtins", "srcgrad", "gast", "functools")


class Uncacheable(Exception):
    """Generation depends on something without a stable description."""


def code_digest(code):
    """A hex digest of ``code`` and its nested code objects (see the module doc)."""
    digest = hashlib.sha256()
    _feed_code(digest, code)
    return digest.hexdigest()


def _feed_code(digest, code):
    header = (code.co_name, code.co_argcount, code.co_posonlyargcount,
              code.co_kwonlyargcount, code.co_flags, code.co_names, code.co_varnames,
              code.co_freevars, code.co_cellvars, code.co_firstlineno)
    digest.update(repr(header).encode())
    digest.update(code.co_code)
    positions = getattr(code, "co_positions", None)
    if positions is not None:
        digest.update(repr(list(positions())).encode())
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            _feed_code(digest, const)
        else:
            digest.update(_const_text(const).encode())


def _const_text(const):
    """A text for a constant that is the same in every process (a frozenset's order is
    not: strings hash differently from one process to the next)."""
    if isinstance(const, (tuple, list)):
        return f"{type(const).__name__}({', '.join(_const_text(c) for c in const)})"
    if isinstance(const, frozenset):
        return f"frozenset({sorted(_const_text(c) for c in const)})"
    return f"{type(const).__name__}:{const!r}"


def source_of(fn):
    try:
        return def_source(fn)
    except (OSError, TypeError):
        raise Uncacheable() from None


def describe(obj, seen=None):
    """A stable description of what a name denotes, as far as generation cares."""
    from srcgrad.codegen.pickling import unwrap

    obj = unwrap(obj)   # a derivative function: the generated function it calls
    seen = {} if seen is None else seen
    if REGISTRY.is_nondiff(obj):
        return "nondiff"
    rule = REGISTRY.lookup(obj)
    if rule is not None:
        text = f"rule {rule!r}"
    elif isinstance(obj, types.FunctionType):
        text = f"function {obj.__module__}.{obj.__qualname__} {function_digest(obj, seen)}"
    elif isinstance(obj, types.ModuleType):
        text = f"module {obj.__name__}"
    elif isinstance(obj, type):
        text = f"class {obj.__module__}.{obj.__qualname__} {_class_digest(obj, seen)}"
    elif callable(obj):
        text = f"callable {type(obj).__qualname__} {qualified_name(obj)} " \
            f"{_class_digest(type(obj), seen)}"
    else:   # an instance: what its class's methods are counts (a call may compile one)
        kind = type(obj)
        text = f"value {kind.__module__}.{kind.__qualname__} {_class_digest(kind, seen)}"
    if " at 0x" in text:
        raise Uncacheable()
    return text


def _is_library(obj):
    module = getattr(obj, "__module__", None) or ""
    return module.split(".")[0] in _LIBRARIES


def function_digest(fn, seen):
    """The digest of a function's source and code and of what every name it reads
    denotes, recursively (``seen``: digests so far; a cycle is named, not followed)."""
    if _is_library(fn):
        return "library"
    if fn in seen:
        return seen[fn] or f"cycle {fn.__module__}.{fn.__qualname__}"
    seen[fn] = None
    digest = hashlib.sha256(source_of(fn).encode())
    digest.update(code_digest(fn.__code__).encode())
    for name, obj in sorted(reads(fn).items()):
        digest.update(f"\n{name} = {describe(obj, seen)}".encode())
    seen[fn] = digest.hexdigest()
    return seen[fn]


def _class_digest(cls, seen):
    if _is_library(cls):
        return "library"
    digest = hashlib.sha256()
    for klass in cls.__mro__:
        if _is_library(klass):
            continue
        for name, member in sorted(vars(klass).items()):
            member = getattr(member, "__func__", member)   # static and class methods
            if isinstance(member, types.FunctionType):
                digest.update(f"{klass.__qualname__}.{name} {function_digest(member, seen)}"
                              .encode())
    return digest.hexdigest()


def reads(fn):
    """``{name: object}`` for the globals, builtins and closure cells ``fn``'s code
    names, and ``module.attr`` for attributes of a module it reads."""
    names = set()
    _code_names(fn.__code__, names)
    found = {}
    scope = fn.__globals__
    builtin = vars(builtins)
    for name in names:
        if name in scope:
            found[name] = scope[name]
        elif name in builtin:
            found[name] = builtin[name]
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        try:
            found[name] = cell.cell_contents
        except ValueError:   # an empty cell
            continue
    for name, obj in list(found.items()):
        if isinstance(obj, types.ModuleType) and not _is_library(_module_probe(obj)):
            for attr in names:
                member = getattr(obj, attr, None)
                if isinstance(member, (types.FunctionType, type)):
                    found[f"{name}.{attr}"] = member
    return found


def _module_probe(module):
    """Something whose ``__module__`` is ``module``'s name (for ``_is_library``)."""
    return types.SimpleNamespace(__module__=module.__name__)


def _code_names(code, names):
    names.update(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            _code_names(const, names)
