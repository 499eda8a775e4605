"""Generated code shared by the closures of one ``def``: ``sg.grad(make_loss(batch))``
in a training loop makes a new function object each step, with the same code and new
closure cells, and the units cached on the old function (``unit_cache``) do not apply.

A unit's generated module is reused for a new function of the same code object, module
globals and defaults when what generation read from each closure cell is the same:

- an ndarray (exactly ``numpy.ndarray``) of the same dtype and shape, or a float or
  complex of the same type: generated code reads these values when it runs (through
  the function's cells, ``codegen.loader.LiveGlobals``) and never from its source;
- anything else (a function, a module, an int, a Variable, a class...): the very same
  object, since generation may have read it (its type, what calling it compiles to,
  its items, whether a call can change it). The template refers to it weakly (an int,
  a string or None as it is): a closure's objects die with the closures. A cell holding
  a list, dict or tuple (not weakly referable; it may hold large arrays) makes the code
  not shared.

Templates are kept per code object, weakly, and only for closures of a module's
globals (``_shareable``): nothing they refer to leads back to their code object, so
functions made from text with globals of their own are freed.

What the unit assumed about names (``compiler.guards``) is checked on entry against the
objects it was generated for, as for any unit; callees are linked only if each name
still denotes the same callee. A unit whose normalization lifted local functions (bound
to one closure's cells) is not shared.

Before: ``sg.grad(make_loss(X, 2.0))(w)`` parsed, normalized and generated ``loss`` on
every call. After: the first call generates; later calls re-link that module to the new
closure's cells.
"""

from __future__ import annotations

import dataclasses
import sys
import types
import weakref

import numpy as np

from srcgrad.codegen import defaults
from srcgrad.compiler import guards as guards_module
from srcgrad.frontend.parse import ParsedFunction, globals_of
from srcgrad.rules import REGISTRY

MAX_VARIANTS = 8   # templates kept per (code, kind, wrt)
_TEMPLATES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_SAME_TYPE = (float, complex, np.floating, np.complexfloating)
_EMPTY = object()   # an empty cell
_ATOMS = (bool, int, str, bytes)   # kept by the template as they are (small, no items)
_DEFAULT_ATOMS = (type(None), bool, int, float, complex, str, bytes)


@dataclasses.dataclass
class Template:
    """What loading a unit for another function of the same code needs."""

    cells: tuple            # per free variable: ("array", dtype, shape), ("type", t),
    #                         ("is", an atom), ("weak", weakref to the object)
    defaults: tuple
    kwdefaults: dict
    node: object            # the parsed ``def`` (defaults' bindings are computed from it)
    filename: str
    module: object          # the GeneratedModule
    fields: dict            # zero_wrt, guards (name, dotted, object), escapes, default_values
    callees: tuple          # (dotted, aliases, wrt, callee object)
    globals_ref: dict | None = dataclasses.field(repr=False, default=None)
    generation: int = -1    # the rule table's (``Registry.generation``) when generated

    def matches(self, fn):
        guards = self.fields["guards"]
        return (self.generation == REGISTRY.generation
                and fn.__globals__ is self.globals_ref
                and _same_defaults(fn.__defaults__, self.defaults)
                and _same_kwdefaults(fn.__kwdefaults__ or {}, self.kwdefaults)
                and _cells_match(fn, self.cells)
                and (not guards or guards_module.hold(fn, guards)))

    def parsed_for(self, fn):
        """A ``ParsedFunction`` of ``fn`` good for resolving names and loading."""
        closure = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
        parsed = ParsedFunction(fn, self.node, self.filename, globals_of(fn), closure)
        parsed.default_values = self.fields["default_values"]
        return parsed


def find(fn, kind, wrt):
    """The template generated for another function of ``fn``'s code that fits ``fn``."""
    if not _shareable(fn):
        return None
    for template in _TEMPLATES.get(fn.__code__, {}).get((kind, wrt), ()):
        if template.matches(fn):
            return template
    return None


