"""Functions that open a GradientTape inside their own bodies and are differentiated
with sg.grad / sg.jvp, for tests/higher/test_nested_tapes.py. Each docstring gives the
closed form."""

import numpy as np

import srcgrad as sg
from srcgrad import tfe


def tape_confusion(x):
    """x * d/dy (x + y) = x: 1 for d/dx (2 with the perturbations confused)."""
    y = sg.constant(3.0)
    with sg.GradientTape() as tape:
        tape.watch(y)
        z = x + y
    return x * tape.gradient(z, y)


def tape_slope(x):
    """d/dy (x y^2) at y = x: 2 x^2."""
    with sg.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    return tape.gradient(y, x) * x


def tape_of_an_array(w):
    """The gradient of sum(tanh(z w)^2) w.r.t. z at z = [0.1, -0.4, 0.3], squared and
    summed, plus sum(w)."""
    z = sg.constant(np.array([0.1, -0.4, 0.3]))
    with sg.GradientTape() as tape:
        tape.watch(z)
        score = np.sum(np.tanh(z * w) ** 2)
    g = tape.gradient(score, z)
    return np.sum(g ** 2) + np.sum(w)


def persistent_tape(x):
    """Two gradients of one persistent tape, the first w.r.t. a list of sources, at a = x,
    b = 2: d/da (a b x) = 2 x, d/db (a b x) = x^2, d/da (a^2 b) = 4 x."""
    a, b = x, 2.0
    with tfe.GradientTape(persistent=True) as tape:
        tape.watch([a, b])
        u = a * b * x
        v = a ** 2 * b
    da, db = tape.gradient(u, [a, b])
    dv = tape.gradient(v, a)
    return da + db + dv          # 2 x + x^2 + 4 x


def non_scalar_target(x):
    """A vector target is summed: d/dy sum(x * y * [1, 2]) = 3 x."""
    y = sg.constant(1.5)
    with sg.GradientTape() as tape:
        tape.watch(y)
        out = x * y * np.array([1.0, 2.0])
    return tape.gradient(out, y) * x    # 3 x^2


def watch_after_work(x):
    with sg.GradientTape() as tape:
        y = x * 2.0
        tape.watch(x)
        z = y * x
    return tape.gradient(z, x)


def unwatched_source(x):
    y = 2.0
    with sg.GradientTape() as tape:
        tape.watch(x)
        z = x * y
    return tape.gradient(z, y)


def second_gradient_of_a_tape(x):
    with sg.GradientTape() as tape:
        tape.watch(x)
        z = x * x
    return tape.gradient(z, x) + tape.gradient(z, x)


def tape_in_a_loop(x):
    total = 0.0
    for _ in range(2):
        with sg.GradientTape() as tape:
            tape.watch(x)
            z = x * x
        total = total + tape.gradient(z, x)
    return total


def tape_jacobian(x):
    with sg.GradientTape() as tape:
        tape.watch(x)
        z = x * x
    return tape.jacobian(z, x)
