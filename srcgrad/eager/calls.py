"""A compiled function called while a tape records: ONE tape node whose backward is the
function's generated backward.

``@sg.differentiable`` returns ``tape_aware(fn)``: outside a tape it is ``fn``; under
one it runs the eager unit's generated forward on plain values (collecting the Variables
it reads; or, when they are plain names, the variant of ``eager.static`` that returns
them and, in its backward, their cotangents), wraps the result in Tensors and records a
``CallNode``. The usual call (no argument tracked, one tape watching the Variables it
reads) takes ``fastpath.record_direct`` instead and is left pending on the tape. With two
or more tapes recording (nested tapes, for higher derivatives) the function runs
operation by operation instead, so the outer tape can record the inner gradient
computation.
"""

from __future__ import annotations

import functools

import numpy as np

from srcgrad.api import vararg_wrt
from srcgrad.compiler import reverse as compiler
from srcgrad.eager import static
from srcgrad.eager.fastpath import (
    GENERAL,
    RECORDING,
    PlanBase,
    can_pend,
    leave_pending,
    record_direct,
)
from srcgrad.eager.gradients import differentiable, fresh
from srcgrad.eager.structure import same
from srcgrad.eager.tape import recording_tapes
from srcgrad.eager.variables import TRACKED_TYPES, Tensor
from srcgrad.errors import SrcgradError
from srcgrad.frontend.freshness import own_signature, own_wrapper
from srcgrad.runtime.variables import COLLECT, StaleVariant, VariableBase

_TRACKED = (Tensor, VariableBase)
_new = object.__new__


def tape_aware(fn):
    """``fn``, recorded as one node (running its generated code) inside a GradientTape;
    outside any tape, its generated forward (see ``_call_outside_tapes``)."""
    units = {}   # positions of the tracked arguments -> eager unit, for this function

    @functools.wraps(fn)
    def differentiable_function(*args, **kwargs):
        if not RECORDING:
            return _call_outside_tapes(differentiable_function, fn, units, args, kwargs)
        result = record_direct(units, args, kwargs)   # the usual call (eager.fastpath)
        if result is GENERAL:
            return _call_under_tape(differentiable_function, fn, units, args, kwargs)
        return result

    return own_wrapper(differentiable_function)   # the same function: parsed as ``fn``


_PLAIN = object()   # ``units[_PLAIN]``: outside tapes, run ``fn`` itself


def _call_outside_tapes(wrapper, fn, units, args, kwargs):
    """A call with no tape recording on this thread. ``fn`` on Variables runs operation
    by operation through Tensors: once a call gave Tensors, the eager unit's generated
    forward runs instead, on plain values, and the result is what a call under a tape
    returns (Tensors when the call read Variables, else the plain value). ``fn`` runs
    with tracked arguments or keywords, when it gave no Tensors (it reads no Variables:
    nothing to gain) or when its unit does not compile."""
    plan = units.get(())
    if plan is None or kwargs or not TRACKED_TYPES.isdisjoint(map(type, args)):
        result = fn(*args, **kwargs)
        if plan is None and _PLAIN not in units:
            _plan_after(wrapper, units, result)
        return result
    value, _, read = plan.forward(args, {})
    return _as_tensors(value) if read else value


def _plan_after(wrapper, units, result):
    """After the first call outside tapes: the plan when ``result`` holds Tensors."""
    leaves = result if isinstance(result, (tuple, list)) else (result,)
    if not any(isinstance(leaf, _TRACKED) for leaf in leaves):
        units[_PLAIN] = True
        return
    try:
        units[()] = _CallPlan(wrapper, ())
    except SrcgradError:   # (under a tape the same error is raised again)
        units[_PLAIN] = True


def _as_tensors(value):
    """``value`` as a recorded call's result: Tensors for an array or a number (each item
    of a tuple or list of them); anything else as it is."""
    if type(value) is np.ndarray or isinstance(value, (np.generic, float, int, complex)):
        result = _new(Tensor)
        result._value = value if type(value) is np.ndarray else np.asarray(value)[()]
        return result
    if isinstance(value, (tuple, list)) and not hasattr(value, "_fields"):
        return type(value)(_as_tensors(v) for v in value)
    return value


