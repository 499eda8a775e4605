"""Errors that cite the user's own source.

A ``TransformError`` names the construct, the user's file and line, and shows the
line with a caret under the offending column::

    srcgrad.TransformError: `await` is not supported (coroutines cannot be differentiated)
      File "model.py", line 12, in f
        await fetch(x)
        ^
"""

from __future__ import annotations

import linecache


class SrcgradError(Exception):
    """Base class of every error srcgrad raises on purpose."""


class TransformError(SrcgradError):
    """The user's function uses something srcgrad cannot differentiate."""

    def __init__(self, message, filename=None, lineno=None, col=None, function=None):
        self.reason = message
        self.filename = filename
        self.lineno = lineno
        self.col = col
        self.function = function
        super().__init__(self._format())

    def _format(self):
        if self.filename is None or self.lineno is None:
            return self.reason
        where = f'  File "{self.filename}", line {self.lineno}'
        if self.function:
            where += f", in {self.function}"
        text = linecache.getline(self.filename, self.lineno).rstrip("\n")
        if not text:
            return f"{self.reason}\n{where}"
        stripped = text.lstrip()
        indent = len(text) - len(stripped)
        caret_col = max((self.col or indent) - indent, 0)
        return f"{self.reason}\n{where}\n    {stripped}\n    {' ' * caret_col}^"


class SourceNotFoundError(TransformError):
    """srcgrad cannot read the source of a function (``python -c``, ``exec`` of a string)."""


class MissingRuleError(TransformError):
    """A function on the differentiated path has no derivative rule."""


class GradientError(SrcgradError, ValueError):
    """A derivative was requested in a way that has no meaning (e.g. non-scalar output)."""


class NoneOutputError(GradientError, TypeError):
    """The differentiated function returned None (it ended without ``return`` on the
    path taken): there is no output to differentiate, not a zero derivative."""

    def __init__(self, function=None):
        name = f"`{function}`" if function else "the differentiated function"
        super().__init__(
            f"{name} returned None: there is nothing to differentiate (does it end "
            "without `return` on the path this call took?)")


def check_output(value, function=None):
    """``value``, the output of a function being differentiated; ``NoneOutputError``
    when it is None."""
    if value is None:
        raise NoneOutputError(getattr(function, "__name__", function))
    return value


class NotDifferentiableArgumentError(SrcgradError, TypeError):
    """A derivative was asked with respect to an argument that holds no number."""


class EmitError(SrcgradError):
    """A function's derivative cannot be written as a standalone module (``emit``)."""


class InternalError(SrcgradError):
    """srcgrad broke one of its own invariants (a pass that must reach a fixed point did
    not): a bug in srcgrad, reported instead of a wrong derivative or a hang."""
