"""Subscripts of NumPy and SciPy objects that are not arrays, written as what they do.

``np.r_[x, c]`` is a join of ``x`` and ``c``, not an item of ``np.r_``: read as an item,
``x`` got no derivative (a silent zero). Each such subscript is rewritten by the object
it reads (resolved now, recorded as an assumption, hence guarded), its slices written as
``slice(...)`` calls (a row that refuses a bound carrying a derivative)::

    np.r_[x, 0:3]        ->   _sg.concat_items(np.r_, (x, slice(0, 3, None)))   (a row)
    np.c_[a, b]          ->   _sg.concat_items(np.c_, (a, b))
    np.s_[1:, i]         ->   (slice(1, None, None), i)         (the key itself)
    np.index_exp[i]      ->   (i,)
    np.mgrid[0:2, 0:3]   ->   _sg.grid_items(np.mgrid, (slice(0, 2, None), ...))   (constants)
    other_obj[key]       ->   _sg.library_item(other_obj, key)   (refused if key varies)
    dict(a=x, b=y)       ->   {'a': x, 'b': y}                  (the builtin's record)
    dict([("a", x)], b=y)  ->   {"a": x, "b": y}                 (pairs written out too)

Arrays, NumPy scalars, lists, tuples, dicts, strings, ranges and classes (``np.ndarray[...]``
in an annotation) read by subscript stay subscripts; so do objects of other libraries and
of the user.
"""

from __future__ import annotations

import numpy as np

from srcgrad import syntax
from srcgrad.syntax import gast

_DATA = (np.ndarray, np.generic, list, tuple, dict, str, bytes, range, type)


def rewrite_index_objects(parsed, node=None, groups=None):
    """Rewrite ``node`` (``parsed.node``, or a function inlined into it, which reads the
    same globals) in place as the module docstring shows; returns whether it changed
    anything. ``groups``: ``syntax.by_type`` of the walk of ``node``, if made."""
    root = parsed.node if node is None else node
    if groups is None:
        groups = syntax.by_type(syntax.walk(root))
    subscripts = groups.get(gast.Subscript, ())
    calls = groups.get(gast.Call, ())
    if not subscripts and not calls:
        return False
    local = {n.id for n in groups.get(gast.Name, ())
             if isinstance(n.ctx, (gast.Store, gast.Param, gast.Del))}
    found = {}
    for sub in subscripts:
        dotted = syntax.dotted_name(sub.value)
        if not isinstance(sub.ctx, gast.Load) or dotted is None \
                or dotted.split(".")[0] in local or dotted.startswith("_sg."):
            continue
        try:
            obj = parsed.resolve(dotted)
        except KeyError:
            continue
        if _replacement(sub, obj) is not None:
            parsed.assume(dotted)
            found[id(sub)] = obj
    for call in calls:
        if isinstance(call.func, gast.Name) and call.func.id not in local \
                and _dict_display(call) is not None and _is_builtin_dict(parsed, call.func.id):
            found[id(call)] = dict
    if found:
        _Replace(found).visit(root)
    return bool(found)


def _replacement(node, obj):
    if isinstance(obj, _DATA):
        return None
    module = type(obj).__module__ or ""
    if module.split(".")[0] not in ("numpy", "scipy"):
        return None
    key = _key(node.slice)
    kind = type(obj).__mro__
    names = {k.__name__ for k in kind}
    if "AxisConcatenator" in names:
        return _call("_sg.concat_items", node.value, key)
    if "IndexExpression" in names:
        if getattr(obj, "maketuple", False) and not isinstance(key, gast.Tuple):
            return gast.Tuple(elts=[key], ctx=gast.Load())
        return key
    if "nd_grid" in names:
        return _call("_sg.grid_items", node.value, key)
    return _call("_sg.library_item", node.value, key)


def _call(helper, base, key):
    return gast.Call(func=syntax.quote_expr(helper), args=[base, key], keywords=[])


def _key(index):
    if isinstance(index, gast.Tuple):
        return gast.Tuple(elts=[_part(elt) for elt in index.elts], ctx=gast.Load())
    return _part(index)


def _part(part):
    if not isinstance(part, gast.Slice):
        return part
    bounds = [syntax.const(None) if b is None else b for b in (part.lower, part.upper, part.step)]
    return gast.Call(func=gast.Name(id="slice", ctx=gast.Load(), annotation=None,
                                    type_comment=None), args=bounds, keywords=[])


def _is_builtin_dict(parsed, name):
    """Does the global ``name`` (``dict``, or an alias of it) denote the builtin now
    (recorded as an assumption, hence guarded)?"""
    try:
        obj = parsed.resolve(name)
    except KeyError:
        return False
    if obj is dict:
        parsed.assume(name)
    return obj is dict


def _dict_display(call):
    """``dict(a=x, b=y)`` -> ``{'a': x, 'b': y}``; ``dict({...}, c=z)`` and
    ``dict([('a', x), ('b', y)], c=z)`` (pairs written as a list or tuple of 2-tuples) ->
    one display; None for another form (a mapping or an iterable named: a call, refused
    where it matters)."""
    if any(k.arg is None for k in call.keywords) or len(call.args) > 1:
        return None
    keys, values = [], []
    if call.args:
        items = _display_items(call.args[0])
        if items is None:
            return None
        keys, values = items
    keys += [syntax.const(k.arg) for k in call.keywords]
    values += [k.value for k in call.keywords]
    return gast.Dict(keys=keys, values=values)


def _display_items(arg):
    """(keys, values) of a dict display without ``**``, or of a list or tuple display of
    2-tuple displays; None for anything else."""
    if isinstance(arg, gast.Dict):
        if any(key is None for key in arg.keys):
            return None
        return list(arg.keys), list(arg.values)
    if isinstance(arg, (gast.List, gast.Tuple)) and all(
            isinstance(pair, gast.Tuple) and len(pair.elts) == 2
            and not any(isinstance(e, gast.Starred) for e in pair.elts) for pair in arg.elts):
        return [pair.elts[0] for pair in arg.elts], [pair.elts[1] for pair in arg.elts]
    return None


class _Replace(gast.NodeTransformer):
    def __init__(self, found):
        self.found = found

    def visit_Subscript(self, node):
        found = id(node) in self.found
        obj = self.found.get(id(node))
        self.generic_visit(node)   # (a subscript in the key first)
        if not found:
            return node
        return gast.copy_location(_replacement(node, obj), node)

    def visit_Call(self, node):
        found = id(node) in self.found
        self.generic_visit(node)
        return gast.copy_location(_dict_display(node), node) if found else node
