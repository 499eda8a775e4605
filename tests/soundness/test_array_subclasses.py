"""An ndarray subclass whose operators mean something else (``np.matrix``: ``*`` is a
matrix product) is refused at entry with an error naming its type, in every mode; a
subclass that keeps NumPy's operators is differentiated (oracle: central differences)."""

import numpy as np
import numpy.ma
import pytest

import srcgrad as sg
from srcgrad.errors import TransformError
from tests.conftest import numeric_grad

pytestmark = pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
M = np.array([[.3, .7], [1.1, 0.5]])


def products(m):
    return np.sum(m * m) + np.sum(m ** 2)


class Tagged(np.ndarray):
    """A subclass that only carries a tag: NumPy's operators."""


ENTRY_POINTS = {
    "grad": lambda f, m: sg.grad(f)(m),
    "value_and_grad": lambda f, m: sg.value_and_grad(f)(m),
    "vjp": lambda f, m: sg.vjp(f)(m),
    "jvp": lambda f, m: sg.jvp(f)(m, np.ones((2, 2))),
    "hessian": lambda f, m: sg.hessian(f)(m),
}


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
@pytest.mark.parametrize("value", [np.asmatrix(M), numpy.ma.masked_array(M, [[0, 1], [0, 0]])],
                         ids=["matrix", "masked"])
def test_refused_with_the_type_named(entry, value):
    with pytest.raises(TransformError, match=type(value).__name__):
        ENTRY_POINTS[entry](products, value)


def test_matrix_would_have_given_the_elementwise_gradient():
    """Why: the matrix product's gradient differs from the elementwise rule's."""
    expected = numeric_grad(lambda m: products(np.asmatrix(m)), [M], 0)
    assert not np.allclose(expected, 4 * M)


def test_subclass_with_numpy_operators_is_differentiated():
    tagged = M.view(Tagged)
    np.testing.assert_allclose(sg.grad(products)(tagged), numeric_grad(products, [M], 0),
                               rtol=1e-6)


def test_eager_entry_points_refuse_a_matrix():
    matrix = np.asmatrix(M)
    with pytest.raises(TransformError, match="matrix"):
        sg.Variable(matrix)
    with pytest.raises(TransformError, match="matrix"):
        sg.constant(matrix)
    with pytest.raises(TransformError, match="matrix"):
        sg.gradients_function(products)(matrix)


def weighted(params, x):
    return np.sum(params["w"] * x) + np.sum(params["layers"][0] * x)


def test_matrix_inside_a_parameter_pytree_is_refused():
    params = {"w": np.asmatrix(M), "layers": [M]}
    with pytest.raises(TransformError, match="matrix"):
        sg.grad(weighted)(params, M)
    plain = {"w": M.copy(), "layers": [M.copy()]}
    grads = sg.grad(weighted)(plain, M)
    np.testing.assert_allclose(grads["w"], M)
    np.testing.assert_allclose(grads["layers"][0], M)
