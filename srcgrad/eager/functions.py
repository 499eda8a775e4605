"""``gradients_function``, ``value_and_gradients_function``, ``implicit_gradients`` and
``implicit_value_and_gradients`` (TF's ``backprop`` semantics), each one call of an
eager unit's generated code.

The fused ``f_value_and_grad`` runs when no ``dy`` is given (its seed is ones, the
gradient of the sum of all outputs); with ``dy`` the generated forward and backward run
with ``dy`` as the seed. Variable gradients come back through ``_sg.variable_cotangent``,
or, for ``implicit_*`` when every Variable read is a plain name, as the return value of
the variant of the generated code that ``eager.static`` derives (no per-thread registry).
"""

from __future__ import annotations

import functools
import inspect
import threading
from collections.abc import Sequence

import numpy as np

from srcgrad.api import functional as api
from srcgrad.api import vararg_wrt
from srcgrad.api.tracebacks import api_boundary
from srcgrad.api.typing import Function
from srcgrad.codegen.pickling import derivative, with_attributes
from srcgrad.compiler import reverse as compiler
from srcgrad.eager import nesting, static
from srcgrad.eager.fastpath import ImplicitBase, run_static
from srcgrad.eager.gradients import differentiable
from srcgrad.eager.structure import same
from srcgrad.eager.variables import Tensor
from srcgrad.runtime import finish
from srcgrad.runtime.guards import check_array_types
from srcgrad.runtime.variables import COLLECT, NoneResultError, StaleVariant, VariableBase
from srcgrad.runtime.wrt_values import check_shaped_like

_TRACKED = (VariableBase, Tensor)

_KEYWORDS_MESSAGE = "Functions to be differentiated cannot receive keyword arguments."


@api_boundary
def value_and_gradients_function(
        f: Function, params: Sequence[int] | Sequence[str] | None = None) -> Function:
    """TensorFlow eager's ``value_and_gradients_function``: a function returning
    ``(f(*args), [gradient per parameter])`` (see ``gradients_function``)."""

    plan: dict = {}

    @api_boundary
    @functools.wraps(f)
    def decorated(*args, dy=None, **kwds):
        if kwds:
            raise ValueError(_KEYWORDS_MESSAGE)
        return _value_and_param_grads(f, params, args, dy, plan)

    with_attributes(decorated,
                    __srcgrad_callee__=nesting.differentiable_callee(f, params, True))
    return derivative(decorated, "srcgrad.eager.functions.value_and_gradients_function", f,
                      params=params)


@api_boundary
def gradients_function(f: Function, params: Sequence[int] | Sequence[str] | None = None,
                       ) -> Function:
    """TensorFlow eager's ``gradients_function``: a function taking ``f``'s positional
    arguments (and an optional ``dy=``) and returning a **list** with the gradient of
    ``f`` w.r.t. each of its arguments, or only those ``params`` names (all names or all
    indices). An argument the output does not depend on, or an int argument, gets
    ``None``; a non-scalar output is summed (or weighted by ``dy``). Runs the generated
    gradient of ``f``."""

    plan: dict = {}

    @api_boundary
    @functools.wraps(f)
    def decorated(*args, dy=None, **kwds):
        if kwds:
            raise ValueError(_KEYWORDS_MESSAGE)
        return _value_and_param_grads(f, params, args, dy, plan)[1]

    with_attributes(decorated,
                    __srcgrad_callee__=nesting.differentiable_callee(f, params, False))
    return derivative(decorated, "srcgrad.eager.functions.gradients_function", f,
                      params=params)


def _value_and_param_grads(f, params, args, dy, plan):
    """``plan`` keeps what depends only on ``f`` and the number of arguments."""
    call = param_call(f, params, args, plan)
    # the Variables' cotangents are not returned (as in TF), nor handed to a caller's
    # collector (generated code may run this through a call it does not know)
    collected, COLLECT.cotangents = COLLECT.cotangents, None
    try:
        value, grads = _run(call.unit, call.args, {}, dy, f)
    finally:
        COLLECT.cotangents = collected
    return value, call.by_position(grads)


