"""The reverse rows of the runtime helpers that generated gradients call, checked on their
own: a linear helper ``L`` (linear in ``v``) and its row's template ``T`` must satisfy
``<L(v), u> == <v, T(u)>``; a bilinear partner's template is checked against central
finite differences of ``<L(v, p), u>`` in ``p``."""

import numpy as np
import pytest

import srcgrad.runtime as rt
from srcgrad import syntax
from srcgrad.rules import REGISTRY

RNG = np.random.default_rng(7)


def normal(*shape):
    return RNG.standard_normal(shape)


A23, B34, V3, W3 = normal(2, 3), normal(3, 4), normal(3), normal(3)
# helper, its non-v arguments, the shape (or list of shapes) of v
CASES = [
    (rt.cumsum_adjoint, {"a": normal(2, 3), "axis": 1}, (2, 3)),
    (rt.cumsum_adjoint, {"a": normal(2, 3), "axis": None}, (6,)),
    (rt.concatenate_adjoint, {"arrays": [normal(2, 3), normal(1, 3)], "axis": 0}, (3, 3)),
    (rt.concatenate_adjoint, {"arrays": [normal(2), normal(3)], "axis": None}, (5,)),
    (rt.stack_adjoint, {"arrays": [V3, W3], "axis": 1}, (3, 2)),
    (rt.hstack_adjoint, {"tup": [V3, normal(2)]}, (5,)),
    (rt.vstack_adjoint, {"tup": [V3, W3]}, (2, 3)),
    (rt.array_adjoint, {"obj": [1.0, 2.0, 3.0]}, (3,)),
    (rt.array_adjoint, {"obj": [V3, W3]}, (2, 3)),
    (rt.trace_adjoint, {"a": normal(3, 3), "offset": 1, "axis1": 0, "axis2": 1}, ()),
    (rt.diag_adjoint, {"a": V3, "k": 0}, (3, 3)),
    (rt.diag_adjoint, {"a": normal(3, 3), "k": -1}, (2,)),
    (rt.tile_adjoint, {"a": normal(2), "reps": 3}, (6,)),
    (rt.repeat_adjoint, {"a": normal(2, 2), "repeats": 2, "axis": 0}, (4, 2)),
    (rt.sum_adjoint, {"a": A23, "axis": 0, "keepdims": False}, (3,)),
    (rt.mean_adjoint, {"a": A23, "axis": None, "keepdims": False}, ()),
    (rt.max_adjoint, {"a": np.array([[1.0, 3.0, 3.0], [2.0, 0.0, 1.0]]),
                      "ans_": np.array([3.0, 2.0]), "axis": 1, "keepdims": False}, (2,)),
    (rt.dot_adjoint_a, {"a": A23, "b": normal(3, 4)}, (2, 4)),
    (rt.dot_adjoint_b, {"a": A23, "b": normal(3, 4)}, (2, 4)),
    (rt.matmul_adjoint_a, {"a": normal(2, 2, 3), "b": B34}, (2, 2, 4)),
    (rt.matmul_adjoint_b, {"a": A23, "b": V3}, (2,)),
    (rt.inner_adjoint_a, {"a": A23, "b": normal(4, 3)}, (2, 4)),
    (rt.inner_adjoint_b, {"a": A23, "b": normal(4, 3)}, (2, 4)),
    (rt.quantile_adjoint, {"a": A23, "q": np.array([0.2, 0.5]), "axis": 1, "keepdims": True,
                           "method": "linear"}, (2, 2, 1)),
    (rt.quantile_adjoint, {"a": A23, "q": 0.4, "axis": None, "keepdims": False,
                           "method": "linear"}, ()),
    (rt.quantile_tangent, {"a": A23, "q": np.array([0.3, 0.9]), "axis": 0, "keepdims": False,
                           "method": "linear"}, (2, 3)),
    (rt.sort_adjoint, {"a": A23, "axis": 1}, (2, 3)),
    (rt.sort_adjoint, {"a": A23, "axis": None}, (6,)),
    (rt.sort_tangent, {"a": A23, "axis": 0}, (2, 3)),
    (rt.sort_tangent, {"a": A23, "axis": None}, (2, 3)),
    (rt.saved_item, {"index": 1}, (3,)),
    (rt.item_adjoint, {"index": 1, "value": 0.0}, (3,)),
]
PARTNERS = {rt.dot_adjoint_a: "b", rt.dot_adjoint_b: "a", rt.matmul_adjoint_a: "b",
            rt.matmul_adjoint_b: "a", rt.inner_adjoint_a: "b", rt.inner_adjoint_b: "a"}


def evaluate(template, **values):
    code = compile(syntax.to_source(syntax.quote_expr(template)), "<row>", "eval")
    return eval(code, {"np": np, "_sg": rt}, values)


def inner(a, b):
    if isinstance(a, list):
        return sum(inner(x, y) for x, y in zip(a, b))
    return float(np.sum(np.asarray(a) * np.asarray(b)))


def like(value):
    if isinstance(value, list):
        return [like(item) for item in value]
    return normal(*np.shape(value)) if np.ndim(value) else float(normal())


def call(helper, v, args):
    rule = REGISTRY.lookup(helper)
    return helper(v, *[args[p] for p in rule.params[1:]])


@pytest.mark.parametrize("helper, args, shape", CASES,
                         ids=[f"{c[0].__name__}-{i}" for i, c in enumerate(CASES)])
def test_transpose_of_the_cotangent(helper, args, shape):
    v = normal(*shape) if shape else float(normal())
    out = call(helper, v, args)
    u = like(out)
    transposed = evaluate(REGISTRY.lookup(helper).adjoints["v"], g=u, v=v, **args)
    assert np.isclose(inner(out, u), inner(v, transposed), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("helper", list(PARTNERS), ids=lambda h: h.__name__)
def test_bilinear_partner_against_differences(helper):
    args, shape = next((a, s) for h, a, s in CASES if h is helper)
    partner = PARTNERS[helper]
    v = normal(*shape)
    u = like(call(helper, v, args))
    direction = normal(*np.shape(args[partner]))
    template = REGISTRY.lookup(helper).adjoints[partner]
    gradient = evaluate(template, g=u, v=v, **args)
    eps = 1e-6

    def projected(step):
        moved = dict(args, **{partner: args[partner] + step * direction})
        return inner(call(helper, v, moved), u)

    numeric = (projected(eps) - projected(-eps)) / (2 * eps)
    assert np.isclose(inner(gradient, direction), numeric, rtol=1e-6, atol=1e-8)


def test_pop_adjoints_restore_alignment():
    dlist = [1.0, 2.0]
    rt.unpop(dlist, 5.0)
    rt.unpop_at(dlist, 0, 7.0)
    assert dlist == [7.0, 1.0, 2.0, 5.0]
    assert rt.last_items(dlist) == 5.0 and rt.inserted_item(dlist, 0) == 7.0
    rt.remove_inserted(dlist, 0)
    rt.pop_last(dlist)
    assert dlist == [1.0, 2.0]
    rt.unpop_at(dlist, -1, 3.0)
    assert dlist == [1.0, 2.0, 3.0] and rt.inserted_item(dlist, -1) == 3.0
