"""The one module that builds, parses and prints gast nodes.

Every other module goes through these helpers (and uses ``gast`` node classes only for
``isinstance`` checks), so a gast API change touches this file alone.

Code is mostly written as templates: ``quote("d{x} = g * np.cos(x)", x=...)`` parses a
snippet and substitutes names, which keeps the compiler readable and the generated code
looking like what a person would write.
"""

from __future__ import annotations

import ast
import functools
import math

import gast

__all__ = ["gast"]


def parse(source):
    """Parse module source into a gast tree."""
    return gast.parse(source)


def to_gast(tree):
    """The gast tree of a stdlib ``ast`` tree (``parse`` without parsing again)."""
    return gast.ast_to_gast(tree)


def to_source(node):
    """Print a gast tree (module, function, statement list or expression) as Python."""
    if isinstance(node, list):
        node = gast.Module(body=node, type_ignores=[])
    return ast.unparse(_printable(node))


def _printable(node):
    """The stdlib ``ast`` tree ``ast.unparse`` prints as ``node`` (a gast tree): the same
    node classes and fields, each statement with a line number (the unparser reads it).
    Faster than ``gast.gast_to_ast``, which also copies every location for ``compile``."""
    kind = type(node)
    if kind is gast.Name:
        return ast.Name(node.id, _CONTEXTS[type(node.ctx)])
    special = _PRINTABLE_SPECIAL.get(kind)
    if special is not None:
        return special(node)
    target = _AST_CLASSES.get(kind)
    if target is None:
        target = _AST_CLASSES[kind] = getattr(ast, kind.__name__)
    fields = {}
    for field in target._fields:
        value = getattr(node, field, None)
        if type(value) is list:
            value = [_printable(v) if isinstance(v, gast.AST) else v for v in value]
        elif isinstance(value, gast.AST):
            value = _printable(value)
        fields[field] = value
    new = target(**fields)   # (every field given: Python 3.13 deprecates missing ones)
    if isinstance(new, ast.stmt):
        new.lineno = getattr(node, "lineno", None) or 1
    return new


def _printable_arg(name_node):
    if name_node is None:
        return None
    annotation = name_node.annotation
    return ast.arg(name_node.id, _printable(annotation) if annotation is not None else None,
                   name_node.type_comment)


def _printable_arguments(node):
    return ast.arguments(
        [_printable_arg(a) for a in node.posonlyargs], [_printable_arg(a) for a in node.args],
        _printable_arg(node.vararg), [_printable_arg(a) for a in node.kwonlyargs],
        [_printable(d) if d is not None else None for d in node.kw_defaults],
        _printable_arg(node.kwarg), [_printable(d) for d in node.defaults])


def _printable_handler(node):
    new = ast.ExceptHandler(_printable(node.type) if node.type is not None else None,
                            node.name.id if node.name is not None else None,
                            [_printable(s) for s in node.body])
    new.lineno = getattr(node, "lineno", None) or 1
    return new


_AST_CLASSES: dict[type, type] = {}
_CONTEXTS = {gast.Load: ast.Load(), gast.Store: ast.Store(), gast.Del: ast.Del()}
def _printable_constant(node):
    """A negative number as ``-(number)``: the unparser prints a negative Constant bare,
    so ``(-0.39) ** 2`` would read back as ``-(0.39 ** 2)``."""
    value = node.value
    if type(value) in (int, float) and math.copysign(1, value) < 0:
        return ast.UnaryOp(ast.USub(), ast.Constant(-value))
    return ast.Constant(value)


_PRINTABLE_SPECIAL = {gast.arguments: _printable_arguments,
                      gast.ExceptHandler: _printable_handler,
                      gast.Constant: _printable_constant}


def name(identifier, store=False):
    ctx = gast.Store() if store else gast.Load()
    return gast.Name(id=identifier, ctx=ctx, annotation=None, type_comment=None)


def param(identifier):
    return gast.Name(id=identifier, ctx=gast.Param(), annotation=None, type_comment=None)


def const(value):
    return gast.Constant(value=value, kind=None)


def assign(target, value):
    """``target = value``; ``target`` is a name string or a store-context node."""
    if isinstance(target, str):
        target = name(target, store=True)
    return gast.Assign(targets=[target], value=value, type_comment=None)


def call(func, args=(), keywords=()):
    if isinstance(func, str):
        func = quote_expr(func)
    kws = [gast.keyword(arg=k, value=v) for k, v in keywords]
    return gast.Call(func=func, args=list(args), keywords=kws)


def tuple_of(elts, store=False):
    ctx = gast.Store() if store else gast.Load()
    return gast.Tuple(elts=list(elts), ctx=ctx)


def param_names(arguments):
    """Every parameter name of a gast ``arguments`` node, in signature order."""
    names = [a.id for a in arguments.posonlyargs + arguments.args]
    if arguments.vararg is not None:
        names.append(arguments.vararg.id)
    names += [a.id for a in arguments.kwonlyargs]
    if arguments.kwarg is not None:
        names.append(arguments.kwarg.id)
    return names


