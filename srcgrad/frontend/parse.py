"""Read a live function's source and parse it into a gast ``FunctionDef``.

Before: a function object (``def f(x): return x * x`` or ``lambda x: x * x``).
After:  ``ParsedFunction`` holding the gast ``FunctionDef`` whose statements carry the
user's real file line numbers, plus the function's globals and closure cells.

A lambda becomes an equivalent ``def`` (``lambda x: x * x`` -> ``def lambda_(x): return
x * x``); when a line holds several lambdas, the one whose code object matches is taken.
Whether the file still compiles to the function's code (``freshness``) is checked by the
fence (after it, so that its errors name unsupported constructs) or here, when the text
read fails to parse. A decorated function is parsed as
the wrapper that runs, not as what it wraps (unless srcgrad made the wrapper).
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import sys
import textwrap
import types

from srcgrad import syntax
from srcgrad.errors import InternalError, SourceNotFoundError, TransformError
from srcgrad.frontend.depth import check_depth
from srcgrad.frontend.freshness import compiles_to, stale_source_error, unwrap_own
from srcgrad.frontend.source_lines import def_lines
from srcgrad.syntax import gast


@dataclasses.dataclass
class ParsedFunction:
    fn: types.FunctionType
    node: gast.FunctionDef
    filename: str
    globals: dict
    closure: dict  # name -> cell
    assumptions: dict = dataclasses.field(default_factory=dict)   # dotted name -> object
    # Names the normalization binds in the generated code's globals (lifted local
    # functions: see normalize.nested_derivatives).
    injected: dict = dataclasses.field(default_factory=dict)

    @property
    def name(self):
        return self.node.name

    def error(self, message, node=None, cls=TransformError):
        """A ``TransformError`` citing ``node``'s line in the user's file."""
        lineno = getattr(node, "lineno", None) or self.node.lineno
        col = getattr(node, "col_offset", None)
        return cls(message, self.filename, lineno, col, self.fn.__name__)

    def require_parameters(self, names):
        """Every name in ``names`` (a ``wrt``) is a parameter of the parsed function;
        a name it does not bind would be read from the module's globals instead."""
        params = syntax.param_names(self.node.args)
        missing = [name for name in names if name not in params]
        if missing:
            raise ValueError(
                f"srcgrad: wrt names {', '.join(map(repr, missing))}, which "
                f"{self.fn.__qualname__} (as its code is written: {', '.join(params)}) "
                "does not take as a parameter")

    def _global(self, head, dotted):
        """A global or builtin. Indexing, not ``in``: the globals of generated code
        (``codegen.loader.LiveGlobals``) find the user's globals on a miss."""
        try:
            return self.globals[head]
        except KeyError:
            pass
        builtins = self.globals.get("__builtins__", __builtins__)
        if isinstance(builtins, types.ModuleType):
            builtins = vars(builtins)
        if head not in builtins:
            raise KeyError(dotted)
        return builtins[head]

    def assume(self, dotted):
        """``resolve``, recording what the name denotes: code generated from it is
        valid while the name still denotes that object (see ``srcgrad.compiler.guards``)."""
        obj = self.resolve(dotted)
        self.assumptions.setdefault(dotted, obj)
        return obj

    def resolve(self, dotted):
        """The object a dotted name (``np.linalg.inv``) denotes now, or raise KeyError."""
        head, *rest = dotted.split(".")
        if head in self.injected:
            obj = self.injected[head]
        elif head in self.closure:
            try:
                obj = self.closure[head].cell_contents
            except ValueError:
                raise KeyError(dotted) from None
        elif head == "_sg" and "_sg" not in self.globals:
            from srcgrad import runtime as obj  # what normalization passes may call
        else:
            obj = self._global(head, dotted)
        for attr in rest:
            try:
                obj = getattr(obj, attr)
            except AttributeError:
                raise KeyError(dotted) from None
        return obj


def globals_of(fn):
    """``fn``'s globals; for generated code, the namespace behind the plain dict it runs
    with (``codegen.loader.LiveGlobals.fast``), which also finds the user's globals."""
    found = fn.__globals__
    return getattr(found.get("__builtins__"), "srcgrad_namespace", found)


def _runtime_source(fn):
    """Generated code is differentiated again through the rows of the runtime helpers it
    calls (``srcgrad.rules.runtime_*rules``), never through their source: reaching one
    here is a bug in srcgrad (a helper emitted without a row, a row template calling
    one), reported rather than compiled."""
    return InternalError(
        f"srcgrad: internal error: differentiating generated code reached the source of "
        f"srcgrad's runtime function `{fn.__module__}.{fn.__qualname__}`, which is "
        "differentiated through its rule row only; please report this program")


