"""On-disk cache of generated code, under the compiler's in-memory cache.

An entry is one unit's generated module (source, line map, function names) plus what
re-links it to its callees' units, stored as JSON; reverse-mode units (plain, eager and
scalar variants) and forward-mode units alike. Its key hashes everything generation
depends on: the function's source and whole code object (bytecode, constants, names,
nested code, each instruction's line and column: ``cache_keys``), file and name; ``wrt``
and the mode; srcgrad's version and source files; the Python and NumPy versions; and what
every name the function reads denotes now (a rule row, a module, a value's type, a user
function's source and code with what *its* names denote, transitively), so a changed
callee at any depth, a rebound global or a newly registered rule gives a new key.

Where: ``SRCGRAD_CACHE_DIR``, else ``$XDG_CACHE_HOME/srcgrad``, else ``~/.cache/srcgrad``.
``SRCGRAD_CACHE=0`` turns it off; under pytest (``PYTEST_VERSION`` set) it is off unless
one of the two variables is set, so test runs stay hermetic. Writes are atomic
(temporary file, then ``os.replace``). Each entry carries a digest of its content,
checked on load with the shape of every field; anything else at an entry's path (a
damaged or truncated file, a directory, a FIFO: opened without blocking) is ignored and
replaced, and an entry that fails to load is regenerated. A file or directory that
another user owns or can write is never read.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import pathlib
import shutil
import stat as stat_module
import sys
import tempfile

import numpy as np

from srcgrad import syntax
from srcgrad.codegen import dask_tokens
from srcgrad.codegen.emit import GeneratedModule
from srcgrad.compiler import library_watch
from srcgrad.compiler.cache_keys import Uncacheable, code_digest, describe, source_of
from srcgrad.syntax import gast

FORMAT = 3   # 3: a content digest; keys cover code objects and callees transitively
STATS = {"hits": 0, "misses": 0, "writes": 0, "rejected": 0}
_STANDARD_NAMES = {"np", "math", "_sg", "__builtins__"}
_PACKAGE_DIGEST: list[str] = []


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

    key: str | None = None
    names: dict = dataclasses.field(default_factory=dict)   # dotted name -> object
    module: GeneratedModule | None = None
    fields: dict = dataclasses.field(default_factory=dict)  # what else loading needs
    stored_callees: list | tuple = ()

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
        guard_names = {guard[0] for guard in getattr(unit, "guards", None) or ()}
        if set(dict.keys(unit.namespace)) - own - _STANDARD_NAMES - guard_names:
            return   # names injected at link time: a reload could not reproduce them
        module = unit.module
        payload = {"format": FORMAT, "key": self.key, "source": module.source,
                   "line_map": sorted(module.line_map.items()),
                   "functions": module.functions,
                   "spans": {name: list(span) for name, span in module.spans.items()},
                   "fields": fields, "callees": callees}
        payload["digest"] = _content_digest(payload)
        _write(self.key, json.dumps(payload, sort_keys=True))

    def rejected(self):
        """This hit did not load (a stale callee name, say): a miss, to regenerate."""
        STATS["hits"] -= 1
        STATS["rejected"] += 1
        STATS["misses"] += 1
        return Entry(self.key, self.names)


def lookup(parsed, wrt, mode="reverse", required=()):
    """The cached unit for ``parsed`` w.r.t. ``wrt``; a miss keeps the key for ``store``.
    ``required``: the fields (``Entry.store``'s) that loading this mode needs."""
    folder = _usable_directory()
    if folder is None or getattr(parsed.fn, "__srcgrad_lifted__", None) is not None or \
            library_watch.REBOUND:   # (NumPy rebound here: what was stored may not hold)
        return Entry()   # (a lifted local function: its source is no file's text)
    try:
        names = names_of(parsed)
        key = _key(parsed, wrt, mode, names)
    except Uncacheable:
        return Entry()
    payload = _read(folder / f"{key}.json", key, required)
    if payload is None:
        STATS["misses"] += 1
        return Entry(key, names)
    STATS["hits"] += 1
    module = GeneratedModule(
        payload["source"], {g: u for g, u in payload["line_map"]},
        dict(payload["functions"]),
        {name: tuple(span) for name, span in payload["spans"].items()})
    return Entry(key, names, module, payload["fields"], payload["callees"])


def _content_digest(payload):
    content = {k: v for k, v in payload.items() if k != "digest"}
    return hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()


def _read(path, key, required=()):
    """The parsed entry at ``path``, or None if absent, untrusted or not a valid entry
    (never blocks: a FIFO or device is opened non-blocking and rejected as such)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        if os.path.lexists(path):   # a dangling or looping symlink, say
            STATS["rejected"] += 1
        return None
    info = os.fstat(fd)
    if not stat_module.S_ISREG(info.st_mode) or not _trusted(info):
        os.close(fd)
        STATS["rejected"] += 1
        return None
    with os.fdopen(fd, "rb") as handle:
        try:
            data = handle.read()
        except OSError:
            data = b""
    try:
        payload = json.loads(data)
        valid = _well_formed(payload, key, required)
    except (ValueError, KeyError, TypeError, AttributeError):
        valid = False
    if not valid:
        STATS["rejected"] += 1
        return None
    return payload


def _well_formed(payload, key, required):
    """Every field there with the right shape, and the content digest matching."""
    def strings(items):
        return all(isinstance(item, str) for item in items)

    def ints(items):
        return all(type(item) is int for item in items)

    return (payload["format"] == FORMAT and payload["key"] == key
            and payload["digest"] == _content_digest(payload)
            and isinstance(payload["source"], str)
            and all(isinstance(pair, list) and len(pair) == 2 and ints(pair)
                    for pair in payload["line_map"])
            and isinstance(payload["functions"], dict) and strings(payload["functions"])
            and strings(payload["functions"].values())
            and isinstance(payload["spans"], dict)
            and all(isinstance(span, list) and ints(span) for span in payload["spans"].values())
            and isinstance(payload["fields"], dict)
            and all(name in payload["fields"] for name in required)
            and isinstance(payload["callees"], list)
            and all(isinstance(c, list) and len(c) == 3 and isinstance(c[0], str)
                    and isinstance(c[1], list) and strings(c[1])
                    and (isinstance(c[2], str) or isinstance(c[2], list) and strings(c[2]))
                    for c in payload["callees"]))


def _write(key, text):
    folder = _usable_directory()
    if folder is None:
        return
    try:
        fd, temp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=folder)
    except OSError:
        return
    target = folder / f"{key}.json"
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        if target.is_dir() and not target.is_symlink():   # what was there is no entry
            shutil.rmtree(target, ignore_errors=True)
        os.replace(temp, target)
        STATS["writes"] += 1
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(temp)


def names_of(parsed):
    """Every dotted name the function reads that resolves now: ``{dotted: object}``."""
    found = {}
    for node in syntax.walk(parsed.node):
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
    parts = [f"format {FORMAT}", f"python {sys.version}", f"numpy {np.__version__}",
             package_digest(), mode, repr(wrt), parsed.filename, fn.__qualname__,
             code_digest(fn.__code__), source_of(fn)]
    seen = {}
    parts += [f"{dotted} = {describe(obj, seen)}" for dotted, obj in sorted(names.items())]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def package_digest():
    """srcgrad's version and the size and modification time of each of its source files
    (so an edited checkout never reuses old code); computed once per process."""
    if not _PACKAGE_DIGEST:
        import srcgrad

        root = os.path.dirname(srcgrad.__file__)
        digest = hashlib.sha256(getattr(srcgrad, "__version__", "?").encode())
        for parts, path in _source_files(root):
            stat = os.stat(path)
            digest.update(f"{'/'.join(parts)} {stat.st_size} {stat.st_mtime_ns}\n".encode())
        _PACKAGE_DIGEST.append(f"srcgrad {srcgrad.__version__} {digest.hexdigest()}")
    return _PACKAGE_DIGEST[0]


def _source_files(root):
    """``(parts of the path under root, path)`` of every ``.py`` file below ``root``, in
    the order of ``sorted(Path(root).rglob("*.py"))`` (``os.walk`` lists them in a
    third of ``rglob``'s time)."""
    found = []
    for folder, _, files in os.walk(root):
        relative = os.path.relpath(folder, root)
        parts = () if relative == "." else tuple(relative.split(os.sep))
        found += [(parts + (name,), os.path.join(folder, name))
                  for name in files if name.endswith(".py")]
    return sorted(found)


def _dask_code_digest(primal):
    """What a derivative's dask token says of the code it was generated from: srcgrad's
    files and the primal's description, or ``"uncacheable"`` where it has none."""
    try:
        return package_digest(), describe(primal)
    except Uncacheable:
        return "uncacheable"


dask_tokens.CODE_DIGEST = _dask_code_digest
