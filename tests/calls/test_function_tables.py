"""Functions stored in a list, tuple or dict built in the function and called later
(``fs = [lambda t: t * x, sq, np.sin]; fs[1](x) + fs[0](2.0)``): items that are lambdas
closing over differentiated values, local ``def``s, NumPy functions and other values,
read by a literal index or key, by an index known only when it runs, by ``for g in fs``
(with ``enumerate``, ``zip``, a dict's ``items()`` and ``values()``) and ``len(fs)``,
generated and checked in reverse mode, forward mode and hvp against finite
differences. A container of functions used another way is refused at its line."""

import textwrap

import numpy as np
import pytest

import srcgrad as sg
from srcgrad.errors import TransformError
from tests.calls.oracle import check_modes, load_source

# item expressions: the ones before the bar close over ``x`` or are local ``def``s
ITEMS = ("lambda t: t * x", "sq", "np.sin", "lambda t: np.tanh(t * x) + x", "cube", "other")

CONTAINERS = {
    "list": ("[{}]", lambda i, n: str(i)),
    "tuple": ("({},)", lambda i, n: str(i - n)),   # negative indices
    "dict": ("{{{}}}", lambda i, n: repr(f"k{i}")),
}

READS = {
    "literal": """
        s = fs[{k1}](x) + fs[{k0}](2.0 * x) * x""",
    "loop": """
        s = 0.0
        for g in fs:
            s = s + g(x) * s + g(0.5)""",
    "index": """
        s = 0.0
        for i in range(len(fs)):
            s = s * x + fs[{key}](x)""",
    "enumerate": """
        s = 0.0
        for i, g in enumerate(fs):
            s = s * x + g(x) * (i + 1)""",
    "zip": """
        s = 0.0
        for w, g in zip([1.0, x, 2.0], fs):
            s = s + w * g(x)""",
    "twice": """
        s = fs[{k0}](fs[{k1}](x)) + np.sum(fs[{k1}](np.array([x, 2.0 * x])))""",
}


def cube(t):
    return t ** 3


def program(container, read, first, second):
    items = [ITEMS[first], ITEMS[second], "np.cos"]
    template, key_of = CONTAINERS[container]
    n = len(items)
    keys = [key_of(i, n) for i in range(n)]
    if container == "dict":
        listed = ", ".join(f"{k}: {item}" for k, item in zip(keys, items))
        index = "('k%d' % i)"
    else:
        listed = ", ".join(items)
        index = "i" if container == "list" else "i - 3"
    body = textwrap.dedent(READS[read]).strip("\n").format(k0=keys[0], k1=keys[1], key=index)
    if read == "loop" and container == "dict":
        body = body.replace("g(", "fs[g](")
    if read == "enumerate" and container == "dict":   # its keys and items
        body = body.replace("i, g in enumerate(fs)", "k, g in fs.items()").replace(
            "(i + 1)", "len(k)")
    if read == "zip" and container == "dict":
        body = body.replace("w, g in zip([1.0, x, 2.0], fs)", "g in fs.values()").replace(
            "w * ", "x * ")
    lines = ["def f(x):", "    def sq(t):", "        return t * t + x",
             "    other = np.exp", f"    fs = {template.format(listed)}"]
    lines += ["    " + line for line in body.splitlines()] + ["    return s"]
    return ("import numpy as np\n\nfrom tests.calls.test_function_tables import cube\n\n\n"
            + "\n".join(lines) + "\n")


PAIRS = ((0, 1), (3, 2), (5, 4))
CASES = [(c, r, a, b) for c in CONTAINERS for r in READS for a, b in PAIRS]
# CI: each container with each read once, the item pairs taking turns
SAMPLE = [case for k, case in enumerate(CASES) if k % len(PAIRS) == (k // 3) % len(PAIRS)]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    return tmp_path_factory.mktemp("function_tables")


def _run(folder, container, read, first, second):
    source = program(container, read, first, second)
    module = load_source(source, folder, f"tables_{container}_{read}_{first}{second}")
    check_modes(module.f, 0.7)


@pytest.mark.parametrize("container, read, first, second", SAMPLE)
def test_called_items_in_every_mode(folder, container, read, first, second):
    _run(folder, container, read, first, second)


@pytest.mark.function_tables_full
@pytest.mark.parametrize("container, read, first, second",
                         [case for case in CASES if case not in SAMPLE])
def test_called_items_full(folder, container, read, first, second):
    _run(folder, container, read, first, second)


def keywords_and_dispatch(x):
    fs = {"tanh": lambda t, c=1.0: np.tanh(c * t * x), "sin": lambda t, c=1.0: c * np.sin(t)}
    s = 0.0
    for name in ("sin", "tanh", "sin"):
        s = s * x + fs[name](x, c=x * 0.5)
    return s + fs["tanh"](2.0, c=x) + len(fs)


def list_in_a_lambda_and_a_tuple_of_defs(x):
    def up(t):
        return t * np.exp(0.3 * x)

    def down(t):
        return t / (1.0 + x * x)
    pair = (up, down)
    both = lambda t: pair[0](t) + pair[-1](t) * t
    return both(x) * pair[1](x)


def one_name_for_two_loops(x):
    fs = [lambda t: t * x, np.sin]
    gs = {"a": np.cos, "b": lambda t: t * t * x}
    s = 0.0
    for g in fs:
        s = s + g(x)
    for name, g in gs.items():
        s = s * x + g(x) * len(name)
    for i, g in enumerate(fs):
        s = s + g(x * i)
    return s


@pytest.mark.parametrize("f", [keywords_and_dispatch, list_in_a_lambda_and_a_tuple_of_defs,
                               one_name_for_two_loops])
def test_keywords_nested_reads_and_tuples_of_defs(f):
    check_modes(f, 0.7)
    check_modes(f, -1.3)


def an_index_out_of_range(x):
    fs = [lambda t: t * x, np.sin]
    return fs[len(fs)](x)


def test_an_index_out_of_range_raises_as_python_does():
    with pytest.raises(IndexError):
        an_index_out_of_range(0.7)
    with pytest.raises(IndexError):
        sg.grad(an_index_out_of_range)(0.7)


def appended(x):
    fs = [lambda t: t * x]
    fs.append(np.sin)
    return fs[1](x)


def passed(x):
    fs = [lambda t: t * x, np.sin]
    return sum(f(x) for f in fs)


def reassigned(x):
    fs = [lambda t: t * x]
    fs = [np.sin]
    return fs[0](x)


def literal_missing(x):
    fs = {"a": lambda t: t * x}
    return fs["b"](x)


def defined_later(x):
    fs = (np.sin, later)  # noqa: F821 - a NameError in Python

    def later(t):
        return t * x
    return fs[1](x)


def read_after_the_loop(x):
    fs = [lambda t: t * x, np.sin]
    s = 0.0
    for g in fs:
        s = s + g(x)
    return s + g(2.0)


@pytest.mark.parametrize("f, words", [
    (read_after_the_loop, "whose `g` is not only called in its body"),
    (defined_later, "holds `later` before it is defined"),
    (appended, "`fs` is used as a value"),
    (passed, "`fs` is used as a value"),
    (reassigned, "is assigned, deleted or a parameter more than once"),
    (literal_missing, "has no item 'b'"),
])
def test_other_uses_are_refused_at_their_line(f, words):
    for mode in (lambda x: sg.grad(f)(x), lambda x: sg.jvp(f)(x, 1.0),
                 lambda x: sg.hvp(f)(x, 1.0)):
        with pytest.raises(TransformError, match=words) as caught:
            mode(0.7)
        assert "test_function_tables.py" in str(caught.value)
