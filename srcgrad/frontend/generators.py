"""Generator helpers lowered to functions that build a list.

Before (``pairs`` is called from differentiated code as ``for W, b in pairs(params):``)::

    def pairs(ws):
        for W, b in ws:
            yield W, b

After::

    def pairs(ws):
        _yielded = []
        for W, b in ws:
            _yielded.append((W, b))
        return _yielded

``yield from xs`` becomes ``for _item in xs: _yielded.append(_item)`` and ``return``
becomes ``return _yielded``. The list holds the items the generator yields, in order; what
changes is when the generator's body runs: all of it before the consumer sees the first
item, instead of interleaved with the consumer. That is the same program when

- every call of the generator consumes all of it and nothing else (``check_generator_calls``,
  run on every function srcgrad reads): ``for`` over it with no ``break`` or ``return`` in
  the loop body (also through ``enumerate`` and in a comprehension), ``sum``, ``list``,
  ``tuple``, ``sorted``, ``min``, ``max`` or ``dict`` of it (with ``sum``'s start and
  ``sorted``'s ``key`` and ``reverse`` given as plain values), ``yield from`` it in another
  generator; and the consumer's loop body changes in place no object the generator can read
  (only containers the consumer built itself); and no ``try`` with handlers in the
  consumer's function encloses the call (an exception from the generator would reach the
  handler before the consumer saw the items yielded before it);
- the generator's body has no effect but its items (``generator_purity``).

Otherwise a ``TransformError`` names the construct and the line. A generator is lowered
only after a call of it was checked (``CONSUMED``); differentiated directly it is refused.
"""

from __future__ import annotations

import builtins
import inspect
import weakref

from srcgrad import syntax
from srcgrad.frontend.generator_purity import (
    built_containers,
    describe,
    mutated_bases,
    prove_pure,
)
from srcgrad.syntax import gast

# The code objects of generators whose calls were checked: lowered when compiled.
CONSUMED: weakref.WeakSet = weakref.WeakSet()

# builtins that run through all of an iterable given as their first argument
_CONSUMING_BUILTINS = {"sum", "list", "tuple", "sorted", "min", "max", "dict"}

USE_HINT = ("srcgrad differentiates a generator helper by building the list of its items: "
            "iterate over all of it (`for ... in gen(...)` without `break`, `sum(gen(...))` "
            "(with or without a start), `sorted(gen(...))`, "
            "`list(gen(...))`, `yield from gen(...)`), or return a list")


def generator_function(parsed, call, local_names):
    """The generator function ``call`` calls, if its callee is a global that is one."""
    dotted = syntax.dotted_name(call.func)
    if not dotted or dotted.split(".")[0] in local_names:
        return None
    try:
        target = parsed.resolve(dotted)
    except KeyError:
        return None
    target = inspect.unwrap(target) if callable(target) else target
    return target if inspect.isgeneratorfunction(target) else None


def refuse_generator(fn, parsed=None):
    """A generator is differentiated only as a helper whose calls were checked: refuse
    one given to a differentiation API directly (or called where srcgrad cannot see how)."""
    from srcgrad.frontend.parse import parse_function

    if not inspect.isgeneratorfunction(fn):
        return
    parsed = parsed or parse_function(fn)
    first = next((n for n in syntax.walk(parsed.node)
                  if isinstance(n, (gast.Yield, gast.YieldFrom))), parsed.node)
    raise parsed.error(f"`{fn.__name__}` is a generator, which is not differentiated "
                       f"directly ({USE_HINT})", first)


def check_generator_calls(parsed):
    """Refuse every call of a generator function in ``parsed`` that does not consume it
    entirely (see the module docstring); remember the ones that do (``CONSUMED``)."""
    node = parsed.node
    calls = [call for call in syntax.walk(node) if isinstance(call, gast.Call)
             and generator_function(parsed, call, ()) is not None]
    if not calls:   # (the usual case: no need for the local names and the parents)
        return
    local_names = set(syntax.param_names(node.args)) | set(syntax.names_in(node, gast.Store))
    parents = _parents(node)
    for call in calls:
        generator = generator_function(parsed, call, local_names)
        if generator is None:   # a local name, not the global generator function
            continue
        handled = _inside_handled_try(call, parents)
        if handled is not None:
            raise parsed.error(
                f"the generator `{generator.__name__}` is consumed inside a `try` with "
                f"`except` handlers: srcgrad runs a generator helper to its end before its "
                f"consumer, so an exception from it would reach the handler before the "
                f"consumer saw the items before it; consume it outside the `try` "
                f"(line {handled.lineno})", call)
        consumer = _consumer(parsed, call, parents, local_names)
        if consumer is None:
            raise parsed.error(
                f"the generator `{generator.__name__}` is used here in a way srcgrad does not "
                f"lower ({USE_HINT})", call)
        _check_consumer(parsed, call, consumer, generator, local_names)
        CONSUMED.add(generator.__code__)


