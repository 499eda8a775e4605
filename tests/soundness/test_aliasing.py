"""Writes through names that share storage with others: differentiated exactly (name
aliases of arrays, lists and dicts, ``out=``, ``+=`` through an alias, a sure view of
a written array, a write through a sure subscript view) or refused with a TransformError
naming the line (a view written through other than by subscript, items of nested
containers), never a silent constant. Each against finite differences in every mode."""

import numpy as np
import pytest

import srcgrad as sg
from tests.conftest import numeric_grad
from tests.soundness.oracle_modes import TANGENT, X, check_modes, finite_differences


def write_through_array_alias(x):
    y = np.zeros(3)
    y[1] = x[1]
    z = y
    z[0] = x[0] ** 3
    return np.sum(y * y)


def out_argument(x):
    y = np.zeros(3)
    np.multiply(x, x, out=y)
    return np.sum(y * x)


def out_argument_value(x):
    y = np.ones(3)
    r = np.sin(x, out=y)
    return np.sum(r * y) + y[0]


def append_through_list_alias(x):
    a = [x[0]]
    b = a
    b.append(x[1] * x[2])
    return a[0] * a[1]


def write_through_dict_alias(x):
    a = {"p": x[0]}
    b = a
    b["q"] = x[1] ** 2
    return a["p"] * a["q"]


def augmented_assignment_through_alias(x):
    y = x * 1.0
    z = y
    z += x ** 2        # in place: y changes too
    return np.sum(y * x)


def alias_in_a_loop(x):
    y = np.zeros(3)
    for i in range(3):
        z = y
        z[i] = x[i] * (i + 1.0)
    return np.sum(y ** 2)


def inlined_helper_appends(x):
    def push(items, value):
        items.append(value)

    a = [x[0]]
    push(a, x[1] * 3.0)
    return a[0] * a[1]


def scalar_item_read_before_write(x):
    y = x * 2.0
    old = y[0]           # a number, not a view: the write below does not change it
    y[0] = x[1] ** 2
    return old * np.sum(y)


def augmented_assignment_on_a_view(x):
    y = x * 2.0
    v = y[:2]
    v *= 3.0             # changes y[:2]: written back
    return np.sum(y * y)


def item_write_through_a_view(x):
    y = x * 2.0
    v = y[1:]
    v[0] = x[0] ** 2     # changes y[1]
    return np.sum(y)


def row_of_a_matrix(x):
    m = np.outer(x, x)
    row = m[0]
    m[0, 1] = 5.0        # changes row[1]
    return np.sum(row * x)


def view_re_derived_after_a_write(x):
    m = np.outer(x, x)
    row, t = m[0], m.T
    m[0, 1] = x[2] ** 2      # row and t see it: they are taken again after the write
    m *= x[1]
    return np.sum(row * x) + np.sum(t[1] * x)


def write_through_a_view_into_its_array(x):
    y = x * 2.0
    v, w = y[:2], y[2:]
    v *= x[2]                # changes y[:2]: written back
    w[0] = v[1] * x[0]       # changes y[2]
    return np.sum(y * y) + np.sum(v)


def alias_updated_in_place_in_a_loop(x):
    y = x * 1.0
    z = y
    for i in range(3):
        y += x[i] * z        # in place: z is still y
        w = np.tanh(z)
    s = x[0]
    r = s
    for i in range(2):
        s += x[i + 1]        # a number: rebinds, r keeps its value
    return np.sum(z * w) + r * s


def array_written_into_itself(x):
    y = x * 2.0
    z = y
    z[:] = z             # the value is the array written into
    y[1:] = y[:2] * x[0]
    return np.sum(y * x)


def alias_bound_in_a_loop_that_surely_runs(x):
    y = x * 2.0
    for i in range(2):
        t = y                # still bound after the loop: range(2) runs
        s = np.sum(t) * x[i]
    t *= x                   # in place: y changes too
    return np.sum(y * x) + s


def view_bound_in_a_loop_that_surely_runs(x):
    y = x * 2.0
    for i in range(1, 3):
        v = y[1:]
        s = np.sum(v) * x[i]
    v *= x[0]                # written back into y
    return np.sum(y * x) + s


def view_of_an_array_written_through_its_alias(x):
    k = np.outer(x, x[:2])
    z = k[1]
    z *= x[0]                # written back into k
    y = k
    y[:, 0] += x ** 2        # changes z (a view of k, which y is)
    return np.sum(z * z) + np.sum(np.tanh(k))


def view_of_a_local_bound_twice(x):
    k = np.copy(x)
    q = k[1:]                # on the tape: q = _sg.read_variable(k[1:]), still a view
    q *= x[0]                # written back into k
    s = np.sum(k * x)
    k = x
    return s + np.sum(k)


def row_of_one_name_read_after_a_write_through_another(x):
    k = np.outer(x, x)
    q = k[1]
    y = k
    y[:, 1] += k @ x         # changes q (a view of k, which y is); k not read again
    return np.sum(q * q)


