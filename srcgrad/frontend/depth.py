"""Deep expressions: room to compile them, and a clear error past what srcgrad handles.

The passes walk expressions recursively, a few Python frames per level, so a sum of 300
terms (a left-leaning tree 300 levels deep) needs more than the interpreter's default
1000 frames. ``room_for_deep_expressions()`` raises the limit while a unit compiles and
turns a ``RecursionError`` into a ``TransformError``; ``check_depth`` measures the
parsed tree without recursing and refuses an expression deeper than ``MAX_DEPTH`` at
its line, before any pass sees it::

    y = x[0] + x[1] + ... + x[2]      (5000 terms)
    ->  TransformError: this expression is nested 5001 levels deep; srcgrad handles up
        to 1200: split it into several assignments
"""

from __future__ import annotations

import ast
import contextlib
import sys
import threading

from srcgrad.errors import TransformError

MAX_DEPTH = 1200          # nesting levels of one expression (Python's parser allows 200
                          # parentheses and any number of operator terms)
_FRAMES_PER_LEVEL = 12    # the deepest pass's frames per nesting level, with margin
_LIMIT = 2000 + MAX_DEPTH * _FRAMES_PER_LEVEL
_LOCK = threading.Lock()
_RAISED = {"count": 0, "original": None}   # compilations inside the raised limit


def check_depth(tree, filename, function, line_offset=0):
    """Raise a ``TransformError`` at the line of the first expression of ``tree`` (a
    Python ``ast``) nested deeper than ``MAX_DEPTH``; measured with an explicit stack
    (children pushed as ``ast.iter_child_nodes`` gives them, read field by field)."""
    stack = [(tree, 0, None)]
    pop, push, ast_class, expr_class = stack.pop, stack.append, ast.AST, ast.expr
    while stack:
        node, depth, line = pop()
        lineno = getattr(node, "lineno", None)
        if lineno is not None:
            line = lineno + line_offset
        if depth > MAX_DEPTH:
            raise TransformError(
                f"this expression is nested more than {MAX_DEPTH} levels deep, more than "
                "srcgrad handles: split it into several assignments",
                filename, line, None, function)
        inner = depth + 1 if isinstance(node, expr_class) else depth
        for field in node._fields:
            value = getattr(node, field, None)
            if type(value) is list:
                for item in value:
                    if isinstance(item, ast_class):
                        push((item, inner, line))
            elif isinstance(value, ast_class):
                push((value, inner, line))


@contextlib.contextmanager
def room_for_deep_expressions(fn=None):
    """Run a compilation with a recursion limit that fits ``MAX_DEPTH`` levels; a
    ``RecursionError`` inside becomes a ``TransformError`` naming ``fn``."""
    with _LOCK:
        if _RAISED["count"] == 0:
            _RAISED["original"] = sys.getrecursionlimit()
            sys.setrecursionlimit(max(_LIMIT, _RAISED["original"]))
        _RAISED["count"] += 1
    try:
        yield
    except RecursionError:
        code = getattr(fn, "__code__", None)
        raise TransformError(
            "this function is nested too deeply for srcgrad to compile (an expression or "
            "a chain of calls): split long expressions into several assignments",
            getattr(code, "co_filename", None), getattr(code, "co_firstlineno", None),
            None, getattr(fn, "__name__", None)) from None
    finally:
        with _LOCK:
            _RAISED["count"] -= 1
            if _RAISED["count"] == 0:
                sys.setrecursionlimit(_RAISED["original"])
