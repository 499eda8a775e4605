"""The batched form of a one-row generated backward ``def`` (its source rewritten by
batched reverse mode, ``modes.reverse_batched``), taking the same saved values, so that
code holding a one-row unit's saved values (a tape's recorded call, a call through a
value in a batched sweep) can run its backward once for a block of cotangents::

    def f_backward(saved, dy):              def f_backward_batched(saved, dy):
        x, _sin = saved                         _rows = _sg.batch_rows(dy)
        dx = dy * np.cos(x)                     x, _sin = saved
        return (dx,)                            dx = dy * _sg.lifted(np.cos(x))
                                                return (dx,)

The batched function runs in the one-row function's globals and closure cells.
"""

from __future__ import annotations

import threading
import types
import weakref

from srcgrad import syntax
from srcgrad.codegen import loader
from srcgrad.modes.reverse_batched import ROWS, BatchedBackward, NotBatchable

_LOCK = threading.Lock()
# a one-row generated backward -> its batched form, or None (none)
_BATCHED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def batched_backward(one_row):
    """The batched form of ``one_row`` (a generated ``backward(saved, d)``, with its
    ``source``), compiled once; None where the rewriter refuses a step of it."""
    with _LOCK:
        try:
            return _BATCHED[one_row]
        except KeyError:
            pass
        except TypeError:   # (not weakly referable: not a function)
            return None
        _BATCHED[one_row] = found = _compile(one_row)
        return found


def batched_source(source, name, cotangent):
    """A one-row backward ``def``'s source rewritten for a block of cotangents, named
    ``name``; None where the rewriter refuses it. ``cotangent``: the parameter holding
    the cotangent (None: the second, as in ``backward(saved, dy)``)."""
    function = syntax.parse(source).body[0]
    if not isinstance(function, syntax.gast.FunctionDef):
        return None
    params = [a.id for a in function.args.args]
    if len(params) < 2 or ROWS in syntax.names_in(function):
        return None
    cotangent = cotangent or params[1]
    batched = BatchedBackward({cotangent}, syntax.names_in(function))
    rows = syntax.assign(ROWS, syntax.quote_expr("_sg.batch_rows(d)",
                                                 d=syntax.name(cotangent)))
    try:
        body = [rows] + batched.run(list(function.body))
    except NotBatchable:
        return None
    return syntax.to_source(syntax.function_def(name, params, body))


def _compile(one_row):
    source = getattr(one_row, "source", None)
    code = getattr(one_row, "__code__", None)
    if not isinstance(source, str) or code is None or \
            not source.lstrip().startswith("def "):
        return None
    name = one_row.__name__ + "_batched"
    batched = batched_source(source, name, None)
    if batched is None:
        return None
    free = code.co_freevars   # (a variant reads ``_sg``, Variables, from cells)
    outer = f"def _outer({', '.join(free)}):\n" + "".join(
        f"    {line}\n" for line in batched.splitlines()) + f"    return {name}\n"
    module = compile(outer, loader.register(outer, f"{one_row.__qualname__} batched"), "exec")
    wrapper = next(c for c in module.co_consts if isinstance(c, types.CodeType))
    inner = next(c for c in wrapper.co_consts
                 if isinstance(c, types.CodeType) and c.co_name == name)
    cells = dict(zip(free, one_row.__closure__ or ()))
    function = types.FunctionType(inner, one_row.__globals__, name, None,
                                  tuple(cells[v] for v in inner.co_freevars))
    function.source = batched
    return function
