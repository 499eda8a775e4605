"""Programs of the Python users write around their math, by family, for the fuzzer
(``python -m benchmarks.fuzz --constructs families``): ``generate_family(seed)`` gives a
module whose ``f(v, s)`` (``v`` a vector of 3, ``s`` a scalar) adds up 1-3 pieces, each
drawn from one family with random functions, constants and orders of statements:

- ``objects``: dataclasses with a default field, a property, a method calling a method,
  an object called twice, a NamedTuple (``_replace`` included), a plain class whose
  ``__init__`` stores differentiated values;
- ``containers``: lists and dicts written, appended to, extended, popped, items and
  slices deleted (``del xs[1:3]``, ``del d['a']``), in sequences;
- ``exceptions``: ``try``/``except``/``else``/``finally`` around statements, around a
  ``for`` or ``while`` loop, around a helper that raises part-way or holds its own ``try``;
- ``generators``: a generator helper consumed by ``for``, ``sum`` (with a start),
  ``list``, ``sorted(..., reverse=True)``, ``enumerate`` and ``yield from``;
- ``functions``: local lambdas and ``def``s called, given to ``map``/``filter``/
  ``functools.reduce``, ``functools.partial`` of a module function, a factory returning
  a closure over a differentiated value, a list, tuple or dict of functions whose
  items are called (by a literal, by an index known when it runs, by ``for g in fs``);
- ``varargs``: helpers taking ``*args``/``**kwargs`` called with ``f(*xs)``/``f(**kw)``;
- ``nested``: ``sg.grad``/``sg.jvp``/``sg.hvp`` of an inner function called inside ``f``,
  a gradient of a gradient;
- ``starred``: ``first, *rest = ...`` assignments.

``Program.features`` names the family of each piece (``family:objects``...), so the
report counts verdicts by family."""

from __future__ import annotations

import random

from benchmarks.fuzz.generate import Program

FAMILIES = ("objects", "containers", "exceptions", "generators", "functions", "varargs",
            "nested", "starred")
UNARY = ("np.tanh({})", "np.sin({})", "np.cos({})", "np.exp(0.3 * {})", "({}) ** 2",
         "np.log1p(({}) ** 2)")


