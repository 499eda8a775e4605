"""Each benchmark workload's srcgrad gradient, once, at tiny sizes, against finite
differences (the benchmark suite itself never runs in the tests)."""

import numpy as np
import pytest

import srcgrad as sg
from benchmarks import workloads
from tests.conftest import directional_check


@pytest.mark.parametrize("name", workloads.NAMES)
def test_workload_gradient_matches_finite_differences(name):
    workload = workloads.load(name)
    args = workload.inputs("tiny")
    grads = sg.grad(workload.objective, wrt=workload.WRT)(*args)
    assert len(grads) == len(workload.WRT)
    for index, grad in zip(workload.WRT, grads):
        assert np.shape(grad) == np.shape(args[index])
        numeric, analytic = directional_check(workload.objective, args, index, grad, eps=1e-6)
        assert np.isclose(analytic, numeric, rtol=1e-5, atol=1e-7), (index, analytic, numeric)
