"""What a call in the user's code is: a rule-table primitive, a non-differentiable
function, another user function (compiled recursively), an array method, or unknown."""

from __future__ import annotations

import dataclasses
import functools
import sys
import types

import numpy as np

from srcgrad import syntax
from srcgrad.errors import MissingRuleError
from srcgrad.frontend.freshness import own_signature
from srcgrad.frontend.plain_classes import plain_init_fields
from srcgrad.frontend.transforms import is_transform
from srcgrad.rules import REGISTRY
from srcgrad.rules.array_api import XP_NONDIFF, XP_RULES
from srcgrad.rules.methods import ARRAY_METHODS, NONDIFF_METHODS
from srcgrad.rules.registry import qualified_name
from srcgrad.syntax import gast

_LIBRARY_PREFIXES = ("numpy", "scipy", "math", "builtins")


@dataclasses.dataclass
class CallInfo:
    kind: str   # "rule" | "nondiff" | "user" | "dynamic" | "variable" | "structure" | "unknown"
    name: str
    target: object = None
    rule: object = None
    args: list | None = None    # positional atoms (the object first for a method)
    keywords: list | None = None
    owner: object = None  # dynamic calls: the atom whose method (or __call__) is called


def classify_call(parsed, call, local_names, arrays=frozenset(), instances=frozenset(),
                  dicts=frozenset(), namespaces=None):
    """Classify ``call`` (a gast Call in A-normal form) and bind its arguments.
    ``arrays``: the locals proven NumPy arrays (``analysis.arrays``); a method of any
    other value is resolved when it runs (``srcgrad.compiler.dispatch``). ``instances``:
    the locals proven instances of a class (``proven_instances``), whose ``.get()``,
    ``.values()``... are the class's methods, not dict's; ``dicts``: the locals proven
    dicts (``proven_dicts``), whose are dict's. A call that unpacks
    its arguments (``f(*xs)``, ``f(**kw)``) binds them only when it runs: a rule-table
    or user callee is then called as a dynamic one. ``namespaces``: the locals proven
    array API namespaces (``analysis.namespaces``), whose calls are the standard's
    functions (``rules.array_api``)."""
    func = call.func
    if namespaces and isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name) \
            and func.value.id in namespaces and not syntax.spreads(call):
        return namespace_call(call, namespaces[func.value.id])
    info = _classify(parsed, call, local_names, arrays, instances, dicts)
    if not syntax.spreads(call) or info.kind not in ("rule", "user", "structure", "unknown"):
        return info
    dotted = syntax.dotted_name(call.func)
    method = isinstance(call.func, gast.Attribute) and (
        dotted is None or dotted.split(".")[0] in local_names)
    if info.kind == "unknown" and not method:
        return info
    return dataclasses.replace(info, kind="dynamic", owner=call.func.value if method else None)


def namespace_call(call, namespace):
    """``xp.tanh(a)`` through a proven namespace: the standard's row (its first argument
    the root namespace, which the row's templates call), a function without a
    derivative, or one srcgrad has no row for (refused where it is differentiated)."""
    root, prefix = namespace
    name = prefix + call.func.attr
    args = [syntax.name(root)] + list(call.args)
    keywords = [(kw.arg, kw.value) for kw in call.keywords]
    if name in XP_RULES:
        return CallInfo("rule", f"xp.{name}", None, XP_RULES[name], args, keywords)
    kind = "nondiff" if name in XP_NONDIFF else "unknown"
    return CallInfo(kind, f"xp.{name}", None, args=args, keywords=keywords)


