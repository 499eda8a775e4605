"""Generator helpers called from differentiated code: lowered to functions that build a
list (``srcgrad.frontend.generators``), checked in reverse mode, forward mode, hvp and an
eager API against finite differences; uses the lowering cannot prove the same program
are refused at the user's line."""

import numpy as np
import pytest

import srcgrad as sg
from tests.calls.helpers import check_both_modes
from tests.conftest import numeric_grad


def pairs(ws):
    for W, b in ws:
        yield b, W


def network(x, W1, b1, W2, b2):
    h = x
    for b, W in pairs([(W1, b1), (W2, b2)]):
        h = np.tanh(h @ W + b)
    return np.sum(h ** 2)


def squares(x):
    for i in range(x.shape[0]):
        yield x[i] ** 2


def sum_of_squares(x):
    return sum(squares(x)) + 0.0 * x[0]


def stacked_squares(x):
    return np.sum(np.stack(list(squares(x))) * np.arange(1.0, 4.0))


def branching(x):
    total = 0.0
    for v in x:
        if v > 0:
            yield np.sin(v) * total
        else:
            yield v * v
        total = total + v


def with_loops_and_branches(x):
    return sum(branching(x))


def chained(x):
    yield x[0]
    yield from squares(x)
    yield from (np.exp(v) for v in x)


def uses_yield_from(x):
    out = 0.0
    for k, v in enumerate(chained(x)):
        out = out + (k + 1) * v
    return out


def in_a_comprehension(x):
    return np.sum(np.array([np.cos(v) for v in squares(x)]))


def a_generator_expression(x):
    return sum(np.sin(v) * v for v in x)


def returns_early(x):
    for v in x:
        if v > 1.0:
            return
        yield v * 3.0


def stops_at_a_return(x):
    return sum(returns_early(x)) + 0.0 * x[0]


def builds_its_own_list(x):
    seen = []
    for v in x:
        seen.append(v)
        yield np.sin(v) * len(seen)


def consumer_appends(x):
    out = []
    for v in builds_its_own_list(x):
        out.append(v * v)
    return np.sum(np.stack(out))


X = np.array([0.4, -0.7, 1.3])


def roots_or_squares(x):
    for v in x:
        try:
            if v < 0:
                raise ValueError("negative")
            yield np.sqrt(v)
        except ValueError:
            yield v * v


def handles_inside_the_generator(x):
    return sum(roots_or_squares(x)) * 1.0


def sum_with_a_start(x):
    return np.sum(sum(squares(x), np.zeros(3) + 0.5 * x))


def sorted_reversed(x):
    s = sorted(squares(x), reverse=True)
    return s[0] * 0.3 + s[-1]


def sorted_by_a_key(x):
    s = sorted(squares(x), key=abs)
    return s[0] * 0.3 + s[-1] * 2.0


@pytest.mark.parametrize("f", [sum_of_squares, stacked_squares, with_loops_and_branches,
                               uses_yield_from, in_a_comprehension, a_generator_expression,
                               stops_at_a_return, consumer_appends,
                               handles_inside_the_generator, sum_with_a_start, sorted_reversed,
                               sorted_by_a_key])
def test_generator_helpers_in_both_modes(f):
    check_both_modes(f, (X.copy(),))


def test_a_generator_of_parameter_pairs():
    rng = np.random.default_rng(3)
    args = (rng.standard_normal(3), rng.standard_normal((3, 4)), rng.standard_normal(4),
            rng.standard_normal((4, 2)), rng.standard_normal(2))
    grads = sg.grad(network, wrt=(1, 2, 3, 4))(*args)
    for index, grad in zip((1, 2, 3, 4), grads):
        assert np.allclose(grad, numeric_grad(network, args, index), atol=1e-7)
    check_both_modes(network, args, wrt=1)


