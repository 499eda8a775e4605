"""The GradientTape's hot path: the usual training step

    with sg.GradientTape() as tape:
        loss = model(x, y)           # a @sg.differentiable function reading Variables
    grads = tape.gradient(loss, params)

creates, enters and leaves the tape, leaves the call pending on it (``record_direct``)
and answers ``gradient`` with the call's generated backward. It runs in C
(``_fast.c``, built by ``pip install``) when that module is there: the interpreter's
glue, not the arithmetic, dominates a step of a small model. This module is the same
hot path in Python, used when the C module is not built or ``SRCGRAD_PURE_PYTHON=1``;
the eager tests run on both. Every case the hot path does not handle returns to the
general code: ``GENERAL`` from ``record_direct``, ``GradientTape._gradient``,
``_CallPlan._record_ran``, ``GradientTape._pop``.
"""

from __future__ import annotations

import os
import threading
import warnings

import numpy as np

from srcgrad.eager.structure import same
from srcgrad.eager.variables import TRACKED_TYPES, Tensor
from srcgrad.runtime.variables import VariableBase

GENERAL = object()   # ``record_direct``: this call needs the general path
_thread_id = threading.get_ident

# thread ident -> the tapes recording on that thread, innermost last; a thread with
# none has no entry, so "is anything recording anywhere" is one truth test. (Each thread
# writes its own entry only; a threading.local costs ~4x as much per read.)
RECORDING: dict[int, list] = {}
# thread ident -> None for the threads whose end ``_ThreadEnd`` watches (see ``arm``)
ARMED: dict[int, None] = {}
_THREAD_STATE = threading.local()


class _ThreadEnd:
    """Kept in a thread's own ``threading.local`` slot, so it is dropped when the thread
    ends: it then takes the thread's entry off ``RECORDING`` (the tapes it left recording
    stop), since a later thread may get the same ident. Tape state cannot outlive its
    thread."""

    __slots__ = ("ident",)

    def __del__(self):
        tapes = RECORDING.pop(self.ident, ())
        ARMED.pop(self.ident, None)
        for tape in tapes:
            tape._recording = False


def arm(ident):
    """Watch for the end of this thread (``ident``) before it first records."""
    end = _ThreadEnd()
    end.ident = ident
    _THREAD_STATE.end = end
    ARMED[ident] = None


class PendingCall:
    """A tape's only node while it is one compiled call (``GradientTape._pending``):
    its plan, its generated backward, the saved values, the Variables read, the result."""

    __slots__ = ("plan", "backward", "saved", "read", "result")


class PlanBase:
    """The fields of a call plan (``eager.calls._CallPlan``) that the hot path reads."""

    __slots__ = ("direct", "_pendable", "_forward", "_backward", "_last", "shapes")


class ImplicitBase:
    """The fields of an implicit-gradient plan (``eager.functions._ImplicitPlan``) that
    ``run_static`` reads: the variant (``eager.static``), the bound ``self`` or None, the
    Variables it read last, their indices in creation order, and those of the trainable
    ones (``_picks``)."""

    __slots__ = ("static", "bound", "_last_variables", "_order", "_picks")


class TapeBase:
    """The state and hot path of a ``GradientTape``."""

    __slots__ = ("_persistent", "_watch_accessed", "_tracked", "_variables", "_nodes",
                 "_pending", "_recording", "_entered", "_used", "_in_jacobian",
                 "__weakref__")

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._persistent = bool(persistent)
        self._watch_accessed = bool(watch_accessed_variables)
        self._tracked = {}      # watched, or produced by a recorded node -> None (a set
        #                         keyed by identity: Tensors and Variables hash so)
        self._variables = {}    # watched Variable -> None (ordered set)
        self._nodes = []
        # The tape's only node, while it is one call of a compiled function that read
        # Variables the tape watches (``record_direct``): a ``PendingCall``, kept
        # unexpanded so that the usual step builds no node and no sets. Anything else
        # first expands it (``GradientTape._expand``).
        self._pending = None
        self._recording = self._entered = self._used = False
        self._in_jacobian = False   # several backward sweeps over the same nodes

    def __enter__(self):
        if self._recording:
            raise ValueError("Tape is still recording, This can happen if you try to "
                             "re-enter an already-active tape.")
        thread = _thread_id()
        if thread not in ARMED:
            arm(thread)
        RECORDING[thread] = RECORDING.get(thread, ()) + (self,)
        self._recording = self._entered = True
        return self

    def __exit__(self, exc_type, exc, traceback):
        if self._recording:
            thread = _thread_id()
            if RECORDING.get(thread) == (self,):   # the usual case
                del RECORDING[thread]
                self._recording = False
            else:
                self._pop()
        return False

    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients="none"):
        """d(sum of the flattened ``target``)/d``sources``, shaped like ``sources``."""
        return self._gradient(target, sources, output_gradients, unconnected_gradients)


