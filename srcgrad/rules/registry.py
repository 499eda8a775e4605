"""The rule table: the single source of derivative knowledge, shared by every mode.

A row is a ``Rule``: the function's parameters (to bind a call's arguments) and, per
differentiable parameter, a *partial* (elementwise rows: ``np.sin`` -> ``"np.cos(x)"``) or
a full *adjoint* template (``g`` is the incoming cotangent, ``ans`` the output). Helpers
named by the math fill the table:

    defelementwise(np.sin, "np.cos(x)")              # one row, both modes
    deflinear(np.reshape, "x, newshape", "np.reshape(g, np.shape(x))")
    defadjoint(np.dot, "a, b", a="_sg.dot_adjoint_a(g, a, b)", b=..., tangent=...)
    definplace(rt.add_at, "v, index, item", ("v", "item"), item=...)   # v[index] += item
    defnondiff(np.floor, np.argmax, ...)
"""

from __future__ import annotations

import contextlib
import dataclasses
import sys

# Adjoint helpers that end by summing their result to the operand (``unbroadcast``):
# real for a real operand already.
UNBROADCAST_ADJOINTS = {"_sg.unbroadcast", "_sg.matmul_adjoint_a", "_sg.matmul_adjoint_b",
                        "_sg.einsum_partial"}

NONDIFF_ATTRIBUTES = {"shape", "ndim", "size", "dtype", "itemsize", "nbytes", "__class__"}

# Parameters that select what a function computes rather than feed it numbers: integers,
# flags, strings, shapes, dtypes, buffers. A rule needs no adjoint for them; any other
# parameter without one is refused when a differentiated value reaches it (never a
# silent zero) unless the rule says why it is constant (``defconstant``).
_STRUCTURAL = {
    "an axis (an integer)": "axis axes axis1 axis2 axisa axisb axisc source destination "
                            "start offset shift",
    "a flag or a choice of method": "keepdims endpoint retstep full_matrices compute_uv "
                                    "hermitian upper lower UPLO mode method interpolation "
                                    "kind stable order casting optimize norm trans "
                                    "unit_diagonal transposed assume_a check_finite "
                                    "allow_singular return_sign copy subok disp deg",
    "a count or a shape (integers)": "n num k kth ddof correction minlength ndmin s shape "
                                     "newshape reps repeats indices indices_or_sections "
                                     "pad_width blocksize",
    "a dtype, device or output buffer": "dtype out device like overwrite_a overwrite_b "
                                        "overwrite_input",
    "a boolean mask": "where condition",
}
STRUCTURAL_PARAMS = {name: why for why, names in _STRUCTURAL.items() for name in names.split()}


@dataclasses.dataclass
class Rule:
    name: str
    params: tuple
    defaults: dict
    adjoints: dict          # param -> reverse template producing its cotangent contribution
    tangent: object = None  # forward template, or a dict param -> tangent term
    broadcasts: bool = False  # contributions must be summed back to each operand's shape
    linear_in: tuple = ()   # for linear rules: the linear parameter(s)
    elementwise: bool = False  # scalars in, scalar out (``defelementwise`` rows)
    inplace: bool = False   # updates its first argument in place (``definplace`` rows)
    update: str | None = None  # in-place rows: statement turning ``g`` into the cotangent before
    saves: str | None = None   # in-place rows: the index parameter whose item is overwritten
    resizes: bool = False   # in-place rows: changes a list's length (keeps items aligned)
    refuses: tuple = ()     # float parameters with no derivative here: differentiating
    #                         through one is a MissingRuleError, never a silent zero
    structured: bool = False  # the result is a tuple: tangent terms add item by item
    constants: dict = dataclasses.field(default_factory=dict)  # param -> why no derivative
    #                         flows through it (beyond the names in STRUCTURAL_PARAMS)
    tangent_call: str | None = None  # linear rows: what the tangent calls instead (the
    #                         functional twin of a helper that writes in place)
    tangent_guard: tuple | None = None  # in-place rows: (param, statement) the forward mode
    #   runs after the linear update when ``param`` carries a tangent the linear rule
    #   leaves out (``{param}_dot``: that tangent, ``v_dot``: the updated argument's)
    refused_because: str | None = None  # why ``refuses`` has no derivative (the message
    #                         says so in place of the generic advice)

    def keeps_real_part(self, param):
        """Must the modes keep the real part of ``param``'s cotangent (``_sg.match_real``)?
        Where several operands carry derivatives (``np.dot(a, b)``) a complex one makes a
        real one's cotangent complex; broadcasting rows keep it real in
        ``_sg.unbroadcast``, and so do adjoints that end in it (``matmul_adjoint_a``)."""
        if len(self.adjoints) < 2 or self.broadcasts or self.inplace \
                or self.name.startswith("srcgrad."):
            return False
        return self.adjoints[param].split("(", 1)[0] not in UNBROADCAST_ADJOINTS

    def refusal(self, param):
        """The error message for differentiating through ``param``, or None."""
        if param not in self.refuses:
            return None
        if self.refused_because:
            return f"{self.refused_because} (`{self.name}`, argument `{param}`)"
        return (f"srcgrad has no derivative of `{self.name}` with respect to its argument "
                f"`{param}`; keep `{param}` constant (wrap it in srcgrad.stop_gradient) or "
                "register a rule with srcgrad.defrule")

    def no_derivative(self, param):
        """The error for a differentiated value reaching ``param``, or None when the rule
        has a derivative for it or says why it carries none (``constants``, a structural
        parameter such as ``axis``, or srcgrad's own helpers)."""
        if param in self.refuses:
            return self.refusal(param)
        if param in self.adjoints or param in self.constants or param in STRUCTURAL_PARAMS \
                or self.name.startswith("srcgrad."):
            return None
        return (f"srcgrad has no derivative of `{self.name}` with respect to its argument "
                f"`{param}`, which is given a value being differentiated; keep `{param}` "
                "constant (wrap it in srcgrad.stop_gradient) or register a rule with "
                "srcgrad.defrule")

    def bind(self, args, keywords):
        """Map call arguments (atoms) and keywords to this rule's parameters."""
        bound = {}
        for param, arg in zip(self.params, args):
            bound[param] = arg
        if len(args) > len(self.params):
            raise TypeError(f"{self.name} takes at most {len(self.params)} positional arguments")
        for key, value in keywords:
            if key not in self.params:
                raise TypeError(f"{self.name} got an unexpected keyword argument {key!r}")
            bound[key] = value
        return bound


