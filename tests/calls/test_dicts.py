"""``dict(...)`` forms and dict methods on dicts holding values being differentiated,
in both modes."""

import numpy as np
import pytest

import srcgrad as sg
from tests.calls.helpers import check_both_modes, implicit_gradient


def keyword_form(x):
    params = dict(w=x, b=np.sin(x))
    return np.sum(params["w"] * params["b"])


def pairs_form(x):
    table = dict([("a", x), ("b", x ** 2)])
    scaled = dict((k, v * 2.0) for k, v in table.items())
    return np.sum(table["a"] * scaled["b"])


def get_and_setdefault(x):
    d = {"a": x}
    first = d.setdefault("a", 100.0 * x)
    second = d.setdefault("b", np.cos(x))
    return np.sum(first * second + d.get("b", 0.0) * d.get("z", x))


def update_items_keys_values(x):
    d = {"a": x}
    d.update({"b": x * x}, c=2.0 * x)
    d.update(a=np.exp(x))
    total = 0.0
    for key, value in d.items():
        total = total + np.sum(value) * len(key)
    for key in d.keys():
        total = total + np.sum(d[key] ** 2)
    for value in d.values():
        total = total + np.sum(np.sin(value))
    return total


@pytest.mark.parametrize("f", [keyword_form, pairs_form, get_and_setdefault,
                               update_items_keys_values])
def test_dicts_against_finite_differences(f):
    check_both_modes(f, (np.array([0.3, -0.8]),))


V = sg.Variable(np.array([0.2, 0.4]))


def test_implicit_gradients_through_dict_methods():
    def loss(x):
        d = dict(v=V)
        d.update(x=x)
        return np.sum(d.setdefault("v", x) * d["x"])

    x = np.array([1.0, -3.0])
    assert np.allclose(implicit_gradient(loss, V, x), x)


def test_update_on_an_object_that_is_not_a_dict_is_an_error():
    class Store:
        def update(self, other):
            self.seen = other

    def f(x):
        s = Store()
        s.update({"a": x})
        return x

    with pytest.raises(TypeError, match="as the dict method"):
        sg.grad(f)(1.0)


def test_dict_of_a_value_that_may_be_pairs_is_refused():
    def f(x):
        pairs = [("a", x)]
        return dict(pairs)["a"]

    with pytest.raises(sg.MissingRuleError, match="builtins.dict"):
        sg.grad(f)(1.0)
