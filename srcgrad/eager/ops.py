"""One NumPy operation on Tensors/Variables: compute it, record it on the tapes.

The backward of a recorded operation comes from the rule table, the compiler's own:
each row is compiled once (per set of inputs that need a cotangent) into a small Python
function, e.g. for ``np.multiply`` with both inputs watched::

    def multiply_adjoint(g, ans, x, y):
        return (_sg.unbroadcast(g * y, x), _sg.unbroadcast(g * x, y))

Indexing (``t[i]``), which the compiler handles structurally, has its own two-line
adjoint here.
"""

from __future__ import annotations

import math
import re
import threading

import numpy as np

from srcgrad import runtime
from srcgrad.codegen import loader
from srcgrad.eager import tape as tapes
from srcgrad.eager.variables import Tensor
from srcgrad.errors import MissingRuleError
from srcgrad.rules import REGISTRY
from srcgrad.rules.registry import qualified_name
from srcgrad.runtime.variables import VariableBase

_TRACKED = (Tensor, VariableBase)
_ADJOINTS: dict[tuple, object] = {}            # (rule name, needed params) -> compiled adjoint
_DEFAULTS: dict[str, object] = {}            # default's source text -> value
_LOCK = threading.Lock()


def apply(func, args, kwargs):
    """``func(*args, **kwargs)`` on plain values; a Tensor result, recorded if watched."""
    values = [_unwrap(a) for a in args]
    kw_values = {k: _unwrap(v) for k, v in kwargs.items()}
    result = func(*values, **kw_values)
    recording = tapes.recording_tapes()
    if recording and not REGISTRY.is_nondiff(func) and isinstance(
            result, (np.ndarray, np.generic, float, int)):
        out = Tensor(result)
        for tape in recording:
            _record(tape, func, args, kwargs, values, kw_values, out)
        return out
    return _wrap(result)


def _unwrap(value):
    if isinstance(value, Tensor):
        return value._value
    if isinstance(value, VariableBase):
        return value._read()
    if isinstance(value, (list, tuple)) and any(isinstance(v, _TRACKED) for v in value):
        return type(value)(_unwrap(v) for v in value)
    return value


def _wrap(result):
    if isinstance(result, (np.ndarray, np.generic)):
        return Tensor(result)
    if isinstance(result, tuple) and all(isinstance(r, np.ndarray) for r in result):
        return tuple(Tensor(r) for r in result)
    return result


def _record(tape, func, args, kwargs, values, kw_values, out):
    slots = _tracked_slots(tape, args, kwargs)
    if not slots:
        return
    rule = REGISTRY.lookup(func)
    if rule is None:
        raise MissingRuleError(
            f"no derivative rule for `{qualified_name(func)}`, which was called on a watched "
            f"value inside a GradientTape. Register one with srcgrad.defrule")
    objects = rule.bind(list(args), list(kwargs.items()))
    plain = rule.bind(values, list(kw_values.items()))
    slots = [(rule.params[pos] if isinstance(pos, int) else pos, index, obj)
             for pos, index, obj in slots]
    for param, _, _ in slots:
        message = rule.no_derivative(param)
        if message:
            raise MissingRuleError(f"{message} (called on a watched value inside a "
                                   "GradientTape)")
    slots = [s for s in slots if s[0] in rule.adjoints]
    if slots:
        tape.record(OpNode(rule, slots, _with_defaults(rule, objects),
                           _with_defaults(rule, plain), out))


def _tracked_slots(tape, args, kwargs):
    """(position or keyword, index in a sequence or None, object) of tracked inputs."""
    slots = []
    for pos, value in list(enumerate(args)) + list(kwargs.items()):
        if isinstance(value, _TRACKED) and tape.tracks(value):
            slots.append((pos, None, value))
        elif isinstance(value, (list, tuple)):
            slots += [(pos, i, v) for i, v in enumerate(value)
                      if isinstance(v, _TRACKED) and tape.tracks(v)]
    return slots


def _with_defaults(rule, bound):
    out = dict(bound)
    for param in rule.params:
        if param not in out:
            out[param] = _default(rule.defaults.get(param, "None"))
    return out


def _default(text):
    if text not in _DEFAULTS:
        _DEFAULTS[text] = eval(text, {"np": np, "math": math})  # a rule row's literal
    return _DEFAULTS[text]


