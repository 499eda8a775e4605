"""A real argument's gradient is real, whatever the other operands are.

For a rule with a real operand ``a`` and a complex one ``z``, a complex cotangent ``W``
gives ``a`` the cotangent ``Re(W . d op/da)``: the derivative of the real loss
``Re <W, op(a, z)>`` along ``a``'s real directions (autograd's convention). Checked
against central finite differences of that loss, for broadcasting rows (``np.add``,
where ``_sg.unbroadcast`` keeps the real part) and for rows with several operands that
do not broadcast (``np.dot``, ``np.kron``: ``_sg.match_real``), with NumPy and Python
scalars, in reverse mode at first order and at second order (a Hessian of a real loss
through such a row), and in eager mode (the same rule rows under a tape).
"""

import numpy as np
import pytest

import srcgrad as sg

Z2 = np.array([1.0 + 1.0j, -0.5 + 2.0j])
Z22 = np.array([[0.3 - 1.0j, 2.0j], [1.5, -0.7 + 0.2j]])

# (name, function of (a, z), a, z): a is real, z complex
BINARY = [
    ("add scalar", lambda a, z: np.add(a, z), 0.4, 0.4 + 1.2j),
    ("add np scalar", lambda a, z: np.add(a, z), np.float64(0.4), np.complex128(0.4 + 1.2j)),
    ("add 0-d", lambda a, z: np.add(a, z), np.array(0.4), np.array(0.4 + 1.2j)),
    ("multiply broadcast", lambda a, z: a * z, np.array([[0.4], [0.7]]), Z2),
    ("dot", lambda a, z: np.dot(a, z), np.array([0.4, 0.3]), Z2),
    ("dot matrix", lambda a, z: np.dot(a, z), np.array([[0.4, 0.3], [1.0, -2.0]]), Z22),
    ("dot scalar", lambda a, z: np.dot(a, z), 0.4, Z2),
    ("matmul", lambda a, z: np.matmul(a, z), np.array([[0.4, 0.3], [1.0, -2.0]]), Z22),
    ("kron", lambda a, z: np.kron(a, z), np.array([0.4, 0.3]), Z2),
    ("outer", lambda a, z: np.outer(a, z), np.array([0.4, 0.3, 1.1]), Z2),
    ("inner", lambda a, z: np.inner(a, z), np.array([0.4, 0.3]), Z2),
    ("vdot", lambda a, z: np.vdot(a, z), np.array([0.4, 0.3]), Z2),
    ("tensordot", lambda a, z: np.tensordot(a, z, 1), np.array([[0.4, 0.3], [1.0, 2.0]]), Z22),
    ("einsum", lambda a, z: np.einsum("ij,jk->ik", a, z),
     np.array([[0.4, 0.3], [1.0, -2.0]]), Z22),
]


def _cotangent(value, rng):
    shape = np.shape(value)
    draw = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    return np.complex128(draw) if shape == () else draw


def _real_loss(fn, w):
    return lambda a, z: float(np.real(np.sum(w * fn(a, z))))


def _fd(loss, a, z, v, eps=1e-6):
    return (loss(a + eps * v, z) - loss(a - eps * v, z)) / (2 * eps)


@pytest.mark.parametrize("name, fn, a, z", BINARY, ids=[b[0] for b in BINARY])
@pytest.mark.parametrize("swap", [False, True], ids=["real first", "real second"])
def test_real_operand_gets_a_real_cotangent(name, fn, a, z, swap):
    rng = np.random.default_rng(len(name))
    call = (lambda z_, a_: fn(a_, z_)) if swap else fn
    args = (z, a) if swap else (a, z)
    real_at = 1 if swap else 0
    value, backward = sg.vjp(call, wrt=(0, 1))(*args)
    w = _cotangent(value, rng)
    for _ in range(2):   # called twice
        grads = backward(w)
        da = grads[real_at]
        assert not np.iscomplexobj(da), (name, da)
        assert np.shape(da) == np.shape(a)
        v = rng.standard_normal(np.shape(a))
        loss = _real_loss(fn, w)
        numeric = _fd(loss, a, z, v)
        assert np.isclose(float(np.sum(da * v)), numeric, rtol=1e-6, atol=1e-8), name


@pytest.mark.parametrize("name, fn, a, z", BINARY[3:9], ids=[b[0] for b in BINARY[3:9]])
def test_second_order_through_a_mixed_row(name, fn, a, z):
    """The Hessian of ``|op(a, z)|**2`` in the real ``a``: real, and the finite
    differences of the (real) gradient."""
    def f(a):
        return np.sum(np.abs(fn(a, z)) ** 2)

    grad = sg.grad(f)
    hess = sg.hessian(f)(a)
    rng = np.random.default_rng(3)
    v = rng.standard_normal(np.shape(a))
    eps = 1e-6
    numeric = (np.asarray(grad(a + eps * v)) - np.asarray(grad(a - eps * v))) / (2 * eps)
    size = np.size(a)
    analytic = np.reshape(hess, (size, size)) @ np.ravel(v)
    assert not np.iscomplexobj(hess)
    np.testing.assert_allclose(analytic, np.ravel(numeric), rtol=1e-5, atol=1e-6)


def test_eager_tape_real_operand():
    a = sg.Variable(np.array([0.4, 0.3]))
    with sg.GradientTape() as tape:
        y = np.abs(np.dot(a, Z2)) ** 2
    da = tape.gradient(y, a)
    expected = 2 * np.real(np.conj(np.dot(a.numpy(), Z2)) * Z2)
    assert not np.iscomplexobj(da)
    np.testing.assert_allclose(da, expected)
