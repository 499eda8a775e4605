"""``GradientTape.jacobian`` against central finite differences: all the rows in one
batched backward sweep of the tape (``eager.jacobians``), for operations written in the
``with`` block, indexing and calls of compiled functions; scalar, vector and matrix
targets and sources, several sources, unconnected ones (None, or zeros with
``unconnected_gradients="zero"``, as TF gives), persistent tapes asked twice."""

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.eager import jacobians
from srcgrad.eager.tape import GradientTape


@sg.differentiable
def cell(a, b):
    return np.tanh(a * b) + a


@sg.differentiable
def pair(a, b):
    return a * b, np.sin(a) + b


def _ops(x, w):
    return np.sin(x) * np.sum(w * w) + np.exp(x) / 3.0


def _index(x, w):
    return x[0] * w + w[1:2] ** 2


def _call(x, w):
    return cell(x, w) * 2.0 + np.cos(w)


def _two_outputs(x, w):
    p, q = pair(x, w)
    return p - q * q


def _reduce(x, w):
    return np.sum(x * w, axis=0) + np.mean(x)


def _matrix(x, w):
    return np.tanh(np.matmul(x, w)) - np.square(x)


def _scalar(x, w):
    return np.sum(np.sin(x * w)) * np.max(w)


CASES = {   # name -> (function of the sources, x's shape, w's shape)
    "ops": (_ops, (4,), (3,)),
    "index": (_index, (2,), (3,)),
    "call": (_call, (2, 3), (2, 3)),
    "two_outputs": (_two_outputs, (3,), (3,)),
    "reduce": (_reduce, (3, 2), (2,)),
    "matrix": (_matrix, (3, 3), (3, 3)),
    "scalar": (_scalar, (2,), (2,)),
    "scalar_sources": (_call, (), ()),
}


def _finite_differences(f, values, which, eps=1e-6):
    base = np.asarray(f(*values))
    x = values[which]
    out = np.zeros(base.shape + x.shape)
    for index in np.ndindex(*x.shape):
        step = np.zeros(x.shape)
        step[index] = eps
        up = list(values)
        down = list(values)
        up[which], down[which] = x + step, x - step
        out[(...,) + index] = (np.asarray(f(*up)) - np.asarray(f(*down))) / (2 * eps)
    return out


def _values(shapes, seed):
    rng = np.random.default_rng(seed)
    return [rng.uniform(0.3, 1.2, shape) for shape in shapes]


@pytest.fixture
def batched_only(monkeypatch):
    """The per-row loop refused: the jacobian must come from the batched sweep."""
    def refuse(*args):
        raise AssertionError("one backward sweep per row")
    monkeypatch.setattr(GradientTape, "_jacobian_per_row", refuse)


@pytest.mark.parametrize("name", sorted(CASES))
def test_jacobian_matches_finite_differences(name, batched_only):
    f, *shapes = CASES[name]
    values = _values(shapes, len(name))
    x, w = (sg.constant(v) for v in values)
    with sg.GradientTape(persistent=True) as tape:
        tape.watch([x, w])
        y = f(x, w)
    for _ in range(2):   # a persistent tape answers again, the same
        jx, jw = tape.jacobian(y, [x, w])
        for which, got in enumerate((jx, jw)):
            expected = _finite_differences(f, values, which)
            assert got.shape == expected.shape
            np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-7)


def test_variables_read_by_a_compiled_function(batched_only):
    v = sg.Variable(np.array([0.5, -1.0, 2.0]))

    @sg.differentiable
    def scaled(x):
        return np.sin(x * v) * v

    x = sg.constant(np.array([0.3, 0.7, 1.1]))
    with sg.GradientTape() as tape:
        tape.watch(x)
        y = scaled(x) + x
    jx, jv = tape.jacobian(y, [x, v])
    values = [x.numpy(), v.numpy()]

    def plain(a, b):
        return np.sin(a * b) * b + a
    np.testing.assert_allclose(jx, _finite_differences(plain, values, 0), atol=1e-7)
    np.testing.assert_allclose(jv, _finite_differences(plain, values, 1), atol=1e-7)


