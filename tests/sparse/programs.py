"""Functions with sparse Jacobians and Hessians, generated from building blocks: stencils
(slices, rolls, differences), elementwise maps, reductions along an axis, tuple outputs,
several ``wrt`` arguments, 0-d and size-1 inputs. Each case: ``(name, f, wrt, args)``."""

import numpy as np

ELEMENTWISE = {
    "sin": np.sin,
    "exp_mul": lambda x: np.exp(0.3 * x) * x,
    "square": lambda x: x * x,
    "tanh": np.tanh,
}


def stencil_1d(x, k):
    return x[2:] - 2.0 * x[1:-1] + x[:-2] + k * x[1:-1] ** 3


def stencil_2d(u, alpha):
    lap = np.roll(u, 1, 0) + np.roll(u, -1, 0) + np.roll(u, 1, 1) + np.roll(u, -1, 1) - 4 * u
    return alpha * lap + u * u


def rows_reduced(x):
    return np.sum(np.sin(x) * x, axis=1)


def columns_reduced(x):
    return np.sum(x * x, axis=0) + x[0]


def two_outputs(x, y):
    return np.sin(x) * y[0], np.cumsum(y) + x[-1]


def mixed(x, w, s):
    return np.concatenate([x[1:] * x[:-1] * w, np.array([s * x[0]])])


def scalar_in(s, x):
    return x * s + np.sin(s)


def diagonal_map(name):
    fn = ELEMENTWISE[name]

    def elementwise(x):
        return fn(x) + 0.5 * x
    elementwise.__name__ = f"elementwise_{name}"
    return elementwise


def jacobian_cases():
    rng = np.random.default_rng(11)
    cases = []
    for name in ELEMENTWISE:
        for shape in [(), (1,), (7,), (3, 4)]:
            cases.append((f"{name}{shape}", diagonal_map(name), 0,
                          (rng.uniform(0.2, 1.5, shape),)))
    cases += [
        ("stencil_1d", stencil_1d, 0, (rng.standard_normal(12), 0.7)),
        ("stencil_2d", stencil_2d, 0, (rng.standard_normal((5, 6)), 0.3)),
        ("stencil_2d_f32", stencil_2d, 0, (rng.standard_normal((4, 4)).astype(np.float32), 0.3)),
        ("rows_reduced", rows_reduced, 0, (rng.standard_normal((6, 3)),)),
        ("columns_reduced", columns_reduced, 0, (rng.standard_normal((4, 5)),)),
        ("two_outputs", two_outputs, (0, 1), (rng.standard_normal(4), rng.standard_normal(3))),
        ("two_outputs_y", two_outputs, "y", (rng.standard_normal(4), rng.standard_normal(3))),
        ("mixed", mixed, (0, 1, 2), (rng.standard_normal(6), rng.standard_normal(5), 0.4)),
        ("mixed_x", mixed, 0, (rng.standard_normal(6), rng.standard_normal(5), 0.4)),
        ("scalar_in", scalar_in, (0, 1), (0.3, rng.standard_normal(5))),
        ("complex_elementwise", diagonal_map("square"), 0,
         (rng.standard_normal(5) + 1j * rng.standard_normal(5),)),
    ]
    return cases


def chain_energy(x):
    return np.sum((x[1:] - x[:-1]) ** 2 * x[1:]) + np.sum(np.cos(x))


def grid_energy(u):
    du = np.roll(u, 1, 0) - u
    dv = np.roll(u, 1, 1) - u
    return np.sum(du * du * np.exp(0.1 * u)) + np.sum(dv ** 4)


def coupled(x, y):
    return np.sum(x * y[:-1] * y[1:]) + np.sum(np.sin(x) ** 2) + y[0] ** 3


def separable(x):
    return np.sum(np.exp(x) - x ** 3)


def with_scalar(s, x):
    return s * s * np.sum(x[:2]) + np.sum(x ** 2 * x[::-1])


def hessian_cases():
    rng = np.random.default_rng(13)
    return [
        ("chain_energy", chain_energy, 0, (rng.uniform(0.5, 1.5, 9),)),
        ("grid_energy", grid_energy, 0, (rng.standard_normal((4, 5)),)),
        ("coupled", coupled, (0, 1), (rng.standard_normal(4), rng.standard_normal(5))),
        ("coupled_y", coupled, 1, (rng.standard_normal(4), rng.standard_normal(5))),
        ("separable", separable, 0, (rng.standard_normal((2, 3)),)),
        ("separable_1", separable, 0, (rng.standard_normal(1),)),
        ("with_scalar", with_scalar, (0, 1), (0.7, rng.standard_normal(6))),
    ]