def _call_under_tape(wrapper, fn, units, args, kwargs):
    """A call of the decorated ``wrapper`` (of ``fn``) that ``record_direct`` left to the
    general path: with one tape recording on this thread, recorded as one node."""
    recording = recording_tapes()
    if not recording:   # (another thread records)
        return _call_outside_tapes(wrapper, fn, units, args, kwargs)
    if len(recording) != 1:
        return fn(*args, **kwargs)
    if () not in units and not kwargs and TRACKED_TYPES.isdisjoint(map(type, args)):
        units[()] = _CallPlan(wrapper, ())   # the first usual call: make its plan
        result = record_direct(units, args, kwargs)
        if result is not GENERAL:
            return result
    return record_call(wrapper, units, args, kwargs, recording[0])


def record_call(fn, units, args, kwargs, tape):
    """Call ``fn`` through its generated forward and record one node on ``tape``."""
    if kwargs:
        bound = own_signature(fn).bind(*args, **kwargs)
        args, kwargs = bound.args, bound.kwargs
    values, wrt, inputs = args, (), ()
    for arg in args:
        if isinstance(arg, _TRACKED):
            values, wrt, inputs = _tracked_arguments(args, tape)
            break
    plan = units.get(wrt)
    if plan is None:
        plan = units[wrt] = _CallPlan(fn, wrt)
    value, saved, read = plan.forward(values, kwargs)
    return _finish_record(plan, value, saved, read, inputs, tape)


def _finish_record(plan, value, saved, read, inputs, tape):
    """Record the node of a call that has run (its forward gave ``value``, ``saved``
    and the Variables ``read``); the call's result."""
    variables = tape._accessed(read) if read else ()
    if (not inputs and not variables) or value is None:   # (None: nothing to differentiate)
        return value
    picks = None if len(variables) == len(read) or plan.variant is None else \
        [i for i, v in enumerate(read) if tape.tracks(v)]
    node = CallNode(plan, saved, inputs, variables, value, tape, picks)
    tape.record(node)
    return node.result