class Registry:
    def __init__(self):
        self.optional = {}   # module name -> registers that library's rows on first need
        self._rules = {}
        self._nondiff = {}
        self._dispatched = set()   # calls resolved when they run (``defdispatched``)
        self._by_name = {}
        # Counts the rows registered or replaced since import (``sg.defrule`` after a
        # gradient was generated): compiled code is kept with the generation it was made
        # under and made again when the table changed. A library's own rows, loaded on
        # first need, describe functions no code generated before could have used.
        self.generation = 0
        self._own_rows = False   # srcgrad's own tables are being registered

    @contextlib.contextmanager
    def own_rows(self):
        """Register srcgrad's own rows (on import, and a library's on first need): they
        do not count as a change of the table, and each is checked for what it keys."""
        self._own_rows = True
        try:
            yield
        finally:
            self._own_rows = False

    def add(self, func, rule):
        key = _key(func)
        if self._own_rows and not _own_row_fits(self._rules.get(key), func, rule):
            self._rules.pop(key, None)   # neither row is known to be the function's
            raise _rebound_error(func, rule)
        self._rules[key] = rule
        self._by_name[rule.name] = rule
        self.changed()

    def add_dispatched(self, func):
        self._dispatched.add(_key(func))
        self.changed()

    def is_dispatched(self, func):
        return _key(func) in self._dispatched

    def add_nondiff(self, func, name):
        self._nondiff[_key(func)] = name
        self.changed()

    def changed(self):
        """Count a change of the table (also called by code that edits a row in place)."""
        if not self._own_rows:
            self.generation += 1

    def lookup(self, func):
        rule = self._rules.get(_key(func))
        if rule is None and self.load_imported_optional():
            rule = self._rules.get(_key(func))
        return rule

    def load_imported_optional(self):
        """Register the rows of every optional library the program has imported by now
        (a library it never imports costs nothing); True if any were added."""
        ready = [module for module in self.optional if module in sys.modules]
        with self.own_rows():
            for module in ready:
                self.optional.pop(module)()
        return bool(ready)

    def is_nondiff(self, func):
        key = _key(func)
        return key in self._nondiff or (self.load_imported_optional() and key in self._nondiff)

    def knows(self, func):
        key = _key(func)
        return key in self._rules or key in self._nondiff or key in self._dispatched

    def rows(self):
        return dict(self._by_name)

    def nondiff_functions(self):
        """``{function: name}`` for every row of the non-differentiable table."""
        return {func: name for func, name in self._nondiff.items() if not isinstance(func, int)}

    def nondiff_names(self):
        return sorted(set(self._nondiff.values()))


_OWN_LIBRARIES = ("numpy", "scipy", "math", "builtins", "srcgrad", "array_api_compat")


