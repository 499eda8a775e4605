"""Code with no file: ``sg.exec_source(text)`` runs a string so that srcgrad can read
the source of the functions it defines.

srcgrad reads a function's source (``inspect``, through ``linecache``). Code run with
``python -c`` or ``exec(text)`` leaves none behind: its functions say they come from
``<string>``, a name any other string may reuse. ``exec_source`` compiles ``text`` under a
file name of its own and registers the text in ``linecache`` under it, so the functions'
code and the source srcgrad reads come from the same string and cannot disagree::

    ns = sg.exec_source("def f(x):\\n    return x * x\\n")
    sg.grad(ns["f"])(3.0)     # 6.0
"""

from __future__ import annotations

import itertools
import linecache
import threading
import types
import weakref
from typing import Any

_COUNTER = itertools.count(1)
_LOCK = threading.RLock()   # (a finalizer may run while this thread holds it)

WAYS_IN = (
    "srcgrad reads the source of the functions it differentiates; it can when they are "
    "defined in a .py file (imported or run), in IPython or Jupyter, in the Python 3.13+ "
    "REPL, in a string run with sg.exec_source(text) instead of exec(text), or in code "
    "whose file name has a linecache entry holding its text")


def exec_source(text: str, namespace: dict[str, Any] | None = None,
                filename: str | None = None) -> dict[str, Any]:
    """Run ``text`` like ``exec(text, namespace)`` and return the namespace, registering
    the text so that every srcgrad entry point can read the functions it defines (and the
    functions they call). Use it in place of ``exec`` for code with no file: a
    ``python -c`` command, text generated at run time, a tool's cell.

    ``namespace`` defaults to a new dict (``__name__`` is ``"__srcgrad_source__"``).
    ``filename`` (default: a fresh ``<srcgrad-source-N>``) is the name tracebacks and
    srcgrad's errors cite; a name already registered with different text is refused
    (``ValueError``), since the functions compiled from the first text would then be
    read from the second.
    """
    if not isinstance(text, str):
        raise TypeError(f"exec_source takes the source text as a str; got "
                        f"{type(text).__name__}")
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    with _LOCK:
        filename = filename or f"<srcgrad-source-{next(_COUNTER)}>"
        registered = linecache.cache.get(filename)
        if registered is not None and len(registered) == 4 and registered[2] != lines:
            raise ValueError(f"{filename!r} already holds other source text in linecache; "
                             "give exec_source another filename")
        code = compile(text, filename, "exec")
        # mtime None: linecache.checkcache keeps the entry (there is no file to check).
        entry = linecache.cache[filename] = (len(text), None, lines, filename)
    namespace = {"__name__": "__srcgrad_source__"} if namespace is None else namespace
    _drop_with_its_code(filename, entry, code)
    exec(code, namespace)
    return namespace


def _drop_with_its_code(filename, entry, code):
    """Keep the text in ``linecache`` while a function or class defined by it may still
    run (while the code objects nested in ``code`` live), no longer: text run once per
    cell or per generated model leaves nothing behind."""
    nested = [c for c in _nested_codes(code)]
    if not nested:
        return
    alive = [len(nested)]

    def one_died():
        with _LOCK:
            alive[0] -= 1
            if alive[0] == 0 and linecache.cache.get(filename) is entry:
                del linecache.cache[filename]

    for inner in nested:
        weakref.finalize(inner, one_died)


def _nested_codes(code):
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield const
            yield from _nested_codes(const)


__all__ = ["exec_source"]
