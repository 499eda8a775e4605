"""Proofs from the source that running a generator helper early changes nothing.

``prove_pure(parsed)``: the body of the generator (and of the user functions it calls) has
no effect but the items it yields: it assigns only local names and items of containers it
built itself, and calls only rule-table NumPy/SciPy functions, pure builtins, array and
container methods that return a new value, other generators, and user functions proven
the same way. ``mutated_bases``: the names whose objects a block of code may change in
place (the consumer of a generator is checked with it).
"""

from __future__ import annotations

import builtins
import inspect
import types

from srcgrad import syntax
from srcgrad.syntax import gast

MAX_DEPTH = 4

# builtins with no effect but their result
PURE_BUILTINS = {
    "abs", "all", "any", "bool", "dict", "divmod", "enumerate", "filter", "float", "int",
    "isinstance", "len", "list", "map", "max", "min", "pow", "range", "reversed", "round",
    "sorted", "str", "sum", "tuple", "type", "zip", "complex", "slice", "hasattr", "getattr",
    "iter", "callable", "repr", "hash", "id", "format",
}

# methods that return a new value and change nothing (arrays, lists, tuples, dicts)
PURE_METHODS = {
    "astype", "clip", "copy", "cumsum", "cumprod", "dot", "flatten", "get", "items", "keys",
    "values", "max", "mean", "min", "prod", "ravel", "repeat", "reshape", "squeeze", "std",
    "sum", "swapaxes", "tolist", "trace", "transpose", "var", "argmax", "argmin",
    "argsort", "nonzero", "any", "all", "count", "index", "conj", "conjugate", "round",
    "diagonal", "take", "item", "format", "join", "split", "strip", "lower", "upper",
    "startswith", "endswith", "replace", "logpdf", "pdf", "cdf", "logcdf", "sf",
}

# methods that grow or change their receiver: allowed on containers the code built itself
_CHANGING_METHODS = {"append", "extend", "insert", "pop", "update", "setdefault", "clear",
                     "remove", "sort", "reverse", "fill", "resize", "put", "itemset"}

# calls that make a new container (a local bound only to them is the code's own)
_MAKERS = {"list", "dict", "np.zeros", "np.ones", "np.empty", "np.zeros_like",
           "np.ones_like", "np.empty_like", "np.array", "np.copy", "np.full"}


def describe(node):
    """A few words on a node, for error messages: `` `ws.append(...)` ``."""
    text = syntax.to_source(node).strip().splitlines()[0]
    return f"`{text if len(text) <= 60 else text[:57] + '...'}`"


def built_containers(parsed, node=None):
    """Local names bound only to values the function makes itself (displays,
    comprehensions, ``list(...)``, ``np.zeros(...)``, constants, arithmetic), ``+=`` aside:
    changing them in place is not seen outside."""
    node = node if node is not None else parsed.node
    bound = {}
    for stmt in syntax.walk(node):
        if isinstance(stmt, gast.FunctionDef) and stmt is not node:
            continue
        if isinstance(stmt, gast.Assign):
            for target in stmt.targets:
                for name in _names(target):
                    fresh = isinstance(target, gast.Name) and _makes_value(stmt.value)
                    bound[name] = bound.get(name, True) and fresh
        elif isinstance(stmt, (gast.AnnAssign, gast.For)):
            for name in _names(stmt.target):
                bound[name] = False
    params = set(syntax.param_names(node.args))
    return {name for name, fresh in bound.items() if fresh and name not in params}


def _names(target):
    return [n.id for n in syntax.walk(target) if isinstance(n, gast.Name)]


def _makes_value(value):
    if isinstance(value, (gast.List, gast.Dict, gast.ListComp, gast.DictComp, gast.Constant,
                          gast.BinOp, gast.UnaryOp)):
        return True
    return isinstance(value, gast.Call) and syntax.dotted_name(value.func) in _MAKERS


def mutated_bases(parsed, node, local_names):
    """(name, node) for every object ``node`` may change in place: stores into items or
    attributes, ``+=`` on a name, changing methods, and names passed to calls that are not
    proven pure."""
    found = []
    for sub in syntax.walk(node):
        if isinstance(sub, (gast.Assign, gast.AugAssign, gast.AnnAssign)):
            targets = sub.targets if isinstance(sub, gast.Assign) else [sub.target]
            for target in targets:
                for part in syntax.walk(target):
                    if isinstance(part, (gast.Subscript, gast.Attribute)):
                        base = _root(part)
                        if base:
                            found.append((base, sub))
            if isinstance(sub, gast.AugAssign) and isinstance(sub.target, gast.Name):
                found.append((sub.target.id, sub))
        elif isinstance(sub, gast.Call):
            found += _call_mutations(parsed, sub, local_names)
    return found