def _own_row_fits(previous, func, rule):
    """srcgrad's rows are written with library names (``defelementwise(np.tanh, ...)``),
    read when the table loads, on the first derivative. A name rebound before then
    (``np.tanh = np.sin``) would key tanh's derivative on sin (which sin's own row keys
    too, with another derivative), or on the user's replacement: such a row does not fit."""
    if _foreign(func):
        return False
    return previous is None or previous.name != rule.name or previous == rule


def _foreign(func):
    module = getattr(func, "__module__", None) or type(func).__module__ or ""
    return module.split(".")[0] not in _OWN_LIBRARIES


def _rebound_error(func, rule):
    from srcgrad.errors import TransformError

    where = " (defined outside NumPy, SciPy and math)" if _foreign(func) else \
        ", which another of its rows describes too"
    return TransformError(
        f"srcgrad's derivative rules could not be loaded: the row it writes as {rule.name} "
        f"found {func!r}{where}: {_names_of(func)} was rebound before srcgrad's first "
        "derivative in this process (srcgrad reads the library's names when it loads its "
        "rules). Restore the library's own function there, or call your replacement by a "
        "name of your own")


def _names_of(func):
    """The library names that hold ``func`` now (which of them was rebound is not
    knowable here: the original is gone)."""
    import math

    import numpy as np

    found = [f"{module.__name__}.{attr}"
             for module in (np, np.linalg, np.fft, math)
             for attr, value in vars(module).items() if value is func]
    return " or ".join(found) or "a NumPy or math name"


def _key(func):
    try:
        hash(func)
        return func
    except TypeError:
        return id(func)


REGISTRY = Registry()


def qualified_name(func):
    module = getattr(func, "__module__", None) or ""
    if isinstance(func, type(abs)) and module == "builtins":
        return f"builtins.{func.__name__}"
    if module.startswith("scipy.stats") and not hasattr(func, "__name__") and \
            isinstance(getattr(func, "name", None), str):   # a distribution: ``norm``
        return f"scipy.stats.{func.name}"
    name = getattr(func, "__name__", repr(func))
    if module.startswith("numpy") or type(func).__name__ == "ufunc":
        module = _public_numpy_module(func, name)
    return f"{module}.{name}" if module else name


def _public_numpy_module(func, name):
    """The public module a NumPy function or ufunc is reached from. SciPy's ufuncs say
    ``__module__ == "numpy"`` too: ``scipy.special.erfcx`` must not be named ``numpy.erfcx``."""
    import numpy as np

    modules = [("numpy", np), ("numpy.linalg", np.linalg), ("numpy.fft", np.fft)]
    if "scipy.special" in sys.modules:     # imported by the user's code, if it uses it
        modules.append(("scipy.special", sys.modules["scipy.special"]))
    for module_name, module in modules:
        if getattr(module, name, None) is func:
            return module_name
    module = getattr(func, "__module__", None) or ""
    return "" if module == "numpy" else module


def _split_top_level(spec):
    """``"a, axes=(0, 1)"`` -> ``["a", "axes=(0, 1)"]``: commas inside brackets stay."""
    parts, depth, current = [], 0, ""
    for ch in spec:
        depth += ch in "([{"
        depth -= ch in ")]}"
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    return [p.strip() for p in parts + [current] if p.strip()]


def _params(spec):
    params, defaults = [], {}
    for part in _split_top_level(spec):
        if "=" in part:
            key, value = part.split("=", 1)
            params.append(key.strip())
            defaults[key.strip()] = value.strip()
        else:
            params.append(part)
    return tuple(params), defaults


def _times_g(partial):
    """``g * partial`` with the trivial cases written as a person would."""
    partial = partial.strip()
    if partial == "1":
        return "g"
    if partial == "-1":
        return "-g"
    if partial.startswith("1 / "):   # g * (1 / y) -> g / y
        divisor = partial[len("1 / "):]
        if " " in divisor and not _parenthesized(divisor):
            divisor = f"({divisor})"
        return f"g / {divisor}"
    return f"g * ({partial})" if _needs_parens(partial) else f"g * {partial}"


def _parenthesized(expr):
    """Is ``expr`` one parenthesized group, like ``(1 + x)`` (not ``(a) * (b)``)?"""
    if not (expr.startswith("(") and expr.endswith(")")):
        return False
    depth = 0
    for i, ch in enumerate(expr):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and i < len(expr) - 1:
            return False
    return True


def _needs_parens(expr):
    depth = 0
    for position, ch in enumerate(expr):
        depth += ch in "([{"
        depth -= ch in ")]}"
        if depth == 0 and ch in "+-" and position > 0:
            return True
        if depth == 0 and ch == "/":
            return True
    return False


