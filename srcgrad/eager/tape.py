"""``GradientTape``: records operations on watched values, then runs them backwards.

A node on the tape is either ONE call of a compiled function (its backward is the
generated backward, see ``eager.calls``) or one NumPy operation written directly in the
``with`` block (its backward compiled from the rule table, see ``eager.ops``). Tapes are
per thread. While another tape records, ``gradient`` runs the backward on ``Tensor``s so
that the outer tape records it: nested tapes give higher derivatives of per-operation
code. A tape holding one call whose result is the target, differentiated w.r.t.
Variables the call read, skips the sweep: in C for the usual step (``eager.fastpath``),
else ``_direct_gradients``.
"""

from __future__ import annotations

import contextlib
import warnings

import numpy as np

from srcgrad.eager import structure
from srcgrad.eager.fastpath import ARMED, RECORDING, TapeBase, _thread_id, arm
from srcgrad.eager.gradients import (
    _NONE,
    UnconnectedGradients,
    _accumulate,
    _direct_gradients,
    _final,
    _ones,
    _output_cotangents,
    _seeds,
    _stack_rows,
    _targets,
    _unconnected_mode,
)
from srcgrad.eager.variables import Tensor, _as_value
from srcgrad.runtime.variables import VariableBase

_TRACKED = (Tensor, VariableBase)   # (an Enum attribute lookup is slow on the hot path)


def recording_tapes():
    """The tapes recording on this thread, innermost last."""
    return RECORDING.get(_thread_id(), ()) if RECORDING else ()


def _set_recording(tapes):
    if tapes:
        thread = _thread_id()
        if thread not in ARMED:
            arm(thread)
        RECORDING[thread] = tapes
    else:
        RECORDING.pop(_thread_id(), None)


def variable_accessed(variable):
    """Tell the recording tapes that ``variable`` was read."""
    if RECORDING:
        for tape in RECORDING.get(_thread_id(), ()):
            if tape._watch_accessed and variable._trainable:
                tape._watch_one(variable)


