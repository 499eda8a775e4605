"""Independent oracles for generated programs: central differences of the function for
the gradient and the tangent, and second differences for the Hessian-vector product.
Each derivative is asked for twice (a cached unit must give the same numbers).

``load_source(text, directory, name)`` imports a module written from source text, so a
test can generate programs and still give srcgrad real source files to read."""

import importlib.util
import sys

import numpy as np

import srcgrad as sg

H1, H2 = 1e-6, 1e-4


def load_source(text, directory, name):
    path = directory / f"{name}.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _fd_grad(f, x):
    x = np.asarray(x, dtype=float)
    out = np.zeros(x.shape)
    for i in np.ndindex(x.shape):
        e = np.zeros(x.shape)
        e[i] = H1
        out[i] = (f(x + e) - f(x - e)) / (2 * H1)
    return out


def _fd_hvp(f, x, v):
    x = np.asarray(x, dtype=float)
    out = np.zeros(x.shape)
    for i in np.ndindex(x.shape):
        u = np.zeros(x.shape)
        u[i] = H2
        out[i] = (f(x + H2 * v + u) - f(x + H2 * v - u) - f(x - H2 * v + u)
                  + f(x - H2 * v - u)) / (4 * H2 * H2)
    return out


def check_modes(f, x, modes=("grad", "jvp", "hvp"), rtol=1e-5, atol=1e-7):
    """``f`` (a scalar function of one float or array) against the oracles in ``modes``."""
    scalar = np.ndim(x) == 0
    shaped = (lambda z: float(z)) if scalar else (lambda z: z)
    g = (lambda z: f(shaped(z)))
    v = np.random.default_rng(3).standard_normal(np.shape(x))
    v = float(v) if scalar else v
    for _ in range(2):
        if "grad" in modes:
            np.testing.assert_allclose(sg.grad(f)(x), _fd_grad(g, x), rtol=rtol, atol=atol)
        if "jvp" in modes:
            value, tangent = sg.jvp(f)(x, v)
            expected = (f(shaped(np.asarray(x) + H1 * np.asarray(v)))
                        - f(shaped(np.asarray(x) - H1 * np.asarray(v)))) / (2 * H1)
            np.testing.assert_allclose(value, f(x), rtol=1e-12, atol=1e-12)
            np.testing.assert_allclose(tangent, expected, rtol=rtol, atol=atol)
        if "hvp" in modes:
            np.testing.assert_allclose(sg.hvp(f)(x, v), _fd_hvp(g, x, np.asarray(v)),
                                       rtol=1e-4, atol=1e-5)
