"""Desugar statements into simpler statements of the same meaning.

Before::

    x += y             a = b = f(x)         p, q = q, p         assert x > 0, "neg"
After::

    x = x + y          _value = f(x)        _tuple = (q, p)     if not x > 0:
                       a = _value           p = _tuple[0]           raise AssertionError("neg")
                       b = _value           q = _tuple[1]

    obj.n += 1   ->   _sg.set_attribute(obj, 'n', obj.n + 1)

Also: annotated assignments lose their annotation, docstrings and ``pass`` vanish, and
``del name`` (the fence has checked that the name is not read again) is dropped.
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.normalize import map_blocks
from srcgrad.syntax import gast


def desugar(body, namer):
    def rewrite(stmt):
        out = _desugar_stmt(stmt, namer)
        syntax.set_line(out, stmt.lineno)
        return out

    return map_blocks(body, rewrite)


def _desugar_stmt(stmt, namer):
    if isinstance(stmt, gast.AnnAssign):
        if stmt.value is None:
            return []
        return _desugar_stmt(syntax.assign(stmt.target, stmt.value), namer)
    if isinstance(stmt, gast.AugAssign):
        return _desugar_augassign(stmt, namer)
    if isinstance(stmt, gast.Assign):
        return _desugar_assign(stmt.targets, stmt.value, namer)
    if isinstance(stmt, gast.Assert):
        message = [stmt.msg] if stmt.msg is not None else []
        fail = gast.Raise(exc=syntax.call("AssertionError", message), cause=None)
        test = gast.UnaryOp(op=gast.Not(), operand=stmt.test)
        return [gast.If(test=test, body=[fail], orelse=[])]
    if isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Constant):
        return []
    if isinstance(stmt, gast.Delete):   # ``del xs[i]`` on a list: ``xs.pop(i)``
        return [out for target in stmt.targets if isinstance(target, gast.Subscript)
                for out in _deleted_item(target)]
    if isinstance(stmt, gast.Pass):
        return []
    return [stmt]


def _deleted_item(target):
    """``del xs[i]`` of a list or ``del d[key]`` of a dict (the fence allows a local and
    an index or a slice): ``xs.pop(i)``, checked to be done to a list or a dict when it
    runs. ``del xs[a:b:c]`` of a list pops the positions the slice selects, last first::

        for _position in _sg.deleted_positions(xs, a, b, c):
            xs.pop(_position)
    """
    base = gast.Name(id=target.value.id, ctx=gast.Load(), annotation=None, type_comment=None)
    index = target.slice
    if isinstance(index, gast.Slice):
        parts = [part if part is not None else syntax.const(None)
                 for part in (index.lower, index.upper, index.step)]
        positions = syntax.quote_expr("_sg.deleted_positions(xs, a, b, c)", xs=base,
                                      a=parts[0], b=parts[1], c=parts[2])
        position = "_position"
        pop = gast.Call(func=gast.Attribute(value=syntax.clone(base), attr="pop",
                                            ctx=gast.Load()),
                        args=[syntax.name(position)], keywords=[])
        return [gast.For(target=syntax.name(position, store=True), iter=positions,
                         body=[gast.Expr(value=pop)], orelse=[], type_comment=None)]
    check = syntax.quote_expr("_sg.require_list_or_dict(xs, 'del xs[i]')", xs=base)
    pop = gast.Call(func=gast.Attribute(value=syntax.clone(base), attr="pop", ctx=gast.Load()),
                    args=[index], keywords=[])
    return [gast.Expr(value=check), gast.Expr(value=pop)]


def _desugar_augassign(stmt, namer):
    target = stmt.target
    if isinstance(target, gast.Attribute):
        load = gast.Attribute(value=syntax.clone(target.value), attr=target.attr,
                              ctx=gast.Load())
        return [_set_attribute(target, gast.BinOp(left=load, op=stmt.op, right=stmt.value))]
    if isinstance(target, gast.Name):
        value = gast.BinOp(left=syntax.name(target.id), op=stmt.op, right=stmt.value)
        rebind = syntax.assign(target.id, value)
        rebind.inplace = True   # in place for arrays and lists (see analysis.aliases)
        return [rebind]
    # x[i] += v: evaluate the index once (each part of it, as a slice is no value).
    prelude = []
    index = _index_once(target.slice, namer, prelude)
    load = gast.Subscript(value=syntax.clone(target.value), slice=syntax.clone(index),
                          ctx=gast.Load())
    store = gast.Subscript(value=target.value, slice=index, ctx=gast.Store())
    value = gast.BinOp(left=load, op=stmt.op, right=stmt.value)
    return prelude + [syntax.assign(store, value)]


def _index_once(index, namer, prelude):
    """``index`` with every part that is not an atom computed once into a temporary
    (``x[:, i % 3]`` -> ``_index = i % 3`` and ``x[:, _index]``; slice bounds alike)."""
    if isinstance(index, gast.Tuple):
        return gast.Tuple(elts=[_index_once(part, namer, prelude) for part in index.elts],
                          ctx=gast.Load())
    if isinstance(index, gast.Slice):
        bounds = [_index_once(b, namer, prelude) if b is not None else None
                  for b in (index.lower, index.upper, index.step)]
        return gast.Slice(lower=bounds[0], upper=bounds[1], step=bounds[2])
    if syntax.is_atom(index):
        return index
    if syntax.is_negative_literal(index):   # x[::-1] += v: a literal, not a value to save
        return syntax.const(-index.operand.value)
    name = namer.temp("index")
    prelude.append(syntax.assign(name, index))
    return syntax.name(name)


def _set_attribute(target, value):
    """``obj.name = value`` -> ``_sg.set_attribute(obj, 'name', value)``: a bare call,
    kept in the forward sweep like any other (see ``analysis.escapes``)."""
    return gast.Expr(value=gast.Call(func=syntax.quote_expr("_sg.set_attribute"),
                                     args=[target.value, syntax.const(target.attr), value],
                                     keywords=[]))


def _desugar_assign(targets, value, namer):
    if len(targets) == 1 and isinstance(targets[0], gast.Attribute):
        return [_set_attribute(targets[0], value)]
    if len(targets) == 1 and not isinstance(targets[0], (gast.Tuple, gast.List)):
        return [syntax.assign(targets[0], value)]
    if len(targets) == 1 and isinstance(value, (gast.Tuple, gast.List)) \
            and len(value.elts) == len(targets[0].elts) and not _reads_any(value, targets[0]):
        # p, q = a, b with no overlap: assign element by element.
        out = []
        for target, elt in zip(targets[0].elts, value.elts):
            out.extend(_desugar_assign([target], elt, namer))
        return out
    starred = any(isinstance(t, (gast.Tuple, gast.List))
                  and any(isinstance(e, gast.Starred) for e in t.elts) for t in targets)
    if starred:   # the items are read by index and slice: from a list of them
        value = gast.List(elts=value.elts, ctx=gast.Load()) \
            if isinstance(value, (gast.Tuple, gast.List)) \
            else gast.Call(func=syntax.name("list"), args=[value], keywords=[])
    holder = namer.temp("tuple" if isinstance(value, (gast.Tuple, gast.List)) else "value")
    out = [syntax.assign(holder, value)]
    for target in targets:
        if isinstance(target, (gast.Tuple, gast.List)) and starred:
            out.extend(_unpack_starred(target.elts, holder, namer))
        elif isinstance(target, (gast.Tuple, gast.List)):
            for i, elt in enumerate(target.elts):
                item = gast.Subscript(value=syntax.name(holder), slice=syntax.const(i),
                                      ctx=gast.Load())
                out.extend(_desugar_assign([elt], item, namer))
        else:
            out.append(syntax.assign(target, syntax.name(holder)))
    return out


def _unpack_starred(elts, holder, namer):
    """``a, *mid, b = items`` -> ``a = items[0]; mid = items[1:-1]; b = items[-1]``."""
    star = next(i for i, elt in enumerate(elts) if isinstance(elt, gast.Starred))
    after = len(elts) - star - 1
    out = []
    for i, elt in enumerate(elts):
        if i == star:
            stop = syntax.const(-after) if after else syntax.const(None)
            item = gast.Subscript(value=syntax.name(holder), slice=gast.Slice(
                lower=syntax.const(star), upper=stop, step=None), ctx=gast.Load())
            elt = elt.value
        else:
            index = i if i < star else i - len(elts)
            item = gast.Subscript(value=syntax.name(holder), slice=syntax.const(index),
                                  ctx=gast.Load())
        out.extend(_desugar_assign([elt], item, namer))
    return out


def _reads_any(value, targets):
    stored = set(syntax.names_in(targets))
    return bool(stored & set(syntax.loaded_names(value)))
