"""``np.einsum``'s derivatives at every order, as one multilinear form.

``y = np.einsum(spec, x_1, ..., x_n)`` paired with a cotangent ``g`` of ``y`` is the
full contraction ``F(x_1, ..., x_n, g)``: every index summed, linear in each of its
``n + 1`` slots and symmetric in their roles. The cotangent of ``x_k`` is the partial
of ``F`` in slot ``k``: a contraction of the other slots into ``x_k``'s subscripts
(a repeated index is a diagonal, which the partial scatters back with an identity; a
size-1 axis broadcast against a longer one is summed). ``einsum_partial`` computes such
a partial; its arguments are the values of every slot but the free one, and ``spec``
describes all of them (subscripts, shape, complex or not), the free one first.

Its derivatives are partials again, which makes it closed under differentiation:

* along a slot ``x_j`` it is linear: ``einsum_partial(spec, ..., x_j_dot, ...)``;
* its transpose in ``x_j`` is the partial in slot ``j`` with the cotangent ``G`` in the
  slot that was free: ``einsum_partial(einsum_swap(spec, j), ..., G, ...)``, where
  ``einsum_swap`` trades the descriptions of slot ``j`` and the free slot (``G`` has the
  free slot's shape, and now stands in ``x_j``'s position).

Cotangents follow autograd's convention (no conjugate); a real slot's partial is real.
"""

from __future__ import annotations

import string

import numpy as np

__all__ = ["einsum_spec", "einsum_swap", "einsum_partial"]

_SLOTS = 8     # np.einsum's positional slots: the subscripts (or a first operand) and 7 more


def _letters(used):
    return iter(c for c in string.ascii_letters if c not in used)


def _symbol(s):
    return "..." if s is Ellipsis else string.ascii_letters[s]


def _sublist_spec(args):
    out_list = args[-1] if len(args) % 2 else None
    body = args[:-1] if len(args) % 2 else args
    operands, lists = list(body[0::2]), list(body[1::2])
    spec = ",".join("".join(_symbol(s) for s in sub) for sub in lists)
    if out_list is not None:
        spec += "->" + "".join(_symbol(s) for s in out_list)
    return spec, operands


def einsum_subscripts(args):
    """``(input subscripts, output subscripts, operands)`` of ``np.einsum(*args)`` (either
    calling convention), with ellipses spelled out in fresh letters."""
    if isinstance(args[0], str):
        spec, operands = args[0].replace(" ", ""), list(args[1:])
    else:
        spec, operands = _sublist_spec(args)
    inputs, _, output = spec.partition("->")
    inputs = inputs.split(",")
    if "->" not in spec:
        joined = "".join(inputs).replace(".", "")
        output = ("..." if any("..." in s for s in inputs) else "") + "".join(
            sorted(c for c in set(joined) if joined.count(c) == 1))
    fresh = _letters(set(spec))
    ell_ndim = max([np.ndim(op) - len(s.replace("...", "")) for op, s in zip(operands, inputs)
                    if "..." in s] or [0])
    ellipsis = "".join(next(fresh) for _ in range(ell_ndim))
    spelled = []
    for op, sub in zip(operands, inputs):
        if "..." in sub:
            own = np.ndim(op) - len(sub.replace("...", ""))
            sub = sub.replace("...", ellipsis[ell_ndim - own:])
        spelled.append(sub)
    return spelled, output.replace("...", ellipsis), operands