def _classify(parsed, call, local_names, arrays, instances=frozenset(), dicts=frozenset()):
    args = list(call.args)
    keywords = [(kw.arg, kw.value) for kw in call.keywords]
    func = call.func
    dotted = syntax.dotted_name(func)
    root = dotted.split(".")[0] if dotted else None
    if dotted == "_sg.read_variable":   # see normalize.variables
        return CallInfo("variable", dotted, args=args, keywords=keywords)
    if dotted == "_sg.read_constant":   # the value of an sg.constant: no derivative
        return CallInfo("nondiff", dotted, args=args, keywords=keywords)
    if dotted == "_sg.set_attribute":   # obj.name = value (see normalize.desugar)
        return CallInfo("attribute", "attribute write", args=args, keywords=keywords)
    if isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name) \
            and func.value.id in instances:   # the class's own method, looked up as it runs
        return CallInfo("dynamic", f".{func.attr}()", args=[func.value] + args,
                        keywords=keywords, owner=func.value)
    if isinstance(func, gast.Attribute) and func.attr == "__array_namespace__":
        return CallInfo("nondiff", "__array_namespace__", args=[func.value] + args,
                        keywords=keywords)   # a namespace (a module): no derivative
    if isinstance(func, gast.Attribute) and (root is None or root in local_names):
        return _classify_method(func, args, keywords, arrays, dicts)
    if root in local_names:   # a callable value: known only when it runs
        return CallInfo("dynamic", dotted, args=args, keywords=keywords, owner=func)
    try:
        obj = parsed.assume(dotted)
    except KeyError:
        return CallInfo("unknown", dotted, args=args, keywords=keywords)
    info = classify_object(obj, dotted, args, keywords)
    if info.kind == "user" and is_runtime_helper(obj):
        # a helper generated code calls: never compiled from its source (its rows, or
        # a refusal)
        return CallInfo("unknown", f"_sg.{obj.__name__}", obj, args=args, keywords=keywords)
    if info.kind == "dynamic":   # NET.forward(x), NET(x): a method of a global object
        info.owner = func.value if isinstance(func, gast.Attribute) else func
    return info


def user_class_refusal(info):
    """The refusal for constructing a class of the user's own (not a NamedTuple or a
    dataclass, which are ``structure`` calls) from values being differentiated, or None."""
    cls = info.target
    if cls is functools.partial:
        return ("`functools.partial` of values being differentiated is supported given "
                "straight to `map`, `filter` or `functools.reduce` "
                "(`map(functools.partial(g, theta), xs)`), or made at module level; here, "
                "call the function with the bound values written out, or use a `lambda`")
    if not isinstance(cls, type) or _is_library(cls):
        return None
    return (f"constructing `{cls.__qualname__}`, a class of your own whose `__init__` does "
            "more than store its arguments (`self.w = w` for each parameter), from a value "
            "being differentiated is not supported yet: the values it computes into "
            "attributes would carry no derivative. Store the arguments as they come, pass "
            "the values to the methods that use them, or make the class a NamedTuple or a "
            "dataclass (whose fields are differentiated)")


def is_runtime_helper(obj):
    """Is ``obj`` a function of srcgrad's runtime (what generated code calls as ``_sg``)?
    Differentiating generated code uses the helpers' rule rows, never their source."""
    return isinstance(obj, types.FunctionType) and \
        (obj.__module__ or "").startswith("srcgrad.runtime")


def missing_rule_error(parsed, info, stmt, forward):
    """The MissingRuleError for a call on differentiated values that nothing knows how
    to differentiate: ``user_class_refusal``'s text, or how to register a rule (a
    tangent for ``forward`` mode, a cotangent otherwise)."""
    refusal = user_class_refusal(info)
    if refusal is not None:
        return parsed.error(refusal, stmt, MissingRuleError)
    if is_runtime_helper(info.target):
        return parsed.error(
            f"a derivative of this order is not supported yet: it differentiates "
            f"generated code through srcgrad's runtime helper `{info.name}`, which has no "
            "derivative rule row yet (srcgrad.rules.runtime_rules)", stmt, MissingRuleError)
    if forward:
        example = (f"    srcgrad.defrule({info.name}, 'x', x='g * <partial derivative>', "
                   f"tangent={{'x': 'x_dot * <partial derivative>'}})\n"
                   f"or wrap it with srcgrad.custom_jvp")
    else:
        example = (f"    srcgrad.defrule({info.name}, 'x', x='g * <partial derivative>')\n"
                   f"or wrap it with srcgrad.custom_vjp, or apply srcgrad.stop_gradient to "
                   f"its inputs if no derivative should flow")
    return parsed.error(
        f"no derivative rule for `{info.name}`, which is called on values being "
        f"differentiated. Register one, e.g.\n{example}", stmt, MissingRuleError)