class ParamCall:
    """One call of ``f`` differentiated w.r.t. its float arguments at ``params``' positions:
    the eager unit, the arguments it takes, and the gradients placed by position."""

    __slots__ = ("unit", "args", "positions", "float_positions", "spread")

    def by_position(self, grads):
        """One gradient per position of ``params`` (None for an integer argument or one
        the output does not depend on); an argument that ``*args`` received gets its
        item of the tuple of gradients for ``args``."""
        zero = self.unit.zero_wrt   # (the unit's wrt is a tuple: one gradient per name)
        spread = vararg_wrt.spread_gradients(
            [None if name in zero else g for name, g in zip(self.unit.wrt, grads)],
            self.spread)
        found = dict(zip(self.float_positions, spread))
        return [found.get(i) for i in self.positions]


def param_call(f, params, args, plan):
    """The ``ParamCall`` of ``f(*args)`` (``plan``: a dict kept between calls)."""
    call = ParamCall()
    call.positions = plan.get(len(args))
    if call.positions is None:
        call.positions = plan[len(args)] = list(_arg_positions(f, params, args))
    target = plan.get("target")
    if target is None:
        target = plan["target"] = api._target(f)
    fn, bound = target
    values = [_value_of(a) for a in args]
    call.float_positions = [i for i in dict.fromkeys(call.positions) if _is_float(values[i])]
    wrt, call.spread = vararg_wrt.position_names(fn, call.float_positions, bound is not None)
    call.unit = compiler.reverse_unit(fn, wrt, eager=True)
    call.args = values if bound is None else [bound] + values
    return call


def _arg_positions(f, params, args):
    """TF's ``_get_arg_spec``: which call arguments ``params`` names (TF's exception
    types; the messages also say which parameters there are)."""
    if params is not None and not isinstance(params, (list, tuple)):
        raise TypeError(f"params must be a list of parameter names or of indices; got "
                        f"{params!r}")
    try:
        names = inspect.getfullargspec(f).args
    except TypeError as exc:
        if params is None:
            return range(len(args))
        if all(isinstance(p, int) for p in params):
            return _in_range(f, params, args)
        raise ValueError("Either callable provided is not a function or could not inspect "
                         f"its arguments by name: {f}. Original error: {exc}") from None
    if inspect.ismethod(f) and names:
        names = names[1:]
    if params is None:
        return range(len(args)) if not names else _in_range(f, range(len(names)), args)
    if all(isinstance(p, str) for p in params):
        unknown = [p for p in params if p not in names]
        if unknown:
            raise ValueError(f"{unknown[0]!r} is not in list: params={list(params)!r} names "
                             f"no parameter of {_name(f)}({', '.join(names)})")
        return _in_range(f, [names.index(p) for p in params], args)
    if all(isinstance(p, int) and not isinstance(p, bool) for p in params):
        return _in_range(f, params, args)
    raise ValueError(f"params must be all strings or all integers; got {params}.")


def _in_range(f, positions, args):
    """``positions`` (negative ones counted from the end), each an index into ``args``."""
    for i in positions:
        if not -len(args) <= i < len(args):
            raise IndexError(f"list index out of range: parameter {i} of {_name(f)} is not "
                             f"among the {len(args)} argument(s) it was called with")
    return [i % len(args) for i in positions]


def _name(f):
    return getattr(f, "__name__", repr(f))


def _value_of(arg):
    if isinstance(arg, VariableBase):
        return arg._read()
    if isinstance(arg, Tensor):
        return arg._value
    if isinstance(arg, list):
        return np.asarray(arg)
    if type(arg) is not np.ndarray and isinstance(arg, np.ndarray):
        check_array_types(arg)   # np.matrix: its operators are not NumPy's
    return arg


def _is_float(value):
    if isinstance(value, (float, np.floating, np.complexfloating)):
        return True
    return isinstance(value, np.ndarray) and value.dtype.kind in "fc"


def _run(unit, args, kwargs, dy, f):
    """``(value, grads)`` from the generated code; ``dy`` weights the outputs."""
    try:
        if dy is None:
            return unit.value_and_grad(*args, **kwargs)
        value, saved = unit.forward(*args, **kwargs)
    except NoneResultError:
        raise _none_result(f) from None
    if value is None:
        raise _none_result(f)
    return value, unit.backward(saved, _seed(dy, value))


def _seed(dy, value):
    """``dy`` as plain values, once it is shaped like the output ``value``."""
    seed = _plain_seed(dy)
    check_shaped_like(seed, value, "dy", "the function's output")
    return seed


