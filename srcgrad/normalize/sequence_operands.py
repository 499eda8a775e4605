"""Python lists and tuples given to NumPy's elementwise functions become arrays first.

NumPy converts such an operand itself, but a rule's partials and tangents are written
for arrays: with a list, ``2 * x`` repeats it and ``x_dot + y_dot`` concatenates two
tangent lists (a wrong number, not an error), ``-x_dot`` and ``x >= lo`` raise. The
conversion NumPy does is written out, so its row (``np.asarray``, linear) carries the
derivative and the elementwise row sees arrays. Converted: displays and comprehensions
given straight to the call, and names every assignment of which is one.

Before::                                        After::

    ys = [xi ** 2 for xi in x]                      ys = [xi ** 2 for xi in x]
    return np.sum(np.multiply(ys, 3.0))             return np.sum(np.multiply(_sg.asarray(ys), 3.0))
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.rules import REGISTRY
from srcgrad.syntax import gast

_SEQUENCES = (gast.List, gast.Tuple, gast.ListComp, gast.GeneratorExp)


def convert_sequence_operands(parsed, groups=None):
    """Rewrite ``parsed.node`` in place as the module docstring shows (``groups``:
    ``syntax.by_type`` of its walk, if made)."""
    if groups is None:
        groups = syntax.by_type(syntax.walk(parsed.node))   # (walked once)
    lists = _sequence_names(groups)
    for call in groups.get(gast.Call, ()):
        if not any(_is_sequence(arg, lists) for arg in _operands(call)):
            continue
        if _is_elementwise(parsed, call.func):
            call.args = [_as_array(arg) if _is_sequence(arg, lists) else arg
                         for arg in call.args]
            for keyword in call.keywords:
                if _is_sequence(keyword.value, lists):
                    keyword.value = _as_array(keyword.value)


def _operands(call):
    return list(call.args) + [keyword.value for keyword in call.keywords]


def _is_sequence(node, lists):
    return isinstance(node, _SEQUENCES) or (isinstance(node, gast.Name) and node.id in lists)


def _as_array(node):
    converted = gast.Call(func=syntax.quote_expr("_sg.asarray"), args=[node], keywords=[])
    converted.lineno = getattr(node, "lineno", None)
    converted.col_offset = getattr(node, "col_offset", None)
    return converted


def _sequence_names(groups):
    """Names bound only by ``name = <list or tuple display, or a comprehension>``
    anywhere in the function (its local functions included), never otherwise.
    ``groups``: every node of the function by class (``syntax.by_type``)."""
    displays, marked = set(), set()
    for stmt in groups.get(gast.Assign, ()):
        if len(stmt.targets) == 1 and isinstance(stmt.targets[0], gast.Name) \
                and isinstance(stmt.value, (gast.List, gast.Tuple, gast.ListComp)):
            displays.add(stmt.targets[0].id)
            marked.add(id(stmt.targets[0]))
    others = {n.id for n in groups.get(gast.Name, ())
              if isinstance(n.ctx, (gast.Store, gast.Param)) and id(n) not in marked}
    return displays - others


def _is_elementwise(parsed, func):
    """Does ``func`` denote a NumPy function whose row is elementwise (broadcasting)?"""
    dotted = syntax.dotted_name(func)
    if dotted is None or dotted.startswith("_sg."):
        return False
    try:
        obj = parsed.resolve(dotted)
        rule = REGISTRY.lookup(obj)
    except (KeyError, TypeError):
        return False
    return rule is not None and (rule.broadcasts or rule.elementwise)
