"""Dense derivatives as one matrix (output elements x wrt elements), and a pattern
finder of the tests' own for ``srcgrad.api.sparse``'s bookkeeping: the pattern at the
point, read from the dense derivative's nonzeros."""

import types
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

import srcgrad as sg


@dataclass(frozen=True)
class Pattern:
    matrix: object
    scope: str
    reasons: tuple


def dense_matrix(blocks, outputs, inputs, wrt_tuple):
    """A dense ``sg.jacobian`` result as one (output elements x input elements) matrix."""
    outs = blocks if isinstance(outputs, tuple) else (blocks,)
    outputs = outputs if isinstance(outputs, tuple) else (outputs,)
    rows = []
    for out, block in zip(outputs, outs):
        parts = block if wrt_tuple else (block,)
        rows.append(np.concatenate([np.reshape(b, (np.size(out), np.size(x)))
                                    for b, x in zip(parts, inputs)], axis=1))
    return np.concatenate(rows, axis=0)


def dense_hessian(blocks, inputs, wrt_tuple):
    if not wrt_tuple:
        return np.reshape(blocks, (np.size(inputs[0]),) * 2)
    return np.block([[np.reshape(b, (np.size(inputs[i]), np.size(inputs[j])))
                      for j, b in enumerate(row)] for i, row in enumerate(blocks)])


def _inputs(f, wrt, args):
    import inspect
    params = list(inspect.signature(f).parameters)
    items = (wrt,) if isinstance(wrt, (str, int)) else wrt
    return [np.asarray(args[w if isinstance(w, int) else params.index(w)]) for w in items]


def jacobian_pattern(f, wrt, args, kwargs):
    value = f(*args, **kwargs)
    dense = dense_matrix(sg.jacobian(f, wrt)(*args, **kwargs), value, _inputs(f, wrt, args),
                         not isinstance(wrt, (str, int)))
    return Pattern(sp.csr_array(dense != 0), "local", ("the dense Jacobian at the point",))


def hessian_pattern(f, wrt, args, kwargs):
    dense = dense_hessian(sg.hessian(f, wrt)(*args, **kwargs), _inputs(f, wrt, args),
                          not isinstance(wrt, (str, int)))
    return Pattern(sp.csr_array((dense != 0) | (dense.T != 0)), "local",
                   ("the dense Hessian at the point",))


def module():
    made = types.ModuleType("srcgrad.sparse.pattern")
    made.Pattern, made.jacobian_pattern, made.hessian_pattern = \
        Pattern, jacobian_pattern, hessian_pattern
    return made
