"""Each benchmark workload's srcgrad gradient, once, at tiny sizes, against finite
differences (the benchmark suite itself never runs in the tests)."""

import numpy as np
import pytest

import srcgrad as sg
from benchmarks import workloads
from tests.conftest import directional_check


def _leaves(value, grad, path=()):
    """(path, array, its gradient) for every array in a (nested) list or tuple."""
    if isinstance(value, (list, tuple)):
        assert type(grad) is type(value) and len(grad) == len(value)
        for i, (v, g) in enumerate(zip(value, grad)):
            yield from _leaves(v, g, path + (i,))
    else:
        yield path, value, grad


def _replaced(value, path, leaf):
    if not path:
        return leaf
    items = list(value)
    items[path[0]] = _replaced(items[path[0]], path[1:], leaf)
    return type(value)(items)


@pytest.mark.parametrize("name", workloads.NAMES)
def test_workload_gradient_matches_finite_differences(name):
    workload = workloads.load(name)
    args = workload.inputs("tiny")
    grads = sg.grad(workload.objective, wrt=workload.WRT)(*args)
    assert len(grads) == len(workload.WRT)
    for index, grad in zip(workload.WRT, grads):
        for path, leaf, leaf_grad in _leaves(args[index], grad):
            assert np.shape(leaf_grad) == np.shape(leaf)

            def along(x, *rest, path=path, index=index):
                changed = list(rest)
                changed.insert(index, _replaced(args[index], path, x))
                return workload.objective(*changed)

            others = [a for i, a in enumerate(args) if i != index]
            numeric, analytic = directional_check(along, [leaf, *others], 0, leaf_grad,
                                                  eps=1e-6)
            assert np.isclose(analytic, numeric, rtol=1e-5, atol=1e-7), (index, path)


def test_adbench_lstm_port_gradient_matches_finite_differences():
    from benchmarks.gradbench import lstm

    args = lstm.inputs(5, layers=2, alphabet=3)
    grads = sg.grad(lstm.objective, wrt=lstm.WRT)(*args)
    for index, grad in zip(lstm.WRT, grads):
        others = [a for i, a in enumerate(args) if i != index]

        def along(x, *rest, index=index):
            changed = list(rest)
            changed.insert(index, x)
            return lstm.objective(*changed)

        numeric, analytic = directional_check(along, [args[index], *others], 0, grad)
        assert np.isclose(analytic, numeric, rtol=1e-5, atol=1e-7), index


def test_gpu_check_runs_on_cpu_torch_at_tiny_sizes(capsys):
    """The GPU script's own check (srcgrad's float64 gradient against torch.autograd's on
    the CPU) passes where there is no GPU, at tiny sizes; a planted wrong reference fails."""
    pytest.importorskip("torch")
    from benchmarks import gpu_check

    gpu_check.main(["--size", "tiny", "--repeats", "1"])
    assert "largest float64 error" in capsys.readouterr().out
    real = gpu_check.torch_gradient
    try:
        gpu_check.torch_gradient = lambda f, wrt: (
            lambda *args: [2 * g for g in real(f, wrt)(*args)])
        with pytest.raises(SystemExit, match="differs"):
            gpu_check.main(["--size", "tiny", "--repeats", "1", "--workloads", "mlp"])
    finally:
        gpu_check.torch_gradient = real