def call_target(parsed, call, local_names):
    """The object a call's non-local callee denotes now (``np.sin``), or None."""
    dotted = syntax.dotted_name(call.func)
    if not dotted or dotted.split(".")[0] in local_names:
        return None
    try:
        return parsed.resolve(dotted)
    except KeyError:
        return None


def classify_object(obj, dotted, args, keywords):
    from srcgrad.codegen.pickling import Derivative, unwrap

    wrapped, obj = obj, unwrap(obj)   # a derivative function: the generated function it calls
    if isinstance(wrapped, Derivative) and \
            (getattr(obj, "__module__", None) or "").startswith("srcgrad."):
        # one srcgrad runs in Python (sg.jacobian(f)): refused when it runs (dispatch)
        return CallInfo("dynamic", dotted, wrapped, args=args, keywords=keywords)
    if REGISTRY.is_dispatched(obj):   # _sg.dynamic_forward in generated code
        return CallInfo("dynamic", dotted, obj, args=args, keywords=keywords)
    if is_transform(obj):   # sg.grad(f): a function; derivatives flow where it is called
        return CallInfo("nondiff", dotted, obj, args=args, keywords=keywords)
    callee = getattr(obj, "__srcgrad_callee__", None)   # a wrapper of srcgrad's own:
    if callee is not None:   # what to compile in its place (see eager.nesting)
        obj = callee()
    if getattr(obj, "__srcgrad_custom__", False):   # user rules: called like a user function
        return CallInfo("user", dotted, obj, args=args, keywords=keywords)
    if REGISTRY.is_nondiff(obj):
        return CallInfo("nondiff", dotted, obj, args=args, keywords=keywords)
    if _is_random(obj):   # no rule: a draw whose parameters carry derivatives is refused
        return CallInfo("unknown", qualified_name(obj), obj, args=args, keywords=keywords)
    rule = REGISTRY.lookup(obj)
    if rule is not None:
        return CallInfo("rule", rule.name, obj, rule, args, keywords)
    if isinstance(obj, types.FunctionType) and not _is_library(obj):
        return CallInfo("user", dotted, obj, args=args, keywords=keywords)
    if structure_fields(obj) is not None:
        return CallInfo("structure", dotted, obj, args=args, keywords=keywords)
    if _is_user_callable(obj):   # resolved when it runs (srcgrad.compiler.dispatch)
        return CallInfo("dynamic", dotted, obj, args=args, keywords=keywords)
    return CallInfo("unknown", qualified_name(obj) if callable(obj) else dotted, obj,
                    args=args, keywords=keywords)


BUILTIN_CONTAINER_METHODS = {
    "append", "extend", "insert", "remove", "pop", "clear", "index", "count", "sort",
    "reverse", "get", "keys", "update", "setdefault", "popitem", "add", "discard"}


# Methods of dicts compiled as their rows (``dict.values()``, ``dict.get()``...).
_DICT_METHODS = frozenset({"values", "items", "keys", "get"})


