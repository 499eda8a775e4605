"""Save only the shape (and dtype) of a value the backward sweep reads only for its shape.

Reverse mode pushes a value it overwrites in a loop when the backward sweep reads it.
When every read of it there is for its shape alone (``unbroadcast``'s template, the array
``sum_adjoint`` or ``mean_adjoint`` spreads a cotangent over, ``zeros_like``'s model), the
push saves ``_sg.shape_of(v)`` instead (a ``SavedShape`` for an array, a scalar as it
is), so the array itself is freed as the loop moves on: an RNN's stored gradient keeps a
third of the memory.

Before::                                   After::

    for i in range(n):                         for i in range(n):
        _matmul = h @ w                            _matmul = h @ w
        ...                                        ...
        stack.append(_matmul)                      stack.append(_sg.shape_of(_matmul))
    ...                                        ...
        _matmul = stack.pop()                      _matmul = stack.pop()
        d_matmul = _sg.unbroadcast(d, _matmul)     d_matmul = _sg.unbroadcast(d, _matmul)
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.optimize.uses import UseCache
from srcgrad.syntax import gast


def _shape_only(backward, uses):
    """The names restored by a plain ``v = stack.pop()`` that the backward sweep reads
    only for their shape."""
    restored, other_restores = set(), set()
    for stmt in syntax.statements(backward):
        if getattr(stmt, "saved", None) is not None:
            plain = isinstance(stmt, gast.Assign) and len(stmt.targets) == 1 and \
                isinstance(stmt.targets[0], gast.Name) and stmt.targets[0].id == stmt.saved
            (restored if plain else other_restores).add(stmt.saved)
    if not restored:
        return set()
    _, other_reads = reads_by_role(backward, uses)
    return restored - other_restores - other_reads


def reads_by_role(backward, uses):
    """``(shape reads, other reads)``: the names ``backward`` reads as a shape argument
    (``_sg.unbroadcast(g, x)``'s ``x``), and those it reads in any other way (``uses``:
    a ``UseCache``)."""
    shapes, others = set(), set()
    for stmt in backward:
        found = uses.of(stmt)
        shapes.update(found.shape_reads)
        others.update(found.other_reads)
    return shapes, others


def save_shapes(forward, backward, uses=None):
    """Rewrite, in ``forward``, the pushes of names ``backward`` reads only for their
    shape (``uses``: the ``UseCache`` of the passes run together)."""
    uses = UseCache() if uses is None else uses
    names = _shape_only(backward, uses)
    if not names:
        return forward
    for stmt in syntax.statements(forward):
        if getattr(stmt, "saved", None) in names and isinstance(stmt, gast.Expr):
            call = stmt.value
            value = call.args[0] if isinstance(call, gast.Call) and call.args else None
            if isinstance(value, gast.Name) and value.id == stmt.saved:
                call.args[0] = syntax.quote_expr("_sg.shape_of(v)", v=value)
                uses.forget(stmt)
    return forward
