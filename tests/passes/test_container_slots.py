"""Container cotangents built as ``None`` slots (symbolic zeros): items nothing reached
come out as zeros of the right shape, and every reader other than accumulation gets the
zeros it needs. Checked against central finite differences."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad import runtime as rt
from tests.conftest import numeric_grad


def _layers(rng, widths):
    return [(rng.standard_normal((m, n)), rng.standard_normal(n))
            for m, n in zip(widths[:-1], widths[1:])]


def _flat_check(f, params, got, *rest, rtol=1e-5):
    """Each array of a list of (W, b) gradient against finite differences."""
    for k, (W, b) in enumerate(params):
        for j, (value, grad) in enumerate(((W, got[k][0]), (b, got[k][1]))):
            def along(v, k=k, j=j):
                changed = [list(pair) for pair in params]
                changed[k][j] = v
                return f([tuple(pair) for pair in changed], *rest)
            np.testing.assert_allclose(grad, numeric_grad(along, [value], 0), rtol=rtol,
                                       atol=1e-7)


def mlp(params, x):
    h = x
    for W, b in params[:-1]:
        h = np.tanh(h @ W + b)
    W, b = params[-1]
    return np.sum((h @ W + b) ** 2)


def test_list_of_pairs_gradient_has_the_structure_and_values_of_finite_differences():
    rng = np.random.default_rng(0)
    params, x = _layers(rng, (3, 4, 4, 2)), rng.standard_normal((5, 3))
    got = sg.grad(mlp)(params, x)
    assert type(got) is list and all(type(pair) is tuple for pair in got)
    _flat_check(mlp, params, got, x)


def first_layer_only(params, x):
    W, b = params[0]
    return np.sum(np.sin(x @ W + b))


def test_items_nothing_reached_are_zeros_shaped_like_them():
    rng = np.random.default_rng(1)
    params, x = _layers(rng, (3, 4, 2)), rng.standard_normal((2, 3))
    got = sg.grad(first_layer_only)(params, x)
    assert got[1][0].shape == (4, 2) and not got[1][0].any()
    assert got[1][1].shape == (2,) and not got[1][1].any()
    _flat_check(first_layer_only, params, got, x)


def weight_only(params, x):
    total = 0.0
    for W, _b in params:
        total = total + np.sum(np.cos(x @ W))
    return total


def test_an_item_of_every_pair_unread_gets_zeros():
    rng = np.random.default_rng(2)
    params, x = _layers(rng, (3, 3, 3)), rng.standard_normal((2, 3))
    got = sg.grad(weight_only)(params, x)
    assert all(not db.any() and db.shape == b.shape for (_, db), (_, b) in zip(got, params))
    _flat_check(weight_only, params, got, x)


def pair_read_then_given_to_a_rule(a, b):
    pair = (a * 2.0, np.sin(b))
    first = pair[0]
    return np.sum(np.concatenate(pair) ** 2) + np.sum(first)


def test_a_tuple_read_by_item_and_whole_gets_both_contributions():
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal(3), rng.standard_normal(2)
    got = sg.grad(pair_read_then_given_to_a_rule, wrt=(0, 1))(a, b)
    for i in range(2):
        np.testing.assert_allclose(got[i], numeric_grad(pair_read_then_given_to_a_rule,
                                                        [a, b], i), rtol=1e-6)


def eigenvalues_only(A):
    S = A + A.T
    result = np.linalg.eigh(S)
    return np.sum(result[0] ** 2)


def test_a_rule_result_read_in_part_gets_zeros_for_the_rest():
    A = np.random.default_rng(4).standard_normal((3, 3))
    got = sg.grad(eigenvalues_only)(A)
    np.testing.assert_allclose(got, numeric_grad(eigenvalues_only, [A], 0), rtol=1e-5)


def _split(params):
    return params[0], params[1]


def through_a_helper(params, x):
    first, second = _split(params)
    return np.sum(x @ first[0]) + np.sum(np.tanh(second[1]))


def test_a_container_passed_through_a_helper_function():
    rng = np.random.default_rng(5)
    params, x = _layers(rng, (2, 3, 4)), rng.standard_normal((2, 2))
    got = sg.grad(through_a_helper)(params, x)
    _flat_check(through_a_helper, params, got, x)


def stacked_outputs(params, x):
    outs = []
    for W, b in params:
        outs.append(np.tanh(x @ W + b))
    last = outs.pop()
    return np.sum(last) + np.sum(outs[0] ** 2)


def test_list_growth_and_pop_with_slot_cotangents():
    rng = np.random.default_rng(6)
    params, x = _layers(rng, (3, 3, 3)), rng.standard_normal((2, 3))
    got = sg.grad(stacked_outputs)(params, x)
    _flat_check(stacked_outputs, params, got, x)


def test_hvp_through_a_list_of_pairs():
    rng = np.random.default_rng(7)
    W, b = rng.standard_normal((3, 2)), rng.standard_normal(2)
    x = rng.standard_normal((4, 3))

    def f(W, b):
        return mlp([(W, b)], x)

    v = rng.standard_normal((3, 2))
    got = sg.hvp(f, wrt=0)(W, b, v)
    eps = 1e-5
    want = (sg.grad(f)(W + eps * v, b) - sg.grad(f)(W - eps * v, b)) / (2 * eps)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)


def test_runtime_slots_read_as_zeros():
    x = [np.ones(2), (np.ones(3), 2.0)]
    d = rt.slots_like(x)
    assert d == [None, None]
    rt.add_at(d, 0, np.full(2, 3.0))
    read = rt.get_item(d, 1, x[1])
    assert read[1] == 0.0 and read[0].shape == (3,) and not read[0].any()
    full = rt.dense(d, x)
    np.testing.assert_array_equal(full[0], 3.0)
    np.testing.assert_array_equal(full[1][0], np.zeros(3))
    assert full[1][1] == 0.0
    assert rt.add_cotangents(None, d) is d and rt.add_cotangents(d, None) is d
    restructured = rt.restructure([None, [np.ones(3), None]], x)
    assert type(restructured[1]) is tuple and restructured[1][1] == 0.0
    np.testing.assert_array_equal(restructured[0], np.zeros(2))


# -- cotangents of lists are added item by item, and list slots may share a buffer ------
# (fuzz seed 9103666): ``dh + c`` on a list cotangent concatenated the lists, and the
# item popped back for ``out.append(x)`` was added into in place while another slot held
# the same array (``sum(out)`` gives every item the one cotangent).


def _list_used_whole_twice(t, v, x):
    out = [x, t]
    out.append(x)
    h = out
    q = {'w': np.mean(v), 'b': h}
    return np.sum(h) + q['w']


def _summed_list_with_an_appended_item(t, v, x):
    out = [x, t]
    out.append(x)
    h = sum(out)
    return np.sum(h * v[0])


@pytest.mark.parametrize("f", [_list_used_whole_twice, _summed_list_with_an_appended_item])
def test_list_cotangents_add_item_by_item_without_sharing(f):
    rng = np.random.default_rng(3)
    args = [rng.normal(size=3), rng.normal(size=(2, 3)), rng.normal(size=3)]
    got = sg.grad(f, wrt=(0, 1, 2))(*args)
    for index, value in enumerate(got):
        np.testing.assert_allclose(value, numeric_grad(f, args, index), rtol=1e-6, atol=1e-8)
