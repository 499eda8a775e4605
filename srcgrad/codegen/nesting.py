"""How deep generated code nests, against what CPython compiles.

CPython's tokenizer reads at most 100 levels of indentation (a statement of a function
body nested 99 blocks deep), and its compiler at most 20 statically nested loop, ``try``
and ``with`` blocks (an ``except`` or ``finally`` body counts two, as it does there). A
derivative nests about as deep as the function it comes from; one that nests deeper than
that is refused here, at the user's line of its deepest statement, instead of failing in
``compile`` with an ``IndentationError`` the user cannot act on. Measured with an explicit
stack: no Python recursion limit is reachable however deep the code nests.
"""

from __future__ import annotations

from srcgrad.errors import TransformError
from srcgrad.syntax import gast

MAX_INDENT = 99   # nesting levels of a statement inside a ``def`` at the module's top
MAX_BLOCKS = 20   # CPython's CO_MAXBLOCKS

_LOOPS = (gast.For, gast.While, gast.AsyncFor, gast.With, gast.AsyncWith)


def check_nesting(functions, filename, function_name):
    """Raise a ``TransformError`` when a statement of one of ``functions`` (gast
    ``FunctionDef``s) nests deeper than Python compiles."""
    checked = set()   # (the functions share statements: each top-level one checked once)
    for fn in functions:
        found = deepest(fn, checked)
        if found is None:
            continue
        indent, blocks, line = found
        raise TransformError(
            f"the derivative of this function nests {indent} blocks deep ({blocks} of them "
            f"loops, `try` or `with`), more than Python compiles ({MAX_INDENT} levels, "
            f"{MAX_BLOCKS} loop, `try` and `with` blocks): move the inner part of the "
            "function into a helper function", filename, line, None, function_name)


def deepest(fn, checked=None):
    """``(indent, blocks, user line)`` of the first statement of ``fn`` past the limits,
    or ``None``. ``checked``: ids of top-level statements found within them already
    (left out; the ids of those checked here are added)."""
    top = fn.body if checked is None else [s for s in fn.body if id(s) not in checked]
    stack = [(stmt, 1, 0, getattr(fn, "lineno", None)) for stmt in top
             if type(stmt) not in _FLAT]
    while stack:
        stmt, indent, blocks, line = stack.pop()
        line = getattr(stmt, "lineno", None) or line
        if indent > MAX_INDENT or blocks > MAX_BLOCKS:
            return indent, blocks, line
        for body, deeper, extra in _bodies(stmt):
            stack.extend((inner, indent + deeper, blocks + extra, line) for inner in body)
    if checked is not None:
        checked.update(map(id, top))
    return None


# Statements that hold no block: a function's top-level one is within every limit.
_FLAT = frozenset({gast.Assign, gast.AugAssign, gast.AnnAssign, gast.Expr, gast.Return,
                   gast.Pass, gast.Delete, gast.Raise, gast.Break, gast.Continue})


def _bodies(stmt):
    """The statement lists inside ``stmt``, each with the indentation levels and the
    blocks CPython opens for it (an ``else`` holding one ``if`` prints as ``elif``)."""
    if isinstance(stmt, _LOOPS):
        return [(stmt.body, 1, 1), (getattr(stmt, "orelse", []), 1, 0)]
    if isinstance(stmt, gast.If):
        elif_ = len(stmt.orelse) == 1 and isinstance(stmt.orelse[0], gast.If)
        return [(stmt.body, 1, 0), (stmt.orelse, 0 if elif_ else 1, 0)]
    if isinstance(stmt, gast.Try):
        return [(stmt.body, 1, 1), (stmt.orelse, 1, 1), (stmt.finalbody, 1, 2)] \
            + [(handler.body, 1, 2) for handler in stmt.handlers]
    if isinstance(stmt, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
        return [(stmt.body, 1, 0)]
    return []
