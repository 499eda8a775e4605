"""The source lines of a ``def``, found by indentation instead of by tokenizing.

``inspect.getsourcelines`` finds where a function's block ends by running the pure-Python
tokenizer over it: about 30 microseconds a line, plus a 2 ms regular expression
compiled on first use (a 2000-line function took 60 ms). ``def_lines`` reads the same
lines as ``inspect.findsource`` does (``linecache``) and ends the block at the first
line after the ``def`` header that is indented no deeper than the header.

That line ends the block unless it is the inside of a string, bracket or ``\\``
continuation; then the text before it ends inside that string or bracket and does not
parse. So ``parse_lines(lines)`` either parses the whole ``def`` or raises SyntaxError,
and the caller then asks ``inspect`` (which also serves lambdas and any indentation
that is not plain spaces).

Before: ``inspect.getsourcelines(fn.__code__)``, ``inspect.getsource(fn)``.
After:  ``def_lines(fn.__code__)``, the same ``def`` (its trailing comments left out),
or None: ask ``inspect``; ``def_source(fn)``, the text of either, as ``getsource``.
"""

from __future__ import annotations

import ast
import inspect
import textwrap


def def_lines(code):
    """``(lines, first line number)`` of the ``def`` compiled to ``code`` (with its
    decorators), cut where its indentation ends; None where that cannot be told
    without tokenizing (a lambda, tabs, a decorator or header not as expected).
    Raises OSError as ``inspect.getsourcelines`` does when there is no source."""
    if code.co_name == "<lambda>":
        return None
    lines, start = inspect.findsource(code)
    header = start
    while header < len(lines) and _is_decorator_or_blank(lines[header]):
        header += 1
    if header >= len(lines) or not lines[header].lstrip().startswith(("def ", "async ")):
        return None
    indent = _indent(lines[start])
    if indent is None or _indent(lines[header]) != indent:
        return None
    end = header + 1
    while end < len(lines):
        line = lines[end]
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            depth = _indent(line)
            if depth is None:
                return None
            if depth <= indent:
                break
        end += 1
    while end > header + 1 and _is_comment_or_blank(lines[end - 1]):
        end -= 1
    return lines[start:end], start + 1


def _indent(line):
    """Columns of leading spaces; None if the indentation holds a tab or form feed."""
    body = line.lstrip(" ")
    if body[:1] in ("\t", "\f"):
        return None
    return len(line) - len(body)


def _is_decorator_or_blank(line):
    stripped = line.strip()
    return not stripped or stripped.startswith(("@", "#"))


def _is_comment_or_blank(line):
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def def_source(fn):
    """The text ``inspect.getsource(fn)`` reads (through ``__wrapped__``), comments
    after the last statement left out: ``def_lines``' cut when it parses on its own."""
    code = getattr(inspect.unwrap(fn), "__code__", None)
    cut = def_lines(code) if code is not None else None
    if cut is not None:
        text = "".join(cut[0])
        try:
            ast.parse(textwrap.dedent(text))
            return text
        except SyntaxError:
            pass
    return inspect.getsource(fn)
