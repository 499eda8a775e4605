"""The compressed products a sparse Jacobian or Hessian is decompressed from, by the
generated derivative code:

- ``forward_columns``: ``B = J @ S`` in one sweep of the batched forward mode (every
  column of ``S`` a tangent direction), or one ``jvp`` per column where the function has
  no batched form (a tuple output, keyword arguments, a construct the batched mode
  refuses);
- ``reverse_rows``: ``B = S.T @ J`` by one forward sweep and one backward sweep per
  column of ``S`` (``vjp``'s ``backward`` may be called again and again);
- ``hessian_columns``: ``B = H @ S`` by one Hessian-vector product (forward over the
  generated gradient) per column of ``S``.

Arrays are flattened in C order; the ``wrt`` arguments are concatenated in ``wrt``'s
order, a tuple output's items in theirs (``Inputs``, ``flatten_outputs``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from srcgrad.api import functional as api
from srcgrad.errors import check_output
from srcgrad.runtime import core
from srcgrad.runtime.batched import UnbatchedCall

# Directions per batched sweep: as many as keep the largest tangent (inputs' or
# output's elements times the directions) within about this many elements, and at
# least two; the others go in further sweeps, each running the primal again. Tangents
# that stay in the caches and under malloc's mmap threshold (128 KiB) make up for the
# primal run again: on the Brusselator, 3 directions a sweep at 10^4 unknowns cost
# about half of all 11 at once, 2 at 10^5 about 0.6 of all 13 (benchmarks/README.md).
SWEEP_ELEMENTS = 1 << 15


@dataclass
class Inputs:
    """The ``wrt`` arguments' values (as arrays of a float or complex dtype)."""
    arrays: list

    @property
    def size(self):
        return sum(x.size for x in self.arrays)

    @property
    def complex(self):
        return any(x.dtype.kind == "c" for x in self.arrays)

    def split(self, vector, scalar_as_float=True):
        """``vector`` (length ``size``, optionally with trailing axes) cut into one piece
        per argument, each shaped like it (plus the trailing axes)."""
        pieces, start = [], 0
        for x in self.arrays:
            piece = vector[start:start + x.size].reshape(x.shape + vector.shape[1:])
            if scalar_as_float and piece.ndim == 0:
                piece = piece[()]
            pieces.append(piece)
            start += x.size
        return pieces


def wrt_inputs(names, positions, args, kwargs, what):
    """The ``wrt`` arguments (``names``, at ``positions`` among the parameters), each an
    array or a number (not a container), as arrays with a float or complex dtype
    (integers and bools become float64)."""
    arrays = []
    for name, index in zip(names, positions):
        if index < len(args):
            value = args[index]
        elif name in kwargs:
            value = kwargs[name]
        else:
            raise TypeError(f"{what}: argument {name!r} is missing")
        if isinstance(value, (list, tuple, dict)) or not _is_number_like(value):
            raise TypeError(f"{what}: argument {name!r} is a {type(value).__name__}; a sparse "
                            f"Jacobian or Hessian takes arrays or numbers as wrt arguments")
        x = np.asarray(value)
        if x.dtype.kind not in "fc":
            x = x.astype(np.float64)
        arrays.append(x)
    return Inputs(arrays)


def _is_number_like(value):
    return isinstance(value, (np.ndarray, np.generic, int, float, complex)) \
        and np.asarray(value).dtype.kind in "fciub"


def flatten_outputs(value, what):
    """A function's output (an array, a number, or a tuple or list of them) as one
    vector: each item flattened in C order, the items concatenated."""
    items = list(value) if isinstance(value, (tuple, list)) else [value]
    flat = []
    for item in items:
        if not _is_number_like(item):
            raise TypeError(f"{what} needs an output that is an array, a number, or a "
                            f"tuple of them; got a {type(item).__name__}")
        flat.append(np.ravel(np.asarray(item)))
    if not flat:
        return np.zeros(0)
    return np.concatenate(flat)


def forward_columns(f, names, single, args, kwargs, inputs, seeds, rows=0):
    """``B = J @ seeds`` (``m x k``) and the flattened value (``rows``: ``m``, as the
    pattern says, for the size of the batched sweeps)."""
    batched = None if kwargs else _batched(f, names, args, inputs, seeds, rows)
    if batched is not None:
        return batched
    from srcgrad.api.higher import jvp

    jvp_fn = jvp(f, names[0] if single else names)
    columns, value = [], None
    for k in range(seeds.shape[1]):
        tangents = inputs.split(seeds[:, k])
        value, tangent = jvp_fn(*args, tangents[0] if single else tuple(tangents), **kwargs)
        columns.append(flatten_outputs(core.restructure(tangent, value), "sg.jacobian"))
    flat = flatten_outputs(value, "sg.jacobian")
    return flat, _stack(columns, flat.size, axis=1)


