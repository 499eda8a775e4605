"""codegen.printer prints a simple statement as syntax.to_source (ast.unparse) does, and
leaves every other statement to it."""

import math

import pytest

from srcgrad import syntax
from srcgrad.codegen import printer
from srcgrad.syntax import gast

SNIPPETS = [
    "dx = _sg.unbroadcast(d_mul * c, x)",
    "a, b = f(x)",
    "(a, b), c = t",
    "x = (a, b)",
    "x = (a,)",
    "x = ()",
    "return (s_3, (x, c))",
    "return",
    "return x",
    "f(x)",
    "x += y * z",
    "x[i] = v",
    "x[i, j] = v",
    "x[i:j, ::2] = v",
    "x[()] = v",
    "y = x[:, None]",
    "y = x[...]",
    "y = x[a:b:c]",
    "y = x[(a, b),]",
    "y = -x",
    "y = -x ** 2",
    "y = (-x) ** 2",
    "y = x ** -2",
    "y = x ** y ** z",
    "y = (x ** y) ** z",
    "y = a - (b - c)",
    "y = a - b - c",
    "y = a / (b * c)",
    "y = a @ b.T",
    "y = (a + b).T",
    "y = (a + b)[0]",
    "y = (a + b)(c)",
    "y = not a",
    "y = not (a < b)",
    "y = not -a",
    "y = ~a | b & c ^ d",
    "y = a << 1 >> 2",
    "y = a % b // c",
    "y = a < b <= c",
    "y = (a < b) == c",
    "y = a is not None",
    "y = a not in b",
    "y = -(a < b)",
    "y = 1 .real",
    "y = 1.5.real",
    "y = True.real",
    "y = f(*args, **kwargs)",
    "y = f(a, *b, c=d, **e)",
    "y = f(g(h(x)))",
    "y = f((a, b))",
    "y = [a, b, [c]]",
    "y = []",
    "y = 'text'",
    "y = \"it's\"",
    "y = 'a\\nb'",
    "y = b'bytes'",
    "y = None",
    "y = 1e300 * 1e10",
    "y = 3j",
    "y = ...",
    "y = x.a.b.c",
    "pass",
    "_sg.check_unshared(w, o, 'w', 'o', line=3)",
]

UNSUPPORTED = [
    "y = lambda x: x",
    "y = {a: b}",
    "y = a if b else c",
    "y = a and b",
    "y = [v for v in w]",
    "y = f'{x}'",
    "if a:\n    b = c",
    "for i in r:\n    pass",
]


def _reference(stmt):
    return syntax.render_lines(syntax.to_source([stmt]))


@pytest.mark.parametrize("source", SNIPPETS)
def test_same_text_as_the_unparser(source):
    stmt = syntax.parse(source).body[0]
    line = printer.one_line(stmt)
    assert line is not None, source
    assert [line] == _reference(stmt)


@pytest.mark.parametrize("source", UNSUPPORTED)
def test_other_statements_left_to_the_unparser(source):
    assert printer.one_line(syntax.parse(source).body[0]) is None


@pytest.mark.parametrize("value", [-1, -2.5, -0.0, math.inf, -math.inf, math.nan,
                                   -math.nan, 0.1, 10**30, True])
def test_constants_made_by_the_compiler(value):
    """Negative numbers are made as constants by the passes (the parser gives a unary
    minus): printed with parentheses where a power or an attribute needs them."""
    for expr in (syntax.const(value),
                 gast.BinOp(left=syntax.const(value), op=gast.Pow(), right=syntax.name("x")),
                 gast.BinOp(left=syntax.name("x"), op=gast.Pow(), right=syntax.const(value)),
                 gast.Attribute(value=syntax.const(value), attr="real", ctx=gast.Load()),
                 gast.UnaryOp(op=gast.USub(), operand=syntax.const(value))):
        stmt = syntax.assign("y", expr)
        assert [printer.one_line(stmt)] == _reference(stmt)


def test_comments():
    stmt = syntax.comment("Backward sweep: ds is the cotangent of the result")
    assert printer.one_line(stmt) == "# Backward sweep: ds is the cotangent of the result"
    assert [printer.one_line(stmt)] == [line.strip() for line in _reference(stmt)]
    assert printer.one_line(syntax.comment("two\nlines")) is None


def test_tuple_constant_left_to_the_unparser():
    stmt = syntax.assign("y", syntax.const((1, 2)))
    assert printer.one_line(stmt) is None
