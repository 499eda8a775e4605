"""Ahead of time: the derivatives of a module's functions as one standalone module.

``emit_module(functions, ...)`` compiles each function w.r.t. all its parameters, follows
the units of the user functions they call, and writes every unit's generated source into
one module that needs only NumPy and ``srcgrad.runtime`` (and, for a callee with a
``custom_vjp`` rule, the user's module its ``fwd`` and ``bwd`` are imported from):

- each function's four generated functions keep their names (``loss_grad``...), with a
  suffix only where two would collide; calls between units are renamed to match;
- the user globals the generated code reads are imported the way the user's module
  imported them (``from consts import W``, ``import scipy.special as sp``), or else from
  the user's module (``from model import scale``);
- the text depends only on the input, so re-emitting unchanged code is byte-identical.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
import io
import os
import symtable
import tokenize
import types

import srcgrad
from srcgrad.aot import custom_callees as aot_custom
from srcgrad.api import functional as api
from srcgrad.codegen.naming import RESERVED
from srcgrad.compiler import guards
from srcgrad.compiler import reverse as compiler
from srcgrad.errors import EmitError
from srcgrad.frontend.freshness import unwrap_own

_PROVIDED = {"np", "math", "_sg"}
ROLES = ("forward", "backward", "grad", "value_and_grad")


def differentiable_functions(module):
    """The functions of ``module`` marked with ``@sg.differentiable`` (also when wrapped
    further by another decorator), in source order."""
    found = {}
    for value in vars(module).values():
        fn = _marked_function(value)
        if fn is not None and fn.__module__ == module.__name__:
            found[id(fn)] = fn
    return sorted(found.values(), key=lambda fn: (fn.__code__.co_firstlineno, fn.__name__))


def _marked_function(value):
    """The innermost function behind ``value`` if any layer of it (the function, or a
    wrapper around it) carries the ``@sg.differentiable`` mark; else None."""
    marked, innermost, seen = False, None, set()
    while value is not None and id(value) not in seen:
        seen.add(id(value))
        marked = marked or getattr(value, "__srcgrad_differentiable__", False) is True
        if isinstance(value, types.FunctionType):
            innermost = value
        value = getattr(value, "__srcgrad_function__", None) or \
            getattr(value, "__wrapped__", None) or getattr(value, "__func__", None)
    return innermost if marked else None


@dataclasses.dataclass
class _Unit:
    unit: object
    names: dict          # role -> name in the emitted module
    idents: set          # identifiers in its source that keep their names
    aliases: dict        # alias in its source -> (callee unit, role)
    customs: dict = dataclasses.field(default_factory=dict)   # alias -> (custom unit, role)


def emit_module(functions, module_names=None, source_label="", command=""):
    """The text of one module holding the derivatives of ``functions`` and their callees.

    ``module_names`` maps ``id(module globals)`` to the importable name to use for a
    module (for a file loaded by path); ``command`` is shown as how to regenerate."""
    module_names = module_names or {}
    units = _collect([compiler.reverse_unit(fn, _all_params(fn)) for fn in functions])
    customs = aot_custom.customs(units)
    imports = _Imports(module_names)
    for entry in units:
        _find_globals(entry, imports)
    for custom in customs.values():
        aot_custom.import_rule(custom, imports)
    _assign_names(units, customs.values(), imports)
    header = _header(source_label, command, functions, bool(customs))
    bodies = [aot_custom.text(custom, imports) for custom in customs.values()]
    bodies += [_unit_text(entry, units, customs, imports) for entry in units]
    return header + imports.text() + "\n\n" + "\n\n\n".join(bodies)


def _all_params(fn):
    """Every parameter; just the name for one (its functions return the gradient itself,
    as for a callee)."""
    plain, bound = api._target(fn)
    params = tuple(api.parameter_names(plain, bound))
    return params[0] if len(params) == 1 else params


def _collect(roots):
    """The roots' units and, depth first, every unit they call, each once."""
    order, seen = [], set()

    def visit(unit):
        if id(unit) in seen:
            return
        seen.add(id(unit))
        aliases = {**_callee_aliases(unit), **_scalar_variants(unit)}
        customs = {alias: link for alias, link in unit.callees.items()
                   if not isinstance(link[0], compiler.ReverseUnit)}
        placeholders = set(unit.module.functions.values()) | set(aliases) | set(customs)
        entry = _Unit(unit, {}, _identifiers(_source(unit)) - placeholders, aliases,
                      customs)
        order.append(entry)
        for callee, _ in entry.aliases.values():
            visit(callee)

    for root in roots:
        visit(root)
    return order