def parse_function(fn):
    """Parse ``fn`` (a function or lambda) into a ``ParsedFunction``."""
    fn = unwrap_own(fn)
    if not isinstance(fn, types.FunctionType):
        raise TypeError(f"srcgrad differentiates Python functions; got {type(fn).__name__}")
    if (fn.__module__ or "").startswith("srcgrad.runtime"):
        raise _runtime_source(fn)
    lifted = getattr(fn, "__srcgrad_lifted__", None)
    if lifted is not None:   # a local function lifted out of the function that defines it
        closure = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
        return ParsedFunction(fn, syntax.clone(lifted), fn.__code__.co_filename,
                              globals_of(fn), closure)
    filename = fn.__code__.co_filename
    _name_module_file(fn)
    cut = _read_lines(fn, def_lines)
    try:
        node = _parse_source(fn, cut)
    except SourceNotFoundError:   # nothing read: not a file that changed
        raise
    except (SyntaxError, TransformError):
        if not compiles_to(fn):   # what was read is not the function (see fence)
            raise stale_source_error(fn) from None
        raise
    closure = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    if "__class__" in closure:
        _explicit_super(node)
    return ParsedFunction(fn, node, filename, globals_of(fn), closure)


def _parse_source(fn, cut):
    """The ``FunctionDef`` of ``fn`` from ``cut``, the lines its indentation delimits
    (``source_lines``), or from ``inspect``'s tokenized block when those could not be
    told (None) or do not parse on their own (a block cut inside a string or bracket)."""
    if cut is not None:
        try:
            return _parse_lines(fn, *cut)
        except SyntaxError:
            pass
    return _parse_lines(fn, *_read_lines(fn, inspect.getsourcelines))


def _read_lines(fn, read):
    """``read(fn.__code__)``: the code object's lines, those of the wrapper that runs
    if decorated; a TransformError if there is no source to read."""
    try:
        return read(fn.__code__)
    except (OSError, TypeError):
        from srcgrad.frontend.interactive import WAYS_IN

        raise SourceNotFoundError(
            f"cannot read the source of {fn.__qualname__}, defined in "
            f"{fn.__code__.co_filename} (code run with python -c or exec() of a string "
            f"leaves no source to read). {WAYS_IN}") from None


def _name_module_file(fn):
    """Tell ``inspect`` which module ``fn``'s file is, when that module says so itself.
    Given a code object, ``inspect.getsourcelines`` looks the module up by file name, and
    the first lookup in a process maps the file of every loaded module (tens of
    milliseconds of a first gradient); this is the entry that mapping would make."""
    module = sys.modules.get(getattr(fn, "__module__", None) or "")
    cache = getattr(inspect, "modulesbyfile", None)
    if module is not None and type(cache) is dict and \
            getattr(module, "__file__", None) == fn.__code__.co_filename:
        cache.setdefault(fn.__code__.co_filename, module.__name__)


def _parse_lines(fn, lines, first_line):
    """The gast ``FunctionDef`` of ``fn`` from its source lines."""
    filename = fn.__code__.co_filename
    is_lambda = fn.__code__.co_name == "<lambda>"
    source = "".join(lines)
    dedented = textwrap.dedent(source)
    indent = _indent_of(source) - _indent_of(dedented)
    line_offset = 0   # (parsed after first_line - 1 empty lines: the file's line numbers)
    try:
        tree = ast.parse("\n" * (first_line - 1) + dedented)
        check_depth(tree, filename, fn.__name__)
        module = syntax.to_gast(tree)
    except SyntaxError:
        if not is_lambda:
            ast.parse(dedented)   # (the error with the lines of the text read)
            raise
        fragment, start = _lambda_line_fix(dedented)
        module = syntax.parse(fragment)
        _shift_first_line(module, start - 1)   # "(" + the line from ``start`` on
        line_offset = first_line - 1
    if line_offset or indent:
        _shift_positions(module, line_offset, indent)
    if is_lambda:
        return _lambda_as_def(_find_lambda(module, fn, filename))
    return _find_def(module, fn)


def _explicit_super(node):
    """``super()`` -> ``super(__class__, self)``: generated code has no ``__class__``
    cell of its own; it reads the method's (a closure cell) like any free name."""
    params = node.args.posonlyargs + node.args.args
    if not params:
        return
    for sub in syntax.walk(node):
        if isinstance(sub, gast.Call) and isinstance(sub.func, gast.Name) \
                and sub.func.id == "super" and not sub.args and not sub.keywords:
            sub.args = [gast.Name(id="__class__", ctx=gast.Load(), annotation=None,
                                  type_comment=None),
                        gast.Name(id=params[0].id, ctx=gast.Load(), annotation=None,
                                  type_comment=None)]
    _call_super_methods(node, params[0].id)


