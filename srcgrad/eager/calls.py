"""A compiled function called while a tape records: ONE tape node whose backward is the
function's generated backward.

``@sg.differentiable`` returns ``tape_aware(fn)``: outside a tape it is ``fn``; under
one it runs the eager unit's generated forward on plain values (collecting the Variables
it reads), wraps the result in Tensors and records a ``CallNode``. With two or more
tapes recording (nested tapes, for higher derivatives) the function runs operation by
operation instead, so the outer tape can record the inner gradient computation.
"""

from __future__ import annotations

import functools
import inspect

from srcgrad import compiler
from srcgrad.eager import tape as tapes
from srcgrad.eager.variables import Tensor
from srcgrad.runtime.variables import COLLECT, VariableBase

_TRACKED = (Tensor, VariableBase)


def tape_aware(fn):
    """``fn``, recorded as one node (running its generated code) inside a GradientTape."""
    units = {}   # positions of the tracked arguments -> eager unit, for this function

    @functools.wraps(fn)
    def differentiable_function(*args, **kwargs):
        recording = tapes._RECORDING.tapes
        if len(recording) != 1:
            return fn(*args, **kwargs)
        return record_call(differentiable_function, units, args, kwargs, recording[0])

    return differentiable_function


def record_call(fn, units, args, kwargs, tape):
    """Call ``fn`` through its generated forward and record one node on ``tape``."""
    if kwargs:
        bound = inspect.signature(fn).bind(*args, **kwargs)
        args, kwargs = bound.args, bound.kwargs
    values, wrt, inputs = args, (), ()
    for arg in args:
        if isinstance(arg, _TRACKED):
            values, wrt, inputs = _tracked_arguments(args, tape)
            break
    unit = units.get(wrt)
    if unit is None:
        names = list(inspect.signature(fn).parameters)
        unit = units[wrt] = compiler.reverse_unit(fn, tuple(names[i] for i in wrt),
                                                  eager=True)
    reads = {}
    saved_reads, COLLECT.reads = COLLECT.reads, reads
    try:
        value, saved = unit.forward(*values, **kwargs)
    finally:
        COLLECT.reads = saved_reads
    variables = tape._accessed(reads) if reads else ()
    if not inputs and not variables:
        return value
    node = CallNode(unit, saved, inputs, variables, value, tape)
    tape.record(node)
    return node.result


def _tracked_arguments(args, tape):
    """(plain values, positions of the arguments ``tape`` tracks, those arguments)."""
    values, wrt, inputs = list(args), [], []
    for i, arg in enumerate(args):
        if isinstance(arg, _TRACKED):
            values[i] = arg._read() if isinstance(arg, VariableBase) else arg._value
            if tape.tracks(arg):
                wrt.append(i)
                inputs.append(arg)
    return values, tuple(wrt), inputs


class CallNode:
    """One call of a compiled function: its backward is the generated backward."""

    __slots__ = ("unit", "saved", "tape", "inputs", "n_arguments", "several", "outputs",
                 "result")

    def __init__(self, unit, saved, arguments, variables, value, tape):
        self.unit, self.saved, self.tape = unit, saved, tape
        self.inputs = (*arguments, *variables)
        self.n_arguments = len(arguments)
        self.several = isinstance(value, (tuple, list))
        if self.several:
            self.outputs = tuple(Tensor(v) for v in value)
            self.result = type(value)(self.outputs)
        else:
            self.result = Tensor(value)
            self.outputs = (self.result,)

    def backward(self, gs, on_tensors):
        g = tuple(_plain(x) for x in gs) if self.several else _plain(gs[0])
        cotangents = {}
        saved_cotangents, COLLECT.cotangents = COLLECT.cotangents, cotangents
        try:
            reused = self.tape._persistent or self.tape._in_jacobian
            grads = self.unit.backward(_fresh(self.saved) if reused else self.saved, g)
        finally:
            COLLECT.cotangents = saved_cotangents
        zero = self.unit.zero_wrt
        out = [None if name in zero else grad for name, grad in zip(self.unit.wrt, grads)]
        out += [cotangents.get(v) for v in self.inputs[self.n_arguments:]]
        return out


def _plain(value):
    return value._value if isinstance(value, _TRACKED) else value


def _fresh(saved):
    """``saved`` with its lists copied: the backward pops its stacks, and a persistent
    tape may run it again."""
    if type(saved) is list:
        return [_fresh(item) for item in saved]
    if type(saved) is tuple:
        return tuple(_fresh(item) for item in saved)
    return saved
