"""The small Python functions that calls resolved at run time go through
(``compiler.dispatch``): each is made as source, registered in ``linecache`` and loaded
once, so srcgrad compiles it like user code.

- ``_wrapper(np.tanh, 1, ())``: ``def tanh_call(_a0): return _callee(_a0)``, with
  ``_callee`` bound to ``np.tanh`` (an ndarray method: ``_ArrayMethod("sum")`` gives
  ``def sum_method(_a0): return _callee(_a0)`` over ``np.sum``);
- ``_forward_wrapper`` / ``_backward_wrapper``: generated code's own forward and
  backward, with the cotangent slots of the call laid out for the caller.
"""

from __future__ import annotations

import builtins
import dataclasses
import itertools
import linecache
import threading
import types

from srcgrad.rules.methods import ARRAY_METHODS

# (callee, positional count, keyword names) -> wrapper function
_WRAPPERS: dict[tuple, types.FunctionType] = {}
_LOCK = threading.Lock()
_COUNTER = itertools.count()


def _unit_wrapper(unit, key, make):
    with _LOCK:
        wrappers = unit.__dict__.setdefault("dispatch_wrappers", {})
        if key not in wrappers:
            wrappers[key] = make()
        return wrappers[key]


def _forward_wrapper(unit, slots, count, n_values, keywords):
    params = [f"_a{i}" for i in range(n_values)]
    call = ", ".join(params + [f"{k}={k}" for k in keywords])
    signature = ", ".join(params + list(keywords))
    source = (f"def dispatched_forward({signature}):\n"
              f"    value, saved = _forward({call})\n"
              f"    return value, (_unit, saved, {tuple(slots)!r}, {count})\n")
    return _load_wrapper(source, "dispatched_forward",
                         {"_forward": unit.forward, "_unit": unit})


def _backward_wrapper(unit, slots, count, keywords=False):
    """``dynamic_backward``'s value (with ``keywords``: ``dynamic_backward_keywords``'s,
    the positional cotangents and a dict of the keywords': a named parameter's at its
    name, and for the callee's ``**kwargs`` parameter, whose slot is the tuple of the
    keywords it received, its cotangent's entries at those keywords, merged in)."""
    items, named, packed = ["0.0"] * count, [], []
    for i, slot in enumerate(slots):
        if type(slot) is int:
            items[slot] = f"grads[{i}]"
        elif type(slot) is str:
            named.append(f"{slot!r}: grads[{i}]")
        else:
            packed.append(f"_keyword_part(grads[{i}], {tuple(slot)!r})")
    value = f"({', '.join(items)}{',' if count == 1 else ''})"
    if keywords:
        merged = f"{{{', '.join(named)}}}"
        for part in packed:
            merged = f"_merged_keywords({merged}, {part})"
        value = f"{value}, {merged}"
    source = ("def dispatched_backward(saved, g):\n"
              "    grads = _backward(saved[1], g)\n"
              f"    return {value}\n")
    from srcgrad import runtime

    return _load_wrapper(source, "dispatched_backward",
                         {"_backward": unit.backward, "_keyword_part": runtime.keyword_part,
                          "_merged_keywords": runtime.merged_keywords})


def _load_wrapper(source, name, namespace):
    filename = f"<srcgrad call {name} {next(_COUNTER)}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace["__builtins__"] = builtins
    exec(compile(source, filename, "exec"), namespace)
    return namespace[name]


@dataclasses.dataclass(frozen=True)
class _ArrayMethod:
    """An ndarray (or list/tuple) method by name, as a wrapper's callee."""

    name: str


@dataclasses.dataclass(frozen=True)
class _Replace:
    """``nt._replace(**changes)`` of the NamedTuple class ``cls``, as a wrapper's callee:
    a new one built field by field (``P(x=_a0.x, c=c)``), a structure call both modes
    differentiate."""

    cls: type


def _wrapper(callee, count, keywords):
    """A small Python function calling ``callee`` with ``count`` positional arguments and
    the given keywords, with its source in ``linecache`` (so it compiles as user code)."""
    key = (callee, count, keywords)
    with _LOCK:
        found = _WRAPPERS.get(key)
        if found is None:
            found = _WRAPPERS[key] = _make_wrapper(callee, count, keywords)
    return found


def _make_wrapper(callee, count, keywords):
    from srcgrad import runtime

    params = [f"_a{i}" for i in range(count)]
    kw_params = [k for k in keywords if k not in params]
    args = list(params)
    if isinstance(callee, _Replace):
        fields = callee.cls._fields
        name = "namedtuple_replace"
        args = [f"{f}={f}" if f in kw_params else f"{f}={params[0]}.{f}" for f in fields]
        kw_params = [k for k in kw_params if k in fields]   # others: the TypeError below
        source = (f"def {name}({', '.join(params + kw_params)}):\n"
                  f"    return _callee({', '.join(args)})\n")
        if len(params) != 1 or set(keywords) - set(fields):
            raise TypeError(f"{callee.cls.__name__}._replace() takes field names as keywords "
                            f"only, not {count - 1} positional argument(s) or "
                            f"{sorted(set(keywords) - set(fields))}")
        return _load_wrapper(source, name, {"_callee": callee.cls})
    if isinstance(callee, _ArrayMethod):
        name = f"{callee.name}_method"
        target, packs = ARRAY_METHODS.get(callee.name, (None, None))
        if target is None:   # no derivative: ``_sg.call_method(obj, "count", ...)``
            target = runtime.call_method
            args = [args[0], repr(callee.name)] + args[1:]
        elif packs and len(args) > 2:   # ``x.reshape(3, 4)``
            args = [args[0], "(" + ", ".join(args[1:]) + ",)"]
    else:
        name = f"{getattr(callee, '__name__', 'callee')}_call".replace("<lambda>", "lambda_")
        target = callee
    if not name.isidentifier():
        name = "callee_call"
    call_args = ", ".join(args + [f"{k}={k}" for k in kw_params])
    signature = ", ".join(params + kw_params)   # keywords too: forward mode's jvp has no
    # keyword-only parameters
    source = f"def {name}({signature}):\n    return _callee({call_args})\n"
    return _load_wrapper(source, name, {"_callee": target})
