"""Writes through names that may share storage with others, made explicit or refused
(runs on A-normal form, with ``analysis.aliases``).

The modes read each name as its own value, so a write through one name must show in every
name that refers to the same storage:

- ``np.f(a, out=y)`` becomes ``_f = np.f(a); y[...] = _f`` (and the call's value is ``y``);
- a name surely bound to the written object (``z = y``) is rebound after the write;
- a sure view of the written array (``v = y[1:]``, ``y.T``, ``y.reshape(...)``, nothing
  in it rebound since) is taken again after the write, and a write through a sure
  subscript view (``v *= 2`` or ``v[0] = a`` with ``v = y[1:]``) is written back
  (``y[1:] = v``), each when the view really is one at run time (``_sg.is_view_of``);
- a name that may share storage otherwise (a view, an item of a container) and is read
  later gets a guard before the write, which refuses it at run time when the storage is
  really shared (``old = x[i]`` of a vector is a number and passes);
- an argument the function writes into (or may, through a view or an item) is copied on
  entry, so the caller's arrays are never written.

Before::                             After::

    def f(x):                            def f(x):
        y = x * 2.0                          x = _sg.private_copy(x, (), line=1)
        z = y                                y = x * 2.0
        z[0] = x[1]                          z = y
        v = y[:2]                            _x_item = x[1]
        x[2] = v[0]                          z[0] = _x_item
        return np.sum(y * x)                 y = z
                                             v = y[:2]
                                             _v_item = v[0]
                                             _sg.check_unshared(x, v, 'x', 'v', line=6)
                                             x[2] = _v_item
                                             ...
"""

from __future__ import annotations

import types

from srcgrad import syntax
from srcgrad.analysis import fresh_results
from srcgrad.analysis.aliases import analyze_aliases, writes_through_names
from srcgrad.analysis.cfg import CFG
from srcgrad.analysis.dataflow import defined_names, live_names
from srcgrad.analysis.fresh import is_fresh, reachers
from srcgrad.codegen import loader
from srcgrad.normalize import map_blocks
from srcgrad.normalize.lone_slots import LoneSlots
from srcgrad.syntax import gast

_LIBRARIES = ("numpy", "scipy", "srcgrad")   # their functions are called through rules


def follow_aliased_writes(body, params, parsed, namer):
    """Rewrite ``body`` (A-normal form) as described in the module docstring. Code that
    srcgrad generated is left as it is: it writes only into arrays it allocated, and its
    backward sweep restores each overwritten item before any view of it is read again."""
    body = _lower_out_arguments(body, namer)
    body = map_blocks(body, lambda stmt: _copy_written_value(stmt, namer))
    if loader.is_generated(parsed.fn) or not writes_through_names(body):
        return body   # nothing written through a name: nothing to follow
    modules = {}   # name -> _is_module (asked for every name at every union and hold)

    def is_module(name):
        found = modules.get(name)
        if found is None:
            found = modules[name] = _is_module(parsed, name)
        return found

    local = set(params) | set(syntax.names_in(gast.Module(body=body, type_ignores=[]),
                                              gast.Store))
    proven = {}   # name -> _returns_fresh

    def returns_fresh(name):
        found = proven.get(name)
        if found is None:
            found = proven[name] = name not in local and _returns_fresh(parsed, name)
        return found

    facts = analyze_aliases(body, params, is_module, returns_fresh)
    cfg = CFG(params, body)
    live, defined = live_names(cfg), defined_names(cfg, params, definitely=True)
    before, after, private, unbound = {}, {}, set(), set()
    outside = {}   # affected names -> those of them the function does not bind
    reaching = []   # analysis.fresh's reachers, found on the first guard
    lone = LoneSlots(body, params, lambda value: is_fresh(value, facts), namer)

    def may_reach(stmt, written, other):
        """May ``other`` refer to what ``written`` is bound to at ``stmt``? Not when
        ``written`` is a new object no path has given ``other`` since (``s2 =
        s.copy(); s2[i] = h`` in a loop that appends each ``s2`` to a list: no guard
        walking the list before every write)."""
        if not reaching:
            reaching.append(reachers(body, params, {w[1] for w in facts.writes}, facts))
        found = reaching[0].get(id(stmt), {}).get(written)
        return found is None or other in found
    for stmt, name, kind in facts.writes:
        affected = facts.affected_by(name)
        if kind != "inplace":   # the generated code rebinds for `x += v`, never writes
            private.update(p for p in params if p in affected)
        if name not in local and name in affected and kind != "inplace":
            raise parsed.error(   # (a global holding none of the function's values is not)
                f"writing into `{name}`, which this function does not own (a global or "
                "closure variable, or storage it refers to), is not supported: pass it "
                "in and return the new value", stmt)
        node = cfg.node(stmt)
        produced = set(syntax.names_in(stmt, gast.Store)) - {name}   # x = lst.pop()
        followed = _to_follow(affected, set(live[node]), local, outside)
        for other in sorted(followed - {name} - produced):
            if other not in local:   # a global's storage: never rebound here, refused
                before.setdefault(id(stmt), []).append(   # when it is really shared
                    _guard(name, other, kind, stmt, owned=False))
                continue
            if not live.has(node, other):
                continue   # not read again before it is rebound
            if facts.same_object(stmt, name, other):
                after.setdefault(id(stmt), []).extend(_rebind(other, name, kind, namer))
            elif _follows_view(stmt, name, other, kind, facts, namer, before, after, lone):
                # written back into: the caller's array is not
                private.update(p for p in params if p in facts.affected_by(other))
            elif may_reach(stmt, name, other):
                before.setdefault(id(stmt), []).append(_guard(name, other, kind, stmt))
                if not defined.has(node, other):
                    unbound.add(other)   # bound on some paths only: None until then
    for key, added in lone.after.items():
        after.setdefault(key, []).extend(added)
    body = _insert(body, before, after)
    unset = [syntax.assign(other, syntax.const(None)) for other in sorted(unbound)]
    syntax.set_line(unset, parsed.node.lineno)
    unset = lone.prologue(parsed.node.lineno) + unset
    private = sorted(private, key=params.index)
    return _private_copies(private, params, parsed, namer) + unset + body


