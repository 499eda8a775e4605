"""dask's name for a derivative function: derivative functions are pure, so dask may
key their tasks by what they compute (``client.map(sg.grad(loss), ...)`` with dask's
default ``pure=True``, ``dask.delayed(g)``, ``dask.bag.map``).

dask names a ``functools.partial`` (which a ``Derivative`` is) by its function and
arguments, without asking the subclass for ``__dask_tokenize__``, and it cannot name
generated code by pickling it (a generated function is not importable). So
``Derivative`` is registered with dask's ``normalize_token``: at once if dask is loaded
when the first one is made, else by a one-shot import hook when ``dask.tokenize`` is
first imported (nothing of dask is imported here).
"""

from __future__ import annotations

import importlib.abc
import sys
import threading
from collections.abc import Callable
from typing import Any

REGISTERED: list = []   # non-empty once the registration is done
_LOCK = threading.Lock()


def token(derivative):
    """What names ``derivative``: its builder, dask's own token of the primal (by
    reference for an importable function; by value, closure cells included, for a
    closure or a function of ``__main__``, as dask names a plain function), of the
    builder's arguments and options, and the digest of what generation reads (the
    primal's source and code, what each name it reads denotes, recursively, and
    srcgrad's version and files: the disk cache's key). A primal whose code has no
    stable description is named without that digest."""
    from dask.tokenize import normalize_token

    r = derivative.recipe
    return ("srcgrad", r.builder, normalize_token(r.primal), normalize_token(r.args),
            normalize_token(r.options), _code_digest(r.primal))


# The digest of what generation reads, a function of the primal set by
# srcgrad.compiler.cache when it loads (the compiler sits above codegen; every Derivative
# is made through it).
CODE_DIGEST: Callable[[Any], Any] | None = None


def _code_digest(primal):
    if CODE_DIGEST is None:
        raise RuntimeError("srcgrad.compiler.cache is not loaded: no derivative was made here")
    return CODE_DIGEST(primal)


def register_when_imported(cls):
    """Register ``cls`` with dask's ``normalize_token`` now if dask is loaded, else when
    ``dask.tokenize`` is imported."""
    with _LOCK:
        if REGISTERED:
            return
        tokenize = sys.modules.get("dask.tokenize")
        if tokenize is not None:
            _register(tokenize, cls)
        elif not any(isinstance(f, _Hook) for f in sys.meta_path):
            sys.meta_path.insert(0, _Hook(cls))


def _register(tokenize, cls):
    tokenize.normalize_token.register(cls, token)
    REGISTERED.append(cls)


class _Hook(importlib.abc.MetaPathFinder):
    """Finds nothing itself: for ``dask.tokenize`` it asks the finders after it and
    wraps the module's loader so that the registration runs once the module is
    executed; then it leaves ``sys.meta_path``."""

    def __init__(self, cls):
        self.cls = cls

    def find_spec(self, name, path=None, target=None):
        if name != "dask.tokenize":
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None and spec.loader is not None:
                spec.loader = _Registering(spec.loader, self)
                return spec
        return None


class _Registering(importlib.abc.Loader):
    def __init__(self, loader, hook):
        self.loader, self.hook = loader, hook

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        self.loader.exec_module(module)
        with _LOCK:
            if self.hook in sys.meta_path:
                sys.meta_path.remove(self.hook)
            if not REGISTERED:
                _register(module, self.hook.cls)

    def __getattr__(self, name):   # get_source, get_code, is_package ... of the real one
        return getattr(self.loader, name)
