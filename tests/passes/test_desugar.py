"""normalize.desugar: statements rewritten into simpler statements of the same meaning."""

import numpy as np

import srcgrad as sg
from srcgrad.normalize.desugar import desugar
from tests.passes.helpers import expect, namer_for, show, statements


def run(source):
    body = statements(source)
    return show(desugar(body, namer_for(body)))


def test_augmented_assignment_to_a_name():
    assert run("x += y\nx **= 2") == expect("""
        x = x + y
        x = x ** 2
    """)


def test_augmented_assignment_to_an_item_evaluates_the_index_once():
    assert run("m[i + 1] *= 3\nm[i] += 1") == expect("""
        _index = i + 1
        m[_index] = m[_index] * 3
        m[i] = m[i] + 1
    """)


def test_augmented_assignment_to_a_slice_keeps_the_simple_slice():
    assert run("x[1:3] += v") == expect("""
        x[1:3] = x[1:3] + v
    """)


def test_multiple_targets_share_one_evaluation():
    assert run("a = b = f(x)") == expect("""
        _value = f(x)
        a = _value
        b = _value
    """)


def test_swap_goes_through_a_tuple():
    assert run("p, q = q, p") == expect("""
        _tuple = (q, p)
        p = _tuple[0]
        q = _tuple[1]
    """)


def test_independent_tuple_assignment_is_split():
    assert run("u, v = a, b * 2") == expect("""
        u = a
        v = b * 2
    """)


def test_unpacking_a_call_result():
    assert run("a, (b, c) = f(x)") == expect("""
        _value = f(x)
        a = _value[0]
        _value_1 = _value[1]
        b = _value_1[0]
        c = _value_1[1]
    """)


def test_assert_becomes_a_raise():
    assert run('assert x > 0, "negative"') == expect("""
        if not x > 0:
            raise AssertionError('negative')
    """)


def test_annotations_docstrings_and_pass_vanish():
    assert run('"""doc"""\nz: float = x * 2\nw: int\npass\ndel z') == expect("""
        z = x * 2
    """)


def test_nested_blocks_are_desugared_too():
    assert run("for i in r:\n    if c:\n        s += i\n    else:\n        s -= i") == expect("""
        for i in r:
            if c:
                s = s + i
            else:
                s = s - i
    """)


def test_augmented_assignment_to_a_tuple_of_slice_and_expression_evaluates_each_part_once():
    # `(:, i % 3)` is no value: only its expression part gets a temporary.
    assert run("a[:, i % 3] += v\nb[1:n + 1, 0] -= w") == expect("""
        _index = i % 3
        a[:, _index] = a[:, _index] + v
        _index_1 = n + 1
        b[1:_index_1, 0] = b[1:_index_1, 0] - w
    """)


def _reversed_update(x):
    s = 0.0
    for _ in range(2):
        r = x * 1.0
        r[::-1] += x ** 2
        s = s + np.sum(r * x)
    return s


def test_a_negative_literal_in_an_updated_slice_is_no_saved_value():
    """``r[::-1] += v`` keeps ``-1`` a literal (it was a temporary, saved and restored
    in loops, which a second differentiation then refused as ``slice`` of a value)."""
    x, v = np.array([0.3, -0.7, 1.1]), np.array([1.0, 0.5, -2.0])
    h = 1e-4

    def second_difference(i, j):
        ei, ej = np.eye(3)[i] * h, np.eye(3)[j] * h
        return (_reversed_update(x + ei + ej) - _reversed_update(x + ei - ej)
                - _reversed_update(x - ei + ej) + _reversed_update(x - ei - ej)) / (4 * h * h)

    hessian = np.array([[second_difference(i, j) for j in range(3)] for i in range(3)])
    np.testing.assert_allclose(sg.hvp(_reversed_update)(x, v), hessian @ v, rtol=1e-6)
    assert "[::-1]" in sg.source(sg.grad(_reversed_update))