def _plain_seed(dy):
    if isinstance(dy, (list, tuple)):
        return tuple(_plain_seed(d) for d in dy)
    return dy._value if isinstance(dy, (Tensor, VariableBase)) else dy


def _none_result(f):
    return ValueError("Cannot differentiate a function that returns None; did you forget "
                      f"to return a value from {_name(f)}?")


# -- implicit: gradients for the Variables the function reads -----------------------
@api_boundary
def implicit_value_and_gradients(f: Function) -> Function:
    """A function returning ``(f(*args), [(gradient, variable), ...])`` for the trainable
    Variables ``f`` reads (as a global, a closure cell, an attribute, a container item or
    inside a function it calls), in creation order; a Variable read without affecting the
    output gets ``(None, variable)``, and reading none raises ``ValueError``. After its
    first call, its ``source`` is the generated code behind it (run as is, or, when the
    Variables it reads are plain names, as the variant of ``eager.static`` that returns
    their cotangents)."""
    fn, bound = api._target(f)
    plan = _ImplicitPlan(fn, bound)

    @api_boundary
    @functools.wraps(f)
    def grad_fn(*args, **kwds):
        for arg in args:
            if isinstance(arg, _TRACKED):
                return _implicit_with_variable_args(f, fn, bound, args, kwds)
        if plan.run is None:
            grad_fn.source = plan.compile()
        try:
            if plan.static is not None:   # (run_static copes with another thread's None)
                result = run_static(plan, args, kwds)
                if result is not None:
                    return result
            return plan.run_collecting(args, kwds)
        except NoneResultError:
            raise _none_result(f) from None

    with_attributes(grad_fn, __srcgrad_callee__=nesting.refused("implicit_value_and_gradients"))
    return derivative(grad_fn, "srcgrad.eager.functions.implicit_value_and_gradients", f)


class _ImplicitPlan(ImplicitBase):
    """What an implicit gradient function keeps between calls: the generated functions
    it runs, and the creation order of the Variables the last call read (reused while
    the same Variables are read, which is the usual case). ``fastpath.run_static`` runs
    the variant in the usual case."""

    # Threads share a plan. ``compile`` runs once, under ``_lock``, and publishes ``run``
    # last; ``static`` only ever goes from a variant to None, and each method reads it
    # once; what ``_remember`` keeps is published so that a reader never pairs one
    # call's Variables with another's order (``_known``, one tuple; ``_picks`` emptied
    # while the fields the C ``run_static`` reads change).
    __slots__ = ("fn", "run", "_last", "_known", "_lock", "_source")

    def __init__(self, fn, bound):
        self.fn, self.bound = fn, bound
        self.run = self.static = None
        self._lock = threading.Lock()
        self._last = ({}, ())   # (reads, those Variables in creation order)
        self._remember((), ())

    def _remember(self, variables, order):
        """The Variables the variant read and their indices in creation order; the
        indices of the trainable ones among those, for ``run_static``."""
        variables = tuple(variables)
        picks = tuple(i for i in order if variables[i]._trainable)
        self._picks = ()   # (no usual answer in C while the fields change)
        self._known = (variables, order)
        self._last_variables, self._order = variables, order
        self._picks = picks

    def compile(self):
        """Generate the code (once, whichever thread comes first); its text."""
        with self._lock:
            if self.run is None:
                unit = compiler.reverse_unit(self.fn, (), eager=True)
                self._source = unit.function_source("value_and_grad")
                self.static = static.implicit_variant(unit)
                self.run = api._bind(unit.value_and_grad, self.bound)   # published last
        return self._source

    def run_collecting(self, args, kwds):
        """Run the eager unit with the per-thread collectors."""
        reads, cotangents = {}, {}
        saved = COLLECT.reads, COLLECT.cotangents
        COLLECT.reads, COLLECT.cotangents = reads, cotangents
        try:
            value = self.run(*args, **kwds)[0]
        finally:
            COLLECT.reads, COLLECT.cotangents = saved
        last_reads, order = self._last
        if reads.keys() != last_reads.keys():
            order = sorted(reads, key=_creation_order)
            self._last = (reads, order)
        return value, _pairs(order, [cotangents.get(v) for v in order], range(len(order)))

    def _static_failed(self, error):
        """The variant raised ``error``, an AttributeError: raise it when the names it
        reads still hold Variables and its guard held; else the general code from now on
        (None). (Another
        thread may have given the variant up already.)"""
        variant = self.static
        if variant is not None and variant.holds_variables() and \
                not isinstance(error, StaleVariant):
            raise error
        self.static = None

    def _static_pairs(self, value, variables, grads):
        """``run_static``'s answer when the variant read other Variables than last time,
        or a gradient needs ``finish``; None for the general code."""
        known, order = self._known
        if same(variables, known):
            return value, _pairs(variables, grads, order)
        if not all(isinstance(v, VariableBase) for v in variables):
            self.static = None   # e.g. a Tensor with a ``_value``: the general code decides
            return None
        if len(set(map(id, variables))) < len(variables):
            return value, _pairs(*_merged(variables, grads))   # one Variable, two names
        order = sorted(range(len(variables)), key=lambda i: variables[i]._uid)
        self._remember(variables, order)
        return value, _pairs(variables, grads, order)


