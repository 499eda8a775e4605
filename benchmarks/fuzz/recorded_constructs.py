"""Statements of the kinds the recorded wrong-gradient cases use and the first generator
did not write (``generate(seed, constructs="all")``, the default):

- ``while True:`` loops that count and ``break`` at a bound, and ``while n < K:`` loops
  that count at the end of their body (neither may ``continue``: it would skip the count);
- zeros-array slot writes: a recurrence ``arr[i] = f(arr[i - 1])``, rows of a matrix
  filled in a loop, slots accumulated with ``+=``, a copy written at a slot the loop
  variable picks (``zs[2 - i % 3] *= ...``), a column updated in place;
- tuple assignments of values of different shapes (``lr, res = 0.6 * b, q[0:2] + 0.6``)
  and simultaneous updates of two names (``b, v = f(b, v), g(v, b)``);
- module-level constants read by ``f`` and its helpers (``SCALE = 0.7``), loops over
  ``range(1, 3)`` and ``range(M.shape[1])``.

Each method is a statement kind of ``generate._Generator`` (mixed in), returning lines
as ``stmt_*`` do there.
"""

from __future__ import annotations

from benchmarks.fuzz.expressions import MATRIX, SCALAR, SHAPES, SHORT, VECTOR

CONSTANT_VALUES = {
    SCALAR: ("0.7", "-0.35", "1.25"),
    VECTOR: ("np.array([0.2, -0.6, 1.1])", "np.linspace(0.5, -0.5, 3)"),
    MATRIX: ("np.array([[0.1, 0.5, 0.9], [-0.2, 1.3, -0.1]])",),
}
CONSTANT_NAMES = ("SCALE", "BIAS", "OFFSET", "W0")
COUNTERS = ("cnt", "cnt2", "cnt3")
LOOP_VARS = ("i", "j", "n")


class RecordedConstructs:
    """Mixed into ``_Generator``: needs ``rng``, ``features``, ``fresh``, ``exprs``,
    ``nested``, ``no_continue`` (loop variables whose body may not ``continue``)."""

    def module_constants(self):
        """``(lines, {name: shape})``: 0-2 module-level constants."""
        lines, constants = [], {}
        for name in self.rng.sample(CONSTANT_NAMES, self.rng.choice((0, 1, 1, 2))):
            shape = self.rng.choice(list(CONSTANT_VALUES))
            lines.append(f"{name} = {self.rng.choice(CONSTANT_VALUES[shape])}")
            constants[name] = shape
        if constants:
            self.features.add("module-level constant")
        return lines, constants

    def range_bound(self, scope):
        """``range(...)``'s arguments: also ``1, 3`` and ``M.shape[1]``."""
        matrices = [n for n, s in scope.items() if s == MATRIX]
        options = ["2", "3", "1, 3"] + [f"{m}.shape[{k}]" for m in matrices[:1] for k in (0, 1)]
        return self.rng.choice(options)

    def stmt_while_true(self, scope, indent, loops, depth):
        counter = COUNTERS[len(loops)]
        limit = self.rng.randint(2, 4)
        self.no_continue.add(counter)
        body, _ = self.nested(scope, indent, loops + [counter], depth)
        pad = "\t" + "    " * (indent + 1)
        tail = [f"{pad}{counter} += 1"]
        if self.rng.random() < 0.5:
            head = "while True:"
            tail += [f"{pad}if {counter} >= {limit}:", f"{pad}    break"]
            self.features.add("while True with a break counter")
        else:
            head = f"while {counter} < {limit}:"
            self.features.add("while counting at the end")
        return [f"{counter} = 0", head] + body + tail

    def stmt_slots(self, scope, indent, loops, depth):
        """A zeros array (or a copy) written slot by slot."""
        rng = self.rng
        style = rng.randrange(5)
        if len(loops) >= len(LOOP_VARS) and style < 3:
            style = 3
        name, pad = self.fresh(scope), "\t" + "    " * (indent + 1)
        var = LOOP_VARS[len(loops)] if len(loops) < len(LOOP_VARS) else None
        inner = self.exprs(scope, loops + [var] if var else loops)
        self.features.add("zeros-array slot writes")
        if style == 0:   # a recurrence through the slots
            first = self.exprs(scope, loops).expr(SCALAR, 1)
            lines = [f"{name} = np.zeros(3)", f"{name}[0] = {first}",
                     f"for {var} in range(1, 3):",
                     f"{pad}{name}[{var}] = np.tanh(0.9 * {name}[{var} - 1] + "
                     f"{inner.expr(SCALAR, 1)})"]
            scope[name] = VECTOR
        elif style == 1:   # rows of a matrix filled in a loop
            op = rng.choice(("=", "+="))
            lines = [f"{name} = np.zeros((2, 3))", f"for {var} in range(2):",
                     f"{pad}{name}[{var}] {op} {inner.expr(VECTOR, 1)}"]
            scope[name] = MATRIX
        elif style == 2:   # slots accumulated
            lines = [f"{name} = np.zeros(3)", f"for {var} in range(3):",
                     f"{pad}{name}[{var}] += {inner.expr(SCALAR, 1)}"]
            scope[name] = VECTOR
        elif style == 3:   # a copy written at a slot the loop variable picks
            source = self.pick(scope, VECTOR)
            exprs = self.exprs(scope, loops)
            index = exprs.index(3)
            op = rng.choice(("*=", "+=", "="))
            lines = [f"{name} = np.array({source})", f"{name}[{index}] {op} "
                     f"{exprs.expr(SCALAR, 1)}"]
            scope[name] = VECTOR
        else:   # a column of a matrix updated in place
            exprs = self.exprs(scope, loops)
            lines = [f"{name} = {exprs.expr(MATRIX, 1)}",
                     f"{name}[:, {exprs.index(3)}] += {exprs.expr(SHORT, 1)}"]
            scope[name] = MATRIX
        return lines

    def pick(self, scope, shape):
        names = [n for n, s in scope.items() if s == shape]
        return self.rng.choice(names) if names else "np.array([0.3, -0.2, 0.8])"

    def stmt_pair(self, scope, indent, loops, depth):
        """Two names bound at once, to values of different shapes."""
        rng = self.rng
        exprs = self.exprs(scope, loops)
        names = [n for n in scope if scope[n] in SHAPES]
        by_shape = {}
        for n in names:
            by_shape.setdefault(scope[n], []).append(n)
        if len(by_shape) >= 2 and rng.random() < 0.5:   # b, v = f(b, v), g(v, b)
            first, second = rng.sample(sorted(by_shape, key=str), 2)
            a, b = rng.choice(by_shape[first]), rng.choice(by_shape[second])
            self.features.add("simultaneous update")
            return [f"{a}, {b} = {exprs.expr(first)}, {exprs.expr(second)}"]
        first, second = rng.sample(SHAPES, 2)
        a, b = self.fresh(scope), self.fresh(scope)
        values = exprs.expr(first), exprs.expr(second)
        scope[a], scope[b] = first, second
        self.features.add("tuple assignment")
        if rng.random() < 0.3:
            return [f"({a}, {b}) = ({values[0]}, {values[1]})"]
        return [f"{a}, {b} = {values[0]}, {values[1]}"]