def function_def(fname, params, body, defaults=(), docstring=None, arguments=None):
    """A ``def`` with positional parameters ``params`` (strings), or with a copy of the
    signature ``arguments`` (a gast ``arguments`` node) when given."""
    if arguments is not None:
        args = clone(arguments)
    else:
        args = gast.arguments(
            args=[param(p) for p in params], posonlyargs=[], vararg=None, kwonlyargs=[],
            kw_defaults=[], kwarg=None, defaults=list(defaults))
    if docstring:
        body = [gast.Expr(value=const(docstring))] + list(body)
    return gast.FunctionDef(name=fname, args=args, body=list(body) or [gast.Pass()],
                            decorator_list=[], returns=None, type_comment=None,
                            type_params=[])


def comment(text):
    """A statement that prints as a ``# text`` line (see ``render``)."""
    return gast.Expr(value=const(_COMMENT_TAG + text))


_COMMENT_TAG = "#srcgrad-comment# "


def is_comment(stmt):
    return (isinstance(stmt, gast.Expr) and isinstance(stmt.value, gast.Constant)
            and isinstance(stmt.value.value, str) and stmt.value.value.startswith(_COMMENT_TAG))


def comment_text(stmt):
    """The text of a ``comment`` statement."""
    return stmt.value.value[len(_COMMENT_TAG):]


def render(body):
    """Print statements as source, turning comment markers into ``#`` lines."""
    return "\n".join(render_lines(to_source(body))) + "\n"


def render_lines(source):
    """The lines of printed ``source`` (text, or a list of lines) with comment markers
    turned into ``#`` lines."""
    lines = []
    for line in source.splitlines() if isinstance(source, str) else source:
        stripped = line.lstrip()
        if stripped[:1] in "'\"" and _COMMENT_TAG in stripped:
            text = ast.literal_eval(stripped)
            if text.startswith(_COMMENT_TAG):
                indent = line[: len(line) - len(stripped)]
                lines.append(f"{indent}# {text[len(_COMMENT_TAG):]}")
                continue
        lines.append(line)
    return lines


@functools.lru_cache(maxsize=4096)
def _parse_template(source, mode):
    tree = gast.parse(source)
    for node in gast.walk(tree):   # a template's own positions mean nothing to the user
        if isinstance(node, gast.stmt):
            node.lineno = None
    return tree.body if mode == "stmts" else tree.body[0].value


def quote(source, /, **subs):
    """Parse statements from ``source``, replacing names by ``subs`` (str or node)."""
    return [_instantiate(stmt, subs) for stmt in _parse_template(source, "stmts")]


def quote_expr(source, /, **subs):
    return _instantiate(_parse_template(source, "expr"), subs)


def _instantiate(node, subs):
    """A copy of the template ``node`` with each ``Name`` whose id is a key of ``subs``
    replaced (``clone`` then ``replace_names``, in one pass)."""
    kind = type(node)
    if kind is gast.Name and node.id in subs:
        return _substitute(node, subs[node.id])
    new = kind.__new__(kind)
    fields = new.__dict__
    if kind in _LEAVES and node.__dict__.get("annotation") is None:
        fields.update(node.__dict__)
        return new
    for key, value in node.__dict__.items():
        if isinstance(value, gast.AST) and not isinstance(value, _CONTEXT):
            value = _instantiate(value, subs)
        elif type(value) is list:
            value = [_instantiate(item, subs) if isinstance(item, gast.AST) else item
                     for item in value]
        fields[key] = value
    return new


def replace_names(node, subs):
    """Replace every ``Name`` whose id is a key of ``subs`` (in place; returns node)."""
    if isinstance(node, gast.Name) and node.id in subs:
        return _substitute(node, subs[node.id])

    for field, value in gast.iter_fields(node):
        if isinstance(value, list):
            setattr(node, field, [replace_names(v, subs) if isinstance(v, gast.AST) else v
                                  for v in value])
        elif isinstance(value, gast.AST):
            setattr(node, field, replace_names(value, subs))
    return node


def _substitute(node, replacement):
    if isinstance(replacement, str):
        return gast.Name(id=replacement, ctx=node.ctx, annotation=None, type_comment=None)
    new = clone(replacement)   # (a Name: its fields copied, its context given below)
    if hasattr(new, "ctx"):
        new.ctx = node.ctx
    return new


def walk(node):
    """Every node of the tree ``node`` (itself first), breadth-first as ``gast.walk``
    yields them, as a list (several times faster than ``gast.walk``). Expression
    contexts (the ``ctx`` of a ``Name``) are left out: they hold nothing."""
    nodes = [node]
    append, ast_class = nodes.append, gast.AST
    fields_of = _CHILD_FIELDS
    for current in nodes:   # the list grows while it is read: breadth-first
        kind = type(current)
        fields = fields_of.get(kind)
        if fields is None:
            fields = fields_of[kind] = tuple(f for f in kind._fields if f not in _LEAF_FIELDS)
        for field in fields:
            value = getattr(current, field, None)
            if type(value) is list:
                for item in value:   # (a loop: lists here are short, a generator costs more)
                    if isinstance(item, ast_class):
                        append(item)
            elif isinstance(value, ast_class):
                append(value)
    return nodes