def _merged(variables, grads):
    """(Variables in creation order, their summed cotangents, indices) for ``_pairs``."""
    cotangents = {}
    for variable, grad in zip(variables, grads):
        if grad is not None:
            previous = cotangents.get(variable)
            cotangents[variable] = grad if previous is None else previous + grad
    order = sorted(dict.fromkeys(variables), key=_creation_order)
    return order, [cotangents.get(v) for v in order], range(len(order))


@api_boundary
def implicit_gradients(f: Function) -> Function:
    """TensorFlow eager's ``implicit_gradients``: a function returning ``[(gradient,
    variable), ...]`` for every trainable ``Variable`` ``f`` reads, in the order the
    Variables were created (see ``implicit_value_and_gradients``)."""
    value_and_gradients = implicit_value_and_gradients(f)

    @api_boundary
    @functools.wraps(f)
    def grad_fn(*args, **kwds):
        return value_and_gradients(*args, **kwds)[1]

    with_attributes(grad_fn, __srcgrad_callee__=nesting.refused("implicit_gradients"))
    return derivative(grad_fn, "srcgrad.eager.functions.implicit_gradients", f)


def _implicit_with_variable_args(f, fn, bound, args, kwds):
    """Variables (or Tensors) passed as arguments: read as values, differentiated as
    parameters, their gradients reported like the Variables read inside."""
    positions = [i for i, a in enumerate(args) if isinstance(a, _TRACKED)]
    names = api.parameter_names(fn, bound)
    values = [_value_of(a) for a in args]
    variables = [i for i in positions if isinstance(args[i], VariableBase)]
    wrt = tuple(names[i] for i in variables)
    unit = compiler.reverse_unit(fn, wrt, eager=True)
    reads = {args[i]: None for i in variables}
    cotangents = {}
    saved = COLLECT.reads, COLLECT.cotangents
    COLLECT.reads, COLLECT.cotangents = reads, cotangents
    try:
        call_args = values if bound is None else [bound] + values
        value, grads = _run(unit, call_args, kwds, None, f)
    finally:
        COLLECT.reads, COLLECT.cotangents = saved
    for i, grad in zip(variables, grads):
        if names[i] not in unit.zero_wrt:
            previous = cotangents.get(args[i])
            cotangents[args[i]] = grad if previous is None else previous + grad
    order = sorted(reads, key=_creation_order)
    return value, _pairs(order, [cotangents.get(v) for v in order], range(len(order)))


def _pairs(variables, grads, order):
    """``(gradient, variable)`` for the trainable ones of ``variables``, taken in
    ``order`` (indices)."""
    pairs = []
    for i in order:
        variable = variables[i]
        if variable._trainable:
            grad, value = grads[i], variable._value
            if not differentiable(value):
                grad = None   # (an integer Variable: TF lists it, with no gradient)
            elif type(grad) is not type(value) or type(grad) is np.ndarray and \
                    grad.dtype is not value.dtype:   # (else ``finish`` changes nothing)
                grad = None if grad is None else finish(grad, value)
            pairs.append((grad, variable))
    if not pairs:
        raise ValueError("No trainable variables were accessed while the function was "
                         "being computed.")
    return pairs


def _creation_order(variable):
    return variable._uid