@pytest.mark.filterwarnings("ignore:The dtype of the watched tensor")
def test_unconnected_sources_are_none_or_zeros(batched_only):
    x, other = sg.constant(np.array([1.0, 2.0])), sg.constant(np.ones((2, 2)))
    count = sg.constant(np.array([1, 2]))
    with sg.GradientTape(persistent=True) as tape:
        tape.watch([x, other, count])
        y = x * 3.0
    jx, jo, jc = tape.jacobian(y, [x, other, count])
    np.testing.assert_allclose(jx, 3.0 * np.eye(2))
    assert jo is None and jc is None
    jo = tape.jacobian(y, {"o": other}, unconnected_gradients="zero")["o"]
    assert jo.shape == (2, 2, 2) and not jo.any()
    assert tape.jacobian(other, x) is None   # a target the tape never saw


def test_chunks_of_rows_give_the_same_jacobian(monkeypatch, batched_only):
    x = sg.constant(np.linspace(0.1, 1.0, 7))
    with sg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = np.outer(np.sin(x), x)
    whole = tape.jacobian(y, x)
    monkeypatch.setattr(jacobians, "CHUNK_ELEMENTS", 20)   # rows 3 by 3 (49 + 7 elements)
    chunked = tape.jacobian(y, x)
    expected = _finite_differences(lambda a: np.outer(np.sin(a), a), [x.numpy()], 0)
    np.testing.assert_allclose(whole, expected, atol=1e-7)
    np.testing.assert_allclose(chunked, expected, atol=1e-7)


def test_non_persistent_tape_answers_once():
    x = sg.constant(np.array([1.0, 2.0]))
    with sg.GradientTape() as tape:
        tape.watch(x)
        y = cell(x, x)
    jac = tape.jacobian(y, x)
    np.testing.assert_allclose(jac, _finite_differences(lambda a: np.tanh(a * a) + a,
                                                        [x.numpy()], 0), atol=1e-7)
    with pytest.raises(RuntimeError, match="non-persistent GradientTape"):
        tape.jacobian(y, x)


def test_under_an_outer_tape_one_sweep_per_row_answers():
    """Another tape recording: the rows come from one sweep each (on Tensors)."""
    x = sg.constant(np.array([1.0, 2.0]))
    with sg.GradientTape() as outer:
        outer.watch(x)
        with sg.GradientTape() as inner:
            inner.watch(x)
            y = x ** 3
        jac = inner.jacobian(y, x)
    np.testing.assert_allclose(np.asarray(jac), np.diag(3 * x.numpy() ** 2))


@pytest.mark.parametrize("rows_shape", [(3,), (2, 2)], ids=["vector_rows", "matrix_rows"])
def test_batch_jacobian_in_one_sweep_matches_finite_differences(rows_shape, monkeypatch):
    """``batch_jacobian``: every element of a row, in all rows at once (no sweep per
    element), against the finite-difference Jacobian of each row."""
    monkeypatch.setattr(GradientTape, "_sweep", lambda *a: pytest.fail("a sweep per row"))
    rng = np.random.default_rng(3)
    m = rng.uniform(-1.0, 1.0, (int(np.prod(rows_shape)), 2))

    def row_map(x):   # (batch, *rows_shape) -> (batch, 2), each row on its own
        flat = np.reshape(np.sin(x) * x, (x.shape[0], -1))
        return np.tanh(flat @ m) + np.sum(flat, axis=1, keepdims=True)

    x = sg.constant(rng.uniform(0.2, 1.0, (4,) + rows_shape))
    with sg.GradientTape() as tape:
        tape.watch(x)
        y = row_map(x)
    jac = tape.batch_jacobian(y, x)
    assert jac.shape == (4, 2) + rows_shape
    for b in range(4):
        expected = _finite_differences(lambda r: row_map(r[None])[0], [x.numpy()[b]], 0)
        np.testing.assert_allclose(jac[b], expected, rtol=1e-6, atol=1e-7)