class _Pieces:
    def __init__(self, rng):
        self.rng, self.count = rng, 0

    def fresh(self, stem):
        self.count += 1
        return f"{stem}{self.count}"

    def unary(self, inner):
        return self.rng.choice(UNARY).format(inner)

    def const(self):
        return self.rng.choice(("0.5", "0.8", "1.3", "-0.7", "2.0", "0.25"))

    def vector_expr(self):
        return self.rng.choice((f"v * {self.const()}", f"{self.unary('v')}",
                                f"v + s * {self.const()}", f"{self.unary('v * s')}"))

    def scalar_expr(self):
        return self.rng.choice((f"s * {self.const()}", self.unary("s"), "v[0] * v[1]",
                                f"np.sum({self.unary('v')})", f"v[2] + {self.const()} * s"))

    # -- families: each returns (module-level lines, body lines, the piece's value) ----
    def objects(self):
        rng, name = self.rng, self.fresh("Box")
        c, k = self.const(), self.const()
        kind = rng.choice(("dataclass", "dataclass", "namedtuple", "plain"))
        methods = [
            "    @property",
            "    def norm2(self):",
            "        return 1.0 + np.sum(self.w ** 2)",
            "",
            "    def inner(self):",
            f"        return {self.unary('self.w')} * self.c",
            "",
            "    def outer(self):",
            "        return np.sum(self.inner()) * self.c + self.norm2",
            "",
            "    def __call__(self, u):",
            "        return np.tanh(self.w[0] * u) + self.c * u",
        ]
        if kind == "dataclass":
            head = ["@dataclasses.dataclass", f"class {name}:", "    w: np.ndarray",
                    f"    c: float = {c}", f"    k: float = {k}", ""]
            build = rng.choice((f"{name}({self.vector_expr()})",
                                f"{name}({self.vector_expr()}, {self.scalar_expr()})"))
        elif kind == "namedtuple":
            head = [f"class {name}(typing.NamedTuple):", "    w: np.ndarray",
                    f"    c: float = {c}", ""]
            build = f"{name}({self.vector_expr()})"
            if rng.random() < 0.5:
                build += f"._replace(c={self.scalar_expr()})"
        else:
            head = [f"class {name}:", "    def __init__(self, w, c=" + c + "):",
                    "        self.w = w", "        self.c = c", ""]
            build = f"{name}({self.vector_expr()}, {self.scalar_expr()})"
        use = rng.choice(("b.outer()", "b.norm2 * b.c", "b(b(0.5))", "np.sum(b.inner())",
                          "b.c * np.sum(b.w)", "b.outer() + b(s)"))
        b = self.fresh("b")
        return head + methods, [f"{b} = {build}"], use.replace("b", b)

    def containers(self):
        rng = self.rng
        xs = self.fresh("xs")
        body = [f"{xs} = [{self.scalar_expr()}, {self.scalar_expr()}]"]
        for _ in range(rng.randint(2, 5)):
            body.append(rng.choice((
                f"{xs}.append({self.unary(xs + '[-1]')})",
                f"{xs}[0] = {xs}[0] * {self.scalar_expr()}",
                f"{xs}[-1] = {xs}[-1] + {self.const()}",
                f"{xs}.extend([{self.scalar_expr()}, s])",
                f"{xs}.append({xs}.pop() * {self.const()})",
                f"{xs}.extend([{self.scalar_expr()}, s])\n{xs}[-1] = {xs}[-1] * {xs}[0]\n"
                f"del {xs}[1:3]",
            )))
        d = self.fresh("d")
        body += [f"{d} = {{'a': {xs}[0], 'b': {self.scalar_expr()}}}",
                 rng.choice((f"{d}['a'] = {d}['a'] * {d}['b']", f"{d}['c'] = {xs}[-1]",
                             f"{d}['b'] = {d}.get('b', 0.0) + s",
                             f"{d}['c'] = {xs}[0] * s\ndel {d}['a']"))]
        tail = rng.choice((f"{xs}.pop()", f"sum({xs})", f"{xs}[0] * {xs}[-1]"))
        return [], body, f"{tail} + sum({d}.values())"

    def exceptions(self):
        rng = self.rng
        helper, safe = self.fresh("raiser"), self.fresh("safe")
        module = [
            f"def {helper}(u, lim):",
            "    total = 0.0",
            "    for i in range(len(u)):",
            f"        total = total + {self.unary('u[i]')}",
            "        if total > lim:",
            "            raise ValueError('over')",
            "    return total",
            "",
            f"def {safe}(u):",
            "    try:",
            f"        return np.sum({self.unary('u')})",
            "    except ValueError:",
            "        return 0.0",
        ]
        r = self.fresh("r")
        where = rng.choice(("helper", "helper_try", "statements", "loop", "while", "finally",
                            "else"))
        lim = rng.choice(("5.0", "-5.0", "0.4"))
        if where == "helper":
            body = ["try:", f"    {r} = {helper}(v, {lim})", "except ValueError:",
                    f"    {r} = {self.scalar_expr()}"]
        elif where == "helper_try":
            body = ["try:", f"    {r} = {safe}(v)", "except KeyError:", f"    {r} = 0.0"]
        elif where == "statements":
            body = ["try:", f"    {r} = {self.scalar_expr()}",
                    f"    if {r} > {lim}:", "        raise ValueError('big')",
                    "except ValueError as err:", f"    {r} = {self.scalar_expr()}"]
        elif where == "loop":
            body = [f"{r} = 0.0", "try:", "    for k in range(3):",
                    f"        {r} = {r} + v[k] * {self.const()}", "except ValueError:",
                    "    pass"]
        elif where == "while":
            body = [f"{r} = 0.0", f"{r}_k = 0", "try:", f"    while {r}_k < 3:",
                    f"        {r} = {r} + {self.unary(f'v[{r}_k]')} * {self.const()}",
                    f"        {r}_k += 1", f"        if {r} > {lim}:",
                    "            raise ValueError('over')",
                    "except ValueError:", f"    {r} = {r} * s"]
        elif where == "finally":
            body = [f"{r} = s", "try:", f"    {r} = {r} * {self.scalar_expr()}", "finally:",
                    f"    {r} = {r} + {self.const()}"]
        else:
            body = ["try:", f"    {r} = {self.scalar_expr()}", "except ValueError:",
                    f"    {r} = 0.0", "else:", f"    {r} = {r} * 2.0"]
        return module, body, r

    def generators(self):
        rng, gen = self.rng, self.fresh("gen")
        module = [f"def {gen}(u):", "    for i in range(3):",
                  f"        yield {self.unary('u[i]')} * (i + 1)"]
        if rng.random() < 0.3:
            module += [f"    yield from ({self.unary('w')} for w in u)"]
        r = self.fresh("g")
        use = rng.choice((
            [f"{r} = 0.0", f"for item in {gen}(v):", f"    {r} = {r} + item * s"],
            [f"{r} = sum({gen}(v))"],
            [f"{r} = sum({gen}(v), s)"],
            [f"{r} = sum(list({gen}(v))) * s"],
            [f"{r}_s = sorted({gen}(v * s), reverse=True)", f"{r} = {r}_s[0] + {r}_s[-1]"],
            [f"{r} = 0.0", f"for i, item in enumerate({gen}(v)):",
             f"    {r} = {r} + item * (i + 1)"],
        ))
        return module, use, r

    def functions(self):
        rng = self.rng
        r = self.fresh("fv")
        act = self.fresh("act")
        kind = rng.choice(("map", "filter", "reduce", "call", "def_map", "inline_map",
                           "partial", "factory", "table", "table"))
        module = []
        if kind == "map":
            body = [f"{act} = lambda z: {self.unary('z * ' + self.const())}",
                    f"{r} = sum(map({act}, [v[0], v[1], s]))"]
        elif kind == "filter":
            body = [f"{act} = lambda z: z > 0.1",
                    f"{r} = sum(filter({act}, [v[0], v[1] * s, v[2]])) + s"]
        elif kind == "reduce":
            body = [f"{act} = lambda a, b: a * {self.const()} + {self.unary('b')}",
                    f"{r} = functools.reduce({act}, [v[0], v[1], s])"]
        elif kind == "call":
            body = [f"def {act}(z):", f"    return {self.unary('z * s')}",
                    f"{r} = np.sum({act}(v)) + {act}(v[0])"]
        elif kind == "def_map":
            body = [f"def {act}(z):", f"    return {self.unary('z')} * s",
                    f"{r} = np.sum(np.array(list(map({act}, v))))"]
        elif kind == "inline_map":
            body = [f"{r} = sum(map(lambda a, b: a * b, [v[0], v[1]], [s, v[2]]))"]
        elif kind == "partial":
            g = self.fresh("scaled")
            module = [f"def {g}(theta, z):", f"    return {self.unary('theta * z')}"]
            body = [f"{r} = sum(map(functools.partial({g}, s), [v[0], v[1]]))"]
        elif kind == "table":
            return self._function_table(r, act)
        else:
            make = self.fresh("make")
            module = [f"def {make}(c):", "    def inner(z):",
                      f"        return {self.unary('c * z')}", "    return inner"]
            body = [f"{act} = {make}(s)", f"{r} = np.sum({act}(v))"]
        return module, body, r

    def _function_table(self, r, act):
        """A list, tuple or dict of lambdas, a local ``def`` and a NumPy function, its
        items called by a literal index or key, by an index known when it runs, or in a
        loop (``for g in table``, ``enumerate``, ``zip``, ``.items()``, ``.values()``)."""
        rng, fs = self.rng, self.fresh("fs")
        items = [f"lambda t: {self.unary('t * s')}", act, "np.sin",
                 f"lambda t: t * {self.const()} + v[0]"]
        rng.shuffle(items)
        body = [f"def {act}(z):", f"    return {self.unary('z')} * s"]
        kind = rng.choice(("list", "tuple", "dict"))
        if kind == "dict":
            keys = [repr(f"k{i}") for i in range(len(items))]
            body.append(f"{fs} = {{" + ", ".join(f"{k}: {i}" for k, i in zip(keys, items))
                        + "}")
        else:
            keys = [str(i - len(items) * (kind == "tuple")) for i in range(len(items))]
            opening, closing = ("[", "]") if kind == "list" else ("(", ")")
            body.append(f"{fs} = {opening}" + ", ".join(items) + closing)
        a, b = rng.sample(keys, 2)
        read = rng.choice(("literal", "loop", "index", "enumerate", "zip"))
        if read == "literal":
            body.append(f"{r} = {fs}[{a}](v[1]) + {fs}[{b}](s) * {fs}[{a}](v[2])")
        elif read == "loop" and kind != "dict":
            body += [f"{r} = 0.0", f"for g in {fs}:", f"    {r} = {r} * {self.const()} + g(v[0])"]
        elif read == "enumerate":
            pairs = f"{fs}.items()" if kind == "dict" else f"enumerate({fs})"
            weight = "len(i)" if kind == "dict" else "(i + 1)"
            body += [f"{r} = 0.0", f"for i, g in {pairs}:",
                     f"    {r} = {r} * {self.const()} + g(v[i % 3] * s) * {weight}"
                     .replace("v[i % 3]", "v[len(i) % 3]" if kind == "dict" else "v[i % 3]")]
        elif read == "zip":
            over = f"{fs}.values()" if kind == "dict" else f"zip([s, v[2], 0.5, v[0]], {fs})"
            target = "g" if kind == "dict" else "w, g"
            weight = "s" if kind == "dict" else "w"
            body += [f"{r} = 0.0", f"for {target} in {over}:",
                     f"    {r} = {r} + {weight} * g(v[1])"]
        else:
            order = ", ".join(rng.sample(keys, 3))
            body += [f"{r} = 0.0", f"for key in ({order}):",
                     f"    {r} = {r} * {self.const()} + {fs}[key](v[1] * s)"]
        return [], body, r

    def varargs(self):
        rng, h = self.rng, self.fresh("combine")
        module = [f"def {h}(*xs, scale=1.0, **kw):",
                  "    total = 0.0",
                  "    for x in xs:",
                  f"        total = total + {self.unary('x')}",
                  "    return total * scale + kw.get('shift', 0.0)"]
        r = self.fresh("va")
        body = [rng.choice((
            f"{r} = {h}(v[0], v[1] * s)",
            f"{r} = {h}(*[v[0], s], scale=s)",
            f"{r} = {h}(v[2], **{{'scale': 2.0, 'shift': s}})",
            f"{r} = {h}(*(v[1], v[2]), shift=v[0])",
        ))]
        return module, body, r

    def nested(self):
        rng, r = self.rng, self.fresh("nd")
        inner = self.fresh("inner")
        body = [f"def {inner}(y):", f"    return {self.unary('y * s')} + y * v[0]"]
        body.append(rng.choice((
            f"{r} = sg.grad({inner})(v[1])",
            f"{r} = sg.jvp({inner})(v[2], 1.0)[1]",
            f"{r} = sg.grad(lambda y: {inner}(y) * y)(s)",
            f"{r} = sg.hvp({inner})(v[1], 1.0)",
            f"{r} = sg.grad(lambda y: sg.grad({inner})(y) * y)(v[1])",
        )))
        return [], body, r

    def starred(self):
        rng = self.rng
        first, rest, last = self.fresh("first"), self.fresh("rest"), self.fresh("last")
        items = f"[{self.scalar_expr()}, v[1], {self.scalar_expr()}, s]"
        body = [rng.choice((f"{first}, *{rest} = {items}", f"*{rest}, {first} = {items}",
                            f"{first}, *{rest}, {last} = {items}"))]
        use = f"{first} * {rest}[0] + {rest}[-1]"
        if last in body[0]:
            use += f" * {last}"
        return [], body, f"({use})"


def generate_family(seed, family=None):
    """Program ``seed`` of the families (or of the one ``family``)."""
    rng = random.Random(seed)
    pieces = _Pieces(rng)
    module, body, terms, features = [], [], [], set()
    for _ in range(rng.randint(1, 3)):
        chosen = family or rng.choice(FAMILIES)
        features.add(f"family:{chosen}")
        defs, lines, value = getattr(pieces, chosen)()
        module += defs + [""]
        body += [part for line in lines for part in line.split("\n")]
        terms.append(value)
    source = "\n".join([
        "import dataclasses", "import functools", "import typing", "", "import numpy as np",
        "", "import srcgrad as sg", "", ""] + module + ["", "def f(v, s):"]
        + ["    " + line for line in body]
        + [f"    return {' + '.join(f'({t})' for t in terms)}", ""])
    return Program(seed, source, "f", [("v", (3,)), ("s", ())], features)
