"""Generated source with the user's lines cited: ``sg.source(df, lines=True)`` and
``python -m srcgrad show``.

Before each run of generated lines that came from one line of the user's function, a
comment quotes that line (the module's ``line_map`` says where each generated line
came from)::

    def loss_grad(w, x):
        # Forward sweep: the original computation
        # model.py:5: h = helper(x, w)
        _mul = x * w
        h = np.tanh(_mul)
        # model.py:8: total = total + np.sum(h ** 2)
        ...

A comment appears where the cited line changes: a backward sweep walks the user's
lines in reverse, so each block says which line it differentiates. What comes from the
``def`` line itself (guards, the seed, the return) is not cited.
"""

from __future__ import annotations

import linecache
import os

from srcgrad.frontend.freshness import unwrap_own

_WIDTH = 100   # a longer user line is cut (with "...")
_TRACEBACK_NOTE = "    # from "   # what ``debug.annotate_lines`` appends in linecache


def cite_user_lines(text, unit):
    """``text`` (generated functions of ``unit``'s module, as ``sg.source`` gives them)
    with a comment citing the user's line before each block of lines from it."""
    module = getattr(unit, "module", None)
    fn = getattr(unit, "fn", None)
    if module is None or fn is None or not module.line_map:
        return text
    filename = unwrap_own(fn).__code__.co_filename
    short = os.path.basename(filename) or filename
    numbers = _module_lines(text, module.source)
    out, cited = [], None
    for line, number in zip(text.splitlines(), numbers):
        user = module.line_map.get(number) if number is not None else None
        code = line.strip()
        if code.startswith(("def ", "#")):   # a new function or sweep: cite afresh
            cited = None
        elif user is not None and user != cited and code:
            quoted = _user_text(filename, user)
            if not quoted.startswith(("def ", "async def ")):   # (guards, seeds, returns)
                indent = line[:len(line) - len(line.lstrip())]
                out.append(f"{indent}# {short}:{user}: {quoted}".rstrip())
                cited = user
        out.append(line)
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")


def _module_lines(text, source):
    """The module line number of each line of ``text`` (slices of ``source``), matched
    in order; None for a line not found."""
    module = source.splitlines()
    numbers, at = [], 0
    for line in text.splitlines():
        found = _find(module, line, at)
        if found is None:
            found = _find(module, line, 0)
        numbers.append(None if found is None else found + 1)
        if found is not None:
            at = found + 1
    return numbers


def _find(lines, line, start):
    for index in range(start, len(lines)):
        if lines[index] == line:
            return index
    return None


def _user_text(filename, number):
    text = linecache.getline(filename, number)
    cut = text.find(_TRACEBACK_NOTE)   # (a generated file's lines, annotated for tracebacks)
    text = (text if cut < 0 else text[:cut]).strip()
    return text if len(text) <= _WIDTH else text[:_WIDTH - 3] + "..."
