"""Walk and copy gast trees: every node (``walk``), the names under a node (``names_in``),
every statement of nested blocks (``statements``), line numbers (``set_line``,
``line_of``) and deep copies (``clone``).
"""

from __future__ import annotations

import gast


def walk(node):
    """Every node of the tree ``node`` (itself first), breadth-first as ``gast.walk``
    yields them, as a list (several times faster than ``gast.walk``). Expression
    contexts (the ``ctx`` of a ``Name``) are left out: they hold nothing."""
    nodes = [node]
    append, extend, ast_class = nodes.append, nodes.extend, gast.AST
    fields_of = _CHILD_FIELDS
    name_class, constant_class, binop_class = gast.Name, gast.Constant, gast.BinOp
    call_class, attribute_class = gast.Call, gast.Attribute
    for current in nodes:   # the list grows while it is read: breadth-first
        kind = type(current)
        # (the common nodes' children directly, in field order)
        if kind is name_class:
            annotation = getattr(current, "annotation", None)
            if annotation is not None:
                append(annotation)
            continue
        if kind is constant_class:
            continue
        if kind is binop_class:
            append(current.left)
            append(current.op)
            append(current.right)
            continue
        if kind is attribute_class:
            append(current.value)
            continue
        if kind is call_class:
            append(current.func)
            extend(current.args)
            extend(current.keywords)
            continue
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


def add_children(node, nodes):
    """Append the child nodes of ``node`` to the list ``nodes`` (as ``walk`` finds them,
    in field order; expression contexts left out)."""
    kind = type(node)
    fields = _CHILD_FIELDS.get(kind)
    if fields is None:
        fields = _CHILD_FIELDS[kind] = tuple(f for f in kind._fields if f not in _LEAF_FIELDS)
    append, ast_class = nodes.append, gast.AST
    for field in fields:
        value = getattr(node, field, None)
        if type(value) is list:
            for item in value:
                if isinstance(item, ast_class):
                    append(item)
        elif isinstance(value, ast_class):
            append(value)


def by_type(nodes):
    """``{node class: [the nodes of that class]}`` of ``nodes``, each list in their order:
    passes that look for a few kinds of node read those lists, not every node."""
    groups = {}
    for node in nodes:
        group = groups.get(type(node))
        if group is None:
            groups[type(node)] = [node]
        else:
            group.append(node)
    return groups


_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}   # node class -> the fields that may hold nodes


_LEAF_FIELDS = {"ctx", "id", "attr", "type_comment", "kind"}


def names_in(node, ctx=None):
    """Ids of the ``Name`` nodes under ``node`` (optionally only Load or Store ones), in
    ``walk``'s order (the walk without its list of every node)."""
    found, nodes = [], [node]
    append, ast_class, name_class, fields_of = nodes.append, gast.AST, gast.Name, _CHILD_FIELDS
    extend, constant_class, binop_class = nodes.extend, gast.Constant, gast.BinOp
    call_class, attribute_class = gast.Call, gast.Attribute
    for current in nodes:
        kind = type(current)
        if kind is name_class:
            if ctx is None or isinstance(current.ctx, ctx):
                found.append(current.id)
            if current.annotation is None:
                continue
        elif kind is constant_class:
            continue
        elif kind is binop_class:   # (the common nodes' children directly, in field order)
            append(current.left)
            append(current.right)   # (an operator holds no name)
            continue
        elif kind is attribute_class:
            append(current.value)
            continue
        elif kind is call_class:
            append(current.func)
            extend(current.args)
            extend(current.keywords)
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
        if type(stmt) in _FLAT_STATEMENTS:   # (most statements: no block to look into)
            continue
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and isinstance(stmt, gast.stmt):
                yield from statements(inner)


def count_statements(body):
    """How many statements ``body`` holds, those nested in blocks and handlers included
    (iterative: any depth of nesting)."""
    count, todo = 0, list(body)
    while todo:   # each statement is taken once: the count of a finite tree
        node = todo.pop()
        if type(node) in _FLAT_STATEMENTS:
            count += 1
            continue
        count += isinstance(node, gast.stmt)
        for field in _BLOCK_FIELDS:
            value = getattr(node, field, None)
            if type(value) is list:
                todo.extend(v for v in value if isinstance(v, _STATEMENT_HOLDERS))
    return count


def loaded_names(node):
    return names_in(node, gast.Load)


def set_line(nodes, lineno):
    """Stamp ``lineno`` (the user's line) on statements that do not have one yet."""
    todo = list(nodes) if isinstance(nodes, list) else [nodes]
    flat = _FLAT_STATEMENTS
    while todo:   # statements nest only in lists of statements, handlers and cases
        node = todo.pop()
        if type(node) in flat:   # (most statements: a statement, no block)
            if getattr(node, "lineno", None) is None:
                node.lineno = lineno
            continue
        if isinstance(node, gast.stmt) and getattr(node, "lineno", None) is None:
            node.lineno = lineno
        for field in _BLOCK_FIELDS:
            value = getattr(node, field, None)
            if type(value) is list:
                todo.extend(v for v in value if isinstance(v, _STATEMENT_HOLDERS))
    return nodes


_STATEMENT_HOLDERS = (gast.stmt, gast.excepthandler, gast.match_case)
# Statements without a block (most of generated code): nothing nested to stamp.
_FLAT_STATEMENTS = frozenset({gast.Assign, gast.AugAssign, gast.AnnAssign, gast.Expr,
                              gast.Return, gast.Pass, gast.Delete, gast.Raise, gast.Break,
                              gast.Continue})
# The fields that hold them (the other fields of a statement hold expressions).
_BLOCK_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")


def line_of(node, default=None):
    return getattr(node, "lineno", None) or default


# Copied by copying their fields: a Name's context (Load, Store...) holds nothing and is
# shared (so is every context), a Constant's value is not a node; a parameter's Name
# with an annotation is copied field by field.
_LEAVES = frozenset({gast.Name, gast.Constant})


_CONTEXT = gast.expr_context


def make(kind, fields):
    """A node of class ``kind`` whose ``__dict__`` is ``fields`` (what ``kind(**fields)``
    gives, without gast's constructor, which sets them one by one)."""
    node = kind.__new__(kind)
    node.__dict__ = fields
    return node


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