def transpose_of_one_name_read_after_a_write_through_another(x):
    k = np.outer(x, x[:2])
    t = k.T
    y = k
    y[0] = np.sin(x[:2])     # changes t's column 0
    return np.sum(t * np.cos(t))


def reshape_of_one_name_read_after_a_write_through_another(x):
    k = x * 2.0
    r = k.reshape(3, 1)
    y = k
    y[1] = x[0] * x[2]       # changes r[1, 0]
    return np.sum(r ** 3)


EXACT = [row_of_one_name_read_after_a_write_through_another,
         transpose_of_one_name_read_after_a_write_through_another,
         reshape_of_one_name_read_after_a_write_through_another,
         view_of_a_local_bound_twice, view_of_an_array_written_through_its_alias,
         alias_bound_in_a_loop_that_surely_runs, view_bound_in_a_loop_that_surely_runs,
         write_through_array_alias,
         out_argument, out_argument_value,
         append_through_list_alias, write_through_dict_alias,
         augmented_assignment_through_alias, alias_in_a_loop, inlined_helper_appends,
         scalar_item_read_before_write, view_re_derived_after_a_write,
         write_through_a_view_into_its_array, augmented_assignment_on_a_view,
         item_write_through_a_view, row_of_a_matrix, alias_updated_in_place_in_a_loop,
         array_written_into_itself]


@pytest.mark.parametrize("f", EXACT, ids=lambda f: f.__name__)
def test_aliased_writes_are_exact_in_every_mode(f):
    assert np.any(check_modes(f) != 0.0)


def transpose_view(x):
    m = np.outer(x, x)
    t = m.T
    t[0, 1] = x[2]       # changes m[1, 0]
    return np.sum(m * m)


def reshape_view(x):
    m = x * 1.0
    r = m.reshape(3, 1)
    r[2, 0] = x[0] ** 2  # changes m[2]
    return np.sum(m ** 2)


def nested_list_alias(x):
    a = [[x[0], x[1]], [x[2]]]
    inner = a[0]
    inner.append(x[2] ** 2)   # changes a[0]
    return a[0][2] * a[1][0]


REFUSED = [transpose_view, reshape_view, nested_list_alias]


def _marked_line(f):
    import inspect

    lines, first = inspect.getsourcelines(f)
    return first + next(i for i, text in enumerate(lines) if "# changes" in text)


@pytest.mark.parametrize("f", REFUSED, ids=lambda f: f.__name__)
def test_writes_through_views_and_items_are_refused_at_their_line(f):
    line = _marked_line(f)
    for run in (lambda: sg.grad(f)(X.copy()), lambda: sg.jvp(f)(X.copy(), np.ones(3)),
                lambda: sg.value_and_grad(f)(X.copy())):
        with pytest.raises(sg.TransformError, match=f"line {line}: writing into"):
            run()


def test_the_same_array_passed_twice_to_a_writing_function_is_refused():
    def f(a, b):
        a[0] = b[1] * 3.0
        return np.sum(a * b)

    x = X.copy()
    with pytest.raises(sg.TransformError, match="shares storage with another argument"):
        sg.grad(f, wrt=(0, 1))(x, x)
    expected = numeric_grad(lambda b: f(X.copy(), b.copy()), [X.copy()], 0)
    np.testing.assert_allclose(sg.grad(f, wrt=1)(X.copy(), X.copy()), expected, atol=1e-6)


def test_writing_into_a_global_array_is_refused():
    with pytest.raises(sg.TransformError, match="does not own"):
        sg.grad(_writes_global)(X.copy())


BUFFER = np.zeros(3)


def _writes_global(x):
    BUFFER[0] = x[0] * 2.0
    return np.sum(BUFFER * x)


DATA = np.array([[0.1, 0.2, -0.3], [0.3, -0.5, 0.8], [1.0, 0.4, 0.6]])


def _rows_of_zipped_columns(params):
    return params[0], params[1] * 2.0


def zip_star_loop_reading_a_global(x):
    # zip(*...) is lowered to lists built in a loop and copied by tuple(): writing into
    # those lists reaches neither the global nor the argument
    out = []
    for a, b in zip(*_rows_of_zipped_columns((x, x * x))):
        out.append(a * np.sum(DATA * b))
    return np.sum(np.stack(out)) + np.sum(DATA[0] * x)


def test_a_loop_over_zip_star_reading_a_global_is_exact():
    check_modes(zip_star_loop_reading_a_global)
    assert np.array_equal(DATA[0], [0.1, 0.2, -0.3])


def _writes_global_through_a_copied_list(x):
    rows = [BUFFER]
    row = tuple(rows)[0]     # a copy of the list holds the same array
    row[0] = x[0] * 2.0      # changes
    return np.sum(BUFFER * x)


def test_writing_into_a_global_reached_through_a_copied_list_is_refused():
    with pytest.raises(sg.TransformError, match="writing into `row` also changes `BUFFER`, "
                                                "which this function does not own"):
        sg.grad(_writes_global_through_a_copied_list)(X.copy())   # (at run time)


