"""``d.update(...)`` and ``d.setdefault(...)`` on a local dict, as item reads and writes
(``DictMethods``, mixed into the A-normal form pass), which both modes differentiate.

Before::                                    After::

    d.update({"b": v}, c=w)                     _sg.require_dict(d, 'update')
                                                d['b'] = v
                                                d['c'] = w
    y = d.setdefault("a", x)                    _sg.require_dict(d, 'setdefault')
                                                _missing = 'a' not in d
                                                if _missing:
                                                    d['a'] = x
                                                y = d['a']

``_sg.require_dict`` raises ``TypeError`` when ``d`` is not a dict when it runs (another
object's ``update`` means something else). ``d.update(other)`` with ``other`` a value is
left as a call (refused on values being differentiated).
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.syntax import gast


class DictMethods:
    """Needs ``namer``, ``atom`` and ``block`` of the pass."""

    def dict_update(self, call):
        """The statements ``d.update({...}, k=v)`` stands for, or None."""
        if not _method_of_local(call, "update") or len(call.args) > 1 \
                or any(kw.arg is None for kw in call.keywords):
            return None
        items = []
        if call.args:
            if not isinstance(call.args[0], gast.Dict) or None in call.args[0].keys:
                return None
            items += list(zip(call.args[0].keys, call.args[0].values))
        items += [(syntax.const(kw.arg), kw.value) for kw in call.keywords]
        base = call.func.value
        out = [_require(base, "update")]
        for key, value in items:
            store = gast.Subscript(value=syntax.clone(base), slice=key, ctx=gast.Store())
            out.append(syntax.assign(store, value))
        syntax.set_line(out, getattr(call, "lineno", None))
        return out

    def dict_setdefault(self, call, preferred=None):
        """``(statements, value)`` for ``d.setdefault(key, default)``, or None."""
        if not _method_of_local(call, "setdefault") or call.keywords \
                or not 1 <= len(call.args) <= 2:
            return None
        base = call.func.value
        pre, key = self.atom(call.args[0], "key")
        default = call.args[1] if len(call.args) == 2 else syntax.const(None)
        default_pre, default = self.atom(default, "default")
        missing = self.namer.temp("missing")
        store = gast.Subscript(value=syntax.clone(base), slice=key, ctx=gast.Store())
        stmts = [_require(base, "setdefault"),
                 syntax.assign(missing, gast.Compare(left=key, ops=[gast.NotIn()],
                                                     comparators=[syntax.clone(base)])),
                 gast.If(test=syntax.name(missing), body=[syntax.assign(store, default)],
                         orelse=[])]
        syntax.set_line(stmts, getattr(call, "lineno", None))
        read = gast.Subscript(value=syntax.clone(base), slice=syntax.clone(key),
                              ctx=gast.Load())
        return pre + default_pre + self.block(stmts), read


class ListMethods:
    """``xs.insert(i, v)`` with the position ``xs.insert`` itself uses (a negative index
    counted from the end, clamped into the list), which the reverse mode takes the item's
    cotangent from::

        xs.insert(-1, v)        ->      _position = _sg.insert_position(xs, -1)
                                        xs.insert(_position, v)

    ``_sg.insert_position`` raises ``TypeError`` when ``xs`` is not a list when it runs.
    Needs ``namer`` and ``atom`` of the pass."""

    def list_insert(self, call):
        """The statements ``xs.insert(i, v)`` stands for, or None."""
        if not _method_of_local(call, "insert") or len(call.args) != 2 or call.keywords:
            return None
        pre, index = self.atom(call.args[0], "index")
        item_pre, item = self.atom(call.args[1], "item")
        position = self.namer.temp("position")
        base = call.func.value
        insert = gast.Call(func=syntax.clone(call.func), args=[syntax.name(position), item],
                           keywords=[])
        out = pre + item_pre + [
            syntax.assign(position, syntax.quote_expr("_sg.insert_position(xs, i)",
                                                      xs=syntax.clone(base), i=index)),
            gast.Expr(value=insert)]
        syntax.set_line(out, getattr(call, "lineno", None))
        return out


def _method_of_local(call, name):
    func = getattr(call, "func", None)
    return isinstance(call, gast.Call) and isinstance(func, gast.Attribute) \
        and func.attr == name and isinstance(func.value, gast.Name)


def _require(base, method):
    return gast.Expr(value=syntax.quote_expr("_sg.require_dict(d, m)", d=syntax.clone(base),
                                             m=syntax.const(method)))