def _classify_method(func, args, keywords, arrays, dicts=frozenset()):
    """``obj.name(...)`` is an ndarray method only where ``obj`` is proven an array, a
    dict method only where it is proven a dict (else looked up when it runs)."""
    obj = func.value
    proven = isinstance(obj, gast.Name) and obj.id in arrays
    a_dict = isinstance(obj, gast.Name) and obj.id in dicts
    if func.attr in _DICT_METHODS and not (proven or a_dict):
        return CallInfo("dynamic", f".{func.attr}()", args=[obj] + args, keywords=keywords,
                        owner=obj)
    if (func.attr in NONDIFF_METHODS and proven) or func.attr == "keys":
        return CallInfo("nondiff", func.attr, args=[obj] + args, keywords=keywords)
    if func.attr in ARRAY_METHODS and (proven or func.attr in _DICT_METHODS):
        target, packs = ARRAY_METHODS[func.attr]
        rule = REGISTRY.lookup(target)
        if packs and len(args) > 1:
            args = [gast.Tuple(elts=args, ctx=gast.Load())]
        return CallInfo("rule", rule.name, target, rule, [obj] + args, keywords)
    if func.attr in BUILTIN_CONTAINER_METHODS and func.attr not in NONDIFF_METHODS:
        # list/dict methods: see modes.reverse
        return CallInfo("unknown", f".{func.attr}()", args=[obj] + args, keywords=keywords)
    # Another method (of a user object, a module, a value not proven an array): looked
    # up when it runs.
    return CallInfo("dynamic", f".{func.attr}()", args=[obj] + args, keywords=keywords,
                    owner=obj)


def _is_user_callable(obj):
    """A bound method of user code, or an instance of a user class with ``__call__``."""
    if isinstance(obj, types.MethodType):
        return isinstance(obj.__func__, types.FunctionType) and not _is_library(obj.__func__)
    if isinstance(obj, (types.ModuleType, types.FunctionType)):
        return False
    return _user_call_method(obj) is not None


def bare_call_error(parsed, info, stmt):
    """The error for a call whose value is dropped but whose arguments carry derivatives
    (``push(stack, x)``): what it does to them in place has no rule, in either mode."""
    what = f"`{info.name}`" if info.kind not in ("unknown", "dynamic") \
        or not info.name.startswith(".") else f"the in-place method call `{info.name}`"
    return parsed.error(
        f"{what} is called for its effect on values being differentiated, and srcgrad "
        "has no rule for what it does in place; assign its result instead, or register "
        "the update with srcgrad.rules.definplace", stmt)


def _attribute_without_derivative(parsed, stmt):
    """``obj.name = value`` on a value being differentiated: allowed where neither the
    old nor the new value holds a float (a counter, a flag, a cache of ints or strings:
    written in the primal, it carries no derivative and has none in the object's
    cotangent), checked where it runs (``self.calls + 1`` is known an int only then). A
    float is refused: the later reads of the attribute would be counted as reads of the
    argument's own value."""
    obj, attr, value = stmt.value.args
    error = parsed.error(
        f"assigning the attribute `.{attr.value}` of a value being differentiated where "
        "it or the value holds a float is not supported: its derivative would not follow "
        "the new value; build a new object instead (counters, flags and other values "
        "without floats are fine)", stmt)
    checked = syntax.quote_expr("_sg.without_derivative(v, m, obj, name)", v=value,
                                m=syntax.const(str(error)), obj=obj, name=attr)
    new = gast.Call(func=stmt.value.func, args=[obj, attr, checked], keywords=[])
    return gast.copy_location(gast.Expr(value=new), stmt)


