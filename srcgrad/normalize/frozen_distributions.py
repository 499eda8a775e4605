"""Call a frozen SciPy distribution's methods as the distribution's own rows.

``scipy.stats.norm(mu, s)`` freezes ``norm`` at ``loc=mu, scale=s``; its ``logpdf(x)``
is ``norm.logpdf(x, mu, s)`` (SciPy's ``rv_frozen`` passes its arguments on, as do the
multivariate frozen distributions). The method calls are rewritten into those calls, which
the rule table knows; the arguments are copied where the distribution is frozen, so a
later rebinding of ``mu`` does not change them.

Before::                                   After::

    d = norm(mu, 2.0)                          d_arg = mu
    _logpdf = d.logpdf(x)                      _logpdf = norm.logpdf(x, d_arg, 2.0)

The freezing call is kept only when ``d`` is used in another way (``d.mean()``, passed
to a function): srcgrad has no rule for it, so that use is refused as any call without a
rule is when its arguments carry derivatives. Only a local assigned once, from a name
that denotes a SciPy distribution now (recorded as an assumption, hence guarded), and
methods with rows (``logpdf``, ``cdf``... with the single argument a frozen method takes)
are rewritten.
"""

from __future__ import annotations

import sys

from srcgrad import syntax
from srcgrad.normalize import map_blocks
from srcgrad.rules import REGISTRY
from srcgrad.syntax import gast


def call_frozen_methods(body, parsed, namer):
    """Rewrite ``body`` (A-normal form) as described above."""
    if "scipy.stats" not in sys.modules:   # no program freezes a distribution without it
        return body
    stores, loads = _name_uses(body)
    params = set(syntax.param_names(parsed.node.args))
    frozen = {}   # local name -> (the freezing Assign, the distribution's dotted name)
    for stmt in syntax.statements(body):
        dotted = _freezing_call(stmt, parsed)
        name = stmt.targets[0].id if dotted else None
        if dotted and stores.get(name) == 1 and name not in params:
            frozen[name] = (stmt, dotted)
    if not frozen:
        return body
    rewritten = {name: 0 for name in frozen}
    copies = {}   # id of a freezing Assign -> its copies of the arguments
    for stmt in syntax.statements(body):
        call = stmt.value if isinstance(stmt, gast.Assign) else None
        name = _frozen_receiver(call, frozen)
        if name is None or not _has_row(parsed, frozen[name][1], call.func.attr):
            continue
        freeze, dotted = frozen[name]
        if id(freeze) not in copies:
            copies[id(freeze)] = _copied_arguments(freeze, name, namer)
        args, keywords = copies[id(freeze)][1:]
        stmt.value = syntax.call(f"{dotted}.{call.func.attr}",
                                 [call.args[0]] + [syntax.clone(a) for a in args],
                                 [(k, syntax.clone(v)) for k, v in keywords])
        rewritten[name] += 1
    dropped = {id(frozen[name][0]) for name, count in rewritten.items()
               if count and count == loads.get(name, 0)}

    def replace(stmt):
        if id(stmt) not in copies:
            return [stmt]
        return copies[id(stmt)][0] + ([] if id(stmt) in dropped else [stmt])

    return map_blocks(body, replace)


def _name_uses(body):
    """(stores, loads): how often each name is assigned and read in ``body``."""
    stores, loads = {}, {}
    for stmt in body:
        for sub in syntax.walk(stmt):
            if isinstance(sub, gast.Name):
                counts = stores if isinstance(sub.ctx, (gast.Store, gast.Del)) else loads
                counts[sub.id] = counts.get(sub.id, 0) + 1
    return stores, loads


def _freezing_call(stmt, parsed):
    """The dotted name of the distribution ``stmt`` freezes (``name = D(...)``), or None."""
    if not (isinstance(stmt, gast.Assign) and isinstance(stmt.targets[0], gast.Name)
            and isinstance(stmt.value, gast.Call)):
        return None
    call = stmt.value
    dotted = syntax.dotted_name(call.func)
    if not dotted or any(isinstance(a, gast.Starred) for a in call.args) \
            or any(k.arg is None for k in call.keywords):
        return None
    try:
        obj = parsed.resolve(dotted)
    except KeyError:
        return None
    if not _is_distribution(obj):
        return None
    parsed.assume(dotted)   # guarded: the rewrite holds while the name denotes it
    return dotted


def _is_distribution(obj):
    stats = sys.modules["scipy.stats"]
    kinds = (stats.rv_continuous, stats.rv_discrete)
    multivariate = getattr(sys.modules.get("scipy.stats._multivariate"), "multi_rv_generic",
                           None)
    return isinstance(obj, kinds) or (multivariate is not None and isinstance(obj, multivariate))


def _frozen_receiver(call, frozen):
    """``d`` when ``call`` is ``d.method(x)`` on a frozen distribution ``d``, else None."""
    if not (isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute)
            and isinstance(call.func.value, gast.Name) and call.func.value.id in frozen):
        return None
    if len(call.args) != 1 or call.keywords or isinstance(call.args[0], gast.Starred):
        return None
    return call.func.value.id


def _has_row(parsed, dotted, method):
    try:
        target = parsed.resolve(f"{dotted}.{method}")
    except KeyError:
        return False
    try:
        return REGISTRY.lookup(target) is not None
    except TypeError:
        return False


def _copied_arguments(freeze, name, namer):
    """(copies, positional atoms, keyword atoms) of the freezing call's arguments: each
    name argument copied into a fresh local (``d_arg = mu``) taken where ``d`` is frozen."""
    copies = []

    def copied(atom):
        if not isinstance(atom, gast.Name):
            return atom
        fresh = namer.fresh(f"{name}_arg")
        copy = syntax.assign(fresh, syntax.clone(atom))
        syntax.set_line(copy, freeze.lineno)
        copies.append(copy)
        return syntax.name(fresh)

    call = freeze.value
    args = [copied(a) for a in call.args]
    keywords = [(k.arg, copied(k.value)) for k in call.keywords]
    return copies, args, keywords