_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}   # node class -> the fields that may hold nodes
_LEAF_FIELDS = {"ctx", "id", "attr", "type_comment", "kind"}


def names_in(node, ctx=None):
    """Ids of the ``Name`` nodes under ``node`` (optionally only Load or Store ones), in
    ``walk``'s order (the walk without its list of every node)."""
    found, nodes = [], [node]
    append, ast_class, name_class, fields_of = nodes.append, gast.AST, gast.Name, _CHILD_FIELDS
    for current in nodes:
        kind = type(current)
        if kind is name_class:
            if ctx is None or isinstance(current.ctx, ctx):
                found.append(current.id)
            if current.annotation is None:
                continue
        elif kind is gast.Constant:
            continue
        fields = fields_of.get(kind)
        if fields is None:
            fields = fields_of[kind] = tuple(f for f in kind._fields if f not in _LEAF_FIELDS)
        for field in fields:
            value = getattr(current, field, None)
            if type(value) is list:
                for item in value:
                    if isinstance(item, ast_class):
                        append(item)
            elif isinstance(value, ast_class):
                append(value)
    return found


def statements(body):
    """Every statement of ``body``, those of nested blocks (``body``, ``orelse``,
    ``finalbody``) included, in order."""
    for stmt in body:
        yield stmt
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and isinstance(stmt, gast.stmt):
                yield from statements(inner)


def emptied_block(stmt, field):
    """What ``stmt``'s block ``field`` becomes when a pass removed all its statements:
    ``pass`` where Python needs a statement (a body, the ``finally`` of a ``try`` without
    handlers), else nothing."""
    needed = field == "body" or (field == "finalbody" and isinstance(stmt, gast.Try)
                                 and not stmt.handlers)
    return [gast.Pass()] if needed else []


def loaded_names(node):
    return names_in(node, gast.Load)


def is_atom(node):
    """A name or a literal: what A-normal form allows as an operand."""
    return isinstance(node, (gast.Name, gast.Constant))


def is_negative_literal(node):
    """``-1``, ``-0.5``: a literal the parser gives as a unary minus on a constant."""
    return (isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.USub)
            and isinstance(node.operand, gast.Constant)
            and type(node.operand.value) in (int, float))


def spreads(call):
    """Does ``call`` unpack arguments (``f(*xs)``, ``f(**kw)``)?"""
    return any(isinstance(a, gast.Starred) for a in call.args) \
        or any(kw.arg is None for kw in call.keywords)


def set_line(nodes, lineno):
    """Stamp ``lineno`` (the user's line) on statements that do not have one yet."""
    todo = list(nodes) if isinstance(nodes, list) else [nodes]
    while todo:   # statements nest only in lists of statements, handlers and cases
        node = todo.pop()
        if isinstance(node, gast.stmt) and getattr(node, "lineno", None) is None:
            node.lineno = lineno
        for field in node._fields:
            value = getattr(node, field, None)
            if type(value) is list:
                todo.extend(v for v in value if isinstance(v, _STATEMENT_HOLDERS))
    return nodes


_STATEMENT_HOLDERS = (gast.stmt, gast.excepthandler, gast.match_case)


def line_of(node, default=None):
    return getattr(node, "lineno", None) or default


# Copied by copying their fields: a Name's context (Load, Store...) holds nothing and is
# shared (so is every context), a Constant's value is not a node; a parameter's Name
# with an annotation is copied field by field.
_LEAVES = frozenset({gast.Name, gast.Constant})
_CONTEXT = gast.expr_context


def clone(node):
    """A deep copy of a gast tree (or list of trees), keeping every attribute (line
    numbers and the compiler's own marks); faster than ``copy.deepcopy``."""
    if isinstance(node, list):
        return [clone(item) for item in node]
    kind = type(node)
    if kind in _LEAVES and node.__dict__.get("annotation") is None:
        new = kind.__new__(kind)
        new.__dict__.update(node.__dict__)
        return new
    if not isinstance(node, gast.AST):
        return node
    new = kind.__new__(kind)
    fields = new.__dict__
    for key, value in node.__dict__.items():
        if isinstance(value, gast.AST) and not isinstance(value, _CONTEXT):
            value = clone(value)
        elif type(value) is list:
            value = [clone(item) if isinstance(item, gast.AST) else item for item in value]
        fields[key] = value
    return new


def index_value(index):
    """A subscript index as an ordinary expression (``1:3`` -> ``slice(1, 3)``), so it
    can be passed to a function."""
    if isinstance(index, gast.Slice):
        bounds = [b if b is not None else const(None)
                  for b in (index.lower, index.upper, index.step)]
        if index.step is None:
            bounds = bounds[:2]
        return call("slice", bounds)
    if isinstance(index, gast.Tuple):
        return gast.Tuple(elts=[index_value(e) for e in index.elts], ctx=gast.Load())
    return index


def dotted_name(node):
    """``np.linalg.inv`` for an Attribute chain rooted at a Name, else None."""
    parts = []
    while isinstance(node, gast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, gast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None
