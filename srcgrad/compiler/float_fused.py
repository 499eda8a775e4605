"""The fused functions of the variant specialized for scalars, with the backward sweep
on Python floats (``optimize.float_sweep``) when the result is a float64; NumPy's sweep
(the unit's split backward) otherwise.

After (``f_grad_scalars``)::

    def f_grad(x, w):
        # Forward sweep: the original computation
        _tanh = np.tanh(x * w)
        # Backward sweep on Python floats when the result is a float64 (the same numbers)
        if not _sg.floats_apply(_tanh):
            return f_backward((x, w, _tanh), _sg.seed(_tanh))
        d_tanh = 1.0
        _tanh = _sg.to_float(_tanh)
        ...
        return (_sg.float64(dx), _sg.float64(dw))
"""

from __future__ import annotations

from srcgrad import syntax
from srcgrad.optimize.float_sweep import float_sweep
from srcgrad.syntax import gast

_COMMENT = ("Backward sweep on Python floats when the result is a float64 (the same "
            "numbers; else NumPy's)")


def fuse_on_floats(functions, parts, backward_name, fresh):
    """Replace the fused ``grad`` and ``value_and_grad`` of ``functions`` by versions whose
    backward sweep runs on Python floats, when the sweep allows it. ``parts``: the
    assembled pieces (see ``compiler.reverse._assemble``); ``fresh``: a fresh name."""
    sweep = float_sweep(parts["forward"], parts["backward"], parts["grads"], parts["seed"],
                        parts["params"], parts["stack"], parts["defined"])
    if sweep is None:
        return
    value = parts["value"]
    saved = syntax.tuple_of([syntax.name(r) for r in parts["residuals"]])
    numpy_sweep = syntax.call(backward_name, [saved, syntax.quote_expr(
        f"{parts['seed_helper']}(y)", y=syntax.clone(value))])
    floats_backward = sweep.conversions + sweep.backward
    head = [syntax.comment("Forward sweep: the original computation")] \
        + parts["residual_inits"] + parts["forward"]
    note = syntax.comment(_COMMENT)
    check = syntax.quote("if not _sg.floats_apply(y):\n    return 0", y=syntax.clone(value))[0]
    check.body[0].value = numpy_sweep
    body = head + [note, check] + floats_backward + [gast.Return(value=sweep.grads)]
    functions["grad"].body = body

    returned, keep = value, []
    assigned = {n for stmt in floats_backward for n in syntax.names_in(stmt, gast.Store)}
    if isinstance(value, gast.Name) and value.id in assigned:
        returned = syntax.name(fresh("value"))
        keep = [syntax.assign(returned.id, syntax.clone(value))]
    pair_check = syntax.clone(check)
    pair_check.body[0].value = syntax.tuple_of([syntax.clone(value), numpy_sweep])
    functions["value_and_grad"].body = head + keep + [note, pair_check] + floats_backward + [
        gast.Return(value=syntax.tuple_of([syntax.clone(returned), syntax.clone(sweep.grads)]))]
