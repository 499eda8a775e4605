"""The language fence: reject what srcgrad cannot differentiate, before any rewriting.

Before: a parsed function that may contain, say, ``async for``.
After:  the same function, unchanged, or a ``TransformError`` naming the construct and
        citing the user's file:line with a caret (or saying the file changed after import:
        ``freshness``)::

            `async for` is not supported
              File "model.py", line 4, in f
                async for x in stream:
                ^

A generator helper called from differentiated code is lowered here first (``generators``).
"""

from __future__ import annotations

import builtins

from srcgrad import syntax
from srcgrad.frontend.freshness import compiles_to, stale_source_error
from srcgrad.frontend.function_tables import table_lambdas
from srcgrad.frontend.functional_args import functional_lambdas
from srcgrad.frontend.generators import (
    CONSUMED,
    check_generator_calls,
    lower_generator,
    refuse_generator,
)
from srcgrad.frontend.transforms import lambdas_given_to_transforms
from srcgrad.syntax import gast

# node type -> why it is rejected
UNSUPPORTED = {
    gast.Yield: "`yield` is supported only in a generator helper that the differentiated "
                "code consumes entirely (`for ... in gen(...)` without `break`, `sum(gen(...))` "
                "or `sum(gen(...), start)`, `list(gen(...))`, `sorted(gen(...), "
                "reverse=True)`); a generator is not differentiated directly",
    gast.YieldFrom: "`yield from` is supported only in a generator helper that the "
                    "differentiated code consumes entirely; a generator is not "
                    "differentiated directly",
    gast.Await: "`await` is not supported (coroutines cannot be differentiated)",
    gast.AsyncFor: "`async for` is not supported",
    gast.AsyncWith: "`async with` is not supported",
    gast.AsyncFunctionDef: "`async def` is not supported",
    gast.Global: "`global` is not supported (assigning module globals from a "
                 "differentiated function would hide data flow); pass the value in and return it",
    gast.Nonlocal: "`nonlocal` is not supported; pass the value in and return it",
    gast.TryStar: "`except*` (exception groups) is not supported",
    gast.ClassDef: "a class defined inside a differentiated function is not supported",
    gast.FunctionDef: "a `def` nested inside a block (an `if`, a loop, another `def`) is not "
                      "supported; define it at the top of the function or at module level",
    gast.Lambda: "a `lambda` here is not supported: assign it to a name at the top of the "
                 "function (`act = lambda z: ...`) or put it in a list, tuple or dict built "
                 "there whose items are only called (`fs[k](x)`), define a function, or "
                 "give it straight to `map`, `filter` or `functools.reduce`",
    gast.SetComp: "set comprehensions are not supported",
    gast.NamedExpr: "the walrus operator `:=` is not supported",
    gast.Match: "`match` statements are not supported",
    gast.Import: "`import` inside a differentiated function is not supported; import at "
                 "module level",
    gast.Set: "set literals are not supported",
    gast.Starred: "starred expressions (`*rest`) outside a call's arguments and an "
                  "assignment's target (`first, *rest = items`) are not supported yet",
}


# What the checks below refuse that is not one node type: key -> message (``{name}``
# is filled in with the name the user wrote).
REFUSED = {
    "default": "this default value is not supported",
    "star-import": "star-imports are not supported",
    "from-import": "`from ... import` inside a differentiated function is not supported; "
                   "import at module level",
    "dict-unpacking": "dict unpacking (`{{**d}}`) is not supported",
    "namespace-read": "`{name}()` is not supported: the generated code keeps its values "
                      "under other names; read the variables directly",
    "exec-eval": "`{name}` is not supported (its code cannot be seen by the compiler)",
    "nested-subscript-assign": "assigning into a nested subscript (`a.b[i] = ...` or "
                               "`a[i][j] = ...`) is not supported; use `a[i, j] = ...`",
    "del-subscript": "`del` of several indices, an attribute or an item of an item is not "
                     "supported (`del xs[i]`, `del xs[i:j]` of a list and `del d[key]` of a "
                     "dict are)",
    "del-read-later": "`del {name}` of a name that is read later is not supported",
    "lambda-per-item": "a `lambda` made for each item of a comprehension or loop is not "
                       "supported yet: define a function taking the item as a parameter "
                       "(`def scaled(v, c): return v * c`) and call it with the item",
}


