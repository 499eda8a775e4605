"""A ``def``'s lines found by indentation (``frontend.source_lines``) are those
``inspect`` tokenizes, and a block cut inside a string or bracket falls back to
``inspect``: each function below differentiates to its closed form, and the disk
cache's key reads the same source text as ``inspect.getsource``."""

import ast
import functools
import inspect
import pathlib
import textwrap

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.compiler import cache
from srcgrad.frontend.source_lines import def_lines, def_source


def _text_at_column_zero(x):
    note = """
a line at column 0 inside a string
"""
    return np.sum(x * x) + 0.0 * len(note)


def _bracket_at_column_zero(x):
    y = np.sum(
x * np.sin(x))
    return y


def _continued_at_column_zero(x):
    y = np.sum(x) * \
2.0
    return y


def _trailing_comment(x):
    return np.sum(np.exp(x))
    # a comment indented as the body, after the last statement
# and one at column 0 before the next definition


class _Model:
    def loss(self, x):
        return np.sum(np.tanh(x))

    scale = 2.0


def _decorated(fn):
    return fn


@_decorated
# a comment between decorator and def
def _decorated_cube(x):
    return np.sum(x ** 3)


def _tree(lines):
    return ast.dump(ast.parse(textwrap.dedent("".join(lines))))


def test_the_lines_parse_as_those_inspect_reads_for_plain_and_decorated_defs():
    for fn in (_trailing_comment, _decorated_cube, _Model.loss):
        lines, first = def_lines(fn.__code__)
        tokenized, tokenized_first = inspect.getsourcelines(fn.__code__)
        assert (first, _tree(lines)) == (tokenized_first, _tree(tokenized))


def test_a_cut_inside_a_string_bracket_or_continuation_does_not_parse():
    for fn in (_text_at_column_zero, _bracket_at_column_zero, _continued_at_column_zero):
        lines, _ = def_lines(fn.__code__)
        with pytest.raises(SyntaxError):
            _tree(lines)


def test_a_lambda_is_left_to_inspect():
    assert def_lines((lambda x: x).__code__) is None


def test_a_block_cut_inside_a_string_bracket_or_continuation_still_differentiates():
    x = np.array([0.4, -1.1, 2.0])
    np.testing.assert_allclose(sg.grad(_text_at_column_zero)(x), 2 * x)
    np.testing.assert_allclose(sg.grad(_bracket_at_column_zero)(x), np.sin(x) + x * np.cos(x))
    np.testing.assert_allclose(sg.grad(_continued_at_column_zero)(x), 2.0 * np.ones(3))


def test_methods_trailing_comments_and_decorators_differentiate():
    x = np.array([0.4, -1.1, 2.0])
    np.testing.assert_allclose(sg.grad(_trailing_comment)(x), np.exp(x))
    np.testing.assert_allclose(sg.grad(_Model().loss, wrt="x")(x), 1 - np.tanh(x) ** 2)
    np.testing.assert_allclose(sg.grad(_decorated_cube)(x), 3 * x ** 2)


def _wrapping(fn):
    @functools.wraps(fn)
    def wrapper(x):
        return fn(x)
    return wrapper


@_wrapping
def _wrapped_square(x):
    return np.sum(x * x)


def test_def_source_is_inspects_source_through_wrappers_and_cut_strings():
    for fn in (_wrapped_square, _decorated_cube, _Model.loss, _text_at_column_zero,
               _bracket_at_column_zero, lambda x: x):
        assert def_source(fn) == inspect.getsource(fn)


def test_the_package_files_are_listed_in_sorted_rglob_order():
    root = pathlib.Path(sg.__file__).parent
    expected = [path.relative_to(root).parts for path in sorted(root.rglob("*.py"))]
    assert [parts for parts, _ in cache._source_files(str(root))] == expected