class Constant:
    """A slot of ``np.einsum`` that holds no operand: the subscripts string, a sublist, an
    unused ``None``. It carries no derivative: reverse mode over generated code may still
    hand it a zero tangent or ask for its cotangent (a sublist saved for the backward
    sweep), and both are zero."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def holds(self, x):
        """Is ``x`` the value itself (not a tangent standing in its slot: ``zeros_like``
        of a sublist is a list of floats, of ``None`` a float)?"""
        v = self.value
        if x is v:
            return True
        if type(x) is not type(v):
            return False
        if isinstance(v, (list, tuple)):
            return len(x) == len(v) and all(type(a) is type(b) and a == b for a, b in zip(x, v))
        return bool(x == v)


def _zero(free):
    """The zero partial in the free slot: a zero array, or None (a zero not built) for a
    slot holding no operand (its row adds tangent terms with ``add_tangents``, which
    takes None)."""
    if type(free) is Constant:
        return None
    _, shape, complex_ = free
    return np.zeros(shape, dtype=complex if complex_ else float)


def _sizes(entries):
    sizes = {}
    for sub, shape, _ in entries:
        for c, n in zip(sub, shape):
            if n != 1 or c not in sizes:
                sizes[c] = n
    return sizes


def einsum_spec(position, subscripts, o1=None, o2=None, o3=None, o4=None, o5=None, o6=None,
                o7=None):
    """The ``spec`` of the cotangent of ``np.einsum``'s slot ``position`` (0: the
    subscripts, or the first operand of the sublist form): ``(free, entries)``, with one
    entry for each other slot in order and one for the cotangent ``g`` of the result, last.
    An entry is ``(subscripts, shape, complex)``, or a ``Constant`` for a slot holding no
    operand (the subscripts, a sublist, an unused slot; its cotangent is zero)."""
    args = [subscripts, o1, o2, o3, o4, o5, o6, o7]
    given = [a for a in args if a is not None]
    inputs, output, operands = einsum_subscripts(given)
    string_form = isinstance(given[0], str)
    entries = [Constant(a) for a in args]
    for k, (sub, op) in enumerate(zip(inputs, operands)):
        entries[k + 1 if string_form else 2 * k] = (sub, np.shape(op), np.iscomplexobj(op))
    sizes = _sizes([e for e in entries if type(e) is not Constant])
    result = (output, tuple(sizes[c] for c in output), any(np.iscomplexobj(op) for op in operands))
    others = tuple(e for i, e in enumerate(entries) if i != position)
    return entries[position], others + (result,)


def einsum_swap(spec, j):
    """``spec`` with the free slot and slot ``j`` (1-based, as ``einsum_partial``'s
    ``x_j``) trading places: the spec of ``einsum_partial``'s transpose in ``x_j``."""
    free, entries = spec
    return entries[j - 1], entries[:j - 1] + (free,) + entries[j:]


def einsum_partial(spec, x1=None, x2=None, x3=None, x4=None, x5=None, x6=None, x7=None,
                   x8=None):
    """The partial of the full contraction (module doc) in the free slot ``spec[0]``, at
    the values ``x1 ... x8`` of the slots ``spec[1]`` describes (a slot whose entry is a
    ``Constant`` takes no part; a call with another value there is a derivative along
    it: zero)."""
    free, entries = spec
    values = (x1, x2, x3, x4, x5, x6, x7, x8)
    if type(free) is Constant or any(type(e) is Constant and not e.holds(x)
                                     for e, x in zip(entries, values)):
        return _zero(free)
    free_sub, free_shape, free_complex = free
    present = [(e, x) for e, x in zip(entries, values) if type(e) is not Constant]
    sizes = _sizes([(free_sub, free_shape, free_complex)] + [e for e, _ in present])
    fresh = _letters(set(free_sub).union(*(e[0] for e, _ in present)))
    known = set().union(*(e[0] for e, _ in present))
    stretched = {c for e, _ in present for c, n in zip(e[0], e[1]) if n != 1}
    terms, extra, target = [], [], ""
    for c, n in zip(free_sub, free_shape):
        if c in target or (n == 1 and sizes[c] != 1):
            d = next(fresh)       # a repeated index (diagonal) or a broadcast size-1 axis
            if c in target:
                terms.append(c + d)
                extra.append(np.eye(n))
            target += d
            if n == 1 or c not in known:
                terms.append(d)
                extra.append(np.ones(n))
        else:
            target += c
            if c not in known or (n != 1 and c not in stretched):
                # an index of the free slot only, or one the other slots broadcast from
                # size 1: the partial is constant along it
                terms.append(c)
                extra.append(np.ones(n))
                known.add(c)
                stretched.add(c)
    terms += [e[0] for e, _ in present]
    extra += [x for _, x in present]
    result = np.einsum(",".join(terms) + "->" + target, *extra)
    if result.shape != tuple(free_shape):
        raise ValueError(f"einsum_partial: a partial of shape {result.shape} for an operand "
                         f"of shape {tuple(free_shape)}")
    return result if free_complex or result.dtype.kind != "c" else result.real
