"""Programs written for autograd (tests/programs/autograd_style: a Gaussian process,
black-box variational inference, ICA, a mixture model, a neural net, a small VAE, an ODE
net, a fluid simulation) ported by changing their import lines only (``port``): they run,
their short training loops included, and srcgrad's gradients match central differences
along random directions. A program that does not port yet is marked xfail with the
reason (docs/porting-from-autograd.md lists them)."""

import pathlib
import re

import numpy as np
import pytest

import srcgrad as sg

HERE = pathlib.Path(__file__).parent / "autograd_style"

# autograd module -> its stand-in; ``import autograd.scipy.stats.norm as norm`` names an
# object in SciPy, not a module, so it becomes a ``from ... import``.
MODULES = [(r"autograd\.numpy", "numpy"), (r"autograd\.scipy", "scipy"),
           (r"autograd\.misc\.optimizers", "srcgrad.api.optimizers"),
           (r"autograd\.test_util", "srcgrad.testing"), (r"autograd\b", "srcgrad")]
IMPORT = re.compile(r"^(import|from) ")


def port(text):
    """``text`` with its import lines rewritten, every other line as it was."""
    out = []
    for line in text.splitlines():
        if IMPORT.match(line):
            for pattern, replacement in MODULES:
                line = re.sub(pattern, replacement, line)
            line = re.sub(r"^import scipy\.stats\.(\w+) as (\w+)$",
                          r"from scipy.stats import \1 as \2", line)
        out.append(line)
    return "\n".join(out) + "\n"


def load(name):
    text = (HERE / f"{name}.py").read_text()
    ported = port(text)
    changed = [(a, b) for a, b in zip(text.splitlines(), ported.splitlines()) if a != b]
    assert changed and all(IMPORT.match(a) for a, _ in changed)
    assert "autograd" not in ported
    return sg.exec_source(ported, filename=f"<ported {name}>")


# -- an oracle of its own: central differences along a random direction of a pytree ------

def tree_random(tree, rng):
    if isinstance(tree, dict):
        return {k: tree_random(v, rng) for k, v in tree.items()}
    if isinstance(tree, (list, tuple)):
        return type(tree)(tree_random(v, rng) for v in tree)
    return rng.standard_normal(np.shape(tree))


def tree_axpy(a, x, y):
    if isinstance(y, dict):
        return {k: tree_axpy(a, x[k], y[k]) for k in y}
    if isinstance(y, (list, tuple)):
        return type(y)(tree_axpy(a, xi, yi) for xi, yi in zip(x, y))
    return a * x + y


def tree_dot(x, y):
    if isinstance(x, dict):
        return sum(tree_dot(x[k], y[k]) for k in x)
    if isinstance(x, (list, tuple)):
        return sum(tree_dot(a, b) for a, b in zip(x, y))
    return float(np.sum(np.asarray(x) * np.asarray(y)))


def check_directional(f, params, gradient, eps=1e-6, rtol=1e-5, seed=0):
    direction = tree_random(params, np.random.default_rng(seed))
    numeric = (f(tree_axpy(eps, direction, params))
               - f(tree_axpy(-eps, direction, params))) / (2 * eps)
    assert tree_dot(gradient, direction) == pytest.approx(numeric, rel=rtol, abs=1e-8)


# -- the programs: what to differentiate, where, and how they train ---------------------

def gaussian_process(ns):
    params = ns["init_params"]
    check_directional(ns["objective"], params, sg.grad(ns["objective"])(params))
    ns["train"](num_iters=3)


def black_box_svi(ns):
    rs, objective = ns["rs"], ns["objective"]

    def at_fixed_samples(params):
        rs.seed(0)
        return objective(params, 0)

    params = ns["init_params"] + 0.3
    rs.seed(0)
    gradient = ns["gradient"](params, 0)   # the program's own grad(variational_objective)
    check_directional(at_fixed_samples, params, gradient)
    ns["train"](num_iters=3)


def ica(ns):
    params = ns["init_params"]
    check_directional(ns["objective"], params, sg.grad(ns["objective"])(params))
    ns["train"](num_iters=3)


def gmm(ns):
    params = ns["init_params"]
    check_directional(ns["objective"], params, sg.grad(ns["objective"])(params))
    ns["train"](num_iters=3)


def neural_net(ns):
    params = ns["init_params"]
    objective = ns["objective"]
    check_directional(lambda p: objective(p, 1), params, ns["objective_grad"](params, 1))
    ns["train"](num_iters=3)


def variational_autoencoder(ns):
    seed, objective = ns["seed"], ns["objective"]

    def at_fixed_samples(params):
        seed.seed(3)
        return objective(params, 0)

    params = ns["combined_init_params"]
    seed.seed(3)
    gradient = sg.grad(objective)(params, 0)
    check_directional(at_fixed_samples, params, gradient)
    ns["train"](num_iters=3)


def ode_net(ns):
    params = ns["init_params"]
    loss = ns["train_loss"]
    check_directional(lambda p: loss(p, 0), params, sg.grad(loss)(params, 0), rtol=1e-3)
    ns["train"](num_iters=2)


def fluidsim(ns):
    rng = np.random.default_rng(1)
    params = ns["init_dx_and_dy"] + 0.3 * rng.standard_normal(ns["init_dx_and_dy"].shape)
    value, gradient = ns["objective_with_grad"](params)
    assert value == pytest.approx(ns["objective"](params))
    check_directional(ns["objective"], params, gradient, rtol=1e-4)


def rnn(ns):
    params, loss = ns["init_params"], ns["training_loss"]
    check_directional(lambda p: loss(p, 0), params, sg.grad(loss)(params, 0))
    ns["train"](num_iters=3)


def logistic_regression(ns):
    loss = ns["training_loss"]
    weights = ns["init_params"] + 0.1
    check_directional(loss, weights, ns["training_gradient_fun"](weights))
    ns["train"](num_iters=3)


PROGRAMS = {"gaussian_process": gaussian_process, "black_box_svi": black_box_svi,
            "ica": ica, "gmm": gmm, "neural_net": neural_net,
            "variational_autoencoder": variational_autoencoder, "ode_net": ode_net,
            "fluidsim": fluidsim, "rnn": rnn, "logistic_regression": logistic_regression}
# program -> why it does not port yet (the first blocker; see the docs page)
NOT_YET = {}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_a_program_ported_by_its_imports_runs_with_right_gradients(name):
    if name in NOT_YET:
        pytest.xfail(NOT_YET[name])
    PROGRAMS[name](load(name))


def test_the_programs_are_written_for_autograd():
    for path in HERE.glob("*.py"):
        assert "import autograd.numpy as np" in path.read_text(), path.name
    assert sorted(p.stem for p in HERE.glob("*.py")) == sorted(PROGRAMS)
