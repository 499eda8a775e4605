"""Random NumPy expressions of a given shape over the variables in scope.

Shapes are ``()``, ``(2,)``, ``(3,)`` and ``(2, 3)``. Every expression is smooth where it
is defined and stays bounded (``exp`` only of ``tanh``, ``log``/``sqrt``/division only of
``c + e ** 2``), so finite differences are a sound oracle away from branch flips::

    gen = Expressions(random.Random(0), scope={"x": (3,), "s": ()}, helpers=[])
    gen.expr((3,), depth=2)     # e.g. 'np.tanh(x * 1.3 + s)'
"""

from __future__ import annotations

SCALAR, SHORT, VECTOR, MATRIX = (), (2,), (3,), (2, 3)
SHAPES = (SCALAR, SHORT, VECTOR, MATRIX)

UNARY = (
    "np.sin({})", "np.cos({})", "np.tanh({})", "np.exp(np.tanh({}))",
    "np.log(1.5 + {} ** 2)", "np.sqrt(1.2 + {} ** 2)", "({}) ** 2",
    "1.0 / (1.3 + {} ** 2)", "np.log(1.0 + np.exp(np.tanh({})))",
)
# Reductions and shape changes: (result shape, operand shape, template).
SHAPED = (
    (SCALAR, VECTOR, "np.sum({})"), (SCALAR, MATRIX, "np.mean({})"),
    (SCALAR, VECTOR, "{}.sum()"), (SCALAR, MATRIX, "{}.mean()"),
    (SCALAR, SHORT, "np.sum({})"), (SCALAR, VECTOR, "np.dot({0}, np.tanh({0}))"),
    (SCALAR, VECTOR, "{0} @ np.cos({0})"), (SCALAR, VECTOR, "{}[{i3}]"),
    (SCALAR, VECTOR, "{}[-1]"), (SCALAR, MATRIX, "{}[{i2}, {i3}]"),
    (SCALAR, SHORT, "{}[{i2}]"), (SCALAR, VECTOR, "sum(np.sin({0}[kk]) for kk in range(3))"),
    (SCALAR, VECTOR, "np.sum([np.tanh(el) for el in {}])"),
    (VECTOR, MATRIX, "{}[{i2}]"), (VECTOR, MATRIX, "np.sum({}, axis=0)"),
    (VECTOR, MATRIX, "{}.mean(axis=0)"), (VECTOR, MATRIX, "{}.T @ np.ones(2)"),
    (VECTOR, SHORT, "np.concatenate([{}, np.ones(1)])"), (VECTOR, SCALAR, "{} * np.ones(3)"),
    (VECTOR, SCALAR, "np.array([{0}, 0.5 * {0}, -{0}])"),
    (VECTOR, MATRIX, "{}.reshape(3, 2).sum(axis=1)"),
    (SHORT, MATRIX, "{}[:, {i3}]"), (SHORT, MATRIX, "np.mean({}, axis=1)"),
    (SHORT, VECTOR, "{}[:2]"), (SHORT, VECTOR, "{}[1:]"), (SHORT, VECTOR, "{}[::2]"),
    (SHORT, MATRIX, "{} @ np.array([0.5, -0.25, 1.0])"), (SHORT, SCALAR, "{} * np.ones(2)"),
    (MATRIX, VECTOR, "np.stack([{0}, np.tanh({0})])"), (MATRIX, VECTOR, "np.outer(np.ones(2), {})"),
    (MATRIX, SHORT, "np.outer({}, np.array([0.3, -0.6, 0.9]))"),
    (MATRIX, SCALAR, "{} * np.ones((2, 3))"),
    (MATRIX, MATRIX, "{}.T.T"), (MATRIX, MATRIX, "np.array({})"),
    (MATRIX, MATRIX, "np.where({0} > 0.1, {0}, 0.5 * {0})"),
)
# Only with the constructs of the recorded cases (``Expressions(..., extended=True)``):
# powers of positive bases, products of a short vector and a matrix, sums of a slice.
EXTENDED_UNARY = (
    "(1.2 + {} ** 2) ** 1.5", "(0.6 + {} ** 2) ** -0.5", "(2.0 + np.sin({})) ** 2.5",
    "(0.8 + {} ** 2) ** 0.25", "np.tanh({}) ** 3",
)
EXTENDED_SHAPED = (
    (VECTOR, MATRIX, "np.tanh({0})[1] @ np.eye(3) + {0}[0]"),
    (VECTOR, SHORT, "{} @ np.array([[0.5, -0.2, 0.1], [0.3, 0.9, -0.4]])"),
    (SCALAR, VECTOR, "np.sum({}[-2:])"), (SHORT, VECTOR, "{}[0:2] + 0.6"),
    (MATRIX, MATRIX, "np.tanh({0} * 0.8 + np.sum({0}, axis=0))"),
    (SCALAR, VECTOR, "np.mean(np.stack([{0}, {0}]))"),
)
CONSTANTS = {
    SCALAR: ("0.7", "1.3", "-0.4", "0.25"),
    SHORT: ("np.array([0.4, -0.7])",),
    VECTOR: ("np.array([0.1, -0.5, 0.9])", "np.linspace(-1.0, 1.0, 3)"),
    MATRIX: ("np.array([[0.2, -0.4, 0.6], [1.1, 0.3, -0.8]])",),
}


