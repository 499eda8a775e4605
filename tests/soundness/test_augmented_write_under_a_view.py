"""``w += x`` on an array that a view taken earlier shares (``h = w[1]``): Python writes
into the array, so ``h`` sees the new values; the generated code rebinds ``w`` to a new
array. The view is taken again from the rebound name; taking it from another name of the
old array would read the old values (fuzz seed 9702582 gave a wrong value and gradient),
so that is refused at the line when the storage is really shared at run time."""

import numpy as np
import pytest

import srcgrad as sg
from tests.conftest import numeric_grad


def shift(p0, p1, scale=0.5):
    p0 += 1.2
    scale *= np.dot(p1, p1)
    return scale


def view_then_augmented_write_in_a_helper(s):
    p = s
    h = p[1]
    u = np.array(h)
    u[1] = shift(p, h, scale=s[1, 0])
    return np.sum(u)


def view_then_augmented_write(s):
    w = s * 1.0
    h = w[0]
    w += 2.0
    return np.sum(h * h)


def copy_then_augmented_write(s):
    w = s * 1.0
    h = w[0].copy()
    w += 2.0
    return np.sum(h * h) + np.sum(w)


S = np.array([[0.3, -0.4, 0.8], [1.1, 0.2, -0.6]])


def test_a_view_through_another_name_of_the_written_array_is_refused():
    with pytest.raises(sg.TransformError, match=r"line \d+: writing into .* also changes `h`"):
        sg.grad(view_then_augmented_write_in_a_helper)(S.copy())


@pytest.mark.parametrize("f", [view_then_augmented_write, copy_then_augmented_write])
def test_a_view_of_the_written_name_itself_and_a_copy_are_exact(f):
    assert np.allclose(sg.grad(f)(S.copy()), numeric_grad(f, (S.copy(),), 0), rtol=1e-6)