def _free(tape):
    """Can ``tape`` take a pending call? (It holds nothing yet.)"""
    return tape._pending is None and not tape._nodes


def record_direct(units, args, kwargs):
    """The usual call of a decorated function (its plans by tracked-argument positions:
    ``units``) under one tape: no argument tracked, the plan's variant reads the Variables
    it read last time, all trainable, and the tape, empty so far, watches accessed
    Variables. Runs the variant's forward and leaves the call pending on the tape; the
    result, or ``GENERAL`` when the call needs the general path."""
    if kwargs:
        return GENERAL
    recording = RECORDING.get(_thread_id(), ())
    if len(recording) != 1:
        return GENERAL
    plan, tape = units.get(()), recording[0]
    if plan is None or not plan.direct or not tape._watch_accessed or not _free(tape) or \
            not TRACKED_TYPES.isdisjoint(map(type, args)):
        return GENERAL
    try:
        ran = plan._forward(*args)
    except AttributeError:   # (the general path decides what it means)
        return GENERAL
    value, saved, read = ran
    if not (same(read, plan._last) and can_pend(plan, tape, value)):
        return plan._record_ran(ran, args, tape)   # the forward has run: record it
    return leave_pending(plan, tape, value, saved, read)


def can_pend(plan, tape, value):
    """Can ``tape`` keep a call of ``plan`` that gave ``value`` pending?"""
    return plan._pendable and _free(tape) and tape._watch_accessed and \
        (type(value) is np.ndarray or isinstance(value, np.generic))


def leave_pending(plan, tape, value, saved, read):
    """Leave the call pending on ``tape``; its result."""
    result = object.__new__(Tensor)   # Tensor(value), without converting an array
    result._value = value
    pending = PendingCall()
    pending.plan, pending.backward, pending.saved = plan, plan._backward, saved
    pending.read, pending.result = read, result
    tape._pending = pending
    return result


def run_static(plan, args, kwargs):
    """Run an implicit plan's variant (it returns the value, the Variables read and
    their cotangents); ``(value, [(gradient, variable), ...])``, or None when the
    general code must answer. (The C twin pairs the usual gradients up itself; here
    ``_static_pairs`` always does.)"""
    variant = plan.static   # (read once: another thread may set it to None)
    if variant is None:
        return None
    function = variant.function
    try:
        if plan.bound is None:
            value, variables, grads = function(*args, **kwargs)
        else:
            value, variables, grads = function(plan.bound, *args, **kwargs)
    except AttributeError as error:
        return plan._static_failed(error)
    return plan._static_pairs(value, variables, grads)


_FAST_VERSION = 2   # the ``VERSION`` of the _fast.c this module goes with


def _compiled():
    if os.environ.get("SRCGRAD_PURE_PYTHON"):
        return None
    try:
        from srcgrad.eager import _fast
    except ImportError:
        return None
    if getattr(_fast, "VERSION", 1) != _FAST_VERSION:
        warnings.warn("srcgrad.eager._fast was built from an older _fast.c; the Python hot "
                      "path runs instead (rebuild: python setup.py build_ext --inplace)",
                      stacklevel=2)
        return None
    _fast.setup(Tensor, VariableBase, TRACKED_TYPES, np.ndarray, np.generic, np.float64,
                ARMED, arm)
    return _fast


_fast = _compiled()
COMPILED = _fast is not None
if COMPILED:
    RECORDING, GENERAL = _fast.RECORDING, _fast.GENERAL
    # The C module's classes of the same interface replace the Python ones.
    PendingCall, PlanBase = _fast.PendingCall, _fast.PlanBase  # type: ignore[misc]
    TapeBase, ImplicitBase = _fast.TapeBase, _fast.ImplicitBase  # type: ignore[misc]
    record_direct, run_static = _fast.record_direct, _fast.run_static