def _parents(root):
    parents = {}
    for node in syntax.walk(root):
        for child in gast.iter_child_nodes(node):
            parents[id(child)] = node
    return parents


def _inside_handled_try(node, parents):
    """The ``try`` with handlers whose body holds ``node`` (in this function), or None."""
    child, parent = node, parents.get(id(node))
    while parent is not None and not isinstance(parent, gast.FunctionDef):
        if isinstance(parent, gast.Try) and parent.handlers \
                and any(stmt is child for stmt in parent.body):
            return parent
        child, parent = parent, parents.get(id(parent))
    return None


def _consumer(parsed, call, parents, local_names):
    """What runs through all of ``call``'s items: a ``For`` or ``comprehension`` node (its
    body is then checked), ``True`` (a consuming builtin or ``yield from``), or None."""
    parent = parents.get(id(call))
    if isinstance(parent, gast.Call) and parent.args and parent.args[0] is call:
        name = _builtin_name(parsed, parent.func, local_names)
        if name in _CONSUMING_BUILTINS and _other_arguments_plain(parsed, parent, name):
            return True
        if name == "enumerate":   # for i, item in enumerate(gen(...)):
            call, parent = parent, parents.get(id(parent))
    if isinstance(parent, gast.For) and parent.iter is call:
        return parent if not _leaves_early(parent.body) else None
    if isinstance(parent, gast.comprehension) and parent.iter is call:
        return parents.get(id(parent))
    if isinstance(parent, gast.YieldFrom) and inspect.isgeneratorfunction(parsed.fn):
        return True
    return None


# the arguments a consuming builtin takes besides the iterable (``sorted``'s ``key`` is
# called after all items were read, so a key function cannot observe the difference)
_EXTRA_ARGUMENTS = {"sum": ("start",), "sorted": ("key", "reverse")}


def _other_arguments_plain(parsed, call, name):
    """Are ``call``'s arguments besides the generator ones the builtin ``name`` takes
    (``sum(gen(v), start)``, ``sorted(gen(v), reverse=True)``), and plain values whose
    evaluation cannot change what the generator reads (the lowered generator runs before
    them, the generator object was made before them): names, constants, attributes,
    arithmetic and NumPy calls?"""
    allowed = _EXTRA_ARGUMENTS.get(name, ())
    if len(call.args) > 1 + (name == "sum") or any(
            k.arg not in allowed for k in call.keywords):
        return False
    return all(_plain(parsed, node) for node in call.args[1:] + [k.value for k in call.keywords])


def _plain(parsed, expr):
    for node in syntax.walk(expr):
        if isinstance(node, (gast.Lambda, gast.NamedExpr, gast.Yield, gast.Await)):
            return False
        if isinstance(node, gast.Call):
            dotted = syntax.dotted_name(node.func)
            if not dotted or dotted.split(".")[0] not in ("np", "numpy") \
                    or any(k.arg == "out" for k in node.keywords):
                return False
            try:
                module = parsed.resolve(dotted.split(".")[0])
            except KeyError:
                return False
            if getattr(module, "__name__", None) != "numpy":
                return False
    return True


def _builtin_name(parsed, func, local_names):
    if not isinstance(func, gast.Name) or func.id in local_names:
        return None
    try:
        found = parsed.resolve(func.id)
    except KeyError:
        return None
    return func.id if getattr(builtins, func.id, None) is found else None


def _leaves_early(body):
    """Does a ``break`` of this loop or a ``return`` occur in ``body``?"""
    for stmt in body:
        if isinstance(stmt, (gast.Break, gast.Return)):
            return True
        if isinstance(stmt, (gast.For, gast.While)):
            if any(isinstance(n, gast.Return) for n in syntax.walk(stmt)):
                return True
            continue
        if isinstance(stmt, gast.FunctionDef):
            continue
        for field in ("body", "orelse", "finalbody"):
            if _leaves_early(getattr(stmt, field, None) or []):
                return True
        for handler in getattr(stmt, "handlers", None) or []:
            if _leaves_early(handler.body):
                return True
    return False