def _to_follow(affected, live_here, local, outside):
    """The names of ``affected`` a write may have to follow: those the function does not
    bind (guarded whether read again or not) and those read again after it
    (``live_here``); the others are not looked at. Without going through every affected
    name at each write: a chain of ``s += v`` makes each ``_add`` temporary affected by
    every later write. ``outside`` keeps the first part per set of affected names."""
    if affected not in outside:
        outside[affected] = frozenset(n for n in affected if n not in local)
    return outside[affected] | (affected & live_here)


def _rebind(other, written, kind, namer):
    """``other = written`` after the write (only when ``x += v`` was in place)."""
    rebind = syntax.assign(other, syntax.name(written))
    if kind != "inplace":
        return [rebind]
    flag = namer.temp("in_place")
    test = syntax.quote_expr("_sg.updates_in_place(x)", x=other)
    return [syntax.assign(flag, test),
            gast.If(test=syntax.name(flag), body=[rebind], orelse=[])]


def _follows_view(stmt, written, other, kind, facts, namer, before, after, lone):
    """A view and its base kept in step, if ``other`` is a sure view of ``written``
    (``v = w[1:]``: ``v = w[1:]`` again after the write) or ``written`` a sure
    subscript view of ``other`` (``w[1:] = v`` after the write through ``v``), each
    when the view really is one at run time (``w[0]`` of a vector is a number).

    After ``w += x`` (kind ``inplace``) the generated code rebinds ``w`` to a new array:
    a view is taken again only from ``w`` itself, never from another name of the old
    array (``p0 = p; h = p[1]; p0 += 1.2``: ``p`` holds the old values; the guard
    refuses that when the array is really shared). A view of another name of the array
    written through a subscript is taken again from the name written (``q = k[1];
    y = k; y[:, 1] = v``: ``q = y[1]``), whose value after the write the modes follow
    (``k`` they see as its value before it)."""
    view, base = other, written
    found = facts.view_through_copies(stmt, view, base)   # (v = k[1]; y = k; y[0] = ...)
    expr = found[1] if found is not None else None
    if expr is not None and kind == "inplace" and _root_name(expr) != written:
        expr = None
    elif expr is not None:   # taken again from the name written: the modes see `k`'s
        expr = _viewed_from(expr, written)   # value as the one before the write
    if expr is None:
        view, base = written, other
        expr = facts.view_of(stmt, view, base)
        if not isinstance(expr, gast.Subscript) or not isinstance(stmt, gast.Assign):
            return False   # write back only after `v op= x` or `v[i] = x` through a view
    flag = namer.temp("is_view")
    test = syntax.quote_expr("_sg.is_view_of(v, b)", v=view, b=base)
    if view == written and isinstance(expr, gast.Subscript):   # an item of a list or dict,
        # written back into its slot (refused where it is held elsewhere too)
        test.keywords = [gast.keyword(arg=k, value=syntax.const(v) if k != "item" else v)
                         for k, v in (("item", syntax.index_value(syntax.clone(expr.slice))),
                                      ("name", view), ("base_name", base),
                                      ("line", stmt.lineno))]
        alone = lone.flag(base)   # (slots proven never to share storage: no walk)
        if alone is not None:
            test.keywords.append(gast.keyword(arg="alone", value=syntax.name(alone)))
    if view == other:   # re-derive the view of the written array
        update = [syntax.assign(view, syntax.clone(expr))]
    else:   # write the view's new value back into its base, and view the base again
        target = gast.Subscript(value=syntax.name(base), slice=syntax.clone(expr.slice),
                                ctx=gast.Store())
        update = [syntax.assign(target, syntax.name(view)),
                  syntax.assign(view, syntax.clone(expr))]
    before.setdefault(id(stmt), []).append(syntax.assign(flag, test))
    after.setdefault(id(stmt), []).append(gast.If(test=syntax.name(flag), body=update,
                                                  orelse=[]))
    return True


