"""``GradientTape.jacobian``: all the rows of a Jacobian in one backward sweep of the
tape (per chunk of rows), each cotangent carrying a trailing axis of rows as in batched
reverse mode (``modes.reverse_batched``, ``runtime.batched_reverse``).

Each kind of node takes the block of cotangents its own way:

- a NumPy operation (``eager.ops.OpNode``): its rule row's adjoint, rewritten for a block
  of cotangents by the batched reverse mode's rewriter and compiled once per row and
  inputs, e.g. ``_sg.unbroadcast(g * y, x)`` -> ``_sg.batch_unbroadcast(g *
  _sg.lifted(y), x)``;
- indexing (``IndexNode``): ``batch_add_at`` into batched zeros;
- a compiled function's call (``eager.calls.CallNode``): its generated backward sweep,
  rewritten the same way, run once on the saved values of the call;
- anything else, or a step that meets a value with no batched form as it runs: its
  one-row backward once per row (``map_rows``), which is right for every node since a
  backward sweep is linear in its cotangents.

A contribution that comes back without the rows' axis (never, for the rewritten code)
sends the whole Jacobian to the one-sweep-per-row loop (``UnbatchedCall``), as does a
sweep under another recording tape (its backward then runs on Tensors, so that the outer
tape records it).
"""

from __future__ import annotations

import math
import re
import threading

import numpy as np

from srcgrad import runtime
from srcgrad.api import vararg_wrt
from srcgrad.api.batched_rows import CHUNK_ELEMENTS
from srcgrad.codegen import loader
from srcgrad.compiler.batched_backward import batched_backward, batched_source
from srcgrad.eager import calls, ops
from srcgrad.eager.gradients import differentiable, fresh
from srcgrad.eager.variables import Tensor, _as_value
from srcgrad.modes.reverse_batched import ROWS
from srcgrad.runtime import batch_add_at, batch_zeros_like, in_dtype_of, map_rows
from srcgrad.runtime.batched import UnbatchedCall
from srcgrad.runtime.variables import VariableBase

_TRACKED = (Tensor, VariableBase)
_LOCK = threading.Lock()
_OP_ADJOINTS: dict[tuple, object] = {}   # (rule name, params) -> batched adjoint or None


