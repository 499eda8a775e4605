"""How the command line fails: one line on standard error and exit status 1 or 2.

Status 2: the command line names something that is not there or cannot be used (a
missing file, ``FILE.py:FUNC`` whose FUNC is missing or not a function, a ``--wrt`` that
is not a parameter, a malformed option). Status 1: the command was understood but could
not be carried out (the file has a syntax error or raises on import, srcgrad refuses the
function, a gradient check fails, the output cannot be written)::

    $ python -m srcgrad show model.py:loss --wrt z
    srcgrad: --wrt z: wrt='z' is not a parameter of loss('x', 'w')
"""

from __future__ import annotations

import traceback

USAGE = 2
FAILURE = 1


class CommandLineError(Exception):
    """An error the command line reports as ``srcgrad: MESSAGE`` and ``status``."""

    status = FAILURE


class UsageError(CommandLineError):
    """The command line names something that is not there or cannot be used."""

    status = USAGE


def one_line(text):
    """A possibly multi-line message on one line: ``"a\\n    b"`` -> ``"a b"``."""
    return " ".join(part.strip() for part in str(text).splitlines() if part.strip())


def describe(exc):
    """``exc`` as the one line the command line prints (without the ``srcgrad:``)."""
    from srcgrad.errors import TransformError

    if isinstance(exc, CommandLineError):
        return one_line(exc)
    if isinstance(exc, TransformError):
        where = f"{exc.filename}:{exc.lineno}: " if exc.filename and exc.lineno else ""
        return f"{where}{type(exc).__name__}: {one_line(exc.reason)}"
    if isinstance(exc, SyntaxError):
        return f"{exc.filename}:{exc.lineno}: SyntaxError: {exc.msg}"
    if isinstance(exc, OSError) and exc.filename:
        return f"{exc.strerror or exc}: {exc.filename}"
    frame = _innermost_frame(exc)
    where = f" (at {frame.filename}:{frame.lineno})" if frame else ""
    return f"{type(exc).__name__}: {one_line(exc)}{where}"


def _innermost_frame(exc):
    frames = traceback.extract_tb(exc.__traceback__)
    return frames[-1] if frames else None
