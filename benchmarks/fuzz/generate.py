"""Random NumPy programs for the differential fuzzer: ``generate(seed) -> Program``.

A program is a module with 0-2 helper functions and one function ``f`` over scalars,
vectors and matrices, written with the constructs users write: ``for``/``while`` loops
with ``break``/``continue``, early ``return``, branches on values, helpers (small ones
srcgrad inlines, larger ones it calls), subscript and slice reads and writes, augmented
assignment, aliases and views, lists and dicts, ``zip``/``enumerate`` over expressions,
methods and comprehensions. Every variable keeps one shape on every path, so the
program always runs; ``Program.features`` lists the constructs used (for the report)::

    program = generate(7)
    print(program.source)        # def f(x, A, s): ...
    program.arg_specs            # [("x", (3,)), ("A", (2, 3)), ("s", ())]

``constructs="all"`` (the default) adds the kinds of statement the recorded cases use
(``recorded_constructs``); ``constructs="base"`` draws exactly the programs of the first
generator, so a seed reported before it still gives the same program.
"""

from __future__ import annotations

import dataclasses
import random

from benchmarks.fuzz.expressions import MATRIX, SCALAR, SHAPES, SHORT, VECTOR, Expressions
from benchmarks.fuzz.recorded_constructs import RecordedConstructs

CONSTRUCTS = ("all", "base", "families")
PARAMS = ("x", "v", "A", "s", "t", "w", "M", "b")
LOCALS = ("h", "z", "acc", "buf", "k", "mid", "out", "q", "r", "g", "u", "y", "e", "p")
INDEXES = {  # shape -> (index text, shape of the indexed part)
    VECTOR: (("{i3}", SCALAR), ("-1", SCALAR), ("1:", SHORT), (":2", SHORT), (":", VECTOR)),
    SHORT: (("{i2}", SCALAR), ("::-1", SHORT)),
    MATRIX: (("{i2}", VECTOR), (":, {i3}", SHORT), ("{i2}, {i3}", SCALAR),
             ("{i2}, 1:", SHORT), ("{i2}, :2", SHORT)),
}


@dataclasses.dataclass
class Program:
    seed: int
    source: str
    func: str
    arg_specs: list            # [(name, shape)]
    features: set = dataclasses.field(default_factory=set)


def _returns_pair(helper):
    return helper[2][:1] == ("tuple",)


def generate(seed, max_statements=14, constructs="all"):
    if constructs not in CONSTRUCTS:
        raise ValueError(f"constructs: one of {CONSTRUCTS}, not {constructs!r}")
    if constructs == "families":   # (families builds on this module's Program)
        from benchmarks.fuzz.families import generate_family

        return generate_family(seed)
    return _Generator(random.Random(seed), max_statements, constructs == "all").program(seed)


