"""``_sg.dynamic_jvp`` met in generated code that is differentiated again: its derivative
is the derivative of the *user's* callee's generated jvp, one order higher, never of
srcgrad's own Python (``runtime.dynamic``).

Differentiated again, ``y, y_dot = _sg.dynamic_jvp(fn, None, (x,), (x_dot,))`` becomes a
call resolved when it runs whose callee is ``_sg.dynamic_jvp`` itself::

    _value, _value_dot = _sg.dynamic_jvp(_sg.dynamic_jvp, None, (fn, None, (x,), (x_dot,)),
                                         (None, None, (x_dot_1,), (x_dot_dot,)))

``dispatched_jvp`` resolves ``fn`` as the first-order call did (``dispatch.resolve``),
takes its generated jvp (``fn_jvp(x, x_dot)``, a unit of the forward compiler) and
returns a small wrapper around it whose parameters are the call's own arguments::

    def dispatched_jvp(_owner, _owner_dot, _args, _tangents):
        return _jvp(_args[0], x_dot=_tangents[0])

(``_method_owner(_args[0])`` where ``_args[0]`` is the bound method ``x.reshape``,
``_dict_get(_keyword_dots, "b")`` for a keyword's tangent: rows both, of the runtime's
``method_owner`` and ``dict_get``. The wrapper's own parameters start with an underscore:
the callee's keywords, ``args=`` of ``odeint`` say, are parameters beside them.)

That wrapper, generated code over generated code, is what the dispatcher differentiates
(forward or reverse): the derivative of ``fn_jvp``, one order higher.
"""

from __future__ import annotations

from srcgrad import runtime
from srcgrad.compiler.call_wrappers import _load_wrapper, _unit_wrapper
from srcgrad.errors import TransformError

# The parameters of ``dynamic_jvp(func, owner_dot, args, tangents)`` and of
# ``dynamic_jvp_keywords(func, owner_dot, args, tangents, kwargs, keyword_dots)`` after
# ``func`` (whose derivative is its owner's: a bound method's object).
_OUTER = ("_owner_dot", "_args", "_tangents", "_kwargs", "_keyword_dots")


def dispatched_jvp(func, inputs, kwargs):
    """The ``Callee`` for ``_sg.dynamic_jvp(F, owner_dot, args, tangents, **kwargs)`` (or
    ``dynamic_jvp_keywords``) called through a value: ``inputs`` are its arguments with
    their slots among the caller's cotangents."""
    from srcgrad.analysis import escapes
    from srcgrad.compiler import dispatch
    from srcgrad.compiler import forward as compiler

    (target, target_slot), *outer = inputs
    owner_dot, args, tangents = (value for value, _ in outer[:3])
    keyword_dots = outer[4][0] if len(outer) > 3 else {}
    inner_kwargs = outer[3][0] if len(outer) > 3 else kwargs
    varies = owner_dot is not None
    if any(type(arg) is not tuple for arg in (args, tangents)):
        raise TransformError("srcgrad: generated code passed _sg.dynamic_jvp its arguments "
                             "and tangents other than as tuples")
    inner = dispatch.resolve(target, varies, args, inner_kwargs, bool(keyword_dots))
    base = 1 if varies else 0
    sources, constants = [], []
    for value, slot in zip(inner.values, inner.slots):
        if slot is None or (slot >= base and dispatch.inert(value)):
            # (a function among the arguments, odeint's dynamics say, is passed on as a
            # constant: read from ``_args``, it would seem to vary with it)
            sources.append(f"_c{len(constants)}")
            constants.append(value)
        elif varies and slot == 0:
            sources.append("_owner")
        else:
            sources.append(_source(value, args, slot - base))
    chosen = _chosen_tangents(inner, base, owner_dot, tangents, keyword_dots)
    unit = compiler.forward_unit(inner.fn, tuple(name for name, _ in chosen))
    escapes.check_callee(unit)
    keywords = tuple(inner.kwargs)
    in_dict = len(outer) > 3   # the keyword variant: the callee's keywords in ``kwargs``
    key = ("jvp", tuple(sources), tuple(chosen), keywords, in_dict, len(outer))
    wrapper = _unit_wrapper(unit, key, lambda: _jvp_wrapper(
        unit, sources, chosen, keywords, len(constants), in_dict, len(outer)))
    owner = inner.values[inner.slots.index(0)] if varies else None
    values = (owner,) + tuple(value for value, _ in outer) + tuple(constants)
    slots = (target_slot if varies else None,) + tuple(slot for _, slot in outer) \
        + (None,) * len(constants)
    extra = {} if in_dict else dict(inner.kwargs)
    return dispatch.Callee(wrapper, values, extra, slots)


