"""Which locals are proven array API namespaces (``xp``), by the code itself.

A function written against the array API standard takes its namespace from its inputs
and calls the standard's functions through it. What ``xp`` denotes is proven from the
source: every assignment to it is

- ``array_namespace(...)`` (``array_api_compat``'s, resolved and guarded as any callee),
- ``x.__array_namespace__()``,
- ``_sg.checked_namespace(xp)`` (a parameter used as a namespace: checked when the
  function runs, see ``check_namespace_parameters``),
- another proven namespace, or its ``.linalg`` / ``.fft`` extension.

Before (normalized)::

    xp = array_namespace(x, w)
    _linalg = xp.linalg
    h = _linalg.solve(w, x)

After: ``{"xp": ("xp", ""), "_linalg": ("xp", "linalg.")}``: each namespace local with
the root namespace it comes from and the prefix its calls' names get in the table
(``srcgrad.rules.array_api``): ``_linalg.solve`` is the row ``"linalg.solve"``.
"""

from __future__ import annotations

from srcgrad.analysis.arrays import greatest_subset
from srcgrad.syntax import gast

EXTENSIONS = ("linalg", "fft")


def namespace_sources():
    """The functions whose result is an array namespace."""
    import array_api_compat

    from srcgrad.runtime import checked_namespace

    return (array_api_compat.array_namespace, array_api_compat.get_namespace,
            checked_namespace)


def proven_namespaces(assigned, call_target):
    """``{local: (root, prefix)}`` for the locals proven namespaces, given the body's
    ``assigned`` (``analysis.arrays.SimpleAssignments``) and ``call_target(call)`` (the
    object a call with a non-local callee denotes, or None)."""
    candidates = {name for name, values in assigned.values.items()
                  if name not in assigned.bound_otherwise and values
                  and all(_may_build(value) for value in values)}
    if not candidates:
        return {}
    sources = namespace_sources()
    found = greatest_subset(candidates, assigned, lambda value, names: _builds_namespace(
        value, names, call_target, sources))
    return _roots(found, assigned)


def _may_build(value):
    """A cheap filter before resolving callees: the shapes a namespace value can have."""
    return isinstance(value, (gast.Call, gast.Name)) or (
        isinstance(value, gast.Attribute) and value.attr in EXTENSIONS)


def _builds_namespace(value, names, call_target, sources):
    if isinstance(value, gast.Name):
        return value.id in names
    if isinstance(value, gast.Attribute):
        return value.attr in EXTENSIONS and isinstance(value.value, gast.Name) \
            and value.value.id in names
    func = value.func
    if isinstance(func, gast.Attribute) and func.attr == "__array_namespace__":
        return not value.args
    target = call_target(value)
    return target is not None and any(target is source for source in sources)


def _roots(found, assigned):
    """Each namespace local's root namespace and prefix. A local assigned from several
    namespaces (``xp = a if c else b`` after normalization) must agree on the prefix; an
    extension's root is the namespace it is read from (which must hold one value: the
    name the templates call through)."""
    roots = {}
    pending = sorted(found)
    for _ in range(len(found) + 1):   # bounded: each round settles at least one name
        if not pending:
            break
        waiting = []
        for name in pending:
            settled = _settle(name, assigned.values[name], roots)
            if settled is None:
                waiting.append(name)
            else:
                roots[name] = settled
        if len(waiting) == len(pending):
            break
        pending = waiting
    return {name: root for name, root in roots.items() if root is not False}


def _settle(name, values, roots):
    """(root, prefix) for ``name``; None while a value it reads is unsettled; False
    when its values disagree."""
    found = set()
    for value in values:
        if isinstance(value, gast.Call):
            found.add((name, ""))
            continue
        source = value.id if isinstance(value, gast.Name) else value.value.id
        if source not in roots:
            return None
        root = roots[source]
        if root is False:
            return False
        if isinstance(value, gast.Attribute):
            if root[1]:
                return False
            found.add((root[0], value.attr + "."))
        else:
            found.add((name, root[1]) if not root[1] else root)
    return found.pop() if len(found) == 1 else False
