"""Pytree outputs (dicts, tuples, lists, NamedTuples, dataclasses) for jacobian, jacfwd,
jacrev, vjp, jvp and value_and_grad; elementwise_grad. Oracles: central differences and
closed forms."""

import dataclasses
from typing import NamedTuple

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.api import pytree

EPS = 1e-6


class Pair(NamedTuple):
    first: object
    second: object


@dataclasses.dataclass
class Stats:
    mean: object
    spread: object


@dataclasses.dataclass
class Checked:
    value: object

    def __post_init__(self):
        self.value = self.value * 2.0    # not a plain store: refused


def to_dict(x):
    return {"s": np.sin(x), "n": x @ x}


def to_pair(x):
    return Pair(np.exp(x) * 2.0, x[0] * x[1])


def to_stats(x):
    return Stats(mean=np.mean(x), spread=np.sum((x - np.mean(x)) ** 2))


def nested(params, c):
    return (params["w"] * c, [np.sum(params["b"] ** 2), {"t": np.tanh(params["w"])}])


def reads_fields(p):
    return p.first * p.second + np.sin(p.first)


def numeric_jacobian(f, args, k):
    """Central differences: output leaves x input leaves of argument ``k``, nested as
    sg.jacobian nests them (single wrt)."""
    in_leaves, in_def = pytree.flatten(args[k])
    in_leaves = [np.asarray(x, dtype=float) for x in in_leaves]
    out_leaves, out_def = pytree.flatten(f(*args))
    blocks = [[np.zeros(np.shape(o) + x.shape) for x in in_leaves] for o in out_leaves]
    for i, x in enumerate(in_leaves):
        for index in np.ndindex(x.shape):
            shifted = []
            for sign in (1, -1):
                leaves = [leaf.copy() for leaf in in_leaves]
                leaves[i][index] += sign * EPS
                call = list(args)
                call[k] = in_def.unflatten(lf if lf.shape else float(lf) for lf in leaves)
                shifted.append(pytree.leaves(f(*call)))
            for j, (plus, minus) in enumerate(zip(*shifted)):
                blocks[j][i][(...,) + index] = (np.asarray(plus) - np.asarray(minus)) / (2 * EPS)
    return out_def.unflatten(in_def.unflatten(row) for row in blocks)


def assert_trees_close(actual, expected, atol=1e-6):
    actual_leaves, actual_def = pytree.flatten(actual)
    expected_leaves, expected_def = pytree.flatten(expected)
    assert actual_def == expected_def
    for a, e in zip(actual_leaves, expected_leaves):
        assert np.shape(a) == np.shape(e)
        assert np.allclose(a, e, atol=atol)


X = np.array([0.3, -0.8, 1.1])
PARAMS = {"w": np.array([0.5, -0.2, 0.9]), "b": 1.5}


@pytest.mark.parametrize("jacobian", [sg.jacobian, sg.jacfwd, sg.jacrev],
                         ids=["jacobian", "jacfwd", "jacrev"])
@pytest.mark.parametrize("f, args", [(to_dict, (X,)), (to_pair, (X,)), (to_stats, (X,)),
                                     (nested, (PARAMS, 3.0))],
                         ids=["dict", "namedtuple", "dataclass", "nested_in_and_out"])
def test_jacobian_of_a_pytree_output_matches_differences(jacobian, f, args):
    assert_trees_close(jacobian(f)(*args), numeric_jacobian(f, args, 0))


def test_jacobian_of_a_dict_output_is_a_dict_of_output_leaf_plus_input_shapes():
    result = sg.jacobian(to_dict)(X)
    assert set(result) == {"s", "n"}
    assert result["s"].shape == (3, 3) and result["n"].shape == (3,)
    assert np.allclose(result["s"], np.diag(np.cos(X))) and np.allclose(result["n"], 2 * X)


def test_tuple_wrt_nests_a_tuple_inside_each_output_leaf():
    result = sg.jacrev(nested, wrt=(0, 1))(PARAMS, 3.0)
    assert np.allclose(result[0][1], PARAMS["w"])            # d(w * c)/dc
    assert np.allclose(result[0][0]["w"], 3.0 * np.eye(3))    # d(w * c)/dw
    assert result[1][0][0]["b"] == pytest.approx(2 * PARAMS["b"])


