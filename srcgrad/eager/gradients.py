"""What ``GradientTape.gradient`` and ``jacobian`` do with recorded values: the direct
answer for a pending compiled call, seeds, and the final shaping of each gradient.

For example ``_final(np.float64(2.0), variable_of_shape_3, ...)`` gives
``array([2., 2., 2.])``: a gradient always has its source's shape."""

from __future__ import annotations

import enum
import operator

import numpy as np

from srcgrad.eager import structure
from srcgrad.eager.variables import Tensor, _as_value
from srcgrad.errors import GradientError
from srcgrad.runtime import in_dtype_of, zeros_like
from srcgrad.runtime.variables import VariableBase
from srcgrad.runtime.wrt_values import check_shaped_like


class UnconnectedGradients(enum.Enum):
    NONE = "none"
    ZERO = "zero"


_NONE = UnconnectedGradients.NONE
_TRACKED = (Tensor, VariableBase)
_shape = operator.attrgetter("shape")


def _direct_gradients(pending, sources, zero, persistent):
    """The gradients of a tape holding only ``pending``, one call of a compiled function
    whose result is the target, w.r.t. Variables it read: its generated backward, run
    straight from the saved values, with no sweep. None when a source is anything else
    (the general sweep then answers)."""
    variables = pending.read
    if type(sources) is list and structure.same(sources, variables):   # the usual case
        flat, picks = sources, None
    else:
        flat = structure.flatten(sources)
        position = {variable: i for i, variable in enumerate(variables)}
        picks = [position.get(s) if isinstance(s, VariableBase) else None for s in flat]
        if None in picks:
            return None
    saved = fresh(pending.saved) if persistent else pending.saved
    value = pending.result._value
    grads = pending.backward(saved, 1.0 if type(value) is np.float64 else _ones(value))[1]
    shapes = pending.plan.shapes
    if picks is not None:
        grads = [grads[i] for i in picks]
        shapes = [shapes[i] for i in picks]
    try:   # the usual case: each gradient an array or NumPy scalar shaped as its source
        shaped = list(map(_shape, grads)) == shapes
    except AttributeError:   # (a None or a Python number)
        shaped = False
    grads = list(grads) if shaped else \
        [_final(grad, source, zero, False) for source, grad in zip(flat, grads)]
    return grads if flat is sources else structure.rebuild(sources, grads)


def _output_cotangents(outputs, cotangents):
    """The cotangents of a node's outputs (zeros for those without one), or None when
    no output has one."""
    gs = [cotangents.get(out) for out in outputs]
    if all(g is None for g in gs):
        return None
    return [zeros_like(out._value) if g is None else g for g, out in zip(gs, outputs)]


def _unconnected_mode(value):
    if value is _NONE:
        return False
    text = value.value if isinstance(value, UnconnectedGradients) else value
    if text not in ("none", "zero"):
        raise ValueError(f"Unknown value for unconnected_gradients: {value!r}")
    return text == "zero"


def _targets(target):
    if target is None:
        raise TypeError("Argument `target` should be a list or nested structure of Tensors, "
                        "Variables or CompositeTensors to be differentiated, but received "
                        "None.")
    return structure.flatten(target)


def _seeds(targets, output_gradients):
    """The cotangent of each target: ones, or its output gradient, which must be shaped
    like it (one per target)."""
    if output_gradients is None:
        return [_ones(_as_value(t)) for t in targets]
    flat = structure.flatten(output_gradients)
    if len(flat) != len(targets):
        raise GradientError(f"output_gradients holds {len(flat)} values for "
                            f"{len(targets)} targets: give one per target")
    seeds = []
    for t, g in zip(targets, flat):
        if g is None:
            seeds.append(_ones(_as_value(t)))
            continue
        check_shaped_like(_as_value(g), _as_value(t), "an output gradient",
                          "its target")
        seeds.append(g if isinstance(g, Tensor) else _as_value(g))
    return seeds


def _ones(value):
    if type(value) is np.float64:
        return 1.0   # (as ``runtime.seed``: a Python float keeps the first adjoints cheap)
    if isinstance(value, np.floating):
        return type(value)(1.0)
    return np.ones_like(np.asarray(value, dtype=float))


def _accumulate(cotangents, key, contribution):
    previous = cotangents.get(key)
    cotangents[key] = contribution if previous is None else previous + contribution


def differentiable(value):
    """Is ``value`` (a source's) of a float or complex dtype? TF gives an integer source
    no gradient (None), whatever the target."""
    return np.asarray(value).dtype.kind in "fc"


def _final(grad, source, zero, on_tensors):
    value = source._value if isinstance(source, _TRACKED) else _as_value(source)
    if grad is None or not differentiable(value):
        return zeros_like(value) if zero else None
    if type(grad) is np.ndarray:   # the usual case: an array shaped as its source's value
        if type(value) is np.ndarray and grad.shape == value.shape:
            return in_dtype_of(grad, value)
    elif isinstance(grad, Tensor):
        return grad if on_tensors else grad._value
    shape = np.shape(value)
    if getattr(grad, "shape", ()) != shape:
        grad = np.broadcast_to(grad, shape).copy()
    return in_dtype_of(grad, value)


def _stack_rows(rows, shape, source, zero):
    if all(r is None for r in rows) and not zero:
        return None
    source_shape = np.shape(_as_value(source))
    rows = [np.zeros(source_shape) if r is None else np.asarray(_as_value(r)) for r in rows]
    return np.reshape(np.stack(rows) if rows else np.zeros((0,) + source_shape),
                      tuple(shape) + source_shape)


def fresh(saved):
    """``saved`` with its lists copied: the backward pops its stacks, and a persistent
    tape may run it again."""
    if type(saved) is list:
        return [fresh(item) for item in saved]
    if type(saved) is tuple:
        for item in saved:
            if type(item) is list or type(item) is tuple:
                return tuple(fresh(item) for item in saved)
    return saved
