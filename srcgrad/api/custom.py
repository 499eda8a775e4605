"""Derivative rules of the user's own: ``custom_vjp`` and ``custom_jvp`` (JAX's shapes).

    @sg.custom_vjp
    def clip_norm(x):
        return x / max(1.0, np.linalg.norm(x))

    def clip_norm_fwd(x):                 # -> (value, residuals)
        return clip_norm(x), x

    def clip_norm_bwd(x, g):              # -> one cotangent per input, as a tuple
        return (g,)

    clip_norm.defvjp(clip_norm_fwd, clip_norm_bwd)

A call to ``clip_norm`` inside a differentiated function is compiled like a call to any
user function, except that the generated forward sweep calls ``clip_norm_fwd`` and the
backward sweep calls ``clip_norm_bwd``::

    y, clip_norm_saved = clip_norm_forward(x)        # bound to clip_norm_fwd
    ...
    dx_clip_norm, = clip_norm_backward(clip_norm_saved, dy)   # bound to clip_norm_bwd

A ``bwd`` with a keyword-only parameter ``wrt`` is told the names of the parameters whose
cotangents the caller uses (``bwd(residuals, g, wrt=("x",))``), so it may skip the others
(return None for them): ``checkpoint_loop`` does not build its sequence's cotangent when
nobody reads it.

``custom_jvp`` takes ``jvp(primals, tangents) -> (value, tangent)`` and is called the
same way by forward-mode code. Each mode falls back to differentiating the function
itself when only the other mode's rule is given.
"""

from __future__ import annotations

import functools
import inspect

from srcgrad import runtime
from srcgrad.compiler import reverse as compiler
from srcgrad.compiler.forward import forward_unit
from srcgrad.frontend.freshness import own_signature


class _CustomUnit:
    """Stands where a compiled unit would: named functions that generated code calls."""

    def __init__(self, fn, wrt, functions, source):
        self.fn, self.wrt, self.functions, self.source = fn, wrt, functions, source
        self.zero_wrt = frozenset()
        self._dependents = []
        for role, function in functions.items():
            setattr(self, role, function)

    def function_source(self, role):
        return self.source

    def _publish(self):
        for ref, aliases in self._dependents:   # weak references to their namespaces
            namespace = ref()
            for alias, role in aliases if namespace is not None else ():
                namespace[alias] = self.functions[role]


class _Custom:
    __srcgrad_custom__ = True

    def __init__(self, fn):
        functools.update_wrapper(self, fn)
        self.fn = fn
        self.params = tuple(own_signature(fn).parameters)

    def __call__(self, *args, **kwargs):
        return self.fn(*args, **kwargs)


class custom_vjp(_Custom):
    """``f = custom_vjp(f); f.defvjp(fwd, bwd)``: ``fwd(*args) -> (value, residuals)``,
    ``bwd(residuals, g) -> tuple of input cotangents``."""

    fwd = bwd = None

    def defvjp(self, fwd, bwd):
        self.fwd, self.bwd = fwd, bwd
        return self

    def srcgrad_reverse_unit(self, wrt):
        if self.fwd is None:
            return compiler.reverse_unit(self.fn, wrt)
        single = isinstance(wrt, str)
        names = (wrt,) if single else tuple(wrt)
        picks = [self.params.index(p) for p in names]
        bwd = self.bwd
        if takes_wrt(bwd):   # (it may skip the cotangents nobody uses)
            bwd = functools.partial(self.bwd, wrt=names)
        direct = names == self.params and not single   # generated code unpacks the tuple
        backward = bwd if direct else _picking(bwd, picks, single)
        forward = self.fwd

        def in_input_dtypes(grads, args):   # as generated gradients are
            if single:
                return runtime.in_dtype_of(grads, args[picks[0]]) if picks[0] < len(args) \
                    else grads
            return tuple(runtime.in_dtype_of(g, args[i]) if i < len(args) else g
                         for g, i in zip(grads, picks))

        def grad(*args):
            value, saved = forward(*args)
            return in_input_dtypes(backward(saved, runtime.seed(value)), args)

        def value_and_grad(*args):
            value, saved = forward(*args)
            return value, in_input_dtypes(backward(saved, runtime.seed(value)), args)

        source = (f"# {self.__qualname__}: custom_vjp; the generated code calls "
                  f"{_name(self.fwd)} and {_name(self.bwd)}\n")
        return _CustomUnit(self, wrt, {"forward": forward, "backward": backward,
                                       "grad": grad, "value_and_grad": value_and_grad}, source)

    def srcgrad_forward_unit(self, wrt):
        return forward_unit(self.fn, wrt)


class custom_jvp(_Custom):
    """``f = custom_jvp(f); f.defjvp(jvp)``: ``jvp(primals, tangents) -> (value,
    tangent)``, both arguments tuples with one entry per parameter."""

    rule = None

    def defjvp(self, jvp):
        self.rule = jvp
        return self

    def srcgrad_forward_unit(self, wrt):
        if self.rule is None:
            return forward_unit(self.fn, wrt)
        signature = own_signature(self.fn)
        keywords = {p: f"{p}_dot" for p in wrt}
        rule = self.rule

        def jvp(*args, **kwargs):
            tangents = {p: kwargs.pop(keywords[p]) for p in wrt}
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            primals = tuple(bound.arguments[p] for p in self.params)
            dots = tuple(tangents[p] if p in tangents else runtime.zeros_like(v)
                         for p, v in zip(self.params, primals))
            value, tangent = rule(primals, dots)
            return value, runtime.tangent_in_dtype_of(tangent, value)

        source = f"# {self.__qualname__}: custom_jvp; the generated code calls {_name(rule)}\n"
        unit = _CustomUnit(self, wrt, {"jvp": jvp}, source)
        unit.tangent_names = keywords
        return unit

    def srcgrad_reverse_unit(self, wrt):
        return compiler.reverse_unit(self.fn, wrt)


def takes_wrt(bwd):
    """Does ``bwd`` take a keyword-only ``wrt``?"""
    try:
        parameter = inspect.signature(bwd).parameters.get("wrt")
    except (TypeError, ValueError):   # (a callable without a signature)
        return False
    return parameter is not None and parameter.kind is inspect.Parameter.KEYWORD_ONLY


def _picking(bwd, picks, single):
    def backward(saved, g):
        grads = bwd(saved, g)
        chosen = tuple(grads[i] for i in picks)
        return chosen[0] if single else chosen

    return backward


def _name(fn):
    return getattr(fn, "__qualname__", repr(fn))
