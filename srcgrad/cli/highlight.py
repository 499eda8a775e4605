"""Syntax colour for generated source printed to a terminal.

Pygments is used when it is installed; otherwise a small ``tokenize``-based highlighter
colours keywords, names being defined, strings, numbers and comments. Colour is on for a
terminal (``--color auto``) unless ``NO_COLOR`` is set or ``TERM=dumb``.
"""

from __future__ import annotations

import io
import keyword
import os
import tokenize

RESET = "\033[0m"
STYLES = {
    "keyword": "\033[1;35m",
    "definition": "\033[1;33m",
    "string": "\033[32m",
    "number": "\033[36m",
    "comment": "\033[2;37m",
}


def wants_color(stream, when="auto"):
    """Whether to colour output to ``stream`` (``when``: auto, always or never)."""
    if when != "auto":
        return when == "always"
    if "NO_COLOR" in os.environ or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def colorize(text, stream, when="auto"):
    """``text`` with colour if ``stream`` wants it, unchanged otherwise."""
    if not wants_color(stream, when):
        return text
    try:
        from pygments import highlight
        from pygments.formatters import TerminalFormatter
        from pygments.lexers import PythonLexer
    except ImportError:
        return highlight_builtin(text)
    return highlight(text, PythonLexer(), TerminalFormatter())


def highlight_builtin(text):
    """Colour Python source with ANSI escapes, keeping every character of it."""
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    spans = []
    previous = None
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            style = _style(tok, previous)
            if style:
                start = starts[tok.start[0] - 1] + tok.start[1]
                end = starts[tok.end[0] - 1] + tok.end[1]
                spans.append((start, end, style))
            if tok.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT):
                previous = tok
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return text
    pieces, done = [], 0
    for start, end, style in spans:
        pieces += [text[done:start], STYLES[style], text[start:end], RESET]
        done = end
    return "".join(pieces) + text[done:]


def _style(tok, previous):
    if tok.type == tokenize.NAME:
        if previous is not None and previous.string in ("def", "class"):
            return "definition"
        return "keyword" if keyword.iskeyword(tok.string) else None
    return {tokenize.STRING: "string", tokenize.NUMBER: "number",
            tokenize.COMMENT: "comment"}.get(tok.type)
