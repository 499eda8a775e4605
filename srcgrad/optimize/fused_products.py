"""Sum a product back to an operand's shape without building the product first.

A factor's cotangent in ``a * b`` is the other factor times the incoming cotangent,
summed over the axes that broadcasting added (``unbroadcast``). Written out, NumPy makes
the full product and then reduces it; ``_sg.unbroadcast_product`` multiplies and sums in
one pass where something is summed (``runtime.fused``), and is the same product and
``unbroadcast`` otherwise::

    Before::

        d_Q = _sg.unbroadcast(d_mul * xcentered, _Q_item)

    After::

        d_Q = _sg.unbroadcast_product(d_mul, xcentered, _Q_item)

The operands are evaluated in the same order as in ``d_mul * xcentered``; only the
summation order of the reduced elements differs (the einsum's, not the pairwise sum's).
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.syntax import gast


def fuse_product_reductions(body, uses=None):
    """Rewrite every ``_sg.unbroadcast(a * b, x)`` in ``body`` (a list of statements) as
    ``_sg.unbroadcast_product(a, b, x)``, in place; returns ``body`` (``uses``: a
    ``UseCache``, whose entries stay valid: see below)."""
    for stmt in body:
        # The calls of runtime helpers in the statement (its ``Uses``), else every node. The
        # rewrite keeps the ``Uses``: every name is read as before and in the same role
        # (the shape argument stays one), and the call node is the same.
        calls = syntax.walk(stmt) if uses is None else uses.of(stmt).helper_calls
        for node in calls:
            if _summed_product(node):
                product, template = node.args
                node.func = syntax.quote_expr("_sg.unbroadcast_product")
                node.args = [product.left, product.right, template]
    return body


def _summed_product(node):
    return (isinstance(node, gast.Call) and len(node.args) == 2 and not node.keywords
            and isinstance(node.args[0], gast.BinOp) and isinstance(node.args[0].op, gast.Mult)
            and syntax.dotted_name(node.func) == "_sg.unbroadcast"
            and not isinstance(node.args[1], gast.Starred))
