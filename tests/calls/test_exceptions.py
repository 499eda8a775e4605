"""``try``/``except``/``else``/``finally`` in differentiated code: the path taken is
differentiated, and when an exception stops the ``try`` body part-way, exactly the
statements that completed get adjoints. Reverse mode, forward mode, hvp and an eager API
are checked against finite differences, on both sides of each exception."""

import contextlib

import numpy as np
import pytest

import srcgrad as sg
from tests.calls.helpers import check_both_modes
from tests.conftest import numeric_grad


def cholesky_or_fallback(A):
    B = A @ A.T - 1.5
    try:
        L = np.linalg.cholesky(B)
        y = np.sum(L * L)
    except np.linalg.LinAlgError:
        y = np.sum(B * B)
    return y


POSITIVE = np.array([[2.0, 0.3], [0.2, 1.9]])       # B positive definite: the try body
INDEFINITE = np.array([[1.0, 0.3], [0.2, 0.9]])     # cholesky raises: the handler


@pytest.mark.parametrize("A", [POSITIVE, INDEFINITE])
def test_a_linalg_error_chooses_the_fallback(A):
    check_both_modes(cholesky_or_fallback, (A,))


def lookup(x, key):
    table = {"sin": np.sin(x), "square": x * x}
    try:
        v = table[key]
    except KeyError:
        v = x ** 3
    return np.sum(v * x)


@pytest.mark.parametrize("key", ["sin", "square", "missing"])
def test_a_key_error_chooses_the_default(key):
    check_both_modes(lookup, (np.array([0.3, -1.2]), key))


def raises_under_a_branch(x):
    try:
        a = np.sin(x) * 2.0
        if np.sum(a) > 0:
            raise ValueError("positive")
        y = a * x
    except ValueError:
        y = a ** 2   # reads what the try body computed before the raise
    return np.sum(y)


@pytest.mark.parametrize("x", [np.array([0.5, 0.2]), np.array([-0.5, 0.2])])
def test_a_raise_under_a_branch_keeps_what_ran_before_it(x):
    check_both_modes(raises_under_a_branch, (x,))


def checked_sqrt(v):
    if np.any(v < 0):
        raise ValueError("negative")
    return np.sqrt(v)


def stopped_part_way(x):
    y = x * 2.0
    try:
        y = np.sin(y) * x      # overwrites y: its old value is saved once this completes
        w = checked_sqrt(y)    # a helper that may raise
        y = w * y
    except ValueError:
        y = y * 3.0
    return np.sum(y)


@pytest.mark.parametrize("x", [np.array([0.5, 0.7]), np.array([0.5, 2.0])])
def test_an_exception_in_a_helper_stops_the_body_part_way(x):
    check_both_modes(stopped_part_way, (x,))


def with_else_and_finally(x, scale):
    total = 0.0
    try:
        s = np.sum(x ** 2)
        if scale < 0:
            raise ArithmeticError("negative scale")
    except ArithmeticError as err:
        s = np.sum(np.cos(x)) * len(str(err))
    else:
        s = s * scale
    finally:
        total = total + np.sum(np.exp(x))
    return s + total


@pytest.mark.parametrize("scale", [2.0, -1.0])
def test_else_and_finally(scale):
    check_both_modes(with_else_and_finally, (np.array([0.2, -0.4]), scale))


def returns_from_both(x, key):
    table = {"a": x}
    try:
        return np.sum(table[key] ** 2)
    except (KeyError, IndexError):
        return np.sum(np.cos(x))


@pytest.mark.parametrize("key", ["a", "b"])
def test_returns_in_the_body_and_the_handler(key):
    check_both_modes(returns_from_both, (np.array([0.2, -0.4]), key))


def reraises(x):
    try:
        return checked_sqrt(x)
    except ValueError:
        raise


def test_a_bare_raise_in_a_handler_raises_the_exception_again():
    with pytest.raises(ValueError, match="negative"):
        sg.grad(lambda x: np.sum(reraises(x)))(np.array([-1.0]))
    grad = sg.grad(lambda x: np.sum(reraises(x)))(np.array([4.0]))
    assert np.allclose(grad, 0.25)


def test_an_exception_no_handler_matches_propagates():
    with pytest.raises(np.linalg.LinAlgError):
        sg.grad(lookup_then_cholesky)(INDEFINITE)


def lookup_then_cholesky(A):
    try:
        L = np.linalg.cholesky(A @ A.T - 1.5)
    except KeyError:
        L = A
    return np.sum(L)


def test_hvp_through_a_handler():
    v = np.array([[1.0, -0.5], [0.3, 2.0]])
    for A in (POSITIVE, INDEFINITE):
        hv = sg.hvp(cholesky_or_fallback)(A, v)
        eps = 1e-5
        grad = sg.grad(cholesky_or_fallback)
        expected = (grad(A + eps * v) - grad(A - eps * v)) / (2 * eps)
        assert np.allclose(hv, expected, atol=1e-5)


@pytest.mark.parametrize("x", [np.array([0.5, 0.7]), np.array([0.5, 2.0])])
def test_an_eager_api_through_a_handler(x):
    (grad,) = sg.gradients_function(stopped_part_way)(x)
    assert np.allclose(grad, numeric_grad(stopped_part_way, (x,), 0))


