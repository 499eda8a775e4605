"""What a namespace denotes is proven from the source or checked where it runs; what
cannot work is a clear error naming the call, its line and the arrays' namespace."""

import numpy as np
import pytest
from array_api_compat import (
    array_namespace,
    device,
    is_array_api_obj,
    is_numpy_array,
    is_torch_array,
)

import srcgrad as sg
from tests.array_api.libraries import library_of, to_numpy


def _loss_with_parameter(x, w, xp):
    h = xp.tanh(x @ w)
    return xp.sum(h * h)


def _loss_with_method(x, w):
    xp = x.__array_namespace__()
    la = xp.linalg
    return xp.sum(la.solve(w, x) ** 2)


def _loss_numpy(x, w):
    return np.sum(np.tanh(x @ w) ** 2)


def _tanh_loss_grad_w(x, w):
    """The closed form of d/dw sum(tanh(x @ w) ** 2)."""
    h = np.tanh(x @ w)
    return x.T @ (2 * h * (1 - h * h))


def _solve_loss_grad_x(x, w):
    """d/dx sum(solve(w, x) ** 2) = 2 w^-T solve(w, x)."""
    return 2 * np.linalg.solve(w.T, np.linalg.solve(w, x))


@pytest.fixture
def data():
    rng = np.random.default_rng(3)
    return rng.standard_normal((3, 4)), rng.standard_normal((4, 2))


def test_a_namespace_parameter_is_checked_and_used(data):
    strict = pytest.importorskip("array_api_strict")
    x, w = data
    g = sg.grad(_loss_with_parameter, wrt=1)
    for _ in range(2):
        out = g(strict.asarray(x), strict.asarray(w), strict)
        assert library_of(out) == "array_api_strict"
        assert np.allclose(to_numpy(out), _tanh_loss_grad_w(x, w))
    assert np.allclose(g(x, w, np), _tanh_loss_grad_w(x, w))


def test_a_parameter_that_is_not_a_namespace_is_refused(data):
    x, w = data
    with pytest.raises(sg.TransformError, match="not one"):
        sg.grad(_loss_with_parameter, wrt=1)(x, w, "numpy")


def test_array_namespace_method_and_linalg_extension(data):
    strict = pytest.importorskip("array_api_strict")
    rng = np.random.default_rng(4)
    w = rng.standard_normal((3, 3)) + 3 * np.eye(3)
    x = data[0]
    g = sg.grad(_loss_with_method, wrt=0)
    out = g(strict.asarray(x), strict.asarray(w))
    assert library_of(out) == "array_api_strict"
    assert np.allclose(to_numpy(out), _solve_loss_grad_x(x, w))


def test_numpy_call_on_another_librarys_arrays_names_the_call(data):
    torch = pytest.importorskip("torch")
    x, w = data
    with pytest.raises(sg.TransformError) as info:
        sg.grad(_loss_numpy, wrt=1)(torch.asarray(x), torch.asarray(w))
    message = str(info.value)
    assert "`np.tanh`" in message and "test_namespaces.py" in message
    assert "array_api_compat.torch" in message


def test_mixing_libraries_is_refused_at_entry(data):
    torch = pytest.importorskip("torch")
    x, w = data
    g = sg.grad(_loss_with_parameter, wrt=1)
    with pytest.raises(sg.TransformError, match="mix torch"):
        g(torch.asarray(x), w, np)


def test_a_function_outside_the_table_is_refused_by_name(data):
    def uses_unknown(x):
        xp = array_namespace(x)
        return xp.sum(xp.cumulative_prod(x))

    with pytest.raises(sg.TransformError, match="xp.cumulative_prod"):
        sg.grad(uses_unknown)(data[0])


def test_numpy_inputs_give_numpy_arrays(data):
    x, w = data
    out = sg.grad(_loss_with_parameter, wrt=1)(x, w, array_namespace(x))
    assert type(out) is np.ndarray
    assert np.allclose(out, _tanh_loss_grad_w(x, w))


