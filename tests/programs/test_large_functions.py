"""Large and deeply nested functions compile and give finite-difference gradients, in
reverse, forward and hvp, with no ``RecursionError`` or ``IndentationError``: many
statements, nested ``if`` and ``for`` blocks up to what CPython itself compiles, chains
of helpers, unrolled loops, and many exits (each ``return`` or ``break`` once nested the
rest of the function one level deeper). Code whose derivative would nest deeper than
Python compiles is a ``TransformError`` at the user's line.

CI runs each family at a small size (hvp on the smallest); ``--large-functions-full``
runs the sizes of the claim (5,000 statements, 98 nested ``if`` blocks (97 for hvp), 20
nested loops, 50 helpers, 200 unrolled steps, 200 exits), hvp on all but the 5,000
statements."""

import linecache

import numpy as np
import pytest

import srcgrad as sg

V = np.array([0.3, -0.2, 0.5])
T = np.array([1.0, 0.5, -1.0])
SIZES = pytest.mark.parametrize("full", [
    False, pytest.param(True, marks=pytest.mark.large_functions_full, id="full")])


def _build(name, lines, prelude=()):
    source = "\n".join(list(prelude) + [f"def {name}(v):"] + lines) + "\n"
    filename = f"<large {name} {len(source)}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {"np": np}
    exec(compile(source, filename, "exec"), namespace)
    return namespace[name]


def _fd(f, v, h=1e-6):
    return np.array([(f(v + h * e) - f(v - h * e)) / (2 * h) for e in np.eye(v.size)])


def _check(f, hvp=True):
    want = _fd(f, V)
    for _ in range(2):
        np.testing.assert_allclose(sg.grad(f)(V.copy()), want, rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(sg.jvp(f)(V.copy(), T)[1], want @ T, rtol=1e-6, atol=1e-7)
    if hvp:
        grad_f = sg.grad(f)
        want_hvp = _fd(grad_f, V).T @ T
        np.testing.assert_allclose(sg.hvp(f)(V.copy(), T), want_hvp, rtol=1e-4, atol=1e-6)


def _many_statements(n):
    return ["    a = v * 1.0"] + ["    a = a * 0.999 + 0.001 * np.sin(a)"] * n \
        + ["    return np.sum(a)"]


def _nested_ifs(depth):
    lines = ["    a = v * 1.0", "    s = np.sum(v)"]
    for i in range(depth):
        lines += ["    " * (i + 1) + "if s < 100.0:", "    " * (i + 2) + "a = a * 1.001"]
    return lines + ["    return np.sum(np.sin(a))"]


def _nested_fors(depth):
    lines = ["    a = v * 1.0"]
    lines += ["    " * (i + 1) + f"for k{i} in range(1):" for i in range(depth)]
    return lines + ["    " * (depth + 1) + "a = a * 1.001 + np.sin(a) * 0.01",
                    "    return np.sum(np.sin(a))"]


def _unrolled(steps):
    lines = ["    a = v * 1.0"]
    for _ in range(steps):
        lines += ["    b = np.tanh(a) * 0.5", "    if np.sum(b) > 100.0:",
                  "        b = b * 2.0", "    a = a + 0.01 * b"]
    return lines + ["    return np.sum(a)"]


def _exits(n, loop):
    pad = "        " if loop else "    "
    lines = ["    a = v * 1.0"] + (["    for k in range(3):"] if loop else [])
    for i in range(n):
        lines += [pad + f"if np.sum(a) > {100 + i}.0:",
                  pad + "    " + ("break" if loop else "return np.sum(a)"),
                  pad + "a = a * 1.001 + 0.01 * np.sin(a)"]
    return lines + ["    return np.sum(np.sin(a))"]


@SIZES
def test_many_statements(full):
    _check(_build("many_statements", _many_statements(5000 if full else 120)), hvp=False)


@SIZES
def test_nested_if_blocks_up_to_what_python_compiles(full):
    # 98 blocks are the most a function body holds; the hvp of 98 nests one deeper than
    # Python compiles (a TransformError), of 97 it compiles
    _check(_build("nested_ifs", _nested_ifs(97 if full else 20)))
    if full:
        _check(_build("nested_ifs", _nested_ifs(98)), hvp=False)


@SIZES
def test_nested_loops_up_to_what_python_compiles(full):
    # (each nesting level once doubled the work of the reverse mode's loop fixpoint)
    _check(_build("nested_fors", _nested_fors(20 if full else 12)))


@SIZES
def test_a_chain_of_helpers(full):
    depth = (50 if full else 20)
    prelude = ["def h0(a):", "    return np.sin(a) * 1.01"]
    for i in range(1, depth):
        prelude += [f"def h{i}(a):", f"    return h{i - 1}(a) * 0.99 + 0.01 * np.cos(a)"]
    _check(_build("chain", [f"    return np.sum(h{depth - 1}(v))"], prelude))


@SIZES
def test_an_unrolled_loop(full):
    _check(_build("unrolled", _unrolled(200 if full else 40)), hvp=full)


@SIZES
@pytest.mark.parametrize("loop", [False, True], ids=["returns", "breaks"])
def test_many_exits(loop, full):
    _check(_build("exits", _exits((200 if full else 25), loop)), hvp=full)


def test_a_derivative_deeper_than_python_compiles_is_a_transform_error():
    lines = ["    a = v * 1.0", "    s = np.sum(v)"]
    for i in range(52):
        lines += ["    " * (i + 1) + "if s < 100.0:", "    " * (i + 2) + "a = a * 1.001",
                  "    " * (i + 2) + "if s > 50.0:", "    " * (i + 3) + "return np.sum(a)"]
    f = _build("too_deep", lines + ["    return np.sum(np.sin(a))"])
    with pytest.raises(sg.TransformError, match="more than Python compiles") as info:
        sg.grad(f)(V)
    assert info.value.filename.startswith("<large too_deep") and info.value.lineno > 3