class _CallPlan(PlanBase):
    """A compiled function's eager unit for one set of tracked arguments, and its
    variant without the read registry (``eager.static``) when there is one."""

    __slots__ = ("unit", "variant", "spread")

    def __init__(self, fn, wrt):
        names, self.spread = vararg_wrt.position_names(fn, wrt)   # *args items too
        self.unit = compiler.reverse_unit(fn, names, eager=True)
        self.variant = static.split_variant(self.unit)
        # calls with no tracked argument may take ``fastpath.record_direct``
        self.direct = not wrt and self.variant is not None
        if self.variant is not None:
            self._forward = self.variant.functions["forward"]
            self._backward = self.variant.functions["backward"]
        self._remember(())

    def _remember(self, read):
        """Keep what ``record_direct`` needs about the Variables the variant read."""
        self._last = tuple(read)   # the Variables the variant last read, which a call
        # may leave pending when each is read under one name and all are trainable floats
        self._pendable = len(set(map(id, read))) == len(read) and \
            all(v._trainable and differentiable(v._value) for v in read)
        self.shapes = [np.shape(v._value) for v in read]   # (fixed: see Variable.assign)

    def _record_ran(self, ran, args, tape):
        """Record a call whose variant forward ``record_direct`` ran (``ran``: value,
        saved values, Variables read) but could not leave pending; the call's result."""
        checked = self._checked(ran)
        if checked is None:
            value, saved, read = self.forward(args, {})   # the general forward
        else:
            value, saved, read = checked
            if can_pend(self, tape, value):   # (it reads other Variables now)
                return leave_pending(self, tape, value, saved, read)
        return _finish_record(self, value, saved, read, (), tape)

    def _variant_forward(self, values, kwargs):
        """``(value, saved, Variables read)`` from the variant; None, and the general
        code from now on, when it cannot answer (a name it reads holds no Variable now)."""
        variant = self.variant   # (read once: another thread may give it up)
        if variant is None:
            return None
        try:
            ran = variant.functions["forward"](*values, **kwargs)
        except AttributeError as error:
            if variant.holds_variables() and not isinstance(error, StaleVariant):
                raise
            self.variant, self.direct = None, False
            return None
        return self._checked(ran)

    def _checked(self, ran):
        """``ran`` when the names the variant read held Variables (remembered when they
        are others than last time); else None, and the general code from now on."""
        read = ran[2]
        if same(read, self._last):
            return ran
        if all(isinstance(v, VariableBase) for v in read):
            self._remember(read)
            return ran
        self.variant, self.direct = None, False
        return None

    def node(self, pending, tape):
        """The ``CallNode`` of the call ``record_direct`` left ``pending``."""
        node = _new(CallNode)
        node.unit, node.variant_backward, node.saved = self.unit, pending.backward, \
            pending.saved
        node.inputs, node.n_arguments, node.picks, node.several = pending.read, 0, None, False
        node.result, node.outputs, node.tape = pending.result, (pending.result,), tape
        return node

    def forward(self, values, kwargs):
        """``(value, saved, Variables read)``: through the variant, or the general
        forward with the read collector."""
        if self.variant is not None:
            ran = self._variant_forward(values, kwargs)
            if ran is not None:
                return ran
        reads = {}
        saved_reads, COLLECT.reads = COLLECT.reads, reads
        try:
            value, saved = self.unit.forward(*values, **kwargs)
        finally:
            COLLECT.reads = saved_reads
        return value, saved, list(reads)


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

    __slots__ = ("unit", "variant_backward", "saved", "tape", "inputs", "n_arguments", "picks",
                 "several", "outputs", "result", "spread")

    def __init__(self, plan, saved, arguments, variables, value, tape, picks=None):
        self.unit, self.saved, self.tape, self.picks = plan.unit, saved, tape, picks
        self.spread = plan.spread
        # the generated backward: the variant's, or None for the unit's (``_collecting``)
        variant = plan.variant
        self.variant_backward = None if variant is None else variant.functions["backward"]
        self.inputs = (*arguments, *variables)
        self.n_arguments = len(arguments)
        self.several = isinstance(value, (tuple, list))
        if self.several:
            self.outputs = tuple(Tensor(v) for v in value)
            self.result = type(value)(self.outputs)
        elif type(value) is np.ndarray or isinstance(value, np.generic):
            self.result = _new(Tensor)   # Tensor(value), without converting an array
            self.result._value = value
            self.outputs = (self.result,)
        else:
            self.result = Tensor(value)
            self.outputs = (self.result,)

    def backward(self, gs, on_tensors):
        if self.several:
            g = tuple(_plain(x) for x in gs)
        else:
            g = gs[0]._value if isinstance(gs[0], _TRACKED) else gs[0]
        saved = self.saved
        if self.tape._persistent or self.tape._in_jacobian:
            saved = fresh(saved)
        unit, n = self.unit, self.n_arguments
        if self.variant_backward is None:
            grads, variables = _collecting_backward(unit.backward, saved, g,
                                                    self.inputs[n:])
        else:
            grads, variables = self.variant_backward(saved, g)
            if self.picks is not None:
                variables = [variables[i] for i in self.picks]
        out = vararg_wrt.spread_gradients(
            [None if name in unit.zero_wrt else grad for name, grad in zip(unit.wrt, grads)],
            self.spread) if n else []
        out += variables
        return out


def _collecting_backward(backward, saved, g, variables):
    """The general backward: the Variables' cotangents come through the collector."""
    cotangents = {}
    saved_cotangents, COLLECT.cotangents = COLLECT.cotangents, cotangents
    try:
        grads = backward(saved, g)
    finally:
        COLLECT.cotangents = saved_cotangents
    return grads, [cotangents.get(v) for v in variables]


def _plain(value):
    return value._value if isinstance(value, _TRACKED) else value