def _root(node):
    while isinstance(node, (gast.Subscript, gast.Attribute)):
        node = node.value
    return node.id if isinstance(node, gast.Name) else None


def _call_mutations(parsed, call, local_names):
    func = call.func
    if isinstance(func, gast.Attribute) and _root(func.value) in local_names:
        if func.attr in PURE_METHODS:
            return []
        return [(_root(func.value), call)]
    if syntax.dotted_name(func) == "print" or \
            _pure_callee(parsed, call, local_names, depth=MAX_DEPTH) is None:
        return []
    return [(n, call) for arg in list(call.args) + [k.value for k in call.keywords]
            for n in syntax.loaded_names(arg)]


def prove_pure(parsed, node=None, depth=0):
    """Raise a ``TransformError`` at the first statement of the function (a generator, or a
    function it calls) whose effect is not proven confined to its own locals."""
    node = node if node is not None else parsed.node
    local_names = set(syntax.param_names(node.args)) | set(syntax.names_in(node, gast.Store))
    own = built_containers(parsed, node)
    for call in syntax.walk(node):
        if isinstance(call, gast.Call):
            why = _pure_callee(parsed, call, local_names, depth)
            if why is not None:
                raise parsed.error(
                    f"{describe(call)}: {why}; srcgrad runs a generator helper to its end "
                    f"before its consumer, which is the same program only when the generator "
                    f"has no effect but its items", call)
    for base, where in mutated_bases(parsed, node, local_names):
        if base not in own:
            raise parsed.error(
                f"{describe(where)} may change `{base}`, which `{parsed.fn.__name__}` did not "
                f"build: srcgrad runs a generator helper to its end before its consumer "
                f"(see the generator's `yield`), which is the same program only when the "
                f"generator has no effect but its items", where)


def _pure_callee(parsed, call, local_names, depth):
    """None when the call is proven to have no effect but its result (its arguments
    aside, which ``mutated_bases`` covers); otherwise why not."""
    from srcgrad.rules import REGISTRY

    func = call.func
    if isinstance(func, gast.Attribute) and _root(func.value) in local_names:
        return None if func.attr in PURE_METHODS or func.attr in _CHANGING_METHODS \
            else f"the method `{func.attr}` is not known to leave its object unchanged"
    dotted = syntax.dotted_name(func)
    if dotted is None or dotted.split(".")[0] in local_names:
        return "a function passed in as a value may have effects"
    try:
        target = parsed.resolve(dotted)
    except KeyError:
        return f"`{dotted}` is not defined"
    if isinstance(target, type) and issubclass(target, BaseException):
        return None   # an exception made (raising it ends the generator and its consumer)
    if getattr(builtins, dotted, None) is target:
        return None if dotted in PURE_BUILTINS else f"the builtin `{dotted}` has effects"
    rule = REGISTRY.lookup(target)
    if rule is not None:
        return None if not rule.inplace else f"`{dotted}` changes its argument in place"
    module = getattr(target, "__module__", None) or ""
    if REGISTRY.is_nondiff(target) and module.split(".")[0] in ("numpy", "math", "scipy") \
            and ".random" not in f"{module}.{dotted}":
        return None
    if inspect.isgeneratorfunction(target):
        return None   # its own calls are checked and it is lowered on its own
    if isinstance(target, types.FunctionType) and depth < MAX_DEPTH:
        return _pure_user_function(parsed, target, depth)
    return f"`{dotted}` is not known to be free of effects"


def _pure_user_function(parsed, target, depth):
    from srcgrad.errors import TransformError
    from srcgrad.frontend.parse import parse_function

    try:
        callee = parse_function(target)
        prove_pure(callee, depth=depth + 1)
    except TransformError as error:
        return f"`{target.__name__}` is not proven free of effects ({error.reason})"
    except (OSError, TypeError):
        return f"the source of `{target.__name__}` cannot be read"
    return None