def _viewed_from(expr, name):
    """``expr`` (``k[1]``, ``k.T``, ``k.reshape(n)``: a view of a name) taken of ``name``."""
    expr = syntax.clone(expr)
    holder = expr.func if isinstance(expr, gast.Call) else expr
    holder.value = syntax.name(name)
    return expr


def _root_name(expr):
    """``m`` for ``m[0]``, ``m.T``, ``m[0][1:]``; None when no name is at the root."""
    while isinstance(expr, (gast.Subscript, gast.Attribute)):
        expr = expr.value
    return expr.id if isinstance(expr, gast.Name) else None


def _guard(written, other, kind, stmt, owned=True):
    call = syntax.quote_expr("_sg.check_unshared(w, o)", w=written, o=other)
    call.args += [syntax.const(written), syntax.const(other)]
    call.keywords = [gast.keyword(arg="line", value=syntax.const(stmt.lineno))]
    if kind == "inplace":
        call.keywords.append(gast.keyword(arg="inplace", value=syntax.const(True)))
    if not owned:
        call.keywords.append(gast.keyword(arg="owned", value=syntax.const(False)))
    return gast.Expr(value=call)


def _insert(body, before, after):
    def around(stmt):
        added_before, added_after = before.get(id(stmt), []), after.get(id(stmt), [])
        syntax.set_line(added_before + added_after, stmt.lineno)
        return added_before + [stmt] + added_after

    return map_blocks(body, around)


def _private_copies(private, params, parsed, namer):
    """``x_copy = _sg.private_copy(x, (other params...)); x = x_copy`` for each
    argument the function writes into (a target never appears in its own value)."""
    line = parsed.node.lineno
    out = []
    for param in private:
        others = gast.Tuple(elts=[syntax.name(p) for p in params if p != param],
                            ctx=gast.Load())
        copy = syntax.quote_expr("_sg.private_copy(x, others)", x=param, others=others)
        copy.keywords = [gast.keyword(arg="line", value=syntax.const(line))]
        temp = namer.temp(f"{param}_copy")
        out += [syntax.assign(temp, copy), syntax.assign(param, syntax.name(temp))]
    syntax.set_line(out, line)
    return out


def _lower_out_arguments(body, namer):
    """``r = np.f(a, out=y)`` -> ``_f = np.f(a); y[...] = _f; r = y`` (``out`` a name)."""
    def lower(stmt):
        call = stmt.value if isinstance(stmt, (gast.Assign, gast.Expr)) else None
        keyword = next((kw for kw in getattr(call, "keywords", ()) if kw.arg == "out"), None)
        if not isinstance(call, gast.Call) or keyword is None \
                or not isinstance(keyword.value, gast.Name):
            return [stmt]
        destination = keyword.value.id
        call.keywords = [kw for kw in call.keywords if kw is not keyword]
        temp = namer.temp(getattr(call.func, "attr", None) or "out")
        store = gast.Subscript(value=syntax.name(destination), slice=gast.Constant(
            value=Ellipsis, kind=None), ctx=gast.Store())
        lowered = [syntax.assign(temp, call), syntax.assign(store, syntax.name(temp))]
        if isinstance(stmt, gast.Assign):
            lowered.append(syntax.assign(stmt.targets[0], syntax.name(destination)))
        syntax.set_line(lowered, stmt.lineno)
        return lowered

    return map_blocks(body, lower)


def _copy_written_value(stmt, namer):
    """``x[i] = x`` -> ``_x = _sg.snapshot(x); x[i] = _x``: the value written is not the
    array written into (NumPy copies it first too)."""
    if not (isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Subscript)
            and isinstance(stmt.value, gast.Name)
            and isinstance(stmt.targets[0].value, gast.Name)
            and stmt.targets[0].value.id == stmt.value.id):
        return [stmt]
    temp = namer.temp(stmt.value.id)
    copy = syntax.assign(temp, syntax.quote_expr("_sg.snapshot(x)", x=stmt.value))
    stmt.value = syntax.name(temp)
    syntax.set_line([copy], stmt.lineno)
    return [copy, stmt]


def _returns_fresh(parsed, name):
    """Is the global ``name`` a user's function proven to return only new arrays and to
    keep nothing it is given (``analysis.fresh_results``)? Guarded when it is: the
    generated code holds while ``name`` denotes that function with that code."""
    if name in parsed.closure or name in parsed.injected:
        return False
    try:
        fn = parsed.resolve(name)
    except KeyError:
        return False
    module = (getattr(fn, "__module__", None) or "").split(".")[0]
    if module in _LIBRARIES or not fresh_results.returns_fresh(fn):
        return False
    parsed.assume(name)
    return True


def _is_module(parsed, name):
    """Is ``name`` a module the function reads globally (``np``: never written)?"""
    try:
        return isinstance(parsed.resolve(name), types.ModuleType)
    except KeyError:
        return False
