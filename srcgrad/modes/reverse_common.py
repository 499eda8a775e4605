"""Small facts about normalized statements that the reverse-mode modules share."""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.syntax import gast

OWNED, SHARED = "owned", "shared"  # a nonzero adjoint's buffer: ours to mutate, or not


def list_growth(call, instances=frozenset()):
    """'append' / 'extend' for ``name.append(atom)`` / ``name.extend(atom)``, else None
    (``instances``: names proven objects of a class, whose methods are their own)."""
    if (isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute)
            and call.func.attr in ("append", "extend") and isinstance(call.func.value, gast.Name)
            and len(call.args) == 1 and not call.keywords
            and call.func.value.id not in instances):
        return call.func.attr
    return None


def list_pop(call, instances=frozenset()):
    """Is ``call`` ``name.pop()`` or ``name.pop(i)`` (a list's last or i-th item)?"""
    return (isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute)
            and call.func.attr == "pop" and isinstance(call.func.value, gast.Name)
            and len(call.args) <= 1 and not call.keywords
            and call.func.value.id not in instances)


def list_insert(call, instances=frozenset()):
    """Is ``call`` ``name.insert(position, atom)`` (``normalize.anf`` made the position
    one ``xs.insert`` itself would use, ``_sg.insert_position``)?"""
    return (isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute)
            and call.func.attr == "insert" and isinstance(call.func.value, gast.Name)
            and len(call.args) == 2 and not call.keywords
            and call.func.value.id not in instances)


def is_range(expr):
    return isinstance(expr, gast.Call) and isinstance(expr.func, gast.Name) \
        and expr.func.id == "range"


def is_loop_exit(stmt):
    return (isinstance(stmt, gast.If) and len(stmt.body) == 1
            and isinstance(stmt.body[0], gast.Break) and not stmt.orelse)


def has_exit(stmt):
    return bool(stmt.body) and is_loop_exit(stmt.body[-1])


def list_names(body, groups=None):
    """Locals that hold lists (built from a list display, or grown): the cotangent an
    array rule gives them (``np.sum(lst)``: an array) is turned back into a list, which
    the adjoints of ``append`` and ``pop`` take items from. ``groups``: the nodes of
    ``body`` by class (``syntax.by_type``), when the caller has them already."""
    groups = _groups_of(body) if groups is None else groups
    found = set()
    bindings = []   # (target, the values that make it a list when one is a list)
    for node in groups.get(gast.Call, ()):
        if list_growth(node):
            found.add(node.func.value.id)
    for node in groups.get(gast.Assign, ()):
        _note_binding(node, gast.List, found, bindings)
    return _closure(found, bindings)   # ``c = a + b`` and ``c = a`` on lists give lists


def _note_binding(node, display, found, bindings):
    """For ``t = <display>`` (an ``Assign``) add ``t`` to ``found``; for ``t = a`` or
    ``t = a + b`` (names) add ``(t, [a, b])`` to ``bindings``: ``t`` is of the kind when
    all of them are."""
    if not isinstance(node.targets[0], gast.Name):
        return
    value = node.value
    if isinstance(value, display):
        found.add(node.targets[0].id)
        return
    sides = [value.left, value.right] if isinstance(value, gast.BinOp) \
        and isinstance(value.op, gast.Add) else [value]
    names = [side.id for side in sides if isinstance(side, gast.Name)]
    if len(names) == len(sides):   # lst + arr is NumPy's sum: both sides lists
        bindings.append((node.targets[0].id, names))


def _groups_of(body):
    return syntax.by_type([node for stmt in body for node in syntax.walk(stmt)])


def _closure(found, bindings):
    """``found`` with every target of ``bindings`` all of whose names are found, to a
    fixpoint (a chain of bindings in any order)."""
    size = -1
    while size != len(found):   # ends: ``found`` only grows, within the bindings' targets
        size = len(found)
        for target, names in bindings:
            if target not in found and all(name in found for name in names):
                found.add(target)
    return found


def array_attribute_guard(value, arrays):
    """``_sg.check_array_attribute(x, "T")`` before ``t = x.T`` (or ``.shape``, ``.real``,
    ...) when ``x`` is not proven an array: the rules read the attribute as an array's
    (``.T`` a transpose, ``.size`` a constant), which a NamedTuple's or dataclass's field
    of that name is not. Empty for other statements."""
    from srcgrad.rules import NONDIFF_ATTRIBUTES
    from srcgrad.rules.methods import ARRAY_ATTRIBUTES

    if not (isinstance(value, gast.Attribute) and isinstance(value.value, gast.Name)
            and value.value.id not in arrays
            and (value.attr in NONDIFF_ATTRIBUTES or value.attr in ARRAY_ATTRIBUTES)):
        return []
    return syntax.quote("_sg.check_array_attribute(x, name)", x=value.value,
                        name=syntax.const(value.attr))


def sequence_names(body, lists, groups=None):
    """``lists`` and the locals bound to a tuple display, to one of them, or to ``a + b``
    with both sides among them: ``+`` on them concatenates (``t = t + (v,)`` in a
    loop). ``groups``: as for ``list_names``."""
    groups = _groups_of(body) if groups is None else groups
    found, bindings = set(lists), []
    for node in groups.get(gast.Assign, ()):
        _note_binding(node, gast.Tuple, found, bindings)
    return _closure(found, bindings)


def concatenates(value, lists):
    """Is the BinOp ``value`` ``a + b`` on lists (concatenation, not arithmetic)? Both
    sides must be: ``lst + arr`` is NumPy's elementwise sum."""
    return isinstance(value.op, gast.Add) and all(
        isinstance(side, gast.Name) and side.id in lists for side in (value.left, value.right))


UNLOWERED = ("srcgrad left code in this `except` handler, where it would get no derivative "
             "(a srcgrad bug: please report it); move the handling outside the function")


def unlowered_handler(stmt):
    """The first statement of ``stmt``'s ``except`` handlers that is not a note of which
    handler ran (``normalize.exceptions`` moves the handlers' code after the ``try``), or
    None: code left in a handler would get no derivative."""
    for handler in stmt.handlers:
        for inner in handler.body:
            if not (isinstance(inner, gast.Assign) and isinstance(inner.targets[0], gast.Name)
                    and isinstance(inner.value, (gast.Constant, gast.Name))):
                return inner
    return None