def handles_in_a_loop(x):
    total = 0.0
    for v in x:
        try:
            total = total + checked_sqrt(v)
        except ValueError:
            total = total - v * v
    return total


def lookups_in_a_loop(x, keys):
    table = {"a": np.sin(x), "b": x * x}
    total = 0.0
    for key in keys:
        try:
            v = table[key] * 2.0
            w = np.sum(v * x)
        except KeyError:
            w = np.sum(np.cos(x))
        total = total + w
    return total


def stopped_part_way_in_a_loop(x):
    y = x * 2.0
    out = 0.0
    for _ in range(3):
        try:
            y = np.sin(y) * x
            w = checked_sqrt(y)    # raises in some iterations, not in others
            y = w * y
        except ValueError:
            y = y * 3.0
        out = out + np.sum(y)
    return out


def test_handlers_in_a_loop():
    check_both_modes(handles_in_a_loop, (np.array([0.5, -0.7, 1.3]),))
    check_both_modes(lookups_in_a_loop, (np.array([0.3, -1.2]), ["a", "c", "b", "a"]))


@pytest.mark.parametrize("x", [np.array([0.5, 0.7]), np.array([0.5, 2.0]),
                               np.array([1.5, 0.4])])
def test_each_iteration_keeps_how_far_its_try_body_got(x):
    check_both_modes(stopped_part_way_in_a_loop, (x,))


def loops_in_the_body(x):
    try:
        total = 0.0
        for v in x:
            total = total + checked_sqrt(v)
    except ValueError:
        total = 0.0
    return total


def while_in_the_body(x):
    try:
        total, k = 0.0, 0
        while k < 2:
            total = total + checked_sqrt(x[k])
            k = k + 1
    except ValueError:
        total = 0.0
    return total


@pytest.mark.parametrize("x", [np.array([0.5, 0.7]), np.array([0.5, -0.7])])
@pytest.mark.parametrize("f", [loops_in_the_body, while_in_the_body])
def test_a_loop_in_the_body_stops_where_the_exception_was_raised(f, x):
    check_both_modes(f, (x,))


def while_in_a_with_in_the_body(x):
    try:
        total, k = 0.0, 0
        with contextlib.nullcontext():
            while k < 2:
                total = total + checked_sqrt(x[k])
                k = k + 1
    except ValueError:
        total = 0.0
    return total


@pytest.mark.parametrize("f, message, line_text", [
    (while_in_a_with_in_the_body, "inside the body of a `try`", "with contextlib"),
])
def test_what_reverse_mode_cannot_do_exactly_is_refused_at_the_line(f, message, line_text):
    with pytest.raises(sg.TransformError, match=message) as info:
        sg.grad(f)(np.array([0.5, 0.7]))
    assert line_text in str(info.value)


def in_a_with_block(x):
    with contextlib.nullcontext():
        y = np.sin(x) * 2.0
    return np.sum(y)


def with_a_finally_left_empty(x):
    try:
        y = np.sin(x) * 2.0
    finally:
        _ = np.sum(x)   # dead: the optimizer removes it and leaves `pass`
    return np.sum(y)


@pytest.mark.parametrize("f", [in_a_with_block, with_a_finally_left_empty])
def test_with_and_try_finally_carry_tangents(f):
    # Forward mode gave `with` blocks no tangents (a silent zero) and emitted a `try`
    # whose `finally` the optimizer had emptied (a SyntaxError).
    check_both_modes(f, (np.array([0.3, -1.1]),))


def safe_log(v):
    try:
        if v < 0:
            raise ValueError("negative")
        r = np.log(v)
    except ValueError:
        r = v * v
    return r


def calls_an_inlined_helper_with_a_handler(x):
    return safe_log(x) * 2.0


def defines_a_local_function_with_a_handler(x):
    def pick(v):
        try:
            w = {"a": v}["b"]
        except KeyError:
            w = np.sin(v)
        return w
    return pick(x) * 2.0


@pytest.mark.parametrize("f", [calls_an_inlined_helper_with_a_handler,
                               defines_a_local_function_with_a_handler])
@pytest.mark.parametrize("x", [0.5, -0.5])
def test_handlers_of_inlined_functions(f, x):
    check_both_modes(f, (x,))


def suppressed_part_way(x):
    y = x * 2.0
    with contextlib.suppress(ValueError):
        y = y * x
        if x > 0.0:
            raise ValueError("stop")
        y = y * x
    return y


def test_a_with_body_that_completes_is_differentiated_in_both_modes():
    check_both_modes(suppressed_part_way, (-1.5,))


def test_a_with_that_swallows_an_exception_is_refused_in_reverse_mode():
    # The backward sweep runs the adjoint of the whole body: after `suppress` swallowed
    # the exception part-way it popped values never saved (an IndexError before).
    with pytest.raises(sg.TransformError, match=r"line \d+: the context manager .* swallowed "
                                                r"ValueError"):
        sg.grad(suppressed_part_way)(1.5)


def test_forward_mode_follows_a_with_that_swallows_an_exception():
    # Forward mode carries each tangent next to its statement: whatever ran has it.
    value, tangent = sg.jvp(suppressed_part_way)(1.5, 1.0)
    assert np.isclose(value, 4.5)
    assert np.isclose(tangent, numeric_grad(suppressed_part_way, (1.5,), 0))