class OpNode:
    """One recorded NumPy operation."""

    def __init__(self, rule, slots, objects, values, out):
        self.rule, self.slots, self.objects, self.values = rule, slots, objects, values
        self.outputs = (out,)
        self.inputs = tuple(obj for _, _, obj in slots)

    def backward(self, gs, on_tensors):
        params = tuple(sorted({param for param, _, _ in self.slots}))
        adjoint = rule_adjoint(self.rule, params)
        bound = self.objects if on_tensors else self.values
        ans = self.outputs[0] if on_tensors else self.outputs[0]._value
        contributions = dict(zip(params, adjoint(gs[0], ans, **bound)))
        return [contributions[param] if index is None else contributions[param][index]
                for param, index, _ in self.slots]


def rule_adjoint(rule, params):
    """The rule row's adjoint for ``params``, compiled once."""
    key = (rule.name, params)
    with _LOCK:
        if key not in _ADJOINTS:
            _ADJOINTS[key] = _compile_adjoint(rule, params)
        return _ADJOINTS[key]


def _compile_adjoint(rule, params):
    name = re.sub(r"\W", "_", rule.name.split(".")[-1]) + "_adjoint"
    terms = []
    for param in params:
        template = rule.adjoints[param]
        if rule.broadcasts:
            template = f"_sg.unbroadcast({template}, {param})"
        elif rule.keeps_real_part(param):
            template = f"_sg.match_real({template}, {param})"
        terms.append(template)
    signature = ", ".join(("g", "ans") + rule.params)
    source = (f"def {name}({signature}):\n"
              f"    return ({', '.join(terms)},)\n")
    namespace = {"np": np, "math": math, "_sg": _EAGER_RUNTIME}
    loader.load(source, f"{rule.name} adjoint", namespace)
    function = namespace[name]
    function.source = source
    return function


class _EagerRuntime:
    """``srcgrad.runtime`` for per-operation adjoints, with ``unbroadcast`` working on
    Tensors too (so a backward run under an outer tape is recorded by it)."""

    def __getattr__(self, name):
        return getattr(runtime, name)

    @staticmethod
    def unbroadcast(g, x):
        if not isinstance(g, _TRACKED) and not isinstance(x, _TRACKED):
            return runtime.unbroadcast(g, x)
        shape, g_shape = np.shape(_plain(x)), np.shape(_plain(g))
        if shape == g_shape:
            return g
        extra = len(g_shape) - len(shape)
        axes = tuple(range(extra)) + tuple(
            extra + i for i, size in enumerate(shape) if size == 1 and g_shape[extra + i] != 1)
        return np.reshape(np.sum(g, axis=axes), shape)

    @staticmethod
    def match_real(g, x):
        if not isinstance(g, _TRACKED) and not isinstance(x, _TRACKED):
            return runtime.match_real(g, x)
        if np.iscomplexobj(_plain(g)) and not np.iscomplexobj(_plain(x)):
            return np.real(g)
        return g


_EAGER_RUNTIME = _EagerRuntime()


def _plain(value):
    return value._value if isinstance(value, _TRACKED) else value


# -- indexing ----------------------------------------------------------------------------
def getitem(tensor, index):
    """``tensor[index]``, recorded with the adjoint ``zeros, then dx[index] += g``."""
    index = _unwrap(index)
    out = Tensor(tensor._read()[index] if isinstance(tensor, VariableBase) else
                 tensor._value[index])
    for tape in tapes.recording_tapes():
        if tape.tracks(tensor):
            tape.record(IndexNode(tensor, index, out))
    return out


class IndexNode:
    def __init__(self, tensor, index, out):
        self.inputs, self.outputs, self.index = (tensor,), (out,), index

    def backward(self, gs, on_tensors):
        g, (x,) = gs[0], self.inputs
        if on_tensors:
            return [scatter(g, self.index, np.shape(x._value))]
        dx = runtime.zeros_like(np.asarray(x._value))
        return [runtime.add_at(dx, self.index, g)]


def scatter(g, index, shape):
    """Zeros of ``shape`` with ``g`` added at ``index`` (the transpose of indexing)."""
    out = np.zeros(shape)
    runtime.add_at(out, index, _plain(g))
    result = Tensor(out)
    for tape in tapes.recording_tapes():
        if isinstance(g, _TRACKED) and tape.tracks(g):
            tape.record(_ScatterNode(g, index, result))
    return result


class _ScatterNode:
    def __init__(self, g, index, out):
        self.inputs, self.outputs, self.index = (g,), (out,), index

    def backward(self, gs, on_tensors):
        return [gs[0][self.index]]
