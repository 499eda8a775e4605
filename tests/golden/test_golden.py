"""The generated gradient source of representative programs, kept as reviewed files.

Each ``tests/golden/<name>.py`` holds ``sg.source(sg.grad(program))`` under a one-line
header. When code generation changes on purpose, regenerate and review the diff:

    SRCGRAD_UPDATE_GOLDEN=1 python -m pytest tests/golden
    git diff tests/golden
"""

import os
import pathlib

import numpy as np
import pytest

import srcgrad as sg
from tests.corpus import arithmetic, arrays, calls, containers, control

HERE = pathlib.Path(__file__).parent
UPDATE = os.environ.get("SRCGRAD_UPDATE_GOLDEN") == "1"

# golden file name -> (program, wrt)
GOLDEN = {
    "straight_line": (arithmetic.elementwise_chain, 0),
    "reassignment": (arithmetic.reassigned, 0),
    "if_elif_else": (control.piecewise, 0),
    "range_recurrence": (control.recurrence, (0, 1)),
    "while_loop": (control.while_halving, 0),
    "loop_break": (control.loop_break, 0),
    "loop_over_array": (control.loop_over_array, 0),
    "user_calls": (calls.helper_chain, 0),
    "item_writes": (containers.item_write, 0),
    "tuple_swap": (containers.swap, (0, 1)),
    "mlp": (arrays.mlp, (0, 1, 2)),
}


def generated(program, wrt):
    header = f"# sg.source(sg.grad({program.__module__}.{program.__name__}, wrt={wrt!r}))\n"
    return header + sg.source(sg.grad(program, wrt=wrt))


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_generated_source_matches_golden(name):
    path = HERE / f"{name}.py"
    text = generated(*GOLDEN[name])
    if UPDATE:
        path.write_text(text)
    assert path.exists(), f"{path} is missing; regenerate with SRCGRAD_UPDATE_GOLDEN=1"
    assert text == path.read_text(), (
        f"generated source of {name} changed; if intended, regenerate with "
        "SRCGRAD_UPDATE_GOLDEN=1 python -m pytest tests/golden and review the diff")


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_is_valid_python_defining_one_function(name):
    import ast

    tree = ast.parse((HERE / f"{name}.py").read_text())
    assert [type(node) for node in tree.body] == [ast.FunctionDef]


def test_no_golden_without_a_program():
    files = {p.stem for p in HERE.glob("*.py")} - {"__init__", "test_golden"}
    assert files == set(GOLDEN)


# Including programs that reassign names (reassigned): they are renamed. Not
# augmented_ops: its `y = x; y += w` updates x too when x is an array (in place), so which
# value x holds afterwards is decided at run time.
STRAIGHT_LINE = [
    pytest.param(program, id=program.__name__)
    for program in [
        arithmetic.polynomial, arithmetic.rational, arithmetic.elementwise_chain,
        arithmetic.mixed_scalar_array, arithmetic.reused_value, arithmetic.math_functions,
        arrays.mlp, arrays.layer_norm, arrays.softmax_cross_entropy, containers.tuple_unpack,
        containers.slice_read, calls.helper_chain, arithmetic.reassigned,
    ]
]


@pytest.mark.parametrize("program", STRAIGHT_LINE)
def test_straight_line_code_uses_no_stack(program):
    wrt = tuple(range(program.__code__.co_argcount))
    text = sg.source(sg.grad(program, wrt=wrt))
    assert "stack" not in text
    assert ".pop(" not in text and ".append(" not in text
    assert "for " not in text and "while " not in text


def test_generated_function_runs_from_its_golden_text():
    # The golden text is real, standalone code: exec it with only np and the runtime.
    from srcgrad import runtime

    namespace = {"np": np, "_sg": runtime}
    exec((HERE / "straight_line.py").read_text(), namespace)
    x = np.array([0.7, -1.3, 0.4])
    np.testing.assert_allclose(namespace["elementwise_chain_grad"](x),
                               sg.grad(arithmetic.elementwise_chain)(x), rtol=1e-14)
