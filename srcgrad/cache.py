"""On-disk cache of generated code, under the compiler's in-memory cache.

An entry is one unit's generated module (source, line map, function names) plus what
re-links it to its callees' units, stored as JSON; reverse-mode units (plain, eager and
scalar variants) and forward-mode units alike. Its key hashes everything generation
depends on: the function's source, code, file, line and name; ``wrt`` and the mode;
srcgrad's version and source files; the Python version; and what every name the function
reads denotes now (a rule row, a user function's source, a module, a value's type), so a
changed callee, rebound global or newly registered rule gives a new key.

Where: ``SRCGRAD_CACHE_DIR``, else ``$XDG_CACHE_HOME/srcgrad``, else ``~/.cache/srcgrad``.
``SRCGRAD_CACHE=0`` turns it off; under pytest (``PYTEST_VERSION`` set) it is off unless
one of the two variables is set, so test runs stay hermetic. Writes are atomic
(temporary file, then ``os.replace``); an entry that cannot be read is ignored and
rewritten; a file or directory that another user owns or can write is never read.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import inspect
import json
import os
import pathlib
import sys
import tempfile
import types

from srcgrad import syntax
from srcgrad.codegen.emit import GeneratedModule
from srcgrad.rules import REGISTRY
from srcgrad.rules.registry import qualified_name
from srcgrad.syntax import gast

FORMAT = 2   # 2: callees' aliases as a list, the unit's own fields (any mode)
STATS = {"hits": 0, "misses": 0, "writes": 0, "rejected": 0}
_STANDARD_NAMES = {"np", "math", "_sg", "__builtins__"}
_PACKAGE_DIGEST = []


class _Uncacheable(Exception):
    """Generation depends on something without a stable description."""


def directory():
    """The cache directory, or None when the cache is off."""
    env = os.environ
    explicit = env.get("SRCGRAD_CACHE_DIR")
    switch = env.get("SRCGRAD_CACHE", "").strip().lower()
    if switch in ("0", "off", "false", "no"):
        return None
    under_pytest = "PYTEST_VERSION" in env or "PYTEST_CURRENT_TEST" in env
    if under_pytest and not explicit and not switch:
        return None
    if explicit:
        return pathlib.Path(explicit)
    base = env.get("XDG_CACHE_HOME") or pathlib.Path.home() / ".cache"
    return pathlib.Path(base) / "srcgrad"


def _trusted(stat):
    """Owned by this user and not writable by group or others."""
    owner_ok = not hasattr(os, "getuid") or stat.st_uid == os.getuid()
    return owner_ok and not stat.st_mode & 0o022


def _usable_directory():
    path = directory()
    if path is None:
        return None
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        return path if _trusted(path.stat()) else None
    except OSError:
        return None


@dataclasses.dataclass
class Entry:
    """The cache's answer for one (function, wrt, mode): a hit carries the module."""

    key: str = None
    names: dict = dataclasses.field(default_factory=dict)   # dotted name -> object
    module: GeneratedModule = None
    fields: dict = dataclasses.field(default_factory=dict)  # what else loading needs
    stored_callees: list = ()

    @property
    def hit(self):
        return self.module is not None

    def callees(self, parsed, compile_callee):
        """``{(callee, wrt): (*aliases, callee unit)}`` for a hit."""
        linked = {}
        for dotted, aliases, params in self.stored_callees:
            callee = parsed.resolve(dotted)
            wrt = params if isinstance(params, str) else tuple(params)
            linked[callee, wrt] = (*aliases, compile_callee(callee, wrt))
        return linked

    def store(self, unit, links, fields):
        """Write a freshly generated unit (a no-op when off or not describable):
        ``links`` its callees other than itself, ``{(callee, wrt): (*aliases, callee
        unit)}``, and ``fields`` what else its loading needs (JSON: the reverse mode's
        ``zero_wrt``, the forward mode's ``tangent_names``)."""
        if self.key is None:
            return
        by_object = {id(obj): dotted for dotted, obj in sorted(self.names.items())}
        callees = []
        for (callee, _), (*aliases, callee_unit) in links.items():
            if id(callee) not in by_object:
                return
            wrt = callee_unit.wrt
            callees.append([by_object[id(callee)], aliases,
                            wrt if isinstance(wrt, str) else list(wrt)])
        own = set(unit.module.functions.values()) | {a for c in callees for a in c[1]}
        if set(dict.keys(unit.namespace)) - own - _STANDARD_NAMES:
            return   # names injected at link time: a reload could not reproduce them
        module = unit.module
        payload = {"format": FORMAT, "key": self.key, "source": module.source,
                   "line_map": sorted(module.line_map.items()),
                   "functions": module.functions,
                   "spans": {name: list(span) for name, span in module.spans.items()},
                   "fields": fields, "callees": callees}
        _write(self.key, json.dumps(payload, sort_keys=True))


