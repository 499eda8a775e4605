"""``@sg.differentiable``: a function checked at definition time, one node under a tape.

    @sg.differentiable
    def loss(w, x): ...        # parsed, fenced and normalized now: an unsupported
                               # construct is a TransformError at import
    loss(w, x)                 # outside a tape: ``loss`` as written
    with sg.GradientTape() as tape:
        y = loss(w, x)         # under a tape: one node, its generated backward
"""

from __future__ import annotations

from typing import TypeVar

from srcgrad import syntax
from srcgrad.api import functional as api
from srcgrad.api.tracebacks import api_boundary
from srcgrad.api.typing import Function
from srcgrad.codegen.naming import Namer
from srcgrad.eager.calls import tape_aware
from srcgrad.frontend.depth import room_for_deep_expressions
from srcgrad.frontend.fence import check_function
from srcgrad.frontend.parse import parse_function
from srcgrad.normalize import normalize_function

F = TypeVar("F", bound=Function)


@api_boundary
def differentiable(fn: F) -> F:
    """Decorator: mark ``fn`` for ahead-of-time compilation and return it, callable as
    before. It is parsed and checked now (an unsupported construct raises
    ``TransformError`` at import), and its derivatives are generated once, on first use,
    and cached (``python -m srcgrad emit`` writes them as a module). Called while a
    ``GradientTape`` records, it is one tape node whose backward is its generated
    backward."""
    plain, _ = api._target(fn)
    with room_for_deep_expressions(plain):
        parsed = check_function(parse_function(plain))
        normalize_function(parsed, Namer(syntax.names_in(parsed.node)))
    plain.__srcgrad_differentiable__ = True
    return tape_aware(fn)