def defelementwise(func, *partials, params=None, name=None, refuses=(), registry=REGISTRY):
    """An elementwise function: one partial derivative per input, in terms of its
    parameters (``x``, ``y``...) and ``ans``. Serves reverse (``g * partial``, summed
    back to the operand's shape) and forward (``x_dot * partial``) mode. A ``None``
    partial is an integer (or constant) parameter; ``refuses`` names float parameters
    whose derivative srcgrad does not know."""
    names = params or ("x", "y", "z")[: len(partials)]
    spec = ", ".join(names) if isinstance(names, tuple) else names
    param_names, defaults = _params(spec)
    adjoints, tangent = {}, {}
    for param, partial in zip(param_names, partials):
        if partial is None:
            continue
        adjoints[param] = _times_g(partial)
        tangent[param] = partial
    rule = Rule(name or qualified_name(func), param_names, defaults, adjoints, tangent,
                broadcasts=len(partials) > 1, elementwise=True, refuses=tuple(refuses))
    registry.add(func, rule)
    return rule


def deflinear(func, spec, adjoint, linear_in="x", name=None, registry=REGISTRY):
    """A function linear in ``linear_in``: its adjoint is a template in ``g`` and the
    other parameters; its tangent is the same call applied to the tangent."""
    param_names, defaults = _params(spec)
    rule = Rule(name or qualified_name(func), param_names, defaults, {linear_in: adjoint},
                tangent="linear", linear_in=(linear_in,))
    registry.add(func, rule)
    return rule


def defadjoint(func, spec, tangent=None, name=None, broadcasts=False, refuses=(),
               structured=False, registry=REGISTRY, **adjoints):
    """A full template rule: one adjoint template per differentiable parameter
    (``refuses``: float parameters whose derivative srcgrad does not know;
    ``structured``: the result is a tuple, so tangent terms add item by item)."""
    param_names, defaults = _params(spec)
    rule = Rule(name or qualified_name(func), param_names, defaults, adjoints, tangent,
                broadcasts=broadcasts, refuses=tuple(refuses), structured=structured)
    registry.add(func, rule)
    return rule


def definplace(func, spec, linear_in, update=None, saves=None, resizes=False, name=None,
               registry=REGISTRY, tangent_guard=None, **adjoints):
    """A helper that updates its first argument in place (``add_at(v, index, item)`` is
    ``v[index] += item``), differentiated as the functional update it is.

    In the reverse templates ``g`` is the cotangent of the updated argument after the call
    and ``g_ans`` that of the call's value (``None`` when a bare call drops it): each
    ``adjoints`` template gives one other argument's cotangent; ``update`` is a statement
    that turns ``g``, in place, into the cotangent before the call (None: unchanged).
    ``saves``: the index parameter whose item the call overwrites (saved before the call,
    restored after its adjoint). ``resizes``: the call changes a list's length, so its
    update runs even on a zero cotangent (list cotangents stay aligned with the list).
    Forward mode applies the same call to the tangents of ``linear_in``; ``tangent_guard``
    ``(param, statement)``: a statement it emits after that when ``param`` carries a
    tangent (a check, or the term through ``param``: ``{param}_dot`` its tangent,
    ``v_dot`` the updated argument's)."""
    param_names, defaults = _params(spec)
    rule = Rule(name or qualified_name(func), param_names, defaults, adjoints, "linear",
                linear_in=tuple(linear_in), inplace=True, update=update, saves=saves,
                resizes=resizes, tangent_guard=tangent_guard)
    registry.add(func, rule)
    return rule


def defconstant(func, registry=REGISTRY, **reasons):
    """Say why each named float parameter of ``func``'s row carries no derivative:
    ``defconstant(np.heaviside, x1="a step: piecewise constant in its input")``."""
    registry.lookup(func).constants.update(reasons)


def defrefuses(func, *params, registry=REGISTRY):
    """Float parameters of ``func``'s row with no derivative here: a differentiated value
    reaching one is a MissingRuleError naming it."""
    rule = registry.lookup(func)
    rule.refuses = tuple(rule.refuses) + params


def defdispatched(*funcs, registry=REGISTRY):
    """srcgrad's calls resolved when they run (``_sg.dynamic_forward(fn, ...)``): rows
    without templates, whose derivative is the derivative of the callee they resolve to,
    one order higher, which ``srcgrad.compiler.dispatch`` finds when the call runs."""
    for func in funcs:
        registry.add_dispatched(func)


def defnondiff(*funcs, registry=REGISTRY):
    """Functions whose results carry no derivative (integers, booleans, shapes)."""
    for func in funcs:
        registry.add_nondiff(func, qualified_name(func))
