"""The generated functions of a unit are compiled one by one, on first use, from their
own lines of the generated module (numbered as in the module)."""

import inspect

import numpy as np

import srcgrad as sg
from srcgrad.compiler import reverse as compiler


def reassigned(x, c):
    s = x * c
    s = s + np.sin(x * c) * 2.0
    s = s * s
    return s


def closed_form(x, c):
    s1 = x * c + np.sin(x * c) * 2.0
    return 2 * s1 * (c + np.cos(x * c) * c * 2.0)


def countdown(x, n):
    if n <= 0:
        return x
    return np.sin(countdown(x, n - 1))


def test_grad_compiles_only_its_own_function_and_the_others_on_demand():
    df = sg.grad(reassigned)
    assert np.isclose(df(0.4, 1.3), closed_form(0.4, 1.3))
    unit = compiler.reverse_unit(reassigned, "x")
    names = unit.module.functions
    assert dict.get(unit.namespace, names["forward"]) is None
    assert dict.get(unit.namespace, names["backward"]) is None
    value, saved = unit.forward(0.4, 1.3)
    grad = unit.backward(saved, 1.0)
    assert np.isclose(grad, closed_form(0.4, 1.3))
    assert np.isclose(value, reassigned(0.4, 1.3))


def test_a_lazily_compiled_function_keeps_its_module_line_numbers_and_source():
    unit = compiler.reverse_unit(reassigned, ("x", "c"))
    for role in ("forward", "backward", "grad", "value_and_grad"):
        function = unit.functions[role]
        first, _ = unit.module.spans[unit.module.functions[role]]
        assert function.__code__.co_firstlineno == first
        assert function.source == unit.function_source(role)
        shown = inspect.getsource(function).splitlines()   # (with the user's lines noted)
        own = unit.function_source(role).splitlines()
        assert len(shown) == len(own)
        assert all(line.startswith(text) for line, text in zip(shown, own))


def test_a_recursive_function_finds_its_own_split_pair_when_first_called():
    x = 0.7
    expected = np.cos(np.sin(x)) * np.cos(x)
    assert np.isclose(sg.grad(countdown)(x, 2), expected)
