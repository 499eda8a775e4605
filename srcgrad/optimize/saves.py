"""Remove the saves (stack pushes and their pops) whose values nobody reads.

The reverse mode pushes every value it overwrites. A push is worth keeping only when
the backward sweep reads the restored variable.

Before::                                   After (``i`` is never read backward)::

    for _ in ...:                              for _ in ...:
        stack.append(i)   # forward                t = t * 2
        stack.append(t)                            ...
        t = t * 2
    ...
    t = stack.pop()       # backward
    i = stack.pop()

A write into an array (``x[i] = v``, restored by ``_sg.restore_item``) also changes every
view of it: ``row = x[0]`` or ``xt = x.T`` taken earlier sees the restored values only
if the save is kept, so the save of ``x`` counts as read when a name that may share
storage with ``x`` is read afterwards (see ``storage_groups``), or when such a name's own
earlier value is restored for the backward sweep (``y = x[1:]`` pushed before a write
into ``x``: the popped view reads ``x``).
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.analysis import fixpoint
from srcgrad.analysis.cfg import CFG
from srcgrad.analysis.dataflow import live_names
from srcgrad.syntax import gast


def _is_save(stmt):
    return getattr(stmt, "saved", None) is not None


def _loaded(stmt):
    """Names a statement itself reads (not its nested blocks)."""
    names = set()
    nodes = [stmt]
    while nodes:
        node = nodes.pop()
        for field, value in gast.iter_fields(node):
            if field in ("body", "orelse", "finalbody") and isinstance(node, gast.stmt):
                continue
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, gast.Name) and isinstance(child.ctx, gast.Load):
                    names.add(child.id)
                elif isinstance(child, gast.AST):
                    nodes.append(child)
    return names


_SIMPLE = (gast.Assign, gast.AugAssign, gast.Expr, gast.Return, gast.Pass)


def _has_save(body):
    """Does a statement of ``body`` (or of its nested blocks) save a value? (A simple
    statement holds no block: a long straight-line sweep is scanned without a walk.)"""
    for stmt in body:
        if _is_save(stmt):
            return True
        if type(stmt) not in _SIMPLE and any(_is_save(s) for s in syntax.statements([stmt])):
            return True
    return False


def prune_saves(forward, backward, live_out=()):
    """Drop the save pairs of every variable none of whose restores is read afterwards
    (liveness over the backward sweep); return (forward, backward, names still saved)."""
    if not _has_save(forward) and not _has_save(backward):
        return forward, backward, set()   # nothing saved (straight-line code, renamed)
    sharing = storage_groups(forward)
    # each round that goes on drops the saves of one more variable at least
    saved_names = {s.saved for s in syntax.statements(forward + backward) if _is_save(s)}
    for _ in fixpoint.rounds(len(saved_names) + 2, "the pruning of saves"):
        cfg = CFG([], backward)
        _unread_by_undos(cfg, sharing)
        live_after = live_names(cfg, frozenset(live_out))
        read, items = {}, set()
        for stmt in syntax.statements(backward):
            if _is_save(stmt):
                node = cfg.by_stmt.get(id(stmt))
                names = sharing.get(stmt.saved, {stmt.saved}) if _restores_item(stmt) \
                    else {stmt.saved}
                live = node is not None and any(live_after.has(node, n) for n in names)
                read[stmt.saved] = read.get(stmt.saved, False) or live
                if _restores_item(stmt):
                    items.add(stmt.saved)
        for name in items:   # an earlier value of a view, restored and read backward
            read[name] = read[name] or any(read.get(other) for other in
                                           sharing.get(name, ()) if other != name)
        unread = {name for name, live in read.items() if not live}
        unread |= {s.saved for s in syntax.statements(forward) if _is_save(s)} - set(read)
        if not unread:
            break
        needed = set(read) - unread
        forward = _drop(forward, needed)
        backward = _drop(backward, needed)
    kept = {s.saved for s in syntax.statements(forward) if _is_save(s)}
    return forward, backward, kept


def _restores_item(stmt):
    return isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Call) \
        and syntax.dotted_name(stmt.value.func) in RESTORES


# what the backward sweep writes into the forward sweep's values: an item put back, a
# list's resize undone
RESTORES = {"_sg.restore_item", "_sg.unpop", "_sg.unpop_at", "_sg.pop_last",
            "_sg.remove_inserted"}
_UNDOS = RESTORES - {"_sg.restore_item"}   # a list's resize undone


def _unread_by_undos(cfg, sharing):
    """An undone resize of a list (``ContainerAdjoints.primal_undo``) is needed only where
    something else reads the list further back (a restored item, its length): its own
    read of the list (or of a list sharing its storage) does not keep it, or the undos of
    a loop would keep each other."""
    index = cfg.index
    for node in cfg.nodes:
        stmt = node.stmt
        if stmt is not None and _is_save(stmt) and isinstance(stmt, gast.Expr) \
                and isinstance(stmt.value, gast.Call) \
                and syntax.dotted_name(stmt.value.func) in _UNDOS:
            names = sharing.get(stmt.saved, {stmt.saved}) | {stmt.saved}
            node.use_bits &= ~index.bits(names)


# Calls whose result may be (a view of) an argument: NumPy's view-making functions and
# methods, and anything that is not a NumPy, math or runtime function (user code).
_VIEW_FUNCTIONS = {
    "reshape", "transpose", "ravel", "squeeze", "swapaxes", "moveaxis", "rollaxis",
    "expand_dims", "broadcast_to", "broadcast_arrays", "asarray", "asanyarray",
    "ascontiguousarray", "asfortranarray", "atleast_1d", "atleast_2d", "atleast_3d",
    "diagonal", "view", "flip", "flipud", "fliplr", "rot90", "real", "imag", "split",
    "array_split", "hsplit", "vsplit", "dsplit", "unstack", "nan_to_num", "matrix_transpose",
    "permute_dims", "get_item", "snapshot",
    "dynamic_forward", "dynamic_forward_eager",   # (value, saved): the callee's own saves
}


def storage_groups(forward):
    """name -> the set of names whose values may share storage with it (itself included):
    ``b = a``, ``b = a[i]``, ``b = a.T``, ``b = a.reshape(...)``, ``b = (a, c)``,
    ``for b in a``, ``b = user_function(a)`` link ``a`` and ``b``."""
    parent = {}

    def find(name):
        while parent.get(name, name) != name:
            name = parent[name]
        return name

    for stmt in syntax.statements(forward):
        targets, sources = _sharing_sources(stmt)
        for target in targets:
            for source in sources:
                parent.setdefault(target, target)
                parent.setdefault(source, source)
                parent[find(source)] = find(target)
    groups = {}
    for name in parent:
        groups.setdefault(find(name), set()).add(name)
    return {name: groups[find(name)] for name in parent}


def _sharing_sources(stmt):
    """(names a statement binds, names whose storage they may share). A call's result
    pair ``y, y_saved = helper_forward(x)`` counts for both names: the saved values of
    a callee may hold its arguments themselves."""
    if isinstance(stmt, gast.For) and isinstance(stmt.target, gast.Name):
        return [stmt.target.id], syntax.loaded_names(stmt.iter)
    if not isinstance(stmt, gast.Assign):
        return [], []
    target = stmt.targets[0]
    if isinstance(target, gast.Name):
        targets = [target.id]
    elif isinstance(target, gast.Tuple) and all(isinstance(e, gast.Name) for e in target.elts):
        targets = [e.id for e in target.elts]
    else:
        return [], []
    value = stmt.value
    if isinstance(value, (gast.Name, gast.Subscript, gast.Attribute, gast.Tuple, gast.List,
                          gast.Dict, gast.IfExp)):
        return targets, syntax.loaded_names(value)
    if isinstance(value, gast.Call) and _may_return_argument(value.func):
        operands = value.args + [k.value for k in value.keywords]
        if isinstance(value.func, gast.Attribute):
            operands.append(value.func.value)   # a method's receiver
        return targets, [n for op in operands for n in syntax.loaded_names(op)]
    return [], []


def _may_return_argument(func):
    dotted = syntax.dotted_name(func)
    if dotted is None or not dotted.startswith(("np.", "math.", "_sg.")):
        return True
    return dotted.rsplit(".", 1)[-1] in _VIEW_FUNCTIONS


def _drop(body, needed):
    out = []
    for stmt in body:
        if _is_save(stmt) and stmt.saved not in needed:
            continue
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and isinstance(stmt, gast.stmt):
                new = _drop(inner, needed)
                setattr(stmt, field, new or syntax.emptied_block(stmt, field))
        out.append(stmt)
    return out