# In an eager unit a load that may be a Variable is `_sg.read_variable(t)`, which is `t`
# itself when it holds none: a write through either name changes the other.
def rebound_from_a_tuple(w):
    y = np.array(w)
    g = y
    w, g = (y, g)
    y[:] *= w[0] + w[1]      # changes w
    return np.sum(w)


def item_of_a_list(x):
    y = x * 2.0
    a = [y, x]
    z = a[0]
    y[0] = x[1] ** 2         # changes z
    return np.sum(z * x)


def item_of_a_dict(x):
    y = x * 2.0
    d = {"a": y}
    z = d["a"]
    z[1] = x[2] ** 3         # changes y
    return np.sum(y * x)


def loop_item(x):
    y = x * 2.0
    s = 0.0
    for r in [y]:
        r[0] = x[1] * 3.0    # changes y
        s = s + np.sum(r)
    return s * np.sum(y)


ITEM_ALIASES = [rebound_from_a_tuple, item_of_a_list, item_of_a_dict, loop_item]


@pytest.mark.parametrize("f", ITEM_ALIASES, ids=lambda f: f.__name__)
def test_writes_into_what_a_variable_read_returned_are_refused_on_the_tape(f):
    line = _marked_line(f)
    with pytest.raises(sg.TransformError, match=f"line {line}: writing into"):
        with sg.GradientTape():
            sg.differentiable(f)(sg.Variable(X.copy()))
    try:   # without the tape: exact (the tuple's item is `y` itself), or refused
        np.testing.assert_allclose(sg.grad(f)(X.copy()), finite_differences(f), rtol=1e-5,
                                   atol=1e-6)
    except sg.TransformError as error:
        assert f"line {line}: writing into" in str(error)


# A name bound to an item of a list or dict (`second = parts[1]`) is that very object:
# a write through it is written back into its slot, and refused where the object is held
# in more than one place or cannot be written back (a tuple's item).
def list_item_written_through_a_name(x):
    parts = [x * 3.0, x * 2.0]
    second = parts[1]
    second[0] = x[2] ** 2
    return np.sum(parts[0] * parts[1])


def list_item_updated_in_place(x):
    parts = [x * 3.0, np.sin(x)]
    last = parts[-1]
    last *= x[0]
    return np.sum(parts[0] * parts[1]) + np.sum(last)


def dict_item_written_through_a_name(x):
    d = {"a": x * 2.0, "b": x[1]}
    a = d["a"]
    a[1] = d["b"] * x[0]
    return np.sum(d["a"] ** 2)


def list_item_replaced_before_the_write(x):
    parts = [x * 3.0, x * 2.0]
    second = parts[1]
    parts[1] = np.cos(x)     # second is no longer the item
    second[0] = x[2] ** 2
    return np.sum(parts[1] * second)


def item_of_a_tuple(x):
    t = (x * 2.0, x[0])
    z = t[0]                 # the item itself: read as `z = _mul`
    z[1] = x[2] ** 3
    return np.sum(t[0] * x)


ITEMS_WRITTEN = [list_item_written_through_a_name, list_item_updated_in_place,
                 dict_item_written_through_a_name, list_item_replaced_before_the_write,
                 item_of_a_tuple]


@pytest.mark.parametrize("f", ITEMS_WRITTEN, ids=lambda f: f.__name__)
def test_a_write_through_a_name_bound_to_an_item_is_written_back(f):
    expected = finite_differences(f)
    assert np.any(expected != 0.0)
    np.testing.assert_allclose(sg.grad(f)(X.copy()), expected, rtol=1e-5, atol=1e-6)
    _, backward = sg.vjp(f)(X.copy())
    np.testing.assert_allclose(backward(1.0), expected, rtol=1e-5, atol=1e-6)
    _, tangent = sg.jvp(f)(X.copy(), TANGENT.copy())
    np.testing.assert_allclose(tangent, expected @ TANGENT, rtol=1e-5, atol=1e-6)
    try:   # on the tape: exact, or refused (the item is read through read_variable there)
        variable = sg.Variable(X.copy())
        with sg.GradientTape() as tape:
            result = sg.differentiable(f)(variable)
        np.testing.assert_allclose(tape.gradient(result, variable), expected, rtol=1e-5,
                                   atol=1e-6)
    except sg.TransformError as error:
        assert "writing into" in str(error)


def item_held_twice(x):
    a = x * 2.0
    parts = [a, a]
    second = parts[1]
    second[0] = x[2] ** 2    # changes parts
    return np.sum(parts[0] * x)


def item_of_a_tuple_read_by_index(x):
    t = (x * 2.0, x)
    k = 0
    for i in range(2):
        k = i
    z = t[k]
    z[1] = x[2] ** 3         # changes t
    return np.sum(t[0] * x)


@pytest.mark.parametrize("f", [item_held_twice, item_of_a_tuple_read_by_index],
                         ids=lambda f: f.__name__)
def test_an_item_held_twice_or_in_a_tuple_is_refused_when_written(f):
    line = _marked_line(f)
    for run in (lambda: sg.grad(f)(X.copy()), lambda: sg.jvp(f)(X.copy(), np.ones(3))):
        with pytest.raises(sg.TransformError, match=f"line {line}: writing into"):
            run()