def escape_statement(parsed, info, stmt, varied, read_back, escapes):
    """A bare call srcgrad does not compile (``ax.plot(x, y)``, ``R.record(y)``, a user
    function whose result is unused) or an attribute write (``self.cache = y``), given
    values being differentiated: the statement to run in its place, or an error.

    It runs as written, the differentiated values it is given passed read-only (see
    ``_sg.readonly``; an attribute write stores a read-only view), when nothing after
    it can read back what it kept (``analysis.escapes``); ``escapes`` (a list) gets its
    description then. Otherwise it is refused: at compile time, or, in a branch (``if
    ax: ax.plot(x, y)``), where it runs (``_sg.refuse_read_back``)::

        ax.plot(x, y)   ->   ax.plot(_sg.readonly(x, '.plot()'), _sg.readonly(y, '.plot()'))

    ``varied(atom)``: does ``atom`` carry a derivative here. Refused always: a list or
    dict method on a value not proven a local list (``obj.append(x)``), a NumPy or SciPy
    function without a rule (``np.copyto(buffer, x)``: it writes into another
    argument). An attribute written on a value being differentiated must carry no
    derivative (``_attribute_without_derivative``)."""
    from srcgrad.analysis.escapes import conditional

    call = stmt.value
    if info.kind == "attribute":
        if varied(call.args[0]):
            return [_attribute_without_derivative(parsed, stmt)]
        if not varied(call.args[2]):
            return [stmt]
    elif (info.kind == "unknown" and info.name.startswith(".")
          and info.name[1:-2] in BUILTIN_CONTAINER_METHODS) or _is_numeric_library(info.target):
        raise bare_call_error(parsed, info, stmt)
    if info.kind == "attribute":
        what = f"the attribute write `.{call.args[1].value} = ...` stores a value being " \
            "differentiated where srcgrad does not follow it"
    else:
        what = f"`{syntax.dotted_name(call.func) or info.name.strip('.')}` is given a value " \
            "being differentiated and srcgrad does not see what it keeps of it"
    found = read_back.find(stmt)
    if found is not None:
        error = parsed.error(
            f"{what}; the function then {found}, which could be what was kept, without its "
            "derivative. Compute what is read from the function's own values, or move the "
            "call after the last such read", stmt)
        if not conditional(read_back.fn_node, stmt):
            raise error
        refusal = syntax.quote_expr("_sg.refuse_read_back(m)", m=syntax.const(str(error)))
        return [gast.copy_location(gast.Expr(value=refusal), stmt)]
    escapes.append(parsed.error(what, stmt))
    note = gast.copy_location(gast.Expr(value=syntax.quote_expr("_sg.escaped()")), stmt)
    if info.kind == "attribute":   # stored read-only too: a later call could change it
        obj, attr, value = call.args
        stored = syntax.quote_expr("_sg.readonly(x, name)", x=value,
                                   name=syntax.const(f"obj.{attr.value} = ..."))
        new = gast.Call(func=call.func, args=[obj, attr, stored], keywords=[])
        return [note, gast.copy_location(gast.Expr(value=new), stmt)]
    return [note, _with_readonly_operands(info, stmt, varied)]


def guard_escaping_callee(parsed, stmt, name, kept_error, read_back, escapes, namer):
    """``y = helper(x, ax)`` where ``helper`` may let a differentiated value out
    (``kept_error``: where): so may this function (``escapes`` gets it), and if it then
    reads what that could have kept, the call is checked where it runs::

        _escapes = _sg.escape_count()
        y = helper(x, ax)
        _sg.refuse_if_escaped(_escapes, '...')

    Returns the statements to run before and after the call."""
    escapes.append(kept_error)
    found = read_back.find(stmt)
    if found is None:
        return [], []
    error = parsed.error(
        f"`{name}` let a value being differentiated out; the function then {found}, which "
        "could be what was kept, without its derivative. Compute what is read from the "
        f"function's own values, or move the call after the last such read. Where "
        f"`{name}` let it out:\n{kept_error}", stmt)
    counter = namer.fresh("escapes")
    before = syntax.assign(counter, syntax.quote_expr("_sg.escape_count()"))
    after = gast.Expr(value=syntax.quote_expr("_sg.refuse_if_escaped(n, m)",
                                              n=syntax.name(counter),
                                              m=syntax.const(str(error))))
    return [gast.copy_location(before, stmt)], [gast.copy_location(after, stmt)]