def paren(expr):
    """``expr`` ready to be an operand of any operator: a name, or in parentheses."""
    return expr if expr.isidentifier() else f"({expr})"


def number(rng):
    return str(round(rng.uniform(-1.5, 1.5), 2))


class Expressions:
    """Expressions over ``scope`` (name -> shape); ``helpers`` are (name, parameter shapes,
    result shape) of functions the program defines."""

    def __init__(self, rng, scope, helpers=(), loop_vars=(), extended=False, constants=None,
                 keyword_helpers=()):
        self.rng, self.scope, self.helpers = rng, scope, list(helpers)
        self.loop_vars = list(loop_vars)
        self.extended = extended                 # the recorded cases' constructs too
        self.constants = dict(constants or {})   # module-level names -> shape
        self.keyword_helpers = set(keyword_helpers)   # helpers with ``scale=0.5``
        self.unary = UNARY + EXTENDED_UNARY if extended else UNARY
        self.shaped = SHAPED + EXTENDED_SHAPED if extended else SHAPED

    def names(self, shape):
        return [n for n, s in self.scope.items() if s == shape]

    def leaf(self, shape):
        if self.extended and self.rng.random() < 0.1:
            constants = [n for n, s in self.constants.items() if s == shape]
            if constants:   # an array constant in an operation (never bound to a name
                # and written into: that would change the module's constant)
                name = self.rng.choice(constants)
                return name if shape == SCALAR else f"1.0 * {name}"
        names = self.names(shape)
        if names and self.rng.random() < 0.85:
            return self.rng.choice(names)
        convert = [t for t in self.shaped if t[0] == shape and self.names(t[1])]
        if convert and self.rng.random() < 0.7:
            _, source, template = self.rng.choice(convert)
            return self.fill(template, self.rng.choice(self.names(source)))
        if shape == SCALAR:
            return number(self.rng)
        return self.rng.choice(CONSTANTS[shape])

    def index(self, size):
        if self.loop_vars and self.rng.random() < 0.4:
            var = self.rng.choice(self.loop_vars)
            if self.extended and self.rng.random() < 0.5:   # zs[2 - i % 3], A[(it + 1) % 2]
                return self.rng.choice((f"{size - 1} - {var} % {size}",
                                        f"({var} + 1) % {size}", f"({var} - 1) % {size}"))
            return f"{var} % {size}"
        return str(self.rng.randrange(size))

    def fill(self, template, *operands):
        operands = [paren(o) for o in operands]
        return template.format(*operands, i2=self.index(2), i3=self.index(3))

    def expr(self, shape, depth=2):
        rng = self.rng
        if depth <= 0 or rng.random() < 0.2:
            return self.leaf(shape)
        kind = rng.choices(("unary", "binary", "shaped", "ternary", "helper"),
                           weights=(4, 6, 3, 1, 1.5 if self.helpers else 0))[0]
        if kind == "unary":
            return rng.choice(self.unary).format(paren(self.expr(shape, depth - 1)))
        if kind == "binary":
            return self.binary(shape, depth)
        if kind == "ternary":
            return (f"({self.expr(shape, depth - 1)} if {self.condition(depth - 1)} "
                    f"else {self.expr(shape, depth - 1)})")
        if kind == "helper":
            found = self.helper_call(shape, depth)
            if found:
                return found
        options = [t for t in self.shaped if t[0] == shape]
        _, source, template = rng.choice(options)
        return self.fill(template, self.expr(source, depth - 1))

    def binary(self, shape, depth):
        rng = self.rng
        left = self.expr(shape, depth - 1)
        right_shape = shape if rng.random() < 0.6 else SCALAR
        right = self.expr(right_shape, depth - 1) if rng.random() < 0.7 else number(rng)
        op = rng.choice(("+", "-", "*", "*", "/"))
        if op == "/":
            return f"{left} / (1.5 + {paren(right)} ** 2)"
        if rng.random() < 0.5:
            left, right = right, left
            if right_shape != shape and op != "*":
                op = "+"
        return f"({paren(left)} {op} {paren(right)})"

    def helper_call(self, shape, depth):
        fitting = [h for h in self.helpers if h[2] == shape]
        if not fitting:
            return None
        name, params, _ = self.rng.choice(fitting)
        args = ", ".join(self.expr(p, depth - 1) for p in params)
        if name in self.keyword_helpers and self.rng.random() < 0.4:
            args += f", scale={self.expr(SCALAR, depth - 1)}"
        return f"{name}({args})"

    def condition(self, depth=1):
        rng = self.rng
        left, op = self.expr(SCALAR, depth), rng.choice(('<', '<=', '>', '>='))
        if self.extended and rng.random() < 0.3:   # p1[-1] >= z1: two values compared
            test = f"{left} {op} {self.expr(SCALAR, depth)}"
        else:
            test = f"{left} {op} {number(rng)}"
        if self.loop_vars and rng.random() < 0.3:
            var = rng.choice(self.loop_vars)
            extra = f"{var} {rng.choice(('==', '<', '>=', '!='))} {rng.randrange(3)}"
            test = f"{test} {rng.choice(('and', 'or'))} {extra}"
        elif rng.random() < 0.2:
            other = f"{self.expr(SCALAR, 0)} {rng.choice(('<', '>'))} {number(rng)}"
            test = f"{test} {rng.choice(('and', 'or'))} {other}"
        return test
