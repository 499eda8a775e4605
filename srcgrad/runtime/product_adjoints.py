"""Adjoints of tensor products: ``tensordot``, ``einsum``, ``kron`` (``multi_dot``'s are in
``multi_dot_terms``)."""

from __future__ import annotations

import string

import numpy as np

from srcgrad.runtime.core import unbroadcast


# -- tensordot ---------------------------------------------------------------------------
def _tensordot_axes(axes, a_ndim, b_ndim):
    if np.ndim(axes) == 0:
        axes = int(axes)
        return list(range(a_ndim - axes, a_ndim)), list(range(axes))
    a_axes, b_axes = axes
    a_axes = [a_axes] if np.ndim(a_axes) == 0 else list(a_axes)
    b_axes = [b_axes] if np.ndim(b_axes) == 0 else list(b_axes)
    return [ax % a_ndim for ax in a_axes], [ax % b_ndim for ax in b_axes]


def tensordot_adjoint_a(g, a, b, axes):
    a_ndim, b_ndim = np.ndim(a), np.ndim(b)
    a_axes, b_axes = _tensordot_axes(axes, a_ndim, b_ndim)
    a_free = [ax for ax in range(a_ndim) if ax not in a_axes]
    b_free = [ax for ax in range(b_ndim) if ax not in b_axes]
    g_b = list(range(len(a_free), np.ndim(g)))
    out = np.tensordot(g, b, (g_b, b_free))       # dims: a_free + b_axes in b's order
    order = a_free + [a_axes[b_axes.index(ax)] for ax in sorted(b_axes)]
    return np.transpose(out, [int(ax) for ax in np.argsort(order)])


def tensordot_adjoint_b(g, a, b, axes):
    a_ndim, b_ndim = np.ndim(a), np.ndim(b)
    a_axes, b_axes = _tensordot_axes(axes, a_ndim, b_ndim)
    a_free = [ax for ax in range(a_ndim) if ax not in a_axes]
    g_a = list(range(len(a_free)))
    out = np.tensordot(a, g, (a_free, g_a))        # dims: a_axes in a's order + b_free
    b_free = [ax for ax in range(b_ndim) if ax not in b_axes]
    order = [b_axes[a_axes.index(ax)] for ax in sorted(a_axes)] + b_free
    return np.transpose(out, [int(ax) for ax in np.argsort(order)])


# -- einsum ------------------------------------------------------------------------------
def _letters(used):
    return iter(c for c in string.ascii_letters if c not in used)


def _einsum_spec(args):
    """``(input subscripts, output subscripts, operands)`` with ellipses spelled out."""
    if isinstance(args[0], str):
        spec, operands = args[0].replace(" ", ""), list(args[1:])
    else:
        out_list = args[-1] if len(args) % 2 else None
        body = args[:-1] if len(args) % 2 else args
        operands, lists = list(body[0::2]), list(body[1::2])
        symbol = lambda s: "..." if s is Ellipsis else string.ascii_letters[s]
        spec = ",".join("".join(map(symbol, sub)) for sub in lists)
        if out_list is not None:
            spec += "->" + "".join(map(symbol, out_list))
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


def einsum_call(subscripts, o1=None, o2=None, o3=None, o4=None, o5=None, o6=None, o7=None):
    """``np.einsum`` of the slots that are given (an unused slot is ``None``): the
    tangent of ``np.einsum``, with ``np.einsum``'s own row."""
    args = [subscripts, o1, o2, o3, o4, o5, o6, o7]
    return np.einsum(*[a for a in args if a is not None])


def einsum_cotangent(g, position, tangent_slots, subscripts, o1=None, o2=None, o3=None,
                     o4=None, o5=None, o6=None, o7=None):
    """``einsum_adjoint(g, position, [subscripts, o1, ...])`` with the slots as arguments
    (so that rows can differentiate it slot by slot). The cotangent of an operand is
    linear in ``g`` and in every other operand, and does not depend on the operand's own
    value: ``tangent_slots`` are the slots holding a tangent in place of their operand
    (its derivative along one of them), and when the operand's own slot is among them
    the derivative is zero."""
    args = [subscripts, o1, o2, o3, o4, o5, o6, o7]
    if position in tangent_slots:
        return np.zeros(np.shape(args[position]), dtype=np.result_type(g, args[position], 0.0))
    return einsum_adjoint(g, position, args)


def einsum_adjoint(g, position, args):
    """Cotangent of the operand at ``position`` in ``np.einsum(*args)`` (either calling
    convention; ellipses, broadcasting, repeated and summed-out indices)."""
    args = [a for a in args if a is not None]
    inputs, output, operands = _einsum_spec(args)
    k = position - 1 if isinstance(args[0], str) else position // 2
    target, sub = operands[k], inputs[k]
    fresh = _letters(set("".join(inputs) + output))
    sizes = {}
    for op, s in zip(operands, inputs):
        for c, n in zip(s, np.shape(op)):
            if n != 1 or c not in sizes:
                sizes[c] = n
    others = [(op, s) for i, (op, s) in enumerate(zip(operands, inputs)) if i != k]
    terms, extra = [output], [g]
    known = set(output + "".join(s for _, s in others))
    new_sub = ""
    for c, n in zip(sub, np.shape(target)):
        if c in new_sub or (n == 1 and sizes[c] != 1):
            d = next(fresh)       # a repeated index (diagonal) or a broadcast size-1 axis
            if c in new_sub:
                terms.append(c + d)
                extra.append(np.eye(n))
            new_sub += d
            if n == 1 or c not in known:
                terms.append(d)
                extra.append(np.ones(n))
        else:
            new_sub += c
            if c not in known:
                terms.append(c)
                extra.append(np.ones(n))
                known.add(c)
    terms += [s for _, s in others]
    extra += [op for op, _ in others]
    result = np.einsum(",".join(terms) + "->" + new_sub, *extra)
    return unbroadcast(result, target)


# -- kron ------------------------------------------------------------------
def _kron_blocks(g, a, b):
    a2, b2 = np.atleast_2d(a), np.atleast_2d(b)
    ndim = max(a2.ndim, b2.ndim)
    a_shape = (1,) * (ndim - a2.ndim) + a2.shape
    b_shape = (1,) * (ndim - b2.ndim) + b2.shape
    interleaved = [n for pair in zip(a_shape, b_shape) for n in pair]
    blocks = np.reshape(g, interleaved)   # axes: a0, b0, a1, b1, ...
    return blocks, np.reshape(a, a_shape), np.reshape(b, b_shape), ndim


def kron_adjoint_a(g, a, b):
    blocks, _, b_full, ndim = _kron_blocks(g, a, b)
    b_axes = list(range(1, 2 * ndim, 2))
    out = np.tensordot(blocks, b_full, (b_axes, list(range(ndim))))
    return np.reshape(out, np.shape(a))


def kron_adjoint_b(g, a, b):
    blocks, a_full, _, ndim = _kron_blocks(g, a, b)
    a_axes = list(range(0, 2 * ndim, 2))
    out = np.tensordot(a_full, blocks, (list(range(ndim)), a_axes))
    return np.reshape(out, np.shape(b))