def _callee_aliases(unit):
    """``{alias: (callee unit, role)}`` for the other units' functions ``unit`` calls."""
    return {alias: (callee, role) for alias, (callee, role) in sorted(unit.callees.items())
            if isinstance(callee, compiler.ReverseUnit) and callee is not unit}


def _scalar_variants(unit):
    """``{alias: (variant unit, role)}`` for the variant specialized for scalar arguments
    that the fused functions hand over to (compiled on first use at run time; here, now)."""
    variants = {}
    for role, alias in unit.module.functions.items():
        if role.startswith("scalar_"):
            variant = compiler.reverse_unit(unit.fn, unit.wrt, scalars=True)
            variants[alias] = (variant, role[len("scalar_"):])
    return variants


def _source(unit):
    """The unit's generated source without its guards (see ``guards.without_checks``)."""
    return guards.restored_names(guards.without_checks(unit.module.source), unit.guards)


def _identifiers(source):
    return {tok.string for tok in _tokens(source) if tok.type == tokenize.NAME}


def _tokens(source):
    return list(tokenize.generate_tokens(io.StringIO(source).readline))


def _assign_names(units, customs, imports):
    """Give each generated function a module-wide unique name, the unit's own if free
    (a ``custom_vjp`` callee's pair: ``<name>_forward`` and ``<name>_backward``)."""
    taken = set(RESERVED) | set(imports.bound_names())
    for entry in units:
        taken |= entry.idents

    def fresh(base):
        name, counter = base, 1
        while name in taken:
            name, counter = f"{base}_{counter}", counter + 1
        taken.add(name)
        return name

    for entry in units:
        for role in ROLES:
            base = entry.unit.module.functions[role]
            base += "_scalars" if getattr(entry.unit, "scalars", False) else ""
            entry.names[role] = fresh(base)
    for custom in customs:
        base = getattr(custom.unit.fn, "__name__", "custom")
        for role in ("forward", "backward"):
            custom.names[role] = fresh(f"{base}_{role}")


def _unit_text(entry, units, customs, imports):
    unit = entry.unit
    by_unit = {id(e.unit): e for e in units}
    mapping = {unit.module.functions[role]: entry.names[role] for role in ROLES}
    for alias, (callee, role) in entry.aliases.items():
        mapping[alias] = by_unit[id(callee)].names[role]
    for alias, (custom_unit, role) in entry.customs.items():
        mapping[alias] = customs[id(custom_unit)].names[role]
    mapping.update(imports.renames.get(id(unit), {}))
    lines = _source(unit).splitlines(keepends=True)
    while lines and lines[0].startswith("#"):
        lines.pop(0)
    body = _rename("".join(lines).lstrip("\n"), mapping)
    fn = unwrap_own(unit.fn)
    where = f"{os.path.basename(fn.__code__.co_filename)}:{fn.__code__.co_firstlineno}"
    wrt = (unit.wrt,) if isinstance(unit.wrt, str) else unit.wrt
    variant = ", specialized for scalar arguments" if getattr(unit, "scalars", False) else ""
    title = f"# {fn.__qualname__} ({where}): reverse mode{variant}, " \
        f"wrt {', '.join(wrt) or '()'}.\n"
    return title + body.replace("\n\ndef ", "\n\n\ndef ").rstrip("\n") + "\n"


def _rename(source, mapping):
    """Rename ``Name`` tokens (never attributes) by ``mapping``, keeping the layout."""
    lines = source.splitlines(keepends=True)
    edits = []
    previous = None
    for tok in _tokens(source):
        if tok.type == tokenize.NAME and tok.string in mapping and \
                not (previous is not None and previous.string == "."):
            edits.append((tok.start, tok.end, mapping[tok.string]))
        if tok.type not in (tokenize.NL, tokenize.COMMENT):
            previous = tok
    for (row, start), (_, end), new in reversed(edits):
        line = lines[row - 1]
        lines[row - 1] = line[:start] + new + line[end:]
    return "".join(lines)


def _header(source_label, command, functions, with_rules=False):
    names = ", ".join(fn.__name__ for fn in functions)
    needs = "NumPy, srcgrad.runtime and the modules its custom_vjp rules come from" \
        if with_rules else "only NumPy and srcgrad.runtime"
    regenerate = f"\nRegenerate with: {command}\n" if command else ""
    return (f'"""Derivatives of {source_label or names}, generated ahead of time by srcgrad '
            f"{srcgrad.__version__}.\n{regenerate}\n"
            f"For each function f ({names}):\n"
            "    f_forward(*args) -> (value, saved)     f_backward(saved, dy) -> gradients\n"
            "    f_grad(*args) -> gradients             f_value_and_grad(*args) -> (value, "
            "gradients)\n"
            "with a tuple of gradients, one per parameter (a function of one parameter\n"
            f"returns its gradient itself). Needs {needs}.\n"
            '"""\n\n')


