"""Reading a function's source names its module's file for ``inspect`` directly (no scan
of every loaded module), and the source read is still the function's."""

import inspect

import numpy as np

import srcgrad as sg
from srcgrad.frontend.parse import parse_function
from tests.corpus import arrays


def test_parsing_names_the_module_file_and_reads_the_right_source():
    fn = arrays.mlp
    parsed = parse_function(fn)
    assert parsed.node.name == "mlp"
    assert inspect.modulesbyfile[fn.__code__.co_filename] == fn.__module__



def _two_lambdas_in_a_one_line_try(x):
    # the line does not parse alone (a `try:` without its handler): the lambda is found
    # in a fragment of it, by its columns
    try: return sg.grad(sg.grad(lambda v: np.sum(v)) and (lambda v: np.sum(np.sin(v) * v)))(x)  # noqa: E501,E701
    except ZeroDivisionError: return None  # noqa: E701


def test_the_lambda_read_is_the_one_that_runs_among_several_on_a_line():
    x = np.array([0.3, -1.2, 0.7])
    np.testing.assert_allclose(_two_lambdas_in_a_one_line_try(x), np.sin(x) + x * np.cos(x))
