"""Hessian-vector products with several vectors in one sweep (an internal entry point,
for code that needs ``H @ V`` for a block ``V``: sparse Hessians by compressed columns,
Newton-Krylov blocks)::

    from srcgrad.api.batched_hvp import hvp_block

    products = hvp_block(f)          # wrt the first argument, as sg.hvp
    HV = products(x, other, V)       # V: x's shape + (k,); HV: the same shape

Forward mode with a block of tangents (``modes.forward_batched``) over the generated
gradient: one sweep carries all ``k`` vectors (in chunks of at most ``chunk`` vectors),
where the gradient has a batched form. Else, for a real argument, reverse mode with a
block of cotangents over the gradient (``modes.reverse_batched``): ``V^T H`` is ``(H
V)^T``, the Hessian being symmetric. Else one ``sg.hvp`` per vector, with the same
numbers.
"""

from __future__ import annotations

import numpy as np

from srcgrad.api.higher import _primals, _resolve, hvp
from srcgrad.compiler import reverse as compiler
from srcgrad.compiler.forward import _check_inputs
from srcgrad.errors import check_output
from srcgrad.runtime.batched import UnbatchedCall

CHUNK = 64   # vectors per sweep at most


def hvp_block(f, wrt=0, *, chunk=CHUNK):
    """A function ``(*args, V) -> H @ V``: ``H`` the Hessian of ``f``'s scalar output
    w.r.t. the one argument ``wrt`` names (an index or a parameter name, as for
    ``sg.hvp``), ``V`` that argument's shape + ``(k,)`` (k vectors on the last axis;
    for a vector argument, the usual ``(n, k)`` matrix). Returns ``H @ V`` in ``V``'s
    layout. The function it returns has ``batched`` set: whether the one-sweep form
    applies (else each vector takes its own ``sg.hvp``)."""
    from srcgrad.compiler.forward_batched import batched_forward_unit
    from srcgrad.compiler.reverse_batched import batched_reverse_unit

    fn, bound, names, single = _resolve(f, wrt)
    if not single:
        raise TypeError("hvp_block takes one argument to differentiate (wrt: an index or "
                        "a name)")
    gradient = compiler.reverse_unit(fn, names[0]).grad
    unit = batched_forward_unit(gradient, names)
    over = batched_reverse_unit(gradient, names) if unit is None else None
    one_by_one = hvp(f, wrt)

    def hvp_block_fn(*args):
        if not args:
            raise TypeError("hvp_block: expected the function's arguments, then V")
        primals, block = args[:-1], np.asarray(args[-1])
        if block.ndim == 0:
            raise ValueError("hvp_block: V needs a trailing axis of vectors")
        k = block.shape[-1]
        if unit is not None and k:
            found = _swept(unit, _primals(bound, primals), block, chunk)
            if found is not None:
                return found
        elif over is not None and k and block.dtype.kind != "c" and _real(primals, over):
            found = _reversed(over, _primals(bound, primals), block, chunk)
            if found is not None:
                return found
        columns = [np.asarray(one_by_one(*primals, block[..., j])) for j in range(k)]
        if not columns:
            return np.zeros(block.shape, dtype=np.result_type(block, np.float64))
        return np.stack(columns, axis=-1)

    hvp_block_fn.batched = unit is not None or over is not None
    hvp_block_fn.source = (unit or over or one_by_one).source
    return hvp_block_fn


def _swept(unit, primals, block, chunk):
    """``H @ V`` by the batched unit, ``chunk`` vectors per sweep; None where a step has
    no batched form as it runs."""
    _check_inputs(unit, primals, [block[..., 0]])
    tangent_name = unit.tangent_names[unit.wrt[0]]
    pieces = []
    for start in range(0, block.shape[-1], chunk):
        tangents = np.ascontiguousarray(block[..., start:start + chunk], dtype=_dtype(block))
        try:
            value, product = unit.jvp(*primals, **{tangent_name: tangents})
        except UnbatchedCall:
            return None
        check_output(value, unit.fn)
        if np.shape(product) != tangents.shape:
            return None
        pieces.append(product)
    return np.concatenate(pieces, axis=-1)


def _reversed(unit, primals, block, chunk):
    """``H @ V`` by the batched backward sweep of the gradient (``V^T H``, H symmetric);
    None where a step has no batched form as it runs."""
    value, saved = unit.forward(*primals)
    check_output(value, unit.fn)
    if np.shape(value) != block.shape[:-1]:
        return None
    pieces = []
    for start in range(0, block.shape[-1], chunk):
        cotangents = np.ascontiguousarray(block[..., start:start + chunk], dtype=np.float64)
        try:
            product = np.asarray(unit.backward(saved, cotangents)[0])
        except UnbatchedCall:
            return None
        if product.shape != cotangents.shape:
            return None
        pieces.append(product)
    return np.concatenate(pieces, axis=-1)


def _real(primals, unit):
    """Is the differentiated argument real (where the Hessian is symmetric)?"""
    from srcgrad.compiler.forward import parameters

    index = parameters(unit.fn).index(unit.wrt[0])
    return index < len(primals) and np.asarray(primals[index]).dtype.kind in "fiub"


def _dtype(block):
    return block.dtype if block.dtype.kind in "fc" else np.float64