# builtins that read the function's own namespace, which the generated code renames
NAMESPACE_READS = ("locals", "vars", "globals")


def check_function(parsed):
    """Raise a ``TransformError`` for the first unsupported construct in ``parsed``."""
    node = parsed.node
    check_generator_calls(parsed)
    if parsed.fn.__code__ in CONSUMED:
        lower_generator(parsed)
    else:
        refuse_generator(parsed.fn, parsed)
    _check_defaults(parsed, node.args)
    # The body's nodes, statement by statement, walked once for every check below (none
    # of which rewrites the tree).
    nodes = [sub for stmt in node.body for sub in syntax.walk(stmt)]
    parsed.fenced_body = (node.body, {sub.id for sub in nodes if type(sub) is gast.Name})
    tabled, refused_table = table_lambdas(parsed)
    if refused_table is not None:
        raise parsed.error(*refused_table.problem)
    allowed = tabled | _local_function_nodes(node) | _call_unpackings(nodes) \
        | _starred_targets(nodes) | lambdas_given_to_transforms(parsed, nodes) \
        | {id(call.args[0]) for call in functional_lambdas(parsed)}
    for lam in _lambdas_per_item(nodes):
        if id(lam) not in allowed:
            raise parsed.error(REFUSED["lambda-per-item"], lam)
    for sub in nodes:
        kind = type(sub)
        if (kind in _CHECKED or kind is gast.Name and sub.id in NAMESPACE_READS) \
                and id(sub) not in allowed:
            _check_node(parsed, sub)
    _check_deletes(parsed, nodes)
    if not compiles_to(parsed.fn):   # the text read is not the code that runs
        raise stale_source_error(parsed.fn)
    return parsed


def taken_names(parsed):
    """Every name the function's tree holds (``syntax.names_in(parsed.node)`` as a set)
    and the function's own name: what a generated name must not collide with. The
    body's names are those ``check_function``'s walk saw while the body is the list it
    walked (the record is dropped on first use; nothing rewrites a body's statements
    in between); its parameters, defaults (``codegen.defaults`` names some),
    decorators and annotations are walked here."""
    node = parsed.node
    body, names = parsed.__dict__.pop("fenced_body", (None, None))
    if body is not node.body:
        names = set(syntax.names_in(gast.Module(body=node.body, type_ignores=[])))
    for field in node._fields:
        value = getattr(node, field, None)
        if field == "body" or value is None:
            continue
        for item in value if type(value) is list else [value]:
            if isinstance(item, gast.AST):
                names.update(syntax.names_in(item))
    names.add(node.name)
    return names


def _local_function_nodes(fn_node):
    """Nested ``def``s and ``name = lambda`` at the top of the body (they are inlined)."""
    allowed = set()
    for stmt in fn_node.body:
        if isinstance(stmt, gast.FunctionDef):
            allowed.add(id(stmt))
        elif isinstance(stmt, gast.Assign) and isinstance(stmt.value, gast.Lambda):
            allowed.add(id(stmt.value))
    return allowed


def _lambdas_per_item(nodes):
    """Lambdas written in a comprehension's element or a loop's body: one per item.
    ``nodes``: every node of the function's body."""
    for node in nodes:
        if isinstance(node, (gast.ListComp, gast.GeneratorExp, gast.DictComp, gast.SetComp)):
            parts = [node.elt] if not isinstance(node, gast.DictComp) else [node.key,
                                                                           node.value]
        elif isinstance(node, (gast.For, gast.While)):
            parts = node.body
        else:
            continue
        for part in parts:
            yield from (sub for sub in syntax.walk(part) if isinstance(sub, gast.Lambda))


def _call_unpackings(nodes):
    """``*xs`` written as a call's argument (``f(*xs)``): resolved when the call runs."""
    return {id(arg) for call in nodes if isinstance(call, gast.Call)
            for arg in call.args if isinstance(arg, gast.Starred)}


def _starred_targets(nodes):
    """``first, *rest = value``: one starred name in an assignment's tuple or list target
    (``normalize.desugar`` reads the items by index and the rest by a slice)."""
    return {id(elt) for stmt in nodes if isinstance(stmt, gast.Assign)
            for target in stmt.targets if isinstance(target, (gast.Tuple, gast.List))
            and sum(isinstance(e, gast.Starred) for e in target.elts) == 1
            for elt in target.elts
            if isinstance(elt, gast.Starred) and isinstance(elt.value, gast.Name)}