def _with_readonly_operands(info, stmt, varied):
    call = stmt.value

    def guard(atom):
        if isinstance(atom, gast.Starred):
            return gast.Starred(value=guard(atom.value), ctx=gast.Load())
        if not varied(atom):
            return atom
        return syntax.quote_expr("_sg.readonly(x, name)", x=atom,
                                 name=syntax.const(info.name))

    func = call.func
    if isinstance(func, gast.Attribute):
        func = gast.Attribute(value=guard(func.value), attr=func.attr, ctx=gast.Load())
    new = gast.Call(func=func, args=[guard(a) for a in call.args],
                    keywords=[gast.keyword(arg=k.arg, value=guard(k.value))
                              for k in call.keywords])
    return gast.copy_location(gast.Expr(value=new), stmt)


def _is_numeric_library(obj):
    """Is ``obj`` a NumPy or SciPy function, ufunc or ufunc method (``np.add.at``)?"""
    if obj is None:
        return False
    owner = getattr(obj, "__self__", None)
    if isinstance(obj, np.ufunc) or isinstance(owner, np.ufunc):
        return True
    module = getattr(obj, "__module__", None) or getattr(owner, "__module__", None) or ""
    return module.split(".")[0] in ("numpy", "scipy")


def _user_call_method(obj):
    """The ``__call__`` of ``obj``'s class when it is a Python function outside the
    libraries (NumPy, SciPy...) and srcgrad, else None. (A class itself is called
    through ``type``.)"""
    if isinstance(obj, type):
        return None
    call = next((vars(k)["__call__"] for k in type(obj).__mro__ if "__call__" in vars(k)),
                None)
    if isinstance(call, types.FunctionType) and not _is_library(call) and \
            not (call.__module__ or "").startswith("srcgrad."):   # (see generated_variant)
        return call
    return None


def _is_random(obj):
    module = getattr(obj, "__module__", "") or ""
    if module.startswith("numpy.random"):
        return True
    owner = getattr(obj, "__self__", None)
    # (a Generator or RandomState exists only once numpy.random is imported: importing
    # it here, for every call compiled, took about 15 ms of the first gradient)
    random = sys.modules.get("numpy.random")
    return random is not None and isinstance(owner, (random.Generator, random.RandomState))


def _is_library(fn):
    module = fn.__module__ or ""
    return module.split(".")[0] in _LIBRARY_PREFIXES


def generated_variant(obj):
    """The function behind a generated gradient's lazily compiled scalar variant (a
    gradient being differentiated again calls it like a user function), else None."""
    compiled = getattr(type(obj), "__srcgrad_variant__", None)
    if compiled is not None:
        return compiled(obj)
    # the scalar variant once compiled: its backward sweep on Python floats is
    # differentiated as the same function with NumPy's sweep
    variant = getattr(obj, "srcgrad_variant", None) if isinstance(obj, types.FunctionType) \
        else None
    return None if variant is None else variant()


def structure_fields(cls):
    """The fields of a NamedTuple or dataclass whose constructor only stores its arguments
    (the generated ``__new__`` / ``__init__``, no ``__post_init__``), else None: calling
    such a class builds a pytree node, differentiated field by field."""
    if not isinstance(cls, type):
        return None
    if issubclass(cls, tuple) and hasattr(cls, "_fields"):
        fields, constructor = tuple(cls._fields), cls.__new__
    elif dataclasses.is_dataclass(cls) and not hasattr(cls, "__post_init__"):
        fields, constructor = tuple(f.name for f in dataclasses.fields(cls)), cls.__init__
    else:
        return plain_init_fields(cls)
    return fields if _stores_only(constructor, fields) else None


def _stores_only(constructor, fields):
    """Is ``constructor`` the one ``namedtuple`` / ``dataclasses`` generated (compiled from
    a string) with exactly ``fields`` as its parameters?"""

    code = getattr(constructor, "__code__", None)
    if code is None or code.co_filename != "<string>":
        return False
    params = list(own_signature(constructor).parameters)[1:]
    return tuple(params) == fields
