"""Inlining of small module-level user functions, an optimization of A-normal form.

Before (``sigmoid`` is a small function of the same module)::

    def sigmoid(x):
        return 1.0 / (1.0 + np.exp(-x))

    def model(w, x):
        return np.sum(sigmoid(x @ w))

After::

    _matmul = x @ w
    x_1 = _matmul
    _neg = -x_1
    _exp = np.exp(_neg)
    _add = 1.0 + _exp
    sigmoid_result = 1.0 / _add
    _sum = np.sum(sigmoid_result)

A call to another user function otherwise becomes a call of its generated forward and
backward functions (a split pair), which costs a Python call, a tuple of saved values and
no optimization across the call. Inlined are functions of the same module (so their
globals mean the same), without closures, decorators, nested functions or ``*args``,
that are not recursive and have at most ``MAX_STATEMENTS`` statements.
"""

from __future__ import annotations

import inspect
import types
import weakref

from srcgrad import syntax
from srcgrad.errors import TransformError
from srcgrad.frontend.fence import check_function
from srcgrad.frontend.parse import parse_function
from srcgrad.normalize.index_objects import rewrite_index_objects
from srcgrad.normalize.partials import call_partials
from srcgrad.syntax import gast

MAX_STATEMENTS = 30
MAX_DEPTH = 3


class Inliner:
    """Decides which calls of a function being compiled are inlined."""

    def __init__(self, parsed, namer, eager=False):
        self.parsed = parsed
        self.namer = namer
        self.eager = eager   # wrap the Variable reads of inlined bodies (``variables``)
        self.caller_locals = set(syntax.param_names(parsed.node.args)) | set(
            syntax.names_in(parsed.node, gast.Store))
        self.active = [parsed.fn]
        self.try_bodies = 0   # ``try`` bodies with handlers around the call being flattened

    def candidate(self, name):
        """A fresh copy of the ``def`` behind the global ``name``, if it is inlined here."""
        if name in self.caller_locals or len(self.active) > MAX_DEPTH:
            return None
        try:
            fn = self.parsed.resolve(name)
        except KeyError:
            return None
        if not self._eligible(fn):
            return None
        node = _definition(fn)
        if node is None or (self.try_bodies and _has_blocks(node)):
            # (in a ``try`` body a helper's loops and handlers stay in its own unit: the
            # reverse mode differentiates a call there, not a loop or a ``try``)
            return None
        free = set(syntax.loaded_names(node)) - set(syntax.names_in(node, gast.Store)) \
            - set(syntax.param_names(node.args))
        if free & self.caller_locals:   # its globals would read the caller's locals
            return None
        self.parsed.assumptions.setdefault(name, fn)   # guarded: see srcgrad.compiler.guards
        self.namer.reserve(free)
        node = syntax.clone(node)
        call_partials(self.parsed, node)   # (the normalization before inlining)
        rewrite_index_objects(self.parsed, node)
        return node, fn

    def _eligible(self, fn):
        from srcgrad.rules import REGISTRY

        return (isinstance(fn, types.FunctionType) and fn not in self.active
                and fn.__globals__ is self.parsed.fn.__globals__ and fn.__closure__ is None
                and inspect.unwrap(fn) is fn and not hasattr(fn, "__srcgrad_custom__")
                and REGISTRY.lookup(fn) is None and not REGISTRY.is_nondiff(fn))

    def entering(self, fn):
        self.active.append(fn)

    def leaving(self):
        self.active.pop()


def _has_blocks(node):
    return any(isinstance(n, (gast.For, gast.While, gast.Try, gast.With))
               for n in gast.walk(node))


# code object (weakly: it dies with its functions) -> checked gast FunctionDef, or None
# when not inlinable
_DEFINITIONS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _definition(fn):
    code = fn.__code__
    node = _DEFINITIONS.get(code, _DEFINITIONS)
    if node is _DEFINITIONS:
        node = _DEFINITIONS[code] = _parse_inlinable(fn)
    if node is not None and not _defaults_as_written(fn, node):
        return None   # ``fn.__defaults__`` reassigned: its own unit binds what it holds
    return node


def _defaults_as_written(fn, node):
    """Does ``fn`` hold the literal defaults its source writes (the values an inlined
    call that leaves them out is given)?"""
    held = fn.__defaults__ or ()
    written = node.args.defaults
    return len(held) == len(written) and all(
        type(value) is type(literal.value) and value == literal.value
        for value, literal in zip(held, written))


def _parse_inlinable(fn):
    try:
        node = check_function(parse_function(fn)).node
    except (TransformError, OSError, TypeError, SyntaxError):
        return None   # compiled as its own unit instead, which reports any error
    args = node.args
    if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs:
        return None
    if any(not isinstance(d, gast.Constant) for d in args.defaults):
        return None   # evaluated where the ``def`` ran: its own unit binds the values
    statements = [n for n in gast.walk(node) if isinstance(n, gast.stmt)]
    if len(statements) > MAX_STATEMENTS + 1:
        return None
    if any(isinstance(n, (gast.FunctionDef, gast.Lambda)) for n in statements[1:]
           for n in gast.walk(n)) or any(isinstance(n, gast.Lambda) for n in gast.walk(node)):
        return None
    return node