def _check_defaults(parsed, args):
    """Default values are evaluated again by the generated functions: keep them simple."""
    for default in list(args.defaults) + [d for d in args.kw_defaults if d is not None]:
        for sub in gast.walk(default):
            if isinstance(sub, (gast.Lambda, gast.NamedExpr, gast.Yield, gast.Await)):
                raise parsed.error(REFUSED["default"], sub)


# The node types ``_check_node`` may refuse, but for names (only those of
# ``NAMESPACE_READS``); gast's node classes have no subclasses.
_CHECKED = frozenset(UNSUPPORTED) | {gast.ImportFrom, gast.Dict, gast.Call, gast.Assign,
                                     gast.AugAssign, gast.AnnAssign, gast.For}


def _check_node(parsed, node):
    message = UNSUPPORTED.get(type(node))   # (gast's node classes have no subclasses)
    if message is not None:
        raise parsed.error(message, node)
    if isinstance(node, gast.ImportFrom):
        if any(alias.name == "*" for alias in node.names):
            raise parsed.error(REFUSED["star-import"], node)
        raise parsed.error(REFUSED["from-import"], node)
    if isinstance(node, gast.Dict) and any(key is None for key in node.keys):
        raise parsed.error(REFUSED["dict-unpacking"].format(), node)
    if isinstance(node, gast.Name) and node.id in NAMESPACE_READS \
            and isinstance(node.ctx, gast.Load) and _is_builtin(parsed, node.id):
        raise parsed.error(REFUSED["namespace-read"].format(name=node.id), node)
    if isinstance(node, gast.Call):
        if isinstance(node.func, gast.Name) and node.func.id in ("exec", "eval"):
            raise parsed.error(REFUSED["exec-eval"].format(name=node.func.id), node)
    if isinstance(node, gast.Assign):
        for target in node.targets:
            _check_target(parsed, target)
    if isinstance(node, (gast.AugAssign, gast.AnnAssign)):
        _check_target(parsed, node.target)
    if isinstance(node, (gast.For, gast.While)) and isinstance(node, gast.For):
        _check_target(parsed, node.target)


def _is_builtin(parsed, name):
    """Does ``name`` denote the builtin of that name here (not a local or a global)?"""
    if name in {n.id for n in gast.walk(parsed.node)
                if isinstance(n, gast.Name) and not isinstance(n.ctx, gast.Load)}:
        return False
    try:
        return parsed.resolve(name) is getattr(builtins, name)
    except KeyError:
        return False


def _check_target(parsed, target):
    if isinstance(target, gast.Subscript) and not isinstance(target.value, gast.Name):
        raise parsed.error(REFUSED["nested-subscript-assign"], target)
    if isinstance(target, (gast.Tuple, gast.List)):
        for elt in target.elts:
            _check_target(parsed, elt)


def _check_deletes(parsed, nodes):
    """``del name`` is allowed only when ``name`` is not read afterwards. ``nodes``:
    every node of the function's body."""
    for stmt in nodes:
        if not isinstance(stmt, gast.Delete):
            continue
        for target in stmt.targets:
            if isinstance(target, gast.Subscript) and isinstance(target.value, gast.Name) \
                    and not isinstance(target.slice, gast.Tuple):
                continue   # ``del xs[i]``, ``del xs[i:j]``, ``del d[k]`` (normalize.desugar)
            if not isinstance(target, gast.Name):
                raise parsed.error(REFUSED["del-subscript"], target)
            later = [n for n in nodes if isinstance(n, gast.Name)
                     and isinstance(n.ctx, gast.Load) and n.id == target.id
                     and (n.lineno or 0) > stmt.lineno]
            if later:
                raise parsed.error(REFUSED["del-read-later"].format(name=target.id), stmt)


def refusals():
    """Every message the fence can give, in table order: what ``python -m srcgrad fence``
    prints and docs/what-compiles.md lists. ``{name}`` shows the names a check covers
    (``exec|eval``), or ``NAME``."""
    covers = {"namespace-read": "|".join(NAMESPACE_READS), "exec-eval": "exec|eval"}
    return list(UNSUPPORTED.values()) + [
        message.format(name=covers.get(key, "NAME")) for key, message in REFUSED.items()]