def _xp_loss(x, w):
    xp = array_namespace(x, w)
    h = xp.tanh(x @ w)
    return xp.sum(h[0, :] * h[1, :]) + xp.mean(h ** 2)


def _xp_loss_numpy(x, w):
    h = np.tanh(x @ w)
    return np.sum(h[0, :] * h[1, :]) + np.mean(h ** 2)


def test_an_emitted_module_takes_its_namespace_from_the_inputs(data, tmp_path,
                                                                monkeypatch):
    """``emit``'s module, imported without srcgrad's compiler, on torch tensors."""
    torch = pytest.importorskip("torch")
    from srcgrad.aot.emit import emit_module

    source = emit_module([_xp_loss])
    assert "np." not in source.split("def ", 1)[1]
    (tmp_path / "xp_loss_grad.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    emitted = importlib.import_module("xp_loss_grad")
    x, w = data
    dx, dw = emitted._xp_loss_grad(torch.asarray(x), torch.asarray(w))
    assert isinstance(dx, torch.Tensor) and isinstance(dw, torch.Tensor)
    for got, index in ((dx, 0), (dw, 1)):
        v = np.random.default_rng(index).standard_normal(got.shape)
        args = [x, w]
        plus, minus = list(args), list(args)
        plus[index] = args[index] + 1e-6 * v
        minus[index] = args[index] - 1e-6 * v
        numeric = (_xp_loss_numpy(*plus) - _xp_loss_numpy(*minus)) / 2e-6
        assert np.isclose(float(np.sum(got.numpy() * v)), numeric, rtol=1e-6)


def test_jax_jit_traces_the_generated_gradient(data):
    """``jax.jit(sg.grad(f))``: generated code with no in-place write, NumPy call or
    value test traces; its numbers are jax.grad's."""
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    jnp = pytest.importorskip("jax.numpy")
    x, w = (jnp.asarray(a) for a in data)
    ours = jax.jit(sg.grad(_xp_loss, wrt=(0, 1)))
    theirs = jax.grad(_xp_loss, argnums=(0, 1))
    for _ in range(2):
        for a, b in zip(ours(x, w), theirs(x, w)):
            assert isinstance(a, jax.Array)
            assert np.allclose(np.asarray(a), np.asarray(b), rtol=1e-12, atol=1e-14)


def test_dense_jacobians_and_hessians_of_other_libraries_are_refused(data):
    torch = pytest.importorskip("torch")
    x = torch.asarray(data[0][0])
    with pytest.raises(sg.TransformError, match="Hessians as NumPy arrays"):
        sg.hessian(lambda v: (v ** 3).sum())(x)
    with pytest.raises(sg.TransformError, match="Jacobians and Hessians as NumPy arrays"):
        sg.jacobian(lambda v: v ** 3)(x)


def _loss_with_new_array_on_the_device(x, w):
    xp = array_namespace(x, w)
    h = xp.zeros((x.shape[0], w.shape[1]), dtype=w.dtype, device=device(w))
    if is_numpy_array(x) or is_torch_array(x) or is_array_api_obj(x):
        h = h + xp.tanh(x @ w)
    return xp.sum(h * h)


@pytest.mark.parametrize("name", ["numpy", "torch", "array_api_strict"])
def test_device_and_kind_of_array_carry_no_derivative(data, name):
    """``device(w)`` places a new array beside the inputs; ``is_*_array`` tests take no
    part in the derivative (closed form: d/dw sum(tanh(x @ w) ** 2))."""
    x, w = data
    lib = np if name == "numpy" else pytest.importorskip(name)
    g = sg.grad(_loss_with_new_array_on_the_device, wrt=1)
    for _ in range(2):
        out = g(lib.asarray(x), lib.asarray(w))
        assert library_of(out) == name
        assert np.allclose(to_numpy(out), _tanh_loss_grad_w(x, w))
