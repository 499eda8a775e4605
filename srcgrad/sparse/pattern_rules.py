"""Pattern rules: per row of the rule table (``srcgrad.rules``), how a value's
dependencies follow from its operands'.

A pattern rule is ``rule(ans, values, deps) -> Deps | None``: ``ans`` the row's output,
``values`` the bound arguments by parameter name, ``deps`` the ``Deps`` (or None) of the
parameters that carry dependencies. Kinds:

- elementwise rows (``defelementwise``, the broadcasting operators): the OR of the
  operands' rows broadcast to the output; their second-order pairs read off the partial
  templates (the partial in ``p`` names ``q`` or ``ans``: ``p`` and ``q`` interact);
- gathers (reshape, transpose, concatenate, flip, roll, pad...): the call run again on
  integer element ids in place of the values (``gathers``), the rows taken by id;
- reductions group rows (``reductions``); products of matrices (``products``).

A row without a pattern rule makes its output depend on the union of all its inputs'
dependencies (``dense``: correct, less sparse), with a reason recorded.
"""

from __future__ import annotations

import ast
import functools

import numpy as np

from srcgrad.sparse import pattern_deps as pd
from srcgrad.sparse.pattern_deps import Deps, Term

_NOT_ELEMENTWISE = frozenset({"numpy.cross"})
_EXTRA_ELEMENTWISE = frozenset({"numpy.absolute", "builtins.abs", "numpy.real", "numpy.imag",
                                "numpy.conjugate", "numpy.real_if_close"})
_MODULE_NAMES = frozenset({"np", "math", "_sg", "scipy", "special", "g"})

# name -> pattern rule, filled by ``register`` (gathers, reductions, products...).
TABLE: dict = {}


def register(*names):
    def add(rule):
        for name in names:
            TABLE[name] = rule
        return rule
    return add


# rules that read the values of their data operands (a constant factor's zeros)
VALUE_READING = frozenset({"numpy.matmul", "numpy.dot", "numpy.einsum", "numpy.tensordot",
                           "numpy.outer", "numpy.inner", "numpy.convolve"})


# rules that read no argument's value at all (np.select's conditions only choose)
READS_NOTHING = frozenset({"numpy.select"})


def reads_no_values(rule):
    """Does the row's pattern rule read no operand's values (elementwise rows)?"""
    return rule.name not in TABLE and _elementwise_key(rule) is not None


def data_not_read(rule):
    """Does the row's pattern rule leave its data operands' values unread (they are
    moved, grouped or combined by position only)?"""
    return rule.name not in VALUE_READING


def pattern_rule(rule):
    """The pattern rule of a rule-table row, or None (dense fallback)."""
    from srcgrad.rules import REGISTRY

    found = TABLE.get(rule.name)
    if found is not None:
        return found
    key = (rule.name, REGISTRY.generation)   # rows are edited only through the registry
    if key not in _ELEMENTWISE:
        _ELEMENTWISE[key] = _derived(_elementwise_key(rule))
    return _ELEMENTWISE[key]


_ELEMENTWISE: dict = {}


def _elementwise_key(rule):
    tangent = rule.tangent
    if rule.name in TABLE or not isinstance(tangent, dict) or rule.structured \
            or rule.name in _NOT_ELEMENTWISE:
        return None
    if not (rule.elementwise or rule.broadcasts or rule.name in _EXTRA_ELEMENTWISE):
        return None
    if any("axis" in t for t in tangent.values()):
        return None
    return tuple(sorted((p, t) for p, t in tangent.items())), tuple(rule.params)


@functools.cache
def _derived(key):
    if key is None:
        return None
    templates, params = key
    return _elementwise(second_order_pairs(dict(templates), params))


def second_order_pairs(templates, params):
    """``{frozenset({p, q})}``: the operands whose second derivative together may be
    nonzero. The partial (or tangent term) of ``p`` naming ``q`` (or ``ans``, which
    depends on all) says so; one naming no operand is constant: ``p`` is linear."""
    pairs = set()
    for p, template in templates.items():
        names = {n.id for n in ast.walk(ast.parse(template, mode="eval"))
                 if isinstance(n, ast.Name)} - _MODULE_NAMES - {f"{p}_dot"}
        named = set(params) if "ans" in names else names & set(params)
        named |= {q for q in params if f"{q}_dot" in names and q != p}
        pairs.update(frozenset({p, q}) for q in named)
    return frozenset(pairs)


def _elementwise(pairs):
    def elementwise(ans, values, deps):
        inputs = {p: d for p, d in deps.items() if d is not None}
        if not inputs:
            return None
        out_shape = np.shape(ans)
        rows = {p: pd.broadcast_rows(d.rows, np.shape(values[p]), out_shape)
                for p, d in inputs.items()}
        terms = ()
        if pd.merged_hess(inputs.values()) is not None:
            terms = [Term(rows[p], rows[q]) for p, q in (_ends(pair) for pair in pairs)
                     if p in rows and q in rows]
        return pd.made(pd.union(*rows.values()), inputs.values(), terms)
    return elementwise


def _ends(pair):
    items = sorted(pair)
    return items[0], items[-1]


# -- the fallback ----------------------------------------------------------------------
def leaves(deps):
    """The ``Deps`` in a (possibly nested) container of them."""
    if isinstance(deps, Deps):
        yield deps
    elif isinstance(deps, (list, tuple)):
        for item in deps:
            yield from leaves(item)
    elif isinstance(deps, dict):
        for item in deps.values():
            yield from leaves(item)


def dense(ans, deps, reason):
    """Every element of ``ans`` depends on every wrt element any input depends on, and
    (second order) all of those interact."""
    inputs = [d for value in deps.values() for d in leaves(value)]
    if not inputs:
        return None
    pd.note_dense(reason)
    n = inputs[0].n
    union = pd.union(*[pd.group_rows(d.rows, np.zeros(d.rows.shape[0]), 1) for d in inputs])
    terms = [Term(union, union)] if pd.merged_hess(inputs) is not None else []
    hess = pd.merged_hess(inputs, terms)
    return _shaped_like(ans, union, hess, n)


def _shaped_like(value, union, hess, n):
    if isinstance(value, (type({}.keys()), type({}.values()), type({}.items()))):
        value = list(value)
    if isinstance(value, (list, tuple)):
        items = [_shaped_like(v, union, hess, n) for v in value]
        return items if isinstance(value, list) else tuple(items)
    if isinstance(value, dict):
        return {k: _shaped_like(v, union, hess, n) for k, v in value.items()}
    rows = pd.take_rows(union, np.zeros(pd.size_of(value), dtype=np.int64))
    return Deps(rows, hess)


# the rule kinds registered into TABLE
from srcgrad.sparse import pattern_casts as _casts  # noqa: E402,F401
from srcgrad.sparse import pattern_einsum as _einsum  # noqa: E402,F401
from srcgrad.sparse import pattern_gathers as _gathers  # noqa: E402,F401
from srcgrad.sparse import pattern_lanes as _lanes  # noqa: E402,F401
from srcgrad.sparse import pattern_products as _products  # noqa: E402,F401
from srcgrad.sparse import pattern_reductions as _reductions  # noqa: E402,F401