def remember(fn, kind, wrt, parsed, unit, callee_aliases, names_of):
    """Keep ``unit``'s module as a template for other closures of ``fn``'s code
    (``names_of()``: dotted name -> object, to find each callee again; asked only when
    the unit links callees)."""
    if not _shareable(fn) or parsed.injected or getattr(unit, "module", None) is None:
        return
    linked = [(callee, entry) for (callee, _), entry in callee_aliases.items()
              if len(entry) == 3]
    by_object = {}
    for dotted, obj in sorted(names_of().items()) if linked else ():
        by_object.setdefault(id(obj), (dotted, obj))
    callees = []
    for callee, entry in linked:
        found = by_object.get(id(callee))
        if found is None or found[1] is not callee:
            return   # a callee reached other than by a name: not re-linkable
        *aliases, callee_unit = entry
        callees.append((found[0], tuple(aliases), callee_unit.wrt, callee))
    cells = _describe_cells(fn)
    if cells is None:
        return
    default_values = getattr(parsed, "default_values", None)
    if default_values is None:
        default_values = defaults.default_bindings(fn, parsed.node)
    template = Template(
        cells, fn.__defaults__, dict(fn.__kwdefaults__ or {}), parsed.node, parsed.filename,
        unit.module, {"zero_wrt": sorted(unit.zero_wrt), "guards": unit.guards,
                      "escapes": unit.escapes,
                      "default_values": dict(default_values)},
        tuple(callees), fn.__globals__, REGISTRY.generation)
    variants = _TEMPLATES.setdefault(fn.__code__, {}).setdefault((kind, wrt), [])
    variants.insert(0, template)
    del variants[MAX_VARIANTS:]


def linked_callees(template, parsed, compile_callee):
    """``{(callee, wrt): (*aliases, unit)}`` for ``template`` in ``parsed``'s function,
    or None if a name no longer denotes the callee the module was generated to call."""
    linked = {}
    for dotted, aliases, wrt, callee in template.callees:
        try:
            now = parsed.resolve(dotted)
        except KeyError:
            return None
        if now is not callee:
            return None
        linked[callee, wrt] = (*aliases, compile_callee(callee, wrt))
    return linked


def _shareable(fn):
    """Only closures share code (another function of a code object without cells is
    rare), only those of a module's globals (a template holds the globals, which hold
    the function that holds the code it is keyed by: globals made for one text,
    ``exec(text, {})`` or ``sg.exec_source``, would never be freed), and only those
    whose defaults are numbers, strings or None (a template keeps them, and an array
    default would outlive its closures)."""
    return (isinstance(fn, types.FunctionType) and fn.__closure__ is not None
            and not hasattr(fn, "__wrapped__")
            and getattr(fn, "__srcgrad_lifted__", None) is None
            and _of_a_module(fn.__globals__)
            and all(type(v) in _DEFAULT_ATOMS for v in (fn.__defaults__ or ())) and all(
                type(v) in _DEFAULT_ATOMS for v in (fn.__kwdefaults__ or {}).values()))


def _of_a_module(namespace):
    module = sys.modules.get(namespace.get("__name__"))
    return module is not None and getattr(module, "__dict__", None) is namespace


def _describe_cells(fn):
    """The cells' descriptions, or None when one cannot be kept (see ``_describe``)."""
    described = []
    for cell in fn.__closure__ or ():
        try:
            value = cell.cell_contents
        except ValueError:
            value = _EMPTY
        found = _describe(value)
        if found is None:
            return None
        described.append(found)
    return tuple(described)


def _describe(value):
    """How a cell's value must look for the template to fit: None when the template
    would have to keep a container alive (a list may hold large arrays that outlive
    the closures then), which makes the function's code not shared."""
    if type(value) is np.ndarray:
        return ("array", value.dtype, value.shape)
    if isinstance(value, _SAME_TYPE):
        return ("type", type(value))
    if value is None or value is _EMPTY or type(value) in _ATOMS:
        return ("is", value)
    try:
        return ("weak", weakref.ref(value))   # a function, class, module, object: its identity
    except TypeError:
        return None


def _cells_match(fn, described):
    cells = fn.__closure__ or ()
    if len(cells) != len(described):
        return False
    for cell, (kind, *facts) in zip(cells, described):
        try:
            value = cell.cell_contents
        except ValueError:
            value = _EMPTY
        if kind == "is":
            if value is not facts[0]:
                return False
        elif kind == "weak":
            if value is not facts[0]():   # (a dead referent matches nothing alive)
                return False
        elif kind == "array":
            if type(value) is not np.ndarray or value.dtype != facts[0] \
                    or value.shape != facts[1]:
                return False
        elif type(value) is not facts[0]:
            return False
    return True


def _same_defaults(now, then):
    now, then = now or (), then or ()
    return len(now) == len(then) and all(a is b for a, b in zip(now, then))


def _same_kwdefaults(now, then):
    return now.keys() == then.keys() and all(now[k] is then[k] for k in now)