def _call_super_methods(node, self_name):
    """``super(__class__, self).m(args)`` -> ``_sg.super_function(__class__, self, 'm')(
    args)``: the method found when it runs, bound to ``self`` (whose derivative it
    carries, as ``self.m`` would; a super object has none of its own)."""
    for call in syntax.walk(node):
        func = getattr(call, "func", None)
        inner = getattr(func, "value", None)
        if not (isinstance(call, gast.Call) and isinstance(func, gast.Attribute)
                and isinstance(inner, gast.Call) and isinstance(inner.func, gast.Name)
                and inner.func.id == "super" and len(inner.args) == 2
                and isinstance(inner.args[1], gast.Name) and inner.args[1].id == self_name):
            continue
        pick = syntax.quote_expr("_sg.super_function(c, s, n)", c=inner.args[0],
                                 s=syntax.name(self_name), n=syntax.const(func.attr))
        call.func = pick


def _indent_of(text):
    first = text.splitlines()[0] if text else ""
    return len(first) - len(first.lstrip())


def _lambda_line_fix(source):
    """Make a lambda's surrounding line parseable (it may be a fragment of a call, or of
    a one-line ``try:``): ``("(" + the source from the first lambda on + ")", where it
    started)``."""
    start = source.index("lambda")
    for end in range(len(source), start, -1):
        try:
            syntax.parse("(" + source[start:end] + ")")
            return "(" + source[start:end] + ")", start
        except SyntaxError:
            continue
    raise TransformError("cannot parse the lambda's source line")


def _shift_first_line(module, columns):
    """Columns of a fragment's first line as in the line it was cut from."""
    for node in syntax.walk(module):
        if getattr(node, "lineno", None) == 1 and getattr(node, "col_offset", None) is not None:
            node.col_offset += columns
            if getattr(node, "end_lineno", None) == 1 and node.end_col_offset is not None:
                node.end_col_offset += columns


def _shift_positions(module, line_offset, col_offset):
    for node in syntax.walk(module):
        if hasattr(node, "lineno") and node.lineno is not None:
            node.lineno += line_offset
            if getattr(node, "end_lineno", None) is not None:
                node.end_lineno += line_offset
            if getattr(node, "col_offset", None) is not None:
                node.col_offset += col_offset


def _find_def(module, fn):
    for node in gast.walk(module):
        if isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef)) \
                and node.name == fn.__code__.co_name:
            node.decorator_list = []
            if isinstance(node, gast.AsyncFunctionDef):
                raise TransformError("`async def` is not supported (coroutines cannot be "
                                     "differentiated)", fn.__code__.co_filename, node.lineno,
                                     node.col_offset, fn.__name__)
            return node
    raise TransformError(f"cannot find the definition of {fn.__qualname__} in its source")


def _find_lambda(module, fn, filename):
    params = list(fn.__code__.co_varnames[: fn.__code__.co_argcount])
    candidates = [n for n in gast.walk(module) if isinstance(n, gast.Lambda)
                  and [a.id for a in n.args.args] == params]
    if len(candidates) > 1:
        candidates = [n for n in candidates if _same_code(n, fn)]
        if len(candidates) != 1:   # never a guess: another lambda's derivative is wrong
            raise TransformError(f"cannot tell which lambda on line "
                                 f"{fn.__code__.co_firstlineno} is {fn.__qualname__}; define "
                                 "it on a line of its own", filename,
                                 fn.__code__.co_firstlineno, None, fn.__name__)
    if not candidates:
        raise TransformError(f"cannot find the lambda's source (line {fn.__code__.co_firstlineno})")
    return candidates[0]


def _same_code(lam, fn):
    """Was ``fn`` compiled from ``lam``? Its instructions carry the body's position
    (Python 3.11+); on older versions compare the bytecode."""
    positions = getattr(fn.__code__, "co_positions", None)
    if positions is not None:
        start = (lam.body.lineno, lam.body.col_offset)
        return any((line, col) == start for line, _, col, _ in positions())
    source = syntax.to_source(gast.Expr(value=lam))
    code = compile(source, "<lambda>", "eval")
    inner = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    return inner.co_code == fn.__code__.co_code and inner.co_names == fn.__code__.co_names


def _lambda_as_def(lam):
    ret = gast.Return(value=lam.body)
    ret.lineno, ret.col_offset = lam.body.lineno, lam.body.col_offset
    node = gast.FunctionDef(name="lambda_", args=lam.args, body=[ret], decorator_list=[],
                            returns=None, type_comment=None, type_params=[])
    node.lineno, node.col_offset = lam.lineno, lam.col_offset
    return node
