"""Load a user's function from ``FILE.py:FUNC`` for the command-line tools."""

from __future__ import annotations

import importlib.util
import pathlib
import sys


def load_module(path):
    path = pathlib.Path(path).resolve()
    if not path.exists():
        raise SystemExit(f"srcgrad: no such file: {path}")
    name = f"_srcgrad_user_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None:
        raise SystemExit(f"srcgrad: not a Python module: {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
    return module


def load_function(target):
    """``model.py:loss`` -> the function object ``loss`` defined in model.py."""
    if ":" not in target:
        raise SystemExit(f"srcgrad: expected FILE.py:FUNC, got {target!r}")
    path, func_name = target.rsplit(":", 1)
    module = load_module(path)
    obj = module
    for part in func_name.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise SystemExit(f"srcgrad: {path} has no function {func_name!r}") from None
    return obj
