"""Derivative functions that pickle: each one reduces to what regenerates it.

``sg.grad(f, wrt=1)`` returns a ``Derivative``: a ``functools.partial`` (called in C,
nothing added per call) around the generated function, that pickles as its *recipe*,
the public builder and its arguments (the primal function ``f``, ``wrt``, the options)::

    pickle.dumps(sg.grad(loss, wrt=1))
    # -> rebuild("srcgrad.api.functional.grad", loss, (), {"wrt": 1}): loss by reference

The receiving process calls the builder again, which loads the generated code from the
disk cache or generates it. ``pickle`` handles a primal importable by its module-level
name; ``cloudpickle`` sends any other (a lambda, a closure, a function of ``__main__``)
by value, and the recipe carries the text of the file it was defined in, so that the
receiver can read its source even where that file does not exist.

A ``Derivative`` is pure, so dask may name its tasks by it: ``__dask_tokenize__`` gives
the same token in every process for the same recipe and code (``dask_tokens``).
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import linecache
import sys
import types
from collections.abc import Callable
from typing import Any, TypeVar

from srcgrad.codegen import dask_tokens

F = TypeVar("F", bound=Callable[..., Any])


@dataclasses.dataclass(frozen=True)
class Recipe:
    """What regenerates a derivative function: ``builder(primal, *args, **options)``
    (``builder``: the public function's dotted name)."""

    builder: str
    primal: object
    args: tuple
    options: dict

    def with_args(self, *more):
        return dataclasses.replace(self, args=self.args + more)


class Derivative(functools.partial):
    """A derivative function that pickles as ``rebuild(*recipe)``."""

    def __new__(cls, function, recipe):
        self = super().__new__(cls, function)
        self.recipe = recipe
        inner = getattr(function, "__func__", function)
        for name in ("source", "unit", "__name__", "__qualname__", "__doc__",
                     "__srcgrad_callee__"):
            value = getattr(function, name, None) or getattr(inner, name, None)
            if value is not None:
                setattr(self, name, value)
        if not dask_tokens.REGISTERED:
            dask_tokens.register_when_imported(Derivative)
        # sg.grad(sg.grad(f)) differentiates the generated function itself.
        self.__srcgrad_function__ = getattr(function, "__srcgrad_function__", function)
        return self

    def __getattr__(self, name):
        # ``source`` set on the function after it was wrapped (an implicit gradient
        # function's, on its first call)
        if name == "source":
            return getattr(self.func, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __reduce__(self):
        r = self.recipe
        return rebuild, (r.builder, r.primal, r.args, r.options, _sources(r.primal))

    def __dask_tokenize__(self):
        return dask_tokens.token(self)

    def __repr__(self):
        builder = self.recipe.builder.rsplit(".", 1)[1]
        primal = self.recipe.primal
        name = getattr(primal, "__qualname__", type(primal).__qualname__)
        return f"<srcgrad {builder} of {name}>"


def with_attributes(function: F, **attributes: object) -> F:
    """``function`` with ``attributes`` set on it: what srcgrad keeps on a function it
    made (``source``, ``unit``, ``__srcgrad_callee__``), which a ``def`` cannot declare
    to a type checker."""
    vars(function).update(attributes)
    return function


def attribute(function: Callable[..., Any], name: str) -> Any:
    """The attribute ``name`` that srcgrad keeps on a function it made (see
    ``with_attributes``)."""
    return getattr(function, name)


def recipe(builder, primal, *args, **options):
    return Recipe(builder, primal, args, options)


def derivative(function, builder, primal, *args, **options):
    """``function`` made picklable as ``builder(primal, *args, **options)``; the same
    object again for the same generated function and recipe (``sg.grad(f) is
    sg.grad(f)``)."""
    made = getattr(function, "__dict__", {}).setdefault("derivatives", {}) \
        if isinstance(function, types.FunctionType) else {}
    key = (builder, id(primal), repr(args), repr(sorted(options.items())))
    found = made.get(key)
    if found is None or found.recipe.primal is not primal:
        found = made[key] = Derivative(function, recipe(builder, primal, *args, **options))
    return found


def rebuild(builder, primal, args, options, sources=((), ())):
    """Regenerate a derivative function in a receiving process (``pickle`` calls this)."""
    files, origins = sources
    for filename, text in files:
        _register_source(filename, text)
    _restore_filenames(primal, dict(origins))
    module, name = builder.rsplit(".", 1)
    return getattr(importlib.import_module(module), name)(primal, *args, **options)


def unwrap(obj):
    """The generated function behind a ``Derivative`` (what calling it runs), else ``obj``."""
    if isinstance(obj, Derivative) and not obj.args and not obj.keywords:
        return obj.__srcgrad_function__
    return obj


def _sources(primal):
    """What a receiver needs to read the source of the functions pickle may send by value
    (a lambda, a closure, a function of ``__main__``, and those they call): the text of
    their files, and each one's file (cloudpickle replaces ``co_filename`` with
    ``<dynamic-code>``). Empty for functions importable by name."""
    files, origins = {}, []
    for function in _reachable(_plain(primal)):
        if _importable(function):
            continue
        filename = function.__code__.co_filename
        if filename not in files:
            files[filename] = "".join(linecache.getlines(filename))
        origins.append((_identity(function), filename))
    return tuple((f, text) for f, text in files.items() if text), tuple(origins)


def _restore_filenames(primal, origins):
    for function in _reachable(_plain(primal)):
        filename = origins.get(_identity(function))
        if filename is not None and function.__code__.co_filename != filename:
            function.__code__ = function.__code__.replace(co_filename=filename)


def _plain(primal):
    function = getattr(primal, "__func__", primal)
    return getattr(function, "__srcgrad_function__", function)


def _identity(function):
    return function.__module__, function.__qualname__, function.__code__.co_firstlineno


def _reachable(function):
    """``function`` and the Python functions it reads (globals, closure cells), again and
    again: those a compile may need the source of."""
    seen, pending = {}, [function]
    while pending:
        current = pending.pop()
        if not isinstance(current, types.FunctionType) or id(current) in seen:
            continue
        seen[id(current)] = current
        names = _names(current.__code__)
        pending += [current.__globals__[n] for n in names if n in current.__globals__]
        for cell in current.__closure__ or ():
            try:
                pending.append(cell.cell_contents)
            except ValueError:   # an empty cell
                pass
    return list(seen.values())


def _names(code):
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _names(const)
    return names


def _importable(function):
    module = sys.modules.get(getattr(function, "__module__", None) or "")
    if module is None or module.__name__ == "__main__" or "<" in function.__qualname__:
        return False
    target = module
    for part in function.__qualname__.split("."):
        target = getattr(target, part, None)
    return target is function


def _register_source(filename, text):
    """Make ``filename``'s text readable by ``inspect`` here when it is not on disk as
    it was when pickled (a linecache entry without a modification time is kept)."""
    if "".join(linecache.getlines(filename)) == text:
        return
    lines = text.splitlines(keepends=True)
    linecache.cache[filename] = (len(text), None, lines, filename)


__all__ = ["Derivative", "Recipe", "attribute", "derivative", "rebuild", "recipe", "unwrap",
           "with_attributes"]
