"""Load a user's function from ``FILE.py:FUNC`` for the command-line tools."""

from __future__ import annotations

import importlib.util
import pathlib
import sys

from srcgrad.cli.errors import CommandLineError, UsageError, describe


def load_module(path):
    path = pathlib.Path(path).resolve()
    if not path.is_file():
        raise UsageError(f"no such file: {path}" if not path.exists()
                         else f"not a file: {path}")
    name = f"_srcgrad_user_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None:
        raise UsageError(f"not a Python module: {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(module)
    except SyntaxError:
        sys.modules.pop(name, None)
        raise
    except Exception as exc:
        sys.modules.pop(name, None)
        raise CommandLineError(f"importing {path.name} raised {describe(exc)}") from exc
    finally:
        sys.path.remove(str(path.parent))
    return module


def load_function(target):
    """``model.py:loss`` -> the function object ``loss`` defined in model.py (a method
    ``model.py:Model.loss`` or a callable object works too)."""
    if ":" not in target:
        raise UsageError(f"expected FILE.py:FUNC, got {target!r}")
    path, func_name = target.rsplit(":", 1)
    module = load_module(path)
    obj = module
    for part in func_name.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise UsageError(f"{path} has no function {func_name!r}") from None
    return differentiable_target(obj, f"{path}:{func_name}")


def differentiable_target(obj, label):
    """``obj`` if srcgrad can differentiate it, else a ``UsageError`` naming what it is."""
    from srcgrad.api import functional as api

    try:
        api._target(obj)
    except TypeError as exc:
        raise UsageError(f"{label}: {exc}") from None
    return obj


def resolve_wrt(fn, wrt):
    """``--wrt`` values checked against ``fn``'s parameters (a ``UsageError`` if not)."""
    from srcgrad.api import functional as api

    plain, bound = api._target(fn)
    try:
        return api.resolve_wrt(plain, wrt, bound)
    except (TypeError, ValueError) as exc:
        shown = " ".join(wrt) if isinstance(wrt, (tuple, list)) else wrt
        raise UsageError(f"--wrt {shown}: {exc}") from None