def _batched(f, names, args, inputs, seeds, rows):
    """One batched forward sweep per chunk of columns, or None where the function has
    no batched form (or its output is not one array)."""
    from srcgrad.api.batched_columns import _run
    from srcgrad.api.higher import _primals
    from srcgrad.compiler.forward_batched import batched_forward_unit

    # (``names`` are named parameters holding arrays or numbers: never ``*args``,
    # which ``wrt_inputs`` refuses as a tuple)
    fn, bound = api._target(f)
    unit = batched_forward_unit(fn, tuple(names))
    if unit is None:
        return None
    primals = _primals(bound, args)
    k = seeds.shape[1]
    step = max(2, SWEEP_ELEMENTS // max(1, inputs.size, rows))
    blocks, value = [], None
    for start in range(0, k, step):
        tangents = inputs.split(seeds[:, start:start + step], scalar_as_float=False)
        try:
            value, out = _run(unit, primals, tangents)
        except UnbatchedCall:   # a call through a value without a batched form
            return None
        width = min(step, k - start)
        if isinstance(value, (tuple, list, bool)) or not _is_number_like(value) \
                or np.shape(out) != np.shape(value) + (width,):
            return None
        blocks.append(np.reshape(out, (np.size(value), width)))
    flat = np.ravel(np.asarray(value))
    return flat, np.concatenate(blocks, axis=1) if len(blocks) > 1 else blocks[0]


def reverse_rows(f, names, single, args, kwargs, seeds, inputs=None):
    """``B = seeds.T @ J`` (``k x n``) and the flattened value: one forward sweep, then
    the batched backward sweep with a cotangent per column of ``seeds`` (in chunks as
    ``_batched``'s), or, where it has no batched form, one backward sweep per column."""
    if not kwargs and inputs is not None:
        found = _batched_rows(f, names, args, inputs, seeds)
        if found is not None:
            return found
    value, backward = api.vjp(f, names[0] if single else names)(*args, **kwargs)
    flat = flatten_outputs(value, "sg.jacobian")
    rows = []
    for k in range(seeds.shape[1]):
        cotangent = _like_output(value, seeds[:, k])
        grads = backward(cotangent)
        rows.append(np.concatenate([np.ravel(g) for g in ((grads,) if single else grads)])
                    if names else np.zeros(0))
    return flat, _stack(rows, 0, axis=0)


def _batched_rows(f, names, args, inputs, seeds):
    """``(flat value, seeds.T @ J)`` by ``compiler.reverse_batched``'s backward sweep,
    or None (no batched form; an output that is not one array or number)."""
    from srcgrad.api.batched_rows import RowsPlan
    from srcgrad.api.higher import _primals

    plan = RowsPlan(f, names)
    unit = plan.unit()
    if unit is None:
        return None
    value, saved = unit.forward(*_primals(plan.bound, args))
    check_output(value, unit.fn)
    if isinstance(value, (tuple, list, bool)) or not _is_number_like(value):
        return None
    k, shape = seeds.shape[1], np.shape(value)
    step = max(2, SWEEP_ELEMENTS // max(1, inputs.size, np.size(value)))
    blocks = []
    for start in range(0, k, step):
        width = min(step, k - start)
        cotangents = np.ascontiguousarray(seeds[:, start:start + width]).reshape(
            shape + (width,))
        try:
            grads = unit.backward(saved, cotangents)
        except UnbatchedCall:   # a step through a value with no batched form
            return None
        rows = []
        for grad, x in zip(grads, inputs.arrays):
            grad = np.asarray(grad)
            if grad.shape != x.shape + (width,):
                return None
            rows.append(grad.reshape(x.size, width))
        blocks.append(np.concatenate(rows, axis=0).T)
    return np.ravel(np.asarray(value)), np.concatenate(blocks, axis=0)


def _like_output(value, vector):
    """``vector`` shaped as the output (a tuple for a tuple; a float for a number)."""
    items = list(value) if isinstance(value, (tuple, list)) else [value]
    pieces, start = [], 0
    for item in items:
        size = np.size(item)
        piece = vector[start:start + size].reshape(np.shape(item))
        pieces.append(piece if piece.ndim else float(piece))
        start += size
    if isinstance(value, (tuple, list)):
        return type(value)(pieces) if isinstance(value, list) else tuple(pieces)
    return pieces[0]


def hessian_columns(f, names, single, args, kwargs, inputs, seeds):
    """``B = H @ seeds`` (``n x k``): for one ``wrt`` argument, ``api.batched_hvp``'s
    products with a block of vectors (batched forward, or reverse, over the generated
    gradient; in chunks as ``_batched``'s); else one Hessian-vector product per column."""
    from srcgrad.api.higher import hvp

    if single and not kwargs:
        block = inputs.split(seeds, scalar_as_float=False)[0]
        chunk = max(2, SWEEP_ELEMENTS // max(1, inputs.size))
        product = _hvp_block(f, names[0], chunk)(*args, block)
        return np.reshape(product, (inputs.size, seeds.shape[1]))
    hvp_fn = hvp(f, names[0] if single else names)
    columns = []
    for k in range(seeds.shape[1]):
        vectors = inputs.split(seeds[:, k])
        product = hvp_fn(*args, vectors[0] if single else tuple(vectors), **kwargs)
        columns.append(np.concatenate([np.ravel(p) for p in
                                       ((product,) if single else product)]))
    return _stack(columns, inputs.size, axis=1)


@functools.lru_cache(maxsize=32)
def _hvp_block(f, name, chunk):
    from srcgrad.api.batched_hvp import hvp_block

    return hvp_block(f, name, chunk=chunk)


def _stack(vectors, size, axis):
    if not vectors:
        return np.zeros((size, 0) if axis == 1 else (0, size))
    return np.stack(vectors, axis=axis)