class _Generator(RecordedConstructs):
    def __init__(self, rng, max_statements, extended):
        self.rng, self.budget, self.extended = rng, max_statements, extended
        self.helpers, self.features, self.counter = [], set(), 0
        self.in_helper, self.used = False, set()
        self.constants, self.keyword_helpers, self.no_continue = {}, set(), set()

    def program(self, seed):
        rng = self.rng
        header = []
        if self.extended:
            header, self.constants = self.module_constants()
        chunks = [self.helper(k) for k in range(rng.choice((0, 0, 1, 1, 2)))]
        count = rng.randint(1, 4)
        params = rng.sample(PARAMS, count)
        specs = [(p, rng.choice(SHAPES[0:1] + SHAPES[2:] + SHAPES[2:])) for p in params]
        scope = dict(specs)
        lines = self.block(scope, 1, loops=[])
        lines.append(f"    return {self.result(scope)}")
        signature = ", ".join(p for p, _ in specs)
        chunks.append(f"def f({signature}):\n" + "\n".join(lines) + "\n")
        source = "import numpy as np\n\n" + "".join(line + "\n" for line in header) \
            + "\n" + "\n\n".join(chunks)
        return Program(seed, source, "f", specs, self.features)

    # -- helpers ---------------------------------------------------------------------
    def helper(self, k):
        rng = self.rng
        name = f"helper{k}"
        shapes = [rng.choice((SCALAR, VECTOR, MATRIX)) for _ in range(rng.randint(1, 3))]
        params = [f"p{j}" for j in range(len(shapes))]
        scope = dict(zip(params, shapes))
        default = None
        if self.extended:   # the default parameter is read in the body, and passed
            default = ", scale=0.5" if rng.random() < 0.3 else ""
            scope.update({"scale": SCALAR} if default else {})
        saved, self.budget = self.budget, rng.randint(0, 4)
        self.in_helper = True
        lines = self.block(scope, 1, loops=[])
        self.budget, self.in_helper = saved, False
        result = rng.choice((SCALAR, VECTOR, MATRIX))
        exprs = self.exprs(scope, [], self.helpers)
        if rng.random() < 0.3:
            second = rng.choice((SCALAR, VECTOR))
            lines.append(f"    return {exprs.expr(result)}, {exprs.expr(second)}")
            self.features.add("helper returning a tuple")
            shape = ("tuple", result, second)
        else:
            lines.append(f"    return {exprs.expr(result)}")
            shape = result
        if default is None:
            default = ", scale=0.5" if rng.random() < 0.3 else ""
        if default:
            self.keyword_helpers.add(name)
        self.helpers.append((name, shapes, shape))
        self.features.add("helper")
        return f"def {name}({', '.join(params)}{default}):\n" + "\n".join(lines) + "\n"

    def plain_helpers(self):
        return [h for h in self.helpers if not _returns_pair(h)]

    # -- blocks ----------------------------------------------------------------------
    def fresh(self, scope):
        """A name never bound before in the program (so it has one shape everywhere)."""
        self.counter += 1
        free = [n for n in LOCALS if n not in scope and n not in self.used]
        name = self.rng.choice(free) if free else f"tmp{self.counter}"
        self.used.add(name)
        return name

    def block(self, scope, indent, loops, depth=0):
        lines = []
        for _ in range(self.rng.randint(1, 4)):
            if self.budget <= 0:
                break
            self.budget -= 1
            lines += self.statement(scope, indent, loops, depth)
        return lines or ["    " * indent + "pass"]

    def statement(self, scope, indent, loops, depth):
        kinds = {"assign": 5, "augassign": 3, "write": 3, "if": 2 if depth < 2 else 0,
                 "for": 2 if depth < 2 else 0, "while": 1 if depth < 2 else 0,
                 "list": 1.5, "dict": 1, "zip": 1.5, "alias": 1.5, "swap": 1,
                 "helper_tuple": 1 if any(_returns_pair(h) for h in self.helpers) else 0,
                 "exit": 2 if loops else 0,
                 "return": 0.5 if depth > 0 and not loops and not self.in_helper else 0}
        if self.extended:   # (after the others: "base" draws the first generator's kinds)
            kinds.update({"while_true": 1 if depth < 2 else 0, "slots": 2, "pair": 1})
        kind = self.rng.choices(list(kinds), weights=list(kinds.values()))[0]
        self.features.add(kind)
        pad = "    " * indent
        lines = getattr(self, "stmt_" + kind)(scope, indent, loops, depth)
        return [pad + line if not line.startswith("\t") else line[1:] for line in lines]

    def exprs(self, scope, loops, helpers=None):
        helpers = self.plain_helpers() if helpers is None else helpers
        if not self.extended:
            return Expressions(self.rng, scope, helpers, loops)
        return Expressions(self.rng, scope, helpers, loops, extended=True,
                           constants=self.constants, keyword_helpers=self.keyword_helpers)

    def nested(self, scope, indent, loops, depth):
        """A nested block; names it binds are not visible after it (they may be unset)."""
        inner = dict(scope)
        lines = self.block(inner, indent + 1, loops, depth + 1)
        return ["\t" + line for line in lines], inner

    # -- statements ------------------------------------------------------------------
    def stmt_assign(self, scope, indent, loops, depth):
        rng = self.rng
        shape = rng.choice(SHAPES)
        name = rng.choice([n for n, s in scope.items() if s == shape] or [self.fresh(scope)]) \
            if rng.random() < 0.4 else self.fresh(scope)
        shape = scope.get(name, shape)
        value = self.exprs(scope, loops).expr(shape)
        scope[name] = shape
        return [f"{name} = {value}"]

    def stmt_augassign(self, scope, indent, loops, depth):
        rng = self.rng
        name = rng.choice(list(scope))
        value_shape = scope[name] if rng.random() < 0.6 else SCALAR
        value = self.exprs(scope, loops).expr(value_shape)
        op = rng.choice(("+=", "-=", "*="))
        if rng.random() < 0.15:
            return [f"{name} /= 1.5 + {value} ** 2"]
        return [f"{name} {op} {value}"]

    def stmt_write(self, scope, indent, loops, depth):
        rng = self.rng
        arrays = [n for n, s in scope.items() if s in INDEXES]
        if not arrays:
            return self.stmt_assign(scope, indent, loops, depth)
        source = rng.choice(arrays)
        shape = scope[source]
        lines = []
        if rng.random() < 0.85:   # write into a copy (a fresh array), else into the array
            target = self.fresh(scope)
            copy = rng.choice(("np.copy({})", "{}.copy()", "np.array({})", "np.zeros_like({})"))
            lines.append(f"{target} = {copy.format(source)}")
            scope[target] = shape
        else:
            target = source
            self.features.add("write into an argument or local")
        index, part = rng.choice(INDEXES[shape])
        exprs = self.exprs(scope, loops)
        index = exprs.fill(index)
        value = exprs.expr(part if rng.random() < 0.7 else SCALAR)
        op = rng.choice(("=", "=", "+=", "-=", "*="))
        lines.append(f"{target}[{index}] {op} {value}")
        return lines

    def stmt_if(self, scope, indent, loops, depth):
        test = self.exprs(scope, loops).condition()
        then, then_scope = self.nested(scope, indent, loops, depth)
        lines = [f"if {test}:"] + then
        if self.rng.random() < 0.5:
            other, else_scope = self.nested(scope, indent, loops, depth)
            lines += ["else:"] + other
            for name in set(then_scope) & set(else_scope) - set(scope):
                if then_scope[name] == else_scope[name]:
                    scope[name] = then_scope[name]
        return lines

    def stmt_for(self, scope, indent, loops, depth):
        rng = self.rng
        var = ("i", "j", "n")[len(loops)]
        bound = rng.choice(("2", "3", "4", "len({})"))
        if self.extended and rng.random() < 0.3:
            bound = self.range_bound(scope)
        if "len" in bound:
            arrays = [n for n, s in scope.items() if s != SCALAR]
            bound = bound.format(arrays[0]) if arrays else "3"
        body, _ = self.nested(scope, indent, loops + [var], depth)
        return [f"for {var} in range({bound}):"] + body

    def stmt_while(self, scope, indent, loops, depth):
        counter = ("it", "it2", "it3")[len(loops)]
        body, _ = self.nested(scope, indent, loops + [counter], depth)
        limit = self.rng.randint(2, 4)
        return [f"{counter} = 0", f"while {counter} < {limit}:", f"\t{'    ' * (indent + 1)}"
                f"{counter} += 1"] + body

    def stmt_exit(self, scope, indent, loops, depth):
        test = self.exprs(scope, loops).condition()
        jump = self.rng.choice(('break', 'continue'))
        if loops[-1] in self.no_continue:   # it would skip the loop's count
            jump = "break"
        return [f"if {test}:", f"\t{'    ' * (indent + 1)}{jump}"]

    def stmt_return(self, scope, indent, loops, depth):
        return [f"if {self.exprs(scope, loops).condition()}:",
                f"\t{'    ' * (indent + 1)}return {self.result(scope)}"]

    def stmt_list(self, scope, indent, loops, depth):
        rng = self.rng
        exprs = self.exprs(scope, loops)
        shape = rng.choice((SCALAR, VECTOR))
        name, total = self.fresh(scope), self.fresh(scope)
        pad = "\t" + "    " * (indent + 1)
        style = rng.randrange(4)
        if style == 0:
            lines = [f"{name} = []", "for i2 in range(3):",
                     f"{pad}{name}.append({exprs.expr(shape)} * (i2 + 1))"]
        elif style == 1:
            lines = [f"{name} = [{exprs.expr(shape)}, {exprs.expr(shape)}]",
                     f"{name}.append({exprs.expr(shape)})"]
        elif style == 2:
            lines = [f"{name} = [{exprs.expr(shape, 1)} * c for c in (0.5, -1.0, 2.0)]"]
            self.features.add("comprehension")
        else:
            lines = [f"{name} = [{exprs.expr(shape)}]", f"{name} += [{exprs.expr(shape)}]",
                     f"{name}[0] = {name}[-1] * 0.5", f"last = {name}.pop()"]
        use = rng.randrange(3)
        if use == 0:
            lines.append(f"{total} = np.sum(np.stack({name}), axis=0)")
        elif use == 1:
            lines.append(f"{total} = sum({name})")
        else:
            lines += [f"{total} = {'0.0' if shape == SCALAR else 'np.zeros(3)'}",
                      f"for item in {name}:", f"{pad}{total} = {total} + np.tanh(item)"]
        scope[total] = shape
        return lines

    def stmt_dict(self, scope, indent, loops, depth):
        rng = self.rng
        exprs = self.exprs(scope, loops)
        name, out = self.fresh(scope), self.fresh(scope)
        shape = rng.choice((SCALAR, VECTOR))
        lines = [f"{name} = {{'w': {exprs.expr(shape)}, 'b': {exprs.expr(shape)}}}",
                 f"{name}['w'] = {name}['w'] * {exprs.expr(SCALAR, 1)}"]
        if rng.random() < 0.5:
            lines.append(f"{name}['c'] = np.tanh({name}['b'])")
            lines.append(f"{out} = {name}['w'] + {name}.get('c', 0.0)")
        elif rng.random() < 0.5:
            lines.append(f"{out} = sum(val for val in {name}.values())")
        else:
            pad = "\t" + "    " * (indent + 1)
            lines += [f"{out} = {name}['b']", f"for key in {name}:",
                      f"{pad}{out} = {out} + 0.5 * {name}[key]"]
        scope[out] = shape
        return lines

    def stmt_zip(self, scope, indent, loops, depth):
        rng = self.rng
        exprs = self.exprs(scope, loops)
        total = self.fresh(scope)
        pad = "\t" + "    " * (indent + 1)
        first, second = exprs.expr(VECTOR, 1), exprs.expr(VECTOR, 1)
        style = rng.randrange(5)
        if style == 0:
            head, body = f"for a_, b_ in zip({first}, {second}):", f"{total} = {total} + a_ * b_"
        elif style == 1:
            head, body = (f"for k_, a_ in enumerate({first}):",
                          f"{total} = {total} + (k_ + 1) * np.sin(a_)")
        elif style == 2:
            head, body = (f"for k_, (a_, b_) in enumerate(zip({first}, {second})):",
                          f"{total} = {total} + a_ * np.cos(b_) * k_")
        elif style == 3:
            head, body = (f"for a_, b_ in list(zip({first}, [{exprs.expr(SCALAR, 1)}, 0.5, 2.0])):",
                          f"{total} = {total} + a_ * b_")
        else:
            names = "['p', 'q', 'r']"
            return [f"{total} = 0.0", f"tbl = dict(zip({names}, {first}))",
                    f"{total} = tbl['p'] * tbl['r'] + tbl['q']"] + self._set(scope, total)
        return [f"{total} = 0.0", head, pad + body] + self._set(scope, total)

    def _set(self, scope, name, shape=SCALAR):
        scope[name] = shape
        return []

    def stmt_alias(self, scope, indent, loops, depth):
        rng = self.rng
        arrays = [n for n, s in scope.items() if s in (VECTOR, MATRIX)]
        if not arrays:
            return self.stmt_assign(scope, indent, loops, depth)
        source = rng.choice(arrays)
        shape, exprs = scope[source], self.exprs(scope, loops)
        alias = self.fresh(scope)
        style = rng.randrange(5)
        if style == 0:   # a plain alias, rebound (no shared write)
            lines = [f"{alias} = {source}", f"{alias} = {alias} * {exprs.expr(SCALAR, 1)}"]
        elif style == 1:   # a view of a copy, written through
            copy = self.fresh(scope)
            view = "1:" if shape == VECTOR else rng.choice(("1", ":, 0"))
            lines = [f"{copy} = np.copy({source})", f"{alias} = {copy}[{view}]",
                     f"{alias} *= {exprs.expr(SCALAR, 1)}"]
            scope[copy] = shape
            self.features.add("write through a view")
        elif style == 2:   # an alias of a copy, written through
            copy = self.fresh(scope)
            lines = [f"{copy} = {source}.copy()", f"{alias} = {copy}",
                     f"{alias}[0] = {exprs.expr(SCALAR if shape == VECTOR else VECTOR, 1)}"]
            scope[copy] = shape
            self.features.add("write through an alias")
        elif style == 3:   # a transpose view read after a write into its base
            copy = self.fresh(scope)
            lines = [f"{copy} = np.array({source})", f"{alias} = {copy}.T",
                     f"{copy} *= {exprs.expr(SCALAR, 1)}"]
            scope[copy] = shape
            self.features.add("view read after an in-place update")
        else:   # out=
            lines = [f"{alias} = np.zeros_like({source})",
                     f"np.multiply({source}, {exprs.expr(shape, 1)}, out={alias})"]
            self.features.add("out=")
        scope[alias] = shape if style != 3 else tuple(reversed(shape))
        if style == 1:
            scope[alias] = {"1:": SHORT, "1": VECTOR, ":, 0": SHORT}[view]
        if scope[alias] not in SHAPES:
            del scope[alias]
        return lines

    def stmt_swap(self, scope, indent, loops, depth):
        rng = self.rng
        by_shape = {}
        for name, shape in scope.items():
            by_shape.setdefault(shape, []).append(name)
        pairs = [names for names in by_shape.values() if len(names) > 1]
        if not pairs:
            return self.stmt_assign(scope, indent, loops, depth)
        a, b = rng.sample(rng.choice(pairs), 2)
        exprs = self.exprs(scope, loops)
        if rng.random() < 0.5:
            return [f"{a}, {b} = {b}, {a}"]
        return [f"{a}, {b} = {exprs.expr(scope[a])}, {exprs.expr(scope[b])}"]

    def stmt_helper_tuple(self, scope, indent, loops, depth):
        name, params, (_, first, second) = self.rng.choice(
            [h for h in self.helpers if _returns_pair(h)])
        exprs = self.exprs(scope, loops)
        a, b = self.fresh(scope), self.fresh(scope)
        args = ", ".join(exprs.expr(p, 1) for p in params)
        scope[a], scope[b] = first, second
        return [f"{a}, {b} = {name}({args})"]

    def result(self, scope):
        rng = self.rng
        names = [n for n in scope if scope[n] in SHAPES]
        picked = rng.sample(names, min(len(names), rng.randint(1, 3)))
        terms = []
        for name in picked:
            weight = rng.choice(("", "0.5 * ", "1.5 * "))
            inner = name if rng.random() < 0.6 else f"np.tanh({name})"
            terms.append(f"{weight}np.sum({inner})" if scope[name] != SCALAR
                         else f"{weight}{inner}")
        return " + ".join(terms)
