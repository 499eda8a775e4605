"""Locals that may share storage with a module-level constant: a write through one is
guarded, never a rebinding of the global's name (which made it a local: the function
failed with UnboundLocalError, or read None), and refused at run time only when the
storage really is the global's. Each against central finite differences in every mode."""

import numpy as np
import pytest

import srcgrad as sg
from tests.soundness.oracle_modes import X, check_modes

OFFSET = 1.25
SCALE = 0.7
BIAS = np.array([0.2, -0.6, 1.1])


def number_rebound_in_place_in_a_loop(x):
    s = 0.0
    for i in range(3):
        y = OFFSET
        y -= x[i] ** 2       # a number: rebinds y, OFFSET is unchanged
        s = s + y * OFFSET
    return s


def dict_holding_a_global_number(x):
    acc = x * 1.0
    acc -= x[0]
    d = {"w": SCALE, "b": acc}
    d["w"] = d["w"] * x[1]
    return d["w"] * np.sum(d["b"]) + SCALE


def list_holding_a_global_array(x):
    parts = [BIAS, x * 2.0]
    parts[0] = parts[0] * x   # replaces the item: BIAS is unchanged
    parts[1] = np.sin(parts[0])
    return np.sum(parts[0] * parts[1]) + np.sum(BIAS)


def copy_of_a_global_array_written(x):
    b = np.copy(BIAS)
    c = b
    c[0] = x[0] ** 3
    b += x
    return np.sum(b * BIAS * x)


EXACT = [number_rebound_in_place_in_a_loop, dict_holding_a_global_number,
         list_holding_a_global_array, copy_of_a_global_array_written]


@pytest.mark.parametrize("f", EXACT, ids=lambda f: f.__name__)
def test_locals_sharing_a_class_with_a_global_are_exact(f):
    assert np.any(check_modes(f, second_order=True) != 0.0)
    np.testing.assert_array_equal(BIAS, [0.2, -0.6, 1.1])


def writes_into_a_global_array_through_an_alias(x):
    b = BIAS
    b[0] = x[0] * 2.0        # changes BIAS
    return np.sum(b * x)


def updates_a_global_array_in_place(x):
    b = BIAS
    b += x                   # changes BIAS
    return np.sum(b * x)


@pytest.mark.parametrize("f", [writes_into_a_global_array_through_an_alias,
                               updates_a_global_array_in_place], ids=lambda f: f.__name__)
def test_a_write_into_a_global_arrays_storage_is_refused_at_its_line(f):
    import inspect

    lines, first = inspect.getsourcelines(f)
    line = first + next(i for i, text in enumerate(lines) if "# changes" in text)
    for run in (lambda: sg.grad(f)(X.copy()), lambda: sg.jvp(f)(X.copy(), np.ones(3))):
        with pytest.raises(sg.TransformError, match=f"line {line}: writing into `b` also "
                                                    "changes `BIAS`, which this function "
                                                    "does not own"):
            run()
    np.testing.assert_array_equal(BIAS, [0.2, -0.6, 1.1])
