"""Is the source srcgrad reads the code that runs? And which wrappers are the function?

``compiles_to(fn)``: the text of ``fn``'s file as srcgrad reads it now (``linecache``,
as ``inspect`` does) must compile to ``fn.__code__``: the code object of that qualified
name starting on the same line in the compiled file must equal it in bytecode,
constants, names and nested code (all but positions). When the file was edited after
import it does not, and differentiating the new text would give the gradient of a
function that is not the one called. The whole file is compiled (once per text), so
classes (name mangling, ``super()``), enclosing functions (free variables) and imports
(which change how ``np.sum(...)`` compiles) are those of the real definition; a module
whose asserts pytest rewrote is compiled with the same rewrite.

Before: ``def f(x): return 2.0 * x`` imported, then the file edited to ``3.0 * x``:
``sg.grad(f)`` differentiated ``3.0 * x``. After: a TransformError asking to reload.

``own_wrapper(wrapper)`` marks a wrapper srcgrad itself makes (``functools.wraps``
around a function it calls unchanged, such as ``sg.differentiable``'s) by its code
object, which a user's decorator cannot copy; ``unwrap_own`` follows ``__wrapped__``
through those only. Any other decorated wrapper is differentiated as the wrapper, so
its parameters are its own: ``own_signature`` reads them from its code, not from the
function ``functools.wraps`` copied a ``__wrapped__`` from.
"""

from __future__ import annotations
import __future__

import ast
import functools
import inspect
import linecache
import types

_OWN_WRAPPERS: set[types.CodeType] = set()   # code objects of srcgrad's own same-function wrappers
# ``from __future__`` flags: inherited by a ``compile`` (srcgrad's generated code gets
# its loader's); what they change shows in the bytecode and constants anyway.
_FUTURE_FLAGS = 0
for _feature in __future__.all_feature_names:
    _FUTURE_FLAGS |= getattr(__future__, _feature).compiler_flag


def own_wrapper(wrapper):
    """Mark ``wrapper`` (whose ``__wrapped__`` it calls unchanged) as that function."""
    _OWN_WRAPPERS.add(wrapper.__code__)
    return wrapper


def own_signature(fn):
    """The signature of what srcgrad differentiates: a Python function's own parameters
    (``inspect`` follows any ``__wrapped__`` and would give the wrapped function's), past
    srcgrad's own wrappers only; for other callables (NumPy's dispatchers, builtins)
    what ``inspect`` reports."""
    fn = unwrap_own(fn)
    return inspect.signature(fn, follow_wrapped=not isinstance(fn, types.FunctionType))


def unwrap_own(fn):
    """``fn`` with srcgrad's own wrappers (and only those) taken off."""
    while isinstance(fn, types.FunctionType) and fn.__code__ in _OWN_WRAPPERS \
            and hasattr(fn, "__wrapped__"):
        fn = fn.__wrapped__
    return fn


def stale_source_error(fn):
    """The error for a function whose file no longer compiles to its code."""
    from srcgrad.errors import TransformError

    code = fn.__code__
    return TransformError(
        f"the source of {fn.__qualname__} in {code.co_filename} no longer compiles to the "
        "function being run: the file changed after it was imported. Reload the module "
        "(importlib.reload) or restart, then differentiate it again",
        code.co_filename, code.co_firstlineno, None, fn.__name__)


def compiles_to(fn):
    """Does the text of ``fn``'s file, as read now, compile to ``fn.__code__``? (A local
    function lifted out of its enclosing function was compiled from the tree read from
    that function's file, which was checked.)"""
    if getattr(fn, "__srcgrad_lifted__", None) is not None:
        return True
    code = fn.__code__
    text = "".join(linecache.getlines(code.co_filename, fn.__globals__))
    if not text:
        return False
    rewritten = "@py_builtins" in fn.__globals__   # pytest's assertion rewriting
    qualname = getattr(code, "co_qualname", code.co_name)
    futures = code.co_flags & _FUTURE_FLAGS   # inherited by exec'd text (sg.exec_source)
    candidates = _compiled(code.co_filename, text, rewritten, futures).get(qualname, ())
    return any(candidate.co_firstlineno == code.co_firstlineno   # the lines srcgrad reads
               and same_code(candidate, code) for candidate in candidates)


@functools.lru_cache(maxsize=16)
def _compiled(filename, text, rewritten, futures):
    """``{qualified name: [code objects]}`` of the file's text compiled as a module."""
    try:
        if rewritten:
            module = _compile_rewritten(filename, text)
        else:
            module = compile(text, filename, "exec", flags=futures, dont_inherit=True)
    except (SyntaxError, ValueError):
        return {}
    found = {}
    for code in _code_objects(module):
        found.setdefault(getattr(code, "co_qualname", code.co_name), []).append(code)
    return found


def _compile_rewritten(filename, text):
    try:
        from _pytest.assertion.rewrite import rewrite_asserts
    except ImportError:
        return compile(text, filename, "exec", dont_inherit=True)
    tree = ast.parse(text, filename)
    rewrite_asserts(tree, text.encode(), None, None)
    return compile(tree, filename, "exec", dont_inherit=True)


def _code_objects(code):
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield const
            yield from _code_objects(const)


def same_code(a, b):
    """Equal code objects but for positions (line numbers and columns)."""
    fields = ("co_code", "co_names", "co_varnames", "co_freevars", "co_cellvars",
              "co_argcount", "co_posonlyargcount", "co_kwonlyargcount", "co_exceptiontable")
    if any(getattr(a, f, None) != getattr(b, f, None) for f in fields):
        return False
    if a.co_flags & ~_FUTURE_FLAGS != b.co_flags & ~_FUTURE_FLAGS:
        return False
    if len(a.co_consts) != len(b.co_consts):
        return False
    for x, y in zip(a.co_consts, b.co_consts):
        if isinstance(x, types.CodeType) or isinstance(y, types.CodeType):
            if not (isinstance(x, types.CodeType) and isinstance(y, types.CodeType)
                    and same_code(x, y)):
                return False
        elif type(x) is not type(y) or (repr(x) != repr(y) and not (
                isinstance(x, frozenset) and x == y)):
            return False
    return True