def test_hvp_through_a_generator():
    v = np.array([1.0, -0.5, 2.0])
    hv = sg.hvp(uses_yield_from)(X, v)
    eps = 1e-5
    grad = sg.grad(uses_yield_from)
    expected = (grad(X + eps * v) - grad(X - eps * v)) / (2 * eps)
    assert np.allclose(hv, expected, atol=1e-6)


def test_an_eager_api_through_a_generator():
    (grad,) = sg.gradients_function(with_loops_and_branches)(X)
    assert np.allclose(grad, numeric_grad(with_loops_and_branches, (X,), 0))


def leaves_early(x):
    for v in squares(x):
        if v > 1.0:
            break
    return v


def steps_by_hand(x):
    return next(squares(x))


def prints(x):
    for v in x:
        print(v)
        yield v


def consumes_a_printing_generator(x):
    return sum(prints(x))


def grows_its_argument(xs):
    xs.append(1.0)
    yield xs[0]


def consumes_a_growing_generator(x):
    return sum(grows_its_argument([x]))


def rows(items):
    for item in items:
        yield item * 2.0


def changes_what_the_generator_reads(x):
    items = [x, x]
    total = 0.0
    for r in rows(items):
        items.append(r)
        total = total + np.sum(r)
    return total


def consumes_inside_a_try(x):
    try:
        total = sum(roots_or_squares(x))
    except KeyError:
        total = 0.0
    return total


def starts_with_an_effect(x):
    items = [x[0], x[1]]
    return sum(rows(items), items.pop())


def sends(x):
    got = yield x
    yield got


def consumes_a_sending_generator(x):
    return sum(sends(x))


@pytest.mark.parametrize("f, construct, line_text", [
    (leaves_early, "generator `squares` is used here", "for v in squares(x):"),
    (steps_by_hand, "generator `squares` is used here", "return next(squares(x))"),
    (consumes_a_printing_generator, "the builtin `print` has effects", "print(v)"),
    (consumes_a_growing_generator, "may change `xs`", "xs.append(1.0)"),
    (changes_what_the_generator_reads, "changes `items` in place", "items.append(r)"),
    (consumes_a_sending_generator, "`yield` used as a value", "got = yield x"),
    (starts_with_an_effect, "generator `rows` is used here", "sum(rows(items), items.pop())"),
    (consumes_inside_a_try, "consumed inside a `try` with `except` handlers",
     "total = sum(roots_or_squares(x))"),
])
@pytest.mark.parametrize("mode", ["reverse", "forward"])
def test_uses_that_cannot_be_lowered_are_refused_at_the_line(f, construct, line_text, mode):
    with pytest.raises(sg.TransformError, match=construct) as info:
        if mode == "reverse":
            sg.grad(f)(X.copy())
        else:
            sg.jvp(f)(X.copy(), np.ones(3))
    assert line_text in str(info.value)


def test_a_generator_is_not_differentiated_directly():
    with pytest.raises(sg.TransformError, match="not differentiated directly"):
        sg.grad(returns_early)(X)


def layers(params):
    for W, b in params:
        yield W, b * 1.0


def network_of_a_parameter_list(params, x):
    h = x
    for W, b in layers(params):
        h = np.tanh(h @ W + b)
    return np.sum(h ** 2)


def test_a_generator_over_a_parameter_list_argument():
    rng = np.random.default_rng(5)
    params = [(rng.standard_normal((3, 4)), rng.standard_normal(4)),
              (rng.standard_normal((4, 2)), rng.standard_normal(2))]
    x = rng.standard_normal(3)
    grads = sg.grad(network_of_a_parameter_list)(params, x)
    for layer, (W, b) in enumerate(params):
        for slot, array in enumerate((W, b)):
            def along(value, layer=layer, slot=slot):
                changed = [list(pair) for pair in params]
                changed[layer][slot] = value
                return network_of_a_parameter_list([tuple(p) for p in changed], x)
            expected = numeric_grad(along, (array,), 0)
            assert np.allclose(grads[layer][slot], expected, atol=1e-7)