class GradientTape(TapeBase):
    """``GradientTape(persistent=False, watch_accessed_variables=True)``: record
    operations on watched Tensors and Variables; ``gradient`` differentiates.

    ``with sg.GradientTape() as tape: loss = f(x)`` then ``tape.gradient(loss, [w, b])``
    gives gradients in the structure of the sources (``None`` for an unconnected one, or
    zeros with ``unconnected_gradients="zero"``). Trainable Variables read inside are
    watched automatically; ``watch(t)`` adds a Tensor. A non-persistent tape answers one
    ``gradient`` or ``jacobian``; nested tapes give higher derivatives. A call to a
    compiled (``@sg.differentiable``) function is one node whose backward is its
    generated backward.

    Creating, entering and leaving a tape, and ``gradient`` in the usual step, are
    ``TapeBase``'s (``eager.fastpath``); the rest is here."""

    __slots__ = ()

    def _push(self):
        _set_recording(recording_tapes() + (self,))
        self._recording = True

    def _pop(self):
        if not self._recording:
            raise ValueError("Tape is not recording.")
        recording = recording_tapes()
        _set_recording(recording[:-1] if recording and recording[-1] is self else
                       tuple(t for t in recording if t is not self))
        self._recording = False

    @contextlib.contextmanager
    def stop_recording(self):
        """Operations inside are not recorded (their results act as constants)."""
        if not self._entered:
            raise RuntimeError("Trying to stop recording a tape which is not recording.")
        self._pop()
        try:
            yield
        finally:
            self._push()

    def reset(self):
        """Forget everything recorded so far, and keep recording."""
        self._pop()
        self._tracked, self._variables, self._nodes, self._pending = {}, {}, [], None
        self._push()

    def _expand(self):
        """Turn the pending call into an ordinary node (see ``_pending``)."""
        pending, self._pending = self._pending, None
        keys = dict.fromkeys(pending.read)
        self._tracked.update(keys)
        self._variables.update(keys)
        self.record(pending.plan.node(pending, self))

    # -- watching --------------------------------------------------------------------
    def watch(self, tensor):
        """Watch a Tensor or Variable (or a nested structure of them)."""
        for leaf in structure.flatten(tensor):
            if not isinstance(leaf, (Tensor, VariableBase)):
                raise ValueError(f"Passed in object {leaf} of type '{type(leaf).__name__}', "
                                 "not tf.Tensor or tf.Variable or ExtensionType.")
            if np.asarray(leaf._value).dtype.kind not in "fc":
                warnings.warn(f"The dtype of the watched tensor must be floating; got "
                              f"{leaf.dtype}", stacklevel=2)
            self._watch_one(leaf)

    def _watch_one(self, obj):
        if obj not in self._tracked:
            self._tracked[obj] = None
            if isinstance(obj, VariableBase):
                self._variables[obj] = None

    def tracks(self, obj):
        if self._pending is not None:
            self._expand()
        return obj in self._tracked

    def _accessed(self, reads):
        """Watch the Variables of ``reads`` (read by a recorded call) as ``variable_accessed``
        does; the ones this tape now tracks."""
        if self._pending is not None:
            self._expand()
        tracked, watched, watch = self._tracked, self._variables, self._watch_accessed
        variables = []
        for variable in reads:
            if variable not in tracked:
                if not (watch and variable._trainable):
                    continue
                tracked[variable] = None
                watched[variable] = None
            variables.append(variable)
        return variables

    def watched_variables(self):
        """The watched Variables, in creation order."""
        if self._pending is not None:
            self._expand()
        return tuple(sorted(self._variables, key=lambda v: v._uid))

    def record(self, node):
        if self._pending is not None:
            self._expand()
        self._nodes.append(node)
        for output in node.outputs:
            self._tracked[output] = None

    # -- gradients -------------------------------------------------------------------
    def _gradient(self, target, sources, output_gradients=None,
                  unconnected_gradients=UnconnectedGradients.NONE):
        """``gradient`` (see ``TapeBase.gradient``) in every case."""
        zero = unconnected_gradients is not _NONE and _unconnected_mode(unconnected_gradients)
        pending = self._pending
        if pending is not None and not (self._used or self._recording) and \
                pending.result is target and output_gradients is None and \
                not (RECORDING and recording_tapes()):   # the usual step
            grads = _direct_gradients(pending, sources, zero, self._persistent)
            if grads is not None:
                if not self._persistent:   # (_finish_gradient): free the saved values
                    self._used = True
                    pending.saved = None
                return grads
        if self._used or self._recording:
            self._start_gradient()
        if self._pending is not None:
            self._expand()
        if type(target) is Tensor and output_gradients is None:   # the usual case
            targets, seeds = (target,), (_ones(target._value),)
        else:
            targets = _targets(target)
            seeds = _seeds(targets, output_gradients)
            for leaf in targets:   # TF reads a Variable target on the tape: it is watched
                if isinstance(leaf, VariableBase) and self._watch_accessed and leaf._trainable:
                    self._watch_one(leaf)
        flat_sources = structure.flatten(sources)
        grads = self._sweep(targets, seeds, flat_sources, zero)
        self._finish_gradient()
        return grads if flat_sources is sources else structure.rebuild(sources, grads)

    def _finish_direct(self, grads, sources):
        """The direct answer's gradients (``fastpath``) when one is not an array shaped as
        its source."""
        return [_final(grad, source, False, False) for source, grad in zip(sources, grads)]

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
                 parallel_iterations=None, experimental_use_pfor=True):
        """d``target``/d``sources``: shaped ``target.shape + source.shape`` per source."""
        zero = _unconnected_mode(unconnected_gradients)
        if self._pending is not None:
            self._expand()
        if not experimental_use_pfor and not self._persistent:
            raise RuntimeError(
                "GradientTape must be created with persistent=True to compute the jacobian "
                "with eager execution enabled and with  experimental_use_pfor set to False.")
        self._start_gradient()
        flat_sources = structure.flatten(sources)
        self._in_jacobian = True
        try:
            jacobians = self._jacobian_blocks(target, flat_sources, zero)
        finally:
            self._in_jacobian = False
        self._finish_gradient()
        return structure.rebuild(sources, jacobians)

    def _jacobian_blocks(self, target, flat_sources, zero):
        """The jacobian of each source: all the rows in one batched sweep per chunk of
        rows (``eager.jacobians``), or one sweep per row under another recording tape
        or where a node met a value with no batched form."""
        from srcgrad.eager.jacobians import jacobian_blocks
        from srcgrad.runtime.batched import UnbatchedCall

        if not recording_tapes():
            try:
                blocks = jacobian_blocks(self, target, flat_sources)
            except UnbatchedCall:
                pass
            else:
                shape = np.shape(_as_value(target))
                return [_final_block(block, shape, source, zero)
                        for block, source in zip(blocks, flat_sources)]
        return self._jacobian_per_row(target, flat_sources, zero)

    def _jacobian_per_row(self, target, flat_sources, zero):
        """The jacobian of each source from one backward sweep per element of
        ``target``."""
        shape = np.shape(_as_value(target))
        rows = [self._sweep([target], [seed], flat_sources, False)
                for seed in _basis_seeds(shape)]
        return [_stack_rows([row[i] for row in rows], shape, source, zero)
                for i, source in enumerate(flat_sources)]

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor=True):
        """d``target[i]``/d``source[i]`` for each row ``i`` of the batch, shaped
        ``[batch, target row..., source row...]`` (rows independent, as TF assumes: row
        ``i`` of the target depends on row ``i`` of the source only)."""
        _unconnected_mode(unconnected_gradients)   # (checked)
        target_shape, source_shape = np.shape(_as_value(target)), np.shape(_as_value(source))
        for shape in (target_shape, source_shape):
            if len(shape) < 2:
                raise ValueError(f"Shape {shape} must have rank at least 2")
        if target_shape[0] != source_shape[0]:
            raise ValueError(f"Need first dimension of target shape ({target_shape}) and "
                             f"source shape ({source_shape}) to match.")
        if not experimental_use_pfor and not self._persistent:
            raise RuntimeError(
                "GradientTape must be created with persistent=True to compute the batch_jacobian "
                "with eager execution enabled and  with experimental_use_pfor set to False.")
        if self._pending is not None:
            self._expand()
        self._start_gradient()
        self._in_jacobian = True
        try:
            stacked = self._batch_jacobian_block(target, source)   # [y..., b, x...]
        finally:
            self._in_jacobian = False
        self._finish_gradient()
        return np.moveaxis(stacked, len(target_shape) - 1, 0)

    def _batch_jacobian_block(self, target, source):
        """``batch_jacobian``'s result with the batch axis after the target's row axes:
        every element of a row in one batched sweep (``eager.jacobians``), else one
        sweep per element; zeros when unconnected, whatever ``unconnected_gradients``
        says (as TF does)."""
        from srcgrad.eager.jacobians import jacobian_blocks
        from srcgrad.runtime.batched import UnbatchedCall

        target_shape = np.shape(_as_value(target))
        if not recording_tapes():
            try:
                (block,) = jacobian_blocks(self, target, [source], batch=True)
            except UnbatchedCall:
                pass
            else:
                return _final_block(block, target_shape[1:], source, True)
        rows = []
        for index in np.ndindex(*target_shape[1:]):
            seed = np.zeros(target_shape)
            seed[(slice(None),) + index] = 1.0   # every row's element ``index``
            rows.append(self._sweep([target], [seed], [source], False)[0])
        return _stack_rows(rows, target_shape[1:], source, True)

    def _start_gradient(self):
        if self._used:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute "
                               "one set of gradients (or jacobians)")
        if self._recording and not self._persistent:
            self._pop()

    def _finish_gradient(self):
        if not self._persistent:
            self._used = True
            self._nodes = []

    def _sweep(self, targets, seeds, sources, zero):
        on_tensors = bool(recording_tapes())
        cotangents = {}   # Tensor or Variable -> cotangent
        for target, seed in zip(targets, seeds):
            if isinstance(target, _TRACKED) and target in self._tracked:
                _accumulate(cotangents, target, seed)
        get = cotangents.get
        for node in reversed(self._nodes):
            outputs = node.outputs
            gs = [get(outputs[0])] if len(outputs) == 1 else \
                _output_cotangents(outputs, cotangents)
            if gs is None or gs[0] is None and len(gs) == 1:
                continue
            for obj, contribution in zip(node.inputs, node.backward(gs, on_tensors)):
                if contribution is not None:
                    previous = get(obj)
                    cotangents[obj] = contribution if previous is None else \
                        previous + contribution
        grads = []
        for source in sources:
            grad = get(source) if isinstance(source, _TRACKED) else None
            value = source._value if isinstance(source, _TRACKED) else None
            if type(grad) is np.ndarray and type(value) is np.ndarray and \
                    grad.shape == value.shape and grad.dtype is value.dtype:   # the usual case
                grads.append(grad)
            else:
                grads.append(_final(grad, source, zero, on_tensors))
        return grads


def _basis_seeds(shape):
    for index in np.ndindex(*shape):
        seed = np.zeros(shape)
        seed[index] = 1.0
        yield seed


def _final_block(block, shape, source, zero):
    """A source's jacobian: zeros for an unconnected source with ``zero``, else None."""
    if block is not None:
        return block
    return np.zeros(tuple(shape) + np.shape(_as_value(source))) if zero else None