def lookup(parsed, wrt, mode="reverse"):
    """The cached unit for ``parsed`` w.r.t. ``wrt``; a miss keeps the key for ``store``."""
    folder = _usable_directory()
    if folder is None:
        return Entry()
    try:
        names = _names(parsed)
        key = _key(parsed, wrt, mode, names)
    except _Uncacheable:
        return Entry()
    payload = _read(folder / f"{key}.json", key)
    if payload is None:
        STATS["misses"] += 1
        return Entry(key, names)
    STATS["hits"] += 1
    module = GeneratedModule(
        payload["source"], {int(g): int(u) for g, u in payload["line_map"]},
        dict(payload["functions"]),
        {name: tuple(span) for name, span in payload["spans"].items()})
    return Entry(key, names, module, payload["fields"], payload["callees"])


def _read(path, key):
    """The parsed entry at ``path``, or None if absent, untrusted or corrupt."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        if not _trusted(os.fstat(handle.fileno())):
            STATS["rejected"] += 1
            return None
        data = handle.read()
    try:
        payload = json.loads(data)
        valid = payload["format"] == FORMAT and payload["key"] == key and \
            isinstance(payload["source"], str) and isinstance(payload["callees"], list) \
            and isinstance(payload["fields"], dict)
    except (ValueError, KeyError, TypeError):
        valid = False
    if not valid:
        STATS["rejected"] += 1
        return None
    return payload


def _write(key, text):
    folder = _usable_directory()
    if folder is None:
        return
    try:
        fd, temp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=folder)
    except OSError:
        return
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temp, folder / f"{key}.json")
        STATS["writes"] += 1
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temp)


def _names(parsed):
    """Every dotted name the function reads that resolves now: ``{dotted: object}``."""
    found = {}
    for node in gast.walk(parsed.node):
        if isinstance(node, (gast.Name, gast.Attribute)):
            dotted = syntax.dotted_name(node)
            if dotted and dotted not in found:
                try:
                    found[dotted] = parsed.resolve(dotted)
                except Exception:   # unbound, or an attribute that fails to evaluate
                    continue
    return found


def _key(parsed, wrt, mode, names):
    fn = parsed.fn
    code = fn.__code__
    parts = [f"format {FORMAT}", f"python {sys.version}", _package_digest(), mode,
             repr(wrt), parsed.filename, str(code.co_firstlineno), fn.__qualname__,
             code.co_code.hex(), _source(fn)]
    parts += [f"{dotted} = {_describe(obj)}" for dotted, obj in sorted(names.items())]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _source(fn):
    try:
        return inspect.getsource(fn)
    except (OSError, TypeError):
        raise _Uncacheable() from None


def _describe(obj):
    """A stable description of what a name denotes, as far as generation cares."""
    if REGISTRY.is_nondiff(obj):
        return "nondiff"
    rule = REGISTRY.lookup(obj)
    if rule is not None:
        text = f"rule {rule!r}"
    elif isinstance(obj, types.FunctionType):
        digest = hashlib.sha256(_source(obj).encode()).hexdigest()
        text = f"function {obj.__module__}.{obj.__qualname__} {digest}"
    elif isinstance(obj, types.ModuleType):
        text = f"module {obj.__name__}"
    elif isinstance(obj, type):
        text = f"class {obj.__module__}.{obj.__qualname__}"
    elif callable(obj):
        text = f"callable {type(obj).__qualname__} {qualified_name(obj)}"
    else:
        text = f"value {type(obj).__module__}.{type(obj).__qualname__}"
    if " at 0x" in text:
        raise _Uncacheable()
    return text


def _package_digest():
    """srcgrad's version and the size and modification time of each of its source files
    (so an edited checkout never reuses old code); computed once per process."""
    if not _PACKAGE_DIGEST:
        import srcgrad

        root = pathlib.Path(srcgrad.__file__).parent
        digest = hashlib.sha256(getattr(srcgrad, "__version__", "?").encode())
        for path in sorted(root.rglob("*.py")):
            stat = path.stat()
            digest.update(f"{path.relative_to(root)} {stat.st_size} {stat.st_mtime_ns}\n".encode())
        _PACKAGE_DIGEST.append(f"srcgrad {srcgrad.__version__} {digest.hexdigest()}")
    return _PACKAGE_DIGEST[0]