def _check_consumer(parsed, call, consumer, generator, local_names):
    """The consumer's body changes no object the generator's arguments or globals reach."""
    if consumer is True:
        return
    if isinstance(consumer, gast.For):
        body = consumer.body
    else:   # a comprehension: its element and conditions
        body = [g for g in consumer.generators] + [
            getattr(consumer, "elt", None), getattr(consumer, "key", None),
            getattr(consumer, "value", None)]
        body = [part for part in body if part is not None]
    reached = set(syntax.loaded_names(call))
    own = built_containers(parsed)
    for part in body:
        for base, where in mutated_bases(parsed, part, local_names):
            if base in reached or base not in own:
                raise parsed.error(
                    f"{describe(where)} changes `{base}` in place while the generator "
                    f"`{generator.__name__}` is being consumed; srcgrad runs the generator "
                    f"to its end before the loop body (see the generator's `yield`), so the "
                    f"loop may change only containers it built itself", where)


def lower_generator(parsed):
    """Rewrite the generator ``parsed.node`` into a function returning the list of its
    items (in place; see the module docstring); refuse it if its body is not proven free
    of effects, or uses ``yield`` as a value."""
    node = parsed.node
    prove_pure(parsed)
    taken = set(syntax.names_in(node)) | set(syntax.param_names(node.args))
    items = _fresh("_yielded", taken)
    start = syntax.assign(syntax.name(items, store=True), gast.List(elts=[], ctx=gast.Load()))
    node.body = [start] + _lower_block(parsed, node.body, items, taken) + [_return(items)]
    syntax.set_line(node.body[:1] + node.body[-1:], node.lineno)
    return parsed


def _fresh(base, taken):
    name, k = base, 1
    while name in taken:
        name, k = f"{base}_{k}", k + 1
    taken.add(name)
    return name


def _return(items):
    return gast.Return(value=syntax.name(items))


def _append(items, value):
    call = syntax.call(gast.Attribute(value=syntax.name(items), attr="append", ctx=gast.Load()),
                       [value])
    return gast.Expr(value=call)


def _lower_block(parsed, body, items, taken):
    out = []
    for stmt in body:
        new = _lower_stmt(parsed, stmt, items, taken)
        syntax.set_line(new, stmt.lineno)
        out.extend(new)
    return out


def _lower_stmt(parsed, stmt, items, taken):
    if isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Yield):
        value = stmt.value.value
        return [_append(items, value if value is not None else syntax.const(None))]
    if isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.YieldFrom):
        item = _fresh("_item", taken)
        loop = gast.For(target=syntax.name(item, store=True), iter=stmt.value.value,
                        body=[_append(items, syntax.name(item))], orelse=[], type_comment=None)
        return [loop]
    if isinstance(stmt, gast.Return):
        return [_return(items)]
    if isinstance(stmt, gast.FunctionDef):
        return [stmt]
    for sub in syntax.walk(stmt):
        if isinstance(sub, (gast.Yield, gast.YieldFrom)) and not _in_block(stmt, sub):
            raise parsed.error(
                "`yield` used as a value (`x = yield ...`, the send protocol) is not "
                "supported; write `yield` as a statement", sub)
    for field in ("body", "orelse", "finalbody"):
        inner = getattr(stmt, field, None)
        if isinstance(inner, list) and inner and isinstance(inner[0], gast.stmt):
            setattr(stmt, field, _lower_block(parsed, inner, items, taken))
    for handler in getattr(stmt, "handlers", None) or []:
        handler.body = _lower_block(parsed, handler.body, items, taken)
    return [stmt]


def _in_block(stmt, sub):
    """Is ``sub`` inside one of ``stmt``'s nested statement lists (lowered there)?"""
    blocks = [getattr(stmt, f, None) or [] for f in ("body", "orelse", "finalbody")]
    blocks += [h.body for h in getattr(stmt, "handlers", None) or []]
    return any(sub is n for block in blocks for s in block if isinstance(s, gast.stmt)
               for n in syntax.walk(s))