@pytest.mark.parametrize("f", [to_dict, to_pair, to_stats], ids=["dict", "namedtuple",
                                                                 "dataclass"])
def test_vjp_and_jvp_take_and_give_pytrees(f, rng):
    tangent = rng.standard_normal(3)
    value, backward = sg.vjp(f)(X)
    leaves, treedef = pytree.flatten(value)
    cotangent_leaves = [rng.standard_normal(np.shape(leaf)) for leaf in leaves]
    cotangent = treedef.unflatten(c if np.ndim(c) else float(c) for c in cotangent_leaves)
    plus, minus = pytree.leaves(f(X + EPS * tangent)), pytree.leaves(f(X - EPS * tangent))
    directional = [(np.asarray(p) - np.asarray(m)) / (2 * EPS) for p, m in zip(plus, minus)]
    expected = sum(np.sum(c * d) for c, d in zip(cotangent_leaves, directional))
    assert np.sum(backward(cotangent) * tangent) == pytest.approx(expected, abs=1e-6)
    primal, out_tangent = sg.jvp(f)(X, tangent)
    assert type(out_tangent) is type(value) and type(primal) is type(value)
    assert_trees_close(out_tangent, pytree.flatten(value)[1].unflatten(directional))


def test_jvp_reads_the_fields_of_a_namedtuple_argument():
    p, v = Pair(0.7, 2.0), Pair(1.0, -0.5)
    _, tangent = sg.jvp(reads_fields)(p, v)
    closed_form = (p.second + np.cos(p.first)) * v.first + p.first * v.second
    assert tangent == pytest.approx(closed_form)
    assert sg.grad(reads_fields)(p) == Pair(pytest.approx(p.second + np.cos(p.first)),
                                            pytest.approx(p.first))


def test_value_and_grad_of_a_pytree_argument_gives_the_same_structure():
    def loss(params, c):
        out = nested(params, c)
        return np.sum(out[0] ** 2) + out[1][0] + np.sum(out[1][1]["t"])

    value, gradient = sg.value_and_grad(loss)(PARAMS, 3.0)
    assert value == pytest.approx(loss(PARAMS, 3.0))
    expected = numeric_jacobian(loss, (PARAMS, 3.0), 0)
    assert_trees_close(gradient, expected)


def test_a_constructor_that_does_more_than_store_is_refused():
    with pytest.raises(sg.MissingRuleError, match="Checked"):
        sg.vjp(lambda x: Checked(x * 3.0))(X)


def test_elementwise_grad_is_the_gradient_of_the_sum():
    assert np.allclose(sg.elementwise_grad(lambda x: np.tanh(x) * 2.0)(X),
                       2.0 * (1 - np.tanh(X) ** 2))
    two = sg.elementwise_grad(lambda x, y: x * np.exp(y), argnums=1)(X, X[::-1])
    assert np.allclose(two, X * np.exp(X[::-1]))
    tree = sg.elementwise_grad(to_dict)(X)       # cotangent of ones on every leaf
    assert np.allclose(tree, np.cos(X) + 2 * X)


def test_pytree_flatten_and_unflatten_round_trip():
    tree = {"a": (1.0, [np.ones(2), None]), "p": Pair(2.0, Stats(3.0, np.zeros(1)))}
    leaves, treedef = pytree.flatten(tree)
    assert len(leaves) == 5 and treedef.num_leaves == 5
    rebuilt = treedef.unflatten([10.0, np.ones(2) * 2, 20.0, 30.0, np.ones(1)])
    assert isinstance(rebuilt["p"].second, Stats) and rebuilt["p"].second.mean == 30.0
    assert rebuilt["a"][1][1] is None and isinstance(rebuilt["p"], Pair)
    with pytest.raises(ValueError, match="5 leaves; got 4"):
        treedef.unflatten([1.0] * 4)
