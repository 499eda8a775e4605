"""The one package that builds, parses and prints gast nodes.

Every other module goes through these helpers (and uses ``gast`` node classes only for
``isinstance`` checks), so a gast API change touches this package alone.

Code is mostly written as templates: ``quote("d{x} = g * np.cos(x)", x=...)`` parses a
snippet and substitutes names, which keeps the compiler readable and the generated code
looking like what a person would write.

Modules (every public name is importable from ``srcgrad.syntax``):

- ``nodes``: build nodes (``name``, ``const``, ``assign``, ``call``, ``function_def``...)
  and ask small questions of them (``is_atom``, ``dotted_name``, ``spreads``);
- ``templates``: ``quote``/``quote_expr`` (parse a snippet, substitute names) and
  ``replace_names``;
- ``trees``: walk and copy trees (``walk``, ``add_children``, ``names_in``, ``statements``,
  ``set_line``, ``clone``);
- ``printing``: print trees as source (``to_source``, ``render``) and comment statements;
- ``convert``: the gast tree of a stdlib ``ast`` tree (``to_gast``, as gast converts it).
"""

from __future__ import annotations

import gast

from srcgrad.syntax.convert import to_gast
from srcgrad.syntax.nodes import (
    assign,
    call,
    const,
    dotted_name,
    emptied_block,
    function_def,
    index_value,
    is_atom,
    is_negative_literal,
    name,
    param,
    param_names,
    parse,
    spreads,
    tuple_of,
)
from srcgrad.syntax.printing import (
    comment,
    comment_text,
    is_comment,
    render,
    render_lines,
    to_source,
)
from srcgrad.syntax.templates import quote, quote_expr, replace_names
from srcgrad.syntax.trees import (
    add_children,
    by_type,
    clone,
    count_statements,
    line_of,
    loaded_names,
    names_in,
    set_line,
    statements,
    walk,
)

__all__ = [
    "gast",
    "assign", "call", "const", "dotted_name", "emptied_block", "function_def", "index_value",
    "is_atom", "is_negative_literal", "name", "param", "param_names", "parse", "spreads",
    "to_gast", "tuple_of",
    "comment", "comment_text", "is_comment", "render", "render_lines", "to_source",
    "quote", "quote_expr", "replace_names",
    "add_children", "by_type", "clone", "count_statements", "line_of", "loaded_names",
    "names_in", "set_line", "statements", "walk",
]
