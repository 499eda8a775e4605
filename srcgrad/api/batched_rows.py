"""A Jacobian's reverse-mode rows in one backward sweep per chunk of rows: one forward
sweep, then the batched backward sweep (``compiler.reverse_batched``) takes a block of
cotangents (each with a trailing axis, one Jacobian row each) and returns the inputs'
cotangents for all of them, which fill the Jacobian's blocks a slice of rows at a time.

Only for ``wrt`` arguments that are arrays (not containers) and an output that is one
array or number; anything else, or a function whose backward sweep has no batched form,
gets None here and the caller's one-backward-sweep-per-row loop.
"""

from __future__ import annotations

import numpy as np

from srcgrad.api import functional as api
from srcgrad.errors import check_output
from srcgrad.runtime.batched import UnbatchedCall

# Cotangents of at most about this many elements (the inputs' and the output's size
# times the rows) per sweep: a larger Jacobian runs in chunks of rows.
CHUNK_ELEMENTS = 1 << 21


class BatchedRows:
    """One forward sweep's value, and the Jacobian's rows from batched backward sweeps."""

    def __init__(self, unit, value, saved, inputs):
        self.unit, self.value, self.saved, self.inputs = unit, value, saved, inputs

    def chunk(self):
        """Rows per backward sweep."""
        largest = max((x.size for x in self.inputs), default=1)
        return max(1, CHUNK_ELEMENTS // max(1, np.size(self.value) + largest))

    def fill(self, blocks):
        """Write every row into ``blocks`` (``[[output shape + input shape]]``); False
        when a step met at run time has no batched form (nothing usable written)."""
        value = self.value
        size = np.size(value)
        chunk = min(size, self.chunk())
        flats = [block.reshape(size, x.size) for block, x in zip(blocks[0], self.inputs)]
        for start in range(0, size, max(chunk, 1)):
            rows = min(chunk, size - start)
            seed = np.zeros((size, rows))   # (real, as the one-row basis vectors)
            seed[np.arange(start, start + rows), np.arange(rows)] = 1.0
            try:
                grads = self.unit.backward(self.saved, seed.reshape(np.shape(value) + (rows,)))
            except UnbatchedCall:   # a step through a value with no batched form
                return False
            for flat, grad, x in zip(flats, grads, self.inputs):
                grad = np.asarray(grad)
                if grad.shape != x.shape + (rows,):
                    return False
                flat[start:start + rows] = grad.reshape(x.size, rows).T
        return True


class RowsPlan:
    """What a Jacobian finds once about its function: the function to generate from,
    its bound ``self`` (a method), and whether the batched sweep can serve it at all."""

    def __init__(self, f, names):
        self.fn, self.bound = api._target(f)
        self.names = tuple(names)
        self.usable = api.into_varargs(f, names) is None

    def unit(self):
        """The batched reverse unit, or None."""
        from srcgrad.compiler.reverse_batched import batched_reverse_unit

        return batched_reverse_unit(self.fn, self.names) if self.usable else None


def batched_rows(plan, args, inputs):
    """A ``BatchedRows`` (its forward sweep run) or None."""
    if not plan.usable or not all(type(x) is np.ndarray for x in inputs):
        return None
    unit = plan.unit()
    if unit is None:
        return None
    value, saved = unit.forward(*(args if plan.bound is None else (plan.bound,) + tuple(args)))
    check_output(value, unit.fn)
    if not isinstance(value, (np.ndarray, np.generic, float, int, complex)) \
            or isinstance(value, bool):
        return None
    return BatchedRows(unit, value, saved, inputs)
