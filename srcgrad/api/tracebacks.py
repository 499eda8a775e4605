"""srcgrad's own frames left out of the tracebacks of its errors, as JAX filters its
traceback: a ``TransformError`` raised while ``sg.grad(f)`` compiles ``f`` shows the
user's call and the line it names, not the compiler's six to ten frames on the way.

Each public entry point is wrapped with ``api_boundary``: a ``SrcgradError`` leaving it
has the frames of files inside the ``srcgrad`` package removed from its traceback (the
user's frames and generated code's frames stay). ``SRCGRAD_TRACEBACK_FILTERING=off`` in
the environment (read when the error is raised) keeps every frame, for a bug report."""

from __future__ import annotations

import functools
import os
import types
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from srcgrad.errors import SrcgradError

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
ENVIRONMENT = "SRCGRAD_TRACEBACK_FILTERING"

P = ParamSpec("P")
R = TypeVar("R")


def api_boundary(function: Callable[P, R]) -> Callable[P, R]:
    """``function``, with srcgrad's frames filtered out of the tracebacks of the
    srcgrad errors it raises (see the module docstring)."""
    @functools.wraps(function)
    def entry(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return function(*args, **kwargs)
        except SrcgradError as error:
            if filtering():
                error.__traceback__ = without_internal_frames(error.__traceback__)
            raise

    return entry


def filtering():
    """Are srcgrad's frames left out (not ``SRCGRAD_TRACEBACK_FILTERING=off``)?"""
    return os.environ.get(ENVIRONMENT, "on").lower() not in ("off", "0", "no", "false")


def is_internal(filename):
    return os.path.abspath(filename).startswith(_PACKAGE) if filename[:1] != "<" else False


def without_internal_frames(tb):
    """The traceback ``tb`` with the frames of srcgrad's own files left out."""
    kept = []
    while tb is not None:
        if not is_internal(tb.tb_frame.f_code.co_filename):
            kept.append(tb)
        tb = tb.tb_next
    filtered = None
    for entry in reversed(kept):
        filtered = types.TracebackType(filtered, entry.tb_frame, entry.tb_lasti,
                                       entry.tb_lineno)
    return filtered