def _source(value, args, position):
    """How the wrapper reads the callee's value from the call's ``args``: the item, or the
    object of the bound method there (resolving ``x.reshape`` gave ``x``)."""
    item = args[position]
    if item is value:
        return f"_args[{position}]"
    if getattr(item, "__self__", None) is value:
        return f"_method_owner(_args[{position}])"
    raise TransformError(f"srcgrad: internal error: the callee resolved for a call through a "
                         f"value was given {type(value).__name__}, not argument {position} "
                         f"({type(item).__name__}) or its object")


def _chosen_tangents(inner, base, owner_dot, tangents, keyword_dots):
    """``[(parameter name, expression of its tangent in the wrapper)]`` for each of the
    callee's parameters that gets a tangent (``dynamic_jvp`` leaves out those given None)."""

    carried = {i + base for i, dot in enumerate(tangents) if dot is not None}
    wrt, slots = inner.wrt(frozenset(carried | ({0} if owner_dot is not None else set())))
    chosen = []
    for name, slot in zip(wrt, slots):
        if type(slot) is int:
            dot = owner_dot if slot < base else tangents[slot - base]
            expression = "_owner_dot" if slot < base else f"_tangents[{slot - base}]"
        elif type(slot) is str:
            dot, expression = keyword_dots.get(slot), f"_dict_get(_keyword_dots, {slot!r})"
        else:   # the callee's **kwargs: a dict of the tangents of the keywords it got
            dot, expression = _packed_tangent(slot, keyword_dots)
        if dot is not None:
            chosen.append((name, expression))
    return chosen


def _packed_tangent(names, keyword_dots):
    """``(dot, expression)`` for a callee's ``**kwargs`` parameter that gets the keywords
    ``names``: None when none of them has a tangent (``dynamic_jvp_keywords`` gives it
    none), else a dict literal of their tangents, zeros for those without one."""
    dots = [keyword_dots.get(name) for name in names]
    if all(d is None for d in dots):
        return None, None
    items = [f"{name!r}: _zeros_like(_dict_get(_kwargs, {name!r}))" if d is None
             else f"{name!r}: _dict_get(_keyword_dots, {name!r})"
             for name, d in zip(names, dots)]
    return True, f"{{{', '.join(items)}}}"


def _jvp_wrapper(unit, sources, chosen, keywords, n_constants, in_dict, n_outer):
    constants = [f"_c{i}" for i in range(n_constants)]
    signature = ["_owner", *_OUTER[:n_outer], *constants]
    call = list(sources)
    if in_dict:
        call += [f"{k}=_dict_get(_kwargs, {k!r})" for k in keywords]
    else:
        signature += list(keywords)
        call += [f"{k}={k}" for k in keywords]
    call += [f"{unit.tangent_names[name]}={expression}" for name, expression in chosen]
    source = (f"def dispatched_jvp({', '.join(signature)}):\n"
              f"    return _jvp({', '.join(call)})\n")
    return _load_wrapper(source, "dispatched_jvp",
                         {"_jvp": unit.jvp, "_method_owner": runtime.method_owner,
                          "_dict_get": runtime.dict_get, "_zeros_like": runtime.zeros_like})
