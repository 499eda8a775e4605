"""``make_vjp`` (TF's ``backprop.make_vjp``): run ``f`` once through its generated
forward, and hand back the generated backward as ``vjp(dy=None)``.

    result, vjp = sg.make_vjp(f)(x, y)      # f's value; nothing differentiated yet
    dx, dy = vjp()                          # d(sum of the outputs)/d(x, y): a list
    dx, dy = vjp(w)                         # d(sum of w * outputs)/d(x, y)
"""

from __future__ import annotations

import functools

from srcgrad.eager import nesting
from srcgrad.eager.functions import _none_result, _seed, param_call
from srcgrad.eager.gradients import fresh
from srcgrad.runtime.variables import NoneResultError, ones_seed

_CALLED_TWICE = ("Internal state of the gradient tape is invalid: failed to find operation "
                 "producing a tensor (a vjp made with persistent=False runs once; pass "
                 "persistent=True to call it again)")


def make_vjp(f, params=None, persistent=True):
    """A function returning ``(f(*args), vjp)``: ``vjp(dy=None)`` is the list of the
    gradients of ``sum(dy * outputs)`` (``dy`` ones by default) w.r.t. the arguments at
    ``params`` (all by default; TF's rules for names and indices); an integer argument or
    one the output does not depend on gets None. With ``persistent=False`` the vjp runs
    once (a second call is a RuntimeError, as TF's InternalError)."""
    plan = {}

    @functools.wraps(f)
    def decorated(*args, **kwds):
        assert not kwds, "The gradient function can't take keyword arguments."
        call = param_call(f, params, args, plan)
        try:
            result, saved = call.unit.forward(*call.args)
        except NoneResultError:
            raise _none_result(f) from None
        if result is None:
            raise _none_result(f)
        state = {"saved": saved}

        def vjp(dy=None):
            saved = state["saved"]
            if saved is None:
                raise RuntimeError(_CALLED_TWICE)
            if persistent:
                saved = fresh(saved)   # (the backward pops its stacks)
            else:
                state["saved"] = None
            seed = ones_seed(result) if dy is None else _seed(dy, result)
            return call.by_position(call.unit.backward(saved, seed))

        return result, vjp

    decorated.__srcgrad_callee__ = nesting.refused("make_vjp")
    return decorated