def jacobian_blocks(tape, target, sources, batch=False):
    """One ``target.shape + source.shape`` array per source (None where no cotangent
    reaches the source: unconnected, unwatched or not a float); raises
    ``UnbatchedCall`` where the batched sweep cannot answer. ``batch``
    (``batch_jacobian``): a row is an element of the target's first row taken in every
    row of the batch at once, and the arrays are shaped ``target.shape[1:] +
    source.shape``."""
    value = _as_value(target)
    shape = np.shape(value)
    lead, rest = (shape[:1], shape[1:]) if batch else ((), shape)
    size = math.prod(rest)
    values = [_as_value(source) for source in sources]
    blocks = [None] * len(sources)
    if not (isinstance(target, _TRACKED) and target in tape._tracked):
        return blocks
    largest = max((np.size(v) for v in values), default=1)
    chunk = max(1, CHUNK_ELEMENTS // max(1, math.prod(shape) + largest))
    for start in range(0, size, chunk):
        rows = min(chunk, size - start)
        seed = np.zeros(lead + (size, rows))
        seed[..., np.arange(start, start + rows), np.arange(rows)] = 1.0
        grads = batched_sweep(tape, target, seed.reshape(shape + (rows,)), sources, rows)
        for i, (grad, source_value) in enumerate(zip(grads, values)):
            if grad is None or not differentiable(source_value):
                continue
            grad = _rows_last(grad, np.shape(source_value), rows)
            grad = in_dtype_of(grad, np.asarray(source_value))
            if blocks[i] is None:
                blocks[i] = np.zeros((size,) + np.shape(source_value), dtype=grad.dtype)
            elif blocks[i].dtype != np.result_type(blocks[i], grad):
                blocks[i] = blocks[i].astype(np.result_type(blocks[i], grad))
            blocks[i][start:start + rows] = np.moveaxis(grad, -1, 0)
    return [None if block is None else block.reshape(rest + block.shape[1:])
            for block in blocks]


def _rows_last(grad, shape, rows):
    """A source's batched cotangent as an array shaped ``shape + (rows,)``."""
    grad = np.asarray(grad)
    if grad.ndim == 0 or grad.shape[-1] != rows:
        raise UnbatchedCall("a source's cotangent without the rows' axis")
    if grad.shape != tuple(shape) + (rows,):
        grad = np.broadcast_to(grad, tuple(shape) + (rows,))
    return grad


def batched_sweep(tape, target, seed, sources, rows):
    """The tape's backward sweep from ``target``'s block of cotangents ``seed``: each
    source's batched cotangent (or None)."""
    cotangents = {target: seed}
    get = cotangents.get
    for node in reversed(tape._nodes):
        outputs = node.outputs
        if len(outputs) == 1:
            g = get(outputs[0])
            if g is None:
                continue
            gs = [g]
        else:
            gs = [get(out) for out in outputs]
            if all(g is None for g in gs):
                continue
            gs = [batch_zeros_like(np.asarray(out._value), rows) if g is None else g
                  for g, out in zip(gs, outputs)]
        for obj, contribution in zip(node.inputs, node_backward(node, gs, rows)):
            if contribution is None or not _has_rows(contribution, rows):
                continue
            previous = get(obj)
            cotangents[obj] = contribution if previous is None else previous + contribution
    return [get(source) if isinstance(source, _TRACKED) else None for source in sources]


def _has_rows(contribution, rows):
    """Does a contribution carry the rows' axis? (A zero without it is dropped; anything
    else without it cannot be read row by row.)"""
    if np.shape(contribution)[-1:] == (rows,):
        return True
    if isinstance(contribution, (np.ndarray, np.generic, float, int, complex)) \
            and not np.any(contribution):
        return False
    raise UnbatchedCall(f"a contribution of a {type(contribution).__name__} without the "
                        "rows' axis")


def node_backward(node, gs, rows):
    """A node's contributions to its inputs' cotangents, for a block of ``rows``."""
    kind = type(node)
    try:
        if kind is ops.OpNode:
            adjoint = op_adjoint(node.rule, tuple(sorted({p for p, _, _ in node.slots})))
            if adjoint is not None:
                return _op_contributions(node, adjoint, gs[0])
        elif kind is ops.IndexNode:
            dx = batch_zeros_like(np.asarray(node.inputs[0]._value), rows)
            return [batch_add_at(dx, node.index, gs[0])]
        elif kind is calls.CallNode:
            backward = call_backward(node)
            if backward is not None:
                return _call_contributions(node, backward, gs)
    except UnbatchedCall:   # a value met as it ran with no batched form: row by row
        pass
    return map_rows(lambda *row: node.backward(list(row), False), *gs)


# -- NumPy operations --------------------------------------------------------------------
def op_adjoint(rule, params):
    """The batched form of a rule row's adjoint for ``params`` (compiled once), or None
    where the rewriter refuses it."""
    key = (rule.name, params)
    with _LOCK:
        if key not in _OP_ADJOINTS:
            _OP_ADJOINTS[key] = _compile_op_adjoint(rule, params)
        return _OP_ADJOINTS[key]


def _compile_op_adjoint(rule, params):
    one_row = ops.rule_adjoint(rule, params)
    if ROWS in rule.params:
        return None
    name = re.sub(r"\W", "_", rule.name.split(".")[-1]) + "_adjoint_batched"
    source = batched_source(one_row.source, name, "g")
    if source is None:
        return None
    namespace = {"np": np, "math": math, "_sg": runtime}
    loader.load(source, f"{rule.name} batched adjoint", namespace)
    function = namespace[name]
    function.source = source
    return function


def _op_contributions(node, adjoint, g):
    ans = node.outputs[0]._value
    params = tuple(sorted({param for param, _, _ in node.slots}))
    contributions = dict(zip(params, adjoint(g, ans, **node.values)))
    return [contributions[param] if index is None else contributions[param][index]
            for param, index, _ in node.slots]


# -- calls of compiled functions ---------------------------------------------------------
def call_backward(node):
    """The batched form of a recorded call's generated backward (compiled once per
    backward), or None: none, or a backward that hands the Variables' cotangents to a
    collector (its variant without one returns them)."""
    if node.variant_backward is None and len(node.inputs) > node.n_arguments:
        return None
    return batched_backward(node.variant_backward or node.unit.backward)


def _call_contributions(node, backward, gs):
    g = tuple(gs) if node.several else gs[0]
    saved = fresh(node.saved)   # (the backward pops its stacks; the tape keeps them)
    unit, n = node.unit, node.n_arguments
    if node.variant_backward is None:
        grads, variables = backward(saved, g), []
    else:
        grads, variables = backward(saved, g)
        if node.picks is not None:
            variables = [variables[i] for i in node.picks]
    out = vararg_wrt.spread_gradients(
        [None if name in unit.zero_wrt else grad for name, grad in zip(unit.wrt, grads)],
        node.spread) if n else []
    return out + list(variables)