def _find_globals(entry, imports):
    """Register, for import, each user global the unit's generated code reads."""
    unit = entry.unit
    fn = unwrap_own(unit.fn)
    defined = set(unit.module.functions.values()) | set(entry.aliases) | \
        set(entry.customs) | _PROVIDED
    closure = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    free = _free_names(_source(unit))
    imports.provided |= free & _PROVIDED
    for name in sorted(free - defined):
        if dict.__contains__(unit.namespace, name):   # bound at link time, not generated
            raise EmitError(f"{fn.__qualname__} calls a function with its own derivative rule "
                            f"({name}: custom_vjp or checkpoint), which emit cannot write "
                            "into a standalone module")
        if name in closure:
            raise EmitError(f"{fn.__qualname__} reads {name!r} from an enclosing function; "
                            "a standalone module can only import module-level names")
        if name in fn.__globals__:
            imports.add(unit, fn.__globals__, name)
        elif not hasattr(builtins, name):
            raise EmitError(f"{fn.__qualname__} reads {name!r}, which is not defined in "
                            f"{fn.__globals__.get('__name__')}")


def _free_names(source):
    """Names the module's functions read as globals."""
    table = symtable.symtable(source, "<generated>", "exec")
    names = set()
    stack = list(table.get_children())
    while stack:
        child = stack.pop()
        stack.extend(child.get_children())
        names.update(s.get_name() for s in child.get_symbols() if s.is_global())
    return names


class _Imports:
    """The import statements of the emitted module, one binding per user global."""

    def __init__(self, module_names):
        self.module_names = module_names
        self.provided = set()    # which of np, math, _sg the code uses
        self.bindings = {}       # (module, name) -> (kind, module, name, bound)
        self.renames = {}        # id(unit) -> {name in its source: bound name}
        self._origins = {}       # id(globals) -> {name: ((module, name), kind)}

    def bound_names(self):
        return [binding[3] for binding in self.bindings.values()]

    def add(self, unit, namespace, name):
        module = self.module_names.get(id(namespace), namespace.get("__name__"))
        if id(namespace) not in self._origins:
            self._origins[id(namespace)] = _import_origins(namespace.get("__file__"))
        origin = self._origins[id(namespace)].get(name)
        (source_module, source_name), kind = origin or ((module, name), "from")
        key = (source_module, source_name)
        if key not in self.bindings:
            bound = name
            while bound in self.bound_names() or bound in _PROVIDED:
                bound += "_"
            self.bindings[key] = (kind, source_module, source_name, bound)
        bound = self.bindings[key][3]
        if bound != name:
            self.renames.setdefault(id(unit), {})[name] = bound

    def text(self):
        plain, froms = [], {}
        for kind, module, name, bound in self.bindings.values():
            if kind == "import" and name is None:     # ``import a.b`` binds ``a``
                plain.append(f"import {module}")
            elif kind == "import":
                plain.append(f"import {module} as {bound}")
            else:
                froms.setdefault(module, []).append(name if bound == name
                                                    else f"{name} as {bound}")
        user = sorted(plain) + [f"from {module} import {', '.join(sorted(names))}"
                                for module, names in sorted(froms.items())]
        groups = [["import math"] if "math" in self.provided else [],
                  ["import numpy as np"] if "np" in self.provided else [],
                  ["import srcgrad.runtime as _sg"] if "_sg" in self.provided else [],
                  user]
        return "\n\n".join("\n".join(group) for group in groups if group) + "\n"


def _import_origins(path):
    """``{bound name: ((module, name), kind)}`` for the absolute imports at the top level
    (or in a top-level ``try``/``if``) of the module file at ``path``."""
    origins = {}
    try:
        with open(path, encoding="utf-8") as handle:
            tree = ast.parse(handle.read())
    except (OSError, TypeError, SyntaxError, ValueError):
        return origins
    statements = list(tree.body)
    while statements:
        node = statements.pop(0)
        if isinstance(node, (ast.Try, ast.If)):
            statements[:0] = node.body
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    origins[alias.asname] = ((alias.name, alias.name), "import")
                else:
                    root = alias.name.split(".")[0]
                    origins[root] = ((alias.name, None), "import")
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            for alias in node.names:
                origins[alias.asname or alias.name] = ((node.module, alias.name), "from")
    return origins
